// SPDX-License-Identifier: GPL-2.0-only
/*
 * test object: presentation. A job's result as text or JSON (the formats
 * are described at the top of test.c and in ibtracectl(8)), the lines of
 * "test list" and "test show", and the exit code a result stands for.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "ibtracectl.h"
#include "test.h"

static const char *assert_label(const struct assertion *a)
{
	switch (a->have_result ? a->result : IBTRACE_ASSERT_NOT_RUN) {
	case IBTRACE_ASSERT_PASS:
		return "PASS";
	case IBTRACE_ASSERT_FAIL:
		return "FAIL";
	case IBTRACE_ASSERT_NOT_APPLICABLE:
		return "N/A";
	default:
		return "NOT RUN";
	}
}

static const char *guid_str(uint64_t g, char *buf, size_t len)
{
	snprintf(buf, len, "0x%016" PRIx64, g);
	return buf;
}

/*
 * "ibtsim0/1 dr 1,2,3 port 0": the local port, then how the test reached
 * the DUT (the framework's SMP addressing unless the test says, e.g. the
 * RNR test's "rxe0/1 loopback" or "rxe0/1 peer fe80::5054:ff:fe1b:2 port
 * 7471"), then the DUT's port, unless the test's text says it all.
 */
static void dut_text(const struct result *r, char *buf, size_t len)
{
	const struct ibt_test_def *def = test_def_of(r);
	char path[IBTRACE_TRACE_MAX_HOPS * 4];
	size_t off;

	snprintf(buf, len, "%s/%" PRIu64, r->dev[0] ? r->dev : "?",
		 test_rval(r, IBTRACE_A_PORT));
	off = strlen(buf);
	if (def && def->dut_text) {
		if (!def->dut_text(r, buf, len))
			return;
	} else if (r->ndr)
		snprintf(buf + off, len - off, " dr %s",
			 ibt_dr_path_str(r->dr, r->ndr, path, sizeof(path)));
	else if (r->have[IBTRACE_A_TEST_LID])
		snprintf(buf + off, len - off, " lid %" PRIu64,
			 test_rval(r, IBTRACE_A_TEST_LID));
	else
		snprintf(buf + off, len - off, " local");
	off = strlen(buf);
	if (r->have[IBTRACE_A_TEST_DUT_PORT] && off < len)
		snprintf(buf + off, len - off, " port %" PRIu64,
			 test_rval(r, IBTRACE_A_TEST_DUT_PORT));
}

static void assert_text(const struct assertion *a)
{
	printf("%-7s  %s  %s\n", assert_label(a), a->id, a->desc);
	if (a->have_result && a->result == IBTRACE_ASSERT_FAIL)
		printf("%9sexpected %s observed %s at %s\n", "",
		       a->expected[0] ? a->expected : "?",
		       a->observed[0] ? a->observed : "?",
		       a->where[0] ? a->where : "?");
	fflush(stdout);
}

struct rtt_stats {
	uint64_t n, min, max, sum;
};

static struct rtt_stats rtt_stats(const struct result *r)
{
	struct rtt_stats s = { 0 };
	size_t i;

	for (i = 0; i < r->nxchgs; i++) {
		const struct xchg *x = &r->xchgs[i];
		uint64_t v = x->val[IBTRACE_XCHG_A_RTT_NS];

		if (!x->have[IBTRACE_XCHG_A_RTT_NS] ||
		    x->val[IBTRACE_XCHG_A_OUTCOME] != IBTRACE_XCHG_ANSWERED)
			continue;
		if (!s.n || v < s.min)
			s.min = v;
		if (v > s.max)
			s.max = v;
		s.sum += v;
		s.n++;
	}
	return s;
}

static void xchg_text(const struct xchg *x)
{
	char b[32];

	printf("  xchg %" PRIu64 " %s %s %s(0x%04" PRIx64 ") mod 0x%" PRIx64 " %s",
	       x->val[IBTRACE_XCHG_A_SEQ],
	       ibt_xchg_phase_str(x->val[IBTRACE_XCHG_A_PHASE]),
	       ibt_mad_method_str(x->val[IBTRACE_XCHG_A_METHOD]),
	       ibt_smp_attr_str(x->val[IBTRACE_XCHG_A_ATTR_ID]),
	       x->val[IBTRACE_XCHG_A_ATTR_ID], x->val[IBTRACE_XCHG_A_ATTR_MOD],
	       ibt_xchg_outcome_str(x->val[IBTRACE_XCHG_A_OUTCOME]));
	if (x->have[IBTRACE_XCHG_A_STATUS])
		printf(" status 0x%04" PRIx64, x->val[IBTRACE_XCHG_A_STATUS]);
	if (x->have[IBTRACE_XCHG_A_RTT_NS])
		printf(" rtt %s us",
		       ibt_ns_str(x->val[IBTRACE_XCHG_A_RTT_NS], 1000, b, sizeof(b)));
	printf(" attempts %" PRIu64 "\n", x->val[IBTRACE_XCHG_A_ATTEMPTS]);
}

/* A finished job's verdict: its word in text and its exit code. */
static const struct verdict {
	const char *word;
	int exit;
} verdicts[] = {
	[IBTRACE_TEST_VERDICT_NONE]		= { "none", IBT_EXIT_TESTERR },
	[IBTRACE_TEST_VERDICT_PASS]		= { "pass", IBT_EXIT_OK },
	[IBTRACE_TEST_VERDICT_FAIL]		= { "fail", IBT_EXIT_FAIL },
	[IBTRACE_TEST_VERDICT_NOT_APPLICABLE]	= { "not applicable", IBT_EXIT_NA },
	[IBTRACE_TEST_VERDICT_ERROR]		= { "error", IBT_EXIT_TESTERR },
};

/* Verdict @v, as none if unknown. */
static const struct verdict *verdict_of(uint64_t v)
{
	return &verdicts[v < IBT_ARRAY_SIZE(verdicts) ? v : IBTRACE_TEST_VERDICT_NONE];
}

/* "verdict: not applicable (a switch external port)" */
static void verdict_text(const struct result *r)
{
	unsigned int v = test_rval(r, IBTRACE_A_TEST_VERDICT);
	const char *word;

	if (test_rval(r, IBTRACE_A_TEST_STATE) == IBTRACE_TEST_STATE_RUNNING) {
		const struct ibt_test_def *def = test_def_of(r);

		if (def && def->running_text)
			def->running_text(r);
		else
			printf("verdict: none yet (running, %" PRIu64 " exchanges so far)\n",
			       test_rval(r, IBTRACE_A_TEST_PROGRESS));
		return;
	}
	word = verdict_of(v)->word;
	if (r->reason[0])
		printf("verdict: %s (%s)\n", word, r->reason);
	else
		printf("verdict: %s\n", word);
}

static void restore_text(const struct result *r)
{
	switch (test_rval(r, IBTRACE_A_TEST_RESTORE)) {
	case IBTRACE_TEST_RESTORE_FAILED:
		printf("restore: FAILED: the DUT is left changed\n");
		break;
	case IBTRACE_TEST_RESTORE_IMPOSSIBLE:
		printf("restore: IMPOSSIBLE: the local device went away; the DUT may be left changed\n");
		break;
	default:
		printf("restore: %s\n", ibt_test_restore_str(test_rval(r, IBTRACE_A_TEST_RESTORE)));
		break;
	}
}

static void result_text(const struct result *r, bool verbose)
{
	char dut[IBT_DEV_NAME_MAX + IBTRACE_TRACE_MAX_HOPS * 4 + 32], b[32];
	const struct ibt_test_def *def = test_def_of(r);
	struct rtt_stats s = rtt_stats(r);
	size_t i;

	dut_text(r, dut, sizeof(dut));
	printf("job %" PRIu64 " test %s", test_rval(r, IBTRACE_A_TEST_JOB),
	       r->name[0] ? r->name : "?");
	if (r->seed[0])
		printf(" seed %s", r->seed);
	printf(" dut %s", dut);
	if (r->have[IBTRACE_A_TEST_DUT_NODE_TYPE])
		printf(": %s", ibt_node_type_str(test_rval(r, IBTRACE_A_TEST_DUT_NODE_TYPE)));
	if (r->have[IBTRACE_A_TEST_DUT_NODE_GUID])
		printf(" node_guid %s",
		       guid_str(test_rval(r, IBTRACE_A_TEST_DUT_NODE_GUID), b, sizeof(b)));
	if (r->have[IBTRACE_A_TEST_DUT_PORT_GUID])
		printf(" port_guid %s",
		       guid_str(test_rval(r, IBTRACE_A_TEST_DUT_PORT_GUID), b, sizeof(b)));
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_DUT_LID, "lid", "");
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_GUID_CAP, "guid_cap", "");
	if (def && def->head_text)
		def->head_text(r);
	putchar('\n');
	if (def && def->body_text)
		def->body_text(r);

	for (i = 0; i < r->nasserts; i++)
		assert_text(&r->asserts[i]);

	/* a test that sends no MAD (RNR): no exchange line unless it did */
	if (def && !def->sends_mads && !r->nxchgs &&
	    !test_rval(r, IBTRACE_A_TEST_EXCHANGES))
		goto restore;
	printf("exchanges %" PRIu64,
	       r->have[IBTRACE_A_TEST_EXCHANGES] ? test_rval(r, IBTRACE_A_TEST_EXCHANGES) :
	       (uint64_t)r->nxchgs);
	if (r->have[IBTRACE_A_TEST_EXCHANGES] &&
	    test_rval(r, IBTRACE_A_TEST_EXCHANGES) > r->nxchgs && r->nxchgs)
		printf(" (the first %zu recorded)", r->nxchgs);
	if (s.n) {
		char mn[32], av[32], mx[32];

		printf(" rtt min/avg/max %s/%s/%s us",
		       ibt_ns_str(s.min, 1000, mn, sizeof(mn)),
		       ibt_ns_str(s.sum / s.n, 1000, av, sizeof(av)),
		       ibt_ns_str(s.max, 1000, mx, sizeof(mx)));
	}
	putchar('\n');
	if (verbose)
		for (i = 0; i < r->nxchgs; i++)
			xchg_text(&r->xchgs[i]);
restore:
	if (r->have[IBTRACE_A_TEST_RESTORE])
		restore_text(r);
	verdict_text(r);
	fflush(stdout);
}

static void json_guid(struct ibt *ctx, const char *key, uint64_t g)
{
	char b[32];

	ibt_out_json(ctx, key, json_object_new_string(guid_str(g, b, sizeof(b))));
}

static void json_u64(struct ibt *ctx, const char *key, uint64_t v)
{
	ibt_out_json(ctx, key, json_object_new_uint64(v));
}

static void json_str(struct ibt *ctx, const char *key, const char *s)
{
	ibt_out_json(ctx, key, json_object_new_string(s));
}

/* Value @attr of @have/@val, if there, as its @name. */
static void json_name(struct ibt *ctx, const bool *have, const uint64_t *val,
		      int attr, const char *key, const char *(*name)(unsigned int v))
{
	if (have[attr])
		json_str(ctx, key, name(val[attr]));
}

/* String @s, unless empty. */
static void json_text(struct ibt *ctx, const char *key, const char *s)
{
	if (s[0])
		json_str(ctx, key, s);
}

/* The numbers of an exchange (then its phase and outcome). */
static const struct ibt_num_key xchg_keys[] = {
	{ IBTRACE_XCHG_A_SEQ,		"seq" },
	{ IBTRACE_XCHG_A_METHOD,	"method" },
	{ IBTRACE_XCHG_A_ATTR_ID,	"attr_id" },
	{ IBTRACE_XCHG_A_ATTR_MOD,	"attr_mod" },
	{ IBTRACE_XCHG_A_STATUS,	"status" },
	{ IBTRACE_XCHG_A_RTT_NS,	"rtt_ns" },
	{ IBTRACE_XCHG_A_ATTEMPTS,	"attempts" },
};

/* The numbers of a result: how long it ran ... */
static const struct ibt_num_key run_keys[] = {
	{ IBTRACE_A_TEST_ELAPSED_NS,	"elapsed_ns" },
	{ IBTRACE_A_TEST_PROGRESS,	"progress" },
};

/* ... and what it found of the DUT (after its type and GUIDs). */
static const struct ibt_num_key dut_keys[] = {
	{ IBTRACE_A_TEST_DUT_LID,	"dut_lid" },
	{ IBTRACE_A_TEST_GUID_CAP,	"guid_cap" },
	{ IBTRACE_A_TEST_EXCHANGES,	"exchanges_total" },
};

static void assert_json(struct ibt *ctx, const struct assertion *a)
{
	ibt_out_obj_begin(ctx, NULL);
	json_str(ctx, "id", a->id);
	json_text(ctx, "desc", a->desc);
	if (a->have_result)
		json_str(ctx, "result", ibt_assert_result_str(a->result));
	if (a->have_checks)
		json_u64(ctx, "checks", a->checks);
	json_text(ctx, "expected", a->expected);
	json_text(ctx, "observed", a->observed);
	json_text(ctx, "where", a->where);
	ibt_out_obj_end(ctx);
}

static void xchg_json(struct ibt *ctx, const struct xchg *x)
{
	ibt_out_obj_begin(ctx, NULL);
	ibt_out_nums(ctx, xchg_keys, IBT_ARRAY_SIZE(xchg_keys), x->have, x->val);
	json_name(ctx, x->have, x->val, IBTRACE_XCHG_A_PHASE, "phase",
		  ibt_xchg_phase_str);
	json_name(ctx, x->have, x->val, IBTRACE_XCHG_A_OUTCOME, "outcome",
		  ibt_xchg_outcome_str);
	ibt_out_obj_end(ctx);
}

static void result_json(struct ibt *ctx, const struct result *r, bool exchanges,
			bool cancelled)
{
	const struct ibt_test_def *def = test_def_of(r);
	struct rtt_stats s = rtt_stats(r);
	size_t i;

	ibt_out_obj_begin(ctx, NULL);
	json_u64(ctx, "job", test_rval(r, IBTRACE_A_TEST_JOB));
	json_text(ctx, "test", r->name);
	json_text(ctx, "seed", r->seed);
	json_text(ctx, "dev", r->dev);
	if (r->have[IBTRACE_A_PORT])
		json_u64(ctx, "port", test_rval(r, IBTRACE_A_PORT));
	if (r->ndr) {
		json_str(ctx, "addressing", "dr");
		ibt_out_arr_begin(ctx, "dr_path");
		for (i = 0; i < r->ndr; i++)
			ibt_out_json(ctx, NULL, json_object_new_uint64(r->dr[i]));
		ibt_out_arr_end(ctx);
	} else if (r->have[IBTRACE_A_TEST_LID]) {
		json_str(ctx, "addressing", "lid");
		json_u64(ctx, "lid", test_rval(r, IBTRACE_A_TEST_LID));
	} else {
		json_str(ctx, "addressing", "local");
	}
	if (r->have[IBTRACE_A_TEST_DUT_PORT])
		json_u64(ctx, "dut_port", test_rval(r, IBTRACE_A_TEST_DUT_PORT));
	json_name(ctx, r->have, r->val, IBTRACE_A_TEST_STATE, "state", ibt_test_state_str);
	json_name(ctx, r->have, r->val, IBTRACE_A_TEST_VERDICT, "verdict", ibt_test_verdict_str);
	json_text(ctx, "reason", r->reason);
	json_name(ctx, r->have, r->val, IBTRACE_A_TEST_RESTORE, "restore", ibt_test_restore_str);
	ibt_out_nums(ctx, run_keys, IBT_ARRAY_SIZE(run_keys), r->have, r->val);
	json_name(ctx, r->have, r->val, IBTRACE_A_TEST_DUT_NODE_TYPE, "dut_node_type",
		  ibt_node_type_str);
	if (r->have[IBTRACE_A_TEST_DUT_NODE_GUID])
		json_guid(ctx, "dut_node_guid", test_rval(r, IBTRACE_A_TEST_DUT_NODE_GUID));
	if (r->have[IBTRACE_A_TEST_DUT_PORT_GUID])
		json_guid(ctx, "dut_port_guid", test_rval(r, IBTRACE_A_TEST_DUT_PORT_GUID));
	ibt_out_nums(ctx, dut_keys, IBT_ARRAY_SIZE(dut_keys), r->have, r->val);
	if (def && def->json)
		def->json(ctx, r);
	if (s.n) {
		json_u64(ctx, "rtt_min_ns", s.min);
		json_u64(ctx, "rtt_avg_ns", s.sum / s.n);
		json_u64(ctx, "rtt_max_ns", s.max);
	}
	ibt_out_arr_begin(ctx, "assertions");
	for (i = 0; i < r->nasserts; i++)
		assert_json(ctx, &r->asserts[i]);
	ibt_out_arr_end(ctx);
	if (exchanges) {
		ibt_out_arr_begin(ctx, "exchanges");
		for (i = 0; i < r->nxchgs; i++)
			xchg_json(ctx, &r->xchgs[i]);
		ibt_out_arr_end(ctx);
	}
	if (cancelled)
		ibt_out_json(ctx, "cancelled", json_object_new_boolean(true));
	ibt_out_obj_end(ctx);
}

/* Exit code of a job's result; 0 while it runs. */
static int result_exit(const struct result *r)
{
	unsigned int restore = test_rval(r, IBTRACE_A_TEST_RESTORE);

	if (restore == IBTRACE_TEST_RESTORE_FAILED ||
	    restore == IBTRACE_TEST_RESTORE_IMPOSSIBLE)
		return IBT_EXIT_RESTORE;
	if (test_rval(r, IBTRACE_A_TEST_STATE) != IBTRACE_TEST_STATE_FINISHED)
		return IBT_EXIT_OK;
	return verdict_of(test_rval(r, IBTRACE_A_TEST_VERDICT))->exit;
}

/*
 * Print a job's result, then the one "Error:" line its exit code wants
 * (@cancelled: stopped by our signal). Returns that exit code.
 */
int test_result_report(struct ibt *ctx, const struct result *r, bool verbose,
			 bool cancelled)
{
	uint64_t job = test_rval(r, IBTRACE_A_TEST_JOB);
	const char *name = r->name[0] ? r->name : "test";
	const char *why = r->reason[0] ? r->reason : "no reason given";
	int ret = result_exit(r);

	if (cancelled && ret != IBT_EXIT_RESTORE)
		ret = IBT_EXIT_CANCEL;
	if (ctx->json) {
		result_json(ctx, r, true, cancelled);
		ibt_out_finish(ctx);
	} else {
		result_text(r, verbose);
	}
	switch (ret) {
	case IBT_EXIT_RESTORE:
		return ibt_err(ret, "job %" PRIu64 ": restore FAILED: the DUT's GUID table %s",
			       job, test_rval(r, IBTRACE_A_TEST_RESTORE) ==
			       IBTRACE_TEST_RESTORE_IMPOSSIBLE ?
			       "may be left changed (the local device went away)" :
			       "is left changed");
	case IBT_EXIT_CANCEL:
		return ibt_err(ret, "job %" PRIu64 " cancelled; restore %s", job,
			       ibt_test_restore_str(test_rval(r, IBTRACE_A_TEST_RESTORE)));
	case IBT_EXIT_FAIL:
		return ibt_err(ret, "job %" PRIu64 ": the DUT failed %s: %s", job, name, why);
	case IBT_EXIT_NA:
		return ibt_err(ret, "job %" PRIu64 ": %s does not apply to the DUT: %s",
			       job, name, why);
	case IBT_EXIT_TESTERR:
		return ibt_err(ret, "job %" PRIu64 ": %s could not be completed: %s",
			       job, name, why);
	default:
		return ret;
	}
}

static void list_text(const struct result *r)
{
	size_t i;

	printf("%s  %s  %s\n", r->name, r->seed[0] ? r->seed : "-", r->desc);
	if (r->needs[0])
		printf("  needs: %s\n", r->needs);
	for (i = 0; i < r->nasserts; i++)
		printf("  %s  %s\n", r->asserts[i].id, r->asserts[i].desc);
}

static void list_json(struct ibt *ctx, const struct result *r)
{
	size_t i;

	ibt_out_obj_begin(ctx, NULL);
	json_str(ctx, "name", r->name);
	json_str(ctx, "seed", r->seed);
	json_str(ctx, "desc", r->desc);
	json_str(ctx, "needs", r->needs);
	ibt_out_arr_begin(ctx, "assertions");
	for (i = 0; i < r->nasserts; i++) {
		ibt_out_obj_begin(ctx, NULL);
		json_str(ctx, "id", r->asserts[i].id);
		json_str(ctx, "desc", r->asserts[i].desc);
		ibt_out_obj_end(ctx);
	}
	ibt_out_arr_end(ctx);
	ibt_out_obj_end(ctx);
}

/* One test of "test list". */
void test_list_print(struct ibt *ctx, const struct result *r)
{
	if (ctx->json)
		list_json(ctx, r);
	else
		list_text(r);
}

/* "test show" without JOB: one line (text) or object (JSON) per job. */
void test_show_line(struct ibt *ctx, const struct result *r)
{
	char dut[IBT_DEV_NAME_MAX + IBTRACE_TRACE_MAX_HOPS * 4 + 32];

	if (ctx->json) {
		result_json(ctx, r, false, false);
		return;
	}
	dut_text(r, dut, sizeof(dut));
	printf("job %" PRIu64 " test %s dut %s state %s verdict %s",
	       test_rval(r, IBTRACE_A_TEST_JOB), r->name[0] ? r->name : "?", dut,
	       ibt_test_state_str(test_rval(r, IBTRACE_A_TEST_STATE)),
	       ibt_test_verdict_str(test_rval(r, IBTRACE_A_TEST_VERDICT)));
	if (test_rval(r, IBTRACE_A_TEST_RESTORE) == IBTRACE_TEST_RESTORE_FAILED ||
	    test_rval(r, IBTRACE_A_TEST_RESTORE) == IBTRACE_TEST_RESTORE_IMPOSSIBLE)
		printf(" restore %s",
		       test_rval(r, IBTRACE_A_TEST_RESTORE) == IBTRACE_TEST_RESTORE_FAILED ?
		       "FAILED" : "IMPOSSIBLE");
	putchar('\n');
}

/* "test run --detach": the job number. */
void test_detach_print(struct ibt *ctx, uint32_t job)
{
	if (ctx->json) {
		ibt_out_obj_begin(ctx, NULL);
		json_u64(ctx, "job", job);
		ibt_out_obj_end(ctx);
		ibt_out_finish(ctx);
	} else {
		printf("job %u\n", job);
	}
}
