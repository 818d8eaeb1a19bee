/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for <uapi/rdma/ib_user_verbs.h> (tools/testing/unit): forwards
 * to the system's <rdma/ib_user_verbs.h>; never retype uapi content here.
 */
#ifndef _UNIT_SHIM_UAPI_RDMA_IB_USER_VERBS_H
#define _UNIT_SHIM_UAPI_RDMA_IB_USER_VERBS_H

#include <rdma/ib_user_verbs.h>

#endif
