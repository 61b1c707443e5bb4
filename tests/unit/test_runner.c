/*
 * Unit tests of the runner and the worker through the null engine (the core's test double, as
 * fio's engines/null.c is): planning, phases and stonewall, group reporting, rate, verify on a
 * real file, stop, and the one result merge.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/job.h"
#include "run/run.h"
#include "stats/merge.h"
#include "stats/stats.h"

static struct job_list jobs;
static struct run_results res;
static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/iopath-runner.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	run_results_free(&res);
	memset(&res, 0, sizeof(res));
	job_list_free(&jobs);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(runner, .init = setup, .fini = teardown);

/* Parse "key=value" words (a "name=" starts a job, as on fio's command line) and run them. */
static int run_words(const char *const *words, struct iop_err *err)
{
	struct job_parser p;
	unsigned i;
	int ret = 0;

	memset(&jobs, 0, sizeof(jobs));
	job_parser_init(&p, &jobs);
	for (i = 0; words[i] && !ret; i++) {
		char key[64];
		const char *eq = strchr(words[i], '=');

		cr_assert_not_null(eq, "%s: key=value expected", words[i]);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - words[i]), words[i]);
		ret = job_parse_cli(&p, key, eq + 1, err);
	}
	if (!ret)
		ret = job_parser_finish(&p, err);
	job_parser_free(&p);
	if (ret)
		return ret;
	return run_jobs(&jobs, &res, err);
}

/*
 * A test engine that takes its requests by count (e->counted), as io_uring's NOP ring does:
 * it keeps what the runner asked of it, checks the contract's bounds on every call and fails
 * the fail_at-th completion (0: none) with EIO.
 */
static struct {
	unsigned inflight, max_inflight, max_submit, counted_submits, counted_reaps, plain_submits;
	unsigned depth, done, fail_at;
	bool bounds_broken;
} ce;

static int ce_init(struct engine *e, const struct engine_params *p)
{
	ce.depth = p->iodepth;
	e->counted = true;
	return 0;
}

static void ce_exit(struct engine *e)
{
	(void)e;
}

static struct io_req *ce_queue[64];
static unsigned ce_queued;

static int ce_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	ce.plain_submits++;
	for (i = 0; i < n && ce_queued < 64; i++) {
		reqs[i]->res = reqs[i]->len;
		ce_queue[ce_queued++] = reqs[i];
	}
	return (int)i;
}

static int ce_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	unsigned n = ce_queued < max ? ce_queued : max;

	(void)e;
	(void)min;
	ce_queued -= n;
	memcpy(done, ce_queue + ce_queued, n * sizeof(*done));
	return (int)n;
}

static int ce_submit_counted(struct engine *e, unsigned n)
{
	(void)e;
	ce.counted_submits++;
	ce.inflight += n;
	if (n > ce.max_submit)
		ce.max_submit = n;
	if (ce.inflight > ce.max_inflight)
		ce.max_inflight = ce.inflight;
	return (int)n;
}

static int ce_reap_counted(struct engine *e, unsigned min, unsigned max, int32_t *fails,
			   unsigned *nr_fails)
{
	unsigned n = ce.inflight < max ? ce.inflight : max, i;

	(void)e;
	ce.counted_reaps++;
	*nr_fails = 0;
	if (!min || min > max || n < min || max > ce.depth)
		ce.bounds_broken = true;
	for (i = 0; i < n; i++)
		if (++ce.done == ce.fail_at)
			fails[(*nr_fails)++] = -EIO;
	ce.inflight -= n;
	return (int)n;
}

static const struct engine_ops counted_engine = {
	.name = "counted-test",
	.flags = ENGINE_DISKLESS,
	.init = ce_init,
	.exit = ce_exit,
	.submit = ce_submit,
	.reap = ce_reap,
	.submit_counted = ce_submit_counted,
	.reap_counted = ce_reap_counted,
};

/* run_words with the counting test engine in place of the null engine the words name. */
static int run_counted(const char *const *words, unsigned fail_at, struct iop_err *err)
{
	struct job_parser p;
	unsigned i;
	int ret = 0;

	memset(&ce, 0, sizeof(ce));
	ce_queued = 0;
	ce.fail_at = fail_at;
	memset(&jobs, 0, sizeof(jobs));
	job_parser_init(&p, &jobs);
	for (i = 0; words[i] && !ret; i++) {
		char key[64];
		const char *eq = strchr(words[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - words[i]), words[i]);
		ret = job_parse_cli(&p, key, eq + 1, err);
	}
	if (!ret)
		ret = job_parser_finish(&p, err);
	job_parser_free(&p);
	if (ret)
		return ret;
	for (i = 0; i < jobs.nr; i++)
		jobs.jobs[i].engine = &counted_engine;
	return run_jobs(&jobs, &res, err);
}

/*
 * A test engine that records the offset of every request in the order it was submitted
 * (up to RE_MAX), completing each whole at its next reap.
 */
#define RE_MAX 4096
static struct {
	uint64_t off[RE_MAX];
	unsigned nr, queued;
	struct io_req *queue[256];
} re;

static int re_init(struct engine *e, const struct engine_params *p)
{
	(void)e;
	(void)p;
	return 0;
}

static int re_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n && re.queued < 256; i++) {
		if (re.nr < RE_MAX)
			re.off[re.nr++] = reqs[i]->offset;
		reqs[i]->res = reqs[i]->len;
		re.queue[re.queued++] = reqs[i];
	}
	return (int)i;
}

static int re_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	unsigned n = re.queued < max ? re.queued : max;

	(void)e;
	(void)min;
	re.queued -= n;
	memcpy(done, re.queue + re.queued, n * sizeof(*done));
	return (int)n;
}

static const struct engine_ops recording_engine = {
	.name = "recording-test",
	.flags = ENGINE_DISKLESS,
	.init = re_init,
	.exit = ce_exit,
	.submit = re_submit,
	.reap = re_reap,
};

/* run_words with the recording test engine; the offsets it was given into off (n of them). */
static void run_recorded(const char *const *words, uint64_t *off, unsigned *n)
{
	struct job_parser p;
	struct iop_err err;
	unsigned i;
	int ret = 0;

	memset(&re, 0, sizeof(re));
	memset(&jobs, 0, sizeof(jobs));
	job_parser_init(&p, &jobs);
	for (i = 0; words[i] && !ret; i++) {
		char key[64];
		const char *eq = strchr(words[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - words[i]), words[i]);
		ret = job_parse_cli(&p, key, eq + 1, &err);
	}
	if (!ret)
		ret = job_parser_finish(&p, &err);
	job_parser_free(&p);
	cr_assert_eq(ret, 0, "%s", err.msg);
	jobs.jobs[0].engine = &recording_engine;
	cr_assert_eq(run_jobs(&jobs, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.res[0].error, 0, "%s", res.res[0].errmsg);
	memcpy(off, re.off, re.nr * sizeof(*off));
	*n = re.nr;
	run_results_free(&res);
	memset(&res, 0, sizeof(res));
	job_list_free(&jobs);
}

static uint64_t total_ios(const struct job_result *r, unsigned dir_)
{
	return r->dir[dir_].ios;
}

Test(runner, plans_and_moves_every_byte_of_a_null_job)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=randread", "bs=4k", "size=1m",
			    "iodepth=8", NULL };
	struct iop_err err;

	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_eq(res.nr, 1);
	cr_assert_eq(res.res[0].error, 0, "%s", res.res[0].errmsg);
	cr_assert_eq(res.res[0].dir[STAT_READ].bytes, 1 << 20);
	cr_assert_eq(total_ios(&res.res[0], STAT_READ), 256);
	cr_assert_eq(res.res[0].dir[STAT_WRITE].ios, 0);
	cr_assert_eq(res.res[0].nr_workers, 1);
	cr_assert_str_eq(res.res[0].engine_name, "null");
	cr_assert_not(run_failed(&res));
}

Test(runner, refuses_a_job_it_cannot_plan_before_any_io)
{
	char file[128];
	const char *w[] = { "name=a", "ioengine=psync", "rw=write", "bs=4k", "size=1m", file,
			    NULL };
	struct iop_err err = { { 0 } };
	int ret;

	/* the file named is a directory: bad input found while planning, nothing written */
	snprintf(file, sizeof(file), "filename=%s", dir);
	ret = run_words(w, &err);
	cr_assert_lt(ret, 0, "planned a job whose file is a directory");
	cr_assert(strstr(err.msg, "directory"), "%s", err.msg);
	cr_assert_eq(res.nr, 0);
}

Test(runner, numjobs_are_one_result_each_without_group_reporting)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=write", "bs=4k", "size=64k",
			    "numjobs=3", NULL };
	struct iop_err err;
	unsigned i;

	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_eq(res.nr, 3);
	for (i = 0; i < 3; i++) {
		/* in fio's order, its thread numbers': clone 0, then the last clone to clone 1 */
		cr_assert_eq(res.res[i].nr_workers, 1);
		cr_assert_eq(res.res[i].dir[STAT_WRITE].bytes, 64 << 10);
		cr_assert_eq(res.res[i].clone, i ? 3 - i : 0, "result %u is clone %u", i,
			     res.res[i].clone);
	}
}

Test(runner, group_reporting_merges_the_workers_into_one_result)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=write", "bs=4k", "size=64k",
			    "numjobs=4", "group_reporting=1", NULL };
	struct iop_err err;

	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_eq(res.nr, 1);
	cr_assert_eq(res.res[0].nr_workers, 4);
	cr_assert_eq(res.res[0].dir[STAT_WRITE].bytes, 4 * (64 << 10));
	cr_assert_eq(res.res[0].dir[STAT_WRITE].clat.n, 4 * 16);
}

Test(runner, stonewall_runs_the_second_job_after_the_first)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=read", "bs=4k", "size=256k",
			    "name=b", "ioengine=null", "rw=write", "bs=4k", "size=128k",
			    "stonewall=1", NULL };
	struct iop_err err;

	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_eq(res.nr, 2);
	cr_assert_eq(jobs.jobs[0].phase, 0);
	cr_assert_eq(jobs.jobs[1].phase, 1, "stonewall: a phase of its own");
	cr_assert_eq(res.res[0].dir[STAT_READ].bytes, 256 << 10);
	cr_assert_eq(res.res[1].dir[STAT_WRITE].bytes, 128 << 10);
}

Test(runner, rate_iops_holds_the_job_back)
{
	/* 200 I/Os at 2000 IOPS take at least 99 ms: a floor, whatever the machine's load */
	const char *w[] = { "name=a", "ioengine=null", "rw=read", "bs=4k", "size=800k",
			    "rate_iops=2000", NULL };
	struct iop_err err;

	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_eq(res.res[0].dir[STAT_READ].ios, 200);
	cr_assert_geq(res.res[0].runtime_ns, 99000000ull, "runtime %llu ns",
		      (unsigned long long)res.res[0].runtime_ns);
}

Test(runner, verify_reads_back_what_it_wrote)
{
	char file[128];
	const char *w[] = { "name=v", "ioengine=psync", "rw=write", "bs=4k", "size=64k",
			    "verify=crc32c", file, NULL };
	struct iop_err err;

	snprintf(file, sizeof(file), "filename=%s/data", dir);
	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_eq(res.res[0].error, 0, "%s", res.res[0].errmsg);
	cr_assert_eq(res.res[0].dir[STAT_WRITE].bytes, 64 << 10);
	cr_assert_eq(res.res[0].dir[STAT_READ].bytes, 64 << 10, "the verify pass read it back");
	cr_assert_eq(res.res[0].verify_errors, 0);
}

Test(runner, a_stop_before_the_run_runs_nothing_and_says_interrupted)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=read", "bs=4k", "size=1g",
			    "time_based=1", "runtime=60s", NULL };
	struct iop_err err;

	run_request_stop();
	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert(res.interrupted);
}

Test(runner, time_based_ends_with_its_runtime)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=randread", "bs=4k", "size=1m",
			    "time_based=1", "runtime=200ms", NULL };
	struct iop_err err;

	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_gt(res.res[0].dir[STAT_READ].ios, 256, "time_based goes round the file");
	cr_assert_geq(res.res[0].runtime_ns, 199000000ull);
}

/*
 * The lean loops (core/run/loop.c, loop_is_lean: one file, one direction, no verify or
 * sync): requests made and completions counted a batch at a time, the same bytes as the
 * plain loop's, and a size that is not a whole number of batches ends where it should.
 */
Test(runner, a_lean_job_without_latencies_moves_every_byte_in_batches)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=randread", "bs=4k", "size=1028k",
			    "iodepth=32", "iodepth_batch_submit=8", "iodepth_batch_complete_min=8",
			    "iodepth_batch_complete_max=8", "gtod_reduce=1", NULL };
	struct iop_err err;

	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_eq(res.res[0].error, 0, "%s", res.res[0].errmsg);
	cr_assert_eq(total_ios(&res.res[0], STAT_READ), 257);
	cr_assert_eq(res.res[0].dir[STAT_READ].bytes, 257 * 4096);
	cr_assert_eq(res.res[0].dir[STAT_WRITE].ios, 0);
}

Test(runner, a_lean_write_job_on_a_file_writes_it_whole)
{
	char file[128];
	const char *w[] = { "name=a", "ioengine=psync", "rw=write", "bs=4k", "size=256k", file,
			    "gtod_reduce=1", NULL };
	struct iop_err err;
	FILE *f;
	long len;

	snprintf(file, sizeof(file), "filename=%s/lean", dir);
	cr_assert_eq(run_words(w, &err), 0, "%s", err.msg);
	cr_assert_eq(res.res[0].error, 0, "%s", res.res[0].errmsg);
	cr_assert_eq(total_ios(&res.res[0], STAT_WRITE), 64);
	cr_assert_eq(res.res[0].dir[STAT_WRITE].bytes, 256 * 1024);
	f = fopen(file + strlen("filename="), "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	fclose(f);
	cr_assert_eq(len, 256 * 1024);
}

/* ---- the one merge ---- */

static void result_with(struct job_result *r, uint64_t ios, uint64_t lat, int64_t start,
			int64_t end)
{
	unsigned i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&r->dir[i]);
	r->nr_workers = 1;
	r->dir[STAT_READ].ios = ios;
	r->dir[STAT_READ].bytes = ios * 4096;
	for (i = 0; i < ios; i++)
		lat_add(&r->dir[STAT_READ].clat, lat);
	r->start_ns = start;
	r->end_ns = end;
	r->runtime_ns = (uint64_t)(end - start);
	r->usr_ns = 10;
}

Test(merge, sums_counts_and_histograms_and_widens_the_span)
{
	struct job_result *a = calloc(3, sizeof(*a)), *dst = &a[2];
	unsigned i;

	cr_assert_not_null(a);
	result_with(&a[0], 10, 1000, 5, 100);
	result_with(&a[1], 30, 3000, 0, 80);
	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&dst->dir[i]);
	cr_assert_eq(result_merge(dst, &a[0]), 0);
	cr_assert_eq(result_merge(dst, &a[1]), 0);
	cr_assert_eq(dst->nr_workers, 2);
	cr_assert_eq(dst->dir[STAT_READ].ios, 40);
	cr_assert_eq(dst->dir[STAT_READ].clat.n, 40);
	cr_assert_eq(dst->dir[STAT_READ].clat.min, 1000);
	cr_assert_eq(dst->dir[STAT_READ].clat.max, 3000);
	cr_assert_eq(dst->usr_ns, 20);
	cr_assert_eq(dst->start_ns, 0);
	cr_assert_eq(dst->end_ns, 100);
	cr_assert_eq(dst->runtime_ns, 95, "the longest part's runtime");
	result_free_owned(dst);
	free(a);
}

Test(merge, keeps_the_first_error_and_counts_every_one)
{
	struct job_result *a = calloc(3, sizeof(*a)), *dst = &a[2];
	unsigned i;

	cr_assert_not_null(a);
	result_with(&a[0], 1, 1, 0, 1);
	result_with(&a[1], 1, 1, 0, 1);
	a[0].total_err = 2;
	a[0].first_error = EIO;
	a[1].error = ENOSPC;
	snprintf(a[1].errmsg, sizeof(a[1].errmsg), "full");
	a[1].total_err = 1;
	a[1].first_error = ENOSPC;
	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&dst->dir[i]);
	cr_assert_eq(result_merge(dst, &a[0]), 0);
	cr_assert_eq(result_merge(dst, &a[1]), 0);
	cr_assert_eq(dst->error, ENOSPC);
	cr_assert_str_eq(dst->errmsg, "full");
	cr_assert_eq(dst->total_err, 3);
	cr_assert_eq(dst->first_error, EIO);
	free(a);
}

/*
 * An engine instance that takes requests by count runs a lean read phase without latencies
 * and without invalidate's passes by count (io_loop_counted): every I/O of io_size and no more, never more than a batch per
 * submission nor iodepth in flight, reaps within iodepth_batch_complete_min and _max; a
 * phase that measures latencies keeps its requests.
 */
Test(runner, a_counted_engine_runs_a_lean_phase_by_count)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=randread", "bs=4k", "size=1028k",
			    "iodepth=8", "iodepth_batch_submit=3", "iodepth_batch_complete_min=2",
			    "iodepth_batch_complete_max=4", "gtod_reduce=1", "invalidate=0", NULL };
	const char *timed[] = { "name=a", "ioengine=null", "rw=randread", "bs=4k", "size=64k",
				"iodepth=8", "iodepth_batch_submit=3", NULL };
	struct iop_err err;

	cr_assert_eq(run_counted(w, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(res.res[0].error, 0, "%s", res.res[0].errmsg);
	cr_assert_eq(total_ios(&res.res[0], STAT_READ), 257);
	cr_assert_eq(res.res[0].dir[STAT_READ].bytes, 257 * 4096);
	cr_assert_eq(ce.plain_submits, 0, "a request was made per I/O");
	cr_assert_geq(ce.counted_submits, 257 / 3);
	cr_assert_eq(ce.max_submit, 3);
	cr_assert_eq(ce.max_inflight, 8);
	cr_assert_not(ce.bounds_broken, "a reap outside iodepth_batch_complete_min/max");
	cr_assert_eq(ce.inflight, 0);
	run_results_free(&res);
	memset(&res, 0, sizeof(res));
	job_list_free(&jobs);

	cr_assert_eq(run_counted(timed, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(total_ios(&res.res[0], STAT_READ), 16);
	cr_assert_eq(ce.counted_submits, 0, "a phase measuring latencies went by count");
	cr_assert_gt(ce.plain_submits, 0);
}

/* A failed I/O among counted ones fails the job as any failed read does, with its reason. */
Test(runner, a_failed_counted_io_fails_the_job_with_its_reason)
{
	const char *w[] = { "name=a", "ioengine=null", "rw=randread", "bs=4k", "size=1m",
			    "iodepth=16", "iodepth_batch_submit=4", "gtod_reduce=1", "invalidate=0",
			    NULL };
	struct iop_err err;

	run_counted(w, 100, &err);
	cr_assert_eq(res.nr, 1);
	cr_assert_eq(ce.plain_submits, 0, "not run by count");
	cr_assert_eq(res.res[0].error, EIO, "error %d: %s", res.res[0].error, res.res[0].errmsg);
	cr_assert(strstr(res.res[0].errmsg, strerror(EIO)), "%s", res.res[0].errmsg);
	/* the 99 before it counted, and at most what was in flight with it, not the rest */
	cr_assert_geq(total_ios(&res.res[0], STAT_READ), 99);
	cr_assert_lt(total_ios(&res.res[0], STAT_READ), 99 + 16);
	cr_assert_eq(ce.inflight, 0, "the job ended with I/O in flight");
}

/*
 * The lean loop's batches of random offsets without a random map (gen_burst, the generator's
 * state held across a batch) are the offsets one request at a time draws (gen_rand), in the
 * same order: the same seed moves the same blocks at any batch size. Sizes that leave a
 * block's request past the region's end (size=1001k of 4k blocks) and 64-bit Tausworthe
 * offsets are drawn one at a time in either job.
 */
Test(runner, random_offsets_drawn_a_batch_at_a_time_are_those_drawn_one_at_a_time)
{
	static const char *const sizes[] = { "size=4m", "size=1001k", "size=3m" };
	static const char *const gens[] = { "random_generator=tausworthe",
					    "random_generator=tausworthe",
					    "random_generator=tausworthe64" };
	static uint64_t one[RE_MAX], batched[RE_MAX];
	unsigned k, n1, n2, i;

	for (k = 0; k < 3; k++) {
		const char *w1[] = { "name=a", "ioengine=null", "rw=randread", "bs=4k", sizes[k],
				     "io_size=8m", "norandommap=1", gens[k], "iodepth=1",
				     "gtod_reduce=1", NULL };
		const char *w2[] = { "name=a", "ioengine=null", "rw=randread", "bs=4k", sizes[k],
				     "io_size=8m", "norandommap=1", gens[k], "iodepth=64",
				     "iodepth_batch_submit=32", "iodepth_batch_complete_min=32",
				     "gtod_reduce=1", NULL };

		run_recorded(w1, one, &n1);
		run_recorded(w2, batched, &n2);
		cr_assert_eq(n1, 2048, "%s: %u requests one at a time", sizes[k], n1);
		cr_assert_eq(n2, n1, "%s: %u requests in batches, %u one at a time", sizes[k], n2,
			     n1);
		for (i = 0; i < n1; i++)
			cr_assert_eq(batched[i], one[i], "%s %s: request %u at %llu in batches, %llu "
				     "one at a time", sizes[k], gens[k], i,
				     (unsigned long long)batched[i], (unsigned long long)one[i]);
	}
}
