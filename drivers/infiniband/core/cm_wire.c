// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CM messages on the wire (ib_cm_wire.h).  Pure: builds on the host too.
 *
 * Each message is a table of fields (offset in the MAD data, first bit
 * MSB-first, width) bound to the members of its host struct; the generic
 * codec of mad_wire.c moves the values.  What a table cannot say, the
 * values the protocol reserves, is checked per message after decoding.
 * Reserved bits are written as zero and ignored on receive.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/stddef.h>
#include <rdma/ib_cm_wire.h>

/* a number field of CMW_HOST; a split one; a byte string */
#define NUM(m, at, b, w)	PART(m, at, b, w, 0, 0)
#define PART(m, at, b, w, sh, fl) {					\
	.name = #m,							\
	.byte = (at),							\
	.bit = (b),							\
	.shift = (sh),							\
	.width = (w),							\
	.member = offsetof(CMW_HOST, m),				\
	.member_size = sizeof_field(CMW_HOST, m),			\
	.flags = (fl),							\
}
#define BYTES(m, at, n) {						\
	.name = #m,							\
	.byte = (at),							\
	.bit = 0,							\
	.shift = 0,							\
	.width = (n) * 8,						\
	.member = offsetof(CMW_HOST, m),				\
	.member_size = sizeof_field(CMW_HOST, m),			\
	.flags = IB_WIRE_F_BYTES,					\
}
#define PRIV(msg)	BYTES(private_data, IB_CM_WIRE_##msg##_PRIV_OFF, \
			      IB_CM_WIRE_##msg##_PRIV_LEN)
/* one REQ path, 44 bytes from @at */
#define PATH(p, at)							\
	NUM(p.local_lid, (at) + 0, 0, 16),				\
	NUM(p.remote_lid, (at) + 2, 0, 16),				\
	BYTES(p.local_gid, (at) + 4, IB_CM_WIRE_GID_LEN),		\
	BYTES(p.remote_gid, (at) + 20, IB_CM_WIRE_GID_LEN),		\
	NUM(p.flow_label, (at) + 36, 0, 20),				\
	NUM(p.packet_rate, (at) + 39, 2, 6),				\
	NUM(p.traffic_class, (at) + 40, 0, 8),				\
	NUM(p.hop_limit, (at) + 41, 0, 8),				\
	NUM(p.sl, (at) + 42, 0, 4),					\
	NUM(p.subnet_local, (at) + 42, 4, 1),				\
	NUM(p.local_ack_timeout, (at) + 43, 0, 5)

#define CMW_HOST struct ib_cm_req_fields
static const struct ib_wire_field req_fields[] = {
	NUM(local_comm_id, 0, 0, 32),
	NUM(vendor_id, 5, 0, 24),
	NUM(service_id, 8, 0, 64),
	NUM(local_ca_guid, 16, 0, 64),
	NUM(local_qkey, 28, 0, 32),
	NUM(local_qpn, 32, 0, 24),
	NUM(responder_resources, 35, 0, 8),
	NUM(local_eecn, 36, 0, 24),
	NUM(initiator_depth, 39, 0, 8),
	NUM(remote_eecn, 40, 0, 24),
	NUM(remote_cm_response_timeout, 43, 0, 5),
	NUM(transport_type, 43, 5, 2),
	NUM(flow_control, 43, 7, 1),
	NUM(starting_psn, 44, 0, 24),
	NUM(local_cm_response_timeout, 47, 0, 5),
	NUM(retry_count, 47, 5, 3),
	NUM(pkey, 48, 0, 16),
	NUM(mtu, 50, 0, 4),
	NUM(rdc_exists, 50, 4, 1),
	NUM(rnr_retry_count, 50, 5, 3),
	NUM(max_cm_retries, 51, 0, 4),
	NUM(srq, 51, 4, 1),
	NUM(ext_transport_type, 51, 5, 3),
	PATH(primary, 52),
	PATH(alternate, 96),
	NUM(sap_supported, 139, 5, 1),
	PRIV(REQ),
};
#undef CMW_HOST

#define CMW_HOST struct ib_cm_mra_fields
static const struct ib_wire_field mra_fields[] = {
	NUM(local_comm_id, 0, 0, 32),
	NUM(remote_comm_id, 4, 0, 32),
	NUM(msg_mraed, 8, 0, 2),
	NUM(service_timeout, 9, 0, 5),
	PRIV(MRA),
};
#undef CMW_HOST

#define CMW_HOST struct ib_cm_rej_fields
static const struct ib_wire_field rej_fields[] = {
	NUM(local_comm_id, 0, 0, 32),
	NUM(remote_comm_id, 4, 0, 32),
	NUM(msg_rejected, 8, 0, 2),
	NUM(ari_length, 9, 0, 7),
	NUM(reason, 10, 0, 16),
	BYTES(ari, 12, IB_CM_WIRE_INFO_LEN),
	PRIV(REJ),
};
#undef CMW_HOST

#define CMW_HOST struct ib_cm_rep_fields
static const struct ib_wire_field rep_fields[] = {
	NUM(local_comm_id, 0, 0, 32),
	NUM(remote_comm_id, 4, 0, 32),
	NUM(local_qkey, 8, 0, 32),
	NUM(local_qpn, 12, 0, 24),
	PART(vendor_id, 15, 0, 8, 16, 0),
	NUM(local_eecn, 16, 0, 24),
	PART(vendor_id, 19, 0, 8, 8, IB_WIRE_F_LOWER),
	NUM(starting_psn, 20, 0, 24),
	PART(vendor_id, 23, 0, 8, 0, IB_WIRE_F_LOWER),
	NUM(responder_resources, 24, 0, 8),
	NUM(initiator_depth, 25, 0, 8),
	NUM(target_ack_delay, 26, 0, 5),
	NUM(failover_accepted, 26, 5, 2),
	NUM(flow_control, 26, 7, 1),
	NUM(rnr_retry_count, 27, 0, 3),
	NUM(srq, 27, 3, 1),
	NUM(local_ca_guid, 28, 0, 64),
	PRIV(REP),
};
#undef CMW_HOST

#define CMW_HOST struct ib_cm_rtu_fields
static const struct ib_wire_field rtu_fields[] = {
	NUM(local_comm_id, 0, 0, 32),
	NUM(remote_comm_id, 4, 0, 32),
	PRIV(RTU),
};
#undef CMW_HOST

#define CMW_HOST struct ib_cm_dreq_fields
static const struct ib_wire_field dreq_fields[] = {
	NUM(local_comm_id, 0, 0, 32),
	NUM(remote_comm_id, 4, 0, 32),
	NUM(remote_qpn_eecn, 8, 0, 24),
	PRIV(DREQ),
};
#undef CMW_HOST

#define CMW_HOST struct ib_cm_drep_fields
static const struct ib_wire_field drep_fields[] = {
	NUM(local_comm_id, 0, 0, 32),
	NUM(remote_comm_id, 4, 0, 32),
	PRIV(DREP),
};
#undef CMW_HOST

#define CMW_HOST struct ib_cm_sidr_req_fields
static const struct ib_wire_field sidr_req_fields[] = {
	NUM(request_id, 0, 0, 32),
	NUM(pkey, 4, 0, 16),
	NUM(service_id, 8, 0, 64),
	PRIV(SIDR_REQ),
};
#undef CMW_HOST

#define CMW_HOST struct ib_cm_sidr_rep_fields
static const struct ib_wire_field sidr_rep_fields[] = {
	NUM(request_id, 0, 0, 32),
	NUM(status, 4, 0, 8),
	NUM(info_length, 5, 0, 8),
	PART(vendor_id, 6, 0, 16, 8, 0),
	NUM(qpn, 8, 0, 24),
	PART(vendor_id, 11, 0, 8, 0, IB_WIRE_F_LOWER),
	NUM(service_id, 12, 0, 64),
	NUM(qkey, 20, 0, 32),
	BYTES(info, 24, IB_CM_WIRE_INFO_LEN),
	PRIV(SIDR_REP),
};
#undef CMW_HOST

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

#define DESC(nm, msg, tbl, host) {					\
	.name = (nm),							\
	.attr_id = IB_CM_WIRE_ATTR_##msg,				\
	.priv_off = IB_CM_WIRE_##msg##_PRIV_OFF,			\
	.priv_len = IB_CM_WIRE_##msg##_PRIV_LEN,			\
	.host_size = sizeof(host),					\
	.fields = (tbl),						\
	.nfields = ARRAY_LEN(tbl),					\
}

/* indexed by attribute ID - REQ; LAP and APR have no entry */
static const struct ib_cm_wire_msg_desc cm_msgs[] = {
	DESC("REQ", REQ, req_fields, struct ib_cm_req_fields),
	DESC("MRA", MRA, mra_fields, struct ib_cm_mra_fields),
	DESC("REJ", REJ, rej_fields, struct ib_cm_rej_fields),
	DESC("REP", REP, rep_fields, struct ib_cm_rep_fields),
	DESC("RTU", RTU, rtu_fields, struct ib_cm_rtu_fields),
	DESC("DREQ", DREQ, dreq_fields, struct ib_cm_dreq_fields),
	DESC("DREP", DREP, drep_fields, struct ib_cm_drep_fields),
	DESC("SIDR_REQ", SIDR_REQ, sidr_req_fields,
	     struct ib_cm_sidr_req_fields),
	DESC("SIDR_REP", SIDR_REP, sidr_rep_fields,
	     struct ib_cm_sidr_rep_fields),
};

const struct ib_cm_wire_msg_desc *ib_cm_wire_desc(u16 attr_id)
{
	int i = ib_cm_wire_attr_index(attr_id);

	if (i < 0 || (u32)i >= ARRAY_LEN(cm_msgs))
		return NULL;
	return &cm_msgs[i];
}
EXPORT_SYMBOL(ib_cm_wire_desc);

const char *ib_cm_wire_attr_str(u16 attr_id)
{
	const struct ib_cm_wire_msg_desc *d = ib_cm_wire_desc(attr_id);

	if (d)
		return d->name;
	if (attr_id == IB_CM_WIRE_ATTR_LAP)
		return "LAP";
	if (attr_id == IB_CM_WIRE_ATTR_APR)
		return "APR";
	return "unknown";
}
EXPORT_SYMBOL(ib_cm_wire_attr_str);

/* ---- reserved values ---- */

static enum ib_cm_wire_why check_req(const struct ib_cm_req_fields *req)
{
	switch (req->transport_type) {
	case IB_CM_WIRE_TRANSPORT_RC:
	case IB_CM_WIRE_TRANSPORT_UC:
		break;
	case IB_CM_WIRE_TRANSPORT_EXTENDED:
		if (req->ext_transport_type == IB_CM_WIRE_EXT_TRANSPORT_XRC)
			break;
		return IB_CM_WHY_TRANSPORT;
	default:
		return IB_CM_WHY_TRANSPORT;
	}
	if (req->mtu < IB_CM_WIRE_MTU_256 || req->mtu > IB_CM_WIRE_MTU_4096)
		return IB_CM_WHY_MTU;
	return IB_CM_WHY_OK;
}

static bool msg_code_ok(u8 code)
{
	return code <= IB_CM_WIRE_MSG_OTHER;
}

static enum ib_cm_wire_why check_fields(u16 attr_id, const void *host)
{
	const struct ib_cm_mra_fields *mra;
	const struct ib_cm_rej_fields *rej;
	const struct ib_cm_sidr_rep_fields *srep;

	switch (attr_id) {
	case IB_CM_WIRE_ATTR_REQ:
		return check_req((const struct ib_cm_req_fields *)host);
	case IB_CM_WIRE_ATTR_MRA:
		mra = (const struct ib_cm_mra_fields *)host;
		if (!msg_code_ok(mra->msg_mraed))
			return IB_CM_WHY_MSG_CODE;
		return IB_CM_WHY_OK;
	case IB_CM_WIRE_ATTR_REJ:
		rej = (const struct ib_cm_rej_fields *)host;
		if (!msg_code_ok(rej->msg_rejected))
			return IB_CM_WHY_MSG_CODE;
		if (rej->ari_length > IB_CM_WIRE_INFO_LEN)
			return IB_CM_WHY_ARI_LEN;
		return IB_CM_WHY_OK;
	case IB_CM_WIRE_ATTR_REP:
		if (((const struct ib_cm_rep_fields *)host)->failover_accepted >
		    IB_CM_WIRE_FAILOVER_REJECTED)
			return IB_CM_WHY_FAILOVER;
		return IB_CM_WHY_OK;
	case IB_CM_WIRE_ATTR_SIDR_REP:
		srep = (const struct ib_cm_sidr_rep_fields *)host;
		if (srep->status > IB_CM_WIRE_SIDR_BAD_VERSION)
			return IB_CM_WHY_SIDR_STATUS;
		if (srep->info_length > IB_CM_WIRE_INFO_LEN)
			return IB_CM_WHY_INFO_LEN;
		return IB_CM_WHY_OK;
	default:
		return IB_CM_WHY_OK;
	}
}

/* ---- refusals ---- */

static const char *const why_names[IB_CM_WHY_NUM] = {
	[IB_CM_WHY_OK] = "ok",
	[IB_CM_WHY_SHORT] = "short",
	[IB_CM_WHY_NOT_CM] = "not_cm",
	[IB_CM_WHY_UNKNOWN_ATTR] = "unknown_attr",
	[IB_CM_WHY_LAP_APR] = "lap_apr",
	[IB_CM_WHY_TRANSPORT] = "transport",
	[IB_CM_WHY_MTU] = "mtu",
	[IB_CM_WHY_MSG_CODE] = "msg_code",
	[IB_CM_WHY_ARI_LEN] = "ari_length",
	[IB_CM_WHY_FAILOVER] = "failover",
	[IB_CM_WHY_SIDR_STATUS] = "sidr_status",
	[IB_CM_WHY_INFO_LEN] = "info_length",
};

const char *ib_cm_wire_why_str(enum ib_cm_wire_why why)
{
	if ((u32)why >= IB_CM_WHY_NUM)
		return "unknown";
	return why_names[why];
}
EXPORT_SYMBOL(ib_cm_wire_why_str);

u16 ib_cm_wire_why_rej_reason(enum ib_cm_wire_why why)
{
	switch (why) {
	case IB_CM_WHY_TRANSPORT:
		return IB_CM_WIRE_REJ_BAD_TRANSPORT;
	case IB_CM_WHY_MTU:
		return IB_CM_WIRE_REJ_BAD_MTU;
	default:
		return 0;
	}
}
EXPORT_SYMBOL(ib_cm_wire_why_rej_reason);

/* the errno of a refusal */
static int why_err(enum ib_cm_wire_why why)
{
	switch (why) {
	case IB_CM_WHY_OK:
		return 0;
	case IB_CM_WHY_SHORT:
	case IB_CM_WHY_NOT_CM:
	case IB_CM_WHY_UNKNOWN_ATTR:
		return -EINVAL;
	case IB_CM_WHY_LAP_APR:
		return -EOPNOTSUPP;
	default:
		return -EPROTO;
	}
}

static int refuse(enum ib_cm_wire_why w, enum ib_cm_wire_why *why)
{
	if (why)
		*why = w;
	return why_err(w);
}

/* the table of @attr_id, or the refusal for not having one */
static enum ib_cm_wire_why lookup(u16 attr_id,
				  const struct ib_cm_wire_msg_desc **d)
{
	*d = ib_cm_wire_desc(attr_id);
	if (*d)
		return IB_CM_WHY_OK;
	if (attr_id == IB_CM_WIRE_ATTR_LAP || attr_id == IB_CM_WIRE_ATTR_APR)
		return IB_CM_WHY_LAP_APR;
	return IB_CM_WHY_UNKNOWN_ATTR;
}

/* ---- the message body ---- */

int ib_cm_wire_decode_data(u16 attr_id, const u8 *data, u32 len,
			   void *fields, u32 fields_size,
			   enum ib_cm_wire_why *why)
{
	const struct ib_cm_wire_msg_desc *d;
	enum ib_cm_wire_why w = lookup(attr_id, &d);

	if (w != IB_CM_WHY_OK)
		return refuse(w, why);
	if (fields_size != d->host_size)
		return refuse(IB_CM_WHY_UNKNOWN_ATTR, why);
	if (ib_wire_unpack(data, len, d->fields, d->nfields, fields,
			   fields_size))
		return refuse(IB_CM_WHY_SHORT, why);
	return refuse(check_fields(attr_id, fields), why);
}
EXPORT_SYMBOL(ib_cm_wire_decode_data);

int ib_cm_wire_encode_data(u16 attr_id, u8 *data, u32 len,
			   const void *fields, u32 fields_size)
{
	const struct ib_cm_wire_msg_desc *d;
	enum ib_cm_wire_why w = lookup(attr_id, &d);
	u32 i;

	if (w != IB_CM_WHY_OK)
		return why_err(w);
	if (fields_size != d->host_size || len < IB_MAD_WIRE_DATA_LEN)
		return -EINVAL;
	for (i = 0; i < IB_MAD_WIRE_DATA_LEN; i++)
		data[i] = 0;
	return ib_wire_pack(data, len, d->fields, d->nfields, fields,
			    fields_size);
}
EXPORT_SYMBOL(ib_cm_wire_encode_data);

/* ---- the whole MAD ---- */

static bool is_cm_send(const struct ib_mad_wire_hdr *hdr)
{
	return hdr->base_version == IB_MAD_WIRE_BASE_VERSION &&
	       hdr->mgmt_class == IB_MAD_WIRE_CLASS_CM &&
	       hdr->class_version == IB_MAD_WIRE_CM_CLASS_VERSION &&
	       hdr->method == IB_MAD_WIRE_METHOD_SEND;
}

int ib_cm_wire_decode(const u8 *mad, u32 len, struct ib_cm_wire_msg *msg,
		      enum ib_cm_wire_why *why)
{
	const struct ib_cm_wire_msg_desc *d;
	struct ib_mad_wire_hdr hdr;
	enum ib_cm_wire_why w;
	u8 *m = (u8 *)msg;
	u32 i;

	for (i = 0; i < sizeof(*msg); i++)
		m[i] = 0;
	if (len < IB_MAD_WIRE_SIZE || ib_mad_wire_hdr_decode(mad, len, &hdr))
		return refuse(IB_CM_WHY_SHORT, why);
	if (!is_cm_send(&hdr))
		return refuse(IB_CM_WHY_NOT_CM, why);
	w = lookup(hdr.attr_id, &d);
	if (w != IB_CM_WHY_OK)
		return refuse(w, why);
	msg->attr_id = hdr.attr_id;
	msg->tid = hdr.tid;
	msg->attr_mod = hdr.attr_mod;
	/* every member of the union starts where the union does */
	return ib_cm_wire_decode_data(hdr.attr_id, mad + IB_MAD_WIRE_HDR_LEN,
				      IB_MAD_WIRE_DATA_LEN, &msg->req,
				      d->host_size, why);
}
EXPORT_SYMBOL(ib_cm_wire_decode);

int ib_cm_wire_encode(u8 *mad, u32 len, const struct ib_cm_wire_msg *msg)
{
	const struct ib_cm_wire_msg_desc *d;
	struct ib_mad_wire_hdr hdr = {
		.base_version = IB_MAD_WIRE_BASE_VERSION,
		.mgmt_class = IB_MAD_WIRE_CLASS_CM,
		.class_version = IB_MAD_WIRE_CM_CLASS_VERSION,
		.method = IB_MAD_WIRE_METHOD_SEND,
		.status = 0,
		.class_specific = 0,
		.tid = msg->tid,
		.attr_id = msg->attr_id,
		.attr_mod = msg->attr_mod,
	};
	enum ib_cm_wire_why w = lookup(msg->attr_id, &d);
	int ret;

	if (w != IB_CM_WHY_OK)
		return why_err(w);
	if (len < IB_MAD_WIRE_SIZE)
		return -EINVAL;
	ret = ib_cm_wire_encode_data(msg->attr_id, mad + IB_MAD_WIRE_HDR_LEN,
				     IB_MAD_WIRE_DATA_LEN, &msg->req,
				     d->host_size);
	if (ret)
		return ret;
	return ib_mad_wire_hdr_encode(mad, len, &hdr);
}
EXPORT_SYMBOL(ib_cm_wire_encode);
