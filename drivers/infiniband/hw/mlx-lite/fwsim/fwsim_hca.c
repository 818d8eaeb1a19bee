// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: the HCA behind the transport.  A dispatch table gives each
 * command its minimum input and output lengths, the phases it is valid in,
 * the input bits it knows (every other bit of the fixed input must be
 * zero) and its handler.  Handlers keep the lifecycle, the page set, the
 * capabilities and the UAR and EQ tables; the object commands have their
 * own tables in fwsim_obj.c, fwsim_qp.c and fwsim_port.c, searched after
 * this one.  Pure: builds on the host.
 */
#include <linux/types.h>
#include "fwsim.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

enum {
	ST_OK = FWSIM_ST_OK, ST_BAD_OP = FWSIM_ST_BAD_OP,
	ST_BAD_PARAM = FWSIM_ST_BAD_PARAM,
	ST_BAD_SYS_STATE = FWSIM_ST_BAD_SYS_STATE, ST_BAD_RES = FWSIM_ST_BAD_RES,
	ST_LIM = FWSIM_ST_LIM, ST_BAD_RES_STATE = FWSIM_ST_BAD_RES_STATE,
	ST_BAD_INP_LEN = FWSIM_ST_BAD_INP_LEN,
	ST_BAD_OUTP_LEN = FWSIM_ST_BAD_OUTP_LEN,
};

#define kfld		fwsim_kfld
#define K(...)		FWSIM_K_(__VA_ARGS__)
#define KB(o, n)	FWSIM_KB(o, n)

/* the model's positions */
#define HDR_OPCODE	0x00, 31, 16
#define HDR_OP_MOD	0x04, 15, 0
#define FN_ECPU		0x08, 31, 31
#define FN_ID		0x08, 15, 0
#define ISSI_CUR	0x08, 15, 0
#define ISSI_SUPP	0x6c, 31, 0
#define QP_NUM		0x0c, 31, 0
#define MP_IN_NUM	0x0c, 31, 0
#define MP_OUT_NUM	0x08, 31, 0
#define MP_PAS		0x10
#define TD_PROFILE	0x08, 15, 0
#define AR_ID		0x08, 15, 0
#define AR_ARG		0x0c, 31, 0
#define UAR_IDX		0x08, 23, 0
#define EQC_OI		0x10, 17, 17
#define EQC_PG_OFF	0x18, 11, 6
#define EQC_LOG_SZ	0x1c, 28, 24
#define EQC_UAR		0x1c, 23, 0
#define EQC_INTR	0x24, 11, 0
#define EQC_LOG_PG	0x28, 28, 24
#define EQ_BITMASK	0x58
#define EQ_PAS		0x110
#define EQ_NUM		0x08, 7, 0

#define PH(p)		FWSIM_PH(p)
#define PH_ANY		FWSIM_PH_ANY
#define PH_AFTER_EN	(PH_ANY & ~PH(DISABLED))

void fwsim_fail(struct fwsim *fw, struct fwsim_cmd *cmd, u8 status,
		enum fwsim_err e)
{
	cmd->status = status;
	cmd->syndrome = FWSIM_SYND(e);
	fwsim_record(fw, e);
}

#define fail fwsim_fail

/* ---- page set (open addressing, linear probing, tombstones) */
#define PAGE_TOMB	(~(u64)0)

static u32 page_hash(u64 addr)
{
	u64 h = (addr >> 12) * 0x9e3779b97f4a7c15ull;

	return (u32)(h >> 40) & (FWSIM_MAX_PAGES - 1);
}

static s32 page_find(const struct fwsim *fw, u64 addr)
{
	u32 i, h = page_hash(addr);

	for (i = 0; i < FWSIM_MAX_PAGES; i++) {
		u32 s = (h + i) & (FWSIM_MAX_PAGES - 1);

		if (fw->page_set[s] == addr)
			return (s32)s;
		if (!fw->page_set[s])
			return -1;
	}
	return -1;
}

static bool page_add(struct fwsim *fw, u64 addr)
{
	u32 i, h = page_hash(addr);

	/* keep a quarter free so probes stay short and always end */
	if (fw->pages_held + fw->page_tomb >= FWSIM_MAX_PAGES * 3 / 4)
		return false;
	for (i = 0; i < FWSIM_MAX_PAGES; i++) {
		u32 s = (h + i) & (FWSIM_MAX_PAGES - 1);

		if (!fw->page_set[s] || fw->page_set[s] == PAGE_TOMB) {
			if (fw->page_set[s] == PAGE_TOMB)
				fw->page_tomb--;
			fw->page_set[s] = addr;
			fw->pages_held++;
			return true;
		}
	}
	return false;
}

static u64 page_pop(struct fwsim *fw)
{
	u32 s;
	u64 a;

	for (s = 0; s < FWSIM_MAX_PAGES; s++) {
		a = fw->page_set[s];
		if (a && a != PAGE_TOMB) {
			fw->page_set[s] = PAGE_TOMB;
			fw->page_tomb++;
			fw->pages_held--;
			/*
			 * Tombstones count against the fill limit: an empty set
			 * starts over clean, or load/unload cycles would fill it.
			 */
			if (!fw->pages_held) {
				fwsim_bzero(fw->page_set, sizeof(fw->page_set));
				fw->page_tomb = 0;
			}
			return a;
		}
	}
	return 0;
}

u32 fwsim_pages_held(const struct fwsim *fw)
{
	return fw->pages_held;
}

bool fwsim_page_held(const struct fwsim *fw, u64 addr)
{
	return addr && addr != PAGE_TOMB && page_find(fw, addr) >= 0;
}

u32 fwsim_objects_alive(const struct fwsim *fw)
{
	return fw->nr_uars + fw->nr_eqs + fwsim_obj_count(fw);
}

/* ---- handlers */
static bool func_is_self(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	if (fwsim_rd(fw->in, FN_ECPU) || fwsim_rd(fw->in, FN_ID)) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
		return false;
	}
	return true;
}

static void h_enable_hca(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	if (func_is_self(fw, cmd))
		fw->phase = FWSIM_PH_ENABLED;
}

/* the lifecycle state of a disabled function: no ISSI, nothing owed, the
 * profile's capabilities, the port as at power-on */
void fwsim_hca_to_disabled(struct fwsim *fw)
{
	fw->phase = FWSIM_PH_DISABLED;
	fw->issi = 0;
	fw->owed = 0;
	fw->regular_owed = 0;
	fw->page_give_back = 0;
	fwsim_caps_init(fw);
	fwsim_port_reset(fw);
}

static void h_disable_hca(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	if (!func_is_self(fw, cmd))
		return;
	if (fw->pages_held) {
		fail(fw, cmd, ST_BAD_RES_STATE, FWSIM_E_PAGE_LEAK);
		return;
	}
	fwsim_hca_to_disabled(fw);
}

static void h_query_issi(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	(void)cmd;
	fwsim_wr(fw->out, ISSI_CUR, fw->issi);
	fwsim_wr(fw->out, ISSI_SUPP, 0x3);	/* ISSI 0 and 1 */
}

/*
 * QUERY_ADAPTER: the adapter's identity.  The model fills the vendor ids
 * and the board id (PSID, 16 bytes at out 0x100); the vendor-specific
 * data stays zero.
 */
#define QA_IEEE_VENDOR	0x28, 23, 0
#define QA_VSD_VENDOR	0x2c, 15, 0
#define QA_PSID		0x100
#define QA_PSID_LEN	16

static void h_query_adapter(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	const char *psid = fwsim_profile_psid(fw->profile);
	u32 i;

	(void)cmd;
	fwsim_wr(fw->out, QA_IEEE_VENDOR, 0x0002c9);
	fwsim_wr(fw->out, QA_VSD_VENDOR, 0x15b3);
	for (i = 0; i < QA_PSID_LEN && psid[i]; i++)
		fw->out[QA_PSID + i] = (u8)psid[i];
}

static void h_set_issi(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	/* the model serves ISSI 1 layouts only */
	if (fwsim_rd(fw->in, ISSI_CUR) != 1) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	fw->issi = 1;
	fw->phase = FWSIM_PH_ISSI_SET;
	fw->owed = fw->boot_pages;
}

static void h_query_pages(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	static const u8 kind_phase[4] = {
		0, FWSIM_PH_ISSI_SET, FWSIM_PH_CAPS_SET, FWSIM_PH_INITIALIZED,
	};
	u32 kind = cmd->op_mod;

	if (!func_is_self(fw, cmd))
		return;
	if (kind < 1 || kind > 3) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (fw->phase != kind_phase[kind]) {
		fail(fw, cmd, ST_BAD_SYS_STATE, FWSIM_E_PHASE);
		return;
	}
	fwsim_wr(fw->out, QP_NUM,
		 kind == 3 ? fw->regular_owed : fw->owed);
}

static void give_pages(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 n = fwsim_rd(fw->in, MP_IN_NUM);
	u32 *owed, i, j;

	if (fw->phase == FWSIM_PH_ISSI_SET || fw->phase == FWSIM_PH_CAPS_SET) {
		owed = &fw->owed;
	} else if (fw->phase == FWSIM_PH_INITIALIZED) {
		owed = &fw->regular_owed;
	} else {
		fail(fw, cmd, ST_BAD_SYS_STATE, FWSIM_E_PHASE);
		return;
	}
	if (!n || cmd->in_len < MP_PAS + 8ull * n) {
		fail(fw, cmd, ST_BAD_INP_LEN, FWSIM_E_IN_LEN);
		return;
	}
	if (n > *owed) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PAGE_EXCESS);
		return;
	}
	/* check the whole list before taking any page */
	for (i = 0; i < n; i++) {
		u64 a = fwsim_rd64(fw->in, MP_PAS + 8 * i);

		if (!a || (a & 0xfff) || a == PAGE_TOMB) {
			fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PAGE_ALIGN);
			return;
		}
		if (page_find(fw, a) >= 0) {
			fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PAGE_DOUBLE);
			return;
		}
		for (j = 0; j < i; j++) {
			if (fwsim_rd64(fw->in, MP_PAS + 8 * j) == a) {
				fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PAGE_DOUBLE);
				return;
			}
		}
	}
	if (fw->pages_held + fw->page_tomb + n >= FWSIM_MAX_PAGES * 3 / 4) {
		fail(fw, cmd, ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	for (i = 0; i < n; i++)
		page_add(fw, fwsim_rd64(fw->in, MP_PAS + 8 * i));
	*owed -= n;
}

static void take_pages(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 n = fwsim_rd(fw->in, MP_IN_NUM);
	u32 room = (cmd->out_len - MP_PAS) / 8;
	u32 i;

	if (cmd->out_len < MP_PAS || n > room) {
		fail(fw, cmd, ST_BAD_OUTP_LEN, FWSIM_E_OUT_LEN);
		return;
	}
	/*
	 * Before INIT_HCA and after TEARDOWN_HCA every page may go back; in
	 * between only those a page request offered.
	 */
	if ((fw->phase == FWSIM_PH_INITIALIZED && n > (u32)fw->page_give_back) ||
	    n > fw->pages_held) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PAGE_TAKE);
		return;
	}
	if (fw->phase == FWSIM_PH_INITIALIZED)
		fw->page_give_back -= (s32)n;
	for (i = 0; i < n; i++)
		fwsim_wr64(fw->out, MP_PAS + 8 * i, page_pop(fw));
	fwsim_wr(fw->out, MP_OUT_NUM, n);
}

static void h_manage_pages(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	if (!func_is_self(fw, cmd))
		return;
	switch (cmd->op_mod) {
	case 0:		/* the driver cannot give: nothing changes */
		break;
	case 1:
		give_pages(fw, cmd);
		break;
	case 2:
		take_pages(fw, cmd);
		break;
	default:
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
	}
}

static bool boot_pages_given(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	if (fw->phase == FWSIM_PH_ISSI_SET && fw->owed) {
		fail(fw, cmd, ST_BAD_SYS_STATE, FWSIM_E_PAGES_OWED);
		return false;
	}
	return true;
}

static int cap_index(u32 type)
{
	switch (type) {
	case 0:
		return 0;
	case 3:
		return 1;
	case 4:
		return 2;
	default:
		return -1;
	}
}

static void h_query_hca_cap(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	int t = cap_index(cmd->op_mod >> 1);

	if (!boot_pages_given(fw, cmd) || !func_is_self(fw, cmd))
		return;
	if (t < 0) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	fwsim_bcopy(fw->out + 0x10, fw->caps[t][cmd->op_mod & 1],
		    FWSIM_CAP_LEN);
}

static void h_set_hca_cap(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	const u8 *cap = fw->in + 0x10;
	enum fwsim_err e;
	int t = cap_index(cmd->op_mod >> 1);

	if (!boot_pages_given(fw, cmd) || !func_is_self(fw, cmd))
		return;
	/* general caps only; bit 0 of op_mod must be clear */
	if (t != 0 || (cmd->op_mod & 1)) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	e = fwsim_caps_check_set(fw, cap);
	if (e != FWSIM_E_NONE) {
		fail(fw, cmd, ST_BAD_PARAM, e);
		return;
	}
	fwsim_bcopy(fw->caps[0][1], cap, FWSIM_CAP_LEN);
	if (fw->phase == FWSIM_PH_ISSI_SET) {
		fw->phase = FWSIM_PH_CAPS_SET;
		fw->owed = fw->init_pages;
	}
}

static void h_access_reg(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	if (!boot_pages_given(fw, cmd))
		return;
	/* HOST_ENDIANNESS only: 16 bytes, first byte he */
	if (fwsim_rd(fw->in, AR_ID) != 0x7004 || fwsim_rd(fw->in, AR_ARG) ||
	    cmd->op_mod > 1 || cmd->in_len < 0x20 || cmd->out_len < 0x20) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (cmd->op_mod == 0) {
		u32 i;

		for (i = 1; i < 16; i++)
			if (fw->in[0x10 + i])
				break;
		if (i < 16 || (fw->in[0x10] & 0x7f)) {
			fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_RESERVED);
			return;
		}
		fw->host_endianness = fw->in[0x10];
	}
	fw->out[0x10] = fw->host_endianness;
}

static void h_init_hca(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 i;

	if (fw->owed) {
		fail(fw, cmd, ST_BAD_SYS_STATE, FWSIM_E_PAGES_OWED);
		return;
	}
	/* sw_owner_id only with the capability */
	if (!fwsim_rd(fw->caps[0][1], 0xc0, 1, 1)) {
		for (i = 0; i < 16; i++)
			if (fw->in[0x10 + i])
				break;
		if (i < 16) {
			fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_RESERVED);
			return;
		}
	}
	fw->phase = FWSIM_PH_INITIALIZED;
}

static void h_teardown_hca(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 profile = fwsim_rd(fw->in, TD_PROFILE);

	if (profile > 1) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (fwsim_objects_alive(fw)) {
		fail(fw, cmd, ST_BAD_RES_STATE, FWSIM_E_BUSY);
		return;
	}
	fw->phase = FWSIM_PH_TORN_DOWN;
	fw->regular_owed = 0;
}

static void h_set_driver_version(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 i;

	if (!fwsim_rd(fw->caps[0][1], 0x4c, 30, 30)) {
		fail(fw, cmd, ST_BAD_OP, FWSIM_E_PARAM);
		return;
	}
	for (i = 0; i < 63; i++)
		fw->driver_version[i] = (char)fw->in[0x10 + i];
	fw->driver_version[63] = 0;
}

static void h_nop(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	(void)fw;
	(void)cmd;
}

static void h_alloc_uar(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 i;

	for (i = FWSIM_FIRST_UAR; i < FWSIM_MAX_UARS; i++)
		if (!fw->uar_used[i])
			break;
	if (i == FWSIM_MAX_UARS) {
		fail(fw, cmd, ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	fw->uar_used[i] = 1;
	fw->nr_uars++;
	fwsim_wr(fw->out, UAR_IDX, i);
}

bool fwsim_uar_valid(const struct fwsim *fw, u32 uar)
{
	return uar < FWSIM_MAX_UARS && fw->uar_used[uar];
}

static bool uar_in_use(const struct fwsim *fw, u32 uar)
{
	u32 i;

	for (i = 0; i < FWSIM_MAX_EQS; i++)
		if (fw->eqs[i].used && fw->eqs[i].uar == uar)
			return true;
	return fwsim_uar_busy_obj(fw, uar);
}

static void h_dealloc_uar(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 uar = fwsim_rd(fw->in, UAR_IDX);

	if (uar >= FWSIM_MAX_UARS || !fw->uar_used[uar]) {
		fail(fw, cmd, ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (uar_in_use(fw, uar)) {
		fail(fw, cmd, ST_BAD_RES_STATE, FWSIM_E_BUSY);
		return;
	}
	fw->uar_used[uar] = 0;
	fw->nr_uars--;
}

static void h_create_eq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 log_size = fwsim_rd(fw->in, EQC_LOG_SZ);
	u32 log_pg = fwsim_rd(fw->in, EQC_LOG_PG);
	u32 uar = fwsim_rd(fw->in, EQC_UAR);
	u32 intr = fwsim_rd(fw->in, EQC_INTR);
	u32 max_eqs = 1u << fwsim_rd(fw->caps[0][1], 0x1c, 3, 0);
	u64 bytes, pg;
	u32 npas, i, n;
	struct fwsim_eq *eq;

	if (log_size > fwsim_rd(fw->caps[0][1], 0x1c, 31, 24) || log_pg > 8 ||
	    fwsim_rd(fw->in, EQC_PG_OFF) || intr >= FWSIM_NR_VECTORS) {
		fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if (uar >= FWSIM_MAX_UARS || !fw->uar_used[uar]) {
		fail(fw, cmd, ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	pg = 4096ull << log_pg;
	bytes = 64ull << log_size;
	npas = (u32)((bytes + pg - 1) / pg);
	if (cmd->in_len < EQ_PAS + 8ull * npas) {
		fail(fw, cmd, ST_BAD_INP_LEN, FWSIM_E_IN_LEN);
		return;
	}
	for (i = 0; i < npas; i++) {
		u64 a = fwsim_rd64(fw->in, EQ_PAS + 8 * i);

		if (!a || (a & (pg - 1))) {
			fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_PAGE_ALIGN);
			return;
		}
	}
	for (i = 0, n = 0; i < FWSIM_MAX_EQS; i++)
		n += fw->eqs[i].used;
	for (i = 0; i < FWSIM_MAX_EQS; i++)
		if (!fw->eqs[i].used)
			break;
	if (i == FWSIM_MAX_EQS || n >= max_eqs) {
		fail(fw, cmd, ST_LIM, FWSIM_E_LIMIT);
		return;
	}
	eq = &fw->eqs[i];
	eq->used = true;
	eq->log_size = (u8)log_size;
	eq->uar = uar;
	eq->intr = intr;
	eq->npas = npas;
	eq->pas0 = fwsim_rd64(fw->in, EQ_PAS);
	for (n = 0; n < 4; n++)
		eq->mask[n] = fwsim_rd64(fw->in, EQ_BITMASK + 8 * n);
	fw->nr_eqs++;
	fwsim_wr(fw->out, EQ_NUM, i);
}

static void h_destroy_eq(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 n = fwsim_rd(fw->in, EQ_NUM);

	if (n >= FWSIM_MAX_EQS || !fw->eqs[n].used) {
		fail(fw, cmd, ST_BAD_RES, FWSIM_E_RESOURCE);
		return;
	}
	if (fw->eqs[n].refs) {
		fail(fw, cmd, ST_BAD_RES_STATE, FWSIM_E_BUSY);
		return;
	}
	fwsim_bzero(&fw->eqs[n], sizeof(fw->eqs[n]));
	fw->nr_eqs--;
}

/* ---- known input fields, besides the header (opcode, op_mod) */
static const struct kfld k_func[] = { K(FN_ECPU), K(FN_ID) };
static const struct kfld k_issi[] = { K(ISSI_CUR) };
static const struct kfld k_manage[] = {
	K(FN_ECPU), K(FN_ID), K(MP_IN_NUM), KB(MP_PAS, FWSIM_MAX_MSG - MP_PAS),
};
static const struct kfld k_set_cap[] = { K(FN_ECPU), K(FN_ID), KB(0x10, 0x1000) };
static const struct kfld k_init_hca[] = { KB(0x10, 16) };
static const struct kfld k_teardown[] = { K(TD_PROFILE) };
static const struct kfld k_access_reg[] = {
	K(AR_ID), K(AR_ARG), KB(0x10, FWSIM_MAX_MSG - 0x10),
};
static const struct kfld k_drv_ver[] = { KB(0x10, 0x40) };
static const struct kfld k_uar[] = { K(UAR_IDX) };
static const struct kfld k_create_eq[] = {
	K(EQC_OI), K(EQC_PG_OFF), K(EQC_LOG_SZ), K(EQC_UAR), K(EQC_INTR),
	K(EQC_LOG_PG), KB(EQ_BITMASK, 32), KB(EQ_PAS, FWSIM_MAX_MSG - EQ_PAS),
};
static const struct kfld k_eq_num[] = { K(EQ_NUM) };

#define KN(a)	FWSIM_KN(a)
#define NONE	NULL, 0
#define D(...)	FWSIM_D(__VA_ARGS__)

static const struct fwsim_cmd_desc cmds[] = {
	D(0x100, 0x10, 0x1010, PH(ISSI_SET) | PH(CAPS_SET) | PH(INITIALIZED),
	  KN(k_func), h_query_hca_cap),
	D(0x101, 0x10, 0x110, PH(ISSI_SET) | PH(CAPS_SET) | PH(INITIALIZED),
	  NONE, h_query_adapter),
	D(0x102, 0x20, 0x10, PH(CAPS_SET), KN(k_init_hca), h_init_hca),
	D(0x103, 0x10, 0x10, PH(INITIALIZED), KN(k_teardown), h_teardown_hca),
	D(0x104, 0x10, 0x0c, PH(DISABLED), KN(k_func), h_enable_hca),
	D(0x105, 0x10, 0x0c, PH_AFTER_EN & ~PH(INITIALIZED), KN(k_func),
	  h_disable_hca),
	D(0x107, 0x10, 0x10, PH(ISSI_SET) | PH(CAPS_SET) | PH(INITIALIZED),
	  KN(k_func), h_query_pages),
	D(0x108, 0x10, 0x10, PH_AFTER_EN, KN(k_manage), h_manage_pages),
	D(0x109, 0x1010, 0x10, PH(ISSI_SET) | PH(CAPS_SET), KN(k_set_cap),
	  h_set_hca_cap),
	D(0x10a, 0x10, 0x70, PH(ENABLED) | PH(ISSI_SET), NONE, h_query_issi),
	D(0x10b, 0x10, 0x10, PH(ENABLED), KN(k_issi), h_set_issi),
	D(0x10d, 0x50, 0x10, PH(INITIALIZED), KN(k_drv_ver),
	  h_set_driver_version),
	D(0x301, 0x110, 0x10, PH(INITIALIZED), KN(k_create_eq), h_create_eq),
	D(0x302, 0x10, 0x10, PH(INITIALIZED), KN(k_eq_num), h_destroy_eq),
	D(0x802, 0x10, 0x10, PH(INITIALIZED), NONE, h_alloc_uar),
	D(0x803, 0x10, 0x10, PH(INITIALIZED), KN(k_uar), h_dealloc_uar),
	D(0x805, 0x10, 0x10, PH(ISSI_SET) | PH(CAPS_SET) | PH(INITIALIZED),
	  KN(k_access_reg), h_access_reg),
	D(0x80d, 0x10, 0x10, PH_ANY, NONE, h_nop),
};

static const struct fwsim_cmd_desc *desc_find(u16 opcode)
{
	const struct {
		const struct fwsim_cmd_desc *d;
		u32 n;
	} tabs[] = {
		{ cmds, N_ELEMS(cmds) },
		{ fwsim_obj_cmds, fwsim_nr_obj_cmds },
		{ fwsim_qp_cmds, fwsim_nr_qp_cmds },
		{ fwsim_port_cmds, fwsim_nr_port_cmds },
	};
	u32 t, i;

	for (t = 0; t < N_ELEMS(tabs); t++)
		for (i = 0; i < tabs[t].n; i++)
			if (tabs[t].d[i].opcode == opcode)
				return &tabs[t].d[i];
	return NULL;
}

static u32 kmask(u32 hi, u32 lo)
{
	u32 w = hi - lo + 1;

	return w >= 32 ? 0xffffffffu : ((1u << w) - 1) << lo;
}

/* known bits of the input dword at off */
static u32 known_mask(const struct fwsim_cmd_desc *d, u32 off)
{
	u32 m = 0, i;

	if (off == 0)
		m |= kmask(31, 16);
	if (off == 4)
		m |= kmask(15, 0);
	for (i = 0; i < d->n_known; i++) {
		const struct kfld *k = &d->known[i];

		if (k->len) {
			if (off >= k->off && off < (u32)k->off + k->len)
				m = 0xffffffffu;
		} else if (k->off == off) {
			m |= kmask(k->hi, k->lo);
		}
	}
	return m;
}

bool fwsim_in_field_known(u16 opcode, u32 off, u32 hi, u32 lo)
{
	const struct fwsim_cmd_desc *d = desc_find(opcode);
	u32 m;

	if (!d || (off & 3) || hi > 31 || lo > hi)
		return false;
	m = kmask(hi, lo);
	return (known_mask(d, off) & m) == m;
}

void fwsim_inject(struct fwsim *fw, u16 opcode, u8 status, u32 syndrome,
		  u32 count)
{
	fw->inj_opcode = opcode;
	fw->inj_status = status;
	fw->inj_syndrome = syndrome;
	fw->inj_count = count;
}

const char *fwsim_phase_str(enum fwsim_phase ph)
{
	static const char *const names[FWSIM_NR_PHASES] = {
		[FWSIM_PH_DISABLED] = "disabled",
		[FWSIM_PH_ENABLED] = "enabled",
		[FWSIM_PH_ISSI_SET] = "issi-set",
		[FWSIM_PH_CAPS_SET] = "caps-set",
		[FWSIM_PH_INITIALIZED] = "initialized",
		[FWSIM_PH_TORN_DOWN] = "torn-down",
	};

	return (unsigned int)ph < FWSIM_NR_PHASES ? names[ph] : "?";
}

int fwsim_hca_dispatch(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	const struct fwsim_cmd_desc *d = desc_find(cmd->opcode);
	u32 off, fixed;

	cmd->status = ST_OK;
	cmd->syndrome = 0;
	if (!d) {
		fail(fw, cmd, ST_BAD_OP, FWSIM_E_BAD_OPCODE);
		return -1;
	}
	if (cmd->in_len < d->min_in) {
		fail(fw, cmd, ST_BAD_INP_LEN, FWSIM_E_IN_LEN);
		return -1;
	}
	if (cmd->out_len < d->min_out) {
		fail(fw, cmd, ST_BAD_OUTP_LEN, FWSIM_E_OUT_LEN);
		return -1;
	}
	if (!(d->phases & (1u << fw->phase))) {
		fail(fw, cmd, ST_BAD_SYS_STATE, FWSIM_E_PHASE);
		return -1;
	}
	/* every bit of the input the command does not know must be zero */
	fixed = cmd->in_len & ~3u;
	for (off = 0; off < fixed; off += 4) {
		if (fwsim_rd(fw->in, off, 31, 0) & ~known_mask(d, off)) {
			fail(fw, cmd, ST_BAD_PARAM, FWSIM_E_RESERVED);
			return -1;
		}
	}
	if (fw->inj_count && fw->inj_opcode == cmd->opcode) {
		fw->inj_count--;
		cmd->status = fw->inj_status;
		cmd->syndrome = fw->inj_syndrome;
		fwsim_record(fw, FWSIM_E_INJECTED);
		return -1;
	}
	d->handler(fw, cmd);
	return cmd->status ? -1 : 0;
}
