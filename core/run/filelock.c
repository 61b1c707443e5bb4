/*
 * lockfile= as fio's lock_file: every job that sets it and does I/O to the same file (the
 * same inode, found from the opened descriptor) shares one lock, held around each request's
 * submission to the engine, which is the I/O itself for a synchronous engine. exclusive: one
 * submission at a time; readwrite: reads together, a write alone.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "run/worker.h"
#include "run/runner.h"

struct file_lock {
	dev_t dev;
	ino_t ino;
	unsigned refs;
	pthread_rwlock_t rw;
	struct file_lock *next;
};

static pthread_mutex_t locks_mu = PTHREAD_MUTEX_INITIALIZER;
static struct file_lock *locks;

int file_lock_take(struct worker *w, unsigned i)
{
	struct file_lock *l;
	struct stat st;

	if (!w->flocks) {
		w->flocks = calloc(w->nr_files, sizeof(*w->flocks));
		if (!w->flocks)
			return -ENOMEM;
	}
	if (w->flocks[i])
		return 0;
	if (fstat(w->files[i].fd, &st))
		return -errno;
	pthread_mutex_lock(&locks_mu);
	for (l = locks; l && !(l->dev == st.st_dev && l->ino == st.st_ino); l = l->next)
		;
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (l && pthread_rwlock_init(&l->rw, NULL)) {
			free(l);
			l = NULL;
		}
		if (l) {
			l->dev = st.st_dev;
			l->ino = st.st_ino;
			l->next = locks;
			locks = l;
		}
	}
	if (l)
		l->refs++;
	pthread_mutex_unlock(&locks_mu);
	w->flocks[i] = l;
	return l ? 0 : -ENOMEM;
}

void file_locks_release(struct worker *w)
{
	struct file_lock **p, *l;
	unsigned i;

	for (i = 0; w->flocks && i < w->nr_files; i++) {
		if (!(l = w->flocks[i]))
			continue;
		pthread_mutex_lock(&locks_mu);
		if (!--l->refs) {
			for (p = &locks; *p != l; p = &(*p)->next)
				;
			*p = l->next;
			pthread_rwlock_destroy(&l->rw);
			free(l);
		}
		pthread_mutex_unlock(&locks_mu);
	}
	free(w->flocks);
	w->flocks = NULL;
}

int file_lock_submit_one(struct worker *w, struct engine *eng, struct io_req *r,
			 const struct io_file *file)
{
	struct file_lock *l = w->flocks[file - w->files];
	int ret;

	if (l && w->job->lockfile == LOCKFILE_READWRITE && r->ddir == DDIR_READ)
		pthread_rwlock_rdlock(&l->rw);
	else if (l)
		pthread_rwlock_wrlock(&l->rw);
	ret = eng->ops->submit(eng, &r, 1);
	if (l)
		pthread_rwlock_unlock(&l->rw);
	return ret;
}

int file_lock_submit(struct worker *w, unsigned n)
{
	unsigned i, done = 0;
	int ret;

	/* one request a submission, as fio queues them: each under its file's lock */
	for (i = 0; i < n; i++) {
		ret = file_lock_submit_one(w, &w->eng, w->batch[i], w->batch[i]->file);
		if (ret < 0)
			return done ? (int)done : ret;
		done += (unsigned)ret;
		if (ret < 1)
			break;
	}
	return (int)done;
}
