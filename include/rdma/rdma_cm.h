/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The in-kernel API of the RDMA connection manager (module rdma_cm):
 * IDs addressed by IP (IPv4, IPv6) in a network namespace, address and
 * route resolution over RoCE, listen/connect/accept/reject/disconnect
 * with private data over ib_cm, UD service resolution (SIDR) and IPv4/6
 * multicast joins for UD QPs.
 *
 * Every function that bears an upstream name takes upstream's arguments
 * and means the same.  The route is our own: a RoCE path (struct
 * ib_cm_roce_path, GIDs), not an SA path record.  The calling rules
 * (which calls may be made from the event handler, what destroy waits
 * for, how the handler's return value destroys the ID) are in
 * Documentation/core/rdma_cm.rst.
 */
#ifndef _RDMA_RDMA_CM_H
#define _RDMA_RDMA_CM_H

#include <linux/types.h>
#include <linux/socket.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <uapi/rdma/rdma_user_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_device.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm_state.h>

/* The link-level part of an address, filled by address resolution. */
struct rdma_dev_addr {
	unsigned char src_dev_addr[MAX_ADDR_LEN];
	unsigned char dst_dev_addr[MAX_ADDR_LEN];
	unsigned char broadcast[MAX_ADDR_LEN];
	unsigned short dev_type;
	int bound_dev_if;		/* ifindex of the netdev, 0 if none */
	struct net *net;		/* the ID's namespace, not counted */
	int hoplimit;
};

struct rdma_addr {
	struct sockaddr_storage src_addr;
	struct sockaddr_storage dst_addr;
	struct rdma_dev_addr dev_addr;
};

/*
 * The route: on RoCE one path, filled by rdma_resolve_route() on the
 * active side and from the REQ on the passive side.
 */
struct rdma_route {
	struct rdma_addr addr;
	struct ib_cm_roce_path *path_rec;	/* NULL until resolved */
	int num_pri_alt_paths;			/* 0 or 1 */
};

/*
 * What rdma_connect()/rdma_accept() send and CONNECT_REQUEST/RESPONSE
 * report.  retry_count is ignored when accepting; srq and qp_num are
 * used when the ID has no kernel QP (rdma_ucm); qkey (UD): 0 means
 * RDMA_UDP_QKEY.
 */
struct rdma_conn_param {
	const void *private_data;
	u8 private_data_len, responder_resources, initiator_depth;
	u8 flow_control, retry_count, rnr_retry_count, srq;
	u32 qp_num, qkey;
};

/*
 * UD: the peer (SIDR ESTABLISHED) or the group (MULTICAST_JOIN, where
 * private_data is the context given to rdma_join_multicast()).
 */
struct rdma_ud_param {
	const void *private_data;
	u8 private_data_len;
	struct rdma_ah_attr ah_attr;
	u32 qp_num, qkey;
};

/* status: 0, a negative errno, a REJ reason (REJECTED), a SIDR status */
struct rdma_cm_event {
	enum rdma_cm_event_type event;
	int status;
	union {
		struct rdma_conn_param conn;	/* connected IDs */
		struct rdma_ud_param ud;	/* UD IDs, multicast */
	} param;
	struct rdma_ucm_ece ece;		/* always zero: no ECE */
};

/* qkey rdma_cm uses for UD IDs of the UDP and IPoIB port spaces */
#define RDMA_UDP_QKEY 0x01234567

struct rdma_cm_id;

/*
 * Called with the ID's handler mutex held, one event at a time per ID.
 * A non-zero return destroys the ID (a listener's new ID for
 * CONNECT_REQUEST); the handler must then not touch it again, nor call
 * rdma_destroy_id() on it.
 */
typedef int (*rdma_cm_event_handler)(struct rdma_cm_id *id,
				     struct rdma_cm_event *event);

struct rdma_cm_id {
	struct ib_device *device;	/* NULL until bound to a device */
	void *context;
	struct ib_qp *qp;		/* set by rdma_create_qp() */
	rdma_cm_event_handler event_handler;
	struct rdma_route route;
	enum rdma_ucm_port_space ps;
	enum ib_qp_type qp_type;
	u32 port_num;
};

struct rdma_cm_id *__rdma_create_kernel_id(struct net *net,
					   rdma_cm_event_handler event_handler,
					   void *context,
					   enum rdma_ucm_port_space ps,
					   enum ib_qp_type qp_type,
					   const char *caller);
/* rdma_ucm's IDs: the restrack owner is the calling task */
struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type);

#define rdma_create_id(net, event_handler, context, ps, qp_type)          \
	__rdma_create_kernel_id(net, event_handler, context, ps, qp_type, \
				KBUILD_MODNAME)

/*
 * Waits for a running handler of the ID to return, and for ib_cm to be
 * done with it; must not be called from the ID's own handler.
 */
void rdma_destroy_id(struct rdma_cm_id *id);

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr,
		      unsigned long timeout_ms);
int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms);

int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *qp_init_attr);
void rdma_destroy_qp(struct rdma_cm_id *id);
int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask);

int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
/* as rdma_connect(), from the ID's own handler (handler mutex held) */
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param);
int rdma_connect_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		     struct rdma_ucm_ece *ece);

int rdma_listen(struct rdma_cm_id *id, int backlog);

/*
 * Accept from outside the handler: take the handler mutex with
 * rdma_lock_handler() around it (rdma_ucm does).  From the
 * CONNECT_REQUEST handler itself it is already held.
 */
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int rdma_accept_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		    struct rdma_ucm_ece *ece);
void rdma_lock_handler(struct rdma_cm_id *id);
void rdma_unlock_handler(struct rdma_cm_id *id);

int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event);
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason);
int rdma_disconnect(struct rdma_cm_id *id);

/*
 * rdma_join_multicast() join_state bits (upstream's BIT(FULLMEMBER_JOIN)
 * and BIT(SENDONLY_FULLMEMBER_JOIN)); a full member also joins the IPv4
 * group on the netdev.  MULTICAST_JOIN carries @context in
 * param.ud.private_data (length 0).
 */
#define RDMA_CM_JOIN_FULLMEMBER			(1 << 0)
#define RDMA_CM_JOIN_SENDONLY_FULLMEMBER	(1 << 3)

int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context);
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr);

void rdma_set_service_type(struct rdma_cm_id *id, int tos);
int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse);
int rdma_set_afonly(struct rdma_cm_id *id, int afonly);
int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout);
int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer);

bool rdma_is_consumer_reject(struct rdma_cm_id *id, int reason);
const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len);
const char *rdma_event_msg(enum rdma_cm_event_type event);
const char *rdma_reject_msg(struct rdma_cm_id *id, int reason);
__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr);
void rdma_read_gids(struct rdma_cm_id *cm_id, union ib_gid *sgid,
		    union ib_gid *dgid);

/*
 * A client of rdma_cm learns of devices through ib_register_client();
 * rdma_cm itself is a client and tells each ID of a removed device with
 * RDMA_CM_EVENT_DEVICE_REMOVAL.
 */

#endif /* _RDMA_RDMA_CM_H */
