#!/bin/sh
# Write tests/jobs/NAME.json (the parsed jobs) for every tests/jobs/NAME.fio that has no
# NAME.err (an expected refusal). Run after a reviewed change to the parser; check the diff.
set -eu
cd "$(dirname "$0")/.."
export IOPATH_GOLDEN_BS=16k
unset IOPATH_GOLDEN_UNSET || true
for f in tests/jobs/*.fio; do
	base=${f%.fio}
	[ -e "$base.err" ] && continue
	./iopath --parse-only --output-format=json "$f" > "$base.json"
done
