#!/bin/bash
# Harness self-test (vm-dies.sh): the guest kernel crashes mid-run.  The
# runner must fail this scenario and every one after it, and say so.
echo "harness-panic: crashing the guest kernel"
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
sleep 60
