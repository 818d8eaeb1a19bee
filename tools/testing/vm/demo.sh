#!/bin/bash
# make demo: boot the test VM with our stack and show what works today.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
kdir=$("$here/build-kernel.sh") || exit 1
exec "$here/run-vm.sh" --kdir "$kdir" --out "$repo/build/demo" --cmd "bash $here/demo/demo.sh"
