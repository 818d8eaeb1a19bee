// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: queue pairs.  CREATE_QP, DESTROY_QP, QUERY_QP and the transition
 * commands for RC, UD and the GSI QP (st QP1) on RoCE, with the legal
 * transitions as data: fwsim_qp_edges[] lists each (from state, command,
 * to state, service type) with the qpc fields it requires and allows and
 * the opt_param_mask bits it accepts; fwsim_qp_edge_check() applies one
 * row and is pure.  Pure: builds on the host.
 *
 * Rules:
 * - a command with no row from the QP's state is status 0x10 (bad QP
 *   state), FWSIM_E_QP_STATE;
 * - on a row, a required field that is zero, a known qpc field that is
 *   neither required, allowed nor carried by a set opt_param_mask bit, and
 *   an opt_param_mask bit the row does not accept are status 0x03,
 *   FWSIM_E_QP_FIELD.  Fields whose zero is a valid value (PSNs, P_Key
 *   index, GID index, retry counts, timeouts) are allowed, never required:
 *   zero cannot be told from absent;
 * - values: vhca_port_num 1, path MTU 1..5, the GID index a valid entry
 *   of the RoCE address table, RoCE enabled in the vport before RST2INIT
 *   (FWSIM_E_PARAM);
 * - CREATE_QP: st RC, UD or GSI (at most one GSI QP), state RST, pm_state
 *   migrated (3), existing PD, UAR, send and receive CQs and (rq_type 1)
 *   SRQ, a doorbell record, ts_format as the RoCE capability qp_ts_format
 *   demands (1 when nonzero, else 0), sizes within log_max_qp_sz, a page
 *   list for the whole RQ + SQ buffer; the QP holds a reference on each
 *   object it names;
 * - a QP the data path puts in SQER (UD, GSI) leaves it by SQERR2RTS; RC
 *   QPs have no SQER state.
 * Stricter than hardware by choice: no alternate path, LAG affinity,
 * path-migration state or SQD; create-time fields refused on transitions.
 */
#include <linux/types.h>
#include "fwsim.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define K(...)		FWSIM_K_(__VA_ARGS__)
#define KB(o, n)	FWSIM_KB(o, n)
#define fail		fwsim_fail
#define IN(...)		fwsim_rd(fw->in, __VA_ARGS__)

enum {
	OP_CREATE = 0x500, OP_DESTROY = 0x501, OP_RST2INIT = 0x502,
	OP_INIT2RTR = 0x503, OP_RTR2RTS = 0x504, OP_RTS2RTS = 0x505,
	OP_SQERR2RTS = 0x506, OP_2ERR = 0x507, OP_2RST = 0x50a,
	OP_QUERY = 0x50b, OP_INIT2INIT = 0x50e,
};

/* the model's positions (command input; qpc at 0x18) */
#define QPN		0x08, 23, 0	/* out of CREATE_QP; in of the rest */
#define OPT_MASK	0x10, 31, 0
#define QPC_OFF		0x18
#define QPC_END		(QPC_OFF + FWSIM_QPC_LEN)
/* transition fields */
#define Q_MTU		0x20, 31, 29
#define Q_LOG_MSG_MAX	0x20, 28, 24
#define Q_REMOTE_QPN	0x2c, 23, 0
#define Q_PKEY_INDEX	0x30, 15, 0
#define Q_ACK_TIMEOUT	0x38, 31, 27
#define Q_SRC_ADDR_IDX	0x38, 23, 16
#define Q_STAT_RATE	0x38, 11, 8
#define Q_HOP_LIMIT	0x38, 7, 0
#define Q_TCLASS	0x3c, 27, 20
#define Q_FLOW_LABEL	0x3c, 19, 0
#define Q_RGID		0x40		/* 16 bytes */
#define Q_ECN		0x50, 23, 22
#define Q_DSCP		0x50, 21, 16
#define Q_UDP_SPORT	0x50, 15, 0
#define Q_ETH_PRIO	0x54, 30, 28
#define Q_SL		0x54, 27, 24
#define Q_PORT		0x54, 23, 16
#define Q_RMAC		0x56		/* 6 bytes: rmac_47_32, rmac_31_0 */
#define Q_LOG_SRA_MAX	0x88, 23, 21
#define Q_RETRY_COUNT	0x88, 18, 16
#define Q_RNR_RETRY	0x88, 15, 13
#define Q_NEXT_SEND_PSN	0x90, 23, 0
#define Q_LOG_RRA_MAX	0xa8, 23, 21
#define Q_RRE		0xa8, 15, 15
#define Q_RWE		0xa8, 14, 14
#define Q_RAE		0xa8, 13, 13
#define Q_MIN_RNR_NAK	0xac, 28, 24
#define Q_NEXT_RCV_PSN	0xac, 23, 0
#define Q_Q_KEY		0xc0, 31, 0
/* create-time fields */
#define Q_STATE		0x18, 31, 28
#define Q_ST		0x18, 23, 16
#define Q_PM_STATE	0x18, 12, 11
#define Q_PD		0x1c, 23, 0
#define Q_LOG_RQ_SIZE	0x20, 22, 19
#define Q_LOG_RQ_STRIDE	0x20, 18, 16
#define Q_NO_SQ		0x20, 15, 15
#define Q_LOG_SQ_SIZE	0x20, 14, 11
#define Q_TS_FORMAT	0x20, 7, 6
#define Q_RLKY		0x20, 4, 4
#define Q_UAR		0x24, 23, 0
#define Q_USER_INDEX	0x28, 23, 0
#define Q_LOG_PG	0x2c, 28, 24
#define Q_FRE		0x88, 11, 11
#define Q_CQN_SND	0x94, 23, 0
#define Q_PG_OFF	0xa8, 11, 6
#define Q_CQN_RCV	0xb4, 23, 0
#define Q_DBR		0xb8		/* 8 bytes */
#define Q_RQ_TYPE	0xc4, 26, 24
#define Q_SRQN		0xc4, 23, 0
#define Q_PAS		0x110
/* capabilities */
#define CAP_LOG_MAX_QP_SZ	0, 0x10, 23, 16
#define CAP_LOG_MAX_QP		0, 0x10, 4, 0
#define CAP_UD			0, 0x44, 2, 2
#define CAP_RC			0, 0x44, 0, 0
#define CAP_QP_TS_FORMAT	2, 0x00, 1, 0

enum { RQ_REGULAR = 0, RQ_SRQ = 1, RQ_ZERO = 3 };
#define PM_MIGRATED	3

#define QF_(n, o, h, l, op)	{ .name = (n), .off = (o), .hi = (h), .lo = (l), .len = 0, .opt = (op) }
#define QF(n, pos, op)		QF_(n, pos, op)
#define QB(n, o, ln, op)	{ .name = (n), .off = (o), .hi = 0, .lo = 0, .len = (ln), .opt = (op) }
#define PATH			FWSIM_OPT_PRI_PATH

const struct fwsim_qpf_desc fwsim_qpf[FWSIM_NR_QPF] = {
	[FWSIM_QPF_MTU] = QF("mtu", Q_MTU, 0),
	[FWSIM_QPF_LOG_MSG_MAX] = QF("log_msg_max", Q_LOG_MSG_MAX, 0),
	[FWSIM_QPF_REMOTE_QPN] = QF("remote_qpn", Q_REMOTE_QPN, 0),
	[FWSIM_QPF_PKEY_INDEX] = QF("ads.pkey_index", Q_PKEY_INDEX,
				    FWSIM_OPT_PKEY_INDEX),
	[FWSIM_QPF_ACK_TIMEOUT] = QF("ads.ack_timeout", Q_ACK_TIMEOUT,
				     FWSIM_OPT_ACK_TIMEOUT),
	[FWSIM_QPF_SRC_ADDR_INDEX] = QF("ads.src_addr_index", Q_SRC_ADDR_IDX, PATH),
	[FWSIM_QPF_STAT_RATE] = QF("ads.stat_rate", Q_STAT_RATE, PATH),
	[FWSIM_QPF_HOP_LIMIT] = QF("ads.hop_limit", Q_HOP_LIMIT, PATH),
	[FWSIM_QPF_TCLASS] = QF("ads.tclass", Q_TCLASS, PATH),
	[FWSIM_QPF_FLOW_LABEL] = QF("ads.flow_label", Q_FLOW_LABEL, PATH),
	[FWSIM_QPF_RGID] = QB("ads.rgid_rip", Q_RGID, 16, PATH),
	[FWSIM_QPF_ECN] = QF("ads.ecn", Q_ECN, PATH),
	[FWSIM_QPF_DSCP] = QF("ads.dscp", Q_DSCP, PATH),
	[FWSIM_QPF_UDP_SPORT] = QF("ads.udp_sport", Q_UDP_SPORT, PATH),
	[FWSIM_QPF_ETH_PRIO] = QF("ads.eth_prio", Q_ETH_PRIO, PATH),
	[FWSIM_QPF_SL] = QF("ads.sl", Q_SL, PATH),
	[FWSIM_QPF_PORT] = QF("ads.vhca_port_num", Q_PORT, FWSIM_OPT_PRI_PORT),
	[FWSIM_QPF_RMAC] = QB("ads.rmac", Q_RMAC, 6, PATH),
	[FWSIM_QPF_LOG_SRA_MAX] = QF("log_sra_max", Q_LOG_SRA_MAX,
				     FWSIM_OPT_SRA_MAX),
	[FWSIM_QPF_RETRY_COUNT] = QF("retry_count", Q_RETRY_COUNT,
				     FWSIM_OPT_RETRY_COUNT),
	[FWSIM_QPF_RNR_RETRY] = QF("rnr_retry", Q_RNR_RETRY, FWSIM_OPT_RNR_RETRY),
	[FWSIM_QPF_NEXT_SEND_PSN] = QF("next_send_psn", Q_NEXT_SEND_PSN, 0),
	[FWSIM_QPF_LOG_RRA_MAX] = QF("log_rra_max", Q_LOG_RRA_MAX,
				     FWSIM_OPT_RRA_MAX),
	[FWSIM_QPF_RRE] = QF("rre", Q_RRE, FWSIM_OPT_RRE),
	[FWSIM_QPF_RWE] = QF("rwe", Q_RWE, FWSIM_OPT_RWE),
	[FWSIM_QPF_RAE] = QF("rae", Q_RAE, FWSIM_OPT_RAE),
	[FWSIM_QPF_MIN_RNR_NAK] = QF("min_rnr_nak", Q_MIN_RNR_NAK,
				     FWSIM_OPT_RNR_TIMEOUT),
	[FWSIM_QPF_NEXT_RCV_PSN] = QF("next_rcv_psn", Q_NEXT_RCV_PSN, 0),
	[FWSIM_QPF_Q_KEY] = QF("q_key", Q_Q_KEY, FWSIM_OPT_Q_KEY),
};

/* ---- the transition table */
#define F(x)	(1u << FWSIM_QPF_##x)
#define O(x)	FWSIM_OPT_##x
#define E(f, op, t, s, rq, al, par) {					\
	.from = FWSIM_QPS_##f, .opcode = (op), .to = FWSIM_QPS_##t,	\
	.st = FWSIM_QPT_##s, .req = (rq), .opt = (al), .optpar = (par),	\
}

#define RC_ACCESS	(F(RRE) | F(RWE) | F(RAE))
#define RC_PATH_OPT	(F(SRC_ADDR_INDEX) | F(STAT_RATE) | F(TCLASS) |	\
			 F(FLOW_LABEL) | F(ECN) | F(DSCP) | F(UDP_SPORT) |	\
			 F(ETH_PRIO) | F(SL))
#define OPT_ACCESS	(O(RRE) | O(RAE) | O(RWE))

/* to ERR and to RST: from every state the type has */
#define TO_ERR_RST(s, from)						\
	E(from, OP_2ERR, ERR, s, 0, 0, 0),				\
	E(from, OP_2RST, RST, s, 0, 0, 0)

/* UD and GSI share their rows */
#define UD_ROWS(s)							\
	E(RST, OP_RST2INIT, INIT, s, F(PORT) | F(Q_KEY), F(PKEY_INDEX), 0), \
	E(INIT, OP_INIT2INIT, INIT, s, 0, 0,				\
	  O(PKEY_INDEX) | O(Q_KEY) | O(PRI_PORT)),			\
	E(INIT, OP_INIT2RTR, RTR, s, 0, F(MTU) | F(LOG_MSG_MAX),	\
	  O(PKEY_INDEX) | O(Q_KEY)),					\
	E(RTR, OP_RTR2RTS, RTS, s, 0, F(NEXT_SEND_PSN), O(Q_KEY)),	\
	E(RTS, OP_RTS2RTS, RTS, s, 0, 0, O(Q_KEY)),			\
	E(SQER, OP_SQERR2RTS, RTS, s, 0, 0, O(Q_KEY)),			\
	TO_ERR_RST(s, RST), TO_ERR_RST(s, INIT), TO_ERR_RST(s, RTR),	\
	TO_ERR_RST(s, RTS), TO_ERR_RST(s, SQER), TO_ERR_RST(s, ERR)

const struct fwsim_qp_edge fwsim_qp_edges[] = {
	E(RST, OP_RST2INIT, INIT, RC, F(PORT), F(PKEY_INDEX) | RC_ACCESS, 0),
	E(INIT, OP_INIT2INIT, INIT, RC, 0, 0,
	  OPT_ACCESS | O(PKEY_INDEX) | O(PRI_PORT)),
	E(INIT, OP_INIT2RTR, RTR, RC,
	  F(MTU) | F(REMOTE_QPN) | F(RGID) | F(HOP_LIMIT) | F(RMAC),
	  F(LOG_MSG_MAX) | F(NEXT_RCV_PSN) | F(LOG_RRA_MAX) | F(MIN_RNR_NAK) |
	  RC_PATH_OPT, OPT_ACCESS | O(PKEY_INDEX)),
	E(RTR, OP_RTR2RTS, RTS, RC, 0,
	  F(NEXT_SEND_PSN) | F(ACK_TIMEOUT) | F(RETRY_COUNT) | F(RNR_RETRY) |
	  F(LOG_SRA_MAX), OPT_ACCESS | O(RNR_TIMEOUT)),
	E(RTS, OP_RTS2RTS, RTS, RC, 0, 0, OPT_ACCESS | O(RNR_TIMEOUT)),
	TO_ERR_RST(RC, RST), TO_ERR_RST(RC, INIT), TO_ERR_RST(RC, RTR),
	TO_ERR_RST(RC, RTS), TO_ERR_RST(RC, ERR),
	UD_ROWS(UD),
	UD_ROWS(GSI),
};

const u32 fwsim_nr_qp_edges = N_ELEMS(fwsim_qp_edges);

static bool has_qpc(u16 opcode)
{
	return opcode != OP_2ERR && opcode != OP_2RST;
}

static bool qpf_set(const u8 *in, const struct fwsim_qpf_desc *f)
{
	u32 i;

	if (!f->len)
		return fwsim_rd(in, f->off, f->hi, f->lo) != 0;
	for (i = 0; i < f->len; i++)
		if (in[f->off + i])
			return true;
	return false;
}

enum fwsim_err fwsim_qp_edge_check(u8 cur, u16 opcode, u8 st, const u8 *in,
				   u32 in_len, const struct fwsim_qp_edge **edge,
				   u32 *bad)
{
	const struct fwsim_qp_edge *e = NULL;
	u32 i, mask;

	*edge = NULL;
	*bad = 0;
	for (i = 0; i < fwsim_nr_qp_edges; i++) {
		if (fwsim_qp_edges[i].from == cur &&
		    fwsim_qp_edges[i].opcode == opcode &&
		    fwsim_qp_edges[i].st == st) {
			e = &fwsim_qp_edges[i];
			break;
		}
	}
	if (!e)
		return FWSIM_E_QP_STATE;
	*edge = e;
	if (!has_qpc(opcode))
		return FWSIM_E_NONE;
	if (in_len < QPC_END)
		return FWSIM_E_IN_LEN;
	mask = fwsim_rd(in, OPT_MASK);
	if (mask & ~e->optpar) {
		for (i = 0; !(mask & ~e->optpar & (1u << i)); i++)
			;
		*bad = FWSIM_NR_QPF + i;
		return FWSIM_E_QP_FIELD;
	}
	for (i = 0; i < FWSIM_NR_QPF; i++) {
		bool set = qpf_set(in, &fwsim_qpf[i]);

		if (e->req & (1u << i)) {
			if (set)
				continue;
		} else if (!set || (e->opt & (1u << i)) ||
			   (fwsim_qpf[i].opt & mask)) {
			continue;
		}
		*bad = i;
		return FWSIM_E_QP_FIELD;
	}
	return FWSIM_E_NONE;
}

/* ---- QP table */
static struct fwsim_qp *qp_get(struct fwsim *fw, u32 qpn)
{
	if (qpn < FWSIM_QPN_BASE || qpn >= FWSIM_QPN_BASE + FWSIM_MAX_QPS ||
	    !fw->qps[qpn - FWSIM_QPN_BASE].used)
		return NULL;
	return &fw->qps[qpn - FWSIM_QPN_BASE];
}

int fwsim_qp_set_state(struct fwsim *fw, u32 qpn, enum fwsim_qp_state state)
{
	struct fwsim_qp *qp = qp_get(fw, qpn);

	if (!qp)
		return -1;
	if (state == FWSIM_QPS_SQER) {
		if (qp->st == FWSIM_QPT_RC || qp->state != FWSIM_QPS_RTS)
			return -1;
	} else if (state != FWSIM_QPS_ERR) {
		return -1;
	}
	qp->state = (u8)state;
	fwsim_wr(qp->qpc, 0x00, 31, 28, state);
	return 0;
}

static bool st_ok(const struct fwsim *fw, u32 st)
{
	switch (st) {
	case FWSIM_QPT_RC:
		return fwsim_cap(fw, CAP_RC);
	case FWSIM_QPT_UD:
	case FWSIM_QPT_GSI:
		return fwsim_cap(fw, CAP_UD);
	default:
		return false;
	}
}

static bool gsi_alive(const struct fwsim *fw)
{
	u32 i;

	for (i = 0; i < FWSIM_MAX_QPS; i++)
		if (fw->qps[i].used && fw->qps[i].st == FWSIM_QPT_GSI)
			return true;
	return false;
}

static bool create_params_ok(const struct fwsim *fw)
{
	u32 max_sz = fwsim_cap(fw, CAP_LOG_MAX_QP_SZ);
	u32 rq_type = IN(Q_RQ_TYPE);
	u32 ts = fwsim_cap(fw, CAP_QP_TS_FORMAT) ? 1 : 0;

	if (!st_ok(fw, IN(Q_ST)) || IN(Q_PM_STATE) != PM_MIGRATED ||
	    IN(Q_LOG_SQ_SIZE) > max_sz || IN(Q_LOG_RQ_SIZE) > max_sz ||
	    IN(Q_LOG_RQ_STRIDE) > 6 || IN(Q_LOG_PG) > 8 || IN(Q_PG_OFF) ||
	    IN(Q_TS_FORMAT) != ts || (IN(Q_NO_SQ) && IN(Q_LOG_SQ_SIZE)))
		return false;
	switch (rq_type) {
	case RQ_REGULAR:
		return !IN(Q_SRQN);
	case RQ_SRQ:
		return !IN(Q_LOG_RQ_SIZE) && !IN(Q_LOG_RQ_STRIDE);
	case RQ_ZERO:
		return !IN(Q_SRQN) && !IN(Q_LOG_RQ_SIZE) && !IN(Q_LOG_RQ_STRIDE);
	default:
		return false;
	}
}

static void h_create_qp(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_pd *pd = fwsim_pd_get(fw, IN(Q_PD));
	struct fwsim_cq *scq = fwsim_cq_get(fw, IN(Q_CQN_SND));
	struct fwsim_cq *rcq = fwsim_cq_get(fw, IN(Q_CQN_RCV));
	struct fwsim_srq *srq = NULL;
	u64 dbr = fwsim_rd64(fw->in, Q_DBR);
	u64 pg = 4096ull << IN(Q_LOG_PG), bytes = 0;
	u32 max_qps = FWSIM_MAX_QPS, log_max = fwsim_cap(fw, CAP_LOG_MAX_QP);
	struct fwsim_qp *qp;
	u32 i, npas, off;

	if (!create_params_ok(fw)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (IN(Q_RQ_TYPE) == RQ_SRQ)
		srq = fwsim_srq_get(fw, IN(Q_SRQN));
	if (!pd || !scq || !rcq || (IN(Q_RQ_TYPE) == RQ_SRQ && !srq) ||
	    !fwsim_uar_valid(fw, IN(Q_UAR))) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (!dbr || (dbr & 7)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (!fwsim_dma_ok(fw, dbr, 8)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_DMA);
		return;
	}
	if (log_max < 31 && (1u << log_max) < max_qps)
		max_qps = 1u << log_max;
	for (i = 0; i < FWSIM_MAX_QPS; i++)
		if (!fw->qps[i].used)
			break;
	if (i == FWSIM_MAX_QPS || fw->nr_qps >= max_qps ||
	    (IN(Q_ST) == FWSIM_QPT_GSI && gsi_alive(fw))) {
		fail(fw, cmd, FWSIM_ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	if (IN(Q_RQ_TYPE) == RQ_REGULAR)
		bytes += (16ull << IN(Q_LOG_RQ_STRIDE)) << IN(Q_LOG_RQ_SIZE);
	if (!IN(Q_NO_SQ))
		bytes += 64ull << IN(Q_LOG_SQ_SIZE);
	npas = (u32)((bytes + pg - 1) / pg);
	if (fwsim_pas_take(fw, cmd, Q_PAS, npas, pg, 0, &off))
		return;
	qp = &fw->qps[i];
	fwsim_bzero(qp, sizeof(*qp));
	qp->used = true;
	qp->st = (u8)IN(Q_ST);
	qp->state = FWSIM_QPS_RST;
	qp->pd = IN(Q_PD);
	qp->uar = IN(Q_UAR);
	qp->cqn_snd = IN(Q_CQN_SND);
	qp->cqn_rcv = IN(Q_CQN_RCV);
	qp->srqn = srq ? IN(Q_SRQN) : 0;
	qp->dbr = dbr;
	qp->pas_off = off;
	qp->npas = npas;
	fwsim_bcopy(qp->qpc, fw->in + QPC_OFF, FWSIM_QPC_LEN);
	pd->refs++;
	scq->refs++;
	rcq->refs++;
	if (srq)
		srq->refs++;
	fw->nr_qps++;
	fwsim_wr(fw->out, QPN, FWSIM_QPN_BASE + i);
}

static void h_destroy_qp(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_qp *qp = qp_get(fw, IN(QPN));

	if (!qp) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	fwsim_pas_put(fw, qp->pas_off, qp->npas);
	fwsim_pd_get(fw, qp->pd)->refs--;
	fwsim_cq_get(fw, qp->cqn_snd)->refs--;
	fwsim_cq_get(fw, qp->cqn_rcv)->refs--;
	if (qp->srqn)
		fwsim_srq_get(fw, qp->srqn)->refs--;
	fwsim_bzero(qp, sizeof(*qp));
	fw->nr_qps--;
}

static void h_query_qp(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_qp *qp = qp_get(fw, IN(QPN));

	if (!qp) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	fwsim_bcopy(fw->out + QPC_OFF, qp->qpc, FWSIM_QPC_LEN);
}

/* values of the fields a transition applies */
static bool values_ok(struct fwsim *fw, const struct fwsim_qp_edge *e)
{
	u32 mtu = IN(Q_MTU);

	if (e->opcode == OP_RST2INIT && !fw->roce_en)
		return false;
	if (qpf_set(fw->in, &fwsim_qpf[FWSIM_QPF_PORT]) && IN(Q_PORT) != 1)
		return false;
	if (mtu > 5)
		return false;
	/* the path of an RC QP names a GID of the table */
	if (e->opcode == OP_INIT2RTR && e->st == FWSIM_QPT_RC &&
	    !fwsim_gid_valid(fw, IN(Q_SRC_ADDR_IDX)))
		return false;
	return true;
}

static void apply_field(u8 *qpc, const u8 *in, const struct fwsim_qpf_desc *f)
{
	u32 o = f->off - QPC_OFF;

	if (f->len)
		fwsim_bcopy(qpc + o, in + f->off, f->len);
	else
		fwsim_wr(qpc, o, f->hi, f->lo, fwsim_rd(in, f->off, f->hi, f->lo));
}

static void h_modify_qp(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_qp *qp = qp_get(fw, IN(QPN));
	const struct fwsim_qp_edge *e;
	enum fwsim_err err;
	u32 bad, i, mask;

	if (!qp) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	err = fwsim_qp_edge_check(qp->state, cmd->opcode, qp->st, fw->in,
				  cmd->in_len, &e, &bad);
	if (err == FWSIM_E_QP_STATE) {
		fail(fw, cmd, FWSIM_ST_BAD_QP_STATE, err);
		return;
	}
	if (err != FWSIM_E_NONE) {
		fail(fw, cmd, err == FWSIM_E_IN_LEN ? FWSIM_ST_BAD_INP_LEN :
			      FWSIM_ST_BAD_PARAM, err);
		return;
	}
	if (has_qpc(cmd->opcode) && !values_ok(fw, e)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (e->to == FWSIM_QPS_RST) {
		/* back to reset: the transition fields start over */
		for (i = 0; i < FWSIM_NR_QPF; i++) {
			const struct fwsim_qpf_desc *f = &fwsim_qpf[i];

			if (f->len)
				fwsim_bzero(qp->qpc + f->off - QPC_OFF, f->len);
			else
				fwsim_wr(qp->qpc, f->off - QPC_OFF, f->hi, f->lo, 0);
		}
	} else if (has_qpc(cmd->opcode)) {
		mask = IN(OPT_MASK);
		for (i = 0; i < FWSIM_NR_QPF; i++)
			if (((e->req | e->opt) & (1u << i)) ||
			    (fwsim_qpf[i].opt & mask))
				apply_field(qp->qpc, fw->in, &fwsim_qpf[i]);
	}
	qp->state = e->to;
	fwsim_wr(qp->qpc, 0x00, 31, 28, e->to);
	if (e->to == FWSIM_QPS_RST) {
		/* the queues start over empty */
		qp->sq_cc = 0;
		qp->rq_cc = 0;
		qp->rnr_wait = false;
	} else if (e->to == FWSIM_QPS_ERR) {
		fwsim_dp_flush(fw, IN(QPN));
	}
}

/* ---- known input fields, besides the header */
static const struct fwsim_kfld k_qpn[] = { K(QPN) };
static const struct fwsim_kfld k_create_qp[] = {
	K(Q_ST), K(Q_PM_STATE), K(Q_PD), K(Q_LOG_RQ_SIZE), K(Q_LOG_RQ_STRIDE),
	K(Q_NO_SQ), K(Q_LOG_SQ_SIZE), K(Q_TS_FORMAT), K(Q_RLKY), K(Q_UAR),
	K(Q_USER_INDEX), K(Q_LOG_PG), K(Q_FRE), K(Q_CQN_SND), K(Q_PG_OFF),
	K(Q_CQN_RCV), KB(Q_DBR, 8), K(Q_RQ_TYPE), K(Q_SRQN),
	KB(Q_PAS, FWSIM_MAX_MSG - Q_PAS),
};
static const struct fwsim_kfld k_modify_qp[] = {
	K(QPN), K(OPT_MASK),
	K(Q_MTU), K(Q_LOG_MSG_MAX), K(Q_REMOTE_QPN), K(Q_PKEY_INDEX),
	K(Q_ACK_TIMEOUT), K(Q_SRC_ADDR_IDX), K(Q_STAT_RATE), K(Q_HOP_LIMIT),
	K(Q_TCLASS), K(Q_FLOW_LABEL), KB(Q_RGID, 16), K(Q_ECN), K(Q_DSCP),
	K(Q_UDP_SPORT), K(Q_ETH_PRIO), K(Q_SL), K(Q_PORT), K(0x54, 15, 0),
	K(0x58, 31, 0), K(Q_LOG_SRA_MAX), K(Q_RETRY_COUNT), K(Q_RNR_RETRY),
	K(Q_NEXT_SEND_PSN), K(Q_LOG_RRA_MAX), K(Q_RRE), K(Q_RWE), K(Q_RAE),
	K(Q_MIN_RNR_NAK), K(Q_NEXT_RCV_PSN), K(Q_Q_KEY),
};

#define KN(a)	FWSIM_KN(a)
#define D(...)	FWSIM_D(__VA_ARGS__)
#define INIT	FWSIM_PH(INITIALIZED)
#define MODIFY(op)	D(op, 0x110, 0x10, INIT, KN(k_modify_qp), h_modify_qp)

const struct fwsim_cmd_desc fwsim_qp_cmds[] = {
	D(OP_CREATE, 0x110, 0x10, INIT, KN(k_create_qp), h_create_qp),
	D(OP_DESTROY, 0x10, 0x10, INIT, KN(k_qpn), h_destroy_qp),
	MODIFY(OP_RST2INIT),
	MODIFY(OP_INIT2RTR),
	MODIFY(OP_RTR2RTS),
	MODIFY(OP_RTS2RTS),
	MODIFY(OP_SQERR2RTS),
	D(OP_2ERR, 0x10, 0x10, INIT, KN(k_qpn), h_modify_qp),
	D(OP_2RST, 0x10, 0x10, INIT, KN(k_qpn), h_modify_qp),
	D(OP_QUERY, 0x10, 0x110, INIT, KN(k_qpn), h_query_qp),
	MODIFY(OP_INIT2INIT),
};

const u32 fwsim_nr_qp_cmds = N_ELEMS(fwsim_qp_cmds);
