/*
 * explain: from a result's cells, per target, what limits the path: a queue-depth ladder
 * (Little's law: IOPS x mean latency = requests in flight) tells serialized from
 * latency-bound from device-bound; the worker's CPU time tells cpu-bound; the probe's
 * O_DIRECT honesty check and buffered-vs-direct pairs tell cache; synced writes tell
 * sync-bound. Every figure is read from the cells' fio-shaped job objects, so any input
 * that loads as a result (sweep, suite, run, fio's JSON) can be explained.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iopath/engine.h"
#include "results/explain.h"
#include "stats/rstats.h"

#define MEMORY_SPEED_US	20.0	/* a request faster than this waited on nothing outside memory */
#define CPU_HIGH	85.0	/* percent of one CPU per worker: the worker is the limit */
#define CPU_MEDIUM	60.0
#define LARGE_BS	(256 * 1024)	/* a read this large or larger tells bandwidth */
#define SLOW_CACHE_US	500.0	/* a cache this far away is not what the figures measure */
#define NEAR_CACHE_US	100.0	/* reads this fast from a cache: the figures are the cache's */
#define MIN_RUNTIME_S	0.1	/* shorter cells' figures are noise (a metadata phase, a tiny dd) */
#define MIN_SYNCS	5	/* syncs per cell to judge their cost (end_fsync's one is a flush) */

static const char *const code_names[EXPLAIN_NR] = {
	[EXPLAIN_CACHE] = "cache",
	[EXPLAIN_SYNC] = "sync-bound",
	[EXPLAIN_SERIALIZED] = "serialized",
	[EXPLAIN_CPU] = "cpu-bound",
	[EXPLAIN_DEVICE] = "device-bound",
	[EXPLAIN_LATENCY] = "latency-bound",
	[EXPLAIN_NO_DATA] = "not-enough-data",
};

static const char *const conf_names[] = { "low", "medium", "high" };

const char *explain_code_name(enum explain_code c)
{
	return c < EXPLAIN_NR ? code_names[c] : "?";
}

const char *explain_conf_name(enum explain_conf c)
{
	return c <= EXPLAIN_HIGH ? conf_names[c] : "?";
}

/* The figures of one cell: medians over its samples. */
enum {
	F_IOPS, F_LAT, F_BW, F_BS, F_USR, F_SYS, F_KT, F_SYNCS, F_SYNC_LAT, F_RUNTIME,
	F_NR,
};

struct point {
	const struct cell *cell;
	char target[128];
	char engine[32];
	bool read;		/* the direction with the most I/Os */
	bool async;		/* the engine keeps several requests in flight */
	bool direct;
	unsigned qd, numjobs;
	double f[F_NR];
};

struct target_pts {
	char name[128];
	const json_t *target;	/* the result's target entry, or NULL */
	struct point **p;
	unsigned n;
};

struct finding {
	enum explain_code code;
	enum explain_conf conf;
	bool write;		/* about the write (and sync) path, else the read path */
	char summary[600];
	json_t *evidence;
	json_t *cells;
};

struct verdicts {
	struct finding f[EXPLAIN_NR];
	unsigned n;
	json_t *notes, *missing;
};

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A time the probe measured (key in ns) in us; NAN where it timed nothing (0: not measured). */
static double probe_time_us(const json_t *probe, const char *key)
{
	double ns = num(probe, key);

	return ns > 0 ? ns / 1e3 : NAN;
}

static double num2(const json_t *o, const char *a, const char *b)
{
	return num(json_object_get(o, a), b);
}

/*
 * A job option as a string: the job's own, else the cell's identity (fio's global options
 * are there, and a sweep's dimensions, some under their own names: engine for ioengine).
 */
static const char *option(const json_t *job, const struct cell *c, const char *key,
			  const char *id_key)
{
	const char *v = str(json_object_get(job, "job options"), key);

	if (!v)
		v = str(c->identity, key);
	return v || !id_key ? v : str(c->identity, id_key);
}

static bool truthy(const char *v)
{
	return v && *v && strcmp(v, "0") && strcmp(v, "false");
}

static void sample_figures(const json_t *job, double f[F_NR])
{
	const json_t *rd = json_object_get(job, "read"), *wr = json_object_get(job, "write");
	const json_t *d, *kt = json_object_get(json_object_get(job, "iopath"), "kernel_threads");
	double ios_r = num(rd, "total_ios"), ios_w = num(wr, "total_ios"), ios;

	d = !(ios_w > ios_r) ? rd : wr;
	ios = num(d, "total_ios");
	f[F_IOPS] = num(d, "iops");
	f[F_LAT] = num2(d, "lat_ns", "mean");
	if (isnan(f[F_LAT]))
		f[F_LAT] = num2(d, "clat_ns", "mean");
	f[F_BW] = num(d, "bw_bytes");
	f[F_BS] = ios > 0 ? num(d, "io_bytes") / ios : NAN;
	f[F_USR] = num(job, "usr_cpu");
	f[F_SYS] = num(job, "sys_cpu");
	f[F_KT] = kt ? num(kt, "usr_cpu") + num(kt, "sys_cpu") : NAN;
	f[F_SYNCS] = num2(job, "sync", "total_ios");
	f[F_SYNC_LAT] = num(json_object_get(json_object_get(job, "sync"), "lat_ns"), "mean");
	f[F_RUNTIME] = num(job, "job_runtime") / 1e3;
}

/* Which way the busiest sample moved data: reads, unless writes did more. */
static bool sample_reads(const json_t *job)
{
	return !(num2(job, "write", "total_ios") > num2(job, "read", "total_ios"));
}

static double median_of(double *x, unsigned n)
{
	struct rsummary s;
	unsigned i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(x[i]))
			x[k++] = x[i];
	return k && !rstats_summary(x, k, &s) ? s.median : NAN;
}

/* The directory a job ran in: iopath's record of its targets, else its filename's. */
static void job_dir(const json_t *job, char *out, size_t len)
{
	const char *d = json_string_value(json_array_get(
		json_object_get(json_object_get(job, "iopath"), "targets"), 0));
	const char *f = str(json_object_get(job, "job options"), "filename");
	const char *slash;

	out[0] = '\0';
	if (d) {
		snprintf(out, len, "%s", d);
	} else if ((d = str(json_object_get(job, "job options"), "directory"))) {
		snprintf(out, len, "%s", d);
	} else if (f && (slash = strrchr(f, '/'))) {
		snprintf(out, len, "%.*s", (int)(slash - f), f);
	}
}

/* The target a cell belongs to: its identity's, else the result's target holding its dir. */
static void point_target(const struct results *r, const struct cell *c, const json_t *job,
			 char *out, size_t len)
{
	const char *t = str(c->identity, "target");
	char dir[PATH_MAX];
	size_t i, best = 0;
	const json_t *e;

	if (t) {
		snprintf(out, len, "%s", t);
		return;
	}
	job_dir(job, dir, sizeof(dir));
	snprintf(out, len, "%s", dir[0] ? dir : "(unnamed)");
	json_array_foreach(r->targets, i, e) {
		const char *p = str(e, "path"), *role = str(e, "role");
		size_t n = p ? strlen(p) : 0;

		if (n && role && n > best && !strncmp(dir, p, n) && (!dir[n] || dir[n] == '/')) {
			snprintf(out, len, "%s", role);
			best = n;
		}
	}
}

static bool engine_async(const char *name, unsigned qd, double inflight)
{
	const struct engine_entry *e = name ? engine_find(name) : NULL;

	if (e)
		return !(e->ops->flags & ENGINE_SYNC);
	return qd > 1 && inflight > 1.5;
}

static int make_point(const struct results *r, const struct cell *c, struct point *p)
{
	double vals[F_NR][64];
	const json_t *job = json_array_get(c->samples, 0);
	const char *v;
	unsigned i, k, n = c->nr < 64 ? c->nr : 64;

	if (c->status != CELL_OK || !n || !json_is_object(job))
		return -ENODATA;
	memset(p, 0, sizeof(*p));
	p->cell = c;
	for (i = 0; i < n; i++) {
		double f[F_NR];

		sample_figures(json_array_get(c->samples, i), f);
		for (k = 0; k < F_NR; k++)
			vals[k][i] = f[k];
	}
	for (k = 0; k < F_NR; k++)
		p->f[k] = median_of(vals[k], n);
	if (!(p->f[F_IOPS] > 0) || !(p->f[F_LAT] > 0) || p->f[F_RUNTIME] < MIN_RUNTIME_S)
		return -ENODATA;
	/* a copy's reads and writes are one request stream each way: not one path's requests */
	v = option(job, c, "rw", NULL);
	if (v && !strcmp(v, "copy"))
		return -ENODATA;
	point_target(r, c, job, p->target, sizeof(p->target));
	v = option(job, c, "ioengine", "engine");
	if (!v)
		v = str(json_object_get(job, "iopath"), "engine");
	snprintf(p->engine, sizeof(p->engine), "%s", v ? v : engine_default);
	p->read = sample_reads(job);
	v = option(job, c, "iodepth", NULL);
	p->qd = v ? (unsigned)strtoul(v, NULL, 10) : 1;
	p->qd = p->qd ? p->qd : 1;
	v = option(job, c, "numjobs", NULL);
	p->numjobs = v ? (unsigned)strtoul(v, NULL, 10) : 1;
	if (num(json_object_get(job, "iopath"), "workers") >= 1)
		p->numjobs = (unsigned)num(json_object_get(job, "iopath"), "workers");
	p->numjobs = p->numjobs ? p->numjobs : 1;
	v = option(job, c, "direct", NULL);
	p->direct = v ? truthy(v) : json_is_true(json_object_get(json_object_get(job, "iopath"),
								  "direct"));
	p->async = engine_async(p->engine, p->qd, p->f[F_IOPS] * p->f[F_LAT] / 1e9);
	/* a synchronous engine has one request in flight whatever iodepth says (as in fio) */
	if (!p->async && engine_find(p->engine))
		p->qd = 1;
	return 0;
}

static double inflight(const struct point *p)
{
	return p->f[F_IOPS] * p->f[F_LAT] / 1e9;
}

static double lat_us(const struct point *p)
{
	return p->f[F_LAT] / 1e3;
}

static double cpu_pct(const struct point *p)
{
	double u = isnan(p->f[F_USR]) ? 0 : p->f[F_USR], s = isnan(p->f[F_SYS]) ? 0 : p->f[F_SYS];

	if (isnan(p->f[F_USR]) && isnan(p->f[F_SYS]))
		return NAN;
	return (u + s) / p->numjobs;
}

static json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static void add_cell_key(json_t *cells, const struct point *p)
{
	size_t i;
	json_t *e;

	json_array_foreach(cells, i, e)
		if (!strcmp(json_string_value(e), p->cell->key))
			return;
	json_array_append_new(cells, json_string(p->cell->key));
}

static struct finding *add_finding(struct verdicts *v, enum explain_code code,
				   enum explain_conf conf)
{
	struct finding *f = &v->f[v->n++];

	f->code = code;
	f->conf = conf;
	f->evidence = json_object();
	f->cells = json_array();
	return f;
}

static void note(json_t *list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(json_t *list, const char *fmt, ...)
{
	char buf[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(list, json_string(buf));
}

/* ---- the queue-depth ladder ---- */

struct ladder {
	struct point *p[16];
	unsigned n;
	bool borrowed;		/* its QD1 point is another engine's (a sync engine at QD1) */
};

static bool same_shape(const struct point *a, const struct point *b)
{
	return a->read == b->read && a->direct == b->direct && a->numjobs == b->numjobs &&
	       fabs(a->f[F_BS] - b->f[F_BS]) < 1;
}

static void ladder_add(struct ladder *l, struct point *p)
{
	unsigned i, k;

	for (i = 0; i < l->n; i++)
		if (l->p[i]->qd == p->qd) {
			/* the same depth twice (other sizes or runtimes): keep the better measured */
			if (p->cell->nr > l->p[i]->cell->nr)
				l->p[i] = p;
			return;
		}
	if (l->n == sizeof(l->p) / sizeof(l->p[0]))
		return;
	for (i = 0; i < l->n && l->p[i]->qd < p->qd; i++)
		;
	for (k = l->n; k > i; k--)
		l->p[k] = l->p[k - 1];
	l->p[i] = p;
	l->n++;
}

static bool ladder_usable(const struct ladder *l)
{
	return l->n >= 2 && l->p[l->n - 1]->qd >= 4 * l->p[0]->qd;
}

/* Better ladder: more depths, reads, 4 KiB-ish, direct. */
static bool ladder_better(const struct ladder *a, const struct ladder *b)
{
	const struct point *x = a->p[0], *y = b->p[0];

	if (a->n != b->n)
		return a->n > b->n;
	if (x->read != y->read)
		return x->read;
	if (fabs(x->f[F_BS] - 4096) != fabs(y->f[F_BS] - 4096))
		return fabs(x->f[F_BS] - 4096) < fabs(y->f[F_BS] - 4096);
	return x->direct && !y->direct;
}

static bool find_ladder(const struct target_pts *t, struct ladder *best)
{
	unsigned i, k;
	bool found = false;

	for (i = 0; i < t->n; i++) {
		struct point *s = t->p[i];
		struct ladder l = { .n = 0 };

		if (!s->async)
			continue;
		for (k = 0; k < t->n; k++) {
			struct point *q = t->p[k];

			if (q->async && !strcmp(q->engine, s->engine) && same_shape(q, s))
				ladder_add(&l, q);
		}
		/* no QD1 with this engine: a synchronous engine's QD1 is the same measurement */
		if (l.n && l.p[0]->qd > 1) {
			for (k = 0; k < t->n; k++) {
				struct point *q = t->p[k];

				if (q->qd == 1 && same_shape(q, s)) {
					ladder_add(&l, q);
					l.borrowed = true;
					break;
				}
			}
		}
		if (ladder_usable(&l) && (!found || ladder_better(&l, best))) {
			*best = l;
			found = true;
		}
	}
	return found;
}

/* The largest read of the target, for bandwidth. */
static const struct point *large_read(const struct target_pts *t, bool direct)
{
	const struct point *best = NULL;
	unsigned i;

	for (i = 0; i < t->n; i++) {
		const struct point *p = t->p[i];

		if (!p->read || !(p->f[F_BS] >= LARGE_BS))
			continue;
		if (!best || (p->direct == direct && best->direct != direct) ||
		    (p->direct == best->direct && p->f[F_BW] > best->f[F_BW]))
			best = p;
	}
	return best;
}

static void ladder_evidence(struct finding *f, const struct ladder *l, const struct point *big)
{
	const struct point *lo = l->p[0], *hi = l->p[l->n - 1];
	json_t *e = f->evidence, *steps = json_array();
	double limit = 0, limit_bw = 0;
	unsigned i;

	for (i = 0; i < l->n; i++) {
		const struct point *p = l->p[i];

		json_array_append_new(steps, json_pack("{s:i,s:o,s:o,s:o,s:s}", "iodepth", p->qd,
						       "iops", jnum(p->f[F_IOPS]), "lat_us",
						       jnum(lat_us(p)), "inflight", jnum(inflight(p)),
						       "engine", p->engine));
		if (p->f[F_IOPS] > limit) {
			limit = p->f[F_IOPS];
			limit_bw = p->f[F_BW];
		}
		add_cell_key(f->cells, p);
	}
	json_object_update_new(e, json_pack("{s:s,s:s,s:o,s:b,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:n,s:o,s:o,s:o,s:o,s:o}",
		"engine", hi->engine, "rw", lo->read ? "read" : "write", "bs", jnum(lo->f[F_BS]),
		"direct", lo->direct, "numjobs", (int)lo->numjobs, "ladder", steps, "iops_gain",
		jnum(hi->f[F_IOPS] / lo->f[F_IOPS]), "depth_ratio", jnum((double)hi->qd / lo->qd),
		"lat_growth", jnum(hi->f[F_LAT] / lo->f[F_LAT]), "little_ratio",
		jnum(inflight(hi) / ((double)hi->qd * hi->numjobs)), "qd1_lat_us", jnum(lat_us(lo)),
		"flatten_iodepth", "limit_iops", jnum(limit), "limit_mib_s", jnum(limit_bw / 1048576.0),
		"large_bs", big ? jnum(big->f[F_BS]) : json_null(), "large_mib_s",
		big ? jnum(big->f[F_BW] / 1048576.0) : json_null(), "large_lat_us",
		big ? jnum(lat_us(big)) : json_null()));
	if (big)
		add_cell_key(f->cells, big);
}

/* A 1 MiB read's latency against the small one's: per-request cost or bandwidth. */
static void large_note(struct verdicts *v, const struct point *lo, const struct point *big)
{
	double r = big->f[F_LAT] / lo->f[F_LAT], d = big->f[F_BS] / lo->f[F_BS];

	note(v->notes, "%.0f KiB reads: %.1f MiB/s at %.0f us each, %.1fx the %.0f KiB latency for %.0fx the data: %s",
	     big->f[F_BS] / 1024, big->f[F_BW] / 1048576.0, lat_us(big), r, lo->f[F_BS] / 1024, d,
	     r < d / 4 ? "the cost is per request, not per byte (large requests amortise it)" :
			 "the cost grows with the bytes moved: bandwidth, not round trips, limits large I/O");
}

/* IOPS flat over the ladder, not at memory speed: serialized, unless a point between the ends scaled. */
static void flat_ladder(struct verdicts *v, const struct ladder *l, const struct point *big,
			double growth, double little)
{
	const struct point *lo = l->p[0], *hi = l->p[l->n - 1], *peak = lo;
	double gain = hi->f[F_IOPS] / lo->f[F_IOPS], dr = (double)hi->qd / lo->qd;
	bool held = little >= 0.6;
	struct finding *f;
	unsigned i;

	for (i = 1; i < l->n; i++)
		if (l->p[i]->f[F_IOPS] > peak->f[F_IOPS])
			peak = l->p[i];
	if (peak->f[F_IOPS] >= 1.5 * lo->f[F_IOPS]) {
		/* a deeper point did scale: the flat ends are the machine changing, not the path */
		note(v->notes, "IOPS reached %.0f at iodepth %u (%.2fx those at %u) yet were %.0f at %u (%.2fx): the ladder is inconsistent (load changed between its cells?), so serialized is not claimed",
		     peak->f[F_IOPS], peak->qd, peak->f[F_IOPS] / lo->f[F_IOPS], lo->qd,
		     hi->f[F_IOPS], hi->qd, gain);
		return;
	}
	if (held && growth < 0.5 * dr) {
		/* in flight, yet not slower and not faster: the cells disagree with themselves */
		note(v->notes, "IOPS flat from iodepth %u to %u (%.2fx) but latency grew only %.1fx: the ladder is inconsistent (a noisy run?)",
		     lo->qd, hi->qd, gain, growth);
		return;
	}
	f = add_finding(v, EXPLAIN_SERIALIZED, held && gain < 1.2 && dr >= 8 && little >= 0.8 &&
			little <= 1.25 && growth >= 0.7 * dr ? EXPLAIN_HIGH : EXPLAIN_MEDIUM);
	f->write = !lo->read;
	ladder_evidence(f, l, big);
	if (held)
		snprintf(f->summary, sizeof(f->summary),
			 "requests are handled one at a time: %.0f IOPS at iodepth %u and %.0f at %u (%.2fx) while mean latency grows %.0f -> %.0f us (%.1fx for %.0fx the depth); IOPS x latency = %.1f in flight of %u (Little's law holds: they waited in a queue)",
			 lo->f[F_IOPS], lo->qd, hi->f[F_IOPS], hi->qd, gain, lat_us(lo), lat_us(hi),
			 growth, dr, inflight(hi), hi->qd * hi->numjobs);
	else
		snprintf(f->summary, sizeof(f->summary),
			 "requests are handled one at a time: %.0f IOPS at iodepth %u and %.0f at %u (%.2fx), and IOPS x latency = %.1f in flight of %u asked: each submission completes before the next is taken",
			 lo->f[F_IOPS], lo->qd, hi->f[F_IOPS], hi->qd, gain, inflight(hi),
			 hi->qd * hi->numjobs);
}

static void analyse_ladder(struct verdicts *v, const struct target_pts *t)
{
	struct ladder l;
	const struct point *lo, *hi, *big;
	double gain, dr, growth, little, lo_us;
	unsigned i, flat_at = 0;
	struct finding *f;

	if (!find_ladder(t, &l)) {
		note(v->missing, "no queue-depth ladder (iodepth 1 and 4 or more, one async engine, the same rw and bs): serialized, latency-bound and device-bound cannot be told; --explain runs io_uring at 1/4/16/64");
		return;
	}
	lo = l.p[0];
	hi = l.p[l.n - 1];
	big = large_read(t, lo->direct);
	gain = hi->f[F_IOPS] / lo->f[F_IOPS];
	dr = (double)hi->qd / lo->qd;
	growth = hi->f[F_LAT] / lo->f[F_LAT];
	little = inflight(hi) / ((double)hi->qd * hi->numjobs);
	lo_us = lat_us(lo);
	if (l.borrowed)
		note(v->notes, "the ladder's iodepth %u point is ioengine=%s (the same measurement at that depth)",
		     lo->qd, lo->engine);
	if (gain < 1.5 && lo_us < MEMORY_SPEED_US) {
		/* flat at memory speed: nothing outside the CPU to wait for */
		double cpu = cpu_pct(hi);

		f = add_finding(v, EXPLAIN_CPU, EXPLAIN_MEDIUM);
		f->write = !lo->read;
		json_object_update_new(f->evidence, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:i,s:s,s:b}",
			"cpu_pct", jnum(cpu), "usr_pct", jnum(hi->f[F_USR] / hi->numjobs), "sys_pct",
			jnum(hi->f[F_SYS] / hi->numjobs), "sqpoll_pct", jnum(hi->f[F_KT]), "cpu_us_per_io",
			jnum(isnan(cpu) ? NAN : cpu / 100 * hi->numjobs / hi->f[F_IOPS] * 1e6), "lat_us",
			jnum(lo_us), "iops", jnum(hi->f[F_IOPS]), "iodepth", (int)hi->qd, "engine",
			hi->engine, "memory_speed", 1));
		for (i = 0; i < l.n; i++)
			add_cell_key(f->cells, l.p[i]);
		snprintf(f->summary, sizeof(f->summary),
			 "memory speed: %.1f us per request at iodepth %u, and %.0f IOPS at %u are %.2fx those at %u: nothing outside the CPU is waited for, each request is CPU work (the worker was on a CPU %.0f%% of the time)",
			 lo_us, lo->qd, hi->f[F_IOPS], hi->qd, gain, lo->qd, isnan(cpu) ? 0 : cpu);
		return;
	}
	if (gain < 1.5) {
		flat_ladder(v, &l, big, growth, little);
		return;
	}
	/* IOPS scale: how far? A step holds while it gives half of what the depth promised */
	for (i = 1; i < l.n; i++) {
		double step = l.p[i]->f[F_IOPS] / l.p[i - 1]->f[F_IOPS];
		double sd = (double)l.p[i]->qd / l.p[i - 1]->qd;

		if (step < 0.5 * sd) {
			flat_at = i;
			break;
		}
	}
	if (flat_at) {
		const struct point *knee = l.p[flat_at - 1];
		double beyond = hi->f[F_IOPS] / knee->f[F_IOPS];
		double lat_up = hi->f[F_LAT] / knee->f[F_LAT];
		double sd = (double)hi->qd / knee->qd;
		enum explain_conf c = beyond < 1.3 && lat_up >= 0.6 * sd && little >= 0.8 ?
				      EXPLAIN_HIGH : EXPLAIN_MEDIUM;

		f = add_finding(v, EXPLAIN_DEVICE, c);
		f->write = !lo->read;
		ladder_evidence(f, &l, big);
		json_object_set_new(f->evidence, "flatten_iodepth", json_integer(knee->qd));
		if (knee == lo)
			snprintf(f->summary, sizeof(f->summary),
				 "the path's limit is near: IOPS grow only %.2fx from iodepth %u to %u (%.0fx the depth) while mean latency grows %.1fx (%.0f -> %.0f us); %.0f IOPS, %.1f MiB/s is what it gives at %.0f KiB",
				 gain, lo->qd, hi->qd, dr, growth, lo_us, lat_us(hi), hi->f[F_IOPS],
				 hi->f[F_BW] / 1048576.0, lo->f[F_BS] / 1024);
		else
			snprintf(f->summary, sizeof(f->summary),
				 "the path's limit is reached: IOPS scale from %.0f at iodepth %u to %.0f at %u, then only %.2fx more up to %u while mean latency grows %.1fx (%.0f -> %.0f us); %.0f IOPS, %.1f MiB/s is what it gives at %.0f KiB",
				 lo->f[F_IOPS], lo->qd, knee->f[F_IOPS], knee->qd, beyond, hi->qd,
				 lat_up, lat_us(knee), lat_us(hi), hi->f[F_IOPS],
				 hi->f[F_BW] / 1048576.0, lo->f[F_BS] / 1024);
	} else {
		enum explain_conf c = gain >= 0.5 * dr && little >= 0.8 ? EXPLAIN_HIGH : EXPLAIN_MEDIUM;

		f = add_finding(v, EXPLAIN_LATENCY, c);
		f->write = !lo->read;
		ladder_evidence(f, &l, big);
		snprintf(f->summary, sizeof(f->summary),
			 "each request's latency sets the pace: %.0f us at iodepth %u (%.0f IOPS), and IOPS still scale with depth up to %u (%.0f, %.1fx): more requests in flight, or larger ones, go faster",
			 lo_us, lo->qd, lo->f[F_IOPS], hi->qd, hi->f[F_IOPS], gain);
	}
	if (big)
		large_note(v, lo, big);
}

/* ---- the worker's CPU ---- */

static void analyse_cpu(struct verdicts *v, const struct target_pts *t)
{
	const struct point *best = NULL;
	double cpu, per_io;
	unsigned i;
	struct finding *f;

	for (i = 0; i < v->n; i++)
		if (v->f[i].code == EXPLAIN_CPU)
			return;
	for (i = 0; i < t->n; i++) {
		double c = cpu_pct(t->p[i]);

		if (!isnan(c) && (!best || c > cpu_pct(best)))
			best = t->p[i];
	}
	if (!best) {
		note(v->missing, "no CPU figures (usr_cpu, sys_cpu): cpu-bound cannot be told");
		return;
	}
	cpu = cpu_pct(best);
	per_io = cpu / 100 * best->numjobs / best->f[F_IOPS] * 1e6;
	if (cpu < CPU_MEDIUM) {
		note(v->notes, "the worker used at most %.1f%% of a CPU (%.1f us of CPU per request, ioengine=%s iodepth=%u): not cpu-bound",
		     cpu, per_io, best->engine, best->qd);
		return;
	}
	f = add_finding(v, EXPLAIN_CPU, cpu >= CPU_HIGH ? EXPLAIN_HIGH : EXPLAIN_MEDIUM);
	f->write = !best->read;
	json_object_set_new(f->evidence, "cpu_pct", jnum(cpu));
	json_object_set_new(f->evidence, "usr_pct", jnum(best->f[F_USR] / best->numjobs));
	json_object_set_new(f->evidence, "sys_pct", jnum(best->f[F_SYS] / best->numjobs));
	json_object_set_new(f->evidence, "sqpoll_pct", jnum(best->f[F_KT]));
	json_object_set_new(f->evidence, "cpu_us_per_io", jnum(per_io));
	json_object_set_new(f->evidence, "lat_us", jnum(lat_us(best)));
	json_object_set_new(f->evidence, "iops", jnum(best->f[F_IOPS]));
	json_object_set_new(f->evidence, "iodepth", json_integer(best->qd));
	json_object_set_new(f->evidence, "engine", json_string(best->engine));
	json_object_set_new(f->evidence, "memory_speed", json_boolean(lat_us(best) < MEMORY_SPEED_US));
	add_cell_key(f->cells, best);
	snprintf(f->summary, sizeof(f->summary),
		 "the worker thread is busy %.0f%% of the time (user %.0f%%, kernel %.0f%%%s): the path costs %.1f us of CPU per request (ioengine=%s iodepth=%u, %.0f IOPS)",
		 cpu, best->f[F_USR] / best->numjobs, best->f[F_SYS] / best->numjobs,
		 isnan(best->f[F_KT]) ? "" : ", SQPOLL thread besides", per_io, best->engine,
		 best->qd, best->f[F_IOPS]);
}

/* ---- caches ---- */

static const json_t *target_probe(const struct target_pts *t)
{
	return t->target ? json_object_get(t->target, "probe") : NULL;
}

/* A read cell of the other direct setting, same engine, size and depth. */
static bool find_pair(const struct target_pts *t, const struct point **buf,
		      const struct point **dir)
{
	unsigned i, k;

	for (i = 0; i < t->n; i++) {
		const struct point *d = t->p[i];

		if (!d->read || !d->direct)
			continue;
		for (k = 0; k < t->n; k++) {
			const struct point *b = t->p[k];

			if (b->read && !b->direct && b->qd == d->qd && b->numjobs == d->numjobs &&
			    fabs(b->f[F_BS] - d->f[F_BS]) < 1 && !strcmp(b->engine, d->engine)) {
				*buf = b;
				*dir = d;
				return true;
			}
		}
	}
	return false;
}

static void analyse_cache(struct verdicts *v, const struct target_pts *t)
{
	const json_t *probe = target_probe(t);
	const char *honest = probe ? str(probe, "direct_honoured") : NULL;
	const char *cls = probe ? str(probe, "fs_class") : NULL;
	const char *why = probe && str(probe, "direct_evidence") && *str(probe, "direct_evidence") ?
			  str(probe, "direct_evidence") : NULL;
	const struct point *b = NULL, *d = NULL;
	bool pair = find_pair(t, &b, &d);
	double ratio = pair ? b->f[F_IOPS] / d->f[F_IOPS] : NAN;
	bool probe_says = (honest && !strcmp(honest, "false")) || (cls && !strcmp(cls, "memory"));
	bool pair_says = pair && lat_us(d) < MEMORY_SPEED_US && ratio < 2 && ratio > 0.5;
	struct finding *f;
	double slow_us;
	bool slow;

	if (!probe_says && !pair_says) {
		if (pair && ratio >= 2)
			note(v->notes, "buffered reads are %.1fx as fast as direct ones (%.0f against %.0f IOPS): the page cache serves buffered reads, direct ones reach the storage",
			     ratio, b->f[F_IOPS], d->f[F_IOPS]);
		if (honest && !strcmp(honest, "true"))
			note(v->notes, "the probe's O_DIRECT honesty check: %s", why ? why : "passed");
		else if (!pair)
			note(v->missing, "cache: the probe's O_DIRECT honesty check did not decide and no buffered/direct pair of read cells was measured");
		return;
	}
	/* a "cache" behind a round trip of a millisecond is not what the figures measure */
	/* the probe's fastest reads (6th percentile) when it saw the cache: a busy machine's stalls are not in them */
	slow_us = probe_says && probe && num(probe, "direct_data_read_ns") > 0 ?
		  num(probe, "direct_data_read_ns") / 1e3 : pair ? lat_us(d) : NAN;
	slow = slow_us >= SLOW_CACHE_US;
	f = add_finding(v, EXPLAIN_CACHE, slow ? EXPLAIN_LOW :
			probe_says && !(slow_us > NEAR_CACHE_US) ? EXPLAIN_HIGH : EXPLAIN_MEDIUM);
	json_object_set_new(f->evidence, "source", json_string(probe_says ? "probe" : "buffered-vs-direct"));
	json_object_set_new(f->evidence, "direct_honoured", honest ? json_string(honest) : json_null());
	json_object_set_new(f->evidence, "probe_evidence", why ? json_string(why) : json_null());
	json_object_set_new(f->evidence, "direct_data_read_us", jnum(probe_time_us(probe, "direct_data_read_ns")));
	json_object_set_new(f->evidence, "direct_hole_read_us", jnum(probe_time_us(probe, "direct_hole_read_ns")));
	json_object_set_new(f->evidence, "buffered_iops", jnum(pair ? b->f[F_IOPS] : NAN));
	json_object_set_new(f->evidence, "direct_iops", jnum(pair ? d->f[F_IOPS] : NAN));
	json_object_set_new(f->evidence, "buffered_to_direct", jnum(ratio));
	json_object_set_new(f->evidence, "direct_lat_us", jnum(pair ? lat_us(d) : NAN));
	if (pair) {
		add_cell_key(f->cells, b);
		add_cell_key(f->cells, d);
	}
	if (slow)
		snprintf(f->summary, sizeof(f->summary),
			 "direct reads are answered from a cache below the path (%s), but each still takes %.0f us: the round trip to it, not the cache, is what the figures measure",
			 why ? why : "the probe's honesty check", slow_us);
	else if (probe_says && pair)
		snprintf(f->summary, sizeof(f->summary),
			 "reads come from a cache or memory, not the storage: %s; direct reads %.1f us, buffered/direct %.2fx",
			 why ? why : cls && !strcmp(cls, "memory") ? "memory-backed filesystem" : "the probe's O_DIRECT honesty check found a cache", lat_us(d), ratio);
	else if (probe_says)
		snprintf(f->summary, sizeof(f->summary),
			 "reads come from a cache or memory, not the storage: %s",
			 why ? why : cls && !strcmp(cls, "memory") ? "memory-backed filesystem" : "the probe's O_DIRECT honesty check found a cache");
	else
		snprintf(f->summary, sizeof(f->summary),
			 "\"direct\" reads are as fast as buffered ones (%.0f against %.0f IOPS, %.1f us each): a cache answers them, the figures measure memory",
			 d->f[F_IOPS], b->f[F_IOPS], lat_us(d));
}

/* ---- syncs ---- */

static void analyse_sync(struct verdicts *v, const struct target_pts *t)
{
	const json_t *probe = target_probe(t);
	double probe_us = probe ? num(probe, "fsync_ns") / 1e3 : NAN;
	const struct point *best = NULL;
	double share, sync_us, wps;
	enum explain_conf c;
	struct finding *f;
	unsigned i;

	for (i = 0; i < t->n; i++) {
		const struct point *p = t->p[i];

		if (!p->read && p->f[F_SYNCS] >= MIN_SYNCS && p->f[F_SYNC_LAT] > 0 &&
		    (!best || p->f[F_SYNCS] > best->f[F_SYNCS]))
			best = p;
	}
	if (!best) {
		if (!isnan(probe_us))
			note(v->missing, "no writes with fsync measured (the probe's one fsync took %.0f us): sync-bound cannot be told",
			     probe_us);
		else
			note(v->missing, "no writes with fsync measured: sync-bound cannot be told");
		return;
	}
	sync_us = best->f[F_SYNC_LAT] / 1e3;
	share = best->f[F_RUNTIME] > 0 ?
		best->f[F_SYNCS] * best->f[F_SYNC_LAT] / 1e9 / (best->f[F_RUNTIME] * best->numjobs) :
		NAN;
	share = share > 1 ? 1 : share;
	wps = best->f[F_IOPS];
	if (!(share >= 0.5)) {
		note(v->notes, "fsync costs %.1f us, %.0f%% of the synced writes' time: not what limits them",
		     sync_us, isnan(share) ? 0 : share * 100);
		return;
	}
	c = sync_us >= 1000 ? EXPLAIN_HIGH : sync_us >= 100 ? EXPLAIN_MEDIUM : EXPLAIN_LOW;
	f = add_finding(v, EXPLAIN_SYNC, c);
	f->write = true;
	json_object_set_new(f->evidence, "fsync_us", jnum(sync_us));
	json_object_set_new(f->evidence, "write_us", jnum(lat_us(best)));
	json_object_set_new(f->evidence, "sync_share", jnum(share));
	json_object_set_new(f->evidence, "syncs", jnum(best->f[F_SYNCS]));
	json_object_set_new(f->evidence, "writes_per_s", jnum(wps));
	json_object_set_new(f->evidence, "probe_fsync_us", jnum(probe_us));
	add_cell_key(f->cells, best);
	snprintf(f->summary, sizeof(f->summary),
		 "fsync costs %.2f ms and takes %.0f%% of the synced writes' time (the %.0f KiB write itself %.0f us): %.0f synced writes/s; the flush, not the data, is the limit",
		 sync_us / 1e3, share * 100, best->f[F_BS] / 1024, lat_us(best), wps);
}

/* ---- putting it together ---- */

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->conf != y->conf)
		return x->conf > y->conf ? -1 : 1;
	return (int)x->code - (int)y->code;
}

/*
 * The headline of one direction: its first finding (the list is in verdict order), else
 * not-enough-data. Reads and synced writes are limited by different things on one path (a
 * disk whose reads scale with depth and whose every fsync costs milliseconds), so each
 * direction gets its own.
 */
static json_t *direction_json(const struct verdicts *v, bool write)
{
	unsigned i;

	for (i = 0; i < v->n; i++)
		if (v->f[i].write == write)
			return json_pack("{s:s,s:s,s:s}", "verdict", explain_code_name(v->f[i].code),
					 "confidence", explain_conf_name(v->f[i].conf), "summary",
					 v->f[i].summary);
	return json_pack("{s:s,s:s,s:s}", "verdict", explain_code_name(EXPLAIN_NO_DATA),
			 "confidence", explain_conf_name(EXPLAIN_LOW), "summary",
			 write ? "no finding about writes (see notes and missing)" :
				 "no finding about reads (see notes and missing)");
}

static json_t *target_json(const struct target_pts *t)
{
	struct verdicts v = { .n = 0 };
	json_t *o = json_object(), *fs = json_array();
	const json_t *probe = target_probe(t);
	unsigned i;

	v.notes = json_array();
	v.missing = json_array();
	if (!o || !fs || !v.notes || !v.missing) {
		json_decref(o);
		json_decref(fs);
		json_decref(v.notes);
		json_decref(v.missing);
		return NULL;
	}
	analyse_cache(&v, t);
	analyse_ladder(&v, t);
	analyse_cpu(&v, t);
	analyse_sync(&v, t);
	qsort(v.f, v.n, sizeof(v.f[0]), cmp_finding);
	for (i = 0; i < v.n; i++)
		json_array_append_new(fs, json_pack("{s:s,s:s,s:s,s:s,s:o,s:o}", "code",
						    explain_code_name(v.f[i].code), "confidence",
						    explain_conf_name(v.f[i].conf), "direction",
						    v.f[i].write ? "write" : "read", "summary",
						    v.f[i].summary, "evidence", v.f[i].evidence,
						    "cells", v.f[i].cells));
	json_object_set_new(o, "target", json_string(t->name));
	json_object_set_new(o, "path", t->target && str(t->target, "path") ?
				       json_string(str(t->target, "path")) : json_null());
	json_object_set_new(o, "path_summary", probe && str(probe, "summary") ?
					       json_string(str(probe, "summary")) :
				t->target && str(t->target, "summary") ?
					       json_string(str(t->target, "summary")) : json_null());
	json_object_set_new(o, "verdict", json_string(v.n ? explain_code_name(v.f[0].code) :
							     explain_code_name(EXPLAIN_NO_DATA)));
	json_object_set_new(o, "confidence", json_string(v.n ? explain_conf_name(v.f[0].conf) :
								explain_conf_name(EXPLAIN_LOW)));
	json_object_set_new(o, "summary", json_string(v.n ? v.f[0].summary :
		"not enough data: the cells measured here cannot tell what limits this path (see missing)"));
	json_object_set_new(o, "directions", json_pack("{s:o,s:o}", "read", direction_json(&v, false),
						       "write", direction_json(&v, true)));
	json_object_set_new(o, "findings", fs);
	json_object_set_new(o, "notes", v.notes);
	json_object_set_new(o, "missing", v.missing);
	return o;
}

static struct target_pts *target_get(struct target_pts **ts, unsigned *n, const char *name,
				     const struct results *r)
{
	struct target_pts *t;
	const json_t *e;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*ts)[i].name, name))
			return &(*ts)[i];
	t = realloc(*ts, (*n + 1) * sizeof(**ts));
	if (!t)
		return NULL;
	*ts = t;
	t = &t[(*n)++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	json_array_foreach(r->targets, i, e)
		if (str(e, "role") && !strcmp(str(e, "role"), name))
			t->target = e;
	return t;
}

/*
 * A target whose cells are several ranks' together (a sweep's under MPI): its cells may mix
 * paths, so it is not explained; each rank's own target is.
 */
static bool merged_target(const struct results *r, const char *role)
{
	const json_t *e;
	size_t i;

	json_array_foreach(r->targets, i, e)
		if (str(e, "role") && !strcmp(str(e, "role"), role) &&
		    json_integer_value(json_object_get(e, "ranks")) > 1)
			return true;
	return false;
}

json_t *explain_results(const struct results *r, struct iop_err *err)
{
	struct point *pts = calloc(r->nr ? r->nr : 1, sizeof(*pts));
	struct target_pts *ts = NULL;
	json_t *root = json_object(), *targets = json_array(), *codes = json_array();
	unsigned i, k, nt = 0, np = 0;
	const json_t *e;
	size_t j;

	if (!pts || !root || !targets || !codes)
		goto nomem;
	for (i = 0; i < EXPLAIN_NR; i++)
		json_array_append_new(codes, json_string(explain_code_name(i)));
	/* the result's targets first, in their order, even those no cell ran on */
	json_array_foreach(r->targets, j, e)
		if (str(e, "role") && !merged_target(r, str(e, "role")) &&
		    !target_get(&ts, &nt, str(e, "role"), r))
			goto nomem;
	for (i = 0; i < r->nr; i++)
		if (!make_point(r, &r->cells[i], &pts[np]) && !merged_target(r, pts[np].target))
			np++;
	for (i = 0; i < np; i++) {
		struct target_pts *t = target_get(&ts, &nt, pts[i].target, r);
		struct point **p;

		if (!t)
			goto nomem;
		p = realloc(t->p, (t->n + 1) * sizeof(*p));
		if (!p)
			goto nomem;
		t->p = p;
		t->p[t->n++] = &pts[i];
	}
	for (k = 0; k < nt; k++) {
		json_t *tj = target_json(&ts[k]);

		if (!tj || json_array_append_new(targets, tj))
			goto nomem;
	}
	json_object_set_new(root, "schema", json_integer(EXPLAIN_SCHEMA));
	json_object_set_new(root, "codes", codes);
	json_object_set_new(root, "targets", targets);
	for (k = 0; k < nt; k++)
		free(ts[k].p);
	free(ts);
	free(pts);
	return root;
nomem:
	for (k = 0; k < nt; k++)
		free(ts[k].p);
	free(ts);
	free(pts);
	json_decref(root);
	json_decref(targets);
	json_decref(codes);
	iop_errf(err, -ENOMEM, "explain: out of memory");
	return NULL;
}
