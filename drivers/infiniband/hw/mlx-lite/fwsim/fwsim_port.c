// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: the RoCE side of port 1.  The RoCE address (GID) table set and
 * read by SET_ROCE_ADDRESS / QUERY_ROCE_ADDRESS, and the function's own NIC
 * vport context (roce_en, local loopback, MTU, permanent MAC) read and
 * changed by QUERY_NIC_VPORT_CONTEXT / MODIFY_NIC_VPORT_CONTEXT.  Both are
 * reset at power-on and by DISABLE_HCA.  Pure: builds on the host.
 *
 * Rules:
 * - the GID index is below the RoCE capability roce_address_table_size
 *   (and the model's table): else status 0x0a, FWSIM_E_INDEX;
 *   vhca_port_num is 0 unless num_vhca_ports is nonzero, then 1;
 * - an all-zero address clears the entry; any other address has a nonzero
 *   GID, a nonzero unicast source MAC, roce_version 0 (v1) or 2 (v2) that
 *   the RoCE capability advertises, roce_l3_type 0 (IPv4) or 1 (IPv6), an
 *   IPv4-mapped GID when IPv4, and a VLAN id below 4095 only when
 *   vlan_valid;
 * - the vport is the function's own (other_vport and vport_number 0);
 *   MODIFY changes only the fields its field_select names, and a field not
 *   selected must be zero; roce_en needs the roce capability and cannot be
 *   cleared while QPs exist (FWSIM_E_BUSY); the MTU is 68..FWSIM_MAX_MTU.
 */
#include <linux/types.h>
#include "fwsim.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define K(...)		FWSIM_K_(__VA_ARGS__)
#define KB(o, n)	FWSIM_KB(o, n)
#define fail		fwsim_fail
#define IN(...)		fwsim_rd(fw->in, __VA_ARGS__)

#define FWSIM_MAX_MTU	10240
#define DEFAULT_MTU	1500

/* SET_ROCE_ADDRESS in / QUERY_ROCE_ADDRESS in and out */
#define RA_INDEX	0x08, 31, 16
#define RA_PORT		0x08, 3, 0
#define RA_OFF		0x10		/* roce_addr_layout, 32 bytes */
#define RL_GID		0x00		/* within roce_addr_layout, 16 bytes */
#define RA_VLAN_VALID	0x20, 28, 28
#define RA_VLAN_ID	0x20, 27, 16
#define RA_MAC_HI	0x20, 15, 0
#define RA_MAC_LO	0x24, 31, 0
#define RA_L3_TYPE	0x28, 11, 8
#define RA_VERSION	0x28, 7, 0

/* QUERY / MODIFY_NIC_VPORT_CONTEXT */
#define NV_OTHER	0x08, 31, 31
#define NV_VPORT	0x08, 15, 0
#define NV_SELECT	0x0c, 31, 0
#define NVQ_OFF		0x10		/* context in QUERY out */
#define NVM_OFF		0x100		/* context in MODIFY in */
/* positions within nic_vport_context */
#define NC_DIS_MC_LB	0x00, 2, 2
#define NC_DIS_UC_LB	0x00, 1, 1
#define NC_ROCE_EN	0x00, 0, 0
#define NC_MTU		0x24, 15, 0
#define NC_MAC_HI	0xf4, 15, 0
#define NC_MAC_LO	0xf8, 31, 0
/* the same, in MODIFY's input */
#define NM_DIS_MC_LB	0x100, 2, 2
#define NM_DIS_UC_LB	0x100, 1, 1
#define NM_ROCE_EN	0x100, 0, 0
#define NM_MTU		0x124, 15, 0
#define NM_MAC_HI	0x1f4, 15, 0
#define NM_MAC_LO	0x1f8, 31, 0

enum {
	SEL_ROCE_EN = 1u << 1,
	SEL_PERM_ADDR = 1u << 3,
	SEL_MTU = 1u << 6,
	SEL_DIS_MC_LB = 1u << 10,
	SEL_DIS_UC_LB = 1u << 11,
};

/* capabilities */
#define CAP_ROCE		0, 0x40, 2, 2
#define CAP_NUM_VHCA_PORTS	0, 0xc0, 15, 8
#define CAP_ROCE_VERSION	2, 0x10, 7, 0
#define CAP_ADDR_TABLE		2, 0x1c, 15, 0

void fwsim_port_reset(struct fwsim *fw)
{
	static const u8 mac[6] = { 0x0c, 0x42, 0xa1, 0x00, 0x00, 0x00 };

	fwsim_bzero(fw->gids, sizeof(fw->gids));
	fw->roce_en = false;
	fw->disable_uc_lb = false;
	fw->disable_mc_lb = false;
	fw->mtu = DEFAULT_MTU;
	fwsim_bcopy(fw->perm_mac, mac, 6);
	fw->perm_mac[5] = (u8)(0x10 + fw->profile);
}

static u32 gid_table_len(const struct fwsim *fw)
{
	u32 n = fwsim_cap(fw, CAP_ADDR_TABLE);

	return n < FWSIM_MAX_GIDS ? n : FWSIM_MAX_GIDS;
}

bool fwsim_gid_valid(const struct fwsim *fw, u32 index)
{
	return index < gid_table_len(fw) && fw->gids[index].valid;
}

static bool all_zero(const u8 *p, u32 len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/* index and port of SET/QUERY_ROCE_ADDRESS */
static bool ra_target(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 port = IN(RA_PORT);

	if (fwsim_cap(fw, CAP_NUM_VHCA_PORTS) ? port != 1 : port != 0) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return false;
	}
	if (IN(RA_INDEX) >= gid_table_len(fw)) {
		fail(fw, cmd, FWSIM_ST_BAD_INDEX, FWSIM_E_INDEX);
		return false;
	}
	return true;
}

static bool roce_addr_ok(const struct fwsim *fw, const u8 *in)
{
	static const u8 v4_prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	};
	u32 ver = fwsim_rd(in, RA_VERSION), l3 = fwsim_rd(in, RA_L3_TYPE);
	u32 mac_hi = fwsim_rd(in, RA_MAC_HI), mac_lo = fwsim_rd(in, RA_MAC_LO);
	u32 i;

	if ((ver != 0 && ver != 2) ||
	    !(fwsim_cap(fw, CAP_ROCE_VERSION) & (1u << ver)) || l3 > 1)
		return false;
	if (all_zero(in + RA_OFF + RL_GID, 16) || (!mac_hi && !mac_lo) ||
	    (mac_hi & 0x0100))	/* group bit of the first byte */
		return false;
	if (l3 == 0)
		for (i = 0; i < 12; i++)
			if (in[RA_OFF + RL_GID + i] != v4_prefix[i])
				return false;
	if (fwsim_rd(in, RA_VLAN_VALID) ? fwsim_rd(in, RA_VLAN_ID) >= 4095 :
	    fwsim_rd(in, RA_VLAN_ID) != 0)
		return false;
	return true;
}

static void h_set_roce_address(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	struct fwsim_roce_addr *ra;

	if (!ra_target(fw, cmd))
		return;
	ra = &fw->gids[IN(RA_INDEX)];
	if (all_zero(fw->in + RA_OFF, FWSIM_ROCE_ADDR_LEN)) {
		fwsim_bzero(ra, sizeof(*ra));
		return;
	}
	if (!roce_addr_ok(fw, fw->in)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	ra->valid = true;
	fwsim_bcopy(ra->raw, fw->in + RA_OFF, FWSIM_ROCE_ADDR_LEN);
}

static void h_query_roce_address(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	if (!ra_target(fw, cmd))
		return;
	/* a cleared entry reads as all zero */
	fwsim_bcopy(fw->out + RA_OFF, fw->gids[IN(RA_INDEX)].raw,
		    FWSIM_ROCE_ADDR_LEN);
}

static bool own_vport(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	if (IN(NV_OTHER) || IN(NV_VPORT)) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return false;
	}
	return true;
}

static void h_query_nic_vport(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u8 *c = fw->out + NVQ_OFF;

	if (!own_vport(fw, cmd))
		return;
	fwsim_wr(c, NC_ROCE_EN, fw->roce_en);
	fwsim_wr(c, NC_DIS_UC_LB, fw->disable_uc_lb);
	fwsim_wr(c, NC_DIS_MC_LB, fw->disable_mc_lb);
	fwsim_wr(c, NC_MTU, fw->mtu);
	fwsim_wr(c, NC_MAC_HI, (u32)fw->perm_mac[0] << 8 | fw->perm_mac[1]);
	fwsim_wr(c, NC_MAC_LO, (u32)fw->perm_mac[2] << 24 |
		 (u32)fw->perm_mac[3] << 16 | (u32)fw->perm_mac[4] << 8 |
		 fw->perm_mac[5]);
}

static void h_modify_nic_vport(struct fwsim *fw, struct fwsim_cmd *cmd)
{
	u32 sel = IN(NV_SELECT);
	u32 all = SEL_ROCE_EN | SEL_PERM_ADDR | SEL_MTU | SEL_DIS_MC_LB |
		  SEL_DIS_UC_LB;
	u32 mtu = IN(NM_MTU), mac_hi = IN(NM_MAC_HI), mac_lo = IN(NM_MAC_LO);
	bool roce = IN(NM_ROCE_EN);

	if (!own_vport(fw, cmd))
		return;
	if (!sel || (sel & ~all) ||
	    (!(sel & SEL_ROCE_EN) && roce) ||
	    (!(sel & SEL_DIS_UC_LB) && IN(NM_DIS_UC_LB)) ||
	    (!(sel & SEL_DIS_MC_LB) && IN(NM_DIS_MC_LB)) ||
	    (!(sel & SEL_MTU) && mtu) ||
	    (!(sel & SEL_PERM_ADDR) && (mac_hi || mac_lo)) ||
	    ((sel & SEL_ROCE_EN) && roce && !fwsim_cap(fw, CAP_ROCE)) ||
	    ((sel & SEL_MTU) && (mtu < 68 || mtu > FWSIM_MAX_MTU)) ||
	    ((sel & SEL_PERM_ADDR) && ((!mac_hi && !mac_lo) ||
				       (mac_hi & 0x0100)))) {
		fail(fw, cmd, FWSIM_ST_BAD_PARAM, FWSIM_E_PARAM);
		return;
	}
	if ((sel & SEL_ROCE_EN) && !roce && fw->nr_qps) {
		fail(fw, cmd, FWSIM_ST_BAD_RES_STATE, FWSIM_E_BUSY);
		return;
	}
	if (sel & SEL_ROCE_EN)
		fw->roce_en = roce;
	if (sel & SEL_DIS_UC_LB)
		fw->disable_uc_lb = IN(NM_DIS_UC_LB);
	if (sel & SEL_DIS_MC_LB)
		fw->disable_mc_lb = IN(NM_DIS_MC_LB);
	if (sel & SEL_MTU)
		fw->mtu = mtu;
	if (sel & SEL_PERM_ADDR) {
		fw->perm_mac[0] = (u8)(mac_hi >> 8);
		fw->perm_mac[1] = (u8)mac_hi;
		fw->perm_mac[2] = (u8)(mac_lo >> 24);
		fw->perm_mac[3] = (u8)(mac_lo >> 16);
		fw->perm_mac[4] = (u8)(mac_lo >> 8);
		fw->perm_mac[5] = (u8)mac_lo;
	}
}

/* ---- known input fields, besides the header */
static const struct fwsim_kfld k_ra_target[] = { K(RA_INDEX), K(RA_PORT) };
static const struct fwsim_kfld k_set_ra[] = {
	K(RA_INDEX), K(RA_PORT), KB(RA_OFF + RL_GID, 16), K(RA_VLAN_VALID),
	K(RA_VLAN_ID), K(RA_MAC_HI), K(RA_MAC_LO), K(RA_L3_TYPE),
	K(RA_VERSION),
};
static const struct fwsim_kfld k_query_nv[] = { K(NV_OTHER), K(NV_VPORT) };
static const struct fwsim_kfld k_modify_nv[] = {
	K(NV_OTHER), K(NV_VPORT), K(NV_SELECT), K(NM_DIS_MC_LB),
	K(NM_DIS_UC_LB), K(NM_ROCE_EN), K(NM_MTU), K(NM_MAC_HI), K(NM_MAC_LO),
};

#define KN(a)	FWSIM_KN(a)
#define D(...)	FWSIM_D(__VA_ARGS__)
#define INIT	FWSIM_PH(INITIALIZED)

const struct fwsim_cmd_desc fwsim_port_cmds[] = {
	D(0x754, 0x10, 0x110, INIT, KN(k_query_nv), h_query_nic_vport),
	D(0x755, 0x200, 0x10, INIT, KN(k_modify_nv), h_modify_nic_vport),
	D(0x760, 0x10, 0x30, INIT, KN(k_ra_target), h_query_roce_address),
	D(0x761, 0x30, 0x10, INIT, KN(k_set_ra), h_set_roce_address),
};

const u32 fwsim_nr_port_cmds = N_ELEMS(fwsim_port_cmds);
