// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_JOB_GET and IBTRACE_CMD_JOB_CANCEL: any job, of
 * any kind (job.h), by its ID.
 *
 * GET gives the common head (ibtrace_job_put_head()) and the kind's
 * results (its &ibtrace_job_ops.fill); a dump resumes from the next job
 * ID, so jobs that come and go meanwhile are neither skipped nor
 * repeated.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "job.h"
#include "netlink.h"

/* a dump entry, and the head of a "do" reply */
#define IBTRACE_JOB_MSG_SIZE	1024

static struct netlink_range_validation ibtrace_job_id_range = {
	.min = 1, .max = U32_MAX,
};

const struct nla_policy ibtrace_job_policy[IBTRACE_A_JOB + 1] = {
	[IBTRACE_A_JOB] = NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_job_id_range),
};

static int ibtrace_job_fill_msg(struct sk_buff *skb, struct ibtrace_job *job,
				u32 portid, u32 seq, int flags, bool full)
{
	void *hdr;
	int err;

	hdr = genlmsg_put(skb, portid, seq, &ibtrace_genl_family, flags,
			  IBTRACE_CMD_JOB_GET);
	if (!hdr)
		return -EMSGSIZE;
	mutex_lock(&job->lock);
	err = ibtrace_job_put_head(skb, job);
	if (!err && job->ops->fill)
		err = job->ops->fill(skb, job, full);
	mutex_unlock(&job->lock);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int ibtrace_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibtrace_job *job;
	struct sk_buff *rskb;
	size_t size;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_A_JOB)) {
		NL_SET_ERR_MSG(info->extack, "a job id is required");
		return -EINVAL;
	}
	job = ibtrace_job_get(nla_get_u32(info->attrs[IBTRACE_A_JOB]));
	if (!job) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[IBTRACE_A_JOB],
				    "no such job");
		return -ENOENT;
	}
	size = IBTRACE_JOB_MSG_SIZE + (job->ops->size ? job->ops->size(job) : 0);
	rskb = genlmsg_new(size, GFP_KERNEL);
	if (!rskb) {
		err = -ENOMEM;
		goto out_put;
	}
	err = ibtrace_job_fill_msg(rskb, job, info->snd_portid, info->snd_seq,
				   0, true);
	if (err) {
		nlmsg_free(rskb);
		goto out_put;
	}
	err = genlmsg_reply(rskb, info);
out_put:
	ibtrace_job_put(job);
	return err;
}

/* cb->args[0]: the next job ID to dump. */
int ibtrace_nl_job_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ibtrace_job *job;
	int err = 0;

	if (!cb->args[0])
		cb->args[0] = 1;
	while (cb->args[0] <= U32_MAX &&
	       (job = ibtrace_job_get_from(cb->args[0], -1))) {
		err = ibtrace_job_fill_msg(skb, job,
					   NETLINK_CB(cb->skb).portid,
					   cb->nlh->nlmsg_seq, NLM_F_MULTI,
					   false);
		cb->args[0] = (u64)job->id + (err ? 0 : 1);
		ibtrace_job_put(job);
		if (err)
			break;
	}
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err;
}

int ibtrace_nl_job_cancel_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, IBTRACE_A_JOB)) {
		NL_SET_ERR_MSG(info->extack, "a job id is required");
		return -EINVAL;
	}
	return ibtrace_job_cancel(nla_get_u32(info->attrs[IBTRACE_A_JOB]), -1,
				  info->extack);
}
