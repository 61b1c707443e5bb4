/* null: moves no data. Completes every request at once; the measure of iopath's own cost. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "iopath/engine.h"

struct null_opts {
	int accept;
};

static const struct engine_option null_options[] = {
	{ "null_accept", EOPT_INT, offsetof(struct null_opts, accept), 0, 65536, 0,
	  "accept at most this many requests per submit call, 0 for all (exercises the runner's partial submissions)", NULL },
	{ NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

/* Completed requests wait in a FIFO ring until reaped, oldest first. */
struct null_priv {
	struct io_req **pending;
	unsigned head;		/* oldest waiting request */
	unsigned nr;
	unsigned depth;
	unsigned mask;		/* ring size (a power of two, >= depth) - 1 */
	unsigned accept;	/* per submit call; the depth when not limited */
};

static int null_init(struct engine *e, const struct engine_params *p)
{
	struct null_priv *n = calloc(1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	n->mask = 1;
	while (n->mask < p->iodepth)
		n->mask <<= 1;
	n->pending = calloc(n->mask, sizeof(*n->pending));
	n->mask--;
	if (!n->pending) {
		free(n);
		return -ENOMEM;
	}
	n->depth = p->iodepth;
	n->accept = ((const struct null_opts *)p->opts)->accept ?
		    (unsigned)((const struct null_opts *)p->opts)->accept : p->iodepth;
	if (n->accept < p->iodepth)
		engine_applied(e, "null_accept", "%u", n->accept);
	e->priv = n;
	return 0;
}

static void null_exit(struct engine *e)
{
	struct null_priv *n = e->priv;

	free(n->pending);
	free(n);
}

/* iodepth=1: done in submit, none kept for reap (ENGINE_SYNC_AT_QD1, as fio's null engine) */
static int __attribute__((noinline)) null_submit_qd1(struct io_req **reqs, unsigned nr)
{
	if (!nr)
		return 0;
	reqs[0]->res = reqs[0]->len;
	return 1;
}

static int null_submit(struct engine *e, struct io_req **reqs, unsigned nr)
{
	struct null_priv *n = e->priv;
	unsigned i;

	if (__builtin_expect(n->depth == 1, 0))
		return null_submit_qd1(reqs, nr);
	for (i = 0; i < nr && i < n->accept && n->nr < n->depth; i++) {
		reqs[i]->res = reqs[i]->len;
		n->pending[(n->head + n->nr++) & n->mask] = reqs[i];
	}
	return (int)i;
}

static int null_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct null_priv *n = e->priv;
	unsigned i, got = n->nr < max ? n->nr : max;

	(void)min;
	for (i = 0; i < got; i++)
		done[i] = n->pending[(n->head + i) & n->mask];
	n->head = (n->head + got) & n->mask;
	n->nr -= got;
	return (int)got;
}

const struct engine_ops null_engine = {
	.name = "null",
	.help = "no I/O; requests complete at once (measures iopath's own overhead)",
	.flags = ENGINE_DISKLESS | ENGINE_SYNC_AT_QD1 | ENGINE_SYNC_RANGE,
	.opts_size = sizeof(struct null_opts),
	.options = null_options,
	.init = null_init,
	.exit = null_exit,
	.submit = null_submit,
	.reap = null_reap,
};
