// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Not a test by itself: CM IDs that stay alive while the module is
 * loaded, for the cm-loopback scenario's unload and removal checks.  On
 * load, on port 1 of "dev": a listener, and an ID whose REQ the listener
 * takes and never answers (its REQ waits with a long timeout; the
 * listener's side holds a new ID in REQ_RCVD).  On unload every ID is
 * destroyed, whether the device is still there or not.  What happened
 * is logged with the prefix "ib_cm_hold:".
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_device.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include "roce_port.h"

static char *dev_name_param = "rxe0";
module_param_named(dev, dev_name_param, charp, 0444);
MODULE_PARM_DESC(dev, "the RoCE device (port 1)");

#define HOLD_SID	0x0000000001060999ULL

static struct {
	struct ib_device *dev;
	struct ib_cm_id *listen, *conn, *req;
	struct completion req_rcvd;
	int req_error;			/* send status of REQ_ERROR + 1 */
} hold;

static int hold_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *e)
{
	switch (e->event) {
	case IB_CM_REQ_RECEIVED:
		hold.conn = cm_id;
		complete(&hold.req_rcvd);
		break;
	case IB_CM_REQ_ERROR:
		WRITE_ONCE(hold.req_error, e->param.send_status + 1);
		break;
	default:
		break;
	}
	pr_info("ib_cm_hold: event %d on ID %08x\n", e->event,
		be32_to_cpu(cm_id->local_id));
	return 0;
}

static int hold_new_id(struct ib_cm_id **slot)
{
	struct ib_cm_id *id = ib_create_cm_id(hold.dev, hold_handler, NULL);

	if (IS_ERR(id))
		return PTR_ERR(id);
	*slot = id;
	return 0;
}

static void hold_put_all(void)
{
	struct ib_cm_id **ids[] = { &hold.listen, &hold.conn, &hold.req };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		if (*ids[i])
			ib_destroy_cm_id(*ids[i]);
		*ids[i] = NULL;
	}
	if (hold.dev)
		ib_device_put(hold.dev);
	hold.dev = NULL;
}

static int __init hold_init(void)
{
	struct ib_cm_roce_path path = {
		.port_num = 1,
		.hop_limit = 64,
		.pkey = 0xffff,
		.mtu = IB_MTU_1024,
	};
	struct ib_cm_req_param req = {
		.service_id = cpu_to_be64(HOLD_SID),
		.primary_path = &path,
		.qp_type = IB_QPT_RC,
		.qp_num = 0x333,
		.starting_psn = 1,
		.local_cm_response_timeout = 20,
		.remote_cm_response_timeout = 22,	/* 16 s a send */
		.max_cm_retries = 15,
	};
	const char *why;
	int ret;

	init_completion(&hold.req_rcvd);
	hold.dev = roce_port1_get(dev_name_param, &path.sgid_index, &path.dgid,
				  &why);
	if (!hold.dev) {
		pr_info("ib_cm_hold: %s: %s\n", dev_name_param, why);
		return -ENODEV;
	}
	ret = hold_new_id(&hold.listen);
	if (ret)
		goto err;
	ret = ib_cm_listen(hold.listen, cpu_to_be64(HOLD_SID));
	if (ret)
		goto err;
	ret = hold_new_id(&hold.req);
	if (ret)
		goto err;
	ret = ib_send_cm_req(hold.req, &req);
	if (ret)
		goto err;
	if (!wait_for_completion_timeout(&hold.req_rcvd, 15 * HZ)) {
		ret = -ETIMEDOUT;
		goto err;
	}
	pr_info("ib_cm_hold: listening, REQ_RCVD %d, REQ_SENT %d\n",
		hold.conn->state == IB_CM_REQ_RCVD,
		hold.req->state == IB_CM_REQ_SENT);
	/* the IDs hold on to what they need; removal must not wait for us */
	ib_device_put(hold.dev);
	hold.dev = NULL;
	return 0;

err:
	pr_info("ib_cm_hold: setup failed: %d\n", ret);
	hold_put_all();
	return ret;
}

static void __exit hold_exit(void)
{
	pr_info("ib_cm_hold: REQ_ERROR status %d\n",
		READ_ONCE(hold.req_error) - 1);
	hold_put_all();
	pr_info("ib_cm_hold: all IDs destroyed\n");
}

module_init(hold_init);
module_exit(hold_exit);
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("CM IDs held for ib_cm's unload and removal checks");
