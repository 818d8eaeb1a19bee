// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle's verbs side: the device, one QP (RC, UC or UD) with its
// CQs and completion channel (and, with --srq, its shared receive queue),
// one MR over all buffers, and bringing the QP up towards the peer's
// QPN/PSN/GID.
#pragma once

#include "oracle.h"

#include <infiniband/verbs.h>

#include <string>

namespace oracle {

// What a side tells the other about itself (M_INFO).
struct PeerInfo {
	uint32_t qpn = 0;
	uint32_t psn = 0;
	ibv_gid gid{};
	uint64_t addr = 0;	// the MR
	uint32_t rkey = 0;
	uint64_t len = 0;
	uint32_t rd_atomic = 0;	// the max_dest_rd_atomic it gives its QP
};

struct Ib {
	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	ibv_comp_channel *ch = nullptr;
	ibv_cq *scq = nullptr, *rcq = nullptr;
	ibv_qp *qp = nullptr;
	ibv_qp_ex *qpx = nullptr;	// ATOMIC WRITE: the QP's ibv_wr_* interface
	ibv_srq *srq = nullptr;	// --srq: where the QP takes its receives from
	ibv_mr *mr = nullptr;
	ibv_ah *ah = nullptr;	// UD: the peer
	ibv_mw *mw = nullptr;	// SEND_WITH_INV: the window this side owns
	uint8_t *mem = nullptr;
	size_t mem_len = 0;
	bool odp = false;	// mr is ON_DEMAND (--odp)
	// the device says it executes ATOMIC WRITE (device_cap_flags_ex)
	bool atomic_write = false;

	std::string name;
	uint8_t port_num = 1;
	int gid_index = 0;
	ibv_device_attr dev{};
	ibv_port_attr port{};
	ibv_gid gid{};
	uint32_t gid_type = 0;	// IBV_GID_TYPE_*
	uint32_t max_inline = 0;
	uint32_t rd_atomic = 0;	// max_dest_rd_atomic of our QP
	uint32_t psn = 0;

	Ib() = default;
	Ib(const Ib &) = delete;
	Ib &operator=(const Ib &) = delete;
	~Ib();
};

uint32_t mtu_bytes(ibv_mtu m);
// 0 if @bytes is not a valid IB MTU
ibv_mtu mtu_enum(uint32_t bytes);

bool gid_is_v4(const ibv_gid &g);
std::string gid_str(const ibv_gid &g);

// Opens the device (@o.dev, or the only/first one), checks the port is
// active and the GID index valid; usage errors exit 2.
void ib_open(Ib &ib, const Options &o);
// PD, CQs, the QP (SQ and RQ of cfg.depth; --srq: an SRQ of cfg.depth
// instead of the RQ), @mem_len bytes of registered memory; MW_BIND access
// and a type-2 window if @want_mw.
void ib_setup(Ib &ib, const Config &cfg, size_t mem_len, bool want_mw);
// Posts receive @wr to the SRQ, if there is one, else to the QP; an errno.
int ib_post_recv(Ib &ib, ibv_recv_wr *wr);
// Arms the SRQ limit: IBV_EVENT_SRQ_LIMIT_REACHED once fewer than @limit
// receives are left; an errno.
int ib_srq_arm(Ib &ib, uint32_t limit);
PeerInfo ib_local(const Ib &ib);
// RESET -> INIT -> RTR -> RTS towards @peer (UD: an AH to its GID).
void ib_connect(Ib &ib, const Config &cfg, const PeerInfo &peer);
// The Q_Key of UD QPs.
uint32_t ud_qkey();

} // namespace oracle
