/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtracectl - the route audit's figures as Prometheus metrics (audit
 * --prom FILE, for node_exporter's textfile collector): the summary of the
 * last run and its failing destinations. Pure: it writes to a struct
 * ibt_prom (prom.h) and reads the model.
 */
#ifndef IBT_AUDIT_PROM_H
#define IBT_AUDIT_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric.h"
#include "proof.h"
#include "prom.h"
#include "route.h"

/* Failing destinations written one sample each, at most */
#define IBT_AUDIT_PROM_MAX_FAILING	256

/**
 * struct ibt_audit_figures - what an audit found, for its metrics
 * @success: no finding (the audit's exit 0)
 * @timestamp_s: when it ended (seconds since the epoch)
 * @duration_s: how long it took, the sweep (or load) to the end
 * @sweep: the sweep's figures, indexed by IBTRACE_SWEEP_STAT_A_*, or
 *	NULL (a loaded model)
 * @fab: the model
 * @dlids: the destinations
 * @ndests: how many
 * @routes: destinations per enum ibt_route_verdict
 * @proof: beside each destination, what its probe proved
 * @tally: the proof in all, or NULL when it did not run
 * @loops: credit loops found
 */
struct ibt_audit_figures {
	bool success;
	double timestamp_s;
	double duration_s;
	const uint64_t *sweep;
	const struct ibt_fabric *fab;
	const uint16_t *dlids;
	size_t ndests;
	size_t routes[IBT_ROUTE_NO_OWNER + 1];
	const struct ibt_proof *proof;
	const struct ibt_proof_tally *tally;
	size_t loops;
};

int ibt_audit_prom(struct ibt_prom *p, const struct ibt_audit_figures *a);

#endif /* IBT_AUDIT_PROM_H */
