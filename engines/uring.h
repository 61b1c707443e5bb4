/* What the io_uring engines share: the ring's options (fio's names), its state, set-up and completions. */
#ifndef IOPATH_ENGINES_URING_H
#define IOPATH_ENGINES_URING_H

#include <liburing.h>
#include <sys/types.h>

#include "iopath/engine.h"

/* The ring's options; an engine whose option block starts with this struct shares them. */
struct uring_opts {
	int fixedbufs;
	int registerfiles;
	int sqthread_poll;
	int sqthread_poll_cpu;
	int hipri;
	int nop;
	int defer_taskrun;
	int nop_file;
};

/* The ring options' entries (fio's names), for an option table whose block starts with uring_opts. */
#define URING_RING_OPTIONS \
	{ "fixedbufs", EOPT_BOOL, offsetof(struct uring_opts, fixedbufs), 0, 1, 0, \
	  "register the request buffers with the kernel (READ/WRITE_FIXED, IORING_URING_CMD_FIXED)", NULL }, \
	{ "registerfiles", EOPT_BOOL, offsetof(struct uring_opts, registerfiles), 0, 1, 0, \
	  "register the files with the kernel (IOSQE_FIXED_FILE)", NULL }, \
	{ "sqthread_poll", EOPT_BOOL, offsetof(struct uring_opts, sqthread_poll), 0, 1, 0, \
	  "a kernel thread polls the submission queue (SQPOLL)", NULL }, \
	{ "sqthread_poll_cpu", EOPT_INT, offsetof(struct uring_opts, sqthread_poll_cpu), 0, 4095, \
	  -1, "CPU to pin the SQPOLL thread to", NULL }, \
	{ "hipri", EOPT_BOOL, offsetof(struct uring_opts, hipri), 0, 1, 0, \
	  "polled completions (IOPOLL); needs direct=1 (or passthrough) and a device with poll queues", NULL }, \
	{ "defer_taskrun", EOPT_BOOL, offsetof(struct uring_opts, defer_taskrun), 0, 1, 1, \
	  "single-issuer ring with deferred task running, when the kernel has it (0: completions run as task work at any syscall)", NULL }

/* One ring of one engine instance; an engine's own state starts with it. */
struct uring_priv {
	struct io_uring ring;
	struct uring_opts o;
	unsigned sync_range_flags;	/* struct engine's, for IORING_OP_SYNC_FILE_RANGE */
	bool defer_taskrun;
	bool fixed_files;
	bool fixed_bufs;
	/* a CQE's res of 0 means the request is done whole (NOP, NVMe passthrough: res is the
	 * command's status, a positive one an NVMe error) */
	bool res_is_status;
	int32_t nop_res;	/* a counted NOP's result when done: 0, or its length (nop_file) */
	pid_t sqpoll_tid;	/* the ring's SQPOLL thread as a task of this process; 0: none seen */
	unsigned wflags;	/* the RWF_* flags of every write (the SQE's rw_flags) */
	struct io_req **trimmed;	/* requests completed inline (trims, refusals), reaped next */
	unsigned nr_trimmed;
};

/* Set the ring up with setup_flags added (IORING_SETUP_SQE128...), the best tier the kernel has. */
int uring_ring_setup(struct engine *e, struct uring_priv *u, unsigned entries, unsigned setup_flags);
/* fixedbufs and registerfiles as the options ask; fds: the descriptors to register (NULL: the files'). */
int uring_register_extras(struct engine *e, struct uring_priv *u, const struct engine_params *p,
			  const int *fds);
/*
 * Hand the kernel the SQEs prepared so far: queued of the n offered are in the ring, and the
 * kernel (or the SQPOLL thread) takes what it does not take now at the next enter, which
 * reap's submit_and_wait makes sure of. Returns queued, or -errno.
 */
static inline int uring_submit_queued(struct uring_priv *u, unsigned queued)
{
	int ret;

	do {
		ret = io_uring_submit(&u->ring);
	} while (ret == -EINTR);
	if (ret == -EAGAIN || ret == -EBUSY)
		ret = 0;
	return ret < 0 ? ret : (int)queued;
}

int uring_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max);
int uring_kthread_cpu(struct engine *e, uint64_t *usr_ns, uint64_t *sys_ns);

#endif
