// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the data-path proof: to each destination one LID-routed
 * VendorGet(SourceRoute) carrying the incoming-port vector its route
 * predicts. The destination's class 0x30 agent compares the port the probe
 * really came in by with the vector's last entry (agent.c): status 0 proves
 * that the forwarding tables deliver the LID where the audit computed,
 * 0x001C says by which port it came instead, another status that no
 * ibtrace agent answered, and silence that the packet went elsewhere or
 * was lost.
 *
 * The probes go out in batches of at most the window
 * (ibtrace_mad_exchange_all()), each retried on its own; a batch takes at
 * most the timeout times the attempts, and every destination is asked
 * once, so the proof ends.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "prove.h"

/* The verdict of @d's answered probe. */
static void prove_answer(struct ibtrace_prove_dest *d,
			 const struct ibtrace_mad_req *req)
{
	const u8 *sr = req->resp.data;

	d->status = be16_to_cpu(req->resp.mad_hdr.status);
	d->actual_port = sr[IBTRACE_SROUTE_ACTUAL_PORT];
	d->rtt_ns = req->rtt_ns;
	if (d->status == IB_MGMT_MAD_STATUS_SUCCESS)
		d->verdict = IBTRACE_PROVE_VERIFIED;
	else if (d->status == IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE)
		d->verdict = IBTRACE_PROVE_MISMATCH;
	else
		d->verdict = IBTRACE_PROVE_NO_AGENT;
}

/* The outcome @err of @d's probe into its verdict. */
static void prove_outcome(struct ibtrace_prove_dest *d,
			  const struct ibtrace_mad_req *req, int err)
{
	d->attempts = req->attempts;
	if (!err) {
		prove_answer(d, req);
	} else if (err == -ETIMEDOUT) {
		d->verdict = IBTRACE_PROVE_UNREACHABLE;
	} else {
		d->verdict = IBTRACE_PROVE_SEND_ERROR;
		d->err = err;
	}
}

/* @d's probe into @req, through a new AH; false (and @d's verdict) if none. */
static bool prove_build(struct ibtrace_port *port,
			const struct ibtrace_prove_params *p,
			struct ibtrace_prove_dest *d,
			struct ibtrace_mad_req *req)
{
	struct ibtrace_path path = { .dlid = d->lid };
	struct ib_ah *ah;
	u8 *sr;

	memset(req, 0, sizeof(*req));
	ah = ibtrace_ah_create(port, NULL, &path, NULL);
	if (IS_ERR(ah)) {
		d->verdict = IBTRACE_PROVE_SEND_ERROR;
		d->err = PTR_ERR(ah);
		return false;
	}
	ibtrace_mad_init_vendor(&req->mad, IB_MGMT_METHOD_GET,
				IBTRACE_ATTR_SOURCE_ROUTE);
	sr = req->mad.data;
	sr[IBTRACE_SROUTE_HOP_COUNT] = d->hops;
	memcpy(&sr[IBTRACE_SROUTE_VECTOR], d->vector, d->hops);
	req->ah = ah;
	req->remote_qpn = 1;
	req->timeout_ms = p->timeout_ms;
	req->retries = p->retries;
	req->stop = p->stop;
	return true;
}

/*
 * Destinations @dests[0..@n - 1], one batch: their probes at once.
 * Return: 0 (each has its verdict), or the error that ended the batch
 * (-ECANCELED, -EINTR, -ENOMEM): those sent keep none.
 */
static int prove_batch(struct ibtrace_port *port,
		       const struct ibtrace_prove_params *p,
		       struct ibtrace_prove_dest *dests, u32 n,
		       struct ibtrace_mad_req *reqs, u32 *which, int *errs,
		       struct ibtrace_prove_stats *st)
{
	u32 i, k = 0;
	int err = 0;

	for (i = 0; i < n; i++)
		if (prove_build(port, p, &dests[i], &reqs[k]))
			which[k++] = i;
	/* The stop flag of the first request stops them all. */
	if (k)
		err = ibtrace_mad_exchange_all(port, port->agent, reqs, errs, k,
					       IB_MGMT_VENDOR_HDR,
					       IB_MGMT_VENDOR_DATA);
	for (i = 0; i < k; i++) {
		st->mads += reqs[i].attempts;
		if (!err)
			prove_outcome(&dests[which[i]], &reqs[i], errs[i]);
		ibtrace_ah_destroy(reqs[i].ah);
	}
	/* Cut short, only what could not be sent has a verdict. */
	for (i = 0; i < n; i++) {
		if (dests[i].verdict == IBTRACE_PROVE_UNTRIED)
			continue;
		st->verdicts[dests[i].verdict]++;
		st->done++;
	}
	return err;
}

/**
 * ibtrace_prove_run() - prove the data path to destinations
 * @port: the local port; it must have a class 0x30 agent
 * @params: the window, timing and stop flag
 * @dests: the destinations (@lid, @hops and @vector set, the rest zero);
 *	each gets its verdict, those not asked keep %IBTRACE_PROVE_UNTRIED
 * @n: how many
 * @stats: the figures, zeroed by the caller
 * @progress: told the figures after each batch, or NULL
 * @ctx: passed to @progress
 *
 * Sleeps; ends (see above).
 *
 * Return: 0, -ECANCELED when stopped, -EINTR, -ENODEV when the device went
 * away, or -ENOMEM.
 */
int ibtrace_prove_run(struct ibtrace_port *port,
		      const struct ibtrace_prove_params *params,
		      struct ibtrace_prove_dest *dests, u32 n,
		      struct ibtrace_prove_stats *stats,
		      ibtrace_prove_progress_t progress, void *ctx)
{
	u32 w = min(params->window, n), next = 0, k;
	struct ibtrace_mad_req *reqs;
	u64 t0 = ktime_get_ns();
	int *errs, err = 0;
	u32 *which;

	stats->dests = n;
	reqs = kvmalloc_array(w, sizeof(*reqs), GFP_KERNEL);
	errs = kvmalloc_array(w, sizeof(*errs), GFP_KERNEL);
	which = kvmalloc_array(w, sizeof(*which), GFP_KERNEL);
	if (!reqs || !errs || !which) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		/* after each batch too: one the device died in proved nothing */
		err = ibtrace_walk_end(port, params->stop);
		if (err || next == n)
			break;
		k = min(w, n - next);
		err = prove_batch(port, params, &dests[next], k, reqs, which,
				  errs, stats);
		stats->elapsed_ns = ktime_get_ns() - t0;
		if (err)
			break;
		next += k;
		if (progress)
			progress(ctx, stats);
	}
out:
	kvfree(which);
	kvfree(errs);
	kvfree(reqs);
	return err;
}
