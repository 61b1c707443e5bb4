/* Output selection shared by every command that runs jobs: formats, destination, exit code. */
#ifndef IOPATH_OUTPUT_H
#define IOPATH_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"
#include "iopath/result.h"

#define OUT_NORMAL (1u << 0)
#define OUT_JSON (1u << 1)
#define OUT_JSONPLUS (1u << 2)
#define OUT_TERSE (1u << 3)
#define OUT_CSV (1u << 4)
#define OUT_TEXT (OUT_NORMAL | OUT_TERSE | OUT_CSV)

struct output_opts {
	unsigned formats;
	const char *path;	/* --output=FILE, or NULL for stdout */
	unsigned terse_version;	/* --terse-version: 2 to 5 (0: fio's default, 3) */
	FILE *lead;		/* with path: lines the file starts with (the run's --debug lines,
				   as fio writes them to --output), or NULL */
};

/*
 * Parse --output-format's comma list: normal, json, json+, terse, csv. Where they go: with
 * --output FILE every format to FILE (atomically), in fio's order (terse, JSON, normal, then
 * CSV); without, to stdout, except that the text formats go to stderr when JSON is on stdout.
 */
int output_parse_formats(const char *list, unsigned *formats, struct iop_err *err);
/* The same, accepting only the formats in the mask 'accepted' (a command that writes fewer). */
int output_parse_formats_among(const char *list, unsigned accepted, unsigned *formats,
				struct iop_err *err);

/* Where a result goes when it cannot go where asked: $TMPDIR (or /tmp)/iopath-result.PID.EXT. */
void output_fallback_path(char *out, size_t len, const char *ext);

/*
 * Write the results as asked, the file atomically; when that fails the result is saved in
 * $TMPDIR (or /tmp) instead and err says where. 0 or -errno with err set.
 */
int output_results(const struct run_results *r, const struct output_opts *o, int argc,
		   char **argv, struct iop_err *err);

/*
 * An interim report (fio's --status-interval, SIGUSR1) in the formats asked for, as fio writes
 * them while the jobs run: with --output into the file's lead (o->lead, written before the
 * final result), else on stdout (the text formats on stderr beside JSON). 0 or -errno.
 */
int output_status(const struct run_results *r, const struct output_opts *o, int argc,
		  char **argv);

/* Print each failed job's reason on stderr; return the exit code the run deserves. */
int output_exit_code(const struct run_results *r);

/*
 * The same for the fio invocation: fio's exit status, the number of workers that failed
 * (run_failed_workers, at most EXIT_FAILED_MAX); EXIT_INTERRUPTED when interrupted.
 */
int output_exit_code_fio(const struct run_results *r);

/*
 * SIGINT/SIGTERM/SIGHUP for commands that run jobs: the first asks the runner to stop (the
 * partial results are then written), the second removes temporary files and exits 130.
 */
void install_stop_signals(void);

/* The same for commands with nothing to save: remove temporary files and exit 130 at once. */
void install_exit_signals(void);

/* SIGUSR1 asks for an interim report of the running jobs, as in fio (run_status_take). */
void install_status_signal(void);

#endif
