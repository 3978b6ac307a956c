// SPDX-License-Identifier: GPL-2.0-only
/*
 * ping object: VendorGet(ClassPortInfo), or VendorGet(SourceRoute) with
 * --source-route, to the class 0x30 agent of a remote port
 * (IBTRACE_CMD_PING).
 *
 *   ibtracectl [-j] -d DEV [-p PORT] ping (--dgid GID | --dlid LID | both)
 *              [-c N] [-i MS] [-t MS] [-r N] [--source-route P1,P2,...]
 *
 * The kernel runs the ping as a job: the request's reply carries its ID,
 * then IBTRACE_CMD_PING_PROBE messages come as the ping runs, each with
 * one IBTRACE_A_PING_PROBE or more (a flood's probes in batches, each
 * batch within 10 ms of its first probe), and an IBTRACE_CMD_PING
 * message with IBTRACE_A_PING_SUMMARY at its end (job.c follows it).
 * Text lines are printed as probes arrive:
 *
 *   Pong from fe80::1 (rxe0/1): seq=1 time 0.123 ms
 *   Pong from lid 0x12 (mlx5_0/1): seq=2 time 0.101 ms status 0x001c (invalid value) actual_port 2
 *   No pong from fe80::1 (rxe0/1): seq=3 timeout attempts 4
 *
 *   --- fe80::1 ibtrace ping statistics ---
 *   3 probes sent, 2 received, 33.33% loss, 1 errors
 *   rtt min/avg/max/p99 = 101.000/112.000/123.000/123.000 us
 *
 * SIGINT (or SIGTERM) cancels the job; its end message follows within a
 * second, with the statistics of the probes sent so far.
 *
 * JSON: one object. Keys:
 *   target        string  the GID, or "lid 0x12"
 *   dgid, dlid    string, number: the destination as sent (on
 *                 InfiniBand both may be given: LID-routed with a GRH)
 *   source_route  array of numbers (with --source-route)
 *   dev, port     string, number
 *   probes        array of objects, keys only for attributes sent:
 *     seq, status ("ok", "timeout", "remote_error", "send_error"),
 *     mad_status (number), mad_status_text, rtt_ns, attempts, slid,
 *     sgid (string), actual_port, base_version, class_version, cap_mask,
 *     resp_time_value
 *   summary       object: sent, received, errors, loss_pct (number, two
 *                 decimals at most), rtt_min_ns, rtt_avg_ns, rtt_max_ns,
 *                 rtt_p99_ns, rtt_median_ns
 *   interrupted   true, only when stopped by SIGINT
 *
 * Exit: 0 if a probe was answered with MAD status 0, 6 if none was
 * answered, 7 if every answer had a non-zero MAD status.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ibtracectl.h"

enum {
	OPT_SROUTE = IBT_OPT_DLID + 1,
};

/* Summary attributes, in IBTRACE_SUMMARY_A_* order from SENT. */
struct ping_sum {
	uint64_t val[IBTRACE_SUMMARY_A_MAX + 1];
	bool have[IBTRACE_SUMMARY_A_MAX + 1];
};

struct ping {
	/* request */
	struct ibt_target tgt;
	uint32_t count, interval_ms;
	bool has_count, has_interval;
	uint8_t sroute[IBTRACE_SROUTE_MAX_HOPS];
	size_t sroute_len;
	uint32_t port;
	char target[INET6_ADDRSTRLEN + 8];
	bool help;			/* -h: print the usage instead */

	/* the job */
	struct ibt_job_follow job;

	/* results as they arrive */
	uint32_t nprobes, ok, timeouts, remote, send_errors;
	uint16_t last_status;
	uint64_t *rtt;
	size_t nrtt, rtt_cap;
	struct ping_sum sum;
	bool got_sum;
};

static void ping_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] [--pretty] -d DEV [-p PORT] ping\n"
	      "           (--dgid GID | --dlid LID | both) [-c N] [-i MS] [-t MS] [-r N]\n"
	      "           [--source-route P1,P2,...]\n"
	      "  --dgid GID           destination GID (e.g. fe80::5054:ff:fe1b:1)\n"
	      "  --dlid LID           destination LID, 1.." IBT_STR(IBTRACE_MAX_UNICAST_LID) " (decimal or 0x hex);\n"
	      "                       on InfiniBand, with --dgid: LID-routed with a GRH\n"
	      "  -c, --count N        probes to send, 1.." IBT_STR(IBTRACE_PING_MAX_COUNT) " (default 1)\n"
	      "  -i, --interval MS    gap between probes, 0.." IBT_STR(IBTRACE_PING_MAX_INTERVAL_MS) " (default 1000)\n"
	      "  -t, --timeout MS     wait per attempt, 1.." IBT_STR(IBTRACE_MAX_TIMEOUT_MS) " (default 1000)\n"
	      "  -r, --retries N      extra attempts after a timeout, 0.." IBT_STR(IBTRACE_MAX_RETRIES) " (default 3)\n"
	      "  --source-route P,..  expected incoming port of each hop (1..64 ports,\n"
	      "                       0..255); sends SourceRoute instead of ClassPortInfo\n"
	      "-p defaults to port 1. Exit 6: no probe answered; 7: every answer had a\n"
	      "non-zero MAD status.\n", f);
}

#define PING_OPT(f)	offsetof(struct ping, f)

/* Its options that take a number. */
static const struct ibt_num_opt ping_nums[] = {
	{ NULL, 'c', "-c", 1, IBTRACE_PING_MAX_COUNT, "", "", PING_OPT(count),
	  PING_OPT(has_count) },
	{ NULL, 'i', "-i", 0, IBTRACE_PING_MAX_INTERVAL_MS, "", "",
	  PING_OPT(interval_ms), PING_OPT(has_interval) },
};

/* An option of ping (for ibt_args_parse()). */
static int ping_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct ping *p = a->priv;

	switch (c) {
	case OPT_SROUTE:
		if (ibt_parse_sroute(arg, p->sroute, sizeof(p->sroute),
				     &p->sroute_len))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --source-route \"%s\": expected 1..%d port numbers 0..255 separated by commas",
				       arg, IBTRACE_SROUTE_MAX_HOPS);
		return 0;
	default:
		return ibt_opt_nums(ping_nums, IBT_ARRAY_SIZE(ping_nums), c, arg, p);
	}
}

/* Parse the words after "ping"; IBT_EXIT_OK, or a printed exit code. */
static int ping_parse(struct ibt *ctx, struct ping *p)
{
	static const struct option opts[] = {
		{ "count",		required_argument,	NULL, 'c' },
		{ "interval",		required_argument,	NULL, 'i' },
		{ "source-route",	required_argument,	NULL, OPT_SROUTE },
		{ NULL,			0,			NULL, 0 },
	};
	int ret;

	ret = ibt_target_args(ctx, "ping", opts, ping_opt, p, &p->help, &p->tgt);
	if (ret || p->help)
		return ret;
	if (!p->tgt.dest.has_dgid && !p->tgt.dest.has_dlid)
		return ibt_err(IBT_EXIT_USAGE, "ping needs --dgid GID or --dlid LID");
	if (!ctx->dev)
		return ibt_err(IBT_EXIT_USAGE,
			       "ping needs the device to send from: ibtracectl -d DEV ping ...");

	p->port = ctx->port ? ctx->port : 1;
	if (p->tgt.dest.has_dgid)
		inet_ntop(AF_INET6, p->tgt.dest.dgid, p->target, sizeof(p->target));
	else
		snprintf(p->target, sizeof(p->target), "lid 0x%x", p->tgt.dest.dlid);
	return 0;
}

/* The request's attributes of -c and -i, those given. */
static const struct ibt_req_opt ping_attrs[] = {
	{ IBTRACE_A_PING_COUNT, IBT_REQ_U32, PING_OPT(count), PING_OPT(has_count) },
	{ IBTRACE_A_PING_INTERVAL_MS, IBT_REQ_U32, PING_OPT(interval_ms),
	  PING_OPT(has_interval) },
};

static struct nl_msg *ping_request(struct ibt *ctx, struct ping *p)
{
	struct nl_msg *msg = ibt_nl_req(ctx, IBTRACE_CMD_PING, false);

	if (!msg)
		return NULL;
	if (ibt_nl_put_dev(ctx, msg, p->port) ||
	    ibt_nl_put_dest(msg, &p->tgt.dest, IBTRACE_A_PING_DGID, IBTRACE_A_PING_DLID) ||
	    ibt_nl_put_opts(msg, ping_attrs, IBT_ARRAY_SIZE(ping_attrs), p) ||
	    ibt_nl_put_wait(msg, &p->tgt.wait, IBTRACE_A_PING_TIMEOUT_MS,
			    IBTRACE_A_PING_RETRIES) ||
	    (p->sroute_len &&
	     nla_put(msg, IBTRACE_A_PING_SROUTE, p->sroute_len, p->sroute) < 0)) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

static int rtt_add(struct ping *p, uint64_t rtt)
{
	if (p->nrtt == p->rtt_cap) {
		size_t cap = p->rtt_cap ? 2 * p->rtt_cap : 64;
		uint64_t *n = realloc(p->rtt, cap * sizeof(*n));

		if (!n)
			return ibt_err(IBT_EXIT_ERR, "out of memory");
		p->rtt = n;
		p->rtt_cap = cap;
	}
	p->rtt[p->nrtt++] = rtt;
	return 0;
}

/**
 * ibt_probe_fields() - print what every probe's result has
 * @ctx: the output
 * @tb: the probe's attributes (&enum ibtrace_probe_attr)
 *
 * A ping's probe and a MAD send's answer: seq, status, round trip (text
 * only when answered), MAD status (text only when not 0), attempts (text
 * only when more than one), source LID and GID (JSON only).
 */
void ibt_probe_fields(struct ibt *ctx, struct nlattr **tb)
{
	unsigned int status = ~0u;
	char buf[96];

	if (tb[IBTRACE_PROBE_A_STATUS])
		status = nla_get_u8(tb[IBTRACE_PROBE_A_STATUS]);
	if (tb[IBTRACE_PROBE_A_SEQ]) {
		uint32_t seq = nla_get_u32(tb[IBTRACE_PROBE_A_SEQ]);

		ibt_out_field(ctx, "seq", json_object_new_uint64(seq), " seq=%u", seq);
	}
	if (tb[IBTRACE_PROBE_A_STATUS])
		ibt_out_json(ctx, "status",
			     json_object_new_string(ibt_probe_status_str(status)));
	if (status == IBTRACE_PROBE_TIMEOUT)
		ibt_out_text(ctx, " timeout");
	else if (status == IBTRACE_PROBE_SEND_ERROR)
		ibt_out_text(ctx, " send error");
	if (tb[IBTRACE_PROBE_A_RTT_NS]) {
		uint64_t rtt = nla_get_u64(tb[IBTRACE_PROBE_A_RTT_NS]);

		if (status == IBTRACE_PROBE_OK || status == IBTRACE_PROBE_REMOTE_ERROR)
			ibt_out_text(ctx, " time %s ms",
				     ibt_ns_str(rtt, 1000000, buf, sizeof(buf)));
		ibt_out_json(ctx, "rtt_ns", json_object_new_uint64(rtt));
	}
	if (tb[IBTRACE_PROBE_A_MAD_STATUS]) {
		uint16_t mad = nla_get_u16(tb[IBTRACE_PROBE_A_MAD_STATUS]);

		ibt_mad_status_str(mad, buf, sizeof(buf));
		ibt_out_json(ctx, "mad_status", json_object_new_uint64(mad));
		ibt_out_json(ctx, "mad_status_text", json_object_new_string(buf));
		if (mad)
			ibt_out_text(ctx, " status 0x%04x (%s)", mad, buf);
	}
	if (tb[IBTRACE_PROBE_A_ATTEMPTS]) {
		uint32_t n = nla_get_u32(tb[IBTRACE_PROBE_A_ATTEMPTS]);

		ibt_out_json(ctx, "attempts", json_object_new_uint64(n));
		if (n > 1)
			ibt_out_text(ctx, " attempts %u", n);
	}
	if (tb[IBTRACE_PROBE_A_SLID])
		ibt_out_json(ctx, "slid",
			     json_object_new_uint64(nla_get_u32(tb[IBTRACE_PROBE_A_SLID])));
	if (tb[IBTRACE_PROBE_A_SGID]) {
		char s[INET6_ADDRSTRLEN] = "";

		inet_ntop(AF_INET6, nla_data(tb[IBTRACE_PROBE_A_SGID]), s, sizeof(s));
		ibt_out_json(ctx, "sgid", json_object_new_string(s));
	}
}

/* One IBTRACE_CMD_PING_PROBE: count it, print it. */
static int ping_probe(struct ibt *ctx, void *arg, struct nlattr *nest)
{
	struct ping *p = arg;
	/* what a ClassPortInfo answer said (JSON only) */
	static const struct ibt_num_key cpi_keys[] = {
		{ IBTRACE_PROBE_A_CPI_BASE_VERSION,	"base_version" },
		{ IBTRACE_PROBE_A_CPI_CLASS_VERSION,	"class_version" },
		{ IBTRACE_PROBE_A_CPI_CAP_MASK,		"cap_mask" },
		{ IBTRACE_PROBE_A_CPI_RESP_TIME,	"resp_time_value" },
	};
	struct nlattr *tb[IBTRACE_PROBE_A_MAX + 1];
	unsigned int status = ~0u;
	uint16_t mad = 0;
	int ret;

	ret = ibt_nl_parse_nest(ctx, nest, tb);
	if (ret)
		return ret;
	p->nprobes++;
	if (tb[IBTRACE_PROBE_A_STATUS])
		status = nla_get_u8(tb[IBTRACE_PROBE_A_STATUS]);
	if (tb[IBTRACE_PROBE_A_MAD_STATUS])
		mad = nla_get_u16(tb[IBTRACE_PROBE_A_MAD_STATUS]);

	switch (status) {
	case IBTRACE_PROBE_OK:
		p->ok++;
		ibt_out_text(ctx, "Pong from");
		break;
	case IBTRACE_PROBE_REMOTE_ERROR:
		p->remote++;
		p->last_status = mad;
		ibt_out_text(ctx, "Pong from");
		break;
	case IBTRACE_PROBE_TIMEOUT:
		p->timeouts++;
		ibt_out_text(ctx, "No pong from");
		break;
	case IBTRACE_PROBE_SEND_ERROR:
		p->send_errors++;
		ibt_out_text(ctx, "Cannot ping");
		break;
	default:
		ibt_out_text(ctx, "Probe to");
		break;
	}
	ibt_out_text(ctx, " %s (%s/%u):", p->target, ctx->dev, p->port);

	ibt_out_obj_begin(ctx, NULL);
	ibt_probe_fields(ctx, tb);
	if (tb[IBTRACE_PROBE_A_RTT_NS] &&
	    (status == IBTRACE_PROBE_OK || status == IBTRACE_PROBE_REMOTE_ERROR))
		ret = rtt_add(p, nla_get_u64(tb[IBTRACE_PROBE_A_RTT_NS]));
	if (tb[IBTRACE_PROBE_A_ACTUAL_PORT])
		ibt_out_u64(ctx, "actual_port",
			    nla_get_u8(tb[IBTRACE_PROBE_A_ACTUAL_PORT]));
	ibt_out_nla_nums(ctx, cpi_keys, IBT_ARRAY_SIZE(cpi_keys), tb);
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
	return ret;
}

/* A message of the ping job but its probes: its end brings the summary. */
static int ping_msg(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		    void *arg)
{
	struct nlattr *st[IBTRACE_SUMMARY_A_MAX + 1];
	struct ping *p = arg;
	int i, ret;

	(void)nlh;
	/* the reply to the request says only which job it started */
	if (!ibt_job_ended(&p->job, tb))
		return 0;
	if (!tb[IBTRACE_A_PING_SUMMARY])
		return 0;
	ret = ibt_nl_parse_nest(ctx, tb[IBTRACE_A_PING_SUMMARY], st);
	if (ret)
		return ret;
	for (i = IBTRACE_SUMMARY_A_SENT; i <= IBTRACE_SUMMARY_A_MAX; i++) {
		if (!st[i])
			continue;
		p->sum.have[i] = true;
		p->sum.val[i] = i <= IBTRACE_SUMMARY_A_ERRORS ?
				nla_get_u32(st[i]) : nla_get_u64(st[i]);
	}
	p->got_sum = true;
	return 0;
}

/* Its probes come one a message as they are answered. */
static const struct ibt_job_kind ping_kind = {
	IBTRACE_CMD_PING_PROBE, IBTRACE_A_PING_PROBE, ping_probe, ping_msg,
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The summary of the probes seen, for when the kernel's never came. */
static void ping_local_sum(struct ping *p)
{
	struct ping_sum *s = &p->sum;
	uint64_t total = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->val[IBTRACE_SUMMARY_A_SENT] = p->nprobes;
	s->val[IBTRACE_SUMMARY_A_RECEIVED] = p->ok + p->remote;
	s->val[IBTRACE_SUMMARY_A_ERRORS] = p->remote;
	s->have[IBTRACE_SUMMARY_A_SENT] = true;
	s->have[IBTRACE_SUMMARY_A_RECEIVED] = true;
	s->have[IBTRACE_SUMMARY_A_ERRORS] = true;
	if (!p->nrtt)
		return;
	qsort(p->rtt, p->nrtt, sizeof(*p->rtt), cmp_u64);
	for (i = 0; i < p->nrtt; i++)
		total += p->rtt[i];
	s->val[IBTRACE_SUMMARY_A_RTT_MIN_NS] = p->rtt[0];
	s->val[IBTRACE_SUMMARY_A_RTT_AVG_NS] = total / p->nrtt;
	s->val[IBTRACE_SUMMARY_A_RTT_MAX_NS] = p->rtt[p->nrtt - 1];
	s->val[IBTRACE_SUMMARY_A_RTT_P99_NS] = ibt_percentile(p->rtt, p->nrtt, 99);
	s->val[IBTRACE_SUMMARY_A_RTT_MEDIAN_NS] = ibt_percentile(p->rtt, p->nrtt, 50);
	for (i = IBTRACE_SUMMARY_A_RTT_MIN_NS; i <= IBTRACE_SUMMARY_A_RTT_MEDIAN_NS; i++)
		s->have[i] = true;
}

static void ping_print_sum(struct ibt *ctx, struct ping *p)
{
	/* JSON: the counts, then (after loss_pct) the round trip times */
	static const struct ibt_num_key counts[] = {
		{ IBTRACE_SUMMARY_A_SENT,		"sent" },
		{ IBTRACE_SUMMARY_A_RECEIVED,		"received" },
		{ IBTRACE_SUMMARY_A_ERRORS,		"errors" },
	}, rtts[] = {
		{ IBTRACE_SUMMARY_A_RTT_MIN_NS,		"rtt_min_ns" },
		{ IBTRACE_SUMMARY_A_RTT_AVG_NS,		"rtt_avg_ns" },
		{ IBTRACE_SUMMARY_A_RTT_MAX_NS,		"rtt_max_ns" },
		{ IBTRACE_SUMMARY_A_RTT_P99_NS,		"rtt_p99_ns" },
		{ IBTRACE_SUMMARY_A_RTT_MEDIAN_NS,	"rtt_median_ns" },
	};
	const struct ping_sum *s = &p->sum;
	uint64_t sent = s->val[IBTRACE_SUMMARY_A_SENT];
	uint64_t rcvd = s->val[IBTRACE_SUMMARY_A_RECEIVED];
	uint64_t errs = s->val[IBTRACE_SUMMARY_A_ERRORS];
	char pct[16];

	ibt_pct_str(ibt_pct_x100(rcvd < sent ? sent - rcvd : 0, sent),
		    pct, sizeof(pct));

	/* JSON */
	ibt_out_obj_begin(ctx, "summary");
	ibt_out_nums(ctx, counts, IBT_ARRAY_SIZE(counts), s->have, s->val);
	if (s->have[IBTRACE_SUMMARY_A_ERRORS] && s->have[IBTRACE_SUMMARY_A_SENT] &&
	    s->have[IBTRACE_SUMMARY_A_RECEIVED])
		ibt_out_json(ctx, "loss_pct", json_object_new_double_s(atof(pct), pct));
	ibt_out_nums(ctx, rtts, IBT_ARRAY_SIZE(rtts), s->have, s->val);
	ibt_out_obj_end(ctx);

	/* text */
	ibt_out_text(ctx, "\n--- %s ibtrace ping statistics ---\n", p->target);
	ibt_out_text(ctx, "%" PRIu64 " probes sent, %" PRIu64 " received, %s%% loss",
		     sent, rcvd, pct);
	if (errs)
		ibt_out_text(ctx, ", %" PRIu64 " errors", errs);
	ibt_out_eol(ctx);
	if (rcvd && s->have[IBTRACE_SUMMARY_A_RTT_MIN_NS] &&
	    s->have[IBTRACE_SUMMARY_A_RTT_AVG_NS] &&
	    s->have[IBTRACE_SUMMARY_A_RTT_MAX_NS] &&
	    s->have[IBTRACE_SUMMARY_A_RTT_P99_NS]) {
		char b[4][32];

		ibt_out_text(ctx, "rtt min/avg/max/p99 = %s/%s/%s/%s us",
			     ibt_ns_str(s->val[IBTRACE_SUMMARY_A_RTT_MIN_NS], 1000,
					b[0], sizeof(b[0])),
			     ibt_ns_str(s->val[IBTRACE_SUMMARY_A_RTT_AVG_NS], 1000,
					b[1], sizeof(b[1])),
			     ibt_ns_str(s->val[IBTRACE_SUMMARY_A_RTT_MAX_NS], 1000,
					b[2], sizeof(b[2])),
			     ibt_ns_str(s->val[IBTRACE_SUMMARY_A_RTT_P99_NS], 1000,
					b[3], sizeof(b[3])));
		ibt_out_eol(ctx);
	}
}

/* Exit code of a finished (or interrupted) ping, with its one line. */
static int ping_verdict(struct ping *p)
{
	const struct ping_sum *s = &p->sum;
	uint64_t rcvd = s->val[IBTRACE_SUMMARY_A_RECEIVED];
	uint64_t errs = s->val[IBTRACE_SUMMARY_A_ERRORS];

	if (!s->have[IBTRACE_SUMMARY_A_RECEIVED])
		rcvd = p->ok + p->remote;
	if (!s->have[IBTRACE_SUMMARY_A_ERRORS])
		errs = p->remote;

	if (rcvd > errs)
		return IBT_EXIT_OK;
	if (rcvd) {
		char buf[96];

		if (!p->last_status)
			return ibt_err(IBT_EXIT_REMOTE,
				       "every answer from %s carried a non-zero MAD status",
				       p->target);
		return ibt_err(IBT_EXIT_REMOTE,
			       "every answer from %s carried a non-zero MAD status, last 0x%04x (%s)",
			       p->target, p->last_status,
			       ibt_mad_status_str(p->last_status, buf, sizeof(buf)));
	}
	if (p->send_errors && !p->timeouts)
		return ibt_err(IBT_EXIT_ERR, "no probe to %s could be sent",
			       p->target);
	return ibt_err(IBT_EXIT_TIMEOUT, "no answer from %s", p->target);
}

static int ping_run(struct ibt *ctx, struct ping *p)
{
	struct nl_msg *msg;
	bool interrupted;
	int ret;

	ret = ibt_nl_open(ctx);
	if (ret)
		return ret;
	msg = ping_request(ctx, p);
	if (!msg)
		return IBT_EXIT_ERR;

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "target", json_object_new_string(p->target));
	if (p->tgt.dest.has_dgid)
		ibt_out_json(ctx, "dgid", json_object_new_string(p->target));
	if (p->tgt.dest.has_dlid)
		ibt_out_json(ctx, "dlid", json_object_new_uint64(p->tgt.dest.dlid));
	if (p->sroute_len) {
		size_t i;

		ibt_out_arr_begin(ctx, "source_route");
		for (i = 0; i < p->sroute_len; i++)
			ibt_out_json(ctx, NULL, json_object_new_uint64(p->sroute[i]));
		ibt_out_arr_end(ctx);
	}
	ibt_out_json(ctx, "dev", json_object_new_string(ctx->dev));
	ibt_out_json(ctx, "port", json_object_new_uint64(p->port));
	ibt_out_arr_begin(ctx, "probes");

	/*
	 * SIGINT and SIGTERM are let in only while waiting for the job's
	 * messages (ibt_nl_wait_notify): the first cancels the job, whose
	 * end message then brings the statistics of the probes sent. The
	 * same signal again within a second (timeout(1) signals the process
	 * group too) changes nothing; a later one kills.
	 */
	ret = ibt_job_run(ctx, msg, &p->job, &ping_kind, p);
	if (!ret)
		ret = ibt_job_result(ctx, &p->job, &interrupted);
	if (ret)
		return ret;

	ibt_out_arr_end(ctx);
	if (ctx->nl_lost)
		fprintf(stderr, "Warning: the kernel dropped probe results (receive buffer full)\n");
	if (!p->got_sum)
		ping_local_sum(p);
	ping_print_sum(ctx, p);
	if (interrupted)
		ibt_out_json(ctx, "interrupted", json_object_new_boolean(true));
	ibt_out_obj_end(ctx);
	ibt_out_finish(ctx);
	return ping_verdict(p);
}

int ibt_ping(struct ibt *ctx)
{
	struct ping p = { 0 };
	int ret;

	ret = ping_parse(ctx, &p);
	if (!ret && !ibt_usage_if(p.help, ping_usage))
		ret = ping_run(ctx, &p);
	free(p.rtt);
	return ret;
}
