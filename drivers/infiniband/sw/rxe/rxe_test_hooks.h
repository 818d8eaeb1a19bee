/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fault injection for the test harness, compiled in only when the module
 * is built with RXE_TEST_HOOKS=1 (make check's build:w1 copy does; make,
 * make modules_install and every other build do not).  Each hook proves
 * that a data oracle notices a kind of damage the wire checks cannot see:
 * the damage is done before the ICRC is computed, so the receiver accepts
 * the packet.  Documentation/dev-tools/testing.rst, "Test builds".
 *
 * Without RXE_TEST_HOOKS the hooks are empty inlines and the module has no
 * such parameters.
 */
#ifndef _RXE_TEST_HOOKS_H
#define _RXE_TEST_HOOKS_H

#include <linux/types.h>

struct sk_buff;

#ifdef RXE_TEST_HOOKS
/* an outgoing packet with payload, before its ICRC is computed */
void rxe_test_tx(struct sk_buff *skb);
/* true: the responder executes the atomic it just executed once more */
bool rxe_test_atomic_twice(void);
#else
static inline void rxe_test_tx(struct sk_buff *skb)
{
}

static inline bool rxe_test_atomic_twice(void)
{
	return false;
}
#endif

/*
 * Staging points of the KUnit suites (the test module builds the rxe
 * sources with RXE_KUNIT): a test sets the pointer to run code at that
 * point of a call, e.g. to start a racing call.  Nothing in rdma_rxe.ko.
 */
struct rxe_mr;
#ifdef RXE_KUNIT
/* rxe_bind_mw(): the MR is looked up (a reference held), not yet linked */
extern void (*rxe_kunit_bind_hook)(struct rxe_mr *mr);
static inline void rxe_kunit_bind_point(struct rxe_mr *mr)
{
	if (rxe_kunit_bind_hook)
		rxe_kunit_bind_hook(mr);
}
/*
 * rxe_resize_cq(), rxe_modify_srq(): the queue to replace is read, the
 * new one not yet made; @obj is the CQ or SRQ
 */
extern void (*rxe_kunit_resize_hook)(void *obj);
static inline void rxe_kunit_resize_point(void *obj)
{
	if (rxe_kunit_resize_hook)
		rxe_kunit_resize_hook(obj);
}
#else
static inline void rxe_kunit_bind_point(struct rxe_mr *mr)
{
}

static inline void rxe_kunit_resize_point(void *obj)
{
}
#endif

#endif /* _RXE_TEST_HOOKS_H */
