/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - jobs: every operation that can last longer than a netlink
 * round trip (a ping, a trace, a conformance test, ...).
 *
 * The contract (Documentation/ibtrace.rst, "Jobs"): the request is
 * validated in its genetlink handler, which starts the job and replies
 * with its ID at once; the job runs in a work item of its own; what it
 * finds goes out as notifications, unicast to the requesting socket and
 * on the kind's admin-only multicast group; GET reads a running or
 * finished job, CANCEL ends it within a second; closing the requesting
 * socket cancels it too, unless it was started detached; unload and
 * device removal end every job. Jobs are bounded in total, per user and
 * per kind; finished ones are kept for GET, a bounded number per kind.
 *
 * A kind embeds &struct ibtrace_job in its own job structure and gives
 * &struct ibtrace_job_ops.
 */
#ifndef _IBTRACE_JOB_H
#define _IBTRACE_JOB_H

#include <linux/mutex.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>

#include "ibtrace.h"

struct ibtrace_job;

/**
 * struct ibtrace_job_ops - what a kind of job does
 * @kind: &enum ibtrace_job_kind
 * @name: the kind's name, for messages ("ping")
 * @max_running: jobs of this kind that may run at once
 * @max_kept: finished jobs of this kind kept for GET (0:
 *	%IBTRACE_JOB_MAX_KEPT); the oldest go first
 * @cancel_at_unload: unload cancels these jobs and waits for them while
 *	the devices still exist (a test restores its DUT); the others end
 *	as the devices are removed, as on a device removal
 * @needs_agent: the job sends class 0x30 MADs: ibtrace_nl_job_start()
 *	refuses a port without the vendor agent
 * @check: optional: the kind's checks of the starting request (@info)
 *	against the port it names, said in @info->extack; may finish the
 *	job's arguments. Called by ibtrace_nl_job_start() before the job
 *	starts. Return: 0 or a negative errno.
 * @reply: optional: the kind's attributes in the reply to the starting
 *	request, after the port's (default: %IBTRACE_A_JOB). Return: 0 or
 *	-EMSGSIZE.
 * @mcgrp: the multicast group of the kind's notifications (&enum
 *	ibtrace_nl_mcgrp), with @msg
 * @msg_size: room a notification needs
 * @msg: optional: a notification's body after the common head
 *	(ibtrace_job_notify(), whose @item it is given; for
 *	ibtrace_job_notify_batched(), one attribute per item); called with
 *	&ibtrace_job.lock held, must not sleep. Return: 0 or -EMSGSIZE,
 *	the message then as it was.
 * @run: the job's work; called once in its work item, may sleep; must
 *	return within a second of ibtrace_job_cancelled() becoming true
 * @end: optional: called after the job was marked finished (its end
 *	notifications); may sleep
 * @fill: optional: the kind's results in a GET message (@full: a "do"
 *	reply; else a dump entry, which must stay small); called with
 *	&ibtrace_job.lock held, must not sleep. Return: 0 or -EMSGSIZE.
 * @size: optional: room a full GET reply needs beyond the common head
 * @free: frees the kind's job structure (after the last reference)
 */
struct ibtrace_job_ops {
	u8 kind;
	const char *name;
	unsigned int max_running;
	unsigned int max_kept;
	bool cancel_at_unload;
	bool needs_agent;
	int (*check)(struct ibtrace_job *job, struct ibtrace_port *port,
		     struct genl_info *info);
	int (*reply)(struct sk_buff *skb, struct ibtrace_job *job);
	unsigned int mcgrp;
	size_t msg_size;
	int (*msg)(struct sk_buff *skb, struct ibtrace_job *job,
		   const void *item);
	void (*run)(struct ibtrace_job *job);
	void (*end)(struct ibtrace_job *job);
	int (*fill)(struct sk_buff *skb, struct ibtrace_job *job, bool full);
	size_t (*size)(struct ibtrace_job *job);
	void (*free)(struct ibtrace_job *job);
};

/**
 * struct ibtrace_job - what every job has
 * @list: entry in the job list (under the framework's lock)
 * @ref: held by the job list, by the running work item and by readers
 * @id: job ID, from 1, one sequence for every kind
 * @ops: the kind
 * @owner_portid: netlink port of the requesting socket
 * @owner_uid: user who started it (for the per-user bound)
 * @detached: the job outlives its requester's socket and sends nothing
 *	to it
 * @dev_name: local device name, for reports after the device is gone
 * @dev_index: local device index
 * @port_num: local port number
 * @port: the local port while the job runs (a device reference is held),
 *	NULL once finished; under the framework's lock
 * @work: the job's work item
 * @cancel: set to stop the job (under the framework's lock; read
 *	locklessly); waiters on the port's device wait queue are woken
 * @cancel_reason: why, under the framework's lock
 * @cancel_err: how the job says it ended then (-ECANCELED, -ESHUTDOWN),
 *	under the framework's lock
 * @lock: protects the fields below and the kind's results against readers
 * @state: &enum ibtrace_test_state
 * @err: 0, or how the job ended early (-ECANCELED, -ENODEV, ...)
 * @err_msg: a sentence saying why (static string), or NULL
 * @t_start: ktime_get_ns() at the start
 * @t_end: ktime_get_ns() at the end, 0 while running
 * @batch_lock: serialises the batch below, its sends included
 * @batch: a notification being filled with items
 *	(ibtrace_job_notify_batched()), NULL when none is open
 * @batch_cmd: its command
 * @batch_flush: sends @batch %IBTRACE_JOB_BATCH_MS after it was opened
 */
struct ibtrace_job {
	struct list_head list;
	struct kref ref;
	u32 id;
	const struct ibtrace_job_ops *ops;
	u32 owner_portid;
	kuid_t owner_uid;
	bool detached;
	char dev_name[IB_DEVICE_NAME_MAX];
	u32 dev_index;
	u32 port_num;
	struct ibtrace_port *port;
	struct work_struct work;
	bool cancel;
	const char *cancel_reason;
	int cancel_err;

	struct mutex lock;	/* protects the fields below */
	u8 state;
	int err;
	const char *err_msg;
	u64 t_start;
	u64 t_end;
	struct mutex batch_lock;	/* protects the batch */
	struct sk_buff *batch;
	u8 batch_cmd;
	struct delayed_work batch_flush;
};

void ibtrace_job_init(struct ibtrace_job *job,
		      const struct ibtrace_job_ops *ops);
int ibtrace_job_start(struct ibtrace_job *job, struct ibtrace_port *port,
		      const struct genl_info *info);
struct ibtrace_job *ibtrace_job_get(u32 id, int kind);
struct ibtrace_job *ibtrace_job_get_from(u32 id, int kind);
void ibtrace_job_put(struct ibtrace_job *job);
int ibtrace_job_cancel(u32 id, int kind, struct netlink_ext_ack *extack);
const char *ibtrace_job_cancel_reason(struct ibtrace_job *job);
void ibtrace_job_set_cancelled(struct ibtrace_job *job);
void ibtrace_job_set_error(struct ibtrace_job *job, int err, const char *msg);
void ibtrace_job_set_walk_end(struct ibtrace_job *job, int err,
			      const char *nomem, const char *gone);
void ibtrace_job_keep_figures(struct ibtrace_job *job, void *dst,
			      const void *src, size_t len, unsigned long *told,
			      unsigned int every_ms, u8 cmd);
int ibtrace_job_fill_msg(struct sk_buff *skb, struct ibtrace_job *job,
			 bool full);
int ibtrace_job_unicast(struct ibtrace_job *job, struct sk_buff *skb);
int ibtrace_job_put_head(struct sk_buff *skb, struct ibtrace_job *job);
int ibtrace_job_put_port(struct sk_buff *skb, const struct ibtrace_job *job);
u64 ibtrace_job_elapsed_ns(const struct ibtrace_job *job);
int ibtrace_job_init_all(void);
void ibtrace_job_stop(void);
void ibtrace_job_exit(void);

/**
 * typedef ibtrace_job_body_t - write the body of a message about a job
 * @skb: message being built (header already put)
 * @job: the job; its lock held
 * @arg: what the caller of ibtrace_job_put_msg() passed
 *
 * Return: 0 or -EMSGSIZE.
 */
typedef int (*ibtrace_job_body_t)(struct sk_buff *skb, struct ibtrace_job *job,
				  const void *arg);

/* job_nl.c */
int ibtrace_job_put_msg(struct sk_buff *skb, struct ibtrace_job *job,
			u32 portid, u32 seq, int flags, u8 cmd,
			ibtrace_job_body_t body, const void *arg);
int ibtrace_nl_job_start(struct ibtrace_job *job, struct genl_info *info,
			 u8 cmd);
void ibtrace_job_notify(struct ibtrace_job *job, u8 cmd, const void *item);
void ibtrace_job_notify_batched(struct ibtrace_job *job, u8 cmd,
				const void *item);
void ibtrace_job_batch_init(struct ibtrace_job *job);
void ibtrace_job_batch_end(struct ibtrace_job *job);
int ibtrace_nl_job_get(struct genl_info *info, int kind, u8 cmd,
		       ibtrace_job_body_t body);
int ibtrace_nl_job_get_dump(struct sk_buff *skb, struct netlink_callback *cb,
			    int kind, u8 cmd, ibtrace_job_body_t body);
int ibtrace_nl_job_cancel(struct genl_info *info, int kind);

/**
 * struct ibtrace_nl_dump_msgs - what ibtrace_nl_dump_finished_job() says
 * @which: no job named ("which sweep: IBTRACE_A_JOB")
 * @gone: no such job of the kind
 * @running: the job runs still
 */
struct ibtrace_nl_dump_msgs {
	const char *which;
	const char *gone;
	const char *running;
};

struct ibtrace_job *
ibtrace_nl_dump_finished_job(struct netlink_callback *cb, int kind,
			     const struct ibtrace_nl_dump_msgs *msgs);

/**
 * ibtrace_job_cancelled() - should the job stop now?
 * @job: the job
 *
 * Return: true once the job was cancelled (request, requester gone,
 * unload).
 */
static inline bool ibtrace_job_cancelled(const struct ibtrace_job *job)
{
	return READ_ONCE(job->cancel);
}

#endif /* _IBTRACE_JOB_H */
