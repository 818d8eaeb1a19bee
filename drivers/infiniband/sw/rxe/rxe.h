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

/* Port counters, in upstream rxe's order (rxe_hw_counters.c). */
enum rxe_counter {
	RXE_CNT_SENT_PKTS,
	RXE_CNT_RCVD_PKTS,
	RXE_CNT_DUP_REQ,
	RXE_CNT_OUT_OF_SEQ_REQ,
	RXE_CNT_RCV_RNR,
	RXE_CNT_SND_RNR,
	RXE_CNT_RCV_SEQ_ERR,
	RXE_CNT_ACK_DEFERRED,
	RXE_CNT_RETRY_EXCEEDED,
	RXE_CNT_RNR_RETRY_EXCEEDED,
	RXE_CNT_COMP_RETRY,
	RXE_CNT_SEND_ERR,
	RXE_CNT_LINK_DOWNED,
	RXE_CNT_RDMA_SEND,
	RXE_CNT_RDMA_RECV,
	RXE_NUM_COUNTERS
};

struct rxe_dev {
	struct ib_device ib_dev;	/* first: ib_alloc_device() wants it so */
	/* held (dev_hold) from newlink until ops.dealloc_driver */
	struct net_device *ndev;
	/* in rxe_dev_list, under rxe_dev_mutex */
	struct list_head list;
	/* last port state announced by an event; under rxe_dev_mutex */
	enum ib_port_state port_state;
	/* the namespace whose UDP sockets we hold a use of (rxe_net.c) */
	struct net *sock_net;
	atomic64_t counters[RXE_NUM_COUNTERS];
};

static inline struct rxe_dev *to_rdev(struct ib_device *ib_dev)
{
	return container_of(ib_dev, struct rxe_dev, ib_dev);
}

/* rxe.c: the device list */
extern struct mutex rxe_dev_mutex;
void rxe_dev_list_del(struct rxe_dev *rxe);

static inline void rxe_counter_inc(struct rxe_dev *rxe, enum rxe_counter c)
{
	atomic64_inc(&rxe->counters[c]);
}

/* rxe_hw_counters.c */
extern const struct rdma_stat_desc rxe_port_stats[RXE_NUM_COUNTERS];
int rxe_get_hw_stats(struct ib_device *ib_dev, u32 port, u64 *values, u32 num);

/* rxe_net.c */
int rxe_net_get(struct net *net);
void rxe_net_put(struct net *net);
int rxe_net_init(void);
void rxe_net_exit_module(void);

/* rxe_verbs.c */
enum ib_port_state rxe_port_state(struct net_device *ndev);
void rxe_init_device(struct rxe_dev *rxe, struct net_device *ndev);

#endif /* _RXE_H */
