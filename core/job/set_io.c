/* Option setters for the workload's shape: rw, block sizes, sizes, files, distributions, patterns, rate. */
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


#include "job/setters.h"

int bad_value(struct iop_err *err, const struct opt_def *o, const char *val,
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

int set_rw(struct job_spec *job, const struct opt_def *o, const char *val,
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

int set_rwmix(struct job_spec *job, const struct opt_def *o, const char *val,
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
int dir_parts(const char *val, char buf[2][DIR_PART_MAX], const char *part[2])
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

/*
 * fio's handle_option splits a number option's value at a ',', else a ':', else a '-', part by
 * part: bs=4k-512k is reads 4k, writes 512k (a range is bsrange's), bs=4k:8k:16k three sizes.
 * out: the value with those separators as commas (at most len bytes); false when too long.
 */
static bool fio_value_parts(const char *val, char *out, size_t len)
{
	const char *s = val;
	size_t n = strlen(val);

	if (n >= len)
		return false;
	memcpy(out, val, n + 1);
	for (;;) {
		const char *sep = strchr(s, ',');

		if (!sep)
			sep = strchr(s, ':');
		if (!sep)
			sep = strchr(s, '-');
		if (!sep)
			return true;
		out[sep - val] = ',';
		s = sep + 1;
	}
}

/*
 * One part of bs as fio reads it: a part that a ',' ended keeps its ':' or '-' (fio splits at
 * ',' first), and fio's number parser stops at them, so bs=4k-512k,64k reads 4k and writes 64k
 * (the 512k is nothing to fio). The same here: the size before the first ':' or '-' (after a
 * leading "(...)" expression, whole); what follows one must still be sizes, else refused.
 */
static int parse_bs_part(const struct job_spec *job, const char *s, uint32_t *out)
{
	char lead[DIR_PART_MAX], rest[DIR_PART_MAX];
	size_t n = *s == '(' ? strlen(s) : strcspn(s, ":-,");
	const char *p;
	uint32_t ignored;

	if (!s[n])
		return parse_bs_value(job, s, out);
	if (n >= sizeof(lead))
		return -EINVAL;
	memcpy(lead, s, n);
	lead[n] = '\0';
	for (p = s + n; *p; p += n) {
		p++;
		n = strcspn(p, ":-,");
		if (n >= sizeof(rest))
			return -EINVAL;
		memcpy(rest, p, n);
		rest[n] = '\0';
		if (parse_bs_value(job, rest, &ignored))
			return -EINVAL;
	}
	return parse_bs_value(job, lead, out);
}

/* bs=4k or bs=4k,64k (read, write[, trim]); an empty part keeps that direction's value. */
int set_bs(struct job_spec *job, const struct opt_def *o, const char *val,
		  struct iop_err *err)
{
	char buf[2][DIR_PART_MAX], parts[3 * DIR_PART_MAX];
	const char *part[2];
	uint32_t v[2] = { job->bs[0], job->bs[1] }, trim = 0;
	const char *third;
	unsigned d;

	if (!fio_value_parts(val, parts, sizeof(parts)))
		return bad_value(err, o, val, "a size such as 4k, or read,write sizes such as 4k,64k");
	val = parts;
	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, "a size such as 4k, or read,write sizes such as 4k,64k");
	for (d = 0; d < 2; d++)
		if (part[d] && parse_bs_part(job, part[d], &v[d]))
			return iop_errf(err, -EINVAL,
					"option %s: bad size '%s' (accepted: 1 byte to 1g, e.g. 4k or 4k,64k)",
					o->name, part[d]);
	/* the trim size: the third part, else the write size (fio's rule) */
	third = strchr(val, ',');
	third = third ? strchr(third + 1, ',') : NULL;
	if (third && third[1] && parse_bs_part(job, third + 1, &trim))
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

int set_bsrange(struct job_spec *job, const struct opt_def *o, const char *val,
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
	/* smallest share first (stable), the order fio 3.33 sorts them in (bs_cmp) and draws */
	for (i = 1; i < nr; i++) {
		struct bs_split t = out[i];

		for (j = i; j > 0 && out[j - 1].perc > t.perc; j--)
			out[j] = out[j - 1];
		out[j] = t;
	}
	*nr_out = nr;
	return 0;
}

int set_bssplit(struct job_spec *job, const struct opt_def *o, const char *val,
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

int set_ba(struct job_spec *job, const struct opt_def *o, const char *val,
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

int set_filesize(struct job_spec *job, const struct opt_def *o, const char *val,
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

int set_file_service(struct job_spec *job, const struct opt_def *o, const char *val,
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

/* spr_op=F: sprandom's over-provisioning, above 0 and below 5/3 (a write amplification above 1) */
int set_spr_op(struct job_spec *job, const struct opt_def *o, const char *val,
	       struct iop_err *err)
{
	char *end;
	double v = strtod(val, &end);

	if (end == val || *end || !(v > 0.0) || !(v < 5.0 / 3.0))
		return bad_value(err, o, val, "a fraction above 0 and below 1.667, e.g. 0.15");
	job->spr_op = v;
	return 0;
}

/* random_distribution=sequence:N,N,...: block indices, in blocks of the job's random offsets */
static int parse_sequence(struct job_spec *job, const struct opt_def *o, const char *val,
			  const char *rest, struct iop_err *err)
{
	const char *p = rest;
	char *end;

	do {
		if (job->nr_dist_seq == SEQUENCE_MAX)
			return iop_errf(err, -EINVAL,
					"option %s: '%s' has more than %d indices (accepted: up to %d block indices, e.g. sequence:2,0,1)",
					o->name, val, SEQUENCE_MAX, SEQUENCE_MAX);
		if (!isdigit((unsigned char)*p))
			return bad_value(err, o, val, "sequence:index,index,... (block indices from 0, e.g. sequence:2,0,1)");
		errno = 0;
		job->dist_seq[job->nr_dist_seq++] = strtoull(p, &end, 10);
		if (errno || (*end && *end != ','))
			return bad_value(err, o, val, "sequence:index,index,... (block indices from 0, e.g. sequence:2,0,1)");
		p = end + (*end == ',');
	} while (*end);
	return 0;
}

/* random_distribution=random | zipf[:theta[:center]] | pareto[:h[:center]] |
 * normal[:dev[:center]] | zoned:a/s:... | zoned_abs:a/size:... (per direction) | sequence:N,... */
int set_random_distribution(struct job_spec *job, const struct opt_def *o,
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
		{ "zoned_abs", DIST_ZONED_ABS, 0 }, { "sequence", DIST_SEQUENCE, 0 },
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
				 "random, zipf[:theta[:center]], pareto[:h[:center]], normal[:deviation[:center]], zoned:access/percent:..., zoned_abs:access/size:..., sequence:index,index,...");
	job->random_distribution = dists[i].dist;
	job->dist_arg = dists[i].def;
	job->dist_center = -1.0;
	job->nr_zones[0] = job->nr_zones[1] = 0;
	rest = colon ? colon + 1 : "";
	job->nr_dist_seq = 0;
	if (dists[i].dist == DIST_RANDOM)
		return *rest ? bad_value(err, o, val, "random takes no value") : 0;
	if (dists[i].dist == DIST_SEQUENCE)
		return parse_sequence(job, o, val, rest, err);
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
		char num[24], *e;
		size_t k = *s == '-' ? 1 : 0;
		long v;
		unsigned u;

		/* digits up to a following 0x: "-120xdeadface" is -12 then 0xdeadface, as fio reads it */
		while (isdigit((unsigned char)s[k]) && k < sizeof(num) - 1 &&
		       !(s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X') && k > (*s == '-' ? 1u : 0u)))
			k++;
		memcpy(num, s, k);
		num[k] = 0;
		v = strtol(num, &e, 10);
		if (e == num || *e || v > INT_MAX || v < INT_MIN)
			return -EINVAL;
		e = (char *)s + k;
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

int parse_pattern_fmt(const struct opt_def *o, const char *val, unsigned char *out,
		      const char *example, uint16_t *fmt_off, unsigned *nr_fmt, struct iop_err *err)
{
	const char *s = val;
	size_t len = 0;
	int n;

	if (nr_fmt)
		*nr_fmt = 0;
	while (*s) {
		if (fmt_off && s[0] == '%' && s[1] == 'o') {
			/* fio's parse_format: the offset's 8 bytes, zero until an I/O pastes its own */
			if (*nr_fmt == PATTERN_FMT_MAX || PATTERN_MAX - len < 8)
				return iop_errf(err, -EINVAL,
						"option %s: '%s' has more %%o than fit (accepted: at most %u %%o, each 8 bytes, in %u bytes of pattern)",
						o->name, val, PATTERN_FMT_MAX, PATTERN_MAX);
			memset(out + len, 0, 8);
			fmt_off[(*nr_fmt)++] = (uint16_t)len;
			len += 8;
			s += 2;
			continue;
		}
		n = pattern_token(&s, out + len, PATTERN_MAX - len);
		if (n < 0)
			return iop_errf(err, -EINVAL,
					"option %s: cannot read '%s' at '%s' (accepted: 0x hex bytes, \"strings\", 'files', decimal numbers, combined, at most %u bytes)",
					o->name, val, s, PATTERN_MAX);
		len += (size_t)n;
	}
	return len ? (int)len : bad_value(err, o, val, example);
}

int parse_pattern(const struct opt_def *o, const char *val, unsigned char *out,
		  const char *example, struct iop_err *err)
{
	return parse_pattern_fmt(o, val, out, example, NULL, NULL, err);
}

int set_buffer_pattern(struct job_spec *job, const struct opt_def *o, const char *val,
			      struct iop_err *err)
{
	int n = parse_pattern(o, val, job->buf.pattern, "a pattern such as 0xdeadbeef or \"abcd\"",
			      err);

	if (n < 0)
		return n;
	job->buf.pattern_len = (unsigned)n;
	return 0;
}

/* rate=, rate_min= (bytes/s), rate_iops=, rate_iops_min= (I/Os per second), per direction. */
int set_rate(struct job_spec *job, const struct opt_def *o, const char *val,
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
		/* fio reads rate_iops as any integer option, as a size: "3k" is 3072 I/Os per second */
		if (parse_size(part[d], job->kb_base, &v))
			return iop_errf(err, -EINVAL, "option %s: bad value '%s' (accepted: %s)",
					o->name, part[d], iops ?
					"a whole number of I/Os per second with an optional k/m suffix" :
					"bytes per second with an optional k/m/g suffix");
		field[d] = v;
	}
	return 0;
}

/*
 * percentage_random=R[,W[,T]]: percents from 0 to 100, one for every direction or read, write
 * and trim in turn (a missing trim takes the write's, an empty part leaves its direction), as
 * fio's integer options with three fields read them.
 */
int set_perc_rand(struct job_spec *job, const struct opt_def *o, const char *val,
		  struct iop_err *err)
{
	char buf[2][DIR_PART_MAX];
	const char *part[3], *third = strchr(val, ',');
	unsigned v[3], d;
	uint64_t n;

	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, "a percent from 0 to 100, or read,write[,trim] percents such as 50,10");
	third = third ? strchr(third + 1, ',') : NULL;
	part[2] = third ? (third[1] ? third + 1 : NULL) : part[1];
	for (d = 0; d < 3; d++) {
		if (!part[d])
			continue;
		if (parse_u64(part[d], &n) || n > 100)
			return iop_errf(err, -EINVAL, "option %s: bad value '%s' (accepted: 0 to 100)",
					o->name, part[d]);
		v[d] = (unsigned)n;
	}
	for (d = 0; d < 3; d++)
		if (part[d])
			job->perc_rand[d] = v[d];
	return 0;
}

/*
 * max_latency=R[,W[,T]]: a time for every direction, or read, write and trim in turn (a
 * missing trim takes the write's, an empty part leaves its direction), bare numbers in
 * microseconds, as fio's time options with three fields read them.
 */
int set_max_latency(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	char buf[2][DIR_PART_MAX];
	const char *part[3], *third = strchr(val, ',');
	uint64_t v[3];
	unsigned d;

	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, "a time (bare: microseconds), or read,write[,trim] times such as 10ms,50ms");
	third = third ? strchr(third + 1, ',') : NULL;
	part[2] = third ? (third[1] ? third + 1 : NULL) : part[1];
	for (d = 0; d < 3; d++)
		if (part[d] && parse_time_ns(part[d], 1000ull, &v[d]))
			return iop_errf(err, -EINVAL,
					"option %s: bad time '%s' (accepted: microseconds, or a number with s/ms/us)",
					o->name, part[d]);
	for (d = 0; d < 3; d++)
		if (part[d])
			job->max_lat_ns[d] = v[d];
	return 0;
}

/*
 * sync_file_range=FLAG[,FLAG...][:N]: sync_file_range(2) over the range written since the last
 * sync, every N writes (1 without :N), with the flags named (wait_before, write, wait_after
 * ORed together), as fio's str_sfr_cb and its FIO_OPT_STR_MULTI read them.
 */
int set_sync_file_range(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	static const struct { const char *name; unsigned flag; } words[] = {
		{ "wait_before", 1 }, { "write", 2 }, { "wait_after", 4 },
	};
	const char *p = val, *colon = strchr(val, ':');
	unsigned flags = 0, i;
	uint64_t n = 1;

	if (colon && (parse_u64(colon + 1, &n) || !n || n > UINT32_MAX))
		return iop_errf(err, -EINVAL, "option %s: bad count '%s' (accepted: a number of writes from 1)",
				o->name, colon + 1);
	while (p < (colon ? colon : val + strlen(val))) {
		size_t len = strcspn(p, ",:");

		for (i = 0; i < 3 && !(strlen(words[i].name) == len && !strncmp(p, words[i].name, len)); i++)
			;
		if (i == 3)
			return bad_value(err, o, val, "wait_before, write, wait_after (several with ','), then :N writes");
		flags |= words[i].flag;
		p += len + (p[len] == ',');
	}
	if (!flags)
		return bad_value(err, o, val, "wait_before, write, wait_after (several with ','), then :N writes");
	job->sfr_flags = flags;
	job->sfr_blocks = (uint32_t)n;
	return 0;
}

/* thinktime, thinktime_spin: fio reads a bare number as microseconds. */
int set_usec_time(struct job_spec *job, const struct opt_def *o, const char *val,
			 struct iop_err *err)
{
	if (parse_time_ns(val, 1000ull, (uint64_t *)((char *)job + o->off)))
		return iop_errf(err, -EINVAL,
				"option %s: bad time '%s' (accepted: microseconds, or a number with s/ms/us)",
				o->name, val);
	return 0;
}

int set_thinktime_blocks_type(struct job_spec *job, const struct opt_def *o,
				     const char *val, struct iop_err *err)
{
	if (!strcmp(val, "complete"))
		job->think.issue = false;
	else if (!strcmp(val, "issue"))
		job->think.issue = true;
	else
		return bad_value(err, o, val, "complete, issue");
	return 0;
}

/* percentile_list=99:99.9:... (fio's float_list: at most 20, each in (0, 100]), sorted. */
int set_percentile_list(struct job_spec *job, const struct opt_def *o, const char *val,
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
int set_log_name(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	char *field = (char *)job + o->off;

	if (val && strlen(val) >= o->size)
		return iop_errf(err, -ENAMETOOLONG, "option %s: name longer than %zu bytes", o->name,
				o->size - 1);
	snprintf(field, o->size, "%s", val ? val : "");
	if (!strcmp(o->name, "write_bw_log"))
		job->log.bw_set = true;
	else if (!strcmp(o->name, "write_iops_log"))
		job->log.iops_set = true;
	else if (!strcmp(o->name, "write_hist_log"))
		job->log.hist_set = true;
	else
		job->log.lat_set = true;
	return 0;
}

int set_fallocate(struct job_spec *job, const struct opt_def *o, const char *val,
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

bool dist_arg_valid(enum rand_dist type, double arg)
{
	switch (type) {
	case DIST_ZIPF:
		return arg > 0.0 && arg != 1.0;
	case DIST_PARETO:
		return arg > 0.0 && arg < 1.0;
	case DIST_NORMAL:
		return arg >= 0.0 && arg < 100.0;
	default:
		return false;
	}
}
