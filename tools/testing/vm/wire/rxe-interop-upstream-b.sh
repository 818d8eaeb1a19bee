#!/bin/bash
# Wire pair "rxe-interop-upstream", guest B: rxe-interop.inc.sh with
# upstream's stack on both sides (the baseline that proves the scripts).
SIDE=B
SIDE_STACK=upstream
# shellcheck source=SCRIPTDIR/rxe-interop.inc.sh
. "$REPO/tools/testing/vm/wire/rxe-interop.inc.sh"
