/* The cell layer: a cell's job built, refused with a reason, run and recorded (cells.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/options.h"
#include "job/workloads.h"
#include "results/cells.h"
#include "run/run.h"

int cell_build(struct cell_job *c, const struct cell_recipe *r, struct probe_set *probes,
	       struct iop_err *err)
{
	struct job_parser p;
	unsigned i, k;
	int ret;

	c->jobs.probes = probes;
	if (r->workload && r->setup) {
		const struct builtin_workload *w = workload_find(r->workload);

		return w ? workload_load(w, r->setup, &c->jobs, err) :
			   iop_errf(err, -ENOENT, "no workload %s", r->workload);
	}
	job_parser_init(&p, &c->jobs);
	if (r->workload) {
		const struct builtin_workload *w = workload_find(r->workload);
		char origin[160];

		snprintf(origin, sizeof(origin), "workload %s", r->workload);
		ret = w ? job_parse_text(&p, w->text, origin, err) :
			  iop_errf(err, -ENOENT, "no built-in workload '%s' (see iopath workloads)",
				   r->workload);
	} else {
		ret = job_parse_cli(&p, "name", c->label, err);
	}
	for (i = 0; !ret && i < c->jobs.nr; i++)
		for (k = 0; !ret && k < r->nr_opts; k++)
			ret = opt_apply(&c->jobs.jobs[i], r->opts[k].key, r->opts[k].val, r->where,
					err);
	if (!ret)
		ret = job_parser_finish(&p, err);
	if (!ret && !c->jobs.nr)
		ret = iop_errf(err, -EINVAL, "the cell has no jobs");
	job_parser_free(&p);
	return ret;
}

bool cell_refuse(struct cell_job *c, const struct probe_path *probe)
{
	unsigned i;

	for (i = 0; i < c->jobs.nr; i++) {
		const struct job_spec *j = &c->jobs.jobs[i];

		if (!(j->engine->flags & ENGINE_DISKLESS))
			c->disk = true;
		if (j->direct && (j->engine->flags & (ENGINE_NO_DIRECT | ENGINE_DIRECT_BY_FLUSH))) {
			snprintf(c->reason, sizeof(c->reason),
				 "ioengine=%s cannot do direct=1: it works through the page cache",
				 j->engine->name);
			return true;
		}
		if (probe && !(j->engine->flags & ENGINE_DISKLESS) &&
		    probe_refuses(probe, j->direct, j->engine, c->reason, sizeof(c->reason)))
			return true;
	}
	return false;
}

void cell_plan(struct cell_job *c, const struct cell_recipe *r, struct probe_set *probes,
	       const struct probe_path *probe)
{
	struct iop_err err = { "" };

	if (cell_build(c, r, probes, &err)) {
		c->skip = true;
		snprintf(c->reason, sizeof(c->reason), "%s", err.msg);
	} else {
		c->skip = cell_refuse(c, probe);
	}
}

int cell_record(struct results *res, const struct cell_job *c, const struct run_results *run,
		struct iop_err *err)
{
	return results_add_run(res, run, c->identity, c->label, err);
}

int cell_record_status(struct results *res, const json_t *identity, const char *label,
		       enum cell_status st, const char *why, struct iop_err *err)
{
	struct cell *rc = results_cell(res, identity, label);

	if (!rc || cell_set_status(rc, st, why))
		return iop_errf(err, -ENOMEM, "out of memory");
	return 0;
}

int cell_record_skip(struct results *res, const struct cell_job *c, const char *why,
		     struct iop_err *err)
{
	return cell_record_status(res, c->identity, c->label, CELL_SKIPPED, why ? why : c->reason,
				  err);
}

int cell_run(struct results *res, const struct cell_job *c, struct iop_err *err)
{
	struct run_results rr = { 0 };
	int ret = run_jobs(&c->jobs, &rr, err);

	if (!ret)
		ret = cell_record(res, c, &rr, err);
	run_results_free(&rr);
	return ret;
}

int cells_enter(struct results *res, const struct cell_job *cells, unsigned n,
		struct iop_err *err)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct cell *c = results_cell(res, cells[i].identity, cells[i].label);

		if (!c || (cells[i].skip && cell_set_status(c, CELL_SKIPPED, cells[i].reason)))
			return iop_errf(err, -ENOMEM, "out of memory");
	}
	return 0;
}

void cells_mark_not_run(struct results *res, enum cell_status st, const char *why)
{
	unsigned i;

	for (i = 0; i < res->nr; i++)
		if (res->cells[i].status == CELL_OK && !res->cells[i].nr)
			cell_set_status(&res->cells[i], st, why);
}

void cell_job_free(struct cell_job *c)
{
	json_decref(c->identity);
	c->identity = NULL;
	job_list_free(&c->jobs);
}

void cells_free(struct cell_job *cells, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		cell_job_free(&cells[i]);
	free(cells);
}
