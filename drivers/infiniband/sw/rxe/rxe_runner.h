/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One runner at a time: the requester of a QP, and the walkers of its
 * receive queue (flush, responder completion).  Whoever finds the work
 * running asks the runner to look again instead of waiting; the runner
 * looks again before it stops.  All under the owner's spinlock @lock.
 * What one look may do is the runner's bound (a ring's worth for a
 * flush, RXE_REQ_BUDGET packets for the requester): a producer index in
 * user memory can ask again forever, but never keeps one look going.
 */
#ifndef RXE_RUNNER_H
#define RXE_RUNNER_H

#include <linux/lockdep.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct rxe_runner {
	bool busy;
	bool again;
};

/* become the runner (true), or ask the running one to look again */
static inline bool rxe_runner_claim(struct rxe_runner *r, spinlock_t *lock)
{
	lockdep_assert_held(lock);
	if (r->busy) {
		r->again = true;
		return false;
	}
	r->busy = true;
	r->again = false;
	return true;
}

/* end of a look: stop (true), or look again when asked meanwhile */
static inline bool rxe_runner_release(struct rxe_runner *r, spinlock_t *lock)
{
	lockdep_assert_held(lock);
	if (r->again) {
		r->again = false;
		return false;
	}
	r->busy = false;
	return true;
}

/*
 * Ask the running one to look again (true); false when nobody runs, so
 * the caller must start a look itself (or queue one).
 */
static inline bool rxe_runner_ask(struct rxe_runner *r, spinlock_t *lock)
{
	lockdep_assert_held(lock);
	if (!r->busy)
		return false;
	r->again = true;
	return true;
}

/* stop now, whatever was asked; returns whether a look was asked for */
static inline bool rxe_runner_stop(struct rxe_runner *r, spinlock_t *lock)
{
	bool again = r->again;

	lockdep_assert_held(lock);
	r->busy = false;
	r->again = false;
	return again;
}

#endif /* RXE_RUNNER_H */
