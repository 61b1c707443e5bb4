/*
 * Integration: the commands the README gives a newcomer first, typed as a newcomer types them:
 * a mistyped or not-yet-made path is refused in one line naming it (exit 2), never answered by
 * the filesystem of its parent.
 */
#include <stdio.h>
#include <string.h>

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
}

Test(newcomer, probe_of_a_missing_path_is_refused_not_answered_by_its_parent)
{
	char missing[320];
	struct run_out r;

	snprintf(missing, sizeof(missing), "%s/shared", tmpdir_make());
	r = iopath_run("probe", missing, NULL);
	assert_missing_refused(&r, missing);
	run_out_free(&r);
	r = iopath_run("probe", "--no-trials", missing, NULL);
	assert_missing_refused(&r, missing);
	run_out_free(&r);
	r = iopath_run("probe", "--json", missing, NULL);
	cr_assert_eq(r.status, 2, "--json: exit %d: %s", r.status, r.err);
	cr_assert_null(strstr(r.out, "\"mount_point\""), "--json described a path: %s", r.out);
	run_out_free(&r);
}

Test(newcomer, probe_of_existing_paths_beside_a_missing_one_still_describes_them)
{
	const char *dir = tmpdir_make();
	char missing[320];
	struct run_out r;

	snprintf(missing, sizeof(missing), "%s/nope", dir);
	r = iopath_run("probe", "--no-trials", dir, missing, NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, dir), "the existing path was not described: %s", r.out);
	cr_assert_not_null(strstr(r.out, "summary"), "%s", r.out);
	cr_assert_not_null(strstr(r.err, missing), "%s", r.err);
	run_out_free(&r);
}
