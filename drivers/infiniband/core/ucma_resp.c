// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Responses of rdma_ucm's QUERY and QUERY_ROUTE, see ucma_resp.h.
 *
 * Pure logic: only type-level headers, so the file also builds as C++ on
 * the host (tools/testing/unit).  Multi-byte fields are written byte by
 * byte in network order, whatever the host's order.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>

#include "ucma_cmd_check.h"
#include "ucma_resp.h"

static void put_be16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static void put_be32(u8 *p, u32 v)
{
	put_be16(p, (u16)(v >> 16));
	put_be16(p + 2, (u16)v);
}

static void put_be64(u8 *p, u64 v)
{
	put_be32(p, (u32)(v >> 32));
	put_be32(p + 4, (u32)v);
}

/* A 6-bit value under the "exactly" selector. */
static u8 exactly(u8 v)
{
	return (u8)((UCMA_PR_SELECTOR_EXACTLY << 6) | (v & 0x3f));
}

void ucma_fill_path_rec_data(const struct ucma_path *p,
			     struct ib_path_rec_data *out)
{
	u8 *r = (u8 *)out->path_rec;

	out->flags = IB_PATH_GMP | IB_PATH_PRIMARY | IB_PATH_BIDIRECTIONAL;
	out->reserved = 0;
	__builtin_memset(r, 0, UCMA_PR_LEN);
	put_be64(r + UCMA_PR_SERVICE_ID, p->service_id);
	__builtin_memcpy(r + UCMA_PR_DGID, p->dgid, 16);
	__builtin_memcpy(r + UCMA_PR_SGID, p->sgid, 16);
	put_be32(r + UCMA_PR_FL_HOP,
		 ((p->flow_label & 0xfffff) << 8) | p->hop_limit);
	r[UCMA_PR_TCLASS] = p->traffic_class;
	r[UCMA_PR_REV_NUMPATH] = 0x80 | 1;
	put_be16(r + UCMA_PR_PKEY, p->pkey);
	put_be16(r + UCMA_PR_QOS_SL, p->sl & 0xf);
	r[UCMA_PR_MTU] = exactly(p->mtu);
	r[UCMA_PR_RATE] = exactly(p->rate);
	r[UCMA_PR_PLT] = exactly(p->packet_life_time);
}
EXPORT_SYMBOL(ucma_fill_path_rec_data);

void ucma_fill_user_path_rec(const struct ucma_path *p,
			     struct ib_user_path_rec *out)
{
	__builtin_memset((u8 *)out, 0, sizeof(*out));
	__builtin_memcpy(out->dgid, p->dgid, 16);
	__builtin_memcpy(out->sgid, p->sgid, 16);
	put_be32((u8 *)&out->flow_label, p->flow_label & 0xfffff);
	out->reversible = 1;
	out->mtu = p->mtu;
	put_be16((u8 *)&out->pkey, p->pkey);
	out->hop_limit = p->hop_limit;
	out->traffic_class = p->traffic_class;
	out->numb_path = 1;
	out->sl = p->sl & 0xf;
	out->mtu_selector = UCMA_PR_SELECTOR_EXACTLY;
	out->rate_selector = UCMA_PR_SELECTOR_EXACTLY;
	out->rate = p->rate;
	out->packet_life_time_selector = UCMA_PR_SELECTOR_EXACTLY;
	out->packet_life_time = p->packet_life_time;
}
EXPORT_SYMBOL(ucma_fill_user_path_rec);

u32 ucma_fill_sib(struct __kernel_sockaddr_storage *out, u16 pkey,
		  const u8 gid[16], u64 sid)
{
	u8 *s = (u8 *)out;

	__builtin_memset(s, 0, sizeof(*out));
	out->ss_family = AF_IB;
	put_be16(s + UCMA_SIB_PKEY, pkey);
	__builtin_memcpy(s + UCMA_SIB_ADDR, gid, 16);
	put_be64(s + UCMA_SIB_SID, sid);
	put_be64(s + UCMA_SIB_SID_MASK, ~(u64)0);
	return UCMA_SOCKADDR_IB_LEN;
}
EXPORT_SYMBOL(ucma_fill_sib);

/* sockaddr_in: sin_addr at 4; sockaddr_in6: sin6_addr at 8 */
#define UCMA_IN_ADDR_OFF	4
#define UCMA_IN6_ADDR_OFF	8

int ucma_ip_to_gid(const struct __kernel_sockaddr_storage *addr, u32 len,
		   u8 gid[16])
{
	const u8 *a = (const u8 *)addr;

	__builtin_memset(gid, 0, 16);
	if (addr->ss_family == AF_INET &&
	    len >= sizeof(struct sockaddr_in)) {
		gid[10] = 0xff;
		gid[11] = 0xff;
		__builtin_memcpy(gid + 12, a + UCMA_IN_ADDR_OFF, 4);
		return 0;
	}
	if (addr->ss_family == AF_INET6 &&
	    len >= sizeof(struct sockaddr_in6)) {
		__builtin_memcpy(gid, a + UCMA_IN6_ADDR_OFF, 16);
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL(ucma_ip_to_gid);
