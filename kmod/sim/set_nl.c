// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - IBTRACE_SIM_CMD_SET: the fault knobs over netlink, and
 * the knob attributes of NODE_GET replies.
 *
 * A SET request names a fabric and one node (by index or name) and
 * carries one IBTRACE_SIM_A_PORT nest of port knobs and/or one
 * IBTRACE_SIM_A_MISROUTE nest. The policy checks ranges; what depends on
 * the node (port number, link present, GUID table, the fabric's GUID table
 * size, switch only) is checked by knobs.c before anything changes, so a
 * request with one bad value changes nothing. Errors point at the
 * attribute at fault.
 *
 * In NODE_GET replies a port nest carries a knob only when it differs
 * from its power-on value: DROP_PPM, DELAY_US, LINK_DOWN, SINK_PPS,
 * IGNORE_CREDITS and GUID_QUIRKS when non-zero, BUF_BLOCKS when not
 * IBTRACE_SIM_BUF_BLOCKS_DEFAULT, LINK_WIDTH and LINK_SPEED when not 4x
 * and QDR, GUID_CAP when not the fabric's GUID table size. A switch's
 * reply carries one MISROUTE nest per rule, by DLID.
 */
#include <linux/kernel.h>
#include <net/genetlink.h>

#include "sim.h"
#include "loc.h"

/* Not const: 6.1's nla_policy points at a mutable range. */
static struct netlink_range_validation ibtsim_nl_ppm_range = {
	.max = IBTSIM_DROP_PPM_MAX,
};

static struct netlink_range_validation ibtsim_nl_delay_range = {
	.max = IBTRACE_SIM_DELAY_US_MAX,
};

static struct netlink_range_validation ibtsim_nl_buf_range = {
	.min = IBTRACE_SIM_BUF_BLOCKS_MIN,
	.max = IBTRACE_SIM_BUF_BLOCKS_MAX,
};

static struct netlink_range_validation ibtsim_nl_sink_range = {
	.max = IBTRACE_SIM_SINK_PPS_MAX,
};

static struct netlink_range_validation ibtsim_nl_dlid_range = {
	.min = 1,
	.max = IBTRACE_IBA_LID_UCAST_MAX,
};

static const struct nla_policy
ibtsim_nl_port_policy[IBTRACE_SIM_PORT_A_MAX + 1] = {
	[IBTRACE_SIM_PORT_A_NUM] = NLA_POLICY_MAX(NLA_U32, IBTRACE_SIM_PORTS_MAX),
	[IBTRACE_SIM_PORT_A_DROP_PPM] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_ppm_range),
	[IBTRACE_SIM_PORT_A_DELAY_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_delay_range),
	[IBTRACE_SIM_PORT_A_LINK_DOWN] = NLA_POLICY_MAX(NLA_U8, 1),
	[IBTRACE_SIM_PORT_A_GUID_CAP] = NLA_POLICY_MIN(NLA_U8, 1),
	[IBTRACE_SIM_PORT_A_GUID_QUIRKS] =
		NLA_POLICY_MASK(NLA_U32, IBTSIM_GUID_QUIRKS_ALL),
	[IBTRACE_SIM_PORT_A_BUF_BLOCKS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_buf_range),
	[IBTRACE_SIM_PORT_A_SINK_PPS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_sink_range),
	[IBTRACE_SIM_PORT_A_IGNORE_CREDITS] = NLA_POLICY_MAX(NLA_U8, 1),
	/* 1x or 4x; SDR, DDR or QDR: the holes are knobs.c's to refuse */
	[IBTRACE_SIM_PORT_A_LINK_WIDTH] =
		NLA_POLICY_RANGE(NLA_U8, IBTSIM_WIDTH_1X, IBTSIM_WIDTH_4X),
	[IBTRACE_SIM_PORT_A_LINK_SPEED] =
		NLA_POLICY_RANGE(NLA_U8, IBTSIM_SPEED_SDR, IBTSIM_SPEED_QDR),
};

static const struct nla_policy
ibtsim_nl_misroute_policy[IBTRACE_SIM_MISROUTE_A_MAX + 1] = {
	[IBTRACE_SIM_MISROUTE_A_DLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_dlid_range),
	[IBTRACE_SIM_MISROUTE_A_PORT] =
		NLA_POLICY_MAX(NLA_U32, IBTRACE_SIM_PORTS_MAX),
};

const struct nla_policy ibtsim_nl_set_policy[IBTRACE_SIM_A_MISROUTE + 1] = {
	IBTSIM_NL_NODE_POLICY,
	[IBTRACE_SIM_A_PORT] = NLA_POLICY_NESTED(ibtsim_nl_port_policy),
	[IBTRACE_SIM_A_MISROUTE] = NLA_POLICY_NESTED(ibtsim_nl_misroute_policy),
};

/* The port attribute of each knob, for errors. */
static const int ibtsim_nl_knob_attr[IBTSIM_KNOB_COUNT] = {
	[IBTSIM_KNOB_DROP] = IBTRACE_SIM_PORT_A_DROP_PPM,
	[IBTSIM_KNOB_DELAY] = IBTRACE_SIM_PORT_A_DELAY_US,
	[IBTSIM_KNOB_LINK] = IBTRACE_SIM_PORT_A_LINK_DOWN,
	[IBTSIM_KNOB_BUF] = IBTRACE_SIM_PORT_A_BUF_BLOCKS,
	[IBTSIM_KNOB_SINK] = IBTRACE_SIM_PORT_A_SINK_PPS,
	[IBTSIM_KNOB_CREDITS] = IBTRACE_SIM_PORT_A_IGNORE_CREDITS,
	[IBTSIM_KNOB_WIDTH] = IBTRACE_SIM_PORT_A_LINK_WIDTH,
	[IBTSIM_KNOB_SPEED] = IBTRACE_SIM_PORT_A_LINK_SPEED,
	[IBTSIM_KNOB_GUID_CAP] = IBTRACE_SIM_PORT_A_GUID_CAP,
	[IBTSIM_KNOB_GUID_QUIRKS] = IBTRACE_SIM_PORT_A_GUID_QUIRKS,
};

/*
 * Report @why (a static string, as the knob checks return) at @attr.
 * NL_SET_ERR_MSG_ATTR() wants a literal, hence the direct assignment.
 */
static void ibtsim_nl_err(struct netlink_ext_ack *extack,
			  const struct nlattr *attr, const char *why)
{
	if (!extack)
		return;
	extack->_msg = why;
	NL_SET_BAD_ATTR(extack, attr);
}

/*
 * The request's nest @type, if any, parsed into @tb by its policy in
 * ibtsim_nl_set_policy; it must hold attribute @required, else @why (a
 * static string) at the nest. 0 or an error, the extack set.
 */
static int ibtsim_nl_nest(struct genl_info *info, int type,
			  struct nlattr **tb, int required, const char *why)
{
	const struct nla_policy *pol = &ibtsim_nl_set_policy[type];
	int err;

	if (!info->attrs[type])
		return 0;
	err = nla_parse_nested(tb, pol->len, info->attrs[type],
			       pol->nested_policy, info->extack);
	if (err)
		return err;
	if (!tb[required]) {
		ibtsim_nl_err(info->extack, info->attrs[type], why);
		return -EINVAL;
	}
	return 0;
}

/**
 * ibtsim_nl_node - the node a request names (NODE_INDEX or NODE_NAME)
 * @fabric: the fabric; caller holds ibtsim_fabrics_lock
 * @info: the request
 *
 * Return: the node, or NULL (the extack says why).
 */
struct ibtsim_node *ibtsim_nl_node(struct ibtsim_fabric *fabric,
				   struct genl_info *info)
{
	struct nlattr *index_attr = info->attrs[IBTRACE_SIM_A_NODE_INDEX];
	struct nlattr *name_attr = info->attrs[IBTRACE_SIM_A_NODE_NAME];
	struct ibtsim_node *node = NULL;
	u32 i;

	if (index_attr) {
		i = nla_get_u32(index_attr);
		if (i >= fabric->num_nodes) {
			NL_SET_ERR_MSG_ATTR(info->extack, index_attr,
					    "no node of that index in the fabric");
			return NULL;
		}
		node = fabric->nodes[i];
		if (name_attr && strcmp(node->desc, nla_data(name_attr))) {
			NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
					    "node name and index name different nodes");
			return NULL;
		}
		return node;
	}
	for (i = 0; i < fabric->num_nodes; i++)
		if (!strcmp(fabric->nodes[i]->desc, nla_data(name_attr)))
			return fabric->nodes[i];
	NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
			    "no node of that name in the fabric");
	return NULL;
}

/**
 * ibtsim_nl_has_node - does a request name a fabric and one of its nodes?
 * @info: the request
 *
 * Return: true, or false with the extack saying what is missing.
 */
bool ibtsim_nl_has_node(struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_FABRIC_NAME)) {
		NL_SET_ERR_MSG(info->extack, "a fabric name is required");
		return false;
	}
	if (!info->attrs[IBTRACE_SIM_A_NODE_INDEX] &&
	    !info->attrs[IBTRACE_SIM_A_NODE_NAME]) {
		NL_SET_ERR_MSG(info->extack,
			       "a node index or node name is required");
		return false;
	}
	return true;
}

/**
 * __ibtsim_nl_node_named - the node of a built fabric a request names
 * @info: the request, checked by ibtsim_nl_has_node()
 *
 * Caller holds ibtsim_fabrics_lock.
 *
 * Return: the node, or an ERR_PTR() (the extack says why).
 */
struct ibtsim_node *__ibtsim_nl_node_named(struct genl_info *info)
{
	struct ibtsim_fabric *fabric;
	struct ibtsim_node *node;

	fabric = __ibtsim_nl_fabric_named(info->attrs[IBTRACE_SIM_A_FABRIC_NAME],
					  info->extack, true);
	if (IS_ERR(fabric))
		return ERR_CAST(fabric);
	node = ibtsim_nl_node(fabric, info);
	return node ?: ERR_PTR(-ENOENT);
}

/* The port knobs of nest @pt into @k. */
static void ibtsim_nl_knobs(struct nlattr **pt, struct ibtsim_port_knobs *k)
{
	unsigned int i;

	for (i = 0; i < IBTSIM_KNOB_COUNT; i++) {
		const struct nlattr *a = pt[ibtsim_nl_knob_attr[i]];

		if (a)
			ibtsim_port_knobs_put(k, i, ibtsim_knob_max(i) > U8_MAX ?
					      nla_get_u32(a) : nla_get_u8(a));
	}
}

/* Check the port nest against @node: the port, or NULL (extack set). */
static struct ibtsim_port *ibtsim_nl_set_port(struct ibtsim_node *node,
					      struct nlattr **pt,
					      const struct ibtsim_port_knobs *k,
					      struct netlink_ext_ack *extack)
{
	struct nlattr *num_attr = pt[IBTRACE_SIM_PORT_A_NUM];
	struct ibtsim_port *port;
	enum ibtsim_knob bad;
	const char *why;
	u32 num;

	num = nla_get_u32(num_attr);
	if (num > node->num_ports || (!num && !node->sw)) {
		NL_SET_ERR_MSG_ATTR(extack, num_attr, "no such port on the node");
		return NULL;
	}
	port = &node->ports[num];
	if (ibtsim_port_knobs_check(port, k, &bad, &why)) {
		ibtsim_nl_err(extack, pt[ibtsim_nl_knob_attr[bad]], why);
		return NULL;
	}
	return port;
}

/**
 * ibtsim_nl_set_doit - IBTRACE_SIM_CMD_SET
 * @skb: the request
 * @info: its attributes, validated by ibtsim_nl_set_policy
 *
 * Return: 0 or a negative errno with an extack message.
 */
int ibtsim_nl_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *port_attr = info->attrs[IBTRACE_SIM_A_PORT];
	struct nlattr *mr_attr = info->attrs[IBTRACE_SIM_A_MISROUTE];
	struct nlattr *pt[IBTRACE_SIM_PORT_A_MAX + 1] = {};
	struct nlattr *mt[IBTRACE_SIM_MISROUTE_A_MAX + 1] = {};
	struct ibtsim_port_knobs k = {};
	struct ibtsim_port *port = NULL;
	struct ibtsim_fabric *fabric;
	struct ibtsim_node *node;
	u32 dlid = 0, out = 0;
	const char *why;
	int err;

	if (!ibtsim_nl_has_node(info))
		return -EINVAL;
	if (!port_attr && !mr_attr) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to set: no port or misroute attribute");
		return -EINVAL;
	}
	err = ibtsim_nl_nest(info, IBTRACE_SIM_A_PORT, pt,
			     IBTRACE_SIM_PORT_A_NUM,
			     "port attribute without a port number") ?:
	      ibtsim_nl_nest(info, IBTRACE_SIM_A_MISROUTE, mt,
			     IBTRACE_SIM_MISROUTE_A_DLID,
			     "misroute rule without a DLID");
	if (err)
		return err;
	if (port_attr)
		ibtsim_nl_knobs(pt, &k);
	if (mr_attr) {
		dlid = nla_get_u32(mt[IBTRACE_SIM_MISROUTE_A_DLID]);
		if (mt[IBTRACE_SIM_MISROUTE_A_PORT])
			out = nla_get_u32(mt[IBTRACE_SIM_MISROUTE_A_PORT]);
	}

	mutex_lock(&ibtsim_fabrics_lock);
	node = __ibtsim_nl_node_named(info);
	if (IS_ERR(node)) {
		err = PTR_ERR(node);
		goto out_unlock;
	}
	fabric = node->fabric;

	mutex_lock(&fabric->knob_lock);
	err = -EINVAL;
	if (port_attr) {
		port = ibtsim_nl_set_port(node, pt, &k, info->extack);
		if (!port)
			goto out_knobs;
	}
	if (mr_attr) {
		bool del = !mt[IBTRACE_SIM_MISROUTE_A_PORT];

		err = ibtsim_misroute_check(node, dlid, out, del, &why);
		if (err) {
			ibtsim_nl_err(info->extack,
				      err == -ERANGE && !del ?
				      mt[IBTRACE_SIM_MISROUTE_A_PORT] : mr_attr,
				      why);
			goto out_knobs;
		}
		/* The only step that may fail: first, before any change. */
		if (del) {
			ibtsim_misroute_del(node, dlid);
		} else {
			err = ibtsim_misroute_set(node, dlid, out);
			if (err)
				goto out_knobs;
		}
	}
	if (port)
		ibtsim_port_knobs_apply(port, &k);
	err = 0;
out_knobs:
	mutex_unlock(&fabric->knob_lock);
out_unlock:
	mutex_unlock(&ibtsim_fabrics_lock);
	return err;
}

/**
 * ibtsim_nl_fill_knobs - the non-default knobs of a port, into its nest
 * @skb: the message, inside the port's nest
 * @port: the port
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtsim_nl_fill_knobs(struct sk_buff *skb, struct ibtsim_port *port)
{
	struct ibtsim_port_knobs k;

	ibtsim_port_knobs_read(port, &k);
	if ((k.drop_ppm &&
	     nla_put_u32(skb, IBTRACE_SIM_PORT_A_DROP_PPM, k.drop_ppm)) ||
	    (k.delay_us &&
	     nla_put_u32(skb, IBTRACE_SIM_PORT_A_DELAY_US, k.delay_us)) ||
	    (k.link_down && nla_put_u8(skb, IBTRACE_SIM_PORT_A_LINK_DOWN, 1)) ||
	    (k.buf_blocks != IBTRACE_SIM_BUF_BLOCKS_DEFAULT &&
	     nla_put_u32(skb, IBTRACE_SIM_PORT_A_BUF_BLOCKS, k.buf_blocks)) ||
	    (k.sink_pps &&
	     nla_put_u32(skb, IBTRACE_SIM_PORT_A_SINK_PPS, k.sink_pps)) ||
	    (k.ignore_credits &&
	     nla_put_u8(skb, IBTRACE_SIM_PORT_A_IGNORE_CREDITS, 1)) ||
	    (k.link_width != IBTSIM_WIDTH_4X &&
	     nla_put_u8(skb, IBTRACE_SIM_PORT_A_LINK_WIDTH, k.link_width)) ||
	    (k.link_speed != IBTSIM_SPEED_QDR &&
	     nla_put_u8(skb, IBTRACE_SIM_PORT_A_LINK_SPEED, k.link_speed)))
		return -EMSGSIZE;
	if (port->node->sw && port->num)
		return 0;	/* no GUID table */
	if ((k.guid_cap != port->node->fabric->guid_cap &&
	     nla_put_u8(skb, IBTRACE_SIM_PORT_A_GUID_CAP, k.guid_cap)) ||
	    (k.guid_quirks &&
	     nla_put_u32(skb, IBTRACE_SIM_PORT_A_GUID_QUIRKS, k.guid_quirks)))
		return -EMSGSIZE;
	return 0;
}

/**
 * ibtsim_nl_fill_misroutes - one IBTRACE_SIM_A_MISROUTE nest per rule
 * @skb: the message
 * @node: the node; nothing for an HCA
 *
 * Caller holds ibtsim_fabrics_lock.
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtsim_nl_fill_misroutes(struct sk_buff *skb, struct ibtsim_node *node)
{
	struct nlattr *nest;
	unsigned long dlid;
	void *entry;

	if (!node->sw)
		return 0;
	xa_for_each(&node->sw->misroute, dlid, entry) {
		nest = nla_nest_start(skb, IBTRACE_SIM_A_MISROUTE);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(skb, IBTRACE_SIM_MISROUTE_A_DLID, dlid) ||
		    nla_put_u32(skb, IBTRACE_SIM_MISROUTE_A_PORT,
				xa_to_value(entry))) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return 0;
}
