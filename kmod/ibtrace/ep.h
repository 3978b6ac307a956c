/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - an RC endpoint's verbs objects (ep.c): the protection domain
 * and the one completion queue both queues of its QP use, and the QP's
 * creation attributes; its messages (small buffers mapped for the device)
 * and the posts of one buffer (a receive, a signalled SEND). The test
 * jobs (rnr.c, perf.c, quit.c) and the server's services
 * (rnr_responder.c, perf_server.c, server_quit.c) make their endpoints
 * here; each creates its QP itself (ib_create_qp() or, on an RDMA CM ID,
 * rdma_create_qp()).
 */
#ifndef _IBTRACE_EP_H
#define _IBTRACE_EP_H

#include <linux/dma-direction.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

/**
 * struct ibtrace_ep - an endpoint's PD and CQ
 * @pd: protection domain, NULL when not made
 * @cq: completion queue of the QP's send and receive queues, NULL when not
 *	made (or already freed, to stop its handlers early)
 */
struct ibtrace_ep {
	struct ib_pd *pd;
	struct ib_cq *cq;
};

int ibtrace_ep_create(struct ibtrace_ep *ep, struct ib_device *ibdev,
		      void *cq_ctx, int cqe, enum ib_poll_context poll);
void ibtrace_ep_free_cq(struct ibtrace_ep *ep);
void ibtrace_ep_destroy(struct ibtrace_ep *ep);
void ibtrace_ep_qp_attr(struct ib_qp_init_attr *init, struct ib_cq *cq,
			u32 send_wr, u32 recv_wr, u32 send_sge);
void *ibtrace_ep_msg_alloc(struct ibtrace_ep *ep, size_t len,
			   enum dma_data_direction dir, u64 *dma);
void ibtrace_ep_msg_free(struct ibtrace_ep *ep, void *buf, size_t len,
			 enum dma_data_direction dir, u64 dma);
int ibtrace_ep_post_recv(struct ib_qp *qp, struct ib_cqe *cqe,
			 struct ib_sge *sge);
int ibtrace_ep_post_send(struct ib_qp *qp, struct ib_cqe *cqe,
			 struct ib_sge *sge);
int ibtrace_ep_post(struct ib_qp *qp, const struct ib_send_wr *wr);

/**
 * struct ibtrace_ep_waiter - how a thread waits for an endpoint's
 *	completions (ibtrace_ep_wait())
 * @cq: the CQ: IB_POLL_DIRECT (the waiter polls it: busy) or not (its
 *	handlers run elsewhere and wake @wq)
 * @busy: poll @cq instead of sleeping on @wq
 * @wq: woken by the completion handlers
 * @events: completions handled, counted by the handlers (each ends with
 *	a release store of it, then a wake-up of @wq)
 * @stop: says why the waiter must stop now, or NULL
 * @ctx: @stop's argument
 * @slice_ms: how soon a stop is seen while sleeping
 */
struct ibtrace_ep_waiter {
	struct ib_cq *cq;
	bool busy;
	wait_queue_head_t *wq;
	const u64 *events;
	const char *(*stop)(void *ctx);
	void *ctx;
	unsigned int slice_ms;
};

int ibtrace_ep_wait(const struct ibtrace_ep_waiter *w, u64 seen,
		    unsigned long end);

/**
 * ibtrace_ep_seen() - the completions a waiter's handlers counted
 * @w: the waiter
 *
 * Return: the count; what the handlers wrote before it is visible.
 */
static inline u64 ibtrace_ep_seen(const struct ibtrace_ep_waiter *w)
{
	/* Pairs with the handlers' release store. */
	return smp_load_acquire(w->events);
}

#endif /* _IBTRACE_EP_H */
