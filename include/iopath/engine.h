/* The I/O engine contract: what an engine implements and what the runner hands it. */
#ifndef IOPATH_ENGINE_H
#define IOPATH_ENGINE_H

#include <errno.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* linux/fs.h's since Linux 6.11: a write that is stored whole or not at all (untorn) */
#ifndef RWF_ATOMIC
#define RWF_ATOMIC 0x00000040
#endif

/*
 * Request directions. READ/WRITE/TRIM carry data; SYNC/DATASYNC flush the request's file;
 * SYNC_FILE_RANGE flushes its offset, len bytes (0: to the file's end) with the flags in
 * struct engine's sync_range_flags (sync_file_range(2); engines flagged ENGINE_SYNC_RANGE).
 */
enum io_ddir {
	DDIR_READ = 0,
	DDIR_WRITE = 1,
	DDIR_TRIM = 2,
	DDIR_SYNC = 3,
	DDIR_DATASYNC = 4,
	DDIR_SYNC_FILE_RANGE = 5,
};

/* One file as a worker sees it; the runner opens it (O_DIRECT included) before engine init. */
struct io_file {
	const char *path;
	int fd;
	unsigned index;		/* slot in the worker's file table, also the registered-file slot */
	uint64_t start;		/* first byte of the region this worker touches */
	uint64_t len;		/* length of that region */
	bool read_only;		/* opened O_RDONLY although the job writes (a copy's source) */
	void *engine_data;	/* owned by the engine (e.g. the mmap'ed region) */
};

/*
 * One I/O. The runner fills buf/offset/len/ddir/file and stamps times; the engine sets res
 * to the bytes moved or -errno, as an io_uring CQE does. Engines never read a clock.
 */
struct io_req {
	void *buf;
	uint64_t offset;
	uint32_t len;
	uint8_t ddir;
	uint8_t flags;		/* runner-private */
	/*
	 * The I/O's own priority (class << 13 | level) for an engine flagged ENGINE_CMDPRIO to
	 * set on the request (the iocb's aio_reqprio, the SQE's ioprio); 0: none, the I/O goes
	 * with its thread's priority. The runner sets it (cmdprio_*) before each submit.
	 */
	uint16_t ioprio;
	struct io_file *file;
	int64_t res;
	uint64_t issue_ns;	/* runner: when submit returned (sync engines: when it was called) */
	uint32_t index;		/* slot in the request pool == registered buffer index */
	uint32_t slat_ns;	/* runner: time spent in submit, saturating */
	void *engine_data;	/* owned by the engine (e.g. the iocb) */
};

/* An engine-specific option, parsed by the core into the engine's option block. */
enum engine_opt_type {
	EOPT_BOOL,	/* may be given bare ("fixedbufs") or as =0/=1 */
	EOPT_INT,
	EOPT_CHOICE,	/* one of the '|'-separated words of choices, stored as its index */
};

struct engine_option {
	const char *name;
	enum engine_opt_type type;
	size_t offset;		/* into the engine's option block (an int) */
	long long min, max;
	int def;		/* value when not given */
	const char *help;
	const char *choices;	/* EOPT_CHOICE: "stat|lstat|statx" */
};

/* The access pattern the job announces (fadvise_hint resolved), for an engine that maps files. */
enum engine_advise {
	ENGINE_ADVISE_NONE,
	ENGINE_ADVISE_RANDOM,
	ENGINE_ADVISE_SEQUENTIAL,
};

/* What the runner hands an engine instance at init. All memory stays valid until exit. */
struct engine_params {
	const void *opts;		/* the engine's option block (ops->opts_size bytes) */
	unsigned iodepth;
	struct io_req *reqs;		/* the request pool, reqs[i].index == i */
	unsigned nr_reqs;
	void *buf_base;			/* every request buffer lies inside [buf_base, +buf_len) */
	size_t buf_len;
	size_t buf_size;		/* bytes per request buffer */
	struct io_file *files;
	unsigned nr_files;
	bool direct;			/* files were opened with O_DIRECT */
	bool writes;			/* files were opened for writing */
	enum engine_advise advise;	/* fadvise_hint resolved: a mapping's madvise */
	/*
	 * atomic=1 on a job that writes: every write goes with RWF_ATOMIC (engines flagged
	 * ENGINE_ATOMIC; decided here, at init, not per request). Reads never carry it.
	 */
	bool atomic;
};

#define ENGINE_APPLIED_MAX 16

/* One engine instance, owned by one worker thread. */
struct engine {
	const struct engine_ops *ops;
	void *priv;
	/* Settings as actually applied ("key", "value"), reported with the results. */
	unsigned nr_applied;
	char applied[ENGINE_APPLIED_MAX][2][48];
	/* The reason for the last failure of init/open, one line; empty when none. */
	char err[256];
	/*
	 * Set by init: this instance's requests carry nothing of their own (io_uring's nop=1,
	 * whose SQE slots are made NOPs once), so it takes them by count (ops->submit_counted,
	 * ops->reap_counted) as well as through submit and reap.
	 */
	bool counted;
	/* Set by the runner before init: sync_file_range(2)'s flags for DDIR_SYNC_FILE_RANGE. */
	unsigned sync_range_flags;
};

/* Engine flags. */
#define ENGINE_SYNC		(1u << 0)	/* requests complete inside submit(); reap is unused */
#define ENGINE_NO_DIRECT	(1u << 1)	/* cannot honour direct=1 */
#define ENGINE_DISKLESS		(1u << 2)	/* moves no data: files are neither opened nor laid out */
#define ENGINE_NEEDS_MAP	(1u << 3)	/* the file must be at least its region long before open */
#define ENGINE_FILE_POS		(1u << 4)	/* seeks the file's shared position: one issuer per file */
#define ENGINE_MODIFIES		(1u << 5)	/* changes its files whatever the direction (falloc's
						 * reads allocate): opened for writing, counted as written */
#define ENGINE_NO_DATA		(1u << 6)	/* operates on files rather than moving data: left out
						 * of the data comparisons (default engines of a sweep) */
#define ENGINE_WRITES_ONLY	(1u << 7)	/* does writes alone: reading and trimming jobs are refused */
/*
 * The measured operation is open_file, once per file and pass, on a file the runner has not
 * opened (fio's filecreate, filestat, filedelete): the runner times it as a completion
 * latency of the job's direction (reads if it reads, else writes) and counts the file's
 * blocks as I/Os without submitting them or timing them (fio's FAKEIO and NOSTATS).
 */
#define ENGINE_FILE_OP		(1u << 8)
#define ENGINE_NO_LAYOUT	(1u << 9)	/* creates its files itself: none is laid out */
#define ENGINE_REMOVES		(1u << 10)	/* removes its files: the ownership rules of unlink=1
						 * (with ENGINE_DIRS: only directories it makes, so an
						 * existing name is refused when planned) */
/*
 * Capabilities the probe and the planner ask of an engine (never its name):
 * TRIAL: it may fail where plain files work (its ring or AIO context refused, or the filesystem
 * lacking what it needs): the probe tries it on each path (init, one read, exit, as the runner
 * calls it) and a path where that fails refuses it. MAPS_FILES: it maps its files MAP_SHARED:
 * a path where the probe's mmap_shared trial fails refuses it. PLAIN_CALLS: plain read/write
 * system calls and nothing of its own to set up (what rw=metadata's own calls stand for).
 */
#define ENGINE_TRIAL		(1u << 11)
#define ENGINE_MAPS_FILES	(1u << 12)
#define ENGINE_PLAIN_CALLS	(1u << 13)
/* Its files are directories (dircreate, dirstat, dirdelete): an existing one is no error. */
#define ENGINE_DIRS		(1u << 14)
/*
 * At iodepth=1 its requests are done by the time submit returns and none waits for reap (fio's
 * null engine is synchronous then): the runner runs it as a synchronous engine at that depth,
 * so, as in fio, their whole time is completion latency and no submission latency is recorded.
 */
#define ENGINE_SYNC_AT_QD1	(1u << 15)
/* It sets io_req.ioprio on each request it submits (fio's cmdprio_* options apply to it). */
#define ENGINE_CMDPRIO		(1u << 16)
/* It can give its writes RWF_ATOMIC (fio's atomic=1: pwritev2's flags, the SQE's or iocb's). */
#define ENGINE_ATOMIC		(1u << 17)
/*
 * The kernel queues its requests: up to iodepth are in flight at the device at once, from one
 * thread (an AIO context, a ring), what a queue-depth ladder measures. KERNEL_RING: through
 * rings shared with the kernel, the cheaper submission where both work (explain tries it first).
 */
#define ENGINE_KERNEL_QUEUE	(1u << 18)
#define ENGINE_KERNEL_RING	(1u << 19)
/*
 * It reaches its files' devices past the block layer (NVMe passthrough through the namespace's
 * generic character device): its files are whole NVMe namespaces, never regular files; the
 * planner tries it on each (init, one read, exit) and refuses the job where that fails, and
 * the probe tries it on a block device.
 */
#define ENGINE_PASSTHRU		(1u << 20)
/* It issues DDIR_SYNC_FILE_RANGE requests (fio's sync_file_range=). */
#define ENGINE_SYNC_RANGE	(1u << 22)
/*
 * Its data path is the page cache whatever direct= says (fio's mmap engine): with direct=1 its
 * files are opened O_DIRECT as fio opens them, and each I/O's pages are flushed (msync) and
 * dropped after it, as fio does; what it measures is no O_DIRECT I/O, so a sweep's or
 * explain's direct=1 cell refuses it as it refuses ENGINE_NO_DIRECT.
 */
#define ENGINE_DIRECT_BY_FLUSH	(1u << 21)

struct engine_ops {
	const char *name;
	const char *help;
	unsigned flags;
	size_t opts_size;			/* size of the option block, 0 when none */
	const struct engine_option *options;	/* NULL-name terminated, or NULL */
	unsigned max_depth;			/* largest iodepth it can queue, 0 = no limit */
	const char *max_depth_why;		/* what sets that limit, for the refusal */
	int (*init)(struct engine *e, const struct engine_params *p);
	void (*exit)(struct engine *e);
	int (*open_file)(struct engine *e, struct io_file *f);		/* optional */
	void (*close_file)(struct engine *e, struct io_file *f);	/* optional */
	/*
	 * Start n requests. Returns how many were accepted (the rest are offered again later)
	 * or -errno when the engine itself failed. Per-request errors go into req->res.
	 */
	int (*submit)(struct engine *e, struct io_req **reqs, unsigned n);
	/* Wait for at least min completions, return at most max of them in done[]. */
	int (*reap)(struct engine *e, struct io_req **done, unsigned min, unsigned max);
	/*
	 * Optional, used only where init set e->counted: start n requests that no struct io_req
	 * stands for (the runner counts them; their offsets, buffers and lengths mean nothing to
	 * the engine). Returns how many were accepted, as submit does, or -errno.
	 */
	int (*submit_counted)(struct engine *e, unsigned n);
	/*
	 * Optional, with submit_counted: wait for at least min of them and take at most max.
	 * Returns how many completed, or -errno; the results of those that failed (-errno, or
	 * another result than whole) go into fails[] (room for max), their number in *nr_fails.
	 */
	int (*reap_counted)(struct engine *e, unsigned min, unsigned max, int32_t *fails,
			    unsigned *nr_fails);
	/*
	 * Optional: CPU time so far of kernel threads that work for this instance alone (an
	 * io_uring SQPOLL thread), which the worker's own usage does not include. 0 or -errno.
	 */
	int (*kthread_cpu)(struct engine *e, uint64_t *usr_ns, uint64_t *sys_ns);
};

/* Record a setting as applied, for the result. */
static inline void engine_applied(struct engine *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void engine_applied(struct engine *e, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (e->nr_applied >= ENGINE_APPLIED_MAX)
		return;
	snprintf(e->applied[e->nr_applied][0], sizeof(e->applied[0][0]), "%s", key);
	va_start(ap, fmt);
	vsnprintf(e->applied[e->nr_applied][1], sizeof(e->applied[0][1]), fmt, ap);
	va_end(ap);
	e->nr_applied++;
}

/* Explain a failure in one line and return code (a negative errno). */
static inline int engine_fail(struct engine *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int engine_fail(struct engine *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return code;
}

/*
 * A trim, as fio 3.33 issues it on Linux whatever the engine: BLKDISCARD on the file's
 * descriptor, synchronously. A regular file answers ENOTTY (fio 3.33 fails the job the same
 * way). Returns the bytes trimmed or -errno.
 */
static inline int64_t engine_trim(const struct io_req *r)
{
	uint64_t range[2] = { r->offset, r->len };

	return ioctl(r->file->fd, BLKDISCARD, range) ? -errno : (int64_t)r->len;
}

/*
 * A flush request done inline: fsync, fdatasync, or sync_file_range over the request's range
 * with the instance's flags. 0 or -errno.
 */
static inline int64_t engine_flush(const struct engine *e, const struct io_req *r)
{
	int ret;

	if (r->ddir == DDIR_SYNC_FILE_RANGE)
		ret = sync_file_range(r->file->fd, (off64_t)r->offset, (off64_t)r->len,
				      e->sync_range_flags);
	else
		ret = r->ddir == DDIR_SYNC ? fsync(r->file->fd) : fdatasync(r->file->fd);
	return ret ? -errno : 0;
}

/*
 * The submit of a file-operation engine (ENGINE_FILE_OP), whose measured call is made in
 * open_file: never called, as the runner only counts such an engine's requests; each
 * completes whole.
 */
static inline int engine_file_op_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++)
		reqs[i]->res = reqs[i]->len;
	return (int)n;
}

/* The registry: engines/registry.c. */
struct engine_entry {
	const char *name;
	const struct engine_ops *ops;
	bool force_direct;	/* an alias that means "this engine with direct=1" */
};

extern const struct engine_entry engine_table[];
const struct engine_entry *engine_find(const char *name);
/* The engine of a job that names none (ioengine=): fio's default, psync. */
extern const char engine_default[];

#endif
