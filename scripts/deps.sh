#!/bin/sh
# Install the Debian packages iopath needs, if any is missing. As root it runs apt-get;
# otherwise it prints the exact command and fails.
#   scripts/deps.sh            build + test packages
#   scripts/deps.sh --lab      also QEMU and the guest's packages
#   scripts/deps.sh --bench    also fio, valgrind and python3 for the side-by-side benchmark
#   scripts/deps.sh --browser  also Chromium, its driver and Selenium for make html-test
#   scripts/deps.sh --consumers  also what fio-plot and cdmpy need (make consumers-test)
#   scripts/deps.sh --lab-upgrade  also --lab's packages, and QEMU 10.0 from bookworm-backports
#       fetched (not installed) into ~/.cache/iopath/qemu-upgrade for make lab-upgrade-test:
#       apt-get download through a private sources list and lists directory built from the
#       mirror this machine's apt sources name for bookworm (nothing in /etc/apt changes), then
#       dpkg-deb -x; prints the binary's path. QEMU_UPGRADE_VERSION pins another version.
set -eu

pkgs="gcc make pkg-config liburing-dev libaio-dev libjansson-dev libblkid-dev libcriterion-dev libgsl-dev libnuma-dev"
pkgs="$pkgs libssl-dev libxxhash-dev libsqlite3-dev sqlite3 libpq-dev postgresql zlib1g-dev"
pkgs="$pkgs libfuse3-dev fio python3 python3-six python3-statsmodels python3-pandas gnuplot-nox strace groff-base e2fsprogs xfsprogs mount"
upgrade=0
for arg in "$@"; do
	case "$arg" in
	--lab) pkgs="$pkgs qemu-system-x86 qemu-utils busybox-static" ;;
	--lab-upgrade) pkgs="$pkgs qemu-system-x86 qemu-utils busybox-static"; upgrade=1 ;;
	--bench) pkgs="$pkgs fio valgrind python3" ;;
	--fuzz) pkgs="$pkgs clang libclang-rt-14-dev" ;;
	--mpi) pkgs="$pkgs openmpi-bin libopenmpi-dev" ;;
	--browser) pkgs="$pkgs chromium chromium-driver python3-selenium" ;;
	--consumers) pkgs="$pkgs fio python3-venv python3-pip python3-setuptools python3-wheel python3-matplotlib python3-numpy python3-pil python3-pyparsing python3-rich" ;;
	*) echo "deps.sh: unknown argument '$arg' (accepted: --lab --lab-upgrade --bench --fuzz --mpi --consumers --browser)" >&2; exit 2 ;;
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
if [ -n "$missing" ]; then
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
fi
[ "$upgrade" = 1 ] || exit 0

# --lab-upgrade: QEMU 10.0 from bookworm-backports, unpacked into the cache, never installed.
up="${XDG_CACHE_HOME:-$HOME/.cache}/iopath/qemu-upgrade"
bin="$up/root/usr/bin/qemu-system-x86_64"
fail() { echo "deps.sh --lab-upgrade: $*" >&2; exit 1; }
runs() { "$bin" -L "$up/root/usr/share/qemu" -L "$up/root/usr/share/seabios" --version 2>/dev/null | head -n 1; }
if [ -x "$bin" ] && [ -z "${QEMU_UPGRADE_VERSION:-}" ] && runs | grep -q "version 10\.0"; then
	echo "deps.sh: $(runs) already in $up ($(paste -sd' ' "$up/VERSIONS" 2>/dev/null))" >&2
	echo "$bin"
	exit 0
fi
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ "$codename" = bookworm ] || { echo "deps.sh --lab-upgrade: this system is '$codename'; the upgrade is bookworm-backports' QEMU 10.0, for Debian bookworm" >&2; exit 2; }
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || fail "$keyring is missing (package debian-archive-keyring)"
# The mirror the machine's own apt sources use for bookworm (one-line or deb822 files alike).
# shellcheck disable=SC2016
mirror=$(apt-get indextargets --format '$(TARGET_OF) $(RELEASE) $(REPO_URI)' 2>/dev/null |
	awk '$1 == "deb" && $2 == "bookworm" { print $3; exit }')
[ -n "$mirror" ] || fail "no apt source of this machine names bookworm (apt-get indextargets): cannot tell which mirror to use"
apt="$up/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$up/debs"
echo "deb [signed-by=$keyring] $mirror bookworm-backports main" >"$apt/sources.list"
priv() {
	tool=$1
	shift
	"$tool" -q -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" "$@"
}
echo "deps.sh: bookworm-backports from $mirror (private lists in $apt)" >&2
priv apt-get update >"$up/apt.log" 2>&1 || fail "apt-get update of bookworm-backports failed: $(tail -n 1 "$up/apt.log")"
ver="${QEMU_UPGRADE_VERSION:-}"
if [ -z "$ver" ]; then
	ver=$(priv apt-cache madison qemu-system-x86 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' |
		grep '^1:10\.0\.' | sort -V | tail -n 1)
	[ -n "$ver" ] || fail "bookworm-backports has no qemu-system-x86 1:10.0.* (it has: $(priv apt-cache madison qemu-system-x86 2>/dev/null | awk -F'|' '{ print $2 }' | tr -d ' ' | tr '\n' ' '))"
fi
rm -f "$up/debs/"*.deb
(cd "$up/debs" && priv apt-get download "qemu-system-x86=$ver" "qemu-system-data=$ver" \
	"qemu-system-common=$ver" seabios) >>"$up/apt.log" 2>&1 ||
	fail "apt-get download of qemu-system-x86=$ver failed: $(tail -n 1 "$up/apt.log")"
rm -rf "$up/root.new"
mkdir -p "$up/root.new"
: >"$up/VERSIONS.new"
for deb in "$up/debs/"*.deb; do
	dpkg-deb -x "$deb" "$up/root.new"
	dpkg-deb --showformat='${Package}=${Version}\n' -W "$deb" >>"$up/VERSIONS.new"
done
lost=$(ldd "$up/root.new/usr/bin/qemu-system-x86_64" | awk '/not found/ { print $1 }' | tr '\n' ' ')
[ -z "$lost" ] || fail "QEMU $ver needs libraries this system lacks: $lost(bookworm's packages of them must be installed)"
rm -rf "$up/root"
mv "$up/root.new" "$up/root"
mv "$up/VERSIONS.new" "$up/VERSIONS"
runs | grep -q "version" || fail "$bin does not start: $("$bin" --version 2>&1 | tail -n 1)"
echo "deps.sh: $(runs) in $up (not installed: $(paste -sd' ' "$up/VERSIONS"))" >&2
echo "$bin"
