/* The SQPOLL thread's CPU time is reported with the job, not hidden. */
#include <criterion/criterion.h>
#include <string.h>

#include "integration/harness.h"

/* the temporary directories each test made go with it */
TestSuite(sqpoll, .fini = tmpdir_cleanup);

/*
 * iopath reading dir/data through io_uring with the arguments (NULL ends them); its job's
 * "iopath" object, the whole result in *root. Skipped where what (the ring) cannot be had.
 */
static json_t *uring_job(const char *dir, const char *what, const char *const *args, json_t **root)
{
	char *argv[24];
	unsigned n = 0;
	struct run_out r;

	argv[n++] = (char *)"iopath";
	argv[n++] = (char *)"--name=t";
	argv[n++] = tmp_str("--filename=%s/data", dir);
	argv[n++] = (char *)"--rw=randread";
	argv[n++] = (char *)"--ioengine=io_uring";
	argv[n++] = (char *)"--output-format=json";
	argv[n++] = tmp_str("--output=%s/out.json", dir);
	for (; *args && n < 23; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	r = iopath_runv(argv);
	if (r.status == 1 && strstr(r.err, "io_uring"))
		cr_skip_test("no %s here: %s", what, r.err);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	*root = json_load_path(tmp_str("%s/out.json", dir));
	return json_object_get(json_array_get(json_object_get(*root, "jobs"), 0), "iopath");
}

Test(sqpoll, thread_cpu_is_reported_apart_from_the_worker)
{
	const char *args[] = { "--size=4m", "--sqthread_poll=1", "--iodepth=8", "--runtime=300ms",
			       "--time_based", NULL };
	json_t *root, *io = uring_job(tmpdir_make(), "SQPOLL ring", args, &root), *kt;
	const char *seen;

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
	const char *args[] = { "--size=1m", "--iodepth=4", NULL };
	json_t *root, *io = uring_job(tmpdir_make(), "io_uring", args, &root);

	cr_assert_null(json_object_get(io, "kernel_threads"));
	json_decref(root);
}
