// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim traffic: data traffic through an ibtrace_sim fabric
 * (IBTRACE_SIM_CMD_TRAFFIC_START): flows of UD-shaped packets that an HCA
 * sends to a LID through the fabric's real forwarding, SLtoVL tables, VLs
 * and flow control, counted and timed by the kernel.
 *
 *   ibtracectl [-j] sim traffic FABRIC --from NODE [--port N] --to LID
 *              [--sl SL] [--size BYTES] [--rate PPS|max] [--count N]
 *              [--from NODE ...]... [--timeout SEC]
 *
 * Each --from begins a flow; the options that follow it, up to the next
 * --from, are that flow's. NODE is an index if all digits, else a name.
 * Every flow is started on the one socket (they belong to it: closing it
 * ends them), then the tool waits for the TRAFFIC_END message of each
 * (sequence number 0, maybe before the reply that names its ID). At
 * --timeout (default 60 s, the whole run) or on SIGINT/SIGTERM the flows
 * still running are stopped (TRAFFIC_STOP) and their ends waited for.
 * Then a block per flow, in the order of the command line:
 *
 *   flow 1: node H1 port 1 -> lid 0x5 sl 0 vl 0, 256 bytes, rate max, count 1000
 *     sent 1000 delivered 1000 dropped 0 in 0.123 s (8130 pkt/s, 16.6 Mbit/s payload)
 *     latency us: min 12.3 p50 20.1 p90 30.2 p99 45.0 max 60.1
 *
 * (no latency line when nothing was delivered; a stopped flow adds
 * "  stopped after 60 s (--timeout): N packets still in the fabric", a
 * flow whose fabric was deleted "  the fabric was deleted: N packets
 * were in it").
 *
 * JSON: one object: fabric, flows: [{id, node, node_index, port, dlid,
 * sl, vl (null: none left), size, rate (null: max), count, end ("done",
 * "stopped", "fabric_gone"), sent, delivered, dropped, in_flight,
 * time_ns, pps (null without a time), latency_ns ({min, p50, p90, p99,
 * max}, or null)}].
 *
 * Exit: 0 when every flow ended done with every packet delivered; 7 when
 * packets were dropped; 6 when flows were stopped at --timeout; 13 when
 * stopped by SIGINT or SIGTERM (or by another TRAFFIC_STOP); 4 when the
 * fabric was deleted; 14 when the kernel runs IBTRACE_SIM_TRAFFIC_MAX
 * flows already; else as every sim command.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <linux/ibtrace_sim.h>

#include "ibtracectl.h"

#define TR_DEFAULT_TIMEOUT_S	60
/* the longest a paced flow sends: its most packets, at 1 packet/s */
#define TR_TIMEOUT_MAX_S	IBTRACE_SIM_TRAFFIC_COUNT_MAX
#define TR_STOP_WAIT_MS		5000	/* for the ends of stopped flows */
#define TR_POLL_MS		1000

/* What a flow asks for: its options, the attributes of its request. */
enum {
	TA_PORT,
	TA_DLID,
	TA_SL,
	TA_SIZE,
	TA_RATE,
	TA_COUNT,
	TA_N
};

enum {
	OPT_FROM = 0x200,
	OPT_ASK,			/* + TA_*: a flow's option */
	OPT_TIMEOUT = OPT_ASK + TA_N,
};

/*
 * Each option of a flow: its attribute (the request's, and what the
 * TRAFFIC_END message says was asked), its name, its range and unit in
 * errors, the kernel's default (uapi/linux/ibtrace_sim.h).
 */
static const struct tr_ask {
	int attr;
	const char *opt;
	uint32_t min, max;
	const char *what, *unit;
	uint32_t dflt;
} tr_asks[TA_N] = {
	[TA_PORT]  = { IBTRACE_SIM_A_TRAFFIC_PORT, "--port", 1,
		       IBTRACE_SIM_PORTS_MAX, "a port number ", "", 1 },
	[TA_DLID]  = { IBTRACE_SIM_A_TRAFFIC_DLID, "--to", 1,
		       IBTRACE_MAX_UNICAST_LID, "", "", 0 },
	[TA_SL]    = { IBTRACE_SIM_A_TRAFFIC_SL, "--sl", 0, 15, "", "", 0 },
	[TA_SIZE]  = { IBTRACE_SIM_A_TRAFFIC_SIZE, "--size", 1,
		       IBTRACE_SIM_TRAFFIC_SIZE_MAX, "", " bytes", 256 },
	[TA_RATE]  = { IBTRACE_SIM_A_TRAFFIC_RATE, "--rate", 1,
		       IBTRACE_SIM_TRAFFIC_RATE_MAX, "", " packets/s, or max", 0 },
	[TA_COUNT] = { IBTRACE_SIM_A_TRAFFIC_COUNT, "--count", 1,
		       IBTRACE_SIM_TRAFFIC_COUNT_MAX, "", " packets", 1000 },
};

/* The latency figures of a TRAFFIC_END message, in this order. */
static const struct ibt_num_key tr_lats[] = {
	{ IBTRACE_SIM_A_TRAFFIC_LAT_MIN_NS,	"min" },
	{ IBTRACE_SIM_A_TRAFFIC_LAT_P50_NS,	"p50" },
	{ IBTRACE_SIM_A_TRAFFIC_LAT_P90_NS,	"p90" },
	{ IBTRACE_SIM_A_TRAFFIC_LAT_P99_NS,	"p99" },
	{ IBTRACE_SIM_A_TRAFFIC_LAT_MAX_NS,	"max" },
};

#define TR_NLATS	IBT_ARRAY_SIZE(tr_lats)

/* A TRAFFIC_END message: how a flow ended, and what it had asked. */
struct tr_end {
	uint32_t id;
	uint8_t why;			/* enum ibtrace_sim_traffic_end */
	bool has_node, has_vl, has_lat;
	uint32_t node;
	uint8_t vl;
	uint32_t val[TA_N];
	bool has[TA_N];
	uint64_t sent, delivered, dropped, time_ns;
	uint64_t lat[TR_NLATS];
};

struct flow {
	/* request */
	const char *node;
	uint32_t val[TA_N];
	bool has[TA_N];			/* in the request (not --rate max) */
	bool given[TA_N];		/* on the command line */

	/* the run */
	uint32_t id;			/* 0 until started */
	bool ended, stop_sent;
	struct tr_end end;
};

struct traffic {
	/* request */
	const char *word[1];		/* FABRIC */
	struct flow flow[IBTRACE_SIM_TRAFFIC_MAX];
	int nflows;
	uint32_t timeout_s;
	bool has_timeout, help;

	/* the run */
	int nstarted, nended;
	struct tr_end pend[IBTRACE_SIM_TRAFFIC_MAX];	/* ends before IDs */
	int npend;
	bool timed_out, interrupted;
};

/* A flow's request attributes, those its options gave. */
#define TR_FLOW(k)	offsetof(struct flow, val[k]), offsetof(struct flow, has[k])
static const struct ibt_req_opt tr_attrs[] = {
	{ IBTRACE_SIM_A_TRAFFIC_PORT,	IBT_REQ_U32, TR_FLOW(TA_PORT) },
	{ IBTRACE_SIM_A_TRAFFIC_DLID,	IBT_REQ_U32, TR_FLOW(TA_DLID) },
	{ IBTRACE_SIM_A_TRAFFIC_SL,	IBT_REQ_U8,  TR_FLOW(TA_SL) },
	{ IBTRACE_SIM_A_TRAFFIC_SIZE,	IBT_REQ_U32, TR_FLOW(TA_SIZE) },
	{ IBTRACE_SIM_A_TRAFFIC_RATE,	IBT_REQ_U32, TR_FLOW(TA_RATE) },
	{ IBTRACE_SIM_A_TRAFFIC_COUNT,	IBT_REQ_U32, TR_FLOW(TA_COUNT) },
};

static const struct ibt_num_opt tr_nums[] = {
	{ "timeout", OPT_TIMEOUT, "--timeout", 1, TR_TIMEOUT_MAX_S, "", " s",
	  offsetof(struct traffic, timeout_s),
	  offsetof(struct traffic, has_timeout) },
};

/* --from NODE: a node name, or an index if all digits. */
static int tr_node_ok(const char *s)
{
	size_t n = strlen(s);
	uint32_t index;

	if (!n || n > IBTRACE_SIM_NODE_NAME_MAX)
		return -1;
	if (strspn(s, "0123456789") == n)
		return ibt_parse_u32(s, 0, UINT32_MAX, &index);
	return 0;
}

/* --from: a new flow. */
static int tr_from(struct traffic *tr, const char *arg)
{
	if (tr->nflows == IBTRACE_SIM_TRAFFIC_MAX)
		return ibt_err(IBT_EXIT_USAGE,
			       "more than %d flows: at most %d run at once (IBTRACE_SIM_TRAFFIC_MAX)",
			       IBTRACE_SIM_TRAFFIC_MAX, IBTRACE_SIM_TRAFFIC_MAX);
	if (tr_node_ok(arg))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad --from \"%s\": expected a node name (1..%d characters) or index",
			       arg, IBTRACE_SIM_NODE_NAME_MAX);
	tr->flow[tr->nflows++].node = arg;
	return 0;
}

/* An option of the flow begun last (@k: TA_*): --port, --to, --sl, ... */
static int tr_ask_opt(struct traffic *tr, int k, const char *arg)
{
	const struct tr_ask *q = &tr_asks[k];
	struct flow *f;

	if (!tr->nflows)
		return ibt_err(IBT_EXIT_USAGE,
			       "%s before any --from: each flow is --from NODE, then its options",
			       q->opt);
	f = &tr->flow[tr->nflows - 1];
	if (f->given[k])
		return ibt_err(IBT_EXIT_USAGE,
			       "%s twice for flow %d (--from %s): a new flow needs its own --from",
			       q->opt, tr->nflows, f->node);
	f->given[k] = true;
	if (k == TA_RATE && !strcmp(arg, "max"))
		return 0;	/* the kernel's default */
	if (k == TA_DLID)
		return ibt_opt_ok(ibt_parse_lid(arg, &f->val[k]), &f->has[k],
				  "bad --to \"%s\": expected a unicast LID 1.." IBT_STR(IBTRACE_MAX_UNICAST_LID),
				  arg);
	return ibt_opt_range(q->opt, arg, q->min, q->max, q->what, q->unit,
			     &f->val[k], &f->has[k]);
}

static int tr_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct traffic *tr = a->priv;

	if (c == OPT_FROM)
		return tr_from(tr, arg);
	if (c >= OPT_ASK && c < OPT_ASK + TA_N)
		return tr_ask_opt(tr, c - OPT_ASK, arg);
	return IBT_OPT_UNKNOWN;
}

/* A flow's value @k: as the kernel said, else as asked, else the default. */
static uint32_t tr_val(const struct flow *f, int k)
{
	if (f->ended && f->end.has[k])
		return f->end.val[k];
	return f->has[k] ? f->val[k] : tr_asks[k].dflt;
}

/* The checks that need every option. */
static int tr_check(struct ibt *ctx, struct traffic *tr)
{
	int i;

	if (ibt_sim_name_ok(tr->word[0]))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad fabric name \"%s\": 1..%d characters out of A-Z a-z 0-9 _ . -",
			       tr->word[0], IBTRACE_SIM_NAME_MAX);
	if (ctx->port)
		return ibt_err(IBT_EXIT_USAGE,
			       "sim traffic takes no -p: a flow's HCA port is --port N after its --from");
	if (!tr->nflows)
		return ibt_err(IBT_EXIT_USAGE,
			       "sim traffic needs a flow, --from NODE --to LID; see ibtracectl sim traffic help");
	if (!tr->has_timeout)
		tr->timeout_s = TR_DEFAULT_TIMEOUT_S;
	for (i = 0; i < tr->nflows; i++) {
		const struct flow *f = &tr->flow[i];
		uint32_t rate = tr_val(f, TA_RATE), count = tr_val(f, TA_COUNT);

		if (!f->has[TA_DLID])
			return ibt_err(IBT_EXIT_USAGE,
				       "flow %d (--from %s) needs --to LID", i + 1,
				       f->node);
		if (!rate || (count - 1) / rate < tr->timeout_s)
			continue;
		fflush(stdout);
		fprintf(stderr,
			"Warning: flow %d takes %u s or more (%u packets at %u pkt/s), past --timeout %u s: it will be stopped\n",
			i + 1, (count - 1) / rate, count, rate, tr->timeout_s);
	}
	return 0;
}

static int tr_parse(struct ibt *ctx, struct traffic *tr)
{
	static const struct option opts[] = {
		{ "from",	required_argument,	NULL, OPT_FROM },
		{ "port",	required_argument,	NULL, OPT_ASK + TA_PORT },
		{ "to",		required_argument,	NULL, OPT_ASK + TA_DLID },
		{ "sl",		required_argument,	NULL, OPT_ASK + TA_SL },
		{ "size",	required_argument,	NULL, OPT_ASK + TA_SIZE },
		{ "rate",	required_argument,	NULL, OPT_ASK + TA_RATE },
		{ "count",	required_argument,	NULL, OPT_ASK + TA_COUNT },
		{ NULL,		0,			NULL, 0 },
	};
	/* getopt keeps the options in order: a flow's follow its --from */
	struct ibt_args a = {
		.obj = "sim", .cmd = "traffic", .opts = opts, .permute = true,
		.opt = tr_opt, .nums = tr_nums, .nnums = IBT_ARRAY_SIZE(tr_nums),
		.priv = tr, .help = &tr->help, .help_word = true,
		.words = { tr->word, 1, 1, "a FABRIC and a flow (--from NODE --to LID)" },
	};
	int ret = ibt_args_parse(ctx, &a);

	if (ret || tr->help)
		return ret;
	return tr_check(ctx, tr);
}

/* The TRAFFIC_START request of flow @f. */
static struct nl_msg *tr_request(struct ibt *ctx, const struct traffic *tr,
				 const struct flow *f)
{
	struct nl_msg *msg = ibt_sim_node_req(ctx, IBTRACE_SIM_CMD_TRAFFIC_START,
					      tr->word[0], f->node);

	if (!msg)
		return NULL;
	if (ibt_nl_put_opts(msg, tr_attrs, IBT_ARRAY_SIZE(tr_attrs), f) < 0) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* The started flow of ID @id, or NULL. */
static struct flow *tr_flow_of(struct traffic *tr, uint32_t id)
{
	int i;

	for (i = 0; i < tr->nflows; i++)
		if (tr->flow[i].id == id)
			return &tr->flow[i];
	return NULL;
}

/* End flow @f as @e says (once). */
static void tr_ended(struct traffic *tr, struct flow *f, const struct tr_end *e)
{
	if (f->ended)
		return;
	f->end = *e;
	f->ended = true;
	tr->nended++;
}

/*
 * A message of our flows: a TRAFFIC_END, kept with its flow, or until
 * the reply that names the flow's ID (it may come first).
 */
static int tr_notify(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[IBTRACE_SIM_A_MAX + 1];
	struct traffic *tr = arg;
	struct tr_end e = { 0 };
	struct flow *f;
	size_t i;
	int ret;

	if (!genlmsg_valid_hdr(nlh, 0) ||
	    ((struct genlmsghdr *)nlmsg_data(nlh))->cmd != IBTRACE_SIM_CMD_TRAFFIC_END)
		return 0;
	ret = ibt_nl_parse(ctx, nlh, tb);
	if (ret)
		return ret;
	if (!tb[IBTRACE_SIM_A_TRAFFIC_ID] || !tb[IBTRACE_SIM_A_TRAFFIC_END] ||
	    !tb[IBTRACE_SIM_A_TRAFFIC_SENT] ||
	    !tb[IBTRACE_SIM_A_TRAFFIC_DELIVERED] ||
	    !tb[IBTRACE_SIM_A_TRAFFIC_DROPPED] ||
	    !tb[IBTRACE_SIM_A_TRAFFIC_TIME_NS])
		return ibt_err(IBT_EXIT_ERR,
			       "malformed kernel message: the end of a flow without its counts");
	e.id = nla_get_u32(tb[IBTRACE_SIM_A_TRAFFIC_ID]);
	e.why = nla_get_u8(tb[IBTRACE_SIM_A_TRAFFIC_END]);
	e.sent = nla_get_u64(tb[IBTRACE_SIM_A_TRAFFIC_SENT]);
	e.delivered = nla_get_u64(tb[IBTRACE_SIM_A_TRAFFIC_DELIVERED]);
	e.dropped = nla_get_u64(tb[IBTRACE_SIM_A_TRAFFIC_DROPPED]);
	e.time_ns = nla_get_u64(tb[IBTRACE_SIM_A_TRAFFIC_TIME_NS]);
	if (tb[IBTRACE_SIM_A_NODE_INDEX]) {
		e.node = nla_get_u32(tb[IBTRACE_SIM_A_NODE_INDEX]);
		e.has_node = true;
	}
	if (tb[IBTRACE_SIM_A_TRAFFIC_VL]) {
		e.vl = nla_get_u8(tb[IBTRACE_SIM_A_TRAFFIC_VL]);
		e.has_vl = true;
	}
	for (i = 0; i < TA_N; i++) {
		if (!tb[tr_asks[i].attr])
			continue;
		e.val[i] = ibt_nla_uint(tb[tr_asks[i].attr]);
		e.has[i] = true;
	}
	/* all of them, or none: only a flow that delivered has latencies */
	e.has_lat = true;
	for (i = 0; i < TR_NLATS; i++) {
		if (tb[tr_lats[i].attr])
			e.lat[i] = nla_get_u64(tb[tr_lats[i].attr]);
		else
			e.has_lat = false;
	}
	f = e.id ? tr_flow_of(tr, e.id) : NULL;
	if (f)
		tr_ended(tr, f, &e);
	else if (tr->npend < (int)IBT_ARRAY_SIZE(tr->pend))
		tr->pend[tr->npend++] = e;
	return 0;
}

/* Flow @f is started as @id: its end may have come already. */
static void tr_started(struct traffic *tr, struct flow *f, uint32_t id)
{
	int i;

	f->id = id;
	tr->nstarted++;
	for (i = 0; i < tr->npend; i++) {
		if (tr->pend[i].id != id)
			continue;
		tr_ended(tr, f, &tr->pend[i]);
		tr->pend[i] = tr->pend[--tr->npend];
		return;
	}
}

/* A refused TRAFFIC_START of flow @i (@ret: -errno), printed. */
static int tr_refused(struct ibt *ctx, const struct traffic *tr, int i,
		      int ret)
{
	struct ibt_nlerr *e = &ctx->nlerr;
	char msg[IBT_ERRMSG_MAX + 32];

	/* EBUSY: the flows are all taken, or the fabric is being built */
	if (ret == -EBUSY && e->bad_attr != IBTRACE_SIM_A_FABRIC_NAME)
		return ibt_err(IBT_EXIT_BUSY,
			       "flow %d: %d traffic flows run already, the most at once in all fabrics (IBTRACE_SIM_TRAFFIC_MAX)",
			       i + 1, IBTRACE_SIM_TRAFFIC_MAX);
	/* which flow the kernel's sentence is about */
	if (tr->nflows > 1 && e->msg[0]) {
		snprintf(msg, sizeof(msg), "flow %d: %s", i + 1, e->msg);
		memcpy(e->msg, msg, sizeof(e->msg));
		e->msg[sizeof(e->msg) - 1] = '\0';
	}
	return ibt_nl_report(ctx, -ret);
}

/* Start every flow, in order. Returns an exit code, printed. */
static int tr_start(struct ibt *ctx, struct traffic *tr)
{
	int i, ret;

	for (i = 0; i < tr->nflows; i++) {
		uint32_t id = 0;
		struct ibt_reply_u32 r = { IBTRACE_SIM_A_TRAFFIC_ID, &id };
		struct nl_msg *msg = tr_request(ctx, tr, &tr->flow[i]);

		if (!msg)
			return IBT_EXIT_ERR;
		ret = ibt_nl_exchange(ctx, msg, ibt_nl_u32_cb, &r);
		if (ret < 0)
			return tr_refused(ctx, tr, i, ret);
		if (ret)
			return ret;
		if (!id)
			return ibt_err(IBT_EXIT_ERR,
				       "malformed kernel reply: flow %d started without its ID",
				       i + 1);
		tr_started(tr, &tr->flow[i], id);
	}
	return 0;
}

/* Stop every flow still running: their ends follow. */
static int tr_stop(struct ibt *ctx, struct traffic *tr)
{
	struct nl_msg *msg;
	int i, ret;

	for (i = 0; i < tr->nflows; i++) {
		struct flow *f = &tr->flow[i];

		if (!f->id || f->ended || f->stop_sent)
			continue;
		msg = ibt_nl_req_u32(ctx, IBTRACE_SIM_CMD_TRAFFIC_STOP, false,
				     IBTRACE_SIM_A_TRAFFIC_ID, f->id);
		if (!msg)
			return IBT_EXIT_ERR;
		f->stop_sent = true;
		ret = ibt_nl_exchange(ctx, msg, NULL, NULL);
		/* ENOENT: it ended meanwhile, its end is on its way */
		if (ret < 0 && ret != -ENOENT)
			return ibt_nl_report(ctx, -ret);
		if (ret > 0)
			return ret;
	}
	return 0;
}

/* Milliseconds since @t0. */
static int64_t tr_ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)(t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * Wait for the end of every flow, until --timeout (from @t0) or a
 * signal; then stop those still running and wait for their ends.
 */
static int tr_wait(struct ibt *ctx, struct traffic *tr,
		   const struct timespec *t0)
{
	struct timespec ts;
	int64_t left;
	int ret;

	while (tr->nended < tr->nstarted) {
		left = (int64_t)tr->timeout_s * 1000 - tr_ms_since(t0);
		if (left <= 0) {
			tr->timed_out = true;
			break;
		}
		ret = ibt_nl_wait_notify(ctx, left < TR_POLL_MS ? (int)left :
					 TR_POLL_MS);
		if (ret == IBT_EXIT_INTR) {
			tr->interrupted = true;
			break;
		}
		if (ret)
			return ret;
	}
	if (tr->nended == tr->nstarted)
		return 0;
	ibt_interrupted = 0;
	ret = tr_stop(ctx, tr);
	if (ret)
		return ret;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	while (tr->nended < tr->nstarted) {
		left = TR_STOP_WAIT_MS - tr_ms_since(&ts);
		if (left <= 0)
			return ibt_err(IBT_EXIT_ERR,
				       "no end came within %d s for %d of the flows stopped (messages lost?)",
				       TR_STOP_WAIT_MS / 1000,
				       tr->nstarted - tr->nended);
		ret = ibt_nl_wait_notify(ctx, left < TR_POLL_MS ? (int)left :
					 TR_POLL_MS);
		/* the same signal again: the stop is under way */
		if (ret == IBT_EXIT_INTR)
			ibt_interrupted = 0;
		else if (ret)
			return ret;
	}
	return 0;
}

static const char *tr_why_str(unsigned int why)
{
	switch (why) {
	case IBTRACE_SIM_TRAFFIC_END_DONE:
		return "done";
	case IBTRACE_SIM_TRAFFIC_END_STOPPED:
		return "stopped";
	case IBTRACE_SIM_TRAFFIC_END_FABRIC_GONE:
		return "fabric_gone";
	default:
		return "unknown";
	}
}

/* Packets of @e neither delivered nor dropped: still in the fabric. */
static uint64_t tr_in_flight(const struct tr_end *e)
{
	uint64_t out = e->delivered + e->dropped;

	return e->sent > out ? e->sent - out : 0;
}

/* A flow's first line: what it asked for (the kernel's defaults filled). */
static void tr_print_asked(struct ibt *ctx, const struct flow *f, int i)
{
	const struct tr_end *e = &f->end;
	uint32_t rate = tr_val(f, TA_RATE);
	char b[48];

	ibt_out_field(ctx, "id", json_object_new_uint64(f->id), "flow %d:",
		      i + 1);
	ibt_out_field(ctx, "node", json_object_new_string(f->node), " node %s",
		      f->node);
	if (e->has_node)
		ibt_out_json(ctx, "node_index", json_object_new_uint64(e->node));
	ibt_out_u64(ctx, "port", tr_val(f, TA_PORT));
	ibt_out_field(ctx, "dlid", json_object_new_uint64(tr_val(f, TA_DLID)),
		      " -> lid 0x%x", tr_val(f, TA_DLID));
	ibt_out_u64(ctx, "sl", tr_val(f, TA_SL));
	if (e->has_vl)
		ibt_out_u64(ctx, "vl", e->vl);
	else
		ibt_out_json(ctx, "vl", NULL);
	ibt_out_field(ctx, "size", json_object_new_uint64(tr_val(f, TA_SIZE)),
		      ", %u bytes", tr_val(f, TA_SIZE));
	if (rate)
		snprintf(b, sizeof(b), "%u pkt/s", rate);
	ibt_out_field(ctx, "rate", rate ? json_object_new_uint64(rate) : NULL,
		      ", rate %s", rate ? b : "max");
	ibt_out_field(ctx, "count", json_object_new_uint64(tr_val(f, TA_COUNT)),
		      ", count %u", tr_val(f, TA_COUNT));
	ibt_out_json(ctx, "end", json_object_new_string(tr_why_str(e->why)));
	ibt_out_eol(ctx);
}

/* Its counts, rate and time. */
static void tr_print_counts(struct ibt *ctx, const struct flow *f)
{
	const struct tr_end *e = &f->end;
	uint64_t bits = e->delivered * tr_val(f, TA_SIZE) * 8;
	char b[3][32];

	ibt_out_text(ctx, " ");
	ibt_out_u64(ctx, "sent", e->sent);
	ibt_out_u64(ctx, "delivered", e->delivered);
	ibt_out_u64(ctx, "dropped", e->dropped);
	if (e->dropped && e->sent)
		ibt_out_text(ctx, " (%s%%)",
			     ibt_pct_str(ibt_pct_x100(e->dropped > UINT32_MAX ?
						      UINT32_MAX : e->dropped,
						      e->sent > UINT32_MAX ?
						      UINT32_MAX : e->sent),
					 b[0], sizeof(b[0])));
	ibt_out_json(ctx, "in_flight", json_object_new_uint64(tr_in_flight(e)));
	ibt_out_field(ctx, "time_ns", json_object_new_uint64(e->time_ns),
		      " in %s s", ibt_ns_str(e->time_ns, 1000000000, b[0],
					     sizeof(b[0])));
	if (!e->time_ns) {
		ibt_out_json(ctx, "pps", NULL);
	} else {
		uint64_t pps = (e->delivered * 1000000000 + e->time_ns / 2) /
			       e->time_ns;

		/* bits / 1e6 / (ns / 1e9), Mbit/s */
		ibt_out_field(ctx, "pps", json_object_new_uint64(pps),
			      " (%" PRIu64 " pkt/s, %s Mbit/s payload)", pps,
			      ibt_dec1_str(bits * 1000, e->time_ns, b[1],
					   sizeof(b[1])));
	}
	ibt_out_eol(ctx);
}

/* The latencies of its delivered packets, in microseconds in text. */
static void tr_print_lat(struct ibt *ctx, const struct flow *f)
{
	const struct tr_end *e = &f->end;
	char b[32];
	size_t i;

	if (!e->has_lat) {
		ibt_out_json(ctx, "latency_ns", NULL);
		return;
	}
	ibt_out_obj_begin(ctx, "latency_ns");
	ibt_out_text(ctx, "  latency us:");
	for (i = 0; i < TR_NLATS; i++)
		ibt_out_field(ctx, tr_lats[i].key,
			      json_object_new_uint64(e->lat[i]), " %s %s",
			      tr_lats[i].key,
			      ibt_dec1_str(e->lat[i], 1000, b, sizeof(b)));
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
}

/* How it ended, if not done: a line of text. */
static void tr_print_why(struct ibt *ctx, const struct traffic *tr,
			 const struct flow *f)
{
	const struct tr_end *e = &f->end;
	uint64_t n = tr_in_flight(e);

	if (ctx->json || e->why == IBTRACE_SIM_TRAFFIC_END_DONE)
		return;
	if (e->why == IBTRACE_SIM_TRAFFIC_END_FABRIC_GONE)
		printf("  the fabric was deleted: %" PRIu64 " packets were in it\n",
		       n);
	else if (e->why != IBTRACE_SIM_TRAFFIC_END_STOPPED)
		printf("  ended for an unknown reason (%u)\n", e->why);
	else if (f->stop_sent && tr->timed_out)
		printf("  stopped after %u s (--timeout): %" PRIu64 " packets still in the fabric\n",
		       tr->timeout_s, n);
	else if (f->stop_sent)
		printf("  stopped by %s: %" PRIu64 " packets still in the fabric\n",
		       ibt_signal == SIGTERM ? "SIGTERM" : "SIGINT", n);
	else
		printf("  stopped from elsewhere: %" PRIu64 " packets still in the fabric\n",
		       n);
	fflush(stdout);
}

/* Every flow, in the order of the command line (JSON: the document). */
static void tr_print(struct ibt *ctx, const struct traffic *tr)
{
	int i;

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "fabric", json_object_new_string(tr->word[0]));
	ibt_out_arr_begin(ctx, "flows");
	for (i = 0; i < tr->nflows; i++) {
		const struct flow *f = &tr->flow[i];

		if (!f->ended)
			continue;
		ibt_out_obj_begin(ctx, NULL);
		tr_print_asked(ctx, f, i);
		tr_print_counts(ctx, f);
		tr_print_lat(ctx, f);
		tr_print_why(ctx, tr, f);
		ibt_out_obj_end(ctx);
	}
	ibt_out_arr_end(ctx);
	ibt_out_obj_end(ctx);
}

/* The exit code of the run, with its one line. */
static int tr_verdict(const struct traffic *tr)
{
	uint64_t sent = 0, lost = 0;	/* lost: sent, not delivered */
	int i, gone = 0, stopped = 0, elsewhere = 0;

	for (i = 0; i < tr->nflows; i++) {
		const struct tr_end *e = &tr->flow[i].end;

		if (e->why == IBTRACE_SIM_TRAFFIC_END_FABRIC_GONE)
			gone++;
		else if (e->why != IBTRACE_SIM_TRAFFIC_END_DONE &&
			 tr->flow[i].stop_sent)
			stopped++;
		else if (e->why != IBTRACE_SIM_TRAFFIC_END_DONE && !elsewhere)
			elsewhere = i + 1;
		sent += e->sent;
		lost += e->sent - (e->delivered < e->sent ? e->delivered :
							     e->sent);
	}
	if (tr->interrupted)
		return ibt_err(IBT_EXIT_CANCEL, "interrupted (%s): %d of %d flows stopped",
			       ibt_signal == SIGTERM ? "SIGTERM" : "SIGINT",
			       stopped, tr->nflows);
	if (tr->timed_out)
		return ibt_err(IBT_EXIT_TIMEOUT,
			       "%d of %d flows still ran after %u s (--timeout): stopped",
			       stopped, tr->nflows, tr->timeout_s);
	if (gone)
		return ibt_err(IBT_EXIT_NODEV,
			       "fabric %s was deleted while its traffic ran",
			       tr->word[0]);
	if (elsewhere)
		return ibt_err(IBT_EXIT_CANCEL,
			       "flow %d was stopped from elsewhere (TRAFFIC_STOP)",
			       elsewhere);
	if (lost)
		return ibt_err(IBT_EXIT_REMOTE,
			       "%" PRIu64 " of %" PRIu64 " packets sent were dropped on the way",
			       lost, sent);
	return IBT_EXIT_OK;
}

static int tr_run(struct ibt *ctx, struct traffic *tr)
{
	struct timespec t0;
	int ret;

	ret = ibt_nl_open_family(ctx, &ibt_sim_family);
	if (ret)
		return ret;
	ibt_signals_hold(true);
	ctx->notify = tr_notify;
	ctx->notify_arg = tr;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = tr_start(ctx, tr);
	if (!ret)
		ret = tr_wait(ctx, tr, &t0);
	ctx->notify = NULL;
	if (ret)
		return ret;
	tr_print(ctx, tr);
	ibt_out_finish(ctx);
	return tr_verdict(tr);
}

static void tr_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] sim traffic FABRIC --from NODE [--port N] --to LID\n"
	      "           [--sl SL] [--size BYTES] [--rate PPS|max] [--count N]\n"
	      "           [--from NODE ...]... [--timeout SEC]\n"
	      "Data traffic in fabric FABRIC: HCA NODE (index, or name) sends UD-shaped\n"
	      "packets out of its port to LID, through the fabric's forwarding, SLtoVL\n"
	      "tables, VLs and flow control, and the kernel counts and times them. Each\n"
	      "--from begins a flow, with the options that follow it; every flow starts,\n"
	      "then each one's counts, rate and latency are shown when all have ended.\n"
	      "  --from NODE      the HCA that sends: a new flow\n"
	      "  --port N         its port (1.." IBT_STR(IBTRACE_SIM_PORTS_MAX) ", default 1)\n"
	      "  --to LID         the destination LID (1.." IBT_STR(IBTRACE_MAX_UNICAST_LID) ")\n"
	      "  --sl SL          the packets' SL (0..15, default 0)\n"
	      "  --size BYTES     their payload (1.." IBT_STR(IBTRACE_SIM_TRAFFIC_SIZE_MAX) ", default 256)\n"
	      "  --rate PPS|max   packets/s (1.." IBT_STR(IBTRACE_SIM_TRAFFIC_RATE_MAX) "), or max (default): as fast\n"
	      "                   as the send queue of " IBT_STR(IBTRACE_SIM_TRAFFIC_WINDOW) " packets empties\n"
	      "  --count N        packets to send (1.." IBT_STR(IBTRACE_SIM_TRAFFIC_COUNT_MAX) ", default 1000)\n"
	      "  --timeout SEC    then stop the flows still running (whole run;\n"
	      "                   1.." IBT_STR(TR_TIMEOUT_MAX_S) ", default 60)\n"
	      "At most " IBT_STR(IBTRACE_SIM_TRAFFIC_MAX) " flows run at once, in all fabrics (else exit 14). Ctrl-C\n"
	      "stops the flows (exit 13). Exit 6: flows stopped at --timeout; 7: packets\n"
	      "were dropped; 4: the fabric was deleted. Needs CAP_NET_ADMIN.\n", f);
}

int ibt_sim_traffic(struct ibt *ctx)
{
	struct traffic tr = { 0 };
	int ret;

	ret = tr_parse(ctx, &tr);
	if (!ret && !ibt_usage_if(tr.help, tr_usage))
		ret = tr_run(ctx, &tr);
	return ret;
}
