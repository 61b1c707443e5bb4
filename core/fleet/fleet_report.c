/* Rank 0's merged result and each rank's own file under MPI: fio's client/server JSON and text. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/err.h"
#include "base/parse.h"
#include "base/version.h"
#include "fleet/fleet.h"
#include "report/output.h"
#include "report/report.h"
#include "fleet/fleet_report.h"
#include "stats/merge.h"
#include "stats/stats.h"

/* ---- JSON ---- */

static int set(json_t *o, const char *key, json_t *v)
{
	return json_object_set_new(o, key, v);
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

/* A rank's own view of the window and its times, in each of its client_stats entries. */
static json_t *rank_times_json(const struct fleet_rank *rk, const struct job_result *r)
{
	json_t *o = json_object();

	set(o, "rank", json_integer(rk->rank));
	set(o, "hostname", json_string(rk->hostname));
	set(o, "start_ms", json_real(ms(r->start_ns)));
	set(o, "end_ms", json_real(ms(r->end_ns)));
	set(o, "window_bytes", json_integer((json_int_t)r->window_bytes));
	set(o, "window_ios", json_integer((json_int_t)r->window_ios));
	return o;
}

static json_t *rate_json(int64_t from, int64_t to, uint64_t bytes, uint64_t ios)
{
	json_t *o = json_object();
	double secs = to > from ? (double)(to - from) / 1e9 : 0;

	set(o, "start_ms", json_real(ms(from)));
	set(o, "end_ms", json_real(ms(to)));
	set(o, "seconds", json_real(secs));
	set(o, "io_bytes", json_integer((json_int_t)bytes));
	set(o, "total_ios", json_integer((json_int_t)ios));
	set(o, "bw_bytes", json_integer(secs > 0 ? (json_int_t)((double)bytes / secs) : 0));
	set(o, "iops", json_real(secs > 0 ? (double)ios / secs : 0));
	return o;
}

static uint64_t sum_bytes(const struct job_result *r)
{
	return r->dir[STAT_READ].bytes + r->dir[STAT_WRITE].bytes + r->dir[STAT_TRIM].bytes;
}

static uint64_t sum_ios(const struct job_result *r)
{
	return r->dir[STAT_READ].ios + r->dir[STAT_WRITE].ios + r->dir[STAT_TRIM].ios;
}

/* Which ranks ran job j, and who finished first and last. */
static void finishers(const struct fleet_merged *m, unsigned j, const struct fleet_rank **first,
		      const struct fleet_rank **last, unsigned *nr_ran)
{
	unsigned i;

	*first = *last = NULL;
	*nr_ran = 0;
	for (i = 0; i < m->nr_ranks; i++) {
		const struct fleet_rank *rk = &m->ranks[i];
		const struct job_result *r;

		if (rk->missing || rk->res.nr <= j || !fleet_result_ran(&rk->res.res[j]))
			continue;
		r = &rk->res.res[j];
		(*nr_ran)++;
		if (!*first || r->end_ns < (*first)->res.res[j].end_ns)
			*first = rk;
		if (!*last || r->end_ns > (*last)->res.res[j].end_ns)
			*last = rk;
	}
}

static json_t *who_json(const struct fleet_rank *rk, unsigned j)
{
	json_t *o = json_object();

	set(o, "rank", json_integer(rk->rank));
	set(o, "hostname", json_string(rk->hostname));
	set(o, "end_ms", json_real(ms(rk->res.res[j].end_ns)));
	return o;
}

/* The aggregate numbers of merged job j, IOR's way: the stonewall window and the wall clock. */
static json_t *aggregate_json(const struct fleet_merged *m, unsigned j)
{
	const struct job_result *r = &m->all.res[j];
	const struct fleet_rank *first, *last;
	json_t *o = json_object();
	unsigned nr_ran;

	finishers(m, j, &first, &last, &nr_ran);
	set(o, "ranks", json_integer(m->nr_ranks));
	set(o, "ranks_ran", json_integer(nr_ran));
	set(o, "clock", json_string("each rank's CLOCK_MONOTONIC, offset from its exit of the "
				    "group's start barrier (MPI_Barrier)"));
	if (r->window_end_ns > r->window_start_ns)
		set(o, "stonewall", rate_json(r->window_start_ns, r->window_end_ns, r->window_bytes,
					      r->window_ios));
	else
		set(o, "stonewall", json_null());
	set(o, "wall", rate_json(r->start_ns, r->end_ns, sum_bytes(r), sum_ios(r)));
	if (first) {
		set(o, "first_finished", who_json(first, j));
		set(o, "last_finished", who_json(last, j));
	}
	return o;
}

static json_t *rank_info_json(const struct fleet_rank *rk)
{
	json_t *o = json_object(), *probe;

	set(o, "rank", json_integer(rk->rank));
	set(o, "hostname", json_string(rk->hostname));
	set(o, "status", json_string(rk->missing ? "missing" : rk->error[0] ? "failed" : "ok"));
	if (rk->error[0])
		set(o, "error_message", json_string(rk->error));
	if (rk->exit_code)
		set(o, "exit_code", json_integer(rk->exit_code));
	probe = rk->probe_json ? json_loads(rk->probe_json, 0, NULL) : NULL;
	set(o, "probe", probe ? probe : json_null());
	return o;
}

/*
 * A stand-in result for a rank that has none for job j (failed before running, or never
 * reported), so that its client_stats entry has fio's shape and says what happened.
 */
static int add_rank_entries(json_t *clients, const struct fleet_merged *m,
			    const struct fleet_rank *rk, const struct run_env *env, bool plus)
{
	struct run_results rr = rk->res;
	struct job_result *stand_in = NULL;
	json_t *root, *jobs, *e;
	unsigned j;

	if (!rr.nr && m->all.nr) {
		stand_in = calloc(m->all.nr, sizeof(*stand_in));
		if (!stand_in)
			return -ENOMEM;
		for (j = 0; j < m->all.nr; j++)
			fleet_failed_result(&stand_in[j], m->all.res[j].spec, rk);
		rr.res = stand_in;
		rr.nr = m->all.nr;
	}
	root = report_json(&rr, env, plus);
	if (!root) {
		free(stand_in);
		return -ENOMEM;
	}
	jobs = json_object_get(root, "jobs");
	json_array_foreach(jobs, j, e) {
		json_t *io = json_object_get(e, "iopath");

		set(e, "hostname", json_string(rk->hostname));
		set(e, "port", json_integer(0));
		if (io) {
			set(io, "mpi", rank_times_json(rk, &rr.res[j]));
			if (rk->error[0] && !json_object_get(io, "error_message"))
				set(io, "error_message", json_string(rk->error));
		}
		json_array_append(clients, e);
	}
	json_decref(root);
	free(stand_in);
	return 0;
}

json_t *fleet_merged_json(const struct fleet_merged *m, const struct run_env *env, bool plus)
{
	json_t *root = report_json(&m->all, env, plus), *clients, *jobs, *e, *meta, *info;
	unsigned i, j, hosts = 0;

	if (!root)
		return NULL;
	clients = json_array();
	info = json_array();
	meta = json_object();
	for (i = 0; i < m->nr_ranks; i++) {
		if (add_rank_entries(clients, m, &m->ranks[i], env, plus))
			goto fail;
		json_array_append_new(info, rank_info_json(&m->ranks[i]));
		for (j = 0; j < i && strcmp(m->ranks[j].hostname, m->ranks[i].hostname); j++)
			;
		hosts += j == i;
	}
	jobs = json_object_get(root, "jobs");
	json_array_foreach(jobs, j, e) {
		json_t *all = json_deep_copy(e), *io = json_object_get(e, "iopath");

		if (io)
			set(io, "mpi", aggregate_json(m, (unsigned)j));
		if (!all)
			goto fail;
		/* fio's client/server aggregate: one per job here, named as fio names it */
		set(all, "jobname", json_string("All clients"));
		set(all, "hostname", json_string(m->nr_ranks ? m->ranks[0].hostname : ""));
		set(all, "port", json_integer(0));
		io = json_object_get(all, "iopath");
		if (io) {
			set(io, "job", json_string(m->all.res[j].spec->name));
			set(io, "mpi", aggregate_json(m, (unsigned)j));
		}
		json_array_append_new(clients, all);
	}
	set(root, "client_stats", clients);
	set(meta, "ranks", json_integer(m->nr_ranks));
	set(meta, "hosts", json_integer(hosts));
	set(meta, "failed_ranks", json_integer(m->nr_failed));
	set(meta, "rank_info", info);
	set(json_object_get(root, "iopath"), "mpi", meta);
	return root;
fail:
	json_decref(clients);
	json_decref(info);
	json_decref(meta);
	json_decref(root);
	return NULL;
}

static void rate_text(FILE *f, const char *what, int64_t from, int64_t to, uint64_t bytes,
		      uint64_t ios)
{
	double secs = (double)(to - from) / 1e9;
	char bw[32], io[32];

	fmt_bytes_iec(bw, sizeof(bw), secs > 0 ? (uint64_t)((double)bytes / secs) : 0);
	fmt_bytes_iec(io, sizeof(io), bytes);
	fprintf(f, "    %-10s %8.3f-%.3fs: bw=%s/s, iops=%.0f, io=%s\n", what, (double)from / 1e9,
		(double)to / 1e9, bw, secs > 0 ? (double)ios / secs : 0, io);
}

void fleet_merged_text(FILE *f, const struct fleet_merged *m)
{
	const struct fleet_rank *first, *last;
	unsigned i, j, nr_ran;

	fprintf(f, "\nAll %u ranks (merged exactly; times from each group's start barrier):\n",
		m->nr_ranks);
	for (j = 0; j < m->all.nr; j++) {
		const struct job_result *r = &m->all.res[j];

		finishers(m, j, &first, &last, &nr_ran);
		fprintf(f, "  %s: %u of %u ranks ran it\n", r->spec->name, nr_ran, m->nr_ranks);
		if (!first)
			continue;
		if (r->window_end_ns > r->window_start_ns)
			rate_text(f, "stonewall", r->window_start_ns, r->window_end_ns,
				  r->window_bytes, r->window_ios);
		rate_text(f, "wall", r->start_ns, r->end_ns, sum_bytes(r), sum_ios(r));
		fprintf(f, "    first done: rank %u (%s) at %.3fs; last: rank %u (%s) at %.3fs\n",
			first->rank, first->hostname, (double)first->res.res[j].end_ns / 1e9,
			last->rank, last->hostname, (double)last->res.res[j].end_ns / 1e9);
	}
	for (i = 0; i < m->nr_ranks; i++) {
		const struct fleet_rank *rk = &m->ranks[i];

		if (rk->missing)
			fprintf(f, "  rank %u (%s): never reported; its results are lost\n", rk->rank,
				rk->hostname);
		else if (rk->error[0])
			fprintf(f, "  rank %u (%s) failed: %s\n", rk->rank, rk->hostname, rk->error);
	}
}

int fleet_write_rank_file(const struct run_results *r, const char *dir,
			 const struct fleet_rank_info *info, int argc, char **argv,
			 struct iop_err *err)
{
	struct run_results none = { 0 };
	char path[PATH_MAX];
	struct run_env env;
	json_t *root, *mpi, *probe, *jobs, *e;
	size_t j;
	int ret;

	if (snprintf(path, sizeof(path), "%s/rank-%u.json", dir, info->rank) >= (int)sizeof(path))
		return iop_errf(err, -ENAMETOOLONG, "--mpi-rank-output: directory name too long");
	run_env_fill(&env, argc, argv);
	root = report_json(r ? r : &none, &env, true);
	if (!root)
		return iop_errf(err, -ENOMEM, "out of memory building rank %u's result", info->rank);
	mpi = json_object();
	json_object_set_new(mpi, "rank", json_integer(info->rank));
	json_object_set_new(mpi, "hostname", json_string(info->hostname));
	if (info->error)
		json_object_set_new(mpi, "error_message", json_string(info->error));
	probe = info->probe_json ? json_loads(info->probe_json, 0, NULL) : NULL;
	json_object_set_new(mpi, "probe", probe ? probe : json_null());
	json_object_set_new(json_object_get(root, "iopath"), "mpi", mpi);
	jobs = json_object_get(root, "jobs");
	json_array_foreach(jobs, j, e) {
		const struct job_result *res = &r->res[j];
		json_t *t = json_object();

		json_object_set_new(t, "start_ms", json_real(ms(res->start_ns)));
		json_object_set_new(t, "end_ms", json_real(ms(res->end_ns)));
		json_object_set_new(t, "window_start_ms", json_real(ms(res->window_start_ns)));
		json_object_set_new(t, "window_end_ms", json_real(ms(res->window_end_ns)));
		json_object_set_new(t, "window_bytes", json_integer((json_int_t)res->window_bytes));
		json_object_set_new(t, "window_ios", json_integer((json_int_t)res->window_ios));
		json_object_set_new(json_object_get(e, "iopath"), "mpi", t);
	}
	ret = report_json_write(root, path);
	json_decref(root);
	if (ret)
		return iop_errf(err, ret, "cannot write rank %u's result to %s: %s", info->rank, path,
				strerror(-ret));
	return 0;
}

int fleet_write_merged(struct fleet_rank *ranks, unsigned nr, const struct output_opts *o,
		      int argc, char **argv)
{
	struct output_opts dflt = { .formats = OUT_NORMAL };
	struct fleet_merged m;
	struct run_env env;
	FILE *text = stdout;
	unsigned i, usage = 0;
	int code, ret;

	if (!o)
		o = &dflt;
	if (fleet_merge(ranks, nr, &m)) {
		iop_msgf("out of memory merging the ranks' results");
		return EXIT_JOB_FAILED;
	}
	run_env_fill(&env, argc, argv);
	code = output_exit_code(&m.all);
	for (i = 0; i < nr; i++) {
		if (ranks[i].missing)
			iop_msgf("rank %u (%s) never reported; its results are lost",
				ranks[i].rank, ranks[i].hostname);
		else if (ranks[i].error[0])
			iop_msgf("rank %u (%s) failed: %s", ranks[i].rank,
				ranks[i].hostname, ranks[i].error);
		usage += ranks[i].exit_code == EXIT_USAGE;
	}
	if (!code && m.nr_failed)
		code = usage == nr ? EXIT_USAGE : EXIT_JOB_FAILED;
	if (o->formats & OUT_NORMAL) {
		if (!o->path && (o->formats & (OUT_JSON | OUT_JSONPLUS)))
			text = stderr;
		report_normal(text, &m.all);
		fleet_merged_text(text, &m);
		fflush(text);
	}
	if (o->formats & (OUT_JSON | OUT_JSONPLUS)) {
		json_t *root = fleet_merged_json(&m, &env, o->formats & OUT_JSONPLUS);

		if (!root) {
			iop_msgf("out of memory building the merged result");
			code = code ? code : EXIT_JOB_FAILED;
		} else {
					ret = report_json_write(root, o->path);
			json_decref(root);
			if (ret) {
				iop_msgf("cannot write the result to %s: %s",
					o->path ? o->path : "stdout", strerror(-ret));
				code = code ? code : EXIT_JOB_FAILED;
			}
		}
	}
	fleet_merged_free(&m);
	return code;
}

const struct fleet_writers report_fleet_writers = {
	.rank_file = fleet_write_rank_file,
	.merged = fleet_write_merged,
};
