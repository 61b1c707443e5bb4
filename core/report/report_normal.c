/* fio-style human-readable output from finished results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe/diskutil.h"
#include "stats/merge.h"
#include "stats/prio.h"
#include "base/parse.h"
#include "base/version.h"
#include "report/report.h"
#include "stats/stats.h"

/*
 * How fio's normal output writes a job's (or a group's) figures: significant_figures digits,
 * kb_base 1000 puts the SI figure first (IEC in parentheses), unit_base=1 gives bandwidths in
 * bits.
 */
struct numstyle {
	int digits;
	bool si_first;
	bool bits;
};

static struct numstyle job_style(const struct job_spec *job)
{
	struct numstyle st = { 4, false, false };

	if (job) {
		st.digits = (int)job->sig_figs;
		st.si_first = job->kb_base == 1000;
		st.bits = job->unit_base == 1;
	}
	return st;
}

/* One figure in both unit systems: "first" and "(second)", as fio's p1 and p2. */
static void fmt_pair(const struct numstyle *st, char *first, char *second, size_t len,
		     uint64_t v, bool rate)
{
	const char *unit = rate ? (st->bits ? "bit/s" : "B/s") : "B";

	if (rate && st->bits)
		v *= 8;
	fmt_num2str(first, len, v, st->digits, !st->si_first, unit);
	fmt_num2str(second, len, v, st->digits, st->si_first, unit);
}

/*
 * A latency line as fio's display_lat: nanoseconds, unless the values are large enough for
 * microseconds (min above 2000, max above 99999, stdev above 1000) or milliseconds (the same
 * a thousand times over); min and max in 6 digits as num2str writes them.
 */
static void print_lat(FILE *f, const char *label, const struct lat_stat *s)
{
	uint64_t min = s->min, max = s->max;
	double mean = lat_mean(s), dev = lat_stddev(s);
	const char *unit = "nsec";
	char a[32], b[32];

	if (!s->n)
		return;
	if (min > 2000000 && max > 99999999ull && dev > 1e6) {
		unit = "msec";
		min /= 1000000;
		max /= 1000000;
		mean /= 1e6;
		dev /= 1e6;
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		unit = "usec";
		min /= 1000;
		max /= 1000;
		mean /= 1e3;
		dev /= 1e3;
	}
	fmt_num2str(a, sizeof(a), min, 6, false, "");
	fmt_num2str(b, sizeof(b), max, 6, false, "");
	fprintf(f, "    %4s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", label, unit, a, b,
		mean, dev);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Decimals the list needs to show each percentile as written (fio's percentile precision). */
static unsigned pct_precision(const double *list, unsigned nr, bool user)
{
	unsigned i, p = 0, d;
	char buf[32], *dot;

	if (!user)
		return 2;
	for (i = 0; i < nr; i++) {
		snprintf(buf, sizeof(buf), "%.6f", list[i]);
		dot = strchr(buf, '.');
		for (d = dot ? (unsigned)strlen(dot + 1) : 0; d && dot[d] == '0'; d--)
			;
		p = d > p ? d : p;
	}
	return p;
}

/*
 * Percentiles as fio's show_clat_percentiles: the list sorted, in nsec unless the smallest and
 * largest values call for usec or msec (each scale rounding up), as many to a line as fit 80
 * columns.
 */
static void print_pcts(FILE *f, const char *label, const struct lat_stat *s,
		       const struct job_spec *job)
{
	const double *given;
	unsigned nr = job_percentile_list(job, &given), i, scale = 0, k, prec, width, per_line;
	double list[32];
	uint64_t out[32], minv = UINT64_MAX, maxv = 0, div = 1;
	const char *unit = "nsec";

	if (!s->n || !nr)
		return;
	if (nr > 32)
		nr = 32;
	memcpy(list, given, nr * sizeof(list[0]));
	qsort(list, nr, sizeof(list[0]), cmp_double);
	prec = pct_precision(list, nr, job && job->nr_percentiles);
	lat_percentiles(s, list, nr, out);
	for (i = 0; i < nr; i++) {
		minv = out[i] < minv ? out[i] : minv;
		maxv = out[i] > maxv ? out[i] : maxv;
	}
	if (minv > 2000000 && maxv > 99999999ull) {
		scale = 2;
		div = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		div = 1000;
		unit = "usec";
	}
	width = maxv / div ? (unsigned)log10((double)(maxv / div)) + 1 : 1;
	if (width < 5)
		width = 5;
	per_line = (80 - 7) / (prec + 10 + width);
	fprintf(f, "    %s percentiles (%s):\n     |", label, unit);
	for (i = 0; i < nr; i++) {
		if (i && i % per_line == 0)
			fprintf(f, "     |");
		for (k = 0; k < scale; k++)
			out[i] = (out[i] + 999) / 1000;
		fprintf(f, " %*.*fth=[%*llu]%c", (int)prec + 3, (int)prec, list[i], (int)width,
			(unsigned long long)out[i], i + 1 == nr ? '\n' : ',');
		if (i + 1 < nr && i % per_line == per_line - 1)
			fputc('\n', f);
	}
}

/*
 * cmdprio: each priority's latency line (pcts false) or percentiles, as fio shows them when
 * two or more priorities had I/Os: "clat prio CLASS/LEVEL" ("lat" with lat_percentiles=1).
 */
static void print_prios(FILE *f, const struct prio_stats *ps, unsigned pd, const struct dir_stat *d,
			const struct job_spec *job, bool pcts)
{
	const char *type = job->lat_percentiles ? "lat" : "clat";
	uint64_t all = job->lat_percentiles ? d->lat.n : d->clat.n;
	char label[96];
	unsigned i;

	if (prio_with_samples(ps, pd) < 2)
		return;
	for (i = 0; i < ps->nr[pd]; i++) {
		const struct prio_lat *p = &ps->p[pd][i];

		if (!p->lat.n)
			continue;
		if (!pcts) {
			snprintf(label, sizeof(label), "%s prio %u/%u", type,
				 (unsigned)(p->ioprio >> IOPRIO_CLASS_SHIFT), (unsigned)(p->ioprio & 7));
			print_lat(f, label, &p->lat);
			continue;
		}
		snprintf(label, sizeof(label), "%s prio %u/%u (%.2f%% of IOs)", type,
			 (unsigned)(p->ioprio >> IOPRIO_CLASS_SHIFT), (unsigned)(p->ioprio & 7),
			 all ? 100.0 * (double)p->lat.n / (double)all : 0.0);
		print_pcts(f, label, &p->lat, job);
	}
}

/*
 * One direction of r: d (one of r's, or its "mixed"), named name, with failed I/Os and agg;
 * ps, pd: the per-priority latencies (cmdprio) and which of their directions is d's.
 */
static void print_stat(FILE *f, const struct job_result *r, const struct dir_stat *d,
		       const char *name, bool zone_resets, uint64_t failed, double agg,
		       const struct prio_stats *ps, unsigned pd)
{
	const struct job_spec *job = r->spec;
	/* fio's whole milliseconds, rounded up, and its integer division by them */
	uint64_t ms = runtime_ms(d->runtime_ns), bw = per_sec(d->bytes, ms);
	struct numstyle st = job_style(job);
	char iops[32], bwi[32], bws[32], io[32], io2[32];

	if (!d->ios)
		return;
	/* fio: IOPS from every I/O issued, the failed ones (continue_on_error) too */
	fmt_num2str(iops, sizeof(iops), per_sec(d->ios + failed, ms), st.digits, false, "");
	fmt_pair(&st, bwi, bws, sizeof(bwi), bw, true);
	fmt_pair(&st, io, io2, sizeof(io), d->bytes, false);
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)", name, iops, bwi, bws, io,
		(unsigned long long)ms);
	/* fio built for Linux (blkzoned) ends every write line so */
	if (zone_resets)
		fprintf(f, "; %llu zone resets", (unsigned long long)r->zone_resets);
	fputc('\n', f);
	print_lat(f, "slat", &d->slat);
	print_lat(f, "clat", &d->clat);
	print_lat(f, "lat", &d->lat);
	if (job && ps)
		print_prios(f, ps, pd, d, job, false);
	if (job && job->slat_percentiles)
		print_pcts(f, "slat", &d->slat, job);
	if (!job || job->clat_percentiles)
		print_pcts(f, "clat", &d->clat, job);
	if (job && job->lat_percentiles)
		print_pcts(f, "lat", &d->lat, job);
	if (job && ps && (job->clat_percentiles || job->lat_percentiles))
		print_prios(f, ps, pd, d, job, true);
	if (d->bw.n) {
		/* fio: KiB (kB with kb_base=1000, bits with unit_base=1), MiB past kb_base^2 */
		double base = st.si_first ? 1000.0 : 1024.0, mul = st.bits ? 8.0 : 1.0;
		double min = d->bw.min / 1024 * mul, max = d->bw.max / 1024 * mul;
		double mean = sample_mean(&d->bw) / 1024 * mul, dev = sample_stddev(&d->bw) / 1024 * mul;
		const char *unit = st.bits ? (st.si_first ? "kbit" : "Kibit") : (st.si_first ? "kB" : "KiB");

		if (mean > base * base) {
			min /= base;
			max /= base;
			mean /= base;
			dev /= base;
			unit = st.bits ? "Mibit" : "MiB";
		}
		fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%llu\n",
			unit, (unsigned long long)min, (unsigned long long)max, agg,
			mean, dev, (unsigned long long)d->bw.n);
	}
	if (d->iops.n)
		fprintf(f, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, samples=%llu\n",
			(unsigned long long)d->iops.min, (unsigned long long)d->iops.max,
			sample_mean(&d->iops), sample_stddev(&d->iops), (unsigned long long)d->iops.n);
}

static void print_dir(FILE *f, const struct run_results *rr, const struct job_result *r,
		      unsigned dir)
{
	print_stat(f, r, &r->dir[dir], dir_name(dir), dir == STAT_WRITE,
		   dir < 3 ? r->err_ios[dir] : 0, bw_agg_pct(rr, r, dir),
		   dir < PRIO_DIRS ? r->prios : NULL,
		   dir);
}

/* unified_rw_reporting: fio's "mixed" direction, every direction as one. */
static void print_mixed(FILE *f, const struct job_result *r)
{
	uint64_t failed;
	struct dir_stat *m = result_mixed(r, &failed);
	struct prio_stats *mp = r->prios ? prio_stats_mixed(r->prios) : NULL;

	if (m)
		print_stat(f, r, m, "mixed", false, failed, 100.0, mp, 0);
	prio_stats_free(mp);
	free(m);
}

/* rw=metadata: one line per operation, its rate over its phase and its latency. */
static void print_meta(FILE *f, const struct job_result *r)
{
	static const double want[3] = { 50.0, 99.0, 99.9 };
	const struct meta_stat *m = r->meta;
	uint64_t pct[3];
	unsigned op;

	fprintf(f, "  metadata: %llu files of %llu bytes in %llu directories (%u levels)\n",
		(unsigned long long)m->files, (unsigned long long)r->spec->filesize,
		(unsigned long long)m->dirs, m->depth);
	for (op = 0; op < META_NR; op++) {
		const struct lat_stat *s = &m->op[op];
		double secs = (double)m->phase_ns[op] / 1e9;

		if (!s->n)
			continue;
		lat_percentiles(s, want, 3, pct);
		fprintf(f, "    %-9s: %8llu ops, %10.0f ops/s, lat (usec): avg=%.1f, p50=%.1f, p99=%.1f, p99.9=%.1f, max=%.1f\n",
			meta_op_names[op], (unsigned long long)s->n,
			secs > 0 ? (double)s->n / secs : 0, lat_mean(s) / 1e3, (double)pct[0] / 1e3,
			(double)pct[1] / 1e3, (double)pct[2] / 1e3, (double)s->max / 1e3);
	}
}

/*
 * fio's "lat (nsec/usec/msec)" lines: the share of I/Os per completion-latency bucket, five
 * to a line, only the buckets that hold any (at least 0.01%, as fio rounds them up).
 */
static void print_lat_dist(FILE *f, const struct job_result *r)
{
	static const char *const units[] = { "nsec", "usec", "msec" };
	uint64_t counts[3][12], total;
	unsigned unit, b, on_line;
	double pct;

	result_lat_buckets(r, counts, &total);
	for (unit = 0; total && unit < 3; unit++) {
		on_line = 0;
		for (b = 0; b < 12 && lat_bucket_names[unit][b]; b++) {
			if (!counts[unit][b])
				continue;
			pct = 100.0 * (double)counts[unit][b] / (double)total;
			if (pct < 0.01)
				pct = 0.01;
			if (on_line == 5) {
				fputc('\n', f);
				on_line = 0;
			}
			if (on_line)
				fprintf(f, ", ");
			else
				fprintf(f, "  lat (%s)   : ", units[unit]);
			fprintf(f, "%s=%3.2f%%", lat_bucket_names[unit][b], pct);
			on_line++;
		}
		if (on_line)
			fputc('\n', f);
	}
}

/* fio's steady-state line: the verdict, the window's mean bandwidth and IOPS, the criterion. */
static void print_ss(FILE *f, const struct job_result *r)
{
	const struct ss_result *ss = r->ss;
	const unsigned state = r->spec->ss_state;
	struct numstyle st = job_style(r->spec);
	uint64_t bw = 0, iops = 0;
	char p1[32], p2[32], p3[32];
	unsigned i;

	if (!ss->dur)
		return;
	for (i = 0; i < ss->dur; i++) {
		bw += ss->bw[i];
		iops += ss->iops[i];
	}
	fmt_pair(&st, p1, p2, sizeof(p1), bw / ss->dur, true);
	fmt_num2str(p3, sizeof(p3), iops / ss->dur, st.digits, false, "");
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no", p1, p2, p3, state & SS_IOPS ? "iops" : "bw",
		state & SS_SLOPE ? " slope" : " mean dev", ss->criterion, state & SS_PCT ? "%" : "");
}

/* Did the unit issue any I/O? fio reports only those (show_thread_status_normal). */
static bool did_io(const struct job_result *r)
{
	unsigned d;

	if (r->meta)
		return true;
	for (d = 0; d < 3; d++)
		if (r->dir[d].bytes || r->dir[d].ios || r->err_ios[d])
			return true;
	return false;
}

/* fio's header line: err, its message when there is one, the pid and when the job ended. */
static void print_header(FILE *f, const struct run_results *rr, const struct job_result *r)
{
	char when[64] = "\n";
	time_t end = (time_t)((rr->start_unix_ms + r->elapsed_ns / 1000000) / 1000);

	if (!rr->start_unix_ms)
		end = time(NULL);
	ctime_r(&end, when);
	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d", r->spec->name, r->spec->groupid,
		r->nr_workers ? r->nr_workers : r->spec->numjobs, r->error);
	if (r->error)
		fprintf(f, " (%s)", r->errmsg);
	fprintf(f, ": pid=%d: %s", (int)getpid(), when);
}

/* fio's sync section: fsync/fdatasync latencies and their percentiles. */
static void print_sync(FILE *f, const struct job_result *r)
{
	if (!r->dir[STAT_SYNC].ios)
		return;
	fprintf(f, "  fsync/fdatasync/sync_file_range:\n");
	print_lat(f, "sync", &r->dir[STAT_SYNC].clat);
	print_pcts(f, "sync", &r->dir[STAT_SYNC].clat, r->spec);
}

/* One of fio's distribution lines: the label, then each bucket's share. */
static void print_dist(FILE *f, const char *label, const char *const *keys, const uint64_t *map)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < DEPTH_BUCKETS; i++)
		total += map[i];
	fprintf(f, "%s:", label);
	for (i = 0; i < DEPTH_BUCKETS; i++)
		fprintf(f, " %s=%3.1f%%%s", keys[i], report_dist_pct(map, i, total),
			i + 1 < DEPTH_BUCKETS ? "," : "\n");
}

/* fio's IO depths, then its submit and complete lines (I/Os per submit and per reap call). */
static void print_depths(FILE *f, const struct job_result *r)
{
	static const char *const depths[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const calls[] = { "0", "4", "8", "16", "32", "64", ">=64" };

	print_dist(f, "  IO depths    ", depths, r->depth);
	print_dist(f, "     submit    ", calls, r->submit);
	print_dist(f, "     complete  ", calls, r->reaped);
}

/* One unit as fio's show_thread_status_normal, in its order; iopath's own lines come later. */
static void print_job(FILE *f, const struct run_results *rr, const struct job_result *r)
{
	double cpu_secs = (double)r->run_sum_ns / 1e9;
	unsigned d;

	if (!did_io(r))
		return;
	print_header(f, rr, r);
	if (r->spec->description[0])
		fprintf(f, "  Description  : [%s]\n", r->spec->description);
	if (r->meta)
		print_meta(f, r);
	for (d = 0; !r->meta && r->spec->unified_rw != UNIFIED_MIXED && d < 3; d++)
		print_dir(f, rr, r, d);
	if (!r->meta && r->spec->unified_rw != UNIFIED_NONE)
		print_mixed(f, r);
	if (r->spec->rw == RW_COPY && r->copy.checked)
		fprintf(f, "  copy: %s -> %s, %llu bytes, crc32c %08x %s %08x\n", r->copy_src,
			r->copy_dst, (unsigned long long)r->copy.bytes, r->copy.crc_src,
			r->copy.match ? "==" : "!=", r->copy.crc_dst);
	if (r->nr_workers && r->runtime_ns)
		print_lat_dist(f, r);
	print_sync(f, r);
	/* fio's: the summed CPU times over the summed runtimes (total_run_time) */
	fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		cpu_secs > 0 ? 100.0 * (double)r->usr_ns / 1e9 / cpu_secs : 0,
		cpu_secs > 0 ? 100.0 * (double)r->sys_ns / 1e9 / cpu_secs : 0,
		(unsigned long long)r->ctx, (unsigned long long)r->majf, (unsigned long long)r->minf);
	print_depths(f, r);
	/* fio's issued line: the fourth count is the syncs; iopath drops no I/O */
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 dropped=0,0,0,0\n",
		(unsigned long long)(r->dir[STAT_READ].ios + r->err_ios[0]),
		(unsigned long long)(r->dir[STAT_WRITE].ios + r->err_ios[1]),
		(unsigned long long)(r->dir[STAT_TRIM].ios + r->err_ios[2]),
		(unsigned long long)r->dir[STAT_SYNC].ios,
		(unsigned long long)r->dir[STAT_READ].short_ios,
		(unsigned long long)r->dir[STAT_WRITE].short_ios,
		(unsigned long long)r->dir[STAT_TRIM].short_ios);
	if (r->spec->continue_on_error)
		fprintf(f, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)r->total_err, r->first_error, strerror(r->first_error));
	fprintf(f, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
		(unsigned long long)r->spec->lat_target.ns,
		(unsigned long long)(r->spec->lat_target.window_ns / 1000), r->spec->lat_target.percentile,
		r->latency_depth ? r->latency_depth : r->spec->iodepth);
	if (r->ss)
		print_ss(f, r);
}

/*
 * What iopath adds about a unit (fio has no such lines): the engine as applied, direct I/O
 * and whether it was honoured, the buffers, the clock, SQPOLL threads' CPU; kept after fio's
 * whole output so that a reader of fio's sees fio's lines where fio puts them.
 */
/*
 * Rate-limited I/O: latency from when the rate's schedule said each I/O should start, one
 * line per direction (fio's own latencies above count from the issue, so a stall hides there).
 */
static void print_sched(FILE *f, const struct job_result *r)
{
	static const double pcts[] = { 50.0, 99.0, 99.9 };
	static const char *const names[] = { "read", "write", "trim" };
	uint64_t out[3];
	unsigned d;

	for (d = 0; d < 3; d++) {
		const struct lat_stat *s = &r->dir[d].sched;

		if (!s->n)
			continue;
		lat_percentiles(s, pcts, 3, out);
		fprintf(f, "    lat_sched    : %s (usec): min=%.1f, max=%.1f, avg=%.1f, p50=%.1f, "
			"p99=%.1f, p99.9=%.1f (from the rate's schedule: waits behind slow I/O count)\n",
			names[d], (double)s->min / 1e3, (double)s->max / 1e3, lat_mean(s) / 1e3,
			(double)out[0] / 1e3, (double)out[1] / 1e3, (double)out[2] / 1e3);
	}
}

static void print_measured(FILE *f, const struct job_result *r)
{
	double secs = (double)r->runtime_ns / 1e9;
	unsigned i;

	fprintf(f, "  %s: engine=%s%s%s%s\n", r->spec->name, r->engine_name,
		r->direct_suspect ? " direct=1 (not honoured)" : r->spec->direct ? " direct=1" : "",
		r->interrupted ? " (interrupted)" : "", did_io(r) ? "" : " (no I/O done)");
	if (r->error && !did_io(r))
		fprintf(f, "    error        : %s\n", r->errmsg);
	if (r->direct_suspect)
		fprintf(f, "    warning      : NOT direct I/O: %s\n", r->direct_note);
	if (!r->nr_workers || !r->runtime_ns)
		return;
	if (r->kt_workers)
		fprintf(f, "    sqpoll cpu   : usr=%.2f%%, sys=%.2f%% (%u SQPOLL thread%s, not in cpu above)\n",
			secs > 0 ? 100.0 * (double)r->kt_usr_ns / 1e9 / secs : 0,
			secs > 0 ? 100.0 * (double)r->kt_sys_ns / 1e9 / secs : 0, r->kt_workers,
			r->kt_workers == 1 ? "" : "s");
	fprintf(f, "    buffers      : %s\n",
		r->buf_huge ? "2 MiB-aligned, transparent huge pages advised (mem=thp)" :
		r->spec->mem == MEM_MALLOC ? "4 KiB pages (mem=malloc)" :
					     "4 KiB pages (pool under 2 MiB)");
	if (r->numa_measured) {
		unsigned n;

		fprintf(f, "  buffer pages :");
		for (n = 0; n < RESULT_NUMA_NODES; n++)
			if (r->numa_pages[n])
				fprintf(f, " node %u: %llu,", n, (unsigned long long)r->numa_pages[n]);
		fprintf(f, " elsewhere: %llu (where the buffers were, move_pages once filled)\n",
			(unsigned long long)r->numa_pages_elsewhere);
	}
	print_sched(f, r);
	if (r->tsc_mhz > 0)
		fprintf(f, "    clock        : cpu (TSC %.0f MHz, calibrated against CLOCK_MONOTONIC)\n",
			r->tsc_mhz);
	else
		fprintf(f, "    clock        : clock_gettime (CLOCK_MONOTONIC)\n");
	if (r->nr_applied) {
		fprintf(f, "    applied      :");
		for (i = 0; i < r->nr_applied; i++)
			fprintf(f, " %s=%s", r->applied[i][0], r->applied[i][1]);
		fprintf(f, "\n");
	}
}

static void print_group(FILE *f, const struct run_results *r, unsigned group)
{
	static const char *const upper[] = { "READ", "WRITE", "TRIM", "MIXED" };
	unsigned d, i, k;

	fprintf(f, "\nRun status group %u (all jobs):\n", group);
	/* d 3: unified_rw_reporting's MIXED line, every direction of the jobs that ask for it */
	for (d = 0; d < 4; d++) {
		uint64_t bytes = 0, rt_min = UINT64_MAX, rt_max = 0, bw_min = UINT64_MAX, bw_max = 0;
		uint64_t bw, ms;
		char a[32], b[32], c[32], io[32], as[32], bs[32], cs[32], ios[32];
		struct numstyle st = job_style(NULL);

		for (i = 0; i < r->nr; i++) {
			unsigned uni = r->res[i].spec->unified_rw;

			if (r->res[i].spec->groupid != group)
				continue;
			/* fio: the group's figures as its last job asks */
			st = job_style(r->res[i].spec);
			if (d < 3 ? uni == UNIFIED_MIXED : uni == UNIFIED_NONE)
				continue;
			for (k = d < 3 ? d : 0; k < (d < 3 ? d + 1 : 3u); k++) {
				const struct dir_stat *s = &r->res[i].dir[k];

				if (!s->ios || !s->runtime_ns)
					continue;
				/* in fio's whole milliseconds, rounded up, as each job's line */
				ms = runtime_ms(s->runtime_ns);
				bytes += s->bytes;
				bw = per_sec(s->bytes, ms);
				bw_min = bw < bw_min ? bw : bw_min;
				bw_max = bw > bw_max ? bw : bw_max;
				rt_min = ms < rt_min ? ms : rt_min;
				rt_max = ms > rt_max ? ms : rt_max;
			}
		}
		if (!bytes)
			continue;
		fmt_pair(&st, a, as, sizeof(a), per_sec(bytes, rt_max), true);
		fmt_pair(&st, b, bs, sizeof(b), bw_min, true);
		fmt_pair(&st, c, cs, sizeof(c), bw_max, true);
		fmt_pair(&st, io, ios, sizeof(io), bytes, false);
		/* fio's line: each figure in IEC units, then in SI units in parentheses (kb_base=1000: SI first) */
		fprintf(f, "  %5s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
			upper[d], a, as, b, c, bs, cs, io, ios, (unsigned long long)rt_min,
			(unsigned long long)rt_max);
	}
}

/* fio's "Disk stats" section: a dm/md device indented further, with its slaves' aggr figures. */
static void print_disks(FILE *f, const struct disk_set *s)
{
	struct disk_util u;
	bool head = false;
	unsigned i;

	for (i = 0; s && i < s->nr; i++) {
		if (!disk_set_util(s, i, &u))
			continue;
		if (!head)
			fprintf(f, "\nDisk stats (read/write):\n");
		head = true;
		fprintf(f, "%s  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, "
			"util=%3.2f%%", u.slavecount ? "  " : "", u.name,
			(unsigned long long)u.d.ios[0], (unsigned long long)u.d.ios[1],
			(unsigned long long)u.d.merges[0], (unsigned long long)u.d.merges[1],
			(unsigned long long)u.d.ticks[0], (unsigned long long)u.d.ticks[1],
			(unsigned long long)u.d.in_queue, u.util);
		if (u.slavecount)
			fprintf(f, ", aggrios=%llu/%llu, aggrmerge=%llu/%llu, aggrticks=%llu/%llu, "
				"aggrin_queue=%llu, aggrutil=%3.2f%%",
				(unsigned long long)u.aggr.ios[0], (unsigned long long)u.aggr.ios[1],
				(unsigned long long)u.aggr.merges[0], (unsigned long long)u.aggr.merges[1],
				(unsigned long long)u.aggr.ticks[0], (unsigned long long)u.aggr.ticks[1],
				(unsigned long long)u.aggr.in_queue, u.aggr_util);
		fputc('\n', f);
	}
}

void report_normal_idle(FILE *f, const struct run_idle *idle)
{
	unsigned i;

	if (idle->mode == IDLE_NONE)
		return;
	fprintf(f, idle->mode == IDLE_CALIBRATE ? "CPU idleness:\n" : "\nCPU idleness:\n");
	if (idle->mode >= IDLE_SYSTEM)
		fprintf(f, "  system: %3.2f%%\n", idle->system);
	if (idle->mode == IDLE_PERCPU) {
		for (i = 0; i < idle->nr_cpus; i++)
			fprintf(f, i ? ", %3.2f%%" : "  percpu: %3.2f%%", idle->cpu[i]);
		fputc('\n', f);
	}
	fprintf(f, "  unit work: mean=%3.2fus, stddev=%3.2f\n", idle->unit_mean, idle->unit_stddev);
}

void report_normal_layouts(FILE *f, const struct run_results *r)
{
	unsigned i;

	for (i = 0; i < r->nr_layouts; i++) {
		const struct run_layout *l = &r->layouts[i];

		fprintf(f, "%s: Laying out IO file%s (%u file%s / %s%lluMiB)\n", l->job->name,
			l->files > 1 ? "s" : "", l->files, l->files > 1 ? "s" : "",
			l->files > 1 ? "total " : "", (unsigned long long)(l->bytes >> 20));
	}
}

void report_normal(FILE *f, const struct run_results *r)
{
	unsigned i, last_group = 0;
	bool any = false;

	/* fio's blank line between what it printed while running and the results */
	fputc('\n', f);
	for (i = 0; i < r->nr; i++) {
		print_job(f, r, &r->res[i]);
		last_group = r->res[i].spec->groupid;
		any = true;
	}
	for (i = 0; any && i <= last_group; i++)
		print_group(f, r, i);
	print_disks(f, r->disks);
	report_normal_idle(f, &r->idle);
	if (any)
		fprintf(f, "\niopath: what was measured (iopath's own lines, not fio's):\n");
	for (i = 0; i < r->nr; i++)
		print_measured(f, &r->res[i]);
	if (r->interrupted)
		fprintf(f, "\n(interrupted: the results above are partial)\n");
}

/* A block size as fio's job line writes it: num2str with the job's significant figures. */
static void fmt_bs(char *buf, size_t len, const struct job_spec *job, uint32_t bs)
{
	fmt_num2str(buf, len, bs, (int)job->sig_figs, job->kb_base != 1000, "B");
}

void report_normal_preamble(FILE *f, const struct job_list *jobs)
{
	unsigned i, threads = 0, procs = 0;

	for (i = 0; i < jobs->nr; i++) {
		const struct job_spec *job = &jobs->jobs[i];
		uint32_t tmin = job->bs_trim ? job->bs_trim : job->bs[1];
		uint32_t tmax = job->bs_trim ? job->bs_trim : job->bs_max[1];
		char b[6][32];

		fmt_bs(b[0], sizeof(b[0]), job, job->bs[0]);
		fmt_bs(b[1], sizeof(b[1]), job, job->bs_max[0]);
		fmt_bs(b[2], sizeof(b[2]), job, job->bs[1]);
		fmt_bs(b[3], sizeof(b[3]), job, job->bs_max[1]);
		fmt_bs(b[4], sizeof(b[4]), job, tmin);
		fmt_bs(b[5], sizeof(b[5]), job, tmax);
		fprintf(f, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%u\n",
			job->name, job->groupid, job_rw_name(job->rw), b[0], b[1], b[2], b[3], b[4],
			b[5], job->engine ? job->engine->name : job->ioengine, job->iodepth);
		if (job->numjobs > 1)
			fprintf(f, "...\n");
		if (job->thread)
			threads += job->numjobs ? job->numjobs : 1;
		else
			procs += job->numjobs ? job->numjobs : 1;
	}
	fprintf(f, "%s\n", iopath_fio_version());
	/*
	 * fio's words for the workers it starts: a process per job unless thread=1 (iopath's
	 * workers are threads either way; the line is the job file's, as fio counts it)
	 */
	fprintf(f, "Starting ");
	if (threads)
		fprintf(f, "%u thread%s", threads, threads > 1 ? "s" : "");
	if (procs)
		fprintf(f, "%s%u process%s", threads ? " and " : "", procs, procs > 1 ? "es" : "");
	fprintf(f, "\n");
}
