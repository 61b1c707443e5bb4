/*
 * Side by side with Debian's fio (skipped without it), the constructs real users' job files
 * use: each job text runs through both tools, each in a scratch directory of its own, and
 * what they made, reported and returned is compared.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "harness.h"

static void need_fio(void)
{
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
}

TestSuite(fio_realjobs, .init = need_fio, .fini = tmpdir_cleanup);

struct side {
	char dir[2][320];	/* [0] fio's scratch directory, [1] iopath's */
	struct run_out out[2];
};

/*
 * Write text as DIR/job.fio in a fresh directory per tool and run each tool there with
 * extra (NULL-ended, may be NULL) and the job file; the outputs are kept in s. With trace
 * (strace's -e trace=CALLS), each tool runs under strace -f, its log in DIR/.strace.
 */
static int truncate_new(const char *path, off_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	if (ftruncate(fileno(f), len)) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* strace -y: each descriptor with its path, for side_run_traced's logs. */
static bool side_trace_paths;

/*
 * A file of side_prefile_len zero bytes that side_run puts in each scratch directory first,
 * and a second one (side_prefile2) where a job needs files of two sizes.
 */
static const char *side_prefile, *side_prefile2;
static off_t side_prefile_len, side_prefile2_len;

static void side_run_traced(struct side *s, const char *text, const char *const *extra,
			    const char *trace)
{
	char *argv[40], cwd[512], path[400], calls[128];
	unsigned t, n;
	FILE *f;

	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	snprintf(calls, sizeof(calls), "trace=%s", trace ? trace : "");
	if (trace)
		leak_check_off_under_ptrace();
	for (t = 0; t < 2; t++) {
		const char *const *x = extra;

		snprintf(s->dir[t], sizeof(s->dir[t]), "%s", tmpdir_make());
		snprintf(path, sizeof(path), "%s/job.fio", s->dir[t]);
		f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(text, f);
		cr_assert_eq(fclose(f), 0);
		if (side_prefile) {
			snprintf(path, sizeof(path), "%s/%s", s->dir[t], side_prefile);
			cr_assert_eq(truncate_new(path, side_prefile_len), 0, "%s", path);
		}
		if (side_prefile2) {
			snprintf(path, sizeof(path), "%s/%s", s->dir[t], side_prefile2);
			cr_assert_eq(truncate_new(path, side_prefile2_len), 0, "%s", path);
		}
		n = 0;
		if (trace) {
			argv[n++] = "strace";
			argv[n++] = "-f";
			if (side_trace_paths)
				argv[n++] = "-y";
			argv[n++] = "-e";
			argv[n++] = calls;
			argv[n++] = "-o.strace";
		}
		argv[n++] = t ? (trace ? getenv("IOPATH_BIN") : "iopath") : (trace ? FIO_BIN : "fio");
		for (; x && *x && n < 38; x++)
			argv[n++] = (char *)*x;
		argv[n++] = "job.fio";
		argv[n] = NULL;
		cr_assert_eq(chdir(s->dir[t]), 0);
		if (trace)
			s->out[t] = prog_runv(strace_bin(), argv);
		else
			s->out[t] = t ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
		cr_assert_eq(chdir(cwd), 0);
	}
}

static void side_run(struct side *s, const char *text, const char *const *extra)
{
	side_run_traced(s, text, extra, NULL);
}

/* side_run_traced, and the test fails unless both tools exit 0. */
static void side_run_ok(struct side *s, const char *text, const char *const *extra,
			const char *trace)
{
	unsigned t;

	side_run_traced(s, text, extra, trace);
	for (t = 0; t < 2; t++)
		cr_assert_eq(s->out[t].status, 0, "%s failed (%d): %s", t ? "iopath" : "fio",
			     s->out[t].status, s->out[t].err);
}

/* How many lines of tool t's strace log hold what. */
static unsigned trace_count(const struct side *s, unsigned t, const char *what)
{
	char path[400], line[1024];
	unsigned n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/.strace", s->dir[t]);
	f = fopen(path, "r");
	cr_assert_not_null(f, "no strace log in %s", s->dir[t]);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, what) != NULL;
	fclose(f);
	return n;
}

static void side_free(struct side *s)
{
	run_out_free(&s->out[0]);
	run_out_free(&s->out[1]);
}

/* The regular files under dir, relative, sorted, one a line (job.fio and the tools' own left out). */
static void list_files(const char *top, const char *rel, char *out, size_t len)
{
	char path[640], sub[320];
	struct dirent **ents;
	struct stat st;
	int n, i;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	n = scandir(path, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", e);
		snprintf(path, sizeof(path), "%s/%s", top, sub);
		if (e[0] == '.' || !strcmp(sub, "job.fio") || lstat(path, &st)) {
			free(ents[i]);
			continue;
		}
		if (S_ISDIR(st.st_mode))
			list_files(top, sub, out, len);
		else
			snprintf(out + strlen(out), len - strlen(out), "%s\n", sub);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

Test(fio_realjobs, filename_format_names_files_as_fio)
{
	static const char text[] =
		"[global]\nioengine=psync\nsize=64k\nbs=4k\nrw=write\n"
		"[one]\nnumjobs=2\nnrfiles=2\nfilename_format=$filenum.$JobName-$jobnum.$clientuid.dat\n"
		"[two]\nfilename_format=two/$jobname.$jobnum.$filenum\n"
		"[shared]\nnumjobs=3\nfilename_format=shared.file\n";
	char files[2][2048] = { "", "" };
	struct side s;
	unsigned t;

	side_run_ok(&s, text, NULL, NULL);
	for (t = 0; t < 2; t++) {
		list_files(s.dir[t], "", files[t], sizeof(files[t]));
	}
	cr_expect_str_eq(files[1], files[0], "iopath made\n%s\nfio made\n%s", files[1], files[0]);
	cr_expect(strstr(files[0], "two/two.0.0"), "fio made\n%s", files[0]);
	side_free(&s);
}

/*
 * fsync_on_close: fio flushes each file of a writing job when it closes it (and, 3.33, again
 * as it reopens and closes each at the very end); iopath flushes each file once; neither
 * flushes without the option, nor for a job that only reads.
 */
Test(fio_realjobs, fsync_on_close_flushes_each_written_file)
{
	static const char *const texts[] = {
		"[w]\nioengine=psync\nrw=write\nsize=48k\nbs=4k\nnrfiles=3\nfsync_on_close=1\ncreate_fsync=0\n",
		"[w]\nioengine=psync\nrw=write\nsize=48k\nbs=4k\nnrfiles=3\nfsync_on_close=0\ncreate_fsync=0\n",
		"[r]\nioengine=psync\nrw=read\nsize=48k\nbs=4k\nnrfiles=3\nfsync_on_close=1\ncreate_fsync=0\n",
	};
	unsigned k, t, n[2];
	struct side s;

	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	for (k = 0; k < 3; k++) {
		side_run_ok(&s, texts[k], NULL, "fsync");
		for (t = 0; t < 2; t++) {
			cr_assert_eq(s.out[t].status, 0, "%s failed: %s", t ? "iopath" : "fio",
				     s.out[t].err);
			n[t] = trace_count(&s, t, "fsync(");
		}
		cr_expect_eq(n[1], k ? 0u : 3u, "job %u: iopath made %u fsyncs", k, n[1]);
		cr_expect(k ? n[0] == 0 : n[0] >= 3, "job %u: fio made %u fsyncs", k, n[0]);
		side_free(&s);
	}
}

/* An iolog's directions in order, one letter an I/O (r, w). */
static char *slurp_dirs(const char *path)
{
	char line[512], *out = calloc(1, 1 << 16);
	size_t n = 0;
	FILE *f = fopen(path, "r");

	cr_assert_not_null(f, "no iolog %s", path);
	cr_assert_not_null(out);
	while (fgets(line, sizeof(line), f) && n < (1 << 16) - 1) {
		if (strstr(line, " read "))
			out[n++] = 'r';
		else if (strstr(line, " write "))
			out[n++] = 'w';
	}
	fclose(f);
	return out;
}

/* The JSON both tools wrote (after anything printed before it). */
static json_t *side_json(const struct side *s, unsigned t)
{
	return json_in_text(s->out[t].out, t ? "iopath" : "fio");
}

/* fio's "global options" (the [global] sections') and each job's own "job options", or none. */
Test(fio_realjobs, global_and_job_options_as_fio_writes_them)
{
	static const char text[] =
		"[global]\nioengine=null\nsize=1m\nbs=8k\n[a]\nrw=read\n[b]\n"
		"[global]\niodepth=2\n[c]\nbs=4k\n";
	static const char *const extra[] = { "--output-format=json", NULL };
	json_t *root[2];
	struct side s;
	size_t k;
	unsigned t;

	side_run_ok(&s, text, extra, NULL);
	for (t = 0; t < 2; t++) {
		root[t] = side_json(&s, t);
	}
	cr_assert(json_equal(json_object_get(root[1], "global options"),
			     json_object_get(root[0], "global options")),
		  "global options: fio %s, iopath %s",
		  json_dumps(json_object_get(root[0], "global options"), JSON_COMPACT),
		  json_dumps(json_object_get(root[1], "global options"), JSON_COMPACT));
	for (k = 0; k < 3; k++) {
		json_t *f = json_object_get(json_array_get(json_object_get(root[0], "jobs"), k),
					    "job options");
		json_t *i = json_object_get(json_array_get(json_object_get(root[1], "jobs"), k),
					    "job options");

		cr_expect((!f && !i) || (f && i && json_equal(f, i)),
			  "job %zu's options: fio %s, iopath %s", k,
			  f ? json_dumps(f, JSON_COMPACT) : "none", i ? json_dumps(i, JSON_COMPACT) : "none");
	}
	json_decref(root[0]);
	json_decref(root[1]);
	side_free(&s);
}

/* Both tools run text (JSON): the same "global options" and reports' "job options" as fio. */
static void options_listed_as_fio(const char *text, size_t reports)
{
	static const char *const extra[] = { "--output-format=json", NULL };
	json_t *root[2], *jobs[2];
	struct side s;
	size_t k;
	unsigned t;

	side_run_ok(&s, text, extra, NULL);
	for (t = 0; t < 2; t++) {
		root[t] = side_json(&s, t);
		jobs[t] = json_object_get(root[t], "jobs");
	}
	cr_expect(json_equal(json_object_get(root[1], "global options"),
			     json_object_get(root[0], "global options")) ||
		  (!json_object_get(root[0], "global options") &&
		   !json_object_get(root[1], "global options")),
		  "global options: fio %s, iopath %s",
		  json_dumps(json_object_get(root[0], "global options"), JSON_COMPACT),
		  json_dumps(json_object_get(root[1], "global options"), JSON_COMPACT));
	cr_assert_eq(json_array_size(jobs[1]), json_array_size(jobs[0]), "fio %zu reports, iopath %zu",
		     json_array_size(jobs[0]), json_array_size(jobs[1]));
	cr_assert_eq(json_array_size(jobs[0]), reports, "fio: %zu reports", json_array_size(jobs[0]));
	for (k = 0; k < reports; k++) {
		json_t *f = json_object_get(json_array_get(jobs[0], k), "job options");
		json_t *i = json_object_get(json_array_get(jobs[1], k), "job options");

		cr_expect((!f && !i) || (f && i && json_equal(f, i)),
			  "report %zu's options: fio %s, iopath %s", k,
			  f ? json_dumps(f, JSON_COMPACT) : "none", i ? json_dumps(i, JSON_COMPACT) : "none");
	}
	json_decref(root[0]);
	json_decref(root[1]);
	side_free(&s);
}

/*
 * Options given without a value (thread, group_reporting, new_group) are not among fio's
 * "global options" or "job options"; a report that group_reporting merges holds the options
 * of the last job merged into it (fio's opt_lists), not the first's.
 */
Test(fio_realjobs, bare_options_and_a_groups_last_job_as_fio_lists_them)
{
	options_listed_as_fio("[global]\nioengine=null\nsize=64k\nthread\ngroup_reporting\nbs=4k\n"
			      "[a]\nrw=write\n[b]\niodepth=2\nnorandommap\n[c]\nnew_group\nrw=read\n",
			      2);
}

/*
 * A section of bare options alone ([LOOP_0] stonewall, a [global] of thread) still has its
 * object in fio's JSON, empty; a section with no options has none.
 */
Test(fio_realjobs, a_section_of_bare_options_has_fios_empty_options)
{
	options_listed_as_fio("[global]\nthread\nioengine=null\nsize=64k\nbs=4k\nrw=write\n"
			      "[LOOP_0]\nstonewall\n[LOOP_1]\nstonewall\n[LOOP_2]\n", 3);
	options_listed_as_fio("[global]\nthread\n[a]\nioengine=null\nsize=64k\n", 1);
}

/*
 * The offsets of tool t's queued I/Os (fio's --debug=io "queue:" lines), each worker's in
 * the order queued, the workers' lists sorted, one offset a line.
 */
static char *queued_offsets(const struct side *s, unsigned t)
{
	char tid[8][32] = { { 0 } }, *each[8] = { NULL }, *all, *line, *save, *text;
	size_t len[8] = { 0 }, total = 1;
	unsigned n = 0, k, m;

	text = strdup(s->out[t].out);
	cr_assert_not_null(text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char who[32];
		const char *off = strstr(line, "off=");

		if (!strstr(line, " queue: ") || !off || sscanf(line, "io %31s", who) != 1)
			continue;
		for (k = 0; k < n && strcmp(tid[k], who); k++)
			;
		cr_assert_lt(k, 8, "%s: more than 8 workers", t ? "iopath" : "fio");
		if (k == n)
			snprintf(tid[n++], sizeof(tid[0]), "%s", who);
		each[k] = realloc(each[k], len[k] + 32);
		cr_assert_not_null(each[k]);
		len[k] += (size_t)snprintf(each[k] + len[k], 32, "%.*s\n", (int)strcspn(off + 4, ","),
					   off + 4);
	}
	for (k = 0; k < n; k++)
		total += len[k];
	all = calloc(1, total);
	cr_assert_not_null(all);
	/* the workers in the order of their first offsets' text, so that both tools' agree */
	for (m = 0; m < n; m++) {
		unsigned best = n;

		for (k = 0; k < n; k++)
			if (each[k] && (best == n || strcmp(each[k], each[best]) < 0))
				best = k;
		strcat(all, each[best]);
		free(each[best]);
		each[best] = NULL;
	}
	free(text);
	return all;
}

/*
 * random_generator=lfsr: fio's LFSR (its taps, its XNOR steps, started from the job's
 * FIO_RAND_BLOCK_OFF seed, again from it each loop), so each worker's offsets are fio's, in
 * fio's order: the default seed, clones (thread numbers 1 and 2), randseed= with
 * randrepeat=0, loops=2, a mix over two files.
 */
Test(fio_realjobs, lfsr_offsets_are_fios)
{
	static const char *const cases[] = {
		"[l]\nrw=randread\nbs=4k\nsize=1m\n",
		"[l]\nrw=randwrite\nbs=8k\nsize=512k\nnumjobs=2\n",
		"[l]\nrw=randread\nbs=4k\nsize=256k\nrandrepeat=0\nrandseed=1234\n",
		"[l]\nrw=randread\nbs=4k\nsize=96k\nloops=2\n",
		"[l]\nrw=randrw\nbs=4k\nfilename=a:b\nsize=128k\n",
	};
	static const char *const extra[] = { "--debug=io", NULL };
	char text[512], *got[2];
	struct side s;
	unsigned k, t;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(text, sizeof(text), "[global]\nioengine=psync\nrandom_generator=lfsr\n%s",
			 cases[k]);
		side_run_ok(&s, text, extra, NULL);
		for (t = 0; t < 2; t++)
			got[t] = queued_offsets(&s, t);
		cr_expect(strlen(got[0]) > 10, "case %u: fio queued nothing: %s", k, s.out[0].out);
		cr_expect_str_eq(got[1], got[0], "case %u (%s): iopath's offsets differ from fio's", k,
				 cases[k]);
		for (t = 0; t < 2; t++)
			free(got[t]);
		side_free(&s);
	}
}

/*
 * Tool t's queued I/Os (--debug=io) counted as sequential (at the end of its direction's
 * last I/O, each worker its own) or not: the steps percentage_random takes.
 */
static void seq_steps(const struct side *s, unsigned t, unsigned *seq, unsigned *other)
{
	char tid[8][32] = { { 0 } }, *text = strdup(s->out[t].out), *line, *save;
	unsigned long long end[8][3] = { { 0 } };
	unsigned n = 0, k;

	cr_assert_not_null(text);
	*seq = *other = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long off, len;
		unsigned ddir;
		char who[32];
		const char *at = strstr(line, "off=");

		if (!strstr(line, " queue: ") || !at || sscanf(line, "io %31s", who) != 1 ||
		    sscanf(at, "off=%llx,len=%llx,ddir=%u", &off, &len, &ddir) != 3 || ddir > 2)
			continue;
		for (k = 0; k < n && strcmp(tid[k], who); k++)
			;
		cr_assert_lt(k, 8, "%s: more than 8 workers", t ? "iopath" : "fio");
		if (k == n)
			snprintf(tid[n++], sizeof(tid[0]), "%s", who);
		if (off == end[k][ddir])
			(*seq)++;
		else
			(*other)++;
		end[k][ddir] = off + len;
	}
	free(text);
}

/*
 * percentage_random: of a random job's I/Os, that share at random offsets, the others where the
 * direction's last I/O ended, drawn from fio's seq_rand_state (seeded as fio seeds it), so
 * with fio's LFSR for the random ones the offsets are fio's I/O for I/O, and so are the counts
 * of each kind: 0 (all sequential), 50, 100 (all random), a read,write pair, clones.
 */
Test(fio_realjobs, percentage_random_offsets_are_fios)
{
	static const struct {
		const char *job;
		unsigned min_seq, max_seq;	/* of the 64 I/Os (128 with two workers) */
	} cases[] = {
		{ "rw=randread\npercentage_random=0\n", 64, 64 },
		{ "rw=randread\npercentage_random=50\n", 16, 48 },
		{ "rw=randread\npercentage_random=100\n", 0, 8 },
		{ "rw=randrw\npercentage_random=80,20\n", 16, 56 },
		{ "rw=randwrite\npercentage_random=30\nnumjobs=2\n", 60, 120 },
	};
	static const char *const extra[] = { "--debug=io", NULL };
	char text[512], *got[2];
	unsigned k, t, seq[2], other[2];
	struct side s;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(text, sizeof(text),
			 "[global]\nioengine=psync\nbs=4k\nsize=256k\nrandom_generator=lfsr\n[p]\n%s",
			 cases[k].job);
		side_run_ok(&s, text, extra, NULL);
		for (t = 0; t < 2; t++) {
			got[t] = queued_offsets(&s, t);
			seq_steps(&s, t, &seq[t], &other[t]);
		}
		cr_expect(strlen(got[0]) > 10, "case %u: fio queued nothing: %s", k, s.out[0].out);
		cr_expect_str_eq(got[1], got[0], "case %u (%s): iopath's offsets differ from fio's", k,
				 cases[k].job);
		cr_expect(seq[1] == seq[0] && other[1] == other[0],
			  "case %u (%s): fio %u sequential and %u other steps, iopath %u and %u", k,
			  cases[k].job, seq[0], other[0], seq[1], other[1]);
		cr_expect(seq[0] >= cases[k].min_seq && seq[0] <= cases[k].max_seq,
			  "case %u (%s): fio took %u sequential steps", k, cases[k].job, seq[0]);
		for (t = 0; t < 2; t++)
			free(got[t]);
		side_free(&s);
	}
}

/* percentage_random's values: as fio's three-field integers, 0 to 100, else refused (exit 2). */
Test(fio_realjobs, percentage_random_values)
{
	static const char *const bad[] = { "--percentage_random=101", "--percentage_random=x",
					   "--percentage_random=50,200", "--percentage_random=-1" };
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		iopath_refuses("percentage_random", "--name=x", "--ioengine=null", "--rw=randread",
			       "--size=1m", bad[i], NULL);
	iopath_exits(0, "--name=x", "--ioengine=null", "--rw=randrw", "--size=1m",
		     "--percentage_random=50,10,0", "--parse-only", NULL);
}

/*
 * group_reporting over numjobs clones: fio's job_runtime is the clones' runtimes summed
 * (total_run_time), each at least runtime= for a time_based job, so at least 3 x 200 ms here
 * in both tools (a lower bound: what a busy machine adds cannot make it fail).
 */
Test(fio_realjobs, group_job_runtime_sums_the_clones)
{
	static const char text[] =
		"[global]\nioengine=null\nsize=1g\ntime_based=1\nruntime=200ms\ngroup_reporting=1\n"
		"[j]\nnumjobs=3\n";
	static const char *const extra[] = { "--output-format=json", NULL };
	struct side s;
	unsigned t;

	side_run_ok(&s, text, extra, NULL);
	for (t = 0; t < 2; t++) {
		json_t *root, *job;

		root = side_json(&s, t);
		job = json_array_get(json_object_get(root, "jobs"), 0);
		cr_expect_geq(json_integer_value(json_object_get(job, "job_runtime")), 597,
			      "%s: job_runtime %lld ms", t ? "iopath" : "fio",
			      json_integer_value(json_object_get(job, "job_runtime")));
		json_decref(root);
	}
	side_free(&s);
}

/* Both tools' exit status of --parse-only on text, zero or not alike. */
static void parse_agrees(const char *text, bool accepted)
{
	static const char *const extra[] = { "--parse-only", NULL };
	struct side s;

	side_run(&s, text, extra);
	cr_expect_eq(s.out[0].status == 0, accepted, "fio --parse-only exits %d: %s",
		     s.out[0].status, s.out[0].err);
	cr_expect_eq(s.out[1].status == 0, accepted, "iopath --parse-only exits %d: %s",
		     s.out[1].status, s.out[1].err);
	side_free(&s);
}

/*
 * What fio reads and iopath now reads alike: arithmetic outside parentheses (the leading
 * number), any number for a set-by-presence option, a soft-deprecated option, time_based
 * without runtime; and what both refuse: a hard-deprecated option, a 0/1 boolean of 2.
 */
Test(fio_realjobs, values_fio_accepts_are_accepted_and_its_refusals_refused)
{
	parse_agrees("[a]\nioengine=null\nsize=1m\niodepth=128*1\nruntime=40+30\nnumjobs=2+1\n", true);
	parse_agrees("[a]\nioengine=null\nsize=1m\ntime_based=10\nthread=8\nruntime=1\n", true);
	parse_agrees("[a]\nioengine=null\nsize=1m\nverifysort=1\nverifysort_nr=4\n", true);
	parse_agrees("[a]\nioengine=null\nsize=1m\ntime_based=1\n", true);
	parse_agrees("[a]\nioengine=null\nsize=1m\nrwmixcycle=4\n", false);
	parse_agrees("[a]\nioengine=null\nsize=1m\ndirect=2\n", false);
}

/*
 * A text option given empty ("filename=", as a template leaves it for its harness to fill)
 * is refused by both, in a job section, in [global] and on the command line; the same
 * options given a value are accepted.
 */
Test(fio_realjobs, empty_text_options_are_refused_as_fio)
{
	static const char *const names[] = { "filename", "directory", "description",
					     "filename_format", "write_iolog", "wait_for" };
	char text[256];
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(text, sizeof(text), "[a]\nioengine=null\nsize=1m\n%s=\n", names[i]);
		parse_agrees(text, false);
	}
	parse_agrees("[global]\nfilename=\nioengine=null\nsize=1m\n[a]\n", false);
	parse_agrees("[global]\nfilename=f1\ndirectory=.\ndescription=d\nioengine=null\n"
		     "size=1m\n[a]\n", true);

	struct side s;
	static const char *const cli[] = { "--filename=", "--parse-only", NULL };

	side_run(&s, "[a]\nioengine=null\nsize=1m\n", cli);
	cr_expect_neq(s.out[0].status, 0, "fio accepts --filename=");
	cr_expect_eq(s.out[1].status, 2, "iopath exits %d: %s", s.out[1].status, s.out[1].err);
	cr_expect(strstr(s.out[1].err, "filename: an empty value"), "%s", s.out[1].err);
	side_free(&s);
}

/* create_only: the file laid out, no I/O counted; --append-terse: a terse line too. */
Test(fio_realjobs, create_only_lays_out_and_append_terse_adds_the_terse_line)
{
	static const char text[] = "[co]\nioengine=psync\nrw=read\nsize=256k\ncreate_only=1\n";
	static const char *const extra[] = { "--append-terse", NULL };
	char path[400];
	struct side s;
	struct stat st;
	unsigned t;

	side_run_ok(&s, text, extra, NULL);
	for (t = 0; t < 2; t++) {
		snprintf(path, sizeof(path), "%s/co.0.0", s.dir[t]);
		cr_expect(!stat(path, &st) && st.st_size == 256 * 1024, "%s: co.0.0 not laid out",
			  t ? "iopath" : "fio");
		cr_expect(strstr(s.out[t].out, ";co;0;0;0;0;0;0;0"), "%s: no terse line of no I/O:\n%s",
			  t ? "iopath" : "fio", s.out[t].out);
	}
	side_free(&s);
}

/* Milliseconds of clock id now. */
static unsigned long long clock_ms(clockid_t id)
{
	struct timespec ts;

	cr_assert_eq(clock_gettime(id, &ts), 0);
	return (unsigned long long)ts.tv_sec * 1000 + (unsigned long long)ts.tv_nsec / 1000000;
}

/* Tool t's log file name: its number of lines, the first and last line's time in *first, *last. */
static unsigned log_times(const struct side *s, unsigned t, const char *name,
			  unsigned long long *first, unsigned long long *last)
{
	char path[400], line[256];
	unsigned n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", s->dir[t], name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s wrote no %s", t ? "iopath" : "fio", name);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v = strtoull(line, NULL, 10);

		if (!n)
			*first = v;
		*last = v;
		n++;
	}
	fclose(f);
	return n;
}

/*
 * log_unix_epoch and log_alternate_epoch with log_alternate_epoch_clock_id: every time in the
 * bw, lat and hist logs is the clock's reading in ms (the job's start on that clock, plus the
 * time since), so it lies between the clock read before and after each tool ran; without them
 * the times start near 0. Both tools write as many entries.
 */
Test(fio_realjobs, log_epochs_give_the_clocks_time)
{
	static const struct {
		const char *opts;
		clockid_t id;
	} cases[] = {
		{ "log_unix_epoch=1\n", CLOCK_REALTIME },
		{ "log_alternate_epoch=1\nlog_alternate_epoch_clock_id=1\n", CLOCK_MONOTONIC },
		{ "log_unix_epoch=1\nlog_alternate_epoch_clock_id=7\n", CLOCK_BOOTTIME },
		{ "log_alternate_epoch_clock_id=1\n", CLOCK_MONOTONIC },	/* no effect alone */
	};
	static const char *const logs[] = { "b_bw.1.log", "l_clat.1.log", "l_lat.1.log",
					    "h_clat_hist.1.log" };
	char text[512];
	unsigned k, t, i, n[2];

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		unsigned long long before, after, first, last;
		struct side s;

		snprintf(text, sizeof(text),
			 "[e]\nioengine=psync\nrw=write\nsize=64k\nbs=4k\nwrite_bw_log=b\n"
			 "write_lat_log=l\nwrite_hist_log=h\nlog_hist_msec=1\n%s", cases[k].opts);
		before = clock_ms(cases[k].id);
		side_run_ok(&s, text, NULL, NULL);
		after = clock_ms(cases[k].id);
		for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
			for (t = 0; t < 2; t++) {
				n[t] = log_times(&s, t, logs[i], &first, &last);
				if (k < 3)
					cr_expect(first >= before && last <= after,
						  "%s %s (%s): times %llu..%llu outside the clock's %llu..%llu",
						  t ? "iopath" : "fio", logs[i], cases[k].opts, first, last,
						  before, after);
				else
					cr_expect(last <= after - before,
						  "%s %s: times up to %llu, not from the job's start",
						  t ? "iopath" : "fio", logs[i], last);
			}
			if (i < 3)
				cr_expect_eq(n[1], n[0], "%s: iopath %u entries, fio %u", logs[i], n[1],
					     n[0]);
		}
		side_free(&s);
	}
}

/* A clock the system lacks is refused when it would be used (fio would read garbage). */
Test(fio_realjobs, log_epoch_of_a_clock_the_system_lacks_is_refused)
{
	struct run_out o = iopath_run("--name=e", "--ioengine=null", "--size=64k",
				      "--log_unix_epoch=1", "--log_alternate_epoch_clock_id=99",
				      "--parse-only", NULL);

	cr_expect_eq(o.status, 2, "exit %d: %s", o.status, o.err);
	cr_expect(strstr(o.err, "log_alternate_epoch_clock_id=99"), "%s", o.err);
	run_out_free(&o);
	o = iopath_run("--name=e", "--ioengine=null", "--size=64k",
		       "--log_alternate_epoch_clock_id=99", "--parse-only", NULL);
	cr_expect_eq(o.status, 0, "unused, it has no effect (as in fio): exit %d: %s", o.status,
		     o.err);
	run_out_free(&o);
}

/*
 * ioengine=mmap with direct=1 runs, as in fio: the file is written whole through the mapping,
 * and each write is followed by an msync of its range (at least one per I/O in both tools).
 */
Test(fio_realjobs, mmap_with_direct_flushes_each_io)
{
	static const char text[] =
		"[m]\nioengine=mmap\ndirect=1\nrw=write\nsize=64k\nbs=4k\nfilename=m.dat\n";
	char path[400];
	struct stat st;
	struct side s;
	unsigned t;

	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	side_run_ok(&s, text, NULL, "msync");
	for (t = 0; t < 2; t++) {
		snprintf(path, sizeof(path), "%s/m.dat", s.dir[t]);
		cr_expect(!stat(path, &st) && st.st_size == 64 * 1024, "%s: m.dat not written",
			  t ? "iopath" : "fio");
		cr_expect_geq(trace_count(&s, t, "msync("), 16u, "%s: %u msyncs for 16 writes",
			      t ? "iopath" : "fio", trace_count(&s, t, "msync("));
	}
	side_free(&s);
}

/* Tool t's file name in its scratch directory, read whole into buf (at most len): its size. */
static size_t read_whole(const struct side *s, unsigned t, const char *name, unsigned char *buf,
			 size_t len)
{
	char path[400];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", s->dir[t], name);
	f = fopen(path, "rb");
	cr_assert_not_null(f, "%s wrote no %s", t ? "iopath" : "fio", name);
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

/*
 * verify_pattern with %o: each write's offset (8 bytes, little-endian) pasted into the pattern,
 * the pattern repeated over the block; the file both tools write is the same byte for byte,
 * random order or not, and the read-back of each verifies.
 */
Test(fio_realjobs, verify_pattern_offset_format_writes_what_fio_writes)
{
	static const char *const texts[] = {
		"[v]\nioengine=psync\nrw=randwrite\nsize=64k\nbs=4k\nfilename=v.dat\n"
		"verify=pattern\nverify_pattern=\"ab\"%o0x11\n",
		"[v]\nioengine=psync\nrw=write\nsize=64k\nbs=8k\nfilename=v.dat\n"
		"verify=crc32c\nverify=pattern\nverify_pattern=%o\n",
	};
	static unsigned char data[2][64 * 1024];
	static const char *const extra[] = { "--output-format=json", NULL };
	unsigned k, t;

	for (k = 0; k < 2; k++) {
		struct side s;
		size_t n[2];

		side_run_ok(&s, texts[k], extra, NULL);
		for (t = 0; t < 2; t++) {
			json_t *root = side_json(&s, t);
			json_t *job = json_array_get(json_object_get(root, "jobs"), 0);

			n[t] = read_whole(&s, t, "v.dat", data[t], sizeof(data[t]));
			cr_expect_eq(json_integer_value(json_object_get(json_object_get(job, "read"),
									 "io_bytes")), 65536,
				     "%s: the read-back", t ? "iopath" : "fio");
			json_decref(root);
		}
		cr_assert_eq(n[0], sizeof(data[0]));
		cr_assert_eq(n[1], n[0]);
		cr_expect(!memcmp(data[0], data[1], n[0]), "job %u: the files differ", k);
		/* the block at 8k holds its offset */
		cr_expect_eq(data[1][8192 + (k ? 0 : 2) + 1], 0x20, "job %u: byte %02x", k,
			     data[1][8192 + (k ? 0 : 2) + 1]);
		side_free(&s);
	}
}

/*
 * bwavgtime and iopsavgtime: the windows of the bandwidth and IOPS samples, each its own. In a
 * 700 ms job, windows of 5 s give no sample, 500 ms (the default) one, 100 ms several, in both
 * tools (counts bounded, not timed: fio's helper thread wakes as it likes).
 */
Test(fio_realjobs, bwavgtime_and_iopsavgtime_set_the_sample_windows)
{
	static const struct {
		const char *opts;
		int bw_min, bw_max, iops_min, iops_max;
	} cases[] = {
		{ "bwavgtime=5000\niopsavgtime=5000\n", 0, 0, 0, 0 },
		{ "", 1, 1, 1, 1 },
		{ "bwavgtime=100\niopsavgtime=5000\n", 2, 7, 0, 0 },
		{ "bwavgtime=5000\niopsavgtime=100\n", 0, 0, 2, 7 },
	};
	static const char *const extra[] = { "--output-format=json", NULL };
	char text[256];
	unsigned k, t;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct side s;

		snprintf(text, sizeof(text),
			 "[b]\nioengine=null\nrw=read\nsize=100g\ntime_based=1\nruntime=700ms\n%s",
			 cases[k].opts);
		side_run_ok(&s, text, extra, NULL);
		for (t = 0; t < 2; t++) {
			json_t *root = side_json(&s, t);
			json_t *rd = json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
						     "read");
			int bw = (int)json_integer_value(json_object_get(rd, "bw_samples"));
			int iops = (int)json_integer_value(json_object_get(rd, "iops_samples"));

			cr_expect(bw >= cases[k].bw_min && bw <= cases[k].bw_max,
				  "%s, %s: %d bandwidth samples", t ? "iopath" : "fio", cases[k].opts, bw);
			cr_expect(iops >= cases[k].iops_min && iops <= cases[k].iops_max,
				  "%s, %s: %d IOPS samples", t ? "iopath" : "fio", cases[k].opts, iops);
			json_decref(root);
		}
		side_free(&s);
	}
}

/* How many of the 4 KiB boundaries of tool t's file name hold fio's verify header magic. */
static unsigned headers_at_4k(const struct side *s, unsigned t, const char *name)
{
	static unsigned char data[1 << 20];
	size_t n = read_whole(s, t, name, data, sizeof(data)), off;
	unsigned hits = 0;

	for (off = 0; off + 2 <= n; off += 4096)
		hits += data[off] == 0xca && data[off + 1] == 0xac;
	return hits;
}

/*
 * verify_interval with a block size split, as fio's fixup_options clamps it: an interval over
 * the smallest write block becomes that block (64k over 4k..64k blocks: a header every 4k), one
 * that does not divide the smallest and largest becomes their greatest common divisor (3k with
 * 8k and 16k blocks: 8k), and a split without one takes the smallest block. Both tools accept
 * it, verify what they wrote, and put a header at the same places.
 */
Test(fio_realjobs, verify_interval_is_clamped_to_the_block_sizes_as_fio)
{
	static const struct {
		const char *opts;
		unsigned headers;
	} cases[] = {
		{ "bssplit=4k/50:64k/50\nverify_interval=64k\n", 256 },
		{ "bssplit=8k/50:16k/50\nverify_interval=3k\n", 128 },
		{ "bssplit=8k/50:16k/50\n", 128 },
	};
	static const char *const extra[] = { "--output-format=json", NULL };
	char text[256];
	unsigned k, t;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct side s;

		snprintf(text, sizeof(text),
			 "[v]\nioengine=psync\nrw=write\nsize=1m\nfilename=v.dat\nverify=crc32c\n%s",
			 cases[k].opts);
		side_run_ok(&s, text, extra, NULL);
		for (t = 0; t < 2; t++) {
			json_t *root = side_json(&s, t);
			json_t *job = json_array_get(json_object_get(root, "jobs"), 0);

			cr_expect_eq(json_integer_value(json_object_get(json_object_get(job, "read"),
									 "io_bytes")), 1 << 20,
				     "%s (%s): the read-back", t ? "iopath" : "fio", cases[k].opts);
			cr_expect_eq(headers_at_4k(&s, t, "v.dat"), cases[k].headers,
				     "%s (%s): %u headers", t ? "iopath" : "fio", cases[k].opts,
				     headers_at_4k(&s, t, "v.dat"));
			json_decref(root);
		}
		side_free(&s);
	}
}

/*
 * unlink_each_loop: as each loop after the first starts, the job's file is removed (and written
 * anew): two removals for three loops in both tools, every loop's bytes counted, the last
 * loop's file left whole. A job that reads cannot: fio fails it at its second loop, iopath
 * refuses it.
 */
Test(fio_realjobs, unlink_each_loop_removes_the_files_between_loops)
{
	static const char text[] =
		"[u]\nioengine=psync\nrw=write\nsize=64k\nbs=4k\nfilename=u.dat\nloops=3\n"
		"unlink_each_loop=1\n";
	static const char *const extra[] = { "--output-format=json", NULL };
	struct run_out o;
	char path[400];
	struct stat st;
	struct side s;
	unsigned t;

	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	side_run_ok(&s, text, extra, "unlink,unlinkat");
	for (t = 0; t < 2; t++) {
		json_t *root = side_json(&s, t);
		json_t *job = json_array_get(json_object_get(root, "jobs"), 0);
		unsigned removed = trace_count(&s, t, "u.dat\")") - trace_count(&s, t, "ENOENT");

		cr_expect_eq(removed, 2u, "%s: u.dat removed %u times", t ? "iopath" : "fio", removed);
		cr_expect_eq(json_integer_value(json_object_get(json_object_get(job, "write"),
								 "io_bytes")), 3 * 65536,
			     "%s: the loops' bytes", t ? "iopath" : "fio");
		snprintf(path, sizeof(path), "%s/u.dat", s.dir[t]);
		cr_expect(!stat(path, &st) && st.st_size == 65536, "%s: u.dat not left whole",
			  t ? "iopath" : "fio");
		json_decref(root);
	}
	side_free(&s);
	o = iopath_run("--name=r", "--ioengine=psync", "--filename=r.dat", "--rw=read",
		       "--size=64k", "--loops=2", "--unlink_each_loop=1", "--parse-only", NULL);
	cr_expect_eq(o.status, 2, "a reading job: exit %d: %s", o.status, o.err);
	cr_expect(strstr(o.err, "unlink_each_loop=1 with loops=2"), "%s", o.err);
	run_out_free(&o);
}

/*
 * mem=mmapshared:FILE: the buffers are FILE mapped shared, so what a read brings lands in FILE
 * (a one-buffer read job leaves its last block there), and stays; mem=mmap:FILE maps it
 * privately (truncated to the buffers' size), and one that was not there is removed at the end,
 * as in fio.
 */
Test(fio_realjobs, mem_mmapshared_file_holds_what_was_read)
{
	static const char text[] =
		"[global]\nioengine=psync\nbs=4k\nsize=64k\niodepth=1\n"
		"[mk]\nrw=write\nfilename=buf.dat\n"
		"[r]\nstonewall\nrw=read\nfilename=data.dat\nmem=mmapshared:buf.dat\n"
		"[p]\nstonewall\nrw=read\nfilename=data.dat\nmem=mmap:priv.dat\n";
	static unsigned char buf[64 * 1024], data[64 * 1024];
	char path[400];
	struct side s;
	unsigned t;

	side_run_ok(&s, text, NULL, NULL);
	for (t = 0; t < 2; t++) {
		cr_assert_eq(read_whole(&s, t, "buf.dat", buf, sizeof(buf)), sizeof(buf));
		cr_assert_eq(read_whole(&s, t, "data.dat", data, sizeof(data)), sizeof(data));
		cr_expect(!memcmp(buf, data + 60 * 1024, 4096),
			  "%s: buf.dat does not begin with data.dat's last block", t ? "iopath" : "fio");
		snprintf(path, sizeof(path), "%s/priv.dat", s.dir[t]);
		cr_expect(access(path, F_OK), "%s: priv.dat was left behind", t ? "iopath" : "fio");
	}
	side_free(&s);
}

/* A mem= file of the user's is neither written through a shared mapping nor truncated unasked. */
Test(fio_realjobs, mem_file_of_the_users_is_refused)
{
	const char *dir = tmpdir_make();
	char path[400];
	struct run_out o;
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mine.dat", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("the user's own", f);
	cr_assert_eq(fclose(f), 0);
	o = iopath_run("--name=r", "--ioengine=psync", tmp_str("--filename=%s/d", dir), "--size=64k",
		       tmp_str("--mem=mmapshared:%s", path), NULL);
	cr_expect_neq(o.status, 0, "exit %d", o.status);
	cr_expect(strstr(o.err, "would write the job's buffers into a file iopath did not create"),
		  "%s", o.err);
	run_out_free(&o);
	o = iopath_run("--name=r", "--ioengine=psync", tmp_str("--filename=%s/d", dir), "--size=64k",
		       tmp_str("--mem=mmap:%s", path), NULL);
	cr_expect_neq(o.status, 0, "exit %d", o.status);
	cr_expect(strstr(o.err, "would truncate a file iopath did not create"), "%s", o.err);
	run_out_free(&o);
	cr_expect(!stat(path, &st) && st.st_size == 14, "mine.dat was changed");
}

/* Tool t's JSON: direction dir's total_ios of the first job. */
static long long side_ios(const struct side *s, unsigned t, const char *dir)
{
	json_t *root = side_json(s, t);
	long long n = json_integer_value(json_object_get(
		json_object_get(json_array_get(json_object_get(root, "jobs"), 0), dir), "total_ios"));

	json_decref(root);
	return n;
}

/*
 * bs=4k-512k is no range: fio splits a number option's value at ',' else ':' else '-', so it is
 * reads of 4k and writes of 512k (bs=4k:64k alike); a 4m file is 1024 reads or 8 (64) writes.
 * A part that a ',' ends keeps its '-' or ':', and fio's number stops there: bs=4k-512k,64k
 * reads 4k and writes 64k, bs=8k,4k-16k writes 4k (the trim size 16k).
 */
Test(fio_realjobs, bs_with_a_dash_is_read_and_write_sizes)
{
	static const struct {
		const char *opts;
		const char *dir;
		long long ios;
	} cases[] = {
		{ "rw=read\nbs=4k-512k\n", "read", 1024 },
		{ "rw=write\nbs=4k-512k\n", "write", 8 },
		{ "rw=write\nbs=4k:64k\n", "write", 64 },
		{ "rw=read\nbs=4k-512k,64k\n", "read", 1024 },
		{ "rw=write\nbs=4k-512k,64k\n", "write", 64 },
		{ "rw=write\nbs=8k,4k-16k\n", "write", 1024 },
		{ "rw=read\nbs=1k:2k-3k,8k\n", "read", 4096 },
	};
	static const char *const extra[] = { "--output-format=json", NULL };
	char text[256];
	unsigned k, t;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct side s;

		snprintf(text, sizeof(text), "[b]\nioengine=psync\nsize=4m\nfilename=b.dat\n%s",
			 cases[k].opts);
		side_run_ok(&s, text, extra, NULL);
		for (t = 0; t < 2; t++)
			cr_expect_eq(side_ios(&s, t, cases[k].dir), cases[k].ios, "%s, %s: %lld I/Os",
				     t ? "iopath" : "fio", cases[k].opts, side_ios(&s, t, cases[k].dir));
		side_free(&s);
	}
}

/*
 * Where the directions' block sizes differ (bs=4k-16k is reads of 4k, writes of 16k), fio's
 * random map numbers each direction's blocks in its own size over bits of the smallest, and
 * its job ends at the first block past the file: a randwrite of a 4m file moves 155 blocks of
 * 256, not 256. Both tools, I/O for I/O: the same counts, bytes too, clones and mixes included.
 */
/*
 * Both tools run text (exit 0 each); every job's reads and writes move the same bytes in the
 * same number of I/Os. whole: the test file is m.dat of 4 MiB, and fio must not have written
 * all of it (the case would show nothing).
 */
static void counts_agree(const char *text, bool whole)
{
	static const char *const extra[] = { "--output-format=json", NULL };
	static const char *const dirs[] = { "read", "write" };
	struct side s;
	json_t *js[2];
	unsigned d, j;

	side_run_ok(&s, text, extra, NULL);
	js[0] = side_json(&s, 0);
	js[1] = side_json(&s, 1);
	for (j = 0; j < json_array_size(json_object_get(js[0], "jobs")); j++)
		for (d = 0; d < 2; d++) {
			json_t *f = json_object_get(json_array_get(json_object_get(js[0], "jobs"), j), dirs[d]);
			json_t *i = json_object_get(json_array_get(json_object_get(js[1], "jobs"), j), dirs[d]);
			long long fi = json_integer_value(json_object_get(f, "total_ios"));
			long long ii = json_integer_value(json_object_get(i, "total_ios"));
			long long fb = json_integer_value(json_object_get(f, "io_bytes"));
			long long ib = json_integer_value(json_object_get(i, "io_bytes"));

			cr_expect(fi == ii && fb == ib, "%s job %u %s: fio %lld I/Os %lld bytes, iopath %lld, %lld",
				  text, j, dirs[d], fi, fb, ii, ib);
			cr_expect(!whole || fb < 4 << 20 || d == 0, "%s: fio wrote the whole file (%lld)",
				  text, fb);
		}
	cr_expect_eq(json_array_size(json_object_get(js[1], "jobs")),
		     json_array_size(json_object_get(js[0], "jobs")), "%s: jobs", text);
	json_decref(js[0]);
	json_decref(js[1]);
	side_free(&s);
}

Test(fio_realjobs, random_map_with_direction_sizes_ends_where_fios_does)
{
	static const char *const cases[] = {
		"rw=randwrite\nbs=4k-16k\n",
		"rw=randwrite\nbs=4k-16k\nnumjobs=2\n",
		"rw=randrw\nbs=4k,64k\n",
		"rw=randrw\nbs=8k,32k\nrwmixread=30\nioengine=libaio\niodepth=4\n",
		"rw=randread\nbs=16k,4k\nrandseed=42\n",
	};
	char text[256];
	unsigned k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(text, sizeof(text), "[m]\nioengine=psync\nsize=4m\nfilename=m.dat\n%s",
			 cases[k]);
		counts_agree(text, true);
	}
}

/*
 * Block sizes that vary (bsrange, bssplit) are drawn as fio draws them, from its streams and
 * after the offset (a size that does not fit before the file's end is drawn again), and a job
 * issues while it has issued less than its size or io_size, so its last I/O may end past
 * them: the same jobs move the same bytes in the same number of I/Os, sequential and random,
 * with the random map or without, mixed, seeded, and with the 64-bit generator.
 */
Test(fio_realjobs, varying_block_sizes_are_drawn_as_fio_draws_them)
{
	static const char *const cases[] = {
		"rw=write\nbsrange=4k-1m\n",
		"rw=write\nbsrange=4k-1m\nio_size=2m\n",
		"rw=read\nbssplit=4k/10:64k/60:16k/30\n",
		"rw=read\nbsrange=4k-64k\nrandom_generator=tausworthe64\n",
		"rw=randwrite\nbsrange=4k-1m\nio_size=2m\n",
		"rw=randwrite\nbssplit=4k/50:64k/50\n",
		"rw=randrw\nbssplit=4k/50:8k/30:128k/10:1m/10\nioengine=libaio\niodepth=8\n",
		"rw=randrw\nbsrange=4k-64k\nnorandommap\n",
		"rw=randread\nbsrange=512-64k\nrandseed=77\n",
	};
	char text[256];
	unsigned k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(text, sizeof(text), "[m]\nioengine=psync\nsize=4m\nfilename=m.dat\n%s",
			 cases[k]);
		counts_agree(text, false);
	}
}

/* size=50%% is fio's 50%: what follows a '%' is nothing to it (a printf-style template's "%%"). */
Test(fio_realjobs, size_percent_doubled_is_a_percentage)
{
	static const char text[] = "[r]\nioengine=psync\nfilename=p.dat\nrw=read\nsize=50%%\n";
	static const char *const extra[] = { "--output-format=json", NULL };
	struct side s;
	unsigned t;

	side_prefile = "p.dat";
	side_prefile_len = 8 << 20;
	side_run_ok(&s, text, extra, NULL);
	side_prefile = NULL;
	for (t = 0; t < 2; t++) {
		json_t *root = side_json(&s, t);
		json_t *r = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "read");

		cr_expect_eq(json_integer_value(json_object_get(r, "io_bytes")), 4 << 20,
			     "%s: %lld bytes read", t ? "iopath" : "fio",
			     json_integer_value(json_object_get(r, "io_bytes")));
		json_decref(root);
	}
	side_free(&s);
}

/*
 * size=N% of files of different sizes: each file its own share (N% of it, no more than it
 * holds past offset=, aligned down to the block size), as fio's setup_files gives it; iopath
 * took the smallest file's share for every file.
 */
Test(fio_realjobs, size_percent_is_each_files_own_share)
{
	static const char text[] =
		"[global]\nioengine=psync\nbs=4k\nfilename=f1:f2\n"
		"[third]\nrw=read\nsize=33%%\n"
		"[most]\nstonewall\nrw=randread\nsize=95%%\noffset=1m\n"
		"[half]\nstonewall\nrw=read\nbs=64k\nsize=50%%\nnumjobs=2\n";
	static const char *const extra[] = { "--output-format=json", NULL };
	/* 33% of 10000000 and of 7000000 bytes; 95% of each but past 1 MiB; half of each */
	static const long long want[] = { 3297280 + 2306048, (9998336 - 1048576) + (6995968 - 1048576),
					  5000000 / 65536 * 65536 + 3500000 / 65536 * 65536 };
	struct side s;
	unsigned t, k;

	side_prefile = "f1";
	side_prefile_len = 10000000;
	side_prefile2 = "f2";
	side_prefile2_len = 7000000;
	side_run_ok(&s, text, extra, NULL);
	side_prefile = side_prefile2 = NULL;
	for (t = 0; t < 2; t++) {
		json_t *root = side_json(&s, t), *jobs = json_object_get(root, "jobs");

		cr_assert_eq(json_array_size(jobs), 4, "%s: %zu jobs", t ? "iopath" : "fio",
			     json_array_size(jobs));
		for (k = 0; k < 4; k++) {
			json_t *r = json_object_get(json_array_get(jobs, k), "read");
			long long got = json_integer_value(json_object_get(r, "io_bytes"));

			cr_expect_eq(got, want[k < 3 ? k : 2], "%s: job %u read %lld bytes, want %lld",
				     t ? "iopath" : "fio", k, got, want[k < 3 ? k : 2]);
		}
		json_decref(root);
	}
	side_free(&s);
}

/*
 * A mixed job's directions, I/O by I/O, as fio draws them: each job (and clone) its own
 * stream from its thread number, held directions, loops that start the stream again (or,
 * with randseed=, go on with it), an asynchronous engine; each job's reads and writes, and
 * the order of the iolog's directions, must be fio's.
 */
Test(fio_realjobs, mixed_directions_are_fios)
{
	static const char text[] =
		"[global]\nioengine=psync\nsize=1m\nbs=4k\nrw=randrw\n"
		"[a]\nrwmixread=15\n[b]\nnumjobs=3\nrwmixwrite=40\n"
		"[c]\nloops=2\nrwmixread=70\n[d]\nloops=2\nrandseed=7\n"
		"[e]\nrw=rw\nrwmixread=40\n[f]\nioengine=libaio\niodepth=8\ndirect=1\n"
		"[g]\nloops=2\nnorandommap\nwrite_iolog=g.log\n";
	static const char *const extra[] = { "--output-format=json", NULL };
	json_t *root[2];
	char *log[2];
	struct side s;
	size_t k, n;
	unsigned t;

	side_run_ok(&s, text, extra, NULL);
	for (t = 0; t < 2; t++) {
		char path[400];

		root[t] = side_json(&s, t);
		snprintf(path, sizeof(path), "%s/g.log", s.dir[t]);
		log[t] = slurp_dirs(path);
	}
	n = json_array_size(json_object_get(root[0], "jobs"));
	cr_assert_eq(json_array_size(json_object_get(root[1], "jobs")), n);
	for (k = 0; k < n; k++) {
		const char *name = json_string_value(json_object_get(
			json_array_get(json_object_get(root[0], "jobs"), k), "jobname"));

		for (t = 0; t < 2; t++) {
			const char *d = t ? "write" : "read";

			cr_expect_eq(job_int(root[1], (unsigned)k, d, "total_ios"),
				     job_int(root[0], (unsigned)k, d, "total_ios"),
				     "job %zu (%s): %s I/Os fio %lld, iopath %lld", k, name, d,
				     job_int(root[0], (unsigned)k, d, "total_ios"),
				     job_int(root[1], (unsigned)k, d, "total_ios"));
		}
	}
	cr_expect_str_eq(log[1], log[0], "g's directions differ:\nfio    %.120s\niopath %.120s",
			 log[0], log[1]);
	for (t = 0; t < 2; t++) {
		free(log[t]);
		json_decref(root[t]);
	}
	side_free(&s);
}

/*
 * --idle-prof=percpu, as the harnesses that read it run it: the JSON's "cpu_idleness" has
 * fio's keys, and the normal output fio's "CPU idleness" lines (the figures are the machine's).
 */
Test(fio_realjobs, idle_prof_as_fio_writes_it)
{
	static const char text[] = "[a]\nioengine=null\nsize=16m\n";
	static const char *const json[] = { "--idle-prof=percpu", "--output-format=json", NULL };
	static const char *const normal[] = { "--idle-prof=percpu", NULL };
	json_t *root[2];
	struct side s;
	unsigned t;

	side_run_ok(&s, text, json, NULL);
	for (t = 0; t < 2; t++)
		root[t] = side_json(&s, t);
	{
		json_t *f = json_object_get(root[0], "cpu_idleness");
		json_t *i = json_object_get(root[1], "cpu_idleness");
		const char *key;
		json_t *v;

		cr_assert_not_null(f, "fio wrote no cpu_idleness");
		cr_assert_not_null(i, "iopath wrote no cpu_idleness");
		cr_expect_eq(json_object_size(i), json_object_size(f), "fio %s, iopath %s",
			     json_dumps(f, JSON_COMPACT), json_dumps(i, JSON_COMPACT));
		json_object_foreach(f, key, v)
			cr_expect(json_is_number(json_object_get(i, key)), "iopath lacks %s: %s", key,
				  json_dumps(i, JSON_COMPACT));
	}
	for (t = 0; t < 2; t++)
		json_decref(root[t]);
	side_free(&s);
	side_run_ok(&s, text, normal, NULL);
	for (t = 0; t < 2; t++) {
		const char *at = strstr(s.out[t].out, "\nCPU idleness:\n  system: ");

		cr_expect_not_null(at, "%s: no CPU idleness lines:\n%s", t ? "iopath" : "fio",
				   s.out[t].out);
		cr_expect(at && strstr(at, "%\n  percpu: ") && strstr(at, "%\n  unit work: mean="),
			  "%s:\n%s", t ? "iopath" : "fio", at ? at : s.out[t].out);
	}
	side_free(&s);
}

/*
 * invalidate=1 drops the page cache at every pass, as fio does (it reopens the file for each
 * loop and each pass of io_size past size; time_based wraps and full random maps drop it in
 * place): a buffered job over a file smaller than what it moves then reads from the storage
 * each pass. Counted in each tool's posix_fadvise(DONTNEED) calls over the file (there
 * beforehand, so neither lays it out): one a pass, fio's count for the size-bound jobs, and
 * for time_based ones one for each pass that tool began (its I/Os over a pass's 4, rounded up).
 */
Test(fio_realjobs, invalidate_at_every_pass)
{
	static const struct {
		const char *opts;
		int passes;	/* -1: as many as the tool began */
	} cases[] = {
		{ "rw=read\nloops=3\n", 3 },
		{ "rw=randread\nloops=3\n", 3 },
		{ "rw=read\nio_size=768k\n", 3 },
		{ "rw=read\nloops=3\ninvalidate=0\n", 0 },
		{ "rw=read\ntime_based\nruntime=300ms\n", -1 },
		{ "rw=randread\ntime_based\nruntime=300ms\n", -1 },
	};
	static const char *const extra[] = { "--output-format=json", NULL };
	char text[256];
	unsigned k, t;

	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	side_prefile = "v.dat";
	side_prefile_len = 256 << 10;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct side s;

		snprintf(text, sizeof(text),
			 "[v]\nioengine=psync\nfilename=v.dat\nsize=256k\nbs=64k\n%s", cases[k].opts);
		side_run_ok(&s, text, extra, "fadvise64");
		for (t = 0; t < 2; t++) {
			unsigned n = trace_count(&s, t, "262144, POSIX_FADV_DONTNEED");
			long long ios = side_ios(&s, t, "read");
			long long want = cases[k].passes >= 0 ? cases[k].passes : (ios + 3) / 4;

			cr_expect_eq((long long)n, want, "%s, %s: %u cache drops for %lld reads",
				     t ? "iopath" : "fio", cases[k].opts, n, ios);
		}
		side_free(&s);
	}
	side_prefile = NULL;
}

/*
 * ramp_time: a log's times count from the ramp's end, as fio's reset_all_stats sets its epoch
 * again there: with a 1 s ramp and 200 ms measured after it, every time both tools log (clat
 * averaged over 100 ms windows) is under 1000 ms, and the first window is logged near 100.
 */
Test(fio_realjobs, log_times_start_after_ramp_time)
{
	static const char text[] =
		"[r]\nioengine=psync\nfilename=r.dat\nsize=1m\nbs=4k\nrw=randread\n"
		"time_based\nruntime=200ms\nramp_time=1s\nthinktime=1ms\n"
		"write_lat_log=r\nlog_avg_msec=100\n";
	unsigned long long first = 0, last = 0;
	struct side s;
	unsigned t, n;

	side_run_ok(&s, text, NULL, NULL);
	for (t = 0; t < 2; t++) {
		n = log_times(&s, t, "r_clat.1.log", &first, &last);
		cr_expect_gt(n, 0u, "%s logged no clat window", t ? "iopath" : "fio");
		cr_expect(first >= 100 && last < 1000, "%s: %u windows, times %llu..%llu ms",
			  t ? "iopath" : "fio", n, first, last);
	}
	side_free(&s);
}

/* Of len bytes at p in pieces of piece bytes, each compressed alone (zlib, level 6): the
 * compressed size over the whole, and how many pieces compressed below a tenth. */
static double pieces_ratio(const unsigned char *p, size_t len, size_t piece, unsigned *tight)
{
	uLong bound = compressBound(piece);
	unsigned char *out = malloc(bound);
	size_t at, total = 0;

	cr_assert_not_null(out);
	*tight = 0;
	for (at = 0; at + piece <= len; at += piece) {
		uLongf n = bound;

		cr_assert_eq(compress2(out, &n, p + at, piece, 6), Z_OK);
		total += n;
		*tight += n < piece / 10;
	}
	free(out);
	return (double)total / (double)len;
}

/*
 * buffer_compress_percentage with buffer_compress_chunk: each chunk (never above the smallest
 * write) holds its share of random bytes, then zeros, as fio lays it out. Compressed with zlib
 * in pieces of the chunk, both tools' files come to the same ratio; in pieces of a quarter of
 * the chunk, as many of them are all zeros in both (with units of 512 bytes none would be).
 * With the default chunk (512) and a block size range the file compresses alike.
 */
Test(fio_realjobs, compress_chunk_lays_out_buffers_as_fio)
{
	static const char *const texts[] = {
		"[c]\nioengine=psync\nrw=write\nbs=64k\nsize=2m\nfilename=c.dat\n"
		"buffer_compress_percentage=50\nbuffer_compress_chunk=16k\n",
		"[c]\nioengine=psync\nrw=write\nbsrange=4k-64k\nsize=2m\nfilename=c.dat\n"
		"buffer_compress_percentage=66\n",
		"[c]\nioengine=psync\nrw=write\nbs=32k\nsize=2m\nfilename=c.dat\n"
		"buffer_compress_percentage=25\nbuffer_compress_chunk=0\n",
	};
	static const size_t chunk[] = { 16384, 512, 32768 };
	static const unsigned zero_quarters[] = { 2, 0, 1 };	/* of each chunk's four */
	static unsigned char buf[2][2 << 20];
	unsigned k, t, tight[2], quarter[2];
	double whole[2], pieces[2];
	struct side s;
	size_t n;

	for (k = 0; k < 3; k++) {
		side_run_ok(&s, texts[k], NULL, NULL);
		for (t = 0; t < 2; t++) {
			n = read_whole(&s, t, "c.dat", buf[t], sizeof(buf[t]));
			cr_assert_eq(n, sizeof(buf[t]), "job %u: %s wrote %zu bytes", k,
				     t ? "iopath" : "fio", n);
			whole[t] = pieces_ratio(buf[t], n, n, &tight[t]);
			pieces[t] = pieces_ratio(buf[t], n, chunk[k], &tight[t]);
			pieces_ratio(buf[t], n, chunk[k] / 4, &quarter[t]);
		}
		cr_expect(fabs(whole[1] - whole[0]) < 0.02, "job %u: whole file: iopath %.3f, fio %.3f",
			  k, whole[1], whole[0]);
		cr_expect(fabs(pieces[1] - pieces[0]) < 0.02,
			  "job %u: in chunks of %zu: iopath %.3f, fio %.3f", k, chunk[k], pieces[1],
			  pieces[0]);
		if (zero_quarters[k])
			cr_expect(quarter[1] == quarter[0] &&
				  quarter[0] == n / chunk[k] * zero_quarters[k],
				  "job %u: pieces of %zu that are zeros: iopath %u, fio %u of %zu", k,
				  chunk[k] / 4, quarter[1], quarter[0], n / (chunk[k] / 4));
		side_free(&s);
	}
}

/* Tool t's JSON: direction dir's total_ios and io_bytes of the first job. */
static void side_dir(const struct side *s, unsigned t, const char *dir, long long *ios,
		     long long *bytes)
{
	json_t *root = side_json(s, t);
	json_t *d = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), dir);

	*ios = json_integer_value(json_object_get(d, "total_ios"));
	*bytes = json_integer_value(json_object_get(d, "io_bytes"));
	json_decref(root);
}

/*
 * The verify read-back reads each block as it was written, as fio reads each piece it logged:
 * writes of 64k beside reads of 4k are read back in 64k (16 reads of a 1m file, not 256), and
 * with a block size range or split every written block is read once, in its length, in both
 * tools (how many blocks there are depends on each tool's draws of the sizes).
 */
Test(fio_realjobs, verify_reads_each_block_as_written)
{
	static const char *const texts[] = {
		"[v]\nioengine=psync\nrw=write\nbs=4k,64k\nsize=1m\nverify=crc32c\nfilename=v.dat\n",
		"[v]\nioengine=psync\nrw=write\nbsrange=4k-64k\nsize=1m\nverify=crc32c\nfilename=v.dat\n",
		"[v]\nioengine=psync\nrw=randwrite\nbssplit=4k/10:64k/50:1m/40\nsize=4m\nverify=md5\n"
		"filename=v.dat\n",
		"[v]\nioengine=psync\nrw=randwrite\nbsrange=512-16k\nsize=1m\nverify=crc32c\n"
		"verify_interval=512\nfilename=v.dat\n",
	};
	static const char *const extra[] = { "--output-format=json", NULL };
	long long rios[2], rbytes[2], wios[2], wbytes[2];
	struct side s;
	unsigned k, t;

	for (k = 0; k < 4; k++) {
		side_run_ok(&s, texts[k], extra, NULL);
		for (t = 0; t < 2; t++) {
			side_dir(&s, t, "read", &rios[t], &rbytes[t]);
			side_dir(&s, t, "write", &wios[t], &wbytes[t]);
			cr_expect(rios[t] == wios[t] && rbytes[t] == wbytes[t],
				  "job %u: %s read back %lld blocks, %lld bytes, of %lld written, %lld bytes",
				  k, t ? "iopath" : "fio", rios[t], rbytes[t], wios[t], wbytes[t]);
		}
		if (!k)
			cr_expect(rios[1] == rios[0] && rios[0] == 16,
				  "job 0: iopath read back %lld blocks, fio %lld", rios[1], rios[0]);
		side_free(&s);
	}
}

/*
 * Tool t's strace log (strace -y) as the pattern of its I/O over the job's files named
 * "o.0.N": N for each read or write, cN for the close of a descriptor that did I/O.
 */
static void io_pattern(const struct side *s, unsigned t, char *out, size_t len)
{
	char path[400], line[2048];
	int io_fd[64];
	unsigned n = 0, k;
	FILE *f;

	for (k = 0; k < 64; k++)
		io_fd[k] = -1;
	out[0] = 0;
	snprintf(path, sizeof(path), "%s/.strace", s->dir[t]);
	f = fopen(path, "r");
	cr_assert_not_null(f, "no strace log in %s", s->dir[t]);
	while (fgets(line, sizeof(line), f) && strlen(out) + 8 < len) {
		const char *c = strstr(line, "pwrite64("), *r = strstr(line, "pread64(");
		const char *cl = strstr(line, "close("), *at = c ? c : r ? r : cl, *name;
		int fd, file;

		if (!at || !(name = strstr(at, "/o.0.")) || sscanf(strchr(at, '(') + 1, "%d", &fd) != 1 ||
		    sscanf(name + 5, "%d", &file) != 1 || fd < 0 || fd >= 64)
			continue;
		if (at != cl) {
			io_fd[fd] = file;
			snprintf(out + strlen(out), len - strlen(out), "%d ", file);
			n++;
		} else if (io_fd[fd] == file) {
			io_fd[fd] = -1;
			snprintf(out + strlen(out), len - strlen(out), "c%d ", file);
		}
	}
	fclose(f);
	cr_assert_gt(n, 0u, "%s did no I/O on the job's files", t ? "iopath" : "fio");
}

/*
 * openfiles below nrfiles, as fio's get_next_file: files opened in order up to the limit,
 * round robin over the open ones (the others' turns passed over), each closed when its range
 * is used up, then the next opened; file_service_type=sequential and roundrobin:N stay on a
 * file, closing it at once when used up; without the random map a file is never used up, so
 * the first files take all the I/O; time_based starts over when all are done; the verify pass
 * opens the files again. The pattern of I/O and closes, from strace, is fio's exactly.
 */
Test(fio_realjobs, openfiles_opens_and_closes_files_as_fio)
{
	static const char *const texts[] = {
		"rw=write\nsize=64k\nnrfiles=4\nopenfiles=2\n",
		"rw=randwrite\nsize=64k\nnrfiles=4\nopenfiles=3\n",
		"rw=write\nsize=48k\nnrfiles=4\nopenfiles=1\nfile_service_type=sequential\n",
		"rw=write\nsize=64k\nnrfiles=4\nopenfiles=2\nfile_service_type=roundrobin:3\n",
		"rw=randwrite\nnorandommap\nsize=64k\nnrfiles=4\nopenfiles=2\n",
		"rw=write\nsize=64k\nnrfiles=4\nopenfiles=2\nverify=crc32c\n",
		"rw=write\nsize=48k\nnrfiles=3\nopenfiles=2\nloops=2\n",
	};
	static char pat[2][4096];
	char text[512];
	struct side s;
	unsigned k, t;

	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	side_trace_paths = true;
	for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		snprintf(text, sizeof(text), "[o]\nioengine=psync\nbs=4k\n%s", texts[k]);
		side_run_ok(&s, text, NULL, "openat,close,pread64,pwrite64");
		for (t = 0; t < 2; t++)
			io_pattern(&s, t, pat[t], sizeof(pat[t]));
		cr_expect_str_eq(pat[1], pat[0], "job %u (%s): iopath\n%s\nfio\n%s", k, texts[k],
				 pat[1], pat[0]);
		side_free(&s);
	}
	side_trace_paths = false;
}

/* With an engine that queues (libaio, iodepth=8) the files' counts are fio's too. */
Test(fio_realjobs, openfiles_with_a_queue_moves_what_fio_moves)
{
	static const char text[] =
		"[o]\nioengine=libaio\niodepth=8\nbs=4k\nrw=randwrite\nsize=256k\nnrfiles=4\nopenfiles=2\n";
	static const char *const extra[] = { "--output-format=json", NULL };
	long long ios[2], bytes[2];
	struct side s;
	unsigned t;

	side_run_ok(&s, text, extra, NULL);
	for (t = 0; t < 2; t++)
		side_dir(&s, t, "write", &ios[t], &bytes[t]);
	cr_expect(ios[1] == ios[0] && bytes[1] == bytes[0] && ios[0] == 64,
		  "iopath wrote %lld blocks, %lld bytes; fio %lld, %lld", ios[1], bytes[1], ios[0],
		  bytes[0]);
	side_free(&s);
}

/* What openfiles below nrfiles is not done with is refused, one line naming it, exit 2. */
Test(fio_realjobs, openfiles_refuses_what_it_is_not_done_with)
{
	static const char *const with[] = { "--file_service_type=random", "--io_submit_mode=offload",
					    "--verify_backlog=4", NULL };
	unsigned k;

	for (k = 0; with[k]; k++) {
		char *argv[] = { "iopath", "--name=o", "--ioengine=psync", "--rw=write",
				 "--size=64k", "--nrfiles=4", "--openfiles=2", "--verify=crc32c",
				 (char *)with[k], "--parse-only", NULL };
		struct run_out o = iopath_runv(argv);

		cr_expect_eq(o.status, 2, "%s: exit %d", with[k], o.status);
		cr_expect(strstr(o.err, "openfiles=2 below nrfiles=4 is not supported") != NULL,
			  "%s: %s", with[k], o.err);
		run_out_free(&o);
	}
}
