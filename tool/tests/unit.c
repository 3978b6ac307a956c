// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the pure functions in parse.c and fmt.c (not the "test"
 * object, which is test.c). Run by "make test" (make check runs it too);
 * exit status 0 when every check passes.
 */
#include <stdio.h>
#include <string.h>

#include "ibtracectl.h"

static int failures, checks;

#define CHECK(cond) do {						\
	checks++;							\
	if (!(cond)) {							\
		failures++;						\
		fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); \
	}								\
} while (0)

#define CHECK_STR(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	checks++;							\
	if (strcmp(g_, w_)) {						\
		failures++;						\
		fprintf(stderr, "%s:%d: FAIL: %s is \"%s\", want \"%s\"\n", \
			__FILE__, __LINE__, #got, g_, w_);		\
	}								\
} while (0)

/* Stubs: the dispatch tables only need function pointers. */
static int fn_a(struct ibt *ctx) { (void)ctx; return 0; }

static void test_u32(void)
{
	uint32_t v = 77;

	CHECK(!ibt_parse_u32("0", 0, 10, &v) && v == 0);
	CHECK(!ibt_parse_u32("10", 0, 10, &v) && v == 10);
	CHECK(!ibt_parse_u32("010", 0, 100, &v) && v == 10);	/* not octal */
	CHECK(!ibt_parse_u32("0x1f", 0, 100, &v) && v == 31);
	CHECK(!ibt_parse_u32("0X1F", 0, 100, &v) && v == 31);
	CHECK(!ibt_parse_u32("4294967295", 0, UINT32_MAX, &v) && v == UINT32_MAX);
	v = 77;
	CHECK(ibt_parse_u32("4294967296", 0, UINT32_MAX, &v) && v == 77);
	CHECK(ibt_parse_u32("99999999999999999999999", 0, UINT32_MAX, &v));
	CHECK(ibt_parse_u32("0x100000000", 0, UINT32_MAX, &v));
	CHECK(ibt_parse_u32("11", 0, 10, &v) && v == 77);
	CHECK(ibt_parse_u32("0", 1, 10, &v));
	CHECK(ibt_parse_u32("", 0, 10, &v));
	CHECK(ibt_parse_u32(NULL, 0, 10, &v));
	CHECK(ibt_parse_u32("0x", 0, 10, &v));
	CHECK(ibt_parse_u32("-1", 0, 10, &v));
	CHECK(ibt_parse_u32("+1", 0, 10, &v));
	CHECK(ibt_parse_u32(" 1", 0, 10, &v));
	CHECK(ibt_parse_u32("1 ", 0, 10, &v));
	CHECK(ibt_parse_u32("1a", 0, 100, &v));
	CHECK(ibt_parse_u32("0xg", 0, 100, &v));
	CHECK(ibt_parse_u32("1e3", 0, 10000, &v));
	CHECK(v == 77);
}

static void test_lid(void)
{
	uint32_t lid = 0;

	CHECK(!ibt_parse_lid("1", &lid) && lid == 1);
	CHECK(!ibt_parse_lid("0x12", &lid) && lid == 0x12);
	CHECK(!ibt_parse_lid("0xbfff", &lid) && lid == 0xbfff);
	CHECK(!ibt_parse_lid("49151", &lid) && lid == 49151);
	CHECK(ibt_parse_lid("0", &lid));
	CHECK(ibt_parse_lid("0x0", &lid));
	CHECK(ibt_parse_lid("0xc000", &lid));
	CHECK(ibt_parse_lid("49152", &lid));
	CHECK(ibt_parse_lid("0xffff", &lid));
	CHECK(ibt_parse_lid("lid", &lid));
	CHECK(lid == 49151);
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

static void test_mad_status(void)
{
	char b[128], tiny[8];

	CHECK_STR(ibt_mad_status_str(0x0000, b, sizeof(b)), "success");
	CHECK_STR(ibt_mad_status_str(0x0001, b, sizeof(b)), "busy");
	CHECK_STR(ibt_mad_status_str(0x0002, b, sizeof(b)), "redirect required");
	CHECK_STR(ibt_mad_status_str(0x0004, b, sizeof(b)), "bad version");
	CHECK_STR(ibt_mad_status_str(0x0008, b, sizeof(b)), "unsupported method");
	CHECK_STR(ibt_mad_status_str(0x000c, b, sizeof(b)),
		  "unsupported method/attribute");
	CHECK_STR(ibt_mad_status_str(0x001c, b, sizeof(b)), "invalid value");
	CHECK_STR(ibt_mad_status_str(0x0010, b, sizeof(b)), "reserved code 4");
	CHECK_STR(ibt_mad_status_str(0x0014, b, sizeof(b)), "reserved code 5");
	CHECK_STR(ibt_mad_status_str(0x0018, b, sizeof(b)), "reserved code 6");
	CHECK_STR(ibt_mad_status_str(0x0020, b, sizeof(b)), "reserved bits 0x20");
	CHECK_STR(ibt_mad_status_str(0x1200, b, sizeof(b)), "class-specific 0x12");
	CHECK_STR(ibt_mad_status_str(0x011d, b, sizeof(b)),
		  "busy, invalid value, class-specific 0x01");
	CHECK_STR(ibt_mad_status_str(0xffff, b, sizeof(b)),
		  "busy, redirect required, invalid value, reserved bits 0xe0, class-specific 0xff");
	/* truncation stays NUL-terminated */
	CHECK_STR(ibt_mad_status_str(0x011d, tiny, sizeof(tiny)), "busy, i");
	CHECK_STR(ibt_mad_status_str(0x000c, tiny, sizeof(tiny)), "unsuppo");
	CHECK(ibt_mad_status_str(0x000c, tiny, 0) == tiny);
}

static void test_names(void)
{
	CHECK_STR(ibt_link_layer_str(IBTRACE_LINK_LAYER_IB), "infiniband");
	CHECK_STR(ibt_link_layer_str(IBTRACE_LINK_LAYER_ETH), "ethernet");
	CHECK_STR(ibt_link_layer_str(IBTRACE_LINK_LAYER_UNSPEC), "unknown");
	CHECK_STR(ibt_link_layer_str(9), "unknown");
	CHECK_STR(ibt_port_state_str(IBTRACE_PORT_STATE_NOP), "NOP");
	CHECK_STR(ibt_port_state_str(IBTRACE_PORT_STATE_DOWN), "DOWN");
	CHECK_STR(ibt_port_state_str(IBTRACE_PORT_STATE_INIT), "INIT");
	CHECK_STR(ibt_port_state_str(IBTRACE_PORT_STATE_ARMED), "ARMED");
	CHECK_STR(ibt_port_state_str(IBTRACE_PORT_STATE_ACTIVE), "ACTIVE");
	CHECK_STR(ibt_port_state_str(IBTRACE_PORT_STATE_ACTIVE_DEFER), "ACTIVE_DEFER");
	CHECK_STR(ibt_port_state_str(6), "UNKNOWN");
	CHECK_STR(ibt_probe_status_str(IBTRACE_PROBE_OK), "ok");
	CHECK_STR(ibt_probe_status_str(IBTRACE_PROBE_TIMEOUT), "timeout");
	CHECK_STR(ibt_probe_status_str(IBTRACE_PROBE_REMOTE_ERROR), "remote_error");
	CHECK_STR(ibt_probe_status_str(IBTRACE_PROBE_SEND_ERROR), "send_error");
	CHECK_STR(ibt_probe_status_str(200), "unknown");
}

static void test_pct(void)
{
	char b[16];

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
	CHECK_STR(ibt_pct_str(0, b, sizeof(b)), "0");
	CHECK_STR(ibt_pct_str(2500, b, sizeof(b)), "25");
	CHECK_STR(ibt_pct_str(10000, b, sizeof(b)), "100");
	CHECK_STR(ibt_pct_str(50, b, sizeof(b)), "0.5");
	CHECK_STR(ibt_pct_str(3333, b, sizeof(b)), "33.33");
	CHECK_STR(ibt_pct_str(6667, b, sizeof(b)), "66.67");
	CHECK_STR(ibt_pct_str(1, b, sizeof(b)), "0.01");
	CHECK_STR(ibt_pct_str(1210, b, sizeof(b)), "12.1");
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

static void test_ns(void)
{
	char b[32];

	CHECK_STR(ibt_ns_str(123456, 1000000, b, sizeof(b)), "0.123");
	CHECK_STR(ibt_ns_str(123500, 1000000, b, sizeof(b)), "0.124");
	CHECK_STR(ibt_ns_str(0, 1000000, b, sizeof(b)), "0.000");
	CHECK_STR(ibt_ns_str(1999999, 1000000, b, sizeof(b)), "2.000");
	CHECK_STR(ibt_ns_str(123456, 1000, b, sizeof(b)), "123.456");
	CHECK_STR(ibt_ns_str(7, 1000, b, sizeof(b)), "0.007");
	CHECK_STR(ibt_ns_str(UINT64_MAX, 1000, b, sizeof(b)),
		  "18446744073709551.615");
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
	CHECK_STR(ibt_sim_node_type_str(1), "ca");
	CHECK_STR(ibt_sim_node_type_str(2), "switch");
	CHECK_STR(ibt_sim_node_type_str(0), "unknown");
	CHECK_STR(ibt_sim_node_type_str(3), "unknown");
}

static void test_knobs(void)
{
	uint32_t v = 77;
	char b[64];

	CHECK(!ibt_parse_pct_ppm("30", &v) && v == 300000);
	CHECK(!ibt_parse_pct_ppm("30%", &v) && v == 300000);
	CHECK(!ibt_parse_pct_ppm("0", &v) && v == 0);
	CHECK(!ibt_parse_pct_ppm("100", &v) && v == 1000000);
	CHECK(!ibt_parse_pct_ppm("100.0", &v) && v == 1000000);
	CHECK(!ibt_parse_pct_ppm("0.5", &v) && v == 5000);
	CHECK(!ibt_parse_pct_ppm("0.0001", &v) && v == 1);
	CHECK(!ibt_parse_pct_ppm("12.34%", &v) && v == 123400);
	v = 77;
	CHECK(ibt_parse_pct_ppm("100.01", &v) && v == 77);
	CHECK(ibt_parse_pct_ppm("101", &v) && v == 77);
	CHECK(ibt_parse_pct_ppm("0.00001", &v));
	CHECK(ibt_parse_pct_ppm("", &v));
	CHECK(ibt_parse_pct_ppm(NULL, &v));
	CHECK(ibt_parse_pct_ppm("%", &v));
	CHECK(ibt_parse_pct_ppm(".5", &v));
	CHECK(ibt_parse_pct_ppm("5.", &v));
	CHECK(ibt_parse_pct_ppm("-1", &v));
	CHECK(ibt_parse_pct_ppm("1.2.3", &v));
	CHECK(ibt_parse_pct_ppm("5%%", &v));
	CHECK(ibt_parse_pct_ppm("5%x", &v));
	CHECK(ibt_parse_pct_ppm("0005", &v) && v == 77);

	CHECK(!ibt_parse_guid_quirks("none", &v) && v == 0);
	CHECK(!ibt_parse_guid_quirks("entry0-writable", &v) && v == 1);
	CHECK(!ibt_parse_guid_quirks("above-cap-nonzero,past-table-status", &v) &&
	      v == 6);
	CHECK(!ibt_parse_guid_quirks("entry0-writable,past-table-status,above-cap-nonzero",
				     &v) && v == 7);
	v = 77;
	CHECK(ibt_parse_guid_quirks("", &v) && v == 77);
	CHECK(ibt_parse_guid_quirks("entry0", &v));
	CHECK(ibt_parse_guid_quirks("entry0-writable,", &v));
	CHECK(ibt_parse_guid_quirks(",entry0-writable", &v));
	CHECK(ibt_parse_guid_quirks("none,entry0-writable", &v) && v == 77);

	CHECK_STR(ibt_guid_quirks_str(0, b, sizeof(b)), "none");
	CHECK_STR(ibt_guid_quirks_str(5, b, sizeof(b)),
		  "entry0-writable,above-cap-nonzero");
	CHECK_STR(ibt_guid_quirks_str(0x12, b, sizeof(b)),
		  "past-table-status,0x10");
	CHECK_STR(ibt_ppm_pct_str(300000, b, sizeof(b)), "30");
	CHECK_STR(ibt_ppm_pct_str(5000, b, sizeof(b)), "0.5");
	CHECK_STR(ibt_ppm_pct_str(1, b, sizeof(b)), "0.0001");
	CHECK_STR(ibt_ppm_pct_str(1000000, b, sizeof(b)), "100");
	CHECK_STR(ibt_ppm_pct_str(123450, b, sizeof(b)), "12.345");
}

static void test_dr_path(void)
{
	uint8_t p[IBTRACE_TRACE_MAX_HOPS] = { 0 };
	char in[4 * IBTRACE_TRACE_MAX_HOPS + 8], b[4 * IBTRACE_TRACE_MAX_HOPS];
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

	p[0] = 1;
	p[1] = 3;
	p[2] = 255;
	CHECK_STR(ibt_dr_path_str(p, 3, b, sizeof(b)), "1,3,255");
	CHECK_STR(ibt_dr_path_str(p, 1, b, sizeof(b)), "1");
	CHECK_STR(ibt_dr_path_str(p, 0, b, sizeof(b)), "");
	CHECK_STR(ibt_dr_path_str(p, 3, b, 4), "1,3");		/* truncated */
}

static void test_test_names(void)
{
	CHECK_STR(ibt_test_state_str(IBTRACE_TEST_STATE_RUNNING), "running");
	CHECK_STR(ibt_test_state_str(IBTRACE_TEST_STATE_FINISHED), "finished");
	CHECK_STR(ibt_test_state_str(0), "unknown");
	CHECK_STR(ibt_test_state_str(99), "unknown");
	CHECK_STR(ibt_test_verdict_str(IBTRACE_TEST_VERDICT_NONE), "none");
	CHECK_STR(ibt_test_verdict_str(IBTRACE_TEST_VERDICT_PASS), "pass");
	CHECK_STR(ibt_test_verdict_str(IBTRACE_TEST_VERDICT_FAIL), "fail");
	CHECK_STR(ibt_test_verdict_str(IBTRACE_TEST_VERDICT_NOT_APPLICABLE),
		  "not_applicable");
	CHECK_STR(ibt_test_verdict_str(IBTRACE_TEST_VERDICT_ERROR), "error");
	CHECK_STR(ibt_test_verdict_str(5), "unknown");
	CHECK_STR(ibt_test_restore_str(IBTRACE_TEST_RESTORE_NONE), "none");
	CHECK_STR(ibt_test_restore_str(IBTRACE_TEST_RESTORE_VERIFIED), "verified");
	CHECK_STR(ibt_test_restore_str(IBTRACE_TEST_RESTORE_FAILED), "failed");
	CHECK_STR(ibt_test_restore_str(IBTRACE_TEST_RESTORE_IMPOSSIBLE), "impossible");
	CHECK_STR(ibt_test_restore_str(4), "unknown");
	CHECK_STR(ibt_assert_result_str(IBTRACE_ASSERT_NOT_RUN), "not_run");
	CHECK_STR(ibt_assert_result_str(IBTRACE_ASSERT_PASS), "pass");
	CHECK_STR(ibt_assert_result_str(IBTRACE_ASSERT_FAIL), "fail");
	CHECK_STR(ibt_assert_result_str(IBTRACE_ASSERT_NOT_APPLICABLE), "not_applicable");
	CHECK_STR(ibt_assert_result_str(4), "unknown");
	CHECK_STR(ibt_xchg_outcome_str(IBTRACE_XCHG_ANSWERED), "answered");
	CHECK_STR(ibt_xchg_outcome_str(IBTRACE_XCHG_TIMEOUT), "timeout");
	CHECK_STR(ibt_xchg_outcome_str(IBTRACE_XCHG_SEND_ERROR), "send_error");
	CHECK_STR(ibt_xchg_outcome_str(3), "unknown");
	CHECK_STR(ibt_xchg_phase_str(IBTRACE_XCHG_PHASE_PROBE), "probe");
	CHECK_STR(ibt_xchg_phase_str(IBTRACE_XCHG_PHASE_SAVE), "save");
	CHECK_STR(ibt_xchg_phase_str(IBTRACE_XCHG_PHASE_TEST), "test");
	CHECK_STR(ibt_xchg_phase_str(IBTRACE_XCHG_PHASE_RESTORE), "restore");
	CHECK_STR(ibt_xchg_phase_str(4), "unknown");
	CHECK_STR(ibt_mad_method_str(0x01), "Get");
	CHECK_STR(ibt_mad_method_str(0x02), "Set");
	CHECK_STR(ibt_mad_method_str(0x81), "GetResp");
	CHECK_STR(ibt_mad_method_str(0x42), "unknown");
	CHECK_STR(ibt_smp_attr_str(0x0014), "GUIDInfo");
	CHECK_STR(ibt_smp_attr_str(0x0011), "NodeInfo");
	CHECK_STR(ibt_smp_attr_str(0x0015), "PortInfo");
	CHECK_STR(ibt_smp_attr_str(0xff00), "unknown");
}

static void test_rnr(void)
{
	uint32_t code = 77, poll = 77;
	bool all = true;
	char b[32];

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
	CHECK(!ibt_parse_test_poll("busy", &poll) && poll == IBTRACE_TEST_POLL_BUSY);
	CHECK(!ibt_parse_test_poll("event", &poll) && poll == IBTRACE_TEST_POLL_EVENT);
	CHECK(ibt_parse_test_poll("ev", &poll) && poll == IBTRACE_TEST_POLL_EVENT);
	CHECK(ibt_parse_test_poll("", &poll));
	CHECK(ibt_parse_test_poll(NULL, &poll));
	CHECK_STR(ibt_test_poll_str(IBTRACE_TEST_POLL_BUSY), "busy");
	CHECK_STR(ibt_test_poll_str(IBTRACE_TEST_POLL_EVENT), "event");
	CHECK_STR(ibt_test_poll_str(2), "unknown");
	CHECK_STR(ibt_rnr_wire_str(IBTRACE_RNR_WIRE_NOT_VISIBLE), "not_visible");
	CHECK_STR(ibt_rnr_wire_str(IBTRACE_RNR_WIRE_TAPPED), "tapped");
	CHECK_STR(ibt_rnr_wire_str(2), "unknown");

	CHECK_STR(ibt_dur_str(0, false, b, sizeof(b)), "0.00 us");
	CHECK_STR(ibt_dur_str(0, true, b, sizeof(b)), "0.00 us");
	CHECK_STR(ibt_dur_str(4, false, b, sizeof(b)), "0.00 us");
	CHECK_STR(ibt_dur_str(5, false, b, sizeof(b)), "0.01 us");
	CHECK_STR(ibt_dur_str(10000, false, b, sizeof(b)), "10.00 us");
	CHECK_STR(ibt_dur_str(537044, false, b, sizeof(b)), "537.04 us");
	CHECK_STR(ibt_dur_str(999994, false, b, sizeof(b)), "999.99 us");
	CHECK_STR(ibt_dur_str(999995, false, b, sizeof(b)), "1.00 ms");
	CHECK_STR(ibt_dur_str(10240000, false, b, sizeof(b)), "10.24 ms");
	CHECK_STR(ibt_dur_str(655360000, false, b, sizeof(b)), "655.36 ms");
	CHECK_STR(ibt_dur_str(999994999, false, b, sizeof(b)), "999.99 ms");
	CHECK_STR(ibt_dur_str(999995000, false, b, sizeof(b)), "1.000 s");
	CHECK_STR(ibt_dur_str(1310720000, false, b, sizeof(b)), "1.311 s");
	CHECK_STR(ibt_dur_str(3789100, true, b, sizeof(b)), "+3.79 ms");
	CHECK_STR(ibt_dur_str(-120000, true, b, sizeof(b)), "-120.00 us");
	CHECK_STR(ibt_dur_str(-120000, false, b, sizeof(b)), "-120.00 us");
	CHECK_STR(ibt_dur_str(INT64_MIN, false, b, sizeof(b)),
		  "-9223372036.855 s");
	CHECK_STR(ibt_dur_str(INT64_MAX, true, b, sizeof(b)),
		  "+9223372036.855 s");
}

int main(void)
{
	test_u32();
	test_lid();
	test_gid();
	test_sroute();
	test_lookup();
	test_mad_status();
	test_names();
	test_pct();
	test_percentile();
	test_ns();
	test_sim();
	test_knobs();
	test_dr_path();
	test_test_names();
	test_rnr();
	printf("tests/unit: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
