/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Soft-RoCE (rxe): an RDMA device on top of an Ethernet netdev, with its
 * verbs objects and its RoCEv2 data path; see Documentation/rxe/index.rst
 * and Documentation/rxe/datapath.rst.
 */
#ifndef _RXE_H
#define _RXE_H

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <rdma/ib_device.h>

#include "rxe_param.h"
#include "rxe_pool.h"

/*
 * Port counters: (our id, the name users see), in the order "rdma
 * statistic" and hw_counters/ show them: upstream rxe's fifteen, then
 * ours (retransmitted packets; packets dropped for a bad ICRC, for an
 * access violation, or for any other reason: bad header, no such QP,
 * wrong state, P_Key or Q_Key).  One table makes both the enum and the
 * names (rxe_hw_counters.c).
 */
#define RXE_COUNTER_TABLE(C)					\
	C(SENT_PKTS, "sent_pkts")				\
	C(RCVD_PKTS, "rcvd_pkts")				\
	C(DUP_REQ, "duplicate_request")				\
	C(OUT_OF_SEQ_REQ, "out_of_seq_request")			\
	C(RCV_RNR, "rcvd_rnr_err")				\
	C(SND_RNR, "send_rnr_err")				\
	C(RCV_SEQ_ERR, "rcvd_seq_err")				\
	C(ACK_DEFERRED, "ack_deferred")				\
	C(RETRY_EXCEEDED, "retry_exceeded_err")			\
	C(RNR_RETRY_EXCEEDED, "retry_rnr_exceeded_err")		\
	C(COMP_RETRY, "completer_retry_err")			\
	C(SEND_ERR, "send_err")					\
	C(LINK_DOWNED, "link_downed")				\
	C(RDMA_SEND, "rdma_sends")				\
	C(RDMA_RECV, "rdma_recvs")				\
	C(RETRANSMIT, "retransmits")				\
	C(ICRC_ERR, "rcvd_icrc_err")				\
	C(ACCESS_ERR, "rcvd_access_err")			\
	C(RCV_DROP, "rcvd_dropped")

#define RXE_COUNTER_ID(id, label) RXE_CNT_##id,
enum rxe_counter {
	RXE_COUNTER_TABLE(RXE_COUNTER_ID)
	RXE_NUM_COUNTERS
};
#undef RXE_COUNTER_ID

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
	/* from the netdev's ethtool speed when the device was created */
	u8 active_width;
	u16 active_speed;

	/* verbs objects found by number (rxe_obj.h) */
	struct rxe_pool pd_pool;
	struct rxe_pool mr_pool;	/* index = key >> 8 */
	struct rxe_pool mw_pool;
	struct rxe_pool cq_pool;
	struct rxe_pool qp_pool;	/* index = QPN */
	struct rxe_pool srq_pool;	/* index = SRQ number */
	struct rxe_pool ah_pool;	/* index = AH number */
	/* mmap cookies of user rings (rxe_mmap.c) */
	spinlock_t mmap_lock;
	u64 mmap_next;
	struct list_head mmap_pending;
	/* the GSI QP (QPN 1), if created, and its pool index (0: none) */
	struct ib_qp *gsi_qp;
	u32 gsi_index;
	/* multicast groups (rxe_mcast.c) */
	struct mutex mcg_mutex;		/* attach, detach, cleanup */
	spinlock_t mcg_lock;		/* the table; taken in softirq */
	DECLARE_HASHTABLE(mcg_hash, 8);
	u32 mcg_count;			/* groups */
	u32 mcg_attached;		/* attachments, all groups */
};

static inline struct rxe_dev *to_rdev(struct ib_device *ib_dev)
{
	return container_of(ib_dev, struct rxe_dev, ib_dev);
}

/* rxe.c: the device list */
extern struct mutex rxe_dev_mutex;
void rxe_dev_list_del(struct rxe_dev *rxe);
/* receive path, under rcu_read_lock(): a use of @ndev's device, or NULL */
struct rxe_dev *rxe_get_rcv_dev(const struct net_device *ndev);

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
/* a packet for this host: to the receive path directly (rxe_xmit.c);
 * @tx: the sender's (rxe_dp.h), or NULL */
struct rxe_tx;
void rxe_net_local_rcv(struct sk_buff *skb, struct rxe_tx *tx);
int rxe_net_init(void);
void rxe_net_exit_module(void);

/* rxe_mcast.c: multicast groups */
struct rxe_qp;
union ib_gid;
int rxe_attach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 lid);
int rxe_detach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 lid);
/*
 * The QPs attached to @mgid (at most @max), each with a reference the
 * caller drops (rxe_elem_put); 0 for an unknown group.
 */
u32 rxe_mcast_get_qps(struct rxe_dev *rxe, const union ib_gid *mgid,
		      struct rxe_qp **qps, u32 max);
void rxe_mcast_dev_init(struct rxe_dev *rxe);
void rxe_mcast_dev_cleanup(struct rxe_dev *rxe);
int rxe_mcast_init(void);
void rxe_mcast_exit(void);

/* rxe_pool.c: the object indices of a device */
void rxe_pools_init(struct rxe_dev *rxe);
void rxe_pools_cleanup(struct rxe_dev *rxe);

/* rxe_verbs.c */
enum ib_port_state rxe_port_state(struct net_device *ndev);
void rxe_init_device(struct rxe_dev *rxe, struct net_device *ndev);

#endif /* _RXE_H */
