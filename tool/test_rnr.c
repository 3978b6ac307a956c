// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RNR NAK timer test (the kernel's rnr.c, seed C09_130_01), as the
 * tool knows it: its options of "test run rnr", its request attributes,
 * the figures of each timer code measured (IBTRACE_A_TEST_RNR_CODE) and
 * how its results print: the mode in the header ("loopback" or "peer
 * GID"), the parameters, a table of the codes, a line per code as it is
 * measured, and its JSON keys (listed at the top of test.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "test.h"

enum {
	OPT_TIMER,
	OPT_RETRY,
	OPT_SIZE,
	OPT_ITERATIONS,
	OPT_POLL,
	OPT_PEER,
	OPT_PEER_PORT,
	OPT_DEADLINE,
	OPT_RECV_POSTED,
};

static const struct ibt_test_opt rnr_opts[] = {
	{ "timer",	 0, true,  OPT_TIMER },
	{ "retry",	 0, true,  OPT_RETRY },
	{ "size",	 0, true,  OPT_SIZE },
	{ "iterations",	 0, true,  OPT_ITERATIONS },
	{ "poll",	 0, true,  OPT_POLL },
	{ "peer",	 0, true,  OPT_PEER },
	{ "peer-port",	 0, true,  OPT_PEER_PORT },
	{ "deadline",	 0, true,  OPT_DEADLINE },
	{ "recv-posted", 0, false, OPT_RECV_POSTED },
	{ NULL },
};

struct rnr_args {
	uint32_t timer, rnr_retry, size, iterations, poll, deadline_ms;
	struct test_peer_args peer;
	bool has_timer, timer_all, has_rnr_retry, has_size, has_iterations,
	     has_poll, has_deadline, recv_posted;
};

/* What only this test's results have (struct result.data). */
struct rnr_data {
	char wire_why[TEST_STR_MAX];
	struct test_items codes;	/* IBTRACE_A_TEST_RNR_CODE nests */
};

/* Options; the ranges are the kernel's policy. */

#define RNR_ARG(f)	offsetof(struct rnr_args, f)

/* The options that take a number: its range and what it is, in errors. */
static const struct ibt_num_opt rnr_nums[] = {
	{ NULL, OPT_RETRY, "--retry", 0, 7, "an rnr_retry count ", "",
	  RNR_ARG(rnr_retry), RNR_ARG(has_rnr_retry) },
	{ NULL, OPT_SIZE, "--size", 1, IBTRACE_TEST_MAX_SIZE, "", " bytes",
	  RNR_ARG(size), RNR_ARG(has_size) },
	{ NULL, OPT_ITERATIONS, "--iterations", 1, IBTRACE_TEST_RNR_MAX_ITERATIONS, "", "",
	  RNR_ARG(iterations), RNR_ARG(has_iterations) },
	{ NULL, OPT_DEADLINE, "--deadline", 1, IBTRACE_TEST_MAX_DEADLINE_MS, "", " ms",
	  RNR_ARG(deadline_ms), RNR_ARG(has_deadline) },
};

static int rnr_opt(void *args, int id, const char *arg)
{
	struct rnr_args *t = args;
	int ret = ibt_opt_nums(rnr_nums, IBT_ARRAY_SIZE(rnr_nums), id, arg, t);

	if (ret != IBT_OPT_UNKNOWN)
		return ret;
	switch (id) {
	case OPT_TIMER:
		if (ibt_parse_rnr_timer(arg, &t->timer, &t->timer_all))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --timer \"%s\": expected an RNR NAK timer code 0..%d or \"all\"",
				       arg, IBTRACE_TEST_RNR_CODES - 1);
		t->has_timer = !t->timer_all;
		return 0;
	case OPT_POLL:
		return ibt_opt_poll(arg, &t->poll, &t->has_poll);
	case OPT_PEER:
	case OPT_PEER_PORT:
		return test_peer_opt(&t->peer, id == OPT_PEER_PORT, arg);
	default: /* OPT_RECV_POSTED */
		t->recv_posted = true;
		return 0;
	}
}

static int rnr_check(const void *args)
{
	const struct rnr_args *t = args;

	if (t->has_rnr_retry && t->rnr_retry == 7 && !t->has_deadline)
		return ibt_err(IBT_EXIT_USAGE,
			       "--retry 7 means retry forever: give --deadline MS with it, or use 0..6");
	if (t->peer.has_port && !t->peer.has_gid)
		return ibt_err(IBT_EXIT_USAGE, "--peer-port needs --peer GID");
	return 0;
}

/* The request's attributes of the options given: these, the peer's, then --deadline. */
static const struct ibt_req_opt rnr_req[] = {
	{ IBTRACE_A_TEST_RNR_ALL, IBT_REQ_FLAG, 0, RNR_ARG(timer_all) },
	{ IBTRACE_A_TEST_RNR_TIMER, IBT_REQ_U8, RNR_ARG(timer), RNR_ARG(has_timer) },
	{ IBTRACE_A_TEST_RNR_RETRY, IBT_REQ_U8, RNR_ARG(rnr_retry),
	  RNR_ARG(has_rnr_retry) },
	{ IBTRACE_A_TEST_SIZE, IBT_REQ_U32, RNR_ARG(size), RNR_ARG(has_size) },
	{ IBTRACE_A_TEST_ITERATIONS, IBT_REQ_U32, RNR_ARG(iterations),
	  RNR_ARG(has_iterations) },
	{ IBTRACE_A_TEST_POLL, IBT_REQ_U8, RNR_ARG(poll), RNR_ARG(has_poll) },
	{ IBTRACE_A_TEST_RNR_RECV_POSTED, IBT_REQ_FLAG, 0, RNR_ARG(recv_posted) },
};
static const struct ibt_req_opt rnr_req_deadline = {
	IBTRACE_A_TEST_DEADLINE_MS, IBT_REQ_U32, RNR_ARG(deadline_ms),
	RNR_ARG(has_deadline)
};

static int rnr_request(struct nl_msg *msg, const void *args)
{
	const struct rnr_args *t = args;

	return ibt_nl_put_opts(msg, rnr_req, IBT_ARRAY_SIZE(rnr_req), t) ?:
	       test_peer_request(msg, &t->peer) ?:
	       ibt_nl_put_opts(msg, &rnr_req_deadline, 1, t);
}

/* Decoding */

static const struct rnr_data rnr_none;

/* The test's part of @r (empty if the kernel sent none). */
static const struct rnr_data *rnr_of(const struct result *r)
{
	return r->data_def == &test_rnr ? r->data : &rnr_none;
}

/* A result of the RNR test by its attributes (its name aside). */
static bool rnr_owns(const struct result *r)
{
	return rnr_of(r)->codes.n || r->have[IBTRACE_A_TEST_RNR_RETRY];
}

static const int rnr_attrs[] = {
	IBTRACE_A_TEST_RNR_CODE,
	IBTRACE_A_TEST_RNR_WIRE_WHY,
	0,
};

/* The figures of a timer code. */
static const struct test_items_nest rnr_codes = {
	IBTRACE_RNR_A_CODE, -1, IBTRACE_RNR_A_MAX, -1, "RNR figures without a timer code"
};

static int rnr_absorb(struct ibt *ctx, struct result *r, void *data,
		      struct nlattr *a)
{
	struct rnr_data *d = data;

	(void)r;
	switch (nla_type(a)) {
	case IBTRACE_A_TEST_RNR_CODE:
		return test_items_absorb(ctx, &d->codes, a, &rnr_codes);
	default: /* IBTRACE_A_TEST_RNR_WIRE_WHY */
		nla_strlcpy(d->wire_why, a, sizeof(d->wire_why));
		return 0;
	}
}

/* @k's figures replace @d's; its wire_why, if it has one. */
static void rnr_take(void *data, void *k_data)
{
	struct rnr_data *d = data, *k = k_data;

	test_items_take(&d->codes, k ? &k->codes : NULL);
	if (!k)
		return;
	if (k->wire_why[0])
		memcpy(d->wire_why, k->wire_why, sizeof(d->wire_why));
}

static void rnr_free(void *data)
{
	struct rnr_data *d = data;

	test_items_free(&d->codes);
}

/* Text */

static uint64_t cval(const struct test_item *c, int a)
{
	return c->val[a];
}

/* A figure of @c as a duration, "-" when the kernel did not send it. */
static const char *cdur(const struct test_item *c, int a, bool plus, char *buf,
			size_t len)
{
	if (!c->have[a])
		return "-";
	return ibt_dur_str(a == IBTRACE_RNR_A_OVERSHOOT_NS ? (int64_t)c->val[a] :
			   c->val[a] > INT64_MAX ? INT64_MAX : (int64_t)c->val[a],
			   plus, buf, len);
}

/* The calibration: the same for every code; the first that has it. */
static const struct test_item *rnr_calibrated(const struct rnr_data *d)
{
	size_t i;

	for (i = 0; i < d->codes.n; i++)
		if (d->codes.v[i].have[IBTRACE_RNR_A_CALIBRATION_NS])
			return &d->codes.v[i];
	return NULL;
}

/*
 * The live line of each timer code measured that has none yet (@shown:
 * the codes printed, by bit):
 *   job 7: code 12 (table 640.00 us): median wait per retry 4.00 ms, overshoot +3.36 ms, 3 iterations
 */
static void rnr_progress_text(uint64_t job, const struct result *ev,
			      uint32_t *shown)
{
	const struct rnr_data *d = rnr_of(ev);
	char t[32], m[32], o[32];
	size_t i;

	for (i = 0; i < d->codes.n; i++) {
		const struct test_item *c = &d->codes.v[i];
		uint32_t bit = 1u << (c->val[IBTRACE_RNR_A_CODE] & 31);

		if (*shown & bit)
			continue;
		*shown |= bit;
		printf("job %" PRIu64 ": code %" PRIu64 " (table %s): median wait per retry %s, overshoot %s, %" PRIu64 " iteration%s\n",
		       job, cval(c, IBTRACE_RNR_A_CODE),
		       cdur(c, IBTRACE_RNR_A_TABLE_NS, false, t, sizeof(t)),
		       cdur(c, IBTRACE_RNR_A_WAIT_MEDIAN_NS, false, m, sizeof(m)),
		       cdur(c, IBTRACE_RNR_A_OVERSHOOT_NS, true, o, sizeof(o)),
		       cval(c, IBTRACE_RNR_A_ITERATIONS),
		       cval(c, IBTRACE_RNR_A_ITERATIONS) == 1 ? "" : "s");
		fflush(stdout);
	}
}

/*
 * " loopback" (the framework adds the DUT's port), or " peer
 * fe80::5054:ff:fe1b:2 port 7471" (the peer's RDMA CM port).
 */
static bool rnr_dut_text(const struct result *r, char *buf, size_t len)
{
	size_t off = strlen(buf);

	if (!r->have[IBTRACE_A_TEST_PEER_GID]) {
		snprintf(buf + off, len - off, " loopback");
		return true;
	}
	return test_peer_dut_text(r, buf, len);
}

/* What the header line says after "dut DEV/PORT MODE:" */
static void rnr_head_text(const struct result *r)
{
	const struct test_item *cal = rnr_calibrated(rnr_of(r));
	char b[32];

	putchar(':');
	if (r->have[IBTRACE_A_TEST_RNR_ALL])
		printf(" timer all");
	else if (r->have[IBTRACE_A_TEST_RNR_TIMER])
		printf(" timer %" PRIu64, test_rval(r, IBTRACE_A_TEST_RNR_TIMER));
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_RNR_RETRY, "rnr_retry", "");
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_SIZE, "size", "");
	if (r->have[IBTRACE_A_TEST_POLL])
		printf(" poll %s", ibt_test_poll_str(test_rval(r, IBTRACE_A_TEST_POLL)));
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_ITERATIONS, "iterations", "");
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_DEADLINE_MS, "deadline", " ms");
	if (r->have[IBTRACE_A_TEST_RNR_RECV_POSTED])
		printf(" recv_posted (negative control)");
	if (cal)
		printf(" calibration %s",
		       cdur(cal, IBTRACE_RNR_A_CALIBRATION_NS, false, b, sizeof(b)));
}

/*
 * One row per timer code; wait figures per retry. With the wire tapped,
 * the wire waits and RNR NAKs seen follow. The device's timer granularity,
 * a finding, not a failure, ends its row.
 */
static void rnr_body_text(const struct result *r)
{
	const struct rnr_data *d = rnr_of(r);
	bool tapped = r->have[IBTRACE_A_TEST_RNR_WIRE] &&
		      test_rval(r, IBTRACE_A_TEST_RNR_WIRE) == IBTRACE_RNR_WIRE_TAPPED;
	char b[7][32];
	size_t i;

	if (r->have[IBTRACE_A_TEST_RNR_WIRE] && !tapped)
		printf("wire: not visible (%s)\n", d->wire_why[0] ? d->wire_why : "no reason given");
	if (!d->codes.n) {
		printf("no timer code measured\n");
		return;
	}
	printf("wait per retry = (post to completion - calibration) / rnr_retry:\n");
	printf("%4s %10s %5s %10s %10s %10s %10s %10s", "code", "table", "iter",
	       "min", "median", "p99", "max", "overshoot");
	if (tapped)
		printf(" %10s %11s %10s %5s", "wire min", "wire median", "wire max",
		       "naks");
	putchar('\n');
	for (i = 0; i < d->codes.n; i++) {
		const struct test_item *c = &d->codes.v[i];

		printf("%4" PRIu64 " %10s %5" PRIu64 " %10s %10s %10s %10s %10s",
		       cval(c, IBTRACE_RNR_A_CODE),
		       cdur(c, IBTRACE_RNR_A_TABLE_NS, false, b[0], sizeof(b[0])),
		       cval(c, IBTRACE_RNR_A_ITERATIONS),
		       cdur(c, IBTRACE_RNR_A_WAIT_MIN_NS, false, b[1], sizeof(b[1])),
		       cdur(c, IBTRACE_RNR_A_WAIT_MEDIAN_NS, false, b[2], sizeof(b[2])),
		       cdur(c, IBTRACE_RNR_A_WAIT_P99_NS, false, b[3], sizeof(b[3])),
		       cdur(c, IBTRACE_RNR_A_WAIT_MAX_NS, false, b[4], sizeof(b[4])),
		       cdur(c, IBTRACE_RNR_A_OVERSHOOT_NS, true, b[5], sizeof(b[5])));
		if (tapped) {
			printf(" %10s %11s %10s",
			       cdur(c, IBTRACE_RNR_A_WIRE_MIN_NS, false, b[0], sizeof(b[0])),
			       cdur(c, IBTRACE_RNR_A_WIRE_MEDIAN_NS, false, b[1], sizeof(b[1])),
			       cdur(c, IBTRACE_RNR_A_WIRE_MAX_NS, false, b[2], sizeof(b[2])));
			if (c->have[IBTRACE_RNR_A_NAKS])
				printf(" %5" PRIu64, cval(c, IBTRACE_RNR_A_NAKS));
			else
				printf(" %5s", "-");
		}
		if (cval(c, IBTRACE_RNR_A_GRANULARITY_NS))
			printf("  timer granularity %s",
			       cdur(c, IBTRACE_RNR_A_GRANULARITY_NS, false, b[6],
				    sizeof(b[6])));
		putchar('\n');
	}
}

static void rnr_running_text(const struct result *r)
{
	printf("verdict: none yet (running, %zu timer codes measured so far)\n",
	       rnr_of(r)->codes.n);
}

/* JSON */

static void json_u64(struct ibt *ctx, const char *key, uint64_t v)
{
	ibt_out_json(ctx, key, json_object_new_uint64(v));
}

static void json_str(struct ibt *ctx, const char *key, const char *s)
{
	ibt_out_json(ctx, key, json_object_new_string(s));
}

static void rnr_code_json(struct ibt *ctx, const struct test_item *c)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_RNR_A_CODE,		"code" },
		{ IBTRACE_RNR_A_TABLE_NS,	"table_ns" },
		{ IBTRACE_RNR_A_ITERATIONS,	"iterations" },
		{ IBTRACE_RNR_A_WAIT_MIN_NS,	"wait_min_ns" },
		{ IBTRACE_RNR_A_WAIT_MEDIAN_NS,	"wait_median_ns" },
		{ IBTRACE_RNR_A_WAIT_P99_NS,	"wait_p99_ns" },
		{ IBTRACE_RNR_A_WAIT_MAX_NS,	"wait_max_ns" },
		{ IBTRACE_RNR_A_GRANULARITY_NS,	"granularity_ns" },
		{ IBTRACE_RNR_A_CALIBRATION_NS,	"calibration_ns" },
		{ IBTRACE_RNR_A_WIRE_SAMPLES,	"wire_samples" },
		{ IBTRACE_RNR_A_WIRE_MIN_NS,	"wire_min_ns" },
		{ IBTRACE_RNR_A_WIRE_MEDIAN_NS,	"wire_median_ns" },
		{ IBTRACE_RNR_A_WIRE_MAX_NS,	"wire_max_ns" },
		{ IBTRACE_RNR_A_NAKS,		"naks" },
	};

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_nums(ctx, nums, IBT_ARRAY_SIZE(nums), c->have, c->val);
	if (c->have[IBTRACE_RNR_A_OVERSHOOT_NS])
		ibt_out_json(ctx, "overshoot_ns",
			     json_object_new_int64((int64_t)c->val[IBTRACE_RNR_A_OVERSHOOT_NS]));
	ibt_out_obj_end(ctx);
}

/* The RNR test's keys of a result object. */
static void rnr_json(struct ibt *ctx, const struct result *r)
{
	const struct rnr_data *d = rnr_of(r);
	const struct test_item *cal = rnr_calibrated(d);
	size_t i;

	if (r->have[IBTRACE_A_TEST_PEER_GID]) {
		json_str(ctx, "mode", "peer");
		test_peer_json(ctx, r, "peer_gid");
	} else {
		json_str(ctx, "mode", "loopback");
	}
	if (r->have[IBTRACE_A_TEST_RNR_TIMER])
		json_u64(ctx, "rnr_timer", test_rval(r, IBTRACE_A_TEST_RNR_TIMER));
	ibt_out_json(ctx, "rnr_all",
		     json_object_new_boolean(r->have[IBTRACE_A_TEST_RNR_ALL]));
	if (r->have[IBTRACE_A_TEST_RNR_RETRY])
		json_u64(ctx, "rnr_retry", test_rval(r, IBTRACE_A_TEST_RNR_RETRY));
	if (r->have[IBTRACE_A_TEST_SIZE])
		json_u64(ctx, "size", test_rval(r, IBTRACE_A_TEST_SIZE));
	if (r->have[IBTRACE_A_TEST_ITERATIONS])
		json_u64(ctx, "iterations", test_rval(r, IBTRACE_A_TEST_ITERATIONS));
	if (r->have[IBTRACE_A_TEST_POLL])
		json_str(ctx, "poll", ibt_test_poll_str(test_rval(r, IBTRACE_A_TEST_POLL)));
	if (r->have[IBTRACE_A_TEST_DEADLINE_MS])
		json_u64(ctx, "deadline_ms", test_rval(r, IBTRACE_A_TEST_DEADLINE_MS));
	ibt_out_json(ctx, "recv_posted",
		     json_object_new_boolean(r->have[IBTRACE_A_TEST_RNR_RECV_POSTED]));
	if (r->have[IBTRACE_A_TEST_RNR_WIRE])
		json_str(ctx, "wire", ibt_rnr_wire_str(test_rval(r, IBTRACE_A_TEST_RNR_WIRE)));
	if (d->wire_why[0])
		json_str(ctx, "wire_why", d->wire_why);
	if (cal)
		json_u64(ctx, "calibration_ns", cval(cal, IBTRACE_RNR_A_CALIBRATION_NS));
	ibt_out_arr_begin(ctx, "codes");
	for (i = 0; i < d->codes.n; i++)
		rnr_code_json(ctx, &d->codes.v[i]);
	ibt_out_arr_end(ctx);
}

const struct ibt_test_def test_rnr = {
	.name		= "rnr",
	.synopsis	=
"  test run rnr [--timer CODE|all] [--retry N] [--size BYTES] [--iterations K]\n"
"       [--poll busy|event] [--peer GID] [--peer-port PORT] [--deadline MS]\n"
"       [--recv-posted] [-v] [--detach]\n",
	.usage		=
"       ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] test run rnr\n"
"                  [--timer CODE|all] [--retry N] [--size BYTES]\n"
"                  [--iterations K] [--poll busy|event] [--peer GID]\n"
"                  [--peer-port PORT] [--deadline MS] [--recv-posted]\n"
"                  [-v|--verbose] [--detach]\n",
	.help		=
"rnr: the RNR NAK timer of the local port's RC requester (-d, -p; without\n"
"-d the first Active port, InfiniBand or RoCE). --timer: the timer code\n"
"0..31 (default 1) or all; --retry: rnr_retry 0..7 (default 1; 7 retries\n"
"forever and needs --deadline); --size: bytes of the SEND, 1.." IBT_STR(IBTRACE_TEST_MAX_SIZE) "\n"
"(default the path MTU); --iterations: runs per code, 1..100 (default 5);\n"
"--poll: busy (default) or event; --peer GID: the responder is the ibtrace\n"
"of that host (default: loopback on the local port), --peer-port: its RDMA\n"
"CM port, 1..65535; --deadline: longest wait for one SEND, 1.." IBT_STR(IBTRACE_TEST_MAX_DEADLINE_MS) " ms;\n"
"--recv-posted: negative control, the responder posts a receive buffer, so\n"
"the test must fail. Prints each code as it is measured, then a table.\n",
	.any_link_layer	= true,
	.opts		= rnr_opts,
	.args_size	= sizeof(struct rnr_args),
	.opt		= rnr_opt,
	.check		= rnr_check,
	.request	= rnr_request,
	.owns		= rnr_owns,
	.data_size	= sizeof(struct rnr_data),
	.attrs		= rnr_attrs,
	.absorb		= rnr_absorb,
	.take		= rnr_take,
	.free_data	= rnr_free,
	.progress_attr	= IBTRACE_A_TEST_RNR_CODE,
	.progress_text	= rnr_progress_text,
	.dut_text	= rnr_dut_text,
	.head_text	= rnr_head_text,
	.body_text	= rnr_body_text,
	.running_text	= rnr_running_text,
	.sends_mads	= false,
	.json		= rnr_json,
};
