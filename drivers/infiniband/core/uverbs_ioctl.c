// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ioctl(RDMA_VERBS_IOCTL) on /dev/infiniband/uverbsN: the GID queries
 * (DEVICE QUERY_GID_ENTRY and QUERY_GID_TABLE) and nothing else.  Every
 * other object/method answers EPROTONOSUPPORT, so libibverbs keeps using
 * write() for the verbs it serves there (uverbs_ioctl_check.h); the GID
 * queries spare it three sysfs files per entry.  The header and attribute
 * rules are pure logic in uverbs_ioctl_check.c; this is the glue.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_cache.h>

#include "uverbs.h"
#include "uverbs_ioctl_check.h"

struct uverbs_ioctl_req {
	struct ib_device *dev;
	struct ib_uverbs_attr *attrs;		/* kernel copy */
	struct ib_uverbs_attr __user *uattrs;	/* the user's array */
	struct uverbs_ioctl_args args;
};

static const struct ib_uverbs_attr *req_attr(const struct uverbs_ioctl_req *r,
					     unsigned int pos)
{
	s16 at = r->args.at[pos];

	return at < 0 ? NULL : &r->attrs[at];
}

/* mark output attribute @pos written, in the user's array */
static int req_mark(struct uverbs_ioctl_req *r, unsigned int pos)
{
	u16 flags = req_attr(r, pos)->flags | UVERBS_ATTR_F_VALID_OUTPUT;

	return put_user(flags, &r->uattrs[r->args.at[pos]].flags) ? -EFAULT : 0;
}

/* copy @len bytes to output attribute @pos and mark it written */
static int req_out(struct uverbs_ioctl_req *r, unsigned int pos,
		   const void *src, size_t len)
{
	if (copy_to_user(u64_to_user_ptr(req_attr(r, pos)->data), src, len))
		return -EFAULT;
	return req_mark(r, pos);
}

static void gid_entry_to_user(const struct rdma_gid_entry *e,
			      struct ib_uverbs_gid_entry *u)
{
	memset(u, 0, sizeof(*u));
	memcpy(u->gid, e->gid.raw, sizeof(u->gid));
	u->gid_index = e->index;
	u->port_num = e->port;
	u->gid_type = (u32)e->gid_type;
	u->netdev_ifindex = e->ndev_ifindex > 0 ? (u32)e->ndev_ifindex : 0;
}

/* positions in the method table rows of uverbs_ioctl_check.c */
enum { GE_PORT, GE_INDEX, GE_FLAGS, GE_RESP };
enum { GT_ENTRY_SIZE, GT_FLAGS, GT_RESP_ENTRIES, GT_RESP_NUM };

static int query_gid_entry(struct uverbs_ioctl_req *r)
{
	u64 port = uverbs_ioctl_inline(req_attr(r, GE_PORT));
	u64 index = uverbs_ioctl_inline(req_attr(r, GE_INDEX));
	const struct ib_uverbs_attr *resp = req_attr(r, GE_RESP);
	struct ib_uverbs_gid_entry u;
	struct rdma_gid_entry e;
	int ret;

	if (uverbs_ioctl_inline(req_attr(r, GE_FLAGS)))
		return -EINVAL;
	if (!port || port > r->dev->phys_port_cnt || index > INT_MAX)
		return -EINVAL;
	ret = rdma_query_gid_entry(r->dev, (u32)port, (int)index, &e);
	if (ret)
		return ret;	/* -ENODATA: an empty entry */
	gid_entry_to_user(&e, &u);
	/* a longer buffer gets zeros past the entry */
	if (resp->len > sizeof(u) &&
	    clear_user(u64_to_user_ptr(resp->data + sizeof(u)), resp->len - sizeof(u)))
		return -EFAULT;
	return req_out(r, GE_RESP, &u, sizeof(u));
}

static int query_gid_table(struct uverbs_ioctl_req *r)
{
	const struct ib_uverbs_attr *flags = req_attr(r, GT_FLAGS);
	const struct ib_uverbs_attr *resp = req_attr(r, GT_RESP_ENTRIES);
	u64 esize = uverbs_ioctl_inline(req_attr(r, GT_ENTRY_SIZE));
	struct ib_uverbs_gid_entry *ents;
	struct rdma_gid_entry e;
	u32 max, cap, n = 0, total = 0, port, i, len;
	size_t copy;
	u64 num;
	int ret;

	if (flags && uverbs_ioctl_inline(flags))
		return -EINVAL;
	ret = uverbs_gid_table_fit(esize, resp->len, &max);
	if (ret)
		return ret;
	rdma_for_each_port(r->dev, port)
		total += rdma_gid_table_len(r->dev, port);
	if (!total)
		return -EINVAL;
	cap = min(max, total);
	ents = (struct ib_uverbs_gid_entry *)kvcalloc(cap, sizeof(*ents),
						      GFP_KERNEL | __GFP_ACCOUNT);
	if (!ents)
		return -ENOMEM;
	ret = 0;
	rdma_for_each_port(r->dev, port) {
		len = rdma_gid_table_len(r->dev, port);
		for (i = 0; i < len; i++) {
			if (rdma_query_gid_entry(r->dev, port, (int)i, &e))
				continue;	/* empty */
			if (n == cap) {
				ret = -EINVAL;	/* more entries than the buffer holds */
				goto out;
			}
			gid_entry_to_user(&e, &ents[n++]);
		}
	}
	/* entries at the user's stride: cut or padded with zeros */
	copy = min_t(size_t, (size_t)esize, sizeof(*ents));
	for (i = 0; i < n; i++) {
		void __user *dst = u64_to_user_ptr(resp->data + (u64)i * esize);

		if (copy_to_user(dst, &ents[i], copy) ||
		    (esize > copy && clear_user((u8 __user *)dst + copy, (size_t)esize - copy))) {
			ret = -EFAULT;
			goto out;
		}
	}
	ret = req_mark(r, GT_RESP_ENTRIES);
	if (ret)
		goto out;
	num = n;
	ret = req_out(r, GT_RESP_NUM, &num, sizeof(num));
out:
	kvfree(ents);
	return ret;
}

static int uverbs_ioctl_run(struct uverbs_file *file, struct ib_device *dev,
			    const struct ib_uverbs_ioctl_hdr *hdr,
			    struct uverbs_ioctl_req *r)
{
	int ret;

	if (hdr->driver_id != (u32)dev->ops.driver_id)
		return -EINVAL;
	ret = uverbs_ioctl_check_attrs(r->args.m, r->attrs, hdr->num_attrs,
				       &r->args);
	if (ret)
		return ret;
	/* as upstream: the device methods answer within a context */
	if (!smp_load_acquire(&file->ucontext))
		return -EINVAL;
	r->dev = dev;
	if (hdr->method_id == UVERBS_METHOD_QUERY_GID_ENTRY)
		return query_gid_entry(r);
	return query_gid_table(r);
}

long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct uverbs_file *file = (struct uverbs_file *)filp->private_data;
	struct ib_uverbs_ioctl_hdr __user *uhdr =
		(struct ib_uverbs_ioctl_hdr __user *)arg;
	struct uverbs_device *udev = file->udev;
	struct ib_uverbs_ioctl_hdr hdr;
	struct uverbs_ioctl_req r = {};
	size_t alen;
	long ret;

	if (cmd != RDMA_VERBS_IOCTL)
		return -ENOIOCTLCMD;
	if (copy_from_user(&hdr, uhdr, sizeof(hdr)))
		return -EFAULT;
	ret = uverbs_ioctl_check_hdr(&hdr, &r.args.m);
	if (ret)
		return ret;
	/* bounded by the header check: at most a page */
	alen = (size_t)hdr.num_attrs * sizeof(*r.attrs);
	r.uattrs = uhdr->attrs;
	if (alen) {
		r.attrs = (struct ib_uverbs_attr *)kmalloc(alen, GFP_KERNEL | __GFP_ACCOUNT);
		if (!r.attrs)
			return -ENOMEM;
		if (copy_from_user(r.attrs, r.uattrs, alen)) {
			kfree(r.attrs);
			return -EFAULT;
		}
	}
	down_read(&udev->disassoc_rwsem);
	if (udev->ib_dev)
		ret = uverbs_ioctl_run(file, udev->ib_dev, &hdr, &r);
	else
		ret = -EIO;		/* the device is gone */
	up_read(&udev->disassoc_rwsem);
	kfree(r.attrs);
	return ret;
}
