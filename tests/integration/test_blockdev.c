/* Integration: a block device that holds anything is never written without --allow-destructive. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define IMG_SIZE (16u << 20)

static char img[300], dev[64], mnt[300], fopt[100];
static int devfd = -1;

static bool swap_on;

static void detach(void)
{
	if (swap_on)
		sh("swapoff %s 2>/dev/null", dev);
	swap_on = false;
	if (mnt[0])
		umount2(mnt, MNT_DETACH);
	loopdev_detach(&devfd, dev);
	mnt[0] = '\0';
	tmpdir_cleanup();
}

TestSuite(blockdev, .fini = detach);

/* A loop device over a fresh image; prep (a shell command on $DEV, or NULL) runs first. */
static void loop_make(const char *prep)
{
	const char *dir;

	if (!is_root())
		cr_skip_test("needs root for loop devices");
	dir = tmpdir_make();
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	cr_assert_eq(sh("truncate -s %u %s", IMG_SIZE, img), 0);
	devfd = loopdev_attach(img, NULL, dev, sizeof(dev));
	if (devfd < 0)
		cr_skip_test("no free loop device");
	snprintf(fopt, sizeof(fopt), "--filename=%s", dev);
	if (prep)
		cr_assert_eq(sh("DEV=%s; %s >/dev/null 2>&1", dev, prep), 0, "%s failed", prep);
}

/* A checksum of img but for the bytes from skip (skip_len of them; 0: none). */
static uint64_t img_sum_but(off_t skip, off_t skip_len)
{
	unsigned char buf[4096];
	uint64_t h = 1469598103934665603ull;
	off_t off = 0;
	ssize_t n, i;
	int fd = open(img, O_RDONLY);

	cr_assert_geq(fd, 0, "%s: %s", img, strerror(errno));
	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		for (i = 0; i < n; i++, off++)
			if (off < skip || off >= skip + skip_len)
				h = (h ^ buf[i]) * 1099511628211ull;
	}
	close(fd);
	return h;
}

/*
 * A randwrite job of the device's first MiB is refused, naming why, and leaves the image
 * as it was, but for skip_len bytes from skip (what the kernel may write there itself).
 */
static void assert_refused_but(const char *why, off_t skip, off_t skip_len)
{
	uint64_t sum = img_sum_but(skip, skip_len);
	struct run_out r = iopath_run("--name=w", fopt, "--rw=randwrite", "--size=1m", NULL);

	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, dev), "%s", r.err);
	cr_assert_not_null(strstr(r.err, why), "message lacks '%s': %s", why, r.err);
	cr_assert_not_null(strstr(r.err, "--allow-destructive"), "%s", r.err);
	cr_assert_eq(img_sum_but(skip, skip_len), sum, "the device's contents changed");
	run_out_free(&r);
}

static void assert_device_refused(const char *why)
{
	assert_refused_but(why, 0, 0);
}

Test(blockdev, refuses_to_write_a_device_holding_a_filesystem)
{
	loop_make("mkfs.ext4 -q -F $DEV");
	assert_device_refused("ext4");
}

Test(blockdev, refuses_to_write_a_device_holding_swap)
{
	loop_make("mkswap $DEV");
	assert_device_refused("swap");
}

Test(blockdev, refuses_to_write_a_device_holding_a_partition_table)
{
	unsigned char mbr[512] = { 0 };
	int fd;

	loop_make(NULL);
	/* one Linux partition from sector 2048 to the end, and the boot signature */
	mbr[446 + 4] = 0x83;
	mbr[446 + 8] = 0x00, mbr[446 + 9] = 0x08;
	mbr[446 + 12] = 0x00, mbr[446 + 13] = 0x78;
	mbr[510] = 0x55, mbr[511] = 0xaa;
	fd = open(dev, O_WRONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(pwrite(fd, mbr, sizeof(mbr), 0), 512);
	/*
	 * Into the image now: a close that is not the device's last (the test holds it; another
	 * process may be looking at it) leaves the write in the device's cache, written back
	 * to the image at any later moment.
	 */
	cr_assert_eq(fsync(fd), 0);
	close(fd);
	assert_device_refused("partition table");
}

Test(blockdev, refuses_to_write_a_mounted_device)
{
	loop_make("mkfs.ext4 -q -F $DEV");
	snprintf(mnt, sizeof(mnt), "%s.mnt", img);
	cr_assert_eq(mkdir(mnt, 0755), 0);
	if (mount(dev, mnt, "ext4", 0, NULL))
		cr_skip_test("cannot mount ext4 on a loop device here");
	assert_device_refused("mounted on");
}

/*
 * fio's allow_mounted_write=1 is a job's own leave to write a mounted device: iopath accepts
 * the option (fio's job files carry it) but still asks for --allow-destructive, and says that
 * the job's leave was seen and is not enough; the device is left as it was.
 */
Test(blockdev, allow_mounted_write_in_a_job_does_not_lift_the_refusal)
{
	struct run_out r;
	uint64_t sum;

	loop_make("mkfs.ext4 -q -F $DEV");
	snprintf(mnt, sizeof(mnt), "%s.mnt", img);
	cr_assert_eq(mkdir(mnt, 0755), 0);
	if (mount(dev, mnt, "ext4", 0, NULL))
		cr_skip_test("cannot mount ext4 on a loop device here");
	sum = img_sum_but(0, 0);
	r = iopath_run("--name=w", fopt, "--rw=randwrite", "--size=1m", "--allow_mounted_write=1",
		       NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "mounted on"), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "--allow-destructive"), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "allow_mounted_write=1"), "%s", r.err);
	cr_assert_eq(img_sum_but(0, 0), sum, "the device's contents changed");
	run_out_free(&r);
}

/* The loop device's scheduler line ("[none] mq-deadline kyber"), its newline cut. */
static void dev_scheduler(char *out, size_t len)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", strrchr(dev, '/') + 1);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	cr_assert_not_null(fgets(out, (int)len, f));
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
}

/*
 * ioscheduler= (fio's): the job runs under the named scheduler (its exec_prerun reads the
 * disk's line while the job runs), and the disk has its own back when the run ends (fio
 * leaves it switched); a name the disk does not offer fails the job, naming what it offers.
 */
Test(blockdev, ioscheduler_runs_the_job_under_it_and_puts_the_old_one_back)
{
	char before[256], after[256], during[256], opt[64], prerun[200], path[400];
	const char *want;
	struct run_out r;
	FILE *f;

	loop_make(NULL);
	dev_scheduler(before, sizeof(before));
	if (!strchr(before, '['))
		cr_skip_test("%s has no tunable scheduler here (%s)", dev, before);
	want = strstr(before, "[none]") ? (strstr(before, "mq-deadline") ? "mq-deadline" : NULL) :
					  "none";
	if (!want)
		cr_skip_test("%s offers no second scheduler (%s)", dev, before);
	snprintf(opt, sizeof(opt), "--ioscheduler=%s", want);
	snprintf(prerun, sizeof(prerun), "--exec_prerun=cat /sys/block/%s/queue/scheduler",
		 strrchr(dev, '/') + 1);
	cr_assert_eq(chdir(tmpdir_make()), 0);
	r = iopath_run("--name=s", fopt, "--rw=read", "--size=1m", opt, prerun, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	snprintf(path, sizeof(path), "s.prerun.txt");
	f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(during, sizeof(during), f));
	fclose(f);
	snprintf(opt, sizeof(opt), "[%s]", want);
	cr_expect_not_null(strstr(during, opt), "while the job ran: %s", during);
	dev_scheduler(after, sizeof(after));
	cr_expect_str_eq(after, before, "the disk's scheduler was not put back");

	r = iopath_run("--name=s", fopt, "--rw=read", "--size=1m", "--ioscheduler=no-such-one", NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "does not take it (offered: "), "%s", r.err);
	run_out_free(&r);
	dev_scheduler(after, sizeof(after));
	cr_expect_str_eq(after, before);
}

/*
 * Active swap is the kernel's to write (pages go out to it under memory pressure, which tests
 * run side by side make): a 64 KiB swap area, whose pages after the first (its header) are
 * left out of the comparison; the job would write all of the first MiB.
 */
Test(blockdev, refuses_to_write_a_device_in_use_as_swap)
{
	loop_make("mkswap $DEV 64");
	if (sh("swapon %s 2>/dev/null", dev))
		cr_skip_test("swapon refused on this machine");
	swap_on = true;
	assert_refused_but("in use", 4096, 60 << 10);
}

Test(blockdev, read_jobs_on_a_device_with_a_filesystem_are_fine)
{
	uint64_t sum;
	struct run_out r;

	loop_make("mkfs.ext4 -q -F $DEV");
	sum = file_sum(img);
	r = iopath_run("--name=r", fopt, "--rw=randread", "--size=1m", "--direct=1", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_eq(file_sum(img), sum);
	run_out_free(&r);
}

Test(blockdev, a_blank_device_may_be_written)
{
	loop_make(NULL);
	iopath_exits(0, "--name=w", fopt, "--rw=write", "--size=1m", "--direct=1", NULL);
}

/* atomic=1 on a device whose queue has no atomic write unit: refused before any I/O. */
Test(blockdev, atomic_writes_are_refused_where_the_device_has_none)
{
	char q[160];
	struct run_out r;
	uint64_t sum;
	FILE *f;
	unsigned long max = 0;

	loop_make(NULL);
	snprintf(q, sizeof(q), "/sys/block/%s/queue/atomic_write_unit_max_bytes", dev + 5);
	f = fopen(q, "r");
	if (f) {
		if (fscanf(f, "%lu", &max) != 1)
			max = 0;
		fclose(f);
	}
	if (max)
		cr_skip_test("%s has atomic writes of up to %lu bytes", dev, max);
	sum = file_sum(img);
	r = iopath_run("--name=w", fopt, "--rw=write", "--size=1m", "--atomic=1",
		       "--ioengine=pvsync2", NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, dev), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "has no atomic write support"), "%s", r.err);
	cr_assert_eq(file_sum(img), sum, "the device's contents changed");
	run_out_free(&r);
}

Test(blockdev, allow_destructive_naming_the_device_allows_writing)
{
	char allow[100];
	uint64_t sum;
	struct run_out r;

	loop_make("mkfs.ext4 -q -F $DEV");
	sum = file_sum(img);
	snprintf(allow, sizeof(allow), "--allow-destructive=%s", dev);
	/* end_fsync: the writes must reach the loop device's backing file before it is read */
	r = iopath_run(allow, "--name=w", fopt, "--rw=write", "--size=1m", "--end_fsync=1", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(file_sum(img), sum);
	run_out_free(&r);
}

Test(blockdev, allow_destructive_must_name_a_block_device)
{
	loop_make("mkfs.ext4 -q -F $DEV");
	{
		uint64_t sum = file_sum(img);
		struct run_out r = iopath_run("--allow-destructive=/dev/null", "--name=w", fopt,
					      "--rw=write", "--size=1m", NULL);

		cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
		cr_assert_not_null(strstr(r.err, "not a block device"), "%s", r.err);
		cr_assert_eq(file_sum(img), sum);
		run_out_free(&r);
	}
}

/* --output, compare --json and --junit onto a device holding a filesystem: refused, exit 2. */
Test(blockdev, results_never_go_onto_a_device)
{
	char out[120], a[400], json[120];
	uint64_t sum;

	loop_make("mkfs.ext4 -q -F $DEV");
	sum = file_sum(img);
	snprintf(out, sizeof(out), "--output=%s", dev);
	iopath_refuses("block device", "--name=n", "--ioengine=null", "--size=1m",
		       "--output-format=json", out, NULL);
	snprintf(a, sizeof(a), "--output=%s.json", img);
	iopath_exits(0, "--name=n", "--ioengine=null", "--size=1m", "--output-format=json", a,
		     NULL);
	snprintf(a, sizeof(a), "%s.json", img);
	snprintf(json, sizeof(json), "--json=%s", dev);
	iopath_exits(2, "compare", a, a, json, NULL);
	iopath_exits(2, "compare", a, a, "--junit", dev, NULL);
	sh("sync");
	cr_assert_eq(file_sum(img), sum, "the device's contents changed");
}

/*
 * A blank device when the run is planned; prep (a shell command on $DEV) run while an
 * earlier group runs (iopath held before the second group's checks); then the stonewalled
 * write job's result.
 */
static struct run_out second_group_after(const char *prep, bool mounts)
{
	char hold_dir[300];
	struct run_bg b;
	struct run_out r;
	bool ok;

	loop_make(NULL);
	if (mounts) {
		snprintf(mnt, sizeof(mnt), "%s.mnt", img);
		cr_assert_eq(mkdir(mnt, 0755), 0);
	}
	snprintf(hold_dir, sizeof(hold_dir), "%s", img);
	*strrchr(hold_dir, '/') = '\0';
	hold_arm(hold_dir);
	b = iopath_start("--name=first", "--ioengine=null", "--size=1m", "--name=w", fopt,
			 "--stonewall", "--rw=write", "--size=1m", "--direct=1", NULL);
	hold_disarm();
	ok = hold_skip_to(&b, 3);
	if (ok) {
		cr_assert_eq(sh("DEV=%s; MNT=%s; %s >/dev/null 2>&1", dev, mnt, prep), 0, "%s", prep);
		hold_release(3);
	}
	ok = ok && hold_reached(&b, 4);
	if (ok)
		hold_release(4);
	r = iopath_wait(&b, 120);
	cr_assert(ok, "iopath never held before the second group: %s", r.err);
	return r;
}

Test(blockdev, a_device_is_checked_again_right_before_the_group_that_writes_it)
{
	struct run_out r = second_group_after("mkfs.ext4 -q -F $DEV", false);
	uint64_t sum = file_sum(img);

	cr_assert_neq(r.status, 0, "the device was written: %s", r.err);
	cr_assert_not_null(strstr(r.err, "ext4"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(img), sum);
	sh("sync");
	cr_assert_eq(sh("blkid -p %s >/dev/null 2>&1", dev), 0, "the filesystem is gone");
}

Test(blockdev, a_device_mounted_after_the_run_started_is_not_written)
{
	struct run_out r;

	r = second_group_after("mkfs.ext4 -q -F $DEV && mount $DEV $MNT", true);
	cr_assert_neq(r.status, 0, "a mounted device was written: %s", r.err);
	cr_assert(strstr(r.err, "in use") || strstr(r.err, "mounted"), "%s", r.err);
	run_out_free(&r);
}

/* While a job writes a device, the device is iopath's alone (O_EXCL): it cannot be mounted. */
Test(blockdev, a_device_being_written_cannot_be_mounted_meanwhile)
{
	char hold_dir[300];
	struct run_bg b;
	struct run_out r;
	bool ok;
	int busy = -1;

	loop_make(NULL);
	snprintf(hold_dir, sizeof(hold_dir), "%s", img);
	*strrchr(hold_dir, '/') = '\0';
	hold_arm(hold_dir);
	b = iopath_start("--name=w", fopt, "--rw=write", "--size=1m", "--direct=1", NULL);
	hold_disarm();
	ok = hold_skip_to(&b, 2);
	if (ok) {
		/* an exclusive opener (mkfs, mount) is kept out while the job holds the device */
		int fd = open(dev, O_RDWR | O_EXCL);

		busy = fd < 0 && errno == EBUSY;
		if (fd >= 0)
			close(fd);
		hold_release(2);
	}
	r = iopath_wait(&b, 120);
	cr_assert(ok, "iopath never held after the checks: %s", r.err);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_eq(busy, 1, "the device could be claimed exclusively while iopath wrote it");
	run_out_free(&r);
}

/*
 * A device is read without its access time kept, as fio opens devices (O_NOATIME, its
 * file_open): a read job leaves an access time of days ago as it was, where relatime would
 * have set it to now (regular files keep theirs, as in fio).
 */
Test(blockdev, reads_of_a_device_leave_its_access_time_as_fio_does)
{
	struct timespec ts[2] = { { .tv_sec = 0 }, { .tv_nsec = UTIME_OMIT } };
	struct stat st;

	loop_make(NULL);
	ts[0].tv_sec = time(NULL) - 3 * 86400;
	cr_assert_eq(utimensat(AT_FDCWD, dev, ts, 0), 0, "%s: %s", dev, strerror(errno));
	iopath_exits(0, "--name=r", fopt, "--rw=randread", "--size=1m", "--direct=1", NULL);
	iopath_exits(0, "--name=r", fopt, "--rw=read", "--size=1m", NULL);
	cr_assert_eq(stat(dev, &st), 0);
	cr_assert_eq(st.st_atim.tv_sec, ts[0].tv_sec, "%s's access time moved by %lld s", dev,
		     (long long)(st.st_atim.tv_sec - ts[0].tv_sec));
}
