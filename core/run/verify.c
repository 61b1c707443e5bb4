/* Verification: checking what a read brought back, the dump of a bad block, the checker threads. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/atomic.h"
#include "io/buffer.h"
#include "io/vhdr.h"
#include "base/numapol.h"
#include "run/run.h"
#include "stats/stats.h"
#include "base/atomic.h"
#include "base/cpulist.h"
#include "run/worker.h"
#include "run/runner.h"

/*
 * verify_dump: the block as read goes to PATH.OFFSET.received (fio's name for it). fio also
 * writes the block it expected; iopath checks a header and checksum and cannot regenerate the
 * expected data, so there is no .expected file.
 */
static void __attribute__((noinline)) verify_dump(struct worker *w, const struct io_req *r)
{
	char name[PATH_MAX + 48];
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "%s.%llu.received", r->file->path,
		 (unsigned long long)r->offset);
	/* never onto a device or through a link; a foreign file of that name is kept */
	if (atomic_open_plain(name, &fd))
		return;
	/* best effort: the verify failure is reported either way */
	n = write(fd, r->buf, r->len);
	(void)n;
	(void)w;
	close(fd);
}

/*
 * A block failed verify. The job stops there whatever verify_fatal says (in fio 3.33 the
 * failed completion ends the job too), unless continue_on_error covers verify errors (EILSEQ):
 * then it is counted, reported, and the job goes on.
 */
static void __attribute__((noinline)) verify_failed(struct worker *w, const struct io_req *r,
						    uint64_t bad, const char *why)
{
	w->verify.errors++;
	if (w->job->verify.dump)
		verify_dump(w, r);
	if (err_non_fatal(w->job, ERR_VERIFY, EILSEQ)) {
		err_count(w, EILSEQ);
		errlog_add(w, "verify: %s at offset %llu: %s", r->file->path,
			   (unsigned long long)bad, why);
		return;
	}
	if ((w->job->continue_on_error & (1u << ERR_VERIFY)) && (w->eng.ops->flags & ENGINE_SYNC))
		err_count(w, EILSEQ);
	worker_fail(w, EILSEQ, "verify: %s at offset %llu: %s", r->file->path,
		    (unsigned long long)bad, why);
}

/*
 * verify_write_sequence: the write number the block read by r last got (fio's numberio, as
 * its io_piece keeps it for the verify read), or -1 when it is not checked.
 */
static int want_numberio(const struct worker *w, const struct io_req *r)
{
	const uint16_t *nums = w->verify.wseq ? w->verify.wseq[r->file->index] : NULL;

	if (!nums)
		return -1;
	return nums[(r->offset - r->file->start) / w->plan->unit];
}

void check_read(struct worker *w, const struct io_req *r)
{
	uint64_t bad;
	char why[160];

	if (verify_check_job(w->job, r->buf, r->offset, r->len,
			     job_verify_unit(w->job, w->plan->unit), want_numberio(w, r), &bad, why,
			     sizeof(why)))
		verify_failed(w, r, bad, why);
}

/*
 * verify_async=N (fio's): N threads check completed verify reads instead of the worker. A read
 * stays with them until checked, its request counted against iodepth as fio's io_u is, so the
 * worker keeps other I/O in flight meanwhile. The worker takes the verdicts back in its own
 * thread and acts on a failure exactly as on an inline check (verify_failed).
 */
struct verifier {
	struct worker *w;
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a thread waits for a read to check */
	pthread_cond_t done;		/* the worker waits for checked reads */
	struct io_req **queue;		/* reads to check, a FIFO ring of depth slots */
	unsigned q_head, q_nr;
	struct io_req **fin;		/* checked, for the worker */
	unsigned nr_fin;
	struct io_req **take;		/* the worker's copy of fin */
	struct vfy_verdict {
		int numberio;		/* the write number wanted (set by the worker), or -1 */
		bool failed;
		uint64_t bad;
		char why[160];
	} *verdict;			/* per request slot */
	pthread_t *tids;
	unsigned nr_threads;
	bool stop;
};

static void *verifier_main(void *arg)
{
	struct verifier *v = arg;
	const struct worker *w = v->w;
	uint32_t unit = job_verify_unit(w->job, w->plan->unit);
	struct vfy_verdict *d;
	struct io_req *r;

	pthread_mutex_lock(&v->lock);
	for (;;) {
		while (!v->q_nr && !v->stop)
			pthread_cond_wait(&v->work, &v->lock);
		if (!v->q_nr)
			break;
		r = v->queue[v->q_head];
		v->q_head = (v->q_head + 1) % w->params.iodepth;
		v->q_nr--;
		pthread_mutex_unlock(&v->lock);
		d = &v->verdict[r->index];
		d->failed = verify_check_job(w->job, r->buf, r->offset, r->len, unit, d->numberio,
					     &d->bad, d->why, sizeof(d->why));
		pthread_mutex_lock(&v->lock);
		v->fin[v->nr_fin++] = r;
		pthread_cond_signal(&v->done);
	}
	pthread_mutex_unlock(&v->lock);
	return NULL;
}

void vfy_push(struct worker *w, struct io_req *r)
{
	struct verifier *v = w->verify.async;

	v->verdict[r->index].numberio = want_numberio(w, r);
	pthread_mutex_lock(&v->lock);
	v->queue[(v->q_head + v->q_nr) % w->params.iodepth] = r;
	v->q_nr++;
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
	w->verify.async_out++;
}

/* Take checked reads back (waiting for one when wait) and act on their verdicts. */
void __attribute__((noinline)) vfy_collect(struct worker *w, bool wait)
{
	struct verifier *v = w->verify.async;
	unsigned i, n;

	pthread_mutex_lock(&v->lock);
	while (wait && !v->nr_fin)
		pthread_cond_wait(&v->done, &v->lock);
	n = v->nr_fin;
	memcpy(v->take, v->fin, n * sizeof(*v->take));
	v->nr_fin = 0;
	pthread_mutex_unlock(&v->lock);
	for (i = 0; i < n; i++) {
		struct io_req *r = v->take[i];
		const struct vfy_verdict *d = &v->verdict[r->index];

		if (d->failed)
			verify_failed(w, r, d->bad, d->why);
		w->free_reqs[w->nr_free++] = r;
	}
	w->verify.async_out -= n;
}

void vfy_drain(struct worker *w)
{
	while (w->verify.async_out)
		vfy_collect(w, true);
}

void vfy_stop(struct worker *w)
{
	struct verifier *v = w->verify.async;
	unsigned i;

	if (!v)
		return;
	pthread_mutex_lock(&v->lock);
	v->stop = true;
	pthread_cond_broadcast(&v->work);
	pthread_mutex_unlock(&v->lock);
	for (i = 0; i < v->nr_threads; i++)
		pthread_join(v->tids[i], NULL);
	pthread_cond_destroy(&v->done);
	pthread_cond_destroy(&v->work);
	pthread_mutex_destroy(&v->lock);
	free(v->queue);
	free(v->fin);
	free(v->take);
	free(v->verdict);
	free(v->tids);
	free(v);
	w->verify.async = NULL;
}

int vfy_start(struct worker *w)
{
	unsigned n = w->job->verify.async;
	struct verifier *v = calloc(1, sizeof(*v));

	if (!v)
		goto nomem;
	w->verify.async = v;
	v->w = w;
	pthread_mutex_init(&v->lock, NULL);
	pthread_cond_init(&v->work, NULL);
	pthread_cond_init(&v->done, NULL);
	v->queue = calloc(w->params.iodepth, sizeof(*v->queue));
	v->fin = calloc(w->params.iodepth, sizeof(*v->fin));
	v->take = calloc(w->params.iodepth, sizeof(*v->take));
	v->verdict = calloc(w->params.iodepth, sizeof(*v->verdict));
	v->tids = calloc(n, sizeof(*v->tids));
	if (!v->queue || !v->fin || !v->take || !v->verdict || !v->tids)
		goto nomem;
	for (v->nr_threads = 0; v->nr_threads < n; v->nr_threads++) {
		if (pthread_create(&v->tids[v->nr_threads], NULL, verifier_main, v)) {
			worker_fail(w, EAGAIN, "verify_async: cannot start verify thread %u",
				    v->nr_threads);
			return -EAGAIN;
		}
	}
	/* the loop that watches vq_out */
	w->full = true;
	return 0;
nomem:
	worker_fail(w, ENOMEM, "verify_async: out of memory");
	return -ENOMEM;
}


/*
 * verify_state_save / verify_state_load: fio's state file, local-JOB-N-verify.state in the
 * current directory (fio's version 3 layout: a header with a crc32c of the rest, then one
 * thread's list): how many writes the worker issued, so that a later verify read of the data
 * checks no more blocks than were written. iopath's files load in fio and fio's in iopath.
 */
#define VSTATE_VERSION 3

struct vstate_hdr {
	uint64_t version;
	uint64_t size;
	uint64_t crc;
};

struct vstate_thread {
	uint64_t threads;
	uint32_t no_comps;
	uint32_t depth;
	uint64_t numberio;
	uint64_t index;
	uint64_t rand[7];
	char name[64];
};

int vstate_path(const struct job_spec *job, unsigned clone, char *out, size_t len)
{
	const char *dir = job->aux_path;
	int n = snprintf(out, len, "%s%slocal-%s-%u-verify.state", dir, *dir ? "/" : "",
			 job->name, clone);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

bool vstate_file(const char *path)
{
	struct vstate_hdr h;
	struct vstate_thread t;
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	     pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) && h.version == VSTATE_VERSION &&
	     h.size >= sizeof(t) && h.size <= (1u << 20) &&
	     (uint64_t)st.st_size == sizeof(h) + h.size &&
	     pread(fd, &t, sizeof(t), sizeof(h)) == (ssize_t)sizeof(t) && t.threads;
	close(fd);
	return ok;
}

void vstate_save(struct worker *w)
{
	struct { struct vstate_hdr h; struct vstate_thread t; } s;
	struct atomic_file a;
	char path[PATH_MAX];
	int ret;

	if (vstate_path(w->job, w->clone, path, sizeof(path)))
		return;
	memset(&s, 0, sizeof(s));
	s.t.threads = 1;
	s.t.depth = w->params.iodepth;
	s.t.numberio = w->verify.seq;
	memcpy(s.t.name, w->job->name, strnlen(w->job->name, sizeof(s.t.name) - 1));
	s.h.version = VSTATE_VERSION;
	s.h.size = sizeof(s.t);
	s.h.crc = ~crc32c(0, &s.t, sizeof(s.t));
	ret = atomic_open(&a, path);
	if (!ret && fwrite(&s, sizeof(s), 1, a.f) != 1) {
		atomic_abort(&a);
		ret = -EIO;
	} else if (!ret) {
		ret = atomic_commit(&a);
	}
	/* as in fio, a state that cannot be saved costs the job nothing but a line */
	if (ret)
		errlog_add(w, "verify_state_save: cannot write %s: %s", path, strerror(-ret));
}

int vstate_load(struct worker *w, uint64_t *writes)
{
	struct vstate_hdr h;
	struct vstate_thread t;
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (vstate_path(w->job, w->clone, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		worker_fail(w, errno, "verify_state_load: cannot open %s: %s", path, strerror(errno));
		return -errno;
	}
	n = read(fd, &h, sizeof(h));
	if (n == (ssize_t)sizeof(h) && h.version == VSTATE_VERSION && h.size >= sizeof(t))
		n = read(fd, &t, sizeof(t));
	else
		n = -1;
	close(fd);
	if (n != (ssize_t)sizeof(t) || !t.threads) {
		worker_fail(w, EINVAL, "verify_state_load: %s is not a verify state file (fio's version %u)",
			    path, VSTATE_VERSION);
		return -EINVAL;
	}
	*writes = t.numberio;
	return 0;
}
