/* What every layer may ask of the process: has a stop been requested, and which rank is it. */
#ifndef IOPATH_STOP_H
#define IOPATH_STOP_H

#include <stdbool.h>

/* Ask running workers to stop soon; safe from a signal handler. */
void run_request_stop(void);
bool run_stop_requested(void);

/* This process's place in a run across several ranks (set by fleet/; 0 of 1 otherwise). */
void iop_set_rank(unsigned rank, unsigned size);

/* ".rankN" for default file names when there are several ranks, else "". */
const char *fleet_file_suffix(void);

#endif
