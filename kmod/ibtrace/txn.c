// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the transaction test (dapltest -T T): a sequence of SEND/RECV
 * ("SR"), RDMA READ ("RR") and RDMA WRITE ("RW") operations, each posted
 * by the client (this job) or by a peer's ibtrace server ("txn" service,
 * txn_server.c), run ITERATIONS times over THREADS x ENDPOINTS RC
 * connections; with validation, every byte received is checked.
 *
 * Each thread (a work item) connects its endpoints through the RDMA CM
 * (peer.c), one after the other: the request names the service, the
 * sequence's size and the endpoint; once connected the client registers
 * its region, sends its setup (the sequence, its region's address and
 * key) and waits for the server's answer (its region's). Then the thread
 * walks the sequence (txn_seq.c) in lock step: each operation is posted on
 * every endpoint, then reaped on every endpoint. After the last iteration
 * each endpoint receives the server's report (its operations, errors and
 * checks). An endpoint whose walk stops (a completion in error, no
 * completion for TXN_STALL_MS, its server's disconnect TXN_GONE_GRACE_MS
 * ago, a cancel) does nothing more; the others go on.
 *
 * Assertions: dapltest-T#01, per endpoint, every operation of every
 * iteration completed on both sides; dapltest-T#02 (validation only), per
 * endpoint, no byte either side received differed from what the other
 * side sent. A connection that cannot be made ends the job in error.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "netlink.h"
#include "peer.h"
#include "txn_seq.h"
#include "test.h"

/*
 * A walk waiting on an endpoint whose server ended the connection stops
 * this long after the end (not TXN_STALL_MS later): what the server sent
 * before it may still be completing here (ibtrace_peer_ended_for()).
 */
#define TXN_GONE_GRACE_MS	2000
/* The server's answer arrives within this of the setup. */
#define TXN_ACK_MS		5000
/* The hold asked of the server: this, plus per operation, plus per byte. */
#define TXN_HOLD_BASE_MS	10000
#define TXN_HOLD_OPS_PER_MS	10
#define TXN_HOLD_BYTES_PER_MS	1000
/* Endpoints' figures in an event at most (it must fit a page). */
#define TXN_EVENT_FIGS		4
/* Endpoints of a test at most. */
#define TXN_MAX_CONNS	(IBTRACE_TEST_TXN_MAX_THREADS * \
			 IBTRACE_TEST_TXN_MAX_ENDPOINTS)

enum {
	TXN_A_COMPLETE,
	TXN_A_VALID,
	TXN_N_ASSERTS,
};

static const struct ibtrace_assert_def ibtrace_txn_asserts[] = {
	[TXN_A_COMPLETE] = { "dapltest-T#01",
		"every operation of every iteration completes, on both sides of every endpoint" },
	[TXN_A_VALID] = { "dapltest-T#02",
		"with validation, every byte each side received is the byte the other side sent" },
};

/**
 * struct txn_fig - the figures of one endpoint
 * @thread: its thread
 * @ep: its number in the thread
 * @server_version: the version of the server's answer, 0 = none came
 * @iterations: iterations the client completed
 * @ops: operations of the sequence completed, both sides
 * @server_ops: of those, the server's
 * @bytes: bytes they moved
 * @errors: completions in error, both sides
 * @wc_status: the first one's status
 * @elapsed_ns: the client's first post to its last completion
 * @check: both sides' checks
 */
struct txn_fig {
	u32 thread;
	u32 ep;
	u32 server_version;
	u32 iterations;
	u64 ops;
	u64 server_ops;
	u64 bytes;
	u64 errors;
	enum ib_wc_status wc_status;
	u64 elapsed_ns;
	struct txn_check check;
};

/**
 * struct ibtrace_txn_data - the figures (job->data, under job->base.lock)
 * @n_figs: endpoints whose figures are set (in the order they finished)
 * @figs: those figures
 */
struct ibtrace_txn_data {
	u32 n_figs;
	struct txn_fig figs[TXN_MAX_CONNS];
};

struct txn_thread;

/**
 * struct txn_conn - one endpoint of the client
 * @side: its side of the walk
 * @peer: its connection
 * @t: its thread
 * @server_version: the version of the server's answer, 0 = none came
 * @err: why its walk stopped, 0 = it did not
 * @connected: the setup was answered: the walk may start
 * @iterations: iterations it completed
 * @reported: the server's report came
 * @rep: that report
 */
struct txn_conn {
	struct txn_side side;
	struct ibtrace_peer peer;
	struct txn_thread *t;
	u32 server_version;
	int err;
	bool connected;
	u32 iterations;
	bool reported;
	struct txn_server_report rep;
};

/**
 * struct txn_thread - one thread of the client
 * @job: the job
 * @seq: the sequence
 * @index: its number
 * @conns: its endpoints
 * @work: its work item
 */
struct txn_thread {
	struct ibtrace_test_job *job;
	const struct txn_seq *seq;
	u16 index;
	struct txn_conn *conns;
	struct work_struct work;
};

/* An endpoint's walk stops for its job, or for its server's going. */
static const char *txn_stop(void *ctx)
{
	struct txn_conn *c = ctx;
	const char *why = ibtrace_test_stop_reason(c->t->job);

	if (!why && ibtrace_peer_ended_for(&c->peer, TXN_GONE_GRACE_MS))
		why = "the server ended the connection";
	return why;
}

static u32 txn_hold_ms(const struct txn_seq *seq)
{
	u64 ms = TXN_HOLD_BASE_MS +
		 div_u64((u64)seq->iterations * seq->n_ops,
			 TXN_HOLD_OPS_PER_MS) +
		 div_u64((u64)seq->iterations * seq->bytes,
			 TXN_HOLD_BYTES_PER_MS);

	return min_t(u64, ms, IBTRACE_SERVER_MAX_HOLD_MS);
}

/* peer.c's hook: the receive of the server's answer, before the request. */
static int txn_qp_ready(struct ibtrace_peer *p, struct ib_qp *qp)
{
	struct txn_conn *c = container_of(p, struct txn_conn, peer);

	return txn_side_post_msg_recv(&c->side, qp);
}

static int txn_connect(struct txn_conn *c)
{
	struct ibtrace_test_job *job = c->t->job;
	const struct txn_seq *seq = c->t->seq;
	struct ib_device *ibdev = job->base.port->dev->ibdev;
	struct txn_req req = {
		.magic = cpu_to_be32(TXN_REQ_MAGIC),
		.version = TXN_VERSION,
		.flags = seq->validate ? TXN_F_VALIDATE : 0,
		.n_ops = seq->n_user,
		.hold_ms = cpu_to_be32(txn_hold_ms(seq)),
		.bytes = cpu_to_be32(seq->bytes),
		.thread = cpu_to_be16(c->side.thread),
		.ep = cpu_to_be16(c->side.ep),
	};
	struct rdma_conn_param param = {
		.private_data = &req,
		.private_data_len = sizeof(req),
		.responder_resources = min_t(int, ibdev->attrs.max_qp_rd_atom,
					     TXN_RD_ATOM),
		.initiator_depth = min_t(int, ibdev->attrs.max_qp_init_rd_atom,
					 TXN_RD_ATOM),
		.retry_count = TXN_RETRY_CNT,
		.rnr_retry_count = TXN_RETRY_CNT,
	};
	struct ib_qp_init_attr init;
	int err;

	err = txn_side_create(&c->side, ibdev);
	if (err) {
		snprintf(c->peer.why, sizeof(c->peer.why),
			 "cannot make the endpoint's verbs objects: %pe",
			 ERR_PTR(err));
		return -ENOTCONN;
	}
	txn_side_qp_attr(&c->side, &init);
	c->peer.job = job;
	c->peer.qp_ready = txn_qp_ready;
	c->peer.ack_timeout = job->args.ack_timeout;
	return ibtrace_peer_connect(&c->peer, c->side.vo.pd, &init, &param,
				    &c->side.qp);
}

/* Connected: register, fill, receives, setup; the server's answer. */
static int txn_handshake(struct txn_conn *c)
{
	const struct ibtrace_test_args *a = &c->t->job->args;
	struct txn_side *s = &c->side;
	struct txn_setup *setup = &s->msg->setup;
	const struct txn_setup_ack *ack = &s->msg->ack;
	int err, status;

	err = txn_side_register(s);
	if (err)
		return err;
	ibtrace_region_sync(&s->region, true);
	txn_side_fill(s, 0);
	ibtrace_region_sync(&s->region, false);
	err = txn_side_first_recvs(s);
	if (err)
		return err;
	*setup = (struct txn_setup) {
		.magic = cpu_to_be32(TXN_SETUP_MAGIC),
		.version = TXN_VERSION,
		.corrupt = cpu_to_be32(a->txn_corrupt),
		.buf = {
			.addr = cpu_to_be64(s->region.mr->iova),
			.rkey = cpu_to_be32(s->region.mr->rkey),
			.bytes = cpu_to_be32(s->region.bytes),
		},
	};
	txn_seq_to_wire(c->t->seq, setup);
	err = txn_side_send_msg(s);
	if (!err)
		err = txn_side_wait_msg(s, TXN_ACK_MS);
	if (err == -ETIMEDOUT || err == -ECANCELED) {
		if (ibtrace_peer_lost(&c->peer, "the server's answer"))
			return -ENOTCONN;
		if (err == -ECANCELED)
			return err;
		snprintf(c->peer.why, sizeof(c->peer.why),
			 "the ibtrace server at %pI6c port %u did not answer the transaction setup within %u ms",
			 a->peer_gid.raw, a->peer_port, TXN_ACK_MS);
		return -ENOTCONN;
	}
	if (err)
		return err;
	if (be32_to_cpu(ack->magic) != TXN_ACK_MAGIC || !ack->version) {
		snprintf(c->peer.why, sizeof(c->peer.why),
			 "the server at %pI6c port %u sent no valid answer to the transaction setup",
			 a->peer_gid.raw, a->peer_port);
		return -ENOTCONN;
	}
	c->server_version = ack->version;
	status = be32_to_cpu(ack->status);
	if (ack->version != TXN_VERSION || status) {
		/* From the wire: only an errno is shown as one. */
		if (status >= 0 || status < -MAX_ERRNO)
			status = -EPROTO;
		snprintf(c->peer.why, sizeof(c->peer.why),
			 "the server at %pI6c port %u (txn version %u, this module %u) refused the sequence: %pe",
			 a->peer_gid.raw, a->peer_port, ack->version,
			 TXN_VERSION, ERR_PTR(status));
		return -ENOTCONN;
	}
	if (be32_to_cpu(ack->buf.bytes) < c->t->seq->bytes) {
		snprintf(c->peer.why, sizeof(c->peer.why),
			 "the server at %pI6c port %u offers %u bytes for %u",
			 a->peer_gid.raw, a->peer_port,
			 be32_to_cpu(ack->buf.bytes), c->t->seq->bytes);
		return -ENOTCONN;
	}
	s->raddr = be64_to_cpu(ack->buf.addr);
	s->rkey = be32_to_cpu(ack->buf.rkey);
	return 0;
}

/* Connect and set up every endpoint of @t; stop at the first failure. */
static int txn_thread_connect(struct txn_thread *t)
{
	u32 e;
	int err;

	for (e = 0; e < t->job->args.txn_endpoints; e++) {
		struct txn_conn *c = &t->conns[e];

		err = txn_connect(c);
		if (!err)
			err = txn_handshake(c);
		if (err) {
			c->err = err;
			return err;
		}
		c->connected = true;
	}
	return 0;
}

/* The walk, in lock step over the endpoints; then the reports. */
static void txn_thread_walk(struct txn_thread *t)
{
	u32 n = t->job->args.txn_endpoints, e, i;
	const struct txn_seq *seq = t->seq;
	struct txn_conn *c;
	u8 k;

	for (i = 0; i < seq->iterations; i++) {
		bool any = false;

		for (e = 0; e < n; e++)
			txn_side_begin(&t->conns[e].side, i);
		for (k = 0; k < seq->n_ops; k++) {
			for (e = 0; e < n; e++)
				txn_side_post(&t->conns[e].side, k);
			for (e = 0; e < n; e++)
				txn_side_reap(&t->conns[e].side, k);
		}
		for (e = 0; e < n; e++) {
			c = &t->conns[e];
			if (!c->side.failed) {
				c->iterations++;
				any = true;
			}
		}
		if (!any)
			break;
	}
	for (e = 0; e < n; e++) {
		c = &t->conns[e];
		if (c->side.failed)
			continue;
		c->err = txn_side_report_recv(&c->side) ?:
			 txn_side_wait_report(&c->side, &c->rep);
		c->reported = !c->err;
	}
}

/* An endpoint's figures into job->data; no completion handler runs. */
static void txn_figures(struct txn_conn *c)
{
	struct ibtrace_test_job *job = c->t->job;
	struct ibtrace_txn_data *d = job->data;
	const struct txn_side *s = &c->side;
	struct txn_fig f = {
		.thread = s->thread,
		.ep = s->ep,
		.server_version = c->server_version,
		.iterations = c->iterations,
		.ops = s->ops + c->rep.ops,
		.server_ops = c->rep.ops,
		.bytes = s->bytes + c->rep.bytes,
		.errors = s->errors + c->rep.errors,
		.wc_status = s->errors ? s->first_err : c->rep.wc_status,
		.elapsed_ns = s->t_last > s->t_first ? s->t_last - s->t_first : 0,
		.check = s->check,
	};

	txn_check_merge(&f.check, &s->peer_check);
	mutex_lock(&job->base.lock);
	if (!WARN_ON_ONCE(d->n_figs >= TXN_MAX_CONNS))
		d->figs[d->n_figs++] = f;
	mutex_unlock(&job->base.lock);
	/* The tool prints each endpoint once, as it finishes. */
	ibtrace_test_progress(job);
}

static void txn_thread_work(struct work_struct *work)
{
	struct txn_thread *t = container_of(work, struct txn_thread, work);
	u32 e;

	if (!txn_thread_connect(t))
		txn_thread_walk(t);
	/* Operations cut short are flushed; then the handlers are done. */
	for (e = 0; e < t->job->args.txn_endpoints; e++) {
		struct txn_conn *c = &t->conns[e];

		/* Says why first: the disconnect ends what peer.c saw. */
		if (c->connected && (c->side.failed || c->err))
			ibtrace_peer_lost(&c->peer, "the sequence");
		ibtrace_peer_disconnect(&c->peer);
		ibtrace_ep_free_cq(&c->side.vo);
		if (c->connected)
			txn_figures(c);
	}
}

/* Why an endpoint's walk stopped, for the verdict. */
static void txn_why(const struct txn_conn *c, char *buf, size_t len)
{
	int err = c->side.err ?: c->err;

	if (c->peer.why[0])
		snprintf(buf, len, "%s", c->peer.why);
	else if (c->side.errors)
		snprintf(buf, len, "a completion in error (%s)",
			 ib_wc_status_msg(c->side.first_err));
	else if (err == -ETIMEDOUT)
		snprintf(buf, len, "no completion for %u ms", TXN_STALL_MS);
	else if (c->err == -EPROTO)
		snprintf(buf, len, "the server's report was not one");
	else if (c->rep.errors)
		snprintf(buf, len, "the server saw %llu completions in error (%s)",
			 c->rep.errors, ib_wc_status_msg(c->rep.wc_status));
	else if (c->reported && c->rep.iterations != c->t->seq->iterations)
		snprintf(buf, len, "the server completed %u iterations",
			 c->rep.iterations);
	else
		snprintf(buf, len, "%pe", ERR_PTR(err ?: -EIO));
}

/* The checks of one endpoint. */
static void txn_judge(struct txn_conn *c)
{
	struct ibtrace_test_job *job = c->t->job;
	const struct txn_seq *seq = c->t->seq;
	const struct txn_side *s = &c->side;
	char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];
	char why[IBTRACE_TEST_REASON_LEN];
	struct txn_check chk = s->check;
	bool ok;

	ok = c->reported && !c->err && c->iterations == seq->iterations &&
	     c->rep.iterations == seq->iterations && !s->errors &&
	     !c->rep.errors;
	snprintf(exp, sizeof(exp), "%u iterations, no error", seq->iterations);
	snprintf(obs, sizeof(obs), "%u iterations, %llu errors",
		 c->iterations, s->errors + c->rep.errors);
	if (!ibtrace_test_check(job, TXN_A_COMPLETE, ok, exp, obs,
				"thread %u endpoint %u", s->thread, s->ep)) {
		txn_why(c, why, sizeof(why));
		ibtrace_test_fail(job, "thread %u endpoint %u, iteration %u: %s",
				  s->thread, s->ep, c->iterations, why);
	}
	if (!seq->validate)
		return;
	txn_check_merge(&chk, &s->peer_check);
	snprintf(obs, sizeof(obs), "%llu byte%s differ%s", chk.mismatches,
		 chk.mismatches == 1 ? "" : "s", chk.mismatches == 1 ? "s" : "");
	if (!ibtrace_test_check(job, TXN_A_VALID, !chk.mismatches,
				"0 bytes differ", obs,
				"thread %u endpoint %u", s->thread, s->ep))
		ibtrace_test_fail(job,
				  "thread %u endpoint %u: byte %u of op %u in iteration %u was 0x%02x, expected 0x%02x (%s)",
				  s->thread, s->ep, chk.offset, chk.op,
				  chk.iteration, chk.observed, chk.expected, obs);
}

/* What the device cannot do is not applicable; say which limit. */
static bool txn_applicable(struct ibtrace_test_job *job,
			   const struct txn_seq *seq)
{
	const struct ib_device_attr *attr = &job->base.port->dev->ibdev->attrs;
	unsigned int k;

	for (k = 0; k < seq->n_ops; k++) {
		const struct txn_op *op = &seq->ops[k];
		u32 max = op->type == IBTRACE_TXN_RR ? attr->max_sge_rd :
			  attr->max_send_sge;

		if (op->segs > max) {
			ibtrace_test_not_applicable(job,
						    "op %u: %u segments: %s takes at most %u per operation",
						    k, op->segs,
						    job->base.dev_name, max);
			return false;
		}
	}
	return ibtrace_test_region_applicable(job, seq->bytes);
}

/* The sequence of the request (checked by ibtrace_txn_check()). */
static void txn_seq_of(const struct ibtrace_test_args *a, struct txn_seq *seq)
{
	unsigned int k;

	memset(seq, 0, sizeof(*seq));
	seq->n_user = a->txn_n_ops;
	seq->validate = a->txn_validate;
	seq->iterations = a->iterations;
	for (k = 0; k < a->txn_n_ops; k++)
		seq->ops[k] = (struct txn_op) {
			.who = a->txn_ops[k].who,
			.type = a->txn_ops[k].type,
			.reap = a->txn_ops[k].reap,
			.seg_size = a->txn_ops[k].seg_size,
			.segs = a->txn_ops[k].segs,
		};
	txn_seq_layout(seq);
}

/* The first connection that failed says why the job cannot run. */
static bool txn_connect_error(struct ibtrace_test_job *job,
			      struct txn_thread *threads)
{
	const struct ibtrace_test_args *a = &job->args;
	const char *why = ibtrace_test_stop_reason(job);
	u32 t, e;

	for (t = 0; t < a->txn_threads; t++)
		for (e = 0; e < a->txn_endpoints; e++) {
			const struct txn_conn *c = &threads[t].conns[e];

			if (c->connected || !c->err)
				continue;
			if (c->peer.why[0])
				ibtrace_test_abort(job,
						   "thread %u endpoint %u: %s",
						   t, e, c->peer.why);
			else if (why)
				ibtrace_test_abort(job, "%s (connecting)", why);
			else
				ibtrace_test_abort(job,
						   "thread %u endpoint %u: connecting: %pe",
						   t, e, ERR_PTR(c->err));
			return true;
		}
	return false;
}

static void txn_free(struct ibtrace_test_job *job, struct txn_thread *threads)
{
	u32 t, e;

	for (t = 0; t < job->args.txn_threads; t++) {
		if (!threads[t].conns)
			continue;
		for (e = 0; e < job->args.txn_endpoints; e++)
			txn_side_destroy(&threads[t].conns[e].side);
		kfree(threads[t].conns);
	}
	kfree(threads);
}

static void ibtrace_txn_run(struct ibtrace_test_job *job)
{
	const struct ibtrace_test_args *a = &job->args;
	struct txn_thread *threads;
	struct txn_seq *seq;
	u32 t, e;

	seq = kzalloc(sizeof(*seq), GFP_KERNEL);
	threads = kcalloc(a->txn_threads, sizeof(*threads), GFP_KERNEL);
	if (!seq || !threads)
		goto nomem;
	txn_seq_of(a, seq);
	if (!txn_applicable(job, seq))
		goto out;
	for (t = 0; t < a->txn_threads; t++) {
		struct txn_thread *th = &threads[t];

		th->conns = kcalloc(a->txn_endpoints, sizeof(*th->conns),
				    GFP_KERNEL);
		if (!th->conns)
			goto nomem;
		th->job = job;
		th->seq = seq;
		th->index = t;
		INIT_WORK(&th->work, txn_thread_work);
		for (e = 0; e < a->txn_endpoints; e++) {
			struct txn_side *s = &th->conns[e].side;

			th->conns[e].t = th;
			s->seq = seq;
			s->who = IBTRACE_TXN_CLIENT;
			s->thread = t;
			s->ep = e;
			s->busy = a->poll != IBTRACE_TEST_POLL_EVENT;
			s->stop = txn_stop;
			s->stop_ctx = &th->conns[e];
		}
	}
	for (t = 0; t < a->txn_threads; t++)
		queue_work(system_unbound_wq, &threads[t].work);
	/* Each thread's waits are bounded (txn_seq.c, peer.c). */
	for (t = 0; t < a->txn_threads; t++)
		flush_work(&threads[t].work);
	if (ibtrace_test_stop_reason(job))
		ibtrace_test_abort(job, "%s", ibtrace_test_stop_reason(job));
	else if (!txn_connect_error(job, threads))
		for (t = 0; t < a->txn_threads; t++)
			for (e = 0; e < a->txn_endpoints; e++)
				txn_judge(&threads[t].conns[e]);
	ibtrace_test_progress(job);
	goto out;
nomem:
	ibtrace_test_abort(job, "no memory");
out:
	if (threads)
		txn_free(job, threads);
	kfree(seq);
}

/* One operation of the request. */
static int txn_check_op(struct ibtrace_test_args *a, const struct nlattr *nla,
			struct netlink_ext_ack *extack)
{
	struct nlattr *tb[IBTRACE_TXN_OP_A_REAP + 1];
	struct ibtrace_test_txn_op *op;
	int err;

	if (a->txn_n_ops == IBTRACE_TEST_TXN_MAX_OPS) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "the transaction test takes at most "
				    __stringify(IBTRACE_TEST_TXN_MAX_OPS) " operations");
		return -EINVAL;
	}
	/* The policy checked it already; this only splits it. */
	err = nla_parse_nested(tb, IBTRACE_TXN_OP_A_REAP, nla, NULL, extack);
	if (err)
		return err;
	if (!tb[IBTRACE_TXN_OP_A_WHO] || !tb[IBTRACE_TXN_OP_A_TYPE]) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "an operation needs who posts it and its type");
		return -EINVAL;
	}
	op = &a->txn_ops[a->txn_n_ops++];
	op->who = nla_get_u8(tb[IBTRACE_TXN_OP_A_WHO]);
	op->type = nla_get_u8(tb[IBTRACE_TXN_OP_A_TYPE]);
	op->reap = nla_get_flag(tb[IBTRACE_TXN_OP_A_REAP]);
	op->seg_size = ibtrace_nl_get_u32(tb, IBTRACE_TXN_OP_A_SEG_SIZE,
					  IBTRACE_TEST_PERF_DEF_SEG_SIZE);
	op->segs = ibtrace_nl_get_u32(tb, IBTRACE_TXN_OP_A_SEGS, 1);
	if (op->reap && op->type != IBTRACE_TXN_SR) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IBTRACE_TXN_OP_A_REAP],
				    "only a SEND (SR) can be reaped with a receive");
		return -EINVAL;
	}
	if ((u64)op->seg_size * op->segs > IBTRACE_TEST_TXN_MAX_BYTES) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "an operation's segment size times segments is over "
				    __stringify(IBTRACE_TEST_TXN_MAX_BYTES) " bytes");
		return -EINVAL;
	}
	return 0;
}

/* Whether the request's sequence has a SEND by @who. */
static bool txn_has_sr(const struct ibtrace_test_args *a, u8 who)
{
	unsigned int k;

	for (k = 0; k < a->txn_n_ops; k++)
		if (a->txn_ops[k].who == who &&
		    a->txn_ops[k].type == IBTRACE_TXN_SR)
			return true;
	return false;
}

/* The transaction test's checks and defaults of a request. */
static int ibtrace_txn_check(struct ibtrace_test_args *a,
			     const struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct nlattr *corrupt = attrs[IBTRACE_A_TEST_TXN_CORRUPT];
	const struct nlattr *nla, *last = NULL;
	struct txn_seq seq;
	int rem, err, k;
	u64 bytes = 0;

	if (!a->peer) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TEST_NAME],
				    "the transaction test needs the GID of a peer whose ibtrace server runs");
		return -EINVAL;
	}
	nla_for_each_attr(nla, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(nla) != IBTRACE_A_TEST_TXN_OP)
			continue;
		err = txn_check_op(a, nla, extack);
		if (err)
			return err;
		last = nla;
	}
	if (!a->txn_n_ops) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TEST_NAME],
				    "the transaction test needs at least one operation");
		return -EINVAL;
	}
	a->txn_threads = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_TXN_THREADS, 1);
	a->txn_endpoints = ibtrace_nl_get_u32(attrs,
					      IBTRACE_A_TEST_TXN_ENDPOINTS, 1);
	a->txn_validate = nla_get_flag(attrs[IBTRACE_A_TEST_TXN_VALIDATE]);
	/* dapltest's rule; validation's SENDs go both ways. */
	if (!a->txn_validate && (!txn_has_sr(a, IBTRACE_TXN_CLIENT) ||
				 !txn_has_sr(a, IBTRACE_TXN_SERVER))) {
		NL_SET_ERR_MSG_ATTR(extack, last,
				    "without validation the sequence needs a SEND (SR) each way: client and server");
		return -EINVAL;
	}
	if (!a->iterations)
		a->iterations = IBTRACE_TEST_TXN_DEF_ITERATIONS;
	/* dapltest -T T waits for its completions unless -P: so by default. */
	if (!attrs[IBTRACE_A_TEST_POLL])
		a->poll = IBTRACE_TEST_POLL_EVENT;
	txn_seq_of(a, &seq);
	if (a->txn_validate &&
	    a->txn_n_ops + 3 > IBTRACE_TEST_TXN_MAX_OPS) {
		NL_SET_ERR_MSG_ATTR(extack, last,
				    "validation appends three operations: at most "
				    __stringify(IBTRACE_TEST_TXN_MAX_OPS) " in all");
		return -EINVAL;
	}
	for (k = 0; k < a->txn_n_ops; k++)
		bytes += (u64)a->txn_ops[k].seg_size * a->txn_ops[k].segs;
	if (bytes > IBTRACE_TEST_TXN_MAX_BYTES || !seq.bytes) {
		NL_SET_ERR_MSG_ATTR(extack, last,
				    "the operations' buffers together are over "
				    __stringify(IBTRACE_TEST_TXN_MAX_BYTES) " bytes");
		return -EINVAL;
	}
	if (corrupt) {
		k = txn_seq_provider_op(&seq, IBTRACE_TXN_SERVER);
		if (!a->txn_validate) {
			NL_SET_ERR_MSG_ATTR(extack, corrupt,
					    "the negative control needs validation");
			return -EINVAL;
		}
		if (k < 0) {
			NL_SET_ERR_MSG_ATTR(extack, corrupt,
					    "no operation carries the server's data (a server SR or RW, a client RR) to corrupt");
			return -EINVAL;
		}
		if (nla_get_u32(corrupt) >= seq.ops[k].bytes) {
			NL_SET_ERR_MSG_ATTR(extack, corrupt,
					    "the offset to corrupt is past the buffer of the first operation carrying the server's data");
			return -EINVAL;
		}
		a->txn_corrupt = nla_get_u32(corrupt) + 1;
	}
	return 0;
}

static int txn_put_op(struct sk_buff *skb, const struct txn_op *op)
{
	struct nlattr *nest = nla_nest_start(skb, IBTRACE_A_TEST_TXN_OP);

	if (!nest ||
	    nla_put_u8(skb, IBTRACE_TXN_OP_A_WHO, op->who) ||
	    nla_put_u8(skb, IBTRACE_TXN_OP_A_TYPE, op->type) ||
	    nla_put_u32(skb, IBTRACE_TXN_OP_A_SEG_SIZE, op->seg_size) ||
	    nla_put_u32(skb, IBTRACE_TXN_OP_A_SEGS, op->segs) ||
	    (op->reap && nla_put_flag(skb, IBTRACE_TXN_OP_A_REAP)) ||
	    (op->appended && nla_put_flag(skb, IBTRACE_TXN_OP_A_APPENDED)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int txn_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, IBTRACE_TXN_EP_A_PAD);
}

static int txn_put_fig(struct sk_buff *skb, const struct txn_fig *f)
{
	const struct txn_check *c = &f->check;
	struct nlattr *nest = nla_nest_start(skb, IBTRACE_A_TEST_TXN_EP);

	if (!nest ||
	    nla_put_u32(skb, IBTRACE_TXN_EP_A_THREAD, f->thread) ||
	    nla_put_u32(skb, IBTRACE_TXN_EP_A_EP, f->ep) ||
	    nla_put_u32(skb, IBTRACE_TXN_EP_A_ITERATIONS, f->iterations) ||
	    (f->server_version &&
	     nla_put_u32(skb, IBTRACE_TXN_EP_A_SERVER_VERSION,
			 f->server_version)) ||
	    txn_put_u64(skb, IBTRACE_TXN_EP_A_OPS, f->ops) ||
	    txn_put_u64(skb, IBTRACE_TXN_EP_A_SERVER_OPS, f->server_ops) ||
	    txn_put_u64(skb, IBTRACE_TXN_EP_A_BYTES, f->bytes) ||
	    txn_put_u64(skb, IBTRACE_TXN_EP_A_ERRORS, f->errors) ||
	    (f->errors &&
	     nla_put_string(skb, IBTRACE_TXN_EP_A_WC_STATUS,
			    ib_wc_status_msg(f->wc_status))) ||
	    txn_put_u64(skb, IBTRACE_TXN_EP_A_ELAPSED_NS, f->elapsed_ns) ||
	    txn_put_u64(skb, IBTRACE_TXN_EP_A_MISMATCHES, c->mismatches) ||
	    (c->mismatches &&
	     (nla_put_u32(skb, IBTRACE_TXN_EP_A_MISMATCH_ITERATION,
			  c->iteration) ||
	      nla_put_u32(skb, IBTRACE_TXN_EP_A_MISMATCH_OP, c->op) ||
	      nla_put_u32(skb, IBTRACE_TXN_EP_A_MISMATCH_OFFSET, c->offset) ||
	      nla_put_u8(skb, IBTRACE_TXN_EP_A_MISMATCH_EXPECTED,
			 c->expected) ||
	      nla_put_u8(skb, IBTRACE_TXN_EP_A_MISMATCH_OBSERVED,
			 c->observed))))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * The request's transaction arguments (the peer's are the framework's),
 * the sequence with validation's appends, and, in a full reply, every
 * endpoint's figures; job->base.lock held.
 */
static int ibtrace_txn_fill(struct sk_buff *skb,
			    const struct ibtrace_test_job *job,
			    enum ibtrace_test_fill what)
{
	const struct ibtrace_test_args *a = &job->args;
	const struct ibtrace_txn_data *d = job->data;
	struct txn_seq seq;
	unsigned int k;
	u32 i;

	if (nla_put_u32(skb, IBTRACE_A_TEST_TXN_THREADS, a->txn_threads) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_TXN_ENDPOINTS, a->txn_endpoints) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_ITERATIONS, a->iterations) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_POLL, a->poll) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_ACK_TIMEOUT, a->ack_timeout) ||
	    (a->txn_validate &&
	     nla_put_flag(skb, IBTRACE_A_TEST_TXN_VALIDATE)) ||
	    (a->txn_corrupt &&
	     nla_put_u32(skb, IBTRACE_A_TEST_TXN_CORRUPT, a->txn_corrupt - 1)))
		return -EMSGSIZE;
	txn_seq_of(a, &seq);
	for (k = 0; k < seq.n_ops; k++)
		if (txn_put_op(skb, &seq.ops[k]))
			return -EMSGSIZE;
	if (what == IBTRACE_TEST_FILL_SUMMARY)
		return 0;
	/* An event: the newest, room for those of threads ending at once. */
	i = what == IBTRACE_TEST_FILL_NEWEST && d->n_figs > TXN_EVENT_FIGS ?
	    d->n_figs - TXN_EVENT_FIGS : 0;
	for (; i < d->n_figs; i++)
		if (txn_put_fig(skb, &d->figs[i]))
			return -EMSGSIZE;
	return 0;
}

const struct ibtrace_test_def ibtrace_test_txn = {
	.name = "txn",
	.seed = "dapltest -T T",
	.desc = "SEND, RDMA READ and WRITE sequences with a peer's server, optionally validated",
	.needs = IBTRACE_PEER_NEEDS,
	.smp = false,
	.asserts = ibtrace_txn_asserts,
	.n_asserts = TXN_N_ASSERTS,
	.check = ibtrace_txn_check,
	.run = ibtrace_txn_run,
	.data_size = sizeof(struct ibtrace_txn_data),
	.fill = ibtrace_txn_fill,
	.fill_size = 2048 + TXN_MAX_CONNS * 224,
};
