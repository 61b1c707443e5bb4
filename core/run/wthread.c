/*
 * A worker thread's own place: its CPUs (cpus_allowed, numa_cpu_nodes), NUMA memory policy and
 * I/O priority, and the request buffers it then allocates under that policy.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/buffer.h"
#include "base/cpulist.h"
#include "base/numapol.h"
#include "job/target.h"
#include "run/worker.h"
#include "run/runner.h"

/*
 * cpus_allowed, cpumask: this worker thread's CPUs, before anything is allocated. Under
 * cpus_allowed_policy=split the worker keeps one CPU of the set, chosen as fio's
 * fio_cpus_split does, by its thread number over the whole run.
 */
static int setup_cpus(struct worker *w)
{
	const struct job_spec *job = w->job;
	uint64_t set[JOB_CPUS_MAX / 64];
	cpu_set_t cs;
	unsigned c;
	int ret;

	if (!job->cpus_given)
		return 0;
	memcpy(set, job->cpus_allowed, sizeof(set));
	if (job->cpus_split)
		iop_cpus_split(set, worker_thread_number(w->plan, w->clone) - 1);
	CPU_ZERO(&cs);
	for (c = 0; c < JOB_CPUS_MAX && c < CPU_SETSIZE; c++)
		if (cpu_in(set, c))
			CPU_SET(c, &cs);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
	if (ret) {
		char list[128];

		iop_cpus_format(set, list, sizeof(list));
		worker_fail(w, ret, "cpus_allowed: cannot run on CPUs %s: %s", list, strerror(ret));
		return -ret;
	}
	return 0;
}

/* The CPUs the thread runs on after cpus_allowed and numa_cpu_nodes, for the result. */
static void note_cpus(struct worker *w)
{
	cpu_set_t cs;
	unsigned c;

	if (!w->job->cpus_given && !w->job->numa_cpu_nodes[0])
		return;
	if (pthread_getaffinity_np(pthread_self(), sizeof(cs), &cs))
		return;
	memset(w->cpus_applied, 0, sizeof(w->cpus_applied));
	for (c = 0; c < JOB_CPUS_MAX && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &cs))
			cpu_add(w->cpus_applied, c);
	w->cpus_pinned = true;
}

/*
 * prio, prioclass, nice: this worker thread's I/O priority and nice value, after its CPUs as
 * in fio's thread_main. Both calls name the thread (Linux applies them per thread), so one
 * job's setting leaves the run's other threads as they were, as fio's processes are.
 */
static int setup_priority(struct worker *w)
{
	const struct job_spec *job = w->job;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int cur;

	if (job->ioprio_given) {
		/* fio's ioprio_set: no class (0) is best-effort */
		unsigned cls = job->ioprio_class ? job->ioprio_class : 2;

		if (syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, tid,
			    (int)(cls << 13 | job->ioprio))) {
			int e = errno;

			worker_fail(w, e, "prio=%u prioclass=%u: ioprio_set: %s", job->ioprio,
				    job->ioprio_class, strerror(e));
			return -e;
		}
	}
	if (job->nice) {
		errno = 0;
		cur = getpriority(PRIO_PROCESS, (id_t)tid);
		if ((cur == -1 && errno) || setpriority(PRIO_PROCESS, (id_t)tid, cur + job->nice)) {
			int e = errno;

			worker_fail(w, e, "nice=%d: setpriority: %s", job->nice, strerror(e));
			return -e;
		}
	}
	return 0;
}

/* numa_cpu_nodes, numa_mem_policy: this worker thread's CPUs and memory policy. */
static int setup_numa(struct worker *w)
{
	const struct job_spec *job = w->job;
	int ret;

	if (job->numa_cpu_nodes[0]) {
		ret = numa_bind_cpus(job->numa_cpu_nodes);
		if (ret) {
			worker_fail(w, -ret, "numa_cpu_nodes=%s: %s", job->numa_cpu_nodes,
				    strerror(-ret));
			return ret;
		}
	}
	ret = numa_set_policy((enum numa_mode)job->numa_mem_mode, job->numa_mem_nodes);
	if (ret)
		worker_fail(w, -ret, "numa_mem_policy: %s", strerror(-ret));
	return ret;
}

#define HUGE_ALIGN (2ul << 20)

/*
 * One mapping holds every request buffer of the worker. With huge pages wanted and a pool of
 * at least 2 MiB it starts on a 2 MiB boundary and is advised MADV_HUGEPAGE: a large request
 * then lies in physically contiguous memory, which the block layer passes on as one segment
 * instead of one per 4 KiB page (fewer split requests, less pinning work per I/O).
 *
 * The buffers are a mapping of their own, between inaccessible pages: the kernel merges
 * adjacent anonymous mappings, and a transparent huge page across two workers' merged buffers
 * is placed by whichever worker touched it first, on that one's node (bind:0's buffers had 166
 * of their 2048 pages on node 1, under their neighbour's policy).
 */
static int map_buffers(struct worker *w, bool huge)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = w->params.buf_len + 2 * page;
	uintptr_t base;

	huge = huge && w->params.buf_len >= HUGE_ALIGN;
	if (huge)
		len += HUGE_ALIGN;
	w->buf.map = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->buf.map == MAP_FAILED) {
		w->buf.map = NULL;
		return -ENOMEM;
	}
	w->buf.map_len = len;
	base = (uintptr_t)w->buf.map + page;
	if (huge)
		base = (base + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
	if (mprotect((void *)base, w->params.buf_len, PROT_READ | PROT_WRITE))
		return -errno;
	w->params.buf_base = (void *)base;
	w->buf.huge = huge && !madvise(w->params.buf_base, w->params.buf_len, MADV_HUGEPAGE);
	return 0;
}

/*
 * mem=mmap:FILE and mmapshared:FILE (fio's alloc_mem_mmap): the buffers are FILE mapped, private
 * with FILE truncated to their size for mmap, shared and FILE as it is for mmapshared (what is
 * read lands in FILE: P2P memory, for one). A FILE that is not there is created, marked, and
 * removed when the worker ends, as fio does; one that is there must be iopath's or one the user
 * allowed it to overwrite, checked on its descriptor. A shared FILE shorter than the buffers is
 * refused (fio faults on the pages past its end).
 */
static int map_file_buffers(struct worker *w)
{
	const struct job_spec *job = w->job;
	const char *path = job->mem_file, *kind = job->mem_shared ? "mmapshared" : "mmap";
	size_t len = w->params.buf_len;
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		w->mem_created = true;
		(void)target_mark_owned(fd, path);
	} else if (errno == EEXIST) {
		fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && !target_owned_fd(fd, path) && !may_overwrite(job, w->plan->pol, path)) {
			close(fd);
			worker_fail(w, EEXIST,
				    "mem=%s:%s: the file is there and was not created by iopath; mapping it would %s it (give overwrite=1 in the job, --allow-overwrite, or IOPATH_ALLOW_OVERWRITE=PATH in the environment, to allow it)",
				    kind, path, job->mem_shared ? "write the buffers into" : "truncate");
			return -EEXIST;
		}
	}
	if (fd < 0) {
		worker_fail(w, errno, "mem=%s:%s: %s", kind, path, strerror(errno));
		return -errno;
	}
	w->mem_fd = fd;
	w->mem_open = true;
	if (!job->mem_shared && ftruncate(fd, (off_t)len)) {
		worker_fail(w, errno, "mem=mmap:%s: truncating it to %zu bytes: %s", path, len,
			    strerror(errno));
		return -errno;
	}
	if (job->mem_shared && !fstat(fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size < len) {
		worker_fail(w, EINVAL,
			    "mem=mmapshared:%s is %llu bytes; the job's buffers need %zu (iodepth x the largest block)",
			    path, (unsigned long long)st.st_size, len);
		return -EINVAL;
	}
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, job->mem_shared ? MAP_SHARED : MAP_PRIVATE,
		   fd, 0);
	if (map == MAP_FAILED) {
		worker_fail(w, errno, "mem=%s:%s: mmap of %zu bytes: %s", kind, path, len,
			    strerror(errno));
		return -errno;
	}
	w->buf.map = w->params.buf_base = map;
	w->buf.map_len = len;
	return 0;
}

/* The request pool and its buffers: the first part of the worker's engine_params. */
static int setup_buffers(struct worker *w)
{
	const struct job_spec *job = w->job;
	struct engine_params *p = &w->params;
	unsigned i, depth = job->iodepth;
	int ret;
	size_t sz = ((size_t)w->plan->max_bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;

	p->iodepth = p->nr_reqs = depth;
	p->buf_size = sz;
	p->buf_len = sz * depth;
	ret = job->mem_file[0] ? map_file_buffers(w) : map_buffers(w, job->mem == MEM_THP);
	if (ret)
		return ret;
	p->reqs = calloc(depth, sizeof(*p->reqs));
	w->free_reqs = calloc(depth, sizeof(*w->free_reqs));
	w->batch = calloc(depth, sizeof(*w->batch));
	w->done = calloc(depth, sizeof(*w->done));
	w->st = calloc(STAT_NR, sizeof(*w->st));
	if (!p->reqs || !w->free_reqs || !w->batch || !w->done || !w->st)
		return -ENOMEM;
	if (job->rw == RW_COPY) {
		w->copy.ready = calloc(depth, sizeof(*w->copy.ready));
		if (!w->copy.ready)
			return -ENOMEM;
	}
	buf_fill(job, &w->buf.rng, p->buf_base, p->buf_len);
	for (i = 0; i < depth; i++) {
		p->reqs[i].index = i;
		p->reqs[i].buf = (char *)p->buf_base + (size_t)i * sz;
		w->free_reqs[depth - 1 - i] = &p->reqs[i];
	}
	w->nr_free = depth;
	return 0;
}

/*
 * numa_cpu_nodes, numa_mem_policy: where the buffers' pages are once filled, for the result
 * (what the policy did, measured: a full mapping is one move_pages query per 256 pages, once).
 * A failed query leaves the result without the figures rather than failing the job.
 */
static void note_buffer_nodes(struct worker *w)
{
	if (!w->job->numa_cpu_nodes[0] && w->job->numa_mem_mode == NUMA_MEM_NONE)
		return;
	memset(w->numa_pages, 0, sizeof(w->numa_pages));
	w->numa_pages_elsewhere = 0;
	w->numa_measured = !numa_buffer_nodes(w->params.buf_base, w->params.buf_len, w->numa_pages,
					      RESULT_NUMA_NODES, &w->numa_pages_elsewhere);
}

/*
 * CPU and NUMA placement first: the buffers are then allocated under the policy, as in fio.
 * numa_cpu_nodes comes after cpus_allowed and replaces its set, as in fio.
 */
int worker_place(struct worker *w)
{
	int ret = setup_cpus(w);

	if (!ret)
		ret = setup_numa(w);
	if (!ret)
		note_cpus(w);
	if (!ret)
		ret = setup_priority(w);
	if (!ret)
		ret = setup_buffers(w);
	if (!ret)
		note_buffer_nodes(w);
	if (ret)
		worker_fail(w, -ret, "cannot allocate %u buffers of %u bytes", w->params.iodepth,
			    w->plan->max_bs);
	return ret;
}
