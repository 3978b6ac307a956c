// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_DEV_GET: the RDMA ports ibtrace sees.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <rdma/ib_cache.h>

#include "netlink.h"

const struct nla_policy ibtrace_dev_get_policy[IBTRACE_A_PORT + 1] = {
	IBTRACE_NL_PORT_POLICY,
};

static u8 ibtrace_link_layer(struct ib_device *ibdev, u32 port_num)
{
	switch (rdma_port_get_link_layer(ibdev, port_num)) {
	case IB_LINK_LAYER_INFINIBAND:
		return IBTRACE_LINK_LAYER_IB;
	case IB_LINK_LAYER_ETHERNET:
		return IBTRACE_LINK_LAYER_ETH;
	default:
		return IBTRACE_LINK_LAYER_UNSPEC;
	}
}

static int ibtrace_dev_fill(struct sk_buff *skb, struct ibtrace_port *port)
{
	struct ib_device *ibdev = port->dev->ibdev;
	u8 ll = ibtrace_link_layer(ibdev, port->port_num);
	struct ib_port_attr attr;
	union ib_gid gid;

	if (nla_put_u8(skb, IBTRACE_A_LINK_LAYER, ll) ||
	    nla_put_u8(skb, IBTRACE_A_AGENT, !!port->agent))
		return -EMSGSIZE;

	/* A port that cannot be queried is still listed, without state. */
	if (!ib_query_port(ibdev, port->port_num, &attr)) {
		if (nla_put_u8(skb, IBTRACE_A_PORT_STATE, attr.state))
			return -EMSGSIZE;
		if (ll == IBTRACE_LINK_LAYER_IB &&
		    (nla_put_u32(skb, IBTRACE_A_LID, attr.lid) ||
		     nla_put_u8(skb, IBTRACE_A_LMC, attr.lmc) ||
		     nla_put_u32(skb, IBTRACE_A_SM_LID, attr.sm_lid)))
			return -EMSGSIZE;
	}

	/* Entry 0: on IB the subnet prefix and the port GUID. */
	if (!rdma_query_gid(ibdev, port->port_num, 0, &gid) &&
	    (nla_put(skb, IBTRACE_A_GID, sizeof(gid), gid.raw) ||
	     nla_put_u64_64bit(skb, IBTRACE_A_PORT_GUID,
			       be64_to_cpu(gid.global.interface_id),
			       IBTRACE_A_PAD)))
		return -EMSGSIZE;
	return 0;
}

int ibtrace_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtrace_nl_reply_port(info, IBTRACE_CMD_DEV_GET,
				     ibtrace_dev_fill);
}

int ibtrace_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ibtrace_nl_dump_ports(skb, cb, IBTRACE_CMD_DEV_GET,
				     ibtrace_dev_fill);
}
