// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtracectl audit: do the routes from a port go where the tables say?
 *
 *   ibtracectl [-j] [-d DEV] [-p PORT] audit [--window N] [-t MS] [-r N]
 *              [--max-nodes N] [--no-prove] [--save FILE] [-v]
 *   ibtracectl [-j] [-d DEV] [-p PORT] audit --load FILE [--window N]
 *              [-t MS] [-r N] [--no-prove] [-v]
 *
 * The kernel sweeps the subnet from the port (IBTRACE_CMD_SWEEP, a job:
 * directed-route SMPs, at most --window out at once) and keeps what it
 * found; the tool reads it (IBTRACE_CMD_SWEEP_NODE, a dump) into its
 * fabric model (fabric.c), or loads a model saved by an earlier audit
 * (--load: one sweep serves many hosts). A loaded model's routes start at
 * the port it was saved from, or, with -d or -p, at this host's port,
 * found in the model by its LID.
 * Then, for every destination (every LID of every CA port, every switch's
 * LID), the route the tables give from the port is followed and checked
 * (route.c: hole, dead end, loop, too long, misdelivered, no owner), and
 * the channel dependency graph of the routes from every CA port is searched
 * for cycles, the credit loops.
 *
 * The tables may not be what the switches do, so the data path is proved
 * too (not with --no-prove, nor of a loaded model without -d or -p,
 * whose routes start at another host's port): every route that is ok and
 * crosses a link is probed by the kernel (IBTRACE_CMD_PROVE, a job: one LID-routed
 * VendorGet(SourceRoute) per destination carrying the route's incoming
 * ports, at most --window out at once, -t/-r per probe), in batches of
 * IBTRACE_PROVE_MAX_DESTS, one job after the other; the verdicts are read
 * after each (IBTRACE_CMD_PROVE_DEST, a dump) and kept beside the
 * destinations (proof.c). Only one batch's vectors are held at a time.
 *
 * Text:
 *   audit from ibtsim0/1: 6 nodes (2 switches), 5 links, 52 SMPs, 0.012 s
 *   4 destinations: 3 ok, 1 hole
 *     lid 0x0005 (port 1 of ca "B" (0x...)): hole at switch "S1" (0x...): no LFT entry
 *   data path: 3 probes: 1 verified, 1 no agent, 1 mismatch (3 MADs, 0.004 s)
 *     lid 0x0006 (port 1 of ca "C" (0x...)): mismatch: came in by port 2, the tables say 1
 *   credit loops: none (10 channels, 14 dependencies)
 * with -v a line for every destination and every probe. JSON: one object,
 * keys source, sweep (the kernel's figures), destinations (every one:
 * dlid, verdict, node_guid, node_desc, port, hops, in_ports, at, and the
 * proof of those probed: verdict, actual_port, status, attempts, rtt_ns,
 * errno), summary (a count per verdict), proof (proved, why_not, or the
 * count of destinations, MADs, per verdict and the time),
 * credit_loops (channels, dependencies, loops, cycles).
 *
 * Exit: 0 every route ok, no credit loop, every SMP of the sweep
 * answered and no probe a mismatch, unreachable or unsent (a port without
 * an agent answers too: no finding), IBT_EXIT_AUDIT otherwise.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <netlink/genl/genl.h>

#include "ibtracectl.h"
#include "fabric.h"
#include "audit_prom.h"
#include "proof.h"
#include "route.h"

/* Cycles of the dependency graph printed at most. */
#define AUDIT_CYCLES	16

/* --window is the sweep's and the proof's: one range, one default */
_Static_assert(IBTRACE_SWEEP_MAX_WINDOW <= IBTRACE_PROVE_MAX_WINDOW &&
	       IBTRACE_SWEEP_DEF_WINDOW == IBTRACE_PROVE_DEF_WINDOW,
	       "audit --window: the sweep's bounds fit the proof's");

/* Room for the figures of a sweep or of a proof (audit_keep_stats()) */
#define AUDIT_SWEEP_MAX	((int)IBTRACE_SWEEP_STAT_A_MAX)
#define AUDIT_PROVE_MAX	((int)IBTRACE_PROVE_STAT_A_MAX)
#define AUDIT_STAT_MAX	(AUDIT_SWEEP_MAX > AUDIT_PROVE_MAX ? AUDIT_SWEEP_MAX : \
			 AUDIT_PROVE_MAX)

enum {
	OPT_WINDOW = IBT_OPT_DLID + 1,
	OPT_MAX_NODES,
	OPT_SAVE,
	OPT_LOAD,
	OPT_NO_PROVE,
	OPT_PROM,
};

struct audit {
	bool help;
	bool verbose;
	uint32_t window, max_nodes;
	bool has_window, has_max_nodes;
	bool no_prove;
	struct ibt_wait wait;
	const char *save, *load;
	const char *prom;
	struct timespec t0;

	char dev[IBT_DEV_NAME_MAX];
	uint32_t port;
	struct ibt_job_follow job;
	bool have[AUDIT_STAT_MAX + 1];
	uint64_t stat[AUDIT_STAT_MAX + 1];

	struct ibt_fabric fab;
	int bad_node;		/* a dump message made no sense: exit code */

	/* the destinations, and beside each what its probe proved */
	uint16_t *dlids;
	size_t ndests;
	struct ibt_proof *proof;
	const char *why_not;	/* the proof did not run: why */
	struct ibt_proof_tally tally;
	/* the batch being proved: its job, its figures, its verdicts read */
	struct ibt_proof_probe *batch;
	size_t nbatch, nread;
	struct ibt_job_follow pjob;
	bool phave[AUDIT_STAT_MAX + 1];
	uint64_t pstat[AUDIT_STAT_MAX + 1];
};

static void audit_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] audit [--window N]\n"
	      "           [-t MS] [-r N] [--max-nodes N] [--no-prove] [--save FILE]\n"
	      "           [--prom FILE] [-v]\n"
	      "       ibtracectl [-j] [-d DEV] [-p PORT] audit --load FILE [--window N]\n"
	      "           [-t MS] [-r N] [--no-prove] [--prom FILE] [-v]\n"
	      "Sweep the subnet from a port and check the route its tables give to\n"
	      "every destination (every LID of every CA port, every switch's LID):\n"
	      "holes, dead ends, loops, routes over 64 hops, misdelivery; and the\n"
	      "credit loops of the routes between all CA ports. Then prove the data\n"
	      "path: a SourceRoute probe sent along each route that is ok comes in\n"
	      "by the ports the tables say (verified) or not (mismatch), meets a port\n"
	      "without an agent (no agent: a switch, not a fault), gets no answer\n"
	      "(unreachable) or cannot be sent (send error).\n"
	      "  --window N           SMPs, and probes, out at once, 1.." IBT_STR(IBTRACE_SWEEP_MAX_WINDOW)
	      " (default " IBT_STR(IBTRACE_SWEEP_DEF_WINDOW) ")\n"
	      "  -t, --timeout MS     wait per SMP or probe attempt, 1.." IBT_STR(IBTRACE_MAX_TIMEOUT_MS) " (default 1000)\n"
	      "  -r, --retries N      extra attempts after a timeout, 0.." IBT_STR(IBTRACE_MAX_RETRIES) " (default 3)\n"
	      "  --max-nodes N        nodes kept at most, 1.." IBT_STR(IBTRACE_SWEEP_MAX_NODES) " (the default)\n"
	      "  --no-prove           check the tables only, send no probe\n"
	      "  --save FILE          write the fabric found (JSON) for --load\n"
	      "  --load FILE          audit a fabric saved by --save instead of sweeping\n"
	      "                       (-: standard input): from this host's port, found\n"
	      "                       in it by its LID, with -d or -p (and proved); else\n"
	      "                       from the port it was saved at, sending nothing\n"
	      "  --prom FILE          also write the figures and the failing destinations\n"
	      "                       as Prometheus metrics, replacing FILE at once (for\n"
	      "                       node_exporter's textfile collector: a *.prom file)\n"
	      "  -v, --verbose        a line for every destination and every probe, not\n"
	      "                       only failing ones\n"
	      "Without -d: the first Active InfiniBand port. Needs CAP_NET_ADMIN (but\n"
	      "--load without -d or -p). Exit 19: a route failed a check or its probe (mismatch,\n"
	      "unreachable, send error), the routes have a credit loop, or SMPs of the\n"
	      "sweep went unanswered; 13 cancelled, 14 busy, 4 device gone.\n", f);
}

static int audit_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct audit *au = a->priv;

	switch (c) {
	case OPT_WINDOW:
		return ibt_opt_u32("--window", arg, 1, IBTRACE_SWEEP_MAX_WINDOW,
				   &au->window, &au->has_window);
	case OPT_MAX_NODES:
		return ibt_opt_u32("--max-nodes", arg, 1, IBTRACE_SWEEP_MAX_NODES,
				   &au->max_nodes, &au->has_max_nodes);
	case OPT_SAVE:
		au->save = arg;
		return 0;
	case OPT_LOAD:
		au->load = arg;
		return 0;
	case OPT_NO_PROVE:
		au->no_prove = true;
		return 0;
	case OPT_PROM:
		au->prom = arg;
		return 0;
	case 'v':
		au->verbose = true;
		return 0;
	default:
		return ibt_opt_wait(c, arg, &au->wait);
	}
}

static int audit_parse(struct ibt *ctx, struct audit *au)
{
	static const struct option opts[] = {
		{ "window",	required_argument,	NULL, OPT_WINDOW },
		{ "max-nodes",	required_argument,	NULL, OPT_MAX_NODES },
		{ "save",	required_argument,	NULL, OPT_SAVE },
		{ "load",	required_argument,	NULL, OPT_LOAD },
		{ "no-prove",	no_argument,		NULL, OPT_NO_PROVE },
		{ "prom",	required_argument,	NULL, OPT_PROM },
		{ "timeout",	required_argument,	NULL, 't' },
		{ "retries",	required_argument,	NULL, 'r' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ NULL,		0,			NULL, 0 },
	};
	const struct ibt_args a = {
		.obj = "audit", .opts = opts, .opt = audit_opt, .priv = au,
		.help = &au->help, .help_word = true,
	};
	int ret = ibt_args_parse(ctx, &a);

	if (ret || au->help)
		return ret;
	if (au->load && (au->save || au->has_max_nodes))
		return ibt_err(IBT_EXIT_USAGE,
			       "audit --load reads a saved fabric: it takes neither --save nor --max-nodes");
	if (au->load && !ctx->dev && !ctx->port &&
	    (au->has_window || au->wait.has_timeout || au->wait.has_retries))
		return ibt_err(IBT_EXIT_USAGE,
			       "audit --load without -d or -p sends nothing: --window, -t and -r need a port to prove from");
	return 0;
}

/* The sweep ----------------------------------------------------------------- */

static struct nl_msg *audit_request(struct ibt *ctx, struct audit *au)
{
	struct nl_msg *msg = ibt_nl_req(ctx, IBTRACE_CMD_SWEEP, false);

	if (!msg)
		return NULL;
	if (nla_put_string(msg, IBTRACE_A_DEV_NAME, au->dev) < 0 ||
	    nla_put_u32(msg, IBTRACE_A_PORT, au->port) < 0 ||
	    (au->has_window &&
	     nla_put_u32(msg, IBTRACE_A_SWEEP_WINDOW, au->window) < 0) ||
	    (au->has_max_nodes &&
	     nla_put_u32(msg, IBTRACE_A_SWEEP_MAX_NODES, au->max_nodes) < 0) ||
	    ibt_nl_put_wait(msg, &au->wait, IBTRACE_A_SWEEP_TIMEOUT_MS,
			    IBTRACE_A_SWEEP_RETRIES)) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/*
 * The figures of a job's message, nest @nest (when there: a sweep's or a
 * proof's, @max of them, attribute 1 their padding), into @have and @val.
 */
static int audit_keep_stats(struct ibt *ctx, struct nlattr *nest, int max,
			    bool *have, uint64_t *val)
{
	struct nlattr *st[AUDIT_STAT_MAX + 1];
	int i, ret;

	_Static_assert(IBTRACE_SWEEP_STAT_A_PAD == 1 &&
		       IBTRACE_PROVE_STAT_A_PAD == 1, "figures: padding first");
	if (!nest)
		return 0;
	ret = ibt_nl_parse_nest(ctx, nest, st);
	if (ret)
		return ret;
	for (i = 2; i <= max; i++) {
		if (!st[i])
			continue;
		have[i] = true;
		val[i] = ibt_nla_uint(st[i]);
	}
	return 0;
}

/* A message of the sweep job: its figures so far, and its end. */
static int audit_msg(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		     void *arg)
{
	struct audit *au = arg;
	int ret;

	(void)nlh;
	ret = audit_keep_stats(ctx, tb[IBTRACE_A_SWEEP_STATS],
			       IBTRACE_SWEEP_STAT_A_MAX, au->have, au->stat);
	if (ret)
		return ret;
	ibt_job_ended(&au->job, tb);
	return 0;
}

/* Every message of the job goes to audit_msg() (no progress command). */
static const struct ibt_job_kind audit_kind = {
	0, 0, NULL, audit_msg,
};

/* One port of a swept node into the model (@peer: its raw link). */
static int audit_port(struct ibt_fab_node *n, struct nlattr *nest)
{
	static struct nla_policy pol[IBTRACE_SWEEP_PORT_A_MAX + 1] = {
		[IBTRACE_SWEEP_PORT_A_NUM]		= { .type = NLA_U8 },
		[IBTRACE_SWEEP_PORT_A_STATE]		= { .type = NLA_U8 },
		[IBTRACE_SWEEP_PORT_A_PHYS_STATE]	= { .type = NLA_U8 },
		[IBTRACE_SWEEP_PORT_A_LID]		= { .type = NLA_U32 },
		[IBTRACE_SWEEP_PORT_A_LMC]		= { .type = NLA_U8 },
		[IBTRACE_SWEEP_PORT_A_PEER]		= { .type = NLA_U32 },
		[IBTRACE_SWEEP_PORT_A_PEER_PORT]	= { .type = NLA_U8 },
	};
	struct nlattr *tb[IBTRACE_SWEEP_PORT_A_MAX + 1];
	struct ibt_fab_port *p;
	uint8_t num;

	if (nla_parse_nested(tb, IBTRACE_SWEEP_PORT_A_MAX, nest, pol) < 0 ||
	    !tb[IBTRACE_SWEEP_PORT_A_NUM])
		return -1;
	num = nla_get_u8(tb[IBTRACE_SWEEP_PORT_A_NUM]);
	if (num > n->nports)
		return -1;
	p = &n->port[num];
	p->known = true;
	if (tb[IBTRACE_SWEEP_PORT_A_STATE])
		p->state = nla_get_u8(tb[IBTRACE_SWEEP_PORT_A_STATE]);
	if (tb[IBTRACE_SWEEP_PORT_A_PHYS_STATE])
		p->phys_state = nla_get_u8(tb[IBTRACE_SWEEP_PORT_A_PHYS_STATE]);
	if (tb[IBTRACE_SWEEP_PORT_A_LMC])
		p->lmc = nla_get_u8(tb[IBTRACE_SWEEP_PORT_A_LMC]) & 7;
	if (tb[IBTRACE_SWEEP_PORT_A_LID]) {
		uint32_t lid = nla_get_u32(tb[IBTRACE_SWEEP_PORT_A_LID]);

		p->lid = lid <= IBT_FAB_LID_MAX ? lid : 0;
	}
	/* the link, by the sweep's indices: checked once every node is in */
	if (tb[IBTRACE_SWEEP_PORT_A_PEER] && tb[IBTRACE_SWEEP_PORT_A_PEER_PORT]) {
		p->peer = nla_get_u32(tb[IBTRACE_SWEEP_PORT_A_PEER]);
		p->peer_port = nla_get_u8(tb[IBTRACE_SWEEP_PORT_A_PEER_PORT]);
	}
	return 0;
}

/* A node's first message: the node, added to the model. */
static struct ibt_fab_node *audit_new_node(struct audit *au, struct nlattr **tb)
{
	struct ibt_fab_node *n;

	if (!tb[IBTRACE_SWEEP_NODE_A_GUID] || !tb[IBTRACE_SWEEP_NODE_A_TYPE] ||
	    !tb[IBTRACE_SWEEP_NODE_A_NUM_PORTS])
		return NULL;
	n = ibt_fabric_add(&au->fab, nla_get_u64(tb[IBTRACE_SWEEP_NODE_A_GUID]),
			   nla_get_u8(tb[IBTRACE_SWEEP_NODE_A_TYPE]),
			   nla_get_u8(tb[IBTRACE_SWEEP_NODE_A_NUM_PORTS]));
	if (!n)
		return NULL;
	if (tb[IBTRACE_SWEEP_NODE_A_DESC])
		nla_strlcpy(n->desc, tb[IBTRACE_SWEEP_NODE_A_DESC], sizeof(n->desc));
	if (tb[IBTRACE_SWEEP_NODE_A_LFT_TOP]) {
		uint32_t top = nla_get_u32(tb[IBTRACE_SWEEP_NODE_A_LFT_TOP]);

		if (top > IBT_FAB_LID_MAX)
			return NULL;
		n->lft = malloc(top + 1);
		if (!n->lft)
			return NULL;
		memset(n->lft, IBT_FAB_NO_PORT, top + 1);
		n->lft_top = top;
	}
	return n;
}

/* A piece of a switch's table. */
static int audit_lft(struct ibt_fab_node *n, struct nlattr **tb)
{
	uint32_t off = nla_get_u32(tb[IBTRACE_SWEEP_NODE_A_LFT_OFFSET]);
	uint32_t len = nla_len(tb[IBTRACE_SWEEP_NODE_A_LFT]);

	if (!n->lft || off > n->lft_top || len > n->lft_top + 1 - off)
		return -1;
	memcpy(&n->lft[off], nla_data(tb[IBTRACE_SWEEP_NODE_A_LFT]), len);
	return 0;
}

/* One message of the dump: a node, more of its ports, or its table. */
static int audit_node_msg(struct ibt *ctx, struct nlmsghdr *nlh,
			  struct nlattr **top, void *arg)
{
	struct nlattr *tb[IBTRACE_SWEEP_NODE_A_MAX + 1];
	struct audit *au = arg;
	struct ibt_fab_node *n;
	uint32_t index;
	struct nlattr *a;
	int rem, ret;

	(void)nlh;
	if (!top[IBTRACE_A_SWEEP_NODE])
		return 0;
	ret = ibt_nl_parse_nest(ctx, top[IBTRACE_A_SWEEP_NODE], tb);
	if (ret)
		return ret;
	if (!tb[IBTRACE_SWEEP_NODE_A_INDEX])
		goto bad;
	index = nla_get_u32(tb[IBTRACE_SWEEP_NODE_A_INDEX]);
	if (index == au->fab.nnodes)
		n = audit_new_node(au, tb);
	else if (index + 1 == au->fab.nnodes)
		n = &au->fab.node[index];
	else
		goto bad;
	if (!n)
		goto bad;
	nla_for_each_nested(a, top[IBTRACE_A_SWEEP_NODE], rem)
		if (nla_type(a) == IBTRACE_SWEEP_NODE_A_PORT && audit_port(n, a))
			goto bad;
	if (tb[IBTRACE_SWEEP_NODE_A_LFT] && (!tb[IBTRACE_SWEEP_NODE_A_LFT_OFFSET] ||
					     audit_lft(n, tb)))
		goto bad;
	return 0;
bad:
	return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: sweep node %u",
		       au->fab.nnodes);
}

/*
 * The links the sweep named by node index: each must name a port of a
 * node that names this port back; one that does not is dropped.
 */
static void audit_check_links(struct ibt_fabric *f)
{
	uint32_t i, p;

	for (i = 0; i < f->nnodes; i++) {
		struct ibt_fab_node *n = &f->node[i];

		for (p = 0; p <= n->nports; p++) {
			struct ibt_fab_port *fp = &n->port[p];
			const struct ibt_fab_node *m;

			if (fp->peer == IBT_FAB_NONE)
				continue;
			m = fp->peer < f->nnodes ? &f->node[fp->peer] : NULL;
			if (!m || fp->peer_port > m->nports ||
			    m->port[fp->peer_port].peer != i ||
			    m->port[fp->peer_port].peer_port != p)
				fp->peer = IBT_FAB_NONE;
		}
	}
}

/*
 * The port to audit from, into au->dev and au->port: -d (and -p, else 1),
 * or the first Active InfiniBand port (of number -p). An exit code.
 */
static int audit_from(struct ibt *ctx, struct audit *au)
{
	const struct ibt_port_want want = { .port = ctx->port, .ib = true };
	int ret;

	ret = ibt_nl_open(ctx);
	if (ret)
		return ret;
	if (ctx->dev) {
		snprintf(au->dev, sizeof(au->dev), "%s", ctx->dev);
		au->port = ctx->port ? ctx->port : 1;
		return 0;
	}
	ret = ibt_port_pick(ctx, &want, au->dev, sizeof(au->dev), &au->port);
	if (ret)
		return ret;
	if (!au->dev[0])
		return ibt_err(IBT_EXIT_NODEV,
			       "no Active InfiniBand port to audit from; name one with -d DEV");
	return 0;
}

/* Sweep from the port and read what was found into au->fab. */
static int audit_sweep(struct ibt *ctx, struct audit *au)
{
	struct nl_msg *msg;
	bool interrupted;
	int ret;

	ret = audit_from(ctx, au);
	if (ret)
		return ret;
	msg = audit_request(ctx, au);
	if (!msg)
		return IBT_EXIT_ERR;
	/* SIGINT/SIGTERM cancel the job, as for trace */
	ret = ibt_job_run(ctx, msg, &au->job, &audit_kind, au);
	if (!ret)
		ret = ibt_job_result(ctx, &au->job, &interrupted);
	if (ret)
		return ret;
	if (interrupted)
		return ibt_err(IBT_EXIT_CANCEL, "audit from %s/%u cancelled during the sweep",
			       au->dev, au->port);

	msg = ibt_nl_req_u32(ctx, IBTRACE_CMD_SWEEP_NODE, true, IBTRACE_A_JOB,
			     au->job.id);
	if (!msg)
		return IBT_EXIT_ERR;
	ret = ibt_nl_run_parsed(ctx, msg, audit_node_msg, au);
	if (ret)
		return ret;
	if (!au->fab.nnodes)
		return ibt_err(IBT_EXIT_ERR, "the sweep from %s/%u found no node",
			       au->dev, au->port);
	audit_check_links(&au->fab);
	au->fab.src = 0;
	au->fab.src_port = au->fab.node[0].type == IBT_FAB_SWITCH ? 0 : au->port;
	if (ibt_fabric_index_lids(&au->fab) < 0)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	return 0;
}

/* Read the model from --load FILE ("-": standard input). */
static int audit_load(struct audit *au)
{
	bool in = !strcmp(au->load, "-");
	FILE *f = in ? stdin : fopen(au->load, "r");
	char err[256];
	int ret;

	if (!f)
		return ibt_err(IBT_EXIT_ERR, "cannot read %s: %s", au->load,
			       strerror(errno));
	ret = ibt_fabric_load(&au->fab, f, err, sizeof(err));
	if (!in)
		fclose(f);
	if (ret)
		return ibt_err(IBT_EXIT_ERR, "%s: %s", au->load, err);
	return 0;
}

/*
 * A loaded model seen from this host's port (-d or -p): the port is found
 * in it by its LID, and becomes the source of the routes. A model from
 * another subnet, or from before the port had its LID, does not have it.
 */
static int audit_place(struct ibt *ctx, struct audit *au)
{
	struct ibt_fabric *f = &au->fab;
	struct ibt_port_lid pl;
	uint32_t n;
	uint8_t p;
	int ret;

	ret = audit_from(ctx, au) ?: ibt_port_lid(ctx, au->dev, au->port, &pl);
	if (ret)
		return ret;
	if (!pl.ib || pl.state != IBTRACE_PORT_STATE_ACTIVE || !pl.lid)
		return ibt_err(IBT_EXIT_NODEV,
			       "%s/%u is not an Active InfiniBand port with a LID: no route starts there",
			       au->dev, au->port);
	n = ibt_fabric_lid_owner(f, pl.lid, &p);
	if (n == IBT_FAB_NONE)
		return ibt_err(IBT_EXIT_ERR,
			       "%s: no port has LID 0x%04x, the LID of %s/%u (saved from another subnet, or before the SM gave it)",
			       au->load, pl.lid, au->dev, au->port);
	if (f->node[n].type != IBT_FAB_SWITCH && p != au->port)
		return ibt_err(IBT_EXIT_ERR,
			       "%s: LID 0x%04x is port %u of \"%s\" there, not port %u",
			       au->load, pl.lid, p, f->node[n].desc, au->port);
	f->src = n;
	f->src_port = p;
	return 0;
}

/* Write the model to --save FILE, whole or not at all. */
static int audit_save(struct audit *au)
{
	char tmp[4096];
	FILE *f;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp", au->save);
	f = fopen(tmp, "w");
	if (!f)
		return ibt_err(IBT_EXIT_ERR, "cannot write %s: %s", tmp,
			       strerror(errno));
	ret = ibt_fabric_save(&au->fab, f);
	if (fclose(f) || ret || rename(tmp, au->save)) {
		remove(tmp);
		return ibt_err(IBT_EXIT_ERR, "cannot write %s", au->save);
	}
	return 0;
}

/* The proof ------------------------------------------------------------------ */

/* One destination of the batch into the request: its LID and vector. */
static int audit_put_probe(struct nl_msg *msg, const struct ibt_proof_probe *p)
{
	struct nlattr *nest = nla_nest_start(msg, IBTRACE_A_PROVE_DEST);

	if (!nest || nla_put_u32(msg, IBTRACE_PROVE_DEST_A_LID, p->dlid) < 0 ||
	    nla_put(msg, IBTRACE_PROVE_DEST_A_VECTOR, p->hops, p->vector) < 0)
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

/* The bytes of the attributes of the request for the batch. */
static size_t audit_prove_size(const struct audit *au)
{
	size_t i, size = nla_total_size(IBT_DEV_NAME_MAX) +
			 4 * nla_total_size(sizeof(uint32_t));

	for (i = 0; i < au->nbatch; i++)
		size += nla_total_size(nla_total_size(sizeof(uint32_t)) +
				       nla_total_size(au->batch[i].hops));
	return size;
}

/*
 * The proof of the batch: the port as the sweep's, the options the sweep
 * took (--window, -t, -r), and each destination.
 */
static struct nl_msg *audit_prove_request(struct ibt *ctx,
					  const struct audit *au)
{
	struct nl_msg *msg = ibt_nl_req_size(ctx, IBTRACE_CMD_PROVE, false,
					     audit_prove_size(au));
	size_t i;

	if (!msg)
		return NULL;
	if (nla_put_string(msg, IBTRACE_A_DEV_NAME, au->dev) < 0 ||
	    nla_put_u32(msg, IBTRACE_A_PORT, au->port) < 0 ||
	    (au->has_window &&
	     nla_put_u32(msg, IBTRACE_A_PROVE_WINDOW, au->window) < 0) ||
	    ibt_nl_put_wait(msg, &au->wait, IBTRACE_A_PROVE_TIMEOUT_MS,
			    IBTRACE_A_PROVE_RETRIES))
		goto full;
	for (i = 0; i < au->nbatch; i++)
		if (audit_put_probe(msg, &au->batch[i]))
			goto full;
	return msg;
full:
	nlmsg_free(msg);
	ibt_err(IBT_EXIT_ERR, "netlink request too large");
	return NULL;
}

/* A message of a proof's job: its figures so far, and its end. */
static int audit_prove_msg(struct ibt *ctx, struct nlmsghdr *nlh,
			   struct nlattr **tb, void *arg)
{
	struct audit *au = arg;
	int ret;

	(void)nlh;
	ret = audit_keep_stats(ctx, tb[IBTRACE_A_PROVE_STATS],
			       IBTRACE_PROVE_STAT_A_MAX, au->phave, au->pstat);
	if (ret)
		return ret;
	ibt_job_ended(&au->pjob, tb);
	return 0;
}

/* Every message of a proof's job goes to audit_prove_msg(). */
static const struct ibt_job_kind audit_prove_kind = {
	0, 0, NULL, audit_prove_msg,
};

/* A destination's verdict, as the dump has it, into @p. */
static void audit_keep_verdict(struct ibt_proof *p, struct nlattr **tb)
{
	p->sent = true;
	p->verdict = nla_get_u8(tb[IBTRACE_PROVE_DEST_A_VERDICT]);
	if (tb[IBTRACE_PROVE_DEST_A_ATTEMPTS])
		p->attempts = nla_get_u32(tb[IBTRACE_PROVE_DEST_A_ATTEMPTS]);
	if (tb[IBTRACE_PROVE_DEST_A_ERRNO])
		p->err = nla_get_u32(tb[IBTRACE_PROVE_DEST_A_ERRNO]);
	p->has_port = !!tb[IBTRACE_PROVE_DEST_A_ACTUAL_PORT];
	if (p->has_port)
		p->actual_port = nla_get_u8(tb[IBTRACE_PROVE_DEST_A_ACTUAL_PORT]);
	p->has_status = !!tb[IBTRACE_PROVE_DEST_A_STATUS];
	if (p->has_status)
		p->status = nla_get_u16(tb[IBTRACE_PROVE_DEST_A_STATUS]);
	p->has_rtt = !!tb[IBTRACE_PROVE_DEST_A_RTT_NS];
	if (p->has_rtt)
		p->rtt_ns = nla_get_u64(tb[IBTRACE_PROVE_DEST_A_RTT_NS]);
}

/*
 * One message of the verdicts' dump: a destination of the batch, by its
 * place in the request, kept beside the destination it is.
 */
static int audit_verdict_msg(struct ibt *ctx, struct nlmsghdr *nlh,
			     struct nlattr **top, void *arg)
{
	struct nlattr *tb[IBTRACE_PROVE_DEST_A_MAX + 1];
	const struct ibt_proof_probe *pr;
	struct audit *au = arg;
	struct ibt_proof *p;
	uint32_t i = 0;
	int ret;

	(void)nlh;
	if (!top[IBTRACE_A_PROVE_DEST])
		return 0;
	ret = ibt_nl_parse_nest(ctx, top[IBTRACE_A_PROVE_DEST], tb);
	if (ret)
		return ret;
	if (!tb[IBTRACE_PROVE_DEST_A_INDEX] || !tb[IBTRACE_PROVE_DEST_A_VERDICT])
		goto bad;
	i = nla_get_u32(tb[IBTRACE_PROVE_DEST_A_INDEX]);
	if (i >= au->nbatch)
		goto bad;
	pr = &au->batch[i];
	p = &au->proof[pr->dest];
	/* the LID asked, once */
	if (p->sent || (tb[IBTRACE_PROVE_DEST_A_LID] &&
			nla_get_u32(tb[IBTRACE_PROVE_DEST_A_LID]) != pr->dlid))
		goto bad;
	audit_keep_verdict(p, tb);
	p->expected_port = pr->vector[pr->hops - 1];
	au->nread++;
	return 0;
bad:
	return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: proof destination %u",
		       i);
}

/* The MADs the batch's probes took, when the job's figures do not say. */
static uint64_t audit_batch_mads(const struct audit *au)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < au->nbatch; i++)
		n += au->proof[au->batch[i].dest].attempts;
	return n;
}

/*
 * The batch's verdicts are read: each destination must have one. Its
 * job's MADs and time go to the tally. An exit code.
 */
static int audit_batch_end(struct audit *au)
{
	if (au->nread != au->nbatch)
		return ibt_err(IBT_EXIT_ERR,
			       "malformed kernel reply: the verdicts of %zu of the proof's %zu destinations",
			       au->nread, au->nbatch);
	au->tally.mads += au->phave[IBTRACE_PROVE_STAT_A_MADS] ?
			  au->pstat[IBTRACE_PROVE_STAT_A_MADS] :
			  audit_batch_mads(au);
	au->tally.elapsed_ns += au->pstat[IBTRACE_PROVE_STAT_A_ELAPSED_NS];
	return 0;
}

/* Prove the batch: its job, to its end, then its verdicts. An exit code. */
static int audit_prove_batch(struct ibt *ctx, struct audit *au)
{
	struct nl_msg *msg = audit_prove_request(ctx, au);
	bool interrupted;
	int ret;

	if (!msg)
		return IBT_EXIT_ERR;
	memset(&au->pjob, 0, sizeof(au->pjob));
	memset(au->phave, 0, sizeof(au->phave));
	memset(au->pstat, 0, sizeof(au->pstat));
	/* SIGINT/SIGTERM cancel the job, as the sweep's */
	ret = ibt_job_run(ctx, msg, &au->pjob, &audit_prove_kind, au);
	if (!ret)
		ret = ibt_job_result(ctx, &au->pjob, &interrupted);
	if (ret)
		return ret;
	if (interrupted)
		return ibt_err(IBT_EXIT_CANCEL, "audit from %s/%u cancelled during the proof",
			       au->dev, au->port);

	au->nread = 0;
	msg = ibt_nl_req_u32(ctx, IBTRACE_CMD_PROVE_DEST, true, IBTRACE_A_JOB,
			     au->pjob.id);
	if (!msg)
		return IBT_EXIT_ERR;
	ret = ibt_nl_run_parsed(ctx, msg, audit_verdict_msg, au);
	return ret ? ret : audit_batch_end(au);
}

/*
 * Prove the data path to every destination whose route is ok and crosses
 * a link: in batches of IBTRACE_PROVE_MAX_DESTS, a job each, one after
 * the other (a job holds one batch; the kernel runs few at once). The
 * verdicts go to au->proof, their count to au->tally. An exit code.
 */
static int audit_prove(struct ibt *ctx, struct audit *au)
{
	size_t next = 0;
	long n = 0;
	int ret = 0;

	au->batch = calloc(IBTRACE_PROVE_MAX_DESTS, sizeof(*au->batch));
	if (!au->batch)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	while (!ret && (n = ibt_proof_batch(&au->fab, au->dlids, au->ndests,
					    &next, au->batch,
					    IBTRACE_PROVE_MAX_DESTS)) > 0) {
		au->nbatch = n;
		ret = audit_prove_batch(ctx, au);
	}
	free(au->batch);
	au->batch = NULL;
	au->nbatch = 0;
	if (!ret && n < 0)
		ret = ibt_err(IBT_EXIT_ERR, "internal error: the model has no source node");
	if (!ret)
		ibt_proof_count(&au->tally, au->proof, au->ndests);
	return ret;
}

/* Printing ------------------------------------------------------------------ */

static const char *type_str(uint8_t type)
{
	switch (type) {
	case IBT_FAB_CA:
		return "ca";
	case IBT_FAB_SWITCH:
		return "switch";
	case IBT_FAB_ROUTER:
		return "router";
	default:
		return "unknown";
	}
}

/* "switch "S1" (0x...)" */
static const char *node_name(const struct ibt_fabric *f, uint32_t i, char *buf,
			     size_t len)
{
	const struct ibt_fab_node *n = &f->node[i];

	snprintf(buf, len, "%s \"%s\" (0x%016" PRIx64 ")", type_str(n->type),
		 n->desc, n->guid);
	return buf;
}

static void json_node(struct ibt *ctx, const struct ibt_fabric *f, uint32_t i)
{
	char guid[24];

	snprintf(guid, sizeof(guid), "0x%016" PRIx64, f->node[i].guid);
	ibt_out_json(ctx, "node_guid", json_object_new_string(guid));
	ibt_out_json(ctx, "node_desc", json_object_new_string(f->node[i].desc));
}

/* What went wrong at the failing node of route @r, for text. */
static const char *why(const struct ibt_fabric *f, const struct ibt_route *r,
		       char *buf, size_t len)
{
	switch (r->verdict) {
	case IBT_ROUTE_HOLE:
		if (r->at_port == IBT_FAB_NO_PORT)
			return "no LFT entry";
		snprintf(buf, len, "LFT names port %u, which it does not have",
			 r->at_port);
		return buf;
	case IBT_ROUTE_DEAD_END:
		snprintf(buf, len, "exit port %u is not Active or has no link",
			 r->at_port);
		return buf;
	case IBT_ROUTE_LOOP:
		return "met a second time";
	case IBT_ROUTE_TOO_LONG:
		snprintf(buf, len, "more than %d hops", IBT_ROUTE_MAX_HOPS);
		return buf;
	case IBT_ROUTE_MISDELIVERED:
		snprintf(buf, len, "the packet ends there, by port %u", r->at_port);
		return buf;
	case IBT_ROUTE_NO_OWNER:
		snprintf(buf, len, "no port has the LID, the packet ends there by port %u",
			 r->at_port);
		return buf;
	default:
		(void)f;
		return "";
	}
}

/* The start of a destination's line: its LID and the port that has it. */
static void dest_text(const struct ibt_fabric *f, uint16_t dlid, uint32_t dest,
		      uint8_t dest_port)
{
	char name[160];

	printf("  lid 0x%04x", dlid);
	if (dest != IBT_FAB_NONE)
		printf(" (port %u of %s)", dest_port,
		       node_name(f, dest, name, sizeof(name)));
}

/* A destination, in text. */
static void route_text(const struct ibt_fabric *f, const struct ibt_route *r)
{
	char name[160], b[96];
	uint8_t ports[IBT_ROUTE_MAX_HOPS + 1];
	size_t n, i;

	dest_text(f, r->dlid, r->dest, r->dest_port);
	if (r->verdict == IBT_ROUTE_OK) {
		n = ibt_route_in_ports(r, ports);
		printf(": ok, %u hops, in ports", r->nhops - 1);
		for (i = 0; i < n; i++)
			printf("%s%u", i ? "," : " ", ports[i]);
		printf("\n");
		return;
	}
	printf(": %s at %s: %s\n", ibt_route_verdict_str(r->verdict),
	       node_name(f, r->at_node, name, sizeof(name)), why(f, r, b, sizeof(b)));
}

/* What the probe of a destination proved, in JSON: its "proof". */
static void proof_json(struct ibt *ctx, const struct ibt_proof *p)
{
	ibt_out_obj_begin(ctx, "proof");
	ibt_out_json(ctx, "verdict",
		     json_object_new_string(ibt_proof_verdict_str(p->verdict)));
	if (p->has_port)
		ibt_out_json(ctx, "actual_port",
			     json_object_new_uint64(p->actual_port));
	if (p->has_status)
		ibt_out_json(ctx, "status", json_object_new_uint64(p->status));
	ibt_out_json(ctx, "attempts", json_object_new_uint64(p->attempts));
	if (p->has_rtt)
		ibt_out_json(ctx, "rtt_ns", json_object_new_uint64(p->rtt_ns));
	if (p->verdict == IBTRACE_PROVE_SEND_ERROR && p->err)
		ibt_out_json(ctx, "errno", json_object_new_uint64(p->err));
	ibt_out_obj_end(ctx);
}

/* The channels route @r crosses, as array @key: node and exit port each. */
static void path_json(struct ibt *ctx, const struct ibt_fabric *f,
		      const char *key, const struct ibt_route *r)
{
	size_t i;

	ibt_out_arr_begin(ctx, key);
	for (i = 0; i + 1 < r->nhops; i++) {
		ibt_out_obj_begin(ctx, NULL);
		json_node(ctx, f, r->hop[i].node);
		ibt_out_json(ctx, "out_port",
			     json_object_new_uint64(r->hop[i].out_port));
		ibt_out_obj_end(ctx);
	}
	ibt_out_arr_end(ctx);
}

/*
 * The way a probe's answer came back (the tables' route from the
 * destination to the source port): its channels when the tables route
 * it, else the check it fails.
 */
static void back_json(struct ibt *ctx, const struct ibt_fabric *f,
		      const struct ibt_route *r)
{
	struct ibt_route back;

	if (ibt_route_back(f, r, &back))
		return;
	if (back.verdict == IBT_ROUTE_OK)
		path_json(ctx, f, "return_path", &back);
	else
		ibt_out_json(ctx, "return_verdict",
			     json_object_new_string(ibt_route_verdict_str(back.verdict)));
}

/* A destination in JSON, with what its probe proved if it was sent. */
static void route_json(struct ibt *ctx, const struct ibt_fabric *f,
		       const struct ibt_route *r, const struct ibt_proof *p)
{
	uint8_t ports[IBT_ROUTE_MAX_HOPS + 1];
	size_t n, i;

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "dlid", json_object_new_uint64(r->dlid));
	ibt_out_json(ctx, "verdict",
		     json_object_new_string(ibt_route_verdict_str(r->verdict)));
	if (r->dest != IBT_FAB_NONE) {
		json_node(ctx, f, r->dest);
		ibt_out_json(ctx, "port", json_object_new_uint64(r->dest_port));
	}
	if (r->nhops)
		ibt_out_json(ctx, "hops", json_object_new_uint64(r->nhops - 1));
	if (r->verdict == IBT_ROUTE_OK) {
		n = ibt_route_in_ports(r, ports);
		ibt_out_arr_begin(ctx, "in_ports");
		for (i = 0; i < n; i++)
			ibt_out_json(ctx, NULL, json_object_new_uint64(ports[i]));
		ibt_out_arr_end(ctx);
		/* the channels crossed, both ways when proved, for audit merge */
		path_json(ctx, f, "path", r);
		if (p->sent)
			back_json(ctx, f, r);
	} else if (r->at_node != IBT_FAB_NONE) {
		ibt_out_obj_begin(ctx, "at");
		json_node(ctx, f, r->at_node);
		ibt_out_json(ctx, "port", json_object_new_uint64(r->at_port));
		ibt_out_obj_end(ctx);
	}
	if (p->sent)
		proof_json(ctx, p);
	ibt_out_obj_end(ctx);
}

static void audit_head(struct ibt *ctx, const struct audit *au)
{
	static const struct ibt_num_key keys[] = {
		{ IBTRACE_SWEEP_STAT_A_NODES,		"nodes" },
		{ IBTRACE_SWEEP_STAT_A_SWITCHES,	"switches" },
		{ IBTRACE_SWEEP_STAT_A_LINKS,		"links" },
		{ IBTRACE_SWEEP_STAT_A_SMPS,		"smps" },
		{ IBTRACE_SWEEP_STAT_A_UNANSWERED,	"unanswered" },
		{ IBTRACE_SWEEP_STAT_A_NOT_KEPT,	"not_kept" },
		{ IBTRACE_SWEEP_STAT_A_BYTES,		"bytes" },
		{ IBTRACE_SWEEP_STAT_A_ELAPSED_NS,	"elapsed_ns" },
	};
	const struct ibt_fabric *f = &au->fab;
	char guid[24];

	snprintf(guid, sizeof(guid), "0x%016" PRIx64, f->node[f->src].guid);
	ibt_out_obj_begin(ctx, "source");
	if (au->dev[0]) {
		ibt_out_json(ctx, "dev", json_object_new_string(au->dev));
		ibt_out_json(ctx, "port", json_object_new_uint64(au->port));
	} else {
		ibt_out_json(ctx, "port", json_object_new_uint64(f->src_port));
	}
	if (au->load)
		ibt_out_json(ctx, "file", json_object_new_string(au->load));
	ibt_out_json(ctx, "node_guid", json_object_new_string(guid));
	ibt_out_obj_end(ctx);
	if (au->load && au->dev[0]) {
		ibt_out_text(ctx, "audit of %s from %s/%u (%s port %u): %u nodes\n",
			     au->load, au->dev, au->port, guid, f->src_port,
			     f->nnodes);
	} else if (au->dev[0]) {
		ibt_out_obj_begin(ctx, "sweep");
		ibt_out_nums(ctx, keys, IBT_ARRAY_SIZE(keys), au->have, au->stat);
		ibt_out_obj_end(ctx);
		ibt_out_text(ctx, "audit from %s/%u: %" PRIu64 " nodes (%" PRIu64
			     " switches), %" PRIu64 " links, %" PRIu64 " SMPs, %.3f s\n",
			     au->dev, au->port,
			     au->stat[IBTRACE_SWEEP_STAT_A_NODES],
			     au->stat[IBTRACE_SWEEP_STAT_A_SWITCHES],
			     au->stat[IBTRACE_SWEEP_STAT_A_LINKS],
			     au->stat[IBTRACE_SWEEP_STAT_A_SMPS],
			     au->stat[IBTRACE_SWEEP_STAT_A_ELAPSED_NS] / 1e9);
		if (au->stat[IBTRACE_SWEEP_STAT_A_UNANSWERED] ||
		    au->stat[IBTRACE_SWEEP_STAT_A_NOT_KEPT])
			ibt_out_text(ctx, "  (%" PRIu64 " questions unanswered, %"
				     PRIu64 " nodes or tables past the bounds: what they would tell is not known)\n",
				     au->stat[IBTRACE_SWEEP_STAT_A_UNANSWERED],
				     au->stat[IBTRACE_SWEEP_STAT_A_NOT_KEPT]);
	} else {
		ibt_out_text(ctx, "audit of %s from %s port %u: %u nodes\n",
			     au->load, guid, f->src_port, f->nnodes);
	}
}

/* The count of destinations by verdict. */
static void audit_summary(struct ibt *ctx, size_t n,
			  const size_t counts[IBT_ROUTE_NO_OWNER + 1])
{
	unsigned int v;

	ibt_out_obj_begin(ctx, "summary");
	ibt_out_json(ctx, "destinations", json_object_new_uint64(n));
	ibt_out_text(ctx, "%zu destinations:", n);
	for (v = 0; v <= IBT_ROUTE_NO_OWNER; v++) {
		ibt_out_json(ctx, ibt_route_verdict_str(v),
			     json_object_new_uint64(counts[v]));
		if (counts[v] || v == IBT_ROUTE_OK)
			ibt_out_text(ctx, "%s %zu %s", v ? "," : "", counts[v],
				     ibt_route_verdict_str(v));
	}
	ibt_out_text(ctx, "\n");
	ibt_out_obj_end(ctx);
}

/*
 * The destinations: every LID a port owns (ibt_route_dests()) and every
 * LID a switch's table routes that no port known owns (a port behind a
 * link that is down: the route then says where it ends). Sorted, each
 * once; *@n of them. NULL: out of memory.
 */
static uint16_t *audit_dests(const struct ibt_fabric *f, size_t *n)
{
	size_t owned = ibt_route_dests(f, NULL, 0), i, k = 0;
	uint8_t *want = calloc(IBT_FAB_LID_MAX + 1, 1);
	uint16_t *dlids = NULL, *own = NULL;
	uint32_t node, lid;

	own = calloc(owned ? owned : 1, sizeof(*own));
	if (!want || !own)
		goto out;
	ibt_route_dests(f, own, owned);
	for (i = 0; i < owned; i++)
		want[own[i]] = 1;
	for (node = 0; node < f->nnodes; node++) {
		const struct ibt_fab_node *nd = &f->node[node];

		for (lid = 1; nd->lft && lid <= nd->lft_top; lid++)
			if (nd->lft[lid] != IBT_FAB_NO_PORT && !want[lid] &&
			    ibt_fabric_lid_owner(f, lid, NULL) == IBT_FAB_NONE)
				want[lid] = 1;
	}
	for (lid = 1; lid <= IBT_FAB_LID_MAX; lid++)
		k += want[lid];
	dlids = calloc(k ? k : 1, sizeof(*dlids));
	if (!dlids)
		goto out;
	for (k = 0, lid = 1; lid <= IBT_FAB_LID_MAX; lid++)
		if (want[lid])
			dlids[k++] = lid;
	*n = k;
out:
	free(own);
	free(want);
	return dlids;
}

/*
 * Every destination's route, checked: the counts first, then each one
 * (JSON: all, with what its probe proved; text: the failing ones, all
 * with -v). 1 when one failed, 0 when none did, -1 when the model has no
 * source node.
 */
static int audit_routes(struct ibt *ctx, const struct audit *au,
			size_t counts[IBT_ROUTE_NO_OWNER + 1])
{
	const struct ibt_fabric *f = &au->fab;
	size_t n = au->ndests, i;
	struct ibt_route r;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			audit_summary(ctx, n, counts);
			ibt_out_arr_begin(ctx, "destinations");
		}
		for (i = 0; i < n; i++) {
			if (ibt_route_compute(f, au->dlids[i], &r))
				return -1;
			if (!pass) {
				counts[r.verdict]++;
				continue;
			}
			route_json(ctx, f, &r, &au->proof[i]);
			if (!ctx->json && (au->verbose || r.verdict != IBT_ROUTE_OK))
				route_text(f, &r);
		}
	}
	ibt_out_arr_end(ctx);
	return counts[IBT_ROUTE_OK] < n;
}

/* A probed destination, in text: what its probe proved. */
static void proof_text(const struct ibt_fabric *f, uint16_t dlid,
		       const struct ibt_proof *p)
{
	uint8_t port = 0;
	uint32_t dest = ibt_fabric_lid_owner(f, dlid, &port);
	char b[160];

	dest_text(f, dlid, dest, port);
	printf(": %s\n", ibt_proof_why(p, b, sizeof(b)));
}

/*
 * The proof: the count of its verdicts (JSON: "proof"), or why it did not
 * run; in text, then a line per destination whose probe is a finding
 * (every one probed with -v).
 */
static void audit_proof_out(struct ibt *ctx, const struct audit *au)
{
	static const uint8_t keys[] = {
		IBTRACE_PROVE_VERIFIED, IBTRACE_PROVE_MISMATCH,
		IBTRACE_PROVE_NO_AGENT, IBTRACE_PROVE_UNREACHABLE,
		IBTRACE_PROVE_SEND_ERROR, IBTRACE_PROVE_UNTRIED,
	};
	const struct ibt_proof_tally *t = &au->tally;
	char b[256];
	size_t i;

	ibt_out_obj_begin(ctx, "proof");
	ibt_out_json(ctx, "proved", json_object_new_boolean(!au->why_not));
	if (au->why_not) {
		ibt_out_json(ctx, "why_not", json_object_new_string(au->why_not));
		ibt_out_obj_end(ctx);
		ibt_out_text(ctx, "data path: not proved (%s)\n", au->why_not);
		return;
	}
	ibt_out_json(ctx, "destinations", json_object_new_uint64(t->dests));
	ibt_out_json(ctx, "mads", json_object_new_uint64(t->mads));
	for (i = 0; i < IBT_ARRAY_SIZE(keys); i++)
		ibt_out_json(ctx, ibt_proof_verdict_str(keys[i]),
			     json_object_new_uint64(t->verdicts[keys[i]]));
	ibt_out_json(ctx, "elapsed_ns", json_object_new_uint64(t->elapsed_ns));
	ibt_out_obj_end(ctx);
	ibt_out_text(ctx, "data path: %s\n", ibt_proof_summary_str(t, b, sizeof(b)));
	if (ctx->json)
		return;
	for (i = 0; i < au->ndests; i++) {
		const struct ibt_proof *p = &au->proof[i];

		if (p->sent && (au->verbose || ibt_proof_finding(p->verdict)))
			proof_text(&au->fab, au->dlids[i], p);
	}
}

/* The credit loops (*@nloops of them); 1 when there is one, -1 out of memory. */
static int audit_loops(struct ibt *ctx, const struct ibt_fabric *f,
		       size_t *nloops)
{
	struct ibt_cdg_cycle *cyc = calloc(AUDIT_CYCLES, sizeof(*cyc));
	struct ibt_cdg_stats st = { 0 };
	char name[160];
	int n, i;
	uint32_t k;

	if (!cyc)
		return -1;
	n = ibt_cdg_loops(f, cyc, AUDIT_CYCLES, &st);
	if (n < 0) {
		free(cyc);
		return -1;
	}
	ibt_out_obj_begin(ctx, "credit_loops");
	ibt_out_json(ctx, "channels", json_object_new_uint64(st.channels));
	ibt_out_json(ctx, "dependencies", json_object_new_uint64(st.deps));
	ibt_out_json(ctx, "loops", json_object_new_uint64(st.loops));
	if (!st.loops)
		ibt_out_text(ctx, "credit loops: none (%zu channels, %zu dependencies)\n",
			     st.channels, st.deps);
	else
		ibt_out_text(ctx, "credit loops: %zu (%zu channels, %zu dependencies)\n",
			     st.loops, st.channels, st.deps);
	ibt_out_arr_begin(ctx, "cycles");
	for (i = 0; i < n; i++) {
		ibt_out_text(ctx, "  cycle of %u channels:", cyc[i].len);
		ibt_out_arr_begin(ctx, NULL);
		for (k = 0; k < cyc[i].len && k < IBT_CDG_CYCLE_MAX; k++) {
			ibt_out_obj_begin(ctx, NULL);
			json_node(ctx, f, cyc[i].chan[k].node);
			ibt_out_json(ctx, "port",
				     json_object_new_uint64(cyc[i].chan[k].port));
			ibt_out_obj_end(ctx);
			ibt_out_text(ctx, "\n    %s port %u",
				     node_name(f, cyc[i].chan[k].node, name, sizeof(name)),
				     cyc[i].chan[k].port);
		}
		ibt_out_arr_end(ctx);
		ibt_out_text(ctx, "\n");
	}
	ibt_out_arr_end(ctx);
	ibt_out_obj_end(ctx);
	free(cyc);
	*nloops = st.loops;
	return st.loops > 0;
}

/*
 * The destinations, and the proof of their data path unless it is not
 * wanted or cannot be: a loaded model's routes start, without -d or -p,
 * at the port it was swept from, which need not be this host's.
 */
static int audit_check(struct ibt *ctx, struct audit *au)
{
	au->dlids = audit_dests(&au->fab, &au->ndests);
	au->proof = calloc(au->ndests ? au->ndests : 1, sizeof(*au->proof));
	if (!au->dlids || !au->proof)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	if (au->no_prove)
		au->why_not = "--no-prove";
	else if (!au->dev[0])
		au->why_not = "loaded model";
	else
		return audit_prove(ctx, au);
	return 0;
}

/*
 * The audit's one object (text: its lines): the head, the routes, the
 * proof, the credit loops. 1 when there is a finding, 0 when not, -1 out
 * of memory.
 */
static int audit_print(struct ibt *ctx, const struct audit *au,
		       struct ibt_audit_figures *fig)
{
	int bad, loops;

	ibt_out_obj_begin(ctx, NULL);
	audit_head(ctx, au);
	bad = audit_routes(ctx, au, fig->routes);
	if (bad >= 0)
		audit_proof_out(ctx, au);
	loops = bad < 0 ? 0 : audit_loops(ctx, &au->fab, &fig->loops);
	ibt_out_obj_end(ctx);
	if (bad < 0 || loops < 0)
		return -1;
	/* an SMP unanswered hides what the audit would have checked */
	return bad || loops || au->stat[IBTRACE_SWEEP_STAT_A_UNANSWERED] ||
	       ibt_proof_findings(&au->tally);
}

/* --prom FILE: the figures as metrics, FILE replaced at once; 1 on error. */
static int audit_prom(const struct audit *au, struct ibt_audit_figures *fig)
{
	char port[12];
	const struct ibt_prom_label common[] = {
		{ "device", au->dev }, { "port", au->port ? port : "" },
	};
	struct timespec t1, now;
	struct ibt_prom p;
	int err;

	snprintf(port, sizeof(port), "%u", au->port);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_REALTIME, &now);
	fig->timestamp_s = now.tv_sec + now.tv_nsec / 1e9;
	fig->duration_s = (t1.tv_sec - au->t0.tv_sec) +
			  (t1.tv_nsec - au->t0.tv_nsec) / 1e9;
	fig->sweep = au->load ? NULL : au->stat;
	fig->fab = &au->fab;
	fig->dlids = au->dlids;
	fig->ndests = au->ndests;
	fig->proof = au->proof;
	fig->tally = au->why_not ? NULL : &au->tally;
	err = ibt_prom_open(&p, au->prom, common, IBT_ARRAY_SIZE(common));
	if (err) {
		ibt_err(IBT_EXIT_ERR, "cannot write %s: %s", au->prom, strerror(err));
		return 1;
	}
	if (ibt_audit_prom(&p, fig)) {
		ibt_prom_discard(&p);
		ibt_err(IBT_EXIT_ERR, "out of memory");
		return 1;
	}
	err = ibt_prom_commit(&p);
	if (err) {
		ibt_err(IBT_EXIT_ERR, "cannot write %s: %s", au->prom, strerror(err));
		return 1;
	}
	return 0;
}

static int audit_run(struct ibt *ctx, struct audit *au)
{
	struct ibt_audit_figures fig = { 0 };
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &au->t0);

	ret = au->load ? audit_load(au) : audit_sweep(ctx, au);
	if (!ret && au->load && (ctx->dev || ctx->port))
		ret = audit_place(ctx, au);
	if (ret)
		return ret;
	if (au->save) {
		ret = audit_save(au);
		if (ret)
			return ret;
	}
	ret = audit_check(ctx, au);
	if (ret)
		return ret;
	ret = audit_print(ctx, au, &fig);
	if (ret < 0)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	ibt_out_finish(ctx);
	fig.success = !ret;
	if (au->prom && audit_prom(au, &fig))
		return IBT_EXIT_ERR;
	return ret ? IBT_EXIT_AUDIT : IBT_EXIT_OK;
}

int ibt_audit(struct ibt *ctx)
{
	struct audit au = { 0 };
	int ret;

	if (ctx->argc && !strcmp(ctx->argv[0], "merge")) {
		ctx->argc--;
		ctx->argv++;
		return ibt_audit_merge(ctx);
	}
	ibt_fabric_init(&au.fab);
	ret = audit_parse(ctx, &au);
	if (!ret && !ibt_usage_if(au.help, audit_usage))
		ret = audit_run(ctx, &au);
	free(au.proof);
	free(au.dlids);
	ibt_fabric_free(&au.fab);
	return ret;
}
