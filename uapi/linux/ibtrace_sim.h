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
 *
 * Memory budget. The fabrics share a memory budget (module parameter
 * mem_budget_mb; by default a quarter of RAM). The cost of a topology is
 * estimated before its fabric is allocated; one that does not fit what
 * the other fabrics leave is refused with -ENOSPC and the same pair of
 * messages: %IBTRACE_SIM_A_ERR_LINE 0 (the whole text), and an
 * %IBTRACE_SIM_A_ERR_MSG naming the cost and the budget in MiB; the
 * extended ACK message says the same without figures.
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
/* Captures (%IBTRACE_SIM_CMD_CAPTURE_START) running at once, all fabrics. */
#define IBTRACE_SIM_CAPTURE_MAX		16
/* Most packets one capture asks for (%IBTRACE_SIM_A_CAPTURE_COUNT). */
#define IBTRACE_SIM_CAPTURE_MAX_COUNT	10000000
/*
 * Largest captured packet, in bytes: LRH 8, GRH 40, BTH 12, DETH 8, a
 * 4096-byte payload, ICRC 4, VCRC 2.
 */
#define IBTRACE_SIM_CAPTURE_PKT_MAX	4170
/* Largest payload of an injected packet (%IBTRACE_SIM_A_INJECT_PAYLOAD). */
#define IBTRACE_SIM_INJECT_PAYLOAD_MAX	4096
/* Longest wait for the answer to an injected MAD (%IBTRACE_SIM_A_INJECT_WAIT_MS). */
#define IBTRACE_SIM_INJECT_WAIT_MAX_MS	60000
/*
 * Injected packets (with their answers) one fabric carries at once; one
 * more is refused (%IBTRACE_SIM_CMD_INJECT: EBUSY) until some are done.
 */
#define IBTRACE_SIM_INJECT_INFLIGHT_MAX	256
/* Longest a port's delay knob holds a packet (%IBTRACE_SIM_PORT_A_DELAY_US). */
#define IBTRACE_SIM_DELAY_US_MAX	10000000
/*
 * A port's receive buffer per data VL, in flow control blocks of 64 bytes
 * (%IBTRACE_SIM_PORT_A_BUF_BLOCKS): at least a packet of the largest MTU
 * (4096 bytes and its headers), at most 512 KiB; 32 KiB at power-on.
 */
#define IBTRACE_SIM_BUF_BLOCKS_MIN	66
#define IBTRACE_SIM_BUF_BLOCKS_MAX	8192
#define IBTRACE_SIM_BUF_BLOCKS_DEFAULT	512
/* Fastest drain of a data sink (%IBTRACE_SIM_PORT_A_SINK_PPS), packets/s. */
#define IBTRACE_SIM_SINK_PPS_MAX	1000000
/* Longest %IBTRACE_SIM_A_DEADLOCK string, its NUL included (longer: cut). */
#define IBTRACE_SIM_DEADLOCK_MAX	512
/* Slowest link-rate pacing (%IBTRACE_SIM_A_TIME_SCALE): sim time / real time. */
#define IBTRACE_SIM_TIME_SCALE_MAX	1000000
/* Traffic flows (%IBTRACE_SIM_CMD_TRAFFIC_START) running at once, all fabrics. */
#define IBTRACE_SIM_TRAFFIC_MAX		16
/* Largest payload of a traffic packet (%IBTRACE_SIM_A_TRAFFIC_SIZE), bytes. */
#define IBTRACE_SIM_TRAFFIC_SIZE_MAX	4096
/* Most packets one flow sends (%IBTRACE_SIM_A_TRAFFIC_COUNT). */
#define IBTRACE_SIM_TRAFFIC_COUNT_MAX	10000000
/* Fastest paced flow (%IBTRACE_SIM_A_TRAFFIC_RATE), packets/s. */
#define IBTRACE_SIM_TRAFFIC_RATE_MAX	1000000
/*
 * A flow's send queue: its packets in the fabric at once (sent, neither
 * delivered nor dropped yet). A flow sends no faster than they leave it.
 */
#define IBTRACE_SIM_TRAFFIC_WINDOW	64
/* Destination and source QP of traffic packets (BTH, DETH). */
#define IBTRACE_SIM_TRAFFIC_QPN		0xfffff0

/**
 * enum ibtrace_sim_cmd - generic netlink commands
 * @IBTRACE_SIM_CMD_UNSPEC: unused
 * @IBTRACE_SIM_CMD_FABRIC_ADD: create a fabric from the topology text held
 *	by the %IBTRACE_SIM_A_TOPOLOGY attributes (concatenated in message
 *	order, so texts longer than one attribute can be sent in pieces),
 *	named %IBTRACE_SIM_A_FABRIC_NAME (optional; default "simN"). Each HCA
 *	becomes an RDMA device, up to %IBTRACE_SIM_A_NUM_DEVICES. The
 *	request parses the text, checks it against the memory budget and
 *	answers at once: the reply is an
 *	%IBTRACE_SIM_CMD_FABRIC_ADD message naming the fabric, with
 *	%IBTRACE_SIM_A_BUILDING 1. The fabric is built in the background;
 *	when that ends, the requesting socket receives a notification
 *	(sequence number 0): an %IBTRACE_SIM_CMD_FABRIC_ADD message
 *	describing the fabric as %IBTRACE_SIM_CMD_FABRIC_GET does (without
 *	%IBTRACE_SIM_A_BUILDING), or, if the build failed and nothing of the
 *	fabric remains, an %IBTRACE_SIM_CMD_TOPO_ERROR message with the
 *	fabric's name, %IBTRACE_SIM_A_ERR_LINE 0 and the reason. Until then
 *	the fabric's name is taken, %IBTRACE_SIM_CMD_FABRIC_GET shows only
 *	its name and %IBTRACE_SIM_A_BUILDING, and %IBTRACE_SIM_CMD_NODE_GET,
 *	%IBTRACE_SIM_CMD_SET and %IBTRACE_SIM_CMD_FABRIC_DEL refuse it with
 *	-EBUSY. Needs CAP_NET_ADMIN.
 * @IBTRACE_SIM_CMD_FABRIC_DEL: destroy the fabric %IBTRACE_SIM_A_FABRIC_NAME
 *	and its RDMA devices. Needs CAP_NET_ADMIN.
 * @IBTRACE_SIM_CMD_FABRIC_GET: fabric summaries (name, node, HCA, switch
 *	and link counts). Do: the fabric named by %IBTRACE_SIM_A_FABRIC_NAME;
 *	dump: every fabric.
 * @IBTRACE_SIM_CMD_NODE_GET: dump only: one message per node, of every
 *	fabric or of the one named by %IBTRACE_SIM_A_FABRIC_NAME. Needs
 *	CAP_NET_ADMIN (GUIDs, LIDs and links: the fabric's layout).
 * @IBTRACE_SIM_CMD_TOPO_ERROR: kernel to user only: where and why a
 *	topology text was rejected (%IBTRACE_SIM_A_ERR_LINE,
 *	%IBTRACE_SIM_A_ERR_MSG); see the top of this file.
 * @IBTRACE_SIM_CMD_SET: change the fault knobs and settings of one node of
 *	fabric %IBTRACE_SIM_A_FABRIC_NAME, named by %IBTRACE_SIM_A_NODE_INDEX
 *	or %IBTRACE_SIM_A_NODE_NAME. Port knobs travel in one
 *	%IBTRACE_SIM_A_PORT nest naming the port (%IBTRACE_SIM_PORT_A_NUM);
 *	a switch's misroute rule in %IBTRACE_SIM_A_MISROUTE. Only the knobs
 *	present change. Needs CAP_NET_ADMIN.
 * @IBTRACE_SIM_CMD_CAPTURE_START: capture the packets crossing the links of
 *	node %IBTRACE_SIM_A_NODE_INDEX or %IBTRACE_SIM_A_NODE_NAME of fabric
 *	%IBTRACE_SIM_A_FABRIC_NAME: of its port %IBTRACE_SIM_A_CAPTURE_PORT,
 *	or of every port, both directions. The reply carries
 *	%IBTRACE_SIM_A_CAPTURE_ID; then each packet comes to the requesting
 *	socket (sequence number 0) as an %IBTRACE_SIM_CMD_CAPTURE_PKT
 *	message, as it crosses the link. The socket's receive buffer is the
 *	capture's buffer: a packet that does not fit is lost, and counted.
 *	The capture ends after %IBTRACE_SIM_A_CAPTURE_COUNT packets, on
 *	%IBTRACE_SIM_CMD_CAPTURE_STOP, when its fabric is deleted (each with
 *	an %IBTRACE_SIM_CMD_CAPTURE_END message) or when the socket is
 *	closed. At most %IBTRACE_SIM_CAPTURE_MAX run at once (EBUSY). Needs
 *	CAP_NET_ADMIN.
 * @IBTRACE_SIM_CMD_CAPTURE_STOP: end the capture %IBTRACE_SIM_A_CAPTURE_ID
 *	(ENOENT: none of that ID). Needs CAP_NET_ADMIN.
 * @IBTRACE_SIM_CMD_CAPTURE_PKT: kernel to user only: one packet of a
 *	capture: %IBTRACE_SIM_A_CAPTURE_ID, _NODE_INDEX, _CAPTURE_PORT,
 *	_CAPTURE_DIR, _CAPTURE_TIME_NS, _CAPTURE_SEEN, _CAPTURE_LOST and the
 *	packet, %IBTRACE_SIM_A_CAPTURE_DATA
 * @IBTRACE_SIM_CMD_CAPTURE_END: kernel to user only: a capture ended
 *	(%IBTRACE_SIM_A_CAPTURE_ID, _CAPTURE_END, _CAPTURE_SEEN, _CAPTURE_LOST)
 * @IBTRACE_SIM_CMD_INJECT: put a packet into fabric %IBTRACE_SIM_A_FABRIC_NAME
 *	as if node %IBTRACE_SIM_A_NODE_INDEX (or _NODE_NAME) sent it out of
 *	its port %IBTRACE_SIM_A_INJECT_PORT, with the LRH, GRH, BTH and DETH
 *	fields given (%IBTRACE_SIM_A_INJECT_SLID ... _DGID; forged freely)
 *	and the payload %IBTRACE_SIM_A_INJECT_PAYLOAD. With
 *	%IBTRACE_SIM_A_INJECT_WAIT_MS the payload must be a MAD: the answer
 *	to it (a response method, or TrapRepress, of its class and TID) is
 *	taken off the fabric where it is first sent, wherever its DLID
 *	leads, and comes to the requesting socket as an
 *	%IBTRACE_SIM_CMD_CAPTURE_PKT message of the capture whose ID the
 *	reply carries (%IBTRACE_SIM_A_CAPTURE_ID), with
 *	%IBTRACE_SIM_A_INJECT_RTT_NS; then an %IBTRACE_SIM_CMD_CAPTURE_END
 *	(_END_COUNT). Unanswered, the wait ends with _END_TIMEOUT, at the
 *	latest when the next packet crosses the fabric after its deadline.
 *	Such a wait takes one of the %IBTRACE_SIM_CAPTURE_MAX capture slots.
 *	At most %IBTRACE_SIM_INJECT_INFLIGHT_MAX injected packets travel a
 *	fabric at once (EBUSY). Needs CAP_NET_ADMIN
 * @IBTRACE_SIM_CMD_TRAFFIC_START: start a traffic flow in fabric
 *	%IBTRACE_SIM_A_FABRIC_NAME: HCA %IBTRACE_SIM_A_NODE_INDEX (or
 *	_NODE_NAME) sends %IBTRACE_SIM_A_TRAFFIC_COUNT UD-shaped data packets
 *	(destination and source QP %IBTRACE_SIM_TRAFFIC_QPN, P_Key index 0)
 *	of %IBTRACE_SIM_A_TRAFFIC_SIZE payload bytes out of its port
 *	%IBTRACE_SIM_A_TRAFFIC_PORT to %IBTRACE_SIM_A_TRAFFIC_DLID on SL
 *	%IBTRACE_SIM_A_TRAFFIC_SL, at %IBTRACE_SIM_A_TRAFFIC_RATE packets/s
 *	or as fast as its send queue of %IBTRACE_SIM_TRAFFIC_WINDOW packets
 *	empties. The packets take the fabric's real path: the port's SLtoVL
 *	table, the switches' forwarding, VLs, flow control, fault knobs and
 *	captures; the HCA port whose LID is the DLID takes them (at the rate
 *	of its data sink knob). The reply carries the flow's ID
 *	(%IBTRACE_SIM_A_TRAFFIC_ID); the flow belongs to the requesting
 *	socket and ends with an %IBTRACE_SIM_CMD_TRAFFIC_END message to it
 *	(sequence number 0) once every packet was delivered or dropped, on
 *	%IBTRACE_SIM_CMD_TRAFFIC_STOP or when its fabric is deleted; when the
 *	socket is closed, without a message. At most
 *	%IBTRACE_SIM_TRAFFIC_MAX run at once (EBUSY). Needs CAP_NET_ADMIN
 * @IBTRACE_SIM_CMD_TRAFFIC_STOP: end the flow %IBTRACE_SIM_A_TRAFFIC_ID
 *	now: it sends no more, and its END message counts its packets still
 *	in the fabric as neither delivered nor dropped. Needs CAP_NET_ADMIN
 * @IBTRACE_SIM_CMD_TRAFFIC_END: kernel to user only: a flow ended:
 *	%IBTRACE_SIM_A_TRAFFIC_ID, _TRAFFIC_END, what was asked (_NODE_INDEX,
 *	_TRAFFIC_PORT, _DLID, _SL, _SIZE, _RATE, _COUNT), the VL its packets
 *	left by (_TRAFFIC_VL) and what happened (_SENT, _DELIVERED,
 *	_DROPPED, _TIME_NS, _LAT_*_NS)
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
	IBTRACE_SIM_CMD_SET,
	IBTRACE_SIM_CMD_CAPTURE_START,
	IBTRACE_SIM_CMD_CAPTURE_STOP,
	IBTRACE_SIM_CMD_CAPTURE_PKT,
	IBTRACE_SIM_CMD_CAPTURE_END,
	IBTRACE_SIM_CMD_INJECT,
	IBTRACE_SIM_CMD_TRAFFIC_START,
	IBTRACE_SIM_CMD_TRAFFIC_STOP,
	IBTRACE_SIM_CMD_TRAFFIC_END,

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
 * @IBTRACE_SIM_A_NUM_CAS: u32, HCAs in the fabric
 * @IBTRACE_SIM_A_NUM_SWITCHES: u32, switches in the fabric
 * @IBTRACE_SIM_A_NUM_LINKS: u32, links in the fabric
 * @IBTRACE_SIM_A_ERR_LINE: u32, 1-based line of the rejected topology
 *	text; 0 when the whole text is (the memory budget)
 * @IBTRACE_SIM_A_ERR_MSG: string, why that line was rejected
 * @IBTRACE_SIM_A_NODE_INDEX: u32, node number in the fabric (0-based, in
 *	the order of the topology text)
 * @IBTRACE_SIM_A_NODE_TYPE: u8, &enum ibtrace_sim_node_type
 * @IBTRACE_SIM_A_NODE_NAME: string, node name (its NodeDescription)
 * @IBTRACE_SIM_A_NODE_GUID: u64, node GUID (host order)
 * @IBTRACE_SIM_A_DEV_NAME: string, RDMA device name of an HCA (absent on a
 *	hostless one, see %IBTRACE_SIM_A_NUM_DEVICES)
 * @IBTRACE_SIM_A_PORT: nest, &enum ibtrace_sim_port_attr; one per port
 *	(a switch's port 0, its management port holding its LID, included)
 * @IBTRACE_SIM_A_SM: u8, the built-in subnet manager (SM-lite). In
 *	%IBTRACE_SIM_CMD_FABRIC_ADD: 0 leaves the subnet to an external SM
 *	such as OpenSM; absent or 1 runs SM-lite. In replies: 1 if SM-lite
 *	manages the fabric.
 * @IBTRACE_SIM_A_SM_LID: u32, LID of SM-lite (its SA answers there); only
 *	when SM-lite runs
 * @IBTRACE_SIM_A_GUID_CAP: u8, in %IBTRACE_SIM_CMD_FABRIC_ADD: GUID table
 *	entries of every HCA port and switch port 0 (1..255, default 8); the
 *	largest GUIDCap a port of the fabric may later be given
 * @IBTRACE_SIM_A_MISROUTE: nest, &enum ibtrace_sim_misroute_attr; a
 *	switch's misroute rule: in %IBTRACE_SIM_CMD_SET one rule to add,
 *	change or (without %IBTRACE_SIM_MISROUTE_A_PORT) remove; in
 *	%IBTRACE_SIM_CMD_NODE_GET replies one per rule
 * @IBTRACE_SIM_A_SEED: u32, seed of the fabric's pseudo-random generator,
 *	which makes every random decision of the fabric (the losses of the
 *	drop knob): the same seed, topology and traffic give the same
 *	decisions. In %IBTRACE_SIM_CMD_FABRIC_ADD: optional, default a random
 *	seed; in %IBTRACE_SIM_CMD_FABRIC_GET replies: the seed in use
 * @IBTRACE_SIM_A_BUILDING: u8, 1: the fabric is being built (see
 *	%IBTRACE_SIM_CMD_FABRIC_ADD); in replies only
 * @IBTRACE_SIM_A_CAPTURE_ID: u32, a capture's ID (from 1)
 * @IBTRACE_SIM_A_CAPTURE_PORT: u32, the port captured (0: a switch's
 *	management port, which has no link); in a start request, absent:
 *	every port of the node
 * @IBTRACE_SIM_A_CAPTURE_COUNT: u32, packets to capture, then end
 *	(1..%IBTRACE_SIM_CAPTURE_MAX_COUNT; absent: until stopped)
 * @IBTRACE_SIM_A_CAPTURE_DIR: u8, &enum ibtrace_sim_capture_dir
 * @IBTRACE_SIM_A_CAPTURE_TIME_NS: u64, when the packet crossed the link
 *	(CLOCK_REALTIME, ns)
 * @IBTRACE_SIM_A_CAPTURE_DATA: binary, the packet as on the wire: LRH,
 *	GRH, BTH, DETH, payload and pad, ICRC, VCRC (at most
 *	%IBTRACE_SIM_CAPTURE_PKT_MAX bytes)
 * @IBTRACE_SIM_A_CAPTURE_SEEN: u64, packets the capture saw so far (the
 *	lost ones included)
 * @IBTRACE_SIM_A_CAPTURE_LOST: u64, packets lost so far: the socket's
 *	receive buffer was full
 * @IBTRACE_SIM_A_CAPTURE_END: u8, &enum ibtrace_sim_capture_end
 * @IBTRACE_SIM_A_INJECT_PORT: u32, the port an injected packet leaves by
 *	(1..the node's port count)
 * @IBTRACE_SIM_A_INJECT_SLID: u32, LRH SLID (0..0xffff; absent: the LID
 *	of the port, or of a switch's port 0; the permissive LID if none)
 * @IBTRACE_SIM_A_INJECT_DLID: u32, LRH DLID (0..0xffff; needed)
 * @IBTRACE_SIM_A_INJECT_SL: u8, LRH SL (0..15; absent: 0)
 * @IBTRACE_SIM_A_INJECT_VL: u8, LRH VL (0..15; absent: 15 for destination
 *	QP 0, else 0). A port drops, and counts, a packet for another QP
 *	than QP0 on VL 15, an SMP (QP0) on another VL, and one on a VL its
 *	OperationalVLs does not run
 * @IBTRACE_SIM_A_INJECT_SQPN: u32, DETH source QP (0..0xffffff; absent:
 *	the destination QP's default)
 * @IBTRACE_SIM_A_INJECT_DQPN: u32, BTH destination QP (0..0xffffff;
 *	absent: 0 for a payload of the subnet management classes 0x01 and
 *	0x81, else 1)
 * @IBTRACE_SIM_A_INJECT_QKEY: u32, DETH Q_Key (absent: 0 to QP0,
 *	0x80010000 to other QPs)
 * @IBTRACE_SIM_A_INJECT_PKEY: u16, BTH P_Key (absent: 0xffff)
 * @IBTRACE_SIM_A_INJECT_SGID: binary, 16 bytes: GRH SGID (with a GRH;
 *	absent: the GID of the port's GUID)
 * @IBTRACE_SIM_A_INJECT_DGID: binary, 16 bytes: GRH DGID; present, the
 *	packet has a GRH
 * @IBTRACE_SIM_A_INJECT_PAYLOAD: binary, what follows DETH (1..
 *	%IBTRACE_SIM_INJECT_PAYLOAD_MAX bytes): a MAD, or anything
 * @IBTRACE_SIM_A_INJECT_WAIT_MS: u32, wait so long for the answer to the
 *	MAD (1..%IBTRACE_SIM_INJECT_WAIT_MAX_MS; absent: no wait)
 * @IBTRACE_SIM_A_INJECT_RTT_NS: u64, in the message of an answer: from
 *	the injection to the answer, ns
 * @IBTRACE_SIM_A_NUM_DEVICES: u32, in %IBTRACE_SIM_CMD_FABRIC_ADD: the
 *	first this many HCAs of the text become RDMA devices (absent: every
 *	HCA; 0: none); the others are hostless, an HCA whose host runs no
 *	RDMA stack: its firmware answers SMPs (the SMA, directed-route as an
 *	end port), PerfMgt Get/Set (the PMA) and any other Get/Set with
 *	status 0x000C, as ib_mad does for a class no agent registered, and
 *	costs the fabric no ib_core device. In replies: the HCAs that are
 *	RDMA devices
 * @IBTRACE_SIM_A_DEADLOCK: string, in %IBTRACE_SIM_CMD_FABRIC_GET
 *	replies: the credit loop of a deadlock of the fabric's link-level
 *	flow control (packets wait and none was sent for a second, each
 *	queue of the loop waiting for room that the next one holds), as
 *	"NODE/PORT vl V -> ... -> NODE/PORT vl V" (the first again at the
 *	end); absent when there is none
 * @IBTRACE_SIM_A_TRAFFIC_ID: u32, a traffic flow's ID, from 1
 * @IBTRACE_SIM_A_TRAFFIC_PORT: u32, the HCA port a flow sends by
 *	(1..the node's port count; absent: 1)
 * @IBTRACE_SIM_A_TRAFFIC_DLID: u32, LRH DLID of a flow's packets
 *	(1..0xbfff, a unicast LID; needed)
 * @IBTRACE_SIM_A_TRAFFIC_SL: u8, their SL (0..15; absent: 0)
 * @IBTRACE_SIM_A_TRAFFIC_SIZE: u32, their payload, bytes
 *	(1..%IBTRACE_SIM_TRAFFIC_SIZE_MAX; absent: 256)
 * @IBTRACE_SIM_A_TRAFFIC_RATE: u32, packets/s the flow sends
 *	(1..%IBTRACE_SIM_TRAFFIC_RATE_MAX; absent or 0: as fast as it can)
 * @IBTRACE_SIM_A_TRAFFIC_COUNT: u32, packets the flow sends
 *	(1..%IBTRACE_SIM_TRAFFIC_COUNT_MAX; absent: 1000)
 * @IBTRACE_SIM_A_TRAFFIC_VL: u8, in %IBTRACE_SIM_CMD_TRAFFIC_END: the VL
 *	the HCA port's SLtoVL table mapped the flow's SL to when it started,
 *	the VL its packets leave by; absent if VL 15 (they are dropped)
 * @IBTRACE_SIM_A_TRAFFIC_SENT: u64, packets the flow sent
 * @IBTRACE_SIM_A_TRAFFIC_DELIVERED: u64, packets the destination port took
 * @IBTRACE_SIM_A_TRAFFIC_DROPPED: u64, packets dropped on the way (each
 *	counted at the port that dropped it, as any packet)
 * @IBTRACE_SIM_A_TRAFFIC_TIME_NS: u64, from the first packet sent to the
 *	end of the flow, ns
 * @IBTRACE_SIM_A_TRAFFIC_LAT_MIN_NS: u64, the shortest time a delivered
 *	packet took from its send to its delivery, ns (absent: none
 *	delivered)
 * @IBTRACE_SIM_A_TRAFFIC_LAT_P50_NS: u64, the median of those times, ns,
 *	as the upper bound of a histogram bucket (within 1/16 above)
 * @IBTRACE_SIM_A_TRAFFIC_LAT_P90_NS: u64, their 90th percentile, likewise
 * @IBTRACE_SIM_A_TRAFFIC_LAT_P99_NS: u64, their 99th percentile, likewise
 * @IBTRACE_SIM_A_TRAFFIC_LAT_MAX_NS: u64, the longest, ns
 * @IBTRACE_SIM_A_TRAFFIC_END: u8, &enum ibtrace_sim_traffic_end
 * @IBTRACE_SIM_A_TIME_SCALE: u32, in %IBTRACE_SIM_CMD_FABRIC_ADD: link-rate
 *	pacing (1..%IBTRACE_SIM_TIME_SCALE_MAX; absent or 0: none): a port
 *	sends a data packet (any VL but 15) only when its transmitter is
 *	done with the one before, which took its bytes x 8 / the link's
 *	data rate (LinkWidthActive x LinkSpeedActive: 2, 4 or 8 Gb/s a lane
 *	for SDR, DDR, QDR after their 8b/10b coding) times this scale, so
 *	that links pass packets at their rates relative to each other,
 *	slowed this many times. In %IBTRACE_SIM_CMD_FABRIC_GET replies: the
 *	scale, when on
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
	IBTRACE_SIM_A_SM,
	IBTRACE_SIM_A_SM_LID,
	IBTRACE_SIM_A_GUID_CAP,
	IBTRACE_SIM_A_MISROUTE,
	IBTRACE_SIM_A_SEED,
	IBTRACE_SIM_A_BUILDING,
	IBTRACE_SIM_A_CAPTURE_ID,
	IBTRACE_SIM_A_CAPTURE_PORT,
	IBTRACE_SIM_A_CAPTURE_COUNT,
	IBTRACE_SIM_A_CAPTURE_DIR,
	IBTRACE_SIM_A_CAPTURE_TIME_NS,
	IBTRACE_SIM_A_CAPTURE_DATA,
	IBTRACE_SIM_A_CAPTURE_SEEN,
	IBTRACE_SIM_A_CAPTURE_LOST,
	IBTRACE_SIM_A_CAPTURE_END,
	IBTRACE_SIM_A_INJECT_PORT,
	IBTRACE_SIM_A_INJECT_SLID,
	IBTRACE_SIM_A_INJECT_DLID,
	IBTRACE_SIM_A_INJECT_SL,
	IBTRACE_SIM_A_INJECT_VL,
	IBTRACE_SIM_A_INJECT_SQPN,
	IBTRACE_SIM_A_INJECT_DQPN,
	IBTRACE_SIM_A_INJECT_QKEY,
	IBTRACE_SIM_A_INJECT_PKEY,
	IBTRACE_SIM_A_INJECT_SGID,
	IBTRACE_SIM_A_INJECT_DGID,
	IBTRACE_SIM_A_INJECT_PAYLOAD,
	IBTRACE_SIM_A_INJECT_WAIT_MS,
	IBTRACE_SIM_A_INJECT_RTT_NS,
	IBTRACE_SIM_A_NUM_DEVICES,
	IBTRACE_SIM_A_DEADLOCK,
	IBTRACE_SIM_A_TRAFFIC_ID,
	IBTRACE_SIM_A_TRAFFIC_PORT,
	IBTRACE_SIM_A_TRAFFIC_DLID,
	IBTRACE_SIM_A_TRAFFIC_SL,
	IBTRACE_SIM_A_TRAFFIC_SIZE,
	IBTRACE_SIM_A_TRAFFIC_RATE,
	IBTRACE_SIM_A_TRAFFIC_COUNT,
	IBTRACE_SIM_A_TRAFFIC_VL,
	IBTRACE_SIM_A_TRAFFIC_SENT,
	IBTRACE_SIM_A_TRAFFIC_DELIVERED,
	IBTRACE_SIM_A_TRAFFIC_DROPPED,
	IBTRACE_SIM_A_TRAFFIC_TIME_NS,
	IBTRACE_SIM_A_TRAFFIC_LAT_MIN_NS,
	IBTRACE_SIM_A_TRAFFIC_LAT_P50_NS,
	IBTRACE_SIM_A_TRAFFIC_LAT_P90_NS,
	IBTRACE_SIM_A_TRAFFIC_LAT_P99_NS,
	IBTRACE_SIM_A_TRAFFIC_LAT_MAX_NS,
	IBTRACE_SIM_A_TRAFFIC_END,
	IBTRACE_SIM_A_TIME_SCALE,

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
 * @IBTRACE_SIM_PORT_A_DROP_PPM: u32, fault knob: probability, in parts per
 *	million (0..1000000), that a packet leaving the port is lost
 * @IBTRACE_SIM_PORT_A_DELAY_US: u32, fault knob: microseconds
 *	(0..%IBTRACE_SIM_DELAY_US_MAX)
 *	added to the flight of every packet leaving the port
 * @IBTRACE_SIM_PORT_A_LINK_DOWN: u8, fault knob: 1 takes the link of the
 *	port down (both ends go to PortState Down, PhysState Polling), 0
 *	brings it back up (both ends to Init; an SM makes them Active)
 * @IBTRACE_SIM_PORT_A_GUID_CAP: u8, PortInfo:GUIDCap of an HCA port or
 *	switch port 0, 1..the fabric's %IBTRACE_SIM_A_GUID_CAP
 * @IBTRACE_SIM_PORT_A_GUID_QUIRKS: u32, GUIDInfo non-compliance modes,
 *	&enum ibtrace_sim_guid_quirk flags (0: compliant)
 * @IBTRACE_SIM_PORT_A_BUF_BLOCKS: u32, knob of a port with a link: its
 *	receive buffer per data VL in blocks of 64 bytes
 *	(%IBTRACE_SIM_BUF_BLOCKS_MIN..%IBTRACE_SIM_BUF_BLOCKS_MAX); the
 *	link's flow control starts again from the new size
 * @IBTRACE_SIM_PORT_A_SINK_PPS: u32, knob of an HCA port: a data sink
 *	that takes at most this many data packets per second
 *	(1..%IBTRACE_SIM_SINK_PPS_MAX; 0: as fast as they come); the others
 *	wait in its receive buffer, and its sender for credits. A change
 *	applies to the packets it holds too, from the change on
 * @IBTRACE_SIM_PORT_A_IGNORE_CREDITS: u8, knob of a port with a link:
 *	1 sends every data packet at once, whatever credits the receiver
 *	granted (an exerciser's mode: the receiver discards what its buffer
 *	has no room for and counts it, ExcessiveBufferOverrunErrors); 0
 *	(power-on) waits for credits
 * @IBTRACE_SIM_PORT_A_LINK_WIDTH: u8, knob of a port with a link: the
 *	width the link trained at, PortInfo:LinkWidthActive of both its
 *	ends: 1 (1x) or 2 (4x, power-on), as a link with a bad lane trains
 *	narrower
 * @IBTRACE_SIM_PORT_A_LINK_SPEED: u8, knob of a port with a link: the
 *	speed the link trained at, PortInfo:LinkSpeedActive of both its
 *	ends: 1 (SDR, 2.5 Gb/s a lane), 2 (DDR, 5 Gb/s) or 4 (QDR, 10 Gb/s,
 *	power-on)
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
	IBTRACE_SIM_PORT_A_DROP_PPM,
	IBTRACE_SIM_PORT_A_DELAY_US,
	IBTRACE_SIM_PORT_A_LINK_DOWN,
	IBTRACE_SIM_PORT_A_GUID_CAP,
	IBTRACE_SIM_PORT_A_GUID_QUIRKS,
	IBTRACE_SIM_PORT_A_BUF_BLOCKS,
	IBTRACE_SIM_PORT_A_SINK_PPS,
	IBTRACE_SIM_PORT_A_IGNORE_CREDITS,
	IBTRACE_SIM_PORT_A_LINK_WIDTH,
	IBTRACE_SIM_PORT_A_LINK_SPEED,

	__IBTRACE_SIM_PORT_A_MAX,
	IBTRACE_SIM_PORT_A_MAX = __IBTRACE_SIM_PORT_A_MAX - 1
};

/**
 * enum ibtrace_sim_misroute_attr - attributes nested in %IBTRACE_SIM_A_MISROUTE
 * @IBTRACE_SIM_MISROUTE_A_UNSPEC: unused
 * @IBTRACE_SIM_MISROUTE_A_DLID: u32, unicast DLID the rule applies to
 * @IBTRACE_SIM_MISROUTE_A_PORT: u32, exit port the switch uses for that
 *	DLID instead of its LFT entry (0..the switch's port count); the LFT
 *	itself, as read by SMPs, is left unchanged
 * @__IBTRACE_SIM_MISROUTE_A_MAX: number of attributes + 1
 * @IBTRACE_SIM_MISROUTE_A_MAX: highest attribute number
 */
enum ibtrace_sim_misroute_attr {
	IBTRACE_SIM_MISROUTE_A_UNSPEC,
	IBTRACE_SIM_MISROUTE_A_DLID,
	IBTRACE_SIM_MISROUTE_A_PORT,

	__IBTRACE_SIM_MISROUTE_A_MAX,
	IBTRACE_SIM_MISROUTE_A_MAX = __IBTRACE_SIM_MISROUTE_A_MAX - 1
};

/**
 * enum ibtrace_sim_guid_quirk - GUIDInfo non-compliance modes of a port
 * @IBTRACE_SIM_GUID_QUIRK_ENTRY0_WRITABLE: a SubnSet(GUIDInfo) changes
 *	entry 0 (the PortGUID), which must be read-only
 * @IBTRACE_SIM_GUID_QUIRK_PAST_TABLE_STATUS: a GUIDInfo block past the
 *	table is answered with status 0 instead of 0x001C
 * @IBTRACE_SIM_GUID_QUIRK_ABOVE_CAP_NONZERO: entries at or above GUIDCap
 *	are stored and read back instead of reading 0
 */
enum ibtrace_sim_guid_quirk {
	IBTRACE_SIM_GUID_QUIRK_ENTRY0_WRITABLE = 1 << 0,
	IBTRACE_SIM_GUID_QUIRK_PAST_TABLE_STATUS = 1 << 1,
	IBTRACE_SIM_GUID_QUIRK_ABOVE_CAP_NONZERO = 1 << 2,
};

/**
 * enum ibtrace_sim_capture_dir - which way a captured packet went
 * @IBTRACE_SIM_CAPTURE_OUT: out of the captured port, onto its link
 * @IBTRACE_SIM_CAPTURE_IN: off its link, into the captured port
 */
enum ibtrace_sim_capture_dir {
	IBTRACE_SIM_CAPTURE_OUT,
	IBTRACE_SIM_CAPTURE_IN,
};

/**
 * enum ibtrace_sim_capture_end - why a capture ended
 * @IBTRACE_SIM_CAPTURE_END_COUNT: it saw the packets it asked for
 * @IBTRACE_SIM_CAPTURE_END_STOPPED: %IBTRACE_SIM_CMD_CAPTURE_STOP
 * @IBTRACE_SIM_CAPTURE_END_FABRIC_GONE: its fabric was deleted
 * @IBTRACE_SIM_CAPTURE_END_TIMEOUT: the wait of an injected MAD for its
 *	answer (%IBTRACE_SIM_CMD_INJECT) ended unanswered
 */
enum ibtrace_sim_capture_end {
	IBTRACE_SIM_CAPTURE_END_COUNT,
	IBTRACE_SIM_CAPTURE_END_STOPPED,
	IBTRACE_SIM_CAPTURE_END_FABRIC_GONE,
	IBTRACE_SIM_CAPTURE_END_TIMEOUT,
};

/**
 * enum ibtrace_sim_traffic_end - why a traffic flow ended
 * @IBTRACE_SIM_TRAFFIC_END_DONE: every packet it sent was delivered or
 *	dropped
 * @IBTRACE_SIM_TRAFFIC_END_STOPPED: %IBTRACE_SIM_CMD_TRAFFIC_STOP
 * @IBTRACE_SIM_TRAFFIC_END_FABRIC_GONE: its fabric was deleted
 */
enum ibtrace_sim_traffic_end {
	IBTRACE_SIM_TRAFFIC_END_DONE,
	IBTRACE_SIM_TRAFFIC_END_STOPPED,
	IBTRACE_SIM_TRAFFIC_END_FABRIC_GONE,
};

/**
 * enum ibtrace_sim_node_type - node types (the NodeInfo NodeType values)
 * @IBTRACE_SIM_NODE_CA: channel adapter (HCA), an RDMA device unless
 *	hostless (%IBTRACE_SIM_A_NUM_DEVICES)
 * @IBTRACE_SIM_NODE_SWITCH: switch, a fabric object without RDMA device
 */
enum ibtrace_sim_node_type {
	IBTRACE_SIM_NODE_CA = 1,
	IBTRACE_SIM_NODE_SWITCH = 2,
};

#endif /* _UAPI_LINUX_IBTRACE_SIM_H */
