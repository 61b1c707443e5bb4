/* Unit tests: fio's workload options (block sizes, files, offsets) as the option table reads them. */
#include <criterion/criterion.h>
#include <string.h>

#include "job/job.h"
#include "job/options.h"
#include "run/worker.h"
#include "unit/jobtext.h"

static const struct job_spec *job0(void)
{
	return &jobs.jobs[0];
}

TestSuite(workopts, .init = setup, .fini = teardown);

Test(workopts, bssplit_fills_blank_shares_and_sorts_smallest_first)
{
	/* fio 3.33 sorts the entries by share, smallest first, equal shares as given */
	cr_assert_eq(parse("[a]\nbssplit=4k/50:1k/:32k/\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->nr_bssplit[0], 3);
	cr_assert_eq(job0()->bssplit[0][0].bs, 1024);
	cr_assert_eq(job0()->bssplit[0][0].perc, 25);
	cr_assert_eq(job0()->bssplit[0][1].bs, 32768);
	cr_assert_eq(job0()->bssplit[0][1].perc, 25);
	cr_assert_eq(job0()->bssplit[0][2].bs, 4096);
	cr_assert_eq(job0()->bssplit[0][2].perc, 50);
	cr_assert_eq(job0()->bs[0], 1024);
	cr_assert_eq(job0()->bs_max[0], 32768);
	cr_assert_eq(job0()->nr_bssplit[1], 3);
}

Test(workopts, bssplit_per_direction)
{
	cr_assert_eq(parse("[a]\nbssplit=2k/50:4k/50,4k/90:8k/10\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->bs[0], 2048);
	cr_assert_eq(job0()->bs_max[0], 4096);
	cr_assert_eq(job0()->bs[1], 4096);
	cr_assert_eq(job0()->bs_max[1], 8192);
	cr_assert_eq(job0()->bssplit[1][0].perc, 10);
	cr_assert_eq(job0()->bssplit[1][1].perc, 90);
}

Test(workopts, bssplit_over_100_percent_is_refused)
{
	cr_assert_neq(parse("[a]\nbssplit=4k/60:8k/50\n"), 0);
	cr_assert_not_null(strstr(err.msg, "more than 100"), "%s", err.msg);
}

Test(workopts, bssplit_wins_over_bs_in_either_order)
{
	cr_assert_eq(parse("[a]\nbssplit=8k/50:16k/50\nbs=4k\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->bs[0], 8192);
	cr_assert_eq(job0()->bs_max[0], 16384);
}

Test(workopts, bsrange_takes_dash_or_colon)
{
	cr_assert_eq(parse("[a]\nbsrange=4k-64k\n[b]\nbsrange=1k:4k,2k:8k\n"), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].bs[0], 4096);
	cr_assert_eq(jobs.jobs[0].bs_max[1], 65536);
	cr_assert_eq(jobs.jobs[1].bs[0], 1024);
	cr_assert_eq(jobs.jobs[1].bs_max[0], 4096);
	cr_assert_eq(jobs.jobs[1].bs[1], 2048);
	cr_assert_eq(jobs.jobs[1].bs_max[1], 8192);
}

Test(workopts, bsrange_rejects_garbage_naming_the_form)
{
	cr_assert_neq(parse("[a]\nbsrange=4k-lots\n"), 0);
	cr_assert_not_null(strstr(err.msg, "low-high"), "%s", err.msg);
}

Test(workopts, blockalign_turns_off_the_random_map)
{
	cr_assert_eq(parse("[a]\nba=512\n[b]\nba=4k\n"), 0, "%s", err.msg);
	cr_assert(jobs.jobs[0].norandommap);
	cr_assert(!jobs.jobs[1].norandommap);
}

Test(workopts, filesize_range)
{
	cr_assert_eq(parse("[a]\nfilesize=1m-4m\n[b]\nfilesize=2m\n"), 0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].filesize_range[0], 1 << 20);
	cr_assert_eq(jobs.jobs[0].filesize_range[1], 4 << 20);
	cr_assert_eq(jobs.jobs[1].filesize_range[0], jobs.jobs[1].filesize_range[1]);
}

Test(workopts, file_service_type_forms)
{
	cr_assert_eq(parse("[a]\nfile_service_type=random:8\n[b]\nfile_service_type=zipf\n"
			   "[c]\nfile_service_type=pareto:0.3\n[d]\nfile_service_type=gauss\n"), 0,
		     "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].file_service, FSVC_RANDOM);
	cr_assert_eq(jobs.jobs[0].file_service_nr, 8);
	cr_assert_eq(jobs.jobs[1].file_service, FSVC_ZIPF);
	cr_assert_float_eq(jobs.jobs[1].file_service_arg, 1.1, 1e-9);
	cr_assert_float_eq(jobs.jobs[2].file_service_arg, 0.3, 1e-9);
	cr_assert_eq(jobs.jobs[3].file_service, FSVC_NORMAL);
}

Test(workopts, file_service_type_rejects_bad_values)
{
	cr_assert_neq(parse("[a]\nfile_service_type=zipf:1\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\nfile_service_type=pareto:1.5\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\nfile_service_type=lottery\n"), 0);
	cr_assert_not_null(strstr(err.msg, "roundrobin"), "%s", err.msg);
}

Test(workopts, fallocate_defaults_to_native_and_takes_fio_aliases)
{
	cr_assert_eq(parse("[a]\n[b]\nfallocate=0\n[c]\nfallocate=1\n[d]\nfallocate=keep\n"), 0,
		     "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].fallocate, FALLOC_NATIVE);
	cr_assert_eq(jobs.jobs[1].fallocate, FALLOC_NONE);
	cr_assert_eq(jobs.jobs[2].fallocate, FALLOC_POSIX);
	cr_assert_eq(jobs.jobs[3].fallocate, FALLOC_KEEP);
}

Test(workopts, nrfiles_is_bounded)
{
	cr_assert_eq(parse("[a]\nnr_files=8\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->nrfiles, 8);
	setup();
	cr_assert_eq(parse("[a]\nnrfiles=100000\n"), 0, "%s", err.msg);
	setup();
	cr_assert_neq(parse("[a]\nnrfiles=1000001\n"), 0);
	cr_assert(strstr(err.msg, "nrfiles=1000001"), "%s", err.msg);
	setup();
	cr_assert_neq(parse("[a]\nnrfiles=1000000\nnumjobs=11\n"), 0);
	cr_assert(strstr(err.msg, "numjobs=11"), "%s", err.msg);
}

Test(workopts, verify_refuses_unaligned_block_sizes)
{
	cr_assert_neq(parse("[a]\nrw=write\nverify=crc32c\nbsrange=1k-8k\nbs_unaligned\n"), 0);
}

/* fio 3.33 measured: size=1m, the bytes one worker moves for io_size and loops */
Test(io_size, loops_and_io_size_count_as_fio_does)
{
	const uint64_t m = 1 << 20;

	cr_assert_eq(io_target(m, 0, 2), 2 * m);
	cr_assert_eq(io_target(m, m / 2, 3), 3 * m / 2);
	cr_assert_eq(io_target(m, 5 * m / 2, 1), 5 * m / 2);
	cr_assert_eq(io_target(m, 5 * m / 2, 2), 3 * m);
	cr_assert_eq(io_target(m, 3 * m, 2), 3 * m);
	cr_assert_eq(io_target(m, 5 * m, 3), 5 * m);
	cr_assert_eq(io_target(m, 3 * m / 2, 3), 3 * m);
}

/* size * loops beyond 2^64 is no target at all (it wrapped to nothing): the job runs to its runtime */
Test(io_size, a_target_beyond_64_bits_saturates)
{
	const uint64_t p = 1ull << 50;

	cr_assert_eq(io_target(4 * p, 0, 8192), UINT64_MAX);
	cr_assert_eq(io_target(4 * p, 2 * p, 8192), UINT64_MAX);
	cr_assert_eq(io_target(4 * p, 0, 4), 16 * p);
}

Test(workopts, random_distribution_forms)
{
	cr_assert_eq(parse("[a]\nrandom_distribution=zipf\n[b]\nrandom_distribution=zipf:1.2:0.25\n"
			   "[c]\nrandom_distribution=pareto:0.3\n[d]\nrandom_distribution=normal:5\n"),
		     0, "%s", err.msg);
	cr_assert_eq(jobs.jobs[0].random_distribution, DIST_ZIPF);
	cr_assert_float_eq(jobs.jobs[0].dist_arg, 1.1, 1e-9);
	cr_assert_float_eq(jobs.jobs[0].dist_center, -1.0, 1e-9);
	cr_assert_float_eq(jobs.jobs[1].dist_center, 0.25, 1e-9);
	cr_assert_eq(jobs.jobs[2].random_distribution, DIST_PARETO);
	cr_assert_float_eq(jobs.jobs[3].dist_arg, 5.0, 1e-9);
	/* fio: a non-uniform distribution turns the random map off */
	cr_assert(jobs.jobs[0].norandommap);
}

Test(workopts, random_distribution_refuses_fio_refusals)
{
	cr_assert_neq(parse("[a]\nrandom_distribution=zipf:1.0\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\nrandom_distribution=pareto:1.5\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\nrandom_distribution=zipf:1.2:2\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\nrandom_distribution=lognormal\n"), 0);
	cr_assert_not_null(strstr(err.msg, "zoned_abs"), "%s", err.msg);
}

Test(workopts, zoned_fills_blanks_and_needs_100_percent_of_access)
{
	cr_assert_eq(parse("[a]\nrandom_distribution=zoned:60/10:30/20:10/\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->nr_zones[0], 3);
	cr_assert_eq(job0()->zones[0][2].size_perc, 70);
	cr_assert_eq(job0()->zones[1][0].access, 60);
	setup();
	cr_assert_neq(parse("[a]\nrandom_distribution=zoned:60/10:30/20\n"), 0);
	cr_assert_not_null(strstr(err.msg, "not 100"), "%s", err.msg);
}

Test(workopts, zoned_abs_takes_sizes_per_direction)
{
	cr_assert_eq(parse("[a]\nrandom_distribution=zoned_abs:60/20g:40/100g,100/1m\n"), 0,
		     "%s", err.msg);
	cr_assert_eq(job0()->zones[0][1].size, 100ull << 30);
	cr_assert_eq(job0()->nr_zones[1], 1);
	cr_assert_eq(job0()->zones[1][0].size, 1 << 20);
}

static void check_pattern(const char *opt, const unsigned char *want, unsigned len)
{
	char text[200];

	snprintf(text, sizeof(text), "[a]\nbuffer_pattern=%s\n", opt);
	setup();
	cr_assert_eq(parse(text), 0, "%s: %s", opt, err.msg);
	cr_assert_eq(job0()->buf.pattern_len, len, "%s: %u bytes", opt,
		     job0()->buf.pattern_len);
	cr_assert_arr_eq(job0()->buf.pattern, want, len, "%s", opt);
	job_list_free(&jobs);
}

/* the examples of fio's lib/pattern.c */
Test(workopts, buffer_pattern_fio_syntax)
{
	check_pattern("0xdeadbeef", (const unsigned char *)"\xde\xad\xbe\xef", 4);
	check_pattern("\"abcd\"", (const unsigned char *)"abcd", 4);
	check_pattern("-1024", (const unsigned char *)"\x00\xfc\xff\xff", 4);
	check_pattern("66", (const unsigned char *)"\x42", 1);
	check_pattern("0xFF0X1", (const unsigned char *)"\xff\x01", 2);
	check_pattern("\"123\"0xFFeeCC", (const unsigned char *)"123\xff\xee\xcc", 6);
	check_pattern("0xabc", (const unsigned char *)"\x0a\xbc", 2);
	/* fio's t0028: a number ends where 0x begins */
	check_pattern("\"abcd\"-120xdeadface", (const unsigned char *)"abcd\xf4\xff\xff\xff\xde\xad\xfa\xce", 12);
	check_pattern("100x5", (const unsigned char *)"\x0a\x05", 2);
}

/* fio's lib/pattern.c examples #7 and #9: %o reserves 8 bytes; buffer_pattern has no %o */
Test(workopts, verify_pattern_offset_formats_reserve_eight_bytes)
{
	cr_assert_eq(parse("[a]\nverify=pattern\nverify_pattern=-100xab\"1\"%o\"2\"\n"), 0, "%s",
		     err.msg);
	cr_assert_eq(job0()->verify.pattern_len, 15);
	cr_assert_eq(job0()->verify.fmt_nr, 1);
	cr_assert_eq(job0()->verify.fmt_off[0], 6);
	cr_assert_arr_eq(job0()->verify.pattern, "\xf6\xff\xff\xff\xab\x31\0\0\0\0\0\0\0\0\x32", 15);
	job_list_free(&jobs);
	setup();
	cr_assert_eq(parse("[a]\nverify=pattern\nverify_pattern=%o0xdeadbeef%o\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->verify.pattern_len, 20);
	cr_assert_eq(job0()->verify.fmt_nr, 2);
	cr_assert_eq(job0()->verify.fmt_off[1], 12);
	job_list_free(&jobs);
	setup();
	cr_assert_neq(parse("[a]\nbuffer_pattern=%o\n"), 0);
	job_list_free(&jobs);
	setup();
	cr_assert_neq(parse("[a]\nverify=pattern\nverify_pattern=%o%o%o%o%o%o%o%o%o\n"), 0);
}

Test(workopts, buffer_pattern_turns_scramble_off_and_refills_for_readers)
{
	cr_assert_eq(parse("[a]\nrw=randrw\nbuffer_pattern=0x55\n[b]\nrw=write\nbuffer_pattern=0x55\n"),
		     0, "%s", err.msg);
	cr_assert(!jobs.jobs[0].buf.scramble);
	cr_assert(jobs.jobs[0].buf.refill);
	cr_assert(!jobs.jobs[1].buf.refill);
}

Test(workopts, buffer_pattern_rejects_unterminated_string)
{
	cr_assert_neq(parse("[a]\nbuffer_pattern=\"abc\n"), 0);
}

Test(workopts, dedupe_and_compression_turn_refill_on)
{
	cr_assert_eq(parse("[a]\ndedupe_percentage=30\n[b]\nbuffer_compress_percentage=50\n[c]\n"),
		     0, "%s", err.msg);
	cr_assert(jobs.jobs[0].buf.refill);
	cr_assert(jobs.jobs[1].buf.refill);
	cr_assert(!jobs.jobs[2].buf.refill);
	cr_assert(jobs.jobs[2].buf.scramble);
}

Test(workopts, rate_per_direction)
{
	cr_assert_eq(parse("[a]\nrate=1m,500k\n[b]\nrate=,500k\n[c]\nrate_iops=100\n"), 0, "%s",
		     err.msg);
	cr_assert_eq(jobs.jobs[0].rate.bps[0], 1 << 20);
	cr_assert_eq(jobs.jobs[0].rate.bps[1], 500 << 10);
	cr_assert_eq(jobs.jobs[1].rate.bps[0], 0);
	cr_assert_eq(jobs.jobs[1].rate.bps[1], 500 << 10);
	cr_assert_eq(jobs.jobs[2].rate.iops[0], 100);
	cr_assert_eq(jobs.jobs[2].rate.iops[1], 100);
}

Test(workopts, rate_min_above_rate_is_refused)
{
	cr_assert_neq(parse("[a]\nrate=1m\nrate_min=2m\n"), 0);
	cr_assert_not_null(strstr(err.msg, "rate_min"), "%s", err.msg);
}

Test(workopts, thinktime_is_in_microseconds)
{
	cr_assert_eq(parse("[a]\nthinktime=100\nthinktime_spin=2ms\nthinktime_iotime=2\n"
			   "thinktime_blocks_type=issue\nrate_process=poisson\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->think.ns, 100000);
	cr_assert_eq(job0()->think.spin_ns, 2000000);
	cr_assert_eq(job0()->think.iotime_ns, 2000000000ull);
	cr_assert(job0()->think.issue);
	cr_assert(job0()->rate.poisson);
	cr_assert_eq(job0()->think.blocks, 1);
	cr_assert(!job0()->think.blocks_given);
}

Test(workopts, percentile_list_is_sorted_and_bounded)
{
	cr_assert_eq(parse("[a]\npercentile_list=99.9:50:99\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->nr_percentiles, 3);
	cr_assert_float_eq(job0()->percentiles[0], 50.0, 1e-9);
	cr_assert_float_eq(job0()->percentiles[2], 99.9, 1e-9);
	cr_assert(job0()->clat_percentiles);
	cr_assert(!job0()->lat_percentiles);
	setup();
	cr_assert_neq(parse("[a]\npercentile_list=0:50\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\npercentile_list=50:101\n"), 0);
	setup();
	cr_assert_neq(parse("[a]\npercentile_list=1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21\n"),
		      0);
}

Test(workopts, offset_increment_takes_a_percentage)
{
	cr_assert_eq(parse("[a]\noffset_increment=25%\n[b]\noffset_increment=1m\n"), 0, "%s",
		     err.msg);
	cr_assert_eq(jobs.jobs[0].sizes.offset_increment_pct, 25);
	cr_assert_eq(jobs.jobs[0].sizes.offset_increment, 0);
	cr_assert_eq(jobs.jobs[1].sizes.offset_increment, 1 << 20);
}

/* fio's zone suffix: Nz counts zones of zonesize=, given before or after it. */
Test(workopts, z_suffix_counts_zones)
{
	cr_assert_eq(parse("[a]\nzonemode=strided\nsize=4z\noffset=1z\nio_size=2z\nzonesize=1m\nzonerange=2m\nzoneskip=1z\noffset_increment=3z\n"),
		     0, "%s", err.msg);
	cr_assert_eq(job0()->sizes.size, 4ull << 20);
	cr_assert_eq(job0()->sizes.offset, 1ull << 20);
	cr_assert_eq(job0()->sizes.io_size, 2ull << 20);
	cr_assert_eq(job0()->zone.skip, 1ull << 20);
	cr_assert_eq(job0()->sizes.offset_increment, 3ull << 20);
	setup();
	/* bytes given later replace zones given earlier */
	cr_assert_eq(parse("[global]\nsize=4z\nzonemode=strided\nzonesize=1m\n[a]\nsize=64k\n"), 0, "%s", err.msg);
	cr_assert_eq(job0()->sizes.size, 65536);
	setup();
	cr_assert_neq(parse("[a]\nsize=4z\n"), 0);
	cr_assert_not_null(strstr(err.msg, "give zonesize="), "%s", err.msg);
}
