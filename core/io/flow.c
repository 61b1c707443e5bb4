/* fio's flow control (flow=, flow_id=, flow_sleep=): the flows of a run. */
#include <stdlib.h>

#include "io/flow.h"

struct flow *flow_join(struct flow_set *s, unsigned id, unsigned weight)
{
	struct flow *f = NULL;
	unsigned i;

	for (i = 0; i < s->nr; i++)
		if (s->flows[i].id == id)
			f = &s->flows[i];
	if (!f) {
		if (s->nr == s->max)
			return NULL;	/* sized by the caller: one per job at most */
		f = &s->flows[s->nr++];
		f->id = id;
		atomic_init(&f->ios, 1);
		atomic_init(&f->weight, 0);
	}
	atomic_fetch_add(&f->weight, weight);
	return f;
}

void flow_leave(struct flow *f, uint64_t mine, unsigned weight)
{
	atomic_fetch_sub(&f->ios, mine);
	atomic_fetch_sub(&f->weight, weight);
}

void flow_set_free(struct flow_set *s)
{
	free(s->flows);
	s->flows = NULL;
	s->nr = s->max = 0;
}
