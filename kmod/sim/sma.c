// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - the Subnet Management Agent of simulated nodes.
 *
 * The SMA proper (ibtsim_sma_answer()) serves HCAs and switches alike:
 * NodeInfo, NodeDescription, PortInfo and P_KeyTable here, the
 * switch-only attributes in switch.c. On a switch, PortInfo of port 0 holds the LID, LMC and SM
 * fields of the whole switch; external ports report port 0's and ignore
 * them in a Set.
 *
 * ib_mad offers every MAD received on an HCA port to process_mad() first,
 * and hands it local directed-route SMPs (hop count 0) directly. As HCA
 * firmware does, ibtsim_process_mad() answers the SMPs of the SMA (Get/Set
 * of SMP attributes) with a reply, and returns plain success for anything
 * else so that ib_mad gives it to the registered agents: SMInfo goes to
 * the SM, GetResp and traps to whoever asked, GMPs to their class agents.
 * The one GMP class answered here is the Performance Management Agent's
 * (class 0x04, pma.c), which HCA firmware implements too.
 * An SMP attribute or method the SMA does not implement is answered with
 * status 0x000C (unsupported method/attribute), never dropped.
 */
#include <linux/kernel.h>
#include <rdma/ib_smi.h>

#include "sim.h"
#include "verbs.h"
#include "loc.h"

#define IBTSIM_SPEED_SUPPORTED	(IBTSIM_SPEED_SDR | IBTSIM_SPEED_DDR | \
				 IBTSIM_SPEED_QDR)
#define IBTSIM_WIDTH_SUPPORTED	(IBTSIM_WIDTH_1X | IBTSIM_WIDTH_4X)
#define IBTSIM_VL_CAP		4	/* VL0..VL7 */
#define IBTSIM_MTU_CAP		IB_MTU_4096
#define IBTSIM_SMP_CLASS_VERSION	1

/* Events a change raises, collected under the node lock, sent after. */
enum {
	IBTSIM_EV_ACTIVE	= BIT(0),
	IBTSIM_EV_ERR		= BIT(1),
	IBTSIM_EV_LID		= BIT(2),
	IBTSIM_EV_SM		= BIT(3),
	IBTSIM_EV_GID		= BIT(4),
	IBTSIM_EV_REREG		= BIT(5),
	IBTSIM_EV_PKEY		= BIT(6),
};

static void ibtsim_port_events(struct ibtsim_port *port, u32 events)
{
	static const enum ib_event_type map[] = {
		IB_EVENT_PORT_ACTIVE, IB_EVENT_PORT_ERR, IB_EVENT_LID_CHANGE,
		IB_EVENT_SM_CHANGE, IB_EVENT_GID_CHANGE,
		IB_EVENT_CLIENT_REREGISTER, IB_EVENT_PKEY_CHANGE,
	};
	struct ibtsim_dev *dev = port->node->dev;
	struct ib_event ev;
	unsigned int i;

	if (!dev || !dev->registered)
		return;
	for (i = 0; i < ARRAY_SIZE(map); i++) {
		if (!(events & BIT(i)))
			continue;
		ev.device = &dev->ibdev;
		ev.event = map[i];
		ev.element.port_num = port->num;
		ib_dispatch_event(&ev);
	}
}

/*
 * A base switch port 0 (SwitchInfo EnhancedPort0 clear) has no link of
 * its own and the SM leaves its PortState alone (OpenSM skips it): it
 * goes Active with the first external port to go Active and back to Init
 * when the last one leaves Active. Caller holds the node lock.
 */
static void __ibtsim_switch_port0_follow(struct ibtsim_node *node, u8 state)
{
	struct ibtsim_port *port0 = &node->ports[0];
	unsigned int i;

	if (state == IBTSIM_PORT_ACTIVE) {
		port0->state = IBTSIM_PORT_ACTIVE;
		return;
	}
	if (port0->state != IBTSIM_PORT_ACTIVE)
		return;
	for (i = 1; i <= node->num_ports; i++)
		if (node->ports[i].state == IBTSIM_PORT_ACTIVE)
			return;
	port0->state = IBTSIM_PORT_INIT;
}

/* Caller holds port->node->lock. Returns the events the change raises. */
static u32 __ibtsim_port_set_state(struct ibtsim_port *port, u8 state)
{
	u8 old = port->state;

	port->state = state;
	if (state != old && port->num && port->node->sw) {
		port->node->sw->port_state_change = true;
		__ibtsim_switch_port0_follow(port->node, state);
	}
	if (state == IBTSIM_PORT_ACTIVE && old != IBTSIM_PORT_ACTIVE)
		return IBTSIM_EV_ACTIVE;
	if (state != IBTSIM_PORT_ACTIVE && old == IBTSIM_PORT_ACTIVE)
		return IBTSIM_EV_ERR;
	return 0;
}

/**
 * ibtsim_link_retrain - the link of a port retrains
 * @port: the port
 *
 * PortState Down was set, PortPhysicalState changed, or the link knob
 * moved: both ends fall to Down, and come back to Init (LinkUp) if both
 * are enabled and the link is not held down by the knob
 * (&ibtsim_port.link_down). A switch's port 0 is internal: always enabled,
 * it comes back to Init at once. Events as for a PortInfo Set. Called
 * without locks held; takes each end's lock in turn.
 */
void ibtsim_link_retrain(struct ibtsim_port *port)
{
	struct ibtsim_port *ends[2] = { port, port->peer };
	unsigned long flags;
	bool up = false;
	unsigned int i;
	u32 ev;

	if (!port->num) {
		up = true;
	} else if (port->peer) {
		spin_lock_irqsave(&port->node->lock, flags);
		up = port->phys_state != IBTSIM_PHYS_DISABLED &&
		     !port->link_down;
		spin_unlock_irqrestore(&port->node->lock, flags);
		spin_lock_irqsave(&port->peer->node->lock, flags);
		up = up && port->peer->phys_state != IBTSIM_PHYS_DISABLED &&
		     !port->peer->link_down;
		spin_unlock_irqrestore(&port->peer->node->lock, flags);
	}
	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		struct ibtsim_port *p = ends[i];

		if (!p)
			continue;
		spin_lock_irqsave(&p->node->lock, flags);
		p->trained++;	/* flow control starts again (flowctl.c) */
		ev = __ibtsim_port_set_state(p, up ? IBTSIM_PORT_INIT :
						    IBTSIM_PORT_DOWN);
		if (p->phys_state != IBTSIM_PHYS_DISABLED)
			p->phys_state = up ? IBTSIM_PHYS_LINKUP :
					     IBTSIM_PHYS_POLLING;
		spin_unlock_irqrestore(&p->node->lock, flags);
		ibtsim_port_events(p, ev);
	}
	ibtsim_fabric_fc_resync(port);
}

/**
 * ibtsim_port_init_sma - power-on PortInfo of a port
 * @port: the port, its peer pointer already set
 *
 * A connected port (and a switch's port 0) trains its link and waits in
 * Init for an SM; an unconnected one polls in Down. No LID, no SM.
 */
void ibtsim_port_init_sma(struct ibtsim_port *port)
{
	bool up = port->peer || !port->num;

	port->gid_prefix = IBTSIM_DEFAULT_GID_PREFIX;
	port->cap_mask = IB_PORT_SYS_IMAGE_GUID_SUP | IB_PORT_CLIENT_REG_SUP |
			 IB_PORT_VENDOR_CLASS_SUP | IB_PORT_SL_MAP_SUP;
	port->mkey_lease = 15;
	port->state = up ? IBTSIM_PORT_INIT : IBTSIM_PORT_DOWN;
	port->phys_state = up ? IBTSIM_PHYS_LINKUP : IBTSIM_PHYS_POLLING;
	port->link_down_default = IBTSIM_PHYS_POLLING;
	port->neighbor_mtu = IBTSIM_MTU_CAP;
	port->op_vls = 1;
	port->vl_stall_hoq = (7 << 5) | 16;
	port->resp_time = 8;
	port->width_enabled = IBTSIM_WIDTH_SUPPORTED;
	port->speed_enabled = IBTSIM_SPEED_SUPPORTED;
	/* trained at 4x QDR, unless a knob says otherwise */
	port->link_width = IBTSIM_WIDTH_4X;
	port->link_speed = IBTSIM_SPEED_QDR;
	port->pkeys[0] = IBTSIM_DEFAULT_PKEY;
	if (port->gids) {
		port->guid_cap = port->node->fabric->guid_cap;
		port->gids[0] = port->guid;
	}
}

/* attributes */

/* A switch's NodeInfo names port 0's GUID; LocalPortNum is the arrival. */
static u16 ibtsim_get_node_info(struct ibtsim_node *node, u8 in_port,
				struct ib_smp *smp)
{
	struct ib_node_info *ni = (struct ib_node_info *)smp->data;
	struct ibtsim_port *port = &node->ports[node->sw ? 0 : in_port];

	ni->base_version = IB_MGMT_BASE_VERSION;
	ni->class_version = IBTSIM_SMP_CLASS_VERSION;
	ni->node_type = node->type;
	ni->num_ports = node->num_ports;
	ni->sys_guid = cpu_to_be64(node->sys_guid);
	ni->node_guid = cpu_to_be64(node->node_guid);
	ni->port_guid = cpu_to_be64(port->guid);
	ni->partition_cap = cpu_to_be16(IBTSIM_PKEY_TBL_LEN);
	ni->device_id = cpu_to_be16(IBTSIM_DEVICE_ID);
	ni->revision = cpu_to_be32(1);
	ni->local_port_num = in_port;
	ni->vendor_id[0] = IBTSIM_VENDOR_ID >> 16;
	ni->vendor_id[1] = IBTSIM_VENDOR_ID >> 8;
	ni->vendor_id[2] = IBTSIM_VENDOR_ID & 0xff;
	return 0;
}

static u16 ibtsim_get_node_desc(struct ibtsim_node *node, struct ib_smp *smp)
{
	memcpy(smp->data, node->desc, IB_SMP_DATA_SIZE);
	return 0;
}

/* The port whose PortInfo holds @port's LID, LMC, SM and M_Key fields. */
static struct ibtsim_port *ibtsim_mgmt_port(struct ibtsim_port *port)
{
	return port->node->sw ? &port->node->ports[0] : port;
}

/* Caller holds the node lock. */
static void __ibtsim_fill_port_info(struct ibtsim_port *port, u8 in_port,
				    struct ib_port_info *pi)
{
	struct ibtsim_port *mgmt = ibtsim_mgmt_port(port);

	memset(pi, 0, sizeof(*pi));
	pi->mkey = cpu_to_be64(mgmt->mkey);
	pi->gid_prefix = cpu_to_be64(mgmt->gid_prefix);
	pi->lid = cpu_to_be16(mgmt->lid);
	pi->sm_lid = cpu_to_be16(mgmt->sm_lid);
	pi->cap_mask = cpu_to_be32(port->cap_mask);
	pi->mkey_lease_period = cpu_to_be16(mgmt->mkey_lease);
	pi->local_port_num = in_port;
	pi->link_width_enabled = port->width_enabled;
	pi->link_width_supported = IBTSIM_WIDTH_SUPPORTED;
	pi->link_width_active = port->link_width;
	pi->linkspeed_portstate = IBTSIM_SPEED_SUPPORTED << 4 | port->state;
	pi->portphysstate_linkdown = port->phys_state << 4 |
				     port->link_down_default;
	pi->mkeyprot_resv_lmc = mgmt->mkey_prot << 6 | mgmt->lmc;
	pi->linkspeedactive_enabled = port->link_speed << 4 |
				      port->speed_enabled;
	pi->neighbormtu_mastersmsl = port->neighbor_mtu << 4 | mgmt->sm_sl;
	pi->vlcap_inittype = IBTSIM_VL_CAP << 4;
	pi->vl_high_limit = port->vl_high_limit;
	pi->vl_arb_high_cap = IBTSIM_VL_ARB_CAP;
	pi->vl_arb_low_cap = IBTSIM_VL_ARB_CAP;
	pi->inittypereply_mtucap = IBTSIM_MTU_CAP;
	pi->vlstallcnt_hoqlife = port->vl_stall_hoq;
	pi->operationalvl_pei_peo_fpi_fpo = port->op_vls << 4;
	pi->mkey_violations = cpu_to_be16(mgmt->mkey_viol);
	pi->pkey_violations = cpu_to_be16(port->pkey_viol);
	pi->qkey_violations = cpu_to_be16(port->qkey_viol);
	pi->guid_cap = port->guid_cap;
	pi->clientrereg_resv_subnetto = mgmt->subnet_timeout;
	pi->resv_resptimevalue = port->resp_time;
}

/* Caller holds the node lock. Returns the events the change raises. */
static u32 __ibtsim_set_mgmt_info(struct ibtsim_port *port,
				  const struct ib_port_info *pi, u16 lid,
				  u8 lmc, u16 sm_lid, u8 sm_sl, u64 prefix)
{
	u32 events = 0;

	if (lid != port->lid || lmc != port->lmc)
		events |= IBTSIM_EV_LID;
	port->lid = lid;
	port->lmc = lmc;
	if (sm_lid != port->sm_lid || sm_sl != port->sm_sl)
		events |= IBTSIM_EV_SM;
	port->sm_lid = sm_lid;
	port->sm_sl = sm_sl;
	if (prefix != port->gid_prefix)
		events |= IBTSIM_EV_GID;
	port->gid_prefix = prefix;
	port->mkey = be64_to_cpu(pi->mkey);
	port->mkey_lease = be16_to_cpu(pi->mkey_lease_period);
	port->mkey_prot = pi->mkeyprot_resv_lmc >> 6;
	port->subnet_timeout = pi->clientrereg_resv_subnetto & 0x1f;
	if (pi->clientrereg_resv_subnetto & 0x80)
		events |= IBTSIM_EV_REREG;
	port->mkey_viol = be16_to_cpu(pi->mkey_violations);
	return events;
}

/*
 * Check then apply a PortInfo Set (IBA 14.2.5.6): one invalid field and
 * nothing changes. The LID, LMC, SM, GidPrefix and M_Key fields are only
 * taken on a port that holds them (an HCA port, a switch's port 0).
 * Caller holds the node lock; *events and *retrain tell what to do once it
 * is dropped.
 */
static u16 __ibtsim_set_port_info(struct ibtsim_port *port,
				  const struct ib_port_info *pi, u32 *events,
				  bool *retrain)
{
	u8 state = pi->linkspeed_portstate & 0xf;
	u8 phys = pi->portphysstate_linkdown >> 4;
	u8 ldd = pi->portphysstate_linkdown & 0xf;
	u8 lmc = pi->mkeyprot_resv_lmc & 0x7;
	u8 mtu = pi->neighbormtu_mastersmsl >> 4;
	u8 sm_sl = pi->neighbormtu_mastersmsl & 0xf;
	u8 op_vls = pi->operationalvl_pei_peo_fpi_fpo >> 4;
	u8 width = pi->link_width_enabled;
	u8 speed = pi->linkspeedactive_enabled & 0xf;
	u16 lid = be16_to_cpu(pi->lid);
	u16 sm_lid = be16_to_cpu(pi->sm_lid);
	u64 prefix = be64_to_cpu(pi->gid_prefix);
	bool mgmt = ibtsim_mgmt_port(port) == port;

	/* validate */
	/* LID 0 is only accepted while none is assigned (an SM arming). */
	if (mgmt && (lid > IBTRACE_IBA_LID_UCAST_MAX || (!lid && port->lid) ||
		     sm_lid > IBTRACE_IBA_LID_UCAST_MAX))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	switch (state) {
	case IBTSIM_PORT_NOP:
	case IBTSIM_PORT_DOWN:
		break;
	case IBTSIM_PORT_ARMED:
		if (port->state != IBTSIM_PORT_INIT &&
		    port->state != IBTSIM_PORT_ARMED)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		break;
	case IBTSIM_PORT_ACTIVE:
		if (port->state != IBTSIM_PORT_ARMED &&
		    port->state != IBTSIM_PORT_ACTIVE)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		break;
	default:
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	if (phys && phys != IBTSIM_PHYS_POLLING && phys != IBTSIM_PHYS_DISABLED)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	/* A switch's port 0 has no physical link to disable. */
	if (!port->num)
		phys = 0;
	if (ldd > IBTSIM_PHYS_POLLING)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (mtu && (mtu < IB_MTU_256 || mtu > IBTSIM_MTU_CAP))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (op_vls > IBTSIM_VL_CAP)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (width && width != 0xff && (width & ~IBTSIM_WIDTH_SUPPORTED))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (speed && speed != 0xf && (speed & ~IBTSIM_SPEED_SUPPORTED))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;

	/* apply */
	if (mgmt)
		*events |= __ibtsim_set_mgmt_info(port, pi, lid, lmc, sm_lid,
						  sm_sl, prefix);
	if (ldd)
		port->link_down_default = ldd;
	if (mtu)
		port->neighbor_mtu = mtu;
	if (op_vls)
		port->op_vls = op_vls;
	if (width)
		port->width_enabled = width == 0xff ? IBTSIM_WIDTH_SUPPORTED :
						      width;
	if (speed)
		port->speed_enabled = speed == 0xf ? IBTSIM_SPEED_SUPPORTED :
						     speed;
	if (port->vl_high_limit != pi->vl_high_limit)
		WRITE_ONCE(port->vlarb_gen, port->vlarb_gen + 1);
	port->vl_high_limit = pi->vl_high_limit;
	port->vl_stall_hoq = pi->vlstallcnt_hoqlife;
	port->pkey_viol = be16_to_cpu(pi->pkey_violations);
	port->qkey_viol = be16_to_cpu(pi->qkey_violations);

	if (phys == IBTSIM_PHYS_DISABLED &&
	    port->phys_state != IBTSIM_PHYS_DISABLED) {
		port->phys_state = IBTSIM_PHYS_DISABLED;
		*retrain = true;
	} else if (phys == IBTSIM_PHYS_POLLING &&
		   port->phys_state == IBTSIM_PHYS_DISABLED) {
		port->phys_state = IBTSIM_PHYS_POLLING;
		*retrain = true;
	}
	if (state == IBTSIM_PORT_DOWN)
		*retrain = true;
	else if (state != IBTSIM_PORT_NOP && !*retrain)
		*events |= __ibtsim_port_set_state(port, state);
	return 0;
}

static u16 ibtsim_port_info(struct ibtsim_node *node, u8 in_port,
			    struct ib_smp *smp, bool set)
{
	u32 am = be32_to_cpu(smp->attr_mod);
	struct ib_port_info *pi = (struct ib_port_info *)smp->data;
	struct ibtsim_port *port;
	unsigned long flags;
	bool retrain = false;
	u32 events = 0;
	u16 status = 0;

	if (am > node->num_ports)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	/* Port 0 is the arrival port on an HCA, the switch itself on a switch. */
	port = &node->ports[am || node->sw ? am : in_port];

	spin_lock_irqsave(&node->lock, flags);
	if (set)
		status = __ibtsim_set_port_info(port, pi, &events, &retrain);
	if (!retrain)
		__ibtsim_fill_port_info(port, in_port, pi);
	spin_unlock_irqrestore(&node->lock, flags);

	ibtsim_port_events(port, events);
	if (retrain) {
		ibtsim_link_retrain(port);
		spin_lock_irqsave(&node->lock, flags);
		__ibtsim_fill_port_info(port, in_port, pi);
		spin_unlock_irqrestore(&node->lock, flags);
	}
	return status;
}

/*
 * P_KeyTable (IBA 14.2.5.7): 32 P_Keys per block, AttributeModifier bits
 * 0..15 the block; on a switch, bits 16..31 the port (an HCA answers for
 * the arrival port). The table has %IBTSIM_PKEY_TBL_LEN entries, one block.
 */
static u16 ibtsim_pkey_table(struct ibtsim_node *node, u8 in_port,
			     struct ib_smp *smp, bool set)
{
	__be16 *wire = (__be16 *)smp->data;
	u32 am = be32_to_cpu(smp->attr_mod);
	u32 num = node->sw ? am >> 16 : in_port;
	struct ibtsim_port *port;
	unsigned long flags;
	bool changed = false;
	unsigned int i;

	BUILD_BUG_ON(IBTSIM_PKEY_TBL_LEN * sizeof(*wire) > IB_SMP_DATA_SIZE);
	if ((am & 0xffff) || num > node->num_ports)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	port = &node->ports[num];

	spin_lock_irqsave(&node->lock, flags);
	for (i = 0; i < IBTSIM_PKEY_TBL_LEN; i++) {
		if (set && port->pkeys[i] != be16_to_cpu(wire[i])) {
			port->pkeys[i] = be16_to_cpu(wire[i]);
			changed = true;
		}
		wire[i] = cpu_to_be16(port->pkeys[i]);
	}
	spin_unlock_irqrestore(&node->lock, flags);
	if (changed)
		ibtsim_port_events(port, IBTSIM_EV_PKEY);
	return 0;
}

static u16 ibtsim_guid_info_sma(struct ibtsim_node *node, u8 in_port,
				struct ib_smp *smp, bool set)
{
	bool changed;
	u16 status;

	status = ibtsim_guid_info(node, in_port, smp, set, &changed);
	if (changed)
		ibtsim_port_events(&node->ports[in_port], IBTSIM_EV_GID);
	return status;
}

/*
 * SLtoVLMappingTable (IBA 14.2.5.8) of an HCA port: the arrival port's,
 * the AttributeModifier (switch ports) is ignored. 16 SLs, a VL each.
 */
static u16 ibtsim_sl2vl(struct ibtsim_node *node, u8 in_port,
			struct ib_smp *smp, bool set)
{
	struct ibtsim_port *port = &node->ports[in_port];
	unsigned long flags;

	spin_lock_irqsave(&node->lock, flags);
	if (set)
		memcpy(port->sl2vl, smp->data, IBTSIM_SL2VL_LEN);
	memcpy(smp->data, port->sl2vl, IBTSIM_SL2VL_LEN);
	spin_unlock_irqrestore(&node->lock, flags);
	memset(smp->data + IBTSIM_SL2VL_LEN, 0,
	       IB_SMP_DATA_SIZE - IBTSIM_SL2VL_LEN);
	return 0;
}

/*
 * VLArbitrationTable (IBA 14.2.5.9): AttributeModifier bits 16..31 the
 * block (1: low priority entries 0..31, 2: low 32..63, 3: high 0..31,
 * 4: high 32..63), bits 0..15 the output port of a switch (an HCA answers
 * for the arrival port). With VLArbitrationLow/HighCap 8, blocks 2 and 4
 * do not exist; a switch's port 0 has no VLs.
 */
static u16 ibtsim_vl_arb(struct ibtsim_node *node, u8 in_port,
			 struct ib_smp *smp, bool set)
{
	u32 am = be32_to_cpu(smp->attr_mod);
	u32 block = am >> 16, num = am & 0xffff;
	struct ibtsim_port *port;
	unsigned long flags;
	u8 *table;

	BUILD_BUG_ON(IBTSIM_VL_ARB_CAP > 32);
	if (block != 1 && block != 3)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (!node->sw)
		num = in_port;
	else if (!num || num > node->num_ports)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	port = &node->ports[num];
	table = port->vlarb[block == 3];

	spin_lock_irqsave(&node->lock, flags);
	if (set) {
		memcpy(table, smp->data, IBTSIM_VLARB_BLOCK);
		/* the transmitter arbitrates by the new table (flowctl.c) */
		WRITE_ONCE(port->vlarb_gen, port->vlarb_gen + 1);
	}
	memcpy(smp->data, table, IBTSIM_VLARB_BLOCK);
	spin_unlock_irqrestore(&node->lock, flags);
	return 0;
}

/* The SMA proper: fills @smp (a copy of the request) with the answer. */
static u16 ibtsim_sma(struct ibtsim_node *node, u8 in_port, struct ib_smp *smp)
{
	bool set = smp->method == IB_MGMT_METHOD_SET;

	if (smp->base_version != IB_MGMT_BASE_VERSION ||
	    smp->class_version != IBTSIM_SMP_CLASS_VERSION)
		return IB_MGMT_MAD_STATUS_BAD_VERSION;

	switch (smp->attr_id) {
	case IB_SMP_ATTR_NODE_INFO:
		if (set)
			break;
		return ibtsim_get_node_info(node, in_port, smp);
	case IB_SMP_ATTR_NODE_DESC:
		if (set)
			break;
		return ibtsim_get_node_desc(node, smp);
	case IB_SMP_ATTR_PORT_INFO:
		return ibtsim_port_info(node, in_port, smp, set);
	case IB_SMP_ATTR_PKEY_TABLE:
		return ibtsim_pkey_table(node, in_port, smp, set);
	case IB_SMP_ATTR_GUID_INFO:
		return ibtsim_guid_info_sma(node, in_port, smp, set);
	case IB_SMP_ATTR_VL_ARB_TABLE:
		return ibtsim_vl_arb(node, in_port, smp, set);
	case IB_SMP_ATTR_SL_TO_VL_TABLE:
		if (node->sw)
			return ibtsim_switch_sma(node, smp, set);
		return ibtsim_sl2vl(node, in_port, smp, set);
	default:
		if (node->sw)
			return ibtsim_switch_sma(node, smp, set);
		break;
	}
	return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
}

/**
 * ibtsim_sma_answer - turn an SMP Get/Set into the SMA's GetResp
 * @node: the node answering
 * @in_port: port the SMP arrived by
 * @smp: the request, rewritten in place into the response
 *
 * The direction bit of a directed-route SMP is set; its hop pointer and
 * paths are the caller's business (the SMI's). Any context.
 */
void ibtsim_sma_answer(struct ibtsim_node *node, u8 in_port, struct ib_smp *smp)
{
	u8 method = smp->method;
	u16 status;

	status = ibtsim_sma(node, in_port, smp);
	smp->method = IB_MGMT_METHOD_GET_RESP;
	smp->status = cpu_to_be16(status);
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		smp->status |= IB_SMP_DIRECTION;
	ibtsim_node_dbg(node, "SMP port %u attr 0x%04x method %u: 0x%04x\n",
			in_port, be16_to_cpu(smp->attr_id), method, status);
}

int ibtsim_process_mad(struct ib_device *ibdev, int mad_flags, u32 port_num,
		       const struct ib_wc *in_wc, const struct ib_grh *in_grh,
		       const struct ib_mad *in, struct ib_mad *out,
		       size_t *out_mad_size, u16 *out_mad_pkey_index)
{
	const struct ib_mad_hdr *hdr = &in->mad_hdr;
	struct ibtsim_dev *dev = to_ibtsim_dev(ibdev);
	bool pma = hdr->mgmt_class == IB_MGMT_CLASS_PERF_MGMT;

	if (!pma && hdr->mgmt_class != IB_MGMT_CLASS_SUBN_LID_ROUTED &&
	    hdr->mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return IB_MAD_RESULT_SUCCESS;
	if (hdr->method != IB_MGMT_METHOD_GET &&
	    hdr->method != IB_MGMT_METHOD_SET)
		return IB_MAD_RESULT_SUCCESS;
	/* SMInfo belongs to the SM (if any runs here), not to the SMA. */
	if (!pma && hdr->attr_id == IB_SMP_ATTR_SM_INFO)
		return IB_MAD_RESULT_SUCCESS;
	if (!rdma_is_port_valid(ibdev, port_num) ||
	    *out_mad_size < sizeof(struct ib_mad))
		return IB_MAD_RESULT_FAILURE;

	memcpy(out, in, sizeof(struct ib_mad));
	*out_mad_size = sizeof(struct ib_mad);
	if (pma)
		ibtsim_pma_answer(dev->node, port_num, out);
	else
		ibtsim_sma_answer(dev->node, port_num, (struct ib_smp *)out);
	return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}
