/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Checks of the uverbs ioctl() ABI (RDMA_VERBS_IOCTL), as pure logic:
 * type-level headers only, so tools/testing/unit compiles and tests it on
 * the host as C++.  The rules are those of Documentation/core/uverbs.rst
 * ("ioctl()").
 *
 * Only the methods of uverbs_ioctl_methods[] are served; every other
 * object/method answers EPROTONOSUPPORT, which tells libibverbs to use
 * write() for that verb (and, for its INVOKE_WRITE probe, for all
 * write-style commands).
 */
#ifndef _UVERBS_IOCTL_CHECK_H
#define _UVERBS_IOCTL_CHECK_H

#include <linux/types.h>
#include <uapi/rdma/rdma_user_ioctl_cmds.h>
#include <uapi/rdma/ib_user_ioctl_cmds.h>

/* What one attribute of a method must be. */
struct uverbs_ioctl_attr_spec {
	u16 id;
	u8 out;			/* a user pointer written back, not an inline value */
	u8 mandatory;		/* missing: EINVAL */
	u16 min_len, max_len;
};

#define UVERBS_IOCTL_MAX_METHOD_ATTRS	4

struct uverbs_ioctl_method {
	u16 object, method;
	u16 nattrs;
	struct uverbs_ioctl_attr_spec attrs[UVERBS_IOCTL_MAX_METHOD_ATTRS];
};

/* Where a method's attributes are in the user's array (-1: absent). */
struct uverbs_ioctl_args {
	const struct uverbs_ioctl_method *m;
	s16 at[UVERBS_IOCTL_MAX_METHOD_ATTRS];	/* by position in m->attrs */
};

/* The largest request: header and attributes within one page. */
#define UVERBS_IOCTL_MAX_LEN	4096u

/* The served method for (@object, @method), NULL if there is none. */
const struct uverbs_ioctl_method *uverbs_ioctl_method_find(u16 object,
							   u16 method);

/*
 * The header: -EINVAL when length is not the header plus num_attrs
 * attributes or exceeds UVERBS_IOCTL_MAX_LEN; -EPROTONOSUPPORT for a
 * non-zero reserved field or a method that is not served.  *@m: the method.
 */
int uverbs_ioctl_check_hdr(const struct ib_uverbs_ioctl_hdr *hdr,
			   const struct uverbs_ioctl_method **m);

/*
 * The attributes: -EPROTONOSUPPORT for an unknown one flagged mandatory
 * (unknown optional ones are ignored); -EINVAL for unknown flag bits, a
 * non-zero reserved field, a repeated attribute, a missing mandatory one,
 * a length out of the method's range, or an inline value that is not 1,
 * 2, 4 or 8 bytes.  Fills @out.
 */
int uverbs_ioctl_check_attrs(const struct uverbs_ioctl_method *m,
			     const struct ib_uverbs_attr *attrs, u16 n,
			     struct uverbs_ioctl_args *out);

/* The value of an inline attribute (len 1, 2, 4 or 8, checked). */
u64 uverbs_ioctl_inline(const struct ib_uverbs_attr *a);

/*
 * QUERY_GID_TABLE's buffer: @buf_len bytes of @entry_size entries.
 * -EINVAL for a zero or oversized entry size, an empty buffer or one that
 * is not a whole number of entries.  *@max: how many entries fit.
 */
int uverbs_gid_table_fit(u64 entry_size, u32 buf_len, u32 *max);

#endif
