/* The one merge of results: a worker into its job's, a group's workers into one, ranks into one. */
#ifndef IOPATH_MERGE_H
#define IOPATH_MERGE_H

#include "iopath/result.h"

/*
 * Fold src into dst, every figure of struct job_result by its own rule: counts and CPU times
 * summed, histograms merged bucket by bucket, times the longest, spans the widest and windows
 * the narrowest, the first error, setting and steady state kept, per-priority latencies (cmdprio) merged by
 * priority. What dst owns (meta, ss, prios) it
 * allocates; src keeps its own. dst starts zeroed with its dir[] initialised (dir_stat_init)
 * and its identity (spec, clone, targets) set by the caller. 0 or -ENOMEM.
 */
int result_merge(struct job_result *dst, const struct job_result *src);

/* rw=metadata: fold one set of metadata statistics into *dst (allocating it). 0 or -ENOMEM. */
int meta_merge(struct meta_stat **dst, const struct meta_stat *src);

/* Free what a result owns (metadata statistics, steady-state window, per-priority latencies). */
void result_free_owned(struct job_result *r);

#endif
