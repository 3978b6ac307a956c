// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - IBTRACE_SIM_CMD_CAPTURE_START and _STOP: packet captures
 * over netlink (capture.c captures).
 *
 * START names a fabric, a node (by index or name) and optionally one of
 * its ports and a count; the reply carries the capture's ID. The capture
 * starts just before the reply is sent: its first packets may reach the
 * socket first (notifications, sequence number 0). STOP ends a capture
 * by its ID.
 */
#include <linux/kernel.h>
#include <net/genetlink.h>

#include "sim.h"
#include "loc.h"

/* Not const: 6.1's nla_policy points at a mutable range. */
static struct netlink_range_validation ibtsim_nl_capture_count_range = {
	.min = 1,
	.max = IBTRACE_SIM_CAPTURE_MAX_COUNT,
};

const struct nla_policy
ibtsim_nl_capture_start_policy[IBTRACE_SIM_A_CAPTURE_COUNT + 1] = {
	IBTSIM_NL_NODE_POLICY,
	[IBTRACE_SIM_A_CAPTURE_PORT] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_SIM_PORTS_MAX),
	[IBTRACE_SIM_A_CAPTURE_COUNT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_capture_count_range),
};

const struct nla_policy
ibtsim_nl_capture_stop_policy[IBTRACE_SIM_A_CAPTURE_ID + 1] = {
	[IBTRACE_SIM_A_CAPTURE_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/**
 * ibtsim_nl_id_reply - the reply carrying what a request started: its ID
 * @info: the request (CAPTURE_START, INJECT with a wait, TRAFFIC_START)
 * @cmd: its command
 * @attr: the ID's attribute (%IBTRACE_SIM_A_CAPTURE_ID, _TRAFFIC_ID)
 * @id: the ID; 0: none (an INJECT without a wait)
 *
 * Return: 0 or a negative errno.
 */
int ibtsim_nl_id_reply(struct genl_info *info, u8 cmd, int attr, u32 id)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put_reply(skb, info, &ibtsim_nl_family, 0, cmd);
	if (!hdr || (id && nla_put_u32(skb, attr, id))) {
		nlmsg_free(skb);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);
}

int ibtsim_nl_capture_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *port_attr = info->attrs[IBTRACE_SIM_A_CAPTURE_PORT];
	struct ibtsim_node *node;
	int port = -1, err;
	u32 count = 0, id;

	if (!ibtsim_nl_has_node(info))
		return -EINVAL;
	if (info->attrs[IBTRACE_SIM_A_CAPTURE_COUNT])
		count = nla_get_u32(info->attrs[IBTRACE_SIM_A_CAPTURE_COUNT]);

	mutex_lock(&ibtsim_fabrics_lock);
	node = __ibtsim_nl_node_named(info);
	if (IS_ERR(node)) {
		err = PTR_ERR(node);
		goto out_unlock;
	}
	if (port_attr) {
		port = nla_get_u32(port_attr);
		if (port > node->num_ports) {
			NL_SET_ERR_MSG_ATTR(info->extack, port_attr,
					    "the node has no port of that number");
			err = -EINVAL;
			goto out_unlock;
		}
	}
	/* Under the fabrics lock: the fabric cannot go before it starts. */
	err = ibtsim_capture_start(node->fabric, node, port, count, info, &id);
	if (err)
		goto out_unlock;
	err = ibtsim_nl_id_reply(info, IBTRACE_SIM_CMD_CAPTURE_START,
				 IBTRACE_SIM_A_CAPTURE_ID, id);
	if (err)
		ibtsim_capture_stop(id, IBTRACE_SIM_CAPTURE_END_STOPPED);
out_unlock:
	mutex_unlock(&ibtsim_fabrics_lock);
	return err;
}

int ibtsim_nl_capture_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *id_attr = info->attrs[IBTRACE_SIM_A_CAPTURE_ID];
	int err;

	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_CAPTURE_ID)) {
		NL_SET_ERR_MSG(info->extack, "which capture: its ID is missing");
		return -EINVAL;
	}
	err = ibtsim_capture_stop(nla_get_u32(id_attr),
				  IBTRACE_SIM_CAPTURE_END_STOPPED);
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, id_attr, "no capture of that ID");
	return err;
}
