// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden cases of job.c: a progress message holding a batch of a
 * flood's probes goes to the kind one probe at a time, in order; and how
 * a wait for a job's end takes a read that fails (the module unloaded)
 * with and without the end having come in during that read.
 */
#include <errno.h>

#include "../job.c"
#include "golden.h"

/* A kind that prints each probe of its progress messages. */
static int probe_seq(struct ibt *ctx, void *arg, struct nlattr *a)
{
	struct nlattr *tb[IBTRACE_PROBE_A_MAX + 1];
	int ret = ibt_nl_parse_nest(ctx, a, tb);

	(void)arg;
	if (ret)
		return ret;
	printf("probe seq %u\n", tb[IBTRACE_PROBE_A_SEQ] ?
	       nla_get_u32(tb[IBTRACE_PROBE_A_SEQ]) : 0);
	return 0;
}

static int end_msg(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		   void *arg)
{
	(void)ctx;
	(void)nlh;
	(void)tb;
	(void)arg;
	printf("not a probe\n");
	return 0;
}

static const struct ibt_job_kind probe_kind = {
	.progress_cmd = IBTRACE_CMD_PING_PROBE,
	.progress_attr = IBTRACE_A_PING_PROBE,
	.progress = probe_seq,
	.msg = end_msg,
};

static int run_batch(struct ibt *ctx, void *arg)
{
	struct ibt_job_follow f = { .id = 7, .kind = &probe_kind };
	int ret = job_cb(ctx, nlmsg_hdr(arg), &f);

	printf("messages counted %lu\n", f.nevents);
	return ret;
}

/* What the read does: the end comes in (or not), then the family is gone. */
struct read_case {
	bool end_first;
	bool ended;
	int reads;
};

static int fake_read(struct ibt *ctx, void *arg, bool *finished)
{
	struct read_case *c = arg;

	(void)ctx;
	(void)finished;
	c->reads++;
	c->ended = c->end_first;
	return -ENOENT;
}

static int run_wait(struct ibt *ctx, void *arg)
{
	struct read_case *c = arg;
	unsigned long nevents = 0;
	bool cancel_sent = false;
	const struct ibt_job_waiter w = {
		.id = 7,
		.ended = &c->ended,
		.nevents = &nevents,
		.cancel_sent = &cancel_sent,
		.poll_ms = 4,
		.read = fake_read,
		.arg = c,
		.gone_exit = IBT_EXIT_ERR,
		.gone_what = "end",
	};
	int ret;

	/* a socket nothing is sent to: the wait only times out */
	ctx->sk = nl_socket_alloc();
	if (!ctx->sk || nl_connect(ctx->sk, NETLINK_GENERIC))
		return ibt_err(IBT_EXIT_ERR, "golden: no netlink socket");
	c->ended = false;
	c->reads = 0;
	ret = ibt_job_wait(ctx, &w);
	printf("reads %d, ended %s\n", c->reads, c->ended ? "yes" : "no");
	nl_socket_free(ctx->sk);
	ctx->sk = NULL;
	return ret;
}

void golden_job(void)
{
	struct nl_msg *msg = golden_msg(IBTRACE_CMD_PING_PROBE);
	struct read_case end_first = { .end_first = true };
	struct read_case gone = { .end_first = false };
	struct nlattr *nest;
	uint32_t seq;

	nla_put_u32(msg, IBTRACE_A_JOB, 7);
	for (seq = 1; seq <= 3; seq++) {
		nest = nla_nest_start(msg, IBTRACE_A_PING_PROBE);
		nla_put_u32(msg, IBTRACE_PROBE_A_SEQ, seq);
		nla_put_u8(msg, IBTRACE_PROBE_A_STATUS, IBTRACE_PROBE_OK);
		nla_nest_end(msg, nest);
	}
	golden_run("job progress: a batch of three probes", run_batch, msg);
	nlmsg_free(msg);
	golden_run("job wait: the end came in during a read that failed",
		   run_wait, &end_first);
	golden_run("job wait: a read found the job gone", run_wait, &gone);
}
