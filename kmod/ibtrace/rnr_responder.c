// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the RNR test's responder for peer hosts.
 *
 * With rnr_responder_port != 0 the module listens with the RDMA CM (TCP
 * port space, any address of init_net). A connection request whose
 * private data is a &struct rnr_priv gets an RC QP with min_rnr_timer =
 * the requested code and no receive buffer (one with
 * %RNR_PRIV_RECV_POSTED), so the requester's SEND is answered by RNR
 * NAKs. The QP states are driven here (rdma_init_qp_attr()), because the
 * CM would program min_rnr_timer 0 on the RTR transition; the reply
 * carries the requested rnr_retry, which the CM gives the requester's QP.
 *
 * A connection lives until the requester disconnects, or at most its
 * requested hold time (capped) plus a slack. At most
 * %RNR_RSP_MAX_CONNS at once; more are rejected. Everything is destroyed
 * by a work item (never in the CM handler, which must not destroy its own
 * ID), on module unload and on the CM's device removal event.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in6.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "rnr.h"

#define RNR_RSP_MAX_CONNS	16
/* Longest hold a request may ask for, and the slack on top of it. */
#define RNR_RSP_MAX_HOLD_MS	600000
#define RNR_RSP_SLACK_MS	10000
#define RNR_RSP_BACKLOG		16

/**
 * struct rnr_rsp_conn - one accepted connection
 * @list: entry in rnr_rsp_conns
 * @id: its RDMA CM ID
 * @pd: protection domain
 * @cq: completion queue of @qp
 * @qp: the responder QP
 * @buf: receive buffer of the negative control, or NULL
 * @dma: DMA address of @buf
 * @cqe: completion entry of that receive
 * @reap: destroys the connection (at disconnect, expiry, device removal)
 * @reaping: the connection is being destroyed; under rnr_rsp_lock
 */
struct rnr_rsp_conn {
	struct list_head list;
	struct rdma_cm_id *id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	void *buf;
	u64 dma;
	struct ib_cqe cqe;
	struct delayed_work reap;
	bool reaping;
};

#define RNR_RSP_BUF_SIZE	PAGE_SIZE

static struct rdma_cm_id *rnr_rsp_listen_id;
static struct workqueue_struct *rnr_rsp_wq;
static DEFINE_SPINLOCK(rnr_rsp_lock);	/* the list, the count, ->reaping */
static LIST_HEAD(rnr_rsp_conns);
static unsigned int rnr_rsp_n;

static void rnr_rsp_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
}

/*
 * The verbs objects of @conn, before its ID: the CM's device removal
 * waits for the ID, and the device must not go with objects left.
 */
static void rnr_rsp_free_verbs(struct rnr_rsp_conn *conn)
{
	if (conn->qp)
		ib_destroy_qp(conn->qp);
	if (conn->cq)
		ib_free_cq(conn->cq);
	if (conn->buf) {
		ib_dma_unmap_single(conn->pd->device, conn->dma,
				    RNR_RSP_BUF_SIZE, DMA_FROM_DEVICE);
		kfree(conn->buf);
	}
	if (conn->pd)
		ib_dealloc_pd(conn->pd);
}

/*
 * Everything of an accepted @conn. rdma_destroy_id() waits for a running
 * handler, which no longer re-arms @conn->reap (->reaping is set).
 */
static void rnr_rsp_teardown(struct rnr_rsp_conn *conn)
{
	rnr_rsp_free_verbs(conn);
	rdma_destroy_id(conn->id);
	kfree(conn);
}

static void rnr_rsp_reap(struct work_struct *work)
{
	struct rnr_rsp_conn *conn = container_of(to_delayed_work(work),
						 struct rnr_rsp_conn, reap);

	spin_lock(&rnr_rsp_lock);
	if (conn->reaping) {
		/* Module unload took it. */
		spin_unlock(&rnr_rsp_lock);
		return;
	}
	conn->reaping = true;
	list_del(&conn->list);
	rnr_rsp_n--;
	spin_unlock(&rnr_rsp_lock);
	rnr_rsp_teardown(conn);
}

/* Reap @conn now (disconnect, device removal); CM handler context. */
static void rnr_rsp_reap_now(struct rnr_rsp_conn *conn)
{
	spin_lock(&rnr_rsp_lock);
	if (!conn->reaping)
		mod_delayed_work(rnr_rsp_wq, &conn->reap, 0);
	spin_unlock(&rnr_rsp_lock);
}

/* INIT, RTR (with the requested min_rnr_timer), RTS, as the CM says. */
static int rnr_rsp_qp_up(struct rnr_rsp_conn *conn, u8 code)
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
		err = rdma_init_qp_attr(conn->id, &attr, &mask);
		if (err)
			return err;
		if (states[i] == IB_QPS_RTR) {
			attr.min_rnr_timer = code;
			mask |= IB_QP_MIN_RNR_TIMER;
		}
		err = ib_modify_qp(conn->qp, &attr, mask);
		if (err)
			return err;
	}
	return 0;
}

static int rnr_rsp_setup(struct rnr_rsp_conn *conn, const struct rnr_priv *p)
{
	struct ib_device *ibdev = conn->id->device;
	struct ib_qp_init_attr init;
	struct ib_sge sge;
	struct ib_recv_wr rwr = {
		.wr_cqe = &conn->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};
	int err;

	conn->pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(conn->pd)) {
		err = PTR_ERR(conn->pd);
		conn->pd = NULL;
		return err;
	}
	conn->cq = ib_alloc_cq(ibdev, conn, 2, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(conn->cq)) {
		err = PTR_ERR(conn->cq);
		conn->cq = NULL;
		return err;
	}
	rnr_qp_init_attr(&init, conn->cq);
	conn->qp = ib_create_qp(conn->pd, &init);
	if (IS_ERR(conn->qp)) {
		err = PTR_ERR(conn->qp);
		conn->qp = NULL;
		return err;
	}
	err = rnr_rsp_qp_up(conn, p->code);
	if (err)
		return err;
	if (!(p->flags & RNR_PRIV_RECV_POSTED))
		return 0;

	conn->buf = kzalloc(RNR_RSP_BUF_SIZE, GFP_KERNEL);
	if (!conn->buf)
		return -ENOMEM;
	conn->dma = ib_dma_map_single(ibdev, conn->buf, RNR_RSP_BUF_SIZE,
				      DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(ibdev, conn->dma)) {
		kfree(conn->buf);
		conn->buf = NULL;
		return -ENOMEM;
	}
	conn->cqe.done = rnr_rsp_recv_done;
	sge.addr = conn->dma;
	sge.length = RNR_RSP_BUF_SIZE;
	sge.lkey = conn->pd->local_dma_lkey;
	return ib_post_recv(conn->qp, &rwr, NULL);
}

/* Return: the private data, or NULL if it is not ours. */
static const struct rnr_priv *
rnr_rsp_priv(const struct rdma_cm_event *ev)
{
	const struct rnr_priv *p = ev->param.conn.private_data;

	if (!p || ev->param.conn.private_data_len < sizeof(*p))
		return NULL;
	if (be32_to_cpu(p->magic) != RNR_PRIV_MAGIC ||
	    p->version != RNR_PRIV_VERSION ||
	    p->code >= IBTRACE_TEST_RNR_CODES || p->rnr_retry > 7 ||
	    (p->flags & ~RNR_PRIV_RECV_POSTED))
		return NULL;
	return p;
}

/* A new connection request on @id (a new ID). Non-zero: destroy @id. */
static int rnr_rsp_request(struct rdma_cm_id *id,
			   const struct rdma_cm_event *ev)
{
	const struct rnr_priv *p = rnr_rsp_priv(ev);
	struct rdma_conn_param param = {};
	struct rnr_rsp_conn *conn;
	bool accepting = false;
	u32 hold_ms;
	int err;

	if (!p) {
		pr_info_ratelimited("RNR responder: a request without our private data, rejected\n");
		rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		return 1;
	}
	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn) {
		rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		return 1;
	}
	conn->id = id;
	INIT_LIST_HEAD(&conn->list);
	INIT_DELAYED_WORK(&conn->reap, rnr_rsp_reap);

	spin_lock(&rnr_rsp_lock);
	if (rnr_rsp_n >= RNR_RSP_MAX_CONNS) {
		spin_unlock(&rnr_rsp_lock);
		pr_info_ratelimited("RNR responder: %u connections already, request rejected\n",
				    RNR_RSP_MAX_CONNS);
		kfree(conn);
		rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		return 1;
	}
	rnr_rsp_n++;
	spin_unlock(&rnr_rsp_lock);

	err = rnr_rsp_setup(conn, p);
	if (err)
		goto err_free;
	id->context = conn;
	param.rnr_retry_count = p->rnr_retry;
	param.retry_count = 7;
	param.qp_num = conn->qp->qp_num;
	accepting = true;
	err = rdma_accept(id, &param);
	if (err)
		goto err_free;

	hold_ms = min_t(u32, be32_to_cpu(p->hold_ms), RNR_RSP_MAX_HOLD_MS) +
		  RNR_RSP_SLACK_MS;
	spin_lock(&rnr_rsp_lock);
	list_add_tail(&conn->list, &rnr_rsp_conns);
	queue_delayed_work(rnr_rsp_wq, &conn->reap, msecs_to_jiffies(hold_ms));
	spin_unlock(&rnr_rsp_lock);
	return 0;

err_free:
	pr_info_ratelimited("RNR responder: cannot accept a request (code %u): %pe\n",
			    p->code, ERR_PTR(err));
	spin_lock(&rnr_rsp_lock);
	rnr_rsp_n--;
	spin_unlock(&rnr_rsp_lock);
	id->context = NULL;
	/* rdma_accept() rejects itself when it fails. */
	if (!accepting)
		rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	rnr_rsp_free_verbs(conn);
	kfree(conn);
	return 1;
}

static int rnr_rsp_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rnr_rsp_conn *conn = id->context;

	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return rnr_rsp_request(id, ev);
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/* The listener's context is NULL: nothing to do there. */
		if (conn && id != rnr_rsp_listen_id)
			rnr_rsp_reap_now(conn);
		return 0;
	default:
		return 0;
	}
}

int ibtrace_rnr_responder_init(void)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
	};
	struct rdma_cm_id *id;
	int err;

	if (!ibtrace_rnr_responder_port)
		return 0;
	rnr_rsp_wq = alloc_workqueue("ibtrace_rnr_rsp", WQ_UNBOUND, 0);
	if (!rnr_rsp_wq)
		return -ENOMEM;
	id = rdma_create_id(&init_net, rnr_rsp_handler, NULL, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		err = PTR_ERR(id);
		goto err_wq;
	}
	sin6.sin6_port = htons(ibtrace_rnr_responder_port);
	err = rdma_bind_addr(id, (struct sockaddr *)&sin6);
	if (err)
		goto err_id;
	err = rdma_listen(id, RNR_RSP_BACKLOG);
	if (err)
		goto err_id;
	rnr_rsp_listen_id = id;
	pr_info("RNR responder listening on RDMA CM port %u\n",
		ibtrace_rnr_responder_port);
	return 0;

err_id:
	rdma_destroy_id(id);
err_wq:
	destroy_workqueue(rnr_rsp_wq);
	rnr_rsp_wq = NULL;
	pr_err("RNR responder: cannot listen on RDMA CM port %u: %pe\n",
	       ibtrace_rnr_responder_port, ERR_PTR(err));
	return err;
}

void ibtrace_rnr_responder_exit(void)
{
	struct rnr_rsp_conn *conn;

	if (!rnr_rsp_wq)
		return;
	/* No new connection after this; its handlers have returned. */
	rdma_destroy_id(rnr_rsp_listen_id);
	rnr_rsp_listen_id = NULL;
	for (;;) {
		spin_lock(&rnr_rsp_lock);
		conn = list_first_entry_or_null(&rnr_rsp_conns,
						struct rnr_rsp_conn, list);
		if (conn) {
			conn->reaping = true;
			list_del(&conn->list);
			rnr_rsp_n--;
		}
		spin_unlock(&rnr_rsp_lock);
		if (!conn)
			break;
		cancel_delayed_work_sync(&conn->reap);
		rnr_rsp_teardown(conn);
	}
	/* Reaps that were running finish before the module goes. */
	destroy_workqueue(rnr_rsp_wq);
	rnr_rsp_wq = NULL;
}
