// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every object of ibtracectl uses: the one error line, the global
 * options and the parsing of an object's options and words, dispatch on
 * a command word, and the handling of SIGINT/SIGTERM while a kernel job
 * runs.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ibtracectl.h"

static int verr(int code, const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("Error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return code;
}

/* Print the one line a failure is allowed, and return @code. */
int ibt_err(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(code, fmt, ap);
	va_end(ap);
	return code;
}

/*
 * After a command's parse: with --help (@help), its @usage on stdout and
 * true (the command is done, exit 0); else false.
 */
bool ibt_usage_if(bool help, void (*usage)(FILE *f))
{
	if (help)
		usage(stdout);
	return help;
}

/* Signals */

volatile sig_atomic_t ibt_interrupted;
volatile sig_atomic_t ibt_signal;

/*
 * A signal that comes within IBT_SIGNAL_SAME_MS of the first is the same
 * request: timeout(1) and supervisors signal the tool and then its
 * process group, so it arrives twice. A later one ends the tool.
 */
#define IBT_SIGNAL_SAME_MS	1000

static struct timespec ibt_signal_at;

/*
 * Handler for SIGINT/SIGTERM while a request runs: sets ibt_interrupted;
 * the same signal again within a second is the same request (timeout(1)
 * signals the tool and its process group), a later one ends the tool.
 */
static void ibt_on_signal(int sig)
{
	struct timespec now;
	int saved = errno;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!ibt_signal) {
		ibt_signal_at = now;
		ibt_signal = sig;
	} else if ((now.tv_sec - ibt_signal_at.tv_sec) * 1000 +
		   (now.tv_nsec - ibt_signal_at.tv_nsec) / 1000000 >=
		   IBT_SIGNAL_SAME_MS) {
		/* delivered at the handler's return, with its default action */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	ibt_interrupted = 1;
	errno = saved;
}

/*
 * From here on SIGINT and SIGTERM reach the tool only while it waits for
 * the kernel (ibt_nl_wait_notify() lets them in): they are blocked, and
 * caught by ibt_on_signal() if @catch; otherwise they stay pending.
 */
void ibt_signals_hold(bool catch)
{
	struct sigaction sa = { .sa_handler = ibt_on_signal };
	sigset_t set;

	sigemptyset(&sa.sa_mask);
	if (catch) {
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

void ibt_signals_let_in(void)
{
	sigset_t pending, none, held;

	if (sigpending(&pending) ||
	    (!sigismember(&pending, SIGINT) && !sigismember(&pending, SIGTERM)))
		return;
	/* POSIX: a pending signal unblocked is delivered before this returns */
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, &held);
	pthread_sigmask(SIG_SETMASK, &held, NULL);
}

/* Options and words */

static const struct option global_opts[] = {
	IBT_GLOBAL_OPTS,
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
static int ibt_positional(int argc, char **argv, int first, int min, int max,
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
 * Option @opt's number @arg into @val, within @min..@max; *@has set (if
 * @has). 0, or a printed usage error.
 */
int ibt_opt_u32(const char *opt, const char *arg, uint32_t min, uint32_t max,
		uint32_t *val, bool *has)
{
	return ibt_opt_range(opt, arg, min, max, "", "", val, has);
}

/* The same, the error naming @what the number is and its @unit. */
int ibt_opt_range(const char *opt, const char *arg, uint32_t min, uint32_t max,
		  const char *what, const char *unit, uint32_t *val, bool *has)
{
	return ibt_opt_ok(ibt_parse_u32(arg, min, max, val), has,
			  "bad %s \"%s\": expected %s%u..%u%s", opt, arg, what,
			  min, max, unit);
}

/*
 * Option @c, one of the @n @opts, into the command's options @priv: 0 or
 * a printed usage error; IBT_OPT_UNKNOWN when it is none of them.
 */
int ibt_opt_nums(const struct ibt_num_opt *opts, size_t n, int c,
		 const char *arg, void *priv)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (opts[i].c == c)
			return ibt_opt_range(opts[i].opt, arg, opts[i].min,
					     opts[i].max, opts[i].what, opts[i].unit,
					     (uint32_t *)((char *)priv + opts[i].val),
					     opts[i].has == IBT_NUM_NO_FLAG ? NULL :
					     (bool *)((char *)priv + opts[i].has));
	return IBT_OPT_UNKNOWN;
}

/* --dgid or --dlid (@c) into @d: 0 or a printed usage error. */
int ibt_opt_dest(int c, const char *arg, struct ibt_dest *d)
{
	if (c == IBT_OPT_DGID)
		return ibt_opt_ok(ibt_parse_gid(arg, d->dgid), &d->has_dgid,
				  "bad --dgid \"%s\": expected a GID such as fe80::1",
				  arg);
	return ibt_opt_ok(ibt_parse_lid(arg, &d->dlid), &d->has_dlid,
			  "bad --dlid \"%s\": expected a LID 1.." IBT_STR(IBTRACE_MAX_UNICAST_LID), arg);
}

/* --poll busy|event (a test's) into @poll, *@has set: 0 or a printed usage error. */
int ibt_opt_poll(const char *arg, uint32_t *poll, bool *has)
{
	return ibt_opt_ok(ibt_parse_test_poll(arg, poll), has,
			  "bad --poll \"%s\": expected busy or event", arg);
}

/*
 * -t or -r (@c) into @w: 0 or a printed usage error; IBT_OPT_UNKNOWN for
 * another option.
 */
int ibt_opt_wait(int c, const char *arg, struct ibt_wait *w)
{
	if (c == 't')
		return ibt_opt_u32("-t", arg, 1, IBTRACE_MAX_TIMEOUT_MS,
				   &w->timeout_ms, &w->has_timeout);
	if (c == 'r')
		return ibt_opt_u32("-r", arg, 0, IBTRACE_MAX_RETRIES, &w->retries,
				   &w->has_retries);
	return IBT_OPT_UNKNOWN;
}

/*
 * --dgid, --dlid, -t or -r (@c) into @t: 0 or a printed usage error;
 * IBT_OPT_UNKNOWN for another option.
 */
int ibt_opt_target(int c, const char *arg, struct ibt_target *t)
{
	if (c == IBT_OPT_DGID || c == IBT_OPT_DLID)
		return ibt_opt_dest(c, arg, &t->dest);
	return ibt_opt_wait(c, arg, &t->wait);
}

/*
 * How the parsing of an option's argument went: @bad, the usage error
 * @fmt says is printed and returned; else *@has is set (if @has) and 0
 * returned.
 */
int ibt_opt_ok(int bad, bool *has, const char *fmt, ...)
{
	va_list ap;

	if (bad) {
		va_start(ap, fmt);
		verr(IBT_EXIT_USAGE, fmt, ap);
		va_end(ap);
		return IBT_EXIT_USAGE;
	}
	if (has)
		*has = true;
	return 0;
}

/*
 * getopt_long()'s tables for @a into @lo and @so: its options (those of
 * its target, and those of @a->nums that have a name), "help" if
 * it takes -h, then the global ones; the short options are the letters
 * among them, after "+" (unless @a->permute: options may follow words)
 * and ":".
 */
static void opt_tables(const struct ibt_args *a,
		       struct option lo[IBT_OPTS_MAX + 6],
		       char so[3 * IBT_OPTS_MAX + 12])
{
	static const struct option help = { "help", no_argument, NULL, 'h' };
	static const struct option target_opts[] = { IBT_DEST_OPTS, IBT_WAIT_OPTS };
	const struct option *o;
	size_t n = 0, i;

	if (!a->permute)
		*so++ = '+';
	*so++ = ':';
	for (o = a->opts; o && o->name && n < IBT_OPTS_MAX; o++)
		lo[n++] = *o;
	for (i = 0; a->target && i < IBT_ARRAY_SIZE(target_opts) &&
	     n < IBT_OPTS_MAX; i++)
		lo[n++] = target_opts[i];
	for (i = 0; i < a->nnums && n < IBT_OPTS_MAX; i++) {
		if (!a->nums[i].name)
			continue;
		lo[n].name = a->nums[i].name;
		lo[n].has_arg = required_argument;
		lo[n].flag = NULL;
		lo[n++].val = a->nums[i].c;
	}
	for (o = lo; o < lo + n; o++) {
		if (o->val > 0 && o->val < 0x80 && isalnum(o->val)) {
			*so++ = o->val;
			if (o->has_arg == required_argument)
				*so++ = ':';
		}
	}
	if (a->help) {
		lo[n++] = help;
		*so++ = 'h';
	}
	memcpy(&lo[n], global_opts, sizeof(global_opts));
	strcpy(so, "jd:p:");
}

/*
 * The words after the one just consumed (getopt's program name): the
 * options of @a's command, then its positional words. -h, --help (and
 * the word "help" first, if @a->help_word) set *@a->help and end the
 * parsing; global options are applied here, then @a->nums and
 * @a->target's; every other
 * option goes to @a->opt (if any), whose IBT_OPT_UNKNOWN (getopt's '?' and ':'
 * included) is a usage error naming the option. Then @a->words: min..max
 * words into pos. IBT_EXIT_OK or a printed exit code.
 */
int ibt_args_parse(struct ibt *ctx, const struct ibt_args *a)
{
	int argc = ctx->argc + 1;
	char **argv = ctx->argv - 1;
	struct option lo[IBT_OPTS_MAX + 6];
	char so[3 * IBT_OPTS_MAX + 12];
	char where[48] = "";
	int c, ret;

	/* "ping ", "sim add ": names the command in errors */
	if (a->obj)
		snprintf(where, sizeof(where), "%s %s%s", a->obj,
			 a->cmd ? a->cmd : "", a->cmd ? " " : "");
	if (a->help_word && ctx->argc > 0 && !strcmp(ctx->argv[0], "help")) {
		*a->help = true;
		return IBT_EXIT_OK;
	}
	opt_tables(a, lo, so);
	opterr = 0;
	optind = 0;	/* glibc: restart scanning from argv[1] */
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h' && a->help) {
			*a->help = true;
			return IBT_EXIT_OK;
		}
		ret = ibt_global_opt(ctx, c, optarg);
		if (ret < 0)
			ret = ibt_opt_nums(a->nums, a->nnums, c, optarg, a->priv);
		if (ret < 0 && a->target)
			ret = ibt_opt_target(c, optarg, a->target);
		if (ret < 0 && a->opt)
			ret = a->opt(c, optarg, a);
		if (ret < 0)
			ret = ibt_bad_opt(c, argv, where);
		if (ret)
			return ret;
	}
	return ibt_positional(argc, argv, optind, a->words.min, a->words.max,
			      a->obj, a->cmd, a->words.what, a->words.pos);
}

/*
 * The end of a command without arguments of its own: only global options
 * may follow ("ibtracectl dev show -j"); anything else is a usage error.
 */
int ibt_end_args(struct ibt *ctx)
{
	static const struct ibt_args args = { 0 };

	if (!ctx->argc)
		return IBT_EXIT_OK;
	return ibt_args_parse(ctx, &args);
}

/* Parse by @a, completed with what ibt_words_parse() and the others share. */
static int parse_as(struct ibt *ctx, struct ibt_args a, const char *obj,
		    const char *cmd, const struct option *opts, ibt_opt_fn opt,
		    void *priv)
{
	a.obj = obj;
	a.cmd = cmd;
	a.opts = opts;
	a.opt = opt;
	a.priv = priv;
	return ibt_args_parse(ctx, &a);
}

/*
 * The options and words of command @obj @cmd: @opt takes @opts (with
 * @priv), which may also follow the words; @min..@max words into @pos,
 * @what they are in errors.
 */
int ibt_words_parse(struct ibt *ctx, const char *obj, const char *cmd,
		    const struct option *opts, ibt_opt_fn opt, void *priv,
		    const char **pos, int min, int max, const char *what)
{
	const struct ibt_args a = {
		.permute = true,
		.words = { pos, min, max, what },
	};

	return parse_as(ctx, a, obj, cmd, opts, opt, priv);
}

/*
 * The options of ping or trace (@obj): those of its @target (--dgid,
 * --dlid, -t, -r), its own (@opts, which @opt takes with @priv), and -h,
 * --help and the word "help" (*@help set); no words.
 */
int ibt_target_args(struct ibt *ctx, const char *obj,
		    const struct option *opts, ibt_opt_fn opt, void *priv,
		    bool *help, struct ibt_target *target)
{
	struct ibt_args a = { .help = help, .help_word = true };

	a.target = target;
	return parse_as(ctx, a, obj, NULL, opts, opt, priv);
}

/*
 * The options of command @obj @cmd when they are all numbers (@n @nums,
 * into @priv) but -h and --help (and the word "help" first, if
 * @help_word), which set *@help; no words.
 */
int ibt_nums_args(struct ibt *ctx, const char *obj, const char *cmd,
		  const struct ibt_num_opt *nums, size_t n, void *priv,
		  bool *help, bool help_word)
{
	struct ibt_args a = { .help = help, .help_word = help_word };

	a.nums = nums;
	a.nnums = n;
	return parse_as(ctx, a, obj, cmd, NULL, NULL, priv);
}

/*
 * The index in @table (entries of @size bytes, each starting with its
 * name) of the entry the next word names, or @dflt when there is none;
 * that word consumed. @what names the word in errors. IBT_EXIT_OK, or a
 * printed usage error.
 */
static int next_word(struct ibt *ctx, const char *what, const void *table,
		     size_t size, const char *dflt, int *idx)
{
	const char *word = dflt;

	/* an option where the command may be: the default command */
	if (ctx->argc > 0 && (ctx->argv[0][0] != '-' || !dflt)) {
		word = ctx->argv[0];
		ctx->argc--;
		ctx->argv++;
	}
	if (!word)
		return ibt_err(IBT_EXIT_USAGE, "missing %s; see ibtracectl --help",
			       what);
	*idx = ibt_name_lookup(table, size, word);
	if (*idx == IBT_LOOKUP_AMBIGUOUS)
		return ibt_err(IBT_EXIT_USAGE, "ambiguous %s \"%s\"; see ibtracectl --help",
			       what, word);
	if (*idx < 0)
		return ibt_err(IBT_EXIT_USAGE, "unknown %s \"%s\"; see ibtracectl --help",
			       what, word);
	return IBT_EXIT_OK;
}

/*
 * Run the object of @objects the first word names, with that word
 * consumed: its function, or its command the next word names ("show"
 * when there is none).
 */
int ibt_dispatch(struct ibt *ctx, const struct ibt_object *objects)
{
	const struct ibt_object *o;
	char what[32];
	int i, ret;

	ret = next_word(ctx, "object", objects, sizeof(*objects), NULL, &i);
	if (ret)
		return ret;
	o = &objects[i];
	if (o->fn)
		return o->fn(ctx);
	snprintf(what, sizeof(what), "%s command", o->name);
	ret = next_word(ctx, what, o->cmds, sizeof(*o->cmds), "show", &i);
	if (ret)
		return ret;
	if (o->cmds[i].fn)
		return o->cmds[i].fn(ctx);
	fputs(o->help, stdout);
	return IBT_EXIT_OK;
}

