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
 * Receiving is the data path's business (a later issue); until then the
 * sockets only reserve the port and drop what arrives.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <net/netns/generic.h>
#include <net/udp_tunnel.h>

#include "rxe.h"

struct rxe_net {
	struct socket *sk4;
	struct socket *sk6;
	unsigned int users;
	bool dead;		/* namespace exiting: no new sockets */
};

static unsigned int rxe_net_id;
static DEFINE_MUTEX(rxe_net_mutex);

static int rxe_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	kfree_skb(skb);
	return 0;
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
