/* The metrics that sweeps, compare and history track, read from fio-shaped job results. */
#ifndef IOPATH_METRICS_H
#define IOPATH_METRICS_H

#include <jansson.h>
#include <stdbool.h>

#include "base/err.h"

enum metric_id {
	MET_IOPS,
	MET_BW,
	MET_CLAT_P50,
	MET_CLAT_P99,
	MET_CLAT_P999,
	/*
	 * The p99 of the latency from the rate's schedule (lat_sched_ns): rate-limited jobs
	 * only. Compare judges it where a cell has it (or --metric names it); the store keeps
	 * it in each sample's job, not in a column of its own (MET_COLUMNS).
	 */
	MET_LAT_SCHED_P99,
	/*
	 * Time per I/O less CPU wait, in ns: the workers' measured time less their run-queue
	 * wait (schedstat), over the run's I/Os (iopath.machine's workers_s,
	 * workers_runq_wait_s, own_ios). Waiting for a CPU on a busy machine is most of the
	 * noise of IOPS; this is what the I/O path itself took. Recorded by iopath runs only;
	 * compare judges it where both cells recorded it for every repeat.
	 */
	MET_IO_TIME_PER_IO,
	MET_NR,
};

/* The metrics the store's samples table has a column for: MET_IOPS .. MET_CLAT_P999. */
#define MET_COLUMNS (MET_CLAT_P999 + 1)

struct metric_def {
	const char *name;	/* as on the command line: iops, bw, clat_p99 ... */
	const char *title;	/* for tables and charts */
	const char *unit;	/* of display values */
	double display_div;	/* stored value / display_div = display value */
	const char *stored_unit; /* of stored values, for CSV headers ("ns"); NULL: the name says it */
	bool higher_better;
};

extern const struct metric_def metric_table[MET_NR];

/* Parse "iops,bw,clat_p99" into a bit mask of (1 << enum metric_id). */
int metric_parse_list(const char *list, unsigned *mask, struct iop_err *err);

/*
 * Every metric of one fio-shaped job object (iopath's or fio's JSON), NAN where absent:
 * IOPS and bytes/s summed over read, write and trim; completion-latency percentiles in ns
 * from the direction that did the most I/Os (fio 2.x "clat" in microseconds accepted), and
 * that direction's p99 from the rate's schedule (iopath's lat_sched_ns), and the time per
 * I/O less CPU wait from iopath.machine (every job of the run shares it).
 */
void metrics_from_job(const json_t *job, double v[MET_NR]);

/*
 * The completion-latency object ({"percentile": {...}}) of the job's direction with the most
 * I/Os, the one metrics_from_job reads; *to_ns scales its values to ns. NULL when none.
 */
const json_t *metrics_clat(const json_t *job, double *to_ns);

/*
 * How many completions the job's latency percentiles are taken from: the N of the object
 * metrics_clat returns, else its direction's total_ios; NAN when the job says neither.
 */
double metrics_clat_count(const json_t *job);

/*
 * The latency from the rate's schedule (iopath's lat_sched_ns, in ns) of the same direction:
 * only rate-limited jobs have one; NULL otherwise.
 */
const json_t *metrics_lat_sched(const json_t *job);

/* Percentile p (e.g. 99.9) of such an object in ns; NAN when it does not list p. */
double metrics_percentile(const json_t *lat, double p, double to_ns);

/*
 * Is every field metrics_from_job reads of the right JSON type where present (numbers, the
 * directions and latencies objects, "error" an integer)? A wrong-typed one is bad input, not
 * a 0: false, with the field's name and what it holds in what.
 */
bool metrics_check_job(const json_t *job, char *what, size_t len);

/*
 * A compare's one-sided bound of a relative change as text: "<= -12.3%" (lo -INFINITY, the
 * bound hi of a drop) or ">= +8.1%" (hi +INFINITY, the bound lo of a rise). Beyond
 * METRICS_BOUND_MAX either way (a change of more than ten times, where too few repeats
 * spread widely put it), the bound limits nothing and reads "<= unbounded" or
 * ">= unbounded"; "-" when there is none (both NAN).
 */
#define METRICS_BOUND_MAX 10.0
void metrics_bound_text(char *buf, size_t len, double lo, double hi);

#endif
