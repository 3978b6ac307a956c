/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * ibtrace: InfiniBand path tracing and conformance toolkit - netlink uAPI.
 *
 * Generic netlink family IBTRACE_GENL_NAME, version IBTRACE_GENL_VERSION.
 * Every request is validated strictly: unknown attributes, attributes of
 * the wrong type or length and values out of range are rejected with an
 * extended ACK message naming the attribute.
 *
 * The machine-readable description of this interface is
 * Documentation/netlink/specs/ibtrace.yaml; the two must agree.
 */
#ifndef _UAPI_LINUX_IBTRACE_H
#define _UAPI_LINUX_IBTRACE_H

#define IBTRACE_GENL_NAME	"ibtrace"
#define IBTRACE_GENL_VERSION	1

/* Vendor MAD class served by the in-kernel agent (OpenIB "ibtracer"). */
#define IBTRACE_MGMT_CLASS		0x30
#define IBTRACE_MGMT_CLASS_VERSION	1
#define IBTRACE_OUI			0x001405
#define IBTRACE_ATTR_CLASS_PORT_INFO	0x0001
#define IBTRACE_ATTR_SOURCE_ROUTE	0x0010
/* Longest incoming-port vector a SourceRoute probe carries. */
#define IBTRACE_SROUTE_MAX_HOPS		64

/**
 * enum ibtrace_cmd - generic netlink commands
 * @IBTRACE_CMD_UNSPEC: unused
 * @IBTRACE_CMD_DEV_GET: RDMA ports seen by ibtrace, one message per port.
 *	Do: the port named by %IBTRACE_A_DEV_NAME or %IBTRACE_A_DEV_INDEX
 *	and %IBTRACE_A_PORT (all required). Dump: every port of every
 *	device, or of the named device, or only the named port.
 * @IBTRACE_CMD_AGENT_GET: the class 0x30 agent of each port and its
 *	counters (%IBTRACE_A_AGENT_STATS). Same selection as DEV_GET.
 * @IBTRACE_CMD_PING: send VendorGet(ClassPortInfo), or VendorGet(SourceRoute)
 *	when %IBTRACE_A_PING_SROUTE is given, to %IBTRACE_A_PING_DGID or
 *	%IBTRACE_A_PING_DLID from the selected device and port. While it runs
 *	the kernel sends one %IBTRACE_CMD_PING_PROBE message per probe to the
 *	requester; the reply to the request carries %IBTRACE_A_PING_SUMMARY.
 *	On an InfiniBand port a DGID without a DLID is resolved by an SA
 *	PathRecord query. The ping runs inside the sendmsg() that delivers
 *	the request, so a client that wants progress reads its socket from
 *	another thread; probe messages that do not fit the socket's receive
 *	buffer are dropped. A signal to the requester ends the ping with
 *	EINTR, which netlink does not acknowledge: no reply, no summary.
 *	Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_PING_PROBE: kernel to user only: the result of one probe
 *	(%IBTRACE_A_PING_PROBE).
 * @__IBTRACE_CMD_MAX: number of commands + 1
 * @IBTRACE_CMD_MAX: highest command number
 */
enum ibtrace_cmd {
	IBTRACE_CMD_UNSPEC,
	IBTRACE_CMD_DEV_GET,
	IBTRACE_CMD_AGENT_GET,
	IBTRACE_CMD_PING,
	IBTRACE_CMD_PING_PROBE,

	__IBTRACE_CMD_MAX,
	IBTRACE_CMD_MAX = __IBTRACE_CMD_MAX - 1
};

/**
 * enum ibtrace_attr - top-level attributes
 * @IBTRACE_A_UNSPEC: unused
 * @IBTRACE_A_PAD: padding for 64-bit attributes
 * @IBTRACE_A_DEV_INDEX: u32, RDMA device index
 * @IBTRACE_A_DEV_NAME: string, RDMA device name (e.g. "rxe0", "mlx5_0")
 * @IBTRACE_A_PORT: u32, port number (1-based)
 * @IBTRACE_A_LINK_LAYER: u8, &enum ibtrace_link_layer
 * @IBTRACE_A_PORT_STATE: u8, &enum ibtrace_port_state
 * @IBTRACE_A_LID: u32, base LID (IB link layer only)
 * @IBTRACE_A_LMC: u8, LID mask control (IB link layer only)
 * @IBTRACE_A_SM_LID: u32, LID of the master SM (IB link layer only)
 * @IBTRACE_A_GID: binary (16 bytes), GID table entry 0
 * @IBTRACE_A_PORT_GUID: u64, port GUID (host order): the interface ID of
 *	GID 0 (on RoCE derived from the MAC address)
 * @IBTRACE_A_AGENT: u8, 1 if the class 0x30 agent is registered on the port
 * @IBTRACE_A_AGENT_STATS: nest, &enum ibtrace_stat_attr
 * @IBTRACE_A_PING_DGID: binary (16 bytes), destination GID
 * @IBTRACE_A_PING_DLID: u32, destination LID (1..0xbfff, IB link layer)
 * @IBTRACE_A_PING_COUNT: u32, probes to send (1..100000, default 1)
 * @IBTRACE_A_PING_INTERVAL_MS: u32, gap between probes (0..60000, default
 *	1000)
 * @IBTRACE_A_PING_TIMEOUT_MS: u32, wait for a reply per attempt
 *	(1..60000, default 1000)
 * @IBTRACE_A_PING_RETRIES: u32, extra attempts after a timeout (0..100,
 *	default 3)
 * @IBTRACE_A_PING_SROUTE: binary (1..64 bytes), expected incoming port per
 *	hop; sends VendorGet(SourceRoute) with hop count = length
 * @IBTRACE_A_PING_PROBE: nest, &enum ibtrace_probe_attr
 * @IBTRACE_A_PING_SUMMARY: nest, &enum ibtrace_summary_attr
 * @__IBTRACE_A_MAX: number of attributes + 1
 * @IBTRACE_A_MAX: highest attribute number
 */
enum ibtrace_attr {
	IBTRACE_A_UNSPEC,
	IBTRACE_A_PAD,
	IBTRACE_A_DEV_INDEX,
	IBTRACE_A_DEV_NAME,
	IBTRACE_A_PORT,
	IBTRACE_A_LINK_LAYER,
	IBTRACE_A_PORT_STATE,
	IBTRACE_A_LID,
	IBTRACE_A_LMC,
	IBTRACE_A_SM_LID,
	IBTRACE_A_GID,
	IBTRACE_A_PORT_GUID,
	IBTRACE_A_AGENT,
	IBTRACE_A_AGENT_STATS,
	IBTRACE_A_PING_DGID,
	IBTRACE_A_PING_DLID,
	IBTRACE_A_PING_COUNT,
	IBTRACE_A_PING_INTERVAL_MS,
	IBTRACE_A_PING_TIMEOUT_MS,
	IBTRACE_A_PING_RETRIES,
	IBTRACE_A_PING_SROUTE,
	IBTRACE_A_PING_PROBE,
	IBTRACE_A_PING_SUMMARY,

	__IBTRACE_A_MAX,
	IBTRACE_A_MAX = __IBTRACE_A_MAX - 1
};

/**
 * enum ibtrace_link_layer - link layer of a port
 * @IBTRACE_LINK_LAYER_UNSPEC: unknown
 * @IBTRACE_LINK_LAYER_IB: InfiniBand
 * @IBTRACE_LINK_LAYER_ETH: Ethernet (RoCE)
 */
enum ibtrace_link_layer {
	IBTRACE_LINK_LAYER_UNSPEC,
	IBTRACE_LINK_LAYER_IB,
	IBTRACE_LINK_LAYER_ETH,
};

/**
 * enum ibtrace_port_state - logical port state (IBA PortInfo.PortState)
 * @IBTRACE_PORT_STATE_NOP: no state change / unknown
 * @IBTRACE_PORT_STATE_DOWN: Down
 * @IBTRACE_PORT_STATE_INIT: Initialize
 * @IBTRACE_PORT_STATE_ARMED: Armed
 * @IBTRACE_PORT_STATE_ACTIVE: Active
 * @IBTRACE_PORT_STATE_ACTIVE_DEFER: ActiveDefer
 */
enum ibtrace_port_state {
	IBTRACE_PORT_STATE_NOP,
	IBTRACE_PORT_STATE_DOWN,
	IBTRACE_PORT_STATE_INIT,
	IBTRACE_PORT_STATE_ARMED,
	IBTRACE_PORT_STATE_ACTIVE,
	IBTRACE_PORT_STATE_ACTIVE_DEFER,
};

/**
 * enum ibtrace_stat_attr - agent counters, all u64
 * @IBTRACE_STAT_UNSPEC: unused
 * @IBTRACE_STAT_PAD: padding
 * @IBTRACE_STAT_RX: requests of class 0x30 received by the agent
 * @IBTRACE_STAT_ANSWERED: responses sent (any status)
 * @IBTRACE_STAT_MISMATCH: SourceRoute probes whose expected incoming port
 *	differed from the port the probe arrived on
 * @IBTRACE_STAT_MALFORMED: requests rejected as malformed (bad hop count)
 * @IBTRACE_STAT_UNSUPPORTED: requests answered "unsupported method" or
 *	"unsupported method/attribute"
 * @__IBTRACE_STAT_MAX: number of attributes + 1
 * @IBTRACE_STAT_MAX: highest attribute number
 */
enum ibtrace_stat_attr {
	IBTRACE_STAT_UNSPEC,
	IBTRACE_STAT_PAD,
	IBTRACE_STAT_RX,
	IBTRACE_STAT_ANSWERED,
	IBTRACE_STAT_MISMATCH,
	IBTRACE_STAT_MALFORMED,
	IBTRACE_STAT_UNSUPPORTED,

	__IBTRACE_STAT_MAX,
	IBTRACE_STAT_MAX = __IBTRACE_STAT_MAX - 1
};

/**
 * enum ibtrace_probe_status - outcome of one probe
 * @IBTRACE_PROBE_OK: answered with MAD status 0
 * @IBTRACE_PROBE_TIMEOUT: no answer after all retries
 * @IBTRACE_PROBE_REMOTE_ERROR: answered with a non-zero MAD status
 *	(%IBTRACE_PROBE_A_MAD_STATUS)
 * @IBTRACE_PROBE_SEND_ERROR: the MAD could not be sent
 */
enum ibtrace_probe_status {
	IBTRACE_PROBE_OK,
	IBTRACE_PROBE_TIMEOUT,
	IBTRACE_PROBE_REMOTE_ERROR,
	IBTRACE_PROBE_SEND_ERROR,
};

/**
 * enum ibtrace_probe_attr - one probe's result
 * @IBTRACE_PROBE_A_UNSPEC: unused
 * @IBTRACE_PROBE_A_PAD: padding
 * @IBTRACE_PROBE_A_SEQ: u32, probe number, from 1
 * @IBTRACE_PROBE_A_STATUS: u8, &enum ibtrace_probe_status
 * @IBTRACE_PROBE_A_MAD_STATUS: u16, MAD status of the answer (host order)
 * @IBTRACE_PROBE_A_RTT_NS: u64, round trip of the answered attempt
 * @IBTRACE_PROBE_A_ATTEMPTS: u32, attempts sent (1 + retries used)
 * @IBTRACE_PROBE_A_SLID: u32, LID the answer came from (0 on RoCE)
 * @IBTRACE_PROBE_A_SGID: binary (16 bytes), GID the answer came from
 *	(when it carried a GRH)
 * @IBTRACE_PROBE_A_ACTUAL_PORT: u8, SourceRoute: port the probe arrived on
 * @IBTRACE_PROBE_A_CPI_BASE_VERSION: u8, ClassPortInfo.BaseVersion
 * @IBTRACE_PROBE_A_CPI_CLASS_VERSION: u8, ClassPortInfo.ClassVersion
 * @IBTRACE_PROBE_A_CPI_CAP_MASK: u16, ClassPortInfo.CapabilityMask
 * @IBTRACE_PROBE_A_CPI_RESP_TIME: u8, ClassPortInfo.RespTimeValue
 * @__IBTRACE_PROBE_A_MAX: number of attributes + 1
 * @IBTRACE_PROBE_A_MAX: highest attribute number
 */
enum ibtrace_probe_attr {
	IBTRACE_PROBE_A_UNSPEC,
	IBTRACE_PROBE_A_PAD,
	IBTRACE_PROBE_A_SEQ,
	IBTRACE_PROBE_A_STATUS,
	IBTRACE_PROBE_A_MAD_STATUS,
	IBTRACE_PROBE_A_RTT_NS,
	IBTRACE_PROBE_A_ATTEMPTS,
	IBTRACE_PROBE_A_SLID,
	IBTRACE_PROBE_A_SGID,
	IBTRACE_PROBE_A_ACTUAL_PORT,
	IBTRACE_PROBE_A_CPI_BASE_VERSION,
	IBTRACE_PROBE_A_CPI_CLASS_VERSION,
	IBTRACE_PROBE_A_CPI_CAP_MASK,
	IBTRACE_PROBE_A_CPI_RESP_TIME,

	__IBTRACE_PROBE_A_MAX,
	IBTRACE_PROBE_A_MAX = __IBTRACE_PROBE_A_MAX - 1
};

/**
 * enum ibtrace_summary_attr - statistics of a finished ping
 * @IBTRACE_SUMMARY_A_UNSPEC: unused
 * @IBTRACE_SUMMARY_A_PAD: padding
 * @IBTRACE_SUMMARY_A_SENT: u32, probes attempted (including those that
 *	failed to send)
 * @IBTRACE_SUMMARY_A_RECEIVED: u32, probes answered (any MAD status)
 * @IBTRACE_SUMMARY_A_ERRORS: u32, answers with a non-zero MAD status
 * @IBTRACE_SUMMARY_A_RTT_MIN_NS: u64
 * @IBTRACE_SUMMARY_A_RTT_AVG_NS: u64
 * @IBTRACE_SUMMARY_A_RTT_MAX_NS: u64
 * @IBTRACE_SUMMARY_A_RTT_P99_NS: u64
 * @IBTRACE_SUMMARY_A_RTT_MEDIAN_NS: u64
 * @__IBTRACE_SUMMARY_A_MAX: number of attributes + 1
 * @IBTRACE_SUMMARY_A_MAX: highest attribute number
 */
enum ibtrace_summary_attr {
	IBTRACE_SUMMARY_A_UNSPEC,
	IBTRACE_SUMMARY_A_PAD,
	IBTRACE_SUMMARY_A_SENT,
	IBTRACE_SUMMARY_A_RECEIVED,
	IBTRACE_SUMMARY_A_ERRORS,
	IBTRACE_SUMMARY_A_RTT_MIN_NS,
	IBTRACE_SUMMARY_A_RTT_AVG_NS,
	IBTRACE_SUMMARY_A_RTT_MAX_NS,
	IBTRACE_SUMMARY_A_RTT_P99_NS,
	IBTRACE_SUMMARY_A_RTT_MEDIAN_NS,

	__IBTRACE_SUMMARY_A_MAX,
	IBTRACE_SUMMARY_A_MAX = __IBTRACE_SUMMARY_A_MAX - 1
};

#endif /* _UAPI_LINUX_IBTRACE_H */
