/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for <linux/socket.h> (tools/testing/unit): the system's uapi
 * header (struct __kernel_sockaddr_storage) plus the address families the
 * kernel's version adds.  They are spelled exactly as the C library's
 * <bits/socket.h> spells them, so a test that also includes
 * <sys/socket.h> sees identical definitions in either order.
 */
#ifndef _UNIT_SHIM_LINUX_SOCKET_H
#define _UNIT_SHIM_LINUX_SOCKET_H

#include_next <linux/socket.h>

#ifndef PF_UNSPEC
#define PF_UNSPEC	0
#endif
#ifndef PF_INET
#define PF_INET		2
#endif
#ifndef PF_INET6
#define PF_INET6	10
#endif
#ifndef PF_IB
#define PF_IB		27
#endif
#ifndef AF_UNSPEC
#define AF_UNSPEC	PF_UNSPEC
#endif
#ifndef AF_INET
#define AF_INET		PF_INET
#endif
#ifndef AF_INET6
#define AF_INET6	PF_INET6
#endif
#ifndef AF_IB
#define AF_IB		PF_IB
#endif

#endif /* _UNIT_SHIM_LINUX_SOCKET_H */
