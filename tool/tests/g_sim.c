// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden cases of sim.c: a node of sim show, its ports and rules; sim
 * set and sim add words and their requests; a fabric's first line.
 */
#include "../sim.c"
#include "golden.h"

struct node_case {
	struct sim_list *nodes;
	size_t i;
};

static int run_node(struct ibt *ctx, void *arg)
{
	struct node_case *c = arg;

	ctx->fam = &ibt_sim_family;
	return show_node(ctx, c->nodes, &c->nodes->v[c->i]);
}

/* The attributes of a port nest, in order; knobs and peer only if asked. */
static const struct {
	int attr;
	int size;		/* 1, 4 or 8 bytes */
	uint64_t v;		/* plus the port number for PORT_A_GUID, LID */
	char only;		/* 'k': a knob, 'p': peer, 0: always */
} port_attrs[] = {
	{ IBTRACE_SIM_PORT_A_NUM,		4, 0,			0 },
	{ IBTRACE_SIM_PORT_A_GUID,		8, 0x0002c90300001000ull, 0 },
	{ IBTRACE_SIM_PORT_A_LID,		4, 0x10,		0 },
	{ IBTRACE_SIM_PORT_A_LMC,		1, 0,			0 },
	{ IBTRACE_SIM_PORT_A_STATE,		1, IBTRACE_PORT_STATE_ACTIVE, 0 },
	{ IBTRACE_SIM_PORT_A_PEER_NODE,		4, 1,			'p' },
	{ IBTRACE_SIM_PORT_A_PEER_PORT,		4, 3,			'p' },
	{ IBTRACE_SIM_PORT_A_RX_PKTS,		8, 12,			0 },
	{ IBTRACE_SIM_PORT_A_TX_PKTS,		8, 13,			0 },
	{ IBTRACE_SIM_PORT_A_DROPS,		8, 1,			0 },
	{ IBTRACE_SIM_PORT_A_DROP_PPM,		4, 300000,		'k' },
	{ IBTRACE_SIM_PORT_A_DELAY_US,		4, 20000,		'k' },
	{ IBTRACE_SIM_PORT_A_LINK_DOWN,		1, 1,			'k' },
	{ IBTRACE_SIM_PORT_A_LINK_WIDTH,	1, 1,			'k' },
	{ IBTRACE_SIM_PORT_A_LINK_SPEED,	1, 1,			'k' },
	{ IBTRACE_SIM_PORT_A_GUID_CAP,		1, 4,			'k' },
	{ IBTRACE_SIM_PORT_A_GUID_QUIRKS,	4, 5,			'k' },
};

static void put_port(struct nl_msg *m, uint32_t num, bool knobs, bool peer)
{
	struct nlattr *n = nla_nest_start(m, IBTRACE_SIM_A_PORT);
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(port_attrs); i++) {
		int a = port_attrs[i].attr;
		uint64_t v = port_attrs[i].v;

		if ((port_attrs[i].only == 'k' && !knobs) ||
		    (port_attrs[i].only == 'p' && !peer))
			continue;
		if (a == IBTRACE_SIM_PORT_A_NUM || a == IBTRACE_SIM_PORT_A_GUID ||
		    a == IBTRACE_SIM_PORT_A_LID)
			v += num;
		if (port_attrs[i].size == 1)
			nla_put_u8(m, a, v);
		else if (port_attrs[i].size == 4)
			nla_put_u32(m, a, v);
		else
			nla_put_u64(m, a, v);
	}
	nla_nest_end(m, n);
}

static void keep(struct sim_list *l, struct nl_msg *m)
{
	struct ibt ctx = { .fam = &ibt_sim_family };

	if (keep_cb(&ctx, nlmsg_hdr(m), l))
		printf("golden: keep_cb failed\n");
	nlmsg_free(m);
}

/* sim set WORDS...: its parse, then its request. */
static int set_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct set_req r = { 0 };
	int ret = set_parse(&r, (const char **)ctx->argv, ctx->argc);

	if (ret)
		return ret;
	ctx->fam = &ibt_sim_family;
	*msg = set_msg(ctx, &r);
	return *msg ? 0 : IBT_EXIT_ERR;
}

static void golden_sim_set(void)
{
	static const char *const sets[][12] = {
		{ "f0", "HcaA", "port", "1", "drop", "30%", "delay", "20", "link", "down" },
		{ "f0", "3", "port", "2", "guid-cap", "4", "guid-quirks", "entry0-writable" },
		{ "f0", "S", "port", "0", "link", "up", "misroute", "0x2", "3" },
		{ "f0", "S", "misroute", "2", "none" },
		{ "f0", "S", "drop", "5" },
		{ "f0", "S", "port", "1", "drop", "101" },
		{ "f0", "S", "port", "1", "delay", "10000001" },
		{ "f0", "S", "port", "1", "link", "sideways" },
		{ "f0", "S", "port", "1", "guid-cap", "0" },
		{ "f0", "S", "port", "1", "guid-quirks", "bogus" },
		{ "f0", "S", "port", "300" },
		{ "f0", "S", "misroute", "0xc000", "1" },
		{ "f0", "S", "misroute", "2" },
		{ "f0", "S", "misroute", "2", "x" },
		{ "f0", "S", "color", "red" },
		{ "f0", "S", "port" },
		{ "f0", "S" },
		{ "f0", "" },
		{ "bad name", "S" },
		{ "f0", "HcaA", "port", "1", "width", "1x", "speed", "sdr" },
		{ "f0", "HcaA", "port", "1", "width", "4x", "speed", "qdr" },
		{ "f0", "HcaA", "port", "1", "speed", "ddr" },
		{ "f0", "HcaA", "port", "1", "width", "2x" },
		{ "f0", "HcaA", "port", "1", "width", "4X" },
		{ "f0", "HcaA", "port", "1", "speed", "fdr" },
		{ "f0", "HcaA", "port", "1", "speed", "4" },
		{ "f0", "HcaA", "width", "1x" },
	};

	golden_words_run("sim set", set_req, NULL, sets[0], IBT_ARRAY_SIZE(sets[0]),
			 IBT_ARRAY_SIZE(sets));
}

/* sim add WORDS...: its options, then their attributes (not the text's). */
static int add_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct add_opts add = { 0 };
	const char *path = NULL;
	int ret = sim_args(ctx, "add", &add, &path, 1, 1, "a TOPOLOGY_FILE");

	if (ret)
		return ret;
	printf("file %s\n", path);
	*msg = golden_msg(IBTRACE_SIM_CMD_FABRIC_ADD);
	return put_add_opts(*msg, &add);
}

static void golden_sim_add(void)
{
	static const char *const adds[][8] = {
		{ "t.topo", "--time-scale", "1000" },
		{ "t.topo", "--time-scale", "1", "--seed", "7" },
		{ "--time-scale", "1000000", "t.topo", "--no-sm" },
		{ "t.topo", "--time-scale", "0" },
		{ "t.topo", "--time-scale", "1000001" },
		{ "t.topo", "--time-scale", "-5" },
		{ "t.topo", "--time-scale", "fast" },
		{ "t.topo", "--time-scale", "" },
		{ "t.topo", "--guid-cap", "0" },
		{ "t.topo", "--seed", "4294967296" },
	};

	golden_words_run("sim add", add_req, NULL, adds[0], IBT_ARRAY_SIZE(adds[0]),
			 IBT_ARRAY_SIZE(adds));
}

/* The first line of sim show for a FABRIC_GET reply. */
static int run_summary(struct ibt *ctx, void *arg)
{
	struct sim_msg *f = arg;

	ctx->fam = &ibt_sim_family;
	ibt_out_obj_begin(ctx, NULL);
	show_summary(ctx, "f0", f->tb);
	ibt_out_obj_end(ctx);
	return 0;
}

static void golden_sim_fabric(void)
{
	struct sim_list fabrics = { 0 };
	struct nl_msg *m;
	size_t i;

	/* link-rate pacing on, then off (no TIME_SCALE), then a scale of 0 */
	for (i = 0; i < 3; i++) {
		m = golden_msg(IBTRACE_SIM_CMD_FABRIC_GET);
		nla_put_string(m, IBTRACE_SIM_A_FABRIC_NAME, "f0");
		nla_put_u32(m, IBTRACE_SIM_A_NUM_NODES, 3);
		nla_put_u32(m, IBTRACE_SIM_A_NUM_CAS, 2);
		nla_put_u32(m, IBTRACE_SIM_A_NUM_SWITCHES, 1);
		nla_put_u32(m, IBTRACE_SIM_A_NUM_LINKS, 2);
		nla_put_u32(m, IBTRACE_SIM_A_NUM_DEVICES, 2);
		nla_put_u32(m, IBTRACE_SIM_A_SEED, 1234);
		if (i != 1)
			nla_put_u32(m, IBTRACE_SIM_A_TIME_SCALE, i ? 0 : 1000);
		nla_put_u8(m, IBTRACE_SIM_A_SM, 1);
		nla_put_u32(m, IBTRACE_SIM_A_SM_LID, 3);
		keep(&fabrics, m);
	}
	for (i = 0; i < fabrics.n; i++)
		golden_run("sim fabric", run_summary, &fabrics.v[i]);
	sim_list_free(&fabrics);
}

void golden_sim(void)
{
	struct sim_list nodes = { 0 };
	struct node_case c = { &nodes, 0 };
	struct nlattr *n;
	struct nl_msg *m;

	m = golden_msg(IBTRACE_SIM_CMD_NODE_GET);
	nla_put_u32(m, IBTRACE_SIM_A_NODE_INDEX, 0);
	nla_put_u8(m, IBTRACE_SIM_A_NODE_TYPE, IBTRACE_SIM_NODE_CA);
	nla_put_string(m, IBTRACE_SIM_A_NODE_NAME, "HcaA");
	nla_put_u64(m, IBTRACE_SIM_A_NODE_GUID, 0x0002c90300001000ull);
	nla_put_string(m, IBTRACE_SIM_A_DEV_NAME, "ibtsim0");
	put_port(m, 1, true, true);
	put_port(m, 2, false, false);
	keep(&nodes, m);

	m = golden_msg(IBTRACE_SIM_CMD_NODE_GET);
	nla_put_u32(m, IBTRACE_SIM_A_NODE_INDEX, 1);
	nla_put_u8(m, IBTRACE_SIM_A_NODE_TYPE, IBTRACE_SIM_NODE_SWITCH);
	nla_put_string(m, IBTRACE_SIM_A_NODE_NAME, "S");
	nla_put_u64(m, IBTRACE_SIM_A_NODE_GUID, 0x0014050000000300ull);
	put_port(m, 0, false, false);
	put_port(m, 3, false, true);
	n = nla_nest_start(m, IBTRACE_SIM_A_MISROUTE);
	nla_put_u32(m, IBTRACE_SIM_MISROUTE_A_DLID, 2);
	nla_put_u32(m, IBTRACE_SIM_MISROUTE_A_PORT, 3);
	nla_nest_end(m, n);
	keep(&nodes, m);

	m = golden_msg(IBTRACE_SIM_CMD_NODE_GET);
	n = nla_nest_start(m, IBTRACE_SIM_A_PORT);
	nla_nest_end(m, n);
	keep(&nodes, m);

	for (c.i = 0; c.i < nodes.n; c.i++)
		golden_run("sim node", run_node, &c);
	sim_list_free(&nodes);
	golden_sim_set();
	golden_sim_add();
	golden_sim_fabric();
}
