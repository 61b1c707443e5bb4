/* History: runs pooled per version, and the steps between adjacent versions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/history.h"

static const char *label_of(const struct results *r, const char *by)
{
	const char *v = json_string_value(json_object_get(r->labels, by));

	return v ? v : "";
}

int history_group(struct results **runs, unsigned n, const char *by, struct results **groups,
		  unsigned *members, unsigned *nr_groups, struct iop_err *err)
{
	unsigned i, ng = 0;
	int ret;

	*nr_groups = 0;
	for (i = 0; i < n; i++) {
		if (by && ng && !strcmp(label_of(groups[ng - 1], by), label_of(runs[i], by))) {
			/* the same version again: its repeats are more samples of the same cells */
			ret = results_merge(groups[ng - 1], runs[i], err);
			if (ret) {
				/* never a second group of the same label: the history stops here */
				*nr_groups = ng;
				return ret;
			}
			results_free(runs[i]);
			if (members)
				members[ng - 1]++;
			continue;
		}
		if (members)
			members[ng] = 1;
		groups[ng++] = runs[i];
	}
	*nr_groups = ng;
	return 0;
}

/* What decides a time name: 0 the minute, 1 the second, 2 the millisecond. */
static void time_name(char *buf, size_t len, const struct results *r, const char *day, int prec)
{
	time_t t = (time_t)(r->timestamp_ms / 1000);
	char hm[16];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(hm, sizeof(hm), prec ? "%H:%M:%S" : "%H:%M", &tm);
	if (prec == 2)
		snprintf(buf, len, "%s%s%s.%03lld", day, *day ? " " : "", hm,
			 (long long)(r->timestamp_ms % 1000));
	else
		snprintf(buf, len, "%s%s%s", day, *day ? " " : "", hm);
}

void history_names(struct results *const *runs, unsigned n, const char *by, char **names, size_t len,
		   char *shared, size_t slen)
{
	char first[32] = "", cur[32] = "";
	bool same_day = true, same_year = true, dup;
	unsigned i, k;
	int prec;

	if (shared && slen)
		shared[0] = '\0';
	if (by) {
		for (i = 0; i < n; i++)
			snprintf(names[i], len, "%s=%s", by,
				 json_string_value(json_object_get(runs[i]->labels, by)) ?: "?");
		return;
	}
	for (i = 0; i < n; i++) {
		time_t t = (time_t)(runs[i]->timestamp_ms / 1000);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(cur, sizeof(cur), "%Y-%m-%d", &tm);
		if (!i)
			memcpy(first, cur, sizeof(first));
		same_day &= !strcmp(cur, first);
		same_year &= !strncmp(cur, first, 4);
	}
	if (shared && slen)
		snprintf(shared, slen, "%.*s", same_day ? 10 : same_year ? 4 : 0, first);
	/* the coarsest precision at which every name differs from every other */
	for (prec = 0; prec <= 2; prec++) {
		for (i = 0; i < n; i++) {
			time_t t = (time_t)(runs[i]->timestamp_ms / 1000);
			char day[32] = "";
			struct tm tm;

			gmtime_r(&t, &tm);
			if (!same_day)
				strftime(day, sizeof(day), same_year ? "%m-%d" : "%Y-%m-%d", &tm);
			time_name(names[i], len, runs[i], day, prec);
		}
		for (dup = false, i = 0; i < n && !dup; i++)
			for (k = i + 1; k < n && !dup; k++)
				dup = !strcmp(names[i], names[k]);
		if (!dup)
			return;
	}
	/* runs of one millisecond: numbered, the first of them #1 */
	for (i = 0; i < n; i++) {
		unsigned nth = 1, of = 1;

		for (k = 0; k < n; k++)
			if (k != i && runs[k]->timestamp_ms == runs[i]->timestamp_ms) {
				of++;
				nth += k < i;
			}
		if (of > 1)
			snprintf(names[i] + strlen(names[i]), len - strlen(names[i]), " #%u", nth);
	}
}

int history_judge(struct results *const *groups, unsigned n, const struct cmp_opts *o,
		  struct cmp_report **reps, struct iop_err *err)
{
	unsigned k;
	int ret;

	*reps = calloc(n > 1 ? n - 1 : 1, sizeof(**reps));
	if (!*reps)
		return iop_errf(err, -ENOMEM, "out of memory judging the history");
	for (k = 1; k < n; k++) {
		ret = compare_results(groups[k - 1], groups[k], o, &(*reps)[k - 1], err);
		if (ret) {
			history_reports_free(*reps, k - 1);
			*reps = NULL;
			return ret;
		}
	}
	return 0;
}

void history_reports_free(struct cmp_report *reps, unsigned nr)
{
	unsigned i;

	for (i = 0; reps && i < nr; i++)
		cmp_report_free(&reps[i]);
	free(reps);
}

/* Cell key's metric m in the comparison of one step, or NULL. */
static const struct cmp_row *row_of(const struct cmp_report *rep, const char *key,
				    enum metric_id m, const struct cmp_metric **met)
{
	unsigned i, k;

	for (i = 0; i < rep->nr; i++) {
		if (strcmp(rep->rows[i].base->key, key))
			continue;
		for (k = 0; k < rep->rows[i].nr; k++)
			if (rep->rows[i].met[k].m == m) {
				*met = &rep->rows[i].met[k];
				return &rep->rows[i];
			}
	}
	return NULL;
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
		  const struct cmp_report *reps, struct hist_step **steps, unsigned *nr,
		  struct iop_err *err)
{
	unsigned g, c, k;
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
				const struct cmp_metric *cm = NULL;
				const struct cmp_row *row = row_of(&reps[k - 1], cell->key, m, &cm);
				struct hist_step s;

				if (!row || (cm->verdict != CMP_REGRESSION && cm->verdict != CMP_IMPROVEMENT))
					continue;
				s = (struct hist_step){ row->base, row->cur, k, *cm };
				s.m.rank.d = NULL;	/* the report's own: its figures are copied */
				ret = add_step(steps, nr, &s);
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

int history_exit_code(const struct cmp_report *reps, unsigned n, const struct cmp_opts *o)
{
	const struct cmp_report *last = n > 1 ? &reps[n - 2] : NULL;

	if (!last || !last->nr)
		return o->allow_inconclusive ? 0 : CMP_EXIT_INCONCLUSIVE;
	return cmp_exit_code(last, o);
}
