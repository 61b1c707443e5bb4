/*
 * Integration: fio's file-operation engines (falloc, ftruncate, filecreate, filestat,
 * filedelete): the operation really happens to the files, and is counted as fio 3.33 counts it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(fileops, .fini = tmpdir_cleanup);

static long long lat_n(json_t *root, const char *dir, const char *lat)
{
	json_t *d = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), dir);

	return json_integer_value(json_object_get(json_object_get(d, lat), "N"));
}

/* Allocated bytes of path (st_blocks). */
static long long allocated(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "%s missing", path);
	return (long long)st.st_blocks * 512;
}

static long long size_of(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "%s missing", path);
	return (long long)st.st_size;
}

/* Punch a hole into a file; false where the filesystem has no hole punching. */
static bool fs_punches(const char *dir)
{
	return sh("cd %s && truncate -s 64k p && fallocate -l 64k p 2>/dev/null && fallocate -p -o 0 -l 4k p 2>/dev/null; r=$?; rm -f p; exit $r",
		  dir) == 0;
}

Test(fileops, falloc_write_allocates_the_file_and_counts_each_request_as_a_write)
{
	const char *dir = tmpdir_make();
	char fname[300], path[300];
	char *args[] = { "--name=f", "--ioengine=falloc", "--rw=write", "--bs=64k", "--size=1m",
			 fname, NULL };
	json_t *root;

	snprintf(path, sizeof(path), "%s/falloc.dat", dir);
	snprintf(fname, sizeof(fname), "--filename=%s", path);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 16);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 1 << 20);
	cr_assert_eq(lat_n(root, "write", "clat_ns"), 16);
	cr_assert_eq(lat_n(root, "write", "lat_ns"), 16);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 0);
	cr_assert_eq(size_of(path), 1 << 20);
	cr_assert_geq(allocated(path), 1 << 20, "fallocate did not allocate the file");
	json_decref(root);
}

Test(fileops, falloc_randtrim_punches_holes_where_fio_trims)
{
	const char *dir = tmpdir_make();
	char fname[300], path[300];
	char *args[] = { "--name=f", "--ioengine=falloc", "--rw=randtrim", "--bs=64k",
			 "--size=1m", fname, NULL };
	json_t *root;

	if (!fs_punches(dir))
		cr_skip_test("the filesystem of %s cannot punch holes", dir);
	snprintf(path, sizeof(path), "%s/falloc.dat", dir);
	snprintf(fname, sizeof(fname), "--filename=%s", path);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "trim", "total_ios"), 16);
	cr_assert_eq(job_int(root, 0, "trim", "io_bytes"), 1 << 20);
	cr_assert_eq(lat_n(root, "trim", "clat_ns"), 16);
	cr_assert_eq(size_of(path), 1 << 20, "a punched hole keeps the size");
	cr_assert_eq(allocated(path), 0, "every block was trimmed, yet %lld bytes stay allocated",
		     allocated(path));
	json_decref(root);
}

Test(fileops, falloc_read_job_refuses_a_file_iopath_did_not_create)
{
	const char *dir = tmpdir_make();
	char fname[300], path[300];

	snprintf(path, sizeof(path), "%s/user.dat", dir);
	snprintf(fname, sizeof(fname), "--filename=%s", path);
	file_make(path, 1 << 20, 3);
	iopath_refuses("not created by iopath", "--name=f", "--ioengine=falloc", "--rw=read",
		       "--bs=64k", "--size=1m", fname, NULL);
}

Test(fileops, ftruncate_sets_the_size_to_each_write_offset)
{
	const char *dir = tmpdir_make();
	char fname[300], path[300];
	char *args[] = { "--name=t", "--ioengine=ftruncate", "--rw=write", "--bs=64k",
			 "--size=1m", fname, NULL };
	json_t *root;

	snprintf(path, sizeof(path), "%s/trunc.dat", dir);
	snprintf(fname, sizeof(fname), "--filename=%s", path);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 16);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 1 << 20);
	cr_assert_eq(lat_n(root, "write", "clat_ns"), 16);
	/* the last write's offset: 15 blocks of 64k, as fio leaves it */
	cr_assert_eq(size_of(path), 15 * 65536);
	json_decref(root);
}

Test(fileops, ftruncate_refuses_a_reading_job)
{
	struct run_out r = iopath_run("--name=t", "--ioengine=ftruncate", "--rw=randread",
				      "--size=1m", tmp_str("--directory=%s", tmpdir_make()), NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "ioengine=ftruncate truncates on writes only"), "%s", r.err);
	cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
	run_out_free(&r);
}

Test(fileops, readonly_refuses_a_falloc_read_job)
{
	struct run_out r = iopath_run("--readonly", "--name=f", "--ioengine=falloc", "--rw=read",
				      "--size=1m", tmp_str("--directory=%s", tmpdir_make()), NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "--readonly forbids"), "%s", r.err);
	run_out_free(&r);
}

/* Files named NAME.0.N in dir: how many exist. */
static unsigned count_files(const char *dir, const char *name, unsigned n)
{
	char path[400];
	unsigned i, have = 0;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s.0.%u", dir, name, i);
		have += access(path, F_OK) == 0;
	}
	return have;
}

/* The engine's op is timed once per file into clat of the direction; blocks are counted. */
static json_t *fileop_run(const char *dir, const char *engine, const char *rw,
			  const char *extra, int want)
{
	char d[300], e[64], r[64];
	char *args[] = { "--name=f", e, r, d, "--nrfiles=8", "--filesize=16k", "--bs=4k",
			 (char *)extra, NULL };

	snprintf(d, sizeof(d), "--directory=%s", dir);
	snprintf(e, sizeof(e), "--ioengine=%s", engine);
	snprintf(r, sizeof(r), "--rw=%s", rw);
	return iopath_json_in(dir, args, want, NULL);
}

static void expect_fileop_counts(json_t *root, const char *dir, const char *other)
{
	cr_assert_eq(job_int(root, 0, dir, "total_ios"), 32, "8 files of 4 blocks");
	cr_assert_eq(job_int(root, 0, dir, "io_bytes"), 8 * 16384);
	cr_assert_eq(lat_n(root, dir, "clat_ns"), 8, "one timed operation per file");
	cr_assert_eq(lat_n(root, dir, "lat_ns"), 0, "fio 3.33 reports no total latency");
	cr_assert_eq(job_int(root, 0, other, "total_ios"), 0);
}

Test(fileops, filecreate_creates_each_file_empty_and_times_each_creation)
{
	const char *dir = tmpdir_make();
	json_t *root = fileop_run(dir, "filecreate", "write", NULL, 0);
	char path[400];

	expect_fileop_counts(root, "write", "read");
	cr_assert_eq(count_files(dir, "f", 8), 8);
	snprintf(path, sizeof(path), "%s/f.0.7", dir);
	cr_assert_eq(size_of(path), 0, "filecreate writes nothing");
	json_decref(root);
}

Test(fileops, filecreate_opens_each_file_again_each_loop)
{
	const char *dir = tmpdir_make();
	json_t *root = fileop_run(dir, "filecreate", "read", "--loops=3", 0);

	cr_assert_eq(lat_n(root, "read", "clat_ns"), 24);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 96);
	json_decref(root);
}

Test(fileops, filestat_lays_files_out_and_stats_each)
{
	static const char *const types[] = { "--stat_type=stat", "--stat_type=lstat",
					      "--stat_type=statx" };
	const char *dir = tmpdir_make();
	char path[400];
	unsigned i;

	for (i = 0; i < 3; i++) {
		json_t *root = fileop_run(dir, "filestat", "read", types[i], 0);

		expect_fileop_counts(root, "read", "write");
		json_decref(root);
	}
	cr_assert_eq(count_files(dir, "f", 8), 8, "filestat leaves its files");
	snprintf(path, sizeof(path), "%s/f.0.0", dir);
	cr_assert_eq(size_of(path), 16384, "laid out to filesize");
}

Test(fileops, filestat_refuses_an_unknown_stat_type)
{
	const char *dir = tmpdir_make();

	cr_assert_null(fileop_run(dir, "filestat", "read", "--stat_type=fstat", 2));
}

Test(fileops, filedelete_deletes_every_file_even_with_unlink_0)
{
	const char *dir = tmpdir_make();
	json_t *root = fileop_run(dir, "filedelete", "randwrite", "--unlink=0", 0);
	char cmd[400];

	expect_fileop_counts(root, "write", "read");
	cr_assert_eq(count_files(dir, "f", 8), 0);
	/* no ownership sidecar left behind either */
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A %s | grep -v out.json)\"", dir);
	cr_assert_eq(sh("%s", cmd), 0, "files left in %s", dir);
	json_decref(root);
}

Test(fileops, filedelete_second_loop_fails_as_fio_with_enoent)
{
	struct run_out r = iopath_run("--name=f", "--ioengine=filedelete", "--nrfiles=2",
				      "--filesize=4k", "--loops=2",
				      tmp_str("--directory=%s", tmpdir_make()), NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "delete("), "%s", r.err);
	run_out_free(&r);
}

Test(fileops, filedelete_refuses_a_file_iopath_did_not_create)
{
	const char *dir = tmpdir_make(), *path = tmp_str("%s/f.0.0", dir);
	const char *d = tmp_str("--directory=%s", dir);
	struct run_out r;

	file_make(path, 4096, 1);
	r = iopath_run("--name=f", "--ioengine=filedelete", "--filesize=4k", d, NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "which iopath did not create"), "%s", r.err);
	cr_assert_eq(access(path, F_OK), 0, "the user's file was deleted");
	run_out_free(&r);
	r = iopath_run("--allow-overwrite", "--name=f", "--ioengine=filedelete", "--filesize=4k", d,
		       NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(access(path, F_OK), 0, "allowed, yet not deleted");
	run_out_free(&r);
}

Test(fileops, filedelete_removes_what_filecreate_made)
{
	const char *dir = tmpdir_make();
	json_t *root = fileop_run(dir, "filecreate", "read", NULL, 0);

	json_decref(root);
	cr_assert_eq(count_files(dir, "f", 8), 8);
	root = fileop_run(dir, "filedelete", "read", NULL, 0);
	cr_assert_eq(count_files(dir, "f", 8), 0, "filecreate's files were not recognised as iopath's");
	json_decref(root);
}

Test(fileops, file_op_engines_refuse_what_their_loop_lacks)
{
	const char *dir = tmpdir_make();

	cr_assert_null(fileop_run(dir, "filecreate", "randtrim", NULL, 2));
	cr_assert_null(fileop_run(dir, "filestat", "read", "--rate_iops=10", 2));
}

/*
 * size= below the files' total: fio's round robin spreads the blocks over every file, so
 * every file is created (fio 3.33: 10 files, 20 I/Os, clat N=10), not the first half.
 */
Test(fileops, a_short_size_reaches_every_file_in_turn)
{
	const char *dir = tmpdir_make();
	char d[320], path[340], *args[] = { "--name=f", d, "--ioengine=filecreate", "--rw=write",
					   "--nrfiles=10", "--filesize=16k", "--bs=4k", "--size=80k",
					   NULL };
	json_t *root, *job;
	unsigned i;

	snprintf(d, sizeof(d), "--directory=%s", dir);
	root = iopath_json_in(dir, args, 0, NULL);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 20);
	cr_assert_eq(lat_n(root, "write", "clat_ns"), 10, "one create per file");
	cr_assert_eq(json_real_value(json_object_get(json_object_get(job, "iodepth_level"), "1")),
		     100.0, "fio counts every such I/O at depth 1");
	json_decref(root);
	for (i = 0; i < 10; i++) {
		snprintf(path, sizeof(path), "%s/f.0.%u", dir, i);
		cr_assert_eq(access(path, F_OK), 0, "%s was not created", path);
	}
}

/* Their I/Os are not timed: terse's latency distribution is empty, as fio's. */
Test(fileops, terse_latency_distribution_is_empty)
{
	const char *dir = tmpdir_make();
	char *p;
	unsigned field = 1;
	struct run_out r = iopath_run("--name=fs", tmp_str("--directory=%s", dir),
				      "--ioengine=filestat", "--nrfiles=20", "--filesize=16k",
				      "--bs=4k", "--disk_util=0", "--output-format=terse", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	/* fields 100 to 121: the latency buckets, all 0.00% */
	for (p = r.out; *p && field < 100; p++)
		if (*p == ';')
			field++;
	cr_assert_eq(field, 100, "%s", r.out);
	for (field = 100; field <= 121; field++) {
		cr_assert_eq(strncmp(p, "0.00%", 5), 0, "field %u: %.20s", field, p);
		p = strchr(p, ';');
		if (!p)
			break;
		p++;
	}
	run_out_free(&r);
	r = iopath_run("--enghelp=filestat", NULL);
	cr_assert_not_null(strstr(r.out, "type: one of stat|lstat|statx"), "%s", r.out);
	run_out_free(&r);
}

/* Directories named NAME.0.N in dir: how many exist. */
static unsigned count_dirs(const char *dir, const char *name, unsigned n)
{
	char path[400];
	struct stat st;
	unsigned i, have = 0;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s.0.%u", dir, name, i);
		have += !stat(path, &st) && S_ISDIR(st.st_mode);
	}
	return have;
}

Test(fileops, dircreate_makes_each_file_a_directory_and_times_it)
{
	const char *dir = tmpdir_make();
	json_t *root = fileop_run(dir, "dircreate", "write", NULL, 0);

	expect_fileop_counts(root, "write", "read");
	cr_assert_eq(count_dirs(dir, "f", 8), 8);
	json_decref(root);
}

Test(fileops, dirstat_makes_the_directories_first_and_stats_each)
{
	const char *dir = tmpdir_make();
	json_t *root = fileop_run(dir, "dirstat", "read", NULL, 0);

	expect_fileop_counts(root, "read", "write");
	cr_assert_eq(count_dirs(dir, "f", 8), 8);
	json_decref(root);
	/* again, over the directories that are now there */
	root = fileop_run(dir, "dirstat", "read", NULL, 0);
	expect_fileop_counts(root, "read", "write");
	json_decref(root);
}

Test(fileops, dirdelete_removes_the_directories_it_made_and_no_other)
{
	const char *dir = tmpdir_make();
	char path[400], *kept;
	json_t *root = fileop_run(dir, "dirdelete", "read", NULL, 0);

	expect_fileop_counts(root, "read", "write");
	cr_assert_eq(count_dirs(dir, "f", 8), 0);
	json_decref(root);
	/*
	 * a directory (or a file) that was there before is not removed: refused when the job is
	 * planned, one line naming it, exit 2, and none of the others is made or removed
	 */
	snprintf(path, sizeof(path), "%s/f.0.3", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	iopath_refuses("f.0.3, which is already there", "--name=f", "--ioengine=dirdelete",
		       "--rw=read", tmp_str("--directory=%s", dir), "--nrfiles=8", "--filesize=16k",
		       "--bs=4k", NULL);
	cr_assert_eq(count_dirs(dir, "f", 8), 1);
	rmdir(path);
	file_write_text(path, "the user's\n");
	iopath_exits(2, "--name=f", "--ioengine=dirdelete", "--rw=read",
		     tmp_str("--directory=%s", dir), "--nrfiles=8", "--filesize=16k", "--bs=4k",
		     NULL);
	kept = file_text(path);
	cr_assert_str_eq(kept, "the user's\n");
	free(kept);
	cr_assert_eq(count_dirs(dir, "f", 8), 0);
}

/*
 * write_lat_log: each file's operation is one clat log entry, of the job's direction, block
 * size and offset 0 (fio's add_clat_sample from these engines); the lat and slat logs stay
 * empty. write_bw_log and write_iops_log are refused.
 */
Test(fileops, lat_log_holds_one_clat_entry_per_file_operation)
{
	const char *dir = tmpdir_make();
	char log[320];
	json_t *root;

	snprintf(log, sizeof(log), "--write_lat_log=%s/lg", dir);
	root = fileop_run(dir, "filecreate", "write", log, 0);
	expect_fileop_counts(root, "write", "read");
	json_decref(root);
	cr_assert_eq(sh("cd %s && test $(grep -c '^[0-9]*, [1-9][0-9]*, 1, 0, 0$' lg_clat.1.log) = 8 && test $(wc -l < lg_clat.1.log) = 8 && test ! -s lg_lat.1.log && test ! -s lg_slat.1.log",
			dir), 0, "8 clat entries (write, bs 0, offset 0), empty lat and slat logs");
	snprintf(log, sizeof(log), "--write_bw_log=%s/bw", dir);
	cr_assert_null(fileop_run(dir, "filecreate", "write", log, 2));
}
