// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_SWEEP: the subnet sweep (sweep.c) as a job, and
 * IBTRACE_CMD_SWEEP_NODE, the dump of what a finished sweep found.
 *
 * The request is validated and the sweep started as a job (job.h); the
 * reply carries its ID at once. Its figures go to the requester as
 * IBTRACE_CMD_SWEEP messages, at most one per IBTRACE_SWEEP_TELL_MS while
 * it runs and one at its end, also on the "audit" multicast group. The
 * nodes stay with the job (IBTRACE_SWEEP_MAX_KEPT finished sweeps at most)
 * and are read by a dump, at the reader's pace: a node's facts and ports,
 * then its table in pieces of IBTRACE_SWEEP_LFT_CHUNK entries.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "job.h"
#include "netlink.h"
#include "sweep.h"

/* A running sweep tells its figures at most this often. */
#define IBTRACE_SWEEP_TELL_MS	100

/**
 * struct ibtrace_sweep_job - a sweep
 * @base: the job
 * @params: how to sweep
 * @s: what it found (the sweep's own while it runs; read by the dump
 *	only once the job has finished)
 * @stats: the figures told (under @base.lock)
 * @told: when they were last told (jiffies)
 */
struct ibtrace_sweep_job {
	struct ibtrace_job base;
	struct ibtrace_sweep_params params;
	struct ibtrace_sweep s;
	struct ibtrace_sweep_stats stats;
	unsigned long told;
};

static struct ibtrace_sweep_job *ibtrace_sweep_job(struct ibtrace_job *job)
{
	return container_of(job, struct ibtrace_sweep_job, base);
}

static struct netlink_range_validation ibtrace_sweep_nodes_range = {
	.min = 1, .max = IBTRACE_SWEEP_MAX_NODES,
};

const struct nla_policy ibtrace_sweep_policy[IBTRACE_A_SWEEP_MAX_NODES + 1] = {
	IBTRACE_NL_PORT_POLICY,
	[IBTRACE_A_JOB_DETACH] = { .type = NLA_FLAG },
	[IBTRACE_A_SWEEP_WINDOW] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_SWEEP_MAX_WINDOW),
	[IBTRACE_A_SWEEP_TIMEOUT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_timeout_range),
	[IBTRACE_A_SWEEP_RETRIES] =
		NLA_POLICY_RANGE(NLA_U32, 0, IBTRACE_MAX_RETRIES),
	[IBTRACE_A_SWEEP_MAX_NODES] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_sweep_nodes_range),
};

const struct nla_policy ibtrace_sweep_node_policy[IBTRACE_A_JOB + 1] = {
	[IBTRACE_A_JOB] = NLA_POLICY_FULL_RANGE(NLA_U32,
						&ibtrace_nl_job_id_range),
};

static int ibtrace_sweep_stats_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_sweep_stats *st = data;

	if (nla_put_u32(skb, IBTRACE_SWEEP_STAT_A_NODES, st->nodes) ||
	    nla_put_u32(skb, IBTRACE_SWEEP_STAT_A_SWITCHES, st->switches) ||
	    nla_put_u32(skb, IBTRACE_SWEEP_STAT_A_LINKS, st->links) ||
	    nla_put_u32(skb, IBTRACE_SWEEP_STAT_A_SMPS, st->smps) ||
	    nla_put_u32(skb, IBTRACE_SWEEP_STAT_A_UNANSWERED,
			st->unanswered) ||
	    nla_put_u32(skb, IBTRACE_SWEEP_STAT_A_NOT_KEPT, st->not_kept) ||
	    nla_put_u64_64bit(skb, IBTRACE_SWEEP_STAT_A_BYTES, st->bytes,
			      IBTRACE_SWEEP_STAT_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SWEEP_STAT_A_ELAPSED_NS,
			      st->elapsed_ns, IBTRACE_SWEEP_STAT_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* A sweep message's body, and GET's: the figures. */
static int ibtrace_sweep_job_msg(struct sk_buff *skb, struct ibtrace_job *job,
				 const void *item)
{
	return ibtrace_nl_put_nest(skb, IBTRACE_A_SWEEP_STATS,
				   ibtrace_sweep_stats_attrs,
				   &ibtrace_sweep_job(job)->stats);
}

/* The sweep's figures after a batch: kept, and told now and then. */
static void ibtrace_sweep_progress(void *ctx,
				   const struct ibtrace_sweep_stats *stats)
{
	struct ibtrace_sweep_job *sj = ctx;

	ibtrace_job_keep_figures(&sj->base, &sj->stats, stats, sizeof(*stats),
				 &sj->told, IBTRACE_SWEEP_TELL_MS,
				 IBTRACE_CMD_SWEEP);
}

static void ibtrace_sweep_job_run(struct ibtrace_job *job)
{
	struct ibtrace_sweep_job *sj = ibtrace_sweep_job(job);
	int err;

	sj->params.stop = &job->cancel;
	sj->told = jiffies;
	err = ibtrace_sweep_run(job->port, &sj->params, &sj->s,
				ibtrace_sweep_progress, sj);
	mutex_lock(&job->lock);
	sj->stats = sj->s.stats;
	mutex_unlock(&job->lock);
	ibtrace_job_set_walk_end(job, err, "no memory for the sweep's questions",
				 "the device went away during the sweep");
}

static void ibtrace_sweep_job_end(struct ibtrace_job *job)
{
	ibtrace_job_notify(job, IBTRACE_CMD_SWEEP, NULL);
}

static void ibtrace_sweep_job_free(struct ibtrace_job *job)
{
	struct ibtrace_sweep_job *sj = ibtrace_sweep_job(job);

	ibtrace_sweep_free(&sj->s);
	kfree(sj);
}

/* A sweep goes out of an InfiniBand port's SMI agent. */
static int ibtrace_sweep_job_check(struct ibtrace_job *job,
				   struct ibtrace_port *port,
				   struct genl_info *info)
{
	if (rdma_port_get_link_layer(port->dev->ibdev, port->port_num) !=
	    IB_LINK_LAYER_INFINIBAND) {
		NL_SET_ERR_MSG(info->extack,
			       "a RoCE port has no subnet to sweep: it sends no SMPs");
		return -EOPNOTSUPP;
	}
	if (!port->smi_agent) {
		NL_SET_ERR_MSG(info->extack,
			       "the port has no SMI agent: SMPs cannot be sent");
		return -EOPNOTSUPP;
	}
	return 0;
}

static const struct ibtrace_job_ops ibtrace_sweep_ops = {
	.kind = IBTRACE_JOB_SWEEP,
	.name = "sweep",
	.max_running = IBTRACE_SWEEP_MAX_RUNNING,
	.max_kept = IBTRACE_SWEEP_MAX_KEPT,
	.check = ibtrace_sweep_job_check,
	.mcgrp = IBTRACE_NL_MCGRP_AUDIT,
	.msg_size = NLMSG_GOODSIZE,
	.msg = ibtrace_sweep_job_msg,
	.run = ibtrace_sweep_job_run,
	.end = ibtrace_sweep_job_end,
	.fill = ibtrace_job_fill_msg,
	.free = ibtrace_sweep_job_free,
};

int ibtrace_nl_sweep_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct ibtrace_sweep_job *sj;

	sj = kzalloc(sizeof(*sj), GFP_KERNEL);
	if (!sj)
		return -ENOMEM;
	ibtrace_job_init(&sj->base, &ibtrace_sweep_ops);
	sj->params.window = ibtrace_nl_get_u32(attrs, IBTRACE_A_SWEEP_WINDOW,
					       IBTRACE_SWEEP_DEF_WINDOW);
	sj->params.max_nodes = ibtrace_nl_get_u32(attrs,
						  IBTRACE_A_SWEEP_MAX_NODES,
						  IBTRACE_SWEEP_MAX_NODES);
	sj->params.max_bytes = (u64)IBTRACE_SWEEP_MAX_MB << 20;
	ibtrace_nl_get_timing(attrs, IBTRACE_A_SWEEP_TIMEOUT_MS,
			      IBTRACE_A_SWEEP_RETRIES, &sj->params.timeout_ms,
			      &sj->params.retries);
	return ibtrace_nl_job_start(&sj->base, info, IBTRACE_CMD_SWEEP);
}

/* Dump ------------------------------------------------------------------ */

/*
 * Where a dump of a sweep's nodes stands, in &netlink_callback.args:
 * [0] the job (ibtrace_nl_dump_finished_job()), [1] the node, [2] the
 * node's next port (0: its facts are next), [3] the next table entry once
 * every port is out.
 */
enum {
	SWEEP_DUMP_JOB,
	SWEEP_DUMP_NODE,
	SWEEP_DUMP_PORT,
	SWEEP_DUMP_LFT,
};

static int ibtrace_sweep_port_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_sweep_port *p = data;

	if (nla_put_u8(skb, IBTRACE_SWEEP_PORT_A_STATE, p->state) ||
	    nla_put_u8(skb, IBTRACE_SWEEP_PORT_A_PHYS_STATE, p->phys_state) ||
	    ibtrace_nl_put_u32_nz(skb, IBTRACE_SWEEP_PORT_A_LID, p->lid) ||
	    ibtrace_nl_put_u8_nz(skb, IBTRACE_SWEEP_PORT_A_LMC, p->lmc))
		return -EMSGSIZE;
	if (p->peer == IBTRACE_SWEEP_NONE)
		return 0;
	if (nla_put_u32(skb, IBTRACE_SWEEP_PORT_A_PEER, p->peer) ||
	    nla_put_u8(skb, IBTRACE_SWEEP_PORT_A_PEER_PORT, p->peer_port))
		return -EMSGSIZE;
	return 0;
}

/* Port @i of @n as a nest, whole or not at all. */
static int ibtrace_sweep_put_port(struct sk_buff *skb,
				  const struct ibtrace_sweep_node *n, u32 i)
{
	struct nlattr *nest = nla_nest_start(skb, IBTRACE_SWEEP_NODE_A_PORT);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, IBTRACE_SWEEP_PORT_A_NUM, i) ||
	    ibtrace_sweep_port_attrs(skb, &n->port[i])) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* A node's facts (its first message). */
static int ibtrace_sweep_put_facts(struct sk_buff *skb,
				   const struct ibtrace_sweep_node *n)
{
	if (nla_put_u64_64bit(skb, IBTRACE_SWEEP_NODE_A_GUID, n->guid,
			      IBTRACE_SWEEP_NODE_A_PAD) ||
	    nla_put_u8(skb, IBTRACE_SWEEP_NODE_A_TYPE, n->type) ||
	    nla_put_u8(skb, IBTRACE_SWEEP_NODE_A_NUM_PORTS, n->nports) ||
	    nla_put_u8(skb, IBTRACE_SWEEP_NODE_A_IN_PORT, n->in_port) ||
	    nla_put_string(skb, IBTRACE_SWEEP_NODE_A_DESC, n->desc) ||
	    ibtrace_nl_put_u32_nz(skb, IBTRACE_SWEEP_NODE_A_UNANSWERED,
				  n->unanswered))
		return -EMSGSIZE;
	if (n->hops &&
	    nla_put(skb, IBTRACE_SWEEP_NODE_A_PATH, n->hops, &n->path[1]))
		return -EMSGSIZE;
	if (n->lft &&
	    nla_put_u32(skb, IBTRACE_SWEEP_NODE_A_LFT_TOP, n->lft_top))
		return -EMSGSIZE;
	return 0;
}

/*
 * The next part of node @n into @skb's node nest: its facts and as many
 * ports as fit, or the next piece of its table. Moves @args on.
 * Return: 0, or -EMSGSIZE when not even one part fits.
 */
static int ibtrace_sweep_put_part(struct sk_buff *skb,
				  const struct ibtrace_sweep_node *n, long *args)
{
	u32 next = args[SWEEP_DUMP_PORT], off = args[SWEEP_DUMP_LFT], len, i;
	bool any = false;

	if (next <= n->nports + 1) {
		if (!next) {
			if (ibtrace_sweep_put_facts(skb, n))
				return -EMSGSIZE;
			next = 1;
			any = true;
		}
		for (i = next - 1; i <= n->nports; i++) {
			if (!n->port[i].known)
				continue;
			if (ibtrace_sweep_put_port(skb, n, i)) {
				if (!any)
					return -EMSGSIZE;
				break;
			}
			any = true;
		}
		args[SWEEP_DUMP_PORT] = i + 1;
		return 0;
	}
	len = min_t(u32, IBTRACE_SWEEP_LFT_CHUNK, n->lft_top + 1 - off);
	if (nla_put_u32(skb, IBTRACE_SWEEP_NODE_A_LFT_OFFSET, off) ||
	    nla_put(skb, IBTRACE_SWEEP_NODE_A_LFT, len, &n->lft[off]))
		return -EMSGSIZE;
	args[SWEEP_DUMP_LFT] = off + len;
	return 0;
}

/* Whether @n has nothing more to tell after @args. */
static bool ibtrace_sweep_node_told(const struct ibtrace_sweep_node *n,
				    const long *args)
{
	if (args[SWEEP_DUMP_PORT] <= n->nports + 1)
		return false;
	return !n->lft || args[SWEEP_DUMP_LFT] > n->lft_top;
}

/* One message: the next part of node args[SWEEP_DUMP_NODE]. */
static int ibtrace_sweep_node_msg(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  const struct ibtrace_sweep_node *n)
{
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ibtrace_genl_family, NLM_F_MULTI,
			  IBTRACE_CMD_SWEEP_NODE);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, IBTRACE_A_JOB, cb->args[SWEEP_DUMP_JOB]))
		goto cancel;
	nest = nla_nest_start(skb, IBTRACE_A_SWEEP_NODE);
	if (!nest || nla_put_u32(skb, IBTRACE_SWEEP_NODE_A_INDEX, n->index) ||
	    ibtrace_sweep_put_part(skb, n, cb->args))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static const struct ibtrace_nl_dump_msgs ibtrace_sweep_dump_msgs = {
	.which = "which sweep: IBTRACE_A_JOB",
	.gone = "no such sweep (any more)",
	.running = "the sweep runs: its nodes come once it has finished",
};

int ibtrace_nl_sweep_node_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct ibtrace_job *job;
	const struct ibtrace_sweep *s;
	const struct ibtrace_sweep_node *n;
	int err = 0;

	job = ibtrace_nl_dump_finished_job(cb, IBTRACE_JOB_SWEEP,
					   &ibtrace_sweep_dump_msgs);
	if (IS_ERR(job))
		return PTR_ERR(job);
	s = &ibtrace_sweep_job(job)->s;
	while (cb->args[SWEEP_DUMP_NODE] < s->nnodes) {
		n = s->node[cb->args[SWEEP_DUMP_NODE]];
		err = ibtrace_sweep_node_msg(skb, cb, n);
		if (err)
			break;
		if (ibtrace_sweep_node_told(n, cb->args)) {
			cb->args[SWEEP_DUMP_NODE]++;
			cb->args[SWEEP_DUMP_PORT] = 0;
			cb->args[SWEEP_DUMP_LFT] = 0;
		}
	}
	ibtrace_job_put(job);
	/* A full message is not an error: the rest goes in the next. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}
