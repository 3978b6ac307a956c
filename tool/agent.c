// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent object: the class 0x30 agent of each port and its counters
 * (IBTRACE_CMD_AGENT_GET, nest IBTRACE_A_AGENT_STATS).
 *
 *   ibtracectl [-j] [-d DEV [-p PORT]] agent [show] [--prom FILE]
 *
 * Ports are selected as for "dev show". --prom FILE also writes the
 * counters as Prometheus metrics (prom.h), for node_exporter's textfile
 * collector, labelled with node_exporter's device and port:
 *   ibtrace_agent_registered                         gauge
 *   ibtrace_agent_requests_received_total            rx
 *   ibtrace_agent_responses_total{status}            success, mismatch,
 *                                  malformed, unsupported_method,
 *                                  unsupported_attr
 *   ibtrace_agent_send_errors_total                  tx_error
 *   ibtrace_agent_stray_responses_total              stray
 *   ibtrace_agent_invalid_answers_total              invalid_answer
 *   ibtrace_agent_address_handles_made_total         ah_made
 *   ibtrace_agent_address_handles_reused_total       ah_reused
 * (counters since the agent registered: a reload starts them again).
 *
 * Text, one line per port:
 *   rxe0/1 registered yes rx 12 answered 12 mismatch 1 malformed 0
 *   unsupported 2 success 9 unsupported_method 1 unsupported_attr 1
 *   tx_error 0 stray 0 invalid_answer 0 ah_made 1 ah_reused 11
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
 *   invalid_answer  number  answers matched to a request of the port (by
 *                        TID) that did not answer it (source LID, method,
 *                        attribute, class version, OUI), dropped
 *   ah_made      number  address handles made for answers
 *   ah_reused    number  answers sent with a handle made for an earlier
 *                        one to the same place (kept up to a second)
 *
 * rx = answered + tx_error; answered = success + mismatch + malformed +
 * unsupported; unsupported = unsupported_method + unsupported_attr.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/attr.h>

#include "ibtracectl.h"
#include "prom.h"

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
	{ IBTRACE_STAT_INVALID_ANSWER,		"invalid_answer" },
	{ IBTRACE_STAT_AH_MADE,			"ah_made" },
	{ IBTRACE_STAT_AH_REUSED,		"ah_reused" },
};

/**
 * struct agent_row - one port's agent, kept for --prom
 * @dev: its device
 * @port: its port
 * @registered: the agent is registered (-1: not said)
 * @have: which counters came
 * @val: their values, by enum ibtrace_stat_attr
 */
struct agent_row {
	char dev[IBT_DEV_NAME_MAX];
	uint32_t port;
	int registered;
	bool have[IBTRACE_STAT_MAX + 1];
	uint64_t val[IBTRACE_STAT_MAX + 1];
};

/**
 * struct agent_show - agent show: its options and the ports seen
 * @help: "help" was asked for
 * @prom: --prom FILE, or NULL
 * @rows: the ports' agents, in the order they came
 * @n: how many
 */
struct agent_show {
	bool help;
	const char *prom;
	struct agent_row *rows;
	size_t n;
};

/* A port's agent into @as->rows. Return: 0 or an exit code. */
static int agent_keep(struct agent_show *as, struct nlattr **tb,
		      struct nlattr **st)
{
	struct agent_row *r;
	unsigned int k;

	r = realloc(as->rows, (as->n + 1) * sizeof(*r));
	if (!r)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	as->rows = r;
	r = &r[as->n++];
	memset(r, 0, sizeof(*r));
	if (tb[IBTRACE_A_DEV_NAME])
		snprintf(r->dev, sizeof(r->dev), "%s",
			 nla_get_string(tb[IBTRACE_A_DEV_NAME]));
	r->port = tb[IBTRACE_A_PORT] ? nla_get_u32(tb[IBTRACE_A_PORT]) : 0;
	r->registered = tb[IBTRACE_A_AGENT] ? nla_get_u8(tb[IBTRACE_A_AGENT]) : -1;
	for (k = 0; st && k <= IBTRACE_STAT_MAX; k++) {
		r->have[k] = st[k] && nla_len(st[k]) == sizeof(uint64_t);
		r->val[k] = r->have[k] ? nla_get_u64(st[k]) : 0;
	}
	return 0;
}

static int agent_show_port(struct ibt *ctx, struct nlattr **tb, void *arg)
{
	struct nlattr *st[IBTRACE_STAT_MAX + 1];
	struct agent_show *as = arg;
	int ret;

	if (tb[IBTRACE_A_AGENT])
		ibt_out_bool(ctx, "registered", nla_get_u8(tb[IBTRACE_A_AGENT]));
	if (!tb[IBTRACE_A_AGENT_STATS])
		return as && as->prom ? agent_keep(as, tb, NULL) : 0;
	ret = ibt_nl_parse_nest(ctx, tb[IBTRACE_A_AGENT_STATS], st);
	if (ret)
		return ret;
	ibt_out_nla_u64s(ctx, agent_stats, IBT_ARRAY_SIZE(agent_stats), st);
	return as && as->prom ? agent_keep(as, tb, st) : 0;
}

/* A counter family: a sample per port that has counter @k. */
static void agent_prom_counter(struct ibt_prom *p, const struct agent_show *as,
			       const char *name, const char *help, unsigned int k,
			       const char *status)
{
	struct ibt_prom_label l[3] = {
		{ "device", NULL }, { "port", NULL }, { "status", status },
	};
	char port[12];
	size_t i;

	if (help)
		ibt_prom_family(p, name, "counter", help);
	for (i = 0; i < as->n; i++) {
		if (!as->rows[i].have[k])
			continue;
		snprintf(port, sizeof(port), "%u", as->rows[i].port);
		l[0].value = as->rows[i].dev;
		l[1].value = port;
		ibt_prom_u64(p, name, l, status ? 3 : 2, as->rows[i].val[k]);
	}
}

/* The agents' counters as metrics (see the top of this file). */
static void agent_prom_write(struct ibt_prom *p, const struct agent_show *as)
{
	static const struct {
		unsigned int k;
		const char *status;
	} resp[] = {
		{ IBTRACE_STAT_SUCCESS,			"success" },
		{ IBTRACE_STAT_MISMATCH,		"mismatch" },
		{ IBTRACE_STAT_MALFORMED,		"malformed" },
		{ IBTRACE_STAT_UNSUPPORTED_METHOD,	"unsupported_method" },
		{ IBTRACE_STAT_UNSUPPORTED_ATTR,	"unsupported_attr" },
	};
	/* The counters after the responses: a family each, unlabelled. */
	static const struct {
		const char *name;
		const char *help;
		unsigned int k;
	} plain[] = {
		{ "ibtrace_agent_send_errors_total",
		  "Requests left unanswered: the response could not be sent.",
		  IBTRACE_STAT_TX_ERROR },
		{ "ibtrace_agent_stray_responses_total",
		  "Responses that matched no request of ours, dropped.",
		  IBTRACE_STAT_STRAY },
		{ "ibtrace_agent_invalid_answers_total",
		  "Answers to the port's requests that did not answer them, dropped.",
		  IBTRACE_STAT_INVALID_ANSWER },
		{ "ibtrace_agent_address_handles_made_total",
		  "Address handles the agent made for its responses.",
		  IBTRACE_STAT_AH_MADE },
		{ "ibtrace_agent_address_handles_reused_total",
		  "Responses sent with an address handle made for an earlier one.",
		  IBTRACE_STAT_AH_REUSED },
	};
	struct ibt_prom_label l[2] = { { "device", NULL }, { "port", NULL } };
	char port[12];
	size_t i;

	ibt_prom_family(p, "ibtrace_agent_registered", "gauge",
			"1: the port's class 0x30 agent is registered.");
	for (i = 0; i < as->n; i++) {
		if (as->rows[i].registered < 0)
			continue;
		snprintf(port, sizeof(port), "%u", as->rows[i].port);
		l[0].value = as->rows[i].dev;
		l[1].value = port;
		ibt_prom_u64(p, "ibtrace_agent_registered", l, 2,
			     as->rows[i].registered);
	}
	agent_prom_counter(p, as, "ibtrace_agent_requests_received_total",
			   "Class 0x30 requests the agent received.",
			   IBTRACE_STAT_RX, NULL);
	ibt_prom_family(p, "ibtrace_agent_responses_total", "counter",
			"Responses the agent sent, by what they said.");
	for (i = 0; i < IBT_ARRAY_SIZE(resp); i++)
		agent_prom_counter(p, as, "ibtrace_agent_responses_total", NULL,
				   resp[i].k, resp[i].status);
	for (i = 0; i < IBT_ARRAY_SIZE(plain); i++)
		agent_prom_counter(p, as, plain[i].name, plain[i].help,
				   plain[i].k, NULL);
}

/* --prom FILE: the metrics, FILE replaced at once. Return: an exit code. */
static int agent_prom(const struct agent_show *as)
{
	struct ibt_prom p;
	int err;

	err = ibt_prom_open(&p, as->prom, NULL, 0);
	if (!err) {
		agent_prom_write(&p, as);
		err = ibt_prom_commit(&p);
	}
	if (err)
		return ibt_err(IBT_EXIT_ERR, "cannot write %s: %s", as->prom,
			       strerror(err));
	return IBT_EXIT_OK;
}

enum { OPT_PROM = IBT_OPT_DLID + 1 };

static int agent_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct agent_show *as = a->priv;

	if (c != OPT_PROM)
		return -1;
	as->prom = arg;
	return 0;
}

static void agent_usage(FILE *f);

static int agent_show(struct ibt *ctx)
{
	static const struct option opts[] = {
		{ "prom",	required_argument,	NULL, OPT_PROM },
		{ NULL,		0,			NULL, 0 },
	};
	struct agent_show as = { 0 };
	const struct ibt_args a = {
		.obj = "agent", .cmd = "show", .opts = opts, .opt = agent_opt,
		.priv = &as, .help = &as.help, .help_word = true,
	};
	int ret = ibt_args_parse(ctx, &a);

	if (!ret && !ibt_usage_if(as.help, agent_usage)) {
		ret = ibt_port_query_parsed(ctx, IBTRACE_CMD_AGENT_GET,
					    agent_show_port, &as);
		if (!ret && as.prom)
			ret = agent_prom(&as);
	}
	free(as.rows);
	return ret;
}

const char ibt_agent_help[] =
	"Usage: ibtracectl [-j] [--pretty] [-d DEV [-p PORT]] agent [show] [--prom FILE]\n"
	"       ibtracectl [-j] [--pretty] -p PORT agent [show] [--prom FILE]\n"
	"One line (JSON: one object) per port: dev, port, registered, rx,\n"
	"answered, mismatch, malformed, unsupported, success,\n"
	"unsupported_method, unsupported_attr, tx_error, stray,\n"
	"invalid_answer, ah_made, ah_reused.\n"
	"  --prom FILE   also write the counters as Prometheus metrics, replacing\n"
	"                FILE at once (node_exporter's textfile collector)\n";

static void agent_usage(FILE *f)
{
	fputs(ibt_agent_help, f);
}

const struct ibt_cmd ibt_agent_cmds[] = IBT_SHOW_CMDS(agent_show);
