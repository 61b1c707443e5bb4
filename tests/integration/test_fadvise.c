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

/* Count the fadvise64 calls with advice in the run of iopath with the given options. */
static unsigned count_advice(const char *advice, const char *opt1, const char *opt2,
			     const char *opt3)
{
	const char *dir = tmpdir_make();
	char fname[320], log[320], *text, *l;
	const char *args[] = { "--name=t", fname, "--size=1m", "--bs=4k", "--output-format=terse",
			       opt1, opt2, opt3, NULL };
	unsigned n = 0;

	snprintf(fname, sizeof(fname), "--filename=%s/f", dir);
	snprintf(log, sizeof(log), "%s/trace", dir);
	text = strace_iopath("fadvise64", log, args);
	for (l = text; (l = strstr(l, "fadvise64(")); l++) {
		size_t len = strcspn(l, "\n");
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		n += strstr(line, advice) != NULL;
	}
	free(text);
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
