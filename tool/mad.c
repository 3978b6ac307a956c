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
 * time, and hands back each answer whole (IBTRACE_CMD_MAD_ANSWER, with
 * one IBTRACE_A_MAD_ANSWER or, for a fast run, a batch of them); this
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
	OPT_NO_WAIT = IBT_OPT_DLID + 1,
	OPT_SL,
	OPT_PKEY_INDEX,
	OPT_QPN,
};

struct mad {
	/* request: the MAD first (ibt_mad_req_nums' offsets) */
	struct ibt_mad_req r;
	struct ibt_target tgt;
	uint32_t sl, pkey_index, qpn;
	uint32_t count, interval_ms;
	bool has_sl, has_pkey_index, has_qpn, has_count, has_interval;
	bool no_wait;
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

_Static_assert(offsetof(struct mad, r) == 0,
	       "ibt_mad_req_nums' offsets are from the start of struct mad");

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
	      IBT_MAD_REQ_USAGE
	      "  --no-wait            do not wait for answers\n"
	      "Addressing: --sl N, --pkey-index N, --qp N (GMPs, default 1).\n"
	      "Exit 6: no MAD answered; 7: every answer had a non-zero MAD status.\n", f);
}

static int mad_help(struct ibt *ctx)
{
	(void)ctx;
	mad_usage(stdout);
	return IBT_EXIT_OK;
}

#define MAD_OPT(f)	offsetof(struct mad, f)
#define MAD_REQ(f)	offsetof(struct ibt_mad_req, f)

/* The fields of a MAD that take a 32-bit number (struct ibt_mad_req). */
const struct ibt_num_opt ibt_mad_req_nums[IBT_MAD_REQ_NNUMS] = {
	{ "attr-mod", IBT_OPT_MAD_ATTR_MOD, "--attr-mod", 0, UINT32_MAX, "", "",
	  MAD_REQ(attr_mod), MAD_REQ(has_attr_mod) },
	{ "class-version", IBT_OPT_MAD_CLASS_VERSION, "--class-version", 0, 255,
	  "", "", MAD_REQ(class_version), MAD_REQ(has_class_version) },
	{ "base-version", IBT_OPT_MAD_BASE_VERSION, "--base-version", 0, 255,
	  "", "", MAD_REQ(base_version), MAD_REQ(has_base_version) },
	{ "status", IBT_OPT_MAD_STATUS, "--status", 0, 0xffff, "", "",
	  MAD_REQ(status), MAD_REQ(has_status) },
	{ "tid", IBT_OPT_MAD_TID, "--tid", 0, UINT32_MAX, "", "",
	  MAD_REQ(tid), MAD_REQ(has_tid) },
	{ "oui", IBT_OPT_MAD_OUI, "--oui", 0, 0xffffff, "", "",
	  MAD_REQ(oui), MAD_REQ(has_oui) },
	{ "dr-slid", IBT_OPT_MAD_DR_SLID, "--dr-slid", 0, 0xffff, "", "",
	  MAD_REQ(dr_slid), MAD_REQ(has_dr_slid) },
	{ "dr-dlid", IBT_OPT_MAD_DR_DLID, "--dr-dlid", 0, 0xffff, "", "",
	  MAD_REQ(dr_dlid), MAD_REQ(has_dr_dlid) },
	{ "hop-ptr", IBT_OPT_MAD_HOP_PTR, "--hop-ptr", 0, 255, "", "",
	  MAD_REQ(hop_ptr), MAD_REQ(has_hop_ptr) },
};

/* mad send's own options that take a 32-bit number. */
static const struct ibt_num_opt mad_nums[] = {
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

/* An option of a MAD's fields (IBT_MAD_REQ_OPTS), into @r. */
int ibt_mad_req_opt(int c, const char *arg, struct ibt_mad_req *r)
{
	switch (c) {
	case IBT_OPT_MAD_CLASS:
		if (ibt_mad_parse_class(arg, &r->mgmt_class))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --class \"%s\": expected dr, lid, sa, pma, ibtrace, cm or a number 0..255",
				       arg);
		r->has_class = true;
		return 0;
	case IBT_OPT_MAD_METHOD:
		if (ibt_mad_parse_method(arg, &r->method))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --method \"%s\": expected get, set, gettable, trap, report, ... or a number 0..255",
				       arg);
		r->has_method = true;
		return 0;
	case IBT_OPT_MAD_ATTR:
		r->attr_word = arg;
		return 0;
	case IBT_OPT_MAD_MKEY:
		return mad_u64_opt("--mkey", arg, &r->mkey, &r->has_mkey);
	case IBT_OPT_MAD_COMP_MASK:
		return mad_u64_opt("--comp-mask", arg, &r->comp_mask,
				   &r->has_comp_mask);
	case IBT_OPT_MAD_DATA:
		if (ibt_parse_hex(arg, r->data, sizeof(r->data), &r->data_len) ||
		    !r->data_len)
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --data \"%s\": expected 1..%d hex bytes",
				       arg, IBTRACE_MAD_MAX_DATA);
		return 0;
	case IBT_OPT_MAD_DR:
		if (ibt_parse_sroute(arg, r->dr, sizeof(r->dr), &r->dr_len))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --dr \"%s\": expected 1..%d port numbers 0..255 separated by commas",
				       arg, IBTRACE_MAD_MAX_DR_HOPS);
		r->has_dr = true;
		return 0;
	case IBT_OPT_MAD_ALLOW_SET:
		r->allow_set = true;
		return 0;
	case IBT_OPT_MAD_HEX:
		r->hex = true;
		return 0;
	default:
		return ibt_opt_nums(ibt_mad_req_nums, IBT_MAD_REQ_NNUMS, c, arg, r);
	}
}

/* An option of mad send (for ibt_args_parse()). */
static int mad_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct mad *m = a->priv;

	if (c == OPT_NO_WAIT) {
		m->no_wait = true;
		return 0;
	}
	return ibt_mad_req_opt(c, arg, &m->r);
}

/*
 * The checks of a MAD's fields that need them all, and their defaults:
 * IBT_EXIT_OK or a printed exit code. @what: the command, in errors.
 */
int ibt_mad_req_check(struct ibt_mad_req *r, const char *what)
{
	if (!r->has_class && r->has_dr)
		r->mgmt_class = 0x81, r->has_class = true;
	if (!r->has_class)
		return ibt_err(IBT_EXIT_USAGE, "%s needs --class CLASS", what);
	if (!r->has_method)
		r->method = 0x01;
	if (r->attr_word &&
	    ibt_mad_parse_attr(r->mgmt_class, r->attr_word, &r->attr_id))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad --attr \"%s\": not an attribute of class 0x%02x known by name, nor a number 0..0xffff",
			       r->attr_word, r->mgmt_class);
	if (!ibtrace_mad_method_reads(r->method) && !r->allow_set)
		return ibt_err(IBT_EXIT_USAGE,
			       "method 0x%02x can change the fabric: add --allow-set to send it",
			       r->method);
	if (!r->has_class_version && r->mgmt_class == 0x03)
		r->class_version = 2, r->has_class_version = true;
	if (!r->has_oui && r->mgmt_class == IBTRACE_MGMT_CLASS)
		r->oui = IBTRACE_OUI, r->has_oui = true;
	return IBT_EXIT_OK;
}

/* The checks of the words after "mad send" that need them all. */
static int mad_check(struct ibt *ctx, struct mad *m)
{
	int ret = ibt_mad_req_check(&m->r, "mad send");

	if (ret)
		return ret;
	if (m->r.mgmt_class == 0x81 && !m->r.has_dr && !m->tgt.dest.has_dlid)
		m->r.has_dr = true;	/* hop count 0: the local port */
	if (!m->r.has_dr && !m->tgt.dest.has_dlid && !m->tgt.dest.has_dgid)
		return ibt_err(IBT_EXIT_USAGE,
			       "mad send needs --dr P1,P2,..., --dlid LID or --dgid GID");
	if (!ctx->dev)
		return ibt_err(IBT_EXIT_USAGE,
			       "mad send needs the device to send from: ibtracectl -d DEV mad send ...");

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
		IBT_MAD_REQ_OPTS,
		{ "no-wait",	no_argument,		NULL, OPT_NO_WAIT },
		{ "count",	required_argument,	NULL, 'c' },
		{ "interval",	required_argument,	NULL, 'i' },
		{ NULL,		0,			NULL, 0 },
	};
	struct ibt_num_opt nums[IBT_ARRAY_SIZE(mad_nums) + IBT_MAD_REQ_NNUMS];
	struct ibt_args a = {
		.obj = "mad", .cmd = "send", .opts = opts, .opt = mad_opt,
		.nums = nums, .nnums = IBT_ARRAY_SIZE(nums),
		.target = &m->tgt, .priv = m, .help = &m->help,
		.help_word = true,
	};
	int ret;

	/* the MAD's fields are at the start of struct mad */
	memcpy(nums, mad_nums, sizeof(mad_nums));
	memcpy(nums + IBT_ARRAY_SIZE(mad_nums), ibt_mad_req_nums,
	       sizeof(ibt_mad_req_nums));
	ret = ibt_args_parse(ctx, &a);
	if (ret || m->help)
		return ret;
	return mad_check(ctx, m);
}

/* The request's attributes that options give, those given. */
static const struct ibt_req_opt mad_attrs[] = {
	{ IBTRACE_A_MAD_CLASS_VERSION, IBT_REQ_U8, MAD_OPT(r.class_version),
	  MAD_OPT(r.has_class_version) },
	{ IBTRACE_A_MAD_BASE_VERSION, IBT_REQ_U8, MAD_OPT(r.base_version),
	  MAD_OPT(r.has_base_version) },
	{ IBTRACE_A_MAD_ATTR_MOD, IBT_REQ_U32, MAD_OPT(r.attr_mod),
	  MAD_OPT(r.has_attr_mod) },
	{ IBTRACE_A_MAD_STATUS, IBT_REQ_U16, MAD_OPT(r.status),
	  MAD_OPT(r.has_status) },
	{ IBTRACE_A_MAD_TID, IBT_REQ_U32, MAD_OPT(r.tid), MAD_OPT(r.has_tid) },
	{ IBTRACE_A_MAD_OUI, IBT_REQ_U32, MAD_OPT(r.oui), MAD_OPT(r.has_oui) },
	{ IBTRACE_A_MAD_DR_SLID, IBT_REQ_U16, MAD_OPT(r.dr_slid),
	  MAD_OPT(r.has_dr_slid) },
	{ IBTRACE_A_MAD_DR_DLID, IBT_REQ_U16, MAD_OPT(r.dr_dlid),
	  MAD_OPT(r.has_dr_dlid) },
	{ IBTRACE_A_MAD_HOP_PTR, IBT_REQ_U8, MAD_OPT(r.hop_ptr),
	  MAD_OPT(r.has_hop_ptr) },
	{ IBTRACE_A_MAD_SL, IBT_REQ_U8, MAD_OPT(sl), MAD_OPT(has_sl) },
	{ IBTRACE_A_MAD_PKEY_INDEX, IBT_REQ_U16, MAD_OPT(pkey_index),
	  MAD_OPT(has_pkey_index) },
	{ IBTRACE_A_MAD_QPN, IBT_REQ_U32, MAD_OPT(qpn), MAD_OPT(has_qpn) },
	{ IBTRACE_A_MAD_COUNT, IBT_REQ_U32, MAD_OPT(count), MAD_OPT(has_count) },
	{ IBTRACE_A_MAD_INTERVAL_MS, IBT_REQ_U32, MAD_OPT(interval_ms),
	  MAD_OPT(has_interval) },
	{ IBTRACE_A_MAD_NO_WAIT, IBT_REQ_FLAG, 0, MAD_OPT(no_wait) },
	{ IBTRACE_A_MAD_ALLOW_SET, IBT_REQ_FLAG, 0, MAD_OPT(r.allow_set) },
};

static struct nl_msg *mad_request(struct ibt *ctx, struct mad *m)
{
	struct nl_msg *msg = ibt_nl_req(ctx, IBTRACE_CMD_MAD_SEND, false);
	struct ibt_dest *d = &m->tgt.dest;

	if (!msg)
		return NULL;
	if (ibt_nl_put_dev(ctx, msg, m->port) ||
	    nla_put_u8(msg, IBTRACE_A_MAD_CLASS, m->r.mgmt_class) < 0 ||
	    nla_put_u8(msg, IBTRACE_A_MAD_METHOD, m->r.method) < 0 ||
	    nla_put_u16(msg, IBTRACE_A_MAD_ATTR_ID, m->r.attr_id) < 0 ||
	    ibt_nl_put_dest(msg, d, IBTRACE_A_MAD_DGID, IBTRACE_A_MAD_DLID) ||
	    ibt_nl_put_opts(msg, mad_attrs, IBT_ARRAY_SIZE(mad_attrs), m) ||
	    ibt_nl_put_wait(msg, &m->tgt.wait, IBTRACE_A_MAD_TIMEOUT_MS,
			    IBTRACE_A_MAD_RETRIES) ||
	    (m->r.has_mkey && nla_put_u64(msg, IBTRACE_A_MAD_MKEY, m->r.mkey) < 0) ||
	    (m->r.has_comp_mask &&
	     nla_put_u64(msg, IBTRACE_A_MAD_COMP_MASK, m->r.comp_mask) < 0) ||
	    (m->r.data_len &&
	     nla_put(msg, IBTRACE_A_MAD_DATA, m->r.data_len, m->r.data) < 0) ||
	    (m->r.dr_len &&
	     nla_put(msg, IBTRACE_A_MAD_DR_PATH, m->r.dr_len, m->r.dr) < 0)) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* An answer MAD: its header, then its attribute decoded, or in @hex. */
void ibt_mad_print_answer(struct ibt *ctx, const uint8_t *mad, size_t len,
			  bool hex)
{
	ibt_mad_print_hdr(ctx, mad, len);
	if (hex || !ibt_mad_print_attr(ctx, mad, len))
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
		ibt_mad_print_answer(ctx, nla_data(tb[IBTRACE_PROBE_A_MAD]),
				     nla_len(tb[IBTRACE_PROBE_A_MAD]), m->r.hex);
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
	ibt_out_json(ctx, "class", json_object_new_uint64(m->r.mgmt_class));
	ibt_out_json(ctx, "method", json_object_new_uint64(m->r.method));
	ibt_out_json(ctx, "attr_id", json_object_new_uint64(m->r.attr_id));
	ibt_out_json(ctx, "attr_mod", json_object_new_uint64(m->r.attr_mod));
	if (m->tgt.dest.has_dlid)
		ibt_out_json(ctx, "dlid", json_object_new_uint64(m->tgt.dest.dlid));
	if (m->tgt.dest.has_dgid)
		ibt_out_gid(ctx, "dgid", m->tgt.dest.dgid);
	if (m->r.dr_len)
		ibt_out_json(ctx, "dr_path", json_object_new_string(
			     ibt_dr_path_str(m->r.dr, m->r.dr_len, buf, sizeof(buf))));
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
