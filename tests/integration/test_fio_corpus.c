/*
 * Constructs met in real users' job files, each run by Debian's fio and by iopath side by side
 * (skipped without fio): both given the same small job text in a scratch directory of their
 * own, and what they did compared (the files laid out, the exit code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static void need_fio(void)
{
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
}

TestSuite(fio_corpus, .init = need_fio, .fini = tmpdir_cleanup);

/*
 * Each tool (0 fio, 1 iopath) runs text as job.fio in a directory of its own, named in dir[],
 * with opt (when not NULL) before it.
 */
static void both_run_opt(const char *text, const char *opt, char dir[2][320], int status[2])
{
	char cwd[512], path[400];
	unsigned t;

	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	for (t = 0; t < 2; t++) {
		char *argv[] = { t ? "iopath" : "fio", (char *)(opt ? opt : "job.fio"),
				 opt ? "job.fio" : NULL, NULL };
		struct run_out r;
		FILE *f;

		snprintf(dir[t], 320, "%s", tmpdir_make());
		snprintf(path, sizeof(path), "%s/job.fio", dir[t]);
		f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(text, f);
		cr_assert_eq(fclose(f), 0);
		cr_assert_eq(chdir(dir[t]), 0);
		r = t ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
		cr_assert_eq(chdir(cwd), 0);
		status[t] = r.status;
		run_out_free(&r);
	}
}

static void both_run(const char *text, char dir[2][320], int status[2])
{
	both_run_opt(text, NULL, dir, status);
}

/* The size of dir/name, -1 when it is not there. */
static long long size_of(const char *dir, const char *name)
{
	char path[400];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : (long long)st.st_size;
}

/* Both laid out a, b and c with these sizes (-1: not made). */
static void files_are(const char *text, const long long want[3])
{
	static const char *const names[] = { "a", "b", "c" };
	char dir[2][320];
	int status[2];
	unsigned t, k;

	both_run(text, dir, status);
	for (t = 0; t < 2; t++) {
		cr_assert_eq(status[t], 0, "%s exits %d", t ? "iopath" : "fio", status[t]);
		for (k = 0; k < 3; k++)
			cr_expect_eq(size_of(dir[t], names[k]), want[k], "%s: file %s is %lld bytes, want %lld",
				     t ? "iopath" : "fio", names[k], size_of(dir[t], names[k]), want[k]);
	}
}

/* On the command line options apply in order: an nrfiles= after filename= keeps that many names. */
Test(fio_corpus, nrfiles_after_filename_keeps_that_many_names)
{
	static const char *const names[] = { "a", "b", "c" };
	static const char *const orders[][2] = { { "--filename=a:b:c", "--nrfiles=2" },
						 { "--nrfiles=2", "--filename=a:b:c" },
						 { "--filename=a", "--nrfiles=3" } };
	static const long long want[][3] = { { 3 << 19, 3 << 19, -1 },
					     { 1 << 20, 1 << 20, 1 << 20 },
					     { 3 << 20, -1, -1 } };
	char cwd[512];
	unsigned o, t, k;

	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	for (o = 0; o < 3; o++)
		for (t = 0; t < 2; t++) {
			char *argv[] = { t ? "iopath" : "fio", "--name=x", (char *)orders[o][0],
					 (char *)orders[o][1], "--size=3m", "--bs=64k", "--rw=write",
					 "--ioengine=psync", NULL };
			const char *dir = tmpdir_make();
			struct run_out r;

			cr_assert_eq(chdir(dir), 0);
			r = t ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
			cr_assert_eq(chdir(cwd), 0);
			cr_assert_eq(r.status, 0, "%s %s %s exits %d: %s", argv[0], argv[2], argv[3],
				     r.status, r.err);
			run_out_free(&r);
			for (k = 0; k < 3; k++)
				cr_expect_eq(size_of(dir, names[k]), want[o][k],
					     "%s %s %s: file %s is %lld bytes, want %lld", argv[0], argv[2],
					     argv[3], names[k], size_of(dir, names[k]), want[o][k]);
		}
}

/* A real file's [global]: one name, nrfiles=3, filesize=: one file. */
Test(fio_corpus, nrfiles_beyond_the_names_is_all_the_names)
{
	static const long long one[3] = { 1 << 20, -1, -1 };

	files_are("[global]\nfilename=a\nfilesize=1m\nnrfiles=3\nbs=64k\nrw=write\nioengine=psync\n[x]\n",
		  one);
	files_are("[global]\nnrfiles=1\nsize=3m\nbs=64k\nrw=write\nioengine=psync\n[x]\nfilename=a:b:c\n",
		  (const long long[3]){ 1 << 20, 1 << 20, 1 << 20 });
}

Test(fio_corpus, filename_is_applied_last_in_its_section)
{
	static const long long two[3] = { 3 << 19, 3 << 19, -1 }, three[3] = { 1 << 20, 1 << 20, 1 << 20 };

	/* in one section fio applies filename= after the others: the names win over nrfiles= */
	files_are("[x]\nfilename=a:b:c\nnrfiles=2\nsize=3m\nbs=64k\nrw=write\nioengine=psync\n", three);
	files_are("[global]\nfilename=a:b:c\nnrfiles=2\nsize=3m\nbs=64k\nrw=write\nioengine=psync\n[x]\n",
		  three);
	/* the job's nrfiles= comes after the [global] names: it keeps two of them */
	files_are("[global]\nfilename=a:b:c\nsize=3m\nbs=64k\nrw=write\nioengine=psync\n[x]\nnrfiles=2\n",
		  two);
}

/*
 * A CPU the machine lacks: --parse-only accepts it, as fio's dry run does (the set is checked
 * when the job runs, where both fail: fio exits 1, iopath refuses with 2).
 */
Test(fio_corpus, parse_only_does_not_check_cpus_against_the_machine)
{
	char dir[2][320], text[128], opt[64];
	int status[2];
	long n = sysconf(_SC_NPROCESSORS_CONF);

	cr_assert_gt(n, 0);
	snprintf(text, sizeof(text), "[x]\ncpus_allowed=%ld\nsize=64k\nioengine=psync\n", n + 7);
	both_run_opt(text, "--parse-only", dir, status);
	cr_expect_eq(status[0], 0, "fio --parse-only exits %d", status[0]);
	cr_expect_eq(status[1], 0, "iopath --parse-only exits %d", status[1]);
	snprintf(opt, sizeof(opt), "--cpus_allowed=%ld", n + 7);
	both_run_opt("[x]\nsize=64k\nioengine=psync\n", opt, dir, status);
	cr_expect_eq(status[0], 1, "fio runs a job on CPU %ld: exit %d", n + 7, status[0]);
	cr_expect_eq(status[1], 2, "iopath runs a job on CPU %ld: exit %d", n + 7, status[1]);
	both_run(text, dir, status);
	cr_expect_eq(status[0], 1, "fio runs a job on CPU %ld: exit %d", n + 7, status[0]);
	cr_expect_eq(status[1], 2, "iopath runs a job on CPU %ld: exit %d", n + 7, status[1]);
}

/*
 * zonesize= without zonemode= (X-Ray's DSS files): fio's dry run accepts it, its run fails; so
 * iopath's --parse-only accepts it and its run is refused (exit 2 against fio's 1), saying why.
 */
Test(fio_corpus, zonesize_without_zonemode_parses_and_fails_to_run)
{
	static const char text[] = "[d]\nioengine=psync\nbs=64k\nfilesize=1m\nsize=512k\n"
				   "zonesize=128k\nzoneskip=256k\nfilename=d\nrw=read\n";
	char dir[2][320];
	int status[2];
	struct run_out r;
	char *argv[] = { "iopath", "job.fio", NULL }, cwd[512];

	both_run_opt(text, "--parse-only", dir, status);
	cr_expect_eq(status[0], 0, "fio --parse-only exits %d", status[0]);
	cr_expect_eq(status[1], 0, "iopath --parse-only exits %d", status[1]);
	both_run(text, dir, status);
	cr_expect_eq(status[0], 1, "fio's run exits %d", status[0]);
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	cr_assert_eq(chdir(dir[1]), 0);
	r = iopath_runv(argv);
	cr_assert_eq(chdir(cwd), 0);
	cr_expect_eq(r.status, 2, "iopath's run exits %d", r.status);
	cr_expect_not_null(strstr(r.err, "zonesize= needs zonemode="), "%s", r.err);
	run_out_free(&r);
}

/* One tool (0 fio, 1 iopath) run with argv (argv[0] its name) in a scratch directory. */
static struct run_out tool_run(unsigned t, char *const argv[])
{
	char cwd[512];
	struct run_out r;

	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	cr_assert_eq(chdir(tmpdir_make()), 0);
	r = t ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
	cr_assert_eq(chdir(cwd), 0);
	return r;
}

/*
 * rate_iops= is an integer option, which fio reads as a size: "3k" is 3072 I/Os per second
 * (3000 with kb_base=1000). A job file's rate_iops=3k was refused. Seen through fio's check
 * that rate_iops_min is not above rate_iops, made when the job runs: at 3072 both run, one
 * more and both fail (fio exit 1, iopath refuses with 2).
 */
Test(fio_corpus, rate_iops_takes_a_size_suffix_as_fio)
{
	static const struct {
		const char *kb, *rate, *min;
		int fio, iopath;
	} c[] = {
		{ "--kb_base=1024", "--rate_iops=3k", "--rate_iops_min=3072", 0, 0 },
		{ "--kb_base=1024", "--rate_iops=3k", "--rate_iops_min=3073", 1, 2 },
		{ "--kb_base=1000", "--rate_iops=3k", "--rate_iops_min=3000", 0, 0 },
		{ "--kb_base=1000", "--rate_iops=3k", "--rate_iops_min=3001", 1, 2 },
		{ "--kb_base=1024", "--rate_iops=1k,2k", "--rate_iops_min=1024,2048", 0, 0 },
	};
	unsigned i, t;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (t = 0; t < 2; t++) {
			char *argv[] = { t ? "iopath" : "fio", (char *)c[i].kb, "--name=x",
					 "--ioengine=null", "--size=64k", "--bs=4k", (char *)c[i].rate,
					 (char *)c[i].min, NULL };
			struct run_out r = tool_run(t, argv);
			int want = t ? c[i].iopath : c[i].fio;

			cr_expect_eq(r.status, want, "%s %s %s %s exits %d, want %d: %s", argv[0],
				     c[i].kb, c[i].rate, c[i].min, r.status, want, r.err);
			run_out_free(&r);
		}
}

/* The queued offsets of --debug=io, in order (the thread ids and request addresses left out). */
static char *queued_offsets(const char *out)
{
	size_t len = 0, cap = strlen(out) + 1;
	char *list = calloc(1, cap);
	const char *p;

	cr_assert_not_null(list);
	for (p = strstr(out, "queue: "); p; p = strstr(p + 1, "queue: ")) {
		const char *off = strstr(p, "off="), *end = off ? strchr(off, ',') : NULL;

		cr_assert_not_null(end, "a queue line without off=: %.80s", p);
		memcpy(list + len, off, (size_t)(end - off));
		len += (size_t)(end - off);
		list[len++] = ' ';
	}
	return list;
}

/*
 * randseed= is read as a size too ("1k" is 1024; it was refused): in both tools a seed of 1k
 * draws the random offsets a seed of 1024 draws (with randrepeat=0, where fio seeds its
 * offsets from it).
 */
Test(fio_corpus, randseed_takes_a_size_suffix_as_fio)
{
	unsigned t;

	for (t = 0; t < 2; t++) {
		char *seeds[2] = { "--randseed=1k", "--randseed=1024" }, *list[2];
		unsigned s;

		for (s = 0; s < 2; s++) {
			char *argv[] = { t ? "iopath" : "fio", "--name=x", "--ioengine=null",
					 "--size=256k", "--bs=4k", "--rw=randread", "--randrepeat=0",
					 seeds[s], "--debug=io", NULL };
			struct run_out r = tool_run(t, argv);

			cr_assert_eq(r.status, 0, "%s %s exits %d: %s", argv[0], seeds[s], r.status,
				     r.err);
			list[s] = queued_offsets(r.out);
			run_out_free(&r);
		}
		cr_expect(strlen(list[0]) > 64, "%s: no offsets queued", t ? "iopath" : "fio");
		cr_expect_str_eq(list[0], list[1], "%s: randseed=1k and randseed=1024 differ",
				 t ? "iopath" : "fio");
		free(list[0]);
		free(list[1]);
	}
}

/*
 * --parse-only does not open read_iolog's log, as fio's dry run does not (it reads it when the
 * job starts): a job file whose log its harness writes first parses; run without the log,
 * both fail (fio exit 1, iopath refuses with 2).
 */
Test(fio_corpus, parse_only_does_not_read_the_iolog)
{
	static const char text[] = "[TRACE]\nioengine=psync\niodepth=1\nread_iolog=trace.csv\n";
	char dir[2][320];
	int status[2];

	both_run_opt(text, "--parse-only", dir, status);
	cr_expect_eq(status[0], 0, "fio --parse-only exits %d", status[0]);
	cr_expect_eq(status[1], 0, "iopath --parse-only exits %d", status[1]);
	both_run(text, dir, status);
	cr_expect_eq(status[0], 1, "fio runs it without the log: exit %d", status[0]);
	cr_expect_eq(status[1], 2, "iopath runs it without the log: exit %d", status[1]);
}

/*
 * Sizes that vary with offsets fio takes after the size (random_distribution=, rw=write:N,
 * zonemode=strided): the job issues while it has issued less than its size, its last I/O
 * whole, as fio's io_issue_bytes_exceeded (iopath cut the last one to end on the size);
 * rw=write:4k's size is drawn once its offset is known, again until it fits before the file's
 * end, as fio's get_next_buflen.
 */
Test(fio_corpus, varying_sizes_end_past_the_size_as_fio)
{
	static const char *const offs[][4] = {
		{ "--rw=randwrite", "--random_distribution=zoned:50/5:30/15:20/80", NULL },
		{ "--rw=randwrite", "--random_distribution=pareto:0.9", NULL },
		{ "--rw=write:4k", NULL },
		{ "--rw=write", "--zonemode=strided", "--zonesize=256k", "--zonerange=512k" },
	};
	static const char *const sizes[] = { "--bssplit=4k/50:16k/50", "--bsrange=4k-64k" };
	unsigned o, s, t, k;

	for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++)
		for (s = 0; s < 2; s++) {
			long long got[2][2];

			for (t = 0; t < 2; t++) {
				const char *args[12] = { "--name=x", "--ioengine=null", "--size=1m",
							 sizes[s] };
				json_t *root, *wr;

				for (k = 0; k < 4 && offs[o][k]; k++)
					args[4 + k] = offs[o][k];
				root = tool_json(!t, args);
				wr = json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
						     "write");
				got[t][0] = json_integer_value(json_object_get(wr, "io_bytes"));
				got[t][1] = json_integer_value(json_object_get(wr, "total_ios"));
				json_decref(root);
			}
			/* write:4k with a range runs off the file's end before its size */
			cr_expect(got[0][0] > 1 << 20 || (o == 2 && s == 1),
				  "%s %s: fio moved %lld bytes, not past the size",
				  offs[o][0], sizes[s], got[0][0]);
			cr_expect(got[1][0] == got[0][0] && got[1][1] == got[0][1],
				  "%s %s %s: fio %lld bytes in %lld I/Os, iopath %lld in %lld", offs[o][0],
				  offs[o][1] ? offs[o][1] : "", sizes[s], got[0][0], got[0][1], got[1][0],
				  got[1][1]);
		}
}

/*
 * loops= as fio runs them: size x loops is the limit of the whole run (io_issue_bytes_exceeded),
 * each loop ends where fio's get_io_u finds no I/O (the random map full, a sequential direction
 * at the file's end) or, with an engine that queues (null at iodepth 4), once it has queued its
 * size; with randrepeat each loop draws its sizes, offsets and directions again from the start.
 * A synchronous rw=rw job's loop so ends when one direction reaches the file's end; blocks of
 * another size per direction (bs=4k,16k) end a loop at the first write that does not fit.
 */
Test(fio_corpus, loops_end_where_fios_do)
{
	static const char *const cases[][7] = {
		{ "--rw=rw", "--bs=4k", "--ioengine=null", NULL },
		{ "--rw=rw", "--bs=4k", "--rwmixread=70", "--ioengine=psync", NULL },
		{ "--rw=randread", "--bsrange=4k-16k", "--ioengine=null", NULL },
		{ "--rw=randread", "--bsrange=4k-16k", "--norandommap", "--iodepth=4",
		  "--ioengine=null", NULL },
		{ "--rw=randread", "--bsrange=4k-16k", "--norandommap", "--ioengine=psync", NULL },
		{ "--rw=read", "--bsrange=4k-16k", "--ioengine=psync", NULL },
		{ "--rw=randwrite", "--bsrange=4k-16k", "--norandommap", "--io_size=2m", "--iodepth=4",
		  "--ioengine=null" },
		{ "--rw=randrw", "--bsrange=4k-16k", "--rwmixread=30", "--ioengine=null", NULL },
		{ "--rw=randrw", "--bs=4k,16k", "--ioengine=null", NULL },
		{ "--rw=randwrite", "--bs=4k,16k", "--ioengine=psync", NULL },
	};
	unsigned c, t, k, d;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		long long got[2][4];
		const char *dir = tmpdir_make();

		for (t = 0; t < 2; t++) {
			char file[400];
			const char *args[16] = { "--name=x", "--size=1m", "--loops=3", file };
			json_t *root, *job;

			/* a file of each tool's own: iopath does not write over one fio made */
			snprintf(file, sizeof(file), "--filename=%s/%s", dir, t ? "iopath" : "fio");
			for (k = 0; k < 7 && cases[c][k]; k++)
				args[4 + k] = cases[c][k];
			root = tool_json(!t, args);
			job = json_array_get(json_object_get(root, "jobs"), 0);
			for (d = 0; d < 2; d++) {
				json_t *dj = json_object_get(job, d ? "write" : "read");

				got[t][2 * d] = json_integer_value(json_object_get(dj, "io_bytes"));
				got[t][2 * d + 1] = json_integer_value(json_object_get(dj, "total_ios"));
			}
			json_decref(root);
		}
		cr_expect(got[0][0] + got[0][2] > 0, "case %u: fio moved %lld bytes", c,
			  got[0][0] + got[0][2]);
		cr_expect(!memcmp(got[0], got[1], sizeof(got[0])),
			  "%s %s %s %s: fio read %lld bytes in %lld I/Os, wrote %lld in %lld; iopath "
			  "%lld in %lld, %lld in %lld", cases[c][0], cases[c][1],
			  cases[c][2] ? cases[c][2] : "", cases[c][2] && cases[c][3] ? cases[c][3] : "",
			  got[0][0], got[0][1], got[0][2], got[0][3], got[1][0], got[1][1], got[1][2],
			  got[1][3]);
	}
}
