// SPDX-License-Identifier: GPL-2.0-only
/* The golden cases of server.c: the state replies of server show. */
#include "../server.c"
#include "golden.h"

static const uint8_t gid_any[16];
static const uint8_t gid_peer[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0, 0xff, 0xfe, 0x12, 0x34, 0x01,
};
static const uint8_t gid_quitter[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0, 0xff, 0xfe, 0x12, 0x34, 0x03,
};

static int run_cb(struct ibt *ctx, void *arg)
{
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	int ret = ibt_nl_parse(ctx, nlmsg_hdr(arg), tb);

	return ret ? ret : server_cb(ctx, nlmsg_hdr(arg), tb, NULL);
}

/* @full: an rnr connection's fields; @perf: a perf one's */
static void put_conn(struct nl_msg *m, bool full, bool perf)
{
	struct nlattr *n = nla_nest_start(m, IBTRACE_A_SERVER_CONN);

	if (full || perf)
		nla_put_string(m, IBTRACE_SERVER_CONN_A_SERVICE, full ? "rnr" : "perf");
	nla_put(m, IBTRACE_SERVER_CONN_A_PEER_GID, 16, gid_peer);
	nla_put_string(m, IBTRACE_SERVER_CONN_A_DEV_NAME, "rxe0");
	nla_put_u32(m, IBTRACE_SERVER_CONN_A_PORT, 1);
	nla_put_u32(m, IBTRACE_SERVER_CONN_A_AGE_MS, 812);
	if (full) {
		nla_put_u32(m, IBTRACE_SERVER_CONN_A_HOLD_MS, 4000);
		nla_put_u8(m, IBTRACE_SERVER_CONN_A_RNR_TIMER, 12);
		nla_put_flag(m, IBTRACE_SERVER_CONN_A_RNR_RECV_POSTED);
	}
	if (perf) {
		nla_put_u32(m, IBTRACE_SERVER_CONN_A_HOLD_MS, 60000);
		nla_put_u8(m, IBTRACE_SERVER_CONN_A_PERF_OP, IBTRACE_PERF_OP_RDMA_WRITE);
		nla_put_u32(m, IBTRACE_SERVER_CONN_A_PERF_BYTES, 65536);
	}
	nla_nest_end(m, n);
}

/*
 * @quit: 'q' quitting (asked by gid_quitter), 'n' not quitting (both with
 * the quit counters), else neither sent
 */
static struct nl_msg *state(bool running, bool dev, char quit)
{
	struct nl_msg *m = golden_msg(IBTRACE_CMD_SERVER_GET);
	int last = quit ? IBTRACE_SERVER_STAT_REJ_QUITTING : IBTRACE_SERVER_STAT_REJ_MEM;
	struct nlattr *st;
	int i;

	nla_put_u8(m, IBTRACE_A_SERVER_RUNNING, running);
	nla_put(m, IBTRACE_A_SERVER_ADDR, 16, gid_any);
	nla_put_u16(m, IBTRACE_A_SERVER_PORT, 7471);
	if (dev)
		nla_put_string(m, IBTRACE_A_DEV_NAME, "rxe0");
	nla_put_u32(m, IBTRACE_A_SERVER_MAX_CONNS, 16);
	nla_put_u32(m, IBTRACE_A_SERVER_MAX_HOLD_MS, 60000);
	nla_put_u32(m, IBTRACE_A_SERVER_MAX_MEM_KB, 8192);
	nla_put_u32(m, IBTRACE_A_SERVER_CONNS, 2);
	if (quit)
		nla_put_u8(m, IBTRACE_A_SERVER_QUITTING, quit == 'q');
	if (quit == 'q')
		nla_put(m, IBTRACE_A_SERVER_QUIT_PEER, 16, gid_quitter);
	if (!running)
		return m;
	st = nla_nest_start(m, IBTRACE_A_SERVER_STATS);
	for (i = IBTRACE_SERVER_STAT_ACCEPTED; i <= last; i++)
		nla_put_u64(m, i, 3 * i + 1);
	nla_nest_end(m, st);
	put_conn(m, true, false);
	put_conn(m, false, false);
	put_conn(m, false, true);
	return m;
}

/*
 * @how: 'r' running with -d, 'a' running on any device, 's' stopped,
 * 'q' running and quitting, 'n' running and not quitting
 */
static struct nl_msg *build(char how)
{
	struct nl_msg *m = golden_msg(IBTRACE_CMD_SERVER_GET);
	struct nlattr *n;

	switch (how) {
	case 'r':
	case 'a':
	case 's':
	case 'q':
	case 'n':
		nlmsg_free(m);
		return state(how != 's', how == 'r',
			     how == 'q' || how == 'n' ? how : 0);
	case 'c':	/* a connection's port of 2 bytes */
		nla_put_u8(m, IBTRACE_A_SERVER_RUNNING, 1);
		n = nla_nest_start(m, IBTRACE_A_SERVER_CONN);
		nla_put_u16(m, IBTRACE_SERVER_CONN_A_PORT, 1);
		nla_nest_end(m, n);
		break;
	}
	return m;
}

void golden_server(void)
{
	static const struct {
		const char *name;
		char how;	/* for build(); else no attribute */
	} cases[] = {
		{ "server running dev",		'r' },
		{ "server running any",		'a' },
		{ "server stopped closed",	's' },
		{ "server quitting",		'q' },
		{ "server not quitting",	'n' },
		{ "server stopped bare",	'-' },
		{ "server short conn port",	'c' },
	};
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(cases); i++) {
		struct nl_msg *m = build(cases[i].how);

		golden_run(cases[i].name, run_cb, m);
		nlmsg_free(m);
	}
}
