// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/sw/rxe/rxe_wr_ops.c, the send
// work request table: every opcode a QP type may post turns into packets
// the wire table (rxe_hdr.c) has, for that transport, at the right
// position in the message, with the kind the requester expects; and the
// opcodes rxe does not handle are refused.

#include "rxe_wr_ops.h"

#include <gtest/gtest.h>

#include <set>

namespace {

const u8 kTransport[] = {0, 0, RXE_TR_RC, RXE_TR_UC, RXE_TR_UD};

TEST(RxeWrOps, ExactlyTheHandledOpcodesExist) {
  const std::set<u32> want = {
      IB_UVERBS_WR_RDMA_WRITE, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
      IB_UVERBS_WR_SEND, IB_UVERBS_WR_SEND_WITH_IMM, IB_UVERBS_WR_RDMA_READ,
      IB_UVERBS_WR_ATOMIC_CMP_AND_SWP, IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
      IB_UVERBS_WR_LOCAL_INV, IB_UVERBS_WR_BIND_MW, IB_UVERBS_WR_SEND_WITH_INV,
      IB_UVERBS_WR_RDMA_READ_WITH_INV, RDMA_UVERBS_WR_FLUSH, RDMA_UVERBS_WR_ATOMIC_WRITE,
      RXE_WR_REG_MR,
  };
  for (u32 op = 0; op < 0x100; op++)
    EXPECT_EQ(rxe_wr_op(op) != nullptr, want.count(op) == 1) << op;
  EXPECT_EQ(rxe_wr_op(0xffffffffu), nullptr);
}

// every packet a posted opcode becomes is in the wire table, for its
// transport, a request, and at its position
TEST(RxeWrOps, PacketsExistOnTheWireAtTheirPosition) {
  for (u32 wr = 0; wr < 0x100; wr++) {
    const struct rxe_wr_op *op = rxe_wr_op(wr);
    if (!op)
      continue;
    bool any = false;
    u16 gaps = 0;
    // sent_types is within qp_types
    EXPECT_EQ(op->sent_types & ~op->qp_types, 0) << wr;
    for (int first = 0; first < 2; first++) {
      for (int last = 0; last < 2; last++) {
        int p = op->pkt[first][last];
        EXPECT_EQ(p, rxe_wr_pkt_op(wr, first, last));
        if (p == RXE_NO_PKT)
          continue;
        any = true;
        for (int qpt = IB_QPT_RC; qpt <= IB_QPT_UD; qpt++) {
          if (!(op->qp_types & RXE_QPT_BIT(qpt)))
            continue;
          const struct rxe_opcode_info *oi = rxe_opcode_info(
              RXE_OPCODE(kTransport[qpt], p));
          // UD has only the ONLY sends; SEND_WITH_INV goes as SEND_ONLY
          if (qpt == IB_QPT_UD && !(first && last))
            continue;
          if (qpt == IB_QPT_UD && wr == IB_UVERBS_WR_SEND_WITH_INV)
            continue;
          // a type that may post it but has not its packets: the
          // requester completes it in error (sent_types); no other gaps
          if (!(op->sent_types & RXE_QPT_BIT(qpt))) {
            if (oi == nullptr)
              gaps |= RXE_QPT_BIT(qpt);
            continue;
          }
          ASSERT_NE(oi, nullptr) << wr << " qpt " << qpt << " " << first << last;
          EXPECT_TRUE(oi->mask & RXE_REQ_MASK) << oi->name;
          EXPECT_EQ(!!(oi->mask & RXE_START_MASK), first == 1) << oi->name;
          EXPECT_EQ(!!(oi->mask & RXE_END_MASK), last == 1) << oi->name;
        }
      }
    }
    // every type left out of sent_types lacks one of its packets
    if (any) {
      EXPECT_EQ(gaps, op->qp_types & ~op->sent_types) << wr;
    }
    // local operations send nothing; the others have an ONLY packet
    EXPECT_EQ(any, op->kind != RXE_SWQE_LOCAL) << wr;
    if (any) {
      EXPECT_NE(op->pkt[1][1], RXE_NO_PKT) << wr;
    }
  }
}

// reads and atomics are one request packet, take a read credit and are
// RC's; everything else is neither
TEST(RxeWrOps, KindsAgreeWithFlagsAndQpTypes) {
  for (u32 wr = 0; wr < 0x100; wr++) {
    const struct rxe_wr_op *op = rxe_wr_op(wr);
    if (!op)
      continue;
    bool rd = op->kind == RXE_SWQE_READ || op->kind == RXE_SWQE_ATOMIC;
    EXPECT_EQ(!!(op->flags & RXE_WR_RD_CREDIT), rd) << wr;
    if (rd) {
      EXPECT_EQ(op->qp_types, RXE_QPT_BIT(IB_QPT_RC)) << wr;
      EXPECT_EQ(op->pkt[0][0], RXE_NO_PKT) << wr;
      EXPECT_EQ(op->pkt[1][0], RXE_NO_PKT) << wr;
      EXPECT_EQ(op->pkt[0][1], RXE_NO_PKT) << wr;
    }
    // inline data: sends and writes only; the 8-byte operand: atomic write
    EXPECT_EQ(!!(op->flags & RXE_WR_INLINE),
              op->kind == RXE_SWQE_SEND || op->kind == RXE_SWQE_WRITE) << wr;
    EXPECT_EQ(!!(op->flags & RXE_WR_VALUE8), wr == RDMA_UVERBS_WR_ATOMIC_WRITE) << wr;
    EXPECT_EQ(!!(op->flags & RXE_WR_EMPTY_RESP),
              wr == RDMA_UVERBS_WR_ATOMIC_WRITE || wr == RDMA_UVERBS_WR_FLUSH) << wr;
    EXPECT_EQ(!!(op->flags & RXE_WR_KERNEL), wr == RXE_WR_REG_MR) << wr;
  }
}

TEST(RxeWrOps, KnownEntries) {
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_SEND, true, true), RXE_OP_SEND_ONLY);
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_SEND, false, false), RXE_OP_SEND_MIDDLE);
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_SEND_WITH_IMM, false, true), RXE_OP_SEND_LAST_IMM);
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_SEND_WITH_INV, true, true), RXE_OP_SEND_ONLY_INV);
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_RDMA_WRITE, true, false), RXE_OP_WRITE_FIRST);
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_RDMA_WRITE_WITH_IMM, true, true),
            RXE_OP_WRITE_ONLY_IMM);
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_RDMA_READ, true, true), RXE_OP_READ_REQ);
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_ATOMIC_CMP_AND_SWP, true, true), RXE_OP_CMP_SWAP);
  EXPECT_EQ(rxe_wr_pkt_op(RDMA_UVERBS_WR_ATOMIC_WRITE, true, true), RXE_OP_ATOMIC_WRITE);
  EXPECT_EQ(rxe_wr_pkt_op(IB_UVERBS_WR_LOCAL_INV, true, true), RXE_NO_PKT);
  EXPECT_EQ(rxe_wr_op(RDMA_UVERBS_WR_ATOMIC_WRITE)->wc_opcode, RDMA_UVERBS_WC_ATOMIC_WRITE);
  EXPECT_EQ(rxe_wr_op(IB_UVERBS_WR_RDMA_READ_WITH_INV)->wc_opcode, IB_UVERBS_WC_RDMA_READ);
  EXPECT_EQ(rxe_wr_op(RXE_WR_REG_MR)->wc_opcode, RXE_WC_REG_MR);
  EXPECT_EQ(rxe_wr_pkt_op(RDMA_UVERBS_WR_FLUSH, true, true), RXE_OP_FLUSH);
  EXPECT_EQ(rxe_wr_op(RDMA_UVERBS_WR_FLUSH)->wc_opcode, RDMA_UVERBS_WC_FLUSH);
  EXPECT_EQ(rxe_wr_op(IB_UVERBS_WR_TSO), nullptr);
}

}  // namespace
