/* write_iolog and read_iolog: a worker's I/O recorded as fio's iolog, and a log replayed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/iolog.h"
#include "job/replay.h"
#include "run/runner.h"
#include "run/worker.h"

static const char *const ddir_names[] = { "read", "write", "trim", "sync", "datasync" };

int trace_path(const struct job_spec *job, unsigned clone, char *out, size_t len)
{
	int n = clone ? snprintf(out, len, "%s.%u", job->write_iolog, clone) :
			snprintf(out, len, "%s", job->write_iolog);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static uint64_t since_us(const struct worker *w, uint64_t t)
{
	return t > w->time.start_ns ? (t - w->time.start_ns) / 1000 : 0;
}

int trace_open(struct worker *w)
{
	char path[PATH_MAX];
	unsigned i;

	if (trace_path(w->job, w->clone, path, sizeof(path))) {
		worker_fail(w, ENAMETOOLONG, "write_iolog: name too long");
		return -ENAMETOOLONG;
	}
	/* made as every log is: a new regular file, or one iopath made before */
	errno = -iolog_create(path);
	w->trace = errno ? NULL : iolog_open(path);
	if (!w->trace) {
		worker_fail(w, errno, "write_iolog: cannot create %s: %s", path, strerror(errno));
		return -errno;
	}
	fprintf(w->trace, "fio version 3 iolog\n");
	for (i = 0; i < w->nr_files; i++)
		fprintf(w->trace, "0 %s add\n", w->files[i].path);
	for (i = 0; i < w->nr_files; i++)
		fprintf(w->trace, "0 %s open\n", w->files[i].path);
	return 0;
}

void trace_issued(struct worker *w, struct io_req *const *reqs, unsigned n, uint64_t t)
{
	uint64_t us = since_us(w, t);
	unsigned i;

	for (i = 0; i < n; i++) {
		const struct io_req *r = reqs[i];

		if (r->ddir > DDIR_DATASYNC)
			continue;
		/* a sync as fio logs it: the request's offset, length 0 */
		fprintf(w->trace, "%llu %s %s %llu %u\n", (unsigned long long)us, r->file->path,
			ddir_names[r->ddir], (unsigned long long)r->offset,
			r->ddir >= DDIR_SYNC ? 0 : r->len);
	}
}

void trace_close(struct worker *w)
{
	uint64_t us = since_us(w, w->time.end_ns);
	unsigned i;
	bool bad;

	if (!w->trace)
		return;
	for (i = 0; i < w->nr_files; i++)
		fprintf(w->trace, "%llu %s close\n", (unsigned long long)us, w->files[i].path);
	bad = ferror(w->trace);
	if (fclose(w->trace) || bad)
		worker_fail(w, EIO, "write_iolog %s: write failed", w->job->write_iolog);
	w->trace = NULL;
}

int replay_setup(struct worker *w)
{
	struct iop_err err;
	int ret;

	w->replay = calloc(1, sizeof(*w->replay));
	if (!w->replay) {
		worker_fail(w, ENOMEM, "read_iolog: out of memory");
		return -ENOMEM;
	}
	err.msg[0] = 0;
	ret = replay_load(w->job, w->replay, &err);
	if (ret) {
		worker_fail(w, -ret, "%s", err.msg);
		return ret;
	}
	if (w->replay->nr_files != w->nr_files) {
		worker_fail(w, EINVAL, "read_iolog %s: the log names %u files, the job has %u",
			    w->job->read_iolog, w->replay->nr_files, w->nr_files);
		return -EINVAL;
	}
	return 0;
}

void replay_done(struct worker *w)
{
	if (!w->replay)
		return;
	replay_free(w->replay);
	free(w->replay);
	w->replay = NULL;
}
