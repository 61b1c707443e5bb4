/* iopath results list|import|export: the results database's runs, in and out as JSON files. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "results/store.h"

static void usage(FILE *f)
{
	command_usage(f, "results");
	fprintf(f,
		"  list                  every saved run: its id, time, name, host, labels, cells\n"
		"  import                iopath results, iopath JSON or fio JSON files (a directory:\n"
		"                        every *.json under it), one run each; a file imported before\n"
		"                        is skipped\n"
		"  export                runs as iopath result files: SELECTOR is latest, latest~N,\n"
		"                        run:ID or KEY=VALUE (default: every run); one run goes to\n"
		"                        stdout or --output FILE, several to --output DIR\n"
		"  --db PATH|URI         an SQLite file or postgresql://... (default: $IOPATH_DB,\n"
		"                        else results/iopath.db)\n");
}

static int list_one(void *arg, const struct store_run_info *in)
{
	time_t t = (time_t)(in->time_ms / 1000);
	char when[32];
	struct tm tm;

	(void)arg;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	printf("%6" PRId64 "  %s  %-6s %-16.16s %-12.12s %5u %7u  %s%s%s\n", in->id, when, in->kind,
	       in->name, in->host, in->cells, in->samples, in->labels,
	       in->source[0] ? "  from " : "", in->source);
	return 0;
}

static int do_list(struct store *st, struct iop_err *err)
{
	printf("%6s  %-19s  %-6s %-16s %-12s %5s %7s  %s\n", "run", "time (UTC)", "kind", "name",
	       "host", "cells", "samples", "labels");
	return store_list(st, list_one, NULL, err);
}

static int import_path(struct store *st, const char *path, unsigned *done, unsigned *skipped,
		       struct iop_err *err)
{
	struct stat sb;
	char **list;
	int64_t id;
	int n, i, ret = 0;

	if (stat(path, &sb))
		return iop_errf(err, -errno, "import %s: %s", path, strerror(errno));
	if (!S_ISDIR(sb.st_mode)) {
		ret = store_import_file(st, path, &id, err);
		if (ret == -EEXIST) {
			fprintf(stderr, "iopath: %s\n", err->msg);
			(*skipped)++;
			return 0;
		}
		if (!ret) {
			printf("run %" PRId64 ": %s\n", id, path);
			(*done)++;
		}
		return ret;
	}
	n = list_json_files(path, true, &list, err);
	if (n < 0)
		return n;
	if (!n)
		ret = iop_errf(err, -ENOENT, "import %s: no .json files under it", path);
	for (i = 0; !ret && i < n; i++) {
		ret = import_path(st, list[i], done, skipped, err);
		/* in a directory, a file that is no result is passed over, not fatal */
		if (ret == -EINVAL) {
			fprintf(stderr, "iopath: skipping %s\n", err->msg);
			ret = 0;
		}
	}
	free_list(list, n);
	return ret;
}

static int export_runs(struct store *st, const char *const *sels, unsigned nsel,
		       const char *output, struct iop_err *err)
{
	int64_t *ids = NULL, *more;
	unsigned n = 0, k, i;
	struct stat sb;
	bool to_dir;
	char path[4096];
	int ret = 0;

	if (!nsel) {
		ret = store_run_ids(st, NULL, &ids, &n, err);
	} else {
		for (k = 0; !ret && k < nsel; k++) {
			unsigned m;

			ret = store_run_ids(st, sels[k], &more, &m, err);
			if (ret)
				break;
			ids = realloc(ids, (n + m + 1) * sizeof(*ids));
			if (!ids) {
				free(more);
				return iop_errf(err, -ENOMEM, "out of memory");
			}
			memcpy(ids + n, more, m * sizeof(*ids));
			n += m;
			free(more);
		}
	}
	if (ret)
		goto out;
	if (!n) {
		ret = iop_errf(err, -ENOENT, "%s: no runs saved yet", st->db.where);
		goto out;
	}
	to_dir = output && ((!stat(output, &sb) && S_ISDIR(sb.st_mode)) ||
			    output[strlen(output) - 1] == '/');
	if (n > 1 && !to_dir) {
		ret = iop_errf(err, -EINVAL, "export: %u runs: give --output DIR (a directory) for them",
			       n);
		goto out;
	}
	if (to_dir && mkdir(output, 0755) && errno != EEXIST) {
		ret = iop_errf(err, -errno, "export --output %s: %s", output, strerror(errno));
		goto out;
	}
	for (i = 0; !ret && i < n; i++) {
		struct results r;

		ret = store_load_run(st, ids[i], &r, err);
		if (ret)
			break;
		if (to_dir)
			snprintf(path, sizeof(path), "%s%srun-%" PRId64 ".json", output,
				 output[strlen(output) - 1] == '/' ? "" : "/", ids[i]);
		else
			snprintf(path, sizeof(path), "%s", output ? output : "/dev/stdout");
		if (!output) {
			json_t *j = results_json(&r);

			ret = j && json_dumpf(j, stdout, JSON_INDENT(2)) == 0 ? 0 : -EIO;
			if (!ret)
				putchar('\n');
			json_decref(j);
			if (ret)
				iop_errf(err, ret, "export: cannot write the run to stdout");
		} else {
			ret = results_write(&r, path, err);
			if (!ret)
				fprintf(stderr, "iopath: run %" PRId64 " -> %s\n", ids[i], path);
		}
		results_free(&r);
	}
out:
	free(ids);
	return ret;
}

int cmd_results(int argc, char **argv)
{
	const char *db = NULL, *output = NULL, *v, *verb;
	const char **args = calloc((size_t)argc + 1, sizeof(*args));
	struct iop_err err = { "" };
	unsigned nargs = 0, done = 0, skipped = 0, k;
	struct store st;
	int i, ret, code = EXIT_USAGE;

	if (!args) {
		fprintf(stderr, "iopath: out of memory\n");
		return EXIT_USAGE;
	}
	verb = argc > 1 ? argv[1] : NULL;
	if (!verb || !strcmp(verb, "--help") || !strcmp(verb, "-h")) {
		usage(verb ? stdout : stderr);
		free(args);
		return verb ? 0 : EXIT_USAGE;
	}
	for (i = 2; i < argc; i++) {
		if ((ret = arg_value(argc, argv, &i, "db", &v, &err))) {
			if (ret < 0)
				goto bad;
			db = v;
		} else if ((ret = arg_value(argc, argv, &i, "output", &v, &err))) {
			if (ret < 0)
				goto bad;
			output = v;
		} else if (!strncmp(argv[i], "--", 2)) {
			iop_errf(&err, -EINVAL, "results: unknown option '%s' (see iopath results --help)",
				 argv[i]);
			goto bad;
		} else {
			args[nargs++] = argv[i];
		}
	}
	if (strcmp(verb, "list") && strcmp(verb, "import") && strcmp(verb, "export")) {
		iop_errf(&err, -EINVAL, "results: '%s' is not list, import or export", verb);
		goto bad;
	}
	if (!strcmp(verb, "import") && !nargs) {
		iop_errf(&err, -EINVAL, "results import: give the result files (or directories) to import");
		goto bad;
	}
	if (strcmp(verb, "export") && (output || (nargs && !strcmp(verb, "list")))) {
		iop_errf(&err, -EINVAL, "results %s: unexpected argument '%s'", verb,
			 output ? "--output" : args[0]);
		goto bad;
	}
	if (store_open(&st, db ? db : store_default_db(), !strcmp(verb, "import"), &err))
		goto bad;
	code = 0;
	if (!strcmp(verb, "list")) {
		ret = do_list(&st, &err);
	} else if (!strcmp(verb, "import")) {
		for (ret = 0, k = 0; !ret && k < nargs; k++)
			ret = import_path(&st, args[k], &done, &skipped, &err);
		fprintf(stderr, "iopath: imported %u run(s) into %s%s\n", done, st.db.where,
			skipped ? " (some were imported before)" : "");
	} else {
		ret = export_runs(&st, args, nargs, output, &err);
	}
	store_close(&st);
	if (ret) {
		/* a file that is not a result, a selector that matches nothing: bad input */
		code = EXIT_USAGE;
		goto bad;
	}
	free(args);
	return code;
bad:
	fprintf(stderr, "iopath: %s\n", err.msg);
	free(args);
	return EXIT_USAGE;
}
