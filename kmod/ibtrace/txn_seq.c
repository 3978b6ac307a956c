// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the transaction test's sequence, both sides' part.
 *
 * Layout: each side of an endpoint has one region; operation k's buffer
 * lies at the same offset in both (64-byte aligned, in sequence order),
 * the server's report after the last. A SEND goes from the sender's
 * buffer k into the receiver's buffer k; an RDMA READ or WRITE moves
 * buffer k of one side into buffer k of the other.
 *
 * The walk, per iteration, per operation k (the client's threads do each
 * step over all their endpoints before the next): txn_side_post() posts k
 * on the side that initiates it; txn_side_reap() waits for its completion
 * there (a SEND with "reap" is left to the sender's next receive) and,
 * on the other side of a SEND, for the receive. Receives are posted in
 * the order the SENDs come, and each is posted again as soon as it was
 * consumed (but in the last iteration): the RC QP's RNR retries (7: no
 * end) hold a SEND that comes before its receive.
 *
 * Validation appends three SENDs: client, server, client. At the first
 * appended SEND a side receives (the client's first for the server, the
 * server's for the client) every operation of the iteration is done on
 * both sides: it checks the buffers it received (pattern of iteration,
 * operation, offset and the endpoint), and fills those it provides with
 * the next iteration's pattern; the other side reads them only after the
 * next appended SEND. The server's SEND carries its checks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include "ep.h"
#include "txn_seq.h"

/* Buffers start on this boundary in the regions. */
#define TXN_ALIGN		64

/* The side whose data an operation carries. */
static u8 txn_provider(const struct txn_op *op)
{
	return op->type == IBTRACE_TXN_RR ? !op->who : op->who;
}

/**
 * txn_seq_layout() - append validation's SENDs, place the buffers
 * @seq: @ops[0..@n_user), @validate and @iterations set
 *
 * Return: 0, or -EINVAL when the buffers do not fit
 *	%IBTRACE_TEST_TXN_MAX_BYTES or the appends %IBTRACE_TEST_TXN_MAX_OPS.
 */
int txn_seq_layout(struct txn_seq *seq)
{
	static const u8 appended[] = {
		IBTRACE_TXN_CLIENT, IBTRACE_TXN_SERVER, IBTRACE_TXN_CLIENT,
	};
	u64 off = 0;
	unsigned int i;

	seq->n_ops = seq->n_user;
	if (seq->validate) {
		if (seq->n_user + ARRAY_SIZE(appended) > IBTRACE_TEST_TXN_MAX_OPS)
			return -EINVAL;
		for (i = 0; i < ARRAY_SIZE(appended); i++)
			seq->ops[seq->n_ops++] = (struct txn_op) {
				.who = appended[i],
				.type = IBTRACE_TXN_SR,
				.appended = true,
				.seg_size = sizeof(struct txn_sync),
				.segs = 1,
			};
	}
	for (i = 0; i < seq->n_ops; i++) {
		struct txn_op *op = &seq->ops[i];

		op->bytes = op->seg_size * op->segs;
		op->off = off;
		off = ALIGN(off + op->bytes, TXN_ALIGN);
	}
	seq->report_off = off;
	off += sizeof(struct txn_report);
	if (!seq->n_user || off > IBTRACE_TEST_TXN_MAX_BYTES + PAGE_SIZE)
		return -EINVAL;
	seq->bytes = off;
	return 0;
}

/**
 * txn_seq_to_wire() - the request's operations into the client's setup
 * @seq: the sequence
 * @setup: the message (its other fields the caller's)
 */
void txn_seq_to_wire(const struct txn_seq *seq, struct txn_setup *setup)
{
	unsigned int i;

	setup->n_ops = seq->n_user;
	setup->flags = seq->validate ? TXN_F_VALIDATE : 0;
	setup->iterations = cpu_to_be32(seq->iterations);
	for (i = 0; i < seq->n_user; i++) {
		const struct txn_op *op = &seq->ops[i];

		setup->ops[i] = (struct txn_op_wire) {
			.who_type = op->who << 4 | op->type,
			.flags = op->reap,
			.segs = op->segs,
			.seg_size = cpu_to_be32(op->seg_size),
		};
	}
}

/**
 * txn_seq_from_wire() - the sequence of a client's setup, checked
 * @seq: filled
 * @setup: the message (from the wire: nothing in it is trusted)
 * @n_ops: operations the connection request announced
 *
 * Return: 0 or -EINVAL.
 */
int txn_seq_from_wire(struct txn_seq *seq, const struct txn_setup *setup,
		      u8 n_ops)
{
	unsigned int i;

	memset(seq, 0, sizeof(*seq));
	if (be32_to_cpu(setup->magic) != TXN_SETUP_MAGIC ||
	    setup->version != TXN_VERSION || setup->n_ops != n_ops ||
	    !n_ops || n_ops > IBTRACE_TEST_TXN_MAX_OPS ||
	    setup->flags & ~TXN_F_VALIDATE || !setup->iterations ||
	    be32_to_cpu(setup->iterations) > IBTRACE_TEST_PERF_MAX_ITERATIONS)
		return -EINVAL;
	seq->n_user = n_ops;
	seq->validate = setup->flags & TXN_F_VALIDATE;
	seq->iterations = be32_to_cpu(setup->iterations);
	for (i = 0; i < n_ops; i++) {
		const struct txn_op_wire *w = &setup->ops[i];
		struct txn_op *op = &seq->ops[i];

		op->who = w->who_type >> 4;
		op->type = w->who_type & 0xf;
		op->reap = w->flags & 1;
		op->segs = w->segs;
		op->seg_size = be32_to_cpu(w->seg_size);
		if (op->who > IBTRACE_TXN_SERVER || op->type > IBTRACE_TXN_RW ||
		    w->flags & ~1 || (op->reap && op->type != IBTRACE_TXN_SR) ||
		    !op->segs || op->segs > IBTRACE_TEST_PERF_MAX_SEGS ||
		    !op->seg_size ||
		    (u64)op->seg_size * op->segs > IBTRACE_TEST_TXN_MAX_BYTES)
			return -EINVAL;
	}
	return txn_seq_layout(seq);
}

/**
 * txn_seq_provider_op() - the first operation of the request whose data a
 *	side provides (the negative control's target)
 * @seq: the sequence
 * @who: the side
 *
 * Return: its index, or -1.
 */
int txn_seq_provider_op(const struct txn_seq *seq, u8 who)
{
	unsigned int i;

	for (i = 0; i < seq->n_user; i++)
		if (txn_provider(&seq->ops[i]) == who)
			return i;
	return -1;
}

/* The byte validation expects at @o of operation @k's buffer. */
static u8 txn_byte(const struct txn_side *s, u32 i, u32 k, u32 o)
{
	return (i * 31 + k * 7 + o + s->thread * 13 + s->ep * 17) & 0xff;
}

/* Bytes of @op's buffer from offset @o to its end or its page's end. */
static u32 txn_piece(const struct txn_op *op, u32 o)
{
	return min_t(u32, op->bytes - o,
		     PAGE_SIZE - offset_in_page(op->off + o));
}

/* Whether a completion was handled since @seen; what it wrote is visible. */
static u64 txn_seen(struct txn_side *s)
{
	/* Pairs with txn_event(). */
	return smp_load_acquire(&s->events);
}

static void txn_event(struct txn_side *s, enum ib_wc_status status)
{
	if (status != IB_WC_SUCCESS && !s->errors++)
		s->first_err = status;
	/* Pairs with txn_seen(): the handler's writes come first. */
	smp_store_release(&s->events, s->events + 1);
	wake_up(&s->wq);
}

static void txn_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct txn_side *s = cq->cq_context;

	s->sends_done++;
	txn_event(s, wc->status);
}

static void txn_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct txn_side *s = cq->cq_context;

	s->recvs_done++;
	txn_event(s, wc->status);
}

static void txn_msg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct txn_side *s = cq->cq_context;

	s->msg_status = wc->status;
	s->msg_done = true;
	txn_event(s, wc->status);
}

/**
 * txn_side_create() - PD, CQ, region and message buffer of a side
 * @s: @seq (its @bytes: the region's size, which a server takes from the
 *	request before the sequence came), @who, @thread, @ep set
 * @ibdev: the device
 *
 * Return: 0 or a negative errno; txn_side_destroy() frees what was made.
 */
int txn_side_create(struct txn_side *s, struct ib_device *ibdev)
{
	int cqe = 2 * IBTRACE_TEST_TXN_MAX_OPS + 8;
	int err;

	init_waitqueue_head(&s->wq);
	s->send_cqe.done = txn_send_done;
	s->recv_cqe.done = txn_recv_done;
	s->msg_cqe.done = txn_msg_done;
	err = ibtrace_ep_create(&s->vo, ibdev, s, cqe,
				s->busy ? IB_POLL_DIRECT : IB_POLL_SOFTIRQ);
	if (err)
		return err;
	s->waiter = (struct ibtrace_ep_waiter) {
		.cq = s->vo.cq,
		.busy = s->busy,
		.wq = &s->wq,
		.events = &s->events,
		.stop = s->stop,
		.ctx = s->stop_ctx,
		.slice_ms = TXN_SLICE_MS,
	};
	err = ibtrace_region_create(&s->region, s->vo.pd, s->seq->bytes);
	if (err)
		return err;
	s->msg = ibtrace_ep_msg_alloc(&s->vo, sizeof(*s->msg),
				      DMA_BIDIRECTIONAL, &s->msg_dma);
	return s->msg ? 0 : -ENOMEM;
}

/**
 * txn_side_qp_attr() - the creation attributes of a side's QP
 * @s: the side (created)
 * @init: filled
 */
void txn_side_qp_attr(const struct txn_side *s, struct ib_qp_init_attr *init)
{
	ibtrace_ep_qp_attr(init, s->vo.cq, IBTRACE_TEST_TXN_MAX_OPS + 4,
			   IBTRACE_TEST_TXN_MAX_OPS + 2,
			   IBTRACE_TEST_PERF_MAX_SEGS);
}

/**
 * txn_side_wait() - wait for a completion past @seen: ibtrace_ep_wait()
 * @s: the side
 * @seen: txn_seen() before the caller looked
 * @end: give up at this time (jiffies)
 *
 * Return: 0, -ETIMEDOUT, or -ECANCELED when @s->stop says so.
 */
int txn_side_wait(struct txn_side *s, u64 seen, unsigned long end)
{
	return ibtrace_ep_wait(&s->waiter, seen, end);
}

/*
 * Wait, at most @ms, until @cond holds: @cond returns 0 while it does not
 * hold yet, 1 once it holds, or a negative errno that ends the wait.
 */
static int txn_wait_until(struct txn_side *s, unsigned int ms,
			  int (*cond)(struct txn_side *s))
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	u64 seen;
	int ret;

	do {
		seen = txn_seen(s);
		ret = cond(s);
		if (ret)
			return ret < 0 ? ret : 0;
		ret = txn_side_wait(s, seen, end);
	} while (!ret);
	return ret;
}

/* Every send queue request posted completed. */
static int txn_all_sent(struct txn_side *s)
{
	if (s->errors)
		return -EIO;
	return s->sends_done == s->sends_posted;
}

/* The next receive completed: consume it. */
static int txn_got_recv(struct txn_side *s)
{
	if (s->errors)
		return -EIO;
	if (s->recvs_done == s->recvs_reaped)
		return 0;
	s->recvs_reaped++;
	return 1;
}

/* The other side's first message arrived: make it readable. */
static int txn_got_msg(struct txn_side *s)
{
	if (!s->msg_done)
		return 0;
	ib_dma_sync_single_for_cpu(s->vo.pd->device, s->msg_dma,
				   sizeof(*s->msg), DMA_BIDIRECTIONAL);
	return s->msg_status == IB_WC_SUCCESS ? 1 : -EIO;
}

/**
 * txn_side_wait_msg() - wait for the other side's first message
 * @s: the side (its receive posted by txn_side_post_msg_recv())
 * @ms: at most this long
 *
 * Return: 0, -EIO (it completed in error), or as txn_side_wait().
 */
int txn_side_wait_msg(struct txn_side *s, unsigned int ms)
{
	return txn_wait_until(s, ms, txn_got_msg);
}

/**
 * txn_side_post_msg_recv() - the receive of the other side's first message
 *	(the server's answer into @msg->ack, the client's setup into
 *	@msg->setup)
 * @s: the side
 * @qp: its QP (before @s->qp is set, for the client's peer.c hook)
 *
 * Return: 0 or ib_post_recv()'s error.
 */
int txn_side_post_msg_recv(struct txn_side *s, struct ib_qp *qp)
{
	bool client = s->who == IBTRACE_TXN_CLIENT;
	struct ib_sge sge = {
		.addr = s->msg_dma + (client ? offsetof(struct txn_msg, ack) :
				      offsetof(struct txn_msg, setup)),
		.length = client ? sizeof(s->msg->ack) : sizeof(s->msg->setup),
		.lkey = s->vo.pd->local_dma_lkey,
	};

	return ibtrace_ep_post_recv(qp, &s->msg_cqe, &sge);
}

/**
 * txn_side_send_msg() - send this side's first message (the client's
 *	setup, the server's answer), as the CPU wrote it into @s->msg
 * @s: the side
 *
 * Return: 0 or ib_post_send()'s error.
 */
int txn_side_send_msg(struct txn_side *s)
{
	bool client = s->who == IBTRACE_TXN_CLIENT;
	struct ib_sge sge = {
		.addr = s->msg_dma + (client ? offsetof(struct txn_msg, setup) :
				      offsetof(struct txn_msg, ack)),
		.length = client ? sizeof(s->msg->setup) : sizeof(s->msg->ack),
		.lkey = s->vo.pd->local_dma_lkey,
	};
	int err;

	ib_dma_sync_single_for_device(s->vo.pd->device, s->msg_dma,
				      sizeof(*s->msg), DMA_BIDIRECTIONAL);
	err = ibtrace_ep_post_send(s->qp, &s->send_cqe, &sge);
	if (!err)
		s->sends_posted++;
	return err;
}

/**
 * txn_side_register() - open the region to the other side (REG_MR on the
 *	QP) and wait for it
 * @s: the side, connected
 *
 * Return: 0 or a negative errno.
 */
int txn_side_register(struct txn_side *s)
{
	struct ib_send_wr *reg;
	int err;

	reg = ibtrace_region_reg_wr(&s->region, IB_ACCESS_LOCAL_WRITE |
				    IB_ACCESS_REMOTE_READ |
				    IB_ACCESS_REMOTE_WRITE, &s->send_cqe);
	err = ibtrace_ep_post(s->qp, reg);
	if (err)
		return err;
	s->sends_posted++;
	return txn_wait_until(s, TXN_STALL_MS, txn_all_sent);
}

/* Post the receive of operation @k's buffer (or the report's: @k = n_ops). */
static int txn_post_recv(struct txn_side *s, u8 k)
{
	const struct txn_seq *seq = s->seq;
	struct ib_sge sge = {
		.addr = s->region.mr->iova +
			(k < seq->n_ops ? seq->ops[k].off : seq->report_off),
		.length = k < seq->n_ops ? seq->ops[k].bytes :
			  sizeof(struct txn_report),
		.lkey = s->region.mr->lkey,
	};

	return ibtrace_ep_post_recv(s->qp, &s->recv_cqe, &sge);
}

/**
 * txn_side_first_recvs() - the receives of the first iteration, in the
 *	order the other side's SENDs come
 * @s: the side, registered
 *
 * Return: 0 or ib_post_recv()'s error.
 */
int txn_side_first_recvs(struct txn_side *s)
{
	const struct txn_seq *seq = s->seq;
	unsigned int k;
	int err;

	for (k = 0; k < seq->n_ops; k++) {
		if (seq->ops[k].type != IBTRACE_TXN_SR ||
		    seq->ops[k].who == s->who)
			continue;
		err = txn_post_recv(s, k);
		if (err)
			return err;
	}
	return 0;
}

/**
 * txn_side_fill() - the pattern of @iteration into the buffers this side
 *	provides (the CPU's: the caller syncs the region)
 * @s: the side
 * @iteration: the iteration
 */
void txn_side_fill(struct txn_side *s, u32 iteration)
{
	const struct txn_seq *seq = s->seq;
	unsigned int k;
	u32 o, n, i;
	u8 *p;

	for (k = 0; k < seq->n_user; k++) {
		const struct txn_op *op = &seq->ops[k];

		if (txn_provider(op) != s->who)
			continue;
		for (o = 0; o < op->bytes; o += n) {
			p = ibtrace_region_ptr(&s->region, op->off + o);
			n = txn_piece(op, o);
			for (i = 0; i < n; i++)
				p[i] = txn_byte(s, iteration, k, o + i);
		}
	}
}

/**
 * txn_side_flip() - the negative control: flip one byte of the first
 *	buffer this side provides (the CPU's: the caller syncs the region)
 * @s: the side
 * @offset: the byte's offset in that buffer
 */
void txn_side_flip(struct txn_side *s, u32 offset)
{
	int k = txn_seq_provider_op(s->seq, s->who);

	if (k >= 0 && offset < s->seq->ops[k].bytes)
		*ibtrace_region_ptr(&s->region, s->seq->ops[k].off + offset) ^=
			0xff;
}

/* Check the buffers this side received in @s->iteration. */
static void txn_check(struct txn_side *s)
{
	const struct txn_seq *seq = s->seq;
	struct txn_check *c = &s->check;
	unsigned int k;
	u32 o, n, i;
	u8 want;
	const u8 *p;

	for (k = 0; k < seq->n_user; k++) {
		const struct txn_op *op = &seq->ops[k];

		if (txn_provider(op) == s->who)
			continue;
		for (o = 0; o < op->bytes; o += n) {
			p = ibtrace_region_ptr(&s->region, op->off + o);
			n = txn_piece(op, o);
			for (i = 0; i < n; i++) {
				want = txn_byte(s, s->iteration, k, o + i);
				if (p[i] == want || c->mismatches++)
					continue;
				c->iteration = s->iteration;
				c->op = k;
				c->offset = o + i;
				c->expected = want;
				c->observed = p[i];
			}
		}
	}
}

/* Validation's step at this side's first appended receive: see the top. */
static void txn_validate(struct txn_side *s, u8 k)
{
	const struct txn_sync *sync;

	ibtrace_region_sync(&s->region, true);
	sync = (const void *)ibtrace_region_ptr(&s->region, s->seq->ops[k].off);
	if (s->who == IBTRACE_TXN_CLIENT &&
	    be32_to_cpu(sync->magic) == TXN_SYNC_MAGIC)
		txn_check_from_wire(&s->peer_check, &sync->check);
	txn_check(s);
	if (s->iteration + 1 < s->seq->iterations)
		txn_side_fill(s, s->iteration + 1);
	ibtrace_region_sync(&s->region, false);
}

/* The first appended SEND this side receives. */
static bool txn_sync_point(const struct txn_side *s, u8 k)
{
	return s->seq->ops[k].appended &&
	       k == s->seq->n_user + (s->who == IBTRACE_TXN_CLIENT);
}

/**
 * txn_side_begin() - start iteration @iteration of the walk on @s
 * @s: the side
 * @iteration: the iteration
 *
 * A stop is honoured here, whatever the completions do: a peer that
 * keeps answering completes every wait before its slice ends, so the
 * waits alone would not see a cancel until the walk's end.
 *
 * Return: 0, or -ECANCELED with @s->failed set (also when it was set).
 */
int txn_side_begin(struct txn_side *s, u32 iteration)
{
	if (s->failed)
		return s->err ?: -ECANCELED;
	s->iteration = iteration;
	if (s->stop && s->stop(s->stop_ctx)) {
		s->failed = true;
		s->err = -ECANCELED;
		return -ECANCELED;
	}
	return 0;
}

/**
 * txn_side_post() - post operation @k of @s->iteration, if this side
 *	initiates it
 * @s: the side
 * @k: the operation
 *
 * Return: 0 or ib_post_send()'s error (@s->failed is then set).
 */
int txn_side_post(struct txn_side *s, u8 k)
{
	const struct txn_op *op = &s->seq->ops[k];
	struct ib_sge sge[IBTRACE_TEST_PERF_MAX_SEGS];
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &s->send_cqe,
			.sg_list = sge,
			.num_sge = op->segs,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = s->raddr + op->off,
		.rkey = s->rkey,
	};
	static const enum ib_wr_opcode opcode[] = {
		[IBTRACE_TXN_SR] = IB_WR_SEND,
		[IBTRACE_TXN_RR] = IB_WR_RDMA_READ,
		[IBTRACE_TXN_RW] = IB_WR_RDMA_WRITE,
	};
	int err;

	if (s->failed || op->who != s->who)
		return 0;
	if (op->appended) {
		struct txn_sync *sync = (void *)ibtrace_region_ptr(&s->region,
								   op->off);

		ibtrace_region_sync(&s->region, true);
		sync->magic = cpu_to_be32(TXN_SYNC_MAGIC);
		sync->iteration = cpu_to_be32(s->iteration);
		txn_check_to_wire(&s->check, &sync->check);
		ibtrace_region_sync(&s->region, false);
	}
	wr.wr.opcode = opcode[op->type];
	ibtrace_region_sges(&s->region, sge, op->off, op->seg_size, op->segs);
	if (!s->t_first)
		s->t_first = ktime_get_ns();
	err = ibtrace_ep_post(s->qp, &wr.wr);
	if (err) {
		s->failed = true;
		s->err = err;
		return err;
	}
	s->sends_posted++;
	if (op->reap)
		s->pending[s->n_pending++] = k;
	return 0;
}

/* Credit operation @k, which completed successfully. */
static void txn_credit(struct txn_side *s, u8 k)
{
	const struct txn_op *op = &s->seq->ops[k];

	if (op->appended)
		return;
	s->ops++;
	s->bytes += op->bytes;
}

/* Every SEND left to this receive is done (its completion came). */
static int txn_reap_pending(struct txn_side *s)
{
	int err;

	if (!s->n_pending)
		return 0;
	err = txn_wait_until(s, TXN_STALL_MS, txn_all_sent);
	if (err)
		return err;
	while (s->n_pending)
		txn_credit(s, s->pending[--s->n_pending]);
	return 0;
}

/**
 * txn_side_reap() - wait for operation @k of @s->iteration, as far as this
 *	side takes part in it
 * @s: the side
 * @k: the operation
 *
 * Return: 0; -EIO (a completion in error), -ETIMEDOUT (none within
 *	%TXN_STALL_MS), -ECANCELED or ib_post_recv()'s error, with
 *	@s->failed set.
 */
int txn_side_reap(struct txn_side *s, u8 k)
{
	const struct txn_op *op = &s->seq->ops[k];
	int err = 0;

	if (s->failed)
		return 0;
	if (op->who == s->who) {
		if (op->reap)
			return 0;
		err = txn_wait_until(s, TXN_STALL_MS, txn_all_sent);
		if (!err) {
			txn_credit(s, k);
			err = txn_reap_pending(s);
		}
	} else if (op->type == IBTRACE_TXN_SR) {
		err = txn_wait_until(s, TXN_STALL_MS, txn_got_recv);
		if (!err)
			err = txn_reap_pending(s);
		if (!err && s->iteration + 1 < s->seq->iterations)
			err = txn_post_recv(s, k);
		if (!err && txn_sync_point(s, k))
			txn_validate(s, k);
	}
	if (err) {
		s->failed = true;
		s->err = err;
	} else {
		s->t_last = ktime_get_ns();
	}
	return err;
}

/**
 * txn_side_report_recv() - the client's receive of the server's report,
 *	after the last iteration (no receive of the sequence is posted then)
 * @s: the client's side
 *
 * Return: 0 or ib_post_recv()'s error.
 */
int txn_side_report_recv(struct txn_side *s)
{
	return txn_post_recv(s, s->seq->n_ops);
}

/**
 * txn_side_wait_report() - wait for the server's report and read it
 * @s: the client's side, its report receive posted
 * @rep: the report, in host order (the checks into @s->peer_check)
 *
 * Return: 0, -EPROTO (not a report) or as txn_side_reap().
 */
int txn_side_wait_report(struct txn_side *s, struct txn_server_report *rep)
{
	const struct txn_report *w;
	int err;

	err = txn_wait_until(s, TXN_STALL_MS, txn_got_recv);
	if (!err)
		err = txn_reap_pending(s);
	if (err)
		return err;
	ibtrace_region_sync(&s->region, true);
	w = (const void *)ibtrace_region_ptr(&s->region, s->seq->report_off);
	if (be32_to_cpu(w->magic) != TXN_REPORT_MAGIC)
		return -EPROTO;
	rep->iterations = be32_to_cpu(w->iterations);
	rep->ops = be64_to_cpu(w->ops);
	rep->bytes = be64_to_cpu(w->bytes);
	rep->errors = be64_to_cpu(w->errors);
	rep->wc_status = be32_to_cpu(w->wc_status);
	txn_check_from_wire(&s->peer_check, &w->check);
	return 0;
}

/**
 * txn_side_send_report() - the server's report, after its walk (cut short
 *	or not), and the wait for its completion
 * @s: the server's side
 * @iterations: iterations it completed
 * @ms: wait at most this long (the client may still walk)
 *
 * Return: 0 or a negative errno.
 */
int txn_side_send_report(struct txn_side *s, u32 iterations, unsigned int ms)
{
	struct txn_report *w = (void *)ibtrace_region_ptr(&s->region,
							  s->seq->report_off);
	struct ib_sge sge = {
		.addr = s->region.mr->iova + s->seq->report_off,
		.length = sizeof(*w),
		.lkey = s->region.mr->lkey,
	};
	int err;

	ibtrace_region_sync(&s->region, true);
	*w = (struct txn_report) {
		.magic = cpu_to_be32(TXN_REPORT_MAGIC),
		.iterations = cpu_to_be32(iterations),
		.ops = cpu_to_be64(s->ops),
		.bytes = cpu_to_be64(s->bytes),
		.errors = cpu_to_be64(s->errors),
		.wc_status = cpu_to_be32(s->first_err),
	};
	txn_check_to_wire(&s->check, &w->check);
	ibtrace_region_sync(&s->region, false);
	err = ibtrace_ep_post_send(s->qp, &s->send_cqe, &sge);
	if (err)
		return err;
	s->sends_posted++;
	return txn_wait_until(s, ms, txn_all_sent);
}

/**
 * txn_side_destroy() - what txn_side_create() made; the QP (the caller's,
 *	on its CM ID) is gone or its CQ freed first
 * @s: the side
 */
void txn_side_destroy(struct txn_side *s)
{
	ibtrace_ep_free_cq(&s->vo);
	ibtrace_region_destroy(&s->region);
	ibtrace_ep_msg_free(&s->vo, s->msg, sizeof(*s->msg),
			    DMA_BIDIRECTIONAL, s->msg_dma);
	s->msg_dma = 0;
	s->msg = NULL;
	ibtrace_ep_destroy(&s->vo);
}

/**
 * txn_check_to_wire() - a side's checks into a message
 * @c: the checks
 * @w: the message's
 */
void txn_check_to_wire(const struct txn_check *c, struct txn_check_wire *w)
{
	*w = (struct txn_check_wire) {
		.mismatches = cpu_to_be64(c->mismatches),
		.iteration = cpu_to_be32(c->iteration),
		.op = cpu_to_be32(c->op),
		.offset = cpu_to_be32(c->offset),
		.expected = c->expected,
		.observed = c->observed,
	};
}

/**
 * txn_check_from_wire() - the other side's checks from a message
 * @c: filled
 * @w: the message's (the counts are the sender's so far)
 */
void txn_check_from_wire(struct txn_check *c, const struct txn_check_wire *w)
{
	*c = (struct txn_check) {
		.mismatches = be64_to_cpu(w->mismatches),
		.iteration = be32_to_cpu(w->iteration),
		.op = be32_to_cpu(w->op),
		.offset = be32_to_cpu(w->offset),
		.expected = w->expected,
		.observed = w->observed,
	};
}

/**
 * txn_check_merge() - add a side's checks to an endpoint's
 * @into: the sum (the first mismatch: the earlier iteration's)
 * @c: the side's
 */
void txn_check_merge(struct txn_check *into, const struct txn_check *c)
{
	u64 n = into->mismatches;

	if (!c->mismatches)
		return;
	if (!n || c->iteration < into->iteration)
		*into = *c;
	into->mismatches = n + c->mismatches;
}
