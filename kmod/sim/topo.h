/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace_sim - the topology parser (topo.c): a topology text, parsed.
 *
 * What the parser makes of the ibnetdiscover / ibsim text before any
 * fabric object exists: nodes and their links by name and line, the
 * fabric's memory estimate, and the error to report.
 */
#ifndef _IBTSIM_TOPO_H
#define _IBTSIM_TOPO_H

#include <linux/types.h>
#include <uapi/linux/ibtrace_sim.h>

/**
 * struct ibtsim_topo_port - a port of a parsed node
 * @guid: port GUID given in the text, 0 if none
 * @peer_name: name of the linked node, NULL if unconnected
 * @peer: index of the linked node, resolved after parsing
 * @peer_port: port number on the linked node
 * @line: line that described the link
 */
struct ibtsim_topo_port {
	u64 guid;
	const char *peer_name;
	u32 peer;
	u8 peer_port;
	u32 line;
};

/**
 * struct ibtsim_topo_node - a parsed node
 * @type: &enum ibtsim_node_type
 * @num_ports: number of ports
 * @name: node name
 * @node_guid: NodeGUID from the text, 0 if none
 * @sys_guid: SystemImageGUID from the text, 0 if none
 * @hostless: an HCA beyond the fabric's device count: no RDMA device
 * @line: line of the node header
 * @ports: @num_ports + 1 entries, 0 unused
 */
struct ibtsim_topo_node {
	u8 type;
	u8 num_ports;
	char name[IBTRACE_SIM_NODE_NAME_MAX + 1];
	u64 node_guid;
	u64 sys_guid;
	bool hostless;
	u32 line;
	struct ibtsim_topo_port *ports;
};

/**
 * struct ibtsim_topo - a parsed topology
 * @nodes: nodes in text order
 * @num_nodes: entries used in @nodes
 * @alloc_nodes: entries allocated in @nodes
 * @text: private copy of the text (peer names point into it)
 * @err_line: on error, the 1-based line at fault (0: not line related)
 * @err_msg: on error, the reason (a static string)
 * @err_detail: on error, the reason with figures, if any (else "")
 * @guid_cap: set by the caller: GUID table entries per port of the fabric
 * @mem_room: set by the caller: what is left of the memory budget
 * @max_devs: set by the caller: the first this many HCAs become RDMA
 *	devices, the rest are hostless
 * @cas: HCAs in the text
 * @mem_cost: memory the fabric will take (ibtsim_node_cost() of each node,
 *	ibtsim_fabric_cost()), complete once the whole text is parsed
 * @lids: LIDs the fabric's ports will have
 * @switches: switches in the text
 * @ports: ports in the text, switch port 0 counted
 * @over_budget: @mem_cost went over @mem_room: no node is allocated any
 *	more, the rest of the text is only added up
 */
struct ibtsim_topo {
	struct ibtsim_topo_node *nodes;
	u32 num_nodes;
	u32 alloc_nodes;
	char *text;
	u32 err_line;
	const char *err_msg;
	char err_detail[160];
	u8 guid_cap;
	u64 mem_room;
	u32 max_devs;
	u32 cas;
	u64 mem_cost;
	u32 lids;
	u32 switches;
	u64 ports;
	bool over_budget;
};

int ibtsim_topo_parse(struct ibtsim_topo *topo, const char *text, size_t len);
void ibtsim_topo_free(struct ibtsim_topo *topo);

#endif /* _IBTSIM_TOPO_H */
