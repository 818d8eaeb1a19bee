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
netem_loss=${BENCH_NETEM_LOSS:-1%}
netem_timeout=${BENCH_NETEM_TIMEOUT:-90}
netem_bw_iters=${BENCH_NETEM_BW_ITERS:-200}
netem_lat_iters=${BENCH_NETEM_LAT_ITERS:-500}
raw=$OUT/bench.raw
logdir=$OUT/bench-logs
port=18515
perftest_runs=0
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

# rows between two devices across a lossy link (lossy_up): rxe1 on veth1
# (10.0.0.2) serves, rxe0 on veth0 (10.0.0.1) is the client; same fields.
# The latency row reports the average: the loss hits a few percent of the
# messages and the median does not see them.
netem_rows=(
	"netem_write_bw_64k|ib_write_bw|-s 65536 -n $netem_bw_iters|bandwidth"
	"netem_read_bw_64k|ib_read_bw|-s 65536 -n $netem_bw_iters|bandwidth"
	"netem_send_lat_2b|ib_send_lat|-s 2 -n $netem_lat_iters|t_avg"
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

# run_perftest STACK NAME TOOL ARGS FIELD [SERVER-DEV CLIENT-DEV LIMIT]:
# server (on SERVER-DEV, default rxe0) in the background, client (on
# CLIENT-DEV, default rxe0) against it over TCP on loopback; both limited
# to LIMIT seconds (default BENCH_ROW_TIMEOUT) so a stack that never
# completes a work request fails the row instead of hanging the bench.
# FIELD is perftest's --output= field, or t_avg: the average latency
# column of a latency tool's table.
run_perftest() {
	local stack=$1 name=$2 tool=$3 args=$4 field=$5 spid val rc try
	local sdev=${6:-rxe0} cdev=${7:-rxe0} limit=${8:-$row_timeout}
	local out="--output=$field"
	[ "$field" != t_avg ] || out=
	local slog=$logdir/$stack-$name.server clog=$logdir/$stack-$name.client
	for try in 1 2 3; do
		perftest_runs=$try
		port=$((port + 1))
		# shellcheck disable=SC2086
		timeout -k 5 "$limit" "$tool" -d "$sdev" -x 1 -F $out -p $port $args >"$slog" 2>&1 &
		spid=$!
		port_wait "$port" "$spid"
		# shellcheck disable=SC2086
		profiled "$clog" timeout -k 5 "$limit" "$tool" -d "$cdev" -x 1 -F $out -p $port $args 127.0.0.1 \
			>"$clog" 2>"$clog.err"
		rc=$?
		[ "$rc" = 0 ] || kill "$spid" 2>/dev/null
		wait "$spid"
		[ "$rc" != 124 ] || echo "bench: $stack $name: no result within ${limit}s (timeout)"
		if [ "$field" = t_avg ]; then
			# the table's row: #bytes #iterations t_min t_max t_typical t_avg ...
			val=$(awk '$1 ~ /^[0-9]+$/ && NF >= 6 { v = $6 } END { print v }' "$clog" |
				grep -Ex '[0-9]+(\.[0-9]+)?')
		else
			# --output=FIELD: the value is the last line on stdout
			val=$(tail -n 1 "$clog" | grep -Ex '[0-9]+(\.[0-9]+)?')
		fi
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

# lossy_up: veth1 gets 10.0.0.2 (/32) and rxe1.  Both ends stay in
# init_net: upstream 6.1 rxe routes and receives in init_net only, so it
# cannot have a device in another namespace.  The traffic between
# 10.0.0.1 and 10.0.0.2 still crosses the veth pair, not lo: both rxe
# stacks and ib_core's address resolution look the route up with the
# device's netdev as output interface, and the kernel skips a local
# route whose interface is another one (10.0.0.1 -> 10.0.0.2 leaves by
# veth0's 10.0.0.0/24, 10.0.0.2 -> 10.0.0.1 by veth1, on-link); the
# receiving end must accept a local source address (accept_local,
# rp_filter off), ARP included.  The kernel has no policy routing
# (CONFIG_IP_ADVANCED_ROUTER is off).  run_netem_row proves the crossing
# by netem's drop counters.
lossy_up() {
	local d r
	ip addr add 10.0.0.2/32 dev veth1 || return 1
	for d in all veth0 veth1; do
		echo 1 >"/proc/sys/net/ipv4/conf/$d/accept_local" || return 1
		echo 0 >"/proc/sys/net/ipv4/conf/$d/rp_filter" || return 1
	done
	rdma link add rxe1 type rxe netdev veth1 || return 1
	( gid_wait rxe1 1 0000:0000:0000:0000:0000:ffff:0a00:0002 ) || return 1
	r=$(ip route get 10.0.0.2 from 10.0.0.1 oif veth0)
	echo "bench: route rxe0 -> rxe1: $r"
	[[ "$r" == *" dev veth0 "* ]] || return 1
	r=$(ip route get 10.0.0.1 from 10.0.0.2 oif veth1)
	echo "bench: route rxe1 -> rxe0: $r"
	[[ "$r" == *" dev veth1 "* ]] || return 1
}

# lossy_down: undo lossy_up (quietly: parts may be missing)
lossy_down() {
	rdma link delete rxe1 2>/dev/null
	tc qdisc del dev veth0 root 2>/dev/null
	tc qdisc del dev veth1 root 2>/dev/null
	ip addr del 10.0.0.2/32 dev veth1 2>/dev/null
	ip neigh flush dev veth0 2>/dev/null
	ip neigh flush dev veth1 2>/dev/null
	return 0
}

# netem_fresh: a new netem qdisc (counters at 0) on both veth ends
netem_fresh() {
	local d
	for d in veth0 veth1; do
		tc qdisc del dev "$d" root 2>/dev/null
		# shellcheck disable=SC2086
		tc qdisc add dev "$d" root netem loss $netem_loss || return 1
	done
}

# hw_counters DEV: "name=value" of each of DEV's port counters, one line
# (read by the shell: no process per file)
hw_counters() {
	local f v line=
	for f in /sys/class/infiniband/"$1"/ports/1/hw_counters/*; do
		[ -f "$f" ] || continue
		v=
		{ read -r v <"$f"; } 2>/dev/null
		line+="${f##*/}=$v "
	done
	echo "$1: $line"
}

# counter_delta BEFORE AFTER: the counters (hw_counters lines) that moved
# from BEFORE to AFTER, "name+delta", one line per device
counter_delta() {
	awk 'NR == FNR { for (i = 2; i <= NF; i++) { split($i, kv, "="); b[$1 kv[1]] = kv[2] }; next }
	     { l = $1; for (i = 2; i <= NF; i++) { split($i, kv, "=");
		 d = kv[2] - b[$1 kv[1]]; if (d) l = l " " kv[1] "+" d }; print l }' \
		<(echo "$1") <(echo "$2")
}

# run_netem_row STACK NAME TOOL ARGS FIELD: the row across the lossy link,
# with the netem qdiscs' statistics and both devices' counters before and
# after it (and what moved) in bench-logs/STACK-NAME.netem; a run with no
# drop on the link is not a lossy run and reads fail
run_netem_row() {
	local stack=$1 name=$2 log=$logdir/$1-$2.netem drops before after
	netem_fresh || { record "$stack" "$name" fail; return; }
	before=$(hw_counters rxe0; hw_counters rxe1)
	run_perftest "$@" rxe1 rxe0 "$netem_timeout"
	after=$(hw_counters rxe0; hw_counters rxe1)
	{
		echo "netem loss $netem_loss on veth0 and veth1; server rxe1 (10.0.0.2), client rxe0 (10.0.0.1)"
		echo "perftest runs: $perftest_runs (the counters and drops cover all of them)"
		echo "== counters before"; echo "$before"
		echo "== counters after"; echo "$after"
		echo "== moved"; counter_delta "$before" "$after"
		echo "== tc -s qdisc"; tc -s qdisc show dev veth0; tc -s qdisc show dev veth1
	} >"$log"
	counter_delta "$before" "$after" | sed "s/^/bench: $stack $name: /"
	drops=$(tc -s qdisc show dev veth0; tc -s qdisc show dev veth1)
	drops=$(awk '/dropped/ { sub(",", "", $7); s = s " " $7 } END { print s }' <<<"$drops")
	echo "bench: $stack $name: netem dropped (veth0 veth1):$drops in $perftest_runs perftest run(s)"
	if [[ "$drops" =~ ^\ 0\ 0$ ]] && [ "$netem_loss" != 0% ]; then
		echo "bench: $stack $name: no packet was dropped: the traffic did not cross the link"
		sed -i "s/^$stack $name .*/$stack $name fail/" "$raw"
	fi
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
		for r in "${rows[@]}" "${netem_rows[@]}"; do record "$stack" "${r%%|*}" fail; done
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
	lossy=
	for r in "${netem_rows[@]}"; do
		IFS='|' read -r name tool args field <<<"$r"
		wanted "$name" || continue
		if [ -z "$lossy" ]; then
			lossy=fail
			lossy_up && lossy=up
		fi
		if [ "$lossy" = up ]; then
			run_netem_row "$stack" "$name" "$tool" "$args" "$field"
		else
			echo "bench: $stack: cannot set up rxe1 and the lossy link"
			record "$stack" "$name" fail
			status=1
		fi
	done
	[ -z "$lossy" ] || lossy_down
	rdma link delete rxe0 || status=1
	stack_unload || { echo "bench: $stack: unload failed"; status=1; }
done
exit "$status"
