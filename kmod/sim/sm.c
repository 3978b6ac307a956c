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
 * @use: per port, LIDs a switch routes out of it in this sweep
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
	sm->queue = kvcalloc(n, sizeof(*sm->queue), GFP_KERNEL);
	sm->dist = kvcalloc(n, sizeof(*sm->dist), GFP_KERNEL);
	sm->smp = kzalloc(sizeof(*sm->smp), GFP_KERNEL);
	if (!sm->lid || !sm->up || !sm->reached || !sm->use || !sm->owner ||
	    !sm->queue || !sm->dist || !sm->smp)
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

/* Set LFT entry @lid of switch @node to @port. */
static void ibtsim_sm_lft_set(struct ibtsim_node *node, u16 lid, u8 port)
{
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	ibtsim_lft_set(node->sw, lid, port);
	spin_unlock_irqrestore(&node->lock, flags);
}

/* Hops from every switch to switch @t over trained links, into sm->dist. */
static void ibtsim_sm_distances(struct ibtsim_sm *sm, struct ibtsim_node *t)
{
	struct ibtsim_fabric *fabric = sm->fabric;
	u32 head = 0, tail = 0, i, n;

	for (i = 0; i < fabric->num_nodes; i++)
		sm->dist[i] = IBTSIM_SM_INF;
	if (!sm->reached[sm->base[t->index]])
		return;
	sm->dist[t->index] = 0;
	sm->queue[tail++] = t->index;
	while (head < tail) {
		struct ibtsim_node *sw = fabric->nodes[sm->queue[head++]];

		for (n = 1; n <= sw->num_ports; n++) {
			struct ibtsim_port *peer = sw->ports[n].peer;

			if (!ibtsim_sm_live(sm, &sw->ports[n]) || !peer->node->sw ||
			    sm->dist[peer->node->index] != IBTSIM_SM_INF)
				continue;
			sm->dist[peer->node->index] = sm->dist[sw->index] + 1;
			sm->queue[tail++] = peer->node->index;
		}
	}
}

/*
 * The exit port of switch @s towards switch @t (sm->dist filled for @t):
 * a port on a shortest path carrying the fewest LIDs, the lowest on a tie.
 */
static u8 ibtsim_sm_exit(struct ibtsim_sm *sm, struct ibtsim_node *s)
{
	u32 d = sm->dist[s->index], best_use = U32_MAX;
	u8 best = IBTRACE_IBA_LFT_NO_PORT;
	u32 n;

	for (n = 1; n <= s->num_ports; n++) {
		struct ibtsim_port *peer = s->ports[n].peer;
		u32 use = sm->use[sm->base[s->index] + n];

		if (!ibtsim_sm_live(sm, &s->ports[n]) || !peer->node->sw ||
		    sm->dist[peer->node->index] + 1 != d)
			continue;
		if (use < best_use) {
			best = n;
			best_use = use;
		}
	}
	if (best != IBTRACE_IBA_LFT_NO_PORT)
		sm->use[sm->base[s->index] + best]++;
	return best;
}

/* Route @lid, held behind port @last of switch @t (0: @t itself). */
static void ibtsim_sm_route_lid(struct ibtsim_sm *sm, struct ibtsim_node *t,
				u16 lid, u8 last, bool live)
{
	struct ibtsim_fabric *fabric = sm->fabric;
	u32 i;

	for (i = 0; i < fabric->num_nodes; i++) {
		struct ibtsim_node *s = fabric->nodes[i];
		u8 out = IBTRACE_IBA_LFT_NO_PORT;

		if (!s->sw || !sm->reached[sm->base[i]])
			continue;
		if (live && s == t)
			out = last;
		else if (live && sm->dist[i] != IBTSIM_SM_INF)
			out = ibtsim_sm_exit(sm, s);
		ibtsim_sm_lft_set(s, lid, out);
	}
}

/* Min-hop LFTs of every reached switch. Return: 0 or -ENOMEM. */
static int ibtsim_sm_route(struct ibtsim_sm *sm)
{
	struct ibtsim_fabric *fabric = sm->fabric;
	unsigned long flags;
	u32 i, lid, n, top;
	int err;

	/* LinearFDBTop, and no route for LID 0 and LIDs past the top. */
	for (i = 0; i < fabric->num_nodes; i++) {
		struct ibtsim_node *s = fabric->nodes[i];

		if (!s->sw || !sm->reached[sm->base[i]])
			continue;
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
	}

	for (lid = 1; lid <= sm->max_lid; lid++) {
		struct ibtsim_port *owner = sm->owner[lid];
		struct ibtsim_node *t = owner->node;

		if (!t->sw) {
			/* An HCA port cabled to another HCA: no switch routes it. */
			if (!owner->peer->node->sw)
				ibtsim_sm_route_lid(sm, t, lid, 0, false);
			continue;	/* else routed with its switch */
		}
		ibtsim_sm_distances(sm, t);
		ibtsim_sm_route_lid(sm, t, lid, 0, true);
		for (n = 1; n <= t->num_ports; n++) {
			struct ibtsim_port *peer = t->ports[n].peer;
			u16 hca_lid;

			if (!peer || peer->node->sw)
				continue;
			hca_lid = sm->lid[ibtsim_sm_idx(sm, peer)];
			if (hca_lid)
				ibtsim_sm_route_lid(sm, t, hca_lid, n,
						    ibtsim_sm_live(sm, &t->ports[n]));
		}
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
