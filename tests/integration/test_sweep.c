/* Integration: iopath sweep builds cells, runs them, and writes table, CSV, JSON, charts, store. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

TestSuite(sweep, .fini = tmpdir_cleanup);

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	cr_assert_not_null(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)len + 1);
	cr_assert_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* null and psync at QD 1 and 4 on a temporary directory: one pass over 1 MiB per cell. */
static struct run_out small_sweep(const char *dir, const char *extra1, const char *extra2)
{
	char target[300], csv[300], json[300], plot[300];

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(csv, sizeof(csv), "--csv=%s/out.csv", dir);
	snprintf(json, sizeof(json), "--json=%s/out.json", dir);
	snprintf(plot, sizeof(plot), "--plot=%s/plots", dir);
	return iopath_run("sweep", "--engine=null,psync", "--iodepth=1,4", "--direct=0", target,
			  "--size=1m", "--runtime=0", csv, json, plot, extra1, extra2, NULL);
}

Test(sweep, small_grid_writes_table_csv_json_and_charts)
{
	const char *dir = tmpdir_make();
	struct run_out r = small_sweep(dir, NULL, NULL);
	char path[400], *csv, *svg;
	unsigned char magic[8];
	json_t *root, *cells;
	FILE *f;

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	assert_has(r.out, "null", "psync", "IOPS", NULL);
	cr_assert_not_null(strstr(r.err, "cell 4/4"), "progress: %s", r.err);

	snprintf(path, sizeof(path), "%s/out.csv", dir);
	csv = slurp(path);
	cr_assert_eq(count_lines(csv), 5, "header + 4 cells:\n%s", csv);
	cr_assert_eq(strncmp(csv, "target,rw,bs,iodepth", 20), 0, "%s", csv);
	free(csv);

	snprintf(path, sizeof(path), "%s/out.json", dir);
	root = json_load_path(path);
	cr_assert_eq(json_integer_value(json_object_get(root, "schema_version")), 1);
	cells = json_object_get(root, "cells");
	cr_assert_eq(json_array_size(cells), 4);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(cells, 0), "status")), "ok");
	cr_assert_eq(json_array_size(json_object_get(json_array_get(cells, 0), "samples")), 1);
	cr_assert(json_is_object(json_object_get(json_array_get(json_object_get(root, "targets"), 0),
						 "probe")), "the target's probe is embedded");
	cr_assert(json_is_string(json_object_get(json_object_get(json_object_get(root, "env"), "iopath"),
						 "git_revision")));
	json_decref(root);

	snprintf(path, sizeof(path), "%s/plots/iops.png", dir);
	f = fopen(path, "rb");
	cr_assert_not_null(f, "no %s", path);
	cr_assert_eq(fread(magic, 1, 8, f), 8);
	fclose(f);
	cr_assert_eq(memcmp(magic, "\x89PNG\r\n\x1a\n", 8), 0, "not a PNG");
	snprintf(path, sizeof(path), "%s/plots/iops.svg", dir);
	svg = slurp(path);
	cr_assert_not_null(strstr(svg, "<svg"));
	cr_assert_not_null(strstr(svg, ">null<"), "series null in the SVG");
	cr_assert_not_null(strstr(svg, ">psync<"), "series psync in the SVG");
	cr_assert_not_null(strstr(svg, "IOPS by engine, grouped by target"), "title");
	free(svg);
	snprintf(path, sizeof(path), "%s/plots/latency.svg", dir);
	svg = slurp(path);
	cr_assert_not_null(strstr(svg, ">p99.9<"), "percentile series in the latency chart");
	free(svg);
	snprintf(path, sizeof(path), "%s/plots/qd_scaling.svg", dir);
	svg = slurp(path);
	cr_assert_not_null(strstr(svg, "iodepth"), "queue-depth axis");
	free(svg);
	snprintf(path, sizeof(path), "%s/plots/bw.png", dir);
	cr_assert_eq(access(path, R_OK), 0, "bandwidth chart");
	run_out_free(&r);
}

/*
 * Every text of a gnuplot SVG inside its picture: the anchor of each label (turned or not)
 * and its length at about half an em a character (gnuplot's Arial at 9 px).
 */
static void gnuplot_text_inside(const char *path)
{
	char *svg = slurp(path), *p;
	double W = 0, H = 0;
	unsigned n = 0;

	cr_assert_eq(sscanf(strstr(svg, "viewBox=\"0 0 "), "viewBox=\"0 0 %lf %lf", &W, &H), 2, "%s", path);
	for (p = svg; (p = strstr(p, "<g transform=\"translate(")); p++) {
		double x, y, rot = 0, len;
		char *t = strstr(p, "<text>"), *e = t ? strstr(t, "</text>") : NULL, *gt = strchr(p, '>');
		bool end = gt && memmem(p, (size_t)(gt - p), "text-anchor=\"end\"", 17);
		bool mid = gt && memmem(p, (size_t)(gt - p), "text-anchor=\"middle\"", 20);

		if (!t || !e || sscanf(p, "<g transform=\"translate(%lf,%lf) rotate(%lf)", &x, &y, &rot) < 2 ||
		    t > strstr(p + 1, "</g>"))
			continue;
		len = (double)(e - t - 6) * 4.5;
		{
			/* the text runs from s0 to s0 + len along its direction */
			static const struct { double deg, c, s; } turns[] = {
				{ 0, 1, 0 }, { -45, 0.7071, -0.7071 }, { 45, 0.7071, 0.7071 }, { -90, 0, -1 },
				{ 90, 0, 1 }, { 270, 0, -1 }, { 30, 0.866, 0.5 }, { -30, 0.866, -0.5 },
			};
			double s0 = end ? -len : mid ? -len / 2 : 0, c = 1, sn = 0;
			unsigned i;

			for (i = 0; i < sizeof(turns) / sizeof(turns[0]) && turns[i].deg != rot; i++)
				;
			cr_assert(i < sizeof(turns) / sizeof(turns[0]), "%s: a turn of %.0f degrees", path, rot);
			c = turns[i].c;
			sn = turns[i].s;
			for (unsigned k = 0; k < 2; k++) {
				double px = x + (s0 + k * len) * c, py = y + (s0 + k * len) * sn;

				cr_assert(px >= -2 && px <= W + 2 && py >= -2 && py <= H + 2,
					  "%s: text '%.*s' (at %.0f,%.0f turned %.0f) reaches %.0f,%.0f outside %.0fx%.0f",
					  path, (int)(e - t - 6), t + 6, x, y, rot, px, py, W, H);
			}
		}
		n++;
	}
	cr_assert(n > 5, "%s: only %u texts", path, n);
	free(svg);
}

Test(sweep, gnuplot_titles_and_labels_stay_in_the_picture)
{
	const char *dir = tmpdir_make();
	char target[400], plot[300], path[400];

	/* a long target name: its labels and its line of the title are long */
	snprintf(target, sizeof(target), "--target=a-target-whose-name-runs-on-and-on-for-the-labels=%s", dir);
	snprintf(plot, sizeof(plot), "--plot=%s/plots", dir);
	iopath_exits(0, "sweep", "--engine=null,psync", "--iodepth=1,4", "--bs=4k,64k",
		     "--direct=0", target, "--size=1m", "--runtime=0", plot, NULL);
	snprintf(path, sizeof(path), "%s/plots/latency.svg", dir);
	gnuplot_text_inside(path);
	snprintf(path, sizeof(path), "%s/plots/iops.svg", dir);
	gnuplot_text_inside(path);
}

Test(sweep, incompatible_cells_are_listed_as_skipped_with_the_reason)
{
	const char *dir = tmpdir_make();
	char target[300], json[300], path[400];
	struct run_out r;
	json_t *root, *cells, *c;
	size_t i;
	unsigned skipped = 0;

	snprintf(target, sizeof(target), "--target=%s", dir);
	snprintf(json, sizeof(json), "--json=%s/out.json", dir);
	r = iopath_run("sweep", "--engine=null,mmap", "--direct=1", target, "--size=1m",
		       "--runtime=0", json, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, "skipped: ioengine=mmap cannot do direct=1"), "%s", r.out);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	root = json_load_path(path);
	cells = json_object_get(root, "cells");
	cr_assert_eq(json_array_size(cells), 2);
	json_array_foreach(cells, i, c) {
		if (strcmp(json_string_value(json_object_get(c, "status")), "skipped"))
			continue;
		skipped++;
		cr_assert_not_null(strstr(json_string_value(json_object_get(c, "reason")), "mmap"));
	}
	cr_assert_eq(skipped, 1);
	json_decref(root);
	run_out_free(&r);
}

Test(sweep, dry_run_lists_the_product)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("sweep", "--engine=null,psync,mmap", "--direct=0,1",
				      "--bs=4k,64k", "--rw=randread,write", tmp_str("--target=a=%s",
				      dir), "--dry-run", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.out, "24 cells, 20 to run, 4 skipped"), "%s", r.out);
	run_out_free(&r);
}

Test(sweep, a_workload_keeps_its_own_settings_unless_swept)
{
	const char *target = tmp_str("--target=w=%s", tmpdir_make());
	struct run_out r = iopath_run("sweep", "--workload=randread-4k-qd32", "--engine=null,psync",
				      target, "--dry-run", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.out, "run      w randread-4k-qd32 null\n"), "%s", r.out);
	run_out_free(&r);
	r = iopath_run("sweep", "--workload=randread-4k-qd32", "--engine=null", "--iodepth=1,2",
		       target, "--dry-run", NULL);
	cr_assert_not_null(strstr(r.out, "w randread-4k-qd32 qd=2 null"), "%s", r.out);
	run_out_free(&r);
}

Test(sweep, unknown_engine_is_bad_input)
{
	struct run_out r = iopath_run("sweep", "--engine=null,warp", "--dry-run", NULL);

	cr_assert_eq(r.status, 2);
	cr_assert_not_null(strstr(r.err, "warp"), "%s", r.err);
	run_out_free(&r);
}

Test(sweep, rw_and_workload_together_are_refused)
{
	struct run_out r = iopath_run("sweep", "--rw=read", "--workload=x", "--dry-run", NULL);

	cr_assert_eq(r.status, 2);
	cr_assert_not_null(strstr(r.err, "--rw or --workload"), "%s", r.err);
	run_out_free(&r);
}

Test(sweep, save_writes_the_store_with_labels_and_repeats)
{
	const char *dir = tmpdir_make();
	char target[300], store[300], db[320];
	struct run_out r;
	json_t *root, *cell;

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(store, sizeof(store), "--results-dir=%s/store", dir);
	r = iopath_run("sweep", "--engine=null", target, "--size=1m", "--runtime=0", "--repeat=3",
		       "--save=nightly", store, "--label=qemu=8.2.1", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.err, "saved run 1 into"), "%s", r.err);
	run_out_free(&r);
	snprintf(db, sizeof(db), "--db=%s/store/iopath.db", dir);
	root = iopath_out_json("results", "export", "latest", db, NULL);
	cr_assert_str_eq(json_string_value(json_object_get(root, "name")), "nightly");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "labels"), "qemu")),
			 "8.2.1");
	cell = json_array_get(json_object_get(root, "cells"), 0);
	cr_assert_eq(json_integer_value(json_object_get(cell, "repeats")), 3);
	cr_assert_eq(json_array_size(json_object_get(cell, "samples")), 3, "every sample kept");
	cr_assert(json_is_number(json_object_get(json_object_get(json_object_get(cell, "summary"),
								   "iops"), "ci95_lo")));
	json_decref(root);
}

static json_int_t first_cell_repeats(const char *path)
{
	json_t *root = json_load_path(path);
	json_int_t n = json_integer_value(json_object_get(json_array_get(json_object_get(root, "cells"),
									 0), "repeats"));

	json_decref(root);
	return n;
}

Test(sweep, save_repeats_three_times_by_default_so_compare_can_judge)
{
	const char *dir = tmpdir_make();
	char target[300], json[300], store[300], path[400];
	struct run_out r;
	json_int_t n;

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(json, sizeof(json), "--json=%s/s.json", dir);
	snprintf(store, sizeof(store), "--results-dir=%s/store", dir);
	snprintf(path, sizeof(path), "%s/s.json", dir);
	/* 3, and more (up to 20) while the cell's IOPS are not known within 4% */
	r = iopath_run("sweep", "--engine=null", target, "--size=1m", "--runtime=0", "--save", store,
		       json, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	n = first_cell_repeats(path);
	cr_assert(n >= 3 && n <= 20, "%lld repeats", (long long)n);
	cr_assert_eq(n > 3, strstr(r.err, "repeated beyond 3") != NULL, "%lld: %s", (long long)n, r.err);
	run_out_free(&r);
	/* capped at the minimum: exactly 3 */
	iopath_exits(0, "sweep", "--engine=null", target, "--size=1m", "--runtime=0", "--save",
		     store, "--repeat-max=3", json, NULL);
	cr_assert_eq(first_cell_repeats(path), 3);
	/* a paced cell, its IOPS the same every time, is known after 3 */
	r = iopath_run("sweep", "--engine=null", target, "--size=1m", "--runtime=500ms",
		       "--set=rate_iops=100", "--save", store, json, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_null(strstr(r.err, "repeated beyond"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(first_cell_repeats(path), 3);
	/* a cap below the repeats asked for is bad input */
	iopath_refuses("--repeat-max 3 is below --repeat 4", "sweep", "--engine=null", target,
		       "--repeat=4", "--repeat-max=3", "--save", store, NULL);
	/* the dry run says so */
	r = iopath_run("sweep", "--engine=null", target, "--save", store, "--dry-run", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.out, "3 repeat(s), then up to 20 for a cell whose IOPS are not known within 4%"),
			   "%s", r.out);
	run_out_free(&r);
	/* without --save, one run per cell unless --repeat says otherwise */
	iopath_exits(0, "sweep", "--engine=null", target, "--size=1m", "--runtime=0", json, NULL);
	cr_assert_eq(first_cell_repeats(path), 1);
}

Test(sweep, ctrl_c_stops_after_the_running_cell_and_writes_what_finished)
{
	const char *dir = tmpdir_make(), *bin = getenv("IOPATH_BIN");
	char target[300], json[300], path[400];
	json_t *root, *cells;
	char buf[4096];
	size_t got = 0;
	ssize_t n;
	pid_t pid;
	int st, devnull, pfd[2];

	cr_assert_not_null(bin);
	cr_assert_eq(pipe(pfd), 0);
	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(json, sizeof(json), "--json=%s/out.json", dir);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (!pid) {
		devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		execl(bin, "iopath", "sweep", "--engine=null", "--iodepth=1,2,4", target,
		      "--size=1m", "--runtime=1", json, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	/* wait until the first cell has started (its progress line), then interrupt */
	while (got + 1 < sizeof(buf) && (n = read(pfd[0], buf + got, sizeof(buf) - 1 - got)) > 0) {
		got += (size_t)n;
		buf[got] = '\0';
		if (strstr(buf, "cell 1/3"))
			break;
	}
	cr_assert_not_null(strstr(buf, "cell 1/3"), "%s", buf);
	kill(pid, SIGINT);
	/* keep reading: a closed pipe would kill it with SIGPIPE at its next message */
	while (read(pfd[0], buf, sizeof(buf)) > 0)
		;
	close(pfd[0]);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st));
	cr_assert_eq(WEXITSTATUS(st), 130);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	root = json_load_path(path);
	cr_assert(json_is_true(json_object_get(root, "interrupted")));
	cells = json_object_get(root, "cells");
	cr_assert_eq(json_array_size(cells), 3, "every cell listed");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(cells, 0), "status")), "ok",
			 "the running cell finished");
	cr_assert_eq(json_array_size(json_object_get(json_array_get(cells, 0), "samples")), 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(cells, 2), "status")),
			 "interrupted");
	json_decref(root);
}

Test(sweep, run_repeat_reports_every_sample)
{
	const char *dir = tmpdir_make();
	char target[300], out[300], path[400];
	struct run_out r;
	json_t *root, *cell;

	snprintf(target, sizeof(target), "--target=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/rep.json", dir);
	r = iopath_run("run", "randread-4k-qd1", target, "--scale", "--repeat=3", "ioengine=null",
		       "--output-format=json", out, NULL);
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_assert_not_null(strstr(r.out, "IOPS min-max"), "%s", r.out);
	snprintf(path, sizeof(path), "%s/rep.json", dir);
	root = json_load_path(path);
	cell = json_array_get(json_object_get(root, "cells"), 0);
	cr_assert_eq(json_array_size(json_object_get(cell, "samples")), 3);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(cell, "identity"), "workload")),
			 "randread-4k-qd1");
	json_decref(root);
	run_out_free(&r);
}

/* rate-limited cells: the table gains a column and the report a curve of lat_sched */
Test(sweep, paced_cells_show_latency_from_the_schedule_in_table_and_report)
{
	const char *dir = tmpdir_make();
	char target[320], html[320], *page;
	struct run_out r;

	snprintf(target, sizeof(target), "--target=%s", dir);
	snprintf(html, sizeof(html), "%s/out.html", dir);
	r = iopath_run("sweep", "--engine=null", target, "--size=1m", "--runtime=0",
		       "--set", "rate_iops=2000", "--set", "io_size=128k", "--html", html, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, "sched p99 us"), "%s", r.out);
	page = slurp(html);
	cr_assert_not_null(strstr(page, "from the schedule"), "no curve of the scheduled latency");
	free(page);
	run_out_free(&r);
	r = iopath_run("sweep", "--engine=null", target, "--size=1m", "--runtime=0", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_null(strstr(r.out, "sched p99"), "unpaced cells have no such column: %s", r.out);
	run_out_free(&r);
}

/*
 * sweep --compare: the cells of one value against the other's, run alternately and tested in
 * pairs. A byte rate paces both: 8 KiB requests at the rate of 4 KiB ones make half the IOPS,
 * however busy the machine, so the verdict is the pacing's, not a timing's.
 */
Test(sweep, compare_judges_two_values_run_alternately_in_pairs)
{
	const char *dir = tmpdir_make();
	char target[320];
	struct run_out r;

	snprintf(target, sizeof(target), "--target=%s", dir);
	r = iopath_run("sweep", "--engine=null", "--bs=4k,8k", target, "--size=1m", "--runtime=200ms",
		       "--set", "rate=400k", "--compare", "bs=4k,8k", NULL);
	cr_assert_eq(r.status, 1, "IOPS halved is a regression: exit %d: %s%s", r.status, r.out, r.err);
	assert_has(r.out, "compare bs=4k (BASE) against bs=8k (CUR), run alternately", "REGRESSION",
		   NULL);
	/* 3 repeats, or more while the IOPS are not known within 4%: each a pair */
	cr_assert_not_null(strstr(r.out, " pairs)"), "tested in pairs: %s", r.out);
	run_out_free(&r);
}

Test(sweep, compare_refuses_what_it_cannot_split)
{
	const char *dir = tmpdir_make();
	char target[320];

	snprintf(target, sizeof(target), "--target=%s", dir);
	iopath_refuses("'colour' is not a swept key (accepted: target, engine", "sweep",
		       "--engine=null", target, "--compare", "colour=a,b", NULL);
	iopath_refuses("expected KEY=BASE,CUR", "sweep", "--engine=null", target, "--compare",
		       "bs=4k", NULL);
	iopath_refuses("no cell has bs=16k (give it in --bs)", "sweep", "--engine=null",
		       "--bs=4k,8k", target, "--size=1m", "--runtime=50ms", "--compare",
		       "bs=4k,16k", NULL);
}

/*
 * --references off leaves the control references out of every repeat's iopath.machine (on
 * is tested with what else used the machine, in compare's tests); a value neither on nor off
 * is refused, saying what is accepted.
 */
Test(sweep, references_off_records_none_and_a_bad_value_is_refused)
{
	const char *dir = tmpdir_make();
	char out[300], tgt[300];
	json_t *root, *m;

	snprintf(out, sizeof(out), "%s/s.json", dir);
	snprintf(tgt, sizeof(tgt), "t=%s", dir);
	iopath_exits(0, "sweep", "--engine", "null", "--size", "1m", "--runtime", "0", "--target", tgt,
		     "--repeat", "2", "--references", "off", "--json", out, NULL);
	root = json_load_path(out);
	m = json_object_get(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(root, "cells"), 0), "samples"), 1), "iopath"), "machine");
	cr_assert(json_is_object(m));
	cr_assert_null(json_object_get(m, "ref_cpu_ns_before"));
	cr_assert_null(json_object_get(m, "ref_mem_ns_after"));
	json_decref(root);
	iopath_refuses("--references 'yes': expected on or off", "sweep", "--engine", "null", "--target", tgt,
		       "--references", "yes", NULL);
	iopath_prints(0, HAS("--references on|off"), "sweep", "--help", NULL);
}
