#!/bin/bash
# PID 1 of the test VM.  The host root is mounted read-only over 9p; this
# script adds the writable and virtual file systems tools need, mounts the
# host's output share, then runs what the host's job file asks for
# (scenarios, one command, or an interactive shell) and powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=${TERM:-linux}
# bash as PID 1 must not die on a stray signal
trap '' INT TSTP

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts -o gid=5,mode=620 devpts /dev/pts
for d in /tmp /run /var/tmp /dev/shm; do mount -t tmpfs -o mode=1777 tmpfs "$d"; done
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /run/out /run/netns
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /run/out
ip link set lo up

# shellcheck source=/dev/null
. /run/out/job.env

# Upstream's modules of the test kernel, for modprobe.
rel=$(uname -r)
mount -t tmpfs tmpfs /lib/modules
ln -s "$KDIR/modroot/lib/modules/$rel" "/lib/modules/$rel"

finish() {
	sync
	/bin/busybox poweroff -f
}

# kmemleak's periodic scan thread is stopped: under TCG a scan occupies a
# vCPU for many seconds at a random point of a random scenario (timing-
# bound cases such as RC retry timers then see stalls).  run-scenarios.sh
# scans at the end instead, and leaves out what the boot leaked (objects
# older than the scenarios).
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan=off >/sys/kernel/debug/kmemleak
fi
dmesg >/run/out/boot.dmesg
dmesg -C

cd "$REPO" || finish
export REPO MODDIR KDIR STACK OUT=/run/out
case "$MODE" in
shell)
	echo "test VM: $STACK stack loaded; 'exit' or Ctrl-D powers off"
	setsid -c /bin/bash -c '. tools/testing/vm/lib.sh; stack_load "$STACK"; exec /bin/bash -i' \
		</dev/ttyS0 >/dev/ttyS0 2>&1
	;;
cmd)
	bash -c '. tools/testing/vm/lib.sh && stack_load "$STACK" && eval "$CMD"' \
		</dev/null 2>&1 | tee /run/out/cmd.log
	echo "${PIPESTATUS[0]}" >/run/out/cmd.rc
	;;
scenarios)
	bash tools/testing/vm/run-scenarios.sh $SCENARIOS
	;;
esac
finish
