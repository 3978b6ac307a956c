// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf test (the kernel's perf.c, after dapltest -T P), as the tool
 * knows it: RDMA READ or WRITE latency and bandwidth against the buffer
 * of a peer host's ibtrace server:
 *
 *   test run perf --peer GID [--peer-port N] [--iterations N]
 *        [--pipeline N] [--poll busy|event] [--ack-timeout N]
 *        RR|RW [SEG_SIZE [NUM_SEGS]]
 *
 * RR: RDMA READ, RW: RDMA WRITE (either case); SEG_SIZE bytes of a
 * segment (default 4096), NUM_SEGS segments (local SGEs) of one
 * operation (default 1), together at most IBTRACE_TEST_PERF_MAX_BYTES.
 * The figures (IBTRACE_A_TEST_PERF, one nest) print after the header:
 *
 *   job 5 test perf dut rxe0/1 peer fe80::5054:ff:fe1b:2 port 7471
 *   RW 4096 B x 1 segment, 1000 iterations, pipeline 16, busy poll, ACK timeout 14, server version 1
 *   operations 1000  errors 0  bytes 4.1 MB  time 12.30 ms  333.0 MB/s  81300 op/s
 *   latency (ns)  min 9012  median 12004  p99 30120  max 45002
 *
 * (MB: 10^6 bytes; "-" for a figure the kernel did not send; with errors
 * a line "first error: STATUS" follows the operations; "nothing
 * measured" when the test ended before it measured.)
 *
 * JSON keys (with the framework's): op ("RR", "RW"), seg_size, segs,
 * pipeline, iterations, poll ("busy", "event"), ack_timeout, peer (GID string),
 * peer_port and perf {ops, errors, wc_status, bytes, elapsed_ns,
 * lat_min_ns, lat_median_ns, lat_p99_ns, lat_max_ns, server_version,
 * segs, mb_per_s (a number with one decimal), ops_per_s} (perf only once
 * measured; mb_per_s and ops_per_s only with a time).
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
	OPT_ITERATIONS,
	OPT_PIPELINE,
	OPT_POLL,
	OPT_ACK_TIMEOUT,
	OPT_PEER,
	OPT_PEER_PORT,
};

/* The names are the RNR test's where they mean the same. */
static const struct ibt_test_opt perf_opts[] = {
	{ "iterations",	0, true, OPT_ITERATIONS },
	{ "pipeline",	0, true, OPT_PIPELINE },
	{ "poll",	0, true, OPT_POLL },
	{ "ack-timeout", 0, true, OPT_ACK_TIMEOUT },
	{ "peer",	0, true, OPT_PEER },
	{ "peer-port",	0, true, OPT_PEER_PORT },
	{ NULL },
};

struct perf_args {
	uint32_t op, seg_size, segs, iterations, pipeline, poll, ack_timeout;
	struct test_peer_args peer;
	unsigned int words;		/* taken so far: RR|RW, SEG_SIZE, NUM_SEGS */
	bool has_op, has_seg_size, has_segs, has_iterations, has_pipeline,
	     has_poll, has_ack_timeout;
};

/* What only this test's results have (struct result.data). */
struct perf_data {
	bool measured;			/* an IBTRACE_A_TEST_PERF came */
	struct test_item fig;		/* its figures; text: the first error's status */
};

/* Options and words; the ranges are the kernel's policy. */

#define PERF_ARG(f)	offsetof(struct perf_args, f)

static const struct ibt_num_opt perf_nums[] = {
	{ NULL, OPT_ITERATIONS, "--iterations", 1, IBTRACE_TEST_PERF_MAX_ITERATIONS,
	  "", "", PERF_ARG(iterations), PERF_ARG(has_iterations) },
	{ NULL, OPT_PIPELINE, "--pipeline", 1, IBTRACE_TEST_PERF_MAX_PIPELINE,
	  "", "", PERF_ARG(pipeline), PERF_ARG(has_pipeline) },
	{ NULL, OPT_ACK_TIMEOUT, "--ack-timeout", 1, IBTRACE_TEST_MAX_ACK_TIMEOUT,
	  "", "", PERF_ARG(ack_timeout), PERF_ARG(has_ack_timeout) },
};

static int perf_opt(void *args, int id, const char *arg)
{
	struct perf_args *t = args;
	int ret = ibt_opt_nums(perf_nums, IBT_ARRAY_SIZE(perf_nums), id, arg, t);

	if (ret != IBT_OPT_UNKNOWN)
		return ret;
	if (id == OPT_POLL)
		return ibt_opt_poll(arg, &t->poll, &t->has_poll);
	return test_peer_opt(&t->peer, id == OPT_PEER_PORT, arg);
}

/* The words after "perf": RR|RW, then SEG_SIZE, then NUM_SEGS. */
static int perf_word(void *args, const char *word)
{
	struct perf_args *t = args;

	switch (t->words++) {
	case 0:
		return ibt_opt_ok(ibt_parse_perf_op(word, &t->op), &t->has_op,
				  "unknown operation \"%s\" for test perf: expected RR (RDMA READ) or RW (RDMA WRITE)",
				  word);
	case 1:
		return ibt_opt_range("SEG_SIZE", word, 1, IBTRACE_TEST_PERF_MAX_BYTES,
				     "", " bytes", &t->seg_size, &t->has_seg_size);
	case 2:
		return ibt_opt_range("NUM_SEGS", word, 1, IBTRACE_TEST_PERF_MAX_SEGS,
				     "", " segments", &t->segs, &t->has_segs);
	default:
		return ibt_err(IBT_EXIT_USAGE,
			       "unexpected argument \"%s\" after test perf RR|RW SEG_SIZE NUM_SEGS",
			       word);
	}
}

static int perf_check(const void *args)
{
	const struct perf_args *t = args;
	uint64_t seg = t->has_seg_size ? t->seg_size : IBTRACE_TEST_PERF_DEF_SEG_SIZE;
	uint64_t segs = t->has_segs ? t->segs : 1;

	if (!t->has_op)
		return ibt_err(IBT_EXIT_USAGE,
			       "test perf needs an operation: RR (RDMA READ) or RW (RDMA WRITE)");
	if (!t->peer.has_gid)
		return ibt_err(IBT_EXIT_USAGE,
			       "test perf needs --peer GID, a host whose ibtrace server runs");
	if (seg * segs > IBTRACE_TEST_PERF_MAX_BYTES)
		return ibt_err(IBT_EXIT_USAGE,
			       "%" PRIu64 " segments of %" PRIu64 " bytes are %" PRIu64 " bytes, more than the %d one operation may move",
			       segs, seg, seg * segs, IBTRACE_TEST_PERF_MAX_BYTES);
	return 0;
}

/* The request's attributes of the options given, then the peer's. */
static const struct ibt_req_opt perf_req[] = {
	{ IBTRACE_A_TEST_PERF_OP, IBT_REQ_U8, PERF_ARG(op), PERF_ARG(has_op) },
	{ IBTRACE_A_TEST_PERF_SEG_SIZE, IBT_REQ_U32, PERF_ARG(seg_size),
	  PERF_ARG(has_seg_size) },
	{ IBTRACE_A_TEST_PERF_SEGS, IBT_REQ_U32, PERF_ARG(segs), PERF_ARG(has_segs) },
	{ IBTRACE_A_TEST_PERF_PIPELINE, IBT_REQ_U32, PERF_ARG(pipeline),
	  PERF_ARG(has_pipeline) },
	{ IBTRACE_A_TEST_ITERATIONS, IBT_REQ_U32, PERF_ARG(iterations),
	  PERF_ARG(has_iterations) },
	{ IBTRACE_A_TEST_POLL, IBT_REQ_U8, PERF_ARG(poll), PERF_ARG(has_poll) },
	{ IBTRACE_A_TEST_ACK_TIMEOUT, IBT_REQ_U8, PERF_ARG(ack_timeout),
	  PERF_ARG(has_ack_timeout) },
};

static int perf_request(struct nl_msg *msg, const void *args)
{
	const struct perf_args *t = args;

	return ibt_nl_put_opts(msg, perf_req, IBT_ARRAY_SIZE(perf_req), t) ?:
	       test_peer_request(msg, &t->peer);
}

/* Decoding */

static const struct perf_data perf_none;

static const struct perf_data *perf_of(const struct result *r)
{
	return r->data_def == &test_perf ? r->data : &perf_none;
}

/* A result of the perf test by its attributes (its name aside). */
static bool perf_owns(const struct result *r)
{
	return perf_of(r)->measured || r->have[IBTRACE_A_TEST_PERF_OP];
}

static const int perf_attrs[] = {
	IBTRACE_A_TEST_PERF,
	0,
};

/* The figures: a later nest replaces an earlier one. */
static int perf_absorb(struct ibt *ctx, struct result *r, void *data,
		       struct nlattr *a)
{
	struct perf_data *d = data;
	struct test_item fig = { 0 };
	int ret;

	(void)r;
	ret = test_item_absorb(ctx, &fig, a, IBTRACE_PERF_A_OPS, IBTRACE_PERF_A_MAX,
			       IBTRACE_PERF_A_WC_STATUS);
	if (ret)
		return ret;
	d->measured = true;
	d->fig = fig;
	return 0;
}

/* @k's figures, if it has them, replace @d's. */
static void perf_take(void *data, void *k_data)
{
	struct perf_data *d = data, *k = k_data;

	if (k && k->measured)
		*d = *k;
}

/* Text */

/* Operations a second, truncated; false without a time. */
static bool ops_per_s(const struct test_item *f, uint64_t *v)
{
	uint64_t ns = f->val[IBTRACE_PERF_A_ELAPSED_NS];

	if (!f->have[IBTRACE_PERF_A_OPS] || !f->have[IBTRACE_PERF_A_ELAPSED_NS] || !ns)
		return false;
	*v = (uint64_t)((double)f->val[IBTRACE_PERF_A_OPS] * 1e9 / (double)ns);
	return true;
}

/* The segments used (the figures'), else those asked for. */
static bool perf_segs(const struct result *r, uint64_t *segs)
{
	const struct test_item *f = &perf_of(r)->fig;

	if (f->have[IBTRACE_PERF_A_SEGS])
		*segs = f->val[IBTRACE_PERF_A_SEGS];
	else if (r->have[IBTRACE_A_TEST_PERF_SEGS])
		*segs = test_rval(r, IBTRACE_A_TEST_PERF_SEGS);
	else
		return false;
	return true;
}

/* "RW 4096 B x 1 segment, 1000 iterations, pipeline 16, busy poll, ACK timeout 14, server version 1" */
static void perf_params_text(const struct result *r)
{
	const struct test_item *f = &perf_of(r)->fig;
	char b[5][24];
	uint64_t segs = 0;
	bool have_segs = perf_segs(r, &segs);

	snprintf(b[0], sizeof(b[0]), "%" PRIu64, segs);
	printf("%s %s B x %s segment%s, %s iterations, pipeline %s, %s poll",
	       r->have[IBTRACE_A_TEST_PERF_OP] ?
	       ibt_perf_op_str(test_rval(r, IBTRACE_A_TEST_PERF_OP)) : "-",
	       ibt_num_str(r->have, r->val, IBTRACE_A_TEST_PERF_SEG_SIZE, b[1], sizeof(b[1])),
	       have_segs ? b[0] : "-", have_segs && segs == 1 ? "" : "s",
	       ibt_num_str(r->have, r->val, IBTRACE_A_TEST_ITERATIONS, b[2], sizeof(b[2])),
	       ibt_num_str(r->have, r->val, IBTRACE_A_TEST_PERF_PIPELINE, b[3], sizeof(b[3])),
	       r->have[IBTRACE_A_TEST_POLL] ?
	       ibt_test_poll_str(test_rval(r, IBTRACE_A_TEST_POLL)) : "-");
	if (r->have[IBTRACE_A_TEST_ACK_TIMEOUT])
		printf(", ACK timeout %" PRIu64, test_rval(r, IBTRACE_A_TEST_ACK_TIMEOUT));
	printf(", server version %s\n",
	       test_item_str(f, IBTRACE_PERF_A_SERVER_VERSION, b[4], sizeof(b[4])));
}

/* The parameters, then the figures (see the top of the file). */
static void perf_body_text(const struct result *r)
{
	const struct perf_data *d = perf_of(r);
	const struct test_item *f = &d->fig;
	char b[6][32];
	uint64_t ops;

	perf_params_text(r);
	if (!d->measured) {
		printf("nothing measured\n");
		return;
	}
	printf("operations %s  errors %s  bytes %s MB  time %s  %s MB/s  ",
	       test_item_str(f, IBTRACE_PERF_A_OPS, b[0], sizeof(b[0])),
	       test_item_str(f, IBTRACE_PERF_A_ERRORS, b[1], sizeof(b[1])),
	       test_item_mb_str(f, IBTRACE_PERF_A_BYTES, b[2], sizeof(b[2])),
	       test_item_dur_str(f, IBTRACE_PERF_A_ELAPSED_NS, b[3], sizeof(b[3])),
	       test_item_mb_per_s(f, IBTRACE_PERF_A_BYTES, IBTRACE_PERF_A_ELAPSED_NS, b[4],
				  sizeof(b[4])) ? b[4] : "-");
	if (ops_per_s(f, &ops))
		printf("%" PRIu64 " op/s\n", ops);
	else
		printf("- op/s\n");
	if (f->val[IBTRACE_PERF_A_ERRORS] || f->text[0])
		printf("first error: %s\n", f->text[0] ? f->text : "-");
	printf("latency (ns)  min %s  median %s  p99 %s  max %s\n",
	       test_item_str(f, IBTRACE_PERF_A_LAT_MIN_NS, b[0], sizeof(b[0])),
	       test_item_str(f, IBTRACE_PERF_A_LAT_MEDIAN_NS, b[1], sizeof(b[1])),
	       test_item_str(f, IBTRACE_PERF_A_LAT_P99_NS, b[2], sizeof(b[2])),
	       test_item_str(f, IBTRACE_PERF_A_LAT_MAX_NS, b[3], sizeof(b[3])));
}

static void perf_running_text(const struct result *r)
{
	printf("verdict: none yet (running, %s)\n",
	       perf_of(r)->measured ? "measured" : "measuring");
}

/* JSON */

static void perf_fig_json(struct ibt *ctx, const struct perf_data *d)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_PERF_A_OPS,		"ops" },
		{ IBTRACE_PERF_A_ERRORS,	"errors" },
		{ IBTRACE_PERF_A_BYTES,		"bytes" },
		{ IBTRACE_PERF_A_ELAPSED_NS,	"elapsed_ns" },
		{ IBTRACE_PERF_A_LAT_MIN_NS,	"lat_min_ns" },
		{ IBTRACE_PERF_A_LAT_MEDIAN_NS,	"lat_median_ns" },
		{ IBTRACE_PERF_A_LAT_P99_NS,	"lat_p99_ns" },
		{ IBTRACE_PERF_A_LAT_MAX_NS,	"lat_max_ns" },
		{ IBTRACE_PERF_A_SERVER_VERSION, "server_version" },
		{ IBTRACE_PERF_A_SEGS,		"segs" },
	};
	const struct test_item *f = &d->fig;
	char mb[32];
	uint64_t ops;

	ibt_out_obj_begin(ctx, "perf");
	ibt_out_nums(ctx, nums, 2, f->have, f->val);
	if (f->text[0])
		ibt_out_json(ctx, "wc_status", json_object_new_string(f->text));
	ibt_out_nums(ctx, nums + 2, IBT_ARRAY_SIZE(nums) - 2, f->have, f->val);
	if (test_item_mb_per_s(f, IBTRACE_PERF_A_BYTES, IBTRACE_PERF_A_ELAPSED_NS, mb,
			       sizeof(mb)))
		ibt_out_json(ctx, "mb_per_s", json_object_new_double_s(atof(mb), mb));
	if (ops_per_s(f, &ops))
		ibt_out_json(ctx, "ops_per_s", json_object_new_uint64(ops));
	ibt_out_obj_end(ctx);
}

/* The perf test's keys of a result object. */
static void perf_json(struct ibt *ctx, const struct result *r)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_A_TEST_PERF_SEG_SIZE,	"seg_size" },
		{ IBTRACE_A_TEST_PERF_SEGS,	"segs" },
		{ IBTRACE_A_TEST_PERF_PIPELINE,	"pipeline" },
		{ IBTRACE_A_TEST_ITERATIONS,	"iterations" },
	};
	static const struct ibt_num_key ack[] = {
		{ IBTRACE_A_TEST_ACK_TIMEOUT,	"ack_timeout" },
	};
	const struct perf_data *d = perf_of(r);

	if (r->have[IBTRACE_A_TEST_PERF_OP])
		ibt_out_json(ctx, "op",
			     json_object_new_string(ibt_perf_op_str(test_rval(r, IBTRACE_A_TEST_PERF_OP))));
	ibt_out_nums(ctx, nums, IBT_ARRAY_SIZE(nums), r->have, r->val);
	if (r->have[IBTRACE_A_TEST_POLL])
		ibt_out_json(ctx, "poll",
			     json_object_new_string(ibt_test_poll_str(test_rval(r, IBTRACE_A_TEST_POLL))));
	ibt_out_nums(ctx, ack, IBT_ARRAY_SIZE(ack), r->have, r->val);
	test_peer_json(ctx, r, "peer");
	if (d->measured)
		perf_fig_json(ctx, d);
}

/* the help's text of it */
_Static_assert(IBTRACE_TEST_PERF_MAX_BYTES == 4194304, "perf help: max bytes");

const struct ibt_test_def test_perf = {
	.name		= "perf",
	.synopsis	=
"  test run perf --peer GID [--peer-port PORT] [--iterations N] [--pipeline N]\n"
"       [--poll busy|event] [--ack-timeout N] RR|RW [SEG_SIZE [NUM_SEGS]] [-v]\n"
"       [--detach]\n",
	.usage		=
"       ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] test run perf\n"
"                  --peer GID [--peer-port PORT] [--iterations N]\n"
"                  [--pipeline N] [--poll busy|event] [--ack-timeout N]\n"
"                  RR|RW [SEG_SIZE [NUM_SEGS]] [-v|--verbose] [--detach]\n",
	.help		=
"perf: RDMA READ (RR) or WRITE (RW) latency and bandwidth of the local port\n"
"(-d, -p; without -d the first Active port, InfiniBand or RoCE) against the\n"
"buffer of host --peer GID, whose ibtrace server runs (server start), as\n"
"dapltest -T P; --peer-port: its RDMA CM port, 1..65535. SEG_SIZE: bytes of\n"
"a segment, 1..4194304 (default " IBT_STR(IBTRACE_TEST_PERF_DEF_SEG_SIZE) "); NUM_SEGS: segments of an\n"
"operation, 1.." IBT_STR(IBTRACE_TEST_PERF_MAX_SEGS) " (default 1); together at most 4194304 bytes.\n"
"--iterations: operations timed, 1.." IBT_STR(IBTRACE_TEST_PERF_MAX_ITERATIONS) " (default " IBT_STR(IBTRACE_TEST_PERF_DEF_ITERATIONS) "); --pipeline:\n"
"operations in flight, 1.." IBT_STR(IBTRACE_TEST_PERF_MAX_PIPELINE) " (default " IBT_STR(IBTRACE_TEST_PERF_DEF_PIPELINE) "); --poll: busy (default) or\n"
"event; --ack-timeout: the local ACK timeout of the QP, 4.096 us << N,\n"
"1.." IBT_STR(IBTRACE_TEST_MAX_ACK_TIMEOUT) " (default " IBT_STR(IBTRACE_TEST_DEF_ACK_TIMEOUT) ", 67 ms; perftest's -u). Prints the operations,\n"
"bytes, time, MB/s, op/s and the latency.\n",
	.any_link_layer	= true,
	.opts		= perf_opts,
	.args_size	= sizeof(struct perf_args),
	.opt		= perf_opt,
	.word		= perf_word,
	.check		= perf_check,
	.request	= perf_request,
	.owns		= perf_owns,
	.data_size	= sizeof(struct perf_data),
	.attrs		= perf_attrs,
	.absorb		= perf_absorb,
	.take		= perf_take,
	.running_text	= perf_running_text,
	.dut_text	= test_peer_dut_text,
	.body_text	= perf_body_text,
	.sends_mads	= false,
	.json		= perf_json,
};
