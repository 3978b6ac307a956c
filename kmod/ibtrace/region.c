// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - a registered memory region: zeroed pages, mapped for the
 * device, behind a fast-registration MR (ib_alloc_mr()) that a REG_MR work
 * request on the caller's QP opens to the access it needs. The pages need
 * not be contiguous: the MR makes them one virtual range. No global rkey
 * is used; the region is open only to the QP's peer, only for what the
 * test asked (read or write), only while the region lives.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "region.h"

static void region_free_pages(struct ibtrace_region *r)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_sg(&r->sgt, sg, i)
		if (sg_page(sg))
			__free_page(sg_page(sg));
	sg_free_table(&r->sgt);
	kvfree(r->pages);
	r->pages = NULL;
}

/**
 * ibtrace_region_create() - pages and an MR for @bytes
 * @r: the region, zeroed by the caller
 * @pd: the PD of the MR
 * @bytes: bytes needed (1 and up; the device's max_fast_reg_page_list_len
 *	pages at most)
 *
 * Return: 0, or a negative errno with nothing left (-EINVAL: the device
 * cannot map that many pages in one MR).
 */
int ibtrace_region_create(struct ibtrace_region *r, struct ib_pd *pd,
			  u32 bytes)
{
	u32 npages = DIV_ROUND_UP(bytes, PAGE_SIZE);
	struct scatterlist *sg;
	unsigned int i;
	int err, n;

	r->ibdev = pd->device;
	r->bytes = bytes;
	if (!npages || npages > pd->device->attrs.max_fast_reg_page_list_len)
		return -EINVAL;
	err = sg_alloc_table(&r->sgt, npages, GFP_KERNEL);
	if (err)
		return err;
	r->pages = kvcalloc(npages, sizeof(*r->pages), GFP_KERNEL);
	if (!r->pages) {
		err = -ENOMEM;
		goto err_pages;
	}
	for_each_sgtable_sg(&r->sgt, sg, i) {
		struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

		if (!page) {
			err = -ENOMEM;
			goto err_pages;
		}
		sg_set_page(sg, page, PAGE_SIZE, 0);
		r->pages[i] = page;
	}
	r->nents = ib_dma_map_sg(r->ibdev, r->sgt.sgl, npages,
				 DMA_BIDIRECTIONAL);
	if (r->nents <= 0) {
		err = -ENOMEM;
		goto err_pages;
	}
	/*
	 * One page of room more than mapped when the device allows it: rxe
	 * in Linux 6.1 (rxe_mr_copy()) reads the next map pointer past its
	 * array when a copy ends on the last page of a region of 256 pages
	 * (KASAN: slab-out-of-bounds, a 1 MiB RDMA WRITE); the spare page
	 * gives that pointer a place.
	 */
	r->mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG,
			    min(npages + 1,
				pd->device->attrs.max_fast_reg_page_list_len));
	if (IS_ERR(r->mr)) {
		err = PTR_ERR(r->mr);
		goto err_unmap;
	}
	n = ib_map_mr_sg(r->mr, r->sgt.sgl, r->nents, NULL, PAGE_SIZE);
	if (n != r->nents) {
		err = n < 0 ? n : -EINVAL;
		goto err_mr;
	}
	return 0;

err_mr:
	ib_dereg_mr(r->mr);
err_unmap:
	ib_dma_unmap_sg(r->ibdev, r->sgt.sgl, npages, DMA_BIDIRECTIONAL);
err_pages:
	r->mr = NULL;
	r->nents = 0;
	region_free_pages(r);
	return err;
}

/**
 * ibtrace_region_reg_wr() - the work request that registers the region
 * @r: the region, created
 * @access: IB_ACCESS_* the MR opens (remote read or write, local write)
 * @cqe: the request's completion entry
 *
 * Post it (signalled) before any work request that uses the region's
 * keys on the same QP; the send queue keeps the order.
 *
 * Return: the work request, in @r.
 */
struct ib_send_wr *ibtrace_region_reg_wr(struct ibtrace_region *r,
					 int access, struct ib_cqe *cqe)
{
	r->reg = (struct ib_reg_wr) {
		.wr = {
			.opcode = IB_WR_REG_MR,
			.wr_cqe = cqe,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = r->mr,
		.key = r->mr->rkey,
		.access = access,
	};
	return &r->reg.wr;
}

/**
 * ibtrace_region_destroy() - free what ibtrace_region_create() made
 * @r: the region; created or not (zeroed)
 *
 * The QPs that used it must be gone (or in error, flushed).
 */
void ibtrace_region_destroy(struct ibtrace_region *r)
{
	if (!r->mr)
		return;
	ib_dereg_mr(r->mr);
	ib_dma_unmap_sg(r->ibdev, r->sgt.sgl, r->sgt.orig_nents,
			DMA_BIDIRECTIONAL);
	region_free_pages(r);
	r->mr = NULL;
	r->nents = 0;
}

/**
 * ibtrace_region_sync() - hand a region's pages to the CPU or the device
 * @r: the region (made)
 * @for_cpu: before the CPU reads or writes them (else after, before the
 *	device uses them again)
 */
void ibtrace_region_sync(struct ibtrace_region *r, bool for_cpu)
{
	if (ib_uses_virt_dma(r->ibdev))
		return;
	if (for_cpu)
		dma_sync_sgtable_for_cpu(r->ibdev->dma_device, &r->sgt,
					 DMA_BIDIRECTIONAL);
	else
		dma_sync_sgtable_for_device(r->ibdev->dma_device, &r->sgt,
					    DMA_BIDIRECTIONAL);
}

/**
 * ibtrace_region_sges() - the gather/scatter list of consecutive segments
 *	of a registered region
 * @r: the region (registered)
 * @sge: filled, @segs entries
 * @off: where the first segment starts in the region
 * @seg_size: bytes of each segment
 * @segs: how many
 */
void ibtrace_region_sges(const struct ibtrace_region *r, struct ib_sge *sge,
			 u32 off, u32 seg_size, u32 segs)
{
	u32 i;

	for (i = 0; i < segs; i++) {
		sge[i].addr = r->mr->iova + off + (u64)i * seg_size;
		sge[i].length = seg_size;
		sge[i].lkey = r->mr->lkey;
	}
}
