// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* fwsim/fwsim_mkey.c, built into the KUnit module (see Kbuild) */
#include "../fwsim/fwsim_mkey.c"
