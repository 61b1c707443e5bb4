/* fio's cmdprio options: a priority per I/O for a share of each direction's I/Os (libaio, io_uring). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "job/setters.h"

/*
 * cmdprio_percentage (0-100), cmdprio_class (1-3) and cmdprio (the level, 0-7): one value for
 * reads and writes, or "read,write", as fio's two-offset integer options.
 */
int set_cmdprio_int(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	unsigned *field = (unsigned *)((char *)job + o->off);
	char buf[2][DIR_PART_MAX];
	const char *part[2];
	uint64_t v[2] = { 0, 0 };
	unsigned d;

	if (dir_parts(val, buf, part))
		goto bad;
	for (d = 0; d < 2; d++)
		if (part[d] && (parse_u64(part[d], &v[d]) || v[d] < o->min || v[d] > o->max))
			goto bad;
	for (d = 0; d < 2; d++)
		if (part[d])
			field[d] = (unsigned)v[d];
	return 0;
bad:
	return iop_errf(err, -EINVAL,
			"option %s: bad value '%s' (accepted: a whole number %llu-%llu, or read,write values such as %llu,%llu)",
			o->name, val, o->min, o->max, o->min, o->max);
}

/*
 * One entry of a cmdprio_bssplit list: "bs/perc", "bs/perc/class/level" or
 * "bs/perc/class/level/hint" with hint 0 ("bs" and "bs/" are a share of 0, which fio skips). Class 0 is best-effort, as fio's ioprio_value makes it.
 * Where fio clamps (a share past 100, a class past 3, a level past 7) iopath refuses.
 */
static int split_entry(const struct job_spec *job, char *s, struct cmdprio_split *e,
		       char *why, size_t len)
{
	char *field[5];
	uint64_t bs, num[3] = { 0, 0, 0 }, hint;
	unsigned n = 0, i;

	while (n < 5 && (field[n] = strsep(&s, "/")))
		n++;
	if (n == 3 || (n == 5 && s)) {
		snprintf(why, len, "'%s/...' has %s fields (bs/percent, bs/percent/class/level or bs/percent/class/level/hint)",
			 field[0], n == 3 ? "3" : "too many");
		return -EINVAL;
	}
	/* the five-field form (fio 3.36's priority hint last): fio 3.33 reads the first four */
	if (n == 5) {
		if (parse_u64(field[4], &hint) || hint) {
			snprintf(why, len, "the priority hint '%s' of '%s/...' is not supported by iopath (accepted: 0, no hint; fio 3.33 ignores the field)",
				 field[4], field[0]);
			return -EINVAL;
		}
		n = 4;
	}
	if (parse_size(field[0], job->kb_base, &bs) || !bs || bs > (1u << 30)) {
		snprintf(why, len, "bad block size '%s'", field[0]);
		return -EINVAL;
	}
	/* "bs/": a share of 0 */
	for (i = 1; i < n && !(n == 2 && !*field[1]); i++) {
		if (parse_u64(field[i], &num[i - 1])) {
			snprintf(why, len, "bad number '%s'", field[i]);
			return -EINVAL;
		}
	}
	if (num[0] > 100 || (n == 4 && (num[1] > 3 || num[2] > 7))) {
		snprintf(why, len, "%s out of range in '%s/%s%s%s%s%s'",
			 num[0] > 100 ? "the share" : num[1] > 3 ? "the class" : "the level",
			 field[0], field[1], n == 4 ? "/" : "", n == 4 ? field[2] : "",
			 n == 4 ? "/" : "", n == 4 ? field[3] : "");
		return -EINVAL;
	}
	e->bs = (uint32_t)bs;
	e->perc = (uint16_t)num[0];
	e->prio = n == 4 ? IOPRIO_VALUE(num[1] ? num[1] : IOPRIO_CLASS_BE, num[2]) : 0;
	return 0;
}

/* One direction's list: entries with a share, sorted by block size (stable), each size <= 100%. */
static int parse_split_dir(const struct job_spec *job, char *list, struct cmdprio_split *out,
			   unsigned *nr, char *why, size_t len)
{
	struct cmdprio_split e;
	unsigned n = 0, i, j, tot;
	char *ent;

	while ((ent = strsep(&list, ":"))) {
		if (!*ent)
			continue;
		if (split_entry(job, ent, &e, why, len))
			return -EINVAL;
		if (!e.perc)
			continue;	/* fio: a share of 0 says nothing */
		if (n == BSSPLIT_MAX) {
			snprintf(why, len, "more than %u entries", BSSPLIT_MAX);
			return -EINVAL;
		}
		for (i = n; i && out[i - 1].bs > e.bs; i--)
			out[i] = out[i - 1];
		out[i] = e;
		n++;
	}
	for (i = 0; i < n; i = j) {
		for (j = i, tot = 0; j < n && out[j].bs == out[i].bs; j++)
			tot += out[j].perc;
		if (tot > 100) {
			snprintf(why, len, "the shares for block size %u add up to %u%%, more than 100",
				 out[i].bs, tot);
			return -EINVAL;
		}
	}
	*nr = n;
	return 0;
}

/*
 * cmdprio_bssplit: fio 3.33's "bs/perc[/class/level]:..." per direction ("reads,writes"), a
 * later value replacing an earlier one whole, as fio keeps the string.
 */
int set_cmdprio_bssplit(struct job_spec *job, const struct opt_def *o, const char *val,
			struct iop_err *err)
{
	char buf[2][DIR_PART_MAX], why[128];
	const char *part[2];
	unsigned d;

	job->nr_cmdprio_split[0] = job->nr_cmdprio_split[1] = 0;
	job->cmdprio_bssplit_given = false;
	if (!*val)
		return 0;
	if (dir_parts(val, buf, part))
		return bad_value(err, o, val, "bs/percent[/class/level]:..., e.g. 64k/25/1/1:64k/75/3/2:1m/0");
	/* dir_parts gives one buffer for both directions when there is no comma: parse a copy */
	if (part[0] == part[1] && part[0]) {
		memcpy(buf[1], buf[0], sizeof(buf[1]));
		part[1] = buf[1];
	}
	for (d = 0; d < 2; d++) {
		if (part[d] && parse_split_dir(job, (char *)part[d], job->cmdprio_split[d],
					       &job->nr_cmdprio_split[d], why, sizeof(why)))
			return iop_errf(err, -EINVAL,
					"option %s: '%s': %s (accepted: bs/percent[/class/level]:..., class 1-3, level 0-7, shares per size up to 100, ',' between read and write)",
					o->name, val, why);
	}
	job->cmdprio_bssplit_given = true;
	return 0;
}
