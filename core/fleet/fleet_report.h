/* Rank 0's merged result and each rank's own file under MPI (the writers cli/ installs). */
#ifndef IOPATH_FLEET_REPORT_H
#define IOPATH_FLEET_REPORT_H

#include <stdio.h>

#include "base/err.h"
#include "fleet/fleet.h"

struct run_env;
struct json_t;

/* Write one rank's own result (json+) as DIR/rank-N.json. r may be NULL. */
int fleet_write_rank_file(const struct run_results *r, const char *dir,
			 const struct fleet_rank_info *info, int argc, char **argv,
			 struct iop_err *err);

/* Rank 0: merge and write as o asks (NULL: normal text on stdout); returns the exit code. */
int fleet_write_merged(struct fleet_rank *ranks, unsigned nr, const struct output_opts *o,
		      int argc, char **argv);

/* The merged result: "jobs" (merged), "client_stats" (each rank's jobs + "All clients"). */
struct json_t *fleet_merged_json(const struct fleet_merged *m, const struct run_env *env, bool plus);

/* The aggregate lines for normal text output. */
void fleet_merged_text(FILE *f, const struct fleet_merged *m);

/* The writers above, for fleet_set_writers. */
extern const struct fleet_writers report_fleet_writers;

#endif
