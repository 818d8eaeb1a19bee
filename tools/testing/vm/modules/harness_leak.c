// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: leaks one object on load, so the test run can prove
 * that its kmemleak verdict finds a leak.  The object starts with the
 * marker "harness-leak-selftest" (kmemleak's hex dump shows it) and is
 * allocated from this module's init (its backtrace names harness_leak);
 * the module stays loaded so the backtrace resolves.
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

/* not __init: the backtrace must still resolve after the init text is freed */
static int harness_leak_init(void)
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
	pr_info("harness_leak: leaked 64 bytes\n");
	return 0;
}

static void __exit harness_leak_exit(void)
{
}

module_init(harness_leak_init);
module_exit(harness_leak_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test-harness self-test: one deliberate memory leak");
