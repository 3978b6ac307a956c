// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden cases of audit.c: its words and the proof's request they
 * make (and one at its bound, IBTRACE_PROVE_MAX_DESTS destinations of 64
 * hops), the proof job's messages and verdicts as the kernel sends them
 * (and malformed ones), and the audit printed with each kind of verdict,
 * or without a proof.
 */
#include "../audit.c"
#include "golden.h"

/*
 * Switch S1 (HCAs A, C) - switch S2 (HCA B), as the selftests' s1s2
 * topology, from A:
 *
 *   A.1 - 1.S1.2 - 1.S2.2 - 1.B
 *            S1.3 - 1.C
 *
 * LIDs: A 1, S1 2, S2 3, B 4, C 5.
 */
static void build(struct ibt_fabric *f)
{
	static const struct {
		uint64_t guid;
		uint8_t type, nports;
		const char *desc;
		uint16_t lid;
		uint8_t lid_port;
	} nodes[] = {
		{ 0x14050000000a01, IBT_FAB_CA, 1, "A", 1, 1 },
		{ 0x14050000000101, IBT_FAB_SWITCH, 3, "S1", 2, 0 },
		{ 0x14050000000201, IBT_FAB_SWITCH, 2, "S2", 3, 0 },
		{ 0x14050000000b01, IBT_FAB_CA, 1, "B", 4, 1 },
		{ 0x14050000000c01, IBT_FAB_CA, 1, "C", 5, 1 },
	};
	static const uint8_t links[][4] = {
		{ 0, 1, 1, 1 }, { 1, 2, 2, 1 }, { 2, 2, 3, 1 }, { 1, 3, 4, 1 },
	};
	static const uint8_t lft1[] = { 0xff, 1, 0, 2, 2, 3 };
	static const uint8_t lft2[] = { 0xff, 1, 1, 0, 2, 1 };
	size_t i, e;

	ibt_fabric_init(f);
	for (i = 0; i < IBT_ARRAY_SIZE(nodes); i++) {
		struct ibt_fab_node *n = ibt_fabric_add(f, nodes[i].guid,
							nodes[i].type,
							nodes[i].nports);

		snprintf(n->desc, sizeof(n->desc), "%s", nodes[i].desc);
		n->port[nodes[i].lid_port].lid = nodes[i].lid;
		n->port[nodes[i].lid_port].known = true;
	}
	for (i = 0; i < IBT_ARRAY_SIZE(links); i++) {
		ibt_fabric_link(f, links[i][0], links[i][1], links[i][2],
				links[i][3]);
		for (e = 0; e < 4; e += 2) {
			struct ibt_fab_port *p = &f->node[links[i][e]].port[links[i][e + 1]];

			p->known = true;
			p->state = IBT_FAB_PORT_ACTIVE;
			p->phys_state = IBT_FAB_PHYS_LINKUP;
		}
	}
	ibt_fabric_set_lft(&f->node[1], 5, lft1);
	ibt_fabric_set_lft(&f->node[2], 5, lft2);
	f->src = 0;
	f->src_port = 1;
	ibt_fabric_index_lids(f);
}

static void audit_free(struct audit *au)
{
	free(au->batch);
	free(au->proof);
	free(au->dlids);
	ibt_fabric_free(&au->fab);
}

/* The fabric, its destinations and the first batch of their proof. */
static void setup(struct audit *au, const char *dev, uint32_t port)
{
	size_t next = 0;

	build(&au->fab);
	snprintf(au->dev, sizeof(au->dev), "%s", dev);
	au->port = port;
	au->dlids = audit_dests(&au->fab, &au->ndests);
	au->proof = calloc(au->ndests, sizeof(*au->proof));
	au->batch = calloc(IBTRACE_PROVE_MAX_DESTS, sizeof(*au->batch));
	au->nbatch = ibt_proof_batch(&au->fab, au->dlids, au->ndests, &next,
				     au->batch, IBTRACE_PROVE_MAX_DESTS);
}

static int audit_req(struct ibt *ctx, struct nl_msg **msg)
{
	struct audit au = { 0 };
	int ret;

	ibt_fabric_init(&au.fab);
	ret = audit_parse(ctx, &au);
	if (ret || au.help)
		goto out;
	if (au.load || au.no_prove) {
		printf("load %s, no proof %d\n", au.load ? au.load : "-",
		       au.no_prove);
		goto out;
	}
	setup(&au, ctx->dev, ctx->port ? ctx->port : 1);
	printf("proof of %zu destinations from %s/%u\n", au.nbatch, au.dev,
	       au.port);
	*msg = audit_prove_request(ctx, &au);
	ret = *msg ? 0 : IBT_EXIT_ERR;
out:
	audit_free(&au);
	return ret;
}

static void golden_audit_words(void)
{
	static const char *const words[][10] = {
		{ NULL },
		{ "--window", "4", "-t", "200", "-r", "1", "--max-nodes", "9" },
		{ "--no-prove" },
		{ "--window", "257" },
		{ "--bogus" },
		{ "help" },
	};
	static const char *const load[][6] = {
		{ "--load", "fab.json", "--no-prove", "-v" },
		{ "--load", "fab.json", "-t", "5" },
		{ "--load", "fab.json", "--save", "x.json" },
		{ "--load", "fab.json", "--max-nodes", "9" },
	};
	/* from this host's port: the proof's options are its */
	static const char *const here[][6] = {
		{ "--load", "fab.json", "-t", "5", "--window", "4" },
	};

	golden_words_run("audit words", audit_req, "ibtsim0", words[0],
			 IBT_ARRAY_SIZE(words[0]), IBT_ARRAY_SIZE(words));
	golden_words_run("audit --load words", audit_req, NULL, load[0],
			 IBT_ARRAY_SIZE(load[0]), IBT_ARRAY_SIZE(load));
	golden_words_run("audit --load -d words", audit_req, "ibtsim0", here[0],
			 IBT_ARRAY_SIZE(here[0]), IBT_ARRAY_SIZE(here));
}

/* A batch at the proof's bound: its request has room for it. */
static int run_bound(struct ibt *ctx, void *arg)
{
	struct audit au = { .port = 1, .dev = "ibtsim0" };
	struct nl_msg *msg;
	size_t i;

	(void)arg;
	ctx->fam = &golden_family;
	au.batch = calloc(IBTRACE_PROVE_MAX_DESTS, sizeof(*au.batch));
	au.nbatch = IBTRACE_PROVE_MAX_DESTS;
	for (i = 0; i < au.nbatch; i++) {
		au.batch[i].dest = i;
		au.batch[i].dlid = i + 1;
		au.batch[i].hops = IBT_ROUTE_MAX_HOPS;
		memset(au.batch[i].vector, 1 + i % 36, IBT_ROUTE_MAX_HOPS);
	}
	msg = audit_prove_request(ctx, &au);
	free(au.batch);
	if (!msg)
		return IBT_EXIT_ERR;
	printf("%zu destinations of %d hops: %u bytes\n", au.nbatch,
	       IBT_ROUTE_MAX_HOPS, nlmsg_hdr(msg)->nlmsg_len);
	nlmsg_free(msg);
	return 0;
}

/*
 * A verdict as the dump has it, of the batch's destination @index: its
 * LID (0: the one asked), @port and @status when not -1, @rtt when not 0.
 */
struct verdict {
	uint32_t index;
	uint8_t verdict;
	int port, status;
	uint32_t attempts;
	uint64_t rtt;
	uint32_t err;
	uint32_t lid;
};

struct out_case {
	const char *why_not;
	bool verbose;
	const struct verdict *v;
	size_t nv;
	uint32_t mads;		/* the job's figure, 0: none */
};

/* A message of the kernel through @cb, as its socket would give it. */
static int deliver(struct ibt *ctx, struct nl_msg *m, ibt_nl_tb_cb cb,
		   struct audit *au)
{
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	int ret = ibt_nl_parse(ctx, nlmsg_hdr(m), tb);

	if (!ret)
		ret = cb(ctx, nlmsg_hdr(m), tb, au);
	nlmsg_free(m);
	return ret;
}

/* The end of the proof's job, with its figures. */
static int feed_end(struct ibt *ctx, struct audit *au, uint32_t mads)
{
	const struct golden_attr end[] = {
		{ IBTRACE_A_JOB, 4, 7, NULL },
		{ IBTRACE_A_JOB_STATE, 1, IBTRACE_TEST_STATE_FINISHED, NULL },
		{ IBTRACE_A_PROVE_STATS, GOLDEN_NEST, 0, NULL },
		{ IBTRACE_PROVE_STAT_A_DESTS, 4, au->nbatch, NULL },
		{ IBTRACE_PROVE_STAT_A_DONE, 4, au->nbatch, NULL },
		{ IBTRACE_PROVE_STAT_A_MADS, 4, mads, NULL },
		{ IBTRACE_PROVE_STAT_A_ELAPSED_NS, 8, 3456789, NULL },
		{ 0, GOLDEN_END, 0, NULL },
	};
	struct nl_msg *m = golden_msg(IBTRACE_CMD_PROVE);
	struct golden_attr a[IBT_ARRAY_SIZE(end)];
	size_t i, n = 0;

	/* without MADs in the figures, the verdicts' attempts count */
	for (i = 0; i < IBT_ARRAY_SIZE(end); i++)
		if (mads || end[i].attr != IBTRACE_PROVE_STAT_A_MADS ||
		    end[i].size != 4)
			a[n++] = end[i];
	golden_put(m, a, n);
	return deliver(ctx, m, audit_prove_msg, au);
}

static int feed_verdict(struct ibt *ctx, struct audit *au,
			const struct verdict *v)
{
	const struct ibt_proof_probe *p = &au->batch[v->index % au->nbatch];
	struct nl_msg *m = golden_msg(IBTRACE_CMD_PROVE_DEST);
	struct golden_attr a[12] = {
		{ IBTRACE_A_JOB, 4, 7, NULL },
		{ IBTRACE_A_PROVE_DEST, GOLDEN_NEST, 0, NULL },
		{ IBTRACE_PROVE_DEST_A_INDEX, 4, v->index, NULL },
		{ IBTRACE_PROVE_DEST_A_LID, 4, v->lid ? v->lid : p->dlid, NULL },
		{ IBTRACE_PROVE_DEST_A_VECTOR, GOLDEN_BYTES, p->hops,
		  (const char *)p->vector },
		{ IBTRACE_PROVE_DEST_A_VERDICT, 1, v->verdict, NULL },
		{ IBTRACE_PROVE_DEST_A_ATTEMPTS, 4, v->attempts, NULL },
	};
	size_t n = 7;

	/* what only some verdicts have */
	if (v->port >= 0)
		a[n++] = (struct golden_attr){ IBTRACE_PROVE_DEST_A_ACTUAL_PORT, 1,
					       v->port, NULL };
	if (v->status >= 0)
		a[n++] = (struct golden_attr){ IBTRACE_PROVE_DEST_A_STATUS, 2,
					       v->status, NULL };
	if (v->rtt)
		a[n++] = (struct golden_attr){ IBTRACE_PROVE_DEST_A_RTT_NS, 8,
					       v->rtt, NULL };
	if (v->err)
		a[n++] = (struct golden_attr){ IBTRACE_PROVE_DEST_A_ERRNO, 4,
					       v->err, NULL };
	a[n++] = (struct golden_attr){ 0, GOLDEN_END, 0, NULL };
	golden_put(m, a, n);
	return deliver(ctx, m, audit_verdict_msg, au);
}

/* The proof of case @c, as audit_prove_batch() would read it. */
static int feed(struct ibt *ctx, struct audit *au, const struct out_case *c)
{
	size_t i;
	int ret;

	ret = feed_end(ctx, au, c->mads);
	if (!ret && !au->pjob.ended)
		printf("the job did not end\n");
	for (i = 0; !ret && i < c->nv; i++)
		ret = feed_verdict(ctx, au, &c->v[i]);
	if (!ret)
		ret = audit_batch_end(au);
	if (!ret)
		ibt_proof_count(&au->tally, au->proof, au->ndests);
	return ret;
}

static int run_out(struct ibt *ctx, void *arg)
{
	const struct out_case *c = arg;
	struct audit au = { 0 };
	int ret = 0, i;

	setup(&au, "ibtsim0", 1);
	au.verbose = c->verbose;
	for (i = IBTRACE_SWEEP_STAT_A_NODES; i <= IBTRACE_SWEEP_STAT_A_ELAPSED_NS; i++)
		au.have[i] = true;
	au.stat[IBTRACE_SWEEP_STAT_A_NODES] = 5;
	au.stat[IBTRACE_SWEEP_STAT_A_SWITCHES] = 2;
	au.stat[IBTRACE_SWEEP_STAT_A_LINKS] = 4;
	au.stat[IBTRACE_SWEEP_STAT_A_SMPS] = 40;
	au.stat[IBTRACE_SWEEP_STAT_A_ELAPSED_NS] = 12345678;
	au.why_not = c->why_not;
	if (!c->why_not)
		ret = feed(ctx, &au, c);
	if (!ret) {
		struct ibt_audit_figures fig = { 0 };

		ret = audit_print(ctx, &au, &fig);
		ret = ret < 0 ? IBT_EXIT_ERR : ret ? IBT_EXIT_AUDIT : IBT_EXIT_OK;
	}
	audit_free(&au);
	return ret;
}

void golden_audit(void)
{
	/* the batch from A: S1 (LID 2), S2 (3), B (4), C (5) */
	static const struct verdict clean[] = {
		{ 0, IBTRACE_PROVE_NO_AGENT, -1, 0x000c, 1, 61000, 0, 0 },
		{ 1, IBTRACE_PROVE_NO_AGENT, -1, 0x000c, 1, 93500, 0, 0 },
		{ 2, IBTRACE_PROVE_VERIFIED, 1, 0, 1, 118250, 0, 0 },
		{ 3, IBTRACE_PROVE_VERIFIED, 1, 0, 2, 77000, 0, 0 },
	};
	static const struct verdict faults[] = {
		{ 0, IBTRACE_PROVE_NO_AGENT, -1, 0x000c, 1, 61000, 0, 0 },
		{ 1, IBTRACE_PROVE_SEND_ERROR, -1, -1, 0, 0, 22, 0 },
		{ 2, IBTRACE_PROVE_UNREACHABLE, -1, -1, 4, 0, 0, 0 },
		{ 3, IBTRACE_PROVE_MISMATCH, 2, 0x001c, 1, 80000, 0, 0 },
	};
	static const struct verdict beyond[] = {
		{ 9, IBTRACE_PROVE_VERIFIED, 1, 0, 1, 1000, 0, 0 },
	};
	static const struct verdict wrong_lid[] = {
		{ 2, IBTRACE_PROVE_VERIFIED, 1, 0, 1, 1000, 0, 5 },
	};
	static const struct verdict twice[] = {
		{ 2, IBTRACE_PROVE_VERIFIED, 1, 0, 1, 1000, 0, 0 },
		{ 2, IBTRACE_PROVE_VERIFIED, 1, 0, 1, 1000, 0, 0 },
	};
	static const struct {
		const char *name;
		struct out_case c;
	} cases[] = {
		{ "audit proved", { NULL, false, clean, 4, 5 } },
		{ "audit proved -v", { NULL, true, clean, 4, 5 } },
		{ "audit proof faults", { NULL, false, faults, 4, 0 } },
		{ "audit not proved (--no-prove)", { "--no-prove", false, NULL, 0, 0 } },
		{ "audit not proved (loaded model)", { "loaded model", true, NULL, 0, 0 } },
		{ "audit verdict beyond the batch", { NULL, false, beyond, 1, 1 } },
		{ "audit verdict of another LID", { NULL, false, wrong_lid, 1, 1 } },
		{ "audit verdict twice", { NULL, false, twice, 2, 1 } },
		{ "audit verdicts missing", { NULL, false, clean, 3, 3 } },
	};
	size_t i;

	golden_audit_words();
	golden_run("audit request at its bound", run_bound, NULL);
	for (i = 0; i < IBT_ARRAY_SIZE(cases); i++)
		golden_run(cases[i].name, run_out, (void *)&cases[i].c);
}
