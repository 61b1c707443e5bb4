/* Number, size, time and boolean parsing with fio's rules. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static bool rest_is_space(const char *s)
{
	return *skip_space(s) == '\0';
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	s = skip_space(s);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !rest_is_space(end))
		return -EINVAL;
	*out = v;
	return 0;
}

/* Multiply with overflow check. */
static int mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (__builtin_mul_overflow(a, b, out))
		return -ERANGE;
	return 0;
}

static uint64_t upow(uint64_t base, unsigned exp)
{
	uint64_t v = 1;

	while (exp--)
		v *= base;
	return v;
}

int parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
	static const char prefixes[] = "kmgtpe";
	char *end;
	unsigned long long v;
	double frac = 0;
	const char *p, *dot;
	unsigned exp = 0;
	bool iec = false;
	uint64_t base, mult, whole;
	char sfx[8];
	size_t n;

	s = skip_space(s);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	/* fio accepts fractions with a suffix ("1.5g") */
	if (*end == '.') {
		dot = end;
		frac = strtod(dot, &end);
	}
	p = skip_space(end);
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n >= sizeof(sfx))
		return -EINVAL;
	memcpy(sfx, p, n);
	sfx[n] = '\0';
	if (n && !strcasecmp(sfx, "b")) {
		exp = 0;
	} else if (n) {
		const char *hit = strchr(prefixes, tolower((unsigned char)sfx[0]));

		if (!hit)
			return -EINVAL;
		exp = (unsigned)(hit - prefixes) + 1;
		if (!strcasecmp(sfx + 1, "ib"))
			iec = true;
		else if (sfx[1] && strcasecmp(sfx + 1, "b"))
			return -EINVAL;
	} else if (frac != 0) {
		return -EINVAL;
	}
	/* kb_base 1024: SI spellings are powers of 2, IEC spellings powers of 10; 1000 inverts */
	if (kb_base == 1000)
		base = iec ? 1024 : 1000;
	else
		base = iec ? 1000 : 1024;
	mult = upow(base, exp);
	if (mul_u64(v, mult, &whole))
		return -ERANGE;
	if (frac != 0) {
		double extra = frac * (double)mult;

		if (whole + extra > 1.8e19)
			return -ERANGE;
		whole += (uint64_t)extra;
	}
	*out = whole;
	return 0;
}

int parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out)
{
	static const struct {
		const char *sfx;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "nsec", 1 },
		{ "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 },
		{ "s", 1000000000ull }, { "sec", 1000000000ull },
		{ "m", 60000000000ull }, { "min", 60000000000ull },
		{ "h", 3600000000000ull }, { "d", 86400000000000ull },
	};
	char *end;
	unsigned long long v;
	const char *p;
	char sfx[8];
	size_t n, i;

	s = skip_space(s);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	p = skip_space(end);
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (!n)
		return mul_u64(v, default_unit_ns, out);
	if (n >= sizeof(sfx))
		return -EINVAL;
	memcpy(sfx, p, n);
	sfx[n] = '\0';
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(sfx, units[i].sfx))
			return mul_u64(v, units[i].ns, out);
	return -EINVAL;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	s = skip_space(s);
	for (i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

static void fmt_scaled(char *buf, unsigned len, uint64_t bytes, double base, const char *const *units)
{
	double v = (double)bytes;
	unsigned u = 0;

	while (v >= 10000 && units[u + 1]) {
		v /= base;
		u++;
	}
	if (u == 0 || v >= 100)
		snprintf(buf, len, "%.0f%s", v, units[u]);
	else
		snprintf(buf, len, "%.1f%s", v, units[u]);
}

void fmt_bytes_iec(char *buf, unsigned len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", NULL };

	fmt_scaled(buf, len, bytes, 1024, units);
}

void fmt_bytes_si(char *buf, unsigned len, uint64_t bytes)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB", "PB", NULL };

	fmt_scaled(buf, len, bytes, 1000, units);
}
