/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace_sim - a software InfiniBand fabric: shared structures.
 *
 * Ownership is a tree: fabric -> nodes -> ports; an HCA node owns one
 * ib_device (struct ibtsim_dev), which owns its PDs, CQs, QPs, AHs and MRs
 * through ib_core. A switch node is a fabric object only: its SMA and
 * forwarding (struct ibtsim_switch, switch.c) run inside the fabric.
 */
#ifndef _IBTSIM_SIM_H
#define _IBTSIM_SIM_H

#include <linux/bits.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/ktime.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/netlink.h>
#include <linux/prandom.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <uapi/linux/ibtrace_sim.h>

#define IBTSIM_MAX_FABRICS	256
#define IBTSIM_MAX_NODES	BIT(20)
#define IBTSIM_PKEY_TBL_LEN	32
#define IBTSIM_GUID_CAP		8	/* default GUIDCap of a fabric */
#define IBTSIM_GUID_BLOCK	8	/* GUIDInfo entries per SMP */
#define IBTSIM_SL2VL_LEN	8	/* SLtoVLMappingTable: 16 4-bit VLs */
#define IBTSIM_VLARB_BLOCK	64	/* VLArbitrationTable: 32 entries */
#define IBTSIM_MFT_CAP		1024	/* MulticastFDBCap */
#define IBTSIM_MFT_BLOCK	32	/* MFT entries per SMP */
#define IBTSIM_MFT_PORTS	16	/* ports per MFT port mask */
#define IBTSIM_LID_MCAST_BASE	0xc000
#define IBTSIM_MAX_QP		4096
#define IBTSIM_MAX_QPN		0xffffff
#define IBTSIM_MAX_WR		4096
#define IBTSIM_MAX_SGE		4
#define IBTSIM_MAX_CQE		65535
#define IBTSIM_CQ_FIRST		16	/* CQ ring entries at creation */
#define IBTSIM_MAX_CQ		4096
#define IBTSIM_MAX_PD		4096
#define IBTSIM_MAX_AH		65536
#define IBTSIM_MTU		4096
#define IBTSIM_GRH_LEN		40	/* sizeof(struct ib_grh) */
#define IBTSIM_DEFAULT_PKEY	0xffff
#define IBTSIM_DEFAULT_GID_PREFIX 0xfe80000000000000ULL
#define IBTSIM_VENDOR_ID	0x001405	/* OpenIB OUI */
#define IBTSIM_DEVICE_ID	0x5a5a
#define IBTSIM_LID_PERMISSIVE	0xffff
#define IBTSIM_LID_UCAST_MAX	0xbfff
#define IBTSIM_LFT_CAP		(IBTSIM_LID_UCAST_MAX + 1)	/* LinearFDBCap */
#define IBTSIM_LFT_BLOCK	64	/* LFT entries per SMP */
/* LFT entries per chunk, allocated when the first route is set in it. */
#define IBTSIM_LFT_CHUNK	4096
#define IBTSIM_LFT_CHUNKS	(IBTSIM_LFT_CAP / IBTSIM_LFT_CHUNK)
#define IBTSIM_PORT_NONE	0xff	/* LFT entry: no route */
#define IBTSIM_MAX_FWD_HOPS	255	/* links a packet may cross */
#define IBTSIM_MISROUTE_MAX	256	/* misroute rules per switch */

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
	IBTSIM_PMA_NUM,
};

struct ibtsim_node;
struct ibtsim_dev;
struct genl_info;
struct sk_buff;
struct dentry;

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
 * @pma_base: counter values at the last PMA PortCounters reset, indexed
 *	by &enum ibtsim_pma_counter (pma.c)
 *
 * Fault knobs, protected by @node->lock (read locklessly on the data path
 * with READ_ONCE()):
 * @drop_ppm: loss probability of packets leaving the port, per million
 * @delay_us: delay added to packets leaving the port
 * @link_down: the link was taken down by the knob and stays down (set on
 *	both ends of the link)
 * @delay_last: when the last delayed packet leaving the port arrives at
 *	the peer, so that a packet never overtakes an earlier one on the
 *	link; only touched by the fabric's work items
 * @sqp: QP0 and QP1 of an HCA port, protected by @node->lock
 *
 * Counters, atomic, readable without the lock:
 * @tx_pkts: packets sent out of the port
 * @rx_pkts: packets accepted by the port
 * @drops: packets dropped at the port (no peer, state, LID, no QP, no WQE;
 *	at a switch: no LFT entry, a DR path through a missing port, a
 *	forwarding loop)
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
	u64 pma_base[IBTSIM_PMA_NUM];
	u32 drop_ppm;
	u32 delay_us;
	bool link_down;
	ktime_t delay_last;
	struct ibtsim_qp *sqp[2];

	atomic64_t tx_pkts;
	atomic64_t rx_pkts;
	atomic64_t drops;
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
 * @dev: the RDMA device of an HCA, NULL for a switch
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
	struct ibtsim_switch *sw;
	spinlock_t lock;	/* protects ports[].{SMA state,sqp}, *sw */
	struct ibtsim_port ports[];
};

/**
 * struct ibtsim_switch - SwitchInfo and forwarding state of a switch node
 * @lft: LinearForwardingTable, %IBTSIM_LFT_CAP exit ports (%IBTSIM_PORT_NONE:
 *	no route) in chunks of %IBTSIM_LFT_CHUNK; a NULL chunk has no route
 *	(a fabric of 10,000 LIDs needs 3 of the 12)
 * @lft_top: LinearFDBTop, highest LID the LFT is used for
 * @mft_top: MulticastFDBTop (kept; multicast is not forwarded)
 * @mft: MulticastForwardingTable, %IBTSIM_MFT_CAP entries of @mft_masks
 *	port masks of %IBTSIM_MFT_PORTS ports each (entry-major)
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

/**
 * struct ibtsim_fabric_stats - the packets of a fabric, accounted
 * @sent: packets handed to the fabric by a QP (ibtsim_fabric_xmit())
 * @delivered: packets handed to a receiving QP (ibtsim_qp_recv())
 * @dropped: packets dropped (ibtsim_drop(), every port's drops together)
 * @answered: requests a switch, or SM-lite's SA, rewrote into their answer
 *	(which then travels on as the same packet)
 *
 * Every packet sent ends delivered or dropped: once the fabric is quiet
 * (no packet queued or held back by a delay knob), @sent equals
 * @delivered + @dropped.
 */
struct ibtsim_fabric_stats {
	atomic64_t sent;
	atomic64_t delivered;
	atomic64_t dropped;
	atomic64_t answered;
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
 */
struct ibtsim_fabric {
	struct list_head list;
	char name[IBTRACE_SIM_NAME_MAX + 1];
	u32 id;
	u64 seq;
	struct ibtsim_node **nodes;
	u32 num_nodes;
	u32 num_cas;
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
 * @hops: links crossed so far
 * @at: port a delayed packet arrives at when @due
 * @due: arrival time of a delayed packet
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
	u16 hops;
	struct ibtsim_port *at;
	ktime_t due;
	u32 len;
	u8 data[];
};

/**
 * struct ibtsim_dev - the RDMA device of a simulated HCA
 * @ibdev: the ib_core device
 * @node: the HCA node
 * @qps: UD QPs by QP number (QP0/QP1 live in the ports); its xa_lock
 *	protects it
 * @registered: ib_register_device() succeeded
 */
struct ibtsim_dev {
	struct ib_device ibdev;
	struct ibtsim_node *node;
	struct xarray qps;
	bool registered;
};

struct ibtsim_pd {
	struct ib_pd ibpd;
};

struct ibtsim_mr {
	struct ib_mr ibmr;
};

struct ibtsim_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

/**
 * struct ibtsim_cq - completion queue
 * @ibcq: the ib_core CQ
 * @lock: protects @ring, @cap, @head, @count, @notify, @overflow
 * @ring: completions, @cap entries
 * @size: entries the consumer asked for: the most @ring may grow to
 * @cap: entries in @ring (%IBTSIM_CQ_FIRST at creation, doubled as needed)
 * @head: oldest completion
 * @count: completions in the ring
 * @notify: armed: 0, IB_CQ_SOLICITED or IB_CQ_NEXT_COMP
 * @overflow: a completion was lost because the ring was full
 * @notify_work: calls the completion handler
 * @grow_work: doubles @ring, where allocating may sleep, once it is more
 *	than half full
 */
struct ibtsim_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* protects the ring, its indexes, notify */
	struct ibtsim_cqe *ring;
	u32 size;
	u32 cap;
	u32 head;
	u32 count;
	u8 notify;
	bool overflow;
	struct work_struct notify_work;
	struct work_struct grow_work;
};

/**
 * struct ibtsim_cqe - a completion as the CQ ring keeps it
 * @wr_id: &ib_wc.wr_id (or wr_cqe)
 * @qp: &ib_wc.qp
 * @byte_len: &ib_wc.byte_len
 * @src_qp: &ib_wc.src_qp
 * @imm_data: &ib_wc.ex.imm_data
 * @slid: &ib_wc.slid
 * @pkey_index: &ib_wc.pkey_index
 * @status: &ib_wc.status
 * @opcode: &ib_wc.opcode
 * @wc_flags: &ib_wc.wc_flags (the sim sets IB_WC_GRH and IB_WC_WITH_IMM)
 * @sl: &ib_wc.sl
 * @dlid_path_bits: &ib_wc.dlid_path_bits
 * @port_num: &ib_wc.port_num
 *
 * The fields a UD, SMI or GSI completion of the sim can carry: 40 bytes
 * where &struct ib_wc takes 72; ib_mad's CQ of every HCA asks for 384.
 */
struct ibtsim_cqe {
	u64 wr_id;
	struct ib_qp *qp;
	u32 byte_len;
	u32 src_qp;
	__be32 imm_data;
	u16 slid;
	u16 pkey_index;
	u8 status;
	u8 opcode;
	u8 wc_flags;
	u8 sl;
	u8 dlid_path_bits;
	u8 port_num;
};

/**
 * struct ibtsim_rwqe - a posted receive work request
 * @wr_id: its wr_id (or wr_cqe)
 * @num_sge: entries in @sge
 * @sge: scatter list (kernel virtual addresses: virtual DMA), room for the
 *	QP's max_recv_sge entries (ib_mad's QPs: one)
 */
struct ibtsim_rwqe {
	u64 wr_id;
	u32 num_sge;
	struct ib_sge sge[];
};

/**
 * struct ibtsim_qp - UD, SMI (QP0) or GSI (QP1) queue pair
 * @ibqp: the ib_core QP
 * @ref: references: one from creation, one per packet in flight sent by or
 *	being delivered to the QP
 * @released: completed when @ref drops to zero
 * @port: port the QP is bound to (QP0/QP1 from creation, UD from INIT)
 * @lock: protects @state, @qkey, @pkey_index, @sq_psn and the receive ring
 * @state: QP state
 * @qkey: Q_Key
 * @pkey_index: P_Key index
 * @sq_psn: send PSN (kept for query)
 * @rq: receive ring, @rq_size entries of @rq_stride bytes
 * @rq_size: entries in @rq
 * @rq_stride: bytes per entry of @rq (a &struct ibtsim_rwqe with @max_rsge
 *	scatter entries)
 * @rq_head: oldest posted receive
 * @rq_count: posted receives
 * @max_rsge: scatter entries per receive
 * @max_ssge: gather entries per send
 * @sq_max: sends that may be in flight
 * @sq_inflight: sends posted and not completed
 * @sig_all: every send is signaled (IB_SIGNAL_ALL_WR)
 */
struct ibtsim_qp {
	struct ib_qp ibqp;
	refcount_t ref;
	struct completion released;
	struct ibtsim_port *port;
	spinlock_t lock;	/* protects state, keys, psn, rq ring */
	enum ib_qp_state state;
	u32 qkey;
	u16 pkey_index;
	u32 sq_psn;
	void *rq;
	u32 rq_size;
	u32 rq_stride;
	u32 rq_head;
	u32 rq_count;
	u32 max_rsge;
	u32 max_ssge;
	u32 sq_max;
	atomic_t sq_inflight;
	bool sig_all;
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

/* Entry @i of @qp's receive ring. */
static inline struct ibtsim_rwqe *ibtsim_rq_wqe(const struct ibtsim_qp *qp, u32 i)
{
	return qp->rq + (size_t)i * qp->rq_stride;
}

static inline struct ibtsim_dev *to_ibtsim_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct ibtsim_dev, ibdev);
}

static inline struct ibtsim_cq *to_ibtsim_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct ibtsim_cq, ibcq);
}

static inline struct ibtsim_qp *to_ibtsim_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct ibtsim_qp, ibqp);
}

static inline struct ibtsim_ah *to_ibtsim_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct ibtsim_ah, ibah);
}

static inline struct ibtsim_port *ibtsim_dev_port(struct ibtsim_dev *dev,
						  u32 port_num)
{
	return &dev->node->ports[port_num];
}

/* Per-object log helpers. */
#define ibtsim_node_dbg(node, fmt, ...)					\
	do {								\
		const struct ibtsim_node *__n = (node);			\
									\
		pr_debug("%s/%s: " fmt, __n->fabric->name, __n->desc,	\
			 ##__VA_ARGS__);				\
	} while (0)

/* main.c */
extern struct mutex ibtsim_fabrics_lock;
extern struct list_head ibtsim_fabrics;
struct ibtsim_topo;

/**
 * struct ibtsim_fabric_opts - how to build a fabric
 * @name: fabric name, or NULL for "simN"
 * @sm_lite: run the built-in subnet manager (SM-lite)
 * @guid_cap: GUID table entries of every HCA port and switch port 0
 * @seed: seed of the fabric's pseudo-random generator
 * @seed_set: @seed was given; else the fabric picks one
 */
struct ibtsim_fabric_opts {
	const char *name;
	bool sm_lite;
	u8 guid_cap;
	u32 seed;
	bool seed_set;
};

struct ibtsim_build;
struct net;

struct ibtsim_fabric *__ibtsim_fabric_find(const char *name);
int __ibtsim_fabric_reserve(const struct ibtsim_fabric_opts *opts,
			    struct ibtsim_topo *topo,
			    struct ibtsim_fabric **fabricp,
			    struct netlink_ext_ack *extack);
void __ibtsim_fabric_unreserve(struct ibtsim_fabric *fabric);
struct ibtsim_build *ibtsim_build_alloc(void);
void ibtsim_build_free(struct ibtsim_build *b);
void __ibtsim_fabric_build_start(struct ibtsim_fabric *fabric,
				 struct ibtsim_build *b, struct ibtsim_topo *topo,
				 struct net *net, u32 portid);
int __ibtsim_fabric_del(struct ibtsim_fabric *fabric);

/**
 * IBTSIM_NL_POLICY() - an op's request policy and the maxattr it implies
 * @p: the policy array (an array: a pointer does not build)
 *
 * Every op of the family gets its policy through this macro, so its
 * maxattr is the array's last index and nothing else: genetlink takes a
 * maxattr of 0 for the family's, and would validate (and dump, for
 * CTRL_CMD_GETPOLICY) a shorter array past its end. An array of fewer
 * than two entries does not build. A policy array ends at the last
 * attribute it defines.
 */
#define IBTSIM_NL_POLICY(p)						\
	.policy = (p),							\
	.maxattr = sizeof(p) / sizeof((p)[0]) - 1 + __must_be_array(p) +	\
		   BUILD_BUG_ON_ZERO(sizeof(p) < 2 * sizeof((p)[0]))

/* nl.c */
int ibtsim_nl_init(void);
void ibtsim_nl_exit(void);
void ibtsim_nl_build_done(struct net *net, u32 portid,
			  const struct ibtsim_fabric *fabric, const char *name,
			  const char *why);

/* dev.c */
int ibtsim_dev_create(struct ibtsim_node *node);
void ibtsim_dev_unregister(struct ibtsim_node *node);
void ibtsim_dev_free(struct ibtsim_node *node);
struct ibtsim_qp *ibtsim_qp_get(struct ibtsim_port *port, u32 qpn);
void ibtsim_qp_put(struct ibtsim_qp *qp);
void ibtsim_qp_send_done(struct ibtsim_qp *qp, struct ibtsim_pkt *pkt);
void ibtsim_qp_recv(struct ibtsim_qp *qp, const struct ibtsim_pkt *pkt,
		    const struct ib_wc *hdr);

/* sma.c */
void ibtsim_port_init_sma(struct ibtsim_port *port);
void ibtsim_link_retrain(struct ibtsim_port *port);
void ibtsim_sma_answer(struct ibtsim_node *node, u8 in_port,
		       struct ib_smp *smp);
int ibtsim_process_mad(struct ib_device *ibdev, int mad_flags, u32 port_num,
		       const struct ib_wc *in_wc, const struct ib_grh *in_grh,
		       const struct ib_mad *in, struct ib_mad *out,
		       size_t *out_mad_size, u16 *out_mad_pkey_index);

/* guid.c */
int ibtsim_guids_alloc(struct ibtsim_node *node);
void ibtsim_guids_free(struct ibtsim_node *node);
u16 ibtsim_guid_info(struct ibtsim_node *node, u8 in_port, struct ib_smp *smp,
		     bool set, bool *changed);
u64 ibtsim_port_guid_entry(struct ibtsim_port *port, unsigned int index);

/* pma.c */
void ibtsim_pma_answer(struct ibtsim_node *node, u8 in_port,
		       struct ib_mad *mad);

/* fabric.c */
int ibtsim_fabric_start(struct ibtsim_fabric *fabric);
void ibtsim_fabric_stop(struct ibtsim_fabric *fabric);
int ibtsim_fabric_xmit(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt);
void ibtsim_rnd_init(struct ibtsim_fabric *fabric, u32 seed);
bool ibtsim_chance(struct ibtsim_fabric *fabric, u32 ppm);
void ibtsim_drop(struct ibtsim_port *port, const char *why);

/* switch.c */
int ibtsim_switch_create(struct ibtsim_node *node);
void ibtsim_switch_free(struct ibtsim_node *node);
u8 ibtsim_lft_get(const struct ibtsim_switch *sw, u32 lid);
int ibtsim_lft_reserve(struct ibtsim_node *node, u32 top);
void ibtsim_lft_set(struct ibtsim_switch *sw, u32 lid, u8 port);
u16 ibtsim_switch_sma(struct ibtsim_node *node, struct ib_smp *smp, bool set);
struct ibtsim_port *ibtsim_switch_rx(struct ibtsim_port *port,
				     struct ibtsim_pkt *pkt);

/* knobs.c */
/**
 * struct ibtsim_port_knobs - a change of a port's fault knobs
 * @set: which knobs change, bits of &enum ibtsim_knob
 * @drop_ppm: new drop probability, per million
 * @delay_us: new delay, microseconds
 * @link_down: take the link down (true) or bring it up
 * @guid_cap: new GUIDCap
 * @guid_quirks: new GUIDInfo quirks, &enum ibtrace_sim_guid_quirk
 */
struct ibtsim_port_knobs {
	u32 set;
	u32 drop_ppm;
	u32 delay_us;
	bool link_down;
	u8 guid_cap;
	u32 guid_quirks;
};

/**
 * enum ibtsim_knob - the port knobs, as bit numbers of ibtsim_port_knobs.set
 * @IBTSIM_KNOB_DROP: drop_ppm
 * @IBTSIM_KNOB_DELAY: delay_us
 * @IBTSIM_KNOB_LINK: link_down
 * @IBTSIM_KNOB_GUID_CAP: guid_cap
 * @IBTSIM_KNOB_GUID_QUIRKS: guid_quirks
 * @IBTSIM_KNOB_COUNT: number of knobs
 */
enum ibtsim_knob {
	IBTSIM_KNOB_DROP,
	IBTSIM_KNOB_DELAY,
	IBTSIM_KNOB_LINK,
	IBTSIM_KNOB_GUID_CAP,
	IBTSIM_KNOB_GUID_QUIRKS,
	IBTSIM_KNOB_COUNT,
};

#define IBTSIM_DROP_PPM_MAX	1000000
#define IBTSIM_DELAY_US_MAX	1000000
#define IBTSIM_GUID_QUIRKS_ALL	(IBTRACE_SIM_GUID_QUIRK_ENTRY0_WRITABLE | \
				 IBTRACE_SIM_GUID_QUIRK_PAST_TABLE_STATUS | \
				 IBTRACE_SIM_GUID_QUIRK_ABOVE_CAP_NONZERO)

int ibtsim_port_knobs_check(const struct ibtsim_port *port,
			    const struct ibtsim_port_knobs *k,
			    enum ibtsim_knob *bad, const char **why);
void ibtsim_port_knobs_apply(struct ibtsim_port *port,
			     const struct ibtsim_port_knobs *k);
int ibtsim_misroute_check(const struct ibtsim_node *node, u32 dlid, u32 port,
			  bool del, const char **why);
int ibtsim_misroute_set(struct ibtsim_node *node, u16 dlid, u8 port);
void ibtsim_misroute_del(struct ibtsim_node *node, u16 dlid);
bool ibtsim_misroute_lookup(struct ibtsim_node *node, u16 dlid, u8 *port);

/* set_nl.c */
extern const struct nla_policy
	ibtsim_nl_set_policy[IBTRACE_SIM_A_MISROUTE + 1];
int ibtsim_nl_set_doit(struct sk_buff *skb, struct genl_info *info);
int ibtsim_nl_fill_knobs(struct sk_buff *skb, struct ibtsim_port *port);
int ibtsim_nl_fill_misroutes(struct sk_buff *skb, struct ibtsim_node *node);

/* debugfs.c */
bool ibtsim_debugfs_ports_ok(u64 nports);
void ibtsim_debugfs_init(void);
void ibtsim_debugfs_exit(void);
void ibtsim_debugfs_fabric_add(struct ibtsim_fabric *fabric);
void ibtsim_debugfs_fabric_del(struct ibtsim_fabric *fabric);

/* sm.c */
int ibtsim_sm_sweep(struct ibtsim_fabric *fabric);
void ibtsim_sm_init(struct ibtsim_fabric *fabric);
void ibtsim_sm_resweep(struct ibtsim_fabric *fabric);
void ibtsim_sm_stop(struct ibtsim_fabric *fabric);

/* sa_server.c */
/**
 * enum ibtsim_sa_verdict - what SM-lite's SA did with a packet
 * @IBTSIM_SA_PASS: not for the SA; deliver it as usual
 * @IBTSIM_SA_ANSWER: rewritten into the SA's answer, to be sent on
 * @IBTSIM_SA_DROP: for the SA but nothing to answer; dropped and counted
 */
enum ibtsim_sa_verdict {
	IBTSIM_SA_PASS,
	IBTSIM_SA_ANSWER,
	IBTSIM_SA_DROP,
};

enum ibtsim_sa_verdict ibtsim_sa_server_rx(struct ibtsim_port *port,
					   struct ibtsim_pkt *pkt);

/* budget.c */
void ibtsim_budget_note_mad_qp(u32 recv_wr);
u64 ibtsim_node_cost(u8 type, u8 num_ports, u8 guid_cap);
u64 ibtsim_fabric_cost(u32 switches, u32 lids, u64 ports);
u64 ibtsim_budget(void);
u64 __ibtsim_budget_room(void);
bool __ibtsim_budget_take(u64 bytes);
void __ibtsim_budget_give(u64 bytes);
u64 __ibtsim_budget_used(void);
void ibtsim_budget_error(struct ibtsim_topo *topo);

/* topo.c */
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
 * @line: line of the node header
 * @ports: @num_ports + 1 entries, 0 unused
 */
struct ibtsim_topo_node {
	u8 type;
	u8 num_ports;
	char name[IBTRACE_SIM_NODE_NAME_MAX + 1];
	u64 node_guid;
	u64 sys_guid;
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
	u64 mem_cost;
	u32 lids;
	u32 switches;
	u64 ports;
	bool over_budget;
};

int ibtsim_topo_parse(struct ibtsim_topo *topo, const char *text, size_t len);
void ibtsim_topo_free(struct ibtsim_topo *topo);

#endif /* _IBTSIM_SIM_H */
