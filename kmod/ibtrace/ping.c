// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - ping: VendorGet(ClassPortInfo) or VendorGet(SourceRoute) to a
 * destination, @count times, with per-probe results and statistics.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "ibtrace.h"

static int ibtrace_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of @n sorted values, @pct in 1..100. */
static u64 ibtrace_percentile(const u64 *sorted, u32 n, u32 pct)
{
	u32 rank = DIV_ROUND_UP(n * pct, 100);

	return sorted[rank ? rank - 1 : 0];
}

/* The RTT figures of @n answered probes (@rtt, sorted here) into @s. */
static void ibtrace_rtt_stats(u64 *rtt, u32 n, struct ibtrace_ping_summary *s)
{
	u64 sum = 0;
	u32 i;

	if (!n)
		return;
	sort(rtt, n, sizeof(*rtt), ibtrace_cmp_u64, NULL);
	for (i = 0; i < n; i++)
		sum += rtt[i];
	s->rtt_min_ns = rtt[0];
	s->rtt_max_ns = rtt[n - 1];
	s->rtt_avg_ns = div_u64(sum, n);
	s->rtt_p99_ns = ibtrace_percentile(rtt, n, 99);
	s->rtt_median_ns = ibtrace_percentile(rtt, n, 50);
}

/* A ping's probe: ClassPortInfo, or SourceRoute with the route. */
static void ibtrace_ping_build(struct ibtrace_mad_req *req, const void *arg)
{
	const struct ibtrace_ping_params *params = arg;
	u8 *sr = req->mad.data;

	if (!params->sroute_len) {
		ibtrace_mad_init_vendor(&req->mad, IB_MGMT_METHOD_GET,
					IBTRACE_ATTR_CLASS_PORT_INFO);
		return;
	}
	ibtrace_mad_init_vendor(&req->mad, IB_MGMT_METHOD_GET,
				IBTRACE_ATTR_SOURCE_ROUTE);
	sr[IBTRACE_SROUTE_HOP_COUNT] = params->sroute_len;
	memcpy(&sr[IBTRACE_SROUTE_VECTOR], params->sroute, params->sroute_len);
}

/* Sleep @ms unless the job is stopped or the device dies. */
static int ibtrace_pause(struct ibtrace_dev *dev, u32 ms, const bool *stop)
{
	long left = 0;

	if (ms)
		left = wait_event_interruptible_timeout(dev->waitq,
							ibtrace_dev_dead(dev) ||
							ibtrace_stopped(stop),
							msecs_to_jiffies(ms));
	if (left < 0)
		return -EINTR;
	if (ibtrace_dev_dead(dev))
		return -ENODEV;
	return ibtrace_stopped(stop) ? -ECANCELED : 0;
}

/* What became of one probe: its status, counted in @summary. */
static enum ibtrace_probe_status
ibtrace_probe_outcome(const struct ibtrace_mad_req *req, int err,
		      struct ibtrace_ping_summary *summary, u64 *rtt)
{
	summary->sent++;
	switch (err) {
	case 0:
		rtt[summary->received++] = req->rtt_ns;
		if (!ibtrace_mad_resp_status(req))
			return IBTRACE_PROBE_OK;
		summary->errors++;
		return IBTRACE_PROBE_REMOTE_ERROR;
	case -ENODATA:
		return IBTRACE_PROBE_SENT;
	case -ETIMEDOUT:
		return IBTRACE_PROBE_TIMEOUT;
	default:
		return IBTRACE_PROBE_SEND_ERROR;
	}
}

/*
 * The probes a loop has built and not reported yet, each with its own
 * request and call, in a ring indexed by sequence number.
 */
#define IBTRACE_PROBE_SLOTS 8

struct ibtrace_probe_slot {
	struct ibtrace_mad_req req;
	struct ibtrace_mad_call call;
};

static struct ibtrace_probe_slot *
ibtrace_probe_slot(struct ibtrace_probe_slot *slots, u32 seq)
{
	return &slots[seq % IBTRACE_PROBE_SLOTS];
}

/*
 * A flood (no interval, answers awaited, more than one probe) through the
 * GSI chains its probes: each one is built ahead and posted by the answer
 * of the one before (mad.c), so that the next probe leaves while the
 * sender is still waking up and reporting. One probe is in flight at a
 * time, as without the chain, and each RTT is its own.
 */
static bool ibtrace_probe_chains(const struct ibtrace_probe_loop *loop)
{
	return !loop->interval_ms && loop->timeout_ms && loop->count > 1 &&
	       loop->agent && loop->agent->qp->qp_type == IB_QPT_GSI;
}

/*
 * Build the probes after *@built up to @last (and @loop->count), each
 * armed behind the one before it when that one is not finished yet (it is
 * @first or later). A probe whose attempt cannot be built is left for
 * ibtrace_mad_call_run() to try again and report. A fixed TID is not
 * chained: two sends of one TID must not be in ib_mad's hands at once.
 */
static void ibtrace_probe_ahead(struct ibtrace_port *port,
				const struct ibtrace_probe_loop *loop,
				struct ibtrace_probe_slot *slots, u32 first,
				u32 last, u32 *built)
{
	struct ibtrace_probe_slot *s, *prev;
	u32 seq;

	last = min(last, loop->count);
	for (seq = *built + 1; seq <= last; seq++) {
		s = ibtrace_probe_slot(slots, seq);
		loop->build(&s->req, loop->arg);
		s->req.attempts = 0;
		memset(&s->call, 0, sizeof(s->call));
		s->call.req = &s->req;
		s->call.agent = loop->agent;
		s->call.hdr_len = IB_MGMT_MAD_HDR;
		s->call.data_len = IB_MGMT_MAD_DATA;
		*built = seq;
		if (!loop->agent || ibtrace_mad_call_prepare(port, &s->call))
			continue;
		prev = ibtrace_probe_slot(slots, seq - 1);
		if (seq > first && !s->req.fixed_tid)
			ibtrace_mad_call_arm(&prev->call, &s->call);
	}
}

/* Take back every probe from @seq to @built: unchained first, then in order. */
static void ibtrace_probe_drop(struct ibtrace_port *port,
			       struct ibtrace_probe_slot *slots, u32 seq,
			       u32 built)
{
	u32 i;

	for (i = seq; i <= built; i++)
		ibtrace_mad_call_unarm(&ibtrace_probe_slot(slots, i)->call);
	for (i = seq; i <= built; i++)
		ibtrace_mad_call_cancel(port, &ibtrace_probe_slot(slots, i)->call);
}

/**
 * ibtrace_probe_loop() - send a request @loop->count times, one at a time
 * @port: the local port
 * @ah: the address handle of the destination: the loop's from now on,
 *	destroyed before the return
 * @loop: the agent, the destination QP, the count, pacing and timing, the
 *	build and report callbacks
 * @probe: given to @loop->report after each send (req and seq set here)
 * @summary: statistics, filled also when the loop stops early
 *
 * The loop of a ping and of a MAD send. Sleeps. A probe that is not
 * answered (after its retries) or cannot be sent is not an error. One
 * probe is in flight at a time; a flood's are chained
 * (ibtrace_probe_chains()).
 *
 * Return: 0, -ECANCELED when stopped, -EINTR, -ENODEV when the device
 * went away, -ENOMEM, or what @loop->report returned.
 */
int ibtrace_probe_loop(struct ibtrace_port *port, struct ib_ah *ah,
		       const struct ibtrace_probe_loop *loop,
		       struct ibtrace_ping_probe *probe,
		       struct ibtrace_ping_summary *summary)
{
	u32 ahead = ibtrace_probe_chains(loop) ? IBTRACE_PROBE_SLOTS - 1 : 0;
	struct ibtrace_probe_slot *slots, *s;
	u32 seq = 1, built = 0, i;
	u64 *rtt = NULL;
	int err = -ENOMEM;

	memset(summary, 0, sizeof(*summary));
	slots = kcalloc(IBTRACE_PROBE_SLOTS, sizeof(*slots), GFP_KERNEL);
	if (slots)
		rtt = kvmalloc_array(loop->count, sizeof(*rtt), GFP_KERNEL);
	if (!rtt)
		goto out;
	err = 0;
	for (i = 0; i < IBTRACE_PROBE_SLOTS; i++) {
		slots[i].req.ah = ah;
		slots[i].req.remote_qpn = loop->remote_qpn;
		slots[i].req.pkey_index = loop->pkey_index;
		slots[i].req.timeout_ms = loop->timeout_ms;
		slots[i].req.retries = loop->retries;
		slots[i].req.stop = loop->stop;
	}
	/*
	 * A stop ends the loop at the first probe not answered yet: those
	 * the chain has brought in are still reported.
	 */
	for (; seq <= loop->count; seq++) {
		if (seq > 1 && loop->interval_ms) {
			err = ibtrace_pause(port->dev, loop->interval_ms,
					    loop->stop);
			if (err)
				break;
		}
		ibtrace_probe_ahead(port, loop, slots, seq, seq + ahead,
				    &built);
		s = ibtrace_probe_slot(slots, seq);
		err = loop->agent ? ibtrace_mad_call_run(port, &s->call) :
				    -EOPNOTSUPP;
		if (err == -ECANCELED || err == -EINTR || err == -ENODEV)
			break;
		probe->req = &s->req;
		probe->seq = seq;
		probe->status = ibtrace_probe_outcome(&s->req, err, summary,
						      rtt);
		err = loop->report(loop->ctx, probe);
		if (err)
			break;
	}
	ibtrace_probe_drop(port, slots, seq, built);
	ibtrace_rtt_stats(rtt, summary->received, summary);
	kvfree(rtt);
out:
	ibtrace_ah_destroy(ah);
	kfree(slots);
	return err;
}

/**
 * ibtrace_ping_run() - run a ping
 * @port: local port with an agent
 * @params: destination and pacing
 * @report: called after every probe; a non-zero return stops the ping
 * @ctx: passed to @report
 * @summary: statistics, filled also when the ping stops early
 * @extack: where to say what went wrong
 *
 * Sleeps. Probes that time out are not an error of the ping. On an
 * InfiniBand port a DGID without a DLID is resolved through the SA first.
 * Once @params->stop is set the probe in flight is taken back.
 *
 * Return: 0, -ECANCELED when stopped, -ENODEV when the device went away,
 * or another negative errno (no AH, @report failed, out of memory).
 */
int ibtrace_ping_run(struct ibtrace_port *port,
		     const struct ibtrace_ping_params *params,
		     ibtrace_ping_report_t report, void *ctx,
		     struct ibtrace_ping_summary *summary,
		     struct netlink_ext_ack *extack)
{
	const struct ibtrace_probe_loop loop = {
		.agent = port->agent,
		.remote_qpn = 1,
		.count = params->count,
		.interval_ms = params->interval_ms,
		.timeout_ms = params->timeout_ms,
		.retries = params->retries,
		.stop = params->stop,
		.build = ibtrace_ping_build,
		.arg = params,
		.report = report,
		.ctx = ctx,
	};
	struct ibtrace_ping_probe probe = {
		.sroute = params->sroute_len > 0,
	};
	struct ibtrace_path path = { .dlid = params->dlid };
	struct ib_ah *ah;
	int err;

	memset(summary, 0, sizeof(*summary));
	if (!path.dlid && params->has_dgid &&
	    rdma_port_get_link_layer(port->dev->ibdev, port->port_num) ==
	    IB_LINK_LAYER_INFINIBAND) {
		err = ibtrace_sa_path_lookup(port, &params->dgid,
					     params->timeout_ms, params->stop,
					     &path, extack);
		if (err)
			return err;
	}
	ah = ibtrace_ah_create(port, params->has_dgid ? &params->dgid : NULL,
			       &path, extack);
	if (IS_ERR(ah))
		return PTR_ERR(ah);

	err = ibtrace_probe_loop(port, ah, &loop, &probe, summary);
	if (err == -ENODEV)
		NL_SET_ERR_MSG(extack,
			       "device removed (or module unloading) during ping");
	return err;
}
