// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - the Performance Management Agent (class 0x04, IBA 16.1).
 *
 * HCAs answer it from process_mad() (sma.c), switches from their GMP path
 * (switch.c); both rewrite the request in place into the GetResp.
 *
 * Attributes: ClassPortInfo (Get), PortCounters (Get, Set) and
 * PortCountersExtended (Get, Set). PortSelect names the port (0xFF: the
 * sum of every external port; on an HCA 0 means the arrival port).
 * The counters come from the ports' packet counters:
 * - PortXmitPkts / PortRcvPkts: packets sent out of / accepted by the
 *   port (and their unicast twins in PortCountersExtended);
 * - the port's drops: PortRcvSwitchRelayErrors on a switch (where a
 *   packet is dropped at its arrival port: no route, a DR path through a
 *   missing port, a loop), PortRcvErrors on an HCA;
 * - PortXmitData / PortRcvData: 4-byte words of the packets sent across
 *   / arrived over the port's link, every VL;
 * - PortXmitWait: microseconds packets waited for credits at the port
 *   and none could leave (flowctl.c; a wait going on counts up to now);
 *   CounterSelect2 bit 0 selects it; ClassPortInfo says it is counted
 *   (CapabilityMask bit 12: perfquery shows it only then);
 * - ExcessiveBufferOverrunErrors: packets discarded for want of room in
 *   the port's buffer (their sender ignored the credits); such a packet
 *   is a receive error (IBA: buffer overrun), in PortRcvErrors on a
 *   switch too, not in PortRcvSwitchRelayErrors;
 * - every other error counter: 0, nothing in the fabric makes them.
 * 32-bit and 16-bit fields saturate at their maximum, as IBA wants.
 * A Set writes the value given into each counter CounterSelect names (0
 * to clear, as perfquery -r does) by moving the port's baseline: the
 * fabric's own counters (netlink node dump) keep counting.
 */
#include <linux/kernel.h>
#include <rdma/ib_pma.h>

#include "sim.h"
#include "loc.h"

#define IBTSIM_PMA_CLASS_VERSION	1
#define IBTSIM_PMA_RESP_TIME	18	/* 4.096 us * 2^18, about 1 s */
#define IBTSIM_PMA_ALL_PORTS	0xff
/* CounterSelect bit of PortRcvSwitchRelayErrors (not in ib_pma.h). */
#define IBTSIM_PMA_SEL_SWITCH_RELAY_ERRORS cpu_to_be16(0x0020)
/* CounterSelect2 (PortCounters byte 18, ib_pma.h's reserved1): bit 0. */
#define IBTSIM_PMA_SEL2_XMIT_WAIT	0x01
/* ExcessiveBufferOverrunErrors: the low 4 bits of byte 19. */
#define IBTSIM_PMA_OVERRUN_MASK		0x0f

/**
 * ibtsim_port_counter - one packet counter of a port
 * @port: the port
 * @c: which
 *
 * Return: the counter (since the port was made; the PMA's baseline is
 * not subtracted).
 */
atomic64_t *ibtsim_port_counter(struct ibtsim_port *port,
				enum ibtsim_pma_counter c)
{
	switch (c) {
	case IBTSIM_PMA_TX_PKTS:
		return &port->tx_pkts;
	case IBTSIM_PMA_RX_PKTS:
		return &port->rx_pkts;
	case IBTSIM_PMA_XMIT_DATA:
		return &port->xmit_words;
	case IBTSIM_PMA_RCV_DATA:
		return &port->rcv_words;
	case IBTSIM_PMA_XMIT_WAIT:
		return &port->xmit_wait_us;
	case IBTSIM_PMA_OVERRUNS:
		return &port->overruns;
	default:
		return &port->drops;
	}
}

/* Ports PortSelect names: [*first, *last]; 0 or a MAD status. */
static u16 ibtsim_pma_ports(struct ibtsim_node *node, u8 in_port, u8 select,
			    unsigned int *first, unsigned int *last)
{
	if (select == IBTSIM_PMA_ALL_PORTS) {
		*first = 1;
		*last = node->num_ports;
		return 0;
	}
	if (!select && !node->sw)
		select = in_port;
	if (select > node->num_ports)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	*first = select;
	*last = select;
	return 0;
}

/* Counter @c of @port as the PMA reads it (PortXmitWait: up to now). */
static u64 ibtsim_pma_counter_now(struct ibtsim_port *port,
				  enum ibtsim_pma_counter c)
{
	if (c == IBTSIM_PMA_XMIT_WAIT)
		return ibtsim_port_xmit_wait_us(port);
	return atomic64_read(ibtsim_port_counter(port, c));
}

/* Sum of the selected ports' counters since their baselines. */
static void ibtsim_pma_read(struct ibtsim_node *node, unsigned int first,
			    unsigned int last, u64 *val)
{
	unsigned long flags;
	unsigned int n, c;

	memset(val, 0, IBTSIM_PMA_NUM * sizeof(*val));
	spin_lock_irqsave(&node->lock, flags);
	for (n = first; n <= last; n++) {
		struct ibtsim_port *port = &node->ports[n];

		for (c = 0; c < IBTSIM_PMA_NUM; c++) {
			u64 v = ibtsim_pma_counter_now(port, c) -
				port->pma_base[c];

			val[c] = v > U64_MAX - val[c] ? U64_MAX : val[c] + v;
		}
	}
	spin_unlock_irqrestore(&node->lock, flags);
}

/* Make counter @c of the selected ports read @v from now on. */
static void ibtsim_pma_write(struct ibtsim_node *node, unsigned int first,
			     unsigned int last, enum ibtsim_pma_counter c, u64 v)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&node->lock, flags);
	for (n = first; n <= last; n++) {
		struct ibtsim_port *port = &node->ports[n];

		/* modular: current - baseline == v */
		port->pma_base[c] = ibtsim_pma_counter_now(port, c) - v;
	}
	spin_unlock_irqrestore(&node->lock, flags);
}

static __be32 ibtsim_sat32(u64 v)
{
	return cpu_to_be32(min_t(u64, v, U32_MAX));
}

static __be16 ibtsim_sat16(u64 v)
{
	return cpu_to_be16(min_t(u64, v, U16_MAX));
}

static u16 ibtsim_pma_class_port_info(struct ib_pma_mad *pmad, bool set)
{
	struct ib_class_port_info *cpi = (struct ib_class_port_info *)pmad->data;

	if (set)
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	memset(pmad->data, 0, sizeof(pmad->data));
	cpi->base_version = IB_MGMT_BASE_VERSION;
	cpi->class_version = IBTSIM_PMA_CLASS_VERSION;
	cpi->capability_mask = IB_PMA_CLASS_CAP_ALLPORTSELECT |
			       IB_PMA_CLASS_CAP_EXT_WIDTH |
			       IB_PMA_CLASS_CAP_XMIT_WAIT;
	ib_set_cpi_resp_time(cpi, IBTSIM_PMA_RESP_TIME);
	return 0;
}

/* What a Set asks of one counter: its CounterSelect bits and its value. */
struct ibtsim_pma_set {
	__be16 sel;
	enum ibtsim_pma_counter c;
	u64 v;
};

/**
 * struct ibtsim_pma_attr - what differs between the counter attributes
 * @sets: the counters a Set may write, from the request's data, into
 *	@sets (at most %IBTSIM_PMA_NUM); returns how many
 * @fill: the counters @val into the answer's data
 */
struct ibtsim_pma_attr {
	unsigned int (*sets)(const struct ibtsim_node *node, const void *data,
			     struct ibtsim_pma_set *sets);
	void (*fill)(const struct ibtsim_node *node, void *data,
		     const u64 *val);
};

static unsigned int ibtsim_pma_pc_sets(const struct ibtsim_node *node,
				       const void *data,
				       struct ibtsim_pma_set *sets)
{
	const struct ib_pma_portcounters *pc = data;

	sets[0] = (struct ibtsim_pma_set) { IB_PMA_SEL_PORT_XMIT_PACKETS,
		IBTSIM_PMA_TX_PKTS, be32_to_cpu(pc->port_xmit_packets) };
	sets[1] = (struct ibtsim_pma_set) { IB_PMA_SEL_PORT_RCV_PACKETS,
		IBTSIM_PMA_RX_PKTS, be32_to_cpu(pc->port_rcv_packets) };
	sets[2] = (struct ibtsim_pma_set) {
		node->sw ? IBTSIM_PMA_SEL_SWITCH_RELAY_ERRORS :
			   IB_PMA_SEL_PORT_RCV_ERRORS, IBTSIM_PMA_DROPS,
		be16_to_cpu(node->sw ? pc->port_rcv_switch_relay_errors :
				       pc->port_rcv_errors) };
	sets[3] = (struct ibtsim_pma_set) { IB_PMA_SEL_PORT_XMIT_DATA,
		IBTSIM_PMA_XMIT_DATA, be32_to_cpu(pc->port_xmit_data) };
	sets[4] = (struct ibtsim_pma_set) { IB_PMA_SEL_PORT_RCV_DATA,
		IBTSIM_PMA_RCV_DATA, be32_to_cpu(pc->port_rcv_data) };
	sets[5] = (struct ibtsim_pma_set) { IB_PMA_SEL_EXCESSIVE_BUFFER_OVERRUNS,
		IBTSIM_PMA_OVERRUNS,
		pc->link_overrun_errors & IBTSIM_PMA_OVERRUN_MASK };
	/* PortXmitWait: CounterSelect2 selects it, not CounterSelect */
	sets[6] = (struct ibtsim_pma_set) {
		pc->reserved1 & IBTSIM_PMA_SEL2_XMIT_WAIT ? cpu_to_be16(0xffff) : 0,
		IBTSIM_PMA_XMIT_WAIT, be32_to_cpu(pc->port_xmit_wait) };
	return 7;
}

static void ibtsim_pma_pc_fill(const struct ibtsim_node *node, void *data,
			       const u64 *val)
{
	struct ib_pma_portcounters *pc = data;

	if (node->sw) {
		pc->port_rcv_switch_relay_errors =
			ibtsim_sat16(val[IBTSIM_PMA_DROPS] -
				     min(val[IBTSIM_PMA_DROPS],
					 val[IBTSIM_PMA_OVERRUNS]));
		pc->port_rcv_errors = ibtsim_sat16(val[IBTSIM_PMA_OVERRUNS]);
	} else {
		pc->port_rcv_errors = ibtsim_sat16(val[IBTSIM_PMA_DROPS]);
	}
	pc->port_xmit_packets = ibtsim_sat32(val[IBTSIM_PMA_TX_PKTS]);
	pc->port_rcv_packets = ibtsim_sat32(val[IBTSIM_PMA_RX_PKTS]);
	pc->port_xmit_data = ibtsim_sat32(val[IBTSIM_PMA_XMIT_DATA]);
	pc->port_rcv_data = ibtsim_sat32(val[IBTSIM_PMA_RCV_DATA]);
	pc->port_xmit_wait = ibtsim_sat32(val[IBTSIM_PMA_XMIT_WAIT]);
	pc->link_overrun_errors =
		min_t(u64, val[IBTSIM_PMA_OVERRUNS], IBTSIM_PMA_OVERRUN_MASK);
}

static const struct ibtsim_pma_attr ibtsim_pma_port_counters = {
	.sets = ibtsim_pma_pc_sets,
	.fill = ibtsim_pma_pc_fill,
};

/* PortXmitPkts wins over its unicast twin when both are selected. */
static unsigned int ibtsim_pma_pcx_sets(const struct ibtsim_node *node,
					const void *data,
					struct ibtsim_pma_set *sets)
{
	const struct ib_pma_portcounters_ext *pc = data;
	__be16 sel = pc->counter_select;

	sets[0] = (struct ibtsim_pma_set) {
		IB_PMA_SELX_PORT_XMIT_PACKETS |
		IB_PMA_SELX_PORT_UNI_XMIT_PACKETS, IBTSIM_PMA_TX_PKTS,
		be64_to_cpu(sel & IB_PMA_SELX_PORT_XMIT_PACKETS ?
			    pc->port_xmit_packets :
			    pc->port_unicast_xmit_packets) };
	sets[1] = (struct ibtsim_pma_set) {
		IB_PMA_SELX_PORT_RCV_PACKETS |
		IB_PMA_SELX_PORT_UNI_RCV_PACKETS, IBTSIM_PMA_RX_PKTS,
		be64_to_cpu(sel & IB_PMA_SELX_PORT_RCV_PACKETS ?
			    pc->port_rcv_packets :
			    pc->port_unicast_rcv_packets) };
	sets[2] = (struct ibtsim_pma_set) { IB_PMA_SELX_PORT_XMIT_DATA,
		IBTSIM_PMA_XMIT_DATA, be64_to_cpu(pc->port_xmit_data) };
	sets[3] = (struct ibtsim_pma_set) { IB_PMA_SELX_PORT_RCV_DATA,
		IBTSIM_PMA_RCV_DATA, be64_to_cpu(pc->port_rcv_data) };
	return 4;
}

static void ibtsim_pma_pcx_fill(const struct ibtsim_node *node, void *data,
				const u64 *val)
{
	struct ib_pma_portcounters_ext *pc = data;

	pc->port_xmit_packets = cpu_to_be64(val[IBTSIM_PMA_TX_PKTS]);
	pc->port_rcv_packets = cpu_to_be64(val[IBTSIM_PMA_RX_PKTS]);
	pc->port_xmit_data = cpu_to_be64(val[IBTSIM_PMA_XMIT_DATA]);
	pc->port_rcv_data = cpu_to_be64(val[IBTSIM_PMA_RCV_DATA]);
	/* The fabric forwards unicast only. */
	pc->port_unicast_xmit_packets = pc->port_xmit_packets;
	pc->port_unicast_rcv_packets = pc->port_rcv_packets;
}

static const struct ibtsim_pma_attr ibtsim_pma_port_counters_ext = {
	.sets = ibtsim_pma_pcx_sets,
	.fill = ibtsim_pma_pcx_fill,
};

/*
 * PortCounters and PortCountersExtended: PortSelect, the Set of the
 * counters @attr's sets name, the read and the answer (PortSelect,
 * CounterSelect and @attr's counters, the rest zeroed). 0 or a MAD status.
 */
static u16 ibtsim_pma_counters(struct ibtsim_node *node, u8 in_port,
			       struct ib_pma_mad *pmad, bool set,
			       const struct ibtsim_pma_attr *attr)
{
	struct ib_pma_portcounters *head =
		(struct ib_pma_portcounters *)pmad->data;
	__be16 sel = head->counter_select;
	u8 select = head->port_select;
	struct ibtsim_pma_set sets[IBTSIM_PMA_NUM];
	u64 val[IBTSIM_PMA_NUM];
	unsigned int first, last, i, n;
	u16 status;

	BUILD_BUG_ON(offsetof(struct ib_pma_portcounters, port_select) !=
		     offsetof(struct ib_pma_portcounters_ext, port_select));
	BUILD_BUG_ON(offsetof(struct ib_pma_portcounters, counter_select) !=
		     offsetof(struct ib_pma_portcounters_ext, counter_select));
	status = ibtsim_pma_ports(node, in_port, select, &first, &last);
	if (status)
		return status;
	n = set ? attr->sets(node, pmad->data, sets) : 0;
	for (i = 0; i < n; i++)
		if (sel & sets[i].sel)
			ibtsim_pma_write(node, first, last, sets[i].c,
					 sets[i].v);

	ibtsim_pma_read(node, first, last, val);
	memset(pmad->data, 0, sizeof(pmad->data));
	head->port_select = select;
	head->counter_select = sel;
	attr->fill(node, pmad->data, val);
	return 0;
}

static u16 ibtsim_pma(struct ibtsim_node *node, u8 in_port,
		      struct ib_pma_mad *pmad)
{
	bool set = pmad->mad_hdr.method == IB_MGMT_METHOD_SET;

	if (pmad->mad_hdr.base_version != IB_MGMT_BASE_VERSION ||
	    pmad->mad_hdr.class_version != IBTSIM_PMA_CLASS_VERSION)
		return IB_MGMT_MAD_STATUS_BAD_VERSION;

	switch (pmad->mad_hdr.attr_id) {
	case IB_PMA_CLASS_PORT_INFO:
		return ibtsim_pma_class_port_info(pmad, set);
	case IB_PMA_PORT_COUNTERS:
		return ibtsim_pma_counters(node, in_port, pmad, set,
					   &ibtsim_pma_port_counters);
	case IB_PMA_PORT_COUNTERS_EXT:
		return ibtsim_pma_counters(node, in_port, pmad, set,
					   &ibtsim_pma_port_counters_ext);
	default:
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
}

/**
 * ibtsim_pma_answer - turn a PMA Get/Set into the PMA's GetResp
 * @node: the node answering
 * @in_port: port the MAD arrived by
 * @mad: the request (class 0x04, method Get or Set), rewritten in place
 *
 * Any context.
 */
void ibtsim_pma_answer(struct ibtsim_node *node, u8 in_port, struct ib_mad *mad)
{
	struct ib_pma_mad *pmad = (struct ib_pma_mad *)mad;
	u16 status;

	BUILD_BUG_ON(sizeof(*pmad) != sizeof(*mad));
	status = ibtsim_pma(node, in_port, pmad);
	pmad->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	pmad->mad_hdr.status = cpu_to_be16(status);
	ibtsim_node_dbg(node, "PMA port %u attr 0x%04x: 0x%04x\n", in_port,
			be16_to_cpu(pmad->mad_hdr.attr_id), status);
}
