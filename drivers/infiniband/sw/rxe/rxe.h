/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Soft-RoCE (rxe): an RDMA device on top of an Ethernet netdev.  For now
 * only the device exists (no queues, no data path); see
 * Documentation/rxe/index.rst.
 */
#ifndef _RXE_H
#define _RXE_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <rdma/ib_device.h>

#include "rxe_param.h"

struct rxe_dev {
	struct ib_device ib_dev;	/* first: ib_alloc_device() wants it so */
	/* held (dev_hold) from newlink until ops.dealloc_driver */
	struct net_device *ndev;
	/* in rxe_dev_list, under rxe_dev_mutex */
	struct list_head list;
	/* last port state announced by an event; under rxe_dev_mutex */
	enum ib_port_state port_state;
	/* from the netdev's ethtool speed when the device was created */
	u8 active_width;
	u16 active_speed;
};

static inline struct rxe_dev *to_rdev(struct ib_device *ib_dev)
{
	return container_of(ib_dev, struct rxe_dev, ib_dev);
}

/* rxe.c: the device list */
extern struct mutex rxe_dev_mutex;
void rxe_dev_list_del(struct rxe_dev *rxe);

/* rxe_verbs.c */
enum ib_port_state rxe_port_state(struct net_device *ndev);
void rxe_init_device(struct rxe_dev *rxe, struct net_device *ndev);

#endif /* _RXE_H */
