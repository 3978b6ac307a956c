// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden cases of agent.c: a port of agent show, and the metrics of
 * agent show --prom for two ports (one whose agent is not registered and
 * sent no counters).
 */
#include "../agent.c"
#include "golden.h"

static struct nl_msg *agent_port(const char *dev, uint32_t port, bool stats)
{
	struct nl_msg *m = golden_msg(IBTRACE_CMD_AGENT_GET);
	struct nlattr *nest;
	unsigned int k;

	nla_put_string(m, IBTRACE_A_DEV_NAME, dev);
	nla_put_u32(m, IBTRACE_A_PORT, port);
	nla_put_u8(m, IBTRACE_A_AGENT, stats);
	if (!stats)
		return m;
	nest = nla_nest_start(m, IBTRACE_A_AGENT_STATS);
	for (k = IBTRACE_STAT_RX; k <= IBTRACE_STAT_MAX; k++)
		nla_put_u64(m, k, 100 + k);
	nla_nest_end(m, nest);
	return m;
}

/* Both ports through agent show's callback, then the metrics. */
static int run_prom(struct ibt *ctx, void *arg)
{
	struct nl_msg **msgs = arg;
	struct agent_show as = { .prom = "-" };
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	struct ibt_prom p;
	int ret = 0, i;

	for (i = 0; i < 2 && !ret; i++) {
		ret = ibt_nl_parse(ctx, nlmsg_hdr(msgs[i]), tb);
		if (!ret) {
			ibt_out_obj_begin(ctx, NULL);
			ret = agent_show_port(ctx, tb, &as);
			ibt_out_obj_end(ctx);
			ibt_out_eol(ctx);
		}
	}
	if (!ret && !ctx->json) {
		ibt_prom_open_file(&p, stdout, NULL, 0);
		agent_prom_write(&p, &as);
		ret = ibt_prom_commit(&p);
	}
	free(as.rows);
	return ret;
}

void golden_agent(void)
{
	struct nl_msg *m[2] = {
		agent_port("mlx5_0", 1, true), agent_port("ibtsim\"1", 2, false),
	};

	golden_run("agent show --prom", run_prom, m);
	nlmsg_free(m[0]);
	nlmsg_free(m[1]);
}
