// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden cases of traffic.c: "sim traffic" words and their requests,
 * then the ends of flows (TRAFFIC_END messages) as printed, and the exit
 * code of the run.
 */
#include "../traffic.c"
#include "golden.h"

static int tr_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct traffic tr = { 0 };
	int ret = tr_parse(ctx, &tr);
	int i, k;

	if (ret || tr.help)
		return ret;
	printf("fabric %s timeout %u flows %d\n", tr.word[0], tr.timeout_s,
	       tr.nflows);
	for (i = 0; i < tr.nflows; i++) {
		printf("flow %d node %s", i + 1, tr.flow[i].node);
		for (k = 0; k < TA_N; k++)
			if (tr.flow[i].has[k])
				printf(" %s %u", tr_asks[k].opt, tr.flow[i].val[k]);
		printf("\n");
		*msg = tr_request(ctx, &tr, &tr.flow[i]);
		if (!*msg)
			return IBT_EXIT_ERR;
		if (i == tr.nflows - 1)
			break;	/* golden_words_run() prints the last */
		golden_hex(*msg);
		nlmsg_free(*msg);
		*msg = NULL;
	}
	return 0;
}

/* A flow of a case: as asked, then its end (@why < 0: none). */
struct g_flow {
	const char *node;
	uint32_t port, count, rate;	/* 0: not asked */
	int why;
	uint64_t sent, delivered, dropped, time_ns;
	int vl;				/* < 0: none */
	bool lat, early, stop_sent, no_counts;
};

struct g_case {
	bool timed_out, interrupted;
	struct g_flow f[3];
};

/* The TRAFFIC_END message of flow @g, ID @id. */
static struct nl_msg *g_end(const struct g_flow *g, uint32_t id)
{
	struct nl_msg *m = golden_msg(IBTRACE_SIM_CMD_TRAFFIC_END);
	const struct golden_attr head[] = {
		{ IBTRACE_SIM_A_TRAFFIC_ID, 4, id, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_END, 1, g->why, NULL },
		{ IBTRACE_SIM_A_NODE_INDEX, 4, 3, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_PORT, 4, g->port ? g->port : 1, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_DLID, 4, 5, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_SL, 1, 2, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_SIZE, 4, 256, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_RATE, 4, g->rate, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_COUNT, 4, g->count ? g->count : 1000,
		  NULL },
	};
	const struct golden_attr counts[] = {
		{ IBTRACE_SIM_A_TRAFFIC_SENT, 8, g->sent, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_DELIVERED, 8, g->delivered, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_DROPPED, 8, g->dropped, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_TIME_NS, 8, g->time_ns, NULL },
	};
	const struct golden_attr lat[] = {
		{ IBTRACE_SIM_A_TRAFFIC_LAT_MIN_NS, 8, 12345, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_LAT_P50_NS, 8, 20100, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_LAT_P90_NS, 8, 30200, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_LAT_P99_NS, 8, 45000, NULL },
		{ IBTRACE_SIM_A_TRAFFIC_LAT_MAX_NS, 8, 60149, NULL },
	};

	golden_put(m, head, IBT_ARRAY_SIZE(head));
	if (g->vl >= 0)
		nla_put_u8(m, IBTRACE_SIM_A_TRAFFIC_VL, g->vl);
	if (!g->no_counts)
		golden_put(m, counts, IBT_ARRAY_SIZE(counts));
	if (g->lat)
		golden_put(m, lat, IBT_ARRAY_SIZE(lat));
	return m;
}

/* Flow @i of @tr (as @g) ends: before its start's reply if @g->early. */
static int g_flow_end(struct ibt *ctx, struct traffic *tr, int i,
		      const struct g_flow *g)
{
	struct flow *f = &tr->flow[i];
	uint32_t id = 40 + i;
	struct nl_msg *m = g_end(g, id);
	int ret = 0;

	f->node = g->node;
	if (g->rate)
		f->val[TA_RATE] = g->rate, f->has[TA_RATE] = true;
	if (!g->early)
		tr_started(tr, f, id);
	if (g->why >= 0)
		ret = tr_notify(ctx, nlmsg_hdr(m), tr);
	if (g->early)
		tr_started(tr, f, id);
	f->stop_sent = g->stop_sent;
	nlmsg_free(m);
	return ret;
}

static int run_ends(struct ibt *ctx, void *arg)
{
	const struct g_case *c = arg;
	struct traffic tr = { 0 };
	int i, ret;

	ctx->fam = &ibt_sim_family;
	tr.word[0] = "f0";
	tr.timeout_s = 60;
	tr.timed_out = c->timed_out;
	tr.interrupted = c->interrupted;
	for (i = 0; i < 3 && c->f[i].node; i++) {
		tr.nflows++;
		ret = g_flow_end(ctx, &tr, i, &c->f[i]);
		if (ret)
			return ret;
	}
	printf("started %d ended %d pending %d\n", tr.nstarted, tr.nended,
	       tr.npend);
	tr_print(ctx, &tr);
	return tr_verdict(&tr);
}

/* A refused TRAFFIC_START: what the kernel said (ctx->nlerr). */
struct g_refusal {
	int err;
	int bad_attr;
	const char *msg;
	int flows, flow;
};

static int run_refused(struct ibt *ctx, void *arg)
{
	const struct g_refusal *c = arg;
	struct traffic tr = { .nflows = c->flows };

	ctx->fam = &ibt_sim_family;
	memset(&ctx->nlerr, 0, sizeof(ctx->nlerr));
	ctx->nlerr.err = c->err;
	ctx->nlerr.bad_attr = c->bad_attr;
	ctx->nlerr.miss_type = -1;
	snprintf(ctx->nlerr.msg, sizeof(ctx->nlerr.msg), "%s", c->msg);
	return tr_refused(ctx, &tr, c->flow, -c->err);
}

void golden_traffic(void)
{
	static const struct g_refusal refused[] = {
		{ EBUSY, -1, "", 2, 1 },
		{ EBUSY, IBTRACE_SIM_A_FABRIC_NAME, "the fabric is being built",
		  2, 0 },
		{ EINVAL, IBTRACE_SIM_A_TRAFFIC_PORT, "no such port", 2, 1 },
		{ ENOENT, IBTRACE_SIM_A_NODE_NAME, "no such node", 1, 0 },
		{ EPERM, -1, "", 1, 0 },
	};
	static const char *const words[][24] = {
		{ "f0", "--from", "H1", "--to", "5" },
		{ "--from", "3", "--port", "2", "--to", "0x10", "--sl", "1",
		  "--size", "4096", "--rate", "1000", "--count", "10", "f0",
		  "--from", "H2", "--to", "7", "--rate", "max", "--timeout",
		  "5" },
		{ "f0", "--to", "5", "--from", "H1" },
		{ "f0" },
		{ "f0", "--from", "H1" },
		{ "f0", "--from", "H1", "--to", "0" },
		{ "f0", "--from", "H1", "--to", "5", "--size", "4097" },
		{ "f0", "--from", "H1", "--to", "5", "--rate", "0" },
		{ "f0", "--from", "H1", "--to", "5", "--sl", "16" },
		{ "f0", "--from", "H1", "--to", "5", "--count", "0" },
		{ "f0", "--from", "H1", "--to", "5", "--to", "6" },
		{ "f0", "--from", "", "--to", "5" },
		{ "f0", "--from", "H1", "--to", "5", "--count", "100",
		  "--rate", "1" },
		{ "bad name", "--from", "H1", "--to", "5" },
		{ "f0", "--from", "H1", "--to", "5", "--timeout", "0" },
		{ "help" },
	};
	/* one flow more than the kernel runs at once */
	static const char *const many[] = {
		"f0", "--from=1", "--to=1", "--from=2", "--to=1", "--from=3",
		"--to=1", "--from=4", "--to=1", "--from=5", "--to=1",
		"--from=6", "--to=1", "--from=7", "--to=1", "--from=8",
		"--to=1", "--from=9", "--to=1", "--from=10", "--to=1",
		"--from=11", "--to=1", "--from=12", "--to=1", "--from=13",
		"--to=1", "--from=14", "--to=1", "--from=15", "--to=1",
		"--from=16", "--to=1", "--from=17", "--to=1", NULL,
	};
	static const struct g_case ends[] = {
		/* every packet delivered */
		{ .f = { { "H1", .why = IBTRACE_SIM_TRAFFIC_END_DONE,
			   .sent = 1000, .delivered = 1000,
			   .time_ns = 123000000, .vl = 0, .lat = true } } },
		/* drops; nothing delivered, its end before its ID */
		{ .f = { { "H1", .rate = 1000, .count = 2000,
			   .why = IBTRACE_SIM_TRAFFIC_END_DONE, .sent = 2000,
			   .delivered = 1990, .dropped = 10,
			   .time_ns = 2000000000, .vl = 1, .lat = true },
			 { "7", .port = 2, .why = IBTRACE_SIM_TRAFFIC_END_DONE,
			   .sent = 1000, .dropped = 1000, .time_ns = 5000000,
			   .vl = 0, .early = true } } },
		/* stopped at the timeout */
		{ .timed_out = true,
		  .f = { { "H1", .why = IBTRACE_SIM_TRAFFIC_END_DONE,
			   .sent = 1000, .delivered = 1000, .time_ns = 1000,
			   .vl = 0, .lat = true },
			 { "H2", .rate = 10, .why = IBTRACE_SIM_TRAFFIC_END_STOPPED,
			   .sent = 600, .delivered = 590, .time_ns = 60000000000,
			   .vl = 0, .lat = true, .stop_sent = true } } },
		/* the fabric deleted; nothing sent */
		{ .f = { { "H1", .why = IBTRACE_SIM_TRAFFIC_END_FABRIC_GONE,
			   .sent = 64, .delivered = 10, .time_ns = 1000000,
			   .vl = 0, .lat = true },
			 { "H2", .why = IBTRACE_SIM_TRAFFIC_END_FABRIC_GONE,
			   .vl = -1 } } },
		/* Ctrl-C */
		{ .interrupted = true,
		  .f = { { "H1", .why = IBTRACE_SIM_TRAFFIC_END_STOPPED,
			   .sent = 64, .time_ns = 1000000, .vl = 0,
			   .stop_sent = true } } },
		/* stopped by another */
		{ .f = { { "H1", .why = IBTRACE_SIM_TRAFFIC_END_STOPPED,
			   .sent = 64, .delivered = 64, .time_ns = 1000000,
			   .vl = 0, .lat = true } } },
		/* an end without its counts */
		{ .f = { { "H1", .why = IBTRACE_SIM_TRAFFIC_END_DONE,
			   .vl = 0, .no_counts = true } } },
	};
	char name[32];
	size_t i;

	golden_words_run("traffic words", tr_req, NULL, words[0],
			 IBT_ARRAY_SIZE(words[0]), IBT_ARRAY_SIZE(words));
	golden_words_run("traffic words many", tr_req, NULL, many,
			 IBT_ARRAY_SIZE(many), 1);
	for (i = 0; i < IBT_ARRAY_SIZE(refused); i++) {
		snprintf(name, sizeof(name), "traffic refused %zu", i);
		golden_run(name, run_refused, (void *)&refused[i]);
	}
	for (i = 0; i < IBT_ARRAY_SIZE(ends); i++) {
		snprintf(name, sizeof(name), "traffic ends %zu", i);
		golden_run(name, run_ends, (void *)&ends[i]);
	}
}
