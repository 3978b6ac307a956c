/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the data-path proof (prove.c) and its job (prove_nl.c): one
 * LID-routed VendorGet(SourceRoute) per destination, carrying the
 * incoming ports its route predicts, for the route audit.
 */
#ifndef _IBTRACE_PROVE_H
#define _IBTRACE_PROVE_H

#include "ibtrace.h"

/**
 * struct ibtrace_prove_dest - one destination and its verdict
 * @lid: the destination LID
 * @hops: the probe's hop count: entries in @vector
 * @vector: the incoming port the route predicts at each hop, the
 *	destination's last
 * @verdict: &enum ibtrace_prove_verdict
 * @actual_port: the port the answer says the probe came in by
 * @status: the answer's MAD status (answered probes)
 * @attempts: MADs sent, retries included
 * @err: why it could not be sent (%IBTRACE_PROVE_SEND_ERROR), a negative
 *	errno
 * @rtt_ns: the answered attempt's round trip
 */
struct ibtrace_prove_dest {
	u16 lid;
	u8 hops;
	u8 vector[IBTRACE_SROUTE_MAX_HOPS];
	u8 verdict;
	u8 actual_port;
	u16 status;
	u32 attempts;
	int err;
	u64 rtt_ns;
};

/**
 * struct ibtrace_prove_stats - what a proof did
 * @dests: destinations in the request
 * @done: destinations with a verdict
 * @mads: MADs sent, retries included
 * @verdicts: destinations per &enum ibtrace_prove_verdict
 * @elapsed_ns: time taken so far
 */
struct ibtrace_prove_stats {
	u32 dests;
	u32 done;
	u32 mads;
	u32 verdicts[IBTRACE_PROVE_SEND_ERROR + 1];
	u64 elapsed_ns;
};

/**
 * struct ibtrace_prove_params - how to prove
 * @window: probes out at once, 1..%IBTRACE_PROVE_MAX_WINDOW
 * @timeout_ms: per probe attempt
 * @retries: per probe, after a timeout
 * @stop: set to stop the proof
 */
struct ibtrace_prove_params {
	u32 window;
	u32 timeout_ms;
	u32 retries;
	const bool *stop;
};

/**
 * typedef ibtrace_prove_progress_t - told a proof's figures after a batch
 * @ctx: the caller's
 * @stats: the figures so far
 */
typedef void (*ibtrace_prove_progress_t)(void *ctx,
					 const struct ibtrace_prove_stats *stats);

int ibtrace_prove_run(struct ibtrace_port *port,
		      const struct ibtrace_prove_params *params,
		      struct ibtrace_prove_dest *dests, u32 n,
		      struct ibtrace_prove_stats *stats,
		      ibtrace_prove_progress_t progress, void *ctx);

#endif /* _IBTRACE_PROVE_H */
