/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the transaction test's sequence (txn_seq.c), what both sides
 * share: the operations and where each one's buffer lies in a side's
 * region, the pattern validation fills and checks, and one endpoint's walk
 * of the sequence (posting an operation, reaping it, the receives). The
 * client (txn.c, a test job) and the server's "txn" service (txn_server.c)
 * each drive it from their own thread.
 */
#ifndef _IBTRACE_TXN_SEQ_H
#define _IBTRACE_TXN_SEQ_H

#include <linux/wait.h>
#include <rdma/ib_verbs.h>

#include "ep.h"
#include "region.h"
#include "txn.h"

/* No completion for this long: the endpoint stops. */
#define TXN_STALL_MS		30000
/* A stop is seen within this. */
#define TXN_SLICE_MS		20
/* Transport and RNR retries of both QPs (7: RNR retries without end). */
#define TXN_RETRY_CNT		7
/* RDMA READs in flight, each way (the walk has one at a time). */
#define TXN_RD_ATOM		1

/**
 * struct txn_op - one operation, as both sides hold it
 * @who: &enum ibtrace_txn_who: the side that posts it
 * @type: &enum ibtrace_txn_type
 * @reap: SR: its completion is reaped with the sender's next receive
 * @appended: one of the three SENDs validation appends
 * @seg_size: bytes of a segment
 * @segs: segments
 * @bytes: @seg_size x @segs
 * @off: where its buffer lies in each side's region
 */
struct txn_op {
	u8 who;
	u8 type;
	bool reap;
	bool appended;
	u32 seg_size;
	u32 segs;
	u32 bytes;
	u32 off;
};

/**
 * struct txn_seq - the sequence of one test
 * @ops: the operations, the validation appends last
 * @n_ops: entries of @ops
 * @n_user: of those, the request's
 * @validate: validate the data (three SENDs appended)
 * @iterations: times it runs
 * @bytes: bytes of a side's region (every buffer and the report's)
 * @report_off: where the server's report lies in the regions
 */
struct txn_seq {
	struct txn_op ops[IBTRACE_TEST_TXN_MAX_OPS];
	u8 n_ops;
	u8 n_user;
	bool validate;
	u32 iterations;
	u32 bytes;
	u32 report_off;
};

/**
 * struct txn_check - what a side's checks of the data found
 * @mismatches: bytes that did not match
 * @iteration: the first one's iteration (with @mismatches)
 * @op: its operation
 * @offset: its offset in the operation's buffer
 * @expected: the byte expected
 * @observed: the byte found
 */
struct txn_check {
	u64 mismatches;
	u32 iteration;
	u32 op;
	u32 offset;
	u8 expected;
	u8 observed;
};

/**
 * struct txn_server_report - the server's report as the client keeps it
 *	(its checks go to &txn_side.peer_check)
 * @iterations: iterations the server completed
 * @ops: its operations of the sequence completed successfully
 * @bytes: bytes they moved
 * @errors: its completions in error
 * @wc_status: the first one's status
 */
struct txn_server_report {
	u32 iterations;
	u64 ops;
	u64 bytes;
	u64 errors;
	enum ib_wc_status wc_status;
};

/**
 * struct txn_msg - the first message each side sends (its own allocation:
 *	it is mapped for the device before the region is registered)
 * @setup: the client's
 * @ack: the server's answer
 */
struct txn_msg {
	struct txn_setup setup;
	struct txn_setup_ack ack;
};

/**
 * struct txn_side - one endpoint of one side: its verbs objects and its
 *	walk of the sequence
 * @seq: the sequence
 * @who: this side (&enum ibtrace_txn_who)
 * @thread: the client's thread of the endpoint (part of the pattern)
 * @ep: the client thread's endpoint number (part of the pattern)
 * @busy: the walker polls the CQ (IB_POLL_DIRECT), else its handlers run
 *	in softirq (IB_POLL_SOFTIRQ) and wake @wq
 * @vo: PD and CQ
 * @waiter: how the walker waits (ibtrace_ep_wait())
 * @qp: the QP, connected
 * @region: every operation's buffer
 * @msg: the first messages
 * @msg_dma: their DMA address, 0 = not mapped
 * @raddr: the other side's region, for RDMA READ and WRITE
 * @rkey: its key
 * @stop: optional: says why the walk must stop now, or NULL
 * @stop_ctx: @stop's argument
 * @wq: woken by each completion
 * @send_cqe: the completion entry of every send queue work request
 * @recv_cqe: that of every receive but the first message's
 * @msg_cqe: that of the receive of the other side's first message
 *
 * Written by the completion handlers (one at a time: the CQ's softirq),
 * read by the walker after an acquire of @events:
 * @events: completions handled
 * @sends_done: send queue completions
 * @recvs_done: receive completions (@recv_cqe's)
 * @msg_done: the first message's receive completed (@msg_status)
 * @msg_status: its status
 * @errors: completions in error (or flushed)
 * @first_err: the first one's status
 *
 * The walker's own:
 * @sends_posted: send queue work requests posted
 * @recvs_reaped: receive completions consumed
 * @pending: SENDs posted with reap, not yet reaped: their operations
 * @n_pending: entries of @pending
 * @iteration: the iteration being walked
 * @ops: operations of the sequence this side posted that completed
 *	successfully
 * @bytes: bytes they moved
 * @check: what its checks found
 * @peer_check: the client's: what the server's found (its last message)
 * @t_first: ktime_get_ns() at the first post of the walk, 0 = none yet
 * @t_last: at the last completion reaped
 * @failed: the walk stopped (an error, a stall or a stop): the endpoint
 *	does nothing more
 * @err: why: -EIO (a completion in error), -ETIMEDOUT (a stall),
 *	-ECANCELED (@stop), or a post's error
 */
struct txn_side {
	const struct txn_seq *seq;
	u8 who;
	u16 thread;
	u16 ep;
	bool busy;
	struct ibtrace_ep vo;
	struct ibtrace_ep_waiter waiter;
	struct ib_qp *qp;
	struct ibtrace_region region;
	struct txn_msg *msg;
	u64 msg_dma;
	u64 raddr;
	u32 rkey;
	const char *(*stop)(void *stop_ctx);
	void *stop_ctx;
	wait_queue_head_t wq;
	struct ib_cqe send_cqe;
	struct ib_cqe recv_cqe;
	struct ib_cqe msg_cqe;

	u64 events;
	u64 sends_done;
	u64 recvs_done;
	bool msg_done;
	enum ib_wc_status msg_status;
	u64 errors;
	enum ib_wc_status first_err;

	u64 sends_posted;
	u64 recvs_reaped;
	u8 pending[IBTRACE_TEST_TXN_MAX_OPS];
	u8 n_pending;
	u32 iteration;
	u64 ops;
	u64 bytes;
	struct txn_check check;
	struct txn_check peer_check;
	u64 t_first;
	u64 t_last;
	bool failed;
	int err;
};

int txn_seq_layout(struct txn_seq *seq);
void txn_seq_to_wire(const struct txn_seq *seq, struct txn_setup *setup);
int txn_seq_from_wire(struct txn_seq *seq, const struct txn_setup *setup,
		      u8 n_ops);
int txn_seq_provider_op(const struct txn_seq *seq, u8 who);

int txn_side_create(struct txn_side *s, struct ib_device *ibdev);
void txn_side_qp_attr(const struct txn_side *s, struct ib_qp_init_attr *init);
int txn_side_wait(struct txn_side *s, u64 seen, unsigned long end);
int txn_side_wait_msg(struct txn_side *s, unsigned int ms);
int txn_side_post_msg_recv(struct txn_side *s, struct ib_qp *qp);
int txn_side_send_msg(struct txn_side *s);
int txn_side_register(struct txn_side *s);
int txn_side_first_recvs(struct txn_side *s);
void txn_side_fill(struct txn_side *s, u32 iteration);
void txn_side_flip(struct txn_side *s, u32 offset);
int txn_side_begin(struct txn_side *s, u32 iteration);
int txn_side_post(struct txn_side *s, u8 k);
int txn_side_reap(struct txn_side *s, u8 k);
int txn_side_report_recv(struct txn_side *s);
int txn_side_wait_report(struct txn_side *s, struct txn_server_report *rep);
int txn_side_send_report(struct txn_side *s, u32 iterations, unsigned int ms);
void txn_side_destroy(struct txn_side *s);

void txn_check_to_wire(const struct txn_check *c, struct txn_check_wire *w);
void txn_check_from_wire(struct txn_check *c, const struct txn_check_wire *w);
void txn_check_merge(struct txn_check *into, const struct txn_check *c);

#endif /* _IBTRACE_TXN_SEQ_H */
