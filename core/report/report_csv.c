/*
 * CSV: a header, then one row per result and direction (read, write, and sync when the job
 * synced), with completion-latency percentiles p50/p99/p99.9 in nanoseconds (fio's rule).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "stats/stats.h"

void report_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void report_csv_number(FILE *f, double v)
{
	if (isnan(v))
		return;
	/* whole numbers from 1000 up, never an exponent (a spreadsheet reads 3.19861e+07 as text) */
	fprintf(f, fabs(v) >= 1000 ? "%.0f" : "%.4f", v);
}

/* One field and what ends it. */
static void field(FILE *f, const char *s, bool last)
{
	report_csv_field(f, s);
	fputc(last ? '\n' : ',', f);
}

static void row(FILE *f, const struct job_result *r, unsigned dir)
{
	static const double pcts[] = { 50.0, 99.0, 99.9 };
	const struct dir_stat *d = &r->dir[dir];
	uint64_t ms = runtime_ms(d->runtime_ns), p[3] = { 0, 0, 0 };

	if (d->clat.n)
		lat_percentiles(&d->clat, pcts, 3, p);
	field(f, r->spec->name, false);
	/* runtime, IOPS and bandwidth as fio's JSON has them: whole milliseconds, rounded up */
	fprintf(f, "%u,%u,%s,%s,%llu,%llu,%llu,%.3f,%llu,", r->spec->groupid, r->clone,
		dir_name(dir), r->engine_name, (unsigned long long)d->ios,
		(unsigned long long)d->bytes, (unsigned long long)ms,
		ms ? 1000.0 * (double)d->ios / (double)ms : 0,
		(unsigned long long)per_sec(d->bytes, ms));
	fprintf(f, "%llu,%.1f,%llu,%llu,%llu,%llu,%.1f,%.1f,%d,",
		(unsigned long long)(d->clat.n ? d->clat.min : 0), lat_mean(&d->clat),
		(unsigned long long)p[0], (unsigned long long)p[1], (unsigned long long)p[2],
		(unsigned long long)d->clat.max, lat_mean(&d->slat), lat_mean(&d->lat), r->error);
	field(f, r->error ? r->errmsg : "", true);
}

void report_csv(FILE *f, const struct run_results *r)
{
	unsigned i;

	fprintf(f, "jobname,groupid,clone,direction,engine,ios,bytes,runtime_ms,iops,bw_bytes_per_s,"
		   "clat_min_ns,clat_mean_ns,clat_p50_ns,clat_p99_ns,clat_p99.9_ns,clat_max_ns,"
		   "slat_mean_ns,lat_mean_ns,error,error_message\n");
	for (i = 0; i < r->nr; i++) {
		const struct job_result *res = &r->res[i];
		enum job_rw rw = res->spec->rw;

		if (job_reads(rw) || res->dir[STAT_READ].ios)
			row(f, res, STAT_READ);
		if (job_writes(rw) || res->dir[STAT_WRITE].ios)
			row(f, res, STAT_WRITE);
		if (res->dir[STAT_SYNC].ios)
			row(f, res, STAT_SYNC);
		if (!job_reads(rw) && !job_writes(rw) && !res->dir[STAT_READ].ios &&
		    !res->dir[STAT_WRITE].ios && !res->dir[STAT_SYNC].ios)
			row(f, res, STAT_READ);
	}
}
