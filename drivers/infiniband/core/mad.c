// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The MAD layer's kernel part: an ib_client that gives every RoCE port a
 * GSI QP with a ring of receive buffers, and runs the pure agent and
 * send tables of mad_agent.c on it.  Documentation/core/mad.rst
 * ("Kernel API") states the rules.
 *
 * Locking: port->lock (a mutex) guards both tables, the per-index object
 * arrays, the QP and CQ pointers and the counters; every verb on the QP
 * and CQ is called under it.  Handlers run from port->wq (ordered: one at
 * a time per port) with no lock held.  A send leaves the tables under the
 * lock (its AH destroyed there) and is queued on port->done; the worker
 * reports it afterwards.  An agent stays allocated until unregister has
 * seen all its sends reported and flushed port->wq.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/kref.h>
#include <linux/workqueue.h>
#include <linux/wait.h>
#include <linux/timekeeping.h>
#include <linux/lockdep.h>
#include <linux/string.h>
#include <linux/err.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_device.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>

#include "core_priv.h"

/* receive buffers posted per port */
#define MAD_RECV_DEPTH		512
/* completions taken per poll call */
#define MAD_POLL_BATCH		16
/* completions one run of the worker handles before it requeues itself */
#define MAD_POLL_BUDGET		256
#define MAD_RBUF_LEN		(RDMA_MAD_GRH_LEN + IB_MAD_WIRE_SIZE)
/* wr_id: receive buffers have this bit, sends carry their slot */
#define MAD_WRID_RECV		(1ULL << 32)

struct mad_rbuf {
	u8 data[MAD_RBUF_LEN];
};

struct mad_port;

struct rdma_mad_agent {
	struct mad_port *port;
	const struct rdma_mad_agent_ops *ops;
	void *context;
	u32 index;		/* in port->agents */
	bool dying;		/* unregistering: no new sends or receives */
	atomic_t outstanding;	/* sends not yet reported */
};

struct mad_send {
	struct rdma_mad_agent *agent;
	struct ib_ah *ah;
	struct list_head done_entry;
	struct rdma_mad_send_done done;
	struct rdma_mad_dest dest;
	u64 dma;		/* mad[] mapped to the device, while in a slot */
	u8 mad[IB_MAD_WIRE_SIZE];
};

struct mad_port {
	struct kref ref;
	struct ib_device *device;	/* NULL once the device is removed */
	u32 port_num;
	struct mutex lock;
	bool dying;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	u32 recv_posted;
	struct ib_mad_agent_table agents;
	struct ib_mad_send_table sends;
	struct rdma_mad_agent *agent_obj[IB_MAD_AGENT_MAX];
	struct mad_send *send_obj[IB_MAD_SEND_MAX];
	struct mad_rbuf *rbuf[MAD_RECV_DEPTH];
	/* rbuf[i] mapped for the device at rbuf_dma[i], for i < rbuf_mapped */
	u64 rbuf_dma[MAD_RECV_DEPTH];
	u32 rbuf_mapped;
	/* the layer's own send-only agent: GetResp 0x000c answers */
	struct rdma_mad_agent *self;
	struct list_head done;
	struct workqueue_struct *wq;
	struct work_struct comp_work;
	struct delayed_work timer_work;
	wait_queue_head_t waitq;
	struct rdma_mad_stats stats;
	u64 last_send_id;		/* under lock; IDs start at 1 */
};

struct mad_dev {
	struct list_head entry;
	struct ib_device *device;
	u32 nports;
	struct mad_port *port[];	/* [port - 1], NULL: no MAD port */
};

static LIST_HEAD(mad_devs);
static DEFINE_MUTEX(mad_devs_lock);

static u64 mad_now_ms(void)
{
	return ktime_to_ms(ktime_get());
}

static void mad_port_free(struct kref *ref)
{
	struct mad_port *port = container_of(ref, struct mad_port, ref);
	u32 i;

	destroy_workqueue(port->wq);
	/* a worker that polled before the removal may still read them */
	for (i = 0; i < MAD_RECV_DEPTH; i++)
		kfree(port->rbuf[i]);
	kfree(port);
}

static void mad_port_put(struct mad_port *port)
{
	kref_put(&port->ref, mad_port_free);
}

/* ---- sends ---- */

static int mad_post_send(struct mad_port *port, u32 slot)
{
	struct mad_send *ms = port->send_obj[slot];
	struct ib_sge sge = {
		.addr = ms->dma,
		.length = IB_MAD_WIRE_SIZE,
		.lkey = port->pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_id = slot,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = ms->ah,
		.remote_qpn = ms->dest.remote_qpn,
		.remote_qkey = ms->dest.remote_qkey,
		.pkey_index = ms->dest.pkey_index,
	};

	lockdep_assert_held(&port->lock);
	if (!port->qp)
		return -ENODEV;
	port->stats.tx_posted++;
	return ib_post_send(port->qp, &wr.wr, NULL);
}

static enum ib_wc_status mad_status_wc(u8 status, enum ib_wc_status wc)
{
	switch (status) {
	case IB_MAD_SEND_OK:
		return IB_WC_SUCCESS;
	case IB_MAD_SEND_ERR_TIMEOUT:
		return IB_WC_RESP_TIMEOUT_ERR;
	case IB_MAD_SEND_ERR_CANCELED:
		return IB_WC_WR_FLUSH_ERR;
	default:
		return wc == IB_WC_SUCCESS ? IB_WC_GENERAL_ERR : wc;
	}
}

/*
 * Act on what the send table said: a COMPLETE takes the send out of the
 * port (AH destroyed) onto the done list, a RESEND posts it again.
 * @wc is the completion status a WC error reports.
 */
static void mad_send_act(struct mad_port *port,
			 const struct ib_mad_send_action *act,
			 enum ib_wc_status wc)
{
	struct ib_mad_send_action again;
	struct mad_send *ms;

	lockdep_assert_held(&port->lock);
	if (act->slot < 0 || act->slot >= IB_MAD_SEND_MAX)
		return;
	ms = port->send_obj[act->slot];
	if (WARN_ON_ONCE(!ms))
		return;
	switch (act->what) {
	case IB_MAD_SEND_DO_RESEND:
		port->stats.tx_resent++;
		if (!mad_post_send(port, act->slot))
			return;
		/* not posted: a failed send completion, now */
		if (!ib_mad_send_on_wc(&port->sends, act->slot, false,
				       mad_now_ms(), &again) &&
		    again.what == IB_MAD_SEND_DO_COMPLETE)
			mad_send_act(port, &again, IB_WC_GENERAL_ERR);
		return;
	case IB_MAD_SEND_DO_COMPLETE:
		port->send_obj[act->slot] = NULL;
		ib_dma_unmap_single(port->device, ms->dma, IB_MAD_WIRE_SIZE,
				    DMA_TO_DEVICE);
		ms->done.status = mad_status_wc(act->status, wc);
		ms->done.resent = act->resent;
		if (act->status == IB_MAD_SEND_ERR_TIMEOUT)
			port->stats.tx_timeout++;
		else if (act->status == IB_MAD_SEND_ERR_CANCELED)
			port->stats.tx_canceled++;
		if (ms->ah)
			rdma_destroy_ah(ms->ah, RDMA_DESTROY_AH_SLEEPABLE);
		ms->ah = NULL;
		list_add_tail(&ms->done_entry, &port->done);
		return;
	default:
		return;
	}
}

/* Arm the timer for the earliest deadline of the waiting sends. */
static void mad_timer_arm(struct mad_port *port)
{
	u64 deadline, now;

	lockdep_assert_held(&port->lock);
	if (!ib_mad_send_next_deadline(&port->sends, &deadline))
		return;
	now = mad_now_ms();
	mod_delayed_work(port->wq, &port->timer_work,
			 deadline > now ?
			 msecs_to_jiffies((unsigned int)min_t(u64, deadline - now,
							      UINT_MAX)) : 0);
}

/* Report the sends on the done list; no lock held. */
static void mad_run_done(struct mad_port *port)
{
	struct mad_send *ms, *tmp;
	LIST_HEAD(list);

	mutex_lock(&port->lock);
	list_splice_init(&port->done, &list);
	mutex_unlock(&port->lock);
	list_for_each_entry_safe(ms, tmp, &list, done_entry) {
		struct rdma_mad_agent *agent = ms->agent;

		list_del(&ms->done_entry);
		if (agent->ops->send_handler)
			agent->ops->send_handler(agent, &ms->done);
		kfree(ms);
		/* unregister may free the agent from here on */
		if (atomic_dec_and_test(&agent->outstanding))
			wake_up_all(&port->waitq);
	}
}

static void mad_timer_work(struct work_struct *work)
{
	struct mad_port *port = container_of(to_delayed_work(work),
					     struct mad_port, timer_work);
	struct ib_mad_send_action act;
	u32 i;

	mutex_lock(&port->lock);
	/* each call resends or completes one send: bounded by the table */
	for (i = 0; i < IB_MAD_SEND_MAX; i++) {
		ib_mad_send_on_timer(&port->sends, mad_now_ms(), &act);
		if (act.what == IB_MAD_SEND_DO_NOTHING)
			break;
		mad_send_act(port, &act, IB_WC_SUCCESS);
	}
	mad_timer_arm(port);
	mutex_unlock(&port->lock);
	mad_run_done(port);
}

/* ---- receives ---- */

static int mad_post_recv(struct mad_port *port, u32 i)
{
	struct ib_sge sge = {
		.addr = port->rbuf_dma[i],
		.length = MAD_RBUF_LEN,
		.lkey = port->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_id = MAD_WRID_RECV | i,
		.sg_list = &sge,
		.num_sge = 1,
	};
	int ret;

	lockdep_assert_held(&port->lock);
	if (port->dying || !port->qp)
		return -ENODEV;
	ib_dma_sync_single_for_device(port->device, sge.addr, MAD_RBUF_LEN,
				      DMA_FROM_DEVICE);
	ret = ib_post_recv(port->qp, &wr, NULL);
	if (!ret)
		port->recv_posted++;
	return ret;
}

/*
 * The sender's GID from the GRH area: RoCE v2 over IPv4 puts the IPv4
 * header in its last 20 bytes (source address at 12), over IPv6 the IPv6
 * header fills it (source address at 8).
 */
static void mad_src_gid(const struct ib_wc *wc, const u8 *grh,
			union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	if ((wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE) &&
	    wc->network_hdr_type == 2 /* IPv4 */) {
		gid->raw[10] = 0xff;
		gid->raw[11] = 0xff;
		memcpy(&gid->raw[12], grh + RDMA_MAD_GRH_LEN - 20 + 12, 4);
		return;
	}
	memcpy(gid->raw, grh + 8, sizeof(gid->raw));
}

/* Answer an unclaimed Get/Set with a GetResp from the layer's agent. */
static void mad_reply(struct mad_port *port, const struct ib_wc *wc,
		      const u8 *mad, const union ib_gid *src,
		      const u8 *grh, u16 status)
{
	struct rdma_mad_dest dest = {
		.dgid = *src,
		.pkey_index = wc->pkey_index,
		.remote_qpn = wc->src_qp,
		.remote_qkey = RDMA_MAD_QP1_QKEY,
	};
	struct rdma_gid_entry entry;
	union ib_gid dgid;
	u8 *buf;
	int ret;

	/* our GID the request was sent to: send the answer from it */
	memset(&dgid, 0, sizeof(dgid));
	if (wc->network_hdr_type == 2) {
		dgid.raw[10] = 0xff;
		dgid.raw[11] = 0xff;
		memcpy(&dgid.raw[12], grh + RDMA_MAD_GRH_LEN - 20 + 16, 4);
	} else {
		memcpy(dgid.raw, grh + 24, sizeof(dgid.raw));
	}
	mutex_lock(&port->lock);
	ret = port->device ?
	      rdma_find_gid_entry(port->device, &dgid, IB_GID_TYPE_ROCE_UDP_ENCAP,
				  port->port_num, &entry) : -ENODEV;
	mutex_unlock(&port->lock);
	if (ret)
		return;
	dest.sgid_index = (u8)entry.index;
	buf = (u8 *)kmemdup(mad, IB_MAD_WIRE_SIZE, GFP_KERNEL);
	if (!buf)
		return;
	if (!ib_mad_wire_make_reply(buf, IB_MAD_WIRE_SIZE, status) &&
	    !rdma_mad_send(port->self, &dest, buf, 0, 0, false, NULL)) {
		mutex_lock(&port->lock);
		port->stats.rx_replied++;
		mutex_unlock(&port->lock);
	}
	kfree(buf);
}

static void mad_recv_one(struct mad_port *port, const struct ib_wc *wc)
{
	u32 i = (u32)wc->wr_id;
	struct ib_mad_send_action act;
	struct rdma_mad_agent *agent = NULL;
	struct rdma_mad_recv rx = {};
	struct ib_mad_rx d;
	const u8 *grh;

	if (i >= MAD_RECV_DEPTH)
		return;
	mutex_lock(&port->lock);
	port->recv_posted--;
	grh = port->rbuf[i]->data;
	if (port->device)
		ib_dma_sync_single_for_cpu(port->device, port->rbuf_dma[i],
					   MAD_RBUF_LEN, DMA_FROM_DEVICE);
	if (wc->status != IB_WC_SUCCESS ||
	    wc->byte_len < RDMA_MAD_GRH_LEN) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			port->stats.rx_bad_wc++;
		goto repost;
	}
	if (!(wc->wc_flags & IB_WC_GRH)) {
		port->stats.rx_no_grh++;
		goto repost;
	}
	mad_src_gid(wc, grh, &rx.src_gid);
	ib_mad_rx_dispatch_raw(&port->agents, &port->sends,
			       grh + RDMA_MAD_GRH_LEN,
			       wc->byte_len - RDMA_MAD_GRH_LEN, rx.src_gid.raw,
			       &rx.hdr, &d);
	if (d.verdict == IB_MAD_RX_REQUEST || d.verdict == IB_MAD_RX_RESPONSE) {
		agent = port->agent_obj[d.agent];
		if (!agent || agent->dying) {
			agent = NULL;
			port->stats.rx_drop[IB_MAD_RX_WHY_UNCLAIMED]++;
			goto repost;
		}
	}
	if (d.verdict == IB_MAD_RX_RESPONSE) {
		rx.is_response = true;
		rx.send_context = port->send_obj[d.slot] ?
				  port->send_obj[d.slot]->done.context : NULL;
		/*
		 * Recorded now, reported (done list) only after the agent
		 * has been handed the response.
		 */
		if (!ib_mad_send_on_response(&port->sends, d.slot, &act))
			mad_send_act(port, &act, IB_WC_SUCCESS);
	}
	if (d.verdict == IB_MAD_RX_DROP && d.why < IB_MAD_RX_WHY_NUM)
		port->stats.rx_drop[d.why]++;
	if (agent)
		port->stats.rx_delivered++;
	mutex_unlock(&port->lock);

	if (agent) {
		rx.mad = grh + RDMA_MAD_GRH_LEN;
		rx.src_qp = wc->src_qp;
		rx.pkey_index = wc->pkey_index;
		rx.port_num = port->port_num;
		if (agent->ops->recv_handler)
			agent->ops->recv_handler(agent, &rx);
	} else if (d.verdict == IB_MAD_RX_REPLY) {
		mad_reply(port, wc, grh + RDMA_MAD_GRH_LEN, &rx.src_gid, grh,
			  d.reply_status);
	}
	mutex_lock(&port->lock);
repost:
	mad_post_recv(port, i);
	mutex_unlock(&port->lock);
}

static void mad_send_wc(struct mad_port *port, const struct ib_wc *wc)
{
	struct ib_mad_send_action act;
	u32 slot = (u32)wc->wr_id;

	mutex_lock(&port->lock);
	if (slot < IB_MAD_SEND_MAX && port->send_obj[slot] &&
	    !ib_mad_send_on_wc(&port->sends, slot,
			       wc->status == IB_WC_SUCCESS, mad_now_ms(), &act)) {
		mad_send_act(port, &act, wc->status);
		mad_timer_arm(port);
	}
	mutex_unlock(&port->lock);
}

static void mad_comp_work(struct work_struct *work)
{
	struct mad_port *port = container_of(work, struct mad_port, comp_work);
	struct ib_wc wc[MAD_POLL_BATCH];
	u32 done = 0;
	int n, k;

	while (done < MAD_POLL_BUDGET) {
		mutex_lock(&port->lock);
		n = port->cq ? ib_poll_cq(port->cq, MAD_POLL_BATCH, wc) : 0;
		if (n <= 0 && port->cq) {
			/* armed, then polled again: nothing slips between */
			ib_req_notify_cq(port->cq, IB_CQ_NEXT_COMP);
			n = ib_poll_cq(port->cq, MAD_POLL_BATCH, wc);
		}
		mutex_unlock(&port->lock);
		if (n <= 0)
			break;
		for (k = 0; k < n; k++) {
			if (wc[k].wr_id & MAD_WRID_RECV)
				mad_recv_one(port, &wc[k]);
			else
				mad_send_wc(port, &wc[k]);
		}
		mad_run_done(port);
		done += n;
	}
	if (done >= MAD_POLL_BUDGET)
		queue_work(port->wq, &port->comp_work);
	mad_run_done(port);
}

static void mad_cq_event(struct ib_cq *cq, void *ctx)
{
	struct mad_port *port = (struct mad_port *)ctx;

	if (!READ_ONCE(port->dying))
		queue_work(port->wq, &port->comp_work);
}

/* ---- agents ---- */

static struct mad_port *mad_port_get(struct ib_device *device, u32 port_num)
{
	struct mad_port *port = NULL;
	struct mad_dev *md;

	mutex_lock(&mad_devs_lock);
	list_for_each_entry(md, &mad_devs, entry) {
		if (md->device != device)
			continue;
		if (port_num >= 1 && port_num <= md->nports)
			port = md->port[port_num - 1];
		if (port)
			kref_get(&port->ref);
		break;
	}
	mutex_unlock(&mad_devs_lock);
	return port;
}

static struct rdma_mad_agent *mad_agent_add(struct mad_port *port,
					    const struct ib_mad_agent_claim *claim,
					    const struct rdma_mad_agent_ops *ops,
					    void *context)
{
	struct rdma_mad_agent *agent;
	int idx;

	agent = (struct rdma_mad_agent *)kzalloc(sizeof(*agent), GFP_KERNEL);
	if (!agent)
		return (struct rdma_mad_agent *)ERR_PTR(-ENOMEM);
	agent->port = port;
	agent->ops = ops;
	agent->context = context;
	atomic_set(&agent->outstanding, 0);
	mutex_lock(&port->lock);
	idx = port->dying ? -ENODEV :
	      ib_mad_agent_register(&port->agents, claim, NULL);
	if (idx >= 0) {
		agent->index = (u32)idx;
		port->agent_obj[idx] = agent;
	}
	mutex_unlock(&port->lock);
	if (idx < 0) {
		kfree(agent);
		return (struct rdma_mad_agent *)ERR_PTR(idx);
	}
	return agent;
}

struct rdma_mad_agent *rdma_mad_agent_register(struct ib_device *device,
					       u32 port_num,
					       const struct ib_mad_agent_claim *claim,
					       const struct rdma_mad_agent_ops *ops,
					       void *context)
{
	struct mad_port *port;
	struct rdma_mad_agent *agent;

	might_sleep();
	if (!ops)
		return (struct rdma_mad_agent *)ERR_PTR(-EINVAL);
	port = mad_port_get(device, port_num);
	if (!port)
		return (struct rdma_mad_agent *)ERR_PTR(-ENODEV);
	agent = mad_agent_add(port, claim, ops, context);
	if (IS_ERR(agent))
		mad_port_put(port);
	return agent;
}
EXPORT_SYMBOL(rdma_mad_agent_register);

/* Cancel every send of @agent; under the lock. */
static void mad_agent_cancel_all(struct rdma_mad_agent *agent)
{
	struct mad_port *port = agent->port;
	struct ib_mad_send_action act;
	u32 slot;

	lockdep_assert_held(&port->lock);
	for (slot = 0; slot < IB_MAD_SEND_MAX; slot++) {
		if (!port->send_obj[slot] || port->send_obj[slot]->agent != agent)
			continue;
		if (!ib_mad_send_cancel(&port->sends, slot, &act))
			mad_send_act(port, &act, IB_WC_SUCCESS);
	}
}

/* the unregistration of @agent, the port's reference kept */
static void mad_agent_del(struct rdma_mad_agent *agent)
{
	struct mad_port *port = agent->port;
	int ret;

	mutex_lock(&port->lock);
	agent->dying = true;
	mad_agent_cancel_all(agent);
	mutex_unlock(&port->lock);
	/* the canceled waiting sends are reported by the worker */
	queue_work(port->wq, &port->comp_work);
	/* posted ones at their send completion (or the port's removal) */
	wait_event(port->waitq, atomic_read(&agent->outstanding) == 0);
	mutex_lock(&port->lock);
	ret = ib_mad_agent_unregister(&port->agents, &port->sends,
				      agent->index, NULL);
	WARN_ON_ONCE(ret);
	port->agent_obj[agent->index] = NULL;
	mutex_unlock(&port->lock);
	/* a receive handler that started before dying was set ends here */
	flush_workqueue(port->wq);
	kfree(agent);
}

void rdma_mad_agent_unregister(struct rdma_mad_agent *agent)
{
	struct mad_port *port;

	might_sleep();
	if (!agent)
		return;
	port = agent->port;
	mad_agent_del(agent);
	mad_port_put(port);
}
EXPORT_SYMBOL(rdma_mad_agent_unregister);

void *rdma_mad_agent_context(const struct rdma_mad_agent *agent)
{
	return agent->context;
}
EXPORT_SYMBOL(rdma_mad_agent_context);

u64 rdma_mad_agent_new_tid(struct rdma_mad_agent *agent)
{
	struct mad_port *port = agent->port;
	u64 tid;

	mutex_lock(&port->lock);
	tid = ib_mad_agent_next_tid(&port->agents, agent->index);
	mutex_unlock(&port->lock);
	return tid;
}
EXPORT_SYMBOL(rdma_mad_agent_new_tid);

static struct ib_ah *mad_create_ah(struct mad_port *port,
				   const struct rdma_mad_dest *dest)
{
	struct rdma_ah_attr attr = {
		.grh = {
			.dgid = dest->dgid,
			.flow_label = dest->flow_label,
			.sgid_index = dest->sgid_index,
			.hop_limit = dest->hop_limit ? dest->hop_limit : 64,
			.traffic_class = dest->traffic_class,
		},
		.port_num = port->port_num,
		.ah_flags = IB_AH_GRH,
		.type = RDMA_AH_ATTR_TYPE_ROCE,
	};

	lockdep_assert_held(&port->lock);
	return rdma_create_ah(port->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
}

int rdma_mad_send_tracked(struct rdma_mad_agent *agent,
			  const struct rdma_mad_dest *dest, const u8 *mad,
			  u32 timeout_ms, u32 retries, bool match_peer,
			  void *context, u64 *send_id)
{
	struct mad_port *port = agent->port;
	struct ib_mad_send_args args = {
		.agent = agent->index,
		.timeout_ms = timeout_ms,
		.retries = retries,
		.peer_gid = match_peer ? dest->dgid.raw : NULL,
	};
	struct ib_mad_wire_hdr hdr;
	struct mad_send *ms;
	int slot, ret;
	u64 id;

	might_sleep();
	if (ib_mad_wire_hdr_decode(mad, IB_MAD_WIRE_SIZE, &hdr))
		return -EINVAL;
	args.tid = hdr.tid;
	args.mgmt_class = hdr.mgmt_class;
	ms = (struct mad_send *)kzalloc(sizeof(*ms), GFP_KERNEL);
	if (!ms)
		return -ENOMEM;
	ms->agent = agent;
	ms->dest = *dest;
	ms->done.tid = hdr.tid;
	ms->done.context = context;
	memcpy(ms->mad, mad, IB_MAD_WIRE_SIZE);
	INIT_LIST_HEAD(&ms->done_entry);

	mutex_lock(&port->lock);
	if (port->dying || !port->qp) {
		ret = -ENODEV;
		goto err_unlock;
	}
	if (agent->dying) {
		ret = -ESHUTDOWN;
		goto err_unlock;
	}
	ms->ah = mad_create_ah(port, dest);
	if (IS_ERR(ms->ah)) {
		ret = PTR_ERR(ms->ah);
		goto err_unlock;
	}
	ms->dma = ib_dma_map_single(port->device, ms->mad, IB_MAD_WIRE_SIZE,
				    DMA_TO_DEVICE);
	if (ib_dma_mapping_error(port->device, ms->dma)) {
		ret = -ENOMEM;
		goto err_ah;
	}
	slot = ib_mad_send_post(&port->sends, &port->agents, &args);
	if (slot < 0) {
		ret = slot;
		goto err_unmap;
	}
	port->send_obj[slot] = ms;
	/* set before the post: the send may end as soon as it is posted */
	ms->done.send_id = ++port->last_send_id;
	id = ms->done.send_id;
	atomic_inc(&agent->outstanding);
	ret = mad_post_send(port, (u32)slot);
	if (ret) {
		struct ib_mad_send_action act;

		/* not posted: the send never was, the slot goes back */
		atomic_dec(&agent->outstanding);
		if (!ib_mad_send_cancel(&port->sends, (u32)slot, &act) &&
		    act.what == IB_MAD_SEND_DO_NOTHING)
			ib_mad_send_on_wc(&port->sends, (u32)slot, false,
					  mad_now_ms(), &act);
		port->send_obj[slot] = NULL;
		goto err_unmap;
	}
	mutex_unlock(&port->lock);
	if (send_id)
		*send_id = id;
	return 0;

err_unmap:
	ib_dma_unmap_single(port->device, ms->dma, IB_MAD_WIRE_SIZE,
			    DMA_TO_DEVICE);
err_ah:
	rdma_destroy_ah(ms->ah, RDMA_DESTROY_AH_SLEEPABLE);
err_unlock:
	mutex_unlock(&port->lock);
	kfree(ms);
	return ret;
}
EXPORT_SYMBOL(rdma_mad_send_tracked);

int rdma_mad_send(struct rdma_mad_agent *agent, const struct rdma_mad_dest *dest,
		  const u8 *mad, u32 timeout_ms, u32 retries, bool match_peer,
		  void *context)
{
	return rdma_mad_send_tracked(agent, dest, mad, timeout_ms, retries,
				     match_peer, context, NULL);
}
EXPORT_SYMBOL(rdma_mad_send);

int rdma_mad_cancel(struct rdma_mad_agent *agent, u64 send_id)
{
	struct mad_port *port = agent->port;
	struct ib_mad_send_action act;
	int ret = -ENOENT;
	u32 slot;

	mutex_lock(&port->lock);
	for (slot = 0; slot < IB_MAD_SEND_MAX; slot++) {
		struct mad_send *ms = port->send_obj[slot];

		if (!ms || ms->agent != agent || ms->done.send_id != send_id)
			continue;
		ret = ib_mad_send_cancel(&port->sends, slot, &act);
		if (!ret)
			mad_send_act(port, &act, IB_WC_SUCCESS);
		break;
	}
	mutex_unlock(&port->lock);
	if (!ret)
		queue_work(port->wq, &port->comp_work);
	return ret;
}
EXPORT_SYMBOL(rdma_mad_cancel);

int rdma_mad_port_stats(struct ib_device *device, u32 port_num,
			struct rdma_mad_stats *st)
{
	struct mad_port *port = mad_port_get(device, port_num);

	if (!port)
		return -ENODEV;
	mutex_lock(&port->lock);
	*st = port->stats;
	mutex_unlock(&port->lock);
	mad_port_put(port);
	return 0;
}
EXPORT_SYMBOL(rdma_mad_port_stats);

/* ---- ports: creation and removal ---- */

static int mad_qp_to_rts(struct ib_qp *qp)
{
	struct ib_qp_attr attr = {};
	int ret;

	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = 0;
	attr.qkey = RDMA_MAD_QP1_QKEY;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_QKEY);
	if (ret)
		return ret;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

/*
 * Tear down the verbs objects of @port; under the lock, dying set.  The
 * QP goes first: after that no buffer is in the device's hands, and the
 * sends still posted count as flushed (canceled).
 */
static void mad_port_teardown(struct mad_port *port)
{
	struct ib_mad_send_action act;
	u32 i;

	lockdep_assert_held(&port->lock);
	if (port->qp)
		ib_destroy_qp(port->qp);
	port->qp = NULL;
	port->recv_posted = 0;
	for (i = 0; i < IB_MAD_SEND_MAX; i++) {
		if (!port->send_obj[i])
			continue;
		if (!ib_mad_send_cancel(&port->sends, i, &act))
			mad_send_act(port, &act, IB_WC_SUCCESS);
		if (port->send_obj[i] &&
		    !ib_mad_send_on_wc(&port->sends, i, false, mad_now_ms(),
				       &act))
			mad_send_act(port, &act, IB_WC_WR_FLUSH_ERR);
		WARN_ON_ONCE(port->send_obj[i]);
	}
	if (port->cq)
		ib_destroy_cq(port->cq);
	port->cq = NULL;
	/* no receive can land any more */
	for (i = 0; i < port->rbuf_mapped; i++)
		ib_dma_unmap_single(port->device, port->rbuf_dma[i],
				    MAD_RBUF_LEN, DMA_FROM_DEVICE);
	port->rbuf_mapped = 0;
	if (port->pd)
		ib_dealloc_pd(port->pd);
	port->pd = NULL;
	port->device = NULL;
}

static const struct rdma_mad_agent_ops mad_self_ops = {};

static struct mad_port *mad_port_create(struct ib_device *device, u32 port_num)
{
	struct ib_cq_init_attr cq_attr = {
		.cqe = IB_MAD_SEND_MAX + MAD_RECV_DEPTH,
	};
	struct ib_qp_init_attr qp_attr = {
		.cap = {
			.max_send_wr = IB_MAD_SEND_MAX,
			.max_recv_wr = MAD_RECV_DEPTH,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_GSI,
		.port_num = port_num,
	};
	struct mad_port *port;
	int ret;
	u32 i;

	port = (struct mad_port *)kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return (struct mad_port *)ERR_PTR(-ENOMEM);
	kref_init(&port->ref);
	port->device = device;
	port->port_num = port_num;
	mutex_init(&port->lock);
	INIT_LIST_HEAD(&port->done);
	init_waitqueue_head(&port->waitq);
	INIT_WORK(&port->comp_work, mad_comp_work);
	INIT_DELAYED_WORK(&port->timer_work, mad_timer_work);
	ib_mad_agent_table_init(&port->agents, 1);
	ib_mad_send_table_init(&port->sends);
	port->wq = alloc_ordered_workqueue("ib_mad-%s-%u", WQ_MEM_RECLAIM,
					   dev_name(&device->dev), port_num);
	if (!port->wq) {
		kfree(port);
		return (struct mad_port *)ERR_PTR(-ENOMEM);
	}

	mutex_lock(&port->lock);
	port->pd = ib_alloc_pd(device, 0);
	if (IS_ERR(port->pd)) {
		ret = PTR_ERR(port->pd);
		port->pd = NULL;
		goto err;
	}
	/* kernel virtual addresses in the SGEs: the PD's DMA lkey covers them */
	if (!port->pd->internal_mr) {
		ret = -EOPNOTSUPP;
		goto err;
	}
	port->cq = ib_create_cq(device, mad_cq_event, NULL, port, &cq_attr);
	if (IS_ERR(port->cq)) {
		ret = PTR_ERR(port->cq);
		port->cq = NULL;
		goto err;
	}
	/* polled by mad_comp_work on the port's (unbound, ordered) workqueue */
	port->cq->poll_ctx = IB_POLL_UNBOUND_WORKQUEUE;
	qp_attr.send_cq = port->cq;
	qp_attr.recv_cq = port->cq;
	port->qp = ib_create_qp(port->pd, &qp_attr);
	if (IS_ERR(port->qp)) {
		ret = PTR_ERR(port->qp);
		port->qp = NULL;
		goto err;
	}
	ret = mad_qp_to_rts(port->qp);
	if (ret)
		goto err;
	for (i = 0; i < MAD_RECV_DEPTH; i++) {
		port->rbuf[i] = (struct mad_rbuf *)kmalloc(sizeof(struct mad_rbuf),
							   GFP_KERNEL);
		if (!port->rbuf[i]) {
			ret = -ENOMEM;
			goto err;
		}
		port->rbuf_dma[i] = ib_dma_map_single(device, port->rbuf[i]->data,
						      MAD_RBUF_LEN,
						      DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(device, port->rbuf_dma[i])) {
			ret = -ENOMEM;
			goto err;
		}
		port->rbuf_mapped = i + 1;
		ret = mad_post_recv(port, i);
		if (ret)
			goto err;
	}
	ret = ib_req_notify_cq(port->cq, IB_CQ_NEXT_COMP);
	if (ret)
		goto err;
	mutex_unlock(&port->lock);

	port->self = mad_agent_add(port, NULL, &mad_self_ops, NULL);
	if (IS_ERR(port->self)) {
		ret = PTR_ERR(port->self);
		port->self = NULL;
		mutex_lock(&port->lock);
		goto err;
	}
	return port;

err:
	WRITE_ONCE(port->dying, true);
	mad_port_teardown(port);
	mutex_unlock(&port->lock);
	mad_port_put(port);
	return (struct mad_port *)ERR_PTR(ret);
}

/* Device removal: stop, complete every send, free the verbs objects. */
static void mad_port_remove(struct mad_port *port)
{
	struct rdma_mad_agent *self = port->self;
	u32 i;

	mutex_lock(&port->lock);
	WRITE_ONCE(port->dying, true);
	for (i = 0; i < IB_MAD_AGENT_MAX; i++)
		if (port->agent_obj[i])
			mad_agent_cancel_all(port->agent_obj[i]);
	mad_port_teardown(port);
	mutex_unlock(&port->lock);
	cancel_delayed_work_sync(&port->timer_work);
	/* the worker reports what the teardown completed */
	queue_work(port->wq, &port->comp_work);
	flush_workqueue(port->wq);
	if (self)
		mad_agent_del(self);
	port->self = NULL;
	mad_port_put(port);
}

static int mad_add_one(struct ib_device *device);
static void mad_remove_one(struct ib_device *device, void *client_data);

static struct ib_client mad_client = {
	.name = "mad",
	.add = mad_add_one,
	.remove = mad_remove_one,
};

static int mad_add_one(struct ib_device *device)
{
	struct mad_dev *md;
	struct mad_port *port;
	u32 p, n = device->phys_port_cnt;

	/*
	 * QP1 is a QP of the device: none without QPs, nor without a data
	 * path to post its sends and receives on
	 */
	if (!device->ops.create_qp || !device->ops.post_send ||
	    !device->ops.post_recv || !device->ops.poll_cq)
		return -EOPNOTSUPP;
	md = (struct mad_dev *)kzalloc(struct_size(md, port, n), GFP_KERNEL);
	if (!md)
		return -ENOMEM;
	md->device = device;
	md->nports = n;
	rdma_for_each_port(device, p) {
		if (!rdma_cap_ib_mad(device, p) ||
		    rdma_port_get_link_layer(device, p) != IB_LINK_LAYER_ETHERNET)
			continue;
		port = mad_port_create(device, p);
		if (IS_ERR(port)) {
			dev_info(&device->dev, "MAD port %u: %ld\n", p,
				 PTR_ERR(port));
			continue;
		}
		md->port[p - 1] = port;
	}
	mutex_lock(&mad_devs_lock);
	list_add_tail(&md->entry, &mad_devs);
	mutex_unlock(&mad_devs_lock);
	ib_set_client_data(device, &mad_client, md);
	return 0;
}

static void mad_remove_one(struct ib_device *device, void *client_data)
{
	struct mad_dev *md = (struct mad_dev *)client_data;
	u32 i;

	if (!md)
		return;
	mutex_lock(&mad_devs_lock);
	list_del(&md->entry);
	mutex_unlock(&mad_devs_lock);
	for (i = 0; i < md->nports; i++)
		if (md->port[i])
			mad_port_remove(md->port[i]);
	kfree(md);
}

int ib_mad_init(void)
{
	return ib_register_client(&mad_client);
}

void ib_mad_exit(void)
{
	ib_unregister_client(&mad_client);
}
