/*
 * Integration: a newcomer's first hour, as the README leads it: `make` on a machine without the
 * libraries says how to get them; `iopath probe` of a mistyped or not-yet-made path is refused
 * in one line naming it (exit 2), never answered by the filesystem of its parent; faultfs, the
 * README's slow share, has the usage the README gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(newcomer, .fini = tmpdir_cleanup);

static void assert_missing_refused(struct run_out *r, const char *path)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, path), "the message does not name %s: %s", path, r->err);
	cr_assert_not_null(strstr(r->err, "no such file or directory"), "%s", r->err);
	cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "not one line: %s", r->err);
	/* the parent exists: it must not be described in the missing path's place */
	cr_assert_null(strstr(r->out, "summary"), "a path was described: %s", r->out);
	/* with nothing left to probe, the refusal is all: no host section before it */
	cr_assert_eq(r->out[0], '\0', "printed beside the refusal: %s", r->out);
}

Test(newcomer, probe_of_a_missing_path_is_refused_not_answered_by_its_parent)
{
	const char *missing = tmp_str("%s/shared", tmpdir_make());
	struct run_out r = iopath_run("probe", missing, NULL);
	assert_missing_refused(&r, missing);
	run_out_free(&r);
	r = iopath_run("probe", "--no-trials", missing, NULL);
	assert_missing_refused(&r, missing);
	run_out_free(&r);
	r = iopath_run("probe", "--json", missing, NULL);
	cr_assert_eq(r.status, 2, "--json: exit %d: %s", r.status, r.err);
	cr_assert_null(strstr(r.out, "\"mount_point\""), "--json described a path: %s", r.out);
	cr_assert_eq(r.out[0], '\0', "--json printed beside the refusal: %s", r.out);
	run_out_free(&r);
}

Test(newcomer, probe_of_existing_paths_beside_a_missing_one_still_describes_them)
{
	const char *dir = tmpdir_make(), *missing = tmp_str("%s/nope", dir);
	struct run_out r = iopath_run("probe", "--no-trials", dir, missing, NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, dir), "the existing path was not described: %s", r.out);
	cr_assert_not_null(strstr(r.out, "summary"), "%s", r.out);
	cr_assert_not_null(strstr(r.err, missing), "%s", r.err);
	run_out_free(&r);
}

#define MAKE_BIN "/usr/bin/make"

/*
 * `make` on a machine without the libraries' headers: the first thing it does is one line
 * naming what is missing and scripts/deps.sh, before any compiler error (the check the Makefile
 * runs once, asked here of a header no machine has, with its mark and objects kept out of build/).
 */
Test(newcomer, make_without_the_library_headers_says_how_to_get_them)
{
	const char *dir = tmpdir_make();
	char ok[320], obj[320], target[360], *err;
	struct run_out r;

	if (access(MAKE_BIN, X_OK))
		cr_skip_test("%s is not installed", MAKE_BIN);
	if (access("Makefile", R_OK))
		cr_skip_test("not run from the source tree (no Makefile here)");
	/* a parent `make -j2 test` hands its jobserver down; this make is a newcomer's own */
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	snprintf(ok, sizeof(ok), "HEADERS_OK=%s/headers-ok", dir);
	snprintf(obj, sizeof(obj), "OBJ_DIR=%s/obj", dir);
	snprintf(target, sizeof(target), "%s/obj/core/base/err.o", dir);
	{
		char *argv[] = { (char *)"make", (char *)"-s", ok, obj,
				 (char *)"BUILD_HEADERS=jansson.h iopath-no-such-header.h", target, NULL };

		r = prog_runv(MAKE_BIN, argv);
	}
	cr_assert_neq(r.status, 0, "make went on: %s", r.out);
	err = r.err;
#define WANT_FIRST "iopath: missing headers: iopath-no-such-header.h: "
	cr_assert(!strncmp(err, WANT_FIRST, strlen(WANT_FIRST)),
		  "the first line does not name the missing header: %s", err);
	cr_assert_null(strstr(err, "jansson.h"), "a header that is there was named: %s", err);
	cr_assert_not_null(strstr(err, "scripts/deps.sh"), "%s", err);
	cr_assert_null(strstr(err, "No such file"), "a compiler error came first: %s", err);
	cr_assert(access(target, F_OK), "an object was compiled");
	run_out_free(&r);
}

/* faultfs, the README's way to make a slow share: its usage there is the binary's own */
Test(newcomer, faultfs_help_is_the_usage_the_readme_gives)
{
	const char *bin = getenv("FAULTFS_BIN");
	char *readme, *nl, *bad[] = { (char *)"faultfs", (char *)"--delay=2", (char *)"a",
				     (char *)"b", NULL };
	char *help[] = { (char *)"faultfs", (char *)"--help", NULL };
	struct run_out r;

	if (!bin || access(bin, X_OK))
		cr_skip_test("faultfs is not built (libfuse3-dev missing: scripts/deps.sh)");
	r = prog_runv(bin, help);
	cr_assert_eq(r.status, 0, "faultfs --help: exit %d: %s", r.status, r.err);
	nl = strchr(r.out, '\n');
	cr_assert(!strncmp(r.out, "usage: faultfs ", 15) && nl, "%s", r.out);
	*nl = '\0';
	readme = file_text("README.md");
	cr_assert_not_null(strstr(readme, r.out), "README.md lacks faultfs's usage line: %s", r.out);
	cr_assert_not_null(strstr(readme, "make faultfs"), "README.md does not say how to build it");
	free(readme);
	run_out_free(&r);
	r = prog_runv(bin, bad);
	cr_assert_eq(r.status, 2, "an unknown option: exit %d", r.status);
	cr_assert_not_null(strstr(r.err, "'--delay=2'"), "%s", r.err);
	run_out_free(&r);
}
