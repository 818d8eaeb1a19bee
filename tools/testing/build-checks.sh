#!/bin/bash
# build-checks.sh RESULTS KDIR: build our modules in scratch copies of the
# tree, once per check, and append "PASS|FAIL build:<check>" lines.
#
#   build:w1            W=1 against the test kernel, no warning in our files
#   build:sparse        sparse (C=2), no warning in our files
#   build:cxx-compat    -Wc++-compat, no warning located in our files
#   build:stock-headers Debian's linux-headers-*-amd64 (6.1), clean build
#   build:harness       the harness's own scratch modules (self-tests)
#   build:upstream-overlap  no code repeated from upstream Linux
#
# The W=1 copy (build/kbuild/w1) is what the VM tests load.
set -u
results=$1
kdir=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
top=$repo/build/kbuild
mkdir -p "$top"

record() {
	echo "$1 build:$2"
	echo "$1 build:$2" >>"$results"
}

# copy_tree DEST: our sources (tracked and new, not ignored) into DEST
copy_tree() {
	rm -rf "$1"
	mkdir -p "$1"
	(cd "$repo" && git ls-files -co --exclude-standard -z |
		xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
		tar --null -T - -cf -) | tar -xf - -C "$1"
}

# our_diagnostics DEST LOG: compiler/sparse/modpost diagnostics located in
# our files (kernel headers are named ./include/..., ./arch/... or by the
# kernel tree's path and are left out)
#
# One -Wc++-compat warning is left out on purpose: "identifier 'bool' (or
# 'true', 'false', 'class') conflicts with C++ keyword".  The kernel spells
# bool/true/false as a typedef of _Bool and an enum, so gcc flags every use
# in C; in C++ they are the built-in type and literals with the same
# meaning.  'class' is the kernel's own device-model type (struct class,
# struct device::class), which a driver cannot avoid naming; likewise
# 'namespace', the member of struct class that tags a class's sysfs
# entries by network namespace.  Our own declarations never use them.  The host build
# of the pure files as real C++ (tools/testing/unit) covers that ground.
our_diagnostics() {
	grep -E "^($1/[^:]+:[0-9]+(:[0-9]+)?: (warning|error)|WARNING: modpost|ERROR: modpost)" "$2" |
		grep -Ev "identifier [^ ]*(bool|true|false|class|namespace)[^ ]* conflicts with C\\+\\+ keyword"
}

# kbuild CHECK KDIR [make args...]: build a fresh copy, judge its log
kbuild() {
	local check=$1 k=$2 dest=$top/$1 log=$top/$1.log
	shift 2
	copy_tree "$dest"
	if ! make -C "$k" M="$dest" "$@" modules >"$log" 2>&1; then
		record FAIL "$check"
		echo "---- build:$check failed:"
		grep -E 'error|Error' "$log" | head -n 40
		return 1
	fi
	if our_diagnostics "$dest" "$log" >"$log.ours"; then
		record FAIL "$check"
		echo "---- build:$check: diagnostics in our files:"
		head -n 40 "$log.ours"
		return 1
	fi
	record PASS "$check"
}

jobs=$(( $(nproc) + 1 ))
kbuild w1 "$kdir" -j"$jobs" W=1
kbuild sparse "$kdir" -j"$jobs" C=2
kbuild cxx-compat "$kdir" -j"$jobs" KCFLAGS=-Wc++-compat

stock=$(ls -d /usr/src/linux-headers-6.1*-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -z "$stock" ]; then
	record FAIL stock-headers
	echo "---- no /usr/src/linux-headers-6.1*-amd64 (apt-get install linux-headers-amd64)"
else
	kbuild stock-headers "$stock" -j"$jobs"
fi

# Harness scratch modules, built into the W=1 copy so the VM finds them
# under MODDIR/tools/testing/vm/modules.
hdest=$top/w1/tools/testing/vm/modules
if [ -d "$hdest" ] && make -C "$kdir" M="$hdest" modules >"$top/harness.log" 2>&1; then
	record PASS harness
else
	record FAIL harness
	tail -n 20 "$top/harness.log" 2>/dev/null
fi

overlap=$repo/../shared/tools/upstream-overlap
if [ ! -x "$overlap" ]; then
	record FAIL upstream-overlap
	echo "---- $overlap not found"
elif out=$(cd "$repo" && "$overlap" . 2>&1); then
	record PASS upstream-overlap
else
	record FAIL upstream-overlap
	echo "$out" | head -n 40
fi
exit 0
