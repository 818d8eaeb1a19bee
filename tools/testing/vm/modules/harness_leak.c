// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: leaves one object that kmemleak must report, so the
 * test run can prove that its kmemleak verdict sees a leak.
 *
 * The object is a page from the page allocator (kmemleak does not track
 * those) registered with kmemleak_alloc() under a minimum reference count
 * no scan can reach.  kmemleak reports an object whose references found in
 * a scan are fewer than its minimum, so the report does not depend on
 * whether a stale copy of the address survives on some stack or in a saved
 * register (such copies hid plain kmalloc() leaks in earlier runs).  The
 * page starts with the marker "harness-leak-selftest": kmemleak's hex dump
 * shows it, and the verdict (kmemleak-split.py) recognises the object by it
 * (kmemleak's backtrace starts above this module's frame).
 */
#include <linux/gfp.h>
#include <linux/kmemleak.h>
#include <linux/module.h>
#include <linux/string.h>

/* more references than any scan finds to one page */
#define HARNESS_MIN_REFS	(1 << 20)

static int __init harness_leak_init(void)
{
	static const char marker[] = "harness-leak-selftest";
	unsigned long page = __get_free_page(GFP_KERNEL | __GFP_ZERO);

	if (!page)
		return -ENOMEM;
	memcpy((void *)page, marker, sizeof(marker));
	kmemleak_alloc((void *)page, PAGE_SIZE, HARNESS_MIN_REFS, GFP_KERNEL);
	pr_info("harness_leak: left one page for kmemleak to report\n");
	return 0;
}

static void __exit harness_leak_exit(void)
{
}

module_init(harness_leak_init);
module_exit(harness_leak_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test-harness self-test: a deliberate memory leak");
