/* Applying job options: the defaults, looking a name up in the table, typed parsing, engine options, suggestions. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cpulist.h"
#include "job/fio_unsupported.h"
#include "base/msg.h"
#include "job/options.h"
#include "base/numapol.h"
#include "base/parse.h"
#include "job/job.h"
#include "job/setters.h"

void job_defaults(struct job_spec *job)
{
	memset(job, 0, sizeof(*job));
	job->kb_base = 1024;
	job->rw = RW_READ;
	job->seq_nr = 1;
	job->ss_state = SS_IOPS | SS_SLOPE | SS_PCT;	/* fio's default: iops_slope:0.01% */
	job->ss_limit = 0.01;
	job->lat_target.percentile = 100.0;
	job->allow_file_create = true;
	job->create_fsync = true;
	job->create_serialize = true;
	job->buf.dedupe_ws_pct = 5;
	job->buf.compress_chunk = 512;
	job->verify.after_write = true;
	job->verify.state_save = true;
	job->verify.write_sequence = true;
	job->replay_time_scale = 100;
	job->replay_scale = 1;
	job->rwmixread = 50;
	job->perc_rand[0] = job->perc_rand[1] = job->perc_rand[2] = 100;
	job->bs[0] = job->bs[1] = 4096;
	job->rate.cycle_ms = 1000;
	job->think.blocks = 1;
	job->clat_percentiles = true;
	job->log.per_job = true;
	job->bw_avg_ms = job->iops_avg_ms = 500;	/* fio's bwavgtime, iopsavgtime */
	job->file_service_nr = 1;
	job->buf.scramble = true;
	job->dist_center = -1.0;
	job->fallocate = FALLOC_NATIVE;
	job->iodepth = 1;
	job->iodepth_batch_submit = 1;
	job->iodepth_batch_complete_min = 1;
	job->numjobs = 1;
	job->loops = 1;
	job->nrfiles = 1;
	job->filesize = 4096;
	job->files_per_dir = 32;
	job->dir_fanout = 8;
	job->invalidate = true;
	job->disk_util = true;
	job->fadvise_hint = FADV_HINT_TYPE;
	job->sig_figs = 4;
	job->randrepeat = true;
	job->spr_num_regions = 100;
	job->spr_op = 0.15;
	snprintf(job->ioengine, sizeof(job->ioengine), "%s", engine_default);
}

const struct opt_def *opt_find(const char *name)
{
	const struct opt_def *o;

	for (o = opt_table; o->name; o++)
		if (!strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name)))
			return o;
	return NULL;
}

static const struct engine_option *engine_opt_find(const struct engine_ops *ops, const char *name)
{
	const struct engine_option *eo;

	for (eo = ops ? ops->options : NULL; eo && eo->name; eo++)
		if (!strcmp(eo->name, name))
			return eo;
	return NULL;
}

/* The first engine (other than skip) that has an option of that name. */
static const struct engine_ops *engine_owning(const char *name)
{
	const struct engine_entry *ent;

	for (ent = engine_table; ent->name; ent++)
		if (engine_opt_find(ent->ops, name))
			return ent->ops;
	return NULL;
}

/* OPT_WORD: the value of the word given, into a one-byte (bool, small enum) or int field. */
static int set_word(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	char *field = (char *)job + o->off, accepted[160] = "";
	const struct opt_word *w;

	for (w = o->words; w->word; w++) {
		if (strcmp(val, w->word))
			continue;
		if (o->size == 1)
			*(unsigned char *)field = (unsigned char)w->value;
		else
			*(int *)field = w->value;
		return 0;
	}
	for (w = o->words; w->word; w++)
		snprintf(accepted + strlen(accepted), sizeof(accepted) - strlen(accepted), "%s%s",
			 w == o->words ? "" : ", ", w->word);
	return bad_value(err, o, val, accepted);
}

static int set_typed(struct job_spec *job, const struct opt_def *o, const char *val,
		     struct iop_err *err)
{
	char *field = (char *)job + o->off;
	const char *why = "";
	uint64_t v = 0;
	bool b;

	switch (o->type) {
	case OPT_STR:
		if (strlen(val) >= o->size)
			return iop_errf(err, -ENAMETOOLONG, "option %s: value longer than %zu bytes",
					o->name, o->size - 1);
		if (!strcmp(o->name, "name") && !*val)
			return iop_errf(err, -EINVAL, "option name: a job name may not be empty");
		/* fio refuses an empty text option ("filename=") and drops the job */
		if (!*val)
			return iop_errf(err, -EINVAL, "option %s: an empty value (accepted: %s; "
					"leave the line out for the default)", o->name, o->help);
		memcpy(field, val, strlen(val) + 1);
		return 0;
	case OPT_BOOL:
	case OPT_FLAG:
		if (parse_bool(val, &b)) {
			unsigned u;

			/* fio's set options (time_based, thread, ...) take any number, non-zero on */
			if (o->type != OPT_FLAG || sscanf(val, "%u", &u) != 1)
				return bad_value(err, o, val, o->type == OPT_FLAG ? "0, 1 or any number (non-zero: on)" : "0 or 1");
			b = u != 0;
		}
		*(bool *)field = b;
		return 0;
	case OPT_UINT:
		/* fio reads integers as it reads sizes: "iodepth=1k" is 1024 */
		if (parse_size_why(val, job->kb_base, &v, NULL, &why) || v < o->min || v > o->max)
			return iop_errf(err, -EINVAL, "option %s: bad value '%s' (accepted: %llu to %llu)",
					o->name, val, o->min, o->max);
		*(unsigned *)field = (unsigned)v;
		return 0;
	case OPT_SIZE:
		if (parse_size_why(val, job->kb_base, &v, NULL, &why))
			v = 0;
		else if (v < o->min)
			why = "too small";
		else
			why = NULL;
		if (why)
			return iop_errf(err, -EINVAL,
					"option %s: bad size '%s': %s (accepted: a number with an optional k/m/g/t/p suffix%s)",
					o->name, val, why, o->min ? ", at least 1" : "");
		*(uint64_t *)field = v;
		return 0;
	case OPT_TIME:
		if (parse_time_why(val, 1000000000ull, &v, &why))
			return iop_errf(err, -EINVAL,
					"option %s: bad time '%s': %s (accepted: seconds, or a number with d/h/m/s/ms/us)",
					o->name, val, why);
		*(uint64_t *)field = v;
		return 0;
	case OPT_WORD:
		return set_word(job, o, val, err);
	case OPT_FN:
	case OPT_FN_OPT:
		return o->fn(job, o, val, err);
	}
	return -EINVAL;
}

static void record_kv_as(struct job_spec *job, const char *key, const char *val, bool bare)
{
	struct job_kv *kv;
	unsigned i;

	for (i = 0; i < job->nr_kv; i++)
		if (!strcmp(job->kv[i].key, key))
			break;
	if (i == JOB_KV_MAX)
		return;
	kv = &job->kv[i];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->val, sizeof(kv->val), "%s", val ? val : "");
	kv->own = true;
	kv->bare = bare;
	if (i == job->nr_kv)
		job->nr_kv++;
}

static void record_kv(struct job_spec *job, const char *key, const char *val)
{
	record_kv_as(job, key, val, false);
}

static int store_engine_kv(struct job_spec *job, const char *key, const char *val,
			   const char *where, struct iop_err *err)
{
	struct job_kv *kv;
	unsigned i;

	for (i = 0; i < job->nr_engine_kv; i++)
		if (!strcmp(job->engine_kv[i].key, key))
			break;
	if (i == sizeof(job->engine_kv) / sizeof(job->engine_kv[0]))
		return iop_errf(err, -E2BIG, "%s: too many engine options", where);
	kv = &job->engine_kv[i];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->val, sizeof(kv->val), "%s", val ? val : "");
	if (i == job->nr_engine_kv)
		job->nr_engine_kv++;
	return 0;
}

/* A fio option, engine option or profile option iopath lacks: refuse it, or warn. */
static int unsupported(struct job_spec *job, const char *key, const char *val, const char *where,
		       const struct opt_ctx *ctx, struct iop_err *err)
{
	const struct fio_unsupported *u = fio_unsupported_find(key, FIO_JOB_OPTION);
	const struct fio_unsupported *dep = fio_unsupported_find(key, FIO_DEPRECATED);
	char msg[sizeof(err->msg)];

	if (dep && dep->def) {
		snprintf(msg, sizeof(msg), "%s: Option %s is deprecated (fio accepts and ignores it, as iopath does)",
			 where, key);
		if (ctx && ctx->warn)
			ctx->warn(ctx->arg, msg);
		record_kv(job, key, val);
		return 0;
	}
	if (dep)
		return iop_errf(err, -EINVAL, "%s: Option %s is deprecated, and fio refuses it too", where,
				key);
	if (u && u->def && val && !strcmp(val, u->def)) {
		/* fio's own default: the setting changes nothing */
		record_kv(job, key, val);
		return 0;
	}
	if (u) {
		snprintf(msg, sizeof(msg), "%s: fio option '%s' is not supported by iopath (fio: %s)",
			 where, key, u->what);
	} else if ((u = fio_unsupported_find(key, FIO_ENGINE_OPTION))) {
		snprintf(msg, sizeof(msg),
			 "%s: option '%s' of fio's %s ioengine is not supported by iopath", where, key,
			 u->what);
	} else if ((u = fio_unsupported_find(key, FIO_PROFILE_OPTION))) {
		if (ctx && ctx->warn) {
			snprintf(msg, sizeof(msg),
				 "%s: '%s' is an option of fio's %s profile; it changes nothing in this job, in fio or in iopath",
				 where, key, u->what);
			ctx->warn(ctx->arg, msg);
		}
		return 0;
	} else {
		return 1;
	}
	if (!ctx || !ctx->ignore_unsupported)
		return iop_errf(err, -ENOTSUP, "%s (--ignore-unsupported makes this a warning)", msg);
	if (ctx->warn) {
		strncat(msg, "; ignored (--ignore-unsupported): the job runs without it",
			sizeof(msg) - strlen(msg) - 1);
		ctx->warn(ctx->arg, msg);
	}
	return 0;
}

/*
 * An integer or time option written with arithmetic outside parentheses (iodepth=128*1,
 * runtime=40+30): what fio reads (its leading number; parse_fio_leading), said in a warning.
 * 0, or ret (the strict parser's refusal, err kept) when fio would not read it either.
 */
static int set_fio_leading(struct job_spec *job, const struct opt_def *o, const char *val,
			   const char *where, const struct opt_ctx *ctx, int ret)
{
	char msg[1024];
	bool time = o->type == OPT_TIME;
	uint64_t v;

	if ((o->type != OPT_UINT && !time) ||
	    parse_fio_leading(val, time, job->kb_base, 1000000000ull, &v) ||
	    (!time && (v < o->min || v > o->max)))
		return ret;
	if (time)
		*(uint64_t *)((char *)job + o->off) = v;
	else
		*(unsigned *)((char *)job + o->off) = (unsigned)v;
	if (ctx && ctx->warn) {
		snprintf(msg, sizeof(msg),
			 "%s: %s=%s: fio evaluates arithmetic only in parentheses and reads %llu%s here; so does iopath (write (%s) for the sum)",
			 where, o->name, val, (unsigned long long)(time ? v / 1000000 : v),
			 time ? " ms" : "", val);
		ctx->warn(ctx->arg, msg);
	}
	return 0;
}

int opt_apply_ctx(struct job_spec *job, const char *key, const char *val, const char *where,
		  const struct opt_ctx *ctx, struct iop_err *err)
{
	const struct opt_def *o = opt_find(key);
	bool bare = false;
	char hint[160];
	int ret;

	/* fio names the option by its own name, not the alias given */
	iop_debugf(DBG_PARSE, "handle_option=%s, ptr=%s", o ? o->name : key, val ? val : "(null)");
	if (!o) {
		if (engine_owning(key)) {
			ret = store_engine_kv(job, key, val, where, err);
			if (!ret)
				record_kv(job, key, ctx && ctx->written ? ctx->written : val);
			return ret;
		}
		ret = unsupported(job, key, val, where, ctx, err);
		if (ret <= 0)
			return ret;
		opt_suggest(key, hint, sizeof(hint));
		return iop_errf(err, -EINVAL, "%s: unknown option '%s'%s", where, key, hint);
	}
	if (!val && o->type == OPT_FN_OPT) {
		ret = o->fn(job, o, NULL, err);
		if (ret)
			return ret;
		record_kv_as(job, o->name, "", true);
		return 0;
	}
	if (!val) {
		if (o->type != OPT_FLAG)
			return iop_errf(err, -EINVAL, "%s: option '%s' needs a value (%s=...)", where,
					o->name, o->name);
		val = "1";
		bare = true;
	}
	ret = set_typed(job, o, val, err);
	if (ret == -EINVAL)
		ret = set_fio_leading(job, o, val, where, ctx, ret);
	if (ret == -ENOTSUP && ctx && ctx->ignore_unsupported) {
		/* a value of fio's that iopath lacks (zonemode=zbd): like a lacking option */
		char msg[sizeof(err->msg) + 64];

		snprintf(msg, sizeof(msg), "%s: %s; ignored (--ignore-unsupported): the job runs without it",
			 where, err->msg);
		if (ctx->warn)
			ctx->warn(ctx->arg, msg);
		return 0;
	}
	if (ret) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return iop_errf(err, ret, "%s: %s%s", where, msg,
				ret == -ENOTSUP ? " (--ignore-unsupported makes this a warning)" : "");
	}
	if (!strcmp(o->name, "filename") || !strcmp(o->name, "nrfiles"))
		job->nrfiles_last = o->name[0] == 'n';
	record_kv_as(job, o->name, ctx && ctx->written ? ctx->written : val, bare);
	return 0;
}

int opt_apply(struct job_spec *job, const char *key, const char *val, const char *where,
	      struct iop_err *err)
{
	return opt_apply_ctx(job, key, val, where, NULL, err);
}

/* The index of word in a '|'-separated list of choices, or -1. */
static int choice_index(const char *choices, const char *word)
{
	size_t n = strlen(word);
	const char *p = choices;
	int i = 0;

	while (n && p && *p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return i;
		p = bar ? bar + 1 : NULL;
		i++;
	}
	return -1;
}

int parse_engine_opts(struct job_spec *job, const struct engine_ops *ops,
			     struct iop_err *err)
{
	unsigned i;

	const struct engine_option *d;

	memset(job->engine_opts, 0, sizeof(job->engine_opts));
	if (ops->opts_size > sizeof(job->engine_opts))
		return iop_errf(err, -EOVERFLOW, "engine %s: option block too large", ops->name);
	for (d = ops->options; d && d->name; d++)
		*(int *)(job->engine_opts + d->offset) = d->def;
	for (i = 0; i < job->nr_engine_kv; i++) {
		const struct job_kv *kv = &job->engine_kv[i];
		const struct engine_option *eo = engine_opt_find(ops, kv->key);
		const struct engine_ops *owner;
		uint64_t v;
		bool b;

		if (!eo) {
			owner = engine_owning(kv->key);
			return iop_errf(err, -EINVAL,
					"%s: option '%s' belongs to ioengine=%s, but job '%s' uses ioengine=%s",
					job->origin, kv->key, owner ? owner->name : "?", job->name,
					ops->name);
		}
		if (eo->type == EOPT_CHOICE) {
			int idx = choice_index(eo->choices, kv->val);

			if (idx < 0)
				return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: %s)",
						job->origin, kv->key, kv->val, eo->choices);
			*(int *)(job->engine_opts + eo->offset) = idx;
			continue;
		}
		if (eo->type == EOPT_BOOL) {
			if (*kv->val && parse_bool(kv->val, &b))
				return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: 0 or 1)",
						job->origin, kv->key, kv->val);
			v = *kv->val ? b : 1;
		} else if (!*kv->val || parse_u64(kv->val, &v) || (long long)v < eo->min ||
			   (long long)v > eo->max) {
			return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: %lld to %lld)",
					job->origin, kv->key, kv->val, eo->min, eo->max);
		}
		*(int *)(job->engine_opts + eo->offset) = (int)v;
	}
	return 0;
}

/* ---- the names nearest a mistyped option, for its refusal ---- */

static unsigned edit_distance(const char *a, const char *b)
{
	unsigned la = (unsigned)strlen(a), lb = (unsigned)strlen(b), i, j;
	unsigned row[64], prev, tmp;

	if (lb >= 64 || la >= 64)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;

			tmp = row[j];
			row[j] = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
			if (prev + cost < row[j])
				row[j] = prev + cost;
			prev = tmp;
		}
	}
	return row[lb];
}

struct near {
	const char *name;
	unsigned dist;
};

static void consider(struct near *best, const char *key, const char *name)
{
	unsigned d = edit_distance(key, name), i, k;

	if (strstr(name, key) && strlen(key) >= 4)
		d = d < 2 ? d : 2;
	for (i = 0; i < 3; i++) {
		if (best[i].name && !strcmp(best[i].name, name))
			return;
		if (!best[i].name || d < best[i].dist)
			break;
	}
	if (i == 3)
		return;
	for (k = 2; k > i; k--)
		best[k] = best[k - 1];
	best[i].name = name;
	best[i].dist = d;
}

void opt_suggest(const char *key, char *buf, size_t len)
{
	struct near best[3] = { { 0 } };
	const struct opt_def *o;
	const struct engine_entry *ent;
	const struct engine_option *eo;
	unsigned limit = strlen(key) > 6 ? 3 : 2, i, n = 0;
	size_t off;

	for (o = opt_table; o->name; o++) {
		consider(best, key, o->name);
		if (o->alias)
			consider(best, key, o->alias);
	}
	for (ent = engine_table; ent->name; ent++)
		for (eo = ent->ops->options; eo && eo->name; eo++)
			consider(best, key, eo->name);
	buf[0] = '\0';
	off = 0;
	for (i = 0; i < 3; i++) {
		if (!best[i].name || best[i].dist > limit)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s'%s'", n ? " or " : ", did you mean ",
					best[i].name);
		n++;
		if (off >= len)
			break;
	}
	if (n && off < len)
		snprintf(buf + off, len - off, "?");
}
