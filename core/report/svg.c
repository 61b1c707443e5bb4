/* The HTML report's SVG charts: axes, bars, lines, heat map and intervals, every string escaped. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/svg.h"

/* Okabe-Ito's colour-blind safe palette, then a few more distinct hues. */
static const char *const palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#f0e442", "#000000",
	"#8c564b", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

#define FONT "font-size=\"11\""
#define FS 11.0		/* the charts' text */
#define TS 14.0		/* titles */
#define ML 72.0		/* left margin: y tick labels and the y axis's name */
#define MR 24.0
#define PAD 10.0	/* where titles and legends start */
#define PLOT_H 240.0

void xml_escape(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* XML 1.0 forbids most control characters, even as references */
			if (ch >= 0x20 || ch == '\t' || ch == '\n')
				fputc(ch, f);
		}
	}
}

/* DejaVu Sans' advance of a character in ems, rounded up (beyond ASCII: a wide glyph's). */
static double advance(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return 0.64;
	if (ch == ' ')
		return 0.32;
	if (ch && strchr("iljtfrI.,:;'|!()[]-", ch))
		return 0.42;
	if (ch && strchr("mwMW%", ch))
		return 1.0;
	if (ch >= 'A' && ch <= 'Z')
		return 0.77;
	if (ch && strchr("=+<>~#&@_", ch))
		return 0.84;
	return ch < 0x80 ? 0.64 : 1.0;
}

/* Bold text is this much wider. */
#define BOLD 1.1

double svg_text_width(const char *s, double size, bool bold)
{
	double w = 0;

	for (; s && *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)	/* one per UTF-8 character */
			w += advance((unsigned char)*s);
	return w * size * (bold ? BOLD : 1.0);
}

/* How many of s's n bytes fit in maxw pixels with "..." after them; n when all of them fit. */
static size_t fit_len(const char *s, size_t n, double size, bool bold, double maxw)
{
	double w = 0, k = size * (bold ? BOLD : 1.0), dots = 3 * advance('.') * k;
	size_t i, best = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (w + dots <= maxw)
				best = i;
			w += advance((unsigned char)s[i]) * k;
		}
	return w <= maxw ? n : best;
}

/* n bytes of s, escaped, cut to fit maxw pixels ("..." marking the cut). */
static void put_fit(FILE *f, const char *s, size_t n, double size, bool bold, double maxw)
{
	char buf[512];
	size_t k;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	k = fit_len(s, n, size, bold, maxw);
	memcpy(buf, s, k);
	buf[k] = '\0';
	xml_escape(f, buf);
	if (k < n)
		fputs("...", f);
}

/* s, escaped, cut to fit maxw pixels; when cut, the whole of it in a tooltip. */
static void text_fit(FILE *f, const char *s, double size, double maxw)
{
	size_t n = s ? strlen(s) : 0;

	if (!s)
		return;
	if (fit_len(s, n, size, false, maxw) < n) {
		fputs("<title>", f);
		xml_escape(f, s);
		fputs("</title>", f);
	}
	put_fit(f, s, n, size, false, maxw);
}

/*
 * s wrapped at its spaces into lines of at most maxw pixels, at most maxl of them (the last
 * one cut), from (x, y) down a line every size + 4 pixels; dry only counts. Returns the lines.
 */
static unsigned wrap(FILE *f, const char *s, double x, double y, double size, bool bold,
		     double maxw, unsigned maxl, const char *attrs, bool dry)
{
	unsigned lines = 0;

	while (s && *s && lines < maxl) {
		size_t n = strlen(s), k = fit_len(s, n, size, bold, maxw), cut = n;

		if (k < n && lines + 1 < maxl) {
			/* the last space that keeps the line inside maxw, else the cut */
			for (cut = k; cut > 0 && s[cut] != ' '; cut--)
				;
			if (!cut)
				cut = k ? k : 1;
		}
		if (!dry) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\"%s%s>", x,
				y + (size + 4) * lines, size, bold ? " font-weight=\"bold\"" : "",
				attrs ? attrs : "");
			put_fit(f, s, cut, size, bold, maxw);
			fputs("</text>\n", f);
		}
		lines++;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

void svg_fmt_num(char *buf, size_t len, double v)
{
	static const struct { double div; const char *sfx; } si[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
	};
	double a = fabs(v);
	unsigned i;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	for (i = 0; i < sizeof(si) / sizeof(si[0]); i++)
		if (a >= si[i].div) {
			double d = v / si[i].div;

			snprintf(buf, len, fabs(d) >= 100 ? "%.0f%s" : fabs(d) >= 10 ? "%.1f%s" : "%.2f%s",
				 d, si[i].sfx);
			return;
		}
	if (a >= 100 || a == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 0.01)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.2g", v);
}

/* ---- axes ---- */

struct axis {
	double lo, hi;		/* data range (log10 of it on a log axis) */
	bool log;
	double p0, p1;		/* pixels of lo and hi */
};

/* A value's position on the axis; never NaN or infinite, which would reach an attribute. */
static double ax_map(const struct axis *a, double v)
{
	double p;

	if (a->log)
		v = log10(v);
	if (a->hi == a->lo)
		return (a->p0 + a->p1) / 2;
	p = a->p0 + (v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
	return isfinite(p) ? p : a->p0;
}

static bool ax_ok(const struct axis *a, double v)
{
	return isfinite(v) && (!a->log || v > 0);
}

/* Fit the axis to [lo, hi] (raw values), rounded out to nice ticks; from_zero for bars. */
static void ax_fit(struct axis *a, double lo, double hi, bool from_zero)
{
	if (!(lo <= hi)) {
		lo = a->log ? 1 : 0;
		hi = a->log ? 10 : 1;
	}
	if (a->log) {
		a->lo = floor(log10(lo));
		a->hi = ceil(log10(hi));
		if (a->hi <= a->lo)
			a->hi = a->lo + 1;
		return;
	}
	if (from_zero && lo > 0)
		lo = 0;
	if (hi == lo)
		hi = lo + (lo ? fabs(lo) : 1);
	{
		double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), step;

		step = raw / mag < 1.5 ? mag : raw / mag < 3 ? 2 * mag : raw / mag < 7 ? 5 * mag : 10 * mag;
		a->lo = floor(lo / step) * step;
		a->hi = ceil(hi / step) * step;
	}
}

/* Tick values on the axis (raw values), at most max; returns how many. */
static unsigned ax_ticks(const struct axis *a, double *t, unsigned max)
{
	unsigned n = 0;

	if (a->log) {
		double d, decades = a->hi - a->lo;

		for (d = a->lo; d <= a->hi + 1e-9 && n < max; d++) {
			t[n++] = pow(10, d);
			if (decades <= 2 && d < a->hi) {
				if (n < max)
					t[n++] = 2 * pow(10, d);
				if (n < max)
					t[n++] = 5 * pow(10, d);
			}
		}
		return n;
	}
	{
		double raw = (a->hi - a->lo) / 5, mag = pow(10, floor(log10(raw))), step, v;

		step = raw / mag < 1.5 ? mag : raw / mag < 3 ? 2 * mag : raw / mag < 7 ? 5 * mag : 10 * mag;
		for (v = a->lo; v <= a->hi + step * 1e-6 && n < max; v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

static void svg_open(FILE *f, double w, double h, const char *kind, const char *title)
{
	fprintf(f, "<svg class=\"chart\" data-kind=\"%s\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"font-family=\"sans-serif\"><title>", kind, w, h, w, h);
	xml_escape(f, title);
	fputs("</title>\n", f);
}

/*
 * The title (bold, wrapped to three lines) and the subtitle under it (two), across a chart w
 * wide; dry only measures. Returns where the chart's content starts.
 */
static double header(FILE *f, const char *title, const char *sub, double w, bool dry)
{
	double y = 20;
	unsigned n = wrap(f, title, PAD, y, TS, true, w - 2 * PAD, 3, NULL, dry);

	if (n)
		y += (TS + 4) * (n - 1);
	else
		y = 4;
	if (sub && *sub) {
		n = wrap(f, sub, PAD, y + 16, FS, false, w - 2 * PAD, 2, " fill=\"#555\"", dry);
		y += 16 + (FS + 4) * (n ? n - 1 : 0);
	}
	return y + 10;
}

static void y_axis(FILE *f, const struct axis *y, double x0, double x1, const char *label)
{
	double t[32];
	unsigned n = ax_ticks(y, t, 32), i;
	char b[32];

	for (i = 0; i < n; i++) {
		double py = ax_map(y, t[i]);

		svg_fmt_num(b, sizeof(b), t[i]);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" " FONT ">%s</text>\n",
			x0, x1, py, py, x0 - 6, py + 4, b);
	}
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		x0, x0, y->p0, y->p1);
	if (label) {
		fprintf(f, "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\" " FONT ">",
			(y->p0 + y->p1) / 2);
		text_fit(f, label, FS, y->p0 - y->p1 - 8);
		fputs("</text>\n", f);
	}
}

static const char *const dashes[] = { "", "7 4", "2 3", "9 3 2 3" };
#define NDASH (sizeof(dashes) / sizeof(dashes[0]))

static const char *colour_of(const struct svg_chart *c, unsigned k)
{
	return palette[(c->ser[k].colour ? c->ser[k].colour - 1 : k) % NPAL];
}

/*
 * The series' names as a legend from (x, top), wrapping at width: a swatch of the line (its
 * dash) or of the bar, and the name. dry only measures. Returns the height used.
 */
static double legend(FILE *f, const struct svg_chart *c, double x, double top, double width,
		     bool lines, bool dry)
{
	double cx = x, cy = top + 11, maxt = width - 32;
	unsigned i;

	for (i = 0; i < c->nser; i++) {
		const char *name = c->ser[i].name ? c->ser[i].name : "";
		double w = 18 + fmin(svg_text_width(name, FS, false), maxt) + 14;

		if (cx + w > x + width && cx > x) {
			cx = x;
			cy += 16;
		}
		if (!dry) {
			fputs("<g class=\"legend\">", f);
			if (lines)
				fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\" stroke-dasharray=\"%s\"/>",
					cx, cx + 14, cy - 4, cy - 4, colour_of(c, i),
					dashes[c->ser[i].dash % NDASH]);
			else
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>",
					cx, cy - 10, colour_of(c, i));
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" " FONT ">", cx + 18, cy);
			text_fit(f, name, FS, maxt);
			fputs("</text></g>\n", f);
		}
		cx += w;
	}
	return c->nser ? cy - top + 8 : 0;
}

/*
 * A chart's frame, w wide: the SVG element (as high as the header, the legend, the plot and
 * below more), the title and subtitle (saying where the y axis went logarithmic by itself),
 * the legend under them, outside the plot, and the y axis's span in pixels. Returns the height.
 */
static double frame(FILE *f, const struct svg_chart *c, const char *kind, double w, double below,
		    struct axis *y)
{
	bool lines = !strcmp(kind, "lines");
	char sub[512];
	double top, lh, h;

	snprintf(sub, sizeof(sub), "%s%s%s", c->subtitle ? c->subtitle : "",
		 c->subtitle && y->log && !c->ylog ? "; " : "", y->log && !c->ylog ? "log scale" : "");
	top = header(f, c->title, sub, w, true);
	lh = legend(f, c, PAD, top, w - 2 * PAD, lines, true);
	h = top + lh + 8 + PLOT_H + below;
	svg_open(f, w, h, kind, c->title);
	header(f, c->title, sub, w, false);
	legend(f, c, PAD, top, w - 2 * PAD, lines, false);
	y->p1 = top + lh + 8;
	y->p0 = y->p1 + PLOT_H;
	return h;
}

static void tooltip(FILE *f, const char *who, const char *at, double v, const char *unit)
{
	char b[32];

	svg_fmt_num(b, sizeof(b), v);
	fputs("<title>", f);
	xml_escape(f, who);
	if (at && *at) {
		fputs(" @ ", f);
		xml_escape(f, at);
	}
	fprintf(f, ": %s", b);
	if (unit) {
		fputc(' ', f);
		xml_escape(f, unit);
	}
	fputs("</title>", f);
}

/* Category labels turn by this much (35 degrees) where they do not fit under their group. */
#define ROT_COS 0.819
#define ROT_SIN 0.574
#define CAT_MAXW 200.0	/* a category label's widest */
#define BAR_W(nser) ((nser) > 6 ? 10.0 : 16.0)

unsigned svg_bars_max_cats(unsigned nser)
{
	double groupw = BAR_W(nser) * nser + 14;
	/* the left margin a turned first label can need */
	double room = SVG_MAX_W - MR - (ML + CAT_MAXW * ROT_COS);
	unsigned n = (unsigned)(room / groupw);

	return n ? n : 1;
}

/* The bars' group labels under the axis at base_y, turned when turn. */
static void bar_labels(FILE *f, const struct svg_chart *c, double x0, double groupw, double y0,
		       bool turn)
{
	unsigned i;

	for (i = 0; i < c->ncat; i++) {
		double gx = x0 + 7 + groupw * i;

		if (turn)
			fprintf(f, "<text class=\"cat\" transform=\"translate(%.1f %.1f) rotate(-35)\" text-anchor=\"end\" " FONT ">",
				gx + groupw / 2, y0 + 14);
		else
			fprintf(f, "<text class=\"cat\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">",
				gx + groupw / 2 - 7, y0 + 16);
		text_fit(f, c->cats[i], FS, turn ? CAT_MAXW : groupw);
		fputs("</text>\n", f);
	}
}

int svg_bars(FILE *f, const struct svg_chart *c)
{
	double lo = INFINITY, hi = -INFINITY, barw = BAR_W(c->nser), groupw, w, h, base_y, x0 = ML,
	       maxlw = 0, below;
	struct axis y = { .log = c->ylog };
	unsigned i, k;
	bool turn = false;

	if (!c->ncat || !c->nser)
		return -ENODATA;
	for (k = 0; k < c->nser; k++)
		for (i = 0; i < c->ncat && i < c->ser[k].n; i++)
			if (ax_ok(&y, c->ser[k].y[i])) {
				lo = fmin(lo, c->ser[k].y[i]);
				hi = fmax(hi, c->ser[k].y[i]);
			}
	if (!(lo <= hi))
		return -ENODATA;
	/* values over more than two decades (the null engine beside a disk): a log axis */
	if (!y.log && lo > 0 && hi / lo > 100)
		y.log = true;
	groupw = barw * c->nser + 14;
	for (i = 0; i < c->ncat; i++)
		if (svg_text_width(c->cats[i], FS, false) > groupw - 4)
			turn = true;
	for (i = 0; turn && i < c->ncat; i++) {
		double lw = fmin(svg_text_width(c->cats[i], FS, false), CAT_MAXW);

		/* a turned label reaches left of its group: the margin makes room for it */
		maxlw = fmax(maxlw, lw);
		x0 = fmax(x0, 4 + lw * ROT_COS - 7 - groupw * (i + 0.5));
	}
	below = turn ? 14 + maxlw * ROT_SIN + 10 : 24;
	if (c->xlabel)
		below += 18;
	w = fmax(540, x0 + MR + groupw * c->ncat);
	h = frame(f, c, "bars", w, below, &y);
	ax_fit(&y, lo, hi, true);
	y_axis(f, &y, x0, w - MR, c->ylabel);
	base_y = y.log ? y.p0 : ax_map(&y, 0);
	for (i = 0; i < c->ncat; i++) {
		double gx = x0 + 7 + groupw * i;

		fputs("<g class=\"group\">", f);
		for (k = 0; k < c->nser; k++) {
			double v = i < c->ser[k].n ? c->ser[k].y[i] : NAN, py;

			if (!ax_ok(&y, v))
				continue;
			py = ax_map(&y, v);
			fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
				gx + barw * k, fmin(py, base_y), barw - 1, fmax(fabs(base_y - py), 0.5),
				colour_of(c, k));
			tooltip(f, c->ser[k].name, c->cats[i], v, c->unit);
			fputs("</rect>", f);
		}
		fputs("</g>\n", f);
	}
	bar_labels(f, c, x0, groupw, y.p0, turn);
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		x0, w - MR, base_y, base_y);
	if (c->xlabel) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">", w / 2, h - 6);
		text_fit(f, c->xlabel, FS, w - 2 * PAD);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	return 0;
}

/* What a point's x is called: its tick's label, else the number. */
static const char *x_name(const struct svg_chart *c, double x, char *b, size_t len)
{
	unsigned i;

	if (c->xpointlabels)
		for (i = 0; i < c->nxpoints; i++)
			if (fabs(c->xpoints[i] - x) < 1e-9)
				return c->xpointlabels[i];
	for (i = 0; c->xticklabels && i < c->nxticks; i++)
		if (fabs(c->xticks[i] - x) < 1e-9)
			return c->xticklabels[i];
	svg_fmt_num(b, len, x);
	return b;
}

/* A point of series k drawn: both coordinates on their axes. */
static bool pt_ok(const struct svg_chart *c, unsigned k, unsigned i, const struct axis *x,
		  const struct axis *y)
{
	return ax_ok(x, c->ser[k].x[i]) && ax_ok(y, c->ser[k].y[i]);
}

/* The x ticks and their labels under the plot; a label that would touch the last is left out. */
static void x_ticks(FILE *f, const struct svg_chart *c, const struct axis *x, const struct axis *y,
		    double w)
{
	double t[32], right = -INFINITY;
	unsigned i, nt = c->nxticks ? c->nxticks : ax_ticks(x, t, 32);
	char b[32];

	for (i = 0; i < nt; i++) {
		double v = c->nxticks ? c->xticks[i] : t[i], px, lw, cx;
		const char *s = b;

		if (!ax_ok(x, v))
			continue;
		px = ax_map(x, v);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
			px, px, y->p0, y->p1);
		if (c->nxticks && c->xticklabels)
			s = c->xticklabels[i];
		else
			svg_fmt_num(b, sizeof(b), v);
		lw = fmin(svg_text_width(s, FS, false), 100);
		cx = fmin(fmax(px, 2 + lw / 2), w - 2 - lw / 2);
		if (cx - lw / 2 < right + 6)
			continue;
		right = cx + lw / 2;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">", cx, y->p0 + 16);
		text_fit(f, s, FS, 100);
		fputs("</text>\n", f);
	}
}

/* Series k's band, lo to hi at each point that has both: one closed shape, lightly filled. */
static void band(FILE *f, const struct svg_chart *c, unsigned k, const struct axis *x,
		 const struct axis *y)
{
	const struct svg_series *s = &c->ser[k];
	unsigned i, n = 0;

	if (!s->lo || !s->hi)
		return;
	for (i = 0; i < s->n; i++)
		n += ax_ok(x, s->x[i]) && ax_ok(y, s->lo[i]) && ax_ok(y, s->hi[i]);
	if (n < 1)
		return;
	/* many bands over each other would hide the lines: the more, the fainter */
	fprintf(f, "<path class=\"band\" fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"none\" d=\"",
		colour_of(c, k), c->nser <= 3 ? 0.14 : fmax(0.05, 0.42 / c->nser));
	n = 0;
	for (i = 0; i < s->n; i++)
		if (ax_ok(x, s->x[i]) && ax_ok(y, s->lo[i]) && ax_ok(y, s->hi[i]))
			fprintf(f, "%c%.1f %.1f", n++ ? 'L' : 'M', ax_map(x, s->x[i]), ax_map(y, s->hi[i]));
	for (i = s->n; i-- > 0;)
		if (ax_ok(x, s->x[i]) && ax_ok(y, s->lo[i]) && ax_ok(y, s->hi[i]))
			fprintf(f, "L%.1f %.1f", ax_map(x, s->x[i]), ax_map(y, s->lo[i]));
	fputs("Z\"/>\n", f);
}

/* Series k: its band, one path through its points in order, then the points and rings. */
static void series(FILE *f, const struct svg_chart *c, unsigned k, const struct axis *x,
		   const struct axis *y)
{
	const char *col = colour_of(c, k);
	unsigned i, n = 0;
	char b[32];

	fputs("<g class=\"series\">", f);
	band(f, c, k, x, y);
	fprintf(f, "<path class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" d=\"",
		col, dashes[c->ser[k].dash % NDASH]);
	for (i = 0; i < c->ser[k].n; i++)
		if (pt_ok(c, k, i, x, y))
			fprintf(f, "%c%.1f %.1f", n++ ? 'L' : 'M', ax_map(x, c->ser[k].x[i]),
				ax_map(y, c->ser[k].y[i]));
	fputs("\"/>", f);
	for (i = 0; i < c->ser[k].n; i++) {
		double px, py;

		if (!pt_ok(c, k, i, x, y))
			continue;
		px = ax_map(x, c->ser[k].x[i]);
		py = ax_map(y, c->ser[k].y[i]);
		if (c->ser[k].ring && c->ser[k].ring[i]) {
			fprintf(f, "<circle class=\"step\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"#d00\" stroke-width=\"2\"><title>",
				px, py);
			xml_escape(f, c->ser[k].name);
			fputs(": ", f);
			xml_escape(f, c->ser[k].ring[i]);
			fputs("</title></circle>", f);
		}
		fprintf(f, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">", px, py, col);
		tooltip(f, c->ser[k].name, x_name(c, c->ser[k].x[i], b, sizeof(b)), c->ser[k].y[i],
			c->unit);
		fputs("</circle>", f);
	}
	fputs("</g>\n", f);
}

/* The y range of the chart's points and bands on axis y; false when there is none. */
static bool lines_range(const struct svg_chart *c, const struct axis *x, const struct axis *y,
			double *xlo, double *xhi, double *ylo, double *yhi)
{
	unsigned i, k;

	*xlo = *ylo = INFINITY;
	*xhi = *yhi = -INFINITY;
	for (k = 0; k < c->nser; k++)
		for (i = 0; i < c->ser[k].n; i++) {
			const struct svg_series *s = &c->ser[k];

			if (!pt_ok(c, k, i, x, y))
				continue;
			*xlo = fmin(*xlo, s->x[i]);
			*xhi = fmax(*xhi, s->x[i]);
			*ylo = fmin(*ylo, s->y[i]);
			*yhi = fmax(*yhi, s->y[i]);
			if (s->lo && ax_ok(y, s->lo[i]))
				*ylo = fmin(*ylo, s->lo[i]);
			if (s->hi && ax_ok(y, s->hi[i]))
				*yhi = fmax(*yhi, s->hi[i]);
		}
	for (i = 0; i < c->nxticks; i++)
		if (ax_ok(x, c->xticks[i])) {
			*xlo = fmin(*xlo, c->xticks[i]);
			*xhi = fmax(*xhi, c->xticks[i]);
		}
	return *ylo <= *yhi;
}

int svg_lines(FILE *f, const struct svg_chart *c)
{
	double ylo, yhi, xlo, xhi, w = 540, h;
	struct axis x = { .log = c->xlog }, y = { .log = c->ylog };
	unsigned k;

	if (!lines_range(c, &x, &y, &xlo, &xhi, &ylo, &yhi))
		return -ENODATA;
	if (!y.log && ylo > 0 && yhi / ylo > 100)
		y.log = true;
	h = frame(f, c, "lines", w, c->xlabel ? 46 : 28, &y);
	ax_fit(&y, ylo, yhi, false);
	x.p0 = ML + 12;
	x.p1 = w - MR - 12;
	if (c->nxticks) {
		x.lo = x.log ? log10(xlo) : xlo;
		x.hi = x.log ? log10(xhi) : xhi;
	} else {
		ax_fit(&x, xlo, xhi, false);
	}
	y_axis(f, &y, ML, w - MR, c->ylabel);
	x_ticks(f, c, &x, &y, w);
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		ML, w - MR, y.p0, y.p0);
	if (isfinite(c->mark_x) && ax_ok(&x, c->mark_x)) {
		double px = ax_map(&x, c->mark_x), lw = fmin(svg_text_width(c->mark_label, FS, false), 200);
		bool left = px + 4 + lw > w - 4;

		fprintf(f, "<g class=\"mark\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#d00\" stroke-dasharray=\"5 3\" stroke-width=\"1.5\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" fill=\"#d00\" text-anchor=\"%s\" " FONT ">", px, px, y.p0,
			y.p1, left ? px - 4 : px + 4, y.p1 + 12, left ? "end" : "start");
		text_fit(f, c->mark_label, FS, 200);
		fputs("</text></g>\n", f);
	}
	for (k = 0; k < c->nser; k++)
		series(f, c, k, &x, &y);
	if (c->xlabel) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">", (ML + w) / 2,
			h - 8);
		text_fit(f, c->xlabel, FS, w - ML - PAD);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	return 0;
}

/* Blue below 1 (faster than the reference), red above (slower), white at 1; log2 scale, +-8x. */
static void heat_colour(double v, char *buf, size_t len)
{
	double t = log2(v) / 3;
	int r, g, b;

	if (t > 1)
		t = 1;
	if (t < -1)
		t = -1;
	if (t >= 0) {
		r = 255;
		g = (int)(255 - 175 * t);
		b = (int)(255 - 200 * t);
	} else {
		r = (int)(255 + 200 * t);
		g = (int)(255 + 110 * t);
		b = 255;
	}
	snprintf(buf, len, "#%02x%02x%02x", r, g, b);
}

/* Column labels of the heat map turn up by this much (30 degrees). */
#define HEAT_COS 0.866
#define HEAT_SIN 0.5
#define HEAT_LABEL_W 180.0

int svg_heatmap(FILE *f, const struct svg_heat *h)
{
	double cw = 92, ch = 26, lw = 190, top, w, ht, rise = 0, right = 0;
	unsigned r, c;
	char col[16], b[32];

	if (!h->rows || !h->cols)
		return -ENODATA;
	for (c = 0; c < h->cols; c++) {
		double l = fmin(svg_text_width(h->collabels[c], FS, false), HEAT_LABEL_W);

		rise = fmax(rise, l * HEAT_SIN);
		right = fmax(right, lw + cw * c + cw / 3 + l * HEAT_COS + 8);
	}
	w = fmax(fmax(640, lw + cw * h->cols + MR), right);
	top = header(f, h->title, NULL, w, true) + rise + 14;
	ht = top + ch * h->rows + 40;
	svg_open(f, w, ht, "heatmap", h->title);
	header(f, h->title, NULL, w, false);
	for (c = 0; c < h->cols; c++) {
		fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-30)\" " FONT ">",
			lw + cw * c + cw / 3, top - 8);
		text_fit(f, h->collabels[c], FS, HEAT_LABEL_W);
		fputs("</text>\n", f);
	}
	for (r = 0; r < h->rows; r++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" " FONT ">", lw - 8,
			top + ch * r + ch / 2 + 4);
		text_fit(f, h->rowlabels[r], FS, lw - 8 - PAD);
		fputs("</text>\n", f);
		for (c = 0; c < h->cols; c++) {
			double v = h->v[r * h->cols + c];
			const char *txt = h->text ? h->text[r * h->cols + c] : NULL;

			if (!(v > 0) || !isfinite(v)) {
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f4f4\" stroke=\"#fff\"/>\n",
					lw + cw * c, top + ch * r, cw, ch);
				continue;
			}
			heat_colour(v, col, sizeof(col));
			svg_fmt_num(b, sizeof(b), v);
			fprintf(f, "<g class=\"cell\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"#e4e4e4\"><title>",
				lw + cw * c, top + ch * r, cw, ch, col);
			xml_escape(f, h->rowlabels[r]);
			fputs(", ", f);
			xml_escape(f, h->collabels[c]);
			fprintf(f, ": %s</title></rect><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">",
				b, lw + cw * c + cw / 2, top + ch * r + ch / 2 + 4);
			text_fit(f, txt ? txt : b, FS, cw - 6);
			fputs("</text></g>\n", f);
		}
	}
	if (h->legend) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" " FONT " fill=\"#555\">", PAD, ht - 14);
		text_fit(f, h->legend, FS, w - 2 * PAD);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	return 0;
}

int svg_interval_chart(FILE *f, const struct svg_intervals *iv)
{
	double lo = -iv->threshold, hi = iv->threshold, rh = 16, lw = 300, top, w = 820, ht, t[32];
	struct axis x = { 0 };
	unsigned i, nt;
	char b[32];

	if (!iv->n)
		return -ENODATA;
	for (i = 0; i < iv->n; i++) {
		const double v[3] = { iv->mid[i], iv->lo[i], iv->hi[i] };

		for (unsigned k = 0; k < 3; k++)
			if (isfinite(v[k])) {
				lo = fmin(lo, v[k]);
				hi = fmax(hi, v[k]);
			}
	}
	/* a few huge intervals should not squash the rest: clip at +-300% */
	lo = fmax(lo * 100, -300);
	hi = fmin(hi * 100, 300);
	x.p0 = lw;
	x.p1 = w - MR;
	ax_fit(&x, lo, hi, false);
	top = header(f, iv->title, NULL, w, true) + 6;
	ht = top + rh * iv->n + 40;
	svg_open(f, w, ht, "intervals", iv->title);
	header(f, iv->title, NULL, w, false);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#eee\"/>\n",
		ax_map(&x, -iv->threshold * 100), top, ax_map(&x, iv->threshold * 100) - ax_map(&x, -iv->threshold * 100),
		rh * iv->n);
	nt = ax_ticks(&x, t, 32);
	for (i = 0; i < nt; i++) {
		double px = ax_map(&x, t[i]);

		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">%+.0f%%</text>\n",
			px, px, top, top + rh * iv->n, t[i] == 0 ? "#444" : "#ddd", px,
			top + rh * iv->n + 16, t[i]);
	}
	for (i = 0; i < iv->n; i++) {
		double cy = top + rh * i + rh / 2;
		const char *cls = iv->cls && iv->cls[i] ? iv->cls[i] : "none";

		fprintf(f, "<g class=\"row\"><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" " FONT ">",
			lw - 8, cy + 4);
		text_fit(f, iv->labels[i], FS, lw - 8 - PAD);
		fputs("</text>", f);
		if (isfinite(iv->lo[i]) && isfinite(iv->hi[i]))
			fprintf(f, "<line class=\"ci %s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke-width=\"3\"/>",
				cls, ax_map(&x, fmax(fmin(iv->lo[i] * 100, 300), -300)),
				ax_map(&x, fmax(fmin(iv->hi[i] * 100, 300), -300)), cy, cy);
		if (isfinite(iv->mid[i])) {
			snprintf(b, sizeof(b), "%+.1f%%", iv->mid[i] * 100);
			fprintf(f, "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", cls,
				ax_map(&x, fmax(fmin(iv->mid[i] * 100, 300), -300)), cy);
			xml_escape(f, iv->labels[i]);
			fprintf(f, ": %s</title></circle>", b);
		}
		fputs("</g>\n", f);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">", (lw + w) / 2, ht - 6);
	text_fit(f, "change from BASE to CUR and its 95% interval (grey band: within the threshold)",
		 FS, w - lw);
	fputs("</text>\n</svg>\n", f);
	return 0;
}
