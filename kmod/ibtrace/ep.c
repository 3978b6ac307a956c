// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - an RC endpoint's verbs objects: a PD, one CQ for both queues
 * of the QP, and the QP's creation attributes (every QP of ours signals
 * every work request and takes one receive SGE); its messages and the
 * posts of one buffer.
 */
#include <linux/bottom_half.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ep.h"

/**
 * ibtrace_ep_create() - make an endpoint's PD and CQ
 * @ep: the endpoint (zeroed)
 * @ibdev: the device
 * @cq_ctx: the CQ's context (cq->cq_context for its handlers)
 * @cqe: entries of the CQ
 * @poll: how the CQ is polled
 *
 * Return: 0, or the error with nothing left made.
 */
int ibtrace_ep_create(struct ibtrace_ep *ep, struct ib_device *ibdev,
		      void *cq_ctx, int cqe, enum ib_poll_context poll)
{
	struct ib_pd *pd;
	struct ib_cq *cq;

	pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	cq = ib_alloc_cq(ibdev, cq_ctx, cqe, 0, poll);
	if (IS_ERR(cq)) {
		ib_dealloc_pd(pd);
		return PTR_ERR(cq);
	}
	ep->pd = pd;
	ep->cq = cq;
	return 0;
}

/**
 * ibtrace_ep_free_cq() - free the CQ early: no handler of it runs after
 * @ep: the endpoint; its QP must be gone
 */
void ibtrace_ep_free_cq(struct ibtrace_ep *ep)
{
	if (ep->cq)
		ib_free_cq(ep->cq);
	ep->cq = NULL;
}

/**
 * ibtrace_ep_destroy() - free what ibtrace_ep_create() made
 * @ep: the endpoint (or a zeroed one); its QP and MRs must be gone
 */
void ibtrace_ep_destroy(struct ibtrace_ep *ep)
{
	ibtrace_ep_free_cq(ep);
	if (ep->pd)
		ib_dealloc_pd(ep->pd);
	ep->pd = NULL;
}

/**
 * ibtrace_ep_qp_attr() - creation attributes of an RC QP on one CQ
 * @init: filled in
 * @cq: send and receive CQ
 * @send_wr: send queue depth
 * @recv_wr: receive queue depth
 * @send_sge: SGEs of a send work request
 */
void ibtrace_ep_qp_attr(struct ib_qp_init_attr *init, struct ib_cq *cq,
			u32 send_wr, u32 recv_wr, u32 send_sge)
{
	*init = (struct ib_qp_init_attr) {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = send_wr,
			.max_recv_wr = recv_wr,
			.max_send_sge = send_sge,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
	};
}

/**
 * ibtrace_ep_msg_alloc() - a message buffer of an endpoint: zeroed memory
 *	of its own, mapped for the endpoint's device
 * @ep: the endpoint (made)
 * @len: the buffer's size
 * @dir: the direction of its transfers
 * @dma: set to its DMA address (0 on failure)
 *
 * Return: the buffer, or NULL (no memory, or it could not be mapped) with
 * nothing left made.
 */
void *ibtrace_ep_msg_alloc(struct ibtrace_ep *ep, size_t len,
			   enum dma_data_direction dir, u64 *dma)
{
	struct ib_device *ibdev = ep->pd->device;
	void *buf;

	*dma = 0;
	buf = kzalloc(len, GFP_KERNEL);
	if (!buf)
		return NULL;
	*dma = ib_dma_map_single(ibdev, buf, len, dir);
	if (ib_dma_mapping_error(ibdev, *dma)) {
		*dma = 0;
		kfree(buf);
		return NULL;
	}
	return buf;
}

/**
 * ibtrace_ep_msg_free() - unmap and free what ibtrace_ep_msg_alloc() gave
 * @ep: the endpoint, its PD not yet freed
 * @buf: the buffer, or NULL (nothing is done)
 * @len: its size
 * @dir: the direction of its transfers
 * @dma: its DMA address
 */
void ibtrace_ep_msg_free(struct ibtrace_ep *ep, void *buf, size_t len,
			 enum dma_data_direction dir, u64 dma)
{
	if (!buf)
		return;
	ib_dma_unmap_single(ep->pd->device, dma, len, dir);
	kfree(buf);
}

/**
 * ibtrace_ep_post_recv() - post the receive of one buffer
 * @qp: the QP
 * @cqe: the handler of its completion
 * @sge: the buffer
 *
 * Return: 0 or ib_post_recv()'s error.
 */
int ibtrace_ep_post_recv(struct ib_qp *qp, struct ib_cqe *cqe,
			 struct ib_sge *sge)
{
	struct ib_recv_wr wr = {
		.wr_cqe = cqe,
		.sg_list = sge,
		.num_sge = 1,
	};

	return ib_post_recv(qp, &wr, NULL);
}

/**
 * ibtrace_ep_post_send() - post a signalled SEND of one buffer
 * @qp: the QP
 * @cqe: the handler of its completion
 * @sge: the buffer
 *
 * Return: 0 or ib_post_send()'s error.
 */
int ibtrace_ep_post_send(struct ib_qp *qp, struct ib_cqe *cqe,
			 struct ib_sge *sge)
{
	struct ib_send_wr wr = {
		.wr_cqe = cqe,
		.sg_list = sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	return ibtrace_ep_post(qp, &wr);
}

/**
 * ibtrace_ep_post() - ib_post_send(), the device's sending done at once
 * @qp: the QP
 * @wr: the work requests
 *
 * A software device may send for a kernel QP from a tasklet: rxe does
 * (a user QP's post runs it in the caller instead). Raised by a thread,
 * the tasklet waits for ksoftirqd, a context switch away, and behind a
 * thread that polls the CQ busily, for the scheduler's next turn. With
 * bottom halves off around the post, local_bh_enable() runs it here and
 * now. On hardware the post only rings a doorbell; it costs nothing.
 *
 * Return: 0 or ib_post_send()'s error.
 */
int ibtrace_ep_post(struct ib_qp *qp, const struct ib_send_wr *wr)
{
	int err;

	local_bh_disable();
	err = ib_post_send(qp, wr, NULL);
	local_bh_enable();
	return err;
}

/* Completions reaped per call when busy. */
#define EP_POLL_BATCH		16

/**
 * ibtrace_ep_wait() - wait until a completion past @seen was handled
 * @w: how
 * @seen: ibtrace_ep_seen() before the caller looked
 * @end: give up at this time (jiffies)
 *
 * Busy, the thread polls the CQ itself and yields now and then; else it
 * sleeps on the wait queue in slices. Either way a stop is seen at once
 * when the call starts, and within a slice while it waits: a peer that
 * keeps completing within each slice does not hide a cancel. It yields
 * before it returns too, so that a caller's loop of posts and waits never
 * holds the CPU for long.
 *
 * Return: 0, -ETIMEDOUT when @end passed first, -ECANCELED when @w->stop
 * said so.
 */
int ibtrace_ep_wait(const struct ibtrace_ep_waiter *w, u64 seen,
		    unsigned long end)
{
	unsigned int spins = 0;

	if (w->stop && w->stop(w->ctx))
		return -ECANCELED;
	for (;;) {
		if (w->busy)
			ib_process_cq_direct(w->cq, EP_POLL_BATCH);
		else
			wait_event_timeout(*w->wq, ibtrace_ep_seen(w) != seen,
					   msecs_to_jiffies(w->slice_ms));
		/*
		 * On every pass, also when a completion is always there: a
		 * software device completes within the post, and a run of
		 * millions of operations must not hold the CPU.
		 */
		cond_resched();
		if (ibtrace_ep_seen(w) != seen)
			return 0;
		if (w->busy && ++spins % 256)
			continue;
		if (w->stop && w->stop(w->ctx))
			return -ECANCELED;
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
	}
}
