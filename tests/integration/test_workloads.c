/* Integration: the built-in workload library, rw=copy and rw=metadata end to end. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#include <criterion/parameterized.h>

TestSuite(workloads, .fini = tmpdir_cleanup);

/* Every .fio file of the workloads directory; the tests run from the top of the tree. */
static const char *const library[] = {
	"cat-read", "copy", "dd-urandom", "dd-zero", "fsync-commit", "metadata", "mixed-70-30",
	"randread-4k-qd1", "randread-4k-qd32", "randwrite-4k-qd32", "seqread-1m", "seqwrite-1m",
};
#define NR_LIBRARY (sizeof(library) / sizeof(library[0]))

static unsigned count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	cr_assert_not_null(d, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* The description printed after name on its line of the listing, or NULL. */
static const char *listed(const char *out, const char *name, size_t len)
{
	const char *line;

	for (line = out; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, name, len) || line[len] != ' ')
			continue;
		line += len;
		while (*line == ' ')
			line++;
		return line;
	}
	return NULL;
}

Test(workloads, lists_every_file_with_its_description)
{
	struct run_out r = iopath_run("workloads", NULL);
	DIR *d = opendir("workloads");
	struct dirent *e;
	unsigned files = 0;

	cr_assert_eq(r.status, 0);
	cr_assert_not_null(d, "run from the top of the tree: %s", strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		const char *desc;

		if (len < 5 || strcmp(e->d_name + len - 4, ".fio"))
			continue;
		files++;
		desc = listed(r.out, e->d_name, len - 4);
		cr_assert_not_null(desc, "'%s' is not listed:\n%s", e->d_name, r.out);
		cr_assert(*desc && *desc != '\n', "'%s' has no description", e->d_name);
	}
	closedir(d);
	cr_assert_eq(files, NR_LIBRARY, "the test's list of workloads is out of date");
	run_out_free(&r);
}

struct wl_param {
	char name[32];
};

ParameterizedTestParameters(workloads, runs_scaled_down_and_cleans_up)
{
	static struct wl_param params[NR_LIBRARY];
	unsigned i;

	for (i = 0; i < NR_LIBRARY; i++)
		snprintf(params[i].name, sizeof(params[i].name), "%s", library[i]);
	return cr_make_param_array(struct wl_param, params, NR_LIBRARY);
}

ParameterizedTest(struct wl_param *p, workloads, runs_scaled_down_and_cleans_up)
{
	const char *const *name = (const char *const[]){ p->name };
	const char *dir = tmpdir_make();
	char target[300], out[300];
	struct run_out r;
	json_t *root, *job;

	snprintf(target, sizeof(target), "%s/t", dir);
	cr_assert_eq(mkdir(target, 0755), 0);
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	r = iopath_run("run", *name, "--target", target, "--scale=1/1024", "--output-format=json",
		       out, NULL);
	cr_assert_eq(r.status, 0, "%s: exit %d: %s", *name, r.status, r.err);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	root = json_load_path(out);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	cr_assert_not_null(job);
	cr_assert_eq(job_int(root, 0, NULL, "error"), 0);
	cr_assert_gt(job_int(root, 0, "read", "total_ios") + job_int(root, 0, "write", "total_ios"),
		     0, "%s moved nothing", *name);
	cr_assert_eq(count_entries(target), 0, "%s left files in its target", *name);
	json_decref(root);
	run_out_free(&r);
}

Test(workloads, unknown_workload_is_a_usage_error)
{
	struct run_out r = iopath_run("run", "no-such-workload", NULL);

	cr_assert_eq(r.status, 2);
	cr_assert_not_null(strstr(r.err, "no-such-workload"));
	run_out_free(&r);
}

Test(workloads, override_wins_over_the_workload)
{
	json_t *root = iopath_out_json("run", "seqwrite-1m", "--target", tmpdir_make(), "size=2m",
				       "--bs=64k", "--output-format=json", NULL);

	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 2 << 20);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 32);
	json_decref(root);
}

Test(workloads, dd_scale_keeps_ten_blocks_and_an_fsync)
{
	json_t *root = iopath_out_json("run", "dd-zero", "--target", tmpdir_make(), "--scale=1/100",
				       "--output-format=json", NULL);

	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 10);
	cr_assert_eq(job_int(root, 0, "sync", "total_ios"), 1);
	json_decref(root);
}

Test(workloads, failed_run_removes_its_files)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("run", "randread-4k-qd1", "--target", dir, "--scale=1/1024",
				      "ioengine=io_uring", "hipri=1", "direct=0", NULL);

	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "hipri (IOPOLL) needs direct=1"), "%s", r.err);
	cr_assert_eq(count_entries(dir), 0);
	run_out_free(&r);
}

/* Ctrl-C once the worker has completed an I/O: the run's temporary directory goes. */
Test(workloads, interrupted_run_removes_its_files)
{
	const char *dir = tmpdir_make();
	char *argv[] = { (char *)"iopath", (char *)"run", (char *)"randread-4k-qd1",
			 (char *)"--target", (char *)dir, (char *)"size=1m", (char *)"direct=0",
			 (char *)"runtime=30", NULL };
	struct run_bg b = iopath_start_running(tmpdir_make(), argv, NULL);
	struct run_out r;

	cr_assert(running_reached(&b), "the worker never completed an I/O");
	kill(b.pid, SIGINT);
	r = iopath_wait(&b, 30);
	cr_assert_eq(r.status, 130, "exit %d: %s", r.status, r.err);
	cr_assert_eq(count_entries(dir), 0);
	run_out_free(&r);
}

static void write_random(const char *path, size_t len)
{
	unsigned char *buf = malloc(len);
	FILE *f = fopen(path, "w");
	size_t i;

	cr_assert(buf && f);
	srand(7);
	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)rand();
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
	free(buf);
}

static bool same_files(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	int ca, cb;

	cr_assert(fa && fb);
	do {
		ca = fgetc(fa);
		cb = fgetc(fb);
	} while (ca == cb && ca != EOF);
	fclose(fa);
	fclose(fb);
	return ca == cb;
}

static void copy_with(const char *engine, const char *depth)
{
	const char *dir = tmpdir_make();
	char src[300], dst[300], a_src[320], a_dst[320];
	const size_t len = 1000003;	/* not a multiple of the block size */
	json_t *root, *copy;
	struct stat st;

	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(dst, sizeof(dst), "%s/dst", dir);
	snprintf(a_src, sizeof(a_src), "--copy_from=%s", src);
	snprintf(a_dst, sizeof(a_dst), "--filename=%s", dst);
	write_random(src, len);
	root = iopath_json(0, "--name=c", "--rw=copy", a_src, a_dst, "--bs=64k", engine, depth,
			   "--verify=crc32c", "--output-format=json", NULL);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), (long long)len);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), (long long)len);
	copy = json_object_get(json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
					       "iopath"), "copy");
	cr_assert(json_is_true(json_object_get(copy, "verified")));
	cr_assert_eq(stat(dst, &st), 0);
	cr_assert_eq((size_t)st.st_size, len);
	cr_assert(same_files(src, dst), "the copy differs from its source");
	json_decref(root);
}

Test(workloads, copy_moves_exactly_the_source_bytes_psync)
{
	copy_with("--ioengine=psync", "--iodepth=1");
}

Test(workloads, copy_moves_exactly_the_source_bytes_io_uring_qd8)
{
	copy_with("--ioengine=io_uring", "--iodepth=8");
}

Test(workloads, copy_without_a_source_or_size_is_refused)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=c", "--rw=copy", tmp_str("--copy_from=%s/missing", dir),
				      tmp_str("--filename=%s/dst", dir), NULL);

	cr_assert_eq(r.status, 2);
	cr_assert_not_null(strstr(r.err, "give size="), "%s", r.err);
	run_out_free(&r);
}

Test(workloads, metadata_reports_each_operation)
{
	static const char *const ops[] = { "create", "stat", "open_read", "unlink" };
	const char *dir = tmpdir_make();
	json_t *root = iopath_out_json("--name=m", "--rw=metadata", tmp_str("--directory=%s", dir),
				       "--nrfiles=100", "--files_per_dir=10", "--dir_fanout=3",
				       "--output-format=json", NULL), *meta;
	unsigned i;

	meta = json_object_get(json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
					       "iopath"), "metadata");
	cr_assert_eq(json_integer_value(json_object_get(meta, "dirs")), 10);
	cr_assert_eq(json_integer_value(json_object_get(meta, "depth")), 2);
	for (i = 0; i < 4; i++) {
		json_t *op = json_object_get(json_object_get(meta, "ops"), ops[i]);

		cr_assert_eq(json_integer_value(json_object_get(op, "ops")), 100, "%s", ops[i]);
		cr_assert_not_null(json_object_get(json_object_get(json_object_get(op, "lat_ns"),
								   "percentile"), "99.000000"));
	}
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 100);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 100 * 4096);
	cr_assert_eq(count_entries(dir), 0, "the tree was not removed");
	json_decref(root);
}
