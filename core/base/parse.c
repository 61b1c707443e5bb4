/* Number, size, time and boolean parsing with fio's rules. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/parse.h"

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
	v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !rest_is_space(end))
		return -EINVAL;
	*out = v;
	return 0;
}

/* An unsigned number as fio reads one: decimal, or hexadecimal after 0x (never octal). */
static unsigned long long strtou(const char *s, char **end)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	return strtoull(s, end, hex ? 16 : 10);
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

/*
 * A size suffix, fio's __get_mult_bytes(): the first letter picks the power (k m g t p);
 * only the full IEC spelling (kib, mib, ...) swaps the base; "ki" and "kb" mean "k".
 * 0 with *mult set, or -EINVAL for a suffix fio would misread.
 */
static int size_mult(const char *sfx, size_t n, unsigned kb_base, uint64_t *mult)
{
	static const char powers[] = "kmgtp";
	const char *hit;
	uint64_t base = kb_base;
	char rest[4] = "";

	if (!n || (n == 1 && tolower((unsigned char)sfx[0]) == 'b')) {
		*mult = 1;
		return 0;
	}
	hit = strchr(powers, tolower((unsigned char)sfx[0]));
	if (!hit || n > 3)
		return -EINVAL;
	memcpy(rest, sfx + 1, n - 1);
	rest[n - 1] = '\0';
	if (!strcasecmp(rest, "ib"))
		base = kb_base == 1000 ? 1024 : 1000;
	else if (*rest && strcasecmp(rest, "b") && strcasecmp(rest, "i"))
		return -EINVAL;
	*mult = upow(base, (unsigned)(hit - powers) + 1);
	return 0;
}

/* A time suffix, fio's get_mult_time() for the spellings it honours. */
static int time_mult(const char *sfx, size_t n, uint64_t *mult)
{
	static const struct {
		const char *sfx;
		uint64_t ns;
	} units[] = {
		{ "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 },
		{ "s", 1000000000ull }, { "m", 60000000000ull },
		{ "h", 3600000000000ull }, { "d", 86400000000000ull },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strlen(units[i].sfx) == n && !strncasecmp(sfx, units[i].sfx, n)) {
			*mult = units[i].ns;
			return 0;
		}
	}
	return -EINVAL;
}

/* Arithmetic in parentheses, as fio evaluates it: + - * / % ^, integers, unit suffixes. */
struct expr {
	const char *p;
	bool time;
	unsigned kb_base;
	bool units_seen;	/* some number carried a suffix */
	const char *why;
};

static int expr_sum(struct expr *e, __int128 *v);

static int expr_fail(struct expr *e, const char *why)
{
	e->why = why;
	return -EINVAL;
}

static bool too_big(__int128 v)
{
	return v > (__int128)UINT64_MAX || v < -(__int128)UINT64_MAX;
}

static int expr_primary(struct expr *e, __int128 *v)
{
	unsigned long long n;
	uint64_t mult = 1;
	const char *s;
	char *end;
	int ret;

	e->p = skip_space(e->p);
	if (*e->p == '(') {
		e->p++;
		ret = expr_sum(e, v);
		if (ret)
			return ret;
		e->p = skip_space(e->p);
		if (*e->p != ')')
			return expr_fail(e, "unbalanced parentheses");
		e->p++;
		return 0;
	}
	if (*e->p == '-') {
		e->p++;
		ret = expr_primary(e, v);
		*v = -*v;
		return ret;
	}
	if (!isdigit((unsigned char)*e->p))
		return expr_fail(e, "expected a number");
	errno = 0;
	n = strtou(e->p, &end);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end == '.')
		return expr_fail(e, "fractions are not accepted (fio reads integers only)");
	s = end;
	while (isalpha((unsigned char)*end))
		end++;
	if (end > s)
		ret = e->time ? time_mult(s, (size_t)(end - s), &mult) :
				size_mult(s, (size_t)(end - s), e->kb_base, &mult);
	else
		ret = 0, mult = 1;	/* fio: in a time with units, bare numbers are us */
	e->units_seen |= end > s;
	if (ret)
		return expr_fail(e, e->time ? "unknown time unit in the expression" :
					      "unknown size suffix in the expression");
	if (e->time && end > s)
		mult /= 1000;	/* fio evaluates times in microseconds */
	*v = (__int128)n * mult;
	e->p = end;
	return too_big(*v) ? -ERANGE : 0;
}

static int expr_power(struct expr *e, __int128 *v)
{
	__int128 exp, r = 1;
	int ret = expr_primary(e, v);

	if (ret)
		return ret;
	e->p = skip_space(e->p);
	if (*e->p != '^')
		return 0;
	e->p++;
	ret = expr_power(e, &exp);
	if (ret)
		return ret;
	if (exp < 0)
		return expr_fail(e, "negative exponent");
	while (exp-- > 0) {
		r *= *v;
		if (too_big(r))
			return -ERANGE;
	}
	*v = r;
	return 0;
}

static int expr_product(struct expr *e, __int128 *v)
{
	__int128 r;
	int ret = expr_power(e, v);
	char op;

	while (!ret) {
		e->p = skip_space(e->p);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		e->p++;
		ret = expr_power(e, &r);
		if (ret)
			break;
		if (op != '*' && r == 0)
			return expr_fail(e, "division by zero");
		*v = op == '*' ? *v * r : op == '/' ? *v / r : *v % r;
		if (too_big(*v))
			return -ERANGE;
	}
	return ret;
}

static int expr_sum(struct expr *e, __int128 *v)
{
	__int128 r;
	int ret = expr_product(e, v);
	char op;

	while (!ret) {
		e->p = skip_space(e->p);
		op = *e->p;
		if (op != '+' && op != '-')
			break;
		e->p++;
		ret = expr_product(e, &r);
		if (!ret)
			*v = op == '+' ? *v + r : *v - r;
		if (!ret && too_big(*v))
			return -ERANGE;
	}
	return ret;
}

/*
 * Evaluate "(...)" at s; *rest points after the closing parenthesis. *units tells whether
 * any number inside had a unit: then *out is bytes or ns, otherwise a bare count.
 */
static int eval_paren(const char *s, bool time, unsigned kb_base, uint64_t *out, bool *units,
		      const char **rest, const char **why)
{
	struct expr e = { .p = s, .time = time, .kb_base = kb_base };
	__int128 v;
	int ret = expr_primary(&e, &v);

	if (ret) {
		*why = e.why ? e.why : "number out of range";
		return ret;
	}
	if (v < 0) {
		*why = "the expression is negative";
		return -EINVAL;
	}
	*units = e.units_seen;
	/* a time with units is in us; without, a count of the option's default unit */
	*out = time && e.units_seen ? (uint64_t)v * 1000 : (uint64_t)v;
	*rest = e.p;
	return 0;
}

/* Split "123suffix": the number (decimal or 0x hex) and what follows it. */
static int split_number(const char *s, uint64_t *v, const char **sfx, const char **why)
{
	unsigned long long n;
	char *end;

	if (!isdigit((unsigned char)*s)) {
		*why = "not a number";
		return -EINVAL;
	}
	errno = 0;
	n = strtou(s, &end);
	if (errno == ERANGE) {
		*why = "number out of range";
		return -ERANGE;
	}
	if (*end == '.') {
		/* "16777216.0" (what cdmpy writes) is a whole number of bytes: fio reads it exactly */
		const char *z = end + 1;

		while (*z == '0')
			z++;
		if (*skip_space(z)) {
			*why = "fractions are not accepted: fio reads only the integer part and ignores the suffix (write 1536k, not 1.5m)";
			return -EINVAL;
		}
		end = (char *)z;
	}
	if (isspace((unsigned char)*end) && *skip_space(end)) {
		*why = "a space between the number and its suffix: fio would ignore the suffix";
		return -EINVAL;
	}
	*v = n;
	*sfx = end;
	return 0;
}

int parse_size_why(const char *s, unsigned kb_base, uint64_t *out, bool *percent,
		   const char **why)
{
	const char *sfx, *dummy;
	uint64_t v, mult;
	bool units = false;
	size_t n;
	int ret;

	if (!why)
		why = &dummy;
	*why = "not a size";
	if (percent)
		*percent = false;
	s = skip_space(s);
	if (*s == '(')
		ret = eval_paren(s, false, kb_base, &v, &units, &sfx, why);
	else
		ret = split_number(s, &v, &sfx, why);
	if (ret)
		return ret;
	n = strlen(sfx);
	while (n && isspace((unsigned char)*sfx))
		sfx++, n--;
	if (units && n) {
		*why = "units both inside and after the parentheses";
		return -EINVAL;
	}
	while (n && isspace((unsigned char)sfx[n - 1]))
		n--;
	/* "%%" too: fio reads what follows a '%' as nothing, and job files written through
	 * printf-style templates double it */
	if ((n == 1 && sfx[0] == '%') || (n == 2 && sfx[0] == '%' && sfx[1] == '%')) {
		if (!percent) {
			*why = "a percentage is not accepted here";
			return -EINVAL;
		}
		if (v < 1 || v > 100) {
			*why = "a percentage must be 1% to 100%";
			return -ERANGE;
		}
		*percent = true;
		*out = v;
		return 0;
	}
	if (size_mult(sfx, n, kb_base, &mult)) {
		*why = "unknown suffix (accepted: b, k, m, g, t, p, optionally followed by b, or kib, mib, ...)";
		return -EINVAL;
	}
	if (mul_u64(v, mult, out)) {
		*why = "number out of range";
		return -ERANGE;
	}
	return 0;
}

/* get_mult_time() on what follows the digits and signs: fio's units, microseconds otherwise. */
static uint64_t fio_time_mult(const char *p, uint64_t default_unit_ns)
{
	while (isdigit((unsigned char)*p) || *p == '+' || *p == '-')
		p++;
	if (!isalpha((unsigned char)*p))
		return default_unit_ns;
	if (!strncasecmp(p, "us", 2))
		return 1000;
	if (!strncasecmp(p, "ms", 2))
		return 1000000;
	if (!strcasecmp(p, "s"))
		return 1000000000ull;
	if (!strcasecmp(p, "m"))
		return 60000000000ull;
	if (!strcasecmp(p, "h"))
		return 3600000000000ull;
	if (!strcasecmp(p, "d"))
		return 86400000000000ull;
	return 1000;
}

int parse_fio_leading(const char *s, bool time, unsigned kb_base, uint64_t default_unit_ns,
		      uint64_t *out)
{
	const char *p, *sfx;
	char *end;
	unsigned long long n;
	uint64_t mult = 1;
	size_t len;

	s = skip_space(s);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, strstr(s, "0x") || strstr(s, "0X") ? 16 : 10);
	if (errno == ERANGE)
		return -ERANGE;
	p = end;
	while (isalpha((unsigned char)*p))
		p++;
	if (!*p || !strchr("+-*/^", *p))
		return -EINVAL;
	if (time) {
		mult = fio_time_mult(s, default_unit_ns);
	} else if (isalpha((unsigned char)*end)) {
		/* __get_mult_bytes(): the unit's letters, up to the operator */
		for (sfx = end, len = 0; isalpha((unsigned char)sfx[len]); len++)
			;
		if (size_mult(sfx, len > 3 ? 1 : len, kb_base, &mult))
			mult = 1;
	}
	return mul_u64(n, mult, out);
}

int parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
	return parse_size_why(s, kb_base, out, NULL, NULL);
}

int parse_time_why(const char *s, uint64_t default_unit_ns, uint64_t *out, const char **why)
{
	const char *sfx, *dummy;
	uint64_t v, mult;
	bool units = false;
	size_t n;
	int ret;

	if (!why)
		why = &dummy;
	*why = "not a time";
	s = skip_space(s);
	if (*s == '(')
		ret = eval_paren(s, true, 1024, &v, &units, &sfx, why);
	else
		ret = split_number(s, &v, &sfx, why);
	if (ret)
		return ret;
	n = strlen(sfx);
	while (n && isspace((unsigned char)*sfx))
		sfx++, n--;
	while (n && isspace((unsigned char)sfx[n - 1]))
		n--;
	if (units && n) {
		*why = "units both inside and after the parentheses";
		return -EINVAL;
	}
	if (units) {
		mult = 1;
		/* fio keeps whole seconds of a seconds-based option's expression */
		if (default_unit_ns >= 1000000000ull)
			v = v / default_unit_ns * default_unit_ns;
	} else if (!n) {
		mult = default_unit_ns;
	} else if (time_mult(sfx, n, &mult)) {
		*why = "unknown time unit: fio honours d, h, m, s, ms (msec) and us (usec) and reads anything else (sec, min, ns ...) as microseconds";
		return -EINVAL;
	}
	if (mul_u64(v, mult, out)) {
		*why = "time out of range";
		return -ERANGE;
	}
	return 0;
}

int parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out)
{
	return parse_time_why(s, default_unit_ns, out, NULL);
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

/*
 * fio's num2str: at most maxlen digits (the decimal point counted), dividing by 1000 or 1024
 * and naming the prefix; decimals as room allows, rounded as fio rounds them (a carry without
 * decimals rounds up, and .95 and above of one decimal becomes the next whole number).
 */
void fmt_num2str(char *buf, size_t len, uint64_t num, int maxlen, bool pow2, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char *const *prefix = pow2 ? iec : si;
	const unsigned thousand = pow2 ? 1024 : 1000, nr = sizeof(si) / sizeof(si[0]);
	unsigned post = 0, modulo = UINT32_MAX;
	bool carry = false;
	char digits[32], frac[32];
	int room;

	for (;;) {
		snprintf(digits, sizeof(digits), "%llu", (unsigned long long)num);
		if ((int)strlen(digits) <= maxlen || post + 1 >= nr)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	snprintf(digits, sizeof(digits), "%llu", (unsigned long long)num);
	room = maxlen - (int)strlen(digits);
	if (modulo == UINT32_MAX || room <= 1) {
		if (modulo != UINT32_MAX && carry)
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[post], unit);
		return;
	}
	snprintf(frac, sizeof(frac), "%.*f", room - 1, (double)modulo / (double)thousand);
	if (frac[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, frac + 2, prefix[post], unit);
}

void fmt_bytes_iec(char *buf, unsigned len, uint64_t bytes)
{
	fmt_num2str(buf, len, bytes, 4, true, "B");
}

void fmt_bytes_si(char *buf, unsigned len, uint64_t bytes)
{
	fmt_num2str(buf, len, bytes, 4, false, "B");
}
