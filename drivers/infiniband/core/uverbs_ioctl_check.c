// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The uverbs ioctl() header, attribute and buffer rules (pure logic;
 * uverbs_ioctl_check.h).  The method table is data: one row per served
 * method, one spec per attribute.
 */
#include <linux/errno.h>

#include "uverbs_ioctl_check.h"

#define ATTR_IN(_id, _min, _max, _mand) \
	{ .id = (_id), .out = 0, .mandatory = (_mand), .min_len = (_min), .max_len = (_max) }
#define ATTR_OUT(_id, _min, _max, _mand) \
	{ .id = (_id), .out = 1, .mandatory = (_mand), .min_len = (_min), .max_len = (_max) }

/* sizeof(struct ib_uverbs_gid_entry), the least a GID entry buffer holds */
#define GID_ENTRY_LEN	32u

static const struct uverbs_ioctl_method uverbs_ioctl_methods[] = {
	{
		.object = UVERBS_OBJECT_DEVICE,
		.method = UVERBS_METHOD_QUERY_GID_TABLE,
		.nattrs = 4,
		.attrs = {
			ATTR_IN(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 1, 8, 1),
			ATTR_IN(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 4, 8, 0),
			ATTR_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, 1, 0xffff, 1),
			ATTR_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8, 8, 1),
		},
	},
	{
		.object = UVERBS_OBJECT_DEVICE,
		.method = UVERBS_METHOD_QUERY_GID_ENTRY,
		.nattrs = 4,
		.attrs = {
			ATTR_IN(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 1, 8, 1),
			ATTR_IN(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 1, 8, 1),
			ATTR_IN(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 4, 8, 1),
			ATTR_OUT(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, GID_ENTRY_LEN, 0xffff, 1),
		},
	},
};

const struct uverbs_ioctl_method *uverbs_ioctl_method_find(u16 object,
							   u16 method)
{
	unsigned int i;

	for (i = 0; i < sizeof(uverbs_ioctl_methods) / sizeof(uverbs_ioctl_methods[0]); i++)
		if (uverbs_ioctl_methods[i].object == object &&
		    uverbs_ioctl_methods[i].method == method)
			return &uverbs_ioctl_methods[i];
	return NULL;
}

int uverbs_ioctl_check_hdr(const struct ib_uverbs_ioctl_hdr *hdr,
			   const struct uverbs_ioctl_method **m)
{
	u32 want = (u32)sizeof(*hdr) +
		   (u32)hdr->num_attrs * (u32)sizeof(struct ib_uverbs_attr);

	if (hdr->length != want || want > UVERBS_IOCTL_MAX_LEN)
		return -EINVAL;
	if (hdr->reserved1 || hdr->reserved2)
		return -EPROTONOSUPPORT;
	*m = uverbs_ioctl_method_find(hdr->object_id, hdr->method_id);
	return *m ? 0 : -EPROTONOSUPPORT;
}

int uverbs_ioctl_check_attrs(const struct uverbs_ioctl_method *m,
			     const struct ib_uverbs_attr *attrs, u16 n,
			     struct uverbs_ioctl_args *out)
{
	const struct uverbs_ioctl_attr_spec *s;
	u16 i, j;

	out->m = m;
	for (j = 0; j < UVERBS_IOCTL_MAX_METHOD_ATTRS; j++)
		out->at[j] = -1;
	for (i = 0; i < n; i++) {
		const struct ib_uverbs_attr *a = &attrs[i];

		if (a->flags & ~(UVERBS_ATTR_F_MANDATORY | UVERBS_ATTR_F_VALID_OUTPUT))
			return -EINVAL;
		for (j = 0; j < m->nattrs; j++)
			if (m->attrs[j].id == a->attr_id)
				break;
		if (j == m->nattrs) {
			if (a->flags & UVERBS_ATTR_F_MANDATORY)
				return -EPROTONOSUPPORT;
			continue;
		}
		s = &m->attrs[j];
		if (out->at[j] >= 0 || a->attr_data.reserved)
			return -EINVAL;
		if (a->len < s->min_len || a->len > s->max_len)
			return -EINVAL;
		/* an inline value is a u8, u16, u32 or u64 */
		if (!s->out && (a->len & (a->len - 1)))
			return -EINVAL;
		out->at[j] = (s16)i;
	}
	for (j = 0; j < m->nattrs; j++)
		if (m->attrs[j].mandatory && out->at[j] < 0)
			return -EINVAL;
	return 0;
}

u64 uverbs_ioctl_inline(const struct ib_uverbs_attr *a)
{
	union {
		u64 v64;
		u32 v32;
		u16 v16;
		u8 v8;
	} u;

	/* a value of len bytes at the start of data, in the CPU's order */
	u.v64 = a->data;
	switch (a->len) {
	case 1:
		return u.v8;
	case 2:
		return u.v16;
	case 4:
		return u.v32;
	default:
		return u.v64;
	}
}

int uverbs_gid_table_fit(u64 entry_size, u32 buf_len, u32 *max)
{
	if (!entry_size || entry_size > 0xffff || !buf_len ||
	    buf_len % (u32)entry_size)
		return -EINVAL;
	*max = buf_len / (u32)entry_size;
	return 0;
}
