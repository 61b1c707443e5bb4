/*
 * Unit tests of each report writer against golden files (tests/unit/golden/): a fixed result,
 * made without running anything, written as JSON, json+, normal text, terse and CSV. The
 * build's version is written as VERSION. After a deliberate change of a format, regenerate the
 * files with IOPATH_UPDATE_GOLDEN=1 build/unit-tests --filter 'reports/...' and review the diff.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/version.h"
#include "job/job.h"
#include "report/report.h"
#include "stats/merge.h"
#include "stats/stats.h"

#define GOLDEN "tests/unit/golden/"

static struct job_list jobs;
static struct run_results res;

static void fixture_free(void)
{
	free(res.res);
	memset(&res, 0, sizeof(res));
	job_list_free(&jobs);
}

TestSuite(reports, .fini = fixture_free);

/* One job (randread, 4k, psync), its figures made up: 1000 reads of 2-41 us over 500 ms. */
static void fixture(void)
{
	static const char *const kv[][2] = {
		{ "name", "golden" }, { "ioengine", "psync" }, { "rw", "randread" },
		{ "bs", "4k" }, { "size", "4m" }, { "filename", "/nonexistent/golden" },
	};
	struct job_result *r;
	struct job_parser p;
	struct iop_err err;
	unsigned i;

	/* the normal output's header says when the job ended, in local time as fio's */
	setenv("TZ", "UTC", 1);
	tzset();
	memset(&jobs, 0, sizeof(jobs));
	job_parser_init(&p, &jobs);
	for (i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		cr_assert_eq(job_parse_cli(&p, kv[i][0], kv[i][1], &err), 0, "%s", err.msg);
	cr_assert_eq(job_parser_finish(&p, &err), 0, "%s", err.msg);
	job_parser_free(&p);
	memset(&res, 0, sizeof(res));
	res.res = calloc(1, sizeof(*res.res));
	cr_assert_not_null(res.res);
	res.nr = 1;
	res.start_unix_ms = 1767225600000ull;	/* 2026-01-01 00:00 UTC */
	r = &res.res[0];
	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&r->dir[i]);
	r->spec = &jobs.jobs[0];
	r->nr_workers = 1;
	snprintf(r->engine_name, sizeof(r->engine_name), "psync");
	r->runtime_ns = r->run_sum_ns = 500000000ull;
	r->elapsed_ns = 510000000ull;
	r->start_ns = 0;
	r->end_ns = 500000000;
	r->usr_ns = 40000000ull;
	r->sys_ns = 160000000ull;
	r->ctx = 1002;
	r->minf = 30;
	r->depth[0] = 1000;
	r->submit[1] = 1000;	/* psync: each I/O submitted and completed alone */
	r->reaped[1] = 1000;
	for (i = 0; i < 1000; i++) {
		struct dir_stat *d = &r->dir[STAT_READ];
		uint64_t clat = 2000 + (i % 40) * 1000, slat = 300 + i % 7;

		d->ios++;
		d->bytes += 4096;
		lat_add(&d->clat, clat);
		lat_add(&d->slat, slat);
		lat_add(&d->lat, clat + slat);
	}
	r->dir[STAT_READ].runtime_ns = r->runtime_ns;
	sample_add(&r->dir[STAT_READ].bw, 8000.0);
	sample_add(&r->dir[STAT_READ].bw, 8400.0);
	sample_add(&r->dir[STAT_READ].iops, 2000.0);
	sample_add(&r->dir[STAT_READ].iops, 2100.0);
}

/*
 * s with every occurrence of the build's version as VERSION, of its compiler flags as CFLAGS
 * (a sanitizer build's differ) and of this process's pid as PID.
 */
static char *unversioned(char *s)
{
	char pid[32];
	const char *from[] = { iopath_version, iopath_cflags, pid }, *to[] = { "VERSION", "CFLAGS",
									      "pid=PID:" };
	char *out = malloc(8 * strlen(s) + 1), *o = out;	/* no placeholder is over 8 */
	const char *p = s;
	size_t i;

	cr_assert_not_null(out);
	snprintf(pid, sizeof(pid), "pid=%d:", (int)getpid());
	while (*p) {
		for (i = 0; i < 3; i++) {
			size_t fl = strlen(from[i]), tl = strlen(to[i]);

			if (fl && !strncmp(p, from[i], fl)) {
				memcpy(o, to[i], tl);
				o += tl;
				p += fl;
				break;
			}
		}
		if (i == 3)
			*o++ = *p++;
	}
	*o = '\0';
	free(s);
	return out;
}

static void against_golden(const char *name, char *text)
{
	char path[256], *want = NULL;
	size_t len = 0;
	FILE *f;

	text = unversioned(text);
	snprintf(path, sizeof(path), GOLDEN "%s", name);
	if (getenv("IOPATH_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		cr_assert_not_null(f, "%s", path);
		fputs(text, f);
		cr_assert_eq(fclose(f), 0);
	}
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s: no golden file (IOPATH_UPDATE_GOLDEN=1 makes it)", path);
	cr_assert_eq(getdelim(&want, &len, '\0', f) >= 0, 1);
	fclose(f);
	cr_assert_str_eq(text, want, "%s differs from the golden file", name);
	free(want);
	free(text);
}

static char *written(void (*writer)(FILE *, const struct run_results *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	writer(f, &res);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static char *json_written(bool plus)
{
	struct run_env env = { .cmdline = "iopath --name=golden", .kernel = "Linux 6.1.0-test",
			       .hostname = "golden-host" };
	json_t *root = report_json(&res, &env, plus);
	char *s;

	cr_assert_not_null(root);
	s = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	cr_assert_not_null(s);
	return s;
}

Test(reports, json_matches_its_golden_file)
{
	fixture();
	against_golden("report.json", json_written(false));
}

Test(reports, json_plus_matches_its_golden_file)
{
	fixture();
	against_golden("report.jsonplus", json_written(true));
}

Test(reports, normal_text_matches_its_golden_file)
{
	fixture();
	against_golden("report.normal", written(report_normal));
}

Test(reports, terse_matches_its_golden_file)
{
	fixture();
	against_golden("report.terse", written(report_terse));
}

Test(reports, csv_matches_its_golden_file)
{
	fixture();
	against_golden("report.csv", written(report_csv));
}
