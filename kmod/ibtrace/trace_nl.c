// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_TRACE: the path to a destination, hop by hop.
 *
 * Like a ping, the trace runs in the requester's context (a signal, e.g.
 * Ctrl-C, ends it with EINTR and no reply). Each hop goes to the
 * requester as an IBTRACE_CMD_TRACE_HOP message as soon as it is known;
 * the reply says how the trace ended, also when it failed on the fabric.
 * The hops and the end of every trace are also events on the "trace"
 * multicast group, for monitors (only built when someone listens).
 * At most IBTRACE_TRACE_MAX_RUNNING traces run at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "netlink.h"

/* traces running now, at most IBTRACE_TRACE_MAX_RUNNING */
static atomic_t ibtrace_traces_running = ATOMIC_INIT(0);
/* the last trace ID given */
static atomic_t ibtrace_trace_last_id = ATOMIC_INIT(0);

const struct nla_policy ibtrace_trace_policy[IBTRACE_A_TRACE_MLID + 1] = {
	[IBTRACE_A_DEV_INDEX] = { .type = NLA_U32 },
	[IBTRACE_A_DEV_NAME] = { .type = NLA_NUL_STRING,
				 .len = IB_DEVICE_NAME_MAX - 1 },
	[IBTRACE_A_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[IBTRACE_A_TRACE_DLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_lid_range),
	[IBTRACE_A_TRACE_DGID] = NLA_POLICY_EXACT_LEN(sizeof(union ib_gid)),
	[IBTRACE_A_TRACE_TIMEOUT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_timeout_range),
	[IBTRACE_A_TRACE_RETRIES] =
		NLA_POLICY_RANGE(NLA_U32, 0, IBTRACE_NL_MAX_RETRIES),
	[IBTRACE_A_TRACE_MLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_mlid_range),
};

struct ibtrace_trace_ctx {
	struct genl_info *info;
	struct ibtrace_port *port;
	u32 id;
};

static int ibtrace_trace_parse(struct nlattr **attrs,
			       struct netlink_ext_ack *extack,
			       struct ibtrace_trace_params *p)
{
	if (!attrs[IBTRACE_A_TRACE_DGID] && !attrs[IBTRACE_A_TRACE_DLID]) {
		NL_SET_ERR_MSG(extack,
			       "a destination (DGID or DLID) is required");
		return -EINVAL;
	}
	if (attrs[IBTRACE_A_TRACE_DGID]) {
		nla_memcpy(p->dgid.raw, attrs[IBTRACE_A_TRACE_DGID],
			   sizeof(p->dgid.raw));
		p->has_dgid = true;
	}
	if (attrs[IBTRACE_A_TRACE_DLID])
		p->dlid = nla_get_u32(attrs[IBTRACE_A_TRACE_DLID]);
	if (attrs[IBTRACE_A_TRACE_MLID])
		p->mlid = nla_get_u32(attrs[IBTRACE_A_TRACE_MLID]);
	p->timeout_ms = IBTRACE_NL_DEF_TIMEOUT_MS;
	if (attrs[IBTRACE_A_TRACE_TIMEOUT_MS])
		p->timeout_ms = nla_get_u32(attrs[IBTRACE_A_TRACE_TIMEOUT_MS]);
	p->retries = IBTRACE_NL_DEF_RETRIES;
	if (attrs[IBTRACE_A_TRACE_RETRIES])
		p->retries = nla_get_u32(attrs[IBTRACE_A_TRACE_RETRIES]);
	return 0;
}

static int ibtrace_put_hop(struct sk_buff *skb, const struct ibtrace_hop *hop)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, IBTRACE_A_TRACE_HOP);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, IBTRACE_HOP_A_INDEX, hop->index) ||
	    nla_put_u8(skb, IBTRACE_HOP_A_NODE_TYPE, hop->node_type) ||
	    nla_put_u8(skb, IBTRACE_HOP_A_AGENT, hop->agent) ||
	    nla_put_u32(skb, IBTRACE_HOP_A_SMPS, hop->smps) ||
	    nla_put_u32(skb, IBTRACE_HOP_A_VENDOR_MADS, hop->vendor_mads))
		goto err_cancel;
	if (hop->num_ports &&
	    nla_put_u8(skb, IBTRACE_HOP_A_NUM_PORTS, hop->num_ports))
		goto err_cancel;
	if (hop->node_guid &&
	    (nla_put_u64_64bit(skb, IBTRACE_HOP_A_NODE_GUID, hop->node_guid,
			       IBTRACE_HOP_A_PAD) ||
	     nla_put_u64_64bit(skb, IBTRACE_HOP_A_PORT_GUID, hop->port_guid,
			       IBTRACE_HOP_A_PAD)))
		goto err_cancel;
	if (hop->has_lid &&
	    (nla_put_u32(skb, IBTRACE_HOP_A_LID, hop->lid) ||
	     nla_put_u8(skb, IBTRACE_HOP_A_LMC, hop->lmc)))
		goto err_cancel;
	if (hop->desc[0] &&
	    nla_put_string(skb, IBTRACE_HOP_A_NODE_DESC, hop->desc))
		goto err_cancel;
	if (hop->in_port && nla_put_u8(skb, IBTRACE_HOP_A_IN_PORT, hop->in_port))
		goto err_cancel;
	if (hop->out_port &&
	    nla_put_u8(skb, IBTRACE_HOP_A_OUT_PORT, hop->out_port))
		goto err_cancel;
	if (hop->expected_port &&
	    nla_put_u8(skb, IBTRACE_HOP_A_EXPECTED_PORT, hop->expected_port))
		goto err_cancel;
	if (hop->actual_port &&
	    nla_put_u8(skb, IBTRACE_HOP_A_ACTUAL_PORT, hop->actual_port))
		goto err_cancel;
	if (hop->smp_rtt_ns &&
	    nla_put_u64_64bit(skb, IBTRACE_HOP_A_SMP_RTT_NS, hop->smp_rtt_ns,
			      IBTRACE_HOP_A_PAD))
		goto err_cancel;
	if (hop->vendor_rtt_ns &&
	    nla_put_u64_64bit(skb, IBTRACE_HOP_A_VENDOR_RTT_NS,
			      hop->vendor_rtt_ns, IBTRACE_HOP_A_PAD))
		goto err_cancel;
	nla_nest_end(skb, nest);
	return 0;

err_cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int ibtrace_put_trace_result(struct sk_buff *skb,
				    const struct ibtrace_trace_result *r)
{
	if (nla_put_u8(skb, IBTRACE_A_TRACE_STATUS, r->status) ||
	    nla_put_u32(skb, IBTRACE_A_TRACE_HOPS, r->hops) ||
	    nla_put_u32(skb, IBTRACE_A_TRACE_SMPS, r->smps) ||
	    nla_put_u32(skb, IBTRACE_A_TRACE_VENDOR_MADS, r->vendor_mads) ||
	    nla_put_u64_64bit(skb, IBTRACE_A_TRACE_ELAPSED_NS, r->elapsed_ns,
			      IBTRACE_A_PAD))
		return -EMSGSIZE;
	if (r->dlid && nla_put_u32(skb, IBTRACE_A_TRACE_DLID, r->dlid))
		return -EMSGSIZE;
	if (r->one_hop && nla_put_u8(skb, IBTRACE_A_TRACE_ONE_HOP, 1))
		return -EMSGSIZE;
	if (r->mlid && nla_put_u32(skb, IBTRACE_A_TRACE_MLID, r->mlid))
		return -EMSGSIZE;
	if (r->status == IBTRACE_TRACE_OK ||
	    r->status == IBTRACE_TRACE_SA_FAILED)
		return 0;
	if (nla_put_u32(skb, IBTRACE_A_TRACE_FAIL_HOP, r->fail_hop))
		return -EMSGSIZE;
	if (r->fail_port &&
	    nla_put_u8(skb, IBTRACE_A_TRACE_FAIL_PORT, r->fail_port))
		return -EMSGSIZE;
	if (r->status == IBTRACE_TRACE_SMP_ERROR &&
	    nla_put_u16(skb, IBTRACE_A_TRACE_MAD_STATUS, r->mad_status))
		return -EMSGSIZE;
	if (r->status == IBTRACE_TRACE_NO_ROUTE_TOP &&
	    nla_put_u32(skb, IBTRACE_A_TRACE_FDB_TOP, r->fdb_top))
		return -EMSGSIZE;
	return 0;
}

/* A trace message: the port, the trace ID and, by @cmd, a hop or the end. */
static struct sk_buff *ibtrace_trace_msg(const struct ibtrace_trace_ctx *ctx,
					 u32 portid, u32 seq, u8 cmd,
					 const struct ibtrace_hop *hop,
					 const struct ibtrace_trace_result *r,
					 int err)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	hdr = genlmsg_put(skb, portid, seq, &ibtrace_genl_family, 0, cmd);
	if (!hdr || ibtrace_nl_put_port_id(skb, ctx->port) ||
	    nla_put_u32(skb, IBTRACE_A_TRACE_ID, ctx->id) ||
	    (hop && ibtrace_put_hop(skb, hop)) ||
	    (r && ibtrace_put_trace_result(skb, r)) ||
	    (err && nla_put_u32(skb, IBTRACE_A_TRACE_ERRNO, -err))) {
		nlmsg_free(skb);
		return NULL;
	}
	genlmsg_end(skb, hdr);
	return skb;
}

/* The same to the "trace" group, if anyone listens; best effort. */
static void ibtrace_trace_event(const struct ibtrace_trace_ctx *ctx, u8 cmd,
				const struct ibtrace_hop *hop,
				const struct ibtrace_trace_result *r, int err)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&ibtrace_genl_family, &init_net,
				IBTRACE_NL_MCGRP_TRACE))
		return;
	skb = ibtrace_trace_msg(ctx, 0, 0, cmd, hop, r, err);
	if (skb)
		genlmsg_multicast(&ibtrace_genl_family, skb, 0,
				  IBTRACE_NL_MCGRP_TRACE, GFP_KERNEL);
}

/* Send one hop to the requester (and the group) while the trace runs. */
static int ibtrace_trace_hop_report(void *data, const struct ibtrace_hop *hop)
{
	struct ibtrace_trace_ctx *ctx = data;
	struct genl_info *info = ctx->info;
	struct sk_buff *skb;

	ibtrace_trace_event(ctx, IBTRACE_CMD_TRACE_HOP, hop, NULL, 0);
	skb = ibtrace_trace_msg(ctx, info->snd_portid, info->snd_seq,
				IBTRACE_CMD_TRACE_HOP, hop, NULL, 0);
	if (!skb)
		return -ENOMEM;
	/* A requester that stopped reading just misses hop messages. */
	genlmsg_unicast(genl_info_net(info), skb, info->snd_portid);
	return 0;
}

static int ibtrace_trace_reply(const struct ibtrace_trace_ctx *ctx,
			       const struct ibtrace_trace_result *result)
{
	struct genl_info *info = ctx->info;
	struct sk_buff *rskb;

	rskb = ibtrace_trace_msg(ctx, info->snd_portid, info->snd_seq,
				 IBTRACE_CMD_TRACE, NULL, result, 0);
	if (!rskb)
		return -ENOMEM;
	return genlmsg_reply(rskb, info);
}

int ibtrace_nl_trace_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibtrace_trace_ctx ctx = { .info = info };
	struct ibtrace_trace_params params = {};
	struct ibtrace_trace_result result;
	struct ibtrace_port *port;
	int err;

	err = ibtrace_trace_parse(info->attrs, info->extack, &params);
	if (err)
		return err;
	err = ibtrace_nl_get_port(info->attrs, info->extack, 1, &port);
	if (err)
		return err;
	if (!port->agent) {
		NL_SET_ERR_MSG(info->extack,
			       "the port has no class 0x30 agent (no GSI)");
		err = -EOPNOTSUPP;
		goto out_put;
	}
	if (atomic_inc_return(&ibtrace_traces_running) >
	    IBTRACE_TRACE_MAX_RUNNING) {
		NL_SET_ERR_MSG(info->extack,
			       "busy: too many traces are running; try again later");
		err = -EBUSY;
		goto out_dec;
	}
	ctx.port = port;
	ctx.id = atomic_inc_return(&ibtrace_trace_last_id);

	err = ibtrace_trace_run(port, &params, ibtrace_trace_hop_report, &ctx,
				&result, info->extack);
	ibtrace_trace_event(&ctx, IBTRACE_CMD_TRACE, NULL, err ? NULL : &result,
			    err);
	if (!err)
		err = ibtrace_trace_reply(&ctx, &result);
out_dec:
	atomic_dec(&ibtrace_traces_running);
out_put:
	ibtrace_dev_put(port->dev);
	return err;
}
