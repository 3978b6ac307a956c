// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - the SA server of SM-lite.
 *
 * The server side of Subnet Administration (class 0x03), the queries that
 * kmod/ibtrace/sa.c and ib_sa send as clients: it answers, never asks.
 * When SM-lite runs, its SA lives with it in node 0's firmware: a
 * LID-routed SubnAdm (class 0x03) request to QP1 at the SM's LID is
 * answered by the fabric instead of reaching node 0's QP1. The request
 * packet is rewritten into the answer (same TID, GetResp), addressed from
 * the SM's LID and QP1 back to the requester's SLID and QP, and then
 * leaves the SM's port and is LID-routed like any packet.
 *
 * Served: SubnAdmGet(ClassPortInfo) and SubnAdmGet(PathRecord). A
 * PathRecord request names its source by SGID and/or SLID and its
 * destination by DGID and/or DLID (else ERR_REQ_INSUFFICIENT_COMPONENTS);
 * the SA follows the switches' LFTs from the source to the destination
 * over Active links. The record: the ports' GIDs and base LIDs,
 * Reversible set when the way back exists too, MTU the smallest
 * NeighborMTU on the way, rate 40 Gb/s (4x QDR), PacketLifeTime
 * %IBTSIM_SA_PKT_LIFE, P_Key 0xFFFF, SL 0, selectors "exactly". Of the
 * component mask it honours SGID, DGID, SLID, DLID, Reversible (a
 * reversible path asked for and none back: no record), NumbPath (0 is an
 * invalid request; a Get returns one record anyway), P_Key, SL, MTU,
 * Rate and PacketLifeTime with their selectors; other components are
 * ignored. No such port or path: ERR_NO_RECORDS.
 *
 * Other methods (Set, GetTable, which would need RMPP, Delete, ...) are
 * answered with status 0x0008, a Get of another attribute with 0x000C,
 * a bad base or class version with 0x0004. Responses are not the SA's:
 * they go on to node 0's QP1 (so the SA's answer to a query from node 0
 * itself arrives there); a TrapRepress to the SA is dropped.
 *
 * Runs in the fabric's work item; takes one node lock at a time.
 */
#include <linux/kernel.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>

#include "sim.h"
#include "loc.h"

#define IBTSIM_SA_PKT_LIFE	18	/* 4.096 us * 2^18, about 1 s */
#define IBTSIM_SA_RESP_TIME	18	/* ClassPortInfo RespTimeValue */
#define IBTSIM_SA_RATE		IB_RATE_40_GBPS

/* SA status codes (IBA 15.2.1.2), in the class-specific MAD status bits. */
#define IBTSIM_SA_ERR_REQ_INVALID		0x0200
#define IBTSIM_SA_ERR_NO_RECORDS		0x0300
#define IBTSIM_SA_ERR_REQ_INSUFFICIENT_COMPONENTS 0x0600

/* PathRecord (IBA 15.2.5.16), as on the wire. */
struct ibtsim_path_rec {
	__be64 service_id;
	union ib_gid dgid;
	union ib_gid sgid;
	__be16 dlid;
	__be16 slid;
	__be32 raw_flow_hop;	/* RawTraffic:1, 3, FlowLabel:20, HopLimit:8 */
	u8 tclass;
	u8 rev_numb;		/* Reversible:1, NumbPath:7 */
	__be16 pkey;
	__be16 qos_sl;		/* QoSClass:12, SL:4 */
	u8 mtu;			/* MTUSelector:2, MTU:6 */
	u8 rate;		/* RateSelector:2, Rate:6 */
	u8 life;		/* PacketLifeTimeSelector:2, PacketLifeTime:6 */
	u8 preference;
	u8 reserved[6];
} __packed;

#define IBTSIM_SA_SEL_SHIFT	6
#define IBTSIM_SA_VAL_MASK	0x3f
#define IBTSIM_SA_REVERSIBLE	0x80
#define IBTSIM_SA_NUMB_PATH	0x7f

/* A port that has a GID and LIDs of its own: HCA port or switch port 0. */
static bool ibtsim_sa_endport(const struct ibtsim_port *port)
{
	return port->node->sw ? !port->num : port->num;
}

/*
 * Is @p the end port whose GID (GidPrefix, port GUID) is @gid or, with
 * @gid NULL, whose LID range holds @lid? Caller holds @p's node lock.
 */
static bool ibtsim_sa_port_is(const struct ibtsim_port *p,
			      const union ib_gid *gid, u16 lid)
{
	if (!ibtsim_sa_endport(p))
		return false;
	if (gid)
		return p->guid == be64_to_cpu(gid->global.interface_id) &&
		       p->gid_prefix == be64_to_cpu(gid->global.subnet_prefix);
	return p->lid && lid >= p->lid && lid - p->lid < (1U << p->lmc);
}

/*
 * The end port whose GID is @gid or, with @gid NULL, that holds unicast
 * @lid; NULL if none.
 */
static struct ibtsim_port *ibtsim_sa_port_find(struct ibtsim_fabric *fabric,
					       const union ib_gid *gid, u16 lid)
{
	unsigned long flags;
	u32 i, n;

	if (!gid && (!lid || lid > IBTRACE_IBA_LID_UCAST_MAX))
		return NULL;
	for (i = 0; i < fabric->num_nodes; i++) {
		struct ibtsim_node *node = fabric->nodes[i];
		struct ibtsim_port *found = NULL;

		spin_lock_irqsave(&node->lock, flags);
		for (n = 0; n <= node->num_ports && !found; n++) {
			if (ibtsim_sa_port_is(&node->ports[n], gid, lid))
				found = &node->ports[n];
		}
		spin_unlock_irqrestore(&node->lock, flags);
		if (found)
			return found;
	}
	return NULL;
}

static void ibtsim_sa_gid(struct ibtsim_port *port, union ib_gid *gid,
			  u16 *lid)
{
	unsigned long flags;

	spin_lock_irqsave(&port->node->lock, flags);
	gid->global.subnet_prefix = cpu_to_be64(port->gid_prefix);
	*lid = port->lid;
	spin_unlock_irqrestore(&port->node->lock, flags);
	gid->global.interface_id = cpu_to_be64(port->guid);
}

/* Is @port Active? Its NeighborMTU into *mtu (the smaller one). */
static bool ibtsim_sa_active(struct ibtsim_port *port, u8 *mtu)
{
	unsigned long flags;
	bool active;

	spin_lock_irqsave(&port->node->lock, flags);
	active = port->state == IBTSIM_PORT_ACTIVE;
	*mtu = min(*mtu, port->neighbor_mtu);
	spin_unlock_irqrestore(&port->node->lock, flags);
	return active;
}

/* The exit port of switch @node for @dlid: 0 itself, or PORT_NONE. */
static u8 ibtsim_sa_lft(struct ibtsim_node *node, u16 dlid)
{
	unsigned long flags;
	u8 out = IBTRACE_IBA_LFT_NO_PORT;

	spin_lock_irqsave(&node->lock, flags);
	if (node->ports[0].lid && dlid >= node->ports[0].lid &&
	    dlid - node->ports[0].lid < (1U << node->ports[0].lmc))
		out = 0;
	else if (dlid <= node->sw->lft_top && dlid < IBTSIM_LFT_CAP)
		out = ibtsim_lft_get(node->sw, dlid);
	spin_unlock_irqrestore(&node->lock, flags);
	if (out && out != IBTRACE_IBA_LFT_NO_PORT && out > node->num_ports)
		out = IBTRACE_IBA_LFT_NO_PORT;
	return out;
}

/*
 * Does a packet from end port @src to @dst's LID @dlid get there, over
 * Active links and the LFTs? The smallest NeighborMTU on the way into
 * *mtu.
 */
static bool ibtsim_sa_walk(struct ibtsim_port *src, struct ibtsim_port *dst,
			   u16 dlid, u8 *mtu)
{
	struct ibtsim_port *p = src;
	unsigned int hops;
	u8 out;

	*mtu = IB_MTU_4096;
	if (src == dst)
		return true;
	for (hops = 0; hops < IBTSIM_MAX_FWD_HOPS; hops++) {
		if (p->node->sw && !p->num) {
			out = ibtsim_sa_lft(p->node, dlid);
			if (!out || out == IBTRACE_IBA_LFT_NO_PORT)
				return false;
			p = &p->node->ports[out];
		}
		/* p: the port the packet leaves by */
		if (!p->peer || !ibtsim_sa_active(p, mtu) ||
		    !ibtsim_sa_active(p->peer, mtu))
			return false;
		p = p->peer;
		if (!p->node->sw)
			return p == dst;
		if (p->node == dst->node)
			return true;
		p = &p->node->ports[0];	/* route at this switch */
	}
	return false;
}

/* Does @have satisfy the request's @want under selector @sel? */
static bool ibtsim_sa_select(ib_sa_comp_mask mask, ib_sa_comp_mask sel_bit,
			     ib_sa_comp_mask val_bit, u8 field, u8 have)
{
	u8 sel = field >> IBTSIM_SA_SEL_SHIFT;
	u8 want = field & IBTSIM_SA_VAL_MASK;

	if (!(mask & val_bit))
		return true;
	if (!(mask & sel_bit))
		sel = IB_SA_EQ;
	switch (sel) {
	case IB_SA_GT:
		return have > want;
	case IB_SA_LT:
		return have < want;
	case IB_SA_EQ:
		return have == want;
	default:
		return true;	/* best */
	}
}

/* One end of the path from its GID and/or LID; NULL with *status set. */
static struct ibtsim_port *ibtsim_sa_end(struct ibtsim_fabric *fabric,
					 ib_sa_comp_mask mask,
					 ib_sa_comp_mask gid_bit,
					 ib_sa_comp_mask lid_bit,
					 const union ib_gid *gid, __be16 lid)
{
	struct ibtsim_port *by_gid = NULL, *by_lid = NULL;

	if (mask & gid_bit) {
		by_gid = ibtsim_sa_port_find(fabric, gid, 0);
		if (!by_gid)
			return NULL;
	}
	if (mask & lid_bit) {
		by_lid = ibtsim_sa_port_find(fabric, NULL, be16_to_cpu(lid));
		if (!by_lid || (by_gid && by_gid != by_lid))
			return NULL;
	}
	return by_gid ?: by_lid;
}

static u16 ibtsim_sa_path_rec(struct ibtsim_fabric *fabric,
			      struct ib_sa_mad *mad)
{
	struct ibtsim_path_rec *rec = (struct ibtsim_path_rec *)mad->data;
	ib_sa_comp_mask mask = mad->sa_hdr.comp_mask;
	struct ibtsim_path_rec req = *rec;
	struct ibtsim_port *src, *dst;
	u8 mtu, back_mtu;
	bool reversible;
	u16 slid, dlid;

	BUILD_BUG_ON(sizeof(*rec) != 64);
	if (!(mask & (IB_SA_PATH_REC_SGID | IB_SA_PATH_REC_SLID)) ||
	    !(mask & (IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_DLID)))
		return IBTSIM_SA_ERR_REQ_INSUFFICIENT_COMPONENTS;
	if ((mask & IB_SA_PATH_REC_NUMB_PATH) &&
	    !(req.rev_numb & IBTSIM_SA_NUMB_PATH))
		return IBTSIM_SA_ERR_REQ_INVALID;

	src = ibtsim_sa_end(fabric, mask, IB_SA_PATH_REC_SGID,
			    IB_SA_PATH_REC_SLID, &req.sgid, req.slid);
	dst = ibtsim_sa_end(fabric, mask, IB_SA_PATH_REC_DGID,
			    IB_SA_PATH_REC_DLID, &req.dgid, req.dlid);
	if (!src || !dst)
		return IBTSIM_SA_ERR_NO_RECORDS;

	memset(rec, 0, sizeof(*rec));
	ibtsim_sa_gid(src, &rec->sgid, &slid);
	ibtsim_sa_gid(dst, &rec->dgid, &dlid);
	if (!slid || !dlid || !ibtsim_sa_walk(src, dst, dlid, &mtu))
		return IBTSIM_SA_ERR_NO_RECORDS;
	reversible = ibtsim_sa_walk(dst, src, slid, &back_mtu);
	if ((mask & IB_SA_PATH_REC_REVERSIBLE) &&
	    (req.rev_numb & IBTSIM_SA_REVERSIBLE) && !reversible)
		return IBTSIM_SA_ERR_NO_RECORDS;
	if (reversible)
		mtu = min(mtu, back_mtu);
	if (((mask & IB_SA_PATH_REC_PKEY) &&
	     (be16_to_cpu(req.pkey) & 0x7fff) != (IBTSIM_DEFAULT_PKEY & 0x7fff)) ||
	    ((mask & IB_SA_PATH_REC_SL) && (be16_to_cpu(req.qos_sl) & 0xf)) ||
	    !ibtsim_sa_select(mask, IB_SA_PATH_REC_MTU_SELECTOR,
			      IB_SA_PATH_REC_MTU, req.mtu, mtu) ||
	    !ibtsim_sa_select(mask, IB_SA_PATH_REC_RATE_SELECTOR,
			      IB_SA_PATH_REC_RATE, req.rate, IBTSIM_SA_RATE) ||
	    !ibtsim_sa_select(mask, IB_SA_PATH_REC_PACKET_LIFE_TIME_SELECTOR,
			      IB_SA_PATH_REC_PACKET_LIFE_TIME, req.life,
			      IBTSIM_SA_PKT_LIFE))
		return IBTSIM_SA_ERR_NO_RECORDS;

	if (mask & IB_SA_PATH_REC_SERVICE_ID)
		rec->service_id = req.service_id;
	rec->dlid = cpu_to_be16(dlid);
	rec->slid = cpu_to_be16(slid);
	rec->rev_numb = (reversible ? IBTSIM_SA_REVERSIBLE : 0) | 1;
	rec->pkey = cpu_to_be16(IBTSIM_DEFAULT_PKEY);
	rec->mtu = IB_SA_EQ << IBTSIM_SA_SEL_SHIFT | mtu;
	rec->rate = IB_SA_EQ << IBTSIM_SA_SEL_SHIFT | IBTSIM_SA_RATE;
	rec->life = IB_SA_EQ << IBTSIM_SA_SEL_SHIFT | IBTSIM_SA_PKT_LIFE;
	mad->sa_hdr.attr_offset = cpu_to_be16(sizeof(*rec) / 8);
	return 0;
}

static u16 ibtsim_sa_class_port_info(struct ib_sa_mad *mad)
{
	struct ib_class_port_info *cpi = (struct ib_class_port_info *)mad->data;

	memset(mad->data, 0, sizeof(mad->data));
	cpi->base_version = IB_MGMT_BASE_VERSION;
	cpi->class_version = IB_SA_CLASS_VERSION;
	cpi->cap_mask2_resp_time = cpu_to_be32(IBTSIM_SA_RESP_TIME);
	return 0;
}

/* Answer @mad in place; returns the MAD status. */
static u16 ibtsim_sa_answer(struct ibtsim_fabric *fabric,
			    struct ib_sa_mad *mad)
{
	struct ib_mad_hdr *hdr = &mad->mad_hdr;
	u8 method = hdr->method;

	hdr->method = method == IB_MGMT_METHOD_SET ? IB_MGMT_METHOD_GET_RESP :
						     method | IB_MGMT_METHOD_RESP;
	memset(&mad->rmpp_hdr, 0, sizeof(mad->rmpp_hdr));
	mad->sa_hdr.sm_key = 0;
	mad->sa_hdr.attr_offset = 0;
	mad->sa_hdr.reserved = 0;
	if (hdr->base_version != IB_MGMT_BASE_VERSION ||
	    hdr->class_version != IB_SA_CLASS_VERSION)
		return IB_MGMT_MAD_STATUS_BAD_VERSION;
	if (method != IB_MGMT_METHOD_GET)
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD;
	switch (be16_to_cpu(hdr->attr_id)) {
	case IB_SA_ATTR_CLASS_PORTINFO:
		return ibtsim_sa_class_port_info(mad);
	case IB_SA_ATTR_PATH_REC:
		return ibtsim_sa_path_rec(fabric, mad);
	default:
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
}

/**
 * ibtsim_sa_server_rx - let SM-lite's SA take a packet arriving at node 0
 * @port: the arrival port: an HCA port whose LID range holds the packet's
 *	DLID, or a switch's external port
 * @pkt: the packet; rewritten in place into the SA's answer
 *
 * Called in the fabric's work item, no lock held. On %IBTSIM_SA_ANSWER the
 * answer is addressed to the requester and leaves from the SM: out of
 * @port on an HCA, by the LFT on a switch.
 *
 * Return: &enum ibtsim_sa_verdict.
 */
enum ibtsim_sa_verdict ibtsim_sa_server_rx(struct ibtsim_port *port,
					   struct ibtsim_pkt *pkt)
{
	struct ibtsim_fabric *fabric = port->node->fabric;
	struct ib_sa_mad *mad = (struct ib_sa_mad *)pkt->data;
	u16 sm_lid = READ_ONCE(fabric->sm_lid);
	struct ibtsim_port *sm_port;
	unsigned long flags;
	u16 status;
	u8 state;

	if (!fabric->sm_lite || !sm_lid || pkt->dlid != sm_lid ||
	    pkt->dqpn != 1 || port->node != fabric->nodes[0] ||
	    pkt->len < sizeof(mad->mad_hdr) ||
	    mad->mad_hdr.mgmt_class != IB_MGMT_CLASS_SUBN_ADM)
		return IBTSIM_SA_PASS;
	spin_lock_irqsave(&port->node->lock, flags);
	state = port->state;
	spin_unlock_irqrestore(&port->node->lock, flags);
	if (state < IBTSIM_PORT_ARMED)
		return IBTSIM_SA_PASS;	/* the port drops it */

	if (pkt->len < sizeof(*mad)) {
		ibtsim_drop(port, IBTSIM_DROP_SA_SHORT_MAD);
		return IBTSIM_SA_DROP;
	}
	/* A response goes to node 0's QP1: the SA's own answer to it. */
	if (mad->mad_hdr.method & IB_MGMT_METHOD_RESP)
		return IBTSIM_SA_PASS;
	if (mad->mad_hdr.method == IB_MGMT_METHOD_TRAP_REPRESS) {
		ibtsim_drop(port, IBTSIM_DROP_SA_TRAP_REPRESS);
		return IBTSIM_SA_DROP;
	}
	if (!pkt->slid || pkt->slid > IBTRACE_IBA_LID_UCAST_MAX) {
		ibtsim_drop(port, IBTSIM_DROP_SA_SLID_NOT_UNICAST);
		return IBTSIM_SA_DROP;
	}

	status = ibtsim_sa_answer(fabric, mad);
	mad->mad_hdr.status = cpu_to_be16(status);
	ibtsim_node_dbg(port->node, "SA attr 0x%04x from LID %u: status 0x%04x\n",
			be16_to_cpu(mad->mad_hdr.attr_id), pkt->slid, status);

	sm_port = port->node->sw ? &port->node->ports[0] : port;
	pkt->dqpn = pkt->sqpn;
	pkt->sqpn = 1;
	pkt->qkey = IB_QP1_QKEY;
	pkt->dlid = pkt->slid;
	pkt->slid = sm_lid;
	pkt->has_imm = false;
	pkt->len = sizeof(*mad);
	if (pkt->has_grh) {
		u16 lid;

		pkt->grh.dgid = pkt->grh.sgid;
		ibtsim_sa_gid(sm_port, &pkt->grh.sgid, &lid);
	}
	ibtsim_pkt_answered(fabric, pkt);
	return IBTSIM_SA_ANSWER;
}
