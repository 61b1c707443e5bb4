/* Built without MPI: this process is rank 0 of 1, and asking for more is a one-line error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/err.h"
#include "fleet/fleet.h"

static char host[256];

bool fleet_compiled(void)
{
	return false;
}

int fleet_setup(int *argc, char **argv)
{
	struct fleet_args a;
	unsigned rank;
	int size, ret;

	ret = fleet_take_args(argc, argv, &a);
	if (ret)
		return ret;
	if (a.mpi || a.any) {
		iop_msgf("--mpi: MPI support is not compiled in (install it with scripts/deps.sh --mpi, build with make MPI=1)");
		return EXIT_USAGE;
	}
	size = fleet_launcher_size(&rank);
	/* ${RANK} and ${HOST} in a fleet's job file name rank 0 on this host when run alone */
	setenv("RANK", "0", 0);
	setenv("HOST", fleet_hostname(), 0);
	if (size > 1) {
		iop_msgf("started by mpirun as rank %u of %d, but MPI support is not compiled in (build with make MPI=1); not running %d unsynchronised copies",
			rank, size, size);
		return EXIT_USAGE;
	}
	return 0;
}

int fleet_allgather(const void *mine, size_t len, void *all)
{
	memcpy(all, mine, len);
	return 0;
}

const char *fleet_rank_output(void)
{
	return NULL;
}

const char *fleet_rank_hostname(unsigned r)
{
	(void)r;
	return fleet_hostname();
}

int fleet_merge_run(struct run_results *r)
{
	(void)r;
	return 0;
}

int fleet_gather_run(struct run_results *r, const char *note, fleet_rank_fn fn, void *arg)
{
	return fleet_gather_alone(r, fleet_hostname(), note, fn, arg);
}

int fleet_exit(int code)
{
	return code;
}

bool fleet_active(void)
{
	return false;
}

unsigned fleet_rank(void)
{
	return 0;
}

unsigned fleet_size(void)
{
	return 1;
}

const char *fleet_hostname(void)
{
	if (!host[0] && gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "unknown");
	return host;
}

bool fleet_hosts_unique(void)
{
	return true;
}

bool fleet_shared_files_ok(void)
{
	return false;
}

void fleet_note_error(const char *msg)
{
	(void)msg;
}

void fleet_set_writers(const struct fleet_writers *w)
{
	(void)w;
}

int fleet_output(const struct run_results *r, int code, const struct output_opts *o, int argc,
		 char **argv)
{
	(void)r;
	(void)code;
	(void)o;
	(void)argc;
	(void)argv;
	return EXIT_USAGE;	/* never called: fleet_active() is false */
}
