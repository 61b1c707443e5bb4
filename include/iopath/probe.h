/* The storage-path probe: what a path is (host, filesystem, device chain) and what it can do. */
#ifndef IOPATH_PROBE_H
#define IOPATH_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct iop_err;

/*
 * Where the probe looks. Every file under /proc, /sys and the container markers is read as
 * root + "/proc/...", so tests can point the probe at a recorded sample tree. With a root set
 * the path is not resolved, statfs'ed or tried on this machine: only the files are read.
 */
struct probe_env {
	const char *root;		/* NULL or "" = the live system */
	const char *cpuid_sig;		/* hypervisor signature to use instead of CPUID, or NULL */
	char *const *envp;		/* environment searched for container hints; NULL = environ */
};

/* Yes / no / could not tell. */
enum probe_tri {
	PROBE_UNKNOWN = 0,
	PROBE_NO,
	PROBE_YES,
};

struct probe_host {
	char kernel[65];		/* uname release */
	char machine[32];		/* uname machine */
	char cpu_model[128];
	unsigned nr_cpus;
	char hv_sig[16];		/* CPUID leaf 0x40000000 signature, printable; "" when absent */
	char hypervisor[48];		/* "KVM", "QEMU/TCG", "Hyper-V", ... or "none" */
	char dmi_vendor[64];		/* /sys/class/dmi/id/sys_vendor, "" when absent */
	char dmi_product[96];
	char dmi_bios[64];
	char platform[48];		/* what DMI says the machine is: "QEMU", "VirtualBox" ... */
	int wsl;			/* 0, 1 or 2 */
	char container[32];		/* "docker", "podman", "lxc", "kubernetes" ... or "none" */
	char container_evidence[192];	/* the markers that were found */
	char virt[64];			/* one phrase for summaries: "KVM", "QEMU/TCG", "WSL2" */
};

/* What kind of storage a filesystem is, as far as performance goes. */
enum probe_fs_class {
	PROBE_FS_UNKNOWN = 0,
	PROBE_FS_BLOCK,		/* on a local block device: ext4, xfs, btrfs ... */
	PROBE_FS_MEMORY,	/* tmpfs, ramfs, hugetlbfs */
	PROBE_FS_HOSTSHARE,	/* a hypervisor's shared folder: 9p, virtiofs, vboxsf, hgfs, drvfs */
	PROBE_FS_NETWORK,	/* nfs, cifs/smb3, ceph ... */
	PROBE_FS_FUSE,		/* another FUSE filesystem */
	PROBE_FS_OVERLAY,	/* overlayfs (a container's root) */
	PROBE_FS_PSEUDO,	/* proc, sysfs, devtmpfs: not storage */
};

#define PROBE_CHAIN_MAX 8

/* One device in the chain below a block-backed mount, the mount's own device first. */
struct probe_dev {
	char name[32];			/* vda, sda1, dm-0, md0, loop0, nvme0n1 */
	char kind[16];			/* "disk", "partition", "dm", "md", "loop", "virtual" */
	char driver[32];		/* the storage driver that matters: virtio_blk, nvme, ahci ... */
	char drivers[160];		/* every driver link from the device up, nearest first */
	char model[64];
	char vendor[64];
	char extra[192];		/* dm name, md level, loop backing file */
	unsigned logical_bs;
	unsigned physical_bs;
	int rotational;			/* -1 when unknown */
	char scheduler[24];
	char write_cache[16];		/* "write back" / "write through" */
	unsigned nr_requests;
	unsigned max_sectors_kb;
};

/* Capability trials, run in a temporary file in the path. */
enum probe_trial_id {
	PROBE_T_CREATE,		/* O_CREAT|O_EXCL of the temporary file */
	PROBE_T_DIRECT_OPEN,	/* open(O_DIRECT) */
	PROBE_T_DIRECT_RW,	/* one aligned O_DIRECT write and read back */
	PROBE_T_UNALIGNED,	/* a 1-byte-offset O_DIRECT read: ok means alignment is not enforced */
	PROBE_T_MMAP,		/* MAP_SHARED store + msync */
	PROBE_T_FALLOCATE,
	PROBE_T_FSYNC,		/* one 4 KiB write + fsync, timed */
	PROBE_T_NR,
};

enum probe_trial_state {
	PROBE_NOT_RUN = 0,
	PROBE_OK,
	PROBE_FAILED,
};

struct probe_trial {
	enum probe_trial_state state;
	int err;			/* positive errno when failed */
	char why[160];			/* short reason or note */
};

/* The trial of one engine flagged ENGINE_TRIAL: set up on the path's file, one read. */
#define PROBE_ENGINE_TRIALS_MAX 8
struct probe_engine_trial {
	char engine[32];
	struct probe_trial t;
};

/*
 * probe_path() flags. Without any, nothing is written and nothing timed: the cheap variant to
 * embed in every result (mount, filesystem, device chain only).
 */
#define PROBE_TRIALS	(1u << 0)	/* capability trials in a temporary file, one timed fsync */
#define PROBE_TIMING	(1u << 1)	/* also the direct-I/O honesty check (64 timed reads) */
#define PROBE_EXISTING	(1u << 2)	/* the path itself must exist: a missing one is refused */

struct probe_path {
	char path[PATH_MAX];		/* as given */
	char resolved[PATH_MAX];	/* absolute, symlinks resolved */
	unsigned flags;			/* the PROBE_* flags it was probed with */

	/* The mount, from mountinfo. */
	char mount_point[PATH_MAX];
	char mount_source[256];
	char fstype[64];		/* as mountinfo says it: "9p", "fuse.vmhgfs-fuse" */
	char mount_opts[256];
	char super_opts[1024];
	unsigned dev_major;
	unsigned dev_minor;

	/* What it is. */
	char fs[32];			/* ext4, xfs, 9p, virtiofs, vboxsf, hgfs, drvfs, nfs, cifs, fuse ... */
	char fs_subtype[48];		/* the FUSE subtype or the 9p flavour (aname=drvfs) */
	enum probe_fs_class fs_class;
	char fs_desc[192];		/* "9p (virtio, msize 512000, cache=none)" */
	char perf_opts[256];		/* the mount options that change performance */
	uint64_t f_type;		/* statfs magic, 0 when not checked */
	char magic_name[32];
	char magic_note[128];		/* when the magic and mountinfo disagree, and why */

	/* 9p only. */
	char p9_trans[16];
	unsigned p9_msize;		/* 0 = the kernel's default */
	char p9_cache[16];		/* none, readahead, mmap, loose, fscache */
	char p9_version[16];

	/* Block devices below the mount, the mount's own first, the disk last. */
	unsigned nr_chain;
	struct probe_dev chain[PROBE_CHAIN_MAX];

	/*
	 * An NVMe namespace's controller counters, from its Health Information log page (a block
	 * device path whose disk's driver is nvme): the commands and data units (1000 x 512
	 * bytes) it has completed since it was made. nvme_health false: not read (why says so).
	 */
	bool nvme_health;
	char nvme_health_why[96];
	uint64_t nvme_host_reads, nvme_host_writes;
	uint64_t nvme_units_read, nvme_units_written;

	/* Trials (PROBE_TRIALS). */
	struct probe_trial trial[PROBE_T_NR];
	struct probe_engine_trial etrial[PROBE_ENGINE_TRIALS_MAX];
	unsigned nr_etrials;
	unsigned direct_align;		/* smallest O_DIRECT alignment that worked: 512 or 4096, 0 = none */
	unsigned dio_mem_align;		/* statx STATX_DIOALIGN, 0 when not reported */
	unsigned dio_offset_align;
	/* atomic (RWF_ATOMIC) writes of a new file there (statx STATX_WRITE_ATOMIC); 0: none */
	unsigned atomic_unit_min;
	unsigned atomic_unit_max;
	unsigned atomic_segments_max;

	/* Timing (PROBE_TIMING). */
	uint64_t fsync_ns;
	enum probe_tri direct_honoured;	/* do O_DIRECT reads reach the storage, not a cache? */
	char direct_evidence[256];
	uint64_t direct_data_ns;	/* O_DIRECT 4 KiB read of written data (6th pct) */
	uint64_t direct_hole_ns;	/* the same of a hole in the same file */
	unsigned direct_reads;		/* pairs of reads those were taken from */
};

/* Describe the machine. Never fails for lack of information: unknown fields stay empty. */
int probe_host(struct probe_host *h);
int probe_host_env(const struct probe_env *env, struct probe_host *h);

/*
 * Describe the storage path holding path (a file, or a directory; a file that does not exist
 * yet is described by its directory, unless PROBE_EXISTING refuses it) and, with PROBE_TRIALS, try what it can do. Returns 0, or
 * -errno with err set when the path itself cannot be resolved or its mount is not found.
 * Trials that fail are results, not errors.
 */
int probe_path(const char *path, unsigned flags, struct probe_path *p, struct iop_err *err);
int probe_path_env(const struct probe_env *env, const char *path, unsigned flags,
		   struct probe_path *p, struct iop_err *err);

/* JSON objects for results and `iopath probe --json`; NULL only when out of memory. */
json_t *probe_host_json(const struct probe_host *h);
json_t *probe_path_json(const struct probe_path *p);

/* One line: "ext4 on /dev/vda (virtio_blk, write-back cache) under KVM". h may be NULL. */
void probe_summary(const struct probe_path *p, const struct probe_host *h, char *buf, size_t len);

/*
 * Should a job with this direct setting and engine be refused on this path before it starts?
 * Only what the trials showed counts: a path probed without trials refuses nothing.
 * On true, why holds one line naming the path and the reason.
 */
/* direct=1 works here but a cache answers it: flag results, do not refuse. */
bool probe_direct_suspect(const struct probe_path *p, char *why, size_t len);

struct engine_ops;
/*
 * Try a passthrough engine (ENGINE_PASSTHRU) on the device at path as the runner calls it:
 * the device opened read-only, init (writes: asking the write access a job that writes needs),
 * one read of its first 4 KiB, exit. It only reads. t says what happened, in one line.
 */
void probe_passthru_trial(const struct engine_ops *ops, const char *path, bool writes,
			  struct probe_trial *t);

/*
 * The block device of the NVMe namespace whose generic character device (/dev/ngXnY) path
 * is: its node /dev/nvmeXnY, checked on the opened node against sysfs's device number, into
 * blk. 0; -ENODEV when path is no namespace's generic device; -errno.
 */
int probe_nvme_block_of(const char *path, char *blk, size_t len);

bool probe_refuses(const struct probe_path *p, bool direct, const struct engine_ops *engine,
		   char *why, size_t len);

/* The engine's trial on this path, or NULL when none was run. */
const struct probe_trial *probe_engine_trial(const struct probe_path *p, const char *engine);

/* Names for enums, for messages and JSON. */
const char *probe_trial_name(enum probe_trial_id id);
const char *probe_fs_class_name(enum probe_fs_class c);
const char *probe_tri_name(enum probe_tri t);

#endif
