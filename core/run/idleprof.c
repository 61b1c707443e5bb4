/* fio's --idle-prof: each CPU's idleness while the jobs run (see idleprof.h). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cpulist.h"
#include "run/idleprof.h"

#define CALIBRATE_RUNS 10	/* the unit's time: the fastest of this many runs ... */
#define CALIBRATE_SCALE 1000	/* ... of this many units each (fio's numbers) */

struct idle_thread {
	struct idle_prof *p;
	pthread_t tid;
	unsigned cpu;
	int error;		/* positive errno of its set-up; what names the step */
	const char *what;
	double unit_us;		/* its calibrated time for one unit */
	uint64_t t0, t1;	/* when it spun, CLOCK_MONOTONIC */
	double loops;		/* units done meanwhile */
	unsigned char *data;
};

struct idle_prof {
	unsigned mode, nr;
	unsigned long page;
	atomic_int stop;	/* the spinning ends (read at every byte, as the unit's cost) */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;		/* threads calibrated or failed */
	bool go, abort;
	struct idle_thread *t;
	unsigned char *buf;
	double mean, stddev;
};

int idle_prof_mode(const char *val, unsigned *mode, struct iop_err *err)
{
	if (val && !strcmp(val, "calibrate"))
		*mode = IDLE_CALIBRATE;
	else if (val && !strcmp(val, "system"))
		*mode = IDLE_SYSTEM;
	else if (val && !strcmp(val, "percpu"))
		*mode = IDLE_PERCPU;
	else
		return iop_errf(err, -EINVAL, "--idle-prof=%s: accepted: calibrate, system, percpu",
				val ? val : "");
	return 0;
}

/* One unit of work from byte j on: the page written byte by byte; false when told to stop. */
static inline bool unit(const struct idle_prof *p, unsigned char *data, unsigned long j,
			unsigned long *k)
{
	for (*k = 0; *k < p->page; (*k)++) {
		data[(*k + j) % p->page] = (unsigned char)(*k % 256);
		if (atomic_load_explicit(&p->stop, memory_order_relaxed))
			return false;
	}
	return true;
}

/* Microseconds per unit: the fastest of CALIBRATE_RUNS runs of CALIBRATE_SCALE units. */
static double calibrate(struct idle_prof *p, unsigned char *data)
{
	double best = 0.0;
	unsigned long i, j, k;

	for (i = 0; i < CALIBRATE_RUNS; i++) {
		uint64_t t0 = mono_ns();
		double us;

		for (j = 0; j < CALIBRATE_SCALE; j++)
			if (!unit(p, data, j, &k))
				return 0.0;
		us = (double)(mono_ns() - t0) / 1000.0;
		if (!i || us < best)
			best = us;
	}
	return best / CALIBRATE_SCALE;
}

static void *idle_main(void *arg)
{
	struct idle_thread *t = arg;
	struct idle_prof *p = t->p;
	struct sched_param sp = { 0 };
	unsigned long j, k = 0;
	cpu_set_t set;
	bool abort_now;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	t->error = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (t->error) {
		t->what = "pinning a thread to it";
	} else {
		t->unit_us = calibrate(p, t->data);
		/* SCHED_IDLE only now: the calibration ran at the normal priority, as fio's */
		t->error = pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
		if (t->error)
			t->what = "SCHED_IDLE";
	}
	pthread_mutex_lock(&p->lock);
	p->ready++;
	pthread_cond_broadcast(&p->cond);
	while (!p->go && !p->abort)
		pthread_cond_wait(&p->cond, &p->lock);
	abort_now = p->abort;	/* read under the lock: the stop writes it under the lock */
	pthread_mutex_unlock(&p->lock);
	if (abort_now || t->error)
		return NULL;
	t->t0 = mono_ns();
	for (j = 0;; j++)
		if (!unit(p, t->data, j, &k))
			break;
	t->t1 = mono_ns();
	t->loops = (double)j + (double)k / (double)p->page;
	return NULL;
}

static void idle_free(struct idle_prof *p, unsigned started)
{
	unsigned i;

	pthread_mutex_lock(&p->lock);
	p->abort = !p->go;
	atomic_store(&p->stop, 1);
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < started; i++)
		pthread_join(p->t[i].tid, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p->buf);
	free(p->t);
	free(p);
}

/* Every configured CPU online and among this process's: 0, or -ENODEV with the line. */
static int cpus_usable(unsigned nr, struct iop_err *err)
{
	cpu_set_t mine;
	uint64_t online[IOP_CPUS_MAX / 64];
	unsigned c;

	if (sched_getaffinity(0, sizeof(mine), &mine))
		return iop_errf(err, -errno, "--idle-prof: this process's CPUs: %s", strerror(errno));
	memset(online, 0, sizeof(online));
	iop_cpus_online(online);
	for (c = 0; c < nr; c++) {
		if (c >= IOP_CPUS_MAX || c >= CPU_SETSIZE || !cpu_in(online, c))
			return iop_errf(err, -ENODEV, "--idle-prof: CPU %u of the %u configured is not "
					"online: fio's idle profile takes every configured CPU", c, nr);
		if (!CPU_ISSET(c, &mine))
			return iop_errf(err, -ENODEV, "--idle-prof: CPU %u is not among this process's "
					"CPUs (taskset, cgroup cpuset): fio's idle profile takes every "
					"configured CPU", c);
	}
	return 0;
}

int idle_prof_start(unsigned mode, struct idle_prof **out, struct iop_err *err)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
	struct idle_prof *p;
	double sum = 0.0, var = 0.0;
	unsigned i, started = 0;
	int ret;

	*out = NULL;
	if (nr <= 0 || page <= 0)
		return iop_errf(err, -ENOSYS, "--idle-prof: the number of CPUs or the page size is "
				"not known (sysconf)");
	ret = cpus_usable((unsigned)nr, err);
	if (ret)
		return ret;
	p = calloc(1, sizeof(*p));
	if (!p)
		return iop_errf(err, -ENOMEM, "--idle-prof: out of memory");
	p->mode = mode;
	p->nr = (unsigned)nr;
	p->page = (unsigned long)page;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->t = calloc(p->nr, sizeof(*p->t));
	p->buf = malloc(p->nr * p->page);
	if (!p->t || !p->buf) {
		idle_free(p, 0);
		return iop_errf(err, -ENOMEM, "--idle-prof: out of memory for %u CPUs", p->nr);
	}
	for (i = 0; i < p->nr; i++, started++) {
		struct idle_thread *t = &p->t[i];

		t->p = p;
		t->cpu = i;
		t->data = p->buf + (size_t)i * p->page;
		ret = pthread_create(&t->tid, NULL, idle_main, t);
		if (ret) {
			idle_free(p, started);
			return iop_errf(err, -ret, "--idle-prof: a thread for CPU %u: %s", i,
					strerror(ret));
		}
	}
	pthread_mutex_lock(&p->lock);
	while (p->ready < p->nr)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nr; i++) {
		const struct idle_thread *t = &p->t[i];

		if (t->error) {
			ret = t->error;
			iop_errf(err, -ret, "--idle-prof: CPU %u: %s: %s", t->cpu, t->what,
				 strerror(ret));
			idle_free(p, started);
			return -ret;
		}
		sum += t->unit_us;
	}
	p->mean = sum / p->nr;
	for (i = 0; i < p->nr; i++)
		var += pow(p->t[i].unit_us - p->mean, 2);
	/* fio's sample deviation (one CPU: none, where fio prints nan) */
	p->stddev = p->nr > 1 ? sqrt(var / (p->nr - 1)) : 0.0;
	if (mode != IDLE_CALIBRATE) {
		pthread_mutex_lock(&p->lock);
		p->go = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	*out = p;
	return 0;
}

void idle_prof_stop(struct idle_prof *p, struct run_idle *out)
{
	unsigned i;

	memset(out, 0, sizeof(*out));
	if (!p)
		return;
	atomic_store(&p->stop, 1);
	pthread_mutex_lock(&p->lock);
	p->abort = !p->go;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nr; i++)
		pthread_join(p->t[i].tid, NULL);
	out->mode = p->mode;
	out->nr_cpus = p->nr;
	out->unit_mean = p->mean;
	out->unit_stddev = p->stddev;
	out->cpu = calloc(p->nr, sizeof(*out->cpu));
	for (i = 0; i < p->nr && p->mode != IDLE_CALIBRATE; i++) {
		const struct idle_thread *t = &p->t[i];
		double runt_us = (double)(t->t1 - t->t0) / 1000.0;
		double idle = runt_us > 0 ? t->loops * p->mean / runt_us : 0.0;

		/* percent, as fio's: units done, at the mean unit's time, over the time they had */
		if (out->cpu)
			out->cpu[i] = idle * 100.0;
		out->system += idle * 100.0 / p->nr;
	}
	if (!out->cpu)
		out->nr_cpus = 0;
	p->nr = 0;	/* joined: idle_free joins none again */
	idle_free(p, 0);
}

void run_idle_free(struct run_idle *r)
{
	free(r->cpu);
	r->cpu = NULL;
	r->nr_cpus = 0;
}
