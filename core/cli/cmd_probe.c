/* `iopath probe [PATH ...] [--json]`: describe the host and each storage path, text or JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "base/err.h"
#include "base/version.h"
#include "iopath/probe.h"
#include "report/output.h"

struct probe_args {
	bool json;
	unsigned flags;
	int nr_paths;
	char **paths;
};

/* argv[0] is the subcommand's name. Returns 0, -1 after --help, or EXIT_USAGE after a message. */
static int parse_args(int argc, char **argv, struct probe_args *a)
{
	int i;

	a->json = false;
	a->flags = PROBE_EXISTING | PROBE_TRIALS | PROBE_TIMING;
	a->nr_paths = 0;
	a->paths = calloc((size_t)(argc > 1 ? argc : 1), sizeof(*a->paths));
	if (!a->paths) {
		fprintf(stderr, "iopath probe: out of memory\n");
		return EXIT_USAGE;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			a->json = true;
		} else if (!strcmp(argv[i], "--no-trials")) {
			a->flags = PROBE_EXISTING;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			command_usage(stdout, "probe");
			printf("  Describes the host and each PATH (default: .; one that does not exist is\n"
			       "  refused): filesystem, mount, device chain, and what O_DIRECT, io_uring,\n"
			       "  libaio, mmap, fallocate and fsync do there (tried in a temporary file,\n"
			       "  removed afterwards).\n");
			return -1;
		} else if (!strcmp(argv[i], "--")) {
			for (i++; i < argc; i++)
				a->paths[a->nr_paths++] = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "iopath probe: unknown option '%s' (accepted: PATH ..., --json, --no-trials, --help)\n",
				argv[i]);
			return EXIT_USAGE;
		} else {
			a->paths[a->nr_paths++] = argv[i];
		}
	}
	if (!a->nr_paths)
		a->paths[a->nr_paths++] = ".";
	return 0;
}

static void print_host(const struct probe_host *h)
{
	printf("host\n");
	printf("  kernel       %s%s%s%s\n", h->kernel, h->machine[0] ? " (" : "", h->machine,
	       h->machine[0] ? ")" : "");
	printf("  cpu          %s, %u cpus\n", h->cpu_model[0] ? h->cpu_model : "unknown",
	       h->nr_cpus);
	printf("  hypervisor   %s%s%s%s\n", h->hypervisor, h->hv_sig[0] ? " (CPUID \"" : "",
	       h->hv_sig, h->hv_sig[0] ? "\")" : "");
	if (h->dmi_vendor[0] || h->dmi_product[0])
		printf("  dmi          %s / %s\n", h->dmi_vendor, h->dmi_product);
	else
		printf("  dmi          none\n");
	if (h->wsl)
		printf("  wsl          WSL%d\n", h->wsl);
	printf("  container    %s%s%s%s\n", h->container, h->container_evidence[0] ? " (" : "",
	       h->container_evidence, h->container_evidence[0] ? ")" : "");
}

static void print_dev(const struct probe_dev *d)
{
	printf("  device       %s: %s", d->name, d->kind);
	if (d->drivers[0])
		printf(", drivers %s", d->drivers);
	else if (d->driver[0])
		printf(", driver %s", d->driver);
	if (d->vendor[0])
		printf(", vendor %s", d->vendor);
	if (d->model[0])
		printf(", model %s", d->model);
	if (d->extra[0])
		printf(", %s", d->extra);
	if (d->logical_bs)
		printf(", block %u/%u, rotational %d, scheduler %s, cache %s, nr_requests %u, max_sectors_kb %u",
		       d->logical_bs, d->physical_bs, d->rotational,
		       d->scheduler[0] ? d->scheduler : "?",
		       d->write_cache[0] ? d->write_cache : "?", d->nr_requests,
		       d->max_sectors_kb);
	printf("\n");
}

static void print_trial(const char *name, const struct probe_trial *t)
{
	printf("    %-17s %-7s %s\n", name,
	       t->state == PROBE_OK ? "ok" : t->state == PROBE_FAILED ? "failed" : "-", t->why);
}

static void print_trials(const struct probe_path *p)
{
	unsigned i, e;

	printf("  trials\n");
	for (i = 0; i < PROBE_T_NR; i++) {
		print_trial(probe_trial_name(i), &p->trial[i]);
		/* the engines' own trials, named by their engine, follow the O_DIRECT ones */
		for (e = 0; i == PROBE_T_UNALIGNED && e < p->nr_etrials; e++)
			print_trial(p->etrial[e].engine, &p->etrial[e].t);
	}
	if (p->direct_align)
		printf("  direct align %u%s", p->direct_align, p->dio_offset_align ? "" : "\n");
	if (p->direct_align && p->dio_offset_align)
		printf(" (statx: memory %u, offset %u)\n", p->dio_mem_align, p->dio_offset_align);
	if (p->atomic_unit_max)
		printf("  atomic writes %u to %u bytes, %u segment(s) (statx: atomic=1 works here)\n",
		       p->atomic_unit_min, p->atomic_unit_max, p->atomic_segments_max);
	if (p->flags & PROBE_TIMING)
		printf("  direct       honoured: %s (%s)\n", probe_tri_name(p->direct_honoured),
		       p->direct_evidence);
}

static void print_path(const struct probe_path *p, const struct probe_host *h)
{
	char line[512];
	unsigned i;

	probe_summary(p, h, line, sizeof(line));
	printf("\n%s\n", p->path);
	printf("  summary      %s\n", line);
	if (p->mount_point[0]) {
		printf("  mount        %s (%s from %s, %s)\n", p->mount_point, p->fstype, p->mount_source,
		       p->mount_opts);
		printf("  options      %s\n", p->super_opts);
		printf("  perf options %s\n", p->perf_opts[0] ? p->perf_opts : "-");
	} else {
		printf("  node         a block device node: described from its device number, no trials\n");
	}
	if (p->f_type)
		printf("  statfs       0x%llx (%s)%s%s\n", (unsigned long long)p->f_type,
		       p->magic_name[0] ? p->magic_name : "unknown",
		       p->magic_note[0] ? ": " : "", p->magic_note);
	for (i = 0; i < p->nr_chain; i++)
		print_dev(&p->chain[i]);
	if (p->nvme_health)
		printf("  nvme health  host read commands %llu, write commands %llu (the controller's counters)\n",
		       (unsigned long long)p->nvme_host_reads, (unsigned long long)p->nvme_host_writes);
	else if (p->nvme_health_why[0])
		printf("  nvme health  not read: %s\n", p->nvme_health_why);
	if (p->flags & PROBE_TRIALS)
		print_trials(p);
}

static int add_json(json_t *paths, const struct probe_path *p, const struct probe_host *h)
{
	json_t *o = probe_path_json(p);
	char line[512];

	if (!o)
		return -ENOMEM;
	probe_summary(p, h, line, sizeof(line));
	if (json_object_set_new(o, "summary", json_string(line)) ||
	    json_array_append_new(paths, o))
		return -ENOMEM;
	return 0;
}

static int print_json(json_t *host, json_t *paths)
{
	/* which iopath probed, as every result says */
	json_t *top = json_pack("{s:o, s:o, s:{s:s}}", "host", host, "paths", paths, "iopath",
				"version", iopath_version);
	int ret;

	if (!top) {
		fprintf(stderr, "iopath probe: out of memory\n");
		return 1;
	}
	ret = json_dumpf(top, stdout, JSON_INDENT(2));
	json_decref(top);
	if (ret || fputc('\n', stdout) == EOF) {
		fprintf(stderr, "iopath probe: cannot write the output\n");
		return 1;
	}
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_args a;
	struct probe_host h;
	struct probe_path *p;
	struct iop_err err;
	json_t *paths = NULL;
	int i, left, ret, rc = 0;

	ret = parse_args(argc, argv, &a);
	if (ret) {
		ret = ret < 0 ? 0 : ret;
		goto out_free_args;
	}
	p = malloc(sizeof(*p));
	paths = a.json ? json_array() : NULL;
	if (!p || (a.json && !paths)) {
		fprintf(stderr, "iopath probe: out of memory\n");
		ret = 1;
		goto out_free;
	}
	/*
	 * Refusals first, before anything is described: a path that cannot be probed (missing,
	 * unreadable) is one line on stderr and dropped; when none is left, that is all (exit 2).
	 */
	for (i = 0, left = 0; i < a.nr_paths; i++) {
		err.msg[0] = '\0';
		if (probe_path(a.paths[i], a.flags & PROBE_EXISTING, p, &err)) {
			fprintf(stderr, "iopath %s\n", err.msg);
			a.paths[i] = NULL;
			rc = EXIT_USAGE;
		} else {
			left++;
		}
	}
	if (!left) {
		ret = rc;
		goto out_free;
	}
	/* Ctrl-C: nothing to save, but the trial file must not stay behind */
	install_exit_signals();
	probe_host(&h);
	if (!a.json)
		print_host(&h);
	for (i = 0; i < a.nr_paths; i++) {
		err.msg[0] = '\0';
		if (!a.paths[i])
			continue;
		if (probe_path(a.paths[i], a.flags, p, &err)) {
			fprintf(stderr, "iopath %s\n", err.msg);
			rc = EXIT_USAGE;
			continue;
		}
		if (!a.json)
			print_path(p, &h);
		else if (add_json(paths, p, &h))
			rc = 1;
	}
	ret = rc;
	if (a.json) {
		ret = print_json(probe_host_json(&h), paths);
		paths = NULL;
		if (!ret)
			ret = rc;
	} else if (fflush(stdout)) {
		fprintf(stderr, "iopath probe: cannot write the output\n");
		ret = 1;
	}
out_free:
	json_decref(paths);
	free(p);
out_free_args:
	free(a.paths);
	return ret;
}
