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

# gid_scan DEV [NETNS]: sets GID_4 (index of port 1's first IPv4-mapped
# RoCE v2 GID), GID_6 (its first global IPv6 one) and GID_6LL (its first
# link-local one), each empty when there is none.  Looks at the first 64
# slots only (the table fills its lowest free slot; no scenario has that
# many addresses), and no further once GID_4 and GID_6 are known.  When
# the device is visible here (no NETNS, or shared mode) this shell's
# builtins read sysfs: no process at all (every fork and exec costs up to
# a second under TCG with the debug kernel); otherwise one sh in NETNS.
gid_scan() {
	local dev=$1 ns=${2:-} p=/sys/class/infiniband/$1/ports/1 i g t
	GID_4= GID_6= GID_6LL=
	if [ -z "$ns" ] || [ -d "/sys/class/infiniband/$dev" ]; then
		for ((i = 0; i < 64; i++)); do
			{ read -r g <"$p/gids/$i"; } 2>/dev/null || continue
			[ "$g" != 0000:0000:0000:0000:0000:0000:0000:0000 ] || continue
			{ read -r t <"$p/gid_attrs/types/$i"; } 2>/dev/null && [ "$t" = "RoCE v2" ] ||
				continue
			gid_note "$i" "$g"
			[ -n "$GID_4" ] && [ -n "$GID_6" ] && break
		done
		return 0
	fi
	while read -r i g; do
		gid_note "$i" "$g"
	done < <(in_ns "$ns" sh -c 'cd "/sys/class/infiniband/$1/ports/1" 2>/dev/null || exit 0
		i=0 s4= s6=
		while [ $i -lt 64 ] && { [ -z "$s4" ] || [ -z "$s6" ]; }; do
			if read -r g <"gids/$i" 2>/dev/null &&
			   [ "$g" != 0000:0000:0000:0000:0000:0000:0000:0000 ] &&
			   read -r t <"gid_attrs/types/$i" 2>/dev/null && [ "$t" = "RoCE v2" ]; then
				echo "$i $g"
				case "$g" in
				0000:0000:0000:0000:0000:ffff:*) s4=1 ;;
				fe80:*) ;;
				*) s6=1 ;;
				esac
			fi
			i=$((i + 1))
		done' sh "$dev")
	return 0
}

# gid_note INDEX GID: gid_scan's record of one RoCE v2 entry
gid_note() {
	case "$2" in
	0000:0000:0000:0000:0000:ffff:*) [ -n "$GID_4" ] || GID_4=$1 ;;
	fe80:*) [ -n "$GID_6LL" ] || GID_6LL=$1 ;;
	*) [ -n "$GID_6" ] || GID_6=$1 ;;
	esac
}

# gid_index DEV 4|6 [NETNS]: index of port 1's RoCE v2 GID of that address
# family (IPv4-mapped for 4; for 6 a global one, link-local only if there
# is none), or nothing (gid_scan, seen from NETNS).
gid_index() {
	gid_scan "$1" "${3:-}"
	case "$2" in
	4) [ -z "$GID_4" ] || echo "$GID_4" ;;
	6) [ -z "$GID_6$GID_6LL" ] || echo "${GID_6:-$GID_6LL}" ;;
	esac
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

# gid_indexes_wait DEV [NETNS]: poll (up to 20 s) until port 1 has an
# IPv4-mapped and a global IPv6 RoCE v2 GID; sets GID_4 and GID_6 (in this
# shell: call it outside $(...)); dies if either does not show up.
gid_indexes_wait() {
	local i
	for ((i = 0; i < 100; i++)); do
		gid_scan "$@"
		[ -n "$GID_4" ] && [ -n "$GID_6" ] && return 0
		sleep 0.2
	done
	die "$1 has no RoCE v2 GID for IPv4 and a global one for IPv6" \
		"(IPv4 index '$GID_4', global IPv6 '$GID_6', link-local '$GID_6LL')"
}

# in_ns NETNS CMD...: CMD in that network namespace ("" = this one)
in_ns() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then ip netns exec "$ns" "$@"; else "$@"; fi
}

# tcp_has PORT STATE [NETNS]: a TCP socket (IPv4 or IPv6) with local port
# PORT is in STATE (as /proc/net/tcp writes it: 0A listening, 01
# established) in NETNS ("" = this one).  Read by the shell: this one's
# /proc/self/net, or /proc/PID/net of a process in NETNS (ss costs
# seconds under TCG; ss -N only when no process is in NETNS).
tcp_has() {
	local net=/proc/self/net d f a st p
	if [ -n "${3:-}" ]; then
		net=
		for d in /proc/[0-9]*; do
			[ "$d/ns/net" -ef "/run/netns/$3" ] && { net=$d/net; break; }
		done
		if [ -z "$net" ]; then
			[ "$2" = 0A ] || return 1
			[ -n "$(ss -N "$3" -Hltn "sport = :$1" 2>/dev/null)" ]
			return
		fi
	fi
	printf -v p ':%04X' "$1"
	for f in "$net/tcp" "$net/tcp6"; do
		while read -r _ a _ st _; do
			[ "$st" = "$2" ] && [ "${a%"$p"}" != "$a" ] && return 0
		done 2>/dev/null <"$f"
	done
	return 1
}

# port_listening PORT [NETNS]: a TCP socket listens on PORT
port_listening() {
	tcp_has "$1" 0A "${2:-}"
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
		# (EPOCHSECONDS: a date costs about half a second under TCG)
		local end=$((EPOCHSECONDS + TOOL_TIMEOUT))
		if [ -z "${TOOL_REMOTE:-}" ]; then
			while [ "$EPOCHSECONDS" -lt "$end" ]; do
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
			[ "$rc_c" != 0 ] && [ "$EPOCHSECONDS" -lt "$end" ] &&
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
