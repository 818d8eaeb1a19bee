#!/bin/bash
# Wire pair "rxe-interop", guest B (upstream's stack; A runs ours):
# see rxe-interop.inc.sh.
SIDE=B
SIDE_STACK=upstream
# shellcheck source=SCRIPTDIR/rxe-interop.inc.sh
. "$REPO/tools/testing/vm/wire/rxe-interop.inc.sh"
