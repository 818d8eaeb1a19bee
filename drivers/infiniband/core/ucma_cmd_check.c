// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Checks of the rdma_ucm write() ABI, see ucma_cmd_check.h.
 *
 * Pure logic: only type-level headers, so the file also builds as C++ on
 * the host (tools/testing/unit).
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>

#include "ucma_cmd_check.h"

/* ---- the command table ---- */

/* One slot: payload size and minimum, response size and minimum space. */
#define UCMA_DEF(c, in, in_lo, out, out_lo, resp, data, fl)		\
	[RDMA_USER_CM_CMD_##c] = {					\
		.name = #c,						\
		.in_len = (in),						\
		.in_min = (in_lo),					\
		.out_len = (out),					\
		.out_min = (out_lo),					\
		.resp_ptr = (resp),					\
		.data_ptr = (data),					\
		.flags = (fl),						\
	}

/* A command with no response: the payload is its whole structure. */
#define UCMA_IN(c, req)							\
	UCMA_DEF(c, sizeof(struct req), sizeof(struct req), 0, 0,	\
		 UCMA_NO_PTR, UCMA_NO_PTR, 0)

/*
 * A command writing @resp to its response pointer; at least @min bytes of
 * response space, min(hdr.out, sizeof(@resp)) written.
 */
#define UCMA_IN_OUT(c, req, resp, min)					\
	UCMA_DEF(c, sizeof(struct req), sizeof(struct req),		\
		 sizeof(struct resp), (min),				\
		 offsetof(struct req, response), UCMA_NO_PTR, 0)

/* A fixed-size response: all of it. */
#define UCMA_IN_OUT_ALL(c, req, resp)					\
	UCMA_IN_OUT(c, req, resp, sizeof(struct resp))

/* CONNECT and ACCEPT: the trailing ece is optional. */
#define UCMA_IN_ECE(c, req)						\
	UCMA_DEF(c, sizeof(struct req), offsetof(struct req, ece), 0, 0, \
		 UCMA_NO_PTR, UCMA_NO_PTR, UCMA_CMD_ECE)

/*
 * BIND_IP carries a response field but writes nothing.  QUERY_ROUTE and
 * QUERY share struct rdma_ucm_query; QUERY's response depends on the
 * option.  LEAVE_MCAST has DESTROY_ID's layout, naming a multicast ID.
 * The variable responses (QUERY_ROUTE, GET_EVENT) need their fields up to
 * the ones added last (ibdev_index; reserved and ece).
 */
static const struct ucma_cmd_def ucma_cmds[UCMA_CMD_COUNT] = {
	UCMA_IN_OUT_ALL(CREATE_ID, rdma_ucm_create_id, rdma_ucm_create_id_resp),
	UCMA_IN_OUT_ALL(DESTROY_ID, rdma_ucm_destroy_id,
			rdma_ucm_destroy_id_resp),
	UCMA_IN(BIND_IP, rdma_ucm_bind_ip),
	UCMA_IN(RESOLVE_IP, rdma_ucm_resolve_ip),
	UCMA_IN(RESOLVE_ROUTE, rdma_ucm_resolve_route),
	UCMA_IN_OUT(QUERY_ROUTE, rdma_ucm_query, rdma_ucm_query_route_resp,
		    offsetof(struct rdma_ucm_query_route_resp, ibdev_index)),
	UCMA_IN_ECE(CONNECT, rdma_ucm_connect),
	UCMA_IN(LISTEN, rdma_ucm_listen),
	UCMA_IN_ECE(ACCEPT, rdma_ucm_accept),
	UCMA_IN(REJECT, rdma_ucm_reject),
	UCMA_IN(DISCONNECT, rdma_ucm_disconnect),
	UCMA_IN_OUT_ALL(INIT_QP_ATTR, rdma_ucm_init_qp_attr, ib_uverbs_qp_attr),
	UCMA_IN_OUT(GET_EVENT, rdma_ucm_get_event, rdma_ucm_event_resp,
		    offsetof(struct rdma_ucm_event_resp, reserved)),
	UCMA_DEF(GET_OPTION, 0, 0, 0, 0, UCMA_NO_PTR, UCMA_NO_PTR,
		 UCMA_CMD_UNIMPL),
	UCMA_DEF(SET_OPTION, sizeof(struct rdma_ucm_set_option),
		 sizeof(struct rdma_ucm_set_option), 0, 0, UCMA_NO_PTR,
		 offsetof(struct rdma_ucm_set_option, optval), 0),
	UCMA_IN(NOTIFY, rdma_ucm_notify),
	UCMA_IN_OUT_ALL(JOIN_IP_MCAST, rdma_ucm_join_ip_mcast,
			rdma_ucm_create_id_resp),
	UCMA_IN_OUT_ALL(LEAVE_MCAST, rdma_ucm_destroy_id,
			rdma_ucm_destroy_id_resp),
	UCMA_IN_OUT_ALL(MIGRATE_ID, rdma_ucm_migrate_id, rdma_ucm_migrate_resp),
	UCMA_DEF(QUERY, sizeof(struct rdma_ucm_query),
		 sizeof(struct rdma_ucm_query), 0, 0,
		 offsetof(struct rdma_ucm_query, response), UCMA_NO_PTR,
		 UCMA_CMD_RESP_BY_OPT),
	UCMA_IN(BIND, rdma_ucm_bind),
	UCMA_IN(RESOLVE_ADDR, rdma_ucm_resolve_addr),
	UCMA_IN_OUT_ALL(JOIN_MCAST, rdma_ucm_join_mcast,
			rdma_ucm_create_id_resp),
};

/*
 * @cmd if it is below UCMA_CMD_COUNT, else 0, computed without a branch:
 * the table is indexed with this even when the bounds check before it was
 * mispredicted.
 */
static u32 ucma_cmd_index(u32 cmd)
{
	u32 last = (u32)UCMA_CMD_COUNT - 1;
	u32 mask = ((cmd | (last - cmd)) >> 31) - 1;

	return cmd & mask;
}

const struct ucma_cmd_def *ucma_cmd_lookup(u32 cmd)
{
	if (cmd >= UCMA_CMD_COUNT)
		return NULL;
	return &ucma_cmds[ucma_cmd_index(cmd)];
}
EXPORT_SYMBOL(ucma_cmd_lookup);

/* Byte copy: the source may sit at any alignment. */
static void ucma_read(void *dst, const void *src, u32 len)
{
	const u8 *s = (const u8 *)src;
	u8 *d = (u8 *)dst;
	u32 i;

	for (i = 0; i < len; i++)
		d[i] = s[i];
}

static u32 ucma_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

int ucma_cmd_check(const void *buf, size_t len, struct ucma_cmd_layout *out)
{
	const struct ucma_cmd_def *def;
	struct rdma_ucm_cmd_hdr hdr;

	if (len < UCMA_HDR_LEN)
		return -EINVAL;
	ucma_read(&hdr, buf, sizeof(hdr));
	def = ucma_cmd_lookup(hdr.cmd);
	if (!def)
		return -EINVAL;
	if ((size_t)hdr.in + UCMA_HDR_LEN > len)
		return -EINVAL;
	if (def->flags & UCMA_CMD_UNIMPL)
		return -ENOSYS;
	if (hdr.in < def->in_min)
		return -EINVAL;
	if (hdr.out < def->out_min)
		return -ENOSPC;

	out->def = def;
	out->cmd = (u32)(def - ucma_cmds);
	out->in_off = UCMA_HDR_LEN;
	out->in_copy = ucma_min(hdr.in, def->in_len);
	out->in_len = def->in_len;
	out->out_space = hdr.out;
	out->out_len = def->out_len ? ucma_min(hdr.out, def->out_len) : 0;
	out->resp_ptr = def->resp_ptr;
	out->ece = (def->flags & UCMA_CMD_ECE) && hdr.in >= def->in_len;
	return 0;
}
EXPORT_SYMBOL(ucma_cmd_check);

int ucma_cmd_response(const void *payload, const struct ucma_cmd_layout *l,
		      u64 *addr)
{
	*addr = 0;
	if (l->resp_ptr == UCMA_NO_PTR)
		return 0;
	ucma_read(addr, (const u8 *)payload + l->resp_ptr, sizeof(*addr));
	return *addr ? 0 : -EFAULT;
}
EXPORT_SYMBOL(ucma_cmd_response);

/* ---- QUERY ---- */

int ucma_query_check(u32 option, struct ucma_cmd_layout *l)
{
	u32 space = l->out_space;
	u32 head = sizeof(struct rdma_ucm_query_path_resp);
	u32 rec = sizeof(struct ib_path_rec_data);
	u32 n;

	if (!(l->def->flags & UCMA_CMD_RESP_BY_OPT))
		return -EINVAL;
	switch (option) {
	case RDMA_USER_CM_QUERY_ADDR:
	case RDMA_USER_CM_QUERY_GID:
		if (space < offsetof(struct rdma_ucm_query_addr_resp,
				     ibdev_index))
			return -ENOSPC;
		l->out_len = ucma_min(space,
				      sizeof(struct rdma_ucm_query_addr_resp));
		return 0;
	case RDMA_USER_CM_QUERY_PATH:
		if (space < head)
			return -ENOSPC;
		n = ucma_min((space - head) / rec, UCMA_QUERY_PATH_MAX);
		l->out_len = head + n * rec;
		return 0;
	default:
		return -ENOSYS;
	}
}
EXPORT_SYMBOL(ucma_query_check);

/* ---- CREATE_ID ---- */

/* The QP type of a port space's IDs; UCMA_QPT_CHOSEN: the caller's. */
#define UCMA_QPT_CHOSEN		0xff

static const struct {
	u16 ps;
	u8 qp_type;
} ucma_port_spaces[] = {
	{ RDMA_PS_TCP, IB_QPT_RC },
	{ RDMA_PS_UDP, IB_QPT_UD },
	{ RDMA_PS_IPOIB, IB_QPT_UD },
	{ RDMA_PS_IB, UCMA_QPT_CHOSEN },
};

/* What the IB port space lets the caller choose: RC and UD. */
static int ucma_chosen_qp_type(u8 qp_type)
{
	if (qp_type == IB_QPT_RC || qp_type == IB_QPT_UD)
		return 0;
	if (qp_type == IB_QPT_UC || qp_type == IB_QPT_XRC_INI ||
	    qp_type == IB_QPT_XRC_TGT)
		return -EOPNOTSUPP;
	return -EINVAL;
}

int ucma_check_create_id(const struct rdma_ucm_create_id *cmd, u8 *qp_type)
{
	u32 i;
	int ret;

	for (i = 0; i < sizeof(ucma_port_spaces) /
			sizeof(ucma_port_spaces[0]); i++) {
		if (ucma_port_spaces[i].ps != cmd->ps)
			continue;
		if (ucma_port_spaces[i].qp_type != UCMA_QPT_CHOSEN) {
			*qp_type = ucma_port_spaces[i].qp_type;
			return 0;
		}
		ret = ucma_chosen_qp_type(cmd->qp_type);
		if (!ret)
			*qp_type = cmd->qp_type;
		return ret;
	}
	return -EINVAL;
}
EXPORT_SYMBOL(ucma_check_create_id);

/* ---- addresses ---- */

u32 ucma_addr_len(u32 family)
{
	switch (family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return UCMA_SOCKADDR_IB_LEN;
	default:
		return 0;
	}
}
EXPORT_SYMBOL(ucma_addr_len);

int ucma_check_kss(const struct __kernel_sockaddr_storage *addr, u32 size,
		   bool optional)
{
	u32 want;

	if (!size)
		return optional ? 0 : -EINVAL;
	want = ucma_addr_len(addr->ss_family);
	if (!want || want != size || want > sizeof(*addr))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL(ucma_check_kss);

int ucma_check_in6(const struct sockaddr_in6 *addr, bool optional, u32 *size)
{
	u32 want;

	*size = 0;
	if (!addr->sin6_family)
		return optional ? 0 : -EINVAL;
	want = ucma_addr_len(addr->sin6_family);
	/* AF_IB's sockaddr is longer than the field */
	if (!want || want > sizeof(*addr))
		return -EINVAL;
	*size = want;
	return 0;
}
EXPORT_SYMBOL(ucma_check_in6);

int ucma_check_bind(const struct rdma_ucm_bind *cmd)
{
	if (cmd->reserved)
		return -EINVAL;
	return ucma_check_kss(&cmd->addr, cmd->addr_size, false);
}
EXPORT_SYMBOL(ucma_check_bind);

int ucma_check_bind_ip(const struct rdma_ucm_bind_ip *cmd)
{
	u32 size;

	return ucma_check_in6(&cmd->addr, false, &size);
}
EXPORT_SYMBOL(ucma_check_bind_ip);

int ucma_check_resolve_ip(const struct rdma_ucm_resolve_ip *cmd)
{
	u32 size;
	int ret;

	ret = ucma_check_in6(&cmd->src_addr, true, &size);
	if (ret)
		return ret;
	return ucma_check_in6(&cmd->dst_addr, false, &size);
}
EXPORT_SYMBOL(ucma_check_resolve_ip);

int ucma_check_resolve_addr(const struct rdma_ucm_resolve_addr *cmd)
{
	int ret;

	if (cmd->reserved)
		return -EINVAL;
	ret = ucma_check_kss(&cmd->src_addr, cmd->src_size, true);
	if (ret)
		return ret;
	return ucma_check_kss(&cmd->dst_addr, cmd->dst_size, false);
}
EXPORT_SYMBOL(ucma_check_resolve_addr);

int ucma_check_join_mcast(const struct rdma_ucm_join_mcast *cmd)
{
	if (cmd->join_flags != RDMA_MC_JOIN_FLAG_FULLMEMBER &&
	    cmd->join_flags != RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER)
		return -EINVAL;
	return ucma_check_kss(&cmd->addr, cmd->addr_size, false);
}
EXPORT_SYMBOL(ucma_check_join_mcast);

int ucma_check_join_ip_mcast(const struct rdma_ucm_join_ip_mcast *cmd,
			     u32 *size)
{
	return ucma_check_in6(&cmd->addr, false, size);
}
EXPORT_SYMBOL(ucma_check_join_ip_mcast);

/* ---- private data, CONNECT, ACCEPT, REJECT ---- */

int ucma_check_private_data(u32 len, u32 cm_max)
{
	if (len > RDMA_MAX_PRIVATE_DATA || len > cm_max)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL(ucma_check_private_data);

u32 ucma_private_data_max(u32 cmd, u8 qp_type, u32 family)
{
	bool ud = qp_type == IB_QPT_UD;
	u32 hdr = family == AF_IB ? 0 : CMA_WIRE_HDR_LEN;

	switch (cmd) {
	case RDMA_USER_CM_CMD_CONNECT:
		return (ud ? IB_CM_WIRE_SIDR_REQ_PRIV_LEN :
			     IB_CM_WIRE_REQ_PRIV_LEN) - hdr;
	case RDMA_USER_CM_CMD_ACCEPT:
		return ud ? IB_CM_WIRE_SIDR_REP_PRIV_LEN :
			    IB_CM_WIRE_REP_PRIV_LEN;
	case RDMA_USER_CM_CMD_REJECT:
		/* a UD ID rejects with a SIDR_REP */
		return ud ? IB_CM_WIRE_SIDR_REP_PRIV_LEN :
			    IB_CM_WIRE_REJ_PRIV_LEN;
	default:
		return 0;
	}
}
EXPORT_SYMBOL(ucma_private_data_max);

int ucma_check_conn_param(const struct rdma_ucm_conn_param *p, bool connect,
			  u32 cm_max)
{
	if (!p->valid)
		return connect ? -EINVAL : 0;
	return ucma_check_private_data(p->private_data_len, cm_max);
}
EXPORT_SYMBOL(ucma_check_conn_param);

int ucma_check_reject(const struct rdma_ucm_reject *cmd, u32 cm_max,
		      u8 *reason)
{
	u8 r = cmd->reason ? cmd->reason : (u8)IB_CM_WIRE_REJ_CONSUMER;

	if (r != IB_CM_WIRE_REJ_CONSUMER && r != IB_CM_WIRE_REJ_VENDOR_OPTION)
		return -EINVAL;
	if (ucma_check_private_data(cmd->private_data_len, cm_max))
		return -EINVAL;
	*reason = r;
	return 0;
}
EXPORT_SYMBOL(ucma_check_reject);

/* ---- INIT_QP_ATTR, LISTEN ---- */

int ucma_check_init_qp_attr(const struct rdma_ucm_init_qp_attr *cmd)
{
	return cmd->qp_state > IB_QPS_ERR ? -EINVAL : 0;
}
EXPORT_SYMBOL(ucma_check_init_qp_attr);

u32 ucma_listen_backlog(s32 backlog, u32 max)
{
	if (backlog <= 0 || (u32)backlog > max)
		return max;
	return (u32)backlog;
}
EXPORT_SYMBOL(ucma_listen_backlog);

/* ---- SET_OPTION ---- */

/* One option: its lengths, and the unit a length must be a multiple of. */
struct ucma_opt_def {
	u32 level;
	u32 optname;
	u32 min_len;
	u32 max_len;
	u32 unit;
};

static const struct ucma_opt_def ucma_opts[] = {
	{ RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, sizeof(u8), sizeof(u8), 1 },
	{ RDMA_OPTION_ID, RDMA_OPTION_ID_REUSEADDR, sizeof(int), sizeof(int),
	  1 },
	{ RDMA_OPTION_ID, RDMA_OPTION_ID_AFONLY, sizeof(int), sizeof(int), 1 },
	{ RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, sizeof(u8), sizeof(u8),
	  1 },
	{ RDMA_OPTION_IB, RDMA_OPTION_IB_PATH, sizeof(struct ib_path_rec_data),
	  UCMA_IB_PATH_MAX * sizeof(struct ib_path_rec_data),
	  sizeof(struct ib_path_rec_data) },
};

int ucma_check_set_option(u32 level, u32 optname, u32 optlen)
{
	const struct ucma_opt_def *o;
	u32 i;

	for (i = 0; i < sizeof(ucma_opts) / sizeof(ucma_opts[0]); i++) {
		o = &ucma_opts[i];
		if (o->level != level || o->optname != optname)
			continue;
		if (optlen < o->min_len || optlen > o->max_len ||
		    optlen % o->unit)
			return -EINVAL;
		return 0;
	}
	return -ENOSYS;
}
EXPORT_SYMBOL(ucma_check_set_option);

#define UCMA_PATH_WANTED \
	((u32)(IB_PATH_GMP | IB_PATH_PRIMARY | IB_PATH_BIDIRECTIONAL))

int ucma_find_ib_path(const struct ib_path_rec_data *recs, u32 optlen,
		      u32 *index)
{
	u32 i, n = optlen / sizeof(*recs);

	for (i = 0; i < n; i++) {
		if (recs[i].flags == UCMA_PATH_WANTED) {
			*index = i;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL(ucma_find_ib_path);
