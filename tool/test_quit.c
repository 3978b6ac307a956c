// SPDX-License-Identifier: GPL-2.0-only
/*
 * The quit test (the kernel's quit test, after dapltest -T Q), as the
 * tool knows it: ask the ibtrace server of a peer host to quit, and time
 * how long it takes:
 *
 *   test run quit --peer GID [--peer-port N]
 *   server quit --peer GID [--peer-port N]     (the same run, server.c)
 *
 * The server accepts the quit request and answers with its version, the
 * connections (tests) it holds besides the quit and a bound within which
 * they end; it then refuses new connections, waits for those to end,
 * stops listening and ends the quit's connection last. What the job saw
 * (IBTRACE_A_TEST_QUIT, one nest) prints after the header:
 *
 *   job 9 test quit seed dapltest -T Q dut rxe0/1 peer fe80::5054:ff:fe1b:2 port 7471
 *   server version 1, 2 connections running at the quit, bound 70000 ms
 *   stopped after 1234.5 ms
 *
 * ("-" for a figure the kernel did not send; "not stopped" when the
 * server did not end the connection, "not stopped yet" while the job
 * runs; neither line before the server accepted). While the job runs, the acceptance prints once as it is
 * reported:
 *
 *   job 9: the server quits: 2 connections running, bound 70000 ms
 *
 * JSON keys (with the framework's): peer (GID string), peer_port and quit
 * {server_version, running, bound_ms, stopped_ns} (quit only once the
 * kernel sent it; each of its keys only as sent).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "test.h"

enum {
	OPT_PEER,
	OPT_PEER_PORT,
};

/* The names are the perf test's: they mean the same. */
static const struct ibt_test_opt quit_opts[] = {
	{ "peer",	0, true, OPT_PEER },
	{ "peer-port",	0, true, OPT_PEER_PORT },
	{ NULL },
};

/* What only this test's results have (struct result.data). */
struct quit_data {
	bool seen;			/* an IBTRACE_A_TEST_QUIT came */
	struct test_item fig;		/* its numbers, the latest of each */
};

/* Options: --peer and --peer-port, nothing else, no words. */

static int quit_opt(void *args, int id, const char *arg)
{
	return test_peer_opt(args, id == OPT_PEER_PORT, arg);
}

static int quit_check(const void *args)
{
	const struct test_peer_args *p = args;

	if (!p->has_gid)
		return ibt_err(IBT_EXIT_USAGE,
			       "quit needs --peer GID, the host whose ibtrace server is to quit");
	return 0;
}

static int quit_request(struct nl_msg *msg, const void *args)
{
	return test_peer_request(msg, args);
}

/* Decoding */

static const struct quit_data quit_none;

static const struct quit_data *quit_of(const struct result *r)
{
	return r->data_def == &test_quit ? r->data : &quit_none;
}

/* A result of the quit test by its attributes (its name aside). */
static bool quit_owns(const struct result *r)
{
	return quit_of(r)->seen;
}

static const int quit_attrs[] = {
	IBTRACE_A_TEST_QUIT,
	0,
};

/*
 * The figures: each one a nest carries replaces the one before (the
 * acceptance's come first, the stop's later).
 */
static int quit_absorb(struct ibt *ctx, struct result *r, void *data,
		       struct nlattr *a)
{
	struct quit_data *d = data;
	int ret;

	(void)r;
	ret = test_item_absorb(ctx, &d->fig, a, IBTRACE_QUIT_A_SERVER_VERSION,
			       IBTRACE_QUIT_A_MAX, -1);
	if (!ret)
		d->seen = true;
	return ret;
}

/* @k's figures, those it has, over @d's. */
static void quit_take(void *data, void *k_data)
{
	struct quit_data *d = data, *k = k_data;
	int i;

	if (!k || !k->seen)
		return;
	d->seen = true;
	for (i = 0; i <= IBTRACE_QUIT_A_MAX; i++)
		if (k->fig.have[i]) {
			d->fig.have[i] = true;
			d->fig.val[i] = k->fig.val[i];
		}
}

/* Text */

static bool accepted(const struct test_item *f)
{
	return f->have[IBTRACE_QUIT_A_SERVER_VERSION] || f->have[IBTRACE_QUIT_A_RUNNING] ||
	       f->have[IBTRACE_QUIT_A_BOUND_MS];
}

/* "2 connections running@when, bound 70000 ms" */
static void running_bound_text(const struct test_item *f, const char *when)
{
	char b[2][24];

	printf("%s connection%s running%s, bound %s ms",
	       test_item_str(f, IBTRACE_QUIT_A_RUNNING, b[0], sizeof(b[0])),
	       test_item_plural(f, IBTRACE_QUIT_A_RUNNING, "s"),
	       when, test_item_str(f, IBTRACE_QUIT_A_BOUND_MS, b[1], sizeof(b[1])));
}

/*
 * Once, when an event says the server accepted (@shown: bit 0):
 *   job 9: the server quits: 2 connections running, bound 70000 ms
 */
static void quit_progress_text(uint64_t job, const struct result *ev,
			       uint32_t *shown)
{
	const struct test_item *f = &quit_of(ev)->fig;

	if ((*shown & 1) || !accepted(f))
		return;
	*shown |= 1;
	printf("job %" PRIu64 ": the server quits: ", job);
	running_bound_text(f, "");
	putchar('\n');
	fflush(stdout);
}

/* See the top of the file; nothing before the server accepted. */
static void quit_body_text(const struct result *r)
{
	const struct quit_data *d = quit_of(r);
	const struct test_item *f = &d->fig;
	char b[32];

	if (!d->seen)
		return;
	if (accepted(f)) {
		printf("server version %s, ",
		       test_item_str(f, IBTRACE_QUIT_A_SERVER_VERSION, b, sizeof(b)));
		running_bound_text(f, " at the quit");
		putchar('\n');
	}
	if (f->have[IBTRACE_QUIT_A_STOPPED_NS])
		printf("stopped after %s ms\n",
		       ibt_dec1_str(f->val[IBTRACE_QUIT_A_STOPPED_NS], 1000000, b, sizeof(b)));
	else if (test_rval(r, IBTRACE_A_TEST_STATE) == IBTRACE_TEST_STATE_RUNNING)
		printf("not stopped yet\n");
	else
		printf("not stopped\n");
}

static void quit_running_text(const struct result *r)
{
	const struct test_item *f = &quit_of(r)->fig;

	printf("verdict: none yet (running, %s)\n",
	       accepted(f) ? "the server quits" : "asking the server to quit");
}

/* JSON */

/* The quit test's keys of a result object. */
static void quit_json(struct ibt *ctx, const struct result *r)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_QUIT_A_SERVER_VERSION,	"server_version" },
		{ IBTRACE_QUIT_A_RUNNING,		"running" },
		{ IBTRACE_QUIT_A_BOUND_MS,		"bound_ms" },
		{ IBTRACE_QUIT_A_STOPPED_NS,		"stopped_ns" },
	};
	const struct quit_data *d = quit_of(r);

	test_peer_json(ctx, r, "peer");
	if (!d->seen)
		return;
	ibt_out_obj_begin(ctx, "quit");
	ibt_out_nums(ctx, nums, IBT_ARRAY_SIZE(nums), d->fig.have, d->fig.val);
	ibt_out_obj_end(ctx);
}

const struct ibt_test_def test_quit = {
	.name		= "quit",
	.synopsis	=
"  test run quit --peer GID [--peer-port PORT] [-v] [--detach]\n",
	.usage		=
"       ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] test run quit\n"
"                  --peer GID [--peer-port PORT] [-v|--verbose] [--detach]\n",
	.help		=
"quit: ask the ibtrace server of host --peer GID to quit, as dapltest -T Q\n"
"(also \"server quit\"), from the local port (-d, -p; without -d the first\n"
"Active port, InfiniBand or RoCE); --peer-port: its RDMA CM port, 1..65535.\n"
"The server refuses new connections, lets those it holds end, stops\n"
"listening and ends the quit's connection last. Prints the server's\n"
"version, the connections it waited for, its bound and the time it took.\n",
	.any_link_layer	= true,
	.opts		= quit_opts,
	.args_size	= sizeof(struct test_peer_args),
	.opt		= quit_opt,
	.check		= quit_check,
	.request	= quit_request,
	.owns		= quit_owns,
	.data_size	= sizeof(struct quit_data),
	.attrs		= quit_attrs,
	.absorb		= quit_absorb,
	.take		= quit_take,
	.progress_attr	= IBTRACE_A_TEST_QUIT,
	.progress_text	= quit_progress_text,
	.dut_text	= test_peer_dut_text,
	.body_text	= quit_body_text,
	.running_text	= quit_running_text,
	.sends_mads	= false,
	.json		= quit_json,
};
