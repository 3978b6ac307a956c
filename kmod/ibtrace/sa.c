// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - resolving an InfiniBand DGID to a DLID through the subnet
 * administrator (SA PathRecord, via ib_sa).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>

#include "ibtrace.h"

/* how often a waiter looks at its stop flag (ib_sa cannot wake it) */
#define IBTRACE_SA_STOP_POLL_MS	100

static struct ib_sa_client ibtrace_sa_client;

struct ibtrace_sa_query {
	struct completion done;
	int status;
	struct sa_path_rec rec;
};

static void ibtrace_sa_done(int status, struct sa_path_rec *resp,
			    int num_prs, void *context)
{
	struct ibtrace_sa_query *q = context;

	q->status = status;
	if (!status && resp && num_prs > 0)
		q->rec = *resp;
	else if (!status)
		q->status = -ENOENT;
	complete(&q->done);
}

/**
 * ibtrace_sa_path_lookup() - DLID and SL of the path to a DGID
 * @port: local InfiniBand port
 * @dgid: destination GID
 * @timeout_ms: SA query timeout
 * @stop: the caller's job's cancel flag, or NULL
 * @path: the path: DLID and SL are used
 * @extack: where to say what went wrong
 *
 * Sleeps until the SA answers, the query times out, @stop is set (seen
 * within IBTRACE_SA_STOP_POLL_MS; the query is cancelled, -ECANCELED) or
 * a signal arrives (-EINTR).
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_sa_path_lookup(struct ibtrace_port *port, const union ib_gid *dgid,
			   u32 timeout_ms, const bool *stop,
			   struct ibtrace_path *path,
			   struct netlink_ext_ack *extack)
{
	struct ib_device *ibdev = port->dev->ibdev;
	struct ibtrace_sa_query *q;
	struct ib_sa_query *query;
	struct sa_path_rec rec = {};
	int id, err;

	rec.rec_type = SA_PATH_REC_TYPE_IB;
	rec.dgid = *dgid;
	rec.numb_path = 1;
	rec.reversible = 1;
	err = rdma_query_gid(ibdev, port->port_num, 0, &rec.sgid);
	if (err) {
		NL_SET_ERR_MSG(extack, "the local port has no GID 0");
		return err;
	}

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	init_completion(&q->done);

	id = ib_sa_path_rec_get(&ibtrace_sa_client, ibdev, port->port_num,
				&rec, IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID |
				IB_SA_PATH_REC_NUMB_PATH |
				IB_SA_PATH_REC_REVERSIBLE,
				timeout_ms, GFP_KERNEL, ibtrace_sa_done, q,
				&query);
	if (id < 0) {
		NL_SET_ERR_MSG(extack, "cannot send the SA PathRecord query");
		err = id;
		goto out_free;
	}

	for (;;) {
		long left = wait_for_completion_interruptible_timeout(&q->done,
				msecs_to_jiffies(IBTRACE_SA_STOP_POLL_MS));

		if (left > 0)
			break;
		if (left < 0 || ibtrace_stopped(stop) ||
		    ibtrace_dev_dead(port->dev)) {
			ib_sa_cancel_query(id, query);
			wait_for_completion(&q->done);
			err = left < 0 ? -EINTR : ibtrace_stopped(stop) ?
			      -ECANCELED : -ENODEV;
			goto out_free;
		}
	}
	err = q->status;
	if (err) {
		NL_SET_ERR_MSG(extack,
			       "SA PathRecord lookup of the DGID failed (no SM, or no path)");
		goto out_free;
	}
	path->dlid = be32_to_cpu(sa_path_get_dlid(&q->rec));
	path->sl = q->rec.sl;
out_free:
	kfree(q);
	return err;
}

/**
 * ibtrace_sa_init() - register ibtrace as an ib_sa client
 */
void ibtrace_sa_init(void)
{
	ib_sa_register_client(&ibtrace_sa_client);
}

/**
 * ibtrace_sa_exit() - unregister; waits for outstanding queries
 */
void ibtrace_sa_exit(void)
{
	ib_sa_unregister_client(&ibtrace_sa_client);
}
