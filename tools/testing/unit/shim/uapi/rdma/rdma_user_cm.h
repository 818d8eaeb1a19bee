/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for <uapi/rdma/rdma_user_cm.h> (tools/testing/unit): forwards
 * to the system's <rdma/rdma_user_cm.h>; never retype uapi content here.
 */
#ifndef _UNIT_SHIM_UAPI_RDMA_RDMA_USER_CM_H
#define _UNIT_SHIM_UAPI_RDMA_RDMA_USER_CM_H

#include <rdma/rdma_user_cm.h>

#endif
