/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace_sim - a software InfiniBand fabric: the fabric model.
 *
 * Ownership is a tree: fabric -> nodes -> ports; an HCA node owns one
 * ib_device (struct ibtsim_dev, verbs.h), which owns its PDs, CQs, QPs, AHs
 * and MRs through ib_core. A switch node is a fabric object only: its SMA
 * and forwarding (struct ibtsim_switch, switch.c) run inside the fabric.
 * Packets (struct ibtsim_pkt) cross the links between ports (fabric.c).
 *
 * The other headers: verbs.h, the verbs objects of an HCA; topo.h, the
 * topology parser's structures; loc.h, the functions each file offers the
 * others, grouped by the file that defines them.
 */
#ifndef _IBTSIM_SIM_H
#define _IBTSIM_SIM_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/ktime.h>
#include <linux/ctype.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/prandom.h>
#include <rdma/ib_verbs.h>
#include <uapi/linux/ibtrace_sim.h>
#include "ibtrace_iba.h"

#define IBTSIM_MAX_FABRICS	256
#define IBTSIM_MAX_NODES	BIT(20)
#define IBTSIM_PKEY_TBL_LEN	32
#define IBTSIM_GUID_CAP		8	/* default GUIDCap of a fabric */
#define IBTSIM_SL2VL_LEN	8	/* SLtoVLMappingTable: 16 4-bit VLs */
#define IBTSIM_VLARB_BLOCK	64	/* VLArbitrationTable: 32 entries */
#define IBTSIM_VL_ARB_CAP	8	/* VLArbitrationHigh/LowCap */
#define IBTSIM_MFT_CAP		1024	/* MulticastFDBCap */
#define IBTSIM_DEFAULT_PKEY	0xffff
#define IBTSIM_DEFAULT_GID_PREFIX 0xfe80000000000000ULL
#define IBTSIM_VENDOR_ID	0x001405	/* OpenIB OUI */
#define IBTSIM_DEVICE_ID	0x5a5a
#define IBTSIM_LFT_CAP		(IBTRACE_IBA_LID_UCAST_MAX + 1)	/* LinearFDBCap */
/* LFT entries per chunk, allocated when the first route is set in it. */
#define IBTSIM_LFT_CHUNK	4096
#define IBTSIM_LFT_CHUNKS	(IBTSIM_LFT_CAP / IBTSIM_LFT_CHUNK)
#define IBTSIM_MAX_FWD_HOPS	255	/* links a packet may cross */
#define IBTSIM_MISROUTE_MAX	256	/* misroute rules per switch */
#define IBTSIM_VL15		15	/* the management VL */
/* PortInfo:LinkWidthActive and LinkSpeedActive values the sim trains at. */
#define IBTSIM_WIDTH_1X		1
#define IBTSIM_WIDTH_4X		2
#define IBTSIM_SPEED_SDR	1
#define IBTSIM_SPEED_DDR	2
#define IBTSIM_SPEED_QDR	4
#define IBTSIM_DATA_VLS		8	/* data VLs a port can run (VLCap) */
/* Link-level flow control (flowctl.c, IBA 7.9.4). */
#define IBTSIM_FC_BLOCK		64	/* bytes of a flow control block */
#define IBTSIM_FC_MASK		0xfff	/* ABR, FCTBS, FCCL: 12 bits */
#define IBTSIM_FC_HALF		2048	/* most blocks one grant may cover */
#define IBTSIM_FC_TXQ_MAX	1024	/* packets waiting at one port */
#define IBTSIM_FC_WATCH_MS	1000	/* a stall this long is looked into */
#define IBTSIM_FC_REPORT_LEN	IBTRACE_SIM_DEADLOCK_MAX /* a credit loop */

enum ibtsim_node_type {
	IBTSIM_NODE_CA = IBTRACE_SIM_NODE_CA,
	IBTSIM_NODE_SWITCH = IBTRACE_SIM_NODE_SWITCH,
};

/* PortInfo PortState and PortPhysicalState values (IBA 14.2.5.6). */
enum ibtsim_port_state {
	IBTSIM_PORT_NOP = 0,
	IBTSIM_PORT_DOWN = 1,
	IBTSIM_PORT_INIT = 2,
	IBTSIM_PORT_ARMED = 3,
	IBTSIM_PORT_ACTIVE = 4,
};

enum ibtsim_phys_state {
	IBTSIM_PHYS_SLEEP = 1,
	IBTSIM_PHYS_POLLING = 2,
	IBTSIM_PHYS_DISABLED = 3,
	IBTSIM_PHYS_LINKUP = 5,
};

/* Port counters a PMA PortCounters Set clears (pma.c). */
enum ibtsim_pma_counter {
	IBTSIM_PMA_TX_PKTS,
	IBTSIM_PMA_RX_PKTS,
	IBTSIM_PMA_DROPS,
	IBTSIM_PMA_XMIT_DATA,
	IBTSIM_PMA_RCV_DATA,
	IBTSIM_PMA_XMIT_WAIT,
	IBTSIM_PMA_OVERRUNS,
	IBTSIM_PMA_NUM,
};

struct ibtsim_node;
struct ibtsim_dev;
struct ibtsim_qp;
struct dentry;

/**
 * struct ibtsim_fc_vl - link-level flow control of a port on one data VL
 * @txq: packets waiting to leave by the port on the VL, oldest first
 * @queued: packets in @txq
 * @fctbs: FCTBS, blocks the port sent on the VL since its link trained,
 *	modulo 4096
 * @fccl: FCCL, the credit limit the receiver at the other end of the link
 *	granted last, modulo 4096
 * @abr: ABR, blocks the port received on the VL (and kept), modulo 4096
 * @used: blocks of the port's receive buffer for the VL that packets hold
 * @flying: packets the port sent on the VL that a delay knob holds on the
 *	link (they have not reached the peer's buffer yet)
 * @flying_blocks: their blocks, counted in @fctbs but not yet in the
 *	peer's @abr
 *
 * Owned by the fabric's worker (flowctl.c); others read a snapshot.
 */
struct ibtsim_fc_vl {
	struct list_head txq;
	u16 queued;
	u16 fctbs;
	u16 fccl;
	u16 abr;
	u16 used;
	u16 flying;
	u32 flying_blocks;
};

/**
 * struct ibtsim_fc_arb_table - one priority of a port's VL arbitration,
 *	as its transmitter goes through it
 * @vl: each entry's VL
 * @weight: each entry's weight, blocks of 64 bytes (0: the entry is not
 *	used)
 * @idx: the entry whose turn it is
 * @left: blocks the entry may still send in its turn (0: its turn has not
 *	begun)
 */
struct ibtsim_fc_arb_table {
	u8 vl[IBTSIM_VL_ARB_CAP];
	u8 weight[IBTSIM_VL_ARB_CAP];
	u8 idx;
	u16 left;
};

/**
 * struct ibtsim_fc_arb - VL arbitration of a port's transmitter (IBA
 *	7.6.9): which data VL sends next
 * @prio: the low (0) and high (1) priority tables, from the port's
 *	VLArbitrationTable
 * @high_limit: VLHighLimit: blocks of 4096 bytes of high priority packets
 *	that may leave while low priority ones wait (255: no limit, 0: one
 *	packet)
 * @high_blocks: blocks of high priority packets sent since a low priority
 *	one last had its chance
 * @high_pkts: those packets
 * @gen: the port's @vlarb_gen the tables were copied at
 * @on: an entry has a weight: the tables decide; else each VL in turn
 */
struct ibtsim_fc_arb {
	struct ibtsim_fc_arb_table prio[2];
	u8 high_limit;
	u32 high_blocks;
	u32 high_pkts;
	u32 gen;
	bool on;
};

/**
 * struct ibtsim_fc - link-level flow control of a port (flowctl.c)
 * @vl: per data VL
 * @busy: entry in the fabric's list of ports with packets waiting
 * @kick: entry in the fabric's list of ports that may send again
 * @kicked: on that list
 * @next_vl: the VL whose turn it is to send (round robin, without
 *	arbitration tables)
 * @arb: VL arbitration by the port's tables
 * @moves: VLs whose queue the deadlock watch found may move
 * @seen: VLs whose queue the deadlock watch's walk passed
 * @buf_blocks: receive buffer per data VL, blocks (a fault knob:
 *	written under the node's lock, read with READ_ONCE())
 * @trained: the link's training count the credits were set for
 * @wait_since: since when packets wait and none may leave, 0 if not
 *	(written with WRITE_ONCE() for readers elsewhere)
 * @tx_free: when the transmitter is done with the last packet it sent
 *	(link-rate pacing: the fabric's time scale)
 * @pace: entry in the fabric's list of ports whose packets wait for the
 *	transmitter, empty if not on it
 * @resync: entry in the fabric's list of ports whose link trained or
 *	whose buffer changed size, empty if not on it (the fabric's
 *	@tx_lock)
 *
 * Owned by the fabric's worker, but @buf_blocks. Its counters are the
 * port's (&struct ibtsim_port).
 */
struct ibtsim_fc {
	struct ibtsim_fc_vl vl[IBTSIM_DATA_VLS];
	struct list_head busy;
	struct list_head kick;
	bool kicked;
	u8 next_vl;
	struct ibtsim_fc_arb arb;
	u8 moves;
	u8 seen;
	u16 buf_blocks;
	u32 trained;
	ktime_t wait_since;
	ktime_t tx_free;
	struct list_head pace;
	struct list_head resync;
};

/**
 * struct ibtsim_port - one port of a node, with its SMA state
 * @node: node owning the port
 * @peer: port at the other end of the link, NULL if unconnected; set when
 *	the fabric is built and constant while the fabric lives
 * @num: port number (1..num_ports; 0 is a switch's management port)
 * @guid: port GUID
 *
 * The fields below are PortInfo state, protected by @node->lock.
 * @gid_prefix: GidPrefix
 * @lid: base LID (0 = not assigned)
 * @sm_lid: MasterSMLID
 * @cap_mask: CapabilityMask
 * @mkey: M_Key (kept, not enforced yet)
 * @mkey_lease: M_KeyLeasePeriod
 * @lmc: LID mask control
 * @sm_sl: MasterSMSL
 * @state: PortState, &enum ibtsim_port_state
 * @phys_state: PortPhysicalState, &enum ibtsim_phys_state
 * @link_down_default: LinkDownDefaultState
 * @mkey_prot: M_KeyProtectBits
 * @neighbor_mtu: NeighborMTU (enum ib_mtu)
 * @op_vls: OperationalVLs
 * @vl_high_limit: VLHighLimit
 * @vl_stall_hoq: VLStallCount (3 bits) and HOQLife (5 bits), as on the wire
 * @subnet_timeout: SubnetTimeOut
 * @resp_time: RespTimeValue
 * @width_enabled: LinkWidthEnabled
 * @speed_enabled: LinkSpeedEnabled
 * @guid_cap: GUIDCap, entries of the GUID table in use (1..the fabric's
 *	guid_cap on a port with a table, 0 on one without)
 * @mkey_viol: M_KeyViolations
 * @pkey_viol: P_KeyViolations
 * @qkey_viol: Q_KeyViolations
 * @pkeys: P_Key table
 * @gids: GUID table (entry 0 is @guid) of an HCA port or a switch's port
 *	0, NULL on other ports; the fabric's guid_cap entries rounded up to
 *	a whole GUIDInfo block (guid.c)
 * @guid_quirks: GUIDInfo non-compliance modes, &enum ibtrace_sim_guid_quirk
 * @sl2vl: SLtoVLMappingTable of an HCA port (a switch keeps one per pair
 *	of ports in &struct ibtsim_switch)
 * @vlarb: VLArbitrationTable, low (block 1) and high (block 3) priority
 *	entries, as on the wire
 * @vlarb_gen: moves when @vlarb or @vl_high_limit is written (read with
 *	READ_ONCE() by the fabric's worker, which then copies them)
 * @pma_base: counter values at the last PMA PortCounters reset, indexed
 *	by &enum ibtsim_pma_counter (pma.c)
 *
 * Fault knobs, protected by @node->lock (read locklessly on the data path
 * with READ_ONCE()):
 * @drop_ppm: loss probability of packets leaving the port, per million
 * @delay_us: delay added to packets leaving the port
 * @link_down: the link was taken down by the knob and stays down (set on
 *	both ends of the link)
 * @sink_pps: an HCA port's data sink: data packets it takes per second
 *	(0: as they come)
 * @ignore_credits: data packets leaving the port go at once, whatever
 *	credits the receiver granted (flowctl.c)
 * @link_width: LinkWidthActive, the width the link trained at (both ends)
 * @link_speed: LinkSpeedActive, the speed the link trained at (both ends)
 * @sink_last: when the data sink takes the last packet it holds; only
 *	touched by the fabric's work items
 * @sink_retime: the data sink's rate changed: the packets it holds are to
 *	be taken at the new rate (set by the knob, cleared by the worker)
 * @delay_last: when the last delayed packet leaving the port arrives at
 *	the peer, so that a packet never overtakes an earlier one on the
 *	link; only touched by the fabric's work items
 * @sqp: QP0 and QP1 of an HCA port, protected by @node->lock
 * @trained: times the link trained (ibtsim_link_retrain()), protected by
 *	@node->lock: the flow control credits start again from there
 * @fc: link-level flow control on the data VLs (flowctl.c)
 *
 * Counters, atomic, readable without the lock:
 * @tx_pkts: packets sent out of the port
 * @rx_pkts: packets accepted by the port
 * @drops: packets dropped at the port (no peer, state, LID, no QP, no WQE;
 *	at a switch: no LFT entry, a DR path through a missing port, a
 *	forwarding loop)
 * @xmit_words: 4-byte words of the packets sent across the link
 *	(PortXmitData)
 * @rcv_words: 4-byte words of the packets that arrived over the link
 *	(PortRcvData)
 * @xmit_wait_us: microseconds packets waited for credits and none could
 *	leave (PortXmitWait; the wait going on, if any, is not in yet:
 *	ibtsim_port_xmit_wait_us())
 * @overruns: packets the port discarded for want of room in its buffer,
 *	their sender having ignored the credits
 *	(ExcessiveBufferOverrunErrors)
 */
struct ibtsim_port {
	struct ibtsim_node *node;
	struct ibtsim_port *peer;
	u8 num;
	u64 guid;

	u64 gid_prefix;
	u16 lid;
	u16 sm_lid;
	u32 cap_mask;
	u64 mkey;
	u16 mkey_lease;
	u8 lmc;
	u8 sm_sl;
	u8 state;
	u8 phys_state;
	u8 link_down_default;
	u8 mkey_prot;
	u8 neighbor_mtu;
	u8 op_vls;
	u8 vl_high_limit;
	u8 vl_stall_hoq;
	u8 subnet_timeout;
	u8 resp_time;
	u8 width_enabled;
	u8 speed_enabled;
	u8 guid_cap;
	u16 mkey_viol;
	u16 pkey_viol;
	u16 qkey_viol;
	u16 pkeys[IBTSIM_PKEY_TBL_LEN];
	u64 *gids;
	u32 guid_quirks;
	u8 sl2vl[IBTSIM_SL2VL_LEN];
	u8 vlarb[2][IBTSIM_VLARB_BLOCK];
	u32 vlarb_gen;
	u64 pma_base[IBTSIM_PMA_NUM];
	u32 drop_ppm;
	u32 delay_us;
	bool link_down;
	u32 sink_pps;
	bool ignore_credits;
	u8 link_width;
	u8 link_speed;
	ktime_t sink_last;
	bool sink_retime;
	ktime_t delay_last;
	struct ibtsim_qp *sqp[2];
	u32 trained;
	struct ibtsim_fc fc;

	atomic64_t tx_pkts;
	atomic64_t rx_pkts;
	atomic64_t drops;
	atomic64_t xmit_words;
	atomic64_t rcv_words;
	atomic64_t xmit_wait_us;
	atomic64_t overruns;
};

/**
 * struct ibtsim_node - an HCA or a switch of a fabric
 * @fabric: fabric owning the node
 * @index: position in @fabric->nodes (the order of the topology text)
 * @type: &enum ibtsim_node_type
 * @num_ports: number of external ports
 * @desc: NodeDescription (the node name of the topology text)
 * @node_guid: NodeGUID
 * @sys_guid: SystemImageGUID
 * @dev: the RDMA device of an HCA, NULL for a switch and a hostless HCA
 * @hostless: an HCA without an RDMA device (the fabric's device count was
 *	reached): its firmware answers its MADs in the fabric (firmware.c).
 *	Set before the first packet, never changed.
 * @sw: switch state (SwitchInfo, LFT) of a switch, NULL for an HCA
 * @lock: protects the SMA state of @ports (PortInfo fields, tables),
 *	@ports[].sqp and the tables of @sw
 * @ports: @num_ports + 1 ports; entry 0 is a switch's port 0 (unused on
 *	an HCA)
 */
struct ibtsim_node {
	struct ibtsim_fabric *fabric;
	u32 index;
	u8 type;
	u8 num_ports;
	char desc[IB_DEVICE_NODE_DESC_MAX];
	u64 node_guid;
	u64 sys_guid;
	struct ibtsim_dev *dev;
	bool hostless;
	struct ibtsim_switch *sw;
	spinlock_t lock;	/* protects ports[].{SMA state,sqp}, *sw */
	struct ibtsim_port ports[];
};

/**
 * struct ibtsim_switch - SwitchInfo and forwarding state of a switch node
 * @lft: LinearForwardingTable, %IBTSIM_LFT_CAP exit ports (%IBTRACE_IBA_LFT_NO_PORT:
 *	no route) in chunks of %IBTSIM_LFT_CHUNK; a NULL chunk has no route
 *	(a fabric of 10,000 LIDs needs 3 of the 12)
 * @lft_top: LinearFDBTop, highest LID the LFT is used for
 * @mft_top: MulticastFDBTop (kept; multicast is not forwarded)
 * @mft: MulticastForwardingTable, %IBTSIM_MFT_CAP entries of @mft_masks
 *	port masks of %IBTRACE_IBA_MFT_MASK_PORTS ports each (entry-major)
 * @mft_masks: port masks per MFT entry, enough for port 0..num_ports
 * @sl2vl: SLtoVLMappingTable of every (input port, output port) pair,
 *	%IBTSIM_SL2VL_LEN bytes each, input-major
 * @default_port: DefaultPort
 * @def_mc_primary: DefaultMulticastPrimaryPort
 * @def_mc_not_primary: DefaultMulticastNotPrimaryPort
 * @life_time: LifeTimeValue
 * @port_state_change: PortStateChange, set when an external port's state
 *	changes, cleared by a SwitchInfo Set writing 1
 * @misroute: misroute fault rules, DLID -> exit port (xa_mk_value());
 *	protected by its own lock, changed under the fabric's @knob_lock
 * @num_misroutes: rules in @misroute, protected by the fabric's @knob_lock
 *
 * All other fields are protected by the owning node's lock.
 */
struct ibtsim_switch {
	u8 *lft[IBTSIM_LFT_CHUNKS];
	u16 lft_top;
	u16 mft_top;
	u16 *mft;
	u8 mft_masks;
	u8 *sl2vl;
	u8 default_port;
	u8 def_mc_primary;
	u8 def_mc_not_primary;
	u8 life_time;
	bool port_state_change;
	struct xarray misroute;
	u32 num_misroutes;
};

/*
 * Why a port drops a packet (ibtsim_drop()), each reason once, as
 * IBTSIM_DROP_REASON(NAME, token, text): the value IBTSIM_DROP_NAME of
 * &enum ibtsim_drop_reason, the token of its counter in the fabric's
 * debugfs stats ("dropped_token N") and the text of the debug log. Define
 * IBTSIM_DROP_REASON() to expand the list, then undefine it; the entries
 * come out separated by commas. (IBTSIM_DROP_LIST() only makes the list
 * one expression, as checkpatch wants a macro's value to be.)
 */
#define IBTSIM_DROP_REASONS IBTSIM_DROP_LIST(				\
	IBTSIM_DROP_REASON(PORT_DOWN, port_down, "port down"),		\
	IBTSIM_DROP_REASON(NO_LINK, no_link, "no link"),		\
	IBTSIM_DROP_REASON(LINK_LOSS, link_loss,			\
			   "lost on the link (drop knob)"),		\
	IBTSIM_DROP_REASON(DATA_BEFORE_ARMED, data_before_armed,	\
			   "data packet before Armed"),			\
	IBTSIM_DROP_REASON(DATA_BEFORE_ACTIVE, data_before_active,	\
			   "data packet before Active"),		\
	IBTSIM_DROP_REASON(TXQ_FULL, txq_full, "transmit queue full"),	\
	IBTSIM_DROP_REASON(RX_OVERRUN, rx_overrun,			\
			   "receive buffer overrun"),			\
	IBTSIM_DROP_REASON(TOO_MANY_HOPS, too_many_hops,		\
			   "too many hops (forwarding loop?)"),		\
	IBTSIM_DROP_REASON(FABRIC_DESTROYED, fabric_destroyed,		\
			   "fabric destroyed"),				\
	IBTSIM_DROP_REASON(VL15_NOT_QP0, vl15_not_qp0,			\
			   "VL 15 packet not for QP0"),			\
	IBTSIM_DROP_REASON(SMP_DATA_VL, smp_data_vl, "SMP on a data VL"), \
	IBTSIM_DROP_REASON(VL_NOT_OPERATIONAL, vl_not_operational,	\
			   "VL not operational at the port"),		\
	IBTSIM_DROP_REASON(SL_TO_VL15, sl_to_vl15, "SL mapped to VL 15"), \
	IBTSIM_DROP_REASON(SL_TO_VL_NOT_OPERATIONAL,			\
			   sl_to_vl_not_operational,			\
			   "SL mapped to a VL not operational at the port"), \
	IBTSIM_DROP_REASON(PERMISSIVE_DLID, permissive_dlid,		\
			   "permissive DLID"),				\
	IBTSIM_DROP_REASON(DLID_NOT_OURS, dlid_not_ours, "DLID not ours"), \
	IBTSIM_DROP_REASON(PKEY_VIOLATION, pkey_violation,		\
			   "P_Key violation"),				\
	IBTSIM_DROP_REASON(QKEY_VIOLATION, qkey_violation,		\
			   "Q_Key violation"),				\
	IBTSIM_DROP_REASON(NO_QP, no_qp, "no such QP"),			\
	IBTSIM_DROP_REASON(QP_NOT_READY, qp_not_ready,			\
			   "QP not ready or no receive WQE"),		\
	IBTSIM_DROP_REASON(QP0_NOT_TO_QP0, qp0_not_to_qp0,		\
			   "QP0 sends to QP0 only"),			\
	IBTSIM_DROP_REASON(SA_SHORT_MAD, sa_short_mad, "short SA MAD"),	\
	IBTSIM_DROP_REASON(SA_TRAP_REPRESS, sa_trap_repress,		\
			   "SA: TrapRepress to the SA"),		\
	IBTSIM_DROP_REASON(SA_SLID_NOT_UNICAST, sa_slid_not_unicast,	\
			   "SA: request from no unicast LID"),		\
	IBTSIM_DROP_REASON(FW_SHORT_MAD, fw_short_mad,			\
			   "short MAD for the node's firmware"),	\
	IBTSIM_DROP_REASON(FW_NO_AGENT, fw_no_agent,			\
			   "no agent in the node's firmware for this method"), \
	IBTSIM_DROP_REASON(FW_NO_QP, fw_no_qp,				\
			   "no such QP in the node's firmware"),	\
	IBTSIM_DROP_REASON(FW_SMP_ON_QP1, fw_smp_on_qp1, "SMP on QP1"), \
	IBTSIM_DROP_REASON(FW_GMP_ON_QP0, fw_gmp_on_qp0, "GMP on QP0"), \
	IBTSIM_DROP_REASON(CA_DR_NOT_FORWARDED, ca_dr_not_forwarded,	\
		"DR SMP a hostless HCA neither answers nor forwards"),	\
	IBTSIM_DROP_REASON(CA_DR_RETURNING, ca_dr_returning,		\
			   "returning DR SMP for an SM on a hostless HCA"), \
	IBTSIM_DROP_REASON(DR_HOP_COUNT, dr_hop_count,			\
			   "DR hop count above 63"),			\
	IBTSIM_DROP_REASON(DR_HOP_POINTER, dr_hop_pointer,		\
			   "DR hop pointer past the path"),		\
	IBTSIM_DROP_REASON(SW_DR_RETURNING, sw_dr_returning,		\
			   "returning DR SMP for an SM on the switch"),	\
	IBTSIM_DROP_REASON(NO_LFT_ENTRY, no_lft_entry,			\
			   "no LFT entry for the DLID"),		\
	IBTSIM_DROP_REASON(EXIT_PORT_RANGE, exit_port_range,		\
			   "exit port out of range"),			\
	IBTSIM_DROP_REASON(ANSWER_TO_SWITCH, answer_to_switch,		\
			   "answer addressed to the switch itself"))
#define IBTSIM_DROP_LIST(...)	__VA_ARGS__

#define IBTSIM_DROP_REASON(name, token, text)	IBTSIM_DROP_##name
/**
 * enum ibtsim_drop_reason - why a port drops a packet
 * @IBTSIM_DROP_NONE: not dropped (what a check returns for a packet that
 *	passes it). A drop with this reason, or with a value out of range,
 *	is a bug: warned of once, counted as "unknown".
 * @IBTSIM_DROP_REASONS: the reasons, IBTSIM_DROP_PORT_DOWN to
 *	IBTSIM_DROP_ANSWER_TO_SWITCH, in the order of IBTSIM_DROP_REASONS
 * @IBTSIM_DROP_COUNT: number of values, %IBTSIM_DROP_NONE included
 *
 * ibtsim_drop() counts a drop at its port, in the fabric and for its
 * reason (&struct ibtsim_fabric_stats), and logs the reason's text
 * (dynamic debug); ibtsim_drop_token() names the reason's counter.
 */
enum ibtsim_drop_reason {
	IBTSIM_DROP_NONE = 0,
	IBTSIM_DROP_REASONS,
	IBTSIM_DROP_COUNT
};

#undef IBTSIM_DROP_REASON

/**
 * struct ibtsim_fabric_stats - the packets of a fabric, accounted
 * @sent: packets handed to the fabric by a QP (ibtsim_fabric_xmit())
 * @delivered: packets handed to a receiving QP (ibtsim_qp_recv())
 * @dropped: packets dropped (ibtsim_drop(), every port's drops together)
 * @drop_reason: @dropped by reason, indexed by &enum ibtsim_drop_reason
 *	(at %IBTSIM_DROP_NONE the drops without a valid reason, a bug); they
 *	add up to @dropped
 * @answered: requests a switch, or SM-lite's SA, rewrote into their answer
 *	(which then travels on as the same packet)
 * @injected: packets put into the fabric by IBTRACE_SIM_CMD_INJECT (also
 *	counted in @sent)
 * @claimed: answers taken off the fabric for an injector (also counted in
 *	@delivered)
 *
 * Every packet sent ends delivered or dropped: once the fabric is quiet
 * (no packet queued or held back by a delay knob), @sent equals
 * @delivered + @dropped.
 */
struct ibtsim_fabric_stats {
	atomic64_t sent;
	atomic64_t delivered;
	atomic64_t dropped;
	atomic64_t drop_reason[IBTSIM_DROP_COUNT];
	atomic64_t answered;
	atomic64_t injected;
	atomic64_t claimed;
};

/**
 * struct ibtsim_fabric - one simulated subnet
 * @list: entry in the fabric list, protected by ibtsim_fabrics_lock
 * @name: fabric name
 * @id: small number unique among live fabrics, part of default GUIDs
 * @seq: creation number, never reused: the fabric list is in its order
 *	(where dumps resume)
 * @nodes: every node, in topology order
 * @num_nodes: entries in @nodes
 * @num_cas: HCAs among @nodes
 * @num_devs: HCAs among @nodes that are RDMA devices (the others hostless)
 * @num_switches: switches among @nodes
 * @num_links: links between ports
 * @wq: ordered workqueue running @tx_work
 * @tx_lock: protects @tx_queue and @dying
 * @tx_queue: packets posted and not yet delivered
 * @dying: set when the fabric is being destroyed; no packet is queued after
 * @tx_work: moves packets from @tx_queue across the fabric
 * @delayed: packets held back by a port's delay knob, by arrival time;
 *	protected by @tx_lock
 * @no_delay: set when the fabric stops: packets are no longer held back;
 *	protected by @tx_lock
 * @delay_work: delivers the packets of @delayed when their time comes
 * @sm_work: SM-lite's re-sweep after a link came back up (sm.c)
 * @knob_lock: serializes changes of the fault knobs (link state changes,
 *	misroute rules) from netlink and debugfs
 * @debugfs: the fabric's debugfs directory, NULL if none
 * @sm_lite: the built-in subnet manager (SM-lite, sm.c) manages the fabric
 * @sm_lid: LID where SM-lite's SA answers, 0 if SM-lite is off
 * @guid_cap: GUID table entries of every HCA port and switch port 0
 * @building: the fabric is being built in the background (main.c): only
 *	its name may be shown; nothing may change or delete it. Protected by
 *	ibtsim_fabrics_lock
 * @cancel: stop the build at the next HCA (module unload); READ_ONCE()
 * @mem_cost: memory the fabric was estimated to take, taken from the
 *	budget (budget.c) while it lives
 * @seed: seed of @rnd, as given at creation or picked then
 * @rnd_lock: protects @rnd
 * @rnd: the fabric's pseudo-random generator: every random decision of
 *	the fabric comes from it, so that a run can be replayed (same seed,
 *	topology and traffic) and ibtsim_chance() is its only user
 * @stats: what became of the fabric's packets (debugfs "stats")
 * @ncaptures: captures of the fabric's nodes running (capture.c; written
 *	under its lock, read by the worker with READ_ONCE())
 * @nclaims: injected MADs waiting for their answer (capture.c; as
 *	@ncaptures)
 * @ninjected: injected packets not yet done with (ibtsim_fabric_inject()),
 *	at most %IBTRACE_SIM_INJECT_INFLIGHT_MAX
 * @fc_resync: ports whose link trained or whose buffer changed size: the
 *	worker starts their links' credits again and lets every port with
 *	packets waiting try again; protected by @tx_lock
 * @sink_retime: a data sink's rate changed (&ibtsim_port.sink_retime);
 *	protected by @tx_lock
 * @fc_busy: ports with packets waiting for credits or their turn
 *	(flowctl.c; the worker's)
 * @fc_kick: ports of @fc_busy that may send again (the worker's)
 * @fc_watch: looks for queues that can never move, every
 *	%IBTSIM_FC_WATCH_MS while packets wait (flowctl.c)
 * @fc_watching: @fc_watch is armed (the worker's)
 * @fc_report_lock: protects @fc_report
 * @fc_report: the credit loop of a deadlock, as text ("S1/2 vl 0 -> ..."),
 *	empty if the last look found none
 * @time_scale: link-rate pacing, sim time per real time (0: none); set
 *	at creation
 * @fc_pace: ports whose packets wait for their transmitter (flowctl.c;
 *	the worker's)
 * @pace_work: kicks the ports of @fc_pace when their transmitter is free
 * @pace_next: when @pace_work is armed for, 0 if not (the worker's)
 */
struct ibtsim_fabric {
	struct list_head list;
	char name[IBTRACE_SIM_NAME_MAX + 1];
	u32 id;
	u64 seq;
	struct ibtsim_node **nodes;
	u32 num_nodes;
	u32 num_cas;
	u32 num_devs;
	u32 num_switches;
	u32 num_links;
	struct workqueue_struct *wq;
	spinlock_t tx_lock;	/* protects tx_queue, dying */
	struct list_head tx_queue;
	bool dying;
	struct work_struct tx_work;
	struct list_head delayed;
	bool no_delay;
	struct delayed_work delay_work;
	struct mutex knob_lock;	/* serializes knob changes */
	struct delayed_work sm_work;
	struct dentry *debugfs;
	bool sm_lite;
	u16 sm_lid;
	u8 guid_cap;
	bool building;
	bool cancel;
	u64 mem_cost;
	u32 seed;
	spinlock_t rnd_lock;	/* protects rnd */
	struct rnd_state rnd;
	struct ibtsim_fabric_stats stats;
	unsigned int ncaptures;
	unsigned int nclaims;
	atomic_t ninjected;
	struct list_head fc_resync;
	bool sink_retime;
	struct list_head fc_busy;
	struct list_head fc_kick;
	struct delayed_work fc_watch;
	bool fc_watching;
	spinlock_t fc_report_lock;	/* protects fc_report */
	char fc_report[IBTSIM_FC_REPORT_LEN];
	u32 time_scale;
	struct list_head fc_pace;
	struct delayed_work pace_work;
	ktime_t pace_next;
};

/**
 * struct ibtsim_pkt - a packet on the wire (LRH, GRH, BTH/DETH, payload)
 * @list: entry in the fabric's tx queue
 * @src_port: port the packet leaves by
 * @src_qp: sending QP, referenced until the send completion is made
 *	(NULL after it: a delayed packet completes its send when it leaves)
 * @wr_id: work request of the send (wr_cqe shares the field)
 * @signaled: make a send completion
 * @opcode: completion opcode of the send
 * @dlid: LRH DLID
 * @slid: LRH SLID, set when the packet leaves its first port
 * @sl: LRH SL
 * @vl: LRH VL: %IBTSIM_VL15 for SMPs (destination QP 0); a data packet's
 *	is chosen by its SL where it leaves a port (ibtsim_pkt_vl()); an
 *	injected packet's is chosen freely (kept across its first link)
 * @forged: injected (IBTRACE_SIM_CMD_INJECT): its LRH, BTH and DETH
 *	fields are as given, not the sending port's; cleared when the packet
 *	is rewritten into an answer (ibtsim_pkt_answered())
 * @injected: injected, and counted in the fabric's @ninjected until freed
 *	(also as the answer it may become)
 * @path_bits: source path bits (the SLID's low LMC bits)
 * @dqpn: BTH destination QP
 * @sqpn: DETH source QP
 * @qkey: DETH Q_Key
 * @pkey_index: P_Key index of the sender, resolved to @pkey by the fabric
 * @pkey: BTH P_Key
 * @has_grh: a GRH precedes BTH
 * @has_imm: immediate data present
 * @imm: immediate data
 * @grh: the GRH, valid if @has_grh
 * @flying: counted in its sender's &ibtsim_fc_vl.flying (a delay knob
 *	holds it on the link)
 * @sunk: a data sink held it back (the fabric's @delayed) and has taken
 *	it: it is received now
 * @hops: links crossed so far
 * @held: port whose receive buffer the packet takes room in (flowctl.c),
 *	NULL if none
 * @held_vl: the VL of that buffer (the VL the packet arrived on)
 * @held_blocks: the blocks it takes there
 * @blocks: flow control blocks of the packet as it waits to leave a port
 *	(ibtsim_fc_blocks(); an answer may differ from its request)
 * @at: port a delayed packet arrives at when @due
 * @due: arrival time of a delayed packet
 * @flow: the traffic flow that sent it (traffic.c), referenced; NULL for
 *	a QP's or an injector's packet
 * @born: when its flow made it
 * @delivered: its flow's destination port took it
 * @len: payload bytes in @data
 * @data: payload
 */
struct ibtsim_pkt {
	struct list_head list;
	struct ibtsim_port *src_port;
	struct ibtsim_qp *src_qp;
	u64 wr_id;
	bool signaled;
	enum ib_wc_opcode opcode;
	u16 dlid;
	u16 slid;
	u8 sl;
	u8 vl;
	bool forged;
	bool injected;
	u8 path_bits;
	u32 dqpn;
	u32 sqpn;
	u32 qkey;
	u16 pkey_index;
	u16 pkey;
	bool has_grh;
	bool has_imm;
	__be32 imm;
	struct ib_grh grh;
	bool flying;
	bool sunk;
	u16 hops;
	struct ibtsim_port *held;
	u8 held_vl;
	u16 held_blocks;
	u16 blocks;
	struct ibtsim_port *at;
	ktime_t due;
	struct ibtsim_flow *flow;
	ktime_t born;
	bool delivered;
	u32 len;
	u8 data[];
};

/**
 * ibtsim_zalloc_array - zeroed memory for a per-node table, without waste
 * @n: elements
 * @size: bytes per element
 *
 * kvcalloc() would take a power-of-two run of pages for a table of a few
 * pages (a 48 KiB forwarding table: 64 KiB), per node of fabrics of
 * thousands: tables larger than a page come from vmalloc, to the page.
 * Free with kvfree().
 *
 * Return: the memory, or NULL.
 */
static inline void *ibtsim_zalloc_array(size_t n, size_t size)
{
	size_t bytes = array_size(n, size);

	if (bytes > PAGE_SIZE)
		return vzalloc(bytes);
	return kzalloc(bytes, GFP_KERNEL);
}

/**
 * ibtsim_name_char() - may @c be part of a fabric name or a debugfs name?
 * @c: the character
 *
 * A-Z a-z 0-9 _ . - only: the kernel's isalnum() also takes the Latin-1
 * letters (0xc0-0xff but 0xd7 and 0xf7) for letters.
 *
 * Return: true if it may.
 */
static inline bool ibtsim_name_char(char c)
{
	return (isascii(c) && isalnum(c)) || c == '_' || c == '.' || c == '-';
}

/**
 * ibtsim_sl2vl_get() - the VL of an SL in an SLtoVLMappingTable
 * @table: the table as on the wire (IBA 14.2.5.8): SL 2n in the high
 *	nibble of byte n, SL 2n + 1 in its low nibble
 * @sl: the service level (its low 4 bits)
 *
 * Return: the VL, 0..15.
 */
static inline u8 ibtsim_sl2vl_get(const u8 *table, u8 sl)
{
	u8 byte = table[(sl & 0xf) / 2];

	return sl & 1 ? byte & 0xf : byte >> 4;
}

/**
 * ibtsim_vlarb_get() - an entry of a VLArbitrationTable
 * @table: the table as on the wire (IBA 14.2.5.9): entry n is bytes 2n
 *	(the VL in its low nibble) and 2n + 1 (the weight)
 * @i: the entry
 * @vl: its VL, 0..15
 *
 * Return: its weight, in 64-byte units; 0: the entry is unused.
 */
static inline u8 ibtsim_vlarb_get(const u8 *table, unsigned int i, u8 *vl)
{
	*vl = table[2 * i] & 0xf;
	return table[2 * i + 1];
}

/* Per-object log helpers. */
#define ibtsim_node_dbg(node, fmt, ...)					\
	do {								\
		const struct ibtsim_node *__n = (node);			\
									\
		pr_debug("%s/%s: " fmt, __n->fabric->name, __n->desc,	\
			 ##__VA_ARGS__);				\
	} while (0)

#endif /* _IBTSIM_SIM_H */
