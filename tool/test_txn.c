// SPDX-License-Identifier: GPL-2.0-only
/*
 * The transaction test (the kernel's txn test, after dapltest -T T), as
 * the tool knows it: a sequence of SENDs, RDMA READs and RDMA WRITEs that
 * the local port (the client) and a peer host's ibtrace server walk
 * together, over THREADS x ENDPOINTS RC connections:
 *
 *   test run txn --peer GID [--peer-port N] [--iterations N]
 *        [--threads N] [--endpoints N] [--validate] [--corrupt OFFSET]
 *        [--poll busy|event] [--ack-timeout N] OP...
 *   OP := client|server SR|RR|RW [SEG_SIZE [NUM_SEGS]] [reap]
 *
 * dapltest's words: who initiates the operation, SR (SEND, received by
 * the other side), RR (RDMA READ of the other side's buffer) or RW (RDMA
 * WRITE to it), in either case; SEG_SIZE bytes of a segment (default
 * 4096), NUM_SEGS segments (default 1); "reap" (dapltest's -f, SR only):
 * the SEND's completion is reaped with the sender's next receive. Each
 * OP is one IBTRACE_A_TEST_TXN_OP nest, in order. --validate appends
 * three SENDs (client, server, client) at which each side checks the
 * bytes it received; --corrupt (with --validate) is the negative
 * control: the server flips a byte of the first operation whose data it
 * provides, in iteration 0, and dapltest-T#02 must fail naming it.
 *
 * The request's attributes come back (the operations with the three
 * appended ones, IBTRACE_TXN_OP_A_APPENDED), then the figures of each
 * endpoint once it finished (IBTRACE_A_TEST_TXN_EP, one nest each); they
 * print after the header:
 *
 *   job 25 test txn seed dapltest -T T dut rxe0/1 peer fe80::5054:ff:fe1b:2 port 7471
 *   1 thread x 2 endpoints, 1000 iterations, validate, corrupt offset 17, event poll, ACK timeout 14, server version 1
 *     op 0  client SR 256 B x 1 segment
 *     op 1  server RW 4096 B x 2 segments
 *     op 2  client SR 64 B x 1 segment (validation)
 *     op 3  server SR 64 B x 1 segment (validation)
 *     op 4  client SR 64 B x 1 segment (validation)
 *   thread 0 endpoint 0: iterations 1000  operations 2000 (server 1000)  errors 0  bytes 8.4 MB  time 120.00 ms  70.4 MB/s  mismatches 1
 *     first mismatch: iteration 0 op 1 (server RW) offset 17: expected 0x3a, found 0xc5 (1 byte differs)
 *   thread 0 endpoint 1: iterations 1000  operations 2000 (server 1000)  errors 0  bytes 8.4 MB  time 121.00 ms  69.8 MB/s  mismatches 0
 *   total: iterations 2000  operations 4000 (server 2000)  errors 0  bytes 16.9 MB  time 121.00 ms  139.6 MB/s  mismatches 1
 *
 * (MB: 10^6 bytes; "-" for a figure the kernel did not send; "validate"
 * or "no validation", ", corrupt offset N" with the negative control;
 * the server's version once when every endpoint's agrees, else "server
 * versions differ" and each endpoint's at the end of its line; a version 0
 * (the server did not answer) counts as none; ", reap"
 * and "(validation)" after an operation as they apply; the endpoints by
 * thread, then endpoint; "  first error: STATUS" under an endpoint with
 * errors; the total only for more than one endpoint: the sums, the
 * longest endpoint's time and the bytes of all over it; "no endpoint
 * finished" before any did.)
 * While the job runs, each endpoint prints once as it finishes:
 *
 *   job 25: thread 0 endpoint 0 finished: 1000 iterations, 2000 operations, 0 errors, 70.4 MB/s, 1 mismatch
 *
 * JSON keys (with the framework's): peer (GID string), peer_port,
 * threads, endpoints, iterations, validate (boolean), corrupt, poll
 * ("busy", "event"), ack_timeout, ops
 * [{index, who ("client", "server"), type ("SR", "RR", "RW"), seg_size,
 * segs, reap, appended (booleans)}], endpoint_results [{thread,
 * endpoint, server_version, iterations, ops, server_ops, bytes, errors,
 * wc_status, elapsed_ns, mismatches, mismatch {iteration, op, offset,
 * expected, observed}, mb_per_s (a number with one decimal)}] and totals
 * {endpoints (those that finished), iterations, ops, server_ops, bytes,
 * errors, mismatches, elapsed_ns (the longest), mb_per_s} (each number
 * only as sent, or summed from those sent; ops and endpoint_results only
 * once the kernel sent them; totals with endpoint_results).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "test.h"

enum {
	OPT_ITERATIONS,
	OPT_THREADS,
	OPT_ENDPOINTS,
	OPT_VALIDATE,
	OPT_CORRUPT,
	OPT_POLL,
	OPT_ACK_TIMEOUT,
	OPT_PEER,
	OPT_PEER_PORT,
};

/* The names are the perf test's where they mean the same. */
static const struct ibt_test_opt txn_opts[] = {
	{ "iterations",	0, true,  OPT_ITERATIONS },
	{ "threads",	0, true,  OPT_THREADS },
	{ "endpoints",	0, true,  OPT_ENDPOINTS },
	{ "validate",	0, false, OPT_VALIDATE },
	{ "corrupt",	0, true,  OPT_CORRUPT },
	{ "poll",	0, true,  OPT_POLL },
	{ "ack-timeout", 0, true, OPT_ACK_TIMEOUT },
	{ "peer",	0, true,  OPT_PEER },
	{ "peer-port",	0, true,  OPT_PEER_PORT },
	{ NULL },
};

/* Operations validation appends to the sequence. */
#define TXN_APPENDS	3

/* One OP of the command line. */
struct txn_op_arg {
	uint32_t who, type, seg_size, segs;
	bool has_seg_size, has_segs, reap;
};

/* Where the words of an OP are: what the next word may be. */
enum txn_word {
	W_NONE,		/* no OP yet: client|server */
	W_WHO,		/* after client|server: SR|RR|RW */
	W_TYPE,		/* after the type: SEG_SIZE, reap or the next OP */
	W_SEG_SIZE,	/* after SEG_SIZE: NUM_SEGS, reap or the next OP */
	W_SEGS,		/* after NUM_SEGS: reap or the next OP */
	W_REAP,		/* after reap: the next OP */
};

struct txn_args {
	uint32_t iterations, threads, endpoints, corrupt, poll, ack_timeout;
	struct test_peer_args peer;
	bool has_iterations, has_threads, has_endpoints, has_corrupt, validate,
	     has_poll, has_ack_timeout;
	struct txn_op_arg ops[IBTRACE_TEST_TXN_MAX_OPS];
	unsigned int nops;
	enum txn_word at;
};

/* What only this test's results have (struct result.data). */
struct txn_data {
	struct test_item ops[IBTRACE_TEST_TXN_MAX_OPS];	/* the OP nests */
	size_t nops;
	unsigned long ops_msg;		/* the message they came in */
	/* the EP nests, an endpoint's figures each; text: its first error's status */
	struct test_items eps;
};

/* Options and words; the ranges are the kernel's policy. */

#define TXN_ARG(f)	offsetof(struct txn_args, f)

static const struct ibt_num_opt txn_nums[] = {
	{ NULL, OPT_ITERATIONS, "--iterations", 1, IBTRACE_TEST_PERF_MAX_ITERATIONS,
	  "", "", TXN_ARG(iterations), TXN_ARG(has_iterations) },
	{ NULL, OPT_THREADS, "--threads", 1, IBTRACE_TEST_TXN_MAX_THREADS,
	  "", "", TXN_ARG(threads), TXN_ARG(has_threads) },
	{ NULL, OPT_ENDPOINTS, "--endpoints", 1, IBTRACE_TEST_TXN_MAX_ENDPOINTS,
	  "", "", TXN_ARG(endpoints), TXN_ARG(has_endpoints) },
	{ NULL, OPT_CORRUPT, "--corrupt", 0, IBTRACE_TEST_TXN_MAX_BYTES - 1,
	  "an offset ", "", TXN_ARG(corrupt), TXN_ARG(has_corrupt) },
	{ NULL, OPT_ACK_TIMEOUT, "--ack-timeout", 1, IBTRACE_TEST_MAX_ACK_TIMEOUT,
	  "", "", TXN_ARG(ack_timeout), TXN_ARG(has_ack_timeout) },
};

static int txn_opt(void *args, int id, const char *arg)
{
	struct txn_args *t = args;
	int ret = ibt_opt_nums(txn_nums, IBT_ARRAY_SIZE(txn_nums), id, arg, t);

	if (ret != IBT_OPT_UNKNOWN)
		return ret;
	if (id == OPT_VALIDATE) {
		t->validate = true;
		return 0;
	}
	if (id == OPT_POLL)
		return ibt_opt_poll(arg, &t->poll, &t->has_poll);
	return test_peer_opt(&t->peer, id == OPT_PEER_PORT, arg);
}

/* "reap" after the type or its numbers: SR only. */
static int txn_reap(struct txn_args *t)
{
	struct txn_op_arg *op = &t->ops[t->nops - 1];

	if (op->type != IBTRACE_TXN_SR)
		return ibt_err(IBT_EXIT_USAGE,
			       "reap (dapltest's -f) is only valid after an SR operation, not after %s %s",
			       ibt_txn_who_str(op->who), ibt_txn_type_str(op->type));
	op->reap = true;
	t->at = W_REAP;
	return 0;
}

/* SEG_SIZE or NUM_SEGS of the current OP. */
static int txn_num(struct txn_args *t, const char *word)
{
	struct txn_op_arg *op = &t->ops[t->nops - 1];

	if (t->at == W_TYPE) {
		t->at = W_SEG_SIZE;
		return ibt_opt_range("SEG_SIZE", word, 1, IBTRACE_TEST_TXN_MAX_BYTES,
				     "", " bytes", &op->seg_size, &op->has_seg_size);
	}
	t->at = W_SEGS;
	return ibt_opt_range("NUM_SEGS", word, 1, IBTRACE_TEST_PERF_MAX_SEGS, "",
			     " segments", &op->segs, &op->has_segs);
}

/* The words after "txn": OP..., each client|server SR|RR|RW [SEG_SIZE [NUM_SEGS]] [reap]. */
static int txn_word(void *args, const char *word)
{
	struct txn_args *t = args;
	uint32_t v;

	if (t->at == W_WHO) {
		if (ibt_parse_txn_type(word, &v))
			return ibt_err(IBT_EXIT_USAGE,
				       "unknown operation type \"%s\" for test txn: expected SR (SEND/RECV), RR (RDMA READ) or RW (RDMA WRITE)",
				       word);
		t->ops[t->nops - 1].type = v;
		t->at = W_TYPE;
		return 0;
	}
	if (!ibt_parse_txn_who(word, &v)) {
		if (t->nops == IBTRACE_TEST_TXN_MAX_OPS)
			return ibt_err(IBT_EXIT_USAGE,
				       "more than %d operations for test txn",
				       IBTRACE_TEST_TXN_MAX_OPS);
		t->ops[t->nops++].who = v;
		t->at = W_WHO;
		return 0;
	}
	if (t->at == W_NONE)
		return ibt_err(IBT_EXIT_USAGE,
			       "unknown side \"%s\" for test txn: an operation starts with client or server",
			       word);
	if (!strcasecmp(word, "reap") && t->at != W_REAP)
		return txn_reap(t);
	if ((t->at == W_TYPE || t->at == W_SEG_SIZE) && word[0] >= '0' && word[0] <= '9')
		return txn_num(t, word);
	return ibt_err(IBT_EXIT_USAGE,
		       "unexpected argument \"%s\" after test txn %s %s: expected %sclient or server (the next operation)",
		       word, ibt_txn_who_str(t->ops[t->nops - 1].who),
		       ibt_txn_type_str(t->ops[t->nops - 1].type),
		       t->at == W_TYPE ? "SEG_SIZE, reap, " :
		       t->at == W_SEG_SIZE ? "NUM_SEGS, reap, " :
		       t->at == W_SEGS ? "reap, " : "");
}

static uint64_t op_bytes(const struct txn_op_arg *op)
{
	return (uint64_t)(op->has_seg_size ? op->seg_size : IBTRACE_TEST_PERF_DEF_SEG_SIZE) *
	       (op->has_segs ? op->segs : 1);
}

/* Whether the server provides the data of @op (so --corrupt can flip it). */
static bool server_provides(uint32_t who, uint32_t type)
{
	return who == IBTRACE_TXN_SERVER ? type != IBTRACE_TXN_RR : type == IBTRACE_TXN_RR;
}

/*
 * --corrupt's target: within the first operation given whose data the
 * server provides.
 */
static int txn_check_corrupt(const struct txn_args *t)
{
	const struct txn_op_arg *op;
	unsigned int i;

	if (!t->validate)
		return ibt_err(IBT_EXIT_USAGE,
			       "--corrupt needs --validate: the negative control flips a byte that the validation must find");
	for (i = 0; i < t->nops; i++) {
		op = &t->ops[i];
		if (!server_provides(op->who, op->type))
			continue;
		if (t->corrupt >= op_bytes(op))
			return ibt_err(IBT_EXIT_USAGE,
				       "--corrupt %u is past the %" PRIu64 " bytes of operation %u (%s %s), the first whose data the server provides",
				       t->corrupt, op_bytes(op), i, ibt_txn_who_str(op->who),
				       ibt_txn_type_str(op->type));
		return 0;
	}
	return 0;	/* none given: the kernel judges (the appends) */
}

static int txn_check(const void *args)
{
	const struct txn_args *t = args;
	unsigned int i, most;
	uint64_t bytes = 0;

	if (!t->peer.has_gid)
		return ibt_err(IBT_EXIT_USAGE,
			       "test txn needs --peer GID, a host whose ibtrace server runs");
	if (!t->nops)
		return ibt_err(IBT_EXIT_USAGE,
			       "test txn needs at least one operation: client|server SR|RR|RW [SEG_SIZE [NUM_SEGS]] [reap]");
	if (t->at == W_WHO)
		return ibt_err(IBT_EXIT_USAGE,
			       "operation %u (%s) needs a type: SR (SEND/RECV), RR (RDMA READ) or RW (RDMA WRITE)",
			       t->nops - 1, ibt_txn_who_str(t->ops[t->nops - 1].who));
	most = IBTRACE_TEST_TXN_MAX_OPS - (t->validate ? TXN_APPENDS : 0);
	if (t->nops > most)
		return ibt_err(IBT_EXIT_USAGE,
			       "%u operations are more than the %u test txn takes with --validate (it appends %d)",
			       t->nops, most, TXN_APPENDS);
	for (i = 0; i < t->nops; i++)
		bytes += op_bytes(&t->ops[i]);
	if (bytes > IBTRACE_TEST_TXN_MAX_BYTES)
		return ibt_err(IBT_EXIT_USAGE,
			       "the operations move %" PRIu64 " bytes together, more than the %d of the buffer of one endpoint",
			       bytes, IBTRACE_TEST_TXN_MAX_BYTES);
	if (t->has_corrupt)
		return txn_check_corrupt(t);
	return 0;
}

/* The request's attributes of the options given, then the peer's, then the OPs. */
static const struct ibt_req_opt txn_req[] = {
	{ IBTRACE_A_TEST_TXN_THREADS, IBT_REQ_U32, TXN_ARG(threads), TXN_ARG(has_threads) },
	{ IBTRACE_A_TEST_TXN_ENDPOINTS, IBT_REQ_U32, TXN_ARG(endpoints),
	  TXN_ARG(has_endpoints) },
	{ IBTRACE_A_TEST_TXN_VALIDATE, IBT_REQ_FLAG, 0, TXN_ARG(validate) },
	{ IBTRACE_A_TEST_TXN_CORRUPT, IBT_REQ_U32, TXN_ARG(corrupt), TXN_ARG(has_corrupt) },
	{ IBTRACE_A_TEST_ITERATIONS, IBT_REQ_U32, TXN_ARG(iterations),
	  TXN_ARG(has_iterations) },
	{ IBTRACE_A_TEST_POLL, IBT_REQ_U8, TXN_ARG(poll), TXN_ARG(has_poll) },
	{ IBTRACE_A_TEST_ACK_TIMEOUT, IBT_REQ_U8, TXN_ARG(ack_timeout),
	  TXN_ARG(has_ack_timeout) },
};

#define TXN_OP(f)	offsetof(struct txn_op_arg, f)

/* An OP nest's attributes. */
static const struct ibt_req_opt txn_op_req[] = {
	{ IBTRACE_TXN_OP_A_WHO, IBT_REQ_U8, TXN_OP(who), IBT_NUM_NO_FLAG },
	{ IBTRACE_TXN_OP_A_TYPE, IBT_REQ_U8, TXN_OP(type), IBT_NUM_NO_FLAG },
	{ IBTRACE_TXN_OP_A_SEG_SIZE, IBT_REQ_U32, TXN_OP(seg_size), TXN_OP(has_seg_size) },
	{ IBTRACE_TXN_OP_A_SEGS, IBT_REQ_U32, TXN_OP(segs), TXN_OP(has_segs) },
	{ IBTRACE_TXN_OP_A_REAP, IBT_REQ_FLAG, 0, TXN_OP(reap) },
};

static int txn_request(struct nl_msg *msg, const void *args)
{
	const struct txn_args *t = args;
	struct nlattr *nest;
	unsigned int i;

	if (ibt_nl_put_opts(msg, txn_req, IBT_ARRAY_SIZE(txn_req), t) ||
	    test_peer_request(msg, &t->peer))
		return -1;
	for (i = 0; i < t->nops; i++) {
		nest = nla_nest_start(msg, IBTRACE_A_TEST_TXN_OP);
		if (!nest || ibt_nl_put_opts(msg, txn_op_req, IBT_ARRAY_SIZE(txn_op_req),
					     &t->ops[i]))
			return -1;
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* Decoding */

static const struct txn_data txn_none;

static const struct txn_data *txn_of(const struct result *r)
{
	return r->data_def == &test_txn ? r->data : &txn_none;
}

/* A result of the transaction test by its attributes (its name aside). */
static bool txn_owns(const struct result *r)
{
	const struct txn_data *d = txn_of(r);

	return d->nops || d->eps.n || r->have[IBTRACE_A_TEST_TXN_THREADS] ||
	       r->have[IBTRACE_A_TEST_TXN_ENDPOINTS];
}

static const int txn_attrs[] = {
	IBTRACE_A_TEST_TXN_OP,
	IBTRACE_A_TEST_TXN_EP,
	0,
};

/* An OP nest: the operations a message carries replace the earlier ones. */
static int txn_absorb_op(struct ibt *ctx, struct txn_data *d, const struct result *r,
			 struct nlattr *a)
{
	struct test_item op = { 0 };
	int ret;

	ret = test_item_absorb(ctx, &op, a, IBTRACE_TXN_OP_A_WHO, IBTRACE_TXN_OP_A_MAX, -1);
	if (ret)
		return ret;
	if (d->ops_msg != r->nmsgs) {
		d->ops_msg = r->nmsgs;
		d->nops = 0;
	}
	if (d->nops == IBTRACE_TEST_TXN_MAX_OPS)
		return ibt_err(IBT_EXIT_ERR,
			       "malformed kernel reply: more than %d transaction operations",
			       IBTRACE_TEST_TXN_MAX_OPS);
	d->ops[d->nops++] = op;
	return 0;
}

/* An EP nest: it replaces the one of the same thread and endpoint. */
static const struct test_items_nest txn_eps = {
	IBTRACE_TXN_EP_A_THREAD, IBTRACE_TXN_EP_A_EP, IBTRACE_TXN_EP_A_MAX,
	IBTRACE_TXN_EP_A_WC_STATUS, "transaction figures without a thread or endpoint"
};

static int txn_absorb(struct ibt *ctx, struct result *r, void *data,
		      struct nlattr *a)
{
	struct txn_data *d = data;

	if (nla_type(a) == IBTRACE_A_TEST_TXN_EP)
		return test_items_absorb(ctx, &d->eps, a, &txn_eps);
	return txn_absorb_op(ctx, d, r, a);
}

/* @k's operations and endpoints, those it has, replace @d's. */
static void txn_take(void *data, void *k_data)
{
	struct txn_data *d = data, *k = k_data;

	if (!k)
		return;
	if (k->nops) {
		memcpy(d->ops, k->ops, sizeof(d->ops));
		d->nops = k->nops;
	}
	if (k->eps.n)
		test_items_take(&d->eps, &k->eps);
}

static void txn_free(void *data)
{
	struct txn_data *d = data;

	test_items_free(&d->eps);
}

/* Figures */

/* An endpoint's (or the totals') MB/s into @buf; false without a time. */
static bool mb_per_s(const struct test_item *f, char *buf, size_t len)
{
	return test_item_mb_per_s(f, IBTRACE_TXN_EP_A_BYTES, IBTRACE_TXN_EP_A_ELAPSED_NS,
				  buf, len);
}

/* The figures summed over the endpoints: the time is the longest one's. */
static void txn_totals(const struct txn_data *d, struct test_item *tot)
{
	static const int sums[] = {
		IBTRACE_TXN_EP_A_ITERATIONS, IBTRACE_TXN_EP_A_OPS,
		IBTRACE_TXN_EP_A_SERVER_OPS, IBTRACE_TXN_EP_A_BYTES,
		IBTRACE_TXN_EP_A_ERRORS, IBTRACE_TXN_EP_A_MISMATCHES,
	};
	const struct test_item *f;
	size_t k, i;
	int a;

	memset(tot, 0, sizeof(*tot));
	for (k = 0; k < d->eps.n; k++) {
		f = &d->eps.v[k];
		for (i = 0; i < IBT_ARRAY_SIZE(sums); i++) {
			a = sums[i];
			if (!f->have[a])
				continue;
			tot->have[a] = true;
			tot->val[a] += f->val[a];
		}
		a = IBTRACE_TXN_EP_A_ELAPSED_NS;
		if (f->have[a] && (!tot->have[a] || f->val[a] > tot->val[a])) {
			tot->have[a] = true;
			tot->val[a] = f->val[a];
		}
	}
}

/* The server's version of endpoint @f; false if not sent or 0 (it did not answer). */
static bool ep_version(const struct test_item *f, uint64_t *v)
{
	*v = f->val[IBTRACE_TXN_EP_A_SERVER_VERSION];
	return f->have[IBTRACE_TXN_EP_A_SERVER_VERSION] && *v;
}

/*
 * The server version every endpoint that has one agrees on (*@v); false
 * when none has one or they differ (*@differ).
 */
static bool txn_version(const struct txn_data *d, uint64_t *v, bool *differ)
{
	bool have = false;
	uint64_t e;
	size_t k;

	*differ = false;
	for (k = 0; k < d->eps.n; k++) {
		if (!ep_version(&d->eps.v[k], &e))
			continue;
		if (have && e != *v) {
			*differ = true;
			return false;
		}
		have = true;
		*v = e;
	}
	return have;
}

static int ep_cmp(const void *x, const void *y)
{
	const struct test_item *a = *(const struct test_item *const *)x;
	const struct test_item *b = *(const struct test_item *const *)y;
	const int th = IBTRACE_TXN_EP_A_THREAD, ep = IBTRACE_TXN_EP_A_EP;

	if (a->val[th] != b->val[th])
		return a->val[th] < b->val[th] ? -1 : 1;
	if (a->val[ep] != b->val[ep])
		return a->val[ep] < b->val[ep] ? -1 : 1;
	return 0;
}

/* The endpoints by thread, then endpoint (freed by the caller); NULL if none. */
static const struct test_item **eps_sorted(const struct txn_data *d)
{
	const struct test_item **v;
	size_t k;

	if (!d->eps.n)
		return NULL;
	v = calloc(d->eps.n, sizeof(*v));
	if (!v)
		return NULL;
	for (k = 0; k < d->eps.n; k++)
		v[k] = &d->eps.v[k];
	qsort(v, d->eps.n, sizeof(*v), ep_cmp);
	return v;
}

/* Text */

/* "client SR" of operation @i, "?" for one the kernel did not list. */
static void op_name(const struct txn_data *d, uint64_t i, char *buf, size_t len)
{
	const struct test_item *o;

	if (i >= d->nops) {
		snprintf(buf, len, "?");
		return;
	}
	o = &d->ops[i];
	snprintf(buf, len, "%s %s",
		 o->have[IBTRACE_TXN_OP_A_WHO] ? ibt_txn_who_str(o->val[IBTRACE_TXN_OP_A_WHO]) : "-",
		 o->have[IBTRACE_TXN_OP_A_TYPE] ? ibt_txn_type_str(o->val[IBTRACE_TXN_OP_A_TYPE]) : "-");
}

/* "1 thread x 2 endpoints, 1000 iterations, validate, corrupt offset 17, server version 1" */
static void txn_params_text(const struct result *r, const struct txn_data *d)
{
	const bool *h = r->have;
	char b[3][24];
	bool differ;
	uint64_t v;

	printf("%s thread%s x %s endpoint%s, %s iterations, %s",
	       ibt_num_str(r->have, r->val, IBTRACE_A_TEST_TXN_THREADS, b[0], sizeof(b[0])),
	       h[IBTRACE_A_TEST_TXN_THREADS] && test_rval(r, IBTRACE_A_TEST_TXN_THREADS) == 1 ?
	       "" : "s",
	       ibt_num_str(r->have, r->val, IBTRACE_A_TEST_TXN_ENDPOINTS, b[1], sizeof(b[1])),
	       h[IBTRACE_A_TEST_TXN_ENDPOINTS] && test_rval(r, IBTRACE_A_TEST_TXN_ENDPOINTS) == 1 ?
	       "" : "s",
	       ibt_num_str(r->have, r->val, IBTRACE_A_TEST_ITERATIONS, b[2], sizeof(b[2])),
	       h[IBTRACE_A_TEST_TXN_VALIDATE] ? "validate" : "no validation");
	if (h[IBTRACE_A_TEST_TXN_CORRUPT])
		printf(", corrupt offset %" PRIu64, test_rval(r, IBTRACE_A_TEST_TXN_CORRUPT));
	if (h[IBTRACE_A_TEST_POLL])
		printf(", %s poll", ibt_test_poll_str(test_rval(r, IBTRACE_A_TEST_POLL)));
	if (h[IBTRACE_A_TEST_ACK_TIMEOUT])
		printf(", ACK timeout %" PRIu64, test_rval(r, IBTRACE_A_TEST_ACK_TIMEOUT));
	if (txn_version(d, &v, &differ))
		printf(", server version %" PRIu64 "\n", v);
	else if (differ)
		printf(", server versions differ\n");
	else
		printf(", server version -\n");
}

/* "  op 1  server RW 4096 B x 2 segments, reap (validation)" */
static void txn_op_text(const struct txn_data *d, size_t i)
{
	const struct test_item *o = &d->ops[i];
	char name[32], b[2][24];

	op_name(d, i, name, sizeof(name));
	printf("  op %zu  %s %s B x %s segment%s%s%s\n", i, name,
	       test_item_str(o, IBTRACE_TXN_OP_A_SEG_SIZE, b[0], sizeof(b[0])),
	       test_item_str(o, IBTRACE_TXN_OP_A_SEGS, b[1], sizeof(b[1])),
	       test_item_plural(o, IBTRACE_TXN_OP_A_SEGS, "s"),
	       o->have[IBTRACE_TXN_OP_A_REAP] ? ", reap" : "",
	       o->have[IBTRACE_TXN_OP_A_APPENDED] ? " (validation)" : "");
}

/*
 * "iterations 1000  operations 4000 (server 2000)  errors 0  bytes 8.6 MB
 * time 120.00 ms  71.7 MB/s" and "  mismatches N" when sent.
 */
static void figures_text(const struct test_item *f)
{
	char b[7][32];

	printf("iterations %s  operations %s (server %s)  errors %s  bytes %s MB  time %s  %s MB/s",
	       test_item_str(f, IBTRACE_TXN_EP_A_ITERATIONS, b[0], sizeof(b[0])),
	       test_item_str(f, IBTRACE_TXN_EP_A_OPS, b[1], sizeof(b[1])),
	       test_item_str(f, IBTRACE_TXN_EP_A_SERVER_OPS, b[2], sizeof(b[2])),
	       test_item_str(f, IBTRACE_TXN_EP_A_ERRORS, b[3], sizeof(b[3])),
	       test_item_mb_str(f, IBTRACE_TXN_EP_A_BYTES, b[4], sizeof(b[4])),
	       test_item_dur_str(f, IBTRACE_TXN_EP_A_ELAPSED_NS, b[5], sizeof(b[5])),
	       mb_per_s(f, b[6], sizeof(b[6])) ? b[6] : "-");
	if (f->have[IBTRACE_TXN_EP_A_MISMATCHES])
		printf("  mismatches %" PRIu64, f->val[IBTRACE_TXN_EP_A_MISMATCHES]);
}

/*
 * "  first mismatch: iteration 0 op 1 (server RW) offset 17: expected
 * 0x3a, found 0xc5 (1 byte differs)"
 */
static void mismatch_text(const struct txn_data *d, const struct test_item *f)
{
	char b[3][24], name[32] = "?", ex[8] = "-", ob[8] = "-";
	uint64_t n = f->val[IBTRACE_TXN_EP_A_MISMATCHES];

	if (f->have[IBTRACE_TXN_EP_A_MISMATCH_OP])
		op_name(d, f->val[IBTRACE_TXN_EP_A_MISMATCH_OP], name, sizeof(name));
	if (f->have[IBTRACE_TXN_EP_A_MISMATCH_EXPECTED])
		snprintf(ex, sizeof(ex), "0x%02" PRIx64, f->val[IBTRACE_TXN_EP_A_MISMATCH_EXPECTED]);
	if (f->have[IBTRACE_TXN_EP_A_MISMATCH_OBSERVED])
		snprintf(ob, sizeof(ob), "0x%02" PRIx64, f->val[IBTRACE_TXN_EP_A_MISMATCH_OBSERVED]);
	printf("  first mismatch: iteration %s op %s (%s) offset %s: expected %s, found %s",
	       test_item_str(f, IBTRACE_TXN_EP_A_MISMATCH_ITERATION, b[0], sizeof(b[0])),
	       test_item_str(f, IBTRACE_TXN_EP_A_MISMATCH_OP, b[1], sizeof(b[1])), name,
	       test_item_str(f, IBTRACE_TXN_EP_A_MISMATCH_OFFSET, b[2], sizeof(b[2])), ex, ob);
	if (f->have[IBTRACE_TXN_EP_A_MISMATCHES])
		printf(" (%" PRIu64 " byte%s differ%s)", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
	putchar('\n');
}

/* An endpoint's line, then its first error and first mismatch. */
static void txn_ep_text(const struct txn_data *d, const struct test_item *f,
			bool own_version)
{
	uint64_t v;

	printf("thread %" PRIu64 " endpoint %" PRIu64 ": ",
	       f->val[IBTRACE_TXN_EP_A_THREAD], f->val[IBTRACE_TXN_EP_A_EP]);
	figures_text(f);
	if (own_version && ep_version(f, &v))
		printf("  server version %" PRIu64, v);
	else if (own_version)
		printf("  server version -");
	putchar('\n');
	if (f->val[IBTRACE_TXN_EP_A_ERRORS] || f->text[0])
		printf("  first error: %s\n", f->text[0] ? f->text : "-");
	if (f->have[IBTRACE_TXN_EP_A_MISMATCH_OP] || f->val[IBTRACE_TXN_EP_A_MISMATCHES])
		mismatch_text(d, f);
}

/* The parameters, the operations, the endpoints (see the top of the file). */
static void txn_body_text(const struct result *r)
{
	const struct txn_data *d = txn_of(r);
	const struct test_item **eps;
	struct test_item tot;
	bool own_version;
	uint64_t v;
	size_t k;

	txn_params_text(r, d);
	txn_version(d, &v, &own_version);
	for (k = 0; k < d->nops; k++)
		txn_op_text(d, k);
	if (!d->eps.n) {
		printf("no endpoint finished\n");
		return;
	}
	eps = eps_sorted(d);
	for (k = 0; k < d->eps.n; k++)
		txn_ep_text(d, eps ? eps[k] : &d->eps.v[k], own_version);
	free(eps);
	if (d->eps.n < 2)
		return;
	txn_totals(d, &tot);
	printf("total: ");
	figures_text(&tot);
	putchar('\n');
}

/*
 * Each endpoint once, as it finishes (@shown: how many are printed; they
 * are kept in the order they came):
 *   job 25: thread 0 endpoint 0 finished: 1000 iterations, 2000 operations, 0 errors, 70.4 MB/s, 1 mismatch
 */
static void txn_progress_text(uint64_t job, const struct result *ev,
			      uint32_t *shown)
{
	const struct txn_data *d = txn_of(ev);
	const struct test_item *f;
	char b[4][32];

	for (; *shown < d->eps.n; (*shown)++) {
		f = &d->eps.v[*shown];
		printf("job %" PRIu64 ": thread %" PRIu64 " endpoint %" PRIu64 " finished: %s iteration%s, %s operation%s, %s error%s, %s MB/s",
		       job, f->val[IBTRACE_TXN_EP_A_THREAD], f->val[IBTRACE_TXN_EP_A_EP],
		       test_item_str(f, IBTRACE_TXN_EP_A_ITERATIONS, b[0], sizeof(b[0])),
		       test_item_plural(f, IBTRACE_TXN_EP_A_ITERATIONS, "s"),
		       test_item_str(f, IBTRACE_TXN_EP_A_OPS, b[1], sizeof(b[1])),
		       test_item_plural(f, IBTRACE_TXN_EP_A_OPS, "s"),
		       test_item_str(f, IBTRACE_TXN_EP_A_ERRORS, b[2], sizeof(b[2])),
		       test_item_plural(f, IBTRACE_TXN_EP_A_ERRORS, "s"),
		       mb_per_s(f, b[3], sizeof(b[3])) ? b[3] : "-");
		if (f->have[IBTRACE_TXN_EP_A_MISMATCHES])
			printf(", %" PRIu64 " mismatch%s", f->val[IBTRACE_TXN_EP_A_MISMATCHES],
			       test_item_plural(f, IBTRACE_TXN_EP_A_MISMATCHES, "es"));
		putchar('\n');
		fflush(stdout);
	}
}

/* "verdict: none yet (running, 1 of 4 endpoints finished)" */
static void txn_running_text(const struct result *r)
{
	const int th = IBTRACE_A_TEST_TXN_THREADS, ep = IBTRACE_A_TEST_TXN_ENDPOINTS;
	char b[24] = "-";

	if (r->have[th] && r->have[ep])
		snprintf(b, sizeof(b), "%" PRIu64, test_rval(r, th) * test_rval(r, ep));
	printf("verdict: none yet (running, %zu of %s endpoints finished)\n",
	       txn_of(r)->eps.n, b);
}

/* JSON */

static void txn_ops_json(struct ibt *ctx, const struct txn_data *d)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_TXN_OP_A_SEG_SIZE,	"seg_size" },
		{ IBTRACE_TXN_OP_A_SEGS,	"segs" },
	};
	const struct test_item *o;
	size_t i;

	ibt_out_arr_begin(ctx, "ops");
	for (i = 0; i < d->nops; i++) {
		o = &d->ops[i];
		ibt_out_obj_begin(ctx, NULL);
		ibt_out_json(ctx, "index", json_object_new_uint64(i));
		if (o->have[IBTRACE_TXN_OP_A_WHO])
			ibt_out_json(ctx, "who",
				     json_object_new_string(ibt_txn_who_str(o->val[IBTRACE_TXN_OP_A_WHO])));
		if (o->have[IBTRACE_TXN_OP_A_TYPE])
			ibt_out_json(ctx, "type",
				     json_object_new_string(ibt_txn_type_str(o->val[IBTRACE_TXN_OP_A_TYPE])));
		ibt_out_nums(ctx, nums, IBT_ARRAY_SIZE(nums), o->have, o->val);
		ibt_out_json(ctx, "reap",
			     json_object_new_boolean(o->have[IBTRACE_TXN_OP_A_REAP]));
		ibt_out_json(ctx, "appended",
			     json_object_new_boolean(o->have[IBTRACE_TXN_OP_A_APPENDED]));
		ibt_out_obj_end(ctx);
	}
	ibt_out_arr_end(ctx);
}

/* The figures of @f: @nums, then "mb_per_s". */
static void figures_json(struct ibt *ctx, const struct ibt_num_key *nums, size_t n,
			 const struct test_item *f)
{
	char mb[32];

	ibt_out_nums(ctx, nums, n, f->have, f->val);
	if (mb_per_s(f, mb, sizeof(mb)))
		ibt_out_json(ctx, "mb_per_s", json_object_new_double_s(atof(mb), mb));
}

static void txn_ep_json(struct ibt *ctx, const struct test_item *f)
{
	static const struct ibt_num_key head[] = {
		{ IBTRACE_TXN_EP_A_THREAD,		"thread" },
		{ IBTRACE_TXN_EP_A_EP,			"endpoint" },
		{ IBTRACE_TXN_EP_A_SERVER_VERSION,	"server_version" },
		{ IBTRACE_TXN_EP_A_ITERATIONS,		"iterations" },
		{ IBTRACE_TXN_EP_A_OPS,			"ops" },
		{ IBTRACE_TXN_EP_A_SERVER_OPS,		"server_ops" },
		{ IBTRACE_TXN_EP_A_BYTES,		"bytes" },
		{ IBTRACE_TXN_EP_A_ERRORS,		"errors" },
	};
	static const struct ibt_num_key tail[] = {
		{ IBTRACE_TXN_EP_A_ELAPSED_NS,		"elapsed_ns" },
		{ IBTRACE_TXN_EP_A_MISMATCHES,		"mismatches" },
	};
	static const struct ibt_num_key mismatch[] = {
		{ IBTRACE_TXN_EP_A_MISMATCH_ITERATION,	"iteration" },
		{ IBTRACE_TXN_EP_A_MISMATCH_OP,		"op" },
		{ IBTRACE_TXN_EP_A_MISMATCH_OFFSET,	"offset" },
		{ IBTRACE_TXN_EP_A_MISMATCH_EXPECTED,	"expected" },
		{ IBTRACE_TXN_EP_A_MISMATCH_OBSERVED,	"observed" },
	};
	size_t i;

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_nums(ctx, head, IBT_ARRAY_SIZE(head), f->have, f->val);
	if (f->text[0])
		ibt_out_json(ctx, "wc_status", json_object_new_string(f->text));
	ibt_out_nums(ctx, tail, IBT_ARRAY_SIZE(tail), f->have, f->val);
	for (i = 0; i < IBT_ARRAY_SIZE(mismatch); i++)
		if (f->have[mismatch[i].attr])
			break;
	if (i < IBT_ARRAY_SIZE(mismatch)) {
		ibt_out_obj_begin(ctx, "mismatch");
		ibt_out_nums(ctx, mismatch, IBT_ARRAY_SIZE(mismatch), f->have, f->val);
		ibt_out_obj_end(ctx);
	}
	figures_json(ctx, NULL, 0, f);
	ibt_out_obj_end(ctx);
}

static void txn_eps_json(struct ibt *ctx, const struct txn_data *d)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_TXN_EP_A_ITERATIONS,	"iterations" },
		{ IBTRACE_TXN_EP_A_OPS,		"ops" },
		{ IBTRACE_TXN_EP_A_SERVER_OPS,	"server_ops" },
		{ IBTRACE_TXN_EP_A_BYTES,	"bytes" },
		{ IBTRACE_TXN_EP_A_ERRORS,	"errors" },
		{ IBTRACE_TXN_EP_A_MISMATCHES,	"mismatches" },
		{ IBTRACE_TXN_EP_A_ELAPSED_NS,	"elapsed_ns" },
	};
	const struct test_item **eps = eps_sorted(d);
	struct test_item tot;
	size_t k;

	ibt_out_arr_begin(ctx, "endpoint_results");
	for (k = 0; k < d->eps.n; k++)
		txn_ep_json(ctx, eps ? eps[k] : &d->eps.v[k]);
	ibt_out_arr_end(ctx);
	free(eps);
	txn_totals(d, &tot);
	ibt_out_obj_begin(ctx, "totals");
	ibt_out_json(ctx, "endpoints", json_object_new_uint64(d->eps.n));
	figures_json(ctx, nums, IBT_ARRAY_SIZE(nums), &tot);
	ibt_out_obj_end(ctx);
}

/* The transaction test's keys of a result object. */
static void txn_json(struct ibt *ctx, const struct result *r)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_A_TEST_TXN_THREADS,	"threads" },
		{ IBTRACE_A_TEST_TXN_ENDPOINTS,	"endpoints" },
		{ IBTRACE_A_TEST_ITERATIONS,	"iterations" },
	};
	static const struct ibt_num_key ack[] = {
		{ IBTRACE_A_TEST_ACK_TIMEOUT,	"ack_timeout" },
	};
	const struct txn_data *d = txn_of(r);

	test_peer_json(ctx, r, "peer");
	ibt_out_nums(ctx, nums, IBT_ARRAY_SIZE(nums), r->have, r->val);
	ibt_out_json(ctx, "validate",
		     json_object_new_boolean(r->have[IBTRACE_A_TEST_TXN_VALIDATE]));
	if (r->have[IBTRACE_A_TEST_TXN_CORRUPT])
		ibt_out_json(ctx, "corrupt",
			     json_object_new_uint64(test_rval(r, IBTRACE_A_TEST_TXN_CORRUPT)));
	if (r->have[IBTRACE_A_TEST_POLL])
		ibt_out_json(ctx, "poll",
			     json_object_new_string(ibt_test_poll_str(test_rval(r, IBTRACE_A_TEST_POLL))));
	ibt_out_nums(ctx, ack, IBT_ARRAY_SIZE(ack), r->have, r->val);
	if (d->nops)
		txn_ops_json(ctx, d);
	if (d->eps.n)
		txn_eps_json(ctx, d);
}

/* the help's text of it */
#define TXN_HELP_MAX_OPS_V	13
_Static_assert(TXN_HELP_MAX_OPS_V == IBTRACE_TEST_TXN_MAX_OPS - TXN_APPENDS,
	       "txn help: operations with --validate");
_Static_assert(IBTRACE_TEST_TXN_MAX_BYTES == 4194304, "txn help: max bytes");
_Static_assert(IBTRACE_TEST_PERF_MAX_ITERATIONS == 1000000, "txn help: max iterations");

const struct ibt_test_def test_txn = {
	.name		= "txn",
	.synopsis	=
"  test run txn --peer GID [--peer-port PORT] [--iterations N] [--threads N]\n"
"       [--endpoints N] [--validate] [--corrupt OFFSET] [--poll busy|event]\n"
"       [--ack-timeout N] OP... [-v] [--detach]\n"
"       OP := client|server SR|RR|RW [SEG_SIZE [NUM_SEGS]] [reap]\n",
	.usage		=
"       ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] test run txn\n"
"                  --peer GID [--peer-port PORT] [--iterations N]\n"
"                  [--threads N] [--endpoints N] [--validate]\n"
"                  [--corrupt OFFSET] [--poll busy|event] [--ack-timeout N]\n"
"                  OP... [-v|--verbose] [--detach]\n"
"                  OP := client|server SR|RR|RW [SEG_SIZE [NUM_SEGS]] [reap]\n",
	.help		=
"txn: the transaction test, as dapltest -T T: the local port (-d, -p; without\n"
"-d the first Active port, InfiniBand or RoCE) and the ibtrace server of host\n"
"--peer GID walk a sequence of operations together, --iterations times\n"
"(1..1000000, default " IBT_STR(IBTRACE_TEST_TXN_DEF_ITERATIONS) "), over --threads (1.." IBT_STR(IBTRACE_TEST_TXN_MAX_THREADS) ", default 1) x --endpoints\n"
"(1.." IBT_STR(IBTRACE_TEST_TXN_MAX_ENDPOINTS) ", default 1) RC connections; --peer-port: its RDMA CM port,\n"
"1..65535. Each OP: who initiates it (client: this host, server: the peer),\n"
"SR (SEND/RECV), RR (RDMA READ) or RW (RDMA WRITE) in either case, SEG_SIZE\n"
"bytes of a segment (default " IBT_STR(IBTRACE_TEST_PERF_DEF_SEG_SIZE) "), NUM_SEGS segments (1.." IBT_STR(IBTRACE_TEST_PERF_MAX_SEGS) ", default 1),\n"
"and \"reap\" (SR only, dapltest's -f): the SEND's completion is reaped with\n"
"the next receive. At most " IBT_STR(IBTRACE_TEST_TXN_MAX_OPS) " operations and 4194304 bytes together.\n"
"--validate appends three SENDs at which each side checks every byte it\n"
"received (then at most " IBT_STR(TXN_HELP_MAX_OPS_V) " operations); --corrupt OFFSET (with --validate):\n"
"the server flips that byte of the first operation whose data it provides,\n"
"once, so the check must fail. Without --validate the sequence needs an SR\n"
"each way. --poll: event (default, as dapltest without -P) or busy, how\n"
"this host reaps its completions. --ack-timeout: the local ACK timeout of\n"
"this host's QPs, 4.096 us << N, 1.." IBT_STR(IBTRACE_TEST_MAX_ACK_TIMEOUT) " (default " IBT_STR(IBTRACE_TEST_DEF_ACK_TIMEOUT) ", 67 ms; perftest's -u;\n"
"the server's QPs keep " IBT_STR(IBTRACE_TEST_DEF_ACK_TIMEOUT) "). Prints the operations and, per\n"
"endpoint, the iterations, operations, errors, bytes, time, MB/s and\n"
"mismatches.\n",
	.any_link_layer	= true,
	.opts		= txn_opts,
	.args_size	= sizeof(struct txn_args),
	.opt		= txn_opt,
	.word		= txn_word,
	.check		= txn_check,
	.request	= txn_request,
	.owns		= txn_owns,
	.data_size	= sizeof(struct txn_data),
	.attrs		= txn_attrs,
	.absorb		= txn_absorb,
	.take		= txn_take,
	.free_data	= txn_free,
	.progress_attr	= IBTRACE_A_TEST_TXN_EP,
	.progress_text	= txn_progress_text,
	.dut_text	= test_peer_dut_text,
	.body_text	= txn_body_text,
	.running_text	= txn_running_text,
	.sends_mads	= false,
	.json		= txn_json,
};
