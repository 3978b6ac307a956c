// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - a test job's RDMA CM connection to the server of an ibtrace
 * module on a peer host (server.c): the RNR test's requester in peer mode
 * (one connection per iteration, to the "rnr" service) and the perf
 * test's client (the "perf" service), with the job's PD, CQ and QP
 * attributes.
 *
 * Each step (address, route, connection) is waited for in slices, so a
 * cancel, an unload or the local device's removal ends it; a step that
 * does not finish in its time fails with a reason naming the peer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "peer.h"
#include "server.h"

#define PEER_RESOLVE_MS	3000
#define PEER_CONNECT_MS	10000
#define PEER_SLICE_MS	20

/* The reason an ibtrace server gave in its rejection, into p->rej. */
static void peer_rej(struct ibtrace_peer *p, const struct rdma_cm_event *ev)
{
	const struct ibtrace_srv_rej *rej = ev->param.conn.private_data;

	if (!rej || ev->param.conn.private_data_len < sizeof(*rej) ||
	    be32_to_cpu(rej->magic) != IBTRACE_SRV_REJ_MAGIC ||
	    rej->version != IBTRACE_SRV_REJ_VERSION)
		return;
	strscpy(p->rej, rej->text,
		min(sizeof(p->rej), sizeof(rej->text)));
}

/* Whether the connection's newest event @ev ended it. */
static bool peer_ended(enum rdma_cm_event_type ev)
{
	return ev == RDMA_CM_EVENT_DISCONNECTED ||
	       ev == RDMA_CM_EVENT_DEVICE_REMOVAL ||
	       ev == RDMA_CM_EVENT_TIMEWAIT_EXIT;
}

static int peer_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct ibtrace_peer *p = id->context;

	spin_lock(&p->lock);
	if (!peer_ended(p->event) && peer_ended(ev->event))
		p->ended_at = jiffies;
	p->event = ev->event;
	p->status = ev->status;
	if (ev->event == RDMA_CM_EVENT_ESTABLISHED) {
		p->established = true;
		p->remote_qpn = ev->param.conn.qp_num;
		p->rep_len = ev->param.conn.private_data_len;
		if (ev->param.conn.private_data)
			memcpy(p->rep, ev->param.conn.private_data,
			       min_t(u8, p->rep_len, sizeof(p->rep)));
	}
	if (ev->event == RDMA_CM_EVENT_REJECTED)
		peer_rej(p, ev);
	spin_unlock(&p->lock);
	complete(&p->done);
	return 0;
}

/* The peer's address; an fe80:: GID gets the local port's scope. */
static int peer_sockaddr(struct ibtrace_peer *p, struct sockaddr_storage *ss)
{
	const struct ibtrace_test_job *job = p->job;
	const struct in6_addr *a6 = (const void *)job->args.peer_gid.raw;
	struct sockaddr_in6 *sin6 = (void *)ss;
	struct sockaddr_in *sin = (void *)ss;
	const struct ib_gid_attr *attr;
	struct net_device *ndev;

	memset(ss, 0, sizeof(*ss));
	if (ipv6_addr_v4mapped(a6)) {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = a6->s6_addr32[3];
		sin->sin_port = htons(job->args.peer_port);
		return 0;
	}
	sin6->sin6_family = AF_INET6;
	sin6->sin6_addr = *a6;
	sin6->sin6_port = htons(job->args.peer_port);
	if (!(ipv6_addr_type(a6) & IPV6_ADDR_LINKLOCAL))
		return 0;
	attr = rdma_get_gid_attr(job->base.port->dev->ibdev, job->base.port_num, 0);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (!IS_ERR(ndev))
		sin6->sin6_scope_id = ndev->ifindex;
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
	return IS_ERR(ndev) ? PTR_ERR(ndev) : 0;
}

/*
 * Wait for the CM's answer to a step. Return: 0 with *@event and *@status
 * set, -ETIMEDOUT after @ms, -ECANCELED.
 */
static int peer_wait(struct ibtrace_peer *p, unsigned int ms,
		     enum rdma_cm_event_type *event, int *status)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	for (;;) {
		if (wait_for_completion_timeout(&p->done,
						msecs_to_jiffies(PEER_SLICE_MS)))
			break;
		if (ibtrace_test_stop_reason(p->job))
			return -ECANCELED;
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
	}
	spin_lock(&p->lock);
	*event = p->event;
	*status = p->status;
	spin_unlock(&p->lock);
	return 0;
}

/* A plain reason for a failed step, in p->why; return the error. */
static int peer_failed(struct ibtrace_peer *p, const char *step, int err,
		       enum rdma_cm_event_type event, int status)
{
	const struct ibtrace_test_job *job = p->job;
	const char *what;
	char buf[48];

	if (err == -ECANCELED)
		return err;
	if (err == -ETIMEDOUT) {
		what = "timed out";
	} else if (err) {
		snprintf(buf, sizeof(buf), "error %d", err);
		what = buf;
	} else if (event == RDMA_CM_EVENT_REJECTED &&
		   status == IB_CM_REJ_INVALID_SERVICE_ID) {
		what = "connection refused (is its server started? ibtracectl server start)";
	} else if (event == RDMA_CM_EVENT_REJECTED && p->rej[0]) {
		snprintf(p->why, sizeof(p->why),
			 "the ibtrace server at %pI6c port %u refused: %s (%s)",
			 job->args.peer_gid.raw, job->args.peer_port, p->rej,
			 step);
		return -ENOTCONN;
	} else if (event == RDMA_CM_EVENT_REJECTED) {
		snprintf(buf, sizeof(buf), "rejected (%s)",
			 rdma_reject_msg(p->id, status));
		what = buf;
	} else if (event == RDMA_CM_EVENT_UNREACHABLE) {
		what = "unreachable (timed out)";
	} else {
		snprintf(buf, sizeof(buf), "%s, status %d",
			 rdma_event_msg(event), status);
		what = buf;
	}
	snprintf(p->why, sizeof(p->why),
		 "no ibtrace server at %pI6c port %u: %s (%s)",
		 job->args.peer_gid.raw, job->args.peer_port, what, step);
	return err ?: -ENOTCONN;
}

/*
 * The wait for one step, started with the result @err: up to @ms for the
 * event @want. Return: 0, or the error of peer_failed().
 */
static int peer_step(struct ibtrace_peer *p, const char *step, int err,
		     unsigned int ms, enum rdma_cm_event_type want)
{
	enum rdma_cm_event_type ev = 0;
	int status = 0;

	if (!err)
		err = peer_wait(p, ms, &ev, &status);
	if (!err && ev != want && want == RDMA_CM_EVENT_ESTABLISHED) {
		/* Up, then down before this thread looked (the server ended it). */
		spin_lock(&p->lock);
		if (p->established)
			ev = want;
		spin_unlock(&p->lock);
	}
	if (err || ev != want)
		return peer_failed(p, step, err, ev, status);
	return 0;
}

/**
 * ibtrace_peer_connect - connect a QP to the peer's server
 * @p: the connection (@p->job and @p->qp_ready set; the rest is set here)
 * @pd: the job's PD
 * @init: the QP's creation attributes (the job's CQs)
 * @param: the connection request (private data naming the service)
 * @qp: the QP, when connected
 *
 * Return: 0, -ECANCELED (the job must stop), or another error with
 * @p->why saying why. On error nothing is left.
 */
int ibtrace_peer_connect(struct ibtrace_peer *p, struct ib_pd *pd,
			 struct ib_qp_init_attr *init,
			 struct rdma_conn_param *param,
			 struct ib_qp **qp)
{
	struct ibtrace_test_job *job = p->job;
	struct sockaddr_storage dst;
	int err;

	p->why[0] = '\0';
	p->rej[0] = '\0';
	memset(p->rep, 0, sizeof(p->rep));
	p->rep_len = 0;
	p->established = false;
	spin_lock_init(&p->lock);
	init_completion(&p->done);
	err = peer_sockaddr(p, &dst);
	if (err)
		return peer_failed(p, "local netdev", err, 0, 0);
	p->id = rdma_create_id(&init_net, peer_handler, p, RDMA_PS_TCP,
			       IB_QPT_RC);
	if (IS_ERR(p->id)) {
		err = PTR_ERR(p->id);
		p->id = NULL;
		return peer_failed(p, "create ID", err, 0, 0);
	}

	/* Before the route: on RoCE it makes the path's packet lifetime. */
	err = p->ack_timeout ? rdma_set_ack_timeout(p->id, p->ack_timeout) : 0;
	if (err) {
		err = peer_failed(p, "set the ACK timeout", err, 0, 0);
		goto err_destroy;
	}
	err = peer_step(p, "address resolution",
			rdma_resolve_addr(p->id, NULL,
					  (struct sockaddr *)&dst,
					  PEER_RESOLVE_MS),
			PEER_RESOLVE_MS + 1000, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (err)
		goto err_destroy;
	if (p->id->device != job->base.port->dev->ibdev ||
	    p->id->port_num != job->base.port_num) {
		snprintf(p->why, sizeof(p->why),
			 "the route to %pI6c goes out of %s port %u, not the job's %s port %u",
			 job->args.peer_gid.raw, dev_name(&p->id->device->dev),
			 p->id->port_num, job->base.dev_name, job->base.port_num);
		err = -EXDEV;
		goto err_destroy;
	}
	p->ifindex = p->id->route.addr.dev_addr.bound_dev_if;

	reinit_completion(&p->done);
	err = peer_step(p, "route resolution",
			rdma_resolve_route(p->id, PEER_RESOLVE_MS),
			PEER_RESOLVE_MS + 1000, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (err)
		goto err_destroy;

	err = rdma_create_qp(p->id, pd, init);
	if (err) {
		err = peer_failed(p, "create QP", err, 0, 0);
		goto err_destroy;
	}
	if (p->qp_ready) {
		err = p->qp_ready(p, p->id->qp);
		if (err) {
			err = peer_failed(p, "prepare QP", err, 0, 0);
			goto err_destroy_qp;
		}
	}
	reinit_completion(&p->done);
	err = peer_step(p, "connect", rdma_connect(p->id, param),
			PEER_CONNECT_MS, RDMA_CM_EVENT_ESTABLISHED);
	if (err)
		goto err_destroy_qp;
	*qp = p->id->qp;
	return 0;

err_destroy_qp:
	rdma_destroy_qp(p->id);
err_destroy:
	rdma_destroy_id(p->id);
	p->id = NULL;
	return err;
}

static enum rdma_cm_event_type peer_event(struct ibtrace_peer *p)
{
	enum rdma_cm_event_type ev;

	spin_lock(&p->lock);
	ev = p->event;
	spin_unlock(&p->lock);
	return ev;
}

/**
 * ibtrace_peer_wait_end - wait until the connection ends
 * @p: the connection, connected
 * @ms: for at most this long
 * @event: the event that ended it (the peer's disconnect, or the local
 *	device's removal)
 *
 * Return: 0 with @event set, -ETIMEDOUT (still connected after @ms), or
 * -ECANCELED (the job must stop).
 */
int ibtrace_peer_wait_end(struct ibtrace_peer *p, unsigned int ms,
			  enum rdma_cm_event_type *event)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	enum rdma_cm_event_type ev;
	int status, err;
	long left;

	for (;;) {
		ev = peer_event(p);
		if (peer_ended(ev)) {
			*event = ev;
			return 0;
		}
		left = (long)(end - jiffies);
		if (left <= 0)
			return -ETIMEDOUT;
		/* Each event completes @p->done once: none is missed. */
		err = peer_wait(p, jiffies_to_msecs(left) + 1, &ev, &status);
		if (err == -ECANCELED)
			return err;
	}
}

/**
 * ibtrace_peer_lost - whether the peer ended the connection (or its device went)
 * @p: the connection, connected
 * @during: what was under way ("the SEND"), for @p->why
 *
 * If so, @p->why says so.
 *
 * Return: true if the connection is gone.
 */
bool ibtrace_peer_lost(struct ibtrace_peer *p, const char *during)
{
	enum rdma_cm_event_type ev = peer_event(p);

	if (!peer_ended(ev))
		return false;
	snprintf(p->why, sizeof(p->why),
		 "the server at %pI6c port %u went away during %s (%s)",
		 p->job->args.peer_gid.raw, p->job->args.peer_port, during,
		 rdma_event_msg(ev));
	return true;
}

/**
 * ibtrace_peer_ended_for - whether the connection ended at least @ms ago
 * @p: the connection
 * @ms: how long ago at least
 *
 * The CM's disconnect request travels on the GSI QP, not in order with
 * the RC data: what the peer sent before it may still be completing here.
 * A waiter that gives the connection's end @ms before it gives up does not
 * lose that data, and does not wait for what can no longer come.
 *
 * Return: true if the peer (or the local device) ended the connection
 * at least @ms ago.
 */
bool ibtrace_peer_ended_for(struct ibtrace_peer *p, unsigned int ms)
{
	bool ended;

	spin_lock(&p->lock);
	ended = peer_ended(p->event) &&
		time_after_eq(jiffies, p->ended_at + msecs_to_jiffies(ms));
	spin_unlock(&p->lock);
	return ended;
}

/**
 * ibtrace_peer_disconnect - disconnect and destroy what ibtrace_peer_connect() made
 * @p: the connection; nothing happens if it is not connected
 */
void ibtrace_peer_disconnect(struct ibtrace_peer *p)
{
	if (!p->id)
		return;
	rdma_disconnect(p->id);
	rdma_destroy_qp(p->id);
	rdma_destroy_id(p->id);
	p->id = NULL;
}
