/* Every MPI call of iopath: joining the job, agreeing on each group, its barrier, the gather. */
#include <errno.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/msg.h"
#include "base/err.h"
#include "fleet/fleet.h"

#define STEP_FINAL INT32_MAX		/* "I have no more groups to run" */
#define TAG_LEN 7001
#define TAG_BLOB 7002
#define TAG_DONE 7003		/* rank 0 has written the result */
#define HOST_MAX 256
/*
 * After a stop, how long a silent rank is waited for. mpirun turns Ctrl-C into SIGTERM and
 * sends SIGKILL a second later (odls_base_sigkill_timeout), so the results must be written
 * before that; SIGUSR1, which mpirun forwards and nothing follows, allows a longer wait.
 */
#define GRACE_NS (600ull * 1000000ull)
#define GRACE_USR1_NS (10ull * 1000000000ull)
#define MAX_SAMPLES 4096

/* What each rank says before a phase: its next step, a stop, what its jobs would write. */
struct step_msg {
	int32_t step;
	int32_t stop;
	uint64_t write_hash[FLEET_CHECK_MAX];
};

static volatile sig_atomic_t stopped_by_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	stopped_by_usr1 = 1;
	run_request_stop();
}

static uint64_t grace_ns(void)
{
	return stopped_by_usr1 ? GRACE_USR1_NS : GRACE_NS;
}

static struct {
	bool on;
	bool joined;			/* took part in a group or noted an error: owes the gather */
	bool gathered;
	bool broken;			/* gave up on a collective after a stop: point-to-point only */
	int rank, size;
	char host[HOST_MAX];
	char *hosts;			/* every rank's hostname, HOST_MAX apart */
	struct step_msg *steps;		/* what every rank said before the current phase */
	bool hosts_unique;
	struct fleet_args args;
	char error[512];

	/* the running group */
	MPI_Comm group;
	uint64_t origin;
	unsigned nr_units;
	size_t nr_samples, cap;
	uint64_t *samples;		/* rows of: t (ns after origin), then bytes, ios per unit */
} D;

static void nap(unsigned us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)us * 1000 };

	nanosleep(&ts, NULL);
}

bool fleet_compiled(void)
{
	return true;
}

bool fleet_active(void)
{
	return D.on;
}

unsigned fleet_rank(void)
{
	return D.on ? (unsigned)D.rank : 0;
}

unsigned fleet_size(void)
{
	return D.on ? (unsigned)D.size : 1;
}

const char *fleet_hostname(void)
{
	if (!D.host[0] && gethostname(D.host, sizeof(D.host) - 1))
		snprintf(D.host, sizeof(D.host), "unknown");
	return D.host;
}

bool fleet_hosts_unique(void)
{
	return !D.on || D.hosts_unique;
}

bool fleet_shared_files_ok(void)
{
	return D.args.shared_files;
}

void fleet_note_error(const char *msg)
{
	if (!D.on)
		return;
	D.joined = true;
	if (!D.error[0])
		snprintf(D.error, sizeof(D.error), "%s", msg);
}

static const struct fleet_writers *writers;

void fleet_set_writers(const struct fleet_writers *w)
{
	writers = w;
}

static void install_phase_ops(void);

int fleet_setup(int *argc, char **argv)
{
	struct sigaction sa;
	char rank_s[16];
	unsigned lrank;
	int ret, provided, size, i, j;

	ret = fleet_take_args(argc, argv, &D.args);
	if (ret)
		return ret;
	size = fleet_launcher_size(&lrank);
	if (!D.args.mpi && size < 1) {
		if (D.args.any) {
			iop_msgf("--mpi-shared-files and --mpi-rank-output need --mpi or a launch by mpirun");
			return EXIT_USAGE;
		}
		return 0;
	}
	if (MPI_Init_thread(argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		iop_msgf("--mpi: MPI_Init failed (run under mpirun)");
		return EXIT_USAGE;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &D.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &D.size);
	D.group = MPI_COMM_NULL;
	fleet_hostname();
	D.hosts = calloc((size_t)D.size, HOST_MAX);
	D.steps = calloc((size_t)D.size, sizeof(*D.steps));
	if (!D.hosts || !D.steps) {
		iop_msgf("rank %d: out of memory", D.rank);
		MPI_Abort(MPI_COMM_WORLD, EXIT_USAGE);
	}
	MPI_Allgather(D.host, HOST_MAX, MPI_CHAR, D.hosts, HOST_MAX, MPI_CHAR, MPI_COMM_WORLD);
	D.hosts_unique = true;
	for (i = 0; i < D.size; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(D.hosts + (size_t)i * HOST_MAX, D.hosts + (size_t)j * HOST_MAX))
				D.hosts_unique = false;
	/* mpirun forwards SIGUSR1 to every rank: a stop that keeps everything measured */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	/* ${RANK} and ${HOST} in job options (the parser expands ${VAR} from the environment) */
	snprintf(rank_s, sizeof(rank_s), "%d", D.rank);
	setenv("RANK", rank_s, 1);
	setenv("HOST", D.host, 1);
	D.on = true;
	iop_set_rank((unsigned)D.rank, (unsigned)D.size);
	install_phase_ops();
	return 0;
}

/*
 * Wait for a request without spinning a core (Open MPI's blocking calls busy-poll, which on a
 * small machine takes the CPU from the ranks still doing I/O). After a stop, a rank silent
 * for GRACE_NS is given up on: from then on only point-to-point messages are used.
 */
static int wait_req(MPI_Request *req)
{
	uint64_t stop_seen = 0;
	unsigned us = 20;
	int done = 0;

	for (;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return 0;
		if (run_stop_requested()) {
			uint64_t t = mono_ns();

			if (!stop_seen)
				stop_seen = t;
			else if (t - stop_seen > grace_ns()) {
				D.broken = true;
				return -ETIMEDOUT;
			}
		}
		nap(us);
		if (us < 2000)
			us *= 2;
	}
}

/* Everyone's next step: the smallest, and whether anyone was asked to stop; all in D.steps. */
static int exchange_step(const struct step_msg *mine, int32_t *min, bool *stop)
{
	MPI_Request req;
	int r;

	if (D.broken)
		return -ETIMEDOUT;
	MPI_Iallgather(mine, (int)sizeof(*mine), MPI_BYTE, D.steps, (int)sizeof(*mine), MPI_BYTE,
		       MPI_COMM_WORLD, &req);
	if (wait_req(&req))
		return -ETIMEDOUT;
	*min = STEP_FINAL;
	*stop = false;
	for (r = 0; r < D.size; r++) {
		*min = D.steps[r].step < *min ? D.steps[r].step : *min;
		*stop |= D.steps[r].stop != 0;
	}
	return 0;
}

int fleet_allgather(const void *mine, size_t len, void *all)
{
	MPI_Request req;

	if (!D.on) {
		memcpy(all, mine, len);
		return 0;
	}
	if (D.broken)
		return -ETIMEDOUT;
	MPI_Iallgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, MPI_COMM_WORLD, &req);
	return wait_req(&req);
}

const char *fleet_rank_output(void)
{
	return D.args.rank_output;
}

const char *fleet_rank_hostname(unsigned r)
{
	if (!D.on || !D.hosts || r >= (unsigned)D.size)
		return fleet_hostname();
	return D.hosts + (size_t)r * HOST_MAX;
}

static void split(bool run)
{
	MPI_Comm_split(MPI_COMM_WORLD, run ? 0 : MPI_UNDEFINED, D.rank, &D.group);
}

/* Would another rank running this phase write the same files as job i here? */
static bool written_elsewhere(const struct step_msg *mine, unsigned i)
{
	int r;

	if (!mine->write_hash[i] || D.args.shared_files)
		return false;
	for (r = 0; r < D.size; r++)
		if (r != D.rank && D.steps[r].step == mine->step &&
		    D.steps[r].write_hash[i] == mine->write_hash[i])
			return true;
	return false;
}

static bool fleet_phase_enter(unsigned phase, const uint64_t *write_hash, unsigned nr, bool *shared)
{
	struct step_msg mine = { .step = (int32_t)phase };
	int32_t min;
	unsigned i;
	bool stop, go;

	if (!D.on)
		return true;
	D.joined = true;
	for (i = 0; i < nr && i < FLEET_CHECK_MAX; i++)
		mine.write_hash[i] = write_hash[i];
	for (;;) {
		mine.stop = run_stop_requested();
		if (exchange_step(&mine, &min, &stop))
			return false;
		if (stop)
			run_request_stop();
		go = !stop && min == (int32_t)phase;
		split(go);
		if (stop || go)
			break;
		/* another rank still has an earlier phase to run: sit it out */
	}
	for (i = 0; go && i < nr && i < FLEET_CHECK_MAX; i++)
		shared[i] = written_elsewhere(&mine, i);
	return go;
}

/* No more groups here: sit out the others' until every rank is done. */
static void final_rounds(void)
{
	struct step_msg mine = { .step = STEP_FINAL };
	int32_t min;
	bool stop;

	while (!exchange_step(&mine, &min, &stop) && min != STEP_FINAL) {
		if (stop)
			run_request_stop();
		split(false);
	}
}

static uint64_t fleet_phase_start(void)
{
	MPI_Request req;

	D.nr_samples = 0;
	if (!D.on || D.group == MPI_COMM_NULL || D.broken)
		return D.origin = mono_ns();
	/* the patient wait while others set up, then a tight one so that all leave together */
	MPI_Ibarrier(D.group, &req);
	if (!wait_req(&req))
		MPI_Barrier(D.group);
	return D.origin = mono_ns();
}

/*
 * --mpi-shared-files: the group's first rank lays out, then the others (one barrier, which
 * the first rank enters after its layout and the others before theirs).
 */
static void fleet_layout_turn(bool done)
{
	MPI_Request req;
	int me;

	if (!D.on || !D.args.shared_files || D.group == MPI_COMM_NULL || D.broken)
		return;
	MPI_Comm_rank(D.group, &me);
	if ((me == 0) != done)
		return;
	MPI_Ibarrier(D.group, &req);
	(void)wait_req(&req);
}

static uint64_t *sample_row(size_t k)
{
	return D.samples + k * (1 + 2 * (size_t)D.nr_units);
}

/* Keep every other sample when full: memory stays bounded, the whole run stays covered. */
static bool sample_room(void)
{
	size_t row = 1 + 2 * (size_t)D.nr_units, k;

	if (!D.samples) {
		D.samples = calloc(MAX_SAMPLES, row * sizeof(uint64_t));
		D.cap = D.samples ? MAX_SAMPLES : 0;
	}
	if (!D.samples)
		return false;
	if (D.nr_samples < D.cap)
		return true;
	for (k = 0; 2 * k < D.nr_samples; k++)
		memmove(sample_row(k), sample_row(2 * k), row * sizeof(uint64_t));
	D.nr_samples = k;
	return true;
}

static void fleet_phase_watch(unsigned nr, bool (*progress)(void *arg, struct fleet_progress *p),
		       void *arg)
{
	struct fleet_progress *scratch;
	uint64_t t, every;
	bool done;

	if (!D.on || D.group == MPI_COMM_NULL)
		return;
	free(D.samples);
	D.samples = NULL;
	D.nr_units = nr;
	D.nr_samples = 0;
	scratch = calloc(nr ? nr : 1, sizeof(*scratch));
	if (!scratch)
		return;
	do {
		done = progress(arg, scratch);
		t = mono_ns() - D.origin;
		if (sample_room()) {
			uint64_t *row = sample_row(D.nr_samples++);

			row[0] = t;
			memcpy(row + 1, scratch, nr * sizeof(*scratch));
		}
		/* finer at first, so short jobs are covered too: about 200 samples per doubling */
		every = t / 200;
		every = every < 1000000 ? 1000000 : every > 20000000 ? 20000000 : every;
		if (!done)
			nap((unsigned)(every / 1000));
	} while (!done);
	free(scratch);
}

/* What worker u had moved (field 0: bytes, 1: I/Os) at time at, from its samples. */
static uint64_t moved_at(unsigned u, unsigned field, int64_t at, const struct fleet_worker *w)
{
	uint64_t total = field ? w->ios : w->bytes, v0 = 0, v;
	int64_t t0 = w->start_ns, t;
	size_t k;

	if (at <= w->start_ns)
		return 0;
	if (at >= w->end_ns)
		return total;
	for (k = 0; D.samples && k < D.nr_samples; k++) {
		const uint64_t *row = sample_row(k);

		t = (int64_t)row[0];
		v = row[1 + 2 * u + field];
		if (t <= t0 || t >= w->end_ns || v < v0)
			continue;
		if (t >= at)
			return v0 + (uint64_t)((double)(v - v0) * (double)(at - t0) / (double)(t - t0));
		t0 = t;
		v0 = v;
	}
	if (total < v0)
		return v0;
	return v0 + (uint64_t)((double)(total - v0) * (double)(at - t0) / (double)(w->end_ns - t0));
}

/*
 * Each job's window is the time every rank ran it: from the last rank's start to the first
 * rank's end. What a worker moved in it comes from its progress samples (linear between them).
 */
static void fleet_phase_leave(struct fleet_worker *w, unsigned nr, unsigned nr_jobs)
{
	int64_t *mine = NULL, *all = NULL, ws, we;
	int gsize, r, counts[2], *allcounts = NULL;
	MPI_Request req;
	unsigned u, j;

	if (!D.on || D.group == MPI_COMM_NULL)
		return;
	MPI_Comm_size(D.group, &gsize);
	mine = calloc(nr_jobs * 3 + 1, sizeof(*mine));
	all = calloc((size_t)gsize * (nr_jobs * 3 + 1), sizeof(*all));
	allcounts = calloc((size_t)gsize * 2 + 2, sizeof(*allcounts));
	if (!mine || !all || !allcounts) {
		iop_msgf("rank %d: out of memory", D.rank);
		MPI_Abort(MPI_COMM_WORLD, EXIT_JOB_FAILED);
	}
	counts[0] = (int)nr_jobs;
	counts[1] = 0;
	/* every rank has the same jobs in a phase; check before exchanging by that count */
	MPI_Iallgather(counts, 2, MPI_INT, allcounts, 2, MPI_INT, D.group, &req);
	if (wait_req(&req))
		goto out;
	for (r = 0; r < gsize; r++)
		if (allcounts[2 * r] != (int)nr_jobs || allcounts[2 * r + 1])
			goto out;
	for (j = 0; j < nr_jobs; j++) {
		mine[3 * j + 1] = INT64_MAX;
		mine[3 * j + 2] = INT64_MIN;
	}
	for (u = 0; u < nr; u++) {
		j = w[u].job;
		if (j >= nr_jobs || w[u].end_ns <= w[u].start_ns)
			continue;
		mine[3 * j] = 1;
		if (w[u].start_ns < mine[3 * j + 1])
			mine[3 * j + 1] = w[u].start_ns;
		if (w[u].end_ns > mine[3 * j + 2])
			mine[3 * j + 2] = w[u].end_ns;
	}
	if (nr_jobs) {
		MPI_Iallgather(mine, (int)nr_jobs * 3, MPI_INT64_T, all, (int)nr_jobs * 3,
			       MPI_INT64_T, D.group, &req);
		if (wait_req(&req))
			goto out;
	}
	for (u = 0; u < nr; u++) {
		j = w[u].job;
		if (j >= nr_jobs || w[u].end_ns <= w[u].start_ns)
			continue;
		ws = INT64_MIN;
		we = INT64_MAX;
		for (r = 0; r < gsize; r++) {
			const int64_t *e = all + (size_t)r * nr_jobs * 3 + 3 * j;

			if (!e[0])
				continue;
			ws = e[1] > ws ? e[1] : ws;
			we = e[2] < we ? e[2] : we;
		}
		if (ws == INT64_MIN || we <= ws)
			continue;
		w[u].window_start_ns = ws;
		w[u].window_end_ns = we;
		w[u].window_bytes = moved_at(u, 0, we, &w[u]) - moved_at(u, 0, ws, &w[u]);
		w[u].window_ios = moved_at(u, 1, we, &w[u]) - moved_at(u, 1, ws, &w[u]);
	}
out:
	free(mine);
	free(all);
	free(allcounts);
	free(D.samples);
	D.samples = NULL;
	D.nr_samples = 0;
	if (!D.broken)
		MPI_Comm_free(&D.group);
	D.group = MPI_COMM_NULL;
}

/* Rank 0: collect every rank's blob, point to point, giving up on silent ranks after a stop. */
static int gather_root(const struct fleet_blob *own, const struct output_opts *o, int argc,
		       char **argv, struct run_results *in_place, fleet_rank_fn fn, void *arg)
{
	struct fleet_rank *ranks = calloc((size_t)D.size, sizeof(*ranks));
	MPI_Request *req = calloc((size_t)D.size, sizeof(*req));
	uint64_t *lens = calloc((size_t)D.size, sizeof(*lens)), t0 = mono_ns();
	char **bufs = calloc((size_t)D.size, sizeof(*bufs));
	int *state = calloc((size_t)D.size, sizeof(*state));
	int r, left = D.size - 1, done, code;
	unsigned us = 20;

	if (!ranks || !req || !lens || !bufs || !state) {
		iop_msgf("rank 0: out of memory gathering results");
		MPI_Abort(MPI_COMM_WORLD, EXIT_JOB_FAILED);
	}
	for (r = 0; r < D.size; r++) {
		ranks[r].rank = (unsigned)r;
		snprintf(ranks[r].hostname, sizeof(ranks[r].hostname), "%s",
			 D.hosts + (size_t)r * HOST_MAX);
	}
	fleet_blob_unpack(own->data, own->len, &ranks[0]);
	for (r = 1; r < D.size; r++)
		MPI_Irecv(&lens[r], 1, MPI_UINT64_T, r, TAG_LEN, MPI_COMM_WORLD, &req[r]);
	while (left) {
		for (r = 1; r < D.size; r++) {
			if (state[r] == 2)
				continue;
			MPI_Test(&req[r], &done, MPI_STATUS_IGNORE);
			if (!done)
				continue;
			if (state[r] == 0) {
				bufs[r] = malloc(lens[r] ? lens[r] : 1);
				if (!bufs[r]) {
					iop_msgf("rank 0: out of memory for rank %d's result", r);
					MPI_Abort(MPI_COMM_WORLD, EXIT_JOB_FAILED);
				}
				MPI_Irecv(bufs[r], (int)lens[r], MPI_BYTE, r, TAG_BLOB, MPI_COMM_WORLD,
					  &req[r]);
				state[r] = 1;
				continue;
			}
			fleet_blob_unpack(bufs[r], lens[r], &ranks[r]);
			ranks[r].rank = (unsigned)r;
			state[r] = 2;
			left--;
		}
		if (!left)
			break;
		if ((run_stop_requested() || D.broken) && mono_ns() - t0 > grace_ns()) {
			for (r = 1; r < D.size; r++) {
				if (state[r] == 2)
					continue;
				MPI_Cancel(&req[r]);
				MPI_Request_free(&req[r]);
				ranks[r].missing = true;
				ranks[r].exit_code = EXIT_JOB_FAILED;
			}
			D.broken = true;
			break;
		}
		nap(us);
		if (us < 2000)
			us *= 2;
	}
	/* fn sees each rank's own results before the merge takes them over */
	code = 0;
	for (r = 0; fn && r < D.size && !code; r++)
		code = fn(arg, &ranks[r]);
	if (!code && in_place)
		code = fleet_merge_into(ranks, (unsigned)D.size, in_place) ? EXIT_JOB_FAILED : 0;
	else if (!code && writers)
		code = writers->merged(ranks, (unsigned)D.size, o, argc, argv);
	else if (!code)
		code = EXIT_JOB_FAILED;
	/* let the others go only now: one that aborts would take this rank with it */
	for (r = 1; r < D.size; r++) {
		if (ranks[r].missing)
			continue;
		MPI_Isend(&code, 1, MPI_INT, r, TAG_DONE, MPI_COMM_WORLD, &req[r]);
		wait_req(&req[r]);
	}
	for (r = 0; r < D.size; r++) {
		fleet_rank_free(&ranks[r]);
		free(bufs[r]);
	}
	free(ranks);
	free(req);
	free(lens);
	free(bufs);
	free(state);
	return code;
}

static int gather(const struct run_results *r, const struct fleet_rank_info *info,
		  const struct output_opts *o, int argc, char **argv, struct run_results *in_place,
		  fleet_rank_fn fn, void *arg)
{
	struct fleet_blob b = { 0 };
	MPI_Request req[2];
	uint64_t len;
	int code = info->exit_code;

	D.gathered = true;
	final_rounds();
	if (fleet_blob_pack(r, info, &b))
		iop_msgf("rank %d: out of memory packing its result", D.rank);
	if (D.rank == 0) {
		code = gather_root(&b, o, argc, argv, in_place, fn, arg);
	} else {
		len = b.len;
		MPI_Isend(&len, 1, MPI_UINT64_T, 0, TAG_LEN, MPI_COMM_WORLD, &req[0]);
		MPI_Isend(b.data, (int)len, MPI_BYTE, 0, TAG_BLOB, MPI_COMM_WORLD, &req[1]);
		if (wait_req(&req[0]) || wait_req(&req[1])) {
			/* rank 0 may still read it: leave the buffer to the exit */
			b.data = NULL;
		} else {
			int root_code;

			MPI_Irecv(&root_code, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, &req[0]);
			wait_req(&req[0]);
		}
	}
	fleet_blob_free(&b);
	return code;
}

int fleet_output(const struct run_results *r, int code, const struct output_opts *o, int argc,
		 char **argv)
{
	struct fleet_rank_info info = { 0 };
	struct iop_err err;
	char *probe;

	probe = fleet_probe_json(r);
	info.rank = (unsigned)D.rank;
	info.hostname = D.host;
	info.exit_code = code;
	info.probe_json = probe;
	if (D.args.rank_output && writers &&
	    writers->rank_file(r, D.args.rank_output, &info, argc, argv, &err))
		iop_msgf("rank %d: %s", D.rank, err.msg);
	code = gather(r, &info, o, argc, argv, NULL, NULL, NULL);
	free(probe);
	return code;
}

int fleet_gather_run(struct run_results *r, const char *note, fleet_rank_fn fn, void *arg)
{
	struct fleet_rank_info info = { 0 };

	if (!D.on)
		return fleet_gather_alone(r, fleet_hostname(), note, fn, arg);
	D.joined = true;
	info.rank = (unsigned)D.rank;
	info.hostname = D.host;
	info.exit_code = run_failed(r) ? EXIT_JOB_FAILED : 0;
	info.probe_json = note;
	return gather(r, &info, NULL, 0, NULL, r, fn, arg);
}

int fleet_merge_run(struct run_results *r)
{
	return D.on ? fleet_gather_run(r, NULL, NULL, NULL) : 0;
}

int fleet_exit(int code)
{
	int c;

	if (!D.on)
		return code;
	if (D.joined && !D.gathered) {
		struct fleet_rank_info info = { 0 };
		char why[96];

		if (code)
			snprintf(why, sizeof(why), "exited with code %d before reporting its results",
				 code);
		else
			snprintf(why, sizeof(why), "this command does not merge its results across ranks");
		info.rank = (unsigned)D.rank;
		info.hostname = D.host;
		info.exit_code = code ? code : EXIT_JOB_FAILED;
		info.error = D.error[0] ? D.error : why;
		if (D.args.rank_output) {
			struct iop_err err;

			if (writers && writers->rank_file(NULL, D.args.rank_output, &info, 0, NULL, &err))
				iop_msgf("rank %d: %s", D.rank, err.msg);
		}
		c = gather(NULL, &info, NULL, 0, NULL, NULL, NULL, NULL);
		if (D.rank == 0)
			code = c;
	}
	fflush(stdout);
	fflush(stderr);
	if (D.broken)
		MPI_Abort(MPI_COMM_WORLD, code ? code : EXIT_INTERRUPTED);
	MPI_Finalize();
	free(D.hosts);
	return code;
}

/* The runner's phases under MPI (run/phase.h): installed when this rank joins. */
static const struct run_phase_ops mpi_phase_ops = {
	.enter = fleet_phase_enter,
	.start = fleet_phase_start,
	.watch = fleet_phase_watch,
	.leave = fleet_phase_leave,
	.layout_turn = fleet_layout_turn,
};

static void install_phase_ops(void)
{
	run_set_phase_ops(&mpi_phase_ops);
}
