/*
 * Integration: verify_async=N checks verify reads in N threads with the same verdicts as the
 * inline check, and continue_on_error=verify goes on after failed blocks, as fio 3.33 does
 * (faultfs inverts a byte of every read: 16 blocks of 4 KiB, each fails verify).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "harness.h"

TestSuite(verify_async, .fini = mount_cleanup);

/* A write+verify job; corrupt: on faultfs inverting a byte of every read. */
static json_t *verify_job(bool corrupt, const char *engine, const char *async, const char *coe,
			  int want_status, const char *size)
{
	const char *dir = tmpdir_make(), *out = tmp_str("%s/out.json", dir);
	char *argv[20] = { "iopath", "--output-format=json", tmp_str("--output=%s", out), "--name=t",
			   "--rw=randwrite", "--bs=4k", tmp_str("--size=%s", size), "--verify=crc32c",
			   "--iodepth=8", tmp_str("--ioengine=%s", engine),
			   tmp_str("--verify_async=%s", async), tmp_str("--continue_on_error=%s", coe),
			   tmp_str("--filename=%s/f", corrupt ? tmp_str("%s/mnt", dir) : dir), NULL };
	struct run_out r;
	json_t *root;

	snprintf(test_mnt, sizeof(test_mnt), "%s/mnt", dir);
	if (corrupt)
		faultfs_mount(tmp_str("%s/back", dir), test_mnt, "--corrupt-read-after=0");
	else
		test_mnt[0] = '\0';
	r = iopath_runv(argv);
	cr_assert_eq(r.status, want_status, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	root = json_load_path(out);
	return root;
}

static long long jint(json_t *root, const char *key)
{
	json_t *v = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

Test(verify_async, good_data_verifies_in_threads)
{
	json_t *root = verify_job(false, "libaio", "4", "none", 0, "8m");

	cr_assert_eq(jint(root, "error"), 0);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 2048, "every written block read back");
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 8 << 20);
	json_decref(root);
}

Test(verify_async, sync_engine_verifies_in_threads)
{
	json_t *root = verify_job(false, "psync", "2", "none", 0, "2m");

	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 512);
	json_decref(root);
}

Test(verify_async, a_bad_block_fails_the_job)
{
	json_t *root = verify_job(true, "libaio", "4", "none", 1, "64k");

	cr_assert_eq(jint(root, "error"), 84, "EILSEQ");
	json_decref(root);
}

/* The threads' verdicts are the inline check's: every block fails, each counted once. */
static void all_blocks_counted(const char *engine, const char *async)
{
	json_t *root = verify_job(true, engine, async, "verify", 0, "64k");

	cr_assert_eq(jint(root, "error"), 84);
	cr_assert_eq(jint(root, "total_err"), 16);
	cr_assert_eq(jint(root, "first_error"), 84);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 65536, "the reads themselves succeeded");
	json_decref(root);
}

Test(verify_async, continue_on_error_verify_counts_every_bad_block_inline)
{
	all_blocks_counted("libaio", "0");
}

Test(verify_async, continue_on_error_verify_counts_every_bad_block_in_threads)
{
	all_blocks_counted("libaio", "4");
}

Test(verify_async, continue_on_error_verify_with_a_sync_engine_in_threads)
{
	all_blocks_counted("psync", "3");
}
