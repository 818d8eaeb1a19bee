#!/bin/bash
# cost: 166 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# rdma-core's own ODP tests (pyverbs, tests/test_odp.py of rdma-core v44, as
# Debian ships them in /usr/share/doc/rdma-core/tests) on our rxe0, one
# device talking to itself.  Each test in PYVERBS_ODP_MUST must report
# "ok": a skip (the capability it asks for is not advertised) or an
# error fails the scenario; the others may skip (XRC, implicit MRs and
# prefetch are not offered by rxe).  The huge-page tests get 16 pages of
# 2 MiB.  Then the proof: with
# every 5th payload packet corrupted (test_corrupt_every), pyverbs'
# content check must fail test_odp_rc_traffic.
# Upstream 6.1 rxe has no ODP: every test would skip.
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/oracle.sh"

SRC=/usr/share/doc/rdma-core/tests
[ -f "$SRC/run_tests.py" ] || die "$SRC: rdma-core's tests are not installed (package rdma-core)"
python3 -c 'import pyverbs' 2>/dev/null || die "python3-pyverbs is not installed"

MUST=${PYVERBS_ODP_MUST:-"test_odp_rc_traffic test_odp_rc_atomic_cmp_and_swp
test_odp_rc_atomic_fetch_and_add test_odp_rc_rdma_read test_odp_rc_rdma_write
test_odp_ud_traffic test_odp_rc_srq_traffic test_odp_rc_huge_traffic
test_odp_rc_huge_user_addr_traffic"}

W=$(mktemp -d /tmp/pyverbs.XXXXXX)
trap 'rm -rf "$W"; rxe0_down' EXIT
cp -r "$SRC" "$W/tests" || die "copy $SRC"
gunzip -f "$W"/tests/*.gz || die "gunzip the tests"

# pyverbs_odp LOG: run test_odp on rxe0 (IPv4 RoCEv2 GID, index 1)
pyverbs_odp() {
	(cd "$W/tests" && timeout -k 5 300 python3 run_tests.py --dev rxe0 --gid 1 \
		-v -k test_odp) >"$1" 2>&1
}

# verdict NAME LOG: what unittest said of test NAME ("ok", "FAIL", "ERROR",
# "skipped ..."), empty when it did not run
verdict() {
	sed -n "s/^$1 (.*) \.\.\. \(.*\)$/\1/p" "$2" | head -n 1
}

# the huge-page tests need 2 MiB pages in the pool
huge_before=$(cat /proc/sys/vm/nr_hugepages)
echo 16 >/proc/sys/vm/nr_hugepages
[ "$(cat /proc/sys/vm/nr_hugepages)" -ge 4 ] || die "no 2 MiB huge pages: $(grep Huge /proc/meminfo)"
trap 'rm -rf "$W"; rxe0_down; echo "$huge_before" >/proc/sys/vm/nr_hugepages' EXIT

stack_load ours || die "load our stack"
rxe0_up
fails=0
pyverbs_odp "$W/run.log"
echo "pyverbs test_odp: exit $?"
grep -E '^(test_odp|Ran |OK|FAILED)' "$W/run.log"
for t in $MUST; do
	v=$(verdict "$t" "$W/run.log")
	if [ "$v" = ok ]; then
		echo "ok: $t"
	else
		echo "FAIL: $t: ${v:-did not run}"
		fails=$((fails + 1))
	fi
done
grep -q '^FAILED' "$W/run.log" && { echo "FAIL: unittest reports failures"; fails=$((fails + 1)); }
[ "$fails" = 0 ] || sed -n '/^=\{10,\}/,$p' "$W/run.log" | head -60

# the proof: corrupted payloads must fail pyverbs' content check, in
# utils.validate(): a wrong byte, or one that is not even UTF-8 there
BAD_DATA="Data validation failure|UnicodeDecodeError: 'utf-8' codec can't decode"
rxe_param test_corrupt_every 5
pyverbs_odp "$W/corrupt.log"
rxe_param test_corrupt_every 0
v=$(verdict test_odp_rc_traffic "$W/corrupt.log")
if [[ "$v" =~ ^(FAIL|ERROR)$ ]] && grep -qE "$BAD_DATA" "$W/corrupt.log"; then
	echo "ok: with corrupted payloads test_odp_rc_traffic reports $v (data validation failure)"
else
	echo "FAIL: with corrupted payloads test_odp_rc_traffic says '${v:-nothing}'"
	grep -E 'Error|error' "$W/corrupt.log" | head -5
	fails=$((fails + 1))
fi

rxe0_down
stack_unload || die "unload"
[ "$fails" = 0 ] || die "$fails failure(s) above"
echo "pyverbs-odp: all checks passed"
