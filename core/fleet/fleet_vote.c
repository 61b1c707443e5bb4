/*
 * fleet_vote: every rank's choice, the strongest winning, the same answer on all ranks;
 * above the build's backend (fleet_mpi.c or fleet_none.c), which it gathers through.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "run/run.h"

/* What each rank says in a vote. */
struct vote_msg {
	int32_t choice;
	int32_t stop;
	uint64_t key;
	char host[64];
	char why[512];
};

int fleet_vote(int choice, const char *why, uint64_t key, struct fleet_vote *v)
{
	unsigned n = fleet_size(), r;
	struct vote_msg *mine, *all;
	int ret;

	memset(v, 0, sizeof(*v));
	mine = calloc(1, sizeof(*mine));
	all = calloc(n, sizeof(*all));
	if (!mine || !all) {
		free(mine);
		free(all);
		return -ENOMEM;
	}
	mine->choice = choice;
	mine->stop = run_stop_requested();
	mine->key = key;
	snprintf(mine->host, sizeof(mine->host), "%s", fleet_hostname());
	snprintf(mine->why, sizeof(mine->why), "%s", why ? why : "");
	ret = fleet_allgather(mine, sizeof(*mine), all);
	if (ret) {
		/* a rank that never answered may still be sent to: both buffers stay to the exit */
		v->stop = true;
		snprintf(v->why, sizeof(v->why), "a rank did not answer after the stop");
		run_request_stop();
		return ret;
	}
	for (r = 0; r < n; r++) {
		const struct vote_msg *m = &all[r];

		v->stop |= m->stop != 0;
		v->count += m->choice != 0;
		if (m->key != all[0].key && !v->key_differs) {
			v->key_differs = true;
			v->key_rank = r;
		}
		if (m->choice <= v->choice)
			continue;
		v->choice = m->choice;
		v->rank = r;
		if (n > 1)
			snprintf(v->why, sizeof(v->why), "rank %u (%.63s): %.511s", r, m->host,
				 m->why);
		else
			snprintf(v->why, sizeof(v->why), "%.511s", m->why);
	}
	if (v->stop)
		run_request_stop();
	free(mine);
	free(all);
	return 0;
}
