/* The storage-path probe: resolve a path, find its mount, classify it, walk its devices, try it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>

#include "base/err.h"
#include "probe/probe_int.h"

/*
 * Resolve path on the live system. A path that does not exist yet (a job's file) is resolved
 * through its directory, unless existing asks for the path itself (`iopath probe PATH`: a
 * mistyped share must not be answered by its parent's filesystem). dir gets the directory the
 * trials use.
 */
static int resolve_live(const char *path, bool existing, char *resolved, char *dir,
			struct iop_err *err)
{
	char tmp[PATH_MAX], base[PATH_MAX];
	struct stat st;
	char *slash;

	if (realpath(path, resolved)) {
		probe_fmt(dir, PATH_MAX, "%s", resolved);
		if (stat(resolved, &st) == 0 && !S_ISDIR(st.st_mode)) {
			slash = strrchr(dir, '/');
			slash[slash == dir] = '\0';
		}
		return 0;
	}
	if (errno != ENOENT)
		return iop_errf(err, -errno, "probe: %s: %s", path, strerror(errno));
	if (existing)
		return iop_errf(err, -ENOENT,
				"probe: %s: no such file or directory (accepted: an existing directory, file or block device)",
				path);
	probe_fmt(tmp, sizeof(tmp), "%s", path);
	slash = strrchr(tmp, '/');
	if (slash) {
		probe_fmt(base, sizeof(base), "%s", slash + 1);
		slash[slash == tmp] = '\0';
	} else {
		probe_fmt(base, sizeof(base), "%s", tmp);
		probe_fmt(tmp, sizeof(tmp), ".");
	}
	if (!realpath(tmp, dir))
		return iop_errf(err, -errno, "probe: %s: neither it nor its directory exists",
				path);
	if (snprintf(resolved, PATH_MAX, "%s/%s", strcmp(dir, "/") ? dir : "", base) >= PATH_MAX)
		return iop_errf(err, -ENAMETOOLONG, "probe: %s: path too long", path);
	return 0;
}

static int find_mount(const struct probe_env *env, struct probe_path *p, struct iop_err *err)
{
	struct mnt_entry *e;
	char *text;
	int ret;

	ret = probe_slurp(env, "/proc/self/mountinfo", &text);
	if (ret)
		return iop_errf(err, ret, "probe: cannot read %s/proc/self/mountinfo: %s",
				probe_root(env), strerror(-ret));
	e = malloc(sizeof(*e));
	if (!e) {
		free(text);
		return iop_errf(err, -ENOMEM, "probe: out of memory");
	}
	ret = mountinfo_find(text, p->resolved, e);
	if (ret) {
		iop_errf(err, ret, "probe: %s: no mount in mountinfo holds it", p->path);
		goto out;
	}
	probe_fmt(p->mount_point, sizeof(p->mount_point), "%s", e->mount_point);
	probe_fmt(p->mount_source, sizeof(p->mount_source), "%s", e->source);
	probe_fmt(p->fstype, sizeof(p->fstype), "%s", e->fstype);
	probe_fmt(p->mount_opts, sizeof(p->mount_opts), "%s", e->opts);
	probe_fmt(p->super_opts, sizeof(p->super_opts), "%s", e->super_opts);
	p->dev_major = e->major;
	p->dev_minor = e->minor;
out:
	free(e);
	free(text);
	return ret;
}

/*
 * A block device node names the storage itself, not the devtmpfs that holds the node: describe
 * the device chain from its device number. No trials that write to the device: only the
 * passthrough engines' read of its first block.
 */
static bool probe_blockdev(struct probe_path *p)
{
	char blk[PATH_MAX];
	struct stat st;

	/* an NVMe generic device (/dev/ngXnY) stands for its namespace's block device */
	if (!probe_nvme_block_of(p->resolved, blk, sizeof(blk)))
		probe_fmt(p->resolved, sizeof(p->resolved), "%s", blk);
	if (stat(p->resolved, &st) || !S_ISBLK(st.st_mode))
		return false;
	p->dev_major = major(st.st_rdev);
	p->dev_minor = minor(st.st_rdev);
	probe_fmt(p->fs, sizeof(p->fs), "block device");
	probe_fmt(p->fs_desc, sizeof(p->fs_desc), "block device %s", p->resolved);
	probe_fmt(p->mount_source, sizeof(p->mount_source), "%s", p->resolved);
	p->fs_class = PROBE_FS_BLOCK;
	probe_dev_chain(NULL, p);
	probe_nvme_health(p);
	if (p->flags & PROBE_TRIALS)
		probe_passthru_trials(p);
	return true;
}

int probe_path_env(const struct probe_env *env, const char *path, unsigned flags,
		   struct probe_path *p, struct iop_err *err)
{
	char dir[PATH_MAX];
	struct statfs sf;
	int ret;

	memset(p, 0, sizeof(*p));
	p->flags = flags;
	if (!path || !path[0])
		return iop_errf(err, -EINVAL, "probe: empty path");
	probe_fmt(p->path, sizeof(p->path), "%s", path);
	if (probe_live(env)) {
		ret = resolve_live(path, flags & PROBE_EXISTING, p->resolved, dir, err);
		if (ret)
			return ret;
		if (probe_blockdev(p))
			return 0;
	} else {
		if (path[0] != '/')
			return iop_errf(err, -EINVAL, "probe: %s: a path in a sample tree must be absolute",
					path);
		probe_fmt(p->resolved, sizeof(p->resolved), "%s", path);
	}
	ret = find_mount(env, p, err);
	if (ret)
		return ret;
	if (probe_live(env) && statfs(p->resolved, &sf) == 0)
		p->f_type = (uint64_t)(unsigned long)sf.f_type;
	else if (probe_live(env) && statfs(dir, &sf) == 0)
		p->f_type = (uint64_t)(unsigned long)sf.f_type;
	probe_classify(p);
	if (p->dev_major || !strncmp(p->mount_source, "/dev/", 5))
		probe_dev_chain(env, p);
	if (probe_live(env) && (flags & (PROBE_TRIALS | PROBE_TIMING)))
		probe_trials(p, dir, flags);
	return 0;
}

int probe_path(const char *path, unsigned flags, struct probe_path *p, struct iop_err *err)
{
	return probe_path_env(NULL, path, flags, p, err);
}
