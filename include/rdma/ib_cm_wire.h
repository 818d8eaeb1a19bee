/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The communication manager's messages on the wire (IBTA vol. 1, ch. 12):
 * attribute IDs, per-message field tables, host structs filled by decode
 * and consumed by encode, and the checks a received message must pass.
 * Only what the CM needs over RoCE: REQ, MRA, REJ, REP, RTU, DREQ, DREP,
 * SIDR_REQ and SIDR_REP.  LAP and APR are known as attribute IDs and
 * refused.
 *
 * Offsets count from the start of the MAD data (byte 24 of the MAD).
 * Host structs hold host-order numbers; service IDs and GUIDs are the
 * 64-bit big-endian wire values as numbers (a TCP port-space service ID
 * reads 0x0000000001060000 | port); GIDs, ARI and private data are the
 * wire bytes as they stand.
 *
 * Type-level only: cm_wire.c also builds as C++ on the host
 * (tools/testing/unit), where it is unit-tested and fuzzed.
 */
#ifndef _RDMA_IB_CM_WIRE_H
#define _RDMA_IB_CM_WIRE_H

#include <linux/types.h>
#include <rdma/ib_mad_wire.h>

enum ib_cm_wire_attr {
	IB_CM_WIRE_ATTR_REQ = 0x0010,
	IB_CM_WIRE_ATTR_MRA = 0x0011,
	IB_CM_WIRE_ATTR_REJ = 0x0012,
	IB_CM_WIRE_ATTR_REP = 0x0013,
	IB_CM_WIRE_ATTR_RTU = 0x0014,
	IB_CM_WIRE_ATTR_DREQ = 0x0015,
	IB_CM_WIRE_ATTR_DREP = 0x0016,
	IB_CM_WIRE_ATTR_SIDR_REQ = 0x0017,
	IB_CM_WIRE_ATTR_SIDR_REP = 0x0018,
	IB_CM_WIRE_ATTR_LAP = 0x0019,
	IB_CM_WIRE_ATTR_APR = 0x001a,
};

/* attribute IDs in counter order (req, mra, ... apr) */
#define IB_CM_WIRE_ATTR_FIRST	IB_CM_WIRE_ATTR_REQ
#define IB_CM_WIRE_NUM_ATTRS	11

#define IB_CM_WIRE_GID_LEN	16
/* REJ additional reject information, SIDR_REP additional information */
#define IB_CM_WIRE_INFO_LEN	72

/* where each message's private data lies in the MAD data */
#define IB_CM_WIRE_REQ_PRIV_OFF		140
#define IB_CM_WIRE_REQ_PRIV_LEN		92
#define IB_CM_WIRE_MRA_PRIV_OFF		10
#define IB_CM_WIRE_MRA_PRIV_LEN		222
#define IB_CM_WIRE_REJ_PRIV_OFF		84
#define IB_CM_WIRE_REJ_PRIV_LEN		148
#define IB_CM_WIRE_REP_PRIV_OFF		36
#define IB_CM_WIRE_REP_PRIV_LEN		196
#define IB_CM_WIRE_RTU_PRIV_OFF		8
#define IB_CM_WIRE_RTU_PRIV_LEN		224
#define IB_CM_WIRE_DREQ_PRIV_OFF	12
#define IB_CM_WIRE_DREQ_PRIV_LEN	220
#define IB_CM_WIRE_DREP_PRIV_OFF	8
#define IB_CM_WIRE_DREP_PRIV_LEN	224
#define IB_CM_WIRE_SIDR_REQ_PRIV_OFF	16
#define IB_CM_WIRE_SIDR_REQ_PRIV_LEN	216
#define IB_CM_WIRE_SIDR_REP_PRIV_OFF	96
#define IB_CM_WIRE_SIDR_REP_PRIV_LEN	136

/* REQ transport service type (2 bits) and extended transport type */
enum {
	IB_CM_WIRE_TRANSPORT_RC = 0,
	IB_CM_WIRE_TRANSPORT_UC = 1,
	IB_CM_WIRE_TRANSPORT_RD = 2,		/* not supported */
	IB_CM_WIRE_TRANSPORT_EXTENDED = 3,	/* see the extended type */
	IB_CM_WIRE_EXT_TRANSPORT_XRC = 1,
};

/* path MTU codes: 1 = 256 bytes ... 5 = 4096 bytes */
#define IB_CM_WIRE_MTU_256	1
#define IB_CM_WIRE_MTU_1024	3
#define IB_CM_WIRE_MTU_4096	5

/* which message an MRA or REJ answers (2 bits; 3 is reserved) */
enum {
	IB_CM_WIRE_MSG_REQ = 0,
	IB_CM_WIRE_MSG_REP = 1,
	IB_CM_WIRE_MSG_OTHER = 2,
};

/* REP failover accepted (2 bits; 3 is reserved) */
enum {
	IB_CM_WIRE_FAILOVER_ACCEPTED = 0,
	IB_CM_WIRE_FAILOVER_NOT_SUPPORTED = 1,
	IB_CM_WIRE_FAILOVER_REJECTED = 2,
};

/* SIDR_REP status (above 5 is reserved) */
enum {
	IB_CM_WIRE_SIDR_OK = 0,
	IB_CM_WIRE_SIDR_NO_SERVICE = 1,	/* no listener for the SID */
	IB_CM_WIRE_SIDR_REJECT = 2,
	IB_CM_WIRE_SIDR_NO_QP = 3,
	IB_CM_WIRE_SIDR_REDIRECT = 4,
	IB_CM_WIRE_SIDR_BAD_VERSION = 5,
};

/* REJ reason codes */
enum ib_cm_wire_rej_reason {
	IB_CM_WIRE_REJ_NO_QP = 1,
	IB_CM_WIRE_REJ_NO_EEC = 2,
	IB_CM_WIRE_REJ_NO_RESOURCES = 3,
	IB_CM_WIRE_REJ_TIMEOUT = 4,
	IB_CM_WIRE_REJ_UNSUPPORTED = 5,
	IB_CM_WIRE_REJ_BAD_COMM_ID = 6,
	IB_CM_WIRE_REJ_BAD_COMM_INSTANCE = 7,
	IB_CM_WIRE_REJ_BAD_SERVICE_ID = 8,
	IB_CM_WIRE_REJ_BAD_TRANSPORT = 9,
	IB_CM_WIRE_REJ_STALE_CONN = 10,
	IB_CM_WIRE_REJ_RDC_NOT_EXIST = 11,
	IB_CM_WIRE_REJ_BAD_GID = 12,
	IB_CM_WIRE_REJ_BAD_LID = 13,
	IB_CM_WIRE_REJ_BAD_SL = 14,
	IB_CM_WIRE_REJ_BAD_TRAFFIC_CLASS = 15,
	IB_CM_WIRE_REJ_BAD_HOP_LIMIT = 16,
	IB_CM_WIRE_REJ_BAD_PACKET_RATE = 17,
	IB_CM_WIRE_REJ_BAD_ALT_GID = 18,
	IB_CM_WIRE_REJ_BAD_ALT_LID = 19,
	IB_CM_WIRE_REJ_BAD_ALT_SL = 20,
	IB_CM_WIRE_REJ_BAD_ALT_TRAFFIC_CLASS = 21,
	IB_CM_WIRE_REJ_BAD_ALT_HOP_LIMIT = 22,
	IB_CM_WIRE_REJ_BAD_ALT_PACKET_RATE = 23,
	IB_CM_WIRE_REJ_PORT_CM_REDIRECT = 24,
	IB_CM_WIRE_REJ_PORT_REDIRECT = 25,
	IB_CM_WIRE_REJ_BAD_MTU = 26,
	IB_CM_WIRE_REJ_FEW_RESPONDER_RESOURCES = 27,
	IB_CM_WIRE_REJ_CONSUMER = 28,
	IB_CM_WIRE_REJ_BAD_RNR_RETRY = 29,
	IB_CM_WIRE_REJ_DUP_LOCAL_COMM_ID = 30,
	IB_CM_WIRE_REJ_BAD_CLASS_VERSION = 31,
	IB_CM_WIRE_REJ_BAD_FLOW_LABEL = 32,
	IB_CM_WIRE_REJ_BAD_ALT_FLOW_LABEL = 33,
	IB_CM_WIRE_REJ_VENDOR_OPTION = 35,	/* ECE not supported */
};

/* ---- host structs, one per message ---- */

/* a REQ path (primary at data offset 52, alternate at 96) */
struct ib_cm_wire_path {
	u16 local_lid;
	u16 remote_lid;
	u8 local_gid[IB_CM_WIRE_GID_LEN];
	u8 remote_gid[IB_CM_WIRE_GID_LEN];
	u32 flow_label;			/* 20 bits */
	u8 packet_rate;			/* 6 bits */
	u8 traffic_class;
	u8 hop_limit;
	u8 sl;				/* 4 bits */
	u8 subnet_local;		/* 1 bit */
	u8 local_ack_timeout;		/* 5 bits */
};

struct ib_cm_req_fields {
	u32 local_comm_id;
	u32 vendor_id;			/* ECE vendor, 24 bits */
	u64 service_id;
	u64 local_ca_guid;
	u32 local_qkey;
	u32 local_qpn;			/* 24 bits */
	u32 local_eecn;			/* 24 bits */
	u32 remote_eecn;		/* 24 bits */
	u32 starting_psn;		/* 24 bits */
	u16 pkey;
	u8 responder_resources;
	u8 initiator_depth;
	u8 remote_cm_response_timeout;	/* 5 bits */
	u8 transport_type;		/* 2 bits */
	u8 flow_control;		/* 1 bit */
	u8 local_cm_response_timeout;	/* 5 bits */
	u8 retry_count;			/* 3 bits */
	u8 mtu;				/* 4 bits */
	u8 rdc_exists;			/* 1 bit */
	u8 rnr_retry_count;		/* 3 bits */
	u8 max_cm_retries;		/* 4 bits */
	u8 srq;				/* 1 bit */
	u8 ext_transport_type;		/* 3 bits */
	u8 sap_supported;		/* 1 bit */
	struct ib_cm_wire_path primary;
	struct ib_cm_wire_path alternate;
	u8 private_data[IB_CM_WIRE_REQ_PRIV_LEN];
};

struct ib_cm_mra_fields {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 msg_mraed;			/* IB_CM_WIRE_MSG_* */
	u8 service_timeout;		/* 5 bits */
	u8 private_data[IB_CM_WIRE_MRA_PRIV_LEN];
};

struct ib_cm_rej_fields {
	u32 local_comm_id;
	u32 remote_comm_id;
	u16 reason;			/* enum ib_cm_wire_rej_reason */
	u8 msg_rejected;		/* IB_CM_WIRE_MSG_* */
	u8 ari_length;			/* 7 bits; at most 72 */
	u8 ari[IB_CM_WIRE_INFO_LEN];
	u8 private_data[IB_CM_WIRE_REJ_PRIV_LEN];
};

struct ib_cm_rep_fields {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 local_qkey;
	u32 local_qpn;			/* 24 bits */
	u32 local_eecn;			/* 24 bits */
	u32 starting_psn;		/* 24 bits */
	u32 vendor_id;			/* ECE vendor, 24 bits, 3 bytes */
	u64 local_ca_guid;
	u8 responder_resources;
	u8 initiator_depth;
	u8 target_ack_delay;		/* 5 bits */
	u8 failover_accepted;		/* 2 bits */
	u8 flow_control;		/* 1 bit */
	u8 rnr_retry_count;		/* 3 bits */
	u8 srq;				/* 1 bit */
	u8 private_data[IB_CM_WIRE_REP_PRIV_LEN];
};

struct ib_cm_rtu_fields {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 private_data[IB_CM_WIRE_RTU_PRIV_LEN];
};

struct ib_cm_dreq_fields {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 remote_qpn_eecn;		/* 24 bits */
	u8 private_data[IB_CM_WIRE_DREQ_PRIV_LEN];
};

struct ib_cm_drep_fields {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 private_data[IB_CM_WIRE_DREP_PRIV_LEN];
};

struct ib_cm_sidr_req_fields {
	u32 request_id;
	u16 pkey;
	u64 service_id;
	u8 private_data[IB_CM_WIRE_SIDR_REQ_PRIV_LEN];
};

/*
 * SIDR_REP carries the ECE vendor ID in a 16-bit field at 6 (bits 23..8)
 * and a byte at 11 (bits 7..0).  Upstream Linux fills the 16-bit field
 * with bits 15..8 only and never reads it; with vendor IDs below 0x10000
 * (rxe: always 0) the two agree.
 */
struct ib_cm_sidr_rep_fields {
	u32 request_id;
	u8 status;			/* IB_CM_WIRE_SIDR_* */
	u8 info_length;			/* at most 72 */
	u32 vendor_id;			/* 24 bits */
	u32 qpn;			/* 24 bits */
	u64 service_id;
	u32 qkey;
	u8 info[IB_CM_WIRE_INFO_LEN];
	u8 private_data[IB_CM_WIRE_SIDR_REP_PRIV_LEN];
};

/* a whole CM MAD: what the header adds, and the message by attr_id */
struct ib_cm_wire_msg {
	u16 attr_id;			/* enum ib_cm_wire_attr */
	u64 tid;
	u32 attr_mod;		/* ECE options of REQ, REP, SIDR_REP */
	union {
		struct ib_cm_req_fields req;
		struct ib_cm_mra_fields mra;
		struct ib_cm_rej_fields rej;
		struct ib_cm_rep_fields rep;
		struct ib_cm_rtu_fields rtu;
		struct ib_cm_dreq_fields dreq;
		struct ib_cm_drep_fields drep;
		struct ib_cm_sidr_req_fields sidr_req;
		struct ib_cm_sidr_rep_fields sidr_rep;
	};
};

/* ---- message tables ---- */

struct ib_cm_wire_msg_desc {
	const char *name;		/* "REQ" ... */
	u16 attr_id;
	u16 priv_off;			/* private data, in the MAD data */
	u16 priv_len;
	u16 host_size;			/* sizeof the host struct */
	const struct ib_wire_field *fields;
	u32 nfields;
};

/* the table of a message we handle; NULL for LAP, APR and the unknown */
const struct ib_cm_wire_msg_desc *ib_cm_wire_desc(u16 attr_id);

/* "REQ" ... "APR", or "unknown" */
const char *ib_cm_wire_attr_str(u16 attr_id);

/* counter index 0..10 of a CM attribute (REQ first), -1 if none */
static inline int ib_cm_wire_attr_index(u16 attr_id)
{
	u32 i = (u32)attr_id - IB_CM_WIRE_ATTR_FIRST;

	return i < IB_CM_WIRE_NUM_ATTRS ? (int)i : -1;
}

/* ---- decode and encode ---- */

/* why a CM message was refused */
enum ib_cm_wire_why {
	IB_CM_WHY_OK = 0,
	IB_CM_WHY_SHORT,		/* buffer shorter than the message */
	IB_CM_WHY_NOT_CM,		/* header: not a CM v2 Send */
	IB_CM_WHY_UNKNOWN_ATTR,	/* not a CM attribute ID */
	IB_CM_WHY_LAP_APR,		/* alternate path: not supported */
	IB_CM_WHY_TRANSPORT,		/* REQ: RD, unknown extended type */
	IB_CM_WHY_MTU,			/* REQ: MTU code outside 1..5 */
	IB_CM_WHY_MSG_CODE,		/* MRA, REJ: message code 3 */
	IB_CM_WHY_ARI_LEN,		/* REJ: ARI length over 72 */
	IB_CM_WHY_FAILOVER,		/* REP: failover code 3 */
	IB_CM_WHY_SIDR_STATUS,		/* SIDR_REP: status over 5 */
	IB_CM_WHY_INFO_LEN,		/* SIDR_REP: info length over 72 */
	IB_CM_WHY_NUM
};

const char *ib_cm_wire_why_str(enum ib_cm_wire_why why);

/*
 * The REJ reason a passive side answers a REQ refused for @why with, or 0
 * if such a REQ is dropped without a REJ.
 */
u16 ib_cm_wire_why_rej_reason(enum ib_cm_wire_why why);

/*
 * Decode a whole CM MAD of @len bytes (at least 256) into @msg.  Returns
 * 0, or with *@why (if @why is not NULL) set:
 *   -EINVAL      not a CM message: short, wrong header, unknown attribute;
 *   -EOPNOTSUPP  LAP or APR;
 *   -EPROTO      a CM message with a field value the protocol forbids.
 * Reads nothing outside mad[0..len) whatever the bytes say.
 */
int ib_cm_wire_decode(const u8 *mad, u32 len, struct ib_cm_wire_msg *msg,
		      enum ib_cm_wire_why *why);

/*
 * Encode @msg into the 256 bytes at @mad (@len at least 256): the CM
 * header (base version 1, class CM, class version 2, method Send, status
 * 0) and the message; reserved bits are zero.  -EINVAL for a short
 * buffer or unknown attribute, -EOPNOTSUPP for LAP/APR, -ERANGE for a
 * value wider than its field.  Values the protocol forbids but that fit
 * (MTU 0, say) are written as given.
 */
int ib_cm_wire_encode(u8 *mad, u32 len, const struct ib_cm_wire_msg *msg);

/*
 * The message body alone: @data is the MAD data (byte 24 of the MAD) of
 * @len bytes, @fields the host struct of message @attr_id, @fields_size
 * its size (-EINVAL if it is not that message's struct).  Same results
 * as above.  Typed wrappers follow.
 */
int ib_cm_wire_decode_data(u16 attr_id, const u8 *data, u32 len,
			   void *fields, u32 fields_size,
			   enum ib_cm_wire_why *why);
int ib_cm_wire_encode_data(u16 attr_id, u8 *data, u32 len,
			   const void *fields, u32 fields_size);

#define IB_CM_WIRE_TYPED(msg, attr)					\
static inline int ib_cm_##msg##_decode(const u8 *data, u32 len,	\
				       struct ib_cm_##msg##_fields *f,	\
				       enum ib_cm_wire_why *why)	\
{									\
	return ib_cm_wire_decode_data(attr, data, len, f, sizeof(*f),	\
				      why);				\
}									\
static inline int ib_cm_##msg##_encode(u8 *data, u32 len,		\
				       const struct ib_cm_##msg##_fields *f) \
{									\
	return ib_cm_wire_encode_data(attr, data, len, f, sizeof(*f));	\
}

IB_CM_WIRE_TYPED(req, IB_CM_WIRE_ATTR_REQ)
IB_CM_WIRE_TYPED(mra, IB_CM_WIRE_ATTR_MRA)
IB_CM_WIRE_TYPED(rej, IB_CM_WIRE_ATTR_REJ)
IB_CM_WIRE_TYPED(rep, IB_CM_WIRE_ATTR_REP)
IB_CM_WIRE_TYPED(rtu, IB_CM_WIRE_ATTR_RTU)
IB_CM_WIRE_TYPED(dreq, IB_CM_WIRE_ATTR_DREQ)
IB_CM_WIRE_TYPED(drep, IB_CM_WIRE_ATTR_DREP)
IB_CM_WIRE_TYPED(sidr_req, IB_CM_WIRE_ATTR_SIDR_REQ)
IB_CM_WIRE_TYPED(sidr_rep, IB_CM_WIRE_ATTR_SIDR_REP)

#undef IB_CM_WIRE_TYPED

/*
 * Whether a REQ describes an alternate path (a non-zero alternate local
 * LID).  rdma_cm over RoCE never sends one.
 */
static inline bool
ib_cm_wire_req_has_alt_path(const struct ib_cm_req_fields *req)
{
	return req->alternate.local_lid != 0;
}

/* the TID of a new request (REQ, DREQ, SIDR_REQ): agent ID, comm ID */
static inline u64 ib_cm_wire_new_tid(u32 agent_id, u32 local_comm_id)
{
	return ib_mad_wire_tid(agent_id, local_comm_id);
}

#endif /* _RDMA_IB_CM_WIRE_H */
