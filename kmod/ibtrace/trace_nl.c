// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_TRACE: the path to a destination, hop by hop, as
 * a job.
 *
 * The request is validated and the trace started as a job (job.h); the
 * reply carries its ID (IBTRACE_A_TRACE_ID, the job ID) at once. Each hop
 * goes to the requester as an IBTRACE_CMD_TRACE_HOP message as soon as it
 * is known, and the end as an IBTRACE_CMD_TRACE message saying how the
 * trace ended, also when it failed on the fabric; both also go to the
 * "trace" multicast group, for monitors. The job keeps the hops and the
 * result for GET. At most IBTRACE_TRACE_MAX_RUNNING traces run at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "job.h"
#include "netlink.h"

/* hops a trace keeps for GET: the source, 63 more, and one to spare */
#define IBTRACE_TRACE_KEPT_HOPS	(IBTRACE_TRACE_MAX_HOPS + 2)

/**
 * struct ibtrace_trace_job - a trace
 * @base: the job
 * @params: where to trace to and how
 * @result: how it ended (valid with @have_result; under @base.lock, as
 *	what follows)
 * @have_result: the trace ended on the fabric (not cancelled, ...)
 * @hops: the hops reported, the first %IBTRACE_TRACE_KEPT_HOPS
 * @nhops: hops reported
 */
struct ibtrace_trace_job {
	struct ibtrace_job base;
	struct ibtrace_trace_params params;
	struct ibtrace_trace_result result;
	bool have_result;
	struct ibtrace_hop *hops;
	u32 nhops;
};

static struct ibtrace_trace_job *ibtrace_trace_job(struct ibtrace_job *job)
{
	return container_of(job, struct ibtrace_trace_job, base);
}

const struct nla_policy ibtrace_trace_policy[IBTRACE_A_JOB_DETACH + 1] = {
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
		NLA_POLICY_RANGE(NLA_U32, 0, IBTRACE_MAX_RETRIES),
	[IBTRACE_A_TRACE_MLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_mlid_range),
	[IBTRACE_A_JOB_DETACH] = { .type = NLA_FLAG },
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
		/*
		 * Not a port: nothing answers a Get there, and on rxe
		 * (6.1) each MAD sent to one leaks a reference to QP1,
		 * so that removing the device hangs and WARNs.
		 */
		if (p->dgid.raw[0] == 0xff) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TRACE_DGID],
					    "a multicast DGID is not a destination");
			return -EINVAL;
		}
		p->has_dgid = true;
	}
	if (attrs[IBTRACE_A_TRACE_DLID])
		p->dlid = nla_get_u32(attrs[IBTRACE_A_TRACE_DLID]);
	if (attrs[IBTRACE_A_TRACE_MLID])
		p->mlid = nla_get_u32(attrs[IBTRACE_A_TRACE_MLID]);
	p->timeout_ms = IBTRACE_DEF_TIMEOUT_MS;
	if (attrs[IBTRACE_A_TRACE_TIMEOUT_MS])
		p->timeout_ms = nla_get_u32(attrs[IBTRACE_A_TRACE_TIMEOUT_MS]);
	p->retries = IBTRACE_DEF_RETRIES;
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

/* A trace message: the job, the trace ID and, by @cmd, a hop or the end. */
static struct sk_buff *ibtrace_trace_msg(struct ibtrace_trace_job *tj, u8 cmd,
					 const struct ibtrace_hop *hop)
{
	struct ibtrace_job *job = &tj->base;
	struct sk_buff *skb;
	void *hdr;
	int err;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	hdr = genlmsg_put(skb, 0, 0, &ibtrace_genl_family, 0, cmd);
	if (!hdr)
		goto err_free;
	mutex_lock(&job->lock);
	err = ibtrace_job_put_head(skb, job) ||
	      nla_put_u32(skb, IBTRACE_A_TRACE_ID, job->id);
	if (!err && hop)
		err = ibtrace_put_hop(skb, hop);
	else if (!err && tj->have_result)
		err = ibtrace_put_trace_result(skb, &tj->result);
	/* as monitors have always been told a trace that ended early */
	if (!err && !hop && job->err)
		err = nla_put_u32(skb, IBTRACE_A_TRACE_ERRNO, -job->err);
	mutex_unlock(&job->lock);
	if (err)
		goto err_free;
	genlmsg_end(skb, hdr);
	return skb;

err_free:
	nlmsg_free(skb);
	return NULL;
}

/* Send a message to the requester and the "trace" group. */
static void ibtrace_trace_notify(struct ibtrace_trace_job *tj, u8 cmd,
				 const struct ibtrace_hop *hop)
{
	struct sk_buff *skb, *mskb = NULL;

	skb = ibtrace_trace_msg(tj, cmd, hop);
	if (!skb)
		return;
	if (genl_has_listeners(&ibtrace_genl_family, &init_net,
			       IBTRACE_NL_MCGRP_TRACE))
		mskb = skb_clone(skb, GFP_KERNEL);
	ibtrace_job_unicast(&tj->base, skb);
	if (mskb)
		genlmsg_multicast(&ibtrace_genl_family, mskb, 0,
				  IBTRACE_NL_MCGRP_TRACE, GFP_KERNEL);
}

/* Keep one hop and tell it, while the trace runs. */
static int ibtrace_trace_hop_report(void *data, const struct ibtrace_hop *hop)
{
	struct ibtrace_trace_job *tj = data;

	mutex_lock(&tj->base.lock);
	if (tj->nhops < IBTRACE_TRACE_KEPT_HOPS)
		tj->hops[tj->nhops] = *hop;
	tj->nhops++;
	mutex_unlock(&tj->base.lock);
	ibtrace_trace_notify(tj, IBTRACE_CMD_TRACE_HOP, hop);
	return 0;
}

static void ibtrace_trace_job_run(struct ibtrace_job *job)
{
	struct ibtrace_trace_job *tj = ibtrace_trace_job(job);
	struct ibtrace_trace_result result;
	struct netlink_ext_ack ext = {};
	int err;

	tj->params.stop = &job->cancel;
	err = ibtrace_trace_run(job->port, &tj->params,
				ibtrace_trace_hop_report, tj, &result, &ext);
	if (err == -ECANCELED) {
		ibtrace_job_set_cancelled(job);
		return;
	}
	if (err) {
		ibtrace_job_set_error(job, err, ext._msg);
		return;
	}
	mutex_lock(&job->lock);
	tj->result = result;
	tj->have_result = true;
	mutex_unlock(&job->lock);
}

static void ibtrace_trace_job_end(struct ibtrace_job *job)
{
	ibtrace_trace_notify(ibtrace_trace_job(job), IBTRACE_CMD_TRACE, NULL);
}

/* GET: the trace ID, the hops (a "do" reply only) and the result. */
static int ibtrace_trace_job_fill(struct sk_buff *skb, struct ibtrace_job *job,
				  bool full)
{
	struct ibtrace_trace_job *tj = ibtrace_trace_job(job);
	const struct ibtrace_trace_params *p = &tj->params;
	u32 i, n = min_t(u32, tj->nhops, IBTRACE_TRACE_KEPT_HOPS);

	if (nla_put_u32(skb, IBTRACE_A_TRACE_ID, job->id))
		return -EMSGSIZE;
	if (!tj->have_result && p->dlid &&
	    nla_put_u32(skb, IBTRACE_A_TRACE_DLID, p->dlid))
		return -EMSGSIZE;
	if (p->has_dgid &&
	    nla_put(skb, IBTRACE_A_TRACE_DGID, sizeof(p->dgid), p->dgid.raw))
		return -EMSGSIZE;
	for (i = 0; full && i < n; i++)
		if (ibtrace_put_hop(skb, &tj->hops[i]))
			return -EMSGSIZE;
	if (tj->have_result)
		return ibtrace_put_trace_result(skb, &tj->result);
	return nla_put_u32(skb, IBTRACE_A_TRACE_HOPS, tj->nhops);
}

static size_t ibtrace_trace_job_size(struct ibtrace_job *job)
{
	return IBTRACE_TRACE_KEPT_HOPS * 256;
}

static void ibtrace_trace_job_free(struct ibtrace_job *job)
{
	struct ibtrace_trace_job *tj = ibtrace_trace_job(job);

	kvfree(tj->hops);
	kfree(tj);
}

static const struct ibtrace_job_ops ibtrace_trace_ops = {
	.kind = IBTRACE_JOB_TRACE,
	.name = "trace",
	.max_running = IBTRACE_TRACE_MAX_RUNNING,
	.run = ibtrace_trace_job_run,
	.end = ibtrace_trace_job_end,
	.fill = ibtrace_trace_job_fill,
	.size = ibtrace_trace_job_size,
	.free = ibtrace_trace_job_free,
};

int ibtrace_nl_trace_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibtrace_trace_job *tj;
	struct ibtrace_port *port;
	struct sk_buff *rskb;
	void *hdr;
	u32 id;
	int err;

	tj = kzalloc(sizeof(*tj), GFP_KERNEL);
	if (!tj)
		return -ENOMEM;
	ibtrace_job_init(&tj->base, &ibtrace_trace_ops);
	tj->hops = kvcalloc(IBTRACE_TRACE_KEPT_HOPS, sizeof(*tj->hops),
			    GFP_KERNEL);
	if (!tj->hops) {
		err = -ENOMEM;
		goto out_job;
	}
	err = ibtrace_trace_parse(info->attrs, info->extack, &tj->params);
	if (err)
		goto out_job;
	err = ibtrace_nl_get_port(info->attrs, info->extack, 1, &port);
	if (err)
		goto out_job;
	if (!port->agent) {
		NL_SET_ERR_MSG(info->extack,
			       "the port has no class 0x30 agent (no GSI)");
		err = -EOPNOTSUPP;
		goto out_put;
	}
	err = ibtrace_trace_check(port, &tj->params, info->extack);
	if (err)
		goto out_put;

	rskb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!rskb) {
		err = -ENOMEM;
		goto out_put;
	}
	err = ibtrace_job_start(&tj->base, port, info, info->extack, &id);
	if (err) {
		nlmsg_free(rskb);
		goto out_put;
	}
	tj = NULL;	/* the framework's now */
	hdr = genlmsg_put_reply(rskb, info, &ibtrace_genl_family, 0,
				IBTRACE_CMD_TRACE);
	if (!hdr || ibtrace_nl_put_port_id(rskb, port) ||
	    nla_put_u32(rskb, IBTRACE_A_TRACE_ID, id) ||
	    nla_put_u32(rskb, IBTRACE_A_JOB, id)) {
		/* The trace runs anyway; its messages and GET still tell. */
		nlmsg_free(rskb);
		err = -EMSGSIZE;
		goto out_put;
	}
	genlmsg_end(rskb, hdr);
	err = genlmsg_reply(rskb, info);
out_put:
	ibtrace_dev_put(port->dev);
out_job:
	if (tj)
		ibtrace_job_put(&tj->base);
	return err;
}
