/* Unit tests: what else used the machine (/proc/stat parsed) and when it explains a change. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "results/envcmp.h"
#include "run/machine.h"

#define T 0.05	/* compare's default threshold */

Test(machine, proc_stat_aggregate_line_and_cpus)
{
	const char *text = "cpu  100 5 50 1000 20 3 2 7 0 0\ncpu0 50 2 25 500 10 1 1 3 0 0\n"
			   "cpu1 50 3 25 500 10 2 1 4 0 0\nintr 12345\nprocs_running 3\n";
	struct machine_snap s = { 0 };

	cr_assert(machine_parse_stat(text, &s));
	cr_assert_eq(s.ticks[0], 100);
	cr_assert_eq(s.ticks[3], 1000);
	cr_assert_eq(s.ticks[7], 7, "steal");
	cr_assert_eq(s.cpus, 2);
	cr_assert_not(machine_parse_stat("intr 1\n", &s), "no cpu line");
}

/* A many-CPU host's /proc/stat (1024 CPUs, a long intr line: past 64 KiB) is read whole. */
Test(machine, a_long_proc_stat_is_read_whole)
{
	char path[] = "/tmp/iopath-stat.XXXXXX";
	struct machine_snap s = { 0 };
	int fd = mkstemp(path);
	FILE *f;
	unsigned i;

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	cr_assert_not_null(f);
	fprintf(f, "cpu  %u 5 50 1000 20 3 2 7 0 0\n", 100u);
	for (i = 0; i < 1024; i++)
		fprintf(f, "cpu%u 123456789 2345 3456789 987654321 12345 0 6789 0 0 0\n", i);
	fprintf(f, "intr 123456789");
	for (i = 0; i < 4096; i++)
		fprintf(f, " %u", i);
	fprintf(f, "\nctxt 1\nprocs_running 3\n");
	cr_assert_gt(ftell(f), 65536, "the file is not long enough to tell");
	fclose(f);
	cr_assert(machine_stat_file(path, &s));
	unlink(path);
	cr_assert_eq(s.ticks[0], 100);
	cr_assert_eq(s.ticks[7], 7, "steal");
	cr_assert_eq(s.cpus, 1024, "%u CPUs counted of 1024", s.cpus);
}

Test(machine, the_span_splits_others_from_our_own)
{
	struct machine_snap a = { .ok = true, .ns = 0, .own_s = 1.0, .load1 = 0.5, .cpus = 2 };
	struct machine_snap b = a;
	struct run_machine m;
	double hz = (double)sysconf(_SC_CLK_TCK);

	b.ns = 1000000000ull;
	b.own_s = 1.5;
	b.ticks[0] = (uint64_t)(1.2 * hz);	/* user: 1.2 s of which 0.5 s ours */
	b.ticks[3] = (uint64_t)(0.6 * hz);	/* idle */
	b.ticks[7] = (uint64_t)(0.2 * hz);	/* steal */
	machine_span(&a, &b, &m);
	cr_assert(m.valid);
	cr_assert_float_eq(m.total_s, 2.0, 0.05);
	cr_assert_float_eq(m.busy_s - m.own_s, 0.7, 0.05);
	cr_assert_float_eq(m.steal_s, 0.2, 0.05);
	a.ok = false;
	machine_span(&a, &b, &m);
	cr_assert_not(m.valid);
}

static struct env_side side(double cpu, double steal, double disk)
{
	/* an older result's: no run-queue wait, no disk requests recorded */
	return (struct env_side){ .n = 3, .other_cpu = cpu, .steal = steal, .load1 = 1,
				  .other_disk = disk, .own_disk = 40.0 * 1048576, .time_per_io = NAN,
				  .wait_per_io = NAN, .rest_per_io = NAN, .other_ios = NAN, .own_ios = NAN,
				  .other_ios_q1 = NAN, .other_ios_q3 = NAN, .wakes_per_io = NAN,
				  .wait_per_wake = NAN, .other_flight = NAN, .own_flight_per_io = NAN,
				  .other_busy = NAN, .oncpu_per_io = NAN, .ref_cpu = NAN, .ref_mem = NAN };
}

/* A side that recorded its workers' wait and the disk's requests: per I/O in us, req/s. */
static struct env_side timed(double cpu, double us_per_io, double wait_us, double other_ios)
{
	struct env_side e = side(cpu, 0, 1e9);

	e.time_per_io = us_per_io / 1e6;
	e.wait_per_io = wait_us / 1e6;
	e.rest_per_io = (us_per_io - wait_us) / 1e6;
	e.other_ios = other_ios;
	e.other_ios_q1 = 0.9 * other_ios;	/* steady: its repeats within 10% */
	e.other_ios_q3 = 1.1 * other_ios;
	e.own_ios = 1e6 / us_per_io;
	return e;
}

Test(envcmp, the_workers_cpu_wait_explains_a_slowdown_only_when_it_covers_the_whole_change)
{
	/* BASE 100 us an I/O, 20 of them waiting for a CPU; CUR 150 us */
	struct env_side b = timed(0.9, 100, 20, 0), waited = timed(0.9, 150, 68, 0),
			notenough = timed(0.9, 150, 40, 0), busier = timed(0.2, 100, 20, 0),
			half = timed(0.9, 150, 46, 0), edge = timed(0.9, 150, 66, 0);
	char why[300];

	cr_assert(env_explains(&b, &waited, true, T, why, sizeof(why)), "48 of 50 us more waited");
	cr_assert_not_null(strstr(why, "waited for a CPU 68 us an I/O in CUR against 20 us in BASE: 48 us"), "%s", why);
	cr_assert_not_null(strstr(why, "of the 50 us more each I/O took (150 us an I/O in CUR, 100 in BASE"), "%s", why);
	/* 46 of 50 us: the 4 us left are within the threshold's 5% of 100 us */
	cr_assert(env_explains(&b, &edge, true, T, why, sizeof(why)), "%s", why);
	/* 26 of the 50 us more waited: 24 us, a 24% slowdown, is left to the path */
	cr_assert_not(env_explains(&b, &half, true, T, why, sizeof(why)), "%s", why);
	cr_assert_not(env_explains(&b, &notenough, true, T, why, sizeof(why)), "20 of 50 us: the path's");
	cr_assert_not(env_explains(&waited, &b, true, T, why, sizeof(why)), "BASE slower: nothing to excuse");
	cr_assert(env_explains(&waited, &b, false, T, why, sizeof(why)), "BASE slower and waited: CUR better");
	/* recorded wait replaces the machine's CPU share: 70 points more, no more waiting */
	cr_assert_not(env_explains(&busier, &notenough, true, T, why, sizeof(why)), "%s", why);
}

/* A change within the threshold is excused only by an environment that changed by as much. */
Test(envcmp, an_environment_change_below_the_threshold_excuses_nothing)
{
	/* a tail regressed; the time per I/O moved 4 us of 100, 3 of them waiting */
	struct env_side b = timed(0.9, 100, 20, 0), cur = timed(0.9, 104, 23, 0);
	char why[300];

	cr_assert_not(env_explains(&b, &cur, true, T, why, sizeof(why)), "%s", why);
	cur = timed(0.9, 104, 26, 0);
	cr_assert(env_explains(&b, &cur, true, T, why, sizeof(why)), "6 us more waited, 4 us more taken");
}

/* A side that also recorded its workers' times put on a CPU: wakeups an I/O, us a wait. */
static struct env_side woken(double us_per_io, double wakes_per_io, double wait_per_wake_us)
{
	struct env_side e = timed(0.9, us_per_io, wakes_per_io * wait_per_wake_us, 0);

	e.wakes_per_io = wakes_per_io;
	e.wait_per_wake = wait_per_wake_us / 1e6;
	return e;
}

Test(envcmp, a_path_that_wakes_its_worker_more_often_is_not_excused_by_its_own_wait)
{
	/* 40 us a wait on both sides; CUR wakes 1.3 times an I/O (a second sleep), 100 -> 150 us */
	struct env_side b = woken(100, 1.0, 40), own = woken(150, 1.3, 40),
			busier = woken(150, 1.0, 80), some = woken(150, 1.3, 50);
	char why[300];

	/* per I/O it waited 52 against 40 us, 12 of 50 us more; and none of it is the machine's */
	cr_assert_not(env_explains(&b, &own, true, T, why, sizeof(why)), "%s", why);
	/* the same slowdown measured before wakeups were recorded: 64 of 100 us more waited */
	own.wait_per_io = 104e-6;
	own.time_per_io = 200e-6;
	own.rest_per_io = 96e-6;
	cr_assert_not(env_explains(&b, &own, true, T, why, sizeof(why)), "each wait as long: %s", why);
	own.wakes_per_io = own.wait_per_wake = NAN;
	cr_assert_not(env_explains(&b, &own, true, T, why, sizeof(why)), "no wakeups recorded: 64 of 100 us");
	own.wait_per_io = 138e-6;
	cr_assert(env_explains(&b, &own, true, T, why, sizeof(why)), "no wakeups recorded: 98 of 100 us waited");
	/* each wait twice as long: 40 of 50 us more is the machine's, 10 us (10%) the path's */
	cr_assert_not(env_explains(&b, &busier, true, T, why, sizeof(why)), "%s", why);
	/* each wait 2.2 times as long: 48 of 50 us */
	busier = woken(150, 1.0, 88);
	cr_assert(env_explains(&b, &busier, true, T, why, sizeof(why)), "%s", why);
	cr_assert_not_null(strstr(why, "88 us each time they woke in CUR against 40 us in BASE (1.00 and 1.00 times an I/O): 48 us"), "%s", why);
	/* 10 us more a wait at 1.3 wakeups: 13 of 50 us, the path's */
	cr_assert_not(env_explains(&b, &some, true, T, why, sizeof(why)), "%s", why);
}

Test(envcmp, others_disk_requests_explain_it_at_a_quarter_of_the_runs_own)
{
	/* 100 us an I/O: 10000 requests/s of the run's own; others' bytes alone no longer count */
	struct env_side b = timed(0.9, 100, 20, 100), many = timed(0.9, 150, 20, 3000),
			few = timed(0.9, 150, 20, 2000);
	char why[300];

	cr_assert(env_explains(&b, &many, true, T, why, sizeof(why)));
	cr_assert_not_null(strstr(why, "3000 requests/s on the disk in CUR against 100"), "%s", why);
	cr_assert_not(env_explains(&b, &few, true, T, why, sizeof(why)), "1900 more of 10000: %s", why);
	/* as many more in the median, but the sides' quartiles overlap: bursts, not a change */
	many.other_ios_q1 = 50;
	cr_assert_not(env_explains(&b, &many, true, T, why, sizeof(why)), "%s", why);
}

Test(envcmp, more_contention_on_the_slower_side_explains_it)
{
	struct env_side quiet = side(0.02, 0, 0), busy = side(0.5, 0, 0);
	char why[300];

	cr_assert(env_explains(&quiet, &busy, true, T, why, sizeof(why)), "CUR busier and worse");
	cr_assert_not_null(strstr(why, "50% of the machine's CPU time in CUR against 2% in BASE"), "%s", why);
	cr_assert_not(env_explains(&busy, &quiet, true, T, why, sizeof(why)), "BASE busier, CUR worse");
	cr_assert(env_explains(&busy, &quiet, false, T, why, sizeof(why)), "BASE busier, CUR better");
	cr_assert_not(env_explains(&quiet, &quiet, true, T, why, sizeof(why)));
}

Test(envcmp, steal_and_other_disk_traffic_explain_it_too)
{
	struct env_side b = side(0.02, 0.01, 1048576), stolen = side(0.02, 0.2, 1048576);
	struct env_side disk = side(0.02, 0.01, 30.0 * 1048576), small = side(0.02, 0.01, 3.0 * 1048576);
	char why[300];

	cr_assert(env_explains(&b, &stolen, true, T, why, sizeof(why)));
	cr_assert_not_null(strstr(why, "stole"), "%s", why);
	cr_assert(env_explains(&b, &disk, true, T, why, sizeof(why)));
	cr_assert_not_null(strstr(why, "other I/O moved 30.0 MiB/s"), "%s", why);
	cr_assert_not(env_explains(&b, &small, true, T, why, sizeof(why)), "2 MiB/s more is not enough");
}

/* A side that recorded the disk's time in flight: others' requests in flight, us an own I/O. */
static struct env_side flown(double us_per_io, double wait_us, double other_flight, double own_flight_us)
{
	struct env_side e = timed(0.9, us_per_io, wait_us, 100);

	e.other_flight = other_flight;
	e.other_flight_q1 = 0.9 * other_flight;		/* steady: its repeats within 10% */
	e.other_flight_q3 = 1.1 * other_flight;
	e.own_flight_per_io = own_flight_us / 1e6;
	e.other_busy = 0;
	return e;
}

Test(envcmp, others_time_in_flight_on_the_disk_explains_what_it_overlapped)
{
	/* BASE 100 us an I/O, 90 of them in flight, 0.1 of others' requests in flight beside */
	struct env_side b = flown(100, 20, 0.1, 90), writer = flown(150, 20, 0.7, 130),
			less = flown(150, 20, 0.3, 110), both = flown(150, 45, 0.35, 110);
	char why[400];

	/* each 90 us I/O beside 1.7 requests, not 1.1: 49 of the 50 us more */
	cr_assert(env_explains(&b, &writer, true, T, why, sizeof(why)), "%s", why);
	cr_assert_not_null(strstr(why, "others' requests in flight on the disk 0.70 on average in CUR against 0.10 in BASE "
				       "(each of BASE's 90 us I/Os sharing it with 1.55 times as many): 49 us"), "%s", why);
	/* 16 of 50 us: a real slowdown beside a busier disk is still the path's */
	cr_assert_not(env_explains(&b, &less, true, T, why, sizeof(why)), "%s", why);
	/* the CPU wait's 25 us and the disk's 20 us together */
	cr_assert(env_explains(&b, &both, true, T, why, sizeof(why)), "%s", why);
	cr_assert_not_null(strstr(why, "25 us; others' requests"), "%s", why);
	/* 20 more beside the 50 others already keep in flight: 35 us, not 1800 */
	b = flown(100, 20, 50, 90);
	writer = flown(150, 20, 70, 130);
	cr_assert_not(env_explains(&b, &writer, true, T, why, sizeof(why)), "%s", why);
	b = flown(100, 20, 0.1, 90);
	writer = flown(150, 20, 0.7, 130);
	/* as many more in the median, but the sides' quartiles overlap: a spread, not a change */
	writer.other_flight_q1 = 0.1;
	cr_assert_not(env_explains(&b, &writer, true, T, why, sizeof(why)), "%s", why);
	writer = flown(150, 20, 0.7, 130);
	/* BASE's disk busier: nothing excuses CUR */
	cr_assert_not(env_explains(&writer, &b, true, T, why, sizeof(why)), "%s", why);
}

Test(envcmp, where_the_disk_time_is_recorded_request_counts_excuse_nothing)
{
	/* 2900 more requests a second of others' (the old rule's 25% of 10000), as long in flight */
	struct env_side b = flown(100, 20, 0.1, 90), many = flown(150, 20, 0.1, 90);
	char why[300];

	b.other_ios = 100;
	many.other_ios = 3000;
	many.other_ios_q1 = 2700;
	many.other_ios_q3 = 3300;
	cr_assert_not(env_explains(&b, &many, true, T, why, sizeof(why)), "%s", why);
	many.other_flight = many.own_flight_per_io = NAN;
	cr_assert(env_explains(&b, &many, true, T, why, sizeof(why)), "not recorded on one side: by requests");
}

Test(envcmp, an_unrecorded_side_explains_nothing)
{
	struct env_side none = { 0 }, busy = side(0.9, 0.3, 0);
	char why[300];

	cr_assert_not(env_explains(&none, &busy, true, T, why, sizeof(why)));
}

/* A side that timed the control references too: on-CPU us an I/O, ns a round and a load. */
static struct env_side refd(double us_per_io, double oncpu_us, double cpu_ns, double mem_ns)
{
	struct env_side e = timed(0.5, us_per_io, 0, 0);

	e.oncpu_per_io = oncpu_us / 1e6;
	e.ref_cpu = cpu_ns;
	e.ref_mem = mem_ns;
	return e;
}

/*
 * The references are shown, never weighed: measured, they did not follow the workers' time
 * on a CPU (docs/statistics.md). BASE 100 us an I/O, 40 of them on a CPU; CUR's on-CPU time
 * 30% longer beside a CPU reference 30% slower, or a memory one 50% slower: still the path's.
 */
Test(envcmp, the_control_references_are_shown_and_excuse_nothing)
{
	struct env_side b = refd(100, 40, 2.2, 200), cpu_slow = refd(112, 52, 2.86, 200),
			mem_slow = refd(112, 52, 2.2, 300);
	char why[400], text[400];

	cr_assert_not(env_explains(&b, &cpu_slow, true, T, why, sizeof(why)), "%s", why);
	cr_assert_not(env_explains(&b, &mem_slow, true, T, why, sizeof(why)), "%s", why);
	env_describe(&cpu_slow, text, sizeof(text));
	cr_assert_not_null(strstr(text, "references 2.86 ns a CPU round, 200 ns a memory load"), "%s", text);
	env_describe(&b, text, sizeof(text));
	b.ref_cpu = NAN;
	env_describe(&b, why, sizeof(why));
	cr_assert_null(strstr(why, "references"), "%s", why);
}
