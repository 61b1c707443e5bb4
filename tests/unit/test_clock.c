/* The TSC clock: its calibration and conversion agree with CLOCK_MONOTONIC. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "base/clock.h"

static void need_tsc(struct tsc_clock *c)
{
	char why[160];
	int ret;

	if (!tsc_usable(why, sizeof(why)))
		cr_skip_test("no usable TSC here: %s", why);
	ret = tsc_calibrate(c, 20000000ull);
	if (ret == -EAGAIN)
		cr_skip_test("the machine is too busy to read the clocks close together");
	cr_assert_eq(ret, 0, "tsc_calibrate: %d", ret);
}

/*
 * Over a 50 ms sleep the TSC and CLOCK_MONOTONIC must agree within the latency histogram's
 * own error (1/128). Each end is a pair read within a few microseconds and the calibration
 * error is below 0.05%, so the tolerance (390 us) is far above what can go wrong.
 */
Test(tsc_clock, agrees_with_monotonic_over_a_sleep)
{
	struct tsc_clock c;
	struct timespec ts = { 0, 50000000 };
	uint64_t t0, n0, t1, n1, dm, dt, diff;

	need_tsc(&c);
	if (tsc_pair(&t0, &n0))
		cr_skip_test("the machine is too busy to read the clocks close together");
	nanosleep(&ts, NULL);
	if (tsc_pair(&t1, &n1))
		cr_skip_test("the machine is too busy to read the clocks close together");
	dm = n1 - n0;
	dt = tsc_to_ns(&c, t1) - tsc_to_ns(&c, t0);
	diff = dt > dm ? dt - dm : dm - dt;
	cr_assert(diff * 128 <= dm, "TSC says %llu ns, CLOCK_MONOTONIC %llu ns",
		  (unsigned long long)dt, (unsigned long long)dm);
}

Test(tsc_clock, reads_monotonic_nanoseconds)
{
	struct tsc_clock c;
	uint64_t t, n, conv, diff;

	need_tsc(&c);
	if (tsc_pair(&t, &n))
		cr_skip_test("the machine is too busy to read the clocks close together");
	conv = tsc_to_ns(&c, t);
	diff = conv > n ? conv - n : n - conv;
	cr_assert_lt(diff, 100000, "TSC %llu ns vs CLOCK_MONOTONIC %llu ns",
		     (unsigned long long)conv, (unsigned long long)n);
}

Test(tsc_clock, rate_is_a_plausible_cpu_clock)
{
	struct tsc_clock c;

	need_tsc(&c);
	cr_assert(tsc_mhz(&c) > 100.0 && tsc_mhz(&c) < 10000.0, "%.1f MHz", tsc_mhz(&c));
}

Test(tsc_clock, conversion_is_exact_for_a_known_rate)
{
	/* 2.5 GHz: 0.4 ns per tick; one second of ticks is one second */
	struct tsc_clock c = { .tsc0 = 1000, .ns0 = 7, .mult = (uint64_t)(0.4 * 4294967296.0) };

	cr_assert_eq(tsc_to_ns(&c, 1000), 7);
	cr_assert(tsc_to_ns(&c, 1000 + 2500000000ull) - 7 >= 999999999ull &&
		  tsc_to_ns(&c, 1000 + 2500000000ull) - 7 <= 1000000000ull);
}
