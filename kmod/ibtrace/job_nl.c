// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the netlink side of jobs (job.h): starting one from its
 * request, its notifications, and IBTRACE_CMD_JOB_GET and
 * IBTRACE_CMD_JOB_CANCEL: any job, of any kind, by its ID.
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

/*
 * A batch of notifications (ibtrace_job_notify_batched()) goes out at the
 * latest this long after its first item, and holds at most this much
 * (one page: about 35 ping probes).
 */
#define IBTRACE_JOB_BATCH_MS	10
#define IBTRACE_JOB_BATCH_SIZE	(NLMSG_DEFAULT_SIZE - GENL_HDRLEN)

const struct nla_policy ibtrace_job_policy[IBTRACE_A_JOB + 1] = {
	[IBTRACE_A_JOB] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_job_id_range),
};

/**
 * ibtrace_job_put_msg() - a message about a job
 * @skb: where to put it
 * @job: the job
 * @portid: netlink header: destination port
 * @seq: netlink header: sequence number
 * @flags: netlink header: flags
 * @cmd: command of the message
 * @body: writes its attributes, with the job's lock held
 * @arg: passed to @body
 *
 * Return: 0, or -EMSGSIZE (or what @body returned) with nothing put.
 */
int ibtrace_job_put_msg(struct sk_buff *skb, struct ibtrace_job *job,
			u32 portid, u32 seq, int flags, u8 cmd,
			ibtrace_job_body_t body, const void *arg)
{
	void *hdr;
	int err;

	hdr = genlmsg_put(skb, portid, seq, &ibtrace_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	mutex_lock(&job->lock);
	err = body(skb, job, arg);
	mutex_unlock(&job->lock);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* What a reply about a job is built from (ibtrace_nl_reply()'s @arg). */
struct ibtrace_job_reply {
	struct ibtrace_job *job;
	struct ibtrace_port *port;
	u8 cmd;
	ibtrace_job_body_t body;
	const void *arg;
};

/* A reply about the job: its message, with @r->body. */
static int ibtrace_job_reply_fill(struct sk_buff *skb, struct genl_info *info,
				  void *arg)
{
	const struct ibtrace_job_reply *r = arg;

	return ibtrace_job_put_msg(skb, r->job, info->snd_portid,
				   info->snd_seq, 0, r->cmd, r->body, r->arg);
}

/* The reply to a starting request: the port, and the kind's say. */
static int ibtrace_job_start_body(struct sk_buff *skb, struct ibtrace_job *job,
				  const void *arg)
{
	if (ibtrace_job_put_port(skb, job))
		return -EMSGSIZE;
	if (job->ops->reply)
		return job->ops->reply(skb, job);
	return nla_put_u32(skb, IBTRACE_A_JOB, job->id);
}

/*
 * Start the job and answer with its ID. The reply's room is taken before
 * the start; a job whose start cannot be answered (its reply does not fit
 * or cannot be sent) is cancelled: a request that fails leaves no job.
 */
static int ibtrace_job_start_reply(struct genl_info *info,
				   struct ibtrace_job_reply *r)
{
	struct sk_buff *skb;
	int err;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	err = ibtrace_job_start(r->job, r->port, info);
	if (err) {
		nlmsg_free(skb);
		return err;
	}
	err = ibtrace_job_reply_fill(skb, info, r);
	if (err)
		nlmsg_free(skb);
	else
		err = genlmsg_reply(skb, info);
	if (err) {
		ibtrace_job_cancel(r->job->id, -1, NULL);
		NL_SET_ERR_MSG(info->extack,
			       "the job's start could not be answered: cancelled");
	}
	return err;
}

/**
 * ibtrace_nl_job_start() - the end of a request that starts a job: its
 *	port, the kind's checks, the start and the reply with the job's ID
 * @job: set up with ibtrace_job_init() and what the request asks;
 *	consumed (the framework's once started, dropped otherwise)
 * @info: the request; it names the local port (default: port 1)
 * @cmd: command of the reply
 *
 * The reply names the port and the job (&ibtrace_job_ops.reply).
 *
 * Return: 0 or a negative errno (said in @info->extack).
 */
int ibtrace_nl_job_start(struct ibtrace_job *job, struct genl_info *info,
			 u8 cmd)
{
	struct ibtrace_job_reply r = {
		.job = job,
		.cmd = cmd,
		.body = ibtrace_job_start_body,
	};
	const struct ibtrace_job_ops *ops = job->ops;
	int err;

	err = ibtrace_nl_get_port(info->attrs, info->extack, 1, &r.port);
	if (err)
		goto out_job;
	if (ops->needs_agent && !r.port->agent) {
		NL_SET_ERR_MSG(info->extack,
			       "the port has no class 0x30 agent (no GSI)");
		err = -EOPNOTSUPP;
	} else if (ops->check) {
		err = ops->check(job, r.port, info);
	}
	if (!err)
		err = ibtrace_job_start_reply(info, &r);
	ibtrace_dev_put(r.port->dev);
out_job:
	ibtrace_job_put(job);
	return err;
}

/* A notification: the common head, then the kind's body. */
static int ibtrace_job_notify_body(struct sk_buff *skb,
				   struct ibtrace_job *job, const void *item)
{
	return ibtrace_job_put_head(skb, job) ?:
	       job->ops->msg(skb, job, item);
}

/* Send job @job's notification @skb to its requester and the kind's group. */
static void ibtrace_job_send(struct ibtrace_job *job, struct sk_buff *skb)
{
	unsigned int group = job->ops->mcgrp;
	struct sk_buff *mskb = NULL;

	if (genl_has_listeners(&ibtrace_genl_family, &init_net, group))
		mskb = skb_clone(skb, GFP_KERNEL);
	ibtrace_job_unicast(job, skb);
	if (mskb)
		genlmsg_multicast(&ibtrace_genl_family, mskb, 0, group,
				  GFP_KERNEL);
}

/* Send the open batch, if there is one; batch_lock held. */
static void ibtrace_job_batch_send(struct ibtrace_job *job)
{
	struct sk_buff *skb = job->batch;

	if (!skb)
		return;
	job->batch = NULL;
	ibtrace_job_send(job, skb);
}

/* Send the open batch, if there is one; takes batch_lock. */
static void ibtrace_job_batch_flush(struct ibtrace_job *job)
{
	mutex_lock(&job->batch_lock);
	ibtrace_job_batch_send(job);
	mutex_unlock(&job->batch_lock);
}

static void ibtrace_job_batch_work(struct work_struct *work)
{
	ibtrace_job_batch_flush(container_of(to_delayed_work(work),
					     struct ibtrace_job, batch_flush));
}

/**
 * ibtrace_job_batch_init() - a new job has no batch open
 * @job: the job (ibtrace_job_init())
 */
void ibtrace_job_batch_init(struct ibtrace_job *job)
{
	mutex_init(&job->batch_lock);
	INIT_DELAYED_WORK(&job->batch_flush, ibtrace_job_batch_work);
}

/**
 * ibtrace_job_batch_end() - send what the job left in its batch, now
 * @job: the job, whose &ibtrace_job_ops.run has returned
 *
 * Sleeps. After it the job has nothing pending: its end can be told.
 */
void ibtrace_job_batch_end(struct ibtrace_job *job)
{
	cancel_delayed_work_sync(&job->batch_flush);
	ibtrace_job_batch_flush(job);
}

/*
 * Build notification @cmd about @item: the common head and the kind's
 * body in a new message of @size. NULL when it cannot be built.
 */
static struct sk_buff *ibtrace_job_notification(struct ibtrace_job *job,
						size_t size, u8 cmd,
						const void *item)
{
	struct sk_buff *skb = genlmsg_new(size, GFP_KERNEL);

	if (skb && ibtrace_job_put_msg(skb, job, 0, 0, 0, cmd,
				       ibtrace_job_notify_body, item)) {
		nlmsg_free(skb);
		skb = NULL;
	}
	return skb;
}

/**
 * ibtrace_job_notify() - tell the job's requester and the kind's group
 * @job: the job, of a kind with &ibtrace_job_ops.msg
 * @cmd: command of the message
 * @item: what it is about, for &ibtrace_job_ops.msg
 *
 * Sleeps. The open batch, if any, goes first. A message that cannot be
 * built is not sent; a listener whose socket is full misses it (GET
 * still tells).
 */
void ibtrace_job_notify(struct ibtrace_job *job, u8 cmd, const void *item)
{
	struct sk_buff *skb;

	mutex_lock(&job->batch_lock);
	ibtrace_job_batch_send(job);
	skb = ibtrace_job_notification(job, job->ops->msg_size, cmd, item);
	if (skb)
		ibtrace_job_send(job, skb);
	mutex_unlock(&job->batch_lock);
}

/*
 * Add @item to the open batch (of the same command): 0, or -EMSGSIZE
 * with nothing added when it does not fit.
 */
static int ibtrace_job_batch_add(struct ibtrace_job *job, const void *item)
{
	struct sk_buff *skb = job->batch;
	unsigned char *mark = skb_tail_pointer(skb);
	int err;

	mutex_lock(&job->lock);
	err = job->ops->msg(skb, job, item);
	mutex_unlock(&job->lock);
	if (err)
		nlmsg_trim(skb, mark);
	else
		nlmsg_end(skb, nlmsg_hdr(skb));
	return err;
}

/**
 * ibtrace_job_notify_batched() - as ibtrace_job_notify(), in a batch
 * @job: the job, of a kind whose &ibtrace_job_ops.msg writes one
 *	attribute per item (of a type that may repeat)
 * @cmd: command of the message
 * @item: what it is about, for &ibtrace_job_ops.msg
 *
 * Sleeps. Items of one command go out together, in order, in one message
 * of %IBTRACE_JOB_BATCH_SIZE: when the next does not fit, when another
 * notification is sent, when the job's run ends, and at the latest
 * %IBTRACE_JOB_BATCH_MS after the first. A flood that reports every few
 * microseconds then costs its reader one message per batch, not one per
 * item.
 */
void ibtrace_job_notify_batched(struct ibtrace_job *job, u8 cmd,
				const void *item)
{
	struct sk_buff *skb;

	mutex_lock(&job->batch_lock);
	if (job->batch && job->batch_cmd == cmd &&
	    !ibtrace_job_batch_add(job, item))
		goto out;
	ibtrace_job_batch_send(job);
	skb = ibtrace_job_notification(job, max_t(size_t, job->ops->msg_size,
						  IBTRACE_JOB_BATCH_SIZE),
				       cmd, item);
	if (!skb)
		goto out;
	job->batch = skb;
	job->batch_cmd = cmd;
	schedule_delayed_work(&job->batch_flush,
			      msecs_to_jiffies(IBTRACE_JOB_BATCH_MS));
out:
	mutex_unlock(&job->batch_lock);
}

/*
 * The ID of the job a GET or CANCEL request names. The test commands
 * (IBTRACE_CMD_TEST_GET, _CANCEL, @kind %IBTRACE_JOB_TEST) came before
 * jobs of other kinds: they keep their attribute and their words.
 */
static int ibtrace_nl_job_id(struct genl_info *info, int kind, u32 *id)
{
	struct nlattr *attr;

	if (kind == IBTRACE_JOB_TEST) {
		attr = info->attrs[IBTRACE_A_TEST_JOB];
		if (!attr) {
			NL_SET_ERR_MSG(info->extack, "a job ID is required");
			return -EINVAL;
		}
	} else {
		if (GENL_REQ_ATTR_CHECK(info, IBTRACE_A_JOB)) {
			NL_SET_ERR_MSG(info->extack, "a job id is required");
			return -EINVAL;
		}
		attr = info->attrs[IBTRACE_A_JOB];
	}
	*id = nla_get_u32(attr);
	return 0;
}

/**
 * ibtrace_nl_job_get() - answer a "do" GET about one job
 * @info: the request; it names the job
 * @kind: the job must be of this &enum ibtrace_job_kind, -1 = any
 * @cmd: command of the reply
 * @body: writes the reply's attributes; its @arg points to a bool, true
 *	(a full reply, not a dump entry)
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_nl_job_get(struct genl_info *info, int kind, u8 cmd,
		       ibtrace_job_body_t body)
{
	static const bool full = true;
	struct ibtrace_job_reply r = { .cmd = cmd, .body = body, .arg = &full };
	size_t size;
	u32 id;
	int err;

	err = ibtrace_nl_job_id(info, kind, &id);
	if (err)
		return err;
	r.job = ibtrace_job_get(id, kind);
	if (!r.job) {
		if (kind == IBTRACE_JOB_TEST)
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[IBTRACE_A_TEST_JOB],
					    "no such test job");
		else
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[IBTRACE_A_JOB],
					    "no such job");
		return -ENOENT;
	}
	size = IBTRACE_JOB_MSG_SIZE +
	       (r.job->ops->size ? r.job->ops->size(r.job) : 0);
	err = ibtrace_nl_reply(info, size, ibtrace_job_reply_fill, &r);
	ibtrace_job_put(r.job);
	return err;
}

/**
 * ibtrace_nl_job_cancel() - answer a CANCEL request
 * @info: the request; it names the job
 * @kind: the job must be of this &enum ibtrace_job_kind, -1 = any
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_nl_job_cancel(struct genl_info *info, int kind)
{
	u32 id;
	int err;

	err = ibtrace_nl_job_id(info, kind, &id);
	if (err)
		return err;
	return ibtrace_job_cancel(id, kind, info->extack);
}

/**
 * ibtrace_nl_job_get_dump() - a GET dump of the jobs, by ascending ID
 * @skb: dump buffer
 * @cb: dump state: args[0] = the next job ID to dump
 * @kind: only jobs of this &enum ibtrace_job_kind, or -1 for any
 * @cmd: command of the messages
 * @body: writes one job's attributes; its @arg points to a bool, false
 *	(a dump entry, which must stay small)
 *
 * Return: skb->len while more follows, 0 at the end, or a negative errno.
 */
int ibtrace_nl_job_get_dump(struct sk_buff *skb, struct netlink_callback *cb,
			    int kind, u8 cmd, ibtrace_job_body_t body)
{
	static const bool full;
	struct ibtrace_job *job;
	int err = 0;

	if (!cb->args[0])
		cb->args[0] = 1;
	while (cb->args[0] <= U32_MAX &&
	       (job = ibtrace_job_get_from(cb->args[0], kind))) {
		err = ibtrace_job_put_msg(skb, job,
					  NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, NLM_F_MULTI,
					  cmd, body, &full);
		cb->args[0] = (u64)job->id + (err ? 0 : 1);
		ibtrace_job_put(job);
		if (err)
			break;
	}
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err;
}

/* JOB_GET: the common head and the kind's results. */
static int ibtrace_job_get_body(struct sk_buff *skb, struct ibtrace_job *job,
				const void *full)
{
	int err;

	err = ibtrace_job_put_head(skb, job);
	if (!err && job->ops->fill)
		err = job->ops->fill(skb, job, *(const bool *)full);
	return err;
}

int ibtrace_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtrace_nl_job_get(info, -1, IBTRACE_CMD_JOB_GET,
				  ibtrace_job_get_body);
}

int ibtrace_nl_job_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ibtrace_nl_job_get_dump(skb, cb, -1, IBTRACE_CMD_JOB_GET,
				       ibtrace_job_get_body);
}

int ibtrace_nl_job_cancel_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtrace_nl_job_cancel(info, -1);
}

/*
 * What NL_SET_ERR_MSG_ATTR() does, for a sentence that is not a literal
 * (a kind's, from struct ibtrace_nl_dump_msgs, static like a literal).
 */
static void ibtrace_nl_dump_say(struct netlink_ext_ack *extack,
				const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

/**
 * ibtrace_nl_dump_finished_job() - the finished job a dump of its results
 *	reads, referenced
 * @cb: the dump; @cb->args[0] keeps the job's ID between its calls
 * @kind: &enum ibtrace_job_kind
 * @msgs: the extended ACK's sentences, in the kind's words
 *
 * Return: the job (put it with ibtrace_job_put()), or an ERR_PTR() said
 * in @cb->extack: -EINVAL (no IBTRACE_A_JOB), -ENOENT (no such job of the
 * kind, or no more), -EBUSY (it runs).
 */
struct ibtrace_job *
ibtrace_nl_dump_finished_job(struct netlink_callback *cb, int kind,
			     const struct ibtrace_nl_dump_msgs *msgs)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct nlattr *attr = info->attrs[IBTRACE_A_JOB];
	struct ibtrace_job *job;
	bool running;

	if (!cb->args[0]) {
		if (!attr) {
			ibtrace_nl_dump_say(cb->extack, NULL, msgs->which);
			return ERR_PTR(-EINVAL);
		}
		cb->args[0] = nla_get_u32(attr);
	}
	job = ibtrace_job_get(cb->args[0], kind);
	if (!job) {
		ibtrace_nl_dump_say(cb->extack, attr, msgs->gone);
		return ERR_PTR(-ENOENT);
	}
	mutex_lock(&job->lock);
	running = job->state != IBTRACE_TEST_STATE_FINISHED;
	mutex_unlock(&job->lock);
	if (running) {
		ibtrace_job_put(job);
		ibtrace_nl_dump_say(cb->extack, attr, msgs->running);
		return ERR_PTR(-EBUSY);
	}
	return job;
}
