// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite for RDMA devices and network namespaces, with a mock driver:
 * exclusive-mode visibility, moving a device (clients re-added, users
 * waited for, serialised with unregistration), and devices coming back to
 * init_net (or going away) when their namespace dies.
 *
 * It needs a second namespace, which a kernel test cannot make on its
 * own: the "netns" VM scenario switches to exclusive mode and starts a
 * process named HOLDER_COMM in a new namespace before loading this
 * module (KUnit runs a module's suites before its parameters are set, so
 * the test finds the process by name).  The last case kills that process
 * to make the namespace die.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#define HOLDER_COMM "rdmakunitns"

static pid_t netns_pid;

static pid_t find_holder(void)
{
	struct task_struct *p;
	pid_t pid = 0;

	rcu_read_lock();
	for_each_process(p)
		if (!strcmp(p->comm, HOLDER_COMM)) {
			pid = task_pid_vnr(p);
			break;
		}
	rcu_read_unlock();
	return pid;
}

struct mock_dev {
	struct ib_device ibdev;
	int *dealloc_calls;
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
	return 0;
}

static int mock_port_immutable(struct ib_device *dev, u32 port,
			       struct ib_port_immutable *im)
{
	im->gid_tbl_len = 4;
	im->pkey_tbl_len = 1;
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

static struct mock_dev *mock_register(struct kunit *test, const char *name,
				      struct net *net, bool movable)
{
	struct mock_dev *m = ib_alloc_device(mock_dev, ibdev);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	ib_set_device_ops(&m->ibdev, &mock_ops);
	m->ibdev.phys_port_cnt = 1;
	if (movable)
		m->ibdev.attrs.kernel_cap_flags |= IBK_ALLOW_NETNS_CHANGE;
	rdma_dev_set_net(&m->ibdev, net);
	KUNIT_ASSERT_EQ(test, ib_register_device(&m->ibdev, name, NULL), 0);
	return m;
}

static void mock_destroy(struct mock_dev *m)
{
	ib_unregister_device(&m->ibdev);
	ib_dealloc_device(&m->ibdev);
}

/* The second namespace, with a reference the test must put. */
static struct net *other_net(struct kunit *test)
{
	struct net *net;

	if (!netns_pid)
		netns_pid = find_holder();
	KUNIT_ASSERT_GT_MSG(test, netns_pid, 0,
			    "no process named " HOLDER_COMM " (see the netns scenario)");
	net = get_net_ns_by_pid(netns_pid);
	KUNIT_ASSERT_FALSE(test, IS_ERR(net));
	KUNIT_ASSERT_FALSE_MSG(test, net_eq(net, &init_net),
			       "netns_pid lives in init_net");
	return net;
}

/* Is @dev found by index from @net? */
static bool visible_from(struct ib_device *dev, struct net *net)
{
	struct ib_device *found = ib_device_get_by_index(net, dev->index);

	if (found)
		ib_device_put(found);
	return found == dev;
}

static void netns_mode_is_exclusive_and_fixed(struct kunit *test)
{
	struct net *net = other_net(test);

	KUNIT_EXPECT_FALSE(test, rdma_netns_shared());
	/* another namespace exists: the mode cannot change */
	KUNIT_EXPECT_EQ(test, rdma_set_netns_shared(true), -EBUSY);
	/* asking for the current mode is fine */
	KUNIT_EXPECT_EQ(test, rdma_set_netns_shared(false), 0);
	KUNIT_EXPECT_FALSE(test, rdma_netns_shared());
	put_net(net);
}

static void netns_born_in_namespace(struct kunit *test)
{
	struct net *net = other_net(test);
	struct mock_dev *m = mock_register(test, "kns_born", net, false);

	KUNIT_EXPECT_TRUE(test, net_eq(rdma_dev_net(&m->ibdev), net));
	KUNIT_EXPECT_FALSE(test, visible_from(&m->ibdev, &init_net));
	KUNIT_EXPECT_TRUE(test, visible_from(&m->ibdev, net));
	KUNIT_EXPECT_FALSE(test, rdma_dev_access_netns(&m->ibdev, &init_net));
	KUNIT_EXPECT_TRUE(test, rdma_dev_access_netns(&m->ibdev, net));
	mock_destroy(m);
	put_net(net);
}

/* ---- moves ---- */

static int adds, removes;
static struct net *added_in;

static int count_add(struct ib_device *dev)
{
	if (strncmp(dev->name, "kns_", 4))
		return -EOPNOTSUPP;
	adds++;
	added_in = rdma_dev_net(dev);
	return 0;
}

static void count_remove(struct ib_device *dev, void *data)
{
	removes++;
}

static struct ib_client count_client = {
	.name = "kunit_netns",
	.add = count_add,
	.remove = count_remove,
};

static void netns_move_readds_clients(struct kunit *test)
{
	struct net *net = other_net(test);
	struct mock_dev *m;
	struct ib_device *ref;
	u32 index;

	adds = 0;
	removes = 0;
	KUNIT_ASSERT_EQ(test, ib_register_client(&count_client), 0);
	m = mock_register(test, "kns_move", &init_net, true);
	index = m->ibdev.index;
	KUNIT_EXPECT_EQ(test, adds, 1);

	ref = ib_device_get_by_index(NULL, index);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	KUNIT_EXPECT_EQ(test, ib_device_move_net_put(ref, net), 0);
	KUNIT_EXPECT_EQ(test, removes, 1);
	KUNIT_EXPECT_EQ(test, adds, 2);
	KUNIT_EXPECT_TRUE(test, added_in == net);
	KUNIT_EXPECT_EQ(test, m->ibdev.index, index);
	KUNIT_EXPECT_STREQ(test, m->ibdev.name, "kns_move");
	KUNIT_EXPECT_FALSE(test, visible_from(&m->ibdev, &init_net));
	KUNIT_EXPECT_TRUE(test, visible_from(&m->ibdev, net));

	/* to where it already is: nothing happens */
	ref = ib_device_get_by_index(NULL, index);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	KUNIT_EXPECT_EQ(test, ib_device_move_net_put(ref, net), 0);
	KUNIT_EXPECT_EQ(test, removes, 1);
	KUNIT_EXPECT_EQ(test, adds, 2);

	/* and back */
	ref = ib_device_get_by_index(NULL, index);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	KUNIT_EXPECT_EQ(test, ib_device_move_net_put(ref, &init_net), 0);
	KUNIT_EXPECT_TRUE(test, visible_from(&m->ibdev, &init_net));
	KUNIT_EXPECT_FALSE(test, visible_from(&m->ibdev, net));
	KUNIT_EXPECT_EQ(test, adds, 3);

	mock_destroy(m);
	KUNIT_EXPECT_EQ(test, removes, 3);
	ib_unregister_client(&count_client);
	put_net(net);
}

struct move_work {
	struct work_struct work;
	struct ib_device *dev;	/* a use, consumed by the move */
	struct net *net;
	int ret;
	struct completion done;
};

static void move_fn(struct work_struct *w)
{
	struct move_work *mw = container_of(w, struct move_work, work);

	mw->ret = ib_device_move_net_put(mw->dev, mw->net);
	complete(&mw->done);
}

static void netns_move_waits_for_users(struct kunit *test)
{
	struct net *net = other_net(test);
	struct mock_dev *m = mock_register(test, "kns_wait", &init_net, true);
	struct ib_device *user;
	struct move_work mw;

	user = ib_device_get_by_index(NULL, m->ibdev.index);
	KUNIT_ASSERT_NOT_NULL(test, user);
	INIT_WORK_ONSTACK(&mw.work, move_fn);
	mw.dev = ib_device_get_by_index(NULL, m->ibdev.index);
	KUNIT_ASSERT_NOT_NULL(test, mw.dev);
	mw.net = net;
	init_completion(&mw.done);
	schedule_work(&mw.work);

	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&mw.done,
						msecs_to_jiffies(300)), 0UL);
	/* out of service meanwhile: not found from anywhere */
	KUNIT_EXPECT_FALSE(test, visible_from(&m->ibdev, &init_net));
	KUNIT_EXPECT_FALSE(test, visible_from(&m->ibdev, net));
	ib_device_put(user);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&mw.done,
						msecs_to_jiffies(30000)), 0UL);
	flush_work(&mw.work);
	destroy_work_on_stack(&mw.work);
	KUNIT_EXPECT_EQ(test, mw.ret, 0);
	KUNIT_EXPECT_TRUE(test, visible_from(&m->ibdev, net));
	mock_destroy(m);
	put_net(net);
}

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

/* A move that loses against an unregistration finds the device gone. */
static void netns_move_after_unregister(struct kunit *test)
{
	struct net *net = other_net(test);
	struct mock_dev *m = mock_register(test, "kns_gone", &init_net, true);
	struct unreg_work uw;
	struct ib_device *ref;

	ref = ib_device_get_by_index(NULL, m->ibdev.index);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	INIT_WORK_ONSTACK(&uw.work, unreg_fn);
	uw.dev = &m->ibdev;
	init_completion(&uw.done);
	schedule_work(&uw.work);
	/* the unregistration holds unreg_mutex, waiting for our use */
	msleep(100);
	KUNIT_EXPECT_EQ(test, ib_device_move_net_put(ref, net), -ENODEV);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&uw.done,
						msecs_to_jiffies(30000)), 0UL);
	flush_work(&uw.work);
	destroy_work_on_stack(&uw.work);
	ib_dealloc_device(&m->ibdev);
	put_net(net);
}

/*
 * Last: the namespace dies.  A movable device comes back to init_net, an
 * unmovable one is unregistered and freed by ib_core.
 */
static void netns_exit_returns_or_removes(struct kunit *test)
{
	struct net *net = other_net(test);
	struct mock_dev *movable = mock_register(test, "kns_back", net, true);
	struct mock_dev *fixed = mock_register(test, "kns_fixed", net, false);
	int fixed_deallocs = 0;
	int i, ret;

	fixed->dealloc_calls = &fixed_deallocs;
	put_net(net);
	rcu_read_lock();
	ret = kill_pid(find_vpid(netns_pid), SIGKILL, 1);
	rcu_read_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);

	/* cleanup_net runs from a workqueue once the last user is gone */
	for (i = 0; i < 600; i++) {
		if (net_eq(rdma_dev_net(&movable->ibdev), &init_net) &&
		    READ_ONCE(fixed_deallocs))
			break;
		msleep(100);
	}
	KUNIT_EXPECT_TRUE(test, net_eq(rdma_dev_net(&movable->ibdev), &init_net));
	KUNIT_EXPECT_TRUE(test, visible_from(&movable->ibdev, &init_net));
	KUNIT_EXPECT_EQ(test, fixed_deallocs, 1);
	if (!fixed_deallocs)	/* the namespace did not die: clean up */
		mock_destroy(fixed);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("kns_fixed",
						      RDMA_DRIVER_UNKNOWN));
	mock_destroy(movable);
}

static struct kunit_case netns_cases[] = {
	KUNIT_CASE(netns_mode_is_exclusive_and_fixed),
	KUNIT_CASE(netns_born_in_namespace),
	KUNIT_CASE(netns_move_readds_clients),
	KUNIT_CASE(netns_move_waits_for_users),
	KUNIT_CASE(netns_move_after_unregister),
	KUNIT_CASE(netns_exit_returns_or_removes),
	{}
};

static struct kunit_suite netns_suite = {
	.name = "ib_core_netns",
	.test_cases = netns_cases,
};
kunit_test_suite(netns_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests for RDMA devices in network namespaces");
