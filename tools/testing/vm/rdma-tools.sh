# shellcheck shell=bash
# Helpers for scenarios that run the stock RDMA tools (ibv_*_pingpong from
# ibverbs-utils, perftest's ib_*_bw/lat) inside the test VM, sourced after
# lib.sh:  . "$REPO/tools/testing/vm/rdma-tools.sh"
#
# A tool run is a server and a client, each under a timeout; it passes when
# both exit 0 and print what the tool prints on success.  Every run leaves
# its outputs in $TOOLS_WORK/<label>.{server,client} and one result line in
# $TOOLS_WORK/results ("PASS|FAIL <label> <value> <unit>").

TOOLS_WORK=${TOOLS_WORK:-$(mktemp -d)}
TOOL_TIMEOUT=${TOOL_TIMEOUT:-150}
TOOL_PORT=${TOOL_PORT:-19000}

# gid_index DEV 4|6 [NETNS]: index of port 1's RoCE v2 GID of that address
# family (IPv4-mapped for 4; for 6 a global one, link-local only if there
# is none), or nothing.  Looks at the first 64 slots only (the table fills
# its lowest free slot; no scenario has that many addresses), with shell
# builtins in one process seen from NETNS: every exec and file open costs
# milliseconds to a second under TCG with the debug kernel.
gid_index() {
	local dev=$1 fam=$2 ns=${3:-} idx gid ll=
	while read -r idx gid; do
		case "$gid" in
		0000:0000:0000:0000:0000:ffff:*) [ "$fam" = 4 ] && { echo "$idx"; return 0; } ;;
		fe80:*) [ "$fam" = 6 ] && [ -z "$ll" ] && ll=$idx ;;
		*) [ "$fam" = 6 ] && { echo "$idx"; return 0; } ;;
		esac
	done < <(in_ns "$ns" sh -c 'cd "/sys/class/infiniband/$1/ports/1" 2>/dev/null || exit 0
		i=0
		while [ $i -lt 64 ]; do
			read -r g <"gids/$i" 2>/dev/null &&
			[ "$g" != 0000:0000:0000:0000:0000:0000:0000:0000 ] &&
			read -r t <"gid_attrs/types/$i" 2>/dev/null &&
			[ "$t" = "RoCE v2" ] && echo "$i $g"
			i=$((i + 1))
		done' sh "$dev")
	[ -n "$ll" ] && echo "$ll"
	return 0
}

# gid_index_wait DEV 4|6 [NETNS]: gid_index, polling up to 20 s (GID
# updates are deferred); dies if none shows up.
gid_index_wait() {
	local i idx
	for ((i = 0; i < 100; i++)); do
		idx=$(gid_index "$@")
		[ -n "$idx" ] && { echo "$idx"; return 0; }
		sleep 0.2
	done
	die "$1 has no RoCE v2 GID for IPv$2"
}

# in_ns NETNS CMD...: CMD in that network namespace ("" = this one)
in_ns() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then ip netns exec "$ns" "$@"; else "$@"; fi
}

# port_listening PORT [NETNS]: a TCP socket listens on PORT
port_listening() {
	in_ns "${2:-}" ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

# tool_ok TOOL FILE: FILE holds TOOL's success output.  Pingpongs print
# "N bytes in S seconds = R Mbit/sec" and "N iters in S seconds = T
# usec/iter"; perftest prints a result row (#bytes #iterations numbers...).
# A pingpong's --chk mismatch ("invalid data in page N") is a failure even
# though the tool still exits 0; its check is weak (one byte per page, on
# the server only): the data oracle (rdma_oracle) is what proves data.
tool_ok() {
	case "$1" in
	ibv_*)
		! grep -q 'invalid data' "$2" &&
		grep -qE '^[0-9]+ bytes in [0-9.]+ seconds = [0-9.]+ Mbit/sec' "$2" &&
		grep -qE '^[0-9]+ iters in [0-9.]+ seconds = [0-9.]+ usec/iter' "$2" ;;
	ib_*) grep -qE '^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+' "$2" ;;
	*) return 1 ;;
	esac
}

# tool_value TOOL FILE: the headline number of a successful run and its
# unit: Mbit/sec (pingpong), MB/sec average (perftest bw), usec typical
# (perftest lat)
tool_value() {
	case "$1" in
	ibv_*) sed -nE 's/^[0-9]+ bytes in [0-9.]+ seconds = ([0-9.]+) Mbit\/sec.*/\1 Mbit\/s/p' "$2" | head -n 1 ;;
	ib_*_bw) awk '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+/ { v = $4 } END { if (v != "") print v, "MB/s" }' "$2" ;;
	ib_*_lat) awk '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+/ { v = $5 } END { if (v != "") print v, "usec" }' "$2" ;;
	esac
}

# tool_run LABEL SERVER_NS CLIENT_NS SERVER_HOST TOOL ARGS...: run TOOL ARGS
# as server (in SERVER_NS) and TOOL ARGS SERVER_HOST as client (in
# CLIENT_NS) on a port of their own.  The client starts once the server
# listens (when both share this VM); TOOL_SERVER_ARGS and TOOL_CLIENT_ARGS
# are added to one side only (e.g. "-d rxe1" and "-d rxe0") and retries while it cannot connect
# (the server may be in another VM: TOOL_REMOTE=1 there; TOOL_ROLE=server
# or client then runs only that side).  Returns 0 if the run passed.
tool_run() {
	local label=$1 sns=$2 cns=$3 host=$4 tool=$5 port spid='' rc_s=0 rc_c=0 i why='' val
	shift 5
	port=${TOOL_PORT_FIXED:-$TOOL_PORT}
	TOOL_PORT=$((TOOL_PORT + 1))
	local so=$TOOLS_WORK/$label.server co=$TOOLS_WORK/$label.client
	: >"$so"; : >"$co"
	if [ "${TOOL_ROLE:-both}" != client ]; then
		in_ns "$sns" timeout -k 5 "$TOOL_TIMEOUT" "$tool" -p "$port" "$@" ${TOOL_SERVER_ARGS:-} >"$so" 2>&1 &
		spid=$!
	fi
	if [ "${TOOL_ROLE:-both}" != server ]; then
		local end=$(( $(date +%s) + TOOL_TIMEOUT ))
		if [ -z "${TOOL_REMOTE:-}" ]; then
			while [ "$(date +%s)" -lt "$end" ]; do
				port_listening "$port" "$sns" && break
				kill -0 "$spid" 2>/dev/null || break
				sleep 0.5
			done
		fi
		while :; do
			in_ns "$cns" timeout -k 5 "$TOOL_TIMEOUT" "$tool" -p "$port" "$@" ${TOOL_CLIENT_ARGS:-} "$host" >"$co" 2>&1
			rc_c=$?
			# could not reach the server's TCP port: nothing was
			# exchanged yet, the server is not up (yet); again
			[ "$rc_c" != 0 ] && [ "$(date +%s)" -lt "$end" ] &&
				{ [ -z "$spid" ] || kill -0 "$spid" 2>/dev/null; } &&
				grep -qE "Couldn't connect|Unable to init the socket" "$co" ||
				break
			sleep 1
		done
	fi
	if [ -n "$spid" ]; then
		wait "$spid"
		rc_s=$?
	fi
	# ibv_rc_pingpong's server closes its QP as soon as it has received
	# every message: on a lossy link the ACK of the client's last SEND
	# can be lost with nobody left to answer the retransmission, and the
	# client ends in "retry counter exceeded".  With TOOL_LOSSY_TAIL=1
	# that is a pass when the server finished every iteration (all data
	# arrived, all its SENDs were acknowledged); TOOL_LAST_TAIL=1 says so.
	TOOL_LAST_TAIL=
	if [ "${TOOL_LOSSY_TAIL:-}" = 1 ] && [ "$tool" = ibv_rc_pingpong ] &&
	   [ "$rc_s" = 0 ] && [ "$rc_c" != 0 ] && tool_ok "$tool" "$so" &&
	   grep -q 'transport retry counter exceeded (12) for wr_id 2$' "$co" &&
	   ! tool_ok "$tool" "$co"; then
		echo "note: $label: the ACK of the client's last SEND was lost after the server closed"
		TOOL_LAST_TAIL=1
		rc_c=0
		co=$so
	fi
	[ "$rc_s" = 0 ] || why="server exit $rc_s"
	[ "$rc_c" = 0 ] || why="$why${why:+, }client exit $rc_c"
	if [ -z "$why" ]; then
		case "$tool" in
		ibv_*)	[ "${TOOL_ROLE:-both}" = client ] || tool_ok "$tool" "$so" || why="server output lacks the result lines"
			[ "${TOOL_ROLE:-both}" = server ] || tool_ok "$tool" "$co" || why="$why${why:+, }client output lacks the result lines" ;;
		ib_*)	# perftest reports on the client side
			[ "${TOOL_ROLE:-both}" = server ] || tool_ok "$tool" "$co" || why="client output lacks a result row" ;;
		esac
	fi
	# a latency row of "inf": perftest rejected its CPU-frequency sample
	# (TCG) and could not convert cycles; the transfers themselves ran
	# (both sides exited 0 after the whole exchange), only the number is
	# missing
	if [ "$rc_s" = 0 ] && [ "$rc_c" = 0 ] && [ -n "$why" ] &&
	   grep -qE '^ *[0-9]+ +[0-9]+ +inf ' "$co"; then
		echo "note: $label printed inf (no CPU-frequency sample): the latency is unknown"
		echo "PASS $label inf usec" | tee -a "$TOOLS_WORK/results"
		return 0
	fi
	if [ -z "$why" ]; then
		val=$(tool_value "$tool" "$co")
		[ -n "$val" ] || val=$(tool_value "$tool" "$so")
		echo "PASS $label ${val:-- -}" | tee -a "$TOOLS_WORK/results"
		return 0
	fi
	echo "FAIL $label ($why)" | tee -a "$TOOLS_WORK/results"
	echo "--- $label server: $tool -p $port $* ${TOOL_SERVER_ARGS:-}"
	tail -n 15 "$so"
	echo "--- $label client: $tool -p $port $* ${TOOL_CLIENT_ARGS:-} $host"
	tail -n 15 "$co"
	return 1
}
