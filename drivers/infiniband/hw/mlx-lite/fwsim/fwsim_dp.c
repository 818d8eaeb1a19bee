// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: the data path.  Send and CQ doorbells, send WQE execution, the
 * responder behind the transport seam, CQEs and completion EQEs.  Pure:
 * builds on the host.
 *
 * Rules:
 * - Send doorbell (UAR + 0x800 and up, any register or half): ctrl dw1's
 *   QPN names a live QP with a send queue on that UAR (else
 *   FWSIM_E_DP_DOORBELL, ignored).  The model runs WQEs from its SQ
 *   consumer counter up to the producer counter of the doorbell record
 *   (dword 1); a producer counter more than the ring ahead is
 *   FWSIM_E_DP_PRODUCER and nothing runs.  RST, INIT and RTR QPs ignore
 *   the doorbell (FWSIM_E_DP_DOORBELL); in SQER every posted send WQE is
 *   flushed, in ERR every posted send and receive WQE.
 * - A WQE: ds_count 1..63 within the posted WQEBBs, ctrl QPN the QP's,
 *   segments as the opcode needs (RC: SEND, SEND_IMM, SEND_INV, WRITE,
 *   WRITE_IMM, READ, CS, FA, NOP; UD: SEND, SEND_IMM, NOP); anything else
 *   is error CQE 0x02 (local QP operation) and FWSIM_E_DP_WQE.  Gather
 *   lkeys need local read, scatter lkeys local write; a bad lkey is 0x04.
 * - The message goes through the seam (fwsim_dp_respond) to the instance
 *   ops->route names for the destination GID (itself without the op).
 *   RC: no live receiving QP is 0x15 (the requester would time out);
 *   NAKs come back as their syndromes; RNR is retried rnr_retry times at
 *   once, then 0x16; rnr_retry 7 leaves the WQE posted for the next
 *   doorbell.  UD messages that find no QP, another Q_Key or no receive
 *   WQE are dropped and the send completes.
 * - A requester error: error CQE (syndrome, wqe_counter, WQE opcode),
 *   the QP to ERR (UD: SQER), every later WQE flushed (0x05).  A responder
 *   error on RC moves the responder QP to ERR as well.
 * - CQEs: 64 B (second half of a 128-B entry), owner bit (pi >> log_size)
 *   & 1, op_own written last.  A CQE finding the CQ full (pi - ci = size,
 *   ci from the doorbell record) is lost; the CQ takes no more and a CQ
 *   error EQE (syndrome 1) is raised.  CE 2 or 3 in the ctrl segment asks
 *   for a requester CQE; errors and flushes always have one.
 * - CQ doorbell (UAR + 0x20, {arm word, CQN}): arms the CQ named on its
 *   UAR; one completion EQE to the CQ's EQ per arm, raised when a CQE
 *   (solicited-only: a solicited or error CQE) lies beyond the armed ci.
 * Stricter than hardware: messages up to FWSIM_DP_MAX_MSG; no UMR, local
 * invalidate, BlueFlame copies, SRQ receives or masked atomics (0x02).
 */
#include <linux/types.h>
#include "fwsim.h"

#define Q_NO_SQ		0x08, 15, 15
#define Q_LOG_RQ_SIZE	0x08, 22, 19
#define Q_LOG_RQ_STRIDE	0x08, 18, 16
#define Q_LOG_SQ_SIZE	0x08, 14, 11
#define Q_LOG_PG	0x14, 28, 24
#define Q_REMOTE_QPN	0x14, 23, 0
#define Q_SGID_IDX	0x20, 23, 16
#define Q_HOP		0x20, 7, 0
#define Q_TCLASS	0x24, 27, 20
#define Q_FLOW		0x24, 19, 0
#define Q_RGID		0x28
#define Q_RNR_RETRY	0x70, 15, 13
#define Q_RRE		0x90, 15, 15
#define Q_RWE		0x90, 14, 14
#define Q_RAE		0x90, 13, 13
#define Q_QKEY		0xa8, 31, 0
#define Q_RQ_TYPE	0xac, 26, 24
#define C_CQE_SZ	0x00, 23, 21
#define C_LOG_PG	0x18, 28, 24

#define WQE(o, ...)	fwsim_rd(w + (o), __VA_ARGS__)
#define BE32(p)		fwsim_rd((p), 0, 31, 0)

struct cqe_args {
	u8 opcode;
	u8 wqe_op;
	u8 synd;
	u8 vsynd;
	bool sol;
	u16 wqe_cnt;
	u32 qpn;
	u32 byte_cnt;
	u32 imm;
	u32 flags_rqpn;
};

static struct fwsim_qp *qp_find(struct fwsim *fw, u32 qpn)
{
	if (qpn < FWSIM_QPN_BASE || qpn >= FWSIM_QPN_BASE + FWSIM_MAX_QPS ||
	    !fw->qps[qpn - FWSIM_QPN_BASE].used)
		return NULL;
	return &fw->qps[qpn - FWSIM_QPN_BASE];
}

static u32 qp_num(const struct fwsim *fw, const struct fwsim_qp *qp)
{
	return FWSIM_QPN_BASE + (u32)(qp - fw->qps);
}

static u32 sq_size(const struct fwsim_qp *qp)
{
	return fwsim_rd(qp->qpc, Q_NO_SQ) ? 0 : 1u << fwsim_rd(qp->qpc, Q_LOG_SQ_SIZE);
}

static bool has_rq(const struct fwsim_qp *qp)
{
	return fwsim_rd(qp->qpc, Q_RQ_TYPE) == 0;
}

static u32 rq_size(const struct fwsim_qp *qp)
{
	return has_rq(qp) ? 1u << fwsim_rd(qp->qpc, Q_LOG_RQ_SIZE) : 0;
}

static u32 rq_stride(const struct fwsim_qp *qp)
{
	return 16u << fwsim_rd(qp->qpc, Q_LOG_RQ_STRIDE);
}

/* bus address of byte off of a buffer given by a page list */
static bool buf_bus(const struct fwsim *fw, u32 pas_off, u32 npas, u32 log_pg,
		    u64 off, u64 *bus)
{
	u64 pg = 4096ull << log_pg;
	u64 i = off / pg;

	if (i >= npas)
		return false;
	*bus = fw->pas_pool[pas_off + i] + off % pg;
	return true;
}

/* read len bytes at off of the QP buffer (never across a page: len | page) */
static bool qbuf_read(struct fwsim *fw, const struct fwsim_qp *qp, u64 off,
		      void *buf, u32 len)
{
	u64 bus;

	if (!buf_bus(fw, qp->pas_off, qp->npas, fwsim_rd(qp->qpc, Q_LOG_PG),
		     off, &bus) ||
	    fw->ops->dma_read(fw->ctx, bus, buf, len)) {
		fwsim_record(fw, FWSIM_E_DMA);
		return false;
	}
	return true;
}

static bool dbr_read(struct fwsim *fw, u64 dbr, u32 dw, u32 *val)
{
	u8 b[4];

	if (fw->ops->dma_read(fw->ctx, dbr + 4 * dw, b, 4)) {
		fwsim_record(fw, FWSIM_E_DMA);
		return false;
	}
	*val = BE32(b);
	return true;
}

/* ---- CQs */
static void cq_notify(struct fwsim *fw, struct fwsim_cq *cq, u32 cqn)
{
	u32 m = 0xffffff, d = (cq->pi - cq->arm_ci) & m;
	u32 ds = (cq->sol_pi - cq->arm_ci) & m;
	u8 data[28];

	if (!cq->armed || !d || (cq->arm_sol && (!ds || ds > d)))
		return;
	cq->armed = false;
	fwsim_bzero(data, sizeof(data));
	fwsim_wr(data, 0x18, 23, 0, cqn);	/* EQE 0x38 */
	fwsim_eq_post_to(fw, cq->eqn, FWSIM_EVT_COMP, data, sizeof(data));
}

static void cqe_post(struct fwsim *fw, u32 cqn, const struct cqe_args *a)
{
	struct fwsim_cq *cq = fwsim_cq_get(fw, cqn);
	u32 size, ci, stride;
	u8 cqe[FWSIM_CQE_LEN];
	u64 off, bus;

	if (!cq || cq->overrun)
		return;
	size = 1u << cq->log_size;
	if (!dbr_read(fw, cq->dbr, 0, &ci))
		return;
	ci &= 0xffffff;
	if (((cq->pi - ci) & 0xffffff) >= size) {
		cq->overrun = true;
		fwsim_record(fw, FWSIM_E_CQ_OVERRUN);
		fwsim_raise_async(fw, 0x04, cqn);
		return;
	}
	fwsim_bzero(cqe, sizeof(cqe));
	fwsim_wr(cqe, FWSIM_CQE_FLAGS_RQPN, 31, 0, a->flags_rqpn);
	fwsim_wr(cqe, FWSIM_CQE_IMM, 31, 0, a->imm);
	fwsim_wr(cqe, FWSIM_CQE_BYTE_CNT, 31, 0, a->byte_cnt);
	cqe[FWSIM_CQE_VENDOR_SYND] = a->vsynd;
	cqe[FWSIM_CQE_SYND] = a->synd;
	fwsim_wr(cqe, FWSIM_CQE_QPN, 31, 0, (u32)a->wqe_op << 24 | a->qpn);
	fwsim_wr(cqe, FWSIM_CQE_WQE_CNT, 31, 16, a->wqe_cnt);
	cqe[FWSIM_CQE_OP_OWN] = (u8)(a->opcode << 4 |
				     ((cq->pi >> cq->log_size) & 1));
	stride = 64u << fwsim_rd(cq->cqc, C_CQE_SZ);
	off = (u64)(cq->pi & (size - 1)) * stride + stride - FWSIM_CQE_LEN;
	/* the body first, op_own last: the driver polls op_own */
	if (!buf_bus(fw, cq->pas_off, cq->npas, fwsim_rd(cq->cqc, C_LOG_PG),
		     off, &bus) ||
	    fw->ops->dma_write(fw->ctx, bus, cqe, FWSIM_CQE_LEN - 1) ||
	    fw->ops->dma_write(fw->ctx, bus + FWSIM_CQE_LEN - 1,
			       cqe + FWSIM_CQE_LEN - 1, 1)) {
		fwsim_record(fw, FWSIM_E_DMA);
		return;
	}
	cq->pi = (cq->pi + 1) & 0xffffff;
	fw->dp_cqes++;
	if (a->sol || a->synd)
		cq->sol_pi = cq->pi;
	cq_notify(fw, cq, cqn);
}

static void cq_doorbell(struct fwsim *fw, u32 uar, u64 val)
{
	u32 word = (u32)(val >> 32), cqn = (u32)val & 0xffffff;
	struct fwsim_cq *cq = fwsim_cq_get(fw, cqn);

	if (!cq || cq->uar != uar) {
		fwsim_record(fw, FWSIM_E_DP_DOORBELL);
		return;
	}
	cq->armed = true;
	cq->arm_sol = (word >> 24) & 1;
	cq->arm_ci = word & 0xffffff;
	cq_notify(fw, cq, cqn);
}

/* ---- flush and errors */
static void flush_sq(struct fwsim *fw, struct fwsim_qp *qp, u32 prod)
{
	struct cqe_args a;
	u32 n, i;
	u8 ctrl[16];

	for (i = 0; i < sq_size(qp) && qp->sq_cc != (u16)prod; i++) {
		u64 off = (u64)rq_size(qp) * rq_stride(qp) +
			  (u64)(qp->sq_cc & (sq_size(qp) - 1)) * FWSIM_WQEBB;

		if (!qbuf_read(fw, qp, off, ctrl, sizeof(ctrl)))
			return;
		n = (fwsim_rd(ctrl, FWSIM_CTRL_DS) * FWSIM_DS + FWSIM_WQEBB - 1) /
		    FWSIM_WQEBB;
		if (!n || n > ((prod - qp->sq_cc) & 0xffff))
			n = 1;
		fwsim_bzero(&a, sizeof(a));
		a.opcode = FWSIM_CQE_REQ_ERR;
		a.synd = FWSIM_SYN_FLUSH;
		a.wqe_op = (u8)fwsim_rd(ctrl, FWSIM_CTRL_OPCODE);
		a.wqe_cnt = (u16)fwsim_rd(ctrl, FWSIM_CTRL_IDX);
		a.qpn = qp_num(fw, qp);
		cqe_post(fw, qp->cqn_snd, &a);
		qp->sq_cc = (u16)(qp->sq_cc + n);
	}
}

static void flush_rq(struct fwsim *fw, struct fwsim_qp *qp)
{
	struct cqe_args a;
	u32 prod, i;

	if (!has_rq(qp) || !dbr_read(fw, qp->dbr, 0, &prod))
		return;
	if (((prod - qp->rq_cc) & 0xffff) > rq_size(qp)) {
		fwsim_record(fw, FWSIM_E_DP_PRODUCER);
		return;
	}
	for (i = 0; i < rq_size(qp) && qp->rq_cc != (u16)prod; i++) {
		fwsim_bzero(&a, sizeof(a));
		a.opcode = FWSIM_CQE_RESP_ERR;
		a.synd = FWSIM_SYN_FLUSH;
		a.wqe_cnt = qp->rq_cc;
		a.qpn = qp_num(fw, qp);
		cqe_post(fw, qp->cqn_rcv, &a);
		qp->rq_cc++;
	}
}

static void qp_flush(struct fwsim *fw, struct fwsim_qp *qp)
{
	u32 prod;

	if (sq_size(qp) && dbr_read(fw, qp->dbr, 1, &prod) &&
	    ((prod - qp->sq_cc) & 0xffff) <= sq_size(qp))
		flush_sq(fw, qp, prod);
	if (qp->state == FWSIM_QPS_ERR)
		flush_rq(fw, qp);
}

void fwsim_dp_flush(struct fwsim *fw, u32 qpn)
{
	struct fwsim_qp *qp = qp_find(fw, qpn);

	if (qp && qp->state == FWSIM_QPS_ERR)
		qp_flush(fw, qp);
}

static void qp_error(struct fwsim *fw, struct fwsim_qp *qp)
{
	fwsim_qp_set_state(fw, qp_num(fw, qp), qp->st == FWSIM_QPT_RC ?
			   FWSIM_QPS_ERR : FWSIM_QPS_SQER);
	qp_flush(fw, qp);
}

/* ---- data segments */
/*
 * Gather the data segments of w[off, end) into fw->dp_msg: *len bytes.
 * Inline data is allowed.  A syndrome, or 0.
 */
static u8 gather(struct fwsim *fw, const struct fwsim_qp *qp, const u8 *w,
		 u32 off, u32 end, u32 *len)
{
	const struct fwsim_mkey *mk;
	u32 total = 0, n, run;
	u64 va, bus;

	while (off < end) {
		u32 cnt = BE32(w + off + FWSIM_DSEG_COUNT);

		if (cnt & FWSIM_INLINE) {
			n = cnt & ~FWSIM_INLINE;
			if (n > end - off - 4)
				return FWSIM_SYN_LOC_QP_OP;
			if (n > FWSIM_DP_MAX_MSG - total)
				return FWSIM_SYN_LOC_LEN;
			fwsim_bcopy(fw->dp_msg + total, w + off + 4, n);
			total += n;
			off += (4 + n + FWSIM_DS - 1) & ~(FWSIM_DS - 1);
			continue;
		}
		if (end - off < FWSIM_DS)
			return FWSIM_SYN_LOC_QP_OP;
		va = fwsim_rd64(w, off + FWSIM_DSEG_ADDR);
		if (cnt > FWSIM_DP_MAX_MSG - total)
			return FWSIM_SYN_LOC_LEN;
		if (fwsim_key_check(fw, BE32(w + off + FWSIM_DSEG_LKEY), qp->pd,
				    FWSIM_ACC_LR, va, cnt, &mk) != FWSIM_K_OK)
			return FWSIM_SYN_LOC_PROT;
		for (n = 0; n < cnt; n += run, va += run) {
			if (!fwsim_key_bus(fw, mk, va, cnt - n, false, &bus, &run) ||
			    fw->ops->dma_read(fw->ctx, bus, fw->dp_msg + total + n,
					      run))
				return FWSIM_SYN_LOC_PROT;
		}
		total += cnt;
		off += FWSIM_DS;
	}
	*len = total;
	return 0;
}

/* a message to scatter: pre (a UD GRH) then data */
struct stream {
	const u8 *pre;
	u32 plen;
	const u8 *data;
	u32 dlen;
};

static int stream_write(struct fwsim *fw, u64 bus, const struct stream *st,
			u32 pos, u32 len)
{
	u32 n;

	if (pos < st->plen) {
		n = st->plen - pos < len ? st->plen - pos : len;
		if (fw->ops->dma_write(fw->ctx, bus, st->pre + pos, n))
			return -1;
		bus += n;
		pos += n;
		len -= n;
	}
	if (!len)
		return 0;
	return fw->ops->dma_write(fw->ctx, bus, st->data + pos - st->plen, len);
}

/*
 * Scatter a stream to the data segments of w[off, end), which a zero
 * count with the terminator lkey may end early.  Every segment the data
 * reaches must allow local write; nothing is written unless all do and
 * they hold the whole stream.
 */
static u8 scatter(struct fwsim *fw, u32 pd, const u8 *w, u32 off, u32 end,
		  const struct stream *st, bool write)
{
	const struct fwsim_mkey *mk;
	u32 len = st->plen + st->dlen;
	u32 pass, o, left, cnt, n, run;
	u64 va, bus;

	for (pass = 0; pass < (write ? 2u : 1u); pass++) {
		left = len;
		for (o = off; o + FWSIM_DS <= end && left; o += FWSIM_DS) {
			u32 key = BE32(w + o + FWSIM_DSEG_LKEY);

			cnt = BE32(w + o + FWSIM_DSEG_COUNT);
			if (!cnt && key == FWSIM_TERM_LKEY)
				break;
			if (cnt & FWSIM_INLINE)
				return FWSIM_SYN_LOC_QP_OP;
			cnt = cnt < left ? cnt : left;
			va = fwsim_rd64(w, o + FWSIM_DSEG_ADDR);
			if (fwsim_key_check(fw, key, pd, FWSIM_ACC_LW, va, cnt,
					    &mk) != FWSIM_K_OK)
				return FWSIM_SYN_LOC_PROT;
			for (n = 0; pass && n < cnt; n += run, va += run) {
				if (!fwsim_key_bus(fw, mk, va, cnt - n, true, &bus,
						   &run) ||
				    stream_write(fw, bus, st, len - left + n, run))
					return FWSIM_SYN_LOC_PROT;
			}
			left -= cnt;
		}
		if (left)
			return FWSIM_SYN_LOC_LEN;
	}
	return 0;
}

/* ---- responder */
static bool recv_qp_ok(const struct fwsim_qp *qp, u8 st)
{
	if (qp->state != FWSIM_QPS_RTR && qp->state != FWSIM_QPS_RTS &&
	    qp->state != FWSIM_QPS_SQER)
		return false;
	if (st == FWSIM_QPT_RC)
		return qp->st == FWSIM_QPT_RC;
	return qp->st == FWSIM_QPT_UD || qp->st == FWSIM_QPT_GSI;
}

/* copy data to/from an rkey range (rights already checked) */
static bool rkey_copy(struct fwsim *fw, const struct fwsim_mkey *mk, u64 va,
		      u8 *data, u32 len, bool write)
{
	u32 n, run;
	u64 bus;

	for (n = 0; n < len; n += run, va += run) {
		if (!fwsim_key_bus(fw, mk, va, len - n, write, &bus, &run))
			return false;
		if (write ? fw->ops->dma_write(fw->ctx, bus, data + n, run) :
			    fw->ops->dma_read(fw->ctx, bus, data + n, run))
			return false;
	}
	return true;
}

static void grh_build(u8 *g, const struct fwsim_xmsg *msg)
{
	fwsim_bzero(g, FWSIM_GRH_LEN);
	fwsim_wr(g, 0, 31, 0, 6u << 28 | (u32)msg->tclass << 20 |
		 (msg->flow_label & 0xfffff));
	fwsim_wr(g, 4, 31, 16, msg->len);	/* payload length */
	g[6] = 0x1b;				/* next header: BTH */
	g[7] = msg->hop_limit;
	fwsim_bcopy(g + 8, msg->sgid, 16);
	fwsim_bcopy(g + 24, msg->dgid, 16);
}

/* consume the next receive WQE for msg; 0, a syndrome, or FWSIM_XNAK_RNR */
static u8 recv_consume(struct fwsim *fw, struct fwsim_qp *qp,
		       const struct fwsim_xmsg *msg, u8 cqe_op)
{
	u8 grh[FWSIM_GRH_LEN];
	struct stream st = { .pre = grh, .plen = 0, .data = msg->payload,
			     .dlen = msg->len };
	struct cqe_args a;
	u32 prod, stride = rq_stride(qp);
	u8 syn = 0;

	if (!has_rq(qp))
		return FWSIM_SYN_REM_OP;	/* SRQ receives: not modelled */
	if (!dbr_read(fw, qp->dbr, 0, &prod))
		return FWSIM_SYN_REM_OP;
	if (((prod - qp->rq_cc) & 0xffff) > rq_size(qp)) {
		fwsim_record(fw, FWSIM_E_DP_PRODUCER);
		return FWSIM_SYN_REM_OP;
	}
	if ((u16)prod == qp->rq_cc)
		return FWSIM_XNAK_RNR;
	if (!qbuf_read(fw, qp, (u64)(qp->rq_cc & (rq_size(qp) - 1)) * stride,
		       fw->dp_rwqe, stride))
		return FWSIM_SYN_REM_OP;
	fwsim_bzero(&a, sizeof(a));
	a.qpn = qp_num(fw, qp);
	a.wqe_cnt = qp->rq_cc;
	a.opcode = cqe_op;
	a.sol = msg->solicited;
	if (cqe_op == FWSIM_CQE_RESP_WRITE_IMM) {
		a.byte_cnt = msg->len;
	} else {
		if (qp->st != FWSIM_QPT_RC) {
			/* UD: the GRH lands first, as hardware writes it */
			grh_build(grh, msg);
			st.plen = FWSIM_GRH_LEN;
			a.flags_rqpn = FWSIM_CQE_GRH | (msg->src_qpn & 0xffffff);
		}
		syn = scatter(fw, qp->pd, fw->dp_rwqe, 0, stride, &st, true);
		a.byte_cnt = st.plen + st.dlen;
	}
	qp->rq_cc++;
	if (syn) {
		a.opcode = FWSIM_CQE_RESP_ERR;
		a.synd = syn;
		a.byte_cnt = 0;
		a.flags_rqpn = 0;
		cqe_post(fw, qp->cqn_rcv, &a);
		return syn;
	}
	if (cqe_op != FWSIM_CQE_RESP_SEND)
		a.imm = msg->imm;
	cqe_post(fw, qp->cqn_rcv, &a);
	return 0;
}

/* an rkey access of an RC responder: the QP's right and the MKey's */
static u8 rkey_check(struct fwsim *fw, const struct fwsim_qp *qp, u32 acc,
		     const struct fwsim_xmsg *msg, u64 len,
		     const struct fwsim_mkey **mk)
{
	bool qp_ok = acc == FWSIM_ACC_RR ? fwsim_rd(qp->qpc, Q_RRE) :
		     acc == FWSIM_ACC_RW ? fwsim_rd(qp->qpc, Q_RWE) :
		     fwsim_rd(qp->qpc, Q_RAE);
	enum fwsim_kerr k;

	if (!qp_ok)
		return FWSIM_SYN_REM_ACCESS;
	k = fwsim_key_check(fw, msg->rkey, qp->pd, acc, msg->raddr, len, mk);
	if (k == FWSIM_K_ALIGN)
		return FWSIM_SYN_REM_INV_REQ;
	return k == FWSIM_K_OK ? 0 : FWSIM_SYN_REM_ACCESS;
}

static u8 respond_atomic(struct fwsim *fw, struct fwsim_qp *qp,
			 const struct fwsim_xmsg *msg, struct fwsim_xreply *reply)
{
	const struct fwsim_mkey *mk;
	u8 v[8];
	u64 old, val;
	u8 syn = rkey_check(fw, qp, FWSIM_ACC_A, msg, 8, &mk);

	if (syn)
		return syn;
	if (!rkey_copy(fw, mk, msg->raddr, v, 8, false))
		return FWSIM_SYN_REM_ACCESS;
	/* the target is a big-endian 64-bit word, as the HCA sees memory */
	old = fwsim_rd64(v, 0);
	if (msg->op == FWSIM_XOP_FA)
		val = old + msg->swap_add;
	else
		val = old == msg->compare ? msg->swap_add : old;
	reply->orig = old;
	if (val == old)
		return 0;
	fwsim_wr64(v, 0, val);
	return rkey_copy(fw, mk, msg->raddr, v, 8, true) ? 0 : FWSIM_SYN_REM_ACCESS;
}

static u8 respond_inval(struct fwsim *fw, const struct fwsim_qp *qp, u32 rkey)
{
	u32 idx = rkey >> 8;
	struct fwsim_mkey *m;

	if (!idx || idx > FWSIM_MAX_MKEYS)
		return FWSIM_SYN_REM_OP;
	m = &fw->mkeys[idx - 1];
	if (!m->used || m->free || m->variant != (rkey & 0xff) || m->pd != qp->pd)
		return FWSIM_SYN_REM_OP;
	m->free = true;
	return 0;
}

static u8 respond_rc(struct fwsim *fw, struct fwsim_qp *qp,
		     const struct fwsim_xmsg *msg, struct fwsim_xreply *reply)
{
	const struct fwsim_mkey *mk;
	u8 syn;

	switch (msg->op) {
	case FWSIM_XOP_SEND:
		return recv_consume(fw, qp, msg, FWSIM_CQE_RESP_SEND);
	case FWSIM_XOP_SEND_IMM:
		return recv_consume(fw, qp, msg, FWSIM_CQE_RESP_SEND_IMM);
	case FWSIM_XOP_SEND_INV:
		syn = respond_inval(fw, qp, msg->imm);
		return syn ? syn : recv_consume(fw, qp, msg, FWSIM_CQE_RESP_SEND_INV);
	case FWSIM_XOP_WRITE:
	case FWSIM_XOP_WRITE_IMM:
		syn = rkey_check(fw, qp, FWSIM_ACC_RW, msg, msg->len, &mk);
		if (syn)
			return syn;
		if (msg->op == FWSIM_XOP_WRITE_IMM) {
			/* a receive WQE must be there before anything is written */
			u32 prod;

			if (!has_rq(qp) || !dbr_read(fw, qp->dbr, 0, &prod))
				return FWSIM_SYN_REM_OP;
			if ((u16)prod == qp->rq_cc)
				return FWSIM_XNAK_RNR;
		}
		if (!rkey_copy(fw, mk, msg->raddr, (u8 *)msg->payload, msg->len,
			       true))
			return FWSIM_SYN_REM_ACCESS;
		if (msg->op == FWSIM_XOP_WRITE_IMM)
			return recv_consume(fw, qp, msg, FWSIM_CQE_RESP_WRITE_IMM);
		return 0;
	case FWSIM_XOP_READ:
		syn = rkey_check(fw, qp, FWSIM_ACC_RR, msg, msg->len, &mk);
		if (syn)
			return syn;
		return rkey_copy(fw, mk, msg->raddr, msg->resp, msg->len, false) ?
		       0 : FWSIM_SYN_REM_ACCESS;
	case FWSIM_XOP_CS:
	case FWSIM_XOP_FA:
		return respond_atomic(fw, qp, msg, reply);
	default:
		return FWSIM_SYN_REM_INV_REQ;
	}
}

void fwsim_dp_respond(struct fwsim *fw, const struct fwsim_xmsg *msg,
		      struct fwsim_xreply *reply)
{
	struct fwsim_qp *qp = qp_find(fw, msg->dst_qpn);
	u8 syn;

	reply->nak = 0;
	reply->orig = 0;
	if (fw->fatal || !qp || !recv_qp_ok(qp, msg->st)) {
		if (msg->st == FWSIM_QPT_RC)
			reply->nak = FWSIM_SYN_RETRY;	/* no answer comes */
		else
			fw->dp_drops++;
		return;
	}
	if (msg->st != FWSIM_QPT_RC) {
		if ((msg->op != FWSIM_XOP_SEND && msg->op != FWSIM_XOP_SEND_IMM) ||
		    msg->qkey != fwsim_rd(qp->qpc, Q_QKEY) ||
		    recv_consume(fw, qp, msg, msg->op == FWSIM_XOP_SEND ?
				 FWSIM_CQE_RESP_SEND : FWSIM_CQE_RESP_SEND_IMM))
			fw->dp_drops++;
		return;
	}
	syn = respond_rc(fw, qp, msg, reply);
	/* the responder's own errors reach the requester as NAK classes */
	if (syn == FWSIM_SYN_LOC_LEN)
		reply->nak = FWSIM_SYN_REM_INV_REQ;
	else if (syn == FWSIM_SYN_LOC_PROT || syn == FWSIM_SYN_LOC_QP_OP)
		reply->nak = FWSIM_SYN_REM_OP;
	else
		reply->nak = syn;
	if (syn && syn != FWSIM_XNAK_RNR) {
		fwsim_qp_set_state(fw, msg->dst_qpn, FWSIM_QPS_ERR);
		qp_flush(fw, qp);
	}
}

/* ---- requester */
static struct fwsim *route(struct fwsim *fw, const u8 *dgid)
{
	return fw->ops->route ? fw->ops->route(fw->ctx, dgid) : fw;
}

static u8 xop_of(u32 op)
{
	switch (op) {
	case FWSIM_WQE_SEND_INV:
		return FWSIM_XOP_SEND_INV;
	case FWSIM_WQE_WRITE:
		return FWSIM_XOP_WRITE;
	case FWSIM_WQE_WRITE_IMM:
		return FWSIM_XOP_WRITE_IMM;
	case FWSIM_WQE_SEND_IMM:
		return FWSIM_XOP_SEND_IMM;
	case FWSIM_WQE_READ:
		return FWSIM_XOP_READ;
	case FWSIM_WQE_CS:
		return FWSIM_XOP_CS;
	case FWSIM_WQE_FA:
		return FWSIM_XOP_FA;
	default:
		return FWSIM_XOP_SEND;
	}
}

/* the segment bytes after ctrl an opcode needs, or -1 if not modelled */
static int seg_len(u8 st, u32 op)
{
	bool rc = st == FWSIM_QPT_RC;

	switch (op) {
	case FWSIM_WQE_NOP:
		return 0;
	case FWSIM_WQE_SEND:
	case FWSIM_WQE_SEND_IMM:
		return rc ? 0 : FWSIM_DGRAM_LEN;
	case FWSIM_WQE_SEND_INV:
		return rc ? 0 : -1;
	case FWSIM_WQE_WRITE:
	case FWSIM_WQE_WRITE_IMM:
	case FWSIM_WQE_READ:
		return rc ? 16 : -1;
	case FWSIM_WQE_CS:
	case FWSIM_WQE_FA:
		return rc ? 32 : -1;
	default:
		return -1;
	}
}

/*
 * Execute one WQE (w, end bytes) of qp: 0, a syndrome, or FWSIM_XNAK_RNR
 * (leave it posted).  *byte_cnt for the CQE.
 */
static u8 execute(struct fwsim *fw, struct fwsim_qp *qp, const u8 *w,
		  u32 end, u32 *byte_cnt)
{
	u32 op = WQE(0, FWSIM_CTRL_OPCODE), off = FWSIM_DS, len = 0;
	int sl = seg_len(qp->st, op);
	struct fwsim_xmsg msg;
	struct fwsim_xreply rep;
	struct fwsim *peer;
	u8 syn, v[8];

	if (sl < 0 || WQE(0, FWSIM_CTRL_OPMOD) || off + (u32)sl > end ||
	    WQE(0, FWSIM_CTRL_QPN) != qp_num(fw, qp)) {
		fwsim_record(fw, FWSIM_E_DP_WQE);
		return FWSIM_SYN_LOC_QP_OP;
	}
	*byte_cnt = 0;
	if (op == FWSIM_WQE_NOP)
		return 0;
	fwsim_bzero(&msg, sizeof(msg));
	msg.op = xop_of(op);
	msg.st = qp->st == FWSIM_QPT_RC ? FWSIM_QPT_RC : FWSIM_QPT_UD;
	msg.solicited = WQE(0, FWSIM_CTRL_SE);
	msg.src_qpn = qp_num(fw, qp);
	msg.imm = BE32(w + FWSIM_CTRL_IMM);
	fwsim_bcopy(msg.sgid, fw->gids[fwsim_rd(qp->qpc, Q_SGID_IDX) %
				       FWSIM_MAX_GIDS].raw, 16);
	if (qp->st == FWSIM_QPT_RC) {
		msg.dst_qpn = fwsim_rd(qp->qpc, Q_REMOTE_QPN);
		fwsim_bcopy(msg.dgid, qp->qpc + Q_RGID, 16);
		msg.tclass = (u8)fwsim_rd(qp->qpc, Q_TCLASS);
		msg.hop_limit = (u8)fwsim_rd(qp->qpc, Q_HOP);
		msg.flow_label = fwsim_rd(qp->qpc, Q_FLOW);
	} else {
		const u8 *d = w + off;

		msg.qkey = BE32(d + FWSIM_DGRAM_QKEY);
		msg.dst_qpn = fwsim_rd(d, FWSIM_DGRAM_DQPN);
		msg.tclass = d[FWSIM_DGRAM_TCLASS];
		msg.hop_limit = d[FWSIM_DGRAM_HOP];
		msg.flow_label = fwsim_rd(d, FWSIM_DGRAM_FLOW);
		fwsim_bcopy(msg.dgid, d + FWSIM_DGRAM_RGID, 16);
		/* the source GID: the first valid entry */
		fwsim_bcopy(msg.sgid, fw->gids[0].raw, 16);
	}
	if (sl == 16 || sl == 32) {
		msg.raddr = fwsim_rd64(w, off + FWSIM_RADDR_VA);
		msg.rkey = BE32(w + off + FWSIM_RADDR_RKEY);
	}
	if (sl == 32) {
		msg.swap_add = fwsim_rd64(w, off + 16 + FWSIM_ATOMIC_SWAP_ADD);
		msg.compare = fwsim_rd64(w, off + 16 + FWSIM_ATOMIC_COMPARE);
	}
	off += (u32)sl;
	if (msg.op == FWSIM_XOP_READ || msg.op == FWSIM_XOP_CS ||
	    msg.op == FWSIM_XOP_FA) {
		/* scatter targets: sizes and local write checked before sending */
		u32 o, cnt;
		struct stream probe = { .pre = NULL, .plen = 0,
					.data = fw->dp_msg, .dlen = 0 };

		for (o = off; o + FWSIM_DS <= end; o += FWSIM_DS) {
			cnt = BE32(w + o + FWSIM_DSEG_COUNT);
			if (cnt & FWSIM_INLINE)
				return FWSIM_SYN_LOC_QP_OP;
			if (cnt > FWSIM_DP_MAX_MSG - len)
				return FWSIM_SYN_LOC_LEN;
			len += cnt;
		}
		if (msg.op != FWSIM_XOP_READ && len != 8)
			return FWSIM_SYN_LOC_LEN;
		probe.dlen = len;
		/* no write yet: every target must allow it */
		syn = scatter(fw, qp->pd, w, off, end, &probe, false);
		if (syn == FWSIM_SYN_LOC_PROT)
			return syn;
		msg.len = len;
		msg.resp = fw->dp_msg;
	} else {
		syn = gather(fw, qp, w, off, end, &len);
		if (syn)
			return syn;
		msg.payload = fw->dp_msg;
		msg.len = len;
	}
	peer = route(fw, msg.dgid);
	if (!peer || fw->dp_depth) {
		rep.nak = msg.st == FWSIM_QPT_RC ? FWSIM_SYN_RETRY : 0;
		rep.orig = 0;
	} else {
		fw->dp_depth++;
		fwsim_dp_respond(peer, &msg, &rep);
		fw->dp_depth--;
	}
	if (rep.nak)
		return rep.nak;
	*byte_cnt = len;
	if (msg.op == FWSIM_XOP_READ || msg.op == FWSIM_XOP_CS ||
	    msg.op == FWSIM_XOP_FA) {
		struct stream data = { .pre = NULL, .plen = 0, .data = fw->dp_msg,
				       .dlen = len };

		if (msg.op != FWSIM_XOP_READ) {
			fwsim_wr64(v, 0, rep.orig);
			data.data = v;
		}
		return scatter(fw, qp->pd, w, off, end, &data, true);
	}
	return 0;
}

/* read the WQE at SQ counter cc into fw->dp_wqe: its WQEBBs, or 0 */
static u32 wqe_fetch(struct fwsim *fw, struct fwsim_qp *qp, u16 cc, u32 avail)
{
	u64 base = (u64)rq_size(qp) * rq_stride(qp);
	u32 size = sq_size(qp), ds, n, i;

	if (!qbuf_read(fw, qp, base + (u64)(cc & (size - 1)) * FWSIM_WQEBB,
		       fw->dp_wqe, FWSIM_WQEBB))
		return 0;
	ds = fwsim_rd(fw->dp_wqe, FWSIM_CTRL_DS);
	n = (ds * FWSIM_DS + FWSIM_WQEBB - 1) / FWSIM_WQEBB;
	if (!ds || n > avail || n > size) {
		fwsim_record(fw, FWSIM_E_DP_WQE);
		return 0;
	}
	/* the WQE wraps at the ring's end */
	for (i = 1; i < n; i++)
		if (!qbuf_read(fw, qp, base + (u64)((cc + i) & (size - 1)) *
			       FWSIM_WQEBB, fw->dp_wqe + i * FWSIM_WQEBB,
			       FWSIM_WQEBB))
			return 0;
	return n;
}

static void sq_run(struct fwsim *fw, struct fwsim_qp *qp, u32 prod)
{
	const u8 *w = fw->dp_wqe;
	struct cqe_args a;
	u32 i, n, byte_cnt;
	u8 syn;

	for (i = 0; i < sq_size(qp) && qp->sq_cc != (u16)prod; i++) {
		n = wqe_fetch(fw, qp, qp->sq_cc, (prod - qp->sq_cc) & 0xffff);
		byte_cnt = 0;
		syn = (u8)FWSIM_SYN_LOC_QP_OP;
		if (n)
			syn = execute(fw, qp, w, WQE(0, FWSIM_CTRL_DS) * FWSIM_DS,
				      &byte_cnt);
		if (syn == FWSIM_XNAK_RNR) {
			u32 retry = fwsim_rd(qp->qpc, Q_RNR_RETRY);

			if (retry == 7)
				return;		/* again on the next doorbell */
			if (!qp->rnr_wait) {
				qp->rnr_wait = true;
				qp->rnr_left = (u8)retry;
			}
			if (qp->rnr_left) {
				qp->rnr_left--;
				i--;		/* retried at once */
				continue;
			}
			syn = FWSIM_SYN_RNR;
		}
		qp->rnr_wait = false;
		fw->dp_wqes++;
		fwsim_bzero(&a, sizeof(a));
		a.qpn = qp_num(fw, qp);
		a.wqe_op = (u8)WQE(0, FWSIM_CTRL_OPCODE);
		a.wqe_cnt = (u16)WQE(0, FWSIM_CTRL_IDX);
		a.byte_cnt = byte_cnt;
		qp->sq_cc = (u16)(qp->sq_cc + (n ? n : 1));
		if (syn) {
			a.opcode = FWSIM_CQE_REQ_ERR;
			a.synd = syn;
			a.byte_cnt = 0;
			cqe_post(fw, qp->cqn_snd, &a);
			qp_error(fw, qp);
			return;
		}
		if (WQE(0, FWSIM_CTRL_CE) & 2) {
			a.opcode = FWSIM_CQE_REQ;
			cqe_post(fw, qp->cqn_snd, &a);
		}
	}
}

static void send_doorbell(struct fwsim *fw, u32 uar, u64 val)
{
	struct fwsim_qp *qp = qp_find(fw, (u32)val >> 8);
	u32 prod;

	if (!qp || qp->uar != uar || !sq_size(qp) || qp->state < FWSIM_QPS_RTS) {
		fwsim_record(fw, FWSIM_E_DP_DOORBELL);
		return;
	}
	if (!dbr_read(fw, qp->dbr, 1, &prod))
		return;
	if (((prod - qp->sq_cc) & 0xffff) > sq_size(qp)) {
		fwsim_record(fw, FWSIM_E_DP_PRODUCER);
		return;
	}
	if (qp->state == FWSIM_QPS_RTS)
		sq_run(fw, qp, prod);
	else
		qp_flush(fw, qp);
}

void fwsim_uar_write64(struct fwsim *fw, u32 off, u64 val)
{
	u32 reg = off & 0xfff, uar = off >> 12;

	if (fw->fatal || fw->phase != FWSIM_PH_INITIALIZED)
		return;
	if (reg == FWSIM_UAR_CQ_DB)
		cq_doorbell(fw, uar, val);
	else if (reg >= FWSIM_UAR_BF)
		send_doorbell(fw, uar, val);
}
