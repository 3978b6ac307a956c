// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hops of a trace (IBTRACE_A_TRACE_HOP nests), as the trace object
 * (trace.c) and the trace monitor (trace_monitor.c) read and print them:
 * decoded into struct ibt_hop, one text line per hop, the hop's JSON
 * keys (listed in trace.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>

#include "ibtracectl.h"
#include "hop.h"

const struct ibt_num_key ibt_trace_end_keys[IBT_TRACE_END_KEYS] = {
	{ IBTRACE_A_TRACE_FAIL_HOP,	"fail_hop" },
	{ IBTRACE_A_TRACE_FAIL_PORT,	"fail_port" },
	{ IBTRACE_A_TRACE_MAD_STATUS,	"mad_status" },
	{ IBTRACE_A_TRACE_FDB_TOP,	"fdb_top" },
	{ IBTRACE_A_TRACE_SMPS,		"smps" },
	{ IBTRACE_A_TRACE_VENDOR_MADS,	"vendor_mads" },
	{ IBTRACE_A_TRACE_ELAPSED_NS,	"elapsed_ns" },
};

/* "ca \"Hca1\" (0x0002c90000000001)" for the messages. */
const char *ibt_hop_name(const struct ibt_hop *h, char *buf, size_t len)
{
	const char *type = ibt_node_type_str(ibt_hop_get(h, IBTRACE_HOP_A_NODE_TYPE));

	if (h->have[IBTRACE_HOP_A_NODE_GUID])
		snprintf(buf, len, "%s \"%s\" (0x%016" PRIx64 ")", type, h->desc,
			 ibt_hop_get(h, IBTRACE_HOP_A_NODE_GUID));
	else
		snprintf(buf, len, "%s \"%s\"", type, h->desc);
	return buf;
}

/* One line per hop ("hop 1 in 1 switch ..."), flushed as it comes. */
void ibt_hop_text(const struct ibt_hop *h)
{
	char b[32];

	printf("hop %" PRIu64, ibt_hop_get(h, IBTRACE_HOP_A_INDEX));
	if (h->have[IBTRACE_HOP_A_IN_PORT])
		printf(" in %" PRIu64, ibt_hop_get(h, IBTRACE_HOP_A_IN_PORT));
	printf(" %s \"%s\"", ibt_node_type_str(ibt_hop_get(h, IBTRACE_HOP_A_NODE_TYPE)),
	       h->desc);
	if (h->have[IBTRACE_HOP_A_NODE_GUID])
		printf(" node_guid 0x%016" PRIx64 " port_guid 0x%016" PRIx64,
		       ibt_hop_get(h, IBTRACE_HOP_A_NODE_GUID),
		       ibt_hop_get(h, IBTRACE_HOP_A_PORT_GUID));
	if (h->have[IBTRACE_HOP_A_LID]) {
		uint64_t lid = ibt_hop_get(h, IBTRACE_HOP_A_LID);
		unsigned int lmc = ibt_hop_get(h, IBTRACE_HOP_A_LMC);

		if (lmc)
			printf(" lid %" PRIu64 "-%" PRIu64, lid, lid + (1u << lmc) - 1);
		else
			printf(" lid %" PRIu64, lid);
	}
	if (h->have[IBTRACE_HOP_A_OUT_PORT])
		printf(" out %" PRIu64, ibt_hop_get(h, IBTRACE_HOP_A_OUT_PORT));
	printf(" agent %s", ibt_hop_agent_str(ibt_hop_get(h, IBTRACE_HOP_A_AGENT)));
	if (ibt_hop_get(h, IBTRACE_HOP_A_AGENT) == IBTRACE_HOP_AGENT_MISMATCH)
		printf(" expected %" PRIu64 " actual %" PRIu64,
		       ibt_hop_get(h, IBTRACE_HOP_A_EXPECTED_PORT),
		       ibt_hop_get(h, IBTRACE_HOP_A_ACTUAL_PORT));
	printf(" smps %" PRIu64, ibt_hop_get(h, IBTRACE_HOP_A_SMPS));
	if (h->have[IBTRACE_HOP_A_SMP_RTT_NS])
		printf(" smp_rtt %s us",
		       ibt_ns_str(ibt_hop_get(h, IBTRACE_HOP_A_SMP_RTT_NS), 1000, b, sizeof(b)));
	if (h->have[IBTRACE_HOP_A_VENDOR_RTT_NS])
		printf(" vendor_rtt %s us",
		       ibt_ns_str(ibt_hop_get(h, IBTRACE_HOP_A_VENDOR_RTT_NS), 1000, b,
				  sizeof(b)));
	putchar('\n');
	fflush(stdout);
}

/* The hop's keys, into the JSON object being built. */
void ibt_hop_json_fields(struct ibt *ctx, const struct ibt_hop *h)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_HOP_A_INDEX,		"hop" },
		{ IBTRACE_HOP_A_IN_PORT,	"in_port" },
		{ IBTRACE_HOP_A_OUT_PORT,	"out_port" },
		{ IBTRACE_HOP_A_NUM_PORTS,	"num_ports" },
		{ IBTRACE_HOP_A_LID,		"lid" },
		{ IBTRACE_HOP_A_LMC,		"lmc" },
		{ IBTRACE_HOP_A_EXPECTED_PORT,	"expected_port" },
		{ IBTRACE_HOP_A_ACTUAL_PORT,	"actual_port" },
		{ IBTRACE_HOP_A_SMPS,		"smps" },
		{ IBTRACE_HOP_A_SMP_RTT_NS,	"smp_rtt_ns" },
		{ IBTRACE_HOP_A_VENDOR_MADS,	"vendor_mads" },
		{ IBTRACE_HOP_A_VENDOR_RTT_NS,	"vendor_rtt_ns" },
	};
	char s[24];

	ibt_out_nums(ctx, nums, IBT_ARRAY_SIZE(nums), h->have, h->val);
	if (h->have[IBTRACE_HOP_A_LID])
		ibt_out_json(ctx, "lid_last", json_object_new_uint64(
			     ibt_hop_get(h, IBTRACE_HOP_A_LID) +
			     (1u << ibt_hop_get(h, IBTRACE_HOP_A_LMC)) - 1));
	ibt_out_json(ctx, "node_type", json_object_new_string(
		     ibt_node_type_str(ibt_hop_get(h, IBTRACE_HOP_A_NODE_TYPE))));
	if (h->have[IBTRACE_HOP_A_NODE_GUID]) {
		snprintf(s, sizeof(s), "0x%016" PRIx64, ibt_hop_get(h, IBTRACE_HOP_A_NODE_GUID));
		ibt_out_json(ctx, "node_guid", json_object_new_string(s));
		snprintf(s, sizeof(s), "0x%016" PRIx64, ibt_hop_get(h, IBTRACE_HOP_A_PORT_GUID));
		ibt_out_json(ctx, "port_guid", json_object_new_string(s));
	}
	if (h->have[IBTRACE_HOP_A_NODE_DESC])
		ibt_out_json(ctx, "node_desc", json_object_new_string(h->desc));
	ibt_out_json(ctx, "agent", json_object_new_string(
		     ibt_hop_agent_str(ibt_hop_get(h, IBTRACE_HOP_A_AGENT))));
}

/* Parse one IBTRACE_A_TRACE_HOP nest into @h. Returns an exit code. */
int ibt_hop_parse(struct ibt *ctx, struct nlattr *nest, struct ibt_hop *h)
{
	struct nlattr *tb[IBTRACE_HOP_A_MAX + 1];
	int i, ret;

	ret = ibt_nl_parse_nest(ctx, nest, tb);
	if (ret)
		return ret;
	memset(h, 0, sizeof(*h));
	for (i = IBTRACE_HOP_A_INDEX; i <= IBTRACE_HOP_A_MAX; i++) {
		if (!tb[i])
			continue;
		h->have[i] = true;
		if (i == IBTRACE_HOP_A_NODE_DESC)
			nla_strlcpy(h->desc, tb[i], sizeof(h->desc));
		else
			h->val[i] = ibt_nla_uint(tb[i]);
	}
	return 0;
}
