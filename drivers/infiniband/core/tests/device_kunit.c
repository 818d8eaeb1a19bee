// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite for ib_core's device registry: registration and names,
 * references, clients (order, client data, late and declining clients)
 * and async event handlers, with a mock driver.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

struct mock_dev {
	struct ib_device ibdev;
	int *dealloc_calls;
};

static int mock_query_device(struct ib_device *dev, struct ib_device_attr *attr,
			     struct ib_udata *udata)
{
	attr->vendor_id = 0xFFFFFF;
	attr->max_qp = 1;
	return 0;
}

static int mock_query_port(struct ib_device *dev, u32 port,
			   struct ib_port_attr *attr)
{
	attr->state = IB_PORT_ACTIVE;
	attr->gid_tbl_len = 16;
	return 0;
}

static int mock_port_immutable(struct ib_device *dev, u32 port,
			       struct ib_port_immutable *im)
{
	im->gid_tbl_len = 16;
	im->pkey_tbl_len = 1;
	/* no MAD layer: the tests count every object of the device */
	im->core_cap_flags = RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
	return 0;
}

static void mock_dealloc(struct ib_device *dev)
{
	struct mock_dev *m = container_of(dev, struct mock_dev, ibdev);

	if (m->dealloc_calls)
		(*m->dealloc_calls)++;
}

static const struct ib_device_ops mock_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.query_device = mock_query_device,
	.query_port = mock_query_port,
	.get_port_immutable = mock_port_immutable,
	.dealloc_driver = mock_dealloc,
};

static struct mock_dev *mock_alloc(struct kunit *test)
{
	struct mock_dev *m = ib_alloc_device(mock_dev, ibdev);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	ib_set_device_ops(&m->ibdev, &mock_ops);
	m->ibdev.phys_port_cnt = 1;
	return m;
}

static struct mock_dev *mock_register(struct kunit *test, const char *name)
{
	struct mock_dev *m = mock_alloc(test);

	KUNIT_ASSERT_EQ(test, ib_register_device(&m->ibdev, name, NULL), 0);
	return m;
}

static void mock_destroy(struct mock_dev *m)
{
	ib_unregister_device(&m->ibdev);
	ib_dealloc_device(&m->ibdev);
}

/* ---- registration ---- */

static void device_register_index_and_name(struct kunit *test)
{
	struct mock_dev *a = mock_register(test, "kmock%d");
	struct mock_dev *b = mock_register(test, "kmock%d");
	struct ib_device *found;
	u32 idx_a = a->ibdev.index;

	KUNIT_EXPECT_STREQ(test, a->ibdev.name, "kmock0");
	KUNIT_EXPECT_STREQ(test, b->ibdev.name, "kmock1");
	KUNIT_EXPECT_STREQ(test, dev_name(&a->ibdev.dev), "kmock0");
	KUNIT_EXPECT_GT(test, b->ibdev.index, a->ibdev.index);
	KUNIT_EXPECT_NOT_NULL(test, a->ibdev.port_data);
	KUNIT_EXPECT_EQ(test, a->ibdev.port_data[1].immutable.gid_tbl_len, 16);

	found = ib_device_get_by_index(NULL, idx_a);
	KUNIT_EXPECT_PTR_EQ(test, found, &a->ibdev);
	if (found)
		ib_device_put(found);
	found = ib_device_get_by_name("kmock1", RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &b->ibdev);
	if (found)
		ib_device_put(found);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("kmock1", RDMA_DRIVER_RXE));

	mock_destroy(a);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_index(NULL, idx_a));
	/* the freed name is the lowest free number again */
	a = mock_register(test, "kmock%d");
	KUNIT_EXPECT_STREQ(test, a->ibdev.name, "kmock0");
	/* indexes are cyclic: a new device never reuses a recent index */
	KUNIT_EXPECT_NE(test, a->ibdev.index, idx_a);
	mock_destroy(a);
	mock_destroy(b);
}

static void device_name_rules(struct kunit *test)
{
	static const char *const bad[] = { "", "a/b", "x%s", "%d%d", "%", "x%dy%d" };
	struct mock_dev *a = mock_register(test, "kname");
	struct mock_dev *m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		m = mock_alloc(test);
		KUNIT_EXPECT_EQ_MSG(test, ib_register_device(&m->ibdev, bad[i], NULL),
				    -EINVAL, "name '%s'", bad[i]);
		ib_dealloc_device(&m->ibdev);
	}
	m = mock_alloc(test);
	KUNIT_EXPECT_EQ(test, ib_register_device(&m->ibdev, "kname", NULL), -EEXIST);
	ib_dealloc_device(&m->ibdev);
	mock_destroy(a);
}

static void device_needs_mandatory_ops(struct kunit *test)
{
	struct mock_dev *m = mock_alloc(test);

	m->ibdev.ops.query_port = NULL;
	KUNIT_EXPECT_EQ(test, ib_register_device(&m->ibdev, "kbad", NULL), -EINVAL);
	m->ibdev.ops.query_port = mock_query_port;
	m->ibdev.phys_port_cnt = 0;
	KUNIT_EXPECT_EQ(test, ib_register_device(&m->ibdev, "kbad", NULL), -EINVAL);
	ib_dealloc_device(&m->ibdev);
}

static void device_rename_rules(struct kunit *test)
{
	struct mock_dev *a = mock_register(test, "kren_a");
	struct mock_dev *b = mock_register(test, "kren_b");
	struct ib_device *found;

	KUNIT_EXPECT_EQ(test, ib_device_rename(&a->ibdev, "kren_c"), 0);
	KUNIT_EXPECT_STREQ(test, a->ibdev.name, "kren_c");
	KUNIT_EXPECT_STREQ(test, dev_name(&a->ibdev.dev), "kren_c");
	found = ib_device_get_by_name("kren_c", RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &a->ibdev);
	if (found)
		ib_device_put(found);
	KUNIT_EXPECT_EQ(test, ib_device_rename(&a->ibdev, "kren_b"), -EEXIST);
	KUNIT_EXPECT_EQ(test, ib_device_rename(&a->ibdev, "k%d"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_device_rename(&a->ibdev, "kren_c"), 0);
	mock_destroy(a);
	mock_destroy(b);
}

/* ---- references ---- */

struct unreg_work {
	struct work_struct work;
	struct ib_device *dev;
	struct completion done;
};

static void unreg_fn(struct work_struct *w)
{
	struct unreg_work *uw = container_of(w, struct unreg_work, work);

	ib_unregister_device(uw->dev);
	complete(&uw->done);
}

static void device_reference_blocks_unregister(struct kunit *test)
{
	struct mock_dev *a = mock_register(test, "kref");
	struct unreg_work uw;
	struct ib_device *ref;

	ref = ib_device_get_by_index(NULL, a->ibdev.index);
	KUNIT_ASSERT_PTR_EQ(test, ref, &a->ibdev);

	INIT_WORK_ONSTACK(&uw.work, unreg_fn);
	uw.dev = &a->ibdev;
	init_completion(&uw.done);
	schedule_work(&uw.work);

	/* unregistration waits for our reference ... */
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&uw.done,
						msecs_to_jiffies(300)), 0UL);
	/* ... the device is no longer found meanwhile ... */
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("kref", RDMA_DRIVER_UNKNOWN));
	/* ... and completes once it is dropped */
	ib_device_put(ref);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&uw.done,
						msecs_to_jiffies(30000)), 0UL);
	flush_work(&uw.work);
	destroy_work_on_stack(&uw.work);
	ib_dealloc_device(&a->ibdev);
}

static void device_unregister_and_put_frees_once(struct kunit *test)
{
	struct mock_dev *a = mock_register(test, "kput");
	struct ib_device *ref;
	int calls = 0;

	a->dealloc_calls = &calls;
	ref = ib_device_get_by_index(NULL, a->ibdev.index);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	ib_unregister_device_and_put(ref);	/* frees a */
	KUNIT_EXPECT_EQ(test, calls, 1);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("kput", RDMA_DRIVER_UNKNOWN));
}

/* ---- clients ---- */

#define LOG_MAX 16
static char client_log[LOG_MAX][16];
static unsigned int client_log_n;
static void *client_removed_data;

static void log_event(const char *what, const char *name)
{
	if (client_log_n < LOG_MAX)
		snprintf(client_log[client_log_n++], sizeof(client_log[0]),
			 "%s%s", what, name);
}

static int client_a_add(struct ib_device *dev);
static int client_b_add(struct ib_device *dev);
static void client_a_remove(struct ib_device *dev, void *data);
static void client_b_remove(struct ib_device *dev, void *data);
static int client_decline_add(struct ib_device *dev);
static void client_decline_remove(struct ib_device *dev, void *data);

static struct ib_client client_a = {
	.name = "kunit_a", .add = client_a_add, .remove = client_a_remove,
};
static struct ib_client client_b = {
	.name = "kunit_b", .add = client_b_add, .remove = client_b_remove,
};
static struct ib_client client_decline = {
	.name = "kunit_no", .add = client_decline_add,
	.remove = client_decline_remove,
};

static int client_a_add(struct ib_device *dev)
{
	log_event("+a:", dev->name);
	ib_set_client_data(dev, &client_a, dev);
	return 0;
}

static int client_b_add(struct ib_device *dev)
{
	/* a client may look devices up from add() */
	struct ib_device *again = ib_device_get_by_index(NULL, dev->index);

	if (again)
		ib_device_put(again);
	log_event("+b:", dev->name);
	return 0;
}

static void client_a_remove(struct ib_device *dev, void *data)
{
	client_removed_data = data;
	log_event("-a:", dev->name);
}

static void client_b_remove(struct ib_device *dev, void *data)
{
	log_event("-b:", dev->name);
}

static int client_decline_add(struct ib_device *dev)
{
	log_event("+no:", dev->name);
	return -EOPNOTSUPP;
}

static void client_decline_remove(struct ib_device *dev, void *data)
{
	log_event("-no:", dev->name);
}

static void expect_log(struct kunit *test, const char *const *want,
		       unsigned int n)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, client_log_n, n);
	for (i = 0; i < n && i < client_log_n; i++)
		KUNIT_EXPECT_STREQ(test, client_log[i], want[i]);
	client_log_n = 0;
}

static void client_add_remove_order(struct kunit *test)
{
	static const char *const reg[] = { "+a:kcl", "+b:kcl", "+no:kcl" };
	static const char *const unreg[] = { "-b:kcl", "-a:kcl" };
	struct mock_dev *m;

	client_log_n = 0;
	KUNIT_ASSERT_EQ(test, ib_register_client(&client_a), 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&client_b), 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&client_decline), 0);
	m = mock_register(test, "kcl");
	expect_log(test, reg, ARRAY_SIZE(reg));
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&m->ibdev, &client_a),
			    (void *)&m->ibdev);

	ib_unregister_device(&m->ibdev);
	/* reverse order; the declining client is never removed */
	expect_log(test, unreg, ARRAY_SIZE(unreg));
	KUNIT_EXPECT_PTR_EQ(test, client_removed_data, (void *)&m->ibdev);
	ib_dealloc_device(&m->ibdev);

	ib_unregister_client(&client_decline);
	ib_unregister_client(&client_b);
	ib_unregister_client(&client_a);
	KUNIT_EXPECT_EQ(test, client_log_n, 0u);
}

static void client_late_registration(struct kunit *test)
{
	static const char *const add[] = { "+a:klate0", "+a:klate1" };
	static const char *const del[] = { "-a:klate0", "-a:klate1" };
	struct mock_dev *d0 = mock_register(test, "klate0");
	struct mock_dev *d1 = mock_register(test, "klate1");

	client_log_n = 0;
	KUNIT_ASSERT_EQ(test, ib_register_client(&client_a), 0);
	expect_log(test, add, ARRAY_SIZE(add));
	ib_unregister_client(&client_a);
	expect_log(test, del, ARRAY_SIZE(del));
	/* unregistering again is harmless */
	ib_unregister_client(&client_a);
	mock_destroy(d0);
	mock_destroy(d1);
	KUNIT_EXPECT_EQ(test, client_log_n, 0u);
}

static int count_fn(struct ib_device *dev, void *data)
{
	if (!strncmp(dev->name, "kiter", 5))
		(*(int *)data)++;
	return 0;
}

static void device_iteration(struct kunit *test)
{
	struct mock_dev *d[3];
	int n = 0, i;

	for (i = 0; i < 3; i++)
		d[i] = mock_register(test, "kiter%d");
	KUNIT_EXPECT_EQ(test, ib_for_each_device(count_fn, &n), 0);
	KUNIT_EXPECT_EQ(test, n, 3);
	for (i = 0; i < 3; i++)
		mock_destroy(d[i]);
	n = 0;
	ib_for_each_device(count_fn, &n);
	KUNIT_EXPECT_EQ(test, n, 0);
}

/* ---- events ---- */

static int event_seen[2];
static u32 event_port;

static void handler0(struct ib_event_handler *h, struct ib_event *ev)
{
	event_seen[0]++;
	event_port = ev->element.port_num;
}

static void handler1(struct ib_event_handler *h, struct ib_event *ev)
{
	/* runs after handler0: registration order */
	if (event_seen[0] > event_seen[1])
		event_seen[1]++;
}

static void device_event_handlers(struct kunit *test)
{
	struct mock_dev *m = mock_register(test, "kev");
	struct ib_event_handler h0, h1;
	struct ib_event ev = {
		.device = &m->ibdev,
		.event = IB_EVENT_PORT_ACTIVE,
		.element = { .port_num = 1 },
	};

	event_seen[0] = event_seen[1] = 0;
	INIT_IB_EVENT_HANDLER(&h0, &m->ibdev, handler0);
	INIT_IB_EVENT_HANDLER(&h1, &m->ibdev, handler1);
	ib_register_event_handler(&h0);
	ib_register_event_handler(&h1);
	ib_dispatch_event(&ev);
	KUNIT_EXPECT_EQ(test, event_seen[0], 1);
	KUNIT_EXPECT_EQ(test, event_seen[1], 1);
	KUNIT_EXPECT_EQ(test, event_port, 1u);

	ib_unregister_event_handler(&h0);
	ib_dispatch_event(&ev);
	KUNIT_EXPECT_EQ(test, event_seen[0], 1);
	ib_unregister_event_handler(&h1);
	mock_destroy(m);
}

static void device_queries(struct kunit *test)
{
	struct mock_dev *m = mock_register(test, "kq");
	struct ib_device_attr dattr;
	struct ib_port_attr pattr;

	KUNIT_EXPECT_EQ(test, ib_query_device(&m->ibdev, &dattr), 0);
	KUNIT_EXPECT_EQ(test, dattr.vendor_id, 0xFFFFFFu);
	KUNIT_EXPECT_EQ(test, ib_query_port(&m->ibdev, 1, &pattr), 0);
	KUNIT_EXPECT_EQ(test, (int)pattr.state, (int)IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, ib_query_port(&m->ibdev, 0, &pattr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(&m->ibdev, 2, &pattr), -EINVAL);
	KUNIT_EXPECT_NULL(test, ib_device_get_netdev(&m->ibdev, 1));
	mock_destroy(m);
}

/*
 * ib_set_device_ops() merges every member: ops all set (a byte pattern,
 * never called) into an empty device leave no 8-byte word of the
 * device's ops zero.  A member missing from the merge shows as a zero
 * word (padding never fills a whole word of this struct).
 */
static void device_ops_merge_is_complete(struct kunit *test)
{
	struct ib_device *dev = (struct ib_device *)kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	struct ib_device_ops *all = (struct ib_device_ops *)kunit_kzalloc(test, sizeof(*all),
									  GFP_KERNEL);
	const u64 *w;
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_NOT_NULL(test, all);
	memset(all, 0x5a, sizeof(*all));
	ib_set_device_ops(dev, all);
	w = (const u64 *)&dev->ops;
	for (i = 0; i < sizeof(dev->ops) / sizeof(*w); i++)
		KUNIT_EXPECT_NE_MSG(test, w[i], 0ull,
				    "ib_device_ops word %zu (byte offset %zu) not merged", i,
				    i * sizeof(*w));
}

static int other_query_port(struct ib_device *dev, u32 port, struct ib_port_attr *attr)
{
	return -ENODATA;
}

/* A later call adds callbacks; it never replaces one already set. */
static void device_ops_merge_fills_only_empty(struct kunit *test)
{
	struct ib_device *dev = (struct ib_device *)kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	static const struct ib_device_ops extra = {
		.owner = THIS_MODULE,
		.driver_id = RDMA_DRIVER_RXE,
		.query_device = mock_query_device,
		.get_port_immutable = mock_port_immutable,
		.query_port = mock_query_port,
		.dealloc_driver = mock_dealloc,
	};
	static const struct ib_device_ops first = {
		.query_port = other_query_port,
		.size_ib_pd = 64,
	};

	KUNIT_ASSERT_NOT_NULL(test, dev);
	ib_set_device_ops(dev, &first);
	ib_set_device_ops(dev, &extra);
	KUNIT_EXPECT_PTR_EQ(test, dev->ops.query_port, first.query_port);
	KUNIT_EXPECT_PTR_EQ(test, dev->ops.query_device, extra.query_device);
	KUNIT_EXPECT_PTR_EQ(test, dev->ops.dealloc_driver, extra.dealloc_driver);
	KUNIT_EXPECT_EQ(test, dev->ops.size_ib_pd, (size_t)64);
	KUNIT_EXPECT_EQ(test, (int)dev->ops.driver_id, (int)RDMA_DRIVER_RXE);
	KUNIT_EXPECT_PTR_EQ(test, dev->ops.owner, extra.owner);
	/* a set slot is kept: a NULL in a later call does not clear it */
	ib_set_device_ops(dev, &first);
	KUNIT_EXPECT_PTR_EQ(test, dev->ops.dealloc_driver, extra.dealloc_driver);
	KUNIT_EXPECT_EQ(test, (int)dev->ops.driver_id, (int)RDMA_DRIVER_RXE);
}

static struct kunit_case device_cases[] = {
	KUNIT_CASE(device_register_index_and_name),
	KUNIT_CASE(device_name_rules),
	KUNIT_CASE(device_needs_mandatory_ops),
	KUNIT_CASE(device_rename_rules),
	KUNIT_CASE(device_reference_blocks_unregister),
	KUNIT_CASE(device_unregister_and_put_frees_once),
	KUNIT_CASE(client_add_remove_order),
	KUNIT_CASE(client_late_registration),
	KUNIT_CASE(device_iteration),
	KUNIT_CASE(device_event_handlers),
	KUNIT_CASE(device_queries),
	KUNIT_CASE(device_ops_merge_is_complete),
	KUNIT_CASE(device_ops_merge_fills_only_empty),
	{}
};

static struct kunit_suite device_suite = {
	.name = "ib_core_device",
	.test_cases = device_cases,
};
kunit_test_suite(device_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests for the ib_core device registry");
