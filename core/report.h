/* Reports: finished results as fio-compatible JSON (json, json+) and fio-like normal text. */
#ifndef IOPATH_REPORT_H
#define IOPATH_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "run.h"

/* What the whole run was: for the header of every result. */
struct run_env {
	const char *cmdline;
	char kernel[128];
	char hostname[128];
};

void run_env_fill(struct run_env *env, int argc, char **argv);

/* The whole run in fio 3.x JSON shape; plus adds the latency bins (json+). NULL on ENOMEM. */
json_t *report_json(const struct run_results *r, const struct run_env *env, bool plus);

/* fio-style human text. */
void report_normal(FILE *f, const struct run_results *r);

/* Write json to path atomically (temp file, fsync, rename), or to stdout when path is NULL. */
int report_json_write(json_t *root, const char *path);

/* The per-result "job options" and the rest need these too. */
const char *dir_name(unsigned dir);

#endif
