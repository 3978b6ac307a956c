// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtracectl: global options, then dispatch on the object word.
 *
 *   ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] OBJECT [COMMAND] [ARGS]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ibtracectl.h"

#ifndef IBTRACECTL_VERSION
#define IBTRACECTL_VERSION "0.1.0"
#endif

/* Print the one line a failure is allowed, and return @code. */
int ibt_err(int code, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

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
"  test list | test show [JOB] [-v] | test cancel JOB\n"
"  test run guidinfo [--dr P1,P2,... | --lid LID] [--dut-port N] [--blocks N]\n"
"       [-t MS] [-r N] [-v] [--detach]\n"
"  test run rnr [--timer CODE|all] [--retry N] [--size BYTES] [--iterations K]\n"
"       [--poll busy|event] [--peer GID] [--peer-port PORT] [--deadline MS]\n"
"       [--recv-posted] [-v] [--detach]\n"
"                     conformance tests run by the kernel against a port, from\n"
"                     -d DEV, -p PORT (default: the first Active InfiniBand\n"
"                     port; rnr: the first Active port)\n"
"  job [show [ID]] | job cancel ID\n"
"                     every kernel job (ping, trace, test), running or finished\n"
"  sim add FILE [--name NAME] [--no-sm] | sim del NAME | sim show [NAME]\n"
"  sim set FABRIC NODE [port N] [drop PCT] [delay USEC] [link down|up]\n"
"      [guid-cap N] [guid-quirks Q,...] [misroute DLID PORT|none]\n"
"                     fabrics of the ibtrace_sim software InfiniBand fabric\n"
"  server start [--port N] [--max-conns N] [--max-hold MS] | server stop |\n"
"  server show        the RDMA CM server peer hosts' tests connect to (off\n"
"                     until started; -d DEV: that device only)\n"
"  help               this text; \"OBJECT help\" describes one object\n"
"\n"
"Exit status:\n"
"  0  success (ping: at least one probe answered with MAD status 0)\n"
"  1  other error\n"
"  2  usage error: bad option, object, command or argument\n"
"  3  the ibtrace kernel module is not loaded (sim: ibtrace_sim)\n"
"  4  no such device or port\n"
"  5  permission denied (the operation needs CAP_NET_ADMIN)\n"
"  6  ping: no probe was answered\n"
"  7  ping: every answer carried a non-zero MAD status; trace: an agent on\n"
"     the path saw the probe arrive on another port than expected\n"
"  8  trace: no route (LFT entry 255, past LinearFDBTop, bad exit port)\n"
"  9  trace: a port on the path is not Active\n"
" 10  trace: the path loops or has more than 63 hops\n"
" 11  trace: a hop did not answer after all retries\n"
" 12  trace: the SA PathRecord lookup failed\n"
" 13  trace, test run: cancelled (SIGINT; test run: also SIGTERM)\n"
" 14  busy: too many requests running (EBUSY); server start: it runs already\n"
" 15  test: verdict fail (an assertion failed)\n"
" 16  test: verdict not applicable to the DUT\n"
" 17  test: verdict error (the test could not be completed)\n"
" 18  test: restore failed, the DUT may be left changed (overrides 13, 15-17)\n"
"A trace whose device goes away exits with 4.\n"
"sim add prints a rejected topology as \"Error: line N: REASON\", exit 1.\n", f);
}

static int help(struct ibt *ctx)
{
	(void)ctx;
	usage(stdout);
	return IBT_EXIT_OK;
}

static const struct option global_opts[] = {
	IBT_GLOBAL_OPTS,
	{ NULL,		0,			NULL, 0 },
};

static const struct option main_opts[] = {
	IBT_GLOBAL_OPTS,
	{ "version",	no_argument,		NULL, 'V' },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL,		0,			NULL, 0 },
};

static int check_dev_name(const char *name)
{
	size_t len = strlen(name);

	if (!len || len >= IBT_DEV_NAME_MAX || strchr(name, '/'))
		return -1;
	return 0;
}

/*
 * Apply global option @c (-j, --pretty, -d, -p), met before the object or
 * among its arguments. IBT_EXIT_OK, a printed usage error, or -1 when @c
 * is not a global option.
 */
int ibt_global_opt(struct ibt *ctx, int c, const char *arg)
{
	switch (c) {
	case 'j':
		ctx->json = true;
		return IBT_EXIT_OK;
	case IBT_OPT_PRETTY:
		ctx->json = true;
		ctx->pretty = true;
		return IBT_EXIT_OK;
	case 'd':
		if (check_dev_name(arg))
			return ibt_err(IBT_EXIT_USAGE, "bad device name \"%s\" for -d",
				       arg);
		ctx->dev = arg;
		return IBT_EXIT_OK;
	case 'p':
		if (ibt_parse_u32(arg, 1, 255, &ctx->port))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad port \"%s\" for -p: expected 1..255", arg);
		return IBT_EXIT_OK;
	default:
		return -1;
	}
}

/*
 * The words left after the options, argv[first..argc-1], into @pos: at
 * least @min, at most @max. Errors name "@obj @cmd" and @what it needs.
 */
int ibt_positional(int argc, char **argv, int first, int min, int max,
		   const char *obj, const char *cmd, const char *what,
		   const char **pos)
{
	int i, n = argc - first;

	if (n > max)
		return ibt_err(IBT_EXIT_USAGE, "unexpected argument \"%s\"",
			       argv[first + max]);
	if (n < min)
		return ibt_err(IBT_EXIT_USAGE, "%s %s needs %s; see ibtracectl %s help",
			       obj, cmd, what, obj);
	for (i = 0; i < n; i++)
		pos[i] = argv[first + i];
	return IBT_EXIT_OK;
}

/* Usage error for an option getopt_long() rejected ('?' or ':'). */
int ibt_bad_opt(int c, char **argv, const char *where)
{
	const char *word = argv[optind - 1];

	if (c == ':')
		return ibt_err(IBT_EXIT_USAGE, "option %s needs an argument",
			       word);
	/* a known long option without argument given one ("--detach=1") */
	if (optopt && !strncmp(word, "--", 2) && strchr(word, '='))
		return ibt_err(IBT_EXIT_USAGE, "option %.*s takes no argument",
			       (int)strcspn(word, "="), word);
	if (optopt)
		return ibt_err(IBT_EXIT_USAGE, "unknown %soption -%c; see ibtracectl --help",
			       where, optopt);
	return ibt_err(IBT_EXIT_USAGE,
		       "unknown or ambiguous %soption %s; see ibtracectl --help",
		       where, word);
}

/*
 * The end of a command without arguments of its own: only global options
 * may follow ("ibtracectl dev show -j"); anything else is a usage error.
 */
int ibt_end_args(struct ibt *ctx)
{
	/* getopt wants a program name first: the word just consumed */
	int argc = ctx->argc + 1;
	char **argv = ctx->argv - 1;
	int c;

	if (!ctx->argc)
		return IBT_EXIT_OK;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+:jd:p:", global_opts, NULL)) != -1) {
		int ret = ibt_global_opt(ctx, c, optarg);

		if (ret < 0)
			ret = ibt_bad_opt(c, argv, "");
		if (ret)
			return ret;
	}
	if (optind < argc)
		return ibt_err(IBT_EXIT_USAGE, "unexpected argument \"%s\"",
			       argv[optind]);
	return IBT_EXIT_OK;
}

/*
 * Run the entry of @table named by the next word (or @dflt when there is
 * none), with that word consumed. @what names the word in errors.
 */
int ibt_dispatch(struct ibt *ctx, const char *what,
		 const struct ibt_cmd *table, const char *dflt)
{
	const char *word = dflt;
	int i;

	/* an option where the command may be: the default command */
	if (ctx->argc > 0 && (ctx->argv[0][0] != '-' || !dflt)) {
		word = ctx->argv[0];
		ctx->argc--;
		ctx->argv++;
	}
	if (!word)
		return ibt_err(IBT_EXIT_USAGE, "missing %s; see ibtracectl --help",
			       what);
	i = ibt_cmd_lookup(table, word);
	if (i == IBT_LOOKUP_AMBIGUOUS)
		return ibt_err(IBT_EXIT_USAGE, "ambiguous %s \"%s\"; see ibtracectl --help",
			       what, word);
	if (i < 0)
		return ibt_err(IBT_EXIT_USAGE, "unknown %s \"%s\"; see ibtracectl --help",
			       what, word);
	return table[i].fn(ctx);
}

static const struct ibt_cmd objects[] = {
	{ "dev",	ibt_dev },
	{ "agent",	ibt_agent },
	{ "ping",	ibt_ping },
	{ "trace",	ibt_trace },
	{ "test",	ibt_test },
	{ "job",	ibt_job },
	{ "sim",	ibt_sim },
	{ "server",	ibt_server },
	{ "help",	help },
	{ NULL,		NULL },
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

	ret = ibt_dispatch(&ctx, "object", objects, NULL);

	ibt_out_free(&ctx);
	ibt_nl_close(&ctx);
	return ret;
}
