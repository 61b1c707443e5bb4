/*
 * fio's own example job files (tests/jobs/fio-examples, see its README): every one parses or
 * is refused as "not supported by iopath" (or, for what this machine lacks, "not available on
 * this machine") - never a crash, never a silent misreading - and
 * every one that parses also runs, made short. Prints the success rate among the files whose
 * engines iopath has.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* the temporary directories each test made go with it */
TestSuite(fio_examples, .fini = tmpdir_cleanup);

/* the yardstick kept in the tree; IOPATH_FIO_EXAMPLES=DIR measures another set (scripts/fio-examples) */
#define EXAMPLES "tests/jobs/fio-examples"

enum verdict { PARSES, REFUSED, FOREIGN_ENGINE, MACHINE };

/*
 * Files that fio itself runs only with options on the command line, given here as the file's
 * own usage notes give them ("@DATA": a 1 MiB file in the run's directory, made first).
 * xnvme-compare.fio: "fio examples/xnvme-compare.fio --section=default --ioengine=io_uring
 * --sqthread_poll=1 --filename=/dev/nvme0n1" (its override section needs FIO_RW, FIO_BS and
 * FIO_IODEPTH, and allow_file_create=0 an existing file: without them fio refuses it too);
 * xnvme-zoned.fio likewise, with the zonesize= its notes ask for where fio cannot read the
 * zone size from the device. The zbd-* files name zoned devices that exist: a file made
 * first stands in for them (fio sizes emulated zones from what exists, as iopath does), and
 * --allow-overwrite lets the write job write the file iopath did not create.
 */
static const struct {
	const char *file;
	const char *args[6];
	const char *env;	/* NAME=VALUE the file's notes set, or NULL */
} invocations[] = {
	/* fio's later examples, with what their notes give (xnvme-fdp.fio, xnvme-pi.fio: no
	 * ioengine in the file, --ioengine=xnvme in every usage note; sprandom.fio: bs=${FIO_BS},
	 * a device it overwrites) */
	{ "xnvme-fdp.fio", { "--section=default", "--ioengine=xnvme", "--filename=@DATA", NULL }, NULL },
	{ "xnvme-pi.fio", { "--ioengine=xnvme", "--filename=@DATA", NULL }, NULL },
	{ "sprandom.fio", { "--ioengine=io_uring", "--filename=@DATA", "--allow-overwrite", NULL },
	  "FIO_BS=4k" },
	{ "xnvme-compare.fio",
	  { "--section=default", "--ioengine=io_uring", "--sqthread_poll=1", "--filename=@DATA",
	    NULL }, NULL },
	{ "xnvme-zoned.fio",
	  { "--section=default", "--ioengine=io_uring", "--sqthread_poll=1", "--filename=@DATA",
	    "--zonesize=512k", "--allow-overwrite" }, NULL },
	{ "zbd-rand-write.fio", { "--allow-overwrite", NULL }, NULL },
	{ "zbd-seq-read.fio", { "--allow-overwrite", NULL }, NULL },
};

/*
 * Files whose meaning needs a block device: fio 3.33 trims (rw=randtrim...) with BLKDISCARD,
 * which a regular file refuses (ENOTTY, the job fails, in fio as in iopath). Shortened with
 * their file names kept apart, the file their trim jobs use becomes a symlink to a fresh loop
 * device (root only); enospc-pressure's verifier keeps its own file, as in the original.
 */
static const struct {
	const char *file;
	const char *trimmed;	/* the filename= the trim jobs use */
} blockdev_examples[] = {
	{ "enospc-pressure.fio", "raicer" },
};

static const char *needs_blockdev(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(blockdev_examples) / sizeof(blockdev_examples[0]); i++)
		if (!strcmp(blockdev_examples[i].file, name))
			return blockdev_examples[i].trimmed;
	return NULL;
}

/* A fresh 16 MiB loop device, its path in dev; false (and why) where there is none. */
static bool loop_attach(const char *dir, char *dev, size_t len, const char **why)
{
	char img[512], cmd[1100];
	FILE *p;
	bool ok;

	if (!is_root()) {
		*why = "needs root for a loop device";
		return false;
	}
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	snprintf(cmd, sizeof(cmd), "truncate -s 16m %s && losetup -f --show %s 2>/dev/null", img,
		 img);
	p = popen(cmd, "r");
	ok = p && fgets(dev, (int)len, p) && !strncmp(dev, "/dev/", 5);
	if (p)
		pclose(p);
	if (!ok) {
		*why = "no free loop device";
		return false;
	}
	dev[strcspn(dev, "\n")] = '\0';
	return true;
}

/*
 * The invocation's arguments for name, "@DATA" replaced by data (NULL: none); the environment
 * variable its notes set is set (and any other one's unset).
 */
static unsigned invocation(const char *name, const char *data, char args[6][512])
{
	unsigned i, k;

	for (i = 0; i < sizeof(invocations) / sizeof(invocations[0]); i++)
		if (invocations[i].env) {
			char var[64];

			snprintf(var, sizeof(var), "%.*s", (int)strcspn(invocations[i].env, "="),
				 invocations[i].env);
			if (!strcmp(invocations[i].file, name))
				setenv(var, strchr(invocations[i].env, '=') + 1, 1);
			else
				unsetenv(var);
		}
	for (i = 0; i < sizeof(invocations) / sizeof(invocations[0]); i++) {
		if (strcmp(invocations[i].file, name))
			continue;
		for (k = 0; k < 6 && invocations[i].args[k]; k++) {
			const char *at = strstr(invocations[i].args[k], "@DATA");

			if (at)
				snprintf(args[k], 512, "%.*s%s", (int)(at - invocations[i].args[k]),
					 invocations[i].args[k], data);
			else
				snprintf(args[k], 512, "%s", invocations[i].args[k]);
		}
		return k;
	}
	return 0;
}

/*
 * Does a refusal name the job's engine (one of fio's iopath lacks, or one fio has no more),
 * rather than an option of an engine iopath has ("option 'cmdprio' of fio's ... ioengine")?
 */
static bool names_foreign_engine(const char *err)
{
	return strstr(err, "option ioengine: fio's") || strstr(err, "option ioengine: unknown engine");
}

/* Parse one file; a refusal must be iopath's explained "not supported" kind. */
static enum verdict parse_one(const char *path, const char *name)
{
	char extra[6][512], *argv[12];
	unsigned n = 0, k, nx = invocation(name, "/nonexistent/data", extra);
	struct run_out r, lax;
	enum verdict v = PARSES;

	argv[n++] = "iopath";
	argv[n++] = "--parse-only";
	for (k = 0; k < nx; k++)
		argv[n++] = extra[k];
	argv[n++] = (char *)path;
	argv[n] = NULL;
	r = iopath_runv(argv);

	cr_expect(r.status == 0 || r.status == 2, "%s: exit %d (a crash?): %s", path, r.status,
		  r.err);
	if (r.status) {
		/* iopath lacks the feature, or this machine does (numa.fio's node 1: fio
		 * refuses it on a one-node machine too) */
		cr_expect(strstr(r.err, "not supported by iopath") ||
			  strstr(r.err, "not available on this machine") ||
			  strstr(r.err, "option ioengine: unknown engine"),
			  "%s: refused, but not as an unsupported fio feature: %s", path, r.err);
		/* whatever else it lacks, does the file name a fio engine iopath does not have? */
		argv[1] = "--ignore-unsupported";
		argv[n++] = "--parse-only";
		argv[n] = NULL;
		lax = iopath_runv(argv);
		v = names_foreign_engine(lax.err) ? FOREIGN_ENGINE :
		    strstr(r.err, "not available on this machine") ? MACHINE : REFUSED;
		if (v != FOREIGN_ENGINE)
			fprintf(stderr, "fio examples: %s refused: %.*s\n", name,
				(int)strcspn(r.err, "\n"), r.err);
		run_out_free(&lax);
	}
	run_out_free(&r);
	return v;
}

/* file-operation examples that ran (the shortener leaves their sizes, and nrfiles below 10000) */
static unsigned fileop_whole;

/* Run one parsed file, short, in a temporary directory; MACHINE when it cannot run here. */
static enum verdict run_one(const char *path, const char *name, bool *ok_out)
{
	const char *dir = tmpdir_make(), *why = NULL;
	char job[512], out[512], data[512], extra[6][512], dev[64] = "", link[600];
	const char *trimmed = needs_blockdev(name);
	char *argv[12] = { "iopath", "--output-format=json", "--output", out };
	unsigned n = 4, k, nx;
	struct run_out r;
	struct run_bg bg;
	bool ok;

	snprintf(job, sizeof(job), "%s/%s", dir, name);
	snprintf(out, sizeof(out), "%s/result.json", dir);
	snprintf(data, sizeof(data), "%s/data", dir);
	nx = invocation(name, data, extra);
	if (nx)
		file_make(data, 1 << 20, 1);
	if (trimmed) {
		if (!loop_attach(dir, dev, sizeof(dev), &why)) {
			fprintf(stderr, "fio examples: %s not run: it trims, which needs a block device, and %s\n",
				name, why);
			tmpdir_cleanup();
			*ok_out = false;
			return MACHINE;
		}
		snprintf(link, sizeof(link), "%s-%s", data, trimmed);
		cr_assert_eq(symlink(dev, link), 0);
	}
	for (k = 0; k < nx; k++)
		argv[n++] = extra[k];
	argv[n++] = job;
	argv[n] = NULL;

	cr_assert_eq(sh("tests/integration/shorten-job.sh '%s' '%s' '%s' %s", path, job, dir,
		        trimmed ? "names" : ""), 0);
	/* in the temporary directory: what a job writes by relative name (logs) stays there */
	bg = iopath_startv(argv, dir);
	r = iopath_wait(&bg, 120);
	ok = r.status == 0;
	cr_expect(ok, "%s (shortened) did not run: exit %d: %s", name, r.status, r.err);
	if (ok && !strncmp(name, "file", 4) && strstr(name, "-ioengine.fio"))
		fileop_whole++;
	run_out_free(&r);
	if (dev[0])
		sh("losetup -d %s 2>/dev/null", dev);
	tmpdir_cleanup();
	*ok_out = ok;
	return PARSES;
}

Test(fio_examples, each_parses_or_is_refused_as_unsupported_and_each_that_parses_runs,
     .timeout = 240)
{
	unsigned parsed = 0, refused = 0, foreign = 0, ran = 0, machine = 0;
	struct dirent *de;
	bool ok;
	char path[1024];
	const char *dir = getenv("IOPATH_FIO_EXAMPLES");
	bool own = !dir || !*dir;
	DIR *d;

	if (own)
		dir = EXAMPLES;
	d = opendir(dir);
	cr_assert_not_null(d, "no %s (run from the source tree)", dir);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 4, ".fio"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		switch (parse_one(path, de->d_name)) {
		case PARSES:
			if (run_one(path, de->d_name, &ok) == MACHINE) {
				machine++;
				break;
			}
			parsed++;
			ran += ok;
			break;
		case REFUSED:
			refused++;
			break;
		case FOREIGN_ENGINE:
			foreign++;
			break;
		case MACHINE:
			machine++;
			break;
		}
	}
	closedir(d);
	if (own)
		cr_assert_gt(parsed + refused + foreign + machine, 80);
	fprintf(stderr,
		"fio examples: %u files; %u name a fio engine iopath lacks (refused); of the other %u, %u parse and %u run (%.0f%%), %u are refused naming the fio option iopath lacks, %u naming what this machine lacks\n",
		parsed + refused + foreign + machine, foreign, parsed + refused + machine, parsed, ran,
		100.0 * ran / (parsed + refused + machine), refused, machine);
	fprintf(stderr,
		"fio examples: %u file-operation examples ran with their sizes and nrfiles=200 as written; filecreate-ioengine.fio's 16 jobs x nrfiles=31250 cut to 16 x 2000 files (500000 creations take 10 s idle, over a minute on a busy disk)\n",
		fileop_whole);
}
