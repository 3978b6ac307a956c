// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - sending a request MAD and waiting for its answer.
 *
 * One call per attempt: ib_mad times the attempt out (we keep retries in
 * our hands so that the RTT we report is the answered attempt's). The
 * waiter sleeps on the device's wait queue and leaves early on a signal or
 * when the device dies; it then cancels the send and still waits for
 * ib_mad to hand the buffer back, which ib_mad does promptly.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "ibtrace.h"

/**
 * struct ibtrace_mad_call - one attempt in flight
 * @req: the request it belongs to
 * @send_buf: ib_mad's buffer, freed by the waiter after @done
 * @t_send: ktime_get_ns() just before posting
 * @t_recv: ktime_get_ns() when the answer arrived
 * @answered: the answer was copied into @req
 * @wc_status: status ib_mad gave the send
 * @done: ib_mad has finished with @send_buf
 */
struct ibtrace_mad_call {
	struct ibtrace_mad_req *req;
	struct ib_mad_send_buf *send_buf;
	u64 t_send;
	u64 t_recv;
	bool answered;
	enum ib_wc_status wc_status;
	bool done;
};

/**
 * ibtrace_mad_init_vendor() - initialise a class 0x30 request
 * @mad: the MAD to fill
 * @method: MAD method
 * @attr_id: attribute ID
 */
void ibtrace_mad_init_vendor(struct ib_vendor_mad *mad, u8 method,
			     u16 attr_id)
{
	memset(mad, 0, sizeof(*mad));
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = IBTRACE_MGMT_CLASS;
	mad->mad_hdr.class_version = IBTRACE_MGMT_CLASS_VERSION;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = cpu_to_be16(attr_id);
	mad->oui[0] = (IBTRACE_OUI >> 16) & 0xff;
	mad->oui[1] = (IBTRACE_OUI >> 8) & 0xff;
	mad->oui[2] = IBTRACE_OUI & 0xff;
}

/**
 * ibtrace_mad_recv_response() - the agent's receive handler got an answer
 * @send_buf: the request it answers
 * @mad_recv_wc: the answer; freed here
 */
void ibtrace_mad_recv_response(struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ibtrace_mad_call *call = send_buf->context[1];
	struct ibtrace_mad_req *req = call->req;
	const struct ib_wc *wc = mad_recv_wc->wc;

	call->t_recv = ktime_get_ns();
	memcpy(&req->resp, mad_recv_wc->recv_buf.mad, sizeof(req->resp));
	req->slid = ib_lid_cpu16(wc->slid);
	req->has_grh = !!(wc->wc_flags & IB_WC_GRH);
	if (req->has_grh)
		req->sgid = mad_recv_wc->recv_buf.grh->sgid;
	call->answered = true;
	ib_free_recv_mad(mad_recv_wc);
}

/**
 * ibtrace_mad_send_done() - ib_mad is finished with one of our requests
 * @port: the port whose agent sent it
 * @mad_send_wc: the completion
 */
void ibtrace_mad_send_done(struct ibtrace_port *port,
			   struct ib_mad_send_wc *mad_send_wc)
{
	struct ibtrace_mad_call *call = mad_send_wc->send_buf->context[1];

	call->wc_status = mad_send_wc->status;
	/*
	 * Pairs with smp_load_acquire() in the waiter, which may free @call
	 * as soon as it sees this; the device outlives our agent's handlers.
	 */
	smp_store_release(&call->done, true);
	wake_up_all(&port->dev->waitq);
}

static bool ibtrace_mad_call_done(struct ibtrace_mad_call *call)
{
	/* Pairs with smp_store_release() in ibtrace_mad_send_done(). */
	return smp_load_acquire(&call->done);
}

/* One attempt. Returns 0 (answered), -ETIMEDOUT, or another errno. */
static int ibtrace_mad_attempt(struct ibtrace_port *port,
			       struct ib_mad_agent *agent,
			       struct ibtrace_mad_req *req, u64 tid,
			       int hdr_len, int data_len)
{
	struct ibtrace_dev *dev = port->dev;
	struct ibtrace_mad_call call = { .req = req };
	struct ib_mad_send_buf *send_buf;
	int err;

	send_buf = ib_create_send_mad(agent, req->remote_qpn, 0, 0,
				      hdr_len, data_len, GFP_KERNEL,
				      IB_MGMT_BASE_VERSION);
	if (IS_ERR(send_buf))
		return PTR_ERR(send_buf);

	req->mad.mad_hdr.tid = cpu_to_be64(tid);
	memcpy(send_buf->mad, &req->mad, sizeof(req->mad));
	send_buf->ah = req->ah;
	send_buf->timeout_ms = req->timeout_ms;
	send_buf->retries = 0;
	send_buf->context[0] = NULL;
	send_buf->context[1] = &call;
	call.send_buf = send_buf;

	call.t_send = ktime_get_ns();
	err = ib_post_send_mad(send_buf, NULL);
	if (err) {
		ib_free_send_mad(send_buf);
		return err;
	}

	err = wait_event_interruptible(dev->waitq,
				       ibtrace_mad_call_done(&call) ||
				       ibtrace_dev_dead(dev));
	if (!ibtrace_mad_call_done(&call)) {
		/* Signal or device removal: take the send back. */
		ib_cancel_mad(send_buf);
		wait_event(dev->waitq, ibtrace_mad_call_done(&call));
		err = err ? -EINTR : -ENODEV;
	} else if (call.answered) {
		req->rtt_ns = call.t_recv - call.t_send;
		err = 0;
	} else if (call.wc_status == IB_WC_RESP_TIMEOUT_ERR) {
		err = -ETIMEDOUT;
	} else if (call.wc_status == IB_WC_WR_FLUSH_ERR) {
		err = -ENODEV;
	} else {
		err = -EIO;
	}
	ib_free_send_mad(send_buf);
	return err;
}

/**
 * ibtrace_mad_exchange() - send a request and wait for its answer
 * @port: the local port; it must have an agent
 * @req: the request; answer fields are filled on success
 *
 * Sleeps. Retries on timeout up to @req->retries times.
 *
 * Return: 0 when answered (whatever the MAD status), -ETIMEDOUT when no
 * attempt was answered, -EINTR on a signal, -ENODEV when the device went
 * away, another negative errno when the MAD could not be sent.
 */
int ibtrace_mad_exchange(struct ibtrace_port *port,
			 struct ibtrace_mad_req *req)
{
	return ibtrace_mad_exchange_on(port, port->agent, req,
				       IB_MGMT_VENDOR_HDR, IB_MGMT_VENDOR_DATA);
}

/**
 * ibtrace_mad_exchange_on() - ibtrace_mad_exchange() through any agent
 * @port: the local port
 * @agent: one of @port's agents (class 0x30, or the SMI agent of smp.c);
 *	its handlers must pass our requests to ibtrace_mad_recv_response()
 *	and ibtrace_mad_send_done()
 * @req: the request; answer fields are filled on success
 * @hdr_len: MAD header length for ib_create_send_mad()
 * @data_len: MAD data length for ib_create_send_mad()
 *
 * Sleeps. Retries on timeout up to @req->retries times.
 *
 * Return: as ibtrace_mad_exchange().
 */
int ibtrace_mad_exchange_on(struct ibtrace_port *port,
			    struct ib_mad_agent *agent,
			    struct ibtrace_mad_req *req, int hdr_len,
			    int data_len)
{
	int err = -ETIMEDOUT;
	u32 i;

	if (!agent)
		return -EOPNOTSUPP;

	req->attempts = 0;
	for (i = 0; i <= req->retries; i++) {
		u64 tid = ((u64)agent->hi_tid << 32) |
			  (u32)atomic_inc_return(&port->tid_seq);

		req->attempts++;
		err = ibtrace_mad_attempt(port, agent, req, tid, hdr_len,
					  data_len);
		if (err != -ETIMEDOUT)
			break;
	}
	return err;
}
