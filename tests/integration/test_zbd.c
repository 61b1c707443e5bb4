/*
 * Integration: zonemode=zbd on targets that are not zoned devices (zones emulated in memory,
 * fio's ZBD_NONE model). Offsets come from per-I/O latency logs with log_offset=1; byte and
 * I/O counts are also compared with fio 3.33 where it is installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"


TestSuite(zbd, .fini = tmpdir_cleanup);

#define MAX_IOS 4096

struct io_rec {
	unsigned dir;
	unsigned long long off, len;
};

/* The I/Os of a latency log with log_offset=1 ("msec, nsec, ddir, bs, offset"), in order. */
static unsigned read_log(const char *path, struct io_rec *ios)
{
	FILE *f = fopen(path, "r");
	unsigned long long t, v;
	unsigned n = 0;

	cr_assert_not_null(f, "no log %s", path);
	while (n < MAX_IOS && fscanf(f, "%llu, %llu, %u, %llu, %llu%*[^\n]", &t, &v, &ios[n].dir,
				     &ios[n].len, &ios[n].off) == 5)
		n++;
	fclose(f);
	return n;
}

#define ZS (64u << 10)
#define NZ 16u

/*
 * Every write lands at its zone's write pointer (a full zone starts again at its start, a
 * reset), and no more than max zones are written at once: a zone is open from its first
 * write until it is full.
 */
static void check_writes(const struct io_rec *ios, unsigned n, unsigned max, unsigned *resets)
{
	unsigned long long wp[NZ];
	unsigned i, z, open, most = 0;

	for (z = 0; z < NZ; z++)
		wp[z] = 0;
	*resets = 0;
	for (i = 0; i < n; i++) {
		if (ios[i].dir != 1)
			continue;
		z = (unsigned)(ios[i].off / ZS);
		cr_assert_lt(z, NZ);
		if (wp[z] == ZS) {
			wp[z] = 0;
			(*resets)++;
		}
		cr_assert_eq(ios[i].off - z * ZS, wp[z], "write %u at %llu: zone %u's pointer is at %llu",
			     i, ios[i].off, z, z * ZS + wp[z]);
		wp[z] += ios[i].len;
		for (open = 0, z = 0; z < NZ; z++)
			open += wp[z] && wp[z] < ZS;
		if (open > most)
			most = open;
	}
	if (max)
		cr_expect_leq(most, max, "%u zones open at once, max_open_zones=%u", most, max);
}

Test(zbd, random_writes_go_to_write_pointers_of_at_most_max_open_zones)
{
	const char *dir = tmpdir_make();
	char log[300], path[320];
	const char *args[] = { "--name=w", "--ioengine=null", "--size=1m", "--zonemode=zbd",
			       "--zonesize=64k", "--bs=4k", "--rw=randwrite", "--max_open_zones=3",
			       "--loops=2", log, "--log_offset=1", NULL };
	static struct io_rec ios[MAX_IOS];
	unsigned n, resets;
	json_t *root;

	snprintf(log, sizeof(log), "--write_lat_log=%s/z", dir);
	root = tool_json(false, args);
	cr_expect_eq(job_int(root, 0, "write", "io_bytes"), 2 << 20);
	json_decref(root);
	snprintf(path, sizeof(path), "%s/z_lat.1.log", dir);
	n = read_log(path, ios);
	cr_assert_eq(n, 512);
	check_writes(ios, n, 3, &resets);
	/* the second loop can only write by resetting full zones */
	cr_expect_geq(resets, NZ / 2);
}

Test(zbd, without_a_limit_each_random_write_goes_to_its_own_zone)
{
	const char *dir = tmpdir_make();
	char log[300], path[320];
	const char *args[] = { "--name=w", "--ioengine=null", "--size=1m", "--zonemode=zbd",
			       "--zonesize=64k", "--bs=4k", "--rw=randwrite", log,
			       "--log_offset=1", NULL };
	static struct io_rec ios[MAX_IOS];
	unsigned n, resets, z, seen = 0;

	snprintf(log, sizeof(log), "--write_lat_log=%s/z", dir);
	json_decref(tool_json(false, args));
	snprintf(path, sizeof(path), "%s/z_lat.1.log", dir);
	n = read_log(path, ios);
	cr_assert_eq(n, 256);
	check_writes(ios, n, 0, &resets);
	for (z = 0; z < NZ; z++) {
		unsigned i;

		for (i = 0; i < 8 && ios[i].off / ZS != z; i++)
			;
		seen += i < 8;
	}
	/* random zones from the start, not one zone after the other */
	cr_expect_gt(seen, 3);
}

/* Reads go only where writes have been, unless read_beyond_wp=1. */
Test(zbd, reads_stop_at_the_write_pointer)
{
	const char *args[] = { "--ioengine=null", "--filename=zbdtest", "--size=256k",
			       "--zonemode=zbd", "--zonesize=64k", "--bs=4k",
			       "--name=w", "--rw=write", "--number_ios=5",
			       "--name=r", "--stonewall", "--rw=read",
			       "--name=rr", "--stonewall", "--rw=randread",
			       "--name=b", "--stonewall", "--rw=read", "--read_beyond_wp=1", NULL };
	json_t *root = tool_json(false, args);

	cr_expect_eq(job_int(root, 0, "write", "io_bytes"), 5 * 4096);
	cr_expect_eq(job_int(root, 1, "read", "io_bytes"), 5 * 4096);
	/* random reads move their size, all of it below the write pointer */
	cr_expect_eq(job_int(root, 2, "read", "io_bytes"), 256 << 10);
	cr_expect_eq(job_int(root, 3, "read", "io_bytes"), 256 << 10);
	json_decref(root);
}

/* Emulated zones start empty: a read job on a file alone reads nothing, as fio. */
Test(zbd, a_file_starts_with_empty_zones)
{
	const char *dir = tmpdir_make();
	char file[300], data[300];
	const char *args[] = { "--name=r", file, "--zonemode=zbd", "--zonesize=64k", "--bs=4k",
			       "--rw=read", NULL };
	json_t *root;

	snprintf(data, sizeof(data), "%s/d", dir);
	snprintf(file, sizeof(file), "--filename=%s", data);
	file_make(data, 256 << 10, 3);
	root = tool_json(false, args);
	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), 0);
	json_decref(root);
}

/* Random writes to a file, then fio's verify pass over what they wrote: every block checks. */
Test(zbd, random_writes_verify_on_a_file)
{
	const char *dir = tmpdir_make();
	char file[300], data[300];
	const char *args[] = { "--name=v", file, "--allow-overwrite", "--zonemode=zbd",
			       "--zonesize=64k", "--bs=4k", "--rw=randwrite", "--max_open_zones=2",
			       "--verify=crc32c", NULL };
	json_t *root, *job;

	snprintf(data, sizeof(data), "%s/d", dir);
	snprintf(file, sizeof(file), "--filename=%s", data);
	file_make(data, 512 << 10, 5);
	root = tool_json(false, args);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	cr_expect_eq(job_int(root, 0, "write", "io_bytes"), 512 << 10);
	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), 512 << 10);
	cr_expect_eq(json_integer_value(json_object_get(job, "error")), 0);
	json_decref(root);
}

Test(zbd, refusals_name_the_reason)
{
	const char *dir = tmpdir_make();
	char file[300];
	struct run_out r;

	snprintf(file, sizeof(file), "--filename=%s/missing", dir);
	iopath_refuses("needs zonesize=", "--name=x", "--ioengine=null", "--size=1m",
		       "--zonemode=zbd", NULL);
	iopath_refuses("smaller than zonesize", "--name=x", file, "--size=1m", "--zonemode=zbd",
		       "--zonesize=64k", "--rw=write", NULL);
	iopath_refuses("global open zones limit", "--parse-only", "--name=x", "--zonemode=zbd",
		       "--zonesize=64k", "--job_max_open_zones=2", NULL);
	iopath_refuses("zoneskip with zonemode=zbd is not supported by iopath", "--parse-only",
		       "--name=x", "--zonemode=zbd", "--zonesize=64k", "--zoneskip=64k", NULL);
	/* trims would move write pointers as writes do; fio's zone trims are not ported */
	iopath_refuses("rw=randtrim with zonemode=zbd is not supported by iopath", "--parse-only",
		       "--name=x", "--zonemode=zbd", "--zonesize=64k", "--rw=randtrim", NULL);
	r = iopath_run("--parse-only", "--name=x", "--zonemode=zbd", "--zonesize=64k",
		       "--zone_reset_threshold=2", NULL);
	cr_expect_eq(r.status, 2);
	run_out_free(&r);
}

/* Jobs sharing a file share its zones: a second job cannot give them another capacity. */
Test(zbd, jobs_sharing_a_file_agree_on_zone_capacity)
{
	const char *file = tmp_str("--filename=%s/z", tmpdir_make());
	struct run_out r = iopath_run("--name=prep", file, "--size=4m", "--rw=write", "--bs=1m", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	iopath_refuses("zonecapacity 1048576 does not match the capacity 524288", "--zonemode=zbd",
		       "--zonesize=1m", "--rw=write", "--bs=64k", file, "--name=a",
		       "--zonecapacity=512k", "--name=b", NULL);
}

/* The same jobs through fio 3.33: the same bytes and I/Os per job and direction. */
Test(zbd, side_by_side_with_fio)
{
	static const char *const cases[][24] = {
		{ "--name=w", "--ioengine=null", "--size=1536k", "--offset=512k", "--zonemode=zbd",
		  "--zonesize=1m", "--rw=randwrite", "--bs=64k", NULL },
		{ "--ioengine=null", "--filename=zbdside", "--size=1m", "--zonemode=zbd",
		  "--zonesize=1m", "--bs=64k", "--name=a", "--rw=write", "--number_ios=4",
		  "--name=b", "--stonewall", "--rw=write", "--name=c", "--stonewall", "--rw=read",
		  "--name=d", "--stonewall", "--rw=randread", NULL },
		{ "--name=c", "--ioengine=null", "--size=4m", "--zonemode=zbd", "--zonesize=1m",
		  "--zonecapacity=768k", "--bs=64k", "--rw=write", NULL },
		{ "--name=m", "--ioengine=null", "--size=4m", "--zonemode=zbd", "--zonesize=256k",
		  "--bs=64k", "--rw=randwrite", "--numjobs=4", "--max_open_zones=3",
		  "--group_reporting", NULL },
	};
	static const char *const dirs[] = { "read", "write" };
	unsigned c, k, d;

	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_t *f = tool_json(true, cases[c]), *i = tool_json(false, cases[c]);

		for (k = 0; k < json_array_size(json_object_get(i, "jobs")); k++)
			for (d = 0; d < 2; d++) {
				cr_expect_eq(job_int(i, k, dirs[d], "io_bytes"),
					     job_int(f, k, dirs[d], "io_bytes"),
					     "case %u job %u %s bytes", c, k, dirs[d]);
				cr_expect_eq(job_int(i, k, dirs[d], "total_ios"),
					     job_int(f, k, dirs[d], "total_ios"),
					     "case %u job %u %s ios", c, k, dirs[d]);
			}
		json_decref(f);
		json_decref(i);
	}
}
