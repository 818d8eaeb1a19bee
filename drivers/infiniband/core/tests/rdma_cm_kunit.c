// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests of rdma_cm on a real RoCE device: the module parameter
 * "dev" names it (the cma-loopback scenario creates rxe0 on veth0 with
 * 10.0.0.1/24, loads ib_cm, rdma_cm and then this module).  Both ends of
 * every connection are rdma_cm IDs in init_net addressed to 10.0.0.1 (the
 * device's own IPv4 address): resolution, ports, listen, connect,
 * accept, reject, disconnect, SIDR, kernel QPs carrying real data, and
 * finally the removal of the device.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/wait.h>
#include <linux/spinlock.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_device.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_cm.h>
#include <rdma/cma_wire.h>
#include "roce_port.h"

MODULE_DESCRIPTION("KUnit tests of rdma_cm on a RoCE device");
MODULE_LICENSE("Dual BSD/GPL");

static char *dev_name_param = "rxe0";
module_param_named(dev, dev_name_param, charp, 0444);
MODULE_PARM_DESC(dev, "the RoCE device to run on (port 1, an IPv4 GID)");

#define RCK_WAIT_MS	15000
#define RCK_MAX_EV	32
#define RCK_PORT	7471
#define RCK_REQ_LEN	56	/* the user's part of a REQ */
#define RCK_MSG_LEN	64	/* one SEND */
#define RCK_GRH		40

/* one end: the ID the test made, what its handler saw */
struct rck_side {
	struct rdma_cm_id *id;
	struct rdma_cm_id *conn;	/* passive: the new ID */
	bool id_gone, conn_gone;	/* destroyed by a handler's return */
	int req_ret;			/* the answer to CONNECT_REQUEST */
	wait_queue_head_t wq;
	spinlock_t lock;
	u32 nev;
	enum rdma_cm_event_type ev[RCK_MAX_EV];
	int status[RCK_MAX_EV];
	u8 req_data[RCK_REQ_LEN];
	u8 req_data_len;
	struct rdma_conn_param req_param;
	u8 rej_data[IB_CM_WIRE_REJ_PRIV_LEN];
	u8 rej_len;
	u8 rep_data[16];
	struct rdma_ud_param ud;	/* ESTABLISHED of a UD ID */
	struct rdma_ud_param mc;	/* MULTICAST_JOIN (private_data kept) */
};

/* a kernel QP of one side and what it needs */
struct rck_qp {
	struct ib_pd *pd;
	struct ib_cq *cq;
	u8 *buf;
	struct ib_ah *ah;
};

struct rck {
	struct ib_device *dev;
	u8 sgid_index;
	union ib_gid gid;
	struct sockaddr_in addr;	/* the device's IPv4 address */
	struct rck_side a, p;
	struct rck_qp aq, pq;
	struct rdma_cm_id *w;		/* a wildcard listener, on side w */
	struct rck_side ws;
};

static struct rck_side *rck_side_of(struct rdma_cm_id *id)
{
	return (struct rck_side *)id->context;
}

static int rck_handler(struct rdma_cm_id *id, struct rdma_cm_event *e)
{
	struct rck_side *s = rck_side_of(id);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&s->lock, flags);
	if (s->nev < RCK_MAX_EV) {
		s->ev[s->nev] = e->event;
		s->status[s->nev] = e->status;
	}
	switch (e->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		ret = s->req_ret;
		if (!ret && !s->conn)
			s->conn = id;
		if (id->qp_type == IB_QPT_UD) {
			s->req_data_len = e->param.ud.private_data_len;
			memcpy(s->req_data, e->param.ud.private_data,
			       RCK_REQ_LEN);
		} else {
			s->req_param = e->param.conn;
			s->req_param.private_data = NULL;
			s->req_data_len = e->param.conn.private_data_len;
			memcpy(s->req_data, e->param.conn.private_data,
			       RCK_REQ_LEN);
		}
		break;
	case RDMA_CM_EVENT_REJECTED: {
		const void *d;
		u8 len;

		d = rdma_consumer_reject_data(id, e, &len);
		s->rej_len = d ? len : 0;
		if (d)
			memcpy(s->rej_data, d, min_t(u8, len, sizeof(s->rej_data)));
		break;
	}
	case RDMA_CM_EVENT_ESTABLISHED:
	case RDMA_CM_EVENT_CONNECT_RESPONSE:
		if (id->qp_type == IB_QPT_UD) {
			s->ud = e->param.ud;
			s->ud.private_data = NULL;
		} else if (e->param.conn.private_data) {
			memcpy(s->rep_data, e->param.conn.private_data,
			       sizeof(s->rep_data));
		}
		break;
	case RDMA_CM_EVENT_MULTICAST_JOIN:
		s->mc = e->param.ud;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/* the ID goes with the device */
		if (id == s->id)
			s->id_gone = true;
		else if (id == s->conn)
			s->conn_gone = true;
		ret = 1;
		break;
	default:
		break;
	}
	s->nev++;
	spin_unlock_irqrestore(&s->lock, flags);
	wake_up(&s->wq);
	return ret;
}

static u32 rck_count(struct rck_side *s, enum rdma_cm_event_type type)
{
	unsigned long flags;
	u32 i, n = 0;

	spin_lock_irqsave(&s->lock, flags);
	for (i = 0; i < s->nev && i < RCK_MAX_EV; i++)
		n += s->ev[i] == type;
	spin_unlock_irqrestore(&s->lock, flags);
	return n;
}

/* the status of the last @type event (0 if none) */
static int rck_status(struct rck_side *s, enum rdma_cm_event_type type)
{
	unsigned long flags;
	int st = 0;
	u32 i;

	spin_lock_irqsave(&s->lock, flags);
	for (i = 0; i < s->nev && i < RCK_MAX_EV; i++)
		if (s->ev[i] == type)
			st = s->status[i];
	spin_unlock_irqrestore(&s->lock, flags);
	return st;
}

static bool rck_wait(struct rck_side *s, enum rdma_cm_event_type type)
{
	return wait_event_timeout(s->wq, rck_count(s, type) >= 1,
				  msecs_to_jiffies(RCK_WAIT_MS)) != 0;
}

#define RCK_ASSERT_EVENT(test, s, type)					\
	KUNIT_ASSERT_TRUE_MSG(test, rck_wait(s, type),			\
			      "no %s within %d ms (%u events seen)",	\
			      #type, RCK_WAIT_MS, (s)->nev)

static struct rdma_cm_id *rck_id(struct kunit *test, struct rck_side *s,
				 enum rdma_ucm_port_space ps,
				 enum ib_qp_type qpt)
{
	struct rdma_cm_id *id;

	id = rdma_create_id(&init_net, rck_handler, s, ps, qpt);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(id), "rdma_create_id: %ld",
			       PTR_ERR(id));
	return id;
}

static int rck_init(struct kunit *test)
{
	struct rck *k = (struct rck *)kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	const char *why;

	KUNIT_ASSERT_NOT_NULL(test, k);
	test->priv = k;
	init_waitqueue_head(&k->a.wq);
	spin_lock_init(&k->a.lock);
	init_waitqueue_head(&k->p.wq);
	spin_lock_init(&k->p.lock);
	init_waitqueue_head(&k->ws.wq);
	spin_lock_init(&k->ws.lock);
	k->dev = roce_port1_get(dev_name_param, &k->sgid_index, &k->gid, &why);
	if (!k->dev)
		kunit_skip(test, "%s: %s", dev_name_param, why);
	k->addr.sin_family = AF_INET;
	memcpy(&k->addr.sin_addr.s_addr, &k->gid.raw[12], 4);
	return 0;
}

static void rck_qp_free(struct rck_qp *q)
{
	if (q->ah)
		rdma_destroy_ah(q->ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (q->cq)
		ib_destroy_cq(q->cq);
	if (q->pd)
		ib_dealloc_pd(q->pd);
	kfree(q->buf);
	memset(q, 0, sizeof(*q));
}

static void rck_exit(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;

	if (!k)
		return;
	/* the listeners first: no new ID appears after them */
	if (k->w)
		rdma_destroy_id(k->w);
	if (k->ws.conn && !k->ws.conn_gone)
		rdma_destroy_id(k->ws.conn);
	if (k->p.id && !k->p.id_gone) {
		if (k->p.id->qp)
			rdma_destroy_qp(k->p.id);
		rdma_destroy_id(k->p.id);
	}
	if (k->p.conn && !k->p.conn_gone) {
		if (k->p.conn->qp)
			rdma_destroy_qp(k->p.conn);
		rdma_destroy_id(k->p.conn);
	}
	if (k->a.id && !k->a.id_gone) {
		if (k->a.id->qp)
			rdma_destroy_qp(k->a.id);
		rdma_destroy_id(k->a.id);
	}
	rck_qp_free(&k->aq);
	rck_qp_free(&k->pq);
	if (k->dev)
		ib_device_put(k->dev);
}

static struct sockaddr *rck_addr(struct rck *k, u16 port,
				 struct sockaddr_in *out)
{
	*out = k->addr;
	out->sin_port = htons(port);
	return (struct sockaddr *)out;
}

/* the active side resolves address and route to the device's address */
static void rck_resolve(struct kunit *test, struct rck *k, u16 port)
{
	struct sockaddr_in dst;

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(k->a.id, NULL,
						rck_addr(k, port, &dst), 2000), 0);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(k->a.id, 2000), 0);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ROUTE_RESOLVED);
}

/* the passive side listens on the device's address and @port */
static void rck_listen(struct kunit *test, struct rck *k, u16 port,
		       enum rdma_ucm_port_space ps, enum ib_qp_type qpt)
{
	struct sockaddr_in src;

	k->p.id = rck_id(test, &k->p, ps, qpt);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(k->p.id, rck_addr(k, port, &src)),
			0);
	KUNIT_ASSERT_EQ(test, rdma_listen(k->p.id, 4), 0);
}

static void rck_fill(u8 *b, u32 n, u8 seed)
{
	u32 i;

	for (i = 0; i < n; i++)
		b[i] = (u8)(seed + i * 7);
}

/* ------------------------------------------------------------- cases */

/* address and route of the device's own address: the device, the path */
static void rcm_resolve_addr_route(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	struct ib_cm_roce_path *path;
	struct sockaddr_in *src;
	union ib_gid sgid, dgid;

	k->a.id = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	rck_resolve(test, k, RCK_PORT);
	KUNIT_EXPECT_PTR_EQ(test, k->a.id->device, k->dev);
	KUNIT_EXPECT_EQ(test, k->a.id->port_num, 1U);
	src = (struct sockaddr_in *)&k->a.id->route.addr.src_addr;
	KUNIT_EXPECT_EQ(test, src->sin_family, (sa_family_t)AF_INET);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(src->sin_addr.s_addr),
			be32_to_cpu(k->addr.sin_addr.s_addr));
	KUNIT_EXPECT_GE(test, ntohs(src->sin_port), 1024);
	path = k->a.id->route.path_rec;
	KUNIT_ASSERT_NOT_NULL(test, path);
	KUNIT_EXPECT_EQ(test, memcmp(path->dgid.raw, k->gid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(path->sgid.raw, k->gid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, path->sgid_index, k->sgid_index);
	KUNIT_EXPECT_EQ(test, path->pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, path->mtu, IB_MTU_1024);	/* veth0: 1500 */
	KUNIT_EXPECT_EQ(test, path->hop_limit, 64);
	KUNIT_EXPECT_EQ(test, path->packet_life_time, 18);
	rdma_read_gids(k->a.id, &sgid, &dgid);
	KUNIT_EXPECT_EQ(test, memcmp(sgid.raw, k->gid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dgid.raw, k->gid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, k->a.nev, 2U);
	/* a second route query is refused in ROUTE_RESOLVED */
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(k->a.id, 2000), -EINVAL);
}

/* port spaces: EADDRINUSE, wildcard conflicts, reuseaddr, listen */
static void rcm_port_spaces(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	struct rdma_cm_id *b, *c, *u, *e;
	struct sockaddr_in sa, any = {};
	u16 port;

	k->a.id = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	b = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	c = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	u = rck_id(test, &k->a, RDMA_PS_UDP, IB_QPT_UD);
	e = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(k->a.id,
					     rck_addr(k, RCK_PORT + 1, &sa)), 0);
	KUNIT_EXPECT_PTR_EQ(test, k->a.id->device, k->dev);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(b, rck_addr(k, RCK_PORT + 1, &sa)),
			-EADDRINUSE);
	any.sin_family = AF_INET;
	any.sin_port = htons(RCK_PORT + 1);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(c, (struct sockaddr *)&any),
			-EADDRNOTAVAIL);
	/* another port space has its own ports */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(u, rck_addr(k, RCK_PORT + 1, &sa)),
			0);
	/* both with reuseaddr: shared */
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(k->a.id, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(b, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(b, rck_addr(k, RCK_PORT + 1, &sa)),
			0);
	/* listening makes it exclusive again: b is in the way */
	KUNIT_EXPECT_EQ(test, rdma_listen(k->a.id, 1), -EADDRINUSE);
	rdma_destroy_id(b);
	KUNIT_EXPECT_EQ(test, rdma_listen(k->a.id, 1), 0);
	/* an ephemeral port is in the namespace's range */
	any.sin_port = 0;
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(e, (struct sockaddr *)&any), 0);
	port = ntohs(((struct sockaddr_in *)&e->route.addr.src_addr)->sin_port);
	KUNIT_EXPECT_GE(test, port, 32768);
	KUNIT_EXPECT_LE(test, port, 60999);
	KUNIT_EXPECT_NULL(test, e->device);
	/* a second bind of a bound ID is refused */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(e, (struct sockaddr *)&any),
			-EINVAL);
	/* a specific port below 1024 as root: allowed */
	rdma_destroy_id(c);
	rdma_destroy_id(u);
	rdma_destroy_id(e);
}

static void rck_qp_make(struct kunit *test, struct rdma_cm_id *id,
			struct rck_qp *q)
{
	struct ib_cq_init_attr cqa = { .cqe = 16 };
	struct ib_qp_init_attr qa = {};

	q->buf = (u8 *)kzalloc(RCK_GRH + RCK_MSG_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q->buf);
	q->pd = ib_alloc_pd(id->device, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q->pd));
	q->cq = ib_create_cq(id->device, NULL, NULL, NULL, &cqa);
	if (IS_ERR(q->cq)) {
		q->cq = NULL;
		KUNIT_ASSERT_FAILURE(test, "ib_create_cq");
	}
	qa.send_cq = q->cq;
	qa.recv_cq = q->cq;
	qa.cap.max_send_wr = 4;
	qa.cap.max_recv_wr = 4;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.sq_sig_type = IB_SIGNAL_ALL_WR;
	qa.qp_type = id->qp_type;
	KUNIT_ASSERT_EQ(test, rdma_create_qp(id, q->pd, &qa), 0);
	KUNIT_ASSERT_NOT_NULL(test, id->qp);
}

static void rck_post_recv(struct kunit *test, struct rdma_cm_id *id,
			  struct rck_qp *q, u32 len)
{
	struct ib_sge sge = {
		.addr = (u64)(uintptr_t)q->buf,
		.length = len,
		.lkey = q->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, ib_post_recv(id->qp, &wr, NULL), 0);
}

/* one completion of @q within RCK_WAIT_MS */
static int rck_poll(struct rck_qp *q, struct ib_wc *wc)
{
	int i, n;

	for (i = 0; i < RCK_WAIT_MS / 5; i++) {
		n = ib_poll_cq(q->cq, 1, wc);
		if (n)
			return n;
		usleep_range(4000, 6000);
	}
	return 0;
}

/*
 * One SEND of RCK_MSG_LEN pattern bytes (@seed) from the active QP to
 * the passive one (UD: through k->aq.ah to the QPN and Q_Key of the
 * active side's ESTABLISHED), both completions good, every byte there.
 */
static void rck_send_check(struct kunit *test, struct rck *k, u8 seed)
{
	bool ud = k->a.id->qp_type == IB_QPT_UD;
	u32 off = ud ? RCK_GRH : 0;
	u8 msg[RCK_MSG_LEN];
	struct ib_ud_wr wr = {};
	struct ib_sge sge;
	struct ib_wc wc;

	rck_fill(msg, sizeof(msg), seed);
	memcpy(k->aq.buf, msg, sizeof(msg));
	sge.addr = (u64)(uintptr_t)k->aq.buf;
	sge.length = RCK_MSG_LEN;
	sge.lkey = k->aq.pd->local_dma_lkey;
	wr.wr.wr_id = 1;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	if (ud) {
		wr.ah = k->aq.ah;
		wr.remote_qpn = k->a.ud.qp_num;
		wr.remote_qkey = k->a.ud.qkey;
	}
	KUNIT_ASSERT_EQ(test, ib_post_send(k->a.id->qp, &wr.wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, rck_poll(&k->aq, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, rck_poll(&k->pq, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, off + RCK_MSG_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(k->pq.buf + off, msg, RCK_MSG_LEN), 0);
}

/*
 * Listen, connect with 56 bytes of private data, accept from outside
 * the handler (rdma_lock_handler, as rdma_ucm does) with kernel QPs on
 * both sides, one SEND checked byte by byte, disconnect, timewait.
 */
static void rcm_connect_send_disconnect(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	struct rdma_conn_param cp = {}, ap = {};
	u8 data[RCK_REQ_LEN];
	static const char rep[16] = "accepted";

	rck_listen(test, k, RCK_PORT + 2, RDMA_PS_TCP, IB_QPT_RC);
	k->a.id = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	rck_resolve(test, k, RCK_PORT + 2);
	rck_qp_make(test, k->a.id, &k->aq);

	rck_fill(data, sizeof(data), 3);
	cp.private_data = data;
	cp.private_data_len = sizeof(data);
	cp.responder_resources = 1;
	cp.initiator_depth = 1;
	cp.retry_count = 7;
	cp.rnr_retry_count = 7;
	KUNIT_ASSERT_EQ(test, rdma_connect(k->a.id, &cp), 0);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, k->p.conn);
	KUNIT_EXPECT_EQ(test, k->p.req_data_len, RCK_REQ_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(k->p.req_data, data, RCK_REQ_LEN), 0);
	KUNIT_EXPECT_EQ(test, k->p.req_param.qp_num, k->a.id->qp->qp_num);
	KUNIT_EXPECT_EQ(test, k->p.req_param.retry_count, 7);
	KUNIT_EXPECT_PTR_EQ(test, k->p.conn->device, k->dev);
	KUNIT_EXPECT_PTR_NE(test, k->p.conn, k->p.id);

	rck_qp_make(test, k->p.conn, &k->pq);
	rck_post_recv(test, k->p.conn, &k->pq, RCK_MSG_LEN);
	ap.private_data = rep;
	ap.private_data_len = sizeof(rep);
	ap.responder_resources = 1;
	ap.initiator_depth = 1;
	ap.rnr_retry_count = 7;
	rdma_lock_handler(k->p.conn);
	KUNIT_EXPECT_EQ(test, rdma_accept(k->p.conn, &ap), 0);
	rdma_unlock_handler(k->p.conn);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ESTABLISHED);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.rep_data, rep, sizeof(rep)), 0);

	rck_send_check(test, k, 0x41);

	KUNIT_ASSERT_EQ(test, rdma_disconnect(k->a.id), 0);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, rdma_disconnect(k->p.conn), 0);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_DISCONNECTED);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_TIMEWAIT_EXIT);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, rck_count(&k->a, RDMA_CM_EVENT_DISCONNECTED), 1U);
	KUNIT_EXPECT_EQ(test, rck_count(&k->p, RDMA_CM_EVENT_DISCONNECTED), 1U);
	KUNIT_EXPECT_EQ(test, rck_count(&k->p, RDMA_CM_EVENT_CONNECT_REQUEST),
			1U);
}

/*
 * A connect with no kernel QP, for the reject cases; the QPN differs per
 * port (ib_cm keeps a rejected QPN a while: the same one again would be
 * a stale connection, REJ 10).
 */
static void rck_connect_noqp(struct kunit *test, struct rck *k, u16 port)
{
	struct rdma_conn_param cp = { .qp_num = 0x100u + port,
				      .retry_count = 7 };

	k->a.id = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	rck_resolve(test, k, port);
	KUNIT_ASSERT_EQ(test, rdma_connect(k->a.id, &cp), 0);
}

/* the listener's user rejects: REJECTED 28 with its private data */
static void rcm_reject_by_consumer(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	static const char why[20] = "not today, thanks";

	rck_listen(test, k, RCK_PORT + 3, RDMA_PS_TCP, IB_QPT_RC);
	rck_connect_noqp(test, k, RCK_PORT + 3);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_CONNECT_REQUEST);
	rdma_lock_handler(k->p.conn);
	KUNIT_EXPECT_EQ(test, rdma_reject(k->p.conn, why, sizeof(why), 0), 0);
	rdma_unlock_handler(k->p.conn);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, rck_status(&k->a, RDMA_CM_EVENT_REJECTED),
			IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_TRUE(test, rdma_is_consumer_reject(k->a.id, 28));
	KUNIT_EXPECT_EQ(test, k->a.rej_len, IB_CM_WIRE_REJ_PRIV_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.rej_data, why, sizeof(why)), 0);
}

/* a CONNECT_REQUEST handler that fails: REJECTED 28, the ID is gone */
static void rcm_reject_by_handler(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;

	k->p.req_ret = -EINVAL;
	rck_listen(test, k, RCK_PORT + 4, RDMA_PS_TCP, IB_QPT_RC);
	rck_connect_noqp(test, k, RCK_PORT + 4);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, rck_status(&k->a, RDMA_CM_EVENT_REJECTED),
			IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_NULL(test, k->p.conn);
	KUNIT_EXPECT_EQ(test, k->p.nev, 1U);
	KUNIT_EXPECT_EQ(test, k->a.rej_len, IB_CM_WIRE_REJ_PRIV_LEN);
}

/* nobody listens on the port: REJECTED with reason 8 (service ID) */
static void rcm_reject_no_listener(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;

	rck_connect_noqp(test, k, RCK_PORT + 5);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_REJECTED);
	KUNIT_EXPECT_EQ(test, rck_status(&k->a, RDMA_CM_EVENT_REJECTED),
			IB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_FALSE(test, rdma_is_consumer_reject(k->a.id, 8));
}

/* no ARP answer: ADDR_ERROR -ETIMEDOUT; no route: ADDR_ERROR too */
static void rcm_addr_errors(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	struct sockaddr_in dst = k->addr;
	struct rdma_cm_id *b;

	k->a.id = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	/* 10.0.0.99 is on veth0's subnet; nobody has it */
	dst.sin_addr.s_addr = (k->addr.sin_addr.s_addr & htonl(0xffffff00)) |
			      htonl(99);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(k->a.id, NULL,
						(struct sockaddr *)&dst, 1000), 0);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ADDR_ERROR);
	KUNIT_EXPECT_EQ(test, rck_status(&k->a, RDMA_CM_EVENT_ADDR_ERROR),
			-ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, rck_count(&k->a, RDMA_CM_EVENT_ADDR_RESOLVED),
			0U);
	/* the ID may resolve again after an error (back in ADDR_BOUND) */
	dst.sin_addr.s_addr = htonl(0xc6336401);	/* 198.51.100.1 */
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(k->a.id, NULL,
						(struct sockaddr *)&dst, 1000), 0);
	KUNIT_ASSERT_TRUE(test, wait_event_timeout(k->a.wq,
		rck_count(&k->a, RDMA_CM_EVENT_ADDR_ERROR) >= 2,
		msecs_to_jiffies(RCK_WAIT_MS)) != 0);
	KUNIT_EXPECT_LT(test, k->a.status[1], 0);
	/* a wildcard destination is refused at once */
	b = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	dst.sin_addr.s_addr = 0;
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(b, NULL, (struct sockaddr *)&dst,
						1000), -EINVAL);
	rdma_destroy_id(b);
}

/*
 * UD: SIDR_REQ with private data, the passive side accepts with its UD
 * QP, the active side gets ESTABLISHED with QPN and Q_Key and sends one
 * datagram through an AH made from the event.
 */
static void rcm_ud_sidr_send(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	struct rdma_conn_param cp = {}, ap = {};
	u8 data[RCK_REQ_LEN];

	rck_listen(test, k, RCK_PORT + 6, RDMA_PS_UDP, IB_QPT_UD);
	k->a.id = rck_id(test, &k->a, RDMA_PS_UDP, IB_QPT_UD);
	rck_resolve(test, k, RCK_PORT + 6);
	rck_qp_make(test, k->a.id, &k->aq);
	rck_fill(data, sizeof(data), 9);
	cp.private_data = data;
	cp.private_data_len = sizeof(data);
	KUNIT_ASSERT_EQ(test, rdma_connect(k->a.id, &cp), 0);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, k->p.conn);
	KUNIT_EXPECT_EQ(test, k->p.req_data_len, CMA_WIRE_SIDR_REQ_USER_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(k->p.req_data, data, RCK_REQ_LEN), 0);
	rck_qp_make(test, k->p.conn, &k->pq);
	rck_post_recv(test, k->p.conn, &k->pq, RCK_GRH + RCK_MSG_LEN);
	rdma_lock_handler(k->p.conn);
	KUNIT_EXPECT_EQ(test, rdma_accept(k->p.conn, &ap), 0);
	rdma_unlock_handler(k->p.conn);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, k->a.ud.qp_num, k->p.conn->qp->qp_num);
	KUNIT_EXPECT_EQ(test, k->a.ud.qkey, (u32)RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.ud.ah_attr.grh.dgid.raw, k->gid.raw,
				     16), 0);

	k->aq.ah = rdma_create_ah(k->aq.pd, &k->a.ud.ah_attr,
				  RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(k->aq.ah)) {
		long err = PTR_ERR(k->aq.ah);

		k->aq.ah = NULL;
		KUNIT_ASSERT_FAILURE(test, "rdma_create_ah: %ld", err);
	}
	rck_send_check(test, k, 0x17);
	/* the passive side hears nothing more: no ESTABLISHED for UD */
	KUNIT_EXPECT_EQ(test, rck_count(&k->p, RDMA_CM_EVENT_ESTABLISHED), 0U);
}

/*
 * A UD ID resolved to an IPv4 group joins it as a full member:
 * MULTICAST_JOIN with the group's AH (MGID ::ffff:group, multicast MAC),
 * QPN 0xffffff, the UDP Q_Key and the join's context; then leaves it.
 */
static void rcm_multicast_join(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	static const u8 mac[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
	struct sockaddr_in grp = {};
	struct sockaddr_in6 grp6 = {};
	union ib_gid mgid = {};

	grp.sin_family = AF_INET;
	grp.sin_addr.s_addr = htonl(0xef010203);	/* 239.1.2.3 */
	k->a.id = rck_id(test, &k->a, RDMA_PS_UDP, IB_QPT_UD);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(k->a.id, NULL,
						(struct sockaddr *)&grp, 2000), 0);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_EXPECT_PTR_EQ(test, k->a.id->device, k->dev);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(k->a.id, (struct sockaddr *)&grp,
						  RDMA_CM_JOIN_FULLMEMBER, k), 0);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_EXPECT_EQ(test, rck_status(&k->a, RDMA_CM_EVENT_MULTICAST_JOIN), 0);
	KUNIT_EXPECT_PTR_EQ(test, k->a.mc.private_data, (const void *)k);
	KUNIT_EXPECT_EQ(test, k->a.mc.qp_num, 0xffffffU);
	KUNIT_EXPECT_EQ(test, k->a.mc.qkey, (u32)RDMA_UDP_QKEY);
	mgid.raw[10] = 0xff;
	mgid.raw[11] = 0xff;
	memcpy(&mgid.raw[12], &grp.sin_addr.s_addr, 4);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.mc.ah_attr.grh.dgid.raw, mgid.raw, 16),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.mc.ah_attr.roce.dmac, mac, ETH_ALEN),
			0);
	KUNIT_EXPECT_EQ(test, k->a.mc.ah_attr.grh.sgid_index, k->sgid_index);
	rdma_leave_multicast(k->a.id, (struct sockaddr *)&grp);
	/* IPv6 groups on RoCE v2 are not supported; RC IDs do not join */
	grp6.sin6_family = AF_INET6;
	grp6.sin6_addr.s6_addr[0] = 0xff;
	grp6.sin6_addr.s6_addr[1] = 0x0e;
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(k->a.id,
						  (struct sockaddr *)&grp6,
						  RDMA_CM_JOIN_FULLMEMBER, k),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, k->a.nev, 2U);
}

/* port 1's first RoCE v2 GID that is a global IPv6 address */
static int rck_ipv6_gid(struct ib_device *dev, union ib_gid *gid)
{
	u32 i, n = rdma_gid_table_len(dev, 1);
	struct rdma_gid_entry e;

	for (i = 0; i < n; i++) {
		if (rdma_query_gid_entry(dev, 1, i, &e) ||
		    e.gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
		    (e.gid.raw[10] == 0xff && e.gid.raw[11] == 0xff) ||
		    (e.gid.raw[0] == 0xfe && (e.gid.raw[1] & 0xc0) == 0x80))
			continue;
		*gid = e.gid;
		return 0;
	}
	return -ENOENT;
}

/*
 * IPv6, as rdma_ucm drives it (no kernel QPs): listen on the device's
 * IPv6 address, connect with QPN and 56 bytes, accept with a QPN, the
 * active side gets CONNECT_RESPONSE, reads its QP attributes and sends
 * the RTU with rdma_accept(NULL); the passive side gets ESTABLISHED.
 */
static void rcm_ipv6_user_qp(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	struct rdma_conn_param cp = { .qp_num = 0x123, .retry_count = 7 };
	struct rdma_conn_param ap = { .qp_num = 0x456 };
	static const char rep[16] = "v6 accepted";
	struct sockaddr_in6 a6 = {};
	struct ib_qp_attr qa = {};
	u8 data[RCK_REQ_LEN];
	union ib_gid gid6;
	int mask;

	if (rck_ipv6_gid(k->dev, &gid6))
		kunit_skip(test, "no global IPv6 RoCE v2 GID on port 1");
	a6.sin6_family = AF_INET6;
	a6.sin6_port = htons(RCK_PORT + 8);
	memcpy(&a6.sin6_addr, gid6.raw, 16);
	k->p.id = rck_id(test, &k->p, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(k->p.id, (struct sockaddr *)&a6), 0);
	KUNIT_EXPECT_PTR_EQ(test, k->p.id->device, k->dev);
	KUNIT_ASSERT_EQ(test, rdma_listen(k->p.id, 4), 0);
	k->a.id = rck_id(test, &k->a, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(k->a.id, NULL,
						(struct sockaddr *)&a6, 2000), 0);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(k->a.id, 2000), 0);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.id->route.path_rec->dgid.raw,
				     gid6.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.id->route.path_rec->sgid.raw,
				     gid6.raw, 16), 0);
	rck_fill(data, sizeof(data), 0x60);
	cp.private_data = data;
	cp.private_data_len = sizeof(data);
	KUNIT_ASSERT_EQ(test, rdma_connect(k->a.id, &cp), 0);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, k->p.conn);
	KUNIT_EXPECT_EQ(test, memcmp(k->p.req_data, data, RCK_REQ_LEN), 0);
	KUNIT_EXPECT_EQ(test, k->p.req_param.qp_num, 0x123U);
	KUNIT_EXPECT_EQ(test, k->p.conn->route.addr.src_addr.ss_family,
			(sa_family_t)AF_INET6);
	KUNIT_EXPECT_EQ(test, k->p.conn->route.addr.dst_addr.ss_family,
			(sa_family_t)AF_INET6);
	ap.private_data = rep;
	ap.private_data_len = sizeof(rep);
	rdma_lock_handler(k->p.conn);
	KUNIT_EXPECT_EQ(test, rdma_accept(k->p.conn, &ap), 0);
	rdma_unlock_handler(k->p.conn);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_CONNECT_RESPONSE);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.rep_data, rep, sizeof(rep)), 0);
	qa.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(k->a.id, &qa, &mask), 0);
	KUNIT_EXPECT_EQ(test, qa.dest_qp_num, 0x456U);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_AV);
	KUNIT_EXPECT_EQ(test, memcmp(qa.ah_attr.grh.dgid.raw, gid6.raw, 16), 0);
	rdma_lock_handler(k->a.id);
	KUNIT_EXPECT_EQ(test, rdma_accept(k->a.id, NULL), 0);
	rdma_unlock_handler(k->a.id);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, rck_count(&k->a, RDMA_CM_EVENT_ESTABLISHED), 0U);
}

/* a wildcard listener of @port on side ws (no device: hears no removal) */
static void rck_listen_any(struct kunit *test, struct rck *k, u16 port)
{
	struct sockaddr_in any = {};

	any.sin_family = AF_INET;
	any.sin_port = htons(port);
	k->w = rck_id(test, &k->ws, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(k->w, (struct sockaddr *)&any), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(k->w, 4), 0);
	KUNIT_EXPECT_NULL(test, k->w->device);
}

/*
 * A wildcard listener (0.0.0.0) takes a request on any device: the new
 * ID has the device, the address the request was sent to and the
 * sender's; a specific listener of another port does not interfere.
 */
static void rcm_wildcard_listen(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	struct sockaddr_in *src, *dst;

	rck_listen(test, k, RCK_PORT + 10, RDMA_PS_TCP, IB_QPT_RC);
	rck_listen_any(test, k, RCK_PORT + 9);
	rck_connect_noqp(test, k, RCK_PORT + 9);
	RCK_ASSERT_EVENT(test, &k->ws, RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, k->ws.conn);
	KUNIT_EXPECT_PTR_EQ(test, k->ws.conn->device, k->dev);
	src = (struct sockaddr_in *)&k->ws.conn->route.addr.src_addr;
	dst = (struct sockaddr_in *)&k->ws.conn->route.addr.dst_addr;
	KUNIT_EXPECT_EQ(test, be32_to_cpu(src->sin_addr.s_addr),
			be32_to_cpu(k->addr.sin_addr.s_addr));
	KUNIT_EXPECT_EQ(test, ntohs(src->sin_port), RCK_PORT + 9);
	KUNIT_EXPECT_EQ(test, ntohs(dst->sin_port),
			ntohs(((struct sockaddr_in *)
			       &k->a.id->route.addr.src_addr)->sin_port));
	KUNIT_EXPECT_EQ(test, k->p.nev, 0U);
	rdma_lock_handler(k->ws.conn);
	KUNIT_EXPECT_EQ(test, rdma_reject(k->ws.conn, NULL, 0, 0), 0);
	rdma_unlock_handler(k->ws.conn);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_REJECTED);
}

/*
 * The device goes with a bound listener and a connected pair: each ID
 * hears DEVICE_REMOVAL once, its handler's non-zero return destroys it,
 * and the removal (which waits for that) finishes.  Runs last.
 */
static void rcm_device_removal(struct kunit *test)
{
	struct rck *k = (struct rck *)test->priv;
	struct ib_device *dev;

	rck_listen(test, k, RCK_PORT + 7, RDMA_PS_TCP, IB_QPT_RC);
	rck_listen_any(test, k, RCK_PORT + 11);
	rck_connect_noqp(test, k, RCK_PORT + 7);
	RCK_ASSERT_EVENT(test, &k->p, RDMA_CM_EVENT_CONNECT_REQUEST);
	RCK_ASSERT_EVENT(test, &k->a, RDMA_CM_EVENT_ROUTE_RESOLVED);

	dev = k->dev;
	k->dev = NULL;
	ib_unregister_device_and_put(dev);

	KUNIT_EXPECT_TRUE(test, k->a.id_gone);
	KUNIT_EXPECT_TRUE(test, k->p.id_gone);
	KUNIT_EXPECT_TRUE(test, k->p.conn_gone);
	KUNIT_EXPECT_EQ(test, rck_count(&k->a, RDMA_CM_EVENT_DEVICE_REMOVAL), 1U);
	KUNIT_EXPECT_EQ(test, rck_count(&k->p, RDMA_CM_EVENT_DEVICE_REMOVAL), 2U);
	/* the wildcard listener had no device: it heard nothing */
	KUNIT_EXPECT_EQ(test, k->ws.nev, 0U);
}

static struct kunit_case rcm_cases[] = {
	KUNIT_CASE(rcm_resolve_addr_route),
	KUNIT_CASE(rcm_port_spaces),
	KUNIT_CASE(rcm_connect_send_disconnect),
	KUNIT_CASE(rcm_reject_by_consumer),
	KUNIT_CASE(rcm_reject_by_handler),
	KUNIT_CASE(rcm_reject_no_listener),
	KUNIT_CASE(rcm_addr_errors),
	KUNIT_CASE(rcm_ud_sidr_send),
	KUNIT_CASE(rcm_multicast_join),
	KUNIT_CASE(rcm_ipv6_user_qp),
	KUNIT_CASE(rcm_wildcard_listen),
	KUNIT_CASE(rcm_device_removal),
	{}
};

static struct kunit_suite rcm_suite = { .name = "rdma_cm", .init = rck_init,
					.exit = rck_exit, .test_cases = rcm_cases };
kunit_test_suite(rcm_suite);
