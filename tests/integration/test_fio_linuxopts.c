/*
 * fio's options for Linux features that real job files set, side by side with Debian's fio
 * (skipped without it): offset_align (a percentage's start), max_latency (fio's error when a
 * completion is slower), write_hint (the file's write lifetime hint, read back from the file).
 */
#include <fcntl.h>
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

TestSuite(fio_linuxopts, .init = need_fio, .fini = tmpdir_cleanup);

/* A file of len bytes of a repeating pattern at path. */
static void make_file(const char *path, size_t len)
{
	FILE *f = fopen(path, "w");
	size_t i;

	cr_assert_not_null(f, "%s", path);
	for (i = 0; i < len; i++)
		fputc((int)(i * 7 % 251), f);
	cr_assert_eq(fclose(f), 0);
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The offsets of the I/Os queued, as --debug=io prints them, into off[], sorted (the workers
 * of numjobs= interleave in no set order); how many.
 */
static unsigned queued_offsets(const char *out, unsigned long long *off, unsigned max)
{
	const char *p = out;
	unsigned n = 0;

	while (n < max && (p = strstr(p, "queue: io_u ")) && (p = strstr(p, "off=0x"))) {
		off[n++] = strtoull(p + 6, NULL, 16);
		p += 6;
	}
	qsort(off, n, sizeof(*off), cmp_u64);
	return n;
}

/*
 * offset=N% and offset_increment=N%: each worker's start is aligned up to offset_align, else
 * to the smallest block size (fio's get_start_offset; iopath aligned down before, and
 * refused offset_align).
 */
Test(fio_linuxopts, offset_align_aligns_a_percentage_start_up)
{
	static const char *const cases[][3] = {
		{ "--offset=10%", NULL },
		{ "--offset=10%", "--offset_align=64k", NULL },
		{ "--offset=3%", NULL },
		{ "--offset_increment=7%", "--numjobs=3", NULL },
	};
	char path[400], farg[420];
	unsigned c, t, k;

	snprintf(path, sizeof(path), "%s/f", tmpdir_make());
	make_file(path, 1000000);
	snprintf(farg, sizeof(farg), "--filename=%s", path);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned long long off[2][16];
		unsigned n[2];

		for (t = 0; t < 2; t++) {
			const char *args[12] = { "--name=a", farg, "--rw=read", "--bs=4k", "--size=8k",
						 "--ioengine=psync", "--debug=io" };
			struct run_out r;

			for (k = 0; k < 3 && cases[c][k]; k++)
				args[7 + k] = cases[c][k];
			r = tool_runv(!t, args);
			cr_assert_eq(r.status, 0, "%s %s: exit %d: %s", t ? "iopath" : "fio", cases[c][0],
				     r.status, r.err);
			n[t] = queued_offsets(r.out, off[t], 16);
			run_out_free(&r);
		}
		cr_assert_gt(n[0], 0, "%s: fio queued nothing", cases[c][0]);
		cr_expect_eq(n[1], n[0], "%s %s: iopath queued %u I/Os, fio %u", cases[c][0],
			     cases[c][1] ? cases[c][1] : "", n[1], n[0]);
		for (k = 0; k < n[0] && k < n[1]; k++)
			cr_expect_eq(off[1][k], off[0][k], "%s %s: I/O %u at 0x%llx, fio's at 0x%llx",
				     cases[c][0], cases[c][1] ? cases[c][1] : "", k, off[1][k], off[0][k]);
	}
}

/*
 * max_latency=R[,W[,T]]: a completion slower than its direction's limit fails the job with
 * ETIMEDOUT (error 110 in the JSON, exit 1), after that I/O, as fio's lat_fatal; a limit no
 * I/O reaches (reads' 10 s) changes nothing.
 */
Test(fio_linuxopts, max_latency_fails_the_job_as_fio)
{
	static const char *const cases[][2] = {
		{ "--rw=write", "--max_latency=1" },		/* 1 us: every write exceeds it */
		{ "--rw=write", "--max_latency=10s,1" },	/* writes' limit: 1 us */
		{ "--rw=read", "--max_latency=10s,1" },	/* reads' limit: 10 s */
	};
	const char *dir = tmpdir_make();
	unsigned c, t;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		long long err[2], ios[2];
		int status[2];

		for (t = 0; t < 2; t++) {
			char farg[420], *json;
			const char *args[12] = { "--name=a", farg, "--bs=4k", "--size=256k",
						 "--ioengine=psync", "--output-format=json", cases[c][0],
						 cases[c][1] };
			struct run_out r;
			json_t *root, *job;

			/* a file of each tool's own, laid out by it (iopath writes over none of fio's) */
			snprintf(farg, sizeof(farg), "--filename=%s/%s%u", dir, t ? "iopath" : "fio", c);
			r = tool_runv(!t, args);
			status[t] = r.status;
			json = strstr(r.out, "{\n");
			cr_assert_not_null(json, "%s: no JSON: %s %s", t ? "iopath" : "fio", r.out, r.err);
			root = json_in_text(json, t ? "iopath" : "fio");
			job = json_array_get(json_object_get(root, "jobs"), 0);
			err[t] = json_integer_value(json_object_get(job, "error"));
			ios[t] = json_integer_value(json_object_get(
				json_object_get(job, strcmp(cases[c][0], "--rw=read") ? "write" : "read"),
				"total_ios"));
			json_decref(root);
			run_out_free(&r);
		}
		cr_expect_eq(status[1], status[0], "%s %s: iopath exits %d, fio %d", cases[c][0],
			     cases[c][1], status[1], status[0]);
		cr_expect_eq(err[1], err[0], "%s %s: iopath's error %lld, fio's %lld", cases[c][0],
			     cases[c][1], err[1], err[0]);
		cr_expect_eq(ios[1], ios[0], "%s %s: iopath did %lld I/Os, fio %lld", cases[c][0],
			     cases[c][1], ios[1], ios[0]);
	}
}

/* The file's write lifetime hint, read back (F_GET_RW_HINT); -1 when it cannot be read. */
static long long file_hint(const char *path)
{
	uint64_t hint = 0;
	int fd = open(path, O_RDONLY);
	long long v;

	if (fd < 0)
		return -1;
	v = fcntl(fd, F_GET_RW_HINT, &hint) ? -1 : (long long)hint;
	close(fd);
	return v;
}

/*
 * write_hint=WORD: the file's inode carries the hint (fcntl F_SET_RW_HINT) after a buffered
 * job, as fio leaves it; the hint read back from each tool's file is the same.
 */
Test(fio_linuxopts, write_hint_is_set_on_the_file_as_fio)
{
	static const char *const hints[] = { "short", "long", "extreme" };
	const char *dir = tmpdir_make();
	unsigned h, t;

	for (h = 0; h < sizeof(hints) / sizeof(hints[0]); h++) {
		long long got[2];

		for (t = 0; t < 2; t++) {
			char farg[420], harg[64], path[400];
			const char *args[] = { "--name=a", farg, "--rw=write", "--bs=4k", "--size=64k",
					       "--ioengine=psync", harg, "--output-format=terse", NULL };
			struct run_out r;

			snprintf(path, sizeof(path), "%s/%s%u", dir, t ? "iopath" : "fio", h);
			snprintf(farg, sizeof(farg), "--filename=%s", path);
			snprintf(harg, sizeof(harg), "--write_hint=%s", hints[h]);
			r = tool_runv(!t, args);
			cr_assert_eq(r.status, 0, "%s write_hint=%s: exit %d: %s", t ? "iopath" : "fio",
				     hints[h], r.status, r.err);
			run_out_free(&r);
			got[t] = file_hint(path);
		}
		cr_expect_gt(got[0], 0, "write_hint=%s: fio's file has no hint (%lld)", hints[h], got[0]);
		cr_expect_eq(got[1], got[0], "write_hint=%s: iopath's file's hint %lld, fio's %lld",
			     hints[h], got[1], got[0]);
	}
}

/*
 * lockfile=none|exclusive|readwrite: two jobs reading one file through a FUSE filesystem that
 * takes 20 ms a request, run in parallel; both tools accept each mode and read the same. Under
 * exclusive iopath's two readers take the file's lock in turn, so the later one runs for 19
 * requests' time at least (a bound below: a busy machine only adds to it); fio 3.33 shares
 * its lock between jobs only through its file hash, and measured here, its readers overlap.
 */
Test(fio_linuxopts, lockfile_serializes_jobs_sharing_a_file, .fini = mount_cleanup)
{
	static const char *const modes[] = { "none", "exclusive", "readwrite" };
	const char *back = faultfs_over(tmpdir_make(), "--delay-ms=20 --parallel");
	char src[400], farg[420], larg[64];
	unsigned m, t, k;

	snprintf(src, sizeof(src), "%s/r", back);
	make_file(src, 40960);
	snprintf(farg, sizeof(farg), "--filename=%s/r", test_mnt);
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		snprintf(larg, sizeof(larg), "--lockfile=%s", modes[m]);
		for (t = 0; t < 2; t++) {
			const char *args[] = { "--name=a", farg, "--rw=read", "--bs=4k", "--size=40k",
					       "--ioengine=psync", "--direct=1", larg, "--name=b", farg,
					       "--rw=read", "--bs=4k", "--size=40k", "--ioengine=psync",
					       "--direct=1", larg, NULL };
			long long most = 0;
			json_t *root = tool_json(!t, args), *jobs = json_object_get(root, "jobs");

			cr_assert_eq(json_array_size(jobs), 2, "%s %s: %zu jobs", t ? "iopath" : "fio",
				     larg, json_array_size(jobs));
			for (k = 0; k < 2; k++) {
				json_t *j = json_array_get(jobs, k);
				long long rt = json_integer_value(json_object_get(j, "job_runtime"));

				cr_expect_eq(json_integer_value(json_object_get(json_object_get(j, "read"),
										 "total_ios")), 10,
					     "%s %s: job %u did not read its 10 blocks", t ? "iopath" : "fio",
					     larg, k);
				most = rt > most ? rt : most;
			}
			if (t && m == 1)
				cr_expect_geq(most, 19 * 20, "iopath %s: the later reader ran %lld ms, "
					      "under 19 requests of 20 ms: the readers overlapped", larg, most);
			json_decref(root);
		}
	}
}

/* The job's sync latency samples (fio's fsync/fdatasync/sync_file_range) and writes, from JSON. */
static void sync_counts(json_t *root, long long *syncs, long long *writes)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);

	*syncs = json_integer_value(json_object_get(
		json_object_get(json_object_get(job, "sync"), "lat_ns"), "N"));
	*writes = json_integer_value(json_object_get(json_object_get(job, "write"), "total_ios"));
}

/*
 * The sync_file_range(2) calls strace saw in text, each "OFFSET, LEN, FLAGS" (the descriptor
 * left out) on a line of its own, into out; how many.
 */
static unsigned sfr_calls(const char *text, char *out, size_t room)
{
	const char *p = text, *a, *e;
	size_t len = 0;
	unsigned n = 0;

	out[0] = '\0';
	while ((p = strstr(p, "sync_file_range(")) && (a = strchr(p, ',')) && (e = strchr(a, ')'))) {
		len += (size_t)snprintf(out + len, len < room ? room - len : 0, "%.*s\n",
					(int)(e - a - 2), a + 2);
		p = e;
		n++;
	}
	return n;
}

/*
 * sync_file_range=FLAGS[:N]: a sync_file_range(2) every N writes, as many as fio issues (none
 * once the job has written its size: fio's do_io ends before a sync then due, which also
 * holds for fsync=, where iopath issued one more); with strace, a synchronous engine's calls'
 * ranges and flags are fio's, call for call.
 */
Test(fio_linuxopts, sync_file_range_every_n_writes_as_fio)
{
	static const char *const cases[][3] = {
		{ "--sync_file_range=wait_before,write:4", "--ioengine=psync", NULL },
		{ "--sync_file_range=write", "--ioengine=psync", NULL },
		{ "--sync_file_range=wait_after:3", "--ioengine=libaio", "--iodepth=4" },
		{ "--fsync=4", "--ioengine=psync", NULL },
	};
	const char *dir = tmpdir_make();
	bool traced = !access("/usr/bin/strace", X_OK);
	unsigned c, t, k;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		long long syncs[2], writes[2];
		char calls[2][1024];
		unsigned ncalls[2] = { 0, 0 };

		for (t = 0; t < 2; t++) {
			char farg[420], path[400];
			const char *args[12] = { "--name=a", farg, "--rw=write", "--bs=4k", "--size=64k" };
			json_t *root;

			snprintf(path, sizeof(path), "%s/%s%u", dir, t ? "iopath" : "fio", c);
			snprintf(farg, sizeof(farg), "--filename=%s", path);
			for (k = 0; k < 3 && cases[c][k]; k++)
				args[5 + k] = cases[c][k];
			root = tool_json(!t, args);
			sync_counts(root, &syncs[t], &writes[t]);
			json_decref(root);
			if (traced && c < 2) {
				char out[420], bin[400], *text;
				char *st[20] = { "strace", "-f", "-e", "trace=sync_file_range", "-o", out, bin };
				struct run_out r;

				snprintf(out, sizeof(out), "%s/strace%u.%u", dir, c, t);
				snprintf(bin, sizeof(bin), "%s", t ? getenv("IOPATH_BIN") : FIO_BIN);
				for (k = 0; args[k]; k++)
					st[7 + k] = (char *)args[k];
				unlink(path);
				r = prog_runv("/usr/bin/strace", st);
				cr_assert_eq(r.status, 0, "strace %s: %s", bin, r.err);
				run_out_free(&r);
				text = file_text(out);
				cr_assert_not_null(text, "%s", out);
				ncalls[t] = sfr_calls(text, calls[t], sizeof(calls[t]));
				free(text);
			}
		}
		cr_expect_eq(syncs[1], syncs[0], "%s %s: iopath %lld syncs, fio %lld", cases[c][0],
			     cases[c][1], syncs[1], syncs[0]);
		cr_expect_eq(writes[1], writes[0], "%s %s: iopath %lld writes, fio %lld", cases[c][0],
			     cases[c][1], writes[1], writes[0]);
		if (traced && c < 2) {
			cr_expect_gt(ncalls[0], 0, "%s: strace saw no call of fio's", cases[c][0]);
			cr_expect_str_eq(calls[1], calls[0], "%s %s: iopath's calls\n%sfio's\n%s",
					 cases[c][0], cases[c][1], calls[1], calls[0]);
		}
	}
}
