// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: panics the kernel on load, so the test run can prove
 * that a VM that dies fails the run (tests/vm-dies.sh).  Never loaded by
 * any other test.
 */
#include <linux/kernel.h>
#include <linux/module.h>

static int __init harness_panic_init(void)
{
	panic("harness self-test: deliberate panic\n");
	return 0;
}

module_init(harness_panic_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test-harness self-test: one deliberate panic");
