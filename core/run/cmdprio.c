/* cmdprio: which I/Os get a priority of their own, and their latencies kept per priority. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/runner.h"
#include "run/worker.h"
#include "stats/prio.h"
#include "stats/stats.h"

/* The value of cmdprio_class and cmdprio for direction d: class real-time unless given (fio). */
static uint16_t implicit_prio(const struct job_spec *job, unsigned d)
{
	return IOPRIO_VALUE(job->cmdprio_class[d] ? job->cmdprio_class[d] : IOPRIO_CLASS_RT,
			    job->cmdprio_level[d]);
}

/* One direction's choices, and its priorities in the statistics (the job's own first). */
static int setup_dir(struct worker *w, unsigned d)
{
	const struct job_spec *job = w->job;
	struct cmdprio_run *c = w->cmdprio;
	unsigned i, n = 0, upto = 0;
	uint32_t bs = 0;

	if (d == DDIR_READ ? !job_reads(job->rw) : !job_writes_data(job->rw))
		return 0;
	if (job->cmdprio_bssplit_given) {
		for (i = 0; i < job->nr_cmdprio_split[d]; i++) {
			const struct cmdprio_split *e = &job->cmdprio_split[d][i];

			if (e->bs != bs)
				upto = 0;
			bs = e->bs;
			upto += e->perc;
			c->c[d][n].bs = e->bs;
			c->c[d][n].upto = (uint16_t)upto;
			c->c[d][n++].prio = e->prio ? e->prio : implicit_prio(job, d);
		}
	} else if (job->cmdprio_pct[d]) {
		c->c[d][0].bs = 0;
		c->c[d][0].upto = (uint16_t)job->cmdprio_pct[d];
		c->c[d][n++].prio = implicit_prio(job, d);
	}
	c->nr[d] = n;
	if (!n)
		return 0;
	/* as fio's clat_prio: the job's own priority first, then each new one in order */
	if (prio_stats_add(w->prios, d, w->ioprio) < 0)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (prio_stats_add(w->prios, d, c->c[d][i].prio) < 0)
			return -ENOMEM;
	return 0;
}

int cmdprio_setup(struct worker *w, uint64_t seed)
{
	unsigned d;

	w->cmdprio = calloc(1, sizeof(*w->cmdprio));
	w->prios = calloc(1, sizeof(*w->prios));
	if (!w->cmdprio || !w->prios)
		goto nomem;
	rng_seed(&w->cmdprio->rng, seed ^ 0x9e10ull);
	for (d = 0; d < 2; d++)
		if (setup_dir(w, d))
			goto nomem;
	return 0;
nomem:
	worker_fail(w, ENOMEM, "cmdprio: out of memory");
	return -ENOMEM;
}

void cmdprio_free(struct worker *w)
{
	free(w->cmdprio);
	w->cmdprio = NULL;
	prio_stats_free(w->prios);
	w->prios = NULL;
}

void cmdprio_pick(struct worker *w, struct io_req *r)
{
	const struct cmdprio_run *c = w->cmdprio;
	unsigned d = r->ddir, i;
	uint64_t draw;

	r->ioprio = 0;
	if (d > DDIR_WRITE)
		return;
	for (i = 0; i < c->nr[d] && c->c[d][i].bs && c->c[d][i].bs != r->len; i++)
		;
	if (i == c->nr[d])
		return;
	draw = rng_below(&w->cmdprio->rng, 100);
	for (; i < c->nr[d] && (!c->c[d][i].bs || c->c[d][i].bs == r->len); i++) {
		if (draw < c->c[d][i].upto) {
			r->ioprio = c->c[d][i].prio;
			return;
		}
	}
}

void cmdprio_record(struct worker *w, const struct io_req *r, unsigned sd, uint64_t clat,
		    bool async)
{
	const struct job_spec *job = w->job;
	struct prio_lat *p;

	if (sd > STAT_WRITE || !w->prios->nr[sd])
		return;
	/* fio keeps total latency per priority with lat_percentiles=1, else completion latency */
	if (job->lat_percentiles ? job->disable_lat : job->disable_clat)
		return;
	p = prio_find(w->prios, sd, r->ioprio ? r->ioprio : w->ioprio);
	if (p)
		lat_add(&p->lat, job->lat_percentiles && async ? clat + r->slat_ns : clat);
}
