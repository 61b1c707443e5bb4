/*
 * The golden job-file corpus, tests/jobs/NAME.fio: each file either parses to exactly the jobs in
 * its .json (iopath --parse-only --output-format=json) or is refused with the message in its
 * .err. scripts/golden-jobs.sh writes the .json files after a reviewed change.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define JOBS_DIR "tests/jobs"

static char *read_line(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[1024], *nl;

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return strdup(buf);
}

static bool exists(const char *path)
{
	FILE *f = fopen(path, "r");

	if (f)
		fclose(f);
	return f != NULL;
}

static unsigned check_file(const char *name)
{
	char path[512], want[512], *expect_err;
	struct run_out r;
	json_t *got, *exp;

	snprintf(path, sizeof(path), JOBS_DIR "/%s", name);
	snprintf(want, sizeof(want), JOBS_DIR "/%.*s.err", (int)(strlen(name) - 4), name);
	got = iopath_json_kept(&r, ANY_STATUS, "--parse-only", "--output-format=json", path, NULL);
	expect_err = read_line(want);
	if (expect_err) {
		cr_expect_eq(r.status, 2, "%s: should be refused (exit 2), got %d", name, r.status);
		cr_expect_not_null(strstr(r.err, expect_err), "%s: expected '%s' in: %s", name,
				   expect_err, r.err);
		free(expect_err);
		json_decref(got);
		run_out_free(&r);
		return 1;
	}
	snprintf(want, sizeof(want), JOBS_DIR "/%.*s.json", (int)(strlen(name) - 4), name);
	cr_expect(exists(want), "%s has neither a .json nor a .err expectation", name);
	cr_expect_eq(r.status, 0, "%s: exit %d: %s", name, r.status, r.err);
	if (exists(want) && r.status == 0) {
		cr_expect_not_null(got, "%s: its output is not JSON: %s", name, r.out);
		exp = json_load_path(want);
		cr_expect(json_equal(got, exp), "%s: parsed jobs differ from %s; got:\n%s", name,
			  want, r.out);
		json_decref(exp);
	}
	json_decref(got);
	run_out_free(&r);
	return 1;
}

Test(golden_jobs, every_job_file_parses_as_recorded_or_is_refused_as_recorded)
{
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	setenv("IOPATH_GOLDEN_BS", "16k", 1);
	unsetenv("IOPATH_GOLDEN_UNSET");
	d = opendir(JOBS_DIR);
	cr_assert_not_null(d, "no %s (run from the source tree)", JOBS_DIR);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".fio"))
			n += check_file(de->d_name);
	}
	closedir(d);
	cr_assert_geq(n, 20, "only %u golden job files found", n);
}
