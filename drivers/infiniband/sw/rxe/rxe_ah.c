// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address handles.  Core resolved the address (GRH, RoCEv2 source GID,
 * destination MAC); we keep it as the uapi struct rxe_av that UD WQEs
 * also carry, under a device-wide AH number (> 0) that librxe puts in its
 * UD WQEs.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/string.h>
#include <net/ipv6.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

static void rxe_gid_to_sockaddr(const u8 *gid, int type,
				struct sockaddr_in *in4,
				struct sockaddr_in6 *in6)
{
	if (type == RXE_NETWORK_TYPE_IPV4) {
		in4->sin_family = AF_INET;
		memcpy(&in4->sin_addr.s_addr, gid + 12, 4);
	} else {
		in6->sin6_family = AF_INET6;
		memcpy(&in6->sin6_addr, gid, 16);
	}
}

void rxe_av_from_attr(struct rxe_av *av, const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh = &attr->grh;
	const u8 *sgid = attr->sgid_attr.gid.raw;

	memset(av, 0, sizeof(*av));
	av->port_num = (u8)attr->port_num;
	memcpy(av->dmac, attr->roce.dmac, ETH_ALEN);
	memcpy(av->grh.dgid.raw, grh->dgid.raw, sizeof(av->grh.dgid.raw));
	av->grh.flow_label = grh->flow_label;
	av->grh.sgid_index = grh->sgid_index;
	av->grh.hop_limit = grh->hop_limit;
	av->grh.traffic_class = grh->traffic_class;
	/* the source GID decides the IP version (RoCEv2) */
	av->network_type = ipv6_addr_v4mapped((const struct in6_addr *)sgid) ?
			   RXE_NETWORK_TYPE_IPV4 : RXE_NETWORK_TYPE_IPV6;
	rxe_gid_to_sockaddr(sgid, av->network_type, &av->sgid_addr._sockaddr_in,
			    &av->sgid_addr._sockaddr_in6);
	rxe_gid_to_sockaddr(grh->dgid.raw, av->network_type,
			    &av->dgid_addr._sockaddr_in,
			    &av->dgid_addr._sockaddr_in6);
}

int rxe_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibah->device);
	struct rxe_ah *ah = to_rah(ibah);
	struct rxe_create_ah_resp resp = {};
	int ret;

	if (init->ah_attr->port_num != RXE_PORT ||
	    !(init->ah_attr->ah_flags & IB_AH_GRH))
		return -EINVAL;
	ret = rxe_pool_add_gfp(&rxe->ah_pool, &ah->elem,
			       init->flags & RDMA_CREATE_AH_SLEEPABLE ?
			       GFP_KERNEL : GFP_ATOMIC);
	if (ret)
		return ret;
	rxe_av_from_attr(&ah->av, init->ah_attr);
	/* older providers pass no room for the answer (6.1 the same) */
	if (udata && udata->outlen >= sizeof(resp)) {
		resp.ah_num = ah->elem.index;
		ret = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (ret) {
			rxe_pool_del(&ah->elem);
			return ret;
		}
	}
	return 0;
}

/*
 * Before an AH goes, the doorbells already rung on the datagram QPs of
 * its PD have run their look (rxe_req_drain_doorbell): WQEs posted to
 * the AH before its destroy still find it.  A destroy that may not sleep
 * (a kernel user's) does not wait; kernel posters run the requester
 * within post_send.
 */
static void rxe_ah_drain_doorbells(struct rxe_dev *rxe, struct ib_pd *pd)
{
	unsigned long index = 0;
	struct rxe_elem *elem;
	struct rxe_qp *qp;

	while ((elem = rxe_pool_get_next(&rxe->qp_pool, &index))) {
		qp = container_of(elem, struct rxe_qp, elem);
		if (qp->ibqp.pd == pd && qp->ibqp.qp_type == IB_QPT_UD)
			rxe_req_drain_doorbell(qp);
		rxe_elem_put(elem);
		index++;
	}
}

int rxe_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	if (flags & RDMA_DESTROY_AH_SLEEPABLE)
		rxe_ah_drain_doorbells(to_rdev(ibah->device), ibah->pd);
	rxe_pool_del(&to_rah(ibah)->elem);
	return 0;
}

struct rxe_ah *rxe_ah_lookup(struct rxe_dev *rxe, u32 ah_num)
{
	struct rxe_elem *elem = rxe_pool_get(&rxe->ah_pool, ah_num);

	return elem ? container_of(elem, struct rxe_ah, elem) : NULL;
}
