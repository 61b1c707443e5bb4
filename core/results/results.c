/* The results model: cells with their samples, the environment, saving and loading. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base/atomic.h"
#include "iopath/probe.h"
#include "report/report.h"
#include "results/results.h"
#include "base/version.h"

#ifdef __clang__
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "unknown"
#endif

static const char *const status_names[] = {
	[CELL_OK] = "ok",
	[CELL_SKIPPED] = "skipped",
	[CELL_FAILED] = "failed",
	[CELL_INTERRUPTED] = "interrupted",
};

const char *cell_status_name(enum cell_status st)
{
	return st <= CELL_INTERRUPTED ? status_names[st] : "?";
}

static json_t *env_json(int argc, char **argv)
{
	json_t *env = json_object(), *build = json_object(), *host;
	struct probe_host h;
	char hostname[256] = "unknown", cmd[4096];

	if (!env || !build) {
		json_decref(env);
		json_decref(build);
		return NULL;
	}
	gethostname(hostname, sizeof(hostname) - 1);
	json_object_set_new(env, "hostname", json_string(hostname));
	memset(&h, 0, sizeof(h));
	probe_host(&h);
	host = probe_host_json(&h);
	json_object_set_new(env, "host", host ? host : json_object());
	json_object_set_new(build, "version", json_string(iopath_version));
	json_object_set_new(build, "git_revision", json_string(iopath_git_rev));
	json_object_set_new(build, "compiler", json_string(COMPILER));
	json_object_set_new(build, "cflags", json_string(iopath_cflags));
	json_object_set_new(env, "iopath", build);
	join_words(cmd, sizeof(cmd), argc, argv);
	if (cmd[0])
		json_object_set_new(env, "command_line", json_string(cmd));
	return env;
}

static uint64_t now_unix_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
}

void results_zero(struct results *r)
{
	memset(r, 0, sizeof(*r));
	r->schema_version = RESULTS_SCHEMA_VERSION;
	snprintf(r->format, sizeof(r->format), "iopath-results");
}

int results_init(struct results *r, const char *kind, const char *name, int argc, char **argv,
		 struct iop_err *err)
{
	results_zero(r);
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
	snprintf(r->name, sizeof(r->name), "%s", name ? name : kind);
	r->timestamp_ms = now_unix_ms();
	r->env = env_json(argc, argv);
	r->labels = json_object();
	r->targets = json_array();
	if (!r->env || !r->labels || !r->targets) {
		results_free(r);
		return iop_errf(err, -ENOMEM, "out of memory for the results");
	}
	return 0;
}

static void cell_free(struct cell *c)
{
	free(c->key);
	free(c->label);
	free(c->reason);
	free(c->val);
	json_decref(c->identity);
	json_decref(c->samples);
}

void results_free(struct results *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		cell_free(&r->cells[i]);
	free(r->cells);
	json_decref(r->env);
	json_decref(r->labels);
	json_decref(r->targets);
	results_zero(r);
}

int results_add_label(struct results *r, const char *kv, struct iop_err *err)
{
	const char *eq = strchr(kv, '=');
	char key[128];

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return iop_errf(err, -EINVAL, "--label '%s': expected key=value (e.g. qemu=8.2.1)", kv);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	if (json_object_get(r->labels, key))
		return iop_errf(err, -EINVAL, "--label '%s': the label %s is given twice (%s=%s first); give each key once",
				kv, key, key, json_string_value(json_object_get(r->labels, key)));
	if (json_object_set_new(r->labels, key, json_string(eq + 1)))
		return iop_errf(err, -EINVAL, "--label '%s': not valid UTF-8, or out of memory", kv);
	return 0;
}

json_t *results_target_json(const char *role, const char *path, const struct probe_path *probe,
			    const char *probe_error)
{
	json_t *t = json_object(), *pj = NULL;
	char summary[512];

	if (!t)
		return NULL;
	json_object_set_new(t, "role", json_string(role));
	json_object_set_new(t, "path", json_string(path));
	if (probe) {
		pj = probe_path_json(probe);
		probe_summary(probe, NULL, summary, sizeof(summary));
		json_object_set_new(t, "summary", json_string(summary));
	} else {
		json_object_set_new(t, "probe_error", json_string(probe_error ? probe_error : "not probed"));
	}
	json_object_set_new(t, "probe", pj ? pj : json_null());
	return t;
}

int results_add_target(struct results *r, const char *role, const char *path,
		       const struct probe_path *probe, const char *probe_error)
{
	json_t *t = results_target_json(role, path, probe, probe_error);

	return !t || json_array_append_new(r->targets, t) ? -ENOMEM : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "k=v;k=v" over the identity's keys in sorted order. */
static char *identity_key(const json_t *id)
{
	size_t n = json_object_size(id), i, len = 1;
	const char **keys = calloc(n ? n : 1, sizeof(*keys));
	const char *k;
	json_t *v;
	char *s;

	if (!keys)
		return NULL;
	i = 0;
	json_object_foreach((json_t *)id, k, v) {
		keys[i++] = k;
		len += strlen(k) + 2 + (json_is_string(v) ? strlen(json_string_value(v)) : 0);
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	s = calloc(1, len);
	if (s) {
		for (i = 0; i < n; i++) {
			v = json_object_get(id, keys[i]);
			if (i)
				strcat(s, ";");
			strcat(s, keys[i]);
			strcat(s, "=");
			if (json_is_string(v))
				strcat(s, json_string_value(v));
		}
	}
	free(keys);
	return s;
}

/* The index of the cell whose identity key is key, or r->nr when there is none. */
static unsigned cell_index(const struct results *r, const char *key)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->cells[i].key, key))
			break;
	return i;
}

const struct cell *results_find(const struct results *r, const char *key)
{
	unsigned i = cell_index(r, key);

	return i < r->nr ? &r->cells[i] : NULL;
}

const struct cell *results_find_identity(const struct results *r, const json_t *identity)
{
	char *key = identity_key(identity);
	const struct cell *c = key ? results_find(r, key) : NULL;

	free(key);
	return c;
}

struct cell *results_cell(struct results *r, const json_t *identity, const char *label)
{
	char *key = identity_key(identity);
	struct cell *c;
	unsigned i;

	if (!key)
		return NULL;
	i = cell_index(r, key);
	if (i < r->nr) {
		free(key);
		return &r->cells[i];
	}
	if (r->nr == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 16;
		struct cell *cells = realloc(r->cells, cap * sizeof(*cells));

		if (!cells) {
			free(key);
			return NULL;
		}
		r->cells = cells;
		r->cap = cap;
	}
	c = &r->cells[r->nr];
	memset(c, 0, sizeof(*c));
	c->key = key;
	c->label = strdup(label && *label ? label : key);
	c->identity = json_deep_copy(identity);
	c->samples = json_array();
	if (!c->label || !c->identity || !c->samples) {
		cell_free(c);
		return NULL;
	}
	r->nr++;
	return c;
}

int cell_set_status(struct cell *c, enum cell_status st, const char *reason)
{
	c->status = st;
	free(c->reason);
	c->reason = reason ? strdup(reason) : NULL;
	return reason && !c->reason ? -ENOMEM : 0;
}

int cell_add_sample(struct cell *c, json_t *job)
{
	if (c->nr == c->cap) {
		unsigned cap = c->cap ? c->cap * 2 : 4;
		double(*val)[MET_NR] = realloc(c->val, cap * sizeof(*val));

		if (!val) {
			json_decref(job);
			return -ENOMEM;
		}
		c->val = val;
		c->cap = cap;
	}
	metrics_from_job(job, c->val[c->nr]);
	if (json_array_append_new(c->samples, job))
		return -ENOMEM;
	c->nr++;
	return 0;
}

/* A job that did no I/O at all was refused before it started (engine, path, layout). */
static bool refused_before_start(const struct job_result *res)
{
	unsigned d;

	for (d = 0; d < STAT_NR; d++)
		if (res->dir[d].ios)
			return false;
	return true;
}

int results_add_run(struct results *r, const struct run_results *run, const json_t *identity,
		    const char *label, struct iop_err *err)
{
	struct run_env env;
	json_t *root, *jobs, *id, *machine, *start;
	unsigned i;
	int ret = 0;

	run_env_fill(&env, 0, NULL);
	root = report_json(run, &env, false);
	if (!root)
		return iop_errf(err, -ENOMEM, "out of memory building results");
	jobs = json_object_get(root, "jobs");
	machine = json_object_get(json_object_get(root, "iopath"), "machine");
	/* when the run started: the root's timestamp is the report's */
	start = json_object_get(json_object_get(root, "iopath"), "start_unix_ms");
	if (!json_is_integer(start))
		start = json_object_get(root, "timestamp_ms");
	for (i = 0; !ret && i < run->nr; i++) {
		const struct job_result *res = &run->res[i];
		char lbl[512];
		struct cell *c;

		id = json_deep_copy(identity);
		if (!id) {
			ret = -ENOMEM;
			break;
		}
		snprintf(lbl, sizeof(lbl), "%s", label ? label : "");
		if (run->nr > 1) {
			json_object_set_new(id, "job", json_string(res->spec->name));
			snprintf(lbl, sizeof(lbl), "%s%s%s", label ? label : "", label ? " " : "",
				 res->spec->name);
		}
		c = results_cell(r, id, lbl);
		json_decref(id);
		if (!c) {
			ret = -ENOMEM;
			break;
		}
		if (res->error) {
			enum cell_status st = refused_before_start(res) ? CELL_SKIPPED : CELL_FAILED;

			/* a failure on any repeat marks the cell; earlier good samples stay */
			if (c->status == CELL_OK || c->status == CELL_INTERRUPTED)
				ret = cell_set_status(c, st, res->errmsg);
			continue;
		}
		if (res->interrupted || run->interrupted) {
			if (!c->nr && c->status == CELL_OK)
				ret = cell_set_status(c, CELL_INTERRUPTED, "interrupted before this cell finished");
			continue;
		}
		/* each repeat carries what else used the machine while it ran, and when it
		 * started (compare pairs repeats taken in alternation) */
		if (machine)
			json_object_set(json_object_get(json_array_get(jobs, i), "iopath"), "machine",
					machine);
		if (json_is_integer(start))
			json_object_set(json_object_get(json_array_get(jobs, i), "iopath"),
					"start_unix_ms", start);
		ret = cell_add_sample(c, json_incref(json_array_get(jobs, i)));
		if (!ret && c->status == CELL_INTERRUPTED)
			ret = cell_set_status(c, CELL_OK, NULL);
	}
	json_decref(root);
	if (run->interrupted)
		r->interrupted = true;
	return ret ? iop_errf(err, ret, "out of memory adding results") : 0;
}

unsigned cell_values(const struct cell *c, enum metric_id m, double *out)
{
	unsigned i, n = 0;

	for (i = 0; i < c->nr; i++)
		if (!isnan(c->val[i][m]))
			out[n++] = c->val[i][m];
	return n;
}

int cell_summary(const struct cell *c, enum metric_id m, struct rsummary *s)
{
	double *v = malloc((c->nr ? c->nr : 1) * sizeof(*v));
	unsigned n;
	int ret;

	if (!v)
		return -ENOMEM;
	n = cell_values(c, m, v);
	ret = n ? rstats_summary(v, n, s) : -ENODATA;
	if (!n)
		memset(s, 0, sizeof(*s));
	free(v);
	return ret;
}

bool cell_unreliable(const struct cell *c, double cv_warn, double *cv)
{
	struct rsummary s;
	enum metric_id m;

	*cv = 0;
	for (m = MET_IOPS; m <= MET_BW; m++)
		if (!cell_summary(c, m, &s) && s.n > 1 && s.cv > *cv)
			*cv = s.cv;
	return *cv > cv_warn;
}

static json_t *summary_json(const struct rsummary *s)
{
	return json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)s->n,
			 "median", s->median, "min", s->min, "max", s->max, "mean", s->mean, "sd",
			 s->sd, "cv", s->cv, "ci95_lo", s->ci_lo, "ci95_hi", s->ci_hi);
}

static json_t *cell_json(const struct cell *c)
{
	json_t *o = json_object(), *sum = json_object();
	struct rsummary s;
	unsigned m;

	if (!o || !sum) {
		json_decref(o);
		json_decref(sum);
		return NULL;
	}
	json_object_set_new(o, "key", json_string(c->key));
	json_object_set_new(o, "label", json_string(c->label));
	json_object_set(o, "identity", c->identity);
	json_object_set_new(o, "status", json_string(cell_status_name(c->status)));
	if (c->reason)
		json_object_set_new(o, "reason", json_string(c->reason));
	json_object_set_new(o, "repeats", json_integer(c->nr));
	for (m = 0; m < MET_NR; m++)
		if (!cell_summary(c, m, &s))
			json_object_set_new(sum, metric_table[m].name, summary_json(&s));
	json_object_set_new(o, "summary", sum);
	json_object_set(o, "samples", c->samples);
	return o;
}

json_t *results_json(const struct results *r)
{
	json_t *root = json_object(), *cells = json_array(), *c;
	char when[32];
	time_t t = (time_t)(r->timestamp_ms / 1000);
	struct tm tm;
	unsigned i;

	if (!root || !cells) {
		json_decref(root);
		json_decref(cells);
		return NULL;
	}
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(root, "schema_version", json_integer(RESULTS_SCHEMA_VERSION));
	json_object_set_new(root, "kind", json_string(r->kind));
	json_object_set_new(root, "name", json_string(r->name));
	json_object_set_new(root, "timestamp_ms", json_integer((json_int_t)r->timestamp_ms));
	json_object_set_new(root, "time_utc", json_string(when));
	json_object_set_new(root, "interrupted", json_boolean(r->interrupted));
	json_object_set(root, "labels", r->labels ? r->labels : json_object());
	json_object_set(root, "env", r->env ? r->env : json_object());
	json_object_set(root, "targets", r->targets ? r->targets : json_array());
	for (i = 0; i < r->nr; i++) {
		c = cell_json(&r->cells[i]);
		if (!c || json_array_append_new(cells, c)) {
			json_decref(cells);
			json_decref(root);
			return NULL;
		}
	}
	json_object_set_new(root, "cells", cells);
	return root;
}

int results_write(const struct results *r, const char *path, struct iop_err *err)
{
	json_t *root = results_json(r);
	int ret;

	if (!root)
		return iop_errf(err, -ENOMEM, "out of memory writing %s", path);
	ret = report_json_write(root, path);
	json_decref(root);
	if (ret)
		return iop_errf(err, ret, "cannot write %s: %s", path, strerror(-ret));
	return 0;
}

const char *results_env_str(const struct results *r, const char *path)
{
	char buf[128], *tok, *save = NULL;
	const json_t *o = r->env;

	if (strlen(path) >= sizeof(buf))
		return NULL;
	strcpy(buf, path);
	for (tok = strtok_r(buf, ".", &save); tok && o; tok = strtok_r(NULL, ".", &save))
		o = json_object_get(o, tok);
	return json_is_string(o) ? json_string_value(o) : NULL;
}

int results_split(const struct results *src, const char *key, const char *value,
		  struct results *out)
{
	unsigned i, k;
	int n = 0;

	results_zero(out);
	out->schema_version = src->schema_version;
	snprintf(out->format, sizeof(out->format), "%s", src->format);
	snprintf(out->kind, sizeof(out->kind), "%s", src->kind);
	snprintf(out->name, sizeof(out->name), "%s", src->name);
	snprintf(out->source, sizeof(out->source), "%s=%s", key, value);
	out->timestamp_ms = src->timestamp_ms;
	out->interrupted = src->interrupted;
	out->env = json_incref(src->env);
	out->labels = json_incref(src->labels);
	out->targets = json_incref(src->targets);
	for (i = 0; i < src->nr; i++) {
		const struct cell *s = &src->cells[i];
		const char *v = json_string_value(json_object_get(s->identity, key));
		json_t *id;
		struct cell *d;

		if (!v || strcmp(v, value))
			continue;
		if (!(id = json_deep_copy(s->identity)) || json_object_del(id, key)) {
			json_decref(id);
			return -ENOMEM;
		}
		d = results_cell(out, id, s->label);
		json_decref(id);
		if (!d)
			return -ENOMEM;
		for (k = 0; k < s->nr; k++)
			if (cell_add_sample(d, json_incref(json_array_get(s->samples, k))))
				return -ENOMEM;
		if (s->status != CELL_OK && cell_set_status(d, s->status, s->reason))
			return -ENOMEM;
		n++;
	}
	return n;
}

int results_merge(struct results *dst, struct results *src, struct iop_err *err)
{
	unsigned i, k;

	for (i = 0; i < src->nr; i++) {
		struct cell *s = &src->cells[i], *d = results_cell(dst, s->identity, s->label);

		if (!d)
			return iop_errf(err, -ENOMEM, "out of memory merging %s", src->source);
		for (k = 0; k < s->nr; k++)
			if (cell_add_sample(d, json_incref(json_array_get(s->samples, k))))
				return iop_errf(err, -ENOMEM, "out of memory merging %s", src->source);
		/* a failure in any file of the set marks the cell, as a failed repeat does */
		if (d->status == CELL_FAILED)
			continue;
		if ((s->status == CELL_FAILED && cell_set_status(d, s->status, s->reason)) ||
		    (d->status != CELL_OK && s->status == CELL_OK && d->nr &&
		     cell_set_status(d, CELL_OK, NULL)) ||
		    (d->status == CELL_OK && s->status != CELL_OK && !d->nr &&
		     cell_set_status(d, s->status, s->reason)))
			return iop_errf(err, -ENOMEM, "out of memory merging %s", src->source);
	}
	dst->interrupted |= src->interrupted;
	return 0;
}
