/*
 * iopath help [TOPIC]: the commands (their synopsis from the table, core/cli/cmdtable.c) and the
 * topics, or one topic's text (docs/TOPIC.md); help --synopsis[=man]: the synopsis alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/help.h"

static const struct help_topic *topic_find(const char *name)
{
	const struct help_topic *t;

	for (t = help_topics; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* "a, b, c": the accepted topics, for a refusal. */
static void topics_line(FILE *f)
{
	const struct help_topic *t;

	for (t = help_topics; t->name; t++)
		fprintf(f, "%s%s", t == help_topics ? "" : ", ", t->name);
}

static int help_list(void)
{
	const struct help_topic *t;

	commands_synopsis(stdout, false);
	printf("\n  iopath [OPTION ...] [JOBFILE ...] runs fio-style jobs (iopath --help); iopath alone\n"
	       "  compares every engine on a temporary file here; iopath COMMAND --help: a command's own\n"
	       "\ncommands:\n");
	commands_list();
	printf("\ntopics (iopath help TOPIC prints docs/TOPIC.md; man iopath):\n");
	for (t = help_topics; t->name; t++)
		printf("  %-12s %s\n", t->name, t->summary);
	return 0;
}

static int help_topic(const struct help_topic *t)
{
	if (fwrite(t->text, 1, t->len, stdout) != t->len || fflush(stdout)) {
		fprintf(stderr, "iopath help: writing '%s' to stdout: %s\n", t->name, strerror(errno));
		return EXIT_JOB_FAILED;
	}
	return 0;
}

/* One line: what was wrong with the argument, and the topics there are. */
static int refuse(const char *what, const char *arg)
{
	fprintf(stderr, "iopath help: %s '%s' (accepted: ", what, arg);
	topics_line(stderr);
	fprintf(stderr, ")\n");
	return EXIT_USAGE;
}

int cmd_help(int argc, char **argv)
{
	const struct help_topic *t;

	if (argc > 2)
		return refuse("one topic at a time, not also", argv[2]);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help_list();
	/* the man page's SYNOPSIS is this, as roff (scripts/man-synopsis) */
	if (!strcmp(argv[1], "--synopsis") || !strcmp(argv[1], "--synopsis=man")) {
		commands_synopsis(stdout, argv[1][10] == '=');
		return fflush(stdout) ? EXIT_JOB_FAILED : 0;
	}
	t = topic_find(argv[1]);
	if (!t) {
		/* a command: its own --help */
		const struct subcommand *c = command_find(argv[1]);
		char help[] = "--help";
		char *args[] = { argv[1], help, NULL };

		return c && c->fn != cmd_help ? c->fn(2, args) : refuse("no topic", argv[1]);
	}
	return help_topic(t);
}
