// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_AGENT_GET: each port's class 0x30 agent and its
 * counters. Same request attributes as IBTRACE_CMD_DEV_GET.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "netlink.h"

static int ibtrace_put_stat(struct sk_buff *skb, int type,
			    const atomic64_t *v)
{
	return nla_put_u64_64bit(skb, type, atomic64_read(v), IBTRACE_STAT_PAD);
}

static int ibtrace_agent_stats_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_agent_stats *st = data;

	return ibtrace_put_stat(skb, IBTRACE_STAT_RX, &st->rx) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_ANSWERED, &st->answered) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_MISMATCH, &st->mismatch) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_MALFORMED, &st->malformed) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_UNSUPPORTED, &st->unsupported) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_SUCCESS, &st->success) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_UNSUPPORTED_METHOD,
				&st->unsupported_method) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_UNSUPPORTED_ATTR,
				&st->unsupported_attr) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_TX_ERROR, &st->tx_error) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_STRAY, &st->stray) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_INVALID_ANSWER,
				&st->invalid_answer) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_AH_MADE, &st->ah_made) ||
	       ibtrace_put_stat(skb, IBTRACE_STAT_AH_REUSED, &st->ah_reused);
}

static int ibtrace_agent_fill(struct sk_buff *skb, struct ibtrace_port *port)
{
	if (nla_put_u8(skb, IBTRACE_A_AGENT, !!port->agent))
		return -EMSGSIZE;
	return ibtrace_nl_put_nest(skb, IBTRACE_A_AGENT_STATS,
				   ibtrace_agent_stats_attrs, &port->stats);
}

int ibtrace_nl_agent_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtrace_nl_reply_port(info, IBTRACE_CMD_AGENT_GET,
				     ibtrace_agent_fill);
}

int ibtrace_nl_agent_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	return ibtrace_nl_dump_ports(skb, cb, IBTRACE_CMD_AGENT_GET,
				     ibtrace_agent_fill);
}
