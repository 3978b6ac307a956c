// SPDX-License-Identifier: GPL-2.0-only
/* The golden cases of ping.c: its words, and the request they make. */
#include "../ping.c"
#include "golden.h"

static int ping_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct ping p = { 0 };
	int ret = ping_parse(ctx, &p);

	if (ret || p.help)
		return ret;
	printf("target %s port %u\n", p.target, p.port);
	*msg = ping_request(ctx, &p);
	return *msg ? 0 : IBT_EXIT_ERR;
}

void golden_ping(void)
{
	static const char *const words[][16] = {
		{ "--dgid", "fe80::1", "--dlid", "0x12", "-c", "3", "-i", "10",
		  "-t", "200", "-r", "2", "--source-route", "1,2" },
		{ "--dlid", "7", "--timeout", "5" },
		{ "--dgid", "fe80::2", "--retries", "0" },
		{ "--dlid", "7", "-t", "0" },
		{ "--dlid", "7", "-r", "9" },
		{ "--dlid", "7", "-t" },
		{ "--dlid", "0" },
		{ "--dgid", "x" },
		{ "-c", "1" },
		{ "--dlid", "7", "--source-route", "1,,2" },
		{ "--dlid", "7", "--bogus" },
		{ "--dlid", "7", "extra" },
		{ "-h" },
	};

	golden_words_run("ping words", ping_req, "rxe0", words[0],
			 IBT_ARRAY_SIZE(words[0]), IBT_ARRAY_SIZE(words));
}
