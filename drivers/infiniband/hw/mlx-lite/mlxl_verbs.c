// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: kernel verbs objects below QPs, each made by firmware commands
 * (Documentation/mlx-lite/objects.rst): PDs (ALLOC_PD), MRs (CREATE_MKEY
 * in PA mode for DMA MRs, in MTT mode for fast-registration MRs), CQs
 * (CREATE_CQ on the boot EQ and UAR), SRQs (CREATE_SRQ with a private CQ)
 * and AHs (driver only).  The vport's roce_en is set before the device is
 * registered and cleared after the last QP is gone.
 *
 * Rules:
 *  - create: memory first, then the command; destroy: the command first,
 *    then the memory, in reverse order of creation;
 *  - posting work requests, polling CQEs, arming CQs and ringing UAR
 *    doorbells are the data path (mlxl_dp.c); an MTT MR's page list
 *    becomes the MKey's only by a UMR work request (IB_WR_REG_MR);
 *  - firmware refusals are logged (rate limited) with the command's name,
 *    status and syndrome, and returned as their errno.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mlxl_ib.h"
#include "mlxl_verbs.h"
#include "mlxl_async.h"

#define MLXL_CQE_BYTES		64
#define MLXL_MAX_SG_PER_MR	256	/* MTT entries of one fast-reg MR */
#define MLXL_SRQ_CQ_LOG		0	/* an SRQ's private CQ: one CQE */
#define MLXL_DB_BYTES		64

/* ---- asynchronous events */

/* ib_core's event for each object event (MLXL_AEV_COMP has none) */
static const enum ib_event_type async_ib_event[MLXL_AEV_COUNT] = {
	[MLXL_AEV_CQ_ERR] = IB_EVENT_CQ_ERR,
	[MLXL_AEV_PATH_MIG] = IB_EVENT_PATH_MIG,
	[MLXL_AEV_COMM_EST] = IB_EVENT_COMM_EST,
	[MLXL_AEV_SQ_DRAINED] = IB_EVENT_SQ_DRAINED,
	[MLXL_AEV_QP_FATAL] = IB_EVENT_QP_FATAL,
	[MLXL_AEV_PATH_MIG_ERR] = IB_EVENT_PATH_MIG_ERR,
	[MLXL_AEV_QP_REQ_ERR] = IB_EVENT_QP_REQ_ERR,
	[MLXL_AEV_QP_ACCESS_ERR] = IB_EVENT_QP_ACCESS_ERR,
	[MLXL_AEV_QP_LAST_WQE] = IB_EVENT_QP_LAST_WQE_REACHED,
	[MLXL_AEV_SRQ_ERR] = IB_EVENT_SRQ_ERR,
	[MLXL_AEV_SRQ_LIMIT] = IB_EVENT_SRQ_LIMIT_REACHED,
};

void mlxl_async_init(struct mlxl_ib *mib)
{
	xa_init_flags(&mib->cqs, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&mib->qps, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&mib->srqs, XA_FLAGS_LOCK_IRQ);
	atomic_set(&mib->async_unknown, 0);
}

/* an object's handlers, called under its table's lock */
static void async_cq(void *obj, enum mlxl_async_ev aev, struct ib_event *e)
{
	struct mlxl_cq *cq = (struct mlxl_cq *)obj;

	if (aev == MLXL_AEV_COMP) {
		cq->hw.arm_sn = (cq->hw.arm_sn + 1) & 3;
		if (cq->ibcq.comp_handler)
			cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	} else if (cq->ibcq.event_handler) {
		e->element.cq = &cq->ibcq;
		cq->ibcq.event_handler(e, cq->ibcq.cq_context);
	}
}

static void async_qp(void *obj, enum mlxl_async_ev aev, struct ib_event *e)
{
	struct mlxl_qp *qp = (struct mlxl_qp *)obj;

	if (qp->ibqp.event_handler) {
		e->element.qp = &qp->ibqp;
		qp->ibqp.event_handler(e, qp->ibqp.qp_context);
	}
}

static void async_srq(void *obj, enum mlxl_async_ev aev, struct ib_event *e)
{
	struct mlxl_srq *srq = (struct mlxl_srq *)obj;

	if (srq->ibsrq.event_handler) {
		e->element.srq = &srq->ibsrq;
		srq->ibsrq.event_handler(e, srq->ibsrq.srq_context);
	}
}

/*
 * Find object n in xa and run fn on it under the table's lock, so that a
 * destroy (which erases first) waits for it; false: no such object.
 */
static bool async_dispatch(struct xarray *xa, u32 n,
			   void (*fn)(void *obj, enum mlxl_async_ev aev,
				      struct ib_event *e),
			   enum mlxl_async_ev aev, struct ib_event *e)
{
	unsigned long flags;
	void *obj;

	xa_lock_irqsave(xa, flags);
	obj = xa_load(xa, n);
	if (obj)
		fn(obj, aev, e);
	xa_unlock_irqrestore(xa, flags);
	return obj != NULL;
}

/* the events layer's async hook: interrupt context */
void mlxl_async(void *owner, u8 type, u32 obj)
{
	struct mlxl_ib *mib = (struct mlxl_ib *)owner;
	enum mlxl_async_ev aev = mlxl_async_ev_of(type);
	struct ib_event e = {
		.device = &mib->ib,
		.event = async_ib_event[aev],
	};
	bool found = false;

	switch (mlxl_async_class_of(aev)) {
	case MLXL_ASYNC_CQ:
		found = async_dispatch(&mib->cqs, obj, async_cq, aev, &e);
		break;
	case MLXL_ASYNC_QP:
		found = async_dispatch(&mib->qps, obj, async_qp, aev, &e);
		break;
	case MLXL_ASYNC_SRQ:
		found = async_dispatch(&mib->srqs, obj, async_srq, aev, &e);
		break;
	case MLXL_ASYNC_NONE:
		break;
	}
	if (!found) {
		atomic_inc(&mib->async_unknown);
		dev_info_ratelimited(&mib->ib.dev,
				     "async event 0x%02x for unknown object 0x%x dropped (%d so far)\n",
				     type, obj, atomic_read(&mib->async_unknown));
	}
}

/* ---- commands and memory */

int mlxl_obj_cmd(struct mlxl_ib *mib, u32 in_len, u32 out_len)
{
	lockdep_assert_held(&mib->cmd_lock);
	return mlxl_cmd_exec(mib->hw, mib->hw->in, in_len, mib->hw->out,
			     out_len);
}

void mlxl_obj_cmd_err(struct mlxl_ib *mib, const char *what, int err)
{
	dev_err_ratelimited(&mib->ib.dev, "%s: %s failed: %d (status 0x%x syndrome 0x%x)\n",
			    what, mlxl_cmd_name(mib->hw->err_opcode), err,
			    mib->hw->err_status, mib->hw->err_syndrome);
}

int mlxl_buf_alloc(struct mlxl_ib *mib, struct mlxl_dma *d, u32 size)
{
	return mib->hw->ops->dma_alloc(mib->hw->ctx, d, size, MLXL_FW_PAGE_SIZE);
}

void mlxl_buf_free(struct mlxl_ib *mib, struct mlxl_dma *d)
{
	if (d->cpu)
		mib->hw->ops->dma_free(mib->hw->ctx, d);
}

/* the 4 KiB pages of d as a page list at in + off */
void mlxl_put_pas(u8 *in, u32 off, const struct mlxl_dma *d, u32 npages)
{
	u32 i;

	for (i = 0; i < npages; i++)
		mlxl_set64(in, off + 8 * i, d->bus + (u64)i * MLXL_FW_PAGE_SIZE);
}

static u32 pages_of(u32 bytes)
{
	return DIV_ROUND_UP(bytes, MLXL_FW_PAGE_SIZE);
}

/* destroy-style command naming one object */
static int obj_destroy(struct mlxl_ib *mib, u16 opcode, u32 handle)
{
	u8 *in = mib->hw->in;

	mlxl_cmd_hdr(in, MLXL_HDR_LEN, opcode, 0);
	MLXL_SET(in, MLXL_F_PD, handle);	/* 0x08[23:0] for all of them */
	return mlxl_obj_cmd(mib, MLXL_HDR_LEN, MLXL_HDR_LEN);
}

/* ---- the vport's RoCE switch */

static int roce_set(struct mlxl_ib *mib, bool on)
{
	u8 *in = mib->hw->in;

	mlxl_cmd_hdr(in, MLXL_MODIFY_NIC_VPORT_IN_LEN,
		     MLXL_OP_MODIFY_NIC_VPORT_CONTEXT, 0);
	MLXL_SET(in, MLXL_F_MODIFY_VPORT_SELECT, MLXL_VPORT_SEL_ROCE_EN);
	MLXL_SET(in, MLXL_F_NVM_ROCE_EN, on);
	return mlxl_obj_cmd(mib, MLXL_MODIFY_NIC_VPORT_IN_LEN, MLXL_HDR_LEN);
}

int mlxl_verbs_hw_init(struct mlxl_ib *mib)
{
	int err;

	mutex_lock(&mib->cmd_lock);
	err = roce_set(mib, true);
	mib->roce_en = !err;
	mutex_unlock(&mib->cmd_lock);
	return err;
}

void mlxl_verbs_hw_fini(struct mlxl_ib *mib)
{
	mutex_lock(&mib->cmd_lock);
	if (mib->roce_en && !roce_set(mib, false))
		mib->roce_en = false;
	mutex_unlock(&mib->cmd_lock);
}

void mlxl_verbs_attrs(struct mlxl_ib *mib)
{
	const u8 *cap = mib->hw->cap_cur;
	struct ib_device_attr *a = &mib->ib.attrs;

	a->max_send_sge = 16;
	a->max_recv_sge = 16;
	a->max_sge_rd = 16;
	a->max_srq = 1 << MLXL_GET(cap, MLXL_C_LOG_MAX_SRQ);
	a->max_srq_wr = (1 << MLXL_GET(cap, MLXL_C_LOG_MAX_SRQ_SZ)) - 1;
	a->max_srq_sge = 16;
	a->max_qp_rd_atom = 16;
	a->max_qp_init_rd_atom = 16;
	a->max_res_rd_atom = 16 * a->max_qp;
	a->max_fast_reg_page_list_len = MLXL_MAX_SG_PER_MR;
	a->max_ah = a->max_qp;
	a->local_ca_ack_delay = 16;
}

/* ---- PD */

static int mlxl_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibpd->device);
	int err;

	if (udata)
		return -EOPNOTSUPP;
	mutex_lock(&mib->cmd_lock);
	mlxl_cmd_hdr(mib->hw->in, MLXL_HDR_LEN, MLXL_OP_ALLOC_PD, 0);
	err = mlxl_obj_cmd(mib, MLXL_HDR_LEN, MLXL_HDR_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "alloc_pd", err);
	else
		to_mpd(ibpd)->pdn = MLXL_GET(mib->hw->out, MLXL_F_PD);
	mutex_unlock(&mib->cmd_lock);
	return err;
}

static int mlxl_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibpd->device);
	int err;

	mutex_lock(&mib->cmd_lock);
	err = obj_destroy(mib, MLXL_OP_DEALLOC_PD, to_mpd(ibpd)->pdn);
	if (err)
		mlxl_obj_cmd_err(mib, "dealloc_pd", err);
	mutex_unlock(&mib->cmd_lock);
	return err;
}

/* ---- MR */

/* mkc access bits from IB access flags; local read always */
static void mkc_access(u8 *in, int access)
{
	MLXL_SET(in, MLXL_F_MKC_LR, 1);
	MLXL_SET(in, MLXL_F_MKC_LW, !!(access & IB_ACCESS_LOCAL_WRITE));
	MLXL_SET(in, MLXL_F_MKC_RR, !!(access & IB_ACCESS_REMOTE_READ));
	MLXL_SET(in, MLXL_F_MKC_RW, !!(access & IB_ACCESS_REMOTE_WRITE));
	MLXL_SET(in, MLXL_F_MKC_A, !!(access & IB_ACCESS_REMOTE_ATOMIC));
}

/* run CREATE_MKEY (in already built) and set the MR's keys */
static int mkey_create(struct mlxl_ib *mib, struct mlxl_mr *mr, u32 in_len,
		       u8 variant)
{
	int err;

	err = mlxl_obj_cmd(mib, in_len, MLXL_HDR_LEN);
	if (err) {
		mlxl_obj_cmd_err(mib, "create_mkey", err);
		return err;
	}
	mr->index = MLXL_GET(mib->hw->out, MLXL_F_MKEY_INDEX);
	mr->ibmr.lkey = mr->index << 8 | variant;
	mr->ibmr.rkey = mr->ibmr.lkey;
	return 0;
}

static void mkc_common(u8 *in, u32 pdn, int access, u8 variant)
{
	mkc_access(in, access);
	MLXL_SET(in, MLXL_F_MKC_QPN, MLXL_MKC_QPN_NONE);
	MLXL_SET(in, MLXL_F_MKC_MKEY_7_0, variant);
	MLXL_SET(in, MLXL_F_MKC_PD, pdn);
}

/* the variant byte of new keys: never 0, so a key is never 0 */
static u8 mkey_variant(struct mlxl_ib *mib)
{
	return (u8)(mib->hw->token | 1);
}

static struct ib_mr *mlxl_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct mlxl_ib *mib = to_mib(ibpd->device);
	struct mlxl_mr *mr;
	u8 *in = mib->hw->in;
	u8 variant;
	int err;

	mr = (struct mlxl_mr *)kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return (struct ib_mr *)ERR_PTR(-ENOMEM);
	mutex_lock(&mib->cmd_lock);
	variant = mkey_variant(mib);
	mlxl_cmd_hdr(in, MLXL_CREATE_MKEY_MTT, MLXL_OP_CREATE_MKEY, 0);
	mkc_common(in, to_mpd(ibpd)->pdn, access, variant);
	MLXL_SET(in, MLXL_F_MKC_ACCESS_MODE_1_0, MLXL_MKC_ACCESS_PA);
	MLXL_SET(in, MLXL_F_MKC_LENGTH64, 1);
	err = mkey_create(mib, mr, MLXL_CREATE_MKEY_MTT, variant);
	mutex_unlock(&mib->cmd_lock);
	if (err) {
		kfree(mr);
		return (struct ib_mr *)ERR_PTR(err);
	}
	mr->ibmr.length = U64_MAX;
	return &mr->ibmr;
}

/*
 * A fast-registration MR: an MTT MKey of max_num_sg 4 KiB entries, each
 * pointing at one driver page readable only, local access only; the
 * consumer's pages and rights arrive by UMR (IB_WR_REG_MR, data path).
 */
static struct ib_mr *mlxl_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
				   u32 max_num_sg)
{
	struct mlxl_ib *mib = to_mib(ibpd->device);
	u32 n = max_num_sg, oct = (max_num_sg + 1) / 2, len, i;
	struct mlxl_mr *mr;
	u8 *in = mib->hw->in;
	u8 variant;
	int err;

	if (type != IB_MR_TYPE_MEM_REG)
		return (struct ib_mr *)ERR_PTR(-EOPNOTSUPP);
	if (!n || n > MLXL_MAX_SG_PER_MR)
		return (struct ib_mr *)ERR_PTR(-EINVAL);
	mr = (struct mlxl_mr *)kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return (struct ib_mr *)ERR_PTR(-ENOMEM);
	mr->page_list = (u64 *)kcalloc(n, sizeof(u64), GFP_KERNEL);
	if (!mr->page_list) {
		err = -ENOMEM;
		goto err_mr;
	}
	mr->max_pages = n;
	err = mlxl_buf_alloc(mib, &mr->scratch, MLXL_FW_PAGE_SIZE);
	if (err)
		goto err_list;

	len = MLXL_CREATE_MKEY_MTT + 16 * oct;
	mutex_lock(&mib->cmd_lock);
	variant = mkey_variant(mib);
	mlxl_cmd_hdr(in, len, MLXL_OP_CREATE_MKEY, 0);
	mkc_common(in, to_mpd(ibpd)->pdn, 0, variant);
	MLXL_SET(in, MLXL_F_MKC_ACCESS_MODE_1_0, MLXL_MKC_ACCESS_MTT);
	mlxl_set64(in, MLXL_MKC_START_ADDR, 0);
	mlxl_set64(in, MLXL_MKC_LEN, (u64)n * MLXL_FW_PAGE_SIZE);
	MLXL_SET(in, MLXL_F_MKC_XLT_OCTWORD_SIZE, oct);
	MLXL_SET(in, MLXL_F_MKC_LOG_PAGE_SIZE, 12);
	MLXL_SET(in, MLXL_F_CREATE_MKEY_XLT_ACTUAL, oct);
	for (i = 0; i < n; i++)
		mlxl_set64(in, MLXL_CREATE_MKEY_MTT + 8 * i,
			   mr->scratch.bus | MLXL_MTT_READ);
	err = mkey_create(mib, mr, len, variant);
	mutex_unlock(&mib->cmd_lock);
	if (err)
		goto err_scratch;
	return &mr->ibmr;

err_scratch:
	mlxl_buf_free(mib, &mr->scratch);
err_list:
	kfree(mr->page_list);
err_mr:
	kfree(mr);
	return (struct ib_mr *)ERR_PTR(err);
}

static int mlxl_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct mlxl_mr *mr = container_of(ibmr, struct mlxl_mr, ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->page_list[mr->npages++] = addr;
	return 0;
}

static int mlxl_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
			  int sg_nents, unsigned int *sg_offset)
{
	struct mlxl_mr *mr = container_of(ibmr, struct mlxl_mr, ibmr);

	if (!mr->page_list)
		return -EINVAL;
	mr->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, mlxl_set_page);
}

static int mlxl_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibmr->device);
	struct mlxl_mr *mr = container_of(ibmr, struct mlxl_mr, ibmr);
	int err;

	mutex_lock(&mib->cmd_lock);
	err = obj_destroy(mib, MLXL_OP_DESTROY_MKEY, mr->index);
	if (err)
		mlxl_obj_cmd_err(mib, "dereg_mr", err);
	mutex_unlock(&mib->cmd_lock);
	if (err)
		return err;
	mlxl_buf_free(mib, &mr->scratch);
	kfree(mr->page_list);
	kfree(mr);
	return 0;
}

/* ---- CQ */

static int cq_hw_create(struct mlxl_ib *mib, struct mlxl_cq_hw *cq, u32 log)
{
	u32 bytes = MLXL_CQE_BYTES << log, npas = pages_of(bytes), len, i;
	u8 *in = mib->hw->in;
	int err;

	cq->log_size = log;
	err = mlxl_buf_alloc(mib, &cq->buf, bytes);
	if (err)
		return err;
	err = mlxl_buf_alloc(mib, &cq->db, MLXL_DB_BYTES);
	if (err)
		goto err_buf;
	/* every CQE invalid (op_own 0xF0) until the device writes it */
	for (i = 0; i < (1u << log); i++)
		((u8 *)cq->buf.cpu)[i * MLXL_CQE_BYTES + MLXL_CQE_BYTES - 1] = 0xf0;

	len = MLXL_CREATE_CQ_PAS + 8 * npas;
	mutex_lock(&mib->cmd_lock);
	mlxl_cmd_hdr(in, len, MLXL_OP_CREATE_CQ, 0);
	MLXL_SET(in, MLXL_F_CQC_CQE_SZ, 0);
	MLXL_SET(in, MLXL_F_CQC_LOG_SIZE, log);
	MLXL_SET(in, MLXL_F_CQC_UAR_PAGE, mib->hw->uar);
	MLXL_SET(in, MLXL_F_CQC_C_EQN, mib->hw->eqn);
	MLXL_SET(in, MLXL_F_CQC_LOG_PAGE_SIZE, 0);
	mlxl_set64(in, MLXL_CQC_DBR_ADDR, cq->db.bus);
	mlxl_put_pas(in, MLXL_CREATE_CQ_PAS, &cq->buf, npas);
	err = mlxl_obj_cmd(mib, len, MLXL_HDR_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "create_cq", err);
	else
		cq->cqn = MLXL_GET(mib->hw->out, MLXL_F_CQN);
	mutex_unlock(&mib->cmd_lock);
	if (err)
		goto err_db;
	return 0;

err_db:
	mlxl_buf_free(mib, &cq->db);
err_buf:
	mlxl_buf_free(mib, &cq->buf);
	return err;
}

static int cq_hw_destroy(struct mlxl_ib *mib, struct mlxl_cq_hw *cq)
{
	int err;

	mutex_lock(&mib->cmd_lock);
	err = obj_destroy(mib, MLXL_OP_DESTROY_CQ, cq->cqn);
	if (err)
		mlxl_obj_cmd_err(mib, "destroy_cq", err);
	mutex_unlock(&mib->cmd_lock);
	if (err)
		return err;
	mlxl_buf_free(mib, &cq->db);
	mlxl_buf_free(mib, &cq->buf);
	return 0;
}

static int mlxl_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			  struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibcq->device);
	struct mlxl_cq *cq = to_mcq(ibcq);
	u32 log;
	int err;

	if (udata)
		return -EOPNOTSUPP;
	if (attr->flags)
		return -EOPNOTSUPP;
	if (!attr->cqe || attr->cqe > (u32)mib->ib.attrs.max_cqe)
		return -EINVAL;
	/* one more than asked: a full ring is told from an empty one */
	log = order_base_2(attr->cqe + 1);
	mlxl_dp_cq_init(cq);
	err = cq_hw_create(mib, &cq->hw, log);
	if (err)
		return err;
	err = xa_insert_irq(&mib->cqs, cq->hw.cqn, cq, GFP_KERNEL);
	if (err)
		goto err_hw;
	ibcq->cqe = (1 << log) - 1;
	return 0;

err_hw:
	cq_hw_destroy(mib, &cq->hw);
	return err;
}

static int mlxl_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibcq->device);
	struct mlxl_cq *cq = to_mcq(ibcq);
	int err;

	/* no event handler runs on it once it is out of the table */
	xa_erase_irq(&mib->cqs, cq->hw.cqn);
	err = cq_hw_destroy(mib, &cq->hw);
	if (err)	/* still the firmware's: its events still count */
		xa_store_irq(&mib->cqs, cq->hw.cqn, cq, GFP_KERNEL);
	return err;
}

/*
 * Resize: a new ring, MODIFY_CQ (resize) hands it to the firmware, and
 * the old ring is freed once the firmware took the new one (on refusal
 * the new one goes and the CQ is unchanged).  Only a CQ no QP uses is
 * resized (-EBUSY otherwise): no CQE is outstanding, so none is moved and
 * no RESIZE CQE is awaited.
 */
static int mlxl_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibcq->device);
	struct mlxl_cq *cq = to_mcq(ibcq);
	struct mlxl_dma nbuf = {};
	u32 log, bytes, npas, len, i;
	u8 *in = mib->hw->in;
	int err;

	if (udata)
		return -EOPNOTSUPP;
	if (cqe < 1 || cqe > mib->ib.attrs.max_cqe)
		return -EINVAL;
	log = order_base_2((u32)cqe + 1);
	if (log == cq->hw.log_size)
		return 0;
	if (mlxl_dp_cq_busy(cq))
		return -EBUSY;
	bytes = MLXL_CQE_BYTES << log;
	npas = pages_of(bytes);
	err = mlxl_buf_alloc(mib, &nbuf, bytes);
	if (err)
		return err;
	for (i = 0; i < (1u << log); i++)
		((u8 *)nbuf.cpu)[i * MLXL_CQE_BYTES + MLXL_CQE_BYTES - 1] = 0xf0;

	len = MLXL_MODIFY_CQ_PAS + 8 * npas;
	mutex_lock(&mib->cmd_lock);
	mlxl_cmd_hdr(in, len, MLXL_OP_MODIFY_CQ, MLXL_MODIFY_CQ_OPMOD_RESIZE);
	MLXL_SET(in, MLXL_F_CQN, cq->hw.cqn);
	MLXL_SET(in, MLXL_F_MODIFY_CQ_SELECT,
		 MLXL_RESIZE_CQ_LOG_SIZE | MLXL_RESIZE_CQ_PG_OFFSET |
		 MLXL_RESIZE_CQ_PG_SIZE);
	MLXL_SET(in, MLXL_F_CQC_LOG_SIZE, log);
	MLXL_SET(in, MLXL_F_CQC_LOG_PAGE_SIZE, 0);
	mlxl_put_pas(in, MLXL_MODIFY_CQ_PAS, &nbuf, npas);
	err = mlxl_obj_cmd(mib, len, MLXL_HDR_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "modify_cq (resize)", err);
	mutex_unlock(&mib->cmd_lock);
	if (err)
		goto err_buf;
	mlxl_buf_free(mib, &cq->hw.buf);
	cq->hw.buf = nbuf;
	cq->hw.log_size = log;
	ibcq->cqe = (1 << log) - 1;
	return 0;

err_buf:
	mlxl_buf_free(mib, &nbuf);
	return err;
}

/* ---- SRQ */

static int mlxl_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
			   struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibsrq->device);
	struct mlxl_srq *srq = to_msrq(ibsrq);
	struct ib_srq_attr *a = &init->attr;
	u32 log_sz, log_stride, bytes, npas, len;
	u8 *in = mib->hw->in;
	int err;

	if (udata)
		return -EOPNOTSUPP;
	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!a->max_wr || a->max_wr > (u32)mib->ib.attrs.max_srq_wr ||
	    a->max_sge > (u32)mib->ib.attrs.max_srq_sge ||
	    a->srq_limit > a->max_wr)
		return -EINVAL;
	log_sz = order_base_2(a->max_wr + 1);
	log_stride = order_base_2(a->max_sge ? a->max_sge : 1);
	bytes = (16u << log_stride) << log_sz;
	npas = pages_of(bytes);

	srq->log_stride = log_stride;
	err = mlxl_dp_wq_alloc(&srq->rq, log_sz);
	if (err)
		return err;
	err = cq_hw_create(mib, &srq->cq, MLXL_SRQ_CQ_LOG);
	if (err)
		goto err_wq;
	err = mlxl_buf_alloc(mib, &srq->buf, bytes);
	if (err)
		goto err_cq;
	err = mlxl_buf_alloc(mib, &srq->db, MLXL_DB_BYTES);
	if (err)
		goto err_buf;

	len = MLXL_CREATE_SRQ_PAS + 8 * npas;
	mutex_lock(&mib->cmd_lock);
	mlxl_cmd_hdr(in, len, MLXL_OP_CREATE_SRQ, 0);
	MLXL_SET(in, MLXL_F_SRQC_LOG_SIZE, log_sz);
	MLXL_SET(in, MLXL_F_SRQC_RLKY, 1);
	MLXL_SET(in, MLXL_F_SRQC_LOG_RQ_STRIDE, log_stride);
	MLXL_SET(in, MLXL_F_SRQC_CQN, srq->cq.cqn);
	MLXL_SET(in, MLXL_F_SRQC_LOG_PAGE_SIZE, 0);
	MLXL_SET(in, MLXL_F_SRQC_PD, to_mpd(ibsrq->pd)->pdn);
	MLXL_SET(in, MLXL_F_SRQC_LWM, a->srq_limit);
	mlxl_set64(in, MLXL_SRQC_DBR_ADDR, srq->db.bus);
	mlxl_put_pas(in, MLXL_CREATE_SRQ_PAS, &srq->buf, npas);
	err = mlxl_obj_cmd(mib, len, MLXL_HDR_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "create_srq", err);
	else
		srq->srqn = MLXL_GET(mib->hw->out, MLXL_F_SRQN);
	mutex_unlock(&mib->cmd_lock);
	if (err)
		goto err_db;
	err = xa_insert_irq(&mib->srqs, srq->srqn, srq, GFP_KERNEL);
	if (err)
		goto err_srq;
	srq->max_wr = (1u << log_sz) - 1;
	srq->max_sge = 1u << log_stride;
	a->max_wr = srq->max_wr;
	a->max_sge = srq->max_sge;
	return 0;

err_srq:
	mutex_lock(&mib->cmd_lock);
	if (obj_destroy(mib, MLXL_OP_DESTROY_SRQ, srq->srqn)) {
		/* the firmware keeps the SRQ: its memory is left to it */
		mutex_unlock(&mib->cmd_lock);
		return err;
	}
	mutex_unlock(&mib->cmd_lock);
err_db:
	mlxl_buf_free(mib, &srq->db);
err_buf:
	mlxl_buf_free(mib, &srq->buf);
err_cq:
	cq_hw_destroy(mib, &srq->cq);
err_wq:
	mlxl_dp_wq_free(&srq->rq);
	return err;
}

static int mlxl_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibsrq->device);
	struct mlxl_srq *srq = to_msrq(ibsrq);
	int err;

	xa_erase_irq(&mib->srqs, srq->srqn);
	mutex_lock(&mib->cmd_lock);
	err = obj_destroy(mib, MLXL_OP_DESTROY_SRQ, srq->srqn);
	if (err)
		mlxl_obj_cmd_err(mib, "destroy_srq", err);
	mutex_unlock(&mib->cmd_lock);
	if (err) {
		xa_store_irq(&mib->srqs, srq->srqn, srq, GFP_KERNEL);
		return err;
	}
	mlxl_buf_free(mib, &srq->db);
	mlxl_buf_free(mib, &srq->buf);
	mlxl_dp_wq_free(&srq->rq);
	return cq_hw_destroy(mib, &srq->cq);
}

/* the firmware has no MODIFY_SRQ here: neither resizing nor arming */
/* the limit only (ARM_RQ); an SRQ is not resized */
static int mlxl_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mlxl_ib *mib = to_mib(ibsrq->device);
	struct mlxl_srq *srq = to_msrq(ibsrq);
	u8 *in = mib->hw->in;
	int err;

	if (udata)
		return -EOPNOTSUPP;
	if (mask & ~IB_SRQ_LIMIT)
		return -EINVAL;
	if (!(mask & IB_SRQ_LIMIT))
		return 0;
	if (attr->srq_limit > srq->max_wr)
		return -EINVAL;
	mutex_lock(&mib->cmd_lock);
	mlxl_cmd_hdr(in, MLXL_HDR_LEN, MLXL_OP_ARM_RQ, MLXL_ARM_RQ_OPMOD_SRQ);
	MLXL_SET(in, MLXL_F_ARM_RQ_SRQN, srq->srqn);
	MLXL_SET(in, MLXL_F_ARM_RQ_LWM, attr->srq_limit);
	err = mlxl_obj_cmd(mib, MLXL_HDR_LEN, MLXL_HDR_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "arm_rq", err);
	mutex_unlock(&mib->cmd_lock);
	return err;
}

static int mlxl_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mlxl_ib *mib = to_mib(ibsrq->device);
	struct mlxl_srq *srq = to_msrq(ibsrq);
	u8 *in = mib->hw->in;
	int err;

	mutex_lock(&mib->cmd_lock);
	mlxl_cmd_hdr(in, MLXL_HDR_LEN, MLXL_OP_QUERY_SRQ, 0);
	MLXL_SET(in, MLXL_F_SRQN, srq->srqn);
	err = mlxl_obj_cmd(mib, MLXL_HDR_LEN, MLXL_QUERY_SRQ_OUT_LEN);
	if (err)
		mlxl_obj_cmd_err(mib, "query_srq", err);
	else
		attr->srq_limit = MLXL_GET(mib->hw->out, MLXL_F_SRQC_LWM);
	mutex_unlock(&mib->cmd_lock);
	attr->max_wr = srq->max_wr;
	attr->max_sge = srq->max_sge;
	return err;
}

/* ---- AH: an address vector, no firmware object */

void mlxl_av_from_ah(struct mlxl_av *av, const struct rdma_ah_attr *a)
{
	memcpy(av->rgid, a->grh.dgid.raw, sizeof(av->rgid));
	memcpy(av->rmac, a->roce.dmac, sizeof(av->rmac));
	av->sgid_index = a->grh.sgid_index;
	av->hop_limit = a->grh.hop_limit;
	av->tclass = a->grh.traffic_class;
	av->flow_label = a->grh.flow_label & 0xfffff;
	av->sl = a->sl & 0xf;
	av->stat_rate = a->static_rate;
	av->roce_v2 = a->sgid_attr.gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP;
}

static int mlxl_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			  struct ib_udata *udata)
{
	struct rdma_ah_attr *a = init->ah_attr;

	if (udata)
		return -EOPNOTSUPP;
	if (a->type != RDMA_AH_ATTR_TYPE_ROCE || !(a->ah_flags & IB_AH_GRH))
		return -EINVAL;
	mlxl_av_from_ah(&container_of(ibah, struct mlxl_ah, ibah)->av, a);
	return 0;
}

static int mlxl_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

const struct ib_device_ops mlxl_verbs_ops = {
	.alloc_pd = mlxl_alloc_pd,
	.dealloc_pd = mlxl_dealloc_pd,
	.get_dma_mr = mlxl_get_dma_mr,
	.alloc_mr = mlxl_alloc_mr,
	.map_mr_sg = mlxl_map_mr_sg,
	.dereg_mr = mlxl_dereg_mr,
	.create_cq = mlxl_create_cq,
	.resize_cq = mlxl_resize_cq,
	.destroy_cq = mlxl_destroy_cq,
	.create_qp = mlxl_create_qp,
	.modify_qp = mlxl_modify_qp,
	.query_qp = mlxl_query_qp,
	.destroy_qp = mlxl_destroy_qp,
	.create_srq = mlxl_create_srq,
	.modify_srq = mlxl_modify_srq,
	.query_srq = mlxl_query_srq,
	.destroy_srq = mlxl_destroy_srq,
	.create_ah = mlxl_create_ah,
	.destroy_ah = mlxl_destroy_ah,
	INIT_RDMA_OBJ_SIZE(ib_pd, mlxl_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, mlxl_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, mlxl_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, mlxl_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ah, mlxl_ah, ibah),
};
