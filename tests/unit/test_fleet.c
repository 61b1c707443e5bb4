/* Unit tests: what distributed runs need without MPI: substitution, blobs, the exact merge. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "fleet/fleet_report.h"
#include "io/gen.h"
#include "report/report.h"
#include "stats/prio.h"
#include "stats/stats.h"

static struct job_spec spec_a = { .name = "a", .numjobs = 1 };

/* A rank's result for job "a": n reads of bs bytes with latencies drawn from seed. */
static void fake_result(struct job_result *r, unsigned n, uint32_t bs, unsigned seed,
			int64_t start, int64_t end)
{
	struct rng g;
	unsigned i, d;

	memset(r, 0, sizeof(*r));
	r->spec = &spec_a;
	for (d = 0; d < STAT_NR; d++)
		dir_stat_init(&r->dir[d]);
	rng_seed(&g, seed);
	for (i = 0; i < n; i++) {
		uint64_t v = 500 + rng_below(&g, 1u << (8 + i % 16));

		lat_add(&r->dir[STAT_READ].clat, v);
		lat_add(&r->dir[STAT_READ].lat, v);
	}
	r->dir[STAT_READ].ios = n;
	r->dir[STAT_READ].bytes = (uint64_t)n * bs;
	r->dir[STAT_READ].runtime_ns = (uint64_t)(end - start);
	r->nr_workers = 1;
	r->start_ns = start;
	r->end_ns = end;
	r->runtime_ns = (uint64_t)(end - start);
	snprintf(r->engine_name, sizeof(r->engine_name), "null");
}

/* Pack and unpack, as the gather does, into ranks[i]. */
static void through_blob(struct job_result *r, unsigned nr, unsigned rank, const char *host,
			 struct fleet_rank *out)
{
	struct run_results rr = { .res = r, .nr = nr, .start_unix_ms = 1000 + rank };
	struct fleet_rank_info info = { .rank = rank, .hostname = host };
	struct fleet_blob b;

	cr_assert_eq(fleet_blob_pack(&rr, &info, &b), 0);
	memset(out, 0, sizeof(*out));
	cr_assert_eq(fleet_blob_unpack(b.data, b.len, out), 0);
	fleet_blob_free(&b);
}

Test(fleet_paths, hash_tells_file_lists_apart)
{
	const char *a[2] = { "/d/f.0", "/d/g.0" }, *b[2] = { "/d/f.1", "/d/g.0" };

	cr_assert_neq(fleet_paths_hash(a, 2),
		      fleet_paths_hash(b, 2));
	cr_assert_eq(fleet_paths_hash(a, 2),
		     fleet_paths_hash(a, 2));
	cr_assert_neq(fleet_paths_hash(a, 0), 0);
}

Test(fleet_blob, round_trip_keeps_histograms_and_job)
{
	struct job_result r;
	struct fleet_rank out;

	fake_result(&r, 1000, 4096, 1, 100, 200);
	through_blob(&r, 1, 5, "hostx", &out);
	cr_assert_eq(out.rank, 5);
	cr_assert_str_eq(out.hostname, "hostx");
	cr_assert_eq(out.res.nr, 1);
	cr_assert_str_eq(out.res.res[0].spec->name, "a");
	cr_assert_eq(memcmp(out.res.res[0].dir[STAT_READ].clat.hist, r.dir[STAT_READ].clat.hist,
			    sizeof(r.dir[STAT_READ].clat.hist)), 0);
	cr_assert_eq(out.res.res[0].end_ns, 200);
	fleet_rank_free(&out);
}

Test(fleet_blob, refuses_a_truncated_blob)
{
	struct job_result r;
	struct run_results rr = { .res = &r, .nr = 1 };
	struct fleet_rank_info info = { .rank = 1, .hostname = "h" };
	struct fleet_rank out = { 0 };
	struct fleet_blob b;

	fake_result(&r, 10, 4096, 1, 0, 10);
	cr_assert_eq(fleet_blob_pack(&rr, &info, &b), 0);
	cr_assert_lt(fleet_blob_unpack(b.data, b.len - 1, &out), 0);
	cr_assert(out.error[0]);
	fleet_blob_free(&b);
}

Test(fleet_merge, sums_histograms_bucket_by_bucket)
{
	struct job_result r[3];
	struct fleet_rank ranks[3];
	struct fleet_merged m;
	uint64_t sum;
	unsigned i, k;

	for (i = 0; i < 3; i++) {
		fake_result(&r[i], 5000 + 1000 * i, 4096, i + 1, 10, 1000 + 100 * i);
		through_blob(&r[i], 1, i, "h", &ranks[i]);
	}
	cr_assert_eq(fleet_merge(ranks, 3, &m), 0);
	cr_assert_eq(m.all.nr, 1);
	for (k = 0; k < HIST_NR; k++) {
		for (sum = 0, i = 0; i < 3; i++)
			sum += r[i].dir[STAT_READ].clat.hist[k];
		cr_assert_eq(m.all.res[0].dir[STAT_READ].clat.hist[k], sum, "bucket %u", k);
	}
	cr_assert_eq(m.all.res[0].dir[STAT_READ].clat.n, 5000 + 6000 + 7000);
	cr_assert_eq(m.all.res[0].dir[STAT_READ].bytes, 18000ull * 4096);
	cr_assert_eq(m.all.res[0].dir[STAT_READ].clat.sumsq, r[0].dir[STAT_READ].clat.sumsq +
		     r[1].dir[STAT_READ].clat.sumsq + r[2].dir[STAT_READ].clat.sumsq);
	free(m.all.res);
	for (i = 0; i < 3; i++)
		fleet_rank_free(&ranks[i]);
}

/* cmdprio: each rank's latencies per priority travel with its result and merge by priority. */
Test(fleet_merge, latencies_per_priority_travel_and_merge_by_priority)
{
	struct job_result r[2];
	struct fleet_rank ranks[2];
	struct fleet_merged m;
	const struct prio_lat *p;
	unsigned i, v;

	for (i = 0; i < 2; i++) {
		fake_result(&r[i], 100, 4096, i + 1, 10, 1000);
		r[i].prios = calloc(1, sizeof(*r[i].prios));
		cr_assert_not_null(r[i].prios);
		/* rank 0: 0/0 and 1/0; rank 1: 1/0 and 3/2, in another order */
		cr_assert_geq(prio_stats_add(r[i].prios, 0, i ? 0x6002 : 0), 0);
		cr_assert_geq(prio_stats_add(r[i].prios, 0, 0x2000), 0);
		for (v = 0; v < 10 + i; v++) {
			lat_add(&r[i].prios->p[0][0].lat, 1000 + v);
			lat_add(&r[i].prios->p[0][1].lat, 500 + v);
		}
		through_blob(&r[i], 1, i, "h", &ranks[i]);
		cr_assert_not_null(ranks[i].res.res[0].prios);
		cr_assert_eq(ranks[i].res.res[0].prios->nr[0], 2);
		cr_assert_eq(ranks[i].res.res[0].prios->nr[1], 0);
		cr_assert_eq(memcmp(&ranks[i].res.res[0].prios->p[0][1], &r[i].prios->p[0][1],
				    sizeof(struct prio_lat)), 0);
	}
	cr_assert_eq(fleet_merge(ranks, 2, &m), 0);
	cr_assert_not_null(m.all.res[0].prios);
	cr_assert_eq(m.all.res[0].prios->nr[0], 3);
	p = prio_find(m.all.res[0].prios, 0, 0x2000);
	cr_assert_not_null(p);
	cr_assert_eq(p->lat.n, 10 + 11);
	cr_assert_eq(prio_find(m.all.res[0].prios, 0, 0)->lat.n, 10);
	cr_assert_eq(prio_find(m.all.res[0].prios, 0, 0x6002)->lat.n, 11);
	fleet_merged_free(&m);
	for (i = 0; i < 2; i++) {
		fleet_rank_free(&ranks[i]);
		prio_stats_free(r[i].prios);
	}
}

Test(fleet_merge, wall_clock_runs_from_first_start_to_last_end)
{
	struct job_result r[2];
	struct fleet_rank ranks[2];
	struct fleet_merged m;
	unsigned i;

	fake_result(&r[0], 100, 4096, 1, 5, 1000);
	fake_result(&r[1], 100, 4096, 2, 20, 4000);
	for (i = 0; i < 2; i++) {
		r[i].window_start_ns = 20;
		r[i].window_end_ns = 1000;
		r[i].window_bytes = 100 * (i + 1);
		through_blob(&r[i], 1, i, "h", &ranks[i]);
	}
	cr_assert_eq(fleet_merge(ranks, 2, &m), 0);
	cr_assert_eq(m.all.res[0].runtime_ns, 4000 - 5);
	cr_assert_eq(m.all.res[0].dir[STAT_READ].runtime_ns, 4000 - 5);
	cr_assert_eq(m.all.res[0].window_bytes, 300);
	cr_assert_eq(m.all.res[0].window_start_ns, 20);
	cr_assert_eq(m.all.res[0].window_end_ns, 1000);
	free(m.all.res);
	for (i = 0; i < 2; i++)
		fleet_rank_free(&ranks[i]);
}

Test(fleet_merge, a_failed_rank_marks_the_job_with_its_rank_and_host)
{
	struct job_result r;
	struct fleet_rank ranks[2];
	struct fleet_merged m;

	fake_result(&r, 100, 4096, 1, 5, 1000);
	through_blob(&r, 1, 0, "h0", &ranks[0]);
	memset(&ranks[1], 0, sizeof(ranks[1]));
	ranks[1].rank = 1;
	snprintf(ranks[1].hostname, sizeof(ranks[1].hostname), "h1");
	snprintf(ranks[1].error, sizeof(ranks[1].error), "directory /x: No such file");
	ranks[1].exit_code = 2;
	cr_assert_eq(fleet_merge(ranks, 2, &m), 0);
	cr_assert_eq(m.nr_failed, 1);
	cr_assert_neq(m.all.res[0].error, 0);
	cr_assert(strstr(m.all.res[0].errmsg, "rank 1 (h1)"), "%s", m.all.res[0].errmsg);
	free(m.all.res);
	fleet_rank_free(&ranks[0]);
}

Test(fleet_json, has_client_stats_all_clients_and_jobs)
{
	struct job_result r[2];
	struct fleet_rank ranks[2];
	struct fleet_merged m;
	struct run_env env = { .kernel = "k", .hostname = "h0" };
	json_t *root, *cs, *e;
	unsigned i;

	for (i = 0; i < 2; i++) {
		fake_result(&r[i], 100, 4096, i + 1, 5, 1000);
		through_blob(&r[i], 1, i, i ? "h1" : "h0", &ranks[i]);
	}
	cr_assert_eq(fleet_merge(ranks, 2, &m), 0);
	root = fleet_merged_json(&m, &env, true);
	cr_assert_not_null(root);
	cr_assert_eq(json_array_size(json_object_get(root, "jobs")), 1);
	cs = json_object_get(root, "client_stats");
	cr_assert_eq(json_array_size(cs), 3);
	e = json_array_get(cs, 1);
	cr_assert_str_eq(json_string_value(json_object_get(e, "hostname")), "h1");
	e = json_array_get(cs, 2);
	cr_assert_str_eq(json_string_value(json_object_get(e, "jobname")), "All clients");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(e, "read"), "io_bytes")),
		     200 * 4096);
	json_decref(root);
	free(m.all.res);
	for (i = 0; i < 2; i++)
		fleet_rank_free(&ranks[i]);
}

/* rw=metadata's statistics for a rank: files create ops, each phase lasting phase_ns. */
static struct meta_stat *fake_meta(unsigned files, uint64_t phase_ns)
{
	struct meta_stat *m = calloc(1, sizeof(*m));
	unsigned op, i;

	cr_assert_not_null(m);
	for (op = 0; op < META_NR; op++) {
		lat_init(&m->op[op]);
		for (i = 0; i < files; i++)
			lat_add(&m->op[op], 1000 + 10 * i);
		m->phase_ns[op] = phase_ns;
	}
	m->files = files;
	return m;
}

Test(fleet_blob, carries_metadata_statistics)
{
	struct job_result r;
	struct fleet_rank out;

	fake_result(&r, 10, 4096, 1, 0, 10);
	r.meta = fake_meta(50, 7000);
	through_blob(&r, 1, 1, "h", &out);
	cr_assert_not_null(out.res.res[0].meta);
	cr_assert_eq(out.res.res[0].meta->files, 50);
	cr_assert_eq(out.res.res[0].meta->op[META_STAT].n, 50);
	cr_assert_eq(memcmp(out.res.res[0].meta->op[META_CREATE].hist, r.meta->op[META_CREATE].hist,
			    sizeof(r.meta->op[META_CREATE].hist)), 0);
	free(r.meta);
	fleet_rank_free(&out);
}

Test(fleet_merge, sums_metadata_operations_over_the_longest_phase)
{
	struct job_result r[2];
	struct fleet_rank ranks[2];
	struct fleet_merged m;
	unsigned i;

	for (i = 0; i < 2; i++) {
		fake_result(&r[i], 10, 4096, i + 1, 5, 1000);
		r[i].meta = fake_meta(100 * (i + 1), 1000 * (i + 1));
		through_blob(&r[i], 1, i, "h", &ranks[i]);
		free(r[i].meta);
	}
	cr_assert_eq(fleet_merge(ranks, 2, &m), 0);
	cr_assert_not_null(m.all.res[0].meta);
	cr_assert_eq(m.all.res[0].meta->files, 300);
	cr_assert_eq(m.all.res[0].meta->op[META_UNLINK].n, 300);
	cr_assert_eq(m.all.res[0].meta->phase_ns[META_UNLINK], 2000);
	fleet_merged_free(&m);
	for (i = 0; i < 2; i++)
		fleet_rank_free(&ranks[i]);
}

Test(fleet_vote, alone_the_answer_is_this_process_own)
{
	struct fleet_vote v;

	cr_assert_eq(fleet_vote(0, "", 42, &v), 0);
	cr_assert_eq(v.choice, 0);
	cr_assert_eq(v.count, 0);
	cr_assert(!v.key_differs);
	cr_assert_eq(fleet_vote(2, "cannot create the directory", 42, &v), 0);
	cr_assert_eq(v.choice, 2);
	cr_assert_eq(v.count, 1);
	cr_assert_eq(v.rank, 0);
	/* one process names no rank */
	cr_assert_str_eq(v.why, "cannot create the directory");
}

/* What a gather's fn saw. */
struct seen {
	unsigned calls;
	char note[64];
	uint64_t bytes;
};

static int see(void *arg, const struct fleet_rank *rk)
{
	struct seen *s = arg;

	s->calls++;
	snprintf(s->note, sizeof(s->note), "%s", rk->probe_json ? rk->probe_json : "");
	s->bytes = rk->res.nr ? rk->res.res[0].dir[STAT_READ].bytes : 0;
	return 0;
}

Test(fleet_gather, alone_fn_sees_this_process_once_with_its_note_and_results)
{
	struct job_result r;
	struct run_results rr = { .res = &r, .nr = 1 };
	struct seen s = { 0 };

	fake_result(&r, 10, 4096, 1, 0, 10);
	cr_assert_eq(fleet_gather_run(&rr, "{\"cell\":1}", see, &s), 0);
	cr_assert_eq(s.calls, 1);
	cr_assert_str_eq(s.note, "{\"cell\":1}");
	cr_assert_eq(s.bytes, 10 * 4096);
	/* the results are still the caller's, untouched */
	cr_assert_eq(rr.nr, 1);
	cr_assert_eq(r.dir[STAT_READ].bytes, 10 * 4096);
	cr_assert_eq(fleet_gather_run(&rr, NULL, NULL, NULL), 0);
}
