// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The RoCEv2 UDP sockets (port 4791, IPv4 and IPv6), one pair per network
 * namespace that has rxe devices: created with the first device living
 * there, released with the last (or when the namespace dies).  Upstream
 * 6.1 opens them in init_net only, so its devices cannot carry traffic
 * inside a namespace.
 *
 * Each rxe_dev holds one "user" of the namespace it lives in (rxe->net):
 * taken before registration, moved along when the device follows its
 * netdev to another namespace, dropped in dealloc_driver.  Users and
 * sockets are under rxe_net_mutex.
 *
 * What arrives goes to the device it is for, then to rxe_rcv()
 * (rxe_recv.c).
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/netns/generic.h>
#include <net/udp_tunnel.h>

#include "rxe.h"
#include "rxe_dp.h"

struct rxe_net {
	struct socket *sk4;
	struct socket *sk6;
	unsigned int users;
	bool dead;		/* namespace exiting: no new sockets */
};

static unsigned int rxe_net_id;
static DEFINE_MUTEX(rxe_net_mutex);

/*
 * The device a packet is for: the one on the netdev it came in through;
 * for local delivery (in through lo) the one whose netdev owns the
 * destination address, in the packet's namespace.
 */
static struct rxe_dev *rxe_rcv_dev(struct sk_buff *skb)
{
	struct net_device *ndev = skb->dev;
	struct rxe_dev *rxe;

	rcu_read_lock();
	rxe = ndev ? rxe_get_rcv_dev(ndev) : NULL;
	if (!rxe && ndev && (ndev->flags & IFF_LOOPBACK)) {
		struct net *net = dev_net(ndev);

		if (skb->protocol == htons(ETH_P_IP))
			ndev = __ip_dev_find(net, ip_hdr(skb)->daddr, false);
#if IS_ENABLED(CONFIG_IPV6)
		else if (skb->protocol == htons(ETH_P_IPV6))
			ndev = ipv6_dev_find(net, &ipv6_hdr(skb)->daddr, NULL);
#endif
		else
			ndev = NULL;
		if (ndev)
			rxe = rxe_get_rcv_dev(ndev);
	}
	rcu_read_unlock();
	return rxe;
}

/* skb->data at the UDP header; always consumes @skb */
static int rxe_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct rxe_dev *rxe;
	unsigned int ulen;

	if (skb_linearize(skb))
		goto drop;
	rxe = rxe_rcv_dev(skb);
	if (!rxe)
		goto drop;
	ulen = ntohs(udp_hdr(skb)->len);
	if (ulen < sizeof(struct udphdr) || ulen > skb->len) {
		rxe_counter_inc(rxe, RXE_CNT_RCV_DROP);
		ib_device_put(&rxe->ib_dev);
		goto drop;
	}
	skb_trim(skb, ulen);
	skb_pull(skb, sizeof(struct udphdr));
	rxe_rcv(rxe, skb, NULL);
	ib_device_put(&rxe->ib_dev);
	return 0;
drop:
	kfree_skb(skb);
	return 0;
}

/*
 * A packet of ours for an address of this host (rxe_xmit.c): what the
 * loopback device and the IP stack would hand to our socket, without the
 * per-CPU backlog, which drops packets once a burst (the responses of a
 * long RDMA READ) outruns the softirq.  @skb: complete, network and
 * transport headers set, skb->dev the loopback device; consumed.
 */
void rxe_net_local_rcv(struct sk_buff *skb, struct rxe_tx *tx)
{
	struct rxe_dev *rxe;

	skb_dst_drop(skb);
	local_bh_disable();
	rxe = rxe_rcv_dev(skb);
	if (rxe) {
		skb_pull(skb, (unsigned int)skb_transport_offset(skb) +
			      sizeof(struct udphdr));
		rxe_rcv(rxe, skb, tx);
		ib_device_put(&rxe->ib_dev);
	} else {
		kfree_skb(skb);
	}
	local_bh_enable();
}

static struct socket *rxe_sock_create(struct net *net, bool ipv6)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.encap_type = 1,
		.encap_rcv = rxe_udp_encap_recv,
	};
	struct udp_port_cfg cfg = {
		.family = (u8)(ipv6 ? AF_INET6 : AF_INET),
		.local_udp_port = htons(ROCE_V2_UDP_DPORT),
	};
	struct socket *sock;
	int ret;

	if (ipv6)
		cfg.ipv6_v6only = 1;
	ret = udp_sock_create(net, &cfg, &sock);
	if (ret)
		return (struct socket *)ERR_PTR(ret);
	setup_udp_tunnel_sock(net, sock, &tcfg);
	return sock;
}

static void rxe_net_release_locked(struct rxe_net *rn)
{
	if (rn->sk6)
		udp_tunnel_sock_release(rn->sk6);
	if (rn->sk4)
		udp_tunnel_sock_release(rn->sk4);
	rn->sk4 = NULL;
	rn->sk6 = NULL;
}

/* One more device lives in @net: open its sockets if it is the first. */
int rxe_net_get(struct net *net)
{
	struct rxe_net *rn = (struct rxe_net *)net_generic(net, rxe_net_id);
	struct socket *sock;
	int ret = 0;

	mutex_lock(&rxe_net_mutex);
	if (rn->dead) {
		ret = -ENODEV;
		goto out;
	}
	if (rn->users++)
		goto out;
	sock = rxe_sock_create(net, false);
	if (IS_ERR(sock)) {
		ret = PTR_ERR(sock);
		goto err;
	}
	rn->sk4 = sock;
	/* a namespace without IPv6 (ipv6.disable=1) still gets IPv4 */
	sock = rxe_sock_create(net, true);
	if (!IS_ERR(sock))
		rn->sk6 = sock;
	else if (PTR_ERR(sock) != -EAFNOSUPPORT) {
		ret = PTR_ERR(sock);
		goto err;
	}
	goto out;
err:
	rxe_net_release_locked(rn);
	rn->users--;
out:
	mutex_unlock(&rxe_net_mutex);
	return ret;
}

void rxe_net_put(struct net *net)
{
	struct rxe_net *rn = (struct rxe_net *)net_generic(net, rxe_net_id);

	mutex_lock(&rxe_net_mutex);
	if (!rn->dead && !WARN_ON(!rn->users) && !--rn->users)
		rxe_net_release_locked(rn);
	mutex_unlock(&rxe_net_mutex);
}

/*
 * Runs after the namespace's netdevs are gone (device pernet ops exit
 * first), and with them the devices bound to them; anything still
 * counted belongs to a device ib_core is about to remove.
 */
static void __net_exit rxe_net_exit(struct net *net)
{
	struct rxe_net *rn = (struct rxe_net *)net_generic(net, rxe_net_id);

	mutex_lock(&rxe_net_mutex);
	rn->dead = true;
	rxe_net_release_locked(rn);
	mutex_unlock(&rxe_net_mutex);
}

static struct pernet_operations rxe_net_ops = {
	.exit = rxe_net_exit,
	.id = &rxe_net_id,
	.size = sizeof(struct rxe_net),
};

int rxe_net_init(void)
{
	return register_pernet_subsys(&rxe_net_ops);
}

void rxe_net_exit_module(void)
{
	unregister_pernet_subsys(&rxe_net_ops);
}
