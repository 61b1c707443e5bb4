/* fio-compatible JSON (and json+) from finished results. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "io/iolog.h"
#include "probe/diskutil.h"
#include "probe/pathprobe.h"
#include "stats/merge.h"
#include "stats/prio.h"
#include "report/report.h"
#include "stats/steady.h"
#include "stats/stats.h"
#include "base/atomic.h"
#include "base/version.h"

const char *dir_name(unsigned dir)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };

	return dir < STAT_NR ? names[dir] : "?";
}

void join_words(char *buf, size_t len, int argc, char **argv)
{
	size_t off = 0;
	int i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < argc && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

void run_env_fill(struct run_env *env, int argc, char **argv)
{
	struct utsname u;

	memset(env, 0, sizeof(*env));
	join_words(env->cmdline, sizeof(env->cmdline), argc, argv);
	if (!uname(&u))
		snprintf(env->kernel, sizeof(env->kernel), "%s", u.release);
	if (gethostname(env->hostname, sizeof(env->hostname)))
		snprintf(env->hostname, sizeof(env->hostname), "unknown");
}

static int set(json_t *o, const char *key, json_t *v)
{
	return json_object_set_new(o, key, v);
}

/* One latency object; with percentiles when list is not NULL (and samples have buckets). */
static json_t *lat_json_list(const struct lat_stat *s, const double *list, unsigned nr, bool bins)
{
	json_t *o = json_object();
	uint64_t out[32];
	char key[32];
	unsigned i;

	set(o, "min", json_integer(s->n ? (json_int_t)s->min : 0));
	set(o, "max", json_integer((json_int_t)s->max));
	set(o, "mean", json_real(lat_mean(s)));
	set(o, "stddev", json_real(lat_stddev(s)));
	set(o, "N", json_integer((json_int_t)s->n));
	if (list && s->n) {
		json_t *p = json_object();

		lat_percentiles(s, list, nr, out);
		for (i = 0; i < nr; i++) {
			snprintf(key, sizeof(key), "%f", list[i]);
			set(p, key, json_integer((json_int_t)out[i]));
		}
		set(o, "percentile", p);
	}
	if (bins && s->n) {
		json_t *b = json_object();

		for (i = 0; i < HIST_NR; i++) {
			if (!s->hist[i])
				continue;
			snprintf(key, sizeof(key), "%llu", (unsigned long long)hist_val(i));
			set(b, key, json_integer((json_int_t)s->hist[i]));
		}
		set(o, "bins", b);
	}
	return o;
}

static json_t *lat_json(const struct lat_stat *s, bool pcts, bool bins)
{
	return lat_json_list(s, pcts ? default_percentiles : NULL, nr_default_percentiles, bins);
}

double bw_agg_pct(const struct run_results *rr, const struct job_result *res, unsigned dir)
{
	const struct dir_stat *d = &res->dir[dir];
	uint64_t bytes = 0, rt_max = 0;
	double pct;
	unsigned i;

	if (!d->bw.n)
		return 0;
	for (i = 0; rr && i < rr->nr; i++) {
		const struct dir_stat *s = &rr->res[i].dir[dir];

		if (rr->res[i].spec->groupid != res->spec->groupid || !s->runtime_ns)
			continue;
		bytes += s->bytes;
		if (runtime_ms(s->runtime_ns) > rt_max)
			rt_max = runtime_ms(s->runtime_ns);
	}
	if (!bytes || !rt_max)
		return 100.0;
	/* against the group's aggregate, bytes over its longest runtime in ms (fio's agg) */
	pct = 100.0 * sample_mean(&d->bw) / (double)per_sec(bytes, rt_max);
	return pct < 100.0 ? pct : 100.0;
}

struct dir_stat *result_mixed(const struct job_result *r, uint64_t *failed)
{
	struct dir_stat *m = malloc(sizeof(*m));
	unsigned d;

	if (!m)
		return NULL;
	dir_stat_init(m);
	*failed = 0;
	for (d = 0; d < 3; d++) {
		dir_stat_merge(m, &r->dir[d]);
		*failed += r->err_ios[d];
	}
	return m;
}

/*
 * cmdprio: fio's "prios", each priority the direction's I/Os had (with samples), its class,
 * level and latencies: clat_ns, or lat_ns with lat_percentiles=1, as fio keeps them.
 */
static void prios_json(json_t *o, const struct prio_stats *ps, unsigned pd,
		       const struct job_spec *job, bool plus)
{
	const double *list;
	unsigned nr = job_percentile_list(job, &list), i;
	bool pcts = job->clat_percentiles || job->lat_percentiles;
	json_t *a;

	if (!ps || !ps->nr[pd])
		return;
	a = json_array();
	for (i = 0; i < ps->nr[pd]; i++) {
		const struct prio_lat *p = &ps->p[pd][i];
		json_t *e;

		if (!p->lat.n)
			continue;
		e = json_object();
		set(e, "prioclass", json_integer(p->ioprio >> IOPRIO_CLASS_SHIFT));
		set(e, "prio", json_integer(p->ioprio & 7));
		set(e, job->lat_percentiles ? "lat_ns" : "clat_ns",
		    lat_json_list(&p->lat, pcts ? list : NULL, nr, plus && pcts));
		json_array_append_new(a, e);
	}
	set(o, "prios", a);
}

/* slat, clat and lat of a direction: percentiles where the job asks for them (fio's options). */
/* failed: I/Os of the direction that failed, which fio counts in total_ios (issued). */
/* ps, pd: the result's per-priority latencies (cmdprio) and which of their directions is d's */
static json_t *dir_json(const struct dir_stat *d, const struct job_spec *job, bool plus, double agg,
			uint64_t failed, const struct prio_stats *ps, unsigned pd)
{
	const double *list;
	unsigned nr = job_percentile_list(job, &list);
	bool clat = !job || job->clat_percentiles, slat = job && job->slat_percentiles,
	     lat = job && job->lat_percentiles;
	json_t *o = json_object();
	/* fio's whole milliseconds, rounded up, and its integer division by them */
	uint64_t ms = runtime_ms(d->runtime_ns), bw = per_sec(d->bytes, ms);

	set(o, "io_bytes", json_integer((json_int_t)d->bytes));
	set(o, "io_kbytes", json_integer((json_int_t)(d->bytes / 1024)));
	set(o, "bw_bytes", json_integer((json_int_t)bw));
	set(o, "bw", json_integer((json_int_t)(bw / 1024)));
	/* fio: IOPS from every I/O issued, the failed ones (continue_on_error) too */
	set(o, "iops", json_real(ms ? 1000.0 * (double)(d->ios + failed) / (double)ms : 0));
	set(o, "runtime", json_integer((json_int_t)ms));
	set(o, "total_ios", json_integer((json_int_t)(d->ios + failed)));
	set(o, "short_ios", json_integer((json_int_t)d->short_ios));
	set(o, "drop_ios", json_integer(0));
	/* json+: bins wherever fio computes percentiles (from the histogram kept for them) */
	set(o, "slat_ns", lat_json_list(&d->slat, slat ? list : NULL, nr, plus && slat));
	set(o, "clat_ns", lat_json_list(&d->clat, clat ? list : NULL, nr, plus && clat));
	set(o, "lat_ns", lat_json_list(&d->lat, lat ? list : NULL, nr, plus && lat));
	/* rate-limited I/O: latency from the schedule's start, with its percentiles (iopath's) */
	if (d->sched.n)
		set(o, "lat_sched_ns", lat_json_list(&d->sched, list, nr, plus));
	if (job)
		prios_json(o, ps, pd, job, plus);
	set(o, "bw_min", json_integer((json_int_t)(d->bw.min / 1024)));
	set(o, "bw_max", json_integer((json_int_t)(d->bw.max / 1024)));
	set(o, "bw_agg", json_real(agg));
	set(o, "bw_mean", json_real(sample_mean(&d->bw) / 1024));
	set(o, "bw_dev", json_real(sample_stddev(&d->bw) / 1024));
	set(o, "bw_samples", json_integer((json_int_t)d->bw.n));
	set(o, "iops_min", json_integer((json_int_t)d->iops.min));
	set(o, "iops_max", json_integer((json_int_t)d->iops.max));
	set(o, "iops_mean", json_real(sample_mean(&d->iops)));
	set(o, "iops_stddev", json_real(sample_stddev(&d->iops)));
	set(o, "iops_samples", json_integer((json_int_t)d->iops.n));
	return o;
}

static json_t *sync_json(const struct dir_stat *d, const struct job_spec *job, bool plus)
{
	json_t *o = json_object();
	const double *list;
	unsigned nr = job_percentile_list(job, &list);

	set(o, "total_ios", json_integer((json_int_t)d->ios));
	set(o, "lat_ns", lat_json_list(&d->clat, list, nr, plus));
	return o;
}

/* fio's iodepth_level (in-flight depths), iodepth_submit and _complete (I/Os per call). */
static json_t *depth_json(const uint64_t *map, bool calls)
{
	static const char *const depths[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const per_call[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	json_t *o = json_object();
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < DEPTH_BUCKETS; i++)
		total += map[i];
	for (i = 0; i < DEPTH_BUCKETS; i++)
		set(o, calls ? per_call[i] : depths[i], json_real(report_dist_pct(map, i, total)));
	return o;
}

/*
 * fio's latency distribution: percent of I/Os at or under each edge, in ns below 1 us,
 * in us below 1 ms, in ms above. Taken from the completion-latency histograms.
 */
void result_lat_buckets(const struct job_result *r, uint64_t counts[3][12], uint64_t *total)
{
	static const uint64_t edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
	uint64_t v, scaled;
	unsigned d, i, b, unit, n;

	memset(counts, 0, sizeof(uint64_t) * 3 * 12);
	*total = 0;
	/* fio's file-operation engines leave the distribution empty (their I/Os are not timed) */
	for (d = 0; d < 3 && !result_ios_untimed(r); d++) {
		const struct lat_stat *s = &r->dir[d].clat;

		for (i = 0; s->n && i < HIST_NR; i++) {
			if (!s->hist[i])
				continue;
			v = hist_val(i);
			unit = v < 1000 ? 0 : v < 1000000 ? 1 : 2;
			scaled = unit == 0 ? v : unit == 1 ? v / 1000 : v / 1000000;
			n = unit == 2 ? 11 : 10;
			for (b = 0; b < n && scaled > edges[b]; b++)
				;
			counts[unit][b] += s->hist[i];
			*total += s->hist[i];
		}
	}
}

const char *const lat_bucket_names[3][12] = {
	{ "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000" },
	{ "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000" },
	{ "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000" },
};

static void lat_buckets(json_t *job, const struct job_result *r)
{
	static const char *const names[] = { "latency_ns", "latency_us", "latency_ms" };
	uint64_t counts[3][12], total;
	unsigned b, unit;

	result_lat_buckets(r, counts, &total);
	for (unit = 0; unit < 3; unit++) {
		json_t *o = json_object();

		for (b = 0; b < 12 && lat_bucket_names[unit][b]; b++)
			set(o, lat_bucket_names[unit][b],
			    json_real(total ? 100.0 * (double)counts[unit][b] / (double)total : 0));
		set(job, names[unit], o);
	}
}

/*
 * fio's "job options" (the job's own section's, own set) or "global options"; NULL: none.
 * fio lists the options given a value, not those given bare (thread), but a section of bare
 * options alone still has its object, empty.
 */
static json_t *options_json(const struct job_kv *kv, unsigned nr, bool own)
{
	json_t *o = NULL;
	unsigned i;

	for (i = 0; i < nr; i++) {
		if (own && !kv[i].own)
			continue;
		if (!o)
			o = json_object();
		if (!kv[i].bare)
			set(o, kv[i].key, json_string(kv[i].val));
	}
	return o;
}

/* rw=copy: the two files, the bytes moved and, with verify, both checksums. */
static json_t *copy_json(const struct job_result *r)
{
	const struct copy_check *c = &r->copy;
	json_t *o = json_object();
	char crc[16];

	set(o, "source", json_string(r->copy_src));
	set(o, "destination", json_string(r->copy_dst));
	set(o, "bytes", json_integer((json_int_t)c->bytes));
	set(o, "destination_size", json_integer((json_int_t)c->dst_size));
	set(o, "verified", c->checked ? json_boolean(c->match) : json_null());
	if (c->checked) {
		snprintf(crc, sizeof(crc), "%08x", c->crc_src);
		set(o, "crc32c_source", json_string(crc));
		snprintf(crc, sizeof(crc), "%08x", c->crc_dst);
		set(o, "crc32c_destination", json_string(crc));
	}
	return o;
}

/*
 * rw=metadata: per operation, its count, rate over its own phase and latency percentiles.
 * fio's "write" and "read" sections carry create and open_read (ios, bytes, clat).
 */
static json_t *meta_json(const struct job_result *r)
{
	const struct meta_stat *m = r->meta;
	json_t *o = json_object(), *ops = json_object();
	unsigned op;

	set(o, "files", json_integer((json_int_t)m->files));
	set(o, "dirs", json_integer((json_int_t)m->dirs));
	set(o, "depth", json_integer(m->depth));
	set(o, "filesize", json_integer((json_int_t)r->spec->filesize));
	set(o, "files_per_dir", json_integer(r->spec->files_per_dir));
	set(o, "dir_fanout", json_integer(r->spec->dir_fanout));
	for (op = 0; op < META_NR; op++) {
		json_t *e = json_object();
		double secs = (double)m->phase_ns[op] / 1e9;

		set(e, "ops", json_integer((json_int_t)m->op[op].n));
		set(e, "ops_per_sec", json_real(secs > 0 ? (double)m->op[op].n / secs : 0));
		set(e, "runtime_ms", json_real((double)m->phase_ns[op] / 1e6));
		set(e, "lat_ns", lat_json(&m->op[op], true, false));
		set(ops, meta_op_names[op], e);
	}
	set(o, "ops", ops);
	return o;
}

/* numa_cpu_nodes, numa_mem_policy: where the request buffers' pages were, as measured. */
static json_t *numa_pages_json(const struct job_result *r)
{
	json_t *o = json_object(), *nodes = json_object();
	char key[16];
	unsigned n;

	for (n = 0; n < RESULT_NUMA_NODES; n++) {
		if (!r->numa_pages[n])
			continue;
		snprintf(key, sizeof(key), "%u", n);
		set(nodes, key, json_integer((json_int_t)r->numa_pages[n]));
	}
	set(o, "per_node", nodes);
	set(o, "elsewhere", json_integer((json_int_t)r->numa_pages_elsewhere));
	set(o, "measured", json_string("move_pages(2) of each worker's buffers once filled, pages summed over the workers; elsewhere: not present, or past node 63"));
	return o;
}

static json_t *iopath_job_json(const struct job_result *r)
{
	json_t *o = json_object(), *applied = json_object();
	unsigned i;

	set(o, "engine", json_string(r->engine_name));
	/* a direct=1 job that a cache answered did not do direct I/O: say so, keep what was asked */
	set(o, "direct", json_boolean(r->spec->direct && !r->direct_suspect));
	if (r->direct_suspect) {
		set(o, "direct_requested", json_true());
		set(o, "direct_not_honoured", json_string(r->direct_note));
	}
	if (r->nr_targets) {
		json_t *t = json_array();
		unsigned k;

		for (k = 0; k < r->nr_targets; k++)
			json_array_append_new(t, json_string(r->targets[k]->dir));
		set(o, "targets", t);
	}
	set(o, "workers", json_integer(r->nr_workers));
	for (i = 0; i < r->nr_applied; i++)
		set(applied, r->applied[i][0], json_string(r->applied[i][1]));
	set(o, "engine_applied", applied);
	set(o, "latency_buckets_from", json_string("clat"));
	if (r->spec->disable_lat || r->spec->disable_clat || r->spec->disable_slat ||
	    r->spec->disable_bw) {
		/* fio's disable_* / gtod_reduce: these read as zeros, as in fio, but were not measured */
		json_t *nm = json_array();

		if (r->spec->disable_clat)
			json_array_append_new(nm, json_string("clat_ns"));
		if (r->spec->disable_slat)
			json_array_append_new(nm, json_string("slat_ns"));
		if (r->spec->disable_lat)
			json_array_append_new(nm, json_string("lat_ns"));
		if (r->spec->disable_bw)
			json_array_append_new(nm, json_string("bw_samples"));
		set(o, "not_measured", nm);
	}
	set(o, "clocksource", json_string(r->tsc_mhz > 0 ? "cpu" : "clock_gettime"));
	if (r->spec->clocksource == CLOCK_GTOD)
		set(o, "clocksource_given", json_string(
			"gettimeofday: stamped with clock_gettime instead (nanoseconds; fio's gettimeofday stamps are microseconds)"));
	/* how often the clock was read: what a latency here can and cannot resolve */
	{
		bool sync = r->spec->engine && (r->spec->engine->flags & ENGINE_SYNC);
		bool reduced = r->spec->engine && !job_stamps_submit(r->spec, sync) &&
			       !iolog_wanted(r->spec);

		set(o, "clock_reads", json_string(
			sync ? (reduced ? "after each submit call, which does the I/O" :
					  "before and after each submit call, which does the I/O") :
			reduced ? "after each submit call; once per reap call, shared by the completions it returned" :
				  "before and after each submit call; once per reap call, shared by the completions it returned"));
	}
	set(o, "buffers", json_string(r->buf_huge ? "2 MiB-aligned, MADV_HUGEPAGE" :
				       r->spec->mem == MEM_MALLOC ? "4 KiB pages (mem=malloc)" :
								    "4 KiB pages (pool under 2 MiB)"));
	if (r->numa_measured)
		set(o, "buffer_pages", numa_pages_json(r));
	if (r->kt_workers) {
		/* like usr_cpu/sys_cpu: percent of the job's runtime, summed over its workers */
		double secs = (double)r->runtime_ns / 1e9;
		json_t *kt = json_object();

		set(kt, "what", json_string("io_uring SQPOLL threads (not in usr_cpu/sys_cpu)"));
		set(kt, "threads", json_integer(r->kt_workers));
		set(kt, "usr_cpu", json_real(secs > 0 ? 100.0 * (double)r->kt_usr_ns / 1e9 / secs : 0));
		set(kt, "sys_cpu", json_real(secs > 0 ? 100.0 * (double)r->kt_sys_ns / 1e9 / secs : 0));
		set(o, "kernel_threads", kt);
	}
	if (r->tsc_mhz > 0)
		set(o, "tsc_mhz", json_real(r->tsc_mhz));
	set(o, "interrupted", json_boolean(r->interrupted));
	if (r->error)
		set(o, "error_message", json_string(r->errmsg));
	if (r->verify_errors)
		set(o, "verify_errors", json_integer((json_int_t)r->verify_errors));
	if (r->spec->rw == RW_COPY)
		set(o, "copy", copy_json(r));
	if (r->meta)
		set(o, "metadata", meta_json(r));
	return o;
}

/* fio's "steadystate" object: the criterion as given, the verdict, and the window. */
static json_t *ss_json(const struct job_result *r)
{
	const struct job_spec *job = r->spec;
	const struct ss_result *ss = r->ss;
	json_t *o = json_object(), *data = json_object(), *bw = json_array(), *iops = json_array();
	uint64_t bw_sum = 0, iops_sum = 0;
	char buf[96];
	unsigned i;

	snprintf(buf, sizeof(buf), "%s%s:%f%s", job->ss_state & SS_IOPS ? "iops" : "bw",
		 job->ss_state & SS_SLOPE ? "_slope" : "", job->ss_limit,
		 job->ss_state & SS_PCT ? "%" : "");
	set(o, "ss", json_string(buf));
	set(o, "duration", json_integer(ss->dur));
	set(o, "attained", json_integer(ss->attained));
	snprintf(buf, sizeof(buf), "%f%s", ss->criterion, job->ss_state & SS_PCT ? "%" : "");
	set(o, "criterion", json_string(buf));
	set(o, "max_deviation", json_real(ss->deviation));
	set(o, "slope", json_real(ss->slope));
	for (i = 0; i < ss->dur; i++) {
		bw_sum += ss->bw[i];
		iops_sum += ss->iops[i];
		json_array_append_new(iops, json_integer((json_int_t)ss->iops[i]));
		json_array_append_new(bw, json_integer((json_int_t)ss->bw[i]));
	}
	set(data, "bw_mean", json_integer((json_int_t)(ss->dur ? bw_sum / ss->dur : 0)));
	set(data, "iops_mean", json_integer((json_int_t)(ss->dur ? iops_sum / ss->dur : 0)));
	set(data, "iops", iops);
	set(data, "bw", bw);
	set(o, "data", data);
	return o;
}

static json_t *job_json(const struct run_results *rr, const struct job_result *r, bool plus)
{
	json_t *o = json_object(), *opts;
	double cpu_secs = (double)r->run_sum_ns / 1e9;	/* fio's total_run_time */
	unsigned d;

	set(o, "jobname", json_string(r->spec->name));
	if (r->spec->description[0])
		set(o, "desc", json_string(r->spec->description));
	set(o, "groupid", json_integer(r->spec->groupid));
	/* fio: the error, else the first error the job went on after (continue_on_error) */
	set(o, "error", json_integer(r->error ? r->error : r->total_err ? r->first_error : 0));
	set(o, "eta", json_integer(0));
	set(o, "elapsed", json_integer((json_int_t)(r->elapsed_ns / 1000000000ull)));
	/* fio: a merged report's options are the last job's of its group (group_reporting) */
	opts = r->opts_spec ? options_json(r->opts_spec->kv, r->opts_spec->nr_kv, true) :
			      options_json(r->spec->kv, r->spec->nr_kv, true);
	if (opts)
		set(o, "job options", opts);
	for (d = 0; r->spec->unified_rw != UNIFIED_MIXED && d < 3; d++)
		set(o, dir_name(d), dir_json(&r->dir[d], r->spec, plus, bw_agg_pct(rr, r, d),
					     r->err_ios[d], d < PRIO_DIRS ? r->prios : NULL, d));
	if (r->spec->unified_rw != UNIFIED_MIXED)
		set(o, "sync", sync_json(&r->dir[STAT_SYNC], r->spec, plus));
	if (r->spec->unified_rw != UNIFIED_NONE) {
		/* fio's "mixed": every direction as one, where they were or after them */
		uint64_t failed;
		struct dir_stat *m = result_mixed(r, &failed);
		struct prio_stats *mp = r->prios ? prio_stats_mixed(r->prios) : NULL;

		if (m)
			set(o, "mixed", dir_json(m, r->spec, plus, 100.0, failed, mp, 0));
		prio_stats_free(mp);
		free(m);
	}
	set(o, "job_runtime", json_integer((json_int_t)(r->run_sum_ns / 1000000)));
	set(o, "usr_cpu", json_real(cpu_secs > 0 ? 100.0 * (double)r->usr_ns / 1e9 / cpu_secs : 0));
	set(o, "sys_cpu", json_real(cpu_secs > 0 ? 100.0 * (double)r->sys_ns / 1e9 / cpu_secs : 0));
	set(o, "ctx", json_integer((json_int_t)r->ctx));
	set(o, "majf", json_integer((json_int_t)r->majf));
	set(o, "minf", json_integer((json_int_t)r->minf));
	if (r->spec->continue_on_error) {
		set(o, "total_err", json_integer((json_int_t)r->total_err));
		set(o, "first_error", json_integer(r->first_error));
	}
	set(o, "iodepth_level", depth_json(r->depth, false));
	set(o, "iodepth_submit", depth_json(r->submit, true));
	set(o, "iodepth_complete", depth_json(r->reaped, true));
	/* fio's latency-target settings (fio's defaults without latency_target): ns, %, us */
	set(o, "latency_depth", json_integer(r->latency_depth ? r->latency_depth : r->spec->iodepth));
	set(o, "latency_target", json_integer((json_int_t)r->spec->lat_target.ns));
	set(o, "latency_percentile", json_real(r->spec->lat_target.percentile));
	set(o, "latency_window", json_integer((json_int_t)(r->spec->lat_target.window_ns / 1000)));
	lat_buckets(o, r);
	if (r->ss)
		set(o, "steadystate", ss_json(r));
	set(o, "iopath", iopath_job_json(r));
	return o;
}

/* fio's top-level "disk_util" (its key "aggr_write_merge" spelt as fio spells it); NULL: none. */
static json_t *disks_json(const struct disk_set *s)
{
	json_t *a = NULL, *o;
	struct disk_util u;
	unsigned i;

	for (i = 0; s && i < s->nr; i++) {
		if (!disk_set_util(s, i, &u))
			continue;
		if (!a && !(a = json_array()))
			return NULL;
		o = json_object();
		set(o, "name", json_string(u.name));
		set(o, "read_ios", json_integer((json_int_t)u.d.ios[0]));
		set(o, "write_ios", json_integer((json_int_t)u.d.ios[1]));
		set(o, "read_merges", json_integer((json_int_t)u.d.merges[0]));
		set(o, "write_merges", json_integer((json_int_t)u.d.merges[1]));
		set(o, "read_ticks", json_integer((json_int_t)u.d.ticks[0]));
		set(o, "write_ticks", json_integer((json_int_t)u.d.ticks[1]));
		set(o, "in_queue", json_integer((json_int_t)u.d.in_queue));
		set(o, "util", json_real(u.util));
		if (u.slavecount) {
			set(o, "aggr_read_ios", json_integer((json_int_t)u.aggr.ios[0]));
			set(o, "aggr_write_ios", json_integer((json_int_t)u.aggr.ios[1]));
			set(o, "aggr_read_merges", json_integer((json_int_t)u.aggr.merges[0]));
			set(o, "aggr_write_merge", json_integer((json_int_t)u.aggr.merges[1]));
			set(o, "aggr_read_ticks", json_integer((json_int_t)u.aggr.ticks[0]));
			set(o, "aggr_write_ticks", json_integer((json_int_t)u.aggr.ticks[1]));
			set(o, "aggr_in_queue", json_integer((json_int_t)u.aggr.in_queue));
			set(o, "aggr_util", json_real(u.aggr_util));
		}
		json_array_append_new(a, o);
	}
	return a;
}

/*
 * The run's own time in flight on its disks: every direction's I/Os' total latency (submission
 * to completion, so at least what the disk held them), its fsyncs' too; -1 where some I/Os
 * went without a latency (disable_lat, gtod_reduce), which would leave their time to others.
 */
static double own_in_flight_s(const struct run_results *r)
{
	double s = 0;
	unsigned i, d;

	for (i = 0; i < r->nr; i++)
		for (d = STAT_READ; d < STAT_NR; d++) {
			const struct dir_stat *ds = &r->res[i].dir[d];

			if (!ds->ios)
				continue;
			if (!ds->lat.n)
				return -1;
			s += (double)ds->lat.sum / 1e9 * ((double)ds->ios / (double)ds->lat.n);
		}
	return s;
}

/*
 * The disk's time in flight beyond the run's own (/sys/block's io_ticks and weighted
 * in_queue, against the run's own I/Os' latencies): its busy time, the time its requests
 * were in flight summed over them, and what of each was others'. other_disk_in_flight is
 * the mean number of others' requests in flight (their summed time a second); own time is
 * counted from submission to completion, so others' is never overstated by it. Left out
 * of a run that laid out files (the layout's time is not counted as its own).
 */
static void disk_time_json(json_t *o, const struct run_results *r, const struct disk_util *u,
			   double wall)
{
	double own = own_in_flight_s(r), busy = (double)u->d.io_ticks / 1e3,
	       flight = (double)u->d.in_queue / 1e3;

	if (own < 0 || !(wall > 0))
		return;
	set(o, "disk_busy_s", json_real(busy));
	set(o, "disk_in_flight_s", json_real(flight));
	set(o, "own_in_flight_s", json_real(own));
	/* busy with others' requests alone: at least the busy time the run's own cannot cover */
	set(o, "other_disk_busy", json_real(fmax(0, busy - fmin(own, wall)) / wall));
	set(o, "other_disk_in_flight", json_real(fmax(0, flight - own) / wall));
}

/*
 * iopath.machine: what else used the machine while the run ran, as shares of the machine's
 * CPU time (other processes' work, steal, iowait, the run's own), what waiting for a CPU
 * cost the run's workers (their schedstat run-queue wait against their measured time, per
 * I/O), and the bytes, requests and time in flight of its disks beyond the run's own (the
 * busiest device under the files, against every job's and layout's bytes, every job's I/Os
 * and their latencies).
 * NULL when /proc could not be read.
 */
static json_t *machine_json(const struct run_results *r)
{
	const struct run_machine *m = &r->machine;
	double disk = -1, disk_ios = 0, own = 0, own_ios = 0, laid = 0, workers_s = 0, wait_s = 0,
	       oncpu_s = 0, sched_in = 0, cap = m->total_s > 0 ? m->total_s : 1;
	unsigned i, d, sched = 0, workers = 0;
	struct disk_util u, busiest = { 0 };
	json_t *o;

	if (!m->valid || !(o = json_object()))
		return NULL;
	set(o, "wall_s", json_real(m->wall_s));
	set(o, "cpus", json_integer(m->cpus));
	set(o, "other_cpu", json_real(m->busy_s > m->own_s ? (m->busy_s - m->own_s) / cap : 0));
	set(o, "own_cpu", json_real(m->own_s / cap));
	set(o, "steal", json_real(m->steal_s / cap));
	set(o, "iowait", json_real(m->iowait_s / cap));
	set(o, "load1_start", json_real(m->load1_start));
	set(o, "load1_end", json_real(m->load1_end));
	for (i = 0; i < r->nr; i++) {
		for (d = STAT_READ; d <= STAT_TRIM; d++) {
			own += (double)r->res[i].dir[d].bytes;
			own_ios += (double)r->res[i].dir[d].ios;
		}
		workers += r->res[i].nr_workers;
		sched += r->res[i].sched_workers;
		workers_s += (double)r->res[i].run_sum_ns / 1e9;
		wait_s += (double)r->res[i].runq_wait_ns / 1e9;
		oncpu_s += (double)r->res[i].oncpu_ns / 1e9;
		sched_in += (double)r->res[i].sched_in;
	}
	set(o, "own_ios", json_real(own_ios));
	if (sched && sched == workers) {
		/* every worker's: the time its workers were measured, on a CPU, and waiting */
		set(o, "workers", json_integer(workers));
		set(o, "workers_s", json_real(workers_s));
		set(o, "workers_on_cpu_s", json_real(oncpu_s));
		set(o, "workers_runq_wait_s", json_real(wait_s));
		set(o, "workers_sched_in", json_real(sched_in));
	}
	if (m->ref_cpu_ns[0] > 0 && m->ref_cpu_ns[1] > 0 && m->ref_mem_ns[0] > 0 && m->ref_mem_ns[1] > 0) {
		/* the control references beside the run: the CPU's speed at its two ends */
		set(o, "ref_cpu_ns_before", json_real(m->ref_cpu_ns[0]));
		set(o, "ref_cpu_ns_after", json_real(m->ref_cpu_ns[1]));
		set(o, "ref_mem_ns_before", json_real(m->ref_mem_ns[0]));
		set(o, "ref_mem_ns_after", json_real(m->ref_mem_ns[1]));
	}
	for (i = 0; r->disks && i < r->disks->nr; i++)
		if (disk_set_util(r->disks, i, &u) &&
		    (double)(u.d.sectors[0] + u.d.sectors[1]) * 512 > disk) {
			disk = (double)(u.d.sectors[0] + u.d.sectors[1]) * 512;
			disk_ios = (double)(u.d.ios[0] + u.d.ios[1]);
			busiest = u;
		}
	if (disk >= 0) {
		for (i = 0; i < r->nr_layouts; i++)
			laid += (double)r->layouts[i].bytes;
		own += laid;
		set(o, "disk_bytes", json_real(disk));
		set(o, "own_bytes", json_real(own));
		set(o, "other_disk_bytes_per_s", json_real(disk > own && m->wall_s > 0 ?
							   (disk - own) / m->wall_s : 0));
		/* requests: a layout's are not counted, so a run that laid out files says none */
		set(o, "disk_ios", json_real(disk_ios));
		if (!laid) {
			set(o, "other_disk_ios_per_s", json_real(disk_ios > own_ios && m->wall_s > 0 ?
								 (disk_ios - own_ios) / m->wall_s : 0));
			disk_time_json(o, r, &busiest, m->wall_s);
		}
	}
	return o;
}

json_t *report_json(const struct run_results *r, const struct run_env *env, bool plus)
{
	json_t *root = json_object(), *jobs = json_array(), *meta = json_object();
	uint64_t when_ms = r->report_unix_ms ? r->report_unix_ms : r->start_unix_ms;
	unsigned i;

	if (!root || !jobs || !meta)
		return NULL;
	set(root, "fio version", json_string(iopath_fio_version()));
	set(root, "timestamp", json_integer((json_int_t)(when_ms / 1000)));
	set(root, "timestamp_ms", json_integer((json_int_t)when_ms));
	{
		/* fio's "time": ctime() of the start (of the report), without its newline */
		time_t t = (time_t)(when_ms / 1000);
		char when[32] = "";
		struct tm tm;

		if (localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
		set(root, "time", json_string(when));
	}
	if (r->nr && r->res[0].spec && r->res[0].spec->global_kv) {
		json_t *g = options_json(r->res[0].spec->global_kv, r->res[0].spec->nr_global_kv,
					 false);

		if (g)
			set(root, "global options", g);
	}
	set(meta, "version", json_string(iopath_version));
	set(meta, "cflags", json_string(iopath_cflags));
	set(meta, "kernel", json_string(env->kernel));
	set(meta, "hostname", json_string(env->hostname));
	if (env->cmdline[0])
		set(meta, "command_line", json_string(env->cmdline));
	set(meta, "interrupted", json_boolean(r->interrupted));
	/* when the run started (the root's timestamp is the report's, as fio's) */
	if (r->start_unix_ms)
		set(meta, "start_unix_ms", json_integer((json_int_t)r->start_unix_ms));
	if (r->probes) {
		json_t *p = probe_set_json(r->probes);

		if (!p)
			return NULL;
		set(meta, "host", json_incref(json_object_get(p, "host")));
		set(meta, "targets", json_incref(json_object_get(p, "targets")));
		json_decref(p);
	}
	{
		json_t *m = machine_json(r);

		if (m)
			set(meta, "machine", m);
	}
	set(root, "iopath", meta);
	for (i = 0; i < r->nr; i++)
		json_array_append_new(jobs, job_json(r, &r->res[i], plus));
	set(root, "jobs", jobs);
	{
		json_t *disks = disks_json(r->disks);

		if (disks)
			set(root, "disk_util", disks);
	}
	if (r->idle.mode >= IDLE_SYSTEM) {
		/* fio's --idle-prof figures, after disk_util as fio writes them */
		json_t *idle = json_object();
		char key[32];

		set(idle, "system", json_real(r->idle.system));
		for (i = 0; r->idle.mode == IDLE_PERCPU && i < r->idle.nr_cpus; i++) {
			snprintf(key, sizeof(key), "cpu-%u", i);
			set(idle, key, json_real(r->idle.cpu[i]));
		}
		set(idle, "unit_mean", json_real(r->idle.unit_mean));
		set(idle, "unit_stddev", json_real(r->idle.unit_stddev));
		set(root, "cpu_idleness", idle);
	}
	return root;
}

int report_json_dump(json_t *root, FILE *f)
{
	errno = 0;
	if (json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) || fputc('\n', f) == EOF) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

int report_json_write(json_t *root, const char *path)
{
	const size_t flags = JSON_INDENT(2) | JSON_REAL_PRECISION(12);
	struct atomic_file a;
	int ret;

	errno = 0;
	if (!path) {
		if (json_dumpf(root, stdout, flags) || fputc('\n', stdout) == EOF || fflush(stdout))
			return errno ? -errno : -EIO;
		return 0;
	}
	ret = atomic_open(&a, path);
	if (ret)
		return ret;
	if (json_dumpf(root, a.f, flags) || fputc('\n', a.f) == EOF) {
		ret = errno ? -errno : -EIO;
		atomic_abort(&a);
		return ret;
	}
	return atomic_commit(&a);
}
