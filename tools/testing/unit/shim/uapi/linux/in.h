/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for <uapi/linux/in.h> (tools/testing/unit): forwards to the
 * system's <linux/in.h> (struct sockaddr_in); never retype uapi content
 * here.
 */
#ifndef _UNIT_SHIM_UAPI_LINUX_IN_H
#define _UNIT_SHIM_UAPI_LINUX_IN_H

#include <linux/in.h>

#endif
