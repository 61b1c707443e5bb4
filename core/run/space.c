/* The free space a run leaves: layouts and write jobs never bring a filesystem below its reserve. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "base/parse.h"
#include "run/runner.h"
#include "run/worker.h"

/* One filesystem the run's files grow on: what they will take, what it has. */
struct fs_need {
	dev_t dev;
	uint64_t need, avail, total;
	unsigned job;		/* the job whose file brought it below the reserve first */
	const char *path;
};

uint64_t space_reserve(uint64_t total)
{
	uint64_t pct = total / 100 * SPACE_RESERVE_PCT;

	return pct < SPACE_RESERVE_MAX ? pct : SPACE_RESERVE_MAX;
}

static bool grows_files(const struct job_spec *job, const struct job_plan *plan);
static bool growth_of(const char *path, uint64_t end, dev_t *dev, uint64_t *grow,
		      struct statvfs *vfs);

/*
 * What is watched of the job while it runs: the files that still take more than they hold (an
 * overwrite of a file allocated whole needs no space, however full its filesystem already
 * is), one on each filesystem they are on (filename=a:b on two filesystems: both).
 */
int space_watched(const struct job_spec *job, const struct job_plan *plan, unsigned **idx,
		  unsigned *n)
{
	dev_t *devs = NULL, dev;
	struct statvfs vfs;
	unsigned k, j, nr = plan_nr_paths(plan);
	uint64_t grow;

	*idx = NULL;
	*n = 0;
	if (plan->pol->allow_fill || !plan->paths || !plan->file_len || !job_changes_files(job) ||
	    !grows_files(job, plan))
		return 0;
	for (k = 0; k < nr; k++) {
		if (!growth_of(plan->paths[k], layout_end(plan, k), &dev, &grow, &vfs))
			continue;
		for (j = 0; j < *n && devs[j] != dev; j++)
			;
		if (j < *n)
			continue;
		if (!devs && (!(devs = calloc(nr, sizeof(*devs))) || !(*idx = calloc(nr, sizeof(**idx))))) {
			free(devs);
			return -ENOMEM;
		}
		devs[*n] = dev;
		(*idx)[(*n)++] = k;
	}
	free(devs);
	return 0;
}

bool space_low(const char *path, char *what, size_t len)
{
	struct statvfs vfs;
	uint64_t total, avail;
	char a[32], r[32];

	if (statvfs(path, &vfs))
		return false;
	total = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (!total || avail >= space_reserve(total))
		return false;
	fmt_bytes_iec(a, sizeof(a), avail);
	fmt_bytes_iec(r, sizeof(r), space_reserve(total));
	snprintf(what, len, "%s free, under iopath's reserve of %s", a, r);
	return true;
}

/* Does the job lay out or write regular files (and may be held to the reserve)? */
static bool grows_files(const struct job_spec *job, const struct job_plan *plan)
{
	if (job->rw == RW_METADATA || (job->engine->flags & (ENGINE_DISKLESS | ENGINE_NO_LAYOUT)) ||
	    job->create_on_open || plan->blockdev || job->fill_device)
		return false;
	return job_reads(job->rw) || job_changes_files(job);
}

/*
 * What path will take beyond what it holds now (allocated blocks: a preallocated file takes
 * no more), and where: *dev and the filesystem's figures. false when it takes nothing.
 */
static bool growth_of(const char *path, uint64_t end, dev_t *dev, uint64_t *grow,
		      struct statvfs *vfs)
{
	char dir[PATH_MAX], *slash;
	struct stat st;
	uint64_t have = 0;

	if (!stat(path, &st)) {
		if (!S_ISREG(st.st_mode))
			return false;
		have = (uint64_t)st.st_blocks * 512;
		if (have > (uint64_t)st.st_size)
			have = (uint64_t)st.st_size;
		if (statvfs(path, vfs))
			return false;
	} else {
		/* a file not made yet, perhaps in directories not made yet: the nearest that is */
		snprintf(dir, sizeof(dir), "%s", path);
		do {
			slash = strrchr(dir, '/');
			if (slash)
				*(slash == dir ? slash + 1 : slash) = '\0';
			else
				snprintf(dir, sizeof(dir), ".");
		} while (stat(dir, &st) && errno == ENOENT && slash && slash != dir);
		if (stat(dir, &st) || statvfs(dir, vfs))
			return false;
	}
	if (end <= have)
		return false;
	*dev = st.st_dev;
	*grow = end - have;
	return true;
}

static struct fs_need *fs_of(struct fs_need **fs, unsigned *n, dev_t dev,
			     const struct statvfs *vfs)
{
	struct fs_need *f;
	unsigned i;

	for (i = 0; i < *n; i++)
		if ((*fs)[i].dev == dev)
			return &(*fs)[i];
	f = realloc(*fs, (*n + 1) * sizeof(**fs));
	if (!f)
		return NULL;
	*fs = f;
	f = &f[(*n)++];
	memset(f, 0, sizeof(*f));
	f->dev = dev;
	f->avail = (uint64_t)vfs->f_bavail * vfs->f_frsize;
	f->total = (uint64_t)vfs->f_blocks * vfs->f_frsize;
	return f;
}

static int refuse(const struct job_list *jobs, const struct fs_need *f, struct iop_err *err)
{
	char need[32], avail[32], total[32], res[32];

	fmt_bytes_iec(need, sizeof(need), f->need);
	fmt_bytes_iec(avail, sizeof(avail), f->avail);
	fmt_bytes_iec(total, sizeof(total), f->total);
	fmt_bytes_iec(res, sizeof(res), space_reserve(f->total));
	return iop_errf(err, -ENOSPC,
			"job %s: its files need %s more on the filesystem of %s, which has %s free of %s: that would leave less than iopath's reserve of %s (%d%% of it, at most 1 GiB); lower size=, or give --allow-fill (or fill_device=1) to fill it",
			jobs->jobs[f->job].name, need, f->path, avail, total, res, SPACE_RESERVE_PCT);
}

/* Count path's growth to end on its filesystem; refuse once one would go below its reserve. */
static int count(const struct job_list *jobs, unsigned i, const char *path, uint64_t end,
		 struct fs_need **fs, unsigned *n, struct iop_err *err)
{
	struct statvfs vfs;
	struct fs_need *f;
	uint64_t grow;
	dev_t dev;

	if (!growth_of(path, end, &dev, &grow, &vfs))
		return 0;
	f = fs_of(fs, n, dev, &vfs);
	if (!f)
		return iop_errf(err, -ENOMEM, "out of memory");
	f->need += grow;
	/* a filesystem that reports no size (ramfs, some FUSE) has no free space to keep */
	if (!f->total || f->path || f->avail >= f->need + space_reserve(f->total))
		return 0;
	f->job = i;
	f->path = path;
	return refuse(jobs, f, err);
}

/* A file an earlier job names too (filename=, shared) grows once: for the largest end, roughly. */
static bool counted_before(const struct job_list *jobs, const struct group_job *gjs, unsigned i,
			   const char *path)
{
	unsigned j, k;

	if (!gjs[i].plan.shared)
		return false;
	for (j = 0; j < i; j++) {
		const struct job_plan *p = &gjs[j].plan;

		if (!p->shared || !p->file_len || !grows_files(&jobs->jobs[j], p))
			continue;
		for (k = 0; k < plan_nr_paths(p); k++)
			if (!strcmp(p->paths[k], path))
				return true;
	}
	return false;
}

int fit_space(const struct job_list *jobs, const struct group_job *gjs, struct iop_err *err)
{
	struct fs_need *fs = NULL;
	unsigned i, k, n = 0;
	int ret = 0;

	if (jobs->policy.allow_fill)
		return 0;
	for (i = 0; i < jobs->nr && !ret; i++) {
		const struct job_plan *plan = &gjs[i].plan;

		if (!grows_files(&jobs->jobs[i], plan))
			continue;
		if (jobs->jobs[i].rw == RW_COPY) {
			/* the source laid out if short, the destination written whole */
			ret = count(jobs, i, plan->copy_src, plan->region, &fs, &n, err);
			if (!ret && !plan->copy_src_blockdev)
				ret = count(jobs, i, plan->paths[0], plan->region, &fs, &n, err);
			continue;
		}
		for (k = 0; plan->file_len && k < plan_nr_paths(plan) && !ret; k++)
			if (!counted_before(jobs, gjs, i, plan->paths[k]))
				ret = count(jobs, i, plan->paths[k], layout_end(plan, k), &fs, &n, err);
	}
	free(fs);
	return ret;
}
