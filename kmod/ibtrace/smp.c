// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - SMPs from a local port: directed-route SubnGet for the
 * tracer; SubnGet and SubnSet, directed-route or LID-routed, for the
 * conformance tests.
 *
 * Every InfiniBand port gets a send-only agent on QP0: it registers for no
 * class, so ib_mad hands it only the answers to its own requests (matched
 * by TID). ib_mad does the directed-route send processing (hop pointer,
 * local SMPs answered by the device's SMA without touching the wire); the
 * wait, timeout and retry logic is mad.c's, one ib_mad attempt per try.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "ibtrace.h"

static void ibtrace_smp_recv(struct ib_mad_agent *agent,
			     struct ib_mad_send_buf *send_buf,
			     struct ib_mad_recv_wc *mad_recv_wc)
{
	if (send_buf) {
		/* The answer to one of our requests; mad.c frees it. */
		ibtrace_mad_recv_response(agent->context, send_buf,
					  mad_recv_wc);
		return;
	}
	ib_free_recv_mad(mad_recv_wc);
}

static void ibtrace_smp_send_done(struct ib_mad_agent *agent,
				  struct ib_mad_send_wc *mad_send_wc)
{
	ibtrace_mad_send_done(agent->context, mad_send_wc);
}

/**
 * ibtrace_smp_register() - register the port's send-only SMI agent
 * @port: a port with an SMI (InfiniBand)
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_smp_register(struct ibtrace_port *port)
{
	return ibtrace_mad_agent_register(port, IB_QPT_SMI, NULL,
					  ibtrace_smp_send_done,
					  ibtrace_smp_recv, &port->smi_agent);
}

/**
 * ibtrace_smp_unregister() - unregister the port's SMI agent, if any
 * @port: the port
 */
void ibtrace_smp_unregister(struct ibtrace_port *port)
{
	ibtrace_mad_agent_unregister(&port->smi_agent);
}

/**
 * ibtrace_smp_ah_create() - address handle for directed-route SMPs
 * @port: a port with an SMI agent
 *
 * Directed-route SMPs leave with the permissive DLID; the route is in the
 * SMP itself.
 *
 * Return: the AH (release with ibtrace_ah_destroy()) or an ERR_PTR.
 */
struct ib_ah *ibtrace_smp_ah_create(struct ibtrace_port *port)
{
	return ibtrace_smp_lid_ah_create(port, be16_to_cpu(IB_LID_PERMISSIVE));
}

/**
 * ibtrace_smp_lid_ah_create() - address handle for LID-routed SMPs
 * @port: a port with an SMI agent
 * @dlid: LID of the node to reach
 *
 * Return: the AH (release with ibtrace_ah_destroy()) or an ERR_PTR.
 */
struct ib_ah *ibtrace_smp_lid_ah_create(struct ibtrace_port *port, u32 dlid)
{
	struct ib_device *ibdev = port->dev->ibdev;
	struct rdma_ah_attr ah_attr = {};

	if (!port->smi_agent)
		return ERR_PTR(-EOPNOTSUPP);
	ah_attr.type = rdma_ah_find_type(ibdev, port->port_num);
	rdma_ah_set_port_num(&ah_attr, port->port_num);
	rdma_ah_set_dlid(&ah_attr, dlid);
	return rdma_create_ah(port->smi_agent->qp->pd, &ah_attr,
			      RDMA_CREATE_AH_SLEEPABLE);
}

/**
 * ibtrace_smp_build() - write an SMP into a request
 * @req: the request; its MAD becomes the SMP, remote QP 0
 * @route: how the SMP reaches the node
 * @method: %IB_MGMT_METHOD_GET or %IB_MGMT_METHOD_SET
 * @attr_id: SMP attribute ID
 * @attr_mod: attribute modifier
 * @data: %IB_SMP_DATA_SIZE bytes of attribute data for a Set, or NULL
 *
 * Return: 0, or -EINVAL for a bad hop count.
 */
int ibtrace_smp_build(struct ibtrace_mad_req *req,
		      const struct ibtrace_smp_route *route, u8 method,
		      __be16 attr_id, u32 attr_mod, const void *data)
{
	struct ib_smp *smp = &req->smp;

	if (!route->lid && route->hops > IBTRACE_TRACE_MAX_HOPS)
		return -EINVAL;
	memset(smp, 0, sizeof(*smp));
	smp->base_version = IB_MGMT_BASE_VERSION;
	smp->class_version = 1;
	smp->method = method;
	smp->attr_id = attr_id;
	smp->attr_mod = cpu_to_be32(attr_mod);
	if (route->lid) {
		smp->mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	} else {
		smp->mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
		smp->hop_cnt = route->hops;
		smp->dr_slid = IB_LID_PERMISSIVE;
		smp->dr_dlid = IB_LID_PERMISSIVE;
		if (route->hops)
			memcpy(&smp->initial_path[1], &route->path[1],
			       route->hops);
	}
	if (data)
		memcpy(smp->data, data, IB_SMP_DATA_SIZE);
	req->remote_qpn = 0;
	return 0;
}

/**
 * ibtrace_smp_exchange() - one SMP to a node and its answer
 * @port: the local port; it must have an SMI agent
 * @req: ah (from ibtrace_smp_ah_create() for a directed route, from
 *	ibtrace_smp_lid_ah_create() for a LID), timeout_ms and retries set
 *	by the caller; the SMP is built here and the answer lands in
 *	@req->resp_smp
 * @route: how the SMP reaches the node
 * @method: %IB_MGMT_METHOD_GET or %IB_MGMT_METHOD_SET
 * @attr_id: SMP attribute ID
 * @attr_mod: attribute modifier
 * @data: %IB_SMP_DATA_SIZE bytes of attribute data for a Set, or NULL
 *
 * Sleeps. The MAD status of the answer is left for the caller to check.
 *
 * Return: as ibtrace_mad_exchange(); -EINVAL for a bad hop count.
 */
int ibtrace_smp_exchange(struct ibtrace_port *port,
			 struct ibtrace_mad_req *req,
			 const struct ibtrace_smp_route *route, u8 method,
			 __be16 attr_id, u32 attr_mod, const void *data)
{
	int err;

	req->attempts = 0;
	err = ibtrace_smp_build(req, route, method, attr_id, attr_mod, data);
	if (err)
		return err;
	return ibtrace_smp_exchange_one(port, req);
}

/**
 * ibtrace_smp_exchange_one() - one SMP, already built, and its answer
 * @port: the local port; it must have an SMI agent
 * @req: a request built by ibtrace_smp_build(), with ah, timeout_ms,
 *	retries and stop set by the caller; the answer lands in
 *	@req->resp_smp
 *
 * Sleeps. The MAD status of the answer is left for the caller to check.
 *
 * Return: as ibtrace_mad_exchange().
 */
int ibtrace_smp_exchange_one(struct ibtrace_port *port,
			     struct ibtrace_mad_req *req)
{
	return ibtrace_mad_exchange_on(port, port->smi_agent, req,
				       IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA);
}

/**
 * ibtrace_smp_exchange_all() - SMPs at once, each to its node
 * @port: the local port; it must have an SMI agent
 * @reqs: @n requests built by ibtrace_smp_build(), with ah, timeout_ms and
 *	retries set by the caller
 * @errs: the outcome of each, as ibtrace_smp_exchange() returns it
 * @n: number of requests
 *
 * Sleeps. The MAD status of each answer is left for the caller to check.
 *
 * Return: as ibtrace_mad_exchange_all().
 */
int ibtrace_smp_exchange_all(struct ibtrace_port *port,
			     struct ibtrace_mad_req *reqs, int *errs,
			     unsigned int n)
{
	return ibtrace_mad_exchange_all(port, port->smi_agent, reqs, errs, n,
					IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA);
}
