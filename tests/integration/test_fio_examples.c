/*
 * fio's own example job files (tests/jobs/fio-examples, see its README): every one parses or
 * is refused as "not supported by iopath" - never a crash, never a silent misreading - and
 * every one that parses also runs, made short. Prints the success rate among the files whose
 * engines iopath has.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define EXAMPLES "tests/jobs/fio-examples"

enum verdict { PARSES, REFUSED, FOREIGN_ENGINE };

/* Parse one file; a refusal must be iopath's explained "not supported" kind. */
static enum verdict parse_one(const char *path)
{
	struct run_out r = iopath_run("--parse-only", path, NULL), lax;
	enum verdict v = PARSES;

	cr_expect(r.status == 0 || r.status == 2, "%s: exit %d (a crash?): %s", path, r.status,
		  r.err);
	if (r.status) {
		cr_expect_not_null(strstr(r.err, "not supported by iopath"),
				   "%s: refused, but not as an unsupported fio feature: %s", path, r.err);
		/* whatever else it lacks, does the file name a fio engine iopath does not have? */
		lax = iopath_run("--parse-only", "--ignore-unsupported", path, NULL);
		v = strstr(lax.err, "engine is not supported by iopath") ? FOREIGN_ENGINE : REFUSED;
		run_out_free(&lax);
	}
	run_out_free(&r);
	return v;
}

/* Run one parsed file, short, in a temporary directory. */
static bool run_one(const char *path, const char *name)
{
	const char *dir = tmpdir_make();
	char job[512], out[512];
	char *argv[] = { "iopath", "--output-format=json", "--output", out, job, NULL };
	struct run_out r;
	struct run_bg bg;
	bool ok;

	snprintf(job, sizeof(job), "%s/%s", dir, name);
	snprintf(out, sizeof(out), "%s/result.json", dir);

	cr_assert_eq(sh("tests/integration/shorten-job.sh '%s' '%s' '%s'", path, job, dir), 0);
	/* in the temporary directory: what a job writes by relative name (logs) stays there */
	bg = iopath_startv(argv, dir);
	r = iopath_wait(&bg, 120);
	ok = r.status == 0;
	cr_expect(ok, "%s (shortened) did not run: exit %d: %s", name, r.status, r.err);
	run_out_free(&r);
	tmpdir_cleanup();
	return ok;
}

Test(fio_examples, each_parses_or_is_refused_as_unsupported_and_each_that_parses_runs,
     .timeout = 240)
{
	unsigned parsed = 0, refused = 0, foreign = 0, ran = 0;
	struct dirent *de;
	char path[512];
	DIR *d = opendir(EXAMPLES);

	cr_assert_not_null(d, "no %s (run from the source tree)", EXAMPLES);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 4, ".fio"))
			continue;
		snprintf(path, sizeof(path), EXAMPLES "/%s", de->d_name);
		switch (parse_one(path)) {
		case PARSES:
			parsed++;
			ran += run_one(path, de->d_name);
			break;
		case REFUSED:
			refused++;
			break;
		case FOREIGN_ENGINE:
			foreign++;
			break;
		}
	}
	closedir(d);
	cr_assert_gt(parsed + refused + foreign, 80);
	fprintf(stderr,
		"fio examples: %u files; %u name a fio engine iopath lacks (refused); of the other %u, %u parse and %u run (%.0f%%), %u are refused naming the fio option iopath lacks\n",
		parsed + refused + foreign, foreign, parsed + refused, parsed, ran,
		100.0 * ran / (parsed + refused), refused);
}
