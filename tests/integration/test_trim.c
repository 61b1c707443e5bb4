/* Integration: rw=trim, randtrim, trimwrite, randtrimwrite (fio 3.33: BLKDISCARD). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static char img[300], dev[64];
static int devfd = -1;
static const char *loop_dir;

static void detach(void)
{
	loopdev_detach(&devfd, dev);
	tmpdir_cleanup();
}

TestSuite(trim, .fini = detach);

/* A fresh, empty loop device (skips where there is none). */
static void loop_make(void)
{
	const char *dir;

	if (!is_root())
		cr_skip_test("needs root for a loop device");
	dir = tmpdir_make();
	loop_dir = dir;
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	cr_assert_eq(sh("truncate -s 8m %s", img), 0);
	devfd = loopdev_attach(img, NULL, dev, sizeof(dev));
	if (devfd < 0)
		cr_skip_test("no free loop device");
}

/* Same bytes and I/Os as fio 3.33 with the null engine: trim modes move size, trimwrite twice. */
static void null_counts(const char *mode, long long trims, long long writes)
{
	const char *dir = tmpdir_make();
	char rw[64];
	char *args[] = { "--name=t", "--ioengine=null", rw, "--bs=4k", "--size=32k", NULL };
	json_t *root;

	snprintf(rw, sizeof(rw), "--rw=%s", mode);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "trim", "io_bytes"), trims * 4096);
	cr_assert_eq(job_int(root, 0, "trim", "total_ios"), trims);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), writes * 4096);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), writes);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 0);
	json_decref(root);
}

Test(trim, trim_moves_size_in_trims)
{
	null_counts("trim", 8, 0);
}

Test(trim, randtrim_moves_size_in_trims)
{
	null_counts("randtrim", 8, 0);
}

Test(trim, trimwrite_trims_then_writes_each_block)
{
	null_counts("trimwrite", 8, 8);
}

Test(trim, randtrimwrite_trims_then_writes_each_block)
{
	null_counts("randtrimwrite", 8, 8);
}

Test(trim, third_bs_value_is_the_trim_size)
{
	const char *dir = tmpdir_make();
	char *args[] = { "--name=t", "--ioengine=null", "--rw=trim", "--bs=4k,8k,16k", "--size=64k",
			 NULL };
	json_t *root = iopath_json_in(dir, args, 0, NULL);

	cr_assert_eq(job_int(root, 0, "trim", "total_ios"), 4);
	json_decref(root);
}

Test(trim, randtrimwrite_pairs_take_the_trim_size)
{
	const char *dir = tmpdir_make();
	char *args[] = { "--name=t", "--ioengine=null", "--rw=randtrimwrite", "--bs=4k,4k,8k",
			 "--size=64k", NULL };
	json_t *root = iopath_json_in(dir, args, 0, NULL);

	/* fio: each trim of 8k is followed by the write of the same 8k block */
	cr_assert_eq(job_int(root, 0, "trim", "total_ios"), 8);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 8);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 65536);
	json_decref(root);
}

Test(trim, a_regular_file_fails_with_enotty_as_fio)
{
	const char *dir = tmpdir_make();
	char file[320], *args[] = { "--name=t", "--rw=randtrim", "--bs=4k", "--size=64k", file, NULL };
	json_t *root;

	snprintf(file, sizeof(file), "--filename=%s/f", dir);
	root = iopath_json_in(dir, args, 1, NULL);
	cr_assert_eq(job_int(root, 0, NULL, "error"), 25);
	cr_assert_eq(job_int(root, 0, "trim", "io_bytes"), 0);
	json_decref(root);
}

/* On a block device each engine discards: the trimmed blocks read back as zeroes. */
static void device_trim(const char *engine)
{
	char eng[64], fname[100], *args[] = { "--name=t", eng, fname, "--rw=trim", "--bs=64k",
					      "--size=1m", "--iodepth=4", NULL };
	unsigned char buf[4096];
	json_t *root;
	FILE *f;

	loop_make();
	cr_assert_eq(sh("yes iopath | head -c 1048576 | dd of=%s conv=notrunc status=none", img), 0);
	snprintf(eng, sizeof(eng), "--ioengine=%s", engine);
	snprintf(fname, sizeof(fname), "--filename=%s", dev);
	root = iopath_json_in(loop_dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, NULL, "error"), 0);
	cr_assert_eq(job_int(root, 0, "trim", "io_bytes"), 1 << 20);
	cr_assert_eq(job_int(root, 0, "trim", "total_ios"), 16);
	{
		/* done inside submit by every engine: as fio, all clat, no slat */
		json_t *t = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "trim");

		cr_assert_eq(json_integer_value(json_object_get(json_object_get(t, "clat_ns"), "N")), 16);
		cr_assert_eq(json_integer_value(json_object_get(json_object_get(t, "slat_ns"), "N")), 0,
			     "%s: trims counted in slat", engine);
	}
	json_decref(root);
	f = fopen(img, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
	for (size_t i = 0; i < sizeof(buf); i++)
		cr_assert_eq(buf[i], 0, "byte %zu not discarded", i);
}

Test(trim, psync_discards_a_block_device)
{
	device_trim("psync");
}

Test(trim, libaio_discards_a_block_device)
{
	device_trim("libaio");
}

Test(trim, io_uring_discards_a_block_device)
{
	device_trim("io_uring");
}

/*
 * One tool's randtrimwrite with bsrange on the null engine, recorded by write_iolog: each
 * write follows the trim of the same block, and the writes cover every 512-byte sector of
 * the file exactly once (fio cuts a block short where it runs into one the pass has done).
 */
static void check_bsrange_pass(const char *bin, const char *dir, const char *tag)
{
	enum { SECTORS = 2048 };
	static unsigned char seen[SECTORS];
	char log[400], line[600], ddir[16], pend_dir[16] = "";
	unsigned long long off, len, pend_off = 0, pend_len = 0, sectors = 0, s;
	unsigned writes = 0;
	FILE *f;

	snprintf(log, sizeof(log), "%s/%s.log", dir, tag);
	cr_assert_eq(sh("cd %s && %s --name=j --filename=%s/data --filesize=1M --ioengine=null "
			"--rw=randtrimwrite --bsrange=512-4k --write_iolog=%s >/dev/null",
			dir, bin, dir, log), 0, "%s did not run", tag);
	f = fopen(log, "r");
	cr_assert_not_null(f, "%s wrote no log", tag);
	memset(seen, 0, sizeof(seen));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %15s %llu %llu", ddir, &off, &len) != 3)
			continue;
		if (!strcmp(ddir, "trim")) {
			snprintf(pend_dir, sizeof(pend_dir), "%s", ddir);
			pend_off = off;
			pend_len = len;
			continue;
		}
		cr_assert_str_eq(ddir, "write", "%s: %s", tag, line);
		cr_assert(!strcmp(pend_dir, "trim") && pend_off == off && pend_len == len,
			  "%s: a write not after the trim of its block: %s", tag, line);
		pend_dir[0] = '\0';
		cr_assert(off % 512 == 0 && len % 512 == 0 && len >= 512 && len <= 4096,
			  "%s: %s", tag, line);
		for (s = off / 512; s < (off + len) / 512; s++) {
			cr_assert_lt(s, SECTORS, "%s: %s", tag, line);
			cr_assert_eq(seen[s], 0, "%s: sector %llu written twice (%s)", tag, s, line);
			seen[s] = 1;
			sectors++;
		}
		writes++;
	}
	fclose(f);
	cr_assert_eq(sectors, SECTORS, "%s: %llu of %d sectors written", tag, sectors, SECTORS);
	/* 1 MiB in requests of 512 B to 4 KiB, some cut short */
	cr_assert(writes > SECTORS / 8 && writes < SECTORS, "%s: %u writes", tag, writes);
}

Test(trim, randtrimwrite_bsrange_covers_every_sector_once_as_fio)
{
	const char *dir = tmpdir_make();

	check_bsrange_pass(getenv("IOPATH_BIN"), dir, "iopath");
	/* the same checks hold for fio's own run of the job (the reference) */
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it): iopath checked alone");
	check_bsrange_pass(FIO_BIN, dir, "fio");
}
