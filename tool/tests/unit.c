// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the pure functions in parse.c and fmt.c (not the "test"
 * object, which is test.c). Run by "make test" (make check runs it too);
 * exit status 0 when every check passes.
 *
 * Most checks are rows of tables, one table for each kind of function:
 * names of values, formatters into a buffer, parsers into a u32, ...
 */
#include <stdio.h>
#include <string.h>

#include "ibtracectl.h"

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
	NAME(ibt_probe_status_str, 4, "unknown"),
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

int main(void)
{
	test_names();
	test_fmts();
	test_num_str();
	test_parses();
	test_gid();
	test_sroute();
	test_lookup();
	test_pct();
	test_percentile();
	test_sim();
	test_dr_path();
	test_rnr();
	printf("tests/unit: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
