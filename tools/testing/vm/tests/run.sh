#!/bin/bash
# Self-tests of the VM harness's judges (kernel-reports.sh, ktap.py) on
# fixture logs.  Usage: run.sh RESULTS
set -u
results=$1
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/..
fx=$here/fixtures

record() {
	echo "$1 harness:$2"
	echo "$1 harness:$2" >>"$results"
}

for f in "$fx"/report-*.log; do
	name=$(basename "$f" .log)
	if "$vm/kernel-reports.sh" "$f" >/dev/null; then
		record FAIL "$name (not detected)"
	else
		record PASS "$name"
	fi
done
if "$vm/kernel-reports.sh" "$fx/clean.log" >/dev/null; then
	record PASS clean-log
else
	record FAIL "clean-log (false report)"
fi
for f in "$fx"/ktap-*.log; do
	name=$(basename "$f" .log)
	if diff -u "$fx/$name.expected" <(python3 "$vm/ktap.py" --prefix kunit: "$f"); then
		record PASS "$name"
	else
		record FAIL "$name"
	fi
done
# a log without any KTAP is an error, not an empty pass
if python3 "$vm/ktap.py" "$fx/clean.log" >/dev/null; then
	record FAIL "ktap-none (accepted)"
else
	record PASS ktap-none
fi
exit 0
