// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtracectl: global options, then dispatch on the object word; the help
 * text and the table of objects. What every object uses (errors, option
 * parsing, dispatch, signals) is in utils.c.
 *
 *   ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] OBJECT [COMMAND] [ARGS]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>

#include "ibtracectl.h"

#ifndef IBTRACECTL_VERSION
#define IBTRACECTL_VERSION "0.1.0"
#endif

static void usage(FILE *f)
{
	fputs(
"Usage: ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] OBJECT [COMMAND] [ARGS]\n"
"       ibtracectl {-V | --version | -h | --help}\n"
"\n"
"Options:\n"
"  -j, --json         print one JSON document instead of text\n"
"      --pretty       pretty-print the JSON document (implies -j)\n"
"  -d, --dev DEV      only RDMA device DEV (e.g. rxe0, mlx5_0)\n"
"  -p, --port PORT    only port PORT (1..255)\n"
"  -V, --version      print the version and exit\n"
"  -h, --help         print this help and exit\n"
"-j, --pretty, -d and -p may also follow the object's words.\n"
"\n"
"Objects (any unique prefix of a word is accepted):\n"
"  dev [show]         the RDMA ports ibtrace sees\n"
"  agent [show]       the class 0x30 agent of each port and its counters\n"
"  ping (--dgid GID | --dlid LID) [-c N] [-i MS] [-t MS] [-r N]\n"
"       [--source-route P1,P2,...]\n"
"                     probe a port's agent from -d DEV, -p PORT (default 1)\n"
"  trace (--dlid LID | --dgid GID) [-r N] [-t MS] [-v]\n"
"                     the path to a destination, hop by hop, from -d DEV,\n"
"                     -p PORT (default: the first Active port)\n"
"  trace monitor [-c N]\n"
"                     the hops of every trace, as they are found\n"
"  mad send --class CLASS [--method M] [--attr ATTR] (--dr P,.. | --dlid LID)\n"
"                     send any MAD from -d DEV, -p PORT (default 1) and show\n"
"                     its answer decoded (\"mad help\" for every field)\n"
"  audit [--window N] [--no-prove] [--save FILE] [--prom FILE] [-v]\n"
"  audit --load FILE [--prom FILE] [-v] | audit merge [--top N] FILE...\n"
"                     sweep the subnet from a port, check the route to every\n"
"                     destination and the credit loops, and probe the routes\n"
"  test list | test show [JOB] [-v] | test cancel JOB\n", f);
	ibt_test_synopsis(f);	/* test run NAME ..., from each test */
	fputs(
"                     conformance tests run by the kernel against a port, from\n"
"                     -d DEV, -p PORT (default: the first Active InfiniBand\n"
"                     port; rnr, perf, quit, txn: the first Active port)\n"
"  job [show [ID]] | job cancel ID\n"
"                     every kernel job (ping, trace, test), running or finished\n"
"  sim add FILE [--name NAME] [--no-sm] | sim del NAME | sim show [NAME]\n"
"  sim set FABRIC NODE [port N] [drop PCT] [delay USEC] [link down|up]\n"
"      [buffer BLOCKS] [sink PPS] [credits ignore|obey] [width 1x|4x]\n"
"      [speed sdr|ddr|qdr] [guid-cap N] [guid-quirks Q,...]\n"
"      [misroute DLID PORT|none]\n"
"  sim capture FABRIC NODE [PORT] | sim inject FABRIC NODE PORT ...\n"
"  sim traffic FABRIC --from NODE --to LID [--rate PPS] ... [--from ...]\n"
"                     fabrics of the ibtrace_sim software InfiniBand fabric\n"
"  server start [--port N] [--max-conns N] [--max-hold MS] [--max-mem-kb N] |\n"
"  server stop | server show\n"
"                     the RDMA CM server peer hosts' tests connect to (off\n"
"                     until started; -d DEV: that device only)\n"
"  server quit --peer GID [--peer-port PORT] [-v] [--detach]\n"
"                     ask the server of host GID to quit (dapltest -T Q): test\n"
"                     run quit, its output and exit codes\n"
"  help               this text; \"OBJECT help\" describes one object\n"
"\n"
"Exit status:\n"
"  0  success (ping: at least one probe answered with MAD status 0)\n"
"  1  other error\n"
"  2  usage error: bad option, object, command or argument\n"
"  3  the ibtrace kernel module is not loaded (sim: ibtrace_sim)\n"
"  4  no such device or port\n"
"  5  permission denied (the operation needs CAP_NET_ADMIN)\n"
"  6  ping: no probe was answered; sim traffic: flows stopped at --timeout\n"
"  7  ping: every answer carried a non-zero MAD status; trace: an agent on\n"
"     the path saw the probe arrive on another port than expected; sim\n"
"     traffic: packets were dropped\n"
"  8  trace: no route (LFT entry 255, past LinearFDBTop, bad exit port)\n"
"  9  trace: a port on the path is not Active\n"
" 10  trace: the path loops or has more than 63 hops\n"
" 11  trace: a hop did not answer after all retries\n"
" 12  trace: the SA PathRecord lookup failed\n"
" 13  trace, test run, server quit: cancelled (SIGINT; test run, server quit:\n"
"     also SIGTERM); sim traffic: flows stopped by a signal\n"
" 14  busy: too many requests running (EBUSY); server start: it runs already\n"
" 15  test, server quit: verdict fail (an assertion failed)\n"
" 16  test, server quit: verdict not applicable to the DUT\n"
" 17  test, server quit: verdict error (the test could not be completed)\n"
" 18  test: restore failed, the DUT may be left changed (overrides 13, 15-17)\n"
" 19  audit: a route failed a check or its probe, a credit loop, or SMPs\n"
"     unanswered\n"
"A trace whose device goes away exits with 4.\n"
"sim add prints a rejected topology as \"Error: line N: REASON\", exit 1.\n", f);
}

static int help(struct ibt *ctx)
{
	(void)ctx;
	usage(stdout);
	return IBT_EXIT_OK;
}

static const struct option main_opts[] = {
	IBT_GLOBAL_OPTS,
	{ "version",	no_argument,		NULL, 'V' },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL,		0,			NULL, 0 },
};

static const struct ibt_object objects[] = {
	{ "dev",	NULL,		ibt_dev_cmds,		ibt_dev_help },
	{ "agent",	NULL,		ibt_agent_cmds,		ibt_agent_help },
	{ "ping",	ibt_ping,	NULL,			NULL },
	{ "trace",	ibt_trace,	NULL,			NULL },
	{ "test",	NULL,		ibt_test_cmds,		NULL },
	{ "job",	NULL,		ibt_job_cmds,		ibt_job_help },
	{ "sim",	NULL,		ibt_sim_cmds,		ibt_sim_help },
	{ "server",	NULL,		ibt_server_cmds,	NULL },
	{ "mad",	NULL,		ibt_mad_cmds,		NULL },
	{ "audit",	ibt_audit,	NULL,			NULL },
	{ "help",	help,		NULL,			NULL },
	{ NULL,		NULL,		NULL,			NULL },
};

int main(int argc, char **argv)
{
	struct ibt ctx = { 0 };
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:jd:p:Vh", main_opts, NULL)) != -1) {
		switch (c) {
		case 'V':
			printf("ibtracectl %s (ibtrace netlink uAPI version %d)\n",
			       IBTRACECTL_VERSION, IBTRACE_GENL_VERSION);
			return IBT_EXIT_OK;
		case 'h':
			usage(stdout);
			return IBT_EXIT_OK;
		default:
			ret = ibt_global_opt(&ctx, c, optarg);
			if (ret < 0)
				ret = ibt_bad_opt(c, argv, "");
			if (ret)
				return ret;
		}
	}
	ctx.argc = argc - optind;
	ctx.argv = argv + optind;

	ret = ibt_dispatch(&ctx, objects);

	ibt_out_free(&ctx);
	ibt_nl_close(&ctx);
	return ret;
}
