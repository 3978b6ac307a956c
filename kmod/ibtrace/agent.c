// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the class 0x30 vendor MAD agent of every port.
 *
 * It answers VendorGet(ClassPortInfo) - the proof that a node runs the
 * agent - and VendorGet(SourceRoute), which tells a tracer the port a probe
 * really arrived on and checks it against the port the tracer expected.
 * Every other method is answered "unsupported method", every other
 * attribute "unsupported method/attribute". Responses to our own requests
 * arrive here too and are handed to mad.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "ibtrace.h"

/* ClassPortInfo.RespTimeValue we advertise: 4.096 us * 2^16 = 268 ms */
#define IBTRACE_RESP_TIME_VALUE	16

static const u8 ibtrace_oui[3] = {
	(IBTRACE_OUI >> 16) & 0xff, (IBTRACE_OUI >> 8) & 0xff,
	IBTRACE_OUI & 0xff,
};

static bool ibtrace_is_response(const struct ib_mad_hdr *hdr)
{
	return (hdr->method & IB_MGMT_METHOD_RESP) ||
	       hdr->method == IB_MGMT_METHOD_TRAP_REPRESS;
}

/* Why a request got the status it got; counted once its answer is posted. */
enum ibtrace_agent_verdict {
	IBTRACE_VERDICT_SUCCESS,
	IBTRACE_VERDICT_MISMATCH,
	IBTRACE_VERDICT_MALFORMED,
	IBTRACE_VERDICT_BAD_METHOD,
	IBTRACE_VERDICT_BAD_ATTR,
};

/*
 * Fill the response in @resp (a copy of the request); returns the MAD
 * status and sets *@verdict.
 */
static u16 ibtrace_agent_answer(struct ib_vendor_mad *resp, u32 in_port,
				enum ibtrace_agent_verdict *verdict)
{
	struct ib_class_port_info *cpi;
	u8 *sr = resp->data;
	u8 hops, expected;

	*verdict = IBTRACE_VERDICT_SUCCESS;
	if (resp->mad_hdr.method != IB_MGMT_METHOD_GET) {
		*verdict = IBTRACE_VERDICT_BAD_METHOD;
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD;
	}

	switch (be16_to_cpu(resp->mad_hdr.attr_id)) {
	case IBTRACE_ATTR_CLASS_PORT_INFO:
		memset(resp->data, 0, sizeof(resp->data));
		cpi = (struct ib_class_port_info *)resp->data;
		cpi->base_version = IB_MGMT_BASE_VERSION;
		cpi->class_version = IBTRACE_MGMT_CLASS_VERSION;
		ib_set_cpi_resp_time(cpi, IBTRACE_RESP_TIME_VALUE);
		return IB_MGMT_MAD_STATUS_SUCCESS;

	case IBTRACE_ATTR_SOURCE_ROUTE:
		hops = sr[IBTRACE_SROUTE_HOP_COUNT];
		sr[IBTRACE_SROUTE_ACTUAL_PORT] = in_port;
		if (hops == 0 || hops > IBTRACE_SROUTE_MAX_HOPS) {
			*verdict = IBTRACE_VERDICT_MALFORMED;
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		}
		expected = sr[IBTRACE_SROUTE_VECTOR + hops - 1];
		if (expected != in_port) {
			*verdict = IBTRACE_VERDICT_MISMATCH;
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		}
		return IB_MGMT_MAD_STATUS_SUCCESS;

	default:
		*verdict = IBTRACE_VERDICT_BAD_ATTR;
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
}

/* Count an answer that was posted, by the reason for its status. */
static void ibtrace_agent_count(struct ibtrace_agent_stats *st,
				enum ibtrace_agent_verdict verdict)
{
	atomic64_inc(&st->answered);
	switch (verdict) {
	case IBTRACE_VERDICT_SUCCESS:
		atomic64_inc(&st->success);
		break;
	case IBTRACE_VERDICT_MISMATCH:
		atomic64_inc(&st->mismatch);
		break;
	case IBTRACE_VERDICT_MALFORMED:
		atomic64_inc(&st->malformed);
		break;
	case IBTRACE_VERDICT_BAD_METHOD:
		atomic64_inc(&st->unsupported);
		atomic64_inc(&st->unsupported_method);
		break;
	case IBTRACE_VERDICT_BAD_ATTR:
		atomic64_inc(&st->unsupported);
		atomic64_inc(&st->unsupported_attr);
		break;
	}
}

static void ibtrace_agent_respond(struct ibtrace_port *port,
				  struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ib_mad_agent *agent = port->agent;
	const struct ib_wc *wc = mad_recv_wc->wc;
	struct ib_mad_send_buf *send_buf;
	enum ibtrace_agent_verdict verdict;
	struct ibtrace_agent_ah *ah;
	struct ib_vendor_mad *resp;
	u16 status;

	ah = ibtrace_agent_ah_get(port, wc, mad_recv_wc->recv_buf.grh);
	if (IS_ERR(ah)) {
		dev_dbg_ratelimited(&agent->device->dev,
				    "port %u: no AH for reply: %ld\n",
				    port->port_num, PTR_ERR(ah));
		atomic64_inc(&port->stats.tx_error);
		return;
	}

	send_buf = ib_create_send_mad(agent, wc->src_qp, wc->pkey_index, 0,
				      IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA,
				      GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(send_buf))
		goto err_put_ah;

	resp = send_buf->mad;
	memcpy(resp, mad_recv_wc->recv_buf.mad, sizeof(*resp));
	/* Byte 0 of SourceRoute: the port this node's HCA received it on. */
	status = ibtrace_agent_answer(resp, wc->port_num, &verdict);
	resp->mad_hdr.method = ibtrace_mad_response_method(resp->mad_hdr.method);
	resp->mad_hdr.status = cpu_to_be16(status);
	/* We do not speak RMPP: whatever the request said, ours is one MAD. */
	memset(&resp->rmpp_hdr, 0, sizeof(resp->rmpp_hdr));

	send_buf->ah = ibtrace_agent_ah_of(ah);
	send_buf->context[0] = ah;
	if (ibtrace_mad_post(send_buf))
		goto err_free_mad;

	ibtrace_agent_count(&port->stats, verdict);
	return;

err_free_mad:
	ib_free_send_mad(send_buf);
err_put_ah:
	ibtrace_agent_ah_put(ah);
	atomic64_inc(&port->stats.tx_error);
}

static void ibtrace_agent_recv(struct ib_mad_agent *agent,
			       struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ibtrace_port *port = agent->context;
	const struct ib_mad_hdr *hdr = &mad_recv_wc->recv_buf.mad->mad_hdr;

	if (send_buf) {
		/* The answer to one of our requests; mad.c frees it. */
		ibtrace_mad_recv_response(port, send_buf, mad_recv_wc);
		return;
	}

	/*
	 * Responses without a request of ours outstanding (ib_mad hands us
	 * those that have RMPP's Active flag set) are counted and dropped.
	 */
	if (ibtrace_is_response(hdr)) {
		atomic64_inc(&port->stats.stray);
	} else {
		atomic64_inc(&port->stats.rx);
		ibtrace_agent_respond(port, mad_recv_wc);
	}
	ib_free_recv_mad(mad_recv_wc);
}

static void ibtrace_agent_send_done(struct ib_mad_agent *agent,
				    struct ib_mad_send_wc *mad_send_wc)
{
	struct ib_mad_send_buf *send_buf = mad_send_wc->send_buf;

	if (send_buf->context[1]) {
		/* A request of ours (context[1] = its call). */
		ibtrace_mad_send_done(agent->context, mad_send_wc);
		return;
	}
	/* One of our responses: its AH's entry is in context[0]. */
	ibtrace_agent_ah_put(send_buf->context[0]);
	ib_free_send_mad(send_buf);
}

/**
 * ibtrace_agent_register() - register the class 0x30 agent on a port
 * @port: a port with GSI
 *
 * The agent takes every request method of the class, so that methods other
 * than VendorGet are answered by us with "unsupported method" rather than
 * by ib_mad's generic reply.
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_agent_register(struct ibtrace_port *port)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = IBTRACE_MGMT_CLASS,
		.mgmt_class_version = IBTRACE_MGMT_CLASS_VERSION,
	};
	unsigned int m;

	memcpy(req.oui, ibtrace_oui, sizeof(req.oui));
	for (m = 1; m < IB_MGMT_METHOD_RESP; m++)
		if (m != IB_MGMT_METHOD_TRAP_REPRESS)
			set_bit(m, req.method_mask);

	return ibtrace_mad_agent_register(port, IB_QPT_GSI, &req,
					  ibtrace_agent_send_done,
					  ibtrace_agent_recv, &port->agent);
}

/**
 * ibtrace_agent_unregister() - unregister a port's agent, if any
 * @port: the port
 *
 * Outstanding sends are cancelled and their handlers have run when this
 * returns.
 */
void ibtrace_agent_unregister(struct ibtrace_port *port)
{
	ibtrace_mad_agent_unregister(&port->agent);
}
