/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The per-port GID cache: what sysfs gids/, ibv_query_gid and address
 * resolution read.  Entries are kept by core (RoCE: roce_gid_mgmt.c from
 * the bound netdev's addresses); readers only look.  Every function here
 * may be called from process context while the device is registered;
 * the readers also from atomic context.  See
 * Documentation/core/gid-table.rst.
 */
#ifndef _RDMA_IB_CACHE_H
#define _RDMA_IB_CACHE_H

#include <linux/if.h>
#include <rdma/ib_verbs.h>

/* One used slot of a port's GID table, copied out. */
struct rdma_gid_entry {
	union ib_gid gid;
	enum ib_gid_type gid_type;
	int ndev_ifindex;	/* 0: no netdev (IB) */
	u32 port;
	u32 index;
};

/*
 * The GID in slot @index of @port.  -EINVAL for a bad port or index and
 * for an empty slot (what upstream answers, and what ibv_query_gid over
 * sysfs tolerates: sysfs prints an all-zero GID instead).
 */
int rdma_query_gid(struct ib_device *device, u32 port, int index,
		   union ib_gid *gid);
/*
 * The whole entry of slot @index: -EINVAL for a bad port or index,
 * -ENODATA for an empty slot.
 */
int rdma_query_gid_entry(struct ib_device *device, u32 port, int index,
			 struct rdma_gid_entry *entry);
/*
 * Name of the netdev of slot @index into @name (IFNAMSIZ bytes):
 * -EINVAL bad port/index, -ENODATA empty slot or no netdev.
 */
int rdma_query_gid_netdev_name(struct ib_device *device, u32 port, int index,
			       char *name);
/*
 * Find @gid of @gid_type on any port (@port == 0) or on @port only.
 * Fills @entry (may be NULL) and returns 0, or -ENOENT.
 */
int rdma_find_gid_entry(struct ib_device *device, const union ib_gid *gid,
			enum ib_gid_type gid_type, u32 port,
			struct rdma_gid_entry *entry);
/* Size of @port's GID table (0 for a bad port). */
u32 rdma_gid_table_len(struct ib_device *device, u32 port);
/* "IB/RoCE v1" or "RoCE v2" (sysfs gid_attrs/types/N), "" if unknown. */
const char *rdma_gid_type_str(enum ib_gid_type gid_type);

/*
 * Writers, for core (roce_gid_mgmt.c) and for drivers that manage a
 * table themselves (IB).  Each returns 0 or a negative errno; a change
 * is announced by the caller with rdma_gid_changed().
 */
int rdma_gid_cache_add(struct ib_device *device, u32 port,
		       const union ib_gid *gid, enum ib_gid_type gid_type,
		       int ifindex);
int rdma_gid_cache_del(struct ib_device *device, u32 port,
		       const union ib_gid *gid, enum ib_gid_type gid_type,
		       int ifindex);
int rdma_gid_cache_set_default(struct ib_device *device, u32 port,
			       const union ib_gid *gid,
			       enum ib_gid_type gid_type, int ifindex);
/* Empty every slot of @port; returns how many were used. */
u32 rdma_gid_cache_flush_port(struct ib_device *device, u32 port);
/* IB_EVENT_GID_CHANGE for @port. */
void rdma_gid_changed(struct ib_device *device, u32 port);

#endif /* _RDMA_IB_CACHE_H */
