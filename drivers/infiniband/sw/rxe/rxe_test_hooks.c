// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fault injection of test builds (RXE_TEST_HOOKS=1); see rxe_test_hooks.h.
 *
 *   test_corrupt_every=N   (0: off) in every Nth packet that carries a
 *                          payload, the payload's middle byte is inverted
 *                          before the ICRC is computed
 *   test_atomic_twice=1    the responder executes every new FETCH_ADD or
 *                          CMP_SWAP request twice (the ACK carries the
 *                          first result)
 *
 * Both are writable at run time under /sys/module/rdma_rxe/parameters/.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/skbuff.h>

#include "rxe_dp.h"
#include "rxe_test_hooks.h"

static unsigned int test_corrupt_every;
module_param(test_corrupt_every, uint, 0644);
MODULE_PARM_DESC(test_corrupt_every,
		 "test builds: invert one payload byte of every Nth payload packet before the ICRC (0: off)");

static bool test_atomic_twice;
module_param(test_atomic_twice, bool, 0644);
MODULE_PARM_DESC(test_atomic_twice,
		 "test builds: the responder executes each atomic request twice");

static atomic_t rxe_test_payload_pkts = ATOMIC_INIT(0);

void rxe_test_tx(struct sk_buff *skb)
{
	unsigned int every = READ_ONCE(test_corrupt_every);
	struct rxe_pkt *pkt = rxe_pkt(skb);
	u8 *p;

	if (!every || !pkt->info.paylen)
		return;
	if ((unsigned int)atomic_inc_return(&rxe_test_payload_pkts) % every)
		return;
	p = rxe_pkt_payload(pkt) + pkt->info.paylen / 2;
	*p = (u8)~*p;
}

bool rxe_test_atomic_twice(void)
{
	return READ_ONCE(test_atomic_twice);
}
