// SPDX-License-Identifier: GPL-2.0-only
/* The golden cases of capture.c: "sim capture" words and their request. */
#include "../capture.c"
#include "golden.h"

static int cap_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct cap cp = { 0 };
	int ret = cap_parse(ctx, &cp);

	if (ret || cp.help)
		return ret;
	printf("fabric %s node %s port %u count %u buffer %u file %s\n",
	       cp.word[0], cp.word[1], cp.port, cp.count, cp.buffer_kib,
	       cp.file ? cp.file : "-");
	*msg = cap_request(ctx, &cp);
	return *msg ? 0 : IBT_EXIT_ERR;
}

void golden_capture(void)
{
	static const char *const words[][8] = {
		{ "f0", "S1" },
		{ "f0", "3", "2", "-w", "/tmp/x.pcap", "-c", "10" },
		{ "f0", "HcaA", "-B", "64" },
		{ "f0", "S1", "0" },
		{ "f0" },
		{ "bad name", "S1" },
		{ "f0", "S1", "1", "-B", "2" },
		{ "f0", "S1", "1", "extra" },
		{ "help" },
	};

	golden_words_run("capture words", cap_req, NULL, words[0],
			 IBT_ARRAY_SIZE(words[0]), IBT_ARRAY_SIZE(words));
}
