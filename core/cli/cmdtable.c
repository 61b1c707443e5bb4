/* The command table: every subcommand's name, function, synopsis and one line of help. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "base/version.h"

static int cmd_version(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		command_usage(stdout, "version");
		printf("  Prints iopath's version and the fio release it follows (also iopath --version).\n");
		return 0;
	}
	/* fio-3.x in fio's form: tools that check `fio --version` for fio 3 accept it */
	printf("iopath %s (follows %s)\n", iopath_version, IOPATH_FIO_FOLLOWS);
	return 0;
}

/*
 * How iopath is invoked without a subcommand, as the synopsis gives them: job files and
 * fio's --option=value (cmd_fio), or nothing at all (cmd_default).
 */
static const char *const invocations[] = { "[OPTION ...] [JOBFILE ...]", "", NULL };

/*
 * The subcommands. To add one: write core/cli/cmd_NAME.c with int cmd_NAME(int, char **),
 * declare it in core/cli/commands.h and add a line here: its name, its function, its synopsis
 * (what follows "iopath NAME"; one form a line, placeholders in capitals, literal words as
 * typed) and one line of help. The command's --help, `iopath help`, `iopath --help` and the
 * man page's SYNOPSIS (scripts/man-synopsis) all take the synopsis from here.
 */
const struct subcommand commands[] = {
	{ "help", cmd_help, "[TOPIC]\n--synopsis[=man]",
	  "this list and the topics, or help TOPIC: the reference on TOPIC" },
	{ "probe", cmd_probe, "[PATH ...] [--json] [--no-trials]",
	  "describe the host and the storage path of each PATH" },
	{ "suite", cmd_suite, "vm-paths --target NAME=DIR [--target NAME=DIR ...] [OPTION ...]",
	  "suite vm-paths --target disk=DIR --target share=DIR: the table" },
	{ "workloads", cmd_workloads, "[NAME]",
	  "list the built-in workloads (or print one's job file)" },
	{ "run", cmd_run, "WORKLOAD [--target DIR] [--scale[=F]] [OPTION=VALUE ...]",
	  "run a built-in workload in a temporary directory, with options on top" },
	{ "sweep", cmd_sweep, "[OPTION ...]",
	  "run a grid of engines, options and targets; table, CSV, JSON, charts" },
	{ "compare", cmd_compare, "BASE CUR [OPTION ...]",
	  "which cells regressed between two results, with statistics" },
	{ "history", cmd_history, "[DIR|SELECTOR] [OPTION ...]",
	  "the trend of each cell across saved results" },
	{ "results", cmd_results,
	  "list [--db PATH|URI]\n"
	  "import FILE|DIR ... [--db PATH|URI]\n"
	  "export [SELECTOR ...] [--output FILE|DIR] [--db PATH|URI]",
	  "the results database: list, import (iopath/fio JSON), export" },
	{ "explain", cmd_explain, "INPUT ... [--json] [--output=FILE] [--db PATH|URI]",
	  "why each path is as fast as it is: the limiting factor and its evidence" },
	{ "report", cmd_report, "INPUT ... -o FILE.html [--title TEXT]",
	  "one self-contained HTML page from results" },
	{ "version", cmd_version, "", "print the version" },
	{ NULL, NULL, NULL, NULL },
};

const struct subcommand *command_find(const char *name)
{
	const struct subcommand *c;

	for (c = commands; c->name; c++)
		if (!strcmp(name, c->name))
			return c;
	return NULL;
}

/* One form: "iopath NAME FORM" (name NULL: an invocation without a subcommand). */
static void form_plain(FILE *f, const char *lead, const char *name, const char *form, size_t len)
{
	fprintf(f, "%siopath%s%s%s%.*s\n", lead, name ? " " : "", name ? name : "",
		len ? " " : "", (int)len, form);
}

/* Every form of a synopsis, the first after first_lead, the others after other_lead. */
static void forms_plain(FILE *f, const char *first_lead, const char *other_lead,
			const char *name, const char *synopsis)
{
	const char *p = synopsis, *nl;

	for (;;) {
		nl = strchr(p, '\n');
		form_plain(f, p == synopsis ? first_lead : other_lead, name, p,
			   nl ? (size_t)(nl - p) : strlen(p));
		if (!nl)
			break;
		p = nl + 1;
	}
}

void command_usage(FILE *f, const char *name)
{
	const struct subcommand *c = command_find(name);

	if (c)
		forms_plain(f, "usage: ", "       ", c->name, c->synopsis);
}

/* A synopsis word's font: italic for a placeholder (capitals only), else bold. */
static char roff_font(const char *word, size_t len)
{
	bool upper = false;
	size_t i;

	for (i = 0; i < len; i++) {
		if (islower((unsigned char)word[i]))
			return 'B';
		upper |= isupper((unsigned char)word[i]);
	}
	return upper ? 'I' : 'B';
}

/*
 * One form in man(7): placeholders (words in capitals) in italics, literal words bold, the
 * punctuation between them roman; '-' escaped so that options are not hyphens, and the spaces
 * inside brackets unbreakable.
 */
static void roff_form(FILE *f, const char *name, const char *form, size_t len)
{
	size_t i = 0, w;
	int depth = 0;

	fprintf(f, ".SY iopath\n");
	if (name)
		fprintf(f, ".B %s\n", name);
	if (len)
		fputs("\\&", f);
	while (i < len) {
		for (w = 0; i + w < len && !strchr(" []|.=,", form[i + w]); w++)
			;
		if (!w) {
			depth += (form[i] == '[') - (form[i] == ']');
			/* a bracket is not broken across lines */
			if (form[i] == ' ' && depth > 0)
				fputs("\\~", f);
			else
				fputc(form[i], f);
			i++;
			continue;
		}
		fprintf(f, "\\f%c", roff_font(form + i, w));
		for (; w; w--, i++) {
			if (form[i] == '-')
				fputs("\\-", f);
			else
				fputc(form[i], f);
		}
		fputs("\\fR", f);
	}
	fprintf(f, "%s.YS\n", len ? "\n" : "");
}

static void forms_roff(FILE *f, const char *name, const char *synopsis)
{
	const char *p = synopsis, *nl;

	for (;;) {
		nl = strchr(p, '\n');
		roff_form(f, name, p, nl ? (size_t)(nl - p) : strlen(p));
		if (!nl)
			break;
		p = nl + 1;
	}
}

void commands_synopsis(FILE *f, bool roff)
{
	const struct subcommand *c;
	unsigned i;

	for (i = 0; invocations[i]; i++) {
		if (roff)
			forms_roff(f, NULL, invocations[i]);
		else
			forms_plain(f, i ? "       " : "usage: ", "       ", NULL, invocations[i]);
	}
	for (c = commands; c->name; c++) {
		if (roff)
			forms_roff(f, c->name, c->synopsis);
		else
			forms_plain(f, "       ", "       ", c->name, c->synopsis);
	}
}

void commands_list(void)
{
	const struct subcommand *c;

	for (c = commands; c->name; c++)
		printf("  %-12s %s\n", c->name, c->help);
}
