/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtracectl - the route audit's data-path proof: which of the routes the
 * tables give (route.h) are probed, in batches for the kernel's proof
 * (IBTRACE_CMD_PROVE: one LID-routed VendorGet(SourceRoute) per
 * destination, carrying the incoming ports its route predicts), what each
 * probe proved, and the words that say it.
 *
 * ibt_proof_batch() picks the next batch of destinations and their
 * vectors; the verdict the kernel gives each one is kept in a struct
 * ibt_proof beside the destination; ibt_proof_count() tallies them;
 * ibt_proof_why() and ibt_proof_summary_str() are their text.
 *
 * Pure logic: no I/O, no global state; the model is only read.
 */
#ifndef IBT_PROOF_H
#define IBT_PROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ibtrace.h>

#include "fabric.h"
#include "route.h"

/**
 * struct ibt_proof_probe - one destination of a batch, as the request
 *	carries it (IBTRACE_A_PROVE_DEST)
 * @dest: its index in the list of destinations the batch was taken from
 * @dlid: the destination LID
 * @hops: entries in @vector, 1..IBT_ROUTE_MAX_HOPS: the links crossed
 * @vector: the port the probe enters each hop by, the destination's last
 */
struct ibt_proof_probe {
	uint32_t dest;
	uint16_t dlid;
	uint8_t hops;
	uint8_t vector[IBT_ROUTE_MAX_HOPS];
};

/**
 * struct ibt_proof - what the probe of one destination proved
 * @sent: it was probed: the rest is its verdict
 * @verdict: enum ibtrace_prove_verdict
 * @expected_port: the port the tables say it comes in by (the vector's
 *	last entry)
 * @actual_port: the port the answer says it came in by (@has_port)
 * @status: the answer's MAD status (@has_status)
 * @attempts: MADs sent for it, retries included
 * @err: why it could not be sent, a positive errno (IBTRACE_PROVE_SEND_ERROR)
 * @rtt_ns: the answered attempt's round trip (@has_rtt)
 * @has_port: @actual_port is known
 * @has_status: @status is known (answered)
 * @has_rtt: @rtt_ns is known
 */
struct ibt_proof {
	bool sent;
	uint8_t verdict;
	uint8_t expected_port;
	uint8_t actual_port;
	uint16_t status;
	uint32_t attempts;
	uint32_t err;
	uint64_t rtt_ns;
	bool has_port, has_status, has_rtt;
};

/* The highest enum ibtrace_prove_verdict the tool knows */
#define IBT_PROOF_VERDICT_MAX	IBTRACE_PROVE_SEND_ERROR

/**
 * struct ibt_proof_tally - the proof of a whole audit, every batch's
 * @dests: destinations probed
 * @verdicts: how many of them got each verdict (enum ibtrace_prove_verdict)
 * @mads: MADs sent (the kernel's figure)
 * @elapsed_ns: time the proof jobs took (the kernel's figure)
 */
struct ibt_proof_tally {
	size_t dests;
	size_t verdicts[IBT_PROOF_VERDICT_MAX + 1];
	uint64_t mads;
	uint64_t elapsed_ns;
};

bool ibt_proof_wanted(const struct ibt_route *r);
long ibt_proof_batch(const struct ibt_fabric *f, const uint16_t *dlids,
		     size_t n, size_t *next, struct ibt_proof_probe *probes,
		     size_t max);
const char *ibt_proof_verdict_str(unsigned int v);
const char *ibt_proof_verdict_text(unsigned int v);
bool ibt_proof_finding(unsigned int v);
void ibt_proof_count(struct ibt_proof_tally *t, const struct ibt_proof *p,
		     size_t n);
size_t ibt_proof_findings(const struct ibt_proof_tally *t);
const char *ibt_proof_why(const struct ibt_proof *p, char *buf, size_t len);
const char *ibt_proof_summary_str(const struct ibt_proof_tally *t, char *buf,
				  size_t len);

#endif /* IBT_PROOF_H */
