/* Unit tests: the option table and job-text parsing. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/job.h"
#include "job/fio_unsupported.h"
#include "job/options.h"
#include "unit/jobtext.h"

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
	cr_assert(jobs.jobs[0].time.based);
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
	cr_assert_neq(parse("[a]\nioengine=net\n"), 0);
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

Test(job_parse, fio_option_iopath_lacks_is_refused_by_name)
{
	cr_assert_neq(parse("[a]\nwrite_barrier=4\n"), 0);
	cr_assert_not_null(strstr(err.msg, "test.fio:2"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "fio option 'write_barrier' is not supported by iopath"),
			   "%s", err.msg);
}

Test(job_parse, fio_option_at_its_default_changes_nothing)
{
	cr_assert_eq(parse("[a]\nlockfile=none\n"), 0, "%s", err.msg);
}

Test(job_parse, ignore_unsupported_warns_instead)
{
	parser.ignore_unsupported = true;
	cr_assert_eq(parse("[a]\nwrite_barrier=4\n"), 0, "%s", err.msg);
	cr_assert_eq(parser.nr_warnings, 1);
	cr_assert_not_null(strstr(parser.warnings[0], "write_barrier"), "%s", parser.warnings[0]);
	job_parser_free(&parser);
}

Test(job_parse, fio_engine_option_is_refused_naming_the_engine)
{
	cr_assert_neq(parse("[a]\nuserspace_reap\n"), 0);
	cr_assert_not_null(strstr(err.msg, "of fio's libaio ioengine is not supported"), "%s",
			   err.msg);
}

Test(job_parse, fio_engine_iopath_lacks_is_refused_by_name)
{
	cr_assert_neq(parse("[a]\nioengine=net\n"), 0);
	cr_assert_not_null(strstr(err.msg, "fio's net engine is not supported by iopath"),
			   "%s", err.msg);
}

Test(job_parse, engine_is_applied_before_its_options)
{
	/* fio sorts ioengine (and kb_base) first within a section */
	cr_assert_eq(parse("[a]\nsize=1k\nfixedbufs\nkb_base=1000\nioengine=io_uring\n"), 0, "%s",
		     err.msg);
	cr_assert_eq(jobs.jobs[0].sizes.size, 1000);
}

Test(job_parse, comment_anywhere_on_a_line)
{
	cr_assert_eq(parse("[a] ; job a\nbs=8k # eight\n"), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].bs[0], 8192);
}

Test(job_parse, option_outside_a_section_is_refused)
{
	cr_assert_neq(parse("bs=4k\n[a]\n"), 0);
	cr_assert_not_null(strstr(err.msg, "outside of any [section]"), "%s", err.msg);
}

Test(job_parse, new_group_starts_a_reporting_group_without_a_phase)
{
	cr_assert_eq(parse("[a]\n[b]\nnew_group\n[c]\nstonewall\n"), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[1].groupid, 1);
	cr_assert_eq(jobs.jobs[1].phase, 0);
	cr_assert_eq(jobs.jobs[2].groupid, 2);
	cr_assert_eq(jobs.jobs[2].phase, 1);
}

Test(job_parse, wait_for_must_name_an_earlier_unique_job)
{
	cr_assert_eq(parse("[a]\n[b]\nwait_for=a\n"), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[1].wait_for_index, 0);
	setup();
	cr_assert_neq(parse("[a]\nwait_for=b\n[b]\n"), 0);
	cr_assert_not_null(strstr(err.msg, "defined before"), "%s", err.msg);
	setup();
	cr_assert_neq(parse("[a]\nwait_for=zz\n"), 0);
	cr_assert_not_null(strstr(err.msg, "no job of that name"), "%s", err.msg);
}

Test(job_parse, startdelay_range_and_units)
{
	cr_assert_eq(parse("[a]\nstartdelay=5-2\n[b]\nstartdelay=500ms\n"), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].time.startdelay_ns, 2000000000ull);
	cr_assert_eq(jobs.jobs[0].time.startdelay_max_ns, 5000000000ull);
	cr_assert_eq(jobs.jobs[1].time.startdelay_ns, 500000000ull);
}

Test(job_parse, environment_and_keywords_are_substituted)
{
	setenv("IOPATH_TEST_BS", "16k", 1);
	cr_assert_eq(parse("[a]\nbs=${IOPATH_TEST_BS}\nnumjobs=$ncpus\nsize=2*$pagesize\n"), 0,
		     "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].bs[0], 16384);
	cr_assert_eq(jobs.jobs[0].numjobs, (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	cr_assert_eq(jobs.jobs[0].sizes.size, 2 * (uint64_t)sysconf(_SC_PAGESIZE));
}

Test(job_parse, size_percentage)
{
	cr_assert_eq(parse("[a]\nsize=25%\noffset=10%\n"), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].sizes.size_pct, 25);
	cr_assert_eq(jobs.jobs[0].sizes.offset_pct, 10);
}

Test(job_parse, later_job_file_starts_from_defaults_behind_a_stonewall)
{
	cr_assert_eq(job_parse_text(&parser, "[global]\nbs=8k\n[a]\n", "one.fio", &err), 0);
	cr_assert_eq(job_parse_text(&parser, "[b]\n[c]\n", "two.fio", &err), 0);
	cr_assert_eq(job_parser_finish(&parser, &err), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[1].bs[0], 4096);
	cr_assert(jobs.jobs[1].stonewall);
	cr_assert(!jobs.jobs[2].stonewall);
	cr_assert_eq(jobs.jobs[1].phase, 1);
}

Test(job_parse, section_filter_keeps_globals)
{
	static const char *const only[] = { "b" };

	parser.sections = only;
	parser.nr_sections = 1;
	cr_assert_eq(parse("[global]\nbs=8k\n[a]\n[b]\n"), 0, "%s", err.msg);
	cr_assert_eq(jobs.nr, 1);
	cr_assert_str_eq(jobs.jobs[0].name, "b");
	cr_assert_eq(jobs.jobs[0].bs[0], 8192);
}

Test(job_parse, profile_option_is_accepted_with_a_note)
{
	cr_assert_eq(parse("[a]\nthreads=1\n"), 0, "%s", err.msg);
	cr_assert_eq(parser.nr_warnings, 1);
	job_parser_free(&parser);
}

Test(fio_unsupported, lists_nothing_iopath_implements)
{
	const struct fio_unsupported *u;

	for (u = fio_unsupported_table; u->name; u++) {
		if (u->kind == FIO_JOB_OPTION || u->kind == FIO_ENGINE_OPTION)
			cr_assert_null(opt_find(u->name),
				       "%s is in opt_table: delete its line in core/job/fio_unsupported.c",
				       u->name);
		if (u->kind == FIO_ENGINE)
			cr_assert_null(engine_find(u->name), "%s is an iopath engine", u->name);
	}
}

/* Word options store each word's value in their field, and a bad word lists the words. */
Test(job_parse, word_options_store_their_values)
{
	cr_assert_eq(parse("[a]\nrate_process=poisson\ndedupe_mode=working_set\n"
			   "io_submit_mode=offload\nrandom_generator=lfsr\nexit_what=stonewall\n"
			   "rw_sequencer=identical\nfadvise_hint=random\nunit_base=1\nrw=randread\n"
			   "ioengine=psync\n"), 0, "%s", err.msg);
	cr_assert(jobs.jobs[0].rate.poisson);
	cr_assert(jobs.jobs[0].buf.dedupe_ws);
	cr_assert(jobs.jobs[0].submit_offload);
	cr_assert_eq(jobs.jobs[0].rand_gen, RAND_GEN_LFSR);
	cr_assert_eq(jobs.jobs[0].exit_what, EXIT_STONEWALL);
	cr_assert(jobs.jobs[0].seq_identical);
	cr_assert_eq(jobs.jobs[0].fadvise_hint, FADV_HINT_RANDOM);
	cr_assert_eq(jobs.jobs[0].unit_base, 1);
	setup();
	cr_assert_eq(parse("[a]\nrandom_generator=tausworthe64\nexit_what=all\nunit_base=0\n"), 0,
		     "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].rand_gen, RAND_GEN_TAUSWORTHE64);
	cr_assert_eq(jobs.jobs[0].exit_what, EXIT_ALL);
	cr_assert_eq(jobs.jobs[0].unit_base, 8);
	setup();
	cr_assert_neq(parse("[a]\nexit_what=everything\n"), 0);
	cr_assert_not_null(strstr(err.msg, "(accepted: group, stonewall, all)"), "%s", err.msg);
}
