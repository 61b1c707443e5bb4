/* Option setters for how a job runs: engine, sync, errors, verify, memory, clocks, CPUs, priority, zones. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cpulist.h"
#include "base/msg.h"
#include "job/fio_unsupported.h"
#include "job/options.h"
#include "base/numapol.h"
#include "base/parse.h"
#include "job/job.h"


#include "job/setters.h"

void engine_names(char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; engine_table[i].name && off + 1 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "",
					engine_table[i].name);
}

int set_engine(struct job_spec *job, const struct opt_def *o, const char *val,
		      struct iop_err *err)
{
	const struct engine_entry *ent = engine_find(val);
	char names[256];

	if (!ent) {
		engine_names(names, sizeof(names));
		if (fio_unsupported_find(val, FIO_ENGINE) || !strncmp(val, "external:", 9))
			return iop_errf(err, -EINVAL,
					"option %s: fio's %s engine is not supported by iopath (iopath's engines: %s)",
					o->name, val, names);
		return iop_errf(err, -EINVAL, "option %s: unknown engine '%s' (accepted: %s)",
				o->name, val, names);
	}
	snprintf(job->ioengine, sizeof(job->ioengine), "%s", ent->name);
	return 0;
}

int set_direct(struct job_spec *job, const struct opt_def *o, const char *val,
		      struct iop_err *err)
{
	bool b;

	if (parse_bool(val, &b))
		return bad_value(err, o, val, "0 or 1");
	job->direct = !strcmp(o->name, "buffered") ? !b : b;
	return 0;
}

/* sync=none|0|sync|1|dsync: fio 3.33's open flags (O_SYNC, O_DSYNC) for the job's files. */
int set_sync(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	if (!strcmp(val, "sync") || !strcmp(val, "1"))
		job->sync_flags = O_SYNC;
	else if (!strcmp(val, "none") || !strcmp(val, "0"))
		job->sync_flags = 0;
	else if (!strcmp(val, "dsync"))
		job->sync_flags = O_DSYNC;
	else
		return bad_value(err, o, val, "none 0 sync 1 dsync");
	return 0;
}

/* continue_on_error=none|read|write|io|verify|all (0: none, 1: all), fio's error types. */
int set_continue_on_error(struct job_spec *job, const struct opt_def *o, const char *val,
				 struct iop_err *err)
{
	static const struct {
		const char *name;
		unsigned bits;
	} kinds[] = {
		{ "none", 0 }, { "0", 0 },
		{ "read", 1u << ERR_READ }, { "write", 1u << ERR_WRITE },
		{ "io", (1u << ERR_READ) | (1u << ERR_WRITE) }, { "verify", 1u << ERR_VERIFY },
		{ "all", (1u << ERR_TYPES) - 1 }, { "1", (1u << ERR_TYPES) - 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!strcmp(val, kinds[i].name)) {
			job->continue_on_error = kinds[i].bits;
			return 0;
		}
	}
	return bad_value(err, o, val, "none read write io verify all 0 1");
}

/* An errno by fio's name for it (EWOULDBLOCK, EDEADLOCK: the errors they alias); 0 if none. */
static int errno_by_name(const char *name)
{
	int e;

	if (!strcmp(name, "EWOULDBLOCK"))
		return EAGAIN;
	if (!strcmp(name, "EDEADLOCK"))
		return EDEADLK;
	for (e = 1; e < 134; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, name))
			return e;
	}
	return 0;
}

/*
 * ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST, each a ':' list of errno names or numbers
 * (0x hex too): as fio, a list replaces that type's non-fatal errors and lets the job continue
 * on them; an empty list leaves the type alone.
 */
int set_ignore_error(struct job_spec *job, const struct opt_def *o, const char *val,
			    struct iop_err *err)
{
	char buf[1024], *save = NULL, *part, *rest, *tok;
	unsigned type = 0, n;

	if (strlen(val) >= sizeof(buf))
		return bad_value(err, o, val, "READ,WRITE,VERIFY lists such as EIO:ENOSPC");
	strcpy(buf, val);
	for (rest = buf; rest; type++) {
		part = rest;
		rest = strchr(rest, ',');
		if (rest)
			*rest++ = '\0';
		if (type >= ERR_TYPES)
			return iop_errf(err, -EINVAL,
					"option %s: '%s': more than three lists (accepted: READ,WRITE,VERIFY lists of errors, e.g. ,ENOSPC:EDQUOT)",
					o->name, val);
		n = 0;
		for (tok = strtok_r(part, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
			long v;
			char *end;

			if (n == IGNORE_ERROR_MAX)
				return iop_errf(err, -EINVAL, "option %s: more than %u errors in one list",
						o->name, IGNORE_ERROR_MAX);
			if (tok[0] == 'E') {
				v = errno_by_name(tok);
			} else {
				v = strtol(tok, &end, strncasecmp(tok, "0x", 2) ? 10 : 16);
				if (*end)
					v = 0;
				v = v < 0 ? -v : v;
			}
			if (!v || v > 4095)
				return iop_errf(err, -EINVAL,
						"option %s: unknown error '%s' (accepted: errno names such as ENOSPC, or numbers)",
						o->name, tok);
			job->ignore_error[type][n++] = (int)v;
		}
		save = NULL;
		if (!n)
			continue;
		job->nr_ignore_error[type] = n;
		job->continue_on_error |= 1u << type;
	}
	return 0;
}

/* verify=: fio's names, indexed by enum job_verify. */
const char *const job_verify_names[VERIFY_KINDS] = {
	"0", "crc32c", "meta", "md5", "crc64", "crc32", "crc16", "crc7", "sha256", "sha512",
	"sha3-224", "sha3-256", "sha3-384", "sha3-512", "xxhash", "sha1", "pattern", "null",
};

int job_verify_by_name(const char *name)
{
	unsigned i;

	if (!strcmp(name, "none"))
		return VERIFY_NONE;
	if (!strcmp(name, "crc32c-intel"))
		return VERIFY_CRC32C;
	for (i = 0; i < VERIFY_KINDS; i++)
		if (!strcmp(name, job_verify_names[i]))
			return (int)i;
	return -EINVAL;
}

int set_verify(struct job_spec *job, const struct opt_def *o, const char *val,
		      struct iop_err *err)
{
	int v = job_verify_by_name(val);

	if (v < 0)
		return iop_errf(err, -EINVAL,
				"option %s: unknown verify type '%s' (accepted: md5 crc64 crc32 crc32c crc32c-intel crc16 crc7 xxhash sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 sha3-512 meta pattern null 0)",
				o->name, val);
	job->verify.kind = (enum job_verify)v;
	return 0;
}

/* replay_skip=read,write,trim,sync: fio's list of the I/O types a replay leaves out. */
int set_replay_skip(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	static const struct { const char *name; unsigned bits; } types[] = {
		{ "read", 1u << 0 }, { "write", 1u << 1 }, { "trim", 1u << 2 },
		{ "sync", (1u << 3) | (1u << 4) },
	};
	const char *s = val;
	unsigned i, bits = 0;

	while (*s) {
		size_t n = strcspn(s, ",");

		for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (n == strlen(types[i].name) && !strncmp(s, types[i].name, n))
				break;
		if (i == sizeof(types) / sizeof(types[0]))
			return bad_value(err, o, val, "a list of read, write, trim, sync, e.g. write,trim");
		bits |= types[i].bits;
		s += n + (s[n] == ',');
	}
	job->replay_skip = bits;
	return 0;
}

int set_mem(struct job_spec *job, const struct opt_def *o, const char *val,
		   struct iop_err *err)
{
	static const char *const refused[] = { "shm", "shmhuge", "mmaphuge", "cudamalloc" };
	size_t i, n = strcspn(val, ":");
	bool shared = n == strlen("mmapshared") && !strncmp(val, "mmapshared", n);

	job->mem_file[0] = '\0';
	job->mem_shared = false;
	if (!strcmp(val, "malloc") || !strcmp(val, "mmap") || !strcmp(val, "mmapshared")) {
		job->mem = MEM_MALLOC;	/* fio: without a file, mmapshared maps private memory too */
		return 0;
	}
	if (shared || (n == strlen("mmap") && !strncmp(val, "mmap", n))) {
		/* fio's alloc_mem_mmap: mmap:FILE private (FILE truncated), mmapshared:FILE shared */
		if (!val[n + 1] || strlen(val + n + 1) >= sizeof(job->mem_file))
			return bad_value(err, o, val, "mmap:FILE or mmapshared:FILE with a file name");
		snprintf(job->mem_file, sizeof(job->mem_file), "%s", val + n + 1);
		job->mem = MEM_MALLOC;
		job->mem_shared = shared;
		return 0;
	}
	if (!strcmp(val, "thp")) {
		job->mem = MEM_THP;
		return 0;
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strlen(refused[i]) == n && !strncmp(val, refused[i], n))
			return iop_errf(err, -EINVAL,
					"option %s: %s is not supported by iopath (accepted: thp, malloc, mmap, mmap:FILE, mmapshared, mmapshared:FILE)",
					o->name, val);
	return bad_value(err, o, val, "thp malloc mmap mmap:FILE mmapshared mmapshared:FILE");
}

int set_clocksource(struct job_spec *job, const struct opt_def *o, const char *val,
			   struct iop_err *err)
{
	if (!strcmp(val, "clock_gettime")) {
		job->clocksource = CLOCK_GETTIME;
		return 0;
	}
	if (!strcmp(val, "cpu")) {
		job->clocksource = CLOCK_CPU;
		return 0;
	}
	if (!strcmp(val, "gettimeofday")) {
		/* fio's microsecond clock: the job is stamped with clock_gettime, which is finer,
		 * and its result says so (report_json's "clocksource_given") */
		job->clocksource = CLOCK_GTOD;
		return 0;
	}
	return bad_value(err, o, val, "gettimeofday clock_gettime cpu");
}

int set_randseed(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	/* fio reads the seed as it reads sizes: "randseed=1k" is 1024 */
	if (parse_size(val, job->kb_base, &job->randseed))
		return bad_value(err, o, val, "an unsigned integer with an optional k/m/g suffix");
	job->randseed_set = true;
	return 0;
}

int set_kb_base(struct job_spec *job, const struct opt_def *o, const char *val,
		       struct iop_err *err)
{
	if (!strcmp(val, "1024"))
		job->kb_base = 1024;
	else if (!strcmp(val, "1000"))
		job->kb_base = 1000;
	else
		return bad_value(err, o, val, "1024 or 1000");
	return 0;
}

/* size=, offset=, offset_increment=: a size, or a percentage of each file (fio allows both). */
int set_size_pct(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	bool is_size = !strcmp(o->name, "size"), pct = false;
	const char *why = "";
	uint64_t v = 0;
	size_t n = strlen(val);
	int ret;

	/* fio's zone suffix: Nz is N zones (zonesize=), known once the job is read */
	if (n > 1 && (val[n - 1] == 'z' || val[n - 1] == 'Z') && strspn(val, "0123456789") == n - 1) {
		uint64_t *nz = is_size ? &job->sizes.size_nz :
			       !strcmp(o->name, "offset_increment") ? &job->sizes.offset_increment_nz :
			       !strcmp(o->name, "io_size") ? &job->sizes.io_size_nz :
			       !strcmp(o->name, "zoneskip") ? &job->zone.skip_nz : &job->sizes.offset_nz;

		*nz = strtoull(val, NULL, 10);
		if (is_size && !*nz)
			return iop_errf(err, -EINVAL, "option %s: bad size '%s': must be at least 1 zone",
					o->name, val);
		return 0;
	}
	ret = parse_size_why(val, job->kb_base, &v, &pct, &why);
	if (!ret && pct && (!strcmp(o->name, "io_size") || !strcmp(o->name, "zoneskip"))) {
		ret = -EINVAL;
		why = "a percentage does not apply";
	}

	if (!ret && is_size && !pct && !v) {
		ret = -EINVAL;
		why = "must be at least 1";
	}
	if (ret)
		return iop_errf(err, -EINVAL, "option %s: bad size '%s': %s (accepted: e.g. 1g, 512m, or 1%% to 100%% of the file)",
				o->name, val, why);
	/* a size in bytes replaces a count of zones given before (a [global] one, say) */
	if (is_size)
		job->sizes.size_nz = 0;
	else if (!strcmp(o->name, "offset_increment"))
		job->sizes.offset_increment_nz = 0;
	else if (!strcmp(o->name, "io_size"))
		job->sizes.io_size_nz = 0;
	else if (!strcmp(o->name, "zoneskip"))
		job->zone.skip_nz = 0;
	else
		job->sizes.offset_nz = 0;
	if (is_size) {
		job->sizes.size = pct ? 0 : v;
		job->sizes.size_pct = pct ? (unsigned)v : 0;
	} else if (!strcmp(o->name, "offset_increment")) {
		job->sizes.offset_increment = pct ? 0 : v;
		job->sizes.offset_increment_pct = pct ? (unsigned)v : 0;
	} else if (!strcmp(o->name, "io_size")) {
		if (!v)
			return iop_errf(err, -EINVAL, "option %s: bad size '%s': must be at least 1",
					o->name, val);
		job->sizes.io_size = v;
	} else if (!strcmp(o->name, "zoneskip")) {
		job->zone.skip = v;
	} else {
		job->sizes.offset = pct ? 0 : v;
		job->sizes.offset_pct = pct ? (unsigned)v : 0;
	}
	return 0;
}

/* startdelay=T or a range T1-T2 (or T1:T2): each worker picks a delay in the range. */
int set_startdelay(struct job_spec *job, const struct opt_def *o, const char *val,
			  struct iop_err *err)
{
	char buf[128], *sep;
	uint64_t lo, hi;
	const char *why = "";

	if (strlen(val) >= sizeof(buf))
		return bad_value(err, o, val, "a time such as 5, 500ms or a range 1-5");
	snprintf(buf, sizeof(buf), "%s", val);
	sep = buf[0] == '(' ? NULL : strpbrk(buf, "-:");
	if (sep)
		*sep = '\0';
	if (parse_time_why(buf, 1000000000ull, &lo, &why) ||
	    (sep && parse_time_why(sep + 1, 1000000000ull, &hi, &why)))
		return iop_errf(err, -EINVAL, "option %s: bad time '%s': %s (accepted: seconds, a number with d/h/m/s/ms/us, or a range such as 1-5)",
				o->name, val, why);
	if (!sep)
		hi = lo;
	/* fio swaps a range given high to low */
	job->time.startdelay_ns = lo < hi ? lo : hi;
	job->time.startdelay_max_ns = lo < hi ? hi : lo;
	return 0;
}

/*
 * gtod_reduce=1: fio's "disable_lat, disable_clat, disable_slat, disable_bw_measurement"
 * all at once (later options can turn one back on); gtod_reduce=0 leaves them alone.
 */
int set_gtod_reduce(struct job_spec *job, const struct opt_def *o, const char *val,
			   struct iop_err *err)
{
	bool b;

	if (parse_bool(val, &b))
		return bad_value(err, o, val, "0 or 1");
	if (b)
		job->disable_lat = job->disable_clat = job->disable_slat = job->disable_bw = true;
	return 0;
}

/*
 * ss=iops|iops_slope|bw|bw_slope:LIMIT[%]: fio's steady-state criterion. A limit without '%'
 * is IOPS (a number) or bandwidth (bytes, with units) per second, as fio reads it.
 */
int set_ss(struct job_spec *job, const struct opt_def *o, const char *val,
		  struct iop_err *err)
{
	static const struct {
		const char *name;
		unsigned state;
	} kinds[] = {
		{ "iops", SS_IOPS }, { "iops_slope", SS_IOPS | SS_SLOPE },
		{ "bw", 0 }, { "bw_slope", SS_SLOPE },
	};
	const char *accepted = "iops, iops_slope, bw or bw_slope, ':' and a limit, e.g. iops:10% or bw_slope:1%";
	const char *colon = strchr(val, ':');
	char num[64], *end;
	size_t i, n = colon ? (size_t)(colon - val) : strlen(val), len;
	uint64_t v;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == n && !strncmp(val, kinds[i].name, n))
			break;
	if (i == sizeof(kinds) / sizeof(kinds[0]) || !colon || !colon[1])
		return bad_value(err, o, val, accepted);
	len = strlen(colon + 1);
	if (len >= sizeof(num))
		return bad_value(err, o, val, accepted);
	memcpy(num, colon + 1, len + 1);
	job->ss_state = kinds[i].state;
	if (num[len - 1] == '%' || (kinds[i].state & SS_IOPS)) {
		if (num[len - 1] == '%') {
			num[len - 1] = '\0';
			job->ss_state |= SS_PCT;
		}
		job->ss_limit = strtod(num, &end);
		if (end == num || *end || job->ss_limit < 0)
			return bad_value(err, o, val, accepted);
		/* fio's --debug=parse lines, which its steady-state tests look for */
		if (job->ss_state & SS_PCT)
			iop_debugf(DBG_PARSE, "set steady state threshold to %f%%", job->ss_limit);
		else
			iop_debugf(DBG_PARSE, "set steady state IOPS threshold to %f", job->ss_limit);
		return 0;
	}
	if (parse_size(num, job->kb_base, &v))
		return bad_value(err, o, val, accepted);
	job->ss_limit = (double)v;
	iop_debugf(DBG_PARSE, "set steady state BW threshold to %llu", (unsigned long long)v);
	return 0;
}

int set_verify_interval(struct job_spec *job, const struct opt_def *o, const char *val,
			       struct iop_err *err)
{
	uint64_t v;

	if (parse_size(val, job->kb_base, &v) || v < VERIFY_HDR_MIN || v > (1u << 30))
		return iop_errf(err, -EINVAL, "option %s: bad size '%s' (accepted: %u bytes to 1g)",
				o->name, val, VERIFY_HDR_MIN);
	job->verify.interval = (uint32_t)v;
	return 0;
}

int set_verify_pattern(struct job_spec *job, const struct opt_def *o, const char *val,
			      struct iop_err *err)
{
	int n;

	/* fio's pattern syntax, as buffer_pattern, and the %o format: each I/O's offset */
	n = parse_pattern_fmt(o, val, job->verify.pattern, "a pattern such as 0xaa555aa5 or %o",
			      job->verify.fmt_off, &job->verify.fmt_nr, err);
	if (n < 0)
		return n;
	job->verify.pattern_len = (unsigned)n;
	return 0;
}

/*
 * A CPU set names only CPUs this machine has online (fio: "CPU N too large"). Under
 * --parse-only the set is not checked against the machine, as fio's dry run does not: a job
 * file written for a larger machine parses, and fails when it runs.
 */
static int check_cpus(struct job_spec *job, const struct opt_def *o, const char *val,
		      const uint64_t *set, struct iop_err *err)
{
	char have[256];
	uint64_t online[JOB_CPUS_MAX / 64];
	int c = job->dryrun ? -1 : iop_cpus_first_absent(set, online);

	if (c >= 0) {
		iop_cpus_format(online, have, sizeof(have));
		return iop_errf(err, -EINVAL, "option %s=%s: CPU %d is not on this machine or not online (its CPUs: %s)",
				o->name, val, c, have);
	}
	memcpy(job->cpus_allowed, set, sizeof(job->cpus_allowed));
	job->cpus_given = true;
	return 0;
}

/* cpus_allowed=LIST: fio's syntax, CPU numbers and A-B ranges separated by commas. */
int set_cpus_allowed(struct job_spec *job, const struct opt_def *o, const char *val,
			    struct iop_err *err)
{
	uint64_t set[JOB_CPUS_MAX / 64];
	const char *bad;
	int ret = iop_cpus_parse(val, set, &bad);

	if (ret == -ERANGE)
		return iop_errf(err, ret, "option %s=%s: CPU numbers go up to %d", o->name, val,
				JOB_CPUS_MAX - 1);
	if (ret)
		return iop_errf(err, ret, "option %s=%s: bad CPU list at '%s' (accepted: CPU numbers and A-B ranges separated by commas, e.g. 0-3,5)",
				o->name, val, bad);
	return check_cpus(job, o, val, set, err);
}

/*
 * cpumask=N: bit i set is CPU i, decimal or 0x hex, as fio reads it. fio looks at the low 32
 * bits only and drops the others without a word: those are refused here.
 */
int set_cpumask(struct job_spec *job, const struct opt_def *o, const char *val,
		       struct iop_err *err)
{
	uint64_t set[JOB_CPUS_MAX / 64] = { 0 };
	bool hex = val[0] == '0' && (val[1] == 'x' || val[1] == 'X');
	unsigned long long m;
	char *end;
	unsigned i;

	errno = 0;
	m = strtoull(hex ? val + 2 : val, &end, hex ? 16 : 10);
	if (!isxdigit((unsigned char)val[hex ? 2 : 0]) || *end || errno)
		return bad_value(err, o, val, "a bit mask, decimal or 0x hex, bit N for CPU N");
	if (m >> 32)
		return iop_errf(err, -EINVAL, "option %s=%s: fio's cpumask covers CPUs 0-31 only; use cpus_allowed for others",
				o->name, val);
	if (!m)
		return iop_errf(err, -EINVAL, "option %s=%s: the mask names no CPU", o->name, val);
	for (i = 0; i < 32; i++)
		if (m >> i & 1)
			cpu_add(set, i);
	return check_cpus(job, o, val, set, err);
}

int set_cpus_policy(struct job_spec *job, const struct opt_def *o, const char *val,
			   struct iop_err *err)
{
	if (!strcmp(val, "shared"))
		job->cpus_split = false;
	else if (!strcmp(val, "split"))
		job->cpus_split = true;
	else
		return bad_value(err, o, val, "shared split");
	return 0;
}

/* prio=0-7, prioclass=0-3: either asks for ioprio_set on each worker, as fio. */
int set_ioprio(struct job_spec *job, const struct opt_def *o, const char *val,
		      struct iop_err *err)
{
	bool cls = !strcmp(o->name, "prioclass");
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(val, &end, 10);
	if (!isdigit((unsigned char)*val) || *end || errno || v > (cls ? 3 : 7))
		return bad_value(err, o, val, cls ? "0-3 (1 realtime, 2 best-effort, 3 idle; 0: best-effort)" : "0-7 (0 highest)");
	if (cls)
		job->ioprio_class = (unsigned)v;
	else
		job->ioprio = (unsigned)v;
	job->ioprio_given = true;
	return 0;
}

/* nice=-20..19, fio's range. */
int set_nice(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 10);
	if (!*val || *end || errno || v < -20 || v > 19)
		return bad_value(err, o, val, "-20 to 19");
	job->nice = (int)v;
	return 0;
}

/* numa_cpu_nodes=LIST: checked against this machine's nodes now, as fio does. */
int set_numa_cpu_nodes(struct job_spec *job, const struct opt_def *o, const char *val,
			      struct iop_err *err)
{
	char why[200];

	if (strlen(val) >= sizeof(job->numa_cpu_nodes))
		return bad_value(err, o, val, "a node list, e.g. 0, 0-1 or all");
	if (numa_check_nodes(val, why, sizeof(why)))
		return iop_errf(err, -ENODEV, "option %s: %s", o->name, why);
	snprintf(job->numa_cpu_nodes, sizeof(job->numa_cpu_nodes), "%s", val);
	return 0;
}

/*
 * numa_mem_policy=MODE[:LIST]: default and local take no list, prefer exactly one node, bind
 * and interleave a list (fio's rules and checks).
 */
int set_numa_mem_policy(struct job_spec *job, const struct opt_def *o, const char *val,
			       struct iop_err *err)
{
	static const struct {
		const char *name;
		enum numa_mode mode;
	} modes[] = {
		{ "default", NUMA_MEM_DEFAULT }, { "prefer", NUMA_MEM_PREFER },
		{ "bind", NUMA_MEM_BIND }, { "interleave", NUMA_MEM_INTERLEAVE },
		{ "local", NUMA_MEM_LOCAL },
	};
	const char *colon = strchr(val, ':'), *list = colon ? colon + 1 : NULL;
	size_t i, n = colon ? (size_t)(colon - val) : strlen(val);
	char why[200];

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strlen(modes[i].name) == n && !strncmp(val, modes[i].name, n))
			break;
	if (i == sizeof(modes) / sizeof(modes[0]))
		return bad_value(err, o, val, "default, prefer:NODE, bind:LIST, interleave:LIST, local");
	if ((modes[i].mode == NUMA_MEM_DEFAULT || modes[i].mode == NUMA_MEM_LOCAL) && list)
		return iop_errf(err, -EINVAL, "option %s: '%s': %s takes no node list", o->name, val,
				modes[i].name);
	if (modes[i].mode != NUMA_MEM_DEFAULT && modes[i].mode != NUMA_MEM_LOCAL) {
		if (!list || !*list)
			return iop_errf(err, -EINVAL, "option %s: '%s': %s needs a node list", o->name,
					val, modes[i].name);
		if (strlen(list) >= sizeof(job->numa_mem_nodes))
			return bad_value(err, o, val, "a node list, e.g. bind:0-1");
		if (numa_check_nodes(list, why, sizeof(why)))
			return iop_errf(err, -ENODEV, "option %s: %s", o->name, why);
		if (modes[i].mode == NUMA_MEM_PREFER && numa_nodes_in(list) != 1)
			return iop_errf(err, -EINVAL, "option %s: '%s': prefer takes one node only",
					o->name, val);
	}
	job->numa_mem_mode = modes[i].mode;
	snprintf(job->numa_mem_nodes, sizeof(job->numa_mem_nodes), "%s", list ? list : "");
	return 0;
}

int set_latency_percentile(struct job_spec *job, const struct opt_def *o,
				  const char *val, struct iop_err *err)
{
	char *end;
	double v = strtod(val, &end);

	if (end == val || *end || v < 0 || v > 100)
		return bad_value(err, o, val, "a percentage 0-100, e.g. 99.9");
	job->lat_target.percentile = v;
	return 0;
}

/* zonemode=none|strided|zbd (zbd: zones emulated in memory, core/io/zbd.h). */
int set_zonemode(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	if (!strcmp(val, "none") || !strcmp(val, "strided") || !strcmp(val, "zbd")) {
		job->zone.strided = !strcmp(val, "strided");
		job->zone.zbd = !strcmp(val, "zbd");
		return 0;
	}
	return bad_value(err, o, val, "none strided zbd");
}

/* zone_reset_threshold / zone_reset_frequency: a fraction, 0..1 (fio's float options). */
int set_zone_frac(struct job_spec *job, const struct opt_def *o, const char *val,
			 struct iop_err *err)
{
	double *dst = !strcmp(o->name, "zone_reset_threshold") ? &job->zone.reset_threshold :
		      &job->zone.reset_frequency;
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (errno || end == val || *end || !(v >= 0.0 && v <= 1.0))
		return bad_value(err, o, val, "a fraction from 0 to 1, e.g. 0.5");
	*dst = v;
	return 0;
}

