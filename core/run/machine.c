/* What else used the machine during a run: /proc/stat, getrusage and /proc/loadavg at both ends. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "run/machine.h"

enum { T_USER, T_NICE, T_SYSTEM, T_IDLE, T_IOWAIT, T_IRQ, T_SOFTIRQ, T_STEAL };

bool machine_parse_stat(const char *text, struct machine_snap *s)
{
	const char *line = text;

	memset(s->ticks, 0, sizeof(s->ticks));
	s->cpus = 0;
	s->ok = false;
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (!strncmp(line, "cpu ", 4)) {
			/* kernels before 2.6.11 stop before steal: those read as 0 */
			if (sscanf(line + 4, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
				   " %" SCNu64 " %" SCNu64 " %" SCNu64, &s->ticks[0], &s->ticks[1],
				   &s->ticks[2], &s->ticks[3], &s->ticks[4], &s->ticks[5],
				   &s->ticks[6], &s->ticks[7]) < 4)
				return false;
			s->ok = true;
		} else if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9') {
			s->cpus++;
		}
	}
	return s->ok;
}

static size_t read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return n;
}

bool machine_thread_sched(uint64_t v[3])
{
	char buf[128];

	return read_small("/proc/thread-self/schedstat", buf, sizeof(buf)) &&
	       sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64, &v[0], &v[1], &v[2]) == 3;
}

/*
 * A /proc file read whole, however long: /proc/stat has a line per CPU and one per kind of
 * interrupt, past any fixed buffer on a many-CPU host (a line cut there would be misread).
 * To free; NULL when it cannot be read.
 */
static char *read_whole(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return NULL;
	n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n <= 0) {
		free(text);
		return NULL;
	}
	return text;
}

bool machine_stat_file(const char *path, struct machine_snap *s)
{
	char *text = read_whole(path);
	bool ok = text && machine_parse_stat(text, s);

	free(text);
	return ok;
}

void machine_snap(struct machine_snap *s)
{
	char buf[256];
	struct timespec ts;
	struct rusage ru;

	memset(s, 0, sizeof(*s));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!machine_stat_file("/proc/stat", s))
		return;
	if (!getrusage(RUSAGE_SELF, &ru))
		s->own_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
			   ru.ru_stime.tv_usec / 1e6;
	if (!read_small("/proc/loadavg", buf, sizeof(buf)) || sscanf(buf, "%lf", &s->load1) != 1)
		s->load1 = -1;
}

void machine_span(const struct machine_snap *a, const struct machine_snap *b,
		  struct run_machine *out)
{
	double hz = (double)sysconf(_SC_CLK_TCK), d[MACHINE_STATES];
	unsigned i;

	memset(out, 0, sizeof(*out));
	if (!a->ok || !b->ok || hz <= 0)
		return;
	for (i = 0; i < MACHINE_STATES; i++)
		d[i] = b->ticks[i] >= a->ticks[i] ? (b->ticks[i] - a->ticks[i]) / hz : 0;
	out->valid = true;
	out->wall_s = (b->ns - a->ns) / 1e9;
	for (i = 0; i < MACHINE_STATES; i++)
		out->total_s += d[i];
	out->busy_s = d[T_USER] + d[T_NICE] + d[T_SYSTEM] + d[T_IRQ] + d[T_SOFTIRQ];
	out->steal_s = d[T_STEAL];
	out->iowait_s = d[T_IOWAIT];
	out->own_s = b->own_s >= a->own_s ? b->own_s - a->own_s : 0;
	out->load1_start = a->load1;
	out->load1_end = b->load1;
	out->cpus = b->cpus;
}
