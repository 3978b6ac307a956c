// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - sending a request MAD and waiting for its answer.
 *
 * One call per attempt: ib_mad times the attempt out (we keep retries in
 * our hands so that the RTT we report is the answered attempt's). A call
 * is posted, then finished once ib_mad is done with it, or cancelled; a
 * caller may keep several calls in flight (the tracer does) and sleeps on
 * the device's wait queue, which every completion wakes, and so do a
 * job's cancel and the device's removal.
 * ibtrace_mad_exchange() is the one-call-at-a-time form: the waiter leaves
 * early when its job is cancelled (req->stop), on a signal or when the
 * device dies; it then cancels the send and still waits for ib_mad to
 * hand the buffer back, which ib_mad does promptly.
 *
 * A call may be chained behind another (ibtrace_mad_call_arm()): it is
 * built in advance and the answer's handler posts it, so that a flood's
 * next probe leaves without waiting for its sender to wake up. Who posts
 * a chained call is settled by one xchg() on the first call's @next: the
 * handler, or whoever unarms it first (the sender, on a timeout or when
 * stopping). ib_mad runs a response's receive handler before the send's
 * completion handler, so once a call is done its chained successor is
 * posted or given back.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "ibtrace.h"
#include "ibtrace_iba.h"

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
 * ibtrace_mad_response_method() - the method that answers a request's
 * @method: the request's method
 *
 * IBA 13.4.5: Get and Set are answered by GetResp, Trap by TrapRepress,
 * the others by their method with the response bit set.
 *
 * Return: the response's method.
 */
u8 ibtrace_mad_response_method(u8 method)
{
	switch (method) {
	case IB_MGMT_METHOD_GET:
	case IB_MGMT_METHOD_SET:
		return IB_MGMT_METHOD_GET_RESP;
	case IB_MGMT_METHOD_TRAP:
		return IB_MGMT_METHOD_TRAP_REPRESS;
	default:
		return method | IB_MGMT_METHOD_RESP;
	}
}

/*
 * Does @ans, which ib_mad matched to @send_buf by TID and class (and by GID
 * when it has a GRH), answer it? The answer echoes the request's class
 * version and attribute and carries its response method (or GetResp, for
 * an error status: what ib_mad answers a Get or Set of a class or method
 * nobody serves); a vendor class of the OUI range echoes the OUI. A
 * LID-routed answer without a GRH comes from the LID the request went to,
 * which ib_mad does not check (IBA 13.5.3: the responder swaps the LIDs).
 */
static bool ibtrace_mad_answers(const struct ib_mad_send_buf *send_buf,
				const struct ib_mad_recv_wc *mad_recv_wc)
{
	const struct ib_vendor_mad *rq = send_buf->mad;
	const struct ib_vendor_mad *an =
		(const struct ib_vendor_mad *)mad_recv_wc->recv_buf.mad;
	const struct ib_wc *wc = mad_recv_wc->wc;
	u8 class = rq->mad_hdr.mgmt_class;
	struct rdma_ah_attr attr;
	u8 method;
	u32 dlid;

	if (an->mad_hdr.class_version != rq->mad_hdr.class_version ||
	    an->mad_hdr.attr_id != rq->mad_hdr.attr_id)
		return false;
	method = ibtrace_mad_response_method(rq->mad_hdr.method);
	if (an->mad_hdr.method != method &&
	    !(an->mad_hdr.method == IB_MGMT_METHOD_GET_RESP &&
	      (an->mad_hdr.status & ~IB_SMP_DIRECTION)))
		return false;
	if (class >= IB_MGMT_CLASS_VENDOR_RANGE2_START &&
	    class <= IB_MGMT_CLASS_VENDOR_RANGE2_END &&
	    memcmp(an->oui, rq->oui, sizeof(rq->oui)))
		return false;
	if (class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE ||
	    (wc->wc_flags & IB_WC_GRH) || rdma_query_ah(send_buf->ah, &attr) ||
	    (rdma_ah_get_ah_flags(&attr) & IB_AH_GRH))
		return true;
	dlid = rdma_ah_get_dlid(&attr);
	return dlid >= ibtrace_iba_mcast_lid_base() ||
	       ib_lid_cpu16(wc->slid) == dlid;
}

/*
 * @call was answered: post the call chained behind it, unless its job was
 * stopped or the device is going away (its sender then unarms and drops
 * it). A failed post is left in the chained call for its sender.
 */
static void ibtrace_mad_chain(struct ibtrace_port *port,
			      struct ibtrace_mad_call *call)
{
	struct ibtrace_mad_call *next = READ_ONCE(call->next);

	if (!next || next == IBTRACE_MAD_CHAIN_SHUT ||
	    ibtrace_stopped(next->req->stop) || ibtrace_dev_dead(port->dev))
		return;
	next = xchg(&call->next, IBTRACE_MAD_CHAIN_SHUT);
	if (next && next != IBTRACE_MAD_CHAIN_SHUT)
		ibtrace_mad_call_send(next);
}

/**
 * ibtrace_mad_recv_response() - the agent's receive handler got an answer
 * @port: the port whose agent got it
 * @send_buf: the request ib_mad matched it to
 * @mad_recv_wc: the answer; freed here
 *
 * An answer that does not answer the request (ibtrace_mad_answers()) is
 * counted in the port's invalid_answer and dropped: to its request it is
 * as if none came.
 */
void ibtrace_mad_recv_response(struct ibtrace_port *port,
			       struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ibtrace_mad_call *call = send_buf->context[1];
	struct ibtrace_mad_req *req = call->req;
	const struct ib_wc *wc = mad_recv_wc->wc;

	if (!ibtrace_mad_answers(send_buf, mad_recv_wc)) {
		atomic64_inc(&port->stats.invalid_answer);
		call->invalid = true;
		ib_free_recv_mad(mad_recv_wc);
		return;
	}
	call->t_recv = ktime_get_ns();
	memcpy(&req->resp, mad_recv_wc->recv_buf.mad, sizeof(req->resp));
	req->slid = ib_lid_cpu16(wc->slid);
	req->has_grh = !!(wc->wc_flags & IB_WC_GRH);
	if (req->has_grh)
		req->sgid = mad_recv_wc->recv_buf.grh->sgid;
	call->answered = true;
	ibtrace_mad_chain(port, call);
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

/**
 * ibtrace_mad_call_done() - has ib_mad finished with the call's attempt?
 * @call: a call posted by ibtrace_mad_call_post()
 *
 * Return: true once ibtrace_mad_call_finish() may be called.
 */
bool ibtrace_mad_call_done(const struct ibtrace_mad_call *call)
{
	/* Pairs with smp_store_release() in ibtrace_mad_send_done(). */
	return smp_load_acquire(&call->done);
}

/**
 * ibtrace_mad_post() - ib_post_send_mad() of one buffer, sent at once
 * @send_buf: the MAD
 *
 * A MAD of the GSI QP (class 0x30, SA) is posted like an endpoint's
 * send (ibtrace_ep_post()), with bottom halves off, so that a software
 * device's send tasklet runs here, not after ksoftirqd. An SMP is not: a
 * directed-route SMP to this port is answered inside ib_post_send_mad()
 * by the driver's process_mad(), which may sleep (a firmware command).
 *
 * Return: 0 or ib_post_send_mad()'s error.
 */
int ibtrace_mad_post(struct ib_mad_send_buf *send_buf)
{
	int err;

	if (send_buf->mad_agent->qp->qp_type != IB_QPT_GSI)
		return ib_post_send_mad(send_buf, NULL);
	local_bh_disable();
	err = ib_post_send_mad(send_buf, NULL);
	local_bh_enable();
	return err;
}

/**
 * ibtrace_mad_call_prepare() - build one attempt of a request, don't send it
 * @port: the local port
 * @call: @call->req, @call->agent, @call->hdr_len and @call->data_len set
 *	by the caller, @call->req->mad built; @call must stay in place until
 *	it is finished or cancelled
 *
 * Each attempt gets a new TID. The MAD is copied into the attempt's
 * buffer: the request may be built again for the next call at once.
 * ibtrace_mad_call_send() posts it, ibtrace_mad_call_cancel() drops it.
 *
 * Return: 0, or a negative errno (nothing is held then).
 */
int ibtrace_mad_call_prepare(struct ibtrace_port *port,
			     struct ibtrace_mad_call *call)
{
	struct ibtrace_mad_req *req = call->req;
	struct ib_mad_agent *agent = call->agent;
	struct ib_mad_send_buf *send_buf;
	u64 tid;

	send_buf = ib_create_send_mad(agent, req->remote_qpn, req->pkey_index, 0,
				      call->hdr_len, call->data_len,
				      GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(send_buf))
		return PTR_ERR(send_buf);

	tid = ((u64)agent->hi_tid << 32) |
	      (req->fixed_tid ? req->tid_lo :
	       (u32)atomic_inc_return(&port->tid_seq));
	req->mad.mad_hdr.tid = cpu_to_be64(tid);
	memcpy(send_buf->mad, &req->mad, sizeof(req->mad));
	send_buf->ah = req->ah;
	send_buf->timeout_ms = req->timeout_ms;
	send_buf->retries = 0;
	send_buf->context[0] = NULL;
	send_buf->context[1] = call;
	call->send_buf = send_buf;
	call->answered = false;
	call->invalid = false;
	call->done = false;
	call->posted = false;
	call->post_err = 0;
	return 0;
}

/* Is the call's attempt posted, or did posting it fail (@post_err)? */
static bool ibtrace_mad_call_posted(const struct ibtrace_mad_call *call)
{
	/* Pairs with smp_store_release() in ibtrace_mad_call_send(). */
	return smp_load_acquire(&call->posted);
}

/**
 * ibtrace_mad_call_send() - post an attempt built by ibtrace_mad_call_prepare()
 * @call: the call; from a chain's handler, or from its sender
 *
 * The attempt counts in @call->req->attempts. ib_mad times it out after
 * @call->req->timeout_ms, without retrying. A failed post frees the
 * attempt's buffer and is kept in @call->post_err.
 *
 * Return: 0 when posted, or a negative errno (nothing is in flight then).
 */
int ibtrace_mad_call_send(struct ibtrace_mad_call *call)
{
	struct ib_mad_send_buf *send_buf = call->send_buf;
	int err;

	call->req->attempts++;
	call->t_send = ktime_get_ns();
	err = ibtrace_mad_post(send_buf);
	if (err) {
		call->send_buf = NULL;
		ib_free_send_mad(send_buf);
	}
	call->post_err = err;
	/* Pairs with smp_load_acquire() in ibtrace_mad_call_posted(). */
	smp_store_release(&call->posted, true);
	return err;
}

/**
 * ibtrace_mad_call_post() - send one attempt of a request, don't wait
 * @port: the local port
 * @call: as for ibtrace_mad_call_prepare()
 *
 * Return: 0 when posted, or a negative errno (nothing is in flight then).
 */
int ibtrace_mad_call_post(struct ibtrace_port *port,
			  struct ibtrace_mad_call *call)
{
	return ibtrace_mad_call_prepare(port, call) ?:
	       ibtrace_mad_call_send(call);
}

/**
 * ibtrace_mad_call_arm() - have a call posted by the answer of another
 * @call: a call built or in flight, its successor not armed yet
 * @next: a call built by ibtrace_mad_call_prepare() and not posted
 *
 * Return: true when @call's answer will post @next (or ibtrace_mad_call_unarm()
 * gives it back); false when @call's answer came already: its sender posts
 * @next itself.
 */
bool ibtrace_mad_call_arm(struct ibtrace_mad_call *call,
			  struct ibtrace_mad_call *next)
{
	return !cmpxchg(&call->next, NULL, next);
}

/**
 * ibtrace_mad_call_unarm() - nothing more is to be chained to a call
 * @call: a call, armed or not
 *
 * A successor that the answer's handler has not taken stays unposted;
 * one it has taken is posted (or failed to be) by the time @call is done.
 */
void ibtrace_mad_call_unarm(struct ibtrace_mad_call *call)
{
	xchg(&call->next, IBTRACE_MAD_CHAIN_SHUT);
}

/**
 * ibtrace_mad_call_finish() - the outcome of a done attempt
 * @call: a call for which ibtrace_mad_call_done() is true
 *
 * Frees the attempt's send buffer. On an answer, @call->req->rtt_ns is
 * its round trip.
 *
 * Return: 0 (answered, whatever the MAD status), -ETIMEDOUT (no answer,
 * or only one that did not answer the request: ibtrace_mad_answers()), -ENODATA
 * (sent, and no answer was awaited: a timeout of 0), -ENODEV (flushed:
 * the device is going away) or -EIO.
 */
int ibtrace_mad_call_finish(struct ibtrace_mad_call *call)
{
	int err;

	if (call->answered) {
		call->req->rtt_ns = call->t_recv - call->t_send;
		err = 0;
	} else if (call->wc_status == IB_WC_RESP_TIMEOUT_ERR || call->invalid) {
		err = -ETIMEDOUT;
	} else if (call->wc_status == IB_WC_SUCCESS && !call->req->timeout_ms) {
		err = -ENODATA;
	} else if (call->wc_status == IB_WC_WR_FLUSH_ERR) {
		err = -ENODEV;
	} else {
		err = -EIO;
	}
	ib_free_send_mad(call->send_buf);
	call->send_buf = NULL;
	return err;
}

/**
 * ibtrace_mad_call_cancel() - take back an attempt in flight
 * @port: the port it was posted on
 * @call: a call built, or posted and done or not; nothing happens if it
 *	holds no attempt. A chained call must be unarmed from its
 *	predecessor, and the predecessor cancelled or done, first.
 *
 * Sleeps (uninterruptibly) until ib_mad hands the buffer back, which it
 * does promptly after ib_cancel_mad().
 */
void ibtrace_mad_call_cancel(struct ibtrace_port *port,
			     struct ibtrace_mad_call *call)
{
	if (!call->send_buf)
		return;
	if (ibtrace_mad_call_posted(call) && !ibtrace_mad_call_done(call)) {
		ib_cancel_mad(call->send_buf);
		wait_event(port->dev->waitq, ibtrace_mad_call_done(call));
	}
	ib_free_send_mad(call->send_buf);
	call->send_buf = NULL;
}

/* Wait for a posted attempt. Returns 0 (answered), -ETIMEDOUT, or -errno. */
static int ibtrace_mad_call_wait(struct ibtrace_port *port,
				 struct ibtrace_mad_call *call)
{
	struct ibtrace_dev *dev = port->dev;
	int err;

	err = wait_event_interruptible(dev->waitq,
				       ibtrace_mad_call_done(call) ||
				       ibtrace_stopped(call->req->stop) ||
				       ibtrace_dev_dead(dev));
	if (!ibtrace_mad_call_done(call)) {
		/* Cancel, signal or device removal: take the send back. */
		ibtrace_mad_call_cancel(port, call);
		if (ibtrace_dev_dead(dev))
			return -ENODEV;
		return err ? -EINTR : -ECANCELED;
	}
	return ibtrace_mad_call_finish(call);
}

/**
 * ibtrace_mad_call_run() - a request's attempts, until one is answered
 * @port: the local port
 * @call: as for ibtrace_mad_call_prepare(); its first attempt may already
 *	be built, or posted (by the chain), or not
 *
 * Sleeps. Retries on timeout up to @call->req->retries times. Nothing of
 * @call is in flight when this returns; an attempt that is not posted yet
 * is not sent once the job is stopped (a built one stays for
 * ibtrace_mad_call_cancel()), and one that is done is finished even then.
 *
 * Return: as ibtrace_mad_exchange().
 */
int ibtrace_mad_call_run(struct ibtrace_port *port,
			 struct ibtrace_mad_call *call)
{
	struct ibtrace_mad_req *req = call->req;
	int err;

	/* Ends: every pass sends an attempt, counted in req->attempts. */
	for (;;) {
		if (ibtrace_mad_call_posted(call))
			err = call->post_err;
		else if (ibtrace_stopped(req->stop))
			return -ECANCELED;
		else if (call->send_buf)
			err = ibtrace_mad_call_send(call);
		else
			err = ibtrace_mad_call_post(port, call);
		if (!err)
			err = ibtrace_mad_call_wait(port, call);
		if (err != -ETIMEDOUT || req->attempts > req->retries)
			return err;
		call->posted = false;
	}
}

/**
 * ibtrace_mad_exchange() - send a request and wait for its answer
 * @port: the local port; it must have an agent
 * @req: the request; answer fields are filled on success
 *
 * Sleeps. Retries on timeout up to @req->retries times.
 *
 * Return: 0 when answered (whatever the MAD status), -ETIMEDOUT when no
 * attempt was answered, -ECANCELED when @req->stop was set, -EINTR on a
 * signal, -ENODEV when the device went away, another negative errno when
 * the MAD could not be sent.
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
	struct ibtrace_mad_call call = {
		.req = req, .agent = agent,
		.hdr_len = hdr_len, .data_len = data_len,
	};

	req->attempts = 0;
	if (!agent)
		return -EOPNOTSUPP;
	return ibtrace_mad_call_run(port, &call);
}

/* Is any call of @calls in flight and done? */
static bool ibtrace_mad_any_done(const struct ibtrace_mad_call *calls,
				 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (calls[i].send_buf && ibtrace_mad_call_done(&calls[i]))
			return true;
	return false;
}

/**
 * ibtrace_mad_exchange_all() - send requests at once and wait for them all
 * @port: the local port
 * @agent: one of @port's agents, as for ibtrace_mad_exchange_on()
 * @reqs: @n requests, ah, timeout_ms and retries set by the caller; the
 *	stop flag of the first one stops them all
 * @errs: the outcome of each request, as ibtrace_mad_exchange() returns it
 * @n: number of requests
 * @hdr_len: MAD header length for ib_create_send_mad()
 * @data_len: MAD data length for ib_create_send_mad()
 *
 * Every request is in flight at once; each one is retried on its own
 * after a timeout, up to its retries. Sleeps until all have an outcome.
 *
 * Return: 0 (the outcomes are in @errs), -ECANCELED when stopped or -EINTR
 * on a signal (everything in flight is taken back then), or -ENOMEM.
 */
int ibtrace_mad_exchange_all(struct ibtrace_port *port,
			     struct ib_mad_agent *agent,
			     struct ibtrace_mad_req *reqs, int *errs,
			     unsigned int n, int hdr_len, int data_len)
{
	struct ibtrace_dev *dev = port->dev;
	struct ibtrace_mad_call *calls, *call;
	unsigned int i, busy = 0;
	int err = 0;

	calls = kcalloc(n, sizeof(*calls), GFP_KERNEL);
	if (!calls)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		call = &calls[i];
		call->req = &reqs[i];
		call->agent = agent;
		call->hdr_len = hdr_len;
		call->data_len = data_len;
		reqs[i].attempts = 0;
		errs[i] = agent ? ibtrace_mad_call_post(port, call) :
				  -EOPNOTSUPP;
		if (!errs[i])
			busy++;
	}
	while (busy) {
		if (wait_event_interruptible(dev->waitq,
					     ibtrace_mad_any_done(calls, n) ||
					     ibtrace_stopped(reqs[0].stop) ||
					     ibtrace_dev_dead(dev))) {
			err = -EINTR;
			break;
		}
		if (ibtrace_stopped(reqs[0].stop) && !ibtrace_dev_dead(dev)) {
			err = -ECANCELED;
			break;
		}
		if (ibtrace_dev_dead(dev)) {
			for (i = 0; i < n; i++)
				if (calls[i].send_buf)
					errs[i] = -ENODEV;
			break;
		}
		for (i = 0; i < n; i++) {
			call = &calls[i];
			if (!call->send_buf || !ibtrace_mad_call_done(call))
				continue;
			errs[i] = ibtrace_mad_call_finish(call);
			if (errs[i] == -ETIMEDOUT &&
			    reqs[i].attempts <= reqs[i].retries)
				errs[i] = ibtrace_mad_call_post(port, call) ?:
					  -ETIMEDOUT;
			if (!call->send_buf)
				busy--;
		}
	}
	for (i = 0; i < n; i++)
		ibtrace_mad_call_cancel(port, &calls[i]);
	kfree(calls);
	return err;
}

/**
 * ibtrace_mad_agent_register() - register one of a port's MAD agents
 * @port: the port; the agent's context
 * @qpt: %IB_QPT_GSI or %IB_QPT_SMI
 * @req: the requests it takes, or NULL (it only sends)
 * @send_handler: called when a send completes
 * @recv_handler: called with what it receives
 * @agentp: where the agent goes (in @port)
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_mad_agent_register(struct ibtrace_port *port,
			       enum ib_qp_type qpt,
			       struct ib_mad_reg_req *req,
			       ib_mad_send_handler send_handler,
			       ib_mad_recv_handler recv_handler,
			       struct ib_mad_agent **agentp)
{
	struct ib_mad_agent *agent;

	agent = ib_register_mad_agent(port->dev->ibdev, port->port_num, qpt,
				      req, 0, send_handler, recv_handler,
				      port, 0);
	if (IS_ERR(agent))
		return PTR_ERR(agent);
	*agentp = agent;
	return 0;
}

/**
 * ibtrace_mad_agent_unregister() - unregister a port's MAD agent, if any
 * @agentp: where it is (in its port); NULL after
 *
 * Outstanding sends are cancelled and their handlers have run when this
 * returns.
 */
void ibtrace_mad_agent_unregister(struct ib_mad_agent **agentp)
{
	if (!*agentp)
		return;
	ib_unregister_mad_agent(*agentp);
	*agentp = NULL;
}
