/* CPU sets as job specs, results and the CPU-list parser hold them: bits in 64-bit words. */
#ifndef IOPATH_CPUSET_H
#define IOPATH_CPUSET_H

#define IOP_CPUS_MAX 1024	/* cpus_allowed: CPUs 0-1023 (fio: 512) */

#endif
