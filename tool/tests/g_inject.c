// SPDX-License-Identifier: GPL-2.0-only
/* The golden cases of inject.c: "sim inject" words and their request. */
#include "../inject.c"
#include "golden.h"

static int inj_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct inject in = { 0 };
	int ret = inj_parse(ctx, &in);

	if (ret || in.help)
		return ret;
	/* the TID's random half (both, without --tid): the same every run */
	if (in.pkt == in.mad)
		memset(in.mad + 8, 0, in.r.has_tid ? 4 : 8);
	printf("fabric %s node %s port %u dlid 0x%x len %zu wait %u%s\n",
	       in.word[0], in.word[1], in.port, in.dlid, in.pkt_len,
	       in.wait_ms, in.no_wait ? " no-wait" : "");
	*msg = inj_request(ctx, &in);
	return *msg ? 0 : IBT_EXIT_ERR;
}

void golden_inject(void)
{
	static const char *const words[][14] = {
		{ "f0", "S2", "2", "--class", "ibtrace", "--attr",
		  "ClassPortInfo", "--dlid", "4", "--tid", "7" },
		{ "f0", "A", "1", "--slid", "0x77", "--sqp", "5", "--class",
		  "lid", "--dlid", "4", "--attr", "NodeInfo" },
		{ "f0", "A", "1", "--class", "dr", "--dr", "1,2", "--hop-ptr",
		  "1", "--vl", "0", "--no-wait" },
		{ "f0", "0", "1", "--payload", "01 30 01 01", "--dlid", "4",
		  "--no-wait", "--dgid", "fe80::1", "--pkey", "0x7fff" },
		{ "f0", "A", "1", "--payload", "0102", "--dlid", "4" },
		{ "f0", "A", "1", "--class", "ibtrace", "--payload", "01",
		  "--dlid", "4" },
		{ "f0", "A", "1", "--class", "lid", "--attr", "NodeInfo" },
		{ "f0", "A", "1", "--class", "sa", "--method", "set",
		  "--dlid", "1" },
		{ "f0", "A", "1", "--class", "ibtrace", "--dlid", "4", "-t",
		  "100", "--no-wait" },
		{ "f0", "A", "--class", "ibtrace", "--dlid", "4" },
		{ "f0", "A", "0", "--class", "ibtrace", "--dlid", "4" },
		{ "f0", "A", "1", "--class", "ibtrace", "--vl", "16",
		  "--dlid", "4" },
		{ "help" },
	};

	golden_words_run("inject words", inj_req, NULL, words[0],
			 IBT_ARRAY_SIZE(words[0]), IBT_ARRAY_SIZE(words));
}
