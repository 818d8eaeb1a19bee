/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A port's GID table as pure data: which slot a GID goes to, which it
 * leaves, which one is the default.  No locking and no allocation here;
 * the caller owns the entry array and serialises access.  Type-level only,
 * so it also builds as C++ on the host (tools/testing/unit).
 *
 * RoCE layout (Linux 6.1's, what rdma-core and perftest expect):
 * slot 0 holds the default GID, fe80::<EUI-64 of the MAC>; IP addresses
 * take the lowest free slot from 1 on, in order of appearance; a GID that
 * is already in the table (same bytes, type and netdev) is not added twice.
 */
#ifndef _RDMA_IB_GID_TABLE_H
#define _RDMA_IB_GID_TABLE_H

#include <linux/types.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>

#define RDMA_GID_BYTES	16

/* GID types; the numbers are the user ABI's. */
enum ib_gid_type {
	IB_GID_TYPE_IB = IB_UVERBS_GID_TYPE_IB,
	IB_GID_TYPE_ROCE = IB_UVERBS_GID_TYPE_ROCE_V1,
	IB_GID_TYPE_ROCE_UDP_ENCAP = IB_UVERBS_GID_TYPE_ROCE_V2,
};

struct rdma_gid_slot {
	u8 gid[RDMA_GID_BYTES];
	u32 ifindex;		/* netdev the GID belongs to */
	u8 type;		/* enum ib_gid_type */
	u8 used;
};

struct rdma_gid_table {
	struct rdma_gid_slot *slots;
	u32 len;
};

/* fe80::<EUI-64 of @mac> */
void rdma_gid_default_from_mac(const u8 *mac, u8 *gid);
/* The MAC an EUI-64 interface id (ff:fe in the middle) was made from. */
bool rdma_gid_eui64_to_mac(const u8 *gid, u8 *mac);
/* ::ffff:a.b.c.d from an IPv4 address given as 4 bytes in network order */
void rdma_gid_from_ipv4(const u8 *addr4, u8 *gid);
bool rdma_gid_is_zero(const u8 *gid);
/* ::ffff:a.b.c.d (an IPv4 address) */
bool rdma_gid_is_v4mapped(const u8 *gid);
/* a multicast group: IPv4 224.0.0.0/4 (v4-mapped) or IPv6 ff00::/8 */
bool rdma_gid_is_multicast(const u8 *gid);
/* the Ethernet address of multicast group @gid (01:00:5e:.. or 33:33:..) */
void rdma_gid_mcast_mac(const u8 *gid, u8 *mac);

/* Slot 0 := (@gid, @type, @ifindex).  -EINVAL on an empty table. */
int rdma_gid_table_set_default(struct rdma_gid_table *t, const u8 *gid,
			       u8 type, u32 ifindex);
/* Empty slot 0. */
void rdma_gid_table_clear_default(struct rdma_gid_table *t);

/*
 * Add to the lowest free slot >= 1.  Returns the slot, -EEXIST when the
 * same GID/type/netdev is there already (the slot is not changed),
 * -ENOSPC when full, -EINVAL for a zero GID.
 */
int rdma_gid_table_add(struct rdma_gid_table *t, const u8 *gid, u8 type,
		       u32 ifindex);
/* Remove from slots >= 1.  Returns the slot it was in, or -ENOENT. */
int rdma_gid_table_del(struct rdma_gid_table *t, const u8 *gid, u8 type,
		       u32 ifindex);
/* Remove every entry of @ifindex (the netdev is going), default included. */
u32 rdma_gid_table_del_netdev(struct rdma_gid_table *t, u32 ifindex);
/* Slot of @gid/@type (any netdev), or -ENOENT. */
int rdma_gid_table_find(const struct rdma_gid_table *t, const u8 *gid, u8 type);

#endif /* _RDMA_IB_GID_TABLE_H */
