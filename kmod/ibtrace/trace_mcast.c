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
 *   not searched twice, and a node is asked each thing once.
 *
 * Breadth first, so the path found is a shortest one, and the same one
 * ibtracert -m finds. Once the destination is found, the path to it is
 * reported hop by hop, after each hop's NodeDescription (asked of the
 * path's nodes only). Agents are not asked: SourceRoute proves the
 * LID-routed path, not the multicast one.
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
#include <asm/unaligned.h>

#include "ibtrace.h"

/* Offsets in the SMP data of the attributes we read (IBA 14.2.5). */
#define IBTRACE_MC_NI_TYPE		2
#define IBTRACE_MC_NI_PORTS		3
#define IBTRACE_MC_NI_NODE_GUID		12
#define IBTRACE_MC_NI_PORT_GUID		20
#define IBTRACE_MC_NI_LOCAL_PORT	36
#define IBTRACE_MC_PI_LID		16
#define IBTRACE_MC_PI_STATE		32	/* low nibble */
#define IBTRACE_MC_PI_LMC		34	/* low 3 bits */
#define IBTRACE_MC_SI_MFDB_CAP		4

#define IBTRACE_MC_PORT_ACTIVE		4
#define IBTRACE_MC_LID_BASE		IBTRACE_MIN_MULTICAST_LID
#define IBTRACE_MC_BLOCK		32	/* MFT entries per block */
#define IBTRACE_MC_MASK_PORTS		16	/* ports per MFT port mask */
#define IBTRACE_MC_POSITION_SHIFT	28

/* nodes one search may meet */
#define IBTRACE_MC_MAX_NODES		65536
#define IBTRACE_MC_FIRST_NODES		64
#define IBTRACE_MC_HASH_BITS		10
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
 * @port: the local port
 * @params: what the user asked for
 * @res: the result being built
 * @report: called with each hop of the path found
 * @report_ctx: passed to @report
 * @req: the SMP being exchanged
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
	struct ibtrace_port *port;
	const struct ibtrace_trace_params *params;
	struct ibtrace_trace_result *res;
	ibtrace_trace_report_t report;
	void *report_ctx;
	struct ibtrace_mad_req req;
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
	mc->res->status = status;
	mc->res->fail_hop = mc->node[i].depth;
	mc->res->fail_port = port;
	return IBTRACE_MC_END;
}

/*
 * SubnGet(@attr, @mod) of node @i along its directed route. Returns 0
 * with the answer in mc->req.resp_smp, -EREMOTEIO when it was answered
 * with an error status (the trace has ended at @i), or the exchange's
 * error.
 */
static int ibtrace_mc_get(struct ibtrace_mc *mc, u32 i, __be16 attr, u32 mod,
			  struct ib_ah *ah)
{
	struct ibtrace_mc_node *n = &mc->node[i];
	struct ibtrace_smp_route route = { .hops = n->depth };
	struct ibtrace_mad_req *req = &mc->req;
	u32 j = i;
	u16 status;
	int err;

	while (mc->node[j].depth) {
		route.path[mc->node[j].depth] = mc->node[j].via;
		j = mc->node[j].parent;
	}
	req->ah = ah;
	req->timeout_ms = mc->params->timeout_ms;
	req->retries = mc->params->retries;
	err = ibtrace_smp_exchange(mc->port, req, &route, IB_MGMT_METHOD_GET,
				   attr, mod, NULL);
	n->smps += req->attempts;
	mc->res->smps += req->attempts;
	if (err)
		return err;
	status = be16_to_cpu(req->resp_smp.status & ~IB_SMP_DIRECTION);
	if (status) {
		mc->res->mad_status = status;
		ibtrace_mc_end(mc, i, IBTRACE_TRACE_SMP_ERROR, 0);
		return -EREMOTEIO;
	}
	return 0;
}

/* An exchange with node @i failed with @err: the end, unless a signal. */
static int ibtrace_mc_fail(struct ibtrace_mc *mc, u32 i, int err)
{
	if (err == -EREMOTEIO)
		return IBTRACE_MC_END;
	if (err == -ENODEV)
		return ibtrace_mc_end(mc, i, IBTRACE_TRACE_DEV_GONE, 0);
	if (err == -ETIMEDOUT)
		return ibtrace_mc_end(mc, i, IBTRACE_TRACE_UNRESPONSIVE, 0);
	return err;
}

static u32 ibtrace_mc_bucket(u64 guid)
{
	return hash_64(guid, IBTRACE_MC_HASH_BITS);
}

/* Index of the node of @guid met before node @limit, or IBTRACE_MC_NONE. */
static u32 ibtrace_mc_find(const struct ibtrace_mc *mc, u64 guid, u32 limit)
{
	u32 i;

	for (i = mc->hash[ibtrace_mc_bucket(guid)]; i != IBTRACE_MC_NONE;
	     i = mc->node[i].hash_next)
		if (i < limit && mc->node[i].node_guid == guid)
			return i;
	return IBTRACE_MC_NONE;
}

/* Make room for one more node: 0, or -ENOSPC / -ENOMEM. */
static int ibtrace_mc_room(struct ibtrace_mc *mc)
{
	struct ibtrace_mc_node *grown;
	u32 size;

	if (mc->count < mc->size)
		return 0;
	if (mc->size >= IBTRACE_MC_MAX_NODES)
		return -ENOSPC;
	size = mc->size ? mc->size * 2 : IBTRACE_MC_FIRST_NODES;
	grown = kvrealloc(mc->node, mc->size * sizeof(*grown),
			  size * sizeof(*grown), GFP_KERNEL);
	if (!grown)
		return -ENOMEM;
	mc->node = grown;
	mc->size = size;
	return 0;
}

/*
 * Node @i (its parent and route set) is answering: ask NodeInfo and the
 * PortInfo of the port it is entered by. IBTRACE_MC_FOUND when it holds
 * the DLID; IBTRACE_MC_ON when it is to be kept (new) or dropped (seen
 * before: @i is then not counted), or how it ended.
 */
static int ibtrace_mc_meet(struct ibtrace_mc *mc, u32 i, struct ib_ah *ah)
{
	struct ibtrace_mc_node *n = &mc->node[i];
	const u8 *d = mc->req.resp_smp.data;
	bool seen;
	u32 dlid = mc->res->dlid;
	u8 state;
	int err;

	err = ibtrace_mc_get(mc, i, IB_SMP_ATTR_NODE_INFO, 0, ah);
	if (err)
		return ibtrace_mc_fail(mc, i, err);
	n->smp_rtt_ns = mc->req.rtt_ns;
	n->type = d[IBTRACE_MC_NI_TYPE];
	n->num_ports = d[IBTRACE_MC_NI_PORTS];
	n->node_guid = get_unaligned_be64(d + IBTRACE_MC_NI_NODE_GUID);
	n->port_guid = get_unaligned_be64(d + IBTRACE_MC_NI_PORT_GUID);
	n->in_port = i ? d[IBTRACE_MC_NI_LOCAL_PORT] : 0;
	seen = ibtrace_mc_find(mc, n->node_guid, i) != IBTRACE_MC_NONE;
	/* A switch met again has nothing new to say. */
	if (seen && n->type == RDMA_NODE_IB_SWITCH)
		return IBTRACE_MC_ON;

	err = ibtrace_mc_get(mc, i, IB_SMP_ATTR_PORT_INFO,
			     n->type == RDMA_NODE_IB_SWITCH ? 0 :
			     i ? n->in_port : mc->port->port_num, ah);
	if (err)
		return ibtrace_mc_fail(mc, i, err);
	n->lid = get_unaligned_be16(d + IBTRACE_MC_PI_LID);
	n->lmc = d[IBTRACE_MC_PI_LMC] & 0x7;
	n->has_lid = true;
	state = d[IBTRACE_MC_PI_STATE] & 0xf;
	if (n->lid && dlid >= n->lid && dlid - n->lid < (1U << n->lmc)) {
		mc->at = i;
		return IBTRACE_MC_FOUND;
	}
	if (!i && n->type != RDMA_NODE_IB_SWITCH &&
	    state != IBTRACE_MC_PORT_ACTIVE)
		return ibtrace_mc_end(mc, i, IBTRACE_TRACE_PORT_DOWN,
				      mc->port->port_num);
	if (seen)
		return IBTRACE_MC_ON;
	n->hash_next = mc->hash[ibtrace_mc_bucket(n->node_guid)];
	mc->hash[ibtrace_mc_bucket(n->node_guid)] = i;
	mc->count = i + 1;
	return IBTRACE_MC_ON;
}

/* Meet the node behind port @via of node @from. */
static int ibtrace_mc_follow(struct ibtrace_mc *mc, u32 from, u8 via,
			     struct ib_ah *ah)
{
	struct ibtrace_mc_node *n;
	int err;

	err = ibtrace_mc_room(mc);
	if (err)
		return err;
	n = &mc->node[mc->count];
	memset(n, 0, sizeof(*n));
	n->parent = from;
	n->via = via;
	n->depth = mc->node[from].depth + 1;
	return ibtrace_mc_meet(mc, mc->count, ah);
}

/*
 * The ports switch @i sends the MLID out of, into @ports: IBTRACE_MC_ON,
 * or how the trace ended.
 */
static int ibtrace_mc_ports(struct ibtrace_mc *mc, u32 i, unsigned long *ports,
			    struct ib_ah *ah)
{
	u32 entry = mc->mlid - IBTRACE_MC_LID_BASE, pos, last, b;
	const u8 *d = mc->req.resp_smp.data;
	u16 mask;
	int err;

	err = ibtrace_mc_get(mc, i, IB_SMP_ATTR_SWITCH_INFO, 0, ah);
	if (err)
		return ibtrace_mc_fail(mc, i, err);
	/* Beyond MulticastFDBCap the switch does not forward the MLID. */
	if (entry >= get_unaligned_be16(d + IBTRACE_MC_SI_MFDB_CAP))
		return IBTRACE_MC_ON;
	last = mc->node[i].num_ports / IBTRACE_MC_MASK_PORTS;
	for (pos = 0; pos <= last; pos++) {
		err = ibtrace_mc_get(mc, i, IB_SMP_ATTR_MCAST_FORWARD_TABLE,
				     pos << IBTRACE_MC_POSITION_SHIFT |
				     entry / IBTRACE_MC_BLOCK, ah);
		if (err)
			return ibtrace_mc_fail(mc, i, err);
		mask = get_unaligned_be16(d + 2 * (entry % IBTRACE_MC_BLOCK));
		for (b = 0; b < IBTRACE_MC_MASK_PORTS; b++)
			if (mask & BIT(b))
				__set_bit(pos * IBTRACE_MC_MASK_PORTS + b, ports);
	}
	return IBTRACE_MC_ON;
}

/*
 * Search on from node @i: IBTRACE_MC_FOUND (the destination is node
 * mc->at), IBTRACE_MC_ON, IBTRACE_MC_END or a negative errno.
 */
static int ibtrace_mc_expand(struct ibtrace_mc *mc, u32 i, struct ib_ah *ah)
{
	DECLARE_BITMAP(ports, 256) = {};
	struct ibtrace_mc_node *n = &mc->node[i];
	u32 p;
	int ret;

	if (n->type != RDMA_NODE_IB_SWITCH) {
		/* Only the source sends: out of the local port. */
		if (i)
			return IBTRACE_MC_ON;
		__set_bit(mc->port->port_num, ports);
	} else {
		ret = ibtrace_mc_ports(mc, i, ports, ah);
		if (ret != IBTRACE_MC_ON)
			return ret;
	}
	if (n->depth >= IBTRACE_TRACE_MAX_HOPS)
		return IBTRACE_MC_ON;
	for_each_set_bit(p, ports, 256) {
		n = &mc->node[i];
		if (!p || p > n->num_ports || p == n->in_port)
			continue;
		if (n->type == RDMA_NODE_IB_SWITCH) {
			ret = ibtrace_mc_get(mc, i, IB_SMP_ATTR_PORT_INFO, p,
					     ah);
			if (ret)
				return ibtrace_mc_fail(mc, i, ret);
			if ((mc->req.resp_smp.data[IBTRACE_MC_PI_STATE] & 0xf) !=
			    IBTRACE_MC_PORT_ACTIVE)
				continue;
		}
		ret = ibtrace_mc_follow(mc, i, p, ah);
		if (ret != IBTRACE_MC_ON)
			return ret;
	}
	return IBTRACE_MC_ON;
}

/* Report the path from the source to node mc->at, hop by hop. */
static int ibtrace_mc_report(struct ibtrace_mc *mc, struct ib_ah *ah)
{
	u32 path[IBTRACE_TRACE_MAX_HOPS + 1];
	struct ibtrace_hop *hop = &mc->hop;
	const struct ibtrace_mc_node *n;
	u32 i, depth = mc->node[mc->at].depth;
	int err;

	for (i = mc->at; mc->node[i].depth; i = mc->node[i].parent)
		path[mc->node[i].depth] = i;
	path[0] = i;
	for (i = 0; i <= depth; i++) {
		n = &mc->node[path[i]];
		memset(hop, 0, sizeof(*hop));
		/* The name is for the path's nodes only; it is not vital. */
		if (n->node_guid) {
			err = ibtrace_mc_get(mc, path[i],
					     IB_SMP_ATTR_NODE_DESC, 0, ah);
			if (err == -EINTR)
				return err;
			if (!err)
				memcpy(hop->desc, mc->req.resp_smp.data,
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
		mc->res->hops++;
		err = mc->report(mc->report_ctx, hop);
		if (err)
			return err;
	}
	return 0;
}

/**
 * ibtrace_trace_mcast() - trace the path of an MLID to a destination
 * @port: local InfiniBand port with an SMI agent
 * @params: the MLID (@params->mlid), timeout and retries
 * @smp_ah: address handle for directed-route SMPs
 * @report: called with every hop of the path found, in order
 * @ctx: passed to @report
 * @result: dlid set by the caller; status and totals filled in
 *
 * Sleeps. See the file comment for the search.
 *
 * Return: 0 (how it ended is in @result), -EINTR on a signal, -ENOMEM, or
 * what @report returned.
 */
int ibtrace_trace_mcast(struct ibtrace_port *port,
			const struct ibtrace_trace_params *params,
			struct ib_ah *smp_ah, ibtrace_trace_report_t report,
			void *ctx, struct ibtrace_trace_result *result)
{
	struct ibtrace_mc *mc;
	int ret;
	u32 i;

	mc = kvzalloc(sizeof(*mc), GFP_KERNEL);
	if (!mc)
		return -ENOMEM;
	mc->port = port;
	mc->params = params;
	mc->res = result;
	mc->report = report;
	mc->report_ctx = ctx;
	mc->mlid = params->mlid;
	result->mlid = params->mlid;
	memset(mc->hash, 0xff, sizeof(mc->hash));

	ret = ibtrace_mc_room(mc);
	if (ret)
		goto out;
	memset(mc->node, 0, sizeof(*mc->node));
	mc->node[0].parent = IBTRACE_MC_NONE;
	ret = ibtrace_mc_meet(mc, 0, smp_ah);
	for (i = 0; ret == IBTRACE_MC_ON && i < mc->count; i++)
		ret = ibtrace_mc_expand(mc, i, smp_ah);
	/* Out of room: as far as the search could see, not in the tree. */
	if (ret == -ENOSPC)
		ret = IBTRACE_MC_ON;
	if (ret < 0)
		goto out;
	if (ret == IBTRACE_MC_ON) {
		result->status = IBTRACE_TRACE_NOT_IN_TREE;
		result->fail_hop = 0;
		mc->at = 0;
	}
	ret = ibtrace_mc_report(mc, smp_ah);
out:
	kvfree(mc->node);
	kvfree(mc);
	return ret;
}
