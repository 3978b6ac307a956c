// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - the Subnet Management Agent of a simulated HCA.
 *
 * ib_mad offers every MAD received on an HCA port to process_mad() first,
 * and hands it local directed-route SMPs (hop count 0) directly. As HCA
 * firmware does, ibsim_process_mad() answers the SMPs of the SMA (Get/Set
 * of SMP attributes) with a reply, and returns plain success for anything
 * else so that ib_mad gives it to the registered agents: SMInfo goes to
 * the SM, GetResp and traps to whoever asked, GMPs to their class agents.
 * An SMP attribute or method the SMA does not implement is answered with
 * status 0x000C (unsupported method/attribute), never dropped.
 */
#include <linux/kernel.h>
#include <rdma/ib_smi.h>

#include "sim.h"

#define IBSIM_SPEED_SUPPORTED	0x7	/* SDR, DDR, QDR */
#define IBSIM_SPEED_ACTIVE	0x4	/* QDR */
#define IBSIM_WIDTH_SUPPORTED	0x3	/* 1x, 4x */
#define IBSIM_WIDTH_ACTIVE	0x2	/* 4x */
#define IBSIM_VL_CAP		4	/* VL0..VL7 */
#define IBSIM_MTU_CAP		IB_MTU_4096
#define IBSIM_VL_ARB_CAP	8
#define IBSIM_SMP_CLASS_VERSION	1

/* Events a change raises, collected under the node lock, sent after. */
enum {
	IBSIM_EV_ACTIVE		= BIT(0),
	IBSIM_EV_ERR		= BIT(1),
	IBSIM_EV_LID		= BIT(2),
	IBSIM_EV_SM		= BIT(3),
	IBSIM_EV_GID		= BIT(4),
	IBSIM_EV_REREG		= BIT(5),
};

static void ibsim_port_events(struct ibsim_port *port, u32 events)
{
	static const enum ib_event_type map[] = {
		IB_EVENT_PORT_ACTIVE, IB_EVENT_PORT_ERR, IB_EVENT_LID_CHANGE,
		IB_EVENT_SM_CHANGE, IB_EVENT_GID_CHANGE,
		IB_EVENT_CLIENT_REREGISTER,
	};
	struct ibsim_dev *dev = port->node->dev;
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

/* Caller holds port->node->lock. Returns the events the change raises. */
static u32 __ibsim_port_set_state(struct ibsim_port *port, u8 state)
{
	u8 old = port->state;

	port->state = state;
	if (state == IBSIM_PORT_ACTIVE && old != IBSIM_PORT_ACTIVE)
		return IBSIM_EV_ACTIVE;
	if (state != IBSIM_PORT_ACTIVE && old == IBSIM_PORT_ACTIVE)
		return IBSIM_EV_ERR;
	return 0;
}

/*
 * The link of @port retrains (PortState Down set, or PortPhysicalState
 * changed): both ends fall to Down, and come back to Init if both are
 * enabled. Called without locks held; takes each end's lock in turn.
 */
static void ibsim_link_retrain(struct ibsim_port *port)
{
	struct ibsim_port *ends[2] = { port, port->peer };
	unsigned long flags;
	bool up = false;
	unsigned int i;
	u32 ev;

	if (port->peer) {
		spin_lock_irqsave(&port->node->lock, flags);
		up = port->phys_state != IBSIM_PHYS_DISABLED;
		spin_unlock_irqrestore(&port->node->lock, flags);
		spin_lock_irqsave(&port->peer->node->lock, flags);
		up = up && port->peer->phys_state != IBSIM_PHYS_DISABLED;
		spin_unlock_irqrestore(&port->peer->node->lock, flags);
	}
	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		struct ibsim_port *p = ends[i];

		if (!p)
			continue;
		spin_lock_irqsave(&p->node->lock, flags);
		ev = __ibsim_port_set_state(p, up ? IBSIM_PORT_INIT :
						    IBSIM_PORT_DOWN);
		if (p->phys_state != IBSIM_PHYS_DISABLED)
			p->phys_state = up ? IBSIM_PHYS_LINKUP :
					     IBSIM_PHYS_POLLING;
		spin_unlock_irqrestore(&p->node->lock, flags);
		ibsim_port_events(p, ev);
	}
}

/**
 * ibsim_port_init_sma - power-on PortInfo of a port
 * @port: the port, its peer pointer already set
 *
 * A connected port trains its link and waits in Init for an SM; an
 * unconnected one polls in Down. No LID, no SM.
 */
void ibsim_port_init_sma(struct ibsim_port *port)
{
	port->gid_prefix = IBSIM_DEFAULT_GID_PREFIX;
	port->cap_mask = IB_PORT_SYS_IMAGE_GUID_SUP | IB_PORT_CLIENT_REG_SUP |
			 IB_PORT_VENDOR_CLASS_SUP;
	port->mkey_lease = 15;
	port->state = port->peer ? IBSIM_PORT_INIT : IBSIM_PORT_DOWN;
	port->phys_state = port->peer ? IBSIM_PHYS_LINKUP : IBSIM_PHYS_POLLING;
	port->link_down_default = IBSIM_PHYS_POLLING;
	port->neighbor_mtu = IBSIM_MTU_CAP;
	port->op_vls = 1;
	port->vl_stall_hoq = (7 << 5) | 16;
	port->resp_time = 8;
	port->width_enabled = IBSIM_WIDTH_SUPPORTED;
	port->speed_enabled = IBSIM_SPEED_SUPPORTED;
	port->guid_cap = IBSIM_GUID_CAP;
	port->pkeys[0] = IBSIM_DEFAULT_PKEY;
	port->gids[0] = port->guid;
}

/* attributes */

static u16 ibsim_get_node_info(struct ibsim_port *port, struct ib_smp *smp)
{
	struct ib_node_info *ni = (struct ib_node_info *)smp->data;
	struct ibsim_node *node = port->node;

	ni->base_version = IB_MGMT_BASE_VERSION;
	ni->class_version = IBSIM_SMP_CLASS_VERSION;
	ni->node_type = node->type;
	ni->num_ports = node->num_ports;
	ni->sys_guid = cpu_to_be64(node->sys_guid);
	ni->node_guid = cpu_to_be64(node->node_guid);
	ni->port_guid = cpu_to_be64(port->guid);
	ni->partition_cap = cpu_to_be16(IBSIM_PKEY_TBL_LEN);
	ni->device_id = cpu_to_be16(IBSIM_DEVICE_ID);
	ni->revision = cpu_to_be32(1);
	ni->local_port_num = port->num;
	ni->vendor_id[0] = IBSIM_VENDOR_ID >> 16;
	ni->vendor_id[1] = IBSIM_VENDOR_ID >> 8;
	ni->vendor_id[2] = IBSIM_VENDOR_ID & 0xff;
	return 0;
}

static u16 ibsim_get_node_desc(struct ibsim_port *port, struct ib_smp *smp)
{
	memcpy(smp->data, port->node->desc, IB_SMP_DATA_SIZE);
	return 0;
}

/* Caller holds the node lock. */
static void __ibsim_fill_port_info(struct ibsim_port *port, u8 in_port,
				   struct ib_port_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->mkey = cpu_to_be64(port->mkey);
	pi->gid_prefix = cpu_to_be64(port->gid_prefix);
	pi->lid = cpu_to_be16(port->lid);
	pi->sm_lid = cpu_to_be16(port->sm_lid);
	pi->cap_mask = cpu_to_be32(port->cap_mask);
	pi->mkey_lease_period = cpu_to_be16(port->mkey_lease);
	pi->local_port_num = in_port;
	pi->link_width_enabled = port->width_enabled;
	pi->link_width_supported = IBSIM_WIDTH_SUPPORTED;
	pi->link_width_active = IBSIM_WIDTH_ACTIVE;
	pi->linkspeed_portstate = IBSIM_SPEED_SUPPORTED << 4 | port->state;
	pi->portphysstate_linkdown = port->phys_state << 4 |
				     port->link_down_default;
	pi->mkeyprot_resv_lmc = port->mkey_prot << 6 | port->lmc;
	pi->linkspeedactive_enabled = IBSIM_SPEED_ACTIVE << 4 |
				      port->speed_enabled;
	pi->neighbormtu_mastersmsl = port->neighbor_mtu << 4 | port->sm_sl;
	pi->vlcap_inittype = IBSIM_VL_CAP << 4;
	pi->vl_high_limit = port->vl_high_limit;
	pi->vl_arb_high_cap = IBSIM_VL_ARB_CAP;
	pi->vl_arb_low_cap = IBSIM_VL_ARB_CAP;
	pi->inittypereply_mtucap = IBSIM_MTU_CAP;
	pi->vlstallcnt_hoqlife = port->vl_stall_hoq;
	pi->operationalvl_pei_peo_fpi_fpo = port->op_vls << 4;
	pi->mkey_violations = cpu_to_be16(port->mkey_viol);
	pi->pkey_violations = cpu_to_be16(port->pkey_viol);
	pi->qkey_violations = cpu_to_be16(port->qkey_viol);
	pi->guid_cap = port->guid_cap;
	pi->clientrereg_resv_subnetto = port->subnet_timeout;
	pi->resv_resptimevalue = port->resp_time;
}

/*
 * Check then apply a PortInfo Set (IBA 14.2.5.6): one invalid field and
 * nothing changes. Caller holds the node lock; *events and *retrain tell
 * what to do once it is dropped.
 */
static u16 __ibsim_set_port_info(struct ibsim_port *port,
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

	/* validate */
	/* LID 0 is only accepted while none is assigned (an SM arming). */
	if (lid > IBSIM_LID_UCAST_MAX || (!lid && port->lid) ||
	    sm_lid > IBSIM_LID_UCAST_MAX)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	switch (state) {
	case IBSIM_PORT_NOP:
	case IBSIM_PORT_DOWN:
		break;
	case IBSIM_PORT_ARMED:
		if (port->state != IBSIM_PORT_INIT &&
		    port->state != IBSIM_PORT_ARMED)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		break;
	case IBSIM_PORT_ACTIVE:
		if (port->state != IBSIM_PORT_ARMED &&
		    port->state != IBSIM_PORT_ACTIVE)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		break;
	default:
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	if (phys && phys != IBSIM_PHYS_POLLING && phys != IBSIM_PHYS_DISABLED)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (ldd > IBSIM_PHYS_POLLING)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (mtu && (mtu < IB_MTU_256 || mtu > IBSIM_MTU_CAP))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (op_vls > IBSIM_VL_CAP)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (width && width != 0xff && (width & ~IBSIM_WIDTH_SUPPORTED))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	if (speed && speed != 0xf && (speed & ~IBSIM_SPEED_SUPPORTED))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;

	/* apply */
	if (lid != port->lid || lmc != port->lmc)
		*events |= IBSIM_EV_LID;
	port->lid = lid;
	port->lmc = lmc;
	if (sm_lid != port->sm_lid || sm_sl != port->sm_sl)
		*events |= IBSIM_EV_SM;
	port->sm_lid = sm_lid;
	port->sm_sl = sm_sl;
	if (prefix != port->gid_prefix)
		*events |= IBSIM_EV_GID;
	port->gid_prefix = prefix;
	port->mkey = be64_to_cpu(pi->mkey);
	port->mkey_lease = be16_to_cpu(pi->mkey_lease_period);
	port->mkey_prot = pi->mkeyprot_resv_lmc >> 6;
	if (ldd)
		port->link_down_default = ldd;
	if (mtu)
		port->neighbor_mtu = mtu;
	if (op_vls)
		port->op_vls = op_vls;
	if (width)
		port->width_enabled = width == 0xff ? IBSIM_WIDTH_SUPPORTED :
						      width;
	if (speed)
		port->speed_enabled = speed == 0xf ? IBSIM_SPEED_SUPPORTED :
						     speed;
	port->vl_high_limit = pi->vl_high_limit;
	port->vl_stall_hoq = pi->vlstallcnt_hoqlife;
	port->subnet_timeout = pi->clientrereg_resv_subnetto & 0x1f;
	if (pi->clientrereg_resv_subnetto & 0x80)
		*events |= IBSIM_EV_REREG;
	port->mkey_viol = be16_to_cpu(pi->mkey_violations);
	port->pkey_viol = be16_to_cpu(pi->pkey_violations);
	port->qkey_viol = be16_to_cpu(pi->qkey_violations);

	if (phys == IBSIM_PHYS_DISABLED &&
	    port->phys_state != IBSIM_PHYS_DISABLED) {
		port->phys_state = IBSIM_PHYS_DISABLED;
		*retrain = true;
	} else if (phys == IBSIM_PHYS_POLLING &&
		   port->phys_state == IBSIM_PHYS_DISABLED) {
		port->phys_state = IBSIM_PHYS_POLLING;
		*retrain = true;
	}
	if (state == IBSIM_PORT_DOWN)
		*retrain = true;
	else if (state != IBSIM_PORT_NOP && !*retrain)
		*events |= __ibsim_port_set_state(port, state);
	return 0;
}

static u16 ibsim_port_info(struct ibsim_node *node, u8 in_port,
			   struct ib_smp *smp, bool set)
{
	u32 am = be32_to_cpu(smp->attr_mod);
	struct ib_port_info *pi = (struct ib_port_info *)smp->data;
	struct ibsim_port *port;
	unsigned long flags;
	bool retrain = false;
	u32 events = 0;
	u16 status = 0;

	if (am > node->num_ports)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	port = &node->ports[am ? am : in_port];

	spin_lock_irqsave(&node->lock, flags);
	if (set)
		status = __ibsim_set_port_info(port, pi, &events, &retrain);
	if (!retrain)
		__ibsim_fill_port_info(port, in_port, pi);
	spin_unlock_irqrestore(&node->lock, flags);

	ibsim_port_events(port, events);
	if (retrain) {
		ibsim_link_retrain(port);
		spin_lock_irqsave(&node->lock, flags);
		__ibsim_fill_port_info(port, in_port, pi);
		spin_unlock_irqrestore(&node->lock, flags);
	}
	return status;
}

/* The SMA proper: fills @smp (a copy of the request) with the answer. */
static u16 ibsim_sma(struct ibsim_node *node, u8 in_port, struct ib_smp *smp)
{
	bool set = smp->method == IB_MGMT_METHOD_SET;

	if (smp->base_version != IB_MGMT_BASE_VERSION ||
	    smp->class_version != IBSIM_SMP_CLASS_VERSION)
		return IB_MGMT_MAD_STATUS_BAD_VERSION;

	switch (smp->attr_id) {
	case IB_SMP_ATTR_NODE_INFO:
		if (set)
			break;
		return ibsim_get_node_info(&node->ports[in_port], smp);
	case IB_SMP_ATTR_NODE_DESC:
		if (set)
			break;
		return ibsim_get_node_desc(&node->ports[in_port], smp);
	case IB_SMP_ATTR_PORT_INFO:
		return ibsim_port_info(node, in_port, smp, set);
	default:
		break;
	}
	return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
}

int ibsim_process_mad(struct ib_device *ibdev, int mad_flags, u32 port_num,
		      const struct ib_wc *in_wc, const struct ib_grh *in_grh,
		      const struct ib_mad *in, struct ib_mad *out,
		      size_t *out_mad_size, u16 *out_mad_pkey_index)
{
	const struct ib_mad_hdr *hdr = &in->mad_hdr;
	struct ibsim_dev *dev = to_ibsim_dev(ibdev);
	struct ib_smp *smp = (struct ib_smp *)out;
	u16 status;

	if (hdr->mgmt_class != IB_MGMT_CLASS_SUBN_LID_ROUTED &&
	    hdr->mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return IB_MAD_RESULT_SUCCESS;
	if (hdr->method != IB_MGMT_METHOD_GET &&
	    hdr->method != IB_MGMT_METHOD_SET)
		return IB_MAD_RESULT_SUCCESS;
	/* SMInfo belongs to the SM (if any runs here), not to the SMA. */
	if (hdr->attr_id == IB_SMP_ATTR_SM_INFO)
		return IB_MAD_RESULT_SUCCESS;
	if (!rdma_is_port_valid(ibdev, port_num) ||
	    *out_mad_size < sizeof(struct ib_mad))
		return IB_MAD_RESULT_FAILURE;

	memcpy(out, in, sizeof(struct ib_mad));
	*out_mad_size = sizeof(struct ib_mad);
	status = ibsim_sma(dev->node, port_num, smp);
	smp->method = IB_MGMT_METHOD_GET_RESP;
	smp->status = cpu_to_be16(status);
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		smp->status |= IB_SMP_DIRECTION;
	ibsim_node_dbg(dev->node, "SMP port %u attr 0x%04x method %u: 0x%04x\n",
		       port_num, be16_to_cpu(smp->attr_id), hdr->method, status);
	return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}
