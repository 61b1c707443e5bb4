/*
 * Unit tests of the chart module's geometry: a line joins its points (over missing ones),
 * bands are drawn, and every text of every kind of chart stays inside its view box, measured
 * with the module's own text widths, however long the names.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"

#define LONG "randread bs=4k qd=8 runtime=2 fsync=- numjobs=4 rwmixread=70 a name that goes on"

static char *out;
static size_t out_len;

static void free_out(void)
{
	free(out);
	out = NULL;
	out_len = 0;
}

TestSuite(svg, .fini = free_out);

static FILE *start(void)
{
	FILE *f;

	free_out();
	f = open_memstream(&out, &out_len);
	cr_assert_not_null(f);
	return f;
}

static void done(FILE *f)
{
	cr_assert_eq(fclose(f), 0);
}

static double attr(const char *tag, const char *end, const char *name, double def)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(tag, key);
	return p && p < end ? strtod(p + strlen(key), NULL) : def;
}

/* A text element's content without its tooltip, entities as the characters they stand for. */
static void content(const char *p, const char *end, char *buf, size_t len)
{
	size_t n = 0;

	while (p < end && n + 1 < len) {
		if (!strncmp(p, "<title>", 7)) {
			p = strstr(p, "</title>") + 8;
			continue;
		}
		if (*p == '&') {
			buf[n++] = 'W';	/* an entity: count it as one wide character */
			p = strchr(p, ';') + 1;
			continue;
		}
		buf[n++] = *p++;
	}
	buf[n] = '\0';
}

/* Every <text> of the SVG in out: its box, turned as its transform says, inside the view box. */
static unsigned texts_inside(void)
{
	double W, H;
	const char *p = strstr(out, "viewBox=\"0 0 "), *t;
	unsigned n = 0;

	cr_assert_not_null(p);
	cr_assert_eq(sscanf(p, "viewBox=\"0 0 %lf %lf", &W, &H), 2);
	for (t = out; (t = strstr(t, "<text")); t++) {
		const char *gt = strchr(t, '>'), *close = strstr(t, "</text>"), *tr;
		double x = attr(t, gt, "x", 0), y = attr(t, gt, "y", 0), size = attr(t, gt, "font-size", 11);
		double rot = 0, w, x0, x1, cx[4], cy[4], a;
		bool bold = memmem(t, (size_t)(gt - t), "bold", 4) != NULL;
		char text[1024];

		cr_assert(gt && close);
		tr = memmem(t, (size_t)(gt - t), "translate(", 10);
		if (tr) {
			sscanf(tr, "translate(%lf %lf) rotate(%lf)", &x, &y, &rot);
		}
		content(gt + 1, close, text, sizeof(text));
		w = svg_text_width(text, size, bold);
		if (memmem(t, (size_t)(gt - t), "text-anchor=\"end\"", 17))
			x0 = -w, x1 = 0;
		else if (memmem(t, (size_t)(gt - t), "text-anchor=\"middle\"", 20))
			x0 = -w / 2, x1 = w / 2;
		else
			x0 = 0, x1 = w;
		if (!tr)
			x0 += x, x1 += x;
		cx[0] = cx[3] = x0;
		cx[1] = cx[2] = x1;
		cy[0] = cy[1] = (tr ? 0 : y) - size * 0.8;
		cy[2] = cy[3] = (tr ? 0 : y) + size * 0.25;
		a = rot * M_PI / 180;
		for (unsigned k = 0; k < 4; k++) {
			double px = cx[k], py = cy[k];

			if (tr) {
				px = x + cx[k] * cos(a) - cy[k] * sin(a);
				py = y + cx[k] * sin(a) + cy[k] * cos(a);
			}
			cr_assert(px >= -0.5 && px <= W + 0.5 && py >= -0.5 && py <= H + 0.5,
				  "text \"%s\" reaches (%.1f, %.1f), outside 0 0 %.0f %.0f", text, px, py, W, H);
		}
		n++;
	}
	return n;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

Test(svg, a_line_joins_its_points_over_missing_ones)
{
	static const double x[] = { 1, 2, 4, 8, 16 }, y[] = { 10, NAN, 30, NAN, 50 };
	const struct svg_series ser[] = { { .name = "psync", .n = 5, .x = x, .y = y } };
	struct svg_chart c = { .title = "t", .xlog = true, .nser = 1, .ser = ser, .mark_x = NAN };
	FILE *f = start();
	const char *d;

	cr_assert_eq(svg_lines(f, &c), 0);
	done(f);
	d = strstr(out, "class=\"line\"");
	cr_assert_not_null(d);
	d = strstr(d, " d=\"");
	cr_assert_not_null(d);
	/* three points: one move, two lines, nothing else until the attribute ends */
	cr_assert_eq(d[4], 'M', "%.60s", d);
	cr_assert_eq(count(d, "L") >= 2, 1);
	{
		const char *e = strchr(d + 4, '"');
		unsigned m = 0, l = 0;

		for (const char *p = d + 4; p < e; p++) {
			m += *p == 'M';
			l += *p == 'L';
		}
		cr_assert_eq(m, 1, "%u moves: %.*s", m, (int)(e - d), d);
		cr_assert_eq(l, 2, "%u lines: %.*s", l, (int)(e - d), d);
	}
	cr_assert_eq(count(out, "class=\"dot\""), 3);
}

Test(svg, a_band_is_drawn_around_its_line)
{
	static const double x[] = { 1, 4, 16 }, y[] = { 10, 20, 30 }, lo[] = { 8, 15, 25 },
			    hi[] = { 12, 26, 35 };
	const struct svg_series ser[] = { { .name = "a", .n = 3, .x = x, .y = y, .lo = lo, .hi = hi } };
	struct svg_chart c = { .title = "t", .nser = 1, .ser = ser, .mark_x = NAN };
	FILE *f = start();

	cr_assert_eq(svg_lines(f, &c), 0);
	done(f);
	cr_assert_eq(count(out, "class=\"band\""), 1);
	cr_assert_not_null(strstr(out, "Z\"/>"), "the band is not closed");
}

Test(svg, line_chart_text_stays_inside)
{
	static const double x[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256 };
	static const double y[] = { 1e3, 2e3, 4e3, 8e3, 1.6e4, 3.2e4, 6.4e4, 1.2e5, 2e5 };
	static const char *const tl[] = { "1", "2", "4", "8", "16", "32", "64", "128", "256" };
	struct svg_series ser[20];
	struct svg_chart c = {
		.title = "Queue-depth scaling on a target with a long name: " LONG,
		.subtitle = LONG " " LONG, .xlabel = LONG, .ylabel = LONG " (us)", .xlog = true,
		.nxticks = 9, .xticks = x, .xticklabels = tl, .nser = 20, .ser = ser, .mark_x = 256,
		.mark_label = "a marker label far at the right end",
	};
	FILE *f = start();

	for (unsigned k = 0; k < 20; k++)
		ser[k] = (struct svg_series){ .name = k % 2 ? LONG : "psync", .n = 9, .x = x, .y = y,
					      .dash = k };
	cr_assert_eq(svg_lines(f, &c), 0);
	done(f);
	cr_assert(texts_inside() > 30);
}

Test(svg, bar_chart_text_stays_inside)
{
	static const char *const cats[] = { LONG, "b", LONG LONG, "psync qd=16", LONG };
	static const double y1[] = { 1, 200, 3e4, 4, 5 }, y2[] = { 3, 4, 5, 6, 7 };
	const struct svg_series ser[] = { { .name = LONG, .n = 5, .y = y1 }, { .name = "two", .n = 5, .y = y2 } };
	struct svg_chart c = { .title = LONG LONG, .subtitle = LONG, .xlabel = LONG, .ylabel = "IOPS",
			       .ncat = 5, .cats = cats, .nser = 2, .ser = ser, .mark_x = NAN };
	FILE *f = start();

	cr_assert_eq(svg_bars(f, &c), 0);
	done(f);
	cr_assert(texts_inside() > 10);
}

Test(svg, bars_split_to_fit_the_page)
{
	for (unsigned nser = 1; nser < 12; nser++) {
		unsigned n = svg_bars_max_cats(nser);
		static const char *cats[200];
		static double y[200];
		struct svg_series ser[12];
		struct svg_chart c = { .title = "t", .ncat = n, .cats = cats, .nser = nser, .ser = ser,
				       .mark_x = NAN };
		FILE *f = start();
		double w;

		for (unsigned i = 0; i < n; i++) {
			cats[i] = LONG;
			y[i] = i + 1;
		}
		for (unsigned k = 0; k < nser; k++)
			ser[k] = (struct svg_series){ .name = "e", .n = n, .y = y };
		cr_assert_eq(svg_bars(f, &c), 0);
		done(f);
		cr_assert_eq(sscanf(strstr(out, "viewBox=\"0 0 "), "viewBox=\"0 0 %lf", &w), 1);
		cr_assert(w <= SVG_MAX_W, "%u series: %u categories make %.0f px", nser, n, w);
		texts_inside();
	}
}

Test(svg, heat_map_and_interval_text_stays_inside)
{
	static const char *const rows[] = { LONG, "b" }, *const cols[] = { "a", LONG, LONG "x" };
	static const double v[] = { 1, 2, 0.5, NAN, 8, 1 };
	static const char *const labels[] = { LONG LONG, "b" };
	static const double mid[] = { 0.1, -0.5 }, lo[] = { 0.05, -0.7 }, hi[] = { 0.2, NAN };
	struct svg_heat h = { .title = LONG LONG, .rows = 2, .cols = 3, .rowlabels = rows,
			      .collabels = cols, .v = v, .legend = LONG LONG };
	struct svg_intervals iv = { .title = LONG LONG, .n = 2, .labels = labels, .mid = mid,
				    .lo = lo, .hi = hi, .threshold = 0.05 };
	FILE *f = start();

	cr_assert_eq(svg_heatmap(f, &h), 0);
	done(f);
	cr_assert(texts_inside() > 5);
	f = start();
	cr_assert_eq(svg_interval_chart(f, &iv), 0);
	done(f);
	cr_assert(texts_inside() > 5);
}

Test(svg, text_widths_grow_with_the_text)
{
	cr_assert(svg_text_width("iiii", 11, false) < svg_text_width("mmmm", 11, false));
	cr_assert(svg_text_width("abc", 11, false) < svg_text_width("abc", 11, true));
	cr_assert_float_eq(svg_text_width("", 11, false), 0, 1e-9);
	/* one per character, not per byte */
	cr_assert(svg_text_width("\xc3\x97", 11, false) <= 11);
}
