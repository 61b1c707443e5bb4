#!/bin/sh
# shorten-job.sh IN OUT DIR: a fio job file made short and harmless for a test run: every
# section gets size=1m, directory=DIR and runtime=250ms (sizes and offset_increment given are
# cut to 1m, runtimes to 250ms: rate= and thinktime= examples would otherwise take minutes, as
# in fio),
# byte and loop limits, ramps and delays go, files live in DIR, at most 2 workers per job and
# 64 requests in flight. A job of a file-operation engine (filecreate, filestat, filedelete)
# gets directory=DIR and nrfiles of 10000 and up cut to 2000, nothing else: its cost is per
# file (nrfiles=200 runs as written; filecreate's 16 jobs x 31250 files, 500000 creations,
# take some 10 s on an idle disk and over a minute on a busy one). zonemode=zbd files get
# 512k zones (two in the 1m file) and
# offset=0, their file standing in for a zoned device. With a fourth argument "names", each
# plain filename=NAME becomes DIR/data-NAME instead of every one DIR/data (jobs on different
# files stay apart).
set -eu
# A file that verifies gets 10 s, not 250 ms, unless it is paced or timed: its verify phase reads
# what a write phase wrote, and a write phase cut at 250 ms on a busy disk leaves blocks unwritten
# (surface-scan.fio failed so). fill_device goes: size=1m is the device to fill.
rt=250ms
if grep -Eq "^[[:space:]]*(do_)?verify[[:space:]]*=" "$1" &&
	! grep -Eq "^[[:space:]]*(rate[a-z_]*|thinktime[a-z_]*|time_based)[[:space:]]*(=|\$)" "$1"; then
	rt=10s
fi
fname="s#^[[:space:]]*filename[[:space:]]*=.*#filename=$3/data#"
if [ "${4:-}" = names ]; then
	fname="s#^[[:space:]]*filename[[:space:]]*=[[:space:]]*([A-Za-z0-9._-]+)[[:space:]]*\$#filename=$3/data-\1#;\\#^filename=$3/data-#!$fname"
fi
if grep -Eq "^[[:space:]]*ioengine[[:space:]]*=[[:space:]]*file(create|stat|delete)[[:space:]]*\$" "$1"; then
	sed -E -e "s#^[[:space:]]*directory[[:space:]]*=.*#directory=$3#" \
		-e "s#^[[:space:]]*nrfiles[[:space:]]*=[[:space:]]*[0-9]{5,}.*#nrfiles=2000#" \
		-e "s#^[[:space:]]*(\[[^]]*\]).*#\1\ndirectory=$3#" "$1" > "$2"
	exit 0
fi
zsize='s#^##'
zoff='s#^##'
if grep -Eq "^[[:space:]]*zonemode[[:space:]]*=[[:space:]]*zbd" "$1"; then
	zsize="s#^[[:space:]]*zonesize[[:space:]]*=.*#zonesize=512k#"
	zoff="s#^[[:space:]]*offset[[:space:]]*=.*#offset=0#"
fi
sed -E -e "$zsize" -e "$zoff" -e "s#^[[:space:]]*(size|filesize|offset_increment)[[:space:]]*=.*#\1=1m#" \
	-e "s#^[[:space:]]*(runtime|timeout)[[:space:]]*=.*#runtime=$rt#" \
	-e "s#^[[:space:]]*(io_size|io_limit|loops|ramp_time|number_ios|startdelay|fill_device)[[:space:]]*=.*##" \
	-e "$fname" \
	-e "s#^[[:space:]]*directory[[:space:]]*=.*#directory=$3#" \
	-e "s#^[[:space:]]*numjobs[[:space:]]*=.*#numjobs=2#" \
	-e "s#^[[:space:]]*iodepth[[:space:]]*=[[:space:]]*([0-9]{3,}).*#iodepth=64#" \
	-e "s#^[[:space:]]*(\[[^]]*\]).*#\1\nsize=1m\ndirectory=$3\nruntime=$rt#" \
	"$1" > "$2"
