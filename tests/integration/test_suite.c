/* Integration: iopath suite vm-paths on local targets (a disk directory and /dev/shm), tiny. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(suite, .fini = tmpdir_cleanup);

/* 4 copy directions and 10 per-target rows for each of 2 targets. */
#define ROWS_TWO_TARGETS (4 + 2 * 10)

static unsigned leftovers(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "iopath-suite.", 13))
			n++;
	closedir(d);
	return n;
}

static struct run_out run_suite(const char *disk, const char *fmt, const char *out)
{
	char t1[320], t2[320];

	snprintf(t1, sizeof(t1), "--target=disk=%s", disk);
	snprintf(t2, sizeof(t2), "--target=shm=%s", "/dev/shm");
	return iopath_run("suite", "vm-paths", t1, t2, "--repeat", "2", "--scale=1/2048", fmt, out,
			  NULL);
}

Test(suite, two_local_targets_give_a_complete_table)
{
	const char *dir = tmpdir_make();
	char out[320], path[320];
	struct run_out r;
	json_t *root, *rows, *row;
	size_t i;

	snprintf(out, sizeof(out), "--output=%s/suite.json", dir);
	r = run_suite(dir, "--output-format=json,normal", out);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	assert_has(r.out, "copy                 disk -> shm", "metadata unlink      shm", NULL);
	snprintf(path, sizeof(path), "%s/suite.json", dir);
	root = json_load_path(path);
	rows = json_object_get(json_object_get(json_object_get(root, "iopath"), "suite"), "rows");
	cr_assert_eq(json_array_size(rows), ROWS_TWO_TARGETS);
	json_array_foreach(rows, i, row) {
		const char *test = json_string_value(json_object_get(row, "test"));

		cr_assert_eq(json_integer_value(json_object_get(row, "n")), 2, "%s: %s", test,
			     json_string_value(json_object_get(row, "error")));
		cr_assert(json_real_value(json_object_get(row, "median")) > 0, "%s", test);
		cr_assert(json_real_value(json_object_get(row, "ratio_to_reference")) > 0, "%s", test);
	}
	/* every run's job is kept, fio-shaped; the probes of both targets and the host too */
	cr_assert_geq(json_array_size(json_object_get(root, "jobs")), 2 * (4 + 2 * 7));
	cr_assert_eq(json_array_size(json_object_get(json_object_get(root, "iopath"), "targets")), 2);
	cr_assert_not_null(json_object_get(json_object_get(json_object_get(root, "iopath"), "host"),
					   "hypervisor"));
	cr_assert_eq(leftovers(dir), 0, "the suite left its files in the disk target");
	/* other tests may be using /dev/shm at the same time: look for this run's own directory */
	json_array_foreach(json_object_get(json_object_get(json_object_get(root, "iopath"), "suite"),
					   "targets"), i, row) {
		const char *files = json_string_value(json_object_get(row, "files"));

		cr_assert_not_null(files);
		cr_assert_neq(access(files, F_OK), 0, "the suite left %s behind", files);
	}
	json_decref(root);
	run_out_free(&r);
}

Test(suite, csv_has_a_row_per_cell)
{
	const char *dir = tmpdir_make();
	struct run_out r = run_suite(dir, "--output-format=csv", NULL);
	unsigned lines = 0;
	const char *p;

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_eq(strncmp(r.out, "test,from,to,metric,n,median", 28), 0, "%s", r.out);
	for (p = r.out; *p; p++)
		lines += *p == '\n';
	cr_assert_eq(lines, 1 + ROWS_TWO_TARGETS, "%s", r.out);
	run_out_free(&r);
}

Test(suite, works_with_one_target)
{
	const char *dir = tmpdir_make();
	struct run_out r;
	json_t *root = iopath_json_kept(&r, 0, "suite", "vm-paths",
					tmp_str("--target=only=%s", dir), "--repeat=1",
					"--scale=1/2048", "--output-format=json", NULL);

	/* a progress line per run on stderr (not a terminal), each with its ETA once one has run */
	assert_has(r.err, "suite: run 1/8: copy on only (ETA ?)\n",
		   "suite: run 8/8: metadata on only (ETA ", NULL);
	cr_assert_null(strstr(r.err, "suite: run 9/"), "%s", r.err);
	cr_assert_null(strstr(strstr(r.err, "suite: run 2/8"), "(ETA ?)"), "no ETA after a run: %s",
		       r.err);
	cr_assert_eq(json_array_size(json_object_get(json_object_get(json_object_get(root, "iopath"),
								     "suite"), "rows")), 1 + 10);
	json_decref(root);
	run_out_free(&r);
}

Test(suite, unknown_reference_is_a_usage_error)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("suite", "vm-paths", tmp_str("--target=disk=%s", dir),
				      "--reference", "nope", NULL);

	cr_assert_eq(r.status, 2);
	cr_assert_not_null(strstr(r.err, "nope"), "%s", r.err);
	run_out_free(&r);
}

/* The rows of the page's table with this id: "<tr>" between its <tbody> and </tbody>. */
static unsigned page_rows(const char *page, const char *id)
{
	const char *p = strstr(page, id), *end;
	unsigned n = 0;

	cr_assert_not_null(p, "no table %s", id);
	end = strstr(p, "</tbody>");
	cr_assert_not_null(end);
	for (p = strstr(p, "<tbody>"); (p = strstr(p + 1, "<tr")) && p < end;)
		n++;
	return n;
}

/*
 * suite --explain: its cells live in the explanation's section of the JSON (iopath.explain.cells)
 * and of the page (a table of their own), never among the suite's rows.
 */
Test(suite, explain_cells_are_kept_apart_from_the_suites_rows)
{
	const char *dir = tmpdir_make();
	char *page;
	json_t *root, *rows, *cells;
	struct run_out r = iopath_run("suite", "vm-paths", tmp_str("--target=only=%s", dir),
				      "--repeat=1", "--scale=1/2048", "--explain",
				      tmp_str("--output=%s/s.json", dir), "--output-format=json",
				      tmp_str("--html=%s/s.html", dir), NULL);

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	root = json_load_path(tmp_str("%s/s.json", dir));
	cr_assert_not_null(root);
	rows = json_object_get(json_object_get(json_object_get(root, "iopath"), "suite"), "rows");
	cells = json_object_get(json_object_get(json_object_get(root, "iopath"), "explain"), "cells");
	cr_assert_eq(json_array_size(rows), 1 + 10, "the suite's own rows only");
	cr_assert_geq(json_array_size(cells), 4, "explain's cells in its section");
	page = file_text(tmp_str("%s/s.html", dir));
	cr_assert_not_null(page);
	cr_assert_eq(page_rows(page, "id=\"r0-suite\""), 1 + 10, "the page's suite table");
	cr_assert_eq(page_rows(page, "id=\"r0-explain-table\""), json_array_size(cells),
		     "explain's table on the page");
	free(page);
	json_decref(root);
	run_out_free(&r);
}
