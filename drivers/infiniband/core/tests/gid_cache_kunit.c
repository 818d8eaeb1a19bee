// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite for the GID cache wired to a registered (mock) device:
 * table sizes, default and address entries, lookups, empty-slot and
 * bad-argument errors, GID_CHANGE events, and a table that is gone and
 * new after re-registration; a driver's add_gid/del_gid told of every
 * entry it must hold, at the right slot and time.  The RoCE netdev path (addresses, notifiers)
 * is covered by the gid-sysfs VM scenario.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#define MOCK_GIDS 16

struct mock_gid_dev {
	struct ib_device ibdev;
};

static int mock_query_device(struct ib_device *dev, struct ib_device_attr *attr,
			     struct ib_udata *udata)
{
	return 0;
}

static int mock_query_port(struct ib_device *dev, u32 port,
			   struct ib_port_attr *attr)
{
	attr->state = IB_PORT_ACTIVE;
	attr->gid_tbl_len = MOCK_GIDS;
	return 0;
}

static int mock_port_immutable(struct ib_device *dev, u32 port,
			       struct ib_port_immutable *im)
{
	/* port 2 has no GID table at all */
	im->gid_tbl_len = port == 1 ? MOCK_GIDS : 0;
	im->pkey_tbl_len = 1;
	/* RoCE, but without ops.get_netdev: roce_gid_mgmt leaves it empty */
	/* no MAD layer: the tests count every object of the device */
	im->core_cap_flags = RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
	return 0;
}

static const struct ib_device_ops mock_gid_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.query_device = mock_query_device,
	.query_port = mock_query_port,
	.get_port_immutable = mock_port_immutable,
};

/* a registered two-port device; drv_ops: the driver's GID ops or NULL */
static struct mock_gid_dev *mock_gid_register_ops(struct kunit *test,
						  const struct ib_device_ops *drv_ops)
{
	struct mock_gid_dev *m = ib_alloc_device(mock_gid_dev, ibdev);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	if (drv_ops)
		ib_set_device_ops(&m->ibdev, drv_ops);
	ib_set_device_ops(&m->ibdev, &mock_gid_ops);
	m->ibdev.phys_port_cnt = 2;
	KUNIT_ASSERT_EQ(test, ib_register_device(&m->ibdev, "kgid%d", NULL), 0);
	return m;
}

static struct mock_gid_dev *mock_gid_register(struct kunit *test)
{
	return mock_gid_register_ops(test, NULL);
}

static void mock_gid_destroy(struct mock_gid_dev *m)
{
	ib_unregister_device(&m->ibdev);
	ib_dealloc_device(&m->ibdev);
}

static void make_gid(union ib_gid *gid, u8 last)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0x20;
	gid->raw[1] = 0x01;
	gid->raw[15] = last;
}

static void gid_cache_sizes_and_bad_args(struct kunit *test)
{
	struct mock_gid_dev *m = mock_gid_register(test);
	struct ib_device *d = &m->ibdev;
	struct rdma_gid_entry e;
	char name[IFNAMSIZ];
	union ib_gid gid;

	KUNIT_EXPECT_EQ(test, rdma_gid_table_len(d, 1), (u32)MOCK_GIDS);
	KUNIT_EXPECT_EQ(test, rdma_gid_table_len(d, 2), 0u);
	KUNIT_EXPECT_EQ(test, rdma_gid_table_len(d, 0), 0u);
	KUNIT_EXPECT_EQ(test, rdma_gid_table_len(d, 3), 0u);

	/* every slot starts empty: no netdev, so no default GID either */
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 1, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 1, 0, &e), -ENODATA);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 1, MOCK_GIDS - 1, &e),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_netdev_name(d, 1, 0, name),
			-ENODATA);
	/* bad port or index */
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 0, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 3, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 1, -1, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 1, MOCK_GIDS, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 2, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 1, MOCK_GIDS, &e), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 0, 0, &e), -EINVAL);
	make_gid(&gid, 1);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 0, &gid,
						 IB_GID_TYPE_ROCE_UDP_ENCAP, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &gid,
						 (enum ib_gid_type)7, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &gid,
						 IB_GID_TYPE_ROCE_UDP_ENCAP, -1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 2, &gid,
						 IB_GID_TYPE_ROCE_UDP_ENCAP, 1),
			-ENOSPC);
	memset(&gid, 0, sizeof(gid));
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &gid,
						 IB_GID_TYPE_ROCE_UDP_ENCAP, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_find_gid_entry(d, &gid, IB_GID_TYPE_ROCE_UDP_ENCAP,
						  0, &e), -ENOENT);
	mock_gid_destroy(m);
}

static void gid_cache_add_del_default(struct kunit *test)
{
	struct mock_gid_dev *m = mock_gid_register(test);
	struct ib_device *d = &m->ibdev;
	static const u8 mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	union ib_gid def, a, b, c, out;
	struct rdma_gid_entry e;
	int i;

	rdma_gid_default_from_mac(mac, def.raw);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_set_default(d, 1, &def,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), 0);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 1, 0, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out.raw, def.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, (int)out.raw[0], 0xfe);
	KUNIT_EXPECT_EQ(test, (int)out.raw[8], 0x50);

	make_gid(&a, 1);
	make_gid(&b, 2);
	make_gid(&c, 3);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &a,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), 0);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &b,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), 0);
	/* the same entry twice is refused; the other type is a twin */
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &b,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), -EEXIST);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &b, IB_GID_TYPE_ROCE, 5), 0);

	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 1, 1, &e), 0);
	KUNIT_EXPECT_EQ(test, memcmp(e.gid.raw, a.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, (int)e.gid_type, (int)IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, e.ndev_ifindex, 5);
	KUNIT_EXPECT_EQ(test, e.index, 1u);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 1, 3, &e), 0);
	KUNIT_EXPECT_EQ(test, (int)e.gid_type, (int)IB_GID_TYPE_ROCE);
	KUNIT_EXPECT_STREQ(test, rdma_gid_type_str(e.gid_type), "IB/RoCE v1");
	KUNIT_EXPECT_STREQ(test, rdma_gid_type_str(IB_GID_TYPE_ROCE_UDP_ENCAP),
			   "RoCE v2");

	/* find: by GID and type, on any port or one port */
	KUNIT_EXPECT_EQ(test, rdma_find_gid_entry(d, &b, IB_GID_TYPE_ROCE_UDP_ENCAP,
						  0, &e), 0);
	KUNIT_EXPECT_EQ(test, e.index, 2u);
	KUNIT_EXPECT_EQ(test, e.port, 1u);
	KUNIT_EXPECT_EQ(test, rdma_find_gid_entry(d, &b, IB_GID_TYPE_ROCE, 1, NULL), 0);
	KUNIT_EXPECT_EQ(test, rdma_find_gid_entry(d, &b, IB_GID_TYPE_ROCE, 2, NULL),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, rdma_find_gid_entry(d, &c, IB_GID_TYPE_ROCE_UDP_ENCAP,
						  0, NULL), -ENOENT);

	/* delete: the slot empties and is the first reused */
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_del(d, 1, &a,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), 0);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_del(d, 1, &a,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), -ENOENT);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 1, 1, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 1, 1, &e), -ENODATA);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &c,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), 0);
	KUNIT_EXPECT_EQ(test, rdma_find_gid_entry(d, &c, IB_GID_TYPE_ROCE_UDP_ENCAP,
						  1, &e), 0);
	KUNIT_EXPECT_EQ(test, e.index, 1u);

	/* fill up: -ENOSPC once every slot from 1 is taken */
	for (i = 10; i < 10 + MOCK_GIDS; i++) {
		make_gid(&out, (u8)i);
		if (rdma_gid_cache_add(d, 1, &out, IB_GID_TYPE_ROCE_UDP_ENCAP,
				       5))
			break;
	}
	KUNIT_EXPECT_EQ(test, i, 10 + MOCK_GIDS - 4);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &out,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), -ENOSPC);

	/* flush empties everything, the default included */
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_flush_port(d, 1), (u32)MOCK_GIDS);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(d, 1, 0, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_flush_port(d, 1), 0u);
	mock_gid_destroy(m);
}

struct gid_events {
	struct ib_event_handler h;
	atomic_t gid_change;
	atomic_t other;
	u32 last_port;
};

static void count_event(struct ib_event_handler *h, struct ib_event *ev)
{
	struct gid_events *g = container_of(h, struct gid_events, h);

	if (ev->event == IB_EVENT_GID_CHANGE) {
		atomic_inc(&g->gid_change);
		WRITE_ONCE(g->last_port, ev->element.port_num);
	} else {
		atomic_inc(&g->other);
	}
}

static void gid_cache_change_events(struct kunit *test)
{
	struct mock_gid_dev *m = mock_gid_register(test);
	struct gid_events g = {};
	union ib_gid a;

	INIT_IB_EVENT_HANDLER(&g.h, &m->ibdev, count_event);
	ib_register_event_handler(&g.h);
	make_gid(&a, 1);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(&m->ibdev, 1, &a,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), 0);
	/* writers announce a batch themselves, once */
	KUNIT_EXPECT_EQ(test, atomic_read(&g.gid_change), 0);
	rdma_gid_changed(&m->ibdev, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.gid_change), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(g.last_port), 1u);
	rdma_gid_changed(&m->ibdev, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.gid_change), 2);
	KUNIT_EXPECT_EQ(test, READ_ONCE(g.last_port), 2u);
	KUNIT_EXPECT_EQ(test, atomic_read(&g.other), 0);
	ib_unregister_event_handler(&g.h);
	mock_gid_destroy(m);
}

/* An unregistered device has no table; a re-registered one a fresh one. */
static void gid_cache_reregister(struct kunit *test)
{
	struct mock_gid_dev *m = mock_gid_register(test);
	union ib_gid a, out;

	make_gid(&a, 1);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(&m->ibdev, 1, &a,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), 0);
	ib_unregister_device(&m->ibdev);
	KUNIT_EXPECT_EQ(test, rdma_gid_table_len(&m->ibdev, 1), 0u);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&m->ibdev, 1, 1, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(&m->ibdev, 1, &a,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 5), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_register_device(&m->ibdev, "kgid%d", NULL), 0);
	KUNIT_EXPECT_EQ(test, rdma_gid_table_len(&m->ibdev, 1), (u32)MOCK_GIDS);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(&m->ibdev, 1, 1, &out), -EINVAL);
	mock_gid_destroy(m);
}

/* ---- ops.add_gid/del_gid: what the driver is told, and when */

#define DRV_REFUSED_GID	0xee	/* add_gid refuses a GID ending in this */

static struct {
	u32 adds, dels;
	u16 last_index;
	u32 last_port;
	enum ib_gid_type last_type;
	u8 last_byte;
	bool ctx_null_at_add;
	void *ctx_at_del;
	bool visible_at_add;	/* the entry was already in the table */
	bool visible_at_del;	/* ... still in the table */
	unsigned long live;	/* bitmap of indexes the driver holds */
} drv;

static int drv_add_gid(const struct ib_gid_attr *attr, void **context)
{
	struct rdma_gid_entry e;

	drv.last_index = attr->index;
	drv.last_port = attr->port_num;
	drv.last_type = attr->gid_type;
	drv.last_byte = attr->gid.raw[15];
	drv.ctx_null_at_add = !*context;
	drv.visible_at_add = !rdma_query_gid_entry((struct ib_device *)attr->device,
						   attr->port_num, attr->index, &e);
	might_sleep();
	if (attr->gid.raw[15] == DRV_REFUSED_GID)
		return -EIO;
	drv.adds++;
	__set_bit(attr->index, &drv.live);
	*context = &drv;
	return 0;
}

static int drv_del_gid(const struct ib_gid_attr *attr, void **context)
{
	struct rdma_gid_entry e;

	drv.dels++;
	drv.last_index = attr->index;
	drv.last_byte = attr->gid.raw[15];
	drv.ctx_at_del = *context;
	drv.visible_at_del = !rdma_query_gid_entry((struct ib_device *)attr->device,
						   attr->port_num, attr->index, &e);
	__clear_bit(attr->index, &drv.live);
	return 0;
}

static const struct ib_device_ops mock_gid_drv_ops = {
	.add_gid = drv_add_gid,
	.del_gid = drv_del_gid,
};

static void gid_cache_driver_ops(struct kunit *test)
{
	const enum ib_gid_type v2 = IB_GID_TYPE_ROCE_UDP_ENCAP;
	struct mock_gid_dev *m;
	struct ib_device *d;
	struct rdma_gid_entry e;
	union ib_gid gid;

	memset(&drv, 0, sizeof(drv));
	m = mock_gid_register_ops(test, &mock_gid_drv_ops);
	d = &m->ibdev;

	/* an add reaches the driver first, at the slot it will take */
	make_gid(&gid, 1);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &gid, v2, 5), 0);
	KUNIT_EXPECT_EQ(test, drv.adds, 1u);
	KUNIT_EXPECT_EQ(test, drv.last_index, 1);
	KUNIT_EXPECT_EQ(test, drv.last_port, 1u);
	KUNIT_EXPECT_EQ(test, (int)drv.last_type, (int)v2);
	KUNIT_EXPECT_TRUE(test, drv.ctx_null_at_add);
	KUNIT_EXPECT_FALSE(test, drv.visible_at_add);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 1, 1, &e), 0);
	/* a duplicate does not reach it */
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &gid, v2, 5), -EEXIST);
	KUNIT_EXPECT_EQ(test, drv.adds, 1u);

	/* the driver refuses: the entry stays out, its slot stays free */
	make_gid(&gid, DRV_REFUSED_GID);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &gid, v2, 5), -EIO);
	KUNIT_EXPECT_EQ(test, rdma_find_gid_entry(d, &gid, v2, 1, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, rdma_query_gid_entry(d, 1, 2, &e), -ENODATA);
	make_gid(&gid, 2);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &gid, v2, 5), 0);
	KUNIT_EXPECT_EQ(test, drv.last_index, 2);

	/* the default goes to slot 0; replacing it is a del and an add */
	make_gid(&gid, 3);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_set_default(d, 1, &gid, v2, 5), 0);
	KUNIT_EXPECT_EQ(test, drv.last_index, 0);
	KUNIT_EXPECT_EQ(test, drv.adds, 3u);
	make_gid(&gid, 4);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_set_default(d, 1, &gid, v2, 5), 0);
	KUNIT_EXPECT_EQ(test, drv.dels, 1u);
	KUNIT_EXPECT_EQ(test, drv.adds, 4u);
	KUNIT_EXPECT_EQ(test, drv.live, 0x7ul);

	/* a del reaches the driver after the entry left, with its context */
	make_gid(&gid, 1);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_del(d, 1, &gid, v2, 5), 0);
	KUNIT_EXPECT_EQ(test, drv.dels, 2u);
	KUNIT_EXPECT_EQ(test, drv.last_index, 1);
	KUNIT_EXPECT_EQ(test, drv.last_byte, 1);
	KUNIT_EXPECT_PTR_EQ(test, drv.ctx_at_del, (void *)&drv);
	KUNIT_EXPECT_FALSE(test, drv.visible_at_del);
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_del(d, 1, &gid, v2, 5), -ENOENT);
	KUNIT_EXPECT_EQ(test, drv.dels, 2u);

	/* port 2 has no table: nothing reaches the driver */
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 2, &gid, v2, 5), -ENOSPC);
	KUNIT_EXPECT_EQ(test, drv.adds, 4u);

	/* unregistration tells the driver about every entry left */
	KUNIT_EXPECT_EQ(test, drv.live, 0x5ul);
	mock_gid_destroy(m);
	KUNIT_EXPECT_EQ(test, drv.live, 0ul);
	KUNIT_EXPECT_EQ(test, drv.dels, 4u);
}

/* flushing a port clears each entry in the driver too */
static void gid_cache_driver_flush(struct kunit *test)
{
	const enum ib_gid_type v2 = IB_GID_TYPE_ROCE_UDP_ENCAP;
	struct mock_gid_dev *m;
	struct ib_device *d;
	union ib_gid gid;
	u8 i;

	memset(&drv, 0, sizeof(drv));
	m = mock_gid_register_ops(test, &mock_gid_drv_ops);
	d = &m->ibdev;
	for (i = 1; i <= 3; i++) {
		make_gid(&gid, i);
		KUNIT_EXPECT_EQ(test, rdma_gid_cache_add(d, 1, &gid, v2, 5), 0);
	}
	KUNIT_EXPECT_EQ(test, rdma_gid_cache_flush_port(d, 1), 3u);
	KUNIT_EXPECT_EQ(test, drv.dels, 3u);
	KUNIT_EXPECT_EQ(test, drv.live, 0ul);
	mock_gid_destroy(m);
	KUNIT_EXPECT_EQ(test, drv.dels, 3u);
}

static struct kunit_case gid_cache_cases[] = {
	KUNIT_CASE(gid_cache_driver_ops),
	KUNIT_CASE(gid_cache_driver_flush),
	KUNIT_CASE(gid_cache_sizes_and_bad_args),
	KUNIT_CASE(gid_cache_add_del_default),
	KUNIT_CASE(gid_cache_change_events),
	KUNIT_CASE(gid_cache_reregister),
	{}
};

static struct kunit_suite gid_cache_suite = {
	.name = "ib_core_gid_cache",
	.test_cases = gid_cache_cases,
};
kunit_test_suite(gid_cache_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests for the ib_core GID cache");
