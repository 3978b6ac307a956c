/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * ibtrace_sim: a software InfiniBand fabric in the kernel - netlink uAPI.
 *
 * Generic netlink family IBTRACE_SIM_GENL_NAME, version
 * IBTRACE_SIM_GENL_VERSION. Requests are validated strictly: unknown
 * attributes, attributes of the wrong type or length and values out of
 * range are rejected with an extended ACK message naming the attribute.
 *
 * Topology errors. A rejected %IBTRACE_SIM_CMD_FABRIC_ADD whose topology
 * text is malformed is answered by two messages, in this order:
 *
 *  1. an %IBTRACE_SIM_CMD_TOPO_ERROR message, unicast to the requester with
 *     the request's sequence number, carrying %IBTRACE_SIM_A_ERR_LINE (the
 *     1-based line of the text) and %IBTRACE_SIM_A_ERR_MSG (the reason);
 *  2. the NLMSG_ERROR acknowledgment (-EINVAL), whose extended ACK message
 *     is the same reason and whose offending attribute is the
 *     %IBTRACE_SIM_A_TOPOLOGY attribute holding that line.
 *
 * A client that reads until the acknowledgment therefore always sees the
 * line number first. Nothing of a rejected fabric remains in the kernel.
 */
#ifndef _UAPI_LINUX_IBTRACE_SIM_H
#define _UAPI_LINUX_IBTRACE_SIM_H

#define IBTRACE_SIM_GENL_NAME		"ibtrace_sim"
#define IBTRACE_SIM_GENL_VERSION	1

/* Longest fabric name, without the terminating NUL. */
#define IBTRACE_SIM_NAME_MAX		31
/* Longest node name ("nodeid" of the topology text, the NodeDescription). */
#define IBTRACE_SIM_NODE_NAME_MAX	63
/* Most ports of one node. */
#define IBTRACE_SIM_PORTS_MAX		254

/**
 * enum ibtrace_sim_cmd - generic netlink commands
 * @IBTRACE_SIM_CMD_UNSPEC: unused
 * @IBTRACE_SIM_CMD_FABRIC_ADD: create a fabric from the topology text held
 *	by the %IBTRACE_SIM_A_TOPOLOGY attributes (concatenated in message
 *	order, so texts longer than one attribute can be sent in pieces),
 *	named %IBTRACE_SIM_A_FABRIC_NAME (optional; default "simN"). Each HCA
 *	becomes an RDMA device. The reply is an %IBTRACE_SIM_CMD_FABRIC_ADD
 *	message describing the new fabric as %IBTRACE_SIM_CMD_FABRIC_GET
 *	does. Needs CAP_NET_ADMIN.
 * @IBTRACE_SIM_CMD_FABRIC_DEL: destroy the fabric %IBTRACE_SIM_A_FABRIC_NAME
 *	and its RDMA devices. Needs CAP_NET_ADMIN.
 * @IBTRACE_SIM_CMD_FABRIC_GET: fabric summaries (name, node, HCA, switch
 *	and link counts). Do: the fabric named by %IBTRACE_SIM_A_FABRIC_NAME;
 *	dump: every fabric.
 * @IBTRACE_SIM_CMD_NODE_GET: dump only: one message per node, of every
 *	fabric or of the one named by %IBTRACE_SIM_A_FABRIC_NAME.
 * @IBTRACE_SIM_CMD_TOPO_ERROR: kernel to user only: where and why a
 *	topology text was rejected (%IBTRACE_SIM_A_ERR_LINE,
 *	%IBTRACE_SIM_A_ERR_MSG); see the top of this file.
 * @__IBTRACE_SIM_CMD_MAX: number of commands + 1
 * @IBTRACE_SIM_CMD_MAX: highest command number
 */
enum ibtrace_sim_cmd {
	IBTRACE_SIM_CMD_UNSPEC,
	IBTRACE_SIM_CMD_FABRIC_ADD,
	IBTRACE_SIM_CMD_FABRIC_DEL,
	IBTRACE_SIM_CMD_FABRIC_GET,
	IBTRACE_SIM_CMD_NODE_GET,
	IBTRACE_SIM_CMD_TOPO_ERROR,

	__IBTRACE_SIM_CMD_MAX,
	IBTRACE_SIM_CMD_MAX = __IBTRACE_SIM_CMD_MAX - 1
};

/**
 * enum ibtrace_sim_attr - top-level attributes
 * @IBTRACE_SIM_A_UNSPEC: unused
 * @IBTRACE_SIM_A_PAD: padding for 64-bit attributes
 * @IBTRACE_SIM_A_FABRIC_NAME: string, fabric name: 1..%IBTRACE_SIM_NAME_MAX
 *	characters out of [A-Za-z0-9_.-]
 * @IBTRACE_SIM_A_TOPOLOGY: string, topology text in the ibnetdiscover /
 *	ibsim format (a piece of it; see %IBTRACE_SIM_CMD_FABRIC_ADD)
 * @IBTRACE_SIM_A_NUM_NODES: u32, nodes in the fabric
 * @IBTRACE_SIM_A_NUM_CAS: u32, HCAs (RDMA devices) in the fabric
 * @IBTRACE_SIM_A_NUM_SWITCHES: u32, switches in the fabric
 * @IBTRACE_SIM_A_NUM_LINKS: u32, links in the fabric
 * @IBTRACE_SIM_A_ERR_LINE: u32, 1-based line of the rejected topology text
 * @IBTRACE_SIM_A_ERR_MSG: string, why that line was rejected
 * @IBTRACE_SIM_A_NODE_INDEX: u32, node number in the fabric (0-based, in
 *	the order of the topology text)
 * @IBTRACE_SIM_A_NODE_TYPE: u8, &enum ibtrace_sim_node_type
 * @IBTRACE_SIM_A_NODE_NAME: string, node name (its NodeDescription)
 * @IBTRACE_SIM_A_NODE_GUID: u64, node GUID (host order)
 * @IBTRACE_SIM_A_DEV_NAME: string, RDMA device name of an HCA
 * @IBTRACE_SIM_A_PORT: nest, &enum ibtrace_sim_port_attr; one per port
 *	(a switch's port 0, its management port holding its LID, included)
 * @__IBTRACE_SIM_A_MAX: number of attributes + 1
 * @IBTRACE_SIM_A_MAX: highest attribute number
 */
enum ibtrace_sim_attr {
	IBTRACE_SIM_A_UNSPEC,
	IBTRACE_SIM_A_PAD,
	IBTRACE_SIM_A_FABRIC_NAME,
	IBTRACE_SIM_A_TOPOLOGY,
	IBTRACE_SIM_A_NUM_NODES,
	IBTRACE_SIM_A_NUM_CAS,
	IBTRACE_SIM_A_NUM_SWITCHES,
	IBTRACE_SIM_A_NUM_LINKS,
	IBTRACE_SIM_A_ERR_LINE,
	IBTRACE_SIM_A_ERR_MSG,
	IBTRACE_SIM_A_NODE_INDEX,
	IBTRACE_SIM_A_NODE_TYPE,
	IBTRACE_SIM_A_NODE_NAME,
	IBTRACE_SIM_A_NODE_GUID,
	IBTRACE_SIM_A_DEV_NAME,
	IBTRACE_SIM_A_PORT,

	__IBTRACE_SIM_A_MAX,
	IBTRACE_SIM_A_MAX = __IBTRACE_SIM_A_MAX - 1
};

/**
 * enum ibtrace_sim_port_attr - attributes nested in %IBTRACE_SIM_A_PORT
 * @IBTRACE_SIM_PORT_A_UNSPEC: unused
 * @IBTRACE_SIM_PORT_A_PAD: padding for 64-bit attributes
 * @IBTRACE_SIM_PORT_A_NUM: u32, port number (1-based; 0 is a switch's
 *	management port)
 * @IBTRACE_SIM_PORT_A_GUID: u64, port GUID (host order)
 * @IBTRACE_SIM_PORT_A_LID: u32, base LID (0: not assigned)
 * @IBTRACE_SIM_PORT_A_LMC: u8, LID mask control
 * @IBTRACE_SIM_PORT_A_STATE: u8, PortState as in PortInfo (1 Down, 2 Init,
 *	3 Armed, 4 Active)
 * @IBTRACE_SIM_PORT_A_PEER_NODE: u32, node index of the linked peer
 *	(absent: port not connected)
 * @IBTRACE_SIM_PORT_A_PEER_PORT: u32, port number on the linked peer
 * @IBTRACE_SIM_PORT_A_RX_PKTS: u64, packets received by the port (handed
 *	to a QP of an HCA; accepted by a switch port)
 * @IBTRACE_SIM_PORT_A_TX_PKTS: u64, packets sent out of the port
 * @IBTRACE_SIM_PORT_A_DROPS: u64, packets dropped at the port (state, no
 *	link, LID or P_Key/Q_Key mismatch, no receive buffer, no LFT entry,
 *	a directed route through a missing or down port...)
 * @__IBTRACE_SIM_PORT_A_MAX: number of attributes + 1
 * @IBTRACE_SIM_PORT_A_MAX: highest attribute number
 */
enum ibtrace_sim_port_attr {
	IBTRACE_SIM_PORT_A_UNSPEC,
	IBTRACE_SIM_PORT_A_PAD,
	IBTRACE_SIM_PORT_A_NUM,
	IBTRACE_SIM_PORT_A_GUID,
	IBTRACE_SIM_PORT_A_LID,
	IBTRACE_SIM_PORT_A_LMC,
	IBTRACE_SIM_PORT_A_STATE,
	IBTRACE_SIM_PORT_A_PEER_NODE,
	IBTRACE_SIM_PORT_A_PEER_PORT,
	IBTRACE_SIM_PORT_A_RX_PKTS,
	IBTRACE_SIM_PORT_A_TX_PKTS,
	IBTRACE_SIM_PORT_A_DROPS,

	__IBTRACE_SIM_PORT_A_MAX,
	IBTRACE_SIM_PORT_A_MAX = __IBTRACE_SIM_PORT_A_MAX - 1
};

/**
 * enum ibtrace_sim_node_type - node types (the NodeInfo NodeType values)
 * @IBTRACE_SIM_NODE_CA: channel adapter (HCA), an RDMA device
 * @IBTRACE_SIM_NODE_SWITCH: switch, a fabric object without RDMA device
 */
enum ibtrace_sim_node_type {
	IBTRACE_SIM_NODE_CA = 1,
	IBTRACE_SIM_NODE_SWITCH = 2,
};

#endif /* _UAPI_LINUX_IBTRACE_SIM_H */
