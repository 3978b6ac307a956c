// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pure decoding and number formatting: MAD status, enum names (also of
 * the tracer: node types, agent verdicts, trace results), loss
 * percentage, percentiles, nanoseconds as decimal milli/microseconds.
 * Every name returned here is also a JSON value, so these strings are
 * part of the interface. Unit-tested by tests/unit.c.
 */
#include <stdarg.h>
#include <stdio.h>

#include <linux/ibtrace_sim.h>

#include "ibtracectl.h"

static void cat(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void cat(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	if (*off) {
		n = snprintf(buf + *off, len - *off, ", ");
		*off += n > 0 ? (size_t)n : 0;
		if (*off >= len)
			return;
	}
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	*off += n > 0 ? (size_t)n : 0;
}

/*
 * The start of a string of flags @v into @buf: true when that is all of
 * it, @buf empty if @len is 0 or else @zero when @v is 0; false with
 * @buf "" otherwise (@len > 0).
 */
bool ibt_flags_str_done(uint32_t v, const char *zero, char *buf, size_t len)
{
	if (!len)
		return true;
	buf[0] = '\0';
	if (v)
		return false;
	snprintf(buf, len, "%s", zero);
	return true;
}

/*
 * The IBA MAD status field (13.4.7): bit 0 busy, bit 1 redirect required,
 * bits 2-4 invalid field code, bits 5-7 reserved, bits 8-15 class specific.
 * 0x001c decodes as "invalid value", 0x011d as
 * "busy, invalid value, class-specific 0x01". Always NUL-terminated.
 */
const char *ibt_mad_status_str(uint16_t status, char *buf, size_t len)
{
	static const char *const code_str[8] = {
		[1] = "bad version",
		[2] = "unsupported method",
		[3] = "unsupported method/attribute",
		[7] = "invalid value",
	};
	unsigned int code = (status >> 2) & 0x7;
	size_t off = 0;

	if (ibt_flags_str_done(status, "success", buf, len))
		return buf;
	if (status & 0x0001)
		cat(buf, len, &off, "busy");
	if (status & 0x0002)
		cat(buf, len, &off, "redirect required");
	if (code && code_str[code])
		cat(buf, len, &off, "%s", code_str[code]);
	else if (code)
		cat(buf, len, &off, "reserved code %u", code);
	if (status & 0x00e0)
		cat(buf, len, &off, "reserved bits 0x%02x", status & 0x00e0);
	if (status >> 8)
		cat(buf, len, &off, "class-specific 0x%02x", status >> 8);
	return buf;
}

/*
 * @part of @whole in hundredths of a percent, rounded to nearest, except
 * that a non-zero part never shows as 0% and a partial one never as 100%.
 */
uint32_t ibt_pct_x100(uint32_t part, uint32_t whole)
{
	uint64_t v;

	if (!whole || !part)
		return 0;
	if (part >= whole)
		return 10000;
	v = ((uint64_t)part * 10000 + whole / 2) / whole;
	if (v == 0)
		v = 1;
	if (v == 10000)
		v = 9999;
	return v;
}

/* 2500 -> "25", 50 -> "0.5", 3333 -> "33.33" */
const char *ibt_pct_str(uint32_t x100, char *buf, size_t len)
{
	uint32_t frac = x100 % 100;

	if (!frac)
		snprintf(buf, len, "%u", x100 / 100);
	else if (!(frac % 10))
		snprintf(buf, len, "%u.%u", x100 / 100, frac / 10);
	else
		snprintf(buf, len, "%u.%02u", x100 / 100, frac);
	return buf;
}

/* Nearest-rank percentile of @n ascending values; 0 when @n is 0. */
uint64_t ibt_percentile(const uint64_t *sorted, size_t n, unsigned int pct)
{
	size_t rank;

	if (!n)
		return 0;
	if (pct > 100)
		pct = 100;
	rank = ((uint64_t)n * pct + 99) / 100;
	if (!rank)
		rank = 1;
	return sorted[rank - 1];
}

/*
 * @ns in units of @unit nanoseconds (1000: us, 1000000: ms) with three
 * decimals, rounded to nearest: (123456, 1000000) -> "0.123".
 */
const char *ibt_ns_str(uint64_t ns, uint64_t unit, char *buf, size_t len)
{
	uint64_t q = unit >= 1000 ? unit / 1000 : 1;
	uint64_t v = ns / q + (ns % q >= (q + 1) / 2 && q > 1);

	snprintf(buf, len, "%llu.%03llu", (unsigned long long)(v / 1000),
		 (unsigned long long)(v % 1000));
	return buf;
}

/*
 * Number @a of a table of numbers (@have, @val: by attribute, as the
 * kernel sent them) in decimal, "-" when it was not sent.
 */
const char *ibt_num_str(const bool *have, const uint64_t *val, int a, char *buf,
			size_t len)
{
	if (!have[a])
		return "-";
	snprintf(buf, len, "%llu", (unsigned long long)val[a]);
	return buf;
}

/*
 * @n / @div with one decimal, rounded half up: (4096000, 1000000) "4.1",
 * (1234500000, 1000000) "1234.5"; @n times 10 must fit 64 bits.
 */
const char *ibt_dec1_str(uint64_t n, uint64_t div, char *buf, size_t len)
{
	uint64_t v = (n * 10 + div / 2) / div;

	snprintf(buf, len, "%llu.%llu", (unsigned long long)(v / 10),
		 (unsigned long long)(v % 10));
	return buf;
}

/*
 * A duration for people: below 1 ms in microseconds, below 1 s in
 * milliseconds, both with 2 decimals ("537.04 us", "10.24 ms"), else
 * seconds with 3 ("1.311 s"); rounded half up, "-" before a negative
 * value and, with @plus, "+" before a positive one.
 */
const char *ibt_dur_str(int64_t ns, bool plus, char *buf, size_t len)
{
	uint64_t m = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
	const char *sign = ns < 0 ? "-" : plus && ns > 0 ? "+" : "";
	uint64_t v;

	v = m / 10 + (m % 10 >= 5);			/* 0.01 us */
	if (v < 100000) {
		snprintf(buf, len, "%s%llu.%02llu us", sign,
			 (unsigned long long)(v / 100), (unsigned long long)(v % 100));
		return buf;
	}
	v = m / 10000 + (m % 10000 >= 5000);		/* 0.01 ms */
	if (v < 100000) {
		snprintf(buf, len, "%s%llu.%02llu ms", sign,
			 (unsigned long long)(v / 100), (unsigned long long)(v % 100));
		return buf;
	}
	v = m / 1000000 + (m % 1000000 >= 500000);	/* 0.001 s */
	snprintf(buf, len, "%s%llu.%03llu s", sign,
		 (unsigned long long)(v / 1000), (unsigned long long)(v % 1000));
	return buf;
}

/*
 * Name function @fn: the name of value v in the table of designated
 * initializers that follows, @dflt for a value without one. Every name is
 * also a JSON value: they are part of the interface.
 */
#define IBT_NAMES(fn, dflt, ...)					\
const char *fn(unsigned int v)						\
{									\
	static const char *const names[] = { __VA_ARGS__ };		\
									\
	return v < sizeof(names) / sizeof(names[0]) && names[v] ?	\
	       names[v] : (dflt);					\
}

IBT_NAMES(ibt_link_layer_str, "unknown",
	[IBTRACE_LINK_LAYER_IB]			= "infiniband",
	[IBTRACE_LINK_LAYER_ETH]		= "ethernet")

IBT_NAMES(ibt_port_state_str, "UNKNOWN",
	[IBTRACE_PORT_STATE_NOP]		= "NOP",
	[IBTRACE_PORT_STATE_DOWN]		= "DOWN",
	[IBTRACE_PORT_STATE_INIT]		= "INIT",
	[IBTRACE_PORT_STATE_ARMED]		= "ARMED",
	[IBTRACE_PORT_STATE_ACTIVE]		= "ACTIVE",
	[IBTRACE_PORT_STATE_ACTIVE_DEFER]	= "ACTIVE_DEFER")

IBT_NAMES(ibt_probe_status_str, "unknown",
	[IBTRACE_PROBE_OK]			= "ok",
	[IBTRACE_PROBE_TIMEOUT]			= "timeout",
	[IBTRACE_PROBE_REMOTE_ERROR]		= "remote_error",
	[IBTRACE_PROBE_SEND_ERROR]		= "send_error",
	[IBTRACE_PROBE_SENT]			= "sent")

/* An ibtrace_sim node type: "ca", "switch" or "unknown". */
IBT_NAMES(ibt_sim_node_type_str, "unknown",
	[IBTRACE_SIM_NODE_CA]			= "ca",
	[IBTRACE_SIM_NODE_SWITCH]		= "switch")

/* An IBA node type (enum ibtrace_node_type): "ca", "switch", "router". */
IBT_NAMES(ibt_node_type_str, "unknown",
	[IBTRACE_NODE_CA]			= "ca",
	[IBTRACE_NODE_SWITCH]			= "switch",
	[IBTRACE_NODE_ROUTER]			= "router")

/* A trace hop's agent verdict (enum ibtrace_hop_agent). */
IBT_NAMES(ibt_hop_agent_str, "unknown",
	[IBTRACE_HOP_AGENT_LOCAL]		= "local",
	[IBTRACE_HOP_AGENT_VERIFIED]		= "verified",
	[IBTRACE_HOP_AGENT_MISMATCH]		= "mismatch",
	[IBTRACE_HOP_AGENT_NONE]		= "no_agent",
	[IBTRACE_HOP_AGENT_FAILED]		= "failed",
	[IBTRACE_HOP_AGENT_UNASKED]		= "unasked")

/*
 * How a trace ended (enum ibtrace_trace_status), as the JSON "result":
 * the no-route statuses (also "not in the MLID's tree") are all "no_route".
 */
IBT_NAMES(ibt_trace_status_str, "unknown",
	[IBTRACE_TRACE_OK]			= "ok",
	[IBTRACE_TRACE_NO_ROUTE_UNSET]		= "no_route",
	[IBTRACE_TRACE_NO_ROUTE_TOP]		= "no_route",
	[IBTRACE_TRACE_NO_ROUTE_PORT]		= "no_route",
	[IBTRACE_TRACE_DEAD_END]		= "no_route",
	[IBTRACE_TRACE_PORT_DOWN]		= "port_down",
	[IBTRACE_TRACE_TOO_MANY_HOPS]		= "too_many_hops",
	[IBTRACE_TRACE_LOOP]			= "loop",
	[IBTRACE_TRACE_UNRESPONSIVE]		= "unresponsive",
	[IBTRACE_TRACE_SMP_ERROR]		= "smp_error",
	[IBTRACE_TRACE_SA_FAILED]		= "sa_failed",
	[IBTRACE_TRACE_DEV_GONE]		= "dev_gone",
	[IBTRACE_TRACE_NOT_IN_TREE]		= "no_route")

/* A kind of object of the limit test (enum ibtrace_limit_object). */
IBT_NAMES(ibt_limit_object_str, "?",
	[IBTRACE_LIMIT_PD]			= "pd",
	[IBTRACE_LIMIT_CQ]			= "cq",
	[IBTRACE_LIMIT_QP]			= "qp",
	[IBTRACE_LIMIT_MR]			= "mr",
	[IBTRACE_LIMIT_RPOST]			= "rpost",
	[IBTRACE_LIMIT_SIZE_MR]			= "size_mr",
	[IBTRACE_LIMIT_AH]			= "ah",
	[IBTRACE_LIMIT_SRQ]			= "srq")

/* What ended a count of the limit test (enum ibtrace_limit_end), as in JSON. */
IBT_NAMES(ibt_limit_end_str, "?",
	[IBTRACE_LIMIT_END_DEVICE]		= "device",
	[IBTRACE_LIMIT_END_MAX]			= "max",
	[IBTRACE_LIMIT_END_BUDGET]		= "budget",
	[IBTRACE_LIMIT_END_HOST_MEMORY]		= "host_memory",
	[IBTRACE_LIMIT_END_STOPPED]		= "stopped",
	[IBTRACE_LIMIT_END_SETUP]		= "setup")

/* A test job's state (enum ibtrace_test_state). */
IBT_NAMES(ibt_test_state_str, "unknown",
	[IBTRACE_TEST_STATE_RUNNING]		= "running",
	[IBTRACE_TEST_STATE_FINISHED]		= "finished")

/* A test verdict (enum ibtrace_test_verdict), as the JSON "verdict". */
IBT_NAMES(ibt_test_verdict_str, "unknown",
	[IBTRACE_TEST_VERDICT_NONE]		= "none",
	[IBTRACE_TEST_VERDICT_PASS]		= "pass",
	[IBTRACE_TEST_VERDICT_FAIL]		= "fail",
	[IBTRACE_TEST_VERDICT_NOT_APPLICABLE]	= "not_applicable",
	[IBTRACE_TEST_VERDICT_ERROR]		= "error")

/* What became of the DUT state (enum ibtrace_test_restore). */
IBT_NAMES(ibt_test_restore_str, "unknown",
	[IBTRACE_TEST_RESTORE_NONE]		= "none",
	[IBTRACE_TEST_RESTORE_VERIFIED]		= "verified",
	[IBTRACE_TEST_RESTORE_FAILED]		= "failed",
	[IBTRACE_TEST_RESTORE_IMPOSSIBLE]	= "impossible")

/* An assertion's outcome (enum ibtrace_assert_result), as in JSON. */
IBT_NAMES(ibt_assert_result_str, "unknown",
	[IBTRACE_ASSERT_NOT_RUN]		= "not_run",
	[IBTRACE_ASSERT_PASS]			= "pass",
	[IBTRACE_ASSERT_FAIL]			= "fail",
	[IBTRACE_ASSERT_NOT_APPLICABLE]		= "not_applicable")

/* How a test's MAD exchange ended (enum ibtrace_xchg_outcome). */
IBT_NAMES(ibt_xchg_outcome_str, "unknown",
	[IBTRACE_XCHG_ANSWERED]			= "answered",
	[IBTRACE_XCHG_TIMEOUT]			= "timeout",
	[IBTRACE_XCHG_SEND_ERROR]		= "send_error")

/* Why a test made an exchange (enum ibtrace_xchg_phase). */
IBT_NAMES(ibt_xchg_phase_str, "unknown",
	[IBTRACE_XCHG_PHASE_PROBE]		= "probe",
	[IBTRACE_XCHG_PHASE_SAVE]		= "save",
	[IBTRACE_XCHG_PHASE_TEST]		= "test",
	[IBTRACE_XCHG_PHASE_RESTORE]		= "restore")

/* An SMP method (IBA 13.4.5): "Get", "Set", "GetResp", ... */
IBT_NAMES(ibt_mad_method_str, "unknown",
	[0x01]					= "Get",
	[0x02]					= "Set",
	[0x05]					= "Trap",
	[0x07]					= "TrapRepress",
	[0x81]					= "GetResp")

/* An SMP attribute ID (IBA 14.2.5): "NodeInfo", "GUIDInfo", ... */
IBT_NAMES(ibt_smp_attr_str, "unknown",
	[0x0010]				= "NodeDescription",
	[0x0011]				= "NodeInfo",
	[0x0012]				= "SwitchInfo",
	[0x0014]				= "GUIDInfo",
	[0x0015]				= "PortInfo",
	[0x0016]				= "P_KeyTable",
	[0x0019]				= "LinearForwardingTable")

/* How the RNR test waits for completions (enum ibtrace_test_poll). */
IBT_NAMES(ibt_test_poll_str, "unknown",
	[IBTRACE_TEST_POLL_BUSY]		= "busy",
	[IBTRACE_TEST_POLL_EVENT]		= "event")

/* Whether the RNR test saw the wire (enum ibtrace_rnr_wire), as in JSON. */
IBT_NAMES(ibt_rnr_wire_str, "unknown",
	[IBTRACE_RNR_WIRE_NOT_VISIBLE]		= "not_visible",
	[IBTRACE_RNR_WIRE_TAPPED]		= "tapped")

/* The operation of the perf test (enum ibtrace_perf_op), dapltest's word. */
IBT_NAMES(ibt_perf_op_str, "?",
	[IBTRACE_PERF_OP_RDMA_READ]		= "RR",
	[IBTRACE_PERF_OP_RDMA_WRITE]		= "RW")

/* The side of a transaction test's operation (enum ibtrace_txn_who). */
IBT_NAMES(ibt_txn_who_str, "?",
	[IBTRACE_TXN_CLIENT]			= "client",
	[IBTRACE_TXN_SERVER]			= "server")

/* What a transaction test's operation does (enum ibtrace_txn_type). */
IBT_NAMES(ibt_txn_type_str, "?",
	[IBTRACE_TXN_SR]			= "SR",
	[IBTRACE_TXN_RR]			= "RR",
	[IBTRACE_TXN_RW]			= "RW")
