// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Building and sending packets: UDP/IP encapsulation in the namespace of
 * the device's netdev, and the ICRC.
 *
 * Packets leave through the IP stack (ip_local_out/ip6_local_out) of the
 * netdev's namespace, so qdiscs such as netem on the outgoing link see
 * what really leaves the host.  A packet whose route delivers it to this
 * host (through the loopback device) goes straight to the receive path
 * instead (rxe_net_local_rcv), complete with its headers and ICRC.  The IP and UDP headers
 * are complete (IPv4 identification included) before the ICRC is
 * computed over them, so the receiver sees exactly the covered bytes.
 */
#include <linux/hash.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <rdma/ib_verbs.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"
#include "rxe_test_hooks.h"

/* RoCEv2 source ports: 0xc000 | 14 bits of a hash of the QPN */
#define RXE_SPORT_BASE		0xc000
#define RXE_SPORT_BITS		14

u8 *rxe_pkt_ext(struct rxe_pkt *pkt, enum rxe_hdr_type type)
{
	const struct rxe_opcode_info *oi = rxe_opcode_info(pkt->info.opcode);

	return pkt->hdr + (oi ? oi->offset[type] : 0);
}

static u16 rxe_src_port(u32 qpn)
{
	return (u16)(RXE_SPORT_BASE | hash_32(qpn, RXE_SPORT_BITS));
}

struct sk_buff *rxe_pkt_new(struct rxe_qp *qp, const struct rxe_av *av,
			    u8 opcode, u32 paylen)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	const struct rxe_opcode_info *oi = rxe_opcode_info(opcode);
	unsigned int head, tail;
	struct sk_buff *skb;
	struct rxe_pkt *pkt;
	u32 pad;

	if (!oi || paylen > 0xffff ||
	    (paylen && !(oi->mask & RXE_PAYLOAD_MASK)))
		return NULL;
	pad = (0U - paylen) & 3;
	head = LL_RESERVED_SPACE(rxe->ndev) + sizeof(struct ipv6hdr) +
	       sizeof(struct udphdr);
	tail = oi->hdr_len + paylen + pad + RXE_ICRC_LEN;
	skb = alloc_skb(head + tail, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, (int)head);
	skb_reset_transport_header(skb);
	skb->dev = rxe->ndev;
	skb->protocol = htons(av->network_type == RXE_NETWORK_TYPE_IPV6 ?
			      ETH_P_IPV6 : ETH_P_IP);

	pkt = rxe_pkt(skb);
	memset(pkt, 0, sizeof(*pkt));
	pkt->qp = qp;
	pkt->hdr = (u8 *)skb_put(skb, tail);
	/* headers zeroed for the caller; pad and ICRC too */
	memset(pkt->hdr, 0, oi->hdr_len);
	memset(pkt->hdr + oi->hdr_len + paylen, 0, pad + RXE_ICRC_LEN);
	pkt->info.opcode = opcode;
	pkt->info.mask = oi->mask;
	pkt->info.hdr_len = oi->hdr_len;
	pkt->info.paylen = (u16)paylen;
	pkt->info.pad = (u8)pad;
	return skb;
}

static void rxe_push_udp(struct sk_buff *skb, u16 sport)
{
	struct udphdr *uh;

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = htons(sport);
	uh->dest = htons(ROCE_V2_UDP_DPORT);
	uh->len = htons((u16)skb->len);
	/* zero: no checksum (our socket and upstream's accept it) */
	uh->check = 0;
}

static int rxe_send4(struct rxe_dev *rxe, const struct rxe_av *av,
		     struct sk_buff *skb, u16 sport, struct rxe_tx *tx)
{
	struct net *net = dev_net(rxe->ndev);
	struct flowi4 fl = {};
	struct rtable *rt;
	struct iphdr *iph;
	int ret;

	fl.flowi4_oif = rxe->ndev->ifindex;
	fl.saddr = av->sgid_addr._sockaddr_in.sin_addr.s_addr;
	fl.daddr = av->dgid_addr._sockaddr_in.sin_addr.s_addr;
	fl.flowi4_proto = IPPROTO_UDP;
	rt = ip_route_output_key(net, &fl);
	if (IS_ERR(rt)) {
		kfree_skb(skb);
		return -EHOSTUNREACH;
	}
	skb_dst_set(skb, &rt->dst);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));

	rxe_push_udp(skb, sport);
	__skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = av->grh.traffic_class;
	iph->tot_len = htons((u16)skb->len);
	iph->frag_off = htons(IP_DF);
	iph->ttl = av->grh.hop_limit ? av->grh.hop_limit :
		   (u8)ip4_dst_hoplimit(&rt->dst);
	iph->protocol = IPPROTO_UDP;
	iph->saddr = fl.saddr;
	iph->daddr = fl.daddr;
	__ip_select_ident(net, iph, 1);
	ip_send_check(iph);

	rxe_icrc_put(skb->data, skb->len - RXE_ICRC_LEN);
	if (rt->dst.dev->flags & IFF_LOOPBACK) {
		skb->dev = rt->dst.dev;
		rxe_net_local_rcv(skb, tx);
		return 0;
	}
	if (tx)
		tx->wire = true;
	/* net_xmit_eval() evaluates its argument twice: never call in it */
	ret = ip_local_out(net, NULL, skb);
	return net_xmit_eval(ret);
}

static int rxe_send6(struct rxe_dev *rxe, const struct rxe_av *av,
		     struct sk_buff *skb, u16 sport, struct rxe_tx *tx)
{
	struct net *net = dev_net(rxe->ndev);
	struct dst_entry *dst;
	struct flowi6 fl = {};
	struct ipv6hdr *ip6h;
	int ret;

	if (!ipv6_mod_enabled()) {
		kfree_skb(skb);
		return -EHOSTUNREACH;
	}
	fl.flowi6_oif = rxe->ndev->ifindex;
	fl.saddr = av->sgid_addr._sockaddr_in6.sin6_addr;
	fl.daddr = av->dgid_addr._sockaddr_in6.sin6_addr;
	fl.flowi6_proto = IPPROTO_UDP;
	dst = ipv6_stub->ipv6_dst_lookup_flow(net, NULL, &fl, NULL);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return -EHOSTUNREACH;
	}
	if (dst->error) {
		dst_release(dst);
		kfree_skb(skb);
		return -EHOSTUNREACH;
	}
	skb_dst_set(skb, dst);
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));

	rxe_push_udp(skb, sport);
	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, av->grh.traffic_class,
		     htonl(av->grh.flow_label) & IPV6_FLOWLABEL_MASK);
	ip6h->payload_len = htons((u16)(skb->len - sizeof(*ip6h)));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = av->grh.hop_limit ? av->grh.hop_limit :
			  (u8)ip6_dst_hoplimit(dst);
	ip6h->saddr = fl.saddr;
	ip6h->daddr = fl.daddr;

	rxe_icrc_put(skb->data, skb->len - RXE_ICRC_LEN);
	if (dst->dev->flags & IFF_LOOPBACK) {
		skb->dev = dst->dev;
		rxe_net_local_rcv(skb, tx);
		return 0;
	}
	if (tx)
		tx->wire = true;
	ret = ip6_local_out(net, NULL, skb);
	return net_xmit_eval(ret);
}

int rxe_pkt_send(struct rxe_qp *qp, const struct rxe_av *av,
		 struct sk_buff *skb, struct rxe_tx *tx)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	u16 sport = rxe_src_port(qp->ibqp.qp_num);
	int ret;

	/* the caller may have moved data: send from the BTH on */
	skb_pull(skb, (unsigned int)(rxe_pkt(skb)->hdr - skb->data));
	rxe_test_tx(skb);
	if (av->network_type == RXE_NETWORK_TYPE_IPV6)
		ret = rxe_send6(rxe, av, skb, sport, tx);
	else
		ret = rxe_send4(rxe, av, skb, sport, tx);
	if (ret)
		return ret < 0 ? ret : -EAGAIN;
	rxe_counter_inc(rxe, RXE_CNT_SENT_PKTS);
	return 0;
}
