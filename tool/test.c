// SPDX-License-Identifier: GPL-2.0-only
/*
 * test object: the conformance tests of the ibtrace module, run as kernel
 * jobs against a port, the DUT (IBTRACE_CMD_TEST_LIST, TEST_RUN,
 * TEST_GET, TEST_CANCEL; progress as TEST_EVENT messages on the "test"
 * multicast group).
 *
 *   ibtracectl [-j] test list
 *   ibtracectl [-j] [-d DEV] [-p PORT] test run guidinfo
 *              [--dr P1,P2,... | --lid LID] [--dut-port N] [--blocks N]
 *              [-t TIMEOUT_MS] [-r RETRIES] [-v] [--detach]
 *   ibtracectl [-j] [-d DEV] [-p PORT] test run rnr [--timer CODE|all]
 *              [--retry N] [--size BYTES] [--iterations K]
 *              [--poll busy|event] [--peer GID] [--peer-port PORT]
 *              [--deadline MS] [--recv-posted] [-v] [--detach]
 *   ibtracectl [-j] [-d DEV] [-p PORT] test run limit [-m MAX] [-w WIDTH]
 *              [--budget MB] [OBJECT...] [-v] [--detach]
 *   ibtracectl [-j] [-d DEV] [-p PORT] test run perf --peer GID
 *              [--peer-port PORT] [--iterations N] [--pipeline N]
 *              [--poll busy|event] RR|RW [SEG_SIZE [NUM_SEGS]] [-v]
 *              [--detach]
 *   ibtracectl [-j] [-d DEV] [-p PORT] test run quit --peer GID
 *              [--peer-port PORT] [-v] [--detach]
 *   ibtracectl [-j] [-d DEV] [-p PORT] test run txn --peer GID
 *              [--peer-port PORT] [--iterations N] [--threads N]
 *              [--endpoints N] [--validate] [--corrupt OFFSET]
 *              [--poll busy|event] OP... [-v] [--detach]
 *              (OP := client|server SR|RR|RW [SEG_SIZE [NUM_SEGS]] [reap])
 *   ibtracectl [-j] test show [JOB] [-v]
 *   ibtracectl test cancel JOB
 *
 * run: each test the tool knows (ibt_tests[]: guidinfo, rnr, limit, perf,
 * quit, txn, one file each) takes only its own options (limit also words:
 * the objects; perf: RR|RW SEG_SIZE NUM_SEGS; txn: its operations),
 * checked before anything is sent; tests share an option's name where it
 * means the same (rnr, perf and txn: --iterations; rnr and perf: --poll;
 * rnr, perf, quit and txn: --peer, --peer-port),
 * each with its own range, so the options wait for the test's name. A
 * test it does not know gets them all, for the kernel to judge.
 * guidinfo: the DUT is the local port (-d, -p; without -d the first
 * Active InfiniBand port), the node at the end of the directed route --dr
 * (exit ports from the local node outward, the first being the local
 * port, so -p defaults to it), or the node of LID --lid. rnr: the local port (without -d the first Active
 * port of any link layer) is the requester under test; the responder is
 * a second QP of it (loopback) or the ibtrace of host --peer. perf: the
 * local port (any link layer) reads or writes the buffer of host --peer's
 * ibtrace server (test_perf.c shows its output and JSON keys). quit: the
 * local port (any link layer) asks host --peer's ibtrace server to quit
 * (test_quit.c shows its output and JSON keys); "server quit" runs it too
 * (ibt_test_run_as()). txn: the local port (any link layer) and host
 * --peer's ibtrace server walk a sequence of operations together over
 * RC connections (test_txn.c shows its output and JSON keys).
 *
 * The tool joins the "test" group before it sends TEST_RUN, prints one
 * line per RNR timer code as it is measured, with -v also progress; when
 * the job has finished it reads and prints its whole result (as "test
 * show JOB"), which lists each assertion once (the kernel decides them at
 * the end of the job, just before it finishes: their events are not
 * printed, on a terminal or not). With
 * --detach it prints the job number and returns at once. SIGINT or
 * SIGTERM while waiting: the job is cancelled (the kernel restores the
 * DUT first), its result printed, exit 13; a second signal (a second or
 * more after the first: timeout(1) sends one twice) ends the tool
 * at once (the kernel job still restores the DUT).
 *
 * Text result:
 *
 *   job 3 test guidinfo seed C14_024_05 dut ibtsim0/1 dr 1,2,3 port 0: switch node_guid 0x0002c90000000100 port_guid 0x0002c90000000100 lid 4 guid_cap 8
 *   PASS     v1c14-024.1.1#05.01  Get of every block within the table: ...
 *   FAIL     v1c14-030#01  entry 0 unchanged by a Set
 *            expected 0x0002c90000000100 observed 0xfffd36ffffffffef at block 0 entry 0
 *   N/A      v1c14-024.1.1#05.03  ...
 *   NOT RUN  v1c13-024#07  ...
 *   exchanges 23 rtt min/avg/max 8.000/11.500/40.000 us
 *   restore: verified
 *   verdict: fail (v1c14-030#01)
 *
 * "dut DEV/PORT" is the local port the job runs from, then "local", "dr
 * P1,..." or "lid N" (how the DUT is addressed) and "port N" (--dut-port
 * or the kernel's choice). With -v every exchange follows the statistics:
 *
 *   xchg 1 probe Get NodeInfo(0x0011) mod 0x0 answered status 0x0000 rtt 12.000 us attempts 1
 *
 * The RNR test: the header names the mode and the parameters, a table
 * follows (waits per retry; wire columns when the wire was tapped, else
 * a "wire:" line when the kernel says why it was not), then the
 * assertions; no exchange line (it sends no MAD):
 *
 *   job 7 test rnr seed C09_130_01 dut rxe0/1 loopback: timer 12 rnr_retry 1 size 1024 poll busy iterations 3 calibration 537.04 us
 *   wire: not visible (same-device loopback)
 *   code      table  iter        min     median        p99        max  overshoot  (wait per retry)
 *     12  640.00 us     3    3.99 ms    4.00 ms    4.01 ms    4.01 ms   +3.36 ms  device rounds the timer up (apparent granularity 3.99 ms)
 *   PASS     v1c9-130.1.1#01.01  ...
 *   restore: none
 *   verdict: pass
 *
 * and while it runs, per code measured:
 *   job 7: code 12 (table 640.00 us): median wait per retry 4.00 ms, overshoot +3.36 ms, 3 iterations
 *
 * "test show" without JOB: one line per kept job,
 *   job 3 test guidinfo dut ibtsim0/1 dr 1,2,3 state finished verdict pass
 *
 * JSON: "test list" an array of {name, seed, desc, needs, assertions:
 * [{id, desc}]}; a result one object: job, test, seed, dev, port,
 * addressing ("local", "dr", "lid"), dr_path (array), lid, dut_port,
 * state ("running", "finished"), verdict ("none", "pass", "fail",
 * "not_applicable", "error"), reason, restore ("none", "verified",
 * "failed", "impossible"), elapsed_ns, progress, dut_node_type ("ca",
 * "switch", "router", "unknown"), dut_node_guid, dut_port_guid (strings
 * "0x%016x"), dut_lid, guid_cap, exchanges_total, rtt_min_ns, rtt_avg_ns,
 * rtt_max_ns, assertions [{id, desc, result ("pass", "fail",
 * "not_applicable", "not_run"), checks, expected, observed, where}],
 * exchanges [{seq, phase, method, attr_id, attr_mod, outcome, status,
 * rtt_ns, attempts}] (not in "test show" without JOB), cancelled (true,
 * only when run was cancelled by a signal); the RNR test adds mode
 * ("loopback", "peer"), peer_gid (string), peer_port, rnr_timer, rnr_all
 * and recv_posted (booleans), rnr_retry, size, iterations, poll ("busy",
 * "event"), deadline_ms, wire ("not_visible", "tapped"), wire_why,
 * calibration_ns and codes [{code, table_ns, iterations, wait_min_ns,
 * wait_median_ns, wait_p99_ns, wait_max_ns, overshoot_ns (signed),
 * granularity_ns, calibration_ns, wire_samples, wire_min_ns,
 * wire_median_ns, wire_max_ns, naks}]. Keys only for what the kernel
 * sent. "test show" without JOB: an array of such objects; run --detach:
 * {"job": N}.
 *
 * Exit (run, and show JOB of a finished job): 0 pass; 15 fail; 16 not
 * applicable; 17 error (could not be completed); 13 cancelled by a
 * signal; 18 restore failed (the DUT may be left changed; overrides the
 * others); 14 busy (too many jobs running); 5 permission denied; 4 no
 * such device; 3 module not loaded; 2 usage; 1 other.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "test.h"


#define TESTS_MAX	16	/* bits of struct run_opt.tests */
/*
 * words after a test's name (limit's objects; txn's operations, 5 words
 * at most, and one more, which txn refuses itself)
 */
#define RUN_WORDS_MAX	((IBTRACE_TEST_TXN_MAX_OPS + 1) * 5)

/* The tests' lines of "ibtracectl --help". */
/* The text member at offset @off of each test's struct ibt_test_def. */
static void tests_text(FILE *f, size_t off)
{
	size_t k;

	for (k = 0; ibt_tests[k]; k++)
		fputs(*(const char *const *)((const char *)ibt_tests[k] + off), f);
}

void ibt_test_synopsis(FILE *f)
{
	tests_text(f, offsetof(struct ibt_test_def, synopsis));
}

/* silence after which a running job's state is read (lost events) */
#define TEST_POLL_MS	2000

/*
 * The options of test run, built from the tests' (one entry per name, in
 * the order of ibt_tests[]), then -v and --detach, which every test
 * takes; the getopt tables follow them.
 */
#define RUN_OPTS_MAX	64
#define RUN_GIVEN_MAX	128	/* tests' options on one command line */

enum {
	OPT_DETACH = 0x200,
	OPT_TEST,		/* + index in run_opts[]: a test's option */
};

static struct run_opt {
	char name[32];		/* in messages: "--timer", "-t/--timeout" */
	unsigned int tests;	/* the tests taking it, by bit; 0: every one */
	int id[TESTS_MAX];	/* its number in each */
} run_opts[RUN_OPTS_MAX];
static size_t nrun_opts;
static struct option run_longopts[RUN_OPTS_MAX + 1];

static void run_opt_add(const char *name, char letter, bool arg, int c)
{
	struct option *o = &run_longopts[nrun_opts];

	o->name = name;
	o->has_arg = arg ? required_argument : no_argument;
	o->val = c;
	if (letter) {
		snprintf(run_opts[nrun_opts].name, sizeof(run_opts[0].name),
			 "-%c/--%s", letter, name);
	} else {
		snprintf(run_opts[nrun_opts].name, sizeof(run_opts[0].name),
			 "--%s", name);
	}
	nrun_opts++;
}

static void run_opts_init(void)
{
	const struct ibt_test_opt *o;
	size_t k, i;

	if (nrun_opts)
		return;
	for (k = 0; ibt_tests[k] && k < TESTS_MAX; k++) {
		for (o = ibt_tests[k]->opts; o->name; o++) {
			for (i = 0; i < nrun_opts; i++)
				if (!strcmp(run_longopts[i].name, o->name))
					break;
			if (i == nrun_opts && nrun_opts < RUN_OPTS_MAX - 2)
				run_opt_add(o->name, o->letter, o->arg,
					    o->letter ? o->letter : OPT_TEST + (int)i);
			else if (i == nrun_opts)
				continue;
			run_opts[i].tests |= 1u << k;
			run_opts[i].id[k] = o->id;
		}
	}
	run_opt_add("verbose", 'v', false, 'v');
	run_opt_add("detach", 0, false, OPT_DETACH);
}

struct run {
	/* request */
	char name[TEST_NAME_MAX];
	char seed[TEST_NAME_MAX];	/* from TEST_LIST */
	char dev[IBT_DEV_NAME_MAX];
	uint32_t port;
	bool verbose, detach;
	bool runs;			/* the command runs a test: its options */
	const struct ibt_test_def *def;	/* the test; NULL: the tool does not know it */
	void *args[TESTS_MAX];		/* each test's options */
	bool opt_seen[RUN_OPTS_MAX];
	/* the tests' options given, in order, until the test is known */
	struct {
		size_t i;		/* in run_opts[] */
		const char *arg;
	} given[RUN_GIVEN_MAX];
	size_t ngiven;

	/* progress */
	uint32_t job;
	bool finished, cancel_sent;
	unsigned long nevents;		/* events of our job seen */
	struct result ev;		/* what the events said */
	struct nlmsghdr **stash;	/* events before the job number */
	size_t nstash;
	int err;			/* event processing failed: exit code */
	uint32_t shown;			/* progress printed (the test's record) */
};

/*
 * Whether the options of test @k count for run @t: those of its test, or
 * every test's for a test the tool does not know (the kernel judges).
 */
static bool run_uses(const struct run *t, size_t k)
{
	return !t->def || ibt_tests[k] == t->def;
}

/* The bit of test @def in run_opts[].tests; 0 for NULL. */
static unsigned int test_bit(const struct ibt_test_def *def)
{
	size_t k;

	for (k = 0; def && ibt_tests[k] && k < TESTS_MAX; k++)
		if (ibt_tests[k] == def)
			return 1u << k;
	return 0;
}

/* Read into @r, on top of what it holds; a negative errno is not printed. */
static int job_get(struct ibt *ctx, uint32_t job, struct result *r)
{
	struct nl_msg *msg = ibt_nl_req_u32(ctx, IBTRACE_CMD_TEST_GET, false,
					    IBTRACE_A_TEST_JOB, job);
	struct list l = { 0 };
	int ret;

	if (!msg)
		return IBT_EXIT_ERR;
	ret = ibt_nl_exchange(ctx, msg, test_keep_cb, &l);
	/* the request's values stay where the kernel sent none */
	if (!ret && l.n)
		test_result_take(r, &l.v[0]);
	else if (!ret)
		ret = ibt_err(IBT_EXIT_ERR, "the kernel sent no result for job %u", job);
	test_list_free(&l);
	return ret;
}

/* Arguments */

static int parse_job(const char *s, uint32_t *job)
{
	if (ibt_parse_u32(s, 1, UINT32_MAX, job))
		return ibt_err(IBT_EXIT_USAGE, "bad job \"%s\": expected a job number from 1",
			       s);
	return 0;
}

/* A test name as the kernel spells them: [a-z0-9_-], 1..31 characters. */
static int test_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n >= TEST_NAME_MAX)
		return -1;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_' || s[i] == '-'))
			return -1;
	return 0;
}

/* Index of option @c in run_opts[], or -1 (a global option, or none). */
static int run_opt_index(int c)
{
	size_t i;

	for (i = 0; i < nrun_opts; i++)
		if (run_longopts[i].val == c)
			return i;
	return -1;
}

/*
 * Option @i of run_opts[]: into the options of the test run, if it takes
 * it; for a test the tool does not know, into those of the first test
 * that takes it (so that its attribute is sent once).
 */
static int run_opt(struct run *t, size_t i, const char *arg)
{
	size_t k;
	int ret;

	if (run_longopts[i].val == 'v') {
		t->verbose = true;
		return 0;
	}
	if (run_longopts[i].val == OPT_DETACH) {
		t->detach = true;
		return 0;
	}
	for (k = 0; ibt_tests[k] && k < TESTS_MAX; k++) {
		if (!(run_opts[i].tests & (1u << k)) || !run_uses(t, k))
			continue;
		ret = ibt_tests[k]->opt(t->args[k], run_opts[i].id[k], arg);
		if (ret || !t->def)
			return ret;
	}
	return 0;
}

/*
 * The local port the options name (--dr's first), 0 if none; *@opt: the
 * option that names it.
 */
static uint32_t run_local_port(const struct run *t, const char **opt)
{
	uint32_t port;
	size_t k;

	for (k = 0; ibt_tests[k] && k < TESTS_MAX; k++) {
		if (!run_uses(t, k) || !ibt_tests[k]->local_port)
			continue;
		port = ibt_tests[k]->local_port(t->args[k]);
		if (port) {
			*opt = ibt_tests[k]->local_port_opt;
			return port;
		}
	}
	return 0;
}

/*
 * The options given must be those of the test (when the tool knows it),
 * and agree with each other, before anything is sent.
 */
static int run_opts_check(struct ibt *ctx, const struct run *t)
{
	unsigned int bit = test_bit(t->def);
	const char *opt;
	uint32_t port;
	size_t i, k;
	int ret;

	for (i = 0; bit && i < nrun_opts; i++) {
		if (!t->opt_seen[i] || !run_opts[i].tests || (run_opts[i].tests & bit))
			continue;
		for (k = 0; ibt_tests[k]; k++)
			if (run_opts[i].tests & (1u << k))
				break;
		return ibt_err(IBT_EXIT_USAGE,
			       "test %s takes no option %s (an option of test %s); see ibtracectl test help",
			       t->name, run_opts[i].name,
			       ibt_tests[k] ? ibt_tests[k]->name : "?");
	}
	/* a test the tool does not know: the kernel judges its options */
	for (k = 0; ibt_tests[k] && k < TESTS_MAX; k++) {
		if (ibt_tests[k] != t->def || !ibt_tests[k]->check)
			continue;
		ret = ibt_tests[k]->check(t->args[k]);
		if (ret)
			return ret;
	}
	port = run_local_port(t, &opt);
	if (port && ctx->port && ctx->port != port)
		return ibt_err(IBT_EXIT_USAGE,
			       "%s starts with local port %u but -p says %u",
			       opt, port, ctx->port);
	return 0;
}

/* An option of command @a->cmd, for the run @a->priv (NULL: none). */
static int test_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct run *t = a->priv;
	/* run takes them all, show only -v, list and cancel none */
	int own = run_opt_index(c);

	if (own < 0)
		return IBT_OPT_UNKNOWN;
	if (!t || (!t->runs && c != 'v'))
		return ibt_err(IBT_EXIT_USAGE,
			       "test %s takes no option %s; see ibtracectl test help",
			       a->cmd, run_opts[own].name);
	t->opt_seen[own] = true;
	if (c == 'v' || c == OPT_DETACH)
		return run_opt(t, own, arg);
	/* the test's options wait for its name: tests share option names */
	if (t->ngiven == RUN_GIVEN_MAX)
		return ibt_err(IBT_EXIT_USAGE, "too many options for test run");
	t->given[t->ngiven].i = own;
	t->given[t->ngiven++].arg = arg;
	return 0;
}

/*
 * The words after the command: global options, the command's own options
 * (applied to @t) and @min..@max positional words into @pos.
 */
static int test_args(struct ibt *ctx, const char *cmd, struct run *t,
		     const char **pos, int min, int max, const char *what)
{
	run_opts_init();
	return ibt_words_parse(ctx, "test", cmd, run_longopts, test_opt, t, pos,
			       min, max, what);
}

/*
 * The words of command @obj @cmd that runs test @def (server quit): the
 * global options, @def's own options, -v and --detach, and no word.
 */
static int fixed_args(struct ibt *ctx, const char *obj, const char *cmd,
		      struct run *t, const struct ibt_test_def *def)
{
	struct option opts[RUN_OPTS_MAX + 1];
	unsigned int bit = test_bit(def);
	size_t i, n = 0;

	run_opts_init();
	memset(opts, 0, sizeof(opts));
	for (i = 0; i < nrun_opts; i++)
		if (!run_opts[i].tests || (run_opts[i].tests & bit))
			opts[n++] = run_longopts[i];
	return ibt_words_parse(ctx, obj, cmd, opts, test_opt, t, NULL, 0, 0, "");
}

/* list */

/* Each of @l by @print: a line (text) or an object (JSON) each. */
static void list_print(struct ibt *ctx, const struct list *l,
		       void (*print)(struct ibt *ctx, const struct result *r))
{
	size_t i;

	ibt_out_arr_begin(ctx, NULL);
	for (i = 0; i < l->n; i++)
		print(ctx, &l->v[i]);
	ibt_out_arr_end(ctx);
	ibt_out_finish(ctx);
}

static int fetch_tests(struct ibt *ctx, struct list *tests)
{
	struct nl_msg *msg = ibt_nl_req(ctx, IBTRACE_CMD_TEST_LIST, true);

	if (!msg)
		return IBT_EXIT_ERR;
	return ibt_nl_run(ctx, msg, test_keep_cb, tests);
}

static int test_list(struct ibt *ctx)
{
	struct list tests = { 0 };
	int ret;

	ret = test_args(ctx, "list", NULL, NULL, 0, 0, "");
	if (!ret)
		ret = ibt_nl_open(ctx);
	if (!ret)
		ret = fetch_tests(ctx, &tests);
	if (!ret)
		list_print(ctx, &tests, test_list_print);
	test_list_free(&tests);
	return ret;
}

/* run */

/*
 * Without -d: the first Active port (port --dr's first with --dr); an
 * InfiniBand one but for tests that run on RoCE as well (the RNR test).
 */
static bool run_any_link_layer(const struct run *t)
{
	return t->def && t->def->any_link_layer;
}

static int run_pick_port(struct ibt *ctx, struct run *t)
{
	const char *kind = run_any_link_layer(t) ? "" : " InfiniBand";
	struct ibt_port_want want = { .ib = !run_any_link_layer(t) };
	const char *opt;
	int ret;

	t->port = ctx->port ? ctx->port : run_local_port(t, &opt);
	if (ctx->dev) {
		snprintf(t->dev, sizeof(t->dev), "%s", ctx->dev);
		if (!t->port)
			t->port = 1;
		return 0;
	}
	want.port = t->port;
	ret = ibt_port_pick(ctx, &want, t->dev, sizeof(t->dev), &t->port);
	if (ret)
		return ret;
	if (!t->dev[0] && t->port)
		return ibt_err(IBT_EXIT_NODEV,
			       "no Active%s port %u to test from; name one with -d DEV",
			       kind, t->port);
	if (!t->dev[0])
		return ibt_err(IBT_EXIT_NODEV,
			       "no Active%s port to test from; name one with -d DEV",
			       kind);
	return 0;
}

static struct nl_msg *run_request(struct ibt *ctx, struct run *t)
{
	struct nl_msg *msg = ibt_nl_req(ctx, IBTRACE_CMD_TEST_RUN, false);
	bool full;
	size_t k;

	if (!msg)
		return NULL;
	full = nla_put_string(msg, IBTRACE_A_TEST_NAME, t->name) < 0 ||
	       nla_put_string(msg, IBTRACE_A_DEV_NAME, t->dev) < 0 ||
	       nla_put_u32(msg, IBTRACE_A_PORT, t->port) < 0;
	for (k = 0; !full && ibt_tests[k] && k < TESTS_MAX; k++)
		full = run_uses(t, k) && ibt_tests[k]->request(msg, t->args[k]);
	if (full || (t->detach && nla_put_flag(msg, IBTRACE_A_JOB_DETACH) < 0)) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* One TEST_EVENT of our job: print it (text) and remember what it says. */
static int run_event(struct ibt *ctx, struct run *t, struct nlmsghdr *nlh)
{
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	const struct ibt_test_def *def;
	struct result *ev = &t->ev;
	int ret;

	if (genlmsg_hdr(nlh)->cmd != IBTRACE_CMD_TEST_EVENT)
		return 0;
	ret = ibt_nl_parse(ctx, nlh, tb);
	if (ret)
		return ret;
	if (!tb[IBTRACE_A_TEST_JOB] || nla_get_u32(tb[IBTRACE_A_TEST_JOB]) != t->job ||
	    !tb[IBTRACE_A_TEST_EVENT])
		return 0;
	t->nevents++;
	ret = test_result_absorb(ctx, ev, nlh);
	if (ret)
		return ret;
	switch (nla_get_u8(tb[IBTRACE_A_TEST_EVENT])) {
	case IBTRACE_TEST_EVENT_STARTED:
		if (t->verbose && !ctx->json)
			printf("job %u: started\n", t->job);
		break;
	case IBTRACE_TEST_EVENT_PROGRESS:
		def = test_def_of(ev);
		if (def && def->progress_text && tb[def->progress_attr]) {
			if (!ctx->json)
				def->progress_text(t->job, ev, &t->shown);
		} else if (t->verbose && !ctx->json && tb[IBTRACE_A_TEST_PROGRESS])
			printf("job %u: %u exchanges\n", t->job,
			       nla_get_u32(tb[IBTRACE_A_TEST_PROGRESS]));
		break;
	case IBTRACE_TEST_EVENT_ASSERTION:
		/*
		 * Not printed: the kernel decides the assertions at the end
		 * of the job, just before FINISHED, and the result printed
		 * then lists each of them once (what the event says is kept
		 * in t->ev, for a result that cannot be read).
		 */
		break;
	case IBTRACE_TEST_EVENT_FINISHED:
		def = test_def_of(ev);	/* a progress event may be lost */
		if (def && def->progress_text && !ctx->json)
			def->progress_text(t->job, ev, &t->shown);
		ev->have[IBTRACE_A_TEST_STATE] = true;
		ev->val[IBTRACE_A_TEST_STATE] = IBTRACE_TEST_STATE_FINISHED;
		t->finished = true;
		break;
	}
	fflush(stdout);
	return ret;
}

/*
 * ctx->notify: events of the "test" group. Until TEST_RUN's reply names
 * our job they are kept (they may come first), then replayed.
 */
static int run_notify(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct run *t = arg;
	struct nlmsghdr **v, *copy;

	if (t->job)
		return run_event(ctx, t, nlh);
	copy = malloc(nlh->nlmsg_len);
	v = realloc(t->stash, (t->nstash + 1) * sizeof(*v));
	if (!copy || !v) {
		free(copy);
		if (v)
			t->stash = v;
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	}
	memcpy(copy, nlh, nlh->nlmsg_len);
	t->stash = v;
	t->stash[t->nstash++] = copy;
	return 0;
}

static int run_replay(struct ibt *ctx, struct run *t)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < t->nstash; i++) {
		if (!ret && t->job)
			ret = run_event(ctx, t, t->stash[i]);
		free(t->stash[i]);
	}
	free(t->stash);
	t->stash = NULL;
	t->nstash = 0;
	return ret;
}

static int run_cancel(struct ibt *ctx, struct run *t)
{
	int ret;

	/* for the one at the terminal: the restore may take a while */
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "%s: cancelling job %u; waiting for it to restore the DUT\n",
			ibt_signal == SIGTERM ? "SIGTERM" : "SIGINT", t->job);
	/*
	 * The same signal may come again at once (timeout(1) signals the
	 * tool, then its process group) and interrupt the request: send it
	 * again; a cancel that did reach the kernel is refused the second
	 * time, which is fine, as is a job that has just finished.
	 */
	ret = ibt_job_cancel_send(ctx, IBTRACE_CMD_TEST_CANCEL, IBTRACE_A_TEST_JOB, t->job);
	if (ret == IBT_EXIT_INTR) {
		ibt_interrupted = 0;
		return ibt_err(IBT_EXIT_ERR,
			       "cannot send the cancel of job %u: interrupted %d times; \"ibtracectl test cancel %u\" stops it",
			       t->job, IBT_CANCEL_TRIES, t->job);
	}
	return ret > 0 ? ret : 0;
}

/* run_wait()'s read of the job: into @r, and whether it had finished. */
struct run_read {
	struct run *t;
	struct result *r;
	bool *have_r;
};

static int run_wait_cancel(struct ibt *ctx, void *arg)
{
	const struct run_read *rr = arg;

	return run_cancel(ctx, rr->t);
}

static int run_wait_read(struct ibt *ctx, void *arg, bool *finished)
{
	const struct run_read *rr = arg;
	int ret = job_get(ctx, rr->t->job, rr->r);

	if (!ret && test_rval(rr->r, IBTRACE_A_TEST_STATE) ==
		    IBTRACE_TEST_STATE_FINISHED)
		*finished = *rr->have_r = true;
	return ret;
}

/*
 * Wait for the FINISHED event of our job (ibt_job_wait()): a signal
 * cancels the job (once); after TEST_POLL_MS without an event of the
 * job, or when the kernel dropped messages, the job's state is read, in
 * case events were lost. @r receives the result of such a read, if it
 * found the job finished (*@have_r). Returns 0 or a printed exit code.
 */
static int run_wait(struct ibt *ctx, struct run *t, struct result *r,
		    bool *have_r)
{
	struct run_read rr = { .t = t, .r = r, .have_r = have_r };
	const struct ibt_job_waiter w = {
		.id = t->job,
		.ended = &t->finished,
		.nevents = &t->nevents,
		.cancel_sent = &t->cancel_sent,
		.poll_ms = TEST_POLL_MS,
		.cancel = run_wait_cancel,
		.read = run_wait_read,
		.arg = &rr,
		.gone_exit = IBT_EXIT_TESTERR,
		.gone_what = "result",
	};

	return ibt_job_wait(ctx, &w);
}

static void run_prefill(const struct run *t, struct result *r)
{
	size_t k;

	snprintf(r->dev, sizeof(r->dev), "%s", t->dev);
	snprintf(r->name, sizeof(r->name), "%s", t->name);
	snprintf(r->seed, sizeof(r->seed), "%s", t->seed);
	r->have[IBTRACE_A_PORT] = true;
	r->val[IBTRACE_A_PORT] = t->port;
	r->have[IBTRACE_A_TEST_JOB] = true;
	r->val[IBTRACE_A_TEST_JOB] = t->job;
	for (k = 0; ibt_tests[k] && k < TESTS_MAX; k++)
		if (run_uses(t, k) && ibt_tests[k]->prefill)
			ibt_tests[k]->prefill(t->args[k], r);
}

/*
 * The seed of test @name into @seed (size TEST_NAME_MAX), from TEST_LIST;
 * 1 if the module has no such test, else 0 or a printed exit code.
 */
static int test_seed(struct ibt *ctx, const char *name, char *seed)
{
	struct list tests = { 0 };
	size_t i;
	int ret;

	ret = fetch_tests(ctx, &tests);
	if (ret)
		return ret;
	for (i = 0; i < tests.n; i++)
		if (!strcmp(tests.v[i].name, name))
			break;
	if (i < tests.n)
		memcpy(seed, tests.v[i].seed, TEST_NAME_MAX);
	else
		ret = -1;
	test_list_free(&tests);
	return ret;
}

static int run_known_test(struct ibt *ctx, struct run *t)
{
	int ret = test_seed(ctx, t->name, t->seed);

	if (ret < 0)
		return ibt_err(IBT_EXIT_USAGE,
			       "unknown test \"%s\"; \"ibtracectl test list\" shows the tests",
			       t->name);
	return ret;
}

static int run_go(struct ibt *ctx, struct run *t)
{
	struct ibt_reply_u32 job = { IBTRACE_A_TEST_JOB, &t->job };
	struct result r = { 0 };
	bool have_r = false, cancelled;
	struct nl_msg *msg;
	int ret;

	ret = ibt_nl_open(ctx);
	if (!ret)
		ret = run_known_test(ctx, t);
	if (!ret)
		ret = run_pick_port(ctx, t);
	if (ret)
		return ret;
	if (!t->detach) {
		ret = ibt_nl_join(ctx, IBTRACE_MCGRP_TEST);
		if (ret)
			return ret;
		ctx->notify = run_notify;
		ctx->notify_arg = t;
	}
	msg = run_request(ctx, t);
	if (!msg)
		return IBT_EXIT_ERR;

	/*
	 * SIGINT and SIGTERM are let in only while waiting for events
	 * (ibt_nl_wait_notify); a second one ends the tool. --detach does
	 * not wait: they stay blocked.
	 */
	ibt_signals_hold(!t->detach);

	ret = ibt_nl_run(ctx, msg, ibt_nl_u32_cb, &job);
	if (ret == IBT_EXIT_INTR && !t->job) {
		run_replay(ctx, t);
		return ibt_err(IBT_EXIT_CANCEL, "cancelled before the job started");
	}
	if (!ret && !t->job)
		ret = ibt_err(IBT_EXIT_ERR, "malformed kernel reply: no job number");
	if (ret) {
		run_replay(ctx, t);
		return ret;
	}
	if (t->detach) {
		test_detach_print(ctx, t->job);
		return IBT_EXIT_OK;
	}
	run_prefill(t, &t->ev);
	run_prefill(t, &r);
	ret = run_replay(ctx, t);
	if (!ret)
		ret = run_wait(ctx, t, &r, &have_r);
	cancelled = t->cancel_sent;
	if (ret)
		goto out;
	if (!have_r) {
		do {	/* the job has finished: a signal now changes nothing */
			ibt_interrupted = 0;
			ret = job_get(ctx, t->job, &r);
		} while (ret == IBT_EXIT_INTR);
		if (ret < 0 && t->finished) {
			fprintf(stderr,
				"Warning: cannot read the result of job %u (%s); showing what its events said\n",
				t->job, strerror(-ret));
			ret = test_result_report(ctx, &t->ev, t->verbose, cancelled);
			goto out;
		}
		if (ret < 0)
			ret = ibt_nl_report(ctx, -ret);
		if (ret)
			goto out;
	}
	if (ctx->nl_lost && !ctx->json)
		fprintf(stderr, "Warning: the kernel dropped event messages (receive buffer full)\n");
	ret = test_result_report(ctx, &r, t->verbose, cancelled);
out:
	ctx->notify = NULL;
	test_result_free(&r);
	test_result_free(&t->ev);
	return ret;
}

/*
 * The words after the test's name: each to the test's word(), which only
 * some tests have (limit: the objects); none for a test the tool does not
 * know.
 */
static int run_words(struct run *t, const char *const *words)
{
	size_t k;
	int ret;

	for (k = 0; ibt_tests[k] && ibt_tests[k] != t->def; k++)
		;
	for (; *words; words++) {
		if (!t->def || !t->def->word)
			return ibt_err(IBT_EXIT_USAGE,
				       "unexpected argument \"%s\" after test %s",
				       *words, t->name);
		ret = t->def->word(t->args[k], *words);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Run a test: test @fixed by command @obj @cmd of another object, with
 * the options, output and exit codes of "test run @fixed" ("server quit"
 * runs test quit); or (@fixed NULL) the one "test run NAME" names.
 */
int ibt_test_run_as(struct ibt *ctx, const char *obj, const char *cmd,
		    const char *fixed)
{
	struct run *t = calloc(1, sizeof(*t));
	const char *words[1 + RUN_WORDS_MAX + 1] = { NULL };
	const char *const *rest = words + 1;
	const char *name = fixed;
	size_t k;
	int ret = 0;

	if (!t)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	t->runs = true;
	for (k = 0; !ret && ibt_tests[k] && k < TESTS_MAX; k++) {
		t->args[k] = calloc(1, ibt_tests[k]->args_size);
		if (!t->args[k])
			ret = ibt_err(IBT_EXIT_ERR, "out of memory");
	}
	if (!ret && fixed) {
		ret = fixed_args(ctx, obj, cmd, t, test_def_find(fixed));
		rest = words;
	} else if (!ret) {
		ret = test_args(ctx, cmd, t, words, 1, 1 + RUN_WORDS_MAX,
				"a test name (see ibtracectl test list)");
		name = words[0];
	}
	if (!ret && test_name_ok(name))
		ret = ibt_err(IBT_EXIT_USAGE,
			      "bad test name \"%s\"; \"ibtracectl test list\" shows the tests",
			      name);
	if (!ret) {
		snprintf(t->name, sizeof(t->name), "%s", name);
		t->def = test_def_find(t->name);
		for (k = 0; !ret && k < t->ngiven; k++)
			ret = run_opt(t, t->given[k].i, t->given[k].arg);
	}
	if (!ret) {
		ret = run_words(t, rest);
	}
	if (!ret)
		ret = run_opts_check(ctx, t);
	if (!ret)
		ret = run_go(ctx, t);
	for (k = 0; k < TESTS_MAX; k++)
		free(t->args[k]);
	free(t);
	return ret;
}

static int test_run(struct ibt *ctx)
{
	return ibt_test_run_as(ctx, "test", "run", NULL);
}

/* show, cancel */


static int test_show(struct ibt *ctx)
{
	struct run opts = { 0 };
	const char *word = NULL;
	struct list jobs = { 0 };
	struct nl_msg *msg;
	uint32_t job = 0;
	int ret;

	ret = test_args(ctx, "show", &opts, &word, 0, 1, "");
	if (!ret && word)
		ret = parse_job(word, &job);
	if (!ret)
		ret = ibt_nl_open(ctx);
	if (ret)
		return ret;
	if (job) {
		struct result r = { 0 };

		r.have[IBTRACE_A_TEST_JOB] = true;
		r.val[IBTRACE_A_TEST_JOB] = job;
		ret = job_get(ctx, job, &r);
		if (ret < 0)
			ret = ibt_nl_report(ctx, -ret);
		/* the seed, if the kernel did not repeat it: best effort */
		if (!ret && !r.seed[0] && r.name[0] &&
		    test_seed(ctx, r.name, r.seed) > 0)
			ret = IBT_EXIT_ERR;
		if (!ret)
			ret = test_result_report(ctx, &r, opts.verbose, false);
		test_result_free(&r);
		return ret;
	}
	msg = ibt_nl_req(ctx, IBTRACE_CMD_TEST_GET, true);
	if (!msg)
		return IBT_EXIT_ERR;
	ret = ibt_nl_run(ctx, msg, test_keep_cb, &jobs);
	if (!ret)
		list_print(ctx, &jobs, test_show_line);
	test_list_free(&jobs);
	return ret;
}

static int test_cancel(struct ibt *ctx)
{
	const char *word = NULL;
	struct nl_msg *msg;
	uint32_t job;
	int ret;

	ret = test_args(ctx, "cancel", NULL, &word, 1, 1, "a job number");
	if (!ret)
		ret = parse_job(word, &job);
	if (!ret)
		ret = ibt_nl_open(ctx);
	if (ret)
		return ret;
	msg = ibt_nl_req_u32(ctx, IBTRACE_CMD_TEST_CANCEL, false, IBTRACE_A_TEST_JOB,
			     job);
	if (!msg)
		return IBT_EXIT_ERR;
	return ibt_nl_run(ctx, msg, NULL, NULL);
}

static int test_help(struct ibt *ctx)
{
	(void)ctx;
	printf("Usage: ibtracectl [-j] [--pretty] test list\n");
	tests_text(stdout, offsetof(struct ibt_test_def, usage));
	printf("       ibtracectl [-j] [--pretty] test show [JOB] [-v|--verbose]\n"
	       "       ibtracectl test cancel JOB\n"
	       "list: the conformance tests the module knows and their assertions.\n"
	       "run: run a test as a kernel job against a port, the DUT. Each test takes\n"
	       "only its own options (and -v, --detach). Prints the progress (rnr: each\n"
	       "timer code as it is measured; limit: each kind; quit: the server's\n"
	       "acceptance; txn: each endpoint as it finishes; -v: the start and the\n"
	       "exchanges too), then the result, one line per assertion; --detach prints\n"
	       "the job number and returns. Ctrl-C cancels the job: the kernel restores\n"
	       "the DUT, exit 13.\n");
	tests_text(stdout, offsetof(struct ibt_test_def, help));
	printf("show: the result of job JOB (-v: every MAD exchange), or one line per\n"
	       "kept job. cancel: stop a running job (it restores the DUT first).\n"
	       "Exit (run, show JOB): 0 pass, 15 fail, 16 not applicable, 17 error,\n"
	       "18 restore failed (the DUT may be left changed), 13 cancelled,\n"
	       "14 busy; run, show and cancel need CAP_NET_ADMIN (else exit 5).\n");
	return IBT_EXIT_OK;
}

const struct ibt_cmd ibt_test_cmds[] = {
	{ "list",	test_list },
	{ "run",	test_run },
	{ "show",	test_show },
	{ "cancel",	test_cancel },
	{ "help",	test_help },
	{ NULL,		NULL },
};
