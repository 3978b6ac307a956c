/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hops of a trace, as the kernel reports them (IBTRACE_A_TRACE_HOP):
 * decoded and printed by hop.c for the trace object (trace.c) and the
 * trace monitor (trace_monitor.c).
 */
#ifndef IBTRACECTL_HOP_H
#define IBTRACECTL_HOP_H

#include "ibtracectl.h"

struct ibt_hop {
	bool have[IBTRACE_HOP_A_MAX + 1];
	uint64_t val[IBTRACE_HOP_A_MAX + 1];
	char desc[IBT_DESC_MAX];
};

static inline uint64_t ibt_hop_get(const struct ibt_hop *h, int a)
{
	return h->val[a];
}

/* The numbers of a trace's end both trace and trace monitor print, in order. */
#define IBT_TRACE_END_KEYS	7
extern const struct ibt_num_key ibt_trace_end_keys[IBT_TRACE_END_KEYS];

int ibt_hop_parse(struct ibt *ctx, struct nlattr *nest, struct ibt_hop *h);
void ibt_hop_text(const struct ibt_hop *h);
void ibt_hop_json_fields(struct ibt *ctx, const struct ibt_hop *h);
const char *ibt_hop_name(const struct ibt_hop *h, char *buf, size_t len);

#endif /* IBTRACECTL_HOP_H */
