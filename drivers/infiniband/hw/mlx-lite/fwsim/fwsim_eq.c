// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: event queues, interrupts, the health buffer, fatal errors,
 * function reset and held commands.  Pure: builds on the host.
 *
 * Rules:
 *  - An EQE goes to the first EQ whose event mask has its type, at the
 *    producer index; its owner bit is (pi >> log_size) & 1, so the entry
 *    is the driver's when that bit equals the driver's pass parity.  An
 *    EQ holding 1 << log_size unconsumed EQEs takes no more: the EQE is
 *    dropped and counted (fw->eqes_dropped).
 *  - The EQ doorbell (UAR + 0x40 arm, + 0x48 no arm; eqn[31:24] ci[23:0])
 *    sets the consumer index; an armed EQ raises its vector on the next
 *    EQE and disarms; arming with unconsumed EQEs raises it at once.
 *  - Health: 0x1010 is syndrome[31:24] | counter[23:0]; the counter moves
 *    1 per ms until the firmware dies or hangs.  Byte 0x238 bit 7 is RFR,
 *    0x23d the syndrome.  A dead firmware ignores doorbells: posted and
 *    held commands never complete, no EQE is written.
 *  - Asynchronous object events (fwsim_raise_async) are raised for any
 *    object number, live or not: the driver must drop events for numbers
 *    it does not know (an event may race with the object's destroy).  A
 *    CQ error carries the CQN at EQE byte 0x20 and syndrome 1 (overrun)
 *    at 0x2b; QP and SRQ events carry the QPN or SRQN at 0x38 (the
 *    queue type at 0x34 stays 0, a QP's).  The model changes no object's
 *    state for them.
 *  - Function reset (nic_interface 7 written to 0x14): every page and
 *    object is dropped as an FLR drops them (counted in fw->pages_reset),
 *    held commands are forgotten, the health clears; nic_interface reads
 *    1 (disabled) until the command queue address is written again.
 */
#include <linux/types.h>
#include "fwsim.h"

#define EQE_SIZE	64
#define EVT_PORT_CHANGE	0x09
#define EVT_CMD		0x0a
#define EVT_PAGE_REQ	0x0b
#define UAR_EQ_ARM	0x40
#define UAR_EQ_NOARM	0x48

static void put_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static u32 eq_pending(const struct fwsim_eq *eq)
{
	return (eq->pi - eq->ci) & 0xffffff;
}

static void eq_raise(struct fwsim *fw, struct fwsim_eq *eq)
{
	eq->armed = false;
	fw->irqs++;
	if (fw->ops->irq)
		fw->ops->irq(fw->ctx, eq->intr);
}

static bool eq_write(struct fwsim *fw, struct fwsim_eq *eq, u8 type,
		     u8 sub_type, const u8 *data, u32 len)
{
	u8 eqe[EQE_SIZE];
	u32 size = 1u << eq->log_size, idx;

	if (eq_pending(eq) >= size) {
		fw->eqes_dropped++;
		return false;
	}
	fwsim_bzero(eqe, sizeof(eqe));
	eqe[0x01] = type;
	eqe[0x03] = sub_type;
	if (len > 28)
		len = 28;
	if (data)
		fwsim_bcopy(eqe + 0x20, data, len);
	idx = eq->pi & (size - 1);
	eqe[0x3f] = (u8)((eq->pi >> eq->log_size) & 1);
	if (fw->ops->dma_write(fw->ctx, eq->pas0 + (u64)idx * EQE_SIZE, eqe,
			       EQE_SIZE)) {
		fwsim_record(fw, FWSIM_E_DMA);
		return false;
	}
	eq->pi = (eq->pi + 1) & 0xffffff;
	fw->eqes++;
	if (eq->armed)
		eq_raise(fw, eq);
	return true;
}

bool fwsim_eq_post(struct fwsim *fw, u8 type, u8 sub_type, const u8 *data,
		   u32 len)
{
	struct fwsim_eq *eq = NULL;
	u32 i;

	if (fw->fatal || type >= 64)
		return false;
	for (i = 0; i < FWSIM_MAX_EQS && !eq; i++)
		if (fw->eqs[i].used && (fw->eqs[i].mask[0] >> type & 1))
			eq = &fw->eqs[i];
	if (!eq)
		return false;
	return eq_write(fw, eq, type, sub_type, data, len);
}

/* an EQE to EQ eqn (a completion goes to its CQ's EQ, whatever the mask) */
bool fwsim_eq_post_to(struct fwsim *fw, u32 eqn, u8 type, const u8 *data,
		      u32 len)
{
	if (fw->fatal || eqn >= FWSIM_MAX_EQS || !fw->eqs[eqn].used)
		return false;
	return eq_write(fw, &fw->eqs[eqn], type, 0, data, len);
}

/* the EQE types of object events, bit n for type n */
#define ASYNC_QP_TYPES	(1u << 0x01 | 1u << 0x02 | 1u << 0x03 | 1u << 0x05 | \
			 1u << 0x07 | 1u << 0x10 | 1u << 0x11 | 1u << 0x13)
#define ASYNC_SRQ_TYPES	(1u << 0x12 | 1u << 0x14)
#define EVT_CQ_ERROR	0x04

bool fwsim_async_type(u8 type)
{
	return type == EVT_CQ_ERROR ||
	       (type < 32 && ((ASYNC_QP_TYPES | ASYNC_SRQ_TYPES) >> type & 1));
}

bool fwsim_raise_async(struct fwsim *fw, u8 type, u32 objnum)
{
	u8 d[28];

	if (!fwsim_async_type(type) || objnum > 0xffffff ||
	    fw->phase != FWSIM_PH_INITIALIZED)
		return false;
	fwsim_bzero(d, sizeof(d));
	if (type == EVT_CQ_ERROR) {
		put_be32(d, objnum);		/* EQE 0x20 */
		d[0x0b] = 1;			/* EQE 0x2b: CQ overrun */
	} else {
		put_be32(d + 0x18, objnum);	/* EQE 0x38 */
	}
	return fwsim_eq_post(fw, type, 0, d, sizeof(d));
}

void fwsim_eq_cmd_done(struct fwsim *fw, u32 slot)
{
	u8 d[4];

	put_be32(d, 1u << slot);
	fwsim_eq_post(fw, EVT_CMD, 0, d, sizeof(d));
}

void fwsim_uar_write(struct fwsim *fw, u32 off, u32 val)
{
	u32 reg = off & 0xfff, uar = off >> 12, n = val >> 24;
	struct fwsim_eq *eq;

	if (reg != UAR_EQ_ARM && reg != UAR_EQ_NOARM)
		return;		/* other doorbells: the data path's */
	if (fw->fatal)
		return;
	if (n >= FWSIM_MAX_EQS || !fw->eqs[n].used || fw->eqs[n].uar != uar ||
	    ((val - fw->eqs[n].ci) & 0xffffff) > eq_pending(&fw->eqs[n])) {
		/* unknown EQ, another UAR, or a CI beyond what was written */
		fwsim_record(fw, FWSIM_E_EQ_DOORBELL);
		return;
	}
	eq = &fw->eqs[n];
	eq->ci = val & 0xffffff;
	if (reg == UAR_EQ_ARM) {
		eq->armed = true;
		if (eq_pending(eq))
			eq_raise(fw, eq);
	}
}

bool fwsim_page_request(struct fwsim *fw, s32 npages)
{
	u8 d[8];

	if (fw->phase != FWSIM_PH_INITIALIZED || fw->fatal || !npages)
		return false;
	if (npages > 0) {
		fw->regular_owed += (u32)npages;
	} else {
		if ((u32)-npages > fw->pages_held - (u32)fw->page_give_back)
			return false;
		fw->page_give_back += -npages;
	}
	fwsim_bzero(d, sizeof(d));	/* ec_function/flags, function_id 0 */
	put_be32(d + 4, (u32)npages);
	return fwsim_eq_post(fw, EVT_PAGE_REQ, 0, d, sizeof(d));
}

bool fwsim_port_set(struct fwsim *fw, bool up)
{
	u8 d[12];

	if (fw->port_up == up)
		return false;
	fw->port_up = up;
	if (fw->phase != FWSIM_PH_INITIALIZED)
		return false;
	fwsim_bzero(d, sizeof(d));
	d[0x08] = 1 << 4;		/* port 1, EQE byte 0x28 */
	return fwsim_eq_post(fw, EVT_PORT_CHANGE, up ? 4 : 1, d, sizeof(d));
}

static u32 health_counter(struct fwsim *fw)
{
	if (fw->fatal || fw->health_stuck)
		return fw->health_frozen;
	return (u32)(fw->ops->now_ns(fw->ctx) / 1000000) & 0xffffff;
}

void fwsim_health_stall(struct fwsim *fw)
{
	if (!fw->fatal && !fw->health_stuck)
		fw->health_frozen = health_counter(fw);
	fw->health_stuck = true;
}

void fwsim_health_fatal(struct fwsim *fw, u8 synd)
{
	if (!fw->fatal && !fw->health_stuck)
		fw->health_frozen = health_counter(fw);
	fw->fatal = true;
	fw->health_synd = synd ? synd : 1;
}

u32 fwsim_health_read(struct fwsim *fw, u32 off)
{
	switch (off) {
	case 0x1010:
		return (u32)fw->health_synd << 24 | health_counter(fw);
	case 0x230:		/* fw_ver */
		return fw->fw_rev;
	case 0x238:		/* RFR, severity */
		return fw->health_synd ? 0x80000000u | 2u << 24 : 0;
	case 0x23c:		/* irisc_index, synd, ext_synd */
		return (u32)fw->health_synd << 16;
	default:
		return 0;
	}
}

void fwsim_hold_cmds(struct fwsim *fw, u32 n)
{
	fw->hold_next = n;
}

void fwsim_release_cmds(struct fwsim *fw)
{
	u32 slot, held = fw->held;

	fw->held = 0;
	if (fw->fatal)
		return;
	for (slot = 0; slot < 32; slot++)
		if (held & (1u << slot))
			fwsim_process_slot(fw, slot);
}

void fwsim_func_reset(struct fwsim *fw)
{
	fw->resets++;
	fw->pages_reset += fw->pages_held;
	fwsim_bzero(fw->page_set, sizeof(fw->page_set));
	fw->pages_held = 0;
	fw->page_tomb = 0;
	fwsim_bzero(fw->uar_used, sizeof(fw->uar_used));
	fw->nr_uars = 0;
	fwsim_bzero(fw->eqs, sizeof(fw->eqs));
	fw->nr_eqs = 0;
	fwsim_obj_reset(fw);
	fwsim_hca_to_disabled(fw);
	fw->fatal = false;
	fw->health_stuck = false;
	fw->health_synd = 0;
	fw->hold_next = 0;
	fw->held = 0;
	fw->inj_count = 0;
	fw->cmdq_ready = false;
	fw->cmdq_addr_h = 0;
	fw->cmdq_addr_l = 0;
	fw->cmdq_base = 0;
	fw->nic_disabled = true;
}
