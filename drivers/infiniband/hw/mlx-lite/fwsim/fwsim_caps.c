// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: capability store.  Per-profile maximum values; current values
 * start equal to the maximum except where a profile says otherwise, and
 * SET_HCA_CAP may change only the writable fields, never above the
 * maximum.  The values are plausible defaults for each family, not
 * measurements of real cards (see Documentation/mlx-lite/fwsim.rst).
 * Pure: builds on the host.
 */
#include <linux/types.h>
#include "fwsim.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

struct cap_val {
	u8 type;	/* index into fw->caps: 0 general, 1 atomic, 2 roce */
	u16 off;
	u8 hi;
	u8 lo;
	u32 val;
};

/* general caps: positions (the model's own table) */
#define G_LOG_MAX_SRQ_SZ	0, 0x10, 31, 24
#define G_LOG_MAX_QP_SZ		0, 0x10, 23, 16
#define G_LOG_MAX_QP		0, 0x10, 4, 0
#define G_LOG_MAX_SRQ		0, 0x14, 20, 16
#define G_LOG_MAX_CQ_SZ		0, 0x18, 23, 16
#define G_LOG_MAX_CQ		0, 0x18, 4, 0
#define G_LOG_MAX_EQ_SZ		0, 0x1c, 31, 24
#define G_LOG_MAX_MKEY		0, 0x1c, 21, 16
#define G_LOG_MAX_EQ		0, 0x1c, 3, 0
#define G_RELEASE_ALL		0, 0x28, 26, 26
#define G_CACHE_LINE_128	0, 0x2c, 27, 27
#define G_GID_TABLE		0, 0x2c, 15, 0
#define G_PKEY_TABLE		0, 0x30, 15, 0
#define G_VPORT_GROUP_MGR	0, 0x34, 31, 31
#define G_PORT_TYPE		0, 0x34, 9, 8
#define G_NUM_PORTS		0, 0x34, 7, 0
#define G_LOG_MAX_MSG		0, 0x38, 28, 24
#define G_CQE_VERSION		0, 0x3c, 3, 0
#define G_DRAIN_SIGERR		0, 0x40, 16, 16
#define G_CMDIF_CHECKSUM	0, 0x40, 15, 14
#define G_ROCE			0, 0x40, 2, 2
#define G_ATOMIC		0, 0x40, 1, 1
#define G_CQ_MODERATION		0, 0x44, 29, 29
#define G_UD			0, 0x44, 2, 2
#define G_UC			0, 0x44, 1, 1
#define G_RC			0, 0x44, 0, 0
#define G_UAR_4K		0, 0x48, 31, 31
#define G_LOG_PG_SZ		0, 0x48, 7, 0
#define G_BF			0, 0x4c, 31, 31
#define G_DRIVER_VERSION	0, 0x4c, 30, 30
#define G_LOG_BF_REG_SIZE	0, 0x4c, 20, 16
#define G_LOG_MAX_TD		0, 0x64, 28, 24
#define G_LOG_MAX_PD		0, 0x64, 20, 16
#define G_ROCE_RW		0, 0x74, 30, 30
#define G_TS_FORMAT		0, 0x88, 31, 28
#define G_MAX_NUM_EQS		0, 0x8c, 15, 0
#define G_LOG_UAR_PAGE_SZ	0, 0x90, 15, 0
#define G_SW_OWNER_ID		0, 0xc0, 1, 1
#define R_QP_TS_FORMAT		2, 0x00, 1, 0
#define R_L3_TYPE		2, 0x10, 19, 16
#define R_ROCE_VERSION		2, 0x10, 7, 0
#define R_DEST_UDP_PORT		2, 0x14, 15, 0
#define R_ADDR_TABLE		2, 0x1c, 15, 0

#define CV_(t, o, h, l, v)	{ .type = (t), .off = (o), .hi = (h), .lo = (l), .val = (v) }
#define CV(f, v)		CV_(f, v)

/* common to every profile */
static const struct cap_val common_max[] = {
	CV(G_LOG_MAX_SRQ_SZ, 15), CV(G_LOG_MAX_QP_SZ, 15), CV(G_LOG_MAX_CQ_SZ, 22),
	CV(G_LOG_MAX_EQ_SZ, 22), CV(G_LOG_MAX_EQ, 4), CV(G_RELEASE_ALL, 1),
	CV(G_CACHE_LINE_128, 1), CV(G_PKEY_TABLE, 0), CV(G_VPORT_GROUP_MGR, 1),
	CV(G_PORT_TYPE, 1), CV(G_NUM_PORTS, 1), CV(G_LOG_MAX_MSG, 30),
	CV(G_CQE_VERSION, 1), CV(G_DRAIN_SIGERR, 1), CV(G_CMDIF_CHECKSUM, 3),
	CV(G_ROCE, 1), CV(G_ATOMIC, 1), CV(G_UD, 1), CV(G_UC, 1), CV(G_RC, 1),
	CV(G_CQ_MODERATION, 1), CV(G_LOG_MAX_SRQ, 23), CV(G_LOG_MAX_TD, 20),
	CV(G_UAR_4K, 1), CV(G_LOG_PG_SZ, 12), CV(G_BF, 1),
	CV(G_DRIVER_VERSION, 1), CV(G_LOG_BF_REG_SIZE, 9), CV(G_ROCE_RW, 1),
	CV(G_LOG_UAR_PAGE_SZ, 0),
	CV(R_L3_TYPE, 3), CV(R_ROCE_VERSION, 5), CV(R_DEST_UDP_PORT, 4791),
	CV(R_ADDR_TABLE, 255),
};

static const struct cap_val cx4lx_max[] = {
	CV(G_LOG_MAX_QP, 18), CV(G_LOG_MAX_CQ, 24), CV(G_LOG_MAX_MKEY, 24),
	CV(G_LOG_MAX_PD, 23), CV(G_MAX_NUM_EQS, 0), CV(G_GID_TABLE, 0),
};

static const struct cap_val cx5_max[] = {
	CV(G_LOG_MAX_QP, 18), CV(G_LOG_MAX_CQ, 24), CV(G_LOG_MAX_MKEY, 24),
	CV(G_LOG_MAX_PD, 23), CV(G_MAX_NUM_EQS, 0), CV(G_GID_TABLE, 0),
};

static const struct cap_val cx6dx_max[] = {
	CV(G_LOG_MAX_QP, 17), CV(G_LOG_MAX_CQ, 24), CV(G_LOG_MAX_MKEY, 24),
	CV(G_LOG_MAX_PD, 23), CV(G_MAX_NUM_EQS, 1024), CV(G_GID_TABLE, 0),
	CV(G_SW_OWNER_ID, 1), CV(G_TS_FORMAT, 0xa), CV(R_QP_TS_FORMAT, 1),
};

static const struct cap_val cx7_max[] = {
	CV(G_LOG_MAX_QP, 17), CV(G_LOG_MAX_CQ, 24), CV(G_LOG_MAX_MKEY, 24),
	CV(G_LOG_MAX_PD, 23), CV(G_MAX_NUM_EQS, 2048), CV(G_GID_TABLE, 0),
	CV(G_SW_OWNER_ID, 1), CV(G_TS_FORMAT, 0xa), CV(R_QP_TS_FORMAT, 1),
};

/* current values that differ from the maximum at power-on */
static const struct cap_val common_cur[] = {
	CV(G_CMDIF_CHECKSUM, 0), CV(G_ROCE, 0), CV(G_UAR_4K, 0),
	CV(G_DRAIN_SIGERR, 0), CV(G_LOG_MAX_QP, 12),
};

/* fields SET_HCA_CAP (general) may change */
static const struct cap_val writable[] = {
	CV(G_LOG_MAX_QP, 0), CV(G_PKEY_TABLE, 0), CV(G_CACHE_LINE_128, 0),
	CV(G_DRAIN_SIGERR, 0), CV(G_CMDIF_CHECKSUM, 0), CV(G_ROCE, 0),
	CV(G_UAR_4K, 0), CV(G_LOG_UAR_PAGE_SZ, 0),
};

struct prof_caps {
	const struct cap_val *v;
	u32 n;
};

static const struct prof_caps prof_max[FWSIM_NR_PROFILES] = {
	[FWSIM_CX4LX] = { cx4lx_max, N_ELEMS(cx4lx_max) },
	[FWSIM_CX5] = { cx5_max, N_ELEMS(cx5_max) },
	[FWSIM_CX6DX] = { cx6dx_max, N_ELEMS(cx6dx_max) },
	[FWSIM_CX7] = { cx7_max, N_ELEMS(cx7_max) },
};

static void apply(struct fwsim *fw, int which, const struct cap_val *v, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		fwsim_wr(fw->caps[v[i].type][which], v[i].off, v[i].hi, v[i].lo,
			 v[i].val);
}

void fwsim_caps_init(struct fwsim *fw)
{
	const struct prof_caps *p = &prof_max[fw->profile];
	u32 t;

	apply(fw, 0, common_max, N_ELEMS(common_max));
	apply(fw, 0, p->v, p->n);
	for (t = 0; t < FWSIM_NR_CAP_TYPES; t++)
		fwsim_bcopy(fw->caps[t][1], fw->caps[t][0], FWSIM_CAP_LEN);
	apply(fw, 1, common_cur, N_ELEMS(common_cur));
}

/* the bits of the capability word at off that SET_HCA_CAP may change */
static u32 writable_mask(u32 off)
{
	u32 m = 0, i;

	for (i = 0; i < N_ELEMS(writable); i++) {
		const struct cap_val *w = &writable[i];
		u32 width = w->hi - w->lo + 1;

		if (w->off == off)
			m |= (width >= 32 ? 0xffffffffu : (1u << width) - 1) << w->lo;
	}
	return m;
}

/*
 * Check a general capability written by SET_HCA_CAP against the current
 * values: only writable fields may differ, none above its maximum.  Word
 * by word, so that the check needs no capability-sized buffer on the
 * stack.
 */
enum fwsim_err fwsim_caps_check_set(const struct fwsim *fw, const u8 *cap)
{
	const u8 *cur = fw->caps[0][1];
	const u8 *max = fw->caps[0][0];
	u32 i, off;

	for (off = 0; off < FWSIM_CAP_LEN; off += 4) {
		u32 diff = fwsim_rd(cap, off, 31, 0) ^ fwsim_rd(cur, off, 31, 0);

		if (diff & ~writable_mask(off))
			return FWSIM_E_CAP_RO;
	}
	for (i = 0; i < N_ELEMS(writable); i++) {
		const struct cap_val *w = &writable[i];

		if (fwsim_rd(cap, w->off, w->hi, w->lo) >
		    fwsim_rd(max, w->off, w->hi, w->lo))
			return FWSIM_E_CAP_MAX;
	}
	return FWSIM_E_NONE;
}

/* a current capability value; type as in fw->caps (0 general, 2 roce) */
u32 fwsim_cap(const struct fwsim *fw, u32 type, u32 off, u32 hi, u32 lo)
{
	if (type >= FWSIM_NR_CAP_TYPES)
		return 0;
	return fwsim_rd(fw->caps[type][1], off, hi, lo);
}

const char *fwsim_profile_str(enum fwsim_profile p)
{
	static const char *const names[FWSIM_NR_PROFILES] = {
		[FWSIM_CX4LX] = "ConnectX-4 Lx",
		[FWSIM_CX5] = "ConnectX-5",
		[FWSIM_CX6DX] = "ConnectX-6 Dx",
		[FWSIM_CX7] = "ConnectX-7",
	};

	return (unsigned int)p < FWSIM_NR_PROFILES ? names[p] : "?";
}

/*
 * The board id (PSID) QUERY_ADAPTER reports for a profile: 16 bytes,
 * NUL-padded.  Model values in the cards' "MT_" + 10 digits format.
 */
const char *fwsim_profile_psid(enum fwsim_profile p)
{
	static const char *const psids[FWSIM_NR_PROFILES] = {
		[FWSIM_CX4LX] = "MT_0000000141",
		[FWSIM_CX5] = "MT_0000000008",
		[FWSIM_CX6DX] = "MT_0000000359",
		[FWSIM_CX7] = "MT_0000000834",
	};

	return (unsigned int)p < FWSIM_NR_PROFILES ? psids[p] : "";
}
