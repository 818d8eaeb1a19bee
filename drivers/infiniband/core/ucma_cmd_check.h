/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Checks of the rdma_ucm write() ABI (version 4), as pure logic: the
 * command table (payload and response sizes, which payload fields are user
 * pointers), the header check every write() passes first, and validators
 * for what a command's payload may hold.  Type-level headers only, so
 * tools/testing/unit compiles and tests it on the host as C++.  The rules
 * are those of Documentation/core/rdma_ucm.rst ("write() framing and
 * command checks").
 *
 * Sizes come from the <uapi/rdma/rdma_user_cm.h> structures.  The glue
 * (ucma.c) copies the header, calls ucma_cmd_check(), copies
 * layout.in_copy payload bytes into a zeroed structure of layout.in_len
 * bytes and runs the command's validator before it looks up any ID.
 */
#ifndef _UCMA_CMD_CHECK_H
#define _UCMA_CMD_CHECK_H

#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/socket.h>
#include <uapi/linux/in.h>
#include <uapi/rdma/rdma_user_cm.h>
#include <rdma/ib_qp_state.h>
#include <rdma/cma_wire.h>

/* Every write() starts with struct rdma_ucm_cmd_hdr: cmd, in, out. */
#define UCMA_HDR_LEN		sizeof(struct rdma_ucm_cmd_hdr)
/* One table slot per RDMA_USER_CM_CMD_* number. */
#define UCMA_CMD_COUNT		(RDMA_USER_CM_CMD_JOIN_MCAST + 1)
/* No such field in this command's payload. */
#define UCMA_NO_PTR		0xff

/* struct ucma_cmd_def.flags */
#define UCMA_CMD_UNIMPL		(1u << 0) /* refused with -ENOSYS */
#define UCMA_CMD_ECE		(1u << 1) /* trailing rdma_ucm_ece optional */
#define UCMA_CMD_RESP_BY_OPT	(1u << 2) /* response: ucma_query_check() */

/*
 * One command.  The kernel reads @in_len bytes of payload (the uapi
 * structure); a shorter payload is refused unless it is at least @in_min
 * bytes (only the ECE commands have @in_min < @in_len).  A command with a
 * response writes at most @out_len bytes and needs at least @out_min bytes
 * of response space; @out_len 0 means no response.
 */
struct ucma_cmd_def {
	const char *name;
	u16 in_len;
	u16 in_min;
	u16 out_len;
	u16 out_min;
	u8 resp_ptr;	/* payload offset of the __u64 response pointer */
	u8 data_ptr;	/* payload offset of a pointer the kernel reads from */
	u8 flags;	/* UCMA_CMD_* */
};

/* The table entry of @cmd; NULL if @cmd is no command number. */
const struct ucma_cmd_def *ucma_cmd_lookup(u32 cmd);

/* Where the parts of a checked command are, for the glue. */
struct ucma_cmd_layout {
	const struct ucma_cmd_def *def;
	u32 cmd;	/* the command number, below UCMA_CMD_COUNT */
	u32 in_off;	/* payload offset in the write() buffer */
	u32 in_copy;	/* payload bytes to copy from there, at most hdr.in */
	u32 in_len;	/* the command structure; zero it past in_copy */
	u32 out_space;	/* hdr.out as written */
	u32 out_len;	/* response bytes to write; 0 if none */
	u8 resp_ptr;	/* response pointer offset, UCMA_NO_PTR */
	bool ece;	/* the payload carries the trailing ece */
};

/**
 * ucma_cmd_check() - check the header of an rdma_ucm write()
 * @buf: the start of the write() buffer, at least min(@len, UCMA_HDR_LEN)
 *	bytes of it; only the header is read
 * @len: the write() count
 * @out: filled on success
 *
 * The rules, in order:
 *  - @len below the header: -EINVAL;
 *  - a command number beyond the table: -EINVAL;
 *  - hdr.in + UCMA_HDR_LEN beyond @len (the header claims more payload
 *    than was written): -EINVAL;
 *  - an unimplemented command (GET_OPTION): -ENOSYS;
 *  - a payload shorter than the command's structure: -EINVAL.  The kernel
 *    copies the whole structure, and must not read past what was written;
 *    CONNECT and ACCEPT only need the structure up to the trailing ece,
 *    which is used if present;
 *  - response space shorter than the command's minimum: -ENOSPC.
 *
 * A payload longer than the structure, and bytes past the payload, are
 * ignored.  The response length is min(hdr.out, the full response): the
 * structure up to the last field the response space holds.
 *
 * Return: 0 or the negative errno the write() returns.
 */
int ucma_cmd_check(const void *buf, size_t len, struct ucma_cmd_layout *out);

/**
 * ucma_cmd_response() - the response pointer of a copied payload
 * @payload: the zero-padded command structure (@l->in_len bytes)
 * @l: its layout from ucma_cmd_check()
 * @addr: the user address to write @l->out_len bytes to
 *
 * Return: 0; -EFAULT if the command writes a response and its pointer is
 * 0 (nothing could be written, and the command must not run).  A command
 * without a response sets *@addr to 0.
 */
int ucma_cmd_response(const void *payload, const struct ucma_cmd_layout *l,
		      u64 *addr);

/* ---- per-command payload checks; each returns 0 or the errno ---- */

/* The most paths QUERY(PATH) reports: primary and alternate. */
#define UCMA_QUERY_PATH_MAX	2

/*
 * QUERY: the response of @option (RDMA_USER_CM_QUERY_*) into @l->out_len.
 * -ENOSYS for an unknown option, -ENOSPC for too little response space
 * (ADDR and GID need the response up to ibdev_index, PATH its 8-byte
 * header; PATH writes whole records only).
 */
int ucma_query_check(u32 option, struct ucma_cmd_layout *l);

/*
 * CREATE_ID: the port space and QP type.  TCP gives RC, UDP and IPOIB
 * give UD; IB takes @cmd->qp_type, RC or UD (-EOPNOTSUPP for UC and XRC,
 * -EINVAL otherwise).  -EINVAL for an unknown port space.  *@qp_type: the
 * ID's QP type (enum ib_qp_type).
 */
int ucma_check_create_id(const struct rdma_ucm_create_id *cmd, u8 *qp_type);

/*
 * Socket addresses.  AF_INET, AF_INET6 and AF_IB only; the length must
 * be that family's sockaddr.  AF_IB's struct sockaddr_ib lives in the
 * kernel's <rdma/ib.h>, not in uapi: the glue asserts its size is
 * UCMA_SOCKADDR_IB_LEN.
 */
#define UCMA_SOCKADDR_IB_LEN	48

/* The sockaddr length of @family; 0 for any other family. */
u32 ucma_addr_len(u32 family);

/*
 * A sockaddr_storage with its @size from the command: -EINVAL unless
 * @size is the family's length.  @optional: size 0 means no address.
 */
int ucma_check_kss(const struct __kernel_sockaddr_storage *addr, u32 size,
		   bool optional);

/*
 * A sockaddr_in6 field of a legacy command (AF_INET or AF_INET6; AF_IB
 * does not fit): -EINVAL otherwise.  @optional: family 0 means no
 * address.  *@size: the address length, 0 for no address.
 */
int ucma_check_in6(const struct sockaddr_in6 *addr, bool optional, u32 *size);

/* BIND: reserved zero, a required address. */
int ucma_check_bind(const struct rdma_ucm_bind *cmd);
/* BIND_IP: a required address. */
int ucma_check_bind_ip(const struct rdma_ucm_bind_ip *cmd);
/* RESOLVE_IP: an optional source, a required destination. */
int ucma_check_resolve_ip(const struct rdma_ucm_resolve_ip *cmd);
/* RESOLVE_ADDR: reserved zero, an optional source, a required destination. */
int ucma_check_resolve_addr(const struct rdma_ucm_resolve_addr *cmd);
/* JOIN_MCAST: a required address, join_flags full or send-only full. */
int ucma_check_join_mcast(const struct rdma_ucm_join_mcast *cmd);
/* JOIN_IP_MCAST: a required address; *@size its length. */
int ucma_check_join_ip_mcast(const struct rdma_ucm_join_ip_mcast *cmd,
			     u32 *size);

/*
 * Private data: at most the uapi array (RDMA_MAX_PRIVATE_DATA) and at
 * most what the CM message carries for the user, @cm_max (see
 * ucma_private_data_max()).  -EINVAL otherwise.
 */
int ucma_check_private_data(u32 len, u32 cm_max);

/*
 * The user's private-data budget of @cmd (CONNECT, ACCEPT, REJECT) on an
 * ID of @qp_type and address @family: REP 196 and REJ 148 for connected
 * IDs, SIDR_REP 136 for UD; CONNECT's REQ 92 and SIDR_REQ 216 less the
 * 36-byte rdma_cm header an IP-addressed ID puts first (56 and 180; AF_IB
 * IDs have none).  0 for other commands.
 */
u32 ucma_private_data_max(u32 cmd, u8 qp_type, u32 family);

/*
 * CONNECT and ACCEPT parameters.  CONNECT needs @p->valid; ACCEPT with
 * valid 0 carries no parameters (nothing else is checked).  The private
 * data length as for ucma_check_private_data() with @cm_max.
 */
int ucma_check_conn_param(const struct rdma_ucm_conn_param *p, bool connect,
			  u32 cm_max);

/*
 * REJECT: the reason into *@reason: IB_CM_WIRE_REJ_CONSUMER (which 0
 * stands for) or IB_CM_WIRE_REJ_VENDOR_OPTION, -EINVAL for any other; the
 * private data length as for ucma_check_private_data() with @cm_max.
 */
int ucma_check_reject(const struct rdma_ucm_reject *cmd, u32 cm_max,
		      u8 *reason);

/* INIT_QP_ATTR: a QP state up to IB_QPS_ERR (-EINVAL). */
int ucma_check_init_qp_attr(const struct rdma_ucm_init_qp_attr *cmd);

/*
 * LISTEN: the backlog to use; anything not in 1..@max (the sysctl
 * max_backlog) becomes @max.
 */
u32 ucma_listen_backlog(s32 backlog, u32 max);

/* SET_OPTION IB_PATH: at most this many path records. */
#define UCMA_IB_PATH_MAX	16

/*
 * SET_OPTION level, name and length, before anything is copied: -ENOSYS
 * for an unknown level or name, -EINVAL for a length the option does not
 * take (TOS and ACK_TIMEOUT a u8, REUSEADDR and AFONLY an int, IB_PATH
 * 1..UCMA_IB_PATH_MAX whole struct ib_path_rec_data).  On success the
 * glue copies exactly @optlen bytes from optval.
 */
int ucma_check_set_option(u32 level, u32 optname, u32 optlen);

/*
 * SET_OPTION IB_PATH contents: @optlen bytes of path records (already
 * checked).  *@index: the first record flagged GMP | PRIMARY |
 * BIDIRECTIONAL; -EINVAL if none is.
 */
int ucma_find_ib_path(const struct ib_path_rec_data *recs, u32 optlen,
		      u32 *index);

#endif /* _UCMA_CMD_CHECK_H */
