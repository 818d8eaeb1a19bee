// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester: turns send WQEs into request packets.  (Placeholder of
 * the data-path contract: local WQEs only, via rxe_sq_process().)
 */
#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

void rxe_req_init(struct rxe_qp *qp)
{
	skb_queue_head_init(&qp->req.resp_pkts);
}

void rxe_req_modify(struct rxe_qp *qp, const struct ib_qp_attr *attr,
		    int mask)
{
}

void rxe_req_cleanup(struct rxe_qp *qp)
{
	skb_queue_purge(&qp->req.resp_pkts);
}

void rxe_req_kick(struct rxe_qp *qp)
{
	rxe_sq_process(qp);
}
