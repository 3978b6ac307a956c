// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the exerciser's MAD send: a MAD of any class, method and
 * attribute, composed field by field from the request, sent @count times
 * from a local port, and each answer handed back as it came in.
 *
 * SMPs (LID-routed and directed-route) go through the port's send-only
 * QP 0 agent (smp.c), every other class through the class 0x30 agent on
 * QP 1 (agent.c): ib_mad hands an agent the answers to its own requests
 * whatever their class, by the TID's high half. The MAD is written as
 * asked, malformed fields included; ib_mad itself refuses to send a
 * directed-route SMP that IBA C14-9 would discard, which the sender sees
 * as a send error.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <rdma/ib_sa.h>

#include "ibtrace.h"

/**
 * ibtrace_mad_class_is_smp() - is the class one of the two SMP classes?
 * @mgmt_class: management class
 *
 * Return: true for LID-routed and directed-route SMPs (QP 0).
 */
bool ibtrace_mad_class_is_smp(u8 mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	       mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

/* The SMP fields after the common header. */
static void ibtrace_mad_send_build_smp(struct ib_smp *smp,
				       const struct ibtrace_mad_send_params *p)
{
	smp->mkey = cpu_to_be64(p->mkey);
	if (p->mgmt_class != IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return;
	smp->hop_ptr = p->hop_ptr;
	smp->hop_cnt = p->dr_hops;
	smp->dr_slid = cpu_to_be16(p->dr_slid);
	smp->dr_dlid = cpu_to_be16(p->dr_dlid);
	memcpy(&smp->initial_path[1], p->dr_path, p->dr_hops);
}

/* The request MAD, every field as the parameters say, and its TID choice. */
static void ibtrace_mad_send_build(struct ibtrace_mad_req *req,
				   const void *arg)
{
	const struct ibtrace_mad_send_params *p = arg;
	struct ib_mad_hdr *hdr = &req->mad.mad_hdr;
	u8 *raw = (u8 *)&req->mad;

	memset(&req->mad, 0, sizeof(req->mad));
	req->fixed_tid = p->has_tid;
	req->tid_lo = p->tid;
	hdr->base_version = p->base_version;
	hdr->mgmt_class = p->mgmt_class;
	hdr->class_version = p->class_version;
	hdr->method = p->method;
	hdr->status = cpu_to_be16(p->status);
	hdr->attr_id = cpu_to_be16(p->attr_id);
	hdr->attr_mod = cpu_to_be32(p->attr_mod);

	if (ibtrace_mad_class_is_smp(p->mgmt_class)) {
		ibtrace_mad_send_build_smp(&req->smp, p);
	} else if (p->mgmt_class == IB_MGMT_CLASS_SUBN_ADM) {
		struct ib_sa_mad *sa = (struct ib_sa_mad *)&req->mad;

		sa->sa_hdr.comp_mask =
			(__force ib_sa_comp_mask)cpu_to_be64(p->comp_mask);
	} else if (p->mgmt_class >= IB_MGMT_CLASS_VENDOR_RANGE2_START &&
		   p->mgmt_class <= IB_MGMT_CLASS_VENDOR_RANGE2_END) {
		req->mad.oui[0] = (p->oui >> 16) & 0xff;
		req->mad.oui[1] = (p->oui >> 8) & 0xff;
		req->mad.oui[2] = p->oui & 0xff;
	}
	memcpy(raw + ibtrace_mad_data_offset(p->mgmt_class), p->data,
	       p->data_len);
}

/* The address handle: QP 0's for SMPs, else a GMP's path. */
static struct ib_ah *
ibtrace_mad_send_ah(struct ibtrace_port *port,
		    const struct ibtrace_mad_send_params *p,
		    struct netlink_ext_ack *extack)
{
	struct ibtrace_path path = { .dlid = p->dlid, .sl = p->sl };
	struct ib_ah *ah;

	if (!ibtrace_mad_class_is_smp(p->mgmt_class))
		return ibtrace_ah_create(port, p->has_dgid ? &p->dgid : NULL,
					 &path, extack);
	ah = ibtrace_smp_lid_ah_create(port, p->dlid ? p->dlid :
				       be16_to_cpu(IB_LID_PERMISSIVE));
	if (IS_ERR(ah))
		NL_SET_ERR_MSG(extack, "cannot create an address handle");
	return ah;
}

/**
 * ibtrace_mad_resp_status() - the status of an answer, as an error code
 * @req: an answered request
 *
 * Return: the answer's MAD status in host order; a directed-route SMP's
 * direction bit, which is not part of it, cleared.
 */
u16 ibtrace_mad_resp_status(const struct ibtrace_mad_req *req)
{
	__be16 status = req->resp.mad_hdr.status;

	if (req->resp.mad_hdr.mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		status &= ~IB_SMP_DIRECTION;
	return be16_to_cpu(status);
}

/**
 * ibtrace_mad_send_run() - send a composed MAD, @params->count times
 * @port: the local port: with an SMI agent for SMPs, a GSI agent else
 * @params: the MAD, its destination and pacing
 * @report: called after every MAD; a non-zero return stops the send
 * @ctx: passed to @report
 * @summary: statistics, filled also when the send stops early
 * @extack: where to say what went wrong
 *
 * Sleeps. One MAD is in flight at a time; a MAD that is not answered
 * (after its retries) or cannot be sent is not an error of the run.
 * Once @params->stop is set the MAD in flight is taken back.
 *
 * Return: 0, -ECANCELED when stopped, -ENODEV when the device went away,
 * or another negative errno (no AH, @report failed, out of memory).
 */
int ibtrace_mad_send_run(struct ibtrace_port *port,
			 const struct ibtrace_mad_send_params *params,
			 ibtrace_ping_report_t report, void *ctx,
			 struct ibtrace_ping_summary *summary,
			 struct netlink_ext_ack *extack)
{
	bool smp = ibtrace_mad_class_is_smp(params->mgmt_class);
	const struct ibtrace_probe_loop loop = {
		.agent = smp ? port->smi_agent : port->agent,
		.remote_qpn = smp ? 0 : params->qpn,
		.pkey_index = params->pkey_index,
		.count = params->count,
		.interval_ms = params->interval_ms,
		.timeout_ms = params->timeout_ms,
		.retries = params->timeout_ms ? params->retries : 0,
		.stop = params->stop,
		.build = ibtrace_mad_send_build,
		.arg = params,
		.report = report,
		.ctx = ctx,
	};
	struct ibtrace_ping_probe probe = {};
	struct ib_ah *ah;
	int err;

	memset(summary, 0, sizeof(*summary));
	ah = ibtrace_mad_send_ah(port, params, extack);
	if (IS_ERR(ah))
		return PTR_ERR(ah);

	err = ibtrace_probe_loop(port, ah, &loop, &probe, summary);
	if (err == -ENODEV)
		NL_SET_ERR_MSG(extack,
			       "device removed (or module unloading) during the send");
	return err;
}
