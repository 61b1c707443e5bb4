/* iopath history DIR: each cell's metric across saved results, ordered by time or a label. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "results/plot.h"
#include "results/report_cells.h"
#include "results/results.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iopath history DIR [options]\n"
		"  DIR                   saved results (e.g. results/sweep), searched recursively\n"
		"  --metric LIST         iops,bw,clat_p50,clat_p99,clat_p99.9 (default: iops)\n"
		"  --by LABEL            order runs by this --label's value (version order), not time\n"
		"  --plot DIR            a chart per metric: each cell's median across the runs\n");
}

struct run_order {
	struct results *r;
	const char *by;		/* the label's value, or NULL */
};

static const char *by_label;

static int order_cmp(const void *a, const void *b)
{
	const struct results *x = *(struct results *const *)a, *y = *(struct results *const *)b;

	if (by_label) {
		const char *vx = json_string_value(json_object_get(x->labels, by_label));
		const char *vy = json_string_value(json_object_get(y->labels, by_label));
		int c = strverscmp(vx ? vx : "", vy ? vy : "");

		if (c)
			return c;
	}
	return x->timestamp_ms < y->timestamp_ms ? -1 : x->timestamp_ms > y->timestamp_ms;
}

static void run_label(const struct results *r, const char *by, char *buf, size_t len)
{
	time_t t = (time_t)(r->timestamp_ms / 1000);
	struct tm tm;

	if (by) {
		snprintf(buf, len, "%s=%s", by, json_string_value(json_object_get(r->labels, by)) ?: "?");
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}

static const struct cell *find(const struct results *r, const char *key)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->cells[i].key, key))
			return &r->cells[i];
	return NULL;
}

static void print_trend(const struct results *const *runs, unsigned nr, char **xl,
			enum metric_id m)
{
	const struct results *first = runs[0];
	unsigned i, c, k, w = 24;
	char v[32];

	/* every cell seen, in order of first appearance */
	for (i = 0; i < nr; i++)
		for (c = 0; c < runs[i]->nr; c++)
			if (strlen(runs[i]->cells[c].label) > w)
				w = (unsigned)strlen(runs[i]->cells[c].label);
	if (w > 70)
		w = 70;
	printf("\n%s%s%s%s, median per run (~: repeats varied more than %.0f%%)\n%-*s",
	       metric_table[m].title, strcmp(metric_table[m].title, metric_table[m].unit) ? " (" : "",
	       strcmp(metric_table[m].title, metric_table[m].unit) ? metric_table[m].unit : "",
	       strcmp(metric_table[m].title, metric_table[m].unit) ? ")" : "", CV_WARN_DEFAULT * 100,
	       (int)w, "cell");
	for (i = 0; i < nr; i++)
		printf("  %16.16s", xl[i]);
	printf("  %8s\n", "last/1st");
	for (i = 0; i < nr; i++) {
		for (c = 0; c < runs[i]->nr; c++) {
			const struct cell *cell = &runs[i]->cells[c];
			double firstv = NAN, lastv = NAN;
			bool seen = false;

			for (k = 0; k < i && !seen; k++)
				seen = find(runs[k], cell->key) != NULL;
			if (seen)
				continue;
			printf("%-*.*s", (int)w, (int)w, cell->label);
			for (k = 0; k < nr; k++) {
				const struct cell *x = find(runs[k], cell->key);
				struct rsummary s;

				if (x && !cell_summary(x, m, &s)) {
					fmt_metric(v, sizeof(v), m, s.median);
					if (isnan(firstv))
						firstv = s.median;
					lastv = s.median;
					if (s.n > 1 && s.cv > CV_WARN_DEFAULT)
						strncat(v, "~", sizeof(v) - strlen(v) - 1);
				} else {
					snprintf(v, sizeof(v), "-");
				}
				printf("  %16s", v);
			}
			if (!isnan(firstv) && firstv != 0)
				printf("  %+7.1f%%\n", 100 * (lastv / firstv - 1));
			else
				printf("  %8s\n", "-");
		}
	}
	(void)first;
}

int cmd_history(int argc, char **argv)
{
	const char *dir = NULL, *plot = NULL, *v;
	struct results *runs = NULL, **order = NULL;
	struct iop_err err = { "" };
	unsigned metrics = 1u << MET_IOPS, nr = 0, m, i;
	char **files = NULL, **xl = NULL;
	int n = 0, code = EXIT_USAGE, ret;

	by_label = NULL;
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		if ((ret = arg_value(argc, argv, &a, "metric", &v, &err))) {
			if (ret < 0 || metric_parse_list(v, &metrics, &err))
				goto bad;
		} else if ((ret = arg_value(argc, argv, &a, "by", &v, &err))) {
			if (ret < 0)
				goto bad;
			by_label = v;
		} else if ((ret = arg_value(argc, argv, &a, "plot", &v, &err))) {
			if (ret < 0)
				goto bad;
			plot = v;
		} else if (!strncmp(argv[a], "--", 2) || dir) {
			iop_errf(&err, -EINVAL, "history: unexpected argument '%s' (see iopath history --help)",
				 argv[a]);
			goto bad;
		} else {
			dir = argv[a];
		}
	}
	if (!dir) {
		iop_errf(&err, -EINVAL, "history: give the directory of saved results (e.g. results/sweep)");
		goto bad;
	}
	if (plot && plot_check_dir("--plot", plot, &err))
		goto bad;
	n = list_json_files(dir, true, &files, &err);
	if (n < 0)
		goto bad;
	if (!n) {
		iop_errf(&err, -ENOENT, "history: no .json result files under %s", dir);
		goto bad;
	}
	runs = calloc((size_t)n, sizeof(*runs));
	order = calloc((size_t)n, sizeof(*order));
	xl = calloc((size_t)n, sizeof(*xl));
	if (!runs || !order || !xl) {
		iop_errf(&err, -ENOMEM, "out of memory");
		goto bad;
	}
	for (i = 0; i < (unsigned)n; i++) {
		if (results_load(files[i], &runs[nr], &err)) {
			fprintf(stderr, "iopath: history: skipping %s\n", err.msg);
			continue;
		}
		if (by_label && !json_object_get(runs[nr].labels, by_label)) {
			fprintf(stderr, "iopath: history: skipping %s: it has no label '%s'\n", files[i],
				by_label);
			results_free(&runs[nr]);
			continue;
		}
		order[nr] = &runs[nr];
		nr++;
	}
	if (!nr) {
		iop_errf(&err, -ENOENT, "history: no usable result file under %s", dir);
		goto bad;
	}
	qsort(order, nr, sizeof(*order), order_cmp);
	for (i = 0; i < nr; i++) {
		xl[i] = malloc(160);
		if (!xl[i]) {
			iop_errf(&err, -ENOMEM, "out of memory");
			goto bad;
		}
		run_label(order[i], by_label, xl[i], 160);
	}
	printf("%u run(s) under %s, ordered by %s\n", nr, dir, by_label ? by_label : "time");
	for (m = 0; m < MET_NR; m++)
		if (metrics & (1u << m))
			print_trend((const struct results *const *)order, nr, xl, m);
	code = 0;
	if (plot) {
		struct results *sorted = malloc(nr * sizeof(*sorted));

		if (!sorted) {
			iop_errf(&err, -ENOMEM, "out of memory");
			goto bad;
		}
		for (i = 0; i < nr; i++)
			sorted[i] = *order[i];
		for (m = 0; m < MET_NR && !code; m++) {
			if (!(metrics & (1u << m)))
				continue;
			if (plot_history(sorted, nr, (const char *const *)xl, m,
					 by_label ? by_label : "time", plot, &err)) {
				fprintf(stderr, "iopath: --plot: %s\n", err.msg);
				code = EXIT_JOB_FAILED;
			}
		}
		free(sorted);
	}
	goto out;
bad:
	fprintf(stderr, "iopath: %s\n", err.msg);
out:
	for (i = 0; runs && i < nr; i++)
		results_free(&runs[i]);
	for (i = 0; xl && i < nr; i++)
		free(xl[i]);
	free(xl);
	free(runs);
	free(order);
	free_list(files, n > 0 ? n : 0);
	return code;
}
