// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim capture: the packets crossing the links of a node of an ibtrace_sim
 * fabric (IBTRACE_SIM_CMD_CAPTURE_START), both ways, as they cross.
 *
 *   ibtracectl [-j] sim capture FABRIC NODE [PORT] [-w FILE] [-c COUNT]
 *                   [-B KIB]
 *
 * NODE is an index if all digits, else a name; without PORT every port of
 * the node is captured. -w writes a pcap file (nanosecond timestamps,
 * link type LINKTYPE_ERF, each packet an ERF record of type InfiniBand,
 * as ibdump writes them: Wireshark and tshark dissect LRH, GRH, BTH, DETH
 * and the MADs; libpcap's LINKTYPE_INFINIBAND, 247, is not one that
 * Wireshark reads); without it each packet is a line:
 *
 *   12:00:01.123456789 S1/1 in  lid 0x1 > 0xffff sl 0 vl 15 qp 0 > 0 len 296
 *       SubnDirectedRoute Get NodeInfo tid 0x0000000500000008 hop 1/1
 *
 * (one line), and with -j an object per packet (time_ns, node, port, dir
 * "in" or "out", slid, dlid, sl, vl, sqp, dqp, len, and for MADs class,
 * method, attr_id, tid, status; the names in class_name, method_name,
 * attr_name). The capture ends after -c COUNT packets, on SIGINT or
 * SIGTERM, or when the fabric is deleted; then a summary: packets seen,
 * written and lost. The kernel hands the packets to the tool's socket
 * without blocking: its receive buffer (-B, KiB; default 1024) is the
 * capture's buffer, and what does not fit is lost, counted and reported
 * ("Warning: N packets lost"). Exit 0, or as every sim command.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include <linux/ibtrace_sim.h>

#include "ibtracectl.h"

/* pcap file format: nanosecond-resolution magic, version 2.4 */
#define PCAP_MAGIC_NS		0xa1b23c4d
#define PCAP_SNAPLEN		65535
#define LINKTYPE_ERF		197
/* ERF record header: 16 bytes; record type InfiniBand; varying length */
#define ERF_HDR_LEN		16
#define ERF_TYPE_INFINIBAND	21
#define ERF_FLAG_VLEN		0x04

/* Wire layout, as the kernel writes it (kmod/sim/capture.c). */
#define LRH_LEN			8
#define GRH_LEN			40
#define BTH_LEN			12
#define DETH_LEN		8
#define IMM_LEN			4
#define ICRC_VCRC_LEN		6
#define LNH_GLOBAL		0x3
#define OP_UD_SEND_IMM		0x65

enum {
	OPT_WRITE = 'w',
	OPT_COUNT = 'c',
	OPT_BUFFER = 'B',
};

struct cap {
	/* request */
	const char *word[3];		/* FABRIC NODE [PORT] */
	uint32_t port, count, buffer_kib;
	bool has_port, has_count, has_buffer;
	const char *file;
	bool help;

	/* the capture */
	FILE *f;
	uint32_t id;
	bool ended;
	uint8_t end_why;
	bool end_seen;
	uint64_t seen, lost, written;
	uint64_t lost_written;		/* lost before the last record written */
	int err;			/* an exit code from a callback */
};

static const struct ibt_num_opt cap_nums[] = {
	{ "count", OPT_COUNT, "-c", 1, IBTRACE_SIM_CAPTURE_MAX_COUNT, "", "",
	  offsetof(struct cap, count), offsetof(struct cap, has_count) },
	{ "buffer", OPT_BUFFER, "-B", 4, 1048576, "", " KiB",
	  offsetof(struct cap, buffer_kib), offsetof(struct cap, has_buffer) },
};

static int cap_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct cap *cp = a->priv;

	if (c != OPT_WRITE)
		return IBT_OPT_UNKNOWN;
	cp->file = arg;
	return 0;
}

static int cap_parse(struct ibt *ctx, struct cap *cp)
{
	static const struct option opts[] = {
		{ "write",	required_argument,	NULL, OPT_WRITE },
		{ NULL,		0,			NULL, 0 },
	};
	struct ibt_args a = {
		.obj = "sim", .cmd = "capture", .opts = opts, .permute = true,
		.opt = cap_opt, .nums = cap_nums,
		.nnums = IBT_ARRAY_SIZE(cap_nums), .priv = cp,
		.help = &cp->help, .help_word = true,
		.words = { cp->word, 2, 3, "a FABRIC and a NODE" },
	};
	int ret = ibt_args_parse(ctx, &a);

	if (ret || cp->help)
		return ret;
	if (ibt_sim_name_ok(cp->word[0]))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad fabric name \"%s\": 1..%d characters out of A-Z a-z 0-9 _ . -",
			       cp->word[0], IBTRACE_SIM_NAME_MAX);
	if (cp->word[2]) {
		if (ibt_parse_u32(cp->word[2], 1, IBTRACE_SIM_PORTS_MAX,
				  &cp->port))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad PORT \"%s\": expected a port number 1..%d",
				       cp->word[2], IBTRACE_SIM_PORTS_MAX);
		cp->has_port = true;
	}
	return 0;
}

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, sizeof(v), 1, f);
}

/* The pcap file's header: host byte order, as readers expect. */
static int pcap_open(struct cap *cp)
{
	cp->f = fopen(cp->file, "w");
	if (!cp->f)
		return ibt_err(IBT_EXIT_ERR, "cannot write %s: %s", cp->file,
			       strerror(errno));
	put32(cp->f, PCAP_MAGIC_NS);
	put32(cp->f, 2 | 4 << 16);	/* version 2.4: two u16, little end */
	put32(cp->f, 0);		/* thiszone */
	put32(cp->f, 0);		/* sigfigs */
	put32(cp->f, PCAP_SNAPLEN);
	put32(cp->f, LINKTYPE_ERF);
	return fflush(cp->f) ? ibt_err(IBT_EXIT_ERR, "cannot write %s: %s",
				       cp->file, strerror(errno)) : 0;
}

/*
 * A packet: the pcap record header, then the ERF header (its timestamp
 * little-endian, seconds in the high 32 bits and the binary fraction in
 * the low; its lengths big-endian; the loss counter the packets lost
 * since the previous record) and the packet.
 */
static int pcap_write(struct cap *cp, uint64_t ns, const uint8_t *p,
		      uint32_t len, uint64_t lost)
{
	uint64_t frac = (ns % 1000000000) * (1ULL << 32) / 1000000000;
	uint64_t ts = (ns / 1000000000) << 32 | frac;
	uint64_t lctr = lost - cp->lost_written;
	uint8_t erf[ERF_HDR_LEN];
	uint32_t rlen = ERF_HDR_LEN + len;
	int i;

	for (i = 0; i < 8; i++)
		erf[i] = ts >> (8 * i);
	erf[8] = ERF_TYPE_INFINIBAND;
	erf[9] = ERF_FLAG_VLEN;
	erf[10] = rlen >> 8;
	erf[11] = rlen;
	erf[12] = (lctr > 0xffff ? 0xffff : lctr) >> 8;
	erf[13] = lctr > 0xffff ? 0xff : lctr;
	erf[14] = len >> 8;
	erf[15] = len;
	cp->lost_written = lost;
	put32(cp->f, ns / 1000000000);
	put32(cp->f, ns % 1000000000);
	put32(cp->f, rlen);
	put32(cp->f, rlen);
	fwrite(erf, 1, sizeof(erf), cp->f);
	fwrite(p, 1, len, cp->f);
	if (fflush(cp->f))
		return ibt_err(IBT_EXIT_ERR, "cannot write %s: %s", cp->file,
			       strerror(errno));
	cp->written++;
	return 0;
}

/* A big-endian field of @n bytes of a packet's headers. */
static uint32_t be(const uint8_t *p, int n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/*
 * Where the payload of a packet as on the wire (LRH, GRH, BTH, DETH,
 * payload and pad, ICRC, VCRC) starts, its length (pad included) into
 * *@plen; 0 when @len is too short for the headers.
 */
size_t ibt_wire_payload(const uint8_t *p, size_t len, size_t *plen)
{
	size_t off = LRH_LEN;

	if (len >= LRH_LEN && (p[1] & 3) == LNH_GLOBAL)
		off += GRH_LEN;
	if (len < off + BTH_LEN + DETH_LEN + ICRC_VCRC_LEN)
		return 0;
	off += BTH_LEN + DETH_LEN;
	if (p[off - BTH_LEN - DETH_LEN] == OP_UD_SEND_IMM)
		off += IMM_LEN;
	if (len < off + ICRC_VCRC_LEN)
		return 0;
	*plen = len - off - ICRC_VCRC_LEN;
	return off;
}

/*
 * A packet as on the wire: its addresses, and the MAD it carries to QP0
 * or QP1 in brief, as words of the line the caller has begun (JSON:
 * fields of its object).
 */
void ibt_wire_print(struct ibt *ctx, const uint8_t *p, size_t len)
{
	size_t off = LRH_LEN;

	if (len >= LRH_LEN + BTH_LEN + DETH_LEN) {
		if ((p[1] & 3) == LNH_GLOBAL)
			off += GRH_LEN;
		ibt_out_field(ctx, "slid", json_object_new_uint64(be(p + 6, 2)),
			      " lid 0x%x", be(p + 6, 2));
		ibt_out_field(ctx, "dlid", json_object_new_uint64(be(p + 2, 2)),
			      " > 0x%x", be(p + 2, 2));
		ibt_out_field(ctx, "sl", json_object_new_uint64(p[1] >> 4),
			      " sl %u", p[1] >> 4);
		ibt_out_field(ctx, "vl", json_object_new_uint64(p[0] >> 4),
			      " vl %u", p[0] >> 4);
	}
	if (len >= off + BTH_LEN + DETH_LEN) {
		const uint8_t *bth = p + off, *deth = bth + BTH_LEN;
		size_t plen, pay = ibt_wire_payload(p, len, &plen);

		ibt_out_field(ctx, "sqp", json_object_new_uint64(be(deth + 5, 3)),
			      " qp %u", be(deth + 5, 3));
		ibt_out_field(ctx, "dqp", json_object_new_uint64(be(bth + 5, 3)),
			      " > %u", be(bth + 5, 3));
		ibt_out_u64(ctx, "len", len);
		if (be(bth + 5, 3) <= 1 && pay)
			ibt_mad_print_brief(ctx, p + pay, plen);
	}
}

/* One packet, as a line (JSON: an object). */
static void print_pkt(struct ibt *ctx, struct nlattr **tb, const uint8_t *p,
		      uint32_t len)
{
	uint64_t ns = ibt_nla_uint(tb[IBTRACE_SIM_A_CAPTURE_TIME_NS]);
	unsigned int dir = nla_get_u8(tb[IBTRACE_SIM_A_CAPTURE_DIR]);
	time_t sec = ns / 1000000000;
	char when[32];
	struct tm tm;

	localtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	ibt_out_obj_begin(ctx, NULL);
	ibt_out_field(ctx, "time_ns", json_object_new_uint64(ns), "%s.%09" PRIu64,
		      when, ns % 1000000000);
	ibt_out_field(ctx, "node",
		      json_object_new_uint64(nla_get_u32(tb[IBTRACE_SIM_A_NODE_INDEX])),
		      " node %u", nla_get_u32(tb[IBTRACE_SIM_A_NODE_INDEX]));
	ibt_out_field(ctx, "port",
		      json_object_new_uint64(nla_get_u32(tb[IBTRACE_SIM_A_CAPTURE_PORT])),
		      "/%u", nla_get_u32(tb[IBTRACE_SIM_A_CAPTURE_PORT]));
	ibt_out_field(ctx, "dir", json_object_new_string(dir ? "in" : "out"),
		      " %-3s", dir ? "in" : "out");
	ibt_wire_print(ctx, p, len);
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
}

/*
 * A capture's message (a packet, or the capture's end) parsed into @tb
 * (IBTRACE_SIM_A_MAX + 1 entries), its command in @cmd; @cmd is 0 for any
 * other message. Returns 0 or an exit code.
 */
int ibt_capture_parse(struct ibt *ctx, struct nlmsghdr *nlh,
		      struct nlattr **tb, uint8_t *cmd)
{
	struct genlmsghdr *g = nlmsg_data(nlh);

	*cmd = 0;
	if (g->cmd != IBTRACE_SIM_CMD_CAPTURE_PKT &&
	    g->cmd != IBTRACE_SIM_CMD_CAPTURE_END)
		return 0;
	*cmd = g->cmd;
	return ibt_nl_parse(ctx, nlh, tb);
}

/* A message of the capture: a packet, or its end. */
static int cap_notify(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[IBTRACE_SIM_A_MAX + 1];
	struct cap *cp = arg;
	uint8_t cmd;
	int ret;

	ret = ibt_capture_parse(ctx, nlh, tb, &cmd);
	if (ret || !cmd)
		return ret;
	if (tb[IBTRACE_SIM_A_CAPTURE_SEEN])
		cp->seen = ibt_nla_uint(tb[IBTRACE_SIM_A_CAPTURE_SEEN]);
	if (tb[IBTRACE_SIM_A_CAPTURE_LOST])
		cp->lost = ibt_nla_uint(tb[IBTRACE_SIM_A_CAPTURE_LOST]);
	if (cmd == IBTRACE_SIM_CMD_CAPTURE_END) {
		cp->ended = true;
		cp->end_seen = true;
		if (tb[IBTRACE_SIM_A_CAPTURE_END])
			cp->end_why = nla_get_u8(tb[IBTRACE_SIM_A_CAPTURE_END]);
		return 0;
	}
	if (!tb[IBTRACE_SIM_A_CAPTURE_DATA] || !tb[IBTRACE_SIM_A_CAPTURE_TIME_NS] ||
	    !tb[IBTRACE_SIM_A_CAPTURE_DIR] || !tb[IBTRACE_SIM_A_NODE_INDEX] ||
	    !tb[IBTRACE_SIM_A_CAPTURE_PORT])
		return ibt_err(IBT_EXIT_ERR, "malformed kernel message: a captured packet without its data");
	if (cp->f)
		return pcap_write(cp, ibt_nla_uint(tb[IBTRACE_SIM_A_CAPTURE_TIME_NS]),
				  nla_data(tb[IBTRACE_SIM_A_CAPTURE_DATA]),
				  nla_len(tb[IBTRACE_SIM_A_CAPTURE_DATA]), cp->lost);
	print_pkt(ctx, tb, nla_data(tb[IBTRACE_SIM_A_CAPTURE_DATA]),
		  nla_len(tb[IBTRACE_SIM_A_CAPTURE_DATA]));
	cp->written++;
	return 0;
}

static struct nl_msg *cap_request(struct ibt *ctx, struct cap *cp)
{
	struct nl_msg *msg = ibt_sim_node_req(ctx, IBTRACE_SIM_CMD_CAPTURE_START,
					      cp->word[0], cp->word[1]);
	int err = 0;

	if (!msg)
		return NULL;
	if (cp->has_port)
		err = nla_put_u32(msg, IBTRACE_SIM_A_CAPTURE_PORT, cp->port);
	if (!err && cp->has_count)
		err = nla_put_u32(msg, IBTRACE_SIM_A_CAPTURE_COUNT, cp->count);
	if (err < 0) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* Stop the capture (a signal): its end message follows. */
static int cap_stop(struct ibt *ctx, struct cap *cp)
{
	struct nl_msg *msg = ibt_nl_req_u32(ctx, IBTRACE_SIM_CMD_CAPTURE_STOP,
					    false, IBTRACE_SIM_A_CAPTURE_ID,
					    cp->id);
	int ret;

	if (!msg)
		return IBT_EXIT_ERR;
	ret = ibt_nl_exchange(ctx, msg, NULL, NULL);
	/* ENOENT: it ended on its own meanwhile */
	return ret == -ENOENT ? 0 : ret < 0 ? ibt_nl_report(ctx, -ret) : ret;
}

static void cap_summary(struct ibt *ctx, const struct cap *cp)
{
	static const char *const why[] = {
		[IBTRACE_SIM_CAPTURE_END_COUNT] = "count",
		[IBTRACE_SIM_CAPTURE_END_STOPPED] = "stopped",
		[IBTRACE_SIM_CAPTURE_END_FABRIC_GONE] = "fabric_gone",
	};
	const char *w = cp->end_seen && cp->end_why < IBT_ARRAY_SIZE(why) ?
			why[cp->end_why] : "stopped";

	ibt_out_obj_begin(ctx, "summary");
	ibt_out_json(ctx, "seen", json_object_new_uint64(cp->seen));
	ibt_out_json(ctx, "written", json_object_new_uint64(cp->written));
	ibt_out_json(ctx, "lost", json_object_new_uint64(cp->lost));
	ibt_out_json(ctx, "end", json_object_new_string(w));
	ibt_out_obj_end(ctx);
	if (!ctx->json || cp->file)
		fprintf(ctx->json ? stderr : stdout,
			"%" PRIu64 " packets captured, %" PRIu64 " lost (%s)\n",
			cp->written, cp->lost,
			!strcmp(w, "count") ? "count reached" :
			!strcmp(w, "fabric_gone") ? "the fabric was deleted" :
						    "stopped");
	if (cp->lost)
		fprintf(stderr,
			"Warning: %" PRIu64 " packets lost: the reader was too slow for the receive buffer (-B)\n",
			cp->lost);
}

/* As tcpdump's "listening on": the kernel has started the capture. */
static void cap_started(const struct cap *cp)
{
	char port[16] = "every port";

	if (cp->has_port)
		snprintf(port, sizeof(port), "port %u", cp->port);
	fprintf(stderr, "capturing at %s %s %s%s%s\n", cp->word[0], cp->word[1],
		port, cp->file ? " to " : "", cp->file ? cp->file : "");
}

static int cap_run(struct ibt *ctx, struct cap *cp)
{
	struct ibt_reply_u32 r = { IBTRACE_SIM_A_CAPTURE_ID, &cp->id };
	struct nl_msg *msg;
	int ret, i;

	ret = ibt_nl_open_family(ctx, &ibt_sim_family);
	if (ret)
		return ret;
	if (cp->has_buffer) {
		int size = cp->buffer_kib * 1024;

		setsockopt(nl_socket_get_fd(ctx->sk), SOL_SOCKET, SO_RCVBUF,
			   &size, sizeof(size));
	}
	if (cp->file) {
		ret = pcap_open(cp);
		if (ret)
			return ret;
	}
	ibt_signals_hold(true);
	ctx->notify = cap_notify;
	ctx->notify_arg = cp;
	ibt_out_obj_begin(ctx, NULL);
	ibt_out_arr_begin(ctx, "packets");
	msg = cap_request(ctx, cp);
	if (!msg)
		return IBT_EXIT_ERR;
	ret = ibt_nl_run(ctx, msg, ibt_nl_u32_cb, &r);
	if (!ret)
		cap_started(cp);
	while (!ret && !cp->ended) {
		ret = ibt_nl_wait_notify(ctx, 1000);
		if (ret != IBT_EXIT_INTR)
			continue;
		/* SIGINT or SIGTERM: stop; its end message follows */
		ibt_interrupted = 0;
		ret = cap_stop(ctx, cp);
		for (i = 0; !ret && !cp->ended && i < 5; i++)
			ret = ibt_nl_wait_notify(ctx, 1000);
		if (ret == IBT_EXIT_INTR)
			ret = 0;	/* the same signal again */
		break;
	}
	ibt_out_arr_end(ctx);
	if (cp->f && fclose(cp->f) && !ret)
		ret = ibt_err(IBT_EXIT_ERR, "cannot write %s: %s", cp->file,
			      strerror(errno));
	cp->f = NULL;
	if (ret)
		return ret;
	cap_summary(ctx, cp);
	ibt_out_obj_end(ctx);
	ibt_out_finish(ctx);
	return 0;
}

static void cap_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] sim capture FABRIC NODE [PORT] [-w FILE] [-c COUNT]\n"
	      "                       [-B KIB]\n"
	      "The packets crossing the links of node NODE (index, or name) of fabric\n"
	      "FABRIC, of its port PORT or of every port, both ways: a line each, or\n"
	      "with -w FILE a pcap file (ERF records of type InfiniBand, as ibdump's)\n"
	      "for Wireshark or tshark.\n"
	      "  -w, --write FILE   write the packets to FILE (pcap)\n"
	      "  -c, --count COUNT  stop after COUNT packets (1.." IBT_STR(IBTRACE_SIM_CAPTURE_MAX_COUNT) ")\n"
	      "  -B, --buffer KIB   receive buffer, KiB (default 1024): packets that do\n"
	      "                     not fit are lost, and counted\n"
	      "Ctrl-C ends the capture. Needs CAP_NET_ADMIN.\n", f);
}

int ibt_sim_capture(struct ibt *ctx)
{
	struct cap cp = { 0 };
	int ret;

	ret = cap_parse(ctx, &cp);
	if (!ret && !ibt_usage_if(cp.help, cap_usage))
		ret = cap_run(ctx, &cp);
	if (cp.f)
		fclose(cp.f);
	return ret;
}
