/*
 * Unit tests: the cells' and the suite's text tables and CSV as people read them: a cell whose
 * direct=1 a cache answered says NOT direct in its row, an interval never reaches below zero (in
 * the table or the CSV), and CSV columns carry their units with numbers a spreadsheet reads (no exponent).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "report/report_suite.h"
#include "results/report_cells.h"
#include "results/suite.h"
#include "results/results.h"

#define NOTE "direct=1 on fuse at /mnt/share: O_DIRECT is not honoured"

/* A sample of a random-read job: its IOPS, bandwidth in bytes/s and whether a cache answered. */
#define SAMPLE(iops, bw, nd)                                                                   \
	"{\"read\": {\"iops\": " #iops ", \"bw_bytes\": " #bw ", \"total_ios\": 9,"             \
	" \"clat_ns\": {\"percentile\": {\"50.000000\": 1300}}}" nd "}"
#define ND ", \"iopath\": {\"direct_not_honoured\": \"" NOTE "\"}"

static const char sweep_json[] =
	"{\"schema_version\": 1, \"kind\": \"sweep\", \"cells\": ["
	"{\"identity\": {\"engine\": \"psync\", \"target\": \"share\", \"direct\": \"1\"},"
	" \"status\": \"ok\", \"samples\": [" SAMPLE(13472, 31986100, ND) "]},"
	"{\"identity\": {\"engine\": \"pvsync\", \"target\": \"share\", \"direct\": \"1\"},"
	" \"status\": \"ok\", \"samples\": [" SAMPLE(1000, 4096000, ND) "]},"
	"{\"identity\": {\"engine\": \"psync\", \"target\": \"disk\", \"direct\": \"1\"},"
	" \"status\": \"ok\", \"samples\": [" SAMPLE(20000, 81920000, "") "," SAMPLE(1000, 4096000, "")
	"," SAMPLE(1500000, 6144000000, "") "]}"
	"]}";

static void load(struct results *r)
{
	char path[] = "/tmp/iopath-test-cells.XXXXXX";
	struct iop_err err = { "" };
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, sweep_json, strlen(sweep_json)), (ssize_t)strlen(sweep_json));
	close(fd);
	cr_assert_eq(results_load(path, r, &err), 0, "%s", err.msg);
	unlink(path);
}

/* What table (or else csv) writes of r (to free). */
static char *text_of(void (*table)(FILE *, const struct results *, double),
		     int (*csv)(FILE *, const struct results *), const struct results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	if (table)
		table(f, r, 0.10);
	else
		cr_assert_eq(csv(f, r), 0);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

/* The table's line (in line) of the cell whose row holds both words; false if none does. */
static bool row_with(const char *t, const char *a, const char *b, char *line, size_t size)
{
	const char *p;

	for (p = t; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
		snprintf(line, size, "%.*s", (int)strcspn(p, "\n"), p);
		if (strstr(line, a) && strstr(line, b))
			return true;
	}
	return false;
}

Test(cells_text, a_cell_whose_direct_io_was_not_honoured_says_so_in_its_row)
{
	struct results r;
	char row[512], *t;

	load(&r);
	t = text_of(report_cells_table, NULL, &r);
	cr_assert(row_with(t, "share", "psync", row, sizeof(row)), "%s", t);
	cr_assert_not_null(strstr(row, "ok, NOT direct"), "no marker in the row:\n%s", t);
	cr_assert(row_with(t, "disk", "psync", row, sizeof(row)), "%s", t);
	cr_assert_null(strstr(row, "NOT direct"), "the disk's cell was marked:\n%s", t);
	/* one line under the table per distinct note, counting its cells */
	cr_assert_not_null(strstr(t, "NOT direct I/O in 2 cell(s)"), "%s", t);
	cr_assert_not_null(strstr(t, NOTE), "%s", t);
	cr_assert_null(strstr(strstr(t, NOTE) + 1, NOTE), "the note is repeated:\n%s", t);
	free(t);
	t = text_of(NULL, report_cells_csv, &r);
	cr_assert_not_null(strstr(t, ",not_direct,"), "%s", t);
	cr_assert_not_null(strstr(t, NOTE), "%s", t);
	free(t);
	results_free(&r);
}

Test(cells_text, an_interval_is_never_below_zero_iops)
{
	struct results r;
	char row[512], *t;
	const char *p;

	load(&r);
	t = text_of(report_cells_table, NULL, &r);
	cr_assert(row_with(t, "disk", "psync", row, sizeof(row)), "%s", t);
	for (p = strchr(row, '-'); p; p = strchr(p + 1, '-'))
		cr_assert(!(p[1] >= '0' && p[1] <= '9' && (p == row || p[-1] == ' ')),
			  "a negative number in the row:\n%s", t);
	cr_assert_not_null(strstr(row, " 0-"), "the interval's lower end is not 0:\n%s", t);
	cr_assert_not_null(strstr(t, "shown as 0"), "no note says why:\n%s", t);
	free(t);
	results_free(&r);
}

/* Field k of a CSV line (none of the test's fields is quoted), as a number; NAN past its end. */
static double csv_field(const char *line, int k)
{
	while (k-- > 0 && line)
		line = (line = strchr(line, ',')) ? line + 1 : NULL;
	return line && *line && *line != ',' ? strtod(line, NULL) : NAN;
}

/* The CSV's column named col in the first row holding both a and b (NAN if none). */
static double csv_value(const char *t, const char *col, const char *a, const char *b)
{
	const char *nl = strchr(t, '\n'), *p, *line;
	size_t n = strlen(col);
	int want = 0;
	char row[4096];

	cr_assert_not_null(nl);
	for (p = t; p < nl; p += strcspn(p, ",\n") + 1, want++)
		if (!strncmp(p, col, n) && (p[n] == ',' || p[n] == '\n'))
			break;
	cr_assert_lt(p, nl, "no column %s", col);
	for (line = nl + 1; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n')) {
		snprintf(row, sizeof(row), "%.*s", (int)strcspn(line, "\n"), line);
		if (strstr(row, a) && strstr(row, b))
			return csv_field(row, want);
	}
	return NAN;
}

Test(cells_text, a_csv_interval_is_never_below_zero)
{
	static const char *const cols[] = { "iops_ci95_lo", "bw_bytes_per_s_ci95_lo" };
	struct results r;
	unsigned k;
	char *t;

	load(&r);
	/* three repeats 20k, 1k and 1.5M IOPS: the t interval of the mean reaches far below zero */
	t = text_of(NULL, report_cells_csv, &r);
	for (k = 0; k < 2; k++) {
		double v = csv_value(t, cols[k], "disk", "psync");

		cr_assert_eq(v, 0, "%s is %g, not cut at 0:\n%s", cols[k], v, t);
	}
	cr_assert_gt(csv_value(t, "iops_ci95_hi", "disk", "psync"), 1500000, "%s", t);
	/* a cell of one sample: its interval is its value */
	cr_assert_eq(csv_value(t, "iops_ci95_lo", "share", ",psync"), 13472, "%s", t);
	free(t);
	results_free(&r);
}

Test(cells_text, csv_headers_carry_units_and_numbers_have_no_exponent)
{
	struct results r;
	char *t, *nl;

	load(&r);
	t = text_of(NULL, report_cells_csv, &r);
	nl = strchr(t, '\n');
	cr_assert_not_null(nl);
	*nl = '\0';
	cr_assert_not_null(strstr(t, ",bw_bytes_per_s_median,"), "%s", t);
	cr_assert_not_null(strstr(t, ",clat_p50_ns_median,"), "%s", t);
	cr_assert_not_null(strstr(t, ",iops_median,"), "%s", t);
	cr_assert_not_null(strstr(t, ",bw_cv,"), "a ratio has no unit: %s", t);
	cr_assert_null(strstr(t, ",bw_median"), "a bare bandwidth column: %s", t);
	cr_assert_not_null(strstr(nl + 1, ",31986100,"), "bandwidth not as a whole number: %s", nl + 1);
	cr_assert_null(strstr(nl + 1, "e+"), "an exponent: %s", nl + 1);
	free(t);
	results_free(&r);
}

/* The suite's table: a row measured where direct=1 was not honoured says so, the path's evidence once */
Test(cells_text, a_suite_row_whose_direct_io_was_not_honoured_says_so)
{
	struct suite_opts o = { .nr_targets = 1, .repeat = 1, .scale = 1 };
	struct suite_cell cells[2] = { 0 };
	struct suite_result res = { .nr_cells = 2, .cells = cells };
	double v[2] = { 1000, 2000 };
	char *t = NULL, row[512];
	size_t len = 0;
	FILE *f;

	snprintf(o.targets[0].name, sizeof(o.targets[0].name), "share");
	snprintf(o.targets[0].dir, sizeof(o.targets[0].dir), "/mnt/share");
	cells[0] = (struct suite_cell){ .test = "randread-4k-qd1", .workload = "randread-4k-qd1",
					.metric = "IOPS", .n = 1, .values = &v[0], .ratio = 1,
					.sum = { .median = 1000, .min = 1000, .max = 1000 } };
	cells[1] = cells[0];
	cells[1].test = cells[1].workload = "randread-4k-qd32";
	cells[1].values = &v[1];
	snprintf(cells[0].not_direct, sizeof(cells[0].not_direct), "%s", NOTE);
	snprintf(cells[1].not_direct, sizeof(cells[1].not_direct), "%s", NOTE);
	f = open_memstream(&t, &len);
	cr_assert_not_null(f);
	report_suite_table(f, &o, &res, NULL);
	cr_assert_eq(fclose(f), 0);
	cr_assert(row_with(t, "randread-4k-qd1 ", "share", row, sizeof(row)), "%s", t);
	cr_assert_not_null(strstr(row, "(NOT direct)"), "no marker in the row:\n%s", t);
	cr_assert_not_null(strstr(t, NOTE), "%s", t);
	cr_assert_null(strstr(strstr(t, NOTE) + 1, NOTE), "the note is repeated:\n%s", t);
	free(t);
	t = NULL;
	f = open_memstream(&t, &len);
	cr_assert_not_null(f);
	cr_assert_eq(report_suite_csv(f, &o, &res), 0);
	cr_assert_eq(fclose(f), 0);
	cr_assert_not_null(strstr(t, ",1000,1000,1000,"), "%s", t);
	free(t);
}

/* make run's table: one engine's row 46x its neighbours' on the same work is flagged */
Test(cells_text, a_row_its_neighbours_contradict_is_implausible)
{
	static const char *const names[] = { "sync randread 4k qd1", "psync randread 4k qd1",
					     "pvsync randread 4k qd1", "pvsync2 randread 4k qd1",
					     "psync write 1m seq qd1" };
	static const uint64_t ios[] = { 12500, 13472, 625814, 12093, 300 };
	struct job_spec *spec = calloc(5, sizeof(*spec));
	struct job_result res[5] = { 0 };
	struct run_results r = { .res = res, .nr = 5 };
	unsigned i;

	cr_assert_not_null(spec);
	for (i = 0; i < 5; i++) {
		snprintf(spec[i].name, sizeof(spec[i].name), "%s", names[i]);
		res[i].spec = &spec[i];
		res[i].runtime_ns = 1000000000ull;
		res[i].dir[i == 4 ? DDIR_WRITE : DDIR_READ].ios = ios[i];
		spec[i].iodepth = 1;
	}
	cr_assert(report_implausible(report_neighbour_ratio(&r, 2)), "pvsync: %g",
		  report_neighbour_ratio(&r, 2));
	for (i = 0; i < 5; i++)
		if (i != 2)
			cr_assert(!report_implausible(report_neighbour_ratio(&r, i)), "%s: %g",
				  names[i], report_neighbour_ratio(&r, i));
	cr_assert_eq(report_neighbour_ratio(&r, 4), 0, "a workload with no neighbours is not judged");
	/* direct=1 rows are not the page-cache rows' neighbours, nor are deeper queues */
	spec[2].direct = true;
	cr_assert_eq(report_neighbour_ratio(&r, 2), 0);
	spec[2].direct = false;
	spec[2].iodepth = 32;
	cr_assert_eq(report_neighbour_ratio(&r, 2), 0);
	free(spec);
}

#define PROBE_OF(fst, src, mnt)                                                                \
	"\"probe\": {\"fstype\": \"" fst "\", \"mount_source\": \"" src "\","                  \
	" \"mount_point\": \"" mnt "\"}"
#define CELL_ON(target, iops)                                                                  \
	"{\"identity\": {\"engine\": \"psync\", \"target\": \"" target "\", \"rw\": \"randread\"}," \
	" \"status\": \"ok\", \"samples\": [" SAMPLE(iops, 4096000, "") "]}"

/* Two targets that are one filesystem (a, b) and another (c): the same work on a and b 2.5x apart. */
static const char twins_json[] =
	"{\"schema_version\": 1, \"kind\": \"sweep\", \"targets\": ["
	"{\"role\": \"a\", \"path\": \"/srv/a\", " PROBE_OF("ext4", "/dev/vda1", "/") "},"
	"{\"role\": \"b\", \"path\": \"/srv/b\", " PROBE_OF("ext4", "/dev/vda1", "/") "},"
	"{\"role\": \"c\", \"path\": \"/dev/shm\", " PROBE_OF("tmpfs", "tmpfs", "/dev/shm") "}],"
	" \"cells\": [" CELL_ON("a", 10000) "," CELL_ON("b", 4000) "," CELL_ON("c", 100000) "]}";

/* A sweep's cells on two targets that are the same filesystem, 2.5x apart at one repeat */
Test(cells_text, the_same_work_twice_on_one_filesystem_far_apart_is_implausible)
{
	char path[] = "/tmp/iopath-test-twins.XXXXXX", row[512], *t;
	struct iop_err err = { "" };
	struct results r;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, twins_json, strlen(twins_json)), (ssize_t)strlen(twins_json));
	close(fd);
	cr_assert_eq(results_load(path, &r, &err), 0, "%s", err.msg);
	unlink(path);
	t = text_of(report_cells_table, NULL, &r);
	cr_assert(row_with(t, "a ", "10000", row, sizeof(row)) || row_with(t, "a", "10.0k", row, sizeof(row)),
		  "%s", t);
	cr_assert_not_null(strstr(row, "implausible"), "a's row is not flagged:\n%s", t);
	cr_assert_not_null(strstr(t, "2.50x apart from b, the same filesystem (ext4 /dev/vda1 at /)"),
			   "no line says why:\n%s", t);
	cr_assert(row_with(t, "c", "100.0k", row, sizeof(row)), "%s", t);
	cr_assert_null(strstr(row, "implausible"), "another filesystem's cell was flagged:\n%s", t);
	free(t);
	/* 1.5x apart is within what repeats may spread */
	r.cells[1].val[0][MET_IOPS] = 6667;
	t = text_of(report_cells_table, NULL, &r);
	cr_assert_null(strstr(t, "implausible"), "%s", t);
	free(t);
	results_free(&r);
}

/* The engines' rule on cells: at iodepth 1 one storage engine 46x the others' median */
Test(cells_text, a_cell_its_engine_neighbours_contradict_is_implausible)
{
	static const char *const engines[] = { "sync", "psync", "pvsync", "pvsync2", "null" };
	static const double iops[] = { 12500, 13472, 625814, 12093, 2e6 };
	struct plaus_cell pc[5];
	char why[400];
	unsigned i;

	for (i = 0; i < 5; i++)
		pc[i] = (struct plaus_cell){
			.identity = json_pack("{s:s,s:s,s:s}", "engine", engines[i], "iodepth", "1",
					      "rw", "randread"),
			.value = iops[i],
		};
	cr_assert(report_cell_implausible(pc, 5, 2, why, sizeof(why)));
	cr_assert_not_null(strstr(why, "x the IOPS of the other engines"), "%s", why);
	for (i = 0; i < 5; i++)
		cr_assert(i == 2 || !report_cell_implausible(pc, 5, i, why, sizeof(why)), "%s: %s",
			  engines[i], why);
	/* deeper queues are where engines differ: not judged */
	json_object_set_new((json_t *)pc[2].identity, "iodepth", json_string("32"));
	cr_assert(!report_cell_implausible(pc, 5, 2, why, sizeof(why)));
	for (i = 0; i < 5; i++)
		json_decref((json_t *)pc[i].identity);
}

/* The suite's same test on two targets that are one filesystem, 2.5x apart at --repeat 1 */
Test(cells_text, a_suite_test_on_one_filesystem_twice_far_apart_is_flagged)
{
	struct suite_opts o = { .nr_targets = 3, .repeat = 1, .scale = 1 };
	struct suite_cell cells[3] = { 0 };
	struct suite_result res = { .nr_cells = 3, .cells = cells };
	struct probed_dir d[3] = { 0 }, *dirs[3] = { &d[0], &d[1], &d[2] };
	double v[3] = { 400, 160, 4000 };
	char *t = NULL;
	size_t len = 0;
	FILE *f;
	unsigned i;

	res.probes.nr = 3;
	res.probes.dirs = dirs;
	for (i = 0; i < 3; i++) {
		snprintf(o.targets[i].name, sizeof(o.targets[i].name), "%s", i == 0 ? "disk" : i == 1 ? "disk2" : "shm");
		snprintf(o.targets[i].tmp, sizeof(o.targets[i].tmp), "/t%u/iopath-suite", i);
		snprintf(d[i].dir, sizeof(d[i].dir), "%s", o.targets[i].tmp);
		snprintf(d[i].p.fstype, sizeof(d[i].p.fstype), "%s", i < 2 ? "ext4" : "tmpfs");
		snprintf(d[i].p.mount_source, sizeof(d[i].p.mount_source), "%s", i < 2 ? "/dev/vda1" : "tmpfs");
		snprintf(d[i].p.mount_point, sizeof(d[i].p.mount_point), "%s", i < 2 ? "/" : "/dev/shm");
		cells[i] = (struct suite_cell){ .test = "cat-read", .workload = "cat-read",
						.metric = "MiB/s", .from = i, .to = i, .n = 1,
						.values = &v[i], .meta_op = -1 };
	}
	suite_summarise(&o, &res);
	cr_assert_not_null(strstr(cells[0].implausible, "2.50x apart from disk2"), "%s", cells[0].implausible);
	cr_assert_not_null(strstr(cells[1].implausible, "2.50x apart from disk"), "%s", cells[1].implausible);
	cr_assert_eq(cells[2].implausible[0], '\0', "%s", cells[2].implausible);
	f = open_memstream(&t, &len);
	cr_assert_not_null(f);
	report_suite_table(f, &o, &res, NULL);
	cr_assert_eq(fclose(f), 0);
	cr_assert_not_null(strstr(t, "(implausible) cat-read on disk2: 2.50x apart from disk"), "%s", t);
	free(t);
	/* the same values on two filesystems are not each other's neighbours */
	snprintf(d[1].p.mount_point, sizeof(d[1].p.mount_point), "/srv");
	suite_summarise(&o, &res);
	cr_assert_eq(cells[0].implausible[0], '\0', "%s", cells[0].implausible);
}
