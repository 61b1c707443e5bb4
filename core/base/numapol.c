/* fio's NUMA options through libnuma: node lists checked at parse time, applied per worker. */
#include <errno.h>
#include <numa.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/numapol.h"

/*
 * libnuma reports a bad node list on stderr through these (weak in libnuma); core/ never
 * prints: the reason is rebuilt and returned instead.
 */
void numa_warn(int num, char *fmt, ...);
void numa_error(char *where);

void numa_warn(int num, char *fmt, ...)
{
	(void)num, (void)fmt;
}

void numa_error(char *where)
{
	(void)where;
}

int numa_check_nodes(const char *nodes, char *why, size_t why_len)
{
	struct bitmask *m;

	if (numa_available() < 0) {
		snprintf(why, why_len, "NUMA is not available on this machine (libnuma: numa_available)");
		return -ENODEV;
	}
	m = numa_parse_nodestring(nodes);
	if (!m) {
		snprintf(why, why_len,
			 "'%s' names a node that is not available on this machine (its nodes: 0-%d), or is not a node list (accepted: numbers, A-B ranges, commas, all)",
			 nodes, numa_max_node());
		return -EINVAL;
	}
	numa_bitmask_free(m);
	return 0;
}

static int first_node(const struct bitmask *m)
{
	int n;

	for (n = 0; n <= numa_max_node(); n++)
		if (numa_bitmask_isbitset(m, (unsigned)n))
			return n;
	return 0;
}

int numa_nodes_in(const char *nodes)
{
	struct bitmask *m = numa_parse_nodestring(nodes);
	int w;

	if (!m)
		return -EINVAL;
	w = (int)numa_bitmask_weight(m);
	numa_bitmask_free(m);
	return w;
}

int numa_bind_cpus(const char *nodes)
{
	struct bitmask *m = numa_parse_nodestring(nodes);
	int ret;

	if (!m)
		return -EINVAL;
	ret = numa_run_on_node_mask(m) ? -errno : 0;
	numa_bitmask_free(m);
	return ret;
}

int numa_set_policy(enum numa_mode mode, const char *nodes)
{
	struct bitmask *m;

	switch (mode) {
	case NUMA_MEM_NONE:
	case NUMA_MEM_DEFAULT:
		return 0;
	case NUMA_MEM_LOCAL:
		numa_set_localalloc();
		return 0;
	case NUMA_MEM_PREFER:
		m = numa_parse_nodestring(nodes);
		if (!m)
			return -EINVAL;
		numa_set_preferred(first_node(m));
		numa_bitmask_free(m);
		return 0;
	case NUMA_MEM_BIND:
	case NUMA_MEM_INTERLEAVE:
		m = numa_parse_nodestring(nodes);
		if (!m)
			return -EINVAL;
		if (mode == NUMA_MEM_BIND)
			numa_set_membind(m);
		else
			numa_set_interleave_mask(m);
		numa_bitmask_free(m);
		return 0;
	}
	return -EINVAL;
}
