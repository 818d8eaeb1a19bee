// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for the per-command request checks of
// drivers/infiniband/core/uverbs_cmd_check.c (REG_MR access and range,
// REREG_MR flags, ALLOC_MW, CREATE_CQ, CREATE_QP, MODIFY_QP, CREATE_AH,
// SRQ, POST_SEND).  Expected errnos are upstream 6.1's for the same
// request (Documentation/core/uverbs.rst, "Commands").

#include "uverbs_cmd_check.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>

namespace {

constexpr uint64_t kPage = 4096;

// rxe's limits (upstream 6.1's rxe_param.h), one port.
uverbs_dev_limits Rxe() {
  uverbs_dev_limits l{};
  l.max_qp_wr = 1048576;
  l.max_send_sge = 32;
  l.max_recv_sge = 32;
  l.max_cqe = 32767;
  l.max_srq_wr = 1048576;
  l.max_srq_sge = 27;
  l.num_comp_vectors = 2;
  l.phys_port_cnt = 1;
  return l;
}

constexpr uint32_t kLocalWrite = IB_UVERBS_ACCESS_LOCAL_WRITE;
constexpr uint32_t kRemoteWrite = IB_UVERBS_ACCESS_REMOTE_WRITE;
constexpr uint32_t kRemoteRead = IB_UVERBS_ACCESS_REMOTE_READ;
constexpr uint32_t kRemoteAtomic = IB_UVERBS_ACCESS_REMOTE_ATOMIC;

TEST(UverbsMrAccess, LibibverbsCombinationsPass) {
  uint32_t out = 0;
  EXPECT_EQ(uverbs_check_mr_access(0, &out), 0);
  EXPECT_EQ(out, 0u);
  EXPECT_EQ(uverbs_check_mr_access(kLocalWrite, &out), 0);
  EXPECT_EQ(out, kLocalWrite);
  uint32_t rping = kLocalWrite | kRemoteRead | kRemoteWrite;
  EXPECT_EQ(uverbs_check_mr_access(rping, &out), 0);
  EXPECT_EQ(out, rping);
  EXPECT_EQ(uverbs_check_mr_access(kLocalWrite | kRemoteAtomic |
                                       IB_UVERBS_ACCESS_MW_BIND,
                                   &out),
            0);
  EXPECT_EQ(uverbs_check_mr_access(kRemoteRead, &out), 0);
}

TEST(UverbsMrAccess, RemoteWriteOrAtomicNeedLocalWrite) {
  uint32_t out = 0;
  EXPECT_EQ(uverbs_check_mr_access(kRemoteWrite, &out), -EINVAL);
  EXPECT_EQ(uverbs_check_mr_access(kRemoteAtomic, &out), -EINVAL);
  EXPECT_EQ(uverbs_check_mr_access(kRemoteWrite | kRemoteRead, &out), -EINVAL);
}

TEST(UverbsMrAccess, UnknownBits) {
  uint32_t out = 0;
  EXPECT_EQ(uverbs_check_mr_access(1u << 10, &out), -EINVAL);
  EXPECT_EQ(uverbs_check_mr_access(1u << 19, &out), -EINVAL);
  EXPECT_EQ(uverbs_check_mr_access(1u << 30, &out), -EINVAL);
  EXPECT_EQ(uverbs_check_mr_access(1u << 31, &out), -EINVAL);
}

// on-demand paging is a known bit: whether the device pages on demand
// is ib_core's question (EOPNOTSUPP there without IBK_ON_DEMAND_PAGING)
TEST(UverbsMrAccess, OnDemandPasses) {
  uint32_t out = 0;
  EXPECT_EQ(uverbs_check_mr_access(kLocalWrite | IB_UVERBS_ACCESS_ON_DEMAND,
                                   &out),
            0);
  EXPECT_EQ(out, kLocalWrite | IB_UVERBS_ACCESS_ON_DEMAND);
  EXPECT_EQ(uverbs_check_mr_access(IB_UVERBS_ACCESS_ON_DEMAND |
                                       IB_UVERBS_ACCESS_REMOTE_WRITE,
                                   &out),
            -EINVAL);
}

// FLUSH targets (IBTA 1.5, bits 8 and 9) are known; whether the device
// can serve them is ib_core's question (EOPNOTSUPP there)
TEST(UverbsMrAccess, FlushTargetsPass) {
  uint32_t out = 0;
  EXPECT_EQ(uverbs_check_mr_access(kLocalWrite | (1u << 8), &out), 0);
  EXPECT_EQ(out, kLocalWrite | (1u << 8));
  EXPECT_EQ(uverbs_check_mr_access((1u << 8) | (1u << 9), &out), 0);
}

TEST(UverbsMrAccess, OptionalRangeIsDropped) {
  uint32_t out = 0;
  // perftest: LOCAL_WRITE | REMOTE_WRITE | RELAXED_ORDERING
  EXPECT_EQ(uverbs_check_mr_access(kLocalWrite | kRemoteWrite |
                                       IB_UVERBS_ACCESS_RELAXED_ORDERING,
                                   &out),
            0);
  EXPECT_EQ(out, kLocalWrite | kRemoteWrite);
  for (int bit = 20; bit <= 29; bit++) {
    EXPECT_EQ(uverbs_check_mr_access(1u << bit, &out), 0) << bit;
    EXPECT_EQ(out, 0u) << bit;
  }
}

TEST(UverbsMrRange, Valid) {
  EXPECT_EQ(uverbs_check_mr_range(0x10000, 4096, 0x10000, kPage), 0);
  EXPECT_EQ(uverbs_check_mr_range(0x10123, 1, 0x7770123, kPage), 0);
  EXPECT_EQ(uverbs_check_mr_range(0x10000, UINT64_MAX - 0x10000, 0x10000,
                                  kPage),
            0);
}

TEST(UverbsMrRange, ZeroLengthWrapAndOffsetMismatch) {
  EXPECT_EQ(uverbs_check_mr_range(0x10000, 0, 0x10000, kPage), -EINVAL);
  EXPECT_EQ(uverbs_check_mr_range(UINT64_MAX - 10, 100, 0x1000 - 11, kPage),
            -EINVAL);
  EXPECT_EQ(uverbs_check_mr_range(0x1fcd, 100, UINT64_MAX - 50, kPage),
            -EINVAL);
  EXPECT_EQ(uverbs_check_mr_range(0x10010, 64, 0x10020, kPage), -EINVAL);
  EXPECT_EQ(uverbs_check_mr_range(0x10000, 64, 0x20010, kPage), -EINVAL);
}

TEST(UverbsReregMr, Flags) {
  EXPECT_EQ(uverbs_check_rereg_mr(0, 0, 0, 0, kPage), -EINVAL);
  EXPECT_EQ(uverbs_check_rereg_mr(8, 0, 0, 0, kPage), -EINVAL);
  // PD or ACCESS alone: the range is not looked at
  EXPECT_EQ(uverbs_check_rereg_mr(2, 0, 0, 0, kPage), 0);
  EXPECT_EQ(uverbs_check_rereg_mr(4, 0, 0, 0, kPage), 0);
  EXPECT_EQ(uverbs_check_rereg_mr(1, 0x1000, 4096, 0x1000, kPage), 0);
  EXPECT_EQ(uverbs_check_rereg_mr(1, 0, 4096, 0x1000, kPage), -EINVAL);
  EXPECT_EQ(uverbs_check_rereg_mr(1, 0x1000, 4096, 0, kPage), -EINVAL);
  EXPECT_EQ(uverbs_check_rereg_mr(1, 0x1000, 0, 0x1000, kPage), -EINVAL);
  EXPECT_EQ(uverbs_check_rereg_mr(7, 0x1008, 16, 0x2000, kPage), -EINVAL);
}

TEST(UverbsAllocMw, TypesAndReserved) {
  ib_uverbs_alloc_mw cmd{};
  cmd.mw_type = 1;
  EXPECT_EQ(uverbs_check_alloc_mw(&cmd), 0);
  cmd.mw_type = 2;
  EXPECT_EQ(uverbs_check_alloc_mw(&cmd), 0);
  cmd.mw_type = 0;
  EXPECT_EQ(uverbs_check_alloc_mw(&cmd), -EINVAL);
  cmd.mw_type = 3;
  EXPECT_EQ(uverbs_check_alloc_mw(&cmd), -EINVAL);
  cmd.mw_type = 2;
  cmd.reserved[1] = 1;
  EXPECT_EQ(uverbs_check_alloc_mw(&cmd), -EINVAL);
}

TEST(UverbsCreateCq, EntriesAndVectors) {
  auto l = Rxe();
  EXPECT_EQ(uverbs_check_create_cq(1, 0, &l), 0);
  EXPECT_EQ(uverbs_check_create_cq(32767, 1, &l), 0);
  EXPECT_EQ(uverbs_check_create_cq(0, 0, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_cq(32768, 0, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_cq(0x80000000u, 0, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_cq(100, 2, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_cq(100, UINT32_MAX, &l), -EINVAL);
}

TEST(UverbsCreateCq, ExtendedFields) {
  ib_uverbs_ex_create_cq cmd{};
  EXPECT_EQ(uverbs_check_ex_create_cq(&cmd), 0);
  cmd.comp_mask = 1;
  EXPECT_EQ(uverbs_check_ex_create_cq(&cmd), -EINVAL);
  cmd.comp_mask = 0;
  cmd.reserved = 1;
  EXPECT_EQ(uverbs_check_ex_create_cq(&cmd), -EINVAL);
  cmd.reserved = 0;
  cmd.flags = 1;  // completion timestamps
  EXPECT_EQ(uverbs_check_ex_create_cq(&cmd), -EOPNOTSUPP);
}

ib_uverbs_qp_cap Cap(uint32_t swr, uint32_t rwr, uint32_t ssge, uint32_t rsge) {
  ib_uverbs_qp_cap c{};
  c.max_send_wr = swr;
  c.max_recv_wr = rwr;
  c.max_send_sge = ssge;
  c.max_recv_sge = rsge;
  return c;
}

TEST(UverbsCreateQp, Types) {
  auto l = Rxe();
  auto c = Cap(16, 16, 1, 1);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_RC, false, &c, &l), 0);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_UC, false, &c, &l), 0);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_UD, false, &c, &l), 0);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_XRC_INI, false, &c, &l),
            -EOPNOTSUPP);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_RAW_PACKET, false, &c, &l),
            -EOPNOTSUPP);
  EXPECT_EQ(uverbs_check_create_qp(0, false, &c, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_qp(1, false, &c, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_qp(5, false, &c, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_qp(0xfe, false, &c, &l), -EINVAL);
}

TEST(UverbsCreateQp, CapsWithinTheDevice) {
  auto l = Rxe();
  auto c = Cap(1048576, 1048576, 32, 32);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_RC, false, &c, &l), 0);
  c = Cap(1048577, 1, 1, 1);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_RC, false, &c, &l), -EINVAL);
  c = Cap(1, 1048577, 1, 1);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_RC, false, &c, &l), -EINVAL);
  c = Cap(1, 1, 33, 1);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_RC, false, &c, &l), -EINVAL);
  c = Cap(1, 1, 1, 33);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_UD, false, &c, &l), -EINVAL);
  // on an SRQ the receive caps are not the QP's
  c = Cap(1, UINT32_MAX, 1, UINT32_MAX);
  EXPECT_EQ(uverbs_check_create_qp(IB_UVERBS_QPT_RC, true, &c, &l), 0);
}

TEST(UverbsCreateQp, ExtendedFields) {
  ib_uverbs_ex_create_qp cmd{};
  EXPECT_EQ(uverbs_check_ex_create_qp(&cmd), 0);
  cmd.create_flags = IB_UVERBS_QP_CREATE_SCATTER_FCS;
  EXPECT_EQ(uverbs_check_ex_create_qp(&cmd), 0);
  cmd.create_flags = IB_UVERBS_QP_CREATE_SQ_SIG_ALL;  // ioctl only
  EXPECT_EQ(uverbs_check_ex_create_qp(&cmd), -EINVAL);
  cmd.create_flags = 0;
  cmd.reserved = 1;
  EXPECT_EQ(uverbs_check_ex_create_qp(&cmd), -EINVAL);
  cmd.reserved = 0;
  cmd.comp_mask = 2;
  EXPECT_EQ(uverbs_check_ex_create_qp(&cmd), -EINVAL);
  cmd.comp_mask = IB_UVERBS_CREATE_QP_MASK_IND_TABLE;
  EXPECT_EQ(uverbs_check_ex_create_qp(&cmd), -EOPNOTSUPP);
}

ib_uverbs_modify_qp Modify(uint32_t mask, uint8_t state) {
  ib_uverbs_modify_qp m{};
  m.attr_mask = mask;
  m.qp_state = state;
  return m;
}

TEST(UverbsModifyQp, PingpongSequence) {
  auto l = Rxe();
  uint32_t mask = 0;
  auto m = Modify(IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
                      IB_QP_ACCESS_FLAGS,
                  IB_QPS_INIT);
  m.port_num = 1;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 0, &l, &mask), 0);
  EXPECT_EQ(mask, m.attr_mask);
  m = Modify(IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
                 IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER,
             IB_QPS_RTR);
  m.dest.port_num = 1;
  m.dest.is_global = 1;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), 0);
  EXPECT_EQ(mask, m.attr_mask);  // RTR: the port is not implied
  m = Modify(IB_QP_STATE | IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
                 IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC,
             IB_QPS_RTS);
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), 0);
}

TEST(UverbsModifyQp, MaskBeyondStandardBits) {
  auto l = Rxe();
  uint32_t mask = 0;
  auto m = Modify(IB_QP_STATE | IB_QP_RATE_LIMIT, IB_QPS_RTS);
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EOPNOTSUPP);
  EXPECT_EQ(uverbs_check_modify_qp(&m, true, 1, &l, &mask), 0);
  for (int bit = 21; bit < 32; bit++) {
    if (bit == 25)
      continue;
    m = Modify(1u << bit, 0);
    EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EOPNOTSUPP)
        << bit;
    EXPECT_EQ(uverbs_check_modify_qp(&m, true, 1, &l, &mask), -EOPNOTSUPP)
        << bit;
  }
}

TEST(UverbsModifyQp, StatesAndPorts) {
  auto l = Rxe();
  uint32_t mask = 0;
  auto m = Modify(IB_QP_STATE, IB_QPS_ERR + 1);
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EINVAL);
  m = Modify(IB_QP_STATE | IB_QP_CUR_STATE, IB_QPS_ERR);
  m.cur_qp_state = 200;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EINVAL);
  m = Modify(IB_QP_STATE | IB_QP_PORT, IB_QPS_INIT);
  m.port_num = 0;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 0, &l, &mask), -EINVAL);
  m.port_num = 2;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 0, &l, &mask), -EINVAL);
  m = Modify(IB_QP_STATE | IB_QP_AV, IB_QPS_RTR);
  m.dest.port_num = 2;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EINVAL);
}

TEST(UverbsModifyQp, AddressVectorPortRules) {
  auto l = Rxe();
  l.phys_port_cnt = 2;
  uint32_t mask = 0;
  // INIT->RTR: the path must be on the QP's port
  auto m = Modify(IB_QP_STATE | IB_QP_AV, IB_QPS_RTR);
  m.dest.port_num = 2;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EINVAL);
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 2, &l, &mask), 0);
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 0, &l, &mask), 0);
  // SQD->SQD with both: they must agree
  m = Modify(IB_QP_AV | IB_QP_PORT, 0);
  m.dest.port_num = 2;
  m.port_num = 1;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EINVAL);
  // AV alone outside RTR implies the port
  m = Modify(IB_QP_AV, 0);
  m.dest.port_num = 2;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), 0);
  EXPECT_EQ(mask, static_cast<uint32_t>(IB_QP_AV | IB_QP_PORT));
  EXPECT_EQ(m.port_num, 2);
}

TEST(UverbsModifyQp, AlternatePathAndQkey) {
  auto l = Rxe();
  uint32_t mask = 0;
  auto m = Modify(IB_QP_ALT_PATH, 0);
  m.alt_port_num = 1;
  m.alt_dest.port_num = 1;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), 0);
  m.alt_dest.port_num = 0;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EINVAL);
  m.alt_port_num = 0;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EINVAL);
  m = Modify(IB_QP_STATE | IB_QP_QKEY, IB_QPS_INIT);
  m.qkey = 0x11111111;  // ud_pingpong
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), 0);
  m.qkey = 0x80010000;
  EXPECT_EQ(uverbs_check_modify_qp(&m, false, 1, &l, &mask), -EPERM);
}

TEST(UverbsAh, Port) {
  auto l = Rxe();
  ib_uverbs_ah_attr a{};
  a.port_num = 1;
  a.is_global = 1;
  EXPECT_EQ(uverbs_check_ah_attr(&a, &l), 0);
  a.port_num = 0;
  EXPECT_EQ(uverbs_check_ah_attr(&a, &l), -EINVAL);
  a.port_num = 2;
  EXPECT_EQ(uverbs_check_ah_attr(&a, &l), -EINVAL);
}

TEST(UverbsSrq, CreateAndModify) {
  auto l = Rxe();
  EXPECT_EQ(uverbs_check_create_srq(500, 1, &l), 0);
  EXPECT_EQ(uverbs_check_create_srq(1048576, 27, &l), 0);
  EXPECT_EQ(uverbs_check_create_srq(0, 1, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_srq(1048577, 1, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_create_srq(16, 28, &l), -EINVAL);
  EXPECT_EQ(uverbs_check_modify_srq(0), 0);
  EXPECT_EQ(uverbs_check_modify_srq(1), 0);
  EXPECT_EQ(uverbs_check_modify_srq(3), 0);
  EXPECT_EQ(uverbs_check_modify_srq(4), -EINVAL);
}

TEST(UverbsPostSend, OnlyTheDoorbell) {
  ib_uverbs_post_send cmd{};
  cmd.wqe_size = 128;  // librxe: sizeof(struct ibv_send_wr)
  EXPECT_EQ(uverbs_check_post_send(&cmd), 0);
  cmd.wqe_size = sizeof(ib_uverbs_send_wr);
  EXPECT_EQ(uverbs_check_post_send(&cmd), 0);
  cmd.wqe_size = sizeof(ib_uverbs_send_wr) - 1;
  EXPECT_EQ(uverbs_check_post_send(&cmd), -EINVAL);
  cmd.wqe_size = 128;
  cmd.wr_count = 1;
  EXPECT_EQ(uverbs_check_post_send(&cmd), -EOPNOTSUPP);
  cmd.wr_count = 0;
  cmd.sge_count = 1;
  EXPECT_EQ(uverbs_check_post_send(&cmd), -EOPNOTSUPP);
}

}  // namespace
