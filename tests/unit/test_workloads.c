/* Unit tests: the workload library's scaling, and the rw=copy / rw=metadata option checks. */
#include <criterion/criterion.h>
#include <string.h>

#include "job/job.h"
#include "job/options.h"
#include "job/workloads.h"
#include "jobtext.h"

TestSuite(workload_scale, .init = setup, .fini = teardown);

Test(workload_scale, parses_fractions_ratios_and_percent)
{
	double f;

	cr_assert_eq(workload_parse_scale("0.5", &f), 0);
	cr_assert_float_eq(f, 0.5, 1e-12);
	cr_assert_eq(workload_parse_scale("1/64", &f), 0);
	cr_assert_float_eq(f, 1.0 / 64, 1e-12);
	cr_assert_eq(workload_parse_scale("5%", &f), 0);
	cr_assert_float_eq(f, 0.05, 1e-12);
	cr_assert_neq(workload_parse_scale("2", &f), 0);
	cr_assert_neq(workload_parse_scale("0", &f), 0);
	cr_assert_neq(workload_parse_scale("x", &f), 0);
}

Test(workload_scale, every_builtin_workload_parses)
{
	const struct builtin_workload *w;
	struct workload_setup ws = { .directory = "/tmp", .scale = 1 };

	for (w = builtin_workloads; w->name; w++) {
		cr_assert_eq(workload_load(w, &ws, &jobs, &err), 0, "%s: %s", w->name, err.msg);
		cr_assert(w->description[0], "%s has no description", w->name);
		job_list_free(&jobs);
	}
}

Test(workload_scale, large_blocks_shrink_with_the_size)
{
	struct workload_setup ws = { .scale = 1.0 / 100 };

	cr_assert_eq(workload_load(workload_find("dd-zero"), &ws, &jobs, &err), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].sizes.size / jobs.jobs[0].bs[DDIR_WRITE], 10);
	cr_assert_eq(jobs.jobs[0].bs[DDIR_WRITE] % 4096, 0);
}

Test(workload_scale, small_blocks_and_runtime_floor)
{
	struct workload_setup ws = { .scale = 1.0 / 100000 };

	cr_assert_eq(workload_load(workload_find("randread-4k-qd1"), &ws, &jobs, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(jobs.jobs[0].bs[DDIR_READ], 4096);
	cr_assert_geq(jobs.jobs[0].sizes.size, 4096);
	cr_assert_eq(jobs.jobs[0].time.runtime_ns, 100000000ull);
}

Test(workload_scale, metadata_scales_its_file_count)
{
	struct workload_setup ws = { .scale = 1.0 / 100 };

	cr_assert_eq(workload_load(workload_find("metadata"), &ws, &jobs, &err), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].nrfiles, 100);
}

Test(workload_scale, override_comes_after_the_scale)
{
	struct workload_override ov[] = { { "size", "8m" } };
	struct workload_setup ws = { .scale = 1.0 / 1000, .overrides = ov, .nr_overrides = 1 };

	cr_assert_eq(workload_load(workload_find("seqread-1m"), &ws, &jobs, &err), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].sizes.size, 8u << 20);
}

TestSuite(copy_opts, .init = setup, .fini = teardown);

Test(copy_opts, needs_a_source)
{
	cr_assert_neq(parse("[c]\nrw=copy\nfilename=d\n"), 0);
	cr_assert_not_null(strstr(err.msg, "copy_from"), "%s", err.msg);
}

Test(copy_opts, refuses_numjobs)
{
	cr_assert_neq(parse("[c]\nrw=copy\ncopy_from=s\nfilename=d\nnumjobs=2\n"), 0);
	cr_assert_not_null(strstr(err.msg, "numjobs"), "%s", err.msg);
}

Test(copy_opts, refuses_split_block_sizes)
{
	cr_assert_neq(parse("[c]\nrw=copy\ncopy_from=s\nfilename=d\nbs=4k,8k\n"), 0);
}

Test(copy_opts, copy_from_needs_rw_copy)
{
	cr_assert_neq(parse("[c]\nrw=read\ncopy_from=s\nfilename=d\n"), 0);
}

TestSuite(metadata_opts, .init = setup, .fini = teardown);

Test(metadata_opts, refuses_an_engine)
{
	cr_assert_neq(parse("[m]\nrw=metadata\nioengine=io_uring\n"), 0);
	cr_assert_not_null(strstr(err.msg, "ioengine=io_uring"), "%s", err.msg);
}

Test(metadata_opts, its_options_are_refused_elsewhere)
{
	cr_assert_neq(parse("[m]\nrw=read\nfiles_per_dir=4\n"), 0);
	cr_assert_not_null(strstr(err.msg, "rw=metadata"), "%s", err.msg);
}

Test(metadata_opts, file_append_needs_sequential_writes)
{
	cr_assert_neq(parse("[w]\nrw=randwrite\nfile_append\n"), 0);
	job_list_free(&jobs);
	cr_assert_eq(parse("[w]\nrw=write\nfile_append\n"), 0, "%s", err.msg);
}
