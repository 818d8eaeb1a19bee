// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite of the requester's pure parts: path MTU and segmentation
 * of a message into packets, the opcode of each packet position, the
 * SGE cursor used for retransmissions and read responses, the RNR timer
 * table and the local ACK timeout.
 */
#include <kunit/test.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

static void rxe_kunit_req_segments(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rxe_mtu_bytes(IB_MTU_256), 256U);
	KUNIT_EXPECT_EQ(test, rxe_mtu_bytes(IB_MTU_1024), 1024U);
	KUNIT_EXPECT_EQ(test, rxe_mtu_bytes(IB_MTU_4096), 4096U);
	/* out-of-range enums are clamped, never 0 */
	KUNIT_EXPECT_EQ(test, rxe_mtu_bytes(0), 256U);
	KUNIT_EXPECT_EQ(test, rxe_mtu_bytes(9), 4096U);

	/* an empty message is one packet */
	KUNIT_EXPECT_EQ(test, rxe_msg_pkts(0, 1024), 1U);
	KUNIT_EXPECT_EQ(test, rxe_msg_pkts(1, 1024), 1U);
	KUNIT_EXPECT_EQ(test, rxe_msg_pkts(1024, 1024), 1U);
	KUNIT_EXPECT_EQ(test, rxe_msg_pkts(1025, 1024), 2U);
	KUNIT_EXPECT_EQ(test, rxe_msg_pkts(65536, 4096), 16U);
	KUNIT_EXPECT_EQ(test, rxe_msg_pkts(RXE_MAX_MSG_SZ, 256), 32768U);
}

static void rxe_kunit_req_opcodes(struct kunit *test)
{
	/* rxe_wr_pkt_op(wr opcode, first, last), as the kernel built it */
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_SEND, true, true),
			RXE_OP_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_SEND, true, false),
			RXE_OP_SEND_FIRST);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_SEND, false, false),
			RXE_OP_SEND_MIDDLE);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_SEND, false, true),
			RXE_OP_SEND_LAST);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_SEND_WITH_IMM, false, true),
			RXE_OP_SEND_LAST_IMM);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_SEND_WITH_IMM, true, false),
			RXE_OP_SEND_FIRST);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_SEND_WITH_INV, true, true),
			RXE_OP_SEND_ONLY_INV);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_RDMA_WRITE, true, false),
			RXE_OP_WRITE_FIRST);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_RDMA_WRITE, false, true),
			RXE_OP_WRITE_LAST);
	KUNIT_EXPECT_EQ(test,
			rxe_wr_pkt_op(IB_WR_RDMA_WRITE_WITH_IMM, true, true),
			RXE_OP_WRITE_ONLY_IMM);
	KUNIT_EXPECT_EQ(test,
			rxe_wr_pkt_op(IB_WR_RDMA_WRITE_WITH_IMM, false, false),
			RXE_OP_WRITE_MIDDLE);
	/* one request packet; none for local operations */
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_RDMA_READ, true, true),
			RXE_OP_READ_REQ);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_ATOMIC_WRITE, true, true),
			RXE_OP_ATOMIC_WRITE);
	KUNIT_EXPECT_EQ(test, rxe_wr_pkt_op(IB_WR_LOCAL_INV, true, true),
			RXE_NO_PKT);
}

static void rxe_kunit_req_seek(struct kunit *test)
{
	size_t sz = sizeof(struct rxe_send_wqe) + 3 * sizeof(struct rxe_sge);
	struct rxe_send_wqe *wqe =
		(struct rxe_send_wqe *)kunit_kzalloc(test, sz, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wqe);
	wqe->dma.num_sge = 3;
	wqe->dma.sge[0].length = 100;
	wqe->dma.sge[1].length = 0;
	wqe->dma.sge[2].length = 50;
	wqe->dma.length = 150;

	rxe_wqe_seek(wqe, 0);
	KUNIT_EXPECT_EQ(test, wqe->dma.cur_sge, 0U);
	KUNIT_EXPECT_EQ(test, wqe->dma.sge_offset, 0U);
	KUNIT_EXPECT_EQ(test, wqe->dma.resid, 150U);
	rxe_wqe_seek(wqe, 99);
	KUNIT_EXPECT_EQ(test, wqe->dma.cur_sge, 0U);
	KUNIT_EXPECT_EQ(test, wqe->dma.sge_offset, 99U);
	/* the end of SGE 0 is SGE 1 at 0; the copy skips the empty one */
	rxe_wqe_seek(wqe, 100);
	KUNIT_EXPECT_EQ(test, wqe->dma.cur_sge, 1U);
	KUNIT_EXPECT_EQ(test, wqe->dma.sge_offset, 0U);
	KUNIT_EXPECT_EQ(test, wqe->dma.resid, 50U);
	rxe_wqe_seek(wqe, 120);
	KUNIT_EXPECT_EQ(test, wqe->dma.cur_sge, 1U);
	KUNIT_EXPECT_EQ(test, wqe->dma.sge_offset, 20U);
	KUNIT_EXPECT_EQ(test, wqe->dma.resid, 30U);
}

static void rxe_kunit_req_timers(struct kunit *test)
{
	/* IBTA table 45: 0 is the longest, 1 the shortest */
	KUNIT_EXPECT_EQ(test, rxe_rnr_timer_us(0), 655360U);
	KUNIT_EXPECT_EQ(test, rxe_rnr_timer_us(1), 10U);
	KUNIT_EXPECT_EQ(test, rxe_rnr_timer_us(12), 640U);
	KUNIT_EXPECT_EQ(test, rxe_rnr_timer_us(14), 1280U);
	KUNIT_EXPECT_EQ(test, rxe_rnr_timer_us(31), 491520U);
	/* only the 5-bit field counts */
	KUNIT_EXPECT_EQ(test, rxe_rnr_timer_us(33), 10U);

	KUNIT_EXPECT_EQ(test, rxe_ack_timeout_us(0), 0ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_timeout_us(1), 8ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_timeout_us(14), 67108ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_timeout_us(31), 8796093022ULL);

	/* doubled per expiry without progress, up to 8 times */
	KUNIT_EXPECT_EQ(test, rxe_ack_backoff_us(14, 0), 67108ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_backoff_us(14, 1), 2 * 67108ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_backoff_us(14, 2), 4 * 67108ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_backoff_us(14, 3), 8 * 67108ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_backoff_us(14, 7), 8 * 67108ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_backoff_us(14, 1000), 8 * 67108ULL);
	KUNIT_EXPECT_EQ(test, rxe_ack_backoff_us(0, 5), 0ULL);
}

static struct kunit_case rxe_kunit_req_cases[] = {
	KUNIT_CASE(rxe_kunit_req_segments),
	KUNIT_CASE(rxe_kunit_req_opcodes),
	KUNIT_CASE(rxe_kunit_req_seek),
	KUNIT_CASE(rxe_kunit_req_timers),
	{}
};

static struct kunit_suite rxe_kunit_req_suite = {
	.name = "rdma_rxe_requester",
	.test_cases = rxe_kunit_req_cases,
};
kunit_test_suite(rxe_kunit_req_suite);
