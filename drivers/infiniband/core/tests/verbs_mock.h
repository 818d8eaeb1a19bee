/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A mock RDMA driver for the verbs tests (verbs_kunit.c) and the
 * "rdma res" demo module (verbs_res_demo.c): one RoCE port without a
 * netdev, every verbs object core allocates (INIT_RDMA_OBJ_SIZE), MRs with
 * a small page list filled through ib_sg_to_pages(), and a modify_qp that
 * counts its calls and answers what the test asks.
 */
#ifndef _VERBS_MOCK_H
#define _VERBS_MOCK_H

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

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
	/* no MAD layer: the tests count every object of the device */
	im->core_cap_flags = RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
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

/* in place like rxe (it sets ->pd itself), or a replacement for ACCESS */
static struct ib_mr *mock_rereg_user_mr(struct ib_mr *ibmr, int flags,
					u64 start, u64 length, u64 virt_addr,
					int access, struct ib_pd *pd,
					struct ib_udata *udata)
{
	struct mock_mr *mr;

	if (!(flags & IB_MR_REREG_ACCESS)) {
		ibmr->pd = pd;
		return NULL;
	}
	mr = mock_mr_new(0);
	return mr ? &mr->ibmr : (struct ib_mr *)ERR_PTR(-ENOMEM);
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
	.rereg_user_mr = mock_rereg_user_mr,
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

/* A registered mock device named after @fmt ("kverbs%d"), or NULL. */
static struct mock_dev *mock_dev_create(const char *fmt)
{
	struct mock_dev *m = ib_alloc_device(mock_dev, ibdev);

	if (!m)
		return NULL;
	ib_set_device_ops(&m->ibdev, &mock_verbs_ops);
	m->ibdev.phys_port_cnt = 1;
	m->ibdev.attrs.max_qp_wr = 64;
	m->ibdev.attrs.max_send_sge = 4;
	m->ibdev.attrs.max_recv_sge = 4;
	m->ibdev.attrs.max_cqe = 128;
	m->next_qpn = 17;
	if (ib_register_device(&m->ibdev, fmt, NULL)) {
		ib_dealloc_device(&m->ibdev);
		return NULL;
	}
	return m;
}

static void mock_destroy(struct mock_dev *m)
{
	ib_unregister_device(&m->ibdev);
	ib_dealloc_device(&m->ibdev);
}

#endif /* _VERBS_MOCK_H */
