// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite for core's verbs objects on a mock driver: use counts and
 * -EBUSY, restrack counts, the QP state machine enforced before the
 * driver is called, address-vector checks and MAC resolution, the page
 * lists ib_map_mr_sg()/ib_sg_to_pages() build, and umem argument checks
 * (RLIMIT_MEMLOCK needs a user process: selftests).
 */
#include <kunit/test.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <linux/etherdevice.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_umem.h>

#define MOCK_GIDS	8
#define MOCK_PAGES	8

struct mock_dev {
	struct ib_device ibdev;
	int modify_calls;
	int modify_ret;		/* what the driver's modify_qp answers */
	int ah_calls;
	u32 next_qpn;
};

struct mock_pd { struct ib_pd ibpd; };
struct mock_cq { struct ib_cq ibcq; };
struct mock_srq { struct ib_srq ibsrq; };
struct mock_qp { struct ib_qp ibqp; };
struct mock_ah { struct ib_ah ibah; };

struct mock_mr {
	struct ib_mr ibmr;
	u64 pages[MOCK_PAGES];
	int npages;
	int max_pages;
};

static struct mock_dev *to_mock(struct ib_device *d)
{
	return container_of(d, struct mock_dev, ibdev);
}

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
	im->gid_tbl_len = MOCK_GIDS;
	im->pkey_tbl_len = 1;
	im->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	return 0;
}

static enum rdma_link_layer mock_link_layer(struct ib_device *dev, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int mock_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int mock_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static struct mock_mr *mock_mr_new(int max_pages)
{
	struct mock_mr *mr = (struct mock_mr *)kzalloc(sizeof(*mr), GFP_KERNEL);

	if (!mr)
		return NULL;
	mr->max_pages = max_pages;
	mr->ibmr.lkey = 0x100;
	mr->ibmr.rkey = 0x100;
	return mr;
}

static struct ib_mr *mock_get_dma_mr(struct ib_pd *pd, int access)
{
	struct mock_mr *mr = mock_mr_new(0);

	return mr ? &mr->ibmr : (struct ib_mr *)ERR_PTR(-ENOMEM);
}

static struct ib_mr *mock_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
				   u32 max_num_sg)
{
	struct mock_mr *mr = mock_mr_new(min_t(u32, max_num_sg, MOCK_PAGES));

	return mr ? &mr->ibmr : (struct ib_mr *)ERR_PTR(-ENOMEM);
}

static int mock_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	kfree(container_of(ibmr, struct mock_mr, ibmr));
	return 0;
}

static int mock_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct mock_mr *mr = container_of(ibmr, struct mock_mr, ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

static int mock_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
			  int sg_nents, unsigned int *sg_offset)
{
	container_of(ibmr, struct mock_mr, ibmr)->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, mock_set_page);
}

static int mock_create_cq(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			  struct ib_udata *udata)
{
	cq->cqe = (int)attr->cqe;
	return 0;
}

static int mock_destroy_cq(struct ib_cq *cq, struct ib_udata *udata)
{
	return 0;
}

static int mock_create_srq(struct ib_srq *srq, struct ib_srq_init_attr *init,
			   struct ib_udata *udata)
{
	return 0;
}

static int mock_destroy_srq(struct ib_srq *srq, struct ib_udata *udata)
{
	return 0;
}

static int mock_create_qp(struct ib_qp *qp, struct ib_qp_init_attr *init,
			  struct ib_udata *udata)
{
	qp->qp_num = to_mock(qp->device)->next_qpn++;
	return 0;
}

static int mock_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr,
			  int attr_mask, struct ib_udata *udata)
{
	struct mock_dev *m = to_mock(qp->device);

	m->modify_calls++;
	return m->modify_ret;
}

static int mock_destroy_qp(struct ib_qp *qp, struct ib_udata *udata)
{
	return 0;
}

static int mock_create_ah(struct ib_ah *ah, struct rdma_ah_init_attr *init,
			  struct ib_udata *udata)
{
	to_mock(ah->device)->ah_calls++;
	return 0;
}

static int mock_destroy_ah(struct ib_ah *ah, u32 flags)
{
	return 0;
}

static const struct ib_device_ops mock_verbs_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.query_device = mock_query_device,
	.query_port = mock_query_port,
	.get_port_immutable = mock_port_immutable,
	.get_link_layer = mock_link_layer,
	.alloc_pd = mock_alloc_pd,
	.dealloc_pd = mock_dealloc_pd,
	.get_dma_mr = mock_get_dma_mr,
	.dereg_mr = mock_dereg_mr,
	.alloc_mr = mock_alloc_mr,
	.map_mr_sg = mock_map_mr_sg,
	.create_cq = mock_create_cq,
	.destroy_cq = mock_destroy_cq,
	.create_qp = mock_create_qp,
	.modify_qp = mock_modify_qp,
	.destroy_qp = mock_destroy_qp,
	.create_srq = mock_create_srq,
	.destroy_srq = mock_destroy_srq,
	.create_ah = mock_create_ah,
	.destroy_ah = mock_destroy_ah,
	INIT_RDMA_OBJ_SIZE(ib_pd, mock_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, mock_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, mock_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, mock_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ah, mock_ah, ibah),
};

static struct mock_dev *mock_register(struct kunit *test)
{
	struct mock_dev *m = ib_alloc_device(mock_dev, ibdev);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	ib_set_device_ops(&m->ibdev, &mock_verbs_ops);
	m->ibdev.phys_port_cnt = 1;
	m->ibdev.attrs.max_qp_wr = 64;
	m->ibdev.attrs.max_send_sge = 4;
	m->ibdev.attrs.max_recv_sge = 4;
	m->ibdev.attrs.max_cqe = 128;
	m->next_qpn = 17;
	KUNIT_ASSERT_EQ(test, ib_register_device(&m->ibdev, "kverbs%d", NULL), 0);
	return m;
}

static void mock_destroy(struct mock_dev *m)
{
	ib_unregister_device(&m->ibdev);
	ib_dealloc_device(&m->ibdev);
}

static struct ib_cq *make_cq(struct kunit *test, struct ib_device *d)
{
	struct ib_cq_init_attr ca = { .cqe = 16 };
	struct ib_cq *cq = ib_create_cq(d, NULL, NULL, NULL, &ca);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	return cq;
}

static struct ib_qp *make_qp(struct kunit *test, struct ib_pd *pd,
			     struct ib_cq *cq, struct ib_srq *srq,
			     enum ib_qp_type type)
{
	struct ib_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.qp_type = type,
	};
	struct ib_qp *qp = ib_create_qp(pd, &init);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	return qp;
}

static void verbs_refcounts(struct kunit *test)
{
	struct mock_dev *m = mock_register(test);
	struct ib_device *d = &m->ibdev;
	struct ib_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_srq *srq;
	struct ib_qp *qp;
	struct ib_mr *mr;

	pd = ib_alloc_pd(d, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	cq = make_cq(test, d);
	srq = ib_create_srq(pd, &sa);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	qp = make_qp(test, pd, cq, srq, IB_QPT_RC);
	mr = ib_get_dma_mr(pd, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);

	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_PD), 1u);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_CQ), 1u);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_QP), 1u);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_SRQ), 1u);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_MR), 1u);
	KUNIT_EXPECT_FALSE(test, qp->res.user);
	KUNIT_EXPECT_STREQ(test, qp->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_EQ(test, qp->res.id, 17u);

	/* busy while used, and still listed afterwards */
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq(cq), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq(srq), -EBUSY);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_PD), 1u);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq(srq), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq(cq), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_PD), 0u);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_CQ), 0u);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_QP), 0u);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_SRQ), 0u);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_MR), 0u);
	mock_destroy(m);
}

static void verbs_create_checks(struct kunit *test)
{
	struct mock_dev *m = mock_register(test);
	struct ib_device *d = &m->ibdev;
	struct ib_cq_init_attr ca = { .cqe = 0 };
	struct ib_qp_init_attr init = { .qp_type = IB_QPT_RC };
	struct ib_pd *pd = ib_alloc_pd(d, 0);
	struct ib_cq *cq;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(d, NULL, NULL, NULL, &ca)),
			-EINVAL);
	ca.cqe = 129;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_cq(d, NULL, NULL, NULL, &ca)),
			-EINVAL);
	cq = make_cq(test, d);
	/* CQs are required, caps are bounded, types are RC/UC/UD/GSI */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(pd, &init)), -EINVAL);
	init.send_cq = cq;
	init.recv_cq = cq;
	init.cap.max_send_wr = 65;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(pd, &init)), -EINVAL);
	init.cap.max_send_wr = 8;
	init.cap.max_recv_sge = 5;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(pd, &init)), -EINVAL);
	init.cap.max_recv_sge = 1;
	init.qp_type = IB_QPT_XRC_TGT;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(pd, &init)), -EOPNOTSUPP);
	init.qp_type = IB_QPT_GSI;
	init.port_num = 2;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(pd, &init)), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_QP), 0u);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_alloc_mr(pd, IB_MR_TYPE_USER, 4)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_get_dma_mr(pd, IB_ACCESS_REMOTE_WRITE)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq(cq), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), 0);
	mock_destroy(m);
}

static int modify_state(struct ib_qp *qp, enum ib_qp_state state, int mask)
{
	struct ib_qp_attr attr = {
		.qp_state = state,
		.port_num = 1,
		.qkey = 0x11111111,
	};

	return ib_modify_qp(qp, &attr, mask | IB_QP_STATE);
}

static void verbs_qp_state_machine(struct kunit *test)
{
	struct mock_dev *m = mock_register(test);
	struct ib_device *d = &m->ibdev;
	struct ib_pd *pd = ib_alloc_pd(d, 0);
	struct ib_qp_attr attr = {};
	struct ib_cq *cq;
	struct ib_qp *qp;
	const int init_mask = IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	cq = make_cq(test, d);
	qp = make_qp(test, pd, cq, NULL, IB_QPT_UD);
	KUNIT_EXPECT_EQ(test, (int)qp->state, (int)IB_QPS_RESET);

	/* illegal edges and missing attributes never reach the driver */
	KUNIT_EXPECT_EQ(test, modify_state(qp, IB_QPS_RTS, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, modify_state(qp, IB_QPS_INIT, IB_QP_PORT), -EINVAL);
	KUNIT_EXPECT_EQ(test, modify_state(qp, (enum ib_qp_state)9, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, m->modify_calls, 0);
	KUNIT_EXPECT_EQ(test, (int)qp->state, (int)IB_QPS_RESET);

	/* a bad port is refused by core */
	attr.qp_state = IB_QPS_INIT;
	attr.port_num = 2;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE | init_mask),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, m->modify_calls, 0);

	/* the driver refusing leaves the state alone */
	m->modify_ret = -EIO;
	KUNIT_EXPECT_EQ(test, modify_state(qp, IB_QPS_INIT, init_mask), -EIO);
	KUNIT_EXPECT_EQ(test, m->modify_calls, 1);
	KUNIT_EXPECT_EQ(test, (int)qp->state, (int)IB_QPS_RESET);
	m->modify_ret = 0;

	KUNIT_EXPECT_EQ(test, modify_state(qp, IB_QPS_INIT, init_mask), 0);
	KUNIT_EXPECT_EQ(test, (int)qp->state, (int)IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, qp->port, 1u);
	KUNIT_EXPECT_EQ(test, modify_state(qp, IB_QPS_RTR, 0), 0);
	KUNIT_EXPECT_EQ(test, modify_state(qp, IB_QPS_RTS, IB_QP_SQ_PSN), 0);
	KUNIT_EXPECT_EQ(test, (int)qp->state, (int)IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, m->modify_calls, 4);

	/* CUR_STATE must name the state core knows */
	attr.qp_state = IB_QPS_RTS;
	attr.cur_qp_state = IB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
					   IB_QP_STATE | IB_QP_CUR_STATE), -EINVAL);
	attr.cur_qp_state = IB_QPS_RTS;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr,
					   IB_QP_STATE | IB_QP_CUR_STATE), 0);

	/* the driver's own move is recorded; RESET from ERR is legal */
	ib_qp_state_changed(qp, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, (int)qp->state, (int)IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, modify_state(qp, IB_QPS_RTS, IB_QP_SQ_PSN), -EINVAL);
	KUNIT_EXPECT_EQ(test, modify_state(qp, IB_QPS_RESET, 0), 0);
	KUNIT_EXPECT_EQ(test, (int)qp->state, (int)IB_QPS_RESET);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq(cq), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), 0);
	mock_destroy(m);
}

/* A non-loopback netdev of init_net with an IPv4 address, held. */
static struct net_device *find_ipv4_netdev(__be32 *addr)
{
	struct net_device *found = NULL, *nd;
	struct in_device *in;

	rtnl_lock();
	for_each_netdev(&init_net, nd) {
		if (nd->flags & IFF_LOOPBACK || nd->addr_len != ETH_ALEN)
			continue;
		in = __in_dev_get_rtnl(nd);
		if (in && in->ifa_list) {
			*addr = rtnl_dereference(in->ifa_list)->ifa_local;
			dev_hold(nd);
			found = nd;
			break;
		}
	}
	rtnl_unlock();
	return found;
}

static void ah_attr_init(struct rdma_ah_attr *ah, u8 sgid_index,
			 const union ib_gid *dgid)
{
	memset(ah, 0, sizeof(*ah));
	ah->port_num = 1;
	ah->ah_flags = IB_AH_GRH;
	ah->grh.sgid_index = sgid_index;
	ah->grh.hop_limit = 64;
	ah->grh.dgid = *dgid;
}

static void verbs_ah_resolution(struct kunit *test)
{
	static const u8 mc_mac[ETH_ALEN] = { 0x33, 0x33, 0, 0, 0, 1 };
	struct mock_dev *m = mock_register(test);
	struct ib_device *d = &m->ibdev;
	struct ib_pd *pd = ib_alloc_pd(d, 0);
	struct rdma_ah_attr ah;
	union ib_gid v6 = {}, mc = {}, v4;
	struct net_device *nd;
	struct ib_ah *iah;
	__be32 addr;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	v6.raw[0] = 0xfe;
	v6.raw[1] = 0x80;
	v6.raw[15] = 1;
	mc.raw[0] = 0xff;
	mc.raw[1] = 0x02;
	mc.raw[15] = 1;
	/* slot 1: RoCEv2 on lo, slot 2: RoCE v1, slot 3: empty */
	KUNIT_ASSERT_EQ(test, rdma_gid_cache_add(d, 1, &v6,
			IB_GID_TYPE_ROCE_UDP_ENCAP, 1), 0);
	KUNIT_ASSERT_EQ(test, rdma_gid_cache_add(d, 1, &v6, IB_GID_TYPE_ROCE, 1), 0);

	/* no GRH on RoCE, bad port, empty slot, RoCE v1 slot */
	ah_attr_init(&ah, 1, &mc);
	ah.ah_flags = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_ah(pd, &ah, 0)), -EINVAL);
	ah_attr_init(&ah, 1, &mc);
	ah.port_num = 2;
	KUNIT_EXPECT_EQ(test, rdma_resolve_ah_attr(d, &ah), -EINVAL);
	ah_attr_init(&ah, 3, &mc);
	KUNIT_EXPECT_EQ(test, rdma_resolve_ah_attr(d, &ah), -EINVAL);
	ah_attr_init(&ah, 2, &mc);
	KUNIT_EXPECT_EQ(test, rdma_resolve_ah_attr(d, &ah), -EINVAL);
	KUNIT_EXPECT_EQ(test, m->ah_calls, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);

	/* multicast: the MAC follows from the GID */
	ah_attr_init(&ah, 1, &mc);
	iah = rdma_create_ah(pd, &ah, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, iah);
	KUNIT_EXPECT_EQ(test, (int)ah.type, (int)RDMA_AH_ATTR_TYPE_ROCE);
	KUNIT_EXPECT_EQ(test, (int)ah.sgid_attr.gid_type,
			(int)IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, ah.sgid_attr.ndev_ifindex, 1);
	KUNIT_EXPECT_EQ(test, memcmp(ah.roce.dmac, mc_mac, ETH_ALEN), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 1);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), -EBUSY);
	KUNIT_EXPECT_EQ(test, rdma_destroy_ah(iah, 0), 0);

	/* an address of this host: the MAC of the netdev that has it */
	nd = find_ipv4_netdev(&addr);
	if (nd) {
		rdma_gid_from_ipv4((const u8 *)&addr, v4.raw);
		KUNIT_ASSERT_EQ(test, rdma_gid_cache_add(d, 1, &v4,
				IB_GID_TYPE_ROCE_UDP_ENCAP, nd->ifindex), 0);
		ah_attr_init(&ah, 3, &v4);
		KUNIT_EXPECT_EQ(test, rdma_resolve_ah_attr(d, &ah), 0);
		KUNIT_EXPECT_EQ(test, memcmp(ah.roce.dmac, nd->dev_addr,
					     ETH_ALEN), 0);
		/* IPv4 source, IPv6 destination */
		ah_attr_init(&ah, 3, &v6);
		KUNIT_EXPECT_EQ(test, rdma_resolve_ah_attr(d, &ah), -EINVAL);
		dev_put(nd);
	} else {
		kunit_info(test, "no IPv4 netdev: local-address case not run");
	}
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), 0);
	mock_destroy(m);
}

static void sg_set(struct scatterlist *sg, u64 addr, unsigned int len)
{
	sg_dma_address(sg) = addr;
	sg_dma_len(sg) = len;
}

static int map(struct ib_mr *mr, struct scatterlist *sgl, int n,
	       unsigned int page_size, unsigned int *off)
{
	return ib_map_mr_sg(mr, sgl, n, off, page_size);
}

static void verbs_sg_to_pages(struct kunit *test)
{
	struct mock_dev *m = mock_register(test);
	struct ib_pd *pd = ib_alloc_pd(&m->ibdev, 0);
	struct scatterlist sgl[3];
	struct mock_mr *mm;
	struct ib_mr *mr;
	unsigned int off = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	mm = container_of(mr, struct mock_mr, ibmr);
	sg_init_table(sgl, 3);

	/* unaligned first and last entries, aligned middle */
	sg_set(&sgl[0], 0x10100, 0x1f00);
	sg_set(&sgl[1], 0x12000, 0x1000);
	sg_set(&sgl[2], 0x13000, 0x800);
	KUNIT_EXPECT_EQ(test, map(mr, sgl, 3, SZ_4K, &off), 3);
	KUNIT_EXPECT_EQ(test, mm->npages, 4);
	KUNIT_EXPECT_EQ(test, mm->pages[0], 0x10000ull);
	KUNIT_EXPECT_EQ(test, mm->pages[3], 0x13000ull);
	KUNIT_EXPECT_EQ(test, mr->iova, 0x10100ull);
	KUNIT_EXPECT_EQ(test, mr->length, 0x3700ull);
	KUNIT_EXPECT_EQ(test, mr->page_size, (unsigned int)SZ_4K);

	/* a gap (next entry starts inside a page, not where the last ended) */
	sg_set(&sgl[1], 0x20100, 0x1000);
	KUNIT_EXPECT_EQ(test, map(mr, sgl, 3, SZ_4K, NULL), 1);
	KUNIT_EXPECT_EQ(test, mm->npages, 2);
	/* first entry ending inside a page, next one elsewhere */
	sg_set(&sgl[0], 0x10000, 0x800);
	sg_set(&sgl[1], 0x30000, 0x1000);
	KUNIT_EXPECT_EQ(test, map(mr, sgl, 2, SZ_4K, NULL), 1);

	/* unaligned but contiguous entries share their page */
	sg_set(&sgl[0], 0x10000, 0x1800);
	sg_set(&sgl[1], 0x11800, 0x1800);
	KUNIT_EXPECT_EQ(test, map(mr, sgl, 2, SZ_4K, NULL), 2);
	KUNIT_EXPECT_EQ(test, mm->npages, 3);
	KUNIT_EXPECT_EQ(test, mm->pages[1], 0x11000ull);
	KUNIT_EXPECT_EQ(test, mm->pages[2], 0x12000ull);

	/* 2M pages */
	sg_set(&sgl[0], 0x201000, 0x1ff000);
	sg_set(&sgl[1], 0x600000, 0x200000);
	KUNIT_EXPECT_EQ(test, map(mr, sgl, 2, SZ_2M, NULL), 2);
	KUNIT_EXPECT_EQ(test, mm->npages, 2);
	KUNIT_EXPECT_EQ(test, mm->pages[0], 0x200000ull);
	KUNIT_EXPECT_EQ(test, mm->pages[1], 0x600000ull);
	KUNIT_EXPECT_EQ(test, mr->iova, 0x201000ull);

	/* the MR fills up: the offset says where to go on */
	sg_set(&sgl[0], 0x10000, 0x6000);
	off = 0;
	KUNIT_EXPECT_EQ(test, map(mr, sgl, 1, SZ_4K, &off), 0);
	KUNIT_EXPECT_EQ(test, mm->npages, 4);
	KUNIT_EXPECT_EQ(test, off, 0x4000u);

	KUNIT_EXPECT_EQ(test, map(mr, sgl, 1, 3000, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), 0);
	mock_destroy(m);
}

static void verbs_umem_args(struct kunit *test)
{
	/* argument checks come before any pinning or charging */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_get(NULL, 0x10000, 0, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_get(NULL, ULONG_MAX - 10, 100, 0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_get(NULL, 0x10000, 100,
						  IB_ACCESS_ON_DEMAND)),
			-EOPNOTSUPP);
	/* a kernel thread has no user memory */
	if (!current->mm)
		KUNIT_EXPECT_EQ(test, PTR_ERR(ib_umem_get(NULL, 0x10000, 100, 0)),
				-EFAULT);
	ib_umem_release(NULL);
}

static struct kunit_case verbs_cases[] = {
	KUNIT_CASE(verbs_refcounts),
	KUNIT_CASE(verbs_create_checks),
	KUNIT_CASE(verbs_qp_state_machine),
	KUNIT_CASE(verbs_ah_resolution),
	KUNIT_CASE(verbs_sg_to_pages),
	KUNIT_CASE(verbs_umem_args),
	{}
};

static struct kunit_suite verbs_suite = {
	.name = "ib_core_verbs",
	.test_cases = verbs_cases,
};
kunit_test_suite(verbs_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests of ib_core's verbs objects");
