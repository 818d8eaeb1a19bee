/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel API of the MAD layer (drivers/infiniband/core/mad.c): one
 * GSI QP (QP1) per RoCE port of every registered device, agents that
 * claim requests and send MADs on it.  The rules (who owns what, when
 * handlers run, what unregister waits for) are in
 * Documentation/core/mad.rst, "Kernel API".
 */
#ifndef _RDMA_IB_MAD_H
#define _RDMA_IB_MAD_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_mad_wire.h>
#include <rdma/ib_mad_agent.h>

/* the Q_Key of every GSI QP */
#define RDMA_MAD_QP1_QKEY	0x80010000U
/* the GRH area in front of every received MAD */
#define RDMA_MAD_GRH_LEN	40

struct rdma_mad_agent;

/* Where a MAD goes: the peer's QP1 on RoCE (a GRH is mandatory). */
struct rdma_mad_dest {
	union ib_gid dgid;
	u8 sgid_index;		/* local GID entry (RoCE v2) to send from */
	u8 hop_limit;		/* 0: 64 */
	u8 traffic_class;
	u16 pkey_index;
	u32 flow_label;
	u32 remote_qpn;		/* 1 */
	u32 remote_qkey;	/* RDMA_MAD_QP1_QKEY */
};

/* A received MAD, valid only while the recv handler runs. */
struct rdma_mad_recv {
	struct ib_mad_wire_hdr hdr;	/* decoded header */
	const u8 *mad;			/* IB_MAD_WIRE_SIZE bytes */
	union ib_gid src_gid;		/* the sender's GID */
	bool is_response;		/* answers a send of this agent */
	void *send_context;		/* that send's context (responses) */
	u32 src_qp;
	u16 pkey_index;
	u32 port_num;
};

/* How a send ended; each send is reported exactly once. */
struct rdma_mad_send_done {
	u64 tid;
	u64 send_id;			/* the send's ID on its port */
	void *context;			/* as given to rdma_mad_send() */
	enum ib_wc_status status;	/* SUCCESS, RESP_TIMEOUT_ERR,
					 * WR_FLUSH_ERR (canceled), or the
					 * failed completion's status */
	u32 resent;			/* resends made */
};

struct rdma_mad_agent_ops {
	/* a request the agent claimed, or a response to one of its sends */
	void (*recv_handler)(struct rdma_mad_agent *agent,
			     const struct rdma_mad_recv *rx);
	/* the end of a send */
	void (*send_handler)(struct rdma_mad_agent *agent,
			     const struct rdma_mad_send_done *done);
};

/*
 * Register an agent on @port of @device, claiming @claim (NULL: send
 * only).  Returns the agent or an ERR_PTR: -ENODEV (no MAD port there:
 * not RoCE, or the device is going away), the errors of
 * ib_mad_agent_register().  Process context; may sleep.
 */
struct rdma_mad_agent *rdma_mad_agent_register(struct ib_device *device,
					       u32 port,
					       const struct ib_mad_agent_claim *claim,
					       const struct rdma_mad_agent_ops *ops,
					       void *context);
/*
 * Cancel the agent's sends, wait until each has been reported to the
 * send handler and no handler of the agent runs, then free it.  Process
 * context, never from one of the agent's own handlers.
 */
void rdma_mad_agent_unregister(struct rdma_mad_agent *agent);

void *rdma_mad_agent_context(const struct rdma_mad_agent *agent);
/* a new TID of the agent (its hi_tid in the upper 32 bits) */
u64 rdma_mad_agent_new_tid(struct rdma_mad_agent *agent);

/*
 * Send the IB_MAD_WIRE_SIZE bytes at @mad (copied; the TID in it routes
 * the answer) to @dest.  @timeout_ms 0: no response expected, the send
 * ends at its send completion; else a response is waited for
 * @timeout_ms after each send completion, and the MAD is resent at most
 * @retries times.  With @match_peer only a response from dest->dgid
 * counts.  0, or -ENODEV (port gone), -ESHUTDOWN (agent unregistering),
 * -ENOSPC (IB_MAD_SEND_MAX sends outstanding on the port), -ENOMEM, the
 * errors of rdma_create_ah() and of the post.  Process context.
 */
int rdma_mad_send(struct rdma_mad_agent *agent, const struct rdma_mad_dest *dest,
		  const u8 *mad, u32 timeout_ms, u32 retries, bool match_peer,
		  void *context);
/*
 * rdma_mad_send() that also stores, on success, the send's ID in
 * *@send_id: unique among the sends of the agent's port and never 0.  It
 * is the only handle that names one send: a TID does not, as a request
 * and the answers to it share theirs, and so do both ends of a loopback
 * exchange on one port.
 */
int rdma_mad_send_tracked(struct rdma_mad_agent *agent,
			  const struct rdma_mad_dest *dest, const u8 *mad,
			  u32 timeout_ms, u32 retries, bool match_peer,
			  void *context, u64 *send_id);
/*
 * Cancel the agent's outstanding send @send_id (rdma_mad_send_tracked()):
 * it ends with WR_FLUSH_ERR (now, or at its send completion).  -ENOENT if
 * it has ended already.
 */
int rdma_mad_cancel(struct rdma_mad_agent *agent, u64 send_id);

/* What a port counted so far (rdma_mad_port_stats()). */
struct rdma_mad_stats {
	u64 rx_delivered;
	u64 rx_replied;			/* answered with a GetResp 0x000c */
	u64 rx_drop[IB_MAD_RX_WHY_NUM];	/* by enum ib_mad_rx_why */
	u64 rx_bad_wc;			/* failed receive completions */
	u64 rx_no_grh;			/* receive without a GRH */
	u64 tx_posted;			/* posts, resends included */
	u64 tx_resent;
	u64 tx_timeout;
	u64 tx_canceled;
};

/* -ENODEV if @port of @device has no MAD port */
int rdma_mad_port_stats(struct ib_device *device, u32 port,
			struct rdma_mad_stats *st);

#endif /* _RDMA_IB_MAD_H */
