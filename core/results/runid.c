/* What a loaded result is, by its content: one run given twice is told from two runs. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "results/runid.h"

static void hash_json(XXH64_state_t *h, const json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;

	if (s) {
		XXH64_update(h, s, strlen(s) + 1);
		free(s);
	} else {
		XXH64_update(h, "", 1);
	}
}

uint64_t results_fingerprint(const struct results *r)
{
	XXH64_state_t *h = XXH64_createState();
	uint64_t v = 0;
	unsigned i;

	if (!h)
		return 0;
	XXH64_reset(h, 0);
	XXH64_update(h, &r->timestamp_ms, sizeof(r->timestamp_ms));
	for (i = 0; i < r->nr; i++) {
		hash_json(h, r->cells[i].identity);
		hash_json(h, r->cells[i].samples);
	}
	v = XXH64_digest(h);
	XXH64_freeState(h);
	return v;
}
