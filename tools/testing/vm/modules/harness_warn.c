// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: provokes one kernel WARN on load, so the test run can
 * prove that the VM runner turns a kernel report into a failure.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init harness_warn_init(void)
{
	WARN(1, "harness self-test: deliberate warning\n");
	return 0;
}

static void __exit harness_warn_exit(void)
{
}

module_init(harness_warn_init);
module_exit(harness_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test-harness self-test: one deliberate WARN");
