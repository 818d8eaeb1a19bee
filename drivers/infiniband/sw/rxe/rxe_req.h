/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The send side of a QP: requester and completer state (rxe_req.c,
 * rxe_comp.c), embedded in struct rxe_qp as qp->req.
 */
#ifndef _RXE_REQ_H
#define _RXE_REQ_H

#include <linux/skbuff.h>
#include <linux/workqueue.h>

struct rxe_req {
	struct work_struct work;
	/* responses from rxe_rcv(), no QP reference (rxe_dp.h) */
	struct sk_buff_head resp_pkts;
};

#endif /* _RXE_REQ_H */
