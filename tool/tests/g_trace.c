// SPDX-License-Identifier: GPL-2.0-only
/* The golden cases of trace.c: the failure sentence of every end. */
#include "../trace.c"
#include "golden.h"

struct verdict_case {
	struct trace *t;
	bool interrupted;
};

static int run_verdict(struct ibt *ctx, void *arg)
{
	const struct verdict_case *c = arg;
	char msg[512];
	int ret = trace_verdict(c->t, c->interrupted, msg, sizeof(msg));

	(void)ctx;
	printf("%s\n", msg);
	return ret;
}

static int trace_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct trace t = { 0 };
	int ret = trace_parse(ctx, &t);

	if (!ret && !t.help)
		ret = trace_pick_port(ctx, &t);
	if (ret || t.help)
		return ret;
	printf("target %s dev %s port %u\n", t.target, t.dev, t.port);
	*msg = trace_request(ctx, &t);
	return *msg ? 0 : IBT_EXIT_ERR;
}

static void golden_trace_words(void)
{
	static const char *const words[][12] = {
		{ "--dlid", "0x12", "--mlid", "0xc001", "-t", "200", "-r", "2", "-v" },
		{ "--dgid", "fe80::1", "--timeout", "5", "--retries", "0" },
		{ "--dlid", "7", "-t", "0" },
		{ "--dlid", "7", "-r", "9" },
		{ "--dlid", "7", "--mlid", "0xbfff" },
		{ "--dlid", "7", "--dgid", "fe80::1" },
		{ "-v" },
		{ "--dlid", "7", "-x" },
		{ "help" },
	};

	golden_words_run("trace words", trace_req, "ibtsim0", words[0],
			 IBT_ARRAY_SIZE(words[0]), IBT_ARRAY_SIZE(words));
}

void golden_trace(void)
{
	static struct trace t = {
		.dev = "ibtsim0", .port = 1, .mlid = 0xc001,
		.target = "lid 7", .nhops = 1, .got_result = true,
	};
	struct verdict_case c = { &t, false };
	struct ibt_hop *h = &t.hops[0];
	char name[64];
	uint64_t st;
	int with_hop;

	h->have[IBTRACE_HOP_A_INDEX] = true;
	h->val[IBTRACE_HOP_A_INDEX] = 2;
	h->have[IBTRACE_HOP_A_NODE_TYPE] = true;
	h->val[IBTRACE_HOP_A_NODE_TYPE] = IBTRACE_NODE_SWITCH;
	snprintf(h->desc, sizeof(h->desc), "S1");
	t.val[IBTRACE_A_TRACE_FDB_TOP] = 0x40;
	t.val[IBTRACE_A_TRACE_FAIL_PORT] = 9;
	t.val[IBTRACE_A_TRACE_MAD_STATUS] = 0x1c;
	for (with_hop = 0; with_hop < 3; with_hop++) {
		/* no such hop; the hop, without and with its GUID */
		t.val[IBTRACE_A_TRACE_FAIL_HOP] = with_hop ? 2 : 5;
		h->have[IBTRACE_HOP_A_NODE_GUID] = with_hop == 2;
		h->val[IBTRACE_HOP_A_NODE_GUID] = 0x14050000000300ull;
		for (st = 0; st <= IBTRACE_TRACE_NOT_IN_TREE + 1; st++) {
			t.val[IBTRACE_A_TRACE_STATUS] = st;
			snprintf(name, sizeof(name), "trace verdict %d %" PRIu64,
				 with_hop, st);
			golden_run(name, run_verdict, &c);
		}
	}
	c.interrupted = true;
	golden_run("trace verdict interrupted", run_verdict, &c);
	golden_trace_words();
}
