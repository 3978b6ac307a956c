// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - switches: their SMA attributes and their forwarding.
 *
 * A switch is a fabric object without an RDMA device. Port 0 is its
 * management port: it holds the switch's LID (PortInfo of port 0), and a
 * packet routed to port 0 is consumed by the switch itself.
 *
 * Forwarding, for a packet arriving at an external port:
 * - a directed-route SMP inside the directed part of its path is handled
 *   by the switch's SMI as IBA 14.2.2 says (hop pointer, InitialPath,
 *   ReturnPath, DrSLID/DrDLID for LID-routed parts at either end),
 *   whatever its LRH DLID;
 * - anything else is routed by its LRH DLID: the permissive LID and the
 *   switch's own LIDs go to port 0, other unicast LIDs up to LinearFDBTop
 *   through the LinearForwardingTable; no entry (0xFF, a port the switch
 *   does not have, or a LID above LinearFDBTop) drops and counts it.
 *
 * At port 0, SMP Get/Set are answered by the SMA (sma.c, with SwitchInfo,
 * LinearForwardingTable, MulticastForwardingTable and the per port pair
 * SLtoVLMappingTable from here). GMP Get/Set of the Performance
 * Management class go to the switch's PMA (pma.c); those of every other
 * class are answered as a Linux host without an agent for the class does
 * (ib_mad's unmatched response): GetResp, status 0x000C.
 * Other methods addressed to the switch are dropped. The answer is the
 * request rewritten in place, which then leaves the switch like any
 * packet: no allocation on the forwarding path.
 *
 * Everything runs in the fabric's work item; the node lock is taken for
 * the LID, the tables and the port states only.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <rdma/ib_smi.h>

#include "sim.h"
#include "loc.h"

#define IBTSIM_SW_LIFE_TIME	0x12	/* about 1 s */
#define IBTSIM_SW_LIDS_PER_PORT	1

/**
 * ibtsim_switch_create - give a switch node its switch state
 * @node: the node, of type switch
 *
 * The LFT starts empty (every entry 0xFF) and LinearFDBTop at 0: nothing
 * is LID-routed through the switch until an SM programs it.
 *
 * Return: 0 or -ENOMEM.
 */
int ibtsim_switch_create(struct ibtsim_node *node)
{
	unsigned int pairs = (node->num_ports + 1) * (node->num_ports + 1);
	struct ibtsim_switch *sw;

	sw = kzalloc(sizeof(*sw), GFP_KERNEL);
	if (!sw)
		return -ENOMEM;
	sw->mft_masks = DIV_ROUND_UP(node->num_ports + 1, IBTRACE_IBA_MFT_MASK_PORTS);
	sw->mft = ibtsim_zalloc_array(IBTSIM_MFT_CAP * sw->mft_masks,
				      sizeof(*sw->mft));
	if (!sw->mft)
		goto err_free_sw;
	sw->sl2vl = ibtsim_zalloc_array(pairs, IBTSIM_SL2VL_LEN);
	if (!sw->sl2vl)
		goto err_free_mft;
	sw->life_time = IBTSIM_SW_LIFE_TIME;
	sw->def_mc_primary = IBTRACE_IBA_LFT_NO_PORT;
	sw->def_mc_not_primary = IBTRACE_IBA_LFT_NO_PORT;
	xa_init(&sw->misroute);
	node->sw = sw;
	return 0;

err_free_mft:
	kvfree(sw->mft);
err_free_sw:
	kfree(sw);
	return -ENOMEM;
}

void ibtsim_switch_free(struct ibtsim_node *node)
{
	u32 i;

	if (!node->sw)
		return;
	xa_destroy(&node->sw->misroute);
	kvfree(node->sw->sl2vl);
	kvfree(node->sw->mft);
	for (i = 0; i < IBTSIM_LFT_CHUNKS; i++)
		kfree(node->sw->lft[i]);
	kfree(node->sw);
	node->sw = NULL;
}

/* LinearForwardingTable */

static u8 *ibtsim_lft_chunk_alloc(gfp_t gfp)
{
	u8 *chunk = kmalloc(IBTSIM_LFT_CHUNK, gfp);

	if (chunk)
		memset(chunk, IBTRACE_IBA_LFT_NO_PORT, IBTSIM_LFT_CHUNK);
	return chunk;
}

/**
 * ibtsim_lft_get - the LFT entry of @lid
 * @sw: the switch; its node's lock held
 * @lid: a LID below %IBTSIM_LFT_CAP
 *
 * Return: the exit port, or %IBTRACE_IBA_LFT_NO_PORT.
 */
u8 ibtsim_lft_get(const struct ibtsim_switch *sw, u32 lid)
{
	const u8 *chunk = sw->lft[lid / IBTSIM_LFT_CHUNK];

	return chunk ? chunk[lid % IBTSIM_LFT_CHUNK] : IBTRACE_IBA_LFT_NO_PORT;
}

/**
 * ibtsim_lft_set - set the LFT entry of @lid
 * @sw: the switch; its node's lock held
 * @lid: a LID below %IBTSIM_LFT_CAP
 * @port: exit port, or %IBTRACE_IBA_LFT_NO_PORT
 *
 * A route (not %IBTRACE_IBA_LFT_NO_PORT) needs the chunk of @lid: reserved with
 * ibtsim_lft_reserve() before.
 */
void ibtsim_lft_set(struct ibtsim_switch *sw, u32 lid, u8 port)
{
	u8 *chunk = sw->lft[lid / IBTSIM_LFT_CHUNK];

	if (chunk)
		chunk[lid % IBTSIM_LFT_CHUNK] = port;
	else
		WARN_ON_ONCE(port != IBTRACE_IBA_LFT_NO_PORT);
}

/**
 * ibtsim_lft_reserve - allocate the LFT chunks of LIDs 0..@top of a switch
 * @node: the switch node; its lock not held, process context
 * @top: the highest LID to be routed (below %IBTSIM_LFT_CAP)
 *
 * Return: 0 or -ENOMEM.
 */
int ibtsim_lft_reserve(struct ibtsim_node *node, u32 top)
{
	struct ibtsim_switch *sw = node->sw;
	unsigned long flags;
	u32 i;
	u8 *chunk;

	for (i = 0; i <= top / IBTSIM_LFT_CHUNK; i++) {
		if (READ_ONCE(sw->lft[i]))
			continue;
		chunk = ibtsim_lft_chunk_alloc(GFP_KERNEL);
		if (!chunk)
			return -ENOMEM;
		spin_lock_irqsave(&node->lock, flags);
		if (!sw->lft[i]) {
			WRITE_ONCE(sw->lft[i], chunk);
			chunk = NULL;
		}
		spin_unlock_irqrestore(&node->lock, flags);
		kfree(chunk);
	}
	return 0;
}

/* SMA attributes */

/* Caller holds the node lock. */
static void __ibtsim_fill_switch_info(struct ibtsim_node *node,
				      struct ibtrace_iba_switch_info *si)
{
	struct ibtsim_switch *sw = node->sw;

	memset(si, 0, sizeof(*si));
	si->lft_cap = cpu_to_be16(IBTSIM_LFT_CAP);
	si->mft_cap = cpu_to_be16(IBTSIM_MFT_CAP);
	si->lft_top = cpu_to_be16(sw->lft_top);
	si->mft_top = cpu_to_be16(sw->mft_top);
	si->default_port = sw->default_port;
	si->def_mc_primary = sw->def_mc_primary;
	si->def_mc_not_primary = sw->def_mc_not_primary;
	si->life_psc_osl = sw->life_time << IBTRACE_IBA_SI_LIFE_SHIFT |
			   (sw->port_state_change ? IBTRACE_IBA_SI_PSC : 0);
	si->lids_per_port = cpu_to_be16(IBTSIM_SW_LIDS_PER_PORT);
	/* Tables are kept per port; enforcement is not simulated. */
	si->pkey_enf_cap = cpu_to_be16(IBTSIM_PKEY_TBL_LEN);
}

static u16 ibtsim_switch_info(struct ibtsim_node *node, struct ib_smp *smp,
			      bool set)
{
	struct ibtrace_iba_switch_info *si = (struct ibtrace_iba_switch_info *)smp->data;
	struct ibtsim_switch *sw = node->sw;
	u16 top = be16_to_cpu(si->lft_top);
	unsigned long flags;
	u16 status = 0;

	BUILD_BUG_ON(sizeof(*si) > IB_SMP_DATA_SIZE);
	if (smp->attr_mod)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;

	spin_lock_irqsave(&node->lock, flags);
	if (set && top >= IBTSIM_LFT_CAP) {
		status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	} else if (set) {
		sw->lft_top = top;
		sw->mft_top = be16_to_cpu(si->mft_top);
		sw->default_port = si->default_port;
		sw->def_mc_primary = si->def_mc_primary;
		sw->def_mc_not_primary = si->def_mc_not_primary;
		sw->life_time = si->life_psc_osl >> IBTRACE_IBA_SI_LIFE_SHIFT;
		/* PortStateChange: writing 1 clears it. */
		if (si->life_psc_osl & IBTRACE_IBA_SI_PSC)
			sw->port_state_change = false;
	}
	__ibtsim_fill_switch_info(node, si);
	spin_unlock_irqrestore(&node->lock, flags);
	return status;
}

/* LinearForwardingTable: AttributeModifier = block of 64 LIDs. */
static u16 ibtsim_switch_lft(struct ibtsim_node *node, struct ib_smp *smp,
			     bool set)
{
	u32 block = be32_to_cpu(smp->attr_mod);
	struct ibtsim_switch *sw = node->sw;
	u32 c = block * IBTRACE_IBA_LFT_BLOCK / IBTSIM_LFT_CHUNK;
	u32 off = block * IBTRACE_IBA_LFT_BLOCK % IBTSIM_LFT_CHUNK;
	u8 *spare = NULL;
	unsigned long flags;

	BUILD_BUG_ON(IBTSIM_LFT_CAP % IBTSIM_LFT_CHUNK);
	BUILD_BUG_ON(IBTSIM_LFT_CHUNK % IBTRACE_IBA_LFT_BLOCK);
	if (block >= IBTSIM_LFT_CAP / IBTRACE_IBA_LFT_BLOCK)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	/* A route into a chunk not there yet: the chunk first (any context). */
	if (set && !READ_ONCE(sw->lft[c]) &&
	    memchr_inv(smp->data, IBTRACE_IBA_LFT_NO_PORT, IBTRACE_IBA_LFT_BLOCK)) {
		spare = ibtsim_lft_chunk_alloc(GFP_ATOMIC);
		if (!spare)
			return IB_MGMT_MAD_STATUS_BUSY;
	}

	spin_lock_irqsave(&node->lock, flags);
	if (spare && !sw->lft[c]) {
		WRITE_ONCE(sw->lft[c], spare);
		spare = NULL;
	}
	if (set && sw->lft[c])
		memcpy(sw->lft[c] + off, smp->data, IBTRACE_IBA_LFT_BLOCK);
	if (sw->lft[c])
		memcpy(smp->data, sw->lft[c] + off, IBTRACE_IBA_LFT_BLOCK);
	else
		memset(smp->data, IBTRACE_IBA_LFT_NO_PORT, IBTRACE_IBA_LFT_BLOCK);
	spin_unlock_irqrestore(&node->lock, flags);
	kfree(spare);
	memset(smp->data + IBTRACE_IBA_LFT_BLOCK, 0,
	       IB_SMP_DATA_SIZE - IBTRACE_IBA_LFT_BLOCK);
	return 0;
}

/*
 * MulticastForwardingTable (IBA 14.2.5.12): AttributeModifier bits 0..8
 * the block of 32 MLIDs (from 0xC000), bits 28..31 the position of the
 * 16-port mask; the bits between are reserved. %IBTSIM_MFT_CAP entries.
 */
static u16 ibtsim_switch_mft(struct ibtsim_node *node, struct ib_smp *smp,
			     bool set)
{
	struct ibtsim_switch *sw = node->sw;
	__be16 *wire = (__be16 *)smp->data;
	u32 am = be32_to_cpu(smp->attr_mod);
	u32 block = am & 0x1ff, pos = am >> 28;
	unsigned long flags;
	unsigned int i;
	u16 *entry;

	BUILD_BUG_ON(IBTRACE_IBA_MFT_BLOCK * sizeof(*wire) != IB_SMP_DATA_SIZE);
	BUILD_BUG_ON(IBTSIM_MFT_CAP % IBTRACE_IBA_MFT_BLOCK);
	if ((am & 0x0ffffe00) || block >= IBTSIM_MFT_CAP / IBTRACE_IBA_MFT_BLOCK ||
	    pos >= sw->mft_masks)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	entry = sw->mft + block * IBTRACE_IBA_MFT_BLOCK * sw->mft_masks + pos;

	spin_lock_irqsave(&node->lock, flags);
	for (i = 0; i < IBTRACE_IBA_MFT_BLOCK; i++, entry += sw->mft_masks) {
		if (set)
			*entry = be16_to_cpu(wire[i]);
		wire[i] = cpu_to_be16(*entry);
	}
	spin_unlock_irqrestore(&node->lock, flags);
	return 0;
}

/*
 * SLtoVLMappingTable (IBA 14.2.5.8) of a switch: AttributeModifier bits
 * 8..15 the input port, bits 0..7 the output port (0: port 0).
 */
static u16 ibtsim_switch_sl2vl(struct ibtsim_node *node, struct ib_smp *smp,
			       bool set)
{
	u32 am = be32_to_cpu(smp->attr_mod);
	u32 in = (am >> 8) & 0xff, out = am & 0xff;
	unsigned long flags;
	u8 *table;

	if ((am & ~0xffffU) || in > node->num_ports || out > node->num_ports)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	table = node->sw->sl2vl +
		(in * (node->num_ports + 1) + out) * IBTSIM_SL2VL_LEN;

	spin_lock_irqsave(&node->lock, flags);
	if (set)
		memcpy(table, smp->data, IBTSIM_SL2VL_LEN);
	memcpy(smp->data, table, IBTSIM_SL2VL_LEN);
	spin_unlock_irqrestore(&node->lock, flags);
	memset(smp->data + IBTSIM_SL2VL_LEN, 0,
	       IB_SMP_DATA_SIZE - IBTSIM_SL2VL_LEN);
	return 0;
}

/**
 * ibtsim_switch_sma - the switch-only attributes of the SMA
 * @node: a switch node
 * @smp: the request, answered in place
 * @set: SubnSet (else SubnGet)
 *
 * Return: the MAD status; 0x000C for attributes the switch does not have.
 */
u16 ibtsim_switch_sma(struct ibtsim_node *node, struct ib_smp *smp, bool set)
{
	switch (smp->attr_id) {
	case IB_SMP_ATTR_SWITCH_INFO:
		return ibtsim_switch_info(node, smp, set);
	case IB_SMP_ATTR_LINEAR_FORWARD_TABLE:
		return ibtsim_switch_lft(node, smp, set);
	case IB_SMP_ATTR_MCAST_FORWARD_TABLE:
		return ibtsim_switch_mft(node, smp, set);
	case IB_SMP_ATTR_SL_TO_VL_TABLE:
		return ibtsim_switch_sl2vl(node, smp, set);
	default:
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
}

/* forwarding */

enum ibtsim_fwd {
	IBTSIM_FWD_DROP,	/* drop, reason given */
	IBTSIM_FWD_PORT,	/* leave by the port given */
	IBTSIM_FWD_LOCAL,	/* for the switch itself (port 0) */
	IBTSIM_FWD_LID,		/* route by the (new) LRH DLID */
};

/* The switch's base LID (port 0), 0 if none yet. */
static u16 ibtsim_switch_lid(struct ibtsim_node *node, u8 *lmc)
{
	unsigned long flags;
	u16 lid;

	spin_lock_irqsave(&node->lock, flags);
	lid = node->ports[0].lid;
	*lmc = node->ports[0].lmc;
	spin_unlock_irqrestore(&node->lock, flags);
	return lid;
}

/* Is @dlid the permissive LID or one of the switch's? */
static bool ibtsim_switch_own_lid(struct ibtsim_node *node, u16 dlid)
{
	u16 lid;
	u8 lmc;

	if (dlid == be16_to_cpu(IB_LID_PERMISSIVE))
		return true;
	lid = ibtsim_switch_lid(node, &lmc);
	return lid && dlid >= lid && dlid - lid < (1U << lmc);
}

/* Unicast routing of @dlid: an exit port, 0 (the switch) or PORT_NONE. */
static u8 ibtsim_switch_lookup(struct ibtsim_node *node, u16 dlid)
{
	unsigned long flags;
	u8 port = IBTRACE_IBA_LFT_NO_PORT;

	if (ibtsim_switch_own_lid(node, dlid))
		return 0;
	spin_lock_irqsave(&node->lock, flags);
	if (dlid <= node->sw->lft_top && dlid < IBTSIM_LFT_CAP)
		port = ibtsim_lft_get(node->sw, dlid);
	spin_unlock_irqrestore(&node->lock, flags);
	return port;
}

/* The LRH SLID of what the switch sends from port 0. */
static u16 ibtsim_switch_slid(struct ibtsim_node *node)
{
	u8 lmc;

	return ibtsim_switch_lid(node, &lmc) ?: be16_to_cpu(IB_LID_PERMISSIVE);
}

/* Continue a DR SMP LID-routed to @lid (a LID-routed end of its path). */
static enum ibtsim_fwd ibtsim_dr_to_lid(struct ibtsim_node *node,
					struct ibtsim_pkt *pkt, __be16 lid)
{
	pkt->dlid = be16_to_cpu(lid);
	pkt->slid = ibtsim_switch_slid(node);
	return IBTSIM_FWD_LID;
}

/*
 * The SMI of the switch for a directed-route SMP (IBA 14.2.2.2, C14-9 for
 * outgoing, C14-13 for returning SMPs), receive and send processing in
 * one step. @in_port: arrival port; @ours: the LRH DLID is permissive or
 * the switch's, so an SMP in a LID-routed part of its path has reached
 * the end of that part here (an answer generated here is addressed so).
 */
static enum ibtsim_fwd ibtsim_switch_dr(struct ibtsim_node *node, u8 in_port,
					bool ours, struct ibtsim_pkt *pkt,
					u8 *out, enum ibtsim_drop_reason *why)
{
	struct ib_smp *smp = (struct ib_smp *)pkt->data;
	u8 cnt = smp->hop_cnt;

	if (cnt >= IB_SMP_MAX_PATH_HOPS) {
		*why = IBTSIM_DROP_DR_HOP_COUNT;
		return IBTSIM_FWD_DROP;
	}
	if (!ib_get_smp_direction(smp)) {
		if (!smp->hop_ptr) {
			/* LID-routed so far: the directed part starts here. */
			if (!ours)
				return IBTSIM_FWD_LID;
			smp->hop_ptr = 1;
			if (!cnt)
				goto end_of_dr;
			*out = smp->initial_path[1];
			return IBTSIM_FWD_PORT;
		}
		if (smp->hop_ptr < cnt) {
			/* C14-9:2, an intermediate hop */
			smp->return_path[smp->hop_ptr] = in_port;
			smp->hop_ptr++;
			*out = smp->initial_path[smp->hop_ptr];
			return IBTSIM_FWD_PORT;
		}
		if (smp->hop_ptr == cnt) {
			/* C14-9:3, the end of the directed part */
			smp->return_path[smp->hop_ptr] = in_port;
			smp->hop_ptr++;
			goto end_of_dr;
		}
		if (smp->hop_ptr == cnt + 1)
			/* C14-9:4, past a LID-routed end part */
			return ours ? IBTSIM_FWD_LOCAL : IBTSIM_FWD_LID;
		*why = IBTSIM_DROP_DR_HOP_POINTER;
		return IBTSIM_FWD_DROP;
	}

	if (cnt && smp->hop_ptr == cnt + 1) {
		/* C14-13:1, the return starts here or comes back to us */
		if (!ours)
			return IBTSIM_FWD_LID;
		smp->hop_ptr--;
		*out = smp->return_path[smp->hop_ptr];
		return IBTSIM_FWD_PORT;
	}
	if (smp->hop_ptr >= 2 && smp->hop_ptr <= cnt) {
		/* C14-13:2, an intermediate hop */
		smp->hop_ptr--;
		*out = smp->return_path[smp->hop_ptr];
		return IBTSIM_FWD_PORT;
	}
	if (smp->hop_ptr == 1) {
		/* C14-13:3, the end of the directed part */
		smp->hop_ptr = 0;
		if (smp->dr_slid == IB_LID_PERMISSIVE) {
			*why = IBTSIM_DROP_SW_DR_RETURNING;
			return IBTSIM_FWD_DROP;
		}
		return ibtsim_dr_to_lid(node, pkt, smp->dr_slid);
	}
	if (!smp->hop_ptr && !ours)
		return IBTSIM_FWD_LID;	/* C14-13:4, LID-routed to the SM */
	*why = IBTSIM_DROP_SW_DR_RETURNING;
	return IBTSIM_FWD_DROP;

end_of_dr:
	if (smp->dr_dlid == IB_LID_PERMISSIVE)
		return IBTSIM_FWD_LOCAL;
	return ibtsim_dr_to_lid(node, pkt, smp->dr_dlid);
}

static bool ibtsim_pkt_is_smp(const struct ibtsim_pkt *pkt, u8 mgmt_class)
{
	return !pkt->dqpn && pkt->len >= sizeof(struct ib_smp) &&
	       ((const struct ib_smp *)pkt->data)->mgmt_class == mgmt_class;
}

/* Where @pkt goes from the switch: a port, the switch itself, or nowhere. */
static enum ibtsim_fwd ibtsim_switch_route(struct ibtsim_node *node, u8 in_port,
					   struct ibtsim_pkt *pkt, u8 *out,
					   enum ibtsim_drop_reason *why)
{
	enum ibtsim_fwd fwd = IBTSIM_FWD_LID;
	bool dr = ibtsim_pkt_is_smp(pkt, IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE);

	if (dr)
		fwd = ibtsim_switch_dr(node, in_port,
				       ibtsim_switch_own_lid(node, pkt->dlid),
				       pkt, out, why);
	if (fwd != IBTSIM_FWD_LID)
		return fwd;

	/* The misroute fault knob overrides the LFT, for LID routing only. */
	if (dr || !ibtsim_misroute_lookup(node, pkt->dlid, out))
		*out = ibtsim_switch_lookup(node, pkt->dlid);
	if (!*out)
		return IBTSIM_FWD_LOCAL;
	if (*out == IBTRACE_IBA_LFT_NO_PORT) {
		*why = IBTSIM_DROP_NO_LFT_ENTRY;
		return IBTSIM_FWD_DROP;
	}
	return IBTSIM_FWD_PORT;
}

/*
 * The VL a data packet goes on from input port @in (0: the switch's own
 * answer) to exit port @out: its SL through the SLtoVL table of the pair.
 * Returns true, with @why, when it cannot go.
 */
static bool ibtsim_switch_vl(struct ibtsim_node *node, u8 in, u8 out,
			     struct ibtsim_pkt *pkt,
			     enum ibtsim_drop_reason *why)
{
	const u8 *table = node->sw->sl2vl +
			  (in * (node->num_ports + 1) + out) * IBTSIM_SL2VL_LEN;
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	*why = ibtsim_pkt_vl(&node->ports[out], table, pkt);
	spin_unlock_irqrestore(&node->lock, flags);
	return *why != IBTSIM_DROP_NONE;
}

/**
 * ibtsim_switch_rx - a packet arrives at an external port of a switch
 * @port: the arrival port
 * @pkt: the packet; rewritten in place when the switch answers it
 *
 * Return: the port @pkt leaves the switch by, or NULL when it was dropped
 * (counted on @port).
 */
struct ibtsim_port *ibtsim_switch_rx(struct ibtsim_port *port,
				     struct ibtsim_pkt *pkt)
{
	struct ibtsim_node *node = port->node;
	bool answered = false;
	unsigned long flags;
	unsigned int step;
	enum ibtsim_drop_reason why;
	u8 state, out;

	spin_lock_irqsave(&node->lock, flags);
	state = port->state;
	spin_unlock_irqrestore(&node->lock, flags);
	if (state == IBTSIM_PORT_DOWN) {
		why = IBTSIM_DROP_PORT_DOWN;
		goto drop;
	}
	if (pkt->dqpn && state < IBTSIM_PORT_ARMED) {
		why = IBTSIM_DROP_DATA_BEFORE_ARMED;
		goto drop;
	}
	atomic64_inc(&port->rx_pkts);

	/* Route; at most once to port 0 for an answer, then route that. */
	for (step = 0; step < 2; step++) {
		switch (ibtsim_switch_route(node, port->num, pkt, &out, &why)) {
		case IBTSIM_FWD_PORT:
			if (!out || out > node->num_ports) {
				why = IBTSIM_DROP_EXIT_PORT_RANGE;
				goto drop;
			}
			if (pkt->dqpn &&
			    ibtsim_switch_vl(node, answered ? 0 : port->num, out,
					     pkt, &why))
				goto drop;
			return &node->ports[out];
		case IBTSIM_FWD_LOCAL:
			if (answered) {
				why = IBTSIM_DROP_ANSWER_TO_SWITCH;
				goto drop;
			}
			/* for the switch: rewritten into the answer */
			if (!ibtsim_fw_answer(node, port->num, &node->ports[0],
					      pkt, ibtsim_switch_slid(node),
					      &why))
				goto drop;
			answered = true;
			break;
		default:
			goto drop;
		}
	}
	why = IBTSIM_DROP_ANSWER_TO_SWITCH;
drop:
	ibtsim_drop(port, why);
	return NULL;
}
