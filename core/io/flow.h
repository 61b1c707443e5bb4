/* fio's flow control: jobs sharing a flow_id issue I/Os in proportion to their flow= weights. */
#ifndef IOPATH_FLOW_H
#define IOPATH_FLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * One flow_id of a run. As in fio (flow.c), every worker of every job of the run that has a
 * weight joins its flow when the jobs are set up, and leaves (taking its I/Os and weight back
 * out) when it ends; before each I/O a worker is held back while its share of the flow's I/Os
 * exceeds its share of the weight.
 */
struct flow {
	unsigned id;
	_Atomic uint64_t ios;		/* I/Os of the members still running, from 1 */
	_Atomic uint64_t weight;	/* the weights of the members still running */
};

/* The flows of a run, one per flow_id given. */
struct flow_set {
	struct flow *flows;
	unsigned nr, max;
};

/* Add a member of weight to flow id (made when new); NULL when out of memory. */
struct flow *flow_join(struct flow_set *s, unsigned id, unsigned weight);
void flow_set_free(struct flow_set *s);

/* A member leaves, with the I/Os it counted. */
void flow_leave(struct flow *f, uint64_t mine, unsigned weight);

/* Before an I/O: true when the member (mine I/Os so far, of weight) must hold back. */
static inline bool flow_held(struct flow *f, uint64_t mine, unsigned weight)
{
	uint64_t all = atomic_load_explicit(&f->ios, memory_order_relaxed);
	uint64_t total = atomic_load_explicit(&f->weight, memory_order_relaxed);

	/* fio: mine / all > weight / total */
	return (unsigned __int128)mine * total > (unsigned __int128)weight * all;
}

/*
 * An I/O the member issues: counted in the flow and in *mine. Only one that is issued: a
 * member whose next I/O waits (rate=, thinktime) must not count the wait as I/Os, or the
 * others' shares grow (fio counts once per I/O, its rate wait sleeping inside).
 */
static inline void flow_count(struct flow *f, uint64_t *mine)
{
	atomic_fetch_add_explicit(&f->ios, 1, memory_order_relaxed);
	++*mine;
}

#endif
