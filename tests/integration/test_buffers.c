/* Request buffers: huge-page pools by default, fio's ordinary pages with mem=malloc. */
#include <criterion/criterion.h>
#include <string.h>

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
	const char *dir = tmpdir_make();
	char job[300], out[320];
	struct run_out r;
	json_t *root;

	r = iopath_run("--name=t", "--ioengine=null", "--size=8m", "--bs=1m", "--iodepth=4",
		       "--output-format=json", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_from_string(r.out);
	cr_assert(strstr(buffers_of(root), "mem=malloc"), "%s", buffers_of(root));
	json_decref(root);
	run_out_free(&r);
	/* a job file, and the second of two (which starts from the defaults again) */
	snprintf(job, sizeof(job), "%s/j.fio", dir);
	file_write_text(job, "[t]\nioengine=null\nsize=8m\nbs=1m\n");
	snprintf(out, sizeof(out), "--output=%s/o.json", dir);
	r = iopath_run(job, job, "--output-format=json", out, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	snprintf(out, sizeof(out), "%s/o.json", dir);
	root = json_load_path(out);
	cr_assert(strstr(buffers_of(root), "mem=malloc"), "%s", buffers_of(root));
	cr_assert(strstr(json_string_value(json_object_get(json_object_get(json_array_get(
		json_object_get(root, "jobs"), 1), "iopath"), "buffers")), "mem=malloc"));
	json_decref(root);
}

/* iopath's own workloads keep huge-page buffers, and say so */
Test(buffers, built_in_workloads_keep_huge_pages)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("run", "seqread-1m", "--target", dir, "--scale=0.01",
				      "ioengine=null", "--output-format=json", NULL);
	json_t *root;

	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_from_string(r.out);
	cr_assert(strstr(buffers_of(root), "MADV_HUGEPAGE"), "%s", buffers_of(root));
	json_decref(root);
	run_out_free(&r);
}
