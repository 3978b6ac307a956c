// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the multicast tracer: the path a packet to an MLID takes from
 * the local port to a destination, following the switches'
 * MulticastForwardingTables (IBA 14.2.5.12, 18.2.4.3.2).
 *
 * A multicast tree has no single path to follow: a switch sends an MLID
 * out of every port its MFT entry marks, except the port it came in by.
 * So the walk is a breadth-first search in directed-route SMPs, from the
 * local node outward:
 *
 * - every node met is asked NodeInfo (type, GUIDs, the port it is entered
 *   by) and PortInfo of that port (port 0 on a switch) for its LID range;
 *   the first node whose range holds the DLID is the destination;
 * - a switch is asked SwitchInfo (MulticastFDBCap: an MLID beyond it is
 *   not forwarded) and the MFT block of the MLID at every port-mask
 *   position its ports need; each marked port but the incoming one whose
 *   PortInfo says Active leads to the next node;
 * - channel adapters and routers other than the source forward nothing;
 *   a switch met again (a loop in the tables, or a second way to it) is
 *   not searched twice.
 *
 * Breadth first, so the path found is a shortest one, and the same one
 * ibtracert -m finds. Once the destination is found, the path to it is
 * reported hop by hop, after each hop's NodeDescription (asked of the
 * path's nodes only). Agents are not asked: SourceRoute proves the
 * LID-routed path, not the multicast one.
 *
 * What does not depend on another answer is asked at once: a switch's
 * SwitchInfo with its MFT blocks, then PortInfo of all its marked ports,
 * then NodeInfo and PortInfo (port 0: a switch's own, a channel adapter's
 * incoming one) of all the nodes behind the Active ones. So a switch
 * costs three round trips, whatever its radix. The answers are then taken
 * in port order, so the search finds what a one-at-a-time search would.
 * The price: a switch met again is asked PortInfo again, and the MFT
 * blocks of an MLID past MulticastFDBCap are asked (and their error
 * status ignored).
 *
 * Nodes live in one array in search order, each naming the node it was
 * reached from; a node's directed route is rebuilt from that chain. The
 * GUIDs seen are hashed by index into the array, which grows as needed up
 * to %IBTRACE_MC_MAX_NODES.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "ibtrace.h"
#include "ibtrace_iba.h"

/* nodes one search may meet */
#define IBTRACE_MC_MAX_NODES		65536
#define IBTRACE_MC_FIRST_NODES		64
#define IBTRACE_MC_HASH_BITS		10
/* nodes asked about at once, two SMPs each */
#define IBTRACE_MC_CHUNK		64
#define IBTRACE_MC_BATCH		(2 * IBTRACE_MC_CHUNK)
#define IBTRACE_MC_NONE			U32_MAX

/**
 * struct ibtrace_mc_node - a node the search has met
 * @node_guid: NodeInfo.NodeGUID
 * @port_guid: NodeInfo.PortGUID
 * @parent: index of the node it was reached from (%IBTRACE_MC_NONE for
 *	the source)
 * @hash_next: next index in its hash chain, %IBTRACE_MC_NONE at the end
 * @lid: base LID of the port it is entered by (port 0 of a switch)
 * @smps: SMP attempts spent on it
 * @smp_rtt_ns: round trip of its NodeInfo
 * @type: NodeInfo.NodeType (&enum ibtrace_node_type)
 * @num_ports: NodeInfo.NumPorts
 * @in_port: the port the search entered it by, 0 for the source
 * @via: the parent's port that leads to it
 * @depth: hops from the source
 * @lmc: LMC of that port
 * @has_lid: @lid and @lmc are known
 */
struct ibtrace_mc_node {
	u64 node_guid;
	u64 port_guid;
	u32 parent;
	u32 hash_next;
	u32 lid;
	u32 smps;
	u64 smp_rtt_ns;
	u8 type;
	u8 num_ports;
	u8 in_port;
	u8 via;
	u8 depth;
	u8 lmc;
	bool has_lid;
};

/**
 * struct ibtrace_mc - one multicast search
 * @tc: the port, the request, the result, where the hops of the path found
 *	go and the address handle of the directed-route SMPs
 * @req: an SMP asked on its own
 * @breq: SMPs asked at once
 * @berr: how each of @breq ended
 * @bnode: the node each of @breq is about
 * @node: the nodes met, in search order
 * @count: nodes in @node
 * @size: room in @node
 * @hash: first index of each GUID hash chain
 * @mlid: the MLID traced
 * @at: index of the node the search ended at: the destination, or the
 *	node at fault
 * @hop: the hop being reported
 */
struct ibtrace_mc {
	const struct ibtrace_trace_ctx *tc;
	struct ibtrace_mad_req req;
	struct ibtrace_mad_req breq[IBTRACE_MC_BATCH];
	int berr[IBTRACE_MC_BATCH];
	u32 bnode[IBTRACE_MC_BATCH];
	struct ibtrace_mc_node *node;
	u32 count;
	u32 size;
	u32 hash[1 << IBTRACE_MC_HASH_BITS];
	u32 mlid;
	u32 at;
	struct ibtrace_hop hop;
};

/* How a search step ended: go on, found the destination, or stop. */
enum ibtrace_mc_step {
	IBTRACE_MC_ON,
	IBTRACE_MC_FOUND,
	IBTRACE_MC_END,
};

/* The trace ends at node @i with @status. */
static int ibtrace_mc_end(struct ibtrace_mc *mc, u32 i, u8 status, u8 port)
{
	mc->at = i;
	mc->tc->res->status = status;
	mc->tc->res->fail_hop = mc->node[i].depth;
	mc->tc->res->fail_port = port;
	return IBTRACE_MC_END;
}

/* Build @req: SubnGet(@attr, @mod) of node @i along its directed route. */
static void ibtrace_mc_build(struct ibtrace_mc *mc, struct ibtrace_mad_req *req,
			     u32 i, __be16 attr, u32 mod)
{
	struct ibtrace_smp_route route = { .hops = mc->node[i].depth };
	u32 j;

	for (j = i; mc->node[j].depth; j = mc->node[j].parent)
		route.path[mc->node[j].depth] = mc->node[j].via;
	/* The hop count is at most IBTRACE_TRACE_MAX_HOPS: cannot fail. */
	ibtrace_smp_build(req, &route, IB_MGMT_METHOD_GET, attr, mod, NULL);
	req->ah = mc->tc->smp_ah;
	req->timeout_ms = mc->tc->params->timeout_ms;
	req->retries = mc->tc->params->retries;
	req->stop = mc->tc->params->stop;
}

/*
 * How the SMP @req to node @i ended (@err): IBTRACE_MC_ON when answered
 * with status 0, IBTRACE_MC_END when the trace ends at @i, or a negative
 * errno.
 */
static int ibtrace_mc_check(struct ibtrace_mc *mc, u32 i,
			    const struct ibtrace_mad_req *req, int err)
{
	u16 status;

	if (err == -ENODEV)
		return ibtrace_mc_end(mc, i, IBTRACE_TRACE_DEV_GONE, 0);
	if (err == -ETIMEDOUT)
		return ibtrace_mc_end(mc, i, IBTRACE_TRACE_UNRESPONSIVE, 0);
	if (err)
		return err;
	status = be16_to_cpu(req->resp_smp.status & ~IB_SMP_DIRECTION);
	if (status) {
		mc->tc->res->mad_status = status;
		return ibtrace_mc_end(mc, i, IBTRACE_TRACE_SMP_ERROR, 0);
	}
	return IBTRACE_MC_ON;
}

/* One SMP to node @i, on its own; the answer is in mc->req. */
static int ibtrace_mc_get(struct ibtrace_mc *mc, u32 i, __be16 attr, u32 mod)
{
	struct ibtrace_mad_req *req = &mc->req;
	int err;

	ibtrace_mc_build(mc, req, i, attr, mod);
	err = ibtrace_smp_exchange_one(mc->tc->port, req);
	mc->node[i].smps += req->attempts;
	mc->tc->res->smps += req->attempts;
	return ibtrace_mc_check(mc, i, req, err);
}

/* Put SubnGet(@attr, @mod) of node @i at place @k of the batch. */
static void ibtrace_mc_ask(struct ibtrace_mc *mc, u32 k, u32 i, __be16 attr,
			   u32 mod)
{
	ibtrace_mc_build(mc, &mc->breq[k], i, attr, mod);
	mc->bnode[k] = i;
}

/* Send the first @n SMPs of the batch at once: 0, -ECANCELED or -ENOMEM. */
static int ibtrace_mc_send(struct ibtrace_mc *mc, u32 n)
{
	u32 k, attempts;
	int err;

	err = ibtrace_smp_exchange_all(mc->tc->port, mc->breq, mc->berr, n);
	for (k = 0; k < n; k++) {
		attempts = mc->breq[k].attempts;
		mc->node[mc->bnode[k]].smps += attempts;
		mc->tc->res->smps += attempts;
	}
	return err;
}

/* How SMP @k of the batch ended, as ibtrace_mc_check(). */
static int ibtrace_mc_took(struct ibtrace_mc *mc, u32 k)
{
	return ibtrace_mc_check(mc, mc->bnode[k], &mc->breq[k], mc->berr[k]);
}

static u32 ibtrace_mc_bucket(u64 guid)
{
	return hash_64(guid, IBTRACE_MC_HASH_BITS);
}

/* Has the search met a node of @guid? */
static bool ibtrace_mc_seen(const struct ibtrace_mc *mc, u64 guid)
{
	u32 i;

	for (i = mc->hash[ibtrace_mc_bucket(guid)]; i != IBTRACE_MC_NONE;
	     i = mc->node[i].hash_next)
		if (mc->node[i].node_guid == guid)
			return true;
	return false;
}

/* Make room for @more nodes: 0, or -ENOSPC / -ENOMEM. */
static int ibtrace_mc_room(struct ibtrace_mc *mc, u32 more)
{
	struct ibtrace_mc_node *grown;
	u32 size = mc->size ?: IBTRACE_MC_FIRST_NODES;

	if (mc->count + more > IBTRACE_MC_MAX_NODES)
		return -ENOSPC;
	while (size < mc->count + more)
		size *= 2;
	if (size == mc->size)
		return 0;
	grown = kvrealloc(mc->node, mc->size * sizeof(*grown),
			  size * sizeof(*grown), GFP_KERNEL);
	if (!grown)
		return -ENOMEM;
	mc->node = grown;
	mc->size = size;
	return 0;
}

/*
 * Node @j (its parent and route set) has answered NodeInfo (SMP @k of the
 * batch) and PortInfo of the port it is entered by (SMP @k + 1): what is
 * it? IBTRACE_MC_FOUND when it holds the DLID, IBTRACE_MC_ON when it is
 * kept (appended to the nodes met: @j is its slot until then) or dropped
 * (met before), or how the trace ended.
 */
static int ibtrace_mc_take(struct ibtrace_mc *mc, u32 j, u32 k)
{
	const struct ib_node_info *ni = (void *)mc->breq[k].resp_smp.data;
	const struct ib_port_info *pi = (void *)mc->breq[k + 1].resp_smp.data;
	struct ibtrace_mc_node *n = &mc->node[j];
	u32 dlid = mc->tc->res->dlid;
	bool seen, sw;
	int ret;

	ret = ibtrace_mc_took(mc, k);
	if (ret)
		return ret;
	n->smp_rtt_ns = mc->breq[k].rtt_ns;
	n->type = ni->node_type;
	n->num_ports = ni->num_ports;
	n->node_guid = be64_to_cpu(ni->node_guid);
	n->port_guid = be64_to_cpu(ni->port_guid);
	n->in_port = j ? ni->local_port_num : 0;
	sw = n->type == RDMA_NODE_IB_SWITCH;
	seen = ibtrace_mc_seen(mc, n->node_guid);
	/* A switch met again has nothing new to say. */
	if (seen && sw)
		return IBTRACE_MC_ON;

	ret = ibtrace_mc_took(mc, k + 1);
	if (ret)
		return ret;
	if (j && !sw && pi->local_port_num != n->in_port) {
		/* PortInfo of another port: ask for this one by number. */
		ret = ibtrace_mc_get(mc, j, IB_SMP_ATTR_PORT_INFO, n->in_port);
		if (ret)
			return ret;
		pi = (void *)mc->req.resp_smp.data;
	}
	n->lid = be16_to_cpu(pi->lid);
	n->lmc = ibtrace_iba_pi_lmc(pi);
	n->has_lid = true;
	if (ibtrace_hop_holds(n->lid, n->lmc, dlid)) {
		mc->at = j;
		return IBTRACE_MC_FOUND;
	}
	if (!j && !sw && ibtrace_iba_pi_state(pi) != IB_PORT_ACTIVE)
		return ibtrace_mc_end(mc, j, IBTRACE_TRACE_PORT_DOWN,
				      mc->tc->port->port_num);
	if (seen)
		return IBTRACE_MC_ON;
	if (j != mc->count)
		mc->node[mc->count] = *n;
	n = &mc->node[mc->count];
	n->hash_next = mc->hash[ibtrace_mc_bucket(n->node_guid)];
	mc->hash[ibtrace_mc_bucket(n->node_guid)] = mc->count++;
	return IBTRACE_MC_ON;
}

/*
 * Meet the nodes behind ports @via[0..@n) of node @from, all at once, and
 * take them in port order.
 */
static int ibtrace_mc_follow(struct ibtrace_mc *mc, u32 from, const u8 *via,
			     u32 n)
{
	struct ibtrace_mc_node *nn;
	u32 k, base;
	int ret;

	ret = ibtrace_mc_room(mc, n);
	if (ret)
		return ret;
	base = mc->count;
	for (k = 0; k < n; k++) {
		nn = &mc->node[base + k];
		memset(nn, 0, sizeof(*nn));
		nn->parent = from;
		nn->via = via[k];
		nn->depth = mc->node[from].depth + 1;
		ibtrace_mc_ask(mc, 2 * k, base + k, IB_SMP_ATTR_NODE_INFO, 0);
		ibtrace_mc_ask(mc, 2 * k + 1, base + k, IB_SMP_ATTR_PORT_INFO, 0);
	}
	ret = ibtrace_mc_send(mc, 2 * n);
	for (k = 0; !ret && k < n; k++)
		ret = ibtrace_mc_take(mc, base + k, 2 * k);
	return ret;
}

/*
 * The ports switch @i sends the MLID out of, into @ports: IBTRACE_MC_ON,
 * or how the trace ended.
 */
static int ibtrace_mc_ports(struct ibtrace_mc *mc, u32 i, unsigned long *ports)
{
	u32 entry = mc->mlid - ibtrace_iba_mcast_lid_base(), pos, last, b;
	const struct ibtrace_iba_switch_info *si;
	const __be16 *mft;
	u16 mask;
	int ret;

	last = mc->node[i].num_ports / IBTRACE_IBA_MFT_MASK_PORTS;
	ibtrace_mc_ask(mc, 0, i, IB_SMP_ATTR_SWITCH_INFO, 0);
	for (pos = 0; pos <= last; pos++)
		ibtrace_mc_ask(mc, pos + 1, i, IB_SMP_ATTR_MCAST_FORWARD_TABLE,
			       ibtrace_iba_mft_attr_mod(pos, entry /
							IBTRACE_IBA_MFT_BLOCK));
	ret = ibtrace_mc_send(mc, last + 2) ?: ibtrace_mc_took(mc, 0);
	if (ret)
		return ret;
	/* Beyond MulticastFDBCap the switch does not forward the MLID. */
	si = (void *)mc->breq[0].resp_smp.data;
	if (entry >= be16_to_cpu(si->mft_cap))
		return IBTRACE_MC_ON;
	for (pos = 0; pos <= last; pos++) {
		ret = ibtrace_mc_took(mc, pos + 1);
		if (ret)
			return ret;
		mft = (void *)mc->breq[pos + 1].resp_smp.data;
		mask = be16_to_cpu(mft[entry % IBTRACE_IBA_MFT_BLOCK]);
		for (b = 0; b < IBTRACE_IBA_MFT_MASK_PORTS; b++)
			if (mask & BIT(b))
				__set_bit(pos * IBTRACE_IBA_MFT_MASK_PORTS + b,
					  ports);
	}
	return IBTRACE_MC_ON;
}

/*
 * Of switch @i's ports @cand[0..@n), keep in @cand those whose PortInfo
 * says Active; their number in @n.
 */
static int ibtrace_mc_active(struct ibtrace_mc *mc, u32 i, u8 *cand, u32 *n)
{
	const struct ib_port_info *pi;
	u32 k, kept = 0;
	int ret;

	for (k = 0; k < *n; k++)
		ibtrace_mc_ask(mc, k, i, IB_SMP_ATTR_PORT_INFO, cand[k]);
	ret = ibtrace_mc_send(mc, *n);
	for (k = 0; !ret && k < *n; k++) {
		ret = ibtrace_mc_took(mc, k);
		if (ret)
			break;
		pi = (void *)mc->breq[k].resp_smp.data;
		if (ibtrace_iba_pi_state(pi) == IB_PORT_ACTIVE)
			cand[kept++] = cand[k];
	}
	*n = kept;
	return ret;
}

/* Follow node @i's ports @cand[0..@n): on a switch, the Active ones. */
static int ibtrace_mc_branch(struct ibtrace_mc *mc, u32 i, u8 *cand, u32 n)
{
	int ret = 0;

	if (mc->node[i].type == RDMA_NODE_IB_SWITCH)
		ret = ibtrace_mc_active(mc, i, cand, &n);
	if (!ret && n)
		ret = ibtrace_mc_follow(mc, i, cand, n);
	return ret;
}

/*
 * Search on from node @i: IBTRACE_MC_FOUND (the destination is node
 * mc->at), IBTRACE_MC_ON, IBTRACE_MC_END or a negative errno.
 */
static int ibtrace_mc_expand(struct ibtrace_mc *mc, u32 i)
{
	DECLARE_BITMAP(ports, 256) = {};
	u8 cand[IBTRACE_MC_CHUNK];
	u32 p, n = 0;
	int ret;

	if (mc->node[i].type != RDMA_NODE_IB_SWITCH) {
		/* Only the source sends: out of the local port. */
		if (i)
			return IBTRACE_MC_ON;
		__set_bit(mc->tc->port->port_num, ports);
	} else {
		ret = ibtrace_mc_ports(mc, i, ports);
		if (ret)
			return ret;
	}
	if (mc->node[i].depth >= IBTRACE_TRACE_MAX_HOPS)
		return IBTRACE_MC_ON;
	for_each_set_bit(p, ports, 256) {
		if (!p || p > mc->node[i].num_ports || p == mc->node[i].in_port)
			continue;
		cand[n++] = p;
		if (n < IBTRACE_MC_CHUNK)
			continue;
		ret = ibtrace_mc_branch(mc, i, cand, n);
		if (ret)
			return ret;
		n = 0;
	}
	return n ? ibtrace_mc_branch(mc, i, cand, n) : IBTRACE_MC_ON;
}

/* Report the path from the source to node mc->at, hop by hop. */
static int ibtrace_mc_report(struct ibtrace_mc *mc)
{
	u32 path[IBTRACE_TRACE_MAX_HOPS + 1];
	struct ibtrace_hop *hop = &mc->hop;
	const struct ibtrace_mc_node *n;
	const struct ibtrace_mad_req *req;
	u32 i, k, depth = mc->node[mc->at].depth;
	int err;

	for (i = mc->at; mc->node[i].depth; i = mc->node[i].parent)
		path[mc->node[i].depth] = i;
	path[0] = i;
	/* The names, for the path's nodes only; they are not vital. */
	for (i = 0, k = 0; i <= depth; i++)
		if (mc->node[path[i]].node_guid)
			ibtrace_mc_ask(mc, k++, path[i], IB_SMP_ATTR_NODE_DESC,
				       0);
	err = ibtrace_mc_send(mc, k);
	if (err)
		return err;
	for (i = 0, k = 0; i <= depth; i++) {
		n = &mc->node[path[i]];
		memset(hop, 0, sizeof(*hop));
		if (n->node_guid) {
			req = &mc->breq[k];
			if (!mc->berr[k++] &&
			    !(req->resp_smp.status & ~IB_SMP_DIRECTION))
				memcpy(hop->desc, req->resp_smp.data,
				       IB_DEVICE_NODE_DESC_MAX);
		}
		hop->index = i;
		hop->agent = i ? IBTRACE_HOP_AGENT_UNASKED :
				 IBTRACE_HOP_AGENT_LOCAL;
		hop->in_port = n->in_port;
		if (i < depth)
			hop->out_port = mc->node[path[i + 1]].via;
		hop->node_type = n->type;
		hop->num_ports = n->num_ports;
		hop->node_guid = n->node_guid;
		hop->port_guid = n->port_guid;
		hop->lid = n->lid;
		hop->lmc = n->lmc;
		hop->has_lid = n->has_lid;
		hop->smps = n->smps;
		hop->smp_rtt_ns = n->smp_rtt_ns;
		err = ibtrace_trace_report(mc->tc, hop);
		if (err)
			return err;
	}
	return 0;
}

/**
 * ibtrace_trace_mcast() - trace the path of an MLID to a destination
 * @tc: the local InfiniBand port (with an SMI agent), the request (the
 *	MLID in @tc->params->mlid, timeout and retries), the address handle
 *	for directed-route SMPs, the result (dlid set by the caller; status
 *	and totals filled in) and where every hop of the path found goes, in
 *	order
 *
 * Sleeps. See the file comment for the search.
 *
 * Return: 0 (how it ended is in @tc->res), -ECANCELED, -ENOMEM, or what
 * the report callback returned.
 */
int ibtrace_trace_mcast(const struct ibtrace_trace_ctx *tc)
{
	struct ibtrace_mc *mc;
	int ret;
	u32 i;

	mc = kvzalloc(sizeof(*mc), GFP_KERNEL);
	if (!mc)
		return -ENOMEM;
	mc->tc = tc;
	mc->mlid = tc->params->mlid;
	tc->res->mlid = tc->params->mlid;
	memset(mc->hash, 0xff, sizeof(mc->hash));

	/* The source: NodeInfo and PortInfo of the local port. */
	ret = ibtrace_mc_room(mc, 1);
	if (ret)
		goto out;
	memset(mc->node, 0, sizeof(*mc->node));
	mc->node[0].parent = IBTRACE_MC_NONE;
	ibtrace_mc_ask(mc, 0, 0, IB_SMP_ATTR_NODE_INFO, 0);
	ibtrace_mc_ask(mc, 1, 0, IB_SMP_ATTR_PORT_INFO, tc->port->port_num);
	ret = ibtrace_mc_send(mc, 2) ?: ibtrace_mc_take(mc, 0, 0);
	for (i = 0; ret == IBTRACE_MC_ON && i < mc->count; i++)
		ret = ibtrace_mc_expand(mc, i);
	/* Out of room: as far as the search could see, not in the tree. */
	if (ret == -ENOSPC)
		ret = IBTRACE_MC_ON;
	if (ret < 0)
		goto out;
	if (ret == IBTRACE_MC_ON) {
		tc->res->status = IBTRACE_TRACE_NOT_IN_TREE;
		tc->res->fail_hop = 0;
		mc->at = 0;
	}
	ret = ibtrace_mc_report(mc);
out:
	kvfree(mc->node);
	kvfree(mc);
	return ret;
}
