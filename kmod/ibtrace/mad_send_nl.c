// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_MAD_SEND: send a MAD composed by the requester, as
 * a job.
 *
 * The request is validated and the send started as a job (job.h); the
 * reply carries its ID at once. Each MAD's outcome, with the answer MAD
 * whole, goes to the requester as an IBTRACE_CMD_MAD_ANSWER message as
 * the send runs, and its end as an IBTRACE_CMD_MAD_SEND message with the
 * statistics; both also go to the "mad" group. Only the methods that read
 * (ibtrace_mad_method_reads()) go without IBTRACE_A_MAD_ALLOW_SET.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "job.h"
#include "netlink.h"

/* room for an answer: header, port, job, the nest and a whole MAD */
#define IBTRACE_MAD_MSG_SIZE		1024

static struct netlink_range_validation ibtrace_mad_count_range = {
	.min = 1, .max = IBTRACE_MAD_MAX_COUNT,
};

static struct netlink_range_validation ibtrace_mad_interval_range = {
	.min = 0, .max = IBTRACE_PING_MAX_INTERVAL_MS,
};

static struct netlink_range_validation ibtrace_mad_dlid_range = {
	.min = 1, .max = U16_MAX,
};

static struct netlink_range_validation ibtrace_mad_qpn_range = {
	.min = 1, .max = IB_QPN_MASK,
};

static struct netlink_range_validation ibtrace_mad_oui_range = {
	.min = 0, .max = 0xffffff,
};

const struct nla_policy ibtrace_mad_send_policy[IBTRACE_A_MAD_ALLOW_SET + 1] = {
	IBTRACE_NL_PORT_POLICY,
	[IBTRACE_A_JOB_DETACH] = { .type = NLA_FLAG },
	[IBTRACE_A_MAD_CLASS] = { .type = NLA_U8 },
	[IBTRACE_A_MAD_CLASS_VERSION] = { .type = NLA_U8 },
	[IBTRACE_A_MAD_BASE_VERSION] = { .type = NLA_U8 },
	[IBTRACE_A_MAD_METHOD] = { .type = NLA_U8 },
	[IBTRACE_A_MAD_ATTR_ID] = { .type = NLA_U16 },
	[IBTRACE_A_MAD_ATTR_MOD] = { .type = NLA_U32 },
	[IBTRACE_A_MAD_STATUS] = { .type = NLA_U16 },
	[IBTRACE_A_MAD_TID] = { .type = NLA_U32 },
	[IBTRACE_A_MAD_MKEY] = { .type = NLA_U64 },
	[IBTRACE_A_MAD_OUI] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_mad_oui_range),
	[IBTRACE_A_MAD_COMP_MASK] = { .type = NLA_U64 },
	[IBTRACE_A_MAD_DATA] =
		NLA_POLICY_RANGE(NLA_BINARY, 1, IBTRACE_MAD_MAX_DATA),
	[IBTRACE_A_MAD_DR_PATH] =
		NLA_POLICY_RANGE(NLA_BINARY, 1, IBTRACE_MAD_MAX_DR_HOPS),
	[IBTRACE_A_MAD_DR_SLID] = { .type = NLA_U16 },
	[IBTRACE_A_MAD_DR_DLID] = { .type = NLA_U16 },
	[IBTRACE_A_MAD_HOP_PTR] = { .type = NLA_U8 },
	[IBTRACE_A_MAD_DLID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_mad_dlid_range),
	[IBTRACE_A_MAD_DGID] = NLA_POLICY_EXACT_LEN(sizeof(union ib_gid)),
	[IBTRACE_A_MAD_SL] = NLA_POLICY_MAX(NLA_U8, 15),
	[IBTRACE_A_MAD_PKEY_INDEX] = { .type = NLA_U16 },
	[IBTRACE_A_MAD_QPN] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_mad_qpn_range),
	[IBTRACE_A_MAD_COUNT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_mad_count_range),
	[IBTRACE_A_MAD_INTERVAL_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_mad_interval_range),
	[IBTRACE_A_MAD_TIMEOUT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_timeout_range),
	[IBTRACE_A_MAD_RETRIES] =
		NLA_POLICY_RANGE(NLA_U32, 0, IBTRACE_MAX_RETRIES),
	[IBTRACE_A_MAD_NO_WAIT] = { .type = NLA_FLAG },
	[IBTRACE_A_MAD_ALLOW_SET] = { .type = NLA_FLAG },
};

/**
 * struct ibtrace_mad_job - MADs being sent
 * @base: the job
 * @params: what to send and how
 * @sum: the statistics: sent, received and errors as the send goes, the
 *	RTT figures once it has ended (under @base.lock)
 */
struct ibtrace_mad_job {
	struct ibtrace_job base;
	struct ibtrace_mad_send_params params;
	struct ibtrace_ping_summary sum;
};

static struct ibtrace_mad_job *ibtrace_mad_job(struct ibtrace_job *job)
{
	return container_of(job, struct ibtrace_mad_job, base);
}

/* The MAD's own fields. */
static int ibtrace_mad_parse_mad(struct nlattr **attrs,
				 struct netlink_ext_ack *extack,
				 struct ibtrace_mad_send_params *p)
{
	struct nlattr *data = attrs[IBTRACE_A_MAD_DATA];

	if (NL_REQ_ATTR_CHECK(extack, NULL, attrs, IBTRACE_A_MAD_CLASS) ||
	    NL_REQ_ATTR_CHECK(extack, NULL, attrs, IBTRACE_A_MAD_METHOD)) {
		NL_SET_ERR_MSG(extack, "a MAD needs its class and method");
		return -EINVAL;
	}
	p->mgmt_class = nla_get_u8(attrs[IBTRACE_A_MAD_CLASS]);
	p->method = nla_get_u8(attrs[IBTRACE_A_MAD_METHOD]);
	p->class_version = ibtrace_nl_get_u8(attrs, IBTRACE_A_MAD_CLASS_VERSION,
					     1);
	p->base_version = ibtrace_nl_get_u8(attrs, IBTRACE_A_MAD_BASE_VERSION,
					    IB_MGMT_BASE_VERSION);
	p->attr_id = ibtrace_nl_get_u16(attrs, IBTRACE_A_MAD_ATTR_ID, 0);
	p->attr_mod = ibtrace_nl_get_u32(attrs, IBTRACE_A_MAD_ATTR_MOD, 0);
	p->status = ibtrace_nl_get_u16(attrs, IBTRACE_A_MAD_STATUS, 0);
	p->has_tid = !!attrs[IBTRACE_A_MAD_TID];
	p->tid = ibtrace_nl_get_u32(attrs, IBTRACE_A_MAD_TID, 0);
	p->mkey = ibtrace_nl_get_u64(attrs, IBTRACE_A_MAD_MKEY, 0);
	p->oui = ibtrace_nl_get_u32(attrs, IBTRACE_A_MAD_OUI, 0);
	p->comp_mask = ibtrace_nl_get_u64(attrs, IBTRACE_A_MAD_COMP_MASK, 0);

	if (!ibtrace_mad_method_reads(p->method) &&
	    !attrs[IBTRACE_A_MAD_ALLOW_SET]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_MAD_METHOD],
				    "this method can change the fabric: it needs IBTRACE_A_MAD_ALLOW_SET");
		return -EPERM;
	}
	if (data) {
		p->data_len = nla_len(data);
		if (p->data_len > IB_MGMT_MAD_SIZE -
				  ibtrace_mad_data_offset(p->mgmt_class)) {
			NL_SET_ERR_MSG_ATTR(extack, data,
					    "longer than the class's attribute data");
			return -EINVAL;
		}
		memcpy(p->data, nla_data(data), p->data_len);
	}
	return 0;
}

/* Where it goes, and how often. */
static int ibtrace_mad_parse_route(struct nlattr **attrs,
				   struct netlink_ext_ack *extack,
				   struct ibtrace_mad_send_params *p)
{
	struct nlattr *path = attrs[IBTRACE_A_MAD_DR_PATH];
	struct nlattr *dgid = attrs[IBTRACE_A_MAD_DGID];
	bool dr = p->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	static const int dr_only[] = {
		IBTRACE_A_MAD_DR_PATH, IBTRACE_A_MAD_DR_SLID,
		IBTRACE_A_MAD_DR_DLID, IBTRACE_A_MAD_HOP_PTR,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dr_only); i++)
		if (!dr && attrs[dr_only[i]]) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[dr_only[i]],
					    "only a directed-route SMP (class 0x81) has a directed route");
			return -EINVAL;
		}
	if (path) {
		p->dr_hops = nla_len(path);
		memcpy(p->dr_path, nla_data(path), p->dr_hops);
	}
	p->dr_slid = ibtrace_nl_get_u16(attrs, IBTRACE_A_MAD_DR_SLID,
					be16_to_cpu(IB_LID_PERMISSIVE));
	p->dr_dlid = ibtrace_nl_get_u16(attrs, IBTRACE_A_MAD_DR_DLID,
					be16_to_cpu(IB_LID_PERMISSIVE));
	p->hop_ptr = ibtrace_nl_get_u8(attrs, IBTRACE_A_MAD_HOP_PTR, 0);
	p->dlid = ibtrace_nl_get_u32(attrs, IBTRACE_A_MAD_DLID, 0);
	if (dgid) {
		p->has_dgid = true;
		memcpy(p->dgid.raw, nla_data(dgid), sizeof(p->dgid));
	}
	p->sl = ibtrace_nl_get_u8(attrs, IBTRACE_A_MAD_SL, 0);
	p->pkey_index = ibtrace_nl_get_u16(attrs, IBTRACE_A_MAD_PKEY_INDEX, 0);
	p->qpn = ibtrace_nl_get_u32(attrs, IBTRACE_A_MAD_QPN, 1);
	if (ibtrace_mad_class_is_smp(p->mgmt_class) &&
	    attrs[IBTRACE_A_MAD_QPN]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_MAD_QPN],
				    "SMPs always go to QP 0");
		return -EINVAL;
	}
	if (p->mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED && !p->dlid) {
		NL_SET_ERR_MSG(extack, "a LID-routed SMP needs a DLID");
		return -EINVAL;
	}

	p->count = ibtrace_nl_get_u32(attrs, IBTRACE_A_MAD_COUNT, 1);
	p->interval_ms = ibtrace_nl_get_u32(attrs, IBTRACE_A_MAD_INTERVAL_MS,
					    0);
	ibtrace_nl_get_timing(attrs, IBTRACE_A_MAD_TIMEOUT_MS,
			      IBTRACE_A_MAD_RETRIES, &p->timeout_ms,
			      &p->retries);
	if (attrs[IBTRACE_A_MAD_NO_WAIT])
		p->timeout_ms = 0;
	return 0;
}

/* What the MAD became: its outcome and, when answered, the answer whole. */
static int ibtrace_mad_answer_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_ping_probe *probe = data;
	const struct ibtrace_mad_req *req = probe->req;

	if (nla_put_u32(skb, IBTRACE_PROBE_A_SEQ, probe->seq) ||
	    nla_put_u8(skb, IBTRACE_PROBE_A_STATUS, probe->status) ||
	    nla_put_u32(skb, IBTRACE_PROBE_A_ATTEMPTS, req->attempts) ||
	    nla_put_u64_64bit(skb, IBTRACE_PROBE_A_TID,
			      be64_to_cpu(req->mad.mad_hdr.tid),
			      IBTRACE_PROBE_A_PAD))
		return -EMSGSIZE;
	if (probe->status != IBTRACE_PROBE_OK &&
	    probe->status != IBTRACE_PROBE_REMOTE_ERROR)
		return 0;
	if (nla_put_u16(skb, IBTRACE_PROBE_A_MAD_STATUS,
			ibtrace_mad_resp_status(req)) ||
	    nla_put_u64_64bit(skb, IBTRACE_PROBE_A_RTT_NS, req->rtt_ns,
			      IBTRACE_PROBE_A_PAD) ||
	    nla_put_u32(skb, IBTRACE_PROBE_A_SLID, req->slid) ||
	    nla_put(skb, IBTRACE_PROBE_A_MAD, sizeof(req->resp), &req->resp))
		return -EMSGSIZE;
	if (req->has_grh &&
	    nla_put(skb, IBTRACE_PROBE_A_SGID, sizeof(req->sgid),
		    req->sgid.raw))
		return -EMSGSIZE;
	return 0;
}

static int ibtrace_mad_put_summary(struct sk_buff *skb,
				   const struct ibtrace_ping_summary *s)
{
	return ibtrace_nl_put_summary(skb, IBTRACE_A_MAD_SUMMARY, s);
}

/* A message of the send after the head: an answer or (at the end) the summary. */
static int ibtrace_mad_job_msg(struct sk_buff *skb, struct ibtrace_job *job,
			       const void *probe)
{
	if (probe)
		return ibtrace_nl_put_nest(skb, IBTRACE_A_MAD_ANSWER,
					   ibtrace_mad_answer_attrs, probe);
	return ibtrace_mad_put_summary(skb, &ibtrace_mad_job(job)->sum);
}

/* After each MAD: count it, and tell (in a batch with the next ones). */
static int ibtrace_mad_report(void *data,
			      const struct ibtrace_ping_probe *probe)
{
	struct ibtrace_mad_job *mj = data;

	mutex_lock(&mj->base.lock);
	mj->sum.sent++;
	if (probe->status == IBTRACE_PROBE_OK ||
	    probe->status == IBTRACE_PROBE_REMOTE_ERROR)
		mj->sum.received++;
	if (probe->status == IBTRACE_PROBE_REMOTE_ERROR)
		mj->sum.errors++;
	mutex_unlock(&mj->base.lock);
	ibtrace_job_notify_batched(&mj->base, IBTRACE_CMD_MAD_ANSWER, probe);
	return 0;
}

static void ibtrace_mad_job_run(struct ibtrace_job *job)
{
	struct ibtrace_mad_job *mj = ibtrace_mad_job(job);
	struct netlink_ext_ack ext = {};
	struct ibtrace_ping_summary sum;
	int err;

	mj->params.stop = &job->cancel;
	err = ibtrace_mad_send_run(job->port, &mj->params, ibtrace_mad_report,
				   mj, &sum, &ext);
	mutex_lock(&job->lock);
	mj->sum = sum;
	mutex_unlock(&job->lock);
	if (err == -ECANCELED)
		ibtrace_job_set_cancelled(job);
	else if (err)
		ibtrace_job_set_error(job, err, ext._msg);
}

static void ibtrace_mad_job_end(struct ibtrace_job *job)
{
	ibtrace_job_notify(job, IBTRACE_CMD_MAD_SEND, NULL);
}

/* GET: what was sent where, and the statistics so far. */
static int ibtrace_mad_job_fill(struct sk_buff *skb, struct ibtrace_job *job,
				bool full)
{
	const struct ibtrace_mad_send_params *p = &ibtrace_mad_job(job)->params;

	if (nla_put_u8(skb, IBTRACE_A_MAD_CLASS, p->mgmt_class) ||
	    nla_put_u8(skb, IBTRACE_A_MAD_METHOD, p->method) ||
	    nla_put_u16(skb, IBTRACE_A_MAD_ATTR_ID, p->attr_id) ||
	    nla_put_u32(skb, IBTRACE_A_MAD_ATTR_MOD, p->attr_mod) ||
	    ibtrace_nl_put_u32_nz(skb, IBTRACE_A_MAD_DLID, p->dlid) ||
	    (p->dr_hops &&
	     nla_put(skb, IBTRACE_A_MAD_DR_PATH, p->dr_hops, p->dr_path)) ||
	    (p->has_dgid &&
	     nla_put(skb, IBTRACE_A_MAD_DGID, sizeof(p->dgid), p->dgid.raw)) ||
	    nla_put_u32(skb, IBTRACE_A_MAD_COUNT, p->count))
		return -EMSGSIZE;
	return ibtrace_mad_put_summary(skb, &ibtrace_mad_job(job)->sum);
}

static void ibtrace_mad_job_free(struct ibtrace_job *job)
{
	kfree(ibtrace_mad_job(job));
}

/* The agent the class needs, and the destination, once the port is known. */
static int ibtrace_mad_job_check(struct ibtrace_job *job,
				 struct ibtrace_port *port,
				 struct genl_info *info)
{
	const struct ibtrace_mad_send_params *p = &ibtrace_mad_job(job)->params;

	if (ibtrace_mad_class_is_smp(p->mgmt_class)) {
		if (!port->smi_agent) {
			NL_SET_ERR_MSG(info->extack,
				       "SMPs need an InfiniBand port (QP 0)");
			return -EOPNOTSUPP;
		}
		return 0;
	}
	if (!port->agent) {
		NL_SET_ERR_MSG(info->extack,
			       "the port has no class 0x30 agent (no GSI)");
		return -EOPNOTSUPP;
	}
	return ibtrace_addr_check(port, p->has_dgid ? &p->dgid : NULL, p->dlid,
				  info->extack);
}

static const struct ibtrace_job_ops ibtrace_mad_ops = {
	.kind = IBTRACE_JOB_MAD,
	.name = "mad",
	.max_running = IBTRACE_MAD_MAX_RUNNING,
	.check = ibtrace_mad_job_check,
	.mcgrp = IBTRACE_NL_MCGRP_MAD,
	.msg_size = IBTRACE_MAD_MSG_SIZE,
	.msg = ibtrace_mad_job_msg,
	.run = ibtrace_mad_job_run,
	.end = ibtrace_mad_job_end,
	.fill = ibtrace_mad_job_fill,
	.free = ibtrace_mad_job_free,
};

int ibtrace_nl_mad_send_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibtrace_mad_job *mj;
	int err;

	mj = kzalloc(sizeof(*mj), GFP_KERNEL);
	if (!mj)
		return -ENOMEM;
	ibtrace_job_init(&mj->base, &ibtrace_mad_ops);
	err = ibtrace_mad_parse_mad(info->attrs, info->extack, &mj->params) ?:
	      ibtrace_mad_parse_route(info->attrs, info->extack, &mj->params);
	if (err) {
		ibtrace_job_put(&mj->base);
		return err;
	}
	return ibtrace_nl_job_start(&mj->base, info, IBTRACE_CMD_MAD_SEND);
}
