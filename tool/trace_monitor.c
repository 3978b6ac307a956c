// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace monitor: the hops and the end of every trace, whoever runs it, as
 * the kernel reports them on the "trace" multicast group.
 *
 *   ibtracectl [-j] [-d DEV] [-p PORT] trace monitor [-c COUNT]
 *
 * Text: one line per event, the trace's ID and local port first:
 *
 *   trace 7 ibtsim0/1 hop 1 in 1 switch "Switch1" node_guid 0x... out 3 agent no_agent smps 3 ...
 *   trace 7 ibtsim0/1 end lid 6: ok, 3 hops, 12 smps, 2 vendor mads, 1.234 ms
 *   trace 8 ibtsim0/1 end: cancelled (Operation canceled)
 *
 * JSON: one object per line and event. Keys: id, dev, port, event ("hop"
 * or "end"); a hop has the keys of a hop of "trace -j"; an end has dlid,
 * mlid (of a multicast trace), result (as "trace -j", or "cancelled" and "error" for a trace that ended
 * without a reply: errno, error), hops (hop events, the source included),
 * smps, vendor_mads, elapsed_ns and,
 * on failures, fail_hop, fail_port, mad_status, fdb_top.
 *
 * -d and -p keep the traces of one device or port. Runs until SIGINT or
 * SIGTERM (exit 0), or until COUNT traces have ended. Joining the group
 * needs CAP_NET_ADMIN (exit 5).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "hop.h"

struct monitor {
	uint32_t count;		/* traces to see end, 0: no limit */
	uint32_t ended;
	bool help;		/* -h: print the usage instead */
};

static void monitor_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] [-d DEV] [-p PORT] trace monitor [-c COUNT]\n"
	      "  -c, --count N        stop after N traces ended, 1..1000000\n"
	      "Prints the hops and the end of every trace as the kernel finds them,\n"
	      "until SIGINT or SIGTERM. -d, -p: only traces from that device or port.\n"
	      "Needs CAP_NET_ADMIN (exit 5).\n", f);
}

static int monitor_parse(struct ibt *ctx, struct monitor *m)
{
	static const struct ibt_num_opt nums[] = {
		{ "count", 'c', "-c", 1, 1000000, "", "",
		  offsetof(struct monitor, count), IBT_NUM_NO_FLAG },
	};

	return ibt_nums_args(ctx, "trace", "monitor", nums, IBT_ARRAY_SIZE(nums),
			     m, &m->help, true);
}

/* "trace 7 ibtsim0/1 " in text, the id, dev, port and event keys in JSON */
static void monitor_head(struct ibt *ctx, struct nlattr **tb, const char *event)
{
	const char *dev = nla_get_string(tb[IBTRACE_A_DEV_NAME]);
	uint32_t port = nla_get_u32(tb[IBTRACE_A_PORT]);
	uint32_t id = nla_get_u32(tb[IBTRACE_A_TRACE_ID]);

	if (!ctx->json) {
		printf("trace %" PRIu32 " %s/%" PRIu32 " ", id, dev, port);
		return;
	}
	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "id", json_object_new_uint64(id));
	ibt_out_json(ctx, "dev", json_object_new_string(dev));
	ibt_out_json(ctx, "port", json_object_new_uint64(port));
	ibt_out_json(ctx, "event", json_object_new_string(event));
}

static int monitor_hop(struct ibt *ctx, struct nlattr **tb)
{
	struct ibt_hop h;
	int ret;

	if (!tb[IBTRACE_A_TRACE_HOP])
		return 0;
	ret = ibt_hop_parse(ctx, tb[IBTRACE_A_TRACE_HOP], &h);
	if (ret)
		return ret;
	monitor_head(ctx, tb, "hop");
	if (!ctx->json) {
		ibt_hop_text(&h);
		return 0;
	}
	ibt_hop_json_fields(ctx, &h);
	ibt_out_obj_end(ctx);
	ibt_out_finish(ctx);
	return 0;
}

static uint64_t attr_uint(struct nlattr **tb, int attr)
{
	return tb[attr] ? ibt_nla_uint(tb[attr]) : 0;
}

static void monitor_end_text(struct nlattr **tb, const char *result)
{
	uint64_t seen = attr_uint(tb, IBTRACE_A_TRACE_HOPS);
	char b[32];

	if (tb[IBTRACE_A_TRACE_DLID] && tb[IBTRACE_A_TRACE_MLID])
		printf("end lid %" PRIu64 " mlid 0x%04" PRIx64 ": ",
		       attr_uint(tb, IBTRACE_A_TRACE_DLID),
		       attr_uint(tb, IBTRACE_A_TRACE_MLID));
	else if (tb[IBTRACE_A_TRACE_DLID])
		printf("end lid %" PRIu64 ": ", attr_uint(tb, IBTRACE_A_TRACE_DLID));
	else
		printf("end: ");
	if (tb[IBTRACE_A_TRACE_ERRNO]) {
		printf("%s (%s)\n", result,
		       strerror(attr_uint(tb, IBTRACE_A_TRACE_ERRNO)));
		fflush(stdout);
		return;
	}
	printf("%s", result);
	if (tb[IBTRACE_A_TRACE_FAIL_HOP])
		printf(" at hop %" PRIu64, attr_uint(tb, IBTRACE_A_TRACE_FAIL_HOP));
	if (tb[IBTRACE_A_TRACE_FAIL_PORT])
		printf(" port %" PRIu64, attr_uint(tb, IBTRACE_A_TRACE_FAIL_PORT));
	/* hops as the trace's own line counts them: the source is not one */
	printf(", %" PRIu64 " hops, %" PRIu64 " smps, %" PRIu64 " vendor mads, %s ms\n",
	       seen ? seen - 1 : 0,
	       attr_uint(tb, IBTRACE_A_TRACE_SMPS),
	       attr_uint(tb, IBTRACE_A_TRACE_VENDOR_MADS),
	       ibt_ns_str(attr_uint(tb, IBTRACE_A_TRACE_ELAPSED_NS), 1000000, b,
			  sizeof(b)));
	fflush(stdout);
}

static void monitor_end_json(struct ibt *ctx, struct nlattr **tb,
			     const char *result)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_A_TRACE_DLID,		"dlid" },
		{ IBTRACE_A_TRACE_MLID,		"mlid" },
		{ IBTRACE_A_TRACE_HOPS,		"hops" },
	};

	ibt_out_json(ctx, "result", json_object_new_string(result));
	if (tb[IBTRACE_A_TRACE_ONE_HOP])
		ibt_out_json(ctx, "one_hop", json_object_new_boolean(true));
	ibt_out_nla_nums(ctx, nums, IBT_ARRAY_SIZE(nums), tb);
	ibt_out_nla_nums(ctx, ibt_trace_end_keys, IBT_TRACE_END_KEYS, tb);
	if (tb[IBTRACE_A_TRACE_ERRNO]) {
		ibt_out_json(ctx, "errno", json_object_new_uint64(
			     attr_uint(tb, IBTRACE_A_TRACE_ERRNO)));
		ibt_out_json(ctx, "error", json_object_new_string(
			     strerror(attr_uint(tb, IBTRACE_A_TRACE_ERRNO))));
	}
	ibt_out_obj_end(ctx);
	ibt_out_finish(ctx);
}

static void monitor_end(struct ibt *ctx, struct nlattr **tb)
{
	const char *result;

	if (tb[IBTRACE_A_TRACE_ERRNO])
		result = attr_uint(tb, IBTRACE_A_TRACE_ERRNO) == ECANCELED ?
			 "cancelled" : "error";
	else if (tb[IBTRACE_A_TRACE_STATUS])
		result = ibt_trace_status_str(attr_uint(tb, IBTRACE_A_TRACE_STATUS));
	else
		return;		/* neither: not an end we understand */
	monitor_head(ctx, tb, "end");
	if (ctx->json)
		monitor_end_json(ctx, tb, result);
	else
		monitor_end_text(tb, result);
}

static int monitor_notify(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	struct monitor *m = arg;
	uint8_t cmd = genlmsg_hdr(nlh)->cmd;
	int ret;

	if (cmd != IBTRACE_CMD_TRACE && cmd != IBTRACE_CMD_TRACE_HOP)
		return 0;
	ret = ibt_nl_parse(ctx, nlh, tb);
	if (ret)
		return ret;
	if (!tb[IBTRACE_A_DEV_NAME] || !tb[IBTRACE_A_PORT] ||
	    !tb[IBTRACE_A_TRACE_ID])
		return 0;
	if ((ctx->dev && strcmp(ctx->dev, nla_get_string(tb[IBTRACE_A_DEV_NAME]))) ||
	    (ctx->port && ctx->port != nla_get_u32(tb[IBTRACE_A_PORT])))
		return 0;
	if (cmd == IBTRACE_CMD_TRACE_HOP)
		return monitor_hop(ctx, tb);
	monitor_end(ctx, tb);
	m->ended++;
	return 0;
}

static int monitor_run(struct ibt *ctx, struct monitor *m)
{
	int ret;

	ret = ibt_nl_open(ctx);
	if (!ret)
		ret = ibt_nl_join(ctx, IBTRACE_MCGRP_TRACE);
	if (ret)
		return ret;
	ctx->notify = monitor_notify;
	ctx->notify_arg = m;

	/* signals only while waiting (see ibt_nl_wait_notify) */
	ibt_signals_hold(true);

	while (!m->count || m->ended < m->count) {
		ret = ibt_nl_wait_notify(ctx, -1);
		if (ret == IBT_EXIT_INTR)
			return IBT_EXIT_OK;
		if (ret)
			return ret;
		if (ctx->nl_lost) {
			fprintf(stderr, "Warning: the kernel dropped trace events (receive buffer full)\n");
			ctx->nl_lost = 0;
		}
	}
	return IBT_EXIT_OK;
}

/* "trace monitor ...", the word "monitor" consumed. */
int ibt_trace_monitor(struct ibt *ctx)
{
	struct monitor m = { 0 };
	int ret;

	ret = monitor_parse(ctx, &m);
	if (ret || ibt_usage_if(m.help, monitor_usage))
		return ret;
	return monitor_run(ctx, &m);
}
