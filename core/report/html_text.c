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
