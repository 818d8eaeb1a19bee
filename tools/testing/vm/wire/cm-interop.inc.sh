# shellcheck shell=bash
# rdma_cm across the wire, sourced by rxe-interop.inc.sh once its oracle
# runs are done (same boot, same rxe0, same SIDE/ADDR/PEER): the stock
# librdmacm tools with the server in A and the client in B, then the other
# way round.  A runs our ib_cm/rdma_cm/rdma_ucm over our rxe, B upstream's
# over upstream's rxe: every connection is set up by the MADs of one stack
# and answered by the other.  Each VM judges its own side (status 0 and
# the tool's success line):
#   rping      -V: every ping's payload verified by the server; the client
#              prints each ping it got back (-v), all COUNT must be there
#   ucmatose   connections x messages (RC), "return status 0"
#   udaddy     UD through SIDR, "return status 0"
# make check-full adds rping over IPv6 and larger sizes, and perftest -R
# (ib_send_bw, ib_write_lat, ib_read_bw: perftest's QPs connected by
# rdma_cm), both directions.  Labels in CM_KNOWN_GAPS (none today) are run
# and reported as GAP lines, not counted as passed.
#
# Sides are not synchronised: a client that finds no listener yet (REJ or
# SIDR "unsupported": the server side is still busy with the run before)
# tries again for up to CM_WAIT seconds.  A client that got connected and
# then failed is not retried.

CM_WAIT=${CM_WAIT:-120}
CM_KNOWN_GAPS=${CM_KNOWN_GAPS-}
CM_PORT=20100
CM_W=$(mktemp -d)

# cm_insmod: our CM modules (stack_load ours loads the verbs stack only)
cm_modules() {
	local m
	[ "$SIDE_STACK" = ours ] || return 0
	for m in ib_cm rdma_cm rdma_ucm; do
		grep -q "^$m " /proc/modules && continue
		insmod "$MODDIR/drivers/infiniband/core/$m.ko" || die "insmod $m"
	done
}

# cm_no_listener FILE: the client's output says nobody listened (yet)
cm_no_listener() {
	grep -qE 'RDMA_CM_EVENT_(REJECTED|UNREACHABLE)|Unexpected CM event|Connection refused' "$1"
}

# cm_run LABEL SERVER_SIDE TIMEOUT OK_REGEX -- SERVER ARGS... -- CLIENT ARGS...
cm_run() {
	local label=$1 sside=$2 t=$3 okre=$4 run out rc end tries=0
	shift 4
	local -a srv=() cli=() cmd
	[ "$1" = -- ] && shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do srv+=("$1"); shift; done
	shift
	cli=("$@")
	run=$label-server-$sside
	CM_PORT=$((CM_PORT + 1))
	out=$CM_W/$run.out
	if [ "$sside" = "$SIDE" ]; then
		cmd=("${srv[@]}")
		timeout -k 5 "$((t + CM_WAIT))" "${cmd[@]}" >"$out" 2>&1
		rc=$?
	else
		cmd=("${cli[@]}")
		end=$((SECONDS + CM_WAIT))
		while :; do
			tries=$((tries + 1))
			timeout -k 5 "$t" "${cmd[@]}" >"$out" 2>&1
			rc=$?
			[ "$rc" != 0 ] && cm_no_listener "$out" && [ "$SECONDS" -lt "$end" ] || break
			sleep 2
		done
	fi
	if [[ " $CM_KNOWN_GAPS " == *" $label "* ]]; then
		echo "GAP cm:$run (known gap; status $rc): ${cmd[*]}" | tee -a "$CM_W/results"
		return 0
	fi
	if [ "$rc" = 0 ] && { [ -z "$okre" ] || grep -qE "$okre" "$out"; }; then
		if [ "$tries" = 0 ]; then tries=server; else tries="client, attempt $tries"; fi
		echo "PASS cm:$run ($tries)" | tee -a "$CM_W/results"
		return 0
	fi
	echo "FAIL cm:$run (status $rc): ${cmd[*]}" | tee -a "$CM_W/results"
	tail -n 15 "$out" | sed 's/^/    /'
	if [ "$SIDE_STACK" = ours ]; then
		echo "    (our CM's trace, last 40 lines)"
		tail -n 40 "$TRACEFS/trace" | sed 's/^/    /'
	fi
	return 1
}

# cm_rping LABEL SERVER_SIDE ADDR COUNT SIZE: rping -V, every ping back
cm_rping() {
	local label=$1 sside=$2 addr=$3 count=$4 size=$5 got
	cm_run "$label" "$sside" 120 '' \
		-- rping -s -a "$addr" -p "$CM_PORT" -V -C "$count" -S "$size" \
		-- rping -c -a "$addr" -p "$CM_PORT" -V -v -C "$count" -S "$size" || return 1
	[ "$sside" = "$SIDE" ] && return 0
	got=$(grep -c '^ping data: rdma-ping-' "$CM_W/$label-server-$sside.out")
	[ "$got" = "$count" ] && return 0
	echo "FAIL cm:$label-server-$sside: $got ping lines, expected $count" | tee -a "$CM_W/results"
	return 1
}

cm_interop() {
	local sside saddr saddr6 cm_fails=0 t label tool args
	cm_modules
	# our CM's state changes go to the trace buffer: shown when a run fails
	TRACEFS=/sys/kernel/tracing
	[ -d "$TRACEFS/events" ] || mount -t tracefs nodev "$TRACEFS" 2>/dev/null
	if [ "$SIDE_STACK" = ours ]; then
		echo 1 >"$TRACEFS/events/ib_cm/enable" 2>/dev/null
		echo 1 >"$TRACEFS/events/rdma_cma/enable" 2>/dev/null
	fi
	ROW='^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+'
	for sside in A B; do
		case "$sside" in
		A) saddr=10.99.0.1 saddr6=fd99::1 ;;
		B) saddr=10.99.0.2 saddr6=fd99::2 ;;
		esac
		# (the server binds the address its client connects to; the
		# port is the same number on both sides, as runs go in order;
		# udaddy has a fixed port)
		cm_rping rping-64 "$sside" "$saddr" 5 64 || cm_fails=$((cm_fails + 1))
		cm_run ucmatose "$sside" 120 'return status 0' \
			-- ucmatose -b "$saddr" -p "$CM_PORT" -c 2 -C 3 -S 1000 \
			-- ucmatose -s "$saddr" -p "$CM_PORT" -c 2 -C 3 -S 1000 ||
			cm_fails=$((cm_fails + 1))
		cm_run udaddy "$sside" 120 'return status 0' \
			-- udaddy -b "$saddr" -c 1 -C 3 \
			-- udaddy -s "$saddr" -c 1 -C 3 ||
			cm_fails=$((cm_fails + 1))
		[ "${CHECK_TIER:-check}" = full ] || continue
		cm_rping rping-v6-4096 "$sside" "$saddr6" 4 4096 || cm_fails=$((cm_fails + 1))
		cm_rping rping-65535 "$sside" "$saddr" 2 65535 || cm_fails=$((cm_fails + 1))
		for t in "send-bw-R ib_send_bw -n 5" "write-lat-R ib_write_lat -n 10" \
			 "read-bw-R ib_read_bw -n 5"; do
			read -r label tool args <<<"$t"
			# shellcheck disable=SC2086
			cm_run "$label" "$sside" 150 "$ROW" \
				-- "$tool" -d rxe0 -R -F -p "$CM_PORT" $args \
				-- "$tool" -d rxe0 -R -F -p "$CM_PORT" $args "$saddr" ||
				cm_fails=$((cm_fails + 1))
		done
	done
	return "$cm_fails"
}
