/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The receive side of a QP: responder state (rxe_resp.c), embedded in
 * struct rxe_qp as qp->resp.
 */
#ifndef _RXE_RESP_H
#define _RXE_RESP_H

#include <linux/skbuff.h>
#include <linux/workqueue.h>

struct rxe_resp {
	struct work_struct work;
	/* requests from rxe_rcv(), no QP reference (rxe_dp.h) */
	struct sk_buff_head req_pkts;
};

#endif /* _RXE_RESP_H */
