// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - IBTRACE_SIM_CMD_INJECT: pose as any node of a fabric.
 *
 * The request names a node and the port it "sends" by, and the packet's
 * headers field by field: LRH SLID, DLID, SL and VL, an optional GRH (SGID,
 * DGID), BTH P_Key and destination QP, DETH Q_Key and source QP, all
 * forged freely (a switch's or a router's source, a LID nobody has), and
 * the payload, a MAD or anything. The packet then leaves that port as is
 * (fabric.c: ibtsim_port_tx()), onto its link, and every port it reaches
 * treats it as any packet: its VL checked, routed, answered, delivered or
 * dropped and counted.
 *
 * With a wait, the payload is a MAD whose answer the requester wants: a
 * wait for it (capture.c) starts before the packet is queued, so the
 * answer, taken off the fabric where it is sent, comes to the requesting
 * socket as a captured packet, possibly before the reply to the request.
 * The reply carries the wait's ID.
 */
#include <linux/kernel.h>
#include <net/genetlink.h>
#include <rdma/ib_mad.h>

#include "sim.h"
#include "loc.h"

/*
 * Not const: 6.1's nla_policy points at a mutable range. Ranges past
 * S16_MAX need one (NLA_POLICY_RANGE() keeps its bounds in s16).
 */
static struct netlink_range_validation ibtsim_nl_inject_lid_range = {
	.max = 0xffff,
};

static struct netlink_range_validation ibtsim_nl_inject_qpn_range = {
	.max = 0xffffff,
};

static struct netlink_range_validation ibtsim_nl_inject_wait_range = {
	.min = 1,
	.max = IBTRACE_SIM_INJECT_WAIT_MAX_MS,
};

const struct nla_policy
ibtsim_nl_inject_policy[IBTRACE_SIM_A_INJECT_WAIT_MS + 1] = {
	IBTSIM_NL_NODE_POLICY,
	[IBTRACE_SIM_A_INJECT_PORT] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_SIM_PORTS_MAX),
	[IBTRACE_SIM_A_INJECT_SLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_inject_lid_range),
	[IBTRACE_SIM_A_INJECT_DLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_inject_lid_range),
	[IBTRACE_SIM_A_INJECT_SL] = NLA_POLICY_MAX(NLA_U8, 15),
	[IBTRACE_SIM_A_INJECT_VL] = NLA_POLICY_MAX(NLA_U8, 15),
	[IBTRACE_SIM_A_INJECT_SQPN] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_inject_qpn_range),
	[IBTRACE_SIM_A_INJECT_DQPN] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_inject_qpn_range),
	[IBTRACE_SIM_A_INJECT_QKEY] = { .type = NLA_U32 },
	[IBTRACE_SIM_A_INJECT_PKEY] = { .type = NLA_U16 },
	[IBTRACE_SIM_A_INJECT_SGID] = NLA_POLICY_EXACT_LEN(sizeof(union ib_gid)),
	[IBTRACE_SIM_A_INJECT_DGID] = NLA_POLICY_EXACT_LEN(sizeof(union ib_gid)),
	[IBTRACE_SIM_A_INJECT_PAYLOAD] =
		NLA_POLICY_RANGE(NLA_BINARY, 1, IBTRACE_SIM_INJECT_PAYLOAD_MAX),
	[IBTRACE_SIM_A_INJECT_WAIT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_inject_wait_range),
};

/*
 * The packet the request describes, its defaults taken from nothing but
 * the request (those that need the port come later). NULL: -ENOMEM.
 */
static struct ibtsim_pkt *ibtsim_inject_pkt(struct genl_info *info)
{
	struct nlattr *pay = info->attrs[IBTRACE_SIM_A_INJECT_PAYLOAD];
	const struct ib_mad_hdr *hdr = nla_data(pay);
	u32 len = nla_len(pay);
	struct ibtsim_pkt *pkt;
	bool smp;

	pkt = kzalloc(struct_size(pkt, data, len), GFP_KERNEL);
	if (!pkt)
		return NULL;
	memcpy(pkt->data, hdr, len);
	pkt->len = len;
	pkt->forged = true;
	smp = len >= sizeof(*hdr) &&
	      (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	       hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE);
	pkt->dlid = nla_get_u32(info->attrs[IBTRACE_SIM_A_INJECT_DLID]);
	pkt->sl = ibtsim_nl_u8_or(info, IBTRACE_SIM_A_INJECT_SL, 0);
	pkt->dqpn = ibtsim_nl_u32_or(info, IBTRACE_SIM_A_INJECT_DQPN, !smp);
	pkt->sqpn = ibtsim_nl_u32_or(info, IBTRACE_SIM_A_INJECT_SQPN,
				     pkt->dqpn ? 1 : 0);
	pkt->vl = ibtsim_nl_u8_or(info, IBTRACE_SIM_A_INJECT_VL,
				  pkt->dqpn ? 0 : IBTSIM_VL15);
	pkt->qkey = ibtsim_nl_u32_or(info, IBTRACE_SIM_A_INJECT_QKEY,
				     pkt->dqpn ? IB_QP1_QKEY : 0);
	pkt->pkey = info->attrs[IBTRACE_SIM_A_INJECT_PKEY] ?
		    nla_get_u16(info->attrs[IBTRACE_SIM_A_INJECT_PKEY]) :
		    IBTSIM_DEFAULT_PKEY;
	if (info->attrs[IBTRACE_SIM_A_INJECT_DGID]) {
		pkt->has_grh = true;
		pkt->grh.version_tclass_flow = cpu_to_be32(6U << 28);
		pkt->grh.paylen = cpu_to_be16(len);
		pkt->grh.next_hdr = 0x1b;	/* IBA transport */
		pkt->grh.hop_limit = 0xff;
		nla_memcpy(&pkt->grh.dgid, info->attrs[IBTRACE_SIM_A_INJECT_DGID],
			   sizeof(pkt->grh.dgid));
	}
	return pkt;
}

/*
 * The defaults of @pkt that come from the port it leaves by: the SLID
 * (the port's LID, a switch's port 0's) and the SGID (the port's GID).
 */
static void ibtsim_inject_from(struct ibtsim_pkt *pkt, struct ibtsim_port *port,
			       struct genl_info *info)
{
	struct ibtsim_node *node = port->node;
	struct ibtsim_port *lid_port = node->sw ? &node->ports[0] : port;
	unsigned long flags;
	u64 prefix;
	u16 lid;

	spin_lock_irqsave(&node->lock, flags);
	lid = lid_port->lid;
	prefix = port->gid_prefix;
	spin_unlock_irqrestore(&node->lock, flags);

	pkt->src_port = port;
	pkt->slid = ibtsim_nl_u32_or(info, IBTRACE_SIM_A_INJECT_SLID,
				     lid ?: be16_to_cpu(IB_LID_PERMISSIVE));
	if (!pkt->has_grh)
		return;
	if (info->attrs[IBTRACE_SIM_A_INJECT_SGID]) {
		nla_memcpy(&pkt->grh.sgid, info->attrs[IBTRACE_SIM_A_INJECT_SGID],
			   sizeof(pkt->grh.sgid));
	} else {
		pkt->grh.sgid.global.subnet_prefix = cpu_to_be64(prefix);
		pkt->grh.sgid.global.interface_id = cpu_to_be64(port->guid);
	}
}

/* Has the request what it must? If not, the extack says what is missing. */
static bool ibtsim_nl_inject_has(struct genl_info *info)
{
	if (!ibtsim_nl_has_node(info))
		return false;
	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_INJECT_PORT)) {
		NL_SET_ERR_MSG(info->extack,
			       "which port the packet leaves by: the port number is missing");
		return false;
	}
	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_INJECT_DLID)) {
		NL_SET_ERR_MSG(info->extack, "the packet needs its DLID");
		return false;
	}
	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_INJECT_PAYLOAD)) {
		NL_SET_ERR_MSG(info->extack, "the packet needs its payload");
		return false;
	}
	return true;
}

int ibtsim_nl_inject_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *port_attr = info->attrs[IBTRACE_SIM_A_INJECT_PORT];
	struct nlattr *pay = info->attrs[IBTRACE_SIM_A_INJECT_PAYLOAD];
	struct ibtsim_fabric *fabric;
	struct ibtsim_node *node;
	struct ibtsim_pkt *pkt;
	u32 wait, pnum, id = 0;
	int err;

	if (!ibtsim_nl_inject_has(info))
		return -EINVAL;
	wait = ibtsim_nl_u32_or(info, IBTRACE_SIM_A_INJECT_WAIT_MS, 0);
	if (wait && nla_len(pay) < sizeof(struct ib_mad_hdr)) {
		NL_SET_ERR_MSG_ATTR(info->extack, pay,
				    "waiting for an answer needs a MAD: the payload is shorter than a MAD header");
		return -EINVAL;
	}
	pkt = ibtsim_inject_pkt(info);
	if (!pkt)
		return -ENOMEM;

	mutex_lock(&ibtsim_fabrics_lock);
	node = __ibtsim_nl_node_named(info);
	if (IS_ERR(node)) {
		err = PTR_ERR(node);
		goto out_unlock;
	}
	fabric = node->fabric;
	pnum = nla_get_u32(port_attr);
	if (pnum > node->num_ports) {
		NL_SET_ERR_MSG_ATTR(info->extack, port_attr,
				    "the node has no port of that number");
		err = -EINVAL;
		goto out_unlock;
	}
	ibtsim_inject_from(pkt, &node->ports[pnum], info);
	/* Under the fabrics lock: the fabric cannot go before it is queued. */
	if (wait) {
		err = ibtsim_capture_claim_start(fabric, nla_data(pay), wait,
						 info, &id);
		if (err)
			goto out_unlock;
	}
	err = ibtsim_fabric_inject(fabric, pkt);
	if (err) {
		if (id)
			ibtsim_capture_stop(id, IBTRACE_SIM_CAPTURE_END_STOPPED);
		if (err == -EBUSY)
			NL_SET_ERR_MSG(info->extack,
				       "busy: IBTRACE_SIM_INJECT_INFLIGHT_MAX injected packets travel the fabric already");
		else
			NL_SET_ERR_MSG(info->extack, "the fabric is being deleted");
		goto out_unlock;
	}
	pkt = NULL;
	err = ibtsim_nl_id_reply(info, IBTRACE_SIM_CMD_INJECT,
				 IBTRACE_SIM_A_CAPTURE_ID, id);
out_unlock:
	mutex_unlock(&ibtsim_fabrics_lock);
	kfree(pkt);
	return err;
}
