/*
 * Suites: fixed sets of built-in workloads run on named targets, repeated, as one table.
 * vm-paths answers "how much slower is my shared folder than my virtual disk, and for which
 * kind of I/O": it is the two published experiments (dd from /dev/zero and /dev/urandom with
 * conv=fsync; cp in every direction and cat of the copied file) plus 4 KiB random I/O and the
 * small-file metadata loop, each run through the ordinary runner on every target.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "job/job.h"
#include "run/meta.h"
#include "report/report.h"
#include "run/run.h"
#include "results/cells.h"
#include "results/explain.h"
#include "results/suite.h"
#include "job/target.h"
#include "base/tempfiles.h"
#include "base/testhold.h"
#include "job/workloads.h"

#define MIB 1048576.0
#define WIDE_SPREAD 0.5		/* (max - min) / median above this: too wide to judge */

/*
 * Under MPI every rank runs every run of the suite in the same order, and rank 0 merges each
 * one (core/fleet/fleet.h). Whatever changes which runs happen is voted on by all ranks before it
 * happens, so that they stay in step: these are the choices, the strongest winning.
 */
enum {
	VOTE_GO,			/* as planned */
	VOTE_BUFFERED,			/* direct=1 was refused here: everyone again with direct=0 */
	VOTE_CANNOT,			/* this rank cannot run it: nobody does, the rows fail */
};

/* The tests of vm-paths, in table order after the copy matrix. */
static const struct {
	const char *test;
	const char *workload;
	const char *metric;
	int meta_op;
} per_target[] = {
	{ "cat-read", "cat-read", "MiB/s", -1 },
	{ "dd-zero", "dd-zero", "MiB/s", -1 },
	{ "dd-urandom", "dd-urandom", "MiB/s", -1 },
	{ "randread-4k-qd1", "randread-4k-qd1", "IOPS", -1 },
	{ "randread-4k-qd32", "randread-4k-qd32", "IOPS", -1 },
	{ "randwrite-4k-qd32", "randwrite-4k-qd32", "IOPS", -1 },
	{ "metadata create", "metadata", "ops/s", META_CREATE },
	{ "metadata stat", "metadata", "ops/s", META_STAT },
	{ "metadata open-read", "metadata", "ops/s", META_OPEN_READ },
	{ "metadata unlink", "metadata", "ops/s", META_UNLINK },
};
#define NR_PER_TARGET (sizeof(per_target) / sizeof(per_target[0]))

static int add_cell(struct suite_result *res, unsigned repeat, const char *test,
		    const char *workload, const char *metric, unsigned from, unsigned to, int op)
{
	struct suite_cell *c = &res->cells[res->nr_cells++];

	memset(c, 0, sizeof(*c));
	c->test = test;
	c->workload = workload;
	c->metric = metric;
	c->from = from;
	c->to = to;
	c->meta_op = op;
	c->values = calloc(repeat, sizeof(*c->values));
	return c->values ? 0 : -ENOMEM;
}

static int build_cells(const struct suite_opts *o, struct suite_result *res)
{
	unsigned nt = o->nr_targets, a, b, t, k;
	int ret = 0;

	res->cells = calloc(nt * nt + nt * NR_PER_TARGET, sizeof(*res->cells));
	if (!res->cells)
		return -ENOMEM;
	/* copies: each target onto itself first, then every other direction */
	for (a = 0; a < nt && !ret; a++)
		ret = add_cell(res, o->repeat, "copy", "copy", "MiB/s", a, a, -1);
	for (a = 0; a < nt && !ret; a++)
		for (b = 0; b < nt && !ret; b++)
			if (a != b)
				ret = add_cell(res, o->repeat, "copy", "copy", "MiB/s", a, b, -1);
	for (k = 0; k < NR_PER_TARGET && !ret; k++)
		for (t = 0; t < nt && !ret; t++)
			ret = add_cell(res, o->repeat, per_target[k].test, per_target[k].workload,
				       per_target[k].metric, t, t, per_target[k].meta_op);
	return ret;
}

/* The value a finished job gives a cell. */
static double cell_value(const struct suite_cell *c, const struct job_result *r)
{
	const struct dir_stat *d;
	double secs;

	if (c->meta_op >= 0) {
		if (!r->meta || !r->meta->phase_ns[c->meta_op])
			return 0;
		return (double)r->meta->op[c->meta_op].n / ((double)r->meta->phase_ns[c->meta_op] / 1e9);
	}
	d = &r->dir[r->spec->rw == RW_READ || r->spec->rw == RW_RANDREAD ? STAT_READ : STAT_WRITE];
	secs = (double)r->runtime_ns / 1e9;
	if (secs <= 0)
		return 0;
	if (!strcmp(c->metric, "IOPS"))
		return (double)d->ios / secs;
	return (double)d->bytes / secs / MIB;
}

struct run_spec {
	struct workload_override ov[8];
	unsigned nr;
	char bufs[4][PATH_MAX + 32];
	char remove[PATH_MAX + 32];	/* a file the run writes anew each time (dd, cp's copy) */
};

static void ov_add(struct run_spec *s, const char *key, const char *val)
{
	s->ov[s->nr].key = key;
	s->ov[s->nr].val = val;
	s->nr++;
}

static const char *ov_path(struct run_spec *s, unsigned slot, const char *dir, const char *name)
{
	snprintf(s->bufs[slot], sizeof(s->bufs[slot]), "%s/%s", dir, name);
	return s->bufs[slot];
}

/*
 * Where each test's files go: the copy source (also what cat-read reads) and the random
 * workloads' file stay for every repeat; dd's output and the copy are new files each time,
 * as dd's and cp's are.
 */
static void plan_run(const struct suite_opts *o, const struct suite_cell *c, unsigned rep,
		     bool buffered, struct run_spec *s)
{
	const struct suite_target *from = &o->targets[c->from], *to = &o->targets[c->to];
	char name[64];

	memset(s, 0, sizeof(*s));
	if (!strcmp(c->workload, "copy")) {
		snprintf(name, sizeof(name), "copy-from-%s.dst", from->name);
		ov_add(s, "copy_from", ov_path(s, 0, from->tmp, "copy.src"));
		ov_add(s, "filename", ov_path(s, 1, to->tmp, name));
		snprintf(s->remove, sizeof(s->remove), "%s", s->bufs[1]);
		/* the checksum comparison reads both files again: once per direction is enough */
		if (rep)
			ov_add(s, "verify", "0");
	} else if (!strcmp(c->workload, "cat-read")) {
		ov_add(s, "filename", ov_path(s, 0, to->tmp, "copy.src"));
	} else if (!strncmp(c->workload, "dd-", 3)) {
		ov_add(s, "filename", ov_path(s, 0, to->tmp, "dd.out"));
		snprintf(s->remove, sizeof(s->remove), "%s", s->bufs[0]);
	} else if (strcmp(c->workload, "metadata")) {
		ov_add(s, "filename", ov_path(s, 0, to->tmp, "rand.dat"));
	}
	if (buffered)
		ov_add(s, "direct", "0");
}

/* Add the run's job objects to a list (the suite's), named for their cell and repeat. */
static void keep_jobs(json_t *list, const struct run_results *rr, const struct suite_opts *o,
		      const struct suite_cell *c, unsigned rep)
{
	struct run_env env;
	json_t *root, *jobs, *job;
	char name[160];
	size_t i;

	run_env_fill(&env, 0, NULL);
	root = report_json(rr, &env, false);
	jobs = root ? json_object_get(root, "jobs") : NULL;
	json_array_foreach(jobs, i, job) {
		if (c->from == c->to)
			snprintf(name, sizeof(name), "%s %s #%u", c->workload, o->targets[c->to].name,
				 rep + 1);
		else
			snprintf(name, sizeof(name), "%s %s->%s #%u", c->workload,
				 o->targets[c->from].name, o->targets[c->to].name, rep + 1);
		json_object_set_new(job, "jobname", json_string(name));
		json_array_append(list, job);
	}
	json_decref(root);
}

/* Every cell the same workload run on the same targets gives a value (metadata: four). */
static void record(struct suite_result *res, unsigned first, const struct job_result *r)
{
	const struct suite_cell *c0 = &res->cells[first];
	unsigned i;

	for (i = first; i < res->nr_cells; i++) {
		struct suite_cell *c = &res->cells[i];
		double v;

		if (strcmp(c->workload, c0->workload) || c->from != c0->from || c->to != c0->to)
			continue;
		v = cell_value(c, r);
		if (v > 0)
			c->values[c->n++] = v;
		if (r->direct_suspect && !c->not_direct[0])
			snprintf(c->not_direct, sizeof(c->not_direct), "%s", r->direct_note);
	}
}

/* direct=1 was refused on the path (on some rank): this run is measured with direct=0. */
static void fall_back(struct suite_result *res, unsigned first, const char *why)
{
	const struct suite_cell *c0 = &res->cells[first];
	unsigned i;

	for (i = first; i < res->nr_cells; i++) {
		struct suite_cell *c = &res->cells[i];

		if (strcmp(c->workload, c0->workload) || c->from != c0->from || c->to != c0->to ||
		    c->fell_back)
			continue;
		c->fell_back = true;
		snprintf(c->note, sizeof(c->note), "direct=1 refused, measured with direct=0: %.270s", why);
	}
}

static void fail_cells(struct suite_result *res, unsigned first, const char *why)
{
	const struct suite_cell *c0 = &res->cells[first];
	unsigned i;

	for (i = first; i < res->nr_cells; i++) {
		struct suite_cell *c = &res->cells[i];

		if (strcmp(c->workload, c0->workload) || c->from != c0->from || c->to != c0->to)
			continue;
		if (!c->note[0] || c->fell_back)
			snprintf(c->note, sizeof(c->note), "%s", why);
	}
}

/* Did the path refuse this job's direct=1 before it started (the probe's trials)? */
static bool refused_direct(const struct run_results *rr)
{
	const struct job_result *r = rr->nr ? &rr->res[0] : NULL;

	return r && r->error && r->spec->direct && strstr(r->errmsg, "refused before starting") &&
	       strstr(r->errmsg, "direct=1");
}

/*
 * One repeat of one cell's workload. direct=1 refused by the path: run it buffered, noted.
 * Under MPI every rank takes each step here, and the votes keep them together: a rank that
 * cannot load the job stops it on all, a refusal of direct=1 on any rank sends all of them
 * back to run it with direct=0, and a stop on any rank ends the suite on all.
 */
static void run_cell(const struct suite_opts *o, struct suite_result *res, unsigned idx,
		     unsigned rep)
{
	const struct suite_cell *c = &res->cells[idx];
	bool buffered = c->fell_back;
	struct workload_setup ws = { 0 };
	const struct cell_recipe recipe = { .workload = c->workload, .setup = &ws };
	struct cell_job cj = { 0 };
	struct run_results rr = { 0 };
	struct iop_err err = { "" };
	struct fleet_vote v;
	struct run_spec s;
	json_t *own;
	char mine[sizeof(err.msg)];
	int ret, choice;

again:
	plan_run(o, c, rep, buffered, &s);
	ws.directory = o->targets[c->to].tmp;
	ws.scale = o->scale;
	ws.overrides = s.ov;
	ws.nr_overrides = s.nr;
	ret = cell_build(&cj, &recipe, &res->probes, &err);
	/* every rank runs it, or none does */
	if (fleet_vote(ret ? VOTE_CANNOT : VOTE_GO, err.msg, 0, &v) || v.stop) {
		res->interrupted = true;
		goto out;
	}
	if (v.choice) {
		fail_cells(res, idx, v.why);
		goto out;
	}
	ret = run_jobs(&cj.jobs, &rr, &err);
	res->runs++;
	choice = ret ? VOTE_CANNOT : !buffered && refused_direct(&rr) ? VOTE_BUFFERED : VOTE_GO;
	snprintf(mine, sizeof(mine), "%s", ret ? err.msg : rr.nr ? rr.res[0].errmsg : "");
	/* --mpi-rank-output: this rank's own jobs, before they are merged */
	own = res->own_jobs && !ret ? json_array() : NULL;
	if (own)
		keep_jobs(own, &rr, o, c, rep);
	/* rank 0's result becomes every rank's, merged exactly; the others keep their own */
	fleet_merge_run(&rr);
	if (fleet_vote(choice, mine, 0, &v))
		v.stop = true;
	if (v.choice == VOTE_CANNOT) {
		fail_cells(res, idx, v.why);
		json_array_clear(own);
	} else if (v.choice == VOTE_BUFFERED && !v.stop) {
		fall_back(res, idx, v.why);
		json_decref(own);
		run_results_free(&rr);
		cell_job_free(&cj);
		if (s.remove[0])
			target_remove(s.remove);
		buffered = true;
		goto again;
	} else if (rr.nr && rr.res[0].error) {
		/* rank 0's merged job names the rank that failed */
		fail_cells(res, idx, rr.res[0].errmsg);
		keep_jobs(res->jobs, &rr, o, c, rep);
	} else if (rr.nr && !rr.interrupted) {
		record(res, idx, &rr.res[0]);
		keep_jobs(res->jobs, &rr, o, c, rep);
	} else {
		json_array_clear(own);
	}
	if (v.stop)
		res->interrupted = true;
	if (own)
		json_array_extend(res->own_jobs, own);
	json_decref(own);
out:
	if (s.remove[0])
		target_remove(s.remove);
	run_results_free(&rr);
	cell_job_free(&cj);
}

/* The filesystem the target's directory is on (report_fs_name), "" when not probed. */
static void target_fs(const struct suite_opts *o, const struct suite_result *res, unsigned t,
		      char *buf, size_t len)
{
	unsigned k;

	*buf = '\0';
	for (k = 0; k < res->probes.nr; k++) {
		const struct probed_dir *d = res->probes.dirs[k];

		if (!strcmp(d->dir, o->targets[t].tmp) && !d->error)
			report_fs_name(buf, len, d->p.fstype, d->p.mount_source, d->p.mount_point);
	}
}

/*
 * A test on two targets that are the same filesystem measures the same thing twice: cells
 * that disagree more than repeats may are marked implausible (report_cell_implausible),
 * which a single repeat cannot show by itself. Copies (two targets) are left out.
 */
static void neighbours(const struct suite_opts *o, struct suite_result *res)
{
	struct plaus_cell *pc = calloc(res->nr_cells + 1, sizeof(*pc));
	char (*fs)[160] = calloc(o->nr_targets + 1, sizeof(*fs));
	unsigned i;

	for (i = 0; pc && fs && i < o->nr_targets; i++)
		target_fs(o, res, i, fs[i], sizeof(fs[i]));
	for (i = 0; pc && fs && i < res->nr_cells; i++) {
		const struct suite_cell *c = &res->cells[i];

		if (c->failed || c->from != c->to)
			continue;
		pc[i].identity = json_pack("{s:s,s:s}", "test", c->test, "target",
					   o->targets[c->to].name);
		pc[i].value = c->sum.median;
		pc[i].fs = fs[c->to][0] ? fs[c->to] : NULL;
	}
	for (i = 0; pc && fs && i < res->nr_cells; i++)
		if (pc[i].identity &&
		    !report_cell_implausible(pc, res->nr_cells, i, res->cells[i].implausible,
					     sizeof(res->cells[i].implausible)))
			res->cells[i].implausible[0] = '\0';
	for (i = 0; pc && i < res->nr_cells; i++)
		json_decref((json_t *)pc[i].identity);
	free(pc);
	free(fs);
}

void suite_summarise(const struct suite_opts *o, struct suite_result *res)
{
	unsigned i, k;

	for (i = 0; i < res->nr_cells; i++) {
		struct suite_cell *c = &res->cells[i];

		c->failed = !c->n;
		if (!c->n && !c->note[0])
			snprintf(c->note, sizeof(c->note), "%s",
				 res->interrupted ? "not run (interrupted)" : "no result");
		if (c->n)
			rstats_summary(c->values, c->n, &c->sum);
		c->wide = c->n > 1 && c->sum.median > 0 &&
			  (c->sum.max - c->sum.min) / c->sum.median > WIDE_SPREAD;
	}
	for (i = 0; i < res->nr_cells; i++) {
		struct suite_cell *c = &res->cells[i];

		for (k = 0; k < res->nr_cells; k++) {
			const struct suite_cell *ref = &res->cells[k];

			if (strcmp(ref->test, c->test) || ref->from != o->reference ||
			    ref->to != o->reference)
				continue;
			if (!c->failed && !ref->failed && c->sum.median > 0)
				c->ratio = ref->sum.median / c->sum.median;
		}
	}
	neighbours(o, res);
}

/* The first cell of each distinct run (a workload on its from/to targets). */
static bool first_of_run(const struct suite_result *res, unsigned idx)
{
	const struct suite_cell *c = &res->cells[idx];
	unsigned i;

	for (i = 0; i < idx; i++)
		if (!strcmp(res->cells[i].workload, c->workload) && res->cells[i].from == c->from &&
		    res->cells[i].to == c->to)
			return false;
	return true;
}

/* "copy disk -> share", "randread-4k-qd1 on disk": what a run is, for the progress line. */
static void run_label(const struct suite_opts *o, const struct suite_cell *c, char *buf,
		      size_t len)
{
	if (c->from != c->to)
		snprintf(buf, len, "%s %s -> %s", c->workload, o->targets[c->from].name,
			 o->targets[c->to].name);
	else
		snprintf(buf, len, "%s on %s", c->workload, o->targets[c->to].name);
}

static unsigned nr_runs(const struct suite_result *res)
{
	unsigned i, n = 0;

	for (i = 0; i < res->nr_cells; i++)
		n += first_of_run(res, i);
	return n;
}

int suite_vm_paths(struct suite_opts *o, struct suite_result *res, const struct suite_hooks *h,
		   struct iop_err *err)
{
	char label[160];
	char prefix[64];
	struct fleet_vote v;
	unsigned t, rep, i;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->jobs = json_array();
	if (fleet_rank_output())
		res->own_jobs = json_array();
	if (!res->jobs || (fleet_rank_output() && !res->own_jobs) || build_cells(o, res))
		ret = iop_errf(err, -ENOMEM, "suite: out of memory");
	/* each rank's own directory (".rankN" in its name under MPI), even on a shared path */
	snprintf(prefix, sizeof(prefix), "iopath-suite%s", fleet_file_suffix());
	for (t = 0; t < o->nr_targets && !ret; t++)
		ret = tempdir_create(o->targets[t].dir, prefix, o->targets[t].tmp,
				     sizeof(o->targets[t].tmp), err);
	/* one full description of each target, reused by every run */
	for (t = 0; t < o->nr_targets && !ret; t++)
		probe_set_need(&res->probes, o->targets[t].tmp, PROBE_TRIALS | PROBE_TIMING);
	/* under MPI: every rank could set up, or none runs anything */
	if (!fleet_vote(ret ? VOTE_CANNOT : VOTE_GO, err->msg, 0, &v) && v.choice) {
		ret = ret ? ret : -ECANCELED;
		if (v.count > 1)
			iop_errf(err, ret, "%s (and %u more ranks)", v.why, v.count - 1);
		else
			iop_errf(err, ret, "%s", v.why);
	}
	if (!ret && h && h->begin)
		h->begin(h->arg, nr_runs(res) * o->repeat);
	/* repeats outermost: every cell once, then again, so drift spreads over all cells */
	for (rep = 0; !ret && rep < o->repeat && !res->interrupted; rep++)
		for (i = 0; i < res->nr_cells && !res->interrupted; i++) {
			if (!first_of_run(res, i))
				continue;
			run_label(o, &res->cells[i], label, sizeof(label));
			if (h && h->start)
				h->start(h->arg, label, rep, o->repeat);
			run_cell(o, res, i, rep);
			if (h && h->end)
				h->end(h->arg);
			/* a test's hold (IOPATH_TEST_HOLD_SUITE=P): the first run is measured */
			if (!rep && !i)
				test_hold("IOPATH_TEST_HOLD_SUITE", "");
		}
	for (t = 0; t < o->nr_targets; t++)
		if (o->targets[t].tmp[0])
			tempfiles_remove(o->targets[t].tmp);
	if (run_stop_requested())
		res->interrupted = true;
	if (!ret)
		suite_summarise(o, res);
	return ret;
}

/*
 * --explain: the extra cells on every target, explained; their jobs join the suite's, so
 * that iopath explain can read the suite's JSON again.
 */
int suite_explain(const struct suite_opts *o, struct suite_result *res, int argc, char **argv,
		  explain_progress_fn fn, void *arg, json_t **out, struct iop_err *err)
{
	struct explain_target t[SUITE_TARGETS_MAX];
	struct results r;
	unsigned i;
	int ret;

	ret = results_init(&r, "suite", "vm-paths", argc, argv, err);
	if (ret)
		return ret;
	for (i = 0; i < o->nr_targets; i++)
		t[i] = (struct explain_target){ o->targets[i].name, o->targets[i].dir, NULL };
	ret = explain_run(&r, t, o->nr_targets, &res->probes, NULL, fn, arg, err);
	if (r.interrupted)
		res->interrupted = true;
	/* explain's cells go in its own section (.iopath.explain.cells), never among the suite's jobs */
	if (!ret) {
		json_t *doc = results_json(&r);

		*out = explain_results(&r, err);
		if (!*out || !doc || json_object_set(*out, "cells", json_object_get(doc, "cells"))) {
			json_decref(*out);
			*out = NULL;
		}
		json_decref(doc);
		ret = *out ? 0 : -ENOMEM;
	}
	results_free(&r);
	return ret;
}

void suite_result_free(struct suite_result *res)
{
	unsigned i;

	for (i = 0; i < res->nr_cells; i++)
		free(res->cells[i].values);
	free(res->cells);
	probe_set_free(&res->probes);
	json_decref(res->jobs);
	json_decref(res->own_jobs);
	memset(res, 0, sizeof(*res));
}
