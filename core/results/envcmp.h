/* What else used the machine while each side ran, and whether that explains a change. */
#ifndef IOPATH_ENVCMP_H
#define IOPATH_ENVCMP_H

#include <stdbool.h>

#include "results/results.h"

/*
 * Contention beyond which a difference between the sides is taken to explain a change:
 * other processes' share of the machine's CPU time, the hypervisor's steal, and other
 * traffic on the disks (at least ENV_DISK_MIN bytes/s and ENV_DISK_SHARE of the run's own).
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
