// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the pure functions in parse.c, fmt.c and mad_decode.c
 * (not the "test" object, which is test.c). Run by "make test" (make
 * check runs it too); exit status 0 when every check passes.
 *
 * Most checks are rows of tables, one table for each kind of function:
 * names of values, formatters into a buffer, parsers into a u32, ...
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ibtracectl.h"
#include "mad_samples.h"

#define N_ELEM(a)	(sizeof(a) / sizeof((a)[0]))

static int failures, checks;

/* One check: @ok, else "FAIL: @what" (and @detail if any). */
static void check(int ok, const char *what, const char *detail)
{
	checks++;
	if (ok)
		return;
	failures++;
	fprintf(stderr, "tests/unit.c: FAIL: %s%s\n", what, detail ? detail : "");
}

/* One check: string @got of @what is @want. */
static void check_str(const char *what, const char *got, const char *want)
{
	char detail[512];

	snprintf(detail, sizeof(detail), " is \"%s\", want \"%s\"", got, want);
	check(!strcmp(got, want), what, detail);
}

#define CHECK(cond)	check(!!(cond), #cond, NULL)

/* Stubs: the dispatch tables only need function pointers. */
static int fn_a(struct ibt *ctx) { (void)ctx; return 0; }

/* Names: fn(v) is want, for the constants of the uAPI ... */
#define NAME(fn, v, want)	{ fn, #fn "(" #v ")", v, want }
struct name_case {
	const char *(*fn)(unsigned int v);
	const char *what;
	unsigned int v;
	const char *want;
};

static const struct name_case names[] = {
	NAME(ibt_link_layer_str, IBTRACE_LINK_LAYER_IB, "infiniband"),
	NAME(ibt_link_layer_str, IBTRACE_LINK_LAYER_ETH, "ethernet"),
	NAME(ibt_link_layer_str, IBTRACE_LINK_LAYER_UNSPEC, "unknown"),
	NAME(ibt_port_state_str, IBTRACE_PORT_STATE_NOP, "NOP"),
	NAME(ibt_port_state_str, IBTRACE_PORT_STATE_DOWN, "DOWN"),
	NAME(ibt_port_state_str, IBTRACE_PORT_STATE_INIT, "INIT"),
	NAME(ibt_port_state_str, IBTRACE_PORT_STATE_ARMED, "ARMED"),
	NAME(ibt_port_state_str, IBTRACE_PORT_STATE_ACTIVE, "ACTIVE"),
	NAME(ibt_port_state_str, IBTRACE_PORT_STATE_ACTIVE_DEFER, "ACTIVE_DEFER"),
	NAME(ibt_probe_status_str, IBTRACE_PROBE_OK, "ok"),
	NAME(ibt_probe_status_str, IBTRACE_PROBE_TIMEOUT, "timeout"),
	NAME(ibt_probe_status_str, IBTRACE_PROBE_REMOTE_ERROR, "remote_error"),
	NAME(ibt_probe_status_str, IBTRACE_PROBE_SEND_ERROR, "send_error"),
	NAME(ibt_probe_status_str, IBTRACE_PROBE_SENT, "sent"),
	NAME(ibt_test_state_str, IBTRACE_TEST_STATE_RUNNING, "running"),
	NAME(ibt_test_state_str, IBTRACE_TEST_STATE_FINISHED, "finished"),
	NAME(ibt_test_verdict_str, IBTRACE_TEST_VERDICT_NONE, "none"),
	NAME(ibt_test_verdict_str, IBTRACE_TEST_VERDICT_PASS, "pass"),
	NAME(ibt_test_verdict_str, IBTRACE_TEST_VERDICT_FAIL, "fail"),
	NAME(ibt_test_verdict_str, IBTRACE_TEST_VERDICT_NOT_APPLICABLE, "not_applicable"),
	NAME(ibt_test_verdict_str, IBTRACE_TEST_VERDICT_ERROR, "error"),
	NAME(ibt_test_restore_str, IBTRACE_TEST_RESTORE_NONE, "none"),
	NAME(ibt_test_restore_str, IBTRACE_TEST_RESTORE_VERIFIED, "verified"),
	NAME(ibt_test_restore_str, IBTRACE_TEST_RESTORE_FAILED, "failed"),
	NAME(ibt_test_restore_str, IBTRACE_TEST_RESTORE_IMPOSSIBLE, "impossible"),
	NAME(ibt_assert_result_str, IBTRACE_ASSERT_NOT_RUN, "not_run"),
	NAME(ibt_assert_result_str, IBTRACE_ASSERT_PASS, "pass"),
	NAME(ibt_assert_result_str, IBTRACE_ASSERT_FAIL, "fail"),
	NAME(ibt_assert_result_str, IBTRACE_ASSERT_NOT_APPLICABLE, "not_applicable"),
	NAME(ibt_xchg_outcome_str, IBTRACE_XCHG_ANSWERED, "answered"),
	NAME(ibt_xchg_outcome_str, IBTRACE_XCHG_TIMEOUT, "timeout"),
	NAME(ibt_xchg_outcome_str, IBTRACE_XCHG_SEND_ERROR, "send_error"),
	NAME(ibt_xchg_phase_str, IBTRACE_XCHG_PHASE_PROBE, "probe"),
	NAME(ibt_xchg_phase_str, IBTRACE_XCHG_PHASE_SAVE, "save"),
	NAME(ibt_xchg_phase_str, IBTRACE_XCHG_PHASE_TEST, "test"),
	NAME(ibt_xchg_phase_str, IBTRACE_XCHG_PHASE_RESTORE, "restore"),
	NAME(ibt_test_poll_str, IBTRACE_TEST_POLL_BUSY, "busy"),
	NAME(ibt_test_poll_str, IBTRACE_TEST_POLL_EVENT, "event"),
	NAME(ibt_rnr_wire_str, IBTRACE_RNR_WIRE_NOT_VISIBLE, "not_visible"),
	NAME(ibt_rnr_wire_str, IBTRACE_RNR_WIRE_TAPPED, "tapped"),
	NAME(ibt_limit_object_str, IBTRACE_LIMIT_PD, "pd"),
	NAME(ibt_limit_object_str, IBTRACE_LIMIT_CQ, "cq"),
	NAME(ibt_limit_object_str, IBTRACE_LIMIT_QP, "qp"),
	NAME(ibt_limit_object_str, IBTRACE_LIMIT_MR, "mr"),
	NAME(ibt_limit_object_str, IBTRACE_LIMIT_RPOST, "rpost"),
	NAME(ibt_limit_object_str, IBTRACE_LIMIT_SIZE_MR, "size_mr"),
	NAME(ibt_limit_object_str, IBTRACE_LIMIT_AH, "ah"),
	NAME(ibt_limit_object_str, IBTRACE_LIMIT_SRQ, "srq"),
	NAME(ibt_limit_object_str, __IBTRACE_LIMIT_MAX, "?"),
	NAME(ibt_limit_end_str, IBTRACE_LIMIT_END_DEVICE, "device"),
	NAME(ibt_limit_end_str, IBTRACE_LIMIT_END_MAX, "max"),
	NAME(ibt_limit_end_str, IBTRACE_LIMIT_END_BUDGET, "budget"),
	NAME(ibt_limit_end_str, IBTRACE_LIMIT_END_HOST_MEMORY, "host_memory"),
	NAME(ibt_limit_end_str, IBTRACE_LIMIT_END_STOPPED, "stopped"),
	NAME(ibt_limit_end_str, IBTRACE_LIMIT_END_SETUP, "setup"),
	NAME(ibt_perf_op_str, IBTRACE_PERF_OP_RDMA_READ, "RR"),
	NAME(ibt_perf_op_str, IBTRACE_PERF_OP_RDMA_WRITE, "RW"),
	NAME(ibt_perf_op_str, 2, "?"),
	NAME(ibt_txn_who_str, IBTRACE_TXN_CLIENT, "client"),
	NAME(ibt_txn_who_str, IBTRACE_TXN_SERVER, "server"),
	NAME(ibt_txn_who_str, 2, "?"),
	NAME(ibt_txn_type_str, IBTRACE_TXN_SR, "SR"),
	NAME(ibt_txn_type_str, IBTRACE_TXN_RR, "RR"),
	NAME(ibt_txn_type_str, IBTRACE_TXN_RW, "RW"),
	NAME(ibt_txn_type_str, 3, "?"),
	NAME(ibt_node_type_str, IBTRACE_NODE_UNKNOWN, "unknown"),
	NAME(ibt_node_type_str, IBTRACE_NODE_CA, "ca"),
	NAME(ibt_node_type_str, IBTRACE_NODE_SWITCH, "switch"),
	NAME(ibt_node_type_str, IBTRACE_NODE_ROUTER, "router"),
	NAME(ibt_hop_agent_str, IBTRACE_HOP_AGENT_LOCAL, "local"),
	NAME(ibt_hop_agent_str, IBTRACE_HOP_AGENT_VERIFIED, "verified"),
	NAME(ibt_hop_agent_str, IBTRACE_HOP_AGENT_MISMATCH, "mismatch"),
	NAME(ibt_hop_agent_str, IBTRACE_HOP_AGENT_NONE, "no_agent"),
	NAME(ibt_hop_agent_str, IBTRACE_HOP_AGENT_FAILED, "failed"),
	NAME(ibt_hop_agent_str, IBTRACE_HOP_AGENT_UNASKED, "unasked"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_OK, "ok"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_NO_ROUTE_UNSET, "no_route"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_NO_ROUTE_TOP, "no_route"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_NO_ROUTE_PORT, "no_route"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_DEAD_END, "no_route"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_PORT_DOWN, "port_down"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_TOO_MANY_HOPS, "too_many_hops"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_LOOP, "loop"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_UNRESPONSIVE, "unresponsive"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_SMP_ERROR, "smp_error"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_SA_FAILED, "sa_failed"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_DEV_GONE, "dev_gone"),
	NAME(ibt_trace_status_str, IBTRACE_TRACE_NOT_IN_TREE, "no_route"),
};

/* ... and for raw values: MAD codes, values without a name */
static const struct name_case numbers[] = {
	NAME(ibt_link_layer_str, 9, "unknown"),
	NAME(ibt_port_state_str, 6, "UNKNOWN"),
	NAME(ibt_probe_status_str, 200, "unknown"),
	NAME(ibt_sim_node_type_str, 1, "ca"),
	NAME(ibt_sim_node_type_str, 2, "switch"),
	NAME(ibt_sim_node_type_str, 0, "unknown"),
	NAME(ibt_sim_node_type_str, 3, "unknown"),
	NAME(ibt_test_state_str, 0, "unknown"),
	NAME(ibt_test_state_str, 99, "unknown"),
	NAME(ibt_test_verdict_str, 5, "unknown"),
	NAME(ibt_test_restore_str, 4, "unknown"),
	NAME(ibt_assert_result_str, 4, "unknown"),
	NAME(ibt_xchg_outcome_str, 3, "unknown"),
	NAME(ibt_xchg_phase_str, 4, "unknown"),
	NAME(ibt_mad_method_str, 0x01, "Get"),
	NAME(ibt_mad_method_str, 0x02, "Set"),
	NAME(ibt_mad_method_str, 0x81, "GetResp"),
	NAME(ibt_mad_method_str, 0x42, "unknown"),
	NAME(ibt_smp_attr_str, 0x0014, "GUIDInfo"),
	NAME(ibt_smp_attr_str, 0x0011, "NodeInfo"),
	NAME(ibt_smp_attr_str, 0x0015, "PortInfo"),
	NAME(ibt_smp_attr_str, 0xff00, "unknown"),
	NAME(ibt_test_poll_str, 2, "unknown"),
	NAME(ibt_rnr_wire_str, 2, "unknown"),
	NAME(ibt_rnr_wire_str, 1000, "unknown"),
	NAME(ibt_node_type_str, 4, "unknown"),
	NAME(ibt_node_type_str, 0xffffffff, "unknown"),
	NAME(ibt_hop_agent_str, 6, "unknown"),
	NAME(ibt_trace_status_str, 13, "unknown"),
	NAME(ibt_link_layer_str, 0xffffffff, "unknown"),
	NAME(ibt_port_state_str, 0xffffffff, "UNKNOWN"),
	NAME(ibt_probe_status_str, IBTRACE_PROBE_SENT + 1, "unknown"),
	NAME(ibt_sim_node_type_str, 0xffffffff, "unknown"),
	NAME(ibt_mad_method_str, 0x00, "unknown"),
	NAME(ibt_mad_method_str, 0x05, "Trap"),
	NAME(ibt_mad_method_str, 0x07, "TrapRepress"),
	NAME(ibt_mad_method_str, 0x80, "unknown"),
	NAME(ibt_mad_method_str, 0x82, "unknown"),
	NAME(ibt_mad_method_str, 0x1ff, "unknown"),
	NAME(ibt_smp_attr_str, 0x0000, "unknown"),
	NAME(ibt_smp_attr_str, 0x000f, "unknown"),
	NAME(ibt_smp_attr_str, 0x0010, "NodeDescription"),
	NAME(ibt_smp_attr_str, 0x0012, "SwitchInfo"),
	NAME(ibt_smp_attr_str, 0x0013, "unknown"),
	NAME(ibt_smp_attr_str, 0x0016, "P_KeyTable"),
	NAME(ibt_smp_attr_str, 0x0017, "unknown"),
	NAME(ibt_smp_attr_str, 0x0019, "LinearForwardingTable"),
	NAME(ibt_smp_attr_str, 0x001a, "unknown"),
	NAME(ibt_smp_attr_str, 0x1014, "unknown"),
	NAME(ibt_test_poll_str, 0xffffffff, "unknown"),
	NAME(ibt_xchg_phase_str, 0xffffffff, "unknown"),
};
#undef NAME

static void check_names(const struct name_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		check_str(c[i].what, c[i].fn(c[i].v), c[i].want);
}

static void test_names(void)
{
	check_names(names, N_ELEM(names));
	check_names(numbers, N_ELEM(numbers));
}

/* Formatters into a buffer: the text of (a, b) in a buffer of len bytes. */
enum fmt { F_MAD_STATUS, F_PCT, F_NS, F_GUID_QUIRKS, F_PPM_PCT, F_DUR, F_DR_PATH,
	   F_DEC1 };

#define FMT(f, a, b, len, want) \
	{ f, #f "(" #a ", " #b ", " #len ")", (uint64_t)(a), b, len, want }
static const struct fmt_case {
	enum fmt f;
	const char *what;
	uint64_t a, b;		/* F_DUR: a is an int64_t, b "plus" */
	size_t len;
	const char *want;
} fmts[] = {
	FMT(F_MAD_STATUS, 0x0000, 0, 128, "success"),
	FMT(F_MAD_STATUS, 0x0001, 0, 128, "busy"),
	FMT(F_MAD_STATUS, 0x0002, 0, 128, "redirect required"),
	FMT(F_MAD_STATUS, 0x0004, 0, 128, "bad version"),
	FMT(F_MAD_STATUS, 0x0008, 0, 128, "unsupported method"),
	FMT(F_MAD_STATUS, 0x000c, 0, 128, "unsupported method/attribute"),
	FMT(F_MAD_STATUS, 0x001c, 0, 128, "invalid value"),
	FMT(F_MAD_STATUS, 0x0010, 0, 128, "reserved code 4"),
	FMT(F_MAD_STATUS, 0x0014, 0, 128, "reserved code 5"),
	FMT(F_MAD_STATUS, 0x0018, 0, 128, "reserved code 6"),
	FMT(F_MAD_STATUS, 0x0020, 0, 128, "reserved bits 0x20"),
	FMT(F_MAD_STATUS, 0x1200, 0, 128, "class-specific 0x12"),
	FMT(F_MAD_STATUS, 0x011d, 0, 128, "busy, invalid value, class-specific 0x01"),
	FMT(F_MAD_STATUS, 0xffff, 0, 128,
	    "busy, redirect required, invalid value, reserved bits 0xe0, class-specific 0xff"),
	/* truncation stays NUL-terminated */
	FMT(F_MAD_STATUS, 0x011d, 0, 8, "busy, i"),
	FMT(F_MAD_STATUS, 0x000c, 0, 8, "unsuppo"),
	FMT(F_PCT, 0, 0, 16, "0"),
	FMT(F_PCT, 2500, 0, 16, "25"),
	FMT(F_PCT, 10000, 0, 16, "100"),
	FMT(F_PCT, 50, 0, 16, "0.5"),
	FMT(F_PCT, 3333, 0, 16, "33.33"),
	FMT(F_PCT, 6667, 0, 16, "66.67"),
	FMT(F_PCT, 1, 0, 16, "0.01"),
	FMT(F_PCT, 1210, 0, 16, "12.1"),
	FMT(F_NS, 123456, 1000000, 32, "0.123"),
	FMT(F_NS, 123500, 1000000, 32, "0.124"),
	FMT(F_NS, 0, 1000000, 32, "0.000"),
	FMT(F_NS, 1999999, 1000000, 32, "2.000"),
	FMT(F_NS, 123456, 1000, 32, "123.456"),
	FMT(F_NS, 7, 1000, 32, "0.007"),
	FMT(F_NS, UINT64_MAX, 1000, 32, "18446744073709551.615"),
	FMT(F_GUID_QUIRKS, 0, 0, 64, "none"),
	FMT(F_GUID_QUIRKS, 5, 0, 64, "entry0-writable,above-cap-nonzero"),
	FMT(F_GUID_QUIRKS, 0x12, 0, 64, "past-table-status,0x10"),
	FMT(F_PPM_PCT, 300000, 0, 64, "30"),
	FMT(F_PPM_PCT, 5000, 0, 64, "0.5"),
	FMT(F_PPM_PCT, 1, 0, 64, "0.0001"),
	FMT(F_PPM_PCT, 1000000, 0, 64, "100"),
	FMT(F_PPM_PCT, 123450, 0, 64, "12.345"),
	/* F_DR_PATH: the first a ports of 1,3,255 */
	FMT(F_DR_PATH, 3, 0, 4 * IBTRACE_TRACE_MAX_HOPS, "1,3,255"),
	FMT(F_DR_PATH, 1, 0, 4 * IBTRACE_TRACE_MAX_HOPS, "1"),
	FMT(F_DR_PATH, 0, 0, 4 * IBTRACE_TRACE_MAX_HOPS, ""),
	FMT(F_DR_PATH, 3, 0, 4, "1,3"),				/* truncated */
	FMT(F_DUR, 0, false, 32, "0.00 us"),
	FMT(F_DUR, 0, true, 32, "0.00 us"),
	FMT(F_DUR, 4, false, 32, "0.00 us"),
	FMT(F_DUR, 5, false, 32, "0.01 us"),
	FMT(F_DUR, 10000, false, 32, "10.00 us"),
	FMT(F_DUR, 537044, false, 32, "537.04 us"),
	FMT(F_DUR, 999994, false, 32, "999.99 us"),
	FMT(F_DUR, 999995, false, 32, "1.00 ms"),
	FMT(F_DUR, 10240000, false, 32, "10.24 ms"),
	FMT(F_DUR, 655360000, false, 32, "655.36 ms"),
	FMT(F_DUR, 999994999, false, 32, "999.99 ms"),
	FMT(F_DUR, 999995000, false, 32, "1.000 s"),
	FMT(F_DUR, 1310720000, false, 32, "1.311 s"),
	FMT(F_DUR, 3789100, true, 32, "+3.79 ms"),
	FMT(F_DUR, -120000, true, 32, "-120.00 us"),
	FMT(F_DUR, -120000, false, 32, "-120.00 us"),
	FMT(F_DUR, INT64_MIN, false, 32, "-9223372036.855 s"),
	FMT(F_DUR, INT64_MAX, true, 32, "+9223372036.855 s"),
	FMT(F_DEC1, 4096000, 1000000, 32, "4.1"),
	FMT(F_DEC1, 4050000, 1000000, 32, "4.1"),
	FMT(F_DEC1, 4049999, 1000000, 32, "4.0"),
	FMT(F_DEC1, 1234500000, 1000000, 32, "1234.5"),
	FMT(F_DEC1, 0, 1000000, 32, "0.0"),
	FMT(F_DEC1, 9999, 1000, 32, "10.0"),
	FMT(F_DEC1, 70000000000ull, 1000000, 32, "70000.0"),
	FMT(F_DEC1, 1234500000, 1000000, 4, "123"),
};
#undef FMT

static const char *fmt(const struct fmt_case *c, char *buf)
{
	static const uint8_t ports[] = { 1, 3, 255 };

	switch (c->f) {
	case F_MAD_STATUS:
		return ibt_mad_status_str(c->a, buf, c->len);
	case F_PCT:
		return ibt_pct_str(c->a, buf, c->len);
	case F_NS:
		return ibt_ns_str(c->a, c->b, buf, c->len);
	case F_GUID_QUIRKS:
		return ibt_guid_quirks_str(c->a, buf, c->len);
	case F_PPM_PCT:
		return ibt_ppm_pct_str(c->a, buf, c->len);
	case F_DUR:
		return ibt_dur_str((int64_t)c->a, c->b, buf, c->len);
	case F_DR_PATH:
		return ibt_dr_path_str(ports, c->a, buf, c->len);
	case F_DEC1:
		return ibt_dec1_str(c->a, c->b, buf, c->len);
	}
	return "(no such formatter)";
}

static void test_fmts(void)
{
	char buf[256], tiny[8];
	size_t i;

	for (i = 0; i < N_ELEM(fmts); i++)
		check_str(fmts[i].what, fmt(&fmts[i], buf), fmts[i].want);
	CHECK(ibt_mad_status_str(0x000c, tiny, 0) == tiny);
}

/* A number of a have/val table: "-" when not sent. */
static void test_num_str(void)
{
	static const bool have[3] = { false, true, true };
	static const uint64_t val[3] = { 5, 0, UINT64_MAX };
	char buf[32];

	check_str("ibt_num_str not sent", ibt_num_str(have, val, 0, buf, sizeof(buf)), "-");
	check_str("ibt_num_str 0", ibt_num_str(have, val, 1, buf, sizeof(buf)), "0");
	check_str("ibt_num_str max", ibt_num_str(have, val, 2, buf, sizeof(buf)),
		  "18446744073709551615");
}

/*
 * Parsers into a u32: s parses (ok) to want, or is refused and the
 * output left as it was. fn NULL: ibt_parse_u32() in [min, max].
 */

#define PARSED_AS	77	/* the output before each parse */
#define U32(s, min, max, ok, want) \
	{ NULL, #s " in [" #min ", " #max "]", s, min, max, ok, want }
#define PARSE(fn, s, ok, want)	{ fn, #fn "(" #s ")", s, 0, 0, ok, want }
static const struct {
	int (*fn)(const char *s, uint32_t *v);
	const char *what, *s;
	uint32_t min, max;
	int ok;
	uint32_t want;
} parses[] = {
	U32("0", 0, 10, 1, 0),
	U32("10", 0, 10, 1, 10),
	U32("010", 0, 100, 1, 10),		/* not octal */
	U32("0x1f", 0, 100, 1, 31),
	U32("0X1F", 0, 100, 1, 31),
	U32("4294967295", 0, UINT32_MAX, 1, UINT32_MAX),
	U32("4294967296", 0, UINT32_MAX, 0, 0),
	U32("99999999999999999999999", 0, UINT32_MAX, 0, 0),
	U32("0x100000000", 0, UINT32_MAX, 0, 0),
	U32("11", 0, 10, 0, 0),
	U32("0", 1, 10, 0, 0),
	U32("", 0, 10, 0, 0),
	U32(NULL, 0, 10, 0, 0),
	U32("0x", 0, 10, 0, 0),
	U32("-1", 0, 10, 0, 0),
	U32("+1", 0, 10, 0, 0),
	U32(" 1", 0, 10, 0, 0),
	U32("1 ", 0, 10, 0, 0),
	U32("1a", 0, 100, 0, 0),
	U32("0xg", 0, 100, 0, 0),
	U32("1e3", 0, 10000, 0, 0),
	PARSE(ibt_parse_lid, "1", 1, 1),
	PARSE(ibt_parse_lid, "0x12", 1, 0x12),
	PARSE(ibt_parse_lid, "0xbfff", 1, 0xbfff),
	PARSE(ibt_parse_lid, "49151", 1, 49151),
	PARSE(ibt_parse_lid, "0", 0, 0),
	PARSE(ibt_parse_lid, "0x0", 0, 0),
	PARSE(ibt_parse_lid, "0xc000", 0, 0),
	PARSE(ibt_parse_lid, "49152", 0, 0),
	PARSE(ibt_parse_lid, "0xffff", 0, 0),
	PARSE(ibt_parse_lid, "lid", 0, 0),
	PARSE(ibt_parse_pct_ppm, "30", 1, 300000),
	PARSE(ibt_parse_pct_ppm, "30%", 1, 300000),
	PARSE(ibt_parse_pct_ppm, "0", 1, 0),
	PARSE(ibt_parse_pct_ppm, "100", 1, 1000000),
	PARSE(ibt_parse_pct_ppm, "100.0", 1, 1000000),
	PARSE(ibt_parse_pct_ppm, "0.5", 1, 5000),
	PARSE(ibt_parse_pct_ppm, "0.0001", 1, 1),
	PARSE(ibt_parse_pct_ppm, "12.34%", 1, 123400),
	PARSE(ibt_parse_pct_ppm, "100.01", 0, 0),
	PARSE(ibt_parse_pct_ppm, "101", 0, 0),
	PARSE(ibt_parse_pct_ppm, "0.00001", 0, 0),
	PARSE(ibt_parse_pct_ppm, "", 0, 0),
	PARSE(ibt_parse_pct_ppm, NULL, 0, 0),
	PARSE(ibt_parse_pct_ppm, "%", 0, 0),
	PARSE(ibt_parse_pct_ppm, ".5", 0, 0),
	PARSE(ibt_parse_pct_ppm, "5.", 0, 0),
	PARSE(ibt_parse_pct_ppm, "-1", 0, 0),
	PARSE(ibt_parse_pct_ppm, "1.2.3", 0, 0),
	PARSE(ibt_parse_pct_ppm, "5%%", 0, 0),
	PARSE(ibt_parse_pct_ppm, "5%x", 0, 0),
	PARSE(ibt_parse_pct_ppm, "0005", 0, 0),
	PARSE(ibt_parse_guid_quirks, "none", 1, 0),
	PARSE(ibt_parse_guid_quirks, "entry0-writable", 1, 1),
	PARSE(ibt_parse_guid_quirks, "above-cap-nonzero,past-table-status", 1, 6),
	PARSE(ibt_parse_guid_quirks, "entry0-writable,past-table-status,above-cap-nonzero",
	      1, 7),
	PARSE(ibt_parse_guid_quirks, "", 0, 0),
	PARSE(ibt_parse_guid_quirks, "entry0", 0, 0),
	PARSE(ibt_parse_guid_quirks, "entry0-writable,", 0, 0),
	PARSE(ibt_parse_guid_quirks, ",entry0-writable", 0, 0),
	PARSE(ibt_parse_guid_quirks, "none,entry0-writable", 0, 0),
	PARSE(ibt_parse_test_poll, "busy", 1, IBTRACE_TEST_POLL_BUSY),
	PARSE(ibt_parse_test_poll, "event", 1, IBTRACE_TEST_POLL_EVENT),
	PARSE(ibt_parse_test_poll, "ev", 0, 0),
	PARSE(ibt_parse_test_poll, "", 0, 0),
	PARSE(ibt_parse_test_poll, NULL, 0, 0),
	PARSE(ibt_parse_perf_op, "RR", 1, IBTRACE_PERF_OP_RDMA_READ),
	PARSE(ibt_parse_perf_op, "rw", 1, IBTRACE_PERF_OP_RDMA_WRITE),
	PARSE(ibt_parse_perf_op, "Rw", 1, IBTRACE_PERF_OP_RDMA_WRITE),
	PARSE(ibt_parse_perf_op, "RD", 0, 0),
	PARSE(ibt_parse_perf_op, "", 0, 0),
	PARSE(ibt_parse_perf_op, NULL, 0, 0),
	PARSE(ibt_parse_txn_who, "client", 1, IBTRACE_TXN_CLIENT),
	PARSE(ibt_parse_txn_who, "Server", 1, IBTRACE_TXN_SERVER),
	PARSE(ibt_parse_txn_who, "serv", 0, 0),
	PARSE(ibt_parse_txn_who, NULL, 0, 0),
	PARSE(ibt_parse_txn_type, "SR", 1, IBTRACE_TXN_SR),
	PARSE(ibt_parse_txn_type, "rr", 1, IBTRACE_TXN_RR),
	PARSE(ibt_parse_txn_type, "rW", 1, IBTRACE_TXN_RW),
	PARSE(ibt_parse_txn_type, "client", 0, 0),
	PARSE(ibt_parse_txn_type, "", 0, 0),
};
#undef U32
#undef PARSE

static void test_parses(void)
{
	char detail[64];
	uint32_t v;
	size_t i;

	for (i = 0; i < N_ELEM(parses); i++) {
		const char *s = parses[i].s;
		int ret;

		v = PARSED_AS;
		ret = parses[i].fn ? parses[i].fn(s, &v) :
		      ibt_parse_u32(s, parses[i].min, parses[i].max, &v);
		snprintf(detail, sizeof(detail), ": returned %d, output %u",
			 ret, v);
		check(parses[i].ok ? !ret && v == parses[i].want :
				     ret && v == PARSED_AS,
		      parses[i].what, detail);
	}
}

static void test_u64_hex(void)
{
	uint8_t b[4];
	uint64_t v;
	size_t n;

	CHECK(!ibt_parse_u64("0xffffffffffffffff", &v) && v == UINT64_MAX);
	CHECK(!ibt_parse_u64("18446744073709551615", &v) && v == UINT64_MAX);
	CHECK(ibt_parse_u64("18446744073709551616", &v));
	CHECK(ibt_parse_u64("0x10000000000000000", &v));
	CHECK(!ibt_parse_u64("010", &v) && v == 10);
	CHECK(ibt_parse_u64("-1", &v));
	CHECK(ibt_parse_u64("", &v));
	CHECK(!ibt_parse_hex("00:11 aA", b, sizeof(b), &n) && n == 3 &&
	      b[0] == 0 && b[1] == 0x11 && b[2] == 0xaa);
	CHECK(!ibt_parse_hex("0x01020304", b, sizeof(b), &n) && n == 4 &&
	      b[3] == 4);
	CHECK(ibt_parse_hex("0102030405", b, sizeof(b), &n));
	CHECK(ibt_parse_hex("012", b, sizeof(b), &n));
	CHECK(ibt_parse_hex("zz", b, sizeof(b), &n));
	CHECK(ibt_parse_hex("0 1", b, sizeof(b), &n));
	CHECK(!ibt_parse_hex("", b, sizeof(b), &n) && n == 0);
}

static void test_gid(void)
{
	static const uint8_t want[16] = {
		0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x50, 0x54, 0x00, 0xff, 0xfe, 0x1b, 0x00, 0x01,
	};
	static const uint8_t v4[16] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 2,
	};
	uint8_t gid[16];

	CHECK(!ibt_parse_gid("fe80::5054:ff:fe1b:1", gid) && !memcmp(gid, want, 16));
	CHECK(!ibt_parse_gid("FE80:0:0:0:5054:FF:FE1B:0001", gid) &&
	      !memcmp(gid, want, 16));
	CHECK(!ibt_parse_gid("::ffff:192.168.1.2", gid) && !memcmp(gid, v4, 16));
	CHECK(!ibt_parse_gid("::", gid));
	CHECK(ibt_parse_gid("fe80::1%eth0", gid));
	CHECK(ibt_parse_gid("192.168.1.2", gid));
	CHECK(ibt_parse_gid("fe80::1::2", gid));
	CHECK(ibt_parse_gid("fe80:0:0:0:0:0:0:0:1", gid));
	CHECK(ibt_parse_gid("", gid));
	CHECK(ibt_parse_gid("0x5054fffe1b0001", gid));
	CHECK(ibt_parse_gid(NULL, gid));
}

static void test_sroute(void)
{
	uint8_t p[IBTRACE_SROUTE_MAX_HOPS];
	char s[512];
	size_t n = 99, i;

	CHECK(!ibt_parse_sroute("1,2,3", p, sizeof(p), &n) && n == 3 &&
	      p[0] == 1 && p[1] == 2 && p[2] == 3);
	CHECK(!ibt_parse_sroute("7", p, sizeof(p), &n) && n == 1 && p[0] == 7);
	CHECK(!ibt_parse_sroute("0,255,0x10", p, sizeof(p), &n) && n == 3 &&
	      p[0] == 0 && p[1] == 255 && p[2] == 16);
	n = 99;
	CHECK(ibt_parse_sroute("", p, sizeof(p), &n));
	CHECK(ibt_parse_sroute(NULL, p, sizeof(p), &n));
	CHECK(ibt_parse_sroute(",", p, sizeof(p), &n));
	CHECK(ibt_parse_sroute("1,,2", p, sizeof(p), &n));
	CHECK(ibt_parse_sroute("1,2,", p, sizeof(p), &n));
	CHECK(ibt_parse_sroute(",1", p, sizeof(p), &n));
	CHECK(ibt_parse_sroute("256", p, sizeof(p), &n));
	CHECK(ibt_parse_sroute("1, 2", p, sizeof(p), &n));
	CHECK(ibt_parse_sroute("1;2", p, sizeof(p), &n));
	CHECK(ibt_parse_sroute("-1", p, sizeof(p), &n));
	CHECK(n == 99);

	/* exactly IBTRACE_SROUTE_MAX_HOPS ports, then one too many */
	s[0] = '\0';
	for (i = 0; i < IBTRACE_SROUTE_MAX_HOPS; i++)
		snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s%zu",
			 i ? "," : "", i % 250 + 1);
	CHECK(!ibt_parse_sroute(s, p, sizeof(p), &n) &&
	      n == IBTRACE_SROUTE_MAX_HOPS && p[63] == 64);
	strcat(s, ",1");
	CHECK(ibt_parse_sroute(s, p, sizeof(p), &n));
	CHECK(n == IBTRACE_SROUTE_MAX_HOPS);
}

static void test_lookup(void)
{
	static const struct ibt_cmd objs[] = {
		{ "dev", fn_a }, { "agent", fn_a }, { "ping", fn_a },
		{ "help", fn_a }, { NULL, NULL },
	};
	static const struct ibt_cmd amb[] = {
		{ "show", fn_a }, { "set", fn_a }, { "s", fn_a },
		{ "pingx", fn_a }, { "ping", fn_a }, { NULL, NULL },
	};
	static const struct ibt_cmd two[] = {
		{ "show", fn_a }, { "set", fn_a }, { NULL, NULL },
	};

	CHECK(ibt_cmd_lookup(objs, "dev") == 0);
	CHECK(ibt_cmd_lookup(objs, "d") == 0);
	CHECK(ibt_cmd_lookup(objs, "ag") == 1);
	CHECK(ibt_cmd_lookup(objs, "p") == 2);
	CHECK(ibt_cmd_lookup(objs, "h") == 3);
	CHECK(ibt_cmd_lookup(objs, "devx") == IBT_LOOKUP_NONE);
	CHECK(ibt_cmd_lookup(objs, "x") == IBT_LOOKUP_NONE);
	CHECK(ibt_cmd_lookup(objs, "") == IBT_LOOKUP_NONE);
	CHECK(ibt_cmd_lookup(objs, NULL) == IBT_LOOKUP_NONE);
	CHECK(ibt_cmd_lookup(objs, "DEV") == IBT_LOOKUP_NONE);
	CHECK(ibt_cmd_lookup(two, "s") == IBT_LOOKUP_AMBIGUOUS);
	CHECK(ibt_cmd_lookup(two, "sh") == 0);
	CHECK(ibt_cmd_lookup(two, "se") == 1);
	CHECK(ibt_cmd_lookup(amb, "s") == 2);		/* exact beats prefix */
	CHECK(ibt_cmd_lookup(amb, "ping") == 4);	/* exact, after a prefix */
	CHECK(ibt_cmd_lookup(amb, "pin") == IBT_LOOKUP_AMBIGUOUS);
}

static void test_pct(void)
{
	CHECK(ibt_pct_x100(0, 0) == 0);
	CHECK(ibt_pct_x100(3, 0) == 0);
	CHECK(ibt_pct_x100(0, 5) == 0);
	CHECK(ibt_pct_x100(1, 4) == 2500);
	CHECK(ibt_pct_x100(1, 3) == 3333);
	CHECK(ibt_pct_x100(2, 3) == 6667);
	CHECK(ibt_pct_x100(5, 5) == 10000);
	CHECK(ibt_pct_x100(6, 5) == 10000);
	CHECK(ibt_pct_x100(1, 100000) == 1);		/* never shows 0% */
	CHECK(ibt_pct_x100(99999, 100000) == 9999);	/* never shows 100% */
	CHECK(ibt_pct_x100(UINT32_MAX - 1, UINT32_MAX) == 9999);
}

static void test_percentile(void)
{
	uint64_t v[100], two[2] = { 10, 20 }, one[1] = { 5 };
	size_t i;

	for (i = 0; i < 100; i++)
		v[i] = i + 1;
	CHECK(ibt_percentile(v, 100, 99) == 99);
	CHECK(ibt_percentile(v, 100, 50) == 50);
	CHECK(ibt_percentile(v, 100, 100) == 100);
	CHECK(ibt_percentile(v, 100, 0) == 1);
	CHECK(ibt_percentile(v, 100, 250) == 100);
	CHECK(ibt_percentile(v, 10, 99) == 10);
	CHECK(ibt_percentile(v, 10, 50) == 5);
	CHECK(ibt_percentile(two, 2, 50) == 10);
	CHECK(ibt_percentile(two, 2, 99) == 20);
	CHECK(ibt_percentile(one, 1, 99) == 5);
	CHECK(ibt_percentile(NULL, 0, 99) == 0);
}

static void test_sim(void)
{
	CHECK(!ibt_sim_name_ok("sim0"));
	CHECK(!ibt_sim_name_ok("a.b-c_D9"));
	CHECK(!ibt_sim_name_ok("0123456789012345678901234567890"));	/* 31 */
	CHECK(ibt_sim_name_ok("01234567890123456789012345678901"));	/* 32 */
	CHECK(ibt_sim_name_ok(""));
	CHECK(ibt_sim_name_ok(NULL));
	CHECK(ibt_sim_name_ok("bad name"));
	CHECK(ibt_sim_name_ok("a/b"));
	CHECK(ibt_chunk_len(0, 100) == 0);
	CHECK(ibt_chunk_len(99, 100) == 99);
	CHECK(ibt_chunk_len(100, 100) == 100);
	CHECK(ibt_chunk_len(250, 100) == 100);
}

static void test_dr_path(void)
{
	uint8_t p[IBTRACE_TRACE_MAX_HOPS] = { 0 };
	char in[4 * IBTRACE_TRACE_MAX_HOPS + 8];
	size_t n = 99, i, off = 0;

	CHECK(!ibt_parse_dr_path("1", p, &n) && n == 1 && p[0] == 1);
	CHECK(!ibt_parse_dr_path("1,3,255", p, &n) && n == 3 && p[1] == 3 &&
	      p[2] == 255);
	CHECK(!ibt_parse_dr_path("0x2,10", p, &n) && n == 2 && p[0] == 2 && p[1] == 10);
	n = 99;
	CHECK(ibt_parse_dr_path("1,0,3", p, &n) && n == 99);	/* port 0 */
	CHECK(ibt_parse_dr_path("0", p, &n));
	CHECK(ibt_parse_dr_path("256", p, &n));
	CHECK(ibt_parse_dr_path("", p, &n));
	CHECK(ibt_parse_dr_path(NULL, p, &n));
	CHECK(ibt_parse_dr_path("1,,2", p, &n));
	CHECK(ibt_parse_dr_path("1,2,", p, &n));
	CHECK(ibt_parse_dr_path(",1", p, &n));
	CHECK(ibt_parse_dr_path("1 ,2", p, &n));
	CHECK(ibt_parse_dr_path("-1", p, &n));
	CHECK(n == 99);
	/* 63 ports are fine, 64 are too many */
	for (i = 0; i < IBTRACE_TRACE_MAX_HOPS; i++)
		off += snprintf(in + off, sizeof(in) - off, "%s%zu", i ? "," : "",
				i % 9 + 1);
	CHECK(!ibt_parse_dr_path(in, p, &n) && n == IBTRACE_TRACE_MAX_HOPS &&
	      p[62] == 9);
	snprintf(in + off, sizeof(in) - off, ",1");
	CHECK(ibt_parse_dr_path(in, p, &n) && n == IBTRACE_TRACE_MAX_HOPS);
}

static void test_rnr(void)
{
	uint32_t code = 77;
	bool all = true;

	CHECK(!ibt_parse_rnr_timer("0", &code, &all) && code == 0 && !all);
	CHECK(!ibt_parse_rnr_timer("31", &code, &all) && code == 31 && !all);
	CHECK(!ibt_parse_rnr_timer("0x1f", &code, &all) && code == 31);
	CHECK(!ibt_parse_rnr_timer("all", &code, &all) && all && code == 31);
	code = 77;
	all = false;
	CHECK(ibt_parse_rnr_timer("32", &code, &all) && code == 77 && !all);
	CHECK(ibt_parse_rnr_timer("ALL", &code, &all));
	CHECK(ibt_parse_rnr_timer("-1", &code, &all));
	CHECK(ibt_parse_rnr_timer("", &code, &all));
	CHECK(ibt_parse_rnr_timer(NULL, &code, &all) && !all);
}

/*
 * mad_decode.c prints through the ibt_out_* helpers of out.c, which need
 * json-c and libnl: here they are replaced by a recorder of what would
 * be printed. In text mode it records what out.c prints; in JSON mode
 * "key=value;" for a field, "key{" ... "}" for an object and "key[" ...
 * "]" for an array (an element's key is empty).
 */
static char rec[16384];
static size_t rec_len;

static void rec_vadd(const char *fmt, va_list ap)
{
	int n;

	if (rec_len >= sizeof(rec) - 1)
		return;
	n = vsnprintf(rec + rec_len, sizeof(rec) - rec_len, fmt, ap);
	if (n > 0)
		rec_len += n;
	if (rec_len > sizeof(rec) - 1)
		rec_len = sizeof(rec) - 1;
}

static void rec_add(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void rec_add(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rec_vadd(fmt, ap);
	va_end(ap);
}

static void rec_clear(void)
{
	rec_len = 0;
	rec[0] = '\0';
}

void ibt_out_obj_begin(struct ibt *ctx, const char *key)
{
	if (ctx->json)
		rec_add("%s{", key ? key : "");
}

void ibt_out_obj_end(struct ibt *ctx)
{
	if (ctx->json)
		rec_add("}");
}

void ibt_out_arr_begin(struct ibt *ctx, const char *key)
{
	if (ctx->json)
		rec_add("%s[", key ? key : "");
}

void ibt_out_arr_end(struct ibt *ctx)
{
	if (ctx->json)
		rec_add("]");
}

void ibt_out_text(struct ibt *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->json)
		return;
	va_start(ap, fmt);
	rec_vadd(fmt, ap);
	va_end(ap);
}

void ibt_out_str(struct ibt *ctx, const char *key, const char *val)
{
	if (ctx->json)
		rec_add("%s=%s;", key ? key : "", val);
	else
		rec_add(" %s %s", key, val);
}

void ibt_out_u64(struct ibt *ctx, const char *key, uint64_t val)
{
	if (ctx->json)
		rec_add("%s=%" PRIu64 ";", key ? key : "", val);
	else
		rec_add(" %s %" PRIu64, key, val);
}

void ibt_out_hex(struct ibt *ctx, const char *key, uint64_t val)
{
	if (ctx->json)
		rec_add("%s=%" PRIu64 ";", key ? key : "", val);
	else
		rec_add(" %s 0x%" PRIx64, key, val);
}

void ibt_out_gid(struct ibt *ctx, const char *key, const uint8_t gid[16])
{
	char s[INET6_ADDRSTRLEN];

	if (!inet_ntop(AF_INET6, gid, s, sizeof(s)))
		s[0] = '\0';
	ibt_out_str(ctx, key, s);
}

void ibt_out_eol(struct ibt *ctx)
{
	if (!ctx->json)
		rec_add("\n");
}

/* A name of mad_decode.c: @got is @want (NULL: no name). */
static void check_mad_name(const char *what, const char *got,
			   const char *want)
{
	if (got && want)
		check_str(what, got, want);
	else
		check(got == want, what, got ? " has a name" : " has no name");
}

#define CLASS(c, want)		{ #c, c, 0, want }
#define METHOD(m, want)		{ #m, m, 0, want }
#define ATTR(c, a, want)	{ #c ", " #a, c, a, want }
static const struct mad_name_case {
	const char *what;
	uint8_t v;		/* class or method */
	uint16_t attr_id;
	const char *want;
} mad_classes[] = {
	CLASS(0x01, "SubnLidRouted"),
	CLASS(0x81, "SubnDirectedRoute"),
	CLASS(0x03, "SubnAdm"),
	CLASS(0x04, "PerfMgt"),
	CLASS(0x07, "ComMgt"),
	CLASS(0x21, "CongMgt"),
	CLASS(0x30, "Ibtrace"),
	CLASS(0x09, "Vendor"),
	CLASS(0x0f, "Vendor"),
	CLASS(0x31, "VendorOUI"),
	CLASS(0x4f, "VendorOUI"),
	CLASS(0x00, NULL),
	CLASS(0x02, NULL),
	CLASS(0x50, NULL),
	CLASS(0x80, NULL),
	CLASS(0x82, NULL),
	CLASS(0xff, NULL),
}, mad_methods[] = {
	METHOD(0x01, "Get"),
	METHOD(0x02, "Set"),
	METHOD(0x03, "Send"),
	METHOD(0x05, "Trap"),
	METHOD(0x06, "Report"),
	METHOD(0x07, "TrapRepress"),
	METHOD(0x12, "GetTable"),
	METHOD(0x81, "GetResp"),
	METHOD(0x86, "ReportResp"),
	METHOD(0x92, "GetTableResp"),
	METHOD(0x95, "DeleteResp"),
	METHOD(0x00, NULL),
	METHOD(0x04, NULL),
	METHOD(0x7f, NULL),
	METHOD(0x80, NULL),
	METHOD(0x85, NULL),
	METHOD(0xff, NULL),
}, mad_attrs[] = {
	ATTR(0x81, 0x0011, "NodeInfo"),
	ATTR(0x01, 0x0011, "NodeInfo"),
	ATTR(0x81, 0x0010, "NodeDescription"),
	ATTR(0x81, 0x0012, "SwitchInfo"),
	ATTR(0x01, 0x0015, "PortInfo"),
	ATTR(0x81, 0x0016, "P_KeyTable"),
	ATTR(0x81, 0x001b, "MulticastForwardingTable"),
	ATTR(0x81, 0x0002, "Notice"),
	ATTR(0x81, 0x0001, NULL),		/* no ClassPortInfo in SMPs */
	ATTR(0x81, 0x0035, NULL),
	ATTR(0x81, 0xff00, NULL),
	ATTR(0x03, 0x0035, "PathRecord"),
	ATTR(0x03, 0x0012, "PortInfoRecord"),
	ATTR(0x03, 0x0001, "ClassPortInfo"),
	ATTR(0x03, 0x00f3, "InformInfoRecord"),
	ATTR(0x04, 0x0012, "PortCounters"),
	ATTR(0x04, 0x001d, "PortCountersExtended"),
	ATTR(0x04, 0x0001, "ClassPortInfo"),
	ATTR(0x04, 0x0035, NULL),
	ATTR(0x07, 0x0010, "ConnectRequest"),
	ATTR(0x06, 0x0001, "ClassPortInfo"),
	ATTR(0x06, 0x0010, NULL),
	ATTR(0x30, 0x0001, "ClassPortInfo"),
	ATTR(0x30, 0x0010, "SourceRoute"),
	ATTR(0x31, 0x0010, NULL),
};
#undef CLASS
#undef METHOD
#undef ATTR

static void test_mad_names(void)
{
	size_t i;

	for (i = 0; i < N_ELEM(mad_classes); i++)
		check_mad_name(mad_classes[i].what,
			       ibt_mad_class_name(mad_classes[i].v),
			       mad_classes[i].want);
	for (i = 0; i < N_ELEM(mad_methods); i++)
		check_mad_name(mad_methods[i].what,
			       ibt_mad_method_name(mad_methods[i].v),
			       mad_methods[i].want);
	for (i = 0; i < N_ELEM(mad_attrs); i++)
		check_mad_name(mad_attrs[i].what,
			       ibt_mad_attr_name(mad_attrs[i].v,
						 mad_attrs[i].attr_id),
			       mad_attrs[i].want);
}

/*
 * Parsers of mad_decode.c: s parses (ok) to want, or is refused and the
 * output left as it was (MAD_PARSED_AS). P_ATTR parses in class c.
 */
enum mad_parse { P_CLASS, P_METHOD, P_ATTR };
#define MAD_PARSED_AS	0x4d
#define MP(p, c, s, ok, want)	{ p, #p "(" #c ", " #s ")", c, s, ok, want }
static const struct {
	enum mad_parse p;
	const char *what;
	uint8_t mgmt_class;
	const char *s;
	int ok;
	uint16_t want;
} mad_parses[] = {
	MP(P_CLASS, 0, "smp-dr", 1, 0x81),
	MP(P_CLASS, 0, "dr", 1, 0x81),
	MP(P_CLASS, 0, "DR", 1, 0x81),
	MP(P_CLASS, 0, "smp-lid", 1, 0x01),
	MP(P_CLASS, 0, "lid", 1, 0x01),
	MP(P_CLASS, 0, "sa", 1, 0x03),
	MP(P_CLASS, 0, "pma", 1, 0x04),
	MP(P_CLASS, 0, "perf", 1, 0x04),
	MP(P_CLASS, 0, "ibtrace", 1, 0x30),
	MP(P_CLASS, 0, "vendor", 1, 0x30),
	MP(P_CLASS, 0, "cm", 1, 0x07),
	MP(P_CLASS, 0, "SubnAdm", 1, 0x03),
	MP(P_CLASS, 0, "perfmgt", 1, 0x04),
	MP(P_CLASS, 0, "SubnDirectedRoute", 1, 0x81),
	MP(P_CLASS, 0, "0x81", 1, 0x81),
	MP(P_CLASS, 0, "129", 1, 0x81),
	MP(P_CLASS, 0, "0", 1, 0),
	MP(P_CLASS, 0, "0xff", 1, 0xff),
	MP(P_CLASS, 0, "0x100", 0, 0),
	MP(P_CLASS, 0, "256", 0, 0),
	MP(P_CLASS, 0, "smp", 0, 0),
	MP(P_CLASS, 0, "VendorOUI", 0, 0),
	MP(P_CLASS, 0, "sa ", 0, 0),
	MP(P_CLASS, 0, "-1", 0, 0),
	MP(P_CLASS, 0, "", 0, 0),
	MP(P_CLASS, 0, NULL, 0, 0),
	MP(P_METHOD, 0, "get", 1, 0x01),
	MP(P_METHOD, 0, "GET", 1, 0x01),
	MP(P_METHOD, 0, "set", 1, 0x02),
	MP(P_METHOD, 0, "trap", 1, 0x05),
	MP(P_METHOD, 0, "report", 1, 0x06),
	MP(P_METHOD, 0, "traprepress", 1, 0x07),
	MP(P_METHOD, 0, "gettable", 1, 0x12),
	MP(P_METHOD, 0, "getresp", 1, 0x81),
	MP(P_METHOD, 0, "ReportResp", 1, 0x86),
	MP(P_METHOD, 0, "GetTableResp", 1, 0x92),
	MP(P_METHOD, 0, "0x81", 1, 0x81),
	MP(P_METHOD, 0, "5", 1, 0x05),
	MP(P_METHOD, 0, "gets", 0, 0),
	MP(P_METHOD, 0, "resp", 0, 0),
	MP(P_METHOD, 0, "0x100", 0, 0),
	MP(P_METHOD, 0, "", 0, 0),
	MP(P_METHOD, 0, NULL, 0, 0),
	MP(P_ATTR, 0x81, "NodeInfo", 1, 0x0011),
	MP(P_ATTR, 0x81, "nodeinfo", 1, 0x0011),
	MP(P_ATTR, 0x01, "PortInfo", 1, 0x0015),
	MP(P_ATTR, 0x81, "P_KeyTable", 1, 0x0016),
	MP(P_ATTR, 0x81, "pkeytable", 1, 0x0016),
	MP(P_ATTR, 0x81, "guidinfo", 1, 0x0014),
	MP(P_ATTR, 0x03, "PathRecord", 1, 0x0035),
	MP(P_ATTR, 0x03, "classportinfo", 1, 0x0001),
	MP(P_ATTR, 0x04, "PortCounters", 1, 0x0012),
	MP(P_ATTR, 0x04, "ClassPortInfo", 1, 0x0001),
	MP(P_ATTR, 0x30, "SourceRoute", 1, IBTRACE_ATTR_SOURCE_ROUTE),
	MP(P_ATTR, 0x30, "ClassPortInfo", 1, IBTRACE_ATTR_CLASS_PORT_INFO),
	MP(P_ATTR, 0x81, "0x11", 1, 0x0011),
	MP(P_ATTR, 0x81, "17", 1, 0x0011),
	MP(P_ATTR, 0x03, "0xffff", 1, 0xffff),
	MP(P_ATTR, 0x81, "PathRecord", 0, 0),
	MP(P_ATTR, 0x81, "ClassPortInfo", 0, 0),
	MP(P_ATTR, 0x03, "NodeInfo", 0, 0),
	MP(P_ATTR, 0x04, "SwitchInfo", 0, 0),
	MP(P_ATTR, 0x31, "SourceRoute", 0, 0),
	MP(P_ATTR, 0x81, "Node Info", 0, 0),
	MP(P_ATTR, 0x81, "NodeInf", 0, 0),
	MP(P_ATTR, 0x81, "0x10000", 0, 0),
	MP(P_ATTR, 0x81, "", 0, 0),
	MP(P_ATTR, 0x81, NULL, 0, 0),
};
#undef MP

static void test_mad_parses(void)
{
	char detail[64];
	size_t i;

	for (i = 0; i < N_ELEM(mad_parses); i++) {
		const char *s = mad_parses[i].s;
		uint16_t id = MAD_PARSED_AS;
		uint8_t v = MAD_PARSED_AS;
		int ret;

		if (mad_parses[i].p == P_CLASS)
			ret = ibt_mad_parse_class(s, &v);
		else if (mad_parses[i].p == P_METHOD)
			ret = ibt_mad_parse_method(s, &v);
		else
			ret = ibt_mad_parse_attr(mad_parses[i].mgmt_class, s,
						 &id);
		if (mad_parses[i].p != P_ATTR)
			id = v;
		snprintf(detail, sizeof(detail), ": returned %d, output 0x%x",
			 ret, id);
		check(mad_parses[i].ok ? !ret && id == mad_parses[i].want :
					 ret == -1 && id == MAD_PARSED_AS,
		      mad_parses[i].what, detail);
	}
}

/*
 * What the header and attribute of a sample print: pieces of the text
 * (or of the recorded JSON, MADJ), each with the field before and after
 * it or the end of the line, so that every field's value is checked.
 */
#define MADT(sample, want)	{ sample, false, want }
#define MADJ(sample, want)	{ sample, true, want }
static const struct {
	int sample;
	bool json;
	const char *want;
} mad_prints[] = {
	MADT(MS_DR_NODE_INFO, " base_version 1 class 0x81 (SubnDirectedRoute)"
	     " class_version 1 method 0x81 (GetResp) status 0x0000"
	     " tid 0x0000000112345681 attr 0x0011 (NodeInfo)"
	     " attr_mod 0x00000000\n"
	     "  hop_ptr 2 hop_cnt 2 dr_slid 0xffff dr_dlid 0xffff d 1"
	     " m_key 0x1122334455667788\n"
	     "  initial_path 1,3 return_path 2,1\n"
	     "  base_version 1 class_version 1 node_type 2 (switch)"
	     " num_ports 36\n"
	     "  system_image_guid 0x0002c90300005678"
	     " node_guid 0x0002c90300001234 port_guid 0x0002c90300001235\n"
	     "  partition_cap 8 device_id 0xcb20 revision 0xa1"
	     " local_port_num 7 vendor_id 0x2c9\n"),
	MADJ(MS_DR_NODE_INFO, "mad{base_version=1;class=129;"
	     "class_name=SubnDirectedRoute;class_version=1;method=129;"
	     "method_name=GetResp;status=0;status_text=success;"
	     "tid=0x0000000112345681;attr=17;attr_name=NodeInfo;attr_mod=0;"
	     "hop_ptr=2;hop_cnt=2;dr_slid=65535;dr_dlid=65535;d=1;"
	     "m_key=0x1122334455667788;initial_path[=1;=3;]"
	     "return_path[=2;=1;]}attr{base_version=1;class_version=1;"
	     "node_type=2;node_type_name=switch;num_ports=36;"),
	MADJ(MS_DR_NODE_INFO, "node_guid=0x0002c90300001234;"),
	MADT(MS_LID_PORT_INFO, " class 0x01 (SubnLidRouted) class_version 1"
	     " method 0x81 (GetResp) status 0x0000 tid 0x0000000112345601"
	     " attr 0x0015 (PortInfo) attr_mod 0x00000003\n"
	     "  m_key 0x0102030405060708\n"
	     "  m_key 0x0102030405060708 gid_prefix 0xfe80000000000001"
	     " lid 0x12 master_sm_lid 0x1 capability_mask 0x251084a"
	     " diag_code 0x3 m_key_lease_period 15\n"
	     "  local_port_num 3 link_width_enabled 0x3"
	     " link_width_supported 0x17 link_width_active 0x2"
	     " link_speed_supported 7 port_state 4 (ACTIVE)"
	     " port_phys_state 5 (link_up) link_down_default_state 2\n"
	     "  m_key_protect_bits 1 lmc 2 link_speed_active 1"
	     " link_speed_enabled 7 neighbor_mtu 5 master_sm_sl 3 vl_cap 4"
	     " init_type 0x1 vl_high_limit 8 vl_arbitration_high_cap 9"
	     " vl_arbitration_low_cap 10 init_type_reply 0x2 mtu_cap 4\n"
	     "  vl_stall_count 6 hoq_life 19 operational_vls 4"
	     " partition_enforcement_inbound 1"
	     " partition_enforcement_outbound 0 filter_raw_inbound 1"
	     " filter_raw_outbound 0 m_key_violations 257"
	     " p_key_violations 515 q_key_violations 772 guid_cap 32\n"
	     "  client_reregister 1"
	     " multicast_pkey_trap_suppression_enabled 2 subnet_timeout 18"
	     " resp_time_value 17 local_phy_errors 11 overrun_errors 13"
	     " max_credit_hint 1286 link_round_trip_latency 460809\n"
	     "  capability_mask2 0xa0b link_speed_ext_active 1"
	     " link_speed_ext_supported 3 link_speed_ext_enabled 30\n"),
	MADJ(MS_LID_PORT_INFO, "lid=18;"),
	MADJ(MS_LID_PORT_INFO, "port_state=4;port_state_name=ACTIVE;"
	     "port_phys_state=5;port_phys_state_name=link_up;"),
	MADT(MS_DR_NODE_DESC, " method 0x01 (Get) status 0x0000"),
	MADT(MS_DR_NODE_DESC, " d 0 m_key"),
	MADT(MS_DR_NODE_DESC, "\n  node_desc \"switch \"S1\"... end\"\n"),
	MADJ(MS_DR_NODE_DESC, "attr{node_desc=switch \"S1\"... end;}"),
	MADT(MS_SWITCH_INFO, " status 0x001c (invalid value) tid"),
	MADT(MS_SWITCH_INFO, "  linear_fdb_cap 49152 random_fdb_cap 16"
	     " multicast_fdb_cap 1024 linear_fdb_top 0x123 default_port 4"
	     " default_mcast_primary_port 5"
	     " default_mcast_not_primary_port 6\n"
	     "  life_time_value 17 port_state_change 1"
	     " optimized_sl_to_vl_mapping_programming 2 lids_per_port 515"
	     " partition_enforcement_cap 32\n"
	     "  inbound_enforcement_cap 1 outbound_enforcement_cap 0"
	     " filter_raw_inbound_cap 1 filter_raw_outbound_cap 0"
	     " enhanced_port0 1 multicast_fdb_top 0xc0ff\n"),
	MADJ(MS_SWITCH_INFO, "status=28;status_text=invalid value;"),
	MADT(MS_GUID_INFO, "  block 1 guids 0x0002c9030000a000,"
	     "0x0002c9030000a001,0x0002c9030000a002,0x0002c9030000a003,"
	     "0x0002c9030000a004,0x0002c9030000a005,0x0002c9030000a006,"
	     "0x0002c9030000a007\n"),
	MADJ(MS_GUID_INFO, "attr{block=1;guids[=0x0002c9030000a000;"
	     "=0x0002c9030000a001;"),
	MADT(MS_PKEY_TABLE, "  block 2 port 5 pkeys 0xffff,0x8001,0x7002,"),
	MADT(MS_PKEY_TABLE, ",0x701e,0x701f\n"),
	MADJ(MS_PKEY_TABLE, "pkeys[=65535;=32769;=28674;"),
	MADT(MS_SL_TO_VL, "  in_port 1 out_port 2"
	     " sl_to_vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"),
	MADT(MS_VL_ARB, "  block 3 port 4 entries 0:1,1:3,2:5,3:7,4:9,"),
	MADT(MS_VL_ARB, ",6:61,7:63\n"),
	MADJ(MS_VL_ARB, "entries[{vl=0;weight=1;}{vl=1;weight=3;}"),
	MADT(MS_LFT, "  block 2 first_lid 0x80 ports 0,1,2,3,255,5,"),
	MADT(MS_LFT, ",255,23,24,25,26\n"),
	MADT(MS_MFT, "  block 3 position 1 first_mlid 0xc060"
	     " port_masks 0x8000,0x4001,0x2002,"),
	MADT(MS_MFT, ",0x001e,0x001f\n"),
	MADT(MS_SA_PATH, " class 0x03 (SubnAdm) class_version 2"
	     " method 0x81 (GetResp) status 0x0000 class_specific 0x0000"
	     " tid 0x0000000112345603 attr 0x0035 (PathRecord)"
	     " attr_mod 0x00000000\n"
	     "  sm_key 0x00000000abcdef01 attr_offset 8"
	     " component_mask 0x0000000000003030\n"
	     "  service_id 0x1000000000000001 dgid fe80::2:c903:0:1235"
	     " sgid fe80::2:c903:0:1234\n"
	     "  dlid 0x12 slid 0x34 raw_traffic 1 flow_label 0x12345"
	     " hop_limit 64 tclass 40 reversible 1 numb_path 5 p_key 0xffff"
	     " qos_class 0xabc sl 5\n"
	     "  mtu_selector 2 mtu 4 rate_selector 1 rate 6"
	     " packet_life_time_selector 3 packet_life_time 18"
	     " preference 7\n"),
	MADT(MS_SA_PATH_TABLE, "  rmpp_version 1 rmpp_type 1 r_resp_time 18"
	     " rmpp_flags 0x7 rmpp_status 0 rmpp_data1 1 rmpp_data2 148"
	     " sm_key 0x0000000000000000 attr_offset 8"
	     " component_mask 0x0000000000000000\n"
	     "  record 0\n  service_id 0x1000000000000001"),
	MADT(MS_SA_PATH_TABLE, "  record 1\n  service_id 0x1000000000000002"
	     " dgid fe80::2:c903:0:1236"),
	MADJ(MS_SA_PATH_TABLE, "attr{records[{service_id=0x1000000000000001;"),
	MADJ(MS_SA_PATH_TABLE, "preference=7;}{service_id=0x1000000000000002;"),
	MADJ(MS_SA_PATH_TABLE, "preference=7;}]}"),
	MADT(MS_PMA_CPI, " attr 0x0001 (ClassPortInfo) attr_mod 0x00000000\n"
	     "  base_version 1 class_version 1 capability_mask 0x1600"
	     " cap_mask2 0x123 resp_time_value 18\n"
	     "  redirect_gid fe80::2:c903:0:42 redirect_tc 64 redirect_sl 3"
	     " redirect_fl 0x54321 redirect_lid 0x42 redirect_p_key 0xffff"
	     " redirect_qp 0x123 redirect_q_key 0x80010000\n"
	     "  trap_gid fe80::2:c903:0:7 trap_tc 32 trap_sl 5"
	     " trap_fl 0x12345 trap_lid 0x7 trap_p_key 0x7fff"
	     " trap_hop_limit 64 trap_qp 0x1 trap_q_key 0x11\n"),
	MADT(MS_PMA_COUNTERS, " attr 0x0012 (PortCounters)"),
	MADT(MS_PMA_COUNTERS, "  port_select 3 counter_select 0x1234"
	     " symbol_error_counter 258 link_error_recovery_counter 3"
	     " link_downed_counter 4 port_rcv_errors 261\n"
	     "  port_rcv_remote_physical_errors 262"
	     " port_rcv_switch_relay_errors 263 port_xmit_discards 264"
	     " port_xmit_constraint_errors 9 port_rcv_constraint_errors 10\n"
	     "  local_link_integrity_errors 11"
	     " excessive_buffer_overrun_errors 12 vl15_dropped 269\n"
	     "  port_xmit_data 268435457 port_rcv_data 268435458"
	     " port_xmit_pkts 268435459 port_rcv_pkts 268435460"
	     " port_xmit_wait 268435461\n"),
	MADT(MS_PMA_COUNTERS_EXT, "  port_select 1 counter_select 0xff\n"
	     "  port_xmit_data 72340172838076673"
	     " port_rcv_data 144680345676153346"),
	MADT(MS_PMA_COUNTERS_EXT,
	     " port_multicast_rcv_pkts 578721382704613384\n"),
	MADT(MS_IBT_CPI, " class 0x30 (Ibtrace)"),
	MADT(MS_IBT_CPI, " attr 0x0001 (ClassPortInfo) attr_mod 0x00000000"
	     " oui 0x001405\n"
	     "  base_version 1 class_version 1 capability_mask 0x1600"),
	MADT(MS_IBT_SROUTE, " attr 0x0010 (SourceRoute) attr_mod 0x00000000"
	     " oui 0x001405\n"
	     "  actual_port 2 hop_count 3 route 1,4,2\n"),
	MADJ(MS_IBT_SROUTE, "oui=5125;}attr{actual_port=2;hop_count=3;"
	     "route[=1;=4;=2;]}"),
	MADT(MS_SM_INFO, " attr 0x0020 (SMInfo)"),
	MADT(MS_OTHER_OUI, " oui 0x0002c9\n"),
	MADT(MS_SA_SEGMENT2, " rmpp_flags 0x1 rmpp_status 0 rmpp_data1 2"),
	MADT(MS_BAD_METHOD, " method 0x7f status"),
	MADJ(MS_BAD_METHOD, "method=127;status=0;"),
	MADT(MS_CM_REQ, " class 0x07 (ComMgt) class_version 1"
	     " method 0x03 (Send) status 0x0000 class_specific 0x0000"),
	MADT(MS_SHORT_PORT_INFO, " attr_mod 0x00000003\n"
	     "  m_key 0x0102030405060708\n"),
	MADT(MS_TINY, " short_len 10\n"),
	MADJ(MS_TINY, "mad{short_len=10;}"),
};
#undef MADT
#undef MADJ

/* The header and attribute of sample @i, into rec; whether decoded. */
static bool mad_print(size_t i, bool json)
{
	const struct mad_sample *s = &mad_samples[i];
	struct ibt ctx = { .json = json };
	uint8_t m[IBT_MAD_SIZE];
	size_t hdr_len;
	bool decoded;

	s->build(m);
	rec_clear();
	ibt_mad_print_hdr(&ctx, m, s->len);
	hdr_len = rec_len;
	decoded = ibt_mad_print_attr(&ctx, m, s->len);
	/* nothing printed when not decoded */
	check(decoded || rec_len == hdr_len, s->name,
	      ": printed while not decoded");
	return decoded;
}

static void test_mad_prints(void)
{
	char what[96];
	size_t i;

	for (i = 0; i < N_ELEM(mad_samples); i++) {
		snprintf(what, sizeof(what), "%s: decoded", mad_samples[i].name);
		check(mad_print(i, false) == mad_samples[i].decoded, what,
		      NULL);
		snprintf(what, sizeof(what), "%s: decoded (json)",
			 mad_samples[i].name);
		check(mad_print(i, true) == mad_samples[i].decoded, what,
		      NULL);
		/* text lines all end: the recorder ends with one */
		mad_print(i, false);
		check(rec_len && rec[rec_len - 1] == '\n', mad_samples[i].name,
		      ": last line not ended");
	}
	for (i = 0; i < N_ELEM(mad_prints); i++) {
		const char *name = mad_samples[mad_prints[i].sample].name;

		mad_print(mad_prints[i].sample, mad_prints[i].json);
		snprintf(what, sizeof(what), "%s%s prints \"%s\"", name,
			 mad_prints[i].json ? " (json)" : "",
			 mad_prints[i].want);
		check(!!strstr(rec, mad_prints[i].want), what, NULL);
		if (!strstr(rec, mad_prints[i].want))
			fprintf(stderr, "  got: %s\n", rec);
	}
}

static void test_mad_hex(void)
{
	static const uint8_t b[20] = {
		0x01, 0x81, 0x01, 0x81, 0x00, 0x00, 0xab, 0xcd, 0xef, 0x10,
		0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xfe, 0xff,
	};
	struct ibt ctx = { 0 };

	rec_clear();
	ibt_mad_print_hex(&ctx, "data", b, sizeof(b));
	check_str("hex dump", rec,
		  "  0000  01 81 01 81 00 00 ab cd ef 10 20 30 40 50 60 70\n"
		  "  0010  80 90 fe ff\n");
	rec_clear();
	ibt_mad_print_hex(&ctx, "data", b, 16);
	check_str("hex dump of 16", rec,
		  "  0000  01 81 01 81 00 00 ab cd ef 10 20 30 40 50 60 70\n");
	rec_clear();
	ibt_mad_print_hex(&ctx, "data", b, 0);
	check_str("hex dump of 0", rec, "");
	ctx.json = true;
	rec_clear();
	ibt_mad_print_hex(&ctx, "data", b, sizeof(b));
	check_str("hex dump (json)", rec,
		  "data=018101810000abcdef102030405060708090feff;");
	rec_clear();
	ibt_mad_print_hex(&ctx, "data", b, 0);
	check_str("hex dump of 0 (json)", rec, "data=;");
}

int main(void)
{
	test_names();
	test_fmts();
	test_num_str();
	test_parses();
	test_u64_hex();
	test_gid();
	test_sroute();
	test_lookup();
	test_pct();
	test_percentile();
	test_sim();
	test_dr_path();
	test_rnr();
	test_mad_names();
	test_mad_parses();
	test_mad_prints();
	test_mad_hex();
	printf("tests/unit: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
