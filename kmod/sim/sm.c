// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - SM-lite, the built-in subnet manager.
 *
 * SM-lite lives in the firmware of the first node of the topology text
 * (node 0). A sweep does what a subnet manager does on a stable subnet,
 * without SMPs on the wire but through the same SMA code (sma.c) that an
 * SM's SMPs reach, so the PortInfo changes raise the same ib_core events
 * as OpenSM's would:
 *
 * 1. LIDs, LMC 0: a breadth-first walk of the topology from node 0 gives
 *    LID 1, 2, ... in the order it meets them to each switch (its port 0)
 *    and to each HCA port. It starts at node 0 (at its first connected
 *    port if it is an HCA) and goes on through switches only, their ports
 *    in ascending order; HCAs are leaves. Nodes not reachable from node 0
 *    get no LID. The walk follows the cabling, not the link states, so a
 *    node keeps its LID while one of its links is down and across sweeps.
 *    The SM's LID is node 0's (its port 0 if it is a switch, else its
 *    first connected port).
 * 2. Reach: the ports the SM can reach over trained links (both ends
 *    LinkUp and at least Init): every switch so reached, with its port 0
 *    and its trained external ports, and every HCA port so reached.
 * 3. PortInfo Set of every reached port: LID (HCA ports and switch port
 *    0), LMC 0, MasterSMLID, MasterSMSL 0, PortState Armed; then the
 *    LinearForwardingTables; then PortState Active. A port already Active
 *    stays Active; unreached ports are left as they are.
 * 4. Min-hop LinearForwardingTables on every reached switch, LinearFDBTop
 *    = the highest LID, the switch's own LID to port 0, LIDs it cannot
 *    reach to 0xFF. The destinations are taken switch by switch in the
 *    order of the switch's LID: its own LID, then the LIDs of the HCA
 *    ports cabled to it, by its port number. Each switch sends a LID out
 *    of one of its ports on a shortest path (in switch hops over trained
 *    links); among those it takes the port that carries the fewest LIDs
 *    so far in this sweep, the lowest port number on a tie. Parallel
 *    links and equal-cost paths thus share the destinations round-robin.
 *
 * A sweep changes nothing on a subnet it already configured: the same
 * LIDs and tables, no PortInfo change, no event. After a link comes back
 * (both ends in Init again) a new sweep makes its ends Active and routes
 * over it.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <rdma/ib_smi.h>

#include "sim.h"
#include "loc.h"

#define IBTSIM_SM_INF	U32_MAX

/**
 * struct ibtsim_sm_link - a trained link from a switch to a switch
 * @peer: node index of the switch at the other end
 * @port: the port of this switch it leaves by
 */
struct ibtsim_sm_link {
	u32 peer;
	u8 port;
};

/**
 * struct ibtsim_sm_dest - a LID routed with the switch it hangs off
 * @lid: the LID
 * @last: the switch's port to it (0: the switch's own LID)
 * @live: that port's link is trained (always for the switch's own LID)
 */
struct ibtsim_sm_dest {
	u16 lid;
	u8 last;
	bool live;
};

/**
 * struct ibtsim_sm - scratch state of one sweep
 * @fabric: the fabric swept
 * @base: per node, index of its port 0 in the per-port arrays
 * @num_ports: entries of the per-port arrays
 * @lid: per port, the LID assigned (HCA ports, switch port 0), 0 if none
 * @up: per port, its link is trained (switch port 0: always)
 * @reached: per port, the SM reaches it (HCA ports, switch port 0)
 * @owner: per LID 1..@max_lid, the port holding it
 * @max_lid: highest LID assigned
 * @queue: breadth-first queue of node indices
 * @dist: per node, switch hops to the destination switch being routed
 *	(switches only)
 * @use: per port, LIDs a switch routes out of it in this sweep
 * @sws: the reached switches' node indices, in node order
 * @num_sws: entries of @sws
 * @links: per reached switch, its trained links to switches, ascending
 *	port order: switch @sws[k]'s are @links[@first[k]..@first[k + 1])
 * @first: per reached switch (and one past the last), into @links
 * @dests: the LIDs being routed with their switch (ibtsim_sm_route())
 * @smp: the SMP the sweep hands to the SMA
 * @errors: SMA calls that failed
 */
struct ibtsim_sm {
	struct ibtsim_fabric *fabric;
	u32 *base;
	u32 num_ports;
	u16 *lid;
	u8 *up;
	u8 *reached;
	struct ibtsim_port **owner;
	u16 max_lid;
	u32 *queue;
	u32 *dist;
	u32 *use;
	u32 *sws;
	u32 num_sws;
	struct ibtsim_sm_link *links;
	u32 *first;
	struct ibtsim_sm_dest *dests;
	struct ib_smp *smp;
	u32 errors;
};

static u32 ibtsim_sm_idx(const struct ibtsim_sm *sm,
			 const struct ibtsim_port *port)
{
	return sm->base[port->node->index] + port->num;
}

/* Is the link of external port @port trained at both ends? */
static bool ibtsim_sm_live(const struct ibtsim_sm *sm,
			   const struct ibtsim_port *port)
{
	return port->peer && sm->up[ibtsim_sm_idx(sm, port)] &&
	       sm->up[ibtsim_sm_idx(sm, port->peer)];
}

static void ibtsim_sm_free(struct ibtsim_sm *sm)
{
	kvfree(sm->base);
	kvfree(sm->lid);
	kvfree(sm->up);
	kvfree(sm->reached);
	kvfree(sm->owner);
	kvfree(sm->queue);
	kvfree(sm->dist);
	kvfree(sm->use);
	kvfree(sm->sws);
	kvfree(sm->links);
	kvfree(sm->first);
	kfree(sm->dests);
	kfree(sm->smp);
}

static int ibtsim_sm_alloc(struct ibtsim_sm *sm, struct ibtsim_fabric *fabric)
{
	u32 i, n = fabric->num_nodes;

	sm->fabric = fabric;
	sm->base = kvcalloc(n, sizeof(*sm->base), GFP_KERNEL);
	if (!sm->base)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		sm->base[i] = sm->num_ports;
		sm->num_ports += fabric->nodes[i]->num_ports + 1;
	}
	sm->lid = kvcalloc(sm->num_ports, sizeof(*sm->lid), GFP_KERNEL);
	sm->up = kvcalloc(sm->num_ports, sizeof(*sm->up), GFP_KERNEL);
	sm->reached = kvcalloc(sm->num_ports, sizeof(*sm->reached),
			       GFP_KERNEL);
	sm->use = kvcalloc(sm->num_ports, sizeof(*sm->use), GFP_KERNEL);
	sm->owner = kvcalloc(min_t(u32, sm->num_ports, IBTRACE_IBA_LID_UCAST_MAX) + 1,
			     sizeof(*sm->owner), GFP_KERNEL);
	/* the walks' queue; routing's, then a node -> switch entry map */
	sm->queue = kvcalloc(2 * n, sizeof(*sm->queue), GFP_KERNEL);
	sm->dist = kvcalloc(n, sizeof(*sm->dist), GFP_KERNEL);
	sm->sws = kvcalloc(fabric->num_switches, sizeof(*sm->sws), GFP_KERNEL);
	sm->first = kvcalloc(fabric->num_switches + 1, sizeof(*sm->first),
			     GFP_KERNEL);
	sm->links = kvcalloc(sm->num_ports, sizeof(*sm->links), GFP_KERNEL);
	sm->dests = kcalloc(IBTRACE_SIM_PORTS_MAX + 1, sizeof(*sm->dests),
			    GFP_KERNEL);
	sm->smp = kzalloc(sizeof(*sm->smp), GFP_KERNEL);
	if (!sm->lid || !sm->up || !sm->reached || !sm->use || !sm->owner ||
	    !sm->queue || !sm->dist || !sm->sws || !sm->first || !sm->links ||
	    !sm->dests || !sm->smp)
		return -ENOMEM;
	return 0;
}

/* Snapshot which ports have a trained link. */
static void ibtsim_sm_link_states(struct ibtsim_sm *sm)
{
	unsigned long flags;
	u32 i, n;

	for (i = 0; i < sm->fabric->num_nodes; i++) {
		struct ibtsim_node *node = sm->fabric->nodes[i];

		spin_lock_irqsave(&node->lock, flags);
		for (n = 0; n <= node->num_ports; n++) {
			struct ibtsim_port *port = &node->ports[n];

			sm->up[sm->base[i] + n] =
				(!n && node->sw) ||
				(port->phys_state == IBTSIM_PHYS_LINKUP &&
				 port->state >= IBTSIM_PORT_INIT);
		}
		spin_unlock_irqrestore(&node->lock, flags);
	}
}

/* The port holding node 0's LID: its port 0 or its first connected one. */
static struct ibtsim_port *ibtsim_sm_port(struct ibtsim_fabric *fabric)
{
	struct ibtsim_node *node;
	u32 n;

	if (!fabric->num_nodes)
		return NULL;
	node = fabric->nodes[0];
	if (node->sw)
		return &node->ports[0];
	for (n = 1; n <= node->num_ports; n++)
		if (node->ports[n].peer)
			return &node->ports[n];
	return NULL;
}

/* Give @port (an HCA port or a switch port 0) the next LID, if it has none. */
static bool ibtsim_sm_give_lid(struct ibtsim_sm *sm, struct ibtsim_port *port)
{
	u32 i = ibtsim_sm_idx(sm, port);

	if (sm->lid[i])
		return false;
	if (sm->max_lid == IBTRACE_IBA_LID_UCAST_MAX) {
		pr_warn_once("%s: more than %u LIDs needed, some nodes get none\n",
			     sm->fabric->name, IBTRACE_IBA_LID_UCAST_MAX);
		return false;
	}
	sm->lid[i] = ++sm->max_lid;
	sm->owner[sm->max_lid] = port;
	return true;
}

/*
 * One step of ibtsim_sm_walk() to @p (a switch's port 0 for any of its
 * ports): marked reached (@live) or given a LID; a switch seen for the
 * first time joins the queue at *@tail.
 */
static void ibtsim_sm_visit(struct ibtsim_sm *sm, struct ibtsim_port *p,
			    bool live, u32 *tail)
{
	if (p->node->sw)
		p = &p->node->ports[0];
	if (live) {
		if (sm->reached[ibtsim_sm_idx(sm, p)])
			return;
		sm->reached[ibtsim_sm_idx(sm, p)] = 1;
	} else if (!ibtsim_sm_give_lid(sm, p)) {
		return;
	}
	if (p->node->sw)
		sm->queue[(*tail)++] = p->node->index;
}

/*
 * Breadth-first from the SM port, through switches only. @live: over
 * trained links only, marking what is reached; else over every cable,
 * giving LIDs.
 */
static void ibtsim_sm_walk(struct ibtsim_sm *sm, struct ibtsim_port *start,
			   bool live)
{
	u32 head = 0, tail = 0, n;
	struct ibtsim_port *ends[2] = { start, NULL };
	unsigned int e;

	/* An HCA SM port reaches its peer only, over a trained link. */
	if (!start->node->sw) {
		if (live && !ibtsim_sm_live(sm, start))
			return;
		ends[1] = start->peer;
	}
	for (e = 0; e < ARRAY_SIZE(ends); e++)
		if (ends[e])
			ibtsim_sm_visit(sm, ends[e], live, &tail);

	while (head < tail) {
		struct ibtsim_node *sw = sm->fabric->nodes[sm->queue[head++]];

		for (n = 1; n <= sw->num_ports; n++) {
			struct ibtsim_port *peer = sw->ports[n].peer;

			if (peer &&
			    (!live || ibtsim_sm_live(sm, &sw->ports[n])))
				ibtsim_sm_visit(sm, peer, live, &tail);
		}
		cond_resched();
	}
}

/*
 * PortInfo Get then Set of @port through the SMA: @lid (taken on HCA ports
 * and switch port 0 only), @sm_lid, and PortState @state: Armed (skipped
 * on an Active port) or Active. The SMA raises the events.
 */
static void ibtsim_sm_port_info(struct ibtsim_sm *sm, struct ibtsim_port *port,
				u16 lid, u16 sm_lid, u8 state)
{
	struct ib_port_info *pi = (struct ib_port_info *)sm->smp->data;
	struct ib_smp *smp = sm->smp;
	u8 cur;

	memset(smp, 0, sizeof(*smp));
	smp->base_version = IB_MGMT_BASE_VERSION;
	smp->mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	smp->class_version = 1;
	smp->method = IB_MGMT_METHOD_GET;
	smp->attr_id = IB_SMP_ATTR_PORT_INFO;
	smp->attr_mod = cpu_to_be32(port->num);
	ibtsim_sma_answer(port->node, port->num, smp);
	if (smp->status)
		goto err;

	cur = pi->linkspeed_portstate & 0xf;
	if (state == IBTSIM_PORT_ARMED && cur == IBTSIM_PORT_ACTIVE)
		state = IBTSIM_PORT_NOP;
	smp->method = IB_MGMT_METHOD_SET;
	smp->status = 0;
	pi->lid = cpu_to_be16(lid);
	pi->sm_lid = cpu_to_be16(sm_lid);
	pi->mkeyprot_resv_lmc &= ~0x7;			/* LMC 0 */
	pi->neighbormtu_mastersmsl &= 0xf0;		/* MasterSMSL 0 */
	pi->linkspeed_portstate = (pi->linkspeed_portstate & 0xf0) | state;
	pi->portphysstate_linkdown &= 0x0f;		/* PhysState: no change */
	pi->clientrereg_resv_subnetto &= 0x1f;		/* no ClientReregister */
	ibtsim_sma_answer(port->node, port->num, smp);
	if (!smp->status)
		return;
err:
	sm->errors++;
	pr_warn_ratelimited("%s/%s: SM-lite: PortInfo of port %u: status 0x%04x\n",
			    sm->fabric->name, port->node->desc, port->num,
			    be16_to_cpu(smp->status));
}

/* PortInfo Set of every reached port, to @state. */
static void ibtsim_sm_configure(struct ibtsim_sm *sm, u8 state)
{
	u16 sm_lid = sm->fabric->sm_lid;
	u32 i, n;

	for (i = 0; i < sm->fabric->num_nodes; i++) {
		struct ibtsim_node *node = sm->fabric->nodes[i];
		u32 base = sm->base[i];

		if (node->sw) {
			if (!sm->reached[base])
				continue;
			ibtsim_sm_port_info(sm, &node->ports[0], sm->lid[base],
					    sm_lid, state);
			for (n = 1; n <= node->num_ports; n++)
				if (ibtsim_sm_live(sm, &node->ports[n]))
					ibtsim_sm_port_info(sm, &node->ports[n],
							    sm->lid[base],
							    sm_lid, state);
		} else {
			for (n = 1; n <= node->num_ports; n++)
				if (sm->reached[base + n] && sm->lid[base + n])
					ibtsim_sm_port_info(sm, &node->ports[n],
							    sm->lid[base + n],
							    sm_lid, state);
		}
		cond_resched();
	}
}

/*
 * The reached switches and their trained links to switches, for routing:
 * the sweep's link states do not change while it routes.
 */
static void ibtsim_sm_links(struct ibtsim_sm *sm)
{
	struct ibtsim_fabric *fabric = sm->fabric;
	u32 i, n, k = 0;

	sm->num_sws = 0;
	for (i = 0; i < fabric->num_nodes; i++) {
		struct ibtsim_node *s = fabric->nodes[i];

		if (!s->sw || !sm->reached[sm->base[i]])
			continue;
		sm->first[sm->num_sws] = k;
		sm->sws[sm->num_sws++] = i;
		for (n = 1; n <= s->num_ports; n++) {
			struct ibtsim_port *peer = s->ports[n].peer;

			if (!ibtsim_sm_live(sm, &s->ports[n]) || !peer->node->sw)
				continue;
			sm->links[k].peer = peer->node->index;
			sm->links[k++].port = n;
		}
	}
	sm->first[sm->num_sws] = k;
}

/*
 * Hops from every reached switch to switch @t over trained links, into
 * sm->dist (none if @t is not reached). A switch's links lead to reached
 * switches only: what a trained link reaches is reached.
 */
static void ibtsim_sm_distances(struct ibtsim_sm *sm, struct ibtsim_node *t)
{
	u32 head = 0, tail = 0, i, l;
	u32 *pos = sm->queue + sm->num_sws;	/* node index -> entry of sws */

	for (i = 0; i < sm->num_sws; i++)
		sm->dist[sm->sws[i]] = IBTSIM_SM_INF;
	if (!sm->reached[sm->base[t->index]])
		return;
	sm->dist[t->index] = 0;
	sm->queue[tail++] = pos[t->index];
	while (head < tail) {
		u32 cur = sm->queue[head++];
		u32 d = sm->dist[sm->sws[cur]] + 1;

		for (l = sm->first[cur]; l < sm->first[cur + 1]; l++) {
			u32 peer = sm->links[l].peer;

			if (sm->dist[peer] != IBTSIM_SM_INF)
				continue;
			sm->dist[peer] = d;
			sm->queue[tail++] = pos[peer];
		}
	}
}

/*
 * The exit port of reached switch sm->sws[@k] towards the switch whose
 * distances sm->dist holds: a port on a shortest path carrying the fewest
 * LIDs, the lowest on a tie.
 */
static u8 ibtsim_sm_exit(struct ibtsim_sm *sm, u32 k)
{
	u32 node = sm->sws[k], base = sm->base[node];
	u32 d = sm->dist[node], best_use = U32_MAX, l;
	u8 best = IBTRACE_IBA_LFT_NO_PORT;

	for (l = sm->first[k]; l < sm->first[k + 1]; l++) {
		const struct ibtsim_sm_link *link = &sm->links[l];
		u32 use = sm->use[base + link->port];

		if (sm->dist[link->peer] + 1 != d || use >= best_use)
			continue;
		best = link->port;
		best_use = use;
	}
	if (best != IBTRACE_IBA_LFT_NO_PORT)
		sm->use[base + best]++;
	return best;
}

/*
 * The LFT entries of reached switch sm->sws[@k] for the @n LIDs of
 * sm->dests, which hang off switch @t (NULL: no switch routes them),
 * in their order: the exit port of each LID counts for the next ones.
 */
static void ibtsim_sm_route_dests(struct ibtsim_sm *sm, u32 k,
				  struct ibtsim_node *t, u32 n)
{
	struct ibtsim_node *s = sm->fabric->nodes[sm->sws[k]];
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&s->lock, flags);
	for (i = 0; i < n; i++) {
		const struct ibtsim_sm_dest *dest = &sm->dests[i];
		u8 out = IBTRACE_IBA_LFT_NO_PORT;

		if (dest->live && s == t)
			out = dest->last;
		else if (dest->live && t && sm->dist[s->index] != IBTSIM_SM_INF)
			out = ibtsim_sm_exit(sm, k);
		ibtsim_lft_set(s->sw, dest->lid, out);
	}
	spin_unlock_irqrestore(&s->lock, flags);
}

/*
 * Into sm->dests, switch @t's own LID and those of the HCA ports cabled
 * to it, by port number. Return: how many.
 */
static u32 ibtsim_sm_switch_dests(struct ibtsim_sm *sm, struct ibtsim_node *t)
{
	u32 n, count = 0;

	sm->dests[count++] = (struct ibtsim_sm_dest){
		.lid = sm->lid[sm->base[t->index]], .live = true,
	};
	for (n = 1; n <= t->num_ports; n++) {
		struct ibtsim_port *peer = t->ports[n].peer;
		u16 hca_lid;

		if (!peer || peer->node->sw)
			continue;
		hca_lid = sm->lid[ibtsim_sm_idx(sm, peer)];
		if (hca_lid)
			sm->dests[count++] = (struct ibtsim_sm_dest){
				.lid = hca_lid, .last = n,
				.live = ibtsim_sm_live(sm, &t->ports[n]),
			};
	}
	return count;
}

/* Min-hop LFTs of every reached switch. Return: 0 or -ENOMEM. */
static int ibtsim_sm_route(struct ibtsim_sm *sm)
{
	struct ibtsim_fabric *fabric = sm->fabric;
	u32 *pos = sm->queue + sm->num_sws;
	unsigned long flags;
	u32 i, k, lid, top, n;
	int err;

	/* LinearFDBTop, and no route for LID 0 and LIDs past the top. */
	for (i = 0; i < sm->num_sws; i++) {
		struct ibtsim_node *s = fabric->nodes[sm->sws[i]];

		err = ibtsim_lft_reserve(s, sm->max_lid);
		if (err)
			return err;
		spin_lock_irqsave(&s->lock, flags);
		top = max_t(u32, s->sw->lft_top, sm->max_lid);
		ibtsim_lft_set(s->sw, 0, IBTRACE_IBA_LFT_NO_PORT);
		for (lid = sm->max_lid + 1; lid <= top; lid++)
			ibtsim_lft_set(s->sw, lid, IBTRACE_IBA_LFT_NO_PORT);
		s->sw->lft_top = sm->max_lid;
		s->sw->port_state_change = false;
		spin_unlock_irqrestore(&s->lock, flags);
		pos[sm->sws[i]] = i;
	}

	/*
	 * Switch by switch in the order of their LIDs, each with the HCAs
	 * cabled to it; an HCA cabled to an HCA is routed by no switch.
	 */
	for (lid = 1; lid <= sm->max_lid; lid++) {
		struct ibtsim_port *owner = sm->owner[lid];
		struct ibtsim_node *t = owner->node;

		if (!t->sw) {
			if (owner->peer->node->sw)
				continue;	/* routed with its switch */
			sm->dests[0] = (struct ibtsim_sm_dest){ .lid = lid };
			for (k = 0; k < sm->num_sws; k++)
				ibtsim_sm_route_dests(sm, k, NULL, 1);
			continue;
		}
		n = ibtsim_sm_switch_dests(sm, t);
		ibtsim_sm_distances(sm, t);
		for (k = 0; k < sm->num_sws; k++)
			ibtsim_sm_route_dests(sm, k, t, n);
		cond_resched();
	}
	return 0;
}

/**
 * ibtsim_sm_sweep - run SM-lite over a fabric
 * @fabric: the fabric; fabric->sm_lite should be set
 *
 * Assigns LIDs, programs min-hop LinearForwardingTables, sets MasterSMLID
 * and brings every port the SM reaches over trained links to Active, as
 * described at the top of sm.c, and sets fabric->sm_lid (0 when node 0
 * has no connected port). Idempotent: a second sweep of an unchanged
 * fabric changes nothing and raises no event; after a link comes back up
 * (both ends in Init), a sweep makes it Active and routes over it.
 *
 * Context: process context, may sleep. The caller holds ibtsim_fabrics_lock
 * (which keeps the fabric alive and serializes sweeps) and no node lock;
 * the sweep takes each node's lock in turn, never two at once, and raises
 * ib_core events with no spinlock held.
 *
 * Return: 0; -ENOMEM; -EIO if the SMA refused a PortInfo Set (logged).
 */
int ibtsim_sm_sweep(struct ibtsim_fabric *fabric)
{
	struct ibtsim_sm sm = {};
	struct ibtsim_port *sm_port;
	int err;

	lockdep_assert_held(&ibtsim_fabrics_lock);
	sm_port = ibtsim_sm_port(fabric);
	if (!sm_port) {
		WRITE_ONCE(fabric->sm_lid, 0);
		return 0;
	}
	err = ibtsim_sm_alloc(&sm, fabric);
	if (err)
		goto out;

	ibtsim_sm_link_states(&sm);
	ibtsim_sm_walk(&sm, sm_port, false);
	ibtsim_sm_walk(&sm, sm_port, true);
	WRITE_ONCE(fabric->sm_lid, sm.lid[ibtsim_sm_idx(&sm, sm_port)]);

	ibtsim_sm_configure(&sm, IBTSIM_PORT_ARMED);
	ibtsim_sm_links(&sm);
	err = ibtsim_sm_route(&sm);
	if (err)
		goto out;
	ibtsim_sm_configure(&sm, IBTSIM_PORT_ACTIVE);
	if (sm.errors)
		err = -EIO;
	pr_debug("%s: SM-lite sweep: SM LID %u, %u LIDs, %u SMA errors\n",
		 fabric->name, fabric->sm_lid, sm.max_lid, sm.errors);
out:
	ibtsim_sm_free(&sm);
	return err;
}

/*
 * A re-sweep asked for from a context that cannot take ibtsim_fabrics_lock
 * (a debugfs write, which fabric deletion waits for while holding it).
 * The work never blocks on that lock: it tries it and, when it is busy,
 * comes back a little later, so ibtsim_sm_stop() can always cancel it.
 */
#define IBTSIM_SM_RETRY	msecs_to_jiffies(10)

static void ibtsim_sm_work(struct work_struct *work)
{
	struct ibtsim_fabric *fabric =
		container_of(to_delayed_work(work), struct ibtsim_fabric, sm_work);

	if (!mutex_trylock(&ibtsim_fabrics_lock)) {
		queue_delayed_work(system_wq, &fabric->sm_work, IBTSIM_SM_RETRY);
		return;
	}
	ibtsim_sm_sweep(fabric);
	mutex_unlock(&ibtsim_fabrics_lock);
}

/**
 * ibtsim_sm_init - prepare SM-lite's re-sweep work of a new fabric
 * @fabric: the fabric
 */
void ibtsim_sm_init(struct ibtsim_fabric *fabric)
{
	INIT_DELAYED_WORK(&fabric->sm_work, ibtsim_sm_work);
}

/**
 * ibtsim_sm_resweep - have SM-lite sweep the fabric again, soon
 * @fabric: the fabric
 *
 * Called when a link comes back up: SM-lite brings it to Active and routes
 * over it again, as an SM does after a trap or its next sweep. Nothing
 * happens on a fabric without SM-lite. Any context that may queue work.
 */
void ibtsim_sm_resweep(struct ibtsim_fabric *fabric)
{
	if (fabric->sm_lite)
		queue_delayed_work(system_wq, &fabric->sm_work, 0);
}

/**
 * ibtsim_sm_stop - cancel a pending re-sweep, before the fabric goes
 * @fabric: the fabric
 *
 * May be called with ibtsim_fabrics_lock held: the work never waits for it.
 */
void ibtsim_sm_stop(struct ibtsim_fabric *fabric)
{
	cancel_delayed_work_sync(&fabric->sm_work);
}
