/*
 * Integration: what iopath tells the kernel's page cache, seen in its system calls (strace):
 * fadvise_hint as fio applies it when a file is opened, and the verify pass dropping the
 * cached pages first (fio's do_verify), so verify reads come from the storage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(fadvise, .fini = tmpdir_cleanup);

static const char *strace_bin(void)
{
	if (!access("/usr/bin/strace", X_OK))
		return "/usr/bin/strace";
	return NULL;
}

/* Count the fadvise64 calls with advice in the run of iopath with the given options. */
static unsigned count_advice(const char *advice, const char *opt1, const char *opt2,
			     const char *opt3)
{
	const char *dir = tmpdir_make(), *bin = getenv("IOPATH_BIN");
	char fname[320], log[320], oarg[340], line[512];
	char *argv[24];
	unsigned n = 0, a = 0;
	struct run_out r;
	FILE *f;

	snprintf(fname, sizeof(fname), "--filename=%s/f", dir);
	snprintf(log, sizeof(log), "%s/trace", dir);
	snprintf(oarg, sizeof(oarg), "-o%s", log);
	argv[a++] = "strace";
	argv[a++] = "-f";
	argv[a++] = "-e";
	argv[a++] = "trace=fadvise64";
	argv[a++] = oarg;
	argv[a++] = (char *)bin;
	argv[a++] = "--name=t";
	argv[a++] = fname;
	argv[a++] = "--size=1m";
	argv[a++] = "--bs=4k";
	argv[a++] = "--output-format=terse";
	argv[a++] = (char *)opt1;
	if (opt2)
		argv[a++] = (char *)opt2;
	if (opt3)
		argv[a++] = (char *)opt3;
	argv[a] = NULL;
	leak_check_off_under_ptrace();
	r = prog_runv(strace_bin(), argv);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	f = fopen(log, "r");
	cr_assert_not_null(f, "strace wrote no log");
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "fadvise64(") && strstr(line, advice))
			n++;
	fclose(f);
	return n;
}

Test(fadvise, hint_follows_the_job_as_fio)
{
	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it): the system calls cannot be seen");
	cr_assert_eq(count_advice("POSIX_FADV_RANDOM", "--rw=randwrite", NULL, NULL), 1);
	cr_assert_eq(count_advice("POSIX_FADV_SEQUENTIAL", "--rw=write", NULL, NULL), 1);
	cr_assert_eq(count_advice("POSIX_FADV_RANDOM", "--rw=randwrite", "--fadvise_hint=0", NULL), 0);
	cr_assert_eq(count_advice("POSIX_FADV_SEQUENTIAL", "--rw=randwrite", "--fadvise_hint=sequential", NULL), 1);
	cr_assert_eq(count_advice("POSIX_FADV_RANDOM", "--rw=write", "--fadvise_hint=random", NULL), 1);
}

/* fio: DONTNEED when the file is set up and again before the verify reads (invalidate=1) */
Test(fadvise, verify_pass_drops_the_cache_first)
{
	if (!strace_bin())
		cr_skip_test("strace is not installed (scripts/deps.sh installs it): the system calls cannot be seen");
	cr_assert_eq(count_advice("POSIX_FADV_DONTNEED", "--rw=randwrite", "--verify=crc32c", NULL), 2);
	cr_assert_eq(count_advice("POSIX_FADV_DONTNEED", "--rw=randwrite", NULL, NULL), 1);
	cr_assert_eq(count_advice("POSIX_FADV_DONTNEED", "--rw=randwrite", "--verify=crc32c",
				  "--invalidate=0"), 0);
}
