/*
 * iopath's JSON read by a consumer not written for it: fio's own fio_jsonplus_clat2csv
 * (Debian's fio package; needs python3-six) turns json+ latency bins into CSV and, with
 * --validate, checks the CSV against the bins. Skipped where the script cannot run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* the temporary directories each test made go with it */
TestSuite(fio_consumers, .fini = tmpdir_cleanup);

#define CLAT2CSV "/usr/bin/fio_jsonplus_clat2csv"
#define PYTHON "/usr/bin/python3"

static void need_clat2csv(void)
{
	if (access(CLAT2CSV, R_OK) || access(PYTHON, X_OK))
		cr_skip_test("fio_jsonplus_clat2csv or python3 missing (Debian's fio package)");
	if (sh(PYTHON " -c 'import six' 2>/dev/null"))
		cr_skip_test("python3-six is missing (scripts/deps.sh installs it)");
}

/* The last "read_clat_ns_cumulative" value of a clat2csv CSV: every I/O counted once. */
static long long last_cumulative(const char *csv)
{
	char line[8192], last[8192] = "";
	FILE *f = fopen(csv, "r");
	long long v = -1;
	char *tok;
	int col;

	cr_assert_not_null(f, "fio_jsonplus_clat2csv wrote no %s", csv);
	while (fgets(line, sizeof(line), f))
		if (line[0] >= '0' && line[0] <= '9')
			snprintf(last, sizeof(last), "%s", line);
	fclose(f);
	/* nsec, read_slat count/cum/pct, read_clat count, cumulative, ... */
	for (tok = strtok(last, ","), col = 0; tok; tok = strtok(NULL, ","), col++) {
		if (col == 5)
			v = atoll(tok);
	}
	return v;
}

Test(fio_consumers, fio_jsonplus_clat2csv_reads_and_validates_iopath_json_plus,
     .init = need_clat2csv)
{
	const char *dir = tmpdir_make();
	char json[512], csv[512], csv0[512];
	char *argv[] = { "python3", CLAT2CSV, json, csv, NULL, NULL };
	struct run_out r;
	json_t *root;

	snprintf(json, sizeof(json), "%s/out.json", dir);
	snprintf(csv, sizeof(csv), "%s/lat.csv", dir);
	snprintf(csv0, sizeof(csv0), "%s/lat_job0.csv", dir);
	iopath_exits(0, "--output-format=json+", "--output", json, "--ioengine=null", "--size=4m",
		     "--name=rr", "--rw=randread", "--name=w", "--rw=write", "--bs=64k", NULL);
	r = prog_runv(PYTHON, argv);
	cr_assert_eq(r.status, 0, "fio_jsonplus_clat2csv failed: %s%s", r.out, r.err);
	run_out_free(&r);
	argv[4] = "--validate";
	r = prog_runv(PYTHON, argv);
	cr_assert_eq(r.status, 0, "fio_jsonplus_clat2csv --validate failed: %s%s", r.out, r.err);
	cr_assert_not_null(strstr(r.out, "lat_job1.csv validated"), "%s", r.out);
	run_out_free(&r);
	root = json_load_path(json);
	cr_assert_eq(last_cumulative(csv0), job_int(root, 0, "read", "total_ios"),
		     "the CSV's cumulative count is not the job's I/O count");
	json_decref(root);
	tmpdir_cleanup();
}
