// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* mlxl_dp.c, built into the KUnit module (see Kbuild) */
#include "../mlxl_dp.c"
