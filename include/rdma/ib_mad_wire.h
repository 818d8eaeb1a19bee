/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The wire side of management datagrams (IBTA vol. 1, ch. 13.4): the
 * 24-byte common MAD header, the checks a received MAD must pass before
 * it is dispatched, transaction-ID helpers, and a generic codec for
 * bit fields described by tables (also used by the CM, ib_cm_wire.h).
 *
 * Type-level only: mad_wire.c also builds as C++ on the host
 * (tools/testing/unit), where it is unit-tested and fuzzed.
 *
 * Byte order: every multi-byte field is big-endian on the wire and is
 * read and written byte by byte, so nothing here depends on the host's
 * byte order or on alignment.  Host structs hold plain host-order
 * numbers.
 */
#ifndef _RDMA_IB_MAD_WIRE_H
#define _RDMA_IB_MAD_WIRE_H

#include <linux/types.h>

/* An IB MAD (base version 1) is always 256 bytes: header + class data. */
#define IB_MAD_WIRE_SIZE		256
#define IB_MAD_WIRE_HDR_LEN		24
#define IB_MAD_WIRE_DATA_LEN		232	/* 256 - 24 */

#define IB_MAD_WIRE_BASE_VERSION	1

/* management classes */
#define IB_MAD_WIRE_CLASS_SUBN_LID	0x01
#define IB_MAD_WIRE_CLASS_SA		0x03
#define IB_MAD_WIRE_CLASS_PERF		0x04
#define IB_MAD_WIRE_CLASS_BM		0x05
#define IB_MAD_WIRE_CLASS_DEV_MGMT	0x06
#define IB_MAD_WIRE_CLASS_CM		0x07
#define IB_MAD_WIRE_CLASS_SUBN_DR	0x81

/* the only class version of the CM class that the CM agent registers */
#define IB_MAD_WIRE_CM_CLASS_VERSION	2

/* methods; a response is its request's method with bit 7 set */
#define IB_MAD_WIRE_METHOD_GET		0x01
#define IB_MAD_WIRE_METHOD_SET		0x02
#define IB_MAD_WIRE_METHOD_SEND		0x03
#define IB_MAD_WIRE_METHOD_TRAP		0x05
#define IB_MAD_WIRE_METHOD_REPORT	0x06
#define IB_MAD_WIRE_METHOD_TRAP_REPRESS	0x07
#define IB_MAD_WIRE_METHOD_RESP		0x80
#define IB_MAD_WIRE_METHOD_GET_RESP	0x81
#define IB_MAD_WIRE_METHOD_REPORT_RESP	0x86

/* status values a MAD layer or agent answers with */
#define IB_MAD_WIRE_STATUS_BAD_METHOD		0x0008
#define IB_MAD_WIRE_STATUS_BAD_METHOD_ATTR	0x000c
#define IB_MAD_WIRE_STATUS_BAD_ATTR_VALUE	0x001c

/* the one attribute every class answers Get for */
#define IB_MAD_WIRE_ATTR_CLASS_PORT_INFO	0x0001

/* Baseboard management marks its responses in attribute modifier bit 0. */
#define IB_MAD_WIRE_BM_ATTR_MOD_RESP	0x00000001U

/* ---- generic bit-field codec ---- */

/*
 * One field of a wire structure, and where its value lives in a host
 * struct.  Bits are numbered MSB-first: bit 0 of a byte is its 0x80 bit,
 * and a field runs from (byte, bit) over @width bits into the following
 * bytes.
 *
 * Number fields (@width 1..64) map to an integer member of
 * @member_size 1, 2, 4 or 8 bytes; the field holds the member's bits
 * [@shift, @shift + @width).  One member may be split over several
 * fields (different @shift); all but the one holding the member's top
 * bits carry IB_WIRE_F_LOWER.
 *
 * Byte fields (IB_WIRE_F_BYTES: GIDs, private data) start at bit 0, are
 * @width / 8 bytes long and map to a u8 array of that size.
 */
struct ib_wire_field {
	const char *name;
	u16 byte;
	u8 bit;
	u8 shift;
	u16 width;
	u16 member;		/* offsetof() in the host struct */
	u8 member_size;		/* sizeof() of the member */
	u8 flags;		/* IB_WIRE_F_* */
};

enum {
	IB_WIRE_F_BYTES = 1 << 0,
	IB_WIRE_F_LOWER = 1 << 1,
};

/* bytes from the buffer start through the last byte @f touches */
static inline u32 ib_wire_field_end(const struct ib_wire_field *f)
{
	return f->byte + (f->bit + (u32)f->width + 7) / 8;
}

/*
 * Read or write a number field (@width <= 64) of a buffer holding at
 * least ib_wire_field_end(@f) bytes.  _set changes only the field's own
 * bits and writes the low @width bits of @v.
 */
u64 ib_wire_field_get(const u8 *buf, const struct ib_wire_field *f);
void ib_wire_field_set(u8 *buf, const struct ib_wire_field *f, u64 v);

/*
 * Fill @host (@host_size bytes, zeroed first) from the @n fields of
 * @fields in @buf (@len bytes).  -EINVAL if a field lies past @len or
 * past its member; nothing is read outside @buf either way.
 */
int ib_wire_unpack(const u8 *buf, u32 len, const struct ib_wire_field *fields,
		   u32 n, void *host, u32 host_size);

/*
 * Write the @n fields of @fields from @host into @buf (@len bytes); bits
 * no field covers are left as they are.  -EINVAL if a field lies past
 * @len or its member, -ERANGE if a member holds a value wider than its
 * field(s) (checked before anything is written).
 */
int ib_wire_pack(u8 *buf, u32 len, const struct ib_wire_field *fields,
		 u32 n, const void *host, u32 host_size);

/* ---- the common MAD header ---- */

/*
 * The header in host order.  Bytes 18..19 are reserved: sent as zero,
 * ignored on receive.
 */
struct ib_mad_wire_hdr {
	u8 base_version;
	u8 mgmt_class;
	u8 class_version;
	u8 method;		/* with the response bit */
	u16 status;
	u16 class_specific;
	u64 tid;
	u16 attr_id;
	u32 attr_mod;
};

/* -EINVAL if @len < IB_MAD_WIRE_HDR_LEN */
int ib_mad_wire_hdr_decode(const u8 *mad, u32 len, struct ib_mad_wire_hdr *hdr);
int ib_mad_wire_hdr_encode(u8 *mad, u32 len, const struct ib_mad_wire_hdr *hdr);

/* the header's field table (for tests and tools) */
const struct ib_wire_field *ib_mad_wire_hdr_fields(u32 *n);

/*
 * Whether a MAD answers an earlier request: the method's response bit,
 * TrapRepress, or a BM MAD with IB_MAD_WIRE_BM_ATTR_MOD_RESP.  Responses
 * are routed by TID, requests by class/version/method.
 */
bool ib_mad_wire_is_response(const struct ib_mad_wire_hdr *hdr);

/* why ib_mad_wire_check_recv() refused a MAD (a counter each) */
enum ib_mad_wire_why {
	IB_MAD_WHY_OK = 0,
	IB_MAD_WHY_SHORT,		/* fewer than 256 bytes */
	IB_MAD_WHY_LONG,		/* more than 256 bytes */
	IB_MAD_WHY_BASE_VERSION,	/* base version is not 1 */
	IB_MAD_WHY_SMI_NOT_QP0,		/* subnet management off QP0 */
	IB_MAD_WHY_GSI_ON_QP0,		/* any other class on QP0 */
	IB_MAD_WHY_CM_METHOD,		/* CM: not Send or ClassPortInfo */
	IB_MAD_WHY_CM_CLASS_VERSION,	/* CM Send of class version not 2 */
	IB_MAD_WHY_NUM
};

/*
 * The checks a received MAD of @len bytes (receive length minus the
 * 40-byte GRH area) must pass before dispatch; @on_qp0 tells whether it
 * came in on QP0 (never on RoCE).  Fills @hdr unless the size is wrong,
 * and *@why (if not NULL).  Returns 0, or
 *   -EINVAL           for a wrong size,
 *   -EPROTONOSUPPORT  for a base or CM class version we do not speak,
 *   -EPROTO           for a class on the wrong QP,
 *   -EOPNOTSUPP       for a CM method other than Send (except on
 *                     ClassPortInfo, which Get/Set may ask for).
 */
int ib_mad_wire_check_recv(const u8 *mad, u32 len, bool on_qp0,
			   struct ib_mad_wire_hdr *hdr,
			   enum ib_mad_wire_why *why);

/*
 * The same checks on a header already decoded (the size is not known
 * here, so never IB_MAD_WHY_SHORT/_LONG): IB_MAD_WHY_OK or the first rule
 * @hdr breaks, in the order of enum ib_mad_wire_why.
 */
enum ib_mad_wire_why ib_mad_wire_check_hdr(const struct ib_mad_wire_hdr *hdr,
					   bool on_qp0);

const char *ib_mad_wire_why_str(enum ib_mad_wire_why why);

/*
 * A request nobody registered for: Get and Set (not responses) are
 * answered, everything else is dropped.
 */
bool ib_mad_wire_wants_reply(const struct ib_mad_wire_hdr *hdr);

/*
 * Turn the received request in @mad (@len >= 24 bytes) into its answer
 * in place: method GetResp, @status, everything else (TID included) as
 * received.  -EINVAL if the MAD is not a Get or Set request.
 */
int ib_mad_wire_make_reply(u8 *mad, u32 len, u16 status);

/* ---- transaction IDs ---- */

/*
 * A TID carries its sending agent's ID in the upper 32 bits, so that a
 * response can be routed back to the agent, and the agent's own number
 * (the CM: its local communication ID) in the lower 32.  Agent IDs are
 * 24 bits and are handed out cyclically.
 */
#define IB_MAD_WIRE_AGENT_ID_MASK	0x00ffffffU

static inline u64 ib_mad_wire_tid(u32 agent_id, u32 low)
{
	return (u64)agent_id << 32 | low;
}

static inline u32 ib_mad_wire_tid_agent(u64 tid)
{
	return (u32)(tid >> 32);
}

static inline u32 ib_mad_wire_tid_low(u64 tid)
{
	return (u32)tid;
}

/* the agent ID after @last, wrapping within 24 bits */
static inline u32 ib_mad_wire_next_agent_id(u32 last)
{
	return (last + 1) & IB_MAD_WIRE_AGENT_ID_MASK;
}

/* whether @resp answers a request sent with @req_tid in @req_class */
static inline bool ib_mad_wire_tid_match(u64 req_tid, u8 req_class,
					 const struct ib_mad_wire_hdr *resp)
{
	return resp->tid == req_tid && resp->mgmt_class == req_class;
}

#endif /* _RDMA_IB_MAD_WIRE_H */
