/* Integration: fio-compatible JSON shape, output destinations and diagnostics placement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness.h"

TestSuite(output, .fini = tmpdir_cleanup);

static json_t *small_run(const char *dir, const char *fmt)
{
	char file[300];
	json_t *root;

	snprintf(file, sizeof(file), "--filename=%s/f", dir);
	root = iopath_json(0, "--name=j", file, "--size=1m", "--rw=randread", "--ioengine=libaio",
			   "--iodepth=4", fmt, NULL);
	return root;
}

Test(output, json_has_fio_keys)
{
	static const char *const dir_keys[] = { "io_bytes", "io_kbytes", "bw_bytes", "bw", "iops",
						"runtime", "total_ios", "slat_ns", "clat_ns", "lat_ns" };
	static const char *const lat_keys[] = { "min", "max", "mean", "stddev", "N" };
	json_t *root = small_run(tmpdir_make(), "--output-format=json");
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0), *rd, *clat, *pct;
	unsigned i;

	cr_assert_not_null(job);
	cr_assert(json_is_string(json_object_get(job, "jobname")));
	cr_assert(json_is_integer(json_object_get(job, "groupid")));
	cr_assert(json_is_integer(json_object_get(job, "error")));
	cr_assert(json_is_object(json_object_get(job, "job options")));
	cr_assert(json_is_object(json_object_get(job, "trim")));
	cr_assert(json_is_object(json_object_get(job, "sync")));
	cr_assert(json_is_number(json_object_get(job, "usr_cpu")));
	cr_assert(json_is_number(json_object_get(job, "sys_cpu")));
	cr_assert(json_is_integer(json_object_get(job, "ctx")));
	rd = json_object_get(job, "read");
	for (i = 0; i < sizeof(dir_keys) / sizeof(dir_keys[0]); i++)
		cr_assert_not_null(json_object_get(rd, dir_keys[i]), "read.%s missing", dir_keys[i]);
	clat = json_object_get(rd, "clat_ns");
	for (i = 0; i < sizeof(lat_keys) / sizeof(lat_keys[0]); i++)
		cr_assert_not_null(json_object_get(clat, lat_keys[i]), "clat_ns.%s missing", lat_keys[i]);
	pct = json_object_get(clat, "percentile");
	cr_assert_not_null(json_object_get(pct, "99.000000"));
	cr_assert_not_null(json_object_get(pct, "99.990000"));
	cr_assert_not_null(json_object_get(pct, "1.000000"));
	cr_assert_eq(json_integer_value(json_object_get(rd, "total_ios")), 256);
	cr_assert_eq(json_integer_value(json_object_get(clat, "N")), 256);
	json_decref(root);
}

Test(output, json_states_what_was_measured)
{
	json_t *root = small_run(tmpdir_make(), "--output-format=json");
	json_t *meta = json_object_get(root, "iopath");
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);
	json_t *jm = json_object_get(job, "iopath");

	cr_assert(json_is_string(json_object_get(meta, "version")));
	cr_assert(json_is_string(json_object_get(meta, "kernel")));
	cr_assert_str_eq(json_string_value(json_object_get(jm, "engine")), "libaio");
	cr_assert(json_is_object(json_object_get(jm, "engine_applied")));
	cr_assert_not_null(json_object_get(json_object_get(jm, "engine_applied"), "io_setup_nr"));
	json_decref(root);
}

Test(output, json_plus_adds_bins_that_sum_to_n)
{
	json_t *root = small_run(tmpdir_make(), "--output-format=json+");
	json_t *clat = json_object_get(json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
						       "read"), "clat_ns");
	json_t *bins = json_object_get(clat, "bins"), *v;
	const char *k;
	long long sum = 0;

	cr_assert(json_is_object(bins));
	json_object_foreach(bins, k, v)
		sum += json_integer_value(v);
	cr_assert_eq(sum, json_integer_value(json_object_get(clat, "N")));
	json_decref(root);
}

Test(output, normal_and_json_together_keep_stdout_parseable)
{
	json_t *root = small_run(tmpdir_make(), "--output-format=normal,json");

	cr_assert_not_null(root);
	json_decref(root);
}

Test(output, output_file_gets_the_json)
{
	const char *dir = tmpdir_make(), *path = tmp_str("%s/res.json", dir);
	struct run_out r = iopath_run("--name=j", tmp_str("--filename=%s/f", dir), "--size=256k",
				      "--output-format=json", tmp_str("--output=%s", path), NULL);
	json_t *root;

	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(strlen(r.out), 0, "stdout not empty: %s", r.out);
	root = json_load_path(path);
	json_decref(root);
	run_out_free(&r);
}

/* --output naming a symbolic link replaces the file it names; the link stays a link. */
/* A symbolic link iopath did not create is refused: neither it nor the file it names changes. */
Test(output, output_through_a_symlink_is_refused_and_keeps_the_link)
{
	const char *dir = tmpdir_make();
	char link[300], real[300], opt[320];
	struct stat st;
	struct run_out r;

	snprintf(real, sizeof(real), "%s/real.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	file_write_text(real, "old");
	cr_assert_eq(symlink(real, link), 0);
	snprintf(opt, sizeof(opt), "--output=%s", link);
	r = iopath_run("--name=o", "--ioengine=null", "--size=64k", "--output-format=json", opt,
		       NULL);
	cr_expect_eq(r.status, 2, "%s", r.err);
	cr_expect_not_null(strstr(r.err, "symbolic link"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(lstat(link, &st), 0);
	cr_expect(S_ISLNK(st.st_mode), "the link was replaced by a file");
	cr_assert_eq(stat(real, &st), 0);
	cr_expect_eq(st.st_size, 3);
}

/* A device node other than /dev/null is refused, never written or renamed over. */
Test(output, output_to_a_device_node_leaves_the_device)
{
	const char *dir = tmpdir_make();
	char dev[300], opt[320];
	struct stat st;
	struct run_out r;

	if (!is_root())
		cr_skip_test("making a device node needs root");
	snprintf(dev, sizeof(dev), "%s/null", dir);
	cr_assert_eq(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0);
	snprintf(opt, sizeof(opt), "--output=%s", dev);
	r = iopath_run("--name=o", "--ioengine=null", "--size=64k", "--output-format=json", opt,
		       NULL);
	cr_expect_eq(r.status, 2, "%s", r.err);
	cr_expect_not_null(strstr(r.err, "character device"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(stat(dev, &st), 0);
	cr_expect(S_ISCHR(st.st_mode), "the device node was replaced by a file");
}

/* Field i (from 0) of a terse line, as a number; the line is the one naming job name. */
static double terse_field(const char *out, const char *name, unsigned i)
{
	char key[64], buf[8192], *save = NULL, *tok;
	const char *line;
	unsigned k = 0;
	size_t len;

	snprintf(key, sizeof(key), ";%s;", name);
	line = strstr(out, key);
	cr_assert_not_null(line, "no terse line for %s in: %s", name, out);
	while (line > out && line[-1] != '\n')
		line--;
	len = strcspn(line, "\n");
	cr_assert_lt(len, sizeof(buf));
	memcpy(buf, line, len);
	buf[len] = '\0';
	for (tok = strtok_r(buf, ";", &save); tok && k < i; tok = strtok_r(NULL, ";", &save))
		k++;
	cr_assert_not_null(tok, "terse line has fewer than %u fields", i + 1);
	return strtod(tok, NULL);
}

static double dir_real(json_t *root, unsigned job, const char *dir, const char *key)
{
	json_t *j = json_array_get(json_object_get(root, "jobs"), job);

	return json_number_value(json_object_get(json_object_get(j, dir), key));
}

Test(output, bw_agg_is_the_jobs_share_of_its_reporting_group)
{
	const char *dir = tmpdir_make();
	char out[300], path[300], *text;
	double a, b;
	json_t *root;

	/* one reporting group, no group_reporting: a moves 3/4 of its bytes, b 1/4 */
	snprintf(out, sizeof(out), "--output=%s/o.json", dir);
	iopath_exits(0, "--output-format=json,terse", out, "--ioengine=null", "--size=1g",
		     "--time_based", "--runtime=1100ms", "--name=a", "--rate=12m", "--name=b",
		     "--rate=4m", NULL);
	/* as fio, both formats went to the file: the terse lines, then the JSON */
	snprintf(path, sizeof(path), "%s/o.json", dir);
	text = file_text(path);
	root = json_in_text(text, path);
	a = dir_real(root, 0, "read", "bw_agg");
	b = dir_real(root, 1, "read", "bw_agg");
	cr_assert(a > 60 && a < 90, "a: bw_agg %f", a);
	cr_assert(b > 15 && b < 35, "b: bw_agg %f", b);
	/* terse v3: read bw min, max, agg% are fields 41-43 */
	*strchr(text, '{') = '\0';
	cr_assert_float_eq(terse_field(text, "a", 43), a, 1e-3);
	cr_assert_float_eq(terse_field(text, "b", 43), b, 1e-3);
	json_decref(root);
	free(text);
}
