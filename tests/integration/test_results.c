/* Integration: result files are replaced atomically, and a result is never silently lost. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "harness.h"

TestSuite(results, .fini = mount_cleanup);

static bool has_temporaries(const char *dir)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(dir);

	cr_assert_not_null(d);
	while ((de = readdir(d)))
		found |= strstr(de->d_name, ".tmp.") != NULL;
	closedir(d);
	return found;
}

Test(results, output_file_is_replaced_whole_never_rewritten_in_place)
{
	const char *dir = tmpdir_make();
	char out[300], opt[320], old[16] = "";
	struct run_out r;
	json_t *root;
	int fd;

	snprintf(out, sizeof(out), "%s/out.json", dir);
	file_write_text(out, "old result\n");
	/* an earlier result of iopath's (its mark): replaced without asking */
	iopath_mark(out);
	fd = open(out, O_RDONLY);
	cr_assert_geq(fd, 0);
	snprintf(opt, sizeof(opt), "--output=%s", out);
	r = iopath_run("--name=n", "--ioengine=null", "--size=1m", "--output-format=json", opt, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	/* whoever had the old file open still reads the old file: a rename, not a rewrite */
	cr_assert_eq(pread(fd, old, sizeof(old) - 1, 0), 11);
	cr_assert_str_eq(old, "old result\n");
	close(fd);
	root = json_load_path(out);
	json_decref(root);
	cr_assert_not(has_temporaries(dir));
	run_out_free(&r);
}

Test(results, normal_output_to_a_file_goes_to_the_file)
{
	const char *dir = tmpdir_make();
	char out[300], opt[320];
	struct run_out r;
	FILE *f;
	char line[256] = "";

	snprintf(out, sizeof(out), "%s/out.txt", dir);
	snprintf(opt, sizeof(opt), "--output=%s", out);
	r = iopath_run("--name=n", "--ioengine=null", "--size=1m", opt, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	f = fopen(out, "r");
	cr_assert_not_null(f, "no %s", out);
	/* as fio's file: the job line printed before the run first, the job's results later */
	cr_assert_not_null(fgets(line, sizeof(line), f));
	cr_assert_not_null(strstr(line, "n: (g=0): rw=read"), "%s", line);
	while (fgets(line, sizeof(line), f) && !strstr(line, "n: (groupid=0"))
		;
	fclose(f);
	cr_assert_not_null(strstr(line, "n: (groupid=0"), "no job results in %s", out);
	cr_assert_not(has_temporaries(dir));
	run_out_free(&r);
}

Test(results, output_into_a_missing_directory_is_refused_before_running)
{
	const char *dir = tmpdir_make(), *data = tmp_str("%s/data", dir);
	struct run_out r = iopath_run("--name=w", tmp_str("--filename=%s", data), "--rw=write",
				      "--size=1m", "--output-format=json",
				      tmp_str("--output=%s/nowhere/out.json", dir), NULL);

	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "nowhere"), "%s", r.err);
	cr_assert_neq(access(data, F_OK), 0, "the job ran although its result had nowhere to go");
	run_out_free(&r);
}

Test(results, output_that_is_a_directory_is_refused)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=n", "--ioengine=null", "--size=1m",
				      tmp_str("--output=%s", dir), NULL);

	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "is a directory"), "%s", r.err);
	run_out_free(&r);
}

/* The result cannot be written where asked (a full filesystem): it is saved elsewhere. */
Test(results, a_result_that_cannot_be_written_is_saved_elsewhere)
{
	const char *dir = tmpdir_make();
	char out[320], opt[320], filler[320], *saved, *end;
	uint64_t sum;
	struct run_out r;
	json_t *root;

	snprintf(test_mnt, sizeof(test_mnt), "%s/full", dir);
	test_mount(test_mnt, "tmpfs", 0, "size=64k", "a small tmpfs");
	snprintf(out, sizeof(out), "%s/out.json", test_mnt);
	file_write_text(out, "{\"old\": true}\n");
	iopath_mark(out);
	sum = file_sum(out);
	snprintf(filler, sizeof(filler), "dd if=/dev/zero of=%s/filler bs=4k 2>/dev/null", test_mnt);
	sh("%s", filler);
	snprintf(opt, sizeof(opt), "--output=%s", out);
	setenv("TMPDIR", dir, 1);
	r = iopath_run("--name=n", "--ioengine=null", "--size=1m", "--output-format=json+", opt,
		       NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_eq(file_sum(out), sum, "the old result was damaged");
	cr_assert_not(has_temporaries(test_mnt));
	saved = strstr(r.err, "saved to ");
	cr_assert_not_null(saved, "%s", r.err);
	saved += 9;
	end = strstr(saved, " instead");
	cr_assert_not_null(end, "%s", r.err);
	*end = '\0';
	root = json_load_path(saved);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 1 << 20);
	json_decref(root);
	run_out_free(&r);
}
