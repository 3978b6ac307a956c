// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the RNR NAK timer conformance test (IBTA compliance test
 * C09_130_01), loopback and peer mode.
 *
 * On the local port, an RC requester QP (the side under test) and an RC
 * responder QP are connected to each other (RoCE: a GRH to the port's own
 * GID; InfiniBand: the port's own LID). The responder posts no receive
 * buffer and has min_rnr_timer = the code under test, so it answers the
 * requester's SEND with RNR NAKs. The requester has rnr_retry = N: it
 * must wait at least the timer before each of its N retries, then
 * complete the SEND with IB_WC_RNR_RETRY_EXC_ERR, and never with success.
 *
 * Per timer code, K iterations, each on a freshly created QP pair; the
 * time from ib_post_send() to the completion (ktime_get_ns(), CQ polled
 * by this thread or completion events) minus the calibration (the same
 * pair with rnr_retry = 0, which answers at the first RNR NAK) divided by
 * N is the wait per retry. The QPs, CQ, PD and buffer are destroyed on
 * every path: end, cancel, unload (ibtrace_job_stop() cancels and waits)
 * and device removal (the device's removal waits for the job). A SEND
 * still in flight (cancel, no completion) is flushed first: its QP goes
 * to the error state and its flush completion is awaited, for a bounded
 * time, before the QPs are destroyed; the verdict says how it ended.
 *
 * Peer mode (a peer GID in the request): the responder is the one of the
 * ibtrace module on the peer host (rnr_responder.c), reached by one RDMA
 * CM connection per iteration (peer.c); everything else is the same.
 * On RoCE a packet tap on the port's netdev (rnr_wire.c) also times each
 * RNR NAK's arrival to the retried SEND's departure. rnr_retry 7 (retry
 * forever) needs a deadline: no completion may come before it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_verbs.h>

#include "addr.h"
#include "ep.h"
#include "rnr.h"
#include "test.h"

/* Iterations of the calibration at least (one is noisy). */
#define RNR_CALIB_MIN		5
/* Completions wanted at most per poll. */
#define RNR_POLL_BATCH		4
/* Sleep slice of an event wait, to notice cancel and device removal. */
#define RNR_EVENT_SLICE_MS	20
/* Slack over N x (table value) x 4 before an iteration gives up. */
#define RNR_DEADLINE_SLACK_NS	(5ULL * NSEC_PER_SEC)
/*
 * Packets lost per iteration the deadline allows for: each costs the
 * requester one transport timeout before it resends.
 */
#define RNR_DEADLINE_LOST	2
/*
 * Transport timer of the requester, 4.096 us x 2^N: longer than the
 * longest RNR wait (code 0, 655 ms), which rxe counts from the NAK on the
 * same timer. Loopback: 2^20 = 4.3 s. Peer mode: 2^19 = 2.1 s, the CM's
 * RoCE default, as a packet lost between two hosts costs one.
 */
#define RNR_QP_TIMEOUT		20
#define RNR_PEER_QP_TIMEOUT	19
#define RNR_QP_RETRY_CNT	7
/* Entries of the job's CQ (one SEND, one receive). */
#define RNR_CQ_ENTRIES		4
/* How long a SEND in flight may take to complete after its QP's error. */
#define RNR_FLUSH_MS		1000

enum {
	RNR_A_NO_SUCCESS,	/* v1c9-130.1.1#01.01 */
	RNR_A_STATUS,		/* v1c9-130.1.1#01.02 */
	RNR_A_WAIT,		/* v1c9-130.1.1#01.03 */
	RNR_N_ASSERTS
};

static const struct ibtrace_assert_def ibtrace_rnr_asserts[] = {
	[RNR_A_NO_SUCCESS] = { "v1c9-130.1.1#01.01",
		"the SEND answered by RNR NAKs never completes successfully" },
	[RNR_A_STATUS] = { "v1c9-130.1.1#01.02",
		"after rnr_retry retries it completes with RNR retry exceeded" },
	[RNR_A_WAIT] = { "v1c9-130.1.1#01.03",
		"post to completion >= rnr_retry x the timer's table value" },
};

ushort ibtrace_rnr_responder_port = IBTRACE_RNR_RESPONDER_PORT;
module_param_named(rnr_responder_port, ibtrace_rnr_responder_port, ushort,
		   0444);
MODULE_PARM_DESC(rnr_responder_port,
		 "RDMA CM port of the server when started without one, and of a peer's server in the RNR test's peer mode (default 7471)");

/* IBA table of the RNR NAK timer, code -> ns (the specification's). */
static const u64 rnr_table_ns[IBTRACE_TEST_RNR_CODES] = {
	655360000, 10000, 20000, 30000, 40000, 60000, 80000, 120000,
	160000, 240000, 320000, 480000, 640000, 960000, 1280000, 1920000,
	2560000, 3840000, 5120000, 7680000, 10240000, 15360000, 20480000,
	30720000, 40960000, 61440000, 81920000, 122880000, 163840000,
	245760000, 327680000, 491520000,
};

/**
 * struct rnr_code_res - the figures of one timer code
 * @code: the timer code
 * @iterations: iterations measured
 * @min_ns: shortest wait per retry
 * @median_ns: median wait per retry
 * @max_ns: longest wait per retry
 * @p99_ns: 99th percentile (nearest rank) of the wait per retry
 * @overshoot_ns: @median_ns minus the table value
 * @granularity_ns: apparent granularity (0 = none visible)
 * @wire_samples: RNR NAK to retried SEND intervals seen on the wire
 * @wire_min_ns: shortest of them
 * @wire_median_ns: median
 * @wire_max_ns: longest
 * @naks: RNR NAKs seen on the wire
 */
struct rnr_code_res {
	u8 code;
	u32 iterations;
	u64 min_ns;
	u64 median_ns;
	u64 max_ns;
	u64 p99_ns;
	s64 overshoot_ns;
	u64 granularity_ns;
	u32 wire_samples;
	u64 wire_min_ns;
	u64 wire_median_ns;
	u64 wire_max_ns;
	u32 naks;
};

/**
 * struct rnr_data - the RNR test's results, the job's data
 * @n_done: codes measured, in @res in the order run
 * @calib_ns: median post to completion with rnr_retry 0
 * @wire_known: @wire and @wire_why are decided
 * @wire: &enum ibtrace_rnr_wire
 * @wire_why: why not visible, with %IBTRACE_RNR_WIRE_NOT_VISIBLE
 * @res: per code
 *
 * Written under the job's lock, read by test_nl.c under it.
 */
struct rnr_data {
	u32 n_done;
	u64 calib_ns;
	bool wire_known;
	u8 wire;
	const char *wire_why;
	struct rnr_code_res res[IBTRACE_TEST_RNR_CODES];
};

/**
 * struct rnr_ctx - the verbs objects of a running RNR test
 * @job: the job
 * @ibdev: the device
 * @port_num: the port
 * @ah_attr: the loopback address of the port (own GID or own LID)
 * @mtu: the port's active MTU
 * @pd: protection domain
 * @cq: one CQ for both QPs (IB_POLL_DIRECT or IB_POLL_SOFTIRQ)
 * @req: requester QP, while an iteration runs
 * @rsp: responder QP, same
 * @buf: send buffer (first @size bytes) and receive buffer (next @size)
 * @dma: DMA address of @buf
 * @size: bytes sent
 * @send_cqe: completion entry of the SEND
 * @recv_cqe: completion entry of the negative control's receive
 * @done: completed by the CQ handler at the SEND's completion (event mode)
 * @t_done: ktime_get_ns() at the SEND's completion
 * @status: status of the SEND's completion
 * @samples: post to completion of the current code's iterations, ns
 * @peer: the connection to the peer's responder (peer mode)
 * @wire: the packet tap (peer mode on RoCE)
 * @wire_tried: the tap was set up, or found impossible
 * @wsamples: the wire samples of the current code
 * @flush: how the SEND in flight ended when its iteration stopped early
 * @flush_lost: the SEND's completion was not seen (its flush gave up)
 */
struct rnr_ctx {
	struct ibtrace_test_job *job;
	struct ib_device *ibdev;
	u32 port_num;
	struct rdma_ah_attr ah_attr;
	enum ib_mtu mtu;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *req;
	struct ib_qp *rsp;
	void *buf;
	u64 dma;
	u32 size;
	struct ib_cqe send_cqe;
	struct ib_cqe recv_cqe;
	struct completion done;
	u64 t_done;
	enum ib_wc_status status;
	u64 samples[IBTRACE_TEST_RNR_MAX_ITERATIONS];
	struct ibtrace_peer peer;
	struct rnr_wire wire;
	bool wire_tried;
	u64 wsamples[RNR_WIRE_MAX_SAMPLES];
	char flush[64];
	bool flush_lost;
};

/* Event mode: runs in softirq context. */
static void rnr_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rnr_ctx *c = cq->cq_context;
	u64 now = ktime_get_ns();

	if (wc->qp != c->req)
		return;
	c->t_done = now;
	c->status = wc->status;
	complete(&c->done);
}

static void rnr_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
}

/* The port, which must be active, into @pattr; its MTU into c->mtu. */
static int rnr_port_query(struct rnr_ctx *c, struct ib_port_attr *pattr)
{
	int err;

	err = ib_query_port(c->ibdev, c->port_num, pattr);
	if (err)
		return err;
	if (pattr->state != IB_PORT_ACTIVE)
		return -ENETDOWN;
	c->mtu = pattr->active_mtu;
	return 0;
}

/* The port's own address, for the loopback pair. */
static int rnr_loopback_addr(struct rnr_ctx *c)
{
	struct ib_port_attr pattr;
	int err;

	err = rnr_port_query(c, &pattr);
	if (err)
		return err;
	return ibtrace_loopback_ah_attr(c->ibdev, c->port_num, pattr.lid,
					&c->ah_attr);
}

static void rnr_pair_destroy(struct rnr_ctx *c)
{
	if (c->job->args.peer) {
		rnr_wire_arm(&c->wire, 0, 0);
		ibtrace_peer_disconnect(&c->peer);
		c->req = NULL;
		return;
	}
	if (c->req) {
		ib_destroy_qp(c->req);
		c->req = NULL;
	}
	if (c->rsp) {
		ib_destroy_qp(c->rsp);
		c->rsp = NULL;
	}
}

static struct ib_qp *rnr_qp_create(struct rnr_ctx *c)
{
	struct ib_qp_init_attr init;

	ibtrace_ep_qp_attr(&init, c->cq, 1, 1, 1);
	return ib_create_qp(c->pd, &init);
}

/* RESET -> INIT -> RTR -> RTS of @qp towards @remote. */
static int rnr_qp_connect(struct rnr_ctx *c, struct ib_qp *qp,
			  struct ib_qp *remote, u8 min_rnr_timer,
			  u8 rnr_retry)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = c->port_num,
		.qp_access_flags = 0,
	};
	int err;

	err = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err)
		return err;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.ah_attr = c->ah_attr;
	attr.path_mtu = c->mtu;
	attr.dest_qp_num = remote->qp_num;
	attr.rq_psn = 0;
	attr.max_dest_rd_atomic = 0;
	attr.min_rnr_timer = min_rnr_timer;
	err = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_AV |
			   IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err)
		return err;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.timeout = RNR_QP_TIMEOUT;
	attr.retry_cnt = RNR_QP_RETRY_CNT;
	attr.rnr_retry = rnr_retry;
	attr.sq_psn = 0;
	attr.max_rd_atomic = 0;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

/* The job's buffer: the SEND's half, then the receive's. */
enum { RNR_BUF_SEND, RNR_BUF_RECV };

/* The gather/scatter entry of half @half of the job's buffer. */
static struct ib_sge rnr_sge(const struct rnr_ctx *c, unsigned int half)
{
	return (struct ib_sge) {
		.addr = c->dma + half * c->size,
		.length = c->size,
		.lkey = c->pd->local_dma_lkey,
	};
}

/* A fresh connected pair; on error nothing is left. */
static int rnr_pair_create(struct rnr_ctx *c, u8 code, u8 rnr_retry,
			   bool recv_posted)
{
	struct ib_sge sge = rnr_sge(c, RNR_BUF_RECV);
	int err;

	c->req = rnr_qp_create(c);
	if (IS_ERR(c->req)) {
		err = PTR_ERR(c->req);
		c->req = NULL;
		return err;
	}
	c->rsp = rnr_qp_create(c);
	if (IS_ERR(c->rsp)) {
		err = PTR_ERR(c->rsp);
		c->rsp = NULL;
		goto err_destroy;
	}
	err = rnr_qp_connect(c, c->rsp, c->req, code, 0);
	if (err)
		goto err_destroy;
	err = rnr_qp_connect(c, c->req, c->rsp, code, rnr_retry);
	if (err)
		goto err_destroy;
	if (recv_posted) {
		err = ibtrace_ep_post_recv(c->rsp, &c->recv_cqe, &sge);
		if (err)
			goto err_destroy;
	}
	return 0;

err_destroy:
	rnr_pair_destroy(c);
	return err;
}

/* Whether the tap can see the wire: set d->wire once. */
static void rnr_wire_decide(struct rnr_ctx *c, u8 wire, const char *why)
{
	struct ibtrace_test_job *job = c->job;
	struct rnr_data *d = job->data;

	c->wire_tried = true;
	mutex_lock(&job->base.lock);
	d->wire_known = true;
	d->wire = wire;
	d->wire_why = why;
	mutex_unlock(&job->base.lock);
}

/* At the first peer connection: tap the netdev its route went out of. */
static void rnr_wire_setup(struct rnr_ctx *c)
{
	struct net_device *ndev;

	if (!rdma_protocol_roce(c->ibdev, c->port_num)) {
		rnr_wire_decide(c, IBTRACE_RNR_WIRE_NOT_VISIBLE,
				"device has no netdev (InfiniBand)");
		return;
	}
	ndev = c->peer.ifindex ? dev_get_by_index(&init_net, c->peer.ifindex) :
				 NULL;
	if (!ndev) {
		rnr_wire_decide(c, IBTRACE_RNR_WIRE_NOT_VISIBLE,
				"the route to the peer has no netdev");
		return;
	}
	rnr_wire_start(&c->wire, ndev);
	rnr_wire_decide(c, IBTRACE_RNR_WIRE_TAPPED, NULL);
}

/*
 * Peer mode: a fresh connection to the peer's responder, which has
 * min_rnr_timer @code; the requester QP must have @rnr_retry. Return: 0,
 * -ECANCELED, or -ENOTCONN with c->peer.why set.
 */
static int rnr_peer_pair(struct rnr_ctx *c, u8 code, u8 rnr_retry,
			 bool recv_posted, u64 wait_ns)
{
	struct rnr_priv priv = {
		.magic = cpu_to_be32(RNR_PRIV_MAGIC),
		.version = RNR_PRIV_VERSION,
		.code = code,
		.flags = recv_posted ? RNR_PRIV_RECV_POSTED : 0,
		.rnr_retry = rnr_retry,
		.hold_ms = cpu_to_be32(min_t(u64, div_u64(wait_ns, NSEC_PER_MSEC),
					     U32_MAX)),
	};
	struct rdma_conn_param param = {
		.private_data = &priv,
		.private_data_len = sizeof(priv),
		.retry_count = RNR_QP_RETRY_CNT,
		.rnr_retry_count = rnr_retry,
	};
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	int err;

	c->peer.job = c->job;
	c->peer.qp_ready = NULL;
	/* No transport timeout during the longest RNR wait. */
	c->peer.ack_timeout = RNR_PEER_QP_TIMEOUT;
	ibtrace_ep_qp_attr(&init, c->cq, 1, 1, 1);
	err = ibtrace_peer_connect(&c->peer, c->pd, &init, &param, &c->req);
	if (err)
		return err == -ECANCELED ? err : -ENOTCONN;
	/* The CM gives the requester the rnr_retry of the responder's reply. */
	err = ib_query_qp(c->req, &attr, IB_QP_RNR_RETRY, &init);
	if (err || attr.rnr_retry != rnr_retry) {
		snprintf(c->peer.why, sizeof(c->peer.why),
			 "the requester QP has rnr_retry %d after connecting, not %u (query: %d)",
			 err ? -1 : attr.rnr_retry, rnr_retry, err);
		rnr_pair_destroy(c);
		return -ENOTCONN;
	}
	if (!c->wire_tried)
		rnr_wire_setup(c);
	if (c->wire.ndev)
		rnr_wire_arm(&c->wire, c->req->qp_num, c->peer.remote_qpn);
	return 0;
}

/*
 * Busy mode: poll the CQ from this thread until the SEND completes, or
 * until @deadline, or (if @stoppable) until the job must stop.
 */
static int rnr_wait_busy(struct rnr_ctx *c, u64 deadline, bool stoppable)
{
	struct ib_wc wc[RNR_POLL_BATCH];
	int n, i;

	for (;;) {
		n = ib_poll_cq(c->cq, RNR_POLL_BATCH, wc);
		if (n > 0) {
			u64 now = ktime_get_ns();

			for (i = 0; i < n; i++) {
				if (wc[i].qp != c->req)
					continue;
				c->t_done = now;
				c->status = wc[i].status;
				return 0;
			}
		}
		if (n < 0)
			return n;
		if (ktime_get_ns() > deadline)
			return -ETIMEDOUT;
		if (stoppable && ibtrace_test_stop_reason(c->job))
			return -ECANCELED;
		cond_resched();
	}
}

/* Event mode: the CQ's softirq handler completes c->done. */
static int rnr_wait_event(struct rnr_ctx *c, u64 deadline)
{
	for (;;) {
		if (wait_for_completion_timeout(&c->done,
						msecs_to_jiffies(RNR_EVENT_SLICE_MS)))
			return 0;
		if (ktime_get_ns() > deadline)
			return -ETIMEDOUT;
		if (ibtrace_test_stop_reason(c->job))
			return -ECANCELED;
	}
}

/*
 * The SEND of an iteration stopped early is still in flight: move its QP
 * to the error state, which flushes it, and wait for its completion (at
 * most RNR_FLUSH_MS). c->flush says how it ended.
 */
static void rnr_flush(struct rnr_ctx *c)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	u64 deadline;
	int err;

	err = ib_modify_qp(c->req, &attr, IB_QP_STATE);
	if (err) {
		c->flush_lost = true;
		snprintf(c->flush, sizeof(c->flush),
			 "the SEND in flight not flushed: %pe",
			 ERR_PTR(err));
		return;
	}
	if (c->job->args.poll == IBTRACE_TEST_POLL_EVENT) {
		err = wait_for_completion_timeout(&c->done,
						  msecs_to_jiffies(RNR_FLUSH_MS)) ?
		      0 : -ETIMEDOUT;
	} else {
		deadline = ktime_get_ns() + RNR_FLUSH_MS * NSEC_PER_MSEC;
		err = rnr_wait_busy(c, deadline, false);
	}
	if (err) {
		c->flush_lost = true;
		snprintf(c->flush, sizeof(c->flush),
			 "the SEND in flight not flushed in %u ms",
			 RNR_FLUSH_MS);
	} else {
		snprintf(c->flush, sizeof(c->flush),
			 "the SEND in flight ended with \"%s\"",
			 ib_wc_status_msg(c->status));
	}
}

/*
 * Event mode, after the pair of an iteration whose SEND's completion was
 * never seen (its flush gave up): that completion may still sit in the
 * CQ, or be on its way to the CQ's softirq poller, and would be taken
 * for the SEND of the next requester QP if that has the same address.
 * Busy mode polls the CQ empty after destroying the pair; a CQ the ib_cq
 * core polls cannot be polled from here, so it is drained by replacing
 * it: ib_free_cq() stops its poller and drops what is left.
 */
static int rnr_cq_renew(struct rnr_ctx *c)
{
	struct ib_cq *cq;

	cq = ib_alloc_cq(c->ibdev, c, RNR_CQ_ENTRIES, 0, IB_POLL_SOFTIRQ);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	ib_free_cq(c->cq);
	c->cq = cq;
	return 0;
}

/*
 * One iteration: a fresh pair, one SEND, its completion. Return: 0 with
 * c->status and *elapsed set, -ETIMEDOUT (no completion), -ECANCELED, or
 * a verbs error.
 */
/* The requester's transport timer in ns. */
static u64 rnr_qp_timeout_ns(const struct rnr_ctx *c)
{
	return 4096ULL << (c->job->args.peer ? RNR_PEER_QP_TIMEOUT :
					       RNR_QP_TIMEOUT);
}

static int rnr_once(struct rnr_ctx *c, u8 code, u8 rnr_retry,
		    bool recv_posted, u64 *elapsed)
{
	struct ib_sge sge = rnr_sge(c, RNR_BUF_SEND);
	u64 t_post, deadline;
	struct ib_wc wc[RNR_POLL_BATCH];
	int err, cq_err, i;

	if (c->job->args.deadline_ms)
		deadline = (u64)c->job->args.deadline_ms * NSEC_PER_MSEC;
	else
		deadline = (rnr_retry + 1) * rnr_table_ns[code] * 4 +
			   RNR_DEADLINE_LOST * rnr_qp_timeout_ns(c) +
			   RNR_DEADLINE_SLACK_NS;
	c->flush[0] = '\0';
	c->flush_lost = false;
	if (c->job->args.peer)
		err = rnr_peer_pair(c, code, rnr_retry, recv_posted, deadline);
	else
		err = rnr_pair_create(c, code, rnr_retry, recv_posted);
	if (err)
		return err;
	reinit_completion(&c->done);
	t_post = ktime_get_ns();
	deadline += t_post;
	err = ibtrace_ep_post_send(c->req, &c->send_cqe, &sge);
	if (!err) {
		if (c->job->args.poll == IBTRACE_TEST_POLL_EVENT)
			err = rnr_wait_event(c, deadline);
		else
			err = rnr_wait_busy(c, deadline, true);
	}
	if (!err)
		*elapsed = c->t_done - t_post;
	else if (err == -ETIMEDOUT || err == -ECANCELED)
		rnr_flush(c);
	if (err == -ETIMEDOUT && c->job->args.peer && ibtrace_peer_lost(&c->peer, "the SEND"))
		err = -ENOTCONN;
	/*
	 * In busy mode, drop what is left in the CQ now: a later QP may
	 * have the same address as this one.
	 */
	rnr_pair_destroy(c);
	if (c->job->args.poll != IBTRACE_TEST_POLL_EVENT) {
		for (i = 0; i < 4 && ib_poll_cq(c->cq, RNR_POLL_BATCH, wc) > 0;
		     i++)
			;
	} else if (c->flush_lost) {
		cq_err = rnr_cq_renew(c);
		if (cq_err) {
			/* The old CQ is not safe to go on with: stop. */
			strlcat(c->flush, "; no CQ to go on with",
				sizeof(c->flush));
			err = cq_err;
		}
	}
	return err;
}

static int rnr_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Stop reason or verbs error of an iteration into the verdict; @code
 * -1 is the calibration.
 */
static void rnr_iteration_error(struct rnr_ctx *c, int err, int code,
				u32 it)
{
	struct ibtrace_test_job *job = c->job;
	const char *why = ibtrace_test_stop_reason(c->job);
	char where[IBTRACE_TEST_REASON_LEN];

	if (code < 0)
		snprintf(where, sizeof(where), "calibration iteration %u",
			 it + 1);
	else
		snprintf(where, sizeof(where), "code %d iteration %u", code,
			 it + 1);
	if (c->flush[0]) {
		strlcat(where, "; ", sizeof(where));
		strlcat(where, c->flush, sizeof(where));
	}
	if (err == -ENOTCONN && c->peer.why[0])
		ibtrace_test_abort(job, "%s (%s)", c->peer.why, where);
	else if (err == -EOPNOTSUPP)
		ibtrace_test_not_applicable(job,
					    "%s cannot make an RC QP pair (%s): no RC transport",
					    job->base.dev_name, where);
	else if (err == -ETIMEDOUT)
		ibtrace_test_fail(job,
				  "no completion of the SEND (%s): the requester neither retried to the end nor failed",
				  where);
	else if (why)
		ibtrace_test_abort(job, "%s (%s)", why, where);
	else
		ibtrace_test_abort(job, "verbs error %pe (%s)", ERR_PTR(err),
				   where);
}

/* Median post to completion of the zero-wait operation (rnr_retry 0). */
static int rnr_calibrate(struct rnr_ctx *c, u64 *calib)
{
	u32 it, k = max_t(u32, c->job->args.iterations, RNR_CALIB_MIN);
	int err;

	for (it = 0; it < k; it++) {
		err = rnr_once(c, 1, 0, false, &c->samples[it]);
		if (err) {
			rnr_iteration_error(c, err, -1, it);
			return err;
		}
		if (c->status != IB_WC_RNR_RETRY_EXC_ERR) {
			ibtrace_test_abort(c->job,
					   "calibration (rnr_retry 0): the SEND completed with \"%s\", not RNR retry exceeded",
					   ib_wc_status_msg(c->status));
			return -EIO;
		}
	}
	sort(c->samples, k, sizeof(c->samples[0]), rnr_cmp_u64, NULL);
	*calib = c->samples[(k - 1) / 2];
	/* Its NAKs are not a code's. */
	if (c->wire.ndev)
		rnr_wire_take(&c->wire, c->wsamples, 0, &it);
	return 0;
}

/* The wire samples of one code into @r, each checked against the table. */
static void rnr_wire_figures(struct rnr_ctx *c, struct rnr_code_res *r)
{
	struct ibtrace_test_job *job = c->job;
	u64 table = rnr_table_ns[r->code];
	char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];
	u32 i, n;

	if (!c->wire.ndev)
		return;
	n = rnr_wire_take(&c->wire, c->wsamples, RNR_WIRE_MAX_SAMPLES,
			  &r->naks);
	r->wire_samples = n;
	if (!n)
		return;
	snprintf(exp, sizeof(exp), ">= %llu ns", table);
	for (i = 0; i < n; i++) {
		snprintf(obs, sizeof(obs), "%llu ns", c->wsamples[i]);
		ibtrace_test_check(job, RNR_A_WAIT, c->wsamples[i] >= table,
				   exp, obs, "code %u wire wait %u", r->code,
				   i + 1);
	}
	sort(c->wsamples, n, sizeof(c->wsamples[0]), rnr_cmp_u64, NULL);
	r->wire_min_ns = c->wsamples[0];
	r->wire_median_ns = c->wsamples[(n - 1) / 2];
	r->wire_max_ns = c->wsamples[n - 1];
}

static void rnr_code_done(struct rnr_ctx *c, struct rnr_data *d,
			  struct rnr_code_res *r)
{
	struct ibtrace_test_job *job = c->job;

	rnr_wire_figures(c, r);
	mutex_lock(&job->base.lock);
	d->res[d->n_done++] = *r;
	mutex_unlock(&job->base.lock);
	ibtrace_test_progress(job);
}

/*
 * Iteration @it of @code, unless the job must stop: 0 with the SEND's
 * completion in c->status (checked against v1c9-130.1.1#01.01) and post
 * to completion in *@t; with @rnr_retry 7 (forever) -ETIMEDOUT at the
 * deadline; else the error, which ended the job.
 */
static int rnr_iteration(struct rnr_ctx *c, u8 code, u8 rnr_retry, u32 it,
			 u64 *t)
{
	struct ibtrace_test_job *job = c->job;
	int err;

	if (ibtrace_test_stop_reason(job)) {
		rnr_iteration_error(c, -ECANCELED, code, it);
		return -ECANCELED;
	}
	err = rnr_once(c, code, rnr_retry, job->args.rnr_recv_posted, t);
	if (err == -ETIMEDOUT && rnr_retry == 7)
		return err;
	if (err) {
		rnr_iteration_error(c, err, code, it);
		return err;
	}
	ibtrace_test_check(job, RNR_A_NO_SUCCESS, c->status != IB_WC_SUCCESS,
			   "no successful completion",
			   ib_wc_status_msg(c->status),
			   "code %u iteration %u", code, it + 1);
	return 0;
}

/*
 * rnr_retry 7 retries forever: the SEND must not complete before the
 * deadline. The iterations are counted; there is no wait per retry.
 */
static int rnr_test_forever(struct rnr_ctx *c, struct rnr_data *d, u8 code)
{
	struct ibtrace_test_job *job = c->job;
	u32 it, k = job->args.iterations;
	struct rnr_code_res r = { .code = code };
	char exp[IBTRACE_TEST_VAL_LEN];
	u64 t;
	int err;

	snprintf(exp, sizeof(exp), "no completion in %u ms",
		 job->args.deadline_ms);
	for (it = 0; it < k; it++) {
		err = rnr_iteration(c, code, 7, it, &t);
		if (err == -ETIMEDOUT) {
			/* The flush at the deadline is expected here. */
			c->flush[0] = '\0';
			ibtrace_test_check(job, RNR_A_STATUS, true, exp,
					   "none", "code %u iteration %u", code,
					   it + 1);
			r.iterations++;
			continue;
		}
		if (err)
			return err;
		ibtrace_test_check(job, RNR_A_STATUS, false, exp,
				   ib_wc_status_msg(c->status),
				   "code %u iteration %u", code, it + 1);
	}
	rnr_code_done(c, d, &r);
	return 0;
}

/*
 * The timer granularity to report: rxe counts its RNR NAK timer in
 * jiffies (it arms the timer at jiffies + the value rounded up to ticks,
 * so a retry comes up to one tick early or late): one tick. Elsewhere
 * what the figures show: the shortest wait when even it is over 1.5 x
 * the table value (the device rounds up), else 0.
 */
static u64 rnr_granularity(struct rnr_ctx *c, const struct rnr_code_res *r,
			   u64 table)
{
	if (c->ibdev->ops.driver_id == RDMA_DRIVER_RXE)
		return TICK_NSEC;
	if (c->job->args.rnr_retry && r->min_ns > table + table / 2)
		return r->min_ns;
	return 0;
}

/* K iterations of one code, then its figures. */
static int rnr_test_code(struct rnr_ctx *c, struct rnr_data *d, u8 code)
{
	struct ibtrace_test_job *job = c->job;
	const struct ibtrace_test_args *args = &job->args;
	u64 table = rnr_table_ns[code], want = args->rnr_retry * table;
	u32 it, k = args->iterations, n = 0;
	struct rnr_code_res r = { .code = code };
	char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];
	u64 t, per_retry;
	int err;

	if (args->rnr_retry == 7)
		return rnr_test_forever(c, d, code);
	for (it = 0; it < k; it++) {
		err = rnr_iteration(c, code, args->rnr_retry, it, &t);
		if (err)
			return err;
		if (c->status == IB_WC_SUCCESS) {
			ibtrace_test_fail(job,
					  "no RNR NAK: the SEND completed successfully (code %u iteration %u)",
					  code, it + 1);
			return -EIO;
		}
		ibtrace_test_check(job, RNR_A_STATUS,
				   c->status == IB_WC_RNR_RETRY_EXC_ERR,
				   ib_wc_status_msg(IB_WC_RNR_RETRY_EXC_ERR),
				   ib_wc_status_msg(c->status),
				   "code %u iteration %u", code, it + 1);
		if (c->status != IB_WC_RNR_RETRY_EXC_ERR)
			continue;
		snprintf(exp, sizeof(exp), ">= %llu ns", want);
		snprintf(obs, sizeof(obs), "%llu ns", t);
		ibtrace_test_check(job, RNR_A_WAIT, t >= want, exp, obs,
				   "code %u iteration %u", code, it + 1);
		c->samples[n++] = t;
	}
	if (!n) {
		rnr_code_done(c, d, &r);
		return 0;
	}

	/* Wait per retry: (post to completion - calibration) / N. */
	for (it = 0; it < n; it++) {
		t = c->samples[it];
		per_retry = t > d->calib_ns ? t - d->calib_ns : 0;
		c->samples[it] = args->rnr_retry ?
				 div_u64(per_retry, args->rnr_retry) : per_retry;
	}
	sort(c->samples, n, sizeof(c->samples[0]), rnr_cmp_u64, NULL);
	r.iterations = n;
	r.min_ns = c->samples[0];
	r.max_ns = c->samples[n - 1];
	r.median_ns = c->samples[(n - 1) / 2];
	r.p99_ns = c->samples[DIV_ROUND_UP(n * 99, 100) - 1];
	r.overshoot_ns = (s64)r.median_ns - (s64)table;
	r.granularity_ns = rnr_granularity(c, &r, table);
	rnr_code_done(c, d, &r);
	return 0;
}

static void ibtrace_rnr_run(struct ibtrace_test_job *job)
{
	struct rnr_data *d = job->data;
	struct rnr_ctx *c;
	u64 calib;
	u32 size;
	int code, err;

	c = ibtrace_test_zalloc(job, sizeof(*c));
	if (!c)
		return;
	c->job = job;
	c->ibdev = job->base.port->dev->ibdev;
	c->port_num = job->base.port_num;
	init_completion(&c->done);
	c->send_cqe.done = rnr_send_done;
	c->recv_cqe.done = rnr_recv_done;
	rnr_wire_init(&c->wire);

	if (job->args.peer) {
		struct ib_port_attr pattr;

		err = rnr_port_query(c, &pattr);
	} else {
		rnr_wire_decide(c, IBTRACE_RNR_WIRE_NOT_VISIBLE,
				"same-device loopback does not pass the netdev");
		err = rnr_loopback_addr(c);
	}
	if (err) {
		ibtrace_test_not_applicable(job, "%s port %u %s (%pe)%s",
					    job->base.dev_name, job->base.port_num,
					    job->args.peer ? "is not active" :
					    "has no loopback address for an RC pair",
					    ERR_PTR(err), job->args.peer ? "" :
					    ": port down, no LID, or no IPv6 link-local GID");
		goto out_free;
	}
	size = job->args.size ?: ib_mtu_enum_to_int(c->mtu);
	mutex_lock(&job->base.lock);
	job->args.size = size;
	mutex_unlock(&job->base.lock);
	c->size = size;

	c->buf = kzalloc(2 * size, GFP_KERNEL);
	if (!c->buf) {
		ibtrace_test_abort(job, "no memory");
		goto out_free;
	}
	c->dma = ib_dma_map_single(c->ibdev, c->buf, 2 * size,
				   DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(c->ibdev, c->dma)) {
		ibtrace_test_abort(job, "cannot DMA-map the buffer");
		goto out_free_buf;
	}
	c->pd = ib_alloc_pd(c->ibdev, 0);
	if (IS_ERR(c->pd)) {
		ibtrace_test_abort(job, "cannot allocate a PD: %pe", c->pd);
		goto out_unmap;
	}
	c->cq = ib_alloc_cq(c->ibdev, c, RNR_CQ_ENTRIES, 0,
			    job->args.poll == IBTRACE_TEST_POLL_EVENT ?
			    IB_POLL_SOFTIRQ : IB_POLL_DIRECT);
	if (IS_ERR(c->cq)) {
		ibtrace_test_abort(job, "cannot allocate a CQ: %pe", c->cq);
		goto out_dealloc_pd;
	}

	err = rnr_calibrate(c, &calib);
	if (job->args.peer && !c->wire_tried)
		rnr_wire_decide(c, IBTRACE_RNR_WIRE_NOT_VISIBLE,
				"no connection to the peer was made");
	if (err)
		goto out_free_cq;
	mutex_lock(&job->base.lock);
	d->calib_ns = calib;
	mutex_unlock(&job->base.lock);

	for (code = 0; code < IBTRACE_TEST_RNR_CODES; code++) {
		if (!job->args.rnr_all && code != job->args.rnr_timer)
			continue;
		if (rnr_test_code(c, d, code))
			break;
	}

out_free_cq:
	/* After this no tap handler runs. */
	rnr_wire_stop(&c->wire);
	ib_free_cq(c->cq);
out_dealloc_pd:
	ib_dealloc_pd(c->pd);
out_unmap:
	ib_dma_unmap_single(c->ibdev, c->dma, 2 * size, DMA_BIDIRECTIONAL);
out_free_buf:
	kfree(c->buf);
out_free:
	kvfree(c);
}

static int rnr_put_wire(struct sk_buff *skb, const struct rnr_code_res *r)
{
	if (nla_put_u32(skb, IBTRACE_RNR_A_WIRE_SAMPLES, r->wire_samples) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_WIRE_MIN_NS, r->wire_min_ns,
			      IBTRACE_RNR_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_WIRE_MEDIAN_NS,
			      r->wire_median_ns, IBTRACE_RNR_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_WIRE_MAX_NS, r->wire_max_ns,
			      IBTRACE_RNR_A_PAD) ||
	    nla_put_u32(skb, IBTRACE_RNR_A_NAKS, r->naks))
		return -EMSGSIZE;
	return 0;
}

static int rnr_put_code(struct sk_buff *skb, const struct rnr_code_res *r,
			u64 calib_ns, bool wire)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, IBTRACE_A_TEST_RNR_CODE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, IBTRACE_RNR_A_CODE, r->code) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_TABLE_NS,
			      rnr_table_ns[r->code], IBTRACE_RNR_A_PAD) ||
	    nla_put_u32(skb, IBTRACE_RNR_A_ITERATIONS, r->iterations) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_WAIT_MIN_NS, r->min_ns,
			      IBTRACE_RNR_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_WAIT_MEDIAN_NS, r->median_ns,
			      IBTRACE_RNR_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_WAIT_MAX_NS, r->max_ns,
			      IBTRACE_RNR_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_WAIT_P99_NS, r->p99_ns,
			      IBTRACE_RNR_A_PAD) ||
	    nla_put_s64(skb, IBTRACE_RNR_A_OVERSHOOT_NS, r->overshoot_ns,
			IBTRACE_RNR_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_GRANULARITY_NS,
			      r->granularity_ns, IBTRACE_RNR_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_RNR_A_CALIBRATION_NS, calib_ns,
			      IBTRACE_RNR_A_PAD) ||
	    (wire && rnr_put_wire(skb, r))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int rnr_put_nth(struct sk_buff *skb, const struct ibtrace_test_job *job,
		       u32 i)
{
	const struct rnr_data *d = job->data;

	return rnr_put_code(skb, &d->res[i], d->calib_ns,
			    d->wire == IBTRACE_RNR_WIRE_TAPPED);
}

/* The request's RNR arguments and the figures; job->base.lock held. */
static int ibtrace_rnr_fill(struct sk_buff *skb,
			    const struct ibtrace_test_job *job,
			    enum ibtrace_test_fill what)
{
	const struct ibtrace_test_args *a = &job->args;
	const struct rnr_data *d = job->data;

	if ((a->rnr_all ? nla_put_flag(skb, IBTRACE_A_TEST_RNR_ALL) :
			  nla_put_u8(skb, IBTRACE_A_TEST_RNR_TIMER,
				     a->rnr_timer)) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_RNR_RETRY, a->rnr_retry) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_ITERATIONS, a->iterations) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_POLL, a->poll))
		return -EMSGSIZE;
	if (a->size && nla_put_u32(skb, IBTRACE_A_TEST_SIZE, a->size))
		return -EMSGSIZE;
	if (a->rnr_recv_posted &&
	    nla_put_flag(skb, IBTRACE_A_TEST_RNR_RECV_POSTED))
		return -EMSGSIZE;
	if (a->deadline_ms &&
	    nla_put_u32(skb, IBTRACE_A_TEST_DEADLINE_MS, a->deadline_ms))
		return -EMSGSIZE;
	if (d->wire_known &&
	    (nla_put_u8(skb, IBTRACE_A_TEST_RNR_WIRE, d->wire) ||
	     (d->wire_why && nla_put_string(skb, IBTRACE_A_TEST_RNR_WIRE_WHY,
					    d->wire_why))))
		return -EMSGSIZE;
	return ibtrace_test_put_results(skb, job, what, d->n_done,
					rnr_put_nth);
}

/* The RNR test's bound of iterations, and their default. */
static int ibtrace_rnr_check(struct ibtrace_test_args *a,
			     const struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;

	if (a->iterations > IBTRACE_TEST_RNR_MAX_ITERATIONS) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TEST_ITERATIONS],
				    "the RNR test runs at most "
				    __stringify(IBTRACE_TEST_RNR_MAX_ITERATIONS)
				    " iterations per timer code");
		return -EINVAL;
	}
	if (!a->iterations)
		a->iterations = IBTRACE_TEST_DEF_ITERATIONS;
	return 0;
}

const struct ibtrace_test_def ibtrace_test_rnr = {
	.name = "rnr",
	.seed = "C09_130_01",
	.desc = "RNR NAK timer: the RC requester waits the timer, retries, then fails",
	.needs = "an RC-capable port with a loopback address (own LID, or an IPv6 link-local GID)",
	.smp = false,
	.asserts = ibtrace_rnr_asserts,
	.n_asserts = RNR_N_ASSERTS,
	.check = ibtrace_rnr_check,
	.run = ibtrace_rnr_run,
	.data_size = sizeof(struct rnr_data),
	.fill = ibtrace_rnr_fill,
};
