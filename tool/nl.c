// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic netlink transport: one socket per run, the id of its family
 * ("ibtrace", or another such as "ibtrace_sim", see struct ibt_family),
 * and ibt_nl_run(), which sends one request and hands every reply of that
 * request to a callback until the kernel's ACK (do) or DONE (dump).
 *
 * Kernel errors come back with an extended ACK (NETLINK_EXT_ACK): its
 * message, the offending attribute and the missing attribute are decoded
 * here and printed as one "Error: ..." line. Also validated here, against
 * the uAPI header, is the shape of every attribute the kernel sends, so
 * the object files can read attributes without checking lengths.
 *
 * Notifications reach ctx->notify: the messages of a job this socket
 * started (unicast, sequence number 0), and multicast ones once
 * ibt_nl_join() joined their group; while a request runs (they may come
 * before its reply) and in ibt_nl_wait_notify().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/ibtrace_sim.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "ibtracectl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define IBT_NL_RCVBUF	(1 << 20)	/* room for a burst of ping probes */
#define IBT_NL_MSGBUF	32768		/* read buffer: the largest dump datagram */
#define IBT_NL_LOST_MS	200		/* quiet socket after an overrun: reply lost */
#define IBT_NL_SNDSLACK	4096		/* send buffer beyond the request */

/*
 * The value of an unsigned attribute. Every one of them has a fixed
 * size, checked by the policies below, so its length says its type; a
 * flag (no payload) reads 1.
 */
uint64_t ibt_nla_uint(const struct nlattr *a)
{
	switch (nla_len(a)) {
	case 0:
		return 1;
	case 1:
		return nla_get_u8((struct nlattr *)a);
	case 2:
		return nla_get_u16((struct nlattr *)a);
	case 4:
		return nla_get_u32((struct nlattr *)a);
	case 8:
		return nla_get_u64((struct nlattr *)a);
	default:
		return 0;	/* not an unsigned value */
	}
}

/* Room for the top level of a message of either family. */
#define IBT_TB_MAX	(1 + ((int)IBTRACE_A_MAX > (int)IBTRACE_SIM_A_MAX ? \
			      (int)IBTRACE_A_MAX : (int)IBTRACE_SIM_A_MAX))

/* Fixed-size attributes are checked for their exact size. */
#define FIXED(t, n)	{ .type = (t), .minlen = (n), .maxlen = (n) }
#define U8		FIXED(NLA_U8, 1)
#define U16		FIXED(NLA_U16, 2)
#define U32		FIXED(NLA_U32, 4)
#define U64		FIXED(NLA_U64, 8)
#define GID		FIXED(NLA_UNSPEC, 16)

static struct nla_policy ibt_policy[IBTRACE_A_MAX + 1] = {
	[IBTRACE_A_DEV_INDEX]		= U32,
	[IBTRACE_A_DEV_NAME]		= { .type = NLA_STRING,
					    .maxlen = IBT_DEV_NAME_MAX },
	[IBTRACE_A_PORT]		= U32,
	[IBTRACE_A_LINK_LAYER]		= U8,
	[IBTRACE_A_PORT_STATE]		= U8,
	[IBTRACE_A_LID]			= U32,
	[IBTRACE_A_LMC]			= U8,
	[IBTRACE_A_SM_LID]		= U32,
	[IBTRACE_A_GID]			= GID,
	[IBTRACE_A_PORT_GUID]		= U64,
	[IBTRACE_A_AGENT]		= U8,
	[IBTRACE_A_AGENT_STATS]		= { .type = NLA_NESTED },
	[IBTRACE_A_PING_DGID]		= GID,
	[IBTRACE_A_PING_DLID]		= U32,
	[IBTRACE_A_PING_COUNT]		= U32,
	[IBTRACE_A_PING_INTERVAL_MS]	= U32,
	[IBTRACE_A_PING_TIMEOUT_MS]	= U32,
	[IBTRACE_A_PING_RETRIES]	= U32,
	[IBTRACE_A_PING_SROUTE]		= { .minlen = 1,
					    .maxlen = IBTRACE_SROUTE_MAX_HOPS },
	[IBTRACE_A_PING_PROBE]		= { .type = NLA_NESTED },
	[IBTRACE_A_PING_SUMMARY]	= { .type = NLA_NESTED },
	[IBTRACE_A_TRACE_DLID]		= U32,
	[IBTRACE_A_TRACE_DGID]		= GID,
	[IBTRACE_A_TRACE_TIMEOUT_MS]	= U32,
	[IBTRACE_A_TRACE_RETRIES]	= U32,
	[IBTRACE_A_TRACE_HOP]		= { .type = NLA_NESTED },
	[IBTRACE_A_TRACE_STATUS]	= U8,
	[IBTRACE_A_TRACE_HOPS]		= U32,
	[IBTRACE_A_TRACE_FAIL_HOP]	= U32,
	[IBTRACE_A_TRACE_FAIL_PORT]	= U8,
	[IBTRACE_A_TRACE_MAD_STATUS]	= U16,
	[IBTRACE_A_TRACE_FDB_TOP]	= U32,
	[IBTRACE_A_TRACE_SMPS]		= U32,
	[IBTRACE_A_TRACE_VENDOR_MADS]	= U32,
	[IBTRACE_A_TRACE_ELAPSED_NS]	= U64,
	[IBTRACE_A_TRACE_ONE_HOP]	= U8,
	[IBTRACE_A_TEST_NAME]		= { .type = NLA_STRING },
	[IBTRACE_A_TEST_SEED]		= { .type = NLA_STRING },
	[IBTRACE_A_TEST_DESC]		= { .type = NLA_STRING },
	[IBTRACE_A_TEST_NEEDS]		= { .type = NLA_STRING },
	[IBTRACE_A_TEST_JOB]		= U32,
	[IBTRACE_A_TEST_DR_PATH]	= { .minlen = 1,
					    .maxlen = IBTRACE_TRACE_MAX_HOPS },
	[IBTRACE_A_TEST_LID]		= U32,
	[IBTRACE_A_TEST_DUT_PORT]	= U8,
	[IBTRACE_A_TEST_BLOCKS]		= U32,
	[IBTRACE_A_TEST_TIMEOUT_MS]	= U32,
	[IBTRACE_A_TEST_RETRIES]	= U32,
	[IBTRACE_A_TEST_STATE]		= U8,
	[IBTRACE_A_TEST_VERDICT]	= U8,
	[IBTRACE_A_TEST_REASON]		= { .type = NLA_STRING },
	[IBTRACE_A_TEST_ASSERTION]	= { .type = NLA_NESTED },
	[IBTRACE_A_TEST_EXCHANGE]	= { .type = NLA_NESTED },
	[IBTRACE_A_TEST_RESTORE]	= U8,
	[IBTRACE_A_TEST_EVENT]		= U8,
	[IBTRACE_A_TEST_PROGRESS]	= U32,
	[IBTRACE_A_TEST_ELAPSED_NS]	= U64,
	[IBTRACE_A_TEST_DUT_NODE_GUID]	= U64,
	[IBTRACE_A_TEST_DUT_PORT_GUID]	= U64,
	[IBTRACE_A_TEST_DUT_NODE_TYPE]	= U8,
	[IBTRACE_A_TEST_DUT_LID]	= U32,
	[IBTRACE_A_TEST_GUID_CAP]	= U8,
	[IBTRACE_A_TEST_EXCHANGES]	= U32,
	[IBTRACE_A_TEST_RNR_TIMER]	= U8,
	[IBTRACE_A_TEST_RNR_ALL]	= { .type = NLA_FLAG },
	[IBTRACE_A_TEST_RNR_RETRY]	= U8,
	[IBTRACE_A_TEST_SIZE]		= U32,
	[IBTRACE_A_TEST_ITERATIONS]	= U32,
	[IBTRACE_A_TEST_POLL]		= U8,
	[IBTRACE_A_TEST_RNR_RECV_POSTED] = { .type = NLA_FLAG },
	[IBTRACE_A_TEST_RNR_CODE]	= { .type = NLA_NESTED },
	[IBTRACE_A_TEST_PEER_GID]	= GID,
	[IBTRACE_A_TEST_PEER_PORT]	= U16,
	[IBTRACE_A_TEST_DEADLINE_MS]	= U32,
	[IBTRACE_A_TEST_RNR_WIRE]	= U8,
	[IBTRACE_A_TEST_RNR_WIRE_WHY]	= { .type = NLA_STRING },
	[IBTRACE_A_TRACE_ID]		= U32,
	[IBTRACE_A_TRACE_ERRNO]		= U32,
	[IBTRACE_A_TRACE_MLID]		= U32,
	[IBTRACE_A_JOB]			= U32,
	[IBTRACE_A_JOB_KIND]		= U8,
	[IBTRACE_A_JOB_STATE]		= U8,
	[IBTRACE_A_JOB_ERRNO]		= U32,
	[IBTRACE_A_JOB_MESSAGE]		= { .type = NLA_STRING },
	[IBTRACE_A_JOB_ELAPSED_NS]	= U64,
	[IBTRACE_A_JOB_DETACH]		= { .type = NLA_FLAG },
	[IBTRACE_A_SERVER_PORT]		= U16,
	[IBTRACE_A_SERVER_MAX_CONNS]	= U32,
	[IBTRACE_A_SERVER_MAX_HOLD_MS]	= U32,
	[IBTRACE_A_SERVER_RUNNING]	= U8,
	[IBTRACE_A_SERVER_ADDR]		= GID,
	[IBTRACE_A_SERVER_CONNS]	= U32,
	[IBTRACE_A_SERVER_CONN]		= { .type = NLA_NESTED },
	[IBTRACE_A_SERVER_STATS]	= { .type = NLA_NESTED },
	[IBTRACE_A_TEST_LIMIT_OBJECTS]	= U32,
	[IBTRACE_A_TEST_LIMIT_MAX]	= U32,
	[IBTRACE_A_TEST_LIMIT_WIDTH]	= U32,
	[IBTRACE_A_TEST_LIMIT_BUDGET_MB] = U32,
	[IBTRACE_A_TEST_LIMIT]		= { .type = NLA_NESTED },
	[IBTRACE_A_TEST_PERF_OP]	= U8,
	[IBTRACE_A_TEST_PERF_SEG_SIZE]	= U32,
	[IBTRACE_A_TEST_PERF_SEGS]	= U32,
	[IBTRACE_A_TEST_PERF_PIPELINE]	= U32,
	[IBTRACE_A_TEST_PERF]		= { .type = NLA_NESTED },
	[IBTRACE_A_SERVER_MAX_MEM_KB]	= U32,
	[IBTRACE_A_TEST_QUIT]		= { .type = NLA_NESTED },
	[IBTRACE_A_SERVER_QUITTING]	= U8,
	[IBTRACE_A_SERVER_QUIT_PEER]	= GID,
	[IBTRACE_A_TEST_TXN_THREADS]	= U32,
	[IBTRACE_A_TEST_TXN_ENDPOINTS]	= U32,
	[IBTRACE_A_TEST_TXN_VALIDATE]	= { .type = NLA_FLAG },
	[IBTRACE_A_TEST_TXN_OP]		= { .type = NLA_NESTED },
	[IBTRACE_A_TEST_TXN_CORRUPT]	= U32,
	[IBTRACE_A_TEST_TXN_EP]		= { .type = NLA_NESTED },
	[IBTRACE_A_TEST_ACK_TIMEOUT]	= U8,
	[IBTRACE_A_MAD_CLASS]		= U8,
	[IBTRACE_A_MAD_METHOD]		= U8,
	[IBTRACE_A_MAD_ATTR_ID]		= U16,
	[IBTRACE_A_MAD_ATTR_MOD]	= U32,
	[IBTRACE_A_MAD_DR_PATH]		= { .minlen = 1,
					    .maxlen = IBTRACE_MAD_MAX_DR_HOPS },
	[IBTRACE_A_MAD_DLID]		= U32,
	[IBTRACE_A_MAD_DGID]		= GID,
	[IBTRACE_A_MAD_COUNT]		= U32,
	[IBTRACE_A_MAD_ANSWER]		= { .type = NLA_NESTED },
	[IBTRACE_A_MAD_SUMMARY]		= { .type = NLA_NESTED },
	[IBTRACE_A_SWEEP_WINDOW]	= U32,
	[IBTRACE_A_SWEEP_TIMEOUT_MS]	= U32,
	[IBTRACE_A_SWEEP_RETRIES]	= U32,
	[IBTRACE_A_SWEEP_MAX_NODES]	= U32,
	[IBTRACE_A_SWEEP_STATS]		= { .type = NLA_NESTED },
	[IBTRACE_A_SWEEP_NODE]		= { .type = NLA_NESTED },
	[IBTRACE_A_PROVE_WINDOW]	= U32,
	[IBTRACE_A_PROVE_TIMEOUT_MS]	= U32,
	[IBTRACE_A_PROVE_RETRIES]	= U32,
	[IBTRACE_A_PROVE_DEST]		= { .type = NLA_NESTED },
	[IBTRACE_A_PROVE_STATS]		= { .type = NLA_NESTED },
};

static struct nla_policy ibt_sweep_stat_policy[IBTRACE_SWEEP_STAT_A_MAX + 1] = {
	[IBTRACE_SWEEP_STAT_A_NODES]		= U32,
	[IBTRACE_SWEEP_STAT_A_SWITCHES]		= U32,
	[IBTRACE_SWEEP_STAT_A_LINKS]		= U32,
	[IBTRACE_SWEEP_STAT_A_SMPS]		= U32,
	[IBTRACE_SWEEP_STAT_A_UNANSWERED]	= U32,
	[IBTRACE_SWEEP_STAT_A_NOT_KEPT]		= U32,
	[IBTRACE_SWEEP_STAT_A_BYTES]		= U64,
	[IBTRACE_SWEEP_STAT_A_ELAPSED_NS]	= U64,
};

static struct nla_policy ibt_sweep_node_policy[IBTRACE_SWEEP_NODE_A_MAX + 1] = {
	[IBTRACE_SWEEP_NODE_A_INDEX]		= U32,
	[IBTRACE_SWEEP_NODE_A_GUID]		= U64,
	[IBTRACE_SWEEP_NODE_A_TYPE]		= U8,
	[IBTRACE_SWEEP_NODE_A_NUM_PORTS]	= U8,
	[IBTRACE_SWEEP_NODE_A_IN_PORT]		= U8,
	[IBTRACE_SWEEP_NODE_A_PATH]		= { .minlen = 1,
						    .maxlen = IBTRACE_TRACE_MAX_HOPS },
	[IBTRACE_SWEEP_NODE_A_DESC]		= { .type = NLA_STRING },
	[IBTRACE_SWEEP_NODE_A_UNANSWERED]	= U32,
	[IBTRACE_SWEEP_NODE_A_LFT_TOP]		= U32,
	[IBTRACE_SWEEP_NODE_A_PORT]		= { .type = NLA_NESTED },
	[IBTRACE_SWEEP_NODE_A_LFT_OFFSET]	= U32,
	[IBTRACE_SWEEP_NODE_A_LFT]		= { .minlen = 1,
						    .maxlen = IBTRACE_SWEEP_LFT_CHUNK },
};

static struct nla_policy ibt_prove_stat_policy[IBTRACE_PROVE_STAT_A_MAX + 1] = {
	[IBTRACE_PROVE_STAT_A_DESTS]		= U32,
	[IBTRACE_PROVE_STAT_A_DONE]		= U32,
	[IBTRACE_PROVE_STAT_A_MADS]		= U32,
	[IBTRACE_PROVE_STAT_A_VERIFIED]		= U32,
	[IBTRACE_PROVE_STAT_A_MISMATCH]		= U32,
	[IBTRACE_PROVE_STAT_A_NO_AGENT]		= U32,
	[IBTRACE_PROVE_STAT_A_UNREACHABLE]	= U32,
	[IBTRACE_PROVE_STAT_A_SEND_ERROR]	= U32,
	[IBTRACE_PROVE_STAT_A_ELAPSED_NS]	= U64,
};

static struct nla_policy ibt_prove_dest_policy[IBTRACE_PROVE_DEST_A_MAX + 1] = {
	[IBTRACE_PROVE_DEST_A_LID]		= U32,
	[IBTRACE_PROVE_DEST_A_VECTOR]		= { .minlen = 1,
						    .maxlen = IBTRACE_SROUTE_MAX_HOPS },
	[IBTRACE_PROVE_DEST_A_INDEX]		= U32,
	[IBTRACE_PROVE_DEST_A_VERDICT]		= U8,
	[IBTRACE_PROVE_DEST_A_ACTUAL_PORT]	= U8,
	[IBTRACE_PROVE_DEST_A_STATUS]		= U16,
	[IBTRACE_PROVE_DEST_A_ATTEMPTS]		= U32,
	[IBTRACE_PROVE_DEST_A_RTT_NS]		= U64,
	[IBTRACE_PROVE_DEST_A_ERRNO]		= U32,
};

static struct nla_policy ibt_txn_op_policy[IBTRACE_TXN_OP_A_MAX + 1] = {
	[IBTRACE_TXN_OP_A_WHO]		= U8,
	[IBTRACE_TXN_OP_A_TYPE]		= U8,
	[IBTRACE_TXN_OP_A_SEG_SIZE]	= U32,
	[IBTRACE_TXN_OP_A_SEGS]		= U32,
	[IBTRACE_TXN_OP_A_REAP]		= { .type = NLA_FLAG },
	[IBTRACE_TXN_OP_A_APPENDED]	= { .type = NLA_FLAG },
};

static struct nla_policy ibt_txn_ep_policy[IBTRACE_TXN_EP_A_MAX + 1] = {
	[IBTRACE_TXN_EP_A_THREAD]		= U32,
	[IBTRACE_TXN_EP_A_EP]			= U32,
	[IBTRACE_TXN_EP_A_ITERATIONS]		= U32,
	[IBTRACE_TXN_EP_A_SERVER_VERSION]	= U32,
	[IBTRACE_TXN_EP_A_OPS]			= U64,
	[IBTRACE_TXN_EP_A_SERVER_OPS]		= U64,
	[IBTRACE_TXN_EP_A_BYTES]		= U64,
	[IBTRACE_TXN_EP_A_ERRORS]		= U64,
	[IBTRACE_TXN_EP_A_WC_STATUS]		= { .type = NLA_STRING },
	[IBTRACE_TXN_EP_A_ELAPSED_NS]		= U64,
	[IBTRACE_TXN_EP_A_MISMATCH_ITERATION]	= U32,
	[IBTRACE_TXN_EP_A_MISMATCH_OP]		= U32,
	[IBTRACE_TXN_EP_A_MISMATCH_OFFSET]	= U32,
	[IBTRACE_TXN_EP_A_MISMATCH_EXPECTED]	= U8,
	[IBTRACE_TXN_EP_A_MISMATCH_OBSERVED]	= U8,
	[IBTRACE_TXN_EP_A_MISMATCHES]		= U64,
};

static struct nla_policy ibt_quit_policy[IBTRACE_QUIT_A_MAX + 1] = {
	[IBTRACE_QUIT_A_SERVER_VERSION]	= U32,
	[IBTRACE_QUIT_A_RUNNING]	= U32,
	[IBTRACE_QUIT_A_BOUND_MS]	= U32,
	[IBTRACE_QUIT_A_STOPPED_NS]	= U64,
};

static struct nla_policy ibt_perf_policy[IBTRACE_PERF_A_MAX + 1] = {
	[IBTRACE_PERF_A_OPS]		= U64,
	[IBTRACE_PERF_A_ERRORS]		= U64,
	[IBTRACE_PERF_A_WC_STATUS]	= { .type = NLA_STRING },
	[IBTRACE_PERF_A_BYTES]		= U64,
	[IBTRACE_PERF_A_ELAPSED_NS]	= U64,
	[IBTRACE_PERF_A_LAT_MIN_NS]	= U64,
	[IBTRACE_PERF_A_LAT_MEDIAN_NS]	= U64,
	[IBTRACE_PERF_A_LAT_P99_NS]	= U64,
	[IBTRACE_PERF_A_LAT_MAX_NS]	= U64,
	[IBTRACE_PERF_A_SERVER_VERSION]	= U32,
	[IBTRACE_PERF_A_SEGS]		= U32,
};

static struct nla_policy ibt_limit_policy[IBTRACE_LIMIT_A_MAX + 1] = {
	[IBTRACE_LIMIT_A_OBJECT]	= U8,
	[IBTRACE_LIMIT_A_COUNT]		= U64,
	[IBTRACE_LIMIT_A_IN_USE]	= U64,
	[IBTRACE_LIMIT_A_ADVERTISED]	= U64,
	[IBTRACE_LIMIT_A_END]		= U8,
	[IBTRACE_LIMIT_A_ERRNO]		= U32,
	[IBTRACE_LIMIT_A_ELAPSED_NS]	= U64,
	[IBTRACE_LIMIT_A_ESTIMATE]	= U32,
};

static struct nla_policy ibt_assert_policy[IBTRACE_ASSERT_A_MAX + 1] = {
	[IBTRACE_ASSERT_A_ID]		= { .type = NLA_STRING },
	[IBTRACE_ASSERT_A_DESC]		= { .type = NLA_STRING },
	[IBTRACE_ASSERT_A_RESULT]	= U8,
	[IBTRACE_ASSERT_A_CHECKS]	= U32,
	[IBTRACE_ASSERT_A_EXPECTED]	= { .type = NLA_STRING },
	[IBTRACE_ASSERT_A_OBSERVED]	= { .type = NLA_STRING },
	[IBTRACE_ASSERT_A_WHERE]	= { .type = NLA_STRING },
};

static struct nla_policy ibt_xchg_policy[IBTRACE_XCHG_A_MAX + 1] = {
	[IBTRACE_XCHG_A_SEQ]		= U32,
	[IBTRACE_XCHG_A_METHOD]		= U8,
	[IBTRACE_XCHG_A_ATTR_ID]	= U16,
	[IBTRACE_XCHG_A_ATTR_MOD]	= U32,
	[IBTRACE_XCHG_A_OUTCOME]	= U8,
	[IBTRACE_XCHG_A_STATUS]		= U16,
	[IBTRACE_XCHG_A_RTT_NS]		= U64,
	[IBTRACE_XCHG_A_ATTEMPTS]	= U32,
	[IBTRACE_XCHG_A_PHASE]		= U8,
};

static struct nla_policy ibt_rnr_policy[IBTRACE_RNR_A_MAX + 1] = {
	[IBTRACE_RNR_A_CODE]		= U8,
	[IBTRACE_RNR_A_TABLE_NS]	= U64,
	[IBTRACE_RNR_A_ITERATIONS]	= U32,
	[IBTRACE_RNR_A_WAIT_MIN_NS]	= U64,
	[IBTRACE_RNR_A_WAIT_MEDIAN_NS]	= U64,
	[IBTRACE_RNR_A_WAIT_MAX_NS]	= U64,
	[IBTRACE_RNR_A_WAIT_P99_NS]	= U64,
	[IBTRACE_RNR_A_OVERSHOOT_NS]	= U64,	/* s64 */
	[IBTRACE_RNR_A_GRANULARITY_NS]	= U64,
	[IBTRACE_RNR_A_CALIBRATION_NS]	= U64,
	[IBTRACE_RNR_A_WIRE_SAMPLES]	= U32,
	[IBTRACE_RNR_A_WIRE_MIN_NS]	= U64,
	[IBTRACE_RNR_A_WIRE_MEDIAN_NS]	= U64,
	[IBTRACE_RNR_A_WIRE_MAX_NS]	= U64,
	[IBTRACE_RNR_A_NAKS]		= U32,
};

/* NODE_DESC: at most 64 characters and the NUL. */
static struct nla_policy ibt_hop_policy[IBTRACE_HOP_A_MAX + 1] = {
	[IBTRACE_HOP_A_INDEX]		= U32,
	[IBTRACE_HOP_A_NODE_TYPE]	= U8,
	[IBTRACE_HOP_A_NUM_PORTS]	= U8,
	[IBTRACE_HOP_A_NODE_GUID]	= U64,
	[IBTRACE_HOP_A_PORT_GUID]	= U64,
	[IBTRACE_HOP_A_LID]		= U32,
	[IBTRACE_HOP_A_LMC]		= U8,
	[IBTRACE_HOP_A_NODE_DESC]	= { .type = NLA_STRING,
					    .maxlen = IBT_DESC_MAX },
	[IBTRACE_HOP_A_IN_PORT]		= U8,
	[IBTRACE_HOP_A_OUT_PORT]	= U8,
	[IBTRACE_HOP_A_AGENT]		= U8,
	[IBTRACE_HOP_A_EXPECTED_PORT]	= U8,
	[IBTRACE_HOP_A_ACTUAL_PORT]	= U8,
	[IBTRACE_HOP_A_SMPS]		= U32,
	[IBTRACE_HOP_A_SMP_RTT_NS]	= U64,
	[IBTRACE_HOP_A_VENDOR_MADS]	= U32,
	[IBTRACE_HOP_A_VENDOR_RTT_NS]	= U64,
};

static struct nla_policy ibt_stat_policy[IBTRACE_STAT_MAX + 1] = {
	[IBTRACE_STAT_RX]		= U64,
	[IBTRACE_STAT_ANSWERED]		= U64,
	[IBTRACE_STAT_MISMATCH]		= U64,
	[IBTRACE_STAT_MALFORMED]	= U64,
	[IBTRACE_STAT_UNSUPPORTED]	= U64,
	[IBTRACE_STAT_SUCCESS]		= U64,
	[IBTRACE_STAT_UNSUPPORTED_METHOD] = U64,
	[IBTRACE_STAT_UNSUPPORTED_ATTR]	= U64,
	[IBTRACE_STAT_TX_ERROR]		= U64,
	[IBTRACE_STAT_STRAY]		= U64,
	[IBTRACE_STAT_INVALID_ANSWER]	= U64,
	[IBTRACE_STAT_AH_MADE]		= U64,
	[IBTRACE_STAT_AH_REUSED]	= U64,
};

static struct nla_policy ibt_probe_policy[IBTRACE_PROBE_A_MAX + 1] = {
	[IBTRACE_PROBE_A_SEQ]			= U32,
	[IBTRACE_PROBE_A_STATUS]		= U8,
	[IBTRACE_PROBE_A_MAD_STATUS]		= U16,
	[IBTRACE_PROBE_A_RTT_NS]		= U64,
	[IBTRACE_PROBE_A_ATTEMPTS]		= U32,
	[IBTRACE_PROBE_A_SLID]			= U32,
	[IBTRACE_PROBE_A_SGID]			= GID,
	[IBTRACE_PROBE_A_ACTUAL_PORT]		= U8,
	[IBTRACE_PROBE_A_CPI_BASE_VERSION]	= U8,
	[IBTRACE_PROBE_A_CPI_CLASS_VERSION]	= U8,
	[IBTRACE_PROBE_A_CPI_CAP_MASK]		= U16,
	[IBTRACE_PROBE_A_CPI_RESP_TIME]		= U8,
	[IBTRACE_PROBE_A_TID]			= U64,
	[IBTRACE_PROBE_A_MAD]			= { .minlen = 256,
						    .maxlen = 256 },
};

static struct nla_policy ibt_summary_policy[IBTRACE_SUMMARY_A_MAX + 1] = {
	[IBTRACE_SUMMARY_A_SENT]		= U32,
	[IBTRACE_SUMMARY_A_RECEIVED]		= U32,
	[IBTRACE_SUMMARY_A_ERRORS]		= U32,
	[IBTRACE_SUMMARY_A_RTT_MIN_NS]		= U64,
	[IBTRACE_SUMMARY_A_RTT_AVG_NS]		= U64,
	[IBTRACE_SUMMARY_A_RTT_MAX_NS]		= U64,
	[IBTRACE_SUMMARY_A_RTT_P99_NS]		= U64,
	[IBTRACE_SUMMARY_A_RTT_MEDIAN_NS]	= U64,
};

static struct nla_policy ibt_server_conn_policy[IBTRACE_SERVER_CONN_A_MAX + 1] = {
	[IBTRACE_SERVER_CONN_A_SERVICE]		= { .type = NLA_STRING },
	[IBTRACE_SERVER_CONN_A_PEER_GID]	= GID,
	[IBTRACE_SERVER_CONN_A_DEV_NAME]	= { .type = NLA_STRING },
	[IBTRACE_SERVER_CONN_A_PORT]		= U32,
	[IBTRACE_SERVER_CONN_A_AGE_MS]		= U32,
	[IBTRACE_SERVER_CONN_A_HOLD_MS]		= U32,
	[IBTRACE_SERVER_CONN_A_RNR_TIMER]	= U8,
	[IBTRACE_SERVER_CONN_A_RNR_RECV_POSTED]	= { .type = NLA_FLAG },
	[IBTRACE_SERVER_CONN_A_PERF_OP]		= U8,
	[IBTRACE_SERVER_CONN_A_PERF_BYTES]	= U32,
};

static struct nla_policy ibt_server_stat_policy[IBTRACE_SERVER_STAT_MAX + 1] = {
	[IBTRACE_SERVER_STAT_ACCEPTED]		= U64,
	[IBTRACE_SERVER_STAT_REJ_FOREIGN]	= U64,
	[IBTRACE_SERVER_STAT_REJ_CONNS]		= U64,
	[IBTRACE_SERVER_STAT_REJ_HOLD]		= U64,
	[IBTRACE_SERVER_STAT_REJ_DEV]		= U64,
	[IBTRACE_SERVER_STAT_REJ_ERROR]		= U64,
	[IBTRACE_SERVER_STAT_REJ_VERSION]	= U64,
	[IBTRACE_SERVER_STAT_REJ_MEM]		= U64,
	[IBTRACE_SERVER_STAT_QUITS]		= U64,
	[IBTRACE_SERVER_STAT_REJ_QUITTING]	= U64,
};

static struct nla_policy ibt_ctrl_policy[CTRL_ATTR_MAX + 1] = {
	[CTRL_ATTR_FAMILY_ID]		= U16,
	[CTRL_ATTR_FAMILY_NAME]		= { .type = NLA_STRING },
	[CTRL_ATTR_VERSION]		= U32,
	[CTRL_ATTR_MCAST_GROUPS]	= { .type = NLA_NESTED },
};

static struct nla_policy ibt_grp_policy[CTRL_ATTR_MCAST_GRP_MAX + 1] = {
	[CTRL_ATTR_MCAST_GRP_NAME]	= { .type = NLA_STRING },
	[CTRL_ATTR_MCAST_GRP_ID]	= U32,
};

static struct nla_policy ibt_extack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG]		= { .type = NLA_STRING },
	[NLMSGERR_ATTR_OFFS]		= U32,
	[NLMSGERR_ATTR_MISS_TYPE]	= U32,
};

/* Request attributes, as named in error messages. */
static const char *const ibt_attr_names[IBTRACE_A_MAX + 1] = {
	[IBTRACE_A_DEV_INDEX]		= "dev_index",
	[IBTRACE_A_DEV_NAME]		= "dev_name",
	[IBTRACE_A_PORT]		= "port",
	[IBTRACE_A_PING_DGID]		= "ping_dgid",
	[IBTRACE_A_PING_DLID]		= "ping_dlid",
	[IBTRACE_A_PING_COUNT]		= "ping_count",
	[IBTRACE_A_PING_INTERVAL_MS]	= "ping_interval_ms",
	[IBTRACE_A_PING_TIMEOUT_MS]	= "ping_timeout_ms",
	[IBTRACE_A_PING_RETRIES]	= "ping_retries",
	[IBTRACE_A_PING_SROUTE]		= "ping_sroute",
	[IBTRACE_A_TRACE_DLID]		= "trace_dlid",
	[IBTRACE_A_TRACE_DGID]		= "trace_dgid",
	[IBTRACE_A_TRACE_TIMEOUT_MS]	= "trace_timeout_ms",
	[IBTRACE_A_TRACE_RETRIES]	= "trace_retries",
	[IBTRACE_A_TEST_NAME]		= "test_name",
	[IBTRACE_A_TEST_JOB]		= "test_job",
	[IBTRACE_A_TEST_DR_PATH]	= "test_dr_path",
	[IBTRACE_A_TEST_LID]		= "test_lid",
	[IBTRACE_A_TEST_DUT_PORT]	= "test_dut_port",
	[IBTRACE_A_TEST_BLOCKS]		= "test_blocks",
	[IBTRACE_A_TEST_TIMEOUT_MS]	= "test_timeout_ms",
	[IBTRACE_A_TEST_RETRIES]	= "test_retries",
	[IBTRACE_A_TEST_RNR_TIMER]	= "test_rnr_timer",
	[IBTRACE_A_TEST_RNR_ALL]	= "test_rnr_all",
	[IBTRACE_A_TEST_RNR_RETRY]	= "test_rnr_retry",
	[IBTRACE_A_TEST_SIZE]		= "test_size",
	[IBTRACE_A_TEST_ITERATIONS]	= "test_iterations",
	[IBTRACE_A_TEST_POLL]		= "test_poll",
	[IBTRACE_A_TEST_RNR_RECV_POSTED] = "test_rnr_recv_posted",
	[IBTRACE_A_TEST_PEER_GID]	= "test_peer_gid",
	[IBTRACE_A_TEST_PEER_PORT]	= "test_peer_port",
	[IBTRACE_A_TEST_DEADLINE_MS]	= "test_deadline_ms",
	[IBTRACE_A_TRACE_MLID]		= "trace_mlid",
	[IBTRACE_A_JOB]			= "job",
	[IBTRACE_A_JOB_DETACH]		= "job_detach",
	[IBTRACE_A_SERVER_PORT]		= "server_port",
	[IBTRACE_A_SERVER_MAX_CONNS]	= "server_max_conns",
	[IBTRACE_A_SERVER_MAX_HOLD_MS]	= "server_max_hold_ms",
	[IBTRACE_A_TEST_LIMIT_OBJECTS]	= "test_limit_objects",
	[IBTRACE_A_TEST_LIMIT_MAX]	= "test_limit_max",
	[IBTRACE_A_TEST_LIMIT_WIDTH]	= "test_limit_width",
	[IBTRACE_A_TEST_LIMIT_BUDGET_MB] = "test_limit_budget_mb",
	[IBTRACE_A_TEST_PERF_OP]	= "test_perf_op",
	[IBTRACE_A_TEST_PERF_SEG_SIZE]	= "test_perf_seg_size",
	[IBTRACE_A_TEST_PERF_SEGS]	= "test_perf_segs",
	[IBTRACE_A_TEST_PERF_PIPELINE]	= "test_perf_pipeline",
	[IBTRACE_A_SERVER_MAX_MEM_KB]	= "server_max_mem_kb",
	[IBTRACE_A_TEST_TXN_THREADS]	= "test_txn_threads",
	[IBTRACE_A_TEST_TXN_ENDPOINTS]	= "test_txn_endpoints",
	[IBTRACE_A_TEST_TXN_VALIDATE]	= "test_txn_validate",
	[IBTRACE_A_TEST_TXN_OP]		= "test_txn_op",
	[IBTRACE_A_TEST_TXN_CORRUPT]	= "test_txn_corrupt",
	[IBTRACE_A_TEST_ACK_TIMEOUT]	= "test_ack_timeout",
	[IBTRACE_A_MAD_CLASS]	= "mad_class",
	[IBTRACE_A_MAD_CLASS_VERSION]	= "mad_class_version",
	[IBTRACE_A_MAD_BASE_VERSION]	= "mad_base_version",
	[IBTRACE_A_MAD_METHOD]	= "mad_method",
	[IBTRACE_A_MAD_ATTR_ID]	= "mad_attr_id",
	[IBTRACE_A_MAD_ATTR_MOD]	= "mad_attr_mod",
	[IBTRACE_A_MAD_STATUS]	= "mad_status",
	[IBTRACE_A_MAD_TID]	= "mad_tid",
	[IBTRACE_A_MAD_MKEY]	= "mad_mkey",
	[IBTRACE_A_MAD_OUI]	= "mad_oui",
	[IBTRACE_A_MAD_COMP_MASK]	= "mad_comp_mask",
	[IBTRACE_A_MAD_DATA]	= "mad_data",
	[IBTRACE_A_MAD_DR_PATH]	= "mad_dr_path",
	[IBTRACE_A_MAD_DR_SLID]	= "mad_dr_slid",
	[IBTRACE_A_MAD_DR_DLID]	= "mad_dr_dlid",
	[IBTRACE_A_MAD_HOP_PTR]	= "mad_hop_ptr",
	[IBTRACE_A_MAD_DLID]	= "mad_dlid",
	[IBTRACE_A_MAD_DGID]	= "mad_dgid",
	[IBTRACE_A_MAD_SL]	= "mad_sl",
	[IBTRACE_A_MAD_PKEY_INDEX]	= "mad_pkey_index",
	[IBTRACE_A_MAD_QPN]	= "mad_qpn",
	[IBTRACE_A_MAD_COUNT]	= "mad_count",
	[IBTRACE_A_MAD_INTERVAL_MS]	= "mad_interval_ms",
	[IBTRACE_A_MAD_TIMEOUT_MS]	= "mad_timeout_ms",
	[IBTRACE_A_MAD_RETRIES]	= "mad_retries",
	[IBTRACE_A_MAD_NO_WAIT]	= "mad_no_wait",
	[IBTRACE_A_MAD_ALLOW_SET]	= "mad_allow_set",
	[IBTRACE_A_MAD_ANSWER]	= "mad_answer",
	[IBTRACE_A_MAD_SUMMARY]	= "mad_summary",
	[IBTRACE_A_SWEEP_WINDOW]	= "sweep_window",
	[IBTRACE_A_SWEEP_TIMEOUT_MS]	= "sweep_timeout_ms",
	[IBTRACE_A_SWEEP_RETRIES]	= "sweep_retries",
	[IBTRACE_A_SWEEP_MAX_NODES]	= "sweep_max_nodes",
	[IBTRACE_A_SWEEP_STATS]	= "sweep_stats",
	[IBTRACE_A_SWEEP_NODE]	= "sweep_node",
	[IBTRACE_A_PROVE_WINDOW]	= "prove_window",
	[IBTRACE_A_PROVE_TIMEOUT_MS]	= "prove_timeout_ms",
	[IBTRACE_A_PROVE_RETRIES]	= "prove_retries",
	[IBTRACE_A_PROVE_DEST]	= "prove_dest",
	[IBTRACE_A_PROVE_STATS]	= "prove_stats",
};

/* The nests of an ibtrace message: their policies and names in errors. */
struct ibt_nest {
	int type;
	int max;
	const struct nla_policy *policy;
	const char *where;
};

static const struct ibt_nest ibt_nests[] = {
	{ IBTRACE_A_AGENT_STATS, IBTRACE_STAT_MAX, ibt_stat_policy,
	  "agent stats" },
	{ IBTRACE_A_PING_PROBE, IBTRACE_PROBE_A_MAX, ibt_probe_policy,
	  "probe" },
	{ IBTRACE_A_PING_SUMMARY, IBTRACE_SUMMARY_A_MAX, ibt_summary_policy,
	  "summary" },
	{ IBTRACE_A_MAD_ANSWER, IBTRACE_PROBE_A_MAX, ibt_probe_policy,
	  "MAD answer" },
	{ IBTRACE_A_MAD_SUMMARY, IBTRACE_SUMMARY_A_MAX, ibt_summary_policy,
	  "summary" },
	{ IBTRACE_A_TRACE_HOP, IBTRACE_HOP_A_MAX, ibt_hop_policy,
	  "trace hop" },
	{ IBTRACE_A_TEST_ASSERTION, IBTRACE_ASSERT_A_MAX, ibt_assert_policy,
	  "test assertion" },
	{ IBTRACE_A_TEST_EXCHANGE, IBTRACE_XCHG_A_MAX, ibt_xchg_policy,
	  "test exchange" },
	{ IBTRACE_A_TEST_RNR_CODE, IBTRACE_RNR_A_MAX, ibt_rnr_policy,
	  "RNR timer code" },
	{ IBTRACE_A_TEST_LIMIT, IBTRACE_LIMIT_A_MAX, ibt_limit_policy,
	  "limit figures" },
	{ IBTRACE_A_TEST_PERF, IBTRACE_PERF_A_MAX, ibt_perf_policy,
	  "perf figures" },
	{ IBTRACE_A_TEST_QUIT, IBTRACE_QUIT_A_MAX, ibt_quit_policy,
	  "quit figures" },
	{ IBTRACE_A_TEST_TXN_OP, IBTRACE_TXN_OP_A_MAX, ibt_txn_op_policy,
	  "transaction operation" },
	{ IBTRACE_A_TEST_TXN_EP, IBTRACE_TXN_EP_A_MAX, ibt_txn_ep_policy,
	  "transaction endpoint figures" },
	{ IBTRACE_A_SERVER_CONN, IBTRACE_SERVER_CONN_A_MAX,
	  ibt_server_conn_policy, "server connection" },
	{ IBTRACE_A_SERVER_STATS, IBTRACE_SERVER_STAT_MAX,
	  ibt_server_stat_policy, "server stats" },
	{ IBTRACE_A_SWEEP_STATS, IBTRACE_SWEEP_STAT_A_MAX,
	  ibt_sweep_stat_policy, "sweep figures" },
	{ IBTRACE_A_SWEEP_NODE, IBTRACE_SWEEP_NODE_A_MAX,
	  ibt_sweep_node_policy, "swept node" },
	{ IBTRACE_A_PROVE_STATS, IBTRACE_PROVE_STAT_A_MAX,
	  ibt_prove_stat_policy, "proof figures" },
	{ IBTRACE_A_PROVE_DEST, IBTRACE_PROVE_DEST_A_MAX,
	  ibt_prove_dest_policy, "proof destination" },
};

/* The family ibt_nl_open() resolves. */
static const struct ibt_family ibt_family =
	IBT_FAMILY(IBTRACE_GENL_NAME, IBTRACE_GENL_VERSION, ibt_attr_names,
		   IBTRACE_A_MAX, ibt_policy, ibt_nests);

/* The ibtrace_sim family, of the sim object: its uAPI as the ibtrace one. */
static struct nla_policy sim_policy[IBTRACE_SIM_A_MAX + 1] = {
	[IBTRACE_SIM_A_FABRIC_NAME]	= { .type = NLA_STRING,
					    .maxlen = IBTRACE_SIM_NAME_MAX + 1 },
	[IBTRACE_SIM_A_TOPOLOGY]	= { .type = NLA_STRING },
	[IBTRACE_SIM_A_NUM_NODES]	= U32,
	[IBTRACE_SIM_A_NUM_CAS]		= U32,
	[IBTRACE_SIM_A_NUM_SWITCHES]	= U32,
	[IBTRACE_SIM_A_NUM_LINKS]	= U32,
	[IBTRACE_SIM_A_ERR_LINE]	= U32,
	[IBTRACE_SIM_A_ERR_MSG]		= { .type = NLA_STRING },
	[IBTRACE_SIM_A_NODE_INDEX]	= U32,
	[IBTRACE_SIM_A_NODE_TYPE]	= U8,
	[IBTRACE_SIM_A_NODE_NAME]	= { .type = NLA_STRING,
					    .maxlen = IBTRACE_SIM_NODE_NAME_MAX + 1 },
	[IBTRACE_SIM_A_NODE_GUID]	= U64,
	[IBTRACE_SIM_A_DEV_NAME]	= { .type = NLA_STRING,
					    .maxlen = IBT_DEV_NAME_MAX },
	[IBTRACE_SIM_A_PORT]		= { .type = NLA_NESTED },
	[IBTRACE_SIM_A_SM]		= U8,
	[IBTRACE_SIM_A_SM_LID]		= U32,
	[IBTRACE_SIM_A_MISROUTE]	= { .type = NLA_NESTED },
	[IBTRACE_SIM_A_SEED]		= U32,
	[IBTRACE_SIM_A_BUILDING]	= U8,
	[IBTRACE_SIM_A_CAPTURE_ID]	= U32,
	[IBTRACE_SIM_A_CAPTURE_PORT]	= U32,
	[IBTRACE_SIM_A_CAPTURE_DIR]	= U8,
	[IBTRACE_SIM_A_CAPTURE_TIME_NS]	= U64,
	[IBTRACE_SIM_A_CAPTURE_DATA]	= { .minlen = 1,
					    .maxlen = IBTRACE_SIM_CAPTURE_PKT_MAX },
	[IBTRACE_SIM_A_CAPTURE_SEEN]	= U64,
	[IBTRACE_SIM_A_CAPTURE_LOST]	= U64,
	[IBTRACE_SIM_A_CAPTURE_END]	= U8,
	[IBTRACE_SIM_A_INJECT_RTT_NS]	= U64,
	[IBTRACE_SIM_A_NUM_DEVICES]	= U32,
	[IBTRACE_SIM_A_DEADLOCK]	= { .type = NLA_STRING,
					    .maxlen = IBTRACE_SIM_DEADLOCK_MAX },
	[IBTRACE_SIM_A_TRAFFIC_ID]	= U32,
	[IBTRACE_SIM_A_TRAFFIC_PORT]	= U32,
	[IBTRACE_SIM_A_TRAFFIC_DLID]	= U32,
	[IBTRACE_SIM_A_TRAFFIC_SL]	= U8,
	[IBTRACE_SIM_A_TRAFFIC_SIZE]	= U32,
	[IBTRACE_SIM_A_TRAFFIC_RATE]	= U32,
	[IBTRACE_SIM_A_TRAFFIC_COUNT]	= U32,
	[IBTRACE_SIM_A_TRAFFIC_VL]	= U8,
	[IBTRACE_SIM_A_TRAFFIC_SENT]	= U64,
	[IBTRACE_SIM_A_TRAFFIC_DELIVERED] = U64,
	[IBTRACE_SIM_A_TRAFFIC_DROPPED]	= U64,
	[IBTRACE_SIM_A_TRAFFIC_TIME_NS]	= U64,
	[IBTRACE_SIM_A_TRAFFIC_LAT_MIN_NS] = U64,
	[IBTRACE_SIM_A_TRAFFIC_LAT_P50_NS] = U64,
	[IBTRACE_SIM_A_TRAFFIC_LAT_P90_NS] = U64,
	[IBTRACE_SIM_A_TRAFFIC_LAT_P99_NS] = U64,
	[IBTRACE_SIM_A_TRAFFIC_LAT_MAX_NS] = U64,
	[IBTRACE_SIM_A_TRAFFIC_END]	= U8,
	[IBTRACE_SIM_A_TIME_SCALE]	= U32,
};

static struct nla_policy sim_port_policy[IBTRACE_SIM_PORT_A_MAX + 1] = {
	[IBTRACE_SIM_PORT_A_NUM]	= U32,
	[IBTRACE_SIM_PORT_A_GUID]	= U64,
	[IBTRACE_SIM_PORT_A_LID]	= U32,
	[IBTRACE_SIM_PORT_A_LMC]	= U8,
	[IBTRACE_SIM_PORT_A_STATE]	= U8,
	[IBTRACE_SIM_PORT_A_PEER_NODE]	= U32,
	[IBTRACE_SIM_PORT_A_PEER_PORT]	= U32,
	[IBTRACE_SIM_PORT_A_RX_PKTS]	= U64,
	[IBTRACE_SIM_PORT_A_TX_PKTS]	= U64,
	[IBTRACE_SIM_PORT_A_DROPS]	= U64,
	[IBTRACE_SIM_PORT_A_DROP_PPM]	= U32,
	[IBTRACE_SIM_PORT_A_DELAY_US]	= U32,
	[IBTRACE_SIM_PORT_A_LINK_DOWN]	= U8,
	[IBTRACE_SIM_PORT_A_GUID_CAP]	= U8,
	[IBTRACE_SIM_PORT_A_GUID_QUIRKS] = U32,
	[IBTRACE_SIM_PORT_A_BUF_BLOCKS]	= U32,
	[IBTRACE_SIM_PORT_A_SINK_PPS]	= U32,
	[IBTRACE_SIM_PORT_A_IGNORE_CREDITS] = U8,
	[IBTRACE_SIM_PORT_A_LINK_WIDTH]	= U8,
	[IBTRACE_SIM_PORT_A_LINK_SPEED]	= U8,
};

static struct nla_policy sim_misroute_policy[IBTRACE_SIM_MISROUTE_A_MAX + 1] = {
	[IBTRACE_SIM_MISROUTE_A_DLID]	= U32,
	[IBTRACE_SIM_MISROUTE_A_PORT]	= U32,
};

/* Request attributes, as named in error messages. */
static const char *const sim_attr_names[IBTRACE_SIM_A_MAX + 1] = {
	[IBTRACE_SIM_A_FABRIC_NAME]	= "fabric_name",
	[IBTRACE_SIM_A_TOPOLOGY]	= "topology",
	[IBTRACE_SIM_A_NODE_INDEX]	= "node_index",
	[IBTRACE_SIM_A_NODE_NAME]	= "node_name",
	[IBTRACE_SIM_A_PORT]		= "port",
	[IBTRACE_SIM_A_MISROUTE]	= "misroute",
	[IBTRACE_SIM_A_SEED]		= "seed",
	[IBTRACE_SIM_A_CAPTURE_ID]	= "capture_id",
	[IBTRACE_SIM_A_CAPTURE_PORT]	= "capture_port",
	[IBTRACE_SIM_A_CAPTURE_COUNT]	= "capture_count",
	[IBTRACE_SIM_A_TRAFFIC_ID]	= "traffic_id",
	[IBTRACE_SIM_A_TRAFFIC_PORT]	= "traffic_port",
	[IBTRACE_SIM_A_TRAFFIC_DLID]	= "traffic_dlid",
	[IBTRACE_SIM_A_TRAFFIC_SL]	= "traffic_sl",
	[IBTRACE_SIM_A_TRAFFIC_SIZE]	= "traffic_size",
	[IBTRACE_SIM_A_TRAFFIC_RATE]	= "traffic_rate",
	[IBTRACE_SIM_A_TRAFFIC_COUNT]	= "traffic_count",
	[IBTRACE_SIM_A_TIME_SCALE]	= "time_scale",
};

static const struct ibt_nest sim_nests[] = {
	{ IBTRACE_SIM_A_PORT, IBTRACE_SIM_PORT_A_MAX, sim_port_policy, "port" },
	{ IBTRACE_SIM_A_MISROUTE, IBTRACE_SIM_MISROUTE_A_MAX, sim_misroute_policy,
	  "misroute" },
};

const struct ibt_family ibt_sim_family =
	IBT_FAMILY(IBTRACE_SIM_GENL_NAME, IBTRACE_SIM_GENL_VERSION, sim_attr_names,
		   IBTRACE_SIM_A_MAX, sim_policy, sim_nests);

/* The family of ctx's socket, ibtrace until one is opened. */
static const struct ibt_family *family_of(const struct ibt *ctx)
{
	return ctx->fam ? ctx->fam : &ibt_family;
}

static const char *attr_name(struct ibt *ctx, int type, char *buf, size_t len)
{
	const struct ibt_family *fam = family_of(ctx);

	if (type > 0 && type <= fam->attr_max && fam->attr_names[type])
		return fam->attr_names[type];
	snprintf(buf, len, "#%d", type);
	return buf;
}

/*
 * Parse @len bytes of attributes at @head; on a policy violation name
 * the first offending attribute.
 */
static int parse_attrs(struct nlattr **tb, int max, struct nlattr *head,
		       int len, const struct nla_policy *policy,
		       const char *where)
{
	struct nlattr *nla;
	int rem;

	if (nla_parse(tb, max, head, len, policy) >= 0)
		return 0;
	nla_for_each_attr(nla, head, len, rem) {
		if (nla_validate(nla, nla->nla_len, max, policy) < 0)
			return ibt_err(IBT_EXIT_ERR,
				       "malformed kernel reply: %s attribute %d has %d bytes",
				       where, nla_type(nla), nla_len(nla));
	}
	return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: %s attributes",
		       where);
}

/*
 * Top-level attributes of a generic netlink message, checked against
 * @policy; @where names them in errors.
 */
static int parse_msg(struct nlmsghdr *nlh, struct nlattr **tb, int max,
		     const struct nla_policy *policy, const char *where)
{
	if (!genlmsg_valid_hdr(nlh, 0))
		return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: short message");
	return parse_attrs(tb, max, genlmsg_attrdata(nlmsg_data(nlh), 0),
			   genlmsg_attrlen(nlmsg_data(nlh), 0), policy, where);
}

/*
 * Top-level attributes of a message of ctx's family, checked against its
 * uAPI; @tb has room for its attributes (*_A_MAX + 1).
 */
int ibt_nl_parse(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb)
{
	const struct ibt_family *fam = family_of(ctx);

	return parse_msg(nlh, tb, fam->attr_max, fam->policy, "top-level");
}

/*
 * @fn on each top-level attribute of type @type of message @nlh (with
 * @arg), in order, until one returns non-zero: that exit code, else 0.
 */
int ibt_nl_each(struct ibt *ctx, struct nlmsghdr *nlh, int type, ibt_nla_fn fn,
		void *arg)
{
	struct nlattr *a;
	int rem, ret;

	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) != type)
			continue;
		ret = fn(ctx, arg, a);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Attributes of nest @nest of a message of ctx's family (one of its
 * nests: ibtrace's IBTRACE_A_AGENT_STATS, _PING_PROBE, _PING_SUMMARY,
 * _TRACE_HOP, _TEST_ASSERTION, _TEST_EXCHANGE, _TEST_RNR_CODE,
 * _TEST_LIMIT, _SERVER_CONN, _SERVER_STATS, _SWEEP_STATS, _SWEEP_NODE,
 * _PROVE_STATS, _PROVE_DEST;
 * ibtrace_sim's IBTRACE_SIM_A_PORT, _MISROUTE); @tb has room for that
 * nest's *_MAX + 1.
 */
int ibt_nl_parse_nest(struct ibt *ctx, struct nlattr *nest, struct nlattr **tb)
{
	const struct ibt_family *fam = family_of(ctx);
	size_t i;

	for (i = 0; i < fam->nnests; i++)
		if (fam->nests[i].type == nla_type(nest))
			return parse_attrs(tb, fam->nests[i].max, nla_data(nest),
					   nla_len(nest), fam->nests[i].policy,
					   fam->nests[i].where);
	return ibt_err(IBT_EXIT_ERR, "internal error: unknown nest %d",
		       nla_type(nest));
}


/*
 * A number and a sentence of a message (as an error's errno or line, and
 * its text) into *@n and @buf (@len bytes), each one the message has.
 */
void ibt_nla_keep(struct nlattr *num, uint32_t *n, struct nlattr *str,
		  char *buf, size_t len)
{
	if (num)
		*n = nla_get_u32(num);
	if (str)
		nla_strlcpy(buf, str, len);
}

/*
 * An ibtrace_sim request of @cmd naming fabric @fabric and its node @node
 * (an index if all digits, else a name): sim set, capture and inject.
 * NULL: printed.
 */
struct nl_msg *ibt_sim_node_req(struct ibt *ctx, uint8_t cmd,
				const char *fabric, const char *node)
{
	struct nl_msg *msg = ibt_nl_req(ctx, cmd, false);
	uint32_t index;
	int err;

	if (!msg)
		return NULL;
	err = nla_put_string(msg, IBTRACE_SIM_A_FABRIC_NAME, fabric);
	if (!err && strspn(node, "0123456789") == strlen(node) &&
	    !ibt_parse_u32(node, 0, UINT32_MAX, &index))
		err = nla_put_u32(msg, IBTRACE_SIM_A_NODE_INDEX, index);
	else if (!err)
		err = nla_put_string(msg, IBTRACE_SIM_A_NODE_NAME, node);
	if (err < 0) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/*
 * The callback of ibt_nl_run() for a reply that says one u32 (@arg, a
 * struct ibt_reply_u32): the value of its attribute, when it has it.
 */
int ibt_nl_u32_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	const struct ibt_reply_u32 *r = arg;
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	int ret = ibt_nl_parse(ctx, nlh, tb);

	if (!ret && tb[r->attr])
		*r->val = nla_get_u32(tb[r->attr]);
	return ret;
}

/* Exit code for a positive errno the kernel answered. */
static int errno_code(int err)
{
	switch (err) {
	case ENODEV:
	case ESHUTDOWN:		/* a job ended by the module's unload */
		return IBT_EXIT_NODEV;
	case EPERM:
	case EACCES:
		return IBT_EXIT_PERM;
	case EBUSY:
		return IBT_EXIT_BUSY;
	default:
		return IBT_EXIT_ERR;
	}
}

/* Top-level request attribute that contains byte @offs of @req, or -1. */
static int attr_at(const struct nlmsghdr *req, uint32_t offs)
{
	struct nlattr *head = genlmsg_attrdata(nlmsg_data(req), 0);
	int len = genlmsg_attrlen(nlmsg_data(req), 0);
	struct nlattr *nla;
	int rem;

	nla_for_each_attr(nla, head, len, rem) {
		uint32_t start = (const char *)nla - (const char *)req;

		if (offs >= start && offs < start + nla->nla_len)
			return nla_type(nla);
	}
	return -1;
}

/* Decode the extended ACK attributes of an ERROR or DONE message. */
static void parse_extack(struct ibt *ctx, const struct nlmsghdr *req,
			 struct nlattr *head, int len)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct ibt_nlerr *e = &ctx->nlerr;

	if (len <= 0 || nla_parse(tb, NLMSGERR_ATTR_MAX, head, len,
				  ibt_extack_policy) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG]) {
		size_t n;

		nla_strlcpy(e->msg, tb[NLMSGERR_ATTR_MSG], sizeof(e->msg));
		n = strlen(e->msg);
		while (n && (e->msg[n - 1] == '\n' || e->msg[n - 1] == '.'))
			e->msg[--n] = '\0';
	}
	if (tb[NLMSGERR_ATTR_OFFS])
		e->bad_attr = attr_at(req, nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		e->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
}

/*
 * NLMSG_ERROR: 0 for an ACK (printing the kernel's warning, if any), else
 * the negative errno, its details left in ctx->nlerr.
 *
 * Layout: struct nlmsgerr, then the rest of the request unless
 * NLM_F_CAPPED, then (NLM_F_ACK_TLVS) the NLMSGERR_ATTR_* attributes.
 */
static int parse_error(struct ibt *ctx, const struct nlmsghdr *req,
		       struct nlmsghdr *nlh)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	size_t off = sizeof(*e);
	int len = nlmsg_datalen(nlh);
	int err;

	if (len < (int)sizeof(*e))
		return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: short error message");
	err = e->error < 0 ? -e->error : e->error;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	off = NLMSG_ALIGN(off);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && off < (size_t)len)
		parse_extack(ctx, req, (struct nlattr *)((char *)e + off),
			     len - off);
	if (!err) {
		if (ctx->nlerr.msg[0])
			fprintf(stderr, "Warning: %s\n", ctx->nlerr.msg);
		return 0;
	}
	ctx->nlerr.err = err;
	return -err;
}

/* NLMSG_DONE: an int (0 or -errno), then optional extack attributes. */
static int parse_done(struct ibt *ctx, const struct nlmsghdr *req,
		      struct nlmsghdr *nlh)
{
	int len = nlmsg_datalen(nlh);
	size_t off = NLMSG_ALIGN(sizeof(int));
	int err = 0;

	if (len >= (int)sizeof(int))
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && off < (size_t)len)
		parse_extack(ctx, req,
			     (struct nlattr *)((char *)nlmsg_data(nlh) + off),
			     len - off);
	if (err >= 0)
		return 0;
	ctx->nlerr.err = -err;
	return err;
}

/*
 * Wait until the socket is readable, at most @timeout_ms (-1: no bound;
 * *@timed_out says when it ran out): 0, or a printed exit code.
 *
 * Once the socket has overrun, a reply may be lost among a job's messages,
 * and the wait for it (xfer()) lasts while they keep coming: a flood's
 * whole run. A SIGINT or SIGTERM is let in then, so that the job can be
 * cancelled (IBT_EXIT_INTR; the job's waiter sends the cancel).
 */
static int wait_readable(struct ibt *ctx, int timeout_ms, bool *timed_out)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(ctx->sk), .events = POLLIN };

	*timed_out = false;
	for (;;) {
		int n;

		if (ctx->nl_overrun) {
			ibt_signals_let_in();
			if (ibt_interrupted)
				return IBT_EXIT_INTR;
		}
		n = poll(&pfd, 1, timeout_ms);

		if (n < 0 && errno == EINTR) {
			if (ibt_interrupted)
				return IBT_EXIT_INTR;
			continue;
		}
		if (n < 0)
			return ibt_err(IBT_EXIT_ERR, "cannot wait for the kernel: %s",
				       strerror(errno));
		if (pfd.revents)
			return 0;
		if (n == 0 && timeout_ms >= 0) {
			*timed_out = true;
			return 0;
		}
	}
}

/*
 * The kernel dropped messages (ENOBUFS, NLMSG_OVERRUN): count it, and
 * remember for good that replies may now vanish unsaid (see xfer()).
 */
static void note_overrun(struct ibt *ctx)
{
	ctx->nl_lost++;
	ctx->nl_overrun = true;
}

/*
 * Read one datagram from the kernel into a malloc()ed buffer.
 * Returns its length, or -errno (-ENOBUFS: the kernel dropped messages).
 */
static ssize_t recv_datagram(struct ibt *ctx, void **bufp)
{
	int fd = nl_socket_get_fd(ctx->sk);
	struct sockaddr_nl sa;
	struct iovec iov;
	struct msghdr mh = {
		.msg_name = &sa,
		.msg_namelen = sizeof(sa),
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	ssize_t n;
	void *buf;

	n = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
	if (n < 0)
		return errno ? -errno : -EIO;
	/*
	 * The kernel sizes the datagrams of a dump by the largest buffer
	 * the socket has read with (up to 32 KiB): offer that much, or a
	 * job with many RNR timer codes does not fit a dump message.
	 */
	iov.iov_len = n > IBT_NL_MSGBUF ? n : IBT_NL_MSGBUF;
	buf = malloc(iov.iov_len);
	if (!buf)
		return -ENOMEM;
	iov.iov_base = buf;
	n = recvmsg(fd, &mh, MSG_DONTWAIT);
	if (n < 0) {
		n = errno ? -errno : -EIO;
		free(buf);
		return n;
	}
	if (sa.nl_pid != 0 || (mh.msg_flags & MSG_TRUNC)) {
		/* not from the kernel, or changed under us: ignore */
		free(buf);
		return -EAGAIN;
	}
	*bufp = buf;
	return n;
}

/*
 * A message that answers no request: a multicast notification of the
 * family (sequence number 0, from the kernel) goes to ctx->notify, if
 * set; anything else (left over from an earlier request) is dropped.
 */
static int notify(struct ibt *ctx, struct nlmsghdr *nlh)
{
	if (!ctx->notify || nlh->nlmsg_seq || nlh->nlmsg_type != ctx->family)
		return 0;
	return ctx->notify(ctx, nlh, ctx->notify_arg);
}

/*
 * Make room in the send buffer for a request of @len bytes (a large
 * topology text): netlink refuses a message larger than the buffer.
 */
static int fit_sndbuf(struct ibt *ctx, uint32_t len)
{
	int fd = nl_socket_get_fd(ctx->sk);
	int cur = 0, want = len + IBT_NL_SNDSLACK;
	socklen_t sl = sizeof(cur);

	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cur, &sl) == 0 && cur >= want)
		return 0;
	/* past net.core.wmem_max only with CAP_NET_ADMIN: try both */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof(want)) &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want)))
		return ibt_err(IBT_EXIT_ERR, "cannot grow the send buffer: %s",
			       strerror(errno));
	sl = sizeof(cur);
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cur, &sl) == 0 && cur < want)
		return ibt_err(IBT_EXIT_ERR,
			       "netlink request of %u bytes too large for the send buffer (net.core.wmem_max)",
			       len);
	return 0;
}

/*
 * Send @msg and feed each reply with its sequence number to
 * @cb until the ACK or DONE. Returns 0, a positive exit code already
 * printed (local failure, callback result, IBT_EXIT_INTR), or a negative
 * errno from the kernel with its details in ctx->nlerr, not printed;
 * -ENOBUFS when the reply was lost (below).
 *
 * The kernel runs a request inside our sendmsg(): by the time it
 * returns, the reply is queued, or dropped because a job's messages
 * filled the socket. Only the first drop shows, as ENOBUFS on a later
 * read: netlink then keeps the socket marked congested, and drops
 * without a word, until a read finds its queue empty. So once this
 * socket has overrun, a socket that stays empty for IBT_NL_LOST_MS
 * without the reply means the reply was dropped: waiting on would wait
 * forever.
 */
static int xfer(struct ibt *ctx, struct nl_msg *msg, ibt_nl_cb cb, void *arg)
{
	bool timed_out;
	struct nlmsghdr *req;
	int ret;

	memset(&ctx->nlerr, 0, sizeof(ctx->nlerr));
	ctx->nlerr.bad_attr = -1;
	ctx->nlerr.miss_type = -1;

	nl_complete_msg(ctx->sk, msg);	/* sequence number */
	req = nlmsg_hdr(msg);
	ret = fit_sndbuf(ctx, req->nlmsg_len);
	if (ret)
		return ret;
	/*
	 * No request runs long in the kernel (pings, traces and tests are
	 * jobs: their request returns at once), so sendmsg() returns with
	 * the answer queued.
	 */
	ret = nl_send(ctx->sk, msg);
	if (ret < 0)
		return ibt_err(IBT_EXIT_ERR, "cannot send the netlink request: %s",
			       nl_geterror(ret));

	for (;;) {
		struct nlmsghdr *nlh;
		bool final = false;
		void *buf = NULL;
		ssize_t n;
		int len;

		ret = wait_readable(ctx, ctx->nl_overrun ? IBT_NL_LOST_MS : -1,
				    &timed_out);
		if (ret)
			return ret;
		if (timed_out) {
			snprintf(ctx->nlerr.msg, sizeof(ctx->nlerr.msg),
				 "the kernel's reply was lost: its messages overflowed this program's receive buffer");
			return -ENOBUFS;
		}
		n = recv_datagram(ctx, &buf);
		if (n == -EAGAIN || n == -EINTR)
			continue;
		if (n == -ENOBUFS) {
			note_overrun(ctx);
			continue;
		}
		if (n < 0)
			return ibt_err(IBT_EXIT_ERR,
				       "cannot receive from the kernel: %s",
				       strerror(-n));
		if (!buf)
			continue;

		len = n;
		for (nlh = buf; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_seq != req->nlmsg_seq) {
				/* a notification, or left over from an earlier request */
				ret = notify(ctx, nlh);
				if (ret)
					break;
				continue;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				ret = parse_error(ctx, req, nlh);
				final = true;
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				ret = parse_done(ctx, req, nlh);
				final = true;
			} else if (nlh->nlmsg_type == req->nlmsg_type && cb) {
				ret = cb(ctx, nlh, arg);
			} else if (nlh->nlmsg_type == NLMSG_OVERRUN) {
				note_overrun(ctx);
			}
			if (ret || final)
				break;
		}
		free(buf);
		if (final || ret)
			return ret;
	}
}

/* Print the kernel's error as one line and return its exit code. */
static int report(struct ibt *ctx, int err)
{
	const struct ibt_nlerr *e = &ctx->nlerr;
	int code = errno_code(err);
	char b[16];

	if (e->msg[0] && e->bad_attr >= 0)
		return ibt_err(code, "%s (attribute %s)", e->msg,
			       attr_name(ctx, e->bad_attr, b, sizeof(b)));
	if (e->msg[0])
		return ibt_err(code, "%s", e->msg);
	if (code == IBT_EXIT_PERM)	/* genetlink's GENL_ADMIN_PERM: no text */
		return ibt_err(code, "this needs CAP_NET_ADMIN (run as root)");
	if (e->miss_type >= 0)
		return ibt_err(code, "%s: missing attribute %s", strerror(err),
			       attr_name(ctx, e->miss_type, b, sizeof(b)));
	if (e->bad_attr >= 0)
		return ibt_err(code, "%s (attribute %s)", strerror(err),
			       attr_name(ctx, e->bad_attr, b, sizeof(b)));
	return ibt_err(code, "%s", strerror(err));
}

/*
 * Send one request (consumed) and run its replies through @cb, which
 * returns 0 to go on or an exit code to stop. Returns an exit code;
 * errors are printed.
 */
int ibt_nl_run(struct ibt *ctx, struct nl_msg *msg, ibt_nl_cb cb, void *arg)
{
	int ret = ibt_nl_exchange(ctx, msg, cb, arg);

	if (ret < 0)
		return ibt_nl_report(ctx, -ret);
	return ret;
}

/* What ibt_nl_run_parsed() hands to parsed_cb(). */
struct parsed_call {
	ibt_nl_tb_cb cb;
	void *arg;
};

static int parsed_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	const struct parsed_call *c = arg;
	struct nlattr *tb[IBT_TB_MAX];
	int ret = ibt_nl_parse(ctx, nlh, tb);

	return ret ? ret : c->cb(ctx, nlh, tb, c->arg);
}

/*
 * ibt_nl_run() for a callback that wants every reply's top level parsed
 * (ibt_nl_parse()); @cb NULL: none.
 */
int ibt_nl_run_parsed(struct ibt *ctx, struct nl_msg *msg, ibt_nl_tb_cb cb,
		      void *arg)
{
	struct parsed_call c = { cb, arg };

	return ibt_nl_run(ctx, msg, cb ? parsed_cb : NULL, cb ? &c : NULL);
}

/*
 * ibt_nl_run() without the report: a kernel error is returned as a
 * negative errno, not printed, its details in ctx->nlerr, for a caller
 * that says more (with ibt_nl_report() or its own line).
 */
int ibt_nl_exchange(struct ibt *ctx, struct nl_msg *msg, ibt_nl_cb cb,
		    void *arg)
{
	int ret = xfer(ctx, msg, cb, arg);

	nlmsg_free(msg);
	return ret;
}

/* Print kernel error @err (positive) as one line; its exit code. */
int ibt_nl_report(struct ibt *ctx, int err)
{
	return report(ctx, err);
}

/*
 * The exit code of a failed ibt_nl_exchange() (@ret not 0), printed: the
 * sentence @fmt says when @gone (the kernel's error means that what was
 * asked about went away), else the kernel's error (@ret is -errno), else
 * @ret (an exit code already printed).
 */
int ibt_nl_fail(struct ibt *ctx, int ret, bool gone, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (gone) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		return ibt_err(IBT_EXIT_ERR, "%s", msg);
	}
	return ret < 0 ? ibt_nl_report(ctx, -ret) : ret;
}

/*
 * Print how a job ended early, @err (positive) with the kernel's sentence
 * @msg (or NULL), as one line; its exit code, as for a refused request.
 */
int ibt_nl_report_msg(struct ibt *ctx, int err, const char *msg)
{
	memset(&ctx->nlerr, 0, sizeof(ctx->nlerr));
	ctx->nlerr.bad_attr = -1;
	ctx->nlerr.miss_type = -1;
	ctx->nlerr.err = err;
	if (msg)
		snprintf(ctx->nlerr.msg, sizeof(ctx->nlerr.msg), "%s", msg);
	return report(ctx, err);
}

/*
 * The header of a request of @cmd for the opened family into @msg (NULL:
 * its allocation failed); NULL (and printed) on failure.
 */
static struct nl_msg *req_head(struct ibt *ctx, struct nl_msg *msg,
			       uint8_t cmd, bool dump)
{
	int flags = NLM_F_ACK | (dump ? NLM_F_DUMP : 0);

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, ctx->family, 0,
				 flags, cmd, ctx->fam->version)) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "out of memory");
		return NULL;
	}
	return msg;
}

/* A request for the opened family; NULL (and printed) on failure. */
struct nl_msg *ibt_nl_req(struct ibt *ctx, uint8_t cmd, bool dump)
{
	return req_head(ctx, nlmsg_alloc(), cmd, dump);
}

/*
 * ibt_nl_req() for a request whose attributes take up to @size bytes:
 * nlmsg_alloc() has room for a page only, and a request with a thousand
 * nested attributes (a proof's destinations) takes some 80 KiB.
 */
struct nl_msg *ibt_nl_req_size(struct ibt *ctx, uint8_t cmd, bool dump,
			       size_t size)
{
	return req_head(ctx, nlmsg_alloc_size(NLMSG_HDRLEN + GENL_HDRLEN + size),
			cmd, dump);
}

/*
 * A request for the opened family that carries @val as u32 attribute
 * @attr (nothing if @attr is 0); NULL (and printed) on failure.
 */
struct nl_msg *ibt_nl_req_u32(struct ibt *ctx, uint8_t cmd, bool dump, int attr,
			      uint32_t val)
{
	struct nl_msg *msg = ibt_nl_req(ctx, cmd, dump);

	if (msg && attr && nla_put_u32(msg, attr, val) < 0) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* Add the -d device (if any) and @port (if not 0) to a request. */
int ibt_nl_put_dev(struct ibt *ctx, struct nl_msg *msg, uint32_t port)
{
	if ((ctx->dev && nla_put_string(msg, IBTRACE_A_DEV_NAME, ctx->dev) < 0) ||
	    (port && nla_put_u32(msg, IBTRACE_A_PORT, port) < 0))
		return ibt_err(IBT_EXIT_ERR, "netlink request too large");
	return 0;
}

/*
 * The destination @d of a ping or trace, as attributes @dgid and @dlid
 * (those given); negative when @msg is full.
 */
int ibt_nl_put_dest(struct nl_msg *msg, const struct ibt_dest *d, int dgid,
		    int dlid)
{
	if ((d->has_dgid && nla_put(msg, dgid, 16, d->dgid) < 0) ||
	    (d->has_dlid && nla_put_u32(msg, dlid, d->dlid) < 0))
		return -1;
	return 0;
}

/* The same for its wait @w, as attributes @timeout and @retries. */
int ibt_nl_put_wait(struct nl_msg *msg, const struct ibt_wait *w, int timeout,
		    int retries)
{
	if ((w->has_timeout && nla_put_u32(msg, timeout, w->timeout_ms) < 0) ||
	    (w->has_retries && nla_put_u32(msg, retries, w->retries) < 0))
		return -1;
	return 0;
}

/*
 * The attributes @attrs (@n of them) of the options given in @opts, the
 * options of a command; negative when @msg is full.
 */
int ibt_nl_put_opts(struct nl_msg *msg, const struct ibt_req_opt *attrs,
		    size_t n, const void *opts)
{
	const char *base = opts;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ibt_req_opt *a = &attrs[i];
		uint32_t v;
		int ret;

		if (a->has != IBT_NUM_NO_FLAG && !*(const bool *)(base + a->has))
			continue;
		v = a->type == IBT_REQ_FLAG ? 0 : *(const uint32_t *)(base + a->val);
		switch (a->type) {
		case IBT_REQ_U8:
			ret = nla_put_u8(msg, a->attr, v);
			break;
		case IBT_REQ_U16:
			ret = nla_put_u16(msg, a->attr, v);
			break;
		case IBT_REQ_U32:
			ret = nla_put_u32(msg, a->attr, v);
			break;
		default: /* IBT_REQ_FLAG */
			ret = nla_put_flag(msg, a->attr);
			break;
		}
		if (ret < 0)
			return -1;
	}
	return 0;
}

/* The multicast groups of the family: name and id of each, kept in ctx. */
static int family_groups(struct ibt *ctx, struct nlattr *groups)
{
	struct nlattr *grp;
	int rem, ret;

	ctx->nmcgrp = 0;
	nla_for_each_nested(grp, groups, rem) {
		struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1];

		ret = parse_attrs(tb, CTRL_ATTR_MCAST_GRP_MAX, nla_data(grp),
				  nla_len(grp), ibt_grp_policy, "nlctrl group");
		if (ret)
			return ret;
		if (!tb[CTRL_ATTR_MCAST_GRP_NAME] || !tb[CTRL_ATTR_MCAST_GRP_ID] ||
		    ctx->nmcgrp >= IBT_MCGRP_MAX)
			continue;
		nla_strlcpy(ctx->mcgrp[ctx->nmcgrp].name,
			    tb[CTRL_ATTR_MCAST_GRP_NAME],
			    sizeof(ctx->mcgrp[0].name));
		ctx->mcgrp[ctx->nmcgrp].id = nla_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
		ctx->nmcgrp++;
	}
	return 0;
}

static int family_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	int ret;

	(void)arg;
	ret = parse_msg(nlh, tb, CTRL_ATTR_MAX, ibt_ctrl_policy, "nlctrl");
	if (ret)
		return ret;
	if (!tb[CTRL_ATTR_FAMILY_ID])
		return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: no family id");
	ctx->family = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		ctx->family_version = nla_get_u32(tb[CTRL_ATTR_VERSION]);
	if (tb[CTRL_ATTR_MCAST_GROUPS])
		return family_groups(ctx, tb[CTRL_ATTR_MCAST_GROUPS]);
	return 0;
}

/* Ask nlctrl for the id of family ctx->fam. */
static int resolve_family(struct ibt *ctx)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0,
				 NLM_F_ACK, CTRL_CMD_GETFAMILY, 1) ||
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, ctx->fam->name) < 0) {
		nlmsg_free(msg);
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	}
	ret = xfer(ctx, msg, family_cb, NULL);
	nlmsg_free(msg);
	if (ret == -ENOENT)
		return ibt_err(IBT_EXIT_NOMOD,
			       "%s kernel module is not loaded (modprobe %s)",
			       ctx->fam->name, ctx->fam->name);
	if (ret < 0)
		return report(ctx, -ret);
	if (!ret && !ctx->family)
		return ibt_err(IBT_EXIT_NOMOD,
			       "%s kernel module is not loaded (modprobe %s)",
			       ctx->fam->name, ctx->fam->name);
	return ret;
}

/*
 * Join multicast group @name of the opened family, so that its messages
 * reach ctx->notify (during requests and in ibt_nl_wait_notify()).
 * Returns an exit code; a group the family does not have is an error.
 */
int ibt_nl_join(struct ibt *ctx, const char *name)
{
	int i, ret;

	for (i = 0; i < ctx->nmcgrp; i++) {
		if (strcmp(ctx->mcgrp[i].name, name))
			continue;
		ret = nl_socket_add_membership(ctx->sk, ctx->mcgrp[i].id);
		if (ret == -NLE_PERM)
			return ibt_err(IBT_EXIT_PERM,
				       "joining the \"%s\" multicast group needs CAP_NET_ADMIN",
				       name);
		if (ret < 0)
			return ibt_err(IBT_EXIT_ERR,
				       "cannot join the \"%s\" multicast group: %s",
				       name, nl_geterror(ret));
		return IBT_EXIT_OK;
	}
	return ibt_err(IBT_EXIT_ERR,
		       "the %s module has no \"%s\" multicast group (too old?)",
		       ctx->fam->name, name);
}

/*
 * Wait up to @timeout_ms for notifications and hand those of one
 * datagram to ctx->notify. Signals are let in while waiting only (the
 * caller keeps SIGINT and SIGTERM blocked, so none is lost between its
 * check of ibt_interrupted and the wait). Returns 0 (also on a timeout),
 * the callback's non-zero result, IBT_EXIT_INTR when a signal handler
 * set ibt_interrupted, or a printed error.
 */
int ibt_nl_wait_notify(struct ibt *ctx, int timeout_ms)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(ctx->sk), .events = POLLIN };
	struct timespec ts = {
		.tv_sec = timeout_ms / 1000,
		.tv_nsec = (long)(timeout_ms % 1000) * 1000000,
	};
	struct nlmsghdr *nlh;
	void *buf = NULL;
	sigset_t none;
	ssize_t n;
	int len, ret = 0;

	ibt_signals_let_in();
	if (ibt_interrupted)
		return IBT_EXIT_INTR;
	sigemptyset(&none);
	n = ppoll(&pfd, 1, timeout_ms < 0 ? NULL : &ts, &none);
	if (n < 0 && errno == EINTR)
		return ibt_interrupted ? IBT_EXIT_INTR : 0;
	if (n < 0)
		return ibt_err(IBT_EXIT_ERR, "cannot wait for the kernel: %s",
			       strerror(errno));
	if (n == 0)
		return 0;
	n = recv_datagram(ctx, &buf);
	if (n == -EAGAIN || n == -EINTR)
		return 0;
	if (n == -ENOBUFS) {
		note_overrun(ctx);
		return 0;
	}
	if (n < 0)
		return ibt_err(IBT_EXIT_ERR, "cannot receive from the kernel: %s",
			       strerror(-n));
	len = n;
	for (nlh = buf; nlmsg_ok(nlh, len) && !ret; nlh = nlmsg_next(nlh, &len))
		ret = notify(ctx, nlh);
	free(buf);
	return ret;
}

/* Open the run's socket for the "ibtrace" family. Returns an exit code. */
int ibt_nl_open(struct ibt *ctx)
{
	return ibt_nl_open_family(ctx, &ibt_family);
}

/*
 * Open the run's socket and resolve family @fam (whose kernel module has
 * the family's name). Returns an exit code.
 */
int ibt_nl_open_family(struct ibt *ctx, const struct ibt_family *fam)
{
	int one = 1, rcvbuf;
	int fd, ret;

	ctx->fam = fam;
	ctx->sk = nl_socket_alloc();
	if (!ctx->sk)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	ret = nl_connect(ctx->sk, NETLINK_GENERIC);
	if (ret < 0)
		return ibt_err(IBT_EXIT_ERR, "cannot open a generic netlink socket: %s",
			       nl_geterror(ret));
	fd = nl_socket_get_fd(ctx->sk);
	/* extack needs Linux 4.12, strict checks 4.20: best effort */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK, &one, sizeof(one));
	nl_socket_set_buffer_size(ctx->sk, IBT_NL_RCVBUF, 0);
	/* past net.core.rmem_max only with CAP_NET_ADMIN: best effort */
	rcvbuf = IBT_NL_RCVBUF;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	return resolve_family(ctx);
}

/* Close the socket (which cancels the jobs it started, unless detached). */
void ibt_nl_close(struct ibt *ctx)
{
	nl_socket_free(ctx->sk);	/* closes the socket, NULL is fine */
	ctx->sk = NULL;
}
