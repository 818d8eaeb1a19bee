/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * For the test modules that run on a real RoCE device (the MAD and CM
 * suites, ib_cm_hold): port 1's IPv4 GID, which every MAD they send is
 * addressed to and sent from.
 */
#ifndef _IB_TESTS_ROCE_PORT_H
#define _IB_TESTS_ROCE_PORT_H

#include <rdma/ib_verbs.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_device.h>

/* the first RoCE v2 entry of port 1 holding an IPv4 address, or -ENOENT */
static inline int roce_port1_ipv4_gid(struct ib_device *dev, u8 *index,
				      union ib_gid *gid)
{
	u32 i, n = rdma_gid_table_len(dev, 1);
	struct rdma_gid_entry e;

	for (i = 0; i < n; i++) {
		if (rdma_query_gid_entry(dev, 1, i, &e) ||
		    e.gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
		    e.gid.raw[10] != 0xff || e.gid.raw[11] != 0xff)
			continue;
		*index = (u8)i;
		*gid = e.gid;
		return 0;
	}
	return -ENOENT;
}

/*
 * The device named @name, referenced, with port 1's IPv4 GID in @index
 * and @gid; NULL if there is no such device or GID (*@why says which).
 */
static inline struct ib_device *roce_port1_get(const char *name, u8 *index,
					       union ib_gid *gid,
					       const char **why)
{
	struct ib_device *dev;

	dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!dev) {
		*why = "no such device";
		return NULL;
	}
	if (roce_port1_ipv4_gid(dev, index, gid)) {
		ib_device_put(dev);
		*why = "no IPv4 RoCE v2 GID on port 1";
		return NULL;
	}
	return dev;
}

#endif /* _IB_TESTS_ROCE_PORT_H */
