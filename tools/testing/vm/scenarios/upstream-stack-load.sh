#!/bin/bash
# Upstream's RDMA modules of the test kernel load and unload, so every
# later scenario and benchmark can be run against them for comparison.
# tier: full (make check loads upstream's modules in the comparison
# scenarios anyway)
. "$REPO/tools/testing/vm/lib.sh"
mods="ib_core ib_uverbs rdma_cm rdma_ucm rdma_rxe siw"
for m in $mods; do
	modprobe "$m" || die "modprobe $m"
done
lsmod | grep -E '^(ib_core|rdma_rxe|siw) '
modprobe -r siw rdma_rxe rdma_ucm rdma_cm ib_uverbs ib_cm iw_cm ib_core || die "modprobe -r"
if lsmod | grep -Eq '^(ib_core|rdma_rxe|siw|ib_uverbs) '; then
	die "upstream modules still loaded"
fi
echo "upstream stack: load/unload clean"
