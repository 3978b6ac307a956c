// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace object: the path from a local port to a destination, hop by hop
 * (IBTRACE_CMD_TRACE; one IBTRACE_CMD_TRACE_HOP message per hop).
 *
 *   ibtracectl [-j] [-d DEV] [-p PORT] trace (--dlid LID | --dgid GID)
 *              [--mlid MLID] [-r RETRIES] [-t TIMEOUT_MS] [-v]
 *   ibtracectl [-j] [-d DEV] [-p PORT] trace monitor [-c COUNT]
 *              (trace_monitor.c: the hops of every trace)
 *
 * Without -d the first Active port is used (an InfiniBand one for --dlid);
 * -p defaults to port 1 with -d.
 *
 * Text: one line saying where the trace went; with -v first every hop,
 * printed as the kernel finds it:
 *
 *   hop 0 ca "Hca1" node_guid 0x0002c90000000001 port_guid 0x0002c90000000002 lid 2 out 1 agent local smps 3 smp_rtt 12.000 us
 *   hop 1 in 1 switch "Switch1" node_guid 0x... port_guid 0x... lid 1 out 3 agent no_agent smps 6 smp_rtt 40.000 us vendor_rtt 20.000 us
 *   hop 3 in 1 ca "Hca4" node_guid 0x... lid 6 agent verified smps 3 smp_rtt 80.000 us vendor_rtt 60.000 us
 *   Trace from mthca0/1 to lid 6: 3 hops, reached ca "Hca4" (0x...), verified by its agent
 *
 * --mlid: the path a packet to the MLID takes to the destination, through
 * the switches' MulticastForwardingTables; the kernel reports it once
 * found, with "agent unasked" on every hop but the source:
 *
 *   Multicast trace of mlid 0xc000 from mthca0/1 to lid 6: 3 hops, reached ca "Hca4" (0x...)
 *   Error: lid 9 is not in the tree of mlid 0xc001 from mthca0/1: its forwarding tables do not reach it
 *
 * "lid A-B" when the node has more than one LID (LMC > 0). A mismatch
 * shows "agent mismatch expected 1 actual 2". On a failure the hops seen
 * are printed (also without -v) and then one line on stderr:
 *
 *   Error: no route to lid 9 at hop 1, switch "Switch1" (0x...): its LFT entry is 255
 *
 * JSON: one object, also on failure. Keys:
 *   dev, port      string, number: the local port
 *   dlid           number: the DLID traced (from the SA for --dgid)
 *   dgid           string (with --dgid)
 *   mlid           number (with --mlid): the MLID traced
 *   one_hop        bool: a RoCE trace (agent proof of the destination only)
 *   hops           array of objects, keys only for what is known:
 *     hop (number, the source is 0), in_port, out_port, node_type ("ca",
 *     "switch", "router", "unknown"), num_ports, node_guid, port_guid
 *     (strings "0x%016x"), lid, lid_last (numbers, lid_last = lid +
 *     2^lmc - 1), lmc, node_desc, agent ("local", "verified", "mismatch",
 *     "no_agent", "failed", "unasked" on a multicast trace), expected_port, actual_port (SourceRoute),
 *     smps, smp_rtt_ns, vendor_mads, vendor_rtt_ns
 *   result         string: "ok", "no_route" (LFT entry 255, DLID past
 *                  LinearFDBTop, exit port 0 or beyond the switch's
 *                  ports, a CA on the path without the DLID, or the
 *                  DLID not in the MLID's tree),
 *                  "port_down", "too_many_hops", "loop", "unresponsive",
 *                  "smp_error", "sa_failed", "dev_gone", "cancelled"
 *   reason         string: "lft_unset", "past_fdb_top", "bad_port",
 *                  "dead_end", "not_in_tree" (with result "no_route")
 *   fail_hop, fail_port, mad_status, fdb_top  numbers, on failures
 *   message        string: the failure sentence (as on stderr)
 *   smps, vendor_mads, elapsed_ns  numbers: totals of the trace
 *   id             number: the kernel's ID of the trace (as "trace monitor"
 *                  shows it)
 *
 * Exit: 0 reached; 4 device gone; 8 no route (or not in the MLID's tree); 9 port not Active; 10 loop
 * or more than 63 hops; 11 hop unresponsive (or SMP error); 12 SA lookup
 * failed; 13 cancelled (SIGINT); 14 busy (too many traces running).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "hop.h"

enum {
	OPT_MLID = IBT_OPT_DLID + 1,
};

#define TRACE_MAX_HOPS	(IBTRACE_TRACE_MAX_HOPS + 1)

struct trace {
	/* request */
	struct ibt_target tgt;
	bool has_mlid, verbose;
	bool help;			/* -h: print the usage instead */
	uint32_t mlid;
	char dev[IBT_DEV_NAME_MAX];
	uint32_t port;
	char target[INET6_ADDRSTRLEN + 8];

	/* the job */
	struct ibt_job_follow job;

	/* results */
	struct ibt_hop hops[TRACE_MAX_HOPS];
	unsigned int nhops;
	bool got_result;
	bool have[IBTRACE_A_MAX + 1];
	uint64_t val[IBTRACE_A_MAX + 1];
};

static void trace_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] trace\n"
	      "           (--dlid LID | --dgid GID) [--mlid MLID] [-r RETRIES]\n"
	      "           [-t TIMEOUT_MS] [-v]\n"
	      "       ibtracectl [-j] [-d DEV] [-p PORT] trace monitor [-c COUNT]\n"
	      "  --dlid LID           destination LID, 1.." IBT_STR(IBTRACE_MAX_UNICAST_LID) " (decimal or 0x hex)\n"
	      "  --dgid GID           destination GID: SA PathRecord gives the DLID;\n"
	      "                       on RoCE a one-hop trace (agent proof only)\n"
	      "  --mlid MLID          trace the path of multicast LID "
	      IBT_STR(IBTRACE_MIN_MULTICAST_LID) ".." IBT_STR(IBTRACE_MAX_MULTICAST_LID) " to\n"
	      "                       the destination through the switches' MFTs\n"
	      "  -r, --retries N      extra attempts after a timeout, 0.." IBT_STR(IBTRACE_MAX_RETRIES) " (default 3)\n"
	      "  -t, --timeout MS     wait per SMP or MAD attempt, 1.." IBT_STR(IBTRACE_MAX_TIMEOUT_MS) " (default 1000)\n"
	      "  -v, --verbose        print every hop as it is found\n"
	      "  monitor              print the hops and the end of every trace (any\n"
	      "                       process's) as they come; -c, --count N: stop\n"
	      "                       after N traces ended. Needs CAP_NET_ADMIN\n"
	      "Without -d: the first Active port. Exit 8 no route (or not in the\n"
	      "MLID's tree), 9 port not Active,\n"
	      "10 loop or > 63 hops, 11 hop unresponsive, 12 SA lookup failed,\n"
	      "13 cancelled, 14 busy, 4 device gone; 7 an agent saw the probe arrive\n"
	      "on another port than the walk expected.\n", f);
}

/* An option of trace (for ibt_args_parse()). */
static int trace_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct trace *t = a->priv;

	switch (c) {
	case OPT_MLID:
		return ibt_opt_ok(ibt_parse_u32(arg, IBTRACE_MIN_MULTICAST_LID,
						 IBTRACE_MAX_MULTICAST_LID, &t->mlid),
				  &t->has_mlid,
				  "bad --mlid \"%s\": expected a multicast LID "
				  IBT_STR(IBTRACE_MIN_MULTICAST_LID) ".." IBT_STR(IBTRACE_MAX_MULTICAST_LID),
				  arg);
	case 'v':
		t->verbose = true;
		return 0;
	default:
		return IBT_OPT_UNKNOWN;
	}
}

static int trace_parse(struct ibt *ctx, struct trace *t)
{
	static const struct option opts[] = {
		{ "mlid",	required_argument,	NULL, OPT_MLID },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ NULL,		0,			NULL, 0 },
	};
	int ret;

	ret = ibt_target_args(ctx, "trace", opts, trace_opt, t, &t->help, &t->tgt);
	if (ret || t->help)
		return ret;
	if (t->tgt.dest.has_dgid == t->tgt.dest.has_dlid)
		return ibt_err(IBT_EXIT_USAGE,
			       "trace needs either --dlid LID or --dgid GID");
	if (t->tgt.dest.has_dgid)
		inet_ntop(AF_INET6, t->tgt.dest.dgid, t->target, sizeof(t->target));
	else
		snprintf(t->target, sizeof(t->target), "lid %u", t->tgt.dest.dlid);
	return 0;
}

/* Without -d: the first Active port with the agent (InfiniBand for --dlid). */
static int trace_pick_port(struct ibt *ctx, struct trace *t)
{
	const struct ibt_port_want want = {
		.port = ctx->port,
		.ib = t->tgt.dest.has_dlid || t->has_mlid,
		.agent = true,
	};
	int ret;

	if (ctx->dev) {
		snprintf(t->dev, sizeof(t->dev), "%s", ctx->dev);
		t->port = ctx->port ? ctx->port : 1;
		return 0;
	}
	ret = ibt_port_pick(ctx, &want, t->dev, sizeof(t->dev), &t->port);
	if (ret)
		return ret;
	if (!t->dev[0])
		return ibt_err(IBT_EXIT_NODEV,
			       "no Active %sport to trace from; name one with -d DEV",
			       t->tgt.dest.has_dlid || t->has_mlid ? "InfiniBand " : "");
	return 0;
}

static struct nl_msg *trace_request(struct ibt *ctx, struct trace *t)
{
	struct nl_msg *msg = ibt_nl_req(ctx, IBTRACE_CMD_TRACE, false);

	if (!msg)
		return NULL;
	if (nla_put_string(msg, IBTRACE_A_DEV_NAME, t->dev) < 0 ||
	    nla_put_u32(msg, IBTRACE_A_PORT, t->port) < 0 ||
	    ibt_nl_put_dest(msg, &t->tgt.dest, IBTRACE_A_TRACE_DGID, IBTRACE_A_TRACE_DLID) ||
	    (t->has_mlid && nla_put_u32(msg, IBTRACE_A_TRACE_MLID, t->mlid) < 0) ||
	    ibt_nl_put_wait(msg, &t->tgt.wait, IBTRACE_A_TRACE_TIMEOUT_MS,
			    IBTRACE_A_TRACE_RETRIES)) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* A hop, unless seen already (a JOB_GET reply repeats the hops). */
static int trace_hop(struct ibt *ctx, void *arg, struct nlattr *nest)
{
	struct trace *t = arg;
	struct ibt_hop *h;
	int ret;

	if (t->nhops >= TRACE_MAX_HOPS)
		return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: more than %d hops",
			       TRACE_MAX_HOPS);
	h = &t->hops[t->nhops];
	ret = ibt_hop_parse(ctx, nest, h);
	if (ret)
		return ret;
	if (t->nhops && ibt_hop_get(h, IBTRACE_HOP_A_INDEX) <=
			ibt_hop_get(&t->hops[t->nhops - 1], IBTRACE_HOP_A_INDEX))
		return 0;
	t->nhops++;
	if (t->verbose && !ctx->json)
		ibt_hop_text(h);
	return 0;
}

/* A message of the trace job but its hops: its end brings the result. */
static int trace_msg(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		     void *arg)
{
	struct trace *t = arg;
	int i, ret;

	/* a JOB_GET reply carries every hop kept */
	if (genlmsg_hdr(nlh)->cmd == IBTRACE_CMD_JOB_GET) {
		ret = ibt_nl_each(ctx, nlh, IBTRACE_A_TRACE_HOP, trace_hop, t);
		if (ret)
			return ret;
	}
	/* the reply to the request says only which job it started */
	if (!ibt_job_ended(&t->job, tb))
		return 0;
	if (!tb[IBTRACE_A_TRACE_STATUS])
		return 0;
	for (i = IBTRACE_A_TRACE_DLID; i <= IBTRACE_A_MAX; i++) {
		if (!tb[i] || i == IBTRACE_A_TRACE_HOP || i == IBTRACE_A_TRACE_DGID)
			continue;
		t->have[i] = true;
		t->val[i] = ibt_nla_uint(tb[i]);
	}
	t->got_result = true;
	return 0;
}

/* Its hops come one a message as it goes; its end brings the result. */
static const struct ibt_job_kind trace_kind = {
	IBTRACE_CMD_TRACE_HOP, IBTRACE_A_TRACE_HOP, trace_hop, trace_msg,
};

/* The hop a failure names, or NULL if the kernel did not report it. */
static const struct ibt_hop *fail_hop(const struct trace *t)
{
	uint64_t idx = t->val[IBTRACE_A_TRACE_FAIL_HOP];
	unsigned int i;

	for (i = 0; i < t->nhops; i++)
		if (t->hops[i].val[IBTRACE_HOP_A_INDEX] == idx)
			return &t->hops[i];
	return NULL;
}

/* Why a trace found no route (IBTRACE_TRACE_NO_ROUTE_*, _DEAD_END). */
static const char *no_route_why(const struct trace *t, char *buf, size_t len)
{
	switch (t->val[IBTRACE_A_TRACE_STATUS]) {
	case IBTRACE_TRACE_NO_ROUTE_UNSET:
		return "its LFT entry for the DLID is 255";
	case IBTRACE_TRACE_NO_ROUTE_TOP:
		snprintf(buf, len, "the DLID is past its LinearFDBTop %" PRIu64,
			 t->val[IBTRACE_A_TRACE_FDB_TOP]);
		return buf;
	case IBTRACE_TRACE_NO_ROUTE_PORT:
		snprintf(buf, len, "its LFT names port %" PRIu64 ", which it does not have",
			 t->val[IBTRACE_A_TRACE_FAIL_PORT]);
		return buf;
	default:
		return "the path ends at a node that does not hold the DLID";
	}
}

/* The failure sentence and its exit code (0 and "" on success). */
static int trace_verdict(const struct trace *t, bool interrupted, char *msg,
			 size_t len)
{
	const struct ibt_hop *h = fail_hop(t);
	uint64_t st = t->val[IBTRACE_A_TRACE_STATUS];
	uint64_t port = t->val[IBTRACE_A_TRACE_FAIL_PORT];
	char at[IBT_DESC_MAX + 64], name[IBT_DESC_MAX + 48], b[96];

	msg[0] = '\0';
	if (interrupted || !t->got_result) {
		snprintf(msg, len, "trace to %s cancelled after %u hops",
			 t->target, t->nhops);
		return IBT_EXIT_CANCEL;
	}
	if (h)
		snprintf(at, sizeof(at), "at hop %" PRIu64 ", %s",
			 t->val[IBTRACE_A_TRACE_FAIL_HOP], ibt_hop_name(h, name, sizeof(name)));
	else
		snprintf(at, sizeof(at), "at hop %" PRIu64,
			 t->val[IBTRACE_A_TRACE_FAIL_HOP]);

	switch (st) {
	case IBTRACE_TRACE_OK:
		return IBT_EXIT_OK;
	case IBTRACE_TRACE_NO_ROUTE_UNSET:
	case IBTRACE_TRACE_NO_ROUTE_TOP:
	case IBTRACE_TRACE_NO_ROUTE_PORT:
	case IBTRACE_TRACE_DEAD_END:
		snprintf(msg, len, "no route to %s %s: %s", t->target, at,
			 no_route_why(t, b, sizeof(b)));
		return IBT_EXIT_NOROUTE;
	case IBTRACE_TRACE_PORT_DOWN:
		snprintf(msg, len, "port %" PRIu64 " is not Active %s, on the path to %s",
			 port, at, t->target);
		return IBT_EXIT_PORTDOWN;
	case IBTRACE_TRACE_TOO_MANY_HOPS:
		snprintf(msg, len, "more than %d hops to %s: stopped %s",
			 IBTRACE_TRACE_MAX_HOPS, t->target, at);
		return IBT_EXIT_LOOP;
	case IBTRACE_TRACE_LOOP:
		snprintf(msg, len, "the path to %s loops %s: the node is already on the path",
			 t->target, at);
		return IBT_EXIT_LOOP;
	case IBTRACE_TRACE_UNRESPONSIVE:
		snprintf(msg, len, "hop %" PRIu64 " on the path to %s did not answer after all retries%s%s",
			 t->val[IBTRACE_A_TRACE_FAIL_HOP], t->target,
			 h && h->have[IBTRACE_HOP_A_NODE_GUID] ? ": " : "",
			 h && h->have[IBTRACE_HOP_A_NODE_GUID] ? ibt_hop_name(h, name, sizeof(name)) : "");
		return IBT_EXIT_UNRESP;
	case IBTRACE_TRACE_SMP_ERROR:
		snprintf(msg, len, "an SMP %s on the path to %s was answered with status 0x%04" PRIx64 " (%s)",
			 at, t->target, t->val[IBTRACE_A_TRACE_MAD_STATUS],
			 ibt_mad_status_str(t->val[IBTRACE_A_TRACE_MAD_STATUS], b, sizeof(b)));
		return IBT_EXIT_UNRESP;
	case IBTRACE_TRACE_SA_FAILED:
		snprintf(msg, len, "SA PathRecord lookup of %s failed (no SM, or no path)",
			 t->target);
		return IBT_EXIT_SAFAIL;
	case IBTRACE_TRACE_DEV_GONE:
		snprintf(msg, len, "the device %s went away (or ibtrace is unloading) %s of the trace to %s",
			 t->dev, at, t->target);
		return IBT_EXIT_NODEV;
	case IBTRACE_TRACE_NOT_IN_TREE:
		snprintf(msg, len, "%s is not in the tree of mlid 0x%04x from %s/%u: its forwarding tables do not reach it",
			 t->target, t->mlid, t->dev, t->port);
		return IBT_EXIT_NOROUTE;
	default:
		snprintf(msg, len, "trace to %s ended with unknown status %" PRIu64,
			 t->target, st);
		return IBT_EXIT_ERR;
	}
}

static void trace_json(struct ibt *ctx, const struct trace *t, bool interrupted,
		       const char *msg)
{
	const char *reason = NULL;
	unsigned int i;

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "dev", json_object_new_string(t->dev));
	ibt_out_json(ctx, "port", json_object_new_uint64(t->port));
	if (t->have[IBTRACE_A_TRACE_DLID])
		ibt_out_json(ctx, "dlid",
			     json_object_new_uint64(t->val[IBTRACE_A_TRACE_DLID]));
	else if (t->tgt.dest.has_dlid)
		ibt_out_json(ctx, "dlid", json_object_new_uint64(t->tgt.dest.dlid));
	if (t->tgt.dest.has_dgid)
		ibt_out_json(ctx, "dgid", json_object_new_string(t->target));
	if (t->has_mlid)
		ibt_out_json(ctx, "mlid", json_object_new_uint64(t->mlid));
	ibt_out_json(ctx, "one_hop",
		     json_object_new_boolean(t->val[IBTRACE_A_TRACE_ONE_HOP]));
	ibt_out_arr_begin(ctx, "hops");
	for (i = 0; i < t->nhops; i++) {
		ibt_out_obj_begin(ctx, NULL);
		ibt_hop_json_fields(ctx, &t->hops[i]);
		ibt_out_obj_end(ctx);
	}
	ibt_out_arr_end(ctx);

	if (interrupted || !t->got_result) {
		ibt_out_json(ctx, "result", json_object_new_string("cancelled"));
	} else {
		switch (t->val[IBTRACE_A_TRACE_STATUS]) {
		case IBTRACE_TRACE_NO_ROUTE_UNSET:
			reason = "lft_unset";
			break;
		case IBTRACE_TRACE_NO_ROUTE_TOP:
			reason = "past_fdb_top";
			break;
		case IBTRACE_TRACE_NO_ROUTE_PORT:
			reason = "bad_port";
			break;
		case IBTRACE_TRACE_DEAD_END:
			reason = "dead_end";
			break;
		case IBTRACE_TRACE_NOT_IN_TREE:
			reason = "not_in_tree";
			break;
		}
		ibt_out_json(ctx, "result", json_object_new_string(
			     ibt_trace_status_str(t->val[IBTRACE_A_TRACE_STATUS])));
		if (reason)
			ibt_out_json(ctx, "reason", json_object_new_string(reason));
	}
	ibt_out_nums(ctx, ibt_trace_end_keys, IBT_TRACE_END_KEYS, t->have, t->val);
	if (t->have[IBTRACE_A_TRACE_ID])
		ibt_out_json(ctx, "id",
			     json_object_new_uint64(t->val[IBTRACE_A_TRACE_ID]));
	if (msg[0])
		ibt_out_json(ctx, "message", json_object_new_string(msg));
	if (interrupted)
		ibt_out_json(ctx, "interrupted", json_object_new_boolean(true));
	ibt_out_obj_end(ctx);
	ibt_out_finish(ctx);
}

/* The one line of a successful trace. */
static void trace_ok_line(const struct trace *t)
{
	const struct ibt_hop *h = t->nhops ? &t->hops[t->nhops - 1] : NULL;
	char name[IBT_DESC_MAX + 48];
	const char *verdict = "";

	if (h) {
		switch (ibt_hop_get(h, IBTRACE_HOP_A_AGENT)) {
		case IBTRACE_HOP_AGENT_VERIFIED:
			verdict = ", verified by its agent";
			break;
		case IBTRACE_HOP_AGENT_MISMATCH:
			verdict = ", but its agent saw the probe arrive on another port";
			break;
		case IBTRACE_HOP_AGENT_LOCAL:
			verdict = " (the local node)";
			break;
		case IBTRACE_HOP_AGENT_FAILED:
			verdict = ", its agent did not answer SourceRoute";
			break;
		case IBTRACE_HOP_AGENT_UNASKED:
			verdict = "";
			break;
		default:
			verdict = ", no agent there";
			break;
		}
	}
	if (t->val[IBTRACE_A_TRACE_ONE_HOP])
		printf("Trace from %s/%u to %s (RoCE: one hop, agent proof of the destination only): %s%s\n",
		       t->dev, t->port, t->target,
		       h ? "reached" : "no hop", verdict);
	else if (t->has_mlid)
		printf("Multicast trace of mlid 0x%04x from %s/%u to %s: %u hops, reached %s%s\n",
		       t->mlid, t->dev, t->port, t->target, t->nhops ? t->nhops - 1 : 0,
		       h ? ibt_hop_name(h, name, sizeof(name)) : "?", verdict);
	else
		printf("Trace from %s/%u to %s: %u hops, reached %s%s\n",
		       t->dev, t->port, t->target, t->nhops ? t->nhops - 1 : 0,
		       h ? ibt_hop_name(h, name, sizeof(name)) : "?", verdict);
}

/*
 * A trace that reached its destination still fails its proof when an agent
 * on the path saw the SourceRoute probe arrive on another port than the
 * walk expected: exit status 7, as a ping whose answers carry an error
 * status. The one line says so for the destination; a mismatch anywhere
 * else gets its own sentence.
 */
static int trace_proof(const struct trace *t)
{
	const struct ibt_hop *h;
	unsigned int i;
	int ret = IBT_EXIT_OK;

	for (i = 0; i < t->nhops; i++) {
		h = &t->hops[i];
		if (ibt_hop_get(h, IBTRACE_HOP_A_AGENT) != IBTRACE_HOP_AGENT_MISMATCH)
			continue;
		ret = IBT_EXIT_REMOTE;
		if (i + 1 < t->nhops && !t->verbose)
			ibt_err(ret, "the agent at hop %" PRIu64 " saw the probe arrive on port %" PRIu64 ", not %" PRIu64,
				ibt_hop_get(h, IBTRACE_HOP_A_INDEX),
				ibt_hop_get(h, IBTRACE_HOP_A_ACTUAL_PORT),
				ibt_hop_get(h, IBTRACE_HOP_A_EXPECTED_PORT));
	}
	return ret;
}

static int trace_run(struct ibt *ctx, struct trace *t)
{
	char msg[512];
	struct nl_msg *msg_req;
	bool interrupted;
	unsigned int i;
	int ret;

	ret = ibt_nl_open(ctx);
	if (ret)
		return ret;
	ret = trace_pick_port(ctx, t);
	if (ret)
		return ret;
	msg_req = trace_request(ctx, t);
	if (!msg_req)
		return IBT_EXIT_ERR;

	/* As for ping (see there): SIGINT or SIGTERM cancels the job. */
	ret = ibt_job_run(ctx, msg_req, &t->job, &trace_kind, t);
	if (!ret)
		ret = ibt_job_result(ctx, &t->job, &interrupted);
	if (ret)
		return ret;
	if (ctx->nl_lost)
		fprintf(stderr, "Warning: the kernel dropped hop messages (receive buffer full)\n");

	ret = trace_verdict(t, interrupted, msg, sizeof(msg));
	if (ctx->json) {
		trace_json(ctx, t, interrupted, msg);
	} else if (!ret) {
		trace_ok_line(t);
	} else if (!t->verbose) {
		/* the partial path, which -v has printed already */
		for (i = 0; i < t->nhops; i++)
			ibt_hop_text(&t->hops[i]);
	}
	if (ret)
		return ibt_err(ret, "%s", msg);
	return trace_proof(t);
}

/* "trace monitor" (also a prefix: "trace mon") instead of a trace */
static bool trace_is_monitor(const struct ibt *ctx)
{
	const char *w = ctx->argc > 0 ? ctx->argv[0] : "";

	return w[0] && !strncmp("monitor", w, strlen(w));
}

int ibt_trace(struct ibt *ctx)
{
	struct trace *t;
	int ret;

	if (trace_is_monitor(ctx)) {
		ctx->argc--;
		ctx->argv++;
		return ibt_trace_monitor(ctx);
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	ret = trace_parse(ctx, t);
	if (!ret && !ibt_usage_if(t->help, trace_usage))
		ret = trace_run(ctx, t);
	free(t);
	return ret;
}
