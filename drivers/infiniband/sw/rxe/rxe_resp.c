// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder: executes incoming requests and answers them.
 * (Placeholder of the data-path contract.)
 */
#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

void rxe_resp_init(struct rxe_qp *qp)
{
	skb_queue_head_init(&qp->resp.req_pkts);
}

void rxe_resp_modify(struct rxe_qp *qp, const struct ib_qp_attr *attr,
		     int mask)
{
}

void rxe_resp_cleanup(struct rxe_qp *qp)
{
	skb_queue_purge(&qp->resp.req_pkts);
}

void rxe_resp_rcv(struct rxe_qp *qp, struct sk_buff *skb)
{
	kfree_skb(skb);
}
