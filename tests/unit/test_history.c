/*
 * Unit tests: the names history and the trend give their runs: the shortest that tells them
 * apart (no day repeated on every run, no two runs named alike), what they leave out said once.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "results/history.h"

#define MAXR 6

/* 2026-12-02 14:45:04.510 UTC */
#define T0 1796222704510ull

struct named {
	struct results r[MAXR];
	struct results *p[MAXR];
	char buf[MAXR][64], *names[MAXR], shared[16];
};

/* Runs started at t[i] ms (and labelled qemu=q[i] where q[i] is not NULL), named. */
static void name_runs(struct named *s, unsigned n, const uint64_t *t, const char *const *q,
		      const char *by)
{
	unsigned i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		s->r[i].timestamp_ms = t[i];
		s->r[i].labels = json_object();
		if (q && q[i])
			json_object_set_new(s->r[i].labels, "qemu", json_string(q[i]));
		s->p[i] = &s->r[i];
		s->names[i] = s->buf[i];
	}
	history_names(s->p, n, by, s->names, sizeof(s->buf[0]), s->shared, sizeof(s->shared));
	for (i = 0; i < n; i++)
		json_decref(s->r[i].labels);
}

static void expect(const struct named *s, unsigned n, const char *const *want, const char *shared)
{
	unsigned i;

	for (i = 0; i < n; i++)
		cr_expect_str_eq(s->names[i], want[i], "run %u", i);
	cr_expect_str_eq(s->shared, shared);
}

Test(history_names, runs_of_one_day_are_named_by_the_minute_without_the_day)
{
	const uint64_t t[] = { T0, T0 + 5 * 60000, T0 + 3600000 };
	const char *const want[] = { "14:45", "14:50", "15:45" };
	struct named s;

	name_runs(&s, 3, t, NULL, NULL);
	expect(&s, 3, want, "2026-12-02");
}

Test(history_names, runs_of_one_minute_get_their_seconds)
{
	const uint64_t t[] = { T0, T0 + 1000, T0 + 50000 };
	const char *const want[] = { "14:45:04", "14:45:05", "14:45:54" };
	struct named s;

	name_runs(&s, 3, t, NULL, NULL);
	expect(&s, 3, want, "2026-12-02");
}

Test(history_names, runs_of_one_second_get_their_milliseconds)
{
	/* the gallery's four runs */
	const uint64_t t[] = { T0, T0 + 375, T0 + 758, T0 + 1116 };
	const char *const want[] = { "14:45:04.510", "14:45:04.885", "14:45:05.268", "14:45:05.626" };
	struct named s;

	name_runs(&s, 4, t, NULL, NULL);
	expect(&s, 4, want, "2026-12-02");
}

Test(history_names, runs_of_one_millisecond_are_numbered_in_order)
{
	const uint64_t t[] = { T0, T0, T0 + 1, T0 };
	const char *const want[] = { "14:45:04.510 #1", "14:45:04.510 #2", "14:45:04.511",
				     "14:45:04.510 #3" };
	struct named s;

	name_runs(&s, 4, t, NULL, NULL);
	expect(&s, 4, want, "2026-12-02");
}

Test(history_names, days_apart_keep_the_day_and_the_year_goes_once)
{
	const uint64_t t[] = { T0, T0 + 86400000ull, T0 + 86400000ull + 60000 };
	const char *const want[] = { "12-02 14:45", "12-03 14:45", "12-03 14:46" };
	struct named s;

	name_runs(&s, 3, t, NULL, NULL);
	expect(&s, 3, want, "2026");
}

Test(history_names, years_apart_keep_the_whole_date)
{
	/* 40 days after 2 December is in the next year */
	const uint64_t t[] = { T0, T0 + 40 * 86400000ull };
	const char *const want[] = { "2026-12-02 14:45", "2027-01-11 14:45" };
	struct named s;

	name_runs(&s, 2, t, NULL, NULL);
	expect(&s, 2, want, "");
}

Test(history_names, by_a_label_its_value)
{
	const uint64_t t[] = { T0, T0, T0 };
	const char *const q[] = { "8.1", NULL, "9.0" };
	const char *const want[] = { "qemu=8.1", "qemu=?", "qemu=9.0" };
	struct named s;

	name_runs(&s, 3, t, q, "qemu");
	expect(&s, 3, want, "");
}
