/* What else used the machine while each side ran, and whether that explains a change. */
#ifndef IOPATH_ENVCMP_H
#define IOPATH_ENVCMP_H

#include <stdbool.h>

#include "results/results.h"

/*
 * When the slower side's environment explains a change for the worse: where the run's time
 * per I/O was recorded, when what the machine added to it accounts for the whole change,
 * all but the threshold (compare's, 5%) of the faster side's time per I/O, and is itself at
 * least that threshold. An environment that changed less than the change did excuses
 * nothing: a real slowdown on a machine that also got busier is still a regression. What the
 * machine added per I/O is summed from:
 *  - the CPU wait: what each of the workers' waits on a run queue grew by, times the slower
 *    side's waits an I/O (schedstat: what others' CPU work cost the run itself). Counted per
 *    wait, not per I/O: a path that wakes its worker more often (a second sleep, a retry)
 *    waits more per I/O on the same machine, and that is the path's own doing; where the
 *    waits were not counted (older results), what the wait per I/O grew by;
 *  - others' requests on the disk: each of the faster side's I/Os in flight, taken to last
 *    (1 + q_slow) / (1 + q_fast) as long, q the others' requests in flight on average (the
 *    disk's weighted time in flight less the run's own I/Os' latencies, a second): as many
 *    times longer as more requests shared the disk with it. Counted only where they were
 *    more throughout, the slower side's lower quartile of them above the faster side's
 *    upper quartile: on a disk others keep tens deep, their number varies as much between
 *    repeats of one side as between the sides, and a difference of medians is then noise.
 * Then, or where the time per I/O was not recorded:
 *  - the hypervisor stole ENV_STEAL_DIFF more of the machine's CPU time;
 *  - results without the run-queue wait: other processes' CPU share higher by ENV_CPU_DIFF;
 *  - results without the disk's time in flight: others' requests on the disk per second
 *    above the faster side's by ENV_DISK_SHARE of the run's own, in the median and
 *    throughout (the slower side's lower quartile of them above the faster side's upper
 *    quartile); and older still, other disk bytes by ENV_DISK_MIN bytes/s and
 *    ENV_DISK_SHARE of the run's own.
 * The control references a sweep times under --references (the CPU's own speed beside each
 * repeat) are shown with the environment but excuse nothing: measured on a shared 2-core
 * guest they stayed within 1% (CPU) and 20% (memory) while the workers' time on a CPU moved
 * 26% and the time off it 40% between identical sides, uncorrelated with either
 * (docs/statistics.md).
 */
#define ENV_CPU_DIFF 0.15
#define ENV_STEAL_DIFF 0.05
#define ENV_DISK_MIN (4.0 * 1048576)
#define ENV_DISK_SHARE 0.25

/* The medians over a set of repeats of what iopath.machine records; n 0 when none did. */
struct env_side {
	unsigned n;
	double other_cpu, steal, load1;
	double other_disk, own_disk;	/* bytes/s; NAN where no disk was counted */
	/* per I/O of the run: its workers' measured time and their run-queue wait (seconds of
	 * worker time), NAN where not recorded; other processes' and the run's own disk
	 * requests per second, NAN where not counted */
	double time_per_io, wait_per_io, rest_per_io;	/* rest: each sample's time less wait */
	/* the workers' times put on a CPU per I/O, and their run-queue wait per time (seconds);
	 * NAN where not recorded */
	double wakes_per_io, wait_per_wake;
	double other_ios, own_ios;
	double other_ios_q1, other_ios_q3;		/* quartiles over the samples */
	/* the disk: others' requests in flight on average (their summed time a second), the
	 * run's own time in flight an I/O (seconds), the share of the time the disk was busy
	 * with others' requests alone; NAN where a sample did not record them */
	double other_flight, own_flight_per_io, other_busy;
	double other_flight_q1, other_flight_q3;	/* quartiles over the samples */
	/* the workers' time on a CPU per I/O (seconds), and the control references (ns a unit
	 * of their work, each repeat's before and after averaged): shown, not weighed; NAN
	 * where a sample did not record them */
	double oncpu_per_io;
	double ref_cpu, ref_mem;
};

/* Summarise every sample of one cell (all = false) or of every cell of r (all = true). */
void env_of_cell(const struct cell *c, struct env_side *e);
void env_of_results(const struct results *r, struct env_side *e);

/*
 * Does CUR's environment explain a change for the worse (worse_in_cur) or for the better
 * relative to BASE, the change that matters being threshold (0.05: 5%)? True with what
 * differed in why ("the workers waited for a CPU 80 us each time they woke in CUR ...").
 */
bool env_explains(const struct env_side *b, const struct env_side *c, bool worse_in_cur,
		  double threshold, char *why, size_t len);

/* "other CPU 2%, steal 0%, other disk 0.1 MiB/s, load 1.2" (or "not recorded"). */
void env_describe(const struct env_side *e, char *buf, size_t len);

#endif
