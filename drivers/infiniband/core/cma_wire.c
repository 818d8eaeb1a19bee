// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm's header in CM private data and its service IDs (cma_wire.h).
 * Pure: builds on the host too.
 *
 * The port and the addresses are network order both on the wire and in
 * struct cma_wire_hdr, so they move as bytes, never as numbers.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <rdma/cma_wire.h>

#define HDR_VERSION	0
#define HDR_IP_VERSION	1
#define HDR_PORT	2
#define HDR_SRC		4
#define HDR_DST		20
#define ADDR_LEN	16
/* IPv4 takes the last 4 bytes of an address */
#define IP4_AT		(ADDR_LEN - 4)

static void copy_bytes(u8 *dst, const u8 *src, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = src[i];
}

static void zero_bytes(u8 *dst, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = 0;
}

static void addr_get(const u8 *wire, u8 ip_version, union cma_wire_addr *a)
{
	zero_bytes(a->ip6, ADDR_LEN);
	if (ip_version == 4)
		copy_bytes((u8 *)&a->ip4, wire + IP4_AT, 4);
	else
		copy_bytes(a->ip6, wire, ADDR_LEN);
}

static void addr_put(u8 *wire, u8 ip_version, const union cma_wire_addr *a)
{
	if (ip_version == 4) {
		zero_bytes(wire, IP4_AT);
		copy_bytes(wire + IP4_AT, (const u8 *)&a->ip4, 4);
	} else {
		copy_bytes(wire, a->ip6, ADDR_LEN);
	}
}

static bool ip_version_ok(u8 v)
{
	return v == 4 || v == 6;
}

int cma_wire_hdr_decode(const u8 *priv, u32 len, struct cma_wire_hdr *hdr)
{
	u8 ipv;

	zero_bytes((u8 *)hdr, sizeof(*hdr));
	if (len < CMA_WIRE_HDR_LEN || priv[HDR_VERSION] != CMA_WIRE_VERSION)
		return -EINVAL;
	ipv = priv[HDR_IP_VERSION] >> 4;
	if (!ip_version_ok(ipv))
		return -EAFNOSUPPORT;
	hdr->ip_version = ipv;
	copy_bytes((u8 *)&hdr->port, priv + HDR_PORT, 2);
	addr_get(priv + HDR_SRC, ipv, &hdr->src);
	addr_get(priv + HDR_DST, ipv, &hdr->dst);
	return 0;
}
EXPORT_SYMBOL(cma_wire_hdr_decode);

int cma_wire_hdr_encode(u8 *priv, u32 len, const struct cma_wire_hdr *hdr)
{
	if (len < CMA_WIRE_HDR_LEN)
		return -EINVAL;
	if (!ip_version_ok(hdr->ip_version))
		return -EAFNOSUPPORT;
	priv[HDR_VERSION] = CMA_WIRE_VERSION;
	priv[HDR_IP_VERSION] = (u8)(hdr->ip_version << 4);
	copy_bytes(priv + HDR_PORT, (const u8 *)&hdr->port, 2);
	addr_put(priv + HDR_SRC, hdr->ip_version, &hdr->src);
	addr_put(priv + HDR_DST, hdr->ip_version, &hdr->dst);
	return 0;
}
EXPORT_SYMBOL(cma_wire_hdr_encode);

int cma_wire_build_priv(u8 *priv, u32 priv_len, const struct cma_wire_hdr *hdr,
			const u8 *user, u32 user_len)
{
	int ret;

	if (priv_len < CMA_WIRE_HDR_LEN ||
	    user_len > priv_len - CMA_WIRE_HDR_LEN)
		return -EINVAL;
	ret = cma_wire_hdr_encode(priv, priv_len, hdr);
	if (ret)
		return ret;
	if (user_len)
		copy_bytes(priv + CMA_WIRE_HDR_LEN, user, user_len);
	zero_bytes(priv + CMA_WIRE_HDR_LEN + user_len,
		   priv_len - CMA_WIRE_HDR_LEN - user_len);
	return 0;
}
EXPORT_SYMBOL(cma_wire_build_priv);

bool cma_wire_ps_known(u32 ps)
{
	switch (ps) {
	case RDMA_PS_IPOIB:
	case RDMA_PS_IB:
	case RDMA_PS_TCP:
	case RDMA_PS_UDP:
		return true;
	default:
		return false;
	}
}
EXPORT_SYMBOL(cma_wire_ps_known);

int cma_wire_sid_split(u64 sid, enum rdma_ucm_port_space *ps, u16 *port)
{
	u32 space = (u32)(sid >> 16) & 0xffff;

	if (sid >> 32 || !cma_wire_ps_known(space))
		return -EINVAL;
	*ps = (enum rdma_ucm_port_space)space;
	*port = (u16)sid;
	return 0;
}
EXPORT_SYMBOL(cma_wire_sid_split);

#define CMA_WIRE_ROCE_HDRS	96

u8 cma_wire_roce_mtu(u32 netdev_mtu)
{
	u32 room = netdev_mtu > CMA_WIRE_ROCE_HDRS ?
		   netdev_mtu - CMA_WIRE_ROCE_HDRS : 0;
	u8 code = 5;	/* 4096 */

	while (code && room < (128u << code))
		code--;
	return code;
}
EXPORT_SYMBOL(cma_wire_roce_mtu);

u32 cma_wire_flow_label(u16 sport, u16 dport)
{
	return ((u32)sport * 31 + dport) & 0xfffff;
}
EXPORT_SYMBOL(cma_wire_flow_label);
