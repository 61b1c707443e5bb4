/* The runner's submission path: batches an engine takes only in part. */
#include <criterion/criterion.h>
#include <string.h>

#include "integration/harness.h"

/* the temporary directories each test made go with it */
TestSuite(submit, .fini = tmpdir_cleanup);

static json_t *null_run(const char *accept, const char *batch)
{
	return iopath_json_ok(tmpdir_make(), "--name=t", "--size=8m", "--rw=randread",
			      "--ioengine=null", "--iodepth=16", batch, accept, NULL);
}

static double slat_max(json_t *root)
{
	json_t *rd = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "read");

	return json_number_value(json_object_get(json_object_get(rd, "slat_ns"), "max"));
}

/*
 * An engine that takes 5 of every 16 offered: each request is done once, and the ones left
 * over keep a sane submission latency (from their first offer, never a wrapped stamp).
 */
Test(submit, partial_batches_move_every_request_once)
{
	json_t *root = null_run("--null_accept=5", "--iodepth_batch_submit=16");

	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 2048);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 8 << 20);
	cr_assert(slat_max(root) < 1e9, "slat max %.0f ns", slat_max(root));
	json_decref(root);
}

Test(submit, whole_batches_move_every_request_once)
{
	json_t *root = null_run("--null_accept=0", "--iodepth_batch_submit=16");

	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 2048);
	cr_assert(slat_max(root) < 1e9, "slat max %.0f ns", slat_max(root));
	json_decref(root);
}

static double depth32(json_t *root)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);

	return json_number_value(json_object_get(json_object_get(job, "iodepth_level"), "32"));
}

/* fio's default takes one completion per reap, so each submission finds the queue full. */
Test(submit, one_completion_per_reap_keeps_the_queue_full)
{
	json_t *root = null_run("--randrepeat=1", "--iodepth=32");

	/* all but the 31 submissions that fill the queue at the start, of 2048 */
	cr_assert_gt(depth32(root), 98.0, "depth 32 at %.2f%% of submissions", depth32(root));
	json_decref(root);
}

Test(submit, batch_complete_max_takes_more_per_reap)
{
	json_t *root = null_run("--iodepth_batch_complete_max=32", "--iodepth=32");

	cr_assert_lt(depth32(root), 50.0, "depth 32 at %.2f%% of submissions", depth32(root));
	json_decref(root);
}

static double depth_at(json_t *root, const char *level)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);

	return json_number_value(json_object_get(json_object_get(job, "iodepth_level"), level));
}

/* The null run read its whole 8 MiB, 2048 I/Os; root itself. */
static json_t *all_read(json_t *root)
{
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 2048);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 8 << 20);
	return root;
}

/*
 * iodepth_batch_complete_min=0 waits for one completion anyway (it reaped none, forever,
 * once the queue was full); with no maximum it reaps after every submission, so one I/O
 * is in flight, as fio 3.33 runs it.
 */
Test(submit, batch_complete_min_0_polls_after_each_submission, .timeout = 60)
{
	json_t *root = all_read(null_run("--iodepth_batch_complete_min=0", "--randrepeat=1"));

	cr_expect_eq(depth_at(root, "1"), 100.0, "depth 1 at %.2f%%", depth_at(root, "1"));
	json_decref(root);
}

/* With a maximum, a full queue reaps at least one and at most that many (fio 3.33). */
Test(submit, batch_complete_min_0_with_max_reaps_when_full, .timeout = 60)
{
	json_t *root = all_read(null_run("--iodepth_batch_complete_min=0",
					 "--iodepth_batch_complete_max=16"));

	cr_expect_lt(depth_at(root, "1"), 50.0, "depth 1 at %.2f%%", depth_at(root, "1"));
	json_decref(root);
}
