/* What else used the machine while each side ran, and whether that explains a change. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/envcmp.h"
#include "stats/rstats.h"

enum { E_CPU, E_STEAL, E_LOAD, E_OTHER_DISK, E_OWN_DISK, E_TIME_IO, E_WAIT_IO, E_REST_IO, E_OTHER_IOS,
       E_OWN_IOS, E_WAKES_IO, E_WAIT_WAKE, E_OTHER_FLIGHT, E_OWN_FLIGHT_IO, E_OTHER_BUSY, E_ONCPU_IO,
       E_REF_CPU, E_REF_MEM, E_NR };

static double field(const json_t *m, const char *key)
{
	const json_t *v = json_object_get(m, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* One sample's iopath.machine into v[E_NR]; false when it has none. */
static bool sample_env(const json_t *job, double v[E_NR])
{
	const json_t *m = json_object_get(json_object_get(job, "iopath"), "machine");
	double wall = field(m, "wall_s"), ios = field(m, "own_ios"), wakes = field(m, "workers_sched_in");

	if (!json_is_object(m))
		return false;
	v[E_TIME_IO] = ios > 0 ? field(m, "workers_s") / ios : NAN;
	v[E_WAIT_IO] = ios > 0 ? field(m, "workers_runq_wait_s") / ios : NAN;
	v[E_REST_IO] = v[E_TIME_IO] - v[E_WAIT_IO];
	v[E_WAKES_IO] = ios > 0 ? wakes / ios : NAN;
	v[E_WAIT_WAKE] = wakes > 0 ? field(m, "workers_runq_wait_s") / wakes : NAN;
	v[E_OTHER_IOS] = field(m, "other_disk_ios_per_s");
	v[E_OWN_IOS] = wall > 0 && !isnan(v[E_OTHER_IOS]) ? ios / wall : NAN;
	v[E_CPU] = field(m, "other_cpu");
	v[E_STEAL] = field(m, "steal");
	v[E_LOAD] = field(m, "load1_end");
	v[E_OTHER_DISK] = field(m, "other_disk_bytes_per_s");
	v[E_OWN_DISK] = wall > 0 ? field(m, "own_bytes") / wall : NAN;
	v[E_OTHER_FLIGHT] = field(m, "other_disk_in_flight");
	v[E_OWN_FLIGHT_IO] = ios > 0 && !isnan(v[E_OTHER_FLIGHT]) ? field(m, "own_in_flight_s") / ios : NAN;
	v[E_OTHER_BUSY] = field(m, "other_disk_busy");
	v[E_ONCPU_IO] = ios > 0 ? field(m, "workers_on_cpu_s") / ios : NAN;
	/* the references at both ends of the repeat: the CPU's speed while it ran */
	v[E_REF_CPU] = (field(m, "ref_cpu_ns_before") + field(m, "ref_cpu_ns_after")) / 2;
	v[E_REF_MEM] = (field(m, "ref_mem_ns_before") + field(m, "ref_mem_ns_after")) / 2;
	return !isnan(v[E_CPU]);
}

struct env_acc {
	double *v[E_NR];
	unsigned n[E_NR], cap;
};

static void acc_cell(struct env_acc *a, const struct cell *c)
{
	double v[E_NR];
	size_t i;
	unsigned k;
	json_t *job;

	json_array_foreach(c->samples, i, job) {
		if (!sample_env(job, v))
			continue;
		for (k = 0; k < E_NR; k++)
			if (!isnan(v[k]) && a->n[k] < a->cap)
				a->v[k][a->n[k]++] = v[k];
	}
}

static double median_of(double *x, unsigned n)
{
	return n ? rstats_quantile(x, n, 0.5) : NAN;
}

static void acc_summary(struct env_acc *a, struct env_side *e)
{
	e->n = a->n[E_CPU];
	e->other_cpu = median_of(a->v[E_CPU], a->n[E_CPU]);
	e->steal = median_of(a->v[E_STEAL], a->n[E_STEAL]);
	e->load1 = median_of(a->v[E_LOAD], a->n[E_LOAD]);
	e->other_disk = median_of(a->v[E_OTHER_DISK], a->n[E_OTHER_DISK]);
	e->own_disk = median_of(a->v[E_OWN_DISK], a->n[E_OWN_DISK]);
	/* both only where every sample recorded both, so that they describe the same runs */
	e->time_per_io = e->wait_per_io = e->rest_per_io = NAN;
	if (a->n[E_TIME_IO] == e->n && a->n[E_WAIT_IO] == e->n && a->n[E_REST_IO] == e->n) {
		e->time_per_io = median_of(a->v[E_TIME_IO], a->n[E_TIME_IO]);
		e->wait_per_io = median_of(a->v[E_WAIT_IO], a->n[E_WAIT_IO]);
		e->rest_per_io = median_of(a->v[E_REST_IO], a->n[E_REST_IO]);
	}
	e->wakes_per_io = e->wait_per_wake = NAN;
	if (!isnan(e->wait_per_io) && a->n[E_WAKES_IO] == e->n && a->n[E_WAIT_WAKE] == e->n) {
		e->wakes_per_io = median_of(a->v[E_WAKES_IO], a->n[E_WAKES_IO]);
		e->wait_per_wake = median_of(a->v[E_WAIT_WAKE], a->n[E_WAIT_WAKE]);
	}
	e->other_ios = median_of(a->v[E_OTHER_IOS], a->n[E_OTHER_IOS]);
	e->other_ios_q1 = a->n[E_OTHER_IOS] ? rstats_quantile(a->v[E_OTHER_IOS], a->n[E_OTHER_IOS], 0.25) : NAN;
	e->other_ios_q3 = a->n[E_OTHER_IOS] ? rstats_quantile(a->v[E_OTHER_IOS], a->n[E_OTHER_IOS], 0.75) : NAN;
	e->own_ios = median_of(a->v[E_OWN_IOS], a->n[E_OWN_IOS]);
	/* only where every sample recorded them: a side partly counted is not compared */
	e->other_flight = e->own_flight_per_io = e->other_busy = NAN;
	e->other_flight_q1 = e->other_flight_q3 = NAN;
	if (a->n[E_OTHER_FLIGHT] == e->n && a->n[E_OWN_FLIGHT_IO] == e->n) {
		e->other_flight = median_of(a->v[E_OTHER_FLIGHT], a->n[E_OTHER_FLIGHT]);
		e->own_flight_per_io = median_of(a->v[E_OWN_FLIGHT_IO], a->n[E_OWN_FLIGHT_IO]);
		e->other_busy = median_of(a->v[E_OTHER_BUSY], a->n[E_OTHER_BUSY]);
		e->other_flight_q1 = rstats_quantile(a->v[E_OTHER_FLIGHT], a->n[E_OTHER_FLIGHT], 0.25);
		e->other_flight_q3 = rstats_quantile(a->v[E_OTHER_FLIGHT], a->n[E_OTHER_FLIGHT], 0.75);
	}
	e->oncpu_per_io = a->n[E_ONCPU_IO] == e->n ? median_of(a->v[E_ONCPU_IO], e->n) : NAN;
	e->ref_cpu = e->ref_mem = NAN;
	if (e->n && a->n[E_REF_CPU] == e->n && a->n[E_REF_MEM] == e->n) {
		e->ref_cpu = median_of(a->v[E_REF_CPU], e->n);
		e->ref_mem = median_of(a->v[E_REF_MEM], e->n);
	}
}

static bool acc_init(struct env_acc *a, unsigned cap)
{
	unsigned k;
	bool ok = true;

	a->cap = cap;
	for (k = 0; k < E_NR; k++) {
		a->n[k] = 0;
		a->v[k] = malloc((cap ? cap : 1) * sizeof(double));
		ok &= a->v[k] != NULL;
	}
	return ok;
}

static void acc_free(struct env_acc *a)
{
	unsigned k;

	for (k = 0; k < E_NR; k++)
		free(a->v[k]);
}

void env_of_cell(const struct cell *c, struct env_side *e)
{
	struct env_acc a;

	e->n = 0;
	if (acc_init(&a, (unsigned)json_array_size(c->samples))) {
		acc_cell(&a, c);
		acc_summary(&a, e);
	}
	acc_free(&a);
}

void env_of_results(const struct results *r, struct env_side *e)
{
	struct env_acc a;
	unsigned i, cap = 0;

	for (i = 0; i < r->nr; i++)
		cap += (unsigned)json_array_size(r->cells[i].samples);
	e->n = 0;
	if (acc_init(&a, cap)) {
		for (i = 0; i < r->nr; i++)
			acc_cell(&a, &r->cells[i]);
		acc_summary(&a, e);
	}
	acc_free(&a);
}

/*
 * What the CPU wait explains of the slower side's extra time per I/O (seconds; NAN where the
 * wait was not recorded): what each wait grew by, times the slower side's wakeups an I/O,
 * where those were counted; else what the wait per I/O grew by.
 */
static double cpu_part(const struct env_side *hi, const struct env_side *lo)
{
	if (isnan(hi->wait_per_io) || isnan(lo->wait_per_io) || isnan(hi->time_per_io) ||
	    isnan(lo->time_per_io))
		return NAN;
	if (!isnan(hi->wakes_per_io) && !isnan(lo->wakes_per_io) && !isnan(hi->wait_per_wake) &&
	    !isnan(lo->wait_per_wake))
		return fmax(0, (hi->wait_per_wake - lo->wait_per_wake) * hi->wakes_per_io);
	return fmax(0, hi->wait_per_io - lo->wait_per_io);
}

/*
 * What others' requests on the disk explain of it (seconds; NAN where not recorded): each of
 * the faster side's I/Os, in flight beside 1 + q of them on average (its own and others'),
 * taken to last as many times longer as there were more requests sharing the disk on the
 * slower side, (1 + q_slow) / (1 + q_fast): a disk serving all it holds at once at its
 * capacity. The faster side's time in flight, not the slower side's, which the change
 * itself made longer. A few more beside a disk others already keep tens deep count little;
 * one more of a writer's beside a reader alone doubles its time.
 */
static double disk_part(const struct env_side *hi, const struct env_side *lo)
{
	if (isnan(hi->other_flight) || isnan(lo->other_flight) || isnan(lo->own_flight_per_io))
		return NAN;
	/* more throughout, not a burst in some repeats nor a spread as wide as the difference */
	if (!(hi->other_flight_q1 > lo->other_flight_q3))
		return 0;
	return fmax(0, hi->other_flight - lo->other_flight) / (1 + lo->other_flight) * lo->own_flight_per_io;
}

/* The whole change explained: the CPU wait and the disk's others, the rest within threshold. */
static bool time_explained(const struct env_side *hi, const struct env_side *lo, bool worse_in_cur,
			   double threshold, char *why, size_t len)
{
	const char *more = worse_in_cur ? "CUR" : "BASE", *less = worse_in_cur ? "BASE" : "CUR";
	double extra = hi->time_per_io - lo->time_per_io, cpu = cpu_part(hi, lo), disk = disk_part(hi, lo);
	double left = extra - (isnan(cpu) ? 0 : cpu) - (isnan(disk) ? 0 : disk);
	int n = 0;

	/* the machine's part a change that matters itself, and all but the threshold of this one */
	if (!(extra > 0) || left > threshold * lo->time_per_io || !(extra - left >= threshold * lo->time_per_io))
		return false;
	if (cpu > 0 && !isnan(hi->wait_per_wake))
		n = snprintf(why, len, "the workers waited for a CPU %.0f us each time they woke in %s against "
			     "%.0f us in %s (%.2f and %.2f times an I/O): %.0f us", 1e6 * hi->wait_per_wake, more,
			     1e6 * lo->wait_per_wake, less, hi->wakes_per_io, lo->wakes_per_io, 1e6 * cpu);
	else if (cpu > 0)
		n = snprintf(why, len, "the workers waited for a CPU %.0f us an I/O in %s against %.0f us in %s: "
			     "%.0f us", 1e6 * hi->wait_per_io, more, 1e6 * lo->wait_per_io, less, 1e6 * cpu);
	if (disk > 0 && n >= 0 && (size_t)n < len)
		n += snprintf(why + n, len - n, "%sothers' requests in flight on the disk %.2f on average in %s "
			      "against %.2f in %s (each of %s's %.0f us I/Os sharing it with %.2f times as many): "
			      "%.0f us", n ? "; " : "", hi->other_flight, more, lo->other_flight, less, less,
			      1e6 * lo->own_flight_per_io, (1 + hi->other_flight) / (1 + lo->other_flight),
			      1e6 * disk);
	if (n >= 0 && (size_t)n < len)
		snprintf(why + n, len - n, ", of the %.0f us more each I/O took (%.0f us an I/O in %s, %.0f in %s; "
			 "the rest within the %.0f%% threshold)", 1e6 * extra, 1e6 * hi->time_per_io, more,
			 1e6 * lo->time_per_io, less, 100 * threshold);
	return true;
}

bool env_explains(const struct env_side *b, const struct env_side *c, bool worse_in_cur,
		  double threshold, char *why, size_t len)
{
	/* more contention on the slower side: CUR when it got worse, BASE when better */
	double s = worse_in_cur ? 1 : -1, own;
	const char *more = worse_in_cur ? "CUR" : "BASE", *less = worse_in_cur ? "BASE" : "CUR";
	const struct env_side *hi = worse_in_cur ? c : b, *lo = worse_in_cur ? b : c;
	bool waits = !isnan(cpu_part(hi, lo)), flights = !isnan(disk_part(hi, lo));
	bool reqs = !isnan(b->other_ios) && !isnan(c->other_ios) && !isnan(b->own_ios) &&
		    !isnan(c->own_ios);

	if (!b->n || !c->n)
		return false;
	if ((waits || flights) && !isnan(hi->time_per_io) && !isnan(lo->time_per_io) &&
	    time_explained(hi, lo, worse_in_cur, threshold, why, len))
		return true;
	if (!waits && s * (c->other_cpu - b->other_cpu) >= ENV_CPU_DIFF) {
		snprintf(why, len, "other processes used %.0f%% of the machine's CPU time in %s against %.0f%% in %s",
			 100 * hi->other_cpu, more, 100 * lo->other_cpu, less);
		return true;
	}
	if (!isnan(b->steal) && !isnan(c->steal) && s * (c->steal - b->steal) >= ENV_STEAL_DIFF) {
		snprintf(why, len, "the hypervisor stole %.0f%% of the CPU time in %s against %.0f%% in %s",
			 100 * hi->steal, more, 100 * lo->steal, less);
		return true;
	}
	if (flights)
		return false;
	if (reqs) {
		own = fmax(b->own_ios, c->own_ios);
		if (s * (c->other_ios - b->other_ios) >= ENV_DISK_SHARE * own && own > 0 &&
		    hi->other_ios_q1 > lo->other_ios_q3) {
			snprintf(why, len, "other I/O made %.0f requests/s on the disk in %s against %.0f in %s "
				 "(the run's own: %.0f/s)", hi->other_ios, more, lo->other_ios, less, own);
			return true;
		}
		return false;
	}
	own = fmax(isnan(b->own_disk) ? 0 : b->own_disk, isnan(c->own_disk) ? 0 : c->own_disk);
	if (!isnan(b->other_disk) && !isnan(c->other_disk) &&
	    s * (c->other_disk - b->other_disk) >= fmax(ENV_DISK_MIN, ENV_DISK_SHARE * own)) {
		snprintf(why, len, "other I/O moved %.1f MiB/s on the disk in %s against %.1f MiB/s in %s",
			 hi->other_disk / 1048576, more, lo->other_disk / 1048576, less);
		return true;
	}
	return false;
}

void env_describe(const struct env_side *e, char *buf, size_t len)
{
	int n;

	if (!e->n) {
		snprintf(buf, len, "not recorded");
		return;
	}
	n = snprintf(buf, len, "other CPU %.0f%%, steal %.0f%%", 100 * e->other_cpu,
		     isnan(e->steal) ? 0 : 100 * e->steal);
	if (n > 0 && (size_t)n < len && !isnan(e->wait_per_io))
		n += snprintf(buf + n, len - n, ", CPU wait %.0f us of %.0f us an I/O", 1e6 * e->wait_per_io,
			      1e6 * e->time_per_io);
	if (n > 0 && (size_t)n < len && !isnan(e->wait_per_wake))
		n += snprintf(buf + n, len - n, " (%.0f us at each of %.2f wakeups)", 1e6 * e->wait_per_wake,
			      e->wakes_per_io);
	if (n > 0 && (size_t)n < len && !isnan(e->other_disk))
		n += snprintf(buf + n, len - n, ", other disk I/O %.1f MiB/s", e->other_disk / 1048576);
	if (n > 0 && (size_t)n < len && !isnan(e->other_ios))
		n += snprintf(buf + n, len - n, " (%.0f requests/s)", e->other_ios);
	if (n > 0 && (size_t)n < len && !isnan(e->other_flight))
		n += snprintf(buf + n, len - n, ", others' requests in flight %.2f", e->other_flight);
	if (n > 0 && (size_t)n < len && !isnan(e->ref_cpu))
		n += snprintf(buf + n, len - n, ", references %.2f ns a CPU round, %.0f ns a memory load",
			      e->ref_cpu, e->ref_mem);
	if (n > 0 && (size_t)n < len && !isnan(e->load1))
		snprintf(buf + n, len - n, ", load %.1f", e->load1);
}
