#!/bin/bash
# Wire pair "rxe-interop", guest A (our stack; B runs upstream's):
# see rxe-interop.inc.sh.
SIDE=A
SIDE_STACK=ours
# shellcheck source=SCRIPTDIR/rxe-interop.inc.sh
. "$REPO/tools/testing/vm/wire/rxe-interop.inc.sh"
