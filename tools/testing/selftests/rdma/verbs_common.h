// SPDX-License-Identifier: GPL-2.0
//
// Shared helpers of the verbs selftests (verbs_objects, verbs_churn,
// datapath): the device by name, its RoCEv2 GIDs, a QP brought up with
// itself (or another QP) as the peer, async events.
#pragma once

#include <infiniband/verbs.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

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

inline bool gid_is_v4(const ibv_gid &g)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return !memcmp(g.raw, mapped, sizeof(mapped));
}

// The first valid RoCEv2 GID of port 1 of address family @af (AF_INET:
// IPv4-mapped; AF_INET6: a non-link-local one if there is one, else
// link-local; AF_UNSPEC: any) as (index, gid); -1 if none.
inline int roce_v2_gid(ibv_context *ctx, ibv_gid *gid, int af = AF_UNSPEC)
{
	ibv_port_attr pa{};
	int link_local = -1;

	if (ibv_query_port(ctx, 1, &pa))
		return -1;
	for (int i = 0; i < pa.gid_tbl_len; i++) {
		ibv_gid_entry e{};
		if (ibv_query_gid_ex(ctx, 1, i, &e, 0))
			continue;
		if (e.gid_type != IBV_GID_TYPE_ROCE_V2)
			continue;
		if ((af == AF_INET && !gid_is_v4(e.gid)) || (af == AF_INET6 && gid_is_v4(e.gid)))
			continue;
		if (af == AF_INET6 && e.gid.raw[0] == 0xfe && (e.gid.raw[1] & 0xc0) == 0x80) {
			if (link_local < 0) {
				link_local = i;
				*gid = e.gid;
			}
			continue;
		}
		*gid = e.gid;
		return i;
	}
	return link_local;
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

// The connection attributes qp_to() sets; the defaults connect a QP to
// itself.
struct qp_opts {
	uint32_t dest_qpn = 0;	// 0: the QP itself
	ibv_mtu mtu = IBV_MTU_1024;
	unsigned int access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	uint32_t qkey = 0x11111111;
	uint8_t min_rnr_timer = 12;
	uint8_t timeout = 14;
	uint8_t retry_cnt = 7;
	uint8_t rnr_retry = 7;
	uint8_t rd_atomic = 1;	// max_rd_atomic and max_dest_rd_atomic
};

// Moves @qp (RC, UC or UD) RESET->INIT->RTR->RTS with itself (or
// @o.dest_qpn) as the peer at @gid; returns 0 or the errno of the first
// failing step.
inline int qp_to(ibv_qp *qp, ibv_qp_state target, const ibv_gid &gid, int sgid_index,
		 const qp_opts &o = qp_opts{})
{
	ibv_qp_type t = qp->qp_type;
	ibv_qp_attr a{};
	int mask, ret;

	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	if (t == IBV_QPT_UD) {
		a.qkey = o.qkey;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = o.access;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	if ((ret = ibv_modify_qp(qp, &a, mask)) || target == IBV_QPS_INIT)
		return ret;

	a = ibv_qp_attr{};
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (t != IBV_QPT_UD) {
		a.path_mtu = o.mtu;
		a.dest_qp_num = o.dest_qpn ? o.dest_qpn : qp->qp_num;
		a.rq_psn = 0;
		a.ah_attr = self_av(gid, sgid_index);
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	}
	if (t == IBV_QPT_RC) {
		a.max_dest_rd_atomic = o.rd_atomic;
		a.min_rnr_timer = o.min_rnr_timer;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if ((ret = ibv_modify_qp(qp, &a, mask)) || target == IBV_QPS_RTR)
		return ret;

	a = ibv_qp_attr{};
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (t == IBV_QPT_RC) {
		a.timeout = o.timeout;
		a.retry_cnt = o.retry_cnt;
		a.rnr_retry = o.rnr_retry;
		a.max_rd_atomic = o.rd_atomic;
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

// Create attributes of a QP of @type on @cq (send and receive) with
// @send_wr / @recv_wr WRs of @sge SGEs each.
inline ibv_qp_init_attr qp_init(ibv_cq *cq, ibv_qp_type type, uint32_t send_wr,
				uint32_t recv_wr, uint32_t sge = 1)
{
	ibv_qp_init_attr ia{};
	ia.send_cq = cq;
	ia.recv_cq = cq;
	ia.qp_type = type;
	ia.cap.max_send_wr = send_wr;
	ia.cap.max_recv_wr = recv_wr;
	ia.cap.max_send_sge = sge;
	ia.cap.max_recv_sge = recv_wr ? sge : 0;
	return ia;
}

inline ibv_qp *make_qp(ibv_pd *pd, ibv_cq *cq, ibv_qp_type type, ibv_srq *srq = nullptr)
{
	ibv_qp_init_attr ia = qp_init(cq, type, 16, srq ? 0 : 16);
	ia.srq = srq;
	return ibv_create_qp(pd, &ia);
}

// Waits up to @ms for an async event; acks it and returns its type (and
// the event in @out), or -1.
inline int async_event(ibv_context *ctx, int ms, ibv_async_event *out = nullptr)
{
	pollfd p{};
	p.fd = ctx->async_fd;
	p.events = POLLIN;
	int flags = fcntl(ctx->async_fd, F_GETFL);
	fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK);
	if (poll(&p, 1, ms) != 1)
		return -1;
	ibv_async_event ev{};
	if (ibv_get_async_event(ctx, &ev))
		return -1;
	int t = ev.event_type;
	if (out)
		*out = ev;
	ibv_ack_async_event(&ev);
	return t;
}

} // namespace verbs
