/* The SQPOLL thread's CPU time is reported with the job, not hidden. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

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

/*
 * A ring without its SQ index array (IORING_SETUP_NO_SQARRAY, Linux 6.6 and later) takes each
 * SQE from the slot it was written to: written data read back and verified through it, with
 * and without the SQPOLL thread. An older kernel keeps the array, and says so.
 */
Test(sqpoll, ring_without_sq_array_carries_verified_data)
{
	const char *plain[] = { "--size=2m", "--rw=randwrite", "--verify=crc32c", "--iodepth=16",
				"--iodepth_batch_submit=8", "--iodepth_batch_complete_max=8", NULL };
	const char *sqp[] = { "--size=2m", "--rw=randwrite", "--verify=crc32c", "--iodepth=16",
			      "--sqthread_poll=1", "--fixedbufs=1", "--registerfiles=1", NULL };
	const char *const *jobs[] = { plain, sqp };
	struct utsname u;
	int major = 0, minor = 0;
	unsigned i;

	cr_assert_eq(uname(&u), 0);
	sscanf(u.release, "%d.%d", &major, &minor);
	for (i = 0; i < 2; i++) {
		json_t *root, *io = uring_job(tmpdir_make(), "io_uring", jobs[i], &root);
		json_t *job = json_array_get(json_object_get(root, "jobs"), 0);
		const char *arr = json_string_value(json_object_get(json_object_get(io, "engine_applied"),
								    "sq_array"));

		cr_assert_not_null(arr, "engine_applied says nothing about the SQ array");
		cr_assert_eq(json_integer_value(json_object_get(job, "error")), 0);
		cr_assert_eq(json_integer_value(json_object_get(json_object_get(job, "read"), "total_ios")),
			     512, "the verify pass read back %lld of 512 blocks",
			     json_integer_value(json_object_get(json_object_get(job, "read"), "total_ios")));
		if (major > 6 || (major == 6 && minor >= 6))
			cr_assert_str_eq(arr, "none (IORING_SETUP_NO_SQARRAY)", "kernel %s", u.release);
		else
			cr_assert_str_eq(arr, "identity", "kernel %s", u.release);
		json_decref(root);
	}
}
