/* CPU lists: fio's cpus_allowed syntax, its split policy, and this machine's online CPUs. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpulist.h"

static int cpu_number(const char **p, unsigned *cpu)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno || v >= IOP_CPUS_MAX)
		return -ERANGE;
	*p = end;
	*cpu = (unsigned)v;
	return 0;
}

int iop_cpus_parse(const char *s, uint64_t *set, const char **bad)
{
	const char *p = s;
	unsigned a, b;
	int ret;

	memset(set, 0, IOP_CPUS_MAX / 8);
	while (isspace((unsigned char)*p))
		p++;
	for (;;) {
		*bad = p;
		ret = cpu_number(&p, &a);
		if (ret)
			return ret;
		b = a;
		if (*p == '-') {
			p++;
			ret = cpu_number(&p, &b);
			if (ret)
				return ret;
			if (b < a)
				return -EINVAL;
		}
		for (; a <= b; a++)
			cpu_add(set, a);
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}

void iop_cpus_format(const uint64_t *set, char *buf, size_t len)
{
	size_t n = 0;
	unsigned c = 0, e;

	buf[0] = 0;
	while (c < IOP_CPUS_MAX && n < len) {
		if (!cpu_in(set, c)) {
			c++;
			continue;
		}
		for (e = c; e + 1 < IOP_CPUS_MAX && cpu_in(set, e + 1); e++)
			;
		if (e == c)
			n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? "," : "", c);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "", c, e);
		c = e + 1;
	}
}

void iop_cpus_split(uint64_t *set, unsigned index)
{
	unsigned c, weight = 0, k = 0;

	for (c = 0; c < IOP_CPUS_MAX; c++)
		weight += cpu_in(set, c);
	if (!weight)
		return;
	index %= weight;
	for (c = 0; c < IOP_CPUS_MAX; c++) {
		if (!cpu_in(set, c))
			continue;
		if (k++ != index)
			set[c / 64] &= ~(1ull << (c % 64));
	}
}

void iop_cpus_online(uint64_t *online)
{
	char line[4096];
	const char *bad;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	unsigned c;

	if (f) {
		if (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			if (!iop_cpus_parse(line, online, &bad)) {
				fclose(f);
				return;
			}
		}
		fclose(f);
	}
	/* no sysfs: the configured CPUs, as fio's check */
	memset(online, 0, IOP_CPUS_MAX / 8);
	for (c = 0; c < IOP_CPUS_MAX && (conf <= 0 || c < (unsigned long)conf); c++)
		cpu_add(online, c);
}

int iop_cpus_first_absent(const uint64_t *set, uint64_t *online)
{
	unsigned c;

	iop_cpus_online(online);
	for (c = 0; c < IOP_CPUS_MAX; c++)
		if (cpu_in(set, c) && !cpu_in(online, c))
			return (int)c;
	return -1;
}
