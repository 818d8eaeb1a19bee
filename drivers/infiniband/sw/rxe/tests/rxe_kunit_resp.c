// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite of the responder's request checks (rxe_resp.c, built into
 * this file so its static checks can be called on a made-up packet):
 * no RDMA READ or WRITE may announce more than the device's max_msg_sz.
 * A READ's length decides how many responses one request produces, so
 * an unbounded one is a remote amplifier and wraps the PSN space.  An
 * RDMA ATOMIC WRITE is exactly 8 bytes.
 */
#include <kunit/test.h>

#include "../rxe_resp.c"

/* a READ_REQ (RC) or WRITE_ONLY (@opcode) with a RETH of @len, parsed */
static void kr_pkt(struct kunit *test, u8 *buf, u32 buflen, u8 opcode, u32 len,
		   struct rxe_pkt *pkt)
{
	memset(buf, 0, buflen);
	rxe_bth_set(buf, opcode, false, 0, 0xffff, 17, true, 5);
	rxe_reth_set(buf + 12, 0x10000, 0x1234, len);
	memset(pkt, 0, sizeof(*pkt));
	KUNIT_ASSERT_EQ(test, (int)rxe_hdr_parse(buf, buflen, &pkt->info),
			(int)RXE_PARSE_OK);
	pkt->hdr = buf;
}

/* the context of a request to a made-up RC QP with one resource */
static void kr_ctx(struct kunit *test, struct rxe_resp_ctx *c,
		   struct rxe_pkt *pkt)
{
	struct rxe_resp *resp;

	resp = (struct rxe_resp *)kunit_kzalloc(test, sizeof(*resp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, resp);
	resp->num_res = 1;
	memset(c, 0, sizeof(*c));
	c->resp = resp;
	c->pkt = pkt;
	c->type = IB_QPT_RC;
	c->mtu = 1024;
	c->max_dest_rd_atomic = 1;
}

static void rxe_kunit_resp_msg_len(struct kunit *test)
{
	static const u32 lens[] = {
		0, 1, 4096, RXE_MAX_MSG_SZ, RXE_MAX_MSG_SZ + 1, 0x80000000U,
		0xffffffffU,
	};
	struct rxe_resp_ctx c;
	struct rxe_pkt pkt;
	u8 buf[12 + 16 + 64 + 4];
	unsigned int i;
	int want;

	kr_ctx(test, &c, &pkt);
	c.access = IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE;
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		want = lens[i] <= RXE_MAX_MSG_SZ ? RXE_RESP_OK : RXE_RESP_INV_REQ;
		/* READ_REQ: BTH, RETH, ICRC */
		kr_pkt(test, buf, 12 + 16 + 4, RXE_OP_READ_REQ, lens[i], &pkt);
		KUNIT_EXPECT_EQ_MSG(test, rxe_resp_check_op(&c), want,
				    "RC READ of %u bytes", lens[i]);
		/* WRITE_ONLY with 64 payload bytes */
		kr_pkt(test, buf, sizeof(buf), RXE_OP_WRITE_ONLY, lens[i], &pkt);
		KUNIT_EXPECT_EQ_MSG(test, rxe_resp_check_op(&c), want,
				    "RC WRITE announcing %u bytes", lens[i]);
	}
	/* UC: the message is dropped, nothing is answered */
	c.type = IB_QPT_UC;
	kr_pkt(test, buf, sizeof(buf), RXE_OP_WRITE_ONLY | 0x20, RXE_MAX_MSG_SZ + 1, &pkt);
	KUNIT_EXPECT_EQ(test, rxe_resp_check_op(&c), (int)RXE_RESP_DONE);
	KUNIT_EXPECT_TRUE(test, c.resp->drop_msg);
}

/*
 * RDMA ATOMIC WRITE (IBTA 1.5, oA19-28): a RETH of exactly 8 and 8
 * payload bytes, on a QP with remote write and responder resources.  A
 * RETH of 0 with 8 bytes behind it is refused too (upstream stored past
 * the packet's end for it).
 */
static void rxe_kunit_resp_atomic_write(struct kunit *test)
{
	static const struct {
		u32 reth_len, paylen;
		int access;
		u32 rd_atomic;
		int want;
	} cases[] = {
		{ 8, 8, IB_ACCESS_REMOTE_WRITE, 1, RXE_RESP_OK },
		{ 0, 8, IB_ACCESS_REMOTE_WRITE, 1, RXE_RESP_INV_REQ },
		{ 16, 8, IB_ACCESS_REMOTE_WRITE, 1, RXE_RESP_INV_REQ },
		{ 8, 4, IB_ACCESS_REMOTE_WRITE, 1, RXE_RESP_INV_REQ },
		{ 8, 12, IB_ACCESS_REMOTE_WRITE, 1, RXE_RESP_INV_REQ },
		{ 8, 8, IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC, 1,
		  RXE_RESP_INV_REQ },
		{ 8, 8, IB_ACCESS_REMOTE_WRITE, 0, RXE_RESP_INV_REQ },
	};
	struct rxe_resp_ctx c;
	struct rxe_pkt pkt;
	u8 buf[12 + 16 + 12 + 4];
	unsigned int i;
	u32 len;

	kr_ctx(test, &c, &pkt);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		c.access = cases[i].access;
		c.max_dest_rd_atomic = cases[i].rd_atomic;
		/* BTH, RETH, payload (4-byte multiples: no pad), ICRC */
		len = 12 + 16 + cases[i].paylen + 4;
		kr_pkt(test, buf, len, RXE_OP_ATOMIC_WRITE, cases[i].reth_len,
		       &pkt);
		KUNIT_EXPECT_EQ_MSG(test, rxe_resp_check_op(&c), cases[i].want,
				    "case %u", i);
	}
}

/*
 * RDMA FLUSH: a well-formed FETH (a known placement type, selectivity
 * RANGE or MR, nothing reserved) whose placement the QP grants, on a QP
 * with responder resources.  The RETH's length is not bounded by the
 * message size (selectivity MR ignores it).
 */
static void rxe_kunit_resp_flush(struct kunit *test)
{
	static const struct {
		u32 feth;
		u32 len;
		int access;
		u32 rd_atomic;
		int want;
	} cases[] = {
		{ 0x01, 4096, IB_ACCESS_FLUSH_GLOBAL, 1, RXE_RESP_OK },
		{ 0x11, 0xffffffffU, IB_ACCESS_FLUSH_GLOBAL, 1, RXE_RESP_OK },
		{ 0x03, 64, IB_ACCESS_FLUSH_GLOBAL | IB_ACCESS_FLUSH_PERSISTENT, 1,
		  RXE_RESP_OK },
		{ 0x01, 64, IB_ACCESS_REMOTE_WRITE, 1, RXE_RESP_INV_REQ },
		{ 0x03, 64, IB_ACCESS_FLUSH_GLOBAL, 1, RXE_RESP_INV_REQ },
		{ 0x02, 64, IB_ACCESS_FLUSH_GLOBAL, 1, RXE_RESP_INV_REQ },
		{ 0x00, 64, IB_ACCESS_FLUSH_GLOBAL, 1, RXE_RESP_INV_REQ },
		{ 0x05, 64, IB_ACCESS_FLUSH_GLOBAL, 1, RXE_RESP_INV_REQ },
		{ 0x21, 64, IB_ACCESS_FLUSH_GLOBAL, 1, RXE_RESP_INV_REQ },
		{ 0x41, 64, IB_ACCESS_FLUSH_GLOBAL, 1, RXE_RESP_INV_REQ },
		{ 0x01, 64, IB_ACCESS_FLUSH_GLOBAL, 0, RXE_RESP_INV_REQ },
	};
	struct rxe_resp_ctx c;
	struct rxe_pkt pkt;
	u8 buf[12 + 4 + 16 + 4];
	unsigned int i;

	kr_ctx(test, &c, &pkt);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		c.access = cases[i].access;
		c.max_dest_rd_atomic = cases[i].rd_atomic;
		memset(buf, 0, sizeof(buf));
		rxe_bth_set(buf, RXE_OP_FLUSH, false, 0, 0xffff, 17, true, 5);
		buf[12 + 3] = (u8)cases[i].feth;
		buf[12] = (u8)(cases[i].feth >> 24);
		rxe_reth_set(buf + 16, 0x10000, 0x1234, cases[i].len);
		memset(&pkt, 0, sizeof(pkt));
		KUNIT_ASSERT_EQ(test, (int)rxe_hdr_parse(buf, sizeof(buf), &pkt.info),
				(int)RXE_PARSE_OK);
		pkt.hdr = buf;
		KUNIT_EXPECT_EQ_MSG(test, rxe_resp_check_op(&c), cases[i].want,
				    "case %u (FETH 0x%x)", i, cases[i].feth);
	}
}

static struct kunit_case rxe_kunit_resp_cases[] = {
	KUNIT_CASE(rxe_kunit_resp_flush),
	KUNIT_CASE(rxe_kunit_resp_msg_len),
	KUNIT_CASE(rxe_kunit_resp_atomic_write),
	{}
};

static struct kunit_suite rxe_kunit_resp_suite = {
	.name = "rdma_rxe_resp",
	.test_cases = rxe_kunit_resp_cases,
};
kunit_test_suite(rxe_kunit_resp_suite);
