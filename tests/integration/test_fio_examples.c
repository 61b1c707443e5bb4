/*
 * fio's own example job files: fio 3.33's (tests/jobs/fio-examples) and fio's current ones
 * (tests/jobs/fio-examples-current; see each README). Every one parses, or names a fio engine
 * iopath lacks, or is refused for the reason the table below gives it (what iopath or this
 * machine lacks, or an option fio itself refuses) - never a crash, never a silent misreading
 * - and every one that parses also runs, made short. Prints the success rate among the files
 * whose engines iopath has, and requires 95%. The NVMe passthrough examples (io_uring_cmd)
 * are counted apart: their jobs need an NVMe namespace, never a file in a scratch directory,
 * so each must parse or name the fio option iopath lacks, and one that parses must be refused
 * (exit 2) for want of a namespace; make lab-test runs the engine on the lab's NVMe.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* the XFS an atomic=1 example runs on, while it is mounted */
static char atomic_mnt[600];

static void atomic_umount(void)
{
	/* mount -o loop's device goes with the mount's last reference */
	if (atomic_mnt[0])
		umount2(atomic_mnt, MNT_DETACH);
	atomic_mnt[0] = '\0';
}

/* the temporary directories each test made go with it, the XFS unmounted first */
static void examples_cleanup(void)
{
	atomic_umount();
	tmpdir_cleanup();
}

TestSuite(fio_examples, .fini = examples_cleanup);

/* the yardsticks kept in the tree; IOPATH_FIO_EXAMPLES=DIR measures another set (scripts/fio-examples) */
#define EXAMPLES_333 "tests/jobs/fio-examples"
#define EXAMPLES_CURRENT "tests/jobs/fio-examples-current"

enum verdict { PARSES, REFUSED, FOREIGN_ENGINE, MACHINE, BY_FIO };

/*
 * The files of either set that may be refused other than for their engine, each with the
 * words its refusal must hold (a file listed may also parse and run: numa.fio on a machine
 * of two nodes). Any other refusal fails the test. BY_FIO: fio itself refuses the file
 * (checked with Debian's fio 3.33 where it is installed), so it is left out of the count.
 * iodepth_mode_stepped.fio: fio's iodepth_mode=stepped lived in target.c at the commit that
 * added this example (1a7081c7) and was dropped again: fio 3.33 rejects the option.
 */
static const struct {
	const char *file;
	enum verdict kind;
	const char *why;
} refusals[] = {
	{ "iodepth_mode_stepped.fio", BY_FIO, "unknown option 'iodepth_mode'" },
	{ "numa.fio", MACHINE, "node argument 1 out of range: not available on this machine" },
};

/* The refusal allowed for name, or -1. */
static int refusal_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		if (!strcmp(refusals[i].file, name))
			return (int)i;
	return -1;
}

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

/* Does the example write with atomic=1 (RWF_ATOMIC), which needs a file system that has it? */
static bool writes_atomic(const char *path)
{
	return !sh("grep -Eq '^[[:space:]]*atomic[[:space:]]*=[[:space:]]*1[[:space:]]*$' '%s'", path);
}

/* Do new files in dir take atomic writes (statx's STATX_WRITE_ATOMIC and its attribute)? */
static bool dir_has_atomic_writes(const char *dir)
{
	struct statx stx;
	int fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	bool ok;

	if (fd < 0)
		return false;
	memset(&stx, 0, sizeof(stx));
	ok = !statx(fd, "", AT_EMPTY_PATH, 0x10000u /* STATX_WRITE_ATOMIC */, &stx) &&
	     (stx.stx_mask & 0x10000u) && (stx.stx_attributes & 0x400000u /* ..._ATTR_ */);
	close(fd);
	return ok;
}

/*
 * A scratch XFS with reflink on a loop device, mounted at DIR/mnt (atomic_mnt): Linux 6.16 and
 * later give its files software atomic writes. false (and why) where there is none.
 */
static bool atomic_mount(const char *dir, const char **why)
{
	char img[512], where[512];

	if (!is_root()) {
		*why = "needs root to mount an XFS image on a loop device";
		return false;
	}
	if (access("/usr/sbin/mkfs.xfs", X_OK) && access("/sbin/mkfs.xfs", X_OK)) {
		*why = "mkfs.xfs is not installed (scripts/deps.sh installs xfsprogs)";
		return false;
	}
	snprintf(img, sizeof(img), "%s/xfs.img", dir);
	snprintf(where, sizeof(where), "%s/mnt", dir);
	/* 512 MiB, sparse: mkfs.xfs makes nothing under 300 MB */
	if (mkdir(where, 0755) ||
	    sh("truncate -s 512M '%s' && mkfs.xfs -q -m reflink=1 '%s' >/dev/null 2>&1", img, img)) {
		*why = "mkfs.xfs cannot make an XFS image with reflink here";
		return false;
	}
	if (sh("mount -o loop '%s' '%s' 2>/dev/null", img, where)) {
		*why = "an XFS image cannot be mounted on a loop device here (no free loop device, or no XFS in this kernel)";
		return false;
	}
	snprintf(atomic_mnt, sizeof(atomic_mnt), "%s", where);
	if (!dir_has_atomic_writes(where)) {
		*why = "this kernel gives XFS files no atomic writes (with reflink: Linux 6.16 or later)";
		atomic_umount();
		return false;
	}
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

/* Parse one file; a refusal must name a foreign engine or be the one the table allows. */
static enum verdict parse_one(const char *path, const char *name)
{
	char extra[6][512], *argv[12];
	unsigned n = 0, k, nx = invocation(name, "/nonexistent/data", extra);
	struct run_out r, lax;
	enum verdict v = PARSES;
	int allowed = refusal_of(name);

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
		/* whatever else it lacks, does the file name a fio engine iopath does not have? */
		argv[1] = "--ignore-unsupported";
		argv[n++] = "--parse-only";
		argv[n] = NULL;
		lax = iopath_runv(argv);
		if (names_foreign_engine(lax.err)) {
			v = FOREIGN_ENGINE;
		} else if (allowed >= 0 && strstr(r.err, refusals[allowed].why)) {
			v = refusals[allowed].kind;
			fprintf(stderr, "fio examples: %s refused: %.*s\n", name,
				(int)strcspn(r.err, "\n"), r.err);
		} else {
			v = REFUSED;
			cr_expect_fail("%s: refused, but not for a reason the table allows%s%s: %s", path,
				       allowed >= 0 ? " (it wants: " : "",
				       allowed >= 0 ? refusals[allowed].why : "", r.err);
		}
		run_out_free(&lax);
	}
	run_out_free(&r);
	return v;
}

/* fio itself refuses path (Debian's fio 3.33 --parse-only fails), where fio is installed. */
static void expect_fio_refuses(const char *path)
{
	char *argv[] = { "fio", "--parse-only", (char *)path, NULL };
	struct run_out r;

	if (access(FIO_BIN, X_OK))
		return;
	r = prog_runv(FIO_BIN, argv);
	cr_expect_neq(r.status, 0, "%s is counted as a file fio refuses, but fio 3.33 parses it",
		      path);
	run_out_free(&r);
}

/* Does the example drive NVMe passthrough (ioengine=io_uring_cmd), which needs a namespace? */
static bool drives_passthru(const char *path)
{
	return !sh("grep -Eq '^[[:space:]]*ioengine[[:space:]]*=[[:space:]]*io_uring_cmd[[:space:]]*$' '%s'",
		   path);
}

/*
 * A passthrough example parses, or its refusal names the fio option iopath lacks; one that
 * parses, made short onto a scratch directory's files, is refused for want of a namespace.
 */
static void check_passthru(const char *path, const char *name)
{
	const char *dir = tmpdir_make();
	char job[512], *argv[] = { "iopath", "--parse-only", (char *)path, NULL };
	struct run_out r = iopath_runv(argv);

	if (r.status) {
		cr_expect(r.status == 2 && strstr(r.err, "is not supported by iopath"),
			  "%s: exit %d, not naming the fio option iopath lacks: %s", path, r.status,
			  r.err);
		run_out_free(&r);
		tmpdir_cleanup();
		return;
	}
	run_out_free(&r);
	snprintf(job, sizeof(job), "%s/%s", dir, name);
	cr_assert_eq(sh("tests/integration/shorten-job.sh '%s' '%s' '%s'", path, job, dir), 0);
	argv[1] = job;
	argv[2] = NULL;
	r = iopath_runv(argv);
	cr_expect(r.status == 2 && strstr(r.err, "needs an NVMe namespace"),
		  "%s (shortened, on files): exit %d, not refused for want of an NVMe namespace: %s",
		  name, r.status, r.err);
	run_out_free(&r);
	tmpdir_cleanup();
}

/* file-operation examples that ran (the shortener leaves their sizes, and nrfiles below 10000) */
static unsigned fileop_whole;

/* Run one parsed file, short, in a temporary directory; MACHINE when it cannot run here. */
static enum verdict run_one(const char *path, const char *name, bool *ok_out)
{
	const char *dir = tmpdir_make(), *why = NULL, *files;
	char job[512], out[512], data[512], extra[6][512], dev[64] = "", link[600];
	const char *trimmed = needs_blockdev(name);
	char *argv[12] = { "iopath", "--output-format=json", "--output", out };
	unsigned n = 4, k, nx;
	struct run_out r;
	struct run_bg bg;
	bool ok;

	snprintf(job, sizeof(job), "%s/%s", dir, name);
	snprintf(out, sizeof(out), "%s/result.json", dir);
	/* atomic=1: the job's files on a scratch XFS that takes atomic writes */
	if (writes_atomic(path) && !atomic_mount(dir, &why)) {
		fprintf(stderr, "fio examples: %s not run: it writes with atomic=1 (RWF_ATOMIC), which needs a file system with atomic writes, and %s\n",
			name, why);
		tmpdir_cleanup();
		*ok_out = false;
		return MACHINE;
	}
	files = atomic_mnt[0] ? atomic_mnt : dir;
	snprintf(data, sizeof(data), "%s/data", files);
	nx = invocation(name, data, extra);
	if (nx)
		file_make(data, 1 << 20, 1);
	if (trimmed) {
		if (!loop_attach(dir, dev, sizeof(dev), &why)) {
			fprintf(stderr, "fio examples: %s not run: it trims, which needs a block device, and %s\n",
				name, why);
			examples_cleanup();
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

	cr_assert_eq(sh("tests/integration/shorten-job.sh '%s' '%s' '%s' %s", path, job, files,
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
	examples_cleanup();
	*ok_out = ok;
	return PARSES;
}

/* Measure the examples in dir; min_files > 0: the set kept in the tree, held to 95%. */
static void measure(const char *dir, unsigned min_files)
{
	unsigned parsed = 0, refused = 0, foreign = 0, ran = 0, machine = 0, by_fio = 0, passthru = 0;
	unsigned counted;
	struct dirent *de;
	bool ok;
	char path[1024];
	DIR *d;

	d = opendir(dir);
	cr_assert_not_null(d, "no %s (run from the source tree)", dir);
	fileop_whole = 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 4, ".fio"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (drives_passthru(path)) {
			check_passthru(path, de->d_name);
			passthru++;
			continue;
		}
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
		case BY_FIO:
			expect_fio_refuses(path);
			by_fio++;
			break;
		}
	}
	closedir(d);
	counted = parsed + refused + machine;
	fprintf(stderr,
		"fio examples: %s: %u files; %u name a fio engine iopath lacks (refused), %u fio itself refuses, %u drive NVMe passthrough (io_uring_cmd: they need a namespace); of the other %u, %u parse and %u run (%.0f%%), %u are refused naming the fio option iopath lacks, %u naming what this machine lacks\n",
		dir, counted + foreign + by_fio + passthru, foreign, by_fio, passthru, counted, parsed,
		ran, counted ? 100.0 * ran / counted : 0.0, refused, machine);
	fprintf(stderr,
		"fio examples: %u file-operation examples ran with their sizes and nrfiles=200 as written; filecreate-ioengine.fio's 16 jobs x nrfiles=31250 cut to 16 x 2000 files (500000 creations take 10 s idle, over a minute on a busy disk)\n",
		fileop_whole);
	if (min_files) {
		cr_assert_geq(counted + foreign + by_fio + passthru, min_files, "%s: files are missing",
			      dir);
		cr_expect_geq(100 * ran, 95 * counted,
			      "%s: %u of %u examples with iopath's engines parse and run, under 95%%",
			      dir, ran, counted);
	}
}

static bool other_set(void)
{
	const char *dir = getenv("IOPATH_FIO_EXAMPLES");

	return dir && *dir;
}

Test(fio_examples, fio_333_examples_parse_or_are_refused_with_the_reason_and_run,
     .timeout = 240)
{
	if (other_set())
		cr_skip_test("IOPATH_FIO_EXAMPLES measures another set");
	measure(EXAMPLES_333, 86);
}

Test(fio_examples, current_examples_parse_or_are_refused_with_the_reason_and_run,
     .timeout = 240)
{
	if (other_set())
		cr_skip_test("IOPATH_FIO_EXAMPLES measures another set");
	measure(EXAMPLES_CURRENT, 118);
}

/* scripts/fio-examples DIR: any directory of fio job files, measured the same way */
Test(fio_examples, another_set_given_by_iopath_fio_examples, .timeout = 600)
{
	if (!other_set())
		cr_skip_test("no IOPATH_FIO_EXAMPLES=DIR given (scripts/fio-examples DIR sets it)");
	measure(getenv("IOPATH_FIO_EXAMPLES"), 0);
}
