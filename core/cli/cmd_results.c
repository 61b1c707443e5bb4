/* iopath results list|import|export: the results database's runs, in and out as JSON files. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/atomic.h"
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

static void export_name(char *path, size_t len, const char *output, bool to_dir, int64_t id)
{
	if (to_dir)
		snprintf(path, len, "%s%srun-%" PRId64 ".json", output,
			 output[strlen(output) - 1] == '/' ? "" : "/", id);
	else
		snprintf(path, len, "%s", output);
}

/*
 * Every run to its file, all or none: each name is checked before anything is written (a
 * file of the user's, a link, a device: refused naming it), each run is written to its
 * temporary and synced, and only when all are the temporaries are moved into place.
 */
static int export_files(struct store *st, const int64_t *ids, unsigned n, const char *output,
			bool to_dir, struct iop_err *err)
{
	struct atomic_file *af = calloc(n, sizeof(*af));
	const size_t flags = JSON_INDENT(2) | JSON_REAL_PRECISION(12);
	char path[PATH_MAX];
	unsigned i, opened = 0;
	int ret = 0;

	if (!af)
		return iop_errf(err, -ENOMEM, "out of memory");
	for (i = 0; !ret && i < n; i++) {
		export_name(path, sizeof(path), output, to_dir, ids[i]);
		ret = atomic_check_as("--output", path, err);
	}
	for (i = 0; !ret && i < n; i++) {
		struct results r;
		json_t *j;

		export_name(path, sizeof(path), output, to_dir, ids[i]);
		ret = store_load_run(st, ids[i], &r, err);
		if (ret)
			break;
		j = results_json(&r);
		results_free(&r);
		if (!j) {
			ret = iop_errf(err, -ENOMEM, "out of memory writing %s", path);
			break;
		}
		ret = atomic_open(&af[i], path);
		if (!ret) {
			opened = i + 1;
			errno = 0;
			if (json_dumpf(j, af[i].f, flags) || fputc('\n', af[i].f) == EOF)
				ret = errno ? -errno : -EIO;
			if (!ret)
				ret = atomic_seal(&af[i]);
		}
		json_decref(j);
		if (ret)
			iop_errf(err, ret, "export --output %s: %s (nothing was exported)", path,
				 strerror(-ret));
	}
	for (i = 0; !ret && i < n; i++) {
		ret = atomic_commit(&af[i]);
		if (ret)
			iop_errf(err, ret, "export --output %s: %s (%u of %u runs exported)",
				 af[i].path, strerror(-ret), i, n);
		else
			fprintf(stderr, "iopath: run %" PRId64 " -> %s\n", ids[i], af[i].path);
	}
	for (; i < opened; i++)
		atomic_abort(&af[i]);
	free(af);
	return ret;
}

static int export_runs(struct store *st, const char *const *sels, unsigned nsel,
		       const char *output, struct iop_err *err)
{
	int64_t *ids = NULL, *more;
	unsigned n = 0, k, i;
	struct stat sb;
	unsigned j, kept;
	bool to_dir;
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
	/* a run that two selectors name is exported once */
	for (i = 0, kept = 0; i < n; i++) {
		for (j = 0; j < kept && ids[j] != ids[i]; j++)
			;
		if (j == kept)
			ids[kept++] = ids[i];
	}
	n = kept;
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
	if (!output) {
		for (i = 0; !ret && i < n; i++) {
			struct results r;
			json_t *jv;

			ret = store_load_run(st, ids[i], &r, err);
			if (ret)
				break;
			jv = results_json(&r);
			ret = jv && json_dumpf(jv, stdout, JSON_INDENT(2)) == 0 ? 0 : -EIO;
			if (!ret)
				putchar('\n');
			json_decref(jv);
			if (ret)
				iop_errf(err, ret, "export: cannot write the run to stdout");
			results_free(&r);
		}
		goto out;
	}
	ret = export_files(st, ids, n, output, to_dir, err);
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
