/* Unit tests: the cell layer (core/results/cells.c): a cell's job built, refused, entered. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "iopath/engine.h"
#include "results/cells.h"
#include "results/sweep_cells.h"

static struct cell_job cell;
static struct iop_err err;

static void setup(void)
{
	memset(&cell, 0, sizeof(cell));
	memset(&err, 0, sizeof(err));
	snprintf(cell.label, sizeof(cell.label), "t randread");
}

static void teardown(void)
{
	cell_job_free(&cell);
}

static int build(const char *workload, const struct cell_opt *opts, unsigned n)
{
	const struct cell_recipe r = { .workload = workload, .opts = opts, .nr_opts = n,
				       .where = "test" };

	return cell_build(&cell, &r, NULL, &err);
}

/*
 * The cell built with direct=1 on a registered engine flagged flag (whichever the registry
 * flags so, not one named here); the test skips, saying so, when there is none.
 */
static void build_flagged(unsigned flag, const char *what)
{
	const struct engine_entry *e;
	char engine[64] = "";

	for (e = engine_table; e->name && !engine[0]; e++)
		if ((e->ops->flags & flag) && !e->force_direct)
			snprintf(engine, sizeof(engine), "%s", e->name);
	if (!engine[0])
		cr_skip_test("no registered engine is flagged %s", what);
	{
		const struct cell_opt o[] = { { "ioengine", engine }, { "direct", "1" },
					      { "size", "1m" }, { "filename", "/nonexistent/f" } };

		cr_assert_eq(build(NULL, o, 4), 0, "%s", err.msg);
	}
}

TestSuite(cells, .init = setup, .fini = teardown);

Test(cells, a_named_job_takes_the_options_in_order)
{
	const struct cell_opt o[] = {
		{ "ioengine", "null" }, { "rw", "randread" }, { "bs", "4k" }, { "bs", "8k" },
		{ "iodepth", "4" }, { "size", "1m" }, { "filename", "/nonexistent/f" },
	};

	cr_assert_eq(build(NULL, o, sizeof(o) / sizeof(o[0])), 0, "%s", err.msg);
	cr_assert_eq(cell.jobs.nr, 1);
	cr_expect_str_eq(cell.jobs.jobs[0].name, "t randread");
	cr_expect_eq(cell.jobs.jobs[0].bs[0], 8192, "the later bs= wins");
	cr_expect_eq(cell.jobs.jobs[0].iodepth, 4);
}

Test(cells, a_workloads_jobs_take_the_options_after_their_own)
{
	const struct cell_opt o[] = { { "iodepth", "2" }, { "filename", "/nonexistent/f" } };
	unsigned i;

	cr_assert_eq(build("randread-4k-qd32", o, 2), 0, "%s", err.msg);
	cr_assert_gt(cell.jobs.nr, 0);
	for (i = 0; i < cell.jobs.nr; i++)
		cr_expect_eq(cell.jobs.jobs[i].iodepth, 2, "job %u keeps its own iodepth", i);
}

Test(cells, a_refused_option_names_itself_and_where_it_came_from)
{
	const struct cell_opt o[] = { { "ioengine", "null" }, { "bs", "banana" } };

	cr_assert_lt(build(NULL, o, 2), 0);
	cr_expect(strstr(err.msg, "test") && strstr(err.msg, "bs"), "%s", err.msg);
}

Test(cells, an_unknown_workload_is_a_skipped_cell_with_the_reason)
{
	const struct cell_recipe r = { .workload = "no-such-workload", .where = "test" };

	cell_plan(&cell, &r, NULL, NULL);
	cr_expect(cell.skip);
	cr_expect(strstr(cell.reason, "no-such-workload"), "%s", cell.reason);
}

Test(cells, direct_is_refused_for_an_engine_that_works_through_the_page_cache)
{
	build_flagged(ENGINE_NO_DIRECT, "ENGINE_NO_DIRECT");
	cr_expect(cell_refuse(&cell, NULL));
	cr_expect(strstr(cell.reason, "cannot do direct=1"), "%s", cell.reason);
	cr_expect(cell.disk, "a data engine touches the target's file");
}

Test(cells, a_diskless_engine_is_not_refused_and_touches_no_file)
{
	build_flagged(ENGINE_DISKLESS, "ENGINE_DISKLESS");
	cr_expect_not(cell_refuse(&cell, NULL), "%s", cell.reason);
	cr_expect_not(cell.disk);
}

Test(cells, entered_cells_keep_plan_order_and_the_unrun_are_marked)
{
	struct cell_job cells[2] = { 0 };
	struct results res;
	char *argv[] = { "iopath", NULL };

	cr_assert_eq(results_init(&res, "sweep", "test", 1, argv, &err), 0, "%s", err.msg);
	cells[0].identity = json_pack("{s:s}", "engine", "a");
	cells[1].identity = json_pack("{s:s}", "engine", "b");
	snprintf(cells[0].label, sizeof(cells[0].label), "a");
	snprintf(cells[1].label, sizeof(cells[1].label), "b");
	cells[0].skip = true;
	snprintf(cells[0].reason, sizeof(cells[0].reason), "refused here");
	cr_assert_eq(cells_enter(&res, cells, 2, &err), 0, "%s", err.msg);
	cells_mark_not_run(&res, CELL_INTERRUPTED, "not run");
	cr_assert_eq(res.nr, 2);
	cr_expect_str_eq(res.cells[0].label, "a");
	cr_expect_eq(res.cells[0].status, CELL_SKIPPED);
	cr_expect_str_eq(res.cells[0].reason, "refused here");
	cr_expect_eq(res.cells[1].status, CELL_INTERRUPTED);
	cr_expect_str_eq(res.cells[1].reason, "not run");
	json_decref(cells[0].identity);
	json_decref(cells[1].identity);
	results_free(&res);
}

Test(cells, the_labs_failed_cell_is_kept_failed_with_the_labs_reason)
{
	static const char lab[] =
		"{\"schema\": \"iopath-vmlab/1\", \"cells\": [{\"path\": \"virtio-blk\", \"job\": \"rr\","
		" \"engine\": \"e\", \"status\": \"failed\", \"error\": \"the guest did not boot\"}]}";
	struct results res;

	cr_assert_eq(results_parse(lab, sizeof(lab) - 1, "lab.json", &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.nr, 1);
	cr_expect_eq(res.cells[0].status, CELL_FAILED);
	cr_expect_str_eq(res.cells[0].reason, "the guest did not boot");
	cr_expect_str_eq(json_string_value(json_object_get(res.cells[0].identity, "job")), "rr");
	results_free(&res);
}

Test(cells, a_sweep_repeats_a_cell_until_its_mean_is_known_within_the_target)
{
	double l1 = log(1000), l2 = log(1010), l3 = log(2000);

	/* fewer than 2 repeats: no spread to judge yet */
	cr_assert_not(sweep_needs_repeat(1, l1, l1 * l1, 0.04));
	/* 1000, 1010, 1000: about 0.3% standard error */
	cr_assert_not(sweep_needs_repeat(3, 2 * l1 + l2, 2 * l1 * l1 + l2 * l2, 0.04));
	/* 1000, 2000, 1000: log sd 0.40, standard error 0.23 */
	cr_assert(sweep_needs_repeat(3, 2 * l1 + l3, 2 * l1 * l1 + l3 * l3, 0.04));
	/* the same spread over 120 repeats: 0.40 / sqrt(120) = 0.037 */
	cr_assert_not(sweep_needs_repeat(120, 80 * l1 + 40 * l3, 80 * l1 * l1 + 40 * l3 * l3, 0.04));
}

/* sweep --compare: a cell and its partner (the same identity but the compared key) repeat together. */
Test(cells, compared_cells_are_paired_and_repeat_while_either_needs_it)
{
	const char *const val[2] = { "old", "new" };
	struct cell_job c[4] = { 0 };
	double l1 = log(1000), l2 = log(1010), l3 = log(2000);
	/* cell 0 known (1000, 1010, 1000), cell 1 not (1000, 2000, 1000) */
	unsigned nr[4] = { 3, 3, 3, 3 };
	double sum[4] = { 2 * l1 + l2, 2 * l1 + l3, 2 * l1 + l2, 2 * l1 + l2 };
	double sumsq[4] = { 2 * l1 * l1 + l2 * l2, 2 * l1 * l1 + l3 * l3, 2 * l1 * l1 + l2 * l2,
			    2 * l1 * l1 + l2 * l2 };
	int partner[4];
	unsigned i;

	c[0].identity = json_pack("{s:s, s:s}", "target", "old", "bs", "4k");
	c[1].identity = json_pack("{s:s, s:s}", "target", "new", "bs", "4k");
	c[2].identity = json_pack("{s:s, s:s}", "target", "old", "bs", "64k");
	c[3].identity = json_pack("{s:s, s:s}", "target", "other", "bs", "64k");
	sweep_pair_cells(c, 4, "target", val, partner);
	cr_assert_eq(partner[0], 1);
	cr_assert_eq(partner[1], 0);
	cr_assert_eq(partner[2], -1, "no target=new cell of bs=64k");
	cr_assert_eq(partner[3], -1);
	/* the known cell repeats for its unknown partner; an unpaired known cell does not */
	cr_assert(sweep_pair_needs_repeat(nr, sum, sumsq, partner, 0, 0.04));
	cr_assert(sweep_pair_needs_repeat(nr, sum, sumsq, partner, 1, 0.04));
	cr_assert_not(sweep_pair_needs_repeat(nr, sum, sumsq, partner, 2, 0.04));
	sweep_pair_cells(c, 4, NULL, val, partner);
	cr_assert_eq(partner[0], -1, "no --compare: no pairs");
	cr_assert_not(sweep_pair_needs_repeat(nr, sum, sumsq, partner, 0, 0.04));
	for (i = 0; i < 4; i++)
		json_decref(c[i].identity);
}
