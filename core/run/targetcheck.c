/* The checks on a job's targets before anything runs: what may be overwritten, access, O_DIRECT alignment, atomic writes. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "io/file.h"
#include "run/run.h"
#include "run/worker.h"
#include "run/runner.h"

bool may_overwrite(const struct job_spec *job, const struct target_policy *pol,
			  const char *path)
{
	return job->overwrite || target_policy_allows_overwrite(pol, path);
}

int check_access(const struct job_spec *job, const char *path, bool write,
			struct iop_err *err)
{
	if (!faccessat(AT_FDCWD, path, write ? R_OK | W_OK : R_OK, AT_EACCESS))
		return 0;
	return iop_errf(err, -errno, "job %s: cannot open %s for %s: %s", job->name, path,
			write ? "writing" : "reading", strerror(errno));
}

/*
 * A file that does not exist yet: the nearest of its directories that exists must take new
 * entries (the layout creates the missing ones, as fio's create_work_dirs() does).
 */
static int check_new_file(const struct job_spec *job, const char *path, struct iop_err *err)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;
	int ret;

	snprintf(dir, sizeof(dir), "%s", path);
	do {
		slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			slash[slash == dir ? 1 : 0] = '\0';
		ret = stat(dir, &st) ? -errno : 0;
	} while (ret == -ENOENT && slash && slash != dir);
	if (ret)
		return iop_errf(err, ret, "job %s: cannot create %s: directory %s: %s", job->name,
				path, dir, strerror(-ret));
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

/* atomic=1: every worker's writes start at a multiple of their size (blockalign: job_finish). */
static int check_atomic_starts(const struct job_spec *job, const struct job_plan *plan,
			       const char *path, struct iop_err *err)
{
	uint32_t bs = job->bs[DDIR_WRITE];
	unsigned c;

	for (c = 0; c < plan->nr_workers; c++)
		if (worker_start(plan, c) % bs)
			return iop_errf(err, -EINVAL,
					"job %s: atomic=1 with bs=%u on %s: worker %u writes from byte %llu (offset=%llu%s), not a multiple of %u: an atomic write must start at a multiple of its size",
					job->name, bs, path, c, (unsigned long long)worker_start(plan, c),
					(unsigned long long)plan->offset, c ? " plus offset_increment" : "",
					bs);
	return 0;
}

int check_atomic(const struct job_spec *job, const struct job_plan *plan, const char *path,
		 int fd, struct atomic_limits *found, struct iop_err *err)
{
	uint32_t bs = job->bs[DDIR_WRITE];
	struct atomic_limits lim;
	struct stat st;
	int ret;

	/* a test seam: the kernel's own answer to RWF_ATOMIC writes it would refuse */
	if (!job->atomic || getenv("IOPATH_TEST_ATOMIC_UNCHECKED"))
		return 0;
	ret = target_atomic_limits(fd, &lim);
	if (ret)
		return iop_errf(err, ret, "job %s: atomic=1: statx on %s: %s", job->name, path,
				strerror(-ret));
	if (found)
		*found = lim;
	if (!lim.unit_max)
		return iop_errf(err, -EOPNOTSUPP,
				"job %s: atomic=1: %s has no atomic write support (statx reports no atomic write limits), so its RWF_ATOMIC writes would fail (EOPNOTSUPP); use a file or device that has them (statx STATX_WRITE_ATOMIC: XFS, ext4, or a block device with atomic_write_unit_max_bytes, Linux 6.11 or later), or atomic=0",
				job->name, path);
	if (bs < lim.unit_min || bs > lim.unit_max)
		return iop_errf(err, -EINVAL,
				"job %s: atomic=1 with bs=%u: an atomic write on %s is a power of 2 from %u to %u bytes (%s: atomic_write_unit_min %u, unit_max %u, segments_max %u)",
				job->name, bs, path, lim.unit_min, lim.unit_max, lim.source,
				lim.unit_min, lim.unit_max, lim.segments_max);
	if (job->file_append && !fstat(fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size % bs)
		return iop_errf(err, -EINVAL,
				"job %s: atomic=1 with bs=%u and file_append=1: %s is %llu bytes long, not a multiple of %u, and its appended writes would start there: an atomic write must start at a multiple of its size",
				job->name, bs, path, (unsigned long long)st.st_size, bs);
	return check_atomic_starts(job, plan, path, err);
}

/*
 * atomic=1 before the run, without I/O: an existing file on a descriptor of its own; a file
 * still to be created as a new, unnamed file in its directory (O_TMPFILE) would be, where
 * the filesystem makes those (the check on the created file's descriptor follows anyway).
 */
static int check_atomic_path(const struct job_spec *job, const struct job_plan *plan,
			     const char *path, bool exists, struct iop_err *err)
{
	char dir[PATH_MAX];
	const char *slash;
	int fd, ret;

	if (!job->atomic)
		return 0;
	if (exists) {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return iop_errf(err, -errno,
					"job %s: atomic=1: cannot open %s to read its atomic write limits: %s",
					job->name, path, strerror(errno));
	} else {
		slash = strrchr(path, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path),
				 path);
		fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0)
			return check_atomic_starts(job, plan, path, err);
	}
	ret = check_atomic(job, plan, path, fd, NULL, err);
	close(fd);
	return ret;
}

/*
 * The region the job uses in path: its own where the files' regions differ (size=N% of each
 * file), else the plan's one region.
 */
static uint64_t path_region(const struct job_plan *plan, const char *path)
{
	unsigned i, n = plan_nr_paths(plan);

	if (!plan->file_len || !plan->job->sizes.size_pct)
		return plan->region;
	for (i = 0; i < n; i++)
		if (plan->paths[i] == path || !strcmp(plan->paths[i], path))
			return plan->file_len[i];
	return plan->region;
}

/*
 * Refuse, before anything is written, what a job must not or cannot do to one of its
 * files: write (or extend, laying it out) a file iopath did not create, write a block
 * device that holds data, open what it cannot open, misalign direct I/O.
 */
int check_target(const struct job_spec *job, const struct job_plan *plan,
			const struct target_policy *pol, const char *path, int fd,
			struct iop_err *err)
{
	bool writes = job_changes_files(job), blk;
	bool creates = job->engine->flags & ENGINE_NO_LAYOUT;
	uint64_t need = worker_start(plan, plan->nr_workers - 1) + path_region(plan, path), size;
	int ret = fd >= 0 ? file_size_fd(fd, &size, &blk) : file_size(path, &size, &blk);

	/* filecreate opens its files read-write and leaves an existing one as it is */
	if (creates)
		need = 0;
	/* a directory engine that removes (dirdelete) removes only the directories it makes */
	if ((job->engine->flags & ENGINE_DIRS) && (job->engine->flags & ENGINE_REMOVES) &&
	    ret != -ENOENT)
		return iop_errf(err, -EEXIST,
				"job %s: ioengine=%s would remove %s, which is already there: it removes only the directories it makes itself (remove it first, or name a new path)",
				job->name, job->engine->name, path);
	if (ret == -EISDIR && (job->engine->flags & ENGINE_DIRS))
		return 0;

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
		if (!ret && fd < 0)
			ret = check_atomic_path(job, plan, path, false, err);
		return ret ? ret : job->direct ? check_dio_align(job, plan->offset, path, false, err) : 0;
	}
	if (ret)
		return iop_errf(err, ret, "job %s: %s: %s", job->name, path, strerror(-ret));
	if (blk && writes) {
		ret = target_check_blockdev_fd(fd, path, pol, job->name, err);
		if (ret && job->allow_mounted_write && err) {
			struct iop_err why = *err;

			return iop_errf(err, ret, "%.600s; allow_mounted_write=1 in a job is not enough for iopath",
					why.msg);
		}
		if (ret)
			return ret;
	}
	if (pol->readonly && !blk && size < need)
		return iop_errf(err, -EROFS,
				"job %s: %s is %llu bytes, the job reads %llu, and --readonly forbids extending it (give a smaller size=)",
				job->name, path, (unsigned long long)size, (unsigned long long)need);
	/* with a descriptor, its open was the access check */
	ret = fd >= 0 ? 0 : check_access(job, path, writes || creates || (!blk && size < need), err);
	if (ret)
		return ret;
	if (blk && (job->engine->flags & ENGINE_FILE_OP))
		return iop_errf(err, -EINVAL, "job %s: ioengine=%s operates on regular files only; %s is a block device (as in fio)",
				job->name, job->engine->name, path);
	/* a descriptor's own check is its binder's (bind_path), which keeps the limits found */
	ret = fd >= 0 ? 0 : check_atomic_path(job, plan, path, true, err);
	if (ret)
		return ret;
	if (!blk && !may_overwrite(job, pol, path) &&
	    !(fd >= 0 ? target_owned_fd(fd, path) : target_owned(path))) {
		if (job->engine->flags & ENGINE_REMOVES)
			return iop_errf(err, -EEXIST,
					"job %s: ioengine=%s would delete %s, which iopath did not create (give overwrite=1 in the job, --allow-overwrite, or IOPATH_ALLOW_OVERWRITE=PATH in the environment, to allow it)",
					job->name, job->engine->name, path);
		if (job->unlink || job_unlinks_each_loop(job))
			return iop_errf(err, -EEXIST,
					"job %s: %s would remove %s, which iopath did not create (give overwrite=1 in the job, --allow-overwrite, or IOPATH_ALLOW_OVERWRITE=PATH in the environment, to allow it)",
					job->name, job->unlink ? "unlink=1" : "unlink_each_loop=1",
					path);
		if (writes)
			return iop_errf(err, -EEXIST,
					"job %s: %s exists and was not created by iopath; this write job would overwrite it (give overwrite=1 in the job, --allow-overwrite, or IOPATH_ALLOW_OVERWRITE=PATH in the environment, to allow it)",
					job->name, path);
		if (size < need)
			return iop_errf(err, -EEXIST,
					"job %s: %s is %llu bytes and was not created by iopath; laying out the %llu bytes the job reads would write to it (give a smaller size=, or overwrite=1 / --allow-overwrite / IOPATH_ALLOW_OVERWRITE=PATH)",
					job->name, path, (unsigned long long)size,
					(unsigned long long)need);
	}
	return job->direct ? check_dio_align(job, plan->offset, path, true, err) : 0;
}
