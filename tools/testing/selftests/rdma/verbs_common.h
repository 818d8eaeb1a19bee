// SPDX-License-Identifier: GPL-2.0
//
// Shared helpers of the verbs selftests (verbs_objects, verbs_churn): the
// device by name, its RoCEv2 GID, a QP brought up with itself as the peer.
#pragma once

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace verbs {

inline std::string env(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

// The device named $VERBS_DEV (default rxe0), opened; nullptr if absent.
inline ibv_context *open_dev()
{
	int n = 0;
	ibv_context *ctx = nullptr;
	ibv_device **list = ibv_get_device_list(&n);
	std::string want = env("VERBS_DEV", "rxe0");

	for (int i = 0; list && i < n; i++)
		if (want == ibv_get_device_name(list[i]))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

// The first valid RoCEv2 GID of port 1 (index, gid); -1 if none.
inline int roce_v2_gid(ibv_context *ctx, ibv_gid *gid)
{
	ibv_port_attr pa{};

	if (ibv_query_port(ctx, 1, &pa))
		return -1;
	for (int i = 0; i < pa.gid_tbl_len; i++) {
		ibv_gid_entry e{};
		if (ibv_query_gid_ex(ctx, 1, i, &e, 0))
			continue;
		if (e.gid_type != IBV_GID_TYPE_ROCE_V2)
			continue;
		*gid = e.gid;
		return i;
	}
	return -1;
}

// A GRH address vector to @gid through sgid @sgid_index (dest = itself).
inline ibv_ah_attr self_av(const ibv_gid &gid, int sgid_index)
{
	ibv_ah_attr av{};
	av.is_global = 1;
	av.grh.dgid = gid;
	av.grh.sgid_index = (uint8_t)sgid_index;
	av.grh.hop_limit = 1;
	av.port_num = 1;
	return av;
}

// Moves @qp (RC, UC or UD) RESET->INIT->RTR->RTS with itself as the
// peer; returns 0 or the errno of the first failing step.
inline int qp_to(ibv_qp *qp, ibv_qp_state target, const ibv_gid &gid, int sgid_index)
{
	ibv_qp_type t = qp->qp_type;
	ibv_qp_attr a{};
	int mask, ret;

	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	if (t == IBV_QPT_UD) {
		a.qkey = 0x11111111;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	if ((ret = ibv_modify_qp(qp, &a, mask)) || target == IBV_QPS_INIT)
		return ret;

	a = ibv_qp_attr{};
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (t != IBV_QPT_UD) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = qp->qp_num;
		a.rq_psn = 0;
		a.ah_attr = self_av(gid, sgid_index);
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	}
	if (t == IBV_QPT_RC) {
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 12;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if ((ret = ibv_modify_qp(qp, &a, mask)) || target == IBV_QPS_RTR)
		return ret;

	a = ibv_qp_attr{};
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (t == IBV_QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	return ibv_modify_qp(qp, &a, mask);
}

inline int qp_to_err(ibv_qp *qp)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_ERR;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE);
}

inline ibv_qp *make_qp(ibv_pd *pd, ibv_cq *cq, ibv_qp_type type, ibv_srq *srq = nullptr)
{
	ibv_qp_init_attr ia{};
	ia.send_cq = cq;
	ia.recv_cq = cq;
	ia.srq = srq;
	ia.qp_type = type;
	ia.cap.max_send_wr = 16;
	ia.cap.max_recv_wr = srq ? 0 : 16;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = srq ? 0 : 1;
	return ibv_create_qp(pd, &ia);
}

} // namespace verbs
