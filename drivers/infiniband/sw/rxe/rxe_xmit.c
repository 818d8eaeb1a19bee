// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Building and sending packets: UDP/IP encapsulation in the namespace of
 * the device's netdev, and the ICRC.  (Placeholder of the data-path
 * contract.)
 */
#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

u8 *rxe_pkt_ext(struct rxe_pkt *pkt, enum rxe_hdr_type type)
{
	const struct rxe_opcode_info *oi = rxe_opcode_info(pkt->info.opcode);

	return pkt->hdr + oi->offset[type];
}

struct sk_buff *rxe_pkt_new(struct rxe_qp *qp, const struct rxe_av *av,
			    u8 opcode, u32 paylen)
{
	return NULL;
}

int rxe_pkt_send(struct rxe_qp *qp, const struct rxe_av *av,
		 struct sk_buff *skb)
{
	kfree_skb(skb);
	return -EHOSTUNREACH;
}
