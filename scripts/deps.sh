#!/bin/sh
# Install the Debian packages iopath needs, if any is missing. As root it runs apt-get;
# otherwise it prints the exact command and fails.
#   scripts/deps.sh            build + test packages
#   scripts/deps.sh --lab      also QEMU and the guest's packages
#   scripts/deps.sh --bench    also fio, valgrind and python3 for the side-by-side benchmark
#   scripts/deps.sh --browser  also Chromium, its driver and Selenium for make html-test
#   scripts/deps.sh --consumers  also what fio-plot and cdmpy need (make consumers-test)
set -eu

pkgs="gcc make pkg-config liburing-dev libaio-dev libjansson-dev libblkid-dev libcriterion-dev libgsl-dev libnuma-dev"
pkgs="$pkgs libssl-dev libxxhash-dev libsqlite3-dev sqlite3 libpq-dev postgresql zlib1g-dev"
pkgs="$pkgs libfuse3-dev fio python3 python3-six python3-statsmodels python3-pandas gnuplot-nox strace groff-base e2fsprogs xfsprogs mount"
for arg in "$@"; do
	case "$arg" in
	--lab) pkgs="$pkgs qemu-system-x86 qemu-utils busybox-static" ;;
	--bench) pkgs="$pkgs fio valgrind python3" ;;
	--fuzz) pkgs="$pkgs clang libclang-rt-14-dev" ;;
	--mpi) pkgs="$pkgs openmpi-bin libopenmpi-dev" ;;
	--browser) pkgs="$pkgs chromium chromium-driver python3-selenium" ;;
	--consumers) pkgs="$pkgs fio python3-venv python3-pip python3-setuptools python3-wheel python3-matplotlib python3-numpy python3-pil python3-pyparsing python3-rich" ;;
	*) echo "deps.sh: unknown argument '$arg' (accepted: --lab --bench --fuzz --mpi --consumers --browser)" >&2; exit 2 ;;
	esac
done

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "iopath needs these Debian packages:$missing" >&2
	echo "run: sudo apt-get update && sudo $cmd" >&2
	exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
$cmd
