#!/bin/bash
# Inside the test VM (run by tools/bench/run.sh): for each stack, load it,
# bring up rxe0 on veth0, run the benchmarks with server and client on
# rxe0 (RoCEv2 loopback), unload.  Appends "STACK ROW VALUE|fail" lines to
# $OUT/bench.raw; the host turns them into the table and the CSV.
#
# Environment: REPO, MODDIR, OUT (from init.sh); BENCH_STACKS (default
# "upstream ours"), BENCH_BW_ITERS (iterations of each bandwidth run, default
# 1000), BENCH_LAT_ITERS (of each latency run, default 2000),
# BENCH_ROW_TIMEOUT (seconds a perftest run may take, default 300), BENCH_REG_MIB / BENCH_REG_REPS (reg_mr buffer size and repetitions), BENCH_REG_HUGE_MIB (the huge-page buffer's size, default 512), BENCH_CM_CONNS (cmtime's connections, default 100),
# BENCH_REG_MR (the reg_mr_bench binary); BENCH_ROWS (the rows to run, by
# name, default all; reg_mr, reg_mr_huge and cmtime name the other rows);
# BENCH_PROFILE=1 (perf record -a -g over each perftest client and reg_mr run: the
# report, by symbol, in bench-logs/STACK-ROW.profile).
set -u
# shellcheck source=/dev/null
. "$REPO/tools/testing/vm/lib.sh"

stacks=${BENCH_STACKS:-upstream ours}
bw_iters=${BENCH_BW_ITERS:-1000}
row_timeout=${BENCH_ROW_TIMEOUT:-300}
lat_iters=${BENCH_LAT_ITERS:-2000}
reg_mib=${BENCH_REG_MIB:-1024}
reg_reps=${BENCH_REG_REPS:-5}
reg_huge_mib=${BENCH_REG_HUGE_MIB:-512}
cm_conns=${BENCH_CM_CONNS:-100}
reg_mr=${BENCH_REG_MR:-$REPO/build/bench/verbs/reg_mr_bench}
only=${BENCH_ROWS:-}
profile=${BENCH_PROFILE:-0}
raw=$OUT/bench.raw
logdir=$OUT/bench-logs
port=18515
: >"$raw"
mkdir -p "$logdir"

# perftest rows: name|tool|arguments (both sides)|--output= field
# Every row runs a fixed number of iterations (-n): duration mode (-D)
# reported 0 for upstream under a loaded TCG guest (it only counts the
# completions of a sampling window).  Bandwidth tools report the average,
# latency tools the typical (median) latency.
rows=(
	"write_bw_64k|ib_write_bw|-s 65536 -n $bw_iters|bandwidth"
	"send_rate_64b_q4|ib_send_bw|-s 64 -q 4 -n $bw_iters|message_rate"
	"send_lat_2b|ib_send_lat|-s 2 -n $lat_iters|latency"
	"read_lat_2b|ib_read_lat|-s 2 -n $lat_iters|latency"
	"read_bw_64k|ib_read_bw|-s 65536 -n $bw_iters|bandwidth"
	"atomic_rate|ib_atomic_bw|-n $bw_iters|message_rate"
)

record() { echo "$1 $2 $3" >>"$raw"; echo "bench: $1 $2 = $3"; }

# wanted ROW: BENCH_ROWS is empty or names ROW
wanted() { [ -z "$only" ] || [[ " $only " == *" $1 "* ]]; }

# profiled LOG CMD...: CMD, under perf record -a -g when BENCH_PROFILE=1;
# the report (self time by symbol, call chains off, idle left out) goes
# to LOG.profile.  Symbols come from /proc/kallsyms while the stack is
# loaded (--symfs without modules: both stacks' rdma_rxe.ko have one
# name, and perf would read upstream's symbols from /lib/modules for ours).
profiled() {
	local log=$1 data=/tmp/bench.perf rc
	shift
	if [ "$profile" != 1 ]; then
		"$@"
		return
	fi
	perf record -q -a -g -o "$data" -- "$@"
	rc=$?
	mkdir -p /tmp/nosymfs
	local s
	for s in comm,dso dso,sym; do
		perf report -q -i "$data" --stdio --no-children --sort "$s" \
			--symfs /tmp/nosymfs --kallsyms /proc/kallsyms \
			--percent-limit 0.3 -g none 2>/dev/null
	done >"$log.profile"
	rm -f "$data"
	return "$rc"
}

# run_cmtime STACK: connection setup through librdmacm (rdma_ucm, rdma_cm,
# ib_cm): cmtime's "us / conn" of its connect step (REQ, REP, RTU and the
# QP transitions of $cm_conns connections made at once)
run_cmtime() {
	local stack=$1 log=$logdir/$1-cmtime spid val m
	local row=cmtime_connect_$cm_conns
	if [ "$stack" = ours ]; then
		for m in ib_cm rdma_cm rdma_ucm; do
			grep -q "^$m " /proc/modules ||
				insmod "$MODDIR/drivers/infiniband/core/$m.ko" ||
				{ record "$stack" "$row" fail; return; }
		done
	fi
	port=$((port + 1))
	timeout -k 5 "$row_timeout" cmtime -b 10.0.0.1 -p $port -c "$cm_conns" >"$log.server" 2>&1 &
	spid=$!
	sleep 2
	timeout -k 5 "$row_timeout" cmtime -s 10.0.0.1 -p $port -c "$cm_conns" >"$log.client" 2>&1
	val=$(awk '$1 == "connect" && $2 == ":" { print $6 }' "$log.client")
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	if [ -n "$val" ] && awk -v v="$val" 'BEGIN { exit !(v + 0 > 0) }'; then
		record "$stack" "$row" "$val"
	else
		record "$stack" "$row" fail
		tail -n 5 "$log.client" | sed 's/^/  | /'
	fi
}

# port_wait PORT PID: until PID (a perftest server) listens on TCP PORT,
# at most 60 s (a loaded TCG guest can take seconds to get there)
port_wait() {
	local i
	for ((i = 0; i < 300; i++)); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}

# run_perftest STACK NAME TOOL ARGS FIELD: server in the background, client
# against it over TCP on loopback; both time-limited so a stack that never
# completes a work request fails the row instead of hanging the bench.
run_perftest() {
	local stack=$1 name=$2 tool=$3 args=$4 field=$5 spid val rc try
	local common="-d rxe0 -x 1 -F --output=$field"
	local limit=$row_timeout
	local slog=$logdir/$stack-$name.server clog=$logdir/$stack-$name.client
	for try in 1 2 3; do
		port=$((port + 1))
		# shellcheck disable=SC2086
		timeout -k 5 "$limit" "$tool" $common -p $port $args >"$slog" 2>&1 &
		spid=$!
		port_wait "$port" "$spid"
		# shellcheck disable=SC2086
		profiled "$clog" timeout -k 5 "$limit" "$tool" $common -p $port $args 127.0.0.1 \
			>"$clog" 2>"$clog.err"
		rc=$?
		[ "$rc" = 0 ] || kill "$spid" 2>/dev/null
		wait "$spid"
		# --output=FIELD: the value is the last line on stdout
		val=$(tail -n 1 "$clog" | grep -Ex '[0-9]+(\.[0-9]+)?')
		if grep -q "Couldn't connect" "$clog.err"; then
			echo "bench: $stack $name: no connection to the server (try $try)"
			continue
		fi
		[ "$rc" = 0 ] || break
		# perftest turns cycles into time with a CPU frequency it
		# samples against gettimeofday(); under TCG the sample is
		# sometimes rejected (r^2 < 0.9: the result reads 0 or inf) or
		# off by more than 2%: measure again
		if grep -q 'Correlation coefficient\|differs from nominal' "$clog.err"; then
			echo "bench: $stack $name: CPU frequency sample rejected (try $try)"
			val=
			continue
		fi
		# a run that completed nothing reports 0
		awk -v v="${val:-0}" 'BEGIN { exit !(v + 0 > 0) }' || val=
		break
	done
	if [ "$rc" = 0 ] && [ -n "$val" ]; then
		record "$stack" "$name" "$val"
	else
		record "$stack" "$name" fail
		echo "bench: $stack $name: client exit $rc, result '$(tail -n 1 "$clog")'; last messages:"
		tail -n 5 "$clog.err" | sed 's/^/  | /'
	fi
}

# run_reg_mr STACK [huge]: rows reg_mr_<MiB>m and dereg_mr_<MiB>m, or
# with "huge" reg_mr_huge_<MiB>m and dereg_mr_huge_<MiB>m of a buffer in
# 2 MiB huge pages (the pool is filled for the run and emptied after it)
run_reg_mr() {
	local stack=$1 kind=${2:-} log=$logdir/$1-reg_mr${2:+_$2} name val
	local mib=$reg_mib opt=() sfx=
	if [ "$kind" = huge ]; then
		mib=$reg_huge_mib opt=(-H) sfx=_huge
		echo $((mib / 2)) >/proc/sys/vm/nr_hugepages
	fi
	if profiled "$log" "$reg_mr" -d rxe0 -s "$mib" -r "$reg_reps" "${opt[@]}" >"$log" 2>&1; then
		for name in reg_mr dereg_mr; do
			val=$(awk -v n="$name$sfx" '$1 == n { print $2 }' "$log")
			record "$stack" "${name}${sfx}_${mib}m" "${val:-fail}"
		done
	else
		record "$stack" "reg_mr${sfx}_${mib}m" fail
		record "$stack" "dereg_mr${sfx}_${mib}m" fail
		[ -z "$sfx" ] || grep Huge /proc/meminfo | sed 's/^/  | /'
		tail -n 5 "$log" | sed 's/^/  | /'
	fi
	[ "$kind" != huge ] || echo 0 >/proc/sys/vm/nr_hugepages
}

echo "bench: kernel $(uname -r), $(nproc) CPUs, stacks: $stacks"
veth_pair_add 52:54:00:12:34:56
ip addr add 10.0.0.1/24 dev veth0 || die "address on veth0"

status=0
for stack in $stacks; do
	echo "bench: ---- $stack"
	if ! stack_load "$stack" ||
	   ! rdma link add rxe0 type rxe netdev veth0; then
		echo "bench: $stack: cannot load the stack or add rxe0"
		for r in "${rows[@]}"; do record "$stack" "${r%%|*}" fail; done
		record "$stack" "reg_mr_${reg_mib}m" fail
		record "$stack" "dereg_mr_${reg_mib}m" fail
		record "$stack" "reg_mr_huge_${reg_huge_mib}m" fail
		record "$stack" "dereg_mr_huge_${reg_huge_mib}m" fail
		record "$stack" "cmtime_connect_$cm_conns" fail
		stack_unload
		status=1
		continue
	fi
	( gid_wait rxe0 1 0000:0000:0000:0000:0000:ffff:0a00:0001 ) || status=1
	for r in "${rows[@]}"; do
		IFS='|' read -r name tool args field <<<"$r"
		wanted "$name" || continue
		run_perftest "$stack" "$name" "$tool" "$args" "$field"
	done
	! wanted reg_mr || run_reg_mr "$stack"
	! wanted reg_mr_huge || run_reg_mr "$stack" huge
	! wanted cmtime || run_cmtime "$stack"
	rdma link delete rxe0 || status=1
	stack_unload || { echo "bench: $stack: unload failed"; status=1; }
done
exit "$status"
