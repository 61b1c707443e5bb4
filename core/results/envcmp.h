/* What else used the machine while each side ran, and whether that explains a change. */
#ifndef IOPATH_ENVCMP_H
#define IOPATH_ENVCMP_H

#include <stdbool.h>

#include "results/results.h"

/*
 * When the slower side's environment explains a change for the worse:
 *  - its workers waited on a run queue for a CPU longer per I/O than the faster side's by
 *    at least ENV_WAIT_SHARE of the extra time each I/O took (schedstat: what others' CPU
 *    work cost the run itself, not the machine's share of it): the wait grew at least as
 *    much as the rest of each I/O's time. Where the workers' times put on a CPU were
 *    recorded, the wait counted is only what each of those waits grew by, times the slower
 *    side's number of them an I/O: a path that wakes its worker more often per I/O (a
 *    second sleep, a retry) waits more per I/O on the same machine, and that is the path's
 *    own doing, not a busier machine's. (Asking also that the rest grow by no more than
 *    the threshold was measured to call identical runs under steady load regressions: the
 *    rest varies with the same load, 71 against 90 us an I/O in one A/A compare.);
 *  - other processes' requests on the disk per second exceed the faster side's by at least
 *    ENV_DISK_SHARE of the run's own requests per second, in the median and throughout:
 *    the slower side's lower quartile of them above the faster side's upper quartile (a
 *    burst in a few repeats is not a changed machine);
 *  - the hypervisor stole ENV_STEAL_DIFF more of the machine's CPU time.
 * Results that recorded no run-queue wait or no disk requests (older ones) are judged by
 * the shares they did record: other processes' CPU share higher by ENV_CPU_DIFF, other disk
 * bytes by ENV_DISK_MIN bytes/s and ENV_DISK_SHARE of the run's own.
 */
#define ENV_WAIT_SHARE 0.5
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
};

/* Summarise every sample of one cell (all = false) or of every cell of r (all = true). */
void env_of_cell(const struct cell *c, struct env_side *e);
void env_of_results(const struct results *r, struct env_side *e);

/*
 * Does CUR's environment explain a change for the worse (worse_in_cur) or for the better
 * relative to BASE? True with what differed in why ("other processes used 48% of the CPU
 * time in CUR against 2% in BASE").
 */
bool env_explains(const struct env_side *b, const struct env_side *c, bool worse_in_cur,
		  char *why, size_t len);

/* "other CPU 2%, steal 0%, other disk 0.1 MiB/s, load 1.2" (or "not recorded"). */
void env_describe(const struct env_side *e, char *buf, size_t len);

#endif
