// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the quit test (dapltest -T Q): ask the ibtrace server of a
 * peer host to quit, and see that it does.
 *
 * The job connects to the peer's server (peer.c) with a &struct quit_req.
 * The server accepts with a &struct quit_ack: its version, the connections
 * (tests) it still holds and the time within which they end. From then on
 * it refuses new connections; once the ones it held have ended it stops
 * listening and ends this connection last. The job waits for that end,
 * for at most the announced time plus QUIT_MARGIN_MS, and reports how
 * long it took. A cancel, the module's unload or the device's removal
 * ends the wait within peer.c's slice; the server quits all the same.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "ep.h"
#include "netlink.h"
#include "peer.h"
#include "quit.h"
#include "test.h"

/* What the server may take past its announced bound to tear down. */
#define QUIT_MARGIN_MS		10000

enum {
	QUIT_A_ACCEPTED,
	QUIT_A_STOPPED,
	QUIT_N_ASSERTS,
};

static const struct ibtrace_assert_def ibtrace_quit_asserts[] = {
	[QUIT_A_ACCEPTED] = { "dapltest-Q#01",
		"the server accepts the quit request and says what it waits for" },
	[QUIT_A_STOPPED] = { "dapltest-Q#02",
		"the server stops, ending the quit's connection, within the time it announced" },
};

/**
 * struct ibtrace_quit_data - what the server said and did (job->data,
 *	under job->base.lock)
 * @acked: the server accepted the quit (the fields below but @stopped_ns
 *	are set)
 * @server_version: the version of its answer
 * @running: connections it held besides the quit
 * @bound_ms: the time it announced for them to end
 * @stopped: it ended the connection (@stopped_ns is set)
 * @stopped_ns: from the acceptance to that end
 */
struct ibtrace_quit_data {
	bool acked;
	u32 server_version;
	u32 running;
	u32 bound_ms;
	bool stopped;
	u64 stopped_ns;
};

/**
 * struct quit_ctx - one run
 * @job: the job
 * @ep: PD and CQ of the QP (nothing is posted)
 * @qp: the connection's QP
 * @peer: the connection
 */
struct quit_ctx {
	struct ibtrace_test_job *job;
	struct ibtrace_ep ep;
	struct ib_qp *qp;
	struct ibtrace_peer peer;
};

static int quit_connect(struct quit_ctx *c)
{
	struct ib_device *ibdev = c->job->base.port->dev->ibdev;
	struct quit_req req = {
		.magic = cpu_to_be32(QUIT_REQ_MAGIC),
		.version = QUIT_VERSION,
	};
	struct rdma_conn_param param = {
		.private_data = &req,
		.private_data_len = sizeof(req),
		.retry_count = 7,
	};
	struct ib_qp_init_attr init;
	int err;

	err = ibtrace_ep_create(&c->ep, ibdev, c, 2, IB_POLL_WORKQUEUE);
	if (err)
		return err;
	ibtrace_ep_qp_attr(&init, c->ep.cq, 1, 1, 1);
	c->peer.job = c->job;
	return ibtrace_peer_connect(&c->peer, c->ep.pd, &init, &param, &c->qp);
}

/* The acceptance's private data: is it a server's answer to a quit? */
static bool quit_acked(struct quit_ctx *c)
{
	struct ibtrace_test_job *job = c->job;
	const struct ibtrace_test_args *a = &job->args;
	const struct quit_ack *ack = (const void *)c->peer.rep;
	struct ibtrace_quit_data *d = job->data;
	bool ok;

	BUILD_BUG_ON(sizeof(*ack) > IBTRACE_PEER_REP_MAX);
	ok = c->peer.rep_len >= sizeof(*ack) &&
	     be32_to_cpu(ack->magic) == QUIT_ACK_MAGIC &&
	     ack->version == QUIT_VERSION;
	if (ok) {
		mutex_lock(&job->base.lock);
		d->acked = true;
		d->server_version = ack->version;
		d->running = be32_to_cpu(ack->running);
		d->bound_ms = be32_to_cpu(ack->bound_ms);
		mutex_unlock(&job->base.lock);
		/* The user learns at once what the server waits for. */
		ibtrace_test_progress(job);
	}
	ibtrace_test_check(job, QUIT_A_ACCEPTED, ok, "a quit acknowledgment",
			   ok ? "one" : "none", "the server at port %u",
			   a->peer_port);
	if (!ok)
		ibtrace_test_fail(job,
				  "the server at %pI6c port %u accepted the connection but sent no quit acknowledgment (version %u?)",
				  a->peer_gid.raw, a->peer_port, ack->version);
	return ok;
}

/* Wait for the server to end the connection; judge how long it took. */
static void quit_wait(struct quit_ctx *c, u64 t_acked)
{
	struct ibtrace_test_job *job = c->job;
	struct ibtrace_quit_data *d = job->data;
	u32 limit = d->bound_ms + QUIT_MARGIN_MS;
	char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];
	enum rdma_cm_event_type ev;
	const char *why;
	u64 ns;
	int err;

	err = ibtrace_peer_wait_end(&c->peer, limit, &ev);
	ns = ktime_get_ns() - t_acked;
	why = ibtrace_test_stop_reason(job);
	if (err == -ECANCELED || (!err && ev == RDMA_CM_EVENT_DEVICE_REMOVAL)) {
		ibtrace_test_abort(job, "%s (waiting for the server to stop)",
				   why ?: "the device went away");
		return;
	}
	snprintf(exp, sizeof(exp), "ended within %u ms", limit);
	if (err)
		snprintf(obs, sizeof(obs), "open after %llu ms",
			 div_u64(ns, NSEC_PER_MSEC));
	else
		snprintf(obs, sizeof(obs), "ended after %llu ms",
			 div_u64(ns, NSEC_PER_MSEC));
	if (!err) {
		mutex_lock(&job->base.lock);
		d->stopped = true;
		d->stopped_ns = ns;
		mutex_unlock(&job->base.lock);
	}
	ibtrace_test_check(job, QUIT_A_STOPPED, !err, exp, obs,
			   "%u connections running at the quit", d->running);
	if (err)
		ibtrace_test_fail(job,
				  "the server at %pI6c port %u did not stop within %u ms of accepting the quit",
				  job->args.peer_gid.raw, job->args.peer_port,
				  limit);
}

static void ibtrace_quit_run(struct ibtrace_test_job *job)
{
	const char *why;
	struct quit_ctx *c;
	int err;

	c = ibtrace_test_zalloc(job, sizeof(*c));
	if (!c)
		return;
	c->job = job;
	err = quit_connect(c);
	if (err) {
		why = ibtrace_test_stop_reason(job);
		if (c->peer.why[0])
			ibtrace_test_abort(job, "%s", c->peer.why);
		else
			ibtrace_test_abort(job, "%s (connecting): %pe",
					   why ?: "cannot connect", ERR_PTR(err));
		goto out;
	}
	if (quit_acked(c))
		quit_wait(c, ktime_get_ns());
	ibtrace_test_progress(job);
out:
	ibtrace_peer_disconnect(&c->peer);
	ibtrace_ep_destroy(&c->ep);
	kvfree(c);
}

static int ibtrace_quit_check(struct ibtrace_test_args *a,
			      const struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;

	if (!a->peer) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TEST_NAME],
				    "the quit test needs the GID of a peer whose ibtrace server runs");
		return -EINVAL;
	}
	return 0;
}

static int quit_put_figures(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_quit_data *d = data;

	if (!d->acked)
		return 0;
	return nla_put_u32(skb, IBTRACE_QUIT_A_SERVER_VERSION,
			   d->server_version) ||
	       nla_put_u32(skb, IBTRACE_QUIT_A_RUNNING, d->running) ||
	       nla_put_u32(skb, IBTRACE_QUIT_A_BOUND_MS, d->bound_ms) ||
	       (d->stopped &&
		nla_put_u64_64bit(skb, IBTRACE_QUIT_A_STOPPED_NS,
				  d->stopped_ns, IBTRACE_QUIT_A_PAD));
}

/* What the server said (the peer is the framework's); job->base.lock held. */
static int ibtrace_quit_fill(struct sk_buff *skb,
			     const struct ibtrace_test_job *job,
			     enum ibtrace_test_fill what)
{
	const struct ibtrace_quit_data *d = job->data;

	if (what == IBTRACE_TEST_FILL_SUMMARY || !d->acked)
		return 0;
	return ibtrace_nl_put_nest(skb, IBTRACE_A_TEST_QUIT, quit_put_figures,
				   d) ? -EMSGSIZE : 0;
}

const struct ibtrace_test_def ibtrace_test_quit = {
	.name = "quit",
	.seed = "dapltest -T Q",
	.desc = "ask a peer's ibtrace server to quit once its running tests end",
	.needs = IBTRACE_PEER_NEEDS,
	.smp = false,
	.asserts = ibtrace_quit_asserts,
	.n_asserts = QUIT_N_ASSERTS,
	.check = ibtrace_quit_check,
	.run = ibtrace_quit_run,
	.data_size = sizeof(struct ibtrace_quit_data),
	.fill = ibtrace_quit_fill,
};
