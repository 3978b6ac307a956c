// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_PING: probe a node's class 0x30 agent.
 *
 * The handler runs the whole ping in the requester's context (a signal,
 * e.g. Ctrl-C, ends it). Each probe's result goes to the requester as an
 * IBTRACE_CMD_PING_PROBE message while the ping runs; the reply carries
 * the statistics.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "netlink.h"

#define IBTRACE_PING_DEF_INTERVAL_MS	1000
#define IBTRACE_PING_MAX_COUNT		100000

static struct netlink_range_validation ibtrace_count_range = {
	.min = 1, .max = IBTRACE_PING_MAX_COUNT,
};

static struct netlink_range_validation ibtrace_interval_range = {
	.min = 0, .max = IBTRACE_NL_MAX_MS,
};

const struct nla_policy ibtrace_ping_policy[IBTRACE_A_PING_SROUTE + 1] = {
	[IBTRACE_A_DEV_INDEX] = { .type = NLA_U32 },
	[IBTRACE_A_DEV_NAME] = { .type = NLA_NUL_STRING,
				 .len = IB_DEVICE_NAME_MAX - 1 },
	[IBTRACE_A_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[IBTRACE_A_PING_DGID] = NLA_POLICY_EXACT_LEN(sizeof(union ib_gid)),
	[IBTRACE_A_PING_DLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_lid_range),
	[IBTRACE_A_PING_COUNT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_count_range),
	[IBTRACE_A_PING_INTERVAL_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_interval_range),
	[IBTRACE_A_PING_TIMEOUT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_timeout_range),
	[IBTRACE_A_PING_RETRIES] =
		NLA_POLICY_RANGE(NLA_U32, 0, IBTRACE_NL_MAX_RETRIES),
	[IBTRACE_A_PING_SROUTE] =
		NLA_POLICY_RANGE(NLA_BINARY, 1, IBTRACE_SROUTE_MAX_HOPS),
};

struct ibtrace_ping_ctx {
	struct genl_info *info;
	struct ibtrace_port *port;
	bool sroute;
};

static u32 ibtrace_nl_u32(struct nlattr **attrs, int type, u32 def)
{
	return attrs[type] ? nla_get_u32(attrs[type]) : def;
}

static int ibtrace_ping_parse(struct nlattr **attrs,
			      struct netlink_ext_ack *extack,
			      struct ibtrace_ping_params *p)
{
	struct nlattr *sr = attrs[IBTRACE_A_PING_SROUTE];

	if (!attrs[IBTRACE_A_PING_DGID] && !attrs[IBTRACE_A_PING_DLID]) {
		NL_SET_ERR_MSG(extack, "a destination (DGID or DLID) is required");
		return -EINVAL;
	}
	if (attrs[IBTRACE_A_PING_DGID]) {
		nla_memcpy(p->dgid.raw, attrs[IBTRACE_A_PING_DGID],
			   sizeof(p->dgid.raw));
		p->has_dgid = true;
	}
	p->dlid = ibtrace_nl_u32(attrs, IBTRACE_A_PING_DLID, 0);
	p->count = ibtrace_nl_u32(attrs, IBTRACE_A_PING_COUNT, 1);
	p->interval_ms = ibtrace_nl_u32(attrs, IBTRACE_A_PING_INTERVAL_MS,
					IBTRACE_PING_DEF_INTERVAL_MS);
	p->timeout_ms = ibtrace_nl_u32(attrs, IBTRACE_A_PING_TIMEOUT_MS,
				       IBTRACE_NL_DEF_TIMEOUT_MS);
	p->retries = ibtrace_nl_u32(attrs, IBTRACE_A_PING_RETRIES,
				    IBTRACE_NL_DEF_RETRIES);
	if (sr) {
		p->sroute_len = nla_len(sr);
		memcpy(p->sroute, nla_data(sr), p->sroute_len);
	}
	return 0;
}

static int ibtrace_put_probe(struct sk_buff *skb,
			     const struct ibtrace_ping_probe *probe,
			     bool sroute)
{
	const struct ibtrace_mad_req *req = probe->req;
	bool answered = probe->status == IBTRACE_PROBE_OK ||
			probe->status == IBTRACE_PROBE_REMOTE_ERROR;
	const struct ib_class_port_info *cpi;
	struct nlattr *nest;

	nest = nla_nest_start(skb, IBTRACE_A_PING_PROBE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, IBTRACE_PROBE_A_SEQ, probe->seq) ||
	    nla_put_u8(skb, IBTRACE_PROBE_A_STATUS, probe->status) ||
	    nla_put_u32(skb, IBTRACE_PROBE_A_ATTEMPTS, req->attempts))
		goto err_cancel;
	if (!answered)
		goto out;

	if (nla_put_u16(skb, IBTRACE_PROBE_A_MAD_STATUS,
			be16_to_cpu(req->resp.mad_hdr.status)) ||
	    nla_put_u64_64bit(skb, IBTRACE_PROBE_A_RTT_NS, req->rtt_ns,
			      IBTRACE_PROBE_A_PAD) ||
	    nla_put_u32(skb, IBTRACE_PROBE_A_SLID, req->slid))
		goto err_cancel;
	if (req->has_grh &&
	    nla_put(skb, IBTRACE_PROBE_A_SGID, sizeof(req->sgid),
		    req->sgid.raw))
		goto err_cancel;

	if (sroute) {
		if (nla_put_u8(skb, IBTRACE_PROBE_A_ACTUAL_PORT,
			       req->resp.data[IBTRACE_SR_ACTUAL_PORT]))
			goto err_cancel;
	} else if (!req->resp.mad_hdr.status) {
		cpi = (const struct ib_class_port_info *)req->resp.data;
		if (nla_put_u8(skb, IBTRACE_PROBE_A_CPI_BASE_VERSION,
			       cpi->base_version) ||
		    nla_put_u8(skb, IBTRACE_PROBE_A_CPI_CLASS_VERSION,
			       cpi->class_version) ||
		    nla_put_u16(skb, IBTRACE_PROBE_A_CPI_CAP_MASK,
				be16_to_cpu(cpi->capability_mask)) ||
		    nla_put_u8(skb, IBTRACE_PROBE_A_CPI_RESP_TIME,
			       be32_to_cpu(cpi->cap_mask2_resp_time) &
			       IB_CLASS_PORT_INFO_RESP_TIME_MASK))
			goto err_cancel;
	}
out:
	nla_nest_end(skb, nest);
	return 0;

err_cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* Send one probe's result to the requester while the ping runs. */
static int ibtrace_ping_report(void *data,
			       const struct ibtrace_ping_probe *probe)
{
	struct ibtrace_ping_ctx *ctx = data;
	struct genl_info *info = ctx->info;
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put(skb, info->snd_portid, info->snd_seq,
			  &ibtrace_genl_family, 0, IBTRACE_CMD_PING_PROBE);
	if (!hdr ||
	    ibtrace_nl_put_port_id(skb, ctx->port) ||
	    ibtrace_put_probe(skb, probe, ctx->sroute)) {
		nlmsg_free(skb);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	/* A requester that stopped reading just misses progress messages. */
	genlmsg_unicast(genl_info_net(info), skb, info->snd_portid);
	return 0;
}

static int ibtrace_put_summary(struct sk_buff *skb,
			       const struct ibtrace_ping_summary *s)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, IBTRACE_A_PING_SUMMARY);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, IBTRACE_SUMMARY_A_SENT, s->sent) ||
	    nla_put_u32(skb, IBTRACE_SUMMARY_A_RECEIVED, s->received) ||
	    nla_put_u32(skb, IBTRACE_SUMMARY_A_ERRORS, s->errors)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	if (s->received &&
	    (nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_MIN_NS,
			       s->rtt_min_ns, IBTRACE_SUMMARY_A_PAD) ||
	     nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_AVG_NS,
			       s->rtt_avg_ns, IBTRACE_SUMMARY_A_PAD) ||
	     nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_MAX_NS,
			       s->rtt_max_ns, IBTRACE_SUMMARY_A_PAD) ||
	     nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_P99_NS,
			       s->rtt_p99_ns, IBTRACE_SUMMARY_A_PAD) ||
	     nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_MEDIAN_NS,
			       s->rtt_median_ns, IBTRACE_SUMMARY_A_PAD))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int ibtrace_nl_ping_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibtrace_ping_params *params;
	struct ibtrace_ping_summary summary;
	struct ibtrace_ping_ctx ctx = { .info = info };
	struct ibtrace_port *port;
	struct sk_buff *rskb;
	void *hdr;
	int err;

	params = kzalloc(sizeof(*params), GFP_KERNEL);
	if (!params)
		return -ENOMEM;
	err = ibtrace_ping_parse(info->attrs, info->extack, params);
	if (err)
		goto out_free;

	err = ibtrace_nl_get_port(info->attrs, info->extack, 1, &port);
	if (err)
		goto out_free;
	if (!port->agent) {
		NL_SET_ERR_MSG(info->extack,
			       "the port has no class 0x30 agent (no GSI)");
		err = -EOPNOTSUPP;
		goto out_put;
	}
	ctx.port = port;
	ctx.sroute = params->sroute_len > 0;

	err = ibtrace_ping_run(port, params, ibtrace_ping_report, &ctx,
			       &summary, info->extack);
	if (err)
		goto out_put;

	rskb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!rskb) {
		err = -ENOMEM;
		goto out_put;
	}
	hdr = genlmsg_put_reply(rskb, info, &ibtrace_genl_family, 0,
				IBTRACE_CMD_PING);
	if (!hdr || ibtrace_nl_put_port_id(rskb, port) ||
	    ibtrace_put_summary(rskb, &summary)) {
		nlmsg_free(rskb);
		err = -EMSGSIZE;
		goto out_put;
	}
	genlmsg_end(rskb, hdr);
	err = genlmsg_reply(rskb, info);
out_put:
	ibtrace_dev_put(port->dev);
out_free:
	kfree(params);
	return err;
}
