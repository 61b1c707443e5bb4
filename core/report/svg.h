/*
 * A small SVG chart writer for the HTML report: bars, lines (linear or log axes), a heat map
 * and an interval chart, written inline. Every string that reaches the output goes through
 * xml_escape: data is never markup.
 */
#ifndef IOPATH_SVG_H
#define IOPATH_SVG_H

#include <stdbool.h>
#include <stdio.h>

/* s with & < > " ' written as entities (and control characters dropped); NULL writes nothing. */
void xml_escape(FILE *f, const char *s);

/* A number as an axis or table shows it: 1.5k, 12.3M, 0.25 ... */
void svg_fmt_num(char *buf, size_t len, double v);

/*
 * How wide s is, in pixels, set at size px in the charts' face (DejaVu Sans, what
 * "sans-serif" is on Debian: its advances, an upper bound for narrower faces); bold is wider.
 * The charts lay their text out by it, and their tests check the text stays inside the chart.
 */
double svg_text_width(const char *s, double size, bool bold);

/* The widest chart a 1280-pixel window shows whole beside the page's margins, in pixels. */
#define SVG_MAX_W 1100.0

/*
 * One line or one bar series: y[i] at x[i] (lines) or at category i (bars); NAN = missing.
 * A line joins its points in order, over missing ones.
 */
struct svg_series {
	const char *name;
	unsigned n;
	const double *x;
	const double *y;
	const char *const *ring;	/* lines: per point, a note that rings it in red, or NULL */
	const double *lo, *hi;		/* lines: a band from lo[i] to hi[i] around it, or NULL */
	unsigned colour;		/* 1 + the palette's index; 0: the series' position */
	unsigned dash;			/* lines: 0 solid, 1.. a dash pattern (another target) */
};

struct svg_chart {
	const char *title;
	const char *subtitle;		/* a line under the title (what the band is...), or NULL */
	const char *xlabel, *ylabel;
	bool xlog, ylog;		/* log10 axes; values <= 0 are not drawn there */
	/* bars: category names (one group of bars per category) */
	unsigned ncat;
	const char *const *cats;
	/* lines: fixed x ticks (values and labels), else computed */
	unsigned nxticks;
	const double *xticks;
	const char *const *xticklabels;
	/* lines: names of x values that have no tick (tooltips), optional */
	unsigned nxpoints;
	const double *xpoints;
	const char *const *xpointlabels;
	unsigned nser;
	const struct svg_series *ser;
	/* a vertical marker at x (lines) with its label, NAN / NULL for none */
	double mark_x;
	const char *mark_label;
	const char *unit;		/* appended to values in tooltips */
};

/* Grouped bars: one group per category, one bar per series. */
int svg_bars(FILE *f, const struct svg_chart *c);

/* How many categories of nser bars fit in one chart of at most SVG_MAX_W pixels. */
unsigned svg_bars_max_cats(unsigned nser);

/* Lines with points, one per series. */
int svg_lines(FILE *f, const struct svg_chart *c);

/*
 * A heat map: rows x cols values (row-major, NAN = empty) coloured on a log scale around
 * 1 (ratio charts: below 1 one hue, above 1 the other), each cell labelled with text[i]
 * (or the value when text is NULL).
 */
struct svg_heat {
	const char *title;
	unsigned rows, cols;
	const char *const *rowlabels, *const *collabels;
	const double *v;
	const char *const *text;
	const char *legend;		/* what the colours mean */
};
int svg_heatmap(FILE *f, const struct svg_heat *h);

/*
 * Intervals: per row a point (the change) and its interval, on a percent axis with the band
 * +-threshold shaded; cls[i] names the row's class (its colour: regression, improvement...).
 */
struct svg_intervals {
	const char *title;
	unsigned n;
	const char *const *labels;
	const double *mid, *lo, *hi;	/* relative changes, 0.1 = +10%; NAN lo/hi = no interval */
	const char *const *cls;
	double threshold;
};
int svg_interval_chart(FILE *f, const struct svg_intervals *iv);

#endif
