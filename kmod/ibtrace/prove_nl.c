// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_PROVE: the data-path proof (prove.c) as a job, and
 * IBTRACE_CMD_PROVE_DEST, the dump of its verdicts.
 *
 * The request is validated (every destination: its LID and its vector)
 * and the proof started as a job (job.h); the reply carries its ID at
 * once. Its figures go to the requester as IBTRACE_CMD_PROVE messages, at
 * most one per IBTRACE_PROVE_TELL_MS while it runs and one at its end,
 * also on the "audit" multicast group. The verdicts stay with the job
 * (IBTRACE_PROVE_MAX_KEPT finished proofs at most) and are read by a
 * dump, at the reader's pace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "job.h"
#include "netlink.h"
#include "prove.h"

/* A running proof tells its figures at most this often. */
#define IBTRACE_PROVE_TELL_MS	100

/**
 * struct ibtrace_prove_job - a proof
 * @base: the job
 * @params: how to prove
 * @stats: the figures told (under @base.lock)
 * @told: when they were last told (jiffies)
 * @n: destinations
 * @dests: the destinations and their verdicts (the proof's own while it
 *	runs; read by the dump only once the job has finished)
 */
struct ibtrace_prove_job {
	struct ibtrace_job base;
	struct ibtrace_prove_params params;
	struct ibtrace_prove_stats stats;
	unsigned long told;
	u32 n;
	struct ibtrace_prove_dest *dests;
};

static struct ibtrace_prove_job *ibtrace_prove_job(struct ibtrace_job *job)
{
	return container_of(job, struct ibtrace_prove_job, base);
}

static const struct nla_policy
ibtrace_prove_dest_policy[IBTRACE_PROVE_DEST_A_VECTOR + 1] = {
	[IBTRACE_PROVE_DEST_A_LID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_lid_range),
	[IBTRACE_PROVE_DEST_A_VECTOR] =
		NLA_POLICY_RANGE(NLA_BINARY, 1, IBTRACE_SROUTE_MAX_HOPS),
};

const struct nla_policy ibtrace_prove_policy[IBTRACE_A_PROVE_DEST + 1] = {
	IBTRACE_NL_PORT_POLICY,
	[IBTRACE_A_JOB_DETACH] = { .type = NLA_FLAG },
	[IBTRACE_A_PROVE_WINDOW] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_PROVE_MAX_WINDOW),
	[IBTRACE_A_PROVE_TIMEOUT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_timeout_range),
	[IBTRACE_A_PROVE_RETRIES] =
		NLA_POLICY_RANGE(NLA_U32, 0, IBTRACE_MAX_RETRIES),
	[IBTRACE_A_PROVE_DEST] = NLA_POLICY_NESTED(ibtrace_prove_dest_policy),
};

static int ibtrace_prove_stats_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_prove_stats *st = data;
	const u32 *v = st->verdicts;

	if (nla_put_u32(skb, IBTRACE_PROVE_STAT_A_DESTS, st->dests) ||
	    nla_put_u32(skb, IBTRACE_PROVE_STAT_A_DONE, st->done) ||
	    nla_put_u32(skb, IBTRACE_PROVE_STAT_A_MADS, st->mads) ||
	    nla_put_u32(skb, IBTRACE_PROVE_STAT_A_VERIFIED,
			v[IBTRACE_PROVE_VERIFIED]) ||
	    nla_put_u32(skb, IBTRACE_PROVE_STAT_A_MISMATCH,
			v[IBTRACE_PROVE_MISMATCH]) ||
	    nla_put_u32(skb, IBTRACE_PROVE_STAT_A_NO_AGENT,
			v[IBTRACE_PROVE_NO_AGENT]) ||
	    nla_put_u32(skb, IBTRACE_PROVE_STAT_A_UNREACHABLE,
			v[IBTRACE_PROVE_UNREACHABLE]) ||
	    nla_put_u32(skb, IBTRACE_PROVE_STAT_A_SEND_ERROR,
			v[IBTRACE_PROVE_SEND_ERROR]) ||
	    nla_put_u64_64bit(skb, IBTRACE_PROVE_STAT_A_ELAPSED_NS,
			      st->elapsed_ns, IBTRACE_PROVE_STAT_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* A proof message's body, and GET's: the figures. */
static int ibtrace_prove_job_msg(struct sk_buff *skb, struct ibtrace_job *job,
				 const void *item)
{
	return ibtrace_nl_put_nest(skb, IBTRACE_A_PROVE_STATS,
				   ibtrace_prove_stats_attrs,
				   &ibtrace_prove_job(job)->stats);
}

/* The proof's figures after a batch: kept, and told now and then. */
static void ibtrace_prove_progress(void *ctx,
				   const struct ibtrace_prove_stats *stats)
{
	struct ibtrace_prove_job *pj = ctx;

	ibtrace_job_keep_figures(&pj->base, &pj->stats, stats, sizeof(*stats),
				 &pj->told, IBTRACE_PROVE_TELL_MS,
				 IBTRACE_CMD_PROVE);
}

static void ibtrace_prove_job_run(struct ibtrace_job *job)
{
	struct ibtrace_prove_job *pj = ibtrace_prove_job(job);
	struct ibtrace_prove_stats st = {};
	int err;

	pj->params.stop = &job->cancel;
	pj->told = jiffies;
	err = ibtrace_prove_run(job->port, &pj->params, pj->dests, pj->n, &st,
				ibtrace_prove_progress, pj);
	mutex_lock(&job->lock);
	pj->stats = st;
	mutex_unlock(&job->lock);
	ibtrace_job_set_walk_end(job, err, "no memory for the probes",
				 "the device went away during the proof");
}

static void ibtrace_prove_job_end(struct ibtrace_job *job)
{
	ibtrace_job_notify(job, IBTRACE_CMD_PROVE, NULL);
}

static void ibtrace_prove_job_free(struct ibtrace_job *job)
{
	struct ibtrace_prove_job *pj = ibtrace_prove_job(job);

	kvfree(pj->dests);
	kfree(pj);
}

/* A proof is LID-routed: an InfiniBand port. */
static int ibtrace_prove_job_check(struct ibtrace_job *job,
				   struct ibtrace_port *port,
				   struct genl_info *info)
{
	if (rdma_port_get_link_layer(port->dev->ibdev, port->port_num) !=
	    IB_LINK_LAYER_INFINIBAND) {
		NL_SET_ERR_MSG(info->extack,
			       "a RoCE port has no LIDs to prove routes to");
		return -EOPNOTSUPP;
	}
	return 0;
}

static const struct ibtrace_job_ops ibtrace_prove_ops = {
	.kind = IBTRACE_JOB_PROVE,
	.name = "prove",
	.max_running = IBTRACE_PROVE_MAX_RUNNING,
	.max_kept = IBTRACE_PROVE_MAX_KEPT,
	.needs_agent = true,
	.check = ibtrace_prove_job_check,
	.mcgrp = IBTRACE_NL_MCGRP_AUDIT,
	.msg_size = NLMSG_GOODSIZE,
	.msg = ibtrace_prove_job_msg,
	.run = ibtrace_prove_job_run,
	.end = ibtrace_prove_job_end,
	.fill = ibtrace_job_fill_msg,
	.free = ibtrace_prove_job_free,
};

/* One destination of the request (the policy checked it) into @d. */
static int ibtrace_prove_get_dest(const struct nlattr *nla,
				  struct ibtrace_prove_dest *d,
				  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[IBTRACE_PROVE_DEST_A_VECTOR + 1];
	int err;

	err = nla_parse_nested(tb, IBTRACE_PROVE_DEST_A_VECTOR, nla,
			       ibtrace_prove_dest_policy, extack);
	if (err)
		return err;
	if (!tb[IBTRACE_PROVE_DEST_A_LID] || !tb[IBTRACE_PROVE_DEST_A_VECTOR]) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "a destination needs its LID and its vector of incoming ports");
		return -EINVAL;
	}
	d->lid = nla_get_u32(tb[IBTRACE_PROVE_DEST_A_LID]);
	d->hops = nla_len(tb[IBTRACE_PROVE_DEST_A_VECTOR]);
	nla_memcpy(d->vector, tb[IBTRACE_PROVE_DEST_A_VECTOR],
		   sizeof(d->vector));
	return 0;
}

/* The request's destinations into @pj. */
static int ibtrace_prove_get_dests(struct ibtrace_prove_job *pj,
				   struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	const struct nlattr *nla;
	int rem, err;
	u32 n = 0;

	nla_for_each_attr(nla, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(nla) != IBTRACE_A_PROVE_DEST)
			continue;
		if (n == IBTRACE_PROVE_MAX_DESTS) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "a proof takes at most "
					    __stringify(IBTRACE_PROVE_MAX_DESTS)
					    " destinations");
			return -E2BIG;
		}
		n++;
	}
	if (!n) {
		NL_SET_ERR_MSG(extack,
			       "no destination to prove: IBTRACE_A_PROVE_DEST");
		return -EINVAL;
	}
	pj->dests = kvcalloc(n, sizeof(*pj->dests), GFP_KERNEL);
	if (!pj->dests)
		return -ENOMEM;
	nla_for_each_attr(nla, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(nla) != IBTRACE_A_PROVE_DEST)
			continue;
		err = ibtrace_prove_get_dest(nla, &pj->dests[pj->n], extack);
		if (err)
			return err;
		pj->n++;
	}
	return 0;
}

int ibtrace_nl_prove_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct ibtrace_prove_job *pj;
	int err;

	pj = kzalloc(sizeof(*pj), GFP_KERNEL);
	if (!pj)
		return -ENOMEM;
	ibtrace_job_init(&pj->base, &ibtrace_prove_ops);
	err = ibtrace_prove_get_dests(pj, info);
	if (err) {
		ibtrace_job_put(&pj->base);
		return err;
	}
	pj->stats.dests = pj->n;
	pj->params.window = ibtrace_nl_get_u32(attrs, IBTRACE_A_PROVE_WINDOW,
					       IBTRACE_PROVE_DEF_WINDOW);
	ibtrace_nl_get_timing(attrs, IBTRACE_A_PROVE_TIMEOUT_MS,
			      IBTRACE_A_PROVE_RETRIES, &pj->params.timeout_ms,
			      &pj->params.retries);
	return ibtrace_nl_job_start(&pj->base, info, IBTRACE_CMD_PROVE);
}

/* Dump ------------------------------------------------------------------ */

/*
 * Where a dump of a proof's verdicts stands, in &netlink_callback.args:
 * [0] the job (ibtrace_nl_dump_finished_job()), [1] the next destination.
 */
enum {
	PROVE_DUMP_JOB,
	PROVE_DUMP_DEST,
};

static const struct ibtrace_nl_dump_msgs ibtrace_prove_dump_msgs = {
	.which = "which proof: IBTRACE_A_JOB",
	.gone = "no such proof (any more)",
	.running = "the proof runs: its verdicts come once it has finished",
};

static int ibtrace_prove_dest_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_prove_dest *d = data;
	bool answered = d->verdict == IBTRACE_PROVE_VERIFIED ||
			d->verdict == IBTRACE_PROVE_MISMATCH ||
			d->verdict == IBTRACE_PROVE_NO_AGENT;

	if (nla_put_u32(skb, IBTRACE_PROVE_DEST_A_LID, d->lid) ||
	    nla_put(skb, IBTRACE_PROVE_DEST_A_VECTOR, d->hops, d->vector) ||
	    nla_put_u8(skb, IBTRACE_PROVE_DEST_A_VERDICT, d->verdict) ||
	    nla_put_u32(skb, IBTRACE_PROVE_DEST_A_ATTEMPTS, d->attempts))
		return -EMSGSIZE;
	if (answered &&
	    (nla_put_u8(skb, IBTRACE_PROVE_DEST_A_ACTUAL_PORT,
			d->actual_port) ||
	     nla_put_u16(skb, IBTRACE_PROVE_DEST_A_STATUS, d->status) ||
	     nla_put_u64_64bit(skb, IBTRACE_PROVE_DEST_A_RTT_NS, d->rtt_ns,
			       IBTRACE_PROVE_DEST_A_PAD)))
		return -EMSGSIZE;
	if (d->verdict == IBTRACE_PROVE_SEND_ERROR &&
	    nla_put_u32(skb, IBTRACE_PROVE_DEST_A_ERRNO, -d->err))
		return -EMSGSIZE;
	return 0;
}

/* One message: destination @i's verdict. */
static int ibtrace_prove_dest_msg(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  const struct ibtrace_prove_dest *d, u32 i)
{
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ibtrace_genl_family, NLM_F_MULTI,
			  IBTRACE_CMD_PROVE_DEST);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, IBTRACE_A_JOB, cb->args[PROVE_DUMP_JOB]))
		goto cancel;
	nest = nla_nest_start(skb, IBTRACE_A_PROVE_DEST);
	if (!nest || nla_put_u32(skb, IBTRACE_PROVE_DEST_A_INDEX, i) ||
	    ibtrace_prove_dest_attrs(skb, d))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int ibtrace_nl_prove_dest_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	const struct ibtrace_prove_job *pj;
	struct ibtrace_job *job;
	int err = 0;

	job = ibtrace_nl_dump_finished_job(cb, IBTRACE_JOB_PROVE,
					   &ibtrace_prove_dump_msgs);
	if (IS_ERR(job))
		return PTR_ERR(job);
	pj = ibtrace_prove_job(job);
	while (cb->args[PROVE_DUMP_DEST] < pj->n) {
		u32 i = cb->args[PROVE_DUMP_DEST];

		err = ibtrace_prove_dest_msg(skb, cb, &pj->dests[i], i);
		if (err)
			break;
		cb->args[PROVE_DUMP_DEST]++;
	}
	ibtrace_job_put(job);
	/* A full message is not an error: the rest goes in the next. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}
