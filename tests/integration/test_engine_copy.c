/*
 * Integration: adding an engine is one file in engines/ and one registry line. The build makes
 * build/iopath-enginecopy exactly so (a copy of the null engine named nulltwin, flagged for a
 * probe trial; see the Makefile), and these tests run it through the probe, the runner and a
 * sweep: nothing outside engines/ had to name it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(engine_copy, .fini = tmpdir_cleanup);

static const char *copy_bin(void)
{
	const char *bin = getenv("IOPATH_ENGINECOPY_BIN");

	if (!bin || access(bin, X_OK))
		cr_skip_test("IOPATH_ENGINECOPY_BIN is not set or not built (make build/iopath-enginecopy)");
	return bin;
}

Test(engine_copy, probe_runs_its_trial)
{
	const char *bin = copy_bin();
	const char *dir = tmpdir_make();
	char *argv[] = { (char *)bin, "probe", (char *)dir, "--json", NULL };
	json_t *root = prog_json(bin, argv, 0), *paths, *t;

	paths = json_object_get(root, "paths");
	cr_assert(json_array_size(paths) == 1, "probe: one path expected");
	t = json_object_get(json_object_get(json_array_get(paths, 0), "trials"), "nulltwin");
	cr_assert(t, "the probe ran no trial of the new engine");
	cr_assert_str_eq(json_string_value(json_object_get(t, "state")), "ok");
	json_decref(root);
}

Test(engine_copy, runner_moves_its_bytes)
{
	const char *bin = copy_bin();
	char *argv[] = { (char *)bin, "--name=x", "--ioengine=nulltwin", "--rw=randread",
			 "--bs=4k", "--size=1m", "--iodepth=8", "--output-format=json", NULL };
	json_t *root = prog_json(bin, argv, 0);

	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 1 << 20);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 256);
	json_decref(root);
}

Test(engine_copy, sweep_has_its_cells)
{
	const char *bin = copy_bin();
	const char *dir = tmpdir_make();
	char target[320], csv[320], line[512];
	char *argv[] = { (char *)bin, "sweep", "--engine", "null,nulltwin", "--iodepth", "1,4",
			 "--direct", "0", "--size", "1m", "--runtime", "0", target, "--csv", csv, NULL };
	struct run_out r;
	unsigned twin = 0;
	FILE *f;

	snprintf(target, sizeof(target), "--target=%s", dir);
	snprintf(csv, sizeof(csv), "%s/cells.csv", dir);
	r = prog_runv(bin, argv);
	cr_assert_eq(r.status, 0, "sweep: exit %d: %s", r.status, r.err);
	f = fopen(csv, "r");
	cr_assert(f, "sweep wrote no CSV");
	while (fgets(line, sizeof(line), f))
		twin += strstr(line, "nulltwin") != NULL;
	fclose(f);
	cr_assert_eq(twin, 2, "sweep: %u nulltwin cells, 2 expected (iodepth 1 and 4)", twin);
	run_out_free(&r);
}

Test(engine_copy, sweep_defaults_take_it)
{
	const char *bin = copy_bin();
	char *argv[] = { (char *)bin, "sweep", "--dry-run", NULL };
	struct run_out r = prog_runv(bin, argv);

	cr_assert_eq(r.status, 0, "sweep --dry-run: exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.out, "nulltwin"), "the default engines of a sweep miss the new engine:\n%s",
		  r.out);
	run_out_free(&r);
}
