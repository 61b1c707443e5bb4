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
#define ML 72.0		/* left margin: y tick labels */
#define MR 24.0
#define MT 40.0		/* title */
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

/* At most max bytes of s, cut on a UTF-8 character boundary, "..." marking the cut. */
static void escape_cut(FILE *f, const char *s, size_t max)
{
	char buf[256];
	size_t n;

	if (!s)
		return;
	n = strlen(s);
	if (n <= max || max + 4 > sizeof(buf)) {
		xml_escape(f, s);
		return;
	}
	while (max && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	memcpy(buf, s, max);
	memcpy(buf + max, "...", 4);
	xml_escape(f, buf);
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

static double ax_map(const struct axis *a, double v)
{
	if (a->log)
		v = log10(v);
	if (a->hi == a->lo)
		return (a->p0 + a->p1) / 2;
	return a->p0 + (v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
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
	fprintf(f, "<text x=\"%.1f\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", ML);
	escape_cut(f, title, 110);
	fputs("</text>\n", f);
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
		fprintf(f, "<text transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\" " FONT ">",
			(y->p0 + y->p1) / 2);
		xml_escape(f, label);
		fputs("</text>\n", f);
	}
}

/* The series' names as a legend from (x, y), wrapping at width; returns the height used. */
static double legend(FILE *f, const struct svg_chart *c, double x, double y, double width,
		     bool dry)
{
	double cx = x, cy = y;
	unsigned i;

	for (i = 0; i < c->nser; i++) {
		size_t len = strlen(c->ser[i].name ? c->ser[i].name : "");
		double w = 18 + 6.5 * (double)(len > 48 ? 51 : len) + 14;

		if (cx + w > x + width && cx > x) {
			cx = x;
			cy += 16;
		}
		if (!dry) {
			fprintf(f, "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
				"<text x=\"%.1f\" y=\"%.1f\" " FONT "><title>", cx, cy - 10,
				palette[i % NPAL], cx + 16, cy);
			xml_escape(f, c->ser[i].name);
			fputs("</title>", f);
			escape_cut(f, c->ser[i].name, 48);
			fputs("</text></g>\n", f);
		}
		cx += w;
	}
	return c->nser ? cy - y + 16 : 0;
}

/*
 * A chart's frame, w wide: the SVG element (as high as the legend, the plot and below more),
 * the legend above the plot, a note where the y axis went logarithmic by itself, and the
 * y axis's span in pixels. Returns the height.
 */
static double frame(FILE *f, const struct svg_chart *c, const char *kind, double w, double below,
		    struct axis *y)
{
	double lh = legend(f, c, ML, 0, w - ML - MR, true), h = MT + lh + PLOT_H + below;

	svg_open(f, w, h, kind, c->title);
	legend(f, c, ML, MT, w - ML - MR, false);
	if (y->log && !c->ylog)
		fprintf(f, "<text x=\"%.1f\" y=\"20\" text-anchor=\"end\" " FONT " fill=\"#777\">log scale</text>\n",
			w - MR);
	y->p0 = MT + lh + PLOT_H;
	y->p1 = MT + lh + 4;
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

int svg_bars(FILE *f, const struct svg_chart *c)
{
	double lo = INFINITY, hi = -INFINITY, barw, groupw, w, h, base_y, x0;
	struct axis y = { .log = c->ylog };
	unsigned i, k;
	bool rotate = false;

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
	barw = c->nser > 6 ? 10 : 16;
	groupw = barw * c->nser + 14;
	w = fmax(540, ML + MR + groupw * c->ncat);
	for (i = 0; i < c->ncat; i++)
		if (strlen(c->cats[i]) * 6.2 > groupw)
			rotate = true;
	h = frame(f, c, "bars", w, rotate ? 130 : 40, &y);
	ax_fit(&y, lo, hi, true);
	x0 = ML;
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
				palette[k % NPAL]);
			tooltip(f, c->ser[k].name, c->cats[i], v, c->unit);
			fputs("</rect>", f);
		}
		if (rotate)
			fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-35)\" text-anchor=\"end\" " FONT ">",
				gx + groupw / 2, y.p0 + 14);
		else
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">",
				gx + groupw / 2 - 7, y.p0 + 16);
		escape_cut(f, c->cats[i], 40);
		fputs("</text></g>\n", f);
	}
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		x0, w - MR, base_y, base_y);
	if (c->xlabel) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">", w / 2, h - 6);
		xml_escape(f, c->xlabel);
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

int svg_lines(FILE *f, const struct svg_chart *c)
{
	double ylo = INFINITY, yhi = -INFINITY, xlo = INFINITY, xhi = -INFINITY, w = 540, h;
	struct axis x = { .log = c->xlog }, y = { .log = c->ylog };
	double t[32];
	unsigned i, k, nt;
	char b[32];

	for (k = 0; k < c->nser; k++)
		for (i = 0; i < c->ser[k].n; i++)
			if (ax_ok(&x, c->ser[k].x[i]) && ax_ok(&y, c->ser[k].y[i])) {
				xlo = fmin(xlo, c->ser[k].x[i]);
				xhi = fmax(xhi, c->ser[k].x[i]);
				ylo = fmin(ylo, c->ser[k].y[i]);
				yhi = fmax(yhi, c->ser[k].y[i]);
			}
	if (!(ylo <= yhi))
		return -ENODATA;
	for (i = 0; i < c->nxticks; i++)
		if (ax_ok(&x, c->xticks[i])) {
			xlo = fmin(xlo, c->xticks[i]);
			xhi = fmax(xhi, c->xticks[i]);
		}
	if (!y.log && ylo > 0 && yhi / ylo > 100)
		y.log = true;
	h = frame(f, c, "lines", w, 46, &y);
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
	nt = c->nxticks ? c->nxticks : ax_ticks(&x, t, 32);
	for (i = 0; i < nt; i++) {
		double v = c->nxticks ? c->xticks[i] : t[i], px;

		if (!ax_ok(&x, v))
			continue;
		px = ax_map(&x, v);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">", px, px, y.p0, y.p1,
			px, y.p0 + 16);
		if (c->nxticks && c->xticklabels) {
			escape_cut(f, c->xticklabels[i], 24);
		} else {
			svg_fmt_num(b, sizeof(b), v);
			fputs(b, f);
		}
		fputs("</text>\n", f);
	}
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		ML, w - MR, y.p0, y.p0);
	if (isfinite(c->mark_x) && ax_ok(&x, c->mark_x)) {
		double px = ax_map(&x, c->mark_x);

		fprintf(f, "<g class=\"mark\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#d00\" stroke-dasharray=\"5 3\" stroke-width=\"1.5\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" fill=\"#d00\" " FONT ">", px, px, y.p0, y.p1, px + 4,
			y.p1 + 12);
		xml_escape(f, c->mark_label);
		fputs("</text></g>\n", f);
	}
	for (k = 0; k < c->nser; k++) {
		const char *col = palette[k % NPAL];
		bool pen = false;

		fprintf(f, "<g class=\"series\"><path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" d=\"", col);
		for (i = 0; i < c->ser[k].n; i++) {
			if (!ax_ok(&x, c->ser[k].x[i]) || !ax_ok(&y, c->ser[k].y[i])) {
				pen = false;
				continue;
			}
			fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', ax_map(&x, c->ser[k].x[i]),
				ax_map(&y, c->ser[k].y[i]));
			pen = true;
		}
		fputs("\"/>", f);
		for (i = 0; i < c->ser[k].n; i++) {
			if (!ax_ok(&x, c->ser[k].x[i]) || !ax_ok(&y, c->ser[k].y[i]))
				continue;
			if (c->ser[k].ring && c->ser[k].ring[i]) {
				fprintf(f, "<circle class=\"step\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"#d00\" stroke-width=\"2\"><title>",
					ax_map(&x, c->ser[k].x[i]), ax_map(&y, c->ser[k].y[i]));
				xml_escape(f, c->ser[k].name);
				fputs(": ", f);
				xml_escape(f, c->ser[k].ring[i]);
				fputs("</title></circle>", f);
			}
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">",
				ax_map(&x, c->ser[k].x[i]), ax_map(&y, c->ser[k].y[i]), col);
			tooltip(f, c->ser[k].name, x_name(c, c->ser[k].x[i], b, sizeof(b)),
				c->ser[k].y[i], c->unit);
			fputs("</circle>", f);
		}
		fputs("</g>\n", f);
	}
	if (c->xlabel) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">", (ML + w) / 2,
			h - 8);
		xml_escape(f, c->xlabel);
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

int svg_heatmap(FILE *f, const struct svg_heat *h)
{
	double cw = 92, ch = 26, lw = 180, top = MT + 60, w, ht;
	unsigned r, c;
	char col[16], b[32];

	if (!h->rows || !h->cols)
		return -ENODATA;
	w = lw + cw * h->cols + MR;
	if (w < 640)
		w = 640;
	ht = top + ch * h->rows + 40;
	svg_open(f, w, ht, "heatmap", h->title);
	for (c = 0; c < h->cols; c++) {
		fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-30)\" " FONT ">",
			lw + cw * c + cw / 3, top - 8);
		escape_cut(f, h->collabels[c], 28);
		fputs("</text>\n", f);
	}
	for (r = 0; r < h->rows; r++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" " FONT ">", lw - 8,
			top + ch * r + ch / 2 + 4);
		escape_cut(f, h->rowlabels[r], 30);
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
			if (txt)
				xml_escape(f, txt);
			else
				fputs(b, f);
			fputs("</text></g>\n", f);
		}
	}
	if (h->legend) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" " FONT " fill=\"#555\">", lw, ht - 14);
		xml_escape(f, h->legend);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	return 0;
}

int svg_interval_chart(FILE *f, const struct svg_intervals *iv)
{
	double lo = -iv->threshold, hi = iv->threshold, rh = 16, lw = 300, top = MT + 16, w = 820,
	       ht, t[32];
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
	ht = top + rh * iv->n + 40;
	svg_open(f, w, ht, "intervals", iv->title);
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

		fprintf(f, "<g class=\"row\"><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" " FONT "><title>",
			lw - 8, cy + 4);
		xml_escape(f, iv->labels[i]);
		fputs("</title>", f);
		escape_cut(f, iv->labels[i], 46);
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
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">change from BASE to CUR and its 95%% interval (grey band: within the threshold)</text>\n",
		(lw + w) / 2, ht - 6);
	fputs("</svg>\n", f);
	return 0;
}
