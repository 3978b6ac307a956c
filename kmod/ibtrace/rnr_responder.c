// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the RNR test's responder for peer hosts: the "rnr" service of
 * the module's server (server.c), which listens only once an admin has
 * started it. A connection request whose
 * private data is a &struct rnr_priv gets an RC QP with min_rnr_timer =
 * the requested code and no receive buffer (one with
 * %RNR_PRIV_RECV_POSTED), so the requester's SEND is answered by RNR
 * NAKs. The QP states are driven here (rdma_init_qp_attr()), because the
 * CM would program min_rnr_timer 0 on the RTR transition; the reply
 * carries the requested rnr_retry, which the CM gives the requester's QP.
 *
 * The server bounds the connections and their hold times, and destroys
 * them; this file builds and frees one connection's verbs objects.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "ep.h"
#include "rnr.h"
#include "server.h"

/**
 * struct rnr_rsp_conn - the verbs objects of one accepted connection
 * @ep: PD and CQ of @qp
 * @qp: the responder QP
 * @buf: receive buffer of the negative control, or NULL
 * @dma: DMA address of @buf
 * @cqe: completion entry of that receive
 */
struct rnr_rsp_conn {
	struct ibtrace_ep ep;
	struct ib_qp *qp;
	void *buf;
	u64 dma;
	struct ib_cqe cqe;
};

#define RNR_RSP_BUF_SIZE	PAGE_SIZE

static void rnr_rsp_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
}

/* The verbs objects of @r, before the CM ID goes (device removal waits). */
static void rnr_rsp_free_verbs(struct rnr_rsp_conn *r)
{
	if (r->qp)
		ib_destroy_qp(r->qp);
	ibtrace_ep_free_cq(&r->ep);
	ibtrace_ep_msg_free(&r->ep, r->buf, RNR_RSP_BUF_SIZE, DMA_FROM_DEVICE,
			    r->dma);
	ibtrace_ep_destroy(&r->ep);
}

/* INIT, RTR (with the requested min_rnr_timer), RTS, as the CM says. */
static int rnr_rsp_qp_up(struct rdma_cm_id *id, struct rnr_rsp_conn *r,
			 u8 code)
{
	static const enum ib_qp_state states[] = {
		IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS,
	};
	struct ib_qp_attr attr;
	unsigned int i;
	int mask, err;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = states[i];
		err = rdma_init_qp_attr(id, &attr, &mask);
		if (err)
			return err;
		if (states[i] == IB_QPS_RTR) {
			attr.min_rnr_timer = code;
			mask |= IB_QP_MIN_RNR_TIMER;
		}
		err = ib_modify_qp(r->qp, &attr, mask);
		if (err)
			return err;
	}
	return 0;
}

static int rnr_rsp_build(struct rdma_cm_id *id, struct rnr_rsp_conn *r,
			 const struct rnr_priv *p)
{
	struct ib_device *ibdev = id->device;
	struct ib_qp_init_attr init;
	struct ib_sge sge;
	int err;

	err = ibtrace_ep_create(&r->ep, ibdev, r, 2, IB_POLL_WORKQUEUE);
	if (err)
		return err;
	ibtrace_ep_qp_attr(&init, r->ep.cq, 1, 1, 1);
	r->qp = ib_create_qp(r->ep.pd, &init);
	if (IS_ERR(r->qp)) {
		err = PTR_ERR(r->qp);
		r->qp = NULL;
		return err;
	}
	err = rnr_rsp_qp_up(id, r, p->code);
	if (err)
		return err;
	if (!(p->flags & RNR_PRIV_RECV_POSTED))
		return 0;

	r->buf = ibtrace_ep_msg_alloc(&r->ep, RNR_RSP_BUF_SIZE,
				      DMA_FROM_DEVICE, &r->dma);
	if (!r->buf)
		return -ENOMEM;
	r->cqe.done = rnr_rsp_recv_done;
	sge.addr = r->dma;
	sge.length = RNR_RSP_BUF_SIZE;
	sge.lkey = r->ep.pd->local_dma_lkey;
	return ibtrace_ep_post_recv(r->qp, &r->cqe, &sge);
}

static const struct rnr_priv *rnr_rsp_priv(const struct ibtrace_srv_conn *conn)
{
	BUILD_BUG_ON(sizeof(struct rnr_priv) > sizeof(conn->req));
	return (const struct rnr_priv *)conn->req;
}

/* Values in range (the server checked the magic and the version). */
static int rnr_rsp_check(struct ibtrace_srv_conn *conn)
{
	const struct rnr_priv *p = rnr_rsp_priv(conn);

	if (p->code >= IBTRACE_TEST_RNR_CODES || p->rnr_retry > 7 ||
	    (p->flags & ~RNR_PRIV_RECV_POSTED))
		return -EINVAL;
	conn->hold_ms = be32_to_cpu(p->hold_ms);
	conn->mem = p->flags & RNR_PRIV_RECV_POSTED ? RNR_RSP_BUF_SIZE : 0;
	return 0;
}

static int rnr_rsp_setup(struct ibtrace_srv_conn *conn,
			 struct rdma_conn_param *param)
{
	const struct rnr_priv *p = rnr_rsp_priv(conn);
	struct rnr_rsp_conn *r = conn->priv;
	int err;

	err = rnr_rsp_build(conn->id, r, p);
	if (err) {
		rnr_rsp_free_verbs(r);
		return err;
	}
	param->rnr_retry_count = p->rnr_retry;
	param->retry_count = 7;
	param->qp_num = r->qp->qp_num;
	return 0;
}

static void rnr_rsp_release(struct ibtrace_srv_conn *conn)
{
	rnr_rsp_free_verbs(conn->priv);
}

static int rnr_rsp_fill(struct sk_buff *skb,
			const struct ibtrace_srv_conn *conn)
{
	const struct rnr_priv *p = rnr_rsp_priv(conn);

	if (nla_put_u8(skb, IBTRACE_SERVER_CONN_A_RNR_TIMER, p->code) ||
	    ((p->flags & RNR_PRIV_RECV_POSTED) &&
	     nla_put_flag(skb, IBTRACE_SERVER_CONN_A_RNR_RECV_POSTED)))
		return -EMSGSIZE;
	return 0;
}

const struct ibtrace_srv_service ibtrace_srv_rnr = {
	.name = "rnr",
	.magic = RNR_PRIV_MAGIC,
	.version = RNR_PRIV_VERSION,
	.check = rnr_rsp_check,
	.setup = rnr_rsp_setup,
	.release = rnr_rsp_release,
	.fill = rnr_rsp_fill,
	.priv_size = sizeof(struct rnr_rsp_conn),
};
