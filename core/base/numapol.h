/* fio's numa_cpu_nodes= and numa_mem_policy=, through libnuma. */
#ifndef IOPATH_NUMAPOL_H
#define IOPATH_NUMAPOL_H

#include <stddef.h>
#include <stdint.h>

/* numa_mem_policy modes, as fio names them */
enum numa_mode {
	NUMA_MEM_NONE,		/* not given: the thread keeps its policy */
	NUMA_MEM_DEFAULT,
	NUMA_MEM_PREFER,
	NUMA_MEM_BIND,
	NUMA_MEM_INTERLEAVE,
	NUMA_MEM_LOCAL,
};

/*
 * Check a node list ("0", "0-1,3", "all") against this machine's nodes; 0, or -errno with a
 * reason in why (no NUMA here, a node it lacks, a list libnuma cannot read).
 */
int numa_check_nodes(const char *nodes, char *why, size_t why_len);

/* How many nodes a (checked) list names; -errno when it cannot be read. */
int numa_nodes_in(const char *nodes);

/* The calling thread runs on the CPUs of nodes (numa_cpu_nodes): 0 or -errno. */
int numa_bind_cpus(const char *nodes);

/* The calling thread's memory policy (numa_mem_policy): 0 or -errno. */
int numa_set_policy(enum numa_mode mode, const char *nodes);

/*
 * Where the pages of [addr, addr + len) are, as the kernel answers move_pages(2) without
 * target nodes: per_node[n] += the pages on node n (n < nr_nodes), *elsewhere += those not
 * present (never touched) or on a node past nr_nodes. One system call per 256 pages; 0 or
 * -errno.
 */
int numa_buffer_nodes(const void *addr, size_t len, uint64_t *per_node, unsigned nr_nodes,
		      uint64_t *elsewhere);

#endif
