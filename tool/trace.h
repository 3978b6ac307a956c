/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hops of a trace, as the kernel reports them (IBTRACE_A_TRACE_HOP):
 * parsed and printed by trace.c, shared with the trace monitor
 * (trace_monitor.c), which prints the hops of every trace.
 */
#ifndef IBTRACECTL_TRACE_H
#define IBTRACECTL_TRACE_H

#include "ibtracectl.h"

struct ibt_hop {
	bool have[IBTRACE_HOP_A_MAX + 1];
	uint64_t val[IBTRACE_HOP_A_MAX + 1];
	char desc[IBT_DESC_MAX];
};

int ibt_hop_parse(struct ibt *ctx, struct nlattr *nest, struct ibt_hop *h);
void ibt_hop_text(const struct ibt_hop *h);
void ibt_hop_json_fields(struct ibt *ctx, const struct ibt_hop *h);

int ibt_trace_monitor(struct ibt *ctx);

#endif /* IBTRACECTL_TRACE_H */
