/*
 * Unit tests: the cells' text table and CSV as people read them: a cell whose direct=1 a cache
 * answered says NOT direct where its status is, an interval never reaches below zero IOPS, and
 * CSV columns carry their units with numbers a spreadsheet reads (no exponent).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/report_cells.h"
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
