// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The receive path: from the UDP socket to a QP's responder or completer.
 * (Placeholder of the data-path contract.)
 */
#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

void rxe_rcv(struct rxe_dev *rxe, struct sk_buff *skb)
{
	kfree_skb(skb);
}
