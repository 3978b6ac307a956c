// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden cases of the test object: replies decoded by test_result.c
 * (test_result_absorb()) and printed by test_out.c and the tests' own
 * printers: a result (test run, test show JOB), its line (test show)
 * and a test of test list.
 */
#include <stdio.h>
#include <string.h>

#include "golden.h"
#include "../test.h"

#define NUM(a, size, v)	{ a, size, v, NULL }
#define STR(a, s)	{ a, GOLDEN_STR, 0, s }
#define FLAG(a)		{ a, GOLDEN_FLAG, 0, NULL }
#define NEST(a)		{ a, GOLDEN_NEST, 0, NULL }
#define END		{ 0, GOLDEN_END, 0, NULL }

static const uint8_t dr[] = { 1, 2 };
static const uint8_t peer[16] = { 0xfe, 0x80, [8] = 0x50, [15] = 2 };

/* guidinfo over a DR path, failed; an assertion updated by a later nest */
static const struct golden_attr guid_fail[] = {
	STR(IBTRACE_A_TEST_SEED, "s1"),
	{ IBTRACE_A_TEST_DR_PATH, GOLDEN_BYTES, sizeof(dr), (const char *)dr },
	NUM(IBTRACE_A_TEST_DUT_PORT, 1, 3),
	STR(IBTRACE_A_TEST_REASON, "entry 0 took a write"),
	NUM(IBTRACE_A_TEST_RESTORE, 1, IBTRACE_TEST_RESTORE_VERIFIED),
	NUM(IBTRACE_A_TEST_ELAPSED_NS, 8, 123456789),
	NUM(IBTRACE_A_TEST_PROGRESS, 4, 5),
	NUM(IBTRACE_A_TEST_DUT_NODE_TYPE, 1, 2),
	NUM(IBTRACE_A_TEST_DUT_NODE_GUID, 8, 0x0014050000000300ull),
	NUM(IBTRACE_A_TEST_DUT_PORT_GUID, 8, 0x0014050000000303ull),
	NUM(IBTRACE_A_TEST_DUT_LID, 4, 3), NUM(IBTRACE_A_TEST_GUID_CAP, 1, 8),
	NUM(IBTRACE_A_TEST_EXCHANGES, 4, 5),
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "G1"),
	STR(IBTRACE_ASSERT_A_DESC, "a set of entry 0 is refused"),
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_PASS),
	NUM(IBTRACE_ASSERT_A_CHECKS, 4, 1), END,
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "G2"),
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_NOT_RUN), END,
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "G2"),
	STR(IBTRACE_ASSERT_A_DESC, "entries past the cap read 0"),
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_FAIL),
	STR(IBTRACE_ASSERT_A_EXPECTED, "0x0"), STR(IBTRACE_ASSERT_A_OBSERVED, "0x5"),
	STR(IBTRACE_ASSERT_A_WHERE, "block 1 entry 0"), END,
	NEST(IBTRACE_A_TEST_EXCHANGE), NUM(IBTRACE_XCHG_A_SEQ, 4, 1),
	NUM(IBTRACE_XCHG_A_METHOD, 1, 1), NUM(IBTRACE_XCHG_A_ATTR_ID, 2, 0x14),
	NUM(IBTRACE_XCHG_A_ATTR_MOD, 4, 0), NUM(IBTRACE_XCHG_A_OUTCOME, 1, 0),
	NUM(IBTRACE_XCHG_A_STATUS, 2, 0), NUM(IBTRACE_XCHG_A_RTT_NS, 8, 23456),
	NUM(IBTRACE_XCHG_A_ATTEMPTS, 4, 1),
	NUM(IBTRACE_XCHG_A_PHASE, 1, IBTRACE_XCHG_PHASE_SAVE), END,
	NEST(IBTRACE_A_TEST_EXCHANGE), NUM(IBTRACE_XCHG_A_SEQ, 4, 2),
	NUM(IBTRACE_XCHG_A_METHOD, 1, 2), NUM(IBTRACE_XCHG_A_ATTR_ID, 2, 0x14),
	NUM(IBTRACE_XCHG_A_ATTR_MOD, 4, 1),
	NUM(IBTRACE_XCHG_A_OUTCOME, 1, IBTRACE_XCHG_TIMEOUT),
	NUM(IBTRACE_XCHG_A_ATTEMPTS, 4, 4),
	NUM(IBTRACE_XCHG_A_PHASE, 1, IBTRACE_XCHG_PHASE_TEST), END,
};

/* guidinfo by LID, restore failed */
static const struct golden_attr guid_lid[] = {
	NUM(IBTRACE_A_TEST_LID, 4, 9),
	NUM(IBTRACE_A_TEST_RESTORE, 1, IBTRACE_TEST_RESTORE_FAILED),
};

/* guidinfo on the local port, still running */
static const struct golden_attr guid_running[] = {
	NUM(IBTRACE_A_TEST_PROGRESS, 4, 3),
};

/* rnr in loopback, two codes, the wire tapped */
static const struct golden_attr rnr_loop[] = {
	NUM(IBTRACE_A_TEST_DUT_PORT, 1, 1), STR(IBTRACE_A_TEST_REASON, "no RC"),
	FLAG(IBTRACE_A_TEST_RNR_ALL), NUM(IBTRACE_A_TEST_RNR_RETRY, 1, 1),
	NUM(IBTRACE_A_TEST_SIZE, 4, 64), NUM(IBTRACE_A_TEST_ITERATIONS, 4, 3),
	NUM(IBTRACE_A_TEST_POLL, 1, IBTRACE_TEST_POLL_EVENT),
	NUM(IBTRACE_A_TEST_DEADLINE_MS, 4, 5000),
	NUM(IBTRACE_A_TEST_RNR_WIRE, 1, IBTRACE_RNR_WIRE_TAPPED),
	NEST(IBTRACE_A_TEST_RNR_CODE), NUM(IBTRACE_RNR_A_CODE, 1, 12),
	NUM(IBTRACE_RNR_A_TABLE_NS, 8, 640000), NUM(IBTRACE_RNR_A_ITERATIONS, 4, 3),
	NUM(IBTRACE_RNR_A_WAIT_MIN_NS, 8, 3900000),
	NUM(IBTRACE_RNR_A_WAIT_MEDIAN_NS, 8, 4000000),
	NUM(IBTRACE_RNR_A_WAIT_MAX_NS, 8, 4100000),
	NUM(IBTRACE_RNR_A_WAIT_P99_NS, 8, 4090000),
	NUM(IBTRACE_RNR_A_OVERSHOOT_NS, 8, 3360000),
	NUM(IBTRACE_RNR_A_GRANULARITY_NS, 8, 4000000),
	NUM(IBTRACE_RNR_A_CALIBRATION_NS, 8, 12000),
	NUM(IBTRACE_RNR_A_WIRE_SAMPLES, 4, 3),
	NUM(IBTRACE_RNR_A_WIRE_MIN_NS, 8, 3800000),
	NUM(IBTRACE_RNR_A_WIRE_MEDIAN_NS, 8, 3950000),
	NUM(IBTRACE_RNR_A_WIRE_MAX_NS, 8, 4050000),
	NUM(IBTRACE_RNR_A_NAKS, 4, 3), END,
	NEST(IBTRACE_A_TEST_RNR_CODE), NUM(IBTRACE_RNR_A_CODE, 1, 1),
	NUM(IBTRACE_RNR_A_ITERATIONS, 4, 1),
	NUM(IBTRACE_RNR_A_OVERSHOOT_NS, 8, (uint64_t)-5000), END,
};

/* rnr with a peer, the wire not visible, running */
static const struct golden_attr rnr_peer[] = {
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
	NUM(IBTRACE_A_TEST_RNR_TIMER, 1, 12), FLAG(IBTRACE_A_TEST_RNR_RECV_POSTED),
	NUM(IBTRACE_A_TEST_RNR_WIRE, 1, IBTRACE_RNR_WIRE_NOT_VISIBLE),
	STR(IBTRACE_A_TEST_RNR_WIRE_WHY, "no tap on rxe"),
};

/* perf, RDMA WRITE measured without error */
static const struct golden_attr perf_ok[] = {
	NUM(IBTRACE_A_TEST_PERF_OP, 1, IBTRACE_PERF_OP_RDMA_WRITE),
	NUM(IBTRACE_A_TEST_PERF_SEG_SIZE, 4, 4096), NUM(IBTRACE_A_TEST_PERF_SEGS, 4, 1),
	NUM(IBTRACE_A_TEST_PERF_PIPELINE, 4, 16), NUM(IBTRACE_A_TEST_ITERATIONS, 4, 1000),
	NUM(IBTRACE_A_TEST_POLL, 1, IBTRACE_TEST_POLL_BUSY),
	NUM(IBTRACE_A_TEST_ACK_TIMEOUT, 1, 14),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
	NEST(IBTRACE_A_TEST_PERF), NUM(IBTRACE_PERF_A_OPS, 8, 1000),
	NUM(IBTRACE_PERF_A_ERRORS, 8, 0), NUM(IBTRACE_PERF_A_BYTES, 8, 4096000),
	NUM(IBTRACE_PERF_A_ELAPSED_NS, 8, 12300000),
	NUM(IBTRACE_PERF_A_LAT_MIN_NS, 8, 9012),
	NUM(IBTRACE_PERF_A_LAT_MEDIAN_NS, 8, 12004),
	NUM(IBTRACE_PERF_A_LAT_P99_NS, 8, 30120),
	NUM(IBTRACE_PERF_A_LAT_MAX_NS, 8, 45002),
	NUM(IBTRACE_PERF_A_SERVER_VERSION, 4, 1), NUM(IBTRACE_PERF_A_SEGS, 4, 1), END,
};

/* perf, RDMA READ of 4 segments with errors, some figures missing */
static const struct golden_attr perf_err[] = {
	STR(IBTRACE_A_TEST_REASON, "3 operations completed in error"),
	NUM(IBTRACE_A_TEST_PERF_OP, 1, IBTRACE_PERF_OP_RDMA_READ),
	NUM(IBTRACE_A_TEST_PERF_SEG_SIZE, 4, 65536), NUM(IBTRACE_A_TEST_PERF_SEGS, 4, 4),
	NUM(IBTRACE_A_TEST_PERF_PIPELINE, 4, 2), NUM(IBTRACE_A_TEST_ITERATIONS, 4, 10),
	NUM(IBTRACE_A_TEST_POLL, 1, IBTRACE_TEST_POLL_EVENT),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NEST(IBTRACE_A_TEST_PERF), NUM(IBTRACE_PERF_A_OPS, 8, 7),
	NUM(IBTRACE_PERF_A_ERRORS, 8, 3),
	STR(IBTRACE_PERF_A_WC_STATUS, "remote access error"),
	NUM(IBTRACE_PERF_A_BYTES, 8, 1835008),
	NUM(IBTRACE_PERF_A_ELAPSED_NS, 8, 2500000000ull),
	NUM(IBTRACE_PERF_A_LAT_MIN_NS, 8, 20000),
	NUM(IBTRACE_PERF_A_LAT_MAX_NS, 8, 900000), END,
};

/* perf, running, nothing measured yet */
static const struct golden_attr perf_run[] = {
	NUM(IBTRACE_A_TEST_PERF_OP, 1, IBTRACE_PERF_OP_RDMA_READ),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
};

/* quit: the server accepted, then stopped within its bound */
static const struct golden_attr quit_ok[] = {
	STR(IBTRACE_A_TEST_SEED, "dapltest -T Q"),
	NUM(IBTRACE_A_TEST_ELAPSED_NS, 8, 1240000000),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
	NEST(IBTRACE_A_TEST_QUIT), NUM(IBTRACE_QUIT_A_SERVER_VERSION, 4, 1),
	NUM(IBTRACE_QUIT_A_RUNNING, 4, 2), NUM(IBTRACE_QUIT_A_BOUND_MS, 4, 70000), END,
	NEST(IBTRACE_A_TEST_QUIT), NUM(IBTRACE_QUIT_A_STOPPED_NS, 8, 1234500000), END,
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "dapltest-Q#01"),
	STR(IBTRACE_ASSERT_A_DESC, "the server accepts the quit request"),
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_PASS), END,
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "dapltest-Q#02"),
	STR(IBTRACE_ASSERT_A_DESC, "the server stops within the bound it announced"),
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_PASS), END,
};

/* quit: accepted with one connection running, not stopped (cancelled) */
static const struct golden_attr quit_cut[] = {
	STR(IBTRACE_A_TEST_REASON, "cancelled"),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NEST(IBTRACE_A_TEST_QUIT), NUM(IBTRACE_QUIT_A_SERVER_VERSION, 4, 1),
	NUM(IBTRACE_QUIT_A_RUNNING, 4, 1), NUM(IBTRACE_QUIT_A_BOUND_MS, 4, 15000), END,
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "dapltest-Q#01"),
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_PASS), END,
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "dapltest-Q#02"),
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_NOT_RUN), END,
};

/* quit: the server stopped, but after its bound; the version not sent */
static const struct golden_attr quit_late[] = {
	STR(IBTRACE_A_TEST_REASON, "dapltest-Q#02"),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7000),
	NEST(IBTRACE_A_TEST_QUIT), NUM(IBTRACE_QUIT_A_RUNNING, 4, 0),
	NUM(IBTRACE_QUIT_A_BOUND_MS, 4, 10000),
	NUM(IBTRACE_QUIT_A_STOPPED_NS, 8, 10000050000ull), END,
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "dapltest-Q#02"),
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_FAIL),
	STR(IBTRACE_ASSERT_A_EXPECTED, "<= 10000 ms"),
	STR(IBTRACE_ASSERT_A_OBSERVED, "10000.1 ms"),
	STR(IBTRACE_ASSERT_A_WHERE, "the end of the quit's connection"), END,
};

/* quit: no server at the peer */
static const struct golden_attr quit_none[] = {
	STR(IBTRACE_A_TEST_REASON,
	    "no ibtrace server at fe80::1 port 7471: connection refused (is its server started? ibtracectl server start)"),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
};

/* quit: running, the server accepted */
static const struct golden_attr quit_run[] = {
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NEST(IBTRACE_A_TEST_QUIT), NUM(IBTRACE_QUIT_A_SERVER_VERSION, 4, 1),
	NUM(IBTRACE_QUIT_A_RUNNING, 4, 3), NUM(IBTRACE_QUIT_A_BOUND_MS, 4, 70000), END,
};

/* quit: running, not yet accepted */
static const struct golden_attr quit_ask[] = {
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
};

/* an operation of the transaction test: who, type, segment size, segments */
#define TXN_OP(w, t, sz, n) \
	NEST(IBTRACE_A_TEST_TXN_OP), NUM(IBTRACE_TXN_OP_A_WHO, 1, IBTRACE_TXN_##w), \
	NUM(IBTRACE_TXN_OP_A_TYPE, 1, IBTRACE_TXN_##t), \
	NUM(IBTRACE_TXN_OP_A_SEG_SIZE, 4, sz), NUM(IBTRACE_TXN_OP_A_SEGS, 4, n)
/* the three validation appends */
#define TXN_APPENDS \
	TXN_OP(CLIENT, SR, 64, 1), FLAG(IBTRACE_TXN_OP_A_APPENDED), END, \
	TXN_OP(SERVER, SR, 64, 1), FLAG(IBTRACE_TXN_OP_A_APPENDED), END, \
	TXN_OP(CLIENT, SR, 64, 1), FLAG(IBTRACE_TXN_OP_A_APPENDED), END
/*
 * an endpoint's figures: thread, endpoint, iterations, operations (the
 * server's: @sops), bytes, time
 */
#define TXN_EP(th, ep, it, ops, sops, by, ns) \
	NEST(IBTRACE_A_TEST_TXN_EP), NUM(IBTRACE_TXN_EP_A_THREAD, 4, th), \
	NUM(IBTRACE_TXN_EP_A_EP, 4, ep), NUM(IBTRACE_TXN_EP_A_ITERATIONS, 4, it), \
	NUM(IBTRACE_TXN_EP_A_OPS, 8, ops), NUM(IBTRACE_TXN_EP_A_SERVER_OPS, 8, sops), \
	NUM(IBTRACE_TXN_EP_A_BYTES, 8, by), NUM(IBTRACE_TXN_EP_A_ELAPSED_NS, 8, ns)
#define TXN_T01(res) \
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "dapltest-T#01"), \
	STR(IBTRACE_ASSERT_A_DESC, \
	    "every operation of every iteration completes successfully on every endpoint, on both sides"), \
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_##res)
#define TXN_T02(res) \
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "dapltest-T#02"), \
	STR(IBTRACE_ASSERT_A_DESC, \
	    "with validation, every byte each side received is the byte the other side sent"), \
	NUM(IBTRACE_ASSERT_A_RESULT, 1, IBTRACE_ASSERT_##res)

/* txn: validated, 1 thread x 2 endpoints, both sides' operations, passed */
static const struct golden_attr txn_ok[] = {
	STR(IBTRACE_A_TEST_SEED, "dapltest -T T"),
	NUM(IBTRACE_A_TEST_ELAPSED_NS, 8, 250000000),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
	NUM(IBTRACE_A_TEST_TXN_THREADS, 4, 1), NUM(IBTRACE_A_TEST_TXN_ENDPOINTS, 4, 2),
	FLAG(IBTRACE_A_TEST_TXN_VALIDATE), NUM(IBTRACE_A_TEST_ITERATIONS, 4, 1000),
	NUM(IBTRACE_A_TEST_ACK_TIMEOUT, 1, 19),
	TXN_OP(CLIENT, SR, 256, 1), FLAG(IBTRACE_TXN_OP_A_REAP), END,
	TXN_OP(SERVER, RW, 4096, 2), END,
	TXN_OP(CLIENT, RR, 1024, 4), END,
	TXN_APPENDS,
	TXN_EP(0, 1, 1000, 3000, 1000, 12544000, 121000000),
	NUM(IBTRACE_TXN_EP_A_SERVER_VERSION, 4, 1), NUM(IBTRACE_TXN_EP_A_ERRORS, 8, 0),
	NUM(IBTRACE_TXN_EP_A_MISMATCHES, 8, 0), END,
	TXN_EP(0, 0, 1000, 3000, 1000, 12544000, 120000000),
	NUM(IBTRACE_TXN_EP_A_SERVER_VERSION, 4, 1), NUM(IBTRACE_TXN_EP_A_ERRORS, 8, 0),
	NUM(IBTRACE_TXN_EP_A_MISMATCHES, 8, 0), END,
	TXN_T01(PASS), NUM(IBTRACE_ASSERT_A_CHECKS, 4, 2), END,
	TXN_T02(PASS), NUM(IBTRACE_ASSERT_A_CHECKS, 4, 2), END,
};

/* txn: the negative control, the server's RW corrupted at offset 17 */
static const struct golden_attr txn_mismatch[] = {
	STR(IBTRACE_A_TEST_SEED, "dapltest -T T"),
	STR(IBTRACE_A_TEST_REASON, "dapltest-T#02"),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
	NUM(IBTRACE_A_TEST_TXN_THREADS, 4, 1), NUM(IBTRACE_A_TEST_TXN_ENDPOINTS, 4, 2),
	FLAG(IBTRACE_A_TEST_TXN_VALIDATE), NUM(IBTRACE_A_TEST_ITERATIONS, 4, 1000),
	NUM(IBTRACE_A_TEST_TXN_CORRUPT, 4, 17),
	TXN_OP(CLIENT, SR, 256, 1), END,
	TXN_OP(SERVER, RW, 4096, 2), END,
	TXN_APPENDS,
	TXN_EP(0, 0, 1000, 2000, 1000, 8448000, 120000000),
	NUM(IBTRACE_TXN_EP_A_SERVER_VERSION, 4, 1), NUM(IBTRACE_TXN_EP_A_ERRORS, 8, 0),
	NUM(IBTRACE_TXN_EP_A_MISMATCH_ITERATION, 4, 0),
	NUM(IBTRACE_TXN_EP_A_MISMATCH_OP, 4, 1),
	NUM(IBTRACE_TXN_EP_A_MISMATCH_OFFSET, 4, 17),
	NUM(IBTRACE_TXN_EP_A_MISMATCH_EXPECTED, 1, 0x3a),
	NUM(IBTRACE_TXN_EP_A_MISMATCH_OBSERVED, 1, 0xc5),
	NUM(IBTRACE_TXN_EP_A_MISMATCHES, 8, 1), END,
	TXN_EP(0, 1, 1000, 2000, 1000, 8448000, 121000000),
	NUM(IBTRACE_TXN_EP_A_SERVER_VERSION, 4, 1), NUM(IBTRACE_TXN_EP_A_ERRORS, 8, 0),
	NUM(IBTRACE_TXN_EP_A_MISMATCHES, 8, 0), END,
	TXN_T01(PASS), END,
	TXN_T02(FAIL), STR(IBTRACE_ASSERT_A_EXPECTED, "0x3a"),
	STR(IBTRACE_ASSERT_A_OBSERVED, "0xc5"),
	STR(IBTRACE_ASSERT_A_WHERE, "thread 0 endpoint 0 iteration 0 op 1 (server RW) offset 17"),
	END,
};

/* txn: errors on one endpoint, the servers' versions differ, no validation */
static const struct golden_attr txn_err[] = {
	STR(IBTRACE_A_TEST_REASON, "dapltest-T#01"),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_TXN_THREADS, 4, 2), NUM(IBTRACE_A_TEST_ITERATIONS, 4, 10),
	TXN_OP(SERVER, SR, 65536, 1), END,
	TXN_OP(CLIENT, RW, 4096, 16), END,
	TXN_EP(1, 0, 3, 6, 3, 393216, 2500000000ull),
	NUM(IBTRACE_TXN_EP_A_SERVER_VERSION, 4, 2), NUM(IBTRACE_TXN_EP_A_ERRORS, 8, 2),
	STR(IBTRACE_TXN_EP_A_WC_STATUS, "remote access error"), END,
	NEST(IBTRACE_A_TEST_TXN_EP), NUM(IBTRACE_TXN_EP_A_THREAD, 4, 0),
	NUM(IBTRACE_TXN_EP_A_EP, 4, 0), NUM(IBTRACE_TXN_EP_A_ITERATIONS, 4, 10),
	NUM(IBTRACE_TXN_EP_A_SERVER_VERSION, 4, 1), NUM(IBTRACE_TXN_EP_A_ERRORS, 8, 0), END,
	TXN_T01(FAIL), STR(IBTRACE_ASSERT_A_EXPECTED, "0 errors"),
	STR(IBTRACE_ASSERT_A_OBSERVED, "2 errors (remote access error)"),
	STR(IBTRACE_ASSERT_A_WHERE, "thread 1 endpoint 0 iteration 3 op 1 (client RW)"), END,
	TXN_T02(NOT_APPLICABLE), END,
};

/* txn: no server at the peer, nothing ran */
static const struct golden_attr txn_none[] = {
	STR(IBTRACE_A_TEST_REASON,
	    "no ibtrace server at fe80::1 port 7471: connection refused (is its server started? ibtracectl server start)"),
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_PEER_PORT, 2, 7471),
	TXN_OP(CLIENT, SR, 4096, 1), END,
};

/* txn: running, one endpoint of 4 finished, its server's version 0 */
static const struct golden_attr txn_run[] = {
	{ IBTRACE_A_TEST_PEER_GID, GOLDEN_BYTES, sizeof(peer), (const char *)peer },
	NUM(IBTRACE_A_TEST_TXN_THREADS, 4, 2), NUM(IBTRACE_A_TEST_TXN_ENDPOINTS, 4, 2),
	NUM(IBTRACE_A_TEST_ITERATIONS, 4, 1000),
	TXN_OP(CLIENT, SR, 4096, 1), END,
	TXN_EP(1, 1, 1000, 1000, 0, 4096000, 50000000), NUM(IBTRACE_TXN_EP_A_ERRORS, 8, 0),
	NUM(IBTRACE_TXN_EP_A_SERVER_VERSION, 4, 0), END,
};

/* nothing but what every result has */
static const struct golden_attr none[] = {
	STR(IBTRACE_A_TEST_SEED, "s2"),
};

/* a test of test list */
static const struct golden_attr listed[] = {
	STR(IBTRACE_A_TEST_SEED, "s1"),
	STR(IBTRACE_A_TEST_DESC, "GUIDInfo conformance"),
	STR(IBTRACE_A_TEST_NEEDS, "a switch"),
	NEST(IBTRACE_A_TEST_ASSERTION), STR(IBTRACE_ASSERT_A_ID, "G1"),
	STR(IBTRACE_ASSERT_A_DESC, "a set of entry 0 is refused"), END,
};

/*
 * A reply: the attributes every result has (NULL, 0: not sent; a state
 * or verdict of 0xff neither), then @attrs.
 */
struct reply {
	const char *label;
	const char *how;	/* a letter for each case: see run_case() */
	const char *dev, *test;
	uint32_t port, job;
	uint8_t state, verdict;
	const struct golden_attr *attrs;
	size_t n;
};

#define NONE	0xff
#define REPLY(label, how, dev, test, port, job, state, verdict, a) \
	{ label, how, dev, test, port, job, IBTRACE_TEST_STATE_##state, \
	  IBTRACE_TEST_VERDICT_##verdict, a, IBT_ARRAY_SIZE(a) }
#define IBTRACE_TEST_STATE_NONE		NONE
#define IBTRACE_TEST_VERDICT_NONE_SENT	NONE

static const struct reply replies[] = {
	REPLY("guidinfo fail", "vrs", "ibtsim0", "guidinfo", 1, 7, FINISHED, FAIL, guid_fail),
	REPLY("guidinfo lid", "rs", "ibtsim0", "guidinfo", 2, 8, FINISHED, PASS, guid_lid),
	REPLY("guidinfo running", "rc", NULL, "guidinfo", 1, 9, RUNNING, NONE_SENT,
	      guid_running),
	REPLY("rnr loopback", "rs", "rxe0", "rnr", 1, 10, FINISHED, NOT_APPLICABLE, rnr_loop),
	REPLY("rnr peer", "rs", "rxe0", "rnr", 1, 11, RUNNING, NONE_SENT, rnr_peer),
	REPLY("perf ok", "rs", "rxe0", "perf", 1, 15, FINISHED, PASS, perf_ok),
	REPLY("perf errors", "rs", "rxe0", "perf", 1, 16, FINISHED, FAIL, perf_err),
	REPLY("perf running", "rs", "rxe0", "perf", 1, 17, RUNNING, NONE_SENT, perf_run),
	REPLY("quit stopped", "rsp", "rxe0", "quit", 1, 18, FINISHED, PASS, quit_ok),
	REPLY("quit not stopped", "rcp", "rxe0", "quit", 1, 19, FINISHED, ERROR, quit_cut),
	REPLY("quit late", "r", "rxe0", "quit", 1, 20, FINISHED, FAIL, quit_late),
	REPLY("quit no server", "rs", "rxe0", "quit", 1, 21, FINISHED, ERROR, quit_none),
	REPLY("quit running", "rp", "rxe0", "quit", 1, 22, RUNNING, NONE_SENT, quit_run),
	REPLY("quit asking", "rp", "rxe0", "quit", 1, 23, RUNNING, NONE_SENT, quit_ask),
	REPLY("txn validated", "rsp", "rxe0", "txn", 1, 24, FINISHED, PASS, txn_ok),
	REPLY("txn mismatch", "rp", "rxe0", "txn", 1, 25, FINISHED, FAIL, txn_mismatch),
	REPLY("txn errors", "r", "rxe0", "txn", 1, 26, FINISHED, FAIL, txn_err),
	REPLY("txn no server", "r", "rxe0", "txn", 1, 27, FINISHED, ERROR, txn_none),
	REPLY("txn running", "rp", "rxe0", "txn", 1, 28, RUNNING, NONE_SENT, txn_run),
	REPLY("list", "l", NULL, "guidinfo", 0, 0, NONE, NONE_SENT, listed),
	REPLY("guidinfo pass", "r", "ibtsim0", "guidinfo", 1, 12, FINISHED, PASS, none),
	REPLY("guidinfo error", "r", "ibtsim0", "guidinfo", 1, 13, FINISHED, ERROR, none),
	REPLY("guidinfo none", "r", "ibtsim0", "guidinfo", 1, 14, FINISHED, NONE, none),
};

static struct nl_msg *build(const struct reply *r)
{
	const struct golden_attr head[] = {
		STR(IBTRACE_A_DEV_NAME, r->dev), NUM(IBTRACE_A_PORT, 4, r->port),
		STR(IBTRACE_A_TEST_NAME, r->test), NUM(IBTRACE_A_TEST_JOB, 4, r->job),
		NUM(IBTRACE_A_TEST_STATE, 1, r->state),
		NUM(IBTRACE_A_TEST_VERDICT, 1, r->verdict),
	};
	struct nl_msg *m = golden_msg(IBTRACE_CMD_TEST_GET);
	size_t i;

	/* each one that is sent; the port and job are never 0 */
	for (i = 0; i < IBT_ARRAY_SIZE(head); i++)
		if (head[i].size == GOLDEN_STR ? head[i].s != NULL :
		    head[i].size == 4 ? head[i].v != 0 : head[i].v != NONE)
			golden_put(m, &head[i], 1);
	golden_put(m, r->attrs, r->n);
	return m;
}

struct test_case {
	const struct reply *reply;
	/*
	 * 'v' report verbose, 'r' report, 'c' cancelled, 's' show line, 'l'
	 * list, 'p' the test's live progress line (twice: printed once)
	 */
	char how;
};

/* As test run prints an event's progress: in text only. */
static void progress(struct ibt *ctx, const struct result *r)
{
	const struct ibt_test_def *def = test_def_of(r);
	uint32_t shown = 0;

	if (ctx->json || !def || !def->progress_text)
		return;
	def->progress_text(test_rval(r, IBTRACE_A_TEST_JOB), r, &shown);
	def->progress_text(test_rval(r, IBTRACE_A_TEST_JOB), r, &shown);
}

static int run_case(struct ibt *ctx, void *arg)
{
	const struct test_case *c = arg;
	struct nl_msg *m = build(c->reply);
	struct list l = { 0 };
	int ret;

	ret = test_keep_cb(ctx, nlmsg_hdr(m), &l);
	nlmsg_free(m);
	if (!ret && (c->how == 'v' || c->how == 'r' || c->how == 'c'))
		ret = test_result_report(ctx, &l.v[0], c->how == 'v', c->how == 'c');
	else if (!ret && c->how == 's')
		test_show_line(ctx, &l.v[0]);
	else if (!ret && c->how == 'p')
		progress(ctx, &l.v[0]);
	else if (!ret)
		test_list_print(ctx, &l.v[0]);
	test_list_free(&l);
	return ret;
}

/*
 * test run's options of a test (@arg: its def, then pairs of option
 * name and argument; "" and a word after the test's name), then its
 * request attributes.
 */
struct opts_case {
	const struct ibt_test_def *def;
	const char *words[40];
};

static int run_opts(struct ibt *ctx, void *arg)
{
	const struct opts_case *c = arg;
	const struct ibt_test_opt *o;
	char args[1024] = { 0 };
	struct nl_msg *m;
	size_t i;
	int ret = 0;

	(void)ctx;
	for (i = 0; !ret && c->words[i]; i += 2) {
		if (!c->words[i][0]) {	/* "": a word after the test's name */
			ret = c->def->word(args, c->words[i + 1]);
			continue;
		}
		for (o = c->def->opts; strcmp(o->name, c->words[i]); o++)
			;
		ret = c->def->opt(args, o->id, c->words[i + 1]);
	}

	if (!ret && c->def->check)
		ret = c->def->check(args);
	if (ret)
		return ret;
	m = golden_msg(IBTRACE_CMD_TEST_RUN);
	if (c->def->request(m, args))
		ret = IBT_EXIT_ERR;
	else
		golden_hex(m);
	nlmsg_free(m);
	return ret;
}

static void golden_test_opts(void)
{
	static const struct opts_case cases[] = {
		{ &test_guidinfo, { "dr", "1,2", "dut-port", "3", "blocks", "4",
				    "timeout", "200", "retries", "2" } },
		{ &test_guidinfo, { "lid", "0x12", "retries", "0" } },
		{ &test_guidinfo, { "timeout", "0" } },
		{ &test_guidinfo, { "retries", "99" } },
		{ &test_guidinfo, { "dr", "1", "lid", "2" } },
		{ &test_rnr, { "timer", "all", "retry", "7", "deadline", "100",
			       "size", "64", "iterations", "2", "poll", "event" } },
		{ &test_rnr, { "timer", "3", "peer", "fe80::2", "peer-port", "7471",
			       "recv-posted", "" } },
		{ &test_rnr, { "retry", "7" } },
		{ &test_rnr, { "peer-port", "1" } },
		{ &test_perf, { "peer", "fe80::2", "peer-port", "7471", "iterations", "5000",
				"pipeline", "8", "poll", "event", "", "rw", "", "65536",
				"", "4" } },
		{ &test_perf, { "peer", "fe80::2", "", "RR" } },
		{ &test_perf, { "peer", "fe80::2", "", "RW", "", "4194304", "", "2" } },
		{ &test_perf, { "peer", "fe80::2" } },
		{ &test_perf, { "iterations", "1000001" } },
		{ &test_quit, { "peer", "fe80::2", "peer-port", "7471" } },
		{ &test_quit, { "peer", "fe80::5054:ff:fe1b:2" } },
		{ &test_quit, { "peer-port", "7471" } },
		{ &test_quit, { } },
		{ &test_quit, { "peer", "fe80::2", "peer-port", "0" } },
		{ &test_txn, { "peer", "fe80::2", "peer-port", "7471", "iterations", "500",
			       "threads", "2", "endpoints", "3", "validate", "",
			       "corrupt", "17", "", "client", "", "sr", "", "256",
			       "", "reap", "", "Server", "", "RW", "", "4096", "", "2" } },
		{ &test_txn, { "peer", "fe80::2", "", "server", "", "rr" } },
		{ &test_txn, { "peer", "fe80::2", "", "client", "", "RW", "", "4194304" } },
		{ &test_txn, { "peer", "fe80::2", "", "client", "", "RW", "", "4194304",
			       "", "server", "", "SR", "", "1" } },
		{ &test_txn, { "peer", "fe80::2", "corrupt", "3", "", "server", "", "sr" } },
		{ &test_txn, { "peer", "fe80::2", "validate", "", "corrupt", "4096",
			       "", "client", "", "sr", "", "server", "", "sr" } },
		{ &test_txn, { "peer", "fe80::2", "validate", "", "corrupt", "0",
			       "", "client", "", "sr", "", "client", "", "rw" } },
		{ &test_txn, { "peer", "fe80::2", "validate", "", "corrupt", "1024",
			       "", "client", "", "rw", "", "client", "", "RR", "", "512",
			       "", "2" } },
		{ &test_txn, { "peer", "fe80::2", "threads", "0", "", "client", "", "sr" } },
		{ &test_txn, { "peer", "fe80::2", "endpoints", "17", "", "client", "", "sr" } },
		{ &test_txn, { "peer", "fe80::2" } },
		{ &test_txn, { "", "client", "", "sr" } },
	};
	char name[32];
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(cases); i++) {
		snprintf(name, sizeof(name), "test run options %zu", i);
		golden_run(name, run_opts, (void *)&cases[i]);
	}
}

/*
 * Command lines of test run and server quit that are refused before
 * anything is sent (one that is not would open a netlink socket).
 */
static int test_run_req(struct ibt *ctx, struct nl_msg **msg)
{
	(void)msg;
	return ibt_test_run_as(ctx, "test", "run", NULL);
}

static int server_quit_req(struct ibt *ctx, struct nl_msg **msg)
{
	(void)msg;
	return ibt_test_run_as(ctx, "server", "quit", "quit");
}

static void golden_test_words(void)
{
	static const char *const runs[][6] = {
		{ "quit" },
		{ "quit", "--peer-port", "7471" },
		{ "quit", "--peer", "fe80::2", "extra" },
		{ "quit", "extra", "--peer", "fe80::2" },
		{ "quit", "--peer", "fe80::2", "--timer", "3" },
		{ "quit", "--peer", "fe80::2", "--peer-port", "70000" },
		{ "quit", "--peer", "fe80::2", "--peer" },
	};
	static const char *const txns[][12] = {
		{ "txn", "--peer", "fe80::2", "client" },
		{ "txn", "--peer", "fe80::2", "CLIENT", "sr", "reap", "client", "SEND" },
		{ "txn", "--peer", "fe80::2", "sr", "client" },
		{ "txn", "--peer", "fe80::2", "server", "rw", "64", "reap" },
		{ "txn", "--peer", "fe80::2", "server", "rr", "0" },
		{ "txn", "--peer", "fe80::2", "server", "rr", "64", "17" },
		{ "txn", "--peer", "fe80::2", "client", "sr", "64", "1", "reap", "reap" },
		{ "txn", "--peer", "fe80::2", "client", "sr", "64", "1", "2" },
		{ "txn", "--peer", "fe80::2", "client", "sr", "big" },
		{ "txn", "--peer", "fe80::2", "--poll", "often", "client", "sr" },
		{ "txn", "--peer", "fe80::2", "--corrupt", "4194304", "client", "sr" },
	};
	static const char *const txn_many[][1 + 2 + 17 * 2 + 2] = {
		{ "txn", "--peer", "fe80::2",
		  "client", "sr", "client", "sr", "client", "sr", "client", "sr",
		  "client", "sr", "client", "sr", "client", "sr", "client", "sr",
		  "client", "sr", "client", "sr", "client", "sr", "client", "sr",
		  "client", "sr", "client", "sr", "client", "sr", "client", "sr",
		  "client", "sr" },
		{ "txn", "--peer", "fe80::2", "--validate",
		  "client", "sr", "client", "sr", "client", "sr", "client", "sr",
		  "client", "sr", "client", "sr", "client", "sr", "client", "sr",
		  "client", "sr", "client", "sr", "client", "sr", "client", "sr",
		  "client", "sr", "client", "sr" },
	};
	static const char *const quits[][6] = {
		{ NULL },
		{ "--peer-port", "7471" },
		{ "--peer", "fe80::2", "extra" },
		{ "extra" },
		{ "--peer", "fe80::2", "--timer", "3" },
		{ "--peer", "fe80::2", "RW" },
		{ "--peer", "x" },
		{ "--peer", "fe80::2", "--peer-port", "0" },
	};

	golden_words_run("test run words", test_run_req, NULL, runs[0],
			 IBT_ARRAY_SIZE(runs[0]), IBT_ARRAY_SIZE(runs));
	golden_words_run("server quit words", server_quit_req, NULL, quits[0],
			 IBT_ARRAY_SIZE(quits[0]), IBT_ARRAY_SIZE(quits));
	golden_words_run("test run txn words", test_run_req, NULL, txns[0],
			 IBT_ARRAY_SIZE(txns[0]), IBT_ARRAY_SIZE(txns));
	golden_words_run("test run txn many", test_run_req, NULL, txn_many[0],
			 IBT_ARRAY_SIZE(txn_many[0]), IBT_ARRAY_SIZE(txn_many));
}

void golden_test(void)
{
	static const char *const hows[128] = {
		['v'] = "report verbose", ['r'] = "report", ['c'] = "report cancelled",
		['s'] = "show line", ['l'] = "list line", ['p'] = "progress",
	};
	struct test_case c;
	char name[64];
	size_t i;
	const char *h;

	for (i = 0; i < IBT_ARRAY_SIZE(replies); i++)
		for (h = replies[i].how; *h; h++) {
			c.reply = &replies[i];
			c.how = *h;
			snprintf(name, sizeof(name), "test %s %s", replies[i].label,
				 hows[(int)*h]);
			golden_run(name, run_case, &c);
		}
	golden_test_opts();
	golden_test_words();
}
