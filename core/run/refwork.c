/* Control references: a CPU-bound and a memory-bound unit of fixed work, timed on the thread's CPU clock. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "run/refwork.h"

#define LINE_WORDS 8	/* 64-byte lines */

static double thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int ref_work_init(struct ref_work *w)
{
	long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
	size_t bytes = llc > 0 ? 2 * (size_t)llc : 32u << 20, i, *order;
	uint64_t seed = 0x2545f4914f6cdd1dull;

	if (bytes < (16u << 20))
		bytes = 16u << 20;
	if (bytes > (64u << 20))
		bytes = 64u << 20;
	w->sink = 0;
	w->nr_lines = bytes / (LINE_WORDS * sizeof(uint64_t));
	w->lines = aligned_alloc(64, w->nr_lines * LINE_WORDS * sizeof(uint64_t));
	order = malloc(w->nr_lines * sizeof(*order));
	if (!w->lines || !order) {
		free(w->lines);
		free(order);
		w->lines = NULL;
		return -ENOMEM;
	}
	/* Sattolo's shuffle: one cycle through every line, in an order no prefetcher follows */
	for (i = 0; i < w->nr_lines; i++)
		order[i] = i;
	for (i = w->nr_lines - 1; i > 0; i--) {
		size_t j = (size_t)(next_rand(&seed) % i), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < w->nr_lines; i++)
		w->lines[order[i] * LINE_WORDS] = order[(i + 1) % w->nr_lines];
	free(order);
	return 0;
}

static uint64_t cpu_rounds(uint64_t x, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdull;
		x ^= x >> 29;
		x += i;
	}
	return x;
}

static uint64_t mem_loads(const uint64_t *lines, uint64_t at, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		at = lines[at * LINE_WORDS];
	return at;
}

void ref_work_measure(struct ref_work *w, struct ref_times *t)
{
	double w0 = wall_ns(), c0 = thread_ns(), c1, c2;

	w->sink = cpu_rounds(w->sink | 1, REF_CPU_ROUNDS);
	c1 = thread_ns();
	w->sink = mem_loads(w->lines, w->sink % w->nr_lines, REF_MEM_LOADS);
	c2 = thread_ns();
	t->cpu_ns = (c1 - c0) / REF_CPU_ROUNDS;
	t->mem_ns = (c2 - c1) / REF_MEM_LOADS;
	t->wall_ns = wall_ns() - w0;
}

void ref_work_free(struct ref_work *w)
{
	free(w->lines);
	w->lines = NULL;
}
