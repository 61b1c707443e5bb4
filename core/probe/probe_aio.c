/* Engine trials: every engine flagged ENGINE_TRIAL, found in the registry, completes one read; a passthrough engine reads a device. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iopath/engine.h"
#include "iopath/job.h"
#include "probe/probe_int.h"

/* The engine's option block with every option at its default, as a job without options has. */
static int engine_defaults(const struct engine_ops *ops, unsigned char *block, size_t len)
{
	const struct engine_option *o;

	memset(block, 0, len);
	if (ops->opts_size > len)
		return -EOVERFLOW;
	for (o = ops->options; o && o->name; o++)
		*(int *)(block + o->offset) = o->def;
	return 0;
}

/* Submit the one request and wait for it, as the runner would. */
static int engine_one_read(struct engine *e, struct io_req *req)
{
	const struct engine_ops *ops = e->ops;
	struct io_req *rp = req, *done[1];
	unsigned tries;
	int ret;

	ret = ops->submit(e, &rp, 1);
	if (ret < 0)
		return ret;
	if (ret != 1)
		return -EAGAIN;
	/* done inside submit: a synchronous engine, or one at iodepth=1 (ENGINE_SYNC_AT_QD1) */
	if (ops->flags & (ENGINE_SYNC | ENGINE_SYNC_AT_QD1))
		return 0;
	/* a reap cut short (a signal: EINTR) returns nothing yet: wait again, as the runner does */
	for (tries = 0; tries < 1000; tries++) {
		ret = ops->reap(e, done, 1, 1);
		if (ret)
			break;
	}
	if (ret < 0)
		return ret;
	return ret == 1 && done[0] == req ? 0 : -EIO;
}

static const char *applied(const struct engine *e, const char *key)
{
	unsigned i;

	for (i = 0; i < e->nr_applied; i++)
		if (!strcmp(e->applied[i][0], key))
			return e->applied[i][1];
	return NULL;
}

/*
 * Set engine ops up on fd (opened with O_DIRECT when direct; writes: as for a job that
 * writes) and read len bytes at offset 0 into buf, through the same
 * init/open_file/submit/reap/exit calls the runner makes.
 */
static void trial_engine(struct probe_trial *t, const struct engine_ops *ops, const char *path,
			 int fd, bool direct, bool writes, void *buf, unsigned len)
{
	unsigned char opts[JOB_ENGINE_OPTS_MAX] __attribute__((aligned(8)));
	struct io_file f = { .path = path, .fd = fd, .len = len };
	struct io_req req = { .buf = buf, .len = len, .ddir = DDIR_READ, .file = &f };
	struct engine e = { 0 };
	struct engine_params p = {
		.opts = opts, .iodepth = 1, .reqs = &req, .nr_reqs = 1, .buf_base = buf,
		.buf_len = len, .buf_size = len, .files = &f, .nr_files = 1, .direct = direct,
		.writes = writes,
	};
	const char *how, *via;
	int ret;

	e.ops = ops;
	ret = engine_defaults(e.ops, opts, sizeof(opts));
	if (!ret)
		ret = e.ops->init(&e, &p);
	if (ret) {
		probe_trial_set(t, ret, "%s", e.err[0] ? e.err : strerror(-ret));
		return;
	}
	ret = e.ops->open_file ? e.ops->open_file(&e, &f) : 0;
	if (!ret) {
		ret = engine_one_read(&e, &req);
		if (!ret && req.res < 0)
			ret = (int)req.res;
		if (e.ops->close_file)
			e.ops->close_file(&e, &f);
	}
	how = applied(&e, "taskrun");
	via = applied(&e, "generic_device");
	if (ret)
		probe_trial_set(t, ret, "one %u-byte read%s%s: %s", len, via ? " through " : "",
				via ? via : "", e.err[0] ? e.err : strerror(-ret));
	else
		probe_trial_set(t, 0, "one %u-byte %sread completed%s%s%s%s%s", len,
				direct ? "direct " : "", via ? " through " : "", via ? via : "",
				how ? " (ring: " : "", how ? how : "", how ? ")" : "");
	e.ops->exit(&e);
}

void probe_trial_engines(struct probe_path *p, int fd, bool direct, void *buf, unsigned len)
{
	const struct engine_entry *ent, *e;

	p->nr_etrials = 0;
	for (ent = engine_table; ent->name && p->nr_etrials < PROBE_ENGINE_TRIALS_MAX; ent++) {
		struct probe_engine_trial *et = &p->etrial[p->nr_etrials];

		if (!(ent->ops->flags & ENGINE_TRIAL))
			continue;
		/* an alias is its engine: tried once, under the engine's own name */
		for (e = engine_table; e != ent && e->ops != ent->ops; e++)
			;
		if (e != ent)
			continue;
		snprintf(et->engine, sizeof(et->engine), "%s", ent->ops->name);
		trial_engine(&et->t, ent->ops, "probe", fd, direct, false, buf, len);
		p->nr_etrials++;
	}
}

const struct probe_trial *probe_engine_trial(const struct probe_path *p, const char *engine)
{
	unsigned i;

	for (i = 0; i < p->nr_etrials; i++)
		if (!strcmp(p->etrial[i].engine, engine))
			return &p->etrial[i].t;
	return NULL;
}

/* What a passthrough trial reads: the first 4 KiB, a whole number of blocks of any LBA size. */
#define PASSTHRU_TRIAL_LEN 4096

void probe_passthru_trial(const struct engine_ops *ops, const char *path, bool writes,
			  struct probe_trial *t)
{
	void *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		probe_trial_set(t, -errno,
				"opening it read-only: %s (the runner opens the namespace's block device: it needs read access to the block device, as its owner, its group or root)",
				strerror(errno));
		return;
	}
	if (fd < 0) {
		probe_trial_set(t, -errno, "opening it read-only: %s", strerror(errno));
		return;
	}
	if (posix_memalign(&buf, 4096, PASSTHRU_TRIAL_LEN)) {
		probe_trial_set(t, -ENOMEM, "out of memory");
		close(fd);
		return;
	}
	trial_engine(t, ops, path, fd, false, writes, buf, PASSTHRU_TRIAL_LEN);
	free(buf);
	close(fd);
}

void probe_passthru_trials(struct probe_path *p)
{
	const struct engine_entry *ent;

	for (ent = engine_table; ent->name && p->nr_etrials < PROBE_ENGINE_TRIALS_MAX; ent++) {
		struct probe_engine_trial *et = &p->etrial[p->nr_etrials];

		if (!(ent->ops->flags & ENGINE_PASSTHRU) || strcmp(ent->name, ent->ops->name))
			continue;
		snprintf(et->engine, sizeof(et->engine), "%s", ent->ops->name);
		probe_passthru_trial(ent->ops, p->resolved, false, &et->t);
		p->nr_etrials++;
	}
}
