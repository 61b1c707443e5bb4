/* Integration: ioengine=io_uring_cmd (NVMe passthrough) is refused, before any I/O and with what is missing, where there is no NVMe namespace. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static char img[300], dev[64];
static int devfd = -1;

static void cleanup(void)
{
	loopdev_detach(&devfd, dev);
	tmpdir_cleanup();
}

TestSuite(passthru, .fini = cleanup);

Test(passthru, regular_file_is_refused_untouched_naming_the_namespace_it_needs)
{
	const char *dir = tmpdir_make();
	char file[300], opt[320];
	uint64_t before;
	struct run_out r;

	snprintf(file, sizeof(file), "%s/data", dir);
	cr_assert_eq(sh("head -c 1048576 /dev/urandom > %s", file), 0);
	before = file_sum(file);
	snprintf(opt, sizeof(opt), "--filename=%s", file);
	r = iopath_run("--name=p", opt, "--ioengine=io_uring_cmd", "--rw=randwrite", "--size=1m",
		       "--allow-overwrite", NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "is not a block device: NVMe passthrough needs an NVMe namespace"),
			   "%s", r.err);
	cr_assert_eq(file_sum(file), before, "the refused job changed %s", file);
	run_out_free(&r);
}

Test(passthru, missing_file_is_refused_not_created)
{
	const char *dir = tmpdir_make();
	const char *file = tmp_str("%s/none", dir);
	struct run_out r = iopath_run("--name=p", tmp_str("--filename=%s", file),
				      "--ioengine=io_uring_cmd", "--rw=write", "--size=1m", NULL);
	struct stat st;

	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "needs an NVMe namespace: /dev/ngXnY or /dev/nvmeXnY"),
			   "%s", r.err);
	cr_assert_neq(stat(file, &st), 0, "the refused job created %s", file);
	run_out_free(&r);
}

Test(passthru, character_device_other_than_a_generic_device_is_refused)
{
	iopath_refuses("/dev/null is a character device but not an NVMe namespace's generic device",
		       "--name=p", "--filename=/dev/null", "--ioengine=io_uring_cmd",
		       "--rw=randread", "--size=1m", NULL);
}

/* A block device that is not NVMe: the trial names it, and nothing is read or written. */
Test(passthru, block_device_that_is_not_nvme_is_refused)
{
	const char *dir;
	char opt[100];

	if (!is_root())
		cr_skip_test("needs root for a loop device");
	dir = tmpdir_make();
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	cr_assert_eq(sh("truncate -s 16M %s", img), 0);
	devfd = loopdev_attach(img, NULL, dev, sizeof(dev));
	if (devfd < 0)
		cr_skip_test("no free loop device");
	snprintf(opt, sizeof(opt), "--filename=%s", dev);
	iopath_refuses("is not an NVMe namespace: passthrough needs one", "--name=p", opt,
		       "--ioengine=io_uring_cmd", "--rw=randread", "--size=1m", NULL);
}

/* fio's options of the engine parse; cmd_type other than nvme is refused naming what is accepted. */
Test(passthru, fio_options_parse_and_bsg_is_refused)
{
	iopath_exits(0, "--parse-only", "--name=p", "--filename=/dev/ng0n1",
		     "--ioengine=io_uring_cmd", "--cmd_type=nvme", "--nonvectored=0",
		     "--force_async=4", "--registerfiles", "--sqthread_poll=1", "--hipri",
		     "--fixedbufs=0", NULL);
	iopath_refuses("bad value 'bsg' (accepted: nvme)", "--parse-only", "--name=p",
		       "--filename=/dev/bsg/0:0:0:0", "--ioengine=io_uring_cmd", "--cmd_type=bsg",
		       NULL);
}
