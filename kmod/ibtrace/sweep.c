// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the subnet sweep: every node a port reaches by directed route,
 * with its ports, their states and links, and each switch's linear
 * forwarding table, for the route audit (Documentation/ibtrace.rst,
 * "Auditing routes").
 *
 * Breadth first from the local node. NodeInfo along a directed route says
 * a node's GUID, type and the port the route entered it by: a GUID met
 * before closes a link to a known node; a new one is asked
 * NodeDescription, PortInfo (every port of a switch, the entered port of a
 * channel adapter) and, a switch, SwitchInfo and then its
 * LinearForwardingTable blocks up to LinearFDBTop. Every other port of a
 * switch whose PortInfo says LinkUp leads on: NodeInfo along the route
 * extended by that port. A channel adapter ends a route (the local one
 * only leads out of the local port).
 *
 * The questions wait in a queue and go out in batches of at most the
 * window (ibtrace_smp_exchange_all()), each retried on its own after a
 * timeout. A question that gets no usable answer leaves its part unknown
 * and is counted; it does not stop the sweep. Nodes past the node or
 * memory bound are counted, not kept, and not swept further.
 *
 * Transport (smp.c, mad.c) apart from the job and its messages
 * (sweep_nl.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/overflow.h>

#include "sweep.h"
#include "ibtrace_iba.h"

/* Questions waiting at most (a bound on the queue's memory: 8 MiB). */
#define SWEEP_MAX_ASKS		BIT(20)
/* The queue's first size. */
#define SWEEP_FIRST_ASKS	1024

/* What a question asks. */
enum sweep_what {
	SWEEP_NI,	/* NodeInfo of the node behind @node's @port */
	SWEEP_ND,	/* NodeDescription */
	SWEEP_SI,	/* SwitchInfo */
	SWEEP_PI,	/* PortInfo of @port */
	SWEEP_LFT,	/* LinearForwardingTable block @block */
};

/**
 * struct sweep_ask - one question
 * @node: the node asked, or for %SWEEP_NI the node the route goes on
 *	from (%IBTRACE_SWEEP_NONE: the local node itself)
 * @what: &enum sweep_what
 * @port: %SWEEP_PI: the port; %SWEEP_NI: the exit port of @node
 * @block: %SWEEP_LFT: the block
 */
struct sweep_ask {
	u32 node;
	u8 what;
	u8 port;
	u16 block;
};

/**
 * struct sweep_ctx - a sweep in progress
 * @port: the local port
 * @p: the parameters
 * @s: the findings
 * @ah: the address handle of the directed-route SMPs
 * @q: the questions waiting, a ring of @q_cap
 * @q_head: the next to go out
 * @q_len: how many wait
 * @q_cap: the ring's size (a power of two)
 * @asks: the batch out
 * @reqs: its requests
 * @errs: their outcomes
 */
struct sweep_ctx {
	struct ibtrace_port *port;
	const struct ibtrace_sweep_params *p;
	struct ibtrace_sweep *s;
	struct ib_ah *ah;
	struct sweep_ask *q;
	u32 q_head;
	u32 q_len;
	u32 q_cap;
	struct sweep_ask *asks;
	struct ibtrace_mad_req *reqs;
	int *errs;
};

/* Queue a question; -ENOMEM past SWEEP_MAX_ASKS or without memory. */
static int sweep_push(struct sweep_ctx *c, u32 node, u8 what, u8 port,
		      u16 block)
{
	struct sweep_ask *q;
	u32 i;

	if (c->q_len == c->q_cap) {
		if (c->q_cap >= SWEEP_MAX_ASKS)
			return -ENOMEM;
		q = kvmalloc_array(2 * c->q_cap, sizeof(*q), GFP_KERNEL);
		if (!q)
			return -ENOMEM;
		for (i = 0; i < c->q_len; i++)
			q[i] = c->q[(c->q_head + i) & (c->q_cap - 1)];
		kvfree(c->q);
		c->q = q;
		c->q_head = 0;
		c->q_cap *= 2;
	}
	c->q[(c->q_head + c->q_len) & (c->q_cap - 1)] = (struct sweep_ask) {
		.node = node, .what = what, .port = port, .block = block,
	};
	c->q_len++;
	return 0;
}

static struct sweep_ask sweep_pop(struct sweep_ctx *c)
{
	struct sweep_ask a = c->q[c->q_head];

	c->q_head = (c->q_head + 1) & (c->q_cap - 1);
	c->q_len--;
	return a;
}

static struct ibtrace_sweep_node *sweep_find(struct ibtrace_sweep *s, u64 guid)
{
	struct ibtrace_sweep_node *n;

	hash_for_each_possible(s->by_guid, n, hnode, guid)
		if (n->guid == guid)
			return n;
	return NULL;
}

/* Both ends of the link between @a's port @pa and @b's port @pb. */
static void sweep_link(struct ibtrace_sweep *s, struct ibtrace_sweep_node *a,
		       u8 pa, struct ibtrace_sweep_node *b, u8 pb)
{
	if (pa > a->nports || pb > b->nports)
		return;
	if (a->port[pa].peer == IBTRACE_SWEEP_NONE)
		s->stats.links++;
	a->port[pa].peer = b->index;
	a->port[pa].peer_port = pb;
	b->port[pb].peer = a->index;
	b->port[pb].peer_port = pa;
}

/* Memory is within the bound after @bytes more. */
static bool sweep_room(struct sweep_ctx *c, size_t bytes)
{
	return c->s->stats.bytes + bytes <= c->p->max_bytes;
}

/* Ask PortInfo of @n's port @p, once. */
static int sweep_ask_port(struct sweep_ctx *c, struct ibtrace_sweep_node *n,
			  u8 p)
{
	if (n->port[p].asked)
		return 0;
	n->port[p].asked = true;
	return sweep_push(c, n->index, SWEEP_PI, p, 0);
}

/*
 * A node met for the first time, behind @from's port @exit (@from NULL:
 * the local node): kept and asked its questions, or counted.
 */
static int sweep_new_node(struct sweep_ctx *c, struct ibtrace_sweep_node *from,
			  u8 exit, const struct ib_node_info *ni)
{
	struct ibtrace_sweep *s = c->s;
	struct ibtrace_sweep_node *n;
	size_t size = struct_size(n, port, ni->num_ports + 1);
	bool sw = ni->node_type == RDMA_NODE_IB_SWITCH;
	u32 i;
	int err;

	if (s->nnodes >= c->p->max_nodes || !sweep_room(c, size)) {
		s->stats.not_kept++;
		return 0;
	}
	n = kvzalloc(size, GFP_KERNEL);
	if (!n)
		return -ENOMEM;
	n->index = s->nnodes;
	n->guid = be64_to_cpu(ni->node_guid);
	n->type = ni->node_type;
	n->nports = ni->num_ports;
	n->in_port = ni->local_port_num;
	for (i = 0; i <= n->nports; i++)
		n->port[i].peer = IBTRACE_SWEEP_NONE;
	if (from) {
		n->hops = from->hops + 1;
		memcpy(n->path, from->path, from->hops + 1);
		n->path[n->hops] = exit;
	}
	s->node[s->nnodes++] = n;
	hash_add(s->by_guid, &n->hnode, n->guid);
	s->stats.bytes += size;
	s->stats.nodes++;
	if (sw)
		s->stats.switches++;
	if (from)
		sweep_link(s, from, exit, n, n->in_port);

	err = sweep_push(c, n->index, SWEEP_ND, 0, 0);
	if (err || !sw)
		return err ?: sweep_ask_port(c, n, n->in_port);
	err = sweep_push(c, n->index, SWEEP_SI, 0, 0);
	for (i = 0; !err && i <= n->nports; i++)
		err = sweep_ask_port(c, n, i);
	return err;
}

/* NodeInfo of the node behind @a's route: a link, or a new node. */
static int sweep_node_info(struct sweep_ctx *c, const struct sweep_ask *a,
			   const struct ib_node_info *ni)
{
	struct ibtrace_sweep *s = c->s;
	struct ibtrace_sweep_node *from = NULL, *n;

	if (a->node != IBTRACE_SWEEP_NONE)
		from = s->node[a->node];
	if (ni->node_type < RDMA_NODE_IB_CA ||
	    ni->node_type > RDMA_NODE_IB_ROUTER ||
	    ni->local_port_num > ni->num_ports ||
	    (ni->node_type != RDMA_NODE_IB_SWITCH && !ni->local_port_num)) {
		/* Not a NodeInfo that can be true: not trusted. */
		s->stats.unanswered++;
		return 0;
	}
	n = sweep_find(s, be64_to_cpu(ni->node_guid));
	if (!n)
		return sweep_new_node(c, from, a->port, ni);
	if (!from || n->nports != ni->num_ports)
		return 0;
	sweep_link(s, from, a->port, n, ni->local_port_num);
	/* Another port of a channel adapter met before: its LID too. */
	return sweep_ask_port(c, n, ni->local_port_num);
}

/* PortInfo of @n's port @p: its state, LID, and where it leads. */
static int sweep_port_info(struct sweep_ctx *c, struct ibtrace_sweep_node *n,
			   u8 p, const struct ib_port_info *pi)
{
	struct ibtrace_sweep_port *port = &n->port[p];
	bool leads;

	port->known = true;
	port->state = ibtrace_iba_pi_state(pi);
	port->phys_state = ibtrace_iba_pi_phys_state(pi);
	port->lid = be16_to_cpu(pi->lid);
	port->lmc = ibtrace_iba_pi_lmc(pi);
	if (port->phys_state != IB_PORT_PHYS_STATE_LINK_UP ||
	    n->hops >= IBTRACE_TRACE_MAX_HOPS)
		return 0;
	if (n->type == RDMA_NODE_IB_SWITCH)
		leads = p && (p != n->in_port || !n->hops);
	else
		leads = !n->hops && p == c->port->port_num;
	return leads ? sweep_push(c, n->index, SWEEP_NI, p, 0) : 0;
}

/* SwitchInfo of @n: its table's size, and the questions for it. */
static int sweep_switch_info(struct sweep_ctx *c, struct ibtrace_sweep_node *n,
			     const struct ibtrace_iba_switch_info *si)
{
	u32 top = be16_to_cpu(si->lft_top), b;
	int err = 0;

	/* A table past the unicast LIDs holds nothing more to route. */
	top = min_t(u32, top, IBTRACE_IBA_LID_UCAST_MAX);
	if (!sweep_room(c, top + 1)) {
		c->s->stats.not_kept++;
		return 0;
	}
	n->lft = kvmalloc(top + 1, GFP_KERNEL);
	if (!n->lft)
		return -ENOMEM;
	memset(n->lft, IBTRACE_IBA_LFT_NO_PORT, top + 1);
	n->lft_top = top;
	c->s->stats.bytes += top + 1;
	for (b = 0; !err && b <= top / IBTRACE_IBA_LFT_BLOCK; b++)
		err = sweep_push(c, n->index, SWEEP_LFT, 0, b);
	return err;
}

/* One block of @n's table. */
static void sweep_lft(struct ibtrace_sweep_node *n, u16 block, const u8 *data)
{
	u32 first = (u32)block * IBTRACE_IBA_LFT_BLOCK;

	if (!n->lft || first > n->lft_top)
		return;
	memcpy(&n->lft[first], data,
	       min_t(u32, IBTRACE_IBA_LFT_BLOCK, n->lft_top + 1 - first));
}

/* The answer (@err 0) to question @a, or its failure. */
static int sweep_answer(struct sweep_ctx *c, const struct sweep_ask *a,
			const struct ibtrace_mad_req *req, int err)
{
	struct ibtrace_sweep_node *n = NULL;
	const void *data = req->resp_smp.data;

	if (a->what != SWEEP_NI)
		n = c->s->node[a->node];
	if (err == -ENODEV)
		return err;
	if (err || ibtrace_mad_resp_status(req)) {
		c->s->stats.unanswered++;
		if (n)
			n->unanswered++;
		return 0;
	}
	switch (a->what) {
	case SWEEP_NI:
		return sweep_node_info(c, a, data);
	case SWEEP_ND:
		memcpy(n->desc, data, IB_DEVICE_NODE_DESC_MAX);
		return 0;
	case SWEEP_SI:
		return sweep_switch_info(c, n, data);
	case SWEEP_PI:
		return sweep_port_info(c, n, a->port, data);
	case SWEEP_LFT:
		sweep_lft(n, a->block, data);
		return 0;
	}
	return 0;
}

/* Build the SMP of question @a into @req. */
static int sweep_build(struct sweep_ctx *c, const struct sweep_ask *a,
		       struct ibtrace_mad_req *req)
{
	static const __be16 attr[] = {
		[SWEEP_NI] = IB_SMP_ATTR_NODE_INFO,
		[SWEEP_ND] = IB_SMP_ATTR_NODE_DESC,
		[SWEEP_SI] = IB_SMP_ATTR_SWITCH_INFO,
		[SWEEP_PI] = IB_SMP_ATTR_PORT_INFO,
		[SWEEP_LFT] = IB_SMP_ATTR_LINEAR_FORWARD_TABLE,
	};
	struct ibtrace_smp_route route = {};
	const struct ibtrace_sweep_node *n = NULL;
	u32 mod = 0;

	if (a->node != IBTRACE_SWEEP_NONE) {
		n = c->s->node[a->node];
		route.hops = n->hops;
		memcpy(route.path, n->path, n->hops + 1);
	}
	if (a->what == SWEEP_NI && n)
		route.path[++route.hops] = a->port;
	if (a->what == SWEEP_PI)
		mod = a->port;
	else if (a->what == SWEEP_LFT)
		mod = a->block;
	memset(req, 0, sizeof(*req));
	req->ah = c->ah;
	req->timeout_ms = c->p->timeout_ms;
	req->retries = c->p->retries;
	req->stop = c->p->stop;
	return ibtrace_smp_build(req, &route, IB_MGMT_METHOD_GET, attr[a->what],
				 mod, NULL);
}

/* Send the next batch of questions and take in their answers. */
static int sweep_batch(struct sweep_ctx *c)
{
	u32 n = min(c->q_len, c->p->window), i;
	int err;

	for (i = 0; i < n; i++) {
		c->asks[i] = sweep_pop(c);
		err = sweep_build(c, &c->asks[i], &c->reqs[i]);
		if (WARN_ON_ONCE(err))
			return err;
	}
	err = ibtrace_smp_exchange_all(c->port, c->reqs, c->errs, n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		c->s->stats.smps += c->reqs[i].attempts;
		err = sweep_answer(c, &c->asks[i], &c->reqs[i], c->errs[i]);
		if (err)
			return err;
	}
	return 0;
}

/**
 * ibtrace_sweep_run() - sweep the subnet from a port
 * @port: the local port; it must have an SMI agent
 * @params: the window, timing, bounds and stop flag
 * @s: the findings, zeroed by the caller; free with ibtrace_sweep_free(),
 *	also after an error (what was found until then is kept)
 * @progress: told the figures after each batch, or NULL
 * @ctx: passed to @progress
 *
 * Sleeps. Each batch of SMPs takes at most the timeout times the attempts,
 * and the questions are bounded by the nodes kept (every question is
 * asked once), so the sweep ends.
 *
 * Return: 0, -ECANCELED when stopped, -EINTR, -ENODEV when the device went
 * away, -ENOMEM, or the error of an SMP that could not be built or sent.
 */
int ibtrace_sweep_run(struct ibtrace_port *port,
		      const struct ibtrace_sweep_params *params,
		      struct ibtrace_sweep *s,
		      ibtrace_sweep_progress_t progress, void *ctx)
{
	struct sweep_ctx c = { .port = port, .p = params, .s = s };
	u64 t0 = ktime_get_ns();
	int err = -ENOMEM;

	hash_init(s->by_guid);
	s->node = kvcalloc(params->max_nodes, sizeof(*s->node), GFP_KERNEL);
	c.q_cap = SWEEP_FIRST_ASKS;
	c.q = kvmalloc_array(c.q_cap, sizeof(*c.q), GFP_KERNEL);
	c.asks = kvmalloc_array(params->window, sizeof(*c.asks), GFP_KERNEL);
	c.reqs = kvmalloc_array(params->window, sizeof(*c.reqs), GFP_KERNEL);
	c.errs = kvmalloc_array(params->window, sizeof(*c.errs), GFP_KERNEL);
	if (!s->node || !c.q || !c.asks || !c.reqs || !c.errs)
		goto out;
	c.ah = ibtrace_smp_ah_create(port);
	if (IS_ERR(c.ah)) {
		err = PTR_ERR(c.ah);
		goto out;
	}
	err = sweep_push(&c, IBTRACE_SWEEP_NONE, SWEEP_NI, 0, 0);
	/*
	 * A device going away fails the posts of a batch at once: that is
	 * the sweep's end (before each batch and after the last), not
	 * questions unanswered.
	 */
	while (!err) {
		err = ibtrace_walk_end(port, params->stop);
		if (err || !c.q_len)
			break;
		err = sweep_batch(&c);
		s->stats.elapsed_ns = ktime_get_ns() - t0;
		if (progress)
			progress(ctx, &s->stats);
	}
	ibtrace_ah_destroy(c.ah);
out:
	kvfree(c.errs);
	kvfree(c.reqs);
	kvfree(c.asks);
	kvfree(c.q);
	return err;
}

/**
 * ibtrace_sweep_free() - free a sweep's findings
 * @s: filled by ibtrace_sweep_run(); zeroed here
 */
void ibtrace_sweep_free(struct ibtrace_sweep *s)
{
	u32 i;

	for (i = 0; s->node && i < s->nnodes; i++) {
		kvfree(s->node[i]->lft);
		kvfree(s->node[i]);
	}
	kvfree(s->node);
	memset(s, 0, sizeof(*s));
}
