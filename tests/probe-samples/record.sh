#!/bin/sh
# Record what the probe reads (mountinfo, /proc/version, cpuinfo, DMI, container markers and the
# sysfs device chain below each PATH) into a sample tree DEST that tests can use as a probe root.
#   tests/probe-samples/record.sh DEST [PATH ...]
# Run it inside the guest whose storage paths you want as samples (e.g. in scripts/vmlab).
set -eu

[ $# -ge 1 ] || { echo "usage: record.sh DEST [PATH ...]" >&2; exit 2; }
dest=$1
shift
[ $# -ge 1 ] || set -- /

# copy FILE: the file (if readable) at the same place below DEST
copy() {
	[ -r "$1" ] || return 0
	mkdir -p "$dest$(dirname "$1")"
	head -c 65536 "$1" > "$dest$1" 2>/dev/null || rm -f "$dest$1"
}

# link LINK: recreate a symlink with the same (relative) target below DEST
link() {
	[ -L "$1" ] || return 0
	mkdir -p "$dest$(dirname "$1")"
	ln -sfn "$(readlink "$1")" "$dest$1"
}

# dev DIR: a block device's sysfs directory, its drivers up to /sys/devices, and what is below it
dev() {
	d=$1
	for f in partition dev dm/name md/level loop/backing_file loop/dio \
		queue/logical_block_size queue/physical_block_size \
		queue/rotational queue/scheduler queue/write_cache queue/nr_requests \
		queue/max_sectors_kb; do
		copy "$d/$f"
	done
	if [ -L "$d/device" ]; then
		link "$d/device"
		t=$(readlink -f "$d/device")
		mkdir -p "$dest$t"
		copy "$t/model"
		copy "$t/vendor"
	fi
	if [ -f "$d/partition" ]; then
		dev "$(dirname "$d")"
		return
	fi
	for s in "$d"/slaves/*; do
		[ -L "$s" ] || continue
		link "$s"
		dev "$(readlink -f "$s")"
	done
	p=$(dirname "$d")
	while [ "$p" != /sys/devices ] && [ "$p" != / ]; do
		link "$p/driver"
		copy "$p/model"
		p=$(dirname "$p")
	done
}

for f in /proc/self/mountinfo /proc/version /proc/cpuinfo /proc/1/cgroup \
	/proc/sys/kernel/osrelease /sys/class/dmi/id/sys_vendor /sys/class/dmi/id/product_name \
	/sys/class/dmi/id/bios_vendor /run/systemd/container; do
	copy "$f"
done
for m in /.dockerenv /run/.containerenv; do
	[ -e "$m" ] && mkdir -p "$dest$(dirname "$m")" && : > "$dest$m"
done

for path in "$@"; do
	majmin=$(findmnt -n -o MAJ:MIN -T "$path" | head -n 1 | tr -d ' ')
	case "$majmin" in
	0:*|"") continue ;;
	esac
	link "/sys/dev/block/$majmin"
	dev "$(readlink -f "/sys/dev/block/$majmin")"
done
echo "recorded into $dest" >&2
