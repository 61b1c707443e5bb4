/* A parsed job made whole and checked (job_finish), and the nearest option names for a typo. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/arith.h"
#include "base/cpulist.h"
#include "job/fio_unsupported.h"
#include "job/options.h"
#include "base/numapol.h"
#include "base/parse.h"
#include "job/job.h"
#include "job/replay.h"


#include "job/setters.h"

/* Each direction's sizes: bssplit wins over bsrange, which wins over bs (as in fio). */
static void resolve_bs(struct job_spec *job)
{
	unsigned d, i;

	for (d = 0; d < 2; d++) {
		uint32_t lo = job->bs[d], hi = job->bs[d];

		if (job->nr_bssplit[d]) {
			lo = UINT32_MAX;
			hi = 0;
			for (i = 0; i < job->nr_bssplit[d]; i++) {
				if (job->bssplit[d][i].bs < lo)
					lo = job->bssplit[d][i].bs;
				if (job->bssplit[d][i].bs > hi)
					hi = job->bssplit[d][i].bs;
			}
		} else if (job->bsrange[d][0]) {
			lo = job->bsrange[d][0];
			hi = job->bsrange[d][1];
		}
		job->bs[d] = lo;
		job->bs_max[d] = hi;
	}
}

/* Was the option given for this job (globals included)? */
static bool job_gave(const struct job_spec *job, const char *key)
{
	unsigned i;

	for (i = 0; i < job->nr_kv; i++)
		if (!strcmp(job->kv[i].key, key))
			return true;
	return false;
}

/*
 * Trims take the write direction's settings (fio gives a missing trim value the write one).
 * A trim size of its own (bs=r,w,t) becomes the write size of a trim job, and of trimwrite's
 * pairs (fio writes the block it just trimmed, trim size and all); for the other
 * per-direction options a trim value of its own is refused rather than ignored.
 */
static int finish_trim(struct job_spec *job, struct iop_err *err)
{
	static const char *const keys[] = { "bsrange", "blocksize_range", "bssplit", "blockalign",
					    "ba", "rate", "rate_iops", "rate_min", "rate_iops_min" };
	const char *comma;
	unsigned i, k;

	if (!job_trims(job->rw))
		return 0;
	for (i = 0; i < job->nr_kv; i++) {
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			if (strcmp(job->kv[i].key, keys[k]))
				continue;
			comma = strchr(job->kv[i].val, ',');
			if (comma && strchr(comma + 1, ','))
				return iop_errf(err, -ENOTSUP,
						"%s: %s=%s: a trim value of its own (the third) is not supported by iopath; trims take the write value",
						job->origin, keys[k], job->kv[i].val);
		}
	}
	/* trimwrite's write follows its trim, the same block: both take the trim size, as in fio */
	if (job->bs_trim)
		job->bs[DDIR_WRITE] = job->bs_max[DDIR_WRITE] = job->bs_trim;
	return 0;
}

/* fio's zone suffix: a count of zones becomes bytes once zonesize is known. */
static int finish_zones(struct job_spec *job, struct iop_err *err)
{
	struct { uint64_t *nz, *bytes; const char *name; } z[] = {
		{ &job->sizes.size_nz, &job->sizes.size, "size" },
		{ &job->sizes.offset_nz, &job->sizes.offset, "offset" },
		{ &job->sizes.offset_increment_nz, &job->sizes.offset_increment, "offset_increment" },
		{ &job->sizes.io_size_nz, &job->sizes.io_size, "io_size" },
		{ &job->zone.skip_nz, &job->zone.skip, "zoneskip" },
	};
	unsigned i;

	for (i = 0; i < sizeof(z) / sizeof(z[0]); i++) {
		if (!*z[i].nz)
			continue;
		if (!job->zone.size)
			return iop_errf(err, -EINVAL,
					"%s: %s=%lluz counts zones: give zonesize= (iopath does not read a device's zone size before the job is planned)",
					job->origin, z[i].name, (unsigned long long)*z[i].nz);
		if (*z[i].nz > UINT64_MAX / job->zone.size)
			return iop_errf(err, -EINVAL, "%s: %s=%lluz is too large", job->origin,
					z[i].name, (unsigned long long)*z[i].nz);
		*z[i].bytes = *z[i].nz * job->zone.size;
		if (z[i].bytes == &job->sizes.size)
			job->sizes.size_pct = 0;
		else if (z[i].bytes == &job->sizes.offset)
			job->sizes.offset_pct = 0;
		else if (z[i].bytes == &job->sizes.offset_increment)
			job->sizes.offset_increment_pct = 0;
	}
	return 0;
}

/*
 * read_iolog: the log decides the job, as in fio: its files (or replay_redirect), its
 * directions, a block size that holds its largest I/O, and files at least as long as the
 * furthest I/O; the worker replays the entries themselves (run/trace.c).
 */
static int finish_replay(struct job_spec *job, struct iop_err *err)
{
	struct replay r;
	size_t at = 0;
	uint64_t ext = 0;
	unsigned i;
	int ret;

	if (!job->read_iolog[0])
		return 0;
	if (job->verify.kind != VERIFY_NONE)
		return iop_errf(err, -ENOTSUP, "%s: read_iolog with verify is not supported by iopath",
				job->origin);
	if (job->rw == RW_COPY || job->rw == RW_METADATA)
		return iop_errf(err, -EINVAL, "%s: read_iolog replays data I/O; rw=%s does not apply",
				job->origin, job_rw_name(job->rw));
	/* fio's dry run does not open the log (it is read when the job starts): nor is it here */
	if (job->dryrun)
		return 0;
	ret = replay_load(job, &r, err);
	if (ret)
		return ret;
	for (i = 0; i < r.nr_files; i++) {
		int n = snprintf(job->filename + at, sizeof(job->filename) - at, "%s%s",
				 i ? ":" : "", r.files[i]);

		if (n < 0 || (size_t)n >= sizeof(job->filename) - at) {
			replay_free(&r);
			return iop_errf(err, -ENAMETOOLONG, "%s: read_iolog %s: its file names are too long together",
					job->origin, job->read_iolog);
		}
		at += (size_t)n;
		if (r.extent[i] > ext)
			ext = r.extent[i];
	}
	job->nrfiles = r.nr_files;
	job->bs[DDIR_READ] = job->bs[DDIR_WRITE] = r.max_len ? r.max_len : 4096;
	job->bsrange[0][0] = job->bsrange[0][1] = job->bsrange[1][0] = job->bsrange[1][1] = 0;
	job->nr_bssplit[0] = job->nr_bssplit[1] = 0;
	ext = (ext + job->bs[0] - 1) / job->bs[0] * job->bs[0];
	job->sizes.size = ext * r.nr_files;
	job->norandommap = true;
	if ((r.dirs & (1u << DDIR_READ)) && (r.dirs & ((1u << DDIR_WRITE) | (1u << DDIR_TRIM))))
		job->rw = RW_RW;
	else if (r.dirs & (1u << DDIR_READ))
		job->rw = RW_READ;
	else if (r.dirs & (1u << DDIR_TRIM))
		job->rw = r.dirs & (1u << DDIR_WRITE) ? RW_TRIMWRITE : RW_TRIM;
	else
		job->rw = RW_WRITE;
	replay_free(&r);
	return 0;
}

static int finish_copy(struct job_spec *job, struct iop_err *err)
{
	const char *why = NULL;

	if (!job->copy_from[0])
		return iop_errf(err, -EINVAL, "%s: rw=copy needs copy_from=SOURCE (and filename=DESTINATION)",
				job->origin);
	if (!job->filename[0])
		why = "needs filename=DESTINATION";
	else if (job->numjobs > 1)
		why = "copies one file with one worker (use iodepth for parallelism, not numjobs)";
	else if (job->time.based || job->loops > 1)
		why = "copies the file once (time_based and loops do not apply)";
	else if (job->fsync_blocks || job->fdatasync_blocks)
		why = "takes end_fsync, not fsync=/fdatasync= (one flush at the end, as cp && sync)";
	else if (job->bs[DDIR_READ] != job->bs[DDIR_WRITE])
		why = "writes each block as it was read: give one bs, not read,write sizes";
	else if (job->nrfiles > 1 || job->file_append || job->sizes.offset)
		why = "copies a whole file from offset 0 (nrfiles, file_append and offset do not apply)";
	else if (job->engine->flags & ENGINE_DISKLESS)
		why = "needs an engine that moves data";
	if (why)
		return iop_errf(err, -EINVAL, "%s: rw=copy %s", job->origin, why);
	return 0;
}

static int finish_metadata(struct job_spec *job, struct iop_err *err)
{
	const char *why = NULL;

	if (!(job->engine->flags & ENGINE_PLAIN_CALLS))
		return iop_errf(err, -EINVAL,
				"%s: rw=metadata makes its own open/stat/read/unlink calls; ioengine=%s does not apply (leave ioengine unset)",
				job->origin, job->engine->name);
	if (job->iodepth > 1)
		why = "runs one operation at a time (iodepth=1; use numjobs for parallel trees)";
	else if (job->time.based || job->loops > 1)
		why = "runs each phase once over nrfiles files (time_based and loops do not apply)";
	else if (job->verify.kind != VERIFY_NONE || job->fsync_blocks || job->fdatasync_blocks ||
		 job->file_append || job->copy_from[0] || job->filename[0])
		why = "takes directory=, nrfiles=, filesize=, files_per_dir= and dir_fanout= (not filename, verify, fsync, copy_from or file_append)";
	else if (job->direct && job->filesize % 4096)
		why = "with direct=1 needs filesize= to be a multiple of 4096";
	else if (job->filesize_range[0] != job->filesize_range[1] || job->filesize > (1ull << 30))
		why = "takes one filesize= of at most 1g, not a range";
	if (why)
		return iop_errf(err, -EINVAL, "%s: rw=metadata %s", job->origin, why);
	return 0;
}
/* zonemode=zbd: what fio refuses, and what iopath does not do with it. */
static int check_zbd(const struct job_spec *job, struct iop_err *err)
{
	unsigned d;

	if (job->zone.size && job->zone.size < 512)
		return iop_errf(err, -EINVAL, "%s: zonesize must be at least 512 bytes for zonemode=zbd",
				job->origin);
	if (job->zone.size && job->zone.capacity > job->zone.size)
		return iop_errf(err, -EINVAL, "%s: zonecapacity %llu is larger than zonesize %llu",
				job->origin, (unsigned long long)job->zone.capacity,
				(unsigned long long)job->zone.size);
	if (job->zone.job_max_open && !job->zone.max_open)
		return iop_errf(err, -EINVAL,
				"%s: job_max_open_zones cannot be used without a global open zones limit (max_open_zones=)",
				job->origin);
	if (job->zone.job_max_open > job->zone.max_open)
		return iop_errf(err, -EINVAL, "%s: job_max_open_zones=%u is larger than max_open_zones=%u",
				job->origin, job->zone.job_max_open, job->zone.max_open);
	if (!job->create_serialize)
		return iop_errf(err, -EINVAL,
				"%s: zonemode=zbd and create_serialize=0 are not compatible (as in fio)",
				job->origin);
	for (d = 0; job->zone.size && job->verify.kind != VERIFY_NONE && d < 2; d++)
		if (job->zone.size % job->bs[d] || job->zone.size % job->bs_max[d])
			return iop_errf(err, -EINVAL,
					"%s: with verify, block size %u is not a divisor of zonesize %llu (fio)",
					job->origin, job->zone.size % job->bs[d] ? job->bs[d] :
					job->bs_max[d], (unsigned long long)job->zone.size);
	if (job_trims(job->rw))
		return iop_errf(err, -ENOTSUP,
				"%s: rw=%s with zonemode=zbd is not supported by iopath (fio trims whole zones there, resetting their write pointers)",
				job->origin, job_rw_name(job->rw));
	if (job->zone.skip)
		return iop_errf(err, -ENOTSUP,
				"%s: fio option zoneskip with zonemode=zbd is not supported by iopath",
				job->origin);
	if (job->rw == RW_COPY || job->rw == RW_METADATA || job->file_append ||
	    job->seq_add || job->seq_nr > 1)
		return iop_errf(err, -ENOTSUP,
				"%s: fio option zonemode=zbd with %s is not supported by iopath",
				job->origin, job->file_append ? "file_append" :
				job->rw == RW_COPY ? "rw=copy" : job->rw == RW_METADATA ?
				"this rw=" : "rw=...:N or rw_sequencer");
	return 0;
}


/* Whole-job checks of the options that depend on rw. */
/* What a file-operation engine's loop (one timed operation per file, counted blocks) lacks. */
static const char *finish_fileop(const struct job_spec *job)
{
	if (job_trims(job->rw) || job->rw == RW_COPY || job->rw == RW_METADATA)
		return "rw= takes read, write or their mixes (its blocks are counted in that direction)";
	if (job->verify.kind != VERIFY_NONE)
		return "verify does not apply (no data moves)";
	if (job->time.ramp_ns)
		return "ramp_time is not supported by iopath with these engines";
	if (job->rate.bps[0] || job->rate.bps[1] || job->rate.iops[0] || job->rate.iops[1] ||
	    job->rate.min_bps[0] || job->rate.min_bps[1] || job->rate.min_iops[0] ||
	    job->rate.min_iops[1])
		return "rate limits are not supported by iopath with these engines";
	if (job->think.ns || job->number_ios || job->flow || job->lat_target.ns ||
	    job->zone.zbd || job->zone.strided || job->submit_offload || job->ss_dur_ns)
		return "thinktime, number_ios, flow, latency_target, zonemode, io_submit_mode=offload and steady state are not supported by iopath with these engines";
	if (job->log.bw_set || job->log.iops_set)
		return "write_bw_log and write_iops_log are not supported by iopath with these engines (write_lat_log is: each file operation's latency, in the clat log)";
	return NULL;
}

/*
 * fio's fixup_options for verify_interval: a write block size range without one takes the
 * smallest write block; an interval over the smallest write (else, reading, read) block is that
 * block; one that does not divide the smallest and largest write blocks becomes their greatest
 * common divisor.
 */
static void finish_verify_interval(struct job_spec *job)
{
	uint32_t lo = job->bs[DDIR_WRITE], hi = job->bs_max[DDIR_WRITE];

	if (lo != hi && !job->verify.interval)
		job->verify.interval = lo;
	if (job->verify.interval > lo)
		job->verify.interval = lo;
	else if (job_reads(job->rw) && job->verify.interval > job->bs[DDIR_READ])
		job->verify.interval = job->bs[DDIR_READ];
	if (job->verify.interval && (lo % job->verify.interval || hi % job->verify.interval))
		job->verify.interval = iop_gcd(lo, hi);
}

/*
 * nrfiles= with filename= (fio): the names are the job's files. An nrfiles= given after the
 * last filename= (the [global] section's options come first) keeps only the first nrfiles
 * names, all of them when there are fewer; one given before it is overridden by the names.
 */
static void finish_nrfiles_names(struct job_spec *job)
{
	unsigned nr = 0, len = 0;
	char *s;

	if (!job->filename[0])
		return;
	for (s = job->filename; job->nrfiles_last && *s; s++) {
		if (*s == '\\' && s[1] == ':') {
			s++;
			len++;
			continue;
		}
		if (*s != ':') {
			len++;
			continue;
		}
		nr += len > 0;	/* empty names (a::b) name no file */
		len = 0;
		if (nr == job->nrfiles) {
			*s = '\0';
			break;
		}
	}
	job->nrfiles = 1;	/* the names say how many files there are */
}

/*
 * openfiles below nrfiles (core/run/openfiles.c): files opened as their turn comes and closed
 * when used up, as fio's get_next_file; what iopath does not do with it is refused.
 */
static int check_openfiles(const struct job_spec *job, struct iop_err *err)
{
	const char *what = NULL;

	if (!job->openfiles || job->openfiles >= job->nrfiles ||
	    (job->engine->flags & (ENGINE_FILE_OP | ENGINE_DISKLESS)))
		return 0;
	if (job->file_service != FSVC_ROUNDROBIN && job->file_service != FSVC_SEQUENTIAL)
		what = "file_service_type other than roundrobin or sequential";
	else if (job->submit_offload)
		what = "io_submit_mode=offload";
	else if (job->verify.backlog)
		what = "verify_backlog";
	else if (job->unlink_each_loop)
		what = "unlink_each_loop";
	else if (job->read_iolog[0])
		what = "read_iolog";
	else if (job->zone.strided || job->zone.zbd)
		what = "zonemode";
	if (!what)
		return 0;
	return iop_errf(err, -EINVAL,
			"%s: openfiles=%u below nrfiles=%u is not supported by iopath with %s (accepted: openfiles=%u, or %s without openfiles)",
			job->origin, job->openfiles, job->nrfiles, what, job->nrfiles, what);
}

static int finish_mode(struct job_spec *job, struct iop_err *err)
{
	int ret;

	if (job->submit_offload && (job->rw == RW_COPY || job->rw == RW_METADATA))
		return iop_errf(err, -ENOTSUP,
				"%s: io_submit_mode=offload with rw=%s is not supported by iopath",
				job->origin, job->rw == RW_COPY ? "copy" : "metadata");
	if (job->rw == RW_COPY)
		return finish_copy(job, err);
	if (job->rw == RW_METADATA)
		return finish_metadata(job, err);
	if (job->copy_from[0])
		return iop_errf(err, -EINVAL, "%s: copy_from= needs rw=copy", job->origin);
	if (job_gave(job, "files_per_dir") || job_gave(job, "dir_fanout"))
		return iop_errf(err, -EINVAL,
				"%s: files_per_dir and dir_fanout are rw=metadata options", job->origin);
	finish_nrfiles_names(job);
	if (job->nrfiles > FILES_MAX)
		return iop_errf(err, -EINVAL,
				"%s: nrfiles=%u: more than %u files per worker is not supported by iopath",
				job->origin, job->nrfiles, FILES_MAX);
	if ((uint64_t)job->nrfiles * job->numjobs > FILES_JOB_MAX)
		return iop_errf(err, -EINVAL,
				"%s: nrfiles=%u with numjobs=%u: more than %u files in one job is not supported by iopath",
				job->origin, job->nrfiles, job->numjobs, FILES_JOB_MAX);
	ret = check_openfiles(job, err);
	if (ret)
		return ret;
	if (job->verify.kind != VERIFY_NONE)
		finish_verify_interval(job);
	if (job->verify.backlog && job->verify.kind == VERIFY_NONE)
		job->verify.backlog = 0;	/* fio: without verify it does nothing */
	if (job->verify.backlog && !job->verify.backlog_batch)
		job->verify.backlog_batch = job->verify.backlog;
	if (job->submit_offload) {
		/* one request in flight (iodepth=1) has nothing to serialize with */
		const char *what = job->serialize_overlap && job->iodepth > 1 ? "serialize_overlap" :
				   job->verify.kind != VERIFY_NONE ? "verify" :
				   job->lat_target.ns ? "latency_target" :
				   job->flow ? "flow" : job->think.ns ? "thinktime" :
				   job->zone.zbd ? "zonemode=zbd" :
				   job->iodepth_low && job->iodepth_low < job->iodepth ? "iodepth_low" : NULL;

		if (what)
			return iop_errf(err, -ENOTSUP,
					"%s: io_submit_mode=offload with %s is not supported by iopath",
					job->origin, what);
		if (job->engine->flags & ENGINE_FILE_POS)
			return iop_errf(err, -ENOTSUP,
					"%s: io_submit_mode=offload with ioengine=%s is not supported by iopath: its I/O threads would race on the file's one position (lseek, then read or write); use ioengine=psync",
					job->origin, job->engine->name);
	}
	if (job->buf.dedupe_pct && job->buf.dedupe_ws && !job->sizes.size)
		return iop_errf(err, -EINVAL,
				"%s: dedupe_mode=working_set needs size= (its working set is a share of it)",
				job->origin);
	/* fio's dry run does not look at it: its run fails (setup_zbd_zone_mode) */
	if (!job->zone.strided && !job->zone.zbd && job->zone.size && !job->dryrun)
		return iop_errf(err, -EINVAL,
				"%s: zonesize= needs zonemode=strided or zbd (fio 3.33: zonemode=none and zonesize are not compatible)",
				job->origin);
	if (job->zone.zbd) {
		int zret = check_zbd(job, err);

		if (zret)
			return zret;
	}
	if (job->zone.strided && !job->zone.size)
		return iop_errf(err, -EINVAL, "%s: zonemode=strided needs zonesize=", job->origin);
	if (job->zone.strided && !job->zone.range)
		job->zone.range = job->zone.size;
	if (job->zone.strided && job->zone.range < job->bs_max[0] && job->zone.range < job->bs_max[1])
		return iop_errf(err, -EINVAL, "%s: zonerange=%llu is smaller than a block",
				job->origin, (unsigned long long)job->zone.range);
	if (job->file_append && job->rw != RW_WRITE)
		return iop_errf(err, -EINVAL, "%s: file_append needs rw=write (sequential appends)",
				job->origin);
	if (job->file_append && (job->engine->flags & ENGINE_NEEDS_MAP))
		return iop_errf(err, -EINVAL, "%s: file_append: ioengine=%s maps the file and cannot grow it",
				job->origin, job->engine->name);
	return 0;
}

/*
 * fio's cmdprio options belong to the engines that set a priority per request (libaio and
 * io_uring in fio): the engine must say it does (ENGINE_CMDPRIO).
 */
static int finish_cmdprio(struct job_spec *job, struct iop_err *err)
{
	static const char *const names[] = { "cmdprio_percentage", "cmdprio_bssplit",
					     "cmdprio_class", "cmdprio" };
	const struct engine_entry *ent;
	char have[128];
	size_t off = 0;
	unsigned i;

	for (i = 0; i < 4 && !job_gave(job, names[i]); i++)
		;
	if (i == 4)
		return 0;
	if (!(job->engine->flags & ENGINE_CMDPRIO)) {
		have[0] = '\0';
		for (ent = engine_table; ent->name && off < sizeof(have); ent++)
			if ((ent->ops->flags & ENGINE_CMDPRIO) && !ent->force_direct)
				off += (size_t)snprintf(have + off, sizeof(have) - off, "%s%s",
							off ? ", " : "", ent->name);
		return iop_errf(err, -EINVAL,
				"%s: %s: ioengine=%s sets no priority per I/O (the cmdprio options are for the engines that do: %s)",
				job->origin, names[i], job->engine->name, have);
	}
	if ((job->cmdprio_pct[0] || job->cmdprio_pct[1]) && job->cmdprio_bssplit_given)
		return iop_errf(err, -EINVAL,
				"%s: cmdprio_percentage and cmdprio_bssplit options are mutually exclusive (as in fio)",
				job->origin);
	return 0;
}

/* sync_file_range=: the engine must issue it (ENGINE_SYNC_RANGE); the list names those that do. */
static int finish_sync_range(const struct job_spec *job, struct iop_err *err)
{
	const struct engine_entry *ent;
	char have[160];
	size_t off = 0;

	if (!job->sfr_blocks || (job->engine->flags & ENGINE_SYNC_RANGE))
		return 0;
	have[0] = '\0';
	for (ent = engine_table; ent->name && off < sizeof(have); ent++)
		if ((ent->ops->flags & ENGINE_SYNC_RANGE) && !ent->force_direct)
			off += (size_t)snprintf(have + off, sizeof(have) - off, "%s%s", off ? ", " : "",
						ent->name);
	return iop_errf(err, -EINVAL,
			"%s: sync_file_range: ioengine=%s does not issue sync_file_range(2) (the engines that do: %s)",
			job->origin, job->engine->name, have);
}

/*
 * atomic=1, as fio has it: every write goes with RWF_ATOMIC, which the engine must be able to
 * pass (ENGINE_ATOMIC); it implies direct=1, and in a job that writes no data it does nothing
 * (fio clears it too). An atomic write is one power-of-2 size at a multiple of that size:
 * what the job's own options decide is checked here, the file's limits (statx) before the run.
 */
static int finish_atomic(struct job_spec *job, struct iop_err *err)
{
	uint32_t bs = job->bs[DDIR_WRITE];
	const struct engine_entry *ent;
	char have[128];
	size_t off = 0;

	if (!job->atomic)
		return 0;
	if (!(job->engine->flags & ENGINE_ATOMIC)) {
		have[0] = '\0';
		for (ent = engine_table; ent->name && off < sizeof(have); ent++)
			if ((ent->ops->flags & ENGINE_ATOMIC) && !ent->force_direct)
				off += (size_t)snprintf(have + off, sizeof(have) - off, "%s%s",
							off ? ", " : "", ent->name);
		return iop_errf(err, -EINVAL,
				"%s: atomic: ioengine=%s cannot give its writes RWF_ATOMIC (atomic=1 is for the engines that can: %s)",
				job->origin, job->engine->name, have);
	}
	job->direct = true;
	if (!job_writes_data(job->rw)) {
		job->atomic = false;
		return 0;
	}
	if (bs != job->bs_max[DDIR_WRITE])
		return iop_errf(err, -EINVAL,
				"%s: atomic=1 with writes of %u to %u bytes (bsrange, bssplit): an atomic write must start at a multiple of its own size, which writes of mixed sizes do not keep; give one write size (bs=)",
				job->origin, bs, job->bs_max[DDIR_WRITE]);
	if (bs & (bs - 1))
		return iop_errf(err, -EINVAL,
				"%s: atomic=1 with bs=%u: an atomic write is a power of 2 in size (within the file's atomic write unit_min and unit_max, which statx reports)",
				job->origin, bs);
	if (job->ba[DDIR_WRITE] % bs)
		return iop_errf(err, -EINVAL,
				"%s: atomic=1 with blockalign=%u and bs=%u: an atomic write must start at a multiple of its size; give a blockalign that is a multiple of %u",
				job->origin, job->ba[DDIR_WRITE], bs, bs);
	if (job->seq_add % (int64_t)bs)
		return iop_errf(err, -EINVAL,
				"%s: atomic=1 with bs=%u: rw=...:%lld moves writes off multiples of their size; give a multiple of %u",
				job->origin, bs, (long long)job->seq_add, bs);
	if ((job->zone.strided || job->zone.zbd) &&
	    (job->zone.size % bs || job->zone.range % bs || job->zone.skip % bs))
		return iop_errf(err, -EINVAL,
				"%s: atomic=1 with bs=%u: zonesize, zonerange and zoneskip must be multiples of %u, so that every write starts at a multiple of its size",
				job->origin, bs, bs);
	return 0;
}

/* sprandom (fio's): random writes of one power-of-two size to one file by one writer */
static int finish_sprandom(struct job_spec *job, struct iop_err *err)
{
	uint32_t bs = job->bs[DDIR_WRITE];
	const char *why = NULL;

	if (!job->sprandom)
		return 0;
	if (job->rw != RW_RANDWRITE || job->seq_add || job->seq_nr > 1)
		why = "it preconditions by random writes (rw=randwrite)";
	else if (bs != job->bs_max[DDIR_WRITE] || job->nr_bssplit[DDIR_WRITE])
		why = "it writes blocks of one size (bs=, not bsrange or bssplit)";
	else if (bs & (bs - 1))
		why = "its block size must be a power of 2";
	else if (job->nrfiles != 1 || job->numjobs != 1)
		why = "it models one drive written by one writer (nrfiles=1, numjobs=1)";
	else if (job->random_distribution != DIST_RANDOM)
		why = "it chooses the offsets itself (random_distribution=random)";
	if (why)
		return iop_errf(err, -EINVAL, "%s: sprandom: %s", job->origin, why);
	/* its own generator visits every block once: no random map (fio's norandommap=1) */
	job->norandommap = true;
	return 0;
}

/*
 * verify_only, as fio's: the writes are generated but not done (fio's dry run), and the verify
 * pass reads back what they would have written. What the job would write must be known
 * beforehand, so the kinds of job whose writes depend on time or on completions are refused.
 */
static int finish_verify_only(const struct job_spec *job, struct iop_err *err)
{
	const char *why = NULL;

	if (!job->verify.only)
		return 0;
	if (job->verify.kind == VERIFY_NONE)
		why = "it needs verify= (the checksums the earlier run wrote)";
	else if (!job_writes_data(job->rw) || job->rw == RW_COPY || job->rw == RW_METADATA)
		why = "it checks what a writing job wrote; this job does not write (a job that reads with verify= checks what it reads already)";
	else if (!job->verify.after_write)
		why = "do_verify=0 leaves nothing to do";
	else if (job->time.based)
		why = "a timed run's writes are not known beforehand (fio does not support time_based with it either)";
	else if (job->zone.zbd || job->read_iolog[0] || job->verify.backlog)
		why = job->zone.zbd ? "zonemode=zbd places writes as zones fill" :
		      job->read_iolog[0] ? "a replay's writes are the log's, not this job's" :
		      "verify_backlog reads back during the writes, which are not done";
	if (!why)
		return 0;
	return iop_errf(err, -EINVAL, "%s: verify_only: %s", job->origin, why);
}

/*
 * verify_write_sequence where fio checks a header's write number (verify.c's verify_header):
 * jobs that write, with one block size in every direction, not time_based. fio's
 * fixup_options turns it off for verify_only, and for norandommap with more than one
 * asynchronous I/O in flight (a later write of a block may land first), unless it is given.
 */
static void finish_write_sequence(struct job_spec *job, const struct engine_ops *ops)
{
	uint32_t lo = job->bs[0] < job->bs[1] ? job->bs[0] : job->bs[1];
	uint32_t hi = job->bs_max[0] > job->bs_max[1] ? job->bs_max[0] : job->bs_max[1];

	if (job->bs_trim && job->bs_trim < lo)
		lo = job->bs_trim;
	if (job->bs_trim > hi)
		hi = job->bs_trim;
	if (!job_gave(job, "verify_write_sequence") &&
	    (job->verify.only || (job->norandommap && !(ops->flags & ENGINE_SYNC) && job->iodepth > 1)))
		job->verify.write_sequence = false;
	if (job->verify.kind == VERIFY_NONE || !job_writes(job->rw) || lo != hi || job->time.based)
		job->verify.write_sequence = false;
}

/* log_unix_epoch, log_alternate_epoch: their clock must be one the system has. */
static int finish_log_epoch(const struct job_spec *job, struct iop_err *err)
{
	if ((job->log.unix_epoch || job->log.alternate_epoch) &&
	    clock_getres((clockid_t)job->log.alternate_epoch_clock_id, NULL))
		return iop_errf(err, -EINVAL,
				"%s: log_alternate_epoch_clock_id=%u is no clock of this system (accepted: a clock_gettime clock id, e.g. 0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, 7 CLOCK_BOOTTIME)",
				job->origin, job->log.alternate_epoch_clock_id);
	return 0;
}

static int finish_pre_read(struct job_spec *job, struct iop_err *err)
{
	if (job->pre_read && job->direct)
		return iop_errf(err, -EINVAL,
				"%s: pre_read=1 with direct=1: direct I/O does not use the page cache it would fill (fio 3.33 fails such a job with EIO); use direct=0",
				job->origin);
	/* fio's fixup_options: pre_read keeps what it read cached (no invalidate) */
	if (job->pre_read)
		job->invalidate = false;
	return 0;
}

/*
 * unlink_each_loop between loops: the files are written anew each loop, so a job that reads
 * would read removed files (fio 3.33 fails it as the second loop opens them) and is refused, as
 * are the combinations iopath does not run with it.
 */
static int finish_unlink_each_loop(struct job_spec *job, struct iop_err *err)
{
	const char *what;

	if (!job_unlinks_each_loop(job))
		return 0;
	what = job_reads(job->rw) ? "a job that reads (the second loop would find its files removed; fio 3.33 fails such a job)" :
	       !job_writes_data(job->rw) || job->rw == RW_COPY || job->rw == RW_METADATA ?
	       "a job that does not write its files' data" :
	       job->verify.kind != VERIFY_NONE ? "verify (not supported by iopath)" :
	       job->submit_offload ? "io_submit_mode=offload (not supported by iopath)" :
	       (job->engine->flags & ENGINE_FILE_OP) ? "a file-operation engine" : NULL;
	if (what)
		return iop_errf(err, -EINVAL,
				"%s: unlink_each_loop=1 with loops=%u is refused for %s (accepted: a writing job of a data engine, or loops=1)",
				job->origin, job->loops, what);
	return 0;
}

/* What the write buffers hold: fio's rules between zero_buffers, patterns, compression, refill. */
static int finish_buffers(struct job_spec *job, struct iop_err *err)
{
	/* fio: a pattern replaces zeroing and scrambling; reads would overwrite it, so refill */
	if (job->buf.pattern_len) {
		job->buf.scramble = false;
		job->buf.zero = false;
		job->buf.refill = job->buf.compress_pct || job_reads(job->rw);
	}
	/* fio keeps buffer_compress_chunk in 32 bits */
	if (job->buf.compress_chunk > UINT32_MAX)
		return iop_errf(err, -EINVAL,
				"%s: buffer_compress_chunk=%llu is above 4g-1 (accepted: 0 to 4294967295 bytes)",
				job->origin, (unsigned long long)job->buf.compress_chunk);
	/* fio: compression (other than 100%) and dedupe turn refill_buffers on */
	if ((job_gave(job, "buffer_compress_percentage") && job->buf.compress_pct != 100) ||
	    job->buf.dedupe_pct)
		job->buf.refill = true;
	return 0;
}

/* rate_min and rate_iops_min are not above the rate they floor. */
static int finish_rates(const struct job_spec *job, struct iop_err *err)
{
	unsigned d;

	for (d = 0; d < 2; d++) {
		if (job->rate.bps[d] && job->rate.min_bps[d] > job->rate.bps[d])
			return iop_errf(err, -EINVAL, "%s: rate_min=%llu is above rate=%llu",
					job->origin, (unsigned long long)job->rate.min_bps[d],
					(unsigned long long)job->rate.bps[d]);
		if (job->rate.iops[d] && job->rate.min_iops[d] > job->rate.iops[d])
			return iop_errf(err, -EINVAL, "%s: rate_iops_min=%llu is above rate_iops=%llu",
					job->origin, (unsigned long long)job->rate.min_iops[d],
					(unsigned long long)job->rate.iops[d]);
	}
	return 0;
}

/*
 * iodepth within what the engine can queue (offload's pool excepted), and the batches as fio's
 * fixup_options settles them: within iodepth, the completion maximum not below its minimum.
 */
static int finish_depths(struct job_spec *job, struct iop_err *err)
{
	if (!job->submit_offload && job->engine->max_depth && job->iodepth > job->engine->max_depth)
		return iop_errf(err, -EINVAL, "%s: iodepth=%u is more than ioengine=%s can queue (at most %u: %s)",
				job->origin, job->iodepth, job->engine->name, job->engine->max_depth,
				job->engine->max_depth_why);
	if (job->iodepth_batch_submit == 0 || job->iodepth_batch_submit > job->iodepth)
		job->iodepth_batch_submit = job->iodepth;
	if (job->iodepth_batch_complete_min > job->iodepth)
		job->iodepth_batch_complete_min = job->iodepth;
	/* fio: not set, or below the minimum, means the minimum (so 1 by default) */
	if (job->iodepth_batch_complete_max < job->iodepth_batch_complete_min)
		job->iodepth_batch_complete_max = job->iodepth_batch_complete_min;
	if (job->iodepth_batch_complete_max > job->iodepth)
		job->iodepth_batch_complete_max = job->iodepth;
	return 0;
}

/* What verify cannot stamp or check: random writes without the map, small blocks, no data. */
static int finish_verify_fit(const struct job_spec *job, const struct engine_ops *ops,
			     struct iop_err *err)
{
	if (job->verify.kind != VERIFY_NONE && job->norandommap && job_rw_random(job->rw) &&
	    job_writes(job->rw))
		return iop_errf(err, -EINVAL,
				"%s: verify with norandommap on random writes cannot tell which blocks hold data (drop norandommap)",
				job->origin);
	if (job->verify.kind != VERIFY_NONE && (job->bs[0] < 32 || job->bs[1] < 32))
		return iop_errf(err, -EINVAL, "%s: verify needs bs of at least 32 bytes", job->origin);
	if (job->verify.kind != VERIFY_NONE && (ops->flags & ENGINE_DISKLESS))
		return iop_errf(err, -EINVAL, "%s: verify needs an engine that moves data; ioengine=%s moves none",
				job->origin, ops->name);
	return 0;
}

int job_finish(struct job_spec *job, struct iop_err *err)
{
	const struct engine_entry *ent = engine_find(job->ioengine);
	int ret;

	if (!ent)
		return iop_errf(err, -EINVAL, "%s: unknown engine '%s'", job->origin, job->ioengine);
	job->engine = ent->ops;
	if (ent->force_direct)
		job->direct = true;
	ret = parse_engine_opts(job, ent->ops, err);
	if (ret)
		return ret;
	ret = finish_zones(job, err);
	if (!ret)
		ret = finish_cmdprio(job, err);
	if (!ret)
		ret = finish_verify_only(job, err);
	if (!ret)
		ret = finish_replay(job, err);
	if (!ret)
		ret = finish_trim(job, err);
	if (ret)
		return ret;
	resolve_bs(job);
	ret = finish_sprandom(job, err);
	if (!ret)
		ret = finish_atomic(job, err);
	if (!ret)
		ret = finish_sync_range(job, err);
	if (!ret)
		ret = finish_log_epoch(job, err);
	if (!ret)
		ret = finish_pre_read(job, err);
	if (!ret)
		ret = finish_unlink_each_loop(job, err);
	if (ret)
		return ret;
	/* fio's fixup_options: 0 or more than iodepth is iodepth (refill at once) */
	if (!job->iodepth_low || job->iodepth_low > job->iodepth)
		job->iodepth_low = job->iodepth;
	job->think.blocks_given = job_gave(job, "thinktime_blocks");
	ret = finish_rates(job, err);
	if (ret)
		return ret;
	/* fio: a non-uniform distribution disables the random map */
	if (job->random_distribution != DIST_RANDOM)
		job->norandommap = true;
	ret = finish_buffers(job, err);
	if (ret)
		return ret;
	/* fio: "any use of blockalign= turns off randommap" */
	if ((job->ba[0] && job->ba[0] != job->bs[0]) || (job->ba[1] && job->ba[1] != job->bs[1]))
		job->norandommap = true;
	finish_write_sequence(job, ent->ops);
	if (job->verify.kind != VERIFY_NONE && job->bs_unaligned &&
	    (job->bs[0] != job->bs_max[0] || job->bs[1] != job->bs_max[1]))
		return iop_errf(err, -EINVAL,
				"%s: verify with bs_unaligned cannot stamp every block (drop bs_unaligned)",
				job->origin);
	ret = finish_depths(job, err);
	if (ret)
		return ret;
	ret = finish_verify_fit(job, ent->ops, err);
	if (ret)
		return ret;
	if (ent->ops->flags & ENGINE_FILE_OP) {
		const char *why = finish_fileop(job);

		if (why)
			return iop_errf(err, -EINVAL, "%s: ioengine=%s times one operation per file: %s",
					job->origin, ent->ops->name, why);
	}
	if ((ent->ops->flags & ENGINE_WRITES_ONLY) && (job_reads(job->rw) || job_trims(job->rw) ||
						       job->rw == RW_METADATA))
		return iop_errf(err, -EINVAL,
				"%s: ioengine=%s truncates on writes only: a job that reads or trims is refused (fio 3.33 fails it with EINVAL at its first I/O); use rw=write or randwrite",
				job->origin, ent->ops->name);
	return finish_mode(job, err);
}
