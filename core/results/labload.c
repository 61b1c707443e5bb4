/*
 * The QEMU lab's result (scripts/vmlab's lab.json, schema "iopath-vmlab/1") read as one
 * result: each path a target named as the lab names it, with the probe run in its guest;
 * each job section of each lab cell a cell, its rounds pooled as samples; and the cells
 * --explain ran in the guest beside them. docs/lab.md describes the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/cells.h"
#include "results/results.h"

#define VMLAB_PREFIX	"iopath-vmlab/"
#define VMLAB_VERSION	1

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

bool results_is_vmlab(const json_t *root)
{
	const char *s = jstr(root, "schema");

	return s && !strncmp(s, VMLAB_PREFIX, strlen(VMLAB_PREFIX));
}

/* A path's target name: the path's own with one QEMU, else the lab's cell name (q1-9p-none). */
static void target_name(char *out, size_t len, const char *path, long long qi, size_t nq)
{
	if (nq > 1)
		snprintf(out, len, "q%lld-%s", qi, path);
	else
		snprintf(out, len, "%s", path);
}

static long long qemu_index(const json_t *o)
{
	const json_t *v = json_object_get(o, "qemu_index");

	return json_is_integer(v) ? json_integer_value(v) : 0;
}

/*
 * src's cells into r as target's: "target" set, the job's name prefixed with the lab's job
 * (several lab jobs may have sections of the same name), samples pooled with earlier rounds.
 */
static int pool_cells(struct results *r, const struct results *src, const char *target,
		      const char *job, struct iop_err *err, const char *origin)
{
	unsigned i, k;

	for (i = 0; i < src->nr; i++) {
		const struct cell *s = &src->cells[i];
		json_t *id = json_deep_copy(s->identity);
		const char *sj = jstr(s->identity, "job");
		char name[512], label[768];
		struct cell *d;

		if (!id)
			return iop_errf(err, -ENOMEM, "%s: out of memory", origin);
		json_object_set_new(id, "target", json_string(target));
		if (job) {
			snprintf(name, sizeof(name), "%s/%s", job, sj ? sj : "job");
			json_object_set_new(id, "job", json_string(name));
			snprintf(label, sizeof(label), "%s %s", target, name);
		} else {
			snprintf(label, sizeof(label), "%s", s->label);
		}
		d = results_cell(r, id, label);
		json_decref(id);
		if (!d)
			return iop_errf(err, -ENOMEM, "%s: out of memory", origin);
		for (k = 0; k < s->nr; k++)
			if (cell_add_sample(d, json_incref(json_array_get(s->samples, k))))
				return iop_errf(err, -ENOMEM, "%s: out of memory", origin);
		/* a failed round marks the cell, as a failed repeat of a sweep does */
		if (d->status != CELL_FAILED && s->status != CELL_OK &&
		    cell_set_status(d, s->status, s->reason))
			return iop_errf(err, -ENOMEM, "%s: out of memory", origin);
	}
	return 0;
}

/* An embedded result (a lab cell's fio-shaped JSON, or the guest's explain sweep) into r. */
static int add_embedded(struct results *r, json_t *doc, const char *target, const char *job,
			const char *origin, struct iop_err *err)
{
	struct results sub;
	int ret;

	ret = results_from_result_json(doc, origin, &sub, err);
	if (ret)
		return ret;
	if (!r->timestamp_ms)
		r->timestamp_ms = sub.timestamp_ms;
	if (!json_object_get(json_object_get(r->env, "iopath"), "version") &&
	    results_env_str(&sub, "iopath.version"))
		json_object_set_new(r->env, "iopath", json_pack("{s:s}", "version",
								results_env_str(&sub, "iopath.version")));
	ret = pool_cells(r, &sub, target, job, err, origin);
	results_free(&sub);
	return ret;
}

/* The explain sweep's target (its probe times the O_DIRECT honesty check), or NULL. */
static const json_t *explain_target(const json_t *boot)
{
	const json_t *res = json_object_get(json_object_get(boot, "explain"), "result");

	return json_array_get(json_object_get(res, "targets"), 0);
}

/* The probe the guest ran before the jobs, which every cell of the boot carries. */
static const json_t *cell_probe(const json_t *root, const json_t *boot)
{
	const json_t *c, *p;
	size_t i;

	json_array_foreach(json_object_get(root, "cells"), i, c) {
		const char *path = jstr(c, "path");

		if (path && jstr(boot, "path") && !strcmp(path, jstr(boot, "path")) &&
		    qemu_index(c) == qemu_index(boot)) {
			p = json_array_get(json_object_get(json_object_get(c, "probe"), "paths"), 0);
			if (json_is_object(p))
				return p;
		}
	}
	return NULL;
}

/* Is there a target of this role already (a path booted once per round)? */
static bool has_target(const struct results *r, const char *role)
{
	const json_t *t;
	size_t i;

	json_array_foreach(r->targets, i, t)
		if (jstr(t, "role") && !strcmp(jstr(t, "role"), role))
			return true;
	return false;
}

/* The path's target, once: from the first boot of it that ran (every round boots it again). */
static int add_target(struct results *r, const json_t *root, const json_t *boot,
		      const char *name)
{
	const json_t *et = explain_target(boot), *cp = cell_probe(root, boot);
	const json_t *probe = json_is_object(json_object_get(et, "probe")) ?
			      json_object_get(et, "probe") : cp;
	const char *where = jstr(et, "path") ? jstr(et, "path") :
			    jstr(json_object_get(boot, "facts"), "target");
	const char *summary = jstr(cp, "summary") ? jstr(cp, "summary") : jstr(probe, "summary");
	json_t *t;

	if (has_target(r, name))
		return 0;
	/* the guest's own probe summary names the hypervisor too (under QEMU/TCG) */
	t = json_pack("{s:s,s:s,s:s?,s:O?,s:s?,s:s?}", "role", name, "path",
		      where ? where : jstr(boot, "path"), "summary", summary, "probe", probe,
		      "accel", jstr(boot, "accel"), "lab_path", jstr(boot, "desc"));
	if (t && summary && json_is_object(probe) && !jstr(probe, "summary")) {
		/* explain reads the summary from the probe */
		json_t *pc = json_deep_copy(probe);

		json_object_set_new(pc, "summary", json_string(summary));
		json_object_set_new(t, "probe", pc);
	}
	if (!t || json_array_append_new(r->targets, t))
		return -ENOMEM;
	return 0;
}

static int load_boots(struct results *r, json_t *root, size_t nq, const char *origin,
		      struct iop_err *err)
{
	const json_t *boots = json_object_get(root, "boots"), *b;
	char name[192], where[PATH_MAX + 64];
	size_t i;
	int ret;

	if (boots && !json_is_array(boots))
		return iop_errf(err, -EINVAL, "%s: boots is not an array", origin);
	json_array_foreach(boots, i, b) {
		const char *path = jstr(b, "path"), *st = jstr(b, "status");
		json_t *ex = json_object_get(b, "explain");
		json_t *res = json_object_get(ex, "result");

		if (!json_is_object(b) || !path)
			return iop_errf(err, -EINVAL, "%s: boots[%zu] names no path", origin, i);
		if (!st || strcmp(st, "ok"))
			continue;	/* skipped or failed: no figures of its own */
		target_name(name, sizeof(name), path, qemu_index(b), nq);
		if (add_target(r, root, b, name))
			return iop_errf(err, -ENOMEM, "%s: out of memory", origin);
		if (!json_is_object(res))
			continue;
		snprintf(where, sizeof(where), "%s: boots[%zu].explain.result", origin, i);
		ret = add_embedded(r, res, name, NULL, where, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int load_cells(struct results *r, json_t *root, size_t nq, const char *origin,
		      struct iop_err *err)
{
	const json_t *cells = json_object_get(root, "cells"), *c;
	char name[192], where[PATH_MAX + 64];
	size_t i;
	int ret;

	if (!json_is_array(cells))
		return iop_errf(err, -EINVAL, "%s: no cells array", origin);
	json_array_foreach(cells, i, c) {
		const char *path = jstr(c, "path"), *job = jstr(c, "job"), *st = jstr(c, "status");
		const char *engine = jstr(c, "engine");
		json_t *res = json_object_get(c, "result");

		if (!json_is_object(c) || !path || !job)
			return iop_errf(err, -EINVAL, "%s: cells[%zu] names no path or job", origin, i);
		target_name(name, sizeof(name), path, qemu_index(c), nq);
		if (st && !strcmp(st, "ok") && json_is_object(res)) {
			snprintf(where, sizeof(where), "%s: cells[%zu].result", origin, i);
			ret = add_embedded(r, res, name, job, where, err);
			if (ret)
				return ret;
		} else if (st && !strcmp(st, "failed")) {
			/* the cell as the lab ran it, failed, with the lab's reason */
			json_t *id = json_pack("{s:s,s:s,s:s}", "target", name, "job", job,
					       "ioengine", engine ? engine : "?");

			ret = id ? cell_record_status(r, id, NULL, CELL_FAILED, jstr(c, "error") ?
						      jstr(c, "error") : "failed in the lab", err) :
				   iop_errf(err, -ENOMEM, "%s: out of memory", origin);
			json_decref(id);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int results_load_vmlab(struct results *r, json_t *root, const char *origin, struct iop_err *err)
{
	const char *schema = jstr(root, "schema");
	const json_t *qemus = json_object_get(root, "qemus"), *q0 = json_array_get(qemus, 0);
	size_t nq = json_is_array(qemus) && json_array_size(qemus) ? json_array_size(qemus) : 1;
	long ver = strtol(schema + strlen(VMLAB_PREFIX), NULL, 10);
	int ret;

	if (ver < 1)
		return iop_errf(err, -EINVAL, "%s: schema '%s' is not iopath-vmlab/N", origin, schema);
	if (ver > VMLAB_VERSION)
		return iop_errf(err, -EPROTONOSUPPORT,
				"%s: schema %s is newer than this iopath reads (up to %s%d); upgrade iopath",
				origin, schema, VMLAB_PREFIX, VMLAB_VERSION);
	r->schema_version = 0;
	snprintf(r->format, sizeof(r->format), "iopath-vmlab");
	snprintf(r->kind, sizeof(r->kind), "lab");
	snprintf(r->name, sizeof(r->name), "vmlab");
	r->interrupted = json_is_string(json_object_get(root, "interrupted"));
	r->env = json_pack("{s:O?}", "host", json_object_get(root, "host"));
	r->labels = json_object();
	r->targets = json_array();
	if (!r->env || !r->labels || !r->targets)
		return iop_errf(err, -ENOMEM, "%s: out of memory", origin);
	/* one QEMU: its version and accelerator label the whole result, as --label would */
	if (nq == 1 && jstr(q0, "version"))
		json_object_set_new(r->labels, "qemu", json_string(jstr(q0, "version")));
	if (nq == 1 && jstr(q0, "accel"))
		json_object_set_new(r->labels, "accel", json_string(jstr(q0, "accel")));
	ret = load_boots(r, root, nq, origin, err);
	return ret ? ret : load_cells(r, root, nq, origin, err);
}
