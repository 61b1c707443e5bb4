/*
 * fio's terse (--minimal) output, versions 2 to 5: one semicolon-separated line per result, in
 * fio's documented field order (HOWTO "Terse output"). Version 3 (fio's default) has reads and
 * writes; 2 drops the version field and adds trims; 4 adds trims; 5 adds to each direction
 * its bandwidth sample count and its IOPS samples (min, max, mean, stdev, count). Fields iopath has no value for are
 * written as fio writes them when it has none (0, or "0%=0" for unused percentiles); disk
 * utilization, which fio appends only when it sampled disks, is left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/diskutil.h"
#include "report/report.h"
#include "stats/stats.h"
#include "base/version.h"

#define TERSE_PCTS 20	/* fio's FIO_IO_U_LIST_MAX_LEN */

/* min, max, mean, stdev in microseconds, as fio's calc_lat() and "%llu;%llu;%f;%f". */
static void lat_usec(FILE *f, const struct lat_stat *s)
{
	if (!s->n) {
		fprintf(f, ";0;0;0.000000;0.000000");
		return;
	}
	fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(s->min / 1000),
		(unsigned long long)(s->max / 1000), lat_mean(s) / 1000, lat_stddev(s) / 1000);
}

/* One direction's fields: d (one of r's, or its "mixed"), failed I/Os, bw share of the group. */
static void stat_terse(FILE *f, const struct job_result *r, const struct dir_stat *d,
		       uint64_t failed, double agg, unsigned ver)
{
	const struct job_spec *job = r->spec;
	uint64_t runt = runtime_ms(d->runtime_ns), out[TERSE_PCTS];
	const struct lat_stat *pl = NULL;
	const double *list;
	unsigned i, nr = job_percentile_list(job, &list);

	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)(d->bytes >> 10),
		(unsigned long long)(per_sec(d->bytes, runt) / 1024),
		(unsigned long long)per_sec(d->ios + failed, runt),
		(unsigned long long)runt);
	lat_usec(f, &d->slat);
	lat_usec(f, &d->clat);
	/*
	 * The job's percentile_list, of lat where lat_percentiles asks for it, else of clat
	 * unless clat_percentiles=0; then "0%=0" up to fio's 20 fields
	 */
	if (job && job->lat_percentiles && !job->disable_lat)
		pl = &d->lat;
	else if (!job || job->clat_percentiles)
		pl = &d->clat;
	if (nr > TERSE_PCTS)
		nr = TERSE_PCTS;
	/* a direction with no I/O still lists them, each 0 (fio) */
	memset(out, 0, sizeof(out));
	if (pl && pl->n)
		lat_percentiles(pl, list, nr, out);
	for (i = 0; i < TERSE_PCTS; i++) {
		if (!pl || i >= nr)
			fprintf(f, ";0%%=0");
		else
			fprintf(f, ";%f%%=%llu", list[i], (unsigned long long)(out[i] / 1000));
	}
	lat_usec(f, &d->lat);
	if (d->bw.n)
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)(d->bw.min / 1024),
			(unsigned long long)(d->bw.max / 1024), agg,
			sample_mean(&d->bw) / 1024,
			sample_stddev(&d->bw) / 1024);
	else
		fprintf(f, ";0;0;0.000000%%;0.000000;0.000000");
	if (ver != 5)
		return;
	fprintf(f, ";%llu", (unsigned long long)d->bw.n);
	if (d->iops.n)
		fprintf(f, ";%llu;%llu;%f;%f;%llu", (unsigned long long)d->iops.min,
			(unsigned long long)d->iops.max, sample_mean(&d->iops),
			sample_stddev(&d->iops), (unsigned long long)d->iops.n);
	else
		fprintf(f, ";0;0;0.000000;0.000000;0");
}

static void dir_terse(FILE *f, const struct run_results *rr, const struct job_result *r,
		      unsigned dir, unsigned ver)
{
	stat_terse(f, r, &r->dir[dir], dir < 3 ? r->err_ios[dir] : 0, bw_agg_pct(rr, r, dir), ver);
}

/* unified_rw_reporting: fio's "mixed" direction, every direction as one. */
static void mixed_terse(FILE *f, const struct job_result *r, unsigned ver)
{
	uint64_t failed;
	struct dir_stat *m = result_mixed(r, &failed);
	struct dir_stat none;

	if (!m)
		dir_stat_init(m = &none);	/* out of memory: the fields stay in place */
	stat_terse(f, r, m, failed, 100.0, ver);
	if (m != &none)
		free(m);
}

/*
 * Completion latencies into fio's us (<=2 ... 1000) and ms (<=2 ... 2000, >=2000) buckets:
 * the distribution the JSON gives (result_lat_buckets), with fio's terse lines counting
 * nanosecond latencies in the first microsecond bucket.
 */
static void lat_dist(FILE *f, const struct job_result *r)
{
	uint64_t c[3][12], total, us;
	unsigned b, k;

	result_lat_buckets(r, c, &total);
	for (b = 0; b < 10; b++) {
		us = c[1][b];
		for (k = 0; !b && k < 12; k++)
			us += c[0][k];
		fprintf(f, ";%3.2f%%", total ? 100.0 * (double)us / (double)total : 0);
	}
	for (b = 0; b < 12; b++)
		fprintf(f, ";%3.2f%%", total ? 100.0 * (double)c[2][b] / (double)total : 0);
}

/* fio's terse disk fields, every device on every line; a dm/md device adds its slaves' aggr. */
static void disks_terse(FILE *f, const struct disk_set *s)
{
	struct disk_util u;
	unsigned i;

	for (i = 0; s && i < s->nr; i++) {
		if (!disk_set_util(s, i, &u))
			continue;
		fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", u.name,
			(unsigned long long)u.d.ios[0], (unsigned long long)u.d.ios[1],
			(unsigned long long)u.d.merges[0], (unsigned long long)u.d.merges[1],
			(unsigned long long)u.d.ticks[0], (unsigned long long)u.d.ticks[1],
			(unsigned long long)u.d.in_queue, u.util);
		if (u.slavecount)
			fprintf(f, ";slaves;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
				(unsigned long long)u.aggr.ios[0], (unsigned long long)u.aggr.ios[1],
				(unsigned long long)u.aggr.merges[0], (unsigned long long)u.aggr.merges[1],
				(unsigned long long)u.aggr.ticks[0], (unsigned long long)u.aggr.ticks[1],
				(unsigned long long)u.aggr.in_queue, u.aggr_util);
	}
}

static void job_terse(FILE *f, const struct run_results *rr, const struct job_result *r,
		      unsigned ver)
{
	double secs = (double)r->run_sum_ns / 1e9;	/* fio's total_run_time */
	uint64_t total = 0;
	unsigned i;

	if (ver == 2)
		fprintf(f, "2;%s;%u;%d", r->spec->name, r->spec->groupid, r->error);
	else
		fprintf(f, "%u;%s;%s;%u;%d", ver, iopath_fio_version(), r->spec->name,
			r->spec->groupid, r->error);
	if (r->spec->unified_rw == UNIFIED_MIXED) {
		mixed_terse(f, r, ver);
	} else {
		dir_terse(f, rr, r, STAT_READ, ver);
		dir_terse(f, rr, r, STAT_WRITE, ver);
		if (ver != 3)
			dir_terse(f, rr, r, STAT_TRIM, ver);
		if (r->spec->unified_rw == UNIFIED_BOTH)
			mixed_terse(f, r, ver);
	}
	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu",
		secs > 0 ? 100.0 * (double)r->usr_ns / 1e9 / secs : 0,
		secs > 0 ? 100.0 * (double)r->sys_ns / 1e9 / secs : 0,
		(unsigned long long)r->ctx, (unsigned long long)r->majf,
		(unsigned long long)r->minf);
	for (i = 0; i < DEPTH_BUCKETS; i++)
		total += r->depth[i];
	for (i = 0; i < DEPTH_BUCKETS; i++)
		fprintf(f, ";%3.1f%%", total ? 100.0 * (double)r->depth[i] / (double)total : 0);
	lat_dist(f, r);
	if (ver >= 3)
		disks_terse(f, rr->disks);
	/* fio's optional tail: errors a continue_on_error job went on after, then the description */
	if (r->spec->continue_on_error)
		fprintf(f, ";%llu;%d", (unsigned long long)r->total_err, r->first_error);
	if (r->spec->description[0])
		fprintf(f, "%s;%s", ver == 2 ? "\n" : "", r->spec->description);
	fputc('\n', f);
}

void report_terse_version(FILE *f, const struct run_results *r, unsigned ver)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		job_terse(f, r, &r->res[i], ver >= 2 && ver <= 5 ? ver : 3);
}

void report_terse(FILE *f, const struct run_results *r)
{
	report_terse_version(f, r, 3);
}
