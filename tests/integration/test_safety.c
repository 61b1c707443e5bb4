/* Integration: iopath never writes, extends or truncates a file it did not create unless told. */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "harness.h"

TestSuite(safety, .fini = tmpdir_cleanup);

static char path[300], fopt[320];

/* A file of the user's, 64 KiB of data, and its checksum. */
static uint64_t user_file(const char *name)
{
	const char *dir = tmpdir_make();

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(fopt, sizeof(fopt), "--filename=%s", path);
	file_make(path, 65536, 7);
	return file_sum(path);
}

static void assert_refused(struct run_out *r, uint64_t sum, const char *why)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, path), "message does not name the file: %s", r->err);
	cr_assert_not_null(strstr(r->err, why), "message lacks '%s': %s", why, r->err);
	cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "not one line: %s", r->err);
	cr_assert_eq(file_sum(path), sum, "%s changed", path);
}

Test(safety, write_jobs_refuse_a_file_iopath_did_not_create)
{
	static const char *const rws[] = { "--rw=write", "--rw=randwrite", "--rw=rw", "--rw=randrw" };
	uint64_t sum = user_file("precious");
	unsigned i;

	for (i = 0; i < 4; i++) {
		struct run_out r = iopath_run("--name=w", fopt, rws[i], "--size=64k", NULL);

		assert_refused(&r, sum, "not created by iopath");
		cr_assert_not_null(strstr(r.err, "overwrite=1"), "%s", r.err);
		cr_assert_not_null(strstr(r.err, "--allow-overwrite"), "%s", r.err);
		run_out_free(&r);
	}
}

Test(safety, write_job_without_size_refuses_a_foreign_file)
{
	uint64_t sum = user_file("precious");
	struct run_out r = iopath_run("--name=w", fopt, "--rw=write", NULL);

	assert_refused(&r, sum, "would overwrite it");
	run_out_free(&r);
}

Test(safety, read_job_refuses_to_extend_a_short_foreign_file)
{
	uint64_t sum = user_file("short");
	struct run_out r = iopath_run("--name=r", fopt, "--rw=read", "--size=1m", NULL);

	assert_refused(&r, sum, "65536 bytes and was not created by iopath");
	run_out_free(&r);
}

Test(safety, read_job_refuses_an_empty_foreign_file)
{
	struct run_out r;

	user_file("empty");
	file_make(path, 0, 0);
	r = iopath_run("--name=r", fopt, "--rw=read", "--size=1m", NULL);
	assert_refused(&r, file_sum(path), "is empty and was not created by iopath");
	run_out_free(&r);
	r = iopath_run("--name=r", fopt, "--rw=read", NULL);
	assert_refused(&r, file_sum(path), "is empty and was not created by iopath");
	run_out_free(&r);
}

Test(safety, read_job_on_a_foreign_file_is_fine_and_changes_nothing)
{
	uint64_t sum = user_file("data");
	struct run_out r = iopath_run("--name=r", fopt, "--rw=randread", "--verify=0", NULL);

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_eq(file_sum(path), sum);
	run_out_free(&r);
}

Test(safety, overwrite_in_the_job_file_allows_writing)
{
	uint64_t sum = user_file("mine");
	char job[400], jobfile[320];
	struct run_out r;

	snprintf(jobfile, sizeof(jobfile), "%s.fio", path);
	snprintf(job, sizeof(job), "[w]\nfilename=%s\nrw=write\noverwrite=1\n", path);
	file_write_text(jobfile, job);
	r = iopath_run(jobfile, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(file_sum(path), sum);
	run_out_free(&r);
}

Test(safety, allow_overwrite_flag_allows_writing)
{
	uint64_t sum = user_file("mine");
	struct run_out r = iopath_run("--allow-overwrite", "--name=w", fopt, "--rw=randwrite", NULL);

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(file_sum(path), sum);
	run_out_free(&r);
}

Test(safety, files_iopath_creates_are_marked_and_rewritten_without_asking)
{
	const char *dir = tmpdir_make();
	char val[64];
	struct run_out r;

	snprintf(path, sizeof(path), "%s/made", dir);
	snprintf(fopt, sizeof(fopt), "--filename=%s", path);
	r = iopath_run("--name=w", fopt, "--rw=write", "--size=256k", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	cr_assert_gt(getxattr(path, "user.iopath", val, sizeof(val)), 0, "no user.iopath on %s", path);
	r = iopath_run("--name=w", fopt, "--rw=randwrite", "--size=512k", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
}

Test(safety, read_job_lays_out_a_missing_file_and_marks_it)
{
	const char *dir = tmpdir_make();
	char val[64];
	struct run_out r;
	struct stat st;

	snprintf(path, sizeof(path), "%s/laid", dir);
	snprintf(fopt, sizeof(fopt), "--filename=%s", path);
	r = iopath_run("--name=r", fopt, "--rw=read", "--size=128k", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_size, 128 << 10);
	cr_assert_gt(getxattr(path, "user.iopath", val, sizeof(val)), 0);
	/* a larger re-run extends its own file without asking */
	r = iopath_run("--name=r", fopt, "--rw=read", "--size=256k", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
}

/* ramfs has no user xattrs: the mark is a sidecar file recording the inode. */
Test(safety, sidecar_marks_files_where_xattrs_are_missing)
{
	const char *dir = tmpdir_make();
	char mnt[300], side[320];
	struct run_out r;
	uint64_t sum;

	if (!is_root())
		cr_skip_test("needs root to mount a ramfs (a filesystem without user xattrs)");
	snprintf(mnt, sizeof(mnt), "%s/ramfs", dir);
	cr_assert_eq(mkdir(mnt, 0755), 0);
	if (mount("none", mnt, "ramfs", 0, NULL))
		cr_skip_test("cannot mount ramfs here");
	snprintf(path, sizeof(path), "%s/made", mnt);
	snprintf(side, sizeof(side), "%s/.made.iopath", mnt);
	snprintf(fopt, sizeof(fopt), "--filename=%s", path);
	r = iopath_run("--name=w", fopt, "--rw=write", "--size=64k", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	cr_assert_eq(access(side, F_OK), 0, "no sidecar %s", side);
	r = iopath_run("--name=w", fopt, "--rw=randwrite", "--size=64k", NULL);
	cr_assert_eq(r.status, 0, "rewrite refused: %s", r.err);
	run_out_free(&r);
	/* the user replaces the file: the sidecar no longer speaks for it */
	unlink(path);
	file_make(path, 65536, 3);
	sum = file_sum(path);
	r = iopath_run("--name=w", fopt, "--rw=write", "--size=64k", NULL);
	cr_assert_eq(file_sum(path), sum);
	umount2(mnt, MNT_DETACH);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "not created by iopath"), "%s", r.err);
	run_out_free(&r);
}

Test(safety, unlink_refuses_a_file_iopath_did_not_create)
{
	uint64_t sum = user_file("keep");
	struct run_out r = iopath_run("--name=r", fopt, "--rw=read", "--unlink=1", NULL);

	assert_refused(&r, sum, "unlink=1 would remove");
	run_out_free(&r);
}

Test(safety, unlink_removes_the_files_iopath_created_and_their_marks)
{
	const char *dir = tmpdir_make();
	struct run_out r;

	snprintf(path, sizeof(path), "%s/mine", dir);
	snprintf(fopt, sizeof(fopt), "--filename=%s", path);
	r = iopath_run("--name=w", fopt, "--rw=write", "--size=64k", "--unlink=1", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(access(path, F_OK), 0, "%s was not removed", path);
	run_out_free(&r);
}

/* rw=metadata meets a name that already exists: the job fails, and that file survives. */
Test(safety, metadata_never_removes_files_it_did_not_create)
{
	const char *dir = tmpdir_make();
	char root[300], d[320];
	uint64_t sum;
	struct run_out r;

	snprintf(root, sizeof(root), "%s/m.0.meta", dir);
	cr_assert_eq(mkdir(root, 0755), 0);
	snprintf(path, sizeof(path), "%s/f5", root);
	file_make(path, 4096, 9);
	sum = file_sum(path);
	snprintf(d, sizeof(d), "--directory=%s", dir);
	r = iopath_run("--name=m", "--rw=metadata", d, "--nrfiles=10", "--files_per_dir=10", NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "File exists"), "%s", r.err);
	cr_assert_eq(file_sum(path), sum, "%s was removed or changed", path);
	snprintf(path, sizeof(path), "%s/f0", root);
	cr_assert_neq(access(path, F_OK), 0, "the run's own files were left behind");
	run_out_free(&r);
}
