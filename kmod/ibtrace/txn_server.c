// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the transaction test's server side: the "txn" service of the
 * module's server (server.c). A connection request whose private data is
 * a &struct txn_req gets an RC QP and a region of the size it names
 * (counted against the server's max-mem-kb), and a receive for the
 * client's setup. Once the connection is up, a work item per connection
 * reads the setup (the sequence, the client's region), registers the
 * region, answers with its address and key, walks the sequence as the
 * server (txn_seq.c) and sends its report. The walk ends early when the
 * client goes away (its QP flushes), at a stall, or when the server
 * releases the connection (a stop, the hold, the unload): release() asks
 * the walk to stop and waits for it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/workqueue.h>
#include <rdma/rdma_cm.h>

#include "ibtrace.h"
#include "server.h"
#include "txn_seq.h"

/* The client's setup arrives within this of the connection. */
#define TXN_SETUP_MS		5000

/**
 * struct txn_srv_conn - one accepted connection of the service
 * @side: the endpoint's server side
 * @seq: its sequence (from the client's setup)
 * @conn: the server's connection
 * @work: the walk
 * @stop: release() asks the walk to end
 * @iterations: the sequence's, once the setup came (for server show)
 * @done: iterations the walk completed (for server show)
 */
struct txn_srv_conn {
	struct txn_side side;
	struct txn_seq seq;
	struct ibtrace_srv_conn *conn;
	struct work_struct work;
	bool stop;
	u32 iterations;
	u32 done;
};

static const struct txn_req *txn_srv_req(const struct ibtrace_srv_conn *conn)
{
	BUILD_BUG_ON(sizeof(struct txn_req) > sizeof(conn->req));
	BUILD_BUG_ON(offsetof(struct txn_req, version) != 4);
	return (const struct txn_req *)conn->req;
}

/* Values in range (the server checked the magic and the version). */
static int txn_srv_check(struct ibtrace_srv_conn *conn)
{
	const struct txn_req *r = txn_srv_req(conn);
	u32 bytes = be32_to_cpu(r->bytes);

	if (!r->n_ops || r->n_ops > IBTRACE_TEST_TXN_MAX_OPS ||
	    r->flags & ~TXN_F_VALIDATE || !bytes ||
	    bytes > IBTRACE_TEST_TXN_MAX_BYTES + PAGE_SIZE)
		return -EINVAL;
	conn->hold_ms = be32_to_cpu(r->hold_ms);
	conn->mem = PAGE_ALIGN(bytes);
	return 0;
}

static const char *txn_srv_stop(void *ctx)
{
	struct txn_srv_conn *t = ctx;

	return READ_ONCE(t->stop) ? "the connection is released" : NULL;
}

/* The setup into the sequence; the answer's status. */
static int txn_srv_read_setup(struct txn_srv_conn *t)
{
	const struct txn_req *r = txn_srv_req(t->conn);
	const struct txn_setup *setup = &t->side.msg->setup;
	struct txn_seq seq;
	int err;

	err = txn_seq_from_wire(&seq, setup, r->n_ops);
	if (err)
		return err;
	if (seq.validate != !!(r->flags & TXN_F_VALIDATE) ||
	    seq.bytes != t->side.region.bytes ||
	    be32_to_cpu(setup->buf.bytes) < seq.bytes ||
	    (be32_to_cpu(setup->corrupt) && !seq.validate))
		return -EINVAL;
	t->seq = seq;
	WRITE_ONCE(t->iterations, seq.iterations);
	t->side.raddr = be64_to_cpu(setup->buf.addr);
	t->side.rkey = be32_to_cpu(setup->buf.rkey);
	return 0;
}

/* Register, fill, receives; then the answer. */
static int txn_srv_answer(struct txn_srv_conn *t)
{
	struct txn_side *s = &t->side;
	u32 corrupt = be32_to_cpu(s->msg->setup.corrupt);
	int status, err;

	status = txn_srv_read_setup(t);
	if (!status)
		status = txn_side_register(s);
	if (!status) {
		ibtrace_region_sync(&s->region, true);
		txn_side_fill(s, 0);
		if (corrupt)
			txn_side_flip(s, corrupt - 1);
		ibtrace_region_sync(&s->region, false);
		status = txn_side_first_recvs(s);
	}
	s->msg->ack = (struct txn_setup_ack) {
		.magic = cpu_to_be32(TXN_ACK_MAGIC),
		.version = TXN_VERSION,
		.status = cpu_to_be32(status),
	};
	if (!status)
		s->msg->ack.buf = (struct txn_buf) {
			.addr = cpu_to_be64(s->region.mr->iova),
			.rkey = cpu_to_be32(s->region.mr->rkey),
			.bytes = cpu_to_be32(s->region.bytes),
		};
	err = txn_side_send_msg(s);
	return status ?: err;
}

static void txn_srv_work(struct work_struct *work)
{
	struct txn_srv_conn *t = container_of(work, struct txn_srv_conn, work);
	struct txn_side *s = &t->side;
	u32 i, done = 0;
	u8 k;
	int err;

	err = txn_side_wait_msg(s, TXN_SETUP_MS);
	if (!err)
		err = txn_srv_answer(t);
	if (err) {
		pr_info_ratelimited("server: txn connection from %pI6c: cannot start: %pe\n",
				    t->conn->peer.raw, ERR_PTR(err));
		return;
	}
	for (i = 0; i < t->seq.iterations && !txn_side_begin(s, i); i++) {
		for (k = 0; k < t->seq.n_ops; k++) {
			txn_side_post(s, k);
			txn_side_reap(s, k);
		}
		if (!s->failed)
			WRITE_ONCE(t->done, ++done);
	}
	/* A walk cut short leaves a QP in error: no report can go. */
	if (!s->failed && !READ_ONCE(t->stop))
		txn_side_send_report(s, done, t->conn->hold_ms);
}

static void txn_srv_free(struct ibtrace_srv_conn *conn,
			 struct txn_srv_conn *t)
{
	if (conn->id->qp)
		rdma_destroy_qp(conn->id);
	txn_side_destroy(&t->side);
}

static int txn_srv_setup(struct ibtrace_srv_conn *conn,
			 struct rdma_conn_param *param)
{
	const struct txn_req *r = txn_srv_req(conn);
	struct ib_device *ibdev = conn->id->device;
	struct ib_qp_init_attr init;
	struct txn_srv_conn *t = conn->priv;
	int err;

	t->conn = conn;
	INIT_WORK(&t->work, txn_srv_work);
	t->seq.bytes = be32_to_cpu(r->bytes);
	t->side.seq = &t->seq;
	t->side.who = IBTRACE_TXN_SERVER;
	t->side.thread = be16_to_cpu(r->thread);
	t->side.ep = be16_to_cpu(r->ep);
	t->side.stop = txn_srv_stop;
	t->side.stop_ctx = t;
	err = txn_side_create(&t->side, ibdev);
	if (!err) {
		txn_side_qp_attr(&t->side, &init);
		err = rdma_create_qp(conn->id, t->side.vo.pd, &init);
	}
	if (!err) {
		t->side.qp = conn->id->qp;
		err = txn_side_post_msg_recv(&t->side, t->side.qp);
	}
	if (err) {
		txn_srv_free(conn, t);
		return err;
	}
	param->responder_resources = min_t(int, ibdev->attrs.max_qp_rd_atom,
					   TXN_RD_ATOM);
	param->initiator_depth = min_t(int, ibdev->attrs.max_qp_init_rd_atom,
				       TXN_RD_ATOM);
	param->retry_count = TXN_RETRY_CNT;
	param->rnr_retry_count = TXN_RETRY_CNT;
	return 0;
}

static int txn_srv_established(struct ibtrace_srv_conn *conn)
{
	struct txn_srv_conn *t = conn->priv;

	queue_work(system_unbound_wq, &t->work);
	return 0;
}

static void txn_srv_release(struct ibtrace_srv_conn *conn)
{
	struct txn_srv_conn *t = conn->priv;

	WRITE_ONCE(t->stop, true);
	cancel_work_sync(&t->work);
	txn_srv_free(conn, t);
}

/* The endpoint and the walk's progress (the server's lock held). */
static int txn_srv_fill(struct sk_buff *skb,
			const struct ibtrace_srv_conn *conn)
{
	const struct txn_req *r = txn_srv_req(conn);
	const struct txn_srv_conn *t = conn->priv;
	u32 iterations = READ_ONCE(t->iterations);

	if (nla_put_u32(skb, IBTRACE_SERVER_CONN_A_TXN_THREAD,
			be16_to_cpu(r->thread)) ||
	    nla_put_u32(skb, IBTRACE_SERVER_CONN_A_TXN_EP, be16_to_cpu(r->ep)) ||
	    nla_put_u32(skb, IBTRACE_SERVER_CONN_A_TXN_ITERATION,
			READ_ONCE(t->done)) ||
	    (iterations &&
	     nla_put_u32(skb, IBTRACE_SERVER_CONN_A_TXN_ITERATIONS, iterations)))
		return -EMSGSIZE;
	return 0;
}

const struct ibtrace_srv_service ibtrace_srv_txn = {
	.name = "txn",
	.magic = TXN_REQ_MAGIC,
	.version = TXN_VERSION,
	.check = txn_srv_check,
	.setup = txn_srv_setup,
	.established = txn_srv_established,
	.release = txn_srv_release,
	.fill = txn_srv_fill,
	.priv_size = sizeof(struct txn_srv_conn),
};
