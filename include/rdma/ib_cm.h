/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The in-kernel API of the IB connection manager (module ib_cm) over
 * RoCE: CM IDs, listening by service ID, the connection messages (REQ,
 * REP, RTU, REJ, MRA, DREQ, DREP) and service ID resolution (SIDR_REQ,
 * SIDR_REP), each with private data, and the QP attributes a connection
 * needs.  Functions that bear an upstream name take upstream's arguments
 * and mean the same; paths are our own RoCE path struct (GIDs; the
 * destination MAC is resolved by the core from the GID).  Rules (who may
 * call what from where, what destroy waits for) are in
 * Documentation/core/cm.rst.
 */
#ifndef _RDMA_IB_CM_H
#define _RDMA_IB_CM_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_device.h>
#include <rdma/ib_cm_state.h>

/* A RoCE path: where the connection and its CM messages go. */
struct ib_cm_roce_path {
	u32 port_num;
	u8 sgid_index;		/* local RoCE v2 GID entry */
	union ib_gid sgid;	/* filled by ib_cm from sgid_index */
	union ib_gid dgid;	/* the peer's GID (::ffff:a.b.c.d for IPv4) */
	u32 flow_label;
	u8 hop_limit;		/* 0: 64 */
	u8 traffic_class;
	u16 pkey;		/* 0xffff on RoCE */
	enum ib_mtu mtu;
	u8 packet_life_time;	/* IBTA exponent; rdma_cm uses 18 on RoCE */
};

/*
 * Why a REJ was sent (the 16-bit reason field of the message).  The
 * numbers are the IBTA's and upstream's; grouped here by what the
 * receiver of the REJ can do about it.
 */
enum ib_cm_rej_reason {
	/* the passive side has no QP, EEC or memory for it now: retry later */
	IB_CM_REJ_NO_QP = 1, IB_CM_REJ_NO_EEC = 2, IB_CM_REJ_NO_RESOURCES = 3,
	IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES = 27,
	/* our own request ran out of time (ARI: the sender's node GUID) */
	IB_CM_REJ_TIMEOUT = 4,
	/* the request names something the peer does not have or know */
	IB_CM_REJ_INVALID_SERVICE_ID = 8,
	IB_CM_REJ_INVALID_COMM_ID = 6, IB_CM_REJ_INVALID_COMM_INSTANCE = 7,
	IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID = 30,
	IB_CM_REJ_STALE_CONN = 10,		/* the QPN is still connected */
	IB_CM_REJ_RDC_NOT_EXIST = 11,
	/* what the request asks for is not supported */
	IB_CM_REJ_UNSUPPORTED = 5, IB_CM_REJ_INVALID_TRANSPORT_TYPE = 9,
	IB_CM_REJ_INVALID_CLASS_VERSION = 31,
	IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED = 35,	/* ECE */
	/* a primary path attribute is refused (ARI names the good value) */
	IB_CM_REJ_INVALID_GID = 12, IB_CM_REJ_INVALID_LID = 13,
	IB_CM_REJ_INVALID_FLOW_LABEL = 32, IB_CM_REJ_INVALID_SL = 14,
	IB_CM_REJ_INVALID_TRAFFIC_CLASS = 15, IB_CM_REJ_INVALID_HOP_LIMIT = 16,
	IB_CM_REJ_INVALID_PACKET_RATE = 17, IB_CM_REJ_INVALID_MTU = 26,
	IB_CM_REJ_INVALID_RNR_RETRY = 29,
	/* the same for the alternate path (we never send one) */
	IB_CM_REJ_INVALID_ALT_GID = 18, IB_CM_REJ_INVALID_ALT_LID = 19,
	IB_CM_REJ_INVALID_ALT_FLOW_LABEL = 33, IB_CM_REJ_INVALID_ALT_SL = 20,
	IB_CM_REJ_INVALID_ALT_TRAFFIC_CLASS = 21,
	IB_CM_REJ_INVALID_ALT_HOP_LIMIT = 22,
	IB_CM_REJ_INVALID_ALT_PACKET_RATE = 23,
	/* go elsewhere: the ARI carries the port to ask instead */
	IB_CM_REJ_PORT_CM_REDIRECT = 24, IB_CM_REJ_PORT_REDIRECT = 25,
	/* the peer's user said no: its private data says why */
	IB_CM_REJ_CONSUMER_DEFINED = 28,
};

/* The status byte of a SIDR_REP (values as the IBTA numbers them). */
enum ib_cm_sidr_status {
	IB_SIDR_SUCCESS = 0,		/* qpn and qkey are valid */
	IB_SIDR_UNSUPPORTED = 1,	/* nobody listens on the service ID */
	IB_SIDR_REJECT = 2,		/* the listener said no */
	IB_SIDR_NO_QP = 3,
	IB_SIDR_REDIRECT = 4,		/* info names where to ask */
	IB_SIDR_UNSUPPORTED_VERSION = 5,
};

struct ib_cm_id;

/*
 * IB_CM_REQ_RECEIVED, delivered on the new ID the REQ made.  Read
 * responder_resources and initiator_depth as ours: the REQ's two values
 * swapped, ready for ib_send_cm_rep().
 */
struct ib_cm_req_event_param {
	struct ib_cm_id *listen_id;	/* the ID that listened */
	struct ib_cm_roce_path *primary_path;	/* back to the sender */
	u8 port;

	/* the peer's QP and where its sequence starts */
	enum ib_qp_type qp_type;
	__be64 remote_ca_guid;
	u32 remote_qpn;
	u32 remote_qkey;
	u32 starting_psn;
	u8 srq;

	/* what the QP may do, as seen from our side */
	u8 responder_resources, initiator_depth;
	u8 flow_control, retry_count, rnr_retry_count;

	/* the two CM response time exponents the sender announced */
	u8 local_cm_response_timeout, remote_cm_response_timeout;
};

/* IB_CM_REP_RECEIVED; the depths are ours, as for a REQ */
struct ib_cm_rep_event_param {
	u32 remote_qpn, remote_qkey, starting_psn;
	__be64 remote_ca_guid;
	u8 srq, flow_control, rnr_retry_count;
	u8 responder_resources, initiator_depth;
	u8 target_ack_delay;	/* the passive CA's exponent */
	u8 failover_accepted;	/* always 0 here: no alternate path */
};

/* IB_CM_REJ_RECEIVED: the reason, and the additional information */
struct ib_cm_rej_event_param {
	void *ari;
	u8 ari_length;
	enum ib_cm_rej_reason reason;
};

/* IB_CM_MRA_RECEIVED: the peer needs 4.096 us << service_timeout more */
struct ib_cm_mra_event_param {
	u8 service_timeout;
};

/* IB_CM_SIDR_REQ_RECEIVED, delivered on the new ID */
struct ib_cm_sidr_req_event_param {
	struct ib_cm_id *listen_id;
	struct ib_cm_roce_path *path;		/* back to the sender */
	__be64 service_id;
	u16 pkey;
	u8 port;
};

/* IB_CM_SIDR_REP_RECEIVED: the peer's UD QP, unless status says not */
struct ib_cm_sidr_rep_event_param {
	enum ib_cm_sidr_status status;
	u32 qpn, qkey;
	void *info;
	u8 info_len;
};

/*
 * What a handler gets.  private_data points to the whole private data
 * field of the message (its wire length: 92 bytes for a REQ, 196 for a
 * REP, ...), valid while the handler runs.  send_status: the *_ERROR
 * events (IB_WC_RESP_TIMEOUT_ERR when the retries ran out).
 */
struct ib_cm_event {
	enum ib_cm_event_type event;
	void *private_data;
	union {
		struct ib_cm_req_event_param req_rcvd;
		struct ib_cm_rep_event_param rep_rcvd;
		struct ib_cm_rej_event_param rej_rcvd;
		struct ib_cm_mra_event_param mra_rcvd;
		struct ib_cm_sidr_req_event_param sidr_req_rcvd;
		struct ib_cm_sidr_rep_event_param sidr_rep_rcvd;
		enum ib_wc_status send_status;
	} param;
};

/*
 * A non-zero return destroys the ID the event was delivered on (for
 * IB_CM_REQ_RECEIVED with -ENOMEM without sending a REJ).  The handler
 * must not call ib_destroy_cm_id() on that ID itself.
 */
typedef int (*ib_cm_handler)(struct ib_cm_id *cm_id,
			     const struct ib_cm_event *event);

/*
 * A CM ID as its user sees it.  Everything but cm_handler and context
 * is written by ib_cm only; the IDs are the comm IDs of the wire
 * (big-endian), state a snapshot for logging.
 */
struct ib_cm_id {
	struct ib_device *device;
	ib_cm_handler cm_handler;
	void *context;
	__be32 local_id, remote_id;
	__be64 service_id;
	u32 remote_cm_qpn;		/* always 1: the peer's GSI QP */
	enum ib_cm_state state;
};

struct ib_cm_id *ib_create_cm_id(struct ib_device *device,
				 ib_cm_handler cm_handler, void *context);
/*
 * Leave the ID's state the way the IBTA says (REJ, DREQ, timewait ...),
 * stop its timers, wait until no handler of it runs and no send of it
 * is outstanding, then free it.  No event is delivered once it started.
 * Process context; not from the ID's own handler.
 */
void ib_destroy_cm_id(struct ib_cm_id *cm_id);

/* Listen for REQs and SIDR_REQs with @service_id (exact match) */
int ib_cm_listen(struct ib_cm_id *cm_id, __be64 service_id);

/*
 * ib_send_cm_req()'s arguments.  The depths are ours: responder
 * resources is what our QP accepts, initiator depth what it issues.
 * Timeouts are IBTA exponents (4.096 us << n); max_cm_retries bounds the
 * REQ's resends.
 */
struct ib_cm_req_param {
	/* where and what */
	__be64 service_id;
	struct ib_cm_roce_path *primary_path;
	enum ib_qp_type qp_type;	/* IB_QPT_RC or IB_QPT_UC */
	u32 qp_num, starting_psn;
	u8 srq;

	/* the QP's limits */
	u8 responder_resources, initiator_depth, flow_control;
	u8 retry_count, rnr_retry_count;

	/* the CM's own timing */
	u8 local_cm_response_timeout, remote_cm_response_timeout;
	u8 max_cm_retries;

	const void *private_data;	/* up to 92 bytes */
	u8 private_data_len;
};

int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param);

/* ib_send_cm_rep()'s arguments: our QP's side of the connection */
struct ib_cm_rep_param {
	u32 qp_num, starting_psn;
	u8 srq, flow_control, rnr_retry_count;
	u8 responder_resources, initiator_depth;
	u8 failover_accepted;
	const void *private_data;	/* up to 196 bytes */
	u8 private_data_len;
};

int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param);
int ib_send_cm_rtu(struct ib_cm_id *cm_id, const void *private_data,
		   u8 private_data_len);
int ib_send_cm_dreq(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len);
int ib_send_cm_drep(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len);
/* IB_EVENT_COMM_EST on the QP: established without an RTU */
int ib_cm_notify(struct ib_cm_id *cm_id, enum ib_event_type event);
int ib_send_cm_rej(struct ib_cm_id *cm_id, enum ib_cm_rej_reason reason,
		   void *ari, u8 ari_length, const void *private_data,
		   u8 private_data_len);

#define IB_CM_MRA_FLAG_DELAY IB_CM_MRA_DELAY

int ib_send_cm_mra(struct ib_cm_id *cm_id, u8 service_timeout,
		   const void *private_data, u8 private_data_len);

/*
 * The attributes that move the connection's QP to
 * qp_attr->qp_state (INIT, RTR or RTS) and their mask.
 */
int ib_cm_init_qp_attr(struct ib_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask);

/* ib_send_cm_sidr_req()'s arguments; the timeout is per send */
struct ib_cm_sidr_req_param {
	__be64 service_id;
	struct ib_cm_roce_path *path;
	unsigned long timeout_ms;
	u8 max_cm_retries;
	const void *private_data;	/* up to 216 bytes */
	u8 private_data_len;
};

int ib_send_cm_sidr_req(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_req_param *param);

/* ib_send_cm_sidr_rep()'s arguments: status, and our UD QP if SUCCESS */
struct ib_cm_sidr_rep_param {
	enum ib_cm_sidr_status status;
	u32 qp_num, qkey;
	const void *info;		/* up to 72 bytes */
	u8 info_length;
	const void *private_data;	/* up to 136 bytes */
	u8 private_data_len;
};

int ib_send_cm_sidr_rep(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_rep_param *param);

#endif /* _RDMA_IB_CM_H */
