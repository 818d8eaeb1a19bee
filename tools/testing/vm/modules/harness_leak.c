// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: leaks objects on load, so the test run can prove that
 * its kmemleak verdict finds a leak.  Each object starts with the marker
 * "harness-leak-selftest" (kmemleak's hex dump shows it) and is allocated
 * by harness_leak_one() (its backtrace names harness_leak); the module
 * stays loaded so the backtrace resolves.  kmemleak scans the stacks of
 * live tasks and cached free stacks: a stale copy of an object's pointer
 * left below the caller's frame by kmalloc would hide the object, so the
 * stack below init's frame is zeroed after the allocations.
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#define HARNESS_LEAKS	4

static noinline int harness_leak_one(void)
{
	static const char marker[] = "harness-leak-selftest";
	char *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	memset(p, 0, 64);
	memcpy(p, marker, sizeof(marker));
	/* the stores are not dead: the compiler must assume p is read */
	barrier_data(p);
	/* the only pointer to it goes out of scope here: leaked */
	return 0;
}

#define HARNESS_SCRUB_BYTES	512
#define HARNESS_SCRUB_DEPTH	8

/* zeroes HARNESS_SCRUB_DEPTH frames of stack below the caller's */
static noinline void harness_scrub_stack(int depth)
{
	char buf[HARNESS_SCRUB_BYTES];

	memset(buf, 0, sizeof(buf));
	barrier_data(buf);
	if (depth > 1)
		harness_scrub_stack(depth - 1);
	/* buf stays live across the call: no frame is reused */
	barrier_data(buf);
}

static int __init harness_leak_init(void)
{
	int i;

	for (i = 0; i < HARNESS_LEAKS; i++)
		if (harness_leak_one())
			return -ENOMEM;
	harness_scrub_stack(HARNESS_SCRUB_DEPTH);
	pr_info("harness_leak: leaked %d objects of 64 bytes\n", HARNESS_LEAKS);
	return 0;
}

static void __exit harness_leak_exit(void)
{
}

module_init(harness_leak_init);
module_exit(harness_leak_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test-harness self-test: deliberate memory leaks");
