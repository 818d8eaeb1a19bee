// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite for RDMA netlink request parsing: requests go through a real
 * NETLINK_RDMA socket of init_net, opened from the kernel, exactly as the
 * rdma tool's do; the answers (error code, extack message, replies) are
 * read back from it.  Table-driven: one row per malformed request class.
 */
#include <kunit/test.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/rdma/rdma_netlink.h>
#include <rdma/ib_verbs.h>

#define BUF_SIZE 4096

struct nl_ctx {
	struct socket *sock;
	struct file *file;	/* admin checks look at the socket's file */
	u8 *buf;
	u32 seq;
};

static int nl_open(struct kunit *test, struct nl_ctx *c)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	int one = 1, ret;

	ret = sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW, NETLINK_RDMA,
			       &c->sock);
	if (ret)
		return ret;
	/* with our (root) credentials, as a user's socket would have */
	c->file = sock_alloc_file(c->sock, 0, NULL);
	if (IS_ERR(c->file))
		return PTR_ERR(c->file);	/* the socket is released */
	ret = kernel_bind(c->sock, (struct sockaddr *)&addr, sizeof(addr));
	if (!ret)
		ret = c->sock->ops->setsockopt(c->sock, SOL_NETLINK,
					       NETLINK_EXT_ACK,
					       KERNEL_SOCKPTR(&one), sizeof(one));
	c->buf = (u8 *)kunit_kzalloc(test, BUF_SIZE, GFP_KERNEL);
	if (!c->buf)
		ret = -ENOMEM;
	if (ret)
		fput(c->file);
	return ret;
}

/* Message builder: header, then attributes appended with put_attr(). */
static struct nlmsghdr *msg_start(struct nl_ctx *c, u16 op, u16 flags)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)c->buf;

	memset(c->buf, 0, BUF_SIZE);
	nlh->nlmsg_len = NLMSG_HDRLEN;
	nlh->nlmsg_type = (u16)RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op);
	nlh->nlmsg_flags = (u16)(NLM_F_REQUEST | NLM_F_ACK | flags);
	nlh->nlmsg_seq = ++c->seq;
	return nlh;
}

static void put_attr(struct nlmsghdr *nlh, u16 type, const void *data, u16 len)
{
	struct nlattr *nla = (struct nlattr *)((u8 *)nlh + NLMSG_ALIGN(nlh->nlmsg_len));

	nla->nla_type = type;
	nla->nla_len = (u16)(NLA_HDRLEN + len);
	if (len)
		memcpy((u8 *)nla + NLA_HDRLEN, data, len);
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + NLA_ALIGN(nla->nla_len);
}

static int nl_send(struct nl_ctx *c, struct nlmsghdr *nlh)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct msghdr msg = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
	};
	struct kvec iov = { .iov_base = nlh, .iov_len = nlh->nlmsg_len };

	return kernel_sendmsg(c->sock, &msg, &iov, 1, nlh->nlmsg_len);
}

struct answer {
	int error;		/* from NLMSG_ERROR; 0 for an ACK */
	bool has_msg;		/* extack text present */
	int replies;		/* messages other than ACK/ERROR/DONE */
	bool done;		/* NLMSG_DONE seen */
};

/*
 * Collect everything the kernel answered (it handles a request inside
 * sendmsg, so the answers are queued already).
 */
static void nl_collect(struct nl_ctx *c, struct answer *a)
{
	struct msghdr msg = {};
	struct kvec iov;
	int len;

	memset(a, 0, sizeof(*a));
	for (;;) {
		struct nlmsghdr *nlh;
		int rem;

		iov.iov_base = c->buf;
		iov.iov_len = BUF_SIZE;
		len = kernel_recvmsg(c->sock, &msg, &iov, 1, BUF_SIZE,
				     MSG_DONTWAIT);
		if (len <= 0)
			return;
		rem = len;
		for (nlh = (struct nlmsghdr *)c->buf; nlmsg_ok(nlh, rem);
		     nlh = nlmsg_next(nlh, &rem)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *err = (struct nlmsgerr *)nlmsg_data(nlh);

				a->error = err->error;
				/* extack TLVs follow the (capped) request */
				a->has_msg = !!(nlh->nlmsg_flags & NLM_F_ACK_TLVS);
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				/* a failed dump carries its errno here */
				a->done = true;
				if (nlmsg_len(nlh) >= (int)sizeof(int))
					a->error = *(int *)nlmsg_data(nlh);
			} else {
				a->replies++;
			}
		}
	}
}

static void nl_close(struct nl_ctx *c)
{
	fput(c->file);
}

/* ---- table of malformed requests ---- */

enum attr_kind { A_NONE, A_U8, A_U32, A_U64, A_STR, A_RAW, A_TRAIL };

struct bad_req {
	const char *what;
	u16 op;
	u16 flags;
	u16 attr;
	enum attr_kind kind;
	u64 value;
	const char *str;
	int want;		/* expected error */
	bool want_msg;		/* an extack message must explain it */
};

static const struct bad_req bad_reqs[] = {
	{ "GET without a device index", RDMA_NLDEV_CMD_GET, 0,
	  0, A_NONE, 0, NULL, -EINVAL, true },
	{ "GET of a device that does not exist", RDMA_NLDEV_CMD_GET, 0,
	  RDMA_NLDEV_ATTR_DEV_INDEX, A_U32, 0x7ffffff0, NULL, -EINVAL, true },
	{ "device index as u8", RDMA_NLDEV_CMD_GET, 0,
	  RDMA_NLDEV_ATTR_DEV_INDEX, A_U8, 0, NULL, -EINVAL, true },
	{ "device index as u64", RDMA_NLDEV_CMD_GET, 0,
	  RDMA_NLDEV_ATTR_DEV_INDEX, A_U64, 0, NULL, -EINVAL, true },
	{ "device index in a dump, wrong size", RDMA_NLDEV_CMD_PORT_GET,
	  NLM_F_DUMP, RDMA_NLDEV_ATTR_DEV_INDEX, A_U8, 0, NULL, -EINVAL, false },
	{ "unterminated device name", RDMA_NLDEV_CMD_NEWLINK, 0,
	  RDMA_NLDEV_ATTR_DEV_NAME, A_RAW, 0, "abcd", -EINVAL, false },
	{ "NEWLINK without netdev and type", RDMA_NLDEV_CMD_NEWLINK, 0,
	  RDMA_NLDEV_ATTR_DEV_NAME, A_STR, 0, "kx0", -EINVAL, true },
	{ "netns mode 2", RDMA_NLDEV_CMD_SYS_SET, 0,
	  RDMA_NLDEV_SYS_ATTR_NETNS_MODE, A_U8, 2, NULL, -EINVAL, true },
	{ "netns mode as u32", RDMA_NLDEV_CMD_SYS_SET, 0,
	  RDMA_NLDEV_SYS_ATTR_NETNS_MODE, A_U32, 1, NULL, -EINVAL, true },
	{ "SYS_SET without a mode", RDMA_NLDEV_CMD_SYS_SET, 0,
	  0, A_NONE, 0, NULL, -EINVAL, true },
	{ "trailing bytes", RDMA_NLDEV_CMD_SYS_GET, 0,
	  0, A_TRAIL, 0, "xyz", -EINVAL, true },
	{ "unknown command", RDMA_NLDEV_NUM_OPS + 3, 0,
	  0, A_NONE, 0, NULL, -EOPNOTSUPP, true },
	{ "a command that does not exist yet", RDMA_NLDEV_CMD_STAT_SET, 0,
	  0, A_NONE, 0, NULL, -EOPNOTSUPP, true },
	{ "STAT_GET without a device", RDMA_NLDEV_CMD_STAT_GET, 0,
	  0, A_NONE, 0, NULL, -EINVAL, true },
	{ "RES dump of a missing device", RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_DUMP,
	  RDMA_NLDEV_ATTR_DEV_INDEX, A_U32, 0x7ffffff0, NULL, -EINVAL, false },
};

static void add_bad_attr(struct nlmsghdr *nlh, const struct bad_req *r)
{
	u8 v8 = (u8)r->value;
	u32 v32 = (u32)r->value;
	u64 v64 = r->value;

	switch (r->kind) {
	case A_NONE:
		break;
	case A_U8:
		put_attr(nlh, r->attr, &v8, sizeof(v8));
		break;
	case A_U32:
		put_attr(nlh, r->attr, &v32, sizeof(v32));
		break;
	case A_U64:
		put_attr(nlh, r->attr, &v64, sizeof(v64));
		break;
	case A_STR:
		put_attr(nlh, r->attr, r->str, (u16)(strlen(r->str) + 1));
		break;
	case A_RAW:	/* no terminating NUL */
		put_attr(nlh, r->attr, r->str, (u16)strlen(r->str));
		break;
	case A_TRAIL:	/* bytes too few to be an attribute */
		memcpy((u8 *)nlh + nlh->nlmsg_len, r->str, strlen(r->str));
		nlh->nlmsg_len += (u32)strlen(r->str);
		break;
	}
}

static void bad_req_desc(const struct bad_req *r, char *desc)
{
	strscpy(desc, r->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_req, bad_reqs, bad_req_desc);

static void nldev_rejects_malformed(struct kunit *test)
{
	const struct bad_req *r = (const struct bad_req *)test->param_value;
	struct nlmsghdr *nlh;
	struct answer a;
	struct nl_ctx c = {};

	KUNIT_ASSERT_EQ(test, nl_open(test, &c), 0);
	nlh = msg_start(&c, r->op, r->flags);
	add_bad_attr(nlh, r);
	KUNIT_EXPECT_EQ(test, nl_send(&c, nlh), (int)nlh->nlmsg_len);
	nl_collect(&c, &a);
	KUNIT_EXPECT_EQ(test, a.error, r->want);
	KUNIT_EXPECT_EQ(test, a.replies, 0);
	if (r->want_msg)
		KUNIT_EXPECT_TRUE(test, a.has_msg);
	nl_close(&c);
}

/* Well-formed requests: a doit is answered then ACKed, a dump ends in DONE. */
static void nldev_answers_wellformed(struct kunit *test)
{
	struct nlmsghdr *nlh;
	struct answer a;
	struct nl_ctx c = {};

	KUNIT_ASSERT_EQ(test, nl_open(test, &c), 0);

	nlh = msg_start(&c, RDMA_NLDEV_CMD_SYS_GET, 0);
	KUNIT_EXPECT_GT(test, nl_send(&c, nlh), 0);
	nl_collect(&c, &a);
	KUNIT_EXPECT_EQ(test, a.replies, 1);
	KUNIT_EXPECT_EQ(test, a.error, 0);	/* the ACK */
	KUNIT_EXPECT_FALSE(test, a.done);

	nlh = msg_start(&c, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	KUNIT_EXPECT_GT(test, nl_send(&c, nlh), 0);
	nl_collect(&c, &a);
	KUNIT_EXPECT_TRUE(test, a.done);
	KUNIT_EXPECT_EQ(test, a.error, 0);

	/* an attribute id beyond what we know is ignored, as iproute2 expects */
	nlh = msg_start(&c, RDMA_NLDEV_CMD_SYS_GET, 0);
	put_attr(nlh, RDMA_NLDEV_ATTR_MAX + 5, "xx", 2);
	KUNIT_EXPECT_GT(test, nl_send(&c, nlh), 0);
	nl_collect(&c, &a);
	KUNIT_EXPECT_EQ(test, a.replies, 1);
	KUNIT_EXPECT_EQ(test, a.error, 0);
	nl_close(&c);
}

static struct kunit_case nldev_cases[] = {
	KUNIT_CASE_PARAM(nldev_rejects_malformed, bad_req_gen_params),
	KUNIT_CASE(nldev_answers_wellformed),
	{}
};

static struct kunit_suite nldev_suite = {
	.name = "ib_core_nldev",
	.test_cases = nldev_cases,
};
kunit_test_suite(nldev_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests for RDMA netlink request parsing");
