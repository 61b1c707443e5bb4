/* io_uring: batched submission and completion rings, with the kernel-bypass-style options. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "iopath/engine.h"
#include "uring.h"

/* Engine options, fio's names. */
static const struct engine_option uring_options[] = {
	URING_RING_OPTIONS,
	{ "nop", EOPT_BOOL, offsetof(struct uring_opts, nop), 0, 1, 0,
	  "submit IORING_OP_NOP instead of I/O: the ring's own peak rate", NULL },
	{ "nop_file", EOPT_BOOL, offsetof(struct uring_opts, nop_file), 0, 1, 0,
	  "with nop=1: each NOP names its file and buffer (registered ones with registerfiles, fixedbufs) and gets its length back, lookups the kernel makes per NOP (IORING_NOP_FILE, as t/io_uring's NOPs since fio 3.39)", NULL },
	{ NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

/*
 * The SQPOLL thread of a ring this thread set up. The kernel names it
 * iou-sqp-<creator's tid> and, since 5.12, makes it a task of the creating process, so its CPU
 * time can be read (and is not in the creator's own usage). 0 when it is not there.
 */
static pid_t find_sqpoll_thread(void)
{
	char want[32], path[300], comm[32];
	long self = syscall(SYS_gettid);
	struct dirent *de;
	pid_t found = 0;
	DIR *d;
	FILE *f;

	snprintf(want, sizeof(want), "iou-sqp-%ld", self);
	d = opendir("/proc/self/task");
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		/* comm holds at most 15 characters: compare that much */
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = 0;
			if (!strncmp(comm, want, 15))
				found = (pid_t)atoi(de->d_name);
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

/* utime and stime of a task of this process, from /proc (clock ticks), in nanoseconds. */
static int task_cpu(pid_t tid, uint64_t *usr_ns, uint64_t *sys_ns)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	long hz = sysconf(_SC_CLK_TCK);
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* fields after the command name, which may hold spaces: state is field 3, utime 14 */
	p = strrchr(buf, ')');
	if (!p || hz <= 0 ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -EINVAL;
	*usr_ns = ut * (1000000000ull / (unsigned long long)hz);
	*sys_ns = st * (1000000000ull / (unsigned long long)hz);
	return 0;
}

#ifndef IORING_SETUP_NO_SQARRAY
#define IORING_SETUP_NO_SQARRAY (1U << 16)
#endif

/*
 * The ring without its SQ index array (IORING_SETUP_NO_SQARRAY, Linux 6.6): the kernel takes
 * the SQE in slot tail & mask, which is where every submission here writes it (the identity
 * array liburing would fill says the same), and so reads one array entry less per SQE. Set up
 * and mapped here because liburing 2.3's io_uring_queue_init_params does not know the flag: it
 * writes its identity array at sq_off.array, which the kernel leaves at 0 for such a ring,
 * over the ring's head, tail and CQEs; io_uring_queue_mmap writes no array. A kernel without
 * the flag (EINVAL) gets liburing's set-up with the array.
 */
static int ring_init(unsigned entries, struct io_uring *ring, struct io_uring_params *p)
{
	struct io_uring_params q = *p;
	int fd, ret;

	q.flags |= IORING_SETUP_NO_SQARRAY;
	fd = (int)syscall(__NR_io_uring_setup, entries, &q);
	if (fd < 0 && errno != EINVAL)
		return -errno;
	if (fd >= 0 && !(q.features & IORING_FEAT_SINGLE_MMAP)) {
		/* one mapping holds the SQ ring's head and tail only where it is shared */
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return io_uring_queue_init_params(entries, ring, p);
	ret = io_uring_queue_mmap(fd, &q, ring);
	if (ret) {
		close(fd);
		return ret;
	}
	ring->features = q.features;
	*p = q;
	return 0;
}

/* Try the best ring set-up the kernel has, falling back step by step. */
int uring_ring_setup(struct engine *e, struct uring_priv *u, unsigned entries, unsigned setup_flags)
{
	static const struct {
		unsigned flags;
		const char *what;
	} tiers[] = {
		{ IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, "single_issuer+defer_taskrun" },
		{ IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN, "single_issuer+coop_taskrun" },
		{ IORING_SETUP_COOP_TASKRUN, "coop_taskrun" },
		{ 0, "plain" },
	};
	struct io_uring_params p;
	unsigned base = setup_flags, i;
	int cpu = u->o.sqthread_poll_cpu;
	int ret = -EINVAL;

	if (u->o.hipri)
		base |= IORING_SETUP_IOPOLL;
	if (u->o.sqthread_poll) {
		base |= IORING_SETUP_SQPOLL;
		if (cpu >= 0)
			base |= IORING_SETUP_SQ_AFF;
	}
	for (i = 0; i < sizeof(tiers) / sizeof(tiers[0]); i++) {
		/* SQPOLL submits from its own thread: deferred task running does not apply */
		if ((u->o.sqthread_poll || !u->o.defer_taskrun) &&
		    (tiers[i].flags & IORING_SETUP_DEFER_TASKRUN))
			continue;
		memset(&p, 0, sizeof(p));
		p.flags = base | tiers[i].flags;
		if (u->o.sqthread_poll) {
			p.sq_thread_idle = 1000;
			if (cpu >= 0)
				p.sq_thread_cpu = (unsigned)cpu;
		}
		ret = ring_init(entries, &u->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (ret == -ENOSYS)
		return engine_fail(e, ret, "io_uring_setup: %s (kernel without io_uring; try ioengine=libaio)",
				   strerror(-ret));
	if (ret == -EPERM)
		return engine_fail(e, ret,
				   "io_uring_setup: %s (io_uring is disabled: see /proc/sys/kernel/io_uring_disabled, or a seccomp/container policy; try ioengine=libaio)",
				   strerror(-ret));
	if (ret)
		return engine_fail(e, ret, "io_uring_setup(%u entries, flags 0x%x): %s", entries,
				   base, strerror(-ret));
	u->defer_taskrun = tiers[i].flags & IORING_SETUP_DEFER_TASKRUN;
	engine_applied(e, "ring_entries", "%u", p.sq_entries);
	engine_applied(e, "taskrun", "%s", tiers[i].what);
	engine_applied(e, "sq_array", "%s", p.flags & IORING_SETUP_NO_SQARRAY ?
		       "none (IORING_SETUP_NO_SQARRAY)" : "identity");
	engine_applied(e, "sqpoll", "%s", u->o.sqthread_poll ? "yes" : "no");
	if (u->o.sqthread_poll && cpu >= 0)
		engine_applied(e, "sqpoll_cpu", "%d", cpu);
	if (u->o.sqthread_poll) {
		/* the thread names itself once it runs: give it up to 100 ms */
		for (i = 0; i < 100 && !(u->sqpoll_tid = find_sqpoll_thread()); i++)
			usleep(1000);
		engine_applied(e, "sqpoll_thread", "%s",
			       u->sqpoll_tid ? "found (its CPU time is reported)" : "not visible");
	}
	engine_applied(e, "iopoll", "%s", u->o.hipri ? "yes" : "no");
	return 0;
}

int uring_register_extras(struct engine *e, struct uring_priv *u, const struct engine_params *p,
			  const int *fds)
{
	unsigned i;
	int ret;

	if (u->o.fixedbufs) {
		struct iovec *iov = calloc(p->nr_reqs, sizeof(*iov));

		if (!iov)
			return -ENOMEM;
		for (i = 0; i < p->nr_reqs; i++) {
			iov[i].iov_base = p->reqs[i].buf;
			iov[i].iov_len = p->buf_size;
		}
		ret = io_uring_register_buffers(&u->ring, iov, p->nr_reqs);
		free(iov);
		if (ret)
			return engine_fail(e, ret, "fixedbufs: registering %u buffers: %s (RLIMIT_MEMLOCK?)",
					   p->nr_reqs, strerror(-ret));
		u->fixed_bufs = true;
	}
	if (u->o.registerfiles) {
		int *own = fds ? NULL : calloc(p->nr_files, sizeof(*own));

		if (!fds && !own)
			return -ENOMEM;
		for (i = 0; own && i < p->nr_files; i++) {
			own[i] = p->files[i].fd;
			/* openfiles below nrfiles: files open later than the ring, fio refuses too */
			if (own[i] < 0) {
				free(own);
				return engine_fail(e, -EINVAL,
						   "registerfiles needs every file open from the start: openfiles (below nrfiles) must equal nrfiles, as fio requires");
			}
		}
		ret = io_uring_register_files(&u->ring, fds ? fds : own, p->nr_files);
		free(own);
		if (ret == -EMFILE)
			return engine_fail(e, ret,
					   "registerfiles: registering %u files: %s (the kernel's registered-file table holds at most RLIMIT_NOFILE and IORING_MAX_FIXED_FILES files; fio fails the job alike)",
					   p->nr_files, strerror(-ret));
		if (ret)
			return engine_fail(e, ret, "registerfiles: registering %u files: %s",
					   p->nr_files, strerror(-ret));
		u->fixed_files = true;
	}
	engine_applied(e, "fixedbufs", "%s", u->fixed_bufs ? "yes" : "no");
	engine_applied(e, "registerfiles", "%s", u->fixed_files ? "yes" : "no");
	/* a registered ring fd saves a file-table lookup on every io_uring_enter */
	engine_applied(e, "registered_ring_fd", "%s",
		       io_uring_register_ring_fd(&u->ring) == 1 ? "yes" : "no");
	if (u->o.nop)
		engine_applied(e, "op", "%s", !u->o.nop_file ? "IORING_OP_NOP" :
			       u->fixed_files && u->fixed_bufs ?
			       "IORING_OP_NOP naming its registered file and buffer, its length injected" :
			       u->fixed_files ? "IORING_OP_NOP naming its registered file, its length injected" :
			       u->fixed_bufs ? "IORING_OP_NOP naming its file and registered buffer, its length injected" :
			       "IORING_OP_NOP naming its file, its length injected");
	if (p->atomic && !u->o.nop) {
		u->wflags = RWF_ATOMIC;
		engine_applied(e, "atomic", "RWF_ATOMIC in the SQE's rw_flags");
	}
	return 0;
}

#ifndef IORING_NOP_INJECT_RESULT
#define IORING_NOP_INJECT_RESULT (1U << 0)
#endif
#ifndef IORING_NOP_FILE
#define IORING_NOP_FILE (1U << 1)
#endif
#ifndef IORING_NOP_FIXED_FILE
#define IORING_NOP_FIXED_FILE (1U << 2)
#endif
#ifndef IORING_NOP_FIXED_BUFFER
#define IORING_NOP_FIXED_BUFFER (1U << 3)
#endif

/*
 * One NOP; with nop_file it names file fd (an index into the registered files when they
 * are) and, with registered buffers, buffer buf, and has the kernel post len as its result:
 * the file and buffer are looked up per NOP (the SQE's rw_flags are the NOP's flags).
 */
static void nop_prep(const struct uring_priv *u, struct io_uring_sqe *sqe, int fd, unsigned buf,
		     unsigned len)
{
	io_uring_prep_nop(sqe);
	if (!u->o.nop_file)
		return;
	sqe->fd = fd;
	sqe->len = len;
	sqe->buf_index = (__u16)buf;
	sqe->rw_flags = IORING_NOP_FILE | IORING_NOP_INJECT_RESULT |
			(u->fixed_files ? IORING_NOP_FIXED_FILE : 0) |
			(u->fixed_bufs ? IORING_NOP_FIXED_BUFFER : 0);
}

/*
 * A NOP ring's SQEs hold nothing but NOPs: each slot is made a NOP once, here (naming the
 * first file and buffer with nop_file, as a counted phase of one file takes them), and a
 * submission writes only its request into the slot's user_data, or with nop_file also its
 * file, buffer and length (the kernel reads the SQEs and writes none of them).
 */
static void nop_ring_prep(struct uring_priv *u, const struct engine_params *p)
{
	int fd = u->fixed_files ? 0 : p->nr_files ? p->files[0].fd : -1;
	unsigned i;

	for (i = 0; i <= u->ring.sq.ring_mask; i++)
		nop_prep(u, &u->ring.sq.sqes[i], fd, 0, (unsigned)p->buf_size);
	u->nop_res = u->o.nop_file ? (int32_t)p->buf_size : 0;
}

/*
 * nop_file's NOPs need a kernel whose NOP takes a file and injects a result: one is tried
 * (a kernel that does not know the flags refuses them, or one older still ignores them
 * and posts 0). 0 when it came back with its length.
 */
static int nop_file_trial(struct engine *e, struct uring_priv *u, const struct engine_params *p)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	struct io_uring_cqe *cqe;
	int ret, res;

	if (!sqe)
		return engine_fail(e, -EBUSY, "nop_file: no SQE free for the trial NOP");
	nop_prep(u, sqe, u->fixed_files ? 0 : p->files[0].fd, 0, (unsigned)p->buf_size);
	ret = io_uring_submit_and_wait(&u->ring, 1);
	if (ret < 0)
		return engine_fail(e, ret, "nop_file: the trial NOP: %s", strerror(-ret));
	ret = io_uring_peek_cqe(&u->ring, &cqe);
	if (ret)
		return engine_fail(e, ret, "nop_file: the trial NOP completed nothing: %s", strerror(-ret));
	res = cqe->res;
	io_uring_cqe_seen(&u->ring, cqe);
	if (res != (int)p->buf_size)
		return engine_fail(e, -EINVAL,
				   "nop_file=1: this kernel's IORING_OP_NOP does not take a file and a result (IORING_NOP_FILE, IORING_NOP_INJECT_RESULT): the trial NOP returned %d (%s), not its length %u; use nop=1 alone",
				   res, res < 0 ? strerror(-res) : "the flags ignored", (unsigned)p->buf_size);
	return 0;
}

static int uring_init(struct engine *e, const struct engine_params *p)
{
	struct uring_priv *u = calloc(1, sizeof(*u));
	int ret;

	e->counted = false;
	if (!u)
		return -ENOMEM;
	memcpy(&u->o, p->opts, sizeof(u->o));
	/* a NOP's result is its status, or with nop_file the length it was given */
	u->res_is_status = u->o.nop && !u->o.nop_file;
	if (u->o.nop_file && (!u->o.nop || !p->nr_files)) {
		bool nop = u->o.nop;

		free(u);
		return engine_fail(e, -EINVAL, nop ? "nop_file=1 needs a file to name" :
				   "nop_file=1 is an option of nop=1 (the NOPs name the file): give nop=1 too");
	}
	u->trimmed = calloc(p->iodepth, sizeof(*u->trimmed));
	if (!u->trimmed) {
		free(u);
		return -ENOMEM;
	}
	if (u->o.hipri && !p->direct && !u->o.nop) {
		free(u->trimmed);
		free(u);
		return engine_fail(e, -EINVAL, "hipri (IOPOLL) needs direct=1: polled completion works only for O_DIRECT I/O");
	}
	ret = uring_ring_setup(e, u, p->iodepth, 0);
	if (ret) {
		free(u->trimmed);
		free(u);
		return ret;
	}
	e->priv = u;
	u->sync_range_flags = e->sync_range_flags;
	ret = uring_register_extras(e, u, p, NULL);
	if (!ret && u->o.nop_file)
		ret = nop_file_trial(e, u, p);
	if (!ret && u->o.nop)
		nop_ring_prep(u, p);
	if (ret) {
		io_uring_queue_exit(&u->ring);
		free(u->trimmed);
		free(u);
		e->priv = NULL;
		return ret;
	}
	/* every slot a NOP already: requests can go by count, nothing written per NOP */
	e->counted = u->o.nop;
	return 0;
}

static void uring_exit(struct engine *e)
{
	struct uring_priv *u = e->priv;

	io_uring_queue_exit(&u->ring);
	free(u->trimmed);
	free(u);
}

static void prep(struct uring_priv *u, struct io_uring_sqe *sqe, struct io_req *r)
{
	int fd = u->fixed_files ? (int)r->file->index : r->file->fd;

	if (u->o.nop) {
		nop_prep(u, sqe, fd, r->index, r->len);
	} else if (r->ddir == DDIR_SYNC_FILE_RANGE) {
		io_uring_prep_sync_file_range(sqe, fd, r->len, r->offset, (int)u->sync_range_flags);
	} else if (r->ddir >= DDIR_SYNC) {
		io_uring_prep_fsync(sqe, fd, r->ddir == DDIR_DATASYNC ? IORING_FSYNC_DATASYNC : 0);
	} else if (u->fixed_bufs) {
		if (r->ddir == DDIR_READ)
			io_uring_prep_read_fixed(sqe, fd, r->buf, r->len, r->offset, (int)r->index);
		else {
			io_uring_prep_write_fixed(sqe, fd, r->buf, r->len, r->offset, (int)r->index);
			sqe->rw_flags = u->wflags;
		}
	} else if (r->ddir == DDIR_READ) {
		io_uring_prep_read(sqe, fd, r->buf, r->len, r->offset);
	} else {
		io_uring_prep_write(sqe, fd, r->buf, r->len, r->offset);
		sqe->rw_flags = u->wflags;
	}
	if (u->fixed_files && !u->o.nop)
		sqe->flags |= IOSQE_FIXED_FILE;
	/* the request's own priority (cmdprio); the prep helpers leave 0, the thread's */
	if (r->ioprio && r->ddir <= DDIR_WRITE && !u->o.nop)
		sqe->ioprio = r->ioprio;
	io_uring_sqe_set_data(sqe, r);
}

/*
 * Wait for min completions, entering the kernel only when they are not already posted (I/O
 * that completes inline, such as page-cache hits, posts its CQE during submit) or when
 * prepared SQEs still wait for it; with nothing to wait for, a deferred or polled ring is
 * still asked for what it has. Interruptions and a full ring are not errors.
 */
static inline int uring_wait_for(struct uring_priv *u, unsigned min)
{
	int ret;

	if (min && (io_uring_cq_ready(&u->ring) < min || io_uring_sq_ready(&u->ring))) {
		ret = io_uring_submit_and_wait(&u->ring, min);
		if (ret < 0 && ret != -EINTR && ret != -ETIME && ret != -EAGAIN && ret != -EBUSY)
			return ret;
	} else if (!io_uring_cq_ready(&u->ring) && (u->defer_taskrun || u->o.hipri)) {
		io_uring_get_events(&u->ring);
	}
	return 0;
}

/*
 * The SQEs are written in place: the free slots are counted from the kernel's head once per
 * call, and the tail is published once, when the batch is in (this engine's SQEs are 64
 * bytes). NOPs have a loop of their own, with no per-request branch.
 */
static int uring_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	struct uring_priv *u = e->priv;
	struct io_uring_sq *sq = &u->ring.sq;
	struct io_uring_sqe *const sqes = sq->sqes;
	unsigned room = io_uring_sq_space_left(&u->ring), tail = sq->sqe_tail, mask = sq->ring_mask;
	unsigned i;

	if (u->o.nop && !u->o.nop_file) {
		n = n < room ? n : room;
		for (i = 0; i < n; i++)
			io_uring_sqe_set_data(&sqes[(tail + i) & mask], reqs[i]);
		sq->sqe_tail = tail + n;
		return uring_submit_queued(u, n);
	}
	for (i = 0; i < n; i++) {
		if (reqs[i]->ddir == DDIR_TRIM) {
			/* no discard op for files and devices alike: inline, after what this
			 * call queued (fio's io_uring does its trims synchronously too) */
			if (i)
				break;
			reqs[i]->res = engine_trim(reqs[i]);
			u->trimmed[u->nr_trimmed++] = reqs[i];
			return 1;
		}
		if (i == room)
			break;
		prep(u, &sqes[(tail + i) & mask], reqs[i]);
	}
	sq->sqe_tail = tail + i;
	return uring_submit_queued(u, i);
}

/*
 * The posted completions from head, ready of them, into done. status: a CQE's res is the
 * command's status (0: done whole); shift: 1 for a ring of 32-byte CQEs (IORING_SETUP_CQE32,
 * passthrough), which indexes in 16-byte steps. Both constant in each instance.
 */
static inline __attribute__((always_inline)) void
reap_posted(const struct io_uring_cq *cq, struct io_req **done, unsigned head, unsigned ready,
	    const bool status, const unsigned shift)
{
	const struct io_uring_cqe *cqes = cq->cqes;
	const unsigned mask = cq->ring_mask;
	unsigned i;

	for (i = 0; i < ready; i++) {
		const struct io_uring_cqe *cqe = &cqes[((head + i) & mask) << shift];
		struct io_req *r = io_uring_cqe_get_data(cqe);
		int32_t res = cqe->res;

		if (!status)
			r->res = res;
		else if (__builtin_expect(res == 0, 1))
			r->res = (int64_t)r->len;
		else
			r->res = res > 0 ? -EIO : res;
		done[i] = r;
	}
}

int uring_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct uring_priv *u = e->priv;
	struct io_uring_cq *cq = &u->ring.cq;
	unsigned head, ready, got = 0;
	int ret;

	while (u->nr_trimmed && got < max)
		done[got++] = u->trimmed[--u->nr_trimmed];
	if (got >= max || (got && got >= min))
		return (int)got;
	min -= got;
	ret = uring_wait_for(u, min);
	if (ret < 0)
		return ret;
	/* the posted completions, the kernel's tail read once */
	head = *cq->khead;
	ready = io_uring_smp_load_acquire(cq->ktail) - head;
	if (ready > max - got)
		ready = max - got;
	done += got;
	if (u->ring.flags & IORING_SETUP_CQE32)
		reap_posted(cq, done, head, ready, u->res_is_status, 1);
	else if (u->res_is_status)
		reap_posted(cq, done, head, ready, true, 0);
	else
		reap_posted(cq, done, head, ready, false, 0);
	io_uring_cq_advance(&u->ring, ready);
	return (int)(got + ready);
}

/*
 * A NOP ring's requests by count: the slots are NOPs since init, so a submission publishes
 * the tail and writes no SQE (the kernel copies the slot's user_data, 0, into the CQE).
 */
static int uring_submit_counted(struct engine *e, unsigned n)
{
	struct uring_priv *u = e->priv;
	unsigned room = io_uring_sq_space_left(&u->ring);

	n = n < room ? n : room;
	u->ring.sq.sqe_tail += n;
	return uring_submit_queued(u, n);
}

/*
 * The posted NOP completions by count: their results are read in the CQ ring's contiguous
 * runs (from head to the ring's end, then from its start) and or-ed, as a NOP done is 0; only
 * when one is not are they read again for the failures.
 */
static int uring_reap_counted(struct engine *e, unsigned min, unsigned max, int32_t *fails,
			      unsigned *nr_fails)
{
	struct uring_priv *u = e->priv;
	struct io_uring_cq *cq = &u->ring.cq;
	const struct io_uring_cqe *cqes = cq->cqes, *c, *end;
	const unsigned mask = cq->ring_mask;
	unsigned head, ready, first, run, i, nf = 0;
	const int32_t want = u->nop_res;
	int32_t any = 0;
	int ret;

	*nr_fails = 0;
	ret = uring_wait_for(u, min);
	if (ret < 0)
		return ret;
	head = *cq->khead;
	ready = io_uring_smp_load_acquire(cq->ktail) - head;
	if (ready > max)
		ready = max;
	first = head & mask;
	run = mask + 1 - first < ready ? mask + 1 - first : ready;
	for (c = cqes + first, end = c + run; c < end; c++)
		any |= c->res ^ want;
	for (c = cqes, end = c + (ready - run); c < end; c++)
		any |= c->res ^ want;
	if (__builtin_expect(any != 0, 0)) {
		for (i = 0; i < ready; i++) {
			int32_t res = cqes[(head + i) & mask].res;

			if (res != want)
				fails[nf++] = res >= 0 ? -EIO : res;
		}
		*nr_fails = nf;
	}
	io_uring_cq_advance(&u->ring, ready);
	return (int)ready;
}

int uring_kthread_cpu(struct engine *e, uint64_t *usr_ns, uint64_t *sys_ns)
{
	struct uring_priv *u = e->priv;

	if (!u->sqpoll_tid)
		return -ENOENT;
	return task_cpu(u->sqpoll_tid, usr_ns, sys_ns);
}

const struct engine_ops io_uring_engine = {
	.name = "io_uring",
	.flags = ENGINE_TRIAL | ENGINE_CMDPRIO | ENGINE_ATOMIC | ENGINE_KERNEL_QUEUE |
		 ENGINE_KERNEL_RING | ENGINE_SYNC_RANGE,
	.help = "io_uring rings via liburing: batched, with fixedbufs/registerfiles/sqthread_poll/hipri/nop",
	.opts_size = sizeof(struct uring_opts),
	.options = uring_options,
	.max_depth = 32768,
	.max_depth_why = "the kernel's ring size limit, IORING_MAX_ENTRIES",
	.init = uring_init,
	.exit = uring_exit,
	.submit = uring_submit,
	.reap = uring_reap,
	.submit_counted = uring_submit_counted,
	.reap_counted = uring_reap_counted,
	.kthread_cpu = uring_kthread_cpu,
};
