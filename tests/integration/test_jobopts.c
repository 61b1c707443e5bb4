/*
 * Integration: fio's job options that act on the worker thread and on its files, seen from
 * outside as fio's are: the system calls (strace) and /proc.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(jobopts, .fini = tmpdir_cleanup);

#define NO_STRACE "strace is not installed (scripts/deps.sh installs it): the system calls cannot be seen"

static bool have_strace(void)
{
	return !access("/usr/bin/strace", X_OK);
}

/*
 * Run iopath under strace -f -e trace=calls with the NULL-terminated job options (a file
 * "f" in the test's directory is the job's) and return the calls on that file or, for calls
 * that take no path, every traced line. The test fails unless iopath exits 0.
 */
static char *traced(const char *calls, const char *path_part, ...)
{
	const char *dir = tmpdir_make(), *bin = getenv("IOPATH_BIN");
	char fname[320], log[320], oarg[340], targ[128], line[1024];
	char *argv[40], *out;
	size_t len = 0, cap = 1 << 16;
	unsigned a = 0;
	struct run_out r;
	va_list ap;
	const char *s;
	FILE *f;

	snprintf(fname, sizeof(fname), "--filename=%s/f", dir);
	snprintf(log, sizeof(log), "%s/trace", dir);
	snprintf(oarg, sizeof(oarg), "-o%s", log);
	snprintf(targ, sizeof(targ), "trace=%s", calls);
	argv[a++] = "strace";
	argv[a++] = "-f";
	argv[a++] = "-e";
	argv[a++] = targ;
	argv[a++] = oarg;
	argv[a++] = (char *)bin;
	argv[a++] = "--name=t";
	argv[a++] = fname;
	argv[a++] = "--output-format=terse";
	va_start(ap, path_part);
	while ((s = va_arg(ap, const char *)) && a < 38)
		argv[a++] = (char *)s;
	va_end(ap);
	argv[a] = NULL;
	r = prog_runv("/usr/bin/strace", argv);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	f = fopen(log, "r");
	cr_assert_not_null(f, "strace wrote no log");
	out = calloc(1, cap);
	cr_assert_not_null(out);
	while (fgets(line, sizeof(line), f)) {
		if (path_part && !strstr(line, path_part))
			continue;
		if (len + strlen(line) + 1 >= cap)
			break;
		strcpy(out + len, line);
		len += strlen(line);
	}
	fclose(f);
	return out;
}

/* fio 3.33: sync=1|sync is O_SYNC, dsync O_DSYNC, on every open of the job's files */
Test(jobopts, sync_reaches_the_open_flags)
{
	char *t;

	if (!have_strace())
		cr_skip_test(NO_STRACE);
	t = traced("openat", "/f\"", "--rw=write", "--size=64k", "--sync=1", NULL);
	cr_assert(strstr(t, "O_SYNC"), "sync=1: %s", t);
	free(t);
	t = traced("openat", "/f\"", "--rw=read", "--size=64k", "--sync=dsync", NULL);
	cr_assert(strstr(t, "O_DSYNC") && !strstr(t, "O_SYNC"), "sync=dsync: %s", t);
	free(t);
	t = traced("openat", "/f\"", "--rw=write", "--size=64k", "--sync=none", NULL);
	cr_assert(strstr(t, "O_RDWR") && !strstr(t, "SYNC"), "sync=none: %s", t);
	free(t);
}
