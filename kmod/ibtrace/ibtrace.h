/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - InfiniBand path tracing and conformance toolkit.
 *
 * Internal structures shared by the files of ibtrace.ko. Ownership is a
 * tree: the ib_client owns one &struct ibtrace_dev per RDMA device, which
 * owns one &struct ibtrace_port per port, which owns the port's class 0x30
 * MAD agent.
 */
#ifndef _IBTRACE_H
#define _IBTRACE_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_verbs.h>
#include <uapi/linux/ibtrace.h>

/* GRH HopLimit of the address handles we build (pings, traces, RNR test) */
#define IBTRACE_GRH_HOP_LIMIT		64

/**
 * struct ibtrace_agent_stats - counters of one port's class 0x30 agent
 * @rx: requests received
 * @answered: responses posted; rx = answered + tx_error
 * @mismatch: answered 0x001C: SourceRoute probes that arrived on another
 *	port than expected
 * @malformed: answered 0x001C for a SourceRoute hop count of 0 or > 64
 * @unsupported: unsupported_method + unsupported_attr
 * @success: answered with status 0; answered = success + mismatch +
 *	malformed + unsupported
 * @unsupported_method: answered 0x0008 (a method other than VendorGet)
 * @unsupported_attr: answered 0x000C (VendorGet of another attribute)
 * @tx_error: requests left unanswered: no address handle, no send buffer
 *	or the post failed
 * @stray: responses that matched no request of ours, dropped
 * @invalid_answer: answers to a request of this port (class 0x30 or an
 *	SMP) that did not answer it (source LID, method, attribute, class
 *	version or OUI), dropped
 * @ah_made: address handles made for answers (agent_ah.c)
 * @ah_reused: answers sent with a handle made for an earlier one
 */
struct ibtrace_agent_stats {
	atomic64_t rx;
	atomic64_t answered;
	atomic64_t mismatch;
	atomic64_t malformed;
	atomic64_t unsupported;
	atomic64_t success;
	atomic64_t unsupported_method;
	atomic64_t unsupported_attr;
	atomic64_t tx_error;
	atomic64_t stray;
	atomic64_t invalid_answer;
	atomic64_t ah_made;
	atomic64_t ah_reused;
};

/* agent_ah.c: the address handles of the agent's answers, per port */
#define IBTRACE_AGENT_AHS		16

/**
 * struct ibtrace_agent_ah_key - what an answer's address handle is made
 *	from: the fields of the request's completion and GRH that
 *	ib_create_ah_from_wc() reads (zero where absent)
 * @sgid: the request's source GID
 * @dgid: the request's destination GID (ours)
 * @tclass_flow: GRH traffic class and flow label
 * @slid: source LID
 * @flags: the completion's IB_WC_GRH and IB_WC_WITH_VLAN
 * @vlan: VLAN ID, with IB_WC_WITH_VLAN
 * @sl: service level
 * @path_bits: destination LID path bits
 * @net: network type (enum rdma_network_type)
 */
struct ibtrace_agent_ah_key {
	union ib_gid sgid;
	union ib_gid dgid;
	u32 tclass_flow;
	u32 slid;
	u32 flags;
	u16 vlan;
	u8 sl;
	u8 path_bits;
	u8 net;
};

struct ibtrace_agent_ah;

/**
 * struct ibtrace_agent_ahs - a port's cached answer address handles
 * @lock: protects @slot and the entries' use times
 * @epoch: advanced when the port changes (ibtrace_agent_ahs_expire());
 *	an entry made in an earlier epoch is not reused
 * @slot: entries, NULL when free
 */
struct ibtrace_agent_ahs {
	struct mutex lock;	/* protects @slot and the entries' use times */
	atomic_t epoch;
	struct ibtrace_agent_ah *slot[IBTRACE_AGENT_AHS];
};

struct ibtrace_dev;

/**
 * struct ibtrace_port - per-port state
 * @dev: the device this port belongs to
 * @port_num: 1-based port number
 * @agent: class 0x30 MAD agent, NULL when the port has no GSI or the
 *	registration failed
 * @smi_agent: send-only QP0 agent for directed-route SMPs (smp.c), NULL
 *	when the port has no SMI (RoCE) or the registration failed
 * @tid_seq: low 32 bits of the transaction IDs of requests we send
 * @stats: agent counters
 * @ahs: the agent's answer address handles (agent_ah.c)
 */
struct ibtrace_port {
	struct ibtrace_dev *dev;
	u32 port_num;
	struct ib_mad_agent *agent;
	struct ib_mad_agent *smi_agent;
	atomic_t tid_seq;
	struct ibtrace_agent_stats stats;
	struct ibtrace_agent_ahs ahs;
};

/**
 * struct ibtrace_dev - per-device state, the ib_client's client data
 * @list: entry in the device list (protected by ibtrace_devs_lock)
 * @ibdev: the RDMA device
 * @ref: held by the device list and by every request using the device
 * @released: completed when @ref drops to zero
 * @dead: set when the device goes away; requests end with -ENODEV
 * @waitq: requests waiting for MAD completions sleep here; woken when
 *	@dead is set
 * @event_handler: the device's port events (main.c)
 * @nports: number of entries in @port
 * @port: per-port state, index = port number - 1
 */
struct ibtrace_dev {
	struct list_head list;
	struct ib_device *ibdev;
	struct kref ref;
	struct completion released;
	bool dead;
	wait_queue_head_t waitq;
	struct ib_event_handler event_handler;
	u32 nports;
	struct ibtrace_port port[];
};

/* main.c */
struct ibtrace_dev *ibtrace_dev_get_by_name(const char *name);
struct ibtrace_dev *ibtrace_dev_get_by_index(u32 index);
struct ibtrace_dev *ibtrace_dev_get_from(u32 start);
void ibtrace_dev_put(struct ibtrace_dev *dev);
struct ibtrace_port *ibtrace_dev_port(struct ibtrace_dev *dev, u32 port_num);

static inline bool ibtrace_dev_dead(const struct ibtrace_dev *dev)
{
	return READ_ONCE(dev->dead);
}

/**
 * ibtrace_stopped() - has a job's cancel flag been set?
 * @stop: the flag (&ibtrace_job.cancel), or NULL for "never"
 *
 * Return: true when set.
 */
static inline bool ibtrace_stopped(const bool *stop)
{
	return stop && READ_ONCE(*stop);
}

/**
 * ibtrace_walk_end() - must a job of many MAD batches end now, and why?
 * @port: its local port
 * @stop: its cancel flag (&ibtrace_job.cancel), or NULL
 *
 * A device going away fails every post and every wait at once, so what a
 * batch found after that is not the fabric's answer. Asked before each
 * batch and after the last, a walk ends with this error instead of
 * reporting questions unanswered.
 *
 * Return: -ENODEV (the device is going away), -ECANCELED (cancelled), or 0.
 */
static inline int ibtrace_walk_end(const struct ibtrace_port *port,
				   const bool *stop)
{
	if (ibtrace_dev_dead(port->dev))
		return -ENODEV;
	if (ibtrace_stopped(stop))
		return -ECANCELED;
	return 0;
}

/* agent.c */
int ibtrace_agent_register(struct ibtrace_port *port);
void ibtrace_agent_unregister(struct ibtrace_port *port);

/* agent_ah.c */
struct ibtrace_agent_ah *ibtrace_agent_ah_get(struct ibtrace_port *port,
					      const struct ib_wc *wc,
					      const struct ib_grh *grh);
struct ib_ah *ibtrace_agent_ah_of(const struct ibtrace_agent_ah *e);
void ibtrace_agent_ah_put(struct ibtrace_agent_ah *e);
void ibtrace_agent_ahs_init(struct ibtrace_port *port);
void ibtrace_agent_ahs_expire(struct ibtrace_port *port);
void ibtrace_agent_ahs_flush(struct ibtrace_port *port);

/* mad.c */

/**
 * struct ibtrace_mad_req - one request MAD and its answer
 * @ah: address handle of the destination
 * @remote_qpn: destination QP (1 for GSI)
 * @mad: the request to send (header + data); the TID is filled in
 * @smp: the same buffer seen as an SMP (smp.c)
 * @timeout_ms: wait per attempt
 * @retries: attempts after the first one times out
 * @stop: the caller's job's cancel flag, or NULL: once it is set (and the
 *	device's wait queue woken) the exchange is taken back and ends with
 *	-ECANCELED
 * @pkey_index: P_Key index the request is sent with
 * @fixed_tid: the TID's low 32 bits are @tid_lo, not a new number per
 *	attempt
 * @tid_lo: see @fixed_tid
 * @resp: the answer (valid when the call returns 0)
 * @resp_smp: the same answer seen as an SMP
 * @rtt_ns: round trip of the answered attempt
 * @attempts: attempts sent
 * @slid: source LID of the answer
 * @has_grh: the answer carried a GRH; @sgid is valid
 * @sgid: source GID of the answer
 */
struct ibtrace_mad_req {
	struct ib_ah *ah;
	u32 remote_qpn;
	union {
		struct ib_vendor_mad mad;
		struct ib_smp smp;
	};
	u32 timeout_ms;
	u32 retries;
	const bool *stop;
	u16 pkey_index;
	bool fixed_tid;
	u32 tid_lo;

	union {
		struct ib_vendor_mad resp;
		struct ib_smp resp_smp;
	};
	u64 rtt_ns;
	u32 attempts;
	u32 slid;
	bool has_grh;
	union ib_gid sgid;
};

/**
 * struct ibtrace_mad_call - one attempt of a request in flight
 * @req: the request it belongs to
 * @agent: the agent it is sent through (its handlers must pass our
 *	requests to ibtrace_mad_recv_response() and ibtrace_mad_send_done())
 * @hdr_len: MAD header length for ib_create_send_mad()
 * @data_len: MAD data length for ib_create_send_mad()
 * @send_buf: ib_mad's buffer while posted, else NULL
 * @t_send: ktime_get_ns() just before posting
 * @t_recv: ktime_get_ns() when the answer arrived
 * @answered: the answer was copied into @req
 * @invalid: an answer came that did not answer the request; dropped
 * @wc_status: status ib_mad gave the send
 * @done: ib_mad has finished with @send_buf
 * @posted: @send_buf was handed to ib_mad (or failed to be: @post_err)
 * @post_err: what posting the attempt returned
 * @next: the call to post when this one's answer comes
 *	(ibtrace_mad_call_arm()), %NULL, or %IBTRACE_MAD_CHAIN_SHUT once the
 *	answer's handler or ibtrace_mad_call_unarm() has taken it
 */
struct ibtrace_mad_call {
	struct ibtrace_mad_req *req;
	struct ib_mad_agent *agent;
	int hdr_len;
	int data_len;
	struct ib_mad_send_buf *send_buf;
	u64 t_send;
	u64 t_recv;
	bool answered;
	bool invalid;
	enum ib_wc_status wc_status;
	bool done;
	bool posted;
	int post_err;
	struct ibtrace_mad_call *next;
};

/* ibtrace_mad_call.next once nothing may be chained to the call any more */
#define IBTRACE_MAD_CHAIN_SHUT ((struct ibtrace_mad_call *)ERR_PTR(-ESHUTDOWN))

int ibtrace_mad_post(struct ib_mad_send_buf *send_buf);
int ibtrace_mad_call_prepare(struct ibtrace_port *port,
			     struct ibtrace_mad_call *call);
int ibtrace_mad_call_send(struct ibtrace_mad_call *call);
int ibtrace_mad_call_post(struct ibtrace_port *port,
			  struct ibtrace_mad_call *call);
bool ibtrace_mad_call_arm(struct ibtrace_mad_call *call,
			  struct ibtrace_mad_call *next);
void ibtrace_mad_call_unarm(struct ibtrace_mad_call *call);
int ibtrace_mad_call_run(struct ibtrace_port *port,
			 struct ibtrace_mad_call *call);
bool ibtrace_mad_call_done(const struct ibtrace_mad_call *call);
int ibtrace_mad_call_finish(struct ibtrace_mad_call *call);
void ibtrace_mad_call_cancel(struct ibtrace_port *port,
			     struct ibtrace_mad_call *call);
void ibtrace_mad_init_vendor(struct ib_vendor_mad *mad, u8 method,
			     u16 attr_id);
int ibtrace_mad_exchange(struct ibtrace_port *port,
			 struct ibtrace_mad_req *req);
int ibtrace_mad_exchange_on(struct ibtrace_port *port,
			    struct ib_mad_agent *agent,
			    struct ibtrace_mad_req *req, int hdr_len,
			    int data_len);
int ibtrace_mad_exchange_all(struct ibtrace_port *port,
			     struct ib_mad_agent *agent,
			     struct ibtrace_mad_req *reqs, int *errs,
			     unsigned int n, int hdr_len, int data_len);
u8 ibtrace_mad_response_method(u8 method);
void ibtrace_mad_recv_response(struct ibtrace_port *port,
			       struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *mad_recv_wc);
void ibtrace_mad_send_done(struct ibtrace_port *port,
			   struct ib_mad_send_wc *mad_send_wc);
int ibtrace_mad_agent_register(struct ibtrace_port *port,
			       enum ib_qp_type qpt,
			       struct ib_mad_reg_req *req,
			       ib_mad_send_handler send_handler,
			       ib_mad_recv_handler recv_handler,
			       struct ib_mad_agent **agentp);
void ibtrace_mad_agent_unregister(struct ib_mad_agent **agentp);

/* ping.c */

/**
 * struct ibtrace_ping_params - what to ping and how
 * @dgid: destination GID (valid when @has_dgid)
 * @has_dgid: @dgid is given
 * @dlid: destination LID, 0 if none
 * @count: probes to send
 * @interval_ms: gap between probes
 * @timeout_ms: wait per attempt
 * @retries: attempts after a timeout
 * @sroute_len: 0 for ClassPortInfo probes, else the SourceRoute hop count
 * @sroute: expected incoming port per hop
 * @stop: the job's cancel flag: the ping ends (-ECANCELED) once it is set
 */
struct ibtrace_ping_params {
	union ib_gid dgid;
	bool has_dgid;
	u32 dlid;
	u32 count;
	u32 interval_ms;
	u32 timeout_ms;
	u32 retries;
	u32 sroute_len;
	u8 sroute[IBTRACE_SROUTE_MAX_HOPS];
	const bool *stop;
};

/**
 * struct ibtrace_ping_probe - the outcome of one probe
 * @seq: probe number, from 1
 * @status: &enum ibtrace_probe_status
 * @req: the exchange (answer fields valid when answered)
 * @sroute: the probe went by the ping's source route (its answer names
 *	the port it arrived on)
 */
struct ibtrace_ping_probe {
	u32 seq;
	enum ibtrace_probe_status status;
	const struct ibtrace_mad_req *req;
	bool sroute;
};

/**
 * struct ibtrace_ping_summary - statistics of a ping
 * @sent: probes sent
 * @received: probes answered
 * @errors: answers with a non-zero MAD status
 * @rtt_min_ns: smallest RTT of the answered probes
 * @rtt_avg_ns: mean RTT
 * @rtt_max_ns: largest RTT
 * @rtt_p99_ns: 99th percentile RTT (nearest rank)
 * @rtt_median_ns: median RTT (nearest rank)
 */
struct ibtrace_ping_summary {
	u32 sent;
	u32 received;
	u32 errors;
	u64 rtt_min_ns;
	u64 rtt_avg_ns;
	u64 rtt_max_ns;
	u64 rtt_p99_ns;
	u64 rtt_median_ns;
};

typedef int (*ibtrace_ping_report_t)(void *ctx,
				     const struct ibtrace_ping_probe *probe);

int ibtrace_ping_run(struct ibtrace_port *port,
		     const struct ibtrace_ping_params *params,
		     ibtrace_ping_report_t report, void *ctx,
		     struct ibtrace_ping_summary *summary,
		     struct netlink_ext_ack *extack);
/**
 * struct ibtrace_probe_loop - a request sent again and again (a ping, a
 *	MAD send): ibtrace_probe_loop()
 * @agent: the agent it goes through (the class 0x30 one, or QP 0's)
 * @remote_qpn: the QP it goes to (0 for SMPs, 1 for the GSI)
 * @pkey_index: the P_Key it is sent with
 * @count: how many times
 * @interval_ms: gap between two sends
 * @timeout_ms: how long each send waits for its answer
 * @retries: how many times an unanswered send is sent again
 * @stop: set to stop the loop (the send in flight is taken back)
 * @build: writes the request's MAD (and TID choice) before each send,
 *	from @arg
 * @arg: for @build
 * @report: called after every send; a non-zero return stops the loop
 * @ctx: for @report
 */
struct ibtrace_probe_loop {
	struct ib_mad_agent *agent;
	u32 remote_qpn;
	u16 pkey_index;
	u32 count;
	u32 interval_ms;
	u32 timeout_ms;
	u32 retries;
	const bool *stop;
	void (*build)(struct ibtrace_mad_req *req, const void *arg);
	const void *arg;
	ibtrace_ping_report_t report;
	void *ctx;
};

int ibtrace_probe_loop(struct ibtrace_port *port, struct ib_ah *ah,
		       const struct ibtrace_probe_loop *loop,
		       struct ibtrace_ping_probe *probe,
		       struct ibtrace_ping_summary *summary);

/* mad_send.c */

/**
 * struct ibtrace_mad_send_params - a MAD to compose, where to send it, how
 *	often (the uAPI's %IBTRACE_A_MAD_* attributes, host order)
 * @mgmt_class: management class
 * @class_version: class version
 * @base_version: base version
 * @method: method
 * @attr_id: attribute ID
 * @attr_mod: attribute modifier
 * @status: the status field as sent
 * @has_tid: @tid is given
 * @tid: low 32 bits of the TID
 * @mkey: an SMP's M_Key
 * @oui: a vendor range 2 class's OUI
 * @comp_mask: an SA MAD's ComponentMask
 * @data_len: bytes of @data, written at the class's data offset
 * @data: attribute data
 * @dr_hops: a directed-route SMP's hop count
 * @dr_path: its initial path, entries 1..@dr_hops
 * @dr_slid: DrSLID
 * @dr_dlid: DrDLID
 * @hop_ptr: hop pointer
 * @dlid: destination LID, 0 for none (SMPs: the permissive LID)
 * @has_dgid: @dgid is given: a GRH is sent
 * @dgid: destination GID
 * @sl: service level
 * @pkey_index: P_Key index of the send
 * @qpn: destination QP of a GMP
 * @count: MADs to send
 * @interval_ms: gap between sends
 * @timeout_ms: wait per attempt, 0 to send without waiting
 * @retries: attempts after a timeout
 * @stop: the job's cancel flag
 */
struct ibtrace_mad_send_params {
	u8 mgmt_class;
	u8 class_version;
	u8 base_version;
	u8 method;
	u16 attr_id;
	u32 attr_mod;
	u16 status;
	bool has_tid;
	u32 tid;
	u64 mkey;
	u32 oui;
	u64 comp_mask;
	u32 data_len;
	u8 data[IBTRACE_MAD_MAX_DATA];
	u8 dr_hops;
	u8 dr_path[IBTRACE_MAD_MAX_DR_HOPS];
	u16 dr_slid;
	u16 dr_dlid;
	u8 hop_ptr;
	u32 dlid;
	bool has_dgid;
	union ib_gid dgid;
	u8 sl;
	u16 pkey_index;
	u32 qpn;
	u32 count;
	u32 interval_ms;
	u32 timeout_ms;
	u32 retries;
	const bool *stop;
};

bool ibtrace_mad_class_is_smp(u8 mgmt_class);
u16 ibtrace_mad_resp_status(const struct ibtrace_mad_req *req);
int ibtrace_mad_send_run(struct ibtrace_port *port,
			 const struct ibtrace_mad_send_params *params,
			 ibtrace_ping_report_t report, void *ctx,
			 struct ibtrace_ping_summary *summary,
			 struct netlink_ext_ack *extack);

/**
 * struct ibtrace_path - where an InfiniBand destination is
 * @dlid: destination LID
 * @sl: service level
 */
struct ibtrace_path {
	u32 dlid;
	u8 sl;
};

/* smp.c */

/**
 * struct ibtrace_smp_route - how an SMP reaches its node
 * @lid: LID-routed to this LID when non-zero, else directed route
 * @hops: directed route hop count, 0 = the local node
 * @path: directed route exit ports, @path[1..@hops] (@path[1] is the local
 *	port); @path[0] is not used
 */
struct ibtrace_smp_route {
	u32 lid;
	u8 hops;
	u8 path[IBTRACE_TRACE_MAX_HOPS + 1];
};

int ibtrace_smp_register(struct ibtrace_port *port);
void ibtrace_smp_unregister(struct ibtrace_port *port);
struct ib_ah *ibtrace_smp_ah_create(struct ibtrace_port *port);
struct ib_ah *ibtrace_smp_lid_ah_create(struct ibtrace_port *port, u32 dlid);
int ibtrace_smp_build(struct ibtrace_mad_req *req,
		      const struct ibtrace_smp_route *route, u8 method,
		      __be16 attr_id, u32 attr_mod, const void *data);
int ibtrace_smp_exchange(struct ibtrace_port *port,
			 struct ibtrace_mad_req *req,
			 const struct ibtrace_smp_route *route, u8 method,
			 __be16 attr_id, u32 attr_mod, const void *data);
int ibtrace_smp_exchange_one(struct ibtrace_port *port,
			     struct ibtrace_mad_req *req);
int ibtrace_smp_exchange_all(struct ibtrace_port *port,
			     struct ibtrace_mad_req *reqs, int *errs,
			     unsigned int n);

/* trace.c */

/**
 * struct ibtrace_trace_params - where to trace to and how
 * @dgid: destination GID (valid when @has_dgid)
 * @has_dgid: @dgid is given
 * @dlid: destination LID, 0 if none
 * @mlid: multicast LID whose path to trace, 0 for a unicast trace
 * @timeout_ms: wait per SMP or vendor MAD attempt
 * @retries: attempts after a timeout
 * @stop: the job's cancel flag: the trace ends (-ECANCELED) once it is set
 */
struct ibtrace_trace_params {
	union ib_gid dgid;
	bool has_dgid;
	u32 dlid;
	u32 mlid;
	u32 timeout_ms;
	u32 retries;
	const bool *stop;
};

/**
 * struct ibtrace_hop - one node of a traced path
 * @index: hop number, the source is 0
 * @node_type: &enum ibtrace_node_type
 * @num_ports: NodeInfo.NumPorts (0 when unknown)
 * @node_guid: NodeInfo.NodeGUID, 0 when unknown
 * @port_guid: NodeInfo.PortGUID
 * @lid: base LID, 0 when unknown
 * @lmc: LID mask control
 * @has_lid: @lid and @lmc are known
 * @desc: NodeDescription, NUL-terminated ("" when unknown)
 * @in_port: port the path enters by, 0 on the source
 * @out_port: port the path leaves by, 0 when it does not
 * @agent: &enum ibtrace_hop_agent
 * @expected_port: incoming port the SourceRoute probe expected (0: none)
 * @actual_port: incoming port the agent reported (0: none)
 * @smps: SMP attempts spent on this hop
 * @smp_rtt_ns: round trip of the hop's NodeInfo SMP
 * @vendor_mads: class 0x30 attempts spent on this hop
 * @vendor_rtt_ns: round trip of the last answered class 0x30 MAD, 0 if none
 */
struct ibtrace_hop {
	u32 index;
	u8 node_type;
	u8 num_ports;
	u64 node_guid;
	u64 port_guid;
	u32 lid;
	u8 lmc;
	bool has_lid;
	char desc[IB_DEVICE_NODE_DESC_MAX + 1];
	u8 in_port;
	u8 out_port;
	u8 agent;
	u8 expected_port;
	u8 actual_port;
	u32 smps;
	u64 smp_rtt_ns;
	u32 vendor_mads;
	u64 vendor_rtt_ns;
};

/**
 * struct ibtrace_trace_result - how a trace ended
 * @status: &enum ibtrace_trace_status
 * @dlid: the DLID traced (from the SA for a DGID; 0 on RoCE)
 * @mlid: the MLID traced, 0 for a unicast trace
 * @hops: hops reported
 * @fail_hop: index of the failing hop (status not OK)
 * @fail_port: the failing hop's port at fault, 0 if none
 * @mad_status: status of a failed SMP
 * @fdb_top: LinearFDBTop, for %IBTRACE_TRACE_NO_ROUTE_TOP
 * @smps: SMP attempts in all
 * @vendor_mads: class 0x30 attempts in all
 * @elapsed_ns: time spent
 * @one_hop: a RoCE one-hop trace
 */
struct ibtrace_trace_result {
	u8 status;
	u32 dlid;
	u32 mlid;
	u32 hops;
	u32 fail_hop;
	u8 fail_port;
	u16 mad_status;
	u32 fdb_top;
	u32 smps;
	u32 vendor_mads;
	u64 elapsed_ns;
	bool one_hop;
};

typedef int (*ibtrace_trace_report_t)(void *ctx,
				      const struct ibtrace_hop *hop);

/**
 * struct ibtrace_trace_ctx - what a running trace is given, whichever walk
 *	(unicast in trace.c, multicast in trace_mcast.c) makes it
 * @port: the local port
 * @params: what the user asked for
 * @res: the result being built
 * @report: called with each hop, through ibtrace_trace_report()
 * @report_ctx: passed to @report
 * @smp_ah: AH of the directed-route SMPs (permissive DLID), NULL on RoCE
 */
struct ibtrace_trace_ctx {
	struct ibtrace_port *port;
	const struct ibtrace_trace_params *params;
	struct ibtrace_trace_result *res;
	ibtrace_trace_report_t report;
	void *report_ctx;
	struct ib_ah *smp_ah;
};

/**
 * ibtrace_hop_holds() - does a port's LID range hold a DLID?
 * @lid: the port's base LID, 0 when it has none
 * @lmc: its LID mask control: it answers 2^@lmc LIDs from @lid on
 * @dlid: the LID traced
 *
 * The test that ends a trace at a hop, unicast or multicast.
 *
 * Return: true when @lid is set and @dlid is in [@lid, @lid + 2^@lmc - 1].
 */
static inline bool ibtrace_hop_holds(u32 lid, u8 lmc, u32 dlid)
{
	return lid && dlid >= lid && dlid - lid < (1U << lmc);
}

int ibtrace_trace_check(struct ibtrace_port *port,
			const struct ibtrace_trace_params *params,
			struct netlink_ext_ack *extack);
int ibtrace_trace_run(struct ibtrace_port *port,
		      const struct ibtrace_trace_params *params,
		      ibtrace_trace_report_t report, void *ctx,
		      struct ibtrace_trace_result *result,
		      struct netlink_ext_ack *extack);
int ibtrace_trace_report(const struct ibtrace_trace_ctx *tc,
			 const struct ibtrace_hop *hop);

/* trace_mcast.c */
int ibtrace_trace_mcast(const struct ibtrace_trace_ctx *tc);

/* sa.c */
int ibtrace_sa_path_lookup(struct ibtrace_port *port, const union ib_gid *dgid,
			   u32 timeout_ms, const bool *stop,
			   struct ibtrace_path *path,
			   struct netlink_ext_ack *extack);
void ibtrace_sa_init(void);
void ibtrace_sa_exit(void);

/* addr.c */
struct ib_ah *ibtrace_ah_create(struct ibtrace_port *port,
				const union ib_gid *dgid,
				const struct ibtrace_path *path,
				struct netlink_ext_ack *extack);
void ibtrace_ah_destroy(struct ib_ah *ah);
int ibtrace_addr_check(struct ibtrace_port *port, const union ib_gid *dgid,
		       u32 dlid, struct netlink_ext_ack *extack);

#endif /* _IBTRACE_H */
