/* Unit tests: size, time and boolean parsing with fio's rules. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "base/parse.h"

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

Test(parse_size, rejects_fractions_that_fio_reads_as_bytes)
{
	const char *why = NULL;
	uint64_t v;

	/* fio 3.33 reads "1.5m" as 1 byte: refuse rather than differ silently */
	cr_assert_eq(parse_size_why("1.5m", 1024, &v, NULL, &why), -EINVAL);
	cr_assert_not_null(strstr(why, "fraction"), "%s", why);
}

Test(parse_size, ki_means_k_as_in_fio)
{
	/* only the full IEC spelling swaps the base; fio reads "2mi" as 2m */
	cr_assert_eq(size_of("2mi", 1024), 2097152);
	cr_assert_eq(size_of("4Ki", 1024), 4096);
	cr_assert_eq(size_of("4kiB", 1024), 4000);
}

Test(parse_size, decimal_not_octal)
{
	cr_assert_eq(size_of("010", 1024), 10);
}

Test(parse_size, arithmetic_in_parentheses)
{
	cr_assert_eq(size_of("(2*1024)", 1024), 2048);
}

Test(parse_size, arithmetic_operators_and_precedence)
{
	cr_assert_eq(size_of("(1+2*3)", 1024), 7);
	cr_assert_eq(size_of("((1+2)*3)", 1024), 9);
	cr_assert_eq(size_of("(10%4)", 1024), 2);
	cr_assert_eq(size_of("(2^10)", 1024), 1024);
	cr_assert_eq(size_of("(10-2-3)", 1024), 5);
	cr_assert_eq(size_of("(100/7)", 1024), 14);
}

Test(parse_size, arithmetic_with_units)
{
	cr_assert_eq(size_of("(2*4k)", 1024), 8192);
	cr_assert_eq(size_of("(2*1024)m", 1024), 2048ull << 20);
	cr_assert_eq(size_of("(1k+1)", 1000), 1001);
}

Test(parse_size, arithmetic_errors)
{
	const char *why = NULL;
	uint64_t v;

	cr_assert_eq(parse_size_why("(1/0)", 1024, &v, NULL, &why), -EINVAL);
	cr_assert_not_null(strstr(why, "division by zero"), "%s", why);
	cr_assert_eq(parse_size_why("(1+2", 1024, &v, NULL, &why), -EINVAL);
	cr_assert_eq(parse_size_why("(1-2)", 1024, &v, NULL, &why), -EINVAL);
	cr_assert_eq(parse_size_why("(2k)k", 1024, &v, NULL, &why), -EINVAL);
}

Test(parse_size, percentages_only_where_accepted)
{
	uint64_t v;
	bool pct;

	cr_assert_eq(parse_size_why("50%", 1024, &v, &pct, NULL), 0);
	cr_assert(pct);
	cr_assert_eq(v, 50);
	cr_assert_eq(parse_size_why("50%", 1024, &v, NULL, NULL), -EINVAL);
	cr_assert_eq(parse_size_why("0%", 1024, &v, &pct, NULL), -ERANGE);
	cr_assert_eq(parse_size_why("101%", 1024, &v, &pct, NULL), -ERANGE);
}

Test(parse_size, rejects_space_inside)
{
	uint64_t v;

	/* fio would read "4 k" as 4 bytes */
	cr_assert_eq(parse_size("4 k", 1024, &v), -EINVAL);
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

Test(parse_time, fio_spellings)
{
	cr_assert_eq(time_of("250msec"), 250000000ull);
	cr_assert_eq(time_of("10usec"), 10000ull);
	cr_assert_eq(time_of("2M"), 120000000000ull);
}

Test(parse_time, rejects_spellings_fio_reads_as_microseconds)
{
	const char *why = NULL;
	uint64_t v;

	/* fio 3.33 reads runtime=1sec as 1 us */
	cr_assert_eq(parse_time_why("1sec", 1000000000ull, &v, &why), -EINVAL);
	cr_assert_not_null(strstr(why, "microseconds"), "%s", why);
	cr_assert_eq(parse_time_ns("5min", 1000000000ull, &v), -EINVAL);
	cr_assert_eq(parse_time_ns("5ns", 1000000000ull, &v), -EINVAL);
	cr_assert_eq(parse_time_ns("0.5", 1000000000ull, &v), -EINVAL);
}

Test(parse_time, arithmetic_uses_the_default_unit_when_no_unit_is_given)
{
	cr_assert_eq(time_of("(1+2)"), 3000000000ull);
	cr_assert_eq(time_of("(2*30)"), 60000000000ull);
}

Test(parse_time, arithmetic_with_units_keeps_whole_seconds_as_fio)
{
	cr_assert_eq(time_of("(1s+500ms)"), 1000000000ull);
	cr_assert_eq(time_of("(1m+30s)"), 90000000000ull);
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

/* fio 3.33's normal output, read off its runs: IOPS, bandwidths and sizes in 4 digits */
Test(parse, num2str_as_fio_prints_numbers)
{
	char b[32];

	fmt_num2str(b, sizeof(b), 256000, 4, false, "");
	cr_assert_str_eq(b, "256k");
	fmt_num2str(b, sizeof(b), 5461333, 4, false, "");
	cr_assert_str_eq(b, "5461k");
	fmt_num2str(b, sizeof(b), 18700000, 4, false, "");
	cr_assert_str_eq(b, "18.7M");
	fmt_num2str(b, sizeof(b), 11, 4, false, "");
	cr_assert_str_eq(b, "11");
	fmt_bytes_iec(b, sizeof(b), 1048576000);
	cr_assert_str_eq(b, "1000MiB");
	fmt_bytes_si(b, sizeof(b), 1048576000);
	cr_assert_str_eq(b, "1049MB");
	fmt_bytes_iec(b, sizeof(b), 22369621333ull);
	cr_assert_str_eq(b, "20.8GiB");
	fmt_bytes_iec(b, sizeof(b), 45466);
	cr_assert_str_eq(b, "44.4KiB");
	fmt_bytes_si(b, sizeof(b), 45466);
	cr_assert_str_eq(b, "45.5kB");
	fmt_bytes_iec(b, sizeof(b), 40960);
	cr_assert_str_eq(b, "40.0KiB");
	fmt_bytes_si(b, sizeof(b), 40960);
	cr_assert_str_eq(b, "41.0kB");
	fmt_bytes_iec(b, sizeof(b), 64 << 20);
	cr_assert_str_eq(b, "64.0MiB");
	fmt_bytes_si(b, sizeof(b), 64 << 20);
	cr_assert_str_eq(b, "67.1MB");
}
