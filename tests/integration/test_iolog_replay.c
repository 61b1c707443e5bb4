/*
 * write_iolog and read_iolog: a recorded trace replays with the same files, offsets, sizes and
 * directions (iopath's own, and fio's, with Debian's fio; skipped without it), at the log's
 * pace unless told otherwise; version 2 logs, replay_redirect, replay_scale, replay_align and
 * blktrace binary traces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(iolog, .fini = tmpdir_cleanup);

/* The I/O lines of a v3 log (time dropped): "FILE DIR OFFSET LEN", one per line. */
static char *io_lines(const char *path)
{
	return sh_out("awk 'NF==5{print $2,$3,$4,$5}' '%s'", path);
}

static void run_ok(const char *dir, const char *const *argv)
{
	char *args[32];
	unsigned i;
	json_t *root;

	for (i = 0; argv[i]; i++)
		args[i] = (char *)argv[i];
	args[i] = NULL;
	root = iopath_json_in(dir, args, 0, NULL);
	json_decref(root);
}

Test(iolog, recorded_trace_replays_identically)
{
	const char *dir = tmpdir_make();
	char data[300], log1[300], log2[300], a[320], b[320], c[320];
	char *l1, *l2;

	snprintf(data, sizeof(data), "--filename=%s/data", dir);
	snprintf(log1, sizeof(log1), "%s/one.log", dir);
	snprintf(log2, sizeof(log2), "%s/two.log", dir);
	snprintf(a, sizeof(a), "--write_iolog=%s", log1);
	{
		const char *argv[] = { "--name=rec", data, "--size=256k", "--rw=randrw", "--bsrange=512-8k",
				       "--norandommap", a, NULL };
		run_ok(dir, argv);
	}
	snprintf(b, sizeof(b), "--read_iolog=%s", log1);
	snprintf(c, sizeof(c), "--write_iolog=%s", log2);
	{
		const char *argv[] = { "--name=rep", b, c, "--replay_no_stall=1", "--allow-overwrite",
				       "--ioengine=libaio", "--iodepth=8", NULL };
		run_ok(dir, argv);
	}
	l1 = io_lines(log1);
	l2 = io_lines(log2);
	cr_assert_gt(strlen(l1), 100);
	cr_assert_str_eq(l2, l1, "the replay's I/O differs from the recording");
	free(l1);
	free(l2);
}

Test(iolog, fio_trace_replays_with_its_offsets_sizes_and_directions)
{
	const char *dir = tmpdir_make();
	char cmd[1200], flog[300], ilog[300], *l1, *l2;

	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	snprintf(flog, sizeof(flog), "%s/fio.log", dir);
	snprintf(ilog, sizeof(ilog), "%s/iopath.log", dir);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && %s --name=f --filename=data --size=256k --rw=randrw --bssplit=4k/50:16k/50 --fsync=7 --write_iolog=%s >/dev/null && "
		 "%s --name=r --read_iolog=%s --write_iolog=%s --allow-overwrite --replay_no_stall=1 >/dev/null",
		 dir, FIO_BIN, flog, getenv("IOPATH_BIN"), flog, ilog);
	cr_assert_eq(sh("%s", cmd), 0);
	l1 = io_lines(flog);
	l2 = io_lines(ilog);
	cr_assert_gt(strlen(l1), 100);
	cr_assert_str_eq(l2, l1, "iopath's replay of fio's trace differs from it");
	free(l1);
	free(l2);
}

Test(iolog, replay_keeps_the_logs_pace_scaled)
{
	const char *dir = tmpdir_make();
	char log[300], out[300], a[320], b[320];
	json_t *root;
	char *args[] = { "--name=rep", a, b, "--allow-overwrite", "--replay_time_scale=200", NULL };

	snprintf(log, sizeof(log), "%s/v3.log", dir);
	snprintf(out, sizeof(out), "%s/data", dir);
	/* two writes 400 ms apart: at replay_time_scale=200, 200 ms apart */
	file_printf(log, "fio version 3 iolog\n0 %s add\n0 %s open\n10 %s write 0 4096\n400010 %s write 4096 4096\n400020 %s close\n",
		    out, out, out, out, out);
	snprintf(a, sizeof(a), "--read_iolog=%s", log);
	snprintf(b, sizeof(b), "--filename=%s", out);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 2);
	/* the job ran at least the scaled gap (a lower bound only: the machine may be slow) */
	cr_assert_geq(job_int(root, 0, NULL, "job_runtime"), 199);
	json_decref(root);
}

Test(iolog, version2_log_with_redirect_scale_and_align)
{
	const char *dir = tmpdir_make();
	char log[300], a[320], b[320], c[320], tr[300], *l;
	char *args[] = { "--name=rep", a, b, c, "--replay_scale=2", "--replay_align=4096",
			 "--replay_no_stall=1", NULL };

	snprintf(log, sizeof(log), "%s/v2.log", dir);
	file_write_text(log, "fio version 2 iolog\n/nonexistent/a add\n/nonexistent/a open\n"
			"/nonexistent/a write 20480 4096\n/nonexistent/a wait 10 0\n/nonexistent/a read 9000 8192\n"
			"/nonexistent/a close\n");
	snprintf(a, sizeof(a), "--read_iolog=%s", log);
	snprintf(b, sizeof(b), "--replay_redirect=%s/target", dir);
	snprintf(tr, sizeof(tr), "%s/trace", dir);
	snprintf(c, sizeof(c), "--write_iolog=%s", tr);
	json_decref(iopath_json_in(dir, args, 0, NULL));
	l = io_lines(tr);
	/* 20480/2 = 10240, aligned down to 8192; 9000/2 = 4500, aligned down to 4096 */
	assert_has(l, "/target write 8192 4096\n", "/target read 4096 8192\n", NULL);
	free(l);
}

/* blktrace's record (blktrace_api.h), as a trace file holds it. */
struct bit {
	unsigned magic, sequence;
	unsigned long long time, sector;
	unsigned bytes, action, pid, device, cpu;
	unsigned short error, pdu_len;
};

Test(iolog, blktrace_queue_events_replay_onto_the_redirect)
{
	const char *dir = tmpdir_make();
	char log[300], a[320], b[320], c[320], tr[300], *l;
	struct bit t[3];
	FILE *f;
	char *args[] = { "--name=bt", a, b, c, "--replay_no_stall=1", NULL };

	memset(t, 0, sizeof(t));
	/* a queued write, a completion (not replayed), a queued read */
	t[0] = (struct bit){ 0x65617407, 1, 1000, 16, 4096, (((1u << 1) | (1u << 4)) << 16) | 1, 1, 0, 0, 0, 0 };
	t[1] = (struct bit){ 0x65617407, 2, 2000, 16, 4096, (((1u << 1) | (1u << 4)) << 16) | 8, 1, 0, 0, 0, 0 };
	t[2] = (struct bit){ 0x65617407, 3, 3000, 64, 8192, (((1u << 0) | (1u << 4)) << 16) | 1, 1, 0, 0, 0, 0 };
	snprintf(log, sizeof(log), "%s/trace.blktrace.0", dir);
	f = fopen(log, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(t, sizeof(t), 1, f), 1);
	fclose(f);
	snprintf(a, sizeof(a), "--read_iolog=%s", log);
	snprintf(b, sizeof(b), "--replay_redirect=%s/dev", dir);
	snprintf(tr, sizeof(tr), "%s/replayed", dir);
	snprintf(c, sizeof(c), "--write_iolog=%s", tr);
	json_decref(iopath_json_in(dir, args, 0, NULL));
	l = io_lines(tr);
	assert_has(l, "/dev write 8192 4096\n/", "/dev read 32768 8192\n", NULL);
	free(l);
}

Test(iolog, a_log_that_is_not_one_is_refused)
{
	const char *dir = tmpdir_make();
	char log[300], a[320];

	snprintf(log, sizeof(log), "%s/junk", dir);
	file_write_text(log, "hello\n");
	snprintf(a, sizeof(a), "--read_iolog=%s", log);
	iopath_refuses("not an I/O log", "--name=x", a, NULL);
}

/* Numbers in a log are read strictly: a sign, a wrap past 2^64 - 1 or a sum past it is refused. */
Test(iolog, offsets_that_would_wrap_are_refused)
{
	static const char *const bad[][2] = {
		{ "0 /dev/null write -1 4096", "offset '-1'" },
		{ "0 /dev/null write 99999999999999999999 4096", "offset '99999999999999999999'" },
		{ "0 /dev/null write 18446744073709551615 4096", "past the largest offset" },
		{ "-5 /dev/null write 0 4096", "time '-5'" },
		{ "0 /dev/null write 0 +4096", "length '+4096'" },
	};
	const char *dir = tmpdir_make();
	char log[300], a[320];
	struct run_out r;
	unsigned i;

	snprintf(log, sizeof(log), "%s/wrap", dir);
	snprintf(a, sizeof(a), "--read_iolog=%s", log);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		file_printf(log, "fio version 3 iolog\n0 /dev/null add\n0 /dev/null open\n%s\n", bad[i][0]);
		r = iopath_run("--name=x", a, "--rw=write", NULL);
		cr_assert_eq(r.status, 2, "%s: exit %d: %s", bad[i][0], r.status, r.err);
		cr_assert_not_null(strstr(r.err, bad[i][1]), "%s: %s", bad[i][0], r.err);
		cr_assert_not_null(strstr(r.err, ":4:"), "the line is not named: %s", r.err);
		run_out_free(&r);
	}
}

/* log_prio: the priority column as fio's 0x%04x (class << 13 | level); log_issue_time: one more. */
Test(iolog, log_prio_and_log_issue_time_columns)
{
	const char *dir = tmpdir_make();
	char name[320], path[320], line[256];
	unsigned long long t, v, off, issue;
	unsigned d, bs, prio;
	FILE *f;
	char *args[] = { "--name=lp", "--ioengine=null", "--size=16k", name, "--log_prio=1",
			 "--log_issue_time=1", "--log_offset=1", "--per_job_logs=0", "--prioclass=2",
			 "--prio=3", NULL };

	snprintf(name, sizeof(name), "--write_lat_log=%s/lp", dir);
	json_decref(iopath_json_in(dir, args, 0, NULL));
	snprintf(path, sizeof(path), "%s/lp_clat.log", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(line, sizeof(line), f));
	fclose(f);
	cr_assert_eq(sscanf(line, "%llu, %llu, %u, %u, %llu, 0x%x, %llu", &t, &v, &d, &bs, &off, &prio,
			    &issue), 7, "%s", line);
	cr_assert_eq(prio, 2u << 13 | 3, "%s", line);
	cr_assert_eq(bs, 4096);
}

Test(iolog, replay_skip_leaves_out_the_types_named)
{
	const char *dir = tmpdir_make();
	char log[300], data[300], a[320], b[320];
	json_t *root;
	char *args[] = { "--name=rep", a, b, "--replay_no_stall=1", "--replay_skip=write,sync", NULL };

	snprintf(log, sizeof(log), "%s/v3.log", dir);
	snprintf(data, sizeof(data), "%s/data", dir);
	file_printf(log, "fio version 3 iolog\n0 %s add\n0 %s open\n1 %s write 0 4096\n2 %s sync\n"
		    "3 %s read 0 4096\n4 %s read 4096 4096\n5 %s close\n", data, data, data, data, data,
		    data, data);
	snprintf(a, sizeof(a), "--read_iolog=%s", log);
	snprintf(b, sizeof(b), "--filename=%s", data);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 2);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 0);
	json_decref(root);
}

/* A trim moves no data: 2 GiB trims neither size the buffers nor meet a write's 1 GiB limit. */
Test(iolog, large_trims_replay_beside_small_writes)
{
	const char *dir = tmpdir_make();
	char log[300], a[320];
	json_t *root;
	char *args[] = { "--name=rep", a, "--ioengine=null", "--iodepth=16", "--replay_no_stall=1",
			 NULL };

	snprintf(log, sizeof(log), "%s/trims.log", dir);
	file_write_text(log, "fio version 3 iolog\n0 /dev/null add\n0 /dev/null open\n"
			"1 /dev/null trim 0 2147483648\n2 /dev/null write 0 4096\n"
			"3 /dev/null trim 4096 2147483648\n4 /dev/null write 4096 4096\n"
			"5 /dev/null close\n");
	snprintf(a, sizeof(a), "--read_iolog=%s", log);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 2);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 8192);
	cr_assert_eq(job_int(root, 0, "trim", "total_ios"), 2);
	json_decref(root);
	/* a read or write over 1 GiB is still refused */
	file_write_text(log, "fio version 3 iolog\n0 /dev/null add\n0 /dev/null open\n"
			"1 /dev/null write 0 2147483648\n2 /dev/null close\n");
	cr_assert_null(iopath_json_in(dir, args, 2, NULL));
}
