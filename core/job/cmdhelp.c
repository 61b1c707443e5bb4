/* fio's --cmdhelp and --enghelp: the job options and the engines, with their help lines. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "job/cmdhelp.h"
#include "job/options.h"
#include "iopath/engine.h"

static const char *type_name(enum opt_type t)
{
	switch (t) {
	case OPT_STR:
		return "string";
	case OPT_BOOL:
		return "boolean (0 or 1)";
	case OPT_FLAG:
		return "flag (bare, or 0 or 1)";
	case OPT_UINT:
		return "integer";
	case OPT_SIZE:
		return "size (with suffixes: 4k, 1m, ...)";
	case OPT_WORD:
		return "one of these words";
	case OPT_TIME:
		return "time (bare numbers in seconds; us, ms, s, m, h, d)";
	default:
		return "see the help text";
	}
}

static void one_option(FILE *f, const struct opt_def *o)
{
	fprintf(f, "%20s: %s\n", o->name, o->help ? o->help : "");
	if (o->alias)
		fprintf(f, "%20s: %s\n", "alias", o->alias);
	/* a parsed option with a range takes integers (cmdprio's: one, or read,write) */
	if (o->type == OPT_FN && o->max)
		fprintf(f, "%20s: %s\n", "type", "integer, or read,write integers");
	else
		fprintf(f, "%20s: %s\n", "type", type_name(o->type));
	if (o->type == OPT_UINT || (o->type == OPT_FN && o->max))
		fprintf(f, "%20s: %llu to %llu\n", "range", o->min, o->max);
	for (const struct opt_word *w = o->type == OPT_WORD ? o->words : NULL; w && w->word; w++)
		fprintf(f, "%20s  %s\n", w == o->words ? "words:" : "", w->word);
}

int print_cmdhelp(FILE *f, const char *which, struct iop_err *err)
{
	const struct opt_def *o;

	if (!which || !*which || !strcmp(which, "all")) {
		for (o = opt_table; o->name; o++)
			fprintf(f, "%-28s: %s\n", o->name, o->help ? o->help : "");
		return 0;
	}
	o = opt_find(which);
	if (!o)
		return iop_errf(err, -EINVAL,
				"--cmdhelp=%s: no such job option (--cmdhelp=all lists them; engine options: --enghelp=ENGINE)",
				which);
	one_option(f, o);
	return 0;
}

static void one_engine_option(FILE *f, const struct engine_option *eo)
{
	fprintf(f, "%20s: %s\n", eo->name, eo->help ? eo->help : "");
	if (eo->type == EOPT_BOOL)
		fprintf(f, "%20s: %s\n", "type", "flag (bare, or 0 or 1)");
	else if (eo->type == EOPT_CHOICE)
		fprintf(f, "%20s: one of %s\n", "type", eo->choices ? eo->choices : "?");
	else
		fprintf(f, "%20s: integer, %lld to %lld (default %d)\n", "type", eo->min, eo->max,
			eo->def);
}

/* fio's cmdprio options, job options here, which fio lists among its libaio and io_uring's. */
static const char *const cmdprio_opts[] = { "cmdprio_percentage", "cmdprio_class", "cmdprio",
					    "cmdprio_bssplit", NULL };

int print_enghelp(FILE *f, const char *which, struct iop_err *err)
{
	const struct engine_entry *ent;
	const struct engine_option *eo;
	bool cmdprio;
	unsigned i;
	char name[64];
	const char *comma = which ? strchr(which, ',') : NULL;

	if (!which || !*which) {
		fprintf(f, "Available IO engines:\n");
		for (ent = engine_table; ent->name; ent++)
			fprintf(f, "\t%-10s %s\n", ent->name,
				ent->force_direct ? "psync with direct=1 (fio's odirect)" : ent->ops->help);
		return 0;
	}
	snprintf(name, sizeof(name), "%.*s", comma ? (int)(comma - which) : (int)strlen(which), which);
	ent = engine_find(name);
	if (!ent)
		return iop_errf(err, -EINVAL, "--enghelp=%s: no engine '%s' (--enghelp lists them)",
				which, name);
	cmdprio = ent->ops->flags & ENGINE_CMDPRIO;
	for (eo = ent->ops->options; eo && eo->name; eo++) {
		if (comma && strcmp(eo->name, comma + 1))
			continue;
		one_engine_option(f, eo);
		if (comma)
			return 0;
	}
	for (i = 0; cmdprio && cmdprio_opts[i]; i++) {
		if (comma && strcmp(cmdprio_opts[i], comma + 1))
			continue;
		one_option(f, opt_find(cmdprio_opts[i]));
		if (comma)
			return 0;
	}
	if (comma)
		return iop_errf(err, -EINVAL, "--enghelp=%s: ioengine=%s has no option '%s'", which,
				name, comma + 1);
	if ((!ent->ops->options || !ent->ops->options[0].name) && !cmdprio)
		fprintf(f, "%s: no engine-specific options\n", name);
	return 0;
}
