/* Unit tests: fio's log entries per I/O and per window, and its file names. */
#include <criterion/criterion.h>
#include <string.h>

#include "io/iolog.h"
#include "job/options.h"

static struct job_spec job;

static void setup(void)
{
	job_defaults(&job);
	snprintf(job.name, sizeof(job.name), "j");
	job.log.bw_set = job.log.iops_set = job.log.lat_set = true;
}

TestSuite(iolog, .init = setup);

Test(iolog, names_follow_fio)
{
	char p[64];

	cr_assert_eq(iolog_path(&job, 3, LOG_CLAT, p, sizeof(p)), 0);
	cr_assert_str_eq(p, "j_clat.3.log");
	snprintf(job.log.bw, sizeof(job.log.bw), "foo");
	cr_assert_eq(iolog_path(&job, 1, LOG_BW, p, sizeof(p)), 0);
	cr_assert_str_eq(p, "foo_bw.1.log");
	job.log.per_job = false;
	cr_assert_eq(iolog_path(&job, 7, LOG_BW, p, sizeof(p)), 0);
	cr_assert_str_eq(p, "foo_bw.log");
}

Test(iolog, an_entry_per_io_with_fio_values)
{
	struct iologs L;

	iologs_init(&L, &job, 1000000000ull, 0);
	/* completed 2.5 ms after the start: 4096 bytes, slat 100 ns, clat 4000 ns */
	iologs_io(&L, 1002500000ull, 1, 4096, 8192, 4096, 100, 4000, true, 0, 0, 0);
	cr_assert_eq(L.log[LOG_CLAT].nr, 1);
	cr_assert_eq(L.log[LOG_CLAT].e[0].ms, 2);
	cr_assert_eq(L.log[LOG_CLAT].e[0].val, 4000);
	cr_assert_eq(L.log[LOG_LAT].e[0].val, 4100);
	cr_assert_eq(L.log[LOG_SLAT].e[0].val, 100);
	cr_assert_eq(L.log[LOG_IOPS].e[0].val, 1);
	/* fio's per-I/O bandwidth: bytes * 10^6 / clat */
	cr_assert_eq(L.log[LOG_BW].e[0].val, 4096ull * 1000000 / 4000);
	cr_assert_eq(L.log[LOG_BW].e[0].ddir, 1);
	cr_assert_eq(L.log[LOG_BW].e[0].offset, 8192);
	iologs_free(&L);
}

Test(iolog, windows_average_and_round)
{
	struct iologs L;
	uint64_t ms = 1000000;

	job.log.avg_msec = 10;
	iologs_init(&L, &job, 0, 0);
	iologs_io(&L, 1 * ms, 0, 4096, 0, 4096, 0, 100, false, 0, 0, 0);
	iologs_io(&L, 5 * ms, 0, 4096, 0, 4096, 0, 201, false, 0, 0, 0);
	cr_assert_eq(L.log[LOG_CLAT].nr, 0);
	iologs_io(&L, 10 * ms, 0, 4096, 0, 4096, 0, 300, false, 0, 0, 0);
	cr_assert_eq(L.log[LOG_CLAT].nr, 1);
	/* (100 + 201 + 300) / 3 = 200.33 -> 200; no block size or offset in windowed logs */
	cr_assert_eq(L.log[LOG_CLAT].e[0].val, 200);
	cr_assert_eq(L.log[LOG_CLAT].e[0].bs, 0);
	/* three 4 KiB I/Os in 10 ms: 1200 KiB/s, 300 IOPS */
	cr_assert_eq(L.log[LOG_BW].e[0].val, 3 * 4096 * 1000 / 10 / 1024);
	cr_assert_eq(L.log[LOG_IOPS].e[0].val, 300);
	iologs_free(&L);
}

Test(iolog, max_value_keeps_the_largest)
{
	struct iologs L;
	uint64_t ms = 1000000;

	job.log.avg_msec = 10;
	job.log.max_value = true;
	iologs_init(&L, &job, 0, 0);
	iologs_io(&L, 1 * ms, 0, 4096, 0, 4096, 0, 100, false, 0, 0, 0);
	iologs_io(&L, 12 * ms, 0, 4096, 0, 4096, 0, 900, false, 0, 0, 0);
	cr_assert_eq(L.log[LOG_CLAT].e[0].val, 900);
	iologs_free(&L);
}
