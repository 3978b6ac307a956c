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
	IBTRACE_NL_PORT_POLICY,
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
	p->mlid = ibtrace_nl_get_u32(attrs, IBTRACE_A_TRACE_MLID, 0);
	ibtrace_nl_get_timing(attrs, IBTRACE_A_TRACE_TIMEOUT_MS,
			      IBTRACE_A_TRACE_RETRIES, &p->timeout_ms,
			      &p->retries);
	return ibtrace_nl_get_dest(attrs, extack, IBTRACE_A_TRACE_DGID,
				   IBTRACE_A_TRACE_DLID, &p->dgid, &p->has_dgid,
				   &p->dlid);
}

static int ibtrace_hop_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_hop *hop = data;
	int err;

	err = nla_put_u32(skb, IBTRACE_HOP_A_INDEX, hop->index) ||
	      nla_put_u8(skb, IBTRACE_HOP_A_NODE_TYPE, hop->node_type) ||
	      nla_put_u8(skb, IBTRACE_HOP_A_AGENT, hop->agent) ||
	      nla_put_u32(skb, IBTRACE_HOP_A_SMPS, hop->smps) ||
	      nla_put_u32(skb, IBTRACE_HOP_A_VENDOR_MADS, hop->vendor_mads) ||
	      ibtrace_nl_put_u8_nz(skb, IBTRACE_HOP_A_NUM_PORTS, hop->num_ports);
	if (!err && hop->node_guid)
		err = nla_put_u64_64bit(skb, IBTRACE_HOP_A_NODE_GUID,
					hop->node_guid, IBTRACE_HOP_A_PAD) ||
		      nla_put_u64_64bit(skb, IBTRACE_HOP_A_PORT_GUID,
					hop->port_guid, IBTRACE_HOP_A_PAD);
	if (!err && hop->has_lid)
		err = nla_put_u32(skb, IBTRACE_HOP_A_LID, hop->lid) ||
		      nla_put_u8(skb, IBTRACE_HOP_A_LMC, hop->lmc);
	if (!err && hop->desc[0])
		err = nla_put_string(skb, IBTRACE_HOP_A_NODE_DESC, hop->desc);
	err = err ||
	      ibtrace_nl_put_u8_nz(skb, IBTRACE_HOP_A_IN_PORT, hop->in_port) ||
	      ibtrace_nl_put_u8_nz(skb, IBTRACE_HOP_A_OUT_PORT, hop->out_port) ||
	      ibtrace_nl_put_u8_nz(skb, IBTRACE_HOP_A_EXPECTED_PORT,
				   hop->expected_port) ||
	      ibtrace_nl_put_u8_nz(skb, IBTRACE_HOP_A_ACTUAL_PORT,
				   hop->actual_port);
	if (!err && hop->smp_rtt_ns)
		err = nla_put_u64_64bit(skb, IBTRACE_HOP_A_SMP_RTT_NS,
					hop->smp_rtt_ns, IBTRACE_HOP_A_PAD);
	if (!err && hop->vendor_rtt_ns)
		err = nla_put_u64_64bit(skb, IBTRACE_HOP_A_VENDOR_RTT_NS,
					hop->vendor_rtt_ns, IBTRACE_HOP_A_PAD);
	return err;
}

static int ibtrace_put_hop(struct sk_buff *skb, const struct ibtrace_hop *hop)
{
	return ibtrace_nl_put_nest(skb, IBTRACE_A_TRACE_HOP, ibtrace_hop_attrs,
				   hop);
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
	if (ibtrace_nl_put_u32_nz(skb, IBTRACE_A_TRACE_DLID, r->dlid) ||
	    ibtrace_nl_put_u8_nz(skb, IBTRACE_A_TRACE_ONE_HOP, r->one_hop) ||
	    ibtrace_nl_put_u32_nz(skb, IBTRACE_A_TRACE_MLID, r->mlid))
		return -EMSGSIZE;
	if (r->status == IBTRACE_TRACE_OK ||
	    r->status == IBTRACE_TRACE_SA_FAILED)
		return 0;
	if (nla_put_u32(skb, IBTRACE_A_TRACE_FAIL_HOP, r->fail_hop))
		return -EMSGSIZE;
	if (ibtrace_nl_put_u8_nz(skb, IBTRACE_A_TRACE_FAIL_PORT, r->fail_port))
		return -EMSGSIZE;
	if (r->status == IBTRACE_TRACE_SMP_ERROR &&
	    nla_put_u16(skb, IBTRACE_A_TRACE_MAD_STATUS, r->mad_status))
		return -EMSGSIZE;
	if (r->status == IBTRACE_TRACE_NO_ROUTE_TOP &&
	    nla_put_u32(skb, IBTRACE_A_TRACE_FDB_TOP, r->fdb_top))
		return -EMSGSIZE;
	return 0;
}

/* A trace message after the head: the trace ID and a hop or the end. */
static int ibtrace_trace_job_msg(struct sk_buff *skb, struct ibtrace_job *job,
				 const void *hop)
{
	struct ibtrace_trace_job *tj = ibtrace_trace_job(job);

	if (nla_put_u32(skb, IBTRACE_A_TRACE_ID, job->id))
		return -EMSGSIZE;
	if (hop)
		return ibtrace_put_hop(skb, hop);
	if (tj->have_result && ibtrace_put_trace_result(skb, &tj->result))
		return -EMSGSIZE;
	/* as monitors have always been told a trace that ended early */
	if (job->err && nla_put_u32(skb, IBTRACE_A_TRACE_ERRNO, -job->err))
		return -EMSGSIZE;
	return 0;
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
	ibtrace_job_notify(&tj->base, IBTRACE_CMD_TRACE_HOP, hop);
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
	ibtrace_job_notify(job, IBTRACE_CMD_TRACE, NULL);
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

/* Whether the trace can go from the port the request names. */
static int ibtrace_trace_job_check(struct ibtrace_job *job,
				   struct ibtrace_port *port,
				   struct genl_info *info)
{
	return ibtrace_trace_check(port, &ibtrace_trace_job(job)->params,
				   info->extack);
}

/* The reply to the request: the trace ID, and the job ID (the same). */
static int ibtrace_trace_job_reply(struct sk_buff *skb,
				   struct ibtrace_job *job)
{
	if (nla_put_u32(skb, IBTRACE_A_TRACE_ID, job->id) ||
	    nla_put_u32(skb, IBTRACE_A_JOB, job->id))
		return -EMSGSIZE;
	return 0;
}

static const struct ibtrace_job_ops ibtrace_trace_ops = {
	.kind = IBTRACE_JOB_TRACE,
	.name = "trace",
	.max_running = IBTRACE_TRACE_MAX_RUNNING,
	.needs_agent = true,
	.check = ibtrace_trace_job_check,
	.reply = ibtrace_trace_job_reply,
	.mcgrp = IBTRACE_NL_MCGRP_TRACE,
	.msg_size = NLMSG_GOODSIZE,
	.msg = ibtrace_trace_job_msg,
	.run = ibtrace_trace_job_run,
	.end = ibtrace_trace_job_end,
	.fill = ibtrace_trace_job_fill,
	.size = ibtrace_trace_job_size,
	.free = ibtrace_trace_job_free,
};

int ibtrace_nl_trace_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibtrace_trace_job *tj;
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
	return ibtrace_nl_job_start(&tj->base, info, IBTRACE_CMD_TRACE);
out_job:
	ibtrace_job_put(&tj->base);
	return err;
}
