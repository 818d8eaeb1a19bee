/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What rdma_cm adds to the CM wire format for IP-addressed IDs: the
 * 36-byte header at the start of REQ and SIDR_REQ private data, and the
 * RDMA IP CM service IDs, (port space << 16) | port.
 *
 * Header layout (network order):
 *   0  version (0; anything else fails the request)
 *   1  IP version in bits 7..4 (4 or 6), bits 3..0 zero
 *   2  the active side's source port
 *   4  source address: IPv6 in all 16 bytes, IPv4 in bytes 16..19
 *  20  destination address, the same way (IPv4 in bytes 32..35)
 * The bytes before an IPv4 address are sent as zero and ignored.
 *
 * Type-level only: cma_wire.c also builds as C++ on the host
 * (tools/testing/unit).
 */
#ifndef _RDMA_CMA_WIRE_H
#define _RDMA_CMA_WIRE_H

#include <linux/types.h>
#include <uapi/rdma/rdma_user_cm.h>
#include <rdma/ib_cm_wire.h>

#define CMA_WIRE_HDR_LEN	36
#define CMA_WIRE_VERSION	0x00

/* private data left to the user once the header is in */
#define CMA_WIRE_REQ_USER_LEN \
	(IB_CM_WIRE_REQ_PRIV_LEN - CMA_WIRE_HDR_LEN)
#define CMA_WIRE_SIDR_REQ_USER_LEN \
	(IB_CM_WIRE_SIDR_REQ_PRIV_LEN - CMA_WIRE_HDR_LEN)

/* an address as sockaddr_in/sockaddr_in6 hold it (network order) */
union cma_wire_addr {
	__be32 ip4;
	u8 ip6[16];
};

/*
 * The header in host form.  @port and the addresses stay in network
 * order, as in a sockaddr; for IPv4 only @ip4 of each address is used
 * (the rest is zero after decoding).
 */
struct cma_wire_hdr {
	u8 ip_version;			/* 4 or 6 */
	__be16 port;			/* the active side's source port */
	union cma_wire_addr src;
	union cma_wire_addr dst;
};

/*
 * Read the header from @priv (@len bytes of private data).  -EINVAL if
 * @len < 36 or the version is not 0, -EAFNOSUPPORT if the IP version is
 * neither 4 nor 6.
 */
int cma_wire_hdr_decode(const u8 *priv, u32 len, struct cma_wire_hdr *hdr);

/* Write the 36 header bytes; the same errors as decoding. */
int cma_wire_hdr_encode(u8 *priv, u32 len, const struct cma_wire_hdr *hdr);

/*
 * Private data of @priv_len bytes (a REQ's 92, a SIDR_REQ's 216): the
 * header, @user_len bytes of @user, zeros to the end.  -EINVAL if the
 * user data does not fit (56 and 180 bytes at most).
 */
int cma_wire_build_priv(u8 *priv, u32 priv_len, const struct cma_wire_hdr *hdr,
			const u8 *user, u32 user_len);

/* ---- service IDs ---- */

/* the port-space part of an AF_IB service ID: all but the low 16 bits */
#define CMA_WIRE_SID_PS_MASK	0xffffffffffff0000ULL

/* whether @ps is one of the four rdma_cm port spaces */
bool cma_wire_ps_known(u32 ps);

static inline u64 cma_wire_service_id(enum rdma_ucm_port_space ps, u16 port)
{
	return (u64)ps << 16 | port;
}

/*
 * Split an RDMA IP CM service ID into port space and port.  -EINVAL
 * unless bits 63..32 are zero and bits 31..16 name a known port space.
 */
int cma_wire_sid_split(u64 sid, enum rdma_ucm_port_space *ps, u16 *port);

/* ---- the RoCE v2 route ---- */

/*
 * The IB MTU code (IB_MTU_256 = 1 ... IB_MTU_4096 = 5) of a RoCE v2
 * path over a netdev of @netdev_mtu bytes: what is left after 96 bytes
 * of headers (GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4),
 * rounded down; 0 if not even 256 bytes are left.
 */
u8 cma_wire_roce_mtu(u32 netdev_mtu);

/* The 20-bit flow label of an IPv4 connection: sport * 31 + dport */
u32 cma_wire_flow_label(u16 sport, u16 dport);

#endif /* _RDMA_CMA_WIRE_H */
