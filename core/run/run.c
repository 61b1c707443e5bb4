/* The runner: plans jobs, starts their workers group by group, and collects results. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <sys/time.h>

#include "io/file.h"
#include "io/flow.h"
#include "run/meta.h"
#include "base/cpulist.h"
#include "run/run.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "run/worker.h"
#include "run/runner.h"

static uint32_t job_unit(const struct job_spec *job)
{
	if (!job_reads(job->rw))
		return job->bs[DDIR_WRITE];
	if (!job_writes(job->rw))
		return job->bs[DDIR_READ];
	return job->bs[0] < job->bs[1] ? job->bs[0] : job->bs[1];
}

/* Granularity of random offsets: blockalign, else the smallest block size. */
static uint32_t job_align(const struct job_spec *job)
{
	uint32_t a[2], d;

	for (d = 0; d < 2; d++)
		a[d] = job->ba[d] ? job->ba[d] : job->bs[d];
	if (!job_reads(job->rw))
		return a[DDIR_WRITE];
	if (!job_writes(job->rw))
		return a[DDIR_READ];
	return a[0] < a[1] ? a[0] : a[1];
}

static uint32_t used_max(const struct job_spec *job, const uint32_t v[2])
{
	if (!job_reads(job->rw))
		return v[DDIR_WRITE];
	if (!job_writes(job->rw))
		return v[DDIR_READ];
	return v[0] > v[1] ? v[0] : v[1];
}

/* filesize=low-high: each file's size drawn in the range, in whole units, repeatably. */
static uint64_t random_file_size(const struct job_spec *job, uint32_t unit, unsigned i)
{
	uint64_t lo = job->filesize_range[0], hi = job->filesize_range[1], seed, v;
	struct rng r;

	if (lo == hi)
		return lo / unit * unit;
	seed = (job->randseed_set ? job->randseed : 0xf11e5) + i;
	rng_seed(&r, seed);
	v = lo + rng_below(&r, hi - lo + 1);
	return v / unit * unit;
}

static bool may_overwrite(const struct job_spec *job, const struct target_policy *pol)
{
	return job->overwrite || pol->allow_overwrite;
}

static int check_access(const struct job_spec *job, const char *path, bool write,
			struct iop_err *err)
{
	if (!faccessat(AT_FDCWD, path, write ? R_OK | W_OK : R_OK, AT_EACCESS))
		return 0;
	return iop_errf(err, -errno, "job %s: cannot open %s for %s: %s", job->name, path,
			write ? "writing" : "reading", strerror(errno));
}

/* A file that does not exist yet: its directory must exist and take new files. */
static int check_new_file(const struct job_spec *job, const char *path, struct iop_err *err)
{
	char dir[PATH_MAX];
	struct stat st;
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &st))
		return iop_errf(err, -errno, "job %s: cannot create %s: directory %s: %s", job->name,
				path, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return iop_errf(err, -ENOTDIR, "job %s: cannot create %s: %s is not a directory",
				job->name, path, dir);
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		return iop_errf(err, -errno, "job %s: cannot create %s in %s: %s", job->name, path,
				dir, strerror(errno));
	return 0;
}

/* With direct=1, block sizes and the offset must suit the alignment direct I/O needs there. */
static int check_dio_align(const struct job_spec *job, uint64_t offset, const char *path,
			   bool exists, struct iop_err *err)
{
	char source[128];
	uint32_t align = target_dio_align(path, exists, source, sizeof(source));
	unsigned d;

	if (align <= 1)
		return 0;
	for (d = DDIR_READ; d <= DDIR_WRITE; d++) {
		if (d == DDIR_READ ? !job_reads(job->rw) : !job_writes(job->rw))
			continue;
		if (job->bs[d] % align)
			return iop_errf(err, -EINVAL,
					"job %s: bs=%u with direct=1 on %s: direct I/O there needs sizes and offsets in multiples of %u bytes (%s); use a multiple of %u, or direct=0",
					job->name, job->bs[d], path, align, source, align);
	}
	if (offset % align)
		return iop_errf(err, -EINVAL,
				"job %s: offset=%llu with direct=1 on %s: direct I/O there needs offsets in multiples of %u bytes (%s)",
				job->name, (unsigned long long)offset, path, align, source);
	return 0;
}

/*
 * Refuse, before anything is written, what a job must not or cannot do to one of its
 * files: write (or extend, laying it out) a file iopath did not create, write a block
 * device that holds data, open what it cannot open, misalign direct I/O.
 */
static int check_target(const struct job_spec *job, const struct job_plan *plan,
			const struct target_policy *pol, const char *path, struct iop_err *err)
{
	bool writes = job_changes_files(job), blk;
	bool creates = job->engine->flags & ENGINE_NO_LAYOUT;
	uint64_t need = worker_start(plan, plan->nr_workers - 1) + plan->region, size;
	int ret = file_size(path, &size, &blk);

	/* filecreate opens its files read-write and leaves an existing one as it is */
	if (creates)
		need = 0;

	if (ret == -ENOENT) {
		if (pol->readonly)
			return iop_errf(err, -EROFS,
					"job %s: %s does not exist, and --readonly forbids creating it",
					job->name, path);
		if (!job->allow_file_create)
			return iop_errf(err, -ENOENT,
					"job %s: %s does not exist, and allow_file_create=0 forbids creating it",
					job->name, path);
		ret = check_new_file(job, path, err);
		return ret ? ret : job->direct ? check_dio_align(job, plan->offset, path, false, err) : 0;
	}
	if (ret)
		return iop_errf(err, ret, "job %s: %s: %s", job->name, path, strerror(-ret));
	if (blk && writes) {
		ret = target_check_blockdev(path, pol, job->name, err);
		if (ret)
			return ret;
	}
	if (pol->readonly && !blk && size < need)
		return iop_errf(err, -EROFS,
				"job %s: %s is %llu bytes, the job reads %llu, and --readonly forbids extending it (give a smaller size=)",
				job->name, path, (unsigned long long)size, (unsigned long long)need);
	ret = check_access(job, path, writes || creates || (!blk && size < need), err);
	if (ret)
		return ret;
	if (blk && (job->engine->flags & ENGINE_FILE_OP))
		return iop_errf(err, -EINVAL, "job %s: ioengine=%s operates on regular files only; %s is a block device (as in fio)",
				job->name, job->engine->name, path);
	if (!blk && !may_overwrite(job, pol) && !target_owned(path)) {
		if (job->engine->flags & ENGINE_REMOVES)
			return iop_errf(err, -EEXIST,
					"job %s: ioengine=%s would delete %s, which iopath did not create (give overwrite=1 in the job, or --allow-overwrite, to allow it)",
					job->name, job->engine->name, path);
		if (job->unlink)
			return iop_errf(err, -EEXIST,
					"job %s: unlink=1 would remove %s, which iopath did not create (give overwrite=1 in the job, or --allow-overwrite, to allow it)",
					job->name, path);
		if (writes)
			return iop_errf(err, -EEXIST,
					"job %s: %s exists and was not created by iopath; this write job would overwrite it (give overwrite=1 in the job, or --allow-overwrite, to allow it)",
					job->name, path);
		if (size < need)
			return iop_errf(err, -EEXIST,
					"job %s: %s is %llu bytes and was not created by iopath; laying out the %llu bytes the job reads would write to it (give a smaller size=, or overwrite=1 / --allow-overwrite)",
					job->name, path, (unsigned long long)size,
					(unsigned long long)need);
	}
	return job->direct ? check_dio_align(job, plan->offset, path, true, err) : 0;
}

/* size=N% and offset=N% take the smallest of the job's existing files as their base. */
static int plan_percentages(const struct job_spec *job, struct job_plan *plan, uint64_t *size,
			    struct iop_err *err)
{
	unsigned i, nr_paths = plan->shared ? plan->nr_files : plan->nr_files * plan->nr_workers;
	uint64_t fsize, smallest = UINT64_MAX, room;
	bool blk;
	int ret;

	for (i = 0; i < nr_paths; i++) {
		ret = file_size(plan->paths[i], &fsize, &blk);
		if (ret)
			return iop_errf(err, ret, "job %s: %s=%u%% needs %s to exist: %s", job->name,
					job->size_pct ? "size" : job->offset_pct ? "offset" :
					"offset_increment", job->size_pct ? job->size_pct :
					job->offset_pct ? job->offset_pct : job->offset_increment_pct,
					plan->paths[i], strerror(-ret));
		smallest = fsize < smallest ? fsize : smallest;
	}
	if (job->offset_increment_pct) {
		plan->offset_increment = smallest / 100 * job->offset_increment_pct +
					 smallest % 100 * job->offset_increment_pct / 100;
		plan->offset_increment = plan->offset_increment / plan->unit * plan->unit;
	}
	if (job->offset_pct) {
		/* fio aligns a percentage offset to the smallest block size */
		plan->offset = smallest / 100 * job->offset_pct +
			       smallest % 100 * job->offset_pct / 100;
		plan->offset = plan->offset / plan->unit * plan->unit;
	}
	room = smallest > plan->offset ? smallest - plan->offset : 0;
	if (job->size_pct) {
		fsize = smallest / 100 * job->size_pct + smallest % 100 * job->size_pct / 100;
		*size = (fsize < room ? fsize : room) * plan->nr_files;
	} else if (!job->size) {
		*size = room * plan->nr_files;
	}
	return 0;
}

/*
 * fill_device without size=: fio writes until ENOSPC; the space free in the file's
 * filesystem now (plus what the file already holds) is as far as that can go.
 */
static uint64_t fill_size(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct statvfs vfs;
	struct stat st;
	uint64_t have = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		have = (uint64_t)st.st_size;
	if (statvfs(dir, &vfs))
		return 0;
	return (uint64_t)vfs.f_bavail * vfs.f_frsize + have;
}

static int plan_sizes(const struct job_spec *job, struct job_plan *plan,
		      const struct target_policy *pol, struct iop_err *err)
{
	uint64_t size = job->size, fsize, total = 0;
	unsigned i, nr_paths = plan_nr_paths(plan);
	bool diskless = job->engine->flags & ENGINE_DISKLESS, blk;
	int ret;

	plan->file_len = calloc(nr_paths, sizeof(*plan->file_len));
	plan->file_have = calloc(nr_paths, sizeof(*plan->file_have));
	plan->file_missing = calloc(nr_paths, sizeof(*plan->file_missing));
	if (!plan->file_len || !plan->file_have || !plan->file_missing)
		return iop_errf(err, -ENOMEM, "job %s: out of memory", job->name);
	plan->offset = job->offset;
	plan->offset_increment = job->offset_increment;
	if ((job->size_pct || job->offset_pct || job->offset_increment_pct) && diskless)
		return iop_errf(err, -EINVAL, "job %s: size, offset or offset_increment as a percentage needs files; ioengine=%s has none",
				job->name, job->engine->name);
	if (job->size_pct || job->offset_pct || job->offset_increment_pct) {
		ret = plan_percentages(job, plan, &size, err);
		if (ret)
			return ret;
	}
	for (i = 0; !diskless && i < nr_paths; i++) {
		ret = file_size(plan->paths[i], &fsize, &blk);
		plan->file_missing[i] = ret == -ENOENT;
		if (ret == -ENOENT)
			continue;
		if (ret == -EISDIR)
			return iop_errf(err, -EISDIR, "job %s: %s is a directory; filename= needs a file (or use directory=)",
					job->name, plan->paths[i]);
		if (ret == -EINVAL)
			return iop_errf(err, -EINVAL, "job %s: %s is neither a regular file nor a block device",
					job->name, plan->paths[i]);
		if (ret)
			return iop_errf(err, ret, "job %s: %s: %s", job->name, plan->paths[i],
					strerror(-ret));
		if (!blk && !fsize && !job_changes_files(job) && !may_overwrite(job, pol) &&
		    !target_owned(plan->paths[i]))
			return iop_errf(err, -ENODATA,
					"job %s: %s is empty and was not created by iopath: a read job needs data in it (give a file holding data, or overwrite=1 / --allow-overwrite to let iopath lay it out)",
					job->name, plan->paths[i]);
		plan->blockdev |= blk;
		plan->file_have[i] = fsize;
		if (!job->size && !job->size_pct && !job->offset_pct && !job->filesize_range[0] &&
		    (size == 0 || fsize < size))
			size = fsize > plan->offset ? (fsize - plan->offset) * plan->nr_files : 0;
	}
	if (job->filesize_range[0]) {
		/*
		 * filesize= sets each file's size, the I/O going from offset= to its end; size= then
		 * only caps the I/O (fio). Each worker moves its own files' bytes.
		 */
		if (!plan->shared) {
			plan->worker_total = calloc(plan->nr_workers, sizeof(*plan->worker_total));
			if (!plan->worker_total)
				return iop_errf(err, -ENOMEM, "job %s: out of memory", job->name);
		}
		for (i = 0; i < nr_paths; i++) {
			fsize = random_file_size(job, plan->unit, i);
			if (fsize <= plan->offset)
				return iop_errf(err, -EINVAL,
						"job %s: offset=%llu is not below filesize %llu (fio: you need to specify valid offset=)",
						job->name, (unsigned long long)plan->offset,
						(unsigned long long)fsize);
			plan->file_len[i] = fsize - plan->offset;
			if (plan->file_len[i] < plan->max_bs)
				return iop_errf(err, -EINVAL, "job %s: filesize %llu%s is smaller than bs=%u",
						job->name, (unsigned long long)plan->file_len[i],
						plan->offset ? " after offset=" : "", plan->max_bs);
			if (plan->file_len[i] > plan->region)
				plan->region = plan->file_len[i];
			if (i < plan->nr_files)
				total += plan->file_len[i];
			if (plan->worker_total)
				plan->worker_total[i / plan->nr_files] += plan->file_len[i];
		}
		plan->worker_bytes = job->size && job->size < total ? job->size : total;
		for (i = 0; plan->worker_total && i < plan->nr_workers; i++)
			if (job->size && job->size < plan->worker_total[i])
				plan->worker_total[i] = job->size;
		goto check;
	}
	if (!size && job->fill_device && !diskless && job_writes(job->rw))
		size = fill_size(plan->paths[0]);
	if (!size)
		return iop_errf(err, -EINVAL,
				"job %s: size= not given and %s does not exist or is empty (give size=, e.g. size=1g)",
				job->name, diskless ? "the job has no file" : plan->paths[0]);
	plan->region = size / plan->nr_files / plan->unit * plan->unit;
	if (plan->region < plan->max_bs)
		return iop_errf(err, -EINVAL, "job %s: size %llu per file is smaller than bs=%u",
				job->name, (unsigned long long)(size / plan->nr_files), plan->max_bs);
	for (i = 0; i < nr_paths; i++)
		plan->file_len[i] = plan->region;
	plan->worker_bytes = plan->region * plan->nr_files;
check:
	for (i = 0; !diskless && i < nr_paths; i++) {
		ret = check_target(job, plan, pol, plan->paths[i], err);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * rw=copy: the source is copy_from (laid out to size= when missing or shorter); the copy
 * moves size= bytes, or the whole source, exactly, into the destination filename=.
 */
static int plan_copy(const struct job_spec *job, struct job_plan *plan,
		     const struct target_policy *pol, struct iop_err *err)
{
	uint64_t fsize = 0;
	bool blk = false;
	int ret;

	ret = file_path(job, job->copy_from, plan->copy_src, err);
	if (ret)
		return ret;
	if (plan->nr_files != 1)
		return iop_errf(err, -EINVAL, "job %s: rw=copy writes one destination file; filename= names %u",
				job->name, plan->nr_files);
	if (!strcmp(plan->copy_src, plan->paths[0]))
		return iop_errf(err, -EINVAL, "job %s: rw=copy: copy_from and filename are the same file (%s)",
				job->name, plan->copy_src);
	ret = file_size(plan->copy_src, &fsize, &blk);
	if (ret && !(ret == -ENOENT && job->size))
		return iop_errf(err, ret, "job %s: copy_from %s: %s%s", job->name, plan->copy_src,
				strerror(-ret), ret == -ENOENT ? " (give size= to create it)" : "");
	plan->region = job->size ? job->size : fsize;
	if (blk && plan->region > fsize)
		return iop_errf(err, -EINVAL, "job %s: copy_from %s holds %llu bytes, fewer than size=",
				job->name, plan->copy_src, (unsigned long long)fsize);
	if (!plan->region)
		return iop_errf(err, -EINVAL, "job %s: copy_from %s is empty", job->name, plan->copy_src);
	if (job->direct && plan->region % 512)
		return iop_errf(err, -EINVAL,
				"job %s: rw=copy with direct=1 needs a size that is a multiple of 512 (%llu is not); use direct=0 or size=",
				job->name, (unsigned long long)plan->region);
	plan->copy_src_blockdev = blk;
	if (!ret && !blk && fsize < plan->region && !may_overwrite(job, pol) &&
	    !target_owned(plan->copy_src))
		return iop_errf(err, -EEXIST,
				"job %s: copy_from %s is %llu bytes and was not created by iopath; laying out the %llu bytes to copy would write to it (give a smaller size=, or overwrite=1 / --allow-overwrite)",
				job->name, plan->copy_src, (unsigned long long)fsize,
				(unsigned long long)plan->region);
	if (!ret) {
		ret = check_access(job, plan->copy_src, false, err);
		if (ret)
			return ret;
	}
	if (!file_size(plan->paths[0], &fsize, &blk))
		plan->blockdev = blk;
	return check_target(job, plan, pol, plan->paths[0], err);
}

/* rw=metadata: one tree root per worker, <directory>/<job>.<clone>.meta. */
static int plan_metadata(const struct job_spec *job, struct job_plan *plan, struct iop_err *err)
{
	uint64_t dirs = meta_nr_dirs(job->nrfiles, job->files_per_dir);
	char name[JOB_NAME_MAX + 32], path[PATH_MAX];
	unsigned c;
	int ret;

	if (meta_depth(dirs, job->dir_fanout) > 32)
		return iop_errf(err, -EINVAL,
				"job %s: rw=metadata: %u files, %u per directory, fan-out %u makes a tree deeper than 32 levels (raise files_per_dir or dir_fanout)",
				job->name, job->nrfiles, job->files_per_dir, job->dir_fanout);
	for (c = 0; c < plan->nr_workers; c++) {
		snprintf(name, sizeof(name), "%s.%u.meta", job->name, c);
		ret = file_path(job, name, path, err);
		if (ret)
			return ret;
		if (paths_add(&plan->names, path))
			return iop_errf(err, -ENOMEM, "job %s: out of memory", job->name);
	}
	plan->paths = plan->names.v;
	plan->nr_files = 1;
	plan->unit = plan->max_bs = 4096;
	return 0;
}

/* The process's TSC clock, calibrated when a job first needs it. */
static struct tsc_clock run_tsc;
static bool run_tsc_ready;

#define TSC_CALIBRATE_NS 20000000ull	/* 20 ms: a few ppm, against reads some 30 ns wide */

/*
 * A job's clock: clocksource=clock_gettime, =cpu, or fio's default, the CPU clock where it is
 * reliable and clock_gettime elsewhere.
 */
static int plan_clock(const struct job_spec *job, struct job_plan *plan, struct iop_err *err)
{
	char why[160];
	int ret;

	plan->tsc = NULL;
	if (job->clocksource == CLOCK_GETTIME)
		return 0;
	if (!tsc_usable(why, sizeof(why))) {
		if (job->clocksource == CLOCK_CPU)
			return iop_errf(err, -ENOTSUP,
					"job %s: clocksource=cpu: %s (accepted here: clock_gettime)",
					job->name, why);
		return 0;
	}
	if (!run_tsc_ready) {
		ret = tsc_calibrate(&run_tsc, TSC_CALIBRATE_NS);
		if (ret && job->clocksource == CLOCK_CPU)
			return iop_errf(err, ret, "job %s: clocksource=cpu: calibrating the TSC: %s",
					job->name, strerror(-ret));
		if (ret)
			return 0;
		run_tsc_ready = true;
	}
	plan->tsc = &run_tsc;
	return 0;
}

static int plan_job(const struct job_spec *job, const struct target_policy *pol,
		    struct job_plan *plan, struct iop_err *err)
{
	struct stat st;
	unsigned c, d;
	int n;

	memset(plan, 0, sizeof(*plan));
	plan->job = job;
	plan->pol = pol;
	if (pol->readonly && (job_writes(job->rw) || job->rw == RW_METADATA))
		return iop_errf(err, -EROFS,
				"job %s: rw=%s writes or trims, and --readonly forbids writes and trims",
				job->name, job_rw_name(job->rw));
	if (pol->readonly && job->unlink)
		return iop_errf(err, -EROFS, "job %s: unlink=1 removes its files, and --readonly forbids that",
				job->name);
	if (pol->readonly && (job->engine->flags & ENGINE_NO_LAYOUT))
		return iop_errf(err, -EROFS, "job %s: ioengine=%s creates its files, and --readonly forbids that",
				job->name, job->engine->name);
	if (pol->readonly && job_changes_files(job))
		return iop_errf(err, -EROFS,
				"job %s: ioengine=%s changes or removes its files whatever the direction, and --readonly forbids that",
				job->name, job->engine->name);
	plan->nr_workers = job->numjobs;
	plan->unit = job_unit(job);
	plan->align = job_align(job);
	plan->max_bs = used_max(job, job->bs_max);
	for (d = 0; job->verify != VERIFY_NONE && d < 2; d++) {
		if (!(d == DDIR_READ ? job_reads(job->rw) : job_writes(job->rw)))
			continue;
		if (job->bs[d] % plan->unit || job->bs_max[d] % plan->unit)
			return iop_errf(err, -EINVAL, "job %s: verify needs every block size to be a multiple of the smallest (%u)",
					job->name, plan->unit);
	}
	if (job->directory[0] && stat(job->directory, &st))
		return iop_errf(err, -errno, "job %s: directory %s: %s", job->name, job->directory,
				strerror(errno));
	if (job->directory[0] && !S_ISDIR(st.st_mode))
		return iop_errf(err, -ENOTDIR, "job %s: directory %s: not a directory", job->name,
				job->directory);
	if (job->rw == RW_METADATA)
		return plan_metadata(job, plan, err);
	plan->shared = job->filename[0] != '\0';
	for (c = 0; c < (plan->shared ? 1 : plan->nr_workers); c++) {
		n = file_names(job, c, &plan->names, err);
		if (n < 0)
			return n;
		plan->nr_files = (unsigned)n;
	}
	plan->paths = plan->names.v;
	if (job->rw == RW_COPY)
		return plan_copy(job, plan, pol, err);
	return plan_sizes(job, plan, pol, err);
}

/*
 * The copy's source gets its bytes if it lacks them; the destination starts empty, as a new
 * file from cp does (or at full length when the engine must map it).
 */
static int layout_copy(const struct job_plan *plan, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	uint64_t dst_len = job->engine->flags & ENGINE_NEEDS_MAP ? plan->region : 0;
	int ret = 0;

	if (!plan->copy_src_blockdev)
		ret = file_layout(job, plan->copy_src, plan->region, true, plan->unit, err);
	if (!ret)
		ret = check_target(job, plan, plan->pol, plan->paths[0], err);
	if (!ret && !plan->blockdev)
		ret = file_truncate(plan->paths[0], dst_len, err);
	return ret;
}

/* The end of what path i must hold: the last worker's start (offset_increment) + region. */
static uint64_t layout_end(const struct job_plan *plan, unsigned i)
{
	const struct job_spec *job = plan->job;
	unsigned last = plan->shared ? plan->nr_workers - 1 : i / plan->nr_files;
	uint64_t end = worker_start(plan, last) + plan->file_len[i];

	if (!job->size && !job->filesize_range[0] && plan->file_have[i] &&
	    end > plan->file_have[i])
		end = plan->file_have[i];
	return end;
}

static int layout_job(const struct job_plan *plan, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	/* filestat and filedelete: fio lays their files out with data, whatever the direction */
	bool fill = job_reads(job->rw) || (job->engine->flags & ENGINE_FILE_OP);
	bool writes = job_changes_files(job);
	unsigned i, nr_paths = plan->shared ? plan->nr_files : plan->nr_files * plan->nr_workers;
	int ret;

	if (job->rw == RW_COPY)
		return layout_copy(plan, err);
	if (job->rw == RW_METADATA)
		return 0;
	if (job->engine->flags & ENGINE_DISKLESS || plan->blockdev)
		return 0;
	if (!fill && !writes)
		return 0;
	if (job->create_on_open || (job->engine->flags & ENGINE_NO_LAYOUT)) {
		/* fio: no layout, the job's open creates the file */
		for (i = 0; i < nr_paths; i++) {
			ret = check_target(job, plan, plan->pol, plan->paths[i], err);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (job->file_append) {
		/* appends grow the file themselves: only make sure it exists */
		for (i = 0; i < nr_paths; i++) {
			ret = check_target(job, plan, plan->pol, plan->paths[i], err);
			if (!ret)
				ret = file_layout(job, plan->paths[i], 0, false, plan->unit, err);
			if (ret)
				return ret;
		}
		return 0;
	}
	for (i = 0; i < nr_paths; i++) {
		/* again: time has passed since planning, and earlier groups have run */
		ret = check_target(job, plan, plan->pol, plan->paths[i], err);
		if (ret)
			return ret;
		ret = file_layout(job, plan->paths[i], layout_end(plan, i), fill, plan->unit, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* write_*_log: each worker's files exist, empty, before it starts (fio creates them too). */
static int create_logs(const struct job_plan *plan, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	char path[PATH_MAX];
	unsigned c, k;
	int ret;

	if (!iolog_wanted(job))
		return 0;
	for (c = 0; c < plan->nr_workers; c++) {
		for (k = 0; k < LOG_KINDS; k++) {
			if (!(k == LOG_BW ? job->bw_log_set : k == LOG_IOPS ? job->iops_log_set :
			      job->lat_log_set))
				continue;
			ret = iolog_path(job, worker_thread_number(plan, c), k, path, sizeof(path));
			if (!ret)
				ret = iolog_create(path);
			if (ret)
				return iop_errf(err, ret, "job %s: log file %s: %s", job->name, path,
						strerror(-ret));
		}
	}
	return 0;
}

/* unlink=1: remove the job's files once it is done, as fio does (regular files only). */
static void unlink_job_files(const struct job_plan *plan)
{
	unsigned i;

	if (!plan->job->unlink || plan->job->rw == RW_METADATA || !plan->paths ||
	    (plan->job->engine->flags & ENGINE_DISKLESS))
		return;
	for (i = 0; i < plan_nr_paths(plan); i++)
		/* never a file iopath did not create, unless the user allowed it (checked at plan) */
		if ((target_owned(plan->paths[i]) || may_overwrite(plan->job, plan->pol)) &&
		    !file_remove(plan->paths[i]))
			target_remove(plan->paths[i]);	/* and its sidecar, if it has one */
}

/* What the probe must find out about a job's paths to check it: trials, and O_DIRECT honesty. */
static unsigned probe_flags_for(const struct job_spec *job)
{
	const char *e = job->engine->name;
	unsigned flags = 0;

	if (job->direct || !strcmp(e, "io_uring") || !strcmp(e, "libaio") || !strcmp(e, "mmap"))
		flags |= PROBE_TRIALS;
	if (job->direct)
		flags |= PROBE_TIMING;
	return flags;
}

static void add_target(struct group_job *gj, struct probe_set *s, const char *path,
		       unsigned flags)
{
	const struct probed_dir *d;
	char dir[PATH_MAX];
	struct stat st;
	unsigned i;

	/* a block device is described by its own probe run, not by the directory holding it */
	if (!stat(path, &st) && S_ISBLK(st.st_mode))
		return;
	probe_dir_of(path, dir);
	for (i = 0; i < gj->nr_targets; i++)
		if (!strcmp(gj->targets[i]->dir, dir))
			return;
	if (gj->nr_targets == sizeof(gj->targets) / sizeof(gj->targets[0]))
		return;
	d = probe_set_need(s, dir, flags);
	if (d)
		gj->targets[gj->nr_targets++] = d;
}

/* Probe the directories a job's files live in (once per run, or per suite). */
static void probe_job(struct group_job *gj, struct probe_set *s)
{
	const struct job_plan *plan = &gj->plan;
	const struct job_spec *job = plan->job;
	unsigned flags = probe_flags_for(job), i;
	unsigned nr_paths = plan->shared ? plan->nr_files : plan->nr_files * plan->nr_workers;

	if (job->engine->flags & ENGINE_DISKLESS)
		return;
	if (job->rw == RW_METADATA) {
		add_target(gj, s, job->directory[0] ? job->directory : ".", flags);
		return;
	}
	for (i = 0; i < nr_paths; i++)
		add_target(gj, s, plan->paths[i], flags);
	if (job->rw == RW_COPY)
		add_target(gj, s, plan->copy_src, flags);
}

/* fio's disk_util: note the block devices under the files of every job that asks for it. */
static int plan_disks(const struct job_list *jobs, const struct group_job *gjs,
		      struct run_results *out, struct iop_err *err)
{
	struct disk_set *s = calloc(1, sizeof(*s));
	unsigned i, k, nr_paths;
	int ret = 0;

	if (!s)
		return iop_errf(err, -ENOMEM, "out of memory");
	disk_set_init(s, NULL);
	for (i = 0; i < jobs->nr && !ret; i++) {
		const struct job_plan *plan = &gjs[i].plan;
		const struct job_spec *job = &jobs->jobs[i];

		if (!job->disk_util || (job->engine->flags & ENGINE_DISKLESS))
			continue;
		if (job->rw == RW_METADATA) {
			ret = disk_set_add_path(s, job->directory[0] ? job->directory : ".");
			continue;
		}
		nr_paths = plan->shared ? plan->nr_files : plan->nr_files * plan->nr_workers;
		for (k = 0; k < nr_paths && !ret; k++)
			ret = disk_set_add_path(s, plan->paths[k]);
		if (!ret && job->rw == RW_COPY)
			ret = disk_set_add_path(s, plan->copy_src);
	}
	if (ret || !s->nr) {
		disk_set_free(s);
		free(s);
		return ret ? iop_errf(err, ret, "out of memory") : 0;
	}
	out->disks = s;
	return 0;
}

/*
 * Refuse a job whose engine, or whose paths as probed, cannot do what it asks, before it
 * starts. A direct=1 job on a path whose O_DIRECT a cache answers runs, flagged.
 */
static int check_capabilities(struct group_job *gj, struct iop_err *err)
{
	const struct job_spec *job = gj->plan.job;
	const struct engine_ops *ops = job->engine;
	char why[320];
	unsigned i;

	if (job->direct && (ops->flags & ENGINE_NO_DIRECT))
		return iop_errf(err, -EINVAL,
				"job %s: ioengine=%s cannot do direct=1: it works through the page cache (use direct=0, or psync/libaio/io_uring for O_DIRECT)",
				job->name, ops->name);
	for (i = 0; i < gj->nr_targets; i++) {
		const struct probed_dir *d = gj->targets[i];

		if (d->error)
			continue;
		if (probe_refuses(&d->p, job->direct, ops->name, why, sizeof(why)))
			return iop_errf(err, -EINVAL, "job %s: refused before starting: %s (%s)",
					job->name, why,
					job->direct ? "try direct=0, or another path" : "try another ioengine");
		if (job->direct && !gj->direct_suspect &&
		    probe_direct_suspect(&d->p, why, sizeof(why))) {
			gj->direct_suspect = true;
			snprintf(gj->direct_note, sizeof(gj->direct_note), "%s", why);
		}
	}
	return 0;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

static void result_init(struct job_result *r, const struct job_spec *job, unsigned clone)
{
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->spec = job;
	r->clone = clone;
	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&r->dir[i]);
	snprintf(r->engine_name, sizeof(r->engine_name), "%s", job->engine->name);
}

/* The worker's times on the phase's clock, and under MPI what it moved while all ranks ran. */
static void result_add_span(struct job_result *r, const struct fleet_worker *f, bool first)
{
	if (f->end_ns <= f->start_ns)
		return;
	if (first || f->start_ns < r->start_ns)
		r->start_ns = f->start_ns;
	if (first || f->end_ns > r->end_ns)
		r->end_ns = f->end_ns;
	if (f->window_end_ns <= f->window_start_ns)
		return;
	if (!r->window_end_ns || f->window_start_ns > r->window_start_ns)
		r->window_start_ns = f->window_start_ns;
	if (!r->window_end_ns || f->window_end_ns < r->window_end_ns)
		r->window_end_ns = f->window_end_ns;
	r->window_bytes += f->window_bytes;
	r->window_ios += f->window_ios;
}

/* The steady-state window of the worker that holds it, oldest sample first, as fio prints it. */
static int result_add_ss(struct job_result *r, const struct worker *w)
{
	const struct ss_data *ss = &w->ss;
	unsigned i, j;

	r->ss = calloc(1, sizeof(*r->ss));
	if (!r->ss)
		return -ENOMEM;
	r->ss->bw = calloc(ss->dur, sizeof(uint64_t));
	r->ss->iops = calloc(ss->dur, sizeof(uint64_t));
	if (!r->ss->bw || !r->ss->iops)
		return -ENOMEM;
	r->ss->dur = ss->dur;
	r->ss->attained = ss->attained;
	r->ss->criterion = ss->criterion;
	r->ss->deviation = ss->deviation;
	r->ss->slope = ss->slope;
	for (i = 0, j = ss->head; i < ss->dur; i++, j = (j + 1) % ss->dur) {
		r->ss->bw[i] = ss->bw[j];
		r->ss->iops[i] = ss->iops[j];
	}
	return 0;
}

/* The union of the workers' CPUs, as the applied setting "cpus" (a list, "0-3,5"). */
static void result_note_cpus(struct job_result *r, const struct worker *w)
{
	unsigned i, k;

	for (i = 0; i < JOB_CPUS_MAX / 64; i++)
		r->cpus[i] |= w->cpus_applied[i];
	for (k = 0; k < r->nr_applied && strcmp(r->applied[k][0], "cpus"); k++)
		;
	if (k == ENGINE_APPLIED_MAX)
		return;
	if (k == r->nr_applied) {
		r->nr_applied++;
		snprintf(r->applied[k][0], sizeof(r->applied[k][0]), "cpus");
	}
	iop_cpus_format(r->cpus, r->applied[k][1], sizeof(r->applied[k][1]));
}

static void result_add_worker(struct job_result *r, const struct worker *w)
{
	uint64_t runtime = w->end_ns > w->start_ns ? w->end_ns - w->start_ns : 0;
	unsigned i;

	result_add_span(r, &w->fleet, !r->end_ns);
	r->nr_workers++;
	if (w->error && !r->error) {
		r->error = w->error;
		snprintf(r->errmsg, sizeof(r->errmsg), "%s", w->errmsg);
	}
	r->interrupted |= w->interrupted;
	r->verify_errors += w->verify_errors;
	r->zone_resets += w->zown.resets;
	if (w->total_err && !r->total_err)
		r->first_error = w->first_error;
	r->total_err += w->total_err;
	for (i = 0; i < 3; i++)
		r->err_ios[i] += w->err_ios[i];
	if (w->errlog_len) {
		size_t have = strlen(r->errlog), n = (size_t)w->errlog_len;

		if (have + n >= sizeof(r->errlog)) {
			r->errlog_dropped++;
			n = 0;
		}
		memcpy(r->errlog + have, w->errlog, n);
		r->errlog[have + n] = '\0';
	}
	r->errlog_dropped += w->errlog_dropped;
	if (w->job->rw == RW_COPY) {
		r->copy = w->copy;
		snprintf(r->copy_src, sizeof(r->copy_src), "%s", w->plan->copy_src);
		snprintf(r->copy_dst, sizeof(r->copy_dst), "%s", w->plan->paths[0]);
	}
	if (!w->st)
		return;
	if (runtime > r->runtime_ns)
		r->runtime_ns = runtime;
	for (i = 0; i < STAT_NR; i++) {
		struct dir_stat d = w->st[i];

		/* each direction its own time: a write job's verify reads are not its writes' */
		if (d.ios)
			d.runtime_ns = w->dir_ns[i] ? w->dir_ns[i] : runtime;
		dir_stat_merge(&r->dir[i], &d);
	}
	if (w->ru_end.ru_utime.tv_sec || w->ru_end.ru_utime.tv_usec || w->ru_end.ru_stime.tv_sec ||
	    w->ru_end.ru_stime.tv_usec) {
		r->usr_ns += tv_ns(&w->ru_end.ru_utime) - tv_ns(&w->ru_start.ru_utime);
		r->sys_ns += tv_ns(&w->ru_end.ru_stime) - tv_ns(&w->ru_start.ru_stime);
		r->ctx += (uint64_t)(w->ru_end.ru_nvcsw - w->ru_start.ru_nvcsw) +
			  (uint64_t)(w->ru_end.ru_nivcsw - w->ru_start.ru_nivcsw);
		r->majf += (uint64_t)(w->ru_end.ru_majflt - w->ru_start.ru_majflt);
		r->minf += (uint64_t)(w->ru_end.ru_minflt - w->ru_start.ru_minflt);
	}
	if (r->nr_workers == 1)
		r->buf_huge = w->buf_huge;
	if (w->kt_valid) {
		r->kt_workers++;
		r->kt_usr_ns += w->kt_end[0] - w->kt_start[0];
		r->kt_sys_ns += w->kt_end[1] - w->kt_start[1];
	}
	for (i = 0; i < DEPTH_BUCKETS; i++)
		r->depth[i] += w->depth_hist[i];
	if (w->meta) {
		/* fio's read and write stand for open-read and create: their own phase times */
		if (meta_merge(&r->meta, w->meta) && !r->error) {
			r->error = ENOMEM;
			snprintf(r->errmsg, sizeof(r->errmsg), "out of memory merging results");
		}
		if (r->meta) {
			r->dir[STAT_READ].runtime_ns = r->meta->phase_ns[META_OPEN_READ];
			r->dir[STAT_WRITE].runtime_ns = r->meta->phase_ns[META_CREATE];
		}
	}
	if (r->nr_workers == 1)
		r->latency_depth = w->lat_on ? w->qd_cap : w->job->iodepth;
	if (w->ss_holder && !r->ss && result_add_ss(r, w) && !r->error) {
		r->error = ENOMEM;
		snprintf(r->errmsg, sizeof(r->errmsg), "out of memory for the steady state");
	}
	if (!r->nr_applied && w->eng.nr_applied) {
		r->nr_applied = w->eng.nr_applied;
		memcpy(r->applied, w->eng.applied, sizeof(r->applied));
	}
	if (w->cpus_pinned)
		result_note_cpus(r, w);
}

static struct job_result *results_grow(struct run_results *out, unsigned n)
{
	struct job_result *res = realloc(out->res, (out->nr + n) * sizeof(*res));

	if (!res)
		return NULL;
	out->res = res;
	out->nr += n;
	return &res[out->nr - n];
}

static void result_targets(struct job_result *r, const struct group_job *gj, uint64_t elapsed)
{
	r->elapsed_ns = elapsed;
	r->nr_targets = gj->nr_targets;
	memcpy(r->targets, gj->targets, sizeof(r->targets));
	r->direct_suspect = gj->direct_suspect;
	snprintf(r->direct_note, sizeof(r->direct_note), "%s", gj->direct_note);
	r->tsc_mhz = gj->plan.tsc ? tsc_mhz(gj->plan.tsc) : 0.0;
}

/*
 * A reporting group's bandwidth and IOPS samples: what all its members moved in each 500 ms,
 * summed interval by interval (so bw_mean is the group's bandwidth, as bw is), in place of
 * the members' own samples pooled.
 */
static void result_group_samples(struct job_result *r, struct worker *const *ws, unsigned n,
				 struct group_member *m)
{
	unsigned i, d, nm = 0;

	if (n < 2)
		return;
	for (i = 0; i < n; i++) {
		const struct worker *w = ws[i];

		if (!w->st)
			continue;
		if (w->progress.nomem) {
			if (!r->error) {
				r->error = ENOMEM;
				snprintf(r->errmsg, sizeof(r->errmsg),
					 "out of memory for the group's bandwidth samples");
			}
			return;
		}
		m[nm].log = &w->progress;
		m[nm].end.t = w->end_ns > w->start_ns ? w->end_ns - w->start_ns : 0;
		for (d = 0; d < 2; d++) {
			m[nm].end.bytes[d] = w->st[d].bytes;
			m[nm].end.ios[d] = w->st[d].ios;
		}
		nm++;
	}
	for (d = 0; d < 2; d++) {
		if (!r->dir[d].bw.n)
			continue;
		if (group_samples(m, nm, d, &r->dir[d].bw, &r->dir[d].iops) && !r->error) {
			r->error = ENOMEM;
			snprintf(r->errmsg, sizeof(r->errmsg),
				 "out of memory for the group's bandwidth samples");
		}
	}
}

/*
 * Results of one phase, fio's way: each worker is reported alone, except that consecutive
 * workers with group_reporting in the same reporting group are merged into one result.
 */
static int collect(struct run_results *out, struct group_job *gjs, unsigned n, uint64_t elapsed)
{
	unsigned i, c, last_group = UINT_MAX, total = 0, nw = 0;
	struct group_member *m = NULL;
	struct worker **ws = NULL;
	struct job_result *r;
	long cur = -1;
	int ret = -ENOMEM;

	for (i = 0; i < n; i++)
		total += gjs[i].refused ? 0 : gjs[i].plan.job->numjobs;
	if (total) {
		ws = calloc(total, sizeof(*ws));
		m = calloc(total, sizeof(*m));
		if (!ws || !m)
			goto out;
	}
	for (i = 0; i < n; i++) {
		const struct job_spec *job = gjs[i].plan.job;

		if (gjs[i].refused) {
			if (cur >= 0)
				result_group_samples(&out->res[cur], ws, nw, m);
			r = results_grow(out, 1);
			if (!r)
				goto out;
			result_init(r, job, 0);
			result_targets(r, &gjs[i], elapsed);
			r->error = -gjs[i].refused;
			snprintf(r->errmsg, sizeof(r->errmsg), "%s", gjs[i].why);
			cur = -1;
			nw = 0;
			continue;
		}
		for (c = 0; c < job->numjobs; c++) {
			if (cur < 0 || !job->group_reporting || last_group != job->groupid) {
				if (cur >= 0)
					result_group_samples(&out->res[cur], ws, nw, m);
				r = results_grow(out, 1);
				if (!r)
					goto out;
				result_init(r, job, c);
				result_targets(r, &gjs[i], elapsed);
				cur = (long)out->nr - 1;
				nw = 0;
			}
			result_add_worker(&out->res[cur], &gjs[i].workers[c]);
			ws[nw++] = &gjs[i].workers[c];
			last_group = job->groupid;
			if (gjs[i].workers[c].interrupted)
				out->interrupted = true;
		}
	}
	if (cur >= 0)
		result_group_samples(&out->res[cur], ws, nw, m);
	ret = 0;
out:
	free(ws);
	free(m);
	return ret;
}

/* Estimate, and hand to the callback, how far the phase has come. */
static void report_progress(struct group_job *gjs, unsigned n, struct phase_sync *sync,
			    uint64_t t0, unsigned running)
{
	struct run_progress p = { .running = running, .phase = sync->phase,
				  .nr_phases = sync->nr_phases };
	uint64_t now = mono_ns(), target = 0, eta = 0, end;
	bool sized = false;
	unsigned i, c;

	for (i = 0; i < n; i++) {
		const struct job_spec *job = gjs[i].plan.job;

		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			struct worker *w = &gjs[i].workers[c];

			p.bytes += atomic_load_explicit(&w->progress_bytes, memory_order_relaxed);
			p.ios += atomic_load_explicit(&w->progress_ios, memory_order_relaxed);
			if (!job->time_based && job->rw != RW_METADATA) {
				target += w->bytes_target;
				sized = true;
			}
		}
		if (job->runtime_ns) {
			end = t0 + job->startdelay_max_ns + job->ramp_ns + job->runtime_ns;
			eta = end > now && end - now > eta ? end - now : eta;
		}
	}
	if (sized && p.bytes && target > p.bytes && now > t0) {
		end = (uint64_t)((double)(target - p.bytes) * (double)(now - t0) / (double)p.bytes);
		eta = end > eta ? end : eta;
	}
	p.elapsed_ns = now - sync->genesis_ns;
	p.eta_ns = eta;
	sync->progress(&p, sync->progress_arg);
}

/* Wait for the phase's workers to end, reporting progress once a second. */
/* A worker's unit of steady state: its own, or its reporting group's (group_reporting). */
static bool ss_same_unit(const struct worker *a, const struct worker *b)
{
	if (!a->job->group_reporting)
		return a == b;
	return b->job->group_reporting && a->job->groupid == b->job->groupid;
}

/*
 * ss_dur=: which worker holds each unit's window (fio's steadystate_setup: every worker its
 * own, or the last worker of each run of a reporting group); false when out of memory.
 */
static bool ss_setup(struct group_job *gjs, unsigned n)
{
	struct worker *prev = NULL, *w;
	unsigned i, c;

	for (i = 0; i < n; i++) {
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			w = &gjs[i].workers[c];
			if (w->job->ss_dur_ns < 1000000000ull)
				continue;
			if (prev && prev->job->group_reporting && !ss_same_unit(prev, w))
				prev->ss_holder = true;
			if (!w->job->group_reporting)
				w->ss_holder = true;
			prev = w;
		}
	}
	if (prev && prev->job->group_reporting)
		prev->ss_holder = true;
	for (i = 0; i < n; i++)
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
			if (gjs[i].workers[c].ss_holder &&
			    ss_alloc(&gjs[i].workers[c].ss,
				     (unsigned)(gjs[i].workers[c].job->ss_dur_ns / 1000000000ull)))
				return false;
	return true;
}

/* A unit has attained steady state: its workers end (as fio's fio_mark_td_terminate). */
static void ss_attained(struct group_job *gjs, unsigned n, struct worker *holder)
{
	unsigned i, c;

	for (i = 0; i < n; i++) {
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			struct worker *o = &gjs[i].workers[c];

			if (!ss_same_unit(holder, o) || o->job->ss_dur_ns < 1000000000ull)
				continue;
			o->ss.attained = true;
			atomic_store(&o->terminate, true);
		}
	}
}

/*
 * Once a second (fio's steadystate_check): each unit's IOPS and bandwidth over the last
 * second, summed over the unit's workers past ss_ramp + 1 s, go into its window; a unit whose
 * criterion is met has attained steady state, and its workers end.
 */
static void ss_check(struct group_job *gjs, unsigned n, uint64_t now)
{
	uint64_t bw = 0, iops = 0, bytes, ios, ms;
	struct worker *first = NULL, *w;
	unsigned i, c, over = 0;

	for (i = 0; i < n; i++) {
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			const struct job_spec *job;
			uint64_t epoch;

			w = &gjs[i].workers[c];
			job = w->job;
			epoch = atomic_load(&w->epoch_ns);
			if (job->ss_dur_ns < 1000000000ull || !epoch ||
			    atomic_load(&w->finished) || w->ss.attained)
				continue;
			if (!first || !ss_same_unit(first, w)) {
				bw = iops = 0;
				over = 0;
				first = w;
			}
			if (!w->ss.prev_ns)
				w->ss.prev_ns = epoch;
			if (!w->ss.ramp_over && now - epoch >= job->ss_ramp_ns +
			    (job->ss_ramp_ns ? 1000000000ull : 0))
				w->ss.ramp_over = true;
			bytes = atomic_load_explicit(&w->progress_bytes, memory_order_relaxed);
			ios = atomic_load_explicit(&w->progress_ios, memory_order_relaxed);
			ms = (now - w->ss.prev_ns) / 1000000;
			w->ss.prev_ns = now;
			if (w->ss.ramp_over && ms && bytes >= w->ss.prev_bytes) {
				bw += 1000 * (bytes - w->ss.prev_bytes) / ms;
				iops += 1000 * (ios - w->ss.prev_ios) / ms;
				over++;
			}
			w->ss.prev_bytes = bytes;
			w->ss.prev_ios = ios;
			if (!w->ss_holder || !over ||
			    !ss_add(&w->ss, job->ss_state, job->ss_limit, iops, bw))
				continue;
			ss_attained(gjs, n, w);
		}
	}
}

static void watch_phase(struct group_job *gjs, unsigned n, struct phase_sync *sync,
			uint64_t t0, unsigned started)
{
	unsigned i, done;
	struct timespec ts;
	uint64_t ss_next = mono_ns() + 1000000000ull, now;

	for (;;) {
		pthread_mutex_lock(&sync->lock);
		for (i = 0, done = 0; i < n; i++)
			done += gjs[i].done;
		if (done < started) {
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 1;
			pthread_cond_timedwait(&sync->cond, &sync->lock, &ts);
			for (i = 0, done = 0; i < n; i++)
				done += gjs[i].done;
		}
		pthread_mutex_unlock(&sync->lock);
		if (done >= started)
			return;
		now = mono_ns();
		if (sync->steady && now >= ss_next) {
			ss_check(gjs, n, now);
			ss_next += 1000000000ull;
			if (ss_next <= now)
				ss_next = now + 1000000000ull;
		}
		if (sync->progress)
			report_progress(gjs, n, sync, t0, started - done);
	}
}

/*
 * flow=: as fio does when it sets jobs up, every worker of every job of the run joins its
 * flow now, and leaves it when it ends (or its job does not run).
 */
static int plan_flows(const struct job_list *jobs, struct group_job *gjs, struct flow_set *s,
		      struct iop_err *err)
{
	unsigned i;

	s->max = jobs->nr;
	s->flows = calloc(jobs->nr ? jobs->nr : 1, sizeof(*s->flows));
	if (!s->flows)
		return iop_errf(err, -ENOMEM, "out of memory");
	for (i = 0; i < jobs->nr; i++) {
		const struct job_spec *job = &jobs->jobs[i];

		if (job->flow)
			gjs[i].plan.flow = flow_join(s, job->flow_id, job->flow *
						     gjs[i].plan.nr_workers);
	}
	return 0;
}

/*
 * zonemode=zbd: as fio sets its jobs up, every job's files get their emulated zones now,
 * sized from what each holds before the run; jobs on one path share its zones (and write
 * pointers) for the whole run. A zoned block device is refused: its zones would have to be
 * driven (report, reset, open limits), which iopath does not do.
 */
static int plan_zbd(const struct job_list *jobs, struct group_job *gjs, struct zbd_set *s,
		    struct iop_err *err)
{
	unsigned i, k;
	int ret;

	for (i = 0; i < jobs->nr; i++) {
		const struct job_spec *job = &jobs->jobs[i];
		struct job_plan *plan = &gjs[i].plan;
		unsigned nr_paths = plan_nr_paths(plan);

		if (!job->zone_zbd)
			continue;
		plan->zbd = calloc(nr_paths, sizeof(*plan->zbd));
		if (!plan->zbd)
			return iop_errf(err, -ENOMEM, "out of memory");
		for (k = 0; k < nr_paths; k++) {
			const char *model = zbd_zoned_model(plan->paths[k]);
			uint64_t size = plan->file_have[k];

			if (model)
				return iop_errf(err, -ENOTSUP,
						"job %s: %s is a %s zoned block device: fio option zonemode=zbd on a zoned device is not supported by iopath (it emulates zones on regular files and ordinary block devices only)",
						job->name, plan->paths[k], model);
			if (job->engine->flags & ENGINE_DISKLESS)
				size = layout_end(plan, k);
			ret = zbd_set_get(s, plan->paths[k], size, job, &plan->zbd[k], err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Workers that never ran leave their flow (those that ran have left it themselves). */
static void leave_flows(struct group_job *gj)
{
	unsigned c;

	if (!gj->plan.flow)
		return;
	for (c = 0; c < gj->plan.nr_workers; c++)
		if (!gj->workers || !gj->workers[c].flow_left)
			flow_leave(gj->plan.flow, 0, gj->plan.job->flow);
}

/* Start every worker of the phase together, wait for all, collect their results. */
static int run_group(struct group_job *gjs, unsigned n, struct phase_sync *sync,
		     struct run_results *out, struct iop_err *err)
{
	struct start_gate start;
	sigset_t block, old_mask;
	unsigned i, c, total = 0, started = 0;
	uint64_t t0 = mono_ns(), origin;
	int ret = 0;

	for (i = 0; i < n; i++) {
		struct iop_err e;

		gjs[i].sync = sync;
		if (!gjs[i].refused && check_capabilities(&gjs[i], &e)) {
			gjs[i].refused = -EINVAL;
			snprintf(gjs[i].why, sizeof(gjs[i].why), "%s", e.msg);
		}
		if (!gjs[i].refused) {
			/* a failed layout fails that job only: the group's result must survive */
			int lret = layout_job(&gjs[i].plan, &e);

			if (!lret)
				lret = create_logs(&gjs[i].plan, &e);
			if (lret) {
				gjs[i].refused = lret;
				snprintf(gjs[i].why, sizeof(gjs[i].why), "%s", e.msg);
			}
		}
		if (!gjs[i].refused)
			total += gjs[i].plan.nr_workers;
	}
	ret = 0;
	/* a job waits for a waitee of this phase that runs; an earlier or refused one has ended */
	for (i = 0; i < n; i++) {
		const struct job_spec *job = gjs[i].plan.job;

		gjs[i].waitee = NULL;
		for (c = 0; job->wait_for[0] && c < i; c++)
			if (!strcmp(gjs[c].plan.job->name, job->wait_for) && !gjs[c].refused)
				gjs[i].waitee = &gjs[c];
	}
	/*
	 * Workers are born with SIGINT/SIGTERM/SIGHUP blocked: the handler runs on this thread,
	 * and no worker's system call is cut short with EINTR (a failed I/O, not a stop).
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old_mask);
	if (total) {
		gate_init(&start, total);
		for (i = 0; i < n; i++) {
			if (gjs[i].refused)
				continue;
			gjs[i].workers = calloc(gjs[i].plan.nr_workers, sizeof(struct worker));
			if (!gjs[i].workers) {
				ret = iop_errf(err, -ENOMEM, "out of memory for workers");
				goto out;
			}
		}
		for (i = 0; i < n; i++) {
			for (c = 0; !gjs[i].refused && c < gjs[i].plan.nr_workers; c++) {
				struct worker *w = &gjs[i].workers[c];

				w->job = gjs[i].plan.job;
				w->plan = &gjs[i].plan;
				w->clone = c;
				w->start = &start;
				w->gate = &gjs[i];
				w->tsc = gjs[i].plan.tsc;
				if (pthread_create(&w->tid, NULL,
						   w->job->rw == RW_METADATA ? meta_main : worker_main, w)) {
					ret = iop_errf(err, -EAGAIN, "cannot start worker thread %u of job %s",
						       c, w->job->name);
					/* start only those that exist, and stop them at once */
					run_request_stop();
					goto out;
				}
				started++;
			}
		}
	}
out:
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	if (total) {
		gate_expect(&start, started);
		gate_wait_ready(&start);
	}
	sync->steady = false;
	for (i = 0; i < n && total; i++)
		sync->steady |= gjs[i].plan.job->ss_dur_ns >= 1000000000ull && !gjs[i].refused;
	if (sync->steady && !ret && !ss_setup(gjs, n))
		ret = iop_errf(err, -ENOMEM, "out of memory for steady state");
	/* workers without start conditions run from the gate on (exit_what=stonewall ends them) */
	for (i = 0; i < n && total; i++)
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
			if (!gjs[i].plan.job->startdelay_max_ns && !gjs[i].waitee)
				atomic_store(&gjs[i].workers[c].running, true);
	/* under MPI, every rank's workers are set up too: the phase's clock starts here */
	origin = phase_origin();
	if (total)
		gate_open(&start);
	if (total && (sync->progress || sync->steady) && !ret)
		watch_phase(gjs, n, sync, mono_ns(), started);
	if (!ret)
		phase_watch(gjs, n, total);
	for (i = 0; i < n && total; i++)
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers && started; c++, started--)
			pthread_join(gjs[i].workers[c].tid, NULL);
	if (total)
		gate_destroy(&start);
	phase_spans(gjs, n, total, origin);
	if (!ret)
		ret = collect(out, gjs, n, mono_ns() - t0);
	for (i = 0; i < n; i++) {
		leave_flows(&gjs[i]);
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
			worker_free(&gjs[i].workers[c]);
		if (!gjs[i].refused)
			unlink_job_files(&gjs[i].plan);
		free(gjs[i].workers);
		gjs[i].workers = NULL;
	}
	return ret;
}

/* Descriptors besides the job files': stdio, outputs, logs, a ring or two per worker. */
#define FDS_SPARE 64u
#define FDS_PER_WORKER 4u

/* Descriptors a job's workers hold at once: every file of a data job stays open (fio's
 * default openfiles=nrfiles); a file-operation engine holds one at a time. */
static uint64_t job_fds(const struct job_plan *plan)
{
	const struct job_spec *job = plan->job;
	uint64_t files = job->engine->flags & (ENGINE_FILE_OP | ENGINE_DISKLESS) ||
			 job->rw == RW_METADATA ? 1 : plan->nr_files + (job->rw == RW_COPY);

	return plan->nr_workers * (files + FDS_PER_WORKER);
}

/*
 * The jobs that run together must have their files open at once: raise the soft
 * RLIMIT_NOFILE toward the hard one when they need more, or refuse the run naming the job
 * that needs most.
 */
static int fit_nofile(const struct job_list *jobs, const struct group_job *gjs,
		      struct iop_err *err)
{
	uint64_t need = 0, sum = 0, most = 0;
	unsigned i, big = 0, phase_big = 0;
	struct rlimit rl;

	for (i = 0; i < jobs->nr; i++) {
		uint64_t n = job_fds(&gjs[i].plan);

		if (i && jobs->jobs[i].phase != jobs->jobs[i - 1].phase)
			sum = most = 0;
		sum += n;
		if (n > most) {
			most = n;
			phase_big = i;
		}
		if (sum + FDS_SPARE > need) {
			need = sum + FDS_SPARE;
			big = phase_big;
		}
	}
	if (!jobs->nr || getrlimit(RLIMIT_NOFILE, &rl) || need <= rl.rlim_cur)
		return 0;
	if (need <= rl.rlim_max) {
		rl.rlim_cur = need;
		if (!setrlimit(RLIMIT_NOFILE, &rl))
			return 0;
	}
	return iop_errf(err, -EMFILE,
			"job %s: nrfiles=%u x numjobs=%u: the files open at once need about %llu descriptors, RLIMIT_NOFILE allows %llu (hard limit): raise it or lower nrfiles or numjobs (openfiles= below nrfiles is not supported by iopath's data engines)",
			jobs->jobs[big].name, gjs[big].plan.nr_files, gjs[big].plan.nr_workers,
			(unsigned long long)need, (unsigned long long)rl.rlim_max);
}

int run_jobs(const struct job_list *jobs, struct run_results *out, struct iop_err *err)
{
	return run_jobs_progress(jobs, out, NULL, NULL, err);
}

int run_jobs_progress(const struct job_list *jobs, struct run_results *out, run_progress_fn fn,
		      void *arg, struct iop_err *err)
{
	struct phase_sync sync = { .progress = fn, .progress_arg = arg };
	struct flow_set flows = { 0 };
	struct zbd_set zbds = { 0 };
	struct group_job *gjs;
	struct timeval tv;
	unsigned i, first;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	gettimeofday(&tv, NULL);
	out->start_unix_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	gjs = calloc(jobs->nr ? jobs->nr : 1, sizeof(*gjs));
	if (!gjs)
		return iop_errf(err, -ENOMEM, "out of memory");
	for (i = 0; i < jobs->nr && !ret; i++) {
		ret = plan_job(&jobs->jobs[i], &jobs->policy, &gjs[i].plan, err);
		if (!ret)
			ret = plan_clock(&jobs->jobs[i], &gjs[i].plan, err);
		/* fio numbers the workers of a run from 1, in job order (log file names) */
		gjs[i].plan.first_thread = i ? gjs[i - 1].plan.first_thread +
					       jobs->jobs[i - 1].numjobs : 1;
	}
	if (!ret)
		ret = fit_nofile(jobs, gjs, err);
	out->probes = jobs->probes;
	if (!out->probes) {
		out->probes = calloc(1, sizeof(*out->probes));
		out->own_probes = true;
		if (!out->probes)
			ret = iop_errf(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < jobs->nr && !ret; i++)
		probe_job(&gjs[i], out->probes);
	if (!ret)
		ret = plan_disks(jobs, gjs, out, err);
	if (!ret)
		ret = plan_flows(jobs, gjs, &flows, err);
	if (!ret)
		ret = plan_zbd(jobs, gjs, &zbds, err);
	/* run-wide worker numbers (fio's thread numbers), for dedupe_global */
	for (i = 0, first = 0; i < jobs->nr && !ret; i++) {
		gjs[i].plan.first_worker = first;
		first += gjs[i].plan.nr_workers;
	}
	for (i = 0; i < jobs->nr && !ret; i++)
		gjs[i].plan.run_workers = first;
	pthread_mutex_init(&sync.lock, NULL);
	pthread_cond_init(&sync.cond, NULL);
	sync.genesis_ns = mono_ns();
	atomic_init(&sync.end_all, false);
	for (i = 0; i < jobs->nr; i++)
		sync.exitall |= jobs->jobs[i].exitall;
	sync.nr_phases = jobs->nr ? jobs->jobs[jobs->nr - 1].phase + 1 : 0;
	/* as fio: from before the first layout to after the last worker has ended */
	if (!ret && out->disks)
		disk_set_start(out->disks);
	for (first = 0; !ret && first < jobs->nr;) {
		unsigned last = first;

		while (last + 1 < jobs->nr && jobs->jobs[last + 1].phase == jobs->jobs[first].phase)
			last++;
		if (!phase_enter(&gjs[first], last - first + 1) || run_stop_requested()) {
			out->interrupted = true;
			break;
		}
		sync.phase = jobs->jobs[first].phase;
		pthread_mutex_lock(&sync.lock);
		sync.gjs = &gjs[first];
		sync.nr_gjs = last - first + 1;
		pthread_mutex_unlock(&sync.lock);
		ret = run_group(&gjs[first], last - first + 1, &sync, out, err);
		pthread_mutex_lock(&sync.lock);
		sync.gjs = NULL;
		sync.nr_gjs = 0;
		pthread_mutex_unlock(&sync.lock);
		first = last + 1;
	}
	if (out->disks)
		disk_set_end(out->disks);
	pthread_cond_destroy(&sync.cond);
	pthread_mutex_destroy(&sync.lock);
	for (i = 0; i < jobs->nr; i++) {
		paths_free(&gjs[i].plan.names);
		free(gjs[i].plan.file_len);
		free(gjs[i].plan.worker_total);
		free(gjs[i].plan.file_have);
		free(gjs[i].plan.file_missing);
		free(gjs[i].plan.zbd);
	}
	flow_set_free(&flows);
	zbd_set_free(&zbds);
	free(gjs);
	if (run_stop_requested())
		out->interrupted = true;
	return ret;
}

void run_results_free(struct run_results *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++) {
		free(r->res[i].meta);
		if (r->res[i].ss) {
			free(r->res[i].ss->bw);
			free(r->res[i].ss->iops);
			free(r->res[i].ss);
		}
	}
	free(r->res);
	if (r->disks) {
		disk_set_free(r->disks);
		free(r->disks);
		r->disks = NULL;
	}
	if (r->own_probes && r->probes) {
		probe_set_free(r->probes);
		free(r->probes);
	}
	r->probes = NULL;
	r->own_probes = false;
	r->res = NULL;
	r->nr = 0;
}

bool run_failed(const struct run_results *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		if (r->res[i].error)
			return true;
	return false;
}
