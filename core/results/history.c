/* History: runs pooled per version, and the steps between adjacent versions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/history.h"

static const char *label_of(const struct results *r, const char *by)
{
	const char *v = json_string_value(json_object_get(r->labels, by));

	return v ? v : "";
}

unsigned history_group(struct results **runs, unsigned n, const char *by,
		       struct results **groups, unsigned *members)
{
	struct iop_err ignored;
	unsigned i, ng = 0;

	for (i = 0; i < n; i++) {
		if (by && ng && !strcmp(label_of(groups[ng - 1], by), label_of(runs[i], by))) {
			/* the same version again: its repeats are more samples of the same cells */
			if (!results_merge(groups[ng - 1], runs[i], &ignored)) {
				results_free(runs[i]);
				if (members)
					members[ng - 1]++;
				continue;
			}
		}
		if (members)
			members[ng] = 1;
		groups[ng++] = runs[i];
	}
	return ng;
}

/* The cell's values of m; NULL (no values) when the cell is absent or not ok. */
static double *values(const struct cell *c, enum metric_id m, unsigned *n)
{
	double *v;

	*n = 0;
	if (!c || c->status != CELL_OK || !c->nr)
		return NULL;
	v = malloc(c->nr * sizeof(*v));
	if (v)
		*n = cell_values(c, m, v);
	return v;
}

static int add_step(struct hist_step **steps, unsigned *nr, const struct hist_step *s)
{
	struct hist_step *v = realloc(*steps, (*nr + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	v[*nr] = *s;
	*steps = v;
	(*nr)++;
	return 0;
}

int history_steps(struct results *const *groups, unsigned n, enum metric_id m,
		  const struct cmp_opts *o, struct hist_step **steps, unsigned *nr,
		  struct iop_err *err)
{
	unsigned g, c, k, na, nb;
	int ret = 0;

	*steps = NULL;
	*nr = 0;
	for (g = 0; g < n && !ret; g++) {
		for (c = 0; c < groups[g]->nr && !ret; c++) {
			const struct cell *cell = &groups[g]->cells[c];
			bool seen = false;

			/* each cell once, from the first group that has it */
			for (k = 0; k < g && !seen; k++)
				seen = results_find(groups[k], cell->key) != NULL;
			if (seen)
				continue;
			for (k = g + 1; k < n && !ret; k++) {
				const struct cell *a = results_find(groups[k - 1], cell->key);
				const struct cell *b = results_find(groups[k], cell->key);
				double *va = values(a, m, &na), *vb = values(b, m, &nb);
				struct hist_step s = { a, b, k, { 0 } };

				s.m.m = m;
				if (na && nb) {
					ret = cmp_judge_values(va, na, vb, nb, metric_table[m].higher_better, o,
							       &s.m);
					if (!ret && (s.m.verdict == CMP_REGRESSION ||
						     s.m.verdict == CMP_IMPROVEMENT))
						ret = add_step(steps, nr, &s);
				}
				free(va);
				free(vb);
			}
		}
	}
	if (ret) {
		free(*steps);
		*steps = NULL;
		*nr = 0;
		return iop_errf(err, ret, "out of memory judging the history");
	}
	return 0;
}
