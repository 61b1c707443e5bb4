/* A suite's table as text, CSV and JSON (report_suite.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "report/report.h"
#include "report/report_suite.h"

static void path_label(const struct suite_opts *o, const struct suite_cell *c, char *buf,
		       size_t len)
{
	if (c->from == c->to)
		snprintf(buf, len, "%s", o->targets[c->to].name);
	else
		snprintf(buf, len, "%s -> %s", o->targets[c->from].name, o->targets[c->to].name);
}

static void fmt_value(char *buf, size_t len, double v)
{
	if (v >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* Under the table: each target whose direct=1 a cache answered, once, with the evidence. */
static void not_direct_lines(FILE *f, const struct suite_opts *o, const struct suite_result *res)
{
	unsigned t, i;

	for (t = 0; t < o->nr_targets; t++)
		for (i = 0; i < res->nr_cells; i++) {
			const struct suite_cell *c = &res->cells[i];

			if (c->to != t || !c->not_direct[0] || c->failed)
				continue;
			fprintf(f, "(NOT direct) %s: direct=1 asked, not honoured: %s\n",
				o->targets[t].name, c->not_direct);
			break;
		}
}

void report_suite_table(FILE *f, const struct suite_opts *o, const struct suite_result *res,
			const struct suite_fleet *fl)
{
	const char *ref = o->targets[o->reference].name;
	char path[80], med[32], lo[32], hi[32], range[80], ratio[32], line[512];
	unsigned i, t;
	bool any_wide = false, any_note = false;

	fprintf(f, "iopath suite vm-paths: %u target%s, %u repeat%s, scale %g%s\n", o->nr_targets,
		o->nr_targets == 1 ? "" : "s", o->repeat, o->repeat == 1 ? "" : "s", o->scale,
		o->scale < 1 ? " (--full for the experiments' sizes)" : "");
	for (t = 0; t < o->nr_targets; t++) {
		const struct probed_dir *d = NULL;
		unsigned k;

		for (k = 0; k < res->probes.nr; k++)
			if (!strcmp(res->probes.dirs[k]->dir, o->targets[t].tmp))
				d = res->probes.dirs[k];
		line[0] = '\0';
		if (d && !d->error)
			probe_summary(&d->p, &res->probes.host, line, sizeof(line));
		fprintf(f, "  %-10s %s: %s\n", o->targets[t].name, o->targets[t].dir, line);
	}
	if (fl && fl->ranks > 1)
		fprintf(f, "  MPI: %u ranks on %u host%s; every value is all ranks together (summed, from the\n"
			"  first rank's start to the last one's end); the paths above are rank 0's\n",
			fl->ranks, fl->hosts, fl->hosts == 1 ? "" : "s");
	snprintf(ratio, sizeof(ratio), "x %s", ref);
	fprintf(f, "\n%-20s %-18s %-6s %10s %21s  %8s\n", "test", "path", "metric", "median",
		"min - max", ratio);
	for (i = 0; i < res->nr_cells; i++) {
		const struct suite_cell *c = &res->cells[i];

		path_label(o, c, path, sizeof(path));
		if (c->failed) {
			fprintf(f, "%-20s %-18s %-6s %10s  failed: %s\n", c->test, path, c->metric, "-",
				c->note);
			any_note = true;
			continue;
		}
		fmt_value(med, sizeof(med), c->sum.median);
		fmt_value(lo, sizeof(lo), c->sum.min);
		fmt_value(hi, sizeof(hi), c->sum.max);
		snprintf(range, sizeof(range), "%s - %s", lo, hi);
		if (c->ratio > 0)
			snprintf(ratio, sizeof(ratio), "%.2f", c->ratio);
		else
			snprintf(ratio, sizeof(ratio), "-");
		fprintf(f, "%-20s %-18s %-6s %10s %21s  %8s%s%s%s%s\n", c->test, path, c->metric, med,
			range, ratio, c->wide ? " !" : "", c->fell_back ? " (direct=0)" : "",
			c->not_direct[0] ? " (NOT direct)" : "",
			c->implausible[0] ? " (implausible)" : "");
		any_wide |= c->wide;
		any_note |= c->fell_back;
	}
	fprintf(f, "\nx %s: how many times longer the same work took than on %s (2.00 = half the speed).\n",
		ref, ref);
	if (any_wide)
		fprintf(f, "!: the repeats spread over more than half the median; too wide to judge.\n");
	for (i = 0; any_note && i < res->nr_cells; i++) {
		const struct suite_cell *c = &res->cells[i];

		if (c->fell_back && !c->failed) {
			path_label(o, c, path, sizeof(path));
			fprintf(f, "(direct=0) %s on %s: %s\n", c->test, path, c->note);
		}
	}
	not_direct_lines(f, o, res);
	for (i = 0; i < res->nr_cells; i++)
		if (res->cells[i].implausible[0] && !res->cells[i].failed)
			fprintf(f, "(implausible) %s on %s: %s\n", res->cells[i].test,
				o->targets[res->cells[i].to].name, res->cells[i].implausible);
	if (res->interrupted)
		fprintf(f, "(interrupted: the table is partial)\n");
}

int report_suite_csv(FILE *f, const struct suite_opts *o, const struct suite_result *res)
{
	char path[80];
	unsigned i, k;

	fprintf(f, "test,from,to,metric,n,median,min,max,ratio_to_reference,reference,values,note\n");
	for (i = 0; i < res->nr_cells; i++) {
		const struct suite_cell *c = &res->cells[i];

		path_label(o, c, path, sizeof(path));
		/* target names are the user's (--target NAME=DIR): quoted where CSV needs it */
		report_csv_field(f, c->test);
		fputc(',', f);
		report_csv_field(f, o->targets[c->from].name);
		fputc(',', f);
		report_csv_field(f, o->targets[c->to].name);
		fputc(',', f);
		report_csv_field(f, c->metric);
		fprintf(f, ",%u,", c->n);
		if (c->n) {
			report_csv_number(f, c->sum.median);
			fputc(',', f);
			report_csv_number(f, c->sum.min);
			fputc(',', f);
			report_csv_number(f, c->sum.max);
			fputc(',', f);
		} else {
			fprintf(f, ",,,");
		}
		if (c->ratio > 0)
			fprintf(f, "%.4f", c->ratio);
		fputc(',', f);
		report_csv_field(f, o->targets[o->reference].name);
		fputc(',', f);
		for (k = 0; k < c->n; k++) {
			if (k)
				fputc(';', f);
			report_csv_number(f, c->values[k]);
		}
		fprintf(f, ",\"");
		for (k = 0; c->note[k]; k++)
			fputs(c->note[k] == '"' ? "\"\"" : (char[2]){ c->note[k], 0 }, f);
		fprintf(f, "\"\n");
	}
	return ferror(f) ? -EIO : 0;
}

static json_t *cell_json(const struct suite_opts *o, const struct suite_cell *c)
{
	json_t *e = json_object(), *vals = json_array();
	unsigned k;

	json_object_set_new(e, "test", json_string(c->test));
	json_object_set_new(e, "workload", json_string(c->workload));
	json_object_set_new(e, "from", json_string(o->targets[c->from].name));
	json_object_set_new(e, "to", json_string(o->targets[c->to].name));
	json_object_set_new(e, "metric", json_string(c->metric));
	for (k = 0; k < c->n; k++)
		json_array_append_new(vals, json_real(c->values[k]));
	json_object_set_new(e, "values", vals);
	json_object_set_new(e, "n", json_integer(c->n));
	json_object_set_new(e, "median", c->n ? json_real(c->sum.median) : json_null());
	json_object_set_new(e, "min", c->n ? json_real(c->sum.min) : json_null());
	json_object_set_new(e, "max", c->n ? json_real(c->sum.max) : json_null());
	json_object_set_new(e, "ci95", c->n > 1 ? json_pack("[f,f]", c->sum.ci_lo, c->sum.ci_hi)
						: json_null());
	json_object_set_new(e, "ratio_to_reference", c->ratio > 0 ? json_real(c->ratio) : json_null());
	json_object_set_new(e, "spread_too_wide", json_boolean(c->wide));
	json_object_set_new(e, "direct_fallback", json_boolean(c->fell_back));
	if (c->not_direct[0])
		json_object_set_new(e, "direct_not_honoured", json_string(c->not_direct));
	if (c->implausible[0] && !c->failed)
		json_object_set_new(e, "implausible", json_string(c->implausible));
	if (c->note[0])
		json_object_set_new(e, c->failed ? "error" : "note", json_string(c->note));
	return e;
}

/*
 * The suite's JSON. own: a rank's own file under MPI (--mpi-rank-output): its unmerged jobs,
 * its paths and probes, no table (the table is rank 0's, of every rank together).
 */
json_t *report_suite_json(const struct suite_opts *o, struct suite_result *res, int argc,
			  char **argv, bool own, const json_t *explain, json_t *mpi)
{
	json_t *root = json_object(), *meta = json_object(), *suite = json_object();
	json_t *targets = json_array(), *rows = json_array(), *probes;
	struct run_env env;
	unsigned i;
	size_t len = 0;
	char *cmd;
	int k;

	if (!root || !meta || !suite || !targets || !rows)
		return NULL;
	run_env_fill(&env, argc, argv);
	json_object_set_new(root, "fio version", json_string(iopath_fio_version()));
	json_object_set_new(meta, "version", json_string(iopath_version));
	json_object_set_new(meta, "kernel", json_string(env.kernel));
	json_object_set_new(meta, "hostname", json_string(env.hostname));
	json_object_set_new(meta, "interrupted", json_boolean(res->interrupted));
	for (k = 0; k < argc; k++)
		len += strlen(argv[k]) + 1;
	cmd = calloc(1, len + 1);
	for (k = 0; cmd && k < argc; k++) {
		strcat(cmd, argv[k]);
		if (k + 1 < argc)
			strcat(cmd, " ");
	}
	json_object_set_new(meta, "command_line", json_string(cmd ? cmd : ""));
	free(cmd);
	probes = probe_set_json(&res->probes);
	if (probes) {
		json_object_set(meta, "host", json_object_get(probes, "host"));
		json_object_set(meta, "targets", json_object_get(probes, "targets"));
		json_decref(probes);
	}
	for (i = 0; i < o->nr_targets; i++)
		json_array_append_new(targets, json_pack("{s:s,s:s,s:s}", "name", o->targets[i].name,
							 "dir", o->targets[i].dir, "files",
							 o->targets[i].tmp));
	for (i = 0; !own && i < res->nr_cells; i++)
		json_array_append_new(rows, cell_json(o, &res->cells[i]));
	json_object_set_new(suite, "name", json_string("vm-paths"));
	json_object_set_new(suite, "reference", json_string(o->targets[o->reference].name));
	json_object_set_new(suite, "repeat", json_integer(o->repeat));
	json_object_set_new(suite, "scale", json_real(o->scale));
	json_object_set_new(suite, "ratio", json_string("reference median / this median: how many times longer the same work took"));
	json_object_set_new(suite, "targets", targets);
	if (own)
		json_decref(rows);
	else
		json_object_set_new(suite, "rows", rows);
	json_object_set_new(meta, "suite", suite);
	if (explain && !own)
		json_object_set(meta, "explain", (json_t *)explain);
	if (mpi)
		json_object_set(meta, "mpi", mpi);
	json_object_set_new(root, "iopath", meta);
	json_object_set(root, "jobs", own ? res->own_jobs : res->jobs);
	return root;
}
