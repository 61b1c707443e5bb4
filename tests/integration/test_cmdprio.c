/* Integration: fio's cmdprio options (per-I/O priorities) and verify_only, side by side with fio. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

TestSuite(cmdprio, .fini = tmpdir_cleanup);
TestSuite(verify_only, .fini = tmpdir_cleanup);

#define ARGS_MAX 40

/* Run bin in dir with the arguments, stdout to dir/out (stderr to dir/err); its exit status. */
static int run_in(const char *bin, const char *dir, const char *const *args)
{
	return run_in_dir(bin, dir, args, "out");
}

static bool have_fio(void)
{
	return access(FIO_BIN, X_OK) == 0 && system(FIO_BIN " --version >/dev/null 2>&1") == 0;
}

/* The cmdprio tests give I/Os the real-time class (fio's default), which needs root. */
#define SKIP_UNLESS_ABLE()                                                                      \
	do {                                                                                    \
		if (!have_fio())                                                                \
			cr_skip_test("fio is not installed (scripts/deps.sh installs it)");     \
		if (!is_root())                                                         \
			cr_skip_test("the real-time I/O class needs root (CAP_SYS_ADMIN)");     \
	} while (0)

/* A tool's run of args in its own directory under top: the JSON it wrote to out.json. */
static json_t *run_json(bool fio, const char *top, const char *const *args, int *status)
{
	char dir[400], path[450];
	const char *argv[ARGS_MAX + 2];
	unsigned n = 0;

	snprintf(dir, sizeof(dir), "%s/%s", top, fio ? "fio" : "iopath");
	mkdir(dir, 0755);
	argv[n++] = "--output-format=json+";
	argv[n++] = "--output=out.json";
	for (; *args && n < ARGS_MAX; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	*status = run_in(fio ? FIO_BIN : getenv("IOPATH_BIN"), dir, argv);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	return *status ? NULL : json_load_path(path);
}

/* Both tools' results of the same job; the test fails unless both run it. */
static void both(const char *top, const char *const *args, json_t **f, json_t **io)
{
	int st;

	*f = run_json(true, top, args, &st);
	cr_assert_eq(st, 0, "fio exited %d", st);
	*io = run_json(false, top, args, &st);
	cr_assert_eq(st, 0, "iopath exited %d", st);
}

static json_t *dir_obj(json_t *root, const char *dir)
{
	json_t *o = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), dir);

	cr_assert_not_null(o, "no jobs[0].%s", dir);
	return o;
}

/*
 * A direction's "prios" as a sorted list of "class/level" and checks that hold for any run:
 * the entries' sample counts add up to the direction's (clat or lat) N, and each entry has
 * percentiles and json+ bins exactly when the direction's latency does. Returns the count
 * of samples with priority want ("C/L"), or -1 when there are no prios.
 */
static long long prios_of(json_t *d, const char *lat, char *list, size_t len, const char *want)
{
	json_t *a = json_object_get(d, "prios"), *all = json_object_get(d, lat), *e;
	long long sum = 0, n_want = 0;
	char names[16][16];
	unsigned n = 0, i, k;
	size_t off = 0;

	list[0] = '\0';
	if (!a)
		return -1;
	cr_assert(json_is_array(a));
	json_array_foreach(a, i, e) {
		json_t *l = json_object_get(e, lat);
		long long N;

		cr_assert_not_null(l, "a prios entry without %s", lat);
		N = json_integer_value(json_object_get(l, "N"));
		sum += N;
		cr_assert_eq(json_object_get(l, "percentile") != NULL,
			     json_object_get(all, "percentile") != NULL);
		cr_assert_eq(json_object_get(l, "bins") != NULL, json_object_get(all, "bins") != NULL);
		cr_assert_lt(n, 16);
		snprintf(names[n], sizeof(names[n]), "%lld/%lld",
			 (long long)json_integer_value(json_object_get(e, "prioclass")),
			 (long long)json_integer_value(json_object_get(e, "prio")));
		if (want && !strcmp(names[n], want))
			n_want = N;
		for (k = n++; k && strcmp(names[k - 1], names[k]) > 0; k--) {
			char t[16];

			memcpy(t, names[k], sizeof(t));
			memcpy(names[k], names[k - 1], sizeof(t));
			memcpy(names[k - 1], t, sizeof(t));
		}
	}
	cr_assert_eq(sum, json_integer_value(json_object_get(all, "N")),
		     "the prios' samples add up to %lld, %s has %lld", sum, lat,
		     (long long)json_integer_value(json_object_get(all, "N")));
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(list + off, len - off, "%s%s", i ? " " : "", names[i]);
	return n_want;
}

/* Direction dir of both results: the same priorities (or none), and the share of want's I/Os. */
static void same_prios(json_t *f, json_t *io, const char *dir, const char *lat, const char *want,
		       double lo, double hi)
{
	char fl[256], il[256];
	long long fn = prios_of(dir_obj(f, dir), lat, fl, sizeof(fl), want);
	long long in = prios_of(dir_obj(io, dir), lat, il, sizeof(il), want);
	double n;

	cr_assert_str_eq(il, fl, "%s prios: iopath [%s], fio [%s]", dir, il, fl);
	cr_assert_eq(in < 0, fn < 0, "%s: prios in one tool's result only", dir);
	if (!want || in < 0)
		return;
	n = (double)json_integer_value(json_object_get(json_object_get(dir_obj(io, dir), lat), "N"));
	cr_assert(in >= lo * n && in <= hi * n, "%s: %lld of %.0f I/Os had %s (expected %.0f%%-%.0f%%)",
		  dir, in, n, want, lo * 100, hi * 100);
}

/*
 * args run by both tools (in a directory of their own): direction dir has the same priorities,
 * want's share of its I/Os in lo-hi (want NULL: the priorities alone); other (NULL: none) the
 * same priorities.
 */
static void prios_agree(const char *const *args, const char *dir, const char *want, double lo,
			double hi, const char *other)
{
	const char *top = tmpdir_make();
	json_t *f, *io;

	SKIP_UNLESS_ABLE();
	both(top, args, &f, &io);
	same_prios(f, io, dir, "clat_ns", want, lo, hi);
	if (other)
		same_prios(f, io, other, "clat_ns", NULL, 0, 0);
	json_decref(f);
	json_decref(io);
}

Test(cmdprio, percentage_gives_half_the_reads_the_realtime_class)
{
	const char *args[] = { "--name=p", "--filename=data", "--size=4m", "--ioengine=libaio",
			       "--direct=1", "--rw=randread", "--iodepth=4", "--cmdprio_percentage=50",
			       NULL };

	/* 1024 I/Os, each real-time with p = 0.5: 35-65% is more than nine deviations wide */
	prios_agree(args, "read", "1/0", 0.35, 0.65, "write");
}

Test(cmdprio, io_uring_with_lat_percentiles_keeps_total_latency_per_priority)
{
	const char *top = tmpdir_make();
	const char *args[] = { "--name=u", "--filename=data", "--size=4m", "--ioengine=io_uring",
			       "--direct=1", "--rw=randrw", "--iodepth=4", "--lat_percentiles=1",
			       "--cmdprio_percentage=30,70", "--cmdprio_class=3",
			       "--cmdprio=4", NULL };
	json_t *f, *io;
	int st;

	SKIP_UNLESS_ABLE();
	f = run_json(true, top, args, &st);
	if (st)
		cr_skip_test("fio's io_uring engine does not run here (exit %d)", st);
	io = run_json(false, top, args, &st);
	cr_assert_eq(st, 0, "iopath exited %d", st);
	same_prios(f, io, "read", "lat_ns", "3/4", 0.15, 0.45);
	same_prios(f, io, "write", "lat_ns", "3/4", 0.55, 0.85);
	json_decref(f);
	json_decref(io);
}

Test(cmdprio, bssplit_with_class_and_level_per_entry)
{
	const char *args[] = { "--name=b", "--filename=data", "--size=8m", "--ioengine=libaio",
			       "--direct=1", "--rw=randrw", "--iodepth=4", "--bssplit=4k/50:16k/50",
			       "--cmdprio_bssplit=4k/25/1/1:4k/75/3/2:16k/0,16k/100/2/6",
			       "--prioclass=2", "--prio=7", NULL };

	prios_agree(args, "read", NULL, 0, 0, "write");
}

Test(cmdprio, group_reporting_and_mixed_merge_priorities)
{
	const char *args[] = { "--name=m", "--filename=data", "--size=2m", "--ioengine=libaio",
			       "--direct=1", "--rw=randrw", "--iodepth=2", "--numjobs=2",
			       "--group_reporting", "--unified_rw_reporting=mixed",
			       "--cmdprio_percentage=50", NULL };

	prios_agree(args, "mixed", "1/0", 0.35, 0.65, NULL);
}

/*
 * In a reporting group, a member without cmdprio adds its I/Os under its own priority to the
 * directions another member gives priorities (fio 3.33's rule), and members whose I/Os had
 * different priorities (prio) are told apart even without cmdprio.
 */
Test(cmdprio, group_members_without_cmdprio_count_under_their_priority)
{
	const char *top = tmpdir_make();
	const char *args[] = { "--filename=data", "--size=1m", "--ioengine=libaio", "--direct=1",
			       "--group_reporting", "--name=a", "--rw=randread",
			       "--cmdprio_percentage=50", "--name=b", "--rw=randrw", NULL };
	const char *prio_args[] = { "--filename=data", "--size=1m", "--ioengine=libaio",
				    "--direct=1", "--group_reporting", "--name=b", "--rw=randrw",
				    "--prio=4", "--name=a", "--rw=randread", NULL };
	char sub[420];
	json_t *f, *io;

	SKIP_UNLESS_ABLE();
	both(top, args, &f, &io);
	same_prios(f, io, "read", "clat_ns", "1/0", 0.15, 0.45);
	same_prios(f, io, "write", "clat_ns", NULL, 0, 0);
	json_decref(f);
	json_decref(io);
	snprintf(sub, sizeof(sub), "%s/prio", top);
	mkdir(sub, 0755);
	both(sub, prio_args, &f, &io);
	same_prios(f, io, "read", "clat_ns", "2/4", 0.20, 0.45);
	same_prios(f, io, "write", "clat_ns", NULL, 0, 0);
	json_decref(f);
	json_decref(io);
}

/* The priorities of a latency log's lines (fio's last column with log_prio=1) and their counts. */
static void log_prios(const char *path, unsigned *vals, unsigned *counts, unsigned *n)
{
	char line[256];
	unsigned long long t, v;
	unsigned d, bs, prio, i;
	FILE *fp = fopen(path, "r");

	cr_assert_not_null(fp, "%s", path);
	*n = 0;
	while (fgets(line, sizeof(line), fp)) {
		cr_assert_eq(sscanf(line, "%llu, %llu, %u, %u, 0x%x", &t, &v, &d, &bs, &prio), 5,
			     "%s: %s", path, line);
		for (i = 0; i < *n && vals[i] != prio; i++)
			;
		if (i == *n) {
			cr_assert_lt(*n, 8);
			vals[i] = prio;
			counts[(*n)++] = 0;
		}
		counts[i]++;
	}
	fclose(fp);
}

Test(cmdprio, log_prio_records_the_priority_each_io_had)
{
	const char *top = tmpdir_make();
	const char *args[] = { "--name=l", "--filename=data", "--size=4m", "--ioengine=libaio",
			       "--direct=1", "--rw=randread", "--iodepth=4", "--prioclass=2",
			       "--prio=5", "--cmdprio_percentage=50", "--write_lat_log=l",
			       "--log_prio=1", NULL };
	unsigned fv[8], fc[8], nf, iv[8], ic[8], ni, i;
	char path[450];
	json_t *f, *io, *e;
	size_t k;

	SKIP_UNLESS_ABLE();
	both(top, args, &f, &io);
	snprintf(path, sizeof(path), "%s/fio/l_clat.1.log", top);
	log_prios(path, fv, fc, &nf);
	snprintf(path, sizeof(path), "%s/iopath/l_clat.1.log", top);
	log_prios(path, iv, ic, &ni);
	cr_assert_eq(nf, 2, "fio logged %u priorities", nf);
	cr_assert_eq(ni, 2, "iopath logged %u priorities", ni);
	/* the job's own (best-effort 5) and cmdprio's (real-time 0), in either order */
	for (i = 0; i < 2; i++) {
		cr_assert(iv[i] == 0x4005 || iv[i] == 0x2000, "iopath logged 0x%04x", iv[i]);
		cr_assert(fv[i] == 0x4005 || fv[i] == 0x2000, "fio logged 0x%04x", fv[i]);
	}
	/* each priority's lines are its I/Os in the JSON */
	json_array_foreach(json_object_get(dir_obj(io, "read"), "prios"), k, e) {
		unsigned v = (unsigned)(json_integer_value(json_object_get(e, "prioclass")) << 13 |
					json_integer_value(json_object_get(e, "prio")));
		long long N = json_integer_value(json_object_get(json_object_get(e, "clat_ns"), "N"));

		for (i = 0; i < ni && iv[i] != v; i++)
			;
		cr_assert_lt(i, ni, "no log lines of priority 0x%04x", v);
		cr_assert_eq(ic[i], N, "0x%04x: %u log lines, %lld I/Os", v, ic[i], N);
	}
	json_decref(f);
	json_decref(io);
}

Test(cmdprio, normal_output_shows_each_priority_as_fio)
{
	const char *top = tmpdir_make();
	char dir[400], path[450], *txt;
	const char *args[] = { "--name=n", "--filename=data", "--size=2m", "--ioengine=libaio",
			       "--direct=1", "--rw=randread", "--iodepth=2", "--cmdprio_percentage=50",
			       NULL };
	const char *want[] = { "    clat prio 0/0 (", "    clat prio 1/0 (",
			       "    clat prio 1/0 (", "% of IOs) percentiles (" };
	unsigned t, i;

	SKIP_UNLESS_ABLE();
	for (t = 0; t < 2; t++) {
		snprintf(dir, sizeof(dir), "%s/%s", top, t ? "iopath" : "fio");
		mkdir(dir, 0755);
		cr_assert_eq(run_in(t ? getenv("IOPATH_BIN") : FIO_BIN, dir, args), 0);
		snprintf(path, sizeof(path), "%s/out", dir);
		txt = file_text(path);
		for (i = 0; i < 4; i++)
			cr_assert_not_null(strstr(txt, want[i]), "%s: no '%s' in\n%s",
					   t ? "iopath" : "fio", want[i], txt);
		free(txt);
	}
}

/* fio lists the cmdprio options among libaio's and io_uring's options; so does iopath. */
Test(cmdprio, enghelp_lists_them_for_the_engines_that_have_them)
{
	struct run_out r = iopath_run("--enghelp=libaio", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.out, "cmdprio_bssplit"), "%s", r.out);
	cr_assert_null(strstr(r.out, "no engine-specific options"), "%s", r.out);
	run_out_free(&r);
	iopath_prints(0, HAS("0 to 100"), "--enghelp=io_uring,cmdprio_percentage", NULL);
	iopath_exits(2, "--enghelp=psync,cmdprio", NULL);
}

Test(cmdprio, refused_for_an_engine_without_priorities_per_io)
{
	struct run_out r = iopath_run("--name=x", "--ioengine=psync", "--size=64k",
				      "--cmdprio_percentage=50", NULL);

	cr_assert_eq(r.status, 2, "%s", r.err);
	cr_assert_not_null(strstr(r.err, "cmdprio_percentage: ioengine=psync sets no priority per I/O"),
			   "%s", r.err);
	assert_has(r.err, "libaio", "io_uring", NULL);
	run_out_free(&r);
}

Test(cmdprio, percentage_and_bssplit_are_mutually_exclusive)
{
	struct run_out r = iopath_run("--name=x", "--ioengine=libaio", "--size=64k",
				      "--cmdprio_percentage=50", "--cmdprio_bssplit=4k/50", NULL);

	cr_assert_eq(r.status, 2, "%s", r.err);
	cr_assert_not_null(strstr(r.err, "mutually exclusive"), "%s", r.err);
	run_out_free(&r);
}

Test(cmdprio, bssplit_refuses_what_fio_would_clamp)
{
	static const char *const bad[] = { "--cmdprio_bssplit=4k/120", "--cmdprio_bssplit=4k/50/1",
					   "--cmdprio_bssplit=4k/50/4/0", "--cmdprio_bssplit=4k/50/1/8",
					   "--cmdprio_bssplit=4k/60:4k/50", "--cmdprio_bssplit=x/5" };
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_out r = iopath_run("--name=x", "--ioengine=libaio", "--size=64k", bad[i],
					      NULL);

		cr_assert_eq(r.status, 2, "%s: %s", bad[i], r.err);
		cr_assert_not_null(strstr(r.err, "cmdprio_bssplit"), "%s: %s", bad[i], r.err);
		run_out_free(&r);
	}
}

/* A tool's JSON run of args in top/sub (made if need be); its exit status in *status. */
static json_t *run_json_in(bool fio, const char *top, const char *sub, const char *const *args,
			   int *status)
{
	char dir[400], path[450];
	const char *argv[ARGS_MAX + 2];
	unsigned n = 0;

	snprintf(dir, sizeof(dir), "%s/%s", top, sub);
	mkdir(dir, 0755);
	argv[n++] = "--output-format=json";
	argv[n++] = "--output=out.json";
	for (; *args && n < ARGS_MAX; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	*status = run_in(fio ? FIO_BIN : getenv("IOPATH_BIN"), dir, argv);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	return access(path, F_OK) ? NULL : json_load_path(path);
}

static long long jint(json_t *root, const char *dir, const char *key)
{
	return job_int(root, 0, dir, key);
}

Test(verify_only, checks_what_fio_wrote_and_finds_a_changed_block)
{
	const char *top = tmpdir_make();
	char file[400], data[400], buf[4096];
	const char *args[] = { "--name=v", file, "--size=1m", "--bs=4k", "--rw=randwrite",
			       "--verify=md5", NULL, NULL };
	json_t *w, *f, *io;
	int st, fd;

	if (!have_fio())
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	snprintf(data, sizeof(data), "%s/data", top);
	snprintf(file, sizeof(file), "--filename=%s", data);
	w = run_json_in(true, top, "write", args, &st);
	cr_assert_eq(st, 0, "fio's writer exited %d", st);
	args[6] = "--verify_only";
	f = run_json_in(true, top, "fio", args, &st);
	cr_assert_eq(st, 0, "fio's verify_only exited %d", st);
	io = run_json_in(false, top, "iopath", args, &st);
	cr_assert_eq(st, 0, "iopath's verify_only exited %d", st);
	/* every block read back and checked, as fio does; nothing written (fio counts its
	 * skipped writes as done, with no runtime) */
	cr_assert_eq(jint(io, "read", "total_ios"), jint(f, "read", "total_ios"));
	cr_assert_eq(jint(io, "read", "io_bytes"), 1 << 20);
	cr_assert_eq(jint(io, "write", "io_bytes"), 0);
	json_decref(f);
	json_decref(io);
	/* a block changed since: both fail with EILSEQ (84) */
	memset(buf, 0x5a, sizeof(buf));
	fd = open(data, O_WRONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(pwrite(fd, buf, sizeof(buf), 40960), (ssize_t)sizeof(buf));
	close(fd);
	f = run_json_in(true, top, "fio2", args, &st);
	cr_assert_neq(st, 0, "fio's verify_only passed a changed block");
	io = run_json_in(false, top, "iopath2", args, &st);
	cr_assert_eq(st, 1, "iopath's verify_only exited %d on a changed block", st);
	cr_assert_not_null(f);
	cr_assert_not_null(io);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(json_object_get(io, "jobs"), 0),
							"error")), 84);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(json_object_get(f, "jobs"), 0),
							"error")), 84);
	json_decref(w);
	json_decref(f);
	json_decref(io);
}

Test(verify_only, reads_back_exactly_the_blocks_an_earlier_run_wrote)
{
	const char *top = tmpdir_make();
	char file[400];
	const char *args[] = { "--name=v", file, "--size=1m", "--io_size=256k", "--bs=4k",
			       "--rw=randwrite", "--verify=crc32c", NULL, NULL };
	json_t *w, *v;
	int st;

	snprintf(file, sizeof(file), "--filename=%s/data", top);
	w = run_json_in(false, top, "write", args, &st);
	cr_assert_eq(st, 0, "the writer exited %d", st);
	args[7] = "--verify_only";
	v = run_json_in(false, top, "verify", args, &st);
	cr_assert_eq(st, 0, "verify_only exited %d", st);
	/* a quarter of the file, in the writer's random order: reading any other block fails */
	cr_assert_eq(jint(v, "read", "total_ios"), 64);
	cr_assert_eq(jint(v, "read", "total_ios"), jint(w, "read", "total_ios"));
	cr_assert_eq(jint(v, "write", "total_ios"), 0);
	json_decref(w);
	json_decref(v);
}

Test(verify_only, refused_where_the_writes_are_not_known_beforehand)
{
	static const char *const extra[][2] = {
		{ "--rw=randwrite", "--verify_only" },
		{ "--verify=crc32c", "--rw=randread" },
		{ "--verify=crc32c", "--time_based" },
	};
	unsigned i;

	for (i = 0; i < 3; i++) {
		struct run_out r = iopath_run("--name=x", "--size=64k", "--runtime=1", "--verify_only",
					      extra[i][0], extra[i][1], NULL);

		cr_assert_eq(r.status, 2, "%s %s: %s", extra[i][0], extra[i][1], r.err);
		cr_assert_not_null(strstr(r.err, "verify_only: "), "%s", r.err);
		run_out_free(&r);
	}
}

/* The five-field form (bs/percent/class/level/hint, fio 3.36's): hint 0 reads as fio 3.33 reads it. */
Test(cmdprio, bssplit_five_fields_with_no_hint_as_four)
{
	const char *args[] = { "--name=b", "--filename=data", "--size=4m", "--ioengine=libaio",
			       "--direct=1", "--rw=randread", "--iodepth=4",
			       "--cmdprio_bssplit=4k/50/1/3/0", NULL };

	/* 1024 reads, each real-time (1/3) with p = 0.5: 35-65% is more than nine deviations wide */
	prios_agree(args, "read", "1/3", 0.35, 0.65, "write");
}
