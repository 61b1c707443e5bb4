/* Planning: sizes, files and checks for each job before anything runs; layout of its files. */
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

#include "base/atomic.h"
#include "io/file.h"
#include "io/flow.h"
#include "io/vhdr.h"
#include "run/meta.h"
#include "base/cpulist.h"
#include "base/msg.h"
#include "run/run.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "run/worker.h"
#include "run/runner.h"

/* The process's TSC clock, calibrated when a job first needs it. */
static struct tsc_clock run_tsc;
static bool run_tsc_ready;

#define TSC_CALIBRATE_NS 20000000ull	/* 20 ms: a few ppm, against reads some 30 ns wide */

/* Descriptors besides the job files': stdio, outputs, logs, a ring or two per worker. */
#define FDS_SPARE 64u
#define FDS_PER_WORKER 4u


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

/* Offsets past what a file can hold (off_t) are refused before any I/O, not failed at it. */
static int check_range(const struct job_spec *job, const struct job_plan *plan,
		       struct iop_err *err)
{
	uint64_t inc, start, end, len = plan->region, i;

	for (i = 0; plan->file_len && i < plan_nr_paths(plan); i++)
		len = plan->file_len[i] > len ? plan->file_len[i] : len;
	if (!__builtin_mul_overflow(plan->offset_increment, (uint64_t)(plan->nr_workers - 1), &inc) &&
	    !__builtin_add_overflow(plan->offset, inc, &start) &&
	    !__builtin_add_overflow(start, len, &end) && end <= (uint64_t)INT64_MAX)
		return 0;
	return iop_errf(err, -EOVERFLOW,
			"job %s: offset=%llu%s and %llu bytes per file end past the largest file offset (%lld bytes); give a smaller offset=, offset_increment= or size=",
			job->name, (unsigned long long)plan->offset,
			plan->offset_increment && plan->nr_workers > 1 ? " (with offset_increment)" : "",
			(unsigned long long)len, (long long)INT64_MAX);
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
					job->sizes.size_pct ? "size" : job->sizes.offset_pct ? "offset" :
					"offset_increment", job->sizes.size_pct ? job->sizes.size_pct :
					job->sizes.offset_pct ? job->sizes.offset_pct : job->sizes.offset_increment_pct,
					plan->paths[i], strerror(-ret));
		smallest = fsize < smallest ? fsize : smallest;
	}
	/*
	 * fio's get_start_offset: with a percentage, each worker's start (offset plus its
	 * increments) goes up to the next multiple of offset_align, else of the smallest
	 * block size (worker_start)
	 */
	plan->start_align = job->sizes.offset_align ? job->sizes.offset_align : plan->unit;
	if (job->sizes.offset_increment_pct)
		plan->offset_increment = smallest / 100 * job->sizes.offset_increment_pct +
					 smallest % 100 * job->sizes.offset_increment_pct / 100;
	if (job->sizes.offset_pct)
		plan->offset = smallest / 100 * job->sizes.offset_pct +
			       smallest % 100 * job->sizes.offset_pct / 100;
	plan->offset = worker_start(plan, 0);
	room = smallest > plan->offset ? smallest - plan->offset : 0;
	if (!job->sizes.size && !job->sizes.size_pct)
		*size = room * plan->nr_files;
	return 0;
}

/*
 * size=N%: each file its own share, as fio's setup_files gives it: N% of what the file holds,
 * no more than it holds past offset=, aligned down to the smallest block size; a worker
 * moves the sum over its files.
 */
static int plan_size_pct(const struct job_spec *job, struct job_plan *plan, struct iop_err *err)
{
	unsigned i, nr_paths = plan_nr_paths(plan), pct = job->sizes.size_pct;
	uint64_t have, len, share, total = 0;

	if (!plan->shared) {
		plan->worker_total = calloc(plan->nr_workers, sizeof(*plan->worker_total));
		if (!plan->worker_total)
			return iop_errf(err, -ENOMEM, "job %s: out of memory", job->name);
	}
	for (i = 0; i < nr_paths; i++) {
		have = plan->file_have[i];
		len = have > plan->offset ? have - plan->offset : 0;
		share = have / 100 * pct + have % 100 * pct / 100;
		len = (share < len ? share : len) / plan->unit * plan->unit;
		if (len < plan->max_bs)
			return iop_errf(err, -EINVAL,
					"job %s: size=%u%% of %s (%llu bytes%s) is %llu bytes, smaller than bs=%u",
					job->name, pct, plan->paths[i], (unsigned long long)have,
					plan->offset ? ", from offset=" : "", (unsigned long long)len,
					plan->max_bs);
		plan->file_len[i] = len;
		if (len > plan->region)
			plan->region = len;
		if (i < plan->nr_files)
			total += len;
		if (plan->worker_total)
			plan->worker_total[i / plan->nr_files] += len;
	}
	plan->worker_bytes = total;
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

/*
 * The files that exist: their sizes (file_have), whether each is missing or a link, whether
 * one is a block device; an empty file a read job would need data from is refused. Without
 * size= the job's size (*size) becomes what the files hold past offset=.
 */
static int plan_existing(const struct job_spec *job, struct job_plan *plan,
			 const struct target_policy *pol, uint64_t *size, struct iop_err *err)
{
	unsigned i, nr_paths = plan_nr_paths(plan);
	struct stat lst;
	uint64_t fsize;
	bool blk;
	int ret;

	for (i = 0; i < nr_paths; i++) {
		ret = file_size(plan->paths[i], &fsize, &blk);
		plan->file_missing[i] = ret == -ENOENT;
		plan->file_link[i] = !lstat(plan->paths[i], &lst) && S_ISLNK(lst.st_mode);
		if (ret == -ENOENT || (ret == -EISDIR && (job->engine->flags & ENGINE_DIRS)))
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
		if (!blk && !fsize && !job_changes_files(job) && !may_overwrite(job, pol, plan->paths[i]) &&
		    !target_owned(plan->paths[i]))
			return iop_errf(err, -ENODATA,
					"job %s: %s is empty and was not created by iopath: a read job needs data in it (give a file holding data, or overwrite=1 / --allow-overwrite / IOPATH_ALLOW_OVERWRITE=PATH to let iopath lay it out)",
					job->name, plan->paths[i]);
		plan->blockdev |= blk;
		plan->file_have[i] = fsize;
		if (!job->sizes.size && !job->sizes.size_pct && !job->sizes.offset_pct && !job->filesize_range[0] &&
		    (*size == 0 || fsize < *size))
			*size = fsize > plan->offset ? (fsize - plan->offset) * plan->nr_files : 0;
	}
	return 0;
}

/*
 * filesize= sets each file's size, the I/O going from offset= to its end; size= then only
 * caps the I/O (fio). Each worker moves its own files' bytes.
 */
static int plan_filesize(const struct job_spec *job, struct job_plan *plan, struct iop_err *err)
{
	unsigned i, nr_paths = plan_nr_paths(plan);
	uint64_t fsize, total = 0;

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
	plan->worker_bytes = job->sizes.size && job->sizes.size < total ? job->sizes.size : total;
	for (i = 0; plan->worker_total && i < plan->nr_workers; i++)
		if (job->sizes.size && job->sizes.size < plan->worker_total[i])
			plan->worker_total[i] = job->sizes.size;
	return 0;
}

/* size= (or what the files hold, or the device's free space for fill_device) over the files. */
static int plan_region(const struct job_spec *job, struct job_plan *plan, uint64_t size,
		       bool diskless, struct iop_err *err)
{
	unsigned i, nr_paths = plan_nr_paths(plan);

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
	return 0;
}

static int plan_sizes(const struct job_spec *job, struct job_plan *plan,
		      const struct target_policy *pol, struct iop_err *err)
{
	uint64_t size = job->sizes.size;
	unsigned i, nr_paths = plan_nr_paths(plan);
	bool diskless = job->engine->flags & ENGINE_DISKLESS;
	int ret;

	plan->file_len = calloc(nr_paths, sizeof(*plan->file_len));
	plan->file_have = calloc(nr_paths, sizeof(*plan->file_have));
	plan->file_missing = calloc(nr_paths, sizeof(*plan->file_missing));
	plan->file_link = calloc(nr_paths, sizeof(*plan->file_link));
	if (!plan->file_len || !plan->file_have || !plan->file_missing || !plan->file_link)
		return iop_errf(err, -ENOMEM, "job %s: out of memory", job->name);
	plan->offset = job->sizes.offset;
	plan->offset_increment = job->sizes.offset_increment;
	if ((job->sizes.size_pct || job->sizes.offset_pct || job->sizes.offset_increment_pct) && diskless)
		return iop_errf(err, -EINVAL, "job %s: size, offset or offset_increment as a percentage needs files; ioengine=%s has none",
				job->name, job->engine->name);
	if (job->sizes.size_pct || job->sizes.offset_pct || job->sizes.offset_increment_pct) {
		ret = plan_percentages(job, plan, &size, err);
		if (ret)
			return ret;
	}
	if (!diskless) {
		ret = plan_existing(job, plan, pol, &size, err);
		if (ret)
			return ret;
	}
	if (job->filesize_range[0])
		ret = plan_filesize(job, plan, err);
	else if (job->sizes.size_pct)
		ret = plan_size_pct(job, plan, err);
	else
		ret = plan_region(job, plan, size, diskless, err);
	if (!ret)
		ret = check_range(job, plan, err);
	for (i = 0; !ret && !diskless && i < nr_paths; i++)
		ret = check_target(job, plan, pol, plan->paths[i], -1, err);
	return ret;
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
	if (ret && !(ret == -ENOENT && job->sizes.size))
		return iop_errf(err, ret, "job %s: copy_from %s: %s%s", job->name, plan->copy_src,
				strerror(-ret), ret == -ENOENT ? " (give size= to create it)" : "");
	plan->region = job->sizes.size ? job->sizes.size : fsize;
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
	if (!ret && !blk && fsize < plan->region && !may_overwrite(job, pol, plan->copy_src) &&
	    !target_owned(plan->copy_src))
		return iop_errf(err, -EEXIST,
				"job %s: copy_from %s is %llu bytes and was not created by iopath; laying out the %llu bytes to copy would write to it (give a smaller size=, or overwrite=1 / --allow-overwrite / IOPATH_ALLOW_OVERWRITE=PATH)",
				job->name, plan->copy_src, (unsigned long long)fsize,
				(unsigned long long)plan->region);
	if (!ret) {
		ret = check_access(job, plan->copy_src, false, err);
		if (ret)
			return ret;
	}
	if (!file_size(plan->paths[0], &fsize, &blk))
		plan->blockdev = blk;
	return check_target(job, plan, pol, plan->paths[0], -1, err);
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

/*
 * A job's clock: clocksource=clock_gettime (gettimeofday too: finer than fio's microseconds),
 * =cpu, or fio's default, the CPU clock where it is reliable and clock_gettime elsewhere.
 */
int plan_clock(const struct job_spec *job, struct job_plan *plan, struct iop_err *err)
{
	char why[160];
	int ret;

	plan->tsc = NULL;
	if (job->clocksource == CLOCK_GETTIME || job->clocksource == CLOCK_GTOD)
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

/*
 * A passthrough engine (ENGINE_PASSTHRU) works on whole NVMe namespaces. A generic device
 * named (fio's /dev/ngXnY) stands for its namespace's block device, which the runner opens,
 * sizes and guards like any device; the engine is then tried on each device (one read), and
 * a job where that fails is refused here, before anything runs, with the trial's one line
 * (what is missing: the namespace, its generic device, the permission, the kernel's support).
 */
static int plan_passthru(const struct job_spec *job, struct job_plan *plan, struct iop_err *err)
{
	unsigned i, nr_paths = plan_nr_paths(plan);
	struct probe_trial t;
	char blk[PATH_MAX];
	struct stat st;
	int ret;

	for (i = 0; i < nr_paths; i++) {
		if (stat(plan->paths[i], &st))
			return iop_errf(err, -errno,
					"job %s: %s: %s (ioengine=%s needs an NVMe namespace: /dev/ngXnY or /dev/nvmeXnY)",
					job->name, plan->paths[i], strerror(errno), job->engine->name);
		if (S_ISCHR(st.st_mode)) {
			ret = probe_nvme_block_of(plan->paths[i], blk, sizeof(blk));
			if (ret)
				return iop_errf(err, ret,
						"job %s: %s is a character device but not an NVMe namespace's generic device with its block device beside it (%s)",
						job->name, plan->paths[i], strerror(-ret));
			ret = paths_replace(&plan->names, i, blk);
			if (ret)
				return iop_errf(err, ret, "job %s: out of memory", job->name);
			plan->paths = plan->names.v;
		}
		probe_passthru_trial(job->engine, plan->paths[i], job_changes_files(job), &t);
		if (t.state == PROBE_FAILED)
			return iop_errf(err, -(t.err ? t.err : EINVAL), "job %s: ioengine=%s on %s: %s",
					job->name, job->engine->name, plan->paths[i], t.why);
	}
	return 0;
}

int plan_job(const struct job_spec *job, const struct target_policy *pol,
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
	if (pol->readonly && iolog_wanted(job))
		return iop_errf(err, -EROFS, "job %s: write_*_log creates log files, and --readonly forbids creating files",
				job->name);
	if (pol->readonly && job->write_iolog[0])
		return iop_errf(err, -EROFS, "job %s: write_iolog=%s creates a file, and --readonly forbids creating files",
				job->name, job->write_iolog);
	if (pol->readonly && (job->exec_prerun[0] || job->exec_postrun[0]))
		return iop_errf(err, -EROFS, "job %s: exec_%s runs a command and writes its output to a file, and --readonly forbids creating files",
				job->name, job->exec_prerun[0] ? "prerun" : "postrun");
	if (pol->readonly && job->verify.dump)
		return iop_errf(err, -EROFS, "job %s: verify_dump writes the blocks that fail verify to files, and --readonly forbids creating files",
				job->name);
	if (pol->readonly && job_changes_files(job))
		return iop_errf(err, -EROFS,
				"job %s: ioengine=%s changes or removes its files whatever the direction, and --readonly forbids that",
				job->name, job->engine->name);
	plan->nr_workers = job->numjobs;
	plan->unit = job_unit(job);
	plan->align = job_align(job);
	plan->max_bs = used_max(job, job->bs_max);
	if (job->verify.kind != VERIFY_NONE &&
	    verify_fits(job, job_verify_unit(job, plan->unit), err))
		return -EINVAL;
	for (d = 0; job->verify.kind != VERIFY_NONE && d < 2; d++) {
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
	if (job->mem_file[0] && (pol->readonly ||
				 (!access(job->mem_file, F_OK) && !target_owned(job->mem_file) &&
				  !may_overwrite(job, pol, job->mem_file))))
		return iop_errf(err, pol->readonly ? -EROFS : -EEXIST,
				"job %s: mem=%s:%s %s (give overwrite=1 in the job, --allow-overwrite, or IOPATH_ALLOW_OVERWRITE=PATH in the environment, to allow it)",
				job->name, job->mem_shared ? "mmapshared" : "mmap", job->mem_file,
				pol->readonly ? "maps a file for writing, and --readonly forbids that" :
				job->mem_shared ? "would write the job's buffers into a file iopath did not create" :
				"would truncate a file iopath did not create");
	plan->shared = file_names_shared(job);
	if (plan->shared && job->numjobs > 1 && job_unlinks_each_loop(job))
		return iop_errf(err, -EINVAL,
				"job %s: unlink_each_loop=1 with numjobs=%u sharing their files is refused: one worker would remove the files the others still write (give each its own, e.g. filename_format=$jobname.$jobnum)",
				job->name, job->numjobs);
	for (c = 0; c < (plan->shared ? 1 : plan->nr_workers); c++) {
		n = file_names(job, c, &plan->names, err);
		if (n < 0)
			return n;
		plan->nr_files = (unsigned)n;
	}
	plan->paths = plan->names.v;
	if (job->rw == RW_COPY)
		return plan_copy(job, plan, pol, err);
	if (job->engine->flags & ENGINE_PASSTHRU) {
		n = plan_passthru(job, plan, err);
		if (n)
			return n;
	}
	return plan_sizes(job, plan, pol, err);
}

/* The end of what path i must hold: the last worker's start (offset_increment) + region. */
uint64_t layout_end(const struct job_plan *plan, unsigned i)
{
	const struct job_spec *job = plan->job;
	unsigned last = plan->shared ? plan->nr_workers - 1 : i / plan->nr_files;
	uint64_t end = worker_start(plan, last) + plan->file_len[i];

	if (!job->sizes.size && !job->filesize_range[0] && plan->file_have[i] &&
	    end > plan->file_have[i])
		end = plan->file_have[i];
	return end;
}

/* write_*_log: each worker's files exist, empty, before it starts (fio creates them too). */
int create_logs(const struct job_plan *plan, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	char path[PATH_MAX];
	unsigned c, k;
	int ret;

	if (!iolog_wanted(job))
		return 0;
	for (c = 0; c < plan->nr_workers; c++) {
		for (k = 0; k < LOG_KINDS; k++) {
			if (!(k == LOG_BW ? job->log.bw_set : k == LOG_IOPS ? job->log.iops_set :
			      k == LOG_HIST ? job->log.hist_set : job->log.lat_set))
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

/* A log or state file: a regular file (new, iopath's or empty) or /dev/null, and nothing else. */
static int check_log(const struct job_spec *job, const char *opt, const char *path,
		     struct iop_err *err)
{
	struct stat st;

	if (!strcmp(path, "/dev/null"))
		return 0;
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
	    !strncmp(path, "/dev/fd/", 8) || !strncmp(path, "/proc/self/fd/", 14) ||
	    (!lstat(path, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))))
		return iop_errf(err, -EINVAL, "job %s: %s=%s: iopath writes logs and state files to regular files (or /dev/null), not to a stream, FIFO or device",
				job->name, opt, path);
	if (atomic_check_as(opt, path, err)) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		/* on by default: the way to run without it is worth a word */
		return iop_errf(err, -EINVAL, "job %s: %s%s", job->name, msg,
				strcmp(opt, "verify_state_save") ? "" : "; verify_state_save=0 saves no state");
	}
	return 0;
}

int check_job_outputs(const struct job_plan *plan, struct iop_err *err)
{
	static const char *const opts[LOG_KINDS] = {
		[LOG_BW] = "write_bw_log", [LOG_IOPS] = "write_iops_log", [LOG_SLAT] = "write_lat_log",
		[LOG_CLAT] = "write_lat_log", [LOG_LAT] = "write_lat_log", [LOG_HIST] = "write_hist_log",
	};
	const struct job_spec *job = plan->job;
	char path[PATH_MAX];
	struct stat st;
	unsigned c, k;
	int ret = 0;

	for (k = 0; k < 2 && !ret; k++)
		if ((k ? job->exec_postrun : job->exec_prerun)[0] && !exec_path(job, k, path, sizeof(path)))
			ret = check_log(job, k ? "exec_postrun" : "exec_prerun", path, err);
	for (c = 0; c < plan->nr_workers && !ret; c++) {
		for (k = 0; iolog_wanted(job) && k < LOG_KINDS && !ret; k++) {
			if (!(k == LOG_BW ? job->log.bw_set : k == LOG_IOPS ? job->log.iops_set :
			      k == LOG_HIST ? job->log.hist_set : job->log.lat_set))
				continue;
			if (!iolog_path(job, worker_thread_number(plan, c), k, path, sizeof(path)))
				ret = check_log(job, opts[k], path, err);
		}
		if (!ret && job->write_iolog[0] && !trace_path(job, c, path, sizeof(path)))
			ret = check_log(job, "write_iolog", path, err);
		/*
		 * verify_state_save is on by default; a name that holds something already is
		 * checked as every output is (a state file of iopath's, or an empty file, is
		 * replaced; a user's file is refused here, before the first I/O, rather than found
		 * at the end). A verify state file iopath did not write (fio's, from a run beside)
		 * is left to the end as in fio, where it costs the job a line and stays as it was.
		 */
		if (!ret && job->verify.kind != VERIFY_NONE && job->verify.state_save &&
		    job_writes_data(job->rw) && job->rw != RW_COPY && !job->verify.only &&
		    !vstate_path(job, c, path, sizeof(path)) && !lstat(path, &st) &&
		    !(S_ISREG(st.st_mode) && vstate_file(path)))
			ret = check_log(job, "verify_state_save", path, err);
	}
	return ret;
}

/* unlink=1: remove the job's files once it is done, as fio does (regular files only). */
void unlink_job_files(const struct job_plan *plan)
{
	unsigned i;

	if (!plan->job->unlink || plan->job->rw == RW_METADATA || !plan->paths ||
	    (plan->job->engine->flags & ENGINE_DISKLESS))
		return;
	for (i = 0; i < plan_nr_paths(plan); i++)
		/* never a file iopath did not create, unless the user allowed it (checked at plan) */
		if ((target_owned(plan->paths[i]) || may_overwrite(plan->job, plan->pol, plan->paths[i])) &&
		    !file_remove(plan->paths[i]))
			target_remove(plan->paths[i]);	/* and its sidecar, if it has one */
}

/* What the probe must find out about a job's paths to check it: trials, and O_DIRECT honesty. */
static unsigned probe_flags_for(const struct job_spec *job, const struct target_policy *pol)
{
	static bool said;
	unsigned flags = 0;

	if (pol->readonly) {
		/* the trials write a temporary file: --readonly creates and writes nothing */
		if (!said && (job->direct || (job->engine->flags & (ENGINE_TRIAL | ENGINE_MAPS_FILES)))) {
			iop_msgf("--readonly: the probe's capability trials (they write a temporary file) are skipped; what a path can do is not tried");
			said = true;
		}
		return 0;
	}
	if (job->direct || (job->engine->flags & (ENGINE_TRIAL | ENGINE_MAPS_FILES)))
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
void probe_job(struct group_job *gj, struct probe_set *s)
{
	const struct job_plan *plan = &gj->plan;
	const struct job_spec *job = plan->job;
	unsigned flags = probe_flags_for(job, plan->pol), i;
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
int plan_disks(const struct job_list *jobs, const struct group_job *gjs,
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
int check_capabilities(struct group_job *gj, struct iop_err *err)
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
		if (probe_refuses(&d->p, job->direct, ops, why, sizeof(why)))
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

/*
 * flow=: as fio does when it sets jobs up, every worker of every job of the run joins its
 * flow now, and leaves it when it ends (or its job does not run).
 */
int plan_flows(const struct job_list *jobs, struct group_job *gjs, struct flow_set *s,
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
int plan_zbd(const struct job_list *jobs, struct group_job *gjs, struct zbd_set *s,
		    struct iop_err *err)
{
	unsigned i, k;
	int ret;

	for (i = 0; i < jobs->nr; i++) {
		const struct job_spec *job = &jobs->jobs[i];
		struct job_plan *plan = &gjs[i].plan;
		unsigned nr_paths = plan_nr_paths(plan);

		if (!job->zone.zbd)
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

/* Descriptors a job's workers hold at once: every file of a data job stays open (fio's
 * default openfiles=nrfiles; below it, each file keeps the descriptor it was checked on
 * while at most openfiles are open for I/O); a file-operation engine holds one at a time. */
static uint64_t job_fds(const struct job_plan *plan)
{
	const struct job_spec *job = plan->job;
	uint64_t files = job->engine->flags & (ENGINE_FILE_OP | ENGINE_DISKLESS) ||
			 job->rw == RW_METADATA ? 1 : plan->nr_files + (job->rw == RW_COPY);

	/* and the descriptors the files were checked on, kept for the group when shared */
	return plan->nr_workers * (files + FDS_PER_WORKER) +
	       (plan->shared ? plan->nr_files + 1 : 0);
}

/*
 * The jobs that run together must have their files open at once: raise the soft
 * RLIMIT_NOFILE toward the hard one when they need more, or refuse the run naming the job
 * that needs most.
 */
int fit_nofile(const struct job_list *jobs, const struct group_job *gjs,
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
			"job %s: nrfiles=%u x numjobs=%u: the files open at once need about %llu descriptors, RLIMIT_NOFILE allows %llu (hard limit): raise it or lower nrfiles or numjobs (openfiles= does not lower it: each file keeps the descriptor it was checked on)",
			jobs->jobs[big].name, gjs[big].plan.nr_files, gjs[big].plan.nr_workers,
			(unsigned long long)need, (unsigned long long)rl.rlim_max);
}
