/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for <linux/types.h> (tools/testing/unit).
 *
 * The system header (linux-libc-dev) provides the uapi types (__u8 ...
 * __u64, __s8 ... __s64, __le32, ...).  This shim adds the kernel-internal
 * short names on top, plus bool/true/false for C.  Type level only: no
 * functions, no macros with behaviour.
 */
#ifndef _UNIT_SHIM_LINUX_TYPES_H
#define _UNIT_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>

#ifndef __cplusplus
#include <stdbool.h>
#endif
#include <stddef.h>	/* NULL, size_t */

typedef __u8	u8;
typedef __u16	u16;
typedef __u32	u32;
typedef __u64	u64;
typedef __s8	s8;
typedef __s16	s16;
typedef __s32	s32;
typedef __s64	s64;

#endif /* _UNIT_SHIM_LINUX_TYPES_H */
