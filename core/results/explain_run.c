/*
 * The few cells explain needs, run through the ordinary runner on each target: a short
 * queue-depth ladder with an async engine, buffered against direct, 4 KiB against 1 MiB,
 * and the cost of fsync. Their results land in the caller's result as ordinary cells; a cell
 * the result holds already (one of a sweep's own) is read as it is, not run again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stop.h"
#include "base/tempfiles.h"
#include "fleet/fleet.h"
#include "iopath/engine.h"
#include "iopath/probe.h"
#include "job/job.h"
#include "results/cells.h"
#include "results/explain.h"
#include "run/run.h"

/*
 * The cells, per target. engine NULL: the target's queueing engine; "": the registry's
 * default (plain calls); direct NULL: the target's direct.
 */
static const struct {
	const char *what;
	const char *rw, *bs, *iodepth, *direct, *engine;
	bool fsync;
	bool needs_direct;	/* only worth running when direct=1 works (a pair with it) */
} cells[] = {
	{ "ladder", "randread", "4k", "1", NULL, NULL, false, false },
	{ "ladder", "randread", "4k", "4", NULL, NULL, false, false },
	{ "ladder", "randread", "4k", "16", NULL, NULL, false, false },
	{ "ladder", "randread", "4k", "64", NULL, NULL, false, false },
	{ "buffered", "randread", "4k", "1", "0", NULL, false, true },
	{ "large", "read", "1m", "1", NULL, NULL, false, false },
	{ "fsync", "randwrite", "4k", "1", "0", "", true, false },
};
#define NR_CELLS (sizeof(cells) / sizeof(cells[0]))

/*
 * The engine and direct setting the path takes for the ladder: one whose requests the kernel
 * queues (ENGINE_KERNEL_QUEUE), through rings first (ENGINE_KERNEL_RING), with direct=1, else
 * buffered; else the registry's default, buffered.
 */
static void choose(const struct probe_path *p, const char **engine, bool *direct)
{
	static const unsigned prefer[] = { ENGINE_KERNEL_QUEUE | ENGINE_KERNEL_RING,
					   ENGINE_KERNEL_QUEUE };
	const struct engine_entry *en;
	unsigned d, k;
	char why[256];

	for (d = 0; d < 2; d++)
		for (k = 0; k < sizeof(prefer) / sizeof(prefer[0]); k++)
			for (en = engine_table; en->name; en++) {
				if (en->force_direct || (en->ops->flags & prefer[k]) != prefer[k])
					continue;
				if (!p || !probe_refuses(p, d == 0, en->ops, why, sizeof(why))) {
					*engine = en->name;
					*direct = d == 0;
					return;
				}
			}
	*engine = engine_default;
	*direct = false;
}

/* Cell k's engine: the one chosen for the target, or the registry's default (""). */
static const char *cell_engine(unsigned k, const char *chosen)
{
	if (!cells[k].engine)
		return chosen;
	return cells[k].engine[0] ? cells[k].engine : engine_default;
}

/* Cell k's job on file, through the cell layer. */
static int build(struct cell_job *c, struct probe_set *probes, const char *file,
		 const struct explain_opts *o, const char *engine, const char *direct, unsigned k,
		 struct iop_err *err)
{
	const struct cell_opt opts[] = {
		{ "filename", file }, { "size", o->size }, { "runtime", o->runtime },
		{ "time_based", "1" }, { "ioengine", engine }, { "rw", cells[k].rw },
		{ "bs", cells[k].bs }, { "iodepth", cells[k].iodepth }, { "direct", direct },
		{ "group_reporting", "1" }, { "fsync", "1" },
	};
	const struct cell_recipe r = {
		.opts = opts, .nr_opts = sizeof(opts) / sizeof(opts[0]) - !cells[k].fsync,
		.where = "explain",
	};

	return cell_build(c, &r, probes, err);
}

static json_t *identity(const char *role, const struct explain_opts *o, const char *engine,
			const char *direct, unsigned k)
{
	json_t *id = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "target", role, "rw",
			       cells[k].rw, "engine", engine, "direct", direct, "bs", cells[k].bs,
			       "iodepth", cells[k].iodepth, "numjobs", "1", "size", o->size,
			       "runtime", o->runtime, "ramp", "0");

	if (id && cells[k].fsync)
		json_object_set_new(id, "fsync", json_string("1"));
	return id;
}

/* Cell k's label on the target whose role is role. */
static void name_cell(struct cell_job *c, const char *role, const char *eng, const char *dir,
		      unsigned k)
{
	snprintf(c->label, sizeof(c->label), "%s explain %s bs=%s qd=%s %s direct=%s%s", role,
		 cells[k].rw, cells[k].bs, cells[k].iodepth, eng, dir,
		 cells[k].fsync ? " fsync=1" : "");
}

/* Cell k's identity and jobs, on file. */
static int make_cell(struct cell_job *c, const char *role, struct probe_set *probes,
		     const char *file, const struct explain_opts *o, const char *eng,
		     const char *dir, unsigned k, struct iop_err *err)
{
	c->identity = identity(role, o, eng, dir, k);
	if (!c->identity)
		return iop_errf(err, -ENOMEM, "explain: out of memory");
	return build(c, probes, file, o, eng, dir, k, err);
}

/* The file the cells use: the caller's, else explain.dat in a temporary directory (tmp). */
static int cells_file(const struct explain_target *t, char *tmp, size_t tlen, char *file,
		      size_t flen, struct iop_err *err)
{
	int ret;

	if (t->file) {
		snprintf(file, flen, "%s", t->file);
		return 0;
	}
	ret = tempdir_create(t->dir, "iopath-explain", tmp, tlen, err);
	if (!ret)
		snprintf(file, flen, "%s/explain.dat", tmp);
	return ret;
}

static bool has_target(const struct results *r, const char *role)
{
	const json_t *e;
	size_t i;

	json_array_foreach(r->targets, i, e) {
		const char *s = json_string_value(json_object_get(e, "role"));

		if (s && !strcmp(s, role))
			return true;
	}
	return false;
}

/* Cell k's direct setting: its own, or the one chosen for the target. */
static const char *cell_direct(unsigned k, bool direct)
{
	return cells[k].direct ? cells[k].direct : direct ? "1" : "0";
}

/* What runs on one target: its probe, the engine and direct chosen, and which cells. */
struct target_plan {
	const struct probed_dir *d;
	const char *engine;
	bool direct;
	bool run[NR_CELLS];
	unsigned n;		/* how many of them */
};

/*
 * The target's cells: not a pair with direct=1 the path cannot make, nor a cell the result
 * measured already with the same identity (a sweep's own, with its repeats): the explanation
 * reads that one, and the sweep's cell keeps the repeats it was asked for.
 */
static int plan_target(const struct results *r, const struct explain_target *t,
		       struct probe_set *probes, const struct explain_opts *o,
		       struct target_plan *pl, struct iop_err *err)
{
	unsigned k;

	pl->d = probe_set_need(probes, t->dir, PROBE_TRIALS | PROBE_TIMING);
	if (!pl->d)
		return iop_errf(err, -ENOMEM, "explain: out of memory");
	choose(pl->d->error ? NULL : &pl->d->p, &pl->engine, &pl->direct);
	pl->n = 0;
	for (k = 0; k < NR_CELLS; k++) {
		json_t *id;

		pl->run[k] = false;
		if (cells[k].needs_direct && !pl->direct)
			continue;
		id = identity(t->role, o, cell_engine(k, pl->engine), cell_direct(k, pl->direct), k);
		if (!id)
			return iop_errf(err, -ENOMEM, "explain: out of memory");
		pl->run[k] = !results_find_identity(r, id);
		pl->n += pl->run[k];
		json_decref(id);
	}
	return 0;
}

static int run_target(struct results *r, const struct explain_target *t, struct probe_set *probes,
		      const struct explain_opts *o, const struct target_plan *pl,
		      explain_progress_fn fn, void *arg, unsigned *done, unsigned total,
		      struct iop_err *err)
{
	const struct probed_dir *d = pl->d;
	const struct probe_path *probe = d->error ? NULL : &d->p;
	char tmp[PATH_MAX] = "", file[PATH_MAX + 16];
	unsigned k;
	int ret = 0;

	if (!has_target(r, t->role) &&
	    results_add_target(r, t->role, t->dir, probe, d->error ? strerror(-d->error) : NULL))
		return iop_errf(err, -ENOMEM, "explain: out of memory");
	if (!pl->n)
		return 0;
	ret = cells_file(t, tmp, sizeof(tmp), file, sizeof(file), err);
	if (ret)
		return ret;
	for (k = 0; k < NR_CELLS && !ret && !run_stop_requested(); k++) {
		const char *eng = cell_engine(k, pl->engine), *dir = cell_direct(k, pl->direct);
		struct cell_job c = { 0 };

		if (!pl->run[k])
			continue;
		name_cell(&c, t->role, eng, dir, k);
		if (fn && !fn(arg, c.label, (*done)++, total)) {
			r->interrupted = true;
			break;
		}
		ret = make_cell(&c, t->role, probes, file, o, eng, dir, k, err);
		ret = ret ? ret : cell_run(r, &c, err);
		cell_job_free(&c);
	}
	if (tmp[0])
		tempfiles_remove(tmp);
	return ret;
}

/* Every target's plan first, so that the progress counts the cells that will run. */
static int run_targets(struct results *r, const struct explain_target *t, unsigned nt,
		       struct probe_set *probes, const struct explain_opts *o,
		       explain_progress_fn fn, void *arg, struct iop_err *err)
{
	struct target_plan *pl = calloc(nt ? nt : 1, sizeof(*pl));
	unsigned i, total = 0, done = 0;
	int ret = pl ? 0 : iop_errf(err, -ENOMEM, "explain: out of memory");

	for (i = 0; i < nt && !ret; i++) {
		ret = plan_target(r, &t[i], probes, o, &pl[i], err);
		total += pl[i].n;
	}
	for (i = 0; i < nt && !ret && !run_stop_requested(); i++)
		ret = run_target(r, &t[i], probes, o, &pl[i], fn, arg, &done, total, err);
	free(pl);
	return ret;
}

/*
 * Under MPI every rank runs the cells on its own path, in step with the others (the runner's
 * start barrier, one vote per cell), and rank 0 keeps each rank's cells apart: one target per
 * rank, its role the target's with the rank and its host, and its probe the rank's own.
 */
enum { FLEET_GO = 0, FLEET_STOP = 2 };

void explain_rank_role(const char *role, char *out, size_t len)
{
	snprintf(out, len, "%s-rank%u-%s", role, fleet_rank(), fleet_hostname());
}

int explain_add_rank(void *arg, const struct fleet_rank *rk)
{
	struct results *r = arg;
	json_t *note = rk->probe_json ? json_loads(rk->probe_json, 0, NULL) : NULL;
	json_t *t = json_object_get(note, "target"), *id = json_object_get(note, "identity");
	const char *role = json_string_value(json_object_get(t, "role"));
	struct iop_err err;
	int ret = 0;

	/* a rank that never reported sent no note: the vote before the next cell stops them all */
	if (!note)
		return 0;
	if (role && !has_target(r, role) && json_array_append(r->targets, t))
		ret = -ENOMEM;
	if (!ret && id && !rk->missing)
		ret = results_add_run(r, &rk->res, id,
				      json_string_value(json_object_get(note, "label")), &err);
	json_decref(note);
	return ret;
}

char *explain_rank_note(const char *role, const char *dir, struct probe_set *probes,
			const json_t *identity, const char *label)
{
	const struct probed_dir *d = probe_set_need(probes, dir, PROBE_TRIALS | PROBE_TIMING);
	size_t n = strlen(role);
	json_t *note = NULL, *id = json_deep_copy(identity);
	char own[128], lbl[768], *text = NULL;

	explain_rank_role(role, own, sizeof(own));
	if (!strncmp(label, role, n) && (!label[n] || label[n] == ' '))
		label += n + !!label[n];
	snprintf(lbl, sizeof(lbl), "%s%s%s", own, label[0] ? " " : "", label);
	if (d && id && !json_object_set_new(id, "target", json_string(own)))
		note = json_pack("{s:o,s:O,s:s}", "target",
				 results_target_json(own, dir, d->error ? NULL : &d->p,
						     d->error ? strerror(-d->error) : NULL),
				 "identity", id, "label", lbl);
	if (note)
		text = json_dumps(note, JSON_COMPACT);
	json_decref(note);
	json_decref(id);
	return text;
}

static int run_target_fleet(struct results *r, const struct explain_target *t,
			    struct probe_set *probes, const struct explain_opts *o,
			    explain_progress_fn fn, void *arg, unsigned *done, unsigned total,
			    bool *stopped, struct iop_err *err)
{
	const struct probed_dir *d = probe_set_need(probes, t->dir, PROBE_TRIALS | PROBE_TIMING);
	const struct probe_path *probe = d && !d->error ? &d->p : NULL;
	char tmp[PATH_MAX] = "", file[PATH_MAX + 16], role[128];
	json_t *target = NULL;
	const char *engine;
	bool direct;
	unsigned k;
	int ret = 0;

	explain_rank_role(t->role, role, sizeof(role));
	if (d)
		target = results_target_json(role, t->dir, probe,
					     d->error ? strerror(-d->error) : NULL);
	if (!target)
		ret = iop_errf(err, -ENOMEM, "explain: out of memory");
	choose(probe, &engine, &direct);
	if (!ret)
		ret = cells_file(t, tmp, sizeof(tmp), file, sizeof(file), err);
	for (k = 0; k < NR_CELLS; k++) {
		const char *eng = cell_engine(k, engine);
		const char *dir = cell_direct(k, direct);
		/* a pair with direct=1 this path cannot make: run in step, keep nothing */
		bool keep = !cells[k].needs_direct || direct;
		struct cell_job c = { 0 };
		struct run_results rr = { 0 };
		struct fleet_vote v;
		json_t *note;
		char *text;
		int choice = FLEET_GO;

		name_cell(&c, role, eng, dir, k);
		if (fn && !fn(arg, c.label, (*done)++, total))
			run_request_stop();
		ret = ret ? ret : make_cell(&c, role, probes, file, o, eng, dir, k, err);
		if (ret)
			choice = FLEET_STOP;
		if (fleet_vote(choice, ret ? err->msg : "", NR_CELLS, &v) || v.stop ||
		    v.choice == FLEET_STOP) {
			if (!ret && v.choice == FLEET_STOP)
				ret = iop_errf(err, -EIO, "explain: %s", v.why);
			if (v.stop)
				r->interrupted = true;
			*stopped = true;
			cell_job_free(&c);
			break;
		}
		ret = run_jobs(&c.jobs, &rr, err);
		note = json_pack("{s:O,s:s}", "target", target, "label", c.label);
		if (note && keep)
			json_object_set(note, "identity", c.identity);
		text = note ? json_dumps(note, JSON_COMPACT) : NULL;
		/* every rank gathers, even one whose run failed: the next vote stops them all */
		if (fleet_gather_run(&rr, text, explain_add_rank, r) < 0 && !ret)
			ret = iop_errf(err, -ENOMEM, "explain: out of memory");
		if (!text && !ret)
			ret = iop_errf(err, -ENOMEM, "explain: out of memory");
		free(text);
		json_decref(note);
		run_results_free(&rr);
		cell_job_free(&c);
	}
	json_decref(target);
	if (tmp[0])
		tempfiles_remove(tmp);
	return ret;
}

int explain_run(struct results *r, const struct explain_target *t, unsigned nt,
		struct probe_set *probes, const struct explain_opts *o, explain_progress_fn fn,
		void *arg, struct iop_err *err)
{
	struct explain_opts def = { "64m", "1" };
	unsigned i, done = 0;
	int ret = 0;

	if (o) {
		def.size = o->size ? o->size : def.size;
		def.runtime = o->runtime ? o->runtime : def.runtime;
	}
	if (fleet_size() > 1) {
		bool stopped = false;

		/* every rank goes through every cell's vote, whatever failed on it */
		for (i = 0; i < nt && !stopped; i++) {
			int e = run_target_fleet(r, &t[i], probes, &def, fn, arg, &done,
						 nt * (unsigned)NR_CELLS, &stopped, err);

			ret = ret ? ret : e;
		}
	} else {
		ret = run_targets(r, t, nt, probes, &def, fn, arg, err);
	}
	if (run_stop_requested())
		r->interrupted = true;
	return ret;
}
