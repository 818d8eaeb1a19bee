// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests of the MAD layer's kernel part (mad.c) on a real RoCE
 * device: the module parameter "dev" names it (the mad-loopback scenario
 * creates rxe0 on a veth with 10.0.0.1 and loads this module).  Every MAD
 * goes from port 1 to its own IPv4 GID and back through the device.  The
 * last case removes the device with agents registered.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/ktime.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_device.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include "roce_port.h"

static char *dev_name_param = "rxe0";
module_param_named(dev, dev_name_param, charp, 0444);
MODULE_PARM_DESC(dev, "the RoCE device to run on (port 1)");

#define MADK_CLASS		0x09	/* a vendor class (range 1) */
#define MADK_CLASS_UNCLAIMED	0x0a
#define MADK_VERSION		1
#define MADK_WAIT_MS		10000

struct madk_agent {
	struct rdma_mad_agent *agent;
	struct completion recv_done;
	struct completion send_done;
	struct rdma_mad_recv last_rx;	/* .mad not kept */
	u8 last_mad[IB_MAD_WIRE_SIZE];
	struct rdma_mad_send_done last_done;
	u32 nrecv;
	u32 nsend_done;
	/* responder: answer requests from here */
	u8 sgid_index;
	int reply_ret;
};

struct madk {
	struct ib_device *dev;
	u8 sgid_index;
	union ib_gid gid;
};

static void madk_recv(struct rdma_mad_agent *agent,
		      const struct rdma_mad_recv *rx)
{
	struct madk_agent *a = (struct madk_agent *)rdma_mad_agent_context(agent);

	a->last_rx = *rx;
	a->last_rx.mad = NULL;
	memcpy(a->last_mad, rx->mad, IB_MAD_WIRE_SIZE);
	a->nrecv++;
	complete(&a->recv_done);
}

/* the responder: a GetResp with the request's TID, back to the sender */
static void madk_respond(struct rdma_mad_agent *agent,
			 const struct rdma_mad_recv *rx)
{
	struct madk_agent *a = (struct madk_agent *)rdma_mad_agent_context(agent);
	struct rdma_mad_dest dest = {
		.dgid = rx->src_gid,
		.sgid_index = a->sgid_index,
		.pkey_index = rx->pkey_index,
		.remote_qpn = rx->src_qp,
		.remote_qkey = RDMA_MAD_QP1_QKEY,
	};
	u8 mad[IB_MAD_WIRE_SIZE];

	madk_recv(agent, rx);
	memcpy(mad, rx->mad, sizeof(mad));
	mad[3] = IB_MAD_WIRE_METHOD_GET_RESP;
	a->reply_ret = rdma_mad_send(agent, &dest, mad, 0, 0, false, NULL);
}

static void madk_send_done(struct rdma_mad_agent *agent,
			   const struct rdma_mad_send_done *done)
{
	struct madk_agent *a = (struct madk_agent *)rdma_mad_agent_context(agent);

	a->last_done = *done;
	a->nsend_done++;
	complete(&a->send_done);
}

static const struct rdma_mad_agent_ops madk_ops = {
	.recv_handler = madk_recv,
	.send_handler = madk_send_done,
};

static const struct rdma_mad_agent_ops madk_responder_ops = {
	.recv_handler = madk_respond,
	.send_handler = madk_send_done,
};

static void madk_agent_init(struct madk_agent *a)
{
	memset(a, 0, sizeof(*a));
	init_completion(&a->recv_done);
	init_completion(&a->send_done);
}

/* a MAD of @mgmt_class/@method with @tid */
static void madk_build(u8 *mad, u8 mgmt_class, u8 method, u64 tid)
{
	struct ib_mad_wire_hdr hdr = {
		.base_version = IB_MAD_WIRE_BASE_VERSION,
		.mgmt_class = mgmt_class,
		.class_version = MADK_VERSION,
		.method = method,
		.tid = tid,
		.attr_id = 0x0010,
	};

	memset(mad, 0, IB_MAD_WIRE_SIZE);
	ib_mad_wire_hdr_encode(mad, IB_MAD_WIRE_SIZE, &hdr);
	mad[IB_MAD_WIRE_HDR_LEN] = 0x5a;
}

static struct rdma_mad_dest madk_dest(const struct madk *k)
{
	struct rdma_mad_dest d = {
		.dgid = k->gid,
		.sgid_index = k->sgid_index,
		.remote_qpn = 1,
		.remote_qkey = RDMA_MAD_QP1_QKEY,
	};

	return d;
}

static int madk_init(struct kunit *test)
{
	struct madk *k = (struct madk *)kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	const char *why;

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->dev = roce_port1_get(dev_name_param, &k->sgid_index, &k->gid, &why);
	if (!k->dev)
		kunit_skip(test, "%s: %s", dev_name_param, why);
	test->priv = k;
	return 0;
}

static void madk_exit(struct kunit *test)
{
	struct madk *k = (struct madk *)test->priv;

	if (k && k->dev)
		ib_device_put(k->dev);
}

static struct rdma_mad_agent *madk_register(struct kunit *test,
					    struct madk_agent *a,
					    const struct ib_mad_agent_claim *claim,
					    const struct rdma_mad_agent_ops *ops)
{
	struct madk *k = (struct madk *)test->priv;
	struct rdma_mad_agent *agent;

	agent = rdma_mad_agent_register(k->dev, 1, claim, ops, a);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(agent), "register: %ld",
			       PTR_ERR(agent));
	a->agent = agent;
	a->sgid_index = k->sgid_index;
	return agent;
}

static bool madk_wait(struct completion *c)
{
	return wait_for_completion_timeout(c, msecs_to_jiffies(MADK_WAIT_MS)) != 0;
}

/* a send-only agent */
static struct madk_agent *madk_requester(struct kunit *test)
{
	struct madk_agent *req;

	req = (struct madk_agent *)kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	madk_agent_init(req);
	madk_register(test, req, NULL, &madk_ops);
	return req;
}

/* a responder claiming Get of MADK_CLASS, and a send-only requester */
static void madk_pair(struct kunit *test, struct madk_agent **req,
		      struct madk_agent **resp)
{
	struct ib_mad_agent_claim claim = {
		.mgmt_class = MADK_CLASS,
		.class_version = MADK_VERSION,
	};

	*req = (struct madk_agent *)kunit_kzalloc(test, sizeof(**req), GFP_KERNEL);
	*resp = (struct madk_agent *)kunit_kzalloc(test, sizeof(**resp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *req);
	KUNIT_ASSERT_NOT_NULL(test, *resp);
	madk_agent_init(*req);
	madk_agent_init(*resp);
	ib_mad_agent_claim_method(&claim, IB_MAD_WIRE_METHOD_GET);
	madk_register(test, *resp, &claim, &madk_responder_ops);
	madk_register(test, *req, NULL, &madk_ops);
}

/* A Get to our own GID: the responder answers, the TID comes back. */
static void mad_loopback_request_response(struct kunit *test)
{
	struct madk *k = (struct madk *)test->priv;
	struct rdma_mad_dest dest = madk_dest(k);
	struct madk_agent *req, *resp;
	struct ib_mad_wire_hdr hdr;
	u8 mad[IB_MAD_WIRE_SIZE];
	u64 tid;

	madk_pair(test, &req, &resp);

	tid = rdma_mad_agent_new_tid(req->agent);
	madk_build(mad, MADK_CLASS, IB_MAD_WIRE_METHOD_GET, tid);
	KUNIT_ASSERT_EQ(test, rdma_mad_send(req->agent, &dest, mad, 2000, 2,
					    true, req), 0);

	KUNIT_EXPECT_TRUE(test, madk_wait(&resp->recv_done));
	KUNIT_EXPECT_EQ(test, resp->last_rx.hdr.tid, tid);
	KUNIT_EXPECT_FALSE(test, resp->last_rx.is_response);
	KUNIT_EXPECT_EQ(test, memcmp(resp->last_rx.src_gid.raw, k->gid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, resp->last_mad[IB_MAD_WIRE_HDR_LEN], 0x5a);

	KUNIT_EXPECT_TRUE(test, madk_wait(&req->recv_done));
	KUNIT_EXPECT_TRUE(test, req->last_rx.is_response);
	KUNIT_EXPECT_EQ(test, req->last_rx.hdr.tid, tid);
	KUNIT_EXPECT_EQ(test, req->last_rx.hdr.method,
			IB_MAD_WIRE_METHOD_GET_RESP);
	KUNIT_EXPECT_PTR_EQ(test, req->last_rx.send_context, (void *)req);

	KUNIT_EXPECT_TRUE(test, madk_wait(&req->send_done));
	KUNIT_EXPECT_EQ(test, req->last_done.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, req->last_done.tid, tid);
	KUNIT_EXPECT_EQ(test, req->last_done.resent, 0U);
	/* the responder's GetResp expects nothing: done at its completion */
	KUNIT_EXPECT_TRUE(test, madk_wait(&resp->send_done));
	KUNIT_EXPECT_EQ(test, resp->reply_ret, 0);
	KUNIT_EXPECT_EQ(test, resp->last_done.status, IB_WC_SUCCESS);

	rdma_mad_agent_unregister(req->agent);
	rdma_mad_agent_unregister(resp->agent);
	KUNIT_EXPECT_EQ(test, req->nrecv, 1U);
	KUNIT_EXPECT_EQ(test, req->nsend_done, 1U);
	KUNIT_EXPECT_EQ(test, resp->nrecv, 1U);
	KUNIT_EXPECT_EQ(test, resp->nsend_done, 1U);
	ib_mad_wire_hdr_decode(req->last_mad, IB_MAD_WIRE_SIZE, &hdr);
	KUNIT_EXPECT_EQ(test, hdr.tid, tid);
}

/* A Get nobody claimed: the layer answers it with a GetResp 0x000c. */
static void mad_unclaimed_get_answered(struct kunit *test)
{
	struct madk *k = (struct madk *)test->priv;
	struct rdma_mad_dest dest = madk_dest(k);
	struct rdma_mad_stats before, after;
	struct madk_agent *req;
	u8 mad[IB_MAD_WIRE_SIZE];
	u64 tid;

	req = madk_requester(test);
	KUNIT_ASSERT_EQ(test, rdma_mad_port_stats(k->dev, 1, &before), 0);
	tid = rdma_mad_agent_new_tid(req->agent);
	madk_build(mad, MADK_CLASS_UNCLAIMED, IB_MAD_WIRE_METHOD_GET, tid);
	KUNIT_ASSERT_EQ(test, rdma_mad_send(req->agent, &dest, mad, 2000, 0,
					    true, NULL), 0);
	KUNIT_EXPECT_TRUE(test, madk_wait(&req->recv_done));
	KUNIT_EXPECT_EQ(test, req->last_rx.hdr.tid, tid);
	KUNIT_EXPECT_EQ(test, req->last_rx.hdr.method,
			IB_MAD_WIRE_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, req->last_rx.hdr.status,
			IB_MAD_WIRE_STATUS_BAD_METHOD_ATTR);
	KUNIT_EXPECT_TRUE(test, madk_wait(&req->send_done));
	KUNIT_EXPECT_EQ(test, req->last_done.status, IB_WC_SUCCESS);
	rdma_mad_agent_unregister(req->agent);
	KUNIT_ASSERT_EQ(test, rdma_mad_port_stats(k->dev, 1, &after), 0);
	KUNIT_EXPECT_EQ(test, after.rx_replied, before.rx_replied + 1);
}

/* A Send nobody answers: resent exactly @retries times, then timed out. */
static void mad_timeout_after_retries(struct kunit *test)
{
	struct madk *k = (struct madk *)test->priv;
	struct rdma_mad_dest dest = madk_dest(k);
	struct rdma_mad_stats before, after;
	const u32 timeout_ms = 200, retries = 3;
	struct madk_agent *req;
	u8 mad[IB_MAD_WIRE_SIZE];
	ktime_t t0;
	s64 ms;

	req = madk_requester(test);
	KUNIT_ASSERT_EQ(test, rdma_mad_port_stats(k->dev, 1, &before), 0);
	/* a Send of an unclaimed class is dropped silently: no answer */
	madk_build(mad, MADK_CLASS_UNCLAIMED, IB_MAD_WIRE_METHOD_SEND,
		   rdma_mad_agent_new_tid(req->agent));
	t0 = ktime_get();
	KUNIT_ASSERT_EQ(test, rdma_mad_send(req->agent, &dest, mad, timeout_ms,
					    retries, false, NULL), 0);
	KUNIT_EXPECT_TRUE(test, madk_wait(&req->send_done));
	ms = ktime_ms_delta(ktime_get(), t0);
	KUNIT_EXPECT_EQ(test, req->last_done.status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, req->last_done.resent, retries);
	KUNIT_EXPECT_GE(test, ms, (s64)((retries + 1) * timeout_ms));
	KUNIT_ASSERT_EQ(test, rdma_mad_port_stats(k->dev, 1, &after), 0);
	KUNIT_EXPECT_EQ(test, after.tx_posted - before.tx_posted,
			(u64)(retries + 1));
	KUNIT_EXPECT_EQ(test, after.tx_timeout - before.tx_timeout, 1ULL);
	KUNIT_EXPECT_EQ(test, req->nrecv, 0U);
	rdma_mad_agent_unregister(req->agent);
	KUNIT_EXPECT_EQ(test, req->nsend_done, 1U);
}

/* Unregister with a send outstanding: it ends, canceled, before return. */
static void mad_unregister_cancels(struct kunit *test)
{
	struct madk *k = (struct madk *)test->priv;
	struct rdma_mad_dest dest = madk_dest(k);
	struct madk_agent *req;
	u8 mad[IB_MAD_WIRE_SIZE];
	u64 tid;

	req = madk_requester(test);
	tid = rdma_mad_agent_new_tid(req->agent);
	madk_build(mad, MADK_CLASS_UNCLAIMED, IB_MAD_WIRE_METHOD_SEND, tid);
	KUNIT_ASSERT_EQ(test, rdma_mad_send(req->agent, &dest, mad, 30000, 5,
					    false, NULL), 0);
	rdma_mad_agent_unregister(req->agent);
	KUNIT_EXPECT_EQ(test, req->nsend_done, 1U);
	KUNIT_EXPECT_EQ(test, req->last_done.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, req->last_done.tid, tid);
}

/*
 * Two sends of one agent with one TID, as a CM request and the peer's
 * answer to it have on a loopback port: canceling the later one by its
 * send ID ends that one, at once, and leaves the earlier one waiting.
 */
static void mad_cancel_names_one_send(struct kunit *test)
{
	struct madk *k = (struct madk *)test->priv;
	struct rdma_mad_dest dest = madk_dest(k);
	struct madk_agent *req;
	u8 mad[IB_MAD_WIRE_SIZE];
	u64 tid, first = 0, second = 0;
	int ctx_first, ctx_second;
	ktime_t t0;

	req = madk_requester(test);
	tid = rdma_mad_agent_new_tid(req->agent);
	madk_build(mad, MADK_CLASS_UNCLAIMED, IB_MAD_WIRE_METHOD_SEND, tid);
	KUNIT_ASSERT_EQ(test, rdma_mad_send_tracked(req->agent, &dest, mad,
						    30000, 5, false,
						    &ctx_first, &first), 0);
	KUNIT_ASSERT_EQ(test, rdma_mad_send_tracked(req->agent, &dest, mad,
						    30000, 5, false,
						    &ctx_second, &second), 0);
	KUNIT_EXPECT_NE(test, first, 0ULL);
	KUNIT_EXPECT_NE(test, first, second);

	t0 = ktime_get();
	KUNIT_EXPECT_EQ(test, rdma_mad_cancel(req->agent, second), 0);
	KUNIT_EXPECT_TRUE(test, madk_wait(&req->send_done));
	KUNIT_EXPECT_LT(test, ktime_ms_delta(ktime_get(), t0), (s64)2000);
	KUNIT_EXPECT_EQ(test, req->nsend_done, 1U);
	KUNIT_EXPECT_PTR_EQ(test, req->last_done.context, (void *)&ctx_second);
	KUNIT_EXPECT_EQ(test, req->last_done.send_id, second);
	KUNIT_EXPECT_EQ(test, req->last_done.tid, tid);
	KUNIT_EXPECT_EQ(test, req->last_done.status, IB_WC_WR_FLUSH_ERR);
	/* an ended send is no longer found */
	KUNIT_EXPECT_EQ(test, rdma_mad_cancel(req->agent, second), -ENOENT);

	rdma_mad_agent_unregister(req->agent);
	KUNIT_EXPECT_EQ(test, req->nsend_done, 2U);
	KUNIT_EXPECT_PTR_EQ(test, req->last_done.context, (void *)&ctx_first);
	KUNIT_EXPECT_EQ(test, req->last_done.send_id, first);
}

/*
 * Remove the device (as "rdma link delete" does) with two agents
 * registered and a send outstanding: the send ends canceled, later sends
 * fail with -ENODEV, and the agents unregister cleanly afterwards.
 * Runs last: the device is gone after it.
 */
static void mad_device_removal(struct kunit *test)
{
	struct madk *k = (struct madk *)test->priv;
	struct rdma_mad_dest dest = madk_dest(k);
	struct madk_agent *req, *resp;
	struct rdma_mad_stats st;
	u8 mad[IB_MAD_WIRE_SIZE];
	struct ib_device *dev;

	madk_pair(test, &req, &resp);
	madk_build(mad, MADK_CLASS_UNCLAIMED, IB_MAD_WIRE_METHOD_SEND,
		   rdma_mad_agent_new_tid(req->agent));
	KUNIT_ASSERT_EQ(test, rdma_mad_send(req->agent, &dest, mad, 30000, 5,
					    false, NULL), 0);

	/* our lookup reference goes with the device */
	dev = k->dev;
	k->dev = NULL;
	ib_unregister_device_and_put(dev);

	KUNIT_EXPECT_EQ(test, req->nsend_done, 1U);
	KUNIT_EXPECT_EQ(test, req->last_done.status, IB_WC_WR_FLUSH_ERR);
	madk_build(mad, MADK_CLASS, IB_MAD_WIRE_METHOD_GET,
		   rdma_mad_agent_new_tid(req->agent));
	KUNIT_EXPECT_EQ(test, rdma_mad_send(req->agent, &dest, mad, 100, 0,
					    false, NULL), -ENODEV);
	KUNIT_EXPECT_EQ(test, rdma_mad_port_stats(dev, 1, &st), -ENODEV);
	rdma_mad_agent_unregister(req->agent);
	rdma_mad_agent_unregister(resp->agent);
	KUNIT_EXPECT_EQ(test, req->nsend_done, 1U);
	KUNIT_EXPECT_EQ(test, resp->nsend_done, 0U);
}

static struct kunit_case mad_cases[] = {
	KUNIT_CASE(mad_loopback_request_response),
	KUNIT_CASE(mad_unclaimed_get_answered),
	KUNIT_CASE(mad_timeout_after_retries),
	KUNIT_CASE(mad_unregister_cancels),
	KUNIT_CASE(mad_cancel_names_one_send),
	KUNIT_CASE(mad_device_removal),
	{}
};

static struct kunit_suite mad_suite = {
	.name = "ib_core_mad",
	.init = madk_init,
	.exit = madk_exit,
	.test_cases = mad_cases,
};
kunit_test_suite(mad_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests of the MAD layer on a RoCE device");
