/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * DMA mapping of kernel buffers for kernel verbs users (upstream's names
 * and meanings).  A device registered with a dma_device maps through the
 * DMA API of that device; a device registered without one (rxe) reads
 * kernel virtual addresses, so "mapping" returns the address itself.
 * Every SGE a kernel user posts carries an address these return.
 */
#ifndef _RDMA_IB_DMA_H
#define _RDMA_IB_DMA_H

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <rdma/ib_device.h>

static inline bool ib_uses_virt_dma(struct ib_device *dev)
{
	return !dev->dma_device;
}

static inline int ib_dma_mapping_error(struct ib_device *dev, u64 dma_addr)
{
	if (ib_uses_virt_dma(dev))
		return 0;
	return dma_mapping_error(dev->dma_device, dma_addr);
}

static inline u64 ib_dma_map_single(struct ib_device *dev, void *cpu_addr,
				    size_t size,
				    enum dma_data_direction direction)
{
	if (ib_uses_virt_dma(dev))
		return (uintptr_t)cpu_addr;
	return dma_map_single(dev->dma_device, cpu_addr, size, direction);
}

static inline void ib_dma_unmap_single(struct ib_device *dev, u64 addr,
				       size_t size,
				       enum dma_data_direction direction)
{
	if (!ib_uses_virt_dma(dev))
		dma_unmap_single(dev->dma_device, addr, size, direction);
}

static inline u64 ib_dma_map_page(struct ib_device *dev, struct page *page,
				  unsigned long offset, size_t size,
				  enum dma_data_direction direction)
{
	if (ib_uses_virt_dma(dev))
		return (uintptr_t)(page_address(page) + offset);
	return dma_map_page(dev->dma_device, page, offset, size, direction);
}

static inline void ib_dma_unmap_page(struct ib_device *dev, u64 addr,
				     size_t size,
				     enum dma_data_direction direction)
{
	if (!ib_uses_virt_dma(dev))
		dma_unmap_page(dev->dma_device, addr, size, direction);
}

/* virtual "mapping" of a scatterlist: each entry's address is its own */
int ib_dma_virt_map_sg(struct ib_device *dev, struct scatterlist *sg,
		       int nents);

static inline int ib_dma_map_sg_attrs(struct ib_device *dev,
				      struct scatterlist *sg, int nents,
				      enum dma_data_direction direction,
				      unsigned long dma_attrs)
{
	struct device *d = dev->dma_device;

	return d ? dma_map_sg_attrs(d, sg, nents, direction, dma_attrs) :
		   ib_dma_virt_map_sg(dev, sg, nents);
}

static inline void ib_dma_unmap_sg_attrs(struct ib_device *dev,
					 struct scatterlist *sg, int nents,
					 enum dma_data_direction direction,
					 unsigned long dma_attrs)
{
	struct device *d = dev->dma_device;

	if (d)
		dma_unmap_sg_attrs(d, sg, nents, direction, dma_attrs);
}

static inline int ib_dma_map_sg(struct ib_device *dev, struct scatterlist *sg,
				int nents, enum dma_data_direction direction)
{
	return ib_dma_map_sg_attrs(dev, sg, nents, direction, 0);
}

static inline void ib_dma_unmap_sg(struct ib_device *dev,
				   struct scatterlist *sg, int nents,
				   enum dma_data_direction direction)
{
	ib_dma_unmap_sg_attrs(dev, sg, nents, direction, 0);
}

static inline unsigned int ib_dma_max_seg_size(struct ib_device *dev)
{
	if (ib_uses_virt_dma(dev))
		return UINT_MAX;
	return dma_get_max_seg_size(dev->dma_device);
}

static inline void ib_dma_sync_single_for_cpu(struct ib_device *dev, u64 addr,
					      size_t size,
					      enum dma_data_direction dir)
{
	if (!ib_uses_virt_dma(dev))
		dma_sync_single_for_cpu(dev->dma_device, addr, size, dir);
}

static inline void ib_dma_sync_single_for_device(struct ib_device *dev,
						 u64 addr, size_t size,
						 enum dma_data_direction dir)
{
	if (!ib_uses_virt_dma(dev))
		dma_sync_single_for_device(dev->dma_device, addr, size, dir);
}

#endif /* _RDMA_IB_DMA_H */
