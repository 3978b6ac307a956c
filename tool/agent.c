// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent object: the class 0x30 agent of each port and its counters
 * (IBTRACE_CMD_AGENT_GET, nest IBTRACE_A_AGENT_STATS).
 *
 *   ibtracectl [-j] [-d DEV [-p PORT]] agent [show]
 *
 * Ports are selected as for "dev show".
 *
 * Text, one line per port:
 *   rxe0/1 registered yes rx 12 answered 12 mismatch 1 malformed 0
 *   unsupported 2 success 9 unsupported_method 1 unsupported_attr 1
 *   tx_error 0 stray 0
 * (one line).
 *
 * JSON: an array with one object per port. Keys (each one only if the
 * kernel sent the attribute):
 *   dev          string  device name
 *   port         number  port number
 *   registered   bool    the agent is registered on the port
 *   rx           number  class 0x30 requests received
 *   answered     number  responses sent (any status)
 *   mismatch     number  SourceRoute probes that arrived on another port
 *   malformed    number  requests rejected as malformed
 *   unsupported  number  requests answered "unsupported method(/attribute)"
 *   success      number  requests answered with status 0
 *   unsupported_method  number  answered 0x0008
 *   unsupported_attr    number  answered 0x000C
 *   tx_error     number  requests left unanswered: the answer could not be
 *                        sent
 *   stray        number  responses matching no request of ours, dropped
 *
 * rx = answered + tx_error; answered = success + mismatch + malformed +
 * unsupported; unsupported = unsupported_method + unsupported_attr.
 */
#include <stdio.h>

#include <netlink/attr.h>

#include "ibtracectl.h"

static const struct ibt_num_key agent_stats[] = {
	{ IBTRACE_STAT_RX,			"rx" },
	{ IBTRACE_STAT_ANSWERED,		"answered" },
	{ IBTRACE_STAT_MISMATCH,		"mismatch" },
	{ IBTRACE_STAT_MALFORMED,		"malformed" },
	{ IBTRACE_STAT_UNSUPPORTED,		"unsupported" },
	{ IBTRACE_STAT_SUCCESS,			"success" },
	{ IBTRACE_STAT_UNSUPPORTED_METHOD,	"unsupported_method" },
	{ IBTRACE_STAT_UNSUPPORTED_ATTR,	"unsupported_attr" },
	{ IBTRACE_STAT_TX_ERROR,		"tx_error" },
	{ IBTRACE_STAT_STRAY,			"stray" },
};

static int agent_show_port(struct ibt *ctx, struct nlattr **tb)
{
	struct nlattr *st[IBTRACE_STAT_MAX + 1];
	int ret;

	if (tb[IBTRACE_A_AGENT])
		ibt_out_bool(ctx, "registered", nla_get_u8(tb[IBTRACE_A_AGENT]));
	if (!tb[IBTRACE_A_AGENT_STATS])
		return 0;
	ret = ibt_nl_parse_nest(ctx, tb[IBTRACE_A_AGENT_STATS], st);
	if (ret)
		return ret;
	ibt_out_nla_u64s(ctx, agent_stats, IBT_ARRAY_SIZE(agent_stats), st);
	return 0;
}

static int agent_show(struct ibt *ctx)
{
	return ibt_port_query(ctx, IBTRACE_CMD_AGENT_GET, agent_show_port);
}

const char ibt_agent_help[] =
	"Usage: ibtracectl [-j] [--pretty] [-d DEV [-p PORT]] agent [show]\n"
	"       ibtracectl [-j] [--pretty] -p PORT agent [show]\n"
	"One line (JSON: one object) per port: dev, port, registered, rx,\n"
	"answered, mismatch, malformed, unsupported, success,\n"
	"unsupported_method, unsupported_attr, tx_error, stray.\n";

const struct ibt_cmd ibt_agent_cmds[] = IBT_SHOW_CMDS(agent_show);
