/* The SQPOLL thread's CPU time is reported with the job, not hidden. */
#include <criterion/criterion.h>
#include <string.h>

#include "integration/harness.h"

/* the temporary directories each test made go with it */
TestSuite(sqpoll, .fini = tmpdir_cleanup);

Test(sqpoll, thread_cpu_is_reported_apart_from_the_worker)
{
	const char *dir = tmpdir_make();
	char file[300], out[300];
	struct run_out r;
	json_t *root, *io, *kt;
	const char *seen;

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	r = iopath_run("--name=t", file, "--size=4m", "--rw=randread", "--ioengine=io_uring",
		       "--sqthread_poll=1", "--iodepth=8", "--runtime=300ms", "--time_based",
		       "--output-format=json", out, NULL);
	if (r.status == 1 && strstr(r.err, "io_uring"))
		cr_skip_test("no SQPOLL ring here: %s", r.err);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	root = json_load_path(out);
	io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");
	seen = json_string_value(json_object_get(json_object_get(io, "engine_applied"),
						 "sqpoll_thread"));
	cr_assert_not_null(seen, "engine_applied says nothing about the SQPOLL thread");
	if (strncmp(seen, "found", 5))
		cr_skip_test("the kernel does not show the SQPOLL thread as a task: %s", seen);
	kt = json_object_get(io, "kernel_threads");
	cr_assert_not_null(kt, "no kernel_threads in the result");
	cr_assert_eq(json_integer_value(json_object_get(kt, "threads")), 1);
	cr_assert(json_is_number(json_object_get(kt, "sys_cpu")));
	json_decref(root);
}

Test(sqpoll, no_kernel_threads_without_sqpoll)
{
	const char *dir = tmpdir_make();
	char file[300], out[300];
	struct run_out r;
	json_t *root, *io;

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	r = iopath_run("--name=t", file, "--size=1m", "--rw=randread", "--ioengine=io_uring",
		       "--iodepth=4", "--output-format=json", out, NULL);
	if (r.status == 1 && strstr(r.err, "io_uring"))
		cr_skip_test("no io_uring here: %s", r.err);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	root = json_load_path(out);
	io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");
	cr_assert_null(json_object_get(io, "kernel_threads"));
	json_decref(root);
}
