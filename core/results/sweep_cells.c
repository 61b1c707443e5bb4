/* A sweep's cells: the grid planned as cell jobs, then run with repeats interleaved. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "job/options.h"
#include "results/explain.h"
#include "results/sweep_cells.h"
#include "run/refwork.h"
#include "run/run.h"

/* One combination of the lists; NULL where a workload keeps its own setting. */
struct cell_dims {
	const char *engine, *direct, *bs, *iodepth, *numjobs, *rw, *workload;
};

int sweep_add_set(struct sweep_grid *g, const char *kv, struct iop_err *err)
{
	const char *eq = strchr(kv, '=');

	if (g->nr_sets == SWEEP_SETS_MAX || !eq || eq == kv)
		return iop_errf(err, -EINVAL, "--set '%s': expected KEY=VALUE (at most %d)", kv,
				SWEEP_SETS_MAX);
	snprintf(g->set_keys[g->nr_sets], sizeof(g->set_keys[0]), "%.*s", (int)(eq - kv), kv);
	g->sets[g->nr_sets].key = g->set_keys[g->nr_sets];
	g->sets[g->nr_sets].val = eq + 1;
	g->nr_sets++;
	return 0;
}

/* The cell's options, applied to every job of it (after the workload's own). */
static unsigned cell_opts(struct cell_opt *o, const struct sweep_grid *g, const struct cell_dims *d,
			  const struct sweep_target *t)
{
	unsigned n = 0, i;

#define OPT(k, v) do { if (v) o[n++] = (struct cell_opt){ k, v }; } while (0)
	OPT("ioengine", d->engine);
	OPT("direct", d->direct);
	OPT("bs", d->bs);
	OPT("iodepth", d->iodepth);
	OPT("numjobs", d->numjobs);
	OPT("rw", d->rw);
	OPT("filename", t->file);
	OPT("size", g->size);
	OPT("group_reporting", "1");
	if (strcmp(g->runtime, "0")) {
		OPT("runtime", g->runtime);
		OPT("time_based", "1");
	}
	OPT("ramp_time", g->ramp);
#undef OPT
	for (i = 0; i < g->nr_sets; i++)
		o[n++] = g->sets[i];
	return n;
}

static json_t *cell_identity(const struct sweep_grid *g, const struct cell_dims *d,
			     const struct sweep_target *t)
{
	json_t *id = json_object();
	unsigned i;

	if (!id)
		return NULL;
	json_object_set_new(id, "target", json_string(t->role));
	if (d->workload)
		json_object_set_new(id, "workload", json_string(d->workload));
	else
		json_object_set_new(id, "rw", json_string(d->rw));
	json_object_set_new(id, "engine", json_string(d->engine));
	/* a workload's own settings are part of it: only swept values are named */
	if (d->direct)
		json_object_set_new(id, "direct", json_string(d->direct));
	if (d->bs)
		json_object_set_new(id, "bs", json_string(d->bs));
	if (d->iodepth)
		json_object_set_new(id, "iodepth", json_string(d->iodepth));
	if (d->numjobs)
		json_object_set_new(id, "numjobs", json_string(d->numjobs));
	json_object_set_new(id, "size", json_string(g->size));
	json_object_set_new(id, "runtime", json_string(g->runtime));
	json_object_set_new(id, "ramp", json_string(g->ramp));
	for (i = 0; i < g->nr_sets; i++)
		json_object_set_new(id, g->sets[i].key, json_string(g->sets[i].val));
	return id;
}

static void cell_label(char *buf, size_t len, const char *role, const char *kind,
		       const struct cell_dims *d)
{
	size_t o;

	snprintf(buf, len, "%s %s", role, kind);
#define ADD(fmt, v) do { if (v) { o = strlen(buf); snprintf(buf + o, len - o, fmt, v); } } while (0)
	ADD(" bs=%s", d->bs);
	ADD(" qd=%s", d->iodepth);
	if (d->numjobs && strcmp(d->numjobs, "1"))
		ADD(" jobs=%s", d->numjobs);
	ADD(" %s", d->engine);
	ADD(" direct=%s", d->direct);
#undef ADD
}

static int plan_one(struct sweep_grid *g, struct cell_job *c, unsigned t,
		    const struct cell_dims *d, const char *kind)
{
	struct cell_opt opts[16 + SWEEP_SETS_MAX];
	struct cell_recipe r = { .workload = d->workload, .opts = opts, .where = "sweep" };

	c->target = t;
	cell_label(c->label, sizeof(c->label), g->targets[t].role, kind, d);
	c->identity = cell_identity(g, d, &g->targets[t]);
	if (!c->identity)
		return -ENOMEM;
	r.nr_opts = cell_opts(opts, g, d, &g->targets[t]);
	cell_plan(c, &r, &g->probes, g->targets[t].probe);
	return 0;
}

int sweep_plan(struct sweep_grid *g, struct cell_job **out, unsigned *nr, struct iop_err *err)
{
	const struct sweep_list *kinds = g->workload.n ? &g->workload : &g->rw;
	unsigned total = g->nr_targets * kinds->n * g->bs.n * g->numjobs.n * g->iodepth.n *
			 g->direct.n * g->engine.n;
	unsigned t, w, b, nj, q, di, e, n = 0;
	struct cell_job *cells;

	if (total > 100000)
		return iop_errf(err, -E2BIG, "sweep: %u cells is too many (at most 100000)", total);
	cells = calloc(total ? total : 1, sizeof(*cells));
	if (!cells)
		return iop_errf(err, -ENOMEM, "out of memory for %u cells", total);
	*out = cells;
	/* engines innermost: the engines of one configuration run back to back, A B A B */
	for (t = 0; t < g->nr_targets; t++)
	for (w = 0; w < kinds->n; w++)
	for (b = 0; b < g->bs.n; b++)
	for (nj = 0; nj < g->numjobs.n; nj++)
	for (q = 0; q < g->iodepth.n; q++)
	for (di = 0; di < g->direct.n; di++)
	for (e = 0; e < g->engine.n; e++) {
		struct cell_dims d = {
			.engine = g->engine.v[e], .direct = g->direct.v[di], .bs = g->bs.v[b],
			.iodepth = g->iodepth.v[q], .numjobs = g->numjobs.v[nj],
			.rw = g->workload.n ? NULL : kinds->v[w],
			.workload = g->workload.n ? kinds->v[w] : NULL,
		};

		if (plan_one(g, &cells[n++], t, &d, kinds->v[w])) {
			*nr = n;
			return iop_errf(err, -ENOMEM, "out of memory");
		}
	}
	*nr = n;
	return 0;
}

/* What a fleet vote on one cell can say: go, skip it, or stop the sweep. */
enum { CELL_GO = 0, CELL_SKIP = 1, CELL_STOP = 2 };

void sweep_agree_skips(struct cell_job *cells, unsigned n)
{
	struct fleet_vote v;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (fleet_vote(cells[i].skip ? CELL_SKIP : CELL_GO, cells[i].reason, n, &v))
			return;
		if (v.choice && !cells[i].skip) {
			cells[i].skip = true;
			snprintf(cells[i].reason, sizeof(cells[i].reason), "%s", v.why);
		}
	}
}

unsigned sweep_runnable(const struct cell_job *cells, unsigned n)
{
	unsigned i, runnable = 0;

	for (i = 0; i < n; i++)
		runnable += !cells[i].skip;
	return runnable;
}

/*
 * Lay out a target's file once, filled, through the runner (a one-block read job), so
 * that a write cell running first cannot leave a sparse file for the read cells after it.
 */
static void prepare_target(struct sweep_target *t, struct sweep_grid *g)
{
	const struct cell_opt opts[] = {
		{ "filename", t->file }, { "size", g->size }, { "rw", "read" }, { "bs", "4k" },
		{ "io_size", "4k" },
	};
	const struct cell_recipe r = {
		.opts = opts, .nr_opts = sizeof(opts) / sizeof(opts[0]), .where = "sweep",
	};
	struct cell_job c = { .label = "layout" };
	struct run_results res = { 0 };
	struct iop_err err = { "" };
	int ret;

	t->prepared = true;
	ret = cell_build(&c, &r, &g->probes, &err);
	ret = ret ? ret : run_jobs(&c.jobs, &res, &err);
	if (ret || run_failed(&res)) {
		char msg[sizeof(t->prep_err)];

		snprintf(msg, sizeof(msg), "cannot lay out the target's file: %.500s",
			 ret ? err.msg : res.res[0].errmsg);
		memcpy(t->prep_err, msg, sizeof(msg));
	}
	run_results_free(&res);
	cell_job_free(&c);
}

/* One run of one cell: 1 to go on, 0 when the sweep stops, -errno with err. */
/* The IOPS of one run of a cell: every job's I/Os in every direction over its runtime. */
static double run_iops(const struct run_results *rr)
{
	double iops = 0;
	unsigned i, d;

	for (i = 0; i < rr->nr; i++) {
		const struct job_result *j = &rr->res[i];
		uint64_t ios = 0;

		for (d = STAT_READ; d <= STAT_TRIM; d++)
			ios += j->dir[d].ios;
		if (j->error || j->interrupted || !j->runtime_ns)
			return NAN;
		iops += (double)ios * 1e9 / (double)j->runtime_ns;
	}
	return rr->nr ? iops : NAN;
}

bool sweep_needs_repeat(unsigned n, double sum, double sumsq, double se_target)
{
	double var;

	if (n < 2)
		return false;
	var = (sumsq - sum * sum / n) / (n - 1);
	return sqrt(fmax(var, 0) / n) > se_target;
}

static int run_one(struct sweep_grid *g, struct cell_job *c, unsigned rep, struct results *res,
		   const struct sweep_hooks *h, double *iops, struct iop_err *err)
{
	struct sweep_target *t = &g->targets[c->target];
	unsigned ints = h->interrupts ? h->interrupts(h->arg) : 0;
	struct run_results rr = { 0 };
	struct ref_times before, after;
	struct fleet_vote v;
	int choice, ret;

	if (c->disk && !t->prepared)
		prepare_target(t, g);
	/* the ranks go on, skip or stop together (alone: this process's own answer) */
	choice = ints ? CELL_STOP : c->disk && t->prep_err[0] ? CELL_SKIP : CELL_GO;
	if (fleet_vote(choice, choice == CELL_SKIP ? t->prep_err : "", 0, &v) || v.stop ||
	    v.choice == CELL_STOP)
		return 0;
	if (v.choice == CELL_SKIP) {
		ret = cell_record_skip(res, c, v.why, err);
		if (!ret && h->skipped)
			h->skipped(h->arg);
		return ret ? ret : 1;
	}
	if (h->start)
		h->start(h->arg, c->label, rep, g->repeat);
	if (g->references && !g->refw.lines && ref_work_init(&g->refw))
		return iop_errf(err, -ENOMEM, "--references: no memory for the memory reference's buffer");
	if (g->references)
		ref_work_measure(&g->refw, &before);
	ret = run_jobs(&c->jobs, &rr, err);
	if (g->references && !ret) {
		/* the same moment's CPU speed, on both sides of the repeat */
		ref_work_measure(&g->refw, &after);
		rr.machine.ref_cpu_ns[0] = before.cpu_ns;
		rr.machine.ref_cpu_ns[1] = after.cpu_ns;
		rr.machine.ref_mem_ns[0] = before.mem_ns;
		rr.machine.ref_mem_ns[1] = after.mem_ns;
	}
	if (ret && fleet_size() <= 1) {
		/* refused before its first I/O (its files, its space): it says why, the others run */
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		if (h->end)
			h->end(h->arg);
		run_results_free(&rr);
		ret = cell_record_skip(res, c, why, err);
		return ret ? ret : 1;
	}
	if (g->explain && fleet_size() > 1) {
		/* rank 0 also keeps each rank's own run, as that rank's target */
		char *note = explain_rank_note(t->role, t->dir, &g->probes, c->identity, c->label);

		if (fleet_gather_run(&rr, note, explain_add_rank, res) < 0 || !note)
			ret = ret ? ret : iop_errf(err, -ENOMEM, "out of memory");
		free(note);
	} else {
		fleet_merge_run(&rr);	/* under MPI: rank 0's cell holds every rank's */
	}
	if (h->end)
		h->end(h->arg);
	if (!ret)
		ret = cell_record(res, c, &rr, err);
	*iops = run_iops(&rr);
	run_results_free(&rr);
	if (ret)
		return ret;
	ints = h->interrupts ? h->interrupts(h->arg) : 0;
	return ints > 1 || run_stop_requested() ? 0 : 1;
}

/* Do identities a and b agree on every key but skip? */
static bool same_but(const json_t *a, const json_t *b, const char *skip)
{
	const char *k;
	const json_t *v;

	if (json_object_size(a) != json_object_size(b))
		return false;
	json_object_foreach((json_t *)a, k, v)
		if (strcmp(k, skip) && !json_equal(v, json_object_get(b, k)))
			return false;
	return true;
}

void sweep_pair_cells(const struct cell_job *cells, unsigned n, const char *key,
		      const char *const val[2], int *partner)
{
	unsigned i, j;

	for (i = 0; i < n; i++)
		partner[i] = -1;
	for (i = 0; key && i < n; i++) {
		const char *v = json_string_value(json_object_get(cells[i].identity, key));

		if (!v || strcmp(v, val[0]))
			continue;
		for (j = 0; j < n; j++) {
			const char *w = json_string_value(json_object_get(cells[j].identity, key));

			if (partner[j] < 0 && w && !strcmp(w, val[1]) &&
			    same_but(cells[i].identity, cells[j].identity, key)) {
				partner[i] = (int)j;
				partner[j] = (int)i;
				break;
			}
		}
	}
}

bool sweep_pair_needs_repeat(const unsigned *nr, const double *sum, const double *sumsq,
			     const int *partner, unsigned i, double se_target)
{
	int p = partner[i];

	return sweep_needs_repeat(nr[i], sum[i], sumsq[i], se_target) ||
	       (p >= 0 && sweep_needs_repeat(nr[p], sum[p], sumsq[p], se_target));
}

int sweep_run(struct sweep_grid *g, struct cell_job *cells, unsigned n, struct results *res,
	      const struct sweep_hooks *h, struct iop_err *err)
{
	double *sum = calloc(n ? n : 1, sizeof(*sum)), *sumsq = calloc(n ? n : 1, sizeof(*sumsq));
	unsigned *nr = calloc(n ? n : 1, sizeof(*nr)), i, rep, more = 1;
	int *partner = calloc(n ? n : 1, sizeof(*partner));
	double iops;
	int ret = 1;

	if (!sum || !sumsq || !nr || !partner) {
		free(sum);
		free(sumsq);
		free(nr);
		free(partner);
		return iop_errf(err, -ENOMEM, "out of memory");
	}
	sweep_pair_cells(cells, n, g->pair_key, g->pair_val, partner);
	/*
	 * repeats interleaved: every cell once, then every cell again, so drift hits all alike;
	 * past repeat rounds (adaptive), only the cells whose IOPS are not yet known well enough
	 */
	/* the ranks of a fleet must run the same cells: their own spreads could differ */
	unsigned max = fleet_size() > 1 ? 0 : g->repeat_max;

	g->repeated = g->unsettled = 0;
	for (rep = 0; ret > 0 && more && (rep < g->repeat || rep < max); rep++) {
		more = 0;
		for (i = 0; i < n && ret > 0; i++) {
			if (cells[i].skip)
				continue;
			if (rep >= g->repeat && (nr[i] < rep || !sweep_pair_needs_repeat(nr, sum, sumsq, partner, i, g->se_target)))
				continue;
			iops = NAN;
			ret = run_one(g, &cells[i], rep, res, h, &iops, err);
			if (ret > 0 && iops > 0) {
				sum[i] += log(iops);
				sumsq[i] += log(iops) * log(iops);
				nr[i]++;
			}
			more += ret > 0 && rep + 1 >= g->repeat && nr[i] == rep + 1 &&
				sweep_pair_needs_repeat(nr, sum, sumsq, partner, i, g->se_target);
		}
		if (rep + 1 < g->repeat)
			more = 1;
	}
	for (i = 0; i < n && max > g->repeat; i++) {
		g->repeated += nr[i] > g->repeat;
		g->unsettled += nr[i] >= max &&
				sweep_needs_repeat(nr[i], sum[i], sumsq[i], g->se_target);
	}
	free(sum);
	free(sumsq);
	free(nr);
	free(partner);
	if ((h->interrupts && h->interrupts(h->arg)) || run_stop_requested())
		res->interrupted = true;
	return ret < 0 ? ret : 0;
}

/* --explain: the extra cells on every target, after the sweep's own, into the same result. */
static int run_explain(struct sweep_grid *g, struct results *res, const struct sweep_hooks *h,
		       struct iop_err *err)
{
	struct explain_target t[SWEEP_TARGETS_MAX];
	struct explain_opts o = { .size = g->size, .runtime = "1" };
	struct job_spec *s = malloc(sizeof(*s));
	unsigned i;
	int ret;

	/* a second per cell, or less when the sweep's own cells are shorter */
	if (s) {
		job_defaults(s);
		if (!opt_apply(s, "runtime", g->runtime, "", NULL) && s->time.runtime_ns &&
		    s->time.runtime_ns < 1000000000ull)
			o.runtime = g->runtime;
		free(s);
	}

	for (i = 0; i < g->nr_targets; i++)
		t[i] = (struct explain_target){ g->targets[i].role, g->targets[i].dir,
						g->targets[i].file };
	ret = explain_run(res, t, g->nr_targets, &g->probes, &o, h->explain, h->arg, err);
	if ((h->interrupts && h->interrupts(h->arg)) || run_stop_requested())
		res->interrupted = true;
	return ret;
}

/*
 * --explain under MPI: the sweep's cells are every rank's together, over paths that may
 * differ, so they are kept as they are but not explained (their targets say so with the
 * number of ranks); rank 0 has kept each rank's own runs of them too, as one target per
 * rank, and every rank now runs explain's cells on its own path into that target. The ranks
 * agree first, so that all run them or none.
 */
static int run_explain_fleet(struct sweep_grid *g, struct results *res, int ret,
			     const struct sweep_hooks *h, struct iop_err *err)
{
	struct fleet_vote v;
	const json_t *e;
	size_t i;

	/* a rank that failed says why (stop); one that was interrupted says so (skip) */
	int choice = ret ? CELL_STOP : res->interrupted ? CELL_SKIP : CELL_GO;

	if (fleet_vote(choice, ret ? err->msg : "", g->nr_targets, &v) || v.stop ||
	    v.choice == CELL_SKIP) {
		res->interrupted = true;
		return ret;
	}
	if (ret)
		return ret;
	if (v.choice)
		return iop_errf(err, -EIO, "sweep --explain: %s", v.why);
	if (v.key_differs)
		return iop_errf(err, -EINVAL, "sweep --explain: rank %u names %s targets than rank 0; every rank needs the same --target list",
				v.key_rank, "a different number of");
	json_array_foreach(res->targets, i, e) {
		const char *role = json_string_value(json_object_get(e, "role"));
		unsigned k;

		for (k = 0; role && k < g->nr_targets; k++)
			if (!strcmp(role, g->targets[k].role))
				json_object_set_new((json_t *)e, "ranks", json_integer(fleet_size()));
	}
	return run_explain(g, res, h, err);
}

int sweep_explain(struct sweep_grid *g, struct results *res, int ret,
		  const struct sweep_hooks *h, struct iop_err *err)
{
	if (fleet_size() > 1)
		return run_explain_fleet(g, res, ret, h, err);
	if (!ret && !res->interrupted)
		return run_explain(g, res, h, err);
	return ret;
}

static void list_free(struct sweep_list *l)
{
	free(l->buf);
	l->buf = NULL;
}

void sweep_grid_free(struct sweep_grid *g)
{
	ref_work_free(&g->refw);
	probe_set_free(&g->probes);
	list_free(&g->engine);
	list_free(&g->direct);
	list_free(&g->bs);
	list_free(&g->iodepth);
	list_free(&g->numjobs);
	list_free(&g->rw);
	list_free(&g->workload);
}
