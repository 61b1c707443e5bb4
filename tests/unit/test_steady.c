/* Unit tests: fio's steady-state criteria over a window of per-second samples (core/stats/steady.c). */
#include <criterion/criterion.h>

#include "stats/steady.h"

static struct ss_data ss;

static void setup(void)
{
	memset(&ss, 0, sizeof(ss));
	cr_assert_eq(ss_alloc(&ss, 4), 0);
}

static void teardown(void)
{
	ss_free(&ss);
}

TestSuite(steady, .init = setup, .fini = teardown);

Test(steady, judges_only_once_the_window_is_full)
{
	cr_expect_not(ss_add(&ss, SS_IOPS, 1e9, 100, 0));
	cr_expect_not(ss_add(&ss, SS_IOPS, 1e9, 100, 0));
	cr_expect_not(ss_add(&ss, SS_IOPS, 1e9, 100, 0));
	cr_expect(ss_add(&ss, SS_IOPS, 1e9, 100, 0));
}

Test(steady, deviation_is_the_largest_distance_from_the_mean)
{
	/* 90 100 110 100: mean 100, largest deviation 10 = 10% */
	ss_add(&ss, SS_IOPS | SS_PCT, 5, 90, 0);
	ss_add(&ss, SS_IOPS | SS_PCT, 5, 100, 0);
	ss_add(&ss, SS_IOPS | SS_PCT, 5, 110, 0);
	cr_expect_not(ss_add(&ss, SS_IOPS | SS_PCT, 5, 100, 0));
	cr_expect_float_eq(ss.deviation, 10.0, 1e-9);
	cr_expect_float_eq(ss.criterion, 10.0, 1e-9);
	/* the window slides: 100 110 100 100, mean 102.5, deviation 7.5 = 7.3% */
	cr_expect_not(ss_add(&ss, SS_IOPS | SS_PCT, 5, 100, 0));
	cr_expect_float_eq(ss.deviation, 7.5, 1e-9);
}

Test(steady, slope_is_the_least_squares_fit)
{
	/* bandwidth 10 20 30 40: slope 10 per second, 40% of the mean 25 */
	ss_add(&ss, SS_SLOPE | SS_PCT, 50, 0, 10);
	ss_add(&ss, SS_SLOPE | SS_PCT, 50, 0, 20);
	ss_add(&ss, SS_SLOPE | SS_PCT, 50, 0, 30);
	cr_expect(ss_add(&ss, SS_SLOPE | SS_PCT, 50, 0, 40));
	cr_expect_float_eq(ss.slope, 10.0, 1e-9);
	cr_expect_float_eq(ss.criterion, 40.0, 1e-9);
}

Test(steady, slope_window_slides_with_running_sums)
{
	/* 10 20 30 40, then 40 40: window 30 40 40 40, slope 3 */
	ss_add(&ss, SS_SLOPE, 0.5, 0, 10);
	ss_add(&ss, SS_SLOPE, 0.5, 0, 20);
	ss_add(&ss, SS_SLOPE, 0.5, 0, 30);
	ss_add(&ss, SS_SLOPE, 0.5, 0, 40);
	ss_add(&ss, SS_SLOPE, 0.5, 0, 40);
	cr_expect_not(ss_add(&ss, SS_SLOPE, 0.5, 0, 40));
	cr_expect_float_eq(ss.slope, 3.0, 1e-9);
}
