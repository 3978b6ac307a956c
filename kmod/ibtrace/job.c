// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - jobs (see job.h for the contract).
 *
 * One list of jobs, by ascending ID, under one lock; one unbound
 * workqueue runs them. A job ends on cancel (a request, its requester's
 * socket closing, module unload) and on device removal: the MAD waits of
 * mad.c give up when the job's cancel flag is set or the device dies,
 * and cancelling wakes the device's wait queue, so a job waiting for an
 * answer stops at once instead of after its timeouts.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <net/net_namespace.h>

#include "job.h"
#include "netlink.h"

static unsigned int max_jobs = 256;
module_param(max_jobs, uint, 0644);
MODULE_PARM_DESC(max_jobs,
		 "Jobs (pings, traces, tests) that may run at once in all (default 256)");

static unsigned int max_jobs_per_user = 128;
module_param(max_jobs_per_user, uint, 0644);
MODULE_PARM_DESC(max_jobs_per_user,
		 "Jobs one user may run at once (default 128)");

#define IBTRACE_JOB_KINDS	(IBTRACE_JOB_PROVE + 1)

static struct workqueue_struct *ibtrace_job_wq;

/* protects the list, the counters below, job->cancel* and job->port */
static DEFINE_MUTEX(ibtrace_job_lock);
static LIST_HEAD(ibtrace_jobs);		/* by ascending ID */
static u32 ibtrace_job_next_id = 1;
static unsigned int ibtrace_jobs_running;
static unsigned int ibtrace_kind_running[IBTRACE_JOB_KINDS];
static unsigned int ibtrace_kind_kept[IBTRACE_JOB_KINDS];
/*
 * Running jobs of kinds cancelled at unload; written under the lock, read
 * without it by the unload's wait (whose condition must not sleep).
 */
static unsigned int ibtrace_jobs_unload_running;
static bool ibtrace_jobs_stopping;
/* woken whenever a job finishes */
static DECLARE_WAIT_QUEUE_HEAD(ibtrace_job_end_wq);

/**
 * ibtrace_job_init() - initialise the common part of a new job
 * @job: the job, zeroed
 * @ops: its kind
 *
 * The caller then fills its own part and hands the job to
 * ibtrace_nl_job_start(), which starts it; if it does not get that far it
 * drops the job with ibtrace_job_put().
 */
void ibtrace_job_init(struct ibtrace_job *job,
		      const struct ibtrace_job_ops *ops)
{
	INIT_LIST_HEAD(&job->list);
	kref_init(&job->ref);
	mutex_init(&job->lock);
	ibtrace_job_batch_init(job);
	job->ops = ops;
	job->state = IBTRACE_TEST_STATE_RUNNING;
}

static void ibtrace_job_release(struct kref *ref)
{
	struct ibtrace_job *job = container_of(ref, struct ibtrace_job, ref);

	mutex_destroy(&job->lock);
	mutex_destroy(&job->batch_lock);
	job->ops->free(job);
}

/**
 * ibtrace_job_put() - drop a reference to a job
 * @job: the job
 */
void ibtrace_job_put(struct ibtrace_job *job)
{
	kref_put(&job->ref, ibtrace_job_release);
}

static bool ibtrace_job_finished(const struct ibtrace_job *job)
{
	return READ_ONCE(job->state) == IBTRACE_TEST_STATE_FINISHED;
}

/**
 * ibtrace_job_get_from() - the job with the lowest ID at or above @id
 * @id: where to start
 * @kind: only jobs of this &enum ibtrace_job_kind, or -1 for any
 *
 * A dump resumes from the ID after the last one it sent, so jobs that
 * come or go meanwhile are neither skipped nor repeated.
 *
 * Return: the job with a reference held, or NULL.
 */
struct ibtrace_job *ibtrace_job_get_from(u32 id, int kind)
{
	struct ibtrace_job *job, *found = NULL;

	mutex_lock(&ibtrace_job_lock);
	list_for_each_entry(job, &ibtrace_jobs, list) {
		if (job->id >= id && (kind < 0 || job->ops->kind == kind)) {
			kref_get(&job->ref);
			found = job;
			break;
		}
	}
	mutex_unlock(&ibtrace_job_lock);
	return found;
}

/**
 * ibtrace_job_get() - a job by ID
 * @id: job ID
 * @kind: the job must be of this &enum ibtrace_job_kind, -1 = any
 *
 * Return: the job with a reference held, or NULL.
 */
struct ibtrace_job *ibtrace_job_get(u32 id, int kind)
{
	struct ibtrace_job *job = ibtrace_job_get_from(id, kind);

	if (job && job->id != id) {
		ibtrace_job_put(job);
		job = NULL;
	}
	return job;
}

/*
 * Set the cancel flag and wake the job's waiters; ibtrace_job_lock held.
 * @err: how the job will say it ended (-ECANCELED, or -ESHUTDOWN at
 * unload).
 */
static void ibtrace_job_cancel_locked(struct ibtrace_job *job,
				      const char *reason, int err)
{
	if (!job->cancel_reason) {
		job->cancel_reason = reason;
		job->cancel_err = err;
	}
	WRITE_ONCE(job->cancel, true);
	if (job->port)
		wake_up_all(&job->port->dev->waitq);
}

/**
 * ibtrace_job_cancel() - stop a running job
 * @id: job ID
 * @kind: the job must be of this &enum ibtrace_job_kind, -1 = any
 * @extack: where to say what is wrong
 *
 * The job stops within a second: a MAD it waits for is taken back.
 *
 * Return: 0, -ENOENT (no such job), -EALREADY (finished).
 */
int ibtrace_job_cancel(u32 id, int kind, struct netlink_ext_ack *extack)
{
	struct ibtrace_job *job;
	int err = -ENOENT;

	mutex_lock(&ibtrace_job_lock);
	list_for_each_entry(job, &ibtrace_jobs, list) {
		if (job->id != id || (kind >= 0 && job->ops->kind != kind))
			continue;
		if (ibtrace_job_finished(job)) {
			NL_SET_ERR_MSG(extack, "the job has already finished");
			err = -EALREADY;
		} else {
			ibtrace_job_cancel_locked(job, "cancelled",
						  -ECANCELED);
			err = 0;
		}
		break;
	}
	mutex_unlock(&ibtrace_job_lock);
	if (err == -ENOENT)
		NL_SET_ERR_MSG(extack, "no such job");
	return err;
}

/**
 * ibtrace_job_cancel_reason() - why a cancelled job was cancelled
 * @job: a job for which ibtrace_job_cancelled() returned true
 *
 * Return: "cancelled", "module unloading", ...
 */
const char *ibtrace_job_cancel_reason(struct ibtrace_job *job)
{
	const char *reason;

	mutex_lock(&ibtrace_job_lock);
	reason = job->cancel_reason ?: "cancelled";
	mutex_unlock(&ibtrace_job_lock);
	return reason;
}

/**
 * ibtrace_job_set_cancelled() - the job ends early because it was cancelled
 * @job: a job for which ibtrace_job_cancelled() returned true
 *
 * Its error becomes -ECANCELED (-ESHUTDOWN at unload) and its message the
 * cancel's reason.
 */
void ibtrace_job_set_cancelled(struct ibtrace_job *job)
{
	const char *reason;
	int err;

	mutex_lock(&ibtrace_job_lock);
	reason = job->cancel_reason ?: "cancelled";
	err = job->cancel_err ?: -ECANCELED;
	mutex_unlock(&ibtrace_job_lock);
	ibtrace_job_set_error(job, err, reason);
}

/**
 * ibtrace_job_set_walk_end() - how a job of many MAD batches ended
 * @job: the job (a sweep, a proof)
 * @err: what its walk returned: 0, or ibtrace_walk_end()'s errors, or
 *	-ENOMEM, or another negative errno
 * @nomem: the sentence for -ENOMEM (a static string)
 * @gone: the sentence for -ENODEV, the device gone (a static string)
 *
 * -ECANCELED becomes the cancel's reason (ibtrace_job_set_cancelled()).
 */
void ibtrace_job_set_walk_end(struct ibtrace_job *job, int err,
			      const char *nomem, const char *gone)
{
	if (err == -ECANCELED)
		ibtrace_job_set_cancelled(job);
	else if (err)
		ibtrace_job_set_error(job, err, err == -ENOMEM ? nomem :
						err == -ENODEV ? gone : NULL);
}

/**
 * ibtrace_job_keep_figures() - a running job's latest figures: kept, and
 *	told now and then
 * @job: the job
 * @dst: where the job keeps them (read under &ibtrace_job.lock)
 * @src: the latest figures
 * @len: their size
 * @told: when they were last told (jiffies): set to now when they are
 * @every_ms: told at most once in this time
 * @cmd: the notification that tells them (ibtrace_job_notify())
 *
 * Sleeps (the job's lock).
 */
void ibtrace_job_keep_figures(struct ibtrace_job *job, void *dst,
			      const void *src, size_t len, unsigned long *told,
			      unsigned int every_ms, u8 cmd)
{
	mutex_lock(&job->lock);
	memcpy(dst, src, len);
	mutex_unlock(&job->lock);
	if (time_before(jiffies, *told + msecs_to_jiffies(every_ms)))
		return;
	*told = jiffies;
	ibtrace_job_notify(job, cmd, NULL);
}

/**
 * ibtrace_job_fill_msg() - a GET's results: what the job's messages carry
 * @skb: the GET reply or dump entry
 * @job: the job
 * @full: unused (a "do" reply or a dump entry carry the same)
 *
 * The &ibtrace_job_ops.fill of a kind whose results are the figures its
 * notifications tell (&ibtrace_job_ops.msg without an item).
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_job_fill_msg(struct sk_buff *skb, struct ibtrace_job *job,
			 bool full)
{
	return job->ops->msg(skb, job, NULL);
}

/**
 * ibtrace_job_set_error() - the job ends early, and why
 * @job: the job
 * @err: negative errno; the first one set stays
 * @msg: one sentence (a static string), or NULL
 */
void ibtrace_job_set_error(struct ibtrace_job *job, int err, const char *msg)
{
	mutex_lock(&job->lock);
	if (!job->err) {
		job->err = err;
		job->err_msg = msg;
	}
	mutex_unlock(&job->lock);
}

/**
 * ibtrace_job_unicast() - send a message to the job's requester
 * @job: the job
 * @skb: the message; consumed
 *
 * A requester whose socket is full misses the message (GET still tells);
 * a detached job sends nothing.
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_job_unicast(struct ibtrace_job *job, struct sk_buff *skb)
{
	if (job->detached) {
		nlmsg_free(skb);
		return 0;
	}
	return genlmsg_unicast(&init_net, skb, job->owner_portid);
}

/**
 * ibtrace_job_put_port() - the attributes that name the job's local port
 * @skb: the message
 * @job: the job
 *
 * As ibtrace_nl_put_port_id(), also once the device is gone.
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_job_put_port(struct sk_buff *skb, const struct ibtrace_job *job)
{
	if (nla_put_u32(skb, IBTRACE_A_DEV_INDEX, job->dev_index) ||
	    nla_put_string(skb, IBTRACE_A_DEV_NAME, job->dev_name) ||
	    nla_put_u32(skb, IBTRACE_A_PORT, job->port_num))
		return -EMSGSIZE;
	return 0;
}

/**
 * ibtrace_job_elapsed_ns() - how long the job ran, or runs so far
 * @job: the job; its lock held
 *
 * Return: nanoseconds.
 */
u64 ibtrace_job_elapsed_ns(const struct ibtrace_job *job)
{
	return (job->t_end ?: ktime_get_ns()) - job->t_start;
}

/**
 * ibtrace_job_put_head() - the attributes every job message starts with
 * @skb: the message
 * @job: the job; its lock held
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_job_put_head(struct sk_buff *skb, struct ibtrace_job *job)
{
	if (ibtrace_job_put_port(skb, job) ||
	    nla_put_u32(skb, IBTRACE_A_JOB, job->id) ||
	    nla_put_u8(skb, IBTRACE_A_JOB_KIND, job->ops->kind) ||
	    nla_put_u8(skb, IBTRACE_A_JOB_STATE, job->state) ||
	    nla_put_u64_64bit(skb, IBTRACE_A_JOB_ELAPSED_NS,
			      ibtrace_job_elapsed_ns(job), IBTRACE_A_PAD))
		return -EMSGSIZE;
	if (job->err && nla_put_u32(skb, IBTRACE_A_JOB_ERRNO, -job->err))
		return -EMSGSIZE;
	if (job->err_msg &&
	    nla_put_string(skb, IBTRACE_A_JOB_MESSAGE, job->err_msg))
		return -EMSGSIZE;
	return 0;
}

static void ibtrace_job_work(struct work_struct *work)
{
	struct ibtrace_job *job = container_of(work, struct ibtrace_job, work);
	struct ibtrace_dev *dev = job->port->dev;
	u8 kind = job->ops->kind;

	job->ops->run(job);
	/* what it told in batches goes out before its end is told */
	ibtrace_job_batch_end(job);

	mutex_lock(&ibtrace_job_lock);
	job->port = NULL;
	mutex_unlock(&ibtrace_job_lock);

	mutex_lock(&job->lock);
	job->state = IBTRACE_TEST_STATE_FINISHED;
	job->t_end = ktime_get_ns();
	mutex_unlock(&job->lock);

	if (job->ops->end)
		job->ops->end(job);
	/*
	 * Only now: the device's removal (also at unload, before the family
	 * goes) waits for this reference, so the end message is out first.
	 */
	ibtrace_dev_put(dev);

	mutex_lock(&ibtrace_job_lock);
	ibtrace_jobs_running--;
	ibtrace_kind_running[kind]--;
	if (job->ops->cancel_at_unload)
		WRITE_ONCE(ibtrace_jobs_unload_running,
			   ibtrace_jobs_unload_running - 1);
	ibtrace_kind_kept[kind]++;
	mutex_unlock(&ibtrace_job_lock);
	wake_up_all(&ibtrace_job_end_wq);
	ibtrace_job_put(job);
}

/*
 * Drop the oldest finished jobs of @ops' kind beyond the kind's limit;
 * lock held.
 */
static void ibtrace_job_trim(const struct ibtrace_job_ops *ops,
			     struct list_head *dead)
{
	unsigned int max = ops->max_kept ?: IBTRACE_JOB_MAX_KEPT;
	struct ibtrace_job *job, *tmp;
	u8 kind = ops->kind;

	list_for_each_entry_safe(job, tmp, &ibtrace_jobs, list) {
		if (ibtrace_kind_kept[kind] < max)
			break;
		if (job->ops->kind != kind || !ibtrace_job_finished(job))
			continue;
		list_move(&job->list, dead);
		ibtrace_kind_kept[kind]--;
	}
}

/* Jobs @uid runs now; ibtrace_job_lock held. */
static unsigned int ibtrace_jobs_of(kuid_t uid)
{
	struct ibtrace_job *job;
	unsigned int n = 0;

	list_for_each_entry(job, &ibtrace_jobs, list)
		if (!ibtrace_job_finished(job) && uid_eq(job->owner_uid, uid))
			n++;
	return n;
}

/* Why a new job may not start now; ibtrace_job_lock held. */
static int ibtrace_job_admit(const struct ibtrace_job *job, kuid_t uid,
			     struct netlink_ext_ack *extack)
{
	const struct ibtrace_job_ops *ops = job->ops;

	if (ibtrace_jobs_stopping) {
		NL_SET_ERR_MSG(extack, "the module is unloading");
		return -ESHUTDOWN;
	}
	if (ibtrace_kind_running[ops->kind] >= ops->max_running) {
		switch (ops->kind) {
		case IBTRACE_JOB_TEST:
			NL_SET_ERR_MSG(extack,
				       "busy: too many test jobs are running; try again later");
			break;
		case IBTRACE_JOB_TRACE:
			NL_SET_ERR_MSG(extack,
				       "busy: too many traces are running; try again later");
			break;
		case IBTRACE_JOB_MAD:
			NL_SET_ERR_MSG(extack,
				       "busy: too many MAD sends are running; try again later");
			break;
		case IBTRACE_JOB_SWEEP:
			NL_SET_ERR_MSG(extack,
				       "busy: too many sweeps are running; try again later");
			break;
		case IBTRACE_JOB_PROVE:
			NL_SET_ERR_MSG(extack,
				       "busy: too many proofs are running; try again later");
			break;
		default:
			NL_SET_ERR_MSG(extack,
				       "busy: too many pings are running; try again later");
			break;
		}
		return -EBUSY;
	}
	if (ibtrace_jobs_running >= READ_ONCE(max_jobs)) {
		NL_SET_ERR_MSG(extack,
			       "busy: the module parameter max_jobs is reached; try again later");
		return -EBUSY;
	}
	if (ibtrace_jobs_of(uid) >= READ_ONCE(max_jobs_per_user)) {
		NL_SET_ERR_MSG(extack,
			       "busy: this user runs max_jobs_per_user jobs (module parameter); try again later");
		return -EBUSY;
	}
	return 0;
}

/**
 * ibtrace_job_start() - start a job
 * @job: the job, set up with ibtrace_job_init() and the kind's arguments
 * @port: the local port; the caller holds a device reference, the job
 *	takes its own
 * @info: the request: its socket becomes the job's owner,
 *	%IBTRACE_A_JOB_DETACH in it detaches the job, and its extack says
 *	why the job cannot start
 *
 * The caller keeps its reference either way (and drops it when done):
 * once started, the job list and the work item hold their own.
 *
 * Return: 0, -EBUSY (a bound is reached), -ESHUTDOWN (module unloading).
 */
int ibtrace_job_start(struct ibtrace_job *job, struct ibtrace_port *port,
		      const struct genl_info *info)
{
	struct ibtrace_job *old, *tmp;
	kuid_t uid = current_uid();
	LIST_HEAD(dead);
	int err;

	strscpy(job->dev_name, dev_name(&port->dev->ibdev->dev),
		sizeof(job->dev_name));
	job->dev_index = port->dev->ibdev->index;
	job->port_num = port->port_num;
	job->owner_portid = info->snd_portid;
	job->owner_uid = uid;
	job->detached = info->attrs[IBTRACE_A_JOB_DETACH] &&
			nla_get_flag(info->attrs[IBTRACE_A_JOB_DETACH]);
	job->t_start = ktime_get_ns();
	INIT_WORK(&job->work, ibtrace_job_work);

	mutex_lock(&ibtrace_job_lock);
	err = ibtrace_job_admit(job, uid, info->extack);
	if (err) {
		mutex_unlock(&ibtrace_job_lock);
		return err;
	}
	job->id = ibtrace_job_next_id++;
	job->port = port;
	ibtrace_jobs_running++;
	ibtrace_kind_running[job->ops->kind]++;
	if (job->ops->cancel_at_unload)
		WRITE_ONCE(ibtrace_jobs_unload_running,
			   ibtrace_jobs_unload_running + 1);
	ibtrace_job_trim(job->ops, &dead);
	list_add_tail(&job->list, &ibtrace_jobs);
	kref_get(&port->dev->ref);
	kref_get(&job->ref);	/* the list's */
	kref_get(&job->ref);	/* the work item's */
	queue_work(ibtrace_job_wq, &job->work);
	mutex_unlock(&ibtrace_job_lock);

	list_for_each_entry_safe(old, tmp, &dead, list) {
		list_del(&old->list);
		ibtrace_job_put(old);
	}
	return 0;
}

/*
 * A socket closed: cancel the jobs it started, unless detached. Called
 * from netlink_release(), in process context.
 */
static int ibtrace_job_netlink_event(struct notifier_block *nb,
				     unsigned long event, void *ptr)
{
	struct netlink_notify *n = ptr;
	struct ibtrace_job *job;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid || !net_eq(n->net, &init_net))
		return NOTIFY_DONE;
	mutex_lock(&ibtrace_job_lock);
	list_for_each_entry(job, &ibtrace_jobs, list)
		if (!job->detached && job->owner_portid == n->portid &&
		    !ibtrace_job_finished(job))
			ibtrace_job_cancel_locked(job,
						  "the requester closed its socket",
						  -ECANCELED);
	mutex_unlock(&ibtrace_job_lock);
	return NOTIFY_DONE;
}

static struct notifier_block ibtrace_job_nb = {
	.notifier_call = ibtrace_job_netlink_event,
};

/**
 * ibtrace_job_init_all() - the jobs' workqueue and socket watch
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_job_init_all(void)
{
	int err;

	ibtrace_job_wq = alloc_workqueue("ibtrace_job", WQ_UNBOUND,
					 WQ_UNBOUND_MAX_ACTIVE);
	if (!ibtrace_job_wq)
		return -ENOMEM;
	err = netlink_register_notifier(&ibtrace_job_nb);
	if (err)
		destroy_workqueue(ibtrace_job_wq);
	return err;
}

/**
 * ibtrace_job_stop() - unload: refuse new jobs, end those that must end
 *	while the devices exist
 *
 * Jobs of kinds with &ibtrace_job_ops.cancel_at_unload (tests: each
 * restores its DUT, within a bounded time) are cancelled, with the error
 * -ESHUTDOWN, and waited for. The others end when the devices go away
 * (ib_unregister_client(), next), as on a device removal, and
 * ibtrace_job_exit() waits for them.
 */
void ibtrace_job_stop(void)
{
	struct ibtrace_job *job;

	mutex_lock(&ibtrace_job_lock);
	ibtrace_jobs_stopping = true;
	list_for_each_entry(job, &ibtrace_jobs, list)
		if (job->ops->cancel_at_unload && !ibtrace_job_finished(job))
			ibtrace_job_cancel_locked(job, "module unloading",
						  -ESHUTDOWN);
	mutex_unlock(&ibtrace_job_lock);
	/* Not a condition that takes the lock: it is evaluated while not
	 * TASK_RUNNING, where a sleeping lock must not be taken.
	 */
	wait_event(ibtrace_job_end_wq, !READ_ONCE(ibtrace_jobs_unload_running));
}

/**
 * ibtrace_job_exit() - wait for the last jobs, free every job, the
 *	workqueue and the socket watch
 *
 * Called once the devices are gone, so that every job still running is
 * ending.
 */
void ibtrace_job_exit(void)
{
	struct ibtrace_job *job, *tmp;

	netlink_unregister_notifier(&ibtrace_job_nb);
	flush_workqueue(ibtrace_job_wq);
	destroy_workqueue(ibtrace_job_wq);
	list_for_each_entry_safe(job, tmp, &ibtrace_jobs, list) {
		list_del(&job->list);
		ibtrace_job_put(job);
	}
}
