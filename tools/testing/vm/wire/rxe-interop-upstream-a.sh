#!/bin/bash
# Wire pair "rxe-interop-upstream", guest A: rxe-interop.inc.sh with
# upstream's stack on both sides (the baseline that proves the scripts).
# tier: full (the rxe-interop pair covers the wire in make check)
SIDE=A
SIDE_STACK=upstream
# shellcheck source=SCRIPTDIR/rxe-interop.inc.sh
. "$REPO/tools/testing/vm/wire/rxe-interop.inc.sh"
