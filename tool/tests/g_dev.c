// SPDX-License-Identifier: GPL-2.0-only
/* The golden cases of dev.c: a port of dev show. */
#include "../dev.c"
#include "golden.h"

static int run_port(struct ibt *ctx, void *arg)
{
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	int ret = ibt_nl_parse(ctx, nlmsg_hdr(arg), tb);

	if (ret)
		return ret;
	ibt_out_obj_begin(ctx, NULL);
	ret = dev_show_port(ctx, tb, NULL);
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
	return ret;
}

static struct nl_msg *port(int ll, bool all)
{
	static const uint8_t gid[16] = { 0xfe, 0x80, [15] = 1 };
	struct nl_msg *m = golden_msg(IBTRACE_CMD_DEV_GET);

	if (ll < 0)
		return m;
	nla_put_u32(m, IBTRACE_A_DEV_INDEX, 3);
	nla_put_u8(m, IBTRACE_A_LINK_LAYER, ll);
	nla_put_u8(m, IBTRACE_A_PORT_STATE, IBTRACE_PORT_STATE_ACTIVE);
	nla_put_u32(m, IBTRACE_A_LID, 0x12);
	nla_put_u8(m, IBTRACE_A_LMC, 2);
	nla_put_u32(m, IBTRACE_A_SM_LID, 1);
	if (!all)
		return m;
	nla_put(m, IBTRACE_A_GID, 16, gid);
	nla_put_u64(m, IBTRACE_A_PORT_GUID, 0x5054fffe1b0001ull);
	nla_put_u8(m, IBTRACE_A_AGENT, 1);
	return m;
}

void golden_dev(void)
{
	static const struct {
		const char *name;
		int ll;		/* -1: an empty reply */
		bool all;
	} cases[] = {
		{ "dev port ib",	IBTRACE_LINK_LAYER_IB,		true },
		{ "dev port eth",	IBTRACE_LINK_LAYER_ETH,		true },
		{ "dev port bare",	IBTRACE_LINK_LAYER_UNSPEC,	false },
		{ "dev port empty",	-1,				false },
	};
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(cases); i++) {
		struct nl_msg *m = port(cases[i].ll, cases[i].all);

		golden_run(cases[i].name, run_port, m);
		nlmsg_free(m);
	}
}
