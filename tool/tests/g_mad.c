// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden cases of mad.c: "mad send" words and the request they make,
 * and an answer printed.
 */
#include "../mad.c"
#include "golden.h"

static int mad_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct mad m = { 0 };
	int ret = mad_parse(ctx, &m);

	if (ret || m.help)
		return ret;
	printf("target %s port %u class 0x%02x method 0x%02x attr 0x%04x\n",
	       m.target, m.port, m.r.mgmt_class, m.r.method, m.r.attr_id);
	*msg = mad_request(ctx, &m);
	return *msg ? 0 : IBT_EXIT_ERR;
}

/* An answer: ClassPortInfo of the class 0x30 agent, by LID. */
static int mad_answer_print(struct ibt *ctx, void *arg)
{
	struct mad m = { .r.mgmt_class = 0x30, .port = 1 };
	struct nl_msg *msg = arg;
	struct nlattr *nest;

	snprintf(m.target, sizeof(m.target), "lid 0x2");
	nest = nlmsg_find_attr(nlmsg_hdr(msg), GENL_HDRLEN,
			       IBTRACE_A_MAD_ANSWER);
	ctx->dev = "ibtsim0";
	return nest ? mad_answer(ctx, &m, nest) : IBT_EXIT_ERR;
}

void golden_mad(void)
{
	static const char *const words[][16] = {
		{ "--dr", "1,2", "--attr", "NodeInfo" },
		{ "--class", "lid", "--dlid", "0x12", "--attr", "PortInfo",
		  "--attr-mod", "1", "-c", "3", "-t", "200", "-r", "0" },
		{ "--class", "ibtrace", "--dlid", "2", "--attr",
		  "SourceRoute", "--data", "00 01 01" },
		{ "--class", "sa", "--dlid", "1", "--attr", "PathRecord",
		  "--method", "gettable", "--comp-mask", "0xc" },
		{ "--class", "pma", "--dlid", "1", "--method", "set",
		  "--attr", "PortCounters" },
		{ "--class", "pma", "--dlid", "1", "--method", "set",
		  "--attr", "PortCounters", "--allow-set", "--no-wait" },
		{ "--class", "bogus", "--dr", "1" },
		{ "--class", "ibtrace", "--attr", "ClassPortInfo" },
		{ "--dr", "1", "--data", "zz" },
		{ "--dr", "1", "--attr", "NoSuchAttr" },
		{ "--dr", "1", "--sl", "16" },
		{ "--dr", "1", "--mkey", "0x1ffffffffffffffff" },
		{ "-h" },
	};
	static const uint8_t cpi[256] = {
		1, 0x30, 1, 0x81, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 7,
		0, 1, 0, 0, 0, 0, 0, 0,
		[37] = 0x00, [38] = 0x14, [39] = 0x05,
		[40] = 1, [41] = 1, [42] = 0, [43] = 0x20,
	};
	const struct golden_attr a[] = {
		{ IBTRACE_A_MAD_ANSWER, GOLDEN_NEST, 0, NULL },
		{ IBTRACE_PROBE_A_SEQ, 4, 1, NULL },
		{ IBTRACE_PROBE_A_STATUS, 1, IBTRACE_PROBE_OK, NULL },
		{ IBTRACE_PROBE_A_ATTEMPTS, 4, 1, NULL },
		{ IBTRACE_PROBE_A_TID, 8, 0x500000007ULL, NULL },
		{ IBTRACE_PROBE_A_MAD_STATUS, 2, 0, NULL },
		{ IBTRACE_PROBE_A_RTT_NS, 8, 123456, NULL },
		{ IBTRACE_PROBE_A_SLID, 4, 2, NULL },
		{ IBTRACE_PROBE_A_MAD, GOLDEN_BYTES, sizeof(cpi),
		  (const char *)cpi },
		{ 0, GOLDEN_END, 0, NULL },
	};
	struct nl_msg *msg = golden_msg(IBTRACE_CMD_MAD_ANSWER);

	golden_words_run("mad words", mad_req, "ibtsim0", words[0],
			 IBT_ARRAY_SIZE(words[0]), IBT_ARRAY_SIZE(words));
	golden_put(msg, a, IBT_ARRAY_SIZE(a));
	golden_run("mad answer", mad_answer_print, msg);
	nlmsg_free(msg);
}
