// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - the control interface: generic netlink family "ibtrace_sim".
 *
 * FABRIC_ADD / FABRIC_DEL create and destroy fabrics, FABRIC_GET and
 * NODE_GET show them, SET (set_nl.c) turns their fault knobs. Linux 6.1
 * has no formatted extack messages, so a topology error is reported as
 * uapi/linux/ibtrace_sim.h describes: a TOPO_ERROR message (line, reason)
 * unicast before the error ACK, whose extack carries the same reason and
 * points at the TOPOLOGY attribute holding the line.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

#include "sim.h"
#include "verbs.h"
#include "topo.h"
#include "loc.h"

/**
 * IBTSIM_NL_POLICY() - an op's request policy and the maxattr it implies
 * @p: the policy array (an array: a pointer does not build)
 *
 * Every op of the family gets its policy through this macro, so its
 * maxattr is the array's last index and nothing else: genetlink takes a
 * maxattr of 0 for the family's, and would validate (and dump, for
 * CTRL_CMD_GETPOLICY) a shorter array past its end. An array of fewer
 * than two entries does not build. A policy array ends at the last
 * attribute it defines.
 */
#define IBTSIM_NL_POLICY(p)						\
	.policy = (p),							\
	.maxattr = sizeof(p) / sizeof((p)[0]) - 1 + __must_be_array(p) +	\
		   BUILD_BUG_ON_ZERO(sizeof(p) < 2 * sizeof((p)[0]))

/* Not const: 6.1's nla_policy points at a mutable range. */
static struct netlink_range_validation ibtsim_nl_time_scale_range = {
	.max = IBTRACE_SIM_TIME_SCALE_MAX,
};

/*
 * Attributes not listed are output only: strict validation rejects them.
 * Unsized, so that an array ends at the last attribute it defines.
 */
static const struct nla_policy ibtsim_nl_add_policy[] = {
	[IBTRACE_SIM_A_FABRIC_NAME] = { .type = NLA_NUL_STRING,
					.len = IBTRACE_SIM_NAME_MAX },
	[IBTRACE_SIM_A_TOPOLOGY] = { .type = NLA_STRING },
	[IBTRACE_SIM_A_SM] = NLA_POLICY_MAX(NLA_U8, 1),
	[IBTRACE_SIM_A_GUID_CAP] = NLA_POLICY_MIN(NLA_U8, 1),
	[IBTRACE_SIM_A_SEED] = { .type = NLA_U32 },
	[IBTRACE_SIM_A_NUM_DEVICES] = { .type = NLA_U32 },
	[IBTRACE_SIM_A_TIME_SCALE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtsim_nl_time_scale_range),
};

static const struct nla_policy ibtsim_nl_name_policy[] = {
	[IBTRACE_SIM_A_FABRIC_NAME] = { .type = NLA_NUL_STRING,
					.len = IBTRACE_SIM_NAME_MAX },
};

/**
 * ibtsim_nl_u32_or - a request's u32 attribute, or a default
 * @info: the request
 * @type: the attribute
 * @def: its value if absent
 *
 * Return: the value.
 */
u32 ibtsim_nl_u32_or(struct genl_info *info, int type, u32 def)
{
	return info->attrs[type] ? nla_get_u32(info->attrs[type]) : def;
}

/**
 * ibtsim_nl_u8_or - a request's u8 attribute, or a default
 * @info: the request
 * @type: the attribute
 * @def: its value if absent
 *
 * Return: the value.
 */
u8 ibtsim_nl_u8_or(struct genl_info *info, int type, u8 def)
{
	return info->attrs[type] ? nla_get_u8(info->attrs[type]) : def;
}

/* 6.1 has no nla_get_u8_default(). */
static u8 ibtsim_nl_u8(const struct nlattr *attr, u8 dflt)
{
	return attr ? nla_get_u8(attr) : dflt;
}

static bool ibtsim_nl_name_ok(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!ibtsim_name_char(*name))
			return false;
	return true;
}

/*
 * The end of a message begun at @hdr whose attributes @err says were all
 * put (0) or not (the message is taken back). 0 or -EMSGSIZE.
 */
static int ibtsim_nl_msg_end(struct sk_buff *skb, void *hdr, int err)
{
	if (err) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int ibtsim_nl_put_fabric(struct sk_buff *skb,
				struct ibtsim_fabric *fabric)
{
	char loop[IBTSIM_FC_REPORT_LEN];

	if (nla_put_string(skb, IBTRACE_SIM_A_FABRIC_NAME, fabric->name))
		return -EMSGSIZE;
	/* While it is built, the rest is being written by the build. */
	if (fabric->building)
		return nla_put_u8(skb, IBTRACE_SIM_A_BUILDING, 1);
	if (nla_put_u32(skb, IBTRACE_SIM_A_NUM_NODES, fabric->num_nodes) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_NUM_CAS, fabric->num_cas) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_NUM_DEVICES, fabric->num_devs) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_NUM_SWITCHES, fabric->num_switches) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_NUM_LINKS, fabric->num_links) ||
	    nla_put_u8(skb, IBTRACE_SIM_A_SM, fabric->sm_lite) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_SEED, fabric->seed) ||
	    (fabric->sm_lite && fabric->sm_lid &&
	     nla_put_u32(skb, IBTRACE_SIM_A_SM_LID, fabric->sm_lid)) ||
	    (fabric->time_scale &&
	     nla_put_u32(skb, IBTRACE_SIM_A_TIME_SCALE, fabric->time_scale)))
		return -EMSGSIZE;
	ibtsim_fc_report(fabric, loop, sizeof(loop));
	if (loop[0] && nla_put_string(skb, IBTRACE_SIM_A_DEADLOCK, loop))
		return -EMSGSIZE;
	return 0;
}

static int ibtsim_nl_fill_fabric(struct sk_buff *skb,
				 struct ibtsim_fabric *fabric,
				 u32 portid, u32 seq, int flags, u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &ibtsim_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	return ibtsim_nl_msg_end(skb, hdr, ibtsim_nl_put_fabric(skb, fabric));
}

/* A message describing @fabric, in *@skbp. */
static int ibtsim_nl_fabric_msg(struct sk_buff **skbp,
				struct ibtsim_fabric *fabric, u32 portid,
				u32 seq, u8 cmd)
{
	struct sk_buff *skb;
	int err;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	err = ibtsim_nl_fill_fabric(skb, fabric, portid, seq, 0, cmd);
	if (err) {
		nlmsg_free(skb);
		return err;
	}
	*skbp = skb;
	return 0;
}

static int ibtsim_nl_reply_fabric(struct genl_info *info,
				  struct ibtsim_fabric *fabric, u8 cmd)
{
	struct sk_buff *skb;
	int err;

	err = ibtsim_nl_fabric_msg(&skb, fabric, info->snd_portid,
				   info->snd_seq, cmd);
	return err ?: genlmsg_reply(skb, info);
}

/*
 * The text of one TOPOLOGY attribute: all of it but one terminating NUL.
 * A NUL anywhere else stays in the text, where the parser refuses it with
 * its line (cutting the piece there would build what the user did not
 * write).
 */
static size_t ibtsim_nl_piece_len(const struct nlattr *nla)
{
	size_t n = nla_len(nla);

	if (n && !((const char *)nla_data(nla))[n - 1])
		n--;
	return n;
}

/* Concatenate every TOPOLOGY attribute of the request, in order. */
static char *ibtsim_nl_topology(struct genl_info *info, size_t *lenp)
{
	const struct nlattr *nla;
	size_t len = 0;
	char *text;
	int rem;

	nla_for_each_attr(nla, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem)
		if (nla_type(nla) == IBTRACE_SIM_A_TOPOLOGY)
			len += ibtsim_nl_piece_len(nla);
	text = kvmalloc(len + 1, GFP_KERNEL);
	if (!text)
		return NULL;
	len = 0;
	nla_for_each_attr(nla, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		size_t n;

		if (nla_type(nla) != IBTRACE_SIM_A_TOPOLOGY)
			continue;
		n = ibtsim_nl_piece_len(nla);
		memcpy(text + len, nla_data(nla), n);
		len += n;
	}
	text[len] = '\0';
	*lenp = len;
	return text;
}

/* The TOPOLOGY attribute holding line @line (1-based) of the text. */
static const struct nlattr *ibtsim_nl_line_attr(struct genl_info *info,
						u32 line)
{
	const struct nlattr *nla, *last = NULL;
	u32 seen = 1;
	int rem;

	nla_for_each_attr(nla, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		const char *p = nla_data(nla);
		size_t n;

		if (nla_type(nla) != IBTRACE_SIM_A_TOPOLOGY)
			continue;
		last = nla;
		n = ibtsim_nl_piece_len(nla);
		while (n--)
			if (*p++ == '\n' && ++seen > line)
				return nla;
	}
	return last;
}

static void ibtsim_nl_topo_error(struct genl_info *info,
				 const struct ibtsim_topo *topo)
{
	struct sk_buff *skb;
	void *hdr;

	/*
	 * NL_SET_ERR_MSG() wants a literal; the parser's reasons are static
	 * strings too, so they can be the extack message as they are.
	 */
	if (info->extack)
		info->extack->_msg = topo->err_msg;
	if (topo->err_line)
		NL_SET_BAD_ATTR(info->extack,
				ibtsim_nl_line_attr(info, topo->err_line));

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;	/* the extack still tells why */
	hdr = genlmsg_put_reply(skb, info, &ibtsim_nl_family, 0,
				IBTRACE_SIM_CMD_TOPO_ERROR);
	if (!hdr ||
	    nla_put_u32(skb, IBTRACE_SIM_A_ERR_LINE, topo->err_line) ||
	    nla_put_string(skb, IBTRACE_SIM_A_ERR_MSG, topo->err_detail[0] ?
			   topo->err_detail : topo->err_msg)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_reply(skb, info);
}

static int ibtsim_nl_fabric_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[IBTRACE_SIM_A_FABRIC_NAME];
	struct ibtsim_fabric_opts opts = {
		.sm_lite = ibtsim_nl_u8(info->attrs[IBTRACE_SIM_A_SM], 1),
		.guid_cap = ibtsim_nl_u8(info->attrs[IBTRACE_SIM_A_GUID_CAP],
					 IBTSIM_GUID_CAP),
	};
	struct nlattr *seed_attr = info->attrs[IBTRACE_SIM_A_SEED];
	struct nlattr *devs_attr = info->attrs[IBTRACE_SIM_A_NUM_DEVICES];
	struct ibtsim_topo topo = {};
	struct sk_buff *reply = NULL;
	struct ibtsim_fabric *fabric;
	struct ibtsim_build *build;
	size_t len;
	char *text;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_TOPOLOGY)) {
		NL_SET_ERR_MSG(info->extack, "a topology is required");
		return -EINVAL;
	}
	if (info->attrs[IBTRACE_SIM_A_TIME_SCALE])
		opts.time_scale =
			nla_get_u32(info->attrs[IBTRACE_SIM_A_TIME_SCALE]);
	if (seed_attr) {
		opts.seed = nla_get_u32(seed_attr);
		opts.seed_set = true;
	}
	if (name_attr) {
		opts.name = nla_data(name_attr);
		if (!ibtsim_nl_name_ok(opts.name)) {
			NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
					    "fabric name: use A-Z a-z 0-9 _ . -");
			return -EINVAL;
		}
	}
	text = ibtsim_nl_topology(info, &len);
	build = ibtsim_build_alloc();
	if (!text || !build) {
		kvfree(text);
		ibtsim_build_free(build);
		return -ENOMEM;
	}

	/* Parsing is bounded by the text; the build happens in a work item. */
	mutex_lock(&ibtsim_fabrics_lock);
	topo.guid_cap = opts.guid_cap;
	topo.max_devs = devs_attr ? nla_get_u32(devs_attr) : U32_MAX;
	topo.mem_room = __ibtsim_budget_room();
	err = ibtsim_topo_parse(&topo, text, len);
	if (!err)
		err = __ibtsim_fabric_reserve(&opts, &topo, &fabric,
					      info->extack);
	if (err && topo.err_msg) {
		ibtsim_nl_topo_error(info, &topo);
	} else if (!err) {
		err = ibtsim_nl_fabric_msg(&reply, fabric, info->snd_portid,
					   info->snd_seq,
					   IBTRACE_SIM_CMD_FABRIC_ADD);
		if (err) {
			__ibtsim_fabric_unreserve(fabric);
		} else {
			__ibtsim_fabric_build_start(fabric, build, &topo,
						    genl_info_net(info),
						    info->snd_portid);
			build = NULL;
		}
	}
	mutex_unlock(&ibtsim_fabrics_lock);

	if (reply)
		err = genlmsg_reply(reply, info);
	ibtsim_build_free(build);
	ibtsim_topo_free(&topo);
	kvfree(text);
	return err;
}

/* The requester's socket is told no more once the family is gone. */
static bool ibtsim_nl_closed;

/**
 * ibtsim_nl_build_done - tell the requester of a fabric that its build ended
 * @net: network namespace of the requester
 * @portid: its netlink port
 * @fabric: the fabric, built; NULL if the build failed
 * @name: the fabric's name
 * @why: why the build failed
 *
 * A notification (sequence number 0) to the requesting socket: the
 * fabric as FABRIC_GET describes it, or a TOPO_ERROR message with the
 * fabric's name, line 0 and @why. Lost if the socket is gone or full;
 * FABRIC_GET still tells. Caller holds ibtsim_fabrics_lock.
 */
void ibtsim_nl_build_done(struct net *net, u32 portid,
			  struct ibtsim_fabric *fabric, const char *name,
			  const char *why)
{
	struct sk_buff *skb;
	void *hdr;

	lockdep_assert_held(&ibtsim_fabrics_lock);
	if (ibtsim_nl_closed)
		return;
	if (fabric) {
		if (!ibtsim_nl_fabric_msg(&skb, fabric, 0, 0,
					  IBTRACE_SIM_CMD_FABRIC_ADD))
			genlmsg_unicast(net, skb, portid);
		return;
	}
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &ibtsim_nl_family, 0,
			  IBTRACE_SIM_CMD_TOPO_ERROR);
	if (!hdr ||
	    nla_put_string(skb, IBTRACE_SIM_A_FABRIC_NAME, name) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_ERR_LINE, 0) ||
	    nla_put_string(skb, IBTRACE_SIM_A_ERR_MSG, why)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_unicast(net, skb, portid);
}

/**
 * __ibtsim_nl_fabric_named - the fabric a FABRIC_NAME attribute names
 * @attr: the attribute
 * @extack: where to say what is wrong
 * @built: refuse a fabric being built
 *
 * Caller holds ibtsim_fabrics_lock.
 *
 * Return: the fabric, or an ERR_PTR(): -ENOENT without a fabric of that
 * name, -EBUSY (with @built) while it is being built; the extack says
 * which, at @attr.
 */
struct ibtsim_fabric *__ibtsim_nl_fabric_named(const struct nlattr *attr,
					       struct netlink_ext_ack *extack,
					       bool built)
{
	struct ibtsim_fabric *fabric = __ibtsim_fabric_find(nla_data(attr));

	if (!fabric) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "no such fabric");
		return ERR_PTR(-ENOENT);
	}
	if (built && fabric->building) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "the fabric is being built");
		return ERR_PTR(-EBUSY);
	}
	return fabric;
}

/*
 * @fn on the fabric the request names, under ibtsim_fabrics_lock; its
 * result, or -EINVAL without a fabric name and the errors of
 * __ibtsim_nl_fabric_named(), the extack saying which.
 */
static int ibtsim_nl_with_fabric(struct genl_info *info, bool built,
				 int (*fn)(struct genl_info *info,
					   struct ibtsim_fabric *fabric))
{
	struct ibtsim_fabric *fabric;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_SIM_A_FABRIC_NAME)) {
		NL_SET_ERR_MSG(info->extack, "a fabric name is required");
		return -EINVAL;
	}
	mutex_lock(&ibtsim_fabrics_lock);
	fabric = __ibtsim_nl_fabric_named(info->attrs[IBTRACE_SIM_A_FABRIC_NAME],
					  info->extack, built);
	err = IS_ERR(fabric) ? PTR_ERR(fabric) : fn(info, fabric);
	mutex_unlock(&ibtsim_fabrics_lock);
	return err;
}

static int __ibtsim_nl_fabric_del(struct genl_info *info,
				  struct ibtsim_fabric *fabric)
{
	return __ibtsim_fabric_del(fabric);
}

static int ibtsim_nl_fabric_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtsim_nl_with_fabric(info, true, __ibtsim_nl_fabric_del);
}

static int __ibtsim_nl_fabric_get(struct genl_info *info,
				  struct ibtsim_fabric *fabric)
{
	return ibtsim_nl_reply_fabric(info, fabric, IBTRACE_SIM_CMD_FABRIC_GET);
}

static int ibtsim_nl_fabric_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtsim_nl_with_fabric(info, false, __ibtsim_nl_fabric_get);
}

/*
 * Dumps resume by the fabrics' creation numbers (the list's order, never
 * reused), not by list positions: a fabric added or deleted between two
 * parts of a dump neither repeats nor skips the others.
 *
 * cb->args[0]: creation number of the next fabric to dump
 */
static int ibtsim_nl_fabric_get_dumpit(struct sk_buff *skb,
				       struct netlink_callback *cb)
{
	struct ibtsim_fabric *fabric;
	int err = 0;

	mutex_lock(&ibtsim_fabrics_lock);
	list_for_each_entry(fabric, &ibtsim_fabrics, list) {
		if (fabric->seq < (u64)cb->args[0])
			continue;
		err = ibtsim_nl_fill_fabric(skb, fabric,
					    NETLINK_CB(cb->skb).portid,
					    cb->nlh->nlmsg_seq, NLM_F_MULTI,
					    IBTRACE_SIM_CMD_FABRIC_GET);
		if (err)
			break;
		cb->args[0] = fabric->seq + 1;
	}
	mutex_unlock(&ibtsim_fabrics_lock);
	return err == -EMSGSIZE && skb->len ? skb->len : err ?: skb->len;
}

/* Caller holds ibtsim_fabrics_lock (node lifetime). */
static int ibtsim_nl_put_port(struct sk_buff *skb, struct ibtsim_port *port)
{
	struct ibtsim_node *node = port->node;
	unsigned long flags;
	u16 lid;
	u8 lmc, state;

	spin_lock_irqsave(&node->lock, flags);
	lid = port->lid;
	lmc = port->lmc;
	state = port->state;
	spin_unlock_irqrestore(&node->lock, flags);

	if (nla_put_u32(skb, IBTRACE_SIM_PORT_A_NUM, port->num) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_PORT_A_GUID, port->guid,
			      IBTRACE_SIM_PORT_A_PAD) ||
	    nla_put_u32(skb, IBTRACE_SIM_PORT_A_LID, lid) ||
	    nla_put_u8(skb, IBTRACE_SIM_PORT_A_LMC, lmc) ||
	    nla_put_u8(skb, IBTRACE_SIM_PORT_A_STATE, state))
		return -EMSGSIZE;
	if (port->peer &&
	    (nla_put_u32(skb, IBTRACE_SIM_PORT_A_PEER_NODE,
			 port->peer->node->index) ||
	     nla_put_u32(skb, IBTRACE_SIM_PORT_A_PEER_PORT, port->peer->num)))
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, IBTRACE_SIM_PORT_A_RX_PKTS,
			      atomic64_read(&port->rx_pkts),
			      IBTRACE_SIM_PORT_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_PORT_A_TX_PKTS,
			      atomic64_read(&port->tx_pkts),
			      IBTRACE_SIM_PORT_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_PORT_A_DROPS,
			      atomic64_read(&port->drops),
			      IBTRACE_SIM_PORT_A_PAD))
		return -EMSGSIZE;
	return ibtsim_nl_fill_knobs(skb, port);
}

/* One IBTRACE_SIM_A_PORT nest, taken back if it does not fit. */
static int ibtsim_nl_fill_port(struct sk_buff *skb, struct ibtsim_port *port)
{
	struct nlattr *nest = nla_nest_start(skb, IBTRACE_SIM_A_PORT);

	if (!nest)
		return -EMSGSIZE;
	if (ibtsim_nl_put_port(skb, port)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int ibtsim_nl_put_node(struct sk_buff *skb, struct ibtsim_node *node)
{
	u32 n;

	if (nla_put_string(skb, IBTRACE_SIM_A_FABRIC_NAME, node->fabric->name) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_NODE_INDEX, node->index) ||
	    nla_put_u8(skb, IBTRACE_SIM_A_NODE_TYPE, node->type) ||
	    nla_put_string(skb, IBTRACE_SIM_A_NODE_NAME, node->desc) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_NODE_GUID, node->node_guid,
			      IBTRACE_SIM_A_PAD) ||
	    (node->dev && nla_put_string(skb, IBTRACE_SIM_A_DEV_NAME,
					 dev_name(&node->dev->ibdev.dev))))
		return -EMSGSIZE;
	/* A switch's port 0 holds its LID. */
	for (n = node->sw ? 0 : 1; n <= node->num_ports; n++)
		if (ibtsim_nl_fill_port(skb, &node->ports[n]))
			return -EMSGSIZE;
	return ibtsim_nl_fill_misroutes(skb, node);
}

static int ibtsim_nl_fill_node(struct sk_buff *skb, struct ibtsim_node *node,
			       struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ibtsim_nl_family, NLM_F_MULTI,
			  IBTRACE_SIM_CMD_NODE_GET);
	if (!hdr)
		return -EMSGSIZE;
	return ibtsim_nl_msg_end(skb, hdr, ibtsim_nl_put_node(skb, node));
}

/*
 * cb->args[0]: creation number of the fabric being dumped (or of the next
 * one, when it is gone), cb->args[1]: its next node (nodes are fixed for
 * a fabric's life)
 */
static int ibtsim_nl_node_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct nlattr *name_attr = info->attrs[IBTRACE_SIM_A_FABRIC_NAME];
	struct ibtsim_fabric *fabric;
	int err = 0;

	mutex_lock(&ibtsim_fabrics_lock);
	if (name_attr) {
		fabric = __ibtsim_nl_fabric_named(name_attr, cb->extack, true);
		if (IS_ERR(fabric)) {
			err = PTR_ERR(fabric);
			goto out;
		}
	}
	list_for_each_entry(fabric, &ibtsim_fabrics, list) {
		if (fabric->seq < (u64)cb->args[0])
			continue;
		if (fabric->seq != (u64)cb->args[0]) {
			/* the next fabric, or another: from its first node */
			cb->args[0] = fabric->seq;
			cb->args[1] = 0;
		}
		if (!fabric->building &&
		    (!name_attr || !strcmp(fabric->name, nla_data(name_attr)))) {
			for (; cb->args[1] < fabric->num_nodes; cb->args[1]++) {
				err = ibtsim_nl_fill_node(skb,
							  fabric->nodes[cb->args[1]],
							  cb);
				if (err)
					goto out;
			}
		}
		cb->args[0] = fabric->seq + 1;
		cb->args[1] = 0;
	}
out:
	mutex_unlock(&ibtsim_fabrics_lock);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/*
 * Every op's policy and maxattr through IBTSIM_NL_POLICY(), nothing else.
 * Who may do what (the table in Documentation/ibtrace.rst):
 * fabric summaries (name, counts, SM-lite and its LID, as "rdma dev" and
 * sysfs show the HCAs anyway) are open to anyone; changing a fabric, and
 * reading its nodes (GUIDs, LIDs, links, knobs: the fabric's layout),
 * need CAP_NET_ADMIN; so do captures (the fabric's traffic), injected
 * packets (which may change any node the fabric's SMPs reach) and traffic
 * flows (which load its links).
 */
static const struct genl_ops ibtsim_nl_ops[] = {
	{
		.cmd = IBTRACE_SIM_CMD_FABRIC_ADD,
		.doit = ibtsim_nl_fabric_add_doit,
		IBTSIM_NL_POLICY(ibtsim_nl_add_policy),
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = IBTRACE_SIM_CMD_FABRIC_DEL,
		.doit = ibtsim_nl_fabric_del_doit,
		IBTSIM_NL_POLICY(ibtsim_nl_name_policy),
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = IBTRACE_SIM_CMD_FABRIC_GET,
		.doit = ibtsim_nl_fabric_get_doit,
		.dumpit = ibtsim_nl_fabric_get_dumpit,
		IBTSIM_NL_POLICY(ibtsim_nl_name_policy),
	},
	{
		.cmd = IBTRACE_SIM_CMD_NODE_GET,
		.flags = GENL_ADMIN_PERM,
		.dumpit = ibtsim_nl_node_get_dumpit,
		IBTSIM_NL_POLICY(ibtsim_nl_name_policy),
	},
	{
		.cmd = IBTRACE_SIM_CMD_SET,
		.doit = ibtsim_nl_set_doit,
		IBTSIM_NL_POLICY(ibtsim_nl_set_policy),
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = IBTRACE_SIM_CMD_CAPTURE_START,
		.doit = ibtsim_nl_capture_start_doit,
		IBTSIM_NL_POLICY(ibtsim_nl_capture_start_policy),
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = IBTRACE_SIM_CMD_CAPTURE_STOP,
		.doit = ibtsim_nl_capture_stop_doit,
		IBTSIM_NL_POLICY(ibtsim_nl_capture_stop_policy),
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = IBTRACE_SIM_CMD_INJECT,
		.doit = ibtsim_nl_inject_doit,
		IBTSIM_NL_POLICY(ibtsim_nl_inject_policy),
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = IBTRACE_SIM_CMD_TRAFFIC_START,
		.doit = ibtsim_nl_traffic_start_doit,
		IBTSIM_NL_POLICY(ibtsim_nl_traffic_start_policy),
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = IBTRACE_SIM_CMD_TRAFFIC_STOP,
		.doit = ibtsim_nl_traffic_stop_doit,
		IBTSIM_NL_POLICY(ibtsim_nl_traffic_stop_policy),
		.flags = GENL_ADMIN_PERM,
	},
};

struct genl_family ibtsim_nl_family __ro_after_init = {
	.name = IBTRACE_SIM_GENL_NAME,
	.version = IBTRACE_SIM_GENL_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = ibtsim_nl_ops,
	.n_ops = ARRAY_SIZE(ibtsim_nl_ops),
	.resv_start_op = IBTRACE_SIM_CMD_FABRIC_ADD,
};

/*
 * A netlink socket was closed: what it started and did not detach ends
 * with it (its captures, its traffic flows). One notifier for all.
 */
static int ibtsim_nl_release(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid)
		return NOTIFY_DONE;
	ibtsim_capture_sock_closed(n->net, n->portid);
	ibtsim_traffic_sock_closed(n->net, n->portid);
	return NOTIFY_DONE;
}

static struct notifier_block ibtsim_nl_release_nb = {
	.notifier_call = ibtsim_nl_release,
};

int ibtsim_nl_init(void)
{
	int err = netlink_register_notifier(&ibtsim_nl_release_nb);

	if (err)
		return err;
	err = genl_register_family(&ibtsim_nl_family);
	if (err)
		netlink_unregister_notifier(&ibtsim_nl_release_nb);
	return err;
}

void ibtsim_nl_exit(void)
{
	netlink_unregister_notifier(&ibtsim_nl_release_nb);
	/* Then: no capture or flow is left to send with the family gone. */
	ibtsim_capture_exit();
	ibtsim_traffic_exit();
	genl_unregister_family(&ibtsim_nl_family);
	mutex_lock(&ibtsim_fabrics_lock);
	ibtsim_nl_closed = true;
	mutex_unlock(&ibtsim_fabrics_lock);
}
