/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for <uapi/rdma/rdma_user_ioctl_cmds.h> (tools/testing/unit).
 *
 * The kernel tree spells uapi headers with a "uapi/" prefix; on the host
 * the same header is installed as <rdma/rdma_user_ioctl_cmds.h> (Debian
 * linux-libc-dev / libibverbs-dev).  Use that one; never retype uapi
 * content here.
 */
#ifndef _UNIT_SHIM_UAPI_RDMA_RDMA_USER_IOCTL_CMDS_H
#define _UNIT_SHIM_UAPI_RDMA_RDMA_USER_IOCTL_CMDS_H

#include <rdma/rdma_user_ioctl_cmds.h>

#endif
