// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim inject: pose as any node of an ibtrace_sim fabric
 * (IBTRACE_SIM_CMD_INJECT), IBTrainer's "source addresses can be
 * overwritten": a packet put into the fabric as if node NODE sent it out
 * of its port PORT, its LRH, GRH, BTH and DETH fields chosen freely.
 *
 *   ibtracectl [-j] sim inject FABRIC NODE PORT
 *              (--class CLASS [MAD fields as mad send's] | --payload HEX)
 *              [--slid LID] [--dlid LID] [--sl N] [--vl N] [--sqp N]
 *              [--dqp N] [--qkey N] [--pkey N] [--sgid GID] [--dgid GID]
 *              [-t MS | --no-wait]
 *
 * The tool composes the MAD (mad_decode.c: ibt_mad_compose()), its TID's
 * high 32 bits random, and the kernel puts it on the wire. The answer to
 * it (a response of its class and TID) is taken off the fabric where it
 * is sent, whatever its DLID (a forged source that does not exist too),
 * and shown: where it was sent from, its addresses, the time since the
 * injection, the MAD decoded as mad send shows it.
 *
 *   Injected into f0 node 3 port 1: dlid 0x1 len 256 SubnLidRouted Get
 *       NodeInfo tid 0x1234abcd00000001                       (one line)
 *   Answer from node 0/1: lid 0x1 > 0x77 sl 0 vl 15 qp 0 > 0 len 262
 *       SubnLidRouted GetResp NodeInfo tid 0x... time 0.081 ms (one line)
 *    base_version 1 class 0x01 (SubnLidRouted) ...
 *
 * JSON: one object: fabric, node, port, sent (dlid, len and the MAD in
 * brief: class, method, attr_id, tid, ...), answer (node, port, slid,
 * dlid, sl, vl, sqp, dqp, len, rtt_ns, mad, attr or data) or null.
 *
 * Exit: 0 when answered with MAD status 0 (with --no-wait: when
 * injected), 6 when not answered in time, 7 when answered with a non-zero
 * MAD status, 2 for a method that can change the fabric without
 * --allow-set, as every sim command else.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <linux/ibtrace_sim.h>

#include "ibtracectl.h"

#define INJ_DEFAULT_WAIT_MS	1000
#define INJ_PERMISSIVE_LID	0xffff

enum {
	OPT_PAYLOAD = 0x200,
	OPT_SGID,
	OPT_DGID,
	OPT_NO_WAIT,
	OPT_SLID,
	OPT_DLID,
	OPT_SL,
	OPT_VL,
	OPT_SQP,
	OPT_DQP,
	OPT_QKEY,
	OPT_PKEY,
	OPT_TIMEOUT = 't',
};

struct inject {
	/* request: the MAD first (ibt_mad_req_nums' offsets) */
	struct ibt_mad_req r;
	const char *word[3];		/* FABRIC NODE PORT */
	uint32_t port;
	uint32_t slid, dlid, sl, vl, sqp, dqp, qkey, pkey, wait_ms;
	bool has_slid, has_dlid, has_sl, has_vl, has_sqp, has_dqp;
	bool has_qkey, has_pkey, has_wait;
	uint8_t sgid[16], dgid[16];
	bool has_sgid, has_dgid;
	uint8_t payload[IBTRACE_SIM_INJECT_PAYLOAD_MAX];
	size_t payload_len;
	bool no_wait, help;

	/* the injection */
	const uint8_t *pkt;		/* what goes after DETH */
	size_t pkt_len;
	uint8_t mad[IBT_MAD_SIZE];
	uint32_t id;
	bool answered, ended;
	uint16_t mad_status;
	int err;			/* an exit code from a callback */
};

_Static_assert(offsetof(struct inject, r) == 0,
	       "ibt_mad_req_nums' offsets are from the start of struct inject");

#define INJ_OPT(f)	offsetof(struct inject, f)

static const struct ibt_num_opt inj_nums[] = {
	{ "slid", OPT_SLID, "--slid", 0, 0xffff, "", "",
	  INJ_OPT(slid), INJ_OPT(has_slid) },
	{ "dlid", OPT_DLID, "--dlid", 0, 0xffff, "", "",
	  INJ_OPT(dlid), INJ_OPT(has_dlid) },
	{ "sl", OPT_SL, "--sl", 0, 15, "", "", INJ_OPT(sl), INJ_OPT(has_sl) },
	{ "vl", OPT_VL, "--vl", 0, 15, "", "", INJ_OPT(vl), INJ_OPT(has_vl) },
	{ "sqp", OPT_SQP, "--sqp", 0, 0xffffff, "", "",
	  INJ_OPT(sqp), INJ_OPT(has_sqp) },
	{ "dqp", OPT_DQP, "--dqp", 0, 0xffffff, "", "",
	  INJ_OPT(dqp), INJ_OPT(has_dqp) },
	{ "qkey", OPT_QKEY, "--qkey", 0, UINT32_MAX, "", "",
	  INJ_OPT(qkey), INJ_OPT(has_qkey) },
	{ "pkey", OPT_PKEY, "--pkey", 0, 0xffff, "", "",
	  INJ_OPT(pkey), INJ_OPT(has_pkey) },
	{ "timeout", OPT_TIMEOUT, "-t", 1, IBTRACE_SIM_INJECT_WAIT_MAX_MS, "",
	  " ms", INJ_OPT(wait_ms), INJ_OPT(has_wait) },
};

static int inj_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct inject *in = a->priv;

	switch (c) {
	case OPT_PAYLOAD:
		if (ibt_parse_hex(arg, in->payload, sizeof(in->payload),
				  &in->payload_len) || !in->payload_len)
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --payload \"%s\": expected 1..%d hex bytes",
				       arg, IBTRACE_SIM_INJECT_PAYLOAD_MAX);
		return 0;
	case OPT_SGID:
	case OPT_DGID:
		if (ibt_parse_gid(arg, c == OPT_SGID ? in->sgid : in->dgid))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad %s \"%s\": expected a GID such as fe80::1",
				       c == OPT_SGID ? "--sgid" : "--dgid", arg);
		*(c == OPT_SGID ? &in->has_sgid : &in->has_dgid) = true;
		return 0;
	case OPT_NO_WAIT:
		in->no_wait = true;
		return 0;
	default:
		return ibt_mad_req_opt(c, arg, &in->r);
	}
}

/* A random number for the TID's high 32 bits (and low, without --tid). */
static uint32_t inj_random(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), 0) != sizeof(v))
		v = (uint32_t)time(NULL) ^ (uint32_t)getpid() << 16;
	return v;
}

/* The checks that need every word and option; the MAD composed. */
static int inj_check(struct inject *in)
{
	uint64_t tid;
	int ret;

	if (ibt_sim_name_ok(in->word[0]))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad fabric name \"%s\": 1..%d characters out of A-Z a-z 0-9 _ . -",
			       in->word[0], IBTRACE_SIM_NAME_MAX);
	if (ibt_parse_u32(in->word[2], 1, IBTRACE_SIM_PORTS_MAX, &in->port))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad PORT \"%s\": expected a port number 1..%d",
			       in->word[2], IBTRACE_SIM_PORTS_MAX);
	if (in->no_wait && in->has_wait)
		return ibt_err(IBT_EXIT_USAGE,
			       "-t and --no-wait exclude each other");
	if (!in->no_wait && !in->has_wait)
		in->wait_ms = INJ_DEFAULT_WAIT_MS, in->has_wait = true;
	if (in->payload_len) {
		if (in->r.has_class)
			return ibt_err(IBT_EXIT_USAGE,
				       "--payload and --class exclude each other: the payload is the whole packet after DETH");
		if (!in->has_dlid)
			return ibt_err(IBT_EXIT_USAGE,
				       "sim inject --payload needs --dlid LID");
		if (!in->no_wait && in->payload_len < 24)
			return ibt_err(IBT_EXIT_USAGE,
				       "a payload of %zu bytes holds no MAD to wait for the answer of: add --no-wait",
				       in->payload_len);
		in->pkt = in->payload;
		in->pkt_len = in->payload_len;
		return IBT_EXIT_OK;
	}
	ret = ibt_mad_req_check(&in->r, "sim inject");
	if (ret)
		return ret;
	if (!in->has_dlid && in->r.mgmt_class != 0x81)
		return ibt_err(IBT_EXIT_USAGE,
			       "sim inject needs --dlid LID (a directed-route SMP goes to 0xffff by default)");
	if (!in->has_dlid)
		in->dlid = INJ_PERMISSIVE_LID, in->has_dlid = true;
	tid = (uint64_t)inj_random() << 32 |
	      (in->r.has_tid ? in->r.tid : inj_random());
	ibt_mad_compose(&in->r, tid, in->mad);
	in->pkt = in->mad;
	in->pkt_len = sizeof(in->mad);
	return IBT_EXIT_OK;
}

static int inj_parse(struct ibt *ctx, struct inject *in)
{
	static const struct option opts[] = {
		IBT_MAD_REQ_OPTS,
		{ "payload",	required_argument,	NULL, OPT_PAYLOAD },
		{ "sgid",	required_argument,	NULL, OPT_SGID },
		{ "dgid",	required_argument,	NULL, OPT_DGID },
		{ "no-wait",	no_argument,		NULL, OPT_NO_WAIT },
		{ NULL,		0,			NULL, 0 },
	};
	struct ibt_num_opt nums[IBT_ARRAY_SIZE(inj_nums) + IBT_MAD_REQ_NNUMS];
	struct ibt_args a = {
		.obj = "sim", .cmd = "inject", .opts = opts, .permute = true,
		.opt = inj_opt, .nums = nums, .nnums = IBT_ARRAY_SIZE(nums),
		.priv = in, .help = &in->help, .help_word = true,
		.words = { in->word, 3, 3, "a FABRIC, a NODE and a PORT" },
	};
	int ret;

	memcpy(nums, inj_nums, sizeof(inj_nums));
	memcpy(nums + IBT_ARRAY_SIZE(inj_nums), ibt_mad_req_nums,
	       sizeof(ibt_mad_req_nums));
	ret = ibt_args_parse(ctx, &a);
	if (ret || in->help)
		return ret;
	return inj_check(in);
}

/* The request's attributes that options give, those given. */
static const struct ibt_req_opt inj_attrs[] = {
	{ IBTRACE_SIM_A_INJECT_SLID, IBT_REQ_U32, INJ_OPT(slid), INJ_OPT(has_slid) },
	{ IBTRACE_SIM_A_INJECT_DLID, IBT_REQ_U32, INJ_OPT(dlid), INJ_OPT(has_dlid) },
	{ IBTRACE_SIM_A_INJECT_SL, IBT_REQ_U8, INJ_OPT(sl), INJ_OPT(has_sl) },
	{ IBTRACE_SIM_A_INJECT_VL, IBT_REQ_U8, INJ_OPT(vl), INJ_OPT(has_vl) },
	{ IBTRACE_SIM_A_INJECT_SQPN, IBT_REQ_U32, INJ_OPT(sqp), INJ_OPT(has_sqp) },
	{ IBTRACE_SIM_A_INJECT_DQPN, IBT_REQ_U32, INJ_OPT(dqp), INJ_OPT(has_dqp) },
	{ IBTRACE_SIM_A_INJECT_QKEY, IBT_REQ_U32, INJ_OPT(qkey), INJ_OPT(has_qkey) },
	{ IBTRACE_SIM_A_INJECT_PKEY, IBT_REQ_U16, INJ_OPT(pkey), INJ_OPT(has_pkey) },
	{ IBTRACE_SIM_A_INJECT_WAIT_MS, IBT_REQ_U32, INJ_OPT(wait_ms),
	  INJ_OPT(has_wait) },
};

static struct nl_msg *inj_request(struct ibt *ctx, struct inject *in)
{
	struct nl_msg *msg = ibt_sim_node_req(ctx, IBTRACE_SIM_CMD_INJECT,
					      in->word[0], in->word[1]);
	int err;

	if (!msg)
		return NULL;
	err = nla_put_u32(msg, IBTRACE_SIM_A_INJECT_PORT, in->port);
	if (!err)
		err = ibt_nl_put_opts(msg, inj_attrs, IBT_ARRAY_SIZE(inj_attrs),
				      in);
	if (!err && in->has_sgid)
		err = nla_put(msg, IBTRACE_SIM_A_INJECT_SGID, 16, in->sgid);
	if (!err && in->has_dgid)
		err = nla_put(msg, IBTRACE_SIM_A_INJECT_DGID, 16, in->dgid);
	if (!err)
		err = nla_put(msg, IBTRACE_SIM_A_INJECT_PAYLOAD, in->pkt_len,
			      in->pkt);
	if (err < 0) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* The answer: where it was sent from, its addresses, its MAD decoded. */
static int inj_answer(struct ibt *ctx, struct inject *in, struct nlattr **tb)
{
	const uint8_t *p = nla_data(tb[IBTRACE_SIM_A_CAPTURE_DATA]);
	size_t len = nla_len(tb[IBTRACE_SIM_A_CAPTURE_DATA]), plen = 0;
	size_t off = ibt_wire_payload(p, len, &plen);
	char b[32];

	in->answered = true;
	ibt_out_obj_begin(ctx, "answer");
	ibt_out_field(ctx, "node",
		      json_object_new_uint64(nla_get_u32(tb[IBTRACE_SIM_A_NODE_INDEX])),
		      "Answer from node %u", nla_get_u32(tb[IBTRACE_SIM_A_NODE_INDEX]));
	ibt_out_field(ctx, "port",
		      json_object_new_uint64(nla_get_u32(tb[IBTRACE_SIM_A_CAPTURE_PORT])),
		      "/%u:", nla_get_u32(tb[IBTRACE_SIM_A_CAPTURE_PORT]));
	ibt_wire_print(ctx, p, len);
	if (tb[IBTRACE_SIM_A_INJECT_RTT_NS]) {
		uint64_t ns = ibt_nla_uint(tb[IBTRACE_SIM_A_INJECT_RTT_NS]);

		ibt_out_field(ctx, "rtt_ns", json_object_new_uint64(ns),
			      " time %s ms", ibt_ns_str(ns, 1000000, b, sizeof(b)));
	}
	ibt_out_eol(ctx);
	if (off && plen >= 24) {
		in->mad_status = (uint16_t)(p[off + 4] << 8 | p[off + 5]);
		/* a DR SMP's D bit is not part of its status */
		if (p[off + 1] == 0x81)
			in->mad_status &= 0x7fff;
		ibt_mad_print_answer(ctx, p + off,
				     plen < IBT_MAD_SIZE ? plen : IBT_MAD_SIZE,
				     in->r.hex);
	}
	ibt_out_obj_end(ctx);
	return 0;
}

/* A message of the wait: the answer, or the wait's end. */
static int inj_notify(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[IBTRACE_SIM_A_MAX + 1];
	struct inject *in = arg;
	uint8_t cmd;
	int ret;

	ret = ibt_capture_parse(ctx, nlh, tb, &cmd);
	if (ret || !cmd)
		return ret;
	/* the only wait of this socket, its ID maybe not known yet */
	if (cmd == IBTRACE_SIM_CMD_CAPTURE_END) {
		in->ended = true;
		return 0;
	}
	if (in->answered)
		return 0;
	if (!tb[IBTRACE_SIM_A_CAPTURE_DATA] || !tb[IBTRACE_SIM_A_NODE_INDEX] ||
	    !tb[IBTRACE_SIM_A_CAPTURE_PORT])
		return ibt_err(IBT_EXIT_ERR, "malformed kernel message: an answer without its packet");
	return inj_answer(ctx, in, tb);
}

/* Milliseconds since @t0. */
static long inj_ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Exit code of the injection, with its one line. */
static int inj_verdict(const struct inject *in)
{
	char buf[96];

	if (in->no_wait || (in->answered && !in->mad_status))
		return IBT_EXIT_OK;
	if (in->answered)
		return ibt_err(IBT_EXIT_REMOTE,
			       "the answer carried MAD status 0x%04x (%s)",
			       in->mad_status,
			       ibt_mad_status_str(in->mad_status, buf, sizeof(buf)));
	return ibt_err(IBT_EXIT_TIMEOUT,
		       "no answer to the injected MAD within %u ms", in->wait_ms);
}

static int inj_run(struct ibt *ctx, struct inject *in)
{
	struct ibt_reply_u32 r = { IBTRACE_SIM_A_CAPTURE_ID, &in->id };
	struct timespec t0;
	struct nl_msg *msg;
	long left;
	int ret;

	ret = ibt_nl_open_family(ctx, &ibt_sim_family);
	if (ret)
		return ret;
	msg = inj_request(ctx, in);
	if (!msg)
		return IBT_EXIT_ERR;
	ibt_signals_hold(true);
	ctx->notify = inj_notify;
	ctx->notify_arg = in;

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "fabric", json_object_new_string(in->word[0]));
	ibt_out_field(ctx, "node", json_object_new_string(in->word[1]),
		      "Injected into %s node %s", in->word[0], in->word[1]);
	ibt_out_field(ctx, "port", json_object_new_uint64(in->port),
		      " port %u:", in->port);
	ibt_out_obj_begin(ctx, "sent");
	ibt_out_field(ctx, "dlid", json_object_new_uint64(in->dlid),
		      " dlid 0x%x", in->dlid);
	ibt_out_u64(ctx, "len", in->pkt_len);
	ibt_mad_print_brief(ctx, in->pkt, in->pkt_len);
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = ibt_nl_run(ctx, msg, ibt_nl_u32_cb, &r);
	while (!ret && !in->no_wait && !in->answered && !in->ended) {
		left = (long)in->wait_ms - inj_ms_since(&t0);
		if (left <= 0)
			break;
		ret = ibt_nl_wait_notify(ctx, (int)left);
	}
	if (ret)
		return ret;
	if (!in->answered && !in->no_wait)
		ibt_out_json(ctx, "answer", NULL);
	ibt_out_obj_end(ctx);
	ibt_out_finish(ctx);
	return inj_verdict(in);
}

static void inj_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] sim inject FABRIC NODE PORT\n"
	      "           (--class CLASS [--method M] [--attr ATTR] [--dr P1,P2,...] [fields]\n"
	      "            | --payload HEX) [--slid LID] [--dlid LID] [--sl N] [--vl N]\n"
	      "           [--sqp N] [--dqp N] [--qkey N] [--pkey N] [--sgid GID] [--dgid GID]\n"
	      "           [-t MS | --no-wait] [--allow-set] [--hex]\n"
	      "A packet put into fabric FABRIC as if node NODE (index, or name) sent it\n"
	      "out of its port PORT, a switch's as an HCA's, its headers as given; the\n"
	      "answer to its MAD comes back, wherever its DLID leads, and is shown.\n"
	      "  --class CLASS ...    the MAD, as mad send composes it (ibtracectl mad help)\n"
	      "  --payload HEX        the packet after DETH, hex bytes, instead (1.." IBT_STR(IBTRACE_SIM_INJECT_PAYLOAD_MAX) ")\n"
	      "  --slid LID           LRH SLID, forged (default: the port's, a switch's LID)\n"
	      "  --dlid LID           LRH DLID (a DR SMP: default 0xffff)\n"
	      "  --sl N, --vl N       LRH SL (0), VL (15 to QP0, else 0)\n"
	      "  --sqp N, --dqp N     DETH source QP, BTH destination QP (SMP classes: 0,\n"
	      "                       else 1)\n"
	      "  --qkey N, --pkey N   DETH Q_Key (QP0: 0, else 0x80010000), BTH P_Key (0xffff)\n"
	      "  --sgid GID, --dgid GID  a GRH: its SGID (default the port's GID), DGID\n"
	      "  -t, --timeout MS     wait so long for the answer (1.." IBT_STR(IBTRACE_SIM_INJECT_WAIT_MAX_MS) ", default 1000)\n"
	      "  --no-wait            do not wait for an answer\n"
	      IBT_MAD_REQ_USAGE
	      "Exit 6: no answer in time; 7: the answer had a non-zero MAD status.\n"
	      "Needs CAP_NET_ADMIN.\n", f);
}

int ibt_sim_inject(struct ibt *ctx)
{
	struct inject in = { 0 };
	int ret;

	ret = inj_parse(ctx, &in);
	if (!ret && !ibt_usage_if(in.help, inj_usage))
		ret = inj_run(ctx, &in);
	return ret;
}
