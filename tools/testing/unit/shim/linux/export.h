/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for <linux/export.h> (tools/testing/unit): there is no module
 * symbol table on the host, so the export markers expand to nothing.
 */
#ifndef _UNIT_SHIM_LINUX_EXPORT_H
#define _UNIT_SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif /* _UNIT_SHIM_LINUX_EXPORT_H */
