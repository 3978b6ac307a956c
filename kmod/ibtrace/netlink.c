// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - generic netlink family "ibtrace": op table and the helpers
 * shared by the message files.
 *
 * A new family, so every request is validated strictly against its
 * command's policy before the handler runs. parallel_ops: handlers run
 * without genl_mutex. No handler runs long: pings, traces and tests are
 * jobs (job.h), started by their request, which returns at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "netlink.h"

struct netlink_range_validation ibtrace_nl_timeout_range = {
	.min = 1, .max = IBTRACE_MAX_TIMEOUT_MS,
};

struct netlink_range_validation ibtrace_nl_lid_range = {
	.min = 1, .max = IBTRACE_MAX_UNICAST_LID,
};

struct netlink_range_validation ibtrace_nl_mlid_range = {
	.min = IBTRACE_MIN_MULTICAST_LID, .max = IBTRACE_MAX_MULTICAST_LID,
};

struct netlink_range_validation ibtrace_nl_job_id_range = {
	.min = 1, .max = U32_MAX,
};

/*
 * For requests that take no attribute: strict validation rejects every
 * type, 1 here (NLA_UNSPEC) and the others as past maxattr. Two entries,
 * as IBTRACE_NL_POLICY() wants: maxattr 0 would mean the family's.
 */
static const struct nla_policy ibtrace_nl_no_attr_policy[IBTRACE_A_PAD + 1];

/*
 * Every op's policy and maxattr through IBTRACE_NL_POLICY(), nothing else.
 * Who may do what (Documentation/ibtrace.rst, "Who may use what"):
 * listing ports, agent counters and the tests known is open to anyone;
 * whatever sends a MAD, changes state or shows the fabric (test jobs
 * carry DUT GUIDs, LIDs, routes and peer GIDs) is GENL_ADMIN_PERM.
 */
static const struct genl_ops ibtrace_genl_ops[] = {
	{
		.cmd = IBTRACE_CMD_DEV_GET,
		.doit = ibtrace_nl_dev_get_doit,
		.dumpit = ibtrace_nl_dev_get_dumpit,
		IBTRACE_NL_POLICY(ibtrace_dev_get_policy),
	},
	{
		.cmd = IBTRACE_CMD_AGENT_GET,
		.doit = ibtrace_nl_agent_get_doit,
		.dumpit = ibtrace_nl_agent_get_dumpit,
		IBTRACE_NL_POLICY(ibtrace_dev_get_policy),
	},
	{
		.cmd = IBTRACE_CMD_PING,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_ping_doit,
		IBTRACE_NL_POLICY(ibtrace_ping_policy),
	},
	{
		.cmd = IBTRACE_CMD_MAD_SEND,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_mad_send_doit,
		IBTRACE_NL_POLICY(ibtrace_mad_send_policy),
	},
	{
		.cmd = IBTRACE_CMD_TRACE,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_trace_doit,
		IBTRACE_NL_POLICY(ibtrace_trace_policy),
	},
	{
		.cmd = IBTRACE_CMD_SWEEP,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_sweep_doit,
		IBTRACE_NL_POLICY(ibtrace_sweep_policy),
	},
	{
		.cmd = IBTRACE_CMD_SWEEP_NODE,
		.flags = GENL_ADMIN_PERM,
		.dumpit = ibtrace_nl_sweep_node_dumpit,
		IBTRACE_NL_POLICY(ibtrace_sweep_node_policy),
	},
	{
		.cmd = IBTRACE_CMD_PROVE,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_prove_doit,
		IBTRACE_NL_POLICY(ibtrace_prove_policy),
	},
	{
		.cmd = IBTRACE_CMD_PROVE_DEST,
		.flags = GENL_ADMIN_PERM,
		.dumpit = ibtrace_nl_prove_dest_dumpit,
		IBTRACE_NL_POLICY(ibtrace_job_policy),
	},
	{
		.cmd = IBTRACE_CMD_TEST_LIST,
		.dumpit = ibtrace_nl_test_list_dumpit,
		IBTRACE_NL_POLICY(ibtrace_nl_no_attr_policy),
	},
	{
		.cmd = IBTRACE_CMD_TEST_RUN,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_test_run_doit,
		IBTRACE_NL_POLICY(ibtrace_test_run_policy),
	},
	{
		.cmd = IBTRACE_CMD_TEST_GET,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_test_get_doit,
		.dumpit = ibtrace_nl_test_get_dumpit,
		IBTRACE_NL_POLICY(ibtrace_test_job_policy),
	},
	{
		.cmd = IBTRACE_CMD_TEST_CANCEL,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_test_cancel_doit,
		IBTRACE_NL_POLICY(ibtrace_test_job_policy),
	},
	{
		.cmd = IBTRACE_CMD_JOB_GET,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_job_get_doit,
		.dumpit = ibtrace_nl_job_get_dumpit,
		IBTRACE_NL_POLICY(ibtrace_job_policy),
	},
	{
		.cmd = IBTRACE_CMD_JOB_CANCEL,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_job_cancel_doit,
		IBTRACE_NL_POLICY(ibtrace_job_policy),
	},
	{
		.cmd = IBTRACE_CMD_SERVER_START,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_server_start_doit,
		IBTRACE_NL_POLICY(ibtrace_server_start_policy),
	},
	{
		.cmd = IBTRACE_CMD_SERVER_STOP,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_server_stop_doit,
		IBTRACE_NL_POLICY(ibtrace_nl_no_attr_policy),
	},
	{
		.cmd = IBTRACE_CMD_SERVER_GET,
		.flags = GENL_ADMIN_PERM,
		.doit = ibtrace_nl_server_get_doit,
		IBTRACE_NL_POLICY(ibtrace_nl_no_attr_policy),
	},
};

static const struct genl_multicast_group ibtrace_genl_mcgrps[] = {
	/* DUT GUIDs, LIDs, routes, GUID tables, peer GIDs: admins only */
	[IBTRACE_NL_MCGRP_TEST] = { .name = IBTRACE_MCGRP_TEST,
				    .flags = GENL_MCAST_CAP_NET_ADMIN },
	/* hops of every trace: the fabric's topology, for admins only */
	[IBTRACE_NL_MCGRP_TRACE] = { .name = IBTRACE_MCGRP_TRACE,
				     .flags = GENL_MCAST_CAP_NET_ADMIN },
	/* probes of every ping: who pings whom, for admins only */
	[IBTRACE_NL_MCGRP_PING] = { .name = IBTRACE_MCGRP_PING,
				    .flags = GENL_MCAST_CAP_NET_ADMIN },
	/* MADs sent and their answers: the fabric's contents, admins only */
	[IBTRACE_NL_MCGRP_MAD] = { .name = IBTRACE_MCGRP_MAD,
				   .flags = GENL_MCAST_CAP_NET_ADMIN },
	/* sweeps of the subnet: its topology and tables, admins only */
	[IBTRACE_NL_MCGRP_AUDIT] = { .name = IBTRACE_MCGRP_AUDIT,
				     .flags = GENL_MCAST_CAP_NET_ADMIN },
};

struct genl_family ibtrace_genl_family __ro_after_init = {
	.name = IBTRACE_GENL_NAME,
	.version = IBTRACE_GENL_VERSION,
	.maxattr = IBTRACE_A_MAX,
	.parallel_ops = true,
	.ops = ibtrace_genl_ops,
	.n_ops = ARRAY_SIZE(ibtrace_genl_ops),
	.mcgrps = ibtrace_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ibtrace_genl_mcgrps),
	.module = THIS_MODULE,
};

/**
 * ibtrace_nl_get_dev() - the device a request names
 * @attrs: parsed request
 * @extack: where to say what is wrong
 * @devp: the device, with a reference held
 *
 * Return: 0, -EINVAL when no device is named, -ENODEV when it does not
 * exist.
 */
int ibtrace_nl_get_dev(struct nlattr **attrs, struct netlink_ext_ack *extack,
		       struct ibtrace_dev **devp)
{
	struct ibtrace_dev *dev = NULL;
	struct nlattr *bad;

	if (attrs[IBTRACE_A_DEV_NAME]) {
		bad = attrs[IBTRACE_A_DEV_NAME];
		dev = ibtrace_dev_get_by_name(nla_data(bad));
		if (dev && attrs[IBTRACE_A_DEV_INDEX] &&
		    nla_get_u32(attrs[IBTRACE_A_DEV_INDEX]) !=
		    dev->ibdev->index) {
			ibtrace_dev_put(dev);
			NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_DEV_INDEX],
					    "device name and index disagree");
			return -EINVAL;
		}
	} else if (attrs[IBTRACE_A_DEV_INDEX]) {
		bad = attrs[IBTRACE_A_DEV_INDEX];
		dev = ibtrace_dev_get_by_index(nla_get_u32(bad));
	} else {
		NL_SET_ERR_MSG(extack, "a device (name or index) is required");
		return -EINVAL;
	}
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(extack, bad, "no such RDMA device");
		return -ENODEV;
	}
	*devp = dev;
	return 0;
}

/**
 * ibtrace_nl_get_port() - the port a request names
 * @attrs: parsed request
 * @extack: where to say what is wrong
 * @default_port: port when the request names none, 0 = required
 * @portp: the port; its device holds a reference (drop with
 *	ibtrace_dev_put(port->dev))
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_nl_get_port(struct nlattr **attrs, struct netlink_ext_ack *extack,
			u32 default_port, struct ibtrace_port **portp)
{
	struct ibtrace_dev *dev;
	struct ibtrace_port *port;
	u32 num = default_port;
	int err;

	err = ibtrace_nl_get_dev(attrs, extack, &dev);
	if (err)
		return err;

	if (attrs[IBTRACE_A_PORT]) {
		num = nla_get_u32(attrs[IBTRACE_A_PORT]);
	} else if (!num) {
		ibtrace_dev_put(dev);
		NL_SET_ERR_MSG(extack, "a port number is required");
		return -EINVAL;
	}
	port = ibtrace_dev_port(dev, num);
	if (!port) {
		ibtrace_dev_put(dev);
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_PORT],
				    "no such port on this device");
		return -ENODEV;
	}
	*portp = port;
	return 0;
}

/**
 * ibtrace_nl_get_dest() - the destination a ping or a trace request names
 * @attrs: parsed request
 * @extack: where to say what is wrong
 * @dgid_type: the request's DGID attribute
 * @dlid_type: the request's DLID attribute
 * @dgid: the DGID, when the request gives one
 * @has_dgid: whether it does
 * @dlid: the DLID, 0 when not given
 *
 * Return: 0, or -EINVAL when neither is given or the DGID is multicast.
 */
int ibtrace_nl_get_dest(struct nlattr **attrs, struct netlink_ext_ack *extack,
			int dgid_type, int dlid_type, union ib_gid *dgid,
			bool *has_dgid, u32 *dlid)
{
	if (!attrs[dgid_type] && !attrs[dlid_type]) {
		NL_SET_ERR_MSG(extack, "a destination (DGID or DLID) is required");
		return -EINVAL;
	}
	if (attrs[dgid_type]) {
		nla_memcpy(dgid->raw, attrs[dgid_type], sizeof(dgid->raw));
		/*
		 * Not a port: nothing answers a Get there, and on rxe
		 * (6.1) each MAD sent to one leaks a reference to QP1,
		 * so that removing the device hangs and WARNs.
		 */
		if (dgid->raw[0] == 0xff) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[dgid_type],
					    "a multicast DGID is not a destination");
			return -EINVAL;
		}
		*has_dgid = true;
	}
	*dlid = ibtrace_nl_get_u32(attrs, dlid_type, 0);
	return 0;
}

/**
 * ibtrace_nl_get_timing() - the MAD timing a request asks for
 * @attrs: parsed request
 * @timeout_type: its attribute of the wait per attempt
 * @retries_type: its attribute of the retries
 * @timeout_ms: the wait per attempt, IBTRACE_DEF_TIMEOUT_MS if not given
 * @retries: the retries, IBTRACE_DEF_RETRIES if not given
 */
void ibtrace_nl_get_timing(struct nlattr **attrs, int timeout_type,
			   int retries_type, u32 *timeout_ms, u32 *retries)
{
	*timeout_ms = ibtrace_nl_get_u32(attrs, timeout_type,
					 IBTRACE_DEF_TIMEOUT_MS);
	*retries = ibtrace_nl_get_u32(attrs, retries_type, IBTRACE_DEF_RETRIES);
}

/**
 * ibtrace_nl_put_nest() - a nested attribute, whole or not at all
 * @skb: message being built
 * @type: the nest's attribute
 * @fill: writes what it holds
 * @data: passed to @fill
 *
 * Return: 0, or -EMSGSIZE with nothing of the nest left in @skb.
 */
int ibtrace_nl_put_nest(struct sk_buff *skb, int type,
			ibtrace_nl_nest_fill_t fill, const void *data)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (fill(skb, data)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * ibtrace_nl_put_port_id() - the attributes that name a port
 * @skb: message being built
 * @port: the port
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_nl_put_port_id(struct sk_buff *skb, struct ibtrace_port *port)
{
	struct ib_device *ibdev = port->dev->ibdev;

	if (nla_put_u32(skb, IBTRACE_A_DEV_INDEX, ibdev->index) ||
	    nla_put_string(skb, IBTRACE_A_DEV_NAME, dev_name(&ibdev->dev)) ||
	    nla_put_u32(skb, IBTRACE_A_PORT, port->port_num))
		return -EMSGSIZE;
	return 0;
}

static int ibtrace_nl_fill_port(struct sk_buff *skb, struct ibtrace_port *port,
				u32 portid, u32 seq, int flags, u8 cmd,
				ibtrace_nl_fill_t fill)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &ibtrace_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (ibtrace_nl_put_port_id(skb, port) || fill(skb, port)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * ibtrace_nl_reply() - answer a "do" request with one message
 * @info: the request
 * @size: room the message needs
 * @fill: builds it
 * @arg: passed to @fill
 *
 * Return: 0, -ENOMEM, or what @fill or sending the reply returned.
 */
int ibtrace_nl_reply(struct genl_info *info, size_t size,
		     ibtrace_nl_reply_fill_t fill, void *arg)
{
	struct sk_buff *skb;
	int err;

	skb = genlmsg_new(size, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	err = fill(skb, info, arg);
	if (err) {
		nlmsg_free(skb);
		return err;
	}
	return genlmsg_reply(skb, info);
}

/* What ibtrace_nl_reply_port() answers with. */
struct ibtrace_nl_port_reply {
	struct ibtrace_port *port;
	u8 cmd;
	ibtrace_nl_fill_t fill;
};

static int ibtrace_nl_fill_port_reply(struct sk_buff *skb,
				      struct genl_info *info, void *arg)
{
	const struct ibtrace_nl_port_reply *r = arg;

	return ibtrace_nl_fill_port(skb, r->port, info->snd_portid,
				    info->snd_seq, 0, r->cmd, r->fill);
}

/**
 * ibtrace_nl_reply_port() - answer a "do" request about one port
 * @info: the request (device and port attributes required)
 * @cmd: command of the reply
 * @fill: writes the body
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_nl_reply_port(struct genl_info *info, u8 cmd,
			  ibtrace_nl_fill_t fill)
{
	struct ibtrace_nl_port_reply r = { .cmd = cmd, .fill = fill };
	int err;

	err = ibtrace_nl_get_port(info->attrs, info->extack, 0, &r.port);
	if (err)
		return err;
	err = ibtrace_nl_reply(info, NLMSG_GOODSIZE,
			       ibtrace_nl_fill_port_reply, &r);
	ibtrace_dev_put(r.port->dev);
	return err;
}

/**
 * ibtrace_nl_dump_ports() - dump every port, or every port of one device
 * @skb: dump buffer
 * @cb: dump state: args[0] = device index to dump (or the next one above
 *	it), args[1] = next port there, 0 = the device's first port
 * @cmd: command of the messages
 * @fill: writes one port's body
 *
 * A device named in the request restricts the dump to it (and a port
 * attribute to that port).
 *
 * Return: skb->len while more follows, 0 at the end, or a negative errno.
 */
int ibtrace_nl_dump_ports(struct sk_buff *skb, struct netlink_callback *cb,
			  u8 cmd, ibtrace_nl_fill_t fill)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct nlattr **attrs = info->attrs;
	struct ibtrace_dev *only = NULL, *dev;
	u32 only_port = 0;
	int err = 0;

	if (attrs[IBTRACE_A_PORT] && !attrs[IBTRACE_A_DEV_NAME] &&
	    !attrs[IBTRACE_A_DEV_INDEX]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attrs[IBTRACE_A_PORT],
				    "a port number needs a device");
		return -EINVAL;
	}
	if (attrs[IBTRACE_A_DEV_NAME] || attrs[IBTRACE_A_DEV_INDEX]) {
		err = ibtrace_nl_get_dev(attrs, cb->extack, &only);
		if (err)
			return err;
		if (attrs[IBTRACE_A_PORT])
			only_port = nla_get_u32(attrs[IBTRACE_A_PORT]);
		if (only_port && !ibtrace_dev_port(only, only_port)) {
			ibtrace_dev_put(only);
			NL_SET_ERR_MSG_ATTR(cb->extack, attrs[IBTRACE_A_PORT],
					    "no such port on this device");
			return -ENODEV;
		}
	}

	for (;;) {
		u32 p;

		if (only) {
			if (cb->args[0] > only->ibdev->index)
				break;
			dev = only;
			kref_get(&dev->ref);
		} else {
			dev = ibtrace_dev_get_from(cb->args[0]);
			if (!dev)
				break;
		}
		if (cb->args[0] != dev->ibdev->index || !cb->args[1]) {
			cb->args[0] = dev->ibdev->index;
			cb->args[1] = only_port ? only_port : 1;
		}
		for (p = cb->args[1]; p <= dev->nports; p++) {
			if (only_port && p != only_port)
				break;
			err = ibtrace_nl_fill_port(skb, &dev->port[p - 1],
						   NETLINK_CB(cb->skb).portid,
						   cb->nlh->nlmsg_seq,
						   NLM_F_MULTI, cmd, fill);
			if (err)
				break;
			cb->args[1] = p + 1;
		}
		ibtrace_dev_put(dev);
		if (err)
			break;
		cb->args[0]++;
		cb->args[1] = 0;
	}

	if (only)
		ibtrace_dev_put(only);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err;
}

/**
 * ibtrace_nl_init() - register the family
 *
 * Return: 0 or a negative errno.
 */
int __init ibtrace_nl_init(void)
{
	return genl_register_family(&ibtrace_genl_family);
}

/**
 * ibtrace_nl_exit() - unregister the family; waits for running handlers
 */
void ibtrace_nl_exit(void)
{
	genl_unregister_family(&ibtrace_genl_family);
}
