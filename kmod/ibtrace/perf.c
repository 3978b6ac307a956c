// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the perf test (dapltest -T P): one kind of RDMA operation,
 * RDMA READ ("RR") or RDMA WRITE ("RW") of SEG_SIZE x NUM_SEGS bytes,
 * posted ITERATIONS times with PIPELINE of them in flight, against the
 * buffer of a peer's ibtrace server ("perf" service, perf_server.c), timed
 * by the kernel.
 *
 * The job connects through the RDMA CM (peer.c) with a receive posted for
 * the server's hello (struct perf_hello: version, address, key), registers
 * its own buffer (region.c) on its QP, then posts the operations. Each
 * one is timed from its ib_post_send() to the reaping of its completion
 * (ktime_get_ns()), by the job's thread polling the CQ ("busy") or by the
 * CQ's softirq handler ("event"); the run's time goes from the first post
 * to the last completion. The figures: operations, errors, bytes, time
 * (so MB/s and op/s), and latency min/median/p99/max.
 *
 * Every wait is bounded: the connection by peer.c's times, the hello by
 * PERF_HELLO_MS, the operations by PERF_STALL_MS without a completion; a
 * cancel, the module's unload or the device's removal ends a wait within
 * PERF_SLICE_MS. The verdict passes when every operation completed
 * successfully.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

#include "ep.h"
#include "netlink.h"
#include "peer.h"
#include "perf.h"
#include "region.h"
#include "test.h"

/* The server's hello arrives within this of the connection. */
#define PERF_HELLO_MS		5000
/* No completion for this long: the run stops (the QP's retries take less). */
#define PERF_STALL_MS		30000
/* A cancel is seen within this, in event mode. */
#define PERF_SLICE_MS		20
/* Transport and RNR retries of the QP (7: RNR retries without end). */
#define PERF_RETRY_CNT		7
/* The hold asked of the server: this, plus per operation, plus per byte. */
#define PERF_HOLD_BASE_MS	10000
#define PERF_HOLD_OPS_PER_MS	10
#define PERF_HOLD_BYTES_PER_MS	1000

enum {
	PERF_A_COMPLETE,
	PERF_N_ASSERTS,
};

static const struct ibtrace_assert_def ibtrace_perf_asserts[] = {
	[PERF_A_COMPLETE] = { "dapltest-P#01",
		"every RDMA operation posted completes successfully" },
};

/**
 * struct ibtrace_perf_data - the figures (job->data, under job->base.lock)
 * @measured: the operations ran (the figures below are set)
 * @server_version: the version of the server's hello, 0 = none came
 * @segs: segments per operation
 * @ops: operations completed successfully
 * @errors: operations completed in error (or flushed)
 * @wc_status: the first error's status
 * @bytes: bytes moved by @ops
 * @elapsed_ns: first post to last completion
 * @lat_min_ns: shortest operation
 * @lat_median_ns: median
 * @lat_p99_ns: 99th percentile (nearest rank)
 * @lat_max_ns: longest
 */
struct ibtrace_perf_data {
	bool measured;
	u32 server_version;
	u32 segs;
	u64 ops;
	u64 errors;
	enum ib_wc_status wc_status;
	u64 bytes;
	u64 elapsed_ns;
	u64 lat_min_ns;
	u64 lat_median_ns;
	u64 lat_p99_ns;
	u64 lat_max_ns;
};

struct perf_ctx;

/**
 * struct perf_slot - one operation in flight
 * @cqe: its completion entry
 * @c: the run
 * @t_post: ktime_get_ns() before its post
 */
struct perf_slot {
	struct ib_cqe cqe;
	struct perf_ctx *c;
	u64 t_post;
};

/**
 * struct perf_ctx - one run
 * @job: the job
 * @ibdev: its device
 * @ep: PD and the QP's CQ (IB_POLL_DIRECT: busy; IB_POLL_SOFTIRQ: event)
 * @waiter: how the job's thread waits for its completions
 * @qp: the QP, connected
 * @peer: the connection
 * @region: the local buffer
 * @hello: the server's hello (ibtrace_ep_msg_alloc())
 * @hello_dma: its DMA address
 * @hello_cqe: completion entry of its receive
 * @reg_cqe: completion entry of the region's registration
 * @slots: @pipeline operations in flight
 * @lat: latency of each successful operation, ns
 * @wq: woken by each completion (event mode)
 * @bytes: bytes of one operation
 * @raddr: the server buffer's address
 * @rkey: its key
 *
 * Written by the completion handlers (one at a time: the CQ's poller),
 * read by the job's thread after an acquire of @events:
 * @events: completions handled
 * @ops: operations completed successfully (and entries of @lat)
 * @errors: operations completed in error
 * @first_err: the first error's status
 * @hello_status: status of the hello's receive, valid with @hello_done
 * @hello_done: the hello's receive completed
 * @reg_status: status of the registration, valid with @reg_done
 * @reg_done: the registration completed
 * @t_last: ktime_get_ns() at the newest completion
 */
struct perf_ctx {
	struct ibtrace_test_job *job;
	struct ib_device *ibdev;
	struct ibtrace_ep ep;
	struct ibtrace_ep_waiter waiter;
	struct ib_qp *qp;
	struct ibtrace_peer peer;
	struct ibtrace_region region;
	struct perf_hello *hello;
	u64 hello_dma;
	struct ib_cqe hello_cqe;
	struct ib_cqe reg_cqe;
	struct perf_slot *slots;
	u64 *lat;
	wait_queue_head_t wq;
	u32 bytes;
	u64 raddr;
	u32 rkey;

	u64 events;
	u64 ops;
	u64 errors;
	enum ib_wc_status first_err;
	enum ib_wc_status hello_status;
	bool hello_done;
	enum ib_wc_status reg_status;
	bool reg_done;
	u64 t_last;
};

/* Every handler ends here: the thread sees what it wrote. */
static void perf_event(struct perf_ctx *c)
{
	/* Pairs with perf_seen(): the handler's writes come first. */
	smp_store_release(&c->events, c->events + 1);
	wake_up(&c->wq);
}

/* Completions handled so far; what their handlers wrote is visible. */
static u64 perf_seen(struct perf_ctx *c)
{
	/* Pairs with perf_event(). */
	return smp_load_acquire(&c->events);
}

static void perf_op_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct perf_slot *s = container_of(wc->wr_cqe, struct perf_slot, cqe);
	struct perf_ctx *c = s->c;
	u64 now = ktime_get_ns();

	if (wc->status == IB_WC_SUCCESS)
		c->lat[c->ops++] = now - s->t_post;
	else if (!c->errors++)
		c->first_err = wc->status;
	c->t_last = now;
	perf_event(c);
}

static void perf_hello_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct perf_ctx *c = cq->cq_context;

	c->hello_status = wc->status;
	c->hello_done = true;
	perf_event(c);
}

static void perf_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct perf_ctx *c = cq->cq_context;

	c->reg_status = wc->status;
	c->reg_done = true;
	perf_event(c);
}

/* Wait until a completion past @seen was handled: ibtrace_ep_wait(). */
static int perf_wait(struct perf_ctx *c, u64 seen, unsigned long end)
{
	return ibtrace_ep_wait(&c->waiter, seen, end);
}

static const char *perf_stop(void *job)
{
	return ibtrace_test_stop_reason(job);
}

/* Wait until a handler set *@flag. Return: as perf_wait(). */
static int perf_wait_flag(struct perf_ctx *c, const bool *flag,
			  unsigned long end)
{
	u64 seen;
	int err;

	for (;;) {
		seen = perf_seen(c);
		if (READ_ONCE(*flag))
			return 0;
		err = perf_wait(c, seen, end);
		if (err)
			return err;
	}
}

/* peer.c's hook: the hello's receive, before the request leaves. */
static int perf_qp_ready(struct ibtrace_peer *p, struct ib_qp *qp)
{
	struct perf_ctx *c = container_of(p, struct perf_ctx, peer);
	struct ib_sge sge = {
		.addr = c->hello_dma,
		.length = sizeof(*c->hello),
		.lkey = c->ep.pd->local_dma_lkey,
	};

	return ibtrace_ep_post_recv(qp, &c->hello_cqe, &sge);
}

/* PD, CQ, buffers, samples. Return: 0 or the error, with @what naming it. */
static int perf_setup(struct perf_ctx *c, const char **what)
{
	const struct ibtrace_test_args *a = &c->job->args;
	enum ib_poll_context poll = a->poll == IBTRACE_TEST_POLL_EVENT ?
				    IB_POLL_SOFTIRQ : IB_POLL_DIRECT;
	u32 i;
	int err;

	*what = "PD and CQ";
	err = ibtrace_ep_create(&c->ep, c->ibdev, c, a->perf_pipeline + 2,
				poll);
	if (err)
		return err;
	c->waiter = (struct ibtrace_ep_waiter) {
		.cq = c->ep.cq,
		.busy = poll == IB_POLL_DIRECT,
		.wq = &c->wq,
		.events = &c->events,
		.stop = perf_stop,
		.ctx = c->job,
		.slice_ms = PERF_SLICE_MS,
	};
	*what = "buffer";
	err = ibtrace_region_create(&c->region, c->ep.pd, c->bytes);
	if (err)
		return err;
	*what = "memory";
	c->hello = ibtrace_ep_msg_alloc(&c->ep, sizeof(*c->hello),
					DMA_FROM_DEVICE, &c->hello_dma);
	c->slots = kcalloc(a->perf_pipeline, sizeof(*c->slots), GFP_KERNEL);
	c->lat = kvmalloc_array(a->iterations, sizeof(*c->lat), GFP_KERNEL);
	if (!c->hello || !c->slots || !c->lat)
		return -ENOMEM;
	for (i = 0; i < a->perf_pipeline; i++) {
		c->slots[i].cqe.done = perf_op_done;
		c->slots[i].c = c;
	}
	return 0;
}

/* Everything, in the order the device needs; no handler runs after. */
static void perf_teardown(struct perf_ctx *c)
{
	ibtrace_peer_disconnect(&c->peer);
	ibtrace_ep_free_cq(&c->ep);
	ibtrace_region_destroy(&c->region);
	ibtrace_ep_msg_free(&c->ep, c->hello, sizeof(*c->hello),
			    DMA_FROM_DEVICE, c->hello_dma);
	kfree(c->slots);
	kvfree(c->lat);
	ibtrace_ep_destroy(&c->ep);
}

static u32 perf_hold_ms(const struct ibtrace_test_args *a, u32 bytes)
{
	u64 ms = PERF_HOLD_BASE_MS + a->iterations / PERF_HOLD_OPS_PER_MS +
		 div_u64((u64)a->iterations * bytes, PERF_HOLD_BYTES_PER_MS);

	return min_t(u64, ms, IBTRACE_SERVER_MAX_HOLD_MS);
}

static int perf_connect(struct perf_ctx *c)
{
	const struct ibtrace_test_args *a = &c->job->args;
	struct perf_req req = {
		.magic = cpu_to_be32(PERF_REQ_MAGIC),
		.version = PERF_VERSION,
		.op = a->perf_op,
		.bytes = cpu_to_be32(c->bytes),
		.hold_ms = cpu_to_be32(perf_hold_ms(a, c->bytes)),
	};
	struct rdma_conn_param param = {
		.private_data = &req,
		.private_data_len = sizeof(req),
		.retry_count = PERF_RETRY_CNT,
		.rnr_retry_count = PERF_RETRY_CNT,
	};
	struct ib_qp_init_attr init;

	if (a->perf_op == IBTRACE_PERF_OP_RDMA_READ)
		param.initiator_depth = min_t(u32, a->perf_pipeline,
					      c->ibdev->attrs.max_qp_init_rd_atom);
	ibtrace_ep_qp_attr(&init, c->ep.cq, a->perf_pipeline + 1, 1,
			   a->perf_segs);
	c->hello_cqe.done = perf_hello_done;
	c->reg_cqe.done = perf_reg_done;
	c->peer.job = c->job;
	c->peer.qp_ready = perf_qp_ready;
	c->peer.ack_timeout = a->ack_timeout;
	return ibtrace_peer_connect(&c->peer, c->ep.pd, &init, &param, &c->qp);
}

/* Connected: the server's hello, then the local registration. */
static int perf_handshake(struct perf_ctx *c)
{
	struct ibtrace_test_job *job = c->job;
	const struct ibtrace_test_args *a = &job->args;
	struct ibtrace_perf_data *d = job->data;
	const struct perf_hello *h = c->hello;
	unsigned long end = jiffies + msecs_to_jiffies(PERF_HELLO_MS);
	struct ib_send_wr *reg;
	int err;

	err = perf_wait_flag(c, &c->hello_done, end);
	if (err == -ETIMEDOUT) {
		if (!ibtrace_peer_lost(&c->peer, "the hello"))
			snprintf(c->peer.why, sizeof(c->peer.why),
				 "the ibtrace server at %pI6c port %u sent no hello within %u ms",
				 a->peer_gid.raw, a->peer_port, PERF_HELLO_MS);
		return -ENOTCONN;
	}
	if (err)
		return err;
	ib_dma_sync_single_for_cpu(c->ibdev, c->hello_dma, sizeof(*h),
				   DMA_FROM_DEVICE);
	if (c->hello_status != IB_WC_SUCCESS ||
	    be32_to_cpu(h->magic) != PERF_HELLO_MAGIC) {
		snprintf(c->peer.why, sizeof(c->peer.why),
			 "the server at %pI6c port %u sent no valid hello (%s)",
			 a->peer_gid.raw, a->peer_port,
			 ib_wc_status_msg(c->hello_status));
		return -ENOTCONN;
	}
	mutex_lock(&job->base.lock);
	d->server_version = h->version;
	mutex_unlock(&job->base.lock);
	if (h->version != PERF_VERSION || be32_to_cpu(h->bytes) < c->bytes) {
		snprintf(c->peer.why, sizeof(c->peer.why),
			 "the server at %pI6c port %u speaks perf version %u (this module %u) and offers %u bytes for %u",
			 a->peer_gid.raw, a->peer_port, h->version,
			 PERF_VERSION, be32_to_cpu(h->bytes), c->bytes);
		return -ENOTCONN;
	}
	c->raddr = be64_to_cpu(h->addr);
	c->rkey = be32_to_cpu(h->rkey);

	reg = ibtrace_region_reg_wr(&c->region, IB_ACCESS_LOCAL_WRITE,
				    &c->reg_cqe);
	err = ibtrace_ep_post(c->qp, reg);
	if (err)
		return err;
	err = perf_wait_flag(c, &c->reg_done,
			     jiffies + msecs_to_jiffies(PERF_HELLO_MS));
	if (err)
		return err;
	return c->reg_status == IB_WC_SUCCESS ? 0 : -EIO;
}

static int perf_post(struct perf_ctx *c, u64 op)
{
	const struct ibtrace_test_args *a = &c->job->args;
	struct perf_slot *s = &c->slots[do_div(op, a->perf_pipeline)];
	struct ib_sge sge[IBTRACE_TEST_PERF_MAX_SEGS];
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &s->cqe,
			.sg_list = sge,
			.num_sge = a->perf_segs,
			.opcode = a->perf_op == IBTRACE_PERF_OP_RDMA_READ ?
				  IB_WR_RDMA_READ : IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = c->raddr,
		.rkey = c->rkey,
	};

	ibtrace_region_sges(&c->region, sge, 0, a->perf_seg_size, a->perf_segs);
	s->t_post = ktime_get_ns();
	return ibtrace_ep_post(c->qp, &wr.wr);
}

/*
 * The operations: keep the pipeline full until every one was posted and
 * completed, or one failed (then wait for the rest to be flushed).
 * Return: 0, -ECANCELED, -ETIMEDOUT (stalled), or ib_post_send()'s error.
 */
static int perf_measure(struct perf_ctx *c, u64 *t_first)
{
	const struct ibtrace_test_args *a = &c->job->args;
	u64 posted = 0, done, seen;
	int err;

	*t_first = ktime_get_ns();
	for (;;) {
		seen = perf_seen(c);
		done = c->ops + c->errors;
		if (done == a->iterations || (c->errors && done == posted))
			return 0;
		while (!c->errors && posted < a->iterations &&
		       posted - done < a->perf_pipeline) {
			err = perf_post(c, posted);
			if (err)
				return err;
			posted++;
		}
		err = perf_wait(c, seen,
				jiffies + msecs_to_jiffies(PERF_STALL_MS));
		if (err)
			return err;
	}
}

static int perf_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The figures into job->data; with @judge (the run was not cut short),
 * the verdict's check. No completion handler runs any more.
 */
static void perf_figures(struct perf_ctx *c, u64 t_first, bool judge)
{
	struct ibtrace_test_job *job = c->job;
	const struct ibtrace_test_args *a = &job->args;
	struct ibtrace_perf_data *d = job->data;
	char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];
	u64 n = c->ops;

	if (n)
		sort(c->lat, n, sizeof(*c->lat), perf_cmp_u64, NULL);
	mutex_lock(&job->base.lock);
	d->measured = true;
	d->ops = c->ops;
	d->errors = c->errors;
	d->wc_status = c->first_err;
	d->bytes = c->ops * c->bytes;
	d->elapsed_ns = c->t_last > t_first ? c->t_last - t_first : 0;
	if (n) {
		d->lat_min_ns = c->lat[0];
		d->lat_median_ns = c->lat[(n - 1) / 2];
		d->lat_p99_ns = c->lat[DIV_ROUND_UP_ULL(n * 99, 100) - 1];
		d->lat_max_ns = c->lat[n - 1];
	}
	mutex_unlock(&job->base.lock);
	if (!judge)
		return;

	snprintf(exp, sizeof(exp), "%u successful", a->iterations);
	snprintf(obs, sizeof(obs), "%llu successful, %llu in error", c->ops,
		 c->errors);
	ibtrace_test_check(job, PERF_A_COMPLETE,
			   !c->errors && c->ops == a->iterations, exp, obs,
			   "%s %u x %u", a->perf_op == IBTRACE_PERF_OP_RDMA_READ ?
			   "RR" : "RW", a->perf_seg_size, a->perf_segs);
	if (c->errors)
		ibtrace_test_fail(job,
				  "%llu of %u operations completed in error, the first with \"%s\"",
				  c->errors, a->iterations,
				  ib_wc_status_msg(c->first_err));
}

/* What the device cannot do is not applicable; say which limit. */
static bool perf_applicable(struct perf_ctx *c)
{
	struct ibtrace_test_job *job = c->job;
	const struct ibtrace_test_args *a = &job->args;
	const struct ib_device_attr *attr = &c->ibdev->attrs;
	u32 max_sge = a->perf_op == IBTRACE_PERF_OP_RDMA_READ ?
		      attr->max_sge_rd : attr->max_send_sge;

	if (a->perf_segs > max_sge) {
		ibtrace_test_not_applicable(job,
					    "%u segments: %s takes at most %u per operation",
					    a->perf_segs, job->base.dev_name,
					    max_sge);
		return false;
	}
	return ibtrace_test_region_applicable(job, c->bytes);
}

/* Why the run stopped early, into the verdict. */
static void perf_error(struct perf_ctx *c, int err, const char *step)
{
	struct ibtrace_test_job *job = c->job;
	const char *why = ibtrace_test_stop_reason(job);

	if (err == -ENOTCONN && c->peer.why[0])
		ibtrace_test_abort(job, "%s", c->peer.why);
	else if (err == -ETIMEDOUT &&
		 ibtrace_peer_lost(&c->peer, "the RDMA operations"))
		ibtrace_test_abort(job, "%s", c->peer.why);
	else if (err == -ETIMEDOUT)
		ibtrace_test_fail(job,
				  "no completion for %u ms after %llu of %u operations (%s)",
				  PERF_STALL_MS, c->ops + c->errors,
				  job->args.iterations, step);
	else if (why)
		ibtrace_test_abort(job, "%s (%s)", why, step);
	else
		ibtrace_test_abort(job, "%s: %pe", step, ERR_PTR(err));
}

static void ibtrace_perf_run(struct ibtrace_test_job *job)
{
	const struct ibtrace_test_args *a = &job->args;
	struct ibtrace_perf_data *d = job->data;
	const char *what = "";
	struct perf_ctx *c;
	u64 t_first = 0;
	int err;

	c = ibtrace_test_zalloc(job, sizeof(*c));
	if (!c)
		return;
	c->job = job;
	c->ibdev = job->base.port->dev->ibdev;
	c->bytes = a->perf_seg_size * a->perf_segs;
	init_waitqueue_head(&c->wq);
	mutex_lock(&job->base.lock);
	d->segs = a->perf_segs;
	mutex_unlock(&job->base.lock);
	if (!perf_applicable(c))
		goto out;
	err = perf_setup(c, &what);
	if (err) {
		ibtrace_test_abort(job, "cannot make the %s: %pe", what,
				   ERR_PTR(err));
		goto out;
	}
	err = perf_connect(c);
	if (!err)
		err = perf_handshake(c);
	if (err) {
		perf_error(c, err, "connecting");
		goto out;
	}
	err = perf_measure(c, &t_first);
	if (err) {
		/* Says why first: the disconnect ends what peer.c saw. */
		perf_error(c, err, "the operations");
	}
	/* Operations cut short are flushed; then the handlers are done. */
	ibtrace_peer_disconnect(&c->peer);
	ibtrace_ep_free_cq(&c->ep);
	perf_figures(c, t_first, !err);
	ibtrace_test_progress(job);
out:
	perf_teardown(c);
	kvfree(c);
}

/* The perf test's checks and defaults of a request. */
static int ibtrace_perf_check(struct ibtrace_test_args *a,
			      const struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;

	if (!attrs[IBTRACE_A_TEST_PERF_OP]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TEST_NAME],
				    "the perf test needs an operation: RDMA READ or RDMA WRITE");
		return -EINVAL;
	}
	if (!a->peer) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TEST_NAME],
				    "the perf test needs the GID of a peer whose ibtrace server runs");
		return -EINVAL;
	}
	a->perf_op = nla_get_u8(attrs[IBTRACE_A_TEST_PERF_OP]);
	a->perf_seg_size = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_PERF_SEG_SIZE,
					      IBTRACE_TEST_PERF_DEF_SEG_SIZE);
	a->perf_segs = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_PERF_SEGS, 1);
	a->perf_pipeline = ibtrace_nl_get_u32(attrs,
					      IBTRACE_A_TEST_PERF_PIPELINE,
					      IBTRACE_TEST_PERF_DEF_PIPELINE);
	if ((u64)a->perf_seg_size * a->perf_segs >
	    IBTRACE_TEST_PERF_MAX_BYTES) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TEST_PERF_SEGS] ?:
				    attrs[IBTRACE_A_TEST_PERF_SEG_SIZE],
				    "segment size times segments is over the perf test's "
				    __stringify(IBTRACE_TEST_PERF_MAX_BYTES) " bytes");
		return -EINVAL;
	}
	if (!a->iterations)
		a->iterations = IBTRACE_TEST_PERF_DEF_ITERATIONS;
	return 0;
}

static int perf_put_figures(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_perf_data *d = data;

	return nla_put_u32(skb, IBTRACE_PERF_A_SEGS, d->segs) ||
	       (d->server_version &&
		nla_put_u32(skb, IBTRACE_PERF_A_SERVER_VERSION,
			    d->server_version)) ||
	       (d->measured &&
		(nla_put_u64_64bit(skb, IBTRACE_PERF_A_OPS, d->ops,
				   IBTRACE_PERF_A_PAD) ||
		 nla_put_u64_64bit(skb, IBTRACE_PERF_A_ERRORS, d->errors,
				   IBTRACE_PERF_A_PAD) ||
		 (d->errors &&
		  nla_put_string(skb, IBTRACE_PERF_A_WC_STATUS,
				 ib_wc_status_msg(d->wc_status))) ||
		 nla_put_u64_64bit(skb, IBTRACE_PERF_A_BYTES, d->bytes,
				   IBTRACE_PERF_A_PAD) ||
		 nla_put_u64_64bit(skb, IBTRACE_PERF_A_ELAPSED_NS,
				   d->elapsed_ns, IBTRACE_PERF_A_PAD) ||
		 (d->ops &&
		  (nla_put_u64_64bit(skb, IBTRACE_PERF_A_LAT_MIN_NS,
				     d->lat_min_ns, IBTRACE_PERF_A_PAD) ||
		   nla_put_u64_64bit(skb, IBTRACE_PERF_A_LAT_MEDIAN_NS,
				     d->lat_median_ns, IBTRACE_PERF_A_PAD) ||
		   nla_put_u64_64bit(skb, IBTRACE_PERF_A_LAT_P99_NS,
				     d->lat_p99_ns, IBTRACE_PERF_A_PAD) ||
		   nla_put_u64_64bit(skb, IBTRACE_PERF_A_LAT_MAX_NS,
				     d->lat_max_ns, IBTRACE_PERF_A_PAD)))));
}

/*
 * The request's perf arguments (the peer's are the framework's) and the
 * figures; job->base.lock held.
 */
static int ibtrace_perf_fill(struct sk_buff *skb,
			     const struct ibtrace_test_job *job,
			     enum ibtrace_test_fill what)
{
	const struct ibtrace_test_args *a = &job->args;

	if (nla_put_u8(skb, IBTRACE_A_TEST_PERF_OP, a->perf_op) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_PERF_SEG_SIZE, a->perf_seg_size) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_PERF_SEGS, a->perf_segs) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_PERF_PIPELINE, a->perf_pipeline) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_ITERATIONS, a->iterations) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_POLL, a->poll) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_ACK_TIMEOUT, a->ack_timeout))
		return -EMSGSIZE;
	if (what == IBTRACE_TEST_FILL_SUMMARY)
		return 0;
	return ibtrace_nl_put_nest(skb, IBTRACE_A_TEST_PERF, perf_put_figures,
				   job->data) ? -EMSGSIZE : 0;
}

const struct ibtrace_test_def ibtrace_test_perf = {
	.name = "perf",
	.seed = "dapltest -T P",
	.desc = "RDMA READ or WRITE against a peer's server: latency and bandwidth",
	.needs = IBTRACE_PEER_NEEDS,
	.smp = false,
	.asserts = ibtrace_perf_asserts,
	.n_asserts = PERF_N_ASSERTS,
	.check = ibtrace_perf_check,
	.run = ibtrace_perf_run,
	.data_size = sizeof(struct ibtrace_perf_data),
	.fill = ibtrace_perf_fill,
};
