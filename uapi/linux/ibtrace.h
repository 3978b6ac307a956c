/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * ibtrace: InfiniBand path tracing and conformance toolkit - netlink uAPI.
 *
 * Generic netlink family IBTRACE_GENL_NAME, version IBTRACE_GENL_VERSION.
 * Every request is validated strictly: unknown attributes, attributes of
 * the wrong type or length and values out of range are rejected with an
 * extended ACK message naming the attribute.
 *
 * The machine-readable description of this interface is
 * Documentation/netlink/specs/ibtrace.yaml; the two must agree.
 */
#ifndef _UAPI_LINUX_IBTRACE_H
#define _UAPI_LINUX_IBTRACE_H

#define IBTRACE_GENL_NAME	"ibtrace"
#define IBTRACE_GENL_VERSION	1

/* Vendor MAD class served by the in-kernel agent (OpenIB "ibtracer"). */
#define IBTRACE_MGMT_CLASS		0x30
#define IBTRACE_MGMT_CLASS_VERSION	1
#define IBTRACE_OUI			0x001405
#define IBTRACE_ATTR_CLASS_PORT_INFO	0x0001
#define IBTRACE_ATTR_SOURCE_ROUTE	0x0010
/* Longest incoming-port vector a SourceRoute probe carries. */
#define IBTRACE_SROUTE_MAX_HOPS		64

/*
 * The SourceRoute attribute (IBTRACE_ATTR_SOURCE_ROUTE): byte offsets in
 * the data area of the class 0x30 MAD, which begins at MAD byte 40 after
 * the vendor range 2 header (Documentation/ibtrace.rst, "SourceRoute").
 */

/**
 * define IBTRACE_SROUTE_ACTUAL_PORT - SourceRoute byte 0, the Actual
 *	Incoming Port Number; the agent writes the port the probe arrived on
 *	into the response, whatever the status
 */
#define IBTRACE_SROUTE_ACTUAL_PORT	0

/**
 * define IBTRACE_SROUTE_HOP_COUNT - SourceRoute byte 1, the Current Hop
 *	Count, 1..%IBTRACE_SROUTE_MAX_HOPS; another value is answered with
 *	status 0x001C
 */
#define IBTRACE_SROUTE_HOP_COUNT	1

/**
 * define IBTRACE_SROUTE_VECTOR - SourceRoute bytes 2..65, the vector of
 *	incoming port numbers; entry i is the port the probe is expected to
 *	arrive on at hop i + 1, and the agent compares entry hop count - 1
 *	with its own (status 0 when equal, else 0x001C)
 */
#define IBTRACE_SROUTE_VECTOR		2

/*
 * Request bounds and defaults: the ranges the kernel's policies accept for
 * the request attributes named, and what an absent attribute means.
 */

/**
 * define IBTRACE_MAX_UNICAST_LID - highest DLID a ping, a trace or a test
 *	accepts (%IBTRACE_A_PING_DLID, %IBTRACE_A_TRACE_DLID,
 *	%IBTRACE_A_TEST_LID, from 1), the highest unicast LID
 */
#define IBTRACE_MAX_UNICAST_LID		0xbfff

/**
 * define IBTRACE_MIN_MULTICAST_LID - lowest %IBTRACE_A_TRACE_MLID, the first
 *	multicast LID
 */
#define IBTRACE_MIN_MULTICAST_LID	0xc000

/**
 * define IBTRACE_MAX_MULTICAST_LID - highest %IBTRACE_A_TRACE_MLID, the last
 *	multicast LID (0xffff is the permissive LID)
 */
#define IBTRACE_MAX_MULTICAST_LID	0xfffe

/**
 * define IBTRACE_DEF_TIMEOUT_MS - wait per MAD attempt of a ping, a trace
 *	or a test when %IBTRACE_A_PING_TIMEOUT_MS, %IBTRACE_A_TRACE_TIMEOUT_MS
 *	or %IBTRACE_A_TEST_TIMEOUT_MS is absent (libibmad's default)
 */
#define IBTRACE_DEF_TIMEOUT_MS		1000

/**
 * define IBTRACE_MAX_TIMEOUT_MS - longest wait per MAD attempt those three
 *	attributes accept, from 1 ms
 */
#define IBTRACE_MAX_TIMEOUT_MS		60000

/**
 * define IBTRACE_DEF_RETRIES - attempts after a timeout when
 *	%IBTRACE_A_PING_RETRIES, %IBTRACE_A_TRACE_RETRIES or
 *	%IBTRACE_A_TEST_RETRIES is absent (libibmad's default)
 */
#define IBTRACE_DEF_RETRIES		3

/**
 * define IBTRACE_MAX_RETRIES - most attempts after a timeout those three
 *	attributes accept, from 0
 */
#define IBTRACE_MAX_RETRIES		100

/**
 * define IBTRACE_PING_MAX_COUNT - most probes %IBTRACE_A_PING_COUNT asks
 *	for, from 1 (1 when absent)
 */
#define IBTRACE_PING_MAX_COUNT		100000

/**
 * define IBTRACE_PING_DEF_INTERVAL_MS - gap between probes when
 *	%IBTRACE_A_PING_INTERVAL_MS is absent
 */
#define IBTRACE_PING_DEF_INTERVAL_MS	1000

/**
 * define IBTRACE_PING_MAX_INTERVAL_MS - longest gap between probes
 *	%IBTRACE_A_PING_INTERVAL_MS accepts, from 0
 */
#define IBTRACE_PING_MAX_INTERVAL_MS	60000

/**
 * define IBTRACE_TEST_DEF_RNR_TIMER - the RNR NAK timer code the RNR test
 *	measures when %IBTRACE_A_TEST_RNR_TIMER is absent
 */
#define IBTRACE_TEST_DEF_RNR_TIMER	1

/**
 * define IBTRACE_TEST_DEF_RNR_RETRY - the requester's rnr_retry when
 *	%IBTRACE_A_TEST_RNR_RETRY is absent
 */
#define IBTRACE_TEST_DEF_RNR_RETRY	1

/**
 * define IBTRACE_TEST_DEF_ITERATIONS - runs per timer code when
 *	%IBTRACE_A_TEST_ITERATIONS is absent
 */
#define IBTRACE_TEST_DEF_ITERATIONS	5

/**
 * define IBTRACE_TEST_MAX_SIZE - largest SEND %IBTRACE_A_TEST_SIZE asks
 *	for, in bytes, from 1
 */
#define IBTRACE_TEST_MAX_SIZE		65536

/**
 * define IBTRACE_TEST_MAX_DEADLINE_MS - longest %IBTRACE_A_TEST_DEADLINE_MS,
 *	from 1 ms
 */
#define IBTRACE_TEST_MAX_DEADLINE_MS	600000

/**
 * define IBTRACE_TEST_LIMIT_DEF_BUDGET_MB - memory the limit test lets its
 *	objects take (by its estimate per object) when
 *	%IBTRACE_A_TEST_LIMIT_BUDGET_MB is absent
 */
#define IBTRACE_TEST_LIMIT_DEF_BUDGET_MB	64

/**
 * define IBTRACE_TEST_LIMIT_MAX_BUDGET_MB - largest budget
 *	%IBTRACE_A_TEST_LIMIT_BUDGET_MB accepts, from 1
 */
#define IBTRACE_TEST_LIMIT_MAX_BUDGET_MB	4096

/**
 * define IBTRACE_TEST_LIMIT_MAX_WIDTH - most object sets
 *	%IBTRACE_A_TEST_LIMIT_WIDTH asks for, from 1 (1 when absent)
 */
#define IBTRACE_TEST_LIMIT_MAX_WIDTH		64

/**
 * define IBTRACE_TEST_PERF_DEF_ITERATIONS - operations the perf test times
 *	when %IBTRACE_A_TEST_ITERATIONS is absent (dapltest -T P's default)
 */
#define IBTRACE_TEST_PERF_DEF_ITERATIONS	1000

/**
 * define IBTRACE_TEST_PERF_MAX_ITERATIONS - most operations of a perf test
 */
#define IBTRACE_TEST_PERF_MAX_ITERATIONS	1000000

/**
 * define IBTRACE_TEST_PERF_DEF_SEG_SIZE - bytes of a segment when
 *	%IBTRACE_A_TEST_PERF_SEG_SIZE is absent (dapltest's default)
 */
#define IBTRACE_TEST_PERF_DEF_SEG_SIZE		4096

/**
 * define IBTRACE_TEST_PERF_MAX_BYTES - most bytes of one operation (segment
 *	size times segments); the device may allow less
 */
#define IBTRACE_TEST_PERF_MAX_BYTES		(4 << 20)

/**
 * define IBTRACE_TEST_PERF_MAX_SEGS - most segments (local SGEs) of one
 *	operation, from 1 (1 when absent); the device may allow fewer
 */
#define IBTRACE_TEST_PERF_MAX_SEGS		16

/**
 * define IBTRACE_TEST_PERF_DEF_PIPELINE - operations in flight when
 *	%IBTRACE_A_TEST_PERF_PIPELINE is absent
 */
#define IBTRACE_TEST_PERF_DEF_PIPELINE		16

/**
 * define IBTRACE_TEST_PERF_MAX_PIPELINE - most operations in flight, from 1
 */
#define IBTRACE_TEST_PERF_MAX_PIPELINE		64

/**
 * define IBTRACE_TEST_TXN_DEF_ITERATIONS - times the transaction test runs
 *	its sequence of operations over each endpoint when
 *	%IBTRACE_A_TEST_ITERATIONS is absent (dapltest -T T's default)
 */
#define IBTRACE_TEST_TXN_DEF_ITERATIONS	1000

/**
 * define IBTRACE_TEST_TXN_MAX_THREADS - most threads of a transaction test
 *	(%IBTRACE_A_TEST_TXN_THREADS, from 1; 1 when absent)
 */
#define IBTRACE_TEST_TXN_MAX_THREADS	16

/**
 * define IBTRACE_TEST_TXN_MAX_ENDPOINTS - most endpoints (connections) of
 *	one thread (%IBTRACE_A_TEST_TXN_ENDPOINTS, from 1; 1 when absent)
 */
#define IBTRACE_TEST_TXN_MAX_ENDPOINTS	16

/**
 * define IBTRACE_TEST_DEF_ACK_TIMEOUT - local ACK timeout of the perf and
 *	transaction tests' QPs (%IBTRACE_A_TEST_ACK_TIMEOUT absent) and of
 *	the server's: 4.096 us << 14 = 67 ms, perftest's default
 */
#define IBTRACE_TEST_DEF_ACK_TIMEOUT	14

/**
 * define IBTRACE_TEST_MAX_ACK_TIMEOUT - largest %IBTRACE_A_TEST_ACK_TIMEOUT
 *	(4.096 us << 31, about 2.4 hours; 0, no timeout, is refused)
 */
#define IBTRACE_TEST_MAX_ACK_TIMEOUT	31

/**
 * define IBTRACE_TEST_TXN_MAX_OPS - most operations in the sequence, the
 *	three validation appends (%IBTRACE_A_TEST_TXN_VALIDATE) included
 */
#define IBTRACE_TEST_TXN_MAX_OPS	16

/**
 * define IBTRACE_TEST_TXN_MAX_BYTES - most bytes of all the operations of
 *	the sequence together (segment size times segments, summed): the
 *	buffer each side registers for one endpoint
 */
#define IBTRACE_TEST_TXN_MAX_BYTES	(4 << 20)

/* Traces that may run at once; one more is refused with EBUSY. */
#define IBTRACE_TRACE_MAX_RUNNING	64
/* Longest directed route a trace follows (IBA C14-6: hop count 0..63). */
#define IBTRACE_TRACE_MAX_HOPS		63
/* Finished jobs of each kind whose results are kept (the oldest go first). */
#define IBTRACE_JOB_MAX_KEPT		32
/* Conformance test jobs that may run at once; one more gets EBUSY. */
#define IBTRACE_TEST_MAX_RUNNING	8
/* Finished test jobs whose results are kept (the oldest go first). */
#define IBTRACE_TEST_MAX_KEPT		IBTRACE_JOB_MAX_KEPT
/* GUIDInfo blocks the GUIDInfo test reads at most (0..31: 256 GUIDs). */
#define IBTRACE_TEST_GUIDINFO_BLOCKS	32
/* MAD exchanges a test job records one by one (the rest are counted). */
#define IBTRACE_TEST_MAX_EXCHANGES	512
/* Iterations per RNR timer code the RNR test makes at most. */
#define IBTRACE_TEST_RNR_MAX_ITERATIONS	100
/* Number of RNR NAK timer codes (0..31). */
#define IBTRACE_TEST_RNR_CODES		32
/* RDMA CM port (TCP port space) of the RNR responder, by default. */
#define IBTRACE_RNR_RESPONDER_PORT	7471
/* Connections the server (IBTRACE_CMD_SERVER_START) holds at once: default, bound. */
#define IBTRACE_SERVER_DEF_CONNS	16
#define IBTRACE_SERVER_MAX_CONNS	256
/* Longest hold a server's client may ask for, ms: default, least, bound. */
#define IBTRACE_SERVER_DEF_HOLD_MS	60000
#define IBTRACE_SERVER_MIN_HOLD_MS	1000
#define IBTRACE_SERVER_MAX_HOLD_MS	600000
/* Memory one connection of the server may take, KiB: default, least, bound. */
#define IBTRACE_SERVER_DEF_MEM_KB	8192
#define IBTRACE_SERVER_MIN_MEM_KB	4
#define IBTRACE_SERVER_MAX_MEM_KB	262144
/* Name of the multicast group of test job events (joining needs CAP_NET_ADMIN). */
#define IBTRACE_MCGRP_TEST		"test"
/* Name of the multicast group of trace events (joining needs CAP_NET_ADMIN). */
#define IBTRACE_MCGRP_TRACE		"trace"
/* Name of the multicast group of ping events (joining needs CAP_NET_ADMIN). */
#define IBTRACE_MCGRP_PING		"ping"
/* Pings that may run at once; one more is refused with EBUSY. */
#define IBTRACE_PING_MAX_RUNNING	64
/* Name of the multicast group of MAD sends (joining needs CAP_NET_ADMIN). */
#define IBTRACE_MCGRP_MAD		"mad"
/* MAD sends (IBTRACE_CMD_MAD_SEND) that may run at once; one more gets EBUSY. */
#define IBTRACE_MAD_MAX_RUNNING		16
/* Name of the multicast group of route audit jobs (joining needs CAP_NET_ADMIN). */
#define IBTRACE_MCGRP_AUDIT		"audit"
/* Sweeps (IBTRACE_CMD_SWEEP) that may run at once; one more gets EBUSY. */
#define IBTRACE_SWEEP_MAX_RUNNING	4
/* Finished sweeps whose nodes are kept for IBTRACE_CMD_SWEEP_NODE (the oldest go first). */
#define IBTRACE_SWEEP_MAX_KEPT		4
/* SMPs a sweep keeps out at once (IBTRACE_A_SWEEP_WINDOW): default, bound. */
#define IBTRACE_SWEEP_DEF_WINDOW	16
#define IBTRACE_SWEEP_MAX_WINDOW	256
/* Nodes a sweep keeps (IBTRACE_A_SWEEP_MAX_NODES): default and bound. */
#define IBTRACE_SWEEP_MAX_NODES		65536
/* Memory a sweep's nodes and tables may take, MiB; past it nodes are counted, not kept. */
#define IBTRACE_SWEEP_MAX_MB		64
/* LinearForwardingTable entries in one IBTRACE_SWEEP_NODE_A_LFT at most. */
#define IBTRACE_SWEEP_LFT_CHUNK		2048
/*
 * Proofs (IBTRACE_CMD_PROVE) that may run at once, one per port of a host
 * with an HCA per rail (one more gets EBUSY); a proof takes about 100 KiB.
 */
#define IBTRACE_PROVE_MAX_RUNNING	16
/*
 * Finished proofs whose verdicts are kept for IBTRACE_CMD_PROVE_DEST (the
 * oldest go first): as many as run, so that each is read before it goes.
 */
#define IBTRACE_PROVE_MAX_KEPT		IBTRACE_PROVE_MAX_RUNNING
/* Destinations one proof takes (IBTRACE_A_PROVE_DEST) at most. */
#define IBTRACE_PROVE_MAX_DESTS		1024
/* SourceRoute probes a proof keeps out at once (IBTRACE_A_PROVE_WINDOW): default, bound. */
#define IBTRACE_PROVE_DEF_WINDOW	16
#define IBTRACE_PROVE_MAX_WINDOW	256
/* Most MADs one IBTRACE_CMD_MAD_SEND sends (IBTRACE_A_MAD_COUNT). */
#define IBTRACE_MAD_MAX_COUNT		100000
/* Longest attribute data of a MAD (IBTRACE_A_MAD_DATA): all of a GMP's data. */
#define IBTRACE_MAD_MAX_DATA		232
/**
 * ibtrace_mad_data_offset() - where the attribute data of a MAD begins
 * @mgmt_class: the MAD's management class
 *
 * The one rule the kernel writes %IBTRACE_A_MAD_DATA by and the tool
 * decodes answers by (IBA 13.4 and each class's MAD format).
 *
 * Return: the byte offset in the MAD: 64 for an SMP, LID-routed (0x01) or
 * directed-route (0x81); 56 for SA (0x03), after the RMPP and SA headers;
 * 64 for PerfMgt (0x04), BM (0x05), DevMgt (0x06) and CongMgt (0x21),
 * after their 40 class-specific bytes; 40 for vendor range 2
 * (0x30..0x4f), after the RMPP header and the OUI; 24, after the common
 * header, for any other class.
 */
static inline unsigned int ibtrace_mad_data_offset(unsigned char mgmt_class)
{
	switch (mgmt_class) {
	case 0x01:
	case 0x81:
		return 64;
	case 0x03:
		return 56;
	case 0x04:
	case 0x05:
	case 0x06:
	case 0x21:
		return 64;
	}
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f)
		return 40;
	return 24;
}

/**
 * ibtrace_mad_method_reads() - whether a MAD method cannot change the fabric
 * @method: the method
 *
 * Return: nonzero for Get (0x01), GetTable (0x12), GetTraceTable (0x13)
 * and GetMulti (0x14): the methods %IBTRACE_CMD_MAD_SEND sends without
 * %IBTRACE_A_MAD_ALLOW_SET.
 */
static inline int ibtrace_mad_method_reads(unsigned char method)
{
	return method == 0x01 || method == 0x12 || method == 0x13 ||
	       method == 0x14;
}

/*
 * Most directed-route hops of an SMP (IBTRACE_A_MAD_DR_PATH): the initial
 * path's entries 1..63 (IBA C14-6).
 */
#define IBTRACE_MAD_MAX_DR_HOPS		63

/**
 * enum ibtrace_cmd - generic netlink commands
 * @IBTRACE_CMD_UNSPEC: unused
 * @IBTRACE_CMD_DEV_GET: RDMA ports seen by ibtrace, one message per port.
 *	Do: the port named by %IBTRACE_A_DEV_NAME or %IBTRACE_A_DEV_INDEX
 *	and %IBTRACE_A_PORT (all required). Dump: every port of every
 *	device, or of the named device, or only the named port.
 * @IBTRACE_CMD_AGENT_GET: the class 0x30 agent of each port and its
 *	counters (%IBTRACE_A_AGENT_STATS). Same selection as DEV_GET.
 * @IBTRACE_CMD_PING: send VendorGet(ClassPortInfo), or VendorGet(SourceRoute)
 *	when %IBTRACE_A_PING_SROUTE is given, to %IBTRACE_A_PING_DGID or
 *	%IBTRACE_A_PING_DLID from the selected device and port. The ping is
 *	a job: the reply carries %IBTRACE_A_JOB at once; then
 *	%IBTRACE_CMD_PING_PROBE messages go to the requester as the ping
 *	runs (its probes in order, in batches of one or more, each batch
 *	sent at most 10 ms after its first probe), and at its end an
 *	%IBTRACE_CMD_PING message with the job's head
 *	(%IBTRACE_A_JOB_STATE finished, %IBTRACE_A_JOB_ERRNO when it ended
 *	early) and %IBTRACE_A_PING_SUMMARY; both also go to the
 *	%IBTRACE_MCGRP_PING group. Messages that do not fit the requester's
 *	receive buffer are dropped (%IBTRACE_CMD_JOB_GET still tells). On an
 *	InfiniBand port a DGID without a DLID is resolved by an SA PathRecord
 *	query. Closing the requesting socket cancels the ping, unless
 *	%IBTRACE_A_JOB_DETACH was given. At most %IBTRACE_PING_MAX_RUNNING
 *	pings run at once (EBUSY beyond). Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_PING_PROBE: kernel to user only: the results of one or
 *	more probes, in order (%IBTRACE_A_PING_PROBE, one per probe).
 * @IBTRACE_CMD_TRACE: trace the path from the selected device and port
 *	(port 1 by default) to %IBTRACE_A_TRACE_DLID, or to
 *	%IBTRACE_A_TRACE_DGID (resolved by an SA PathRecord query on
 *	InfiniBand). The walk uses directed-route SMPs from the local port
 *	outward, following each switch's linear forwarding table, and asks
 *	every node's class 0x30 agent (ClassPortInfo, then SourceRoute with
 *	the incoming ports so far). The trace is a job: the reply carries
 *	%IBTRACE_A_TRACE_ID (the job's ID, also as %IBTRACE_A_JOB) at once.
 *	Each hop, as soon as it is known, goes to the requester as an
 *	%IBTRACE_CMD_TRACE_HOP message, and the end as an %IBTRACE_CMD_TRACE
 *	message with the job's head, %IBTRACE_A_TRACE_STATUS and the totals,
 *	also when the trace failed on the fabric (no route, port down, ...),
 *	or with %IBTRACE_A_JOB_ERRNO (and %IBTRACE_A_TRACE_ERRNO) when it
 *	ended early (cancelled: ECANCELED). Every hop message and the end
 *	also go to the %IBTRACE_MCGRP_TRACE group, each with the trace's
 *	%IBTRACE_A_TRACE_ID. On a RoCE port (no SMPs) the trace is one hop:
 *	the agent proof of the destination only (%IBTRACE_A_TRACE_ONE_HOP).
 *	With %IBTRACE_A_TRACE_MLID the walk is a breadth-first search of the
 *	MLID's multicast forwarding tables from the local port; the path to
 *	the destination is reported once it is found, its hops are not asked
 *	for agent proof, and a destination the tables do not reach ends with
 *	%IBTRACE_TRACE_NOT_IN_TREE. Closing the requesting socket cancels the
 *	trace, unless %IBTRACE_A_JOB_DETACH was given. At most
 *	%IBTRACE_TRACE_MAX_RUNNING traces run at once; beyond that the
 *	request fails with EBUSY. Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_TRACE_HOP: kernel to user only: one hop of a running trace
 *	(%IBTRACE_A_TRACE_HOP) and its %IBTRACE_A_TRACE_ID, unicast to the
 *	requester (sequence number 0), and the same on the
 *	%IBTRACE_MCGRP_TRACE group.
 * @IBTRACE_CMD_TEST_LIST: dump only: the conformance tests the module
 *	knows, one message each: %IBTRACE_A_TEST_NAME, %IBTRACE_A_TEST_SEED,
 *	%IBTRACE_A_TEST_DESC, %IBTRACE_A_TEST_NEEDS and one
 *	%IBTRACE_A_TEST_ASSERTION (id and description only) per assertion.
 * @IBTRACE_CMD_TEST_RUN: start the test %IBTRACE_A_TEST_NAME as a kernel
 *	job against a DUT port: the selected local device and port (port 1
 *	by default) itself, the node at the end of the directed route
 *	%IBTRACE_A_TEST_DR_PATH from it, or the node of LID
 *	%IBTRACE_A_TEST_LID. The reply carries %IBTRACE_A_TEST_JOB at once;
 *	the job runs on, sends %IBTRACE_CMD_TEST_EVENT messages to the
 *	%IBTRACE_MCGRP_TEST group and keeps its result for
 *	%IBTRACE_CMD_TEST_GET. Closing the requesting socket cancels the job,
 *	unless %IBTRACE_A_JOB_DETACH was given. At most
 *	%IBTRACE_TEST_MAX_RUNNING jobs run at once (EBUSY beyond). Needs
 *	CAP_NET_ADMIN.
 * @IBTRACE_CMD_TEST_GET: do: the job %IBTRACE_A_TEST_JOB, running or
 *	finished, with its assertions and exchanges so far; dump: every job
 *	kept, without exchanges. Needs CAP_NET_ADMIN (a job shows its DUT's
 *	GUIDs, LID, route and GUID table, or its peer's GID).
 * @IBTRACE_CMD_TEST_CANCEL: cancel the running job %IBTRACE_A_TEST_JOB.
 *	The job stops within a second (a MAD in flight is taken back),
 *	restores what it changed on the DUT (each restore exchange then waits
 *	at most 750 ms, once; the first unanswered one ends the restore), and
 *	finishes with verdict %IBTRACE_TEST_VERDICT_ERROR and reason
 *	"cancelled"; its FINISHED event follows. Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_TEST_EVENT: kernel to user only, on %IBTRACE_MCGRP_TEST
 *	(joining it needs CAP_NET_ADMIN):
 *	%IBTRACE_A_TEST_JOB, %IBTRACE_A_TEST_NAME, %IBTRACE_A_TEST_EVENT and,
 *	by event, %IBTRACE_A_TEST_PROGRESS (exchanges so far),
 *	%IBTRACE_A_TEST_ASSERTION (one decided assertion) or the verdict
 *	attributes (%IBTRACE_A_TEST_VERDICT, %IBTRACE_A_TEST_REASON,
 *	%IBTRACE_A_TEST_RESTORE).
 * @IBTRACE_CMD_JOB_GET: do: the job %IBTRACE_A_JOB (any kind), running
 *	or finished: %IBTRACE_A_JOB_KIND, %IBTRACE_A_JOB_STATE, the port,
 *	%IBTRACE_A_JOB_ELAPSED_NS, how it ended (%IBTRACE_A_JOB_ERRNO,
 *	%IBTRACE_A_JOB_MESSAGE) and the kind's results so far: a ping's
 *	%IBTRACE_A_PING_SUMMARY, a trace's hops and result attributes, a
 *	test's assertions and exchanges (as %IBTRACE_CMD_TEST_GET), a
 *	sweep's %IBTRACE_A_SWEEP_STATS, a proof's %IBTRACE_A_PROVE_STATS.
 *	Dump:
 *	every job kept, without a trace's hops or a test's exchanges.
 *	Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_JOB_CANCEL: cancel the running job %IBTRACE_A_JOB (any
 *	kind). It takes effect within a second, also while a MAD is
 *	outstanding; the job's end message follows (its %IBTRACE_A_JOB_ERRNO
 *	is ECANCELED). ENOENT: no such job; EALREADY: it has finished.
 *	Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_SERVER_START: start the module's RDMA CM service (off until
 *	an admin starts it; the RNR test's peer mode and the perf test need
 *	it on the peer):
 *	listen on %IBTRACE_A_SERVER_PORT (default: the module parameter
 *	rnr_responder_port) of every address, accepting connections on
 *	every device or only on the one named (%IBTRACE_A_DEV_NAME or
 *	%IBTRACE_A_DEV_INDEX), at most %IBTRACE_A_SERVER_MAX_CONNS at once,
 *	each held at most %IBTRACE_A_SERVER_MAX_HOLD_MS (plus 10 s) and
 *	taking at most %IBTRACE_A_SERVER_MAX_MEM_KB of buffers. EBUSY
 *	when it runs already. The reply is that of %IBTRACE_CMD_SERVER_GET.
 * @IBTRACE_CMD_SERVER_STOP: stop listening and close every connection
 *	(clients see a disconnect). ENOENT when it does not run. The reply
 *	carries %IBTRACE_A_SERVER_RUNNING 0 and, in
 *	%IBTRACE_A_SERVER_CONNS, the connections closed.
 * @IBTRACE_CMD_SERVER_GET: do: the server's state: %IBTRACE_A_SERVER_RUNNING
 *	and, when it runs, its address, port, device, bounds, counters
 *	(%IBTRACE_A_SERVER_STATS) and one %IBTRACE_A_SERVER_CONN per
 *	connection (the peers' GIDs: CAP_NET_ADMIN).
 * @IBTRACE_CMD_MAD_SEND: send a MAD composed from the request's
 *	%IBTRACE_A_MAD_* attributes from the selected device and port,
 *	%IBTRACE_A_MAD_COUNT times, and wait for each answer (the exerciser,
 *	Documentation/ibtrace.rst "Sending any MAD"). A job, as a ping: the
 *	reply carries %IBTRACE_A_JOB at once; %IBTRACE_CMD_MAD_ANSWER
 *	messages follow (batched as a ping's probes), and at the end an
 *	%IBTRACE_CMD_MAD_SEND message with the job's head and
 *	%IBTRACE_A_MAD_SUMMARY; both also go to the %IBTRACE_MCGRP_MAD
 *	group. Methods other than Get, GetTable,
 *	GetTraceTable and GetMulti need %IBTRACE_A_MAD_ALLOW_SET. At most
 *	%IBTRACE_MAD_MAX_RUNNING run at once.
 * @IBTRACE_CMD_MAD_ANSWER: kernel to user only: one or more MADs sent
 *	and their answers, in order (%IBTRACE_A_MAD_ANSWER, one per MAD)
 * @IBTRACE_CMD_SWEEP: sweep the subnet from the selected device and port
 *	(InfiniBand only), the route audit's first step: every node reached
 *	by directed route, its NodeInfo, NodeDescription and PortInfo (every
 *	port of a switch, the entered port of a channel adapter), the links
 *	between them, and each switch's SwitchInfo and LinearForwardingTable
 *	blocks up to LinearFDBTop; at most %IBTRACE_A_SWEEP_WINDOW SMPs out
 *	at once, each retried on its own. A job: the reply carries
 *	%IBTRACE_A_JOB at once; %IBTRACE_CMD_SWEEP messages with the job's
 *	head and %IBTRACE_A_SWEEP_STATS follow as it goes (at most ten a
 *	second) and at its end; they also go to the %IBTRACE_MCGRP_AUDIT
 *	group. The nodes are read with %IBTRACE_CMD_SWEEP_NODE. At most
 *	%IBTRACE_SWEEP_MAX_RUNNING run at once. Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_SWEEP_NODE: dump only: the nodes of the finished sweep
 *	%IBTRACE_A_JOB, each message one %IBTRACE_A_SWEEP_NODE: a node's
 *	facts and its ports (a node with more ports than a message holds
 *	continues in the next message, with its %IBTRACE_SWEEP_NODE_A_INDEX
 *	only), then its table in pieces (%IBTRACE_SWEEP_NODE_A_LFT_OFFSET and
 *	%IBTRACE_SWEEP_NODE_A_LFT). ENOENT: no such sweep; EBUSY: it runs.
 *	Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_PROVE: prove the data path to destinations from the
 *	selected device and port (InfiniBand only), the route audit's second
 *	step: to each %IBTRACE_A_PROVE_DEST one LID-routed
 *	VendorGet(SourceRoute) carrying the incoming-port vector its route
 *	predicts, at most %IBTRACE_A_PROVE_WINDOW out at once, each retried
 *	on its own; the destination's agent answers whether the probe came
 *	in by the predicted port. A job: the reply carries %IBTRACE_A_JOB at
 *	once; %IBTRACE_CMD_PROVE messages with the job's head and
 *	%IBTRACE_A_PROVE_STATS follow as it goes (at most ten a second) and
 *	at its end; they also go to the %IBTRACE_MCGRP_AUDIT group. The
 *	verdicts are read with %IBTRACE_CMD_PROVE_DEST. At most
 *	%IBTRACE_PROVE_MAX_RUNNING run at once. Needs CAP_NET_ADMIN.
 * @IBTRACE_CMD_PROVE_DEST: dump only: the verdicts of the finished proof
 *	%IBTRACE_A_JOB, one %IBTRACE_A_PROVE_DEST per destination in the
 *	order of the request. ENOENT: no such proof; EBUSY: it runs.
 *	Needs CAP_NET_ADMIN.
 * @__IBTRACE_CMD_MAX: number of commands + 1
 * @IBTRACE_CMD_MAX: highest command number
 */
enum ibtrace_cmd {
	IBTRACE_CMD_UNSPEC,
	IBTRACE_CMD_DEV_GET,
	IBTRACE_CMD_AGENT_GET,
	IBTRACE_CMD_PING,
	IBTRACE_CMD_PING_PROBE,
	IBTRACE_CMD_TRACE,
	IBTRACE_CMD_TRACE_HOP,
	IBTRACE_CMD_TEST_LIST,
	IBTRACE_CMD_TEST_RUN,
	IBTRACE_CMD_TEST_GET,
	IBTRACE_CMD_TEST_CANCEL,
	IBTRACE_CMD_TEST_EVENT,
	IBTRACE_CMD_JOB_GET,
	IBTRACE_CMD_JOB_CANCEL,
	IBTRACE_CMD_SERVER_START,
	IBTRACE_CMD_SERVER_STOP,
	IBTRACE_CMD_SERVER_GET,
	IBTRACE_CMD_MAD_SEND,
	IBTRACE_CMD_MAD_ANSWER,
	IBTRACE_CMD_SWEEP,
	IBTRACE_CMD_SWEEP_NODE,
	IBTRACE_CMD_PROVE,
	IBTRACE_CMD_PROVE_DEST,

	__IBTRACE_CMD_MAX,
	IBTRACE_CMD_MAX = __IBTRACE_CMD_MAX - 1
};

/**
 * enum ibtrace_attr - top-level attributes
 * @IBTRACE_A_UNSPEC: unused
 * @IBTRACE_A_PAD: padding for 64-bit attributes
 * @IBTRACE_A_DEV_INDEX: u32, RDMA device index
 * @IBTRACE_A_DEV_NAME: string, RDMA device name (e.g. "rxe0", "mlx5_0")
 * @IBTRACE_A_PORT: u32, port number (1-based)
 * @IBTRACE_A_LINK_LAYER: u8, &enum ibtrace_link_layer
 * @IBTRACE_A_PORT_STATE: u8, &enum ibtrace_port_state
 * @IBTRACE_A_LID: u32, base LID (IB link layer only)
 * @IBTRACE_A_LMC: u8, LID mask control (IB link layer only)
 * @IBTRACE_A_SM_LID: u32, LID of the master SM (IB link layer only)
 * @IBTRACE_A_GID: binary (16 bytes), GID table entry 0
 * @IBTRACE_A_PORT_GUID: u64, port GUID (host order): the interface ID of
 *	GID 0 (on RoCE derived from the MAC address)
 * @IBTRACE_A_AGENT: u8, 1 if the class 0x30 agent is registered on the port
 * @IBTRACE_A_AGENT_STATS: nest, &enum ibtrace_stat_attr
 * @IBTRACE_A_PING_DGID: binary (16 bytes), destination GID
 * @IBTRACE_A_PING_DLID: u32, destination LID (1..0xbfff, IB link layer)
 * @IBTRACE_A_PING_COUNT: u32, probes to send (1..100000, default 1)
 * @IBTRACE_A_PING_INTERVAL_MS: u32, gap between probes (0..60000, default
 *	1000)
 * @IBTRACE_A_PING_TIMEOUT_MS: u32, wait for a reply per attempt
 *	(1..60000, default 1000)
 * @IBTRACE_A_PING_RETRIES: u32, extra attempts after a timeout (0..100,
 *	default 3)
 * @IBTRACE_A_PING_SROUTE: binary (1..64 bytes), expected incoming port per
 *	hop; sends VendorGet(SourceRoute) with hop count = length
 * @IBTRACE_A_PING_PROBE: nest, &enum ibtrace_probe_attr; repeated in a
 *	batch
 * @IBTRACE_A_PING_SUMMARY: nest, &enum ibtrace_summary_attr
 * @IBTRACE_A_TRACE_DLID: u32, trace destination LID (1..0xbfff); in the
 *	reply: the DLID traced (from the SA when a DGID was given)
 * @IBTRACE_A_TRACE_DGID: binary (16 bytes), trace destination GID
 * @IBTRACE_A_TRACE_TIMEOUT_MS: u32, wait per SMP or vendor MAD attempt
 *	(1..60000, default 1000)
 * @IBTRACE_A_TRACE_RETRIES: u32, extra attempts after a timeout (0..100,
 *	default 3)
 * @IBTRACE_A_TRACE_HOP: nest, &enum ibtrace_hop_attr
 * @IBTRACE_A_TRACE_STATUS: u8, &enum ibtrace_trace_status
 * @IBTRACE_A_TRACE_HOPS: u32, hops reported (the source is hop 0)
 * @IBTRACE_A_TRACE_FAIL_HOP: u32, index of the hop where the trace failed
 * @IBTRACE_A_TRACE_FAIL_PORT: u8, port of the failing hop at fault (the
 *	exit port with no route or not Active)
 * @IBTRACE_A_TRACE_MAD_STATUS: u16, MAD status of a failed SMP (host
 *	order, direction bit cleared)
 * @IBTRACE_A_TRACE_FDB_TOP: u32, LinearFDBTop of the switch for
 *	%IBTRACE_TRACE_NO_ROUTE_TOP
 * @IBTRACE_A_TRACE_SMPS: u32, SMPs sent in all (attempts)
 * @IBTRACE_A_TRACE_VENDOR_MADS: u32, class 0x30 MADs sent in all (attempts)
 * @IBTRACE_A_TRACE_ELAPSED_NS: u64, time the kernel spent on the trace
 * @IBTRACE_A_TRACE_ONE_HOP: u8, 1: a RoCE one-hop trace (agent proof of the
 *	destination only, no switches seen)
 * @IBTRACE_A_TEST_NAME: string, conformance test name ("guidinfo")
 * @IBTRACE_A_TEST_SEED: string, the IBTA compliance test it follows
 *	("C14_024_05")
 * @IBTRACE_A_TEST_DESC: string, one-line description
 * @IBTRACE_A_TEST_NEEDS: string, what the DUT must offer
 * @IBTRACE_A_TEST_JOB: u32, job ID (from 1, not reused while the module
 *	is loaded)
 * @IBTRACE_A_TEST_DR_PATH: binary (1..63 bytes), directed route to the
 *	DUT: the exit port of each node from the local one outward, the
 *	first being the local port
 * @IBTRACE_A_TEST_LID: u32, LID of the DUT (1..0xbfff); LID-routed SMPs
 * @IBTRACE_A_TEST_DUT_PORT: u8, port of the DUT node to test; default:
 *	the port the SMPs arrive on (a CA), port 0 (a switch). A switch
 *	external port is not applicable to GUIDInfo.
 * @IBTRACE_A_TEST_BLOCKS: u32, GUIDInfo blocks to exercise, 1..
 *	%IBTRACE_TEST_GUIDINFO_BLOCKS (default all)
 * @IBTRACE_A_TEST_TIMEOUT_MS: u32, wait per MAD attempt (1..60000,
 *	default 1000)
 * @IBTRACE_A_TEST_RETRIES: u32, extra attempts after a timeout (0..100,
 *	default 3)
 * @IBTRACE_A_TEST_STATE: u8, &enum ibtrace_test_state
 * @IBTRACE_A_TEST_VERDICT: u8, &enum ibtrace_test_verdict
 * @IBTRACE_A_TEST_REASON: string, why the verdict is not applicable or
 *	error, or which assertion failed first
 * @IBTRACE_A_TEST_ASSERTION: nest, &enum ibtrace_assert_attr (repeated)
 * @IBTRACE_A_TEST_EXCHANGE: nest, &enum ibtrace_xchg_attr (repeated, in
 *	the order the job made them)
 * @IBTRACE_A_TEST_RESTORE: u8, &enum ibtrace_test_restore
 * @IBTRACE_A_TEST_EVENT: u8, &enum ibtrace_test_event
 * @IBTRACE_A_TEST_PROGRESS: u32, MAD exchanges made so far
 * @IBTRACE_A_TEST_ELAPSED_NS: u64, time since the job started (to its end
 *	when finished)
 * @IBTRACE_A_TEST_DUT_NODE_GUID: u64, NodeInfo.NodeGUID of the DUT
 * @IBTRACE_A_TEST_DUT_PORT_GUID: u64, NodeInfo.PortGUID of the DUT
 * @IBTRACE_A_TEST_DUT_NODE_TYPE: u8, &enum ibtrace_node_type of the DUT
 * @IBTRACE_A_TEST_DUT_LID: u32, PortInfo.LID of the DUT port
 * @IBTRACE_A_TEST_GUID_CAP: u8, PortInfo.GUIDCap of the DUT port
 * @IBTRACE_A_TEST_EXCHANGES: u32, MAD exchanges in all (the job's
 *	%IBTRACE_A_TEST_EXCHANGE list holds the first
 *	%IBTRACE_TEST_MAX_EXCHANGES)
 * @IBTRACE_A_TEST_RNR_TIMER: u8, RNR NAK timer code under test (0..31;
 *	default 1); the RNR test
 * @IBTRACE_A_TEST_RNR_ALL: flag, test every timer code (0..31) instead
 * @IBTRACE_A_TEST_RNR_RETRY: u8, rnr_retry of the requester (0..7, default
 *	1; 7, infinite, only with %IBTRACE_A_TEST_DEADLINE_MS)
 * @IBTRACE_A_TEST_SIZE: u32, bytes of the SEND (1..65536; default the
 *	path MTU)
 * @IBTRACE_A_TEST_ITERATIONS: u32, the RNR test: runs per timer code (1..
 *	%IBTRACE_TEST_RNR_MAX_ITERATIONS, default 5); the perf test:
 *	operations timed (1..%IBTRACE_TEST_PERF_MAX_ITERATIONS, default
 *	%IBTRACE_TEST_PERF_DEF_ITERATIONS); the transaction test: times the
 *	sequence runs over each endpoint (same range, default
 *	%IBTRACE_TEST_TXN_DEF_ITERATIONS)
 * @IBTRACE_A_TEST_POLL: u8, &enum ibtrace_test_poll (default busy)
 * @IBTRACE_A_TEST_RNR_RECV_POSTED: flag, negative control: the responder
 *	posts a receive buffer, so no RNR NAK happens and the test must fail
 * @IBTRACE_A_TEST_RNR_CODE: nest, &enum ibtrace_rnr_attr, the figures of
 *	one timer code (repeated, one per code measured)
 * @IBTRACE_A_TEST_PEER_GID: binary (16 bytes), the GID of a host whose
 *	ibtrace server (%IBTRACE_CMD_SERVER_START) serves the test, reached
 *	through the kernel RDMA CM: peer mode of the RNR test (absent:
 *	loopback on the local port); required by the perf test
 * @IBTRACE_A_TEST_PEER_PORT: u16, RDMA CM port of the peer's server
 *	(default the local module parameter rnr_responder_port)
 * @IBTRACE_A_TEST_DEADLINE_MS: u32, longest wait for one SEND's
 *	completion (1..600000); required with rnr_retry 7, where the SEND
 *	must not complete before it
 * @IBTRACE_A_TEST_RNR_WIRE: u8, &enum ibtrace_rnr_wire, whether the RNR
 *	NAKs and the retries were seen on the wire
 * @IBTRACE_A_TEST_RNR_WIRE_WHY: string, why the wire could not be seen
 *	(with %IBTRACE_RNR_WIRE_NOT_VISIBLE)
 * @IBTRACE_A_TRACE_ID: u32, trace ID (from 1, not reused while the module
 *	is loaded), in every message of a trace
 * @IBTRACE_A_TRACE_ERRNO: u32, in a trace's end message: the trace ended
 *	early with this error (as %IBTRACE_A_JOB_ERRNO; ECANCELED: it was
 *	cancelled)
 * @IBTRACE_A_TRACE_MLID: u32, multicast LID (0xc000..0xfffe): trace the
 *	path a packet to this MLID takes from the local port to the
 *	destination, following the switches' MulticastForwardingTables; in
 *	the reply: the MLID traced
 * @IBTRACE_A_JOB: u32, job ID (from 1, one sequence for every kind of
 *	job, not reused while the module is loaded); a test job's
 *	%IBTRACE_A_TEST_JOB and a trace's %IBTRACE_A_TRACE_ID are the same
 *	number
 * @IBTRACE_A_JOB_KIND: u8, &enum ibtrace_job_kind
 * @IBTRACE_A_JOB_STATE: u8, &enum ibtrace_test_state (running, finished)
 * @IBTRACE_A_JOB_ERRNO: u32, in a job's end message and GET: the job
 *	ended early with this error (ECANCELED: cancelled, ENODEV: the
 *	device went away, ESHUTDOWN: the module is unloading, others: the
 *	job could not go on, see %IBTRACE_A_JOB_MESSAGE)
 * @IBTRACE_A_JOB_MESSAGE: string, why the job ended early, one sentence
 * @IBTRACE_A_JOB_ELAPSED_NS: u64, time since the job started (to its end
 *	when finished)
 * @IBTRACE_A_JOB_DETACH: flag, in a request that starts a job: the job
 *	goes on when the requester's socket closes (without it the job is
 *	cancelled then), and its messages go to the multicast group only
 * @IBTRACE_A_SERVER_PORT: u16, RDMA CM port (TCP port space) the server
 *	listens on, 1..65535
 * @IBTRACE_A_SERVER_MAX_CONNS: u32, connections the server holds at once,
 *	1..%IBTRACE_SERVER_MAX_CONNS (default %IBTRACE_SERVER_DEF_CONNS); one
 *	more is rejected
 * @IBTRACE_A_SERVER_MAX_HOLD_MS: u32, longest hold a client may ask for,
 *	%IBTRACE_SERVER_MIN_HOLD_MS..%IBTRACE_SERVER_MAX_HOLD_MS (default
 *	%IBTRACE_SERVER_DEF_HOLD_MS); a request for more is rejected, a
 *	connection is closed at its hold plus 10 s
 * @IBTRACE_A_SERVER_RUNNING: u8, 1 if the server listens
 * @IBTRACE_A_SERVER_ADDR: binary, 16 bytes: the address listened on (an
 *	IPv6 address; all zeros: every address)
 * @IBTRACE_A_SERVER_CONNS: u32, connections held (SERVER_STOP: closed)
 * @IBTRACE_A_SERVER_CONN: nest, &enum ibtrace_server_conn_attr, one
 *	connection (repeated)
 * @IBTRACE_A_SERVER_STATS: nest, &enum ibtrace_server_stat_attr, counters
 *	since the server started
 * @IBTRACE_A_TEST_LIMIT_OBJECTS: u32, the limit test: the objects to
 *	exhaust, a mask of bits (1 << &enum ibtrace_limit_object); absent:
 *	all of them
 * @IBTRACE_A_TEST_LIMIT_MAX: u32, the limit test: most objects of a kind
 *	it creates (dapltest's -m; for size_mr, pages of the largest
 *	region); absent: until the device or the memory budget stops it
 * @IBTRACE_A_TEST_LIMIT_WIDTH: u32, the limit test: sets of {PD, CQ, QP}
 *	made first, over which the objects under test are spread
 *	(dapltest's -w; 1..%IBTRACE_TEST_LIMIT_MAX_WIDTH, default 1)
 * @IBTRACE_A_TEST_LIMIT_BUDGET_MB: u32, the limit test: memory its objects
 *	may take, by its estimate per object (1..
 *	%IBTRACE_TEST_LIMIT_MAX_BUDGET_MB, default
 *	%IBTRACE_TEST_LIMIT_DEF_BUDGET_MB)
 * @IBTRACE_A_TEST_LIMIT: nest, &enum ibtrace_limit_attr, what the limit
 *	test found for one kind of object (repeated, in the order run)
 * @IBTRACE_A_TEST_PERF_OP: u8, the perf test: &enum ibtrace_perf_op
 *	(required)
 * @IBTRACE_A_TEST_PERF_SEG_SIZE: u32, the perf test: bytes of a segment
 *	(1..%IBTRACE_TEST_PERF_MAX_BYTES, default
 *	%IBTRACE_TEST_PERF_DEF_SEG_SIZE)
 * @IBTRACE_A_TEST_PERF_SEGS: u32, the perf test: segments of one operation
 *	(1..%IBTRACE_TEST_PERF_MAX_SEGS, default 1); segment size times
 *	segments at most %IBTRACE_TEST_PERF_MAX_BYTES
 * @IBTRACE_A_TEST_PERF_PIPELINE: u32, the perf test: operations in flight
 *	(1..%IBTRACE_TEST_PERF_MAX_PIPELINE, default
 *	%IBTRACE_TEST_PERF_DEF_PIPELINE)
 * @IBTRACE_A_TEST_PERF: nest, &enum ibtrace_perf_attr, the perf test's
 *	figures
 * @IBTRACE_A_SERVER_MAX_MEM_KB: u32, memory one connection of the server
 *	may take (its buffers), %IBTRACE_SERVER_MIN_MEM_KB..
 *	%IBTRACE_SERVER_MAX_MEM_KB (default %IBTRACE_SERVER_DEF_MEM_KB); a
 *	request for more is rejected
 * @IBTRACE_A_TEST_QUIT: nest, &enum ibtrace_quit_attr, what the quit test
 *	(dapltest -T Q) saw of the peer's server
 * @IBTRACE_A_SERVER_QUITTING: u8, 1 while the server quits: a client
 *	asked it to (the quit test); it refuses new connections, and stops
 *	once the connections it holds have ended
 * @IBTRACE_A_SERVER_QUIT_PEER: binary, 16 bytes: the address (as a GID)
 *	of the client that asked the server to quit, with
 *	%IBTRACE_A_SERVER_QUITTING
 * @IBTRACE_A_TEST_TXN_THREADS: u32, the transaction test: threads
 *	(dapltest's -t; 1..%IBTRACE_TEST_TXN_MAX_THREADS, default 1)
 * @IBTRACE_A_TEST_TXN_ENDPOINTS: u32, the transaction test: endpoints
 *	(connections) per thread (dapltest's -w;
 *	1..%IBTRACE_TEST_TXN_MAX_ENDPOINTS, default 1)
 * @IBTRACE_A_TEST_TXN_VALIDATE: flag, the transaction test: validate the
 *	data (dapltest's -V): three SEND/RECV operations are appended as
 *	synchronisation points, at which every buffer is checked
 * @IBTRACE_A_TEST_TXN_OP: nest, &enum ibtrace_txn_op_attr, one operation of
 *	the transaction test's sequence (repeated, in order, at least one;
 *	in results also the three validation appends)
 * @IBTRACE_A_TEST_TXN_CORRUPT: u32, the transaction test's negative
 *	control (with %IBTRACE_A_TEST_TXN_VALIDATE): in the first iteration
 *	the server flips the byte at this offset of the first operation whose
 *	data it provides (a server SR or RW, or a client RR), so the check
 *	must fail naming that operation and offset
 * @IBTRACE_A_TEST_TXN_EP: nest, &enum ibtrace_txn_ep_attr, the figures of
 *	one endpoint of one thread (repeated)
 * @IBTRACE_A_TEST_ACK_TIMEOUT: u8, the perf and transaction tests: local
 *	ACK timeout of the client's QPs, 4.096 us << N (perftest's -u;
 *	1..%IBTRACE_TEST_MAX_ACK_TIMEOUT, default
 *	%IBTRACE_TEST_DEF_ACK_TIMEOUT); the server's QPs keep the default
 * @IBTRACE_A_MAD_CLASS: u8, the MAD's management class (required; 0x01
 *	LID-routed and 0x81 directed-route SMPs go out on QP 0, every other
 *	class on QP 1 or %IBTRACE_A_MAD_QPN)
 * @IBTRACE_A_MAD_CLASS_VERSION: u8, class version (default 1)
 * @IBTRACE_A_MAD_BASE_VERSION: u8, base version (default 1)
 * @IBTRACE_A_MAD_METHOD: u8, method (required; see %IBTRACE_CMD_MAD_SEND)
 * @IBTRACE_A_MAD_ATTR_ID: u16, attribute ID (default 0)
 * @IBTRACE_A_MAD_ATTR_MOD: u32, attribute modifier (default 0)
 * @IBTRACE_A_MAD_STATUS: u16, the request's status field, as sent
 *	(default 0; a directed-route SMP's D bit included)
 * @IBTRACE_A_MAD_TID: u32, the low 32 bits of the transaction ID (ib_mad
 *	owns the high 32 bits: they route the answer back); default: a new
 *	one per attempt
 * @IBTRACE_A_MAD_MKEY: u64, an SMP's M_Key (default 0)
 * @IBTRACE_A_MAD_OUI: u32, the OUI of a vendor class of range 2
 *	(0x30..0x4f), 0..0xffffff (default 0)
 * @IBTRACE_A_MAD_COMP_MASK: u64, an SA MAD's ComponentMask (default 0)
 * @IBTRACE_A_MAD_DATA: binary (1..%IBTRACE_MAD_MAX_DATA bytes), the
 *	attribute data, written at the class's data offset
 *	(ibtrace_mad_data_offset()); longer than the class's data is EINVAL
 * @IBTRACE_A_MAD_DR_PATH: binary (1..%IBTRACE_MAD_MAX_DR_HOPS bytes), a
 *	directed-route SMP's initial path, entries 1..n: its length is the
 *	hop count (no path: hop count 0, the local port)
 * @IBTRACE_A_MAD_DR_SLID: u16, a directed-route SMP's DrSLID (default
 *	0xffff, permissive)
 * @IBTRACE_A_MAD_DR_DLID: u16, a directed-route SMP's DrDLID (default
 *	0xffff, permissive)
 * @IBTRACE_A_MAD_HOP_PTR: u8, a directed-route SMP's hop pointer as sent
 *	(default 0; ib_mad refuses to send what IBA C14-9 would discard, and
 *	the MAD is then counted as a send error)
 * @IBTRACE_A_MAD_DLID: u32, destination LID (1..0xffff); for a
 *	directed-route SMP the LID its LID-routed part starts with (default:
 *	the permissive LID)
 * @IBTRACE_A_MAD_DGID: binary (16 bytes), destination GID: a GRH is sent
 * @IBTRACE_A_MAD_SL: u8, service level, 0..15 (default 0)
 * @IBTRACE_A_MAD_PKEY_INDEX: u16, P_Key index of the send (default 0)
 * @IBTRACE_A_MAD_QPN: u32, destination QP of a GMP, 1..0xffffff (default
 *	1); sent with QP 1's Q_Key, the only one ib_mad sends with
 * @IBTRACE_A_MAD_COUNT: u32, MADs to send (1..%IBTRACE_MAD_MAX_COUNT,
 *	default 1), one at a time
 * @IBTRACE_A_MAD_INTERVAL_MS: u32, gap between sends (0..
 *	%IBTRACE_PING_MAX_INTERVAL_MS, default 0)
 * @IBTRACE_A_MAD_TIMEOUT_MS: u32, wait for an answer per attempt
 *	(1..%IBTRACE_MAX_TIMEOUT_MS, default %IBTRACE_DEF_TIMEOUT_MS)
 * @IBTRACE_A_MAD_RETRIES: u32, extra attempts after a timeout
 *	(0..%IBTRACE_MAX_RETRIES, default %IBTRACE_DEF_RETRIES)
 * @IBTRACE_A_MAD_NO_WAIT: flag, do not wait for answers: each MAD counts
 *	as sent once it left
 * @IBTRACE_A_MAD_ALLOW_SET: flag, allow a method that can change the
 *	fabric (every method but Get, GetTable, GetTraceTable, GetMulti)
 * @IBTRACE_A_MAD_ANSWER: nest, &enum ibtrace_probe_attr: one MAD sent
 *	(%IBTRACE_PROBE_A_TID) and its answer (%IBTRACE_PROBE_A_MAD);
 *	repeated in a batch
 * @IBTRACE_A_MAD_SUMMARY: nest, &enum ibtrace_summary_attr: the send's
 *	statistics
 * @IBTRACE_A_SWEEP_WINDOW: u32, SMPs out at once, 1..
 *	%IBTRACE_SWEEP_MAX_WINDOW (default %IBTRACE_SWEEP_DEF_WINDOW)
 * @IBTRACE_A_SWEEP_TIMEOUT_MS: u32, wait for an answer per attempt
 *	(1..%IBTRACE_MAX_TIMEOUT_MS, default %IBTRACE_DEF_TIMEOUT_MS)
 * @IBTRACE_A_SWEEP_RETRIES: u32, extra attempts after a timeout
 *	(0..%IBTRACE_MAX_RETRIES, default %IBTRACE_DEF_RETRIES)
 * @IBTRACE_A_SWEEP_MAX_NODES: u32, nodes kept at most, 1..
 *	%IBTRACE_SWEEP_MAX_NODES (the default); nodes found past it, or past
 *	%IBTRACE_SWEEP_MAX_MB of memory, are counted
 *	(%IBTRACE_SWEEP_STAT_A_NOT_KEPT) and not swept further
 * @IBTRACE_A_SWEEP_STATS: nest, &enum ibtrace_sweep_stat_attr: a sweep's
 *	figures so far
 * @IBTRACE_A_SWEEP_NODE: nest, &enum ibtrace_sweep_node_attr: one node of
 *	a sweep (or the next part of it)
 * @IBTRACE_A_PROVE_WINDOW: u32, SourceRoute probes out at once, 1..
 *	%IBTRACE_PROVE_MAX_WINDOW (default %IBTRACE_PROVE_DEF_WINDOW)
 * @IBTRACE_A_PROVE_TIMEOUT_MS: u32, wait for an answer per attempt
 *	(1..%IBTRACE_MAX_TIMEOUT_MS, default %IBTRACE_DEF_TIMEOUT_MS)
 * @IBTRACE_A_PROVE_RETRIES: u32, extra attempts after a timeout
 *	(0..%IBTRACE_MAX_RETRIES, default %IBTRACE_DEF_RETRIES)
 * @IBTRACE_A_PROVE_DEST: nest, &enum ibtrace_prove_dest_attr: in a
 *	request, one destination (repeated, 1..%IBTRACE_PROVE_MAX_DESTS:
 *	%IBTRACE_PROVE_DEST_A_LID and %IBTRACE_PROVE_DEST_A_VECTOR); in a
 *	dump, one destination's verdict
 * @IBTRACE_A_PROVE_STATS: nest, &enum ibtrace_prove_stat_attr: a proof's
 *	figures so far
 * @__IBTRACE_A_MAX: number of attributes + 1
 * @IBTRACE_A_MAX: highest attribute number
 */
enum ibtrace_attr {
	IBTRACE_A_UNSPEC,
	IBTRACE_A_PAD,
	IBTRACE_A_DEV_INDEX,
	IBTRACE_A_DEV_NAME,
	IBTRACE_A_PORT,
	IBTRACE_A_LINK_LAYER,
	IBTRACE_A_PORT_STATE,
	IBTRACE_A_LID,
	IBTRACE_A_LMC,
	IBTRACE_A_SM_LID,
	IBTRACE_A_GID,
	IBTRACE_A_PORT_GUID,
	IBTRACE_A_AGENT,
	IBTRACE_A_AGENT_STATS,
	IBTRACE_A_PING_DGID,
	IBTRACE_A_PING_DLID,
	IBTRACE_A_PING_COUNT,
	IBTRACE_A_PING_INTERVAL_MS,
	IBTRACE_A_PING_TIMEOUT_MS,
	IBTRACE_A_PING_RETRIES,
	IBTRACE_A_PING_SROUTE,
	IBTRACE_A_PING_PROBE,
	IBTRACE_A_PING_SUMMARY,
	IBTRACE_A_TRACE_DLID,
	IBTRACE_A_TRACE_DGID,
	IBTRACE_A_TRACE_TIMEOUT_MS,
	IBTRACE_A_TRACE_RETRIES,
	IBTRACE_A_TRACE_HOP,
	IBTRACE_A_TRACE_STATUS,
	IBTRACE_A_TRACE_HOPS,
	IBTRACE_A_TRACE_FAIL_HOP,
	IBTRACE_A_TRACE_FAIL_PORT,
	IBTRACE_A_TRACE_MAD_STATUS,
	IBTRACE_A_TRACE_FDB_TOP,
	IBTRACE_A_TRACE_SMPS,
	IBTRACE_A_TRACE_VENDOR_MADS,
	IBTRACE_A_TRACE_ELAPSED_NS,
	IBTRACE_A_TRACE_ONE_HOP,
	IBTRACE_A_TEST_NAME,
	IBTRACE_A_TEST_SEED,
	IBTRACE_A_TEST_DESC,
	IBTRACE_A_TEST_NEEDS,
	IBTRACE_A_TEST_JOB,
	IBTRACE_A_TEST_DR_PATH,
	IBTRACE_A_TEST_LID,
	IBTRACE_A_TEST_DUT_PORT,
	IBTRACE_A_TEST_BLOCKS,
	IBTRACE_A_TEST_TIMEOUT_MS,
	IBTRACE_A_TEST_RETRIES,
	IBTRACE_A_TEST_STATE,
	IBTRACE_A_TEST_VERDICT,
	IBTRACE_A_TEST_REASON,
	IBTRACE_A_TEST_ASSERTION,
	IBTRACE_A_TEST_EXCHANGE,
	IBTRACE_A_TEST_RESTORE,
	IBTRACE_A_TEST_EVENT,
	IBTRACE_A_TEST_PROGRESS,
	IBTRACE_A_TEST_ELAPSED_NS,
	IBTRACE_A_TEST_DUT_NODE_GUID,
	IBTRACE_A_TEST_DUT_PORT_GUID,
	IBTRACE_A_TEST_DUT_NODE_TYPE,
	IBTRACE_A_TEST_DUT_LID,
	IBTRACE_A_TEST_GUID_CAP,
	IBTRACE_A_TEST_EXCHANGES,
	IBTRACE_A_TEST_RNR_TIMER,
	IBTRACE_A_TEST_RNR_ALL,
	IBTRACE_A_TEST_RNR_RETRY,
	IBTRACE_A_TEST_SIZE,
	IBTRACE_A_TEST_ITERATIONS,
	IBTRACE_A_TEST_POLL,
	IBTRACE_A_TEST_RNR_RECV_POSTED,
	IBTRACE_A_TEST_RNR_CODE,
	IBTRACE_A_TEST_PEER_GID,
	IBTRACE_A_TEST_PEER_PORT,
	IBTRACE_A_TEST_DEADLINE_MS,
	IBTRACE_A_TEST_RNR_WIRE,
	IBTRACE_A_TEST_RNR_WIRE_WHY,
	IBTRACE_A_TRACE_ID,
	IBTRACE_A_TRACE_ERRNO,
	IBTRACE_A_TRACE_MLID,
	IBTRACE_A_JOB,
	IBTRACE_A_JOB_KIND,
	IBTRACE_A_JOB_STATE,
	IBTRACE_A_JOB_ERRNO,
	IBTRACE_A_JOB_MESSAGE,
	IBTRACE_A_JOB_ELAPSED_NS,
	IBTRACE_A_JOB_DETACH,
	IBTRACE_A_SERVER_PORT,
	IBTRACE_A_SERVER_MAX_CONNS,
	IBTRACE_A_SERVER_MAX_HOLD_MS,
	IBTRACE_A_SERVER_RUNNING,
	IBTRACE_A_SERVER_ADDR,
	IBTRACE_A_SERVER_CONNS,
	IBTRACE_A_SERVER_CONN,
	IBTRACE_A_SERVER_STATS,
	IBTRACE_A_TEST_LIMIT_OBJECTS,
	IBTRACE_A_TEST_LIMIT_MAX,
	IBTRACE_A_TEST_LIMIT_WIDTH,
	IBTRACE_A_TEST_LIMIT_BUDGET_MB,
	IBTRACE_A_TEST_LIMIT,
	IBTRACE_A_TEST_PERF_OP,
	IBTRACE_A_TEST_PERF_SEG_SIZE,
	IBTRACE_A_TEST_PERF_SEGS,
	IBTRACE_A_TEST_PERF_PIPELINE,
	IBTRACE_A_TEST_PERF,
	IBTRACE_A_SERVER_MAX_MEM_KB,
	IBTRACE_A_TEST_QUIT,
	IBTRACE_A_SERVER_QUITTING,
	IBTRACE_A_SERVER_QUIT_PEER,
	IBTRACE_A_TEST_TXN_THREADS,
	IBTRACE_A_TEST_TXN_ENDPOINTS,
	IBTRACE_A_TEST_TXN_VALIDATE,
	IBTRACE_A_TEST_TXN_OP,
	IBTRACE_A_TEST_TXN_CORRUPT,
	IBTRACE_A_TEST_TXN_EP,
	IBTRACE_A_TEST_ACK_TIMEOUT,
	IBTRACE_A_MAD_CLASS,
	IBTRACE_A_MAD_CLASS_VERSION,
	IBTRACE_A_MAD_BASE_VERSION,
	IBTRACE_A_MAD_METHOD,
	IBTRACE_A_MAD_ATTR_ID,
	IBTRACE_A_MAD_ATTR_MOD,
	IBTRACE_A_MAD_STATUS,
	IBTRACE_A_MAD_TID,
	IBTRACE_A_MAD_MKEY,
	IBTRACE_A_MAD_OUI,
	IBTRACE_A_MAD_COMP_MASK,
	IBTRACE_A_MAD_DATA,
	IBTRACE_A_MAD_DR_PATH,
	IBTRACE_A_MAD_DR_SLID,
	IBTRACE_A_MAD_DR_DLID,
	IBTRACE_A_MAD_HOP_PTR,
	IBTRACE_A_MAD_DLID,
	IBTRACE_A_MAD_DGID,
	IBTRACE_A_MAD_SL,
	IBTRACE_A_MAD_PKEY_INDEX,
	IBTRACE_A_MAD_QPN,
	IBTRACE_A_MAD_COUNT,
	IBTRACE_A_MAD_INTERVAL_MS,
	IBTRACE_A_MAD_TIMEOUT_MS,
	IBTRACE_A_MAD_RETRIES,
	IBTRACE_A_MAD_NO_WAIT,
	IBTRACE_A_MAD_ALLOW_SET,
	IBTRACE_A_MAD_ANSWER,
	IBTRACE_A_MAD_SUMMARY,
	IBTRACE_A_SWEEP_WINDOW,
	IBTRACE_A_SWEEP_TIMEOUT_MS,
	IBTRACE_A_SWEEP_RETRIES,
	IBTRACE_A_SWEEP_MAX_NODES,
	IBTRACE_A_SWEEP_STATS,
	IBTRACE_A_SWEEP_NODE,
	IBTRACE_A_PROVE_WINDOW,
	IBTRACE_A_PROVE_TIMEOUT_MS,
	IBTRACE_A_PROVE_RETRIES,
	IBTRACE_A_PROVE_DEST,
	IBTRACE_A_PROVE_STATS,

	__IBTRACE_A_MAX,
	IBTRACE_A_MAX = __IBTRACE_A_MAX - 1
};

/**
 * enum ibtrace_job_kind - what a job does
 * @IBTRACE_JOB_TEST: a conformance test (%IBTRACE_CMD_TEST_RUN)
 * @IBTRACE_JOB_PING: a ping (%IBTRACE_CMD_PING)
 * @IBTRACE_JOB_TRACE: a trace (%IBTRACE_CMD_TRACE)
 * @IBTRACE_JOB_MAD: MADs sent (%IBTRACE_CMD_MAD_SEND)
 * @IBTRACE_JOB_SWEEP: a subnet sweep (%IBTRACE_CMD_SWEEP)
 * @IBTRACE_JOB_PROVE: a data-path proof (%IBTRACE_CMD_PROVE)
 */
enum ibtrace_job_kind {
	IBTRACE_JOB_TEST,
	IBTRACE_JOB_PING,
	IBTRACE_JOB_TRACE,
	IBTRACE_JOB_MAD,
	IBTRACE_JOB_SWEEP,
	IBTRACE_JOB_PROVE,
};

/**
 * enum ibtrace_link_layer - link layer of a port
 * @IBTRACE_LINK_LAYER_UNSPEC: unknown
 * @IBTRACE_LINK_LAYER_IB: InfiniBand
 * @IBTRACE_LINK_LAYER_ETH: Ethernet (RoCE)
 */
enum ibtrace_link_layer {
	IBTRACE_LINK_LAYER_UNSPEC,
	IBTRACE_LINK_LAYER_IB,
	IBTRACE_LINK_LAYER_ETH,
};

/**
 * enum ibtrace_port_state - logical port state (IBA PortInfo.PortState)
 * @IBTRACE_PORT_STATE_NOP: no state change / unknown
 * @IBTRACE_PORT_STATE_DOWN: Down
 * @IBTRACE_PORT_STATE_INIT: Initialize
 * @IBTRACE_PORT_STATE_ARMED: Armed
 * @IBTRACE_PORT_STATE_ACTIVE: Active
 * @IBTRACE_PORT_STATE_ACTIVE_DEFER: ActiveDefer
 */
enum ibtrace_port_state {
	IBTRACE_PORT_STATE_NOP,
	IBTRACE_PORT_STATE_DOWN,
	IBTRACE_PORT_STATE_INIT,
	IBTRACE_PORT_STATE_ARMED,
	IBTRACE_PORT_STATE_ACTIVE,
	IBTRACE_PORT_STATE_ACTIVE_DEFER,
};

/**
 * enum ibtrace_stat_attr - agent counters, all u64
 * @IBTRACE_STAT_UNSPEC: unused
 * @IBTRACE_STAT_PAD: padding
 * @IBTRACE_STAT_RX: requests of class 0x30 received by the agent;
 *	RX = ANSWERED + TX_ERROR
 * @IBTRACE_STAT_ANSWERED: responses sent (any status); ANSWERED = SUCCESS
 *	+ MISMATCH + MALFORMED + UNSUPPORTED
 * @IBTRACE_STAT_MISMATCH: SourceRoute probes whose expected incoming port
 *	differed from the port the probe arrived on (answered 0x001C)
 * @IBTRACE_STAT_MALFORMED: requests rejected as malformed: SourceRoute hop
 *	count 0 or > 64 (answered 0x001C)
 * @IBTRACE_STAT_UNSUPPORTED: requests answered "unsupported method" or
 *	"unsupported method/attribute": UNSUPPORTED_METHOD + UNSUPPORTED_ATTR
 * @IBTRACE_STAT_SUCCESS: requests answered with status 0
 * @IBTRACE_STAT_UNSUPPORTED_METHOD: requests of a method other than
 *	VendorGet, answered 0x0008
 * @IBTRACE_STAT_UNSUPPORTED_ATTR: VendorGet of an attribute other than
 *	ClassPortInfo and SourceRoute, answered 0x000C
 * @IBTRACE_STAT_TX_ERROR: requests left unanswered because the answer could
 *	not be sent (no address handle to the sender, no memory, post failed)
 * @IBTRACE_STAT_STRAY: responses that matched no request of ours, dropped
 * @IBTRACE_STAT_INVALID_ANSWER: answers that ib_mad matched to a request of
 *	the port (class 0x30 or an SMP) by TID but that did not answer it:
 *	another source LID than the request's DLID (LID-routed, no GRH),
 *	method, attribute, class version or OUI; dropped, as if lost
 * @IBTRACE_STAT_AH_MADE: address handles the agent made for its answers
 * @IBTRACE_STAT_AH_REUSED: answers sent with an address handle made for an
 *	earlier answer to the same place (kept per port for up to a second)
 * @__IBTRACE_STAT_MAX: number of attributes + 1
 * @IBTRACE_STAT_MAX: highest attribute number
 */
enum ibtrace_stat_attr {
	IBTRACE_STAT_UNSPEC,
	IBTRACE_STAT_PAD,
	IBTRACE_STAT_RX,
	IBTRACE_STAT_ANSWERED,
	IBTRACE_STAT_MISMATCH,
	IBTRACE_STAT_MALFORMED,
	IBTRACE_STAT_UNSUPPORTED,
	IBTRACE_STAT_SUCCESS,
	IBTRACE_STAT_UNSUPPORTED_METHOD,
	IBTRACE_STAT_UNSUPPORTED_ATTR,
	IBTRACE_STAT_TX_ERROR,
	IBTRACE_STAT_STRAY,
	IBTRACE_STAT_INVALID_ANSWER,
	IBTRACE_STAT_AH_MADE,
	IBTRACE_STAT_AH_REUSED,

	__IBTRACE_STAT_MAX,
	IBTRACE_STAT_MAX = __IBTRACE_STAT_MAX - 1
};

/**
 * enum ibtrace_probe_status - outcome of one probe
 * @IBTRACE_PROBE_OK: answered with MAD status 0
 * @IBTRACE_PROBE_TIMEOUT: no answer after all retries
 * @IBTRACE_PROBE_REMOTE_ERROR: answered with a non-zero MAD status
 *	(%IBTRACE_PROBE_A_MAD_STATUS)
 * @IBTRACE_PROBE_SEND_ERROR: the MAD could not be sent
 * @IBTRACE_PROBE_SENT: sent, no answer awaited (%IBTRACE_A_MAD_NO_WAIT)
 */
enum ibtrace_probe_status {
	IBTRACE_PROBE_OK,
	IBTRACE_PROBE_TIMEOUT,
	IBTRACE_PROBE_REMOTE_ERROR,
	IBTRACE_PROBE_SEND_ERROR,
	IBTRACE_PROBE_SENT,
};

/**
 * enum ibtrace_probe_attr - one probe's result
 * @IBTRACE_PROBE_A_UNSPEC: unused
 * @IBTRACE_PROBE_A_PAD: padding
 * @IBTRACE_PROBE_A_SEQ: u32, probe number, from 1
 * @IBTRACE_PROBE_A_STATUS: u8, &enum ibtrace_probe_status
 * @IBTRACE_PROBE_A_MAD_STATUS: u16, MAD status of the answer (host order;
 *	a directed-route SMP's direction bit cleared)
 * @IBTRACE_PROBE_A_RTT_NS: u64, round trip of the answered attempt
 * @IBTRACE_PROBE_A_ATTEMPTS: u32, attempts sent (1 + retries used)
 * @IBTRACE_PROBE_A_SLID: u32, LID the answer came from (0 on RoCE)
 * @IBTRACE_PROBE_A_SGID: binary (16 bytes), GID the answer came from
 *	(when it carried a GRH)
 * @IBTRACE_PROBE_A_ACTUAL_PORT: u8, SourceRoute: port the probe arrived on
 * @IBTRACE_PROBE_A_CPI_BASE_VERSION: u8, ClassPortInfo.BaseVersion
 * @IBTRACE_PROBE_A_CPI_CLASS_VERSION: u8, ClassPortInfo.ClassVersion
 * @IBTRACE_PROBE_A_CPI_CAP_MASK: u16, ClassPortInfo.CapabilityMask
 * @IBTRACE_PROBE_A_CPI_RESP_TIME: u8, ClassPortInfo.RespTimeValue
 * @IBTRACE_PROBE_A_TID: u64, %IBTRACE_CMD_MAD_ANSWER: the TID of the
 *	last attempt sent
 * @IBTRACE_PROBE_A_MAD: binary (256 bytes), %IBTRACE_CMD_MAD_ANSWER: the
 *	answer MAD as received, header included
 * @__IBTRACE_PROBE_A_MAX: number of attributes + 1
 * @IBTRACE_PROBE_A_MAX: highest attribute number
 */
enum ibtrace_probe_attr {
	IBTRACE_PROBE_A_UNSPEC,
	IBTRACE_PROBE_A_PAD,
	IBTRACE_PROBE_A_SEQ,
	IBTRACE_PROBE_A_STATUS,
	IBTRACE_PROBE_A_MAD_STATUS,
	IBTRACE_PROBE_A_RTT_NS,
	IBTRACE_PROBE_A_ATTEMPTS,
	IBTRACE_PROBE_A_SLID,
	IBTRACE_PROBE_A_SGID,
	IBTRACE_PROBE_A_ACTUAL_PORT,
	IBTRACE_PROBE_A_CPI_BASE_VERSION,
	IBTRACE_PROBE_A_CPI_CLASS_VERSION,
	IBTRACE_PROBE_A_CPI_CAP_MASK,
	IBTRACE_PROBE_A_CPI_RESP_TIME,
	IBTRACE_PROBE_A_TID,
	IBTRACE_PROBE_A_MAD,

	__IBTRACE_PROBE_A_MAX,
	IBTRACE_PROBE_A_MAX = __IBTRACE_PROBE_A_MAX - 1
};

/**
 * enum ibtrace_summary_attr - statistics of a finished ping
 * @IBTRACE_SUMMARY_A_UNSPEC: unused
 * @IBTRACE_SUMMARY_A_PAD: padding
 * @IBTRACE_SUMMARY_A_SENT: u32, probes attempted (including those that
 *	failed to send)
 * @IBTRACE_SUMMARY_A_RECEIVED: u32, probes answered (any MAD status)
 * @IBTRACE_SUMMARY_A_ERRORS: u32, answers with a non-zero MAD status
 * @IBTRACE_SUMMARY_A_RTT_MIN_NS: u64
 * @IBTRACE_SUMMARY_A_RTT_AVG_NS: u64
 * @IBTRACE_SUMMARY_A_RTT_MAX_NS: u64
 * @IBTRACE_SUMMARY_A_RTT_P99_NS: u64
 * @IBTRACE_SUMMARY_A_RTT_MEDIAN_NS: u64
 * @__IBTRACE_SUMMARY_A_MAX: number of attributes + 1
 * @IBTRACE_SUMMARY_A_MAX: highest attribute number
 */
enum ibtrace_summary_attr {
	IBTRACE_SUMMARY_A_UNSPEC,
	IBTRACE_SUMMARY_A_PAD,
	IBTRACE_SUMMARY_A_SENT,
	IBTRACE_SUMMARY_A_RECEIVED,
	IBTRACE_SUMMARY_A_ERRORS,
	IBTRACE_SUMMARY_A_RTT_MIN_NS,
	IBTRACE_SUMMARY_A_RTT_AVG_NS,
	IBTRACE_SUMMARY_A_RTT_MAX_NS,
	IBTRACE_SUMMARY_A_RTT_P99_NS,
	IBTRACE_SUMMARY_A_RTT_MEDIAN_NS,

	__IBTRACE_SUMMARY_A_MAX,
	IBTRACE_SUMMARY_A_MAX = __IBTRACE_SUMMARY_A_MAX - 1
};

/**
 * enum ibtrace_node_type - IBA NodeInfo.NodeType
 * @IBTRACE_NODE_UNKNOWN: not known (RoCE destination)
 * @IBTRACE_NODE_CA: channel adapter
 * @IBTRACE_NODE_SWITCH: switch
 * @IBTRACE_NODE_ROUTER: router
 */
enum ibtrace_node_type {
	IBTRACE_NODE_UNKNOWN,
	IBTRACE_NODE_CA,
	IBTRACE_NODE_SWITCH,
	IBTRACE_NODE_ROUTER,
};

/**
 * enum ibtrace_hop_agent - what a hop's class 0x30 agent said
 * @IBTRACE_HOP_AGENT_LOCAL: the source node; not asked
 * @IBTRACE_HOP_AGENT_VERIFIED: SourceRoute answered with status 0: the
 *	probe arrived on the expected incoming port
 * @IBTRACE_HOP_AGENT_MISMATCH: SourceRoute answered "invalid value": the
 *	probe arrived on %IBTRACE_HOP_A_ACTUAL_PORT, not on
 *	%IBTRACE_HOP_A_EXPECTED_PORT
 * @IBTRACE_HOP_AGENT_NONE: no agent: ClassPortInfo not answered, answered
 *	with an error status, or the node has no LID (skipped)
 * @IBTRACE_HOP_AGENT_FAILED: ClassPortInfo answered, but SourceRoute was
 *	not answered, or with another error status
 * @IBTRACE_HOP_AGENT_UNASKED: not asked: a multicast trace follows the
 *	MulticastForwardingTables, which a SourceRoute probe (LID-routed,
 *	unicast) cannot prove
 */
enum ibtrace_hop_agent {
	IBTRACE_HOP_AGENT_LOCAL,
	IBTRACE_HOP_AGENT_VERIFIED,
	IBTRACE_HOP_AGENT_MISMATCH,
	IBTRACE_HOP_AGENT_NONE,
	IBTRACE_HOP_AGENT_FAILED,
	IBTRACE_HOP_AGENT_UNASKED,
};

/**
 * enum ibtrace_trace_status - how a trace ended
 * @IBTRACE_TRACE_OK: the destination was reached
 * @IBTRACE_TRACE_NO_ROUTE_UNSET: a switch's LFT entry for the DLID is 255
 *	(no route)
 * @IBTRACE_TRACE_NO_ROUTE_TOP: the DLID is past the switch's LinearFDBTop
 *	(%IBTRACE_A_TRACE_FDB_TOP)
 * @IBTRACE_TRACE_NO_ROUTE_PORT: the LFT entry names port 0 or a port beyond
 *	the switch's port count (%IBTRACE_A_TRACE_FAIL_PORT)
 * @IBTRACE_TRACE_DEAD_END: a channel adapter or router on the path does not
 *	hold the DLID, so the path cannot go on
 * @IBTRACE_TRACE_PORT_DOWN: the exit port (%IBTRACE_A_TRACE_FAIL_PORT) is
 *	not Active
 * @IBTRACE_TRACE_TOO_MANY_HOPS: more than %IBTRACE_TRACE_MAX_HOPS hops
 * @IBTRACE_TRACE_LOOP: the path came back to a node already on it
 * @IBTRACE_TRACE_UNRESPONSIVE: an SMP to the hop was not answered after
 *	all retries
 * @IBTRACE_TRACE_SMP_ERROR: an SMP to the hop was answered with a non-zero
 *	MAD status (%IBTRACE_A_TRACE_MAD_STATUS)
 * @IBTRACE_TRACE_SA_FAILED: the SA PathRecord lookup of the DGID failed
 * @IBTRACE_TRACE_DEV_GONE: the device was removed, or the module is
 *	unloading
 * @IBTRACE_TRACE_NOT_IN_TREE: multicast: the MLID's forwarding tables, from
 *	the local port on, reach every node they can without reaching the
 *	destination (%IBTRACE_A_TRACE_FAIL_HOP is 0)
 */
enum ibtrace_trace_status {
	IBTRACE_TRACE_OK,
	IBTRACE_TRACE_NO_ROUTE_UNSET,
	IBTRACE_TRACE_NO_ROUTE_TOP,
	IBTRACE_TRACE_NO_ROUTE_PORT,
	IBTRACE_TRACE_DEAD_END,
	IBTRACE_TRACE_PORT_DOWN,
	IBTRACE_TRACE_TOO_MANY_HOPS,
	IBTRACE_TRACE_LOOP,
	IBTRACE_TRACE_UNRESPONSIVE,
	IBTRACE_TRACE_SMP_ERROR,
	IBTRACE_TRACE_SA_FAILED,
	IBTRACE_TRACE_DEV_GONE,
	IBTRACE_TRACE_NOT_IN_TREE,
};

/**
 * enum ibtrace_hop_attr - one hop of a trace
 * @IBTRACE_HOP_A_UNSPEC: unused
 * @IBTRACE_HOP_A_PAD: padding
 * @IBTRACE_HOP_A_INDEX: u32, hop number, the source is 0
 * @IBTRACE_HOP_A_NODE_TYPE: u8, &enum ibtrace_node_type
 * @IBTRACE_HOP_A_NUM_PORTS: u8, NodeInfo.NumPorts
 * @IBTRACE_HOP_A_NODE_GUID: u64, NodeInfo.NodeGUID (host order)
 * @IBTRACE_HOP_A_PORT_GUID: u64, NodeInfo.PortGUID (host order): the GUID
 *	of the incoming port (of port 0 on a switch)
 * @IBTRACE_HOP_A_LID: u32, base LID (of port 0 on a switch; absent when
 *	not known)
 * @IBTRACE_HOP_A_LMC: u8, LID mask control: the node answers LIDs
 *	LID .. LID + 2^LMC - 1
 * @IBTRACE_HOP_A_NODE_DESC: string, NodeDescription
 * @IBTRACE_HOP_A_IN_PORT: u8, port the path enters the node by (absent on
 *	the source)
 * @IBTRACE_HOP_A_OUT_PORT: u8, port the path leaves the node by (absent on
 *	the destination and on a failing hop)
 * @IBTRACE_HOP_A_AGENT: u8, &enum ibtrace_hop_agent
 * @IBTRACE_HOP_A_EXPECTED_PORT: u8, incoming port the SourceRoute probe
 *	expected
 * @IBTRACE_HOP_A_ACTUAL_PORT: u8, incoming port the agent saw
 * @IBTRACE_HOP_A_SMPS: u32, SMPs sent to learn this hop (attempts)
 * @IBTRACE_HOP_A_SMP_RTT_NS: u64, round trip of the hop's NodeInfo SMP
 * @IBTRACE_HOP_A_VENDOR_MADS: u32, class 0x30 MADs sent to the hop
 * @IBTRACE_HOP_A_VENDOR_RTT_NS: u64, round trip of the hop's last answered
 *	class 0x30 MAD (SourceRoute, else ClassPortInfo)
 * @__IBTRACE_HOP_A_MAX: number of attributes + 1
 * @IBTRACE_HOP_A_MAX: highest attribute number
 */
enum ibtrace_hop_attr {
	IBTRACE_HOP_A_UNSPEC,
	IBTRACE_HOP_A_PAD,
	IBTRACE_HOP_A_INDEX,
	IBTRACE_HOP_A_NODE_TYPE,
	IBTRACE_HOP_A_NUM_PORTS,
	IBTRACE_HOP_A_NODE_GUID,
	IBTRACE_HOP_A_PORT_GUID,
	IBTRACE_HOP_A_LID,
	IBTRACE_HOP_A_LMC,
	IBTRACE_HOP_A_NODE_DESC,
	IBTRACE_HOP_A_IN_PORT,
	IBTRACE_HOP_A_OUT_PORT,
	IBTRACE_HOP_A_AGENT,
	IBTRACE_HOP_A_EXPECTED_PORT,
	IBTRACE_HOP_A_ACTUAL_PORT,
	IBTRACE_HOP_A_SMPS,
	IBTRACE_HOP_A_SMP_RTT_NS,
	IBTRACE_HOP_A_VENDOR_MADS,
	IBTRACE_HOP_A_VENDOR_RTT_NS,

	__IBTRACE_HOP_A_MAX,
	IBTRACE_HOP_A_MAX = __IBTRACE_HOP_A_MAX - 1
};

/**
 * enum ibtrace_test_state - where a test job is
 * @IBTRACE_TEST_STATE_RUNNING: started, not finished
 * @IBTRACE_TEST_STATE_FINISHED: finished; the verdict is final
 */
enum ibtrace_test_state {
	IBTRACE_TEST_STATE_RUNNING = 1,
	IBTRACE_TEST_STATE_FINISHED,
};

/**
 * enum ibtrace_test_verdict - overall outcome of a test job
 * @IBTRACE_TEST_VERDICT_NONE: not decided yet (running)
 * @IBTRACE_TEST_VERDICT_PASS: every assertion passed
 * @IBTRACE_TEST_VERDICT_FAIL: at least one assertion failed
 * @IBTRACE_TEST_VERDICT_NOT_APPLICABLE: the test does not apply to the DUT
 *	(%IBTRACE_A_TEST_REASON says why: a switch external port, a RoCE port
 *	without SMPs, ...)
 * @IBTRACE_TEST_VERDICT_ERROR: the test could not be completed (DUT
 *	unresponsive, device gone, cancelled, module unloaded; see
 *	%IBTRACE_A_TEST_REASON); assertions decided before stay reported
 */
enum ibtrace_test_verdict {
	IBTRACE_TEST_VERDICT_NONE,
	IBTRACE_TEST_VERDICT_PASS,
	IBTRACE_TEST_VERDICT_FAIL,
	IBTRACE_TEST_VERDICT_NOT_APPLICABLE,
	IBTRACE_TEST_VERDICT_ERROR,
};

/**
 * enum ibtrace_test_restore - what became of the DUT state a test changed
 * @IBTRACE_TEST_RESTORE_NONE: nothing was changed
 * @IBTRACE_TEST_RESTORE_VERIFIED: the saved state was written back and a
 *	final read found it identical
 * @IBTRACE_TEST_RESTORE_FAILED: the state could not be written back, or
 *	the final read differs: the DUT is left changed
 * @IBTRACE_TEST_RESTORE_IMPOSSIBLE: the local device went away; the DUT
 *	may be left changed
 */
enum ibtrace_test_restore {
	IBTRACE_TEST_RESTORE_NONE,
	IBTRACE_TEST_RESTORE_VERIFIED,
	IBTRACE_TEST_RESTORE_FAILED,
	IBTRACE_TEST_RESTORE_IMPOSSIBLE,
};

/**
 * enum ibtrace_test_event - kind of an %IBTRACE_CMD_TEST_EVENT
 * @IBTRACE_TEST_EVENT_STARTED: the job started (DUT attributes follow
 *	once known, in PROGRESS events)
 * @IBTRACE_TEST_EVENT_PROGRESS: exchanges made so far
 * @IBTRACE_TEST_EVENT_ASSERTION: one assertion was decided
 * @IBTRACE_TEST_EVENT_FINISHED: the job finished: verdict, reason, restore
 */
enum ibtrace_test_event {
	IBTRACE_TEST_EVENT_STARTED = 1,
	IBTRACE_TEST_EVENT_PROGRESS,
	IBTRACE_TEST_EVENT_ASSERTION,
	IBTRACE_TEST_EVENT_FINISHED,
};

/**
 * enum ibtrace_assert_result - outcome of one assertion
 * @IBTRACE_ASSERT_NOT_RUN: not decided (the job ended first)
 * @IBTRACE_ASSERT_PASS: every check of the assertion held
 * @IBTRACE_ASSERT_FAIL: a check failed (%IBTRACE_ASSERT_A_EXPECTED,
 *	%IBTRACE_ASSERT_A_OBSERVED and %IBTRACE_ASSERT_A_WHERE describe the
 *	first one)
 * @IBTRACE_ASSERT_NOT_APPLICABLE: does not apply to this DUT (e.g. no
 *	block past the table when GUIDCap fills all of them)
 */
enum ibtrace_assert_result {
	IBTRACE_ASSERT_NOT_RUN,
	IBTRACE_ASSERT_PASS,
	IBTRACE_ASSERT_FAIL,
	IBTRACE_ASSERT_NOT_APPLICABLE,
};

/**
 * enum ibtrace_assert_attr - one assertion of a test
 * @IBTRACE_ASSERT_A_UNSPEC: unused
 * @IBTRACE_ASSERT_A_ID: string, assertion ID ("v1c14-027#01")
 * @IBTRACE_ASSERT_A_DESC: string, what it asserts
 * @IBTRACE_ASSERT_A_RESULT: u8, &enum ibtrace_assert_result
 * @IBTRACE_ASSERT_A_CHECKS: u32, individual checks made
 * @IBTRACE_ASSERT_A_EXPECTED: string, expected value (of the first failed
 *	check; else of the last check)
 * @IBTRACE_ASSERT_A_OBSERVED: string, observed value, same check
 * @IBTRACE_ASSERT_A_WHERE: string, where that check looked ("block 3
 *	entry 5")
 * @__IBTRACE_ASSERT_A_MAX: number of attributes + 1
 * @IBTRACE_ASSERT_A_MAX: highest attribute number
 */
enum ibtrace_assert_attr {
	IBTRACE_ASSERT_A_UNSPEC,
	IBTRACE_ASSERT_A_ID,
	IBTRACE_ASSERT_A_DESC,
	IBTRACE_ASSERT_A_RESULT,
	IBTRACE_ASSERT_A_CHECKS,
	IBTRACE_ASSERT_A_EXPECTED,
	IBTRACE_ASSERT_A_OBSERVED,
	IBTRACE_ASSERT_A_WHERE,

	__IBTRACE_ASSERT_A_MAX,
	IBTRACE_ASSERT_A_MAX = __IBTRACE_ASSERT_A_MAX - 1
};

/**
 * enum ibtrace_xchg_outcome - how one MAD exchange of a test ended
 * @IBTRACE_XCHG_ANSWERED: answered (any MAD status)
 * @IBTRACE_XCHG_TIMEOUT: no answer after all retries
 * @IBTRACE_XCHG_SEND_ERROR: not sent, or the device went away
 */
enum ibtrace_xchg_outcome {
	IBTRACE_XCHG_ANSWERED,
	IBTRACE_XCHG_TIMEOUT,
	IBTRACE_XCHG_SEND_ERROR,
};

/**
 * enum ibtrace_xchg_attr - one MAD exchange of a test job
 * @IBTRACE_XCHG_A_UNSPEC: unused
 * @IBTRACE_XCHG_A_PAD: padding
 * @IBTRACE_XCHG_A_SEQ: u32, exchange number, from 1
 * @IBTRACE_XCHG_A_METHOD: u8, MAD method of the request (0x01 Get, 0x02
 *	Set)
 * @IBTRACE_XCHG_A_ATTR_ID: u16, attribute ID (host order)
 * @IBTRACE_XCHG_A_ATTR_MOD: u32, attribute modifier
 * @IBTRACE_XCHG_A_OUTCOME: u8, &enum ibtrace_xchg_outcome
 * @IBTRACE_XCHG_A_STATUS: u16, MAD status of the answer (host order,
 *	direction bit cleared)
 * @IBTRACE_XCHG_A_RTT_NS: u64, round trip of the answered attempt
 * @IBTRACE_XCHG_A_ATTEMPTS: u32, attempts sent
 * @IBTRACE_XCHG_A_PHASE: u8, &enum ibtrace_xchg_phase
 * @__IBTRACE_XCHG_A_MAX: number of attributes + 1
 * @IBTRACE_XCHG_A_MAX: highest attribute number
 */
enum ibtrace_xchg_attr {
	IBTRACE_XCHG_A_UNSPEC,
	IBTRACE_XCHG_A_PAD,
	IBTRACE_XCHG_A_SEQ,
	IBTRACE_XCHG_A_METHOD,
	IBTRACE_XCHG_A_ATTR_ID,
	IBTRACE_XCHG_A_ATTR_MOD,
	IBTRACE_XCHG_A_OUTCOME,
	IBTRACE_XCHG_A_STATUS,
	IBTRACE_XCHG_A_RTT_NS,
	IBTRACE_XCHG_A_ATTEMPTS,
	IBTRACE_XCHG_A_PHASE,

	__IBTRACE_XCHG_A_MAX,
	IBTRACE_XCHG_A_MAX = __IBTRACE_XCHG_A_MAX - 1
};

/**
 * enum ibtrace_xchg_phase - why a test made an exchange
 * @IBTRACE_XCHG_PHASE_PROBE: learning the DUT (NodeInfo, PortInfo)
 * @IBTRACE_XCHG_PHASE_SAVE: saving the DUT state the test will change
 * @IBTRACE_XCHG_PHASE_TEST: the test proper
 * @IBTRACE_XCHG_PHASE_RESTORE: writing the saved state back and checking
 */
enum ibtrace_xchg_phase {
	IBTRACE_XCHG_PHASE_PROBE,
	IBTRACE_XCHG_PHASE_SAVE,
	IBTRACE_XCHG_PHASE_TEST,
	IBTRACE_XCHG_PHASE_RESTORE,
};

/**
 * enum ibtrace_test_poll - how the RNR and perf tests wait for completions
 * @IBTRACE_TEST_POLL_BUSY: the job's thread polls the CQ
 * @IBTRACE_TEST_POLL_EVENT: completion events (the CQ's softirq handler)
 */
enum ibtrace_test_poll {
	IBTRACE_TEST_POLL_BUSY,
	IBTRACE_TEST_POLL_EVENT,
};

/**
 * enum ibtrace_rnr_wire - whether the RNR test saw its packets on the wire
 * @IBTRACE_RNR_WIRE_NOT_VISIBLE: no (same-device loopback, a device
 *	without a netdev, ...); %IBTRACE_A_TEST_RNR_WIRE_WHY says why
 * @IBTRACE_RNR_WIRE_TAPPED: a packet tap on the RoCE netdev timed the RNR
 *	NAKs and the retries (the %IBTRACE_RNR_A_WIRE_* figures)
 */
enum ibtrace_rnr_wire {
	IBTRACE_RNR_WIRE_NOT_VISIBLE,
	IBTRACE_RNR_WIRE_TAPPED,
};

/**
 * enum ibtrace_rnr_attr - the RNR test's figures for one timer code
 * @IBTRACE_RNR_A_UNSPEC: unused
 * @IBTRACE_RNR_A_PAD: padding
 * @IBTRACE_RNR_A_CODE: u8, the RNR NAK timer code (0..31)
 * @IBTRACE_RNR_A_TABLE_NS: u64, the specification's timer value of the code
 * @IBTRACE_RNR_A_ITERATIONS: u32, iterations measured
 * @IBTRACE_RNR_A_WAIT_MIN_NS: u64, shortest wait per retry: (post to
 *	completion - calibration) / rnr_retry
 * @IBTRACE_RNR_A_WAIT_MEDIAN_NS: u64, median wait per retry
 * @IBTRACE_RNR_A_WAIT_MAX_NS: u64, longest wait per retry
 * @IBTRACE_RNR_A_WAIT_P99_NS: u64, 99th percentile (nearest rank) of the
 *	wait per retry
 * @IBTRACE_RNR_A_OVERSHOOT_NS: s64, median wait per retry minus the table
 *	value
 * @IBTRACE_RNR_A_GRANULARITY_NS: u64, the device's timer granularity:
 *	one jiffy on rxe (it counts the RNR NAK timer in ticks); elsewhere
 *	the shortest wait per retry when even it is over 1.5 times the
 *	table value (the device rounds the timer up), else 0 (none visible)
 * @IBTRACE_RNR_A_CALIBRATION_NS: u64, median post to completion of the
 *	zero-wait operation (rnr_retry 0), subtracted above
 * @IBTRACE_RNR_A_WIRE_SAMPLES: u32, RNR NAK to retried request intervals
 *	seen on the wire (only when the wire is visible)
 * @IBTRACE_RNR_A_WIRE_MIN_NS: u64, shortest wire wait: an RNR NAK's
 *	arrival to the departure of the request it makes the requester retry
 * @IBTRACE_RNR_A_WIRE_MEDIAN_NS: u64, median wire wait
 * @IBTRACE_RNR_A_WIRE_MAX_NS: u64, longest wire wait
 * @IBTRACE_RNR_A_NAKS: u32, RNR NAKs seen on the wire (all iterations)
 * @__IBTRACE_RNR_A_MAX: number of attributes + 1
 * @IBTRACE_RNR_A_MAX: highest attribute number
 */
enum ibtrace_rnr_attr {
	IBTRACE_RNR_A_UNSPEC,
	IBTRACE_RNR_A_PAD,
	IBTRACE_RNR_A_CODE,
	IBTRACE_RNR_A_TABLE_NS,
	IBTRACE_RNR_A_ITERATIONS,
	IBTRACE_RNR_A_WAIT_MIN_NS,
	IBTRACE_RNR_A_WAIT_MEDIAN_NS,
	IBTRACE_RNR_A_WAIT_MAX_NS,
	IBTRACE_RNR_A_WAIT_P99_NS,
	IBTRACE_RNR_A_OVERSHOOT_NS,
	IBTRACE_RNR_A_GRANULARITY_NS,
	IBTRACE_RNR_A_CALIBRATION_NS,
	IBTRACE_RNR_A_WIRE_SAMPLES,
	IBTRACE_RNR_A_WIRE_MIN_NS,
	IBTRACE_RNR_A_WIRE_MEDIAN_NS,
	IBTRACE_RNR_A_WIRE_MAX_NS,
	IBTRACE_RNR_A_NAKS,

	__IBTRACE_RNR_A_MAX,
	IBTRACE_RNR_A_MAX = __IBTRACE_RNR_A_MAX - 1
};

/**
 * enum ibtrace_server_conn_attr - one connection the server holds
 * @IBTRACE_SERVER_CONN_A_UNSPEC: unused
 * @IBTRACE_SERVER_CONN_A_SERVICE: string, what the client asked for
 *	("rnr": an RNR responder QP)
 * @IBTRACE_SERVER_CONN_A_PEER_GID: binary, 16 bytes: the client's address
 *	as a GID (IPv4 as ::ffff:a.b.c.d)
 * @IBTRACE_SERVER_CONN_A_DEV_NAME: string, the local device
 * @IBTRACE_SERVER_CONN_A_PORT: u32, the local port
 * @IBTRACE_SERVER_CONN_A_AGE_MS: u32, ms since the connection was accepted
 * @IBTRACE_SERVER_CONN_A_HOLD_MS: u32, the hold the client asked for; the
 *	server closes the connection at this plus 10 s
 * @IBTRACE_SERVER_CONN_A_RNR_TIMER: u8, "rnr": the responder QP's RNR NAK
 *	timer code
 * @IBTRACE_SERVER_CONN_A_RNR_RECV_POSTED: flag, "rnr": a receive buffer is
 *	posted (the negative control)
 * @IBTRACE_SERVER_CONN_A_PERF_OP: u8, "perf": &enum ibtrace_perf_op the
 *	client's buffer is open to
 * @IBTRACE_SERVER_CONN_A_PERF_BYTES: u32, "perf": bytes of that buffer
 * @IBTRACE_SERVER_CONN_A_TXN_THREAD: u32, "txn": the client's thread of
 *	this endpoint
 * @IBTRACE_SERVER_CONN_A_TXN_EP: u32, "txn": the endpoint within that
 *	thread
 * @IBTRACE_SERVER_CONN_A_TXN_ITERATION: u32, "txn": iterations of the
 *	sequence the server completed so far
 * @IBTRACE_SERVER_CONN_A_TXN_ITERATIONS: u32, "txn": iterations the client
 *	asked for (absent until its setup came)
 * @__IBTRACE_SERVER_CONN_A_MAX: number of attributes + 1
 * @IBTRACE_SERVER_CONN_A_MAX: highest attribute number
 */
enum ibtrace_server_conn_attr {
	IBTRACE_SERVER_CONN_A_UNSPEC,
	IBTRACE_SERVER_CONN_A_SERVICE,
	IBTRACE_SERVER_CONN_A_PEER_GID,
	IBTRACE_SERVER_CONN_A_DEV_NAME,
	IBTRACE_SERVER_CONN_A_PORT,
	IBTRACE_SERVER_CONN_A_AGE_MS,
	IBTRACE_SERVER_CONN_A_HOLD_MS,
	IBTRACE_SERVER_CONN_A_RNR_TIMER,
	IBTRACE_SERVER_CONN_A_RNR_RECV_POSTED,
	IBTRACE_SERVER_CONN_A_PERF_OP,
	IBTRACE_SERVER_CONN_A_PERF_BYTES,
	IBTRACE_SERVER_CONN_A_TXN_THREAD,
	IBTRACE_SERVER_CONN_A_TXN_EP,
	IBTRACE_SERVER_CONN_A_TXN_ITERATION,
	IBTRACE_SERVER_CONN_A_TXN_ITERATIONS,

	__IBTRACE_SERVER_CONN_A_MAX,
	IBTRACE_SERVER_CONN_A_MAX = __IBTRACE_SERVER_CONN_A_MAX - 1
};

/**
 * enum ibtrace_server_stat_attr - the server's counters, all u64
 * @IBTRACE_SERVER_STAT_UNSPEC: unused
 * @IBTRACE_SERVER_STAT_PAD: padding
 * @IBTRACE_SERVER_STAT_ACCEPTED: connections accepted
 * @IBTRACE_SERVER_STAT_REJ_FOREIGN: requests rejected: private data not an
 *	ibtrace request, or not a valid one
 * @IBTRACE_SERVER_STAT_REJ_CONNS: requests rejected: max-conns held already
 * @IBTRACE_SERVER_STAT_REJ_HOLD: requests rejected: a hold over max-hold-ms
 * @IBTRACE_SERVER_STAT_REJ_DEV: requests rejected: on a device the server
 *	does not serve
 * @IBTRACE_SERVER_STAT_REJ_ERROR: requests rejected: no resources (verbs
 *	or memory error)
 * @IBTRACE_SERVER_STAT_REJ_VERSION: requests rejected: a known service,
 *	but a version of its request this server does not speak
 * @IBTRACE_SERVER_STAT_REJ_MEM: requests rejected: buffers over
 *	max-mem-kb
 * @IBTRACE_SERVER_STAT_QUITS: quit requests accepted (at most one: the
 *	server stops after it)
 * @IBTRACE_SERVER_STAT_REJ_QUITTING: requests rejected: the server quits
 * @__IBTRACE_SERVER_STAT_MAX: number of attributes + 1
 * @IBTRACE_SERVER_STAT_MAX: highest attribute number
 */
enum ibtrace_server_stat_attr {
	IBTRACE_SERVER_STAT_UNSPEC,
	IBTRACE_SERVER_STAT_PAD,
	IBTRACE_SERVER_STAT_ACCEPTED,
	IBTRACE_SERVER_STAT_REJ_FOREIGN,
	IBTRACE_SERVER_STAT_REJ_CONNS,
	IBTRACE_SERVER_STAT_REJ_HOLD,
	IBTRACE_SERVER_STAT_REJ_DEV,
	IBTRACE_SERVER_STAT_REJ_ERROR,
	IBTRACE_SERVER_STAT_REJ_VERSION,
	IBTRACE_SERVER_STAT_REJ_MEM,
	IBTRACE_SERVER_STAT_QUITS,
	IBTRACE_SERVER_STAT_REJ_QUITTING,

	__IBTRACE_SERVER_STAT_MAX,
	IBTRACE_SERVER_STAT_MAX = __IBTRACE_SERVER_STAT_MAX - 1
};

/**
 * enum ibtrace_limit_object - what the limit test exhausts (dapltest -T L)
 * @IBTRACE_LIMIT_PD: protection domains (ib_alloc_pd), against max_pd
 * @IBTRACE_LIMIT_CQ: completion queues of 16 entries, against max_cq
 * @IBTRACE_LIMIT_QP: RC queue pairs of 16 send and 16 receive WRs on the
 *	sets' PDs and CQs, against max_qp
 * @IBTRACE_LIMIT_MR: fast-registration memory regions of one page
 *	(ib_alloc_mr), against max_mr
 * @IBTRACE_LIMIT_RPOST: receive WRs of one page posted to one QP until
 *	it is full, against max_qp_wr
 * @IBTRACE_LIMIT_SIZE_MR: the largest fast-registration region
 *	(ib_alloc_mr of N pages, N doubled then bisected), in bytes, against
 *	max_fast_reg_page_list_len pages
 * @IBTRACE_LIMIT_AH: address handles to the port itself, against max_ah
 * @IBTRACE_LIMIT_SRQ: shared receive queues of 16 WRs, against max_srq
 * @__IBTRACE_LIMIT_MAX: number of kinds
 * @IBTRACE_LIMIT_MAX: the last kind
 */
enum ibtrace_limit_object {
	IBTRACE_LIMIT_PD,
	IBTRACE_LIMIT_CQ,
	IBTRACE_LIMIT_QP,
	IBTRACE_LIMIT_MR,
	IBTRACE_LIMIT_RPOST,
	IBTRACE_LIMIT_SIZE_MR,
	IBTRACE_LIMIT_AH,
	IBTRACE_LIMIT_SRQ,

	__IBTRACE_LIMIT_MAX,
	IBTRACE_LIMIT_MAX = __IBTRACE_LIMIT_MAX - 1
};

/**
 * enum ibtrace_limit_end - what ended the count of one kind of object
 * @IBTRACE_LIMIT_END_DEVICE: the device refused one more
 *	(%IBTRACE_LIMIT_A_ERRNO says how)
 * @IBTRACE_LIMIT_END_MAX: %IBTRACE_A_TEST_LIMIT_MAX was reached
 * @IBTRACE_LIMIT_END_BUDGET: the memory budget was reached, not the
 *	device's limit (%IBTRACE_A_TEST_LIMIT_BUDGET_MB)
 * @IBTRACE_LIMIT_END_HOST_MEMORY: the host ran low on memory first (less
 *	available than an eighth of its RAM)
 * @IBTRACE_LIMIT_END_STOPPED: the job was cancelled or its device went
 *	away
 * @IBTRACE_LIMIT_END_SETUP: the objects it needs first (the sets) could
 *	not be made (%IBTRACE_LIMIT_A_ERRNO)
 */
enum ibtrace_limit_end {
	IBTRACE_LIMIT_END_DEVICE,
	IBTRACE_LIMIT_END_MAX,
	IBTRACE_LIMIT_END_BUDGET,
	IBTRACE_LIMIT_END_HOST_MEMORY,
	IBTRACE_LIMIT_END_STOPPED,
	IBTRACE_LIMIT_END_SETUP,
};

/**
 * enum ibtrace_limit_attr - the limit test's figures for one kind of object
 * @IBTRACE_LIMIT_A_UNSPEC: unused
 * @IBTRACE_LIMIT_A_PAD: padding
 * @IBTRACE_LIMIT_A_OBJECT: u8, &enum ibtrace_limit_object
 * @IBTRACE_LIMIT_A_COUNT: u64, objects made before the end (receive WRs
 *	posted; for size_mr the bytes of the largest region)
 * @IBTRACE_LIMIT_A_IN_USE: u64, objects of the kind the device held
 *	before (its resource tracking; the kernel's own users included)
 * @IBTRACE_LIMIT_A_ADVERTISED: u64, what the device's attributes promise
 *	(for rpost the WRs of the QP as created, for size_mr in bytes)
 * @IBTRACE_LIMIT_A_END: u8, &enum ibtrace_limit_end
 * @IBTRACE_LIMIT_A_ERRNO: u32, with %IBTRACE_LIMIT_END_DEVICE or
 *	%IBTRACE_LIMIT_END_SETUP: the error of the refusal
 * @IBTRACE_LIMIT_A_ELAPSED_NS: u64, time to make and free them
 * @IBTRACE_LIMIT_A_ESTIMATE: u32, bytes the test reckons one object takes
 *	(per page for size_mr, per WR for rpost)
 * @__IBTRACE_LIMIT_A_MAX: number of attributes + 1
 * @IBTRACE_LIMIT_A_MAX: highest attribute number
 */
enum ibtrace_limit_attr {
	IBTRACE_LIMIT_A_UNSPEC,
	IBTRACE_LIMIT_A_PAD,
	IBTRACE_LIMIT_A_OBJECT,
	IBTRACE_LIMIT_A_COUNT,
	IBTRACE_LIMIT_A_IN_USE,
	IBTRACE_LIMIT_A_ADVERTISED,
	IBTRACE_LIMIT_A_END,
	IBTRACE_LIMIT_A_ERRNO,
	IBTRACE_LIMIT_A_ELAPSED_NS,
	IBTRACE_LIMIT_A_ESTIMATE,

	__IBTRACE_LIMIT_A_MAX,
	IBTRACE_LIMIT_A_MAX = __IBTRACE_LIMIT_A_MAX - 1
};

/**
 * enum ibtrace_perf_op - the operation the perf test times (dapltest -T P)
 * @IBTRACE_PERF_OP_RDMA_READ: RDMA READ of the server's buffer ("RR")
 * @IBTRACE_PERF_OP_RDMA_WRITE: RDMA WRITE to the server's buffer ("RW")
 */
enum ibtrace_perf_op {
	IBTRACE_PERF_OP_RDMA_READ,
	IBTRACE_PERF_OP_RDMA_WRITE,
};

/**
 * enum ibtrace_perf_attr - the perf test's figures
 * @IBTRACE_PERF_A_UNSPEC: unused
 * @IBTRACE_PERF_A_PAD: padding
 * @IBTRACE_PERF_A_OPS: u64, operations that completed successfully
 * @IBTRACE_PERF_A_ERRORS: u64, operations that completed in error or were
 *	flushed
 * @IBTRACE_PERF_A_WC_STATUS: string, the first error completion's status
 *	(ib_wc_status_msg()), with %IBTRACE_PERF_A_ERRORS
 * @IBTRACE_PERF_A_BYTES: u64, bytes moved by the successful operations
 * @IBTRACE_PERF_A_ELAPSED_NS: u64, from the first post to the last
 *	completion
 * @IBTRACE_PERF_A_LAT_MIN_NS: u64, shortest operation: ktime_get_ns()
 *	from its post to its completion's reaping (with a pipeline, the
 *	operations queued before it are part of it)
 * @IBTRACE_PERF_A_LAT_MEDIAN_NS: u64, median operation
 * @IBTRACE_PERF_A_LAT_P99_NS: u64, 99th percentile
 * @IBTRACE_PERF_A_LAT_MAX_NS: u64, longest operation
 * @IBTRACE_PERF_A_SERVER_VERSION: u32, the version the server's hello
 *	carried
 * @IBTRACE_PERF_A_SEGS: u32, the segments used (as asked for, once the
 *	device's max_send_sge allowed them)
 * @__IBTRACE_PERF_A_MAX: number of attributes + 1
 * @IBTRACE_PERF_A_MAX: highest attribute number
 */
enum ibtrace_perf_attr {
	IBTRACE_PERF_A_UNSPEC,
	IBTRACE_PERF_A_PAD,
	IBTRACE_PERF_A_OPS,
	IBTRACE_PERF_A_ERRORS,
	IBTRACE_PERF_A_WC_STATUS,
	IBTRACE_PERF_A_BYTES,
	IBTRACE_PERF_A_ELAPSED_NS,
	IBTRACE_PERF_A_LAT_MIN_NS,
	IBTRACE_PERF_A_LAT_MEDIAN_NS,
	IBTRACE_PERF_A_LAT_P99_NS,
	IBTRACE_PERF_A_LAT_MAX_NS,
	IBTRACE_PERF_A_SERVER_VERSION,
	IBTRACE_PERF_A_SEGS,

	__IBTRACE_PERF_A_MAX,
	IBTRACE_PERF_A_MAX = __IBTRACE_PERF_A_MAX - 1
};

/**
 * enum ibtrace_quit_attr - what the quit test saw of the peer's server
 * @IBTRACE_QUIT_A_UNSPEC: unused
 * @IBTRACE_QUIT_A_PAD: padding
 * @IBTRACE_QUIT_A_SERVER_VERSION: u32, the version of the server's answer
 * @IBTRACE_QUIT_A_RUNNING: u32, connections (tests) the server held
 *	besides the quit when it accepted it: it waits for them to end
 * @IBTRACE_QUIT_A_BOUND_MS: u32, the server's bound: those connections
 *	end within this (their holds plus the server's slack), ms
 * @IBTRACE_QUIT_A_STOPPED_NS: u64, from the quit's acceptance to the
 *	server's end of the connection, which it does once it no longer
 *	listens; absent if that did not happen
 * @__IBTRACE_QUIT_A_MAX: number of attributes + 1
 * @IBTRACE_QUIT_A_MAX: highest attribute number
 */
enum ibtrace_quit_attr {
	IBTRACE_QUIT_A_UNSPEC,
	IBTRACE_QUIT_A_PAD,
	IBTRACE_QUIT_A_SERVER_VERSION,
	IBTRACE_QUIT_A_RUNNING,
	IBTRACE_QUIT_A_BOUND_MS,
	IBTRACE_QUIT_A_STOPPED_NS,

	__IBTRACE_QUIT_A_MAX,
	IBTRACE_QUIT_A_MAX = __IBTRACE_QUIT_A_MAX - 1
};

/**
 * enum ibtrace_txn_who - which side initiates a transaction operation
 * @IBTRACE_TXN_CLIENT: the test job (dapltest's "client")
 * @IBTRACE_TXN_SERVER: the peer's ibtrace server ("server")
 */
enum ibtrace_txn_who {
	IBTRACE_TXN_CLIENT,
	IBTRACE_TXN_SERVER,
};

/**
 * enum ibtrace_txn_type - what a transaction operation does
 * @IBTRACE_TXN_SR: a SEND, received by the other side ("SR")
 * @IBTRACE_TXN_RR: an RDMA READ of the other side's buffer ("RR")
 * @IBTRACE_TXN_RW: an RDMA WRITE to the other side's buffer ("RW")
 */
enum ibtrace_txn_type {
	IBTRACE_TXN_SR,
	IBTRACE_TXN_RR,
	IBTRACE_TXN_RW,
};

/**
 * enum ibtrace_txn_op_attr - one operation of the transaction test
 * @IBTRACE_TXN_OP_A_UNSPEC: unused
 * @IBTRACE_TXN_OP_A_WHO: u8, &enum ibtrace_txn_who (required)
 * @IBTRACE_TXN_OP_A_TYPE: u8, &enum ibtrace_txn_type (required)
 * @IBTRACE_TXN_OP_A_SEG_SIZE: u32, bytes of a segment (1..
 *	%IBTRACE_TEST_TXN_MAX_BYTES, default %IBTRACE_TEST_PERF_DEF_SEG_SIZE)
 * @IBTRACE_TXN_OP_A_SEGS: u32, segments (1..%IBTRACE_TEST_PERF_MAX_SEGS,
 *	default 1); the operations together at most
 *	%IBTRACE_TEST_TXN_MAX_BYTES
 * @IBTRACE_TXN_OP_A_REAP: flag, dapltest's -f (SR only): the SEND's
 *	completion is not waited for after the post but reaped with the
 *	sender's next receive
 * @IBTRACE_TXN_OP_A_APPENDED: flag (results only): one of the three
 *	operations validation appended
 * @__IBTRACE_TXN_OP_A_MAX: number of attributes + 1
 * @IBTRACE_TXN_OP_A_MAX: highest attribute number
 */
enum ibtrace_txn_op_attr {
	IBTRACE_TXN_OP_A_UNSPEC,
	IBTRACE_TXN_OP_A_WHO,
	IBTRACE_TXN_OP_A_TYPE,
	IBTRACE_TXN_OP_A_SEG_SIZE,
	IBTRACE_TXN_OP_A_SEGS,
	IBTRACE_TXN_OP_A_REAP,
	IBTRACE_TXN_OP_A_APPENDED,

	__IBTRACE_TXN_OP_A_MAX,
	IBTRACE_TXN_OP_A_MAX = __IBTRACE_TXN_OP_A_MAX - 1
};

/**
 * enum ibtrace_txn_ep_attr - the transaction test's figures of one endpoint
 * @IBTRACE_TXN_EP_A_UNSPEC: unused
 * @IBTRACE_TXN_EP_A_PAD: padding
 * @IBTRACE_TXN_EP_A_THREAD: u32, the thread (from 0)
 * @IBTRACE_TXN_EP_A_EP: u32, the endpoint of that thread (from 0)
 * @IBTRACE_TXN_EP_A_ITERATIONS: u32, iterations of the sequence completed
 * @IBTRACE_TXN_EP_A_SERVER_VERSION: u32, the version of the server's
 *	transaction service, 0 = it did not answer
 * @IBTRACE_TXN_EP_A_OPS: u64, operations of the sequence completed
 *	successfully, either side's (the validation appends not counted)
 * @IBTRACE_TXN_EP_A_SERVER_OPS: u64, of those, the server's (from its
 *	report at the end)
 * @IBTRACE_TXN_EP_A_BYTES: u64, bytes they moved
 * @IBTRACE_TXN_EP_A_ERRORS: u64, completions in error (or flushed), either
 *	side's
 * @IBTRACE_TXN_EP_A_WC_STATUS: string, the first error's status (the
 *	client's, else the server's)
 * @IBTRACE_TXN_EP_A_ELAPSED_NS: u64, from the first post to the last
 *	completion of the last iteration
 * @IBTRACE_TXN_EP_A_MISMATCH_ITERATION: u32, with validation: the
 *	iteration of the first byte that did not match (found by either
 *	side: the one that received the operation's data)
 * @IBTRACE_TXN_EP_A_MISMATCH_OP: u32, its operation (index in the sequence)
 * @IBTRACE_TXN_EP_A_MISMATCH_OFFSET: u32, its offset in that operation's
 *	buffer
 * @IBTRACE_TXN_EP_A_MISMATCH_EXPECTED: u8, the byte expected
 * @IBTRACE_TXN_EP_A_MISMATCH_OBSERVED: u8, the byte found
 * @IBTRACE_TXN_EP_A_MISMATCHES: u64, bytes that did not match
 * @__IBTRACE_TXN_EP_A_MAX: number of attributes + 1
 * @IBTRACE_TXN_EP_A_MAX: highest attribute number
 */
enum ibtrace_txn_ep_attr {
	IBTRACE_TXN_EP_A_UNSPEC,
	IBTRACE_TXN_EP_A_PAD,
	IBTRACE_TXN_EP_A_THREAD,
	IBTRACE_TXN_EP_A_EP,
	IBTRACE_TXN_EP_A_ITERATIONS,
	IBTRACE_TXN_EP_A_SERVER_VERSION,
	IBTRACE_TXN_EP_A_OPS,
	IBTRACE_TXN_EP_A_SERVER_OPS,
	IBTRACE_TXN_EP_A_BYTES,
	IBTRACE_TXN_EP_A_ERRORS,
	IBTRACE_TXN_EP_A_WC_STATUS,
	IBTRACE_TXN_EP_A_ELAPSED_NS,
	IBTRACE_TXN_EP_A_MISMATCH_ITERATION,
	IBTRACE_TXN_EP_A_MISMATCH_OP,
	IBTRACE_TXN_EP_A_MISMATCH_OFFSET,
	IBTRACE_TXN_EP_A_MISMATCH_EXPECTED,
	IBTRACE_TXN_EP_A_MISMATCH_OBSERVED,
	IBTRACE_TXN_EP_A_MISMATCHES,

	__IBTRACE_TXN_EP_A_MAX,
	IBTRACE_TXN_EP_A_MAX = __IBTRACE_TXN_EP_A_MAX - 1
};

/**
 * enum ibtrace_sweep_stat_attr - a sweep's figures (%IBTRACE_A_SWEEP_STATS)
 * @IBTRACE_SWEEP_STAT_A_UNSPEC: unused
 * @IBTRACE_SWEEP_STAT_A_PAD: padding
 * @IBTRACE_SWEEP_STAT_A_NODES: u32, nodes found and kept
 * @IBTRACE_SWEEP_STAT_A_SWITCHES: u32, of which switches
 * @IBTRACE_SWEEP_STAT_A_LINKS: u32, links found
 * @IBTRACE_SWEEP_STAT_A_SMPS: u32, SMPs sent, retries included
 * @IBTRACE_SWEEP_STAT_A_UNANSWERED: u32, questions that got no usable
 *	answer after their retries (their part is not known)
 * @IBTRACE_SWEEP_STAT_A_NOT_KEPT: u32, nodes and tables found past the
 *	bounds (%IBTRACE_A_SWEEP_MAX_NODES, %IBTRACE_SWEEP_MAX_MB)
 * @IBTRACE_SWEEP_STAT_A_BYTES: u64, memory the nodes and tables take
 * @IBTRACE_SWEEP_STAT_A_ELAPSED_NS: u64, time taken
 * @__IBTRACE_SWEEP_STAT_A_MAX: number of attributes + 1
 * @IBTRACE_SWEEP_STAT_A_MAX: highest attribute number
 */
enum ibtrace_sweep_stat_attr {
	IBTRACE_SWEEP_STAT_A_UNSPEC,
	IBTRACE_SWEEP_STAT_A_PAD,
	IBTRACE_SWEEP_STAT_A_NODES,
	IBTRACE_SWEEP_STAT_A_SWITCHES,
	IBTRACE_SWEEP_STAT_A_LINKS,
	IBTRACE_SWEEP_STAT_A_SMPS,
	IBTRACE_SWEEP_STAT_A_UNANSWERED,
	IBTRACE_SWEEP_STAT_A_NOT_KEPT,
	IBTRACE_SWEEP_STAT_A_BYTES,
	IBTRACE_SWEEP_STAT_A_ELAPSED_NS,

	__IBTRACE_SWEEP_STAT_A_MAX,
	IBTRACE_SWEEP_STAT_A_MAX = __IBTRACE_SWEEP_STAT_A_MAX - 1
};

/**
 * enum ibtrace_sweep_node_attr - one node of a sweep (%IBTRACE_A_SWEEP_NODE)
 * @IBTRACE_SWEEP_NODE_A_UNSPEC: unused
 * @IBTRACE_SWEEP_NODE_A_PAD: padding
 * @IBTRACE_SWEEP_NODE_A_INDEX: u32, the node's number in the sweep, from 0
 *	(the local node) in the order found; the links name nodes by it
 * @IBTRACE_SWEEP_NODE_A_GUID: u64, NodeGUID
 * @IBTRACE_SWEEP_NODE_A_TYPE: u8, &enum ibtrace_node_type
 * @IBTRACE_SWEEP_NODE_A_NUM_PORTS: u8, NumPorts
 * @IBTRACE_SWEEP_NODE_A_IN_PORT: u8, the port the sweep entered the node by
 *	(the local port for the local node)
 * @IBTRACE_SWEEP_NODE_A_PATH: binary (1..%IBTRACE_TRACE_MAX_HOPS bytes),
 *	the directed route to the node, the exit port of each hop (absent for
 *	the local node)
 * @IBTRACE_SWEEP_NODE_A_DESC: string, NodeDescription
 * @IBTRACE_SWEEP_NODE_A_UNANSWERED: u32, the node's questions that got no
 *	usable answer
 * @IBTRACE_SWEEP_NODE_A_LFT_TOP: u32, a switch's LinearFDBTop: its table
 *	has this + 1 entries (absent: no table was read)
 * @IBTRACE_SWEEP_NODE_A_PORT: nest, &enum ibtrace_sweep_port_attr, one
 *	port (repeated)
 * @IBTRACE_SWEEP_NODE_A_LFT_OFFSET: u32, the first LID of
 *	%IBTRACE_SWEEP_NODE_A_LFT
 * @IBTRACE_SWEEP_NODE_A_LFT: binary (1..%IBTRACE_SWEEP_LFT_CHUNK bytes),
 *	exit ports of consecutive LIDs (255: no route, or a block that got
 *	no answer)
 * @__IBTRACE_SWEEP_NODE_A_MAX: number of attributes + 1
 * @IBTRACE_SWEEP_NODE_A_MAX: highest attribute number
 */
enum ibtrace_sweep_node_attr {
	IBTRACE_SWEEP_NODE_A_UNSPEC,
	IBTRACE_SWEEP_NODE_A_PAD,
	IBTRACE_SWEEP_NODE_A_INDEX,
	IBTRACE_SWEEP_NODE_A_GUID,
	IBTRACE_SWEEP_NODE_A_TYPE,
	IBTRACE_SWEEP_NODE_A_NUM_PORTS,
	IBTRACE_SWEEP_NODE_A_IN_PORT,
	IBTRACE_SWEEP_NODE_A_PATH,
	IBTRACE_SWEEP_NODE_A_DESC,
	IBTRACE_SWEEP_NODE_A_UNANSWERED,
	IBTRACE_SWEEP_NODE_A_LFT_TOP,
	IBTRACE_SWEEP_NODE_A_PORT,
	IBTRACE_SWEEP_NODE_A_LFT_OFFSET,
	IBTRACE_SWEEP_NODE_A_LFT,

	__IBTRACE_SWEEP_NODE_A_MAX,
	IBTRACE_SWEEP_NODE_A_MAX = __IBTRACE_SWEEP_NODE_A_MAX - 1
};

/**
 * enum ibtrace_sweep_port_attr - one port of a swept node
 *	(%IBTRACE_SWEEP_NODE_A_PORT); only ports whose PortInfo was read
 * @IBTRACE_SWEEP_PORT_A_UNSPEC: unused
 * @IBTRACE_SWEEP_PORT_A_NUM: u8, the port's number (0: a switch's
 *	management port)
 * @IBTRACE_SWEEP_PORT_A_STATE: u8, &enum ibtrace_port_state
 * @IBTRACE_SWEEP_PORT_A_PHYS_STATE: u8, PortPhysicalState (5: LinkUp)
 * @IBTRACE_SWEEP_PORT_A_LID: u32, base LID (a CA's port, a switch's port 0)
 * @IBTRACE_SWEEP_PORT_A_LMC: u8, LMC
 * @IBTRACE_SWEEP_PORT_A_PEER: u32, %IBTRACE_SWEEP_NODE_A_INDEX of the node
 *	at the other end of the port's link (absent: none known)
 * @IBTRACE_SWEEP_PORT_A_PEER_PORT: u8, the port of that node
 * @__IBTRACE_SWEEP_PORT_A_MAX: number of attributes + 1
 * @IBTRACE_SWEEP_PORT_A_MAX: highest attribute number
 */
enum ibtrace_sweep_port_attr {
	IBTRACE_SWEEP_PORT_A_UNSPEC,
	IBTRACE_SWEEP_PORT_A_NUM,
	IBTRACE_SWEEP_PORT_A_STATE,
	IBTRACE_SWEEP_PORT_A_PHYS_STATE,
	IBTRACE_SWEEP_PORT_A_LID,
	IBTRACE_SWEEP_PORT_A_LMC,
	IBTRACE_SWEEP_PORT_A_PEER,
	IBTRACE_SWEEP_PORT_A_PEER_PORT,

	__IBTRACE_SWEEP_PORT_A_MAX,
	IBTRACE_SWEEP_PORT_A_MAX = __IBTRACE_SWEEP_PORT_A_MAX - 1
};

/**
 * enum ibtrace_prove_verdict - what a destination's SourceRoute probe
 *	proved (%IBTRACE_PROVE_DEST_A_VERDICT)
 * @IBTRACE_PROVE_UNTRIED: not sent (the proof was cancelled first)
 * @IBTRACE_PROVE_VERIFIED: answered with status 0: the probe came in by
 *	the predicted port
 * @IBTRACE_PROVE_MISMATCH: answered 0x001C: it came in by another port
 *	(%IBTRACE_PROVE_DEST_A_ACTUAL_PORT)
 * @IBTRACE_PROVE_NO_AGENT: answered with another status (0x000C: no
 *	class 0x30 agent there, e.g. a switch or a host without ibtrace)
 * @IBTRACE_PROVE_UNREACHABLE: no answer after every attempt
 * @IBTRACE_PROVE_SEND_ERROR: the probe could not be sent (no address
 *	handle for the LID, or ib_mad refused it)
 */
enum ibtrace_prove_verdict {
	IBTRACE_PROVE_UNTRIED,
	IBTRACE_PROVE_VERIFIED,
	IBTRACE_PROVE_MISMATCH,
	IBTRACE_PROVE_NO_AGENT,
	IBTRACE_PROVE_UNREACHABLE,
	IBTRACE_PROVE_SEND_ERROR,
};

/**
 * enum ibtrace_prove_dest_attr - one destination of a proof
 *	(%IBTRACE_A_PROVE_DEST)
 * @IBTRACE_PROVE_DEST_A_UNSPEC: unused
 * @IBTRACE_PROVE_DEST_A_PAD: padding
 * @IBTRACE_PROVE_DEST_A_LID: u32, the destination LID (1..
 *	%IBTRACE_MAX_UNICAST_LID); request and dump
 * @IBTRACE_PROVE_DEST_A_VECTOR: binary (1..%IBTRACE_SROUTE_MAX_HOPS
 *	bytes), the incoming port the route predicts at each hop, the
 *	destination's last; its length is the probe's hop count. Request
 *	and dump
 * @IBTRACE_PROVE_DEST_A_INDEX: u32, dump: the destination's place in the
 *	request, from 0
 * @IBTRACE_PROVE_DEST_A_VERDICT: u8, dump: &enum ibtrace_prove_verdict
 * @IBTRACE_PROVE_DEST_A_ACTUAL_PORT: u8, dump: the port the answer says
 *	the probe came in by (answered probes)
 * @IBTRACE_PROVE_DEST_A_STATUS: u16, dump: the answer's MAD status
 *	(answered probes)
 * @IBTRACE_PROVE_DEST_A_ATTEMPTS: u32, dump: MADs sent, retries included
 * @IBTRACE_PROVE_DEST_A_RTT_NS: u64, dump: the answered attempt's round
 *	trip
 * @IBTRACE_PROVE_DEST_A_ERRNO: u32, dump: why a probe could not be sent
 *	(%IBTRACE_PROVE_SEND_ERROR), a positive errno
 * @__IBTRACE_PROVE_DEST_A_MAX: number of attributes + 1
 * @IBTRACE_PROVE_DEST_A_MAX: highest attribute number
 */
enum ibtrace_prove_dest_attr {
	IBTRACE_PROVE_DEST_A_UNSPEC,
	IBTRACE_PROVE_DEST_A_PAD,
	IBTRACE_PROVE_DEST_A_LID,
	IBTRACE_PROVE_DEST_A_VECTOR,
	IBTRACE_PROVE_DEST_A_INDEX,
	IBTRACE_PROVE_DEST_A_VERDICT,
	IBTRACE_PROVE_DEST_A_ACTUAL_PORT,
	IBTRACE_PROVE_DEST_A_STATUS,
	IBTRACE_PROVE_DEST_A_ATTEMPTS,
	IBTRACE_PROVE_DEST_A_RTT_NS,
	IBTRACE_PROVE_DEST_A_ERRNO,

	__IBTRACE_PROVE_DEST_A_MAX,
	IBTRACE_PROVE_DEST_A_MAX = __IBTRACE_PROVE_DEST_A_MAX - 1
};

/**
 * enum ibtrace_prove_stat_attr - a proof's figures (%IBTRACE_A_PROVE_STATS)
 * @IBTRACE_PROVE_STAT_A_UNSPEC: unused
 * @IBTRACE_PROVE_STAT_A_PAD: padding
 * @IBTRACE_PROVE_STAT_A_DESTS: u32, destinations in the request
 * @IBTRACE_PROVE_STAT_A_DONE: u32, destinations with a verdict so far
 * @IBTRACE_PROVE_STAT_A_MADS: u32, MADs sent, retries included
 * @IBTRACE_PROVE_STAT_A_VERIFIED: u32, verdicts %IBTRACE_PROVE_VERIFIED
 * @IBTRACE_PROVE_STAT_A_MISMATCH: u32, verdicts %IBTRACE_PROVE_MISMATCH
 * @IBTRACE_PROVE_STAT_A_NO_AGENT: u32, verdicts %IBTRACE_PROVE_NO_AGENT
 * @IBTRACE_PROVE_STAT_A_UNREACHABLE: u32, verdicts
 *	%IBTRACE_PROVE_UNREACHABLE
 * @IBTRACE_PROVE_STAT_A_SEND_ERROR: u32, verdicts
 *	%IBTRACE_PROVE_SEND_ERROR
 * @IBTRACE_PROVE_STAT_A_ELAPSED_NS: u64, time taken
 * @__IBTRACE_PROVE_STAT_A_MAX: number of attributes + 1
 * @IBTRACE_PROVE_STAT_A_MAX: highest attribute number
 */
enum ibtrace_prove_stat_attr {
	IBTRACE_PROVE_STAT_A_UNSPEC,
	IBTRACE_PROVE_STAT_A_PAD,
	IBTRACE_PROVE_STAT_A_DESTS,
	IBTRACE_PROVE_STAT_A_DONE,
	IBTRACE_PROVE_STAT_A_MADS,
	IBTRACE_PROVE_STAT_A_VERIFIED,
	IBTRACE_PROVE_STAT_A_MISMATCH,
	IBTRACE_PROVE_STAT_A_NO_AGENT,
	IBTRACE_PROVE_STAT_A_UNREACHABLE,
	IBTRACE_PROVE_STAT_A_SEND_ERROR,
	IBTRACE_PROVE_STAT_A_ELAPSED_NS,

	__IBTRACE_PROVE_STAT_A_MAX,
	IBTRACE_PROVE_STAT_A_MAX = __IBTRACE_PROVE_STAT_A_MAX - 1
};

#endif /* _UAPI_LINUX_IBTRACE_H */
