/*
 * Integration: bad input of every kind gets one clear line on stderr (what, where, what is
 * accepted), exit code 2, and nothing written: the job's own pre-existing file keeps every byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#define NOBODY 65534

static char dir_[300], data[320], fopt[340], mnt[300];

static void cleanup(void)
{
	if (mnt[0])
		umount2(mnt, MNT_DETACH);
	mnt[0] = '\0';
	tmpdir_cleanup();
}

TestSuite(badinput, .fini = cleanup);

/* A file the jobs below would write: iopath's own (so only the bad input stops them). */
static uint64_t own_file(void)
{
	snprintf(dir_, sizeof(dir_), "%s", tmpdir_make());
	snprintf(data, sizeof(data), "%s/data", dir_);
	snprintf(fopt, sizeof(fopt), "--filename=%s", data);
	iopath_exits(0, "--name=prep", fopt, "--rw=write", "--size=256k", NULL);
	return file_sum(data);
}

static void assert_usage_error(struct run_out *r, uint64_t sum, const char *want)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, want), "message lacks '%s': %s", want, r->err);
	cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "not one line: %s", r->err);
	cr_assert_null(strchr(r->err, '\033'), "an escape sequence reached the terminal");
	cr_assert_eq(file_sum(data), sum, "%s changed", data);
}

/* A job file: a write job on the data file, then text; run, expect exit 2 and want. */
static void job_file_refused(const char *tail, size_t tail_len, const char *want)
{
	uint64_t sum = own_file();
	char job[320], head[400];
	struct run_out r;
	FILE *f;

	snprintf(job, sizeof(job), "%s/job.fio", dir_);
	snprintf(head, sizeof(head), "[w]\nfilename=%s\nrw=write\nsize=256k\n", data);
	f = fopen(job, "w");
	cr_assert_not_null(f);
	fputs(head, f);
	fwrite(tail, 1, tail_len, f);
	fclose(f);
	r = iopath_run(job, NULL);
	assert_usage_error(&r, sum, want);
	cr_assert_not_null(strstr(r.err, "job.fio"), "the file is not named: %s", r.err);
	run_out_free(&r);
}

#define REFUSED(text, want) job_file_refused(text, sizeof(text) - 1, want)

Test(badinput, unterminated_section)
{
	REFUSED("[oops\nbs=4k\n", "job.fio:5: section header '[oops' has no closing ']'");
}

Test(badinput, empty_section_name)
{
	REFUSED("[]\n", "job.fio:5: empty section name");
}

Test(badinput, value_without_key)
{
	REFUSED("=4k\n", "job.fio:5: value '4k' without an option name");
}

Test(badinput, nul_bytes_are_not_a_job_file)
{
	REFUSED("bs=4k\n\0\0\0garbage\n", "not a text job file");
}

Test(badinput, control_bytes_are_not_echoed_to_the_terminal)
{
	REFUSED("\033[31mred=1\n\001\002\n", "job.fio:5: unknown option '?[31mred'");
}

Test(badinput, a_ten_megabyte_line)
{
	uint64_t sum = own_file();
	char job[320], head[400];
	struct run_out r;
	FILE *f;
	int i;

	snprintf(job, sizeof(job), "%s/job.fio", dir_);
	snprintf(head, sizeof(head), "[w]\nfilename=%s\nrw=write\nsize=256k\nbs=", data);
	f = fopen(job, "w");
	cr_assert_not_null(f);
	fputs(head, f);
	for (i = 0; i < 10 << 20; i++)
		fputc('1', f);
	fputc('\n', f);
	fclose(f);
	r = iopath_run(job, NULL);
	assert_usage_error(&r, sum, "job.fio:5: line longer than");
	run_out_free(&r);
}

Test(badinput, recursive_include)
{
	uint64_t sum = own_file();
	char job[320], other[320], text[800];
	struct run_out r;

	snprintf(job, sizeof(job), "%s/job.fio", dir_);
	snprintf(other, sizeof(other), "%s/other.fio", dir_);
	snprintf(text, sizeof(text), "[w]\nfilename=%s\nrw=write\nsize=256k\ninclude %s\n", data,
		 other);
	file_write_text(job, text);
	snprintf(text, sizeof(text), "bs=8k\ninclude %s\n", job);
	file_write_text(other, text);
	r = iopath_run(job, NULL);
	assert_usage_error(&r, sum, "recursion");
	run_out_free(&r);
}

/*
 * A 256k job of rw on the user's file with options a and b (NULL: none) is refused, saying
 * want (and, if accepted, what the option accepts), the file untouched.
 */
static void job_refused(const char *rw, const char *a, const char *b, const char *want,
			bool accepted)
{
	uint64_t sum = own_file();
	struct run_out r = iopath_run("--name=w", fopt, rw, "--size=256k", a, b, NULL);

	assert_usage_error(&r, sum, want);
	if (accepted)
		cr_assert_not_null(strstr(r.err, "accepted"), "%s: no accepted values: %s", a, r.err);
	run_out_free(&r);
}

/* --opt=value: each bad value is refused naming the option and what it accepts. */
static void option_refused(const char *opt, const char *want)
{
	job_refused("--rw=write", opt, NULL, want, true);
}

Test(badinput, negative_numbers)
{
	option_refused("--iodepth=-1", "option iodepth: bad value '-1'");
	option_refused("--size=-1m", "option size: bad size '-1m'");
	option_refused("--runtime=-5", "option runtime: bad time '-5'");
}

Test(badinput, overflowing_numbers)
{
	option_refused("--size=99999999999999999999", "out of range");
	option_refused("--numjobs=4294967297", "option numjobs: bad value");
	option_refused("--bs=16e", "option bs: bad size '16e'");
}

Test(badinput, a_ring_deeper_than_the_kernel_allows)
{
	job_refused("--rw=write", "--ioengine=io_uring", "--iodepth=32769",
		    "iodepth=32769 is more than ioengine=io_uring can queue (at most 32768", false);
}

Test(badinput, zero_block_size)
{
	option_refused("--bs=0", "option bs: bad size '0'");
}

Test(badinput, unknown_engine)
{
	option_refused("--ioengine=warpdrive", "unknown engine 'warpdrive'");
}

Test(badinput, conflicting_options)
{
	job_refused("--rw=randwrite", "--verify=crc32c", "--norandommap", "drop norandommap", false);
}

/* fio's create_work_dirs(): the directories a file's name needs are made (mode 0700) */
Test(badinput, missing_directories_of_a_filename_are_made)
{
	char opt[340], path[340];
	struct stat st;

	(void)own_file();
	snprintf(opt, sizeof(opt), "--filename=%s/no/such/dir/f", dir_);
	iopath_exits(0, "--name=w", opt, "--rw=write", "--size=256k", NULL);
	snprintf(path, sizeof(path), "%s/no/such/dir/f", dir_);
	cr_assert_eq(stat(path, &st), 0, "%s was not made", path);
	cr_assert_eq(st.st_size, 256 * 1024);
	snprintf(path, sizeof(path), "%s/no/such", dir_);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700, "mode %o", st.st_mode & 0777);
}

Test(badinput, nonexistent_directory)
{
	uint64_t sum = own_file();
	char opt[340];
	struct run_out r;

	snprintf(opt, sizeof(opt), "--directory=%s/nowhere", dir_);
	r = iopath_run("--name=w", opt, "--rw=write", "--size=256k", NULL);
	assert_usage_error(&r, sum, "directory");
	run_out_free(&r);
}

Test(badinput, permission_denied)
{
	uint64_t sum = own_file();
	char opt[340];
	struct run_out r;

	if (!is_root())
		cr_skip_test("needs root to run iopath as another user");
	/* the data file and its directory (mkdtemp: 0700) are root's */
	r = iopath_run_as(NOBODY, "--name=r", fopt, "--rw=read", "--size=256k", NULL);
	if (r.status == 126)
		cr_skip_test("cannot switch to uid %d here", NOBODY);
	assert_usage_error(&r, sum, "Permission denied");
	run_out_free(&r);
	chmod(dir_, 0755);
	chmod(data, 0644);
	r = iopath_run_as(NOBODY, "--name=w", fopt, "--rw=write", "--size=256k", NULL);
	assert_usage_error(&r, sum, "cannot open");
	cr_assert_not_null(strstr(r.err, "for writing: Permission denied"), "%s", r.err);
	run_out_free(&r);
	snprintf(opt, sizeof(opt), "--filename=%s/new", dir_);
	r = iopath_run_as(NOBODY, "--name=w", opt, "--rw=write", "--size=256k", NULL);
	assert_usage_error(&r, sum, "cannot create");
	run_out_free(&r);
}

Test(badinput, read_only_filesystem)
{
	uint64_t sum = own_file();
	char opt[340];
	struct run_out r;

	if (!is_root())
		cr_skip_test("needs root to mount a read-only tmpfs");
	snprintf(mnt, sizeof(mnt), "%s/ro", dir_);
	cr_assert_eq(mkdir(mnt, 0755), 0);
	if (mount("none", mnt, "tmpfs", MS_RDONLY, "size=1m"))
		cr_skip_test("cannot mount tmpfs here");
	snprintf(opt, sizeof(opt), "--filename=%s/f", mnt);
	r = iopath_run("--name=w", opt, "--rw=write", "--size=256k", NULL);
	assert_usage_error(&r, sum, "Read-only file system");
	run_out_free(&r);
}

Test(badinput, a_directory_where_a_file_is_needed)
{
	uint64_t sum = own_file();
	char opt[340];
	struct run_out r;

	snprintf(opt, sizeof(opt), "--filename=%s", dir_);
	r = iopath_run("--name=w", opt, "--rw=write", "--size=256k", NULL);
	assert_usage_error(&r, sum, "is a directory; filename= needs a file");
	run_out_free(&r);
	r = iopath_run("--name=w", "--filename=/dev/null", "--rw=write", "--size=256k", NULL);
	assert_usage_error(&r, sum, "neither a regular file nor a block device");
	run_out_free(&r);
}

Test(badinput, read_job_on_a_missing_file_without_a_size)
{
	uint64_t sum = own_file();
	char opt[340];
	struct run_out r;

	snprintf(opt, sizeof(opt), "--filename=%s/missing", dir_);
	r = iopath_run("--name=r", opt, "--rw=read", NULL);
	assert_usage_error(&r, sum, "size= not given");
	run_out_free(&r);
}

/* bs that direct I/O cannot do on this filesystem: refused naming the alignment it needs. */
Test(badinput, direct_block_size_misaligned_for_the_device)
{
	uint64_t sum = own_file();
	struct run_out r = iopath_run("--name=r", fopt, "--rw=randread", "--bs=1000", "--direct=1",
				      NULL);

	if (r.status == 0)
		cr_skip_test("this filesystem reports no direct-I/O alignment (tmpfs, FUSE...)");
	assert_usage_error(&r, sum, "bs=1000 with direct=1");
	cr_assert_not_null(strstr(r.err, "multiples of"), "%s", r.err);
	run_out_free(&r);
}

/* A 4096-byte-sector device: bs=3k with direct=1 is refused, saying 4096. */
Test(badinput, direct_block_size_misaligned_for_4k_sectors)
{
	char img[340], dev[64] = "", opt[340];
	struct run_out r;
	uint64_t sum;
	int devfd;

	sum = own_file();
	if (!is_root())
		cr_skip_test("needs root for a loop device");
	snprintf(img, sizeof(img), "%s/disk.img", dir_);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir_);
	cr_assert_eq(sh("truncate -s 32m %s && mkdir %s", img, mnt), 0);
	devfd = loopdev_attach(img, "--sector-size 4096", dev, sizeof(dev));
	if (devfd < 0) {
		mnt[0] = '\0';
		cr_skip_test("no loop device with 4096-byte sectors here");
	}
	if (sh("mkfs.ext4 -q -F %s >/dev/null 2>&1 && mount %s %s", dev, dev, mnt)) {
		loopdev_detach(&devfd, dev);
		mnt[0] = '\0';
		cr_skip_test("cannot make and mount ext4 on %s", dev);
	}
	snprintf(opt, sizeof(opt), "--filename=%s/f", mnt);
	r = iopath_run("--name=w", opt, "--rw=randwrite", "--size=1m", "--bs=3k", "--direct=1",
		       NULL);
	umount2(mnt, MNT_DETACH);
	mnt[0] = '\0';
	loopdev_detach(&devfd, dev);
	assert_usage_error(&r, sum, "multiples of 4096 bytes");
	cr_assert_not_null(strstr(r.err, "bs=3072 with direct=1"), "%s", r.err);
	run_out_free(&r);
}
