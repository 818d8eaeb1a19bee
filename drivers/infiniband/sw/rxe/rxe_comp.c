// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The completer: matches responses to send WQEs and completes them.
 * (Placeholder of the data-path contract.)
 */
#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

void rxe_comp_rcv(struct rxe_qp *qp, struct sk_buff *skb)
{
	kfree_skb(skb);
}
