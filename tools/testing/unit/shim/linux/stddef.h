/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for <linux/stddef.h> (tools/testing/unit): the system's uapi
 * header plus what the kernel's version adds for pure files, offsetof()
 * (from the C library) and sizeof_field().  Type level only.
 */
#ifndef _UNIT_SHIM_LINUX_STDDEF_H
#define _UNIT_SHIM_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#ifndef sizeof_field
#define sizeof_field(TYPE, MEMBER)	sizeof((((TYPE *)0)->MEMBER))
#endif

#endif /* _UNIT_SHIM_LINUX_STDDEF_H */
