/* Mountinfo parsing and filesystem classification: pure functions over text and numbers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_int.h"

/* Copy one space-separated mountinfo field, decoding the kernel's octal escapes (\040 ...). */
static const char *field_copy(const char *s, char *dst, size_t len)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	while (*s && *s != ' ' && *s != '\n') {
		char c = *s++;

		if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
			s += 3;
		}
		if (n + 1 < len)
			dst[n++] = c;
	}
	if (len)
		dst[n] = '\0';
	return s;
}

/*
 * "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue":
 * id parent major:minor root mount-point options [optional fields...] - fstype source super-options
 */
int mountinfo_parse_line(const char *line, struct mnt_entry *e)
{
	char tok[64];
	const char *s;
	int used = 0;

	memset(e, 0, sizeof(*e));
	if (sscanf(line, "%d %d %u:%u %n", &e->id, &e->parent, &e->major, &e->minor, &used) < 4)
		return -EINVAL;
	s = field_copy(line + used, e->root, sizeof(e->root));
	s = field_copy(s, e->mount_point, sizeof(e->mount_point));
	s = field_copy(s, e->opts, sizeof(e->opts));
	for (;;) {
		s = field_copy(s, tok, sizeof(tok));
		if (!tok[0])
			return -EINVAL;
		if (!strcmp(tok, "-"))
			break;
	}
	s = field_copy(s, e->fstype, sizeof(e->fstype));
	s = field_copy(s, e->source, sizeof(e->source));
	field_copy(s, e->super_opts, sizeof(e->super_opts));
	if (!e->fstype[0] || e->mount_point[0] != '/')
		return -EINVAL;
	return 0;
}

/* Does mount point mp contain path? "/" holds everything; "/mnt" holds "/mnt/x", not "/mntx". */
static size_t mount_covers(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (n == 1 && mp[0] == '/')
		return 1;
	if (strncmp(mp, path, n) != 0)
		return 0;
	if (path[n] != '\0' && path[n] != '/')
		return 0;
	return n;
}

/*
 * The mount holding an absolute, resolved path: the longest mount point that covers it, and
 * among equal ones the last listed (a later mount on the same point hides the earlier).
 */
int mountinfo_find(const char *text, const char *path, struct mnt_entry *e)
{
	struct mnt_entry *cur;
	size_t best = 0;
	const char *line = text;
	int ret = -ENOENT;

	cur = malloc(sizeof(*cur));
	if (!cur)
		return -ENOMEM;
	while (line && *line) {
		const char *next = strchr(line, '\n');
		size_t n;

		if (mountinfo_parse_line(line, cur) == 0) {
			n = mount_covers(cur->mount_point, path);
			if (n && n >= best) {
				best = n;
				*e = *cur;
				ret = 0;
			}
		}
		line = next ? next + 1 : NULL;
	}
	free(cur);
	return ret;
}

/*
 * Look key up in a comma-separated option string ("rw,msize=512000,trans=virtio"). A bare
 * "key" matches with an empty value. WSL's drvfs nests "aname=drvfs;path=C:\;uid=1000" in one
 * option; its ';'-separated parts are found too.
 */
bool mount_opt(const char *opts, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);
	const char *s = opts;

	while (s && *s) {
		const char *end = s + strcspn(s, ",;");

		if ((size_t)(end - s) >= klen && !strncmp(s, key, klen) &&
		    (s + klen == end || s[klen] == '=')) {
			if (val && len) {
				const char *v = s + klen + (s[klen] == '=');
				size_t n = (size_t)(end - v);

				if (n >= len)
					n = len - 1;
				memcpy(val, v, n);
				val[n] = '\0';
			}
			return true;
		}
		s = *end ? end + 1 : NULL;
	}
	return false;
}

struct magic_name {
	uint64_t magic;
	const char *name;
};

/* statfs f_type values (linux/magic.h; zfs and vboxsf from their own sources). */
static const struct magic_name magics[] = {
	{ 0xEF53, "ext2/3/4" },
	{ 0x58465342, "xfs" },
	{ 0x9123683E, "btrfs" },
	{ 0xF2F52010, "f2fs" },
	{ 0x2FC12FC1, "zfs" },
	{ 0xCA451A4E, "bcachefs" },
	{ 0x01021994, "tmpfs" },
	{ 0x858458F6, "ramfs" },
	{ 0x958458F6, "hugetlbfs" },
	{ 0x794C7630, "overlay" },
	{ 0x01021997, "9p" },
	{ 0x65735546, "fuse" },
	{ 0x786F4256, "vboxsf" },
	{ 0x6969, "nfs" },
	{ 0xFF534D42, "cifs" },
	{ 0xFE534D42, "smb2" },
	{ 0x00C36400, "ceph" },
	{ 0x4D44, "vfat" },
	{ 0x2011BAB0, "exfat" },
	{ 0x5346544E, "ntfs" },
	{ 0x73717368, "squashfs" },
	{ 0xE0F5E1E2, "erofs" },
	{ 0x9FA0, "proc" },
	{ 0x62656572, "sysfs" },
	{ 0x1CD1, "devpts" },
	{ 0x63677270, "cgroup2" },
	{ 0 , NULL },
};

const char *probe_magic_name(uint64_t f_type)
{
	const struct magic_name *m;

	for (m = magics; m->name; m++)
		if (m->magic == f_type)
			return m->name;
	return NULL;
}

struct fs_kind {
	const char *fstype;		/* mountinfo fstype, or a prefix ending in '.' for FUSE types */
	const char *fs;			/* our canonical name */
	enum probe_fs_class cls;
	uint64_t magic;			/* the statfs magic to expect, 0 = do not check */
};

/* Every filesystem the probe names. To add one, add its mountinfo fstype here. */
static const struct fs_kind fs_kinds[] = {
	{ "ext4", "ext4", PROBE_FS_BLOCK, 0xEF53 },
	{ "ext3", "ext3", PROBE_FS_BLOCK, 0xEF53 },
	{ "ext2", "ext2", PROBE_FS_BLOCK, 0xEF53 },
	{ "xfs", "xfs", PROBE_FS_BLOCK, 0x58465342 },
	{ "btrfs", "btrfs", PROBE_FS_BLOCK, 0x9123683E },
	{ "f2fs", "f2fs", PROBE_FS_BLOCK, 0xF2F52010 },
	{ "bcachefs", "bcachefs", PROBE_FS_BLOCK, 0xCA451A4E },
	{ "zfs", "zfs", PROBE_FS_BLOCK, 0x2FC12FC1 },
	{ "vfat", "vfat", PROBE_FS_BLOCK, 0x4D44 },
	{ "exfat", "exfat", PROBE_FS_BLOCK, 0x2011BAB0 },
	{ "ntfs3", "ntfs3", PROBE_FS_BLOCK, 0 },
	{ "squashfs", "squashfs", PROBE_FS_BLOCK, 0x73717368 },
	{ "erofs", "erofs", PROBE_FS_BLOCK, 0xE0F5E1E2 },
	{ "iso9660", "iso9660", PROBE_FS_BLOCK, 0 },
	{ "tmpfs", "tmpfs", PROBE_FS_MEMORY, 0x01021994 },
	{ "ramfs", "ramfs", PROBE_FS_MEMORY, 0x858458F6 },
	{ "hugetlbfs", "hugetlbfs", PROBE_FS_MEMORY, 0x958458F6 },
	{ "devtmpfs", "devtmpfs", PROBE_FS_MEMORY, 0x01021994 },
	{ "overlay", "overlay", PROBE_FS_OVERLAY, 0x794C7630 },
	/* 9p2000.L reports the host filesystem's magic: never check it. */
	{ "9p", "9p", PROBE_FS_HOSTSHARE, 0 },
	{ "drvfs", "drvfs", PROBE_FS_HOSTSHARE, 0 },
	{ "virtiofs", "virtiofs", PROBE_FS_HOSTSHARE, 0x65735546 },
	{ "vboxsf", "vboxsf", PROBE_FS_HOSTSHARE, 0 },
	{ "vmhgfs", "hgfs", PROBE_FS_HOSTSHARE, 0 },
	{ "fuse.vmhgfs-fuse", "hgfs", PROBE_FS_HOSTSHARE, 0x65735546 },
	{ "prl_fs", "prl_fs", PROBE_FS_HOSTSHARE, 0 },
	{ "fuse.grpcfuse", "grpcfuse", PROBE_FS_HOSTSHARE, 0x65735546 },
	{ "fakeowner", "fakeowner", PROBE_FS_HOSTSHARE, 0 },
	{ "nfs", "nfs", PROBE_FS_NETWORK, 0x6969 },
	{ "nfs4", "nfs", PROBE_FS_NETWORK, 0x6969 },
	{ "cifs", "cifs", PROBE_FS_NETWORK, 0 },
	{ "smb3", "cifs", PROBE_FS_NETWORK, 0 },
	{ "ceph", "ceph", PROBE_FS_NETWORK, 0x00C36400 },
	{ "fuse.glusterfs", "glusterfs", PROBE_FS_NETWORK, 0x65735546 },
	{ "fuse.sshfs", "sshfs", PROBE_FS_NETWORK, 0x65735546 },
	{ "fuse.", "fuse", PROBE_FS_FUSE, 0x65735546 },
	{ "fuse", "fuse", PROBE_FS_FUSE, 0x65735546 },
	{ "fuseblk", "fuseblk", PROBE_FS_FUSE, 0x65735546 },
	{ "proc", "proc", PROBE_FS_PSEUDO, 0 },
	{ "sysfs", "sysfs", PROBE_FS_PSEUDO, 0 },
	{ "devpts", "devpts", PROBE_FS_PSEUDO, 0 },
	{ "cgroup", "cgroup", PROBE_FS_PSEUDO, 0 },
	{ "cgroup2", "cgroup2", PROBE_FS_PSEUDO, 0 },
	{ NULL, NULL, PROBE_FS_UNKNOWN, 0 },
};

static const struct fs_kind *fs_kind_find(const char *fstype)
{
	const struct fs_kind *k;

	for (k = fs_kinds; k->fstype; k++) {
		size_t n = strlen(k->fstype);

		if (k->fstype[n - 1] == '.' ? !strncmp(fstype, k->fstype, n) :
					       !strcmp(fstype, k->fstype))
			return k;
	}
	return NULL;
}

/* Mount options that change how fast a path is, across filesystems. */
static const char *const perf_keys[] = {
	"ro", "sync", "dirsync", "noatime", "relatime", "strictatime", "lazytime",
	/* ext4, xfs, btrfs */
	"data", "commit", "barrier", "nobarrier", "discard", "dax", "journal_async_commit",
	"nodelalloc", "logbsize", "logbufs", "wsync", "allocsize", "compress", "compress-force",
	"nodatacow", "nodatasum", "ssd", "autodefrag", "flushoncommit",
	/* 9p, virtiofs, fuse */
	"trans", "msize", "cache", "version", "directio", "noextend", "max_read", "blksize",
	/* nfs, cifs */
	"vers", "rsize", "wsize", "bsize", "proto", "hard", "soft", "nconnect", "actimeo", "noac",
	"lookupcache", "local_lock", "fsc", "nosharesock", "max_channels",
	/* tmpfs, overlay */
	"huge", "volatile", "metacopy",
	NULL,
};

static void perf_opts_add(char *dst, size_t len, const char *opts)
{
	const char *const *k;
	char val[128], item[192];

	for (k = perf_keys; *k; k++) {
		if (!mount_opt(opts, *k, val, sizeof(val)))
			continue;
		if (val[0])
			probe_fmt(item, sizeof(item), "%s=%s", *k, val);
		else
			probe_fmt(item, sizeof(item), "%s", *k);
		if (mount_opt(dst, *k, NULL, 0))
			continue;
		if (dst[0] && strlen(dst) + 1 < len)
			strcat(dst, ",");
		strncat(dst, item, len - strlen(dst) - 1);
	}
}

/*
 * 9p's cache mode as the kernel shows it: a name ("loose") before 6.6, the mode's bits in hex
 * ("cache=f", "cache=0x5") since; absent means none.
 */
const char *probe_p9_cache_name(const char *val, char *buf, size_t len)
{
	char *end;
	unsigned long v;

	if (!val || !val[0])
		return "none";
	v = strtoul(val, &end, 16);
	if (*end) {
		probe_fmt(buf, len, "%s", val);
		return buf;
	}
	switch (v) {
	case 0x0:
		return "none";
	case 0x1:
		return "readahead";
	case 0x5:
		return "mmap";
	case 0xf:
		return "loose";
	case 0x8f:
		return "fscache";
	}
	probe_fmt(buf, len, "0x%lx", v);
	return buf;
}

static void classify_9p(struct probe_path *p, const char *opts)
{
	char val[64], cache[32], tmp[64];

	if (mount_opt(opts, "trans", val, sizeof(val)))
		probe_fmt(p->p9_trans, sizeof(p->p9_trans), "%s", val);
	if (mount_opt(opts, "msize", val, sizeof(val)))
		p->p9_msize = (unsigned)strtoul(val, NULL, 10);
	cache[0] = '\0';
	if (!mount_opt(opts, "cache", cache, sizeof(cache))) {
		/* Old kernels showed the mode bare: ",loose". */
		static const char *const bare[] = { "loose", "mmap", "fscache", "readahead", NULL };
		const char *const *b;

		for (b = bare; *b; b++)
			if (mount_opt(opts, *b, NULL, 0))
				probe_fmt(cache, sizeof(cache), "%s", *b);
	}
	probe_fmt(p->p9_cache, sizeof(p->p9_cache), "%s",
		 probe_p9_cache_name(cache, tmp, sizeof(tmp)));
	if (mount_opt(opts, "version", val, sizeof(val)))
		probe_fmt(p->p9_version, sizeof(p->p9_version), "%s", val);
	else if (mount_opt(opts, "noextend", NULL, 0))
		probe_fmt(p->p9_version, sizeof(p->p9_version), "9p2000");
	else
		probe_fmt(p->p9_version, sizeof(p->p9_version), "9p2000.L");
	if (mount_opt(opts, "aname", val, sizeof(val)) && !strcmp(val, "drvfs")) {
		/* WSL2 mounts Windows drives as 9p with aname=drvfs. */
		probe_fmt(p->fs, sizeof(p->fs), "drvfs");
		probe_fmt(p->fs_subtype, sizeof(p->fs_subtype), "9p");
	}
}

static void describe_9p(struct probe_path *p)
{
	char msize[32];

	if (p->p9_msize)
		probe_fmt(msize, sizeof(msize), "msize %u", p->p9_msize);
	else
		probe_fmt(msize, sizeof(msize), "default msize");
	probe_fmt(p->fs_desc, sizeof(p->fs_desc), "%s (%s%s, %s, cache=%s%s%s)",
		 !strcmp(p->fs, "drvfs") ? "drvfs (WSL2 9p)" : "9p",
		 p->p9_trans[0] ? "" : "trans ", p->p9_trans[0] ? p->p9_trans : "unknown",
		 msize, p->p9_cache, strcmp(p->p9_version, "9p2000.L") ? ", " : "",
		 strcmp(p->p9_version, "9p2000.L") ? p->p9_version : "");
}

static void describe_network(struct probe_path *p, const char *opts)
{
	char vers[32] = "", proto[16] = "", cache[16] = "";

	if (!mount_opt(opts, "vers", vers, sizeof(vers)))
		mount_opt(opts, "nfsvers", vers, sizeof(vers));
	mount_opt(opts, "proto", proto, sizeof(proto));
	mount_opt(opts, "cache", cache, sizeof(cache));
	probe_fmt(p->fs_desc, sizeof(p->fs_desc), "%s%s%s%s%s%s%s from %s", p->fs,
		 vers[0] ? " vers=" : "", vers, proto[0] ? " over " : "", proto,
		 cache[0] ? " cache=" : "", cache, p->mount_source);
}

static void describe(struct probe_path *p, const char *opts)
{
	if (!strcmp(p->fs, "9p") || (!strcmp(p->fs, "drvfs") && !strcmp(p->fs_subtype, "9p"))) {
		describe_9p(p);
		return;
	}
	switch (p->fs_class) {
	case PROBE_FS_MEMORY:
		probe_fmt(p->fs_desc, sizeof(p->fs_desc), "%s (memory)", p->fs);
		break;
	case PROBE_FS_NETWORK:
		describe_network(p, opts);
		break;
	case PROBE_FS_OVERLAY:
		probe_fmt(p->fs_desc, sizeof(p->fs_desc), "overlay (layered, container storage)");
		break;
	case PROBE_FS_FUSE:
		if (p->fs_subtype[0])
			probe_fmt(p->fs_desc, sizeof(p->fs_desc), "fuse.%s", p->fs_subtype);
		else
			probe_fmt(p->fs_desc, sizeof(p->fs_desc), "fuse from %s", p->mount_source);
		break;
	default:
		if (!strcmp(p->fs, "virtiofs"))
			probe_fmt(p->fs_desc, sizeof(p->fs_desc), "virtiofs%s",
				 mount_opt(opts, "dax", NULL, 0) ? " (dax)" : "");
		else if (!strcmp(p->fs, "vboxsf"))
			probe_fmt(p->fs_desc, sizeof(p->fs_desc), "vboxsf (VirtualBox shared folder)");
		else if (!strcmp(p->fs, "hgfs"))
			probe_fmt(p->fs_desc, sizeof(p->fs_desc), "hgfs (VMware shared folder, %s)",
				 p->fstype);
		else if (!strcmp(p->fs, "drvfs"))
			probe_fmt(p->fs_desc, sizeof(p->fs_desc), "drvfs (WSL1 Windows drive)");
		else if (!strcmp(p->fs, "grpcfuse") || !strcmp(p->fs, "fakeowner"))
			probe_fmt(p->fs_desc, sizeof(p->fs_desc), "%s (Docker Desktop host share)",
				 p->fs);
		else
			probe_fmt(p->fs_desc, sizeof(p->fs_desc), "%s", p->fs);
	}
}

/* Fill fs/fs_class/fs_desc/perf_opts (and the 9p fields) from the mount and the statfs magic. */
void probe_classify(struct probe_path *p)
{
	const struct fs_kind *k = fs_kind_find(p->fstype);
	const char *mname = p->f_type ? probe_magic_name(p->f_type) : NULL;
	char opts[1400];

	probe_fmt(opts, sizeof(opts), "%s,%s", p->mount_opts, p->super_opts);
	p->fs_subtype[0] = '\0';
	p->magic_note[0] = '\0';
	probe_fmt(p->magic_name, sizeof(p->magic_name), "%s", mname ? mname : "");
	if (k && k->cls == PROBE_FS_FUSE && p->mount_source[0] != '/') {
		/* Plain "fuse": the daemon's name may be the source ("vmhgfs-fuse"). */
		char sub[80];

		probe_fmt(sub, sizeof(sub), "fuse.%s", p->mount_source);
		if (fs_kind_find(sub)->cls != PROBE_FS_FUSE)
			k = fs_kind_find(sub);
	}
	if (k) {
		probe_fmt(p->fs, sizeof(p->fs), "%s", k->fs);
		p->fs_class = k->cls;
	} else if (mname) {
		probe_fmt(p->fs, sizeof(p->fs), "%s", mname);
		p->fs_class = PROBE_FS_UNKNOWN;
	} else {
		probe_fmt(p->fs, sizeof(p->fs), "%s", p->fstype[0] ? p->fstype : "unknown");
		p->fs_class = PROBE_FS_UNKNOWN;
	}
	if (!strncmp(p->fstype, "fuse.", 5))
		probe_fmt(p->fs_subtype, sizeof(p->fs_subtype), "%s", p->fstype + 5);
	else if (p->fs_class != PROBE_FS_UNKNOWN && !strncmp(p->fstype, "fuse", 4) &&
		 p->mount_source[0] != '/')
		probe_fmt(p->fs_subtype, sizeof(p->fs_subtype), "%s", p->mount_source);
	if (!strcmp(p->fstype, "9p"))
		classify_9p(p, opts);
	if (!strcmp(p->fstype, "9p") && p->f_type && p->f_type != 0x01021997)
		probe_fmt(p->magic_note, sizeof(p->magic_note),
			 "statfs reports %s (0x%llx): 9p2000.L passes the host filesystem's magic through",
			 mname ? mname : "an unknown magic", (unsigned long long)p->f_type);
	else if (k && k->magic && p->f_type && p->f_type != k->magic)
		probe_fmt(p->magic_note, sizeof(p->magic_note),
			 "statfs magic 0x%llx (%s) does not match mountinfo's %s",
			 (unsigned long long)p->f_type, mname ? mname : "unknown", p->fstype);
	p->perf_opts[0] = '\0';
	perf_opts_add(p->perf_opts, sizeof(p->perf_opts), opts);
	describe(p, opts);
}
