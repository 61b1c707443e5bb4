/*
 * Integration: continue_on_error, ignore_error and error_dump against injected errors (faultfs),
 * with the numbers fio 3.33 gives for the same runs (psync, 64 KiB in 4 KiB writes, every 4th
 * write failing: 12 writes land, 16 are issued).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "harness.h"

TestSuite(errors, .fini = mount_cleanup);

struct errrun {
	int status;
	json_t *job;		/* jobs[0] */
	json_t *root;
	char err[4096];
};

/*
 * A 64 KiB file on faultfs whose writes fail (errno, every 4th from the first), written by a
 * psync job in 4 KiB blocks with the extra options.
 */
static struct errrun run_faulty(int errnum, const char *opt1, const char *opt2)
{
	const char *dir = tmpdir_make(), *back = tmp_str("%s/back", dir);
	const char *out = tmp_str("%s/out.json", dir);
	char *argv[16] = { "iopath", "--output-format=json", tmp_str("--output=%s", out), "--name=t",
			   "--rw=write", "--bs=4k", "--size=64k", "--overwrite=1",
			   tmp_str("--filename=%s/mnt/f", dir) };
	struct errrun e = { 0 };
	struct run_out r;
	unsigned n = 9;

	snprintf(test_mnt, sizeof(test_mnt), "%s/mnt", dir);
	cr_assert_eq(sh("mkdir -p %s && head -c 65536 /dev/zero > %s/f", back, back), 0);
	faultfs_mount(back, test_mnt,
		      tmp_str("--eio-write-after=0 --errno=%d --fail-every=4", errnum));
	if (opt1)
		argv[n++] = (char *)opt1;
	if (opt2)
		argv[n++] = (char *)opt2;
	argv[n] = NULL;
	r = iopath_runv(argv);
	e.status = r.status;
	snprintf(e.err, sizeof(e.err), "%s", r.err);
	run_out_free(&r);
	e.root = json_load_path(out);
	e.job = json_array_get(json_object_get(e.root, "jobs"), 0);
	cr_assert_not_null(e.job);
	return e;
}

static long long jint(json_t *job, const char *key)
{
	json_t *v = json_object_get(job, key);

	cr_assert(json_is_integer(v), "no integer %s in the job", key);
	return json_integer_value(v);
}

static long long wint(json_t *job, const char *key)
{
	return jint(json_object_get(job, "write"), key);
}

Test(errors, ignore_error_enospc_goes_on_and_counts_as_fio)
{
	struct errrun e = run_faulty(28, "--continue_on_error=write", "--ignore_error=,ENOSPC");

	cr_assert_eq(e.status, 0, "exit %d: %s", e.status, e.err);
	cr_assert_eq(jint(e.job, "error"), 28, "fio reports the first error in error");
	cr_assert_eq(jint(e.job, "total_err"), 4);
	cr_assert_eq(jint(e.job, "first_error"), 28);
	cr_assert_eq(wint(e.job, "io_bytes"), 12 * 4096);
	cr_assert_eq(wint(e.job, "total_ios"), 16, "fio counts the failed writes as issued");
	{
		/* and so IOPS: total_ios over the runtime (fio's total_io_u), not the 12 that succeeded */
		json_t *w = json_object_get(e.job, "write");
		double iops = json_real_value(json_object_get(w, "iops"));
		double want = 16000.0 / (double)wint(e.job, "runtime");

		cr_assert(iops > want * 0.999 && iops < want * 1.001, "iops %f, want %f", iops, want);
	}
	json_decref(e.root);
}

Test(errors, eio_is_non_fatal_by_default_under_continue_on_error)
{
	struct errrun e = run_faulty(5, "--continue_on_error=write", NULL);

	cr_assert_eq(e.status, 0, "exit %d: %s", e.status, e.err);
	cr_assert_eq(jint(e.job, "total_err"), 4);
	cr_assert_eq(jint(e.job, "first_error"), 5);
	cr_assert_eq(wint(e.job, "io_bytes"), 12 * 4096);
	json_decref(e.root);
}

Test(errors, enospc_is_fatal_without_ignore_error_and_counted_on_a_sync_engine)
{
	struct errrun e = run_faulty(28, "--continue_on_error=write", NULL);

	cr_assert_eq(e.status, 1, "exit %d: %s", e.status, e.err);
	cr_assert_eq(jint(e.job, "error"), 28);
	cr_assert_eq(jint(e.job, "total_err"), 1, "fio 3.33 counts a sync engine's fatal error");
	cr_assert_eq(jint(e.job, "first_error"), 28);
	cr_assert_eq(wint(e.job, "io_bytes"), 0);
	cr_assert_eq(wint(e.job, "total_ios"), 1);
	json_decref(e.root);
}

Test(errors, read_type_does_not_cover_write_errors)
{
	struct errrun e = run_faulty(5, "--continue_on_error=read", NULL);

	cr_assert_eq(e.status, 1, "exit %d: %s", e.status, e.err);
	cr_assert_eq(jint(e.job, "error"), 5);
	cr_assert_eq(jint(e.job, "total_err"), 0);
	json_decref(e.root);
}

Test(errors, continue_on_error_after_ignore_error_resets_it_as_in_fio)
{
	struct errrun e = run_faulty(28, "--ignore_error=,ENOSPC", "--continue_on_error=none");

	cr_assert_eq(e.status, 1, "exit %d: %s", e.status, e.err);
	cr_assert_null(json_object_get(e.job, "total_err"),
		       "fio prints total_err only when continue_on_error is in force");
	json_decref(e.root);
}

Test(errors, ignore_error_alone_continues_by_number)
{
	struct errrun e = run_faulty(28, "--continue_on_error=none", "--ignore_error=,28");

	cr_assert_eq(e.status, 0, "exit %d: %s", e.status, e.err);
	cr_assert_eq(jint(e.job, "total_err"), 4);
	json_decref(e.root);
}

Test(errors, error_dump_reports_each_non_fatal_error)
{
	struct errrun e = run_faulty(28, "--ignore_error=,ENOSPC", "--error_dump=1");
	const char *p = e.err;
	unsigned lines = 0;

	cr_assert_eq(e.status, 0, "exit %d: %s", e.status, e.err);
	while ((p = strstr(p, "io_u error on file"))) {
		lines++;
		p++;
	}
	cr_assert_eq(lines, 4, "stderr: %s", e.err);
	cr_assert_not_null(strstr(e.err, "No space left on device: write offset=0, buflen=4096"),
			   "%s", e.err);
	json_decref(e.root);
}

Test(errors, without_error_dump_non_fatal_errors_are_quiet)
{
	struct errrun e = run_faulty(28, "--ignore_error=,ENOSPC", NULL);

	cr_assert_eq(e.status, 0);
	cr_assert_null(strstr(e.err, "io_u error"), "%s", e.err);
	json_decref(e.root);
}

Test(errors, without_continue_on_error_no_error_counts_are_reported)
{
	const char *dir = tmpdir_make(), *out = tmp_str("%s/o.json", dir);
	struct run_out r = iopath_run("--output-format=json", tmp_str("--output=%s", out), "--name=t",
				      "--rw=write", "--size=64k", tmp_str("--filename=%s/f", dir), NULL);
	json_t *root;

	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_load_path(out);
	cr_assert_null(json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "total_err"));
	json_decref(root);
	run_out_free(&r);
}

static void refused(const char *opt, const char *what)
{
	struct run_out r = iopath_run("--parse-only", "--name=t", "--ioengine=null", "--size=1m", opt,
				      NULL);

	cr_assert_eq(r.status, 2, "%s: exit %d: %s", opt, r.status, r.err);
	cr_assert_not_null(strstr(r.err, what), "%s: %s", opt, r.err);
	run_out_free(&r);
}

Test(errors, bad_values_are_refused_naming_what_is_accepted)
{
	refused("--continue_on_error=sometimes", "none read write io verify all");
	refused("--ignore_error=,ENOTANERROR", "unknown error 'ENOTANERROR'");
	refused("--ignore_error=,abc", "unknown error 'abc'");
	refused("--ignore_error=EIO,EIO,EIO,EIO", "more than three lists");
}
