// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the tracer: the path from a local port to a DLID, hop by hop.
 *
 * The walk (DESIGN.md section 3): hop 0 is the local node. At every hop a
 * directed-route SubnGet(NodeInfo) along the route so far tells the node's
 * type, GUIDs and the port the route entered by; NodeDescription and
 * PortInfo (of that port, or of port 0 on a switch) give its name and LID
 * range. A node whose LID range holds the DLID ends the trace. A switch's
 * SwitchInfo (LinearFDBTop) and LinearForwardingTable block DLID/64 give
 * the exit port, whose PortInfo must say Active; the route is extended by
 * that port. Every node but the source is asked VendorGet(ClassPortInfo)
 * at its LID and, when that is answered, VendorGet(SourceRoute) with the
 * incoming ports of the route so far.
 *
 * Six SMPs per switch and three per channel adapter, each asked once: the
 * node GUIDs already on the path are kept, so a switch met again ends the
 * trace as a loop instead of being asked again.
 *
 * Transport (smp.c, mad.c) apart from presentation (trace_nl.c): each
 * finished hop goes to a report callback.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/slab.h>
#include <asm/unaligned.h>
#include <rdma/ib_cache.h>

#include "ibtrace.h"

/* Offsets in the SMP data of the attributes we read (IBA 14.2.5). */
#define IBTRACE_NI_NODE_TYPE	2
#define IBTRACE_NI_NUM_PORTS	3
#define IBTRACE_NI_NODE_GUID	12
#define IBTRACE_NI_PORT_GUID	20
#define IBTRACE_NI_LOCAL_PORT	36
#define IBTRACE_PI_LID		16
#define IBTRACE_PI_STATE	32	/* low nibble */
#define IBTRACE_PI_LMC		34	/* low 3 bits */
#define IBTRACE_SI_LFDB_TOP	6
#define IBTRACE_LFT_BLOCK	64	/* entries per LinearForwardingTable block */
#define IBTRACE_LFT_UNSET	0xff

/* Internal return value: the trace has ended, the result says how. */
#define IBTRACE_TRACE_DONE	1

/**
 * struct ibtrace_trace - one running trace
 * @port: the local port
 * @params: what the user asked for
 * @res: the result being built
 * @report: called with each finished hop
 * @report_ctx: passed to @report
 * @smp: the SMP exchange (its AH: permissive DLID)
 * @vend: the class 0x30 exchange
 * @path: directed route, @path[1..h] the exit ports up to hop h
 * @sroute: expected incoming port of hops 1.., index = hop - 1
 * @seen: node GUIDs of hops 0..h, to find loops without asking twice
 * @hop: the hop being learnt
 */
struct ibtrace_trace {
	struct ibtrace_port *port;
	const struct ibtrace_trace_params *params;
	struct ibtrace_trace_result *res;
	ibtrace_trace_report_t report;
	void *report_ctx;
	struct ibtrace_mad_req smp;
	struct ibtrace_mad_req vend;
	u8 path[IB_SMP_MAX_PATH_HOPS];
	u8 sroute[IBTRACE_SROUTE_MAX_HOPS];
	u64 seen[IBTRACE_TRACE_MAX_HOPS + 1];
	struct ibtrace_hop hop;
};

static int ibtrace_trace_end(struct ibtrace_trace *t, u8 status, u8 port)
{
	t->res->status = status;
	if (status != IBTRACE_TRACE_OK) {
		t->res->fail_hop = t->hop.index;
		t->res->fail_port = port;
	}
	return IBTRACE_TRACE_DONE;
}

/* SubnGet along @t->path[1..@hops]; 0, IBTRACE_TRACE_DONE or -errno. */
static int ibtrace_trace_smp(struct ibtrace_trace *t, u8 hops, __be16 attr,
			     u32 mod)
{
	struct ibtrace_mad_req *req = &t->smp;
	u16 status;
	int err;

	err = ibtrace_smp_get(t->port, req, t->path, hops, attr, mod);
	t->hop.smps += req->attempts;
	t->res->smps += req->attempts;
	if (err == -ETIMEDOUT)
		return ibtrace_trace_end(t, IBTRACE_TRACE_UNRESPONSIVE, 0);
	if (err == -ENODEV)
		return ibtrace_trace_end(t, IBTRACE_TRACE_DEV_GONE, 0);
	if (err)
		return err;
	if (attr == IB_SMP_ATTR_NODE_INFO)
		t->hop.smp_rtt_ns = req->rtt_ns;
	status = be16_to_cpu(req->resp_smp.status & ~IB_SMP_DIRECTION);
	if (status) {
		t->res->mad_status = status;
		return ibtrace_trace_end(t, IBTRACE_TRACE_SMP_ERROR, 0);
	}
	return 0;
}

/* One class 0x30 request to @ah: 0 (answered), or -errno. */
static int ibtrace_trace_vendor(struct ibtrace_trace *t, struct ib_ah *ah,
				u16 attr, u32 hops)
{
	struct ibtrace_mad_req *req = &t->vend;
	u8 *sr = req->mad.data;
	int err;

	ibtrace_mad_init_vendor(&req->mad, IBTRACE_METHOD_GET, attr);
	if (attr == IBTRACE_ATTR_SOURCE_ROUTE) {
		sr[IBTRACE_SR_HOP_COUNT] = hops;
		memcpy(&sr[IBTRACE_SR_VECTOR], t->sroute, hops);
	}
	req->ah = ah;
	req->remote_qpn = 1;
	req->attempts = 0;
	err = ibtrace_mad_exchange(t->port, req);
	t->hop.vendor_mads += req->attempts;
	t->res->vendor_mads += req->attempts;
	if (!err)
		t->hop.vendor_rtt_ns = req->rtt_ns;
	return err;
}

/*
 * Ask hop @hops's agent: ClassPortInfo, then SourceRoute with the
 * incoming ports so far. A node without an agent is not an error.
 */
static int ibtrace_trace_agent(struct ibtrace_trace *t, struct ib_ah *ah,
			       u32 hops)
{
	struct ibtrace_hop *hop = &t->hop;
	const struct ib_vendor_mad *resp = &t->vend.resp;
	u16 status;
	int err;

	hop->agent = IBTRACE_HOP_AGENT_NONE;
	err = ibtrace_trace_vendor(t, ah, IBTRACE_ATTR_CLASS_PORT_INFO, 0);
	if (err == -EINTR)
		return err;
	if (err == -ENODEV)
		return ibtrace_trace_end(t, IBTRACE_TRACE_DEV_GONE, 0);
	if (err || resp->mad_hdr.status)
		return 0;

	hop->agent = IBTRACE_HOP_AGENT_FAILED;
	hop->expected_port = t->sroute[hops - 1];
	err = ibtrace_trace_vendor(t, ah, IBTRACE_ATTR_SOURCE_ROUTE, hops);
	if (err == -EINTR)
		return err;
	if (err == -ENODEV)
		return ibtrace_trace_end(t, IBTRACE_TRACE_DEV_GONE, 0);
	if (err)
		return 0;
	status = be16_to_cpu(resp->mad_hdr.status);
	hop->actual_port = resp->data[IBTRACE_SR_ACTUAL_PORT];
	if (!status)
		hop->agent = IBTRACE_HOP_AGENT_VERIFIED;
	else if (status == IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE)
		hop->agent = IBTRACE_HOP_AGENT_MISMATCH;
	return 0;
}

/* The agent of the hop being learnt, at its LID; skipped without one. */
static int ibtrace_trace_agent_lid(struct ibtrace_trace *t)
{
	struct ibtrace_path path = { .dlid = t->hop.lid };
	struct ib_ah *ah;
	int err;

	t->hop.agent = IBTRACE_HOP_AGENT_NONE;
	if (!t->hop.lid || t->hop.lid > IBTRACE_MAX_UNICAST_LID)
		return 0;
	ah = ibtrace_ah_create(t->port, NULL, &path, NULL);
	if (IS_ERR(ah))
		return 0;
	err = ibtrace_trace_agent(t, ah, t->hop.index);
	ibtrace_ah_destroy(ah);
	return err;
}

static bool ibtrace_hop_holds(const struct ibtrace_hop *hop, u32 dlid)
{
	return hop->has_lid && hop->lid &&
	       dlid >= hop->lid && dlid - hop->lid < (1U << hop->lmc);
}

/* A switch: the exit port for the DLID, checked to be Active. */
static int ibtrace_trace_switch(struct ibtrace_trace *t, u8 h, u8 *exit_port)
{
	const u8 *d = t->smp.resp_smp.data;
	u32 dlid = t->res->dlid;
	u8 out, state;
	u32 top;
	int err;

	err = ibtrace_trace_smp(t, h, IB_SMP_ATTR_SWITCH_INFO, 0);
	if (err)
		return err;
	top = get_unaligned_be16(d + IBTRACE_SI_LFDB_TOP);
	if (dlid > top) {
		t->res->fdb_top = top;
		return ibtrace_trace_end(t, IBTRACE_TRACE_NO_ROUTE_TOP, 0);
	}

	err = ibtrace_trace_smp(t, h, IB_SMP_ATTR_LINEAR_FORWARD_TABLE,
				dlid / IBTRACE_LFT_BLOCK);
	if (err)
		return err;
	out = d[dlid % IBTRACE_LFT_BLOCK];
	if (out == IBTRACE_LFT_UNSET)
		return ibtrace_trace_end(t, IBTRACE_TRACE_NO_ROUTE_UNSET, out);
	if (!out || out > t->hop.num_ports)
		return ibtrace_trace_end(t, IBTRACE_TRACE_NO_ROUTE_PORT, out);

	err = ibtrace_trace_smp(t, h, IB_SMP_ATTR_PORT_INFO, out);
	if (err)
		return err;
	state = d[IBTRACE_PI_STATE] & 0xf;
	if (state != IB_PORT_ACTIVE)
		return ibtrace_trace_end(t, IBTRACE_TRACE_PORT_DOWN, out);
	*exit_port = out;
	return 0;
}

/*
 * Learn hop @h: 0 when the path goes on (t->hop.out_port set),
 * IBTRACE_TRACE_DONE when the trace ended there, or -errno.
 */
static int ibtrace_trace_hop(struct ibtrace_trace *t, u8 h)
{
	struct ibtrace_hop *hop = &t->hop;
	const u8 *d = t->smp.resp_smp.data;
	u8 exit_port = 0, state, pi_port, i;
	bool is_switch;
	int err;

	memset(hop, 0, sizeof(*hop));
	hop->index = h;
	hop->agent = h ? IBTRACE_HOP_AGENT_NONE : IBTRACE_HOP_AGENT_LOCAL;

	err = ibtrace_trace_smp(t, h, IB_SMP_ATTR_NODE_INFO, 0);
	if (err)
		return err;
	hop->node_type = d[IBTRACE_NI_NODE_TYPE];
	hop->num_ports = d[IBTRACE_NI_NUM_PORTS];
	hop->node_guid = get_unaligned_be64(d + IBTRACE_NI_NODE_GUID);
	hop->port_guid = get_unaligned_be64(d + IBTRACE_NI_PORT_GUID);
	if (h) {
		hop->in_port = d[IBTRACE_NI_LOCAL_PORT];
		t->sroute[h - 1] = hop->in_port;
	}
	/*
	 * Only a switch met again is a loop: a channel adapter ends the path
	 * either way (a trace between two ports of one HCA meets it twice).
	 */
	is_switch = hop->node_type == RDMA_NODE_IB_SWITCH;
	for (i = 0; is_switch && i < h; i++)
		if (t->seen[i] == hop->node_guid)
			return ibtrace_trace_end(t, IBTRACE_TRACE_LOOP, 0);
	t->seen[h] = hop->node_guid;

	err = ibtrace_trace_smp(t, h, IB_SMP_ATTR_NODE_DESC, 0);
	if (err)
		return err;
	memcpy(hop->desc, d, IB_DEVICE_NODE_DESC_MAX);

	if (is_switch)
		pi_port = 0;
	else
		pi_port = h ? hop->in_port : t->port->port_num;
	err = ibtrace_trace_smp(t, h, IB_SMP_ATTR_PORT_INFO, pi_port);
	if (err)
		return err;
	hop->lid = get_unaligned_be16(d + IBTRACE_PI_LID);
	hop->lmc = d[IBTRACE_PI_LMC] & 0x7;
	hop->has_lid = true;
	state = d[IBTRACE_PI_STATE] & 0xf;

	if (ibtrace_hop_holds(hop, t->res->dlid)) {
		if (h) {
			err = ibtrace_trace_agent_lid(t);
			if (err)
				return err;
		}
		return ibtrace_trace_end(t, IBTRACE_TRACE_OK, 0);
	}

	if (!is_switch && h)
		return ibtrace_trace_end(t, IBTRACE_TRACE_DEAD_END, 0);
	if (is_switch) {
		err = ibtrace_trace_switch(t, h, &exit_port);
		if (err)
			return err;
		err = ibtrace_trace_agent_lid(t);
		if (err)
			return err;
	} else {
		/* The source leaves by the local port. */
		exit_port = t->port->port_num;
		if (state != IB_PORT_ACTIVE)
			return ibtrace_trace_end(t, IBTRACE_TRACE_PORT_DOWN,
						 exit_port);
	}
	hop->out_port = exit_port;
	return 0;
}

static int ibtrace_trace_report(struct ibtrace_trace *t)
{
	t->res->hops++;
	return t->report(t->report_ctx, &t->hop);
}

static int ibtrace_trace_walk(struct ibtrace_trace *t)
{
	u8 h;
	int err, rep;

	for (h = 0; ; h++) {
		err = ibtrace_trace_hop(t, h);
		if (err < 0)
			return err;
		rep = ibtrace_trace_report(t);
		if (rep)
			return rep;
		if (err == IBTRACE_TRACE_DONE)
			return 0;
		if (h == IBTRACE_TRACE_MAX_HOPS) {
			ibtrace_trace_end(t, IBTRACE_TRACE_TOO_MANY_HOPS,
					  t->hop.out_port);
			return 0;
		}
		t->path[h + 1] = t->hop.out_port;
	}
}

/* RoCE: no SMPs, so the source and the destination's agent only. */
static int ibtrace_trace_roce(struct ibtrace_trace *t,
			      struct netlink_ext_ack *extack)
{
	struct ibtrace_port *port = t->port;
	struct ib_device *ibdev = port->dev->ibdev;
	struct ibtrace_path path = {};
	struct ibtrace_hop *hop = &t->hop;
	union ib_gid gid;
	struct ib_ah *ah;
	int err;

	ah = ibtrace_ah_create(port, &t->params->dgid, &path, extack);
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
	err = ibtrace_trace_report(t);
	if (err)
		goto out;

	memset(hop, 0, sizeof(*hop));
	hop->index = 1;
	/* Nothing tells the destination's port: expect port 1. */
	t->sroute[0] = 1;
	err = ibtrace_trace_agent(t, ah, 1);
	if (err < 0)
		goto out;
	if (hop->actual_port)
		hop->in_port = hop->actual_port;
	if (err != IBTRACE_TRACE_DONE) {
		if (hop->agent == IBTRACE_HOP_AGENT_NONE)
			ibtrace_trace_end(t, IBTRACE_TRACE_UNRESPONSIVE, 0);
		else
			ibtrace_trace_end(t, IBTRACE_TRACE_OK, 0);
	}
	err = ibtrace_trace_report(t);
out:
	ibtrace_ah_destroy(ah);
	return err;
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
 * in @result.
 *
 * Return: 0, -EINTR on a signal, or another negative errno (bad request,
 * out of memory, @report failed).
 */
int ibtrace_trace_run(struct ibtrace_port *port,
		      const struct ibtrace_trace_params *params,
		      ibtrace_trace_report_t report, void *ctx,
		      struct ibtrace_trace_result *result,
		      struct netlink_ext_ack *extack)
{
	u64 start = ktime_get_ns();
	struct ibtrace_path path = {};
	struct ibtrace_trace *t;
	int err;

	memset(result, 0, sizeof(*result));
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->port = port;
	t->params = params;
	t->res = result;
	t->report = report;
	t->report_ctx = ctx;
	t->smp.timeout_ms = params->timeout_ms;
	t->smp.retries = params->retries;
	t->vend.timeout_ms = params->timeout_ms;
	t->vend.retries = params->retries;

	if (rdma_port_get_link_layer(port->dev->ibdev, port->port_num) !=
	    IB_LINK_LAYER_INFINIBAND) {
		if (!params->has_dgid) {
			NL_SET_ERR_MSG(extack,
				       "a RoCE port has no LIDs: trace a DGID");
			err = -EINVAL;
			goto out;
		}
		result->one_hop = true;
		err = ibtrace_trace_roce(t, extack);
		goto out;
	}
	if (!port->smi_agent) {
		NL_SET_ERR_MSG(extack,
			       "the port has no SMI agent: SMPs cannot be sent");
		err = -EOPNOTSUPP;
		goto out;
	}

	result->dlid = params->dlid;
	if (!result->dlid) {
		err = ibtrace_sa_path_lookup(port, &params->dgid,
					     params->timeout_ms, &path, NULL);
		if (err == -EINTR)
			goto out;
		if (err) {
			result->status = IBTRACE_TRACE_SA_FAILED;
			err = 0;
			goto out;
		}
		result->dlid = path.dlid;
	}

	t->smp.ah = ibtrace_smp_ah_create(port);
	if (IS_ERR(t->smp.ah)) {
		NL_SET_ERR_MSG(extack,
			       "cannot create an address handle for SMPs");
		err = PTR_ERR(t->smp.ah);
		goto out;
	}
	err = ibtrace_trace_walk(t);
	ibtrace_ah_destroy(t->smp.ah);
out:
	result->elapsed_ns = ktime_get_ns() - start;
	kfree(t);
	return err;
}
