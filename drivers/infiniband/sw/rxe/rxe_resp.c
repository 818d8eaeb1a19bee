// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder: executes incoming requests and answers them.
 *
 * rxe_resp_rcv() queues a request and schedules the QP's responder work
 * item, which takes the packets in order.  For each: the QP state, the
 * transport, the PSN (RC: duplicates are answered from what was done
 * before, a gap gets one sequence NAK; UC: a gap drops the message), the
 * opcode sequence and the QP's remote rights are checked; then the
 * request is executed (SEND into a private copy of a receive WQE, RDMA
 * WRITE, READ responses, atomics, ATOMIC WRITE) and answered (ACK when
 * asked for, read responses, atomic ACK, an empty read response for an
 * ATOMIC WRITE).  Reads and atomics are remembered in a ring of
 * max_dest_rd_atomic responder resources: a duplicate READ is served
 * again from memory, a duplicate atomic gets the saved original value
 * and is never executed twice, nor is a duplicate ATOMIC WRITE.  Errors follow IBA 9.9.3: RC NAKs (and
 * for invalid requests, access and operational errors moves the QP to
 * ERR), UC drops the message, UD drops the packet.  Every key, PD, range
 * and right is checked before memory is touched (rxe_mr_copy.c).
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"
#include "rxe_test_hooks.h"

/* packets one run of the work item takes before it yields */
#define RXE_RESP_BUDGET		64
/* requests queued per QP beyond which new ones are dropped */
#define RXE_RESP_MAX_QUEUED	4096
/* the GRH in front of a UD receive buffer */
#define RXE_GRH_LEN		40
/* ib_wc.network_hdr_type values (enum rdma_network_type) */
#define RXE_WC_NET_IPV4		2
#define RXE_WC_NET_IPV6		3

/* how handling a request ended */
enum rxe_resp_ret {
	RXE_RESP_OK,
	RXE_RESP_DONE,		/* answered or dropped: nothing more */
	RXE_RESP_RNR,		/* no receive WQE */
	RXE_RESP_INV_REQ,	/* invalid request (class C) */
	RXE_RESP_ACCESS,	/* remote access error */
	RXE_RESP_REM_OP,	/* remote operational error (class A) */
	RXE_RESP_LEN,		/* message longer than the receive WQE */
};

/* one request and the QP attributes it needs, read once */
struct rxe_resp_ctx {
	struct rxe_qp *qp;
	struct rxe_resp *resp;
	struct rxe_dev *rxe;
	struct sk_buff *skb;
	struct rxe_pkt *pkt;
	enum ib_qp_type type;
	enum ib_qp_state state;
	u32 mtu;
	u32 dest_qpn;
	int access;
	u8 min_rnr_timer;
	u16 pkey_index;
	u32 max_dest_rd_atomic;
	/* CQE status of the held WQE when the request fails */
	enum ib_wc_status wc_status;
};

static bool rxe_resp_is_ud(enum ib_qp_type type)
{
	return type == IB_QPT_UD || type == IB_QPT_GSI;
}

/* ---- answers ---- */

static void rxe_resp_bth(struct rxe_resp_ctx *c, struct sk_buff *skb,
			 u8 opcode, u32 psn)
{
	struct rxe_pkt *pkt = rxe_pkt(skb);

	rxe_bth_set(pkt->hdr, opcode, false, pkt->info.pad, RXE_DEFAULT_PKEY,
		    c->dest_qpn, false, psn);
}

/* an ACK or NAK (@syn) for @psn; with @atomic an atomic ACK of @orig */
static void rxe_resp_ack(struct rxe_resp_ctx *c, u8 syn, u32 psn, bool atomic,
			 u64 orig)
{
	u8 opcode = RXE_OPCODE(RXE_TR_RC, atomic ? RXE_OP_ATOMIC_ACK :
						   RXE_OP_ACK);
	struct sk_buff *skb;
	struct rxe_pkt *pkt;

	skb = rxe_pkt_new(c->qp, &c->qp->pri_av, opcode, 0);
	if (!skb)
		return;		/* like a lost ACK: the requester retries */
	pkt = rxe_pkt(skb);
	rxe_resp_bth(c, skb, opcode, psn);
	rxe_aeth_set(rxe_pkt_ext(pkt, RXE_HDR_AETH), syn, c->resp->msn);
	if (atomic)
		rxe_atmack_set(rxe_pkt_ext(pkt, RXE_HDR_ATMACK), orig);
	rxe_pkt_send(c->qp, &c->qp->pri_av, skb, NULL);
}

static void rxe_resp_nak(struct rxe_resp_ctx *c, u8 code, u32 psn)
{
	rxe_resp_ack(c, RXE_AETH_NAK | code, psn, false, 0);
}

/* ---- receive WQEs ---- */

/*
 * Take a receive WQE for a new message.  0, -EAGAIN (none) or -EINVAL
 * (malformed: the WQE is held and completes in error).
 */
static int rxe_resp_take_wqe(struct rxe_resp_ctx *c)
{
	struct rxe_qp *qp = c->qp;
	struct rxe_recv_wqe *wqe = rxe_resp_wqe(c->resp);
	u32 max_sge, i;
	u64 len = 0;

	if (qp->ibqp.srq) {
		struct rxe_srq *srq = to_rsrq(qp->ibqp.srq);

		if (rxe_srq_consume(srq, wqe, sizeof(c->resp->wqe_buf)))
			return -EAGAIN;
		rxe_rq_hold(qp);
		max_sge = srq->max_sge;
	} else {
		if (rxe_rq_take(qp))
			return -EAGAIN;
		max_sge = qp->rq.max_sge;
	}
	/* a user ring's copy: trust nothing but the SGEs themselves */
	if (wqe->dma.num_sge > max_sge || wqe->dma.num_sge > RXE_MAX_SGE)
		return -EINVAL;
	for (i = 0; i < wqe->dma.num_sge; i++)
		len += wqe->dma.sge[i].length;
	if (len > U32_MAX)
		return -EINVAL;
	wqe->dma.length = (u32)len;
	wqe->dma.resid = (u32)len;
	wqe->dma.cur_sge = 0;
	wqe->dma.sge_offset = 0;
	return 0;
}

/* start the held WQE over (UC: the message it was for is dropped) */
static void rxe_resp_rewind_wqe(struct rxe_resp *resp)
{
	struct rxe_recv_wqe *wqe = rxe_resp_wqe(resp);

	wqe->dma.resid = wqe->dma.length;
	wqe->dma.cur_sge = 0;
	wqe->dma.sge_offset = 0;
	resp->msg_len = 0;
}

static void rxe_resp_ud_wc(struct rxe_resp_ctx *c, struct ib_wc *wc)
{
	wc->src_qp = rxe_deth_sqp(rxe_pkt_ext(c->pkt, RXE_HDR_DETH));
	wc->wc_flags |= IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc->network_hdr_type = (skb_network_header(c->skb)[0] >> 4) == 4 ?
			       RXE_WC_NET_IPV4 : RXE_WC_NET_IPV6;
}

/*
 * Post the CQE of the held WQE with @status (flushed instead if the QP
 * went to ERR meanwhile).  -EOVERFLOW when the CQ was full.
 */
static int rxe_resp_complete(struct rxe_resp_ctx *c, enum ib_wc_status status)
{
	struct rxe_qp *qp = c->qp;
	struct rxe_recv_wqe *wqe = rxe_resp_wqe(c->resp);
	struct rxe_pkt *pkt = c->pkt;
	u32 mask = pkt->info.mask;
	struct ib_wc wc = {};
	int ret;

	wc.wr_id = wqe->wr_id;
	wc.status = status;
	wc.qp = &qp->ibqp;
	wc.port_num = RXE_PORT;
	wc.pkey_index = c->pkey_index;
	wc.opcode = IB_WC_RECV;
	if (status == IB_WC_SUCCESS) {
		if (mask & RXE_WRITE_MASK) {
			wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
			wc.byte_len = c->resp->write_len;
		} else {
			wc.byte_len = wqe->dma.length - wqe->dma.resid;
		}
		if (mask & RXE_IMMDT_MASK) {
			wc.wc_flags |= IB_WC_WITH_IMM;
			rxe_immdt_get(rxe_pkt_ext(pkt, RXE_HDR_IMMDT),
				      (u8 *)&wc.ex.imm_data);
		} else if (mask & RXE_IETH_MASK) {
			wc.wc_flags |= IB_WC_WITH_INVALIDATE;
			wc.ex.invalidate_rkey =
				rxe_ieth_rkey(rxe_pkt_ext(pkt, RXE_HDR_IETH));
		}
		if (rxe_resp_is_ud(c->type))
			rxe_resp_ud_wc(c, &wc);
		else
			wc.src_qp = c->dest_qpn;
		rxe_counter_inc(c->rxe, RXE_CNT_RDMA_RECV);
	}
	if (!rxe_rq_complete_begin(qp))
		return 0;
	ret = rxe_cq_post(to_rcq(qp->ibqp.recv_cq), &wc,
			  status != IB_WC_SUCCESS ||
			  (pkt->info.flags & RXE_INFO_SE));
	rxe_rq_complete_end(qp);
	return ret;
}

/* ---- RDMA WRITE ---- */

static int rxe_resp_write(struct rxe_resp_ctx *c)
{
	struct rxe_resp *resp = c->resp;
	struct rxe_pkt *pkt = c->pkt;
	u32 paylen = pkt->info.paylen;
	struct rxe_mr *mr;
	u64 va;
	int ret;

	if (pkt->info.mask & RXE_RETH_MASK) {
		u8 *reth = rxe_pkt_ext(pkt, RXE_HDR_RETH);

		resp->write_va = rxe_reth_va(reth);
		resp->write_rkey = rxe_reth_rkey(reth);
		resp->write_len = rxe_reth_len(reth);
		resp->write_resid = resp->write_len;
		/* the whole range first: nothing is written otherwise */
		if (resp->write_len) {
			va = resp->write_va;
			mr = rxe_rkey_iova_get(c->qp, resp->write_rkey, &va,
					       resp->write_len,
					       IB_ACCESS_REMOTE_WRITE);
			if (!mr)
				return RXE_RESP_ACCESS;
			rxe_elem_put(&mr->elem);
		}
	}
	if (paylen > resp->write_resid ||
	    ((pkt->info.mask & RXE_END_MASK) && paylen != resp->write_resid))
		return RXE_RESP_INV_REQ;
	if (!paylen)
		return RXE_RESP_OK;
	va = resp->write_va;
	mr = rxe_rkey_iova_get(c->qp, resp->write_rkey, &va, paylen,
			       IB_ACCESS_REMOTE_WRITE);
	if (!mr)
		return RXE_RESP_ACCESS;
	ret = rxe_mr_copy(mr, va, rxe_pkt_payload(pkt), paylen,
			  RXE_COPY_TO_MR);
	rxe_elem_put(&mr->elem);
	if (ret)
		return RXE_RESP_ACCESS;
	resp->write_va += paylen;
	resp->write_resid -= paylen;
	return RXE_RESP_OK;
}

/* ---- SEND ---- */

static int rxe_resp_copy_in(struct rxe_resp_ctx *c, void *buf, u32 len)
{
	struct rxe_recv_wqe *wqe = rxe_resp_wqe(c->resp);
	int ret;

	ret = rxe_dma_copy(to_rpd(c->qp->ibqp.pd), IB_ACCESS_LOCAL_WRITE,
			   &wqe->dma, buf, len, RXE_COPY_TO_MR);
	if (ret == -EINVAL)
		return RXE_RESP_LEN;
	if (ret) {
		c->wc_status = IB_WC_LOC_PROT_ERR;
		return RXE_RESP_REM_OP;
	}
	c->resp->msg_len += len;
	return RXE_RESP_OK;
}

static int rxe_resp_send(struct rxe_resp_ctx *c)
{
	struct rxe_pkt *pkt = c->pkt;
	int ret;

	if (rxe_resp_is_ud(c->type)) {
		u8 grh[RXE_GRH_LEN] = {};
		u8 *nh = skb_network_header(c->skb);

		/* IPv4: 20 zero bytes, then the IPv4 header (as librxe) */
		if ((nh[0] >> 4) == 4)
			memcpy(grh + RXE_GRH_LEN - sizeof(struct iphdr), nh,
			       sizeof(struct iphdr));
		else
			memcpy(grh, nh, sizeof(struct ipv6hdr));
		ret = rxe_resp_copy_in(c, grh, RXE_GRH_LEN);
		if (ret)
			return ret;
	}
	return rxe_resp_copy_in(c, rxe_pkt_payload(pkt), pkt->info.paylen);
}

/* SEND with Invalidate: the IETH's key, MR or MW (IBA 10.6.7.2.5) */
static int rxe_resp_invalidate(struct rxe_resp_ctx *c)
{
	u32 rkey = rxe_ieth_rkey(rxe_pkt_ext(c->pkt, RXE_HDR_IETH));
	int ret;

	if ((rkey >> 8) >= RXE_MIN_MW_INDEX)
		ret = rxe_invalidate_mw(c->qp, rkey, true);
	else
		ret = rxe_mr_invalidate(to_rpd(c->qp->ibqp.pd), rkey);
	if (ret) {
		c->wc_status = IB_WC_REM_INV_REQ_ERR;
		return RXE_RESP_INV_REQ;
	}
	return RXE_RESP_OK;
}

/* ---- READ and atomics ---- */

static u32 rxe_resp_read_packets(u32 len, u32 mtu)
{
	return len ? DIV_ROUND_UP(len, mtu) : 1;
}

/* the next resource slot, recycled round robin */
static struct rxe_resp_res *rxe_resp_new_res(struct rxe_resp *resp)
{
	struct rxe_resp_res *res = &resp->res[resp->res_next];

	resp->res_next = (resp->res_next + 1) % resp->num_res;
	memset(res, 0, sizeof(*res));
	return res;
}

/*
 * Send the responses of reading @len bytes at @va (@rkey) from @psn on:
 * FIRST/MIDDLE/LAST or ONLY, MTU-sized.  A failure before the first
 * packet is an access error; later ones end the answer early (the
 * requester retries).
 */
static int rxe_resp_read_send(struct rxe_resp_ctx *c, u32 rkey, u64 va,
			      u32 len, u32 psn)
{
	u32 n = rxe_resp_read_packets(len, c->mtu), i, off = 0, plen;
	struct rxe_mr *mr = NULL;
	struct sk_buff *skb;
	struct rxe_pkt *pkt;
	u8 op, opcode;
	int ret = RXE_RESP_DONE;

	if (len) {
		mr = rxe_rkey_iova_get(c->qp, rkey, &va, len,
				       IB_ACCESS_REMOTE_READ);
		if (!mr)
			return RXE_RESP_ACCESS;
	}
	for (i = 0; i < n; i++, off += plen) {
		plen = min(c->mtu, len - off);
		if (n == 1)
			op = RXE_OP_READ_RESP_ONLY;
		else if (i == 0)
			op = RXE_OP_READ_RESP_FIRST;
		else if (i == n - 1)
			op = RXE_OP_READ_RESP_LAST;
		else
			op = RXE_OP_READ_RESP_MIDDLE;
		opcode = RXE_OPCODE(RXE_TR_RC, op);
		skb = rxe_pkt_new(c->qp, &c->qp->pri_av, opcode, plen);
		if (!skb)
			break;
		pkt = rxe_pkt(skb);
		rxe_resp_bth(c, skb, opcode, rxe_psn_add(psn, i));
		if (pkt->info.mask & RXE_AETH_MASK)
			rxe_aeth_set(rxe_pkt_ext(pkt, RXE_HDR_AETH),
				     RXE_AETH_ACK | RXE_AETH_NO_CREDITS,
				     c->resp->msn);
		if (plen && rxe_mr_copy(mr, va + off, rxe_pkt_payload(pkt),
					plen, RXE_COPY_FROM_MR)) {
			kfree_skb(skb);
			if (i == 0)
				ret = RXE_RESP_ACCESS;
			break;
		}
		memset(rxe_pkt_payload(pkt) + plen, 0, pkt->info.pad);
		rxe_pkt_send(c->qp, &c->qp->pri_av, skb, NULL);
		/* see rxe_req_yield(): what was sent waits for a free CPU */
		cond_resched();
	}
	if (mr)
		rxe_elem_put(&mr->elem);
	return ret;
}

static int rxe_resp_read(struct rxe_resp_ctx *c)
{
	struct rxe_resp *resp = c->resp;
	u8 *reth = rxe_pkt_ext(c->pkt, RXE_HDR_RETH);
	u32 psn = c->pkt->info.psn, len = rxe_reth_len(reth);
	u32 n = rxe_resp_read_packets(len, c->mtu);
	struct rxe_resp_res *res;
	struct rxe_mr *mr;
	u64 va = rxe_reth_va(reth);
	int ret;

	if (len) {
		mr = rxe_rkey_iova_get(c->qp, rxe_reth_rkey(reth), &va, len,
				       IB_ACCESS_REMOTE_READ);
		if (!mr)
			return RXE_RESP_ACCESS;
		rxe_elem_put(&mr->elem);
	}
	res = rxe_resp_new_res(resp);
	res->op = RXE_OP_READ_REQ;
	res->first_psn = psn;
	res->last_psn = rxe_psn_add(psn, n - 1);
	res->rkey = rxe_reth_rkey(reth);
	res->va = rxe_reth_va(reth);
	res->length = len;
	resp->msn++;
	resp->psn = rxe_psn_add(psn, n);
	ret = rxe_resp_read_send(c, res->rkey, res->va, len, psn);
	if (ret == RXE_RESP_ACCESS) {
		/* nothing went out: as if never executed */
		res->op = 0;
		resp->msn--;
		resp->psn = psn;
	}
	return ret;
}

static int rxe_resp_atomic(struct rxe_resp_ctx *c)
{
	struct rxe_resp *resp = c->resp;
	u8 *ae = rxe_pkt_ext(c->pkt, RXE_HDR_ATMETH);
	u8 op = c->pkt->info.opcode & ~RXE_TR_MASK;
	u64 va = rxe_atmeth_va(ae), orig = 0, again, cmp_add, swap;
	struct rxe_resp_res *res;
	struct rxe_mr *mr;
	int ret;

	if (va & 7)
		return RXE_RESP_INV_REQ;
	mr = rxe_rkey_iova_get(c->qp, rxe_atmeth_rkey(ae), &va, 8,
			       IB_ACCESS_REMOTE_ATOMIC);
	if (!mr)
		return RXE_RESP_ACCESS;
	cmp_add = op == RXE_OP_CMP_SWAP ? rxe_atmeth_comp(ae) :
					  rxe_atmeth_swap_add(ae);
	swap = op == RXE_OP_CMP_SWAP ? rxe_atmeth_swap_add(ae) : 0;
	ret = rxe_mr_atomic(mr, va, op, cmp_add, swap, &orig);
	if (!ret && rxe_test_atomic_twice())
		rxe_mr_atomic(mr, va, op, cmp_add, swap, &again);
	rxe_elem_put(&mr->elem);
	if (ret)
		return ret == -EINVAL ? RXE_RESP_INV_REQ : RXE_RESP_ACCESS;
	res = rxe_resp_new_res(resp);
	res->op = op;
	res->first_psn = c->pkt->info.psn;
	res->last_psn = c->pkt->info.psn;
	res->orig = orig;
	resp->msn++;
	resp->psn = rxe_psn_add(c->pkt->info.psn, 1);
	rxe_resp_ack(c, RXE_AETH_ACK | RXE_AETH_NO_CREDITS, c->pkt->info.psn,
		     true, orig);
	return RXE_RESP_DONE;
}

/*
 * Remember @op at the request's PSN, so that a duplicate gets the same
 * answer without being executed again, and answer: an empty READ
 * RESPONSE ONLY (ATOMIC WRITE, FLUSH).
 */
static int rxe_resp_empty_answer(struct rxe_resp_ctx *c, u8 op)
{
	struct rxe_resp *resp = c->resp;
	u32 psn = c->pkt->info.psn;
	struct rxe_resp_res *res = rxe_resp_new_res(resp);

	res->op = op;
	res->first_psn = psn;
	res->last_psn = psn;
	resp->msn++;
	resp->psn = rxe_psn_add(psn, 1);
	return rxe_resp_read_send(c, 0, 0, 0, psn);
}

/*
 * RDMA ATOMIC WRITE (IBTA 1.5, annex A19): the 8 payload bytes to an
 * aligned address in one store.
 */
static int rxe_resp_atomic_write(struct rxe_resp_ctx *c)
{
	u8 *reth = rxe_pkt_ext(c->pkt, RXE_HDR_RETH);
	u64 va = rxe_reth_va(reth);
	struct rxe_mr *mr;
	int ret;

	if (va & 7)
		return RXE_RESP_INV_REQ;
	mr = rxe_rkey_iova_get(c->qp, rxe_reth_rkey(reth), &va, sizeof(u64),
			       IB_ACCESS_REMOTE_WRITE);
	if (!mr)
		return RXE_RESP_ACCESS;
	ret = rxe_mr_atomic_write(mr, va, rxe_pkt_payload(c->pkt));
	rxe_elem_put(&mr->elem);
	if (ret)
		return ret == -EINVAL ? RXE_RESP_INV_REQ : RXE_RESP_ACCESS;
	return rxe_resp_empty_answer(c, RXE_OP_ATOMIC_WRITE);
}

/* the QP and MR rights a FLUSH's placement type needs; 0: a bad FETH */
static int rxe_resp_flush_access(const u8 *feth)
{
	u8 plt = rxe_feth_plt(feth);
	int access = 0;

	if (rxe_feth_reserved(feth) || rxe_feth_sel(feth) > RXE_FLUSH_MR ||
	    !plt || (plt & ~(RXE_FLUSH_GLOBAL | RXE_FLUSH_PERSISTENT)))
		return 0;
	if (plt & RXE_FLUSH_GLOBAL)
		access |= IB_ACCESS_FLUSH_GLOBAL;
	if (plt & RXE_FLUSH_PERSISTENT)
		access |= IB_ACCESS_FLUSH_PERSISTENT;
	return access;
}

/*
 * RDMA FLUSH (IBTA 1.5, annex A19): the key must grant the placement
 * asked for over the RETH's range, or over the whole region (selectivity
 * MR: the range is ignored).  Global visibility: the QP's earlier writes
 * were executed before this request and are in memory; the barrier
 * orders them before the answer.  Persistence is not offered (no device
 * capability, so no MR grants it: a remote access error).
 */
static int rxe_resp_flush(struct rxe_resp_ctx *c)
{
	u8 *feth = rxe_pkt_ext(c->pkt, RXE_HDR_FETH);
	u8 *reth = rxe_pkt_ext(c->pkt, RXE_HDR_RETH);
	int access = rxe_resp_flush_access(feth);
	u64 va = rxe_reth_va(reth);
	struct rxe_mr *mr;

	if (rxe_feth_sel(feth) == RXE_FLUSH_MR)
		mr = rxe_rkey_region_get(c->qp, rxe_reth_rkey(reth), access);
	else
		mr = rxe_rkey_iova_get(c->qp, rxe_reth_rkey(reth), &va,
				       rxe_reth_len(reth), access);
	if (!mr)
		return RXE_RESP_ACCESS;
	rxe_elem_put(&mr->elem);
	smp_mb();
	return rxe_resp_empty_answer(c, RXE_OP_FLUSH);
}

/* ---- duplicates (RC) ---- */

static struct rxe_resp_res *rxe_resp_find_res(struct rxe_resp *resp, u8 op,
					      u32 psn)
{
	struct rxe_resp_res *res;
	u32 i;

	for (i = 0; i < resp->num_res; i++) {
		res = &resp->res[i];
		if (res->op == op && rxe_psn_diff(psn, res->first_psn) >= 0 &&
		    rxe_psn_diff(psn, res->last_psn) <= 0)
			return res;
	}
	return NULL;
}

/*
 * An older PSN (C9-105..C9-116): SEND and WRITE are acknowledged again,
 * never redone; a READ is served again for the PSN range it asks for,
 * inside the original one; an atomic gets its saved result.  Unknown
 * ones are dropped.
 */
static void rxe_resp_duplicate(struct rxe_resp_ctx *c)
{
	struct rxe_pkt *pkt = c->pkt;
	u32 mask = pkt->info.mask, psn = pkt->info.psn;
	u8 op = pkt->info.opcode & ~RXE_TR_MASK;
	struct rxe_resp_res *res;

	rxe_counter_inc(c->rxe, RXE_CNT_DUP_REQ);
	if (mask & (RXE_SEND_MASK | RXE_WRITE_MASK)) {
		/* one ACK for all of a retransmitted burst (rxe_resp_work) */
		c->resp->dup_ack = true;
		return;
	}
	res = rxe_resp_find_res(c->resp, op, psn);
	if (!res)
		return;
	if (mask & RXE_READ_MASK) {
		u8 *reth = rxe_pkt_ext(pkt, RXE_HDR_RETH);
		u64 va = rxe_reth_va(reth);
		u32 len = rxe_reth_len(reth);

		if (rxe_reth_rkey(reth) != res->rkey || va < res->va ||
		    len > res->length || va - res->va > res->length - len)
			return;
		rxe_resp_read_send(c, res->rkey, va, len, psn);
	} else if (psn == res->first_psn &&
		   (mask & (RXE_ATOMIC_WRITE_MASK | RXE_FLUSH_MASK))) {
		rxe_resp_read_send(c, 0, 0, 0, psn);
	} else if (psn == res->first_psn) {
		rxe_resp_ack(c, RXE_AETH_ACK | RXE_AETH_NO_CREDITS, psn, true,
			     res->orig);
	}
}

/* ---- checks ---- */

/* RC/UC PSN: RXE_RESP_OK to go on */
static int rxe_resp_check_psn(struct rxe_resp_ctx *c)
{
	struct rxe_resp *resp = c->resp;
	s32 d = rxe_psn_diff(c->pkt->info.psn, resp->psn);

	if (c->type == IB_QPT_UC) {
		/*
		 * Behind the expected PSN: a duplicate, an old or a forged
		 * packet; it changes nothing.  A first packet ahead goes
		 * on at its message (those between are lost).
		 */
		if (d < 0)
			return RXE_RESP_DONE;
		if (!resp->drop_msg && d == 0)
			return RXE_RESP_OK;
		if (c->pkt->info.mask & RXE_START_MASK) {
			resp->drop_msg = false;
			resp->psn = c->pkt->info.psn;
			return RXE_RESP_OK;
		}
		resp->drop_msg = true;
		return RXE_RESP_DONE;
	}
	if (d < 0) {
		rxe_resp_duplicate(c);
		return RXE_RESP_DONE;
	}
	if (d > 0) {
		/* one NAK per gap, then silence until the expected PSN */
		if (!resp->nak_sent) {
			resp->nak_sent = true;
			rxe_counter_inc(c->rxe, RXE_CNT_OUT_OF_SEQ_REQ);
			rxe_resp_nak(c, RXE_NAK_PSN_SEQ, resp->psn);
		}
		return RXE_RESP_DONE;
	}
	resp->nak_sent = false;
	return RXE_RESP_OK;
}

/* which message a continuation opcode belongs to (NONE: a start) */
static enum rxe_resp_msg rxe_resp_cont_of(u8 op)
{
	switch (op) {
	case RXE_OP_SEND_MIDDLE:
	case RXE_OP_SEND_LAST:
	case RXE_OP_SEND_LAST_IMM:
	case RXE_OP_SEND_LAST_INV:
		return RXE_RESP_MSG_SEND;
	case RXE_OP_WRITE_MIDDLE:
	case RXE_OP_WRITE_LAST:
	case RXE_OP_WRITE_LAST_IMM:
		return RXE_RESP_MSG_WRITE;
	default:
		return RXE_RESP_MSG_NONE;
	}
}

/* UC: forget the message in progress; a held WQE serves the next one */
static void rxe_resp_drop_msg(struct rxe_resp *resp)
{
	resp->msg = RXE_RESP_MSG_NONE;
	if (resp->wqe_taken)
		rxe_resp_rewind_wqe(resp);
}

/* opcode sequence (IBA 9.8.3 / 9.9.3 class C, UC class D1) */
static int rxe_resp_check_seq(struct rxe_resp_ctx *c)
{
	struct rxe_resp *resp = c->resp;
	enum rxe_resp_msg cont;

	cont = rxe_resp_cont_of(c->pkt->info.opcode & ~RXE_TR_MASK);
	if (cont == resp->msg)
		return RXE_RESP_OK;
	if (c->type == IB_QPT_RC)
		return RXE_RESP_INV_REQ;
	/* UC: a start ends the older message; a stray middle is dropped */
	rxe_resp_drop_msg(resp);
	if (cont != RXE_RESP_MSG_NONE) {
		resp->drop_msg = true;
		return RXE_RESP_DONE;
	}
	return RXE_RESP_OK;
}

/* the QP's remote rights, the responder resources, packet lengths */
static int rxe_resp_check_op(struct rxe_resp_ctx *c)
{
	struct rxe_pkt *pkt = c->pkt;
	u32 mask = pkt->info.mask, paylen = pkt->info.paylen;
	int need = 0;

	if (mask & RXE_READ_MASK)
		need = IB_ACCESS_REMOTE_READ;
	else if (mask & (RXE_WRITE_MASK | RXE_ATOMIC_WRITE_MASK))
		need = IB_ACCESS_REMOTE_WRITE;
	else if (mask & RXE_ATOMIC_MASK)
		need = IB_ACCESS_REMOTE_ATOMIC;
	else if (mask & RXE_FLUSH_MASK) {
		need = rxe_resp_flush_access(rxe_pkt_ext(pkt, RXE_HDR_FETH));
		if (!need)
			goto invalid;
	}
	if (need && (c->access & need) != need)
		goto invalid;
	if ((mask & (RXE_READ_MASK | RXE_ATOMIC_MASK |
		     RXE_ATOMIC_WRITE_MASK | RXE_FLUSH_MASK)) &&
	    (!c->max_dest_rd_atomic || !c->resp->num_res))
		goto invalid;
	/* an atomic write is 8 bytes, said and carried (oA19-28) */
	if ((mask & RXE_ATOMIC_WRITE_MASK) &&
	    (rxe_reth_len(rxe_pkt_ext(pkt, RXE_HDR_RETH)) != sizeof(u64) ||
	     paylen != sizeof(u64)))
		goto invalid;
	/*
	 * No message beyond max_msg_sz: a READ of 4 GiB would be answered
	 * by millions of packets in one run and wrap the PSN space.
	 */
	if ((mask & RXE_RETH_MASK) && !(mask & RXE_FLUSH_MASK) &&
	    rxe_reth_len(rxe_pkt_ext(pkt, RXE_HDR_RETH)) > RXE_MAX_MSG_SZ)
		goto invalid;
	if (rxe_resp_is_ud(c->type) || !(mask & RXE_PAYLOAD_MASK))
		return RXE_RESP_OK;
	/* full MTUs but in the last packet (C9-88..C9-92) */
	if (paylen > c->mtu)
		goto invalid;
	if (!(mask & RXE_END_MASK) && paylen != c->mtu)
		goto invalid;
	return RXE_RESP_OK;
invalid:
	if (c->type == IB_QPT_UC) {
		rxe_resp_drop_msg(c->resp);
		c->resp->drop_msg = true;
		return RXE_RESP_DONE;
	}
	return RXE_RESP_INV_REQ;
}

/* ---- execution ---- */

static int rxe_resp_execute(struct rxe_resp_ctx *c)
{
	struct rxe_resp *resp = c->resp;
	struct rxe_pkt *pkt = c->pkt;
	u32 mask = pkt->info.mask;
	int ret;

	if (mask & RXE_READ_MASK)
		return rxe_resp_read(c);
	if (mask & RXE_ATOMIC_MASK)
		return rxe_resp_atomic(c);
	if (mask & RXE_ATOMIC_WRITE_MASK)
		return rxe_resp_atomic_write(c);
	if (mask & RXE_FLUSH_MASK)
		return rxe_resp_flush(c);
	if ((mask & RXE_RWR_MASK) && !resp->wqe_taken) {
		ret = rxe_resp_take_wqe(c);
		if (ret == -EAGAIN)
			return RXE_RESP_RNR;
		if (ret) {
			c->wc_status = IB_WC_LOC_QP_OP_ERR;
			return RXE_RESP_REM_OP;
		}
		resp->msg_len = 0;
	}
	if (mask & RXE_WRITE_MASK) {
		ret = rxe_resp_write(c);
		if (ret)
			return ret;
	}
	if (mask & RXE_SEND_MASK) {
		ret = rxe_resp_send(c);
		if (ret)
			return ret;
	}
	if (mask & RXE_IETH_MASK) {
		ret = rxe_resp_invalidate(c);
		if (ret)
			return ret;
	}
	resp->psn = rxe_psn_add(pkt->info.psn, 1);
	if (mask & RXE_START_MASK)
		resp->msg = mask & RXE_SEND_MASK ? RXE_RESP_MSG_SEND :
						   RXE_RESP_MSG_WRITE;
	if (!(mask & RXE_END_MASK))
		return RXE_RESP_OK;
	resp->msg = RXE_RESP_MSG_NONE;
	resp->msn++;
	/* a send, or a write with immediate, completes its receive WQE */
	if (((mask & RXE_SEND_MASK) ||
	     (mask & (RXE_WRITE_MASK | RXE_IMMDT_MASK)) ==
	     (RXE_WRITE_MASK | RXE_IMMDT_MASK)) && resp->wqe_taken &&
	    rxe_resp_complete(c, IB_WC_SUCCESS) == -EOVERFLOW)
		rxe_qp_error(c->qp, IB_EVENT_QP_FATAL);
	return RXE_RESP_OK;
}

/* RC error classes of IBA 9.9.3: CQE, NAK, then the QP goes to ERR */
static void rxe_resp_rc_error(struct rxe_resp_ctx *c, int ret)
{
	enum ib_event_type ev = IB_EVENT_QP_FATAL;
	enum ib_wc_status st = c->wc_status;
	u8 code = RXE_NAK_REMOTE_OP;

	switch (ret) {
	case RXE_RESP_INV_REQ:
		code = RXE_NAK_INVALID_REQ;
		ev = IB_EVENT_QP_REQ_ERR;
		if (st == IB_WC_SUCCESS)
			st = IB_WC_REM_INV_REQ_ERR;
		break;
	case RXE_RESP_ACCESS:
		code = RXE_NAK_REMOTE_ACCESS;
		ev = IB_EVENT_QP_ACCESS_ERR;
		st = IB_WC_REM_ACCESS_ERR;
		rxe_counter_inc(c->rxe, RXE_CNT_ACCESS_ERR);
		break;
	case RXE_RESP_LEN:
		code = RXE_NAK_INVALID_REQ;
		ev = IB_EVENT_QP_REQ_ERR;
		st = IB_WC_LOC_LEN_ERR;
		break;
	default:
		if (st == IB_WC_SUCCESS)
			st = IB_WC_LOC_QP_OP_ERR;
		break;
	}
	if (c->resp->wqe_taken)
		rxe_resp_complete(c, st);
	rxe_resp_nak(c, code, c->pkt->info.psn);
	c->resp->msg = RXE_RESP_MSG_NONE;
	rxe_qp_error(c->qp, ev);
}

static void rxe_resp_finish(struct rxe_resp_ctx *c, int ret)
{
	struct rxe_resp *resp = c->resp;
	struct rxe_pkt *pkt = c->pkt;

	switch (ret) {
	case RXE_RESP_OK:
		if (c->type == IB_QPT_RC && (pkt->info.flags & RXE_INFO_ACKREQ))
			rxe_resp_ack(c, RXE_AETH_ACK | RXE_AETH_NO_CREDITS,
				     pkt->info.psn, false, 0);
		return;
	case RXE_RESP_DONE:
		return;
	case RXE_RESP_RNR:
		if (c->type == IB_QPT_RC) {
			rxe_counter_inc(c->rxe, RXE_CNT_SND_RNR);
			rxe_resp_ack(c, RXE_AETH_RNR_NAK |
				     (c->min_rnr_timer & RXE_AETH_VALUE_MASK),
				     pkt->info.psn, false, 0);
		} else if (c->type == IB_QPT_UC) {
			rxe_resp_drop_msg(resp);
			resp->drop_msg = true;
		}
		return;
	default:
		break;
	}
	if (c->type == IB_QPT_RC) {
		rxe_resp_rc_error(c, ret);
		return;
	}
	if (ret == RXE_RESP_ACCESS)
		rxe_counter_inc(c->rxe, RXE_CNT_ACCESS_ERR);
	/* UD: a message too long completes its WQE in error */
	if (rxe_resp_is_ud(c->type) && resp->wqe_taken) {
		rxe_resp_complete(c, ret == RXE_RESP_LEN ? IB_WC_LOC_LEN_ERR :
				  c->wc_status != IB_WC_SUCCESS ?
				  c->wc_status : IB_WC_LOC_QP_OP_ERR);
		return;
	}
	/* UC: the message is dropped, its WQE serves the next one */
	rxe_resp_drop_msg(resp);
	resp->drop_msg = true;
}

static void rxe_resp_snap(struct rxe_resp_ctx *c, struct rxe_qp *qp,
			  struct sk_buff *skb)
{
	memset(c, 0, sizeof(*c));
	c->qp = qp;
	c->resp = &qp->resp;
	c->rxe = to_rdev(qp->ibqp.device);
	c->skb = skb;
	c->pkt = rxe_pkt(skb);
	c->type = qp->ibqp.qp_type;
	spin_lock_bh(&qp->state_lock);
	c->state = qp->state;
	c->mtu = rxe_path_mtu_bytes(qp->attr.path_mtu);
	c->dest_qpn = qp->attr.dest_qp_num;
	c->access = qp->attr.qp_access_flags;
	c->min_rnr_timer = qp->attr.min_rnr_timer;
	c->pkey_index = qp->attr.pkey_index;
	c->max_dest_rd_atomic = qp->attr.max_dest_rd_atomic;
	spin_unlock_bh(&qp->state_lock);
	if (!c->mtu)
		c->mtu = 256;
}

static void rxe_resp_packet(struct rxe_qp *qp, struct sk_buff *skb)
{
	struct rxe_resp_ctx c;
	int ret;

	rxe_resp_snap(&c, qp, skb);
	if ((c.state != IB_QPS_RTR && c.state != IB_QPS_RTS &&
	     c.state != IB_QPS_SQD && c.state != IB_QPS_SQE) ||
	    !(c.pkt->info.mask & RXE_REQ_MASK)) {
		rxe_counter_inc(c.rxe, RXE_CNT_RCV_DROP);
		goto out;
	}
	ret = RXE_RESP_OK;
	if (!rxe_resp_is_ud(c.type)) {
		ret = rxe_resp_check_psn(&c);
		if (ret == RXE_RESP_OK)
			ret = rxe_resp_check_seq(&c);
	}
	if (ret == RXE_RESP_OK)
		ret = rxe_resp_check_op(&c);
	if (ret == RXE_RESP_OK)
		ret = rxe_resp_execute(&c);
	rxe_resp_finish(&c, ret);
out:
	consume_skb(skb);
}

/* ---- the work item and the QP hooks ---- */

/*
 * Duplicate SEND/WRITE packets seen in this run: one ACK of the last
 * PSN executed (C9-105) answers them all, instead of one per packet,
 * which after a timeout would be a storm of up to a window of ACKs.
 */
static void rxe_resp_dup_ack(struct rxe_qp *qp)
{
	struct rxe_resp_ctx c;
	bool ok;

	qp->resp.dup_ack = false;
	memset(&c, 0, sizeof(c));
	c.qp = qp;
	c.resp = &qp->resp;
	spin_lock_bh(&qp->state_lock);
	ok = qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS ||
	     qp->state == IB_QPS_SQD || qp->state == IB_QPS_SQE;
	c.dest_qpn = qp->attr.dest_qp_num;
	spin_unlock_bh(&qp->state_lock);
	if (ok)
		rxe_resp_ack(&c, RXE_AETH_ACK | RXE_AETH_NO_CREDITS,
			     rxe_psn_add(qp->resp.psn, RXE_PSN_MASK), false, 0);
}

/* one run: at most RXE_RESP_BUDGET queued requests */
static void rxe_resp_drain(struct rxe_qp *qp)
{
	struct sk_buff *skb;
	int n;

	lockdep_assert_held(&qp->resp.mutex);
	for (n = 0; n < RXE_RESP_BUDGET; n++) {
		skb = skb_dequeue(&qp->resp.req_pkts);
		if (!skb)
			break;
		rxe_resp_packet(qp, skb);
		cond_resched();
	}
	if (qp->resp.dup_ack)
		rxe_resp_dup_ack(qp);
}

static void rxe_resp_work(struct work_struct *work)
{
	struct rxe_qp *qp = container_of(work, struct rxe_qp, resp.work);

	mutex_lock(&qp->resp.mutex);
	rxe_resp_drain(qp);
	mutex_unlock(&qp->resp.mutex);
	if (!skb_queue_empty(&qp->resp.req_pkts))
		queue_work_on(qp->cpu, rxe_wq, &qp->resp.work);
}

void rxe_resp_rcv(struct rxe_qp *qp, struct sk_buff *skb, struct rxe_tx *tx)
{
	if (skb_queue_len(&qp->resp.req_pkts) >= RXE_RESP_MAX_QUEUED) {
		rxe_counter_inc(to_rdev(qp->ibqp.device), RXE_CNT_RCV_DROP);
		kfree_skb(skb);
		return;
	}
	skb_queue_tail(&qp->resp.req_pkts, skb);
	if (tx && tx->may_defer && !tx->resp_qp) {
		/* the local sender runs the responder when its send returns */
		rxe_elem_get(&qp->elem);
		tx->resp_qp = qp;
		return;
	}
	queue_work_on(qp->cpu, rxe_wq, &qp->resp.work);
}

/*
 * In the sender, after its send returned: sleepable, no lock held.  When
 * the work item (or another sender) runs the responder, it is asked to
 * look again instead of being waited for.
 */
void rxe_resp_run_deferred(struct rxe_tx *tx)
{
	struct rxe_qp *qp = tx->resp_qp;

	might_sleep();
	tx->resp_qp = NULL;
	if (mutex_trylock(&qp->resp.mutex)) {
		rxe_resp_drain(qp);
		mutex_unlock(&qp->resp.mutex);
	}
	if (!skb_queue_empty(&qp->resp.req_pkts))
		queue_work_on(qp->cpu, rxe_wq, &qp->resp.work);
	rxe_elem_put(&qp->elem);
}

/* forget every request and message (under the mutex, or at init) */
static void rxe_resp_reset(struct rxe_qp *qp)
{
	struct rxe_resp *resp = &qp->resp;

	skb_queue_purge(&resp->req_pkts);
	rxe_rq_forget(qp);
	resp->msn = 0;
	resp->msg = RXE_RESP_MSG_NONE;
	resp->nak_sent = false;
	resp->dup_ack = false;
	resp->drop_msg = false;
	resp->msg_len = 0;
	resp->write_resid = 0;
	resp->res_next = 0;
	if (resp->res)
		memset(resp->res, 0, resp->num_res * sizeof(*resp->res));
}

void rxe_resp_init(struct rxe_qp *qp)
{
	struct rxe_resp *resp = &qp->resp;

	INIT_WORK(&resp->work, rxe_resp_work);
	mutex_init(&resp->mutex);
	skb_queue_head_init(&resp->req_pkts);
	resp->res = NULL;
	resp->num_res = 0;
	rxe_resp_reset(qp);
}

/* the resource ring for max_dest_rd_atomic (at least one slot) */
static void rxe_resp_set_res(struct rxe_qp *qp, u32 max)
{
	struct rxe_resp *resp = &qp->resp;
	struct rxe_resp_res *res;
	u32 n = max ? max : 1;

	if (n == resp->num_res)
		return;
	res = (struct rxe_resp_res *)kcalloc(n, sizeof(*res), GFP_KERNEL);
	if (!res)
		return;		/* keep the old ring */
	mutex_lock(&resp->mutex);
	swap(resp->res, res);
	resp->num_res = n;
	resp->res_next = 0;
	mutex_unlock(&resp->mutex);
	kfree(res);
}

void rxe_resp_modify(struct rxe_qp *qp, const struct ib_qp_attr *attr,
		     int mask)
{
	struct rxe_resp *resp = &qp->resp;

	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		rxe_resp_set_res(qp, attr->max_dest_rd_atomic);
	mutex_lock(&resp->mutex);
	if ((mask & IB_QP_STATE) && attr->qp_state == IB_QPS_RESET)
		rxe_resp_reset(qp);
	if (mask & IB_QP_RQ_PSN)
		resp->psn = attr->rq_psn & RXE_PSN_MASK;
	mutex_unlock(&resp->mutex);
	if ((mask & IB_QP_STATE) && attr->qp_state == IB_QPS_ERR)
		skb_queue_purge(&resp->req_pkts);
}

void rxe_resp_cleanup(struct rxe_qp *qp)
{
	struct rxe_resp *resp = &qp->resp;

	cancel_work_sync(&resp->work);
	skb_queue_purge(&resp->req_pkts);
	kfree(resp->res);
	resp->res = NULL;
	resp->num_res = 0;
}
