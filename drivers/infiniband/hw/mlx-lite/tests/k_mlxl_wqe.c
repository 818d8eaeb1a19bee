// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* mlxl_wqe.c, built into the KUnit module (see Kbuild) */
#include "../mlxl_wqe.c"
