// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_PING: probe a node's class 0x30 agent, as a job.
 *
 * The request is validated and the ping started as a job (job.h); the
 * reply carries its ID at once. Each probe's result goes to the requester
 * as an IBTRACE_CMD_PING_PROBE message as the ping runs, and its end as
 * an IBTRACE_CMD_PING message with the statistics (and, when it ended
 * early, the error); both also go to the "ping" group.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "job.h"
#include "netlink.h"

/* room for a probe or end message: header, port, job and a nest */
#define IBTRACE_PING_MSG_SIZE		512

static struct netlink_range_validation ibtrace_count_range = {
	.min = 1, .max = IBTRACE_PING_MAX_COUNT,
};

static struct netlink_range_validation ibtrace_interval_range = {
	.min = 0, .max = IBTRACE_PING_MAX_INTERVAL_MS,
};

const struct nla_policy ibtrace_ping_policy[IBTRACE_A_JOB_DETACH + 1] = {
	IBTRACE_NL_PORT_POLICY,
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
		NLA_POLICY_RANGE(NLA_U32, 0, IBTRACE_MAX_RETRIES),
	[IBTRACE_A_PING_SROUTE] =
		NLA_POLICY_RANGE(NLA_BINARY, 1, IBTRACE_SROUTE_MAX_HOPS),
	[IBTRACE_A_JOB_DETACH] = { .type = NLA_FLAG },
};

/**
 * struct ibtrace_ping_job - a ping
 * @base: the job
 * @params: what to ping and how
 * @sum: the statistics: sent, received and errors as the ping goes, the
 *	RTT figures once it has ended (under @base.lock)
 */
struct ibtrace_ping_job {
	struct ibtrace_job base;
	struct ibtrace_ping_params params;
	struct ibtrace_ping_summary sum;
};

static struct ibtrace_ping_job *ibtrace_ping_job(struct ibtrace_job *job)
{
	return container_of(job, struct ibtrace_ping_job, base);
}

static int ibtrace_ping_parse(struct nlattr **attrs,
			      struct netlink_ext_ack *extack,
			      struct ibtrace_ping_params *p)
{
	struct nlattr *sr = attrs[IBTRACE_A_PING_SROUTE];

	p->count = ibtrace_nl_get_u32(attrs, IBTRACE_A_PING_COUNT, 1);
	p->interval_ms = ibtrace_nl_get_u32(attrs, IBTRACE_A_PING_INTERVAL_MS,
					    IBTRACE_PING_DEF_INTERVAL_MS);
	ibtrace_nl_get_timing(attrs, IBTRACE_A_PING_TIMEOUT_MS,
			      IBTRACE_A_PING_RETRIES, &p->timeout_ms,
			      &p->retries);
	if (sr) {
		p->sroute_len = nla_len(sr);
		memcpy(p->sroute, nla_data(sr), p->sroute_len);
	}
	return ibtrace_nl_get_dest(attrs, extack, IBTRACE_A_PING_DGID,
				   IBTRACE_A_PING_DLID, &p->dgid, &p->has_dgid,
				   &p->dlid);
}

/* What the probe found: its answer's attributes, when answered. */
static int ibtrace_put_probe_answer(struct sk_buff *skb,
				    const struct ibtrace_mad_req *req,
				    bool sroute)
{
	const struct ib_class_port_info *cpi =
		(const struct ib_class_port_info *)req->resp.data;

	if (nla_put_u16(skb, IBTRACE_PROBE_A_MAD_STATUS,
			be16_to_cpu(req->resp.mad_hdr.status)) ||
	    nla_put_u64_64bit(skb, IBTRACE_PROBE_A_RTT_NS, req->rtt_ns,
			      IBTRACE_PROBE_A_PAD) ||
	    nla_put_u32(skb, IBTRACE_PROBE_A_SLID, req->slid))
		return -EMSGSIZE;
	if (req->has_grh &&
	    nla_put(skb, IBTRACE_PROBE_A_SGID, sizeof(req->sgid),
		    req->sgid.raw))
		return -EMSGSIZE;

	if (sroute)
		return nla_put_u8(skb, IBTRACE_PROBE_A_ACTUAL_PORT,
				  req->resp.data[IBTRACE_SROUTE_ACTUAL_PORT]);
	if (req->resp.mad_hdr.status)
		return 0;
	if (nla_put_u8(skb, IBTRACE_PROBE_A_CPI_BASE_VERSION,
		       cpi->base_version) ||
	    nla_put_u8(skb, IBTRACE_PROBE_A_CPI_CLASS_VERSION,
		       cpi->class_version) ||
	    nla_put_u16(skb, IBTRACE_PROBE_A_CPI_CAP_MASK,
			be16_to_cpu(cpi->capability_mask)) ||
	    nla_put_u8(skb, IBTRACE_PROBE_A_CPI_RESP_TIME,
		       be32_to_cpu(cpi->cap_mask2_resp_time) &
		       IB_CLASS_PORT_INFO_RESP_TIME_MASK))
		return -EMSGSIZE;
	return 0;
}

static int ibtrace_probe_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_ping_probe *probe = data;
	bool answered = probe->status == IBTRACE_PROBE_OK ||
			probe->status == IBTRACE_PROBE_REMOTE_ERROR;

	return nla_put_u32(skb, IBTRACE_PROBE_A_SEQ, probe->seq) ||
	       nla_put_u8(skb, IBTRACE_PROBE_A_STATUS, probe->status) ||
	       nla_put_u32(skb, IBTRACE_PROBE_A_ATTEMPTS, probe->req->attempts) ||
	       (answered &&
		ibtrace_put_probe_answer(skb, probe->req, probe->sroute));
}

static int ibtrace_summary_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_ping_summary *s = data;

	if (nla_put_u32(skb, IBTRACE_SUMMARY_A_SENT, s->sent) ||
	    nla_put_u32(skb, IBTRACE_SUMMARY_A_RECEIVED, s->received) ||
	    nla_put_u32(skb, IBTRACE_SUMMARY_A_ERRORS, s->errors))
		return -EMSGSIZE;
	if (!s->received)
		return 0;
	return nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_MIN_NS,
				 s->rtt_min_ns, IBTRACE_SUMMARY_A_PAD) ||
	       nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_AVG_NS,
				 s->rtt_avg_ns, IBTRACE_SUMMARY_A_PAD) ||
	       nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_MAX_NS,
				 s->rtt_max_ns, IBTRACE_SUMMARY_A_PAD) ||
	       nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_P99_NS,
				 s->rtt_p99_ns, IBTRACE_SUMMARY_A_PAD) ||
	       nla_put_u64_64bit(skb, IBTRACE_SUMMARY_A_RTT_MEDIAN_NS,
				 s->rtt_median_ns, IBTRACE_SUMMARY_A_PAD);
}

/**
 * ibtrace_nl_put_summary() - a ping's or a MAD send's statistics
 * @skb: message being built
 * @type: the nest's attribute (%IBTRACE_A_PING_SUMMARY, ...)
 * @s: the statistics
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_nl_put_summary(struct sk_buff *skb, int type,
			   const struct ibtrace_ping_summary *s)
{
	return ibtrace_nl_put_nest(skb, type, ibtrace_summary_attrs, s);
}

static int ibtrace_put_summary(struct sk_buff *skb,
			       const struct ibtrace_ping_summary *s)
{
	return ibtrace_nl_put_summary(skb, IBTRACE_A_PING_SUMMARY, s);
}

/* A message of the ping after the head: a probe or (at the end) the summary. */
static int ibtrace_ping_job_msg(struct sk_buff *skb, struct ibtrace_job *job,
				const void *probe)
{
	if (probe)
		return ibtrace_nl_put_nest(skb, IBTRACE_A_PING_PROBE,
					   ibtrace_probe_attrs, probe);
	return ibtrace_put_summary(skb, &ibtrace_ping_job(job)->sum);
}

/* After each probe: count it, and tell (in a batch with the next ones). */
static int ibtrace_ping_report(void *data,
			       const struct ibtrace_ping_probe *probe)
{
	struct ibtrace_ping_job *pj = data;

	mutex_lock(&pj->base.lock);
	pj->sum.sent++;
	if (probe->status == IBTRACE_PROBE_OK ||
	    probe->status == IBTRACE_PROBE_REMOTE_ERROR)
		pj->sum.received++;
	if (probe->status == IBTRACE_PROBE_REMOTE_ERROR)
		pj->sum.errors++;
	mutex_unlock(&pj->base.lock);
	ibtrace_job_notify_batched(&pj->base, IBTRACE_CMD_PING_PROBE, probe);
	return 0;
}

static void ibtrace_ping_job_run(struct ibtrace_job *job)
{
	struct ibtrace_ping_job *pj = ibtrace_ping_job(job);
	struct netlink_ext_ack ext = {};
	struct ibtrace_ping_summary sum;
	int err;

	pj->params.stop = &job->cancel;
	err = ibtrace_ping_run(job->port, &pj->params, ibtrace_ping_report,
			       pj, &sum, &ext);
	mutex_lock(&job->lock);
	pj->sum = sum;
	mutex_unlock(&job->lock);
	if (err == -ECANCELED)
		ibtrace_job_set_cancelled(job);
	else if (err)
		ibtrace_job_set_error(job, err, ext._msg);
}

static void ibtrace_ping_job_end(struct ibtrace_job *job)
{
	ibtrace_job_notify(job, IBTRACE_CMD_PING, NULL);
}

/* GET: what was asked, and the statistics so far. */
static int ibtrace_ping_job_fill(struct sk_buff *skb, struct ibtrace_job *job,
				 bool full)
{
	const struct ibtrace_ping_params *p = &ibtrace_ping_job(job)->params;

	if (p->has_dgid &&
	    nla_put(skb, IBTRACE_A_PING_DGID, sizeof(p->dgid), p->dgid.raw))
		return -EMSGSIZE;
	if (ibtrace_nl_put_u32_nz(skb, IBTRACE_A_PING_DLID, p->dlid) ||
	    nla_put_u32(skb, IBTRACE_A_PING_COUNT, p->count) ||
	    nla_put_u32(skb, IBTRACE_A_PING_INTERVAL_MS, p->interval_ms))
		return -EMSGSIZE;
	return ibtrace_put_summary(skb, &ibtrace_ping_job(job)->sum);
}

static void ibtrace_ping_job_free(struct ibtrace_job *job)
{
	kfree(ibtrace_ping_job(job));
}

/* The destination, once the request names the port. */
static int ibtrace_ping_job_check(struct ibtrace_job *job,
				  struct ibtrace_port *port,
				  struct genl_info *info)
{
	const struct ibtrace_ping_params *p = &ibtrace_ping_job(job)->params;

	return ibtrace_addr_check(port, p->has_dgid ? &p->dgid : NULL, p->dlid,
				  info->extack);
}

static const struct ibtrace_job_ops ibtrace_ping_ops = {
	.kind = IBTRACE_JOB_PING,
	.name = "ping",
	.max_running = IBTRACE_PING_MAX_RUNNING,
	.needs_agent = true,
	.check = ibtrace_ping_job_check,
	.mcgrp = IBTRACE_NL_MCGRP_PING,
	.msg_size = IBTRACE_PING_MSG_SIZE,
	.msg = ibtrace_ping_job_msg,
	.run = ibtrace_ping_job_run,
	.end = ibtrace_ping_job_end,
	.fill = ibtrace_ping_job_fill,
	.free = ibtrace_ping_job_free,
};

int ibtrace_nl_ping_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibtrace_ping_job *pj;
	int err;

	pj = kzalloc(sizeof(*pj), GFP_KERNEL);
	if (!pj)
		return -ENOMEM;
	ibtrace_job_init(&pj->base, &ibtrace_ping_ops);
	err = ibtrace_ping_parse(info->attrs, info->extack, &pj->params);
	if (err) {
		ibtrace_job_put(&pj->base);
		return err;
	}
	return ibtrace_nl_job_start(&pj->base, info, IBTRACE_CMD_PING);
}
