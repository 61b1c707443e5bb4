/* The job option table: fio's option names, their parsers and their validation. */
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
#include "job/fio_unsupported.h"
#include "job/options.h"
#include "base/numapol.h"
#include "base/parse.h"
#include "job/job.h"

#define VERIFY_HDR_MIN 64u	/* verify_interval: room for a header and some data */
#define FIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)

static int bad_value(struct iop_err *err, const struct opt_def *o, const char *val,
		     const char *accepted)
{
	return iop_errf(err, -EINVAL, "option %s: bad value '%s' (accepted: %s)", o->name,
			val ? val : "", accepted);
}

/*
 * rw=MODE:N, fio's sequence modifier. Sequential modes: N bytes (units, negative for
 * backwards) are added to the offset after each I/O. Random modes: N I/Os per random offset,
 * the others following on as rw_sequencer says. fio 3.33 reads the random form with atoi, so
 * "randread:2k" is 2 to it and 0 or a negative number silently makes the job sequential:
 * those are refused, as are fractions.
 */
static int set_rw_postfix(struct job_spec *job, const struct opt_def *o, const char *val,
			  const char *nr, struct iop_err *err)
{
	bool neg = *nr == '-';
	const char *why = NULL;
	uint64_t v;

	if (job_rw_random(job->rw)) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(nr, &end, 10);
		if (!isdigit((unsigned char)*nr) || *end || errno || !n || n > UINT_MAX)
			return iop_errf(err, -EINVAL,
					"option %s: '%s': after ':' a random mode takes the number of I/Os per random offset, a whole number from 1 (fio reads '%s' as %lld)",
					o->name, val, nr, (long long)atoi(nr));
		job->seq_nr = (unsigned)n;
		return 0;
	}
	if (job->rw != RW_READ && job->rw != RW_WRITE && job->rw != RW_RW)
		return iop_errf(err, -EINVAL, "option %s: '%s': the ':N' modifier needs a read/write mode",
				o->name, val);
	if (parse_size_why(nr + neg, job->kb_base, &v, NULL, &why) || v > INT64_MAX)
		return iop_errf(err, -EINVAL,
				"option %s: '%s': bad offset step '%s'%s%s (accepted: bytes with an optional k/m/g suffix, negative to go backwards, e.g. read:-8k)",
				o->name, val, nr, why ? ": " : "", why ? why : "");
	job->seq_add = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

#define RW_MODES "read write randread randwrite rw readwrite randrw trim randtrim trimwrite randtrimwrite copy metadata"

static int set_rw(struct job_spec *job, const struct opt_def *o, const char *val,
		  struct iop_err *err)
{
	static const struct {
		const char *name;
		enum job_rw rw;
	} modes[] = {
		{ "read", RW_READ }, { "write", RW_WRITE },
		{ "randread", RW_RANDREAD }, { "randwrite", RW_RANDWRITE },
		{ "rw", RW_RW }, { "readwrite", RW_RW }, { "randrw", RW_RANDRW },
		{ "copy", RW_COPY }, { "metadata", RW_METADATA },
		{ "trim", RW_TRIM }, { "randtrim", RW_RANDTRIM }, { "trimwrite", RW_TRIMWRITE },
		{ "randtrimwrite", RW_RANDTRIMWRITE },
	};
	char mode[32];
	const char *colon = strchr(val, ':');
	size_t i, n = colon ? (size_t)(colon - val) : strlen(val);

	if (n >= sizeof(mode))
		return bad_value(err, o, val, RW_MODES);
	memcpy(mode, val, n);
	mode[n] = '\0';
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(mode, modes[i].name)) {
			job->rw = modes[i].rw;
			job->seq_add = 0;
			job->seq_nr = 1;
			return colon ? set_rw_postfix(job, o, val, colon + 1, err) : 0;
		}
	}
	return bad_value(err, o, val, RW_MODES);
}

static int set_rwmix(struct job_spec *job, const struct opt_def *o, const char *val,
		     struct iop_err *err)
{
	uint64_t v;

	if (parse_u64(val, &v) || v > 100)
		return bad_value(err, o, val, "a percentage 0-100");
	job->rwmixread = !strcmp(o->name, "rwmixread") ? (unsigned)v : 100 - (unsigned)v;
	return 0;
}

/*
 * fio's per-direction lists (bs, bsrange, bssplit, ba, rate...): a value without a comma
 * applies to every direction; "r,w[,t]" gives reads then writes, and an empty part leaves
 * that direction alone. part[d] is NULL when direction d is left alone.
 */
#define DIR_PART_MAX 1024

static int dir_parts(const char *val, char buf[2][DIR_PART_MAX], const char *part[2])
{
	const char *comma = strchr(val, ','), *second;
	size_t n;

	part[0] = part[1] = NULL;
	if (!comma) {
		if (strlen(val) >= DIR_PART_MAX)
			return -EINVAL;
		strcpy(buf[0], val);
		part[0] = part[1] = buf[0];
		return *val ? 0 : -EINVAL;
	}
	n = (size_t)(comma - val);
	if (n >= DIR_PART_MAX)
		return -EINVAL;
	memcpy(buf[0], val, n);
	buf[0][n] = '\0';
	second = strchr(comma + 1, ',');
	n = second ? (size_t)(second - comma - 1) : strlen(comma + 1);
	if (n >= DIR_PART_MAX)
		return -EINVAL;
	memcpy(buf[1], comma + 1, n);
	buf[1][n] = '\0';
	part[0] = buf[0][0] ? buf[0] : NULL;
	part[1] = buf[1][0] ? buf[1] : NULL;
	return 0;
}

static int parse_bs_value(const struct job_spec *job, const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_size(s, job->kb_base, &v) || v == 0 || v > (1u << 30))
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* bs=4k or bs=4k,64k (read, write[, trim]); an empty part keeps that direction's value. */
static int set_bs(struct job_spec *job, const struct opt_def *o, const char *val,
		  struct iop_err *err)
{
	char buf[2][DIR_PART_MAX];
	const char *part[2];
	uint32_t v[2] = { job->bs[0], job->bs[1] }, trim = 0;
	const char *third;
	unsigned d;

	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, "a size such as 4k, or read,write sizes such as 4k,64k");
	for (d = 0; d < 2; d++)
		if (part[d] && parse_bs_value(job, part[d], &v[d]))
			return iop_errf(err, -EINVAL,
					"option %s: bad size '%s' (accepted: 1 byte to 1g, e.g. 4k or 4k,64k)",
					o->name, part[d]);
	/* the trim size: the third part, else the write size (fio's rule) */
	third = strchr(val, ',');
	third = third ? strchr(third + 1, ',') : NULL;
	if (third && third[1] && parse_bs_value(job, third + 1, &trim))
		return iop_errf(err, -EINVAL,
				"option %s: bad trim size '%s' (accepted: 1 byte to 1g, e.g. 4k,4k,64k)",
				o->name, third + 1);
	job->bs_trim = third && third[1] ? trim : 0;
	job->bs[0] = v[0];
	job->bs[1] = v[1];
	return 0;
}

/* "low-high" or "low:high" (fio's irange); a single value is both ends. */
static int parse_range(const struct job_spec *job, const char *s, uint64_t max, uint64_t out[2])
{
	char lo[128];
	const char *sep = strpbrk(s, "-:");
	uint64_t a, b;

	if (!sep) {
		if (parse_size(s, job->kb_base, &a) || !a || a > max)
			return -EINVAL;
		out[0] = out[1] = a;
		return 0;
	}
	if ((size_t)(sep - s) >= sizeof(lo))
		return -EINVAL;
	memcpy(lo, s, (size_t)(sep - s));
	lo[sep - s] = '\0';
	if (parse_size(lo, job->kb_base, &a) || parse_size(sep + 1, job->kb_base, &b) || !a || !b ||
	    a > max || b > max)
		return -EINVAL;
	out[0] = a < b ? a : b;
	out[1] = a < b ? b : a;
	return 0;
}

static int set_bsrange(struct job_spec *job, const struct opt_def *o, const char *val,
		       struct iop_err *err)
{
	char buf[2][DIR_PART_MAX];
	const char *part[2];
	uint64_t r[2];
	unsigned d;

	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, "low-high block sizes, e.g. 4k-64k or 4k:64k,8k-32k");
	for (d = 0; d < 2; d++) {
		if (!part[d])
			continue;
		if (parse_range(job, part[d], 1u << 30, r))
			return iop_errf(err, -EINVAL,
					"option %s: bad range '%s' (accepted: low-high or low:high sizes up to 1g, e.g. 4k-64k)",
					o->name, part[d]);
		job->bsrange[d][0] = (uint32_t)r[0];
		job->bsrange[d][1] = (uint32_t)r[1];
	}
	return 0;
}

/* One direction of bssplit: "bs/perc:bs/perc...", blanks sharing what is left. */
static int parse_bssplit(const struct job_spec *job, const char *s, struct bs_split *out,
			 unsigned *nr_out, char *why, size_t why_len)
{
	char buf[DIR_PART_MAX], *save = NULL, *tok;
	unsigned nr = 0, missing = 0, sum = 0, i, j;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t perc = 0;

		if (nr == BSSPLIT_MAX) {
			snprintf(why, why_len, "more than %u block sizes", BSSPLIT_MAX);
			return -EINVAL;
		}
		if (slash) {
			*slash = '\0';
			if (slash[1] && (parse_u64(slash + 1, &perc) || perc > 100)) {
				snprintf(why, why_len, "bad percentage '%s'", slash + 1);
				return -EINVAL;
			}
		}
		if (parse_bs_value(job, tok, &out[nr].bs)) {
			snprintf(why, why_len, "bad block size '%s'", tok);
			return -EINVAL;
		}
		out[nr].perc = perc ? (uint32_t)perc : UINT32_MAX;
		if (perc)
			sum += (unsigned)perc;
		else
			missing++;
		nr++;
	}
	if (!nr) {
		snprintf(why, why_len, "no block size given");
		return -EINVAL;
	}
	if (sum > 100) {
		snprintf(why, why_len, "percentages add up to %u, more than 100", sum);
		return -EINVAL;
	}
	for (i = 0; i < nr; i++)
		if (out[i].perc == UINT32_MAX)
			out[i].perc = (100 - sum) / missing;
	/* largest share first (stable), the order fio draws them in */
	for (i = 1; i < nr; i++) {
		struct bs_split t = out[i];

		for (j = i; j > 0 && out[j - 1].perc < t.perc; j--)
			out[j] = out[j - 1];
		out[j] = t;
	}
	*nr_out = nr;
	return 0;
}

static int set_bssplit(struct job_spec *job, const struct opt_def *o, const char *val,
		       struct iop_err *err)
{
	char buf[2][DIR_PART_MAX], why[96];
	const char *part[2];
	unsigned d;

	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, "bs/percent:bs/percent..., e.g. 4k/10:64k/50:32k/40");
	for (d = 0; d < 2; d++) {
		if (part[d] && parse_bssplit(job, part[d], job->bssplit[d], &job->nr_bssplit[d], why,
					     sizeof(why)))
			return iop_errf(err, -EINVAL,
					"option %s: '%s': %s (accepted: bs/percent:bs/percent..., e.g. 4k/10:64k/50:32k/40, ',' between read and write)",
					o->name, part[d], why);
	}
	return 0;
}

static int set_ba(struct job_spec *job, const struct opt_def *o, const char *val,
		  struct iop_err *err)
{
	char buf[2][DIR_PART_MAX];
	const char *part[2];
	unsigned d;

	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, "a size such as 4k, or read,write sizes");
	for (d = 0; d < 2; d++)
		if (part[d] && parse_bs_value(job, part[d], &job->ba[d]))
			return iop_errf(err, -EINVAL, "option %s: bad size '%s' (accepted: 1 byte to 1g)",
					o->name, part[d]);
	return 0;
}

static int set_filesize(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	uint64_t v;

	/* one size (0 too: rw=metadata files without data), or a range for data jobs */
	if (!parse_size(val, job->kb_base, &v)) {
		job->filesize = v;
		job->filesize_range[0] = job->filesize_range[1] = v;
		return 0;
	}
	if (parse_range(job, val, UINT64_MAX, job->filesize_range))
		return bad_value(err, o, val, "a size, or a low-high range such as 1m-4m");
	job->filesize = job->filesize_range[0];
	return 0;
}

static int set_file_service(struct job_spec *job, const struct opt_def *o, const char *val,
			    struct iop_err *err)
{
	static const struct {
		const char *name;
		enum file_service type;
		double def;
	} types[] = {
		{ "roundrobin", FSVC_ROUNDROBIN, 0 }, { "sequential", FSVC_SEQUENTIAL, 0 },
		{ "random", FSVC_RANDOM, 0 }, { "zipf", FSVC_ZIPF, DIST_DEF_ZIPF },
		{ "pareto", FSVC_PARETO, DIST_DEF_PARETO }, { "normal", FSVC_NORMAL, 0 },
		{ "gauss", FSVC_NORMAL, 0 },
	};
	static const enum rand_dist dists[] = {
		[FSVC_ZIPF] = DIST_ZIPF, [FSVC_PARETO] = DIST_PARETO, [FSVC_NORMAL] = DIST_NORMAL,
	};
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val), i;
	char *end;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].name) == n && !strncmp(val, types[i].name, n))
			break;
	if (i == sizeof(types) / sizeof(types[0]))
		return bad_value(err, o, val,
				 "random, roundrobin, sequential (each with an optional :N I/Os per file), zipf[:theta], pareto[:h], normal[:deviation], gauss");
	job->file_service = types[i].type;
	job->file_service_nr = 1;
	job->file_service_arg = types[i].def;
	if (!colon)
		return 0;
	if (types[i].type <= FSVC_RANDOM) {
		uint64_t v;

		if (parse_u64(colon + 1, &v) || v == 0 || v > UINT32_MAX)
			return iop_errf(err, -EINVAL, "option %s: bad count '%s' in '%s' (accepted: I/Os per file, at least 1)",
					o->name, colon + 1, val);
		job->file_service_nr = (unsigned)v;
		return 0;
	}
	job->file_service_arg = strtod(colon + 1, &end);
	if (end == colon + 1 || *end || !dist_arg_valid(dists[types[i].type], job->file_service_arg))
		return iop_errf(err, -EINVAL,
				"option %s: bad value '%s' in '%s' (accepted: zipf theta > 0 and != 1, pareto 0 < h < 1, normal deviation 0 <= d < 100)",
				o->name, colon + 1, val);
	return 0;
}

/* One direction of zoned / zoned_abs: "access/size:access/size...", blanks share the rest. */
static int parse_zones(const struct job_spec *job, const char *s, bool absolute,
		       struct zone_split *out, unsigned *nr_out, char *why, size_t why_len)
{
	char buf[DIR_PART_MAX], *save = NULL, *tok;
	unsigned nr = 0, acc = 0, acc_missing = 0, sz = 0, sz_missing = 0, i;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t a = 0, b = 0;

		if (nr == ZONES_MAX) {
			snprintf(why, why_len, "more than %u zones", ZONES_MAX);
			return -EINVAL;
		}
		if (slash)
			*slash = '\0';
		if (*tok && (parse_u64(tok, &a) || a > 100)) {
			snprintf(why, why_len, "bad access percentage '%s'", tok);
			return -EINVAL;
		}
		if (slash && slash[1] &&
		    (absolute ? parse_size(slash + 1, job->kb_base, &b) || !b :
				parse_u64(slash + 1, &b) || b > 100)) {
			snprintf(why, why_len, "bad zone size '%s'", slash + 1);
			return -EINVAL;
		}
		if (absolute && !b) {
			snprintf(why, why_len, "zoned_abs needs a size for every zone");
			return -EINVAL;
		}
		out[nr].access = (uint8_t)a;
		out[nr].size = b;
		out[nr].size_perc = absolute ? 0 : (uint8_t)b;
		if (a)
			acc += (unsigned)a;
		else
			acc_missing++;
		if (!absolute && b)
			sz += (unsigned)b;
		else if (!absolute)
			sz_missing++;
		nr++;
	}
	if (acc > 100 || sz > 100) {
		snprintf(why, why_len, "percentages add up to more than 100");
		return -EINVAL;
	}
	for (i = 0; i < nr; i++) {
		if (!out[i].access && acc_missing)
			out[i].access = (uint8_t)((100 - acc) / acc_missing);
		if (!absolute && !out[i].size_perc && sz_missing)
			out[i].size_perc = (uint8_t)((100 - sz) / sz_missing);
	}
	for (acc = 0, i = 0; i < nr; i++)
		acc += out[i].access;
	if (acc != 100) {
		snprintf(why, why_len, "access percentages add up to %u, not 100", acc);
		return -EINVAL;
	}
	*nr_out = nr;
	return 0;
}

/* random_distribution=random | zipf[:theta[:center]] | pareto[:h[:center]] |
 * normal[:dev[:center]] | zoned:a/s:... | zoned_abs:a/size:... (per direction) */
static int set_random_distribution(struct job_spec *job, const struct opt_def *o,
				   const char *val, struct iop_err *err)
{
	static const struct {
		const char *name;
		enum rand_dist dist;
		double def;
	} dists[] = {
		{ "random", DIST_RANDOM, 0 }, { "zipf", DIST_ZIPF, DIST_DEF_ZIPF },
		{ "pareto", DIST_PARETO, DIST_DEF_PARETO }, { "normal", DIST_NORMAL, 0 },
		{ "gauss", DIST_NORMAL, 0 }, { "zoned", DIST_ZONED, 0 },
		{ "zoned_abs", DIST_ZONED_ABS, 0 },
	};
	const char *colon = strchr(val, ':'), *rest;
	size_t n = colon ? (size_t)(colon - val) : strlen(val), i;
	char buf[2][DIR_PART_MAX], why[96], *end;
	const char *part[2];
	unsigned d;

	for (i = 0; i < sizeof(dists) / sizeof(dists[0]); i++)
		if (strlen(dists[i].name) == n && !strncmp(val, dists[i].name, n))
			break;
	if (i == sizeof(dists) / sizeof(dists[0]))
		return bad_value(err, o, val,
				 "random, zipf[:theta[:center]], pareto[:h[:center]], normal[:deviation[:center]], zoned:access/percent:..., zoned_abs:access/size:...");
	job->random_distribution = dists[i].dist;
	job->dist_arg = dists[i].def;
	job->dist_center = -1.0;
	job->nr_zones[0] = job->nr_zones[1] = 0;
	rest = colon ? colon + 1 : "";
	if (dists[i].dist == DIST_RANDOM)
		return *rest ? bad_value(err, o, val, "random takes no value") : 0;
	if (dists[i].dist == DIST_ZONED || dists[i].dist == DIST_ZONED_ABS) {
		bool absolute = dists[i].dist == DIST_ZONED_ABS;

		if (!*rest || dir_parts(rest, buf, part))
			return bad_value(err, o, val, absolute ? "zoned_abs:60/20g:30/100g:10/500g" :
					 "zoned:60/10:30/20:8/30:2/40");
		for (d = 0; d < 2; d++)
			if (part[d] && parse_zones(job, part[d], absolute, job->zones[d],
						   &job->nr_zones[d], why, sizeof(why)))
				return iop_errf(err, -EINVAL,
						"option %s: '%s': %s (accepted: %s)", o->name, part[d],
						why, absolute ? "access/size:..., e.g. zoned_abs:60/20g:40/100g" :
						"access/percent:..., e.g. zoned:60/10:30/20:10/70");
		return 0;
	}
	if (*rest) {
		job->dist_arg = strtod(rest, &end);
		if (end == rest || (*end && *end != ':'))
			return bad_value(err, o, val, "a number after the distribution, e.g. zipf:1.2");
		if (*end == ':') {
			job->dist_center = strtod(end + 1, &end);
			if (*end || job->dist_center < 0.0 || job->dist_center > 1.0)
				return bad_value(err, o, val, "a center between 0 and 1, e.g. zipf:1.2:0.25");
		}
	}
	if (!dist_arg_valid(dists[i].dist, job->dist_arg))
		return iop_errf(err, -EINVAL,
				"option %s: bad value %g for %s (accepted: zipf theta > 0 and != 1, pareto 0 < h < 1, normal deviation 0 <= d < 100)",
				o->name, job->dist_arg, dists[i].name);
	return 0;
}

/* One token of fio's pattern syntax; returns the bytes written or -EINVAL. */
static int pattern_token(const char **in, unsigned char *out, size_t room)
{
	const char *s = *in, *end;
	size_t n = 0;

	if (*s == '"' || *s == '\'') {
		end = strchr(s + 1, *s);
		if (!end)
			return -EINVAL;
		if (*s == '"') {
			n = (size_t)(end - s - 1);
			if (n > room || !n)
				return -EINVAL;
			memcpy(out, s + 1, n);
		} else {
			char path[PATH_MAX];
			FILE *f;

			if ((size_t)(end - s - 1) >= sizeof(path))
				return -EINVAL;
			snprintf(path, sizeof(path), "%.*s", (int)(end - s - 1), s + 1);
			f = fopen(path, "rb");
			if (!f)
				return -ENOENT;
			n = fread(out, 1, room, f);
			fclose(f);
			if (!n)
				return -EINVAL;
		}
		*in = end + 1;
		return (int)n;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		size_t digits = 0;

		s += 2;
		while (isxdigit((unsigned char)s[digits]) &&
		       !(s[digits] == '0' && (s[digits + 1] == 'x' || s[digits + 1] == 'X') &&
			 digits))
			digits++;
		if (!digits || (digits + 1) / 2 > room)
			return -EINVAL;
		/* an odd count: the first byte takes one digit, as fio reads it */
		for (end = s; end < s + digits; n++) {
			unsigned v = 0, k = (n == 0 && digits % 2) ? 1 : 2;

			while (k--)
				v = v * 16 + (unsigned)(isdigit((unsigned char)*end) ? *end - '0' :
						       (tolower((unsigned char)*end) - 'a' + 10)), end++;
			out[n] = (unsigned char)v;
		}
		*in = end;
		return (int)n;
	}
	{
		char *e;
		long v = strtol(s, &e, 10);
		unsigned u;

		if (e == s || v > INT_MAX || v < INT_MIN)
			return -EINVAL;
		/* a decimal: its 32-bit value, little-endian, in as few bytes as it needs */
		u = (unsigned)v;
		do {
			if (n == room)
				return -EINVAL;
			out[n++] = u & 0xff;
			u >>= 8;
		} while (u);
		*in = e;
		return (int)n;
	}
}

static int set_buffer_pattern(struct job_spec *job, const struct opt_def *o, const char *val,
			      struct iop_err *err)
{
	const char *s = val;
	size_t len = 0;
	int n;

	while (*s) {
		n = pattern_token(&s, job->buffer_pattern + len, PATTERN_MAX - len);
		if (n < 0)
			return iop_errf(err, -EINVAL,
					"option %s: cannot read '%s' at '%s' (accepted: 0x hex bytes, \"strings\", 'files', decimal numbers, combined, at most %u bytes)",
					o->name, val, s, PATTERN_MAX);
		len += (size_t)n;
	}
	if (!len)
		return bad_value(err, o, val, "a pattern such as 0xdeadbeef or \"abcd\"");
	job->buffer_pattern_len = (unsigned)len;
	return 0;
}

/* rate=, rate_min= (bytes/s), rate_iops=, rate_iops_min= (I/Os per second), per direction. */
static int set_rate(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	char buf[2][DIR_PART_MAX];
	const char *part[2];
	bool iops = strstr(o->name, "iops") != NULL;
	uint64_t *field = (uint64_t *)((char *)job + o->off), v;
	unsigned d;

	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, iops ? "I/Os per second, or read,write values such as 500,100" :
				 "bytes per second such as 10m, or read,write values such as 1m,500k");
	for (d = 0; d < 2; d++) {
		if (!part[d])
			continue;
		if (iops ? parse_u64(part[d], &v) : parse_size(part[d], job->kb_base, &v))
			return iop_errf(err, -EINVAL, "option %s: bad value '%s' (accepted: %s)",
					o->name, part[d], iops ? "a whole number of I/Os per second" :
					"bytes per second with an optional k/m/g suffix");
		field[d] = v;
	}
	return 0;
}

/* thinktime, thinktime_spin: fio reads a bare number as microseconds. */
static int set_usec_time(struct job_spec *job, const struct opt_def *o, const char *val,
			 struct iop_err *err)
{
	if (parse_time_ns(val, 1000ull, (uint64_t *)((char *)job + o->off)))
		return iop_errf(err, -EINVAL,
				"option %s: bad time '%s' (accepted: microseconds, or a number with s/ms/us)",
				o->name, val);
	return 0;
}

static int set_thinktime_blocks_type(struct job_spec *job, const struct opt_def *o,
				     const char *val, struct iop_err *err)
{
	if (!strcmp(val, "complete"))
		job->thinktime_issue = false;
	else if (!strcmp(val, "issue"))
		job->thinktime_issue = true;
	else
		return bad_value(err, o, val, "complete, issue");
	return 0;
}

/* percentile_list=99:99.9:... (fio's float_list: at most 20, each in (0, 100]), sorted. */
static int set_percentile_list(struct job_spec *job, const struct opt_def *o, const char *val,
			       struct iop_err *err)
{
	const unsigned max = sizeof(job->percentiles) / sizeof(job->percentiles[0]);
	const char *p = val;
	unsigned n = 0, i, j;
	char *end;

	while (*p) {
		double v = strtod(p, &end);

		if (end == p || (*end && *end != ':') || !(v > 0.0 && v <= 100.0) || n == max)
			return iop_errf(err, -EINVAL,
					"option %s: bad list '%s' (accepted: up to %u percentiles in (0, 100] separated by ':', e.g. 50:99:99.9)",
					o->name, val, max);
		job->percentiles[n++] = v;
		p = *end ? end + 1 : end;
	}
	if (!n)
		return bad_value(err, o, val, "percentiles separated by ':', e.g. 50:99:99.9");
	for (i = 1; i < n; i++) {
		double t = job->percentiles[i];

		for (j = i; j > 0 && job->percentiles[j - 1] > t; j--)
			job->percentiles[j] = job->percentiles[j - 1];
		job->percentiles[j] = t;
	}
	job->nr_percentiles = n;
	return 0;
}

/* write_bw_log / write_iops_log / write_lat_log[=name]: bare, the job's name is used. */
static int set_log_name(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	char *field = (char *)job + o->off;

	if (val && strlen(val) >= o->size)
		return iop_errf(err, -ENAMETOOLONG, "option %s: name longer than %zu bytes", o->name,
				o->size - 1);
	snprintf(field, o->size, "%s", val ? val : "");
	if (!strcmp(o->name, "write_bw_log"))
		job->bw_log_set = true;
	else if (!strcmp(o->name, "write_iops_log"))
		job->iops_log_set = true;
	else
		job->lat_log_set = true;
	return 0;
}

static int set_fallocate(struct job_spec *job, const struct opt_def *o, const char *val,
			 struct iop_err *err)
{
	static const struct {
		const char *name;
		enum fallocate_mode mode;
	} modes[] = {
		{ "none", FALLOC_NONE }, { "0", FALLOC_NONE }, { "native", FALLOC_NATIVE },
		{ "posix", FALLOC_POSIX }, { "1", FALLOC_POSIX }, { "keep", FALLOC_KEEP },
		{ "truncate", FALLOC_TRUNCATE },
	};
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(val, modes[i].name)) {
			job->fallocate = modes[i].mode;
			return 0;
		}
	}
	return bad_value(err, o, val, "none, native, posix, keep, truncate, 0, 1");
}

void engine_names(char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; engine_table[i].name && off + 1 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "",
					engine_table[i].name);
}

static int set_engine(struct job_spec *job, const struct opt_def *o, const char *val,
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

static int set_direct(struct job_spec *job, const struct opt_def *o, const char *val,
		      struct iop_err *err)
{
	bool b;

	if (parse_bool(val, &b))
		return bad_value(err, o, val, "0 or 1");
	job->direct = !strcmp(o->name, "buffered") ? !b : b;
	return 0;
}

/* sync=none|0|sync|1|dsync: fio 3.33's open flags (O_SYNC, O_DSYNC) for the job's files. */
static int set_sync(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_continue_on_error(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_ignore_error(struct job_spec *job, const struct opt_def *o, const char *val,
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

static int set_verify(struct job_spec *job, const struct opt_def *o, const char *val,
		      struct iop_err *err)
{
	if (!strcmp(val, "0") || !strcmp(val, "none")) {
		job->verify = VERIFY_NONE;
		return 0;
	}
	if (!strcmp(val, "crc32c") || !strcmp(val, "crc32c-intel")) {
		job->verify = VERIFY_CRC32C;
		return 0;
	}
	if (!strcmp(val, "meta")) {
		job->verify = VERIFY_META;
		return 0;
	}
	return iop_errf(err, -EINVAL,
			"option %s: verify=%s is not supported by iopath (accepted: crc32c, meta, 0)",
			o->name, val);
}

static int set_mem(struct job_spec *job, const struct opt_def *o, const char *val,
		   struct iop_err *err)
{
	static const char *const refused[] = { "shm", "shmhuge", "mmaphuge", "mmapshared",
					       "cudamalloc" };
	size_t i, n = strcspn(val, ":");

	if (!strcmp(val, "malloc") || !strcmp(val, "mmap")) {
		job->mem = MEM_MALLOC;
		return 0;
	}
	if (!strcmp(val, "thp")) {
		job->mem = MEM_THP;
		return 0;
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strlen(refused[i]) == n && !strncmp(val, refused[i], n))
			return iop_errf(err, -EINVAL,
					"option %s: %s is not supported by iopath (accepted: thp, malloc, mmap)",
					o->name, val);
	return bad_value(err, o, val, "thp malloc mmap");
}

static int set_clocksource(struct job_spec *job, const struct opt_def *o, const char *val,
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
	if (!strcmp(val, "gettimeofday"))
		return iop_errf(err, -EINVAL,
				"option %s: gettimeofday is not supported by iopath (microsecond stamps; accepted: clock_gettime, cpu)",
				o->name);
	return bad_value(err, o, val, "clock_gettime cpu");
}

static int set_randseed(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	if (parse_u64(val, &job->randseed))
		return bad_value(err, o, val, "an unsigned integer");
	job->randseed_set = true;
	return 0;
}

static int set_kb_base(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_size_pct(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	bool is_size = !strcmp(o->name, "size"), pct = false;
	const char *why = "";
	uint64_t v = 0;

	int ret = parse_size_why(val, job->kb_base, &v, &pct, &why);

	if (!ret && is_size && !pct && !v) {
		ret = -EINVAL;
		why = "must be at least 1";
	}
	if (ret)
		return iop_errf(err, -EINVAL, "option %s: bad size '%s': %s (accepted: e.g. 1g, 512m, or 1%% to 100%% of the file)",
				o->name, val, why);
	if (is_size) {
		job->size = pct ? 0 : v;
		job->size_pct = pct ? (unsigned)v : 0;
	} else if (!strcmp(o->name, "offset_increment")) {
		job->offset_increment = pct ? 0 : v;
		job->offset_increment_pct = pct ? (unsigned)v : 0;
	} else {
		job->offset = pct ? 0 : v;
		job->offset_pct = pct ? (unsigned)v : 0;
	}
	return 0;
}

/* startdelay=T or a range T1-T2 (or T1:T2): each worker picks a delay in the range. */
static int set_startdelay(struct job_spec *job, const struct opt_def *o, const char *val,
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
	job->startdelay_ns = lo < hi ? lo : hi;
	job->startdelay_max_ns = lo < hi ? hi : lo;
	return 0;
}

/*
 * gtod_reduce=1: fio's "disable_lat, disable_clat, disable_slat, disable_bw_measurement"
 * all at once (later options can turn one back on); gtod_reduce=0 leaves them alone.
 */
static int set_gtod_reduce(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_ss(struct job_spec *job, const struct opt_def *o, const char *val,
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
		return 0;
	}
	if (parse_size(num, job->kb_base, &v))
		return bad_value(err, o, val, accepted);
	job->ss_limit = (double)v;
	return 0;
}

/* verify_pattern: fio's pattern syntax, as buffer_pattern; the "%o" offset format is not read. */
static int set_verify_interval(struct job_spec *job, const struct opt_def *o, const char *val,
			       struct iop_err *err)
{
	uint64_t v;

	if (parse_size(val, job->kb_base, &v) || v < VERIFY_HDR_MIN || v > (1u << 30))
		return iop_errf(err, -EINVAL, "option %s: bad size '%s' (accepted: %u bytes to 1g)",
				o->name, val, VERIFY_HDR_MIN);
	job->verify_interval = (uint32_t)v;
	return 0;
}

static int set_verify_pattern(struct job_spec *job, const struct opt_def *o, const char *val,
			      struct iop_err *err)
{
	const char *s = val;
	size_t len = 0;
	int n;

	if (strstr(val, "%o"))
		return iop_errf(err, -ENOTSUP,
				"option %s: the %%o (block offset) format is not supported by iopath",
				o->name);
	while (*s) {
		n = pattern_token(&s, job->verify_pattern + len, PATTERN_MAX - len);
		if (n < 0)
			return iop_errf(err, -EINVAL,
					"option %s: cannot read '%s' at '%s' (accepted: 0x hex bytes, \"strings\", 'files', decimal numbers, combined, at most %u bytes)",
					o->name, val, s, PATTERN_MAX);
		len += (size_t)n;
	}
	if (!len)
		return bad_value(err, o, val, "a pattern such as 0xaa555aa5");
	job->verify_pattern_len = (unsigned)len;
	return 0;
}

/* A CPU set names only CPUs this machine has online (fio: "CPU N too large"). */
static int check_cpus(struct job_spec *job, const struct opt_def *o, const char *val,
		      const uint64_t *set, struct iop_err *err)
{
	char have[256];
	uint64_t online[JOB_CPUS_MAX / 64];
	int c = iop_cpus_first_absent(set, online);

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
static int set_cpus_allowed(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_cpumask(struct job_spec *job, const struct opt_def *o, const char *val,
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

static int set_cpus_policy(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_ioprio(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_nice(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_numa_cpu_nodes(struct job_spec *job, const struct opt_def *o, const char *val,
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
static int set_numa_mem_policy(struct job_spec *job, const struct opt_def *o, const char *val,
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

static int set_latency_percentile(struct job_spec *job, const struct opt_def *o,
				  const char *val, struct iop_err *err)
{
	char *end;
	double v = strtod(val, &end);

	if (end == val || *end || v < 0 || v > 100)
		return bad_value(err, o, val, "a percentage 0-100, e.g. 99.9");
	job->latency_percentile = v;
	return 0;
}

/* zonemode=none|strided|zbd (zbd: zones emulated in memory, core/zbd.h). */
static int set_zonemode(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	if (!strcmp(val, "none") || !strcmp(val, "strided") || !strcmp(val, "zbd")) {
		job->zone_strided = !strcmp(val, "strided");
		job->zone_zbd = !strcmp(val, "zbd");
		return 0;
	}
	return bad_value(err, o, val, "none strided zbd");
}

/* zone_reset_threshold / zone_reset_frequency: a fraction, 0..1 (fio's float options). */
static int set_zone_frac(struct job_spec *job, const struct opt_def *o, const char *val,
			 struct iop_err *err)
{
	double *dst = !strcmp(o->name, "zone_reset_threshold") ? &job->zone_reset_threshold :
		      &job->zone_reset_frequency;
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (errno || end == val || *end || !(v >= 0.0 && v <= 1.0))
		return bad_value(err, o, val, "a fraction from 0 to 1, e.g. 0.5");
	*dst = v;
	return 0;
}

/* The words of the OPT_WORD options, fio's spellings, and what each stores. */
static const struct opt_word rw_sequencer_words[] = {
	{ "sequential", false }, { "identical", true }, { NULL, 0 },
};
static const struct opt_word unit_base_words[] = {
	{ "0", 8 }, { "8", 8 }, { "1", 1 }, { NULL, 0 },
};
static const struct opt_word fadvise_hint_words[] = {
	{ "0", FADV_HINT_NONE }, { "1", FADV_HINT_TYPE }, { "random", FADV_HINT_RANDOM },
	{ "sequential", FADV_HINT_SEQUENTIAL }, { NULL, 0 },
};
static const struct opt_word rate_process_words[] = {
	{ "linear", false }, { "poisson", true }, { NULL, 0 },
};
static const struct opt_word dedupe_mode_words[] = {
	{ "repeat", false }, { "working_set", true }, { NULL, 0 },
};
static const struct opt_word submit_mode_words[] = {
	{ "inline", false }, { "offload", true }, { NULL, 0 },
};
static const struct opt_word random_generator_words[] = {
	{ "tausworthe", false }, { "lfsr", true }, { "tausworthe64", false }, { NULL, 0 },
};
static const struct opt_word exit_what_words[] = {
	{ "group", EXIT_GROUP }, { "stonewall", EXIT_STONEWALL }, { "all", EXIT_ALL }, { NULL, 0 },
};

/*
 * The option table. To add an option: add its field to struct job_spec, then one entry here
 * (fio's name, its fio alias if any, how it parses, the range, one line of help). Options
 * whose parsing is special get a set_* function above.
 */
/* only the OPT_WORD entries give the last field, words; the others leave it NULL */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const struct opt_def opt_table[] = {
	{ "name", NULL, OPT_STR, FIELD(name), 0, 0, NULL, "job name" },
	{ "description", NULL, OPT_STR, FIELD(description), 0, 0, NULL,
	  "free text, carried into the reports" },
	{ "filename", NULL, OPT_STR, FIELD(filename), 0, 0, NULL, "file(s) to use, a:b for several" },
	{ "directory", NULL, OPT_STR, FIELD(directory), 0, 0, NULL, "directory for the job's files" },
	{ "copy_from", NULL, OPT_STR, FIELD(copy_from), 0, 0, NULL,
	  "rw=copy: the file to copy to filename" },
	{ "nrfiles", "nr_files", OPT_UINT, FIELD(nrfiles), 1, 100000000, NULL,
	  "files per worker (rw=metadata: the small files to create)" },
	{ "filesize", NULL, OPT_FN, 0, 0, 0, 0, set_filesize,
	  "size of each file, or a low-high range (rw=metadata: bytes in each small file)" },
	{ "openfiles", NULL, OPT_UINT, FIELD(openfiles), 1, 100000000, NULL,
	  "files kept open at once (the file-operation engines hold one at a time; data jobs keep all open)" },
	{ "files_per_dir", NULL, OPT_UINT, FIELD(files_per_dir), 1, 1000000, NULL,
	  "rw=metadata: files in each directory of the tree" },
	{ "dir_fanout", NULL, OPT_UINT, FIELD(dir_fanout), 1, 1000000, NULL,
	  "rw=metadata: subdirectories of each directory of the tree" },
	{ "file_append", NULL, OPT_FLAG, FIELD(file_append), 0, 1, NULL,
	  "write after the end of the file (appends) instead of inside size" },
	{ "ioengine", NULL, OPT_FN, 0, 0, 0, 0, set_engine, "I/O engine" },
	{ "size", NULL, OPT_FN, 0, 0, 0, 0, set_size_pct,
	  "bytes per worker across its files, or N% of each file" },
	{ "offset", "fileoffset", OPT_FN, 0, 0, 0, 0, set_size_pct,
	  "start offset in each file, or N% of it" },
	{ "io_size", "io_limit", OPT_SIZE, FIELD(io_size), 1, UINT64_MAX, NULL, "bytes to move per worker" },
	{ "rw", "readwrite", OPT_FN, 0, 0, 0, 0, set_rw, "I/O pattern" },
	{ "rw_sequencer", NULL, OPT_WORD, FIELD(seq_identical), 0, 0, NULL,
	  "rw=randread:N: the I/Os between random offsets follow on (sequential) or repeat (identical)",
	  rw_sequencer_words },
	{ "rwmixread", NULL, OPT_FN, 0, 0, 0, 0, set_rwmix, "percent reads in mixed patterns" },
	{ "rwmixwrite", NULL, OPT_FN, 0, 0, 0, 0, set_rwmix, "percent writes in mixed patterns" },
	{ "bs", "blocksize", OPT_FN, 0, 0, 0, 0, set_bs, "block size, or read,write block sizes" },
	{ "bsrange", "blocksize_range", OPT_FN, 0, 0, 0, 0, set_bsrange,
	  "block sizes drawn from low-high (per direction)" },
	{ "bssplit", NULL, OPT_FN, 0, 0, 0, 0, set_bssplit,
	  "weighted block sizes bs/percent:... (per direction)" },
	{ "bs_unaligned", "blocksize_unaligned", OPT_FLAG, FIELD(bs_unaligned), 0, 1, NULL,
	  "any size in the range, not only multiples of the smallest" },
	{ "blockalign", "ba", OPT_FN, 0, 0, 0, 0, set_ba, "alignment of random offsets" },
	{ "file_service_type", NULL, OPT_FN, 0, 0, 0, 0, set_file_service,
	  "how the next file is chosen" },
	{ "offset_increment", NULL, OPT_FN, FIELD(offset_increment), 0, 0, set_size_pct,
	  "offset added per worker number" },
	{ "allow_file_create", NULL, OPT_BOOL, FIELD(allow_file_create), 0, 1, NULL,
	  "may create files that do not exist (0: they must exist already)" },
	{ "unlink", NULL, OPT_BOOL, FIELD(unlink), 0, 1, NULL, "remove the job's files when done" },
	{ "create_on_open", NULL, OPT_BOOL, FIELD(create_on_open), 0, 1, NULL,
	  "create files when opened, without laying them out" },
	{ "fallocate", NULL, OPT_FN, 0, 0, 0, 0, set_fallocate, "how files are preallocated" },
	{ "iodepth", NULL, OPT_UINT, FIELD(iodepth), 1, 65536, NULL, "requests in flight per worker" },
	{ "iodepth_batch_submit", "iodepth_batch", OPT_UINT, FIELD(iodepth_batch_submit), 0, 65536,
	  NULL, "requests gathered before one submission (0 = iodepth)" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", OPT_UINT,
	  FIELD(iodepth_batch_complete_min), 0, 65536, NULL, "completions waited for at once" },
	{ "iodepth_batch_complete_max", NULL, OPT_UINT, FIELD(iodepth_batch_complete_max), 0, 65536,
	  NULL, "completions taken at most per reap (default: iodepth_batch_complete_min)" },
	{ "iodepth_low", NULL, OPT_UINT, FIELD(iodepth_low), 0, 65536, NULL,
	  "once the queue is full, let it drain to this many before queueing more (default iodepth)" },
	{ "numjobs", NULL, OPT_UINT, FIELD(numjobs), 1, 4096, NULL, "worker threads for the job" },
	{ "runtime", "timeout", OPT_TIME, FIELD(runtime_ns), 0, UINT64_MAX, NULL, "time limit" },
	{ "time_based", NULL, OPT_FLAG, FIELD(time_based), 0, 1, NULL, "run for runtime, repeating" },
	{ "ramp_time", NULL, OPT_TIME, FIELD(ramp_ns), 0, UINT64_MAX, NULL, "unmeasured warm-up time" },
	{ "loops", NULL, OPT_UINT, FIELD(loops), 1, 1000000, NULL, "times to repeat the job" },
	{ "fsync", NULL, OPT_UINT, FIELD(fsync_blocks), 0, UINT32_MAX, NULL, "fsync every N writes" },
	{ "fdatasync", NULL, OPT_UINT, FIELD(fdatasync_blocks), 0, UINT32_MAX, NULL,
	  "fdatasync every N writes" },
	{ "end_fsync", NULL, OPT_BOOL, FIELD(end_fsync), 0, 1, NULL, "fsync files when the job ends" },
	{ "overwrite", NULL, OPT_BOOL, FIELD(overwrite), 0, 1, NULL,
	  "allow writing to existing files iopath did not create" },
	{ "direct", NULL, OPT_FN, 0, 0, 0, 0, set_direct, "O_DIRECT (1) or buffered (0)" },
	{ "buffered", NULL, OPT_FN, 0, 0, 0, 0, set_direct, "buffered (1) or O_DIRECT (0)" },
	{ "sync", NULL, OPT_FN, 0, 0, 0, 0, set_sync,
	  "open the job's files with O_SYNC (sync, 1) or O_DSYNC (dsync); none (0) is the default" },
	{ "pre_read", NULL, OPT_BOOL, FIELD(pre_read), 0, 1, NULL,
	  "read the job's files into the page cache before it starts (untimed; not with direct=1)" },
	{ "invalidate", NULL, OPT_BOOL, FIELD(invalidate), 0, 1, NULL, "drop cached pages first" },
	{ "significant_figures", NULL, OPT_UINT, FIELD(sig_figs), 1, 10, NULL,
	  "digits of the normal output's IOPS, bandwidths and sizes (4)" },
	{ "unit_base", NULL, OPT_WORD, FIELD(unit_base), 0, 0, NULL,
	  "normal output's bandwidths in bytes (0 or 8) or bits (1)", unit_base_words },
	{ "fadvise_hint", NULL, OPT_WORD, FIELD(fadvise_hint), 0, 0, NULL,
	  "advise the kernel of the access pattern: 1 (the job's: random or sequential, the default), random, sequential, 0 (none)",
	  fadvise_hint_words },
	{ "randrepeat", NULL, OPT_BOOL, FIELD(randrepeat), 0, 1, NULL, "same random sequence each run" },
	{ "randseed", NULL, OPT_FN, 0, 0, 0, 0, set_randseed, "seed of the random generators" },
	{ "norandommap", NULL, OPT_FLAG, FIELD(norandommap), 0, 1, NULL,
	  "random offsets without covering each block once" },
	{ "zero_buffers", NULL, OPT_FLAG, FIELD(zero_buffers), 0, 1, NULL, "zero-filled buffers" },
	{ "refill_buffers", NULL, OPT_FLAG, FIELD(refill_buffers), 0, 1, NULL,
	  "new random data for every write" },
	{ "scramble_buffers", NULL, OPT_BOOL, FIELD(scramble_buffers), 0, 1, NULL,
	  "stamp offset and sequence into every 512 bytes of a write (defeats dedupe)" },
	{ "buffer_pattern", NULL, OPT_FN, 0, 0, 0, 0, set_buffer_pattern,
	  "fill buffers with a pattern: 0x hex, \"string\", 'file', numbers" },
	{ "dedupe_percentage", NULL, OPT_UINT, FIELD(dedupe_percentage), 0, 100, NULL,
	  "percent of writes repeating an earlier buffer" },
	{ "rate", NULL, OPT_FN, FIELD(rate), 0, 0, set_rate, "bandwidth cap in bytes/s (read,write)" },
	{ "rate_min", "ratemin", OPT_FN, FIELD(rate_min), 0, 0, set_rate,
	  "bandwidth the job must keep up, in bytes/s (read,write)" },
	{ "rate_iops", NULL, OPT_FN, FIELD(rate_iops), 0, 0, set_rate, "I/Os per second cap (read,write)" },
	{ "rate_iops_min", NULL, OPT_FN, FIELD(rate_iops_min), 0, 0, set_rate,
	  "I/Os per second the job must keep up (read,write)" },
	{ "rate_process", NULL, OPT_WORD, FIELD(rate_poisson), 0, 0, NULL, "linear or poisson pacing",
	  rate_process_words },
	{ "rate_cycle", "ratecycle", OPT_UINT, FIELD(rate_cycle_ms), 1, 1000000, NULL,
	  "window of the rate_min check, in ms" },
	{ "rate_ignore_thinktime", NULL, OPT_BOOL, FIELD(rate_ignore_thinktime), 0, 1, NULL,
	  "keep the rate schedule through thinktime instead of catching up" },
	{ "thinktime", NULL, OPT_FN, FIELD(thinktime_ns), 0, 0, set_usec_time,
	  "stall between I/Os (bare number: microseconds)" },
	{ "thinktime_spin", NULL, OPT_FN, FIELD(thinktime_spin_ns), 0, 0, set_usec_time,
	  "part of thinktime spent spinning (bare number: microseconds)" },
	{ "thinktime_blocks", NULL, OPT_UINT, FIELD(thinktime_blocks), 1, UINT32_MAX, NULL,
	  "I/Os between thinktime stalls" },
	{ "thinktime_blocks_type", NULL, OPT_FN, 0, 0, 0, 0, set_thinktime_blocks_type,
	  "count thinktime_blocks at completion or at issue" },
	{ "thinktime_iotime", NULL, OPT_TIME, FIELD(thinktime_iotime_ns), 0, UINT64_MAX, NULL,
	  "I/O time between thinktime stalls (bare number: seconds)" },
	{ "write_bw_log", NULL, OPT_FN_OPT, FIELD(bw_log), 0, 0, set_log_name,
	  "log bandwidth to NAME_bw.N.log (fio's format)" },
	{ "write_iops_log", NULL, OPT_FN_OPT, FIELD(iops_log), 0, 0, set_log_name,
	  "log IOPS to NAME_iops.N.log" },
	{ "write_lat_log", NULL, OPT_FN_OPT, FIELD(lat_log), 0, 0, set_log_name,
	  "log latencies to NAME_slat/clat/lat.N.log" },
	{ "log_avg_msec", NULL, OPT_UINT, FIELD(log_avg_msec), 0, UINT32_MAX, NULL,
	  "average log entries over this many ms (0: one per I/O)" },
	{ "log_offset", NULL, OPT_BOOL, FIELD(log_offset), 0, 1, NULL, "add each I/O's offset to the logs" },
	{ "log_max_value", NULL, OPT_BOOL, FIELD(log_max_value), 0, 1, NULL,
	  "windowed logs keep the maximum, not the mean" },
	{ "per_job_logs", NULL, OPT_BOOL, FIELD(per_job_logs), 0, 1, NULL,
	  "a log file per worker (NAME_type.N.log), else one shared" },
	{ "percentile_list", NULL, OPT_FN, 0, 0, 0, 0, set_percentile_list,
	  "latency percentiles to report, e.g. 50:99:99.9" },
	{ "clat_percentiles", NULL, OPT_BOOL, FIELD(clat_percentiles), 0, 1, NULL,
	  "report completion latency percentiles" },
	{ "lat_percentiles", NULL, OPT_BOOL, FIELD(lat_percentiles), 0, 1, NULL,
	  "report total latency percentiles" },
	{ "slat_percentiles", NULL, OPT_BOOL, FIELD(slat_percentiles), 0, 1, NULL,
	  "report submission latency percentiles" },
	{ "dedupe_mode", NULL, OPT_WORD, FIELD(dedupe_working_set), 0, 0, NULL,
	  "repeat (the last unique buffer) or working_set (one of the first unique buffers)",
	  dedupe_mode_words },
	{ "dedupe_working_set_percentage", NULL, OPT_UINT, FIELD(dedupe_ws_percentage), 0, 100,
	  NULL, "dedupe_mode=working_set: the working set, in percent of size" },
	{ "dedupe_global", NULL, OPT_BOOL, FIELD(dedupe_global), 0, 1, NULL,
	  "dedupe_mode=working_set: draw the working set from every worker's buffers" },
	{ "random_distribution", NULL, OPT_FN, 0, 0, 0, 0, set_random_distribution,
	  "random offsets: random, zipf, pareto, normal, zoned, zoned_abs" },
	{ "buffer_compress_percentage", NULL, OPT_UINT, FIELD(buffer_compress_percentage), 0, 100,
	  NULL, "percent of each buffer made compressible" },
	{ "zonemode", NULL, OPT_FN, 0, 0, 0, 0, set_zonemode,
	  "none; strided: zonesize bytes of each zonerange, then zoneskip; zbd: emulated write pointers" },
	{ "zonesize", NULL, OPT_SIZE, FIELD(zone_size), 0, UINT64_MAX, NULL,
	  "strided: bytes moved in a zone before the next; zbd: the size of each zone" },
	{ "zonerange", NULL, OPT_SIZE, FIELD(zone_range), 0, UINT64_MAX, NULL,
	  "zonemode=strided: the size of a zone (default zonesize)" },
	{ "zoneskip", NULL, OPT_SIZE, FIELD(zone_skip), 0, UINT64_MAX, NULL,
	  "zonemode=strided: bytes skipped after each zone" },
	{ "zonecapacity", NULL, OPT_SIZE, FIELD(zone_capacity), 0, UINT64_MAX, NULL,
	  "zonemode=zbd: writable bytes of each zone (default zonesize; strided ignores it, as fio)" },
	{ "max_open_zones", "zbd_max_open_zones", OPT_UINT, FIELD(max_open_zones), 0, 4096, NULL,
	  "zonemode=zbd: zones written at a time, over every job on the file (0: no limit)" },
	{ "job_max_open_zones", NULL, OPT_UINT, FIELD(job_max_open_zones), 0, 4096, NULL,
	  "zonemode=zbd: zones one worker writes at a time (needs max_open_zones)" },
	{ "read_beyond_wp", NULL, OPT_BOOL, FIELD(read_beyond_wp), 0, 1, NULL,
	  "zonemode=zbd: reads go anywhere, not only below write pointers" },
	{ "ignore_zone_limits", NULL, OPT_BOOL, FIELD(ignore_zone_limits), 0, 1, NULL,
	  "zonemode=zbd: ignore a zoned device's limits (emulated zones have none)" },
	{ "zone_reset_threshold", NULL, OPT_FN, 0, 0, 0, 0, set_zone_frac,
	  "zonemode=zbd: share of the region holding data past which writes may reset zones" },
	{ "zone_reset_frequency", NULL, OPT_FN, 0, 0, 0, 0, set_zone_frac,
	  "zonemode=zbd: share of writes past the threshold that reset their zone (0: never)" },
	{ "cpus_allowed", NULL, OPT_FN, 0, 0, 0, 0, set_cpus_allowed,
	  "run each worker on these CPUs: numbers and A-B ranges, commas (0-3,5)" },
	{ "cpumask", NULL, OPT_FN, 0, 0, 0, 0, set_cpumask,
	  "run each worker on these CPUs: a bit mask (0x3: CPUs 0 and 1)" },
	{ "cpus_allowed_policy", NULL, OPT_FN, 0, 0, 0, 0, set_cpus_policy,
	  "shared: every worker on the whole set; split: each worker on one CPU of it" },
	{ "prio", NULL, OPT_FN, 0, 0, 0, 0, set_ioprio,
	  "each worker's I/O priority in its class, 0 (highest) to 7 (class best-effort unless prioclass)" },
	{ "prioclass", NULL, OPT_FN, 0, 0, 0, 0, set_ioprio,
	  "each worker's I/O priority class: 1 realtime, 2 best-effort, 3 idle" },
	{ "nice", NULL, OPT_FN, 0, 0, 0, 0, set_nice,
	  "added to each worker thread's nice value (-20 to 19)" },
	{ "numa_cpu_nodes", NULL, OPT_FN, 0, 0, 0, 0, set_numa_cpu_nodes,
	  "run the job's workers on these NUMA nodes' CPUs (0, 0-1, all...)" },
	{ "numa_mem_policy", NULL, OPT_FN, 0, 0, 0, 0, set_numa_mem_policy,
	  "the workers' memory policy: default, prefer:NODE, bind:LIST, interleave:LIST, local" },
	{ "io_submit_mode", NULL, OPT_WORD, FIELD(submit_offload), 0, 0, NULL,
	  "inline (the worker submits and reaps) or offload (a pool of iodepth I/O threads does)",
	  submit_mode_words },
	{ "latency_target", NULL, OPT_FN, FIELD(latency_target_ns), 0, 0, set_usec_time,
	  "find the largest depth (up to iodepth) whose I/Os meet this latency, then run at it" },
	{ "latency_window", NULL, OPT_FN, FIELD(latency_window_ns), 0, 0, set_usec_time,
	  "latency_target: how long each depth is tried (bare: microseconds)" },
	{ "latency_percentile", NULL, OPT_FN, 0, 0, 0, 0, set_latency_percentile,
	  "latency_target: the share of I/Os that must meet it (default 100)" },
	{ "random_generator", NULL, OPT_WORD, FIELD(rand_lfsr), 0, 0, NULL,
	  "tausworthe, tausworthe64 (iopath's generator either way) or lfsr (no repeats)",
	  random_generator_words },
	{ "steadystate", "ss", OPT_FN, 0, 0, 0, 0, set_ss,
	  "end the job at steady state: iops|iops_slope|bw|bw_slope:limit[%] over ss_dur" },
	{ "steadystate_duration", "ss_dur", OPT_TIME, FIELD(ss_dur_ns), 0, UINT64_MAX, NULL,
	  "steady state: the window of per-second samples judged (whole seconds; 0: off)" },
	{ "steadystate_ramp_time", "ss_ramp", OPT_TIME, FIELD(ss_ramp_ns), 0, UINT64_MAX, NULL,
	  "steady state: time before samples are taken (then one second more)" },
	{ "exitall", NULL, OPT_FLAG, FIELD(exitall), 0, 1, NULL,
	  "when a job ends, end others (exit_what); given for any job, it holds for all" },
	{ "exit_what", NULL, OPT_WORD, FIELD(exit_what), 0, 0, NULL,
	  "what exitall ends: group, stonewall (all running jobs) or all", exit_what_words },
	{ "exitall_on_error", NULL, OPT_FLAG, FIELD(exitall_on_error), 0, 1, NULL,
	  "when this job fails, end others (exit_what)" },
	{ "number_ios", NULL, OPT_SIZE, FIELD(number_ios), 0, UINT64_MAX, NULL,
	  "stop each worker after this many I/Os per loop (not with time_based)" },
	{ "flow", NULL, OPT_UINT, FIELD(flow), 0, 1000, NULL,
	  "weight: jobs of one flow_id issue I/Os in proportion to their flow= (0: none)" },
	{ "flow_id", NULL, OPT_UINT, FIELD(flow_id), 0, UINT32_MAX, NULL,
	  "the flow a job's flow= weight belongs to" },
	{ "flow_sleep", NULL, OPT_UINT, FIELD(flow_sleep_us), 0, UINT32_MAX, NULL,
	  "microseconds to sleep, after in-flight I/O completes, when held back by flow" },
	{ "disk_util", NULL, OPT_BOOL, FIELD(disk_util), 0, 1, NULL,
	  "report the utilization of the block devices under the job's files (1, the default)" },
	{ "group_reporting", NULL, OPT_FLAG, FIELD(group_reporting), 0, 1, NULL,
	  "report a job's workers as one" },
	{ "thread", NULL, OPT_FLAG, FIELD(thread), 0, 1, NULL,
	  "workers are threads (iopath's always are)" },
	{ "stonewall", "wait_for_previous", OPT_FLAG, FIELD(stonewall), 0, 1, NULL,
	  "wait for earlier jobs to end before starting" },
	{ "new_group", NULL, OPT_FLAG, FIELD(new_group), 0, 1, NULL,
	  "start a new reporting group (without waiting)" },
	{ "wait_for", NULL, OPT_STR, FIELD(wait_for), 0, 0, NULL,
	  "start after the named earlier job has ended" },
	{ "startdelay", NULL, OPT_FN, 0, 0, 0, 0, set_startdelay,
	  "delay the start (seconds by default; a range picks per worker)" },
	{ "verify", NULL, OPT_FN, 0, 0, 0, 0, set_verify, "checksum written data and check it" },
	{ "verify_backlog", NULL, OPT_SIZE, FIELD(verify_backlog), 0, 1ull << 24, NULL,
	  "verify the written blocks every N blocks written, not only at the end" },
	{ "verify_backlog_batch", NULL, OPT_SIZE, FIELD(verify_backlog_batch), 0, 1ull << 24, NULL,
	  "verify_backlog: blocks read back each time (default verify_backlog)" },
	{ "verify_interval", NULL, OPT_FN, 0, 0, 0, 0, set_verify_interval,
	  "a verify header every N bytes of a block (default: one per block)" },
	{ "verify_pattern", NULL, OPT_FN, 0, 0, 0, 0, set_verify_pattern,
	  "written data is this pattern (0x hex, \"string\", numbers), and reads are checked for it" },
	{ "fill_device", "fill_fs", OPT_BOOL, FIELD(fill_device), 0, 1, NULL,
	  "a write that finds the device full (ENOSPC) ends the job without an error" },
	{ "create_serialize", NULL, OPT_BOOL, FIELD(create_serialize), 0, 1, NULL,
	  "files are laid out one at a time before any job runs, whatever this says" },
	{ "verify_fatal", NULL, OPT_BOOL, FIELD(verify_fatal), 0, 1, NULL,
	  "stop at the first block that fails verify (as fio, the job stops there either way unless continue_on_error covers verify)" },
	{ "do_verify", NULL, OPT_BOOL, FIELD(do_verify), 0, 1, NULL,
	  "with verify: read back and check after writing (0: only stamp the blocks)" },
	{ "continue_on_error", NULL, OPT_FN, 0, 0, 0, 0, set_continue_on_error,
	  "go on after non-fatal errors (EIO, EILSEQ) of these types: none read write io verify all" },
	{ "ignore_error", NULL, OPT_FN, 0, 0, 0, 0, set_ignore_error,
	  "READ,WRITE,VERIFY lists of errors (names or numbers, ':' between) to go on after" },
	{ "error_dump", NULL, OPT_BOOL, FIELD(error_dump), 0, 1, NULL,
	  "report every error, the non-fatal ones too" },
	{ "verify_async", NULL, OPT_UINT, FIELD(verify_async), 0, 1024, NULL,
	  "threads that check completed verify reads, instead of the submitting thread" },
	{ "verify_dump", NULL, OPT_BOOL, FIELD(verify_dump), 0, 1, NULL,
	  "a block that fails verify is saved as read, to FILE.OFFSET.received" },
	{ "mem", "iomem", OPT_FN, 0, 0, 0, 0, set_mem,
	  "request buffers: thp (default: 2 MiB-aligned, huge pages advised) or malloc/mmap (4 KiB pages)" },
	{ "clocksource", NULL, OPT_FN, 0, 0, 0, 0, set_clocksource,
	  "time stamps: cpu (the TSC, calibrated) or clock_gettime; default cpu when reliable" },
	{ "kb_base", NULL, OPT_FN, 0, 0, 0, 0, set_kb_base, "1024 or 1000 for size suffixes" },
	{ "gtod_reduce", NULL, OPT_FN, 0, 0, 0, 0, set_gtod_reduce,
	  "measure no latencies and take no bandwidth samples (all four disable_* options)" },
	{ "disable_lat", NULL, OPT_BOOL, FIELD(disable_lat), 0, 1, NULL,
	  "do not measure total latency (lat_ns)" },
	{ "disable_clat", NULL, OPT_BOOL, FIELD(disable_clat), 0, 1, NULL,
	  "do not measure completion latency (clat_ns, percentiles, latency buckets)" },
	{ "disable_slat", NULL, OPT_BOOL, FIELD(disable_slat), 0, 1, NULL,
	  "do not measure submission latency (slat_ns)" },
	{ "disable_bw_measurement", "disable_bw", OPT_BOOL, FIELD(disable_bw), 0, 1, NULL,
	  "take no bandwidth or IOPS samples (bw_min/max/mean, iops_min/max/mean)" },
	{ NULL, NULL, 0, 0, 0, 0, 0, NULL, NULL },
};
#pragma GCC diagnostic pop

void job_defaults(struct job_spec *job)
{
	memset(job, 0, sizeof(*job));
	job->kb_base = 1024;
	job->rw = RW_READ;
	job->seq_nr = 1;
	job->ss_state = SS_IOPS | SS_SLOPE | SS_PCT;	/* fio's default: iops_slope:0.01% */
	job->ss_limit = 0.01;
	job->latency_percentile = 100.0;
	job->allow_file_create = true;
	job->create_serialize = true;
	job->dedupe_ws_percentage = 5;
	job->do_verify = true;
	job->rwmixread = 50;
	job->bs[0] = job->bs[1] = 4096;
	job->rate_cycle_ms = 1000;
	job->thinktime_blocks = 1;
	job->clat_percentiles = true;
	job->per_job_logs = true;
	job->file_service_nr = 1;
	job->scramble_buffers = true;
	job->dist_center = -1.0;
	job->fallocate = FALLOC_NATIVE;
	job->iodepth = 1;
	job->iodepth_batch_submit = 1;
	job->iodepth_batch_complete_min = 1;
	job->numjobs = 1;
	job->loops = 1;
	job->nrfiles = 1;
	job->filesize = 4096;
	job->files_per_dir = 32;
	job->dir_fanout = 8;
	job->invalidate = true;
	job->disk_util = true;
	job->fadvise_hint = FADV_HINT_TYPE;
	job->sig_figs = 4;
	job->randrepeat = true;
	snprintf(job->ioengine, sizeof(job->ioengine), "psync");
}

const struct opt_def *opt_find(const char *name)
{
	const struct opt_def *o;

	for (o = opt_table; o->name; o++)
		if (!strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name)))
			return o;
	return NULL;
}

static const struct engine_option *engine_opt_find(const struct engine_ops *ops, const char *name)
{
	const struct engine_option *eo;

	for (eo = ops ? ops->options : NULL; eo && eo->name; eo++)
		if (!strcmp(eo->name, name))
			return eo;
	return NULL;
}

/* The first engine (other than skip) that has an option of that name. */
static const struct engine_ops *engine_owning(const char *name)
{
	const struct engine_entry *ent;

	for (ent = engine_table; ent->name; ent++)
		if (engine_opt_find(ent->ops, name))
			return ent->ops;
	return NULL;
}

/* OPT_WORD: the value of the word given, into a one-byte (bool, small enum) or int field. */
static int set_word(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	char *field = (char *)job + o->off, accepted[160] = "";
	const struct opt_word *w;

	for (w = o->words; w->word; w++) {
		if (strcmp(val, w->word))
			continue;
		if (o->size == 1)
			*(unsigned char *)field = (unsigned char)w->value;
		else
			*(int *)field = w->value;
		return 0;
	}
	for (w = o->words; w->word; w++)
		snprintf(accepted + strlen(accepted), sizeof(accepted) - strlen(accepted), "%s%s",
			 w == o->words ? "" : ", ", w->word);
	return bad_value(err, o, val, accepted);
}

static int set_typed(struct job_spec *job, const struct opt_def *o, const char *val,
		     struct iop_err *err)
{
	char *field = (char *)job + o->off;
	const char *why = "";
	uint64_t v = 0;
	bool b;

	switch (o->type) {
	case OPT_STR:
		if (strlen(val) >= o->size)
			return iop_errf(err, -ENAMETOOLONG, "option %s: value longer than %zu bytes",
					o->name, o->size - 1);
		if (!strcmp(o->name, "name") && !*val)
			return iop_errf(err, -EINVAL, "option name: a job name may not be empty");
		memcpy(field, val, strlen(val) + 1);
		return 0;
	case OPT_BOOL:
	case OPT_FLAG:
		if (parse_bool(val, &b))
			return bad_value(err, o, val, "0 or 1");
		*(bool *)field = b;
		return 0;
	case OPT_UINT:
		/* fio reads integers as it reads sizes: "iodepth=1k" is 1024 */
		if (parse_size_why(val, job->kb_base, &v, NULL, &why) || v < o->min || v > o->max)
			return iop_errf(err, -EINVAL, "option %s: bad value '%s' (accepted: %llu to %llu)",
					o->name, val, o->min, o->max);
		*(unsigned *)field = (unsigned)v;
		return 0;
	case OPT_SIZE:
		if (parse_size_why(val, job->kb_base, &v, NULL, &why))
			v = 0;
		else if (v < o->min)
			why = "too small";
		else
			why = NULL;
		if (why)
			return iop_errf(err, -EINVAL,
					"option %s: bad size '%s': %s (accepted: a number with an optional k/m/g/t/p suffix%s)",
					o->name, val, why, o->min ? ", at least 1" : "");
		*(uint64_t *)field = v;
		return 0;
	case OPT_TIME:
		if (parse_time_why(val, 1000000000ull, &v, &why))
			return iop_errf(err, -EINVAL,
					"option %s: bad time '%s': %s (accepted: seconds, or a number with d/h/m/s/ms/us)",
					o->name, val, why);
		*(uint64_t *)field = v;
		return 0;
	case OPT_WORD:
		return set_word(job, o, val, err);
	case OPT_FN:
	case OPT_FN_OPT:
		return o->fn(job, o, val, err);
	}
	return -EINVAL;
}

static void record_kv(struct job_spec *job, const char *key, const char *val)
{
	struct job_kv *kv;
	unsigned i;

	for (i = 0; i < job->nr_kv; i++)
		if (!strcmp(job->kv[i].key, key))
			break;
	if (i == JOB_KV_MAX)
		return;
	kv = &job->kv[i];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->val, sizeof(kv->val), "%s", val ? val : "");
	if (i == job->nr_kv)
		job->nr_kv++;
}

static int store_engine_kv(struct job_spec *job, const char *key, const char *val,
			   const char *where, struct iop_err *err)
{
	struct job_kv *kv;
	unsigned i;

	for (i = 0; i < job->nr_engine_kv; i++)
		if (!strcmp(job->engine_kv[i].key, key))
			break;
	if (i == sizeof(job->engine_kv) / sizeof(job->engine_kv[0]))
		return iop_errf(err, -E2BIG, "%s: too many engine options", where);
	kv = &job->engine_kv[i];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->val, sizeof(kv->val), "%s", val ? val : "");
	if (i == job->nr_engine_kv)
		job->nr_engine_kv++;
	return 0;
}

/* A fio option, engine option or profile option iopath lacks: refuse it, or warn. */
static int unsupported(struct job_spec *job, const char *key, const char *val, const char *where,
		       const struct opt_ctx *ctx, struct iop_err *err)
{
	const struct fio_unsupported *u = fio_unsupported_find(key, FIO_JOB_OPTION);
	char msg[sizeof(err->msg)];

	if (u && u->def && val && !strcmp(val, u->def)) {
		/* fio's own default: the setting changes nothing */
		record_kv(job, key, val);
		return 0;
	}
	if (u) {
		snprintf(msg, sizeof(msg), "%s: fio option '%s' is not supported by iopath (fio: %s)",
			 where, key, u->what);
	} else if ((u = fio_unsupported_find(key, FIO_ENGINE_OPTION))) {
		snprintf(msg, sizeof(msg),
			 "%s: option '%s' of fio's %s ioengine is not supported by iopath", where, key,
			 u->what);
	} else if ((u = fio_unsupported_find(key, FIO_PROFILE_OPTION))) {
		if (ctx && ctx->warn) {
			snprintf(msg, sizeof(msg),
				 "%s: '%s' is an option of fio's %s profile; it changes nothing in this job, in fio or in iopath",
				 where, key, u->what);
			ctx->warn(ctx->arg, msg);
		}
		return 0;
	} else {
		return 1;
	}
	if (!ctx || !ctx->ignore_unsupported)
		return iop_errf(err, -ENOTSUP, "%s (--ignore-unsupported makes this a warning)", msg);
	if (ctx->warn) {
		strncat(msg, "; ignored (--ignore-unsupported): the job runs without it",
			sizeof(msg) - strlen(msg) - 1);
		ctx->warn(ctx->arg, msg);
	}
	return 0;
}

int opt_apply_ctx(struct job_spec *job, const char *key, const char *val, const char *where,
		  const struct opt_ctx *ctx, struct iop_err *err)
{
	const struct opt_def *o = opt_find(key);
	char hint[160];
	int ret;

	if (!o) {
		if (engine_owning(key)) {
			ret = store_engine_kv(job, key, val, where, err);
			if (!ret)
				record_kv(job, key, ctx && ctx->written ? ctx->written : val);
			return ret;
		}
		ret = unsupported(job, key, val, where, ctx, err);
		if (ret <= 0)
			return ret;
		opt_suggest(key, hint, sizeof(hint));
		return iop_errf(err, -EINVAL, "%s: unknown option '%s'%s", where, key, hint);
	}
	if (!val && o->type == OPT_FN_OPT) {
		ret = o->fn(job, o, NULL, err);
		if (ret)
			return ret;
		record_kv(job, o->name, "");
		return 0;
	}
	if (!val) {
		if (o->type != OPT_FLAG)
			return iop_errf(err, -EINVAL, "%s: option '%s' needs a value (%s=...)", where,
					o->name, o->name);
		val = "1";
	}
	ret = set_typed(job, o, val, err);
	if (ret == -ENOTSUP && ctx && ctx->ignore_unsupported) {
		/* a value of fio's that iopath lacks (zonemode=zbd): like a lacking option */
		char msg[sizeof(err->msg) + 64];

		snprintf(msg, sizeof(msg), "%s: %s; ignored (--ignore-unsupported): the job runs without it",
			 where, err->msg);
		if (ctx->warn)
			ctx->warn(ctx->arg, msg);
		return 0;
	}
	if (ret) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return iop_errf(err, ret, "%s: %s%s", where, msg,
				ret == -ENOTSUP ? " (--ignore-unsupported makes this a warning)" : "");
	}
	record_kv(job, o->name, ctx && ctx->written ? ctx->written : val);
	return 0;
}

int opt_apply(struct job_spec *job, const char *key, const char *val, const char *where,
	      struct iop_err *err)
{
	return opt_apply_ctx(job, key, val, where, NULL, err);
}

/* The index of word in a '|'-separated list of choices, or -1. */
static int choice_index(const char *choices, const char *word)
{
	size_t n = strlen(word);
	const char *p = choices;
	int i = 0;

	while (n && p && *p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return i;
		p = bar ? bar + 1 : NULL;
		i++;
	}
	return -1;
}

static int parse_engine_opts(struct job_spec *job, const struct engine_ops *ops,
			     struct iop_err *err)
{
	unsigned i;

	const struct engine_option *d;

	memset(job->engine_opts, 0, sizeof(job->engine_opts));
	if (ops->opts_size > sizeof(job->engine_opts))
		return iop_errf(err, -EOVERFLOW, "engine %s: option block too large", ops->name);
	for (d = ops->options; d && d->name; d++)
		*(int *)(job->engine_opts + d->offset) = d->def;
	for (i = 0; i < job->nr_engine_kv; i++) {
		const struct job_kv *kv = &job->engine_kv[i];
		const struct engine_option *eo = engine_opt_find(ops, kv->key);
		const struct engine_ops *owner;
		uint64_t v;
		bool b;

		if (!eo) {
			owner = engine_owning(kv->key);
			return iop_errf(err, -EINVAL,
					"%s: option '%s' belongs to ioengine=%s, but job '%s' uses ioengine=%s",
					job->origin, kv->key, owner ? owner->name : "?", job->name,
					ops->name);
		}
		if (eo->type == EOPT_CHOICE) {
			int idx = choice_index(eo->choices, kv->val);

			if (idx < 0)
				return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: %s)",
						job->origin, kv->key, kv->val, eo->choices);
			*(int *)(job->engine_opts + eo->offset) = idx;
			continue;
		}
		if (eo->type == EOPT_BOOL) {
			if (*kv->val && parse_bool(kv->val, &b))
				return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: 0 or 1)",
						job->origin, kv->key, kv->val);
			v = *kv->val ? b : 1;
		} else if (!*kv->val || parse_u64(kv->val, &v) || (long long)v < eo->min ||
			   (long long)v > eo->max) {
			return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: %lld to %lld)",
					job->origin, kv->key, kv->val, eo->min, eo->max);
		}
		*(int *)(job->engine_opts + eo->offset) = (int)v;
	}
	return 0;
}

/* Each direction's sizes: bssplit wins over bsrange, which wins over bs (as in fio). */
static void resolve_bs(struct job_spec *job)
{
	unsigned d, i;

	for (d = 0; d < 2; d++) {
		uint32_t lo = job->bs[d], hi = job->bs[d];

		if (job->nr_bssplit[d]) {
			lo = UINT32_MAX;
			hi = 0;
			for (i = 0; i < job->nr_bssplit[d]; i++) {
				if (job->bssplit[d][i].bs < lo)
					lo = job->bssplit[d][i].bs;
				if (job->bssplit[d][i].bs > hi)
					hi = job->bssplit[d][i].bs;
			}
		} else if (job->bsrange[d][0]) {
			lo = job->bsrange[d][0];
			hi = job->bsrange[d][1];
		}
		job->bs[d] = lo;
		job->bs_max[d] = hi;
	}
}

/* Was the option given for this job (globals included)? */
static bool job_gave(const struct job_spec *job, const char *key)
{
	unsigned i;

	for (i = 0; i < job->nr_kv; i++)
		if (!strcmp(job->kv[i].key, key))
			return true;
	return false;
}

/*
 * Trims take the write direction's settings (fio gives a missing trim value the write one).
 * A trim size of its own (bs=r,w,t) becomes the write size of a trim-only job; for the other
 * per-direction options, and for trimwrite with a trim size unlike the write size, a trim
 * value of its own is refused rather than ignored.
 */
static int finish_trim(struct job_spec *job, struct iop_err *err)
{
	static const char *const keys[] = { "bsrange", "blocksize_range", "bssplit", "blockalign",
					    "ba", "rate", "rate_iops", "rate_min", "rate_iops_min" };
	const char *comma;
	unsigned i, k;

	if (!job_trims(job->rw))
		return 0;
	for (i = 0; i < job->nr_kv; i++) {
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			if (strcmp(job->kv[i].key, keys[k]))
				continue;
			comma = strchr(job->kv[i].val, ',');
			if (comma && strchr(comma + 1, ','))
				return iop_errf(err, -ENOTSUP,
						"%s: %s=%s: a trim value of its own (the third) is not supported by iopath; trims take the write value",
						job->origin, keys[k], job->kv[i].val);
		}
	}
	if (!job->bs_trim || job->bs_trim == job->bs[DDIR_WRITE])
		return 0;
	if (job->rw == RW_TRIM || job->rw == RW_RANDTRIM) {
		job->bs[DDIR_WRITE] = job->bs_trim;
		return 0;
	}
	return iop_errf(err, -ENOTSUP,
			"%s: rw=%s with a trim size (%u) unlike the write size (%u) is not supported by iopath",
			job->origin, job->rw == RW_TRIMWRITE ? "trimwrite" : "randtrimwrite",
			job->bs_trim, job->bs[DDIR_WRITE]);
}

static int finish_copy(struct job_spec *job, struct iop_err *err)
{
	const char *why = NULL;

	if (!job->copy_from[0])
		return iop_errf(err, -EINVAL, "%s: rw=copy needs copy_from=SOURCE (and filename=DESTINATION)",
				job->origin);
	if (!job->filename[0])
		why = "needs filename=DESTINATION";
	else if (job->numjobs > 1)
		why = "copies one file with one worker (use iodepth for parallelism, not numjobs)";
	else if (job->time_based || job->loops > 1)
		why = "copies the file once (time_based and loops do not apply)";
	else if (job->fsync_blocks || job->fdatasync_blocks)
		why = "takes end_fsync, not fsync=/fdatasync= (one flush at the end, as cp && sync)";
	else if (job->bs[DDIR_READ] != job->bs[DDIR_WRITE])
		why = "writes each block as it was read: give one bs, not read,write sizes";
	else if (job->nrfiles > 1 || job->file_append || job->offset)
		why = "copies a whole file from offset 0 (nrfiles, file_append and offset do not apply)";
	else if (job->engine->flags & ENGINE_DISKLESS)
		why = "needs an engine that moves data";
	if (why)
		return iop_errf(err, -EINVAL, "%s: rw=copy %s", job->origin, why);
	return 0;
}

static int finish_metadata(struct job_spec *job, struct iop_err *err)
{
	const char *why = NULL;

	if (strcmp(job->engine->name, "psync") && strcmp(job->engine->name, "sync"))
		return iop_errf(err, -EINVAL,
				"%s: rw=metadata makes its own open/stat/read/unlink calls; ioengine=%s does not apply (leave ioengine unset)",
				job->origin, job->engine->name);
	if (job->iodepth > 1)
		why = "runs one operation at a time (iodepth=1; use numjobs for parallel trees)";
	else if (job->time_based || job->loops > 1)
		why = "runs each phase once over nrfiles files (time_based and loops do not apply)";
	else if (job->verify != VERIFY_NONE || job->fsync_blocks || job->fdatasync_blocks ||
		 job->file_append || job->copy_from[0] || job->filename[0])
		why = "takes directory=, nrfiles=, filesize=, files_per_dir= and dir_fanout= (not filename, verify, fsync, copy_from or file_append)";
	else if (job->direct && job->filesize % 4096)
		why = "with direct=1 needs filesize= to be a multiple of 4096";
	else if (job->filesize_range[0] != job->filesize_range[1] || job->filesize > (1ull << 30))
		why = "takes one filesize= of at most 1g, not a range";
	if (why)
		return iop_errf(err, -EINVAL, "%s: rw=metadata %s", job->origin, why);
	return 0;
}
/* zonemode=zbd: what fio refuses, and what iopath does not do with it. */
static int check_zbd(const struct job_spec *job, struct iop_err *err)
{
	unsigned d;

	if (job->zone_size && job->zone_size < 512)
		return iop_errf(err, -EINVAL, "%s: zonesize must be at least 512 bytes for zonemode=zbd",
				job->origin);
	if (job->zone_size && job->zone_capacity > job->zone_size)
		return iop_errf(err, -EINVAL, "%s: zonecapacity %llu is larger than zonesize %llu",
				job->origin, (unsigned long long)job->zone_capacity,
				(unsigned long long)job->zone_size);
	if (job->job_max_open_zones && !job->max_open_zones)
		return iop_errf(err, -EINVAL,
				"%s: job_max_open_zones cannot be used without a global open zones limit (max_open_zones=)",
				job->origin);
	if (job->job_max_open_zones > job->max_open_zones)
		return iop_errf(err, -EINVAL, "%s: job_max_open_zones=%u is larger than max_open_zones=%u",
				job->origin, job->job_max_open_zones, job->max_open_zones);
	if (!job->create_serialize)
		return iop_errf(err, -EINVAL,
				"%s: zonemode=zbd and create_serialize=0 are not compatible (as in fio)",
				job->origin);
	for (d = 0; job->zone_size && job->verify != VERIFY_NONE && d < 2; d++)
		if (job->zone_size % job->bs[d] || job->zone_size % job->bs_max[d])
			return iop_errf(err, -EINVAL,
					"%s: with verify, block size %u is not a divisor of zonesize %llu (fio)",
					job->origin, job->zone_size % job->bs[d] ? job->bs[d] :
					job->bs_max[d], (unsigned long long)job->zone_size);
	if (job_trims(job->rw))
		return iop_errf(err, -ENOTSUP,
				"%s: rw=%s with zonemode=zbd is not supported by iopath (fio trims whole zones there, resetting their write pointers)",
				job->origin, job_rw_name(job->rw));
	if (job->zone_skip)
		return iop_errf(err, -ENOTSUP,
				"%s: fio option zoneskip with zonemode=zbd is not supported by iopath",
				job->origin);
	if (job->rw == RW_COPY || job->rw == RW_METADATA || job->file_append ||
	    job->seq_add || job->seq_nr > 1)
		return iop_errf(err, -ENOTSUP,
				"%s: fio option zonemode=zbd with %s is not supported by iopath",
				job->origin, job->file_append ? "file_append" :
				job->rw == RW_COPY ? "rw=copy" : job->rw == RW_METADATA ?
				"this rw=" : "rw=...:N or rw_sequencer");
	return 0;
}


/* Whole-job checks of the options that depend on rw. */
/* What a file-operation engine's loop (one timed operation per file, counted blocks) lacks. */
static const char *finish_fileop(const struct job_spec *job)
{
	if (job_trims(job->rw) || job->rw == RW_COPY || job->rw == RW_METADATA)
		return "rw= takes read, write or their mixes (its blocks are counted in that direction)";
	if (job->verify != VERIFY_NONE)
		return "verify does not apply (no data moves)";
	if (job->ramp_ns)
		return "ramp_time is not supported by iopath with these engines";
	if (job->rate[0] || job->rate[1] || job->rate_iops[0] || job->rate_iops[1] ||
	    job->rate_min[0] || job->rate_min[1] || job->rate_iops_min[0] || job->rate_iops_min[1])
		return "rate limits are not supported by iopath with these engines";
	if (job->thinktime_ns || job->number_ios || job->flow || job->latency_target_ns ||
	    job->zone_zbd || job->zone_strided || job->submit_offload || job->ss_dur_ns)
		return "thinktime, number_ios, flow, latency_target, zonemode, io_submit_mode=offload and steady state are not supported by iopath with these engines";
	if (job->bw_log_set || job->iops_log_set || job->lat_log_set)
		return "write_bw_log, write_iops_log and write_lat_log are not supported by iopath with these engines";
	return NULL;
}

static int finish_mode(struct job_spec *job, struct iop_err *err)
{
	if (job->submit_offload && (job->rw == RW_COPY || job->rw == RW_METADATA))
		return iop_errf(err, -ENOTSUP,
				"%s: io_submit_mode=offload with rw=%s is not supported by iopath",
				job->origin, job->rw == RW_COPY ? "copy" : "metadata");
	if (job->rw == RW_COPY)
		return finish_copy(job, err);
	if (job->rw == RW_METADATA)
		return finish_metadata(job, err);
	if (job->copy_from[0])
		return iop_errf(err, -EINVAL, "%s: copy_from= needs rw=copy", job->origin);
	if (job_gave(job, "files_per_dir") || job_gave(job, "dir_fanout"))
		return iop_errf(err, -EINVAL,
				"%s: files_per_dir and dir_fanout are rw=metadata options", job->origin);
	if (job->nrfiles > FILES_MAX)
		return iop_errf(err, -EINVAL,
				"%s: nrfiles=%u: more than %u files per worker is not supported by iopath",
				job->origin, job->nrfiles, FILES_MAX);
	if ((uint64_t)job->nrfiles * job->numjobs > FILES_JOB_MAX)
		return iop_errf(err, -EINVAL,
				"%s: nrfiles=%u with numjobs=%u: more than %u files in one job is not supported by iopath",
				job->origin, job->nrfiles, job->numjobs, FILES_JOB_MAX);
	if (job->openfiles && job->openfiles < job->nrfiles && !(job->engine->flags & ENGINE_FILE_OP))
		return iop_errf(err, -EINVAL,
				"%s: fio option 'openfiles' below nrfiles is not supported by iopath (its data jobs keep all %u files open; openfiles=%u)",
				job->origin, job->nrfiles, job->openfiles);
	if (job->nrfiles > 1 && job->filename[0])
		return iop_errf(err, -EINVAL,
				"%s: nrfiles= with filename=: name every file in filename= (a:b:c) instead",
				job->origin);
	if (job->verify_interval && job->verify != VERIFY_NONE &&
	    (job->bs[DDIR_WRITE] % job->verify_interval || job->bs[DDIR_READ] % job->verify_interval ||
	     job->bs_max[0] != job->bs[0] || job->bs_max[1] != job->bs[1]))
		return iop_errf(err, -EINVAL,
				"%s: verify_interval=%u must divide the (fixed) block size evenly",
				job->origin, job->verify_interval);
	if (job->verify_backlog && job->verify == VERIFY_NONE)
		job->verify_backlog = 0;	/* fio: without verify it does nothing */
	if (job->verify_backlog && !job->verify_backlog_batch)
		job->verify_backlog_batch = job->verify_backlog;
	if (job->submit_offload) {
		const char *what = job->verify != VERIFY_NONE ? "verify" :
				   job->latency_target_ns ? "latency_target" :
				   job->flow ? "flow" : job->thinktime_ns ? "thinktime" :
				   job->zone_zbd ? "zonemode=zbd" :
				   job->iodepth_low && job->iodepth_low < job->iodepth ? "iodepth_low" : NULL;

		if (what)
			return iop_errf(err, -ENOTSUP,
					"%s: io_submit_mode=offload with %s is not supported by iopath",
					job->origin, what);
		if (job->engine->flags & ENGINE_FILE_POS)
			return iop_errf(err, -ENOTSUP,
					"%s: io_submit_mode=offload with ioengine=%s is not supported by iopath: its I/O threads would race on the file's one position (lseek, then read or write); use ioengine=psync",
					job->origin, job->engine->name);
	}
	if (job->dedupe_percentage && job->dedupe_working_set && !job->size)
		return iop_errf(err, -EINVAL,
				"%s: dedupe_mode=working_set needs size= (its working set is a share of it)",
				job->origin);
	if (!job->zone_strided && !job->zone_zbd && job->zone_size)
		return iop_errf(err, -EINVAL,
				"%s: zonesize= needs zonemode=strided or zbd (fio 3.33: zonemode=none and zonesize are not compatible)",
				job->origin);
	if (job->zone_zbd) {
		int zret = check_zbd(job, err);

		if (zret)
			return zret;
	}
	if (job->zone_strided && !job->zone_size)
		return iop_errf(err, -EINVAL, "%s: zonemode=strided needs zonesize=", job->origin);
	if (job->zone_strided && !job->zone_range)
		job->zone_range = job->zone_size;
	if (job->zone_strided && job->zone_range < job->bs_max[0] && job->zone_range < job->bs_max[1])
		return iop_errf(err, -EINVAL, "%s: zonerange=%llu is smaller than a block",
				job->origin, (unsigned long long)job->zone_range);
	if (job->file_append && job->rw != RW_WRITE)
		return iop_errf(err, -EINVAL, "%s: file_append needs rw=write (sequential appends)",
				job->origin);
	if (job->file_append && (job->engine->flags & ENGINE_NEEDS_MAP))
		return iop_errf(err, -EINVAL, "%s: file_append: ioengine=%s maps the file and cannot grow it",
				job->origin, job->engine->name);
	return 0;
}

int job_finish(struct job_spec *job, struct iop_err *err)
{
	const struct engine_entry *ent = engine_find(job->ioengine);
	unsigned d;
	int ret;

	if (!ent)
		return iop_errf(err, -EINVAL, "%s: unknown engine '%s'", job->origin, job->ioengine);
	job->engine = ent->ops;
	if (ent->force_direct)
		job->direct = true;
	ret = parse_engine_opts(job, ent->ops, err);
	if (ret)
		return ret;
	ret = finish_trim(job, err);
	if (ret)
		return ret;
	resolve_bs(job);
	if (job->pre_read && job->direct)
		return iop_errf(err, -EINVAL,
				"%s: pre_read=1 with direct=1: direct I/O does not use the page cache it would fill (fio 3.33 fails such a job with EIO); use direct=0",
				job->origin);
	/* fio's fixup_options: 0 or more than iodepth is iodepth (refill at once) */
	if (!job->iodepth_low || job->iodepth_low > job->iodepth)
		job->iodepth_low = job->iodepth;
	/* fio's fixup_options: pre_read keeps what it read cached (no invalidate) */
	if (job->pre_read)
		job->invalidate = false;
	job->thinktime_blocks_given = job_gave(job, "thinktime_blocks");
	for (d = 0; d < 2; d++) {
		if (job->rate[d] && job->rate_min[d] > job->rate[d])
			return iop_errf(err, -EINVAL, "%s: rate_min=%llu is above rate=%llu",
					job->origin, (unsigned long long)job->rate_min[d],
					(unsigned long long)job->rate[d]);
		if (job->rate_iops[d] && job->rate_iops_min[d] > job->rate_iops[d])
			return iop_errf(err, -EINVAL, "%s: rate_iops_min=%llu is above rate_iops=%llu",
					job->origin, (unsigned long long)job->rate_iops_min[d],
					(unsigned long long)job->rate_iops[d]);
	}
	/* fio: a non-uniform distribution disables the random map */
	if (job->random_distribution != DIST_RANDOM)
		job->norandommap = true;
	/* fio: a pattern replaces zeroing and scrambling; reads would overwrite it, so refill */
	if (job->buffer_pattern_len) {
		job->scramble_buffers = false;
		job->zero_buffers = false;
		job->refill_buffers = job->buffer_compress_percentage || job_reads(job->rw);
	}
	/* fio: compression (other than 100%) and dedupe turn refill_buffers on */
	if ((job_gave(job, "buffer_compress_percentage") && job->buffer_compress_percentage != 100) ||
	    job->dedupe_percentage)
		job->refill_buffers = true;
	/* fio: "any use of blockalign= turns off randommap" */
	if ((job->ba[0] && job->ba[0] != job->bs[0]) || (job->ba[1] && job->ba[1] != job->bs[1]))
		job->norandommap = true;
	if (job->verify != VERIFY_NONE && job->bs_unaligned &&
	    (job->bs[0] != job->bs_max[0] || job->bs[1] != job->bs_max[1]))
		return iop_errf(err, -EINVAL,
				"%s: verify with bs_unaligned cannot stamp every block (drop bs_unaligned)",
				job->origin);
	if (!job->submit_offload && job->engine->max_depth && job->iodepth > job->engine->max_depth)
		return iop_errf(err, -EINVAL, "%s: iodepth=%u is more than ioengine=%s can queue (at most %u: %s)",
				job->origin, job->iodepth, job->engine->name, job->engine->max_depth,
				job->engine->max_depth_why);
	if (job->iodepth_batch_submit == 0 || job->iodepth_batch_submit > job->iodepth)
		job->iodepth_batch_submit = job->iodepth;
	if (job->iodepth_batch_complete_min > job->iodepth)
		job->iodepth_batch_complete_min = job->iodepth;
	/* fio: not set, or below the minimum, means the minimum (so 1 by default) */
	if (job->iodepth_batch_complete_max < job->iodepth_batch_complete_min)
		job->iodepth_batch_complete_max = job->iodepth_batch_complete_min;
	if (job->iodepth_batch_complete_max > job->iodepth)
		job->iodepth_batch_complete_max = job->iodepth;
	if (job->verify != VERIFY_NONE && job->norandommap && job_rw_random(job->rw) &&
	    job_writes(job->rw))
		return iop_errf(err, -EINVAL,
				"%s: verify with norandommap on random writes cannot tell which blocks hold data (drop norandommap)",
				job->origin);
	if (job->verify != VERIFY_NONE && (job->bs[0] < 32 || job->bs[1] < 32))
		return iop_errf(err, -EINVAL, "%s: verify needs bs of at least 32 bytes", job->origin);
	if (job->verify != VERIFY_NONE && (ent->ops->flags & ENGINE_DISKLESS))
		return iop_errf(err, -EINVAL, "%s: verify needs an engine that moves data; ioengine=%s moves none",
				job->origin, ent->ops->name);
	if (job->time_based && job->runtime_ns == 0)
		return iop_errf(err, -EINVAL, "%s: time_based needs runtime=", job->origin);
	if (ent->ops->flags & ENGINE_FILE_OP) {
		const char *why = finish_fileop(job);

		if (why)
			return iop_errf(err, -EINVAL, "%s: ioengine=%s times one operation per file: %s",
					job->origin, ent->ops->name, why);
	}
	if ((ent->ops->flags & ENGINE_WRITES_ONLY) && (job_reads(job->rw) || job_trims(job->rw) ||
						       job->rw == RW_METADATA))
		return iop_errf(err, -EINVAL,
				"%s: ioengine=%s truncates on writes only: a job that reads or trims is refused (fio 3.33 fails it with EINVAL at its first I/O); use rw=write or randwrite",
				job->origin, ent->ops->name);
	return finish_mode(job, err);
}

static unsigned edit_distance(const char *a, const char *b)
{
	unsigned la = (unsigned)strlen(a), lb = (unsigned)strlen(b), i, j;
	unsigned row[64], prev, tmp;

	if (lb >= 64 || la >= 64)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;

			tmp = row[j];
			row[j] = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
			if (prev + cost < row[j])
				row[j] = prev + cost;
			prev = tmp;
		}
	}
	return row[lb];
}

struct near {
	const char *name;
	unsigned dist;
};

static void consider(struct near *best, const char *key, const char *name)
{
	unsigned d = edit_distance(key, name), i, k;

	if (strstr(name, key) && strlen(key) >= 4)
		d = d < 2 ? d : 2;
	for (i = 0; i < 3; i++) {
		if (best[i].name && !strcmp(best[i].name, name))
			return;
		if (!best[i].name || d < best[i].dist)
			break;
	}
	if (i == 3)
		return;
	for (k = 2; k > i; k--)
		best[k] = best[k - 1];
	best[i].name = name;
	best[i].dist = d;
}

void opt_suggest(const char *key, char *buf, size_t len)
{
	struct near best[3] = { { 0 } };
	const struct opt_def *o;
	const struct engine_entry *ent;
	const struct engine_option *eo;
	unsigned limit = strlen(key) > 6 ? 3 : 2, i, n = 0;
	size_t off;

	for (o = opt_table; o->name; o++) {
		consider(best, key, o->name);
		if (o->alias)
			consider(best, key, o->alias);
	}
	for (ent = engine_table; ent->name; ent++)
		for (eo = ent->ops->options; eo && eo->name; eo++)
			consider(best, key, eo->name);
	buf[0] = '\0';
	off = 0;
	for (i = 0; i < 3; i++) {
		if (!best[i].name || best[i].dist > limit)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s'%s'", n ? " or " : ", did you mean ",
					best[i].name);
		n++;
		if (off >= len)
			break;
	}
	if (n && off < len)
		snprintf(buf + off, len - off, "?");
}
