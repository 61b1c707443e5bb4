/* Request buffers: huge-page pools by default, fio's ordinary pages with mem=malloc. */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "integration/harness.h"

/* the temporary directories each test made go with it */
TestSuite(buffers, .fini = tmpdir_cleanup);

static json_t *run_json(const char *engine, const char *mem, bool direct, int *status)
{
	const char *dir = tmpdir_make();
	char file[300], out[300], eng[64];
	struct run_out r;
	json_t *root = NULL;

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	snprintf(eng, sizeof(eng), "--ioengine=%s", engine);
	r = iopath_run("--name=t", file, "--size=8m", "--rw=randwrite", "--bs=1m", "--iodepth=4",
		       eng, direct ? "--direct=1" : "--direct=0", "--verify=crc32c", mem,
		       "--output-format=json", out, NULL);
	*status = r.status;
	if (r.status)
		fprintf(stderr, "%s: %s\n", engine, r.err);
	run_out_free(&r);
	if (!*status) {
		snprintf(out, sizeof(out), "%s/out.json", dir);
		root = json_load_path(out);
	}
	return root;
}

static const char *buffers_of(json_t *root)
{
	json_t *io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");

	return json_string_value(json_object_get(io, "buffers"));
}

/* Every engine verifies 1 MiB blocks from a 4 MiB pool, which is huge-page backed. */
Test(buffers, huge_page_pool_keeps_verify_passing_for_every_engine)
{
	static const struct {
		const char *engine;
		bool direct;
	} cases[] = {
		{ "psync", true }, { "sync", false }, { "libaio", true }, { "io_uring", true },
		{ "mmap", false },
	};
	unsigned i;
	int status;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *root = run_json(cases[i].engine, "--mem=thp", cases[i].direct, &status);

		if (status && cases[i].direct) {
			/* O_DIRECT may be refused where the test directory lives (tmpfs) */
			root = run_json(cases[i].engine, "--mem=thp", false, &status);
		}
		cr_assert_eq(status, 0, "%s", cases[i].engine);
		cr_assert(buffers_of(root) && strstr(buffers_of(root), "MADV_HUGEPAGE"), "%s: %s",
			  cases[i].engine, buffers_of(root));
		json_decref(root);
	}
}

Test(buffers, mem_malloc_gives_ordinary_pages)
{
	int status;
	json_t *root = run_json("psync", "--mem=malloc", false, &status);

	cr_assert_eq(status, 0);
	cr_assert(strstr(buffers_of(root), "4 KiB pages"), "%s", buffers_of(root));
	json_decref(root);
}

Test(buffers, shared_memory_kinds_are_refused_with_what_is_accepted)
{
	struct run_out r = iopath_run("--name=t", "--size=1m", "--ioengine=null", "--mem=shmhuge",
				      NULL);

	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "mem") && strstr(r.err, "malloc"), "%s", r.err);
	run_out_free(&r);
}

/* fio job files and command lines get fio's default buffers, so their numbers compare */
Test(buffers, fio_style_jobs_default_to_fios_malloc_buffers)
{
	const char *dir = tmpdir_make(), *job = tmp_str("%s/j.fio", dir);
	json_t *root;

	root = iopath_out_json("--name=t", "--ioengine=null", "--size=8m", "--bs=1m", "--iodepth=4",
			       "--output-format=json", NULL);
	cr_assert(strstr(buffers_of(root), "mem=malloc"), "%s", buffers_of(root));
	json_decref(root);
	/* a job file, and the second of two (which starts from the defaults again) */
	file_write_text(job, "[t]\nioengine=null\nsize=8m\nbs=1m\n");
	iopath_exits(0, job, job, "--output-format=json", tmp_str("--output=%s/o.json", dir), NULL);
	root = json_load_path(tmp_str("%s/o.json", dir));
	cr_assert(strstr(buffers_of(root), "mem=malloc"), "%s", buffers_of(root));
	cr_assert(strstr(json_string_value(json_object_get(json_object_get(json_array_get(
		json_object_get(root, "jobs"), 1), "iopath"), "buffers")), "mem=malloc"));
	json_decref(root);
}

/* iopath's own workloads keep huge-page buffers, and say so */
Test(buffers, built_in_workloads_keep_huge_pages)
{
	json_t *root = iopath_out_json("run", "seqread-1m", "--target", tmpdir_make(), "--scale=0.01",
				       "ioengine=null", "--output-format=json", NULL);

	cr_assert(strstr(buffers_of(root), "MADV_HUGEPAGE"), "%s", buffers_of(root));
	json_decref(root);
}

static bool have_numa_node0(void)
{
	return !access("/sys/devices/system/node/node0", F_OK);
}

/*
 * numa_mem_policy: the result says where the buffers' pages were (move_pages once filled):
 * 2 workers x 4 requests of 64 KiB bound to node 0 are 128 pages there, and none elsewhere.
 */
Test(buffers, numa_policy_reports_where_the_buffer_pages_are)
{
	const char *const args[] = { "--name=t", "--ioengine=null", "--size=1m", "--bs=64k",
				     "--iodepth=4", "--numjobs=2", "--group_reporting",
				     "--numa_mem_policy=bind:0", NULL };
	json_t *root, *io, *pages;

	if (!have_numa_node0())
		cr_skip_test("no NUMA node 0 in sysfs: the kernel has no NUMA support");
	root = tool_json(false, args);
	io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");
	pages = json_object_get(io, "buffer_pages");
	cr_assert_not_null(pages, "no iopath.buffer_pages with numa_mem_policy");
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(pages, "per_node"), "0")),
		     128);
	cr_expect_eq(json_object_size(json_object_get(pages, "per_node")), 1);
	cr_expect_eq(json_integer_value(json_object_get(pages, "elsewhere")), 0);
	json_decref(root);
}

/* without a NUMA option nothing is measured, and the result does not pretend */
Test(buffers, no_numa_option_no_buffer_pages)
{
	const char *const args[] = { "--name=t", "--ioengine=null", "--size=1m", NULL };
	json_t *root = tool_json(false, args);
	json_t *io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");

	cr_expect_null(json_object_get(io, "buffer_pages"));
	json_decref(root);
}

/* a node past the machine's: refused when the job is read, one line naming it, exit 2 */
Test(buffers, numa_node_past_the_machine_is_refused_naming_it)
{
	static const char *const opts[] = { "--numa_cpu_nodes=4095",
					    "--numa_mem_policy=interleave:0-4095",
					    "--numa_mem_policy=bind:4095" };
	unsigned i;

	if (!have_numa_node0())
		cr_skip_test("no NUMA node 0 in sysfs: the kernel has no NUMA support");
	if (!access("/sys/devices/system/node/node4095", F_OK))
		cr_skip_test("this machine has NUMA node 4095");
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		struct run_out r = iopath_run("--name=t", "--ioengine=null", "--size=1m", opts[i],
					      NULL);

		cr_expect_eq(r.status, 2, "%s: exit %d", opts[i], r.status);
		cr_expect(strstr(r.err, "node argument 4095") &&
			  strstr(r.err, "not available on this machine") &&
			  strchr(r.err, '\n') == strrchr(r.err, '\n'), "%s: %s", opts[i], r.err);
		run_out_free(&r);
	}
}

/*
 * How many anonymous read-write mappings of exactly len bytes pid has, each between
 * inaccessible ones; *merged gets those of 2 x len (two workers' buffers run together).
 */
static unsigned own_buffer_maps(pid_t pid, unsigned long len, unsigned *merged)
{
	char path[64], line[512], prev[8] = "", prot[8];
	unsigned long a, b, pa = 0, pb = 0, plen = 0;
	unsigned n = 0;
	bool pending = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	*merged = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char name[256] = "";

		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255s", &a, &b, prot, name) < 3)
			continue;
		/* the previous candidate counts when this mapping, right after it, is inaccessible */
		if (pending && a == pb && !strcmp(prot, "---p"))
			n++;
		pending = false;
		if (!name[0] && !strcmp(prot, "rw-p") && b - a == len && !strcmp(prev, "---p") &&
		    a == pa + plen)
			pending = true, pb = b;
		if (!name[0] && !strcmp(prot, "rw-p") && b - a == 2 * len)
			(*merged)++;
		snprintf(prev, sizeof(prev), "%s", prot);
		pa = a;
		plen = b - a;
	}
	fclose(f);
	return n;
}

/*
 * Each worker's buffers are a mapping of their own: merged with a neighbour's, a transparent
 * huge page across both would land on the node of whichever touched it first.
 */
Test(buffers, each_workers_buffers_are_a_mapping_of_their_own)
{
	/* 12 x 256 KiB: 3 MiB, unlike a thread's 8 MiB stack */
	char *argv[] = { (char *)"iopath", (char *)"--name=a", (char *)"--ioengine=null",
			 (char *)"--size=1m", (char *)"--bs=256k", (char *)"--iodepth=12",
			 (char *)"--time_based", (char *)"--runtime=600", (char *)"--numjobs=2",
			 (char *)"--output-format=terse", NULL };
	/* both workers have done I/O, so both have their buffers, and they go on till Ctrl-C */
	struct run_bg b = iopath_start_running(tmpdir_make(), argv, NULL);
	unsigned own = 0, merged = 0;
	struct run_out r;

	cr_assert(running_reached(&b), "the workers never completed an I/O");
	own = own_buffer_maps(b.pid, 3ul << 20, &merged);
	kill(b.pid, SIGINT);
	r = iopath_wait(&b, 30);
	cr_expect(r.status == 130, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	cr_expect_eq(merged, 0, "two workers' buffers were one mapping");
	cr_expect_eq(own, 2, "found %u buffer mappings between inaccessible pages, not 2", own);
}
