/* fio's NUMA options through libnuma: node lists checked at parse time, applied per worker. */
#include <errno.h>
#include <numa.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>

#include "base/numapol.h"

/*
 * libnuma reports a bad node list on stderr through these (weak in libnuma); core/ never
 * prints: the calling thread's last warning ("node argument 5 is out of range", as fio's
 * users see it from libnuma) is kept and becomes part of the returned reason.
 */
void numa_warn(int num, char *fmt, ...);
void numa_error(char *where);

static __thread char last_warning[120];

void numa_warn(int num, char *fmt, ...)
{
	va_list ap;
	size_t n;

	(void)num;
	va_start(ap, fmt);
	vsnprintf(last_warning, sizeof(last_warning), fmt, ap);
	va_end(ap);
	n = strlen(last_warning);
	while (n && (last_warning[n - 1] == '\n' || last_warning[n - 1] == ' '))
		last_warning[--n] = '\0';
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
	last_warning[0] = '\0';
	m = numa_parse_nodestring(nodes);
	if (!m && strstr(last_warning, "out of range")) {
		/* libnuma said which node (fio's users see the same warning from it) */
		snprintf(why, why_len,
			 "'%s': %s: not available on this machine (its nodes: 0-%d; libnuma)",
			 nodes, last_warning, numa_max_node());
		return -EINVAL;
	}
	if (!m && last_warning[0]) {
		snprintf(why, why_len,
			 "'%s': %s (libnuma; accepted: numbers, A-B ranges, commas, all)", nodes,
			 last_warning);
		return -EINVAL;
	}
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

int numa_buffer_nodes(const void *addr, size_t len, uint64_t *per_node, unsigned nr_nodes,
		      uint64_t *elsewhere)
{
	enum { CHUNK = 256 };
	void *pages[CHUNK];
	int status[CHUNK];
	long psz = sysconf(_SC_PAGESIZE);
	uintptr_t p = (uintptr_t)addr, end = (uintptr_t)addr + len;
	unsigned i, n;

	if (psz <= 0)
		return -EINVAL;
	p &= ~((uintptr_t)psz - 1);
	while (p < end) {
		for (n = 0; n < CHUNK && p < end; n++, p += (uintptr_t)psz)
			pages[n] = (void *)p;
		/* no target nodes: move_pages moves nothing, it says where each page is */
		if (numa_move_pages(0, n, pages, NULL, status, 0))
			return -errno;
		for (i = 0; i < n; i++) {
			if (status[i] >= 0 && (unsigned)status[i] < nr_nodes)
				per_node[status[i]]++;
			else
				(*elsewhere)++;
		}
	}
	return 0;
}
