/*
 * Charts with gnuplot: the data and a script per chart are written into the chart directory
 * (so a chart can be re-rendered or restyled by hand) and gnuplot renders PNG and SVG.
 */
#ifndef IOPATH_PLOT_H
#define IOPATH_PLOT_H

#include "base/err.h"
#include "stats/metrics.h"
#include "results/results.h"

/*
 * May charts go into dir (opt names the option)? A directory, or a name not yet taken, and
 * gnuplot on $PATH to draw them.
 */
int plot_check_dir(const char *opt, const char *dir, struct iop_err *err);

/*
 * A sweep's charts in dir: iops and bw per engine grouped by target (and the other options
 * that vary), latency percentiles per engine, and queue-depth scaling when iodepth varies.
 */
int plot_sweep(const struct results *r, const char *dir, struct iop_err *err);

struct hist_step;

/*
 * history-<metric>: each cell's median across runs (runs[0..nr) in the order given, x tick
 * labels xlabels[i]: the groups of `saved` saved runs), one line per cell, with
 * steps[0..nsteps) (history.h) marked.
 */
int plot_history(const struct results *runs, unsigned nr, unsigned saved, const char *const *xlabels,
		 enum metric_id m, const char *by, const struct hist_step *steps, unsigned nsteps,
		 const char *dir, struct iop_err *err);

#endif
