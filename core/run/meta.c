/*
 * rw=metadata: the small-file loop that shared folders are worst at (npm install, git status).
 * Each worker builds its own tree under <directory>/<job>.<clone>.meta: files_per_dir files in
 * each directory, dir_fanout subdirectories under each. Four timed phases run over all files
 * in order: create, stat, open-read, unlink; every operation's latency goes into that
 * operation's histogram. Directories are made before and removed after the timed phases.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/buffer.h"
#include "run/machine.h"
#include "run/meta.h"
#include "run/run.h"
#include "stats/stats.h"
#include "run/worker.h"

#define META_DEPTH_MAX 64

uint64_t meta_nr_dirs(uint64_t nrfiles, unsigned files_per_dir)
{
	return (nrfiles + files_per_dir - 1) / files_per_dir;
}

/* Directory k's parent is (k - 1) / fanout; directory 0 is the root. */
static unsigned dir_level(uint64_t k, unsigned fanout)
{
	unsigned level = 0;

	while (k) {
		k = (k - 1) / fanout;
		level++;
	}
	return level;
}

unsigned meta_depth(uint64_t nr_dirs, unsigned fanout)
{
	return nr_dirs ? dir_level(nr_dirs - 1, fanout) : 0;
}

/* The path of directory k, into buf. false when it does not fit. */
static bool dir_path(const char *root, uint64_t k, unsigned fanout, char *buf, size_t len)
{
	uint64_t chain[META_DEPTH_MAX];
	unsigned n = 0;
	size_t off;
	int w;

	while (k && n < META_DEPTH_MAX) {
		chain[n++] = k;
		k = (k - 1) / fanout;
	}
	w = snprintf(buf, len, "%s", root);
	if (w < 0 || (size_t)w >= len)
		return false;
	off = (size_t)w;
	while (n--) {
		w = snprintf(buf + off, len - off, "/d%llu", (unsigned long long)chain[n]);
		if (w < 0 || (size_t)w >= len - off)
			return false;
		off += (size_t)w;
	}
	return true;
}

static bool file_path_of(const struct worker *w, uint64_t i, char *buf, size_t len)
{
	const struct job_spec *job = w->job;
	size_t off;
	int n;

	if (!dir_path(w->files[0].path, i / job->files_per_dir, job->dir_fanout, buf, len))
		return false;
	off = strlen(buf);
	n = snprintf(buf + off, len - off, "/f%llu", (unsigned long long)i);
	return n >= 0 && (size_t)n < len - off;
}

static void meta_fail(struct worker *w, int error, const char *what, const char *path)
{
	w->aborted = true;
	if (w->error)
		return;
	w->error = error > 0 ? error : EIO;
	snprintf(w->errmsg, sizeof(w->errmsg), "metadata %s %.400s: %s", what, path,
		 strerror(w->error));
}

static int io_full(int fd, void *buf, size_t len, bool write_it)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write_it ? write(fd, (char *)buf + done, len - done)
			     : read(fd, (char *)buf + done, len - done);
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* One operation on file path; returns 0 or -errno, with what names the failing call. */
static int do_op(struct worker *w, enum meta_op op, const char *path, const char **what)
{
	const struct job_spec *job = w->job;
	int flags = O_CLOEXEC | (job->direct ? O_DIRECT : 0);
	struct stat st;
	int fd, ret = 0;

	switch (op) {
	case META_CREATE:
		*what = "create";
		fd = open(path, flags | O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			return -errno;
		*what = "write";
		if (job->filesize)
			ret = io_full(fd, w->params.buf_base, job->filesize, true);
		if (close(fd) && !ret)
			ret = -errno;
		/* a file this run created but could not fill is not counted: remove it now */
		if (ret)
			unlink(path);
		return ret;
	case META_STAT:
		*what = "stat";
		return stat(path, &st) ? -errno : 0;
	case META_OPEN_READ:
		*what = "open";
		fd = open(path, flags | O_RDONLY);
		if (fd < 0)
			return -errno;
		*what = "read";
		if (job->filesize)
			ret = io_full(fd, w->params.buf_base, job->filesize, false);
		close(fd);
		return ret;
	default:
		*what = "unlink";
		return unlink(path) ? -errno : 0;
	}
}

static void run_phase(struct worker *w, enum meta_op op, uint64_t *done)
{
	struct lat_stat *s = &w->meta->op[op];
	uint64_t i, t0, t1, start = now_ns();
	const char *what = "";
	char path[PATH_MAX];
	int ret;

	*done = 0;
	for (i = 0; i < w->job->nrfiles; i++) {
		if (run_stop_requested()) {
			w->aborted = w->interrupted = true;
			break;
		}
		if (!file_path_of(w, i, path, sizeof(path))) {
			meta_fail(w, ENAMETOOLONG, "path of file", w->files[0].path);
			break;
		}
		t0 = now_ns();
		ret = do_op(w, op, path, &what);
		t1 = now_ns();
		if (ret) {
			meta_fail(w, -ret, what, path);
			break;
		}
		lat_add(s, t1 - t0);
		(*done)++;
	}
	w->meta->phase_ns[op] = now_ns() - start;
}

static int make_tree(struct worker *w, uint64_t nr_dirs)
{
	char path[PATH_MAX];
	uint64_t k;

	for (k = 0; k < nr_dirs; k++) {
		if (!dir_path(w->files[0].path, k, w->job->dir_fanout, path, sizeof(path))) {
			meta_fail(w, ENAMETOOLONG, "mkdir", w->files[0].path);
			return -ENAMETOOLONG;
		}
		if (mkdir(path, 0755) && errno != EEXIST) {
			meta_fail(w, errno, "mkdir", path);
			return -errno;
		}
	}
	return 0;
}

/*
 * Untimed: the files this run created and did not unlink (after an error or Ctrl-C), then
 * the directories (rmdir removes only empty ones). Files 0..created-1 are the run's own:
 * creation stops at the first failure, so a name that already existed (EEXIST) is never
 * counted, and never removed.
 */
static void remove_tree(struct worker *w, uint64_t nr_dirs, uint64_t created, uint64_t unlinked)
{
	char path[PATH_MAX];
	uint64_t i, k;

	for (i = unlinked; i < created; i++)
		if (file_path_of(w, i, path, sizeof(path)))
			unlink(path);
	for (k = nr_dirs; k-- > 0;)
		if (dir_path(w->files[0].path, k, w->job->dir_fanout, path, sizeof(path)))
			rmdir(path);
}

static void to_dir_stat(struct dir_stat *d, const struct lat_stat *s, uint64_t ios,
			uint64_t filesize)
{
	d->ios = ios;
	d->bytes = ios * filesize;
	d->clat = *s;
	d->lat = *s;
}

void *meta_main(void *arg)
{
	struct worker *w = arg;
	const struct job_spec *job = w->job;
	uint64_t nr_dirs = meta_nr_dirs(job->nrfiles, job->files_per_dir), done[META_NR] = { 0 };
	size_t buf_len = job->filesize > 4096 ? job->filesize : 4096;
	unsigned op;
	int ret = 0;

	ret = worker_alloc_files(w, 1);
	if (!ret)
		w->files[0].path = w->plan->paths[w->clone];
	w->meta = calloc(1, sizeof(*w->meta));
	w->st = calloc(STAT_NR, sizeof(*w->st));
	if (ret || !w->meta || !w->st || posix_memalign(&w->params.buf_base, 4096, buf_len)) {
		w->params.buf_base = NULL;
		meta_fail(w, ENOMEM, "buffers", "");
		ret = -ENOMEM;
	}
	if (!ret) {
		w->params.buf_len = 0;	/* malloc'ed, not mapped: freed below */
		buf_fill(job, &w->buf.rng, w->params.buf_base, buf_len);
		for (op = 0; op < META_NR; op++)
			lat_init(&w->meta->op[op]);
		for (op = 0; op < STAT_NR; op++)
			dir_stat_init(&w->st[op]);
		w->meta->files = job->nrfiles;
		w->meta->dirs = nr_dirs;
		w->meta->depth = meta_depth(nr_dirs, job->dir_fanout);
		ret = make_tree(w, nr_dirs);
	}
	gate_arrive(w->start);
	if (!ret)
		run_gate_wait(w);
	if (!ret) {
		getrusage(RUSAGE_THREAD, &w->ru_start);
		w->sched_valid = machine_thread_sched(w->sched_start);
		w->time.start_ns = now_ns();
		for (op = 0; op < META_NR && !w->aborted; op++)
			run_phase(w, op, &done[op]);
		w->time.end_ns = now_ns();
		getrusage(RUSAGE_THREAD, &w->ru_end);
		w->sched_valid = w->sched_valid && machine_thread_sched(w->sched_end);
		to_dir_stat(&w->st[STAT_WRITE], &w->meta->op[META_CREATE], done[META_CREATE],
			    job->filesize);
		to_dir_stat(&w->st[STAT_READ], &w->meta->op[META_OPEN_READ], done[META_OPEN_READ],
			    job->filesize);
	}
	if (w->meta)
		remove_tree(w, nr_dirs, done[META_CREATE], done[META_UNLINK]);
	free(w->params.buf_base);
	w->params.buf_base = NULL;
	run_gate_done(w);
	return NULL;
}
