/* Unit tests: the option table and job-text parsing. */
#include <criterion/criterion.h>
#include <string.h>

#include "job.h"
#include "options.h"

static struct job_list jobs;
static struct job_parser parser;
static struct iop_err err;

static void setup(void)
{
	memset(&jobs, 0, sizeof(jobs));
	memset(&err, 0, sizeof(err));
	job_parser_init(&parser, &jobs);
}

static void teardown(void)
{
	job_list_free(&jobs);
}

static int parse(const char *text)
{
	int ret = job_parse_text(&parser, text, "test.fio", &err);

	return ret ? ret : job_parser_finish(&parser, &err);
}

TestSuite(job_parse, .init = setup, .fini = teardown);

Test(job_parse, defaults_follow_fio)
{
	cr_assert_eq(parse("[a]\n"), 0);
	cr_assert_eq(jobs.nr, 1);
	cr_assert_eq(jobs.jobs[0].bs[0], 4096);
	cr_assert_eq(jobs.jobs[0].iodepth, 1);
	cr_assert_eq(jobs.jobs[0].rw, RW_READ);
	cr_assert(jobs.jobs[0].invalidate);
	cr_assert(jobs.jobs[0].randrepeat);
	cr_assert_str_eq(jobs.jobs[0].engine->name, "psync");
}

Test(job_parse, global_section_is_inherited)
{
	cr_assert_eq(parse("[global]\nbs=64k\nrw=randread\n[a]\n[b]\nbs=8k\n"), 0);
	cr_assert_eq(jobs.nr, 2);
	cr_assert_eq(jobs.jobs[0].bs[0], 65536);
	cr_assert_eq(jobs.jobs[0].rw, RW_RANDREAD);
	cr_assert_eq(jobs.jobs[1].bs[0], 8192);
	cr_assert_str_eq(jobs.jobs[1].name, "b");
}

Test(job_parse, later_global_affects_only_later_jobs)
{
	cr_assert_eq(parse("[a]\n[global]\niodepth=8\n[b]\n"), 0);
	cr_assert_eq(jobs.jobs[0].iodepth, 1);
	cr_assert_eq(jobs.jobs[1].iodepth, 8);
}

Test(job_parse, comments_and_spaces)
{
	cr_assert_eq(parse("; comment\n# another\n[a]\n  bs = 16k  \n"), 0);
	cr_assert_eq(jobs.jobs[0].bs[0], 16384);
}

Test(job_parse, rejects_unknown_key)
{
	cr_assert_neq(parse("[a]\nblocksizee=4k\n"), 0);
	cr_assert_not_null(strstr(err.msg, "test.fio:2"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "unknown option 'blocksizee'"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "did you mean 'blocksize'"), "%s", err.msg);
}

Test(job_parse, rejects_bare_option_that_needs_value)
{
	cr_assert_neq(parse("[a]\ndirect\n"), 0);
	cr_assert_not_null(strstr(err.msg, "needs a value"), "%s", err.msg);
}

Test(job_parse, bare_flags_are_accepted)
{
	cr_assert_eq(parse("[a]\nruntime=1\ntime_based\nnorandommap\ngroup_reporting\n"), 0);
	cr_assert(jobs.jobs[0].time_based);
	cr_assert(jobs.jobs[0].norandommap);
}

Test(job_parse, rejects_unterminated_section)
{
	cr_assert_neq(parse("[a\nbs=4k\n"), 0);
	cr_assert_not_null(strstr(err.msg, "no closing"), "%s", err.msg);
}

Test(job_parse, rejects_empty_section_name)
{
	cr_assert_neq(parse("[ ]\n"), 0);
	cr_assert_not_null(strstr(err.msg, "empty section"), "%s", err.msg);
}

Test(job_parse, rejects_value_without_key)
{
	cr_assert_neq(parse("[a]\n=4k\n"), 0);
	cr_assert_not_null(strstr(err.msg, "without an option name"), "%s", err.msg);
}

Test(job_parse, per_direction_block_sizes)
{
	cr_assert_eq(parse("[a]\nbs=4k,64k\n"), 0);
	cr_assert_eq(jobs.jobs[0].bs[0], 4096);
	cr_assert_eq(jobs.jobs[0].bs[1], 65536);
}

Test(job_parse, rwmixwrite_sets_read_share)
{
	cr_assert_eq(parse("[a]\nrw=randrw\nrwmixwrite=30\n"), 0);
	cr_assert_eq(jobs.jobs[0].rwmixread, 70);
}

Test(job_parse, rejects_bad_values_with_accepted_forms)
{
	cr_assert_neq(parse("[a]\nbs=0\n"), 0);
	cr_assert_not_null(strstr(err.msg, "accepted"), "%s", err.msg);
	setup();
	cr_assert_neq(parse("[a]\nrw=sideways\n"), 0);
	cr_assert_not_null(strstr(err.msg, "randread"), "%s", err.msg);
	setup();
	cr_assert_neq(parse("[a]\niodepth=0\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\nioengine=posixaio\n"), 0);
	cr_assert_not_null(strstr(err.msg, "io_uring"), "%s", err.msg);
}

Test(job_parse, engine_options_belong_to_their_engine)
{
	cr_assert_eq(parse("[a]\nioengine=io_uring\nfixedbufs\nsqthread_poll_cpu=1\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\nioengine=libaio\nfixedbufs\n"), 0);
	cr_assert_not_null(strstr(err.msg, "belongs to ioengine=io_uring"), "%s", err.msg);
}

Test(job_parse, odirect_alias_forces_direct)
{
	cr_assert_eq(parse("[a]\nioengine=odirect\n"), 0);
	cr_assert(jobs.jobs[0].direct);
	cr_assert_str_eq(jobs.jobs[0].engine->name, "psync");
}

Test(job_parse, buffered_is_inverse_of_direct)
{
	cr_assert_eq(parse("[a]\nbuffered=0\n"), 0);
	cr_assert(jobs.jobs[0].direct);
}

Test(job_parse, stonewall_starts_a_new_group)
{
	cr_assert_eq(parse("[a]\n[b]\n[c]\nstonewall\n[d]\n"), 0);
	cr_assert_eq(jobs.jobs[0].groupid, 0);
	cr_assert_eq(jobs.jobs[1].groupid, 0);
	cr_assert_eq(jobs.jobs[2].groupid, 1);
	cr_assert_eq(jobs.jobs[3].groupid, 1);
}

Test(job_parse, verify_with_diskless_engine_is_refused)
{
	cr_assert_neq(parse("[a]\nioengine=null\nverify=crc32c\nsize=1m\n"), 0);
}

Test(job_parse, kv_records_options_for_the_report)
{
	cr_assert_eq(parse("[global]\nbs=8k\n[a]\nrw=write\n"), 0);
	cr_assert_eq(jobs.jobs[0].nr_kv, 2);
	cr_assert_str_eq(jobs.jobs[0].kv[0].key, "bs");
	cr_assert_str_eq(jobs.jobs[0].kv[1].val, "write");
}

Test(option_table, every_entry_has_help_and_a_parser)
{
	const struct opt_def *o;

	for (o = opt_table; o->name; o++) {
		cr_assert_not_null(o->help, "%s has no help", o->name);
		if (o->type == OPT_FN)
			cr_assert_not_null(o->fn, "%s has no parser", o->name);
		else
			cr_assert_gt(o->size, 0, "%s has no field", o->name);
	}
}

Test(option_table, names_are_unique)
{
	const struct opt_def *a, *b;

	for (a = opt_table; a->name; a++)
		for (b = a + 1; b->name; b++) {
			cr_assert_str_neq(a->name, b->name);
			if (a->alias)
				cr_assert(!b->alias || strcmp(a->alias, b->alias));
		}
}
