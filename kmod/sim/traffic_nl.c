// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - IBTRACE_SIM_CMD_TRAFFIC_START and _STOP: traffic flows
 * over netlink (traffic.c flows).
 *
 * START names a fabric, an HCA (by index or name), optionally its port,
 * and the flow: DLID, SL, payload size, rate and count; the reply carries
 * the flow's ID, and its TRAFFIC_END message comes when it ends (possibly
 * before the reply is read). STOP ends a flow by its ID.
 */
#include <linux/kernel.h>
#include <net/genetlink.h>

#include "sim.h"
#include "loc.h"

/* Not const: 6.1's nla_policy points at a mutable range. */
static struct netlink_range_validation ibtsim_nl_traffic_dlid_range = {
	.min = 1,
	.max = 0xbfff,	/* unicast LIDs */
};

static struct netlink_range_validation ibtsim_nl_traffic_size_range = {
	.min = 1,
	.max = IBTRACE_SIM_TRAFFIC_SIZE_MAX,
};

static struct netlink_range_validation ibtsim_nl_traffic_rate_range = {
	.max = IBTRACE_SIM_TRAFFIC_RATE_MAX,
};

static struct netlink_range_validation ibtsim_nl_traffic_count_range = {
	.min = 1,
	.max = IBTRACE_SIM_TRAFFIC_COUNT_MAX,
};

const struct nla_policy
ibtsim_nl_traffic_start_policy[IBTRACE_SIM_A_TRAFFIC_COUNT + 1] = {
	IBTSIM_NL_NODE_POLICY,
	[IBTRACE_SIM_A_TRAFFIC_PORT] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_SIM_PORTS_MAX),
	[IBTRACE_SIM_A_TRAFFIC_DLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_traffic_dlid_range),
	[IBTRACE_SIM_A_TRAFFIC_SL] = NLA_POLICY_MAX(NLA_U8, 15),
	[IBTRACE_SIM_A_TRAFFIC_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_traffic_size_range),
	[IBTRACE_SIM_A_TRAFFIC_RATE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_traffic_rate_range),
	[IBTRACE_SIM_A_TRAFFIC_COUNT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_traffic_count_range),
};

const struct nla_policy
ibtsim_nl_traffic_stop_policy[IBTRACE_SIM_A_TRAFFIC_ID + 1] = {
	[IBTRACE_SIM_A_TRAFFIC_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

int ibtsim_nl_traffic_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *port_attr = info->attrs[IBTRACE_SIM_A_TRAFFIC_PORT];
	struct ibtsim_node *node;
	u32 pnum, id;
	int err;

	if (!ibtsim_nl_has_node(info))
		return -EINVAL;
	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_TRAFFIC_DLID)) {
		NL_SET_ERR_MSG(info->extack,
			       "where the flow goes: its DLID is missing");
		return -EINVAL;
	}
	pnum = ibtsim_nl_u32_or(info, IBTRACE_SIM_A_TRAFFIC_PORT, 1);

	mutex_lock(&ibtsim_fabrics_lock);
	node = __ibtsim_nl_node_named(info);
	if (IS_ERR(node)) {
		err = PTR_ERR(node);
		goto out_unlock;
	}
	if (node->sw) {
		NL_SET_ERR_MSG(info->extack,
			       "a flow is sent by an HCA port: the node is a switch");
		err = -EINVAL;
		goto out_unlock;
	}
	if (pnum > node->num_ports) {
		NL_SET_ERR_MSG_ATTR(info->extack, port_attr,
				    "the node has no port of that number");
		err = -EINVAL;
		goto out_unlock;
	}
	/* Under the fabrics lock: the fabric cannot go before it starts. */
	err = ibtsim_traffic_start(&node->ports[pnum],
				   nla_get_u32(info->attrs[IBTRACE_SIM_A_TRAFFIC_DLID]),
				   ibtsim_nl_u8_or(info, IBTRACE_SIM_A_TRAFFIC_SL, 0),
				   ibtsim_nl_u32_or(info, IBTRACE_SIM_A_TRAFFIC_SIZE, 0),
				   ibtsim_nl_u32_or(info, IBTRACE_SIM_A_TRAFFIC_RATE, 0),
				   ibtsim_nl_u32_or(info, IBTRACE_SIM_A_TRAFFIC_COUNT, 0),
				   info, &id);
	if (err)
		goto out_unlock;
	err = ibtsim_nl_id_reply(info, IBTRACE_SIM_CMD_TRAFFIC_START,
				 IBTRACE_SIM_A_TRAFFIC_ID, id);
	if (err)
		ibtsim_traffic_stop(id, IBTRACE_SIM_TRAFFIC_END_STOPPED);
out_unlock:
	mutex_unlock(&ibtsim_fabrics_lock);
	return err;
}

int ibtsim_nl_traffic_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *id_attr = info->attrs[IBTRACE_SIM_A_TRAFFIC_ID];
	int err;

	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_TRAFFIC_ID)) {
		NL_SET_ERR_MSG(info->extack, "which flow: its ID is missing");
		return -EINVAL;
	}
	err = ibtsim_traffic_stop(nla_get_u32(id_attr),
				  IBTRACE_SIM_TRAFFIC_END_STOPPED);
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, id_attr, "no flow of that ID");
	return err;
}
