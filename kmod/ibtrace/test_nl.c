// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - IBTRACE_CMD_TEST_LIST, _RUN, _GET, _CANCEL and the
 * IBTRACE_CMD_TEST_EVENT messages of the "test" multicast group.
 *
 * RUN starts a job (test.c) and replies with its ID at once; the job's
 * progress goes to the group; GET reads a job's result, running or
 * finished.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "netlink.h"
#include "test.h"

#define IBTRACE_TEST_NAME_MAX		32

static struct netlink_range_validation ibtrace_test_size_range = {
	.min = 1, .max = IBTRACE_TEST_MAX_SIZE,
};

static struct netlink_range_validation ibtrace_test_deadline_range = {
	.min = 1, .max = IBTRACE_TEST_MAX_DEADLINE_MS,
};

static struct netlink_range_validation ibtrace_test_budget_range = {
	.min = 1, .max = IBTRACE_TEST_LIMIT_MAX_BUDGET_MB,
};

static struct netlink_range_validation ibtrace_test_iterations_range = {
	.min = 1, .max = IBTRACE_TEST_PERF_MAX_ITERATIONS,
};

static struct netlink_range_validation ibtrace_test_seg_size_range = {
	.min = 1, .max = IBTRACE_TEST_PERF_MAX_BYTES,
};

static struct netlink_range_validation ibtrace_test_txn_bytes_range = {
	.min = 1, .max = IBTRACE_TEST_TXN_MAX_BYTES,
};

static struct netlink_range_validation ibtrace_test_txn_offset_range = {
	.min = 0, .max = IBTRACE_TEST_TXN_MAX_BYTES - 1,
};

/* One operation of the transaction test (APPENDED: results only). */
static const struct nla_policy
ibtrace_test_txn_op_policy[IBTRACE_TXN_OP_A_REAP + 1] = {
	[IBTRACE_TXN_OP_A_WHO] = NLA_POLICY_MAX(NLA_U8, IBTRACE_TXN_SERVER),
	[IBTRACE_TXN_OP_A_TYPE] = NLA_POLICY_MAX(NLA_U8, IBTRACE_TXN_RW),
	[IBTRACE_TXN_OP_A_SEG_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_test_txn_bytes_range),
	[IBTRACE_TXN_OP_A_SEGS] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_TEST_PERF_MAX_SEGS),
	[IBTRACE_TXN_OP_A_REAP] = { .type = NLA_FLAG },
};

const struct nla_policy
ibtrace_test_run_policy[IBTRACE_A_TEST_ACK_TIMEOUT + 1] = {
	IBTRACE_NL_PORT_POLICY,
	[IBTRACE_A_TEST_NAME] = { .type = NLA_NUL_STRING,
				  .len = IBTRACE_TEST_NAME_MAX - 1 },
	[IBTRACE_A_TEST_DR_PATH] =
		NLA_POLICY_RANGE(NLA_BINARY, 1, IBTRACE_TRACE_MAX_HOPS),
	[IBTRACE_A_TEST_LID] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_lid_range),
	[IBTRACE_A_TEST_DUT_PORT] = NLA_POLICY_RANGE(NLA_U8, 0, 254),
	[IBTRACE_A_TEST_BLOCKS] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_TEST_GUIDINFO_BLOCKS),
	[IBTRACE_A_TEST_TIMEOUT_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_timeout_range),
	[IBTRACE_A_TEST_RETRIES] =
		NLA_POLICY_RANGE(NLA_U32, 0, IBTRACE_MAX_RETRIES),
	[IBTRACE_A_TEST_RNR_TIMER] =
		NLA_POLICY_MAX(NLA_U8, IBTRACE_TEST_RNR_CODES - 1),
	[IBTRACE_A_TEST_RNR_ALL] = { .type = NLA_FLAG },
	/* 7 (infinite) passes the policy to get its own message below. */
	[IBTRACE_A_TEST_RNR_RETRY] = NLA_POLICY_MAX(NLA_U8, 7),
	[IBTRACE_A_TEST_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_test_size_range),
	/* Each test has its own bound (its check()); this is the largest. */
	[IBTRACE_A_TEST_ITERATIONS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_test_iterations_range),
	[IBTRACE_A_TEST_POLL] =
		NLA_POLICY_MAX(NLA_U8, IBTRACE_TEST_POLL_EVENT),
	[IBTRACE_A_TEST_RNR_RECV_POSTED] = { .type = NLA_FLAG },
	[IBTRACE_A_TEST_PEER_GID] = NLA_POLICY_EXACT_LEN(sizeof(union ib_gid)),
	[IBTRACE_A_TEST_PEER_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[IBTRACE_A_TEST_DEADLINE_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_test_deadline_range),
	[IBTRACE_A_JOB_DETACH] = { .type = NLA_FLAG },
	[IBTRACE_A_TEST_LIMIT_OBJECTS] =
		NLA_POLICY_MASK(NLA_U32, BIT(__IBTRACE_LIMIT_MAX) - 1),
	[IBTRACE_A_TEST_LIMIT_MAX] = NLA_POLICY_MIN(NLA_U32, 1),
	[IBTRACE_A_TEST_LIMIT_WIDTH] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_TEST_LIMIT_MAX_WIDTH),
	[IBTRACE_A_TEST_LIMIT_BUDGET_MB] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_test_budget_range),
	[IBTRACE_A_TEST_PERF_OP] =
		NLA_POLICY_MAX(NLA_U8, IBTRACE_PERF_OP_RDMA_WRITE),
	[IBTRACE_A_TEST_PERF_SEG_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_test_seg_size_range),
	[IBTRACE_A_TEST_PERF_SEGS] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_TEST_PERF_MAX_SEGS),
	[IBTRACE_A_TEST_PERF_PIPELINE] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_TEST_PERF_MAX_PIPELINE),
	[IBTRACE_A_TEST_TXN_THREADS] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_TEST_TXN_MAX_THREADS),
	[IBTRACE_A_TEST_TXN_ENDPOINTS] =
		NLA_POLICY_RANGE(NLA_U32, 1, IBTRACE_TEST_TXN_MAX_ENDPOINTS),
	[IBTRACE_A_TEST_TXN_VALIDATE] = { .type = NLA_FLAG },
	[IBTRACE_A_TEST_TXN_OP] = NLA_POLICY_NESTED(ibtrace_test_txn_op_policy),
	[IBTRACE_A_TEST_TXN_CORRUPT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_test_txn_offset_range),
	[IBTRACE_A_TEST_ACK_TIMEOUT] =
		NLA_POLICY_RANGE(NLA_U8, 1, IBTRACE_TEST_MAX_ACK_TIMEOUT),
};

const struct nla_policy ibtrace_test_job_policy[IBTRACE_A_TEST_JOB + 1] = {
	[IBTRACE_A_TEST_JOB] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ibtrace_nl_job_id_range),
};

static int ibtrace_test_parse_rnr(struct nlattr **attrs,
				  struct netlink_ext_ack *extack,
				  struct ibtrace_test_args *args)
{
	struct nlattr *timer = attrs[IBTRACE_A_TEST_RNR_TIMER];
	struct nlattr *retry = attrs[IBTRACE_A_TEST_RNR_RETRY];

	if (timer && attrs[IBTRACE_A_TEST_RNR_ALL]) {
		NL_SET_ERR_MSG_ATTR(extack, timer,
				    "give one RNR timer code or all, not both");
		return -EINVAL;
	}
	args->rnr_timer = timer ? nla_get_u8(timer) :
				  IBTRACE_TEST_DEF_RNR_TIMER;
	args->rnr_all = nla_get_flag(attrs[IBTRACE_A_TEST_RNR_ALL]);
	args->deadline_ms = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_DEADLINE_MS,
					       0);
	args->rnr_retry = IBTRACE_TEST_DEF_RNR_RETRY;
	if (retry) {
		args->rnr_retry = nla_get_u8(retry);
		if (args->rnr_retry == 7 && !args->deadline_ms) {
			NL_SET_ERR_MSG_ATTR(extack, retry,
					    "rnr_retry 7 means retry forever: give a deadline with it, or 0..6");
			return -EINVAL;
		}
	}
	if (attrs[IBTRACE_A_TEST_PEER_GID]) {
		args->peer = true;
		nla_memcpy(&args->peer_gid, attrs[IBTRACE_A_TEST_PEER_GID],
			   sizeof(args->peer_gid));
	}
	args->peer_port = ibtrace_rnr_responder_port;
	if (attrs[IBTRACE_A_TEST_PEER_PORT]) {
		if (!args->peer) {
			NL_SET_ERR_MSG_ATTR(extack,
					    attrs[IBTRACE_A_TEST_PEER_PORT],
					    "a peer port needs a peer GID");
			return -EINVAL;
		}
		args->peer_port = nla_get_u16(attrs[IBTRACE_A_TEST_PEER_PORT]);
	}
	args->size = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_SIZE, 0);
	args->iterations = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_ITERATIONS,
					      0);
	args->poll = IBTRACE_TEST_POLL_BUSY;
	if (attrs[IBTRACE_A_TEST_POLL])
		args->poll = nla_get_u8(attrs[IBTRACE_A_TEST_POLL]);
	args->rnr_recv_posted =
		nla_get_flag(attrs[IBTRACE_A_TEST_RNR_RECV_POSTED]);
	return 0;
}

static void ibtrace_test_parse_limit(struct nlattr **attrs,
				     struct ibtrace_test_args *args)
{
	struct nlattr *objects = attrs[IBTRACE_A_TEST_LIMIT_OBJECTS];

	args->limit_objects = objects ? nla_get_u32(objects) :
					BIT(__IBTRACE_LIMIT_MAX) - 1;
	args->limit_max = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_LIMIT_MAX, 0);
	args->limit_width = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_LIMIT_WIDTH,
					       1);
	args->limit_budget_mb =
		ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_LIMIT_BUDGET_MB,
				   IBTRACE_TEST_LIMIT_DEF_BUDGET_MB);
}

static int ibtrace_test_parse(struct nlattr **attrs, struct ibtrace_port *port,
			      struct netlink_ext_ack *extack,
			      struct ibtrace_test_args *args)
{
	struct nlattr *dr = attrs[IBTRACE_A_TEST_DR_PATH];
	int i;

	if (dr && attrs[IBTRACE_A_TEST_LID]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[IBTRACE_A_TEST_LID],
				    "give a directed route or a LID, not both");
		return -EINVAL;
	}
	if (dr) {
		const u8 *p = nla_data(dr);

		for (i = 0; i < nla_len(dr); i++) {
			if (!p[i]) {
				NL_SET_ERR_MSG_ATTR(extack, dr,
						    "port 0 in the directed route");
				return -EINVAL;
			}
		}
		if (p[0] != port->port_num) {
			NL_SET_ERR_MSG_ATTR(extack, dr,
					    "the directed route must start with the local port");
			return -EINVAL;
		}
		args->route.hops = nla_len(dr);
		memcpy(&args->route.path[1], p, nla_len(dr));
	}
	args->route.lid = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_LID, 0);
	args->dut_port = -1;
	if (attrs[IBTRACE_A_TEST_DUT_PORT])
		args->dut_port = nla_get_u8(attrs[IBTRACE_A_TEST_DUT_PORT]);
	args->blocks = ibtrace_nl_get_u32(attrs, IBTRACE_A_TEST_BLOCKS,
					  IBTRACE_TEST_GUIDINFO_BLOCKS);
	ibtrace_nl_get_timing(attrs, IBTRACE_A_TEST_TIMEOUT_MS,
			      IBTRACE_A_TEST_RETRIES, &args->timeout_ms,
			      &args->retries);
	ibtrace_test_parse_limit(attrs, args);
	args->ack_timeout = IBTRACE_TEST_DEF_ACK_TIMEOUT;
	if (attrs[IBTRACE_A_TEST_ACK_TIMEOUT])
		args->ack_timeout = nla_get_u8(attrs[IBTRACE_A_TEST_ACK_TIMEOUT]);
	return ibtrace_test_parse_rnr(attrs, extack, args);
}

/**
 * ibtrace_nl_test_check() - the request's arguments of a test job
 * @job: the job, not started
 * @port: the local port the request names
 * @info: the request
 *
 * Return: 0 or -EINVAL (said in @info->extack).
 */
int ibtrace_nl_test_check(struct ibtrace_job *job, struct ibtrace_port *port,
			  struct genl_info *info)
{
	struct ibtrace_test_job *tj = ibtrace_test_job(job);
	int err;

	err = ibtrace_test_parse(info->attrs, port, info->extack, &tj->args);
	if (err || !tj->def->check)
		return err;
	return tj->def->check(&tj->args, info);
}

/**
 * ibtrace_nl_test_reply() - the reply to IBTRACE_CMD_TEST_RUN after the port
 * @skb: the reply
 * @job: the job, started
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_nl_test_reply(struct sk_buff *skb, struct ibtrace_job *job)
{
	if (nla_put_u32(skb, IBTRACE_A_TEST_JOB, job->id) ||
	    nla_put_string(skb, IBTRACE_A_TEST_NAME,
			   ibtrace_test_job(job)->def->name))
		return -EMSGSIZE;
	return 0;
}

int ibtrace_nl_test_run_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	const struct ibtrace_test_def *def;
	struct ibtrace_test_job *job;

	if (!attrs[IBTRACE_A_TEST_NAME]) {
		NL_SET_ERR_MSG(info->extack, "a test name is required");
		return -EINVAL;
	}
	def = ibtrace_test_find(nla_data(attrs[IBTRACE_A_TEST_NAME]));
	if (!def) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[IBTRACE_A_TEST_NAME],
				    "no such test");
		return -ENOENT;
	}
	job = ibtrace_test_new(def);
	if (!job)
		return -ENOMEM;
	return ibtrace_nl_job_start(&job->base, info, IBTRACE_CMD_TEST_RUN);
}

int ibtrace_nl_test_cancel_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtrace_nl_job_cancel(info, IBTRACE_JOB_TEST);
}

/* An assertion's nest: what it asserts and, in a job, how it went. */
struct ibtrace_assert_msg {
	const struct ibtrace_assert_def *def;
	const struct ibtrace_assert_rec *rec;
};

static int ibtrace_assert_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_assert_msg *m = data;
	const struct ibtrace_assert_rec *rec = m->rec;

	if (nla_put_string(skb, IBTRACE_ASSERT_A_ID, m->def->id) ||
	    nla_put_string(skb, IBTRACE_ASSERT_A_DESC, m->def->desc))
		return -EMSGSIZE;
	if (!rec)
		return 0;
	if (nla_put_u8(skb, IBTRACE_ASSERT_A_RESULT, rec->result) ||
	    nla_put_u32(skb, IBTRACE_ASSERT_A_CHECKS, rec->checks))
		return -EMSGSIZE;
	if (!rec->checks)
		return 0;
	return nla_put_string(skb, IBTRACE_ASSERT_A_EXPECTED, rec->expected) ||
	       nla_put_string(skb, IBTRACE_ASSERT_A_OBSERVED, rec->observed) ||
	       nla_put_string(skb, IBTRACE_ASSERT_A_WHERE, rec->where);
}

static int ibtrace_put_assert(struct sk_buff *skb,
			      const struct ibtrace_assert_def *def,
			      const struct ibtrace_assert_rec *rec)
{
	const struct ibtrace_assert_msg m = { .def = def, .rec = rec };

	return ibtrace_nl_put_nest(skb, IBTRACE_A_TEST_ASSERTION,
				   ibtrace_assert_attrs, &m);
}

static int ibtrace_xchg_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_xchg_rec *x = data;

	if (nla_put_u32(skb, IBTRACE_XCHG_A_SEQ, x->seq) ||
	    nla_put_u8(skb, IBTRACE_XCHG_A_METHOD, x->method) ||
	    nla_put_u16(skb, IBTRACE_XCHG_A_ATTR_ID, x->attr_id) ||
	    nla_put_u32(skb, IBTRACE_XCHG_A_ATTR_MOD, x->attr_mod) ||
	    nla_put_u8(skb, IBTRACE_XCHG_A_OUTCOME, x->outcome) ||
	    nla_put_u32(skb, IBTRACE_XCHG_A_ATTEMPTS, x->attempts) ||
	    nla_put_u8(skb, IBTRACE_XCHG_A_PHASE, x->phase))
		return -EMSGSIZE;
	if (x->outcome != IBTRACE_XCHG_ANSWERED)
		return 0;
	return nla_put_u16(skb, IBTRACE_XCHG_A_STATUS, x->status) ||
	       nla_put_u64_64bit(skb, IBTRACE_XCHG_A_RTT_NS, x->rtt_ns,
				 IBTRACE_XCHG_A_PAD);
}

/* Who the job is and where it stands; job->base.lock held. */
static int ibtrace_put_job_head(struct sk_buff *skb,
				const struct ibtrace_test_job *job)
{
	const struct ibtrace_test_dut *dut = &job->dut;
	const struct ibtrace_job *base = &job->base;

	if (ibtrace_job_put_port(skb, base) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_JOB, base->id) ||
	    nla_put_string(skb, IBTRACE_A_TEST_NAME, job->def->name) ||
	    nla_put_string(skb, IBTRACE_A_TEST_SEED, job->def->seed) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_STATE, base->state) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_VERDICT, job->verdict) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_RESTORE, job->restore) ||
	    nla_put_u64_64bit(skb, IBTRACE_A_TEST_ELAPSED_NS,
			      ibtrace_job_elapsed_ns(base), IBTRACE_A_PAD))
		return -EMSGSIZE;
	/* MAD exchanges and GUIDInfo blocks are an SMP test's business. */
	if (job->def->smp &&
	    (nla_put_u32(skb, IBTRACE_A_TEST_EXCHANGES, job->n_xchg) ||
	     nla_put_u32(skb, IBTRACE_A_TEST_BLOCKS, job->args.blocks)))
		return -EMSGSIZE;
	if (job->reason[0] &&
	    nla_put_string(skb, IBTRACE_A_TEST_REASON, job->reason))
		return -EMSGSIZE;
	if (job->args.route.lid &&
	    nla_put_u32(skb, IBTRACE_A_TEST_LID, job->args.route.lid))
		return -EMSGSIZE;
	if (job->args.route.hops &&
	    nla_put(skb, IBTRACE_A_TEST_DR_PATH, job->args.route.hops,
		    &job->args.route.path[1]))
		return -EMSGSIZE;
	if (job->args.peer &&
	    (nla_put(skb, IBTRACE_A_TEST_PEER_GID,
		     sizeof(job->args.peer_gid.raw), job->args.peer_gid.raw) ||
	     nla_put_u16(skb, IBTRACE_A_TEST_PEER_PORT, job->args.peer_port)))
		return -EMSGSIZE;
	if (dut->known &&
	    (nla_put_u8(skb, IBTRACE_A_TEST_DUT_NODE_TYPE, dut->node_type) ||
	     nla_put_u8(skb, IBTRACE_A_TEST_DUT_PORT, dut->port) ||
	     nla_put_u64_64bit(skb, IBTRACE_A_TEST_DUT_NODE_GUID,
			       dut->node_guid, IBTRACE_A_PAD) ||
	     nla_put_u64_64bit(skb, IBTRACE_A_TEST_DUT_PORT_GUID,
			       dut->port_guid, IBTRACE_A_PAD)))
		return -EMSGSIZE;
	if (dut->has_port_info &&
	    (nla_put_u32(skb, IBTRACE_A_TEST_DUT_LID, dut->lid) ||
	     nla_put_u8(skb, IBTRACE_A_TEST_GUID_CAP, dut->guid_cap)))
		return -EMSGSIZE;
	return 0;
}

/* A job's body: head, assertions, exchanges (@full), the test's own. */
static int ibtrace_put_job_body(struct sk_buff *skb,
				struct ibtrace_test_job *job, bool full)
{
	unsigned int i;

	if (ibtrace_put_job_head(skb, job))
		return -EMSGSIZE;
	for (i = 0; i < job->def->n_asserts; i++)
		if (ibtrace_put_assert(skb, &job->def->asserts[i],
				       &job->asserts[i]))
			return -EMSGSIZE;
	if (full) {
		u32 n = min_t(u32, job->n_xchg, IBTRACE_TEST_MAX_EXCHANGES);

		for (i = 0; i < n; i++)
			if (ibtrace_nl_put_nest(skb, IBTRACE_A_TEST_EXCHANGE,
						ibtrace_xchg_attrs,
						&job->xchg[i]))
				return -EMSGSIZE;
	}
	if (job->def->fill &&
	    job->def->fill(skb, job, full ? IBTRACE_TEST_FILL_ALL :
					    IBTRACE_TEST_FILL_SUMMARY))
		return -EMSGSIZE;
	return 0;
}

/**
 * ibtrace_nl_test_fill() - a test job's results in a JOB_GET message
 * @skb: the message
 * @job: the job; its lock held
 * @full: with the exchanges (a "do" reply), else a dump entry
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_nl_test_fill(struct sk_buff *skb, struct ibtrace_job *job,
			 bool full)
{
	return ibtrace_put_job_body(skb, ibtrace_test_job(job), full);
}

/**
 * ibtrace_test_put_results() - a test's list of results, as much of it as
 *	@what says: none in a summary, the newest in an event, all in a reply
 * @skb: message being built
 * @job: the job (its lock held)
 * @what: &enum ibtrace_test_fill
 * @n: results so far
 * @put: puts result @i of @job (one nest)
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_test_put_results(struct sk_buff *skb,
			     const struct ibtrace_test_job *job,
			     enum ibtrace_test_fill what, u32 n,
			     ibtrace_test_put_t put)
{
	u32 i = 0;

	if (what == IBTRACE_TEST_FILL_SUMMARY)
		return 0;
	if (what == IBTRACE_TEST_FILL_NEWEST && n)
		i = n - 1;
	for (; i < n; i++)
		if (put(skb, job, i))
			return -EMSGSIZE;
	return 0;
}

/**
 * ibtrace_nl_test_size() - room a test job's full GET reply needs
 * @job: the job
 *
 * Head, assertions, up to %IBTRACE_TEST_MAX_EXCHANGES exchanges and the
 * test's own results (its @fill_size, else at most one nest per RNR timer
 * code).
 *
 * Return: bytes.
 */
size_t ibtrace_nl_test_size(struct ibtrace_job *job)
{
	const struct ibtrace_test_def *def = ibtrace_test_job(job)->def;

	return 1024 + def->n_asserts * 512 + IBTRACE_TEST_MAX_EXCHANGES * 96 +
	       (def->fill_size ?: def->fill ? IBTRACE_TEST_RNR_CODES * 256 : 0);
}

/* TEST_GET: the job's body, all of it (a "do" reply) or not (a dump). */
static int ibtrace_test_get_body(struct sk_buff *skb, struct ibtrace_job *job,
				 const void *full)
{
	return ibtrace_put_job_body(skb, ibtrace_test_job(job),
				    *(const bool *)full);
}

int ibtrace_nl_test_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibtrace_nl_job_get(info, IBTRACE_JOB_TEST, IBTRACE_CMD_TEST_GET,
				  ibtrace_test_get_body);
}

int ibtrace_nl_test_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ibtrace_nl_job_get_dump(skb, cb, IBTRACE_JOB_TEST,
				       IBTRACE_CMD_TEST_GET,
				       ibtrace_test_get_body);
}

int ibtrace_nl_test_list_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	unsigned int t, i;
	void *hdr;

	for (t = cb->args[0]; t < ibtrace_n_tests; t++) {
		const struct ibtrace_test_def *def = ibtrace_tests[t];

		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ibtrace_genl_family,
				  NLM_F_MULTI, IBTRACE_CMD_TEST_LIST);
		if (!hdr)
			break;
		if (nla_put_string(skb, IBTRACE_A_TEST_NAME, def->name) ||
		    nla_put_string(skb, IBTRACE_A_TEST_SEED, def->seed) ||
		    nla_put_string(skb, IBTRACE_A_TEST_DESC, def->desc) ||
		    nla_put_string(skb, IBTRACE_A_TEST_NEEDS, def->needs))
			goto err_cancel;
		for (i = 0; i < def->n_asserts; i++)
			if (ibtrace_put_assert(skb, &def->asserts[i], NULL))
				goto err_cancel;
		genlmsg_end(skb, hdr);
		cb->args[0] = t + 1;
		continue;
err_cancel:
		genlmsg_cancel(skb, hdr);
		break;
	}
	return skb->len;
}

/* What an event says (ibtrace_nl_test_event()'s arguments). */
struct ibtrace_test_event_msg {
	u8 event;
	int assert_idx;
};

static int ibtrace_test_event_body(struct sk_buff *skb,
				   struct ibtrace_job *base, const void *arg)
{
	const struct ibtrace_test_event_msg *e = arg;
	struct ibtrace_test_job *job = ibtrace_test_job(base);
	int i = e->assert_idx;

	if (ibtrace_put_job_head(skb, job) ||
	    nla_put_u8(skb, IBTRACE_A_TEST_EVENT, e->event) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_PROGRESS, job->n_xchg))
		return -EMSGSIZE;
	if (e->event == IBTRACE_TEST_EVENT_ASSERTION)
		return i >= 0 ? ibtrace_put_assert(skb, &job->def->asserts[i],
						   &job->asserts[i]) : 0;
	if (job->def->fill)
		return job->def->fill(skb, job, IBTRACE_TEST_FILL_NEWEST);
	return 0;
}

/**
 * ibtrace_nl_test_event() - tell the "test" group how a job goes
 * @job: the job
 * @event: &enum ibtrace_test_event
 * @assert_idx: for %IBTRACE_TEST_EVENT_ASSERTION, the assertion
 *
 * Sleeps. Sends nothing when nobody listens; a listener whose socket is
 * full misses the event (the result stays available through GET).
 */
void ibtrace_nl_test_event(struct ibtrace_test_job *job, u8 event,
			   int assert_idx)
{
	const struct ibtrace_test_event_msg e = {
		.event = event,
		.assert_idx = assert_idx,
	};
	struct sk_buff *skb;

	if (!genl_has_listeners(&ibtrace_genl_family, &init_net,
				IBTRACE_NL_MCGRP_TEST))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (ibtrace_job_put_msg(skb, &job->base, 0, 0, 0, IBTRACE_CMD_TEST_EVENT,
				ibtrace_test_event_body, &e)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&ibtrace_genl_family, skb, 0, IBTRACE_NL_MCGRP_TEST,
			  GFP_KERNEL);
}
