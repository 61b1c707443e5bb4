/* Loading iopath's results and fio-shaped JSON (a plain run, fio's own) into cells. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/results.h"

static const char *str_or(const json_t *o, const char *key, const char *def)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : def;
}

/* Identity values must be strings; numbers and booleans are accepted and spelled out. */
static json_t *identity_strings(const json_t *src, const char *path, unsigned idx,
				struct iop_err *err)
{
	json_t *id = json_object(), *v;
	const char *k;
	char buf[64];

	if (!id) {
		iop_errf(err, -ENOMEM, "%s: out of memory", path);
		return NULL;
	}
	json_object_foreach((json_t *)src, k, v) {
		if (json_is_string(v)) {
			json_object_set(id, k, v);
			continue;
		}
		if (json_is_integer(v))
			snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		else if (json_is_real(v))
			snprintf(buf, sizeof(buf), "%g", json_real_value(v));
		else if (json_is_boolean(v))
			snprintf(buf, sizeof(buf), "%d", json_is_true(v));
		else {
			iop_errf(err, -EINVAL, "%s: cells[%u].identity.%s is not a string", path, idx, k);
			json_decref(id);
			return NULL;
		}
		json_object_set_new(id, k, json_string(buf));
	}
	return id;
}

static int load_cell(struct results *r, const json_t *jc, unsigned idx, const char *path,
		     struct iop_err *err)
{
	const json_t *ident = json_object_get(jc, "identity"), *samples, *s, *rep;
	const char *status = str_or(jc, "status", "ok"), *reason = str_or(jc, "reason", NULL);
	struct cell *c;
	json_t *id;
	size_t i;
	unsigned st, before;

	if (!json_is_object(jc))
		return iop_errf(err, -EINVAL, "%s: cells[%u] is not an object", path, idx);
	if (!json_is_object(ident) || !json_object_size(ident))
		return iop_errf(err, -EINVAL, "%s: cells[%u] has no identity object", path, idx);
	for (st = 0; st <= CELL_INTERRUPTED && strcmp(status, cell_status_name(st)); st++)
		;
	if (st > CELL_INTERRUPTED)
		return iop_errf(err, -EINVAL, "%s: cells[%u].status '%s' is not ok, skipped, failed or interrupted",
				path, idx, status);
	id = identity_strings(ident, path, idx, err);
	if (!id)
		return -EINVAL;
	before = r->nr;
	c = results_cell(r, id, str_or(jc, "label", NULL));
	json_decref(id);
	if (!c)
		return iop_errf(err, -ENOMEM, "%s: out of memory", path);
	if (r->nr == before)
		return iop_errf(err, -EINVAL, "%s: cells[%u] repeats the identity of an earlier cell (%s)",
				path, idx, c->key);
	if (cell_set_status(c, st, reason))
		return iop_errf(err, -ENOMEM, "%s: out of memory", path);
	samples = json_object_get(jc, "samples");
	if (samples && !json_is_array(samples))
		return iop_errf(err, -EINVAL, "%s: cells[%u].samples is not an array", path, idx);
	json_array_foreach(samples, i, s) {
		char what[160];

		if (!json_is_object(s))
			return iop_errf(err, -EINVAL, "%s: cells[%u].samples[%zu] is not an object", path,
					idx, i);
		if (!metrics_check_job(s, what, sizeof(what)))
			return iop_errf(err, -EINVAL, "%s: cells[%u].samples[%zu].%s", path, idx, i, what);
		if (cell_add_sample(c, json_incref((json_t *)s)))
			return iop_errf(err, -ENOMEM, "%s: out of memory", path);
	}
	/* the count iopath writes beside the samples says how many there are, never more */
	rep = json_object_get(jc, "repeats");
	if (rep && !(json_is_integer(rep) && json_integer_value(rep) >= 0 &&
		     json_integer_value(rep) == (json_int_t)json_array_size(samples)))
		return iop_errf(err, -EINVAL,
				"%s: cells[%u].repeats is not the number of its samples (%zu): a whole number that counts them",
				path, idx, json_array_size(samples));
	return 0;
}

static int load_iopath(struct results *r, json_t *root, const char *path, struct iop_err *err)
{
	const json_t *ver = json_object_get(root, "schema_version"), *cells, *jc, *ts;
	json_t *v;
	size_t i;
	int ret;

	if (!json_is_integer(ver) || json_integer_value(ver) < 1)
		return iop_errf(err, -EINVAL, "%s: schema_version is not a positive integer", path);
	if (json_integer_value(ver) > RESULTS_SCHEMA_VERSION)
		return iop_errf(err, -EPROTONOSUPPORT,
				"%s: schema_version %lld is newer than this iopath reads (up to %d); upgrade iopath",
				path, (long long)json_integer_value(ver), RESULTS_SCHEMA_VERSION);
	r->schema_version = (int)json_integer_value(ver);
	snprintf(r->format, sizeof(r->format), "iopath-results");
	snprintf(r->kind, sizeof(r->kind), "%s", str_or(root, "kind", "unknown"));
	snprintf(r->name, sizeof(r->name), "%s", str_or(root, "name", r->kind));
	ts = json_object_get(root, "timestamp_ms");
	if (ts && !(json_is_integer(ts) && json_integer_value(ts) > 0))
		return iop_errf(err, -EINVAL, "%s: timestamp_ms is not a time (milliseconds since 1970, a positive integer)",
				path);
	r->timestamp_ms = ts ? (uint64_t)json_integer_value(ts) : 0;
	r->interrupted = json_is_true(json_object_get(root, "interrupted"));
	v = json_object_get(root, "env");
	r->env = json_is_object(v) ? json_incref(v) : json_object();
	v = json_object_get(root, "labels");
	if (v && !json_is_object(v))
		return iop_errf(err, -EINVAL, "%s: labels is not an object", path);
	r->labels = v ? json_deep_copy(v) : json_object();
	v = json_object_get(root, "targets");
	r->targets = json_is_array(v) ? json_incref(v) : json_array();
	if (!r->env || !r->labels || !r->targets)
		return iop_errf(err, -ENOMEM, "%s: out of memory", path);
	cells = json_object_get(root, "cells");
	if (!json_is_array(cells))
		return iop_errf(err, -EINVAL, "%s: no cells array", path);
	json_array_foreach(cells, i, jc) {
		ret = load_cell(r, jc, (unsigned)i, path, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Options that name where a job ran rather than what it measured. */
static bool option_is_place(const char *key)
{
	static const char *const place[] = { "name", "filename", "directory", "output",
					     "output-format", "write_bw_log", "write_lat_log",
					     "write_iops_log", NULL };
	unsigned i;

	for (i = 0; place[i]; i++)
		if (!strcmp(key, place[i]))
			return true;
	return false;
}

static void copy_options(json_t *id, const json_t *opts)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)opts, k, v)
		if (json_is_string(v) && !option_is_place(k))
			json_object_set(id, k, v);
}

/*
 * Did the job fail? iopath's JSON names the failure (iopath.error_message); its "error" alone
 * may be the first error a continue_on_error job went on after, whose numbers are a measurement
 * of what was asked. fio's JSON gives only "error": nonzero is a failure.
 */
static bool job_failed(const json_t *job)
{
	const json_t *iop = json_object_get(job, "iopath"), *e = json_object_get(job, "error");
	const char *msg;

	if (json_is_object(iop)) {
		msg = json_string_value(json_object_get(iop, "error_message"));
		return msg && *msg;
	}
	return json_is_integer(e) && json_integer_value(e);
}

/*
 * A suite's targets (iopath.suite.targets: name, dir) as the result's, each with the probe of
 * its directory when the file has one (iopath.targets[].dir), so that its jobs, which ran in
 * temporary directories inside them, are known by the target's name.
 */
static int load_suite_targets(struct results *r, const json_t *meta)
{
	const json_t *st = json_object_get(json_object_get(meta, "suite"), "targets"), *t, *p;
	size_t i, k;

	json_array_foreach(st, i, t) {
		const char *name = str_or(t, "name", NULL), *dir = str_or(t, "dir", NULL);
		const char *files = str_or(t, "files", "");
		json_t *e, *probe = NULL;

		if (!name || !dir)
			continue;
		/* the suite probes the temporary directory it made inside the target (files) */
		json_array_foreach(json_object_get(meta, "targets"), k, p) {
			const char *pd = str_or(p, "dir", "");

			if (!strcmp(pd, dir) || (*files && !strcmp(pd, files)))
				probe = (json_t *)p;
		}
		e = json_pack("{s:s,s:s,s:O?}", "role", name, "path", dir, "probe", probe);
		if (!e || json_array_append_new(r->targets, e))
			return -ENOMEM;
	}
	return 0;
}

/* A plain job run (iopath --output-format=json, or fio's): each job one cell of one sample. */
/*
 * A plain iopath JSON result records what else used the machine (iopath.machine) and when
 * it started (iopath.start_unix_ms; timestamp_ms, the report's time, where that is not
 * written) once for the whole run; a saved repeat carries both in each job,
 * where compare reads them. Each job of such a file gets the run's where it has none of its
 * own, so that files pooled as repeats (a directory of them, the lab's documents) are judged
 * with their environment and, taken in alternation, in pairs. -ENOMEM, else 0.
 */
static int job_takes_run_env(json_t *job, const json_t *meta, const json_t *ts)
{
	const json_t *machine = json_object_get(meta, "machine");
	const json_t *start = json_object_get(meta, "start_unix_ms");
	json_t *own = json_object_get(job, "iopath");

	/* the run's start where it is written (the root's timestamp is the report's) */
	if (json_is_integer(start) && json_integer_value(start) > 0)
		ts = start;

	if (!json_is_object(machine) && !json_is_integer(ts))
		return 0;
	if (!own) {
		own = json_object();
		if (!own || json_object_set_new(job, "iopath", own))
			return -ENOMEM;
	}
	if (!json_is_object(own))
		return 0;
	if (json_is_object(machine) && !json_object_get(own, "machine") &&
	    json_object_set(own, "machine", (json_t *)machine))
		return -ENOMEM;
	if (json_is_integer(ts) && json_integer_value(ts) > 0 &&
	    !json_object_get(own, "start_unix_ms") &&
	    json_object_set(own, "start_unix_ms", (json_t *)ts))
		return -ENOMEM;
	return 0;
}

static int load_jobs(struct results *r, json_t *root, const char *path, struct iop_err *err)
{
	const json_t *jobs = json_object_get(root, "jobs"), *job, *meta = json_object_get(root, "iopath");
	const json_t *ts = json_object_get(root, "timestamp_ms"), *ts_s = json_object_get(root, "timestamp");
	json_t *build;
	size_t i;

	r->schema_version = 0;
	snprintf(r->format, sizeof(r->format), "%s", json_is_object(meta) ? "iopath-json" : "fio-json");
	snprintf(r->kind, sizeof(r->kind), "fio");
	snprintf(r->name, sizeof(r->name), "jobs");
	if (json_is_integer(ts) && json_integer_value(ts) > 0)
		r->timestamp_ms = (uint64_t)json_integer_value(ts);
	else if (json_is_integer(ts_s) && json_integer_value(ts_s) > 0)
		r->timestamp_ms = (uint64_t)json_integer_value(ts_s) * 1000;
	r->interrupted = json_is_true(json_object_get(meta, "interrupted"));
	r->env = json_object();
	r->labels = json_object();
	r->targets = json_array();
	build = json_object();
	if (!r->env || !r->labels || !r->targets || !build) {
		json_decref(build);
		return iop_errf(err, -ENOMEM, "%s: out of memory", path);
	}
	if (json_is_object(meta)) {
		json_object_set_new(build, "version", json_string(str_or(meta, "version", "")));
		json_object_set_new(build, "cflags", json_string(str_or(meta, "cflags", "")));
		json_object_set_new(r->env, "host", json_pack("{s:s}", "kernel", str_or(meta, "kernel", "")));
		json_object_set_new(r->env, "hostname", json_string(str_or(meta, "hostname", "")));
	} else {
		json_object_set_new(build, "version", json_string(str_or(root, "fio version", "fio")));
	}
	json_object_set_new(r->env, "iopath", build);
	if (load_suite_targets(r, meta))
		return iop_errf(err, -ENOMEM, "%s: out of memory", path);
	json_array_foreach(jobs, i, job) {
		const char *name = str_or(job, "jobname", NULL);
		char lbl[JOB_NAME_MAX + 16];
		struct cell *c;
		unsigned dup = 1;
		json_t *id;

		char what[160];

		if (!json_is_object(job) || !name)
			return iop_errf(err, -EINVAL, "%s: jobs[%zu] has no jobname", path, i);
		if (!metrics_check_job(job, what, sizeof(what)))
			return iop_errf(err, -EINVAL, "%s: jobs[%zu].%s", path, i, what);
		id = json_object();
		if (!id)
			return iop_errf(err, -ENOMEM, "%s: out of memory", path);
		copy_options(id, json_object_get(root, "global options"));
		copy_options(id, json_object_get(job, "job options"));
		/* workers reported apart share a name: number them so they stay apart */
		do {
			if (dup == 1)
				snprintf(lbl, sizeof(lbl), "%s", name);
			else
				snprintf(lbl, sizeof(lbl), "%s#%u", name, dup);
			json_object_set_new(id, "job", json_string(lbl));
			c = results_cell(r, id, lbl);
			dup++;
		} while (c && (c->nr || c->status != CELL_OK));
		json_decref(id);
		if (!c)
			return iop_errf(err, -ENOMEM, "%s: out of memory", path);
		if (job_failed(job)) {
			int e = (int)json_integer_value(json_object_get(job, "error"));
			const char *why = str_or(json_object_get(job, "iopath"), "error_message", NULL);
			char fio_why[160];

			if (!why || !*why) {
				/* fio's JSON gives the errno alone */
				snprintf(fio_why, sizeof(fio_why), "error=%d (%s)", e,
					 e > 0 ? strerror(e) : "the job failed");
				why = fio_why;
			}
			/* its partial numbers are no sample, as a failed repeat's in a sweep */
			if (cell_set_status(c, CELL_FAILED, why))
				return iop_errf(err, -ENOMEM, "%s: out of memory", path);
			continue;
		}
		if ((json_is_object(meta) && job_takes_run_env((json_t *)job, meta, ts)) ||
		    cell_add_sample(c, json_incref((json_t *)job)))
			return iop_errf(err, -ENOMEM, "%s: out of memory", path);
	}
	return 0;
}

int results_from_result_json(json_t *root, const char *origin, struct results *out,
			     struct iop_err *err)
{
	int ret;

	results_zero(out);
	snprintf(out->source, sizeof(out->source), "%s", origin);
	if (!json_is_object(root))
		ret = iop_errf(err, -EINVAL, "%s: not a JSON object", origin);
	else if (json_object_get(root, "schema_version"))
		ret = load_iopath(out, root, origin, err);
	else if (json_is_array(json_object_get(root, "jobs")))
		ret = load_jobs(out, root, origin, err);
	else if (json_object_get(root, "client_stats"))
		ret = iop_errf(err, -EINVAL, "%s: fio client/server JSON is not read yet; give each host's own JSON",
			       origin);
	else
		ret = iop_errf(err, -EINVAL,
			       "%s: neither iopath results (schema_version), fio-style JSON (jobs[]) nor a QEMU lab's lab.json (schema iopath-vmlab/1)",
			       origin);
	if (ret)
		results_free(out);
	snprintf(out->source, sizeof(out->source), "%s", origin);
	return ret;
}
