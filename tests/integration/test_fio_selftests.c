/*
 * What fio's own test scripts (t/random_seed.py, t/log_compression.py, t/steadystate_tests.py)
 * ask of the binary, side by side with Debian's fio 3.33 where it is installed: --debug=random's
 * trace of each random offset and the seeds behind it, --inflate-log, --parse-only of global
 * options alone with fio's steady-state parse lines, and the steady-state window in the JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static void need_fio(void)
{
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
}

/* Run fio (fio true) or iopath with the NULL-terminated arguments in the current directory. */
static struct run_out tool_run(bool fio, char *const *args)
{
	return tool_runv(fio, (const char *const *)args);
}

/* A line of the seeds a job starts with (fio 3.36's setup_random_seeds), not of one I/O. */
static bool seed_line(const char *m)
{
	return !strncmp(m, "rand_seeds[", 11) || !strncmp(m, "FIO_RAND_NR_OFFS=", 17) ||
	       !strncmp(m, "using system RNG", 16);
}

/*
 * The messages of out's debug lines of one type ("random   TID MESSAGE"), in order; the seed
 * lines left out (fio 3.33 has none; seeds_of reads them).
 */
static unsigned debug_msgs(const char *out, const char *type, char msgs[][96], unsigned max)
{
	char prefix[16];
	const char *l, *m;
	unsigned n = 0;
	size_t len;

	snprintf(prefix, sizeof(prefix), "%-8s ", type);
	for (l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, prefix, strlen(prefix)))
			continue;
		m = l + strlen(prefix);
		while (*m >= '0' && *m <= '9')	/* the thread id, then spaces */
			m++;
		while (*m == ' ')
			m++;
		len = strcspn(m, "\n");
		if (seed_line(m))
			continue;
		if (n < max)
			snprintf(msgs[n], sizeof(msgs[0]), "%.*s", (int)len, m);
		n++;
	}
	return n;
}

/* The values of the "off rand N" lines of a --debug=random run (at most max). */
static unsigned rand_values(const char *out, unsigned long long *v, unsigned max)
{
	char msgs[256][96];
	unsigned n = debug_msgs(out, "random", msgs, 256), i, k = 0;

	for (i = 0; i < n && i < 256; i++)
		if (k < max && sscanf(msgs[i], "off rand %llu", &v[k]) == 1)
			k++;
	return k;
}

/* One --debug=random run of fio's random_seed.py job (8 random reads), with extra options. */
static unsigned seed_run(bool fio, const char *o1, const char *o2, unsigned long long *v)
{
	char *args[] = { "--debug=random", "--name=random_seed", "--ioengine=null",
			 "--filesize=32k", "--rw=randread", "--output-format=terse",
			 (char *)o1, (char *)o2, NULL };
	struct run_out r = tool_run(fio, args);
	unsigned n;

	cr_assert_eq(r.status, 0, "%s: %s", fio ? "fio" : "iopath", r.err);
	cr_expect_str_empty(fio ? "" : r.err, "iopath wrote on stderr: %s", r.err);
	n = rand_values(r.out, v, 64);
	run_out_free(&r);
	return n;
}

TestSuite(fio_selftests);

/*
 * --debug=random: a line "random   TID off rand R" for each value the generator gives for an
 * offset and "get_next_rand_offset: offset B busy" for a drawn block done already, as fio
 * prints them; without a random map the offset is R scaled to the blocks, in fio and iopath.
 */
Test(fio_selftests, debug_random_lines_as_fio_prints_them)
{
	char *args[] = { "--debug=random,io", "--name=r", "--ioengine=null", "--filesize=32k",
			 "--rw=randread", "--norandommap", "--output-format=terse", NULL };
	char msgs[64][96], ios[64][96];
	unsigned t, n, nio, i, k;

	need_fio();
	for (t = 0; t < 2; t++) {
		struct run_out r = tool_run(t == 0, args);
		unsigned long long v, off;

		cr_assert_eq(r.status, 0, "%s", r.err);
		n = debug_msgs(r.out, "random", msgs, 64);
		nio = debug_msgs(r.out, "io", ios, 64);
		cr_assert_eq(n, 8, "%s: %u random lines, not one per I/O:\n%s", args[0], n, r.out);
		for (i = 0, k = 0; i < n; i++) {
			cr_assert_eq(sscanf(msgs[i], "off rand %llu", &v), 1, "%s: '%s'",
				     t ? "iopath" : "fio", msgs[i]);
			/* the queue line of this I/O: its offset is block r * 8 / 2^32 */
			while (k < nio && strncmp(ios[k], "queue:", 6))
				k++;
			cr_assert_lt(k, nio);
			cr_assert_not_null(strstr(ios[k], "off=0x"));
			off = strtoull(strstr(ios[k], "off=0x") + 6, NULL, 16);
			cr_expect_eq(off, (v * 8) >> 32 << 12, "%s: offset 0x%llx from rand %llu",
				     t ? "iopath" : "fio", off, v);
			k++;
		}
		run_out_free(&r);
	}
	/* with the random map: a drawn block done already is said busy, as fio says it */
	{
		char *map[] = { "--debug=random", "--name=r", "--ioengine=null", "--filesize=16k",
				"--io_size=64k", "--rw=randread", "--output-format=terse", NULL };
		struct run_out r = tool_run(false, map);

		cr_assert_eq(r.status, 0, "%s", r.err);
		n = debug_msgs(r.out, "random", msgs, 64);
		for (i = 0, k = 0; i < n && i < 64; i++) {
			unsigned long long b;

			if (sscanf(msgs[i], "get_next_rand_offset: offset %llu busy", &b) == 1) {
				cr_expect_lt(b, 4ull);
				k++;
			} else {
				cr_expect_eq(strncmp(msgs[i], "off rand ", 9), 0, "'%s'", msgs[i]);
			}
		}
		cr_expect_gt(k, 0, "16 I/Os on 4 blocks without a busy block:\n%s", r.out);
		run_out_free(&r);
	}
	/* no random offsets, no lines */
	{
		char *seq[] = { "--debug=random", "--name=r", "--ioengine=null", "--filesize=16k",
				"--rw=read", "--output-format=terse", NULL };
		struct run_out r = tool_run(false, seq);

		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_expect_eq(debug_msgs(r.out, "random", msgs, 64), 0, "%s", r.out);
		run_out_free(&r);
	}
}

static bool same_values(const unsigned long long *a, unsigned na, const unsigned long long *b,
			unsigned nb)
{
	return na == nb && !memcmp(a, b, na * sizeof(*a));
}

/*
 * random_seed.py's cases, judged on the offsets' trace: randrepeat=0 gives other offsets on
 * every run; randrepeat=1 or a randseed the same ones; two runs agree in iopath exactly where
 * they agree in fio. allrandrepeat is randrepeat's other name, as in fio from 3.36 on (the
 * suite's random_seed.py checks that): the last one given decides, where fio 3.33 keeps
 * everything repeatable once allrandrepeat=1 is given and the offsets with allrandrepeat=0.
 */
Test(fio_selftests, randrepeat_allrandrepeat_and_randseed_decide_the_offsets)
{
	static const char *const cases[][2] = {
		{ "--randrepeat=0", NULL }, { "--randrepeat=1", NULL },
		{ "--allrandrepeat=0", "--randrepeat=0" }, { "--randrepeat=0", "--allrandrepeat=1" },
		{ "--randrepeat=0", "--randseed=12345" }, { "--allrandrepeat=0", "--randseed=12345" },
	};
	static const struct {
		const char *o[2];
		bool same;
	} newer[] = {
		{ { "--allrandrepeat=0", NULL }, false },
		{ { "--allrandrepeat=1", "--randrepeat=0" }, false },
		{ { "--randrepeat=1", "--allrandrepeat=0" }, false },
		{ { "--allrandrepeat=1", NULL }, true },
	};
	unsigned long long a[64], b[64];
	unsigned c, t, na, nb;

	need_fio();
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		bool same[2];

		for (t = 0; t < 2; t++) {
			na = seed_run(t == 0, cases[c][0], cases[c][1], a);
			nb = seed_run(t == 0, cases[c][0], cases[c][1], b);
			cr_assert_geq(na, 8, "%s %s: %u values traced", cases[c][0],
				      cases[c][1] ? cases[c][1] : "", na);
			same[t] = same_values(a, na, b, nb);
		}
		cr_expect_eq(same[1], same[0], "%s %s: two iopath runs %s, two fio runs %s",
			     cases[c][0], cases[c][1] ? cases[c][1] : "",
			     same[1] ? "agree" : "differ", same[0] ? "agree" : "differ");
	}
	for (c = 0; c < sizeof(newer) / sizeof(newer[0]); c++) {
		na = seed_run(false, newer[c].o[0], newer[c].o[1], a);
		nb = seed_run(false, newer[c].o[0], newer[c].o[1], b);
		cr_expect_eq(same_values(a, na, b, nb), newer[c].same,
			     "%s %s: two iopath runs %s (fio 3.36 on: they %s)", newer[c].o[0],
			     newer[c].o[1] ? newer[c].o[1] : "",
			     same_values(a, na, b, nb) ? "agree" : "differ",
			     newer[c].same ? "agree" : "differ");
	}
	/* another randseed, other offsets */
	na = seed_run(false, "--randseed=12345", NULL, a);
	nb = seed_run(false, "--randseed=67890", NULL, b);
	cr_expect(!same_values(a, na, b, nb), "randseed=12345 and 67890 give the same offsets");
}

/* Inflate path with fio (fio true) or iopath into out; the tool's exit status. */
static int inflate_with(bool fio, const char *path, const char *out)
{
	return sh("%s --inflate-log='%s' > '%s' 2>&1", fio ? FIO_BIN : getenv("IOPATH_BIN"), path,
		  out);
}

/*
 * --inflate-log: a .fz log that fio wrote and one iopath wrote (two workers' streams in one
 * file, offsets, priority values) come out as the lines fio --inflate-log prints, byte for byte
 */
Test(fio_selftests, inflate_log_prints_what_fio_prints, .fini = tmpdir_cleanup)
{
	char *args[] = { "--name=c", "--ioengine=null", "--size=64k", "--write_bw_log=c",
			 "--write_lat_log=c", "--log_offset=1", "--log_prio=1", "--prioclass=2",
			 "--prio=3", "--numjobs=2", "--per_job_logs=0", "--log_compression=4k",
			 "--log_store_compressed=1", "--output-format=terse", NULL };
	const char *dirs[2] = { tmpdir_make(), tmpdir_make() };
	static const char *const logs[] = { "c_bw.log.fz", "c_clat.log.fz" };
	char cwd[400], fz[400], fout[400], iout[400];
	unsigned t, k;

	need_fio();
	cr_assert_not_null(getenv("IOPATH_BIN"));
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	for (t = 0; t < 2; t++) {
		struct run_out r;

		cr_assert_eq(chdir(dirs[t]), 0);
		r = tool_run(t == 0, args);
		cr_assert_eq(r.status, 0, "%s: %s", t ? "iopath" : "fio", r.err);
		run_out_free(&r);
	}
	cr_assert_eq(chdir(cwd), 0);
	for (t = 0; t < 2; t++) {
		for (k = 0; k < 2; k++) {
			char *f, *i;

			snprintf(fz, sizeof(fz), "%s/%s", dirs[t], logs[k]);
			snprintf(fout, sizeof(fout), "%s/%s.fio.txt", dirs[t], logs[k]);
			snprintf(iout, sizeof(iout), "%s/%s.iopath.txt", dirs[t], logs[k]);
			cr_assert_eq(inflate_with(true, fz, fout), 0, "fio --inflate-log=%s", fz);
			cr_assert_eq(inflate_with(false, fz, iout), 0, "iopath --inflate-log=%s", fz);
			f = file_text(fout);
			i = file_text(iout);
			/* 2 workers x 16 I/Os each */
			cr_expect_eq(sh("test $(wc -l < '%s') -eq 32", fout), 0, "%s:\n%s", fz, f);
			cr_expect_str_eq(i, f, "%s (written by %s): iopath prints\n%s\nfio prints\n%s",
					 logs[k], t ? "iopath" : "fio", i, f);
			free(f);
			free(i);
		}
	}
}

/* Bad input to --inflate-log: one line naming the file and what is wrong, exit 2, no output. */
Test(fio_selftests, inflate_log_refuses_what_is_not_a_compressed_log, .fini = tmpdir_cleanup)
{
	const char *d = tmpdir_make();
	static const char *const cases[][2] = {
		{ "missing.fz", "cannot open" }, { "empty.fz", "empty" },
		{ "text.fz", "not a zlib-compressed log" }, { "cut.fz", "truncated" },
		{ "zero.fz", "not a log of fio's samples" },
	};
	char path[400], opt[440];
	unsigned i;

	snprintf(path, sizeof(path), "%s/empty.fz", d);
	file_write_text(path, "");
	snprintf(path, sizeof(path), "%s/text.fz", d);
	file_write_text(path, "0, 1, 0, 4096, 0\n");
	/* a log cut short (at half its size: a fast run's log of like samples compresses to under
	 * 60 bytes), and a zlib stream of 64 zero-filled samples that say direction 7 */
	cr_assert_eq(sh("cd '%s' && '%s' --name=c --ioengine=null --size=256k --write_bw_log=c --log_store_compressed=1 --output-format=terse >/dev/null && head -c $(( $(stat -c %%s c_bw.1.log.fz) / 2 )) c_bw.1.log.fz > cut.fz",
			d, getenv("IOPATH_BIN")), 0);
	cr_assert_eq(sh("/usr/bin/python3 -c \"import sys, zlib, struct; sys.stdout.buffer.write(zlib.compress(struct.pack('<QQIHxxQ', 0, 1, 7, 0, 4096) * 64))\" > '%s/zero.fz'",
			d), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_out r;

		snprintf(opt, sizeof(opt), "--inflate-log=%s/%s", d, cases[i][0]);
		r = iopath_run(opt, NULL);
		cr_expect_eq(r.status, 2, "%s: exit %d", cases[i][0], r.status);
		cr_expect_str_empty(r.out, "%s: printed %s", cases[i][0], r.out);
		cr_expect_not_null(strstr(r.err, cases[i][1]), "%s: %s", cases[i][0], r.err);
		cr_expect_not_null(strstr(r.err, cases[i][0]), "%s: %s", cases[i][0], r.err);
		cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s",
			     r.err);
		run_out_free(&r);
	}
}

/*
 * steadystate_tests.py's parse checks: --parse-only with global options alone exits 0, and
 * --debug=parse prints fio's "set steady state ... threshold" line for each ss= form
 */
Test(fio_selftests, parse_only_of_global_steady_state_options)
{
	static const char *const forms[] = { "iops:10", "iops:10%", "iops:.1%", "bw:10%",
					     "bw:.1%", "bw:12", "bw:1m", "iops_slope:2",
					     "bw_slope:0.5%" };
	char opt[64], fm[16][96], im[16][96];
	unsigned i, k, nf, ni;

	need_fio();
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		char *args[] = { "--parse-only", "--debug=parse", "--ss_dur=10s", opt,
				 "--ss_ramp=5", NULL };
		struct run_out f, r;
		const char *want = NULL;

		snprintf(opt, sizeof(opt), "--ss=%s", forms[i]);
		f = tool_run(true, args);
		r = tool_run(false, args);
		cr_assert_eq(f.status, 0, "fio: %s", f.err);
		cr_expect_eq(r.status, 0, "%s: iopath exits %d: %s", opt, r.status, r.err);
		nf = debug_msgs(f.out, "parse", fm, 16);
		ni = debug_msgs(r.out, "parse", im, 16);
		for (k = 0; k < nf && k < 16; k++)
			if (!strncmp(fm[k], "set steady state", 16))
				want = fm[k];
		cr_assert_not_null(want, "fio printed no steady-state line for %s", opt);
		for (k = 0; k < ni && k < 16 && strcmp(im[k], want); k++)
			;
		cr_expect_lt(k, ni, "%s: iopath lacks fio's '%s':\n%s", opt, want, r.out);
		run_out_free(&f);
		run_out_free(&r);
	}
	/* with nothing to parse as a job, --output-format=json says so: no jobs */
	{
		json_t *root = iopath_out_json("--parse-only", "--output-format=json",
					       "--ss=iops:10", NULL);

		cr_expect_eq(json_array_size(json_object_get(root, "jobs")), 0);
		json_decref(root);
	}
}

/* The least-squares slope of y over 0, 1, 2 ... (what steadystate_tests.py checks with scipy). */
static double slope_of(json_t *arr)
{
	size_t n = json_array_size(arr), i;
	double sx = 0, sy = 0, sxy = 0, sxx = 0;

	for (i = 0; i < n; i++) {
		double y = (double)json_integer_value(json_array_get(arr, i));

		sx += (double)i;
		sy += y;
		sxy += (double)i * y;
		sxx += (double)i * (double)i;
	}
	return ((double)n * sxy - sx * sy) / ((double)n * sxx - sx * sx);
}

/*
 * A run that does not attain steady state reports its last window oldest sample first, so the
 * slope and criterion it prints are those of the data it prints, as in fio's JSON (checked on
 * fio's output too, so the rule is fio's); the normal output has fio's steadystate line
 */
Test(fio_selftests, steady_state_window_matches_its_criterion, .fini = tmpdir_cleanup)
{
	const char *d = tmpdir_make();
	char out[400], cwd[400];
	unsigned t;

	need_fio();
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	cr_assert_eq(chdir(d), 0);
	for (t = 0; t < 2; t++) {
		/* a slope below 0 is never reached: the run goes to its end with a full window */
		char *args[] = { "--name=ss", "--ioengine=null", "--size=1G", "--rw=randread",
				 "--time_based", "--runtime=5", "--ss_dur=3", "--ss=iops_slope:0%",
				 "--output-format=json,normal", out, NULL };
		struct run_out r;
		json_t *root, *ss, *iops;
		double slope, crit, mean = 0;
		char *text, *line;
		size_t i;

		snprintf(out, sizeof(out), "--output=%s/%s.json", d, t ? "iopath" : "fio");
		r = tool_run(t == 0, args);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_out_free(&r);
		/* JSON first (after fio's job lines), then the normal output */
		text = file_text(out + strlen("--output="));
		root = json_in_text(text, t ? "iopath" : "fio");
		line = strstr(text, "\n  steadystate  : attained=no, bw=");
		cr_expect_not_null(line, "%s: no steadystate line:\n%s", t ? "iopath" : "fio", text);
		if (line)
			cr_expect_not_null(strstr(line, ", iops slope="), "%.120s", line + 1);
		free(text);
		ss = json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
				     "steadystate");
		cr_assert_not_null(ss, "%s: no steadystate section", t ? "iopath" : "fio");
		cr_expect_eq(json_integer_value(json_object_get(ss, "attained")), 0);
		cr_expect_eq(json_integer_value(json_object_get(ss, "duration")), 3);
		iops = json_object_get(json_object_get(ss, "data"), "iops");
		cr_assert_eq(json_array_size(iops), 3);
		for (i = 0; i < 3; i++) {
			cr_assert_gt(json_integer_value(json_array_get(iops, i)), 0,
				     "%s: the window never filled", t ? "iopath" : "fio");
			mean += (double)json_integer_value(json_array_get(iops, i)) / 3;
		}
		slope = json_number_value(json_object_get(ss, "slope"));
		crit = strtod(json_string_value(json_object_get(ss, "criterion")), NULL);
		cr_expect(fabs(slope_of(iops) - slope) <= 1e-4 * fabs(slope) + 0.01,
			  "%s: slope %f, the data's %f", t ? "iopath" : "fio", slope, slope_of(iops));
		cr_expect(fabs(100.0 * slope / mean - crit) <= 1e-4 * fabs(crit) + 1e-5,
			  "%s: criterion %f%%, 100 * slope / mean %f%%", t ? "iopath" : "fio", crit,
			  100.0 * slope / mean);
		json_decref(root);
	}
	cr_assert_eq(chdir(cwd), 0);
}

/*
 * --debug=random with --output=FILE: the seed lines go into FILE before the result, where fio's
 * random_seed.py reads them (not on stdout); the seeds repeat under randrepeat=1, follow
 * randseed, and differ on every run under randrepeat=0, saying so.
 */
Test(fio_selftests, debug_random_seeds_go_into_the_output_file, .fini = tmpdir_cleanup)
{
	const char *dir = tmpdir_make();
	char out[512], *text, msgs[2][4][96];
	const char *opts[] = { "--randrepeat=1", "--randrepeat=0", "--randseed=12345" };
	unsigned c, k, n;

	snprintf(out, sizeof(out), "%s/out.txt", dir);
	for (c = 0; c < 3; c++) {
		for (k = 0; k < 2; k++) {
			char oarg[600];
			char *args[] = { "--debug=random", "--name=random_seed", "--ioengine=null",
					 "--filesize=32k", "--rw=randread", oarg, (char *)opts[c],
					 NULL };
			struct run_out r;
			const char *l;

			snprintf(oarg, sizeof(oarg), "--output=%s", out);
			unlink(out);
			r = tool_run(false, args);
			cr_assert_eq(r.status, 0, "%s", r.err);
			cr_expect_null(strstr(r.out, "rand_seeds["), "seed lines on stdout:\n%s", r.out);
			text = file_text(out);
			cr_assert_not_null(text, "no %s", out);
			/* as fio's file: the lines printed before the run, then the debug lines */
			cr_expect_eq(strncmp(text, "random_seed: (g=0): ", 20), 0, "%s starts: %.80s",
				     out, text);
			cr_expect_not_null(strstr(text, "\nStarting 1 process\nrandom   "),
					   "no debug lines after the start lines in %s", out);
			cr_expect_not_null(strstr(text, "random_seed: (groupid=0"), "no result in %s", out);
			cr_expect_eq(!!strstr(text, "using system RNG for random seeds"), c == 1, "%s",
				     text);
			cr_assert_not_null(strstr(text, "FIO_RAND_NR_OFFS=3"), "%s", text);
			for (n = 0, l = text; (l = strstr(l, "rand_seeds[")) && n < 4; l++, n++)
				snprintf(msgs[k][n], sizeof(msgs[0][0]), "%.*s", (int)strcspn(l, "\n"), l);
			cr_expect_eq(n, 3, "%u seed lines in %s", n, text);
			free(text);
			run_out_free(&r);
		}
		for (n = 0; n < 3; n++)
			cr_expect_eq(!strcmp(msgs[0][n], msgs[1][n]), c != 1,
				     "%s: two runs' %s and %s", opts[c], msgs[0][n], msgs[1][n]);
		if (c == 2)
			cr_expect_eq(strcmp(msgs[0][0], "rand_seeds[0]=12345"), 0, "%s", msgs[0][0]);
	}
}
