// SPDX-License-Identifier: GPL-2.0-only
/*
 * mad object: the exerciser's "mad send", any MAD from the kernel
 * (IBTRACE_CMD_MAD_SEND).
 *
 *   ibtracectl [-j] -d DEV [-p PORT] mad send --class CLASS [--method M]
 *              [--attr ATTR] [--attr-mod N] [field options] [--data HEX]
 *              (--dr P1,P2,... | --dlid LID | --dgid GID) [-c N] [-i MS]
 *              [-t MS] [-r N] [--no-wait] [--allow-set] [--hex]
 *
 * The kernel composes the MAD field by field, sends it -c times, one at a
 * time, and hands back each answer whole (IBTRACE_CMD_MAD_ANSWER); this
 * file asks and prints, mad_decode.c decodes. Text: a line per MAD, then
 * the answer's header and its attribute's fields (a hex dump for an
 * attribute the tool does not know, or with --hex):
 *
 *   Answer from lid 0x3 (ibtsim0/1): seq=1 time 0.123 ms
 *    base_version 1 class 0x81 (SubnDirectedRoute) ...
 *    node_type switch num_ports 8 ...
 *
 * JSON: one object. Keys: dev, port, class, method, attr_id, attr_mod,
 * dlid, dgid, dr_path (as asked); answers: an array of objects with seq,
 * status ("ok", "timeout", "remote_error", "send_error", "sent"), tid,
 * attempts, and when answered rtt_ns, slid, sgid, mad_status,
 * mad_status_text, mad (the header, an object), attr (the attribute's
 * fields, an object) or data (hex); summary: sent, received, errors,
 * rtt_min_ns, rtt_avg_ns, rtt_max_ns, rtt_p99_ns, rtt_median_ns;
 * interrupted (only when stopped by SIGINT).
 *
 * Exit: 0 when a MAD was answered with MAD status 0 (with --no-wait: when
 * every MAD was sent), 6 when none was answered, 7 when every answer had
 * a non-zero MAD status, 2 for a method that can change the fabric
 * without --allow-set.
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
	OPT_CLASS = IBT_OPT_DLID + 1,
	OPT_METHOD,
	OPT_ATTR,
	OPT_MKEY,
	OPT_COMP_MASK,
	OPT_DATA,
	OPT_DR,
	OPT_NO_WAIT,
	OPT_ALLOW_SET,
	OPT_HEX,
	OPT_ATTR_MOD,
	OPT_CLASS_VERSION,
	OPT_BASE_VERSION,
	OPT_STATUS,
	OPT_TID,
	OPT_OUI,
	OPT_DR_SLID,
	OPT_DR_DLID,
	OPT_HOP_PTR,
	OPT_SL,
	OPT_PKEY_INDEX,
	OPT_QPN,
};

struct mad {
	/* request */
	struct ibt_target tgt;
	uint8_t mgmt_class, method;
	bool has_class, has_method;
	const char *attr_word;		/* --attr, parsed once the class is known */
	uint16_t attr_id;
	uint32_t attr_mod, class_version, base_version, status, tid, oui;
	uint32_t dr_slid, dr_dlid, hop_ptr, sl, pkey_index, qpn;
	uint32_t count, interval_ms;
	bool has_attr_mod, has_class_version, has_base_version, has_status;
	bool has_tid, has_oui, has_dr_slid, has_dr_dlid, has_hop_ptr, has_sl;
	bool has_pkey_index, has_qpn, has_count, has_interval;
	uint64_t mkey, comp_mask;
	bool has_mkey, has_comp_mask;
	uint8_t data[IBTRACE_MAD_MAX_DATA];
	size_t data_len;
	uint8_t dr[IBTRACE_MAD_MAX_DR_HOPS];
	size_t dr_len;
	bool has_dr, no_wait, allow_set, hex;
	uint32_t port;
	char target[INET6_ADDRSTRLEN + 16];
	bool help;

	/* the job */
	struct ibt_job_follow job;

	/* results as they arrive */
	uint32_t nsent, ok, remote, timeouts, send_errors, sent_only;
	uint16_t last_status;
	uint64_t sum_val[IBTRACE_SUMMARY_A_MAX + 1];
	bool sum_have[IBTRACE_SUMMARY_A_MAX + 1];
};

static void mad_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] [--pretty] -d DEV [-p PORT] mad send --class CLASS\n"
	      "           [--method M] [--attr ATTR] [--attr-mod N]\n"
	      "           (--dr P1,P2,... | --dlid LID | --dgid GID) [-c N] [-i MS] [-t MS]\n"
	      "           [-r N] [--data HEX] [--no-wait] [--allow-set] [--hex] [fields]\n"
	      "  --class CLASS        dr (0x81), lid (0x01), sa, pma, ibtrace (0x30), cm,\n"
	      "                       or a number; with --dr, dr is the default\n"
	      "  --method M           get (default), set, gettable, trap, ... or a number\n"
	      "  --attr ATTR          NodeInfo, PortInfo, SwitchInfo, GUIDInfo, ... or a number\n"
	      "  --attr-mod N         attribute modifier (default 0)\n"
	      "  --dr P1,P2,...       directed route: the exit port of each hop (1..63 hops)\n"
	      "  --dlid LID           destination LID (with --dr: where its LID-routed part\n"
	      "                       starts)\n"
	      "  --dgid GID           destination GID (a GRH is sent)\n"
	      "  -c, --count N        MADs to send, one at a time, 1.." IBT_STR(IBTRACE_MAD_MAX_COUNT) " (default 1)\n"
	      "  -i, --interval MS    gap between them, 0.." IBT_STR(IBTRACE_PING_MAX_INTERVAL_MS) " (default 0)\n"
	      "  -t, --timeout MS     wait per attempt (default 1000)\n"
	      "  -r, --retries N      extra attempts after a timeout (default 3)\n"
	      "  --data HEX           attribute data, hex bytes (spaces and colons allowed),\n"
	      "                       at the class's data offset; at most " IBT_STR(IBTRACE_MAD_MAX_DATA) " bytes\n"
	      "  --no-wait            do not wait for answers\n"
	      "  --allow-set          allow a method that can change the fabric (Set, Trap,\n"
	      "                       Report, responses, ...)\n"
	      "  --hex                print the answer's data as hex, not decoded\n"
	      "Fields: --class-version N (sa: 2, else 1), --base-version N, --status N,\n"
	      "--tid N (low 32 bits), --mkey N, --oui N (ibtrace: 0x001405, else 0),\n"
	      "--comp-mask N, --dr-slid LID, --dr-dlid LID,\n"
	      "--hop-ptr N, --sl N, --pkey-index N, --qp N (GMPs, default 1).\n"
	      "Exit 6: no MAD answered; 7: every answer had a non-zero MAD status.\n", f);
}

static int mad_help(struct ibt *ctx)
{
	(void)ctx;
	mad_usage(stdout);
	return IBT_EXIT_OK;
}

#define MAD_OPT(f)	offsetof(struct mad, f)

/* Its options that take a 32-bit number. */
static const struct ibt_num_opt mad_nums[] = {
	{ "attr-mod", OPT_ATTR_MOD, "--attr-mod", 0, UINT32_MAX, "", "",
	  MAD_OPT(attr_mod), MAD_OPT(has_attr_mod) },
	{ "class-version", OPT_CLASS_VERSION, "--class-version", 0, 255, "", "",
	  MAD_OPT(class_version), MAD_OPT(has_class_version) },
	{ "base-version", OPT_BASE_VERSION, "--base-version", 0, 255, "", "",
	  MAD_OPT(base_version), MAD_OPT(has_base_version) },
	{ "status", OPT_STATUS, "--status", 0, 0xffff, "", "",
	  MAD_OPT(status), MAD_OPT(has_status) },
	{ "tid", OPT_TID, "--tid", 0, UINT32_MAX, "", "",
	  MAD_OPT(tid), MAD_OPT(has_tid) },
	{ "oui", OPT_OUI, "--oui", 0, 0xffffff, "", "",
	  MAD_OPT(oui), MAD_OPT(has_oui) },
	{ "dr-slid", OPT_DR_SLID, "--dr-slid", 0, 0xffff, "", "",
	  MAD_OPT(dr_slid), MAD_OPT(has_dr_slid) },
	{ "dr-dlid", OPT_DR_DLID, "--dr-dlid", 0, 0xffff, "", "",
	  MAD_OPT(dr_dlid), MAD_OPT(has_dr_dlid) },
	{ "hop-ptr", OPT_HOP_PTR, "--hop-ptr", 0, 255, "", "",
	  MAD_OPT(hop_ptr), MAD_OPT(has_hop_ptr) },
	{ "sl", OPT_SL, "--sl", 0, 15, "", "",
	  MAD_OPT(sl), MAD_OPT(has_sl) },
	{ "pkey-index", OPT_PKEY_INDEX, "--pkey-index", 0, 0xffff, "", "",
	  MAD_OPT(pkey_index), MAD_OPT(has_pkey_index) },
	{ "qp", OPT_QPN, "--qp", 1, 0xffffff, "", "",
	  MAD_OPT(qpn), MAD_OPT(has_qpn) },
	{ NULL, 'c', "-c", 1, IBTRACE_MAD_MAX_COUNT, "", "", MAD_OPT(count),
	  MAD_OPT(has_count) },
	{ NULL, 'i', "-i", 0, IBTRACE_PING_MAX_INTERVAL_MS, "", "",
	  MAD_OPT(interval_ms), MAD_OPT(has_interval) },
};

static int mad_u64_opt(const char *opt, const char *arg, uint64_t *val,
		       bool *has)
{
	if (ibt_parse_u64(arg, val))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad %s \"%s\": expected a number 0..0xffffffffffffffff",
			       opt, arg);
	*has = true;
	return 0;
}

/* An option of mad send (for ibt_args_parse()). */
static int mad_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct mad *m = a->priv;

	switch (c) {
	case OPT_CLASS:
		if (ibt_mad_parse_class(arg, &m->mgmt_class))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --class \"%s\": expected dr, lid, sa, pma, ibtrace, cm or a number 0..255",
				       arg);
		m->has_class = true;
		return 0;
	case OPT_METHOD:
		if (ibt_mad_parse_method(arg, &m->method))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --method \"%s\": expected get, set, gettable, trap, report, ... or a number 0..255",
				       arg);
		m->has_method = true;
		return 0;
	case OPT_ATTR:
		m->attr_word = arg;
		return 0;
	case OPT_MKEY:
		return mad_u64_opt("--mkey", arg, &m->mkey, &m->has_mkey);
	case OPT_COMP_MASK:
		return mad_u64_opt("--comp-mask", arg, &m->comp_mask,
				   &m->has_comp_mask);
	case OPT_DATA:
		if (ibt_parse_hex(arg, m->data, sizeof(m->data), &m->data_len) ||
		    !m->data_len)
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --data \"%s\": expected 1..%d hex bytes",
				       arg, IBTRACE_MAD_MAX_DATA);
		return 0;
	case OPT_DR:
		if (ibt_parse_sroute(arg, m->dr, sizeof(m->dr), &m->dr_len))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --dr \"%s\": expected 1..%d port numbers 0..255 separated by commas",
				       arg, IBTRACE_MAD_MAX_DR_HOPS);
		m->has_dr = true;
		return 0;
	case OPT_NO_WAIT:
		m->no_wait = true;
		return 0;
	case OPT_ALLOW_SET:
		m->allow_set = true;
		return 0;
	case OPT_HEX:
		m->hex = true;
		return 0;
	default:
		return IBT_OPT_UNKNOWN;
	}
}

/* Whether the method only reads (the kernel's rule for --allow-set). */
static bool mad_method_reads(uint8_t method)
{
	return method == 0x01 || method == 0x12 || method == 0x13 ||
	       method == 0x14;
}

/* The checks of the words after "mad send" that need them all. */
static int mad_check(struct ibt *ctx, struct mad *m)
{
	if (!m->has_class && m->has_dr)
		m->mgmt_class = 0x81, m->has_class = true;
	if (!m->has_class)
		return ibt_err(IBT_EXIT_USAGE, "mad send needs --class CLASS");
	if (!m->has_method)
		m->method = 0x01;
	if (m->attr_word &&
	    ibt_mad_parse_attr(m->mgmt_class, m->attr_word, &m->attr_id))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad --attr \"%s\": not an attribute of class 0x%02x known by name, nor a number 0..0xffff",
			       m->attr_word, m->mgmt_class);
	if (!mad_method_reads(m->method) && !m->allow_set)
		return ibt_err(IBT_EXIT_USAGE,
			       "method 0x%02x can change the fabric: add --allow-set to send it",
			       m->method);
	if (m->mgmt_class == 0x81 && !m->has_dr && !m->tgt.dest.has_dlid)
		m->has_dr = true;	/* hop count 0: the local port */
	if (!m->has_dr && !m->tgt.dest.has_dlid && !m->tgt.dest.has_dgid)
		return ibt_err(IBT_EXIT_USAGE,
			       "mad send needs --dr P1,P2,..., --dlid LID or --dgid GID");
	if (!ctx->dev)
		return ibt_err(IBT_EXIT_USAGE,
			       "mad send needs the device to send from: ibtracectl -d DEV mad send ...");
	if (!m->has_class_version && m->mgmt_class == 0x03)
		m->class_version = 2, m->has_class_version = true;
	if (!m->has_oui && m->mgmt_class == IBTRACE_MGMT_CLASS)
		m->oui = IBTRACE_OUI, m->has_oui = true;

	m->port = ctx->port ? ctx->port : 1;
	if (m->tgt.dest.has_dgid)
		inet_ntop(AF_INET6, m->tgt.dest.dgid, m->target, sizeof(m->target));
	else if (m->tgt.dest.has_dlid)
		snprintf(m->target, sizeof(m->target), "lid 0x%x", m->tgt.dest.dlid);
	else
		snprintf(m->target, sizeof(m->target), "the directed route");
	return 0;
}

/* Parse the words after "mad send"; IBT_EXIT_OK, or a printed exit code. */
static int mad_parse(struct ibt *ctx, struct mad *m)
{
	static const struct option opts[] = {
		{ "class",	required_argument,	NULL, OPT_CLASS },
		{ "method",	required_argument,	NULL, OPT_METHOD },
		{ "attr",	required_argument,	NULL, OPT_ATTR },
		{ "mkey",	required_argument,	NULL, OPT_MKEY },
		{ "comp-mask",	required_argument,	NULL, OPT_COMP_MASK },
		{ "data",	required_argument,	NULL, OPT_DATA },
		{ "dr",		required_argument,	NULL, OPT_DR },
		{ "no-wait",	no_argument,		NULL, OPT_NO_WAIT },
		{ "allow-set",	no_argument,		NULL, OPT_ALLOW_SET },
		{ "hex",	no_argument,		NULL, OPT_HEX },
		{ "count",	required_argument,	NULL, 'c' },
		{ "interval",	required_argument,	NULL, 'i' },
		{ NULL,		0,			NULL, 0 },
	};
	struct ibt_args a = {
		.obj = "mad", .cmd = "send", .opts = opts, .opt = mad_opt,
		.nums = mad_nums, .nnums = IBT_ARRAY_SIZE(mad_nums),
		.target = &m->tgt, .priv = m, .help = &m->help,
		.help_word = true,
	};
	int ret;

	ret = ibt_args_parse(ctx, &a);
	if (ret || m->help)
		return ret;
	return mad_check(ctx, m);
}

/* The request's attributes that options give, those given. */
static const struct ibt_req_opt mad_attrs[] = {
	{ IBTRACE_A_MAD_CLASS_VERSION, IBT_REQ_U8, MAD_OPT(class_version),
	  MAD_OPT(has_class_version) },
	{ IBTRACE_A_MAD_BASE_VERSION, IBT_REQ_U8, MAD_OPT(base_version),
	  MAD_OPT(has_base_version) },
	{ IBTRACE_A_MAD_ATTR_MOD, IBT_REQ_U32, MAD_OPT(attr_mod),
	  MAD_OPT(has_attr_mod) },
	{ IBTRACE_A_MAD_STATUS, IBT_REQ_U16, MAD_OPT(status),
	  MAD_OPT(has_status) },
	{ IBTRACE_A_MAD_TID, IBT_REQ_U32, MAD_OPT(tid), MAD_OPT(has_tid) },
	{ IBTRACE_A_MAD_OUI, IBT_REQ_U32, MAD_OPT(oui), MAD_OPT(has_oui) },
	{ IBTRACE_A_MAD_DR_SLID, IBT_REQ_U16, MAD_OPT(dr_slid),
	  MAD_OPT(has_dr_slid) },
	{ IBTRACE_A_MAD_DR_DLID, IBT_REQ_U16, MAD_OPT(dr_dlid),
	  MAD_OPT(has_dr_dlid) },
	{ IBTRACE_A_MAD_HOP_PTR, IBT_REQ_U8, MAD_OPT(hop_ptr),
	  MAD_OPT(has_hop_ptr) },
	{ IBTRACE_A_MAD_SL, IBT_REQ_U8, MAD_OPT(sl), MAD_OPT(has_sl) },
	{ IBTRACE_A_MAD_PKEY_INDEX, IBT_REQ_U16, MAD_OPT(pkey_index),
	  MAD_OPT(has_pkey_index) },
	{ IBTRACE_A_MAD_QPN, IBT_REQ_U32, MAD_OPT(qpn), MAD_OPT(has_qpn) },
	{ IBTRACE_A_MAD_COUNT, IBT_REQ_U32, MAD_OPT(count), MAD_OPT(has_count) },
	{ IBTRACE_A_MAD_INTERVAL_MS, IBT_REQ_U32, MAD_OPT(interval_ms),
	  MAD_OPT(has_interval) },
	{ IBTRACE_A_MAD_NO_WAIT, IBT_REQ_FLAG, 0, MAD_OPT(no_wait) },
	{ IBTRACE_A_MAD_ALLOW_SET, IBT_REQ_FLAG, 0, MAD_OPT(allow_set) },
};

static struct nl_msg *mad_request(struct ibt *ctx, struct mad *m)
{
	struct nl_msg *msg = ibt_nl_req(ctx, IBTRACE_CMD_MAD_SEND, false);
	struct ibt_dest *d = &m->tgt.dest;

	if (!msg)
		return NULL;
	if (ibt_nl_put_dev(ctx, msg, m->port) ||
	    nla_put_u8(msg, IBTRACE_A_MAD_CLASS, m->mgmt_class) < 0 ||
	    nla_put_u8(msg, IBTRACE_A_MAD_METHOD, m->method) < 0 ||
	    nla_put_u16(msg, IBTRACE_A_MAD_ATTR_ID, m->attr_id) < 0 ||
	    ibt_nl_put_dest(msg, d, IBTRACE_A_MAD_DGID, IBTRACE_A_MAD_DLID) ||
	    ibt_nl_put_opts(msg, mad_attrs, IBT_ARRAY_SIZE(mad_attrs), m) ||
	    ibt_nl_put_wait(msg, &m->tgt.wait, IBTRACE_A_MAD_TIMEOUT_MS,
			    IBTRACE_A_MAD_RETRIES) ||
	    (m->has_mkey && nla_put_u64(msg, IBTRACE_A_MAD_MKEY, m->mkey) < 0) ||
	    (m->has_comp_mask &&
	     nla_put_u64(msg, IBTRACE_A_MAD_COMP_MASK, m->comp_mask) < 0) ||
	    (m->data_len &&
	     nla_put(msg, IBTRACE_A_MAD_DATA, m->data_len, m->data) < 0) ||
	    (m->dr_len &&
	     nla_put(msg, IBTRACE_A_MAD_DR_PATH, m->dr_len, m->dr) < 0)) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* The answer MAD: its header, then its attribute decoded or in hex. */
static void mad_print_answer(struct ibt *ctx, const struct mad *m,
			     const uint8_t *mad, size_t len)
{
	ibt_mad_print_hdr(ctx, mad, len);
	if (m->hex || !ibt_mad_print_attr(ctx, mad, len))
		ibt_mad_print_hex(ctx, "data", mad, len);
}

/* Count one MAD's outcome; the words that start its text line. */
static const char *mad_count(struct mad *m, unsigned int status, uint16_t st)
{
	m->nsent++;
	switch (status) {
	case IBTRACE_PROBE_OK:
		m->ok++;
		return "Answer from";
	case IBTRACE_PROBE_REMOTE_ERROR:
		m->remote++;
		m->last_status = st;
		return "Answer from";
	case IBTRACE_PROBE_TIMEOUT:
		m->timeouts++;
		return "No answer from";
	case IBTRACE_PROBE_SENT:
		m->sent_only++;
		return "Sent to";
	default:
		m->send_errors++;
		return "Cannot send to";
	}
}

/* One IBTRACE_CMD_MAD_ANSWER: count it, print it. */
static int mad_answer(struct ibt *ctx, void *arg, struct nlattr *nest)
{
	struct nlattr *tb[IBTRACE_PROBE_A_MAX + 1];
	struct mad *m = arg;
	unsigned int status = ~0u;
	uint16_t st = 0;
	char buf[96];
	int ret;

	ret = ibt_nl_parse_nest(ctx, nest, tb);
	if (ret)
		return ret;
	if (tb[IBTRACE_PROBE_A_STATUS])
		status = nla_get_u8(tb[IBTRACE_PROBE_A_STATUS]);
	if (tb[IBTRACE_PROBE_A_MAD_STATUS])
		st = nla_get_u16(tb[IBTRACE_PROBE_A_MAD_STATUS]);
	ibt_out_text(ctx, "%s %s (%s/%u):", mad_count(m, status, st),
		     m->target, ctx->dev, m->port);

	ibt_out_obj_begin(ctx, NULL);
	ibt_probe_fields(ctx, tb);
	if (tb[IBTRACE_PROBE_A_TID]) {
		snprintf(buf, sizeof(buf), "0x%016" PRIx64,
			 (uint64_t)nla_get_u64(tb[IBTRACE_PROBE_A_TID]));
		ibt_out_json(ctx, "tid", json_object_new_string(buf));
	}
	ibt_out_eol(ctx);
	if (tb[IBTRACE_PROBE_A_MAD])
		mad_print_answer(ctx, m, nla_data(tb[IBTRACE_PROBE_A_MAD]),
				 nla_len(tb[IBTRACE_PROBE_A_MAD]));
	ibt_out_obj_end(ctx);
	return 0;
}

/* A message of the job but its answers: its end brings the summary. */
static int mad_msg(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		   void *arg)
{
	struct nlattr *st[IBTRACE_SUMMARY_A_MAX + 1];
	struct mad *m = arg;
	int i, ret;

	(void)nlh;
	if (!ibt_job_ended(&m->job, tb) || !tb[IBTRACE_A_MAD_SUMMARY])
		return 0;
	ret = ibt_nl_parse_nest(ctx, tb[IBTRACE_A_MAD_SUMMARY], st);
	if (ret)
		return ret;
	for (i = IBTRACE_SUMMARY_A_SENT; i <= IBTRACE_SUMMARY_A_MAX; i++) {
		if (!st[i])
			continue;
		m->sum_have[i] = true;
		m->sum_val[i] = i <= IBTRACE_SUMMARY_A_ERRORS ?
				nla_get_u32(st[i]) : nla_get_u64(st[i]);
	}
	return 0;
}

/* Its MADs come one a message as they are answered. */
static const struct ibt_job_kind mad_kind = {
	IBTRACE_CMD_MAD_ANSWER, IBTRACE_A_MAD_ANSWER, mad_answer, mad_msg,
};

static void mad_print_sum(struct ibt *ctx, const struct mad *m)
{
	static const struct ibt_num_key keys[] = {
		{ IBTRACE_SUMMARY_A_SENT,		"sent" },
		{ IBTRACE_SUMMARY_A_RECEIVED,		"received" },
		{ IBTRACE_SUMMARY_A_ERRORS,		"errors" },
		{ IBTRACE_SUMMARY_A_RTT_MIN_NS,		"rtt_min_ns" },
		{ IBTRACE_SUMMARY_A_RTT_AVG_NS,		"rtt_avg_ns" },
		{ IBTRACE_SUMMARY_A_RTT_MAX_NS,		"rtt_max_ns" },
		{ IBTRACE_SUMMARY_A_RTT_P99_NS,		"rtt_p99_ns" },
		{ IBTRACE_SUMMARY_A_RTT_MEDIAN_NS,	"rtt_median_ns" },
	};
	char b[2][32];

	ibt_out_obj_begin(ctx, "summary");
	ibt_out_nums(ctx, keys, IBT_ARRAY_SIZE(keys), m->sum_have, m->sum_val);
	ibt_out_obj_end(ctx);
	if (m->count <= 1 && m->nsent <= 1)
		return;
	ibt_out_text(ctx, "\n--- %s MAD statistics ---\n", m->target);
	ibt_out_text(ctx, "%u sent, %u answered, %u with an error status",
		     m->nsent, m->ok + m->remote, m->remote);
	if (m->sum_have[IBTRACE_SUMMARY_A_RTT_MEDIAN_NS] &&
	    m->sum_have[IBTRACE_SUMMARY_A_RTT_P99_NS])
		ibt_out_text(ctx, ", rtt median/p99 = %s/%s us",
			     ibt_ns_str(m->sum_val[IBTRACE_SUMMARY_A_RTT_MEDIAN_NS],
					1000, b[0], sizeof(b[0])),
			     ibt_ns_str(m->sum_val[IBTRACE_SUMMARY_A_RTT_P99_NS],
					1000, b[1], sizeof(b[1])));
	ibt_out_eol(ctx);
}

/* Exit code of a finished (or interrupted) send, with its one line. */
static int mad_verdict(const struct mad *m)
{
	char buf[96];

	if (m->ok || (m->no_wait && m->sent_only && !m->send_errors))
		return IBT_EXIT_OK;
	if (m->remote)
		return ibt_err(IBT_EXIT_REMOTE,
			       "every answer from %s carried a non-zero MAD status, last 0x%04x (%s)",
			       m->target, m->last_status,
			       ibt_mad_status_str(m->last_status, buf, sizeof(buf)));
	if (m->send_errors && !m->timeouts)
		return ibt_err(IBT_EXIT_ERR, "no MAD to %s could be sent",
			       m->target);
	if (m->no_wait)
		return ibt_err(IBT_EXIT_ERR, "not every MAD to %s could be sent",
			       m->target);
	return ibt_err(IBT_EXIT_TIMEOUT, "no answer from %s", m->target);
}

static int mad_run(struct ibt *ctx, struct mad *m)
{
	struct nl_msg *msg;
	bool interrupted;
	char buf[3 * IBTRACE_MAD_MAX_DR_HOPS + 1];
	int ret;

	ret = ibt_nl_open(ctx);
	if (ret)
		return ret;
	msg = mad_request(ctx, m);
	if (!msg)
		return IBT_EXIT_ERR;

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "dev", json_object_new_string(ctx->dev));
	ibt_out_json(ctx, "port", json_object_new_uint64(m->port));
	ibt_out_json(ctx, "class", json_object_new_uint64(m->mgmt_class));
	ibt_out_json(ctx, "method", json_object_new_uint64(m->method));
	ibt_out_json(ctx, "attr_id", json_object_new_uint64(m->attr_id));
	ibt_out_json(ctx, "attr_mod", json_object_new_uint64(m->attr_mod));
	if (m->tgt.dest.has_dlid)
		ibt_out_json(ctx, "dlid", json_object_new_uint64(m->tgt.dest.dlid));
	if (m->tgt.dest.has_dgid)
		ibt_out_gid(ctx, "dgid", m->tgt.dest.dgid);
	if (m->dr_len)
		ibt_out_json(ctx, "dr_path", json_object_new_string(
			     ibt_dr_path_str(m->dr, m->dr_len, buf, sizeof(buf))));
	ibt_out_arr_begin(ctx, "answers");

	/* SIGINT/SIGTERM cancel the job, as for ping (ping.c) */
	ret = ibt_job_run(ctx, msg, &m->job, &mad_kind, m);
	if (!ret)
		ret = ibt_job_result(ctx, &m->job, &interrupted);
	if (ret)
		return ret;

	ibt_out_arr_end(ctx);
	if (ctx->nl_lost)
		fprintf(stderr, "Warning: the kernel dropped answers (receive buffer full)\n");
	mad_print_sum(ctx, m);
	if (interrupted)
		ibt_out_json(ctx, "interrupted", json_object_new_boolean(true));
	ibt_out_obj_end(ctx);
	ibt_out_finish(ctx);
	return mad_verdict(m);
}

static int mad_send(struct ibt *ctx)
{
	struct mad m = { 0 };
	int ret;

	ret = mad_parse(ctx, &m);
	if (!ret && !ibt_usage_if(m.help, mad_usage))
		ret = mad_run(ctx, &m);
	return ret;
}

const struct ibt_cmd ibt_mad_cmds[] = {
	{ "send",	mad_send },
	{ "help",	mad_help },
	{ NULL,		NULL },
};
