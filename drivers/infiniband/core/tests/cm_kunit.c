// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests of ib_cm on a real RoCE device: the module parameter "dev"
 * names it (the cm-loopback scenario creates rxe0 on a veth with
 * 10.0.0.1, loads ib_cm and then this module).  Both ends of every
 * connection are CM IDs of port 1; each CM MAD goes from QP1 to the
 * port's own IPv4 GID and back up through the MAD layer, so the whole
 * module runs: tables, state machine, timers, sends, event delivery.
 * No verbs QP exists: the QP numbers are only carried and checked.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/wait.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_device.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include "roce_port.h"

MODULE_DESCRIPTION("KUnit tests of ib_cm on a RoCE device");
MODULE_LICENSE("Dual BSD/GPL");

static char *dev_name_param = "rxe0";
module_param_named(dev, dev_name_param, charp, 0444);
MODULE_PARM_DESC(dev, "the RoCE device to run on (port 1)");

#define CMK_WAIT_MS	15000
#define CMK_MAX_EV	16
#define CMK_MAX_CONN	4	/* new IDs one listener may make in a case */
#define CMK_PRIV_CMP	16	/* private data bytes a side keeps */
#define CMK_SID		0x0000000001060000ULL	/* TCP port space, port 0 */

/* one end: the IDs the test made, and what its handler saw */
struct cmk_side {
	struct ib_cm_id *id;		/* made by the test */
	struct ib_cm_id *conn;		/* passive: the first new ID */
	struct ib_cm_id *conns[CMK_MAX_CONN];	/* every new ID, for cleanup */
	u32 nconn;
	int req_ret;			/* the handler's answer to a REQ */
	wait_queue_head_t wq;
	struct mutex hmutex;		/* taken by its handler, as rdma_cm's */
	spinlock_t lock;
	u32 nev;
	enum ib_cm_event_type ev[CMK_MAX_EV];
	/* copies of the last event of each kind that carries something */
	struct ib_cm_req_event_param req;
	struct ib_cm_roce_path req_path;
	struct ib_cm_id *req_listen_id;
	struct ib_cm_rep_event_param rep;
	enum ib_cm_rej_reason rej_reason;
	u8 rej_ari_length;
	u8 mra_service_timeout;
	struct ib_cm_sidr_rep_event_param sidr_rep;
	enum ib_wc_status send_status;
	u8 priv[IB_CM_EVENT_COUNT][CMK_PRIV_CMP];
};

struct cmk {
	struct ib_device *dev;
	u8 sgid_index;
	union ib_gid gid;
	struct cmk_side active, passive;
};

/* a new ID a listener made: the side's, destroyed by cmk_exit() */
static void cmk_new_id(struct cmk_side *s, struct ib_cm_id *cm_id)
{
	lockdep_assert_held(&s->lock);
	if (!s->conn)
		s->conn = cm_id;
	if (s->nconn < CMK_MAX_CONN)
		s->conns[s->nconn++] = cm_id;
}

static int cmk_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *e)
{
	struct cmk_side *s = (struct cmk_side *)cm_id->context;
	unsigned long flags;

	/* what a consumer's handler lock looks like to lockdep */
	mutex_lock(&s->hmutex);
	mutex_unlock(&s->hmutex);
	spin_lock_irqsave(&s->lock, flags);
	if (s->nev < CMK_MAX_EV)
		s->ev[s->nev] = e->event;
	if (e->private_data && e->event < IB_CM_EVENT_COUNT)
		memcpy(s->priv[e->event], e->private_data, CMK_PRIV_CMP);
	/* a REQ the handler fails: ib_cm destroys the new ID */
	if ((e->event == IB_CM_REQ_RECEIVED && !s->req_ret) ||
	    e->event == IB_CM_SIDR_REQ_RECEIVED)
		cmk_new_id(s, cm_id);
	switch (e->event) {
	case IB_CM_REQ_RECEIVED:
		s->req = e->param.req_rcvd;
		s->req_path = *e->param.req_rcvd.primary_path;
		s->req_listen_id = e->param.req_rcvd.listen_id;
		break;
	case IB_CM_SIDR_REP_RECEIVED:
		s->sidr_rep = e->param.sidr_rep_rcvd;
		s->sidr_rep.info = NULL;	/* not kept */
		break;
	case IB_CM_MRA_RECEIVED:
		s->mra_service_timeout = e->param.mra_rcvd.service_timeout;
		break;
	case IB_CM_REP_RECEIVED:
		s->rep = e->param.rep_rcvd;
		break;
	case IB_CM_REJ_RECEIVED:
		s->rej_reason = e->param.rej_rcvd.reason;
		s->rej_ari_length = e->param.rej_rcvd.ari_length;
		break;
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
	case IB_CM_DREQ_ERROR:
		s->send_status = e->param.send_status;
		break;
	default:
		break;
	}
	s->nev++;
	spin_unlock_irqrestore(&s->lock, flags);
	wake_up(&s->wq);
	return e->event == IB_CM_REQ_RECEIVED ? s->req_ret : 0;
}

/* how many @type events @s has seen */
static u32 cmk_count(struct cmk_side *s, enum ib_cm_event_type type)
{
	unsigned long flags;
	u32 i, n = 0;

	spin_lock_irqsave(&s->lock, flags);
	for (i = 0; i < s->nev && i < CMK_MAX_EV; i++)
		n += s->ev[i] == type;
	spin_unlock_irqrestore(&s->lock, flags);
	return n;
}

/* wait until @s has seen @n @type events; false after CMK_WAIT_MS */
static bool cmk_wait_n(struct cmk_side *s, enum ib_cm_event_type type, u32 n)
{
	return wait_event_timeout(s->wq, cmk_count(s, type) >= n,
				  msecs_to_jiffies(CMK_WAIT_MS)) != 0;
}

/* wait until @s has seen a @type event (any, earlier ones too) */
static bool cmk_wait(struct cmk_side *s, enum ib_cm_event_type type)
{
	return cmk_wait_n(s, type, 1);
}

/* @n bytes at @x are those at @y */
#define CMK_EXPECT_BYTES(test, x, y, n)					\
	KUNIT_EXPECT_EQ_MSG(test, memcmp(x, y, n), 0, "%s differs", #x)

#define CMK_ASSERT_EVENT(test, s, type)					\
	KUNIT_ASSERT_TRUE_MSG(test, cmk_wait(s, type),			\
			      "no %s within %d ms (%u events seen)",	\
			      #type, CMK_WAIT_MS, (s)->nev)

static void cmk_side_init(struct kunit *test, struct cmk *k,
			  struct cmk_side *s)
{
	struct ib_cm_id *id;

	init_waitqueue_head(&s->wq);
	mutex_init(&s->hmutex);
	spin_lock_init(&s->lock);
	id = ib_create_cm_id(k->dev, cmk_handler, s);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(id), "ib_create_cm_id: %ld",
			       PTR_ERR(id));
	s->id = id;
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_IDLE);
	KUNIT_EXPECT_PTR_EQ(test, id->device, k->dev);
}

static int cmk_init(struct kunit *test)
{
	struct cmk *k = (struct cmk *)kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	const char *why;

	KUNIT_ASSERT_NOT_NULL(test, k);
	/* cmk_exit() runs after a skip too: it finds what there is */
	test->priv = k;
	k->dev = roce_port1_get(dev_name_param, &k->sgid_index, &k->gid, &why);
	if (!k->dev)
		kunit_skip(test, "%s: %s", dev_name_param, why);
	cmk_side_init(test, k, &k->active);
	cmk_side_init(test, k, &k->passive);
	return 0;
}

/* the listener first: no REQ makes a new ID once it is gone */
static void cmk_exit(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	u32 i;

	if (!k)
		return;
	if (k->passive.id)
		ib_destroy_cm_id(k->passive.id);
	for (i = 0; i < k->passive.nconn; i++)
		if (k->passive.conns[i])
			ib_destroy_cm_id(k->passive.conns[i]);
	if (k->active.id)
		ib_destroy_cm_id(k->active.id);
	if (k->dev)
		ib_device_put(k->dev);
}

/* what the active side asks for; the values are checked on both sides */
#define CMK_A_QPN	0x000111
#define CMK_A_PSN	0x00a5a5
#define CMK_P_QPN	0x000222
#define CMK_P_PSN	0x005a5a

static struct ib_cm_roce_path cmk_path(const struct cmk *k, u8 life)
{
	struct ib_cm_roce_path path = {
		.port_num = 1,
		.sgid_index = k->sgid_index,
		.dgid = k->gid,
		.hop_limit = 64,
		.pkey = 0xffff,
		.mtu = IB_MTU_1024,
		.packet_life_time = life,
	};

	return path;
}

/*
 * Send a REQ from @id for @sid with private data "req-data" on @path,
 * for a QP numbered @qpn; @rcrt: the passive side's response time
 * exponent, @retries: the REQ's resends.
 */
static int cmk_send_req(struct ib_cm_id *id, struct ib_cm_roce_path *path,
			u64 sid, u32 qpn, u8 rcrt, u8 retries)
{
	static const char data[CMK_PRIV_CMP] = "req-data";
	static const struct ib_cm_req_param fixed = {
		.qp_type = IB_QPT_RC,
		.starting_psn = CMK_A_PSN,
		.responder_resources = 4,
		.initiator_depth = 2,
		.retry_count = 5,
		.rnr_retry_count = 6,
		.local_cm_response_timeout = 20,
		.private_data = data,
		.private_data_len = sizeof(data),
	};
	struct ib_cm_req_param req = fixed;

	req.service_id = cpu_to_be64(sid);
	req.primary_path = path;
	req.qp_num = qpn;
	req.remote_cm_response_timeout = rcrt;
	req.max_cm_retries = retries;
	return ib_send_cm_req(id, &req);
}

static int cmk_send_rep(struct cmk *k)
{
	static const char data[CMK_PRIV_CMP] = "rep-data";
	struct ib_cm_rep_param rep = {
		.qp_num = CMK_P_QPN,
		.starting_psn = CMK_P_PSN,
		.rnr_retry_count = 3,
		.responder_resources = 2,
		.initiator_depth = 4,
		.private_data = data,
		.private_data_len = sizeof(data),
	};

	return ib_send_cm_rep(k->passive.conn, &rep);
}

/*
 * The passive side listens on @listen_sid, the active one sends a REQ
 * for @req_sid (@rcrt, @retries as for cmk_send_req()).
 */
static void cmk_listen_req(struct kunit *test, struct cmk *k, u64 listen_sid,
			   u64 req_sid, u8 rcrt, u8 retries)
{
	struct ib_cm_roce_path path = cmk_path(k, 0);

	KUNIT_ASSERT_EQ(test, ib_cm_listen(k->passive.id,
					   cpu_to_be64(listen_sid)), 0);
	KUNIT_EXPECT_EQ(test, k->passive.id->state, IB_CM_LISTEN);
	KUNIT_ASSERT_EQ(test, cmk_send_req(k->active.id, &path, req_sid,
					   CMK_A_QPN, rcrt, retries), 0);
	KUNIT_EXPECT_EQ(test, k->active.id->state, IB_CM_REQ_SENT);
}

/* the active side got a REJ with @reason and is back in IDLE */
static void cmk_expect_rej(struct kunit *test, struct cmk_side *a,
			   enum ib_cm_rej_reason reason)
{
	CMK_ASSERT_EVENT(test, a, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, a->rej_reason, reason);
	KUNIT_EXPECT_EQ(test, a->id->state, IB_CM_IDLE);
}

/* listen, REQ, REP: both sides hold what the other one sent */
static void cmk_req_rep(struct kunit *test, struct cmk *k, u64 sid)
{
	cmk_listen_req(test, k, sid, sid, 20, 3);
	CMK_ASSERT_EVENT(test, &k->passive, IB_CM_REQ_RECEIVED);
	KUNIT_ASSERT_NOT_NULL(test, k->passive.conn);
	KUNIT_EXPECT_PTR_EQ(test, k->passive.req_listen_id, k->passive.id);
	KUNIT_ASSERT_EQ(test, cmk_send_rep(k), 0);
	CMK_ASSERT_EVENT(test, &k->active, IB_CM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, k->active.id->state, IB_CM_REP_RCVD);
}

/* ... then RTU: ESTABLISHED on both sides */
static void cmk_connect(struct kunit *test, struct cmk *k, u64 sid)
{
	static const char data[CMK_PRIV_CMP] = "rtu-data";

	cmk_req_rep(test, k, sid);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rtu(k->active.id, data,
					     sizeof(data)), 0);
	CMK_ASSERT_EVENT(test, &k->passive, IB_CM_RTU_RECEIVED);
	KUNIT_EXPECT_EQ(test, k->active.id->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, k->passive.conn->state, IB_CM_ESTABLISHED);
	CMK_EXPECT_BYTES(test, k->passive.priv[IB_CM_RTU_RECEIVED], data,
			   sizeof(data));
}

/*
 * The whole life of a connection: REQ, REP, RTU with what each side
 * reports of the other, then DREQ, DREP, timewait on both sides and
 * its end.
 */
static void cm_connect_disconnect(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;

	cmk_connect(test, k, CMK_SID + 1);

	/* the REQ as the listener's side sees it */
	KUNIT_EXPECT_EQ(test, p->req.remote_qpn, (u32)CMK_A_QPN);
	KUNIT_EXPECT_EQ(test, p->req.starting_psn, (u32)CMK_A_PSN);
	KUNIT_EXPECT_EQ(test, p->req.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, p->req.responder_resources, 2);	/* swapped */
	KUNIT_EXPECT_EQ(test, p->req.initiator_depth, 4);
	KUNIT_EXPECT_EQ(test, p->req.retry_count, 5);
	KUNIT_EXPECT_EQ(test, p->req.rnr_retry_count, 6);
	KUNIT_EXPECT_EQ(test, p->req.remote_cm_response_timeout, 20);
	KUNIT_EXPECT_EQ(test, p->req.port, 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p->req.remote_ca_guid), be64_to_cpu(k->dev->node_guid));
	CMK_EXPECT_BYTES(test, p->req_path.dgid.raw, k->gid.raw, 16);
	CMK_EXPECT_BYTES(test, p->req_path.sgid.raw, k->gid.raw, 16);
	CMK_EXPECT_BYTES(test, p->priv[IB_CM_REQ_RECEIVED], "req-data", 9);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p->conn->service_id), (u64)(CMK_SID + 1));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p->conn->remote_id), be32_to_cpu(a->id->local_id));
	/* the REP as the active side sees it */
	KUNIT_EXPECT_EQ(test, a->rep.remote_qpn, (u32)CMK_P_QPN);
	KUNIT_EXPECT_EQ(test, a->rep.starting_psn, (u32)CMK_P_PSN);
	KUNIT_EXPECT_EQ(test, a->rep.responder_resources, 4);	/* swapped */
	KUNIT_EXPECT_EQ(test, a->rep.initiator_depth, 2);
	KUNIT_EXPECT_EQ(test, a->rep.rnr_retry_count, 3);
	CMK_EXPECT_BYTES(test, a->priv[IB_CM_REP_RECEIVED], "rep-data", 9);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(a->id->remote_id), be32_to_cpu(p->conn->local_id));
	/* the listener is still listening */
	KUNIT_EXPECT_EQ(test, p->id->state, IB_CM_LISTEN);

	KUNIT_ASSERT_EQ(test, ib_send_cm_dreq(a->id, "bye", 4), 0);
	KUNIT_EXPECT_EQ(test, a->id->state, IB_CM_DREQ_SENT);
	CMK_ASSERT_EVENT(test, p, IB_CM_DREQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, p->conn->state, IB_CM_DREQ_RCVD);
	CMK_EXPECT_BYTES(test, p->priv[IB_CM_DREQ_RECEIVED], "bye", 4);
	KUNIT_ASSERT_EQ(test, ib_send_cm_drep(p->conn, "ok", 3), 0);
	KUNIT_EXPECT_EQ(test, p->conn->state, IB_CM_TIMEWAIT);
	CMK_ASSERT_EVENT(test, a, IB_CM_DREP_RECEIVED);
	CMK_EXPECT_BYTES(test, a->priv[IB_CM_DREP_RECEIVED], "ok", 3);
	/* timewait ends on its own (a fraction of a second on rxe) */
	CMK_ASSERT_EVENT(test, a, IB_CM_TIMEWAIT_EXIT);
	CMK_ASSERT_EVENT(test, p, IB_CM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, a->id->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, p->conn->state, IB_CM_IDLE);
	/* nothing was lost or repeated on the way */
	KUNIT_EXPECT_EQ(test, cmk_count(p, IB_CM_REQ_RECEIVED), 1U);
	KUNIT_EXPECT_EQ(test, cmk_count(a, IB_CM_REP_RECEIVED), 1U);
	KUNIT_EXPECT_EQ(test, cmk_count(p, IB_CM_RTU_RECEIVED), 1U);
	KUNIT_EXPECT_EQ(test, a->nev, 3U);	/* REP, DREP, TIMEWAIT_EXIT */
	KUNIT_EXPECT_EQ(test, p->nev, 4U);	/* REQ, RTU, DREQ, TIMEWAIT_EXIT */
}

/* the listener's user says no: reason 28 and its private data arrive */
static void cm_reject_by_consumer(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;
	static const char why[CMK_PRIV_CMP] = "go away";

	cmk_listen_req(test, k, CMK_SID + 2, CMK_SID + 2, 20, 3);
	CMK_ASSERT_EVENT(test, p, IB_CM_REQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rej(p->conn, IB_CM_REJ_CONSUMER_DEFINED,
					     NULL, 0, why, sizeof(why)), 0);
	cmk_expect_rej(test, a, IB_CM_REJ_CONSUMER_DEFINED);
	CMK_EXPECT_BYTES(test, a->priv[IB_CM_REJ_RECEIVED], why, sizeof(why));
	KUNIT_EXPECT_EQ(test, p->conn->state, IB_CM_IDLE);
	/* a REJ is final: no REP can follow it */
	KUNIT_EXPECT_NE(test, cmk_send_rep(k), 0);
}

/* a handler that fails a REQ makes ib_cm reject it with reason 28 */
static void cm_reject_by_handler_error(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;

	k->passive.req_ret = -EINVAL;
	cmk_listen_req(test, k, CMK_SID + 3, CMK_SID + 3, 20, 3);
	cmk_expect_rej(test, &k->active, IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, cmk_count(&k->passive, IB_CM_REQ_RECEIVED), 1U);
}

/* nobody listens on the service ID: REJ "invalid service ID" (8) */
static void cm_reject_no_listener(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;

	cmk_listen_req(test, k, CMK_SID + 4, CMK_SID + 5, 20, 3);
	cmk_expect_rej(test, a, IB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, p->nev, 0U);
	/* a second listener on a taken service ID is refused */
	KUNIT_EXPECT_EQ(test, ib_cm_listen(a->id, cpu_to_be64(CMK_SID + 4)),
			-EBUSY);
}

/*
 * A consumer may destroy an ID that never had an event while it holds
 * the lock its handler takes (rdma_cm does when a connect or a listen
 * fails): no event work of that ID can be waited for.  The REJ first
 * teaches lockdep "event work, then handler lock"; the reverse order
 * would be reported (a kernel report fails the run).  A listen refused
 * for a taken service ID under the lock is the other such path.
 */
static void cm_destroy_unused_under_handler_lock(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active;
	struct ib_cm_id *id;
	int ret;

	cmk_listen_req(test, k, CMK_SID + 20, CMK_SID + 21, 20, 3);
	cmk_expect_rej(test, a, IB_CM_REJ_INVALID_SERVICE_ID);

	mutex_lock(&a->hmutex);
	id = ib_create_cm_id(k->dev, cmk_handler, a);
	if (IS_ERR(id)) {
		mutex_unlock(&a->hmutex);
		KUNIT_FAIL(test, "ib_create_cm_id: %ld", PTR_ERR(id));
		return;
	}
	ret = ib_cm_listen(id, cpu_to_be64(CMK_SID + 20));
	ib_destroy_cm_id(id);
	mutex_unlock(&a->hmutex);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
}

/*
 * The listener takes the REQ and never answers: after max_cm_retries
 * resends the active side gets REQ_ERROR (send status: response
 * timeout); the resends were duplicates to the passive side.
 */
static void cm_req_timeout(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;

	/* 2 * 1 ms + 2^(12 - 8) ms = 18 ms a send, three sends */
	cmk_listen_req(test, k, CMK_SID + 6, CMK_SID + 6, 12, 2);
	CMK_ASSERT_EVENT(test, a, IB_CM_REQ_ERROR);
	KUNIT_EXPECT_EQ(test, a->send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, a->id->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, cmk_count(p, IB_CM_REQ_RECEIVED), 1U);
	KUNIT_EXPECT_EQ(test, cmk_count(a, IB_CM_REP_RECEIVED), 0U);
	/* the passive side still waits for its user */
	KUNIT_ASSERT_NOT_NULL(test, p->conn);
	KUNIT_EXPECT_EQ(test, p->conn->state, IB_CM_REQ_RCVD);
}

/*
 * ib_cm_init_qp_attr(): refused before a connection exists; on both
 * sides of one, INIT, RTR and RTS carry the exchanged values (each side
 * receives at its own PSN and sends at the peer's, the depths are its
 * own).
 */
static void cm_init_qp_attr(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;
	struct ib_qp_attr attr = {};
	int mask = 0;

	attr.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(a->id, &attr, &mask), -EINVAL);
	cmk_connect(test, k, CMK_SID + 7);

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_INIT;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(a->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_ACCESS_FLAGS |
			IB_QP_PKEY_INDEX | IB_QP_PORT);
	KUNIT_EXPECT_EQ(test, attr.port_num, 1);
	KUNIT_EXPECT_TRUE(test, attr.qp_access_flags & IB_ACCESS_REMOTE_READ);

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(a->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	KUNIT_EXPECT_EQ(test, attr.dest_qp_num, (u32)CMK_P_QPN);
	KUNIT_EXPECT_EQ(test, attr.rq_psn, (u32)CMK_A_PSN);
	KUNIT_EXPECT_EQ(test, attr.path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, attr.max_dest_rd_atomic, 4);
	CMK_EXPECT_BYTES(test, attr.ah_attr.grh.dgid.raw, k->gid.raw, 16);
	KUNIT_EXPECT_EQ(test, attr.ah_attr.grh.sgid_index, k->sgid_index);
	KUNIT_EXPECT_EQ(test, attr.ah_attr.port_num, 1);

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(a->id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_SQ_PSN |
			IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			IB_QP_MAX_QP_RD_ATOMIC | IB_QP_TIMEOUT);
	KUNIT_EXPECT_EQ(test, attr.sq_psn, (u32)CMK_P_PSN);
	KUNIT_EXPECT_EQ(test, attr.retry_cnt, 5);
	KUNIT_EXPECT_EQ(test, attr.rnr_retry, 3);	/* the REP's */
	KUNIT_EXPECT_EQ(test, attr.max_rd_atomic, 2);
	KUNIT_EXPECT_GT(test, attr.timeout, 0);

	/* the passive side: the mirror image */
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(p->conn, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.dest_qp_num, (u32)CMK_A_QPN);
	KUNIT_EXPECT_EQ(test, attr.rq_psn, (u32)CMK_P_PSN);
	KUNIT_EXPECT_EQ(test, attr.max_dest_rd_atomic, 2);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(p->conn, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.sq_psn, (u32)CMK_A_PSN);
	KUNIT_EXPECT_EQ(test, attr.max_rd_atomic, 4);
	KUNIT_EXPECT_EQ(test, attr.retry_cnt, 5);
	KUNIT_EXPECT_EQ(test, attr.rnr_retry, 6);	/* the REQ's */

	/* a state the CM does not move a QP to */
	attr.qp_state = IB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, ib_cm_init_qp_attr(p->conn, &attr, &mask),
			-EINVAL);
}

/*
 * Destroy both ends of an established connection without a DREQ first:
 * the destroy sends one itself and waits for nothing from the handler.
 * Then the listener takes a new REQ on a fresh ID.
 */
static void cm_destroy_established(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;

	cmk_connect(test, k, CMK_SID + 8);
	ib_destroy_cm_id(a->id);
	a->id = NULL;
	/* the passive side hears the DREQ the destroy sent */
	CMK_ASSERT_EVENT(test, p, IB_CM_DREQ_RECEIVED);
	ib_destroy_cm_id(p->conn);
	p->conn = NULL;
	p->conns[0] = NULL;
	KUNIT_EXPECT_EQ(test, p->id->state, IB_CM_LISTEN);
}

/*
 * A REQ the passive side cannot take (MTU code 6: none) is rejected with
 * reason 26 (invalid MTU) instead of being dropped, so the sender does
 * not wait for its retries to run out.
 */
static void cm_malformed_req_rejected(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct ib_cm_roce_path path = cmk_path(k, 0);

	path.mtu = (enum ib_mtu)6;
	KUNIT_ASSERT_EQ(test, ib_cm_listen(k->passive.id,
					   cpu_to_be64(CMK_SID + 11)), 0);
	KUNIT_ASSERT_EQ(test, cmk_send_req(k->active.id, &path, CMK_SID + 11,
					   CMK_A_QPN, 20, 3), 0);
	cmk_expect_rej(test, &k->active, IB_CM_REJ_INVALID_MTU);
	KUNIT_EXPECT_EQ(test, k->passive.nev, 0U);
}

/*
 * The passive side asks for more time with an MRA (the active side's
 * REQ timer makes way for it), then answers with a REP.
 */
static void cm_mra_then_rep(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;

	cmk_listen_req(test, k, CMK_SID + 14, CMK_SID + 14, 20, 3);
	CMK_ASSERT_EVENT(test, p, IB_CM_REQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, ib_send_cm_mra(p->conn, 20, "wait", 5), 0);
	KUNIT_EXPECT_EQ(test, p->conn->state, IB_CM_MRA_REQ_SENT);
	CMK_ASSERT_EVENT(test, a, IB_CM_MRA_RECEIVED);
	KUNIT_EXPECT_EQ(test, a->mra_service_timeout, 20);
	CMK_EXPECT_BYTES(test, a->priv[IB_CM_MRA_RECEIVED], "wait", 5);
	KUNIT_EXPECT_EQ(test, a->id->state, IB_CM_MRA_REQ_RCVD);
	KUNIT_ASSERT_EQ(test, cmk_send_rep(k), 0);
	CMK_ASSERT_EVENT(test, a, IB_CM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, a->id->state, IB_CM_REP_RCVD);
}

static int cmk_sidr_req(struct cmk *k, u64 sid)
{
	struct ib_cm_roce_path path = cmk_path(k, 0);
	struct ib_cm_sidr_req_param req = {
		.service_id = cpu_to_be64(sid),
		.path = &path,
		.timeout_ms = 4000,
		.max_cm_retries = 2,
		.private_data = "sidr-req",
		.private_data_len = 9,
	};

	return ib_send_cm_sidr_req(k->active.id, &req);
}

/*
 * Service ID resolution: the listener's side gets SIDR_REQ_RECEIVED on a
 * new ID and answers with its UD QP; a SIDR_REQ for a service nobody
 * listens on gets status 1 (unsupported) from ib_cm.
 */
static void cm_sidr_resolve(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;
	struct ib_cm_sidr_rep_param rep = {
		.status = IB_SIDR_SUCCESS,
		.qp_num = 0x444,
		.qkey = 0x12345678,
		.private_data = "sidr-rep",
		.private_data_len = 9,
	};

	KUNIT_ASSERT_EQ(test, ib_cm_listen(p->id, cpu_to_be64(CMK_SID + 12)),
			0);
	KUNIT_ASSERT_EQ(test, cmk_sidr_req(k, CMK_SID + 12), 0);
	KUNIT_EXPECT_EQ(test, a->id->state, IB_CM_SIDR_REQ_SENT);
	CMK_ASSERT_EVENT(test, p, IB_CM_SIDR_REQ_RECEIVED);
	KUNIT_ASSERT_NOT_NULL(test, p->conn);
	CMK_EXPECT_BYTES(test, p->priv[IB_CM_SIDR_REQ_RECEIVED], "sidr-req", 9);
	KUNIT_EXPECT_EQ(test, p->conn->state, IB_CM_SIDR_REQ_RCVD);
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_rep(p->conn, &rep), 0);
	CMK_ASSERT_EVENT(test, a, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, a->sidr_rep.status, IB_SIDR_SUCCESS);
	KUNIT_EXPECT_EQ(test, a->sidr_rep.qpn, 0x444U);
	KUNIT_EXPECT_EQ(test, a->sidr_rep.qkey, 0x12345678U);
	CMK_EXPECT_BYTES(test, a->priv[IB_CM_SIDR_REP_RECEIVED], "sidr-rep", 9);
	KUNIT_EXPECT_EQ(test, a->id->state, IB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, p->conn->state, IB_CM_IDLE);

	KUNIT_ASSERT_EQ(test, cmk_sidr_req(k, CMK_SID + 13), 0);
	KUNIT_ASSERT_TRUE(test, wait_event_timeout(a->wq,
			  cmk_count(a, IB_CM_SIDR_REP_RECEIVED) == 2,
			  msecs_to_jiffies(CMK_WAIT_MS)) != 0);
	KUNIT_EXPECT_EQ(test, a->sidr_rep.status, IB_SIDR_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, p->nconn, 1U);
}

/* a third side, on top of the two every case has */
static struct cmk_side *cmk_third_side(struct kunit *test, struct cmk *k)
{
	struct cmk_side *w;

	w = (struct cmk_side *)kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	cmk_side_init(test, k, w);
	return w;
}

/*
 * A REQ from a QP that is still connected: the sender gets REJ 10
 * (stale connection) and the old connection is ended (its peer gets a
 * DREQ from the listener's side).
 */
static void cm_stale_qpn(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct ib_cm_roce_path path = cmk_path(k, 0);
	struct cmk_side *w;

	cmk_connect(test, k, CMK_SID + 10);
	w = cmk_third_side(test, k);
	KUNIT_ASSERT_EQ(test, cmk_send_req(w->id, &path, CMK_SID + 10,
					   CMK_A_QPN, 20, 3), 0);
	CMK_ASSERT_EVENT(test, w, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, w->rej_reason, IB_CM_REJ_STALE_CONN);
	CMK_ASSERT_EVENT(test, &k->active, IB_CM_DREQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, k->passive.conn->state, IB_CM_DREQ_SENT);
	KUNIT_EXPECT_EQ(test, k->passive.nconn, 1U);
	ib_destroy_cm_id(w->id);
}

/*
 * Remove the device (as "rdma link delete" does) with a listener, an
 * established connection and a REQ waiting for its REP: the REQ ends
 * with a flush error, a call that would send fails, and the IDs are
 * destroyed cleanly afterwards.  Runs last: the device is gone after it.
 */
static void cm_device_removal(struct kunit *test)
{
	struct cmk *k = (struct cmk *)test->priv;
	struct cmk_side *a = &k->active, *p = &k->passive;
	struct ib_cm_roce_path path = cmk_path(k, 0);
	struct cmk_side *w;
	struct ib_device *dev;

	cmk_connect(test, k, CMK_SID + 9);
	/* a REQ of another QP the listener takes and does not answer */
	w = cmk_third_side(test, k);
	KUNIT_EXPECT_EQ(test, cmk_send_req(w->id, &path, CMK_SID + 9,
					   CMK_A_QPN + 1, 20, 15), 0);
	/* the second REQ_RECEIVED: the first one came with the connection */
	KUNIT_ASSERT_TRUE_MSG(test, cmk_wait_n(p, IB_CM_REQ_RECEIVED, 2),
			      "no second REQ_RECEIVED within %d ms", CMK_WAIT_MS);
	KUNIT_EXPECT_EQ(test, p->nconn, 2U);
	KUNIT_EXPECT_EQ(test, w->id->state, IB_CM_REQ_SENT);

	dev = k->dev;
	k->dev = NULL;
	ib_unregister_device_and_put(dev);

	CMK_ASSERT_EVENT(test, w, IB_CM_REQ_ERROR);
	KUNIT_EXPECT_EQ(test, w->send_status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, w->id->state, IB_CM_IDLE);
	/* a call that would send fails now; the device struct is gone */
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(a->id, NULL, 0), -ENODEV);
	ib_destroy_cm_id(w->id);
	/* the established pair and the listener: cmk_exit() */
	KUNIT_EXPECT_NE(test, a->id->state, IB_CM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, p->id->state, IB_CM_LISTEN);
}

static struct kunit_case cm_cases[] = {
	KUNIT_CASE(cm_connect_disconnect),
	KUNIT_CASE(cm_reject_by_consumer),
	KUNIT_CASE(cm_reject_by_handler_error),
	KUNIT_CASE(cm_reject_no_listener),
	KUNIT_CASE(cm_destroy_unused_under_handler_lock),
	KUNIT_CASE(cm_req_timeout),
	KUNIT_CASE(cm_init_qp_attr),
	KUNIT_CASE(cm_destroy_established),
	KUNIT_CASE(cm_stale_qpn),
	KUNIT_CASE(cm_malformed_req_rejected),
	KUNIT_CASE(cm_mra_then_rep),
	KUNIT_CASE(cm_sidr_resolve),
	KUNIT_CASE(cm_device_removal),
	{}
};

/* each case starts with two fresh IDs of port 1 (cmk_init) */
static struct kunit_suite cm_suite = { .name = "ib_cm", .init = cmk_init,
				       .exit = cmk_exit, .test_cases = cm_cases };
kunit_test_suite(cm_suite);
