// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the tracer: the path from a local port to a DLID, hop by hop.
 *
 * The walk (Documentation/ibtrace.rst, "Tracing a path"): hop 0 is the
 * local node. Directed-route SubnGet(NodeInfo) along the route so far
 * tells a node's type, GUIDs and the port the route entered by;
 * NodeDescription and PortInfo (of that port, or of port 0 on a switch)
 * give its name and LID range. A node
 * whose LID range holds the DLID ends the trace. A switch's SwitchInfo
 * (LinearFDBTop) and LinearForwardingTable block DLID/64 give the exit
 * port, whose PortInfo must say Active; the route is extended by that
 * port. Every node but the source is asked VendorGet(ClassPortInfo) at its
 * LID and, when that is answered, VendorGet(SourceRoute) with the incoming
 * ports of the route so far.
 *
 * Nothing waits for what it does not need: the walk is pipelined. A new
 * hop is asked NodeInfo, NodeDescription, PortInfo(0), SwitchInfo and
 * its LFT block at once, as if it were a switch (most hops are); once the
 * LFT names the exit port the next hop is asked, while the exit port's
 * PortInfo and the agent probes of this hop are still on their way. A
 * channel adapter answers the switch attributes with "unsupported" (or
 * they are taken back) and is asked PortInfo of its incoming port. So a
 * path costs about one round trip per hop, and a node without an agent
 * (its probes time out) delays the hops after it by nothing more than its
 * own timeout. Hops are reported in order once everything about them is
 * known; the first hop that fails ends the trace there, and whatever was
 * asked further on is taken back.
 *
 * The destination costs one round trip more: its SourceRoute needs the
 * port the walk enters it by. So once the destination's agent has answered
 * ClassPortInfo, every new hop is also sent, ahead of its NodeInfo, the
 * SourceRoute it would be sent if it were the destination: the incoming
 * ports so far and, for its own, the port a SourceRoute answer of the
 * destination last named (port 1 until one does). When the hop is the
 * destination and the walk enters it by that port, the request was the
 * very one to send, and its answer is taken; otherwise it is taken back
 * and the SourceRoute asked as usual. A switch's early SourceRoute is
 * taken back as soon as its NodeInfo says switch.
 *
 * At most IBTRACE_TRACE_WINDOW hops are in progress at once. Each
 * attribute is asked once per node; a switch met again is a loop.
 *
 * Transport (smp.c, mad.c) apart from presentation (trace_nl.c): each
 * finished hop goes to a report callback.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>
#include <rdma/ib_cache.h>

#include "ibtrace.h"
#include "ibtrace_iba.h"

/* hops in progress at once */
#define IBTRACE_TRACE_WINDOW	8

/* The questions asked of one node. */
enum ibtrace_ask {
	IBTRACE_ASK_NI,		/* NodeInfo */
	IBTRACE_ASK_ND,		/* NodeDescription */
	IBTRACE_ASK_PI,		/* PortInfo: port 0 (switch), in/local port */
	IBTRACE_ASK_SI,		/* SwitchInfo */
	IBTRACE_ASK_LFT,	/* LinearForwardingTable block DLID/64 */
	IBTRACE_ASK_PIX,	/* PortInfo of a switch's exit port */
	IBTRACE_ASK_CPI,	/* VendorGet(ClassPortInfo) */
	IBTRACE_ASK_SR,		/* VendorGet(SourceRoute) */
	IBTRACE_ASK_DSR,	/* SourceRoute to the DLID, asked ahead */
	IBTRACE_ASK_COUNT
};

/**
 * struct ibtrace_trace_q - one question and its answer
 * @req: the request and its answer
 * @call: the attempt in flight
 * @busy: posted, not finished
 * @asked: posted at least once
 * @err: 0 (answered) or how it ended, once !@busy
 */
struct ibtrace_trace_q {
	struct ibtrace_mad_req req;
	struct ibtrace_mad_call call;
	bool busy;
	bool asked;
	int err;
};

/* Where a node's walk stands. */
enum ibtrace_node_stage {
	IBTRACE_NODE_FREE,	/* slot unused */
	IBTRACE_NODE_ASKED,	/* the first questions are out */
	IBTRACE_NODE_PORT,	/* a CA: PortInfo of its incoming port is out */
	IBTRACE_NODE_EXIT,	/* a switch: PortInfo of the exit port is out */
	IBTRACE_NODE_KNOWN,	/* the node's facts are complete */
};

/* Where a node's agent probe stands. */
enum ibtrace_agent_stage {
	IBTRACE_AGENT_UNASKED,	/* not (yet) to be asked */
	IBTRACE_AGENT_ASKING,	/* ClassPortInfo or SourceRoute out */
	IBTRACE_AGENT_DONE,	/* the verdict is in hop.agent */
};

/* What ClassPortInfo to the DLID has told so far. */
enum ibtrace_dest_agent {
	IBTRACE_DEST_ASKING,	/* no answer yet */
	IBTRACE_DEST_AGENT,	/* answered: the destination has the agent */
	IBTRACE_DEST_NONE,	/* no agent there (or not asked) */
};

/**
 * struct ibtrace_trace_node - one hop in progress
 * @hop: what is known, reported when complete
 * @q: the questions, by &enum ibtrace_ask
 * @ah: address handle to the node's LID for the agent probes, or NULL
 * @stage: &enum ibtrace_node_stage
 * @agent_stage: &enum ibtrace_agent_stage
 * @is_switch: NodeInfo says switch
 * @ni_known: NodeInfo is taken into @hop (once, as it came in)
 * @ends: the trace ends at this hop, with @end_status
 * @end_status: &enum ibtrace_trace_status
 * @end_port: the port at fault, 0 if none
 * @mad_status: status of a failed SMP
 * @fdb_top: LinearFDBTop, for %IBTRACE_TRACE_NO_ROUTE_TOP
 * @dsr_port: the incoming port the early SourceRoute (%IBTRACE_ASK_DSR)
 *	carries for this hop
 * @dsr_taken: that SourceRoute is the destination's probe
 */
struct ibtrace_trace_node {
	struct ibtrace_hop hop;
	struct ibtrace_trace_q q[IBTRACE_ASK_COUNT];
	struct ib_ah *ah;
	u8 stage;
	u8 agent_stage;
	bool is_switch;
	bool ni_known;
	bool ends;
	u8 end_status;
	u8 end_port;
	u16 mad_status;
	u32 fdb_top;
	u8 dsr_port;
	bool dsr_taken;
};

/**
 * struct ibtrace_trace - one running trace
 * @tc: the port, the request, the result, where each finished hop goes
 *	and the AH of the directed-route SMPs
 * @vend: the class 0x30 exchange of a RoCE trace
 * @path: directed route, @path[1..h] the exit ports up to hop h
 * @sroute: incoming port of hops 1.., index = hop - 1
 * @seen: node GUIDs of hops 0..h, to find loops without asking twice
 * @next: the hop to start next
 * @oldest: the hop to report next
 * @start_pending: hop @next may start (its route is known) once the
 *	window has room
 * @node: the hops in progress, hop h in @node[h % IBTRACE_TRACE_WINDOW]
 * @dest_ah: address handle to the DLID, or NULL
 * @dest_cpi: ClassPortInfo to the DLID, asked when the trace starts
 * @dest_agent: &enum ibtrace_dest_agent
 * @dest_hop: the hop taken for the destination, whose SourceRoute goes
 *	out as soon as @dest_cpi is answered; -1 if none yet
 * @dest_port: the port a SourceRoute answer of the destination named, 0 if
 *	none has yet
 * @hop: the RoCE trace's hop being learnt
 */
struct ibtrace_trace {
	const struct ibtrace_trace_ctx *tc;
	struct ibtrace_mad_req vend;
	u8 path[IB_SMP_MAX_PATH_HOPS];
	u8 sroute[IBTRACE_SROUTE_MAX_HOPS];
	u64 seen[IBTRACE_TRACE_MAX_HOPS + 1];
	u32 next;
	u32 oldest;
	bool start_pending;
	struct ibtrace_trace_node node[IBTRACE_TRACE_WINDOW];
	struct ib_ah *dest_ah;
	struct ibtrace_trace_q dest_cpi;
	u8 dest_agent;
	s32 dest_hop;
	u8 dest_port;
	struct ibtrace_hop hop;
};

static struct ibtrace_trace_node *ibtrace_node(struct ibtrace_trace *t,
					       u32 h)
{
	return &t->node[h % IBTRACE_TRACE_WINDOW];
}

/* The trace ends at @n (the first such hop in path order wins). */
static void ibtrace_node_end(struct ibtrace_trace_node *n, u8 status, u8 port)
{
	if (n->ends)
		return;
	n->ends = true;
	n->end_status = status;
	n->end_port = port;
}

/* How a question that got no usable answer ends the trace at @n. */
static void ibtrace_node_end_err(struct ibtrace_trace_node *n, int err)
{
	if (err == -ENODEV)
		ibtrace_node_end(n, IBTRACE_TRACE_DEV_GONE, 0);
	else
		ibtrace_node_end(n, IBTRACE_TRACE_UNRESPONSIVE, 0);
}

/* Post @q (an SMP when @smp, else class 0x30) and count it. */
static int ibtrace_q_post(struct ibtrace_trace *t, struct ibtrace_trace_q *q,
			  bool smp)
{
	int err;

	q->call.req = &q->req;
	if (smp) {
		q->call.agent = t->tc->port->smi_agent;
		q->call.hdr_len = IB_MGMT_MAD_HDR;
		q->call.data_len = IB_MGMT_MAD_DATA;
	} else {
		q->call.agent = t->tc->port->agent;
		q->call.hdr_len = IB_MGMT_VENDOR_HDR;
		q->call.data_len = IB_MGMT_VENDOR_DATA;
	}
	err = ibtrace_mad_call_post(t->tc->port, &q->call);
	if (err)
		return err;
	q->busy = true;
	q->asked = true;
	if (smp)
		t->tc->res->smps++;
	else
		t->tc->res->vendor_mads++;
	return 0;
}

/* Take @q back if it is still out. */
static void ibtrace_q_cancel(struct ibtrace_trace *t, struct ibtrace_trace_q *q)
{
	if (!q->busy)
		return;
	ibtrace_mad_call_cancel(t->tc->port, &q->call);
	q->busy = false;
	q->err = -ECANCELED;
}

/* Post question @which of @n; a failure to post is fatal to the trace. */
static int ibtrace_ask(struct ibtrace_trace *t, struct ibtrace_trace_node *n,
		       enum ibtrace_ask which)
{
	bool smp = which < IBTRACE_ASK_CPI;
	int err;

	err = ibtrace_q_post(t, &n->q[which], smp);
	if (err)
		return err;
	if (smp)
		n->hop.smps++;
	else if (which != IBTRACE_ASK_DSR)
		n->hop.vendor_mads++;
	return 0;
}

/* SubnGet(@attr, @mod) of @n along the route to hop n->hop.index. */
static int ibtrace_ask_smp(struct ibtrace_trace *t,
			   struct ibtrace_trace_node *n,
			   enum ibtrace_ask which, __be16 attr, u32 mod)
{
	struct ibtrace_smp_route route = { .hops = n->hop.index };
	struct ibtrace_mad_req *req = &n->q[which].req;
	int err;

	memcpy(&route.path[1], &t->path[1], route.hops);
	err = ibtrace_smp_build(req, &route, IB_MGMT_METHOD_GET, attr, mod,
				NULL);
	if (err)
		return err;
	req->ah = t->tc->smp_ah;
	req->timeout_ms = t->tc->params->timeout_ms;
	req->retries = t->tc->params->retries;
	req->attempts = 0;
	return ibtrace_ask(t, n, which);
}

/*
 * A class 0x30 Get of @attr to @ah; SourceRoute carries the incoming
 * ports of hops 1..@hops.
 */
static void ibtrace_vendor_req(struct ibtrace_trace *t,
			       struct ibtrace_mad_req *req, u16 attr, u32 hops,
			       struct ib_ah *ah)
{
	u8 *sr = req->mad.data;

	ibtrace_mad_init_vendor(&req->mad, IB_MGMT_METHOD_GET, attr);
	if (attr == IBTRACE_ATTR_SOURCE_ROUTE) {
		sr[IBTRACE_SROUTE_HOP_COUNT] = hops;
		memcpy(&sr[IBTRACE_SROUTE_VECTOR], t->sroute, hops);
	}
	req->ah = ah;
	req->remote_qpn = 1;
	req->timeout_ms = t->tc->params->timeout_ms;
	req->retries = t->tc->params->retries;
	req->stop = t->tc->params->stop;
	req->attempts = 0;
}

/* A class 0x30 Get of @attr to @n's agent through @ah. */
static int ibtrace_ask_vendor(struct ibtrace_trace *t,
			      struct ibtrace_trace_node *n,
			      enum ibtrace_ask which, u16 attr, struct ib_ah *ah)
{
	ibtrace_vendor_req(t, &n->q[which].req, attr, n->hop.index, ah);
	return ibtrace_ask(t, n, which);
}

/* Start the agent probe of @n at its LID; no LID or no AH: no agent. */
static int ibtrace_agent_start(struct ibtrace_trace *t,
			       struct ibtrace_trace_node *n)
{
	struct ibtrace_path path = { .dlid = n->hop.lid };
	struct ib_ah *ah;

	n->hop.agent = IBTRACE_HOP_AGENT_NONE;
	n->agent_stage = IBTRACE_AGENT_DONE;
	if (!n->hop.lid || n->hop.lid > IBTRACE_IBA_LID_UCAST_MAX)
		return 0;
	ah = ibtrace_ah_create(t->tc->port, NULL, &path, NULL);
	if (IS_ERR(ah))
		return 0;
	n->ah = ah;
	n->agent_stage = IBTRACE_AGENT_ASKING;
	return ibtrace_ask_vendor(t, n, IBTRACE_ASK_CPI,
				  IBTRACE_ATTR_CLASS_PORT_INFO, ah);
}

/* The verdict of a SourceRoute answer. */
static void ibtrace_hop_verdict(struct ibtrace_hop *hop,
				const struct ib_vendor_mad *resp)
{
	u16 status = be16_to_cpu(resp->mad_hdr.status);

	hop->actual_port = resp->data[IBTRACE_SROUTE_ACTUAL_PORT];
	if (!status)
		hop->agent = IBTRACE_HOP_AGENT_VERIFIED;
	else if (status == IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE)
		hop->agent = IBTRACE_HOP_AGENT_MISMATCH;
}

/* The early SourceRoute of destination hop @n has ended: its verdict. */
static void ibtrace_dsr_verdict(struct ibtrace_trace_node *n)
{
	struct ibtrace_trace_q *q = &n->q[IBTRACE_ASK_DSR];

	n->agent_stage = IBTRACE_AGENT_DONE;
	if (q->err == -ENODEV) {
		ibtrace_node_end(n, IBTRACE_TRACE_DEV_GONE, 0);
		return;
	}
	n->hop.vendor_mads += q->req.attempts;
	if (q->err)
		return;
	n->hop.vendor_rtt_ns = q->req.rtt_ns;
	ibtrace_hop_verdict(&n->hop, &q->req.resp);
}

/*
 * The early SourceRoute of @n has ended. Whatever hop it was sent for, an
 * answer names the port the destination's probes arrive on: the guess for
 * the next ones.
 */
static void ibtrace_dsr_step(struct ibtrace_trace *t,
			     struct ibtrace_trace_node *n)
{
	const struct ib_vendor_mad *resp = &n->q[IBTRACE_ASK_DSR].req.resp;
	u16 status = be16_to_cpu(resp->mad_hdr.status);
	u8 port = resp->data[IBTRACE_SROUTE_ACTUAL_PORT];

	if (!n->q[IBTRACE_ASK_DSR].err && port &&
	    (!status || status == IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE))
		t->dest_port = port;
	if (n->dsr_taken)
		ibtrace_dsr_verdict(n);
}

/*
 * Destination hop @n: take its early SourceRoute if that carries the port
 * the walk entered by (it is then the request to send), else take it
 * back. True when taken.
 */
static bool ibtrace_dsr_take(struct ibtrace_trace *t,
			     struct ibtrace_trace_node *n)
{
	struct ibtrace_trace_q *q = &n->q[IBTRACE_ASK_DSR];

	if (!q->asked)
		return false;
	if (n->dsr_port != n->hop.expected_port || q->err == -ECANCELED) {
		ibtrace_q_cancel(t, q);
		return false;
	}
	n->dsr_taken = true;
	if (!q->busy)
		ibtrace_dsr_verdict(n);
	return true;
}

/* An agent question of @n has ended. */
static int ibtrace_agent_step(struct ibtrace_trace *t,
			      struct ibtrace_trace_node *n,
			      enum ibtrace_ask which)
{
	struct ibtrace_trace_q *q = &n->q[which];
	struct ibtrace_hop *hop = &n->hop;

	if (which == IBTRACE_ASK_DSR) {
		ibtrace_dsr_step(t, n);
		return 0;
	}

	if (q->err == -ENODEV) {
		ibtrace_node_end(n, IBTRACE_TRACE_DEV_GONE, 0);
		n->agent_stage = IBTRACE_AGENT_DONE;
		return 0;
	}
	if (!q->err)
		hop->vendor_rtt_ns = q->req.rtt_ns;
	if (which == IBTRACE_ASK_CPI) {
		if (q->err || q->req.resp.mad_hdr.status) {
			n->agent_stage = IBTRACE_AGENT_DONE;
			return 0;
		}
		hop->agent = IBTRACE_HOP_AGENT_FAILED;
		hop->expected_port = t->sroute[hop->index - 1];
		return ibtrace_ask_vendor(t, n, IBTRACE_ASK_SR,
					  IBTRACE_ATTR_SOURCE_ROUTE, n->ah);
	}
	if (!q->err)
		ibtrace_hop_verdict(hop, &q->req.resp);
	n->agent_stage = IBTRACE_AGENT_DONE;
	return 0;
}

/*
 * The destination's agent is asked ClassPortInfo at the DLID when the
 * trace starts, so that only its SourceRoute is left once the walk gets
 * there: the answer to that probe is the proof for whichever hop turns
 * out to hold the DLID.
 */
static int ibtrace_dest_start(struct ibtrace_trace *t)
{
	struct ibtrace_path path = { .dlid = t->tc->res->dlid };
	struct ibtrace_trace_q *q = &t->dest_cpi;
	struct ib_ah *ah;
	int err;

	t->dest_hop = -1;
	t->dest_agent = IBTRACE_DEST_NONE;
	ah = ibtrace_ah_create(t->tc->port, NULL, &path, NULL);
	if (IS_ERR(ah))
		return 0;
	t->dest_ah = ah;
	ibtrace_vendor_req(t, &q->req, IBTRACE_ATTR_CLASS_PORT_INFO, 0, ah);
	err = ibtrace_q_post(t, q, false);
	if (err)
		return err;
	t->dest_agent = IBTRACE_DEST_ASKING;
	return 0;
}

/* Ask the destination hop's SourceRoute once the agent is known there. */
static int ibtrace_dest_go(struct ibtrace_trace *t)
{
	struct ibtrace_trace_node *n;

	if (t->dest_hop < 0 || t->dest_agent == IBTRACE_DEST_ASKING)
		return 0;
	n = ibtrace_node(t, t->dest_hop);
	if (n->agent_stage != IBTRACE_AGENT_ASKING ||
	    n->q[IBTRACE_ASK_SR].asked || n->dsr_taken)
		return 0;
	n->hop.vendor_mads += t->dest_cpi.req.attempts;
	if (t->dest_cpi.req.rtt_ns && !t->dest_cpi.err)
		n->hop.vendor_rtt_ns = t->dest_cpi.req.rtt_ns;
	if (t->dest_agent == IBTRACE_DEST_NONE) {
		n->agent_stage = IBTRACE_AGENT_DONE;
		return 0;
	}
	n->hop.agent = IBTRACE_HOP_AGENT_FAILED;
	n->hop.expected_port = t->sroute[n->hop.index - 1];
	if (ibtrace_dsr_take(t, n))
		return 0;
	return ibtrace_ask_vendor(t, n, IBTRACE_ASK_SR,
				  IBTRACE_ATTR_SOURCE_ROUTE, t->dest_ah);
}

/*
 * Hop @n may be the destination: once the destination's agent is known,
 * send it now the SourceRoute it would need then, for the port a
 * destination's answer last named.
 */
static int ibtrace_dest_ahead(struct ibtrace_trace *t,
			      struct ibtrace_trace_node *n)
{
	struct ibtrace_mad_req *req = &n->q[IBTRACE_ASK_DSR].req;
	u32 h = n->hop.index;

	if (!h || t->dest_agent != IBTRACE_DEST_AGENT)
		return 0;
	n->dsr_port = t->dest_port ?: 1;
	ibtrace_vendor_req(t, req, IBTRACE_ATTR_SOURCE_ROUTE, h, t->dest_ah);
	req->mad.data[IBTRACE_SROUTE_VECTOR + h - 1] = n->dsr_port;
	return ibtrace_ask(t, n, IBTRACE_ASK_DSR);
}

/* Hop @n may be the destination: its agent is the one at the DLID. */
static int ibtrace_dest_bind(struct ibtrace_trace *t,
			     struct ibtrace_trace_node *n)
{
	n->hop.agent = IBTRACE_HOP_AGENT_NONE;
	n->agent_stage = IBTRACE_AGENT_ASKING;
	t->dest_hop = n->hop.index;
	return ibtrace_dest_go(t);
}

/* Collect the destination's ClassPortInfo answer. */
static int ibtrace_dest_step(struct ibtrace_trace *t)
{
	struct ibtrace_trace_q *q = &t->dest_cpi;
	int err;

	if (!q->busy || !ibtrace_mad_call_done(&q->call))
		return 0;
	err = ibtrace_mad_call_finish(&q->call);
	q->busy = false;
	if (err == -ETIMEDOUT && q->req.attempts <= q->req.retries)
		return ibtrace_q_post(t, q, false);
	q->busy = false;
	q->err = err;
	if (!err && !q->req.resp.mad_hdr.status)
		t->dest_agent = IBTRACE_DEST_AGENT;
	else
		t->dest_agent = IBTRACE_DEST_NONE;
	return ibtrace_dest_go(t);
}

/*
 * An SMP of @n was answered or given up: false (and the trace ended at
 * @n) unless it was answered with status 0.
 */
static bool ibtrace_smp_ok(struct ibtrace_trace_node *n, enum ibtrace_ask which)
{
	const struct ibtrace_trace_q *q = &n->q[which];
	u16 status;

	if (q->err) {
		ibtrace_node_end_err(n, q->err);
		return false;
	}
	status = be16_to_cpu(q->req.resp_smp.status & ~IB_SMP_DIRECTION);
	if (status) {
		n->mad_status = status;
		ibtrace_node_end(n, IBTRACE_TRACE_SMP_ERROR, 0);
		return false;
	}
	return true;
}

/* The answer to question @which of @n: its SMP data. */
static const void *ibtrace_smp_data(struct ibtrace_trace_node *n,
				    enum ibtrace_ask which)
{
	return n->q[which].req.resp_smp.data;
}

/* Take back the questions of @n still out. */
static void ibtrace_node_cancel(struct ibtrace_trace *t,
				struct ibtrace_trace_node *n)
{
	int i;

	for (i = 0; i < IBTRACE_ASK_COUNT; i++)
		ibtrace_q_cancel(t, &n->q[i]);
}

static void ibtrace_node_release(struct ibtrace_trace *t,
				 struct ibtrace_trace_node *n)
{
	ibtrace_node_cancel(t, n);
	if (n->ah)
		ibtrace_ah_destroy(n->ah);
	n->ah = NULL;
	n->stage = IBTRACE_NODE_FREE;
}

/* Ask hop t->next its first questions, as if it were a switch. */
static int ibtrace_node_start(struct ibtrace_trace *t)
{
	u32 h = t->next;
	struct ibtrace_trace_node *n = ibtrace_node(t, h);
	int err;

	if (h - t->oldest >= IBTRACE_TRACE_WINDOW) {
		t->start_pending = true;
		return 0;
	}
	t->start_pending = false;
	if (n->stage != IBTRACE_NODE_FREE)
		ibtrace_node_release(t, n);
	memset(n, 0, sizeof(*n));
	n->hop.index = h;
	n->hop.agent = h ? IBTRACE_HOP_AGENT_NONE : IBTRACE_HOP_AGENT_LOCAL;
	n->stage = IBTRACE_NODE_ASKED;
	t->next++;

	err = ibtrace_ask_smp(t, n, IBTRACE_ASK_NI, IB_SMP_ATTR_NODE_INFO, 0);
	if (!err)
		err = ibtrace_ask_smp(t, n, IBTRACE_ASK_ND,
				      IB_SMP_ATTR_NODE_DESC, 0);
	if (err)
		return err;
	if (!h)
		/* The source is a channel adapter: its own port's PortInfo. */
		return ibtrace_ask_smp(t, n, IBTRACE_ASK_PI,
				       IB_SMP_ATTR_PORT_INFO,
				       t->tc->port->port_num);
	err = ibtrace_ask_smp(t, n, IBTRACE_ASK_PI, IB_SMP_ATTR_PORT_INFO, 0);
	if (!err)
		err = ibtrace_ask_smp(t, n, IBTRACE_ASK_SI,
				      IB_SMP_ATTR_SWITCH_INFO, 0);
	if (!err)
		err = ibtrace_ask_smp(t, n, IBTRACE_ASK_LFT,
				      IB_SMP_ATTR_LINEAR_FORWARD_TABLE,
				      t->tc->res->dlid / IBTRACE_IBA_LFT_BLOCK);
	if (!err)
		err = ibtrace_dest_ahead(t, n);
	return err;
}

/* The route goes on from @n by @out: start the next hop. */
static int ibtrace_node_next(struct ibtrace_trace *t,
			     struct ibtrace_trace_node *n, u8 out)
{
	u32 h = n->hop.index;

	n->hop.out_port = out;
	if (h == IBTRACE_TRACE_MAX_HOPS) {
		ibtrace_node_end(n, IBTRACE_TRACE_TOO_MANY_HOPS, out);
		return 0;
	}
	t->path[h + 1] = out;
	return ibtrace_node_start(t);
}

static bool ibtrace_q_done(const struct ibtrace_trace_node *n,
			   enum ibtrace_ask which)
{
	return !n->q[which].busy;
}

/* Read the LID range from PortInfo @which; true when it holds the DLID. */
static bool ibtrace_node_lid(struct ibtrace_trace *t,
			     struct ibtrace_trace_node *n,
			     enum ibtrace_ask which)
{
	const struct ib_port_info *pi = ibtrace_smp_data(n, which);

	n->hop.lid = be16_to_cpu(pi->lid);
	n->hop.lmc = ibtrace_iba_pi_lmc(pi);
	n->hop.has_lid = true;
	return ibtrace_hop_holds(n->hop.lid, n->hop.lmc, t->tc->res->dlid);
}

/* A switch that does not hold the DLID: its exit port, or the end. */
static int ibtrace_switch_exit(struct ibtrace_trace *t,
			       struct ibtrace_trace_node *n)
{
	const struct ibtrace_iba_switch_info *si =
		ibtrace_smp_data(n, IBTRACE_ASK_SI);
	const u8 *lft = ibtrace_smp_data(n, IBTRACE_ASK_LFT);
	u32 dlid = t->tc->res->dlid, top;
	u8 out;

	top = be16_to_cpu(si->lft_top);
	if (dlid > top) {
		n->fdb_top = top;
		ibtrace_node_end(n, IBTRACE_TRACE_NO_ROUTE_TOP, 0);
		return 0;
	}
	if (!ibtrace_smp_ok(n, IBTRACE_ASK_LFT))
		return 0;
	out = lft[dlid % IBTRACE_IBA_LFT_BLOCK];
	if (out == IBTRACE_IBA_LFT_NO_PORT) {
		ibtrace_node_end(n, IBTRACE_TRACE_NO_ROUTE_UNSET, out);
		return 0;
	}
	if (!out || out > n->hop.num_ports) {
		ibtrace_node_end(n, IBTRACE_TRACE_NO_ROUTE_PORT, out);
		return 0;
	}
	n->hop.out_port = out;
	n->stage = IBTRACE_NODE_EXIT;
	return ibtrace_ask_smp(t, n, IBTRACE_ASK_PIX, IB_SMP_ATTR_PORT_INFO,
			       out);
}

/* NodeInfo of @n is in: what the node is. */
static bool ibtrace_node_info(struct ibtrace_trace *t,
			      struct ibtrace_trace_node *n)
{
	const struct ib_node_info *ni = ibtrace_smp_data(n, IBTRACE_ASK_NI);
	struct ibtrace_hop *hop = &n->hop;
	u32 h = hop->index, i;

	if (!ibtrace_smp_ok(n, IBTRACE_ASK_NI))
		return false;
	hop->smp_rtt_ns = n->q[IBTRACE_ASK_NI].req.rtt_ns;
	hop->node_type = ni->node_type;
	hop->num_ports = ni->num_ports;
	hop->node_guid = be64_to_cpu(ni->node_guid);
	hop->port_guid = be64_to_cpu(ni->port_guid);
	n->is_switch = hop->node_type == RDMA_NODE_IB_SWITCH;
	if (h) {
		hop->in_port = ni->local_port_num;
		t->sroute[h - 1] = hop->in_port;
	}
	/*
	 * Only a switch met again is a loop: a channel adapter ends the path
	 * either way (a trace between two ports of one HCA meets it twice).
	 */
	for (i = 0; n->is_switch && i < h; i++) {
		if (t->seen[i] == hop->node_guid) {
			ibtrace_node_end(n, IBTRACE_TRACE_LOOP, 0);
			return false;
		}
	}
	t->seen[h] = hop->node_guid;
	return true;
}

static void ibtrace_node_desc(struct ibtrace_trace_node *n)
{
	memcpy(n->hop.desc, ibtrace_smp_data(n, IBTRACE_ASK_ND),
	       IB_DEVICE_NODE_DESC_MAX);
}

/*
 * PortInfo of a CA's incoming port is in (@bind: its agent probe is not
 * out yet).
 */
static int ibtrace_ca_port(struct ibtrace_trace *t,
			   struct ibtrace_trace_node *n, bool bind)
{
	if (!ibtrace_node_lid(t, n, IBTRACE_ASK_PI)) {
		/* Not the destination after all: no agent verdict. */
		ibtrace_node_cancel(t, n);
		n->agent_stage = IBTRACE_AGENT_DONE;
		n->hop.agent = IBTRACE_HOP_AGENT_NONE;
		n->hop.expected_port = 0;
		n->hop.actual_port = 0;
		ibtrace_node_end(n, IBTRACE_TRACE_DEAD_END, 0);
		return 0;
	}
	ibtrace_node_end(n, IBTRACE_TRACE_OK, 0);
	return bind ? ibtrace_dest_bind(t, n) : 0;
}

/* PortInfo of a CA's incoming port, asked by number, is in. */
static int ibtrace_node_port(struct ibtrace_trace *t,
			     struct ibtrace_trace_node *n)
{
	if (!ibtrace_q_done(n, IBTRACE_ASK_PI))
		return 0;
	n->stage = IBTRACE_NODE_KNOWN;
	if (!ibtrace_smp_ok(n, IBTRACE_ASK_PI))
		return 0;
	return ibtrace_ca_port(t, n, false);
}

/* The first questions of @n are in (or, for a CA, enough of them). */
static int ibtrace_node_asked(struct ibtrace_trace *t,
			      struct ibtrace_trace_node *n)
{
	const struct ib_port_info *pi;
	u32 h = n->hop.index;
	int err;

	if (!ibtrace_q_done(n, IBTRACE_ASK_NI))
		return 0;
	if (!n->ni_known) {
		if (!ibtrace_node_info(t, n)) {
			n->stage = IBTRACE_NODE_KNOWN;
			return 0;
		}
		n->ni_known = true;
		/* An end node is what the early SourceRoute is for. */
		if (n->is_switch)
			ibtrace_q_cancel(t, &n->q[IBTRACE_ASK_DSR]);
	}
	if (!n->is_switch && h) {
		/*
		 * A CA: the switch questions are moot. The early SourceRoute
		 * stays: a CA ends the path, and that answer is what saves
		 * the destination a round trip.
		 */
		if (!ibtrace_q_done(n, IBTRACE_ASK_ND) ||
		    !ibtrace_q_done(n, IBTRACE_ASK_PI))
			return 0;
		ibtrace_q_cancel(t, &n->q[IBTRACE_ASK_SI]);
		ibtrace_q_cancel(t, &n->q[IBTRACE_ASK_LFT]);
		n->stage = IBTRACE_NODE_KNOWN;
		if (!ibtrace_smp_ok(n, IBTRACE_ASK_ND))
			return 0;
		ibtrace_node_desc(n);
		/*
		 * PortInfo(0) of a CA is that of the port the SMP came in by
		 * (IBA 14.2.5.6; LocalPortNum says which). An SMA that does
		 * not do so is asked for its incoming port by number.
		 */
		pi = ibtrace_smp_data(n, IBTRACE_ASK_PI);
		if (!n->q[IBTRACE_ASK_PI].err &&
		    !(n->q[IBTRACE_ASK_PI].req.resp_smp.status &
		      ~IB_SMP_DIRECTION) &&
		    pi->local_port_num == n->hop.in_port)
			return ibtrace_ca_port(t, n, true);
		n->stage = IBTRACE_NODE_PORT;
		/* A CA ends the path: most likely it holds the DLID. */
		return ibtrace_ask_smp(t, n, IBTRACE_ASK_PI,
				       IB_SMP_ATTR_PORT_INFO,
				       n->hop.in_port) ?:
		       ibtrace_dest_bind(t, n);
	}
	if (!ibtrace_q_done(n, IBTRACE_ASK_ND) ||
	    !ibtrace_q_done(n, IBTRACE_ASK_PI) ||
	    !ibtrace_q_done(n, IBTRACE_ASK_SI) ||
	    !ibtrace_q_done(n, IBTRACE_ASK_LFT))
		return 0;

	n->stage = IBTRACE_NODE_KNOWN;
	if (!ibtrace_smp_ok(n, IBTRACE_ASK_ND))
		return 0;
	ibtrace_node_desc(n);
	if (!ibtrace_smp_ok(n, IBTRACE_ASK_PI))
		return 0;
	if (ibtrace_node_lid(t, n, IBTRACE_ASK_PI)) {
		ibtrace_node_end(n, IBTRACE_TRACE_OK, 0);
		return h ? ibtrace_dest_bind(t, n) : 0;
	}
	if (!h) {
		/* The source leaves by the local port. */
		pi = ibtrace_smp_data(n, IBTRACE_ASK_PI);
		if (ibtrace_iba_pi_state(pi) != IB_PORT_ACTIVE) {
			ibtrace_node_end(n, IBTRACE_TRACE_PORT_DOWN,
					 t->tc->port->port_num);
			return 0;
		}
		return ibtrace_node_next(t, n, t->tc->port->port_num);
	}
	if (!n->is_switch) {
		ibtrace_node_end(n, IBTRACE_TRACE_DEAD_END, 0);
		return 0;
	}
	if (!ibtrace_smp_ok(n, IBTRACE_ASK_SI))
		return 0;
	err = ibtrace_switch_exit(t, n);
	if (err || n->ends)
		return err;
	/* On to the next hop while the exit port and the agent answer. */
	return ibtrace_node_next(t, n, n->hop.out_port) ?:
	       ibtrace_agent_start(t, n);
}

/* PortInfo of a switch's exit port is in: it must be Active. */
static void ibtrace_node_exit(struct ibtrace_trace_node *n)
{
	if (!ibtrace_q_done(n, IBTRACE_ASK_PIX))
		return;
	n->stage = IBTRACE_NODE_KNOWN;
	if (!ibtrace_smp_ok(n, IBTRACE_ASK_PIX))
		return;
	if (ibtrace_iba_pi_state(ibtrace_smp_data(n, IBTRACE_ASK_PIX)) !=
	    IB_PORT_ACTIVE)
		ibtrace_node_end(n, IBTRACE_TRACE_PORT_DOWN, n->hop.out_port);
}

/*
 * Collect the calls of @n that ib_mad is done with: an attempt that timed
 * out is sent again while retries are left. Then move @n on.
 */
static int ibtrace_node_step(struct ibtrace_trace *t,
			     struct ibtrace_trace_node *n)
{
	bool agent_news[IBTRACE_ASK_COUNT] = {};
	int i, err;

	for (i = 0; i < IBTRACE_ASK_COUNT; i++) {
		struct ibtrace_trace_q *q = &n->q[i];

		if (!q->busy || !ibtrace_mad_call_done(&q->call))
			continue;
		err = ibtrace_mad_call_finish(&q->call);
		if (err == -ETIMEDOUT && q->req.attempts <= q->req.retries) {
			q->busy = false;
			err = ibtrace_ask(t, n, i);
			if (err)
				return err;
			continue;
		}
		if (err == -EIO)
			return err;
		q->busy = false;
		q->err = err;
		if (i >= IBTRACE_ASK_CPI)
			agent_news[i] = true;
	}

	for (i = IBTRACE_ASK_CPI; i < IBTRACE_ASK_COUNT; i++) {
		if (!agent_news[i])
			continue;
		err = ibtrace_agent_step(t, n, i);
		if (err)
			return err;
	}

	switch (n->stage) {
	case IBTRACE_NODE_ASKED:
		return ibtrace_node_asked(t, n);
	case IBTRACE_NODE_PORT:
		return ibtrace_node_port(t, n);
	case IBTRACE_NODE_EXIT:
		ibtrace_node_exit(n);
		return 0;
	default:
		return 0;
	}
}

/* Everything about @n is known: it can be reported. */
static bool ibtrace_node_complete(const struct ibtrace_trace_node *n)
{
	return n->stage == IBTRACE_NODE_KNOWN &&
	       n->agent_stage != IBTRACE_AGENT_ASKING;
}

/**
 * ibtrace_trace_report() - report one hop of a trace
 * @tc: the trace
 * @hop: the hop, complete (also a failing one)
 *
 * Counts the hop in the result and gives it to the trace's report
 * callback.
 *
 * Return: what the callback returned.
 */
int ibtrace_trace_report(const struct ibtrace_trace_ctx *tc,
			 const struct ibtrace_hop *hop)
{
	tc->res->hops++;
	return tc->report(tc->report_ctx, hop);
}

/* The trace has ended at @n: say so in the result. */
static void ibtrace_trace_finish(struct ibtrace_trace *t,
				 struct ibtrace_trace_node *n)
{
	struct ibtrace_trace_result *res = t->tc->res;

	res->status = n->end_status;
	if (res->status == IBTRACE_TRACE_OK)
		return;
	res->fail_hop = n->hop.index;
	res->fail_port = n->end_port;
	res->mad_status = n->mad_status;
	res->fdb_top = n->fdb_top;
}

/* Is anything still out? */
static bool ibtrace_trace_busy(struct ibtrace_trace *t)
{
	u32 h;
	int i;

	if (t->dest_cpi.busy)
		return true;
	for (h = t->oldest; h < t->next; h++)
		for (i = 0; i < IBTRACE_ASK_COUNT; i++)
			if (ibtrace_node(t, h)->q[i].busy)
				return true;
	return false;
}

/* Has anything come back (or has the device gone)? */
static bool ibtrace_trace_news(struct ibtrace_trace *t)
{
	u32 h;
	int i;

	if (ibtrace_dev_dead(t->tc->port->dev))
		return true;
	if (t->dest_cpi.busy && ibtrace_mad_call_done(&t->dest_cpi.call))
		return true;
	for (h = t->oldest; h < t->next; h++) {
		struct ibtrace_trace_node *n = ibtrace_node(t, h);

		for (i = 0; i < IBTRACE_ASK_COUNT; i++)
			if (n->q[i].busy && ibtrace_mad_call_done(&n->q[i].call))
				return true;
	}
	return false;
}

/*
 * Run the pipeline: 0 when the trace has ended (the result says how),
 * -ECANCELED when the trace was cancelled, or another negative errno.
 */
static int ibtrace_trace_pipeline(struct ibtrace_trace *t)
{
	struct ibtrace_trace_node *n;
	u32 h;
	int err;

	err = ibtrace_dest_start(t) ?: ibtrace_node_start(t);
	if (err)
		return err;
	for (;;) {
		err = ibtrace_dest_step(t);
		if (err)
			return err;
		for (h = t->oldest; h < t->next; h++) {
			err = ibtrace_node_step(t, ibtrace_node(t, h));
			if (err)
				return err;
		}
		/* Report the hops known, in order; the first end wins. */
		while (t->oldest < t->next) {
			n = ibtrace_node(t, t->oldest);
			if (!ibtrace_node_complete(n) &&
			    !(n->ends && n->end_status == IBTRACE_TRACE_DEV_GONE))
				break;
			err = ibtrace_trace_report(t->tc, &n->hop);
			if (err)
				return err;
			if (n->ends) {
				ibtrace_trace_finish(t, n);
				return 0;
			}
			ibtrace_node_release(t, n);
			t->oldest++;
		}
		if (t->start_pending &&
		    t->next - t->oldest < IBTRACE_TRACE_WINDOW) {
			err = ibtrace_node_start(t);
			if (err)
				return err;
			continue;
		}
		if (WARN_ON_ONCE(!ibtrace_trace_busy(t)))
			return -EIO;
		/* (a job's worker takes no signals: S, not D, state) */
		if (wait_event_interruptible(t->tc->port->dev->waitq,
					     ibtrace_trace_news(t) ||
					     ibtrace_stopped(t->tc->params->stop)))
			return -EINTR;
		if (ibtrace_stopped(t->tc->params->stop) &&
		    !ibtrace_dev_dead(t->tc->port->dev))
			return -ECANCELED;
		if (ibtrace_dev_dead(t->tc->port->dev)) {
			/* The oldest hop not reported is where it ended. */
			n = ibtrace_node(t, t->oldest);
			n->ends = true;
			n->end_status = IBTRACE_TRACE_DEV_GONE;
			err = ibtrace_trace_report(t->tc, &n->hop);
			ibtrace_trace_finish(t, n);
			return err;
		}
	}
}

/* Take back every question still out and drop the AHs. */
static void ibtrace_trace_cleanup(struct ibtrace_trace *t)
{
	int i;

	for (i = 0; i < IBTRACE_TRACE_WINDOW; i++)
		if (t->node[i].stage != IBTRACE_NODE_FREE)
			ibtrace_node_release(t, &t->node[i]);
	if (t->dest_cpi.busy)
		ibtrace_mad_call_cancel(t->tc->port, &t->dest_cpi.call);
	t->dest_cpi.busy = false;
	if (t->dest_ah)
		ibtrace_ah_destroy(t->dest_ah);
	t->dest_ah = NULL;
}

/* One class 0x30 request to @ah (RoCE trace): 0 (answered), or -errno. */
static int ibtrace_trace_vendor(struct ibtrace_trace *t, struct ib_ah *ah,
				u16 attr, u32 hops)
{
	struct ibtrace_mad_req *req = &t->vend;
	int err;

	ibtrace_vendor_req(t, req, attr, hops, ah);
	err = ibtrace_mad_exchange(t->tc->port, req);
	t->hop.vendor_mads += req->attempts;
	t->tc->res->vendor_mads += req->attempts;
	if (!err)
		t->hop.vendor_rtt_ns = req->rtt_ns;
	return err;
}

/*
 * RoCE: no SMPs, so the source and the destination's agent only; nothing
 * tells the destination's port, so port 1 is expected.
 */
static int ibtrace_trace_roce_walk(struct ibtrace_trace *t,
				   struct netlink_ext_ack *extack)
{
	struct ibtrace_port *port = t->tc->port;
	struct ib_device *ibdev = port->dev->ibdev;
	const struct ib_vendor_mad *resp = &t->vend.resp;
	struct ibtrace_path path = {};
	struct ibtrace_hop *hop = &t->hop;
	union ib_gid gid;
	struct ib_ah *ah;
	int err;

	ah = ibtrace_ah_create(port, &t->tc->params->dgid, &path, extack);
	if (IS_ERR(ah))
		return PTR_ERR(ah);

	memset(hop, 0, sizeof(*hop));
	hop->agent = IBTRACE_HOP_AGENT_LOCAL;
	hop->node_type = IBTRACE_NODE_CA;
	hop->num_ports = rdma_end_port(ibdev);
	hop->node_guid = be64_to_cpu(ibdev->node_guid);
	if (!rdma_query_gid(ibdev, port->port_num, 0, &gid))
		hop->port_guid = be64_to_cpu(gid.global.interface_id);
	strscpy(hop->desc, ibdev->node_desc, sizeof(hop->desc));
	hop->out_port = port->port_num;
	err = ibtrace_trace_report(t->tc, hop);
	if (err)
		goto out;

	memset(hop, 0, sizeof(*hop));
	hop->index = 1;
	hop->agent = IBTRACE_HOP_AGENT_NONE;
	t->sroute[0] = 1;
	t->tc->res->status = IBTRACE_TRACE_UNRESPONSIVE;
	err = ibtrace_trace_vendor(t, ah, IBTRACE_ATTR_CLASS_PORT_INFO, 0);
	if (!err && !resp->mad_hdr.status) {
		hop->agent = IBTRACE_HOP_AGENT_FAILED;
		hop->expected_port = 1;
		t->tc->res->status = IBTRACE_TRACE_OK;
		err = ibtrace_trace_vendor(t, ah, IBTRACE_ATTR_SOURCE_ROUTE, 1);
		if (!err) {
			ibtrace_hop_verdict(hop, resp);
			hop->in_port = hop->actual_port;
		}
	}
	if (err == -ECANCELED)
		goto out;
	if (err == -ENODEV)
		t->tc->res->status = IBTRACE_TRACE_DEV_GONE;
	if (t->tc->res->status != IBTRACE_TRACE_OK)
		t->tc->res->fail_hop = 1;
	err = ibtrace_trace_report(t->tc, hop);
out:
	ibtrace_ah_destroy(ah);
	return err;
}

/* The unicast walk's state, for @tc: NULL when out of memory. */
static struct ibtrace_trace *
ibtrace_trace_alloc(const struct ibtrace_trace_ctx *tc)
{
	struct ibtrace_trace *t = kvzalloc(sizeof(*t), GFP_KERNEL);

	if (t)
		t->tc = tc;
	return t;
}

/* A RoCE trace: one hop, the destination's agent. */
static int ibtrace_trace_roce(const struct ibtrace_trace_ctx *tc,
			      struct netlink_ext_ack *extack)
{
	struct ibtrace_trace *t = ibtrace_trace_alloc(tc);
	int err;

	if (!t)
		return -ENOMEM;
	tc->res->one_hop = true;
	err = ibtrace_trace_roce_walk(t, extack);
	kvfree(t);
	return err;
}

/* A unicast trace on InfiniBand: the pipelined walk. */
static int ibtrace_trace_unicast(const struct ibtrace_trace_ctx *tc)
{
	struct ibtrace_trace *t = ibtrace_trace_alloc(tc);
	int err;

	if (!t)
		return -ENOMEM;
	err = ibtrace_trace_pipeline(t);
	ibtrace_trace_cleanup(t);
	kvfree(t);
	return err;
}

static bool ibtrace_trace_on_ib(struct ibtrace_port *port)
{
	return rdma_port_get_link_layer(port->dev->ibdev, port->port_num) ==
	       IB_LINK_LAYER_INFINIBAND;
}

/*
 * What refuses a trace of @params from @port whatever the destination:
 * 0, -EINVAL or -EOPNOTSUPP, with the reason in @extack.
 */
static int ibtrace_trace_refuse(struct ibtrace_port *port,
				const struct ibtrace_trace_params *params,
				struct netlink_ext_ack *extack)
{
	if (!ibtrace_trace_on_ib(port)) {
		if (!params->has_dgid) {
			NL_SET_ERR_MSG(extack,
				       "a RoCE port has no LIDs: trace a DGID");
			return -EINVAL;
		}
		if (params->mlid) {
			NL_SET_ERR_MSG(extack,
				       "a RoCE port has no multicast forwarding tables to trace");
			return -EINVAL;
		}
		return 0;
	}
	if (!port->smi_agent) {
		NL_SET_ERR_MSG(extack,
			       "the port has no SMI agent: SMPs cannot be sent");
		return -EOPNOTSUPP;
	}
	return 0;
}

/**
 * ibtrace_trace_check() - can a trace of @params start from @port?
 * @port: local port with the class 0x30 agent
 * @params: destination, timeout and retries
 * @extack: where to say why not
 *
 * What a request can be refused for at once, before the trace is started
 * as a job.
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int ibtrace_trace_check(struct ibtrace_port *port,
			const struct ibtrace_trace_params *params,
			struct netlink_ext_ack *extack)
{
	int err = ibtrace_trace_refuse(port, params, extack);

	if (err || ibtrace_trace_on_ib(port))
		return err;
	return ibtrace_addr_check(port, &params->dgid, 0, extack);
}

/**
 * ibtrace_trace_run() - trace the path to a destination
 * @port: local port with the class 0x30 agent (and an SMI agent on
 *	InfiniBand)
 * @params: destination, timeout and retries
 * @report: called with every hop once it is known (also the failing one);
 *	a non-zero return stops the trace with that error
 * @ctx: passed to @report
 * @result: how the trace ended; filled when 0 is returned
 * @extack: where to say what went wrong
 *
 * Sleeps. A trace that fails on the fabric (no route, port down, hop
 * unresponsive, SA lookup failed, device gone) returns 0 with the reason
 * in @result. Only a unicast trace allocates the pipelined walk's state;
 * a multicast trace allocates its search's (trace_mcast.c).
 *
 * Return: 0, -ECANCELED when @params->stop was set, or another negative
 * errno (bad request, out of memory, @report failed).
 */
int ibtrace_trace_run(struct ibtrace_port *port,
		      const struct ibtrace_trace_params *params,
		      ibtrace_trace_report_t report, void *ctx,
		      struct ibtrace_trace_result *result,
		      struct netlink_ext_ack *extack)
{
	struct ibtrace_trace_ctx tc = {
		.port = port, .params = params, .res = result,
		.report = report, .report_ctx = ctx,
	};
	u64 start = ktime_get_ns();
	struct ibtrace_path path = {};
	int err;

	memset(result, 0, sizeof(*result));
	err = ibtrace_trace_refuse(port, params, extack);
	if (err)
		goto out;
	if (!ibtrace_trace_on_ib(port)) {
		err = ibtrace_trace_roce(&tc, extack);
		goto out;
	}

	result->dlid = params->dlid;
	if (!result->dlid) {
		err = ibtrace_sa_path_lookup(port, &params->dgid,
					     params->timeout_ms, params->stop,
					     &path, NULL);
		if (err == -ECANCELED)
			goto out;
		if (err) {
			result->status = IBTRACE_TRACE_SA_FAILED;
			err = 0;
			goto out;
		}
		result->dlid = path.dlid;
	}

	tc.smp_ah = ibtrace_smp_ah_create(port);
	if (IS_ERR(tc.smp_ah)) {
		NL_SET_ERR_MSG(extack,
			       "cannot create an address handle for SMPs");
		err = PTR_ERR(tc.smp_ah);
		goto out;
	}
	if (params->mlid)
		err = ibtrace_trace_mcast(&tc);
	else
		err = ibtrace_trace_unicast(&tc);
	ibtrace_ah_destroy(tc.smp_ah);
out:
	result->elapsed_ns = ktime_get_ns() - start;
	return err;
}
