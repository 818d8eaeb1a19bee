#!/bin/bash
# deps.sh [--print]: make sure the Debian packages the build and the tests
# need are installed.  As root, missing ones are installed with apt-get;
# otherwise the exact apt-get line is printed and the script fails.
set -u
pkgs=(
	# test kernel
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	dwarves cpio kmod xz-utils python3
	# build checks
	sparse linux-headers-amd64
	# VM
	qemu-system-x86 busybox-static iproute2
	# clients run in the VM
	rdma-core ibverbs-utils ibverbs-providers rdmacm-utils perftest
	bpftrace python3-pyverbs
	# host tests
	cmake g++ clang libclang-rt-14-dev googletest libgtest-dev
	libbenchmark-dev libibverbs-dev librdmacm-dev
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ] || [ "${1:-}" = --print ]; then
	echo "missing packages; run as root:" >&2
	echo "  apt-get update && $line" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/rdma-oot-apt.log 2>&1 ||
	{ tail -n 20 /tmp/rdma-oot-apt.log >&2; exit 1; }
