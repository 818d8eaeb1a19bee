// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: kernel QPs by firmware command (Documentation/mlx-lite/
 * objects.rst).  RC, UD and the GSI QP: CREATE_QP with one buffer (RQ
 * first, SQ after it) and a doorbell record; the transitions RST2INIT,
 * INIT2INIT, INIT2RTR, RTR2RTS, RTS2RTS, SQERR2RTS, 2ERR and 2RST with the
 * QP context built from struct ib_qp_attr; QUERY_QP back into it;
 * DESTROY_QP.
 *
 * Rules:
 *  - a transition is checked before anything is sent: ib_core's own QP
 *    state table (ib_modify_qp_is_ok(), -EINVAL), then what the command
 *    can carry: SQD, alternate paths, path migration, rate limits and
 *    attributes a command has no field or opt_param_mask bit for are
 *    -EOPNOTSUPP;
 *  - the command's input is built by mlxl_qpc.c (pure) from the
 *    attributes;
 *  - kernel QPs use reserved-lkey addressing (rlky) and fast registration;
 *  - one GSI QP per function: a second is refused (-EBUSY) before the
 *    firmware sees it.
 */
#include <linux/log2.h>
#include <rdma/ib_verbs.h>

#include "mlxl_ib.h"
#include "mlxl_verbs.h"

#define MLXL_WQEBB		64
#define MLXL_MAX_WQEBBS		16	/* of one send WQE */
#define MLXL_CTRL_SEG		16
#define MLXL_RADDR_SEG		16
#define MLXL_ATOMIC_SEG		16
#define MLXL_DGRAM_SEG		48
#define MLXL_DATA_SEG		16
#define MLXL_MAX_SGE		16

/* ---- create */

static int qp_sq_size(struct mlxl_ib *mib, struct mlxl_qp *qp,
		      struct ib_qp_cap *cap, u32 log_max)
{
	u32 seg = qp->st == MLXL_QPT_RC ? MLXL_RADDR_SEG + MLXL_ATOMIC_SEG :
					  MLXL_DGRAM_SEG;
	u32 data = max_t(u32, cap->max_send_sge * MLXL_DATA_SEG,
			 ALIGN(4 + cap->max_inline_data, 16));
	u32 wqebbs = DIV_ROUND_UP(MLXL_CTRL_SEG + seg + data, MLXL_WQEBB);

	if (cap->max_send_sge > MLXL_MAX_SGE || wqebbs > MLXL_MAX_WQEBBS)
		return -EINVAL;
	if (!cap->max_send_wr) {
		qp->log_sq_size = 0;
		return 0;
	}
	qp->log_sq_size = order_base_2(cap->max_send_wr * wqebbs);
	if (qp->log_sq_size > log_max)
		return -EINVAL;
	cap->max_send_wr = (1u << qp->log_sq_size) / wqebbs;
	cap->max_inline_data = wqebbs * MLXL_WQEBB - MLXL_CTRL_SEG - seg - 4;
	return 0;
}

static int qp_rq_size(struct mlxl_qp *qp, struct ib_qp_init_attr *init,
		      u32 log_max)
{
	struct ib_qp_cap *cap = &init->cap;

	if (init->srq || !cap->max_recv_wr) {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
		return 0;
	}
	if (cap->max_recv_sge > MLXL_MAX_SGE)
		return -EINVAL;
	qp->log_rq_stride = order_base_2(max_t(u32, cap->max_recv_sge, 1));
	qp->log_rq_size = order_base_2(cap->max_recv_wr);
	if (qp->log_rq_size > log_max)
		return -EINVAL;
	cap->max_recv_wr = 1u << qp->log_rq_size;
	cap->max_recv_sge = 1u << qp->log_rq_stride;
	return 0;
}

static int qp_st(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_RC:
		return MLXL_QPT_RC;
	case IB_QPT_UD:
		return MLXL_QPT_UD;
	case IB_QPT_GSI:
		return MLXL_QPT_GSI;
	default:
		return -1;
	}
}

static bool gsi_exists(struct mlxl_ib *mib)
{
	unsigned long i;
	void *q;

	xa_for_each(&mib->qps, i, q)
		if (((struct mlxl_qp *)q)->st == MLXL_QPT_GSI)
			return true;
	return false;
}

/* the CREATE_QP input for qp, into mib->hw->in; its length */
static u32 create_qp_in(struct mlxl_ib *mib, struct mlxl_qp *qp,
			struct ib_qp_init_attr *init, u32 rq_bytes, u32 npas)
{
	u8 *in = mib->hw->in;
	u32 len = MLXL_CREATE_QP_PAS + 8 * npas;
	u32 rq_type = init->srq ? MLXL_RQ_SRQ :
		      init->cap.max_recv_wr ? MLXL_RQ_REGULAR : MLXL_RQ_ZERO;

	mlxl_cmd_hdr(in, len, MLXL_OP_CREATE_QP, 0);
	MLXL_SET(in, MLXL_F_QPC_ST, qp->st);
	MLXL_SET(in, MLXL_F_QPC_PM_STATE, MLXL_QP_PM_MIGRATED);
	MLXL_SET(in, MLXL_F_QPC_PD, to_mpd(qp->ibqp.pd)->pdn);
	if (rq_type == MLXL_RQ_REGULAR) {
		MLXL_SET(in, MLXL_F_QPC_LOG_RQ_SIZE, qp->log_rq_size);
		MLXL_SET(in, MLXL_F_QPC_LOG_RQ_STRIDE, qp->log_rq_stride);
	}
	MLXL_SET(in, MLXL_F_QPC_NO_SQ, !init->cap.max_send_wr);
	MLXL_SET(in, MLXL_F_QPC_LOG_SQ_SIZE, qp->log_sq_size);
	MLXL_SET(in, MLXL_F_QPC_TS_FORMAT,
		 MLXL_GET(mib->hw->roce_cap, MLXL_RC_QP_TS_FORMAT) ? 1 : 0);
	MLXL_SET(in, MLXL_F_QPC_RLKY, 1);
	MLXL_SET(in, MLXL_F_QPC_UAR_PAGE, mib->hw->uar);
	MLXL_SET(in, MLXL_F_QPC_LOG_PAGE_SIZE, 0);
	MLXL_SET(in, MLXL_F_QPC_FRE, 1);
	MLXL_SET(in, MLXL_F_QPC_CQN_SND, to_mcq(init->send_cq)->hw.cqn);
	MLXL_SET(in, MLXL_F_QPC_CQN_RCV, to_mcq(init->recv_cq)->hw.cqn);
	mlxl_set64(in, MLXL_QPC_DBR_ADDR, qp->db.bus);
	MLXL_SET(in, MLXL_F_QPC_RQ_TYPE, rq_type);
	if (init->srq)
		MLXL_SET(in, MLXL_F_QPC_SRQN, to_msrq(init->srq)->srqn);
	mlxl_put_pas(in, MLXL_CREATE_QP_PAS, &qp->buf, npas);
	return len;
}

static int qp_fw_destroy(struct mlxl_ib *mib, struct mlxl_qp *qp)
{
	u8 *in = mib->hw->in;
	int err;

	mutex_lock(&mib->cmd_lock);
	mlxl_cmd_hdr(in, MLXL_HDR_LEN, MLXL_OP_DESTROY_QP, 0);
	MLXL_SET(in, MLXL_F_QPN, qp->qpn);
	err = mlxl_obj_cmd(mib, MLXL_HDR_LEN, MLXL_HDR_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "destroy_qp", err);
	mutex_unlock(&mib->cmd_lock);
	return err;
}

int mlxl_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		   struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibqp->device);
	struct mlxl_qp *qp = to_mqp(ibqp);
	u32 log_max = MLXL_GET(mib->hw->cap_cur, MLXL_C_LOG_MAX_QP_SZ);
	u32 rq_bytes, sq_bytes, npas, len;
	int st = qp_st(init->qp_type), err;

	if (udata)
		return -EOPNOTSUPP;
	if (st < 0 || init->create_flags)
		return -EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	if (init->qp_type == IB_QPT_GSI && init->port_num != 1)
		return -EINVAL;
	/* one GSI QP per function (the MAD layer's QP1) */
	if (init->qp_type == IB_QPT_GSI && gsi_exists(mib))
		return -EBUSY;
	qp->st = (u8)st;
	err = qp_sq_size(mib, qp, &init->cap, log_max);
	if (!err)
		err = qp_rq_size(qp, init, log_max);
	if (err)
		return err;
	rq_bytes = init->cap.max_recv_wr ?
		   (16u << qp->log_rq_stride) << qp->log_rq_size : 0;
	sq_bytes = init->cap.max_send_wr ? MLXL_WQEBB << qp->log_sq_size : 0;
	qp->sq_off = rq_bytes;
	npas = DIV_ROUND_UP(rq_bytes + sq_bytes, MLXL_FW_PAGE_SIZE);

	qp->cap = init->cap;
	qp->scq = to_mcq(init->send_cq);
	qp->rcq = to_mcq(init->recv_cq);
	err = mlxl_dp_qp_init(mib, qp);
	if (err)
		return err;
	if (npas) {
		err = mlxl_buf_alloc(mib, &qp->buf, rq_bytes + sq_bytes);
		if (err)
			goto err_dp;
	}
	err = mlxl_buf_alloc(mib, &qp->db, 64);
	if (err)
		goto err_buf;

	mutex_lock(&mib->cmd_lock);
	len = create_qp_in(mib, qp, init, rq_bytes, npas);
	err = mlxl_obj_cmd(mib, len, MLXL_HDR_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "create_qp", err);
	else
		qp->qpn = MLXL_GET(mib->hw->out, MLXL_F_QPN);
	mutex_unlock(&mib->cmd_lock);
	if (err)
		goto err_db;
	err = xa_insert_irq(&mib->qps, qp->qpn, qp, GFP_KERNEL);
	if (err)
		goto err_qp;
	qp->sq_sig_type = init->sq_sig_type;
	mlxl_dp_qp_attach(qp);
	ibqp->qp_num = init->qp_type == IB_QPT_GSI ? 1 : qp->qpn;
	return 0;

err_qp:
	if (qp_fw_destroy(mib, qp))
		return err;	/* the firmware keeps it and its memory */
err_db:
	mlxl_buf_free(mib, &qp->db);
err_buf:
	mlxl_buf_free(mib, &qp->buf);
err_dp:
	mlxl_dp_qp_fini(qp);
	return err;
}

int mlxl_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibqp->device);
	struct mlxl_qp *qp = to_mqp(ibqp);
	int err;

	/* no event handler or poll finds it once it is out of the table */
	xa_erase_irq(&mib->qps, qp->qpn);
	mlxl_dp_qp_detach(qp);
	err = qp_fw_destroy(mib, qp);
	if (err) {
		xa_store_irq(&mib->qps, qp->qpn, qp, GFP_KERNEL);
		mlxl_dp_qp_attach(qp);
		return err;
	}
	mlxl_buf_free(mib, &qp->db);
	mlxl_buf_free(mib, &qp->buf);
	mlxl_dp_qp_fini(qp);
	return 0;
}

/* ---- transitions */

static void mod_from_attr(struct mlxl_qp_mod *m, const struct ib_qp_attr *a)
{
	m->port = a->port_num;
	m->pkey_index = a->pkey_index;
	m->qkey = a->qkey;
	m->rre = !!(a->qp_access_flags & IB_ACCESS_REMOTE_READ);
	m->rwe = !!(a->qp_access_flags & IB_ACCESS_REMOTE_WRITE);
	m->rae = !!(a->qp_access_flags & IB_ACCESS_REMOTE_ATOMIC);
	m->min_rnr_timer = a->min_rnr_timer;
	m->path_mtu = (u8)a->path_mtu;
	m->max_dest_rd_atomic = a->max_dest_rd_atomic;
	m->max_rd_atomic = a->max_rd_atomic;
	m->timeout = a->timeout;
	m->retry_cnt = a->retry_cnt;
	m->rnr_retry = a->rnr_retry;
	m->dest_qpn = a->dest_qp_num;
	m->rq_psn = a->rq_psn;
	m->sq_psn = a->sq_psn;
	mlxl_av_from_ah(&m->path, &a->ah_attr);
}

int mlxl_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibqp->device);
	struct mlxl_qp *qp = to_mqp(ibqp);
	enum ib_qp_state cur = READ_ONCE(ibqp->state);
	enum ib_qp_state next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	bool rc = qp->st == MLXL_QPT_RC;
	u32 carried = IB_QP_STATE | IB_QP_CUR_STATE;
	struct mlxl_qp_mod m;
	u32 len;
	u16 opcode;
	int err;

	if (udata)
		return -EOPNOTSUPP;
	if ((unsigned int)next > IB_QPS_ERR ||
	    !ib_modify_qp_is_ok(cur, next, ibqp->qp_type,
				(enum ib_qp_attr_mask)mask))
		return -EINVAL;
	opcode = mlxl_qp_opcode(cur, next, rc);
	if (!opcode)
		return -EOPNOTSUPP;
	carried |= mlxl_qp_carries(opcode, rc);
	if (mask & ~carried)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	mod_from_attr(&m, attr);

	mutex_lock(&mib->cmd_lock);
	len = mlxl_qp_modify_in(mib->hw->in, opcode, qp->qpn, rc, &m, mask);
	err = mlxl_obj_cmd(mib, len, MLXL_HDR_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "modify_qp", err);
	mutex_unlock(&mib->cmd_lock);
	return err;
}

/* ---- query */

static enum ib_qp_state ib_state_of(u32 s)
{
	switch (s) {
	case MLXL_QPS_RST:
		return IB_QPS_RESET;
	case MLXL_QPS_INIT:
		return IB_QPS_INIT;
	case MLXL_QPS_RTR:
		return IB_QPS_RTR;
	case MLXL_QPS_RTS:
		return IB_QPS_RTS;
	case MLXL_QPS_SQER:
		return IB_QPS_SQE;
	default:
		return IB_QPS_ERR;
	}
}

static void get_path(const u8 *out, struct rdma_ah_attr *ah)
{
	struct ib_global_route *grh = &ah->grh;
	u32 hi = MLXL_GET(out, MLXL_F_ADS_RMAC_47_32);
	u32 lo = MLXL_GET(out, MLXL_F_ADS_RMAC_31_0);

	ah->type = RDMA_AH_ATTR_TYPE_ROCE;
	ah->ah_flags = IB_AH_GRH;
	ah->port_num = MLXL_GET(out, MLXL_F_ADS_VHCA_PORT_NUM);
	ah->sl = (u8)MLXL_GET(out, MLXL_F_ADS_SL);
	ah->static_rate = (u8)MLXL_GET(out, MLXL_F_ADS_STAT_RATE);
	grh->sgid_index = (u8)MLXL_GET(out, MLXL_F_ADS_SRC_ADDR_INDEX);
	grh->hop_limit = (u8)MLXL_GET(out, MLXL_F_ADS_HOP_LIMIT);
	grh->traffic_class = (u8)MLXL_GET(out, MLXL_F_ADS_TCLASS);
	grh->flow_label = MLXL_GET(out, MLXL_F_ADS_FLOW_LABEL);
	memcpy(grh->dgid.raw, out + MLXL_ADS_RGID_RIP, 16);
	ah->roce.dmac[0] = (u8)(hi >> 8);
	ah->roce.dmac[1] = (u8)hi;
	ah->roce.dmac[2] = (u8)(lo >> 24);
	ah->roce.dmac[3] = (u8)(lo >> 16);
	ah->roce.dmac[4] = (u8)(lo >> 8);
	ah->roce.dmac[5] = (u8)lo;
}

int mlxl_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_qp_init_attr *init)
{
	struct mlxl_ib *mib = to_mib(ibqp->device);
	struct mlxl_qp *qp = to_mqp(ibqp);
	const u8 *out = mib->hw->out;
	u8 *in = mib->hw->in;
	int err;

	mutex_lock(&mib->cmd_lock);
	mlxl_cmd_hdr(in, MLXL_HDR_LEN, MLXL_OP_QUERY_QP, 0);
	MLXL_SET(in, MLXL_F_QPN, qp->qpn);
	err = mlxl_obj_cmd(mib, MLXL_HDR_LEN, MLXL_QUERY_QP_OUT_LEN);
	if (err) {
		mlxl_obj_cmd_err(mib, "query_qp", err);
		goto out;
	}
	attr->qp_state = ib_state_of(MLXL_GET(out, MLXL_F_QPC_STATE));
	attr->cur_qp_state = attr->qp_state;
	attr->path_mtu = (enum ib_mtu)MLXL_GET(out, MLXL_F_QPC_MTU);
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->qkey = MLXL_GET(out, MLXL_F_QPC_Q_KEY);
	attr->rq_psn = MLXL_GET(out, MLXL_F_QPC_NEXT_RCV_PSN);
	attr->sq_psn = MLXL_GET(out, MLXL_F_QPC_NEXT_SEND_PSN);
	attr->dest_qp_num = MLXL_GET(out, MLXL_F_QPC_REMOTE_QPN);
	attr->qp_access_flags =
		(MLXL_GET(out, MLXL_F_QPC_RRE) ? IB_ACCESS_REMOTE_READ : 0) |
		(MLXL_GET(out, MLXL_F_QPC_RWE) ? IB_ACCESS_REMOTE_WRITE : 0) |
		(MLXL_GET(out, MLXL_F_QPC_RAE) ? IB_ACCESS_REMOTE_ATOMIC : 0);
	attr->pkey_index = (u16)MLXL_GET(out, MLXL_F_ADS_PKEY_INDEX);
	attr->port_num = MLXL_GET(out, MLXL_F_ADS_VHCA_PORT_NUM);
	if (qp->st == MLXL_QPT_RC) {
		get_path(out, &attr->ah_attr);
		attr->max_rd_atomic = (u8)(1u << MLXL_GET(out, MLXL_F_QPC_LOG_SRA_MAX));
		attr->max_dest_rd_atomic =
			(u8)(1u << MLXL_GET(out, MLXL_F_QPC_LOG_RRA_MAX));
		attr->min_rnr_timer = (u8)MLXL_GET(out, MLXL_F_QPC_MIN_RNR_NAK);
		attr->timeout = (u8)MLXL_GET(out, MLXL_F_ADS_ACK_TIMEOUT);
		attr->retry_cnt = (u8)MLXL_GET(out, MLXL_F_QPC_RETRY_COUNT);
		attr->rnr_retry = (u8)MLXL_GET(out, MLXL_F_QPC_RNR_RETRY);
	}
	attr->cap = qp->cap;
	if (init) {
		init->send_cq = ibqp->send_cq;
		init->recv_cq = ibqp->recv_cq;
		init->srq = ibqp->srq;
		init->cap = qp->cap;
		init->qp_type = ibqp->qp_type;
		init->sq_sig_type = qp->sq_sig_type;
		init->port_num = ibqp->port;
	}
out:
	mutex_unlock(&mib->cmd_lock);
	return err;
}
