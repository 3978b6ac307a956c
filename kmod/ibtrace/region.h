/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - a registered memory region (region.c): pages of kernel
 * memory behind a fast-registration MR, registered by a REG_MR work
 * request on a QP, for the data-path tests (the perf test's client
 * buffer and its server's, each side's buffers of the transaction test).
 */
#ifndef _IBTRACE_REGION_H
#define _IBTRACE_REGION_H

#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

/**
 * struct ibtrace_region - pages and the MR over them
 * @ibdev: the device the pages are mapped for
 * @sgt: one entry per page
 * @nents: entries mapped for DMA (0: not mapped)
 * @pages: the pages, in order (CPU access: ibtrace_region_ptr())
 * @mr: the MR, NULL before ibtrace_region_create() made it
 * @bytes: bytes asked for (the MR covers whole pages)
 * @reg: the REG_MR work request (ibtrace_region_reg_wr())
 */
struct ibtrace_region {
	struct ib_device *ibdev;
	struct sg_table sgt;
	int nents;
	struct page **pages;
	struct ib_mr *mr;
	u32 bytes;
	struct ib_reg_wr reg;
};

int ibtrace_region_create(struct ibtrace_region *r, struct ib_pd *pd,
			  u32 bytes);
struct ib_send_wr *ibtrace_region_reg_wr(struct ibtrace_region *r,
					 int access, struct ib_cqe *cqe);
void ibtrace_region_destroy(struct ibtrace_region *r);
void ibtrace_region_sync(struct ibtrace_region *r, bool for_cpu);
void ibtrace_region_sges(const struct ibtrace_region *r, struct ib_sge *sge,
			 u32 off, u32 seg_size, u32 segs);

/**
 * ibtrace_region_ptr() - the CPU's address of a byte of a region
 * @r: the region
 * @off: the byte's offset (below @r->bytes)
 *
 * Return: the address; the bytes after it up to the page's end follow.
 */
static inline u8 *ibtrace_region_ptr(const struct ibtrace_region *r, u32 off)
{
	return (u8 *)page_address(r->pages[off >> PAGE_SHIFT]) +
	       offset_in_page(off);
}

#endif /* _IBTRACE_REGION_H */
