/* The stop flag and the process's rank: state every layer reads and only the top sets. */
#include <stdatomic.h>
#include <stdio.h>

#include "base/stop.h"

atomic_int iop_stop_flag;
static atomic_int status_asked;
static unsigned my_rank, nr_ranks = 1;

void run_request_stop(void)
{
	atomic_store_explicit(&iop_stop_flag, 1, memory_order_relaxed);
}

void run_status_ask(void)
{
	atomic_store_explicit(&status_asked, 1, memory_order_relaxed);
}

bool run_status_take(void)
{
	return atomic_exchange_explicit(&status_asked, 0, memory_order_relaxed);
}

void iop_set_rank(unsigned rank, unsigned size)
{
	my_rank = rank;
	nr_ranks = size ? size : 1;
}

const char *fleet_file_suffix(void)
{
	static char suffix[24];

	if (nr_ranks < 2)
		return "";
	snprintf(suffix, sizeof(suffix), ".rank%u", my_rank);
	return suffix;
}
