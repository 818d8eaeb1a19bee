/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* ib_core internals shared between its files; not for drivers. */
#ifndef _IB_CORE_PRIV_H
#define _IB_CORE_PRIV_H

#include <rdma/ib_device.h>

extern struct class ib_class;

int ib_devices_init(void);
void ib_devices_exit(void);
int ib_device_check_name(const char *name);

#endif /* _IB_CORE_PRIV_H */
