/*
 * The few cells explain needs, run through the ordinary runner on each target: a short
 * queue-depth ladder with an async engine, buffered against direct, 4 KiB against 1 MiB,
 * and the cost of fsync. Their results land in the caller's result as ordinary cells.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/stop.h"
#include "base/tempfiles.h"
#include "iopath/engine.h"
#include "iopath/probe.h"
#include "job/job.h"
#include "results/explain.h"
#include "run/run.h"

/* The cells, per target. engine NULL: the target's async engine; direct NULL: its direct. */
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
	{ "fsync", "randwrite", "4k", "1", "0", "psync", true, false },
};
#define NR_CELLS (sizeof(cells) / sizeof(cells[0]))

/* The async engine and direct setting the path takes: io_uring, else libaio; direct, else not. */
static void choose(const struct probe_path *p, const char **engine, bool *direct)
{
	static const char *const engines[] = { "io_uring", "libaio" };
	unsigned d, e;
	char why[256];

	for (d = 0; d < 2; d++)
		for (e = 0; e < 2; e++) {
			const struct engine_entry *en = engine_find(engines[e]);

			if (en && (!p || !probe_refuses(p, d == 0, en->ops, why, sizeof(why)))) {
				*engine = engines[e];
				*direct = d == 0;
				return;
			}
		}
	*engine = "psync";
	*direct = false;
}

static int build(struct job_list *jobs, struct probe_set *probes, const char *label,
		 const char *file, const struct explain_opts *o, const char *engine,
		 const char *direct, unsigned k, struct iop_err *err)
{
	struct job_parser p;
	int ret;

	job_parser_init(&p, jobs);
	jobs->probes = probes;
	ret = job_parse_cli(&p, "name", label, err);
#define SET(k, v) (ret = ret ? ret : job_parse_cli(&p, k, v, err))
	SET("filename", file);
	SET("size", o->size);
	SET("runtime", o->runtime);
	SET("time_based", "1");
	SET("ioengine", engine);
	SET("rw", cells[k].rw);
	SET("bs", cells[k].bs);
	SET("iodepth", cells[k].iodepth);
	SET("direct", direct);
	SET("group_reporting", "1");
	if (cells[k].fsync)
		SET("fsync", "1");
#undef SET
	if (!ret)
		ret = job_parser_finish(&p, err);
	return ret;
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

static int run_target(struct results *r, const struct explain_target *t, struct probe_set *probes,
		      const struct explain_opts *o, explain_progress_fn fn, void *arg,
		      unsigned *done, unsigned total, struct iop_err *err)
{
	const struct probed_dir *d = probe_set_need(probes, t->dir, PROBE_TRIALS | PROBE_TIMING);
	const struct probe_path *probe = d && !d->error ? &d->p : NULL;
	char tmp[PATH_MAX] = "", file[PATH_MAX + 16];
	const char *engine;
	bool direct;
	unsigned k;
	int ret = 0;

	if (!d)
		return iop_errf(err, -ENOMEM, "explain: out of memory");
	if (!has_target(r, t->role) &&
	    results_add_target(r, t->role, t->dir, probe, d->error ? strerror(-d->error) : NULL))
		return iop_errf(err, -ENOMEM, "explain: out of memory");
	choose(probe, &engine, &direct);
	if (t->file) {
		snprintf(file, sizeof(file), "%s", t->file);
	} else {
		ret = tempdir_create(t->dir, "iopath-explain", tmp, sizeof(tmp), err);
		if (ret)
			return ret;
		snprintf(file, sizeof(file), "%s/explain.dat", tmp);
	}
	for (k = 0; k < NR_CELLS && !ret && !run_stop_requested(); k++) {
		const char *eng = cells[k].engine ? cells[k].engine : engine;
		const char *dir = cells[k].direct ? cells[k].direct : direct ? "1" : "0";
		struct job_list jobs = { 0 };
		struct run_results rr = { 0 };
		char label[256];
		json_t *id;

		if (cells[k].needs_direct && !direct)
			continue;
		snprintf(label, sizeof(label), "%s explain %s bs=%s qd=%s %s direct=%s%s", t->role,
			 cells[k].rw, cells[k].bs, cells[k].iodepth, eng, dir,
			 cells[k].fsync ? " fsync=1" : "");
		if (fn && !fn(arg, label, (*done)++, total)) {
			r->interrupted = true;
			break;
		}
		id = identity(t->role, o, eng, dir, k);
		if (!id) {
			ret = iop_errf(err, -ENOMEM, "explain: out of memory");
			break;
		}
		ret = build(&jobs, probes, label, file, o, eng, dir, k, err);
		ret = ret ? ret : run_jobs(&jobs, &rr, err);
		ret = ret ? ret : results_add_run(r, &rr, id, label, err);
		json_decref(id);
		run_results_free(&rr);
		job_list_free(&jobs);
	}
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
	for (i = 0; i < nt && !ret && !run_stop_requested(); i++)
		ret = run_target(r, &t[i], probes, &def, fn, arg, &done, nt * (unsigned)NR_CELLS, err);
	if (run_stop_requested())
		r->interrupted = true;
	return ret;
}
