/* Unit tests: rate pacing against a virtual clock (bytes counted, no wall clock). */
#include <criterion/criterion.h>
#include <math.h>

#include "io/rate.h"

/* Issue bs-sized I/Os as soon as each is due, for secs of virtual time; return the bytes. */
static uint64_t run_virtual(struct rate *r, uint32_t bs, double secs)
{
	uint64_t now = r->start_ns, end = r->start_ns + (uint64_t)(secs * 1e9), bytes = 0;

	for (;;) {
		uint64_t due = rate_due(r);

		if (due > now)
			now = due;
		if (now >= end)
			return bytes;
		rate_issue(r, bs);
		bytes += bs;
	}
}

Test(rate, linear_moves_rate_times_time)
{
	struct rate r;

	rate_init(&r, 1 << 20, 4096, false, 1000, 1);
	/* 10 s at 1 MiB/s: 2560 I/Os, the first at once */
	cr_assert_eq(run_virtual(&r, 4096, 10.0), 10ull << 20);
}

Test(rate, linear_counts_bytes_not_ios)
{
	struct rate r;

	rate_init(&r, 1 << 20, 4096, false, 0, 1);
	cr_assert_eq(run_virtual(&r, 65536, 4.0), 4ull << 20);
}

Test(rate, poisson_keeps_the_mean_rate)
{
	struct rate r;
	uint64_t bytes;

	rate_init(&r, 4096 * 1000, 4096, true, 0, 7);
	bytes = run_virtual(&r, 4096, 100.0);
	/* 100 000 exponential gaps: the count is within 1% of 100 000 */
	cr_assert_float_eq((double)bytes / 4096, 100000.0, 1000.0, "%llu I/Os",
			   (unsigned long long)(bytes / 4096));
}

Test(rate, poisson_gaps_are_exponential)
{
	struct rate r;
	double sum = 0, sumsq = 0, mean, sd, prev = 0;
	unsigned i, n = 100000;

	rate_init(&r, 4096 * 1000, 4096, true, 0, 3);
	for (i = 0; i < n; i++) {
		double due;

		rate_issue(&r, 4096);
		due = (double)rate_due(&r);
		sum += due - prev;
		sumsq += (due - prev) * (due - prev);
		prev = due;
	}
	mean = sum / n;
	sd = sqrt(sumsq / n - mean * mean);
	cr_assert_float_eq(mean, 1e6, 1e4, "mean gap %.0f ns", mean);
	/* an exponential's deviation equals its mean */
	cr_assert_float_eq(sd / mean, 1.0, 0.02, "coefficient of variation %.3f", sd / mean);
}

Test(rate, shift_delays_the_schedule)
{
	struct rate r;

	rate_init(&r, 1000000, 1000, false, 0, 1);
	rate_issue(&r, 1000);
	cr_assert_eq(rate_due(&r), 1000000);
	rate_shift(&r, 500);
	cr_assert_eq(rate_due(&r), 1000500);
}
