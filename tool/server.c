// SPDX-License-Identifier: GPL-2.0-only
/*
 * server object: the module's RDMA CM server, which peer hosts' tests
 * (test run rnr --peer, test run perf, test run quit) connect to. Off
 * until an admin starts it (IBTRACE_CMD_SERVER_START, _STOP, _GET; all
 * need CAP_NET_ADMIN).
 *
 *   ibtracectl [-j] [-d DEV] server start [--port N] [--max-conns N]
 *              [--max-hold MS] [--max-mem-kb N]
 *   ibtracectl [-j] server stop
 *   ibtracectl [-j] server [show]
 *   ibtracectl [-j] [-d DEV] [-p PORT] server quit --peer GID
 *              [--peer-port PORT] [-v] [--detach]
 *
 * quit asks the server of another host to quit, as dapltest -T Q: it is
 * "test run quit" (test.c, test_quit.c: its output and exit codes).
 *
 * Text (show, and start after starting):
 *   server running address :: port 7471 dev any max_conns 16 max_hold_ms 60000 max_mem_kb 8192
 *   conns 2 accepted 3 rej_foreign 1 rej_conns 0 rej_hold 1 rej_dev 0 rej_error 0 rej_version 0 rej_mem 0 quits 0 rej_quitting 0
 *   client rnr peer_gid fe80::5054:ff:fe12:3401 dev rxe0 port 1 age_ms 812 hold_ms 4000 rnr_timer 12
 *   client perf peer_gid fe80::5054:ff:fe12:3402 dev rxe0 port 1 age_ms 20 hold_ms 60000 perf_op RW perf_bytes 4096
 * the first line ending with " quitting (asked by fe80::5054:ff:fe12:3403)"
 * once a client asked the server to quit; or "server stopped" when it
 * does not run; stop prints
 *   server stopped closed 2
 *
 * JSON: one object. Keys (each one only if the kernel sent it):
 *   running      bool    the server listens
 *   address      string  the address listened on ("::": every address)
 *   port         number  RDMA CM port (TCP port space)
 *   dev          string  the only device served ("any": every device)
 *   max_conns    number  connections held at once, at most
 *   max_hold_ms  number  longest hold a client may ask for
 *   max_mem_kb   number  memory (buffers) one connection may take, KiB
 *   quitting     bool    a client asked the server to quit: it refuses
 *                        new connections and stops once those it holds
 *                        have ended
 *   quit_peer    string  the GID of that client (with quitting true)
 *   conns        number  connections held (stop: closed)
 *   stats        object  accepted, rej_foreign, rej_conns, rej_hold,
 *                        rej_dev, rej_error, rej_version (a request's
 *                        version not spoken), rej_mem (buffers over
 *                        max_mem_kb), quits (quit requests accepted),
 *                        rej_quitting (refused: the server quits):
 *                        counters since the start
 *   clients      array   per connection: service, peer_gid, dev, port,
 *                        age_ms, hold_ms, rnr_timer, rnr_recv_posted,
 *                        perf_op ("RR", "RW"), perf_bytes
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ibtracectl.h"

static const struct ibt_num_key server_stats[] = {
	{ IBTRACE_SERVER_STAT_ACCEPTED,		"accepted" },
	{ IBTRACE_SERVER_STAT_REJ_FOREIGN,	"rej_foreign" },
	{ IBTRACE_SERVER_STAT_REJ_CONNS,	"rej_conns" },
	{ IBTRACE_SERVER_STAT_REJ_HOLD,		"rej_hold" },
	{ IBTRACE_SERVER_STAT_REJ_DEV,		"rej_dev" },
	{ IBTRACE_SERVER_STAT_REJ_ERROR,	"rej_error" },
	{ IBTRACE_SERVER_STAT_REJ_VERSION,	"rej_version" },
	{ IBTRACE_SERVER_STAT_REJ_MEM,		"rej_mem" },
	{ IBTRACE_SERVER_STAT_QUITS,		"quits" },
	{ IBTRACE_SERVER_STAT_REJ_QUITTING,	"rej_quitting" },
};

/* The server's address and port, then (after dev) its bounds. */
static const struct ibt_num_key server_keys[] = {
	{ IBTRACE_A_SERVER_ADDR,	"address" },
	{ IBTRACE_A_SERVER_PORT,	"port" },
	{ IBTRACE_A_SERVER_MAX_CONNS,	"max_conns" },
	{ IBTRACE_A_SERVER_MAX_HOLD_MS,	"max_hold_ms" },
	{ IBTRACE_A_SERVER_MAX_MEM_KB,	"max_mem_kb" },
};

/*
 * A client connection's fields, after its service; the perf operation
 * (a name) goes between the last two.
 */
static const struct ibt_num_key conn_keys[] = {
	{ IBTRACE_SERVER_CONN_A_PEER_GID,	"peer_gid" },
	{ IBTRACE_SERVER_CONN_A_DEV_NAME,	"dev" },
	{ IBTRACE_SERVER_CONN_A_PORT,		"port" },
	{ IBTRACE_SERVER_CONN_A_AGE_MS,		"age_ms" },
	{ IBTRACE_SERVER_CONN_A_HOLD_MS,	"hold_ms" },
	{ IBTRACE_SERVER_CONN_A_RNR_TIMER,	"rnr_timer" },
	{ IBTRACE_SERVER_CONN_A_RNR_RECV_POSTED, "rnr_recv_posted" },
	{ IBTRACE_SERVER_CONN_A_PERF_BYTES,	"perf_bytes" },
	{ IBTRACE_SERVER_CONN_A_TXN_THREAD,	"txn_thread" },
	{ IBTRACE_SERVER_CONN_A_TXN_EP,		"txn_endpoint" },
	{ IBTRACE_SERVER_CONN_A_TXN_ITERATION,	"txn_iteration" },
	{ IBTRACE_SERVER_CONN_A_TXN_ITERATIONS,	"txn_iterations" },
};

static void server_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] [--pretty] [-d DEV] server start [--port N]\n"
	      "                  [--max-conns N] [--max-hold MS] [--max-mem-kb N]\n"
	      "       ibtracectl [-j] [--pretty] server stop\n"
	      "       ibtracectl [-j] [--pretty] server [show]\n"
	      "       ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] server quit --peer GID\n"
	      "                  [--peer-port PORT] [-v|--verbose] [--detach]\n"
	      "The module's RDMA CM server, for peer hosts' tests (test run rnr --peer,\n"
	      "test run perf, test run quit).\n"
	      "Nothing listens until an admin starts it; all four need CAP_NET_ADMIN.\n"
	      "  -d DEV              accept connections on DEV only (default: every device)\n"
	      "  --port N            RDMA CM port, 1..65535 (default: the module parameter\n"
	      "                      rnr_responder_port, 7471)\n", f);
	fprintf(f,
		"  --max-conns N       connections held at once, 1..%d (default %d);\n"
		"                      one more is rejected\n"
		"  --max-hold MS       longest hold a client may ask for, %d..%d ms\n"
		"                      (default %d); a request for more is rejected\n"
		"  --max-mem-kb N      memory (buffers) one connection may take, %d..%d KiB\n"
		"                      (default %d); a request for more is rejected\n"
		"show prints the address and port listened on, the bounds, whether it\n"
		"quits (and who asked), the counters and one line per connected client\n"
		"(its GID). Exit 14: start while the server runs; 1: stop while it does\n"
		"not.\n"
		"quit asks the server of host --peer GID (--peer-port: its RDMA CM port,\n"
		"1..65535) to quit, as dapltest -T Q, from the local port (-d, -p): it\n"
		"refuses new connections, lets those it holds end, stops listening and\n"
		"ends the quit's connection last. It is \"test run quit\": the same\n"
		"output and exit codes (0 pass, 15 fail, 17 error, 13 cancelled).\n",
		IBTRACE_SERVER_MAX_CONNS, IBTRACE_SERVER_DEF_CONNS,
		IBTRACE_SERVER_MIN_HOLD_MS, IBTRACE_SERVER_MAX_HOLD_MS,
		IBTRACE_SERVER_DEF_HOLD_MS, IBTRACE_SERVER_MIN_MEM_KB,
		IBTRACE_SERVER_MAX_MEM_KB, IBTRACE_SERVER_DEF_MEM_KB);
}

static int server_help(struct ibt *ctx)
{
	(void)ctx;
	server_usage(stdout);
	return IBT_EXIT_OK;
}

static int show_stats(struct ibt *ctx, struct nlattr *nest)
{
	struct nlattr *st[IBTRACE_SERVER_STAT_MAX + 1];
	int ret = ibt_nl_parse_nest(ctx, nest, st);

	if (ret)
		return ret;
	ibt_out_obj_begin(ctx, "stats");
	ibt_out_nla_u64s(ctx, server_stats, IBT_ARRAY_SIZE(server_stats), st);
	ibt_out_obj_end(ctx);
	return 0;
}

/* A client connection (ibt_nl_each()'s callback). */
static int show_conn(struct ibt *ctx, void *arg, struct nlattr *nest)
{
	struct nlattr *tb[IBTRACE_SERVER_CONN_A_MAX + 1];
	int ret = ibt_nl_parse_nest(ctx, nest, tb);

	(void)arg;
	if (ret)
		return ret;
	ibt_out_obj_begin(ctx, NULL);
	ibt_out_text(ctx, "client");
	if (tb[IBTRACE_SERVER_CONN_A_SERVICE])
		ibt_out_field(ctx, "service",
			      json_object_new_string(nla_get_string(tb[IBTRACE_SERVER_CONN_A_SERVICE])),
			      " %s", nla_get_string(tb[IBTRACE_SERVER_CONN_A_SERVICE]));
	ibt_out_nla_keys(ctx, conn_keys, "gsuuuub", tb);
	if (tb[IBTRACE_SERVER_CONN_A_PERF_OP])
		ibt_out_str(ctx, "perf_op",
			    ibt_perf_op_str(nla_get_u8(tb[IBTRACE_SERVER_CONN_A_PERF_OP])));
	ibt_out_nla_keys(ctx, conn_keys + 7, "uuuuu", tb);
	ibt_out_eol(ctx);
	ibt_out_obj_end(ctx);
	return 0;
}

/*
 * " quitting (asked by fe80::...)" once a client asked the server to quit
 * (JSON: quitting, as sent, and quit_peer).
 */
static void show_quitting(struct ibt *ctx, struct nlattr **tb)
{
	char gid[INET6_ADDRSTRLEN];
	bool quitting;

	if (!tb[IBTRACE_A_SERVER_QUITTING])
		return;
	quitting = nla_get_u8(tb[IBTRACE_A_SERVER_QUITTING]);
	ibt_out_field(ctx, "quitting", json_object_new_boolean(quitting), "%s",
		      quitting ? " quitting" : "");
	if (quitting && tb[IBTRACE_A_SERVER_QUIT_PEER] &&
	    inet_ntop(AF_INET6, nla_data(tb[IBTRACE_A_SERVER_QUIT_PEER]), gid,
		      sizeof(gid)))
		ibt_out_field(ctx, "quit_peer", json_object_new_string(gid),
			      " (asked by %s)", gid);
}

/* The reply of START, STOP or GET: the server's state. */
static int server_cb(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		     void *arg)
{
	bool running;
	int ret;

	(void)arg;
	running = tb[IBTRACE_A_SERVER_RUNNING] &&
		  nla_get_u8(tb[IBTRACE_A_SERVER_RUNNING]);
	ibt_out_obj_begin(ctx, NULL);
	ibt_out_text(ctx, "server");
	ibt_out_field(ctx, "running", json_object_new_boolean(running), " %s",
		      running ? "running" : "stopped");
	ibt_out_nla_keys(ctx, server_keys, "gu", tb);
	if (running)
		ibt_out_str(ctx, "dev", tb[IBTRACE_A_DEV_NAME] ?
			    nla_get_string(tb[IBTRACE_A_DEV_NAME]) : "any");
	ibt_out_nla_keys(ctx, server_keys + 2, "uuu", tb);
	show_quitting(ctx, tb);
	if (!running && tb[IBTRACE_A_SERVER_CONNS])
		ibt_out_u64(ctx, "closed",
			    nla_get_u32(tb[IBTRACE_A_SERVER_CONNS]));
	ibt_out_eol(ctx);
	if (!running) {
		ibt_out_obj_end(ctx);
		return 0;
	}
	if (tb[IBTRACE_A_SERVER_CONNS]) {
		ibt_out_text(ctx, " ");
		ibt_out_u64(ctx, "conns", nla_get_u32(tb[IBTRACE_A_SERVER_CONNS]));
	}
	if (tb[IBTRACE_A_SERVER_STATS]) {
		ret = show_stats(ctx, tb[IBTRACE_A_SERVER_STATS]);
		if (ret)
			return ret;
	}
	ibt_out_eol(ctx);
	ibt_out_arr_begin(ctx, "clients");
	ret = ibt_nl_each(ctx, nlh, IBTRACE_A_SERVER_CONN, show_conn, NULL);
	if (ret)
		return ret;
	ibt_out_arr_end(ctx);
	ibt_out_obj_end(ctx);
	return 0;
}

/* Send @msg (consumed), print the state it answers with. */
static int server_request(struct ibt *ctx, struct nl_msg *msg)
{
	int ret = ibt_nl_run_parsed(ctx, msg, server_cb, NULL);

	if (ret)
		return ret;
	ibt_out_finish(ctx);
	return IBT_EXIT_OK;
}

/* The options of server start. */
struct start_opts {
	uint32_t port, conns, hold, mem_kb;
	bool has_port, has_conns, has_hold, has_mem_kb, help;
};

#define START_OPT(f)	offsetof(struct start_opts, f)

/* The request's attributes of server start's options given. */
static const struct ibt_req_opt start_req[] = {
	{ IBTRACE_A_SERVER_PORT, IBT_REQ_U16, START_OPT(port), START_OPT(has_port) },
	{ IBTRACE_A_SERVER_MAX_CONNS, IBT_REQ_U32, START_OPT(conns), START_OPT(has_conns) },
	{ IBTRACE_A_SERVER_MAX_HOLD_MS, IBT_REQ_U32, START_OPT(hold), START_OPT(has_hold) },
	{ IBTRACE_A_SERVER_MAX_MEM_KB, IBT_REQ_U32, START_OPT(mem_kb),
	  START_OPT(has_mem_kb) },
};

/*
 * Send request @cmd, with server start's options @o unless NULL (and
 * then -d), and print the state it answers with.
 */
static int server_send(struct ibt *ctx, uint8_t cmd, const struct start_opts *o)
{
	struct nl_msg *msg;
	int ret;

	ret = ibt_nl_open(ctx);
	if (ret)
		return ret;
	msg = ibt_nl_req(ctx, cmd, false);
	if (!msg)
		return IBT_EXIT_ERR;
	if (o &&
	    ((ctx->dev && nla_put_string(msg, IBTRACE_A_DEV_NAME, ctx->dev) < 0) ||
	     ibt_nl_put_opts(msg, start_req, IBT_ARRAY_SIZE(start_req), o))) {
		nlmsg_free(msg);
		return ibt_err(IBT_EXIT_ERR, "netlink request too large");
	}
	return server_request(ctx, msg);
}

/* show and stop: no options nor words. */
static int server_simple(struct ibt *ctx, uint8_t cmd)
{
	int ret = ibt_end_args(ctx);

	return ret ? ret : server_send(ctx, cmd, NULL);
}

static int server_show(struct ibt *ctx)
{
	return server_simple(ctx, IBTRACE_CMD_SERVER_GET);
}

static int server_stop(struct ibt *ctx)
{
	return server_simple(ctx, IBTRACE_CMD_SERVER_STOP);
}

enum {
	OPT_PORT = 0x200,
	OPT_MAX_CONNS,
	OPT_MAX_HOLD,
	OPT_MAX_MEM_KB,
};

/* The options of server start. */
static const struct ibt_num_opt start_nums[] = {
	{ "port", OPT_PORT, "--port", 1, 65535, "", "", START_OPT(port),
	  START_OPT(has_port) },
	{ "max-conns", OPT_MAX_CONNS, "--max-conns", 1, IBTRACE_SERVER_MAX_CONNS,
	  "", "", START_OPT(conns), START_OPT(has_conns) },
	{ "max-hold", OPT_MAX_HOLD, "--max-hold", IBTRACE_SERVER_MIN_HOLD_MS,
	  IBTRACE_SERVER_MAX_HOLD_MS, "", "", START_OPT(hold), START_OPT(has_hold) },
	{ "max-mem-kb", OPT_MAX_MEM_KB, "--max-mem-kb", IBTRACE_SERVER_MIN_MEM_KB,
	  IBTRACE_SERVER_MAX_MEM_KB, "", " KiB", START_OPT(mem_kb),
	  START_OPT(has_mem_kb) },
};

/* quit: the quit test's run (test_quit.c). */
static int server_quit(struct ibt *ctx)
{
	return ibt_test_run_as(ctx, "server", "quit", "quit");
}

static int server_start(struct ibt *ctx)
{
	struct start_opts o = { 0 };
	int ret;

	ret = ibt_nums_args(ctx, "server", "start", start_nums,
			    IBT_ARRAY_SIZE(start_nums), &o, &o.help, false);
	if (ret || ibt_usage_if(o.help, server_usage))
		return ret;
	if (ctx->port)
		return ibt_err(IBT_EXIT_USAGE,
			       "server start serves whole devices: -p is not for it (--port is the RDMA CM port)");
	return server_send(ctx, IBTRACE_CMD_SERVER_START, &o);
}

const struct ibt_cmd ibt_server_cmds[] = {
	{ "show",	server_show },
	{ "start",	server_start },
	{ "stop",	server_stop },
	{ "quit",	server_quit },
	{ "help",	server_help },
	{ NULL,		NULL },
};
