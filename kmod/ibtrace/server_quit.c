// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the "quit" service of the module's server (server.c), after
 * dapltest -T Q: a client asks the server to quit. The server (server.c)
 * takes no new connection from then on; this file gives the quit's
 * connection its QP (an RC connection needs one on each side: the CM
 * tells connections apart by their QP numbers) and the acceptance's
 * private data, a &struct quit_ack saying how many connections run and
 * within what time they end. Once established the connection is only
 * held; the server ends it last, when it stops.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "ep.h"
#include "quit.h"
#include "server.h"

/**
 * struct quit_srv_conn - the verbs objects of the quit's connection
 * @ep: PD and CQ of the QP (nothing is posted)
 * @ack: the acceptance's private data
 */
struct quit_srv_conn {
	struct ibtrace_ep ep;
	struct quit_ack ack;
};

/* Nothing to check past the magic and the version; no buffer, no hold. */
static int quit_srv_check(struct ibtrace_srv_conn *conn)
{
	BUILD_BUG_ON(sizeof(struct quit_req) > sizeof(conn->req));
	BUILD_BUG_ON(offsetof(struct quit_req, version) != 4);
	conn->hold_ms = 0;
	conn->mem = 0;
	return 0;
}

/* What quit_srv_setup() made, the QP first; after a failed one too. */
static void quit_srv_release(struct ibtrace_srv_conn *conn)
{
	struct quit_srv_conn *q = conn->priv;

	if (conn->id->qp)
		rdma_destroy_qp(conn->id);
	ibtrace_ep_destroy(&q->ep);
}

static int quit_srv_build(struct ibtrace_srv_conn *conn,
			  struct quit_srv_conn *q)
{
	struct ib_qp_init_attr init;
	int err;

	err = ibtrace_ep_create(&q->ep, conn->id->device, q, 2,
				IB_POLL_WORKQUEUE);
	if (err)
		return err;
	ibtrace_ep_qp_attr(&init, q->ep.cq, 1, 1, 1);
	return rdma_create_qp(conn->id, q->ep.pd, &init);
}

static int quit_srv_setup(struct ibtrace_srv_conn *conn,
			  struct rdma_conn_param *param)
{
	struct quit_srv_conn *q = conn->priv;
	u32 running, bound_ms;
	int err;

	err = quit_srv_build(conn, q);
	if (err) {
		quit_srv_release(conn);
		return err;
	}
	ibtrace_server_quit_state(&running, &bound_ms);
	q->ack = (struct quit_ack) {
		.magic = cpu_to_be32(QUIT_ACK_MAGIC),
		.version = QUIT_VERSION,
		.running = cpu_to_be32(running),
		.bound_ms = cpu_to_be32(bound_ms),
	};
	param->private_data = &q->ack;
	param->private_data_len = sizeof(q->ack);
	pr_info("server: %pI6c asks the server to quit: %u connections run, ending within %u ms\n",
		conn->peer.raw, running, bound_ms);
	return 0;
}

static int quit_srv_established(struct ibtrace_srv_conn *conn)
{
	ibtrace_server_quit_up(conn);
	return 0;
}

const struct ibtrace_srv_service ibtrace_srv_quit = {
	.name = "quit",
	.magic = QUIT_REQ_MAGIC,
	.version = QUIT_VERSION,
	.check = quit_srv_check,
	.setup = quit_srv_setup,
	.established = quit_srv_established,
	.release = quit_srv_release,
	.priv_size = sizeof(struct quit_srv_conn),
};
