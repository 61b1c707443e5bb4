/* Unit tests: size, time and boolean parsing with fio's rules. */
#include <criterion/criterion.h>
#include <errno.h>

#include "parse.h"

static uint64_t size_of(const char *s, unsigned kb_base)
{
	uint64_t v = 0;

	cr_assert_eq(parse_size(s, kb_base, &v), 0, "parse_size(\"%s\") failed", s);
	return v;
}

Test(parse_size, plain_bytes)
{
	cr_assert_eq(size_of("4096", 1024), 4096);
	cr_assert_eq(size_of("0x1000", 1024), 4096);
}

Test(parse_size, si_suffixes_are_powers_of_two_by_default)
{
	cr_assert_eq(size_of("4k", 1024), 4096);
	cr_assert_eq(size_of("4K", 1024), 4096);
	cr_assert_eq(size_of("4kb", 1024), 4096);
	cr_assert_eq(size_of("1m", 1024), 1048576);
	cr_assert_eq(size_of("2g", 1024), 2ull << 30);
	cr_assert_eq(size_of("1t", 1024), 1ull << 40);
	cr_assert_eq(size_of("1p", 1024), 1ull << 50);
}

Test(parse_size, iec_suffixes_are_powers_of_ten_by_default)
{
	/* fio's "compatibility mode": KiB means 1000 when kb_base=1024 */
	cr_assert_eq(size_of("4KiB", 1024), 4000);
	cr_assert_eq(size_of("1MiB", 1024), 1000000);
}

Test(parse_size, kb_base_1000_inverts_the_rules)
{
	cr_assert_eq(size_of("4k", 1000), 4000);
	cr_assert_eq(size_of("4kB", 1000), 4000);
	cr_assert_eq(size_of("4KiB", 1000), 4096);
}

Test(parse_size, fractions_with_a_suffix)
{
	cr_assert_eq(size_of("1.5k", 1024), 1536);
	cr_assert_eq(size_of("0.5m", 1024), 524288);
}

Test(parse_size, byte_suffix)
{
	cr_assert_eq(size_of("512b", 1024), 512);
}

Test(parse_size, rejects_garbage)
{
	uint64_t v;

	cr_assert_eq(parse_size("", 1024, &v), -EINVAL);
	cr_assert_eq(parse_size("-4k", 1024, &v), -EINVAL);
	cr_assert_eq(parse_size("4x", 1024, &v), -EINVAL);
	cr_assert_eq(parse_size("k", 1024, &v), -EINVAL);
	cr_assert_eq(parse_size("4kk", 1024, &v), -EINVAL);
}

Test(parse_size, rejects_overflow)
{
	uint64_t v;

	cr_assert_eq(parse_size("99999999999999999999", 1024, &v), -ERANGE);
	cr_assert_eq(parse_size("100000p", 1024, &v), -ERANGE);
}

static uint64_t time_of(const char *s)
{
	uint64_t v = 0;

	cr_assert_eq(parse_time_ns(s, 1000000000ull, &v), 0, "parse_time_ns(\"%s\") failed", s);
	return v;
}

Test(parse_time, bare_number_uses_default_unit)
{
	cr_assert_eq(time_of("5"), 5000000000ull);
}

Test(parse_time, suffixes)
{
	cr_assert_eq(time_of("250ms"), 250000000ull);
	cr_assert_eq(time_of("10us"), 10000ull);
	cr_assert_eq(time_of("2m"), 120000000000ull);
	cr_assert_eq(time_of("1h"), 3600000000000ull);
	cr_assert_eq(time_of("1d"), 86400000000000ull);
	cr_assert_eq(time_of("3s"), 3000000000ull);
}

Test(parse_time, rejects_unknown_suffix)
{
	uint64_t v;

	cr_assert_eq(parse_time_ns("5y", 1000000000ull, &v), -EINVAL);
	cr_assert_eq(parse_time_ns("-5", 1000000000ull, &v), -EINVAL);
}

Test(parse_bool, fio_booleans)
{
	bool b;

	cr_assert_eq(parse_bool("1", &b), 0);
	cr_assert(b);
	cr_assert_eq(parse_bool("0", &b), 0);
	cr_assert(!b);
	cr_assert_eq(parse_bool("2", &b), -EINVAL);
}
