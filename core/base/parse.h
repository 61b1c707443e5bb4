/* Number, size, time and boolean parsing with fio's rules. */
#ifndef IOPATH_PARSE_H
#define IOPATH_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A size with fio's suffix rules. kb_base 1024 (fio's default, "compatibility mode"): k/m/g/t/p
 * with or without a trailing b (or i: fio reads "ki" as "k") are powers of 1024, the full IEC
 * spellings kib/mib... powers of 1000. kb_base 1000 inverts that. Case is ignored. Fractions
 * and spaces inside are refused (fio would silently read "1.5m" as 1 byte). Returns 0,
 * -EINVAL or -ERANGE.
 */
int parse_size(const char *s, unsigned kb_base, uint64_t *out);

/*
 * parse_size, plus: "(...)" arithmetic (+ - * / % ^, suffixes inside, or one suffix after the
 * closing parenthesis), and "N%" (1..100, *percent set) when percent is non-NULL. On failure
 * *why (when why is non-NULL) says what was wrong, for the message.
 */
int parse_size_why(const char *s, unsigned kb_base, uint64_t *out, bool *percent,
		   const char **why);

/* A time; a bare number is in default_unit_ns. Suffixes d h m s ms msec us usec (fio's). */
int parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out);

/* parse_time_ns with "(...)" arithmetic and a reason on failure, as parse_size_why. */
int parse_time_why(const char *s, uint64_t default_unit_ns, uint64_t *out, const char **why);

/*
 * fio's reading of an integer (time set: a time) written with arithmetic outside parentheses,
 * "iodepth=128*1", "runtime=40+30": str_to_decimal() takes the leading number and a unit only
 * where its get_mult_bytes()/get_mult_time() find one (a time's after the digits and signs
 * that follow the number: "40+30m" is 40 minutes), ignoring the rest. -EINVAL unless s is a
 * number and an operator (+ - * / ^) follows it.
 */
int parse_fio_leading(const char *s, bool time, unsigned kb_base, uint64_t default_unit_ns,
		      uint64_t *out);

/* A plain unsigned integer (decimal or 0x hex). */
int parse_u64(const char *s, uint64_t *out);

/* 0/1 as fio's booleans, plus true/false, yes/no, on/off. */
int parse_bool(const char *s, bool *out);

/* fio's num2str: num in at most maxlen digits with an SI (or, pow2, IEC) prefix, then unit. */
void fmt_num2str(char *buf, size_t len, uint64_t num, int maxlen, bool pow2, const char *unit);

/* Format bytes as fio does in its normal output: "4096KiB", "1719MiB". */
void fmt_bytes_iec(char *buf, unsigned len, uint64_t bytes);
void fmt_bytes_si(char *buf, unsigned len, uint64_t bytes);

#endif
