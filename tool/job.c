// SPDX-License-Identifier: GPL-2.0-only
/*
 * Following a kernel job (a ping, a trace) from the tool: the request
 * that starts it returns the job's ID at once; its messages (probes,
 * hops, the end) reach ctx->notify as they happen, and through job_cb()
 * the kind of job (struct ibt_job_kind). ibt_job_wait() waits
 * for the end: a SIGINT or SIGTERM sends IBTRACE_CMD_JOB_CANCEL once (the
 * end message follows within a second), and when the kernel dropped
 * messages or nothing came for IBT_JOB_POLL_MS, the job is read with
 * IBTRACE_CMD_JOB_GET in case its end was lost.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ibtracectl.h"

/* silence after which the job is read, in case its end was lost */
#define IBT_JOB_POLL_MS		1000

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Send cancel request @cmd for job @id (attribute @attr), again while a
 * repeated signal interrupts it, IBT_CANCEL_TRIES times at most: the
 * exchange's result (IBT_EXIT_INTR when every attempt was interrupted).
 */
int ibt_job_cancel_send(struct ibt *ctx, uint8_t cmd, int attr, uint32_t id)
{
	int ret, tries = 0;

	do {
		struct nl_msg *msg = ibt_nl_req_u32(ctx, cmd, false, attr, id);

		if (!msg)
			return IBT_EXIT_ERR;
		ibt_interrupted = 0;
		ret = ibt_nl_exchange(ctx, msg, NULL, NULL);
	} while (ret == IBT_EXIT_INTR && ++tries < IBT_CANCEL_TRIES);
	return ret;
}

/* Send IBTRACE_CMD_JOB_CANCEL for @id; 0 or a printed exit code. */
int ibt_job_cancel(struct ibt *ctx, uint32_t id)
{
	int ret = ibt_job_cancel_send(ctx, IBTRACE_CMD_JOB_CANCEL, IBTRACE_A_JOB, id);

	/*
	 * A job that has just finished, or is gone, needs no cancel; an
	 * answer lost among the job's messages came after the kernel had
	 * run the cancel (the end message, or a read, tells the rest).
	 */
	if (ret == -EALREADY || ret == -ENOENT || ret == -ENOBUFS)
		return 0;
	if (ret < 0)
		return ibt_nl_report(ctx, -ret);
	return ret;
}

/*
 * A message while job @f is followed, parsed into @tb (the ibtrace
 * family's top level): *@ours is false for a message of another job
 * (to ignore), else it is counted in @f->nevents. An exit code.
 */
static int job_parse(struct ibt *ctx, struct nlmsghdr *nlh,
		     struct ibt_job_follow *f, struct nlattr **tb, bool *ours)
{
	int ret = ibt_nl_parse(ctx, nlh, tb);

	*ours = false;
	if (ret)
		return ret;
	if (f->id && tb[IBTRACE_A_JOB] && nla_get_u32(tb[IBTRACE_A_JOB]) != f->id)
		return 0;
	*ours = true;
	f->nevents++;
	return 0;
}

/* Every message of the job followed as @arg: to its kind (see there). */
static int job_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct ibt_job_follow *f = arg;
	const struct ibt_job_kind *k = f->kind;
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	bool ours;
	int ret;

	ret = job_parse(ctx, nlh, f, tb, &ours);
	if (ret || !ours)
		return ret;
	if (genlmsg_hdr(nlh)->cmd == k->progress_cmd)
		/* one or more: a batch of a flood's probes, in order */
		return ibt_nl_each(ctx, nlh, k->progress_attr, k->progress,
				   f->arg);
	if (!f->id && tb[IBTRACE_A_JOB])
		f->id = nla_get_u32(tb[IBTRACE_A_JOB]);
	return k->msg(ctx, nlh, tb, f->arg);
}

static int job_follow(struct ibt *ctx, struct ibt_job_follow *f);

/*
 * Start a job with request @msg and follow it to its end as @f: SIGINT
 * and SIGTERM caught (see ibt_signals_hold()), the request's replies, the
 * job's notifications and its JOB_GET reply go to @kind with @arg. An
 * exit code.
 */
int ibt_job_run(struct ibt *ctx, struct nl_msg *msg, struct ibt_job_follow *f,
		const struct ibt_job_kind *kind, void *arg)
{
	int ret;

	ibt_signals_hold(true);
	f->kind = kind;
	f->arg = arg;
	ctx->notify = job_cb;
	ctx->notify_arg = f;
	ret = ibt_nl_run(ctx, msg, job_cb, f);
	if (!ret && !f->id)
		ret = ibt_err(IBT_EXIT_ERR, "malformed kernel reply: no job number");
	if (!ret)
		ret = job_follow(ctx, f);
	return ret;
}

/*
 * Whether message @tb of job @f says that the job finished: then
 * @f->ended is set, and how it ended early kept in @f->end_errno and
 * @f->end_msg.
 */
bool ibt_job_ended(struct ibt_job_follow *f, struct nlattr **tb)
{
	if (!tb[IBTRACE_A_JOB_STATE] ||
	    nla_get_u8(tb[IBTRACE_A_JOB_STATE]) != IBTRACE_TEST_STATE_FINISHED)
		return false;
	f->ended = true;
	ibt_nla_keep(tb[IBTRACE_A_JOB_ERRNO], &f->end_errno,
		     tb[IBTRACE_A_JOB_MESSAGE], f->end_msg, sizeof(f->end_msg));
	return true;
}

/*
 * After ibt_job_run(): the printed exit code of job @f's early end with
 * an error; else 0, and *@interrupted whether it was cancelled (by a
 * signal here, by another process or by the module's unload).
 */
int ibt_job_result(struct ibt *ctx, const struct ibt_job_follow *f,
		   bool *interrupted)
{
	if (f->end_errno && f->end_errno != ECANCELED)
		return ibt_nl_report_msg(ctx, f->end_errno,
					 f->end_msg[0] ? f->end_msg : NULL);
	*interrupted = f->interrupted || f->end_errno == ECANCELED;
	return 0;
}

/* Read job @id with IBTRACE_CMD_JOB_GET through @cb; as ibt_nl_exchange(). */
static int job_get(struct ibt *ctx, uint32_t id, ibt_nl_cb cb, void *arg)
{
	struct nl_msg *msg = ibt_nl_req_u32(ctx, IBTRACE_CMD_JOB_GET, false,
					    IBTRACE_A_JOB, id);

	if (!msg)
		return IBT_EXIT_ERR;
	return ibt_nl_exchange(ctx, msg, cb, arg);
}

/*
 * Wait for the end of a job as @w says (see struct ibt_job_waiter).
 * Returns 0 (the end came, or a read found it) or a printed exit code.
 */
int ibt_job_wait(struct ibt *ctx, const struct ibt_job_waiter *w)
{
	unsigned long nevents = *w->nevents;
	unsigned int lost = ctx->nl_lost;
	long long last = now_ms();
	bool finished = false;
	int ret;

	while (!*w->ended) {
		ret = ibt_nl_wait_notify(ctx, w->poll_ms / 4);
		if (ret == IBT_EXIT_INTR) {
			ibt_interrupted = 0;
			if (!*w->cancel_sent) {
				*w->cancel_sent = true;
				ret = w->cancel(ctx, w->arg);
				if (ret)
					return ret;
			}
			continue;
		}
		if (ret)
			return ret;
		if (*w->nevents != nevents) {
			nevents = *w->nevents;
			last = now_ms();
		}
		if (*w->ended || (ctx->nl_lost == lost &&
				  now_ms() - last < w->poll_ms))
			continue;
		lost = ctx->nl_lost;
		last = now_ms();
		ret = w->read(ctx, w->arg, &finished);
		if (ret == IBT_EXIT_INTR) {
			ibt_interrupted = 1;	/* cancel on the next round */
			continue;
		}
		/*
		 * The job's end can come in while the read waits for its
		 * answer: an unload sends it, then takes the family away.
		 */
		if (finished || (ret && *w->ended))
			break;
		/* the read's answer was lost among the job's messages */
		if (ret == -ENOBUFS)
			continue;
		if (ret == -ENOENT || ret == -EOPNOTSUPP)
			return ibt_err(w->gone_exit,
				       "job %u is gone (ibtrace module unloaded?) before its %s was read",
				       w->id, w->gone_what);
		if (ret)
			return ret < 0 ? ibt_nl_report(ctx, -ret) : ret;
	}
	return 0;
}

/* A signal while job @arg is followed: it is interrupted, cancel it. */
static int job_follow_cancel(struct ibt *ctx, void *arg)
{
	struct ibt_job_follow *f = arg;

	f->interrupted = true;
	return ibt_job_cancel(ctx, f->id);
}

/* Read job @arg: its reply goes to job_cb(), which sets f->ended. */
static int job_follow_read(struct ibt *ctx, void *arg, bool *finished)
{
	struct ibt_job_follow *f = arg;

	(void)finished;
	return job_get(ctx, f->id, job_cb, f);
}

/*
 * Wait for the end of job @f->id (its kind's @msg sets @f->ended).
 * Returns 0 or a printed exit code.
 */
static int job_follow(struct ibt *ctx, struct ibt_job_follow *f)
{
	const struct ibt_job_waiter w = {
		.id = f->id,
		.ended = &f->ended,
		.nevents = &f->nevents,
		.cancel_sent = &f->cancel_sent,
		.poll_ms = IBT_JOB_POLL_MS,
		.cancel = job_follow_cancel,
		.read = job_follow_read,
		.arg = f,
		.gone_exit = IBT_EXIT_ERR,
		.gone_what = "end",
	};

	return ibt_job_wait(ctx, &w);
}

/*
 * job object: every kernel job of any kind, running or finished
 * (IBTRACE_CMD_JOB_GET, _JOB_CANCEL).
 *
 *   ibtracectl [-j] job [show [ID]]
 *   ibtracectl job cancel ID
 *
 * Text, one line per job:
 *   job 3 ping rxe0/1 finished 2.004 s sent 3 received 3 errors 0
 *   job 4 trace ibtsim0/1 running 0.120 s hops 2
 *   job 5 test ibtsim0/1 finished 1.570 s guidinfo verdict pass
 * and ", ended early: MESSAGE (ERRNO TEXT)" when it did.
 *
 * JSON: an array of objects (one object for "show ID"). Keys, each only
 * when known: id, kind ("test", "ping", "trace", "mad", "sweep", "prove"),
 * state ("running", "finished"), dev, port, elapsed_ns, errno (number),
 * error (its text), message; a ping's sent, received, errors; a trace's
 * trace_id, hops, result; a test's name, verdict.
 */

static const char *job_kind_str(unsigned int kind)
{
	switch (kind) {
	case IBTRACE_JOB_TEST:
		return "test";
	case IBTRACE_JOB_PING:
		return "ping";
	case IBTRACE_JOB_TRACE:
		return "trace";
	case IBTRACE_JOB_MAD:
		return "mad";
	case IBTRACE_JOB_SWEEP:
		return "sweep";
	case IBTRACE_JOB_PROVE:
		return "prove";
	default:
		return "unknown";
	}
}

/* The summary of a ping or MAD send job, in attribute @type. */
static int job_show_ping(struct ibt *ctx, struct nlattr **tb, int type)
{
	struct nlattr *st[IBTRACE_SUMMARY_A_MAX + 1];
	int ret;

	if (!tb[type])
		return 0;
	ret = ibt_nl_parse_nest(ctx, tb[type], st);
	if (ret)
		return ret;
	if (st[IBTRACE_SUMMARY_A_SENT])
		ibt_out_u64(ctx, "sent", nla_get_u32(st[IBTRACE_SUMMARY_A_SENT]));
	if (st[IBTRACE_SUMMARY_A_RECEIVED])
		ibt_out_u64(ctx, "received",
			    nla_get_u32(st[IBTRACE_SUMMARY_A_RECEIVED]));
	if (st[IBTRACE_SUMMARY_A_ERRORS])
		ibt_out_u64(ctx, "errors", nla_get_u32(st[IBTRACE_SUMMARY_A_ERRORS]));
	return 0;
}

static int job_show_cb(struct ibt *ctx, struct nlmsghdr *nlh,
		       struct nlattr **tb, void *arg)
{
	char dev[IBT_DEV_NAME_MAX] = "?", b[32];
	unsigned int kind;
	uint64_t ns;
	int ret = 0;

	(void)nlh;
	(void)arg;
	if (!tb[IBTRACE_A_JOB] || !tb[IBTRACE_A_JOB_KIND])
		return 0;
	kind = nla_get_u8(tb[IBTRACE_A_JOB_KIND]);
	if (tb[IBTRACE_A_DEV_NAME])
		nla_strlcpy(dev, tb[IBTRACE_A_DEV_NAME], sizeof(dev));

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_field(ctx, "id", json_object_new_uint64(nla_get_u32(tb[IBTRACE_A_JOB])),
		      "job %u", nla_get_u32(tb[IBTRACE_A_JOB]));
	ibt_out_field(ctx, "kind", json_object_new_string(job_kind_str(kind)),
		      " %s", job_kind_str(kind));
	ibt_out_json(ctx, "dev", json_object_new_string(dev));
	if (tb[IBTRACE_A_PORT]) {
		ibt_out_json(ctx, "port",
			     json_object_new_uint64(nla_get_u32(tb[IBTRACE_A_PORT])));
		ibt_out_text(ctx, " %s/%u", dev, nla_get_u32(tb[IBTRACE_A_PORT]));
	}
	if (tb[IBTRACE_A_JOB_STATE]) {
		const char *st = ibt_test_state_str(nla_get_u8(tb[IBTRACE_A_JOB_STATE]));

		ibt_out_field(ctx, "state", json_object_new_string(st), " %s", st);
	}
	if (tb[IBTRACE_A_JOB_ELAPSED_NS]) {
		ns = nla_get_u64(tb[IBTRACE_A_JOB_ELAPSED_NS]);
		ibt_out_field(ctx, "elapsed_ns", json_object_new_uint64(ns),
			      " %s s", ibt_ns_str(ns, 1000000000, b, sizeof(b)));
	}
	switch (kind) {
	case IBTRACE_JOB_PING:
		ret = job_show_ping(ctx, tb, IBTRACE_A_PING_SUMMARY);
		break;
	case IBTRACE_JOB_MAD:
		ret = job_show_ping(ctx, tb, IBTRACE_A_MAD_SUMMARY);
		break;
	case IBTRACE_JOB_TRACE:
		if (tb[IBTRACE_A_TRACE_ID])
			ibt_out_json(ctx, "trace_id", json_object_new_uint64(
				     nla_get_u32(tb[IBTRACE_A_TRACE_ID])));
		if (tb[IBTRACE_A_TRACE_HOPS])
			ibt_out_u64(ctx, "hops", nla_get_u32(tb[IBTRACE_A_TRACE_HOPS]));
		if (tb[IBTRACE_A_TRACE_STATUS])
			ibt_out_str(ctx, "result", ibt_trace_status_str(
				    nla_get_u8(tb[IBTRACE_A_TRACE_STATUS])));
		break;
	case IBTRACE_JOB_TEST:
		if (tb[IBTRACE_A_TEST_NAME]) {
			char name[64];

			nla_strlcpy(name, tb[IBTRACE_A_TEST_NAME], sizeof(name));
			ibt_out_field(ctx, "name", json_object_new_string(name),
				      " %s", name);
		}
		if (tb[IBTRACE_A_TEST_VERDICT])
			ibt_out_str(ctx, "verdict", ibt_test_verdict_str(
				    nla_get_u8(tb[IBTRACE_A_TEST_VERDICT])));
		break;
	}
	if (tb[IBTRACE_A_JOB_ERRNO]) {
		uint32_t e = nla_get_u32(tb[IBTRACE_A_JOB_ERRNO]);
		char msg[256] = "";

		if (tb[IBTRACE_A_JOB_MESSAGE])
			nla_strlcpy(msg, tb[IBTRACE_A_JOB_MESSAGE], sizeof(msg));
		ibt_out_json(ctx, "errno", json_object_new_uint64(e));
		ibt_out_json(ctx, "error", json_object_new_string(strerror(e)));
		if (msg[0])
			ibt_out_json(ctx, "message", json_object_new_string(msg));
		ibt_out_text(ctx, ", ended early: %s (%s)", msg[0] ? msg : "-",
			     strerror(e));
	}
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
	return ret;
}

/* "show [ID]" and "cancel ID": the ID, if given; 0 or a printed code. */
static int job_id_arg(struct ibt *ctx, bool need, uint32_t *id)
{
	*id = 0;
	if (ctx->argc > 0 && ctx->argv[0][0] != '-') {
		if (ibt_parse_u32(ctx->argv[0], 1, UINT32_MAX, id))
			return ibt_err(IBT_EXIT_USAGE, "bad job ID \"%s\"",
				       ctx->argv[0]);
		ctx->argc--;
		ctx->argv++;
	} else if (need) {
		return ibt_err(IBT_EXIT_USAGE, "job cancel needs a job ID; see ibtracectl job help");
	}
	return ibt_end_args(ctx);
}

/*
 * The job ID word (@need: it must be there), then @cmd for that job (no
 * ID: a dump of every job) with @cb; an exit code, *@id the ID or 0.
 */
static int job_request(struct ibt *ctx, bool need, uint8_t cmd, ibt_nl_tb_cb cb,
		       uint32_t *id)
{
	struct nl_msg *msg;
	int ret;

	ret = job_id_arg(ctx, need, id) ?: ibt_nl_open(ctx);
	if (ret)
		return ret;
	msg = ibt_nl_req_u32(ctx, cmd, !*id, *id ? IBTRACE_A_JOB : 0, *id);
	if (!msg)
		return IBT_EXIT_ERR;
	if (!*id)
		ibt_out_arr_begin(ctx, NULL);
	return ibt_nl_run_parsed(ctx, msg, cb, NULL);
}

static int job_show(struct ibt *ctx)
{
	uint32_t id;
	int ret;

	ret = job_request(ctx, false, IBTRACE_CMD_JOB_GET, job_show_cb, &id);
	if (ret)
		return ret;
	if (!id)
		ibt_out_arr_end(ctx);
	ibt_out_finish(ctx);
	return IBT_EXIT_OK;
}

static int job_cancel(struct ibt *ctx)
{
	uint32_t id;

	return job_request(ctx, true, IBTRACE_CMD_JOB_CANCEL, NULL, &id);
}

const char ibt_job_help[] =
	"Usage: ibtracectl [-j] [--pretty] job [show [ID]]\n"
	"       ibtracectl job cancel ID\n"
	"Every kernel job (ping, trace, test), running or finished: one line\n"
	"(JSON: one object) per job: id, kind, dev, port, state, elapsed_ns, a\n"
	"ping's sent/received/errors, a trace's hops and result, a test's name\n"
	"and verdict, and how a job ended early. cancel stops a running job\n"
	"within a second. Both need CAP_NET_ADMIN.\n";

const struct ibt_cmd ibt_job_cmds[] = {
	{ "show",	job_show },
	{ "cancel",	job_cancel },
	{ "help",	NULL },	/* ibt_job_help */
	{ NULL,		NULL },
};
