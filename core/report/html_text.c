/* The HTML report's small writers every section uses: escaped text, numeric cells, JSON strings. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "report/html_int.h"

const char *jstr(const json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

void h_text(FILE *f, const char *s)
{
	xml_escape(f, s);
}

void h_textf(FILE *f, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	xml_escape(f, buf);
}

void h_num_td(FILE *f, double v, const char *shown)
{
	if (!isfinite(v)) {
		fputs("<td class=\"n\" data-v=\"\">-</td>", f);
		return;
	}
	fprintf(f, "<td class=\"n\" data-v=\"%.17g\">", v);
	xml_escape(f, shown);
	fputs("</td>", f);
}

void h_kv_row(FILE *f, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	fputs("<tr><th>", f);
	h_text(f, k);
	fputs("</th><td>", f);
	h_text(f, v);
	fputs("</td></tr>\n", f);
}
