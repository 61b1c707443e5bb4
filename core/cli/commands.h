/* Subcommands: each is main's peer for one verb; the table is in core/cli/cmdtable.c (commands[]). */
#ifndef IOPATH_COMMANDS_H
#define IOPATH_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"	/* the exit codes */

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;	/* what follows "iopath NAME", one form a line */
	const char *help;	/* one line for iopath help */
};

/* The table (core/cli/cmdtable.c), ended by a NULL name. */
extern const struct subcommand commands[];

/* The command called name, or NULL. */
const struct subcommand *command_find(const char *name);

/* "usage: iopath NAME FORM", one line per form of its synopsis, to f. */
void command_usage(FILE *f, const char *name);

/*
 * Every form of every command, the invocations without one first: plain ("usage: iopath ...",
 * the others indented under it), or roff true as man(7) lines (.SY ... .YS) for the man page's
 * SYNOPSIS.
 */
void commands_synopsis(FILE *f, bool roff);

/* iopath [options] [jobfile ...]: fio-style invocation. */
int cmd_fio(int argc, char **argv);

/* iopath with no arguments: the engine comparison on a temporary file here. */
int cmd_default(int argc, char **argv);

/* iopath probe [PATH ...] [--json] [--no-trials]: the host and each storage path. */
int cmd_probe(int argc, char **argv);

/* iopath workloads [NAME]: the built-in workloads, or one's job text. */
int cmd_workloads(int argc, char **argv);

/* iopath run WORKLOAD [--target DIR] [--scale[=F]] [overrides]: one built-in workload. */
int cmd_run(int argc, char **argv);

/* iopath sweep: the Cartesian product of engines, options and targets, run and reported. */
int cmd_sweep(int argc, char **argv);

/* iopath compare BASE CUR: per-cell changes, significance and regressions. */
int cmd_compare(int argc, char **argv);

/* iopath history DIR: each cell's metric across saved results. */
int cmd_history(int argc, char **argv);

/* iopath report INPUT... -o FILE: one self-contained HTML page of results. */
int cmd_report(int argc, char **argv);

/* iopath explain INPUT...: what limits each path of saved results, with the evidence. */
int cmd_explain(int argc, char **argv);

/* iopath results list|import|export: the results database's runs. */
int cmd_results(int argc, char **argv);

/* iopath suite vm-paths --target NAME=DIR ...: the disk-vs-shared-folder table. */
int cmd_suite(int argc, char **argv);

/* iopath help [TOPIC]: the commands and the topics, or docs/TOPIC.md as compiled in. */
int cmd_help(int argc, char **argv);

/* Print the command table, one line per command: its name and help. */
void commands_list(void);

#endif
