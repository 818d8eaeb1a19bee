# shellcheck shell=bash
# Helpers for scenarios that run the data oracle (rdma_oracle, see
# Documentation/dev-tools/data-oracle.rst), sourced after lib.sh and
# rdma-tools.sh:  . "$REPO/tools/testing/vm/oracle.sh"
#
# A run is a server and a client, each under a timeout, on a TCP port of
# their own.  Each run leaves its outputs in $ORACLE_WORK/<label>.{server,
# client} and one line in $ORACLE_WORK/results ("PASS|FAIL <label> ...").

ORACLE=${ORACLE:-$REPO/build/selftests/rdma_oracle}
ORACLE_PORT=${ORACLE_PORT:-18600}
ORACLE_TIMEOUT=${ORACLE_TIMEOUT:-300}
ORACLE_WORK=${ORACLE_WORK:-$(mktemp -d)}
[ -x "$ORACLE" ] || die "$ORACLE not built (make check builds it)"

# oracle_start LABEL NS DEV ARGS...: a server in NS (""=here) on a new
# port, with ARGS and then ORACLE_SERVER_ARGS (words; this side only);
# sets ORACLE_SPID and ORACLE_SPORT, and waits (<= 60 s) until it listens
oracle_start() {
	local label=$1 ns=$2 dev=$3 i
	shift 3
	ORACLE_SPORT=$ORACLE_PORT
	ORACLE_PORT=$((ORACLE_PORT + 1))
	# shellcheck disable=SC2086
	in_ns "$ns" timeout -k 5 "$ORACLE_TIMEOUT" "$ORACLE" -d "$dev" -p "$ORACLE_SPORT" "$@" \
		${ORACLE_SERVER_ARGS:-} >"$ORACLE_WORK/$label.server" 2>&1 &
	ORACLE_SPID=$!
	for ((i = 0; i < 120; i++)); do
		port_listening "$ORACLE_SPORT" "$ns" && return 0
		kill -0 "$ORACLE_SPID" 2>/dev/null || return 1
		sleep 0.5
	done
	return 1
}

# oracle_run LABEL SERVER_NS CLIENT_NS HOST SERVER_DEV CLIENT_DEV ARGS...:
# one run, both sides with ARGS; sets ORACLE_RC_S and ORACLE_RC_C (124:
# timed out) and ORACLE_SECS
oracle_run() {
	local label=$1 sns=$2 cns=$3 host=$4 sdev=$5 cdev=$6 t0=$SECONDS
	shift 6
	ORACLE_RC_C=-
	if oracle_start "$label" "$sns" "$sdev" "$@"; then
		in_ns "$cns" timeout -k 5 "$ORACLE_TIMEOUT" "$ORACLE" -d "$cdev" -p "$ORACLE_SPORT" \
			"$@" "$host" >"$ORACLE_WORK/$label.client" 2>&1
		ORACLE_RC_C=$?
	else
		echo "(the server did not listen)" >"$ORACLE_WORK/$label.client"
	fi
	wait "$ORACLE_SPID"
	ORACLE_RC_S=$?
	ORACLE_SECS=$((SECONDS - t0))
}

# oracle_judge LABEL pass|mismatch: judge the last oracle_run.
#   pass:      both sides exit 0 and print "rdma_oracle: PASS"
#   mismatch:  a side exits 1 with a "rdma_oracle: MISMATCH" line, and no
#              side timed out (the damage was seen and reported, no hang)
# Prints and records "PASS|FAIL LABEL (...)"; returns 0 on PASS.
oracle_judge() {
	local label=$1 want=$2 so=$ORACLE_WORK/$1.server co=$ORACLE_WORK/$1.client why=
	case "$want" in
	pass)
		[ "$ORACLE_RC_S" = 0 ] || why="server exit $ORACLE_RC_S"
		[ "$ORACLE_RC_C" = 0 ] || why="$why${why:+, }client exit $ORACLE_RC_C"
		[ -n "$why" ] || { grep -q '^rdma_oracle: PASS' "$so" && grep -q '^rdma_oracle: PASS' "$co"; } ||
			why="no PASS line"
		;;
	mismatch)
		{ [ "$ORACLE_RC_S" = 1 ] && grep -q '^rdma_oracle: MISMATCH' "$so"; } ||
			{ [ "$ORACLE_RC_C" = 1 ] && grep -q '^rdma_oracle: MISMATCH' "$co"; } ||
			why="no side reported a MISMATCH (exit $ORACLE_RC_S/$ORACLE_RC_C)"
		[ "$ORACLE_RC_S" = 124 ] || [ "$ORACLE_RC_C" = 124 ] && why="$why${why:+, }timed out"
		;;
	esac
	if [ -z "$why" ]; then
		echo "PASS $label (${ORACLE_SECS}s)" | tee -a "$ORACLE_WORK/results"
		[ "$want" = mismatch ] && grep -h -m 1 '^rdma_oracle: MISMATCH' "$so" "$co" | head -n 1 | sed 's/^/    caught: /'
		return 0
	fi
	echo "FAIL $label ($why, ${ORACLE_SECS}s)" | tee -a "$ORACLE_WORK/results"
	echo "--- $label server:"; tail -n 12 "$so"
	echo "--- $label client:"; tail -n 12 "$co"
	return 1
}

# rxe_param NAME VALUE: set a test-build parameter of our rdma_rxe
# (rxe_test_hooks.h); dies when the module has no such parameter (not a
# test build)
rxe_param() {
	local f=/sys/module/rdma_rxe/parameters/$1
	[ -w "$f" ] || die "rdma_rxe has no parameter $1 (not a test build: RXE_TEST_HOOKS=1)"
	echo "$2" >"$f" || die "set $1=$2"
}
