/* The explain object as text: per target the verdict and each direction's, then every finding,
 * note and gap. */
#include <string.h>

#include "cli/explain_print.h"

static const char *s(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

/* A long line wrapped at about 96 columns, each continuation indented by ind. */
static void wrapped(FILE *f, const char *first, const char *text, unsigned ind)
{
	size_t col = strlen(first), len;
	const char *w = text, *sp;

	fputs(first, f);
	while (*w) {
		sp = strchr(w, ' ');
		len = sp ? (size_t)(sp - w) : strlen(w);
		if (col > ind && col + len > 96) {
			fprintf(f, "\n%*s", (int)ind, "");
			col = ind;
		}
		fwrite(w, 1, len, f);
		col += len;
		w += len;
		if (*w == ' ') {
			fputc(' ', f);
			col++;
			w++;
		}
	}
	fputc('\n', f);
}

void explain_print(FILE *f, const json_t *explain)
{
	const json_t *targets = json_object_get(explain, "targets"), *t, *x, *d;
	size_t i, k;
	char head[96];

	fprintf(f, "explain: what limits each path (iopath help explain for the vocabulary)\n");
	if (!json_array_size(targets))
		fprintf(f, "  no target with a usable cell\n");
	json_array_foreach(targets, i, t) {
		fprintf(f, "\n%s", s(t, "target"));
		if (*s(t, "path"))
			fprintf(f, "  %s", s(t, "path"));
		if (*s(t, "path_summary"))
			fprintf(f, "  (%s)", s(t, "path_summary"));
		fprintf(f, "\n  verdict: %s (%s confidence)\n", s(t, "verdict"), s(t, "confidence"));
		d = json_object_get(t, "directions");
		if (d)
			fprintf(f, "  reads: %s (%s), writes: %s (%s)\n",
				s(json_object_get(d, "read"), "verdict"),
				s(json_object_get(d, "read"), "confidence"),
				s(json_object_get(d, "write"), "verdict"),
				s(json_object_get(d, "write"), "confidence"));
		json_array_foreach(json_object_get(t, "findings"), k, x) {
			snprintf(head, sizeof(head), "  %-14s %-7s ", s(x, "code"), s(x, "confidence"));
			wrapped(f, head, s(x, "summary"), 25);
		}
		if (!json_array_size(json_object_get(t, "findings")))
			wrapped(f, "  ", s(t, "summary"), 4);
		json_array_foreach(json_object_get(t, "notes"), k, x)
			wrapped(f, "  note: ", json_string_value(x), 8);
		json_array_foreach(json_object_get(t, "missing"), k, x)
			wrapped(f, "  not judged: ", json_string_value(x), 8);
	}
}
