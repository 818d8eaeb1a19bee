// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* rxe_odp.c, built into the KUnit module (see Kbuild) */
#include "../rxe_odp.c"
