// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the perf test's server side: the "perf" service of the
 * module's server (server.c). A connection request whose private data is
 * a &struct perf_req gets an RC QP and a buffer of the requested size
 * (counted against the server's max-mem-kb). Once the connection is up,
 * the QP registers the buffer for the one access the client asked for
 * (RDMA READ or RDMA WRITE) and sends the client a &struct perf_hello
 * with its address and key; then the server only answers the client's
 * RDMA operations, in the device, until the client disconnects or the
 * hold runs out.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "ep.h"
#include "ibtrace.h"
#include "perf.h"
#include "region.h"
#include "server.h"

/* RDMA READs the server answers at once, at most (the device may allow fewer). */
#define PERF_SRV_RD_ATOM	16

/**
 * struct perf_srv_conn - the verbs objects of one accepted connection
 * @ep: PD and CQ of the QP
 * @region: the buffer open to the client
 * @hello: the message (ibtrace_ep_msg_alloc())
 * @hello_dma: its DMA address
 * @reg_cqe: completion of the registration
 * @send_cqe: completion of the hello
 */
struct perf_srv_conn {
	struct ibtrace_ep ep;
	struct ibtrace_region region;
	struct perf_hello *hello;
	u64 hello_dma;
	struct ib_cqe reg_cqe;
	struct ib_cqe send_cqe;
};

static const struct perf_req *perf_srv_req(const struct ibtrace_srv_conn *conn)
{
	BUILD_BUG_ON(sizeof(struct perf_req) > sizeof(conn->req));
	BUILD_BUG_ON(offsetof(struct perf_req, version) != 4);
	return (const struct perf_req *)conn->req;
}

static void perf_srv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info_ratelimited("server: perf connection: %s\n",
				    ib_wc_status_msg(wc->status));
}

/* Values in range (the server checked the magic and the version). */
static int perf_srv_check(struct ibtrace_srv_conn *conn)
{
	const struct perf_req *p = perf_srv_req(conn);
	u32 bytes = be32_to_cpu(p->bytes);

	if (p->op > IBTRACE_PERF_OP_RDMA_WRITE || !bytes ||
	    bytes > IBTRACE_TEST_PERF_MAX_BYTES)
		return -EINVAL;
	conn->hold_ms = be32_to_cpu(p->hold_ms);
	conn->mem = PAGE_ALIGN(bytes);
	return 0;
}

/* What perf_srv_setup() made, the QP first; after a failed one too. */
static void perf_srv_release(struct ibtrace_srv_conn *conn)
{
	struct perf_srv_conn *s = conn->priv;

	if (conn->id->qp)
		rdma_destroy_qp(conn->id);
	ibtrace_region_destroy(&s->region);
	ibtrace_ep_msg_free(&s->ep, s->hello, sizeof(*s->hello),
			    DMA_TO_DEVICE, s->hello_dma);
	ibtrace_ep_destroy(&s->ep);
}

static int perf_srv_build(struct ibtrace_srv_conn *conn,
			  struct perf_srv_conn *s, const struct perf_req *p)
{
	struct ib_device *ibdev = conn->id->device;
	struct ib_qp_init_attr init;
	int err;

	err = ibtrace_ep_create(&s->ep, ibdev, s, 4, IB_POLL_WORKQUEUE);
	if (err)
		return err;
	err = ibtrace_region_create(&s->region, s->ep.pd, be32_to_cpu(p->bytes));
	if (err)
		return err;
	s->hello = ibtrace_ep_msg_alloc(&s->ep, sizeof(*s->hello),
					DMA_TO_DEVICE, &s->hello_dma);
	if (!s->hello)
		return -ENOMEM;
	ibtrace_ep_qp_attr(&init, s->ep.cq, 2, 1, 1);
	return rdma_create_qp(conn->id, s->ep.pd, &init);
}

static int perf_srv_setup(struct ibtrace_srv_conn *conn,
			  struct rdma_conn_param *param)
{
	const struct perf_req *p = perf_srv_req(conn);
	struct perf_srv_conn *s = conn->priv;
	int err;

	s->reg_cqe.done = perf_srv_done;
	s->send_cqe.done = perf_srv_done;
	err = perf_srv_build(conn, s, p);
	if (err) {
		perf_srv_release(conn);
		return err;
	}
	param->responder_resources =
		min_t(int, conn->id->device->attrs.max_qp_rd_atom,
		      PERF_SRV_RD_ATOM);
	param->retry_count = 7;
	param->rnr_retry_count = 7;
	return 0;
}

/* Open the buffer to the client, then tell it where it is. */
static int perf_srv_established(struct ibtrace_srv_conn *conn)
{
	struct perf_srv_conn *s = conn->priv;
	const struct perf_req *p = perf_srv_req(conn);
	int access = IB_ACCESS_LOCAL_WRITE |
		     (p->op == IBTRACE_PERF_OP_RDMA_READ ?
		      IB_ACCESS_REMOTE_READ : IB_ACCESS_REMOTE_WRITE);
	struct ib_sge sge = {
		.addr = s->hello_dma,
		.length = sizeof(*s->hello),
		.lkey = s->ep.pd->local_dma_lkey,
	};
	struct ib_send_wr send = {
		.wr_cqe = &s->send_cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_send_wr *reg;

	ib_dma_sync_single_for_cpu(s->ep.pd->device, s->hello_dma,
				   sizeof(*s->hello), DMA_TO_DEVICE);
	*s->hello = (struct perf_hello) {
		.magic = cpu_to_be32(PERF_HELLO_MAGIC),
		.version = PERF_VERSION,
		.rkey = cpu_to_be32(s->region.mr->rkey),
		.addr = cpu_to_be64(s->region.mr->iova),
		.bytes = cpu_to_be32(s->region.bytes),
	};
	ib_dma_sync_single_for_device(s->ep.pd->device, s->hello_dma,
				      sizeof(*s->hello), DMA_TO_DEVICE);
	reg = ibtrace_region_reg_wr(&s->region, access, &s->reg_cqe);
	reg->next = &send;
	return ibtrace_ep_post(conn->id->qp, reg);
}

static int perf_srv_fill(struct sk_buff *skb,
			 const struct ibtrace_srv_conn *conn)
{
	const struct perf_req *p = perf_srv_req(conn);

	if (nla_put_u8(skb, IBTRACE_SERVER_CONN_A_PERF_OP, p->op) ||
	    nla_put_u32(skb, IBTRACE_SERVER_CONN_A_PERF_BYTES,
			be32_to_cpu(p->bytes)))
		return -EMSGSIZE;
	return 0;
}

const struct ibtrace_srv_service ibtrace_srv_perf = {
	.name = "perf",
	.magic = PERF_REQ_MAGIC,
	.version = PERF_VERSION,
	.check = perf_srv_check,
	.setup = perf_srv_setup,
	.established = perf_srv_established,
	.release = perf_srv_release,
	.fill = perf_srv_fill,
	.priv_size = sizeof(struct perf_srv_conn),
};
