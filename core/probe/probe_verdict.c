/* What the probe concludes: the one-line summary and whether a job must be refused up front. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iopath/engine.h"
#include "probe/probe_int.h"

/* Append to buf (length len) what fmt says. */
static void cat(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(buf);

	if (n < len)
		probe_fmt(buf + n, len - n, fmt, a, b);
}

static const char *cache_phrase(const char *write_cache)
{
	if (!strcmp(write_cache, "write back"))
		return "write-back cache";
	if (!strcmp(write_cache, "write through"))
		return "write-through cache";
	return "";
}

/* "ext4 on /dev/vda1 (virtio_blk, write-back cache)" */
static void summary_block(const struct probe_path *p, char *buf, size_t len)
{
	const struct probe_dev *top = &p->chain[0], *disk = &p->chain[p->nr_chain - 1];
	const char *cache = cache_phrase(disk->write_cache);

	probe_fmt(buf, len, "%s on /dev/%s", p->fs, top->name);
	if (p->nr_chain > 1 && strcmp(top->kind, "partition"))
		cat(buf, len, " over /dev/%s%s", disk->name, "");
	if (!strcmp(disk->kind, "loop")) {
		cat(buf, len, " (loop%s%s)", disk->extra[0] ? ", " : "", disk->extra);
		return;
	}
	cat(buf, len, " (%s%s", disk->driver[0] ? disk->driver : "unknown driver",
	    cache[0] ? ", " : "");
	cat(buf, len, "%s)%s", cache, "");
}

static void summary_trials(const struct probe_path *p, char *buf, size_t len)
{
	const struct probe_trial *t = p->trial;
	unsigned i;

	if (t[PROBE_T_DIRECT_OPEN].state == PROBE_FAILED)
		cat(buf, len, " \xe2\x80\x94 O_DIRECT unsupported (%s)%s",
		    strerrorname_np(t[PROBE_T_DIRECT_OPEN].err) ?: "error", "");
	else if (t[PROBE_T_DIRECT_RW].state == PROBE_FAILED)
		cat(buf, len, " \xe2\x80\x94 O_DIRECT I/O fails (%s)%s",
		    strerrorname_np(t[PROBE_T_DIRECT_RW].err) ?: "error", "");
	else if (p->direct_honoured == PROBE_NO && p->fs_class != PROBE_FS_MEMORY)
		cat(buf, len, " \xe2\x80\x94 O_DIRECT reads served from a cache%s%s", "", "");
	for (i = 0; i < p->nr_etrials; i++)
		if (p->etrial[i].t.state == PROBE_FAILED)
			cat(buf, len, "; %s unavailable (%s)", p->etrial[i].engine,
			    strerrorname_np(p->etrial[i].t.err) ?: "error");
}

void probe_summary(const struct probe_path *p, const struct probe_host *h, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (p->fs_class == PROBE_FS_BLOCK && p->nr_chain)
		summary_block(p, buf, len);
	else if (p->fs_class == PROBE_FS_BLOCK)
		probe_fmt(buf, len, "%s on %s", p->fs, p->mount_source);
	else
		probe_fmt(buf, len, "%s", p->fs_desc);
	if (h && !strcmp(h->virt, "bare metal"))
		cat(buf, len, " on bare metal%s%s", "", "");
	else if (h && h->virt[0])
		cat(buf, len, " under %s%s", h->virt, "");
	summary_trials(p, buf, len);
}

static bool refuse(char *why, size_t len, const char *fmt, const struct probe_path *p,
		   const char *reason)
{
	if (why && len)
		probe_fmt(why, len, fmt, p->fs, p->mount_point, reason);
	return true;
}

static bool refuses_direct(const struct probe_path *p, char *why, size_t len)
{
	const struct probe_trial *t = p->trial;
	char reason[224];

	if (t[PROBE_T_DIRECT_OPEN].state == PROBE_FAILED) {
		probe_fmt(reason, sizeof(reason), "O_DIRECT open gives %s",
			  strerrorname_np(t[PROBE_T_DIRECT_OPEN].err) ?: "an error");
		return refuse(why, len, "direct=1 on %s at %s: %s", p, reason);
	}
	if (t[PROBE_T_DIRECT_RW].state == PROBE_FAILED)
		return refuse(why, len, "direct=1 on %s at %s: %s", p, t[PROBE_T_DIRECT_RW].why);
	return false;
}

/*
 * O_DIRECT that opens and works but is answered from a cache (virtiofs without the host's
 * allow_direct_io, a FUSE view, a loop device without dio) is not refused: the job runs and
 * its result is flagged, so nobody reads it as device latency.
 */
bool probe_direct_suspect(const struct probe_path *p, char *why, size_t len)
{
	if (why && len)
		why[0] = '\0';
	if (p->direct_honoured != PROBE_NO || p->fs_class == PROBE_FS_MEMORY)
		return false;
	if (why && len)
		probe_fmt(why, len, "direct=1 on %s at %s: O_DIRECT is not honoured (%s)", p->fs,
			  p->mount_point, p->direct_evidence);
	return true;
}

/* The trial that tells whether an engine can run here (asked of its flags), if there is one. */
static const struct probe_trial *engine_trial(const struct probe_path *p,
					      const struct engine_ops *engine)
{
	if (!engine)
		return NULL;
	if (engine->flags & ENGINE_TRIAL)
		return probe_engine_trial(p, engine->name);
	if (engine->flags & ENGINE_MAPS_FILES)
		return &p->trial[PROBE_T_MMAP];
	return NULL;
}

bool probe_refuses(const struct probe_path *p, bool direct, const struct engine_ops *engine,
		   char *why, size_t len)
{
	const struct probe_trial *t = engine_trial(p, engine);

	if (why && len)
		why[0] = '\0';
	if (direct && refuses_direct(p, why, len))
		return true;
	if (t && t->state == PROBE_FAILED) {
		if (why && len)
			probe_fmt(why, len, "ioengine=%s on %s at %s: %s", engine->name, p->fs,
				  p->mount_point, t->why);
		return true;
	}
	return false;
}
