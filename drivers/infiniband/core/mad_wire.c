// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MAD wire format (ib_mad_wire.h): the table-driven bit-field codec, the
 * common MAD header and the receive checks.  Pure: builds on the host too.
 *
 * The codec walks a field bit by bit-run: each step takes the bits of one
 * byte that belong to the field, so fields may start and end anywhere and
 * span bytes.  Values are assembled most significant bits first, which is
 * the wire's big-endian order.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/stddef.h>
#include <rdma/ib_mad_wire.h>

/* bits [first, first + width) of @buf, MSB-first; @width <= 64 */
static u64 wire_bits_get(const u8 *buf, u32 first, u32 width)
{
	u32 pos = first, end = first + width;
	u64 v = 0;

	while (pos < end) {
		u32 used = pos & 7;	/* bits of this byte before us */
		u32 n = 8 - used;
		u32 chunk;

		if (n > end - pos)
			n = end - pos;
		chunk = (u32)buf[pos >> 3] >> (8 - used - n);
		v = v << n | (chunk & ((1U << n) - 1));
		pos += n;
	}
	return v;
}

/* store the low @width bits of @v at bits [first, first + width) */
static void wire_bits_set(u8 *buf, u32 first, u32 width, u64 v)
{
	u32 pos = first + width;	/* one past the field's last bit */

	while (pos > first) {
		/* the bits of pos's byte up to pos, and their shift */
		u32 fill = ((pos - 1) & 7) + 1;
		u32 n = fill < pos - first ? fill : pos - first;
		u32 lsb = 8 - fill;
		u32 mask = ((1U << n) - 1) << lsb;
		u8 *b = &buf[(pos - 1) >> 3];

		*b = (u8)((*b & ~mask) | (((u32)v << lsb) & mask));
		v >>= n;
		pos -= n;
	}
}

u64 ib_wire_field_get(const u8 *buf, const struct ib_wire_field *f)
{
	return wire_bits_get(buf, f->byte * 8U + f->bit, f->width);
}
EXPORT_SYMBOL(ib_wire_field_get);

void ib_wire_field_set(u8 *buf, const struct ib_wire_field *f, u64 v)
{
	wire_bits_set(buf, f->byte * 8U + f->bit, f->width, v);
}
EXPORT_SYMBOL(ib_wire_field_set);

/* a field that fits its buffer and its member, and is well formed */
static bool field_ok(const struct ib_wire_field *f, u32 len, u32 host_size)
{
	if (ib_wire_field_end(f) > len || f->width == 0 || f->bit > 7)
		return false;
	if (f->member + (u32)f->member_size > host_size)
		return false;
	if (f->flags & IB_WIRE_F_BYTES)
		return f->bit == 0 && f->width % 8 == 0 &&
		       f->member_size == f->width / 8;
	if (f->member_size != 1 && f->member_size != 2 &&
	    f->member_size != 4 && f->member_size != 8)
		return false;
	return f->shift + (u32)f->width <= f->member_size * 8U;
}

static u64 member_load(const u8 *m, u8 size)
{
	switch (size) {
	case 1:
		return *m;
	case 2:
		return *(const u16 *)m;
	case 4:
		return *(const u32 *)m;
	default:
		return *(const u64 *)m;
	}
}

static void member_or(u8 *m, u8 size, u64 v)
{
	switch (size) {
	case 1:
		*m |= (u8)v;
		break;
	case 2:
		*(u16 *)m |= (u16)v;
		break;
	case 4:
		*(u32 *)m |= (u32)v;
		break;
	default:
		*(u64 *)m |= v;
		break;
	}
}

static void bytes_copy(u8 *dst, const u8 *src, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = src[i];
}

int ib_wire_unpack(const u8 *buf, u32 len, const struct ib_wire_field *fields,
		   u32 n, void *host, u32 host_size)
{
	u8 *h = (u8 *)host;
	u32 i;

	for (i = 0; i < host_size; i++)
		h[i] = 0;
	for (i = 0; i < n; i++)
		if (!field_ok(&fields[i], len, host_size))
			return -EINVAL;
	for (i = 0; i < n; i++) {
		const struct ib_wire_field *f = &fields[i];

		if (f->flags & IB_WIRE_F_BYTES)
			bytes_copy(h + f->member, buf + f->byte, f->width / 8U);
		else
			member_or(h + f->member, f->member_size,
				  ib_wire_field_get(buf, f) << f->shift);
	}
	return 0;
}
EXPORT_SYMBOL(ib_wire_unpack);

/* whether the member behind @f holds bits above what the fields carry */
static bool member_too_wide(const struct ib_wire_field *f, const u8 *h)
{
	u32 top = f->shift + (u32)f->width;

	if (f->flags & (IB_WIRE_F_BYTES | IB_WIRE_F_LOWER) || top >= 64)
		return false;
	return member_load(h + f->member, f->member_size) >> top != 0;
}

int ib_wire_pack(u8 *buf, u32 len, const struct ib_wire_field *fields,
		 u32 n, const void *host, u32 host_size)
{
	const u8 *h = (const u8 *)host;
	u32 i;

	for (i = 0; i < n; i++) {
		if (!field_ok(&fields[i], len, host_size))
			return -EINVAL;
		if (member_too_wide(&fields[i], h))
			return -ERANGE;
	}
	for (i = 0; i < n; i++) {
		const struct ib_wire_field *f = &fields[i];
		const u8 *m = h + f->member;
		u64 v;

		if (f->flags & IB_WIRE_F_BYTES) {
			bytes_copy(buf + f->byte, m, f->width / 8U);
			continue;
		}
		v = member_load(m, f->member_size) >> f->shift;
		ib_wire_field_set(buf, f, v);
	}
	return 0;
}
EXPORT_SYMBOL(ib_wire_pack);

/* ---- the common MAD header ---- */

#define HDR_FIELD(m, at, bits) {					\
	.name = #m,							\
	.byte = (at),							\
	.bit = 0,							\
	.shift = 0,							\
	.width = (bits),						\
	.member = offsetof(struct ib_mad_wire_hdr, m),			\
	.member_size = sizeof_field(struct ib_mad_wire_hdr, m),		\
	.flags = 0,							\
}

static const struct ib_wire_field mad_hdr_fields[] = {
	HDR_FIELD(base_version, 0, 8),
	HDR_FIELD(mgmt_class, 1, 8),
	HDR_FIELD(class_version, 2, 8),
	HDR_FIELD(method, 3, 8),
	HDR_FIELD(status, 4, 16),
	HDR_FIELD(class_specific, 6, 16),
	HDR_FIELD(tid, 8, 64),
	HDR_FIELD(attr_id, 16, 16),
	HDR_FIELD(attr_mod, 20, 32),
};

#define MAD_HDR_NFIELDS	\
	(sizeof(mad_hdr_fields) / sizeof(mad_hdr_fields[0]))

const struct ib_wire_field *ib_mad_wire_hdr_fields(u32 *n)
{
	*n = MAD_HDR_NFIELDS;
	return mad_hdr_fields;
}
EXPORT_SYMBOL(ib_mad_wire_hdr_fields);

int ib_mad_wire_hdr_decode(const u8 *mad, u32 len, struct ib_mad_wire_hdr *hdr)
{
	return ib_wire_unpack(mad, len, mad_hdr_fields, MAD_HDR_NFIELDS, hdr,
			      sizeof(*hdr));
}
EXPORT_SYMBOL(ib_mad_wire_hdr_decode);

int ib_mad_wire_hdr_encode(u8 *mad, u32 len, const struct ib_mad_wire_hdr *hdr)
{
	u32 i;

	if (len < IB_MAD_WIRE_HDR_LEN)
		return -EINVAL;
	for (i = 0; i < IB_MAD_WIRE_HDR_LEN; i++)
		mad[i] = 0;
	return ib_wire_pack(mad, len, mad_hdr_fields, MAD_HDR_NFIELDS, hdr,
			    sizeof(*hdr));
}
EXPORT_SYMBOL(ib_mad_wire_hdr_encode);

bool ib_mad_wire_is_response(const struct ib_mad_wire_hdr *hdr)
{
	if (hdr->method & IB_MAD_WIRE_METHOD_RESP)
		return true;
	if (hdr->method == IB_MAD_WIRE_METHOD_TRAP_REPRESS)
		return true;
	return hdr->mgmt_class == IB_MAD_WIRE_CLASS_BM &&
	       (hdr->attr_mod & IB_MAD_WIRE_BM_ATTR_MOD_RESP);
}
EXPORT_SYMBOL(ib_mad_wire_is_response);

static bool class_is_smi(u8 mgmt_class)
{
	return mgmt_class == IB_MAD_WIRE_CLASS_SUBN_LID ||
	       mgmt_class == IB_MAD_WIRE_CLASS_SUBN_DR;
}

/* the rules in order; the first that fails names the refusal */
enum ib_mad_wire_why ib_mad_wire_check_hdr(const struct ib_mad_wire_hdr *hdr,
					   bool on_qp0)
{
	if (hdr->base_version != IB_MAD_WIRE_BASE_VERSION)
		return IB_MAD_WHY_BASE_VERSION;
	if (class_is_smi(hdr->mgmt_class) && !on_qp0)
		return IB_MAD_WHY_SMI_NOT_QP0;
	if (!class_is_smi(hdr->mgmt_class) && on_qp0)
		return IB_MAD_WHY_GSI_ON_QP0;
	if (hdr->mgmt_class != IB_MAD_WIRE_CLASS_CM)
		return IB_MAD_WHY_OK;
	if (hdr->method != IB_MAD_WIRE_METHOD_SEND) {
		if (hdr->attr_id != IB_MAD_WIRE_ATTR_CLASS_PORT_INFO)
			return IB_MAD_WHY_CM_METHOD;
		return IB_MAD_WHY_OK;
	}
	if (hdr->class_version != IB_MAD_WIRE_CM_CLASS_VERSION)
		return IB_MAD_WHY_CM_CLASS_VERSION;
	return IB_MAD_WHY_OK;
}
EXPORT_SYMBOL(ib_mad_wire_check_hdr);

static const int why_errno[IB_MAD_WHY_NUM] = {
	[IB_MAD_WHY_OK] = 0,
	[IB_MAD_WHY_SHORT] = -EINVAL,
	[IB_MAD_WHY_LONG] = -EINVAL,
	[IB_MAD_WHY_BASE_VERSION] = -EPROTONOSUPPORT,
	[IB_MAD_WHY_SMI_NOT_QP0] = -EPROTO,
	[IB_MAD_WHY_GSI_ON_QP0] = -EPROTO,
	[IB_MAD_WHY_CM_METHOD] = -EOPNOTSUPP,
	[IB_MAD_WHY_CM_CLASS_VERSION] = -EPROTONOSUPPORT,
};

static const char *const why_names[IB_MAD_WHY_NUM] = {
	[IB_MAD_WHY_OK] = "ok",
	[IB_MAD_WHY_SHORT] = "short",
	[IB_MAD_WHY_LONG] = "long",
	[IB_MAD_WHY_BASE_VERSION] = "base_version",
	[IB_MAD_WHY_SMI_NOT_QP0] = "smi_not_qp0",
	[IB_MAD_WHY_GSI_ON_QP0] = "gsi_on_qp0",
	[IB_MAD_WHY_CM_METHOD] = "cm_method",
	[IB_MAD_WHY_CM_CLASS_VERSION] = "cm_class_version",
};

int ib_mad_wire_check_recv(const u8 *mad, u32 len, bool on_qp0,
			   struct ib_mad_wire_hdr *hdr,
			   enum ib_mad_wire_why *why)
{
	enum ib_mad_wire_why w;

	if (len < IB_MAD_WIRE_SIZE)
		w = IB_MAD_WHY_SHORT;
	else if (len > IB_MAD_WIRE_SIZE)
		w = IB_MAD_WHY_LONG;
	else if (ib_mad_wire_hdr_decode(mad, len, hdr))
		w = IB_MAD_WHY_SHORT;
	else
		w = ib_mad_wire_check_hdr(hdr, on_qp0);
	if (why)
		*why = w;
	return why_errno[w];
}
EXPORT_SYMBOL(ib_mad_wire_check_recv);

const char *ib_mad_wire_why_str(enum ib_mad_wire_why why)
{
	if ((u32)why >= IB_MAD_WHY_NUM)
		return "unknown";
	return why_names[why];
}
EXPORT_SYMBOL(ib_mad_wire_why_str);

bool ib_mad_wire_wants_reply(const struct ib_mad_wire_hdr *hdr)
{
	if (ib_mad_wire_is_response(hdr))
		return false;
	return hdr->method == IB_MAD_WIRE_METHOD_GET ||
	       hdr->method == IB_MAD_WIRE_METHOD_SET;
}
EXPORT_SYMBOL(ib_mad_wire_wants_reply);

int ib_mad_wire_make_reply(u8 *mad, u32 len, u16 status)
{
	struct ib_mad_wire_hdr hdr;

	if (ib_mad_wire_hdr_decode(mad, len, &hdr) ||
	    !ib_mad_wire_wants_reply(&hdr))
		return -EINVAL;
	hdr.method = IB_MAD_WIRE_METHOD_GET_RESP;
	hdr.status = status;
	return ib_mad_wire_hdr_encode(mad, len, &hdr);
}
EXPORT_SYMBOL(ib_mad_wire_make_reply);
