/* The probe's results as JSON objects, for `iopath probe --json` and every result file. */
#include <stdio.h>
#include <string.h>

#include "probe/probe_int.h"

/* Set key only when the string says something; jansson's *_new on NULL fails, so guard. */
static int set_str(json_t *o, const char *key, const char *val)
{
	return json_object_set_new(o, key, json_string(val ? val : ""));
}

static int set_int(json_t *o, const char *key, long long v)
{
	return json_object_set_new(o, key, json_integer(v));
}

json_t *probe_host_json(const struct probe_host *h)
{
	json_t *o = json_object();
	int bad = 0;

	if (!o)
		return NULL;
	bad |= set_str(o, "kernel", h->kernel);
	bad |= set_str(o, "machine", h->machine);
	bad |= set_str(o, "cpu_model", h->cpu_model);
	bad |= set_int(o, "nr_cpus", h->nr_cpus);
	bad |= set_str(o, "hypervisor", h->hypervisor);
	bad |= set_str(o, "cpuid_signature", h->hv_sig);
	bad |= set_str(o, "dmi_vendor", h->dmi_vendor);
	bad |= set_str(o, "dmi_product", h->dmi_product);
	bad |= set_str(o, "dmi_bios_vendor", h->dmi_bios);
	bad |= set_str(o, "platform", h->platform);
	bad |= set_int(o, "wsl", h->wsl);
	bad |= set_str(o, "container", h->container);
	bad |= set_str(o, "container_evidence", h->container_evidence);
	bad |= set_str(o, "virt", h->virt);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *dev_json(const struct probe_dev *d)
{
	json_t *o = json_object();
	int bad = 0;

	if (!o)
		return NULL;
	bad |= set_str(o, "name", d->name);
	bad |= set_str(o, "kind", d->kind);
	bad |= set_str(o, "driver", d->driver);
	bad |= set_str(o, "drivers", d->drivers);
	bad |= set_str(o, "model", d->model);
	bad |= set_str(o, "vendor", d->vendor);
	bad |= set_str(o, "extra", d->extra);
	bad |= set_int(o, "logical_block_size", d->logical_bs);
	bad |= set_int(o, "physical_block_size", d->physical_bs);
	bad |= set_int(o, "rotational", d->rotational);
	bad |= set_str(o, "scheduler", d->scheduler);
	bad |= set_str(o, "write_cache", d->write_cache);
	bad |= set_int(o, "nr_requests", d->nr_requests);
	bad |= set_int(o, "max_sectors_kb", d->max_sectors_kb);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *trial_json(const struct probe_trial *t)
{
	const char *state = t->state == PROBE_OK ? "ok" : t->state == PROBE_FAILED ? "failed" :
			    "not_run";

	return json_pack("{s:s, s:i, s:s, s:s}", "state", state, "errno", t->err,
			 "error", t->err ? strerror(t->err) : "", "why", t->why);
}

static int path_trials(json_t *o, const struct probe_path *p)
{
	json_t *t = json_object();
	unsigned i, e;
	int bad = 0;

	if (!t)
		return -1;
	for (i = 0; i < PROBE_T_NR; i++) {
		bad |= json_object_set_new(t, probe_trial_name(i), trial_json(&p->trial[i]));
		/* the engines' own trials, named by their engine, follow the O_DIRECT ones */
		for (e = 0; i == PROBE_T_UNALIGNED && e < p->nr_etrials; e++)
			bad |= json_object_set_new(t, p->etrial[e].engine,
						   trial_json(&p->etrial[e].t));
	}
	bad |= json_object_set_new(o, "trials", t);
	bad |= set_int(o, "direct_align", p->direct_align);
	bad |= set_int(o, "dio_mem_align", p->dio_mem_align);
	bad |= set_int(o, "dio_offset_align", p->dio_offset_align);
	bad |= set_int(o, "atomic_write_unit_min", p->atomic_unit_min);
	bad |= set_int(o, "atomic_write_unit_max", p->atomic_unit_max);
	bad |= set_int(o, "atomic_write_segments_max", p->atomic_segments_max);
	bad |= set_int(o, "fsync_ns", (long long)p->fsync_ns);
	bad |= set_str(o, "direct_honoured", probe_tri_name(p->direct_honoured));
	bad |= set_str(o, "direct_evidence", p->direct_evidence);
	bad |= set_int(o, "direct_data_read_ns", (long long)p->direct_data_ns);
	bad |= set_int(o, "direct_hole_read_ns", (long long)p->direct_hole_ns);
	bad |= set_int(o, "direct_reads", (long long)p->direct_reads);
	return bad;
}

static int path_9p(json_t *o, const struct probe_path *p)
{
	if (!p->p9_version[0])
		return 0;
	return json_object_set_new(o, "9p", json_pack("{s:s, s:i, s:s, s:s}",
			"trans", p->p9_trans, "msize", (int)p->p9_msize, "cache", p->p9_cache,
			"version", p->p9_version));
}

/* An NVMe disk's controller counters, or why they were not read; nothing for other paths. */
static int path_nvme(json_t *o, const struct probe_path *p)
{
	json_t *h;

	if (!p->nvme_health && !p->nvme_health_why[0])
		return 0;
	if (!p->nvme_health)
		return json_object_set_new(o, "nvme_health", json_pack("{s:s}", "error",
								     p->nvme_health_why));
	h = json_pack("{s:I,s:I,s:I,s:I}", "host_read_commands", (json_int_t)p->nvme_host_reads,
		      "host_write_commands", (json_int_t)p->nvme_host_writes,
		      "data_units_read", (json_int_t)p->nvme_units_read,
		      "data_units_written", (json_int_t)p->nvme_units_written);
	return h ? json_object_set_new(o, "nvme_health", h) : -1;
}

static int path_chain(json_t *o, const struct probe_path *p)
{
	json_t *a = json_array();
	unsigned i;
	int bad = 0;

	if (!a)
		return -1;
	for (i = 0; i < p->nr_chain; i++)
		bad |= json_array_append_new(a, dev_json(&p->chain[i]));
	return bad | json_object_set_new(o, "devices", a);
}

json_t *probe_path_json(const struct probe_path *p)
{
	json_t *o = json_object();
	char magic[24];
	int bad = 0;

	if (!o)
		return NULL;
	probe_fmt(magic, sizeof(magic), p->f_type ? "0x%llx" : "",
		  (unsigned long long)p->f_type);
	bad |= set_str(o, "path", p->path);
	bad |= set_str(o, "resolved", p->resolved);
	bad |= set_str(o, "mount_point", p->mount_point);
	bad |= set_str(o, "mount_source", p->mount_source);
	bad |= set_str(o, "fstype", p->fstype);
	bad |= set_str(o, "mount_options", p->mount_opts);
	bad |= set_str(o, "super_options", p->super_opts);
	bad |= set_str(o, "fs", p->fs);
	bad |= set_str(o, "fs_subtype", p->fs_subtype);
	bad |= set_str(o, "fs_class", probe_fs_class_name(p->fs_class));
	bad |= set_str(o, "fs_description", p->fs_desc);
	bad |= set_str(o, "perf_options", p->perf_opts);
	bad |= set_str(o, "statfs_magic", magic);
	bad |= set_str(o, "statfs_magic_name", p->magic_name);
	bad |= set_str(o, "statfs_note", p->magic_note);
	bad |= path_9p(o, p);
	bad |= path_chain(o, p);
	bad |= path_nvme(o, p);
	if (p->flags & (PROBE_TRIALS | PROBE_TIMING))
		bad |= path_trials(o, p);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
