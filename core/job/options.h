/* The job option table: fio's option names, their parsers and their validation. */
#ifndef IOPATH_OPTIONS_H
#define IOPATH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "iopath/job.h"

enum opt_type {
	OPT_STR,	/* a string field of the job (off, size) */
	OPT_BOOL,	/* needs a value: 0 or 1 */
	OPT_FLAG,	/* may stand bare, or take 0/1 (fio's "set" options) */
	OPT_UINT,	/* unsigned int field, range min..max */
	OPT_SIZE,	/* uint64_t field, fio size with suffixes */
	OPT_TIME,	/* uint64_t nanoseconds, bare numbers in seconds */
	OPT_FN,		/* parsed by fn */
	OPT_FN_OPT,	/* parsed by fn, and may stand bare (fn gets NULL); field as OPT_STR */
	OPT_WORD,	/* one of the words of a table, storing its value (a 1-byte or int field) */
};

/* One word an OPT_WORD option takes and the value it stores; the table ends with a NULL word. */
struct opt_word {
	const char *word;
	int value;
};

struct opt_def {
	const char *name;
	const char *alias;
	enum opt_type type;
	size_t off;
	size_t size;
	unsigned long long min, max;
	int (*fn)(struct job_spec *job, const struct opt_def *o, const char *val,
		  struct iop_err *err);
	const char *help;
	const struct opt_word *words;	/* OPT_WORD */
};

extern const struct opt_def opt_table[];

void job_defaults(struct job_spec *job);

/* Apply one option (val NULL when given bare). where names the place for messages. */
int opt_apply(struct job_spec *job, const char *key, const char *val, const char *where,
	      struct iop_err *err);

/*
 * How opt_apply_ctx treats fio options iopath does not implement (refused, or with
 * ignore_unsupported only warned about), and where its notes go (warn may be NULL).
 */
struct opt_ctx {
	const char *written;		/* the value as written (before ${VAR}...), for the report */
	bool ignore_unsupported;
	void (*warn)(void *arg, const char *msg);
	void *arg;
};

int opt_apply_ctx(struct job_spec *job, const char *key, const char *val, const char *where,
		  const struct opt_ctx *ctx, struct iop_err *err);

/* The names of iopath's engines, space-separated, for messages. */
void engine_names(char *buf, size_t len);

/* Resolve the engine and its options, fill derived defaults and check the whole job. */
int job_finish(struct job_spec *job, struct iop_err *err);

const struct opt_def *opt_find(const char *name);

/* ", did you mean 'x' or 'y'?" for an unknown name, or "" when nothing is near. */
void opt_suggest(const char *key, char *buf, size_t len);

#endif
