/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the subnet sweep (sweep.c) and its job (sweep_nl.c): every
 * node a port reaches by directed route, its ports and links, and each
 * switch's linear forwarding table, for the route audit.
 */
#ifndef _IBTRACE_SWEEP_H
#define _IBTRACE_SWEEP_H

#include <linux/hashtable.h>

#include "ibtrace.h"

/* No node: a port without a (known) link. */
#define IBTRACE_SWEEP_NONE	U32_MAX

/**
 * struct ibtrace_sweep_port - one port of a swept node
 * @asked: its PortInfo was asked for
 * @known: its PortInfo was read
 * @state: PortInfo.PortState (&enum ib_port_state), 0 if not known
 * @phys_state: PortInfo.PortPhysicalState, 0 if not known
 * @lmc: PortInfo.LMC
 * @lid: PortInfo.LID: the base LID of a CA's port or a switch's port 0
 * @peer: the node at the other end of the port's link, by index, or
 *	%IBTRACE_SWEEP_NONE
 * @peer_port: the port of @peer the link ends on
 */
struct ibtrace_sweep_port {
	bool asked;
	bool known;
	u8 state;
	u8 phys_state;
	u8 lmc;
	u16 lid;
	u32 peer;
	u8 peer_port;
};

/**
 * struct ibtrace_sweep_node - one node the sweep reached
 * @hnode: in &ibtrace_sweep.by_guid
 * @index: its index in &ibtrace_sweep.node
 * @guid: NodeInfo.NodeGUID
 * @type: NodeInfo.NodeType (RDMA_NODE_IB_SWITCH, RDMA_NODE_IB_CA, ...)
 * @nports: NodeInfo.NumPorts: @port has @nports + 1 entries
 * @in_port: the port the sweep entered it by (the local port for the
 *	local node)
 * @hops: the directed route's length from the local port
 * @path: the directed route, @path[1..@hops] the exit ports
 * @desc: NodeDescription, NUL-terminated
 * @unanswered: its questions that got no usable answer
 * @lft_top: SwitchInfo.LinearFDBTop (a switch whose SwitchInfo came)
 * @lft: the LinearForwardingTable, @lft_top + 1 exit ports
 *	(%IBTRACE_IBA_LFT_NO_PORT: none, and for a block that got no
 *	answer), or NULL
 * @port: its ports by number, [0] a switch's management port
 */
struct ibtrace_sweep_node {
	struct hlist_node hnode;
	u32 index;
	u64 guid;
	u8 type;
	u8 nports;
	u8 in_port;
	u8 hops;
	u8 path[IBTRACE_TRACE_MAX_HOPS + 1];
	char desc[IB_DEVICE_NODE_DESC_MAX + 1];
	u16 unanswered;
	u32 lft_top;
	u8 *lft;
	struct ibtrace_sweep_port port[];
};

/**
 * struct ibtrace_sweep_stats - what a sweep did
 * @nodes: nodes found
 * @switches: of which switches
 * @links: links found (each counted once)
 * @smps: SMPs sent, retries included
 * @unanswered: questions that got no usable answer (after retries)
 * @not_kept: nodes found past the bounds (nodes, memory), not kept
 * @bytes: memory the nodes and tables take
 * @elapsed_ns: time taken so far
 */
struct ibtrace_sweep_stats {
	u32 nodes;
	u32 switches;
	u32 links;
	u32 smps;
	u32 unanswered;
	u32 not_kept;
	u64 bytes;
	u64 elapsed_ns;
};

/**
 * struct ibtrace_sweep_params - how to sweep
 * @window: SMPs out at once, 1..%IBTRACE_SWEEP_MAX_WINDOW
 * @timeout_ms: per SMP
 * @retries: per SMP, after a timeout
 * @max_nodes: nodes kept at most
 * @max_bytes: memory the nodes and tables may take
 * @stop: set to stop the sweep
 */
struct ibtrace_sweep_params {
	u32 window;
	u32 timeout_ms;
	u32 retries;
	u32 max_nodes;
	u64 max_bytes;
	const bool *stop;
};

/**
 * struct ibtrace_sweep - a sweep's findings
 * @node: the nodes by index, the local node first, then in the order found
 *	(breadth first)
 * @nnodes: how many
 * @by_guid: the nodes by GUID
 * @stats: the figures
 */
struct ibtrace_sweep {
	struct ibtrace_sweep_node **node;
	u32 nnodes;
	DECLARE_HASHTABLE(by_guid, 12);
	struct ibtrace_sweep_stats stats;
};

/**
 * typedef ibtrace_sweep_progress_t - told after each batch of SMPs
 * @ctx: the caller's
 * @stats: the figures so far
 */
typedef void (*ibtrace_sweep_progress_t)(void *ctx,
					 const struct ibtrace_sweep_stats *stats);

int ibtrace_sweep_run(struct ibtrace_port *port,
		      const struct ibtrace_sweep_params *params,
		      struct ibtrace_sweep *s,
		      ibtrace_sweep_progress_t progress, void *ctx);
void ibtrace_sweep_free(struct ibtrace_sweep *s);

#endif /* _IBTRACE_SWEEP_H */
