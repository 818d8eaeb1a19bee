/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Responses of rdma_ucm's QUERY and QUERY_ROUTE built from plain values,
 * as pure logic: the 64-byte SA PathRecord of QUERY(PATH), the
 * struct ib_user_path_rec of QUERY_ROUTE, the AF_IB sockaddr QUERY(GID)
 * synthesises for an IP-addressed ID, and the IP-to-GID mapping RoCE uses.
 * Type-level headers only; tools/testing/unit compiles it as C++.  The
 * glue (ucma_cmd.c) fills struct ucma_path from the ID's RoCE path.
 */
#ifndef _UCMA_RESP_H
#define _UCMA_RESP_H

#include <linux/types.h>
#include <linux/socket.h>
#include <uapi/linux/in.h>
#include <uapi/rdma/rdma_user_cm.h>

/* One RoCE path, CPU byte order. */
struct ucma_path {
	u64 service_id;
	u8 dgid[16];
	u8 sgid[16];
	u32 flow_label;		/* 20 bits */
	u8 hop_limit;
	u8 traffic_class;
	u16 pkey;
	u8 sl;			/* 4 bits */
	u8 mtu;			/* enum ib_mtu */
	u8 rate;
	u8 packet_life_time;	/* 6 bits */
};

/* SA PathRecord byte offsets (the packed 64-byte record of QUERY(PATH)). */
#define UCMA_PR_SERVICE_ID	0
#define UCMA_PR_DGID		8
#define UCMA_PR_SGID		24
#define UCMA_PR_DLID		40
#define UCMA_PR_SLID		42
#define UCMA_PR_FL_HOP		44	/* raw(1) rsvd(3) flow label(20) hop(8) */
#define UCMA_PR_TCLASS		48
#define UCMA_PR_REV_NUMPATH	49	/* reversible(1) numb_path(7) */
#define UCMA_PR_PKEY		50
#define UCMA_PR_QOS_SL		52	/* QoS class(12) SL(4) */
#define UCMA_PR_MTU		54	/* selector(2) MTU(6) */
#define UCMA_PR_RATE		55	/* selector(2) rate(6) */
#define UCMA_PR_PLT		56	/* selector(2) packet life time(6) */
#define UCMA_PR_PREFERENCE	57
#define UCMA_PR_LEN		64

/* The selector every reported path carries: "exactly this value". */
#define UCMA_PR_SELECTOR_EXACTLY	2

/*
 * QUERY(PATH) record: flags GMP | PRIMARY | BIDIRECTIONAL, the packed
 * record (reversible, one path, LIDs 0; RoCE has none).
 */
void ucma_fill_path_rec_data(const struct ucma_path *p,
			     struct ib_path_rec_data *out);

/* QUERY_ROUTE entry, the same path unpacked. */
void ucma_fill_user_path_rec(const struct ucma_path *p,
			     struct ib_user_path_rec *out);

/* struct sockaddr_ib (kernel <rdma/ib.h>) byte offsets; ucma.c checks them. */
#define UCMA_SIB_FAMILY		0
#define UCMA_SIB_PKEY		2
#define UCMA_SIB_FLOWINFO	4
#define UCMA_SIB_ADDR		8
#define UCMA_SIB_SID		24
#define UCMA_SIB_SID_MASK	32
#define UCMA_SIB_SCOPE_ID	40

/*
 * QUERY(GID) address of an IP-addressed ID: an AF_IB sockaddr in @out
 * (zeroed first) holding @pkey, @gid and the service ID @sid with a full
 * mask.  Return: its length, UCMA_SOCKADDR_IB_LEN (48).
 */
u32 ucma_fill_sib(struct __kernel_sockaddr_storage *out, u16 pkey,
		  const u8 gid[16], u64 sid);

/*
 * The RoCE GID of an IP address: IPv4 as ::ffff:a.b.c.d, IPv6 verbatim.
 * @addr holds @len bytes; anything else, or too short, gives all zeros
 * and -EINVAL.
 */
int ucma_ip_to_gid(const struct __kernel_sockaddr_storage *addr, u32 len,
		   u8 gid[16]);

#endif /* _UCMA_RESP_H */
