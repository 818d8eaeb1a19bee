#!/usr/bin/env bash
# Build (once) the test kernel into a cache outside the work tree.
#
#   build-kernel.sh [--flavor F]        build if needed, print the build dir
#   build-kernel.sh [--flavor F] --dir  print the build dir, build nothing
#
# Flavors: "debug" (default; the whole fragment, with KASAN, lockdep,
# kmemleak...) for tests, and "perf" (the fragment without its debug set
# and BTF, with SLUB) for benchmarks (make bench) and for measuring what
# the debug set costs.
#
# The cache key is the linux-source-6.1 package version plus a hash of the
# config fragment's option lines and of RECIPE below; a second run with the same key is a
# no-op, a changed fragment builds a new tree beside the old one.
set -euo pipefail

RECIPE=1        # bump when the build steps below change meaning
here=$(cd "$(dirname "$0")" && pwd)
flavor=debug
dir_only=0
while [ $# -gt 0 ]; do
	case "$1" in
	--flavor) flavor=$2; shift ;;
	--dir) dir_only=1 ;;
	*) echo "build-kernel: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
case "$flavor" in
debug) frag=$here/kernel.config ;;
perf)
	frag=$(mktemp /tmp/kernel-perf.XXXXXX.config)
	trap 'rm -f "$frag"' EXIT
	# no debug set and no BTF (DWARF+pahole double the build; benchmarks
	# don't run bpftrace), but SLUB: the debug set is what selects it over
	# tinyconfig's SLOB, and a benchmark wants the production allocator
	{ sed -e '/^# --- debug set/,/^# --- end debug set/d' \
	      -e '/^# --- BTF/,/^$/d' "$here/kernel.config"
	  echo 'CONFIG_SLUB=y'; } >"$frag" ;;
*) echo "build-kernel: unknown flavor $flavor" >&2; exit 2 ;;
esac
src_tar=${KERNEL_SRC_TAR:-/usr/src/linux-source-6.1.tar.xz}
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/rdma-oot/kernel

src_ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
# hash what kconfig reads (option lines), so comment edits don't rebuild
frag_hash=$( { grep -E '^(CONFIG_|# CONFIG_[A-Z0-9_]+ is not set)' "$frag"
	       echo "recipe=$RECIPE"; } | sha256sum | cut -c1-12)
dir=$cache_root/linux-$src_ver-$frag_hash
[ "$flavor" = debug ] || dir=$dir-$flavor

if [ "$dir_only" = 1 ]; then
	echo "$dir"
	exit 0
fi

if [ -f "$dir/.built" ]; then
	echo "$dir"
	exit 0
fi

if [ ! -r "$src_tar" ]; then
	echo "build-kernel: $src_tar missing; run: apt-get install linux-source-6.1" >&2
	exit 1
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.lock"
flock 9
if [ -f "$dir/.built" ]; then	# another build finished while we waited
	echo "$dir"
	exit 0
fi

log=$dir.log
echo "build-kernel: building test kernel in $dir (log: $log)" >&2
start=$(date +%s)
rm -rf "$dir"
mkdir -p "$dir"
{
	tar -xf "$src_tar" -C "$dir" --strip-components=1
	cd "$dir"
	make ARCH=x86_64 tinyconfig
	./scripts/kconfig/merge_config.sh -m .config "$frag"
	make ARCH=x86_64 olddefconfig
} >"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }

# Every option the fragment sets must survive olddefconfig, except the few
# kconfig forces (documented in Documentation/dev-tools/test-kernel.rst).
allowed_drift='^CONFIG_NET_UDP_TUNNEL='
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | grep -Ev "$allowed_drift" |
	  while read -r line; do grep -qxF "$line" "$dir/.config" || echo "$line"; done)
if [ -n "$missing" ]; then
	echo "build-kernel: options dropped by olddefconfig:" >&2
	echo "$missing" >&2
	exit 1
fi

jobs=$(( $(nproc) + 1 ))
if ! (cd "$dir" && make ARCH=x86_64 -j"$jobs" bzImage modules &&
      make ARCH=x86_64 modules_install INSTALL_MOD_PATH="$dir/modroot") >>"$log" 2>&1; then
	tail -40 "$log" >&2
	exit 1
fi
end=$(date +%s)
echo "$((end - start))" >"$dir/.build-seconds"
make -s -C "$dir" kernelrelease >"$dir/.kernelrelease"
touch "$dir/.built"
echo "build-kernel: done in $((end - start)) s" >&2
echo "$dir"
