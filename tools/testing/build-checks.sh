#!/bin/bash
# build-checks.sh RESULTS KDIR [TIMINGS]: build our modules in scratch
# copies of the tree and append "PASS|FAIL build:<check>" lines (and
# "seconds build:<check>" lines to TIMINGS).
#
#   build:w1            W=1 against the test kernel, no warning in our files
#   build:sparse        sparse (C=2), no warning in our files
#   build:cxx-compat    -Wc++-compat, no warning located in our files
#   build:stock-headers Debian's linux-headers-*-amd64 (6.1), clean build
#   build:harness       the harness's own scratch modules (self-tests)
#   build:export-signatures  every function we export under a name upstream
#                       declares (include/rdma, core/*.h of KDIR's source)
#                       has upstream's return and parameter types
#                       (tools/testing/export-signatures.py)
#   build:upstream-overlap  no code repeated from upstream Linux (only where
#                       ../shared/tools/upstream-overlap exists; the log says
#                       when it is not there)
#
# The first three are one build (W=1, C=2 and -Wc++-compat together) whose
# diagnostics are sorted by origin: gcc's "[-Wc++-compat]" ones, gcc's
# other "[-W...]" ones and errors, and untagged ones (sparse's, and the
# few warnings gcc gives without an option) under build:sparse.  That
# build is a test build (RXE_TEST_HOOKS=1: rdma_rxe's fault injection,
# drivers/infiniband/sw/rxe/rxe_test_hooks.h) and is what the VM tests load
# (build/kbuild/w1).  build:stock-headers builds what users get (no hooks).
set -u
results=$1
kdir=$2
timings=${3:-/dev/null}
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

# kbuild NAME KDIR [make args...]: build a fresh copy into $top/NAME;
# 0 when make succeeded (the log is $top/NAME.log)
kbuild() {
	local name=$1 k=$2 dest=$top/$1 log=$top/$1.log start rc
	shift 2
	start=$(date +%s)
	copy_tree "$dest"
	make -C "$k" M="$dest" "$@" modules >"$log" 2>&1
	rc=$?
	echo "$(( $(date +%s) - start )) build:$name" >>"$timings"
	if [ "$rc" != 0 ]; then
		echo "---- build $name failed:"
		grep -E 'error|Error' "$log" | head -n 40
	fi
	return "$rc"
}

# judge CHECK OK LINES_FILE: PASS when make succeeded (OK=0) and
# LINES_FILE is empty
judge() {
	if [ "$2" != 0 ]; then
		record FAIL "$1"
	elif [ -s "$3" ]; then
		record FAIL "$1"
		echo "---- build:$1: diagnostics in our files:"
		head -n 40 "$3"
	else
		record PASS "$1"
	fi
}

jobs=$(( $(nproc) + 1 ))
kbuild w1 "$kdir" -j"$jobs" W=1 C=2 KCFLAGS=-Wc++-compat RXE_TEST_HOOKS=1
ok=$?
log=$top/w1.log
our_diagnostics "$top/w1" "$log" >"$log.ours"
grep -F '[-Wc++-compat]' "$log.ours" >"$log.cxx-compat"
grep -vF '[-Wc++-compat]' "$log.ours" | grep -E '\[-W[^]]*\]$|: error|modpost' >"$log.w1"
grep -vF '[-Wc++-compat]' "$log.ours" | grep -vE '\[-W[^]]*\]$|: error|modpost' >"$log.sparse"
judge w1 "$ok" "$log.w1"
judge sparse "$ok" "$log.sparse"
judge cxx-compat "$ok" "$log.cxx-compat"

stock=$(ls -d /usr/src/linux-headers-6.1*-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -z "$stock" ]; then
	record FAIL stock-headers
	echo "---- no /usr/src/linux-headers-6.1*-amd64 (apt-get install linux-headers-amd64)"
else
	kbuild stock-headers "$stock" -j"$jobs"
	ok=$?
	our_diagnostics "$top/stock-headers" "$top/stock-headers.log" >"$top/stock-headers.log.ours"
	judge stock-headers "$ok" "$top/stock-headers.log.ours"
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

if out=$(python3 "$repo/tools/testing/export-signatures.py" "$repo" "$kdir" 2>&1); then
	record PASS export-signatures
else
	record FAIL export-signatures
fi
echo "$out" | tail -n 40

overlap=$repo/../shared/tools/upstream-overlap
if [ ! -x "$overlap" ]; then
	echo "---- build:upstream-overlap not run: $overlap is not there (it exists only beside the team's work tree)"
elif out=$(cd "$repo" && "$overlap" . 2>&1); then
	record PASS upstream-overlap
else
	record FAIL upstream-overlap
	echo "$out" | head -n 40
fi
exit 0
