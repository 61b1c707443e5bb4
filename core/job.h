/* Job text (fio job files and --opt=value command lines) into a list of job specs. */
#ifndef IOPATH_JOBPARSE_H
#define IOPATH_JOBPARSE_H

#include <stdbool.h>

#include "err.h"
#include "iopath/job.h"
#include "target.h"

struct probe_set;

struct job_list {
	struct job_spec *jobs;
	unsigned nr;
	unsigned cap;
	struct target_policy policy;	/* what the run may write besides its own files */
	struct probe_set *probes;	/* probes to reuse (borrowed); NULL: the run makes its own */
};

struct job_parser {
	struct job_list *list;
	struct job_spec global;		/* what a new job starts from */
	struct job_spec *cur;		/* the section being filled: &global or a job */
	unsigned files_parsed;
};

void job_parser_init(struct job_parser *p, struct job_list *list);

/* Parse a job file's text; origin names it in messages. */
int job_parse_text(struct job_parser *p, const char *text, const char *origin,
		   struct iop_err *err);
int job_parse_file(struct job_parser *p, const char *path, struct iop_err *err);

/* One --key[=value] from the command line; --name starts a new job. */
int job_parse_cli(struct job_parser *p, const char *key, const char *val, struct iop_err *err);

/* Finish every job (engine, defaults, checks) and number the groups. */
int job_parser_finish(struct job_parser *p, struct iop_err *err);

void job_list_free(struct job_list *list);

#endif
