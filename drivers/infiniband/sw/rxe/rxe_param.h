/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Soft-RoCE (rxe) device parameters and the pure helpers that derive port
 * values from the bound netdev.  Type-level includes only: this header and
 * rxe_param.c also build as C++ on the host (tools/testing/unit).
 *
 * The attribute values are those of Linux 6.1's rxe (upstream's
 * drivers/infiniband/sw/rxe/rxe_param.h), so that ibv_devinfo prints the
 * same numbers.
 */
#ifndef _RXE_PARAM_H
#define _RXE_PARAM_H

#include <linux/types.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <rdma/ib_port_types.h>
#include <rdma/ib_placement.h>

/* ---- identity ---------------------------------------------------------- */
#define RXE_VENDOR_ID			0xFFFFFF
#define RXE_VENDOR_PART_ID		0
#define RXE_HW_VER			0
#define RXE_FW_VER			0ULL
#define RXE_NODE_DESC			"rxe"
#define RXE_UVERBS_ABI_VER		2	/* librxe accepts 1..2 */

/* ---- memory ------------------------------------------------------------- */
#define RXE_MAX_MR_SIZE			0xFFFFFFFFFFFFFFFFULL
#define RXE_PAGE_SIZE_CAP		0xFFFFF000ULL
#define RXE_MAX_MR			524287
#define RXE_MAX_MW			524287
#define RXE_MAX_PD			1048576
#define RXE_MAX_FAST_REG_PAGES		512

/* ---- queues ------------------------------------------------------------- */
#define RXE_MAX_QP			1048560
#define RXE_MAX_QP_WR			1048576
#define RXE_MAX_SGE			32
#define RXE_MAX_SGE_RD			32
#define RXE_MAX_CQ			1048576
#define RXE_MAX_CQE			32767
#define RXE_MAX_SRQ			917503
#define RXE_MAX_SRQ_WR			1048576
#define RXE_MAX_SRQ_SGE			27
#define RXE_MAX_AH			32767

/* ---- RDMA read / atomics ------------------------------------------------ */
#define RXE_MAX_QP_RD_ATOM		128
#define RXE_MAX_QP_INIT_RD_ATOM		128
#define RXE_MAX_RES_RD_ATOM		258048
#define RXE_ATOMIC_CAP			1	/* IB_ATOMIC_HCA */

/* ---- multicast, partitions, timing -------------------------------------- */
#define RXE_MAX_MCAST_GRP		8192
#define RXE_MAX_MCAST_QP_ATTACH		56
#define RXE_MAX_TOT_MCAST_QP_ATTACH	458752
#define RXE_MAX_PKEYS			64
#define RXE_LOCAL_CA_ACK_DELAY		15

/*
 * Object number ranges (rxe_pool.c).  Keys of MRs and MWs are
 * (index << 8) | key byte; MRs and MWs share the key space, MRs below.
 */
#define RXE_MAX_INDEX			0x100000
#define RXE_MIN_MR_INDEX		1
#define RXE_MAX_MR_INDEX		(RXE_MAX_INDEX >> 1)
#define RXE_MIN_MW_INDEX		(RXE_MAX_MR_INDEX + 1)
#define RXE_MAX_MW_INDEX		RXE_MAX_INDEX
#define RXE_GSI_QPN			1
#define RXE_MIN_QP_INDEX		17
#define RXE_MAX_QP_INDEX		RXE_MAX_INDEX
#define RXE_MIN_SRQ_INDEX		0x20001
#define RXE_MAX_SRQ_INDEX		RXE_MAX_INDEX
#define RXE_MIN_AH_INDEX		1
#define RXE_MAX_AH_INDEX		RXE_MAX_AH
/* limits on what a QP may ask for (6.1) */
#define RXE_MAX_INLINE_DATA		512

/* ibv_query_device() device_cap_flags (uapi bit numbers). */
#define RXE_DEVICE_CAP_FLAGS					\
	((u64)IB_UVERBS_DEVICE_BAD_PKEY_CNTR |			\
	 (u64)IB_UVERBS_DEVICE_BAD_QKEY_CNTR |			\
	 (u64)IB_UVERBS_DEVICE_AUTO_PATH_MIG |			\
	 (u64)IB_UVERBS_DEVICE_CHANGE_PHY_PORT |		\
	 (u64)IB_UVERBS_DEVICE_UD_AV_PORT_ENFORCE |		\
	 (u64)IB_UVERBS_DEVICE_PORT_ACTIVE_EVENT |		\
	 (u64)IB_UVERBS_DEVICE_SYS_IMAGE_GUID |			\
	 (u64)IB_UVERBS_DEVICE_RC_RNR_NAK_GEN |			\
	 (u64)IB_UVERBS_DEVICE_SRQ_RESIZE |			\
	 (u64)IB_UVERBS_DEVICE_MEM_MGT_EXTENSIONS |		\
	 (u64)IB_UVERBS_DEVICE_MEM_WINDOW |			\
	 (u64)IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2B |		\
	 RDMA_UVERBS_DEVICE_ATOMIC_WRITE |			\
	 RDMA_UVERBS_DEVICE_FLUSH_GLOBAL)

/* ---- the one port -------------------------------------------------------- */
#define RXE_PORT			1
#define RXE_GID_TBL_LEN			1024
#define RXE_PKEY_TBL_LEN		1
#define RXE_DEFAULT_PKEY		0xffff	/* full member of the default partition */
#define RXE_PORT_CAP_FLAGS		0x00010000	/* CM_SUP */
#define RXE_MAX_MSG_SZ			0x800000
#define RXE_MAX_VL_NUM			1
#define RXE_MAX_MAD_SIZE		256
/* IBTA width and speed codes that rxe reports (PortInfo encodings) */
#define RXE_WIDTH_1X			1
#define RXE_WIDTH_4X			2
#define RXE_SPEED_SDR			1	/* 2.5 Gb/s per lane */
#define RXE_SPEED_DDR			2	/* 5 Gb/s */
#define RXE_SPEED_FDR10			8	/* 10 Gb/s */
#define RXE_SPEED_EDR			32	/* 25 Gb/s */
/* a netdev whose speed is unknown counts as 1 Gb/s Ethernet */
#define RXE_DEFAULT_ETH_MBPS		1000

/*
 * Largest RoCEv2 header stack around an IB payload inside one Ethernet
 * frame (the Ethernet header itself is not part of the netdev MTU):
 * IPv6 (the larger of the two IP headers), UDP, BTH, the largest extended
 * transport header (AtomicETH), and the invariant CRC.
 */
#define RXE_IPV6_HDR_LEN		40
#define RXE_UDP_HDR_LEN			8
#define RXE_BTH_LEN			12
#define RXE_MAX_ETH_LEN			28
#define RXE_ICRC_LEN			4
#define RXE_ROCE_V2_OVERHEAD						\
	(RXE_IPV6_HDR_LEN + RXE_UDP_HDR_LEN + RXE_BTH_LEN +		\
	 RXE_MAX_ETH_LEN + RXE_ICRC_LEN)

#define RXE_MAC_LEN			6

/*
 * Largest path MTU code whose payload plus RXE_ROCE_V2_OVERHEAD fits in a
 * netdev MTU of @netdev_mtu bytes; IB_MTU_256 when even 256 does not
 * fit (the smallest code there is).
 */
enum ib_mtu rxe_path_mtu_from_netdev_mtu(unsigned int netdev_mtu);

/* Payload bytes of a path MTU code (256..4096); 0 for an invalid code. */
unsigned int rxe_path_mtu_bytes(int code);

/*
 * Modified EUI-64 of a 48-bit MAC: U/L bit flipped, ff:fe inserted in the
 * middle.  Returned as the number whose big-endian encoding is the EUI-64
 * (52:54:00:12:34:56 -> 0x505400fffe123456); cpu_to_be64() it for a GUID.
 * The bytes are those of rdma_gid_default_from_mac()'s interface id (it is
 * computed by it), so node GUID and default GID always agree.
 */
u64 rxe_mac_to_eui64(const u8 *mac);

/*
 * The IB width and speed codes that stand for an Ethernet link of @mbps
 * (Mb/s, as ethtool reports it), the way RoCE ports report them in Linux
 * 6.1 (10 Gb/s Ethernet: 1X FDR10, 100 Gb/s: 4X EDR).
 */
void rxe_eth_width_speed(u32 mbps, u8 *width, u16 *speed);

#endif /* _RXE_PARAM_H */
