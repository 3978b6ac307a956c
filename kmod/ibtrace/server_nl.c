// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_SERVER_START, _STOP and _GET: an admin starts,
 * stops and reads the module's RDMA CM server (server.c). All three need
 * CAP_NET_ADMIN: the server opens a service, and its state names peers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "netlink.h"
#include "server.h"
#include "test.h"

static struct netlink_range_validation ibtrace_server_conns_range = {
	.min = 1, .max = IBTRACE_SERVER_MAX_CONNS,
};

static struct netlink_range_validation ibtrace_server_hold_range = {
	.min = IBTRACE_SERVER_MIN_HOLD_MS, .max = IBTRACE_SERVER_MAX_HOLD_MS,
};

static struct netlink_range_validation ibtrace_server_mem_range = {
	.min = IBTRACE_SERVER_MIN_MEM_KB, .max = IBTRACE_SERVER_MAX_MEM_KB,
};

const struct nla_policy
ibtrace_server_start_policy[IBTRACE_A_SERVER_MAX_MEM_KB + 1] = {
	IBTRACE_NL_DEV_POLICY,
	[IBTRACE_A_SERVER_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[IBTRACE_A_SERVER_MAX_CONNS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_server_conns_range),
	[IBTRACE_A_SERVER_MAX_HOLD_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_server_hold_range),
	[IBTRACE_A_SERVER_MAX_MEM_KB] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_server_mem_range),
};

/* The server's state, as the reply to @info. */
static int ibtrace_server_reply(struct genl_info *info, u8 cmd, bool stopped,
				u32 closed)
{
	struct sk_buff *skb;
	void *hdr;
	int err;

	skb = genlmsg_new(ibtrace_server_msg_size(), GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put_reply(skb, info, &ibtrace_genl_family, 0, cmd);
	if (!hdr) {
		err = -EMSGSIZE;
		goto err_free;
	}
	if (stopped)
		err = nla_put_u8(skb, IBTRACE_A_SERVER_RUNNING, 0) ||
		      nla_put_u32(skb, IBTRACE_A_SERVER_CONNS, closed) ?
		      -EMSGSIZE : 0;
	else
		err = ibtrace_server_fill(skb);
	if (err)
		goto err_free;
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);

err_free:
	nlmsg_free(skb);
	return err;
}

int ibtrace_nl_server_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct ibtrace_srv_cfg cfg = {
		.port = ibtrace_rnr_responder_port,
		.max_conns = IBTRACE_SERVER_DEF_CONNS,
		.max_hold_ms = IBTRACE_SERVER_DEF_HOLD_MS,
		.max_mem_kb = IBTRACE_SERVER_DEF_MEM_KB,
	};
	struct ibtrace_dev *dev;
	int err;

	if (attrs[IBTRACE_A_SERVER_PORT]) {
		cfg.port = nla_get_u16(attrs[IBTRACE_A_SERVER_PORT]);
	} else if (!cfg.port) {
		NL_SET_ERR_MSG(info->extack,
			       "no port: give one (the module parameter rnr_responder_port is 0)");
		return -EINVAL;
	}
	if (attrs[IBTRACE_A_SERVER_MAX_CONNS])
		cfg.max_conns = nla_get_u32(attrs[IBTRACE_A_SERVER_MAX_CONNS]);
	if (attrs[IBTRACE_A_SERVER_MAX_HOLD_MS])
		cfg.max_hold_ms =
			nla_get_u32(attrs[IBTRACE_A_SERVER_MAX_HOLD_MS]);
	if (attrs[IBTRACE_A_SERVER_MAX_MEM_KB])
		cfg.max_mem_kb = nla_get_u32(attrs[IBTRACE_A_SERVER_MAX_MEM_KB]);
	if (attrs[IBTRACE_A_DEV_NAME] || attrs[IBTRACE_A_DEV_INDEX]) {
		err = ibtrace_nl_get_dev(attrs, info->extack, &dev);
		if (err)
			return err;
		cfg.dev_only = true;
		cfg.dev_index = dev->ibdev->index;
		strscpy(cfg.dev_name, dev_name(&dev->ibdev->dev),
			sizeof(cfg.dev_name));
		ibtrace_dev_put(dev);
	}
	err = ibtrace_server_start(&cfg, info->extack);
	if (err) {
		if (err == -EADDRINUSE && attrs[IBTRACE_A_SERVER_PORT])
			NL_SET_BAD_ATTR(info->extack,
					attrs[IBTRACE_A_SERVER_PORT]);
		return err;
	}
	return ibtrace_server_reply(info, IBTRACE_CMD_SERVER_START, false, 0);
}

int ibtrace_nl_server_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	u32 closed = 0;
	int err;

	err = ibtrace_server_stop(&closed);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "the server does not run");
		return err;
	}
	return ibtrace_server_reply(info, IBTRACE_CMD_SERVER_STOP, true,
				    closed);
}

int ibtrace_nl_server_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtrace_server_reply(info, IBTRACE_CMD_SERVER_GET, false, 0);
}
