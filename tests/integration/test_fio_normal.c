/*
 * Side by side with fio (Debian's fio 3.33; skipped without it): the same job under both
 * tools gives the same normal output line for line once the numbers are taken out, and the
 * same terse fields. What is left out of the comparison, and why, is listed at shape().
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static void need_fio(void)
{
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
}

TestSuite(fio_normal, .init = need_fio, .fini = tmpdir_cleanup);

/* s with every match of pattern replaced by with, where \1..\9 are the match's groups. */
static char *subst(char *s, const char *pattern, const char *with)
{
	size_t cap = strlen(s) * 2 + 256, len = 0;
	char *out = malloc(cap), *p = s;
	regmatch_t m[10];
	regex_t re;

	cr_assert_not_null(out);
	cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0, "bad pattern %s", pattern);
	while (*p && !regexec(&re, p, 10, m, p == s || p[-1] == '\n' ? 0 : REG_NOTBOL)) {
		const char *w;

		while (len + strlen(p) + strlen(with) * 4 + 2 >= cap)
			cr_assert_not_null(out = realloc(out, cap *= 2));
		memcpy(out + len, p, (size_t)m[0].rm_so);
		len += (size_t)m[0].rm_so;
		for (w = with; *w; w++) {
			unsigned g = w[0] == '\\' && w[1] >= '1' && w[1] <= '9' ? (unsigned)(w[1] - '0') : 0;

			if (!g) {
				out[len++] = *w;
				continue;
			}
			w++;
			if (m[g].rm_so < 0)
				continue;
			memcpy(out + len, p + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
			len += (size_t)(m[g].rm_eo - m[g].rm_so);
		}
		if (m[0].rm_eo == m[0].rm_so) {	/* an empty match: keep one character, go on */
			if (!p[m[0].rm_eo])
				break;
			out[len++] = p[m[0].rm_eo];
			m[0].rm_eo++;
		}
		p += m[0].rm_eo;
	}
	while (len + strlen(p) + 1 >= cap)
		cr_assert_not_null(out = realloc(out, cap *= 2));
	strcpy(out + len, p);
	regfree(&re);
	free(s);
	return out;
}

/*
 * The normal output's structure: its lines with the numbers, units and run-specific parts
 * replaced, so that two runs of one job compare equal. Left out, as docs/fio-compat.md says:
 *  - fio's "fio: pid=N, err=..." line on a failure (iopath says it on stderr);
 *  - everything from iopath's "iopath: what was measured" section on (fio has none);
 *  - the version line's text;
 *  - the units fio 3.33 leaves out of unified_rw_reporting=both's mixed line.
 * The bw and iops sample lines depend on how long each run took (a sample each 500 ms), so
 * they are dropped unless samples is set (runs long enough for both to have them).
 */
static char *shape(const char *text, bool samples)
{
	char *s = strdup(text), *cut;

	cr_assert_not_null(s);
	cut = strstr(s, "\niopath: what was measured");
	if (cut)
		cut[1] = '\0';
	s = subst(s, "^fio: pid=.*\n", "");
	if (!samples)
		s = subst(s, "^ *(bw \\(|iops +:).*\n", "");
	s = subst(s, "^(fio-[0-9.]+|iopath-.* \\(fio-[0-9.]+\\))$", "VERSION");
	s = subst(s, ";iopath-[^;]* \\((fio-[0-9.]+)\\);", ";\\1;");	/* terse's version */
	s = subst(s, "(err= *[0-9]+)( \\(.*\\))?: pid=[0-9]+: .*$", "\\1");
	s = subst(s, "err= *0$", "err=0");
	s = subst(s, "err= *[1-9][0-9]*$", "err=ERROR");
	/* fio's latency distribution: which buckets appear is the run's */
	s = subst(s, "^  lat \\((nsec|usec|msec)\\) +: .*\n", "  LATDIST\n");
	s = subst(s, "(  LATDIST\n)+", "  LATDIST\n");
	/* percentiles: as many to a line as their width allows, so one line per list */
	s = subst(s, "\n +\\| ", " ");
	s = subst(s, "th=\\[ *[0-9]+\\]", "th=[#]");
	/* fio 3.33's mixed line of unified_rw_reporting=both has no units (and zero figures) */
	s = subst(s, "(mixed: IOPS=[^,]*, BW=[0-9.]+[kKMGTPE]?) \\(([0-9.]+[kKMGTPE]?)\\)", "\\1B/s (\\2B/s)");
	s = subst(s, "\\((nsec|usec|msec)\\)", "(U)");
	s = subst(s, "bw \\( *[KkM]i?B/s\\)", "bw (U)");
	s = subst(s, "[0-9]+(\\.[0-9]+)?[kKMGTPE]?i?(B|bit)?", "#\\2");
	s = subst(s, "= +", "=");
	s = subst(s, "  +", " ");
	/* fio ends its disk stats without a line break */
	s = subst(s, "\n*$", "\n");
	return s;
}

/* Run fio (fio true) or iopath with args (args[0] is replaced), with an empty dir/d. */
static struct run_out run_tool(bool fio, char **args, const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/d' && mkdir '%s/d'", dir, dir);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	args[0] = fio ? "fio" : "iopath";
	return fio ? prog_runv(FIO_BIN, args) : iopath_runv(args);
}

/* diff's account of how the two shapes differ (written into dir), for the message. */
static char *shape_diff(const char *dir, const char *fio, const char *iop)
{
	char path[2][300];
	const char *text[2] = { fio, iop };
	unsigned t;

	for (t = 0; t < 2; t++) {
		snprintf(path[t], sizeof(path[t]), "%s/shape.%s", dir, t ? "iopath" : "fio");
		file_write_text(path[t], text[t]);
	}
	return sh_out("diff '%s' '%s'", path[0], path[1]);
}

/*
 * The job in args (NULL-terminated, args[0] free for the tool's name; "@" in an argument is
 * replaced by a fresh directory's "d") under both tools: the same structure line for line.
 */
static void same_shape(const char *what, bool samples, const char *const *job)
{
	const char *dir = tmpdir_make();
	char *args[32], buf[32][400], *diff;
	struct run_out f, i;
	char *fs, *is;
	unsigned n;

	for (n = 1; job[n]; n++) {
		const char *at = strchr(job[n], '@');

		cr_assert_lt(n, 31u);
		if (at)
			snprintf(buf[n], sizeof(buf[n]), "%.*s%s/d%s", (int)(at - job[n]), job[n], dir,
				 at + 1);
		else
			snprintf(buf[n], sizeof(buf[n]), "%s", job[n]);
		args[n] = buf[n];
	}
	args[n] = NULL;
	f = run_tool(true, args, dir);
	i = run_tool(false, args, dir);
	cr_assert_eq(i.status == 0, f.status == 0, "%s: fio exit %d, iopath %d: %s", what, f.status,
		     i.status, i.err);
	fs = shape(f.out, samples);
	is = shape(i.out, samples);
	diff = shape_diff(dir, fs, is);
	cr_expect_str_eq(is, fs, "%s: the normal output's structure differs from fio's (< fio, > iopath):\n%s\n--- fio:\n%s\n--- iopath:\n%s",
			 what, diff, f.out, i.out);
	free(diff);
	free(fs);
	free(is);
	run_out_free(&f);
	run_out_free(&i);
}

#define FILE_JOB "--name=j", "--filename=@/f", "--size=1m", "--bs=4k"

Test(fio_normal, sync_engine)
{
	same_shape("sync", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=sync", NULL });
}

Test(fio_normal, psync_writes)
{
	same_shape("psync", false, (const char *const[]){ NULL, FILE_JOB, "--rw=write",
		   "--ioengine=psync", NULL });
}

Test(fio_normal, pvsync2_mixed)
{
	same_shape("pvsync2", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randrw",
		   "--ioengine=pvsync2", NULL });
}

Test(fio_normal, libaio_with_slat)
{
	same_shape("libaio", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=libaio", "--iodepth=4", NULL });
}

Test(fio_normal, io_uring)
{
	same_shape("io_uring", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randwrite",
		   "--ioengine=io_uring", "--iodepth=4", NULL });
}

Test(fio_normal, mmap)
{
	same_shape("mmap", false, (const char *const[]){ NULL, FILE_JOB, "--rw=read",
		   "--ioengine=mmap", NULL });
}

Test(fio_normal, null)
{
	same_shape("null", false, (const char *const[]){ NULL, "--name=j", "--size=16m",
		   "--rw=randrw", "--ioengine=null", NULL });
}

Test(fio_normal, posixaio)
{
	same_shape("posixaio", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=posixaio", "--iodepth=4", NULL });
}

/* trims of a regular file fail in both (BLKDISCARD): the failed job's lines */
Test(fio_normal, a_failed_trim)
{
	same_shape("trim", false, (const char *const[]){ NULL, FILE_JOB, "--rw=trim",
		   "--ioengine=psync", NULL });
}

Test(fio_normal, numjobs_each_reported)
{
	same_shape("numjobs=2", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=psync", "--numjobs=2", NULL });
}

Test(fio_normal, numjobs_with_group_reporting)
{
	same_shape("group_reporting", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=psync", "--numjobs=2", "--group_reporting", NULL });
}

Test(fio_normal, slat_clat_and_lat_percentiles_in_fios_order)
{
	same_shape("all percentiles", false, (const char *const[]){ NULL, FILE_JOB,
		   "--rw=randread", "--ioengine=libaio", "--lat_percentiles=1",
		   "--slat_percentiles=1", "--clat_percentiles=1", NULL });
}

Test(fio_normal, lat_percentiles_without_clat)
{
	same_shape("lat_percentiles", false, (const char *const[]){ NULL, FILE_JOB,
		   "--rw=randread", "--ioengine=psync", "--lat_percentiles=1",
		   "--clat_percentiles=0", NULL });
}

Test(fio_normal, percentile_list)
{
	same_shape("percentile_list", false, (const char *const[]){ NULL, FILE_JOB,
		   "--rw=randread", "--ioengine=psync", "--percentile_list=50:99.5:99.999", NULL });
}

Test(fio_normal, fsync_section)
{
	same_shape("fsync", false, (const char *const[]){ NULL, FILE_JOB, "--rw=write",
		   "--ioengine=psync", "--fsync=8", NULL });
}

/* long enough that both take bandwidth and IOPS samples */
Test(fio_normal, time_based_with_samples)
{
	same_shape("time_based", true, (const char *const[]){ NULL, "--name=j", "--size=16m",
		   "--rw=randread", "--ioengine=null", "--time_based", "--runtime=1200ms", NULL });
}

Test(fio_normal, rate_limited)
{
	same_shape("rate", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=psync", "--rate=4m", NULL });
}

Test(fio_normal, verify)
{
	same_shape("verify", false, (const char *const[]){ NULL, FILE_JOB, "--rw=write",
		   "--ioengine=psync", "--verify=crc32c", NULL });
}

/* cmdprio: a line and percentiles per priority (best-effort levels need no privilege) */
Test(fio_normal, cmdprio_per_priority_lines)
{
	same_shape("cmdprio", false, (const char *const[]){ NULL, FILE_JOB, "--size=4m",
		   "--rw=randread", "--ioengine=libaio", "--iodepth=4", "--cmdprio_percentage=50",
		   "--cmdprio_class=2", "--cmdprio=3", NULL });
}

Test(fio_normal, steadystate_line)
{
	same_shape("steadystate", false, (const char *const[]){ NULL, "--name=j", "--size=16m",
		   "--rw=randread", "--ioengine=null", "--time_based", "--runtime=3",
		   "--ss=iops:50%", "--ss_dur=1", NULL });
}

Test(fio_normal, disk_util_off)
{
	same_shape("disk_util=0", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=psync", "--disk_util=0", NULL });
}

Test(fio_normal, unified_rw_reporting_mixed)
{
	same_shape("mixed", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randrw",
		   "--ioengine=psync", "--unified_rw_reporting=mixed", NULL });
}

Test(fio_normal, unified_rw_reporting_both)
{
	same_shape("both", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randrw",
		   "--ioengine=psync", "--unified_rw_reporting=both", NULL });
}

Test(fio_normal, groups_and_description)
{
	same_shape("two groups", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=psync", "--description=first", "--name=k", "--filename=@/g",
		   "--size=1m", "--rw=write", "--new_group", NULL });
}

Test(fio_normal, continue_on_error_line)
{
	same_shape("continue_on_error", false, (const char *const[]){ NULL, FILE_JOB,
		   "--rw=randread", "--ioengine=psync", "--continue_on_error=all", NULL });
}

/* --output-format=normal,terse on stdout: the start lines, the terse lines, the text */
Test(fio_normal, terse_and_normal_in_fios_order)
{
	same_shape("normal,terse", false, (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=psync", "--output-format=normal,terse", NULL });
}

/* --output-format=normal,json --output=F: in F the start lines, the JSON, then the text */
Test(fio_normal, normal_and_json_in_one_file)
{
	const char *dir = tmpdir_make();
	char out[300], fopt[300];
	char *args[] = { NULL, "--name=j", "--size=4m", "--rw=read", "--ioengine=null",
			 "--output-format=normal,json", out, NULL };
	char *shapes[2];
	unsigned t;

	snprintf(fopt, sizeof(fopt), "%s/out", dir);
	snprintf(out, sizeof(out), "--output=%s", fopt);
	for (t = 0; t < 2; t++) {
		struct run_out r;
		char *text;

		unlink(fopt);
		r = run_tool(t == 0, args, dir);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_assert_eq(r.out[0], '\0', "stdout got: %s", r.out);
		run_out_free(&r);
		/* the JSON block replaced by one line, the rest kept */
		text = sh_out("sed '/^{$/,/^}$/c JSON' '%s'", fopt);
		shapes[t] = shape(text, false);
		free(text);
	}
	cr_expect_str_eq(shapes[1], shapes[0], "--- fio:\n%s\n--- iopath:\n%s", shapes[0], shapes[1]);
	free(shapes[0]);
	free(shapes[1]);
}

/* One terse field's kind: a whole number, a decimal, a percentage, a percentile, or its text. */
static const char *field_kind(const char *f, char *buf, size_t len)
{
	regex_t re;
	static const struct {
		const char *pattern, *kind;
	} kinds[] = {
		{ "^-?[0-9]+$", "INT" }, { "^-?[0-9]+\\.[0-9]+$", "FLOAT" },
		{ "^[0-9]+\\.[0-9]+%$", "PCT" }, { "^[0-9]+\\.[0-9]+%=[0-9]+$", "PCTILE" },
	};
	unsigned k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		bool match;

		cr_assert_eq(regcomp(&re, kinds[k].pattern, REG_EXTENDED | REG_NOSUB), 0);
		match = !regexec(&re, f, 0, NULL, 0);
		regfree(&re);
		if (match)
			return kinds[k].kind;
	}
	snprintf(buf, len, "'%s'", f);
	return buf;
}

/* Each terse line of both tools: as many fields, each of the same kind (the version aside). */
static void same_terse(const char *what, const char *const *job)
{
	const char *dir = tmpdir_make();
	char *args[32], buf[32][400];
	struct run_out f, i;
	unsigned n;

	for (n = 1; job[n]; n++) {
		const char *at = strchr(job[n], '@');

		if (at)
			snprintf(buf[n], sizeof(buf[n]), "%.*s%s/d%s", (int)(at - job[n]), job[n], dir,
				 at + 1);
		else
			snprintf(buf[n], sizeof(buf[n]), "%s", job[n]);
		args[n] = buf[n];
	}
	args[n] = NULL;
	f = run_tool(true, args, dir);
	i = run_tool(false, args, dir);
	cr_assert_eq(f.status | i.status, 0, "%s: %s%s", what, f.err, i.err);
	{
		char *fp = f.out, *ip = i.out, *fl, *il, *fsave = NULL, *isave = NULL;
		unsigned line = 0;

		for (fl = strtok_r(fp, "\n", &fsave), il = strtok_r(ip, "\n", &isave); fl || il;
		     fl = strtok_r(NULL, "\n", &fsave), il = strtok_r(NULL, "\n", &isave), line++) {
			char *ff, *fi, *fs2 = NULL, *is2 = NULL, kb1[96], kb2[96];
			unsigned field = 0;

			cr_assert(fl && il, "%s: fio wrote %s lines than iopath", what, fl ? "more" : "fewer");
			for (ff = strtok_r(fl, ";", &fs2), fi = strtok_r(il, ";", &is2); ff || fi;
			     ff = strtok_r(NULL, ";", &fs2), fi = strtok_r(NULL, ";", &is2), field++) {
				cr_assert(ff && fi, "%s line %u: fio has %s fields than iopath", what,
					  line + 1, ff ? "more" : "fewer");
				if (field == 1 && strstr(fi, "(fio-3.33)"))
					continue;	/* iopath's version, fio's named after it */
				cr_expect_str_eq(field_kind(fi, kb2, sizeof(kb2)),
						 field_kind(ff, kb1, sizeof(kb1)),
						 "%s line %u field %u: fio '%s', iopath '%s'", what,
						 line + 1, field + 1, ff, fi);
			}
		}
	}
	run_out_free(&f);
	run_out_free(&i);
}

Test(fio_normal, terse_v3_fields_by_kind)
{
	same_terse("v3", (const char *const[]){ NULL, FILE_JOB, "--rw=randrw", "--ioengine=libaio",
		   "--minimal", NULL });
	same_terse("v3 lat_percentiles", (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=psync", "--percentile_list=50:99", "--lat_percentiles=1",
		   "--output-format=terse", NULL });
	same_terse("v3 numjobs", (const char *const[]){ NULL, FILE_JOB, "--rw=randread",
		   "--ioengine=psync", "--numjobs=2", "--minimal", "--description=d", NULL });
	same_terse("v3 disk_util=0", (const char *const[]){ NULL, FILE_JOB, "--rw=read",
		   "--ioengine=psync", "--disk_util=0", "--minimal", NULL });
}

Test(fio_normal, terse_v2_v4_v5_fields_by_kind)
{
	static const char *const vers[] = { "--terse-version=2", "--terse-version=4",
					    "--terse-version=5" };
	unsigned v;

	for (v = 0; v < 3; v++)
		same_terse(vers[v], (const char *const[]){ NULL, FILE_JOB, "--rw=randrw",
			   "--ioengine=psync", "--minimal", vers[v], "--unified_rw_reporting=both",
			   NULL });
}
