#!/bin/sh
# PLACEHOLDER workload, used only when no static iopath could be built: 16 MiB of 1 MiB
# O_DIRECT writes then reads with busybox dd on TARGET, printed as a tiny JSON object that
# says it is a placeholder. It is not an iopath result and the lab labels it as such.
target=$1
now() { cut -d' ' -f1 /proc/uptime; }
t0=$(now)
dd if=/dev/zero of="$target" bs=1M count=16 oflag=direct conv=fsync || exit 1
t1=$(now)
dd if="$target" of=/dev/null bs=1M count=16 iflag=direct || exit 1
t2=$(now)
printf '{"placeholder": "busybox dd, not iopath", "target": "%s", ' "$target"
printf '"write_seconds": %s, "read_seconds": %s, "bytes": 16777216}\n' \
	"$(echo "$t1 $t0" | awk '{print $1 - $2}')" "$(echo "$t2 $t1" | awk '{print $1 - $2}')"
