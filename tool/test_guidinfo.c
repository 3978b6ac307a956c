// SPDX-License-Identifier: GPL-2.0-only
/*
 * The GUIDInfo test (the kernel's guidinfo.c, seed C14_024_05), as the
 * tool knows it: its options of "test run guidinfo" (how SMPs reach the
 * DUT, which port, how many blocks, timeout and retries) and their
 * request attributes. Its results are the framework's (an SMP test's DUT,
 * assertions and exchanges): test_out.c prints them.
 */
#include <stdio.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "test.h"

enum {
	OPT_DR,
	OPT_LID,
	OPT_DUT_PORT,
	OPT_BLOCKS,
	/* -t and -r: their letters, for ibt_opt_wait() */
};

static const struct ibt_test_opt guidinfo_opts[] = {
	{ "dr",		0,   true, OPT_DR },
	{ "lid",	0,   true, OPT_LID },
	{ "dut-port",	0,   true, OPT_DUT_PORT },
	{ "blocks",	0,   true, OPT_BLOCKS },
	{ "timeout",	't', true, 't' },
	{ "retries",	'r', true, 'r' },
	{ NULL },
};

struct guidinfo_args {
	uint8_t dr[IBTRACE_TRACE_MAX_HOPS];
	size_t ndr;
	uint32_t lid, dut_port, blocks;
	bool has_dr, has_lid, has_dut_port, has_blocks;
	struct ibt_wait wait;
};

static int guidinfo_opt(void *args, int id, const char *arg)
{
	struct guidinfo_args *t = args;

	switch (id) {
	case OPT_DR:
		return ibt_opt_ok(ibt_parse_dr_path(arg, t->dr, &t->ndr), &t->has_dr,
				  "bad --dr \"%s\": expected exit ports 1..255 separated by commas, at most %d",
				  arg, IBTRACE_TRACE_MAX_HOPS);
	case OPT_LID:
		return ibt_opt_ok(ibt_parse_lid(arg, &t->lid), &t->has_lid,
				  "bad --lid \"%s\": expected a LID 1.." IBT_STR(IBTRACE_MAX_UNICAST_LID), arg);
	case OPT_DUT_PORT:
		return ibt_opt_u32("--dut-port", arg, 0, 255, &t->dut_port,
				   &t->has_dut_port);
	case OPT_BLOCKS:
		return ibt_opt_u32("--blocks", arg, 1, IBTRACE_TEST_GUIDINFO_BLOCKS,
				   &t->blocks, &t->has_blocks);
	default: /* -t, -r */
		return ibt_opt_wait(id, arg, &t->wait);
	}
}

static int guidinfo_check(const void *args)
{
	const struct guidinfo_args *t = args;

	if (t->has_dr && t->has_lid)
		return ibt_err(IBT_EXIT_USAGE, "test run takes --dr or --lid, not both");
	return 0;
}

/* --dr starts at a local port: the default of -p */
static uint32_t guidinfo_local_port(const void *args)
{
	const struct guidinfo_args *t = args;

	return t->has_dr ? t->dr[0] : 0;
}

#define GUIDINFO_ARG(f)	offsetof(struct guidinfo_args, f)

/* The request's attributes of the options given, after --dr's path. */
static const struct ibt_req_opt guidinfo_req[] = {
	{ IBTRACE_A_TEST_LID, IBT_REQ_U32, GUIDINFO_ARG(lid), GUIDINFO_ARG(has_lid) },
	{ IBTRACE_A_TEST_DUT_PORT, IBT_REQ_U8, GUIDINFO_ARG(dut_port),
	  GUIDINFO_ARG(has_dut_port) },
	{ IBTRACE_A_TEST_BLOCKS, IBT_REQ_U32, GUIDINFO_ARG(blocks),
	  GUIDINFO_ARG(has_blocks) },
};

static int guidinfo_request(struct nl_msg *msg, const void *args)
{
	const struct guidinfo_args *t = args;

	if ((t->has_dr && nla_put(msg, IBTRACE_A_TEST_DR_PATH, t->ndr, t->dr) < 0) ||
	    ibt_nl_put_opts(msg, guidinfo_req, IBT_ARRAY_SIZE(guidinfo_req), t) ||
	    ibt_nl_put_wait(msg, &t->wait, IBTRACE_A_TEST_TIMEOUT_MS,
			    IBTRACE_A_TEST_RETRIES))
		return -1;
	return 0;
}

static void guidinfo_prefill(const void *args, struct result *r)
{
	const struct guidinfo_args *t = args;

	if (t->has_dr) {
		memcpy(r->dr, t->dr, t->ndr);
		r->ndr = t->ndr;
	}
	if (t->has_lid) {
		r->have[IBTRACE_A_TEST_LID] = true;
		r->val[IBTRACE_A_TEST_LID] = t->lid;
	}
	if (t->has_dut_port) {
		r->have[IBTRACE_A_TEST_DUT_PORT] = true;
		r->val[IBTRACE_A_TEST_DUT_PORT] = t->dut_port;
	}
}

const struct ibt_test_def test_guidinfo = {
	.name		= "guidinfo",
	.synopsis	=
"  test run guidinfo [--dr P1,P2,... | --lid LID] [--dut-port N] [--blocks N]\n"
"       [-t MS] [-r N] [-v] [--detach]\n",
	.usage		=
"       ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] test run guidinfo\n"
"                  [--dr P1,P2,... | --lid LID] [--dut-port N] [--blocks N]\n"
"                  [-t|--timeout MS] [-r|--retries N] [-v|--verbose] [--detach]\n",
	.help		=
"guidinfo: the DUT is the local port (-d, -p; without -d the first Active\n"
"InfiniBand port), the node at the end of directed route --dr (exit ports\n"
"from the local node outward, 1..255 each, at most 63; the first is the\n"
"local port), or the node of LID --lid. --dut-port N: the DUT port to test\n"
"(default: the port the SMPs arrive on; port 0 of a switch). --blocks N:\n"
"GUIDInfo blocks to exercise, 1..32 (default all). -t: wait per MAD\n"
"attempt, 1.." IBT_STR(IBTRACE_MAX_TIMEOUT_MS) " ms (default 1000); -r: extra attempts, 0.." IBT_STR(IBTRACE_MAX_RETRIES) "\n"
"(default 3).\n",
	.opts		= guidinfo_opts,
	.args_size	= sizeof(struct guidinfo_args),
	.opt		= guidinfo_opt,
	.check		= guidinfo_check,
	.local_port	= guidinfo_local_port,
	.local_port_opt	= "--dr",
	.request	= guidinfo_request,
	.prefill	= guidinfo_prefill,
	.sends_mads	= true,
};
