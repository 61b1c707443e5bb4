/* The tracked metrics and how each is read from a fio-shaped job result. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/metrics.h"

/*
 * The metrics. To add one: an enum entry in metrics.h, a line here, and its extraction in
 * metrics_from_job().
 */
const struct metric_def metric_table[MET_NR] = {
	[MET_IOPS] = { "iops", "IOPS", "IOPS", 1, NULL, true },
	[MET_BW] = { "bw", "bandwidth", "MiB/s", 1048576.0, "bytes_per_s", true },
	[MET_CLAT_P50] = { "clat_p50", "clat p50", "us", 1000.0, "ns", false },
	[MET_CLAT_P99] = { "clat_p99", "clat p99", "us", 1000.0, "ns", false },
	[MET_CLAT_P999] = { "clat_p99.9", "clat p99.9", "us", 1000.0, "ns", false },
	[MET_LAT_SCHED_P99] = { "lat_sched_p99", "lat_sched p99", "us", 1000.0, "ns", false },
	[MET_IO_TIME_PER_IO] = { "io_time_per_io", "time per I/O less CPU wait", "us", 1000.0, "ns", false },
};

#define METRIC_NAMES "iops, bw, clat_p50, clat_p99, clat_p99.9, lat_sched_p99, io_time_per_io"

int metric_parse_list(const char *list, unsigned *mask, struct iop_err *err)
{
	char buf[256], *tok, *save = NULL;
	unsigned i;

	if (!list || strlen(list) >= sizeof(buf))
		return iop_errf(err, -EINVAL, "--metric: give a comma list of " METRIC_NAMES);
	strcpy(buf, list);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < MET_NR && strcmp(tok, metric_table[i].name); i++)
			;
		if (i == MET_NR)
			return iop_errf(err, -EINVAL,
					"--metric: unknown metric '%s' (accepted: " METRIC_NAMES ")",
					tok);
		*mask |= 1u << i;
	}
	if (!*mask)
		return iop_errf(err, -EINVAL, "--metric: empty list (accepted: " METRIC_NAMES ")");
	return 0;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A percentile from {"percentile": {"50.000000": v}}, scaled to ns. */
static double pct(const json_t *lat, double p, double to_ns)
{
	const json_t *pcts = json_object_get(lat, "percentile");
	char key[32];
	double v;

	snprintf(key, sizeof(key), "%f", p);
	v = num(pcts, key);
	return isnan(v) ? NAN : v * to_ns;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	default:
		return "a number";
	}
}

static bool typed(const json_t *o, const char *dir, const char *key, bool number, char *what,
		  size_t len)
{
	const json_t *v = json_object_get(o, key);

	/* a count, a rate or a size: a finite number, never below zero */
	if (v && number && json_is_number(v) &&
	    !(isfinite(json_number_value(v)) && json_number_value(v) >= 0)) {
		snprintf(what, len, "%s%s%s is %g, not a count or rate (0 or more)", dir ? dir : "",
			 dir ? "." : "", key, json_number_value(v));
		return false;
	}
	if (!v || (number ? json_is_number(v) : json_is_object(v)))
		return true;
	snprintf(what, len, "%s%s%s is %s, not %s", dir ? dir : "", dir ? "." : "", key,
		 type_name(v), number ? "a number" : "an object");
	return false;
}

bool metrics_check_job(const json_t *job, char *what, size_t len)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	static const char *const nums[] = { "iops", "bw_bytes", "bw", "total_ios", "io_bytes" };
	static const char *const lats[] = { "clat_ns", "clat" };
	const json_t *e = json_object_get(job, "error");
	unsigned d, i;

	if (e && !json_is_integer(e)) {
		snprintf(what, len, "error is %s, not an integer", type_name(e));
		return false;
	}
	for (d = 0; d < 3; d++) {
		const json_t *dir = json_object_get(job, dirs[d]);

		if (!typed(job, NULL, dirs[d], false, what, len))
			return false;
		for (i = 0; dir && i < sizeof(nums) / sizeof(nums[0]); i++)
			if (!typed(dir, dirs[d], nums[i], true, what, len))
				return false;
		for (i = 0; dir && i < 2; i++) {
			const json_t *lat = json_object_get(dir, lats[i]), *pcts, *v;
			const char *k;
			char where[64];

			if (!typed(dir, dirs[d], lats[i], false, what, len))
				return false;
			if (!lat)
				continue;
			snprintf(where, sizeof(where), "%s.%s", dirs[d], lats[i]);
			if (!typed(lat, where, "percentile", false, what, len))
				return false;
			pcts = json_object_get(lat, "percentile");
			json_object_foreach((json_t *)pcts, k, v)
				if (!json_is_number(v) || json_number_value(v) < 0) {
					snprintf(what, len, "%s.percentile.%s is %s, not a latency (a number, 0 or more)",
						 where, k, json_is_number(v) ? "negative" : type_name(v));
					return false;
				}
		}
	}
	return true;
}

/* The direction that did the most I/Os, and whether it did any I/O at all. */
static const json_t *busiest_dir(const json_t *job, double *iops, double *bw, bool *any)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	const json_t *busiest = NULL;
	double most = 0;
	unsigned d;

	*iops = *bw = 0;
	*any = false;
	if (!json_is_object(job))
		return NULL;
	for (d = 0; d < 3; d++) {
		const json_t *dir = json_object_get(job, dirs[d]);
		double x, ios;

		if (!json_is_object(dir))
			continue;
		x = num(dir, "iops");
		if (!isnan(x)) {
			*iops += x;
			*any = true;
		}
		x = num(dir, "bw_bytes");
		if (isnan(x))
			x = num(dir, "bw") * 1024;	/* fio before bw_bytes: KiB/s */
		if (!isnan(x))
			*bw += x;
		ios = num(dir, "total_ios");
		if (isnan(ios))
			ios = num(dir, "io_bytes");
		if (!isnan(ios) && ios > most) {
			most = ios;
			busiest = dir;
		}
	}
	return busiest;
}

const json_t *metrics_lat_sched(const json_t *job)
{
	const json_t *dir, *lat;
	double iops, bw;
	bool any;

	dir = busiest_dir(job, &iops, &bw, &any);
	lat = dir ? json_object_get(dir, "lat_sched_ns") : NULL;
	return json_is_object(lat) ? lat : NULL;
}

const json_t *metrics_clat(const json_t *job, double *to_ns)
{
	const json_t *dir, *lat;
	double iops, bw;
	bool any;

	dir = busiest_dir(job, &iops, &bw, &any);
	if (!dir)
		return NULL;
	lat = json_object_get(dir, "clat_ns");
	*to_ns = 1;
	if (json_is_object(lat))
		return lat;
	lat = json_object_get(dir, "clat");	/* fio 2.x: microseconds */
	*to_ns = 1000;
	return json_is_object(lat) ? lat : NULL;
}

double metrics_clat_count(const json_t *job)
{
	double iops, bw, to_ns, n;
	const json_t *dir;
	bool any;

	dir = busiest_dir(job, &iops, &bw, &any);
	if (!dir)
		return NAN;
	n = num(metrics_clat(job, &to_ns), "N");
	return isnan(n) ? num(dir, "total_ios") : n;
}

double metrics_percentile(const json_t *lat, double p, double to_ns)
{
	return pct(lat, p, to_ns);
}

static double machine_num(const json_t *m, const char *key)
{
	const json_t *v = json_object_get(m, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* (workers_s - workers_runq_wait_s) / own_ios in ns; NAN unless all three are recorded */
static double io_time_per_io(const json_t *job)
{
	const json_t *m = json_object_get(json_object_get(job, "iopath"), "machine");
	double ws = machine_num(m, "workers_s"), wait = machine_num(m, "workers_runq_wait_s"),
	       ios = machine_num(m, "own_ios");

	if (!(ios > 0) || !(ws > 0) || !(wait >= 0) || wait >= ws)
		return NAN;
	return 1e9 * (ws - wait) / ios;
}

void metrics_from_job(const json_t *job, double v[MET_NR])
{
	const json_t *lat;
	double iops, bw, to_ns;
	bool any;
	unsigned i;

	for (i = 0; i < MET_NR; i++)
		v[i] = NAN;
	busiest_dir(job, &iops, &bw, &any);
	if (!any)
		return;
	v[MET_IOPS] = iops;
	v[MET_BW] = bw;
	v[MET_IO_TIME_PER_IO] = io_time_per_io(job);
	lat = metrics_lat_sched(job);
	if (lat)
		v[MET_LAT_SCHED_P99] = pct(lat, 99.0, 1);
	lat = metrics_clat(job, &to_ns);
	if (!lat)
		return;
	v[MET_CLAT_P50] = pct(lat, 50.0, to_ns);
	v[MET_CLAT_P99] = pct(lat, 99.0, to_ns);
	v[MET_CLAT_P999] = pct(lat, 99.9, to_ns);
}

void metrics_bound_text(char *buf, size_t len, double lo, double hi)
{
	bool drop = isinf(lo) && lo < 0;
	double v = drop ? hi : lo;

	if (isnan(lo) || isnan(hi) || (isinf(lo) && isinf(hi)))
		snprintf(buf, len, "-");
	else if (!(fabs(v) < METRICS_BOUND_MAX))
		snprintf(buf, len, "%s unbounded", drop ? "<=" : ">=");
	else
		snprintf(buf, len, "%s %+.1f%%", drop ? "<=" : ">=", 100 * v);
}
