/* iopath's entry point: a subcommand of the table (core/cli/cmdtable.c), or fio-style invocation. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmdargs.h"
#include "cli/termsafe.h"
#include "cli/commands.h"
#include "fleet/fleet.h"
#include "fleet/fleet_report.h"
#include "base/msg.h"

static int dispatch(int argc, char **argv)
{
	const struct subcommand *c;

	if (argc == 1)
		return cmd_default(argc, argv);
	c = command_find(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version"))
		return command_find("version")->fn(argc, argv);
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

	term_guard_streams();
	iop_msg_set_sink(print_msg);
	iop_debug_set_sink(print_debug);
	fleet_set_writers(&report_fleet_writers);
	code = fleet_setup(&argc, argv);

	if (code)
		return code;
	return fleet_exit(dispatch(argc, argv));
}
