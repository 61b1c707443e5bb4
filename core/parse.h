/* Number, size, time and boolean parsing with fio's rules. */
#ifndef IOPATH_PARSE_H
#define IOPATH_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A size with fio's suffix rules. kb_base 1024 (fio's default, "compatibility mode"): k/m/g/t/p
 * with or without a trailing b are powers of 1024, the IEC spellings kib/mib... powers of 1000.
 * kb_base 1000 inverts that. Case is ignored. Returns 0, -EINVAL or -ERANGE.
 */
int parse_size(const char *s, unsigned kb_base, uint64_t *out);

/* A time; a bare number is in default_unit_ns. Suffixes d h m s ms us ns (fio's spellings). */
int parse_time_ns(const char *s, uint64_t default_unit_ns, uint64_t *out);

/* A plain unsigned integer (decimal or 0x hex). */
int parse_u64(const char *s, uint64_t *out);

/* 0/1 as fio's booleans, plus true/false, yes/no, on/off. */
int parse_bool(const char *s, bool *out);

/* Format bytes as fio does in its normal output: "4096KiB", "1719MiB". */
void fmt_bytes_iec(char *buf, unsigned len, uint64_t bytes);
void fmt_bytes_si(char *buf, unsigned len, uint64_t bytes);

#endif
