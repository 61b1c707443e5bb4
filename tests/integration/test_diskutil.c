/*
 * fio's disk utilization statistics: the device under a file in the test's temporary
 * directory (skipped where that is on no block device), its counters over the run, and the
 * JSON, normal and terse shapes fio gives them; disk_util=0, diskless jobs and filesystems
 * without a device have none.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "harness.h"

/* the temporary directories each test made go with it */
TestSuite(diskutil, .fini = tmpdir_cleanup);

#define FIO "/usr/bin/fio"
#define TMPFS_MAGIC 0x01021994

/* The whole disk under dir, as fio names it (a partition's disk), or skip the test. */
static void disk_of(const char *dir, char *name, size_t len)
{
	char link[64], real[PATH_MAX], part[PATH_MAX + 16], *slash;
	struct stat st;

	cr_assert_eq(stat(dir, &st), 0);
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!major(st.st_dev) || !realpath(link, real))
		cr_skip_test("%s is on no block device (st_dev %u:%u): fio reports no disk there",
			     dir, major(st.st_dev), minor(st.st_dev));
	snprintf(part, sizeof(part), "%s/partition", real);
	if (!access(part, F_OK)) {
		slash = strrchr(real, '/');
		*slash = '\0';
	}
	snprintf(name, len, "%s", strrchr(real, '/') + 1);
}

/* A 1 MiB file in a fresh temporary directory, read sequentially with O_DIRECT in 4 KiB. */
static const char *data_file(char *file, size_t len, char *disk, size_t dlen)
{
	const char *dir = tmpdir_make();

	disk_of(dir, disk, dlen);
	snprintf(file, len, "%s/data", dir);
	file_make(file, 1 << 20, 7);
	return file;
}

static json_t *entry_named(json_t *arr, const char *name)
{
	size_t i;

	for (i = 0; i < json_array_size(arr); i++)
		if (!strcmp(json_string_value(json_object_get(json_array_get(arr, i), "name")), name))
			return json_array_get(arr, i);
	return NULL;
}

static json_t *direct_read_json(const char *file, const char *extra)
{
	char fn[PATH_MAX + 16];
	json_t *root;

	snprintf(fn, sizeof(fn), "--filename=%s", file);
	root = iopath_json(0, "--output-format=json", "--name=du", fn, "--rw=read", "--bs=4k",
			   "--size=1m", "--direct=1", extra ? extra : "--disk_util=1", NULL);
	return root;
}

Test(diskutil, json_names_the_device_of_the_file)
{
	char file[PATH_MAX], disk[64];
	json_t *root, *du, *e;

	data_file(file, sizeof(file), disk, sizeof(disk));
	root = direct_read_json(file, NULL);
	du = json_object_get(root, "disk_util");
	cr_assert(json_is_array(du), "no disk_util array");
	e = entry_named(du, disk);
	cr_assert_not_null(e, "disk_util does not name %s", disk);
	cr_assert(json_is_integer(json_object_get(e, "write_ticks")));
	cr_assert(json_is_integer(json_object_get(e, "in_queue")));
	cr_assert(json_is_real(json_object_get(e, "util")));
	cr_assert_leq(json_real_value(json_object_get(e, "util")), 100.0);
	json_decref(root);
}

Test(diskutil, read_ios_grow_by_at_least_the_direct_reads)
{
	char file[PATH_MAX], disk[64];
	json_t *root, *e;
	long long ios;

	data_file(file, sizeof(file), disk, sizeof(disk));
	root = direct_read_json(file, NULL);
	ios = job_int(root, 0, "read", "total_ios");
	cr_assert_eq(ios, 256);
	e = entry_named(json_object_get(root, "disk_util"), disk);
	cr_assert_not_null(e);
	/* other processes may read the disk too, never less */
	cr_assert_geq(json_integer_value(json_object_get(e, "read_ios")), ios);
	json_decref(root);
}

/* The path's own description (iopath.targets[].devices) names the same disk; no second copy. */
Test(diskutil, agrees_with_the_probed_device_chain)
{
	char file[PATH_MAX], disk[64];
	json_t *root, *t, *devs;
	bool found = false;
	size_t i, k;

	data_file(file, sizeof(file), disk, sizeof(disk));
	root = direct_read_json(file, NULL);
	cr_assert_null(json_object_get(json_object_get(root, "iopath"), "disk_util"));
	t = json_object_get(json_object_get(root, "iopath"), "targets");
	for (i = 0; i < json_array_size(t); i++) {
		devs = json_object_get(json_array_get(t, i), "devices");
		for (k = 0; k < json_array_size(devs); k++)
			found |= !strcmp(json_string_value(json_object_get(json_array_get(devs, k),
									   "name")), disk);
	}
	cr_assert(found, "the probe's device chain does not name %s", disk);
	json_decref(root);
}

Test(diskutil, disk_util_0_removes_it)
{
	char file[PATH_MAX], disk[64];
	json_t *root;

	data_file(file, sizeof(file), disk, sizeof(disk));
	root = direct_read_json(file, "--disk_util=0");
	cr_assert_null(json_object_get(root, "disk_util"));
	json_decref(root);
}

Test(diskutil, null_engine_has_none)
{
	json_t *root = iopath_out_json("--output-format=json", "--name=n", "--ioengine=null",
				       "--size=1m", NULL);
	struct run_out r;

	cr_assert_null(json_object_get(root, "disk_util"));
	json_decref(root);
	r = iopath_run("--name=n", "--ioengine=null", "--size=1m", NULL);
	cr_assert_null(strstr(r.out, "Disk stats"));
	run_out_free(&r);
}

Test(diskutil, tmpfs_file_has_none)
{
	struct statfs sf;
	struct run_out r;
	char fn[64];

	if (statfs("/dev/shm", &sf) || sf.f_type != TMPFS_MAGIC)
		cr_skip_test("/dev/shm is not tmpfs here");
	snprintf(fn, sizeof(fn), "--filename=/dev/shm/iopath-du-%d", (int)getpid());
	r = iopath_run("--name=t", fn, "--size=256k", "--rw=write", "--unlink=1", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_null(strstr(r.out, "Disk stats"), "%s", r.out);
	run_out_free(&r);
}

Test(diskutil, normal_output_ends_with_the_section)
{
	char file[PATH_MAX], disk[64], fn[PATH_MAX + 16], line[96];
	struct run_out r;
	const char *sec;

	data_file(file, sizeof(file), disk, sizeof(disk));
	snprintf(fn, sizeof(fn), "--filename=%s", file);
	r = iopath_run("--name=du", fn, "--rw=read", "--bs=4k", "--size=1m", "--direct=1", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	sec = strstr(r.out, "\nDisk stats (read/write):\n");
	cr_assert_not_null(sec, "no Disk stats section: %s", r.out);
	cr_assert_null(strstr(sec, "Run status group"), "the section comes last: %s", r.out);
	snprintf(line, sizeof(line), "\n  %s: ios=", disk);
	cr_assert_not_null(strstr(sec, line), "no line for %s: %s", disk, sec);
	cr_assert_not_null(strstr(sec, ", merge="));
	cr_assert_not_null(strstr(sec, ", in_queue="));
	cr_assert_not_null(strstr(sec, "%\n"));
	run_out_free(&r);
}

static unsigned fields(const char *line)
{
	unsigned n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ';';
	return n;
}

Test(diskutil, terse_has_as_many_fields_as_fio)
{
	char file[PATH_MAX], disk[64], fn[PATH_MAX + 16], tail[96];
	char *argv[] = { "fio", "--minimal", "--name=du", fn, "--rw=read", "--bs=4k",
			 "--size=1m", "--direct=1", NULL };
	struct run_out r, f;

	if (access(FIO, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	data_file(file, sizeof(file), disk, sizeof(disk));
	snprintf(fn, sizeof(fn), "--filename=%s", file);
	r = iopath_run("--minimal", "--name=du", fn, "--rw=read", "--bs=4k", "--size=1m",
		       "--direct=1", NULL);
	f = prog_runv(FIO, argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(f.status, 0, "%s", f.err);
	cr_assert_eq(fields(r.out), fields(f.out), "iopath %u fields, fio %u:\n%s%s",
		     fields(r.out), fields(f.out), r.out, f.out);
	snprintf(tail, sizeof(tail), ";%s;", disk);
	cr_assert_not_null(strstr(r.out, tail), "no disk fields for %s: %s", disk, r.out);
	run_out_free(&r);
	run_out_free(&f);
}
