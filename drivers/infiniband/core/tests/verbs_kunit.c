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
#include "verbs_mock.h"

static struct mock_dev *mock_register(struct kunit *test)
{
	struct mock_dev *m = mock_dev_create("kverbs%d");

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	return m;
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
	/* a kernel PD has an lkey for all of memory, from an MR of its own */
	KUNIT_EXPECT_NOT_NULL(test, pd->internal_mr);
	KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, 0x100u);
	cq = make_cq(test, d);
	srq = ib_create_srq(pd, &sa);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	qp = make_qp(test, pd, cq, srq, IB_QPT_RC);
	mr = ib_get_dma_mr(pd, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);

	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_PD, false), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_CQ, false), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_QP, false), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_SRQ, false), 1);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_MR, false), 1);
	KUNIT_EXPECT_FALSE(test, qp->res.user);
	KUNIT_EXPECT_STREQ(test, qp->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_EQ(test, qp->res.id, 17u);

	/* busy while used, and still listed afterwards */
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq(cq), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq(srq), -EBUSY);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_PD, false), 1);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_srq(srq), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_cq(cq), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), -EBUSY);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_PD, false), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_CQ, false), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_QP, false), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_SRQ, false), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_MR, false), 0);
	mock_destroy(m);
}

static void verbs_rereg_moves_pd(struct kunit *test)
{
	struct mock_dev *m = mock_register(test);
	struct ib_pd *pd1 = ib_alloc_pd(&m->ibdev, 0);
	struct ib_pd *pd2 = ib_alloc_pd(&m->ibdev, 0);
	struct ib_mr *mr, *nmr = NULL;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd2);
	mr = ib_get_dma_mr(pd1, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, ib_rereg_user_mr(mr, 0, 0, 0, 0, 0, pd2, NULL,
					       &nmr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_rereg_user_mr(mr, IB_MR_REREG_PD, 0, 0, 0, 0,
					       NULL, NULL, &nmr), -EINVAL);

	/* in place: the use moves with the MR */
	KUNIT_EXPECT_EQ(test, ib_rereg_user_mr(mr, IB_MR_REREG_PD, 0, 0, 0, 0,
					       pd2, NULL, &nmr), 0);
	KUNIT_EXPECT_PTR_EQ(test, nmr, (struct ib_mr *)NULL);
	KUNIT_EXPECT_PTR_EQ(test, mr->pd, pd2);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd1->usecnt), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd2->usecnt), 1);

	/* a replacement MR on pd1; the old one is gone from pd2 */
	KUNIT_EXPECT_EQ(test, ib_rereg_user_mr(mr, IB_MR_REREG_PD |
					       IB_MR_REREG_ACCESS, 0, 0, 0,
					       IB_ACCESS_LOCAL_WRITE, pd1, NULL,
					       &nmr), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nmr);
	KUNIT_EXPECT_PTR_EQ(test, nmr->pd, pd1);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd1->usecnt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd2->usecnt), 0);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(&m->ibdev, RDMA_RESTRACK_MR,
						  false), 1);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(nmr), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd1), 0);
	KUNIT_EXPECT_EQ(test, ib_dealloc_pd(pd2), 0);
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
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(d, RDMA_RESTRACK_QP, false), 0);
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
	KUNIT_EXPECT_EQ(test, rdma_resolve_ah_attr(d, &ah), -ENODATA);
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
	rdma_destroy_ah(iah, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pd->usecnt), 0);

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
		/* the kunit scenario gives the VM one (kunit-v4) */
		KUNIT_FAIL(test, "no non-loopback netdev with an IPv4 address");
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

static void verbs_udata_bounds(struct kunit *test)
{
	struct ib_udata udata = {};
	u8 buf[16];

	/* nothing sent: the driver reads zeroes, no user access is made */
	memset(buf, 0xa5, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ib_copy_from_udata(buf, &udata, sizeof(buf)), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0, sizeof(buf)));
	/* no room: nothing is written */
	KUNIT_EXPECT_EQ(test, ib_copy_to_udata(&udata, buf, sizeof(buf)), 0);
	/* a user buffer that is not there still faults */
	udata.inbuf = u64_to_user_ptr(0x10ULL);
	udata.inlen = 8;
	udata.outbuf = u64_to_user_ptr(0x10ULL);
	udata.outlen = 8;
	KUNIT_EXPECT_EQ(test, ib_copy_from_udata(buf, &udata, sizeof(buf)),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, ib_copy_to_udata(&udata, buf, sizeof(buf)),
			-EFAULT);
}

static struct kunit_case verbs_cases[] = {
	KUNIT_CASE(verbs_refcounts),
	KUNIT_CASE(verbs_rereg_moves_pd),
	KUNIT_CASE(verbs_create_checks),
	KUNIT_CASE(verbs_qp_state_machine),
	KUNIT_CASE(verbs_ah_resolution),
	KUNIT_CASE(verbs_sg_to_pages),
	KUNIT_CASE(verbs_umem_args),
	KUNIT_CASE(verbs_udata_bounds),
	{}
};

static struct kunit_suite verbs_suite = {
	.name = "ib_core_verbs",
	.test_cases = verbs_cases,
};
kunit_test_suite(verbs_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests of ib_core's verbs objects");
