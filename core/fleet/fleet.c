/* What distributed runs need without MPI: path substitution, result blobs, the exact merge. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/err.h"
#include "fleet/fleet.h"
#include "stats/merge.h"
#include "stats/prio.h"
#include "probe/pathprobe.h"
#include "base/parse.h"
#include "run/run.h"
#include "stats/stats.h"
#include "base/version.h"

/*
 * The blob: a header, then per result its job spec, its result (pointers cleared), one byte
 * saying whether its metadata statistics (rw=metadata) follow, and one saying whether its
 * latencies per priority (cmdprio) follow (an entry count per direction, then the entries),
 * then the hostname, the
 * error and the probe JSON as NUL-terminated strings. Ranks run the same build (checked by
 * the header), so structs travel as they are.
 */
#define BLOB_MAGIC 0x696f7064u	/* "iopd" */

struct blob_hdr {
	uint32_t magic;
	uint32_t spec_size;
	uint32_t result_size;
	uint32_t rank;
	int32_t exit_code;
	uint32_t nr;
	uint32_t interrupted;
	uint32_t has_error;
	uint32_t nr_meta;		/* results followed by their metadata statistics */
	uint32_t nr_prios;		/* results followed by their latencies per priority */
	uint32_t nr_prio_lats;		/* the entries of those, in all */
	uint64_t start_unix_ms;
	uint64_t str_len[3];		/* hostname, error, probe JSON, each with its NUL */
	char version[64];
};

/* A result's latencies per priority into the blob at p: the counts, then the entries. */
static char *pack_prios(char *p, const struct prio_stats *ps)
{
	unsigned d;

	for (d = 0; d < PRIO_DIRS; d++) {
		uint32_t n = ps->nr[d];

		memcpy(p, &n, sizeof(n));
		p += sizeof(n);
	}
	for (d = 0; d < PRIO_DIRS; d++) {
		if (!ps->nr[d])
			continue;	/* an empty direction's entries may be NULL */
		memcpy(p, ps->p[d], ps->nr[d] * sizeof(struct prio_lat));
		p += ps->nr[d] * sizeof(struct prio_lat);
	}
	return p;
}

/*
 * The latencies per priority at *p, within what the header counted (left, decremented).
 * NULL when they do not fit (errno EPROTO) or memory runs out (ENOMEM).
 */
static struct prio_stats *unpack_prios(const char **p, uint32_t *left)
{
	struct prio_stats *ps = calloc(1, sizeof(*ps));
	uint32_t n[PRIO_DIRS];
	unsigned d;

	if (!ps) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(n, *p, sizeof(n));
	*p += sizeof(n);
	for (d = 0; d < PRIO_DIRS; d++) {
		if (n[d] > *left) {
			prio_stats_free(ps);
			errno = EPROTO;
			return NULL;
		}
		*left -= n[d];
		ps->p[d] = n[d] ? malloc(n[d] * sizeof(struct prio_lat)) : NULL;
		if (n[d] && !ps->p[d]) {
			prio_stats_free(ps);
			errno = ENOMEM;
			return NULL;
		}
		ps->nr[d] = n[d];
	}
	for (d = 0; d < PRIO_DIRS; d++) {
		if (!n[d])
			continue;	/* nothing to copy, and ps->p[d] is NULL */
		memcpy(ps->p[d], *p, n[d] * sizeof(struct prio_lat));
		*p += n[d] * sizeof(struct prio_lat);
	}
	return ps;
}

int fleet_blob_pack(const struct run_results *r, const struct fleet_rank_info *info,
		   struct fleet_blob *b)
{
	const char *strs[3] = { info->hostname ? info->hostname : "",
				info->error ? info->error : "",
				info->probe_json ? info->probe_json : "" };
	struct blob_hdr h;
	unsigned nr = r ? r->nr : 0, i;
	size_t len = sizeof(h);
	char *p;

	memset(&h, 0, sizeof(h));
	h.magic = BLOB_MAGIC;
	h.spec_size = sizeof(struct job_spec);
	h.result_size = sizeof(struct job_result);
	h.rank = info->rank;
	h.exit_code = info->exit_code;
	h.nr = nr;
	h.interrupted = r && r->interrupted;
	h.has_error = info->error != NULL;
	h.start_unix_ms = r ? r->start_unix_ms : 0;
	snprintf(h.version, sizeof(h.version), "%s", iopath_version);
	for (i = 0; i < 3; i++) {
		h.str_len[i] = strlen(strs[i]) + 1;
		len += h.str_len[i];
	}
	for (i = 0; i < nr; i++) {
		const struct prio_stats *ps = r->res[i].prios;
		unsigned d;

		h.nr_meta += r->res[i].meta != NULL;
		h.nr_prios += ps != NULL;
		for (d = 0; ps && d < PRIO_DIRS; d++)
			h.nr_prio_lats += ps->nr[d];
	}
	len += (size_t)nr * (sizeof(struct job_spec) + sizeof(struct job_result) + 2);
	len += (size_t)h.nr_meta * sizeof(struct meta_stat);
	len += (size_t)h.nr_prios * PRIO_DIRS * sizeof(uint32_t) +
	       (size_t)h.nr_prio_lats * sizeof(struct prio_lat);
	b->data = calloc(1, len);
	if (!b->data)
		return -ENOMEM;
	b->len = len;
	p = b->data;
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	for (i = 0; i < nr; i++) {
		/*
		 * Edited in aligned copies, then copied in: the blob's offsets are not aligned
		 * for these types (struct job_result holds 16-byte-aligned integers).
		 */
		struct job_spec s;
		struct job_result res;

		memcpy(&s, r->res[i].spec, sizeof(s));
		s.engine = NULL;
		memcpy(p, &s, sizeof(s));
		p += sizeof(s);
		memcpy(&res, &r->res[i], sizeof(res));
		/* what points into this rank's memory does not travel; metadata stats follow */
		res.spec = NULL;
		res.meta = NULL;
		res.ss = NULL;
		res.prios = NULL;
		res.nr_targets = 0;
		memset(res.targets, 0, sizeof(res.targets));
		memcpy(p, &res, sizeof(res));
		p += sizeof(res);
		*p++ = r->res[i].meta != NULL;
		if (r->res[i].meta) {
			memcpy(p, r->res[i].meta, sizeof(struct meta_stat));
			p += sizeof(struct meta_stat);
		}
		*p++ = r->res[i].prios != NULL;
		if (r->res[i].prios)
			p = pack_prios(p, r->res[i].prios);
	}
	for (i = 0; i < 3; i++) {
		memcpy(p, strs[i], h.str_len[i]);
		p += h.str_len[i];
	}
	return 0;
}

void fleet_blob_free(struct fleet_blob *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}

static void rank_fail(struct fleet_rank *out, const char *fmt, const char *arg)
{
	snprintf(out->error, sizeof(out->error), fmt, arg);
	if (!out->exit_code)
		out->exit_code = 1;
}

/*
 * A rank's blob header into *h: the same build as this one, and counts that add up to len
 * exactly; -EPROTO with the rank's failure said in out otherwise.
 */
static int blob_hdr_read(const void *data, size_t len, struct blob_hdr *h, struct fleet_rank *out)
{
	size_t need;
	unsigned i;

	if (len < sizeof(*h)) {
		rank_fail(out, "sent a result iopath cannot read%s", "");
		return -EPROTO;
	}
	memcpy(h, data, sizeof(*h));
	h->version[sizeof(h->version) - 1] = '\0';
	if (h->magic != BLOB_MAGIC || h->spec_size != sizeof(struct job_spec) ||
	    h->result_size != sizeof(struct job_result) || strcmp(h->version, iopath_version)) {
		rank_fail(out, "runs a different iopath build (%s); every rank needs the same binary",
			  h->magic == BLOB_MAGIC ? h->version : "unknown");
		return -EPROTO;
	}
	if (h->nr > 1u << 20 || h->nr_meta > h->nr || h->nr_prios > h->nr ||
	    h->nr_prio_lats > (1u << 24)) {
		rank_fail(out, "sent a truncated result%s", "");
		return -EPROTO;
	}
	need = sizeof(*h) +
	       (size_t)h->nr * (sizeof(struct job_spec) + sizeof(struct job_result) + 2) +
	       (size_t)h->nr_meta * sizeof(struct meta_stat) +
	       (size_t)h->nr_prios * PRIO_DIRS * sizeof(uint32_t) +
	       (size_t)h->nr_prio_lats * sizeof(struct prio_lat);
	for (i = 0; i < 3; i++)
		need += h->str_len[i];
	if (need != len) {
		rank_fail(out, "sent a truncated result%s", "");
		return -EPROTO;
	}
	return 0;
}

int fleet_blob_unpack(const void *data, size_t len, struct fleet_rank *out)
{
	const char *p = data, *strs[3];
	struct blob_hdr h;
	unsigned i;

	if (blob_hdr_read(data, len, &h, out))
		return -EPROTO;
	p += sizeof(h);
	out->rank = h.rank;
	out->exit_code = h.exit_code;
	out->res.interrupted = h.interrupted;
	out->res.start_unix_ms = h.start_unix_ms;
	out->specs = calloc(h.nr ? h.nr : 1, sizeof(*out->specs));
	out->res.res = calloc(h.nr ? h.nr : 1, sizeof(*out->res.res));
	if (!out->specs || !out->res.res) {
		fleet_rank_free(out);
		return -ENOMEM;
	}
	out->res.nr = h.nr;
	for (i = 0; i < h.nr; i++) {
		struct job_result *r = &out->res.res[i];

		memcpy(&out->specs[i], p, sizeof(struct job_spec));
		p += sizeof(struct job_spec);
		memcpy(r, p, sizeof(struct job_result));
		p += sizeof(struct job_result);
		r->spec = &out->specs[i];
		r->opts_spec = NULL;	/* the rank's pointer: its options are spec's here */
		r->meta = NULL;
		r->ss = NULL;
		r->prios = NULL;
		if (*p++) {
			/* the counted metadata statistics must fit where the length said they would */
			if (!h.nr_meta--) {
				fleet_rank_free(out);
				rank_fail(out, "sent a malformed result%s", "");
				return -EPROTO;
			}
			r->meta = malloc(sizeof(*r->meta));
			if (!r->meta) {
				fleet_rank_free(out);
				return -ENOMEM;
			}
			memcpy(r->meta, p, sizeof(*r->meta));
			p += sizeof(*r->meta);
		}
		if (!*p++)
			continue;
		/* and so must the latencies per priority */
		if (!h.nr_prios-- || !(r->prios = unpack_prios(&p, &h.nr_prio_lats))) {
			int e = h.nr_prios == UINT32_MAX || errno == EPROTO ? -EPROTO : -ENOMEM;

			fleet_rank_free(out);
			if (e == -EPROTO)
				rank_fail(out, "sent a malformed result%s", "");
			return e;
		}
	}
	if (h.nr_meta || h.nr_prios || h.nr_prio_lats) {
		fleet_rank_free(out);
		rank_fail(out, "sent a malformed result%s", "");
		return -EPROTO;
	}
	for (i = 0; i < 3; i++) {
		strs[i] = p;
		if (!h.str_len[i] || p[h.str_len[i] - 1] != '\0') {
			fleet_rank_free(out);
			rank_fail(out, "sent a malformed result%s", "");
			return -EPROTO;
		}
		p += h.str_len[i];
	}
	snprintf(out->hostname, sizeof(out->hostname), "%s", strs[0]);
	if (h.has_error)
		snprintf(out->error, sizeof(out->error), "%s", strs[1]);
	out->probe_json = strs[2][0] ? strdup(strs[2]) : NULL;
	return 0;
}

void fleet_rank_free(struct fleet_rank *r)
{
	unsigned i;

	for (i = 0; r->res.res && i < r->res.nr; i++) {
		free(r->res.res[i].meta);
		prio_stats_free(r->res.res[i].prios);
	}
	free(r->specs);
	free(r->res.res);
	free(r->probe_json);
	r->specs = NULL;
	r->res.res = NULL;
	r->res.nr = 0;
	r->probe_json = NULL;
}

/* Did this rank run this job (rather than fail before, or have it refused)? */
bool fleet_result_ran(const struct job_result *r)
{
	return r->nr_workers && r->end_ns > r->start_ns;
}

/* One rank's result into the merged one, through the one merge; its error names the rank. */
static int merge_one(struct job_result *dst, const struct job_result *src,
		     const struct fleet_rank *rk)
{
	struct job_result *one = malloc(sizeof(*one));
	int ret;

	if (!one)
		return -ENOMEM;
	*one = *src;
	if (src->error)
		snprintf(one->errmsg, sizeof(one->errmsg), "rank %u (%.64s): %.400s", rk->rank,
			 rk->hostname, src->errmsg);
	ret = result_merge(dst, one);
	free(one);
	return ret;
}

void fleet_failed_result(struct job_result *r, const struct job_spec *spec,
			 const struct fleet_rank *rk)
{
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->spec = spec;
	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&r->dir[i]);
	r->error = rk->missing ? ETIMEDOUT : rk->exit_code == 2 ? EINVAL : EIO;
	snprintf(r->errmsg, sizeof(r->errmsg), "rank %u (%.64s): %.400s", rk->rank, rk->hostname,
		 rk->error[0] ? rk->error : rk->missing ? "never reported; its results are lost" :
		 "failed");
}

static const struct fleet_rank *spec_source(const struct fleet_rank *ranks, unsigned nr, unsigned j)
{
	unsigned i;

	for (i = 0; i < nr; i++)
		if (!ranks[i].missing && ranks[i].res.nr > j)
			return &ranks[i];
	return NULL;
}

int fleet_merge(struct fleet_rank *ranks, unsigned nr, struct fleet_merged *m)
{
	const struct fleet_rank *src;
	unsigned i, j, nr_jobs = 0;

	memset(m, 0, sizeof(*m));
	m->ranks = ranks;
	m->nr_ranks = nr;
	for (i = 0; i < nr; i++)
		if (!ranks[i].missing && ranks[i].res.nr > nr_jobs)
			nr_jobs = ranks[i].res.nr;
	/* a rank whose jobs are not the others' cannot be merged with them */
	for (i = 0; i < nr; i++) {
		struct fleet_rank *rk = &ranks[i];

		for (j = 0; rk->res.nr && j < rk->res.nr; j++) {
			src = spec_source(ranks, nr, j);
			if (strcmp(src->specs[j].name, rk->specs[j].name)) {
				snprintf(rk->error, sizeof(rk->error),
					 "its jobs differ from rank %u's (job %u is '%s', not '%s'); not merged",
					 src->rank, j, rk->specs[j].name, src->specs[j].name);
				rk->exit_code = rk->exit_code ? rk->exit_code : 1;
				rk->res.nr = 0;
				break;
			}
		}
		if (rk->missing || rk->error[0] || (!rk->res.nr && nr_jobs))
			m->nr_failed++;
	}
	m->all.res = calloc(nr_jobs ? nr_jobs : 1, sizeof(*m->all.res));
	if (!m->all.res)
		return -ENOMEM;
	m->all.nr = nr_jobs;
	m->all.start_unix_ms = UINT64_MAX;
	for (i = 0; i < nr; i++) {
		if (ranks[i].missing)
			continue;
		m->all.interrupted |= ranks[i].res.interrupted;
		if (ranks[i].res.nr && ranks[i].res.start_unix_ms < m->all.start_unix_ms)
			m->all.start_unix_ms = ranks[i].res.start_unix_ms;
	}
	if (m->all.start_unix_ms == UINT64_MAX)
		m->all.start_unix_ms = 0;
	for (j = 0; j < nr_jobs; j++) {
		struct job_result *dst = &m->all.res[j];

		src = spec_source(ranks, nr, j);
		memset(dst, 0, sizeof(*dst));
		dst->spec = &src->specs[j];
		for (i = 0; i < STAT_NR; i++)
			dir_stat_init(&dst->dir[i]);
		for (i = 0; i < nr; i++) {
			const struct fleet_rank *rk = &ranks[i];

			if (rk->missing || rk->res.nr <= j)
				continue;
			if (merge_one(dst, &rk->res.res[j], rk)) {
				fleet_merged_free(m);
				return -ENOMEM;
			}
		}
		/* a rank with no result for this job makes the aggregate incomplete: say so */
		for (i = 0; !dst->error && i < nr; i++) {
			struct job_result stand_in;

			if (!ranks[i].missing && ranks[i].res.nr > j)
				continue;
			fleet_failed_result(&stand_in, dst->spec, &ranks[i]);
			dst->error = stand_in.error;
			memcpy(dst->errmsg, stand_in.errmsg, sizeof(dst->errmsg));
		}
		/* fio's aggregate: every byte over the wall-clock window of all ranks */
		dst->runtime_ns = dst->end_ns > dst->start_ns ? (uint64_t)(dst->end_ns - dst->start_ns) : 0;
		for (i = 0; i < STAT_NR; i++)
			if (dst->dir[i].ios)
				dst->dir[i].runtime_ns = dst->runtime_ns;
	}
	return 0;
}

void fleet_merged_free(struct fleet_merged *m)
{
	unsigned j;

	for (j = 0; m->all.res && j < m->all.nr; j++)
		result_free_owned(&m->all.res[j]);
	free(m->all.res);
	m->all.res = NULL;
	m->all.nr = 0;
}

int fleet_gather_alone(struct run_results *r, const char *host, const char *note, fleet_rank_fn fn,
		       void *arg)
{
	struct fleet_rank *rk;
	int ret;

	if (!fn)
		return 0;
	rk = calloc(1, sizeof(*rk));
	if (!rk)
		return -ENOMEM;
	snprintf(rk->hostname, sizeof(rk->hostname), "%s", host);
	rk->exit_code = run_failed(r) ? EXIT_JOB_FAILED : 0;
	rk->probe_json = (char *)note;	/* lent, as r is: rk is not freed with fleet_rank_free */
	rk->res = *r;
	ret = fn(arg, rk);
	free(rk);
	return ret;
}

int fleet_merge_into(struct fleet_rank *ranks, unsigned nr, struct run_results *r)
{
	struct fleet_merged m;
	unsigned j;

	if (fleet_merge(ranks, nr, &m))
		return -ENOMEM;
	if (m.all.nr != r->nr) {
		fleet_merged_free(&m);
		return -EPROTO;
	}
	for (j = 0; j < r->nr; j++) {
		struct job_result *own = &r->res[j], *all = &m.all.res[j];
		const struct job_spec *spec = own->spec;
		unsigned clone = own->clone, nr_targets = own->nr_targets;
		const struct probed_dir *targets[4];
		bool suspect = own->direct_suspect;
		char note[sizeof(own->direct_note)];

		/* the numbers become everyone's; what rank 0's result points to stays its own */
		memcpy(targets, own->targets, sizeof(targets));
		memcpy(note, own->direct_note, sizeof(note));
		result_free_owned(own);
		*own = *all;
		all->meta = NULL;
		all->ss = NULL;
		own->spec = spec;
		own->clone = clone;
		own->nr_targets = nr_targets;
		memcpy(own->targets, targets, sizeof(targets));
		own->direct_suspect = suspect;
		memcpy(own->direct_note, note, sizeof(note));
	}
	r->interrupted |= m.all.interrupted;
	/* rank 0's devices are not the fleet's: each rank's own are in its rank file only */
	if (r->disks) {
		disk_set_free(r->disks);
		free(r->disks);
		r->disks = NULL;
	}
	fleet_merged_free(&m);
	return 0;
}

/* ---- Shared by both builds: options, paths, probe, output files (votes: fleet_vote.c) ---- */

int fleet_take_args(int *argc, char **argv, struct fleet_args *a)
{
	int i, o = 1;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < *argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "--mpi")) {
			a->mpi = true;
		} else if (!strcmp(s, "--mpi-shared-files")) {
			a->shared_files = true;
			a->any = true;
		} else if (!strncmp(s, "--mpi-rank-output", 17) && (s[17] == '=' || !s[17])) {
			if (s[17] != '=' || !s[18]) {
				iop_msgf("--mpi-rank-output needs a directory (--mpi-rank-output=DIR)");
				return 2;
			}
			a->rank_output = s + 18;
			a->any = true;
		} else {
			argv[o++] = argv[i];
		}
	}
	argv[o] = NULL;
	*argc = o;
	return 0;
}

/* Launched by mpirun (Open MPI) or an MPICH-style process manager as one of several? */
int fleet_launcher_size(unsigned *rank)
{
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL };
	static const char *const ranks[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", NULL };
	unsigned i;

	for (i = 0; sizes[i]; i++) {
		const char *s = getenv(sizes[i]), *r = getenv(ranks[i]);

		if (s && atoi(s) > 0) {
			*rank = r ? (unsigned)atoi(r) : 0;
			return atoi(s);
		}
	}
	*rank = 0;
	return 0;
}

char *fleet_probe_json(const struct run_results *r)
{
	json_t *o;
	char *s;

	/* the runner probed the host and every path its jobs touched */
	if (!r || !r->probes)
		return NULL;
	o = probe_set_json(r->probes);
	if (!o)
		return NULL;
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}
