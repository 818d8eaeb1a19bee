// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * NLDEV per-object resource dumps: "rdma res show qp|cq|mr|pd|ctx|srq|cm_id".
 * One table row per kind says which restrack type it lists, under which
 * nest attributes and with which fill function; the dump walks the
 * device's restrack table from where the previous message stopped,
 * holding each entry (rdma_restrack_get) while it is written, so a
 * concurrent destroy waits for it.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/pid_namespace.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/rdma/rdma_netlink.h>
#include <rdma/ib_verbs.h>
#include "core_priv.h"
#include "cma_priv.h"


struct res_req {
	u32 port;		/* only QPs of this port (0: all) */
	bool admin;		/* the requester may see keys */
	struct ib_qp_attr *qp_attr;	/* scratch for QP rows */
	struct ib_qp_init_attr *qp_init;
};

/* Owner of an entry: kernel module name, or the pid of the creating task. */
static int fill_owner(struct sk_buff *msg, const struct rdma_restrack_entry *res)
{
	pid_t pid;

	if (!res->user)
		return nla_put_string(msg, RDMA_NLDEV_ATTR_RES_KERN_NAME,
				      res->kern_name ? res->kern_name : "");
	pid = task_pid_vnr(res->task);
	/* 0: a task that has exited, or one outside the reader's pid ns */
	return pid ? nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PID, (u32)pid) : 0;
}

static int put_u64(struct sk_buff *msg, int attr, u64 value)
{
	return nla_put_u64_64bit(msg, attr, value, RDMA_NLDEV_ATTR_PAD);
}

static bool qp_has_peer(enum ib_qp_type type)
{
	return type == IB_QPT_RC || type == IB_QPT_UC;
}

static int fill_qp(struct sk_buff *msg, struct rdma_restrack_entry *res,
		   const struct res_req *req)
{
	struct ib_qp *qp = container_of(res, struct ib_qp, res);
	struct ib_qp_attr *attr = req->qp_attr;
	u32 port;

	if (ib_query_qp(qp, attr, 0, req->qp_init))
		memset(attr, 0, sizeof(*attr));
	port = attr->port_num ? attr->port_num : qp->port;
	if (req->port && req->port != port)
		return -EAGAIN;
	if (port && nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num))
		return -EMSGSIZE;
	if (qp_has_peer(qp->qp_type) &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RQPN, attr->dest_qp_num) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RQ_PSN, attr->rq_psn)))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_SQ_PSN, attr->sq_psn))
		return -EMSGSIZE;
	if (qp_has_peer(qp->qp_type) &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE,
		       (u8)attr->path_mig_state))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, (u8)qp->qp_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE, (u8)qp->state))
		return -EMSGSIZE;
	if (res->user && nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, qp->pd->res.id))
		return -EMSGSIZE;
	return fill_owner(msg, res);
}

static int fill_cq(struct sk_buff *msg, struct rdma_restrack_entry *res,
		   const struct res_req *req)
{
	struct ib_cq *cq = container_of(res, struct ib_cq, res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQE, (u32)cq->cqe) ||
	    put_u64(msg, RDMA_NLDEV_ATTR_RES_USECNT, atomic_read(&cq->usecnt)))
		return -EMSGSIZE;
	/*
	 * iproute2 6.1 prints the values shifted by one (0 as "DIRECT", 2 as
	 * "WORKQUEUE"), for upstream's kernel CQs as for ours.
	 */
	if (!res->user &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_POLL_CTX, cq->poll_ctx))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, 0) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQN, res->id))
		return -EMSGSIZE;
	return fill_owner(msg, res);
}

static int fill_mr(struct sk_buff *msg, struct rdma_restrack_entry *res,
		   const struct res_req *req)
{
	struct ib_mr *mr = container_of(res, struct ib_mr, res);

	if (req->admin &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RKEY, mr->rkey) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LKEY, mr->lkey)))
		return -EMSGSIZE;
	if (put_u64(msg, RDMA_NLDEV_ATTR_RES_MRLEN, mr->length) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_MRN, res->id))
		return -EMSGSIZE;
	if (res->user && mr->pd &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, mr->pd->res.id))
		return -EMSGSIZE;
	return fill_owner(msg, res);
}

static int fill_pd(struct sk_buff *msg, struct rdma_restrack_entry *res,
		   const struct res_req *req)
{
	struct ib_pd *pd = container_of(res, struct ib_pd, res);

	if (req->admin &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY,
			pd->local_dma_lkey))
		return -EMSGSIZE;
	if (put_u64(msg, RDMA_NLDEV_ATTR_RES_USECNT, atomic_read(&pd->usecnt)) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, res->id))
		return -EMSGSIZE;
	return fill_owner(msg, res);
}

static int fill_ctx(struct sk_buff *msg, struct rdma_restrack_entry *res,
		    const struct res_req *req)
{
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CTXN, res->id))
		return -EMSGSIZE;
	return fill_owner(msg, res);
}

/* The QPs receiving through @srq, one LQPN per row (iproute2 needs the nest). */
static int fill_srq_qps(struct sk_buff *msg, struct ib_srq *srq)
{
	struct rdma_restrack_entry *qres;
	struct nlattr *table, *row;
	unsigned long id = 0;
	int ret = 0;

	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_QP);
	if (!table)
		return -EMSGSIZE;
	while (!ret && (qres = rdma_restrack_get_next(srq->device,
						      RDMA_RESTRACK_QP, &id))) {
		struct ib_qp *qp = container_of(qres, struct ib_qp, res);

		if (qp->srq == srq) {
			row = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
			if (!row || nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN,
						qp->qp_num))
				ret = -EMSGSIZE;
			else
				nla_nest_end(msg, row);
		}
		rdma_restrack_put(qres);
		id++;
	}
	if (ret) {
		nla_nest_cancel(msg, table);
		return ret;
	}
	nla_nest_end(msg, table);
	return 0;
}

static int fill_srq(struct sk_buff *msg, struct rdma_restrack_entry *res,
		    const struct res_req *req)
{
	struct ib_srq *srq = container_of(res, struct ib_srq, res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_SRQN, res->id) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, (u8)srq->srq_type) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, srq->pd->res.id) ||
	    fill_srq_qps(msg, srq))
		return -EMSGSIZE;
	return fill_owner(msg, res);
}

/*
 * An rdma_cm ID (rdma_cm.ko lists it, and unlists it before it is freed;
 * its fields are read unlocked, as a snapshot).
 */
static int fill_cm_id(struct sk_buff *msg, struct rdma_restrack_entry *res,
		      const struct res_req *req)
{
	const struct rdma_id_private *p = container_of(res, struct cma_res, res)->id;
	const struct rdma_addr *a = &p->id.route.addr;
	u32 port = READ_ONCE(p->id.port_num);
	u32 qpn = READ_ONCE(p->qp_num);

	if (req->port && req->port != port)
		return -EAGAIN;
	if (port && nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	if (qpn && (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, qpn) ||
		    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, (u8)p->id.qp_type)))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PS, (u32)p->id.ps) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE, (u8)READ_ONCE(p->state)))
		return -EMSGSIZE;
	if (a->src_addr.ss_family &&
	    nla_put(msg, RDMA_NLDEV_ATTR_RES_SRC_ADDR, sizeof(a->src_addr),
		    &a->src_addr))
		return -EMSGSIZE;
	if (a->dst_addr.ss_family &&
	    nla_put(msg, RDMA_NLDEV_ATTR_RES_DST_ADDR, sizeof(a->dst_addr),
		    &a->dst_addr))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CM_IDN, res->id))
		return -EMSGSIZE;
	return fill_owner(msg, res);
}

struct res_kind {
	u32 cmd;
	enum rdma_restrack_type type;
	int table_attr;
	int entry_attr;
	int id_attr;		/* the doit's key attribute */
	int (*fill)(struct sk_buff *msg, struct rdma_restrack_entry *res,
		    const struct res_req *req);
};

static const struct res_kind res_kinds[] = {
	{ RDMA_NLDEV_CMD_RES_QP_GET, RDMA_RESTRACK_QP, RDMA_NLDEV_ATTR_RES_QP,
	  RDMA_NLDEV_ATTR_RES_QP_ENTRY, RDMA_NLDEV_ATTR_RES_LQPN, fill_qp },
	{ RDMA_NLDEV_CMD_RES_CQ_GET, RDMA_RESTRACK_CQ, RDMA_NLDEV_ATTR_RES_CQ,
	  RDMA_NLDEV_ATTR_RES_CQ_ENTRY, RDMA_NLDEV_ATTR_RES_CQN, fill_cq },
	{ RDMA_NLDEV_CMD_RES_MR_GET, RDMA_RESTRACK_MR, RDMA_NLDEV_ATTR_RES_MR,
	  RDMA_NLDEV_ATTR_RES_MR_ENTRY, RDMA_NLDEV_ATTR_RES_MRN, fill_mr },
	{ RDMA_NLDEV_CMD_RES_PD_GET, RDMA_RESTRACK_PD, RDMA_NLDEV_ATTR_RES_PD,
	  RDMA_NLDEV_ATTR_RES_PD_ENTRY, RDMA_NLDEV_ATTR_RES_PDN, fill_pd },
	{ RDMA_NLDEV_CMD_RES_CTX_GET, RDMA_RESTRACK_CTX, RDMA_NLDEV_ATTR_RES_CTX,
	  RDMA_NLDEV_ATTR_RES_CTX_ENTRY, RDMA_NLDEV_ATTR_RES_CTXN, fill_ctx },
	{ RDMA_NLDEV_CMD_RES_SRQ_GET, RDMA_RESTRACK_SRQ, RDMA_NLDEV_ATTR_RES_SRQ,
	  RDMA_NLDEV_ATTR_RES_SRQ_ENTRY, RDMA_NLDEV_ATTR_RES_SRQN, fill_srq },
	{ RDMA_NLDEV_CMD_RES_CM_ID_GET, RDMA_RESTRACK_CM_ID,
	  RDMA_NLDEV_ATTR_RES_CM_ID, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY,
	  RDMA_NLDEV_ATTR_RES_CM_IDN, fill_cm_id },
};

static const struct res_kind *kind_of(const struct nlmsghdr *nlh)
{
	u32 op = RDMA_NL_GET_OP(nlh->nlmsg_type);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(res_kinds); i++)
		if (res_kinds[i].cmd == op)
			return &res_kinds[i];
	return NULL;
}

static int req_init(struct res_req *req, struct nlattr **tb,
		    struct ib_device *dev, bool admin,
		    struct netlink_ext_ack *extack)
{
	memset(req, 0, sizeof(*req));
	req->admin = admin;
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		req->port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
		if (!rdma_is_port_valid(dev, req->port)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
					    "no such port");
			return -EINVAL;
		}
	}
	req->qp_attr = (struct ib_qp_attr *)kmalloc(sizeof(*req->qp_attr),
						    GFP_KERNEL);
	req->qp_init = (struct ib_qp_init_attr *)kmalloc(sizeof(*req->qp_init),
							 GFP_KERNEL);
	if (!req->qp_attr || !req->qp_init) {
		kfree(req->qp_attr);
		kfree(req->qp_init);
		return -ENOMEM;
	}
	return 0;
}

static void req_done(struct res_req *req)
{
	kfree(req->qp_attr);
	kfree(req->qp_init);
}

/*
 * One row into @msg: 1 written, 0 skipped (filtered or invisible),
 * -EMSGSIZE when the message is full (nothing of the row is left).
 */
static int put_row(struct sk_buff *msg, const struct res_kind *kind,
		   struct rdma_restrack_entry *res, const struct res_req *req)
{
	struct nlattr *entry;
	int ret;

	if (!rdma_is_visible_in_pid_ns(res))
		return 0;
	entry = nla_nest_start_noflag(msg, kind->entry_attr);
	if (!entry)
		return -EMSGSIZE;
	ret = kind->fill(msg, res, req);
	if (ret) {
		nla_nest_cancel(msg, entry);
		return ret == -EAGAIN ? 0 : -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 1;
}

int nldev_res_obj_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct res_kind *kind = kind_of(cb->nlh);
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct rdma_restrack_entry *res;
	unsigned long id = cb->args[0];
	struct nlattr *table;
	struct ib_device *dev;
	struct nlmsghdr *nlh;
	struct res_req req;
	int ret, rows = 0;

	ret = nldev_parse(cb->nlh, tb, cb->extack);
	if (ret)
		return ret;
	dev = nldev_request_device(sock_net(skb->sk), tb, cb->extack);
	if (!dev)
		return -EINVAL;
	if (!kind) {
		ib_device_put(dev);
		return -EOPNOTSUPP;
	}
	ret = req_init(&req, tb, dev, netlink_capable(cb->skb, CAP_NET_ADMIN),
		       cb->extack);
	if (ret)
		goto out_put;

	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, kind->cmd), 0, NLM_F_MULTI);
	if (!nlh || nldev_fill_dev_handle(skb, dev)) {
		ret = -EMSGSIZE;
		goto out_cancel;
	}
	table = nla_nest_start_noflag(skb, kind->table_attr);
	if (!table) {
		ret = -EMSGSIZE;
		goto out_cancel;
	}
	while ((res = rdma_restrack_get_next(dev, kind->type, &id))) {
		ret = put_row(skb, kind, res, &req);
		rdma_restrack_put(res);
		if (ret < 0)
			break;
		rows += ret;
		id++;
	}
	cb->args[0] = id;
	if (!rows) {
		/* nothing (more) to say: end of the dump */
		ret = 0;
		goto out_cancel;
	}
	nla_nest_end(skb, table);
	nlmsg_end(skb, nlh);
	ret = skb->len;
	goto out_done;

out_cancel:
	if (nlh)
		nlmsg_cancel(skb, nlh);
out_done:
	req_done(&req);
out_put:
	ib_device_put(dev);
	return ret;
}

struct res_one {
	const struct res_kind *kind;
	struct ib_device *dev;
	struct rdma_restrack_entry *res;
	struct res_req *req;
};

static int fill_one_cb(struct sk_buff *msg, void *arg)
{
	struct res_one *one = (struct res_one *)arg;
	struct nlattr *table;
	int ret;

	if (nldev_fill_dev_handle(msg, one->dev))
		return -EMSGSIZE;
	table = nla_nest_start_noflag(msg, one->kind->table_attr);
	if (!table)
		return -EMSGSIZE;
	ret = put_row(msg, one->kind, one->res, one->req);
	if (ret <= 0) {
		nla_nest_cancel(msg, table);
		return ret ? ret : -ENOENT;
	}
	nla_nest_end(msg, table);
	return 0;
}

/* "rdma res show qp lqpn N" and the like: the one object of that id. */
int nldev_res_obj_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	const struct res_kind *kind = kind_of(nlh);
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct res_one one = { .kind = kind };
	struct res_req req;
	int ret;

	ret = nldev_parse(nlh, tb, extack);
	if (ret)
		return ret;
	if (!kind)
		return -EOPNOTSUPP;
	if (!tb[kind->id_attr]) {
		NL_SET_ERR_MSG(extack, "object id missing");
		return -EINVAL;
	}
	one.dev = nldev_request_device(sock_net(skb->sk), tb, extack);
	if (!one.dev)
		return -EINVAL;
	ret = req_init(&req, tb, one.dev, netlink_capable(skb, CAP_NET_ADMIN),
		       extack);
	if (ret)
		goto out_put;
	one.req = &req;
	one.res = rdma_restrack_get_byid(one.dev, kind->type,
					 nla_get_u32(tb[kind->id_attr]));
	if (!one.res) {
		NL_SET_ERR_MSG_ATTR(extack, tb[kind->id_attr], "no such object");
		ret = -ENOENT;
	} else {
		ret = nldev_reply(skb, nlh, kind->cmd, fill_one_cb, &one);
		rdma_restrack_put(one.res);
	}
	req_done(&req);
out_put:
	ib_device_put(one.dev);
	return ret;
}
