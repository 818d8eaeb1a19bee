#!/bin/bash
# cost: 234 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# The wire fuzzer (issue 13, Documentation/dev-tools/wire-fuzz.rst): forged
# and mutated RoCEv2 packets with valid ICRCs (wire_fuzz) against live QPs
# while the data oracle runs RC and UC traffic on the same device.
#   rxe0 in ns1 (10.0.0.1) and rxe1 in ns2 (10.0.0.2), ns_pair_up; ns2's
#   veth also has 10.0.0.3 (the victims' peer) and 10.0.0.9 (nobody's).
#   wire_victim --fuzz on rxe0: RC/UC sentinels (rcs, ucs), exposed RC/UC
#   (rc with a READ outstanding, uc), UD, all in RTS with 10.0.0.3 as peer,
#   their memory inside guard patterns, plus an MR without remote access
#   and one on a PD no QP has.
#   rdma_oracle, RC and UC (--until the fuzzing ends), client on rxe0, server on rxe1.
#   wire_fuzz in ns2, raw socket (any source) and UDP sockets bound to
#   10.0.0.3 and 10.0.0.9, at rxe0: every victim QP (sentinels only from
#   wrong addresses), and from addresses that are no QP's peer the
#   oracle's QPNs, random QPNs and QPNs no QP can have.
# Rounds of fuzzing; after each the victim reports and the exposed QPs are
# brought back to RTS.  Checked:
#   - no guard byte changed, in any round (incl. both extra MRs);
#   - the sentinels: no window byte, no receive, no error, still RTS;
#   - both oracle runs PASS (their QPs were not disturbed), and they were
#     still running when the fuzzing ended;
#   - rxe0's counters: rcvd_icrc_err grew by what the fuzzer sent with a
#     bad ICRC or too short for one (within the packets whose UDP length
#     lied), rcvd_dropped and rcvd_pkts at least by what must be dropped
#     and parsed (wire_fuzz's "expect" line);
#   - afterwards the sentinels work for legitimate packets from the peer:
#     roce_inject.py's RC and UC WRITE and RC SEND land (an ICRC made by
#     zlib, not by wire_fuzz), a wire_fuzz legit RC request with AckReq
#     is answered (sent_pkts), a UD SEND is received;
#   - the harness checks the kernel log (WARN, BUG, KASAN, lockdep...).
# WIRE_FUZZ_SEED=N (with VM_ENV=WIRE_FUZZ_SEED) repeats a run's packets;
# round R uses seed N+R.  make check: 2 rounds of 1500 packets; check-full
# 12 rounds of 5000 (20x).
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"
. "$REPO/tools/testing/vm/oracle.sh"
F=$REPO/build/selftests/wire_fuzz
V=$REPO/build/selftests/wire_victim
INJ=$REPO/tools/testing/vm/roce_inject.py
C=/sys/class/infiniband/rxe0/ports/1/hw_counters
[ -x "$F" ] && [ -x "$V" ] || die "$F or $V not built (make check builds them)"

rounds=$(by_tier 2 12)
packets=$(by_tier 1500 5000)
round_secs=$(by_tier 10 40)
seed=${WIRE_FUZZ_SEED:-$(((RANDOM << 15 | RANDOM) % 1000000000))}
echo "rxe-wire-fuzz: seed $seed ($rounds rounds of $packets packets; WIRE_FUZZ_SEED=$seed repeats)"

cleanup() {
	[ -n "${VICTIM_PID:-}" ] && kill "$VICTIM_PID" 2>/dev/null
	[ -n "${DONE:-}" ] && touch "$DONE"
	ns_pair_down
}
trap cleanup EXIT
stack_load ours || die "load our stack"
ns_pair_up
ip -n ns2 addr add 10.0.0.3/24 dev veth1 && ip -n ns2 addr add 10.0.0.9/24 dev veth1 ||
	die "extra addresses in ns2"
# forged sources from anywhere must reach rxe0 (no reverse-path filter)
ip netns exec ns1 sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.veth0.rp_filter=0 \
	net.ipv4.conf.default.rp_filter=0 || die "rp_filter"

# counters NAME...: rxe0's values, one read of sysfs in ns1
counters() {
	local -A v
	local l
	while IFS=: read -r k l; do v[$k]=$l; done < <(ip netns exec ns1 sh -c "cd $C && grep . *")
	for k in "$@"; do printf '%s ' "${v[$k]:-0}"; done
}

coproc VICTIM { ip netns exec ns1 env VERBS_DEV=rxe0 "$V" --fuzz 10.0.0.3 2>&1; }
declare -A T
TARGETS=()
while read -r -t 60 kw rest <&"${VICTIM[0]}"; do
	case "$kw" in
	target) n=${rest#name=}; T[${n%%,*}]=$rest; TARGETS+=(--target "$rest") ;;
	badrkeys) BADRKEYS=$rest ;;
	ready) break ;;
	*) die "wire_victim: $kw $rest" ;;
	esac
done
[ "${#TARGETS[@]}" = 10 ] || die "wire_victim did not start (${#TARGETS[@]} target arguments)"
# field NAME KEY: a value from the victim's target line
field() { local s=",${T[$1]},"; s=${s#*,"$2"=}; echo "${s%%,*}"; }
printf 'victim: %s\n' "${T[@]}"

# check LABEL [open]: the victim's report; fails on any guard byte and,
# unless "open", on any change to a sentinel.  Leaves the report in $REPORT.
fails=0
check() {
	local line name g k rest bad=
	REPORT=
	echo check >&"${VICTIM[1]}"
	while read -r -t 60 line <&"${VICTIM[0]}"; do
		REPORT+="$line"$'\n'
		read -r name k g rest <<<"$line"
		[ "$k" = guard ] && [ "$g" != 0 ] && bad+=" $name:guard"
		case "$name" in
		rcs | ucs)
			# "guard G window W recvs R errs E flushed F reads D state S"
			[ "${2:-}" = open ] ||
				[[ "$rest" == "window 0 recvs 0 errs 0 flushed 0 reads 0 state RTS"* ]] ||
				bad+=" $name:changed"
			;;
		end) break ;;
		esac
	done
	[ -n "$line" ] || die "wire_victim stopped"
	echo "--- victim after $1:"
	printf '%s' "$REPORT" | sed 's/^/    /'
	if [ -n "$bad" ]; then
		echo "FAIL $1:$bad"
		fails=$((fails + 1))
	fi
}

check start
read -r icrc0 drop0 pkts0 <<<"$(counters rcvd_icrc_err rcvd_dropped rcvd_pkts)"

# The oracle: RC and UC between rxe0 (client, ns1) and rxe1 (server, ns2),
# repeating short plans until the fuzzing has ended (the file $DONE).
# Each side's timeout only bounds a hang: every round's packets plus far
# more than the checks between rounds take under a loaded TCG.
DONE=/tmp/wf-fuzz-done
rm -f "$DONE"
ORACLE_TIMEOUT=$((rounds * (round_secs + 120) + 300))
( oracle_run rc-under-fuzz ns2 ns1 10.0.0.2 rxe1 rxe0 --qp rc -g "$NS_G4" --mtu 1024 \
	--iters 4 --max-size 4096 --until "$DONE"
  oracle_judge rc-under-fuzz pass ) >/tmp/wf-oracle-rc.out 2>&1 &
RC_PID=$!
( ORACLE_PORT=18700 oracle_run uc-under-fuzz ns2 ns1 10.0.0.2 rxe1 rxe0 --qp uc -g "$NS_G4" \
	--mtu 1024 --iters 4 --max-size 4096 --until "$DONE"
  oracle_judge uc-under-fuzz pass ) >/tmp/wf-oracle-uc.out 2>&1 &
UC_PID=$!
# their QPNs on rxe0: the client's "local ... qpn 0x.." line
POOL=
for label in rc-under-fuzz uc-under-fuzz; do
	for ((i = 0; i < 240; i++)); do
		q=$(grep -o -m 1 'rxe0 port 1 [^;]* qpn 0x[0-9a-f]*' "$ORACLE_WORK/$label.client" 2>/dev/null)
		[ -n "$q" ] && break
		sleep 0.5
	done
	[ -n "$q" ] || { cat /tmp/wf-oracle-*.out "$ORACLE_WORK"/*; die "$label: no QPN from the oracle"; }
	POOL+=${POOL:+,}${q##* }
done
echo "oracle QPNs on rxe0 (aimed at from wrong addresses): $POOL"

exp_icrc=0 exp_icrc_max=0 exp_drop=0 exp_pkts=0 alone=
t0=$SECONDS
for ((r = 1; r <= rounds; r++)); do
	ip netns exec ns2 "$F" --dst 10.0.0.1 "${TARGETS[@]}" --right 10.0.0.2,10.0.0.3 \
		--udp 10.0.0.3,10.0.0.9 --pool "$POOL" --bad-rkeys "$BADRKEYS" \
		--seed $((seed + r)) --packets "$packets" --seconds "$round_secs" >/tmp/wf-fuzz.out 2>&1 ||
		{ cat /tmp/wf-fuzz.out; die "wire_fuzz round $r failed"; }
	kill -0 "$RC_PID" 2>/dev/null && kill -0 "$UC_PID" 2>/dev/null || alone+=" $r"
	d=
	while read -r l; do
		[ "$r" = 1 ] || [[ "$l" == *sent* || "$l" == *expect* ]] && echo "$l"
		# wire_fuzz: expect rcvd_icrc_err MIN MAX rcvd_dropped N rcvd_pkts N
		[[ "$l" == "wire_fuzz: expect "* ]] && read -r _ _ _ a b _ c _ d <<<"$l"
	done </tmp/wf-fuzz.out
	[ -n "$d" ] || die "wire_fuzz printed no expectations"
	exp_icrc=$((exp_icrc + a)) exp_icrc_max=$((exp_icrc_max + b))
	exp_drop=$((exp_drop + c)) exp_pkts=$((exp_pkts + d))
	check "round $r"
	echo revive >&"${VICTIM[1]}"
	read -r -t 60 line <&"${VICTIM[0]}" || die "wire_victim stopped"
	[ "$line" = "revived 3" ] || { echo "FAIL round $r: $line"; fails=$((fails + 1)); }
done
echo "fuzzing: $((SECONDS - t0)) s"
touch "$DONE"
if [ -n "$alone" ]; then
	echo "FAIL the oracle had ended before the packets of round(s)$alone did"
	fails=$((fails + 1))
fi

# Counters: everything the fuzzer sent has been through rxe_rcv() (softirq);
# the ICRC count must land between what was certain and what was possible.
for ((i = 0; i < 20; i++)); do
	read -r icrc drop pkts <<<"$(counters rcvd_icrc_err rcvd_dropped rcvd_pkts)"
	[ $((icrc - icrc0)) -ge "$exp_icrc" ] && break
	sleep 0.5
done
d_icrc=$((icrc - icrc0)) d_drop=$((drop - drop0)) d_pkts=$((pkts - pkts0))
echo "rxe0 counters: rcvd_icrc_err +$d_icrc (expected $exp_icrc..$exp_icrc_max)," \
	"rcvd_dropped +$d_drop (>= $exp_drop), rcvd_pkts +$d_pkts (>= $exp_pkts)"
[ "$d_icrc" -ge "$exp_icrc" ] && [ "$d_icrc" -le "$exp_icrc_max" ] ||
	{ echo "FAIL rcvd_icrc_err"; fails=$((fails + 1)); }
[ "$d_drop" -ge "$exp_drop" ] || { echo "FAIL rcvd_dropped"; fails=$((fails + 1)); }
[ "$d_pkts" -ge "$exp_pkts" ] || { echo "FAIL rcvd_pkts"; fails=$((fails + 1)); }

# The oracle's QPs were not disturbed.
wait "$RC_PID" || fails=$((fails + 1))
wait "$UC_PID" || fails=$((fails + 1))
cat /tmp/wf-oracle-rc.out /tmp/wf-oracle-uc.out

# The sentinels still work for their peer: WRITEs (64 bytes of 0xee at the
# window's start) and an RC SEND by roce_inject.py, then one legitimate RC
# request and one UD SEND by wire_fuzz; each RC request with AckReq is
# answered (sent_pkts).
check "the fuzzing" open >/dev/null
udr0=$(sed -n 's/^ud .* recvs \([0-9]*\) .*/\1/p' <<<"$REPORT")
ip netns exec ns2 python3 "$INJ" 10.0.0.3 10.0.0.1 \
	"rcwrite:$(field rcs qpn):0:$(field rcs rkey):$(field rcs va)" \
	"ucwrite:$(field ucs qpn):0:$(field ucs rkey):$(field ucs va)" \
	"rcsend:$(field rcs qpn):1" >/dev/null || die "roce_inject"
read -r sent1 <<<"$(counters sent_pkts)"
ip netns exec ns2 "$F" --dst 10.0.0.1 --target "${T[rcs]/mode=sentinel/mode=exposed},psn=2" \
	--classes legit --packets 1 --seed "$seed" >/tmp/wf-legit.out 2>&1 ||
	{ cat /tmp/wf-legit.out; die "wire_fuzz legit RC"; }
ip netns exec ns2 "$F" --dst 10.0.0.1 --target "${T[ud]}" --classes legit --packets 1 \
	--seed "$seed" >>/tmp/wf-legit.out 2>&1 || { cat /tmp/wf-legit.out; die "wire_fuzz legit UD"; }
for ((i = 0; i < 20; i++)); do
	sleep 0.5
	check "legitimate packets" open >/dev/null
	read -r sent2 <<<"$(counters sent_pkts)"
	rcs=$(grep '^rcs ' <<<"$REPORT") ucs=$(grep '^ucs ' <<<"$REPORT") ud=$(grep '^ud ' <<<"$REPORT")
	read -r _ _ _ _ rcsw _ rcsr _ <<<"$rcs"
	udr=$(sed -n 's/^ud .* recvs \([0-9]*\) .*/\1/p' <<<"$REPORT")
	# rcs: the 64 bytes and the SEND; the legit request was executed and
	# acknowledged (an ACK, and still RTS: a NAK would have moved it to ERR)
	[ "$rcsw" -ge 64 ] && [ "$rcsr" -ge 1 ] &&
		[[ "$ucs" == "ucs guard 0 window 64 "* ]] && [ "$sent2" -gt "$sent1" ] &&
		[[ "$rcs" == *"state RTS"* ]] && [ "$udr" -gt "$udr0" ] && break
done
echo "after legitimate packets from the peer (sent_pkts +$((sent2 - sent1))):"
printf '    %s\n' "$rcs" "$ucs" "$ud"
if [ "$i" = 20 ]; then
	echo "FAIL the sentinels did not take their peer's packets"
	fails=$((fails + 1))
fi
check "the end" open

exec {VICTIM[1]}>&-
wait "$VICTIM_PID"
VICTIM_PID=
[ "$fails" = 0 ] || die "$fails wire fuzz check(s) failed (seed $seed)"
echo "rxe-wire-fuzz: ok"
