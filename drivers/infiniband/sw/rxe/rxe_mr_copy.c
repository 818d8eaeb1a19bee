// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory access for the data path: MR copies, SGE lists, rkeys and
 * atomics.  (Placeholder of the data-path contract.)
 */
#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

int rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u32 len,
		enum rxe_copy_dir dir)
{
	return -EFAULT;
}

int rxe_dma_copy(struct rxe_pd *pd, int access, struct rxe_dma_info *dma,
		 void *buf, u32 len, enum rxe_copy_dir dir)
{
	return -EACCES;
}

struct rxe_mr *rxe_rkey_get(struct rxe_qp *qp, u32 rkey, u64 iova, u64 len,
			    int access)
{
	return NULL;
}

int rxe_mr_atomic(struct rxe_mr *mr, u64 iova, u8 op, u64 compare_add,
		  u64 swap, u64 *orig)
{
	return -EFAULT;
}
