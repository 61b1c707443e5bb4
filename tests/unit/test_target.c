/* Unit tests: the ownership mark and the run-wide safety options. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/target.h"

Test(target, sidecar_sits_next_to_the_file_hidden)
{
	char out[64];

	cr_assert_eq(target_sidecar_path("dir/sub/data", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "dir/sub/.data.iopath");
	cr_assert_eq(target_sidecar_path("/data", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "/.data.iopath");
	cr_assert_eq(target_sidecar_path("data", out, sizeof(out)), 0);
	cr_assert_str_eq(out, ".data.iopath");
	cr_assert_eq(target_sidecar_path("a-very-long-name", out, 8), -ENAMETOOLONG);
}

Test(target, allow_overwrite_takes_no_value)
{
	struct target_policy pol = { 0 };
	struct iop_err err;

	cr_assert_eq(target_policy_option(&pol, "allow-overwrite", NULL, &err), 1);
	cr_assert(pol.allow_overwrite);
	cr_assert_lt(target_policy_option(&pol, "allow-overwrite", "yes", &err), 0);
	cr_assert_not_null(strstr(err.msg, "takes no value"), "%s", err.msg);
}

Test(target, allow_destructive_needs_a_block_device)
{
	struct target_policy pol = { 0 };
	struct iop_err err;

	cr_assert_lt(target_policy_option(&pol, "allow-destructive", NULL, &err), 0);
	cr_assert_lt(target_policy_option(&pol, "allow-destructive", "/dev/null", &err), 0);
	cr_assert_not_null(strstr(err.msg, "not a block device"), "%s", err.msg);
	cr_assert_lt(target_policy_option(&pol, "allow-destructive", "/nonexistent", &err), 0);
	cr_assert_eq(pol.nr_destructive, 0);
	cr_assert_eq(target_policy_option(&pol, "name", "x", &err), 0);
}

Test(target, a_file_created_and_marked_is_owned_and_removed_with_its_mark)
{
	char dir[] = "/tmp/iopath-unit.XXXXXX", path[64];
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_not(target_owned(path));
	cr_assert_eq(target_mark_owned(fileno(f), path), 0);
	fclose(f);
	cr_assert(target_owned(path));
	cr_assert_eq(target_remove(path), 0);
	cr_assert_neq(access(path, F_OK), 0);
	cr_assert_eq(rmdir(dir), 0, "something was left in %s", dir);
}
