/* Integration tests: a build without MPI says so, in one line, when MPI is asked for. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* the temporary directories each test made go with it */
TestSuite(fleet, .fini = tmpdir_cleanup);

static unsigned lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static bool mpi_build(void)
{
	struct run_out r = iopath_run("--mpi", "--parse-only", "--name=x", "--ioengine=null",
				      "--size=1m", NULL);
	bool yes = !strstr(r.err, "not compiled in");

	run_out_free(&r);
	return yes;
}

Test(fleet, mpi_option_without_mpi_is_one_line_and_exit_2)
{
	struct run_out r;

	if (mpi_build())
		cr_skip_test("this binary was built with MPI=1");
	r = iopath_run("--mpi", "--name=x", "--ioengine=null", "--size=1m", NULL);
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_assert_eq(lines(r.err), 1, "stderr: %s", r.err);
	cr_assert(strstr(r.err, "MPI support is not compiled in"), "%s", r.err);
	run_out_free(&r);
}

Test(fleet, started_by_mpirun_without_mpi_refuses_to_run_unsynchronised)
{
	struct run_out r;

	if (mpi_build())
		cr_skip_test("this binary was built with MPI=1");
	setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
	setenv("OMPI_COMM_WORLD_RANK", "1", 1);
	r = iopath_run("--name=x", "--ioengine=null", "--size=1m", NULL);
	unsetenv("OMPI_COMM_WORLD_SIZE");
	unsetenv("OMPI_COMM_WORLD_RANK");
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_assert_eq(lines(r.err), 1, "stderr: %s", r.err);
	cr_assert(strstr(r.err, "rank 1 of 4"), "%s", r.err);
	run_out_free(&r);
}

Test(fleet, rank_and_host_substitute_into_file_names)
{
	const char *dir = tmpdir_make(), *path = tmp_str("%s/f.0", dir);
	struct run_out r = iopath_run("--name=x", tmp_str("--filename=%s/f.${RANK}", dir),
				      "--rw=write", "--size=64k", "--bs=4k", NULL);

	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_assert_eq(access(path, F_OK), 0, "%s was not created", path);
	run_out_free(&r);
	tmpdir_cleanup();
}
