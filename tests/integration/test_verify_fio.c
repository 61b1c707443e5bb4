/*
 * fio's verify format both ways (Debian's fio, installed by scripts/deps.sh; skipped without
 * it): a file fio wrote with verify=X verifies under iopath, one iopath wrote verifies under
 * fio, for every type of the family; a corrupted block fails; fio's verify state files load;
 * the write number in each header (verify_write_sequence) is checked where fio checks it.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static const char *const types[] = {
	"md5", "crc64", "crc32", "crc32c", "crc32c-intel", "crc16", "crc7", "xxhash", "sha1",
	"sha256", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "meta", "pattern",
};

static void need_fio(void)
{
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
}

/* Run fio or iopath on path: rw=write (do_verify=0) or rw=read with verify=type. */
static struct run_out tool(bool fio, const char *path, const char *type, bool write,
			   const char *extra)
{
	char file[512], v[64];
	char *argv[] = { fio ? "fio" : "iopath", "--name=v", file, "--size=64k", "--bs=4k", write ? "--rw=write" : "--rw=read",
			 v, "--verify_pattern=0x5a0f1e", "--verify_state_save=0",
			 write ? "--do_verify=0" : "--verify_state_load=0",
			 (char *)(extra ? extra : "--verify_fatal=1"), NULL };

	snprintf(file, sizeof(file), "--filename=%s", path);
	snprintf(v, sizeof(v), "--verify=%s", type);
	return fio ? prog_runv(FIO_BIN, argv) : iopath_runv(argv);
}

static void one_way(bool fio_writes, const char *extra)
{
	const char *dir = tmpdir_make();
	char path[512];
	size_t i;

	need_fio();
	snprintf(path, sizeof(path), "%s/data", dir);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct run_out w, r;

		unlink(path);
		w = tool(fio_writes, path, types[i], true, extra);
		cr_assert_eq(w.status, 0, "verify=%s: %s write failed: %s", types[i],
			     fio_writes ? "fio" : "iopath", w.err);
		r = tool(!fio_writes, path, types[i], false, extra);
		cr_expect_eq(r.status, 0, "verify=%s: %s does not verify what %s wrote: %s%s", types[i],
			     fio_writes ? "iopath" : "fio", fio_writes ? "fio" : "iopath", r.err, r.out);
		run_out_free(&w);
		run_out_free(&r);
	}
	tmpdir_cleanup();
}

Test(verify_fio, fio_written_verifies_under_iopath, .timeout = 240)
{
	one_way(true, NULL);
}

Test(verify_fio, iopath_written_verifies_under_fio, .timeout = 240)
{
	one_way(false, NULL);
}

Test(verify_fio, intervals_verify_both_ways, .timeout = 240)
{
	one_way(true, "--verify_interval=512");
	one_way(false, "--verify_interval=1024");
}

Test(verify_fio, corrupted_fio_block_fails_under_iopath, .timeout = 120)
{
	const char *dir = tmpdir_make();
	char path[512];
	struct run_out w, r;

	need_fio();
	snprintf(path, sizeof(path), "%s/data", dir);
	w = tool(true, path, "sha1", true, NULL);
	cr_assert_eq(w.status, 0, "%s", w.err);
	cr_assert_eq(sh("printf x | dd of=%s bs=1 seek=20000 conv=notrunc status=none", path), 0);
	r = tool(false, path, "sha1", false, NULL);
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_not_null(strstr(r.err, "at offset 16384: sha1 mismatch"), "%s", r.err);
	run_out_free(&w);
	run_out_free(&r);
	tmpdir_cleanup();
}

/* fio's verify_state_save file bounds iopath's verify_state_load read, and the reverse. */
Test(verify_fio, verify_state_files_load_both_ways, .timeout = 120)
{
	const char *dir = tmpdir_make();
	char cmd[1024];

	need_fio();
	snprintf(cmd, sizeof(cmd),
		 "cd %s && %s --name=j --filename=d --size=64k --rw=write --verify=md5 --do_verify=0 >/dev/null && "
		 "test -s local-j-0-verify.state && "
		 "%s --name=j --filename=d --size=64k --rw=read --verify=md5 --verify_state_load=1 >/dev/null && "
		 "rm local-j-0-verify.state && "
		 "%s --name=j --filename=d --size=64k --rw=write --verify=md5 --do_verify=0 --allow-overwrite >/dev/null && "
		 "%s --name=j --filename=d --size=64k --rw=read --verify=md5 --verify_state_load=1 >/dev/null",
		 dir, FIO_BIN, getenv("IOPATH_BIN"), getenv("IOPATH_BIN"), FIO_BIN);
	cr_expect_eq(sh("%s", cmd), 0);
	snprintf(cmd, sizeof(cmd), "cd %s && rm -f local-j-0-verify.state && ! %s --name=j --filename=d --size=64k --rw=read --verify=md5 --verify_state_load=1 2>/dev/null >/dev/null",
		 dir, getenv("IOPATH_BIN"));
	cr_expect_eq(sh("%s", cmd), 0, "a missing state file must fail the job");
	tmpdir_cleanup();
}

/*
 * One job writing a file under two names (a hard link: filename=a:b, one block of each in
 * turn): block 0 of a holds b's write 1 when a's write 0 is read back. Its checksum and offset
 * are right; only the write number tells, and fio 3.33 fails the job on it too.
 */
static struct run_out aliased_write(bool fio, const char *dir, const char *extra)
{
	char names[600], a[520], b[520];
	char *argv[] = { fio ? "fio" : "iopath", "--name=v", names, "--size=32k", "--bs=4k",
			 "--rw=write", "--verify=crc32c", "--verify_state_save=0",
			 fio ? "--thread" : "--allow-overwrite", (char *)extra, NULL };

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	unlink(a);
	unlink(b);
	file_make(a, 16384, 0);
	cr_assert_eq(link(a, b), 0);
	snprintf(names, sizeof(names), "--filename=%s/a:%s/b", dir, dir);
	return fio ? prog_runv(FIO_BIN, argv) : iopath_runv(argv);
}

Test(verify_fio, write_sequence_catches_a_block_overwritten_out_of_order, .timeout = 60)
{
	const char *dir = tmpdir_make();
	struct run_out r;

	r = aliased_write(false, dir, NULL);
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_not_null(strstr(r.err, "at offset 0: bad header numberio 1, wanted 0"), "%s",
			   r.err);
	run_out_free(&r);
	/* the verify threads check it too */
	r = aliased_write(false, dir, "--verify_async=2");
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_not_null(strstr(r.err, "at offset 0: bad header numberio 1, wanted 0"), "%s",
			   r.err);
	run_out_free(&r);
	r = aliased_write(false, dir, "--verify_write_sequence=0");
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	if (!access(FIO_BIN, X_OK)) {
		/* fio 3.33 has the check (not yet the option): the same block, the same numbers */
		r = aliased_write(true, dir, NULL);
		cr_expect_neq(r.status, 0, "fio 3.33 passed it: %s", r.out);
		cr_expect_not_null(strstr(r.err, "bad header numberio 1, wanted 0 at file"), "%s%s",
				   r.err, r.out);
		run_out_free(&r);
	}
	tmpdir_cleanup();
}

/* verify_only=1 re-checks a file as an earlier run wrote it: the write numbers on request. */
static int verify_only(const char *path, const char *extra)
{
	return sh("%s --name=v --filename=%s --size=64k --bs=4k --rw=write --verify=crc32c --verify_only=1 --verify_state_save=0 %s >/dev/null 2>&1",
		  getenv("IOPATH_BIN"), path, extra);
}

Test(verify_fio, verify_only_checks_write_numbers_when_asked, .timeout = 60)
{
	const char *dir = tmpdir_make();
	char path[512];

	snprintf(path, sizeof(path), "%s/data", dir);
	cr_assert_eq(sh("%s --name=v --filename=%s --size=64k --bs=4k --rw=write --verify=crc32c --do_verify=0 --verify_state_save=0 >/dev/null",
			getenv("IOPATH_BIN"), path), 0);
	cr_expect_eq(verify_only(path, "--verify_write_sequence=1"), 0);
	/* block 2 rewritten as another job's write 0: sound, but not this job's write 2 */
	cr_assert_eq(sh("%s --name=o --filename=%s --offset=8k --size=4k --bs=4k --rw=write --verify=crc32c --do_verify=0 --verify_state_save=0 --allow-overwrite >/dev/null",
			getenv("IOPATH_BIN"), path), 0);
	cr_expect_eq(verify_only(path, ""), 0, "verify_only checks no write numbers by default, as fio");
	cr_expect_eq(verify_only(path, "--verify_write_sequence=0"), 0);
	cr_expect_eq(verify_only(path, "--verify_write_sequence=1"), 1);
	cr_expect_eq(sh("%s --name=v --filename=%s --size=64k --bs=4k --rw=write --verify=crc32c --verify_only=1 --verify_state_save=0 --verify_write_sequence=1 2>&1 | grep -q 'at offset 8192: bad header numberio 0, wanted 2'",
			getenv("IOPATH_BIN"), path), 0);
	tmpdir_cleanup();
}

/* fio numbers a job's writes from 0, as iopath does: its file passes iopath's check. */
Test(verify_fio, fio_written_file_passes_the_write_number_check, .timeout = 60)
{
	const char *dir = tmpdir_make();
	char path[512];

	need_fio();
	snprintf(path, sizeof(path), "%s/data", dir);
	cr_assert_eq(sh("%s --name=v --filename=%s --size=64k --bs=4k --rw=write --verify=crc32c --do_verify=0 --verify_state_save=0 >/dev/null",
			FIO_BIN, path), 0);
	cr_expect_eq(verify_only(path, "--verify_write_sequence=1"), 0);
	tmpdir_cleanup();
}
