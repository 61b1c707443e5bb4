/* iopath's entry point: the subcommand table, and fio-style invocation for everything else. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "fleet/fleet.h"
#include "fleet/fleet_report.h"
#include "base/msg.h"
#include "base/version.h"

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	/* fio-3.x in fio's form: tools that check `fio --version` for fio 3 accept it */
	printf("iopath %s (follows %s)\n", iopath_version, IOPATH_FIO_FOLLOWS);
	return 0;
}

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

/*
 * The subcommands. To add one: write core/cli/cmd_NAME.c with int cmd_NAME(int, char **),
 * declare it in core/cli/commands.h and add a line here. Anything that is not a subcommand
 * is an fio-style invocation (job files and --option=value).
 */
static const struct subcommand commands[] = {
	{ "help", cmd_help, "this list and the topics, or help TOPIC: the reference on TOPIC" },
	{ "sweep", cmd_sweep, "run a grid of engines, options and targets; table, CSV, JSON, charts" },
	{ "compare", cmd_compare, "which cells regressed between two results, with statistics" },
	{ "explain", cmd_explain, "why each path is as fast as it is: the limiting factor and its evidence" },
	{ "history", cmd_history, "the trend of each cell across saved results" },
	{ "report", cmd_report, "one self-contained HTML page from results: report INPUT... -o FILE" },
	{ "results", cmd_results, "the results database: list, import (iopath/fio JSON), export" },
	{ "probe", cmd_probe, "describe the host and the storage path of each PATH" },
	{ "version", cmd_version, "print the version" },
	{ "workloads", cmd_workloads, "list the built-in workloads (or print one's job file)" },
	{ "suite", cmd_suite, "suite vm-paths --target disk=DIR --target share=DIR: the table" },
	{ "run", cmd_run, "run a built-in workload: run NAME [--target DIR] [--scale] [opt=val]" },
	{ NULL, NULL, NULL },
};

/* The table, one line per command, for iopath help (core/cli/cmd_help.c). */
void commands_list(void)
{
	const struct subcommand *c;

	for (c = commands; c->name; c++)
		printf("  %-12s %s\n", c->name, c->help);
}

static int dispatch(int argc, char **argv)
{
	const struct subcommand *c;

	if (argc == 1)
		return cmd_default(argc, argv);
	for (c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc, argv);
	return cmd_fio(argc, argv);
}

/* Where the layers below put their messages: stderr, one line each, as every error goes. */
static void print_msg(const char *line)
{
	fprintf(stderr, "iopath: %s\n", line);
}

/* --debug lines as fio prints them: the type in 8 columns, the thread id, the message. */
int main(int argc, char **argv)
{
	/* --mpi and its options, or a launch by mpirun: join the MPI job (core/fleet/fleet.h) */
	int code;

	iop_msg_set_sink(print_msg);
	iop_debug_set_sink(print_debug);
	fleet_set_writers(&report_fleet_writers);
	code = fleet_setup(&argc, argv);

	if (code)
		return code;
	return fleet_exit(dispatch(argc, argv));
}
