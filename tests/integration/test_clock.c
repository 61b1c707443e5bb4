/* clocksource: fio's option, the clock that ran said in the result. */
#include <criterion/criterion.h>
#include <string.h>

#include "integration/harness.h"

/* the temporary directories each test made go with it */
TestSuite(clocksource, .fini = tmpdir_cleanup);

static json_t *null_job(const char *clock_opt)
{
	return iopath_json_ok(tmpdir_make(), "--name=t", "--size=16m", "--rw=randread",
			      "--ioengine=null", clock_opt, NULL);
}

static const char *clock_of(json_t *root)
{
	json_t *io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");

	return json_string_value(json_object_get(io, "clocksource"));
}

Test(clocksource, clock_gettime_is_reported_as_run)
{
	json_t *root = null_job("--clocksource=clock_gettime");

	cr_assert_str_eq(clock_of(root), "clock_gettime");
	json_decref(root);
}

Test(clocksource, default_names_the_clock_it_chose)
{
	json_t *root = null_job("--randrepeat=1");
	const char *c = clock_of(root);

	cr_assert(c && (!strcmp(c, "cpu") || !strcmp(c, "clock_gettime")), "clocksource %s", c);
	json_decref(root);
}

Test(clocksource, gettimeofday_runs_on_clock_gettime_and_says_so)
{
	json_t *root = null_job("--clocksource=gettimeofday");
	json_t *io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");
	const char *given = json_string_value(json_object_get(io, "clocksource_given"));

	cr_assert_str_eq(clock_of(root), "clock_gettime");
	cr_assert(given && strstr(given, "gettimeofday"), "clocksource_given %s", given);
	json_decref(root);
}

Test(clocksource, unknown_clock_is_refused_with_what_is_accepted)
{
	struct run_out r = iopath_run("--name=t", "--size=16m", "--ioengine=null",
				      "--clocksource=sundial", NULL);

	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "clocksource") && strstr(r.err, "gettimeofday"), "%s", r.err);
	run_out_free(&r);
}

Test(clocksource, result_says_how_often_the_clock_was_read)
{
	json_t *root = null_job("--iodepth=4");
	json_t *io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");
	const char *reads = json_string_value(json_object_get(io, "clock_reads"));

	cr_assert(reads && strstr(reads, "once per reap call"), "%s", reads);
	json_decref(root);
}
