// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle: device, QP, MR, connection (see oracle_ib.h).
#include "oracle_ib.h"

#include <arpa/inet.h>
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace oracle {

static const uint32_t QKEY = 0x1eacf00d;	// UD; the top bit (controlled) clear

Ib::~Ib()
{
	// the window before the QP: upstream 6.1 frees the QP's memory under
	// a window still bound through it (see verbs-differences.rst)
	if (mw)
		ibv_dealloc_mw(mw);
	if (qp)
		ibv_destroy_qp(qp);
	if (srq)
		ibv_destroy_srq(srq);
	if (ah)
		ibv_destroy_ah(ah);
	if (mr)
		ibv_dereg_mr(mr);
	if (scq)
		ibv_destroy_cq(scq);
	if (rcq)
		ibv_destroy_cq(rcq);
	if (ch)
		ibv_destroy_comp_channel(ch);
	if (pd)
		ibv_dealloc_pd(pd);
	if (ctx)
		ibv_close_device(ctx);
	free(mem);
}

uint32_t mtu_bytes(ibv_mtu m)
{
	switch (m) {
	case IBV_MTU_256:
		return 256;
	case IBV_MTU_512:
		return 512;
	case IBV_MTU_1024:
		return 1024;
	case IBV_MTU_2048:
		return 2048;
	case IBV_MTU_4096:
		return 4096;
	}
	return 0;
}

ibv_mtu mtu_enum(uint32_t bytes)
{
	for (ibv_mtu m : { IBV_MTU_256, IBV_MTU_512, IBV_MTU_1024, IBV_MTU_2048, IBV_MTU_4096 })
		if (mtu_bytes(m) == bytes)
			return m;
	return (ibv_mtu)0;
}

bool gid_is_v4(const ibv_gid &g)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return !memcmp(g.raw, mapped, sizeof(mapped));
}

std::string gid_str(const ibv_gid &g)
{
	char s[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, g.raw, s, sizeof(s));
	return s;
}

static void nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void ib_open(Ib &ib, const Options &o)
{
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	if (!list)
		die(EXIT_ERROR, "ibv_get_device_list: %s", strerror(errno));
	ibv_device *dev = nullptr;
	for (int i = 0; i < n && !dev; i++)
		if (o.dev.empty() || o.dev == ibv_get_device_name(list[i]))
			dev = list[i];
	if (!dev) {
		ibv_free_device_list(list);
		if (o.dev.empty())
			die(EXIT_ERROR, "no RDMA device");
		usage_error("no RDMA device named %s", o.dev.c_str());
	}
	ib.name = ibv_get_device_name(dev);
	ib.odp = o.odp;
	ib.ctx = ibv_open_device(dev);
	ibv_free_device_list(list);
	if (!ib.ctx)
		die(EXIT_ERROR, "ibv_open_device %s: %s", ib.name.c_str(), strerror(errno));
	nonblock(ib.ctx->async_fd);

	ib.port_num = (uint8_t)o.ib_port;
	ib.gid_index = o.gid_index;
	if (int e = ibv_query_device(ib.ctx, &ib.dev))
		die(EXIT_ERROR, "ibv_query_device %s: %s", ib.name.c_str(), strerror(e));
	{
		// IB_UVERBS_DEVICE_ATOMIC_WRITE (Linux 6.2 uapi; v44 has no name)
		const uint64_t cap_atomic_write = 1ull << 40;
		ibv_device_attr_ex ax{};
		if (ibv_query_device_ex(ib.ctx, nullptr, &ax))
			die(EXIT_ERROR, "ibv_query_device_ex %s: %s", ib.name.c_str(), strerror(errno));
		ib.atomic_write = ax.device_cap_flags_ex & cap_atomic_write;
	}
	if (o.ib_port < 1 || o.ib_port > ib.dev.phys_port_cnt)
		usage_error("%s has no port %d", ib.name.c_str(), o.ib_port);
	if (int e = ibv_query_port(ib.ctx, ib.port_num, &ib.port))
		die(EXIT_ERROR, "ibv_query_port %s %d: %s", ib.name.c_str(), o.ib_port, strerror(e));
	if (ib.port.state != IBV_PORT_ACTIVE)
		die(EXIT_ERROR, "%s port %d is %s, not ACTIVE", ib.name.c_str(), o.ib_port,
		    ibv_port_state_str(ib.port.state));
	static const ibv_gid zero{};
	if (o.gid_index < 0 || o.gid_index >= ib.port.gid_tbl_len ||
	    ibv_query_gid(ib.ctx, ib.port_num, o.gid_index, &ib.gid) ||
	    !memcmp(&ib.gid, &zero, sizeof(zero)))
		usage_error("%s port %d has no GID at index %d (-g)", ib.name.c_str(), o.ib_port,
			    o.gid_index);
	ibv_gid_entry e{};
	if (!ibv_query_gid_ex(ib.ctx, ib.port_num, (uint32_t)o.gid_index, &e, 0))
		ib.gid_type = e.gid_type;
}

void ib_setup(Ib &ib, const Config &cfg, size_t mem_len, bool want_mw)
{
	static const ibv_qp_type types[QPT_COUNT] = { IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD };

	ib.pd = ibv_alloc_pd(ib.ctx);
	ib.ch = ibv_create_comp_channel(ib.ctx);
	if (!ib.pd || !ib.ch)
		die(EXIT_ERROR, "ibv_alloc_pd/ibv_create_comp_channel: %s", strerror(errno));
	nonblock(ib.ch->fd);
	int cqe = (int)(2 * cfg.depth + 8);
	ib.scq = ibv_create_cq(ib.ctx, cqe, nullptr, ib.ch, 0);
	ib.rcq = ibv_create_cq(ib.ctx, cqe, nullptr, ib.ch, 0);
	if (!ib.scq || !ib.rcq)
		die(EXIT_ERROR, "ibv_create_cq (%d entries): %s", cqe, strerror(errno));

	if (cfg.srq) {
		ibv_srq_init_attr sa{};
		sa.attr.max_wr = cfg.depth;
		sa.attr.max_sge = cfg.sge;
		ib.srq = ibv_create_srq(ib.pd, &sa);
		if (!ib.srq)
			die(EXIT_ERROR, "ibv_create_srq (depth %u, sge %u): %s", cfg.depth, cfg.sge,
			    strerror(errno));
	}

	// as much inline data as the device gives
	for (uint32_t inl : { 256u, 128u, 64u, 0u }) {
		ibv_qp_init_attr ia{};
		ia.send_cq = ib.scq;
		ia.recv_cq = ib.rcq;
		ia.srq = ib.srq;
		ia.qp_type = types[cfg.qpt];
		ia.cap.max_send_wr = cfg.depth;
		ia.cap.max_recv_wr = ib.srq ? 0 : cfg.depth;
		ia.cap.max_send_sge = cfg.sge;
		ia.cap.max_recv_sge = ib.srq ? 0 : cfg.sge;
		ia.cap.max_inline_data = inl;
		if (cfg.ops & (1u << OP_ATOMIC_WRITE | 1u << OP_AW_REFUSED)) {
			/* ibv_wr_atomic_write() needs an extended QP */
			ibv_qp_init_attr_ex ix{};
			memcpy(&ix, &ia, sizeof(ia));
			ix.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
			ix.pd = ib.pd;
			ix.send_ops_flags = IBV_QP_EX_WITH_ATOMIC_WRITE;
			ib.qp = ibv_create_qp_ex(ib.ctx, &ix);
			if (ib.qp)
				ib.qpx = ibv_qp_to_qp_ex(ib.qp);
			ia.cap = ix.cap;
		} else {
			ib.qp = ibv_create_qp(ib.pd, &ia);
		}
		if (ib.qp) {
			ib.max_inline = ia.cap.max_inline_data;
			break;
		}
	}
	if (!ib.qp)
		die(EXIT_ERROR, "ibv_create_qp (%s, depth %u, sge %u%s): %s", qpt_name[cfg.qpt],
		    cfg.depth, cfg.sge, ib.srq ? ", on an SRQ" : "", strerror(errno));

	ib.mem_len = mem_len;
	if (posix_memalign((void **)&ib.mem, 4096, mem_len))
		die(EXIT_ERROR, "out of memory (%zu bytes)", mem_len);
	memset(ib.mem, 0, mem_len);
	unsigned int access = IBV_ACCESS_LOCAL_WRITE;
	if (cfg.qpt != QPT_UD)
		access |= IBV_ACCESS_REMOTE_WRITE;
	if (cfg.qpt == QPT_RC)
		access |= IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	if (want_mw)
		access |= IBV_ACCESS_MW_BIND;
	if (ib.odp) {
		ibv_device_attr_ex ax{};
		if (ibv_query_device_ex(ib.ctx, nullptr, &ax))
			die(EXIT_ERROR, "ibv_query_device_ex: %s", strerror(errno));
		const uint32_t caps[QPT_COUNT] = { ax.odp_caps.per_transport_caps.rc_odp_caps,
						    ax.odp_caps.per_transport_caps.uc_odp_caps,
						    ax.odp_caps.per_transport_caps.ud_odp_caps };
		if (!(ax.odp_caps.general_caps & IBV_ODP_SUPPORT) ||
		    !(caps[cfg.qpt] & IBV_ODP_SUPPORT_SEND))
			usage_error("%s has no on-demand paging for %s (--odp)", ib.name.c_str(),
				    qpt_name[cfg.qpt]);
		access |= IBV_ACCESS_ON_DEMAND;
	}
	ib.mr = ibv_reg_mr(ib.pd, ib.mem, mem_len, access);
	if (!ib.mr)
		die(EXIT_ERROR, "ibv_reg_mr (%zu bytes): %s", mem_len, strerror(errno));
	if (want_mw) {
		ib.mw = ibv_alloc_mw(ib.pd, IBV_MW_TYPE_2);
		if (!ib.mw)
			die(EXIT_ERROR, "ibv_alloc_mw (type 2): %s", strerror(errno));
	}
	ib.rd_atomic = cfg.qpt == QPT_RC ?
			       std::max(1u, std::min(cfg.depth, (uint32_t)ib.dev.max_qp_rd_atom)) :
			       0;
}

int ib_post_recv(Ib &ib, ibv_recv_wr *wr)
{
	ibv_recv_wr *bad = nullptr;
	return ib.srq ? ibv_post_srq_recv(ib.srq, wr, &bad) : ibv_post_recv(ib.qp, wr, &bad);
}

int ib_srq_arm(Ib &ib, uint32_t limit)
{
	ibv_srq_attr a{};
	a.srq_limit = limit;
	return ibv_modify_srq(ib.srq, &a, IBV_SRQ_LIMIT);
}

PeerInfo ib_local(const Ib &ib)
{
	PeerInfo p;
	p.qpn = ib.qp->qp_num;
	p.psn = ib.psn;
	p.gid = ib.gid;
	p.addr = (uint64_t)(uintptr_t)ib.mem;
	p.rkey = ib.mr->rkey;
	p.len = ib.mem_len;
	p.rd_atomic = ib.rd_atomic;
	return p;
}

void ib_connect(Ib &ib, const Config &cfg, const PeerInfo &peer)
{
	ibv_ah_attr av{};
	av.is_global = 1;
	av.grh.dgid = peer.gid;
	av.grh.sgid_index = (uint8_t)ib.gid_index;
	av.grh.hop_limit = 64;
	av.port_num = ib.port_num;

	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = ib.port_num;
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	if (cfg.qpt == QPT_UD) {
		a.qkey = QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
		if (cfg.qpt == QPT_RC)
			a.qp_access_flags |= IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	if (int e = ibv_modify_qp(ib.qp, &a, mask))
		die(EXIT_ERROR, "QP to INIT: %s", strerror(e));

	a = ibv_qp_attr{};
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (cfg.qpt != QPT_UD) {
		a.path_mtu = mtu_enum(cfg.mtu);
		a.dest_qp_num = peer.qpn;
		a.rq_psn = peer.psn;
		a.ah_attr = av;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	}
	if (cfg.qpt == QPT_RC) {
		a.max_dest_rd_atomic = (uint8_t)ib.rd_atomic;
		a.min_rnr_timer = 12;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if (int e = ibv_modify_qp(ib.qp, &a, mask))
		die(EXIT_ERROR, "QP to RTR (peer QPN 0x%x PSN 0x%x GID %s, MTU %u): %s", peer.qpn,
		    peer.psn, gid_str(peer.gid).c_str(), cfg.mtu, strerror(e));

	a = ibv_qp_attr{};
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = ib.psn;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (cfg.qpt == QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = (uint8_t)std::max(
			1u, std::min({ cfg.depth, (uint32_t)ib.dev.max_qp_init_rd_atom,
				       peer.rd_atomic }));
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	if (int e = ibv_modify_qp(ib.qp, &a, mask))
		die(EXIT_ERROR, "QP to RTS: %s", strerror(e));

	if (cfg.qpt == QPT_UD) {
		ib.ah = ibv_create_ah(ib.pd, &av);
		if (!ib.ah)
			die(EXIT_ERROR, "ibv_create_ah to %s: %s", gid_str(peer.gid).c_str(),
			    strerror(errno));
	}
}

uint32_t ud_qkey()
{
	return QKEY;
}

} // namespace oracle
