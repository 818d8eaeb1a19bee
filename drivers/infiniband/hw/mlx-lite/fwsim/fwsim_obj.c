// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: the object plane below QPs.  Protection domains, transport
 * domains, memory keys, completion queues and shared receive queues, their
 * commands (table fwsim_obj_cmds, searched by fwsim_hca.c's dispatcher)
 * and the bounded pool of 8-byte entries that holds MTT lists and buffer
 * page lists.  Pure: builds on the host.
 *
 * Rules:
 * - every object command is valid only while the HCA is initialized;
 * - an object is refused (FWSIM_E_LIMIT, status 0x08) when its table is
 *   full or 1 << the capability's log_max_* objects are alive;
 * - a handle that names no live object is FWSIM_E_RESOURCE (0x05);
 * - an object another one references cannot be destroyed (FWSIM_E_BUSY,
 *   0x09): a PD while MKeys, SRQs or QPs use it, a CQ while SRQs or QPs
 *   complete to it, an EQ while CQs report to it, a UAR while CQs or QPs
 *   ring it;
 * - doorbell records are nonzero, 8-byte aligned host memory; page lists
 *   cover the whole buffer, each entry aligned to the page size and host
 *   memory (FWSIM_E_PAGE_ALIGN, FWSIM_E_DMA, both status 0x03);
 * - the model is stricter than hardware: no UMR, no KLM/KSM, page_offset
 *   zero, qpn of an MKey 0xffffff, remote write or atomic access only with
 *   local write.
 */
#include <linux/types.h>
#include "fwsim.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define K(...)		FWSIM_K_(__VA_ARGS__)
#define KB(o, n)	FWSIM_KB(o, n)
#define fail		fwsim_fail

/* the model's positions (command input unless noted) */
#define OBJ_NUM		0x08, 23, 0	/* pd, transport_domain, mkey_index,
					 * cqn, srqn: out of create, in of
					 * the others */
/* CREATE_MKEY; mkc at 0x10 */
#define MKC_AM_4_2	0x10, 28, 26
#define MKC_ACCESS	0x10, 14, 10	/* a, rw, rr, lw, lr */
#define MKC_AM_1_0	0x10, 9, 8
#define MKC_QPN		0x14, 31, 8
#define MKC_VARIANT	0x14, 7, 0
#define MKC_LEN64	0x1c, 31, 31
#define MKC_PD		0x1c, 23, 0
#define MKC_START	0x20
#define MKC_LEN		0x28
#define MKC_XLT_OCT	0x44, 31, 0
#define MKC_LOG_PG	0x48, 5, 0
#define MK_XLT_ACTUAL	0x60, 31, 0
#define MK_MTT		0x110
#define MKC_OFF		0x10
/* CREATE_CQ / MODIFY_CQ; cqc at 0x10 */
#define CQC_CQE_SZ	0x10, 23, 21
#define CQC_OI		0x10, 17, 17
#define CQC_PERIOD_MODE	0x10, 16, 15
#define CQC_PG_OFF	0x18, 11, 6
#define CQC_LOG_SZ	0x1c, 28, 24
#define CQC_UAR		0x1c, 23, 0
#define CQC_PERIOD	0x20, 27, 16
#define CQC_MAX_COUNT	0x20, 15, 0
#define CQC_EQN		0x24, 31, 0
#define CQC_LOG_PG	0x28, 28, 24
#define CQC_DBR		0x48
#define CQ_PAS		0x110
#define CQC_OFF		0x10
#define MCQ_SELECT	0x0c, 31, 0
/* CREATE_SRQ; srqc at 0x10 */
#define SRQC_LOG_SZ	0x10, 27, 24
#define SRQC_RLKY	0x14, 28, 28
#define SRQC_LOG_STRIDE	0x14, 26, 24
#define SRQC_PG_OFF	0x18, 31, 26
#define SRQC_CQN	0x18, 23, 0
#define SRQC_LOG_PG	0x20, 29, 24
#define SRQC_PD		0x28, 23, 0
#define SRQC_LWM	0x2c, 31, 16
#define SRQC_DBR	0x38
#define SRQ_PAS		0x110
#define SRQC_OFF	0x10
/* ARM_RQ (op_mod 1: SRQ): srq number at OBJ_NUM, limit */
#define ARM_LWM		0x0c, 15, 0
#define ARM_OPMOD_SRQ	1
/* capabilities (general, current) */
#define CAP_LOG_MAX_SRQ_SZ	0, 0x10, 31, 24
#define CAP_LOG_MAX_SRQ		0, 0x14, 20, 16
#define CAP_LOG_MAX_CQ_SZ	0, 0x18, 23, 16
#define CAP_LOG_MAX_CQ		0, 0x18, 4, 0
#define CAP_LOG_MAX_MKEY	0, 0x1c, 21, 16
#define CAP_CQ_MODERATION	0, 0x44, 29, 29
#define CAP_LOG_MAX_TD		0, 0x64, 28, 24
#define CAP_LOG_MAX_PD		0, 0x64, 20, 16

#define CAP(...)	fwsim_cap(fw, __VA_ARGS__)
#define IN(...)		fwsim_rd(fw->in, __VA_ARGS__)

enum { MCQ_PERIOD = 1u << 0, MCQ_COUNT = 1u << 1 };
/* MODIFY_CQ op_mod 1 (resize): log_cq_size, page_offset, log_page_size */
enum { MCQ_OPMOD_RESIZE = 1, RCQ_LOG_SIZE = 1u << 0, RCQ_PG_OFFSET = 1u << 1,
       RCQ_PG_SIZE = 1u << 2 };
#define CQC_PC		0x3c	/* producer_counter (cqc 0x2c) */
#define CQC_CC		0x38	/* consumer_counter (cqc 0x28) */
enum { ACC_LR = 1, ACC_LW = 2, ACC_RR = 4, ACC_RW = 8, ACC_A = 16 };

/* alive < min(table, 1 << log_max) */
static bool room(u32 alive, u32 table, u32 log_max)
{
	u32 lim = log_max >= 31 ? table : 1u << log_max;

	return alive < (lim < table ? lim : table);
}

bool fwsim_dma_ok(struct fwsim *fw, u64 addr, u32 len)
{
	u8 buf[8];

	if (len > sizeof(buf))
		len = sizeof(buf);
	return fw->ops->dma_read(fw->ctx, addr, buf, len) == 0;
}

/* ---- the pool of 8-byte entries (bitmap, first fit) */
static bool pool_bit(const struct fwsim *fw, u32 i)
{
	return fw->pas_used[i / 8] & (1u << (i % 8));
}

static void pool_mark(struct fwsim *fw, u32 off, u32 n, bool used)
{
	u32 i;

	for (i = off; i < off + n; i++) {
		if (used)
			fw->pas_used[i / 8] |= (u8)(1u << (i % 8));
		else
			fw->pas_used[i / 8] &= (u8)~(1u << (i % 8));
	}
}

static int pool_find(const struct fwsim *fw, u32 n, u32 *off)
{
	u32 i, run = 0;

	if (!n) {
		*off = 0;
		return 0;
	}
	for (i = 0; i < FWSIM_PAS_POOL; i++) {
		run = pool_bit(fw, i) ? 0 : run + 1;
		if (run == n) {
			*off = i + 1 - n;
			return 0;
		}
	}
	return -1;
}

/*
 * Take n entries from the input at in_off into the pool.  Each entry,
 * without the flag bits, is a nonzero pg-aligned host address; with flags
 * (MTT entries), bit 0 (read enable) must be set.
 */
int fwsim_pas_take(struct fwsim *fw, struct fwsim_cmd *cmd, u32 in_off,
		   u32 n, u64 pg, u64 flags, u32 *pool_off)
{
	u32 i;

	if (cmd->in_len < in_off + 8ull * n || in_off + 8ull * n > FWSIM_MAX_MSG) {
		fail(fw, cmd, FWSIM_ST_BAD_INP_LEN, FWSIM_E_IN_LEN);
		return -1;
	}
	for (i = 0; i < n; i++) {
		u64 e = fwsim_rd64(fw->in, in_off + 8 * i);
		u64 a = e & ~flags;

		if (!a || (a & (pg - 1)) || (flags && !(e & 1))) {
			fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PAGE_ALIGN);
			return -1;
		}
		if (!fwsim_dma_ok(fw, a, 8)) {
			fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_DMA);
			return -1;
		}
	}
	if (pool_find(fw, n, pool_off)) {
		fail(fw, cmd, FWSIM_ST_LIM, FWSIM_E_LIMIT);
		return -1;
	}
	for (i = 0; i < n; i++)
		fw->pas_pool[*pool_off + i] = fwsim_rd64(fw->in, in_off + 8 * i);
	pool_mark(fw, *pool_off, n, true);
	fw->pas_in_use += n;
	return 0;
}

void fwsim_pas_put(struct fwsim *fw, u32 pool_off, u32 n)
{
	pool_mark(fw, pool_off, n, false);
	fwsim_bzero(&fw->pas_pool[pool_off], 8 * n);
	fw->pas_in_use -= n;
}

/* a doorbell record: nonzero, 8-byte aligned, host memory */
static bool dbr_ok(struct fwsim *fw, struct fwsim_cmd *cmd, u64 dbr)
{
	if (!dbr || (dbr & 7)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return false;
	}
	if (!fwsim_dma_ok(fw, dbr, 8)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_DMA);
		return false;
	}
	return true;
}

/* ---- lookups by handle */
struct fwsim_pd *fwsim_pd_get(struct fwsim *fw, u32 pd)
{
	if (!pd || pd > FWSIM_MAX_PDS || !fw->pds[pd - 1].used)
		return NULL;
	return &fw->pds[pd - 1];
}

struct fwsim_cq *fwsim_cq_get(struct fwsim *fw, u32 cqn)
{
	if (!cqn || cqn > FWSIM_MAX_CQS || !fw->cqs[cqn - 1].used)
		return NULL;
	return &fw->cqs[cqn - 1];
}

struct fwsim_srq *fwsim_srq_get(struct fwsim *fw, u32 srqn)
{
	if (!srqn || srqn > FWSIM_MAX_SRQS || !fw->srqs[srqn - 1].used)
		return NULL;
	return &fw->srqs[srqn - 1];
}

static struct fwsim_mkey *mkey_get(struct fwsim *fw, u32 idx)
{
	if (!idx || idx > FWSIM_MAX_MKEYS || !fw->mkeys[idx - 1].used)
		return NULL;
	return &fw->mkeys[idx - 1];
}

bool fwsim_uar_busy_obj(const struct fwsim *fw, u32 uar)
{
	u32 i;

	for (i = 0; i < FWSIM_MAX_CQS; i++)
		if (fw->cqs[i].used && fw->cqs[i].uar == uar)
			return true;
	for (i = 0; i < FWSIM_MAX_QPS; i++)
		if (fw->qps[i].used && fw->qps[i].uar == uar)
			return true;
	return false;
}

u32 fwsim_obj_count(const struct fwsim *fw)
{
	return fw->nr_pds + fw->nr_tds + fw->nr_mkeys + fw->nr_cqs +
	       fw->nr_srqs + fw->nr_qps;
}

/* a function reset: every object of this file goes */
void fwsim_obj_reset(struct fwsim *fw)
{
	fwsim_bzero(fw->pds, sizeof(fw->pds));
	fw->nr_pds = 0;
	fwsim_bzero(fw->tds, sizeof(fw->tds));
	fw->nr_tds = 0;
	fwsim_bzero(fw->mkeys, sizeof(fw->mkeys));
	fw->nr_mkeys = 0;
	fwsim_bzero(fw->cqs, sizeof(fw->cqs));
	fw->nr_cqs = 0;
	fwsim_bzero(fw->srqs, sizeof(fw->srqs));
	fw->nr_srqs = 0;
	fwsim_bzero(fw->qps, sizeof(fw->qps));
	fw->nr_qps = 0;
	fwsim_bzero(fw->pas_used, sizeof(fw->pas_used));
	fw->pas_in_use = 0;
}

/* ---- PD and transport domain */
static void h_alloc_pd(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 i;

	for (i = 0; i < FWSIM_MAX_PDS; i++)
		if (!fw->pds[i].used)
			break;
	if (i == FWSIM_MAX_PDS ||
	    !room(fw->nr_pds, FWSIM_MAX_PDS, CAP(CAP_LOG_MAX_PD))) {
		fail(fw, cmd, FWSIM_ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	fw->pds[i].used = true;
	fw->pds[i].refs = 0;
	fw->nr_pds++;
	fwsim_wr(fw->out, OBJ_NUM, i + 1);
}

static void h_dealloc_pd(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_pd *pd = fwsim_pd_get(fw, IN(OBJ_NUM));

	if (!pd) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (pd->refs) {
		fail(fw, cmd, FWSIM_ST_BAD_RES_STATE, FWSIM_E_BUSY);
		return;
	}
	pd->used = false;
	fw->nr_pds--;
}

static void h_alloc_td(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 i;

	for (i = 0; i < FWSIM_MAX_TDS; i++)
		if (!fw->tds[i])
			break;
	if (i == FWSIM_MAX_TDS ||
	    !room(fw->nr_tds, FWSIM_MAX_TDS, CAP(CAP_LOG_MAX_TD))) {
		fail(fw, cmd, FWSIM_ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	fw->tds[i] = true;
	fw->nr_tds++;
	fwsim_wr(fw->out, OBJ_NUM, i + 1);
}

static void h_dealloc_td(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 td = IN(OBJ_NUM);

	if (!td || td > FWSIM_MAX_TDS || !fw->tds[td - 1]) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	fw->tds[td - 1] = false;
	fw->nr_tds--;
}

/* ---- MKey */
static bool mkey_access_ok(u32 acc)
{
	/* remote write and atomic need local write */
	return !(acc & (ACC_RW | ACC_A)) || (acc & ACC_LW);
}

/* the MTT entries an MTT-mode MKey needs; 0 if the ranges are wrong */
static u32 mtt_entries(u64 start, u64 len, u32 log_pg)
{
	u64 pg = 1ull << log_pg;
	u64 n;

	if (!len || start + len < start)
		return 0;
	n = ((start & (pg - 1)) + len + pg - 1) >> log_pg;
	return n > FWSIM_PAS_POOL ? 0 : (u32)n;
}

static void h_create_mkey(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 mode = IN(MKC_AM_1_0), acc = IN(MKC_ACCESS);
	u32 log_pg = IN(MKC_LOG_PG), oct = IN(MKC_XLT_OCT);
	u64 start = fwsim_rd64(fw->in, MKC_START);
	u64 len = fwsim_rd64(fw->in, MKC_LEN);
	bool len64 = IN(MKC_LEN64);
	struct fwsim_pd *pd = fwsim_pd_get(fw, IN(MKC_PD));
	struct fwsim_mkey *mk;
	u32 i, n = 0, off = 0;

	if (IN(MKC_AM_4_2) || mode > 1 || IN(MKC_QPN) != 0xffffff ||
	    !mkey_access_ok(acc) || oct != IN(MK_XLT_ACTUAL)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (!pd) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (mode == 0) {
		/* PA: the whole space (length64) or [start, start + len) */
		if (oct || log_pg || (len64 ? start || len : !len ||
				      start + len < start)) {
			fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
			return;
		}
	} else {
		n = log_pg >= 12 && log_pg <= 30 ?
			mtt_entries(start, len, log_pg) : 0;
		if (len64 || !n || oct != (n + 1) / 2) {
			fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
			return;
		}
		if (cmd->in_len < MK_MTT + 16ull * oct) {
			fail(fw, cmd, FWSIM_ST_BAD_INP_LEN, FWSIM_E_IN_LEN);
			return;
		}
		/* the padding entry of an odd list is zero */
		if ((n & 1) && fwsim_rd64(fw->in, MK_MTT + 8 * n)) {
			fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
			return;
		}
	}
	for (i = 0; i < FWSIM_MAX_MKEYS; i++)
		if (!fw->mkeys[i].used)
			break;
	if (i == FWSIM_MAX_MKEYS ||
	    !room(fw->nr_mkeys, FWSIM_MAX_MKEYS, CAP(CAP_LOG_MAX_MKEY))) {
		fail(fw, cmd, FWSIM_ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	if (mode == 1 &&
	    fwsim_pas_take(fw, cmd, MK_MTT, n, 1ull << log_pg, 3, &off))
		return;
	mk = &fw->mkeys[i];
	fwsim_bzero(mk, sizeof(*mk));
	mk->used = true;
	mk->mode = (u8)mode;
	mk->variant = (u8)IN(MKC_VARIANT);
	mk->access = (u8)acc;
	mk->length64 = len64;
	mk->log_page_size = (u8)log_pg;
	mk->pd = IN(MKC_PD);
	mk->start = start;
	mk->len = len;
	mk->mtt_off = off;
	mk->n_mtt = n;
	fwsim_bcopy(mk->mkc, fw->in + MKC_OFF, FWSIM_MKC_LEN);
	pd->refs++;
	fw->nr_mkeys++;
	fwsim_wr(fw->out, OBJ_NUM, i + 1);
}

static void h_destroy_mkey(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_mkey *mk = mkey_get(fw, IN(OBJ_NUM));

	if (!mk) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	fwsim_pas_put(fw, mk->mtt_off, mk->n_mtt);
	fwsim_pd_get(fw, mk->pd)->refs--;
	fwsim_bzero(mk, sizeof(*mk));
	fw->nr_mkeys--;
}

static void h_query_mkey(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_mkey *mk = mkey_get(fw, IN(OBJ_NUM));

	if (!mk) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	fwsim_bcopy(fw->out + MKC_OFF, mk->mkc, FWSIM_MKC_LEN);
}

/* ---- CQ */
static void h_create_cq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 log_sz = IN(CQC_LOG_SZ), log_pg = IN(CQC_LOG_PG);
	u32 eqn = IN(CQC_EQN), uar = IN(CQC_UAR);
	u64 dbr = fwsim_rd64(fw->in, CQC_DBR);
	u64 pg = 4096ull << log_pg, bytes;
	struct fwsim_cq *cq;
	u32 i, npas, off;

	if (IN(CQC_CQE_SZ) > 1 || IN(CQC_PERIOD_MODE) > 1 || IN(CQC_PG_OFF) ||
	    log_sz > CAP(CAP_LOG_MAX_CQ_SZ) || log_pg > 8 ||
	    ((IN(CQC_PERIOD) || IN(CQC_MAX_COUNT)) &&
	     !CAP(CAP_CQ_MODERATION))) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (!fwsim_uar_valid(fw, uar) || eqn >= FWSIM_MAX_EQS ||
	    !fw->eqs[eqn].used) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (!dbr_ok(fw, cmd, dbr))
		return;
	for (i = 0; i < FWSIM_MAX_CQS; i++)
		if (!fw->cqs[i].used)
			break;
	if (i == FWSIM_MAX_CQS ||
	    !room(fw->nr_cqs, FWSIM_MAX_CQS, CAP(CAP_LOG_MAX_CQ))) {
		fail(fw, cmd, FWSIM_ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	bytes = (64ull << IN(CQC_CQE_SZ)) << log_sz;
	npas = (u32)((bytes + pg - 1) / pg);
	if (fwsim_pas_take(fw, cmd, CQ_PAS, npas, pg, 0, &off))
		return;
	cq = &fw->cqs[i];
	fwsim_bzero(cq, sizeof(*cq));
	cq->used = true;
	cq->log_size = (u8)log_sz;
	cq->uar = uar;
	cq->eqn = eqn;
	cq->dbr = dbr;
	cq->pas_off = off;
	cq->npas = npas;
	fwsim_bcopy(cq->cqc, fw->in + CQC_OFF, FWSIM_CQC_LEN);
	fw->eqs[eqn].refs++;
	fw->nr_cqs++;
	fwsim_wr(fw->out, OBJ_NUM, i + 1);
}

static void h_destroy_cq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_cq *cq = fwsim_cq_get(fw, IN(OBJ_NUM));

	if (!cq) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (cq->refs) {
		fail(fw, cmd, FWSIM_ST_BAD_RES_STATE, FWSIM_E_BUSY);
		return;
	}
	fwsim_pas_put(fw, cq->pas_off, cq->npas);
	fw->eqs[cq->eqn].refs--;
	fwsim_bzero(cq, sizeof(*cq));
	fw->nr_cqs--;
}

static void h_query_cq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_cq *cq = fwsim_cq_get(fw, IN(OBJ_NUM));

	if (!cq) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	fwsim_bcopy(fw->out + CQC_OFF, cq->cqc, FWSIM_CQC_LEN);
}

/*
 * Resize: a new ring (log_cq_size, log_page_size, PAS list at 0x110) that
 * holds every CQE not yet consumed (producer - consumer counter of the
 * stored cqc); the old PAS list is let go.  The model's CQs receive no
 * CQEs, so it writes no RESIZE CQE into the old ring.
 */
static void cq_resize(struct fwsim *fw, struct fwsim_cmd *cmd,
		      struct fwsim_cq *cq)
{
	u32 sel = IN(MCQ_SELECT), log_sz = IN(CQC_LOG_SZ), log_pg = IN(CQC_LOG_PG);
	u64 pg = 4096ull << log_pg, bytes;
	u32 used, npas, off;

	if (!(sel & RCQ_LOG_SIZE) || (sel & ~(RCQ_LOG_SIZE | RCQ_PG_OFFSET | RCQ_PG_SIZE)) ||
	    IN(CQC_PG_OFF) || (!(sel & RCQ_PG_SIZE) && log_pg) || log_pg > 8 ||
	    log_sz > CAP(CAP_LOG_MAX_CQ_SZ) || IN(CQC_PERIOD) || IN(CQC_MAX_COUNT)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	used = fwsim_rd(cq->cqc, CQC_PC - CQC_OFF, 31, 0) -
	       fwsim_rd(cq->cqc, CQC_CC - CQC_OFF, 31, 0);
	if (used > (1u << log_sz)) {
		/* the new ring could not hold what is outstanding */
		fail(fw, cmd, FWSIM_ST_BAD_RES_STATE, FWSIM_E_BUSY);
		return;
	}
	bytes = (64ull << fwsim_rd(cq->cqc, 0, 23, 21)) << log_sz;
	npas = (u32)((bytes + pg - 1) / pg);
	if (fwsim_pas_take(fw, cmd, CQ_PAS, npas, pg, 0, &off))
		return;
	fwsim_pas_put(fw, cq->pas_off, cq->npas);
	cq->pas_off = off;
	cq->npas = npas;
	cq->log_size = (u8)log_sz;
	fwsim_wr(cq->cqc, 0x1c - CQC_OFF, 28, 24, log_sz);
	fwsim_wr(cq->cqc, 0x28 - CQC_OFF, 28, 24, log_pg);
}

/* op_mod 0: moderation (period, max count); op_mod 1: resize */
static void h_modify_cq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_cq *cq = fwsim_cq_get(fw, IN(OBJ_NUM));
	u32 sel = IN(MCQ_SELECT);

	if (cmd->op_mod == MCQ_OPMOD_RESIZE) {
		if (!cq)
			fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		else
			cq_resize(fw, cmd, cq);
		return;
	}
	if (cmd->op_mod || !sel || (sel & ~(MCQ_PERIOD | MCQ_COUNT)) ||
	    IN(CQC_LOG_SZ) || IN(CQC_LOG_PG) || IN(CQC_PG_OFF) ||
	    !CAP(CAP_CQ_MODERATION) ||
	    (!(sel & MCQ_PERIOD) && IN(CQC_PERIOD)) ||
	    (!(sel & MCQ_COUNT) && IN(CQC_MAX_COUNT))) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (!cq) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	/* the stored cqc sits at offset 0: positions shift by CQC_OFF */
	if (sel & MCQ_PERIOD)
		fwsim_wr(cq->cqc, 0x20 - CQC_OFF, 27, 16, IN(CQC_PERIOD));
	if (sel & MCQ_COUNT)
		fwsim_wr(cq->cqc, 0x20 - CQC_OFF, 15, 0, IN(CQC_MAX_COUNT));
}

/* ---- SRQ */
static void h_create_srq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 log_sz = IN(SRQC_LOG_SZ), log_pg = IN(SRQC_LOG_PG);
	struct fwsim_pd *pd = fwsim_pd_get(fw, IN(SRQC_PD));
	struct fwsim_cq *cq = fwsim_cq_get(fw, IN(SRQC_CQN));
	u64 dbr = fwsim_rd64(fw->in, SRQC_DBR);
	u64 pg = 4096ull << log_pg, bytes;
	struct fwsim_srq *srq;
	u32 i, npas, off;

	if (log_sz > CAP(CAP_LOG_MAX_SRQ_SZ) || IN(SRQC_PG_OFF) || log_pg > 8 ||
	    IN(SRQC_LWM) > (1u << log_sz)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (!pd || !cq) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (!dbr_ok(fw, cmd, dbr))
		return;
	for (i = 0; i < FWSIM_MAX_SRQS; i++)
		if (!fw->srqs[i].used)
			break;
	if (i == FWSIM_MAX_SRQS ||
	    !room(fw->nr_srqs, FWSIM_MAX_SRQS, CAP(CAP_LOG_MAX_SRQ))) {
		fail(fw, cmd, FWSIM_ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	bytes = (16ull << IN(SRQC_LOG_STRIDE)) << log_sz;
	npas = (u32)((bytes + pg - 1) / pg);
	if (fwsim_pas_take(fw, cmd, SRQ_PAS, npas, pg, 0, &off))
		return;
	srq = &fw->srqs[i];
	fwsim_bzero(srq, sizeof(*srq));
	srq->used = true;
	srq->pd = IN(SRQC_PD);
	srq->cqn = IN(SRQC_CQN);
	srq->dbr = dbr;
	srq->pas_off = off;
	srq->npas = npas;
	fwsim_bcopy(srq->srqc, fw->in + SRQC_OFF, FWSIM_SRQC_LEN);
	pd->refs++;
	cq->refs++;
	fw->nr_srqs++;
	fwsim_wr(fw->out, OBJ_NUM, i + 1);
}

static void h_destroy_srq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_srq *srq = fwsim_srq_get(fw, IN(OBJ_NUM));

	if (!srq) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (srq->refs) {
		fail(fw, cmd, FWSIM_ST_BAD_RES_STATE, FWSIM_E_BUSY);
		return;
	}
	fwsim_pas_put(fw, srq->pas_off, srq->npas);
	fwsim_pd_get(fw, srq->pd)->refs--;
	fwsim_cq_get(fw, srq->cqn)->refs--;
	fwsim_bzero(srq, sizeof(*srq));
	fw->nr_srqs--;
}

static void h_query_srq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_srq *srq = fwsim_srq_get(fw, IN(OBJ_NUM));

	if (!srq) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	fwsim_bcopy(fw->out + SRQC_OFF, srq->srqc, FWSIM_SRQC_LEN);
}

/*
 * ARM_RQ on an SRQ: the limit (lwm) QUERY_SRQ reports from now on, at
 * most the SRQ's size.  The model has no receive path, so the limit event
 * comes only from fwsim_raise_async().
 */
static void h_arm_rq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_srq *srq = fwsim_srq_get(fw, IN(OBJ_NUM));
	u32 lwm = IN(ARM_LWM);

	if (cmd->op_mod != ARM_OPMOD_SRQ) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (!srq) {
		fail(fw, cmd, FWSIM_ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	/* the stored srqc sits at offset 0: positions shift by SRQC_OFF */
	if (lwm > (1u << fwsim_rd(srq->srqc, 0x10 - SRQC_OFF, 27, 24))) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	fwsim_wr(srq->srqc, 0x2c - SRQC_OFF, 31, 16, lwm);
}

/* ---- known input fields, besides the header */
static const struct fwsim_kfld k_num[] = { K(OBJ_NUM) };
static const struct fwsim_kfld k_create_mkey[] = {
	K(MKC_AM_4_2), K(MKC_ACCESS), K(MKC_AM_1_0), K(MKC_QPN),
	K(MKC_VARIANT), K(MKC_LEN64), K(MKC_PD), KB(MKC_START, 8),
	KB(MKC_LEN, 8), K(MKC_XLT_OCT), K(MKC_LOG_PG), K(MK_XLT_ACTUAL),
	KB(MK_MTT, FWSIM_MAX_MSG - MK_MTT),
};
static const struct fwsim_kfld k_create_cq[] = {
	K(CQC_CQE_SZ), K(CQC_OI), K(CQC_PERIOD_MODE), K(CQC_PG_OFF),
	K(CQC_LOG_SZ), K(CQC_UAR), K(CQC_PERIOD), K(CQC_MAX_COUNT),
	K(CQC_EQN), K(CQC_LOG_PG), KB(CQC_DBR, 8),
	KB(CQ_PAS, FWSIM_MAX_MSG - CQ_PAS),
};
static const struct fwsim_kfld k_modify_cq[] = {
	K(OBJ_NUM), K(MCQ_SELECT), K(CQC_PG_OFF), K(CQC_LOG_SZ), K(CQC_PERIOD),
	K(CQC_MAX_COUNT), K(CQC_LOG_PG), KB(CQ_PAS, FWSIM_MAX_MSG - CQ_PAS),
};
static const struct fwsim_kfld k_arm_rq[] = {
	K(OBJ_NUM), K(ARM_LWM),
};
static const struct fwsim_kfld k_create_srq[] = {
	K(SRQC_LOG_SZ), K(SRQC_RLKY), K(SRQC_LOG_STRIDE), K(SRQC_PG_OFF),
	K(SRQC_CQN), K(SRQC_LOG_PG), K(SRQC_PD), K(SRQC_LWM), KB(SRQC_DBR, 8),
	KB(SRQ_PAS, FWSIM_MAX_MSG - SRQ_PAS),
};

#define KN(a)	FWSIM_KN(a)
#define NONE	NULL, 0
#define D(...)	FWSIM_D(__VA_ARGS__)
#define INIT	FWSIM_PH(INITIALIZED)

const struct fwsim_cmd_desc fwsim_obj_cmds[] = {
	D(0x200, 0x110, 0x10, INIT, KN(k_create_mkey), h_create_mkey),
	D(0x201, 0x10, 0x130, INIT, KN(k_num), h_query_mkey),
	D(0x202, 0x10, 0x10, INIT, KN(k_num), h_destroy_mkey),
	D(0x400, 0x110, 0x10, INIT, KN(k_create_cq), h_create_cq),
	D(0x401, 0x10, 0x10, INIT, KN(k_num), h_destroy_cq),
	D(0x402, 0x10, 0x110, INIT, KN(k_num), h_query_cq),
	D(0x403, 0x110, 0x10, INIT, KN(k_modify_cq), h_modify_cq),
	D(0x700, 0x110, 0x10, INIT, KN(k_create_srq), h_create_srq),
	D(0x701, 0x10, 0x10, INIT, KN(k_num), h_destroy_srq),
	D(0x702, 0x10, 0x110, INIT, KN(k_num), h_query_srq),
	D(0x703, 0x10, 0x10, INIT, KN(k_arm_rq), h_arm_rq),
	D(0x800, 0x10, 0x10, INIT, NONE, h_alloc_pd),
	D(0x801, 0x10, 0x10, INIT, KN(k_num), h_dealloc_pd),
	D(0x816, 0x10, 0x10, INIT, NONE, h_alloc_td),
	D(0x817, 0x10, 0x10, INIT, KN(k_num), h_dealloc_td),
};

const u32 fwsim_nr_obj_cmds = N_ELEMS(fwsim_obj_cmds);
