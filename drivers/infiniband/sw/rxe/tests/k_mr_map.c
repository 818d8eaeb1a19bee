// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* rxe_mr_map.c, built into the KUnit module (see Kbuild) */
#include "../rxe_mr_map.c"
