// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_net.c (the RoCE sockets) is not built into the KUnit module: its
 * made-up devices have no netdev, so the requester and the responder
 * never send (rxe_xmit.c is reached only with one).  Should a packet get
 * here, it is dropped.
 */
#include "../rxe.h"

void rxe_net_local_rcv(struct sk_buff *skb, struct rxe_tx *tx)
{
	kfree_skb(skb);
}
