/* What the option table's files share (core/job/ only): the setters the table names,
		and helpers. */
#ifndef IOPATH_SETTERS_H
#define IOPATH_SETTERS_H

#include "base/err.h"
#include "job/options.h"

#define VERIFY_HDR_MIN 64u	/* verify_interval: room for a header and some data */
#define FIELD(f) .off = offsetof(struct job_spec, f), .size = sizeof(((struct job_spec *)0)->f)

/* ---- options.c ---- */

int parse_engine_opts(struct job_spec *job, const struct engine_ops *ops, struct iop_err *err);

/* ---- set_io.c, set_run.c: the setters opt_table names; each parses val into job (0 or a one-line error) ---- */

/* ---- set_io.c ---- */

/*
 * fio's per-direction lists: a value without a comma applies to reads and writes, "r,w[,t]"
 * gives each; part[d] is NULL where direction d is left alone. 0 or -EINVAL.
 */
#define DIR_PART_MAX 1024
int dir_parts(const char *val, char buf[2][DIR_PART_MAX], const char *part[2]);

int bad_value(struct iop_err *err, const struct opt_def *o, const char *val, const char *accepted);

/*
 * A pattern option's value in fio's syntax (0x hex bytes, "strings", 'files', decimal
 * numbers, combined) into out (PATTERN_MAX bytes): its length, or -EINVAL with a line that
 * names the option, where it could not be read and what is accepted (example: when empty).
 */
/*
 * fio's pattern syntax into out (PATTERN_MAX bytes): its length, or -errno with err set. With
 * fmt_off, up to PATTERN_FMT_MAX %o formats too, outside quotes: 8 bytes of zeros reserved in
 * out, their places in fmt_off[*nr_fmt]; without, a '%' is refused (fio's buffer_pattern).
 */
int parse_pattern_fmt(const struct opt_def *o, const char *val, unsigned char *out,
		      const char *example, uint16_t *fmt_off, unsigned *nr_fmt, struct iop_err *err);
int parse_pattern(const struct opt_def *o, const char *val, unsigned char *out,
		  const char *example, struct iop_err *err);

int set_ba(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_bs(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_bsrange(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_bssplit(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_buffer_pattern(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_fallocate(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_file_service(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_filesize(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_log_name(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_percentile_list(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_spr_op(struct job_spec *job, const struct opt_def *o, const char *val,
	       struct iop_err *err);
int set_random_distribution(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_perc_rand(struct job_spec *job, const struct opt_def *o, const char *val,
		  struct iop_err *err);
int set_rate(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_rw(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_rwmix(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_thinktime_blocks_type(struct job_spec *job, const struct opt_def *o,
		const char *val, struct iop_err *err);

int set_sync_file_range(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err);
int set_max_latency(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err);
int set_usec_time(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

/* ---- set_cmdprio.c ---- */

int set_cmdprio_int(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_cmdprio_bssplit(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

/* ---- set_run.c ---- */

int set_clocksource(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_continue_on_error(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_cpumask(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_cpus_allowed(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_cpus_policy(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_direct(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_engine(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_gtod_reduce(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_ignore_error(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_ioprio(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_kb_base(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_latency_percentile(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_mem(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_nice(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_numa_cpu_nodes(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_numa_mem_policy(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_randseed(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_size_pct(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_ss(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_startdelay(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_sync(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);

int set_verify(struct job_spec *job, const struct opt_def *o, const char *val, struct iop_err *err);
int set_replay_skip(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err);

int set_verify_interval(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_verify_pattern(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_zone_frac(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

int set_zonemode(struct job_spec *job, const struct opt_def *o, const char *val,
		struct iop_err *err);

#endif
