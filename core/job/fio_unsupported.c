/*
 * The one table of what fio has and iopath does not: fio's job options, the options of fio's
 * engines, and fio's engines. The parser refuses each by name ("fio option X is not supported
 * by iopath"), or only warns under --ignore-unsupported, so that nobody believes a setting took
 * effect when it did not.
 *
 * Built from fio 3.33: every name (and alias) of `fio --cmdhelp=all` that iopath's option table
 * does not have, every option of `fio --enghelp=ENGINE` for each engine, and the engine options
 * of HOWTO's "I/O engine specific parameters" for engines Debian's fio is built without.
 * tests/unit/test_options.c (fio_unsupported/lists_nothing_iopath_implements) checks that no
 * name listed here is one iopath implements.
 *
 * To implement one of these: add it to opt_table[] (core/job/opt_table.c) and delete its line here.
 */
#include <string.h>

#include "job/fio_unsupported.h"

#define JOB_OPT(n, d, h) { n, FIO_JOB_OPTION, d, h }
#define ENGINE_OPT(n, e) { n, FIO_ENGINE_OPTION, NULL, e }
#define ENGINE(n) { n, FIO_ENGINE, NULL, NULL }
#define PROFILE_OPT(n, p) { n, FIO_PROFILE_OPTION, NULL, p }
#define DEPRECATED_OPT(n, soft) { n, FIO_DEPRECATED, (soft) ? "soft" : NULL, NULL }

const struct fio_unsupported fio_unsupported_table[] = {
	/* fio 3.33's deprecated options: FIO_OPT_SOFT_DEPRECATED ones it accepts, saying so
	 * ("Option X is deprecated"), and ignores; FIO_OPT_DEPRECATED ones it refuses */
	DEPRECATED_OPT("verifysort", true),
	DEPRECATED_OPT("verifysort_nr", true),
	DEPRECATED_OPT("flow_watermark", true),
	DEPRECATED_OPT("percentage_sequential", false),
	DEPRECATED_OPT("rwmixcycle", false),
	/* fio's job options (fio --cmdhelp=all) */
	JOB_OPT("unique_filename", "1", "For network clients, prefix file with source IP"),
	JOB_OPT("opendir", NULL, "Recursively add files from this directory and down"),
	JOB_OPT("write_barrier", "0", "Make every Nth write a barrier write"),
	/* job options of fio after 3.33 that fio's examples use */
	JOB_OPT("spr_cs", "0", "Cache Size in bytes for SPRandom"),
	JOB_OPT("num_range", "1", "Number of ranges for trim command"),
	JOB_OPT("fdp", "0", "Use Data placement directive (FDP)"),
	JOB_OPT("dataplacement", "none", "Data Placement interface to use"),
	JOB_OPT("plid_select", "roundrobin", "Strategy for selecting next Data Placement ID"),
	JOB_OPT("fdp_pli_select", "roundrobin", "Strategy for selecting next Data Placement ID"),
	JOB_OPT("plids", NULL, "Sets which Data Placement ids to use (defaults to all for FDP)"),
	JOB_OPT("fdp_pli", NULL, "Sets which Data Placement ids to use (defaults to all for FDP)"),
	JOB_OPT("dp_scheme", NULL, "scheme file that specifies offset-RUH mapping"),
	JOB_OPT("trim_percentage", "0", "Number of verify blocks to trim (i.e., discard)"),
	JOB_OPT("trim_verify_zero", "1", "Verify that trimmed (i.e., discarded) blocks are returned as zeroes"),
	JOB_OPT("trim_backlog", NULL, "Trim after this number of blocks are written"),
	JOB_OPT("trim_backlog_batch", NULL, "Trim this number of IO blocks"),
	JOB_OPT("read_iolog_chunked", "0", "Parse IO pattern in chunks"),
	JOB_OPT("merge_blktrace_file", NULL, "Merged blktrace output filename"),
	JOB_OPT("merge_blktrace_scalars", NULL, "Percentage to scale each trace"),
	JOB_OPT("merge_blktrace_iters", NULL, "Number of iterations to run per trace"),
	JOB_OPT("lockmem", "0", "Lock down this amount of memory (per worker)"),
	JOB_OPT("latency_run", "0", "Keep adjusting queue depth to match latency_target"),
	JOB_OPT("log_entries", "1024", "Initial number of entries in a job IO log"),
	JOB_OPT("log_compression_cpus", NULL, "Limit log compression to these CPUs"),
	JOB_OPT("block_error_percentiles", "0", "Record trim block errors and make a histogram"),
	JOB_OPT("stats", "1", "Enable collection of stats"),
	JOB_OPT("gtod_cpu", NULL, "Set up dedicated gettimeofday() thread on this CPU"),
	JOB_OPT("profile", NULL, "Select a specific builtin performance test"),
	JOB_OPT("cgroup", NULL, "Add job to cgroup of this name"),
	JOB_OPT("cgroup_nodelete", "0", "Do not delete cgroups after job completion"),
	JOB_OPT("cgroup_weight", NULL, "Use given weight for cgroup"),
	JOB_OPT("uid", NULL, "Run job with this user ID"),
	JOB_OPT("gid", NULL, "Run job with this group ID"),
	JOB_OPT("hugepage-size", "2097152", "When using hugepages, specify size of each page"),
	/* options of fio engines (fio --enghelp=ENGINE; HOWTO for engines not built in Debian) */
	ENGINE_OPT("apptag", "io_uring_cmd"),
	ENGINE_OPT("apptag_mask", "io_uring_cmd"),
	ENGINE_OPT("arguments", "exec"),
	ENGINE_OPT("bindname", "rdma"),
	ENGINE_OPT("brick", "gfapi gfapi_async"),
	ENGINE_OPT("busy_poll", "rados rbd"),
	ENGINE_OPT("busy_wait_polling", "librpma_*_server"),
	ENGINE_OPT("cdb_len", "io_uring_cmd"),
	ENGINE_OPT("chunk_size", "dfs libhdfs"),
	ENGINE_OPT("clientname", "rados rbd"),
	ENGINE_OPT("clustername", "rados rbd"),
	ENGINE_OPT("conf", "rados"),
	ENGINE_OPT("cont", "dfs"),
	ENGINE_OPT("cpuchunks", "cpuio"),
	ENGINE_OPT("cpuload", "cpuio"),
	ENGINE_OPT("cpumode", "cpuio"),
	ENGINE_OPT("cuda_io", "libcufile"),
	ENGINE_OPT("deac", "io_uring_cmd"),
	ENGINE_OPT("direct_write_to_pmem", "librpma_*"),
	ENGINE_OPT("donorname", "e4defrag"),
	ENGINE_OPT("exit_on_io_done", "cpuio"),
	ENGINE_OPT("gpu_dev_id", "rdma"),
	ENGINE_OPT("gpu_dev_ids", "libcufile"),
	ENGINE_OPT("grace_time", "exec"),
	ENGINE_OPT("hdfsdirectory", "libhdfs"),
	ENGINE_OPT("hipri_percentage", "pvsync2"),
	ENGINE_OPT("hostname", "net netsplice rdma"),
	ENGINE_OPT("http_host", "http"),
	ENGINE_OPT("http_mode", "http"),
	ENGINE_OPT("http_pass", "http"),
	ENGINE_OPT("http_s3_key", "http"),
	ENGINE_OPT("http_s3_keyid", "http"),
	ENGINE_OPT("http_s3_region", "http"),
	ENGINE_OPT("http_s3_sse_customer_algorithm", "http"),
	ENGINE_OPT("http_s3_sse_customer_key", "http"),
	ENGINE_OPT("http_s3_storage_class", "http"),
	ENGINE_OPT("http_swift_auth_token", "http"),
	ENGINE_OPT("http_user", "http"),
	ENGINE_OPT("http_verbose", "http"),
	ENGINE_OPT("https", "http"),
	ENGINE_OPT("inplace", "e4defrag"),
	ENGINE_OPT("interface", "net netsplice"),
	ENGINE_OPT("listen", "net netsplice"),
	ENGINE_OPT("md_per_io_size", "io_uring io_uring_cmd"),
	ENGINE_OPT("mss", "net netsplice"),
	ENGINE_OPT("namenode", "libhdfs"),
	ENGINE_OPT("nfs_url", "nfs"),
	ENGINE_OPT("nodelay", "net netsplice"),
	ENGINE_OPT("nowait", "pvsync2 io_uring io_uring_cmd libaio"),
	ENGINE_OPT("object_class", "dfs"),
	ENGINE_OPT("pi_act", "io_uring_cmd"),
	ENGINE_OPT("pi_chk", "io_uring_cmd"),
	ENGINE_OPT("pingpong", "net netsplice"),
	ENGINE_OPT("pool", "rados rbd dfs"),
	ENGINE_OPT("port", "net netsplice rdma libhdfs"),
	ENGINE_OPT("program", "exec"),
	ENGINE_OPT("proto", "netsplice net"),
	ENGINE_OPT("protocol", "net netsplice"),
	ENGINE_OPT("rbdname", "rbd"),
	ENGINE_OPT("read_mode", "io_uring_cmd"),
	ENGINE_OPT("readfua", "sg io_uring_cmd"),
	ENGINE_OPT("serverip", "librpma_*"),
	ENGINE_OPT("sg_write_mode", "sg"),
	ENGINE_OPT("skip_bad", "mtd"),
	ENGINE_OPT("std_redirect", "exec"),
	ENGINE_OPT("stream_id", "sg"),
	ENGINE_OPT("thp", "mmap"),
	ENGINE_OPT("touch_objects", "rados"),
	ENGINE_OPT("ttl", "net netsplice"),
	ENGINE_OPT("uncached", "pvsync2 io_uring io_uring_cmd"),
	ENGINE_OPT("uri", "nbd"),
	ENGINE_OPT("userspace_reap", "libaio"),
	ENGINE_OPT("verb", "rdma"),
	ENGINE_OPT("verify_bytchk", "io_uring_cmd"),
	ENGINE_OPT("verify_mode", "io_uring_cmd"),
	ENGINE_OPT("volume", "gfapi gfapi_async"),
	ENGINE_OPT("window_size", "net netsplice"),
	ENGINE_OPT("write_mode", "io_uring_cmd"),
	ENGINE_OPT("writefua", "sg io_uring_cmd"),
	ENGINE_OPT("xnvme_admin", "xnvme"),
	ENGINE_OPT("xnvme_async", "xnvme"),
	ENGINE_OPT("xnvme_dev_nsid", "xnvme"),
	ENGINE_OPT("xnvme_iovec", "xnvme"),
	ENGINE_OPT("xnvme_sync", "xnvme"),
	/* fio's engines iopath lacks (fio --enghelp, and upstream engines Debian omits) */
	ENGINE("cpuio"), ENGINE("vsync"), ENGINE("net"),
	ENGINE("netsplice"), ENGINE("exec"),
	ENGINE("e4defrag"), ENGINE("splice"), ENGINE("gfapi"), ENGINE("gfapi_async"), ENGINE("mtd"),
	ENGINE("sg"), ENGINE("nbd"), ENGINE("rdma"), ENGINE("rados"),
	ENGINE("rbd"), ENGINE("pmemblk"), ENGINE("dev-dax"), ENGINE("libpmem"), ENGINE("windowsaio"),
	ENGINE("solarisaio"), ENGINE("http"), ENGINE("libiscsi"), ENGINE("nfs"), ENGINE("xnvme"),
	ENGINE("libcufile"), ENGINE("dfs"), ENGINE("ime_psync"), ENGINE("ime_psyncv"),
	ENGINE("ime_aio"), ENGINE("libhdfs"), ENGINE("librpma_apm_client"),
	ENGINE("librpma_apm_server"), ENGINE("librpma_gpspm_client"), ENGINE("librpma_gpspm_server"),
	ENGINE("libzbc"),
	ENGINE("guasi"), ENGINE("binject"), ENGINE("syslet-rw"), ENGINE("cpp_null"),
	ENGINE("external"),
	/* engines of fio after 3.33 that fio's examples name */
	ENGINE("libblkio"), ENGINE("libhipfile"), ENGINE("page_fault"), ENGINE("filesetxattr"),
	ENGINE("filelistxattr"),
	/* options of fio's tiobench and act profiles: fio parses them in any job, to no effect */
	PROFILE_OPT("threads", "tiobench"), PROFILE_OPT("block", "tiobench"),
	PROFILE_OPT("numruns", "tiobench"), PROFILE_OPT("dir", "tiobench"),
	PROFILE_OPT("device-names", "act"), PROFILE_OPT("load", "act"),
	PROFILE_OPT("test-duration", "act"), PROFILE_OPT("threads-per-queue", "act"),
	PROFILE_OPT("read-req-num-512-blocks", "act"), PROFILE_OPT("large-block-op-kbytes", "act"),
	PROFILE_OPT("prep", "act"),
	{ NULL, 0, NULL, NULL },
};

const struct fio_unsupported *fio_unsupported_find(const char *name, enum fio_unsup_kind kind)
{
	const struct fio_unsupported *u;

	for (u = fio_unsupported_table; u->name; u++)
		if (u->kind == kind && !strcmp(u->name, name))
			return u;
	return NULL;
}
