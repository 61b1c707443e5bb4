/*
 * Integration: atomic=1, fio's untorn writes. On an XFS with reflink (a loop device; its
 * software atomic writes) every write of pvsync2, libaio and io_uring goes with RWF_ATOMIC,
 * seen in the system calls (strace) and in the kernel's answer where a file has no atomic
 * writes; the data is what the job wrote (verify). What cannot be written atomically is
 * refused before any I/O, naming the file and the limits statx gives.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static char mnt[300];

static void atomic_cleanup(void)
{
	/* the loop device of mount -o loop goes with the last reference to the mount */
	if (mnt[0])
		umount2(mnt, MNT_DETACH);
	mnt[0] = '\0';
	unsetenv("IOPATH_TEST_ATOMIC_UNCHECKED");
	tmpdir_cleanup();
}

TestSuite(atomic, .fini = atomic_cleanup);

/* An XFS with reflink on a loop device, mounted; skips, saying why, where it cannot be. */
static const char *xfs_mount(void)
{
	const char *dir;
	char img[320], where[320];
	unsigned a, b, c;

	if (!is_root())
		cr_skip_test("needs root to mount an XFS image on a loop device");
	if (access("/usr/sbin/mkfs.xfs", X_OK) && access("/sbin/mkfs.xfs", X_OK))
		cr_skip_test("mkfs.xfs is not installed (scripts/deps.sh installs xfsprogs)");
	dir = tmpdir_make();
	snprintf(img, sizeof(img), "%s/xfs.img", dir);
	snprintf(where, sizeof(where), "%s/mnt", dir);
	cr_assert_eq(mkdir(where, 0755), 0);
	if (sh("truncate -s 512M %s && mkfs.xfs -q -m reflink=1 %s >/dev/null 2>&1", img, img))
		cr_skip_test("mkfs.xfs cannot make an XFS image with reflink here");
	if (sh("mount -o loop %s %s 2>/dev/null", img, where))
		cr_skip_test("cannot mount an XFS image on a loop device here (no free loop device, or no XFS in this kernel)");
	snprintf(mnt, sizeof(mnt), "%s", where);
	if (!atomic_write_limits(mnt, &a, &b, &c))
		cr_skip_test("this kernel gives XFS files no atomic writes (software atomic writes with reflink: Linux 6.16 or later)");
	return mnt;
}

/*
 * Run a 64 KiB sequential write job with verify under strace -e trace=calls; the count of
 * traced lines holding want, and of those holding avoid, into *with and *without.
 */
static void traced_writes(const char *engine, const char *calls, const char *want,
			  unsigned *with, unsigned *without)
{
	char fname[340], log[340], eng[64], *text, *l, *nl;
	const char *args[] = { "--name=a", fname, "--size=64k", "--bs=4k", "--rw=write",
			       "--atomic=1", eng, "--verify=crc32c", "--output-format=terse", NULL };

	snprintf(fname, sizeof(fname), "--filename=%s/f-%s", mnt, engine);
	snprintf(log, sizeof(log), "%s.trace", mnt);
	snprintf(eng, sizeof(eng), "--ioengine=%s", engine);
	text = strace_iopath(calls, log, args);
	*with = *without = 0;
	for (l = text; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		if (strstr(l, want)) {
			if (strstr(l, "0x40 /* RWF_") || strstr(l, "RWF_ATOMIC"))
				(*with)++;
			else
				(*without)++;
		}
		if (!nl)
			break;
	}
	free(text);
	unlink(log);
}

Test(atomic, pvsync2_writes_go_with_rwf_atomic_and_reads_without)
{
	unsigned with, without;

	xfs_mount();
	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it): the system calls cannot be seen");
	traced_writes("pvsync2", "pwritev2", "pwritev2(", &with, &without);
	cr_assert_eq(with, 16, "%u of the 16 writes carried RWF_ATOMIC (%u did not)", with, without);
	cr_assert_eq(without, 0);
	/* the verify pass's reads: preadv2 without it */
	traced_writes("pvsync2", "preadv2", "preadv2(", &with, &without);
	cr_assert_eq(with, 0, "a read carried RWF_ATOMIC");
	cr_assert_geq(without, 16);
}

Test(atomic, libaio_writes_go_with_rwf_atomic_in_their_iocbs)
{
	unsigned with, without;

	xfs_mount();
	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it): the system calls cannot be seen");
	traced_writes("libaio", "io_submit", "IOCB_CMD_PWRITE", &with, &without);
	cr_assert_eq(with, 16, "%u of the 16 writes carried RWF_ATOMIC (%u did not)", with, without);
	cr_assert_eq(without, 0);
	traced_writes("libaio", "io_submit", "IOCB_CMD_PREAD", &with, &without);
	cr_assert_eq(with, 0, "a read carried RWF_ATOMIC");
}

/* The result says what was applied: the flag, and the limits statx gave for the file. */
static void assert_applied(json_t *root, const char *engine)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);
	json_t *ap = json_object_get(json_object_get(job, "iopath"), "engine_applied");
	unsigned min, max, segs;
	char num[16];

	cr_assert(atomic_write_limits(mnt, &min, &max, &segs));
	cr_assert_eq(json_integer_value(json_object_get(job, "error")), 0, "%s failed", engine);
	cr_assert_not_null(strstr(json_string_value(json_object_get(ap, "atomic")) ?: "",
				  "RWF_ATOMIC"), "%s: engine_applied has no atomic", engine);
	snprintf(num, sizeof(num), "%u", min);
	cr_assert_str_eq(json_string_value(json_object_get(ap, "atomic_write_unit_min")) ?: "", num);
	snprintf(num, sizeof(num), "%u", max);
	cr_assert_str_eq(json_string_value(json_object_get(ap, "atomic_write_unit_max")) ?: "", num);
	snprintf(num, sizeof(num), "%u", segs);
	cr_assert_str_eq(json_string_value(json_object_get(ap, "atomic_write_segments_max")) ?: "",
			 num);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(job, "job options"),
							   "atomic")) ?: "", "1");
}

/* Each engine's atomic writes land whole: the verify pass reads back what was written. */
Test(atomic, every_engine_writes_verified_data_atomically)
{
	static const char *const engines[] = { "pvsync2", "libaio", "io_uring" };
	char fname[340], eng[64];
	unsigned i;

	xfs_mount();
	for (i = 0; i < 3; i++) {
		char *args[] = { "--name=a", fname, "--size=4m", "--bs=16k", "--rw=randwrite",
				 "--atomic=1", eng, "--iodepth=8", "--verify=crc32c", NULL };
		json_t *root;

		snprintf(fname, sizeof(fname), "--filename=%s/v-%s", mnt, engines[i]);
		snprintf(eng, sizeof(eng), "--ioengine=%s", engines[i]);
		root = iopath_json_in(mnt, args, 0, NULL);
		cr_assert_not_null(root);
		assert_applied(root, engines[i]);
		cr_assert_eq(job_int(root, 0, "write", "total_ios"), 256, "%s", engines[i]);
		cr_assert_eq(job_int(root, 0, "read", "total_ios"), 256, "%s: verify", engines[i]);
		json_decref(root);
	}
}

/*
 * Where the file has no atomic writes and nothing checked it first (the checks set aside),
 * the kernel refuses every engine's writes (EOPNOTSUPP): the flag reaches it, io_uring's
 * too, which strace cannot show. The job fails as fio's does, on the first write; without
 * atomic=1 the same job runs.
 */
Test(atomic, the_kernel_refuses_the_writes_where_the_file_has_none)
{
	static const char *const engines[] = { "pvsync2", "libaio", "io_uring" };
	const char *dir = tmpdir_make();
	char fname[340], eng[64];
	unsigned i, a, b, c;

	if (atomic_write_limits(dir, &a, &b, &c))
		cr_skip_test("%s has atomic writes: no file without them to try", dir);
	for (i = 0; i < 3; i++) {
		char *plain[] = { "--name=a", fname, "--size=64k", "--bs=4k", "--rw=write",
				  "--direct=1", eng, NULL };
		char *atomic[] = { "--name=a", fname, "--size=64k", "--bs=4k", "--rw=write",
				   "--atomic=1", eng, NULL };
		json_t *root, *job;
		char *err;

		snprintf(fname, sizeof(fname), "--filename=%s/k-%s", dir, engines[i]);
		snprintf(eng, sizeof(eng), "--ioengine=%s", engines[i]);
		root = iopath_json_in(dir, plain, 0, &err);
		if (!root || json_integer_value(json_object_get(json_array_get(
				json_object_get(root, "jobs"), 0), "error")))
			cr_skip_test("direct I/O does not work in %s: %s", dir, err);
		json_decref(root);
		free(err);
		setenv("IOPATH_TEST_ATOMIC_UNCHECKED", "1", 1);
		root = iopath_json_in(dir, atomic, 1, &err);
		unsetenv("IOPATH_TEST_ATOMIC_UNCHECKED");
		cr_assert_not_null(root);
		job = json_array_get(json_object_get(root, "jobs"), 0);
		cr_assert_eq(json_integer_value(json_object_get(job, "error")), EOPNOTSUPP,
			     "%s: error %lld: %s", engines[i],
			     json_integer_value(json_object_get(job, "error")), err);
		cr_assert_not_null(strstr(err, "at offset 0 (4096 bytes): Operation not supported"),
				   "%s: %s", engines[i], err);
		json_decref(root);
		free(err);
	}
}

static void assert_refused(struct run_out *r, const char *what)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, what), "message lacks '%s': %s", what, r->err);
	cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "not one line: %s",
		     r->err);
}

Test(atomic, refused_before_any_io_where_the_file_has_none)
{
	const char *dir = tmpdir_make();
	char fname[340], path[320];
	unsigned a, b, c;
	struct run_out r;
	uint64_t sum;

	if (atomic_write_limits(dir, &a, &b, &c))
		cr_skip_test("%s has atomic writes: no file without them to try", dir);
	/* a file to create: refused before it is */
	snprintf(path, sizeof(path), "%s/new", dir);
	snprintf(fname, sizeof(fname), "--filename=%s", path);
	r = iopath_run("--name=a", fname, "--size=64k", "--rw=randwrite", "--atomic=1",
		       "--ioengine=libaio", NULL);
	assert_refused(&r, "has no atomic write support");
	cr_assert_not_null(strstr(r.err, path), "%s", r.err);
	cr_assert_neq(access(path, F_OK), 0, "the file was created");
	run_out_free(&r);
	/* one that exists: left as it was */
	file_make(path, 65536, 7);
	sum = file_sum(path);
	r = iopath_run("--name=a", fname, "--size=64k", "--rw=randwrite", "--atomic=1",
		       "--overwrite=1", "--ioengine=io_uring", NULL);
	assert_refused(&r, "has no atomic write support");
	cr_assert_eq(file_sum(path), sum, "the file changed");
	run_out_free(&r);
}

Test(atomic, refuses_a_block_size_outside_the_files_limits)
{
	char fname[340], lim[64];
	unsigned min, max, segs;
	struct run_out r;

	xfs_mount();
	cr_assert(atomic_write_limits(mnt, &min, &max, &segs));
	snprintf(fname, sizeof(fname), "--filename=%s/big", mnt);
	r = iopath_run("--name=a", fname, "--size=8m", "--bs=4m", "--rw=randwrite", "--atomic=1",
		       "--ioengine=pvsync2", NULL);
	snprintf(lim, sizeof(lim), "from %u to %u bytes", min, max);
	assert_refused(&r, lim);
	assert_has(r.err, "bs=4194304", "big", NULL);
	run_out_free(&r);
}

Test(atomic, refuses_sizes_and_offsets_no_atomic_write_can_have)
{
	char fname[340];
	struct run_out r;

	xfs_mount();
	snprintf(fname, sizeof(fname), "--filename=%s/x", mnt);
	r = iopath_run("--name=a", fname, "--size=1m", "--bs=12k", "--rw=randwrite", "--atomic=1",
		       "--ioengine=libaio", NULL);
	assert_refused(&r, "a power of 2");
	run_out_free(&r);
	r = iopath_run("--name=a", fname, "--size=1m", "--bsrange=4k-16k", "--rw=randwrite",
		       "--atomic=1", "--ioengine=libaio", NULL);
	assert_refused(&r, "one write size");
	run_out_free(&r);
	r = iopath_run("--name=a", fname, "--size=1m", "--bs=8k", "--offset=4k", "--rw=randwrite",
		       "--atomic=1", "--ioengine=libaio", NULL);
	assert_refused(&r, "not a multiple of 8192");
	run_out_free(&r);
	r = iopath_run("--name=a", fname, "--size=1m", "--bs=8k", "--blockalign=4k",
		       "--rw=randwrite", "--atomic=1", "--ioengine=libaio", NULL);
	assert_refused(&r, "blockalign=4096");
	run_out_free(&r);
	cr_assert_neq(access(fname + 11, F_OK), 0, "a refused job created its file");
}

/* fio: "engine does not support atomic writes"; here the engines that do are named. */
Test(atomic, refused_for_engines_that_cannot_pass_it)
{
	static const char *const engines[] = { "--ioengine=psync", "--ioengine=sync",
					       "--ioengine=pvsync", "--ioengine=mmap",
					       "--ioengine=posixaio", "--ioengine=null" };
	unsigned i;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		struct run_out r = iopath_run("--name=a", "--filename=/nonexistent/f", "--size=1m",
					      "--rw=randwrite", "--atomic=1", engines[i],
					      "--parse-only", NULL);

		assert_refused(&r, "cannot give its writes RWF_ATOMIC");
		cr_assert_not_null(strstr(r.err, "pvsync2, libaio, io_uring"), "%s", r.err);
		cr_assert_not_null(strstr(r.err, engines[i] + 2), "%s", r.err);
		run_out_free(&r);
	}
}

/* fio's example, atomic-verify.fio: it parses; atomic=1 implies direct=1. */
static const char example[] =
	"[write-and-verify]\nrw=randwrite\nbs=4k\ndirect=1\nioengine=libaio\niodepth=16\n"
	"verify=crc64\natomic=1\nverify_write_sequence=0\nnumjobs=10\nfilename=%s\n";

Test(atomic, the_examples_job_parses)
{
	const char *dir = tmpdir_make();
	char path[320];
	struct run_out r;
	json_t *root, *job, *opts;

	snprintf(path, sizeof(path), "%s/atomic-verify.fio", dir);
	file_printf(path, example, "/dev/XXX");
	root = iopath_json_kept(&r, 0, "--parse-only", "--output-format=json", path, NULL);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	opts = json_object_get(job, "options");
	cr_assert_str_eq(json_string_value(json_object_get(opts, "atomic")) ?: "", "1", "%s", r.out);
	json_decref(root);
	run_out_free(&r);
	/* fio's help line for it, and iopath's */
	iopath_prints(0, HAS("RWF_ATOMIC"), "--cmdhelp=atomic", NULL);
	/* without direct=1: implied */
	root = iopath_json_kept(&r, 0, "--parse-only", "--output-format=json", "--name=b",
				"--rw=write", "--atomic=1", "--ioengine=io_uring",
				"--filename=/dev/XXX", NULL);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	cr_assert(json_is_true(json_object_get(job, "direct")), "%s", r.out);
	json_decref(root);
	run_out_free(&r);
}

/* ... and runs on a file with atomic writes: ten writers of one file, each verifying. */
Test(atomic, the_examples_job_runs_and_verifies_on_xfs)
{
	char path[340], file[340], size[] = "--size=4m";
	char *args[] = { path, size, NULL };
	json_t *root, *jobs;
	unsigned i;

	xfs_mount();
	snprintf(path, sizeof(path), "%s.fio", mnt);
	snprintf(file, sizeof(file), "%s/av", mnt);
	file_printf(path, example, file);
	root = iopath_json_in(mnt, args, 0, NULL);
	cr_assert_not_null(root);
	jobs = json_object_get(root, "jobs");
	cr_assert_eq(json_array_size(jobs), 10);
	for (i = 0; i < 10; i++) {
		cr_assert_eq(json_integer_value(json_object_get(json_array_get(jobs, i), "error")), 0);
		cr_assert_eq(job_int(root, i, "write", "total_ios"), 1024);
		cr_assert_eq(job_int(root, i, "read", "total_ios"), 1024, "writer %u's verify", i);
	}
	assert_applied(root, "libaio");
	json_decref(root);
	unlink(path);
}

/* atomic=1 implies direct=1, as in fio; a job that writes nothing has no writes to make atomic. */
Test(atomic, implies_direct_and_a_read_job_runs_as_one_with_direct)
{
	char fname[340];
	char *args[] = { "--name=a", fname, "--size=1m", "--rw=randread", "--atomic=1",
			 "--direct=0", "--ioengine=pvsync2", NULL };
	json_t *root, *job, *ap, *io;

	xfs_mount();
	snprintf(fname, sizeof(fname), "--filename=%s/r", mnt);
	root = iopath_json_in(mnt, args, 0, NULL);
	cr_assert_not_null(root);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	io = json_object_get(job, "iopath");
	ap = json_object_get(io, "engine_applied");
	cr_assert_null(json_object_get(ap, "atomic"), "a read job applied atomic");
	/* direct I/O asked for (a loop device without dio may not honour it) */
	cr_assert(json_is_true(json_object_get(io, "direct")) ||
		  json_is_true(json_object_get(io, "direct_requested")), "direct=1 not applied");
	json_decref(root);
}

/* iopath probe says what atomic=1 can do on a path: the limits a new file there takes. */
Test(atomic, probe_names_the_limits_of_a_new_file)
{
	const char *other = tmpdir_make();
	unsigned min, max, segs;
	char line[128];
	struct run_out r;

	xfs_mount();
	cr_assert(atomic_write_limits(mnt, &min, &max, &segs));
	r = iopath_run("probe", mnt, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	snprintf(line, sizeof(line), "atomic writes %u to %u bytes", min, max);
	cr_assert_not_null(strstr(r.out, line), "%s", r.out);
	run_out_free(&r);
	if (atomic_write_limits(other, &min, &max, &segs))
		return;
	r = iopath_run("probe", other, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_null(strstr(r.out, "atomic writes"), "%s", r.out);
	run_out_free(&r);
}
