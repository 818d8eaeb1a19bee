// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The receive path: from the UDP socket to a QP's responder or completer.
 *
 * Checks, in order, each failure a silent drop with a counter: ICRC
 * (rcvd_icrc_err), header parse (rcvd_dropped); a well-formed packet
 * counts as rcvd_pkts; then destination QP (the multicast QPN: every QP
 * attached to the destination group, rxe_mcast.c), transport versus QP type,
 * QP state, for RC and UC the peer's addresses, P_Key and, for UD,
 * Q_Key (rcvd_dropped).  What passes goes
 * to rxe_resp_rcv() (requests) or rxe_comp_rcv() (responses) under the
 * QP reference rule of rxe_dp.h.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

/*
 * The GSI QP with a reference.  Its pool index is not its QPN (1):
 * rxe->gsi_index says where it is, one lookup whatever the number of QPs
 * (a stale index may meanwhile name another QP: the type says).
 */
static struct rxe_qp *rxe_gsi_get(struct rxe_dev *rxe)
{
	u32 index = READ_ONCE(rxe->gsi_index);
	struct rxe_elem *elem;
	struct rxe_qp *qp;

	if (!index)
		return NULL;
	elem = rxe_pool_get(&rxe->qp_pool, index);
	if (!elem)
		return NULL;
	qp = container_of(elem, struct rxe_qp, elem);
	if (qp->ibqp.qp_type != IB_QPT_GSI) {
		rxe_elem_put(elem);
		return NULL;
	}
	return qp;
}

static struct rxe_qp *rxe_qp_get(struct rxe_dev *rxe, u32 qpn)
{
	struct rxe_elem *elem;

	if (qpn == RXE_GSI_QPN)
		return rxe_gsi_get(rxe);
	if (qpn < RXE_MIN_QP_INDEX)
		return NULL;
	elem = rxe_pool_get(&rxe->qp_pool, qpn);
	return elem ? container_of(elem, struct rxe_qp, elem) : NULL;
}

static bool rxe_transport_ok(const struct rxe_qp *qp, u8 opcode)
{
	switch (qp->ibqp.qp_type) {
	case IB_QPT_RC:
		return (opcode & RXE_TR_MASK) == RXE_TR_RC;
	case IB_QPT_UC:
		return (opcode & RXE_TR_MASK) == RXE_TR_UC;
	case IB_QPT_UD:
	case IB_QPT_GSI:
		return (opcode & RXE_TR_MASK) == RXE_TR_UD;
	default:
		return false;
	}
}

/* requests from RTR on, responses once we send; never in ERR */
static bool rxe_state_ok(enum ib_qp_state state, u32 mask)
{
	switch (state) {
	case IB_QPS_RTR:
		return mask & RXE_REQ_MASK;
	case IB_QPS_RTS:
	case IB_QPS_SQD:
	case IB_QPS_SQE:
		return true;
	default:
		return false;
	}
}

/*
 * Our P_Key table holds the default key only (0xffff, full member): a
 * packet matches when its key bits agree; full or limited membership on
 * its side both pair with our full membership.
 */
static bool rxe_pkey_ok(u16 pkey)
{
	return (pkey & 0x7fff) == (RXE_DEFAULT_PKEY & 0x7fff);
}

/*
 * RC and UC take packets from their primary path only: the source
 * address is the remote GID's, the destination our source GID's (an
 * IPv4 GID is the v4-mapped address).  Anyone else who reaches UDP 4791
 * is not the peer.
 */
static bool rxe_peer_ok(const struct rxe_av *av, struct sk_buff *skb)
{
	const struct iphdr *ip4 = ip_hdr(skb);
	const struct ipv6hdr *ip6;

	if (ip4->version == 4)
		return av->network_type == RXE_NETWORK_TYPE_IPV4 &&
		       ip4->saddr == av->dgid_addr._sockaddr_in.sin_addr.s_addr &&
		       ip4->daddr == av->sgid_addr._sockaddr_in.sin_addr.s_addr;
	ip6 = ipv6_hdr(skb);
	return av->network_type == RXE_NETWORK_TYPE_IPV6 &&
	       ipv6_addr_equal(&ip6->saddr,
			       &av->dgid_addr._sockaddr_in6.sin6_addr) &&
	       ipv6_addr_equal(&ip6->daddr,
			       &av->sgid_addr._sockaddr_in6.sin6_addr);
}

static bool rxe_qp_accepts(struct rxe_qp *qp, struct sk_buff *skb)
{
	struct rxe_pkt *pkt = rxe_pkt(skb);
	const struct rxe_hdr_info *info = &pkt->info;
	enum ib_qp_type type = qp->ibqp.qp_type;
	enum ib_qp_state state;
	bool peer = true;
	u32 qkey;

	if (!rxe_transport_ok(qp, info->opcode))
		return false;
	spin_lock_bh(&qp->state_lock);
	state = qp->state;
	qkey = qp->attr.qkey;
	if (type == IB_QPT_RC || type == IB_QPT_UC)
		peer = rxe_peer_ok(&qp->pri_av, skb);
	spin_unlock_bh(&qp->state_lock);
	if (!rxe_state_ok(state, info->mask) || !peer)
		return false;
	if (!rxe_pkey_ok(info->pkey))
		return false;
	if (info->mask & RXE_DETH_MASK) {
		u8 *deth = pkt->hdr + rxe_opcode_info(info->opcode)->offset[RXE_HDR_DETH];

		if (qp->ibqp.qp_type == IB_QPT_GSI)
			qkey = RXE_GSI_QKEY;
		if (rxe_deth_qkey(deth) != qkey)
			return false;
	}
	return true;
}

static void rxe_deliver(struct rxe_qp *qp, struct sk_buff *skb,
			struct rxe_tx *tx)
{
	struct rxe_pkt *pkt = rxe_pkt(skb);

	pkt->qp = qp;
	if (pkt->info.mask & RXE_REQ_MASK)
		rxe_resp_rcv(qp, skb, tx);
	else
		rxe_comp_rcv(qp, skb);
}

/* The destination IP address of @skb as a GID (IPv4: v4-mapped). */
static void rxe_pkt_dgid(struct sk_buff *skb, union ib_gid *dgid)
{
	const struct iphdr *ip4 = ip_hdr(skb);

	if (ip4->version == 4)
		rdma_gid_from_ipv4((const u8 *)&ip4->daddr, dgid->raw);
	else
		memcpy(dgid->raw, &ipv6_hdr(skb)->daddr, sizeof(dgid->raw));
}

/*
 * A UD packet to the multicast QPN: to every QP attached to its
 * destination group that accepts it (state, P_Key, its own Q_Key), each
 * with a clone of its own.  false: nobody took it (the caller drops it).
 */
static bool rxe_rcv_mcast(struct rxe_dev *rxe, struct sk_buff *skb)
{
	struct rxe_qp *qps[RXE_MAX_MCAST_QP_ATTACH];
	struct sk_buff *copy;
	union ib_gid dgid;
	bool taken = false;
	u32 n, i;

	rxe_pkt_dgid(skb, &dgid);
	if (!rdma_gid_is_multicast(dgid.raw))
		return false;
	n = rxe_mcast_get_qps(rxe, &dgid, qps, ARRAY_SIZE(qps));
	for (i = 0; i < n; i++) {
		if (rxe_qp_accepts(qps[i], skb)) {
			copy = skb_clone(skb, GFP_ATOMIC);
			if (copy) {
				rxe_deliver(qps[i], copy, NULL);
				taken = true;
			}
		}
		rxe_elem_put(&qps[i]->elem);
	}
	return taken;
}

void rxe_rcv(struct rxe_dev *rxe, struct sk_buff *skb, struct rxe_tx *tx)
{
	struct rxe_pkt *pkt = rxe_pkt(skb);
	u8 *l3 = skb_network_header(skb);
	struct rxe_qp *qp;
	u32 len;

	/* the UDP payload: skb->data (BTH) through the ICRC */
	len = skb->len;
	if (skb->data < l3 || len < RXE_ICRC_LEN ||
	    !rxe_icrc_ok(l3, (u32)(skb->data - l3) + len - RXE_ICRC_LEN)) {
		rxe_counter_inc(rxe, RXE_CNT_ICRC_ERR);
		goto drop;
	}
	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr = skb->data;
	if (rxe_hdr_parse(skb->data, len, &pkt->info) != RXE_PARSE_OK)
		goto drop_count;
	rxe_counter_inc(rxe, RXE_CNT_RCVD_PKTS);

	if (pkt->info.qpn == RXE_MCAST_QPN) {
		if (!rxe_rcv_mcast(rxe, skb))
			goto drop_count;
		kfree_skb(skb);
		return;
	}
	qp = rxe_qp_get(rxe, pkt->info.qpn);
	if (!qp)
		goto drop_count;
	if (!rxe_qp_accepts(qp, skb)) {
		rxe_elem_put(&qp->elem);
		goto drop_count;
	}
	rxe_deliver(qp, skb, tx);
	rxe_elem_put(&qp->elem);
	return;

drop_count:
	rxe_counter_inc(rxe, RXE_CNT_RCV_DROP);
drop:
	kfree_skb(skb);
}
