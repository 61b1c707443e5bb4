/* Parsed jobs (before any run): the --parse-only JSON dump and --showcmd's command line. */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *spec_json(const struct job_spec *j)
{
	json_t *o = json_object(), *opts = json_object(), *bs = json_array();
	unsigned i;

	json_object_set_new(o, "name", json_string(j->name));
	json_object_set_new(o, "groupid", json_integer(j->groupid));
	json_object_set_new(o, "phase", json_integer(j->phase));
	json_object_set_new(o, "stonewall", json_boolean(j->stonewall));
	json_object_set_new(o, "new_group", json_boolean(j->new_group));
	json_object_set_new(o, "wait_for", json_string(j->wait_for));
	json_object_set_new(o, "startdelay_ns", u64(j->time.startdelay_ns));
	json_object_set_new(o, "startdelay_max_ns", u64(j->time.startdelay_max_ns));
	json_object_set_new(o, "group_reporting", json_boolean(j->group_reporting));
	json_object_set_new(o, "ioengine", json_string(j->engine ? j->engine->name : j->ioengine));
	json_object_set_new(o, "direct", json_boolean(j->direct));
	json_object_set_new(o, "rw", json_string(job_rw_name(j->rw)));
	json_array_append_new(bs, json_integer(j->bs[0]));
	json_array_append_new(bs, json_integer(j->bs[1]));
	json_object_set_new(o, "bs", bs);
	json_object_set_new(o, "size", u64(j->sizes.size));
	json_object_set_new(o, "size_pct", json_integer(j->sizes.size_pct));
	json_object_set_new(o, "offset", u64(j->sizes.offset));
	json_object_set_new(o, "offset_pct", json_integer(j->sizes.offset_pct));
	json_object_set_new(o, "io_size", u64(j->sizes.io_size));
	json_object_set_new(o, "iodepth", json_integer(j->iodepth));
	json_object_set_new(o, "numjobs", json_integer(j->numjobs));
	json_object_set_new(o, "runtime_ns", u64(j->time.runtime_ns));
	json_object_set_new(o, "ramp_ns", u64(j->time.ramp_ns));
	json_object_set_new(o, "time_based", json_boolean(j->time.based));
	json_object_set_new(o, "loops", json_integer(j->loops));
	json_object_set_new(o, "kb_base", json_integer(j->kb_base));
	json_object_set_new(o, "filename", json_string(j->filename));
	json_object_set_new(o, "directory", json_string(j->directory));
	for (i = 0; i < j->nr_kv; i++)
		json_object_set_new(opts, j->kv[i].key, json_string(j->kv[i].val));
	json_object_set_new(o, "options", opts);
	return o;
}

json_t *report_jobs_json(const struct job_list *jobs)
{
	json_t *root = json_object(), *arr = json_array();
	unsigned i;

	if (!root || !arr)
		return NULL;
	json_object_set_new(root, "iopath parsed jobs", json_integer((json_int_t)jobs->nr));
	for (i = 0; i < jobs->nr; i++)
		json_array_append_new(arr, spec_json(&jobs->jobs[i]));
	json_object_set_new(root, "jobs", arr);
	return root;
}

/* One shell word: quoted when it holds anything the shell would read specially. */
static void shell_word(FILE *f, const char *s)
{
	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/%+@")]) {
		fputc('\'', f);
		for (; *s; s++) {
			if (*s == '\'')
				fputs("'\\''", f);
			else
				fputc(*s, f);
		}
		fputc('\'', f);
		return;
	}
	fputs(s, f);
}

static bool has_kv(const struct job_spec *j, const char *key)
{
	unsigned i;

	for (i = 0; i < j->nr_kv; i++)
		if (!strcmp(j->kv[i].key, key))
			return true;
	return false;
}

/* Options as --KEY=VALUE words (--KEY for one given without a value), name= left out. */
static void showcmd_options(FILE *f, const struct job_kv *kv, unsigned nr)
{
	char arg[600];
	unsigned k;

	for (k = 0; k < nr; k++) {
		if (!strcmp(kv[k].key, "name"))
			continue;
		if (kv[k].val[0])
			snprintf(arg, sizeof(arg), "--%s=%s", kv[k].key, kv[k].val);
		else
			snprintf(arg, sizeof(arg), "--%s", kv[k].key);
		fputc(' ', f);
		shell_word(f, arg);
	}
}

void report_showcmd(FILE *f, const struct job_list *jobs)
{
	char arg[600];
	unsigned i;

	fputs("iopath", f);
	/* global options alone (no job section): those, as fio's --showcmd prints them */
	if (!jobs->nr)
		showcmd_options(f, jobs->global_kv, jobs->nr_global_kv);
	for (i = 0; i < jobs->nr; i++) {
		const struct job_spec *j = &jobs->jobs[i];

		snprintf(arg, sizeof(arg), "--name=%s", j->name);
		fputc(' ', f);
		shell_word(f, arg);
		/* a stonewall a later job file implies is nowhere among the options */
		if (j->stonewall && !has_kv(j, "stonewall"))
			fputs(" --stonewall", f);
		showcmd_options(f, j->kv, j->nr_kv);
	}
	fputc('\n', f);
}
