/*
 * Integration: sweep --explain on paths whose behaviour is known by construction, each of
 * which must get its verdict: tmpfs (memory), the checkout's own disk, a FUSE filesystem
 * serving one request at a time with 2 ms each, a FUSE filesystem whose fsync takes 30 ms,
 * and a loop device without and with direct I/O. No timing is asserted: each construction
 * is far from the thresholds that tell its verdict from the others.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/explain_json.h"
#include "harness.h"

/* What a test set up beyond its temporary directories, undone in reverse by the fini. */
static char mounts[4][320];
static unsigned nr_mounts;
static char loopdev[64];
static int loopfd = -1;

static void explain_cleanup(void)
{
	while (nr_mounts)
		umount2(mounts[--nr_mounts], MNT_DETACH);
	loopdev_detach(&loopfd, loopdev);
	tmpdir_cleanup();
}

TestSuite(explain, .fini = explain_cleanup);

static void need_root(void)
{
	if (!is_root())
		cr_skip_test("needs root to mount the test's filesystems");
}

static void mount_tmpfs(const char *dir)
{
	cr_assert_eq(mkdir(dir, 0755), 0);
	if (mount("none", dir, "tmpfs", 0, "size=96m"))
		cr_skip_test("cannot mount tmpfs here");
	snprintf(mounts[nr_mounts++], sizeof(mounts[0]), "%s", dir);
}

/* faultfs of a fresh tmpfs on dir/fuse: its own I/O is memory speed, the delays are its own */
static const char *mount_faultfs(const char *dir, const char *opts)
{
	static char mnt[320];
	char back[320];

	snprintf(back, sizeof(back), "%s/back", dir);
	snprintf(mnt, sizeof(mnt), "%s/fuse", dir);
	mount_tmpfs(back);
	faultfs_mount(back, mnt, opts);
	snprintf(mounts[nr_mounts++], sizeof(mounts[0]), "%s", mnt);
	return mnt;
}

/* sweep --explain of one target (a single short cell of its own); the explanation of it. */
static json_t *explain_target(const char *dir, const char *mnt, const char *runtime,
			      const char *extra, json_t **root_out)
{
	char target[400], json[400];
	json_t *root, *t;

	snprintf(target, sizeof(target), "--target=t=%s", mnt);
	snprintf(json, sizeof(json), "--json=%s/explained.json", dir);
	iopath_prints(0, HAS("explain: what limits each path"), "sweep", "--engine=psync",
		      "--rw=randread", "--size=16m", runtime, "--explain", target, json, extra,
		      extra ? "--save" : NULL, NULL);
	snprintf(json, sizeof(json), "%s/explained.json", dir);
	root = json_load_path(json);
	t = json_array_get(json_object_get(json_object_get(json_object_get(root, "iopath"), "explain"),
					   "targets"), 0);
	cr_assert_not_null(t, "no explain target in the JSON");
	cr_assert_str_eq(json_string_value(json_object_get(t, "target")), "t");
	*root_out = root;
	return t;
}

static char *findings_text(const json_t *t)
{
	return json_dumps(json_object_get(t, "findings"), JSON_INDENT(1));
}

#define assert_finding(t, code, ...) do { \
	char *_s = findings_text(t); \
	cr_assert_not_null(finding(t, code), "no %s finding in %s", code, _s); \
	free(_s); \
} while (0)

#define assert_no_finding(t, code) do { \
	char *_s = findings_text(t); \
	cr_assert_null(finding(t, code), "a %s finding where there is none: %s", code, _s); \
	free(_s); \
} while (0)

Test(explain, tmpfs_is_memory)
{
	const char *dir = tmpdir_make();
	char mnt[320], db[400];
	json_t *root, *t, *again;

	need_root();
	snprintf(mnt, sizeof(mnt), "%s/mem", dir);
	mount_tmpfs(mnt);
	snprintf(db, sizeof(db), "--db=%s/results.db", dir);
	t = explain_target(dir, mnt, "--runtime=300ms", db, &root);
	cr_assert_str_eq(verdict(t), "cache", "verdict %s: %s", verdict(t),
			 json_string_value(json_object_get(t, "summary")));
	cr_assert_str_eq(conf(finding(t, "cache")), "high");
	assert_no_finding(t, "serialized");
	assert_no_finding(t, "sync-bound");
	/* iopath explain reads the run back from the database to the same verdict */
	again = iopath_json(0, "explain", "latest", db, "--json", NULL);
	cr_assert_str_eq(verdict(json_array_get(json_object_get(json_object_get(json_object_get(again,
		"iopath"), "explain"), "targets"), 0)), verdict(t));
	json_decref(again);
	json_decref(root);
}

/*
 * A path that holds requests in parallel: faultfs --parallel sleeps 4 ms in each of up to about
 * ten threads, so IOPS grow with the depth by construction, not by how a shared disk happens to
 * behave at that moment (the checkout's own disk, tried first, scales or not with whatever
 * else the machine is doing).
 */
Test(explain, a_path_holding_requests_in_parallel_scales_with_depth)
{
	const char *dir = tmpdir_make(), *mnt;
	json_t *root, *t;
	const json_t *f;

	need_root();
	mnt = mount_faultfs(dir, "--delay-ms=4 --parallel");
	t = explain_target(dir, mnt, "--runtime=300ms", NULL, &root);
	f = finding(t, "device-bound") ? finding(t, "device-bound") : finding(t, "latency-bound");
	cr_assert_not_null(f, "neither device-bound nor latency-bound in %s", findings_text(t));
	cr_assert_gt(ev(f, "iops_gain"), 2, "a path whose IOPS do not grow with depth");
	cr_assert_gt(ev(f, "qd1_lat_us"), 3000);
	assert_no_finding(t, "serialized");
	json_decref(root);
}

Test(explain, one_request_at_a_time_is_serialized)
{
	const char *dir = tmpdir_make(), *mnt;
	json_t *root, *t;
	const json_t *f;

	need_root();
	/* 2 ms a request: the 64 at the deepest go round 4 times in the 500 ms of a cell */
	mnt = mount_faultfs(dir, "--delay-ms=2");
	t = explain_target(dir, mnt, "--runtime=500ms", NULL, &root);
	cr_assert_str_eq(verdict(t), "serialized", "verdict %s: %s", verdict(t),
			 json_string_value(json_object_get(t, "summary")));
	f = finding(t, "serialized");
	cr_assert_neq(strcmp(conf(f), "low"), 0);
	/* Little's law: the 64 requests asked for were in flight, waiting their turn */
	cr_assert_gt(ev(f, "little_ratio"), 0.6);
	cr_assert_lt(ev(f, "iops_gain"), 1.5);
	cr_assert_gt(ev(f, "qd1_lat_us"), 1500);
	assert_no_finding(t, "latency-bound");
	assert_no_finding(t, "device-bound");
	json_decref(root);
}

Test(explain, a_slow_fsync_is_sync_bound)
{
	const char *dir = tmpdir_make(), *mnt;
	json_t *root, *t;
	const json_t *f;

	need_root();
	mnt = mount_faultfs(dir, "--fsync-delay-ms=30");
	t = explain_target(dir, mnt, "--runtime=300ms", NULL, &root);
	cr_assert_str_eq(verdict(t), "sync-bound", "verdict %s: %s", verdict(t),
			 json_string_value(json_object_get(t, "summary")));
	f = finding(t, "sync-bound");
	cr_assert_str_eq(conf(f), "high");
	cr_assert_geq(ev(f, "fsync_us"), 30000);
	cr_assert_gt(ev(f, "sync_share"), 0.5);
	json_decref(root);
}

/* A 64 MiB ext4 image on the test's directory, on a loop device (dio: --direct-io=on). */
static const char *mount_loop(const char *dir, bool dio)
{
	static char mnt[320];
	char img[320];

	need_root();
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	snprintf(mnt, sizeof(mnt), "%s/loop", dir);
	if (sh("truncate -s 64M '%s' && mkfs.ext4 -q -F '%s' >/dev/null 2>&1", img, img))
		cr_skip_test("cannot make an ext4 image (mkfs.ext4 missing?)");
	loopfd = loopdev_attach(img, dio ? "--direct-io=on" : "--direct-io=off", loopdev,
			     sizeof(loopdev));
	if (loopfd < 0)
		cr_skip_test("no loop device here");
	if (sh("losetup -l -n -O DIO %s | grep -q %d", loopdev, dio)) {
		if (dio)
			cr_skip_test("the loop device cannot do direct I/O on this filesystem");
		cr_skip_test("the loop device does direct I/O though asked not to");
	}
	cr_assert_eq(mkdir(mnt, 0755), 0);
	if (mount(loopdev, mnt, "ext4", 0, NULL))
		cr_skip_test("cannot mount the loop device");
	snprintf(mounts[nr_mounts++], sizeof(mounts[0]), "%s", mnt);
	return mnt;
}

Test(explain, a_loop_device_without_dio_is_a_cache)
{
	const char *dir = tmpdir_make(), *mnt = mount_loop(dir, false);
	json_t *root, *t;
	const json_t *f;

	t = explain_target(dir, mnt, "--runtime=300ms", NULL, &root);
	assert_finding(t, "cache");
	f = finding(t, "cache");
	cr_assert_neq(strcmp(conf(f), "low"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(f, "evidence"), "source")),
			 "probe");
	/*
	 * Not asked: whether its ladder reads as serialized. Reads answered from the page cache
	 * scale with depth only as far as the CPUs let them, and on a busy machine they do not
	 * (IOPS flat from iodepth 1 to 64 at more than memory-speed latency): a timing, not the
	 * path.
	 */
	json_decref(root);
}

Test(explain, a_loop_device_with_dio_reaches_the_disk)
{
	const char *dir = tmpdir_make(), *mnt = mount_loop(dir, true);
	json_t *root, *t;

	t = explain_target(dir, mnt, "--runtime=300ms", NULL, &root);
	assert_no_finding(t, "cache");
	assert_no_finding(t, "serialized");
	if (!finding(t, "device-bound"))
		assert_finding(t, "latency-bound");
	json_decref(root);
}

Test(explain, bad_input_is_one_line_and_exit_2)
{
	struct run_out r = iopath_run("explain", "/nonexistent/results.json", NULL);

	cr_assert_eq(r.status, 2, "exit %d", r.status);
	cr_assert_not_null(strstr(r.err, "/nonexistent/results.json"));
	cr_assert_eq(strchr(r.err, '\n') - r.err + 1, (long)strlen(r.err), "more than one line: %s",
		     r.err);
	run_out_free(&r);
	iopath_exits(2, "explain", "--bogus", NULL);
}

static const char *direction(const json_t *t, const char *dir)
{
	return json_string_value(json_object_get(json_object_get(json_object_get(t, "directions"),
								 dir), "verdict"));
}

static const json_t *target_named(const json_t *root, const char *name)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(json_object_get(root, "iopath"), "explain"),
					   "targets"), i, t)
		if (!strcmp(json_string_value(json_object_get(t, "target")), name))
			return t;
	return NULL;
}

/*
 * A lab.json of a real lab run under TCG (tests/lab/lab-explained.json: 9p-none and
 * ext4-virtio-blk with --explain, two paths kept): each path is a target, its reads told
 * apart, its synced writes sync-bound.
 */
Test(explain, the_labs_result_is_explained_per_path)
{
	json_t *root = iopath_out_json("explain", "tests/lab/lab-explained.json", "--json", NULL);
	const json_t *p9 = target_named(root, "9p-none"), *disk = target_named(root, "ext4-virtio-blk");

	cr_assert(p9 && disk, "the lab's paths are not the targets: %s", json_dumps(root, JSON_COMPACT));
	cr_assert_not_null(strstr(json_string_value(json_object_get(p9, "path_summary")), "9p"));
	cr_assert_not_null(strstr(json_string_value(json_object_get(disk, "path_summary")), "TCG"));
	cr_assert_str_eq(direction(p9, "read"), "serialized");
	assert_no_finding(disk, "serialized");
	assert_finding(disk, "device-bound");
	cr_assert_str_eq(direction(p9, "write"), "sync-bound");
	cr_assert_str_eq(direction(disk, "write"), "sync-bound");
	/* the overall verdict is kept, as before the per-direction ones */
	cr_assert_str_eq(verdict(disk), "sync-bound");
	json_decref(root);
	iopath_prints(0, HAS("reads: serialized (high), writes: sync-bound"), "explain",
		      "tests/lab/lab-explained.json", NULL);
}

Test(explain, a_newer_lab_schema_is_refused_in_one_line)
{
	char path[400];
	struct run_out r;
	FILE *f;

	snprintf(path, sizeof(path), "%s/lab.json", tmpdir_make());
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("{\"schema\": \"iopath-vmlab/9\", \"cells\": []}\n", f);
	cr_assert_eq(fclose(f), 0);
	r = iopath_run("explain", path, NULL);
	cr_assert_eq(r.status, 2, "exit %d", r.status);
	cr_assert_not_null(strstr(r.err, "iopath-vmlab/9 is newer"), "%s", r.err);
	cr_assert_eq(strchr(r.err, '\n') - r.err + 1, (long)strlen(r.err), "more than one line: %s",
		     r.err);
	run_out_free(&r);
}

/*
 * --explain's cells live in the explanation's section: the JSON's cells, the table and the
 * page hold the sweep's own, iopath.explain.cells explain's; read back, the file explains
 * the same.
 */
Test(explain, its_cells_are_kept_apart_from_the_sweeps)
{
	const char *dir = tmpdir_make();
	char target[400], json[400], html[400], path[400], *page, *p, *end;
	json_t *root, *ex, *again;
	struct run_out r;
	unsigned rows = 0;

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(json, sizeof(json), "--json=%s/x.json", dir);
	snprintf(html, sizeof(html), "--html=%s/x.html", dir);
	r = iopath_run("sweep", "--engine=psync", "--iodepth=1,2", "--size=4m", "--runtime=100ms",
		       "--explain", target, json, html, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, "explain's own cells"), "%s", r.out);
	cr_assert(strstr(r.out, "explain's own cells") > strstr(r.out, "psync"), "%s", r.out);
	run_out_free(&r);
	snprintf(path, sizeof(path), "%s/x.json", dir);
	root = json_load_path(path);
	cr_assert_eq(json_array_size(json_object_get(root, "cells")), 2, "the sweep's own two cells");
	ex = json_object_get(json_object_get(root, "iopath"), "explain");
	cr_assert(json_array_size(json_object_get(ex, "cells")) >= 4, "explain's cells in its section");
	/* read back, explain sees every cell again: the same verdict */
	again = iopath_out_json("explain", path, "--json", NULL);
	cr_assert_str_eq(verdict(json_array_get(json_object_get(json_object_get(json_object_get(again,
		"iopath"), "explain"), "targets"), 0)),
		verdict(json_array_get(json_object_get(ex, "targets"), 0)));
	json_decref(again);
	json_decref(root);
	/* the page: two rows in the sweep's table, explain's in a table of their own */
	snprintf(path, sizeof(path), "%s/x.html", dir);
	page = file_text(path);
	cr_assert_not_null(page);
	p = strstr(page, "id=\"r0-table\"");
	cr_assert_not_null(p);
	end = strstr(p, "</tbody>");
	cr_assert_not_null(end);
	for (; (p = strstr(p, "<tr data-cell")) && p < end; p++)
		rows++;
	cr_assert_eq(rows, 2, "%u rows in the sweep's table", rows);
	cr_assert_not_null(strstr(page, "id=\"r0-explain-table\""), "no table of explain's cells");
	free(page);
}

/*
 * A ladder cell the sweep measured already (io_uring or libaio at iodepth 1, direct=1, the
 * same size and runtime) is not run again: the sweep's cells keep the two repeats asked for,
 * explain's section holds none of them, and the progress counts only the cells that ran.
 */
Test(explain, a_cell_the_sweep_measured_is_read_not_run_again)
{
	const char *dir = tmpdir_make();
	char target[400], json[400], path[400], last[64];
	json_t *root, *cells, *ex, *c, *e;
	struct run_out r;
	size_t i, j;

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(json, sizeof(json), "--json=%s/x.json", dir);
	r = iopath_run("sweep", "--engine=io_uring,libaio", "--iodepth=1", "--size=4m",
		       "--runtime=100ms", "--repeat=2", "--explain", target, json, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/x.json", dir);
	root = json_load_path(path);
	cells = json_object_get(root, "cells");
	ex = json_object_get(json_object_get(json_object_get(root, "iopath"), "explain"), "cells");
	cr_assert_eq(json_array_size(cells), 2);
	json_array_foreach(cells, i, c) {
		cr_assert_eq(json_array_size(json_object_get(c, "samples")), 2,
			     "%s: %zu samples for --repeat=2", json_string_value(json_object_get(c, "key")),
			     json_array_size(json_object_get(c, "samples")));
		json_array_foreach(ex, j, e)
			cr_assert_str_neq(json_string_value(json_object_get(e, "key")),
					  json_string_value(json_object_get(c, "key")),
					  "the sweep's cell run again by explain");
	}
	/* the ladder's iodepth 1 was the sweep's: one fewer than the 7 a target has otherwise */
	cr_assert_lt(json_array_size(ex), 7, "%zu explain cells", json_array_size(ex));
	snprintf(last, sizeof(last), "explain cell %zu/%zu:", json_array_size(ex), json_array_size(ex));
	cr_assert_not_null(strstr(r.err, last), "no '%s' in the progress:\n%s", last, r.err);
	json_decref(root);
	run_out_free(&r);
}

/*
 * A plain sweep (no --explain) on a share whose direct reads a cache answers: its target's
 * probe carries the honesty check (not "unknown"), the table marks the cells NOT direct, and
 * the page has one NOT direct I/O box for the target and the marker in each cell's row.
 */
Test(explain, a_sweep_without_explain_knows_its_targets_direct_honesty)
{
	const char *dir = tmpdir_make(), *mnt;
	char target[400], json[400], html[400], *page;
	json_t *root, *probe;
	unsigned n = 0;
	const char *p;

	need_root();
	mnt = mount_faultfs(dir, NULL);
	snprintf(target, sizeof(target), "--target=share=%s", mnt);
	snprintf(json, sizeof(json), "--json=%s/s.json", dir);
	snprintf(html, sizeof(html), "--html=%s/s.html", dir);
	iopath_prints(0, HAS("ok, NOT direct"), "sweep", "--engine=psync", "--iodepth=1,2",
		      "--size=4m", "--runtime=100ms", target, json, html, NULL);
	root = json_load_path(tmp_str("%s/s.json", dir));
	probe = json_object_get(json_array_get(json_object_get(root, "targets"), 0), "probe");
	cr_assert_str_eq(json_string_value(json_object_get(probe, "direct_honoured")), "false",
			 "the target's probe: %s",
			 json_string_value(json_object_get(probe, "direct_evidence")));
	json_decref(root);
	page = file_text(tmp_str("%s/s.html", dir));
	for (p = page; (p = strstr(p, "<b>NOT direct I/O")); p++)
		n++;
	cr_assert_eq(n, 1, "%u NOT direct I/O boxes for one target", n);
	for (n = 0, p = page; (p = strstr(p, "\">NOT direct</b>")); p++)
		n++;
	cr_assert_eq(n, 2, "%u of the 2 cells marked in the page's table", n);
	free(page);
}

/*
 * A memory filesystem has no storage to bypass: its cells are not flagged NOT direct, and its
 * target card says so as a fact of the path, not in a NOT direct I/O box the rows contradict.
 */
Test(explain, a_memory_target_is_named_as_such_not_as_a_cache_answering_direct_io)
{
	const char *dir;
	char shm[300], target[400], html[400], *page;

	if (access("/dev/shm", W_OK))
		cr_skip_test("/dev/shm is not writable here");
	snprintf(shm, sizeof(shm), "/dev/shm/iopath-test-%d", (int)getpid());
	cr_assert_eq(mkdir(shm, 0700), 0, "mkdir %s", shm);
	dir = tmpdir_make();
	snprintf(target, sizeof(target), "--target=shm=%s", shm);
	snprintf(html, sizeof(html), "--html=%s/m.html", dir);
	iopath_exits(0, "sweep", "--engine=psync", "--iodepth=1", "--size=1m", "--runtime=50ms",
		     target, html, NULL);
	page = file_text(tmp_str("%s/m.html", dir));
	rmdir(shm);
	cr_assert_null(strstr(page, "<b>NOT direct I/O"), "a NOT direct I/O box on a memory target");
	cr_assert_null(strstr(page, "\">NOT direct</b>"), "a memory cell marked NOT direct");
	assert_has(page, "No storage below: memory-backed filesystem", NULL);
	free(page);
}
