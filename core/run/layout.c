/* Laying out a job's files: each opened once before its group runs, and checked on that fd. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/file.h"
#include "job/target.h"
#include "run/runner.h"
#include "run/worker.h"

/*
 * Block devices the run holds O_EXCL: one claim per device, however many of a group's jobs
 * write it (their descriptors are closed together when the group ends).
 */
#define EXCL_MAX 64
static struct {
	dev_t rdev;
	unsigned users;
} excl[EXCL_MAX];

static bool excl_held(dev_t rdev)
{
	unsigned i;

	for (i = 0; i < EXCL_MAX; i++)
		if (excl[i].users && excl[i].rdev == rdev)
			return ++excl[i].users;
	return false;
}

static void excl_add(dev_t rdev)
{
	unsigned i;

	for (i = 0; i < EXCL_MAX && excl[i].users; i++)
		;
	if (i < EXCL_MAX) {
		excl[i].rdev = rdev;
		excl[i].users = 1;
	}
}

static void excl_drop(int fd)
{
	struct stat st;
	unsigned i;

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		return;
	for (i = 0; i < EXCL_MAX; i++)
		if (excl[i].users && excl[i].rdev == st.st_rdev) {
			excl[i].users--;
			return;
		}
}

/* rw=copy's names, looked at as they are bound (the copy plans no per-path state). */
static bool is_link(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISLNK(st.st_mode);
}

/*
 * Open path once for the job, right before its group runs, and decide everything on that
 * descriptor: the name is not followed when it was no link when planned (O_NOFOLLOW); a
 * file missing when planned is created here exclusively; a block device written is opened
 * O_EXCL (a mounted or held one fails with EBUSY, and none can be mounted while the job
 * holds it). *created says this open created it. fd or -errno with err.
 */
static int bind_open(const struct job_plan *plan, const char *path, bool missing, bool link,
		     bool rw, bool *created, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	int flags = (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK, fd = -1, ret;
	struct stat st;

	*created = false;
	if (missing) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno == ENOENT && !file_make_dirs(path))
			fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0) {
			*created = true;
			ret = target_mark_created_for_layout(fd, path);
			if (ret) {
				close(fd);
				unlink(path);
				return iop_errf(err, ret, "job %s: cannot mark %s as created by iopath: %s",
						job->name, path, ret == -EEXIST ?
						"a file of that sidecar's name (.NAME.iopath) is not iopath's" :
						strerror(-ret));
			}
		} else if (errno != EEXIST) {
			return iop_errf(err, -errno, "job %s: cannot create %s: %s", job->name, path,
					strerror(errno));
		}
	}
	if (fd < 0) {
		/* a link the user named is followed; one that appeared since planning is not */
		if (!link)
			flags |= O_NOFOLLOW;
		fd = open(path, flags);
		if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW))
			return iop_errf(err, -ELOOP,
					"job %s: %s became a symbolic link after the run was planned; iopath does not follow it",
					job->name, path);
		if (fd < 0)
			return iop_errf(err, -errno, "job %s: cannot open %s for %s: %s", job->name, path,
					rw ? "writing" : "reading", strerror(errno));
	}
	if (fstat(fd, &st) || fcntl(fd, F_SETFL, 0)) {
		ret = -errno;
		close(fd);
		return iop_errf(err, ret, "job %s: %s: %s", job->name, path, strerror(-ret));
	}
	if (S_ISBLK(st.st_mode) && job_changes_files(job) && !excl_held(st.st_rdev)) {
		int ex = file_reopen_fd(fd, path, O_RDWR | O_EXCL | O_CLOEXEC);

		ret = -errno;
		close(fd);
		if (ex < 0 && ret == -EBUSY)
			return iop_errf(err, -EBUSY,
					"job %s: %s is in use (mounted, active swap, or held by LVM, RAID or device-mapper); iopath will not write to it",
					job->name, path);
		if (ex < 0)
			return iop_errf(err, ret, "job %s: %s: %s", job->name, path, strerror(-ret));
		fd = ex;
		excl_add(st.st_rdev);
	}
	return fd;
}

/*
 * atomic=1: the limits of the descriptor the workers will reopen, checked before its layout
 * (a new file too); the job keeps the narrowest of its files'.
 */
static int bind_atomic(struct job_plan *plan, const char *path, int fd, struct iop_err *err)
{
	struct atomic_limits lim = { 0 }, *a = &plan->atomic;
	int ret;

	if (!plan->job->atomic)
		return 0;
	ret = check_atomic(plan->job, plan, path, fd, &lim, err);
	if (ret || !lim.unit_max)
		return ret;
	if (!a->unit_max) {
		*a = lim;
		return 0;
	}
	a->unit_min = lim.unit_min > a->unit_min ? lim.unit_min : a->unit_min;
	a->unit_max = lim.unit_max < a->unit_max ? lim.unit_max : a->unit_max;
	a->segments_max = lim.segments_max < a->segments_max ? lim.segments_max : a->segments_max;
	return 0;
}

/* Bind path k (plan->fds[k]): open, check and, where the job needs it, lay out. */
static int bind_path(struct job_plan *plan, unsigned k, const char *path, bool missing,
		     bool link, uint64_t end, bool fill, bool layout, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	bool writes = job_changes_files(job), created, blk, incomplete;
	uint64_t size = 0;
	int fd, ret;

	fd = bind_open(plan, path, missing, link, writes, &created, err);
	if (fd < 0)
		return fd;
	plan->fds[k] = fd;
	/* again, on what was opened: time has passed since planning, and earlier groups ran */
	ret = created ? 0 : check_target(job, plan, plan->pol, path, fd, err);
	if (!ret)
		ret = bind_atomic(plan, path, fd, err);
	if (ret)
		goto fail;
	if (!layout)
		return 0;
	ret = file_size_fd(fd, &size, &blk);
	if (ret || blk)
		return ret;
	/* a layout cut short, or a write job's file not yet written whole: laid out again */
	incomplete = !created && target_owned_fd(fd, path) && target_layout_incomplete(fd, path) &&
		     !(job_checks_written(job) && target_layout_unwritten(fd));
	if (!writes && (created || size < end || incomplete)) {
		/* a read job's layout writes: a descriptor that may (checked on this one) */
		int rw = file_reopen_fd(fd, path, O_RDWR | O_CLOEXEC);

		if (rw < 0) {
			ret = iop_errf(err, -errno, "job %s: cannot open %s to lay it out: %s", job->name,
				       path, strerror(errno));
			goto fail;
		}
		close(fd);
		plan->fds[k] = fd = rw;
	}
	if (created || size < end || incomplete) {
		plan->laid_files++;
		plan->laid_bytes += end;
	}
	ret = file_layout_fd(job, fd, path, created, end, fill, plan->unit, err);
	if (ret)
		goto fail;
	return 0;
fail:
	if (created)
		target_remove(path);
	return ret;
}

/*
 * Did worker w write the whole of its one file up to end, from its first byte? A pattern
 * that covers the region in one pass (sequential, or random with the random map), a region
 * from offset 0 to at least end, at least end bytes written, no error and no stop.
 */
static bool wrote_whole(const struct job_plan *plan, const struct worker *w, uint64_t end)
{
	const struct job_spec *job = plan->job;
	bool covers = job->rw == RW_WRITE || (job->rw == RW_RANDWRITE && !job->norandommap);

	return covers && w->st && !w->error && !w->interrupted && plan->nr_files == 1 &&
	       worker_start(plan, w->clone) == 0 && plan->region >= end &&
	       w->st[STAT_WRITE].bytes >= end;
}

void layout_settle(struct job_plan *plan, const struct worker *workers)
{
	unsigned k, c;
	struct stat st;
	int fd;

	if (!plan->fds || !workers || plan->job->rw == RW_COPY || !job_changes_files(plan->job))
		return;
	for (k = 0; k < plan_nr_paths(plan); k++) {
		fd = plan->fds[k];
		if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
		    !target_layout_incomplete(fd, plan->paths[k]))
			continue;
		for (c = 0; c < plan->nr_workers; c++)
			if (plan_path(plan, c, 0) == k && wrote_whole(plan, &workers[c], (uint64_t)st.st_size))
				break;
		/* its data synced before the mark says so, as a layout's is */
		if (c < plan->nr_workers && !fdatasync(fd))
			(void)target_layout_done(fd, plan->paths[k]);
	}
}

/* The descriptors layout_job keeps for the workers; closed by unbind_job. */
static int bind_alloc(struct job_plan *plan, struct iop_err *err)
{
	unsigned i, n = plan_nr_paths(plan) + 1;

	if (plan->fds)
		return 0;
	plan->fds = malloc(n * sizeof(*plan->fds));
	if (!plan->fds)
		return iop_errf(err, -ENOMEM, "job %s: out of memory", plan->job->name);
	for (i = 0; i < n; i++)
		plan->fds[i] = -1;
	return 0;
}

void unbind_job(struct job_plan *plan)
{
	unsigned i;

	for (i = 0; plan->fds && i < plan_nr_paths(plan) + 1; i++)
		if (plan->fds[i] >= 0) {
			if (job_changes_files(plan->job)) {
				excl_drop(plan->fds[i]);
				(void)target_mark_refresh(plan->fds[i], i < plan_nr_paths(plan) ?
							  plan->paths[i] : plan->copy_src);
			}
			close(plan->fds[i]);
		}
	free(plan->fds);
	plan->fds = NULL;
}

/*
 * The copy's source gets its bytes if it lacks them; the destination starts empty, as a new
 * file from cp does (or at full length when the engine must map it). Source and destination
 * are compared as the objects opened, not as names.
 */
static int layout_copy(struct job_plan *plan, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	uint64_t dst_len = job->engine->flags & ENGINE_NEEDS_MAP ? plan->region : 0;
	unsigned src = plan_nr_paths(plan);
	struct stat st;
	bool created;
	int fd, ret;

	fd = bind_open(plan, plan->copy_src, access(plan->copy_src, F_OK) != 0,
		       is_link(plan->copy_src), false, &created, err);
	if (fd < 0)
		return fd;
	plan->fds[src] = fd;
	if (fstat(fd, &st))
		return iop_errf(err, -errno, "job %s: %s: %s", job->name, plan->copy_src,
				strerror(errno));
	if (!plan->copy_src_blockdev) {
		if (!created && !target_owned_fd(fd, plan->copy_src) && !may_overwrite(job, plan->pol, plan->copy_src) &&
		    (uint64_t)st.st_size < plan->region)
			return iop_errf(err, -EEXIST,
					"job %s: copy_from %s is shorter than size= and was not created by iopath",
					job->name, plan->copy_src);
		if (created || (uint64_t)st.st_size < plan->region) {
			/* the source's layout writes: a descriptor that may */
			int rw = file_reopen_fd(fd, plan->copy_src, O_RDWR | O_CLOEXEC);

			if (rw < 0)
				return iop_errf(err, -errno, "job %s: cannot open %s to lay it out: %s",
						job->name, plan->copy_src, strerror(errno));
			close(fd);
			plan->fds[src] = fd = rw;
		}
		ret = file_layout_fd(job, fd, plan->copy_src, created, plan->region, true,
				     plan->unit, err);
		if (ret) {
			if (created)
				target_remove(plan->copy_src);
			return ret;
		}
	}
	ret = bind_path(plan, 0, plan->paths[0], access(plan->paths[0], F_OK) != 0,
			is_link(plan->paths[0]), 0, false, false, err);
	if (ret)
		return ret;
	if (file_same(plan->fds[0], plan->fds[src]))
		return iop_errf(err, -EINVAL,
				"job %s: rw=copy: copy_from %s and filename %s are the same file", job->name,
				plan->copy_src, plan->paths[0]);
	if (!plan->blockdev && !fstat(plan->fds[0], &st) && S_ISREG(st.st_mode) &&
	    ftruncate(plan->fds[0], (off_t)dst_len))
		return iop_errf(err, -errno, "cannot truncate %s to %llu bytes: %s", plan->paths[0],
				(unsigned long long)dst_len, strerror(errno));
	return 0;
}


/* Engines that work on names (filestat, filedelete...): their files laid out by name. */
static int layout_names(const struct job_plan *plan, bool fill, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	unsigned i;
	int ret;

	for (i = 0; i < plan_nr_paths(plan); i++) {
		ret = check_target(job, plan, plan->pol, plan->paths[i], -1, err);
		if (!ret)
			ret = file_layout(job, plan->paths[i], layout_end(plan, i), fill, plan->unit,
					  err);
		if (ret)
			return ret;
	}
	return 0;
}

int layout_job(struct job_plan *plan, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	/* filestat and filedelete: fio lays their files out with data, whatever the direction */
	bool fill = job_reads(job->rw) || (job->engine->flags & ENGINE_FILE_OP);
	bool writes = job_changes_files(job);
	unsigned i, nr_paths = plan->shared ? plan->nr_files : plan->nr_files * plan->nr_workers;
	int ret = exec_outputs_make(job, err);

	if (!ret)
		ret = iosched_switch(plan, err);
	if (ret)
		return ret;
	if (job->rw == RW_METADATA || job->engine->flags & ENGINE_DISKLESS)
		return 0;
	if (job->create_on_open || (job->engine->flags & ENGINE_NO_LAYOUT)) {
		/* fio: no layout, the job's open creates the file */
		for (i = 0; i < nr_paths; i++) {
			ret = check_target(job, plan, plan->pol, plan->paths[i], -1, err);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (job->engine->flags & ENGINE_FILE_OP)
		return layout_names(plan, fill, err);	/* the engine works on names */
	ret = bind_alloc(plan, err);
	if (ret)
		return ret;
	if (job->rw == RW_COPY)
		return layout_copy(plan, err);
	for (i = 0; i < nr_paths; i++) {
		ret = bind_path(plan, i, plan->paths[i], plan->file_missing[i], plan->file_link[i],
				job->file_append ? 0 : layout_end(plan, i), fill,
				fill || writes, err);
		if (ret)
			return ret;
	}
	return 0;
}

