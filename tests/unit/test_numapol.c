/* Unit tests: fio's NUMA options through libnuma (core/base/numapol.c), on this machine's nodes. */
#include <criterion/criterion.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/numapol.h"

static void need_numa(void)
{
	if (numa_available() < 0)
		cr_skip_test("NUMA is not available on this machine");
}

Test(numapol, node_lists_are_checked_against_this_machine)
{
	char why[200];

	need_numa();
	cr_expect_eq(numa_check_nodes("0", why, sizeof(why)), 0, "%s", why);
	cr_expect_eq(numa_check_nodes("all", why, sizeof(why)), 0, "%s", why);
	cr_expect_neq(numa_check_nodes("4095", why, sizeof(why)), 0);
	cr_expect_not_null(strstr(why, "not available on this machine"), "%s", why);
	/* libnuma's own words on which node, as fio's users read them */
	cr_expect_not_null(strstr(why, "node argument 4095"), "%s", why);
	cr_expect_neq(numa_check_nodes("x", why, sizeof(why)), 0);
	cr_expect_eq(numa_nodes_in("0"), 1);
}

/* every touched page of a mapping is found on a node; untouched ones are not present */
Test(numapol, buffer_pages_are_counted_per_node)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t per[64] = { 0 }, elsewhere = 0, sum = 0;
	char *p;
	unsigned i;

	need_numa();
	p = mmap(NULL, (size_t)psz * 40, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(p, MAP_FAILED);
	memset(p, 1, (size_t)psz * 30);
	cr_assert_eq(numa_buffer_nodes(p, (size_t)psz * 40, per, 64, &elsewhere), 0);
	for (i = 0; i < 64; i++)
		sum += per[i];
	cr_expect_eq(sum, 30);
	cr_expect_eq(elsewhere, 10);
	munmap(p, (size_t)psz * 40);
}

static int got_mode = -1;

static void *bind_thread(void *arg)
{
	int mode;

	(void)arg;
	if (numa_bind_cpus("0") || numa_set_policy(NUMA_MEM_BIND, "0"))
		return NULL;
	if (!get_mempolicy(&mode, NULL, 0, NULL, 0))
		got_mode = mode;
	return NULL;
}

/* The policy is the calling thread's own: a worker's, not the process's. */
Test(numapol, bind_sets_the_threads_memory_policy)
{
	pthread_t t;
	int mode;

	need_numa();
	cr_assert_eq(pthread_create(&t, NULL, bind_thread, NULL), 0);
	pthread_join(t, NULL);
	cr_expect_eq(got_mode, MPOL_BIND);
	cr_assert_eq(get_mempolicy(&mode, NULL, 0, NULL, 0), 0);
	cr_expect_eq(mode, MPOL_DEFAULT);
}
