/* What every layer may ask of the process: has a stop been requested, and which rank is it. */
#ifndef IOPATH_STOP_H
#define IOPATH_STOP_H

#include <stdatomic.h>
#include <stdbool.h>

/* Set by run_request_stop, read by run_stop_requested: nothing else touches it. */
extern atomic_int iop_stop_flag;

/* Ask running workers to stop soon; safe from a signal handler. */
void run_request_stop(void);

/* Has a stop been requested? Inline: the I/O loop asks on every pass. */
static inline bool run_stop_requested(void)
{
	return atomic_load_explicit(&iop_stop_flag, memory_order_relaxed);
}

/* Ask for an interim report of the running jobs (fio's SIGUSR1); safe from a signal handler. */
void run_status_ask(void);

/* Was one asked for since the last call? (Clears the request.) */
bool run_status_take(void);

/* This process's place in a run across several ranks (set by fleet/; 0 of 1 otherwise). */
void iop_set_rank(unsigned rank, unsigned size);

/* ".rankN" for default file names when there are several ranks, else "". */
const char *fleet_file_suffix(void);

#endif
