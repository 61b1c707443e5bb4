/* Holds for tests that must act at an exact point of a run. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "base/stop.h"
#include "base/testhold.h"

void test_hold(const char *var, const char *suffix)
{
	const char *p = getenv(var);
	const struct timespec tick = { 0, 5000000 };
	char name[PATH_MAX];
	int fd;

	if (!p || !*p)
		return;
	/* under MPI each rank holds on its own: P<suffix>.rankN */
	snprintf(name, sizeof(name), "%s%s%s", p, suffix, fleet_file_suffix());
	fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	snprintf(name, sizeof(name), "%s%s%s.go", p, suffix, fleet_file_suffix());
	while (access(name, F_OK) && !run_stop_requested())
		nanosleep(&tick, NULL);
}
