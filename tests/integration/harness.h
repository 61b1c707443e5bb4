/* Integration-test helpers: run the iopath binary, capture its output, read its JSON. */
#ifndef IOPATH_TEST_HARNESS_H
#define IOPATH_TEST_HARNESS_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdbool.h>

struct run_out {
	int status;		/* exit code, or 128 + signal */
	char *out;		/* stdout */
	char *err;		/* stderr */
};

/* A fresh temporary directory for this test, removed by tmpdir_cleanup. */
const char *tmpdir_make(void);
void tmpdir_cleanup(void);

/* Run iopath with the NULL-terminated arguments. */
struct run_out iopath_run(const char *arg, ...) __attribute__((sentinel));
struct run_out iopath_runv(char *const argv[]);
void run_out_free(struct run_out *r);

/* Parse a JSON file or string; the test fails if it does not parse. */
json_t *json_load_path(const char *path);
json_t *json_from_string(const char *s);

/* jobs[i].<dir>.<key> as an integer. */
long long job_int(json_t *root, unsigned i, const char *dir, const char *key);

bool is_root(void);

#endif
