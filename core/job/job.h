/* Job text (fio job files and --opt=value command lines) into a list of job specs. */
#ifndef IOPATH_JOBPARSE_H
#define IOPATH_JOBPARSE_H

#include <stdbool.h>

#include "base/err.h"
#include "iopath/job.h"
#include "job/target.h"

struct probe_set;

struct job_list {
	struct job_spec *jobs;
	unsigned nr;
	unsigned cap;
	struct target_policy policy;	/* what the run may write besides its own files */
	struct probe_set *probes;	/* probes to reuse (borrowed); NULL: the run makes its own */
	/* the global options the jobs' global_kv point at (job_parser_finish) */
	unsigned nr_global_kv;
	struct job_kv global_kv[JOB_KV_MAX];
};

#define JOB_INCLUDE_DEPTH 16	/* nested include files */
#define JOB_WARN_LEN 512

struct job_parser {
	struct job_list *list;
	struct job_spec global;		/* what a new job starts from */
	struct job_spec *cur;		/* the command-line section being filled */
	unsigned files_parsed;

	/* Settings, filled by the caller before parsing. */
	bool ignore_unsupported;	/* fio options iopath lacks: warn instead of refusing */
	bool dryrun;			/* --parse-only: what depends on the machine is not checked */
	const char *const *sections;	/* --section: only these job sections (NULL: all) */
	unsigned nr_sections;
	/*
	 * fio's default buffers (mem=malloc) for jobs given as fio job files and fio-style
	 * command lines, so that their numbers compare with fio's; iopath's own workloads,
	 * sweeps and suites keep huge-page buffers (mem=thp). Set with job_parser_fio_defaults.
	 */
	bool fio_defaults;

	/* Warnings for the caller to print (core code never prints). */
	char (*warnings)[JOB_WARN_LEN];
	unsigned nr_warnings;

	bool cli_globals;		/* global options were given on the command line */
	unsigned cli_jobs;
	const char *includes[JOB_INCLUDE_DEPTH];	/* files being read, for recursion */
	unsigned nr_includes;
};

void job_parser_init(struct job_parser *p, struct job_list *list);
void job_parser_free(struct job_parser *p);

/* Jobs from here on start from fio's defaults where iopath's own differ (mem=malloc). */
void job_parser_fio_defaults(struct job_parser *p);

/*
 * Parse a job file's text, fio's way: [sections], any number of [global] sections (each
 * affecting only later jobs), key=value or bare flags, ';'/'#' comments, "include FILE",
 * ${VAR} and $pagesize/$mb_memory/$ncpus, (arithmetic). origin names the text in messages
 * and anchors relative includes. As in fio, a second and later job file starts from fio's
 * defaults (not the command line's globals) and its first job behind a stonewall.
 */
int job_parse_text(struct job_parser *p, const char *text, const char *origin,
		   struct iop_err *err);
int job_parse_file(struct job_parser *p, const char *path, struct iop_err *err);

/* One --key[=value] from the command line; --name starts a new job (--name=global: globals). */
int job_parse_cli(struct job_parser *p, const char *key, const char *val, struct iop_err *err);

/* Finish every job (engine, defaults, checks), number the groups, resolve wait_for. */
int job_parser_finish(struct job_parser *p, struct iop_err *err);

void job_list_free(struct job_list *list);

/* Substitute ${VAR} and fio's keywords in s (into buf); returns true when a keyword was found. */
bool job_substitute(const char *s, char *buf, size_t len);

/* fio's defaults when a distribution is named without its value. */
#define DIST_DEF_ZIPF 1.1
#define DIST_DEF_PARETO 0.2

/* Is arg a valid value for the distribution? (fio's ranges) */
/* verify=NAME as fio spells it (md5, crc32c-intel, sha3-256, none, 0 ...): its enum job_verify, or -EINVAL. */
int job_verify_by_name(const char *name);
extern const char *const job_verify_names[VERIFY_KINDS];

bool dist_arg_valid(enum rand_dist type, double arg);

#endif
