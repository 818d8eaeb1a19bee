#!/bin/bash
# Harness self-test: a VM that dies must fail the run, by name.
#
#   vm-dies.sh RESULTS KDIR MODDIR OUT
#
# Boots the test VM with two scenarios: harness-panic (crashes the guest
# kernel) and core-load-unload (never gets to run).  Passes
# ("PASS harness:vm-dies") only if run-vm.sh exits non-zero and records
# FAIL for both scenarios, the missing kmemleak scan, and the panic.
set -u
results=$1
kdir=$2
moddir=$3
out=$4
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/..
mkdir -p "$out"
inner=$out/results.txt
: >"$inner"

"$vm/run-vm.sh" --kdir "$kdir" --moddir "$moddir" --out "$out/vm" --results "$inner" \
	--prefix dies: --timeout 600 "$here/scenarios/harness-panic.sh" core-load-unload \
	>"$out/run-vm.out" 2>&1
rc=$?
missing=()
[ "$rc" != 0 ] || missing+=("run-vm.sh exit status non-zero (it was 0)")
for c in "FAIL dies:harness-panic" "FAIL dies:core-load-unload" "FAIL dies:kmemleak" "FAIL dies:panic"; do
	grep -qx "$c" "$inner" || missing+=("'$c'")
done
grep -q '^PASS ' "$inner" && missing+=("no PASS line (got: $(grep '^PASS ' "$inner" | tr '\n' ' '))")
if [ ${#missing[@]} = 0 ]; then
	echo "PASS harness:vm-dies" | tee -a "$results"
	exit 0
fi
echo "FAIL harness:vm-dies" | tee -a "$results"
echo "---- vm-dies: expected but missing:"
printf '  %s\n' "${missing[@]}"
echo "---- run-vm.sh said:"
tail -n 40 "$out/run-vm.out"
exit 1
