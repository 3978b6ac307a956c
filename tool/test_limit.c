// SPDX-License-Identifier: GPL-2.0-only
/*
 * The limit test (the kernel's limit.c, after dapltest -T L), as the tool
 * knows it: "test run limit [-m MAX] [-w WIDTH] [--budget MB] [OBJECT...]"
 * with OBJECT among pd cq qp mr rpost size_mr ah srq (default all), the
 * figures of each kind of object (IBTRACE_A_TEST_LIMIT) and how they
 * print: a line per kind as it is counted, then a table:
 *
 *   job 4 test limit seed dapltest -T L dut rxe0/1 local: width 1 budget 64 MiB max 2000
 *   object          made  in use    advertised  ended by            time
 *   pd              2000       2       1048576  max                 0.41 s
 *   ah             32767       0         32767  device: Cannot allocate memory  9.90 s
 *   size_mr      2.0 GiB       -       2.0 MiB  budget              0.20 s
 *
 * JSON keys (with the framework's): objects (names asked for), max, width,
 * budget_mb and limits [{object, made, in_use, advertised, end ("device",
 * "max", "budget", "host_memory", "stopped", "setup"), errno, elapsed_ns,
 * estimate}] (made and advertised in bytes for size_mr).
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
	OPT_MAX,
	OPT_WIDTH,
	OPT_BUDGET,
};

static const struct ibt_test_opt limit_opts[] = {
	{ "max",	'm', true, OPT_MAX },
	{ "width",	'w', true, OPT_WIDTH },
	{ "budget",	0,   true, OPT_BUDGET },
	{ NULL },
};

struct limit_args {
	uint32_t max, width, budget_mb, objects;
	bool has_max, has_width, has_budget, has_objects;
};

/* What only this test's results have (struct result.data). */
struct limit_data {
	struct test_items res;		/* IBTRACE_A_TEST_LIMIT nests */
};

/* Options and words */

static int limit_opt(void *args, int id, const char *arg)
{
	struct limit_args *t = args;

	switch (id) {
	case OPT_MAX:
		return ibt_opt_u32("-m", arg, 1, UINT32_MAX, &t->max, &t->has_max);
	case OPT_WIDTH:
		return ibt_opt_u32("-w", arg, 1, IBTRACE_TEST_LIMIT_MAX_WIDTH,
				   &t->width, &t->has_width);
	default: /* OPT_BUDGET */
		return ibt_opt_range("--budget", arg, 1,
				     IBTRACE_TEST_LIMIT_MAX_BUDGET_MB, "", " MiB",
				     &t->budget_mb, &t->has_budget);
	}
}

/* An object named after the test's name: one more kind to count. */
static int limit_word(void *args, const char *word)
{
	struct limit_args *t = args;
	size_t k;

	for (k = 0; k < __IBTRACE_LIMIT_MAX; k++)
		if (!strcmp(word, ibt_limit_object_str(k))) {
			t->objects |= 1u << k;
			t->has_objects = true;
			return 0;
		}
	return ibt_err(IBT_EXIT_USAGE,
		       "unknown object \"%s\" for test limit: expected pd, cq, qp, mr, rpost, size_mr, ah or srq",
		       word);
}

#define LIMIT_ARG(f)	offsetof(struct limit_args, f)

/* The request's attributes of the options and objects given. */
static const struct ibt_req_opt limit_req[] = {
	{ IBTRACE_A_TEST_LIMIT_OBJECTS, IBT_REQ_U32, LIMIT_ARG(objects),
	  LIMIT_ARG(has_objects) },
	{ IBTRACE_A_TEST_LIMIT_MAX, IBT_REQ_U32, LIMIT_ARG(max), LIMIT_ARG(has_max) },
	{ IBTRACE_A_TEST_LIMIT_WIDTH, IBT_REQ_U32, LIMIT_ARG(width), LIMIT_ARG(has_width) },
	{ IBTRACE_A_TEST_LIMIT_BUDGET_MB, IBT_REQ_U32, LIMIT_ARG(budget_mb),
	  LIMIT_ARG(has_budget) },
};

static int limit_request(struct nl_msg *msg, const void *args)
{
	return ibt_nl_put_opts(msg, limit_req, IBT_ARRAY_SIZE(limit_req), args);
}

/* Decoding */

static const struct limit_data limit_none;

static const struct limit_data *limit_of(const struct result *r)
{
	return r->data_def == &test_limit ? r->data : &limit_none;
}

/* A result of the limit test by its attributes (its name aside). */
static bool limit_owns(const struct result *r)
{
	return limit_of(r)->res.n || r->have[IBTRACE_A_TEST_LIMIT_OBJECTS];
}

static const int limit_attrs[] = {
	IBTRACE_A_TEST_LIMIT,
	0,
};

/* The figures of a kind of object. */
static const struct test_items_nest limit_res = {
	IBTRACE_LIMIT_A_OBJECT, -1, IBTRACE_LIMIT_A_MAX, -1, "limit figures without an object"
};

static int limit_absorb(struct ibt *ctx, struct result *r, void *data,
			struct nlattr *a)
{
	struct limit_data *d = data;

	(void)r;
	return test_items_absorb(ctx, &d->res, a, &limit_res);
}

/* @k's figures replace @d's. */
static void limit_take(void *data, void *k_data)
{
	struct limit_data *d = data, *k = k_data;

	test_items_take(&d->res, k ? &k->res : NULL);
}

static void limit_free(void *data)
{
	struct limit_data *d = data;

	test_items_free(&d->res);
}

/* Text */

static uint64_t rval(const struct test_item *c, int a)
{
	return c->val[a];
}

/* "1.5 GiB", "512 B": a size_mr figure. */
static const char *bytes_str(uint64_t b, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	size_t u = 0;

	while (v >= 1024 && u + 1 < IBT_ARRAY_SIZE(units)) {
		v /= 1024;
		u++;
	}
	if (u)
		snprintf(buf, len, "%.1f %s", v, units[u]);
	else
		snprintf(buf, len, "%" PRIu64 " B", b);
	return buf;
}

/* A count of @c: bytes for size_mr, "-" when the kernel did not send it. */
static const char *count_str(const struct test_item *c, int a, char *buf,
			     size_t len)
{
	if (c->have[a] && rval(c, IBTRACE_LIMIT_A_OBJECT) == IBTRACE_LIMIT_SIZE_MR)
		return bytes_str(rval(c, a), buf, len);
	return test_item_str(c, a, buf, len);
}

/* "device: Cannot allocate memory", "budget", ... */
static const char *end_str(const struct test_item *c, char *buf, size_t len)
{
	uint64_t end = rval(c, IBTRACE_LIMIT_A_END);

	if (c->have[IBTRACE_LIMIT_A_ERRNO])
		snprintf(buf, len, "%s: %s", ibt_limit_end_str(end),
			 strerror((int)rval(c, IBTRACE_LIMIT_A_ERRNO)));
	else
		snprintf(buf, len, "%s", ibt_limit_end_str(end));
	return buf;
}

/*
 * The live line of each kind counted that has none yet (@shown: the
 * kinds printed, by bit):
 *   job 4: pd: 2000 made (ended by max), advertised 1048576, 2 in use before, 410.00 ms
 */
static void limit_progress_text(uint64_t job, const struct result *ev,
				uint32_t *shown)
{
	const struct limit_data *d = limit_of(ev);
	char m[32], a[32], e[96], t[32];
	size_t i;

	for (i = 0; i < d->res.n; i++) {
		const struct test_item *c = &d->res.v[i];
		uint32_t bit = 1u << (rval(c, IBTRACE_LIMIT_A_OBJECT) & 31);

		if (*shown & bit)
			continue;
		*shown |= bit;
		printf("job %" PRIu64 ": %s: %s made (ended by %s), advertised %s, %" PRIu64 " in use before, %s\n",
		       job, ibt_limit_object_str(rval(c, IBTRACE_LIMIT_A_OBJECT)),
		       count_str(c, IBTRACE_LIMIT_A_COUNT, m, sizeof(m)),
		       end_str(c, e, sizeof(e)),
		       count_str(c, IBTRACE_LIMIT_A_ADVERTISED, a, sizeof(a)),
		       rval(c, IBTRACE_LIMIT_A_IN_USE),
		       ibt_dur_str((int64_t)rval(c, IBTRACE_LIMIT_A_ELAPSED_NS), false,
				   t, sizeof(t)));
		fflush(stdout);
	}
}

/* The object names of a mask, "pd cq" (all of them: "all"). */
static const char *objects_str(uint64_t mask, char *buf, size_t len)
{
	size_t k, off = 0;

	buf[0] = 0;
	if (mask == (1u << __IBTRACE_LIMIT_MAX) - 1)
		return "all";
	for (k = 0; k < __IBTRACE_LIMIT_MAX && off < len; k++)
		if (mask & (1u << k))
			off += snprintf(buf + off, len - off, "%s%s", off ? " " : "",
					ibt_limit_object_str(k));
	return buf;
}

/* What the header line says after "dut DEV/PORT local:" */
static void limit_head_text(const struct result *r)
{
	char b[96];

	putchar(':');
	if (r->have[IBTRACE_A_TEST_LIMIT_OBJECTS])
		printf(" objects %s",
		       objects_str(test_rval(r, IBTRACE_A_TEST_LIMIT_OBJECTS), b, sizeof(b)));
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_LIMIT_WIDTH, "width", "");
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_LIMIT_BUDGET_MB, "budget", " MiB");
	ibt_out_num_text(r->have, r->val, IBTRACE_A_TEST_LIMIT_MAX, "max", "");
}

/* One row per kind counted. */
static void limit_body_text(const struct result *r)
{
	const struct limit_data *d = limit_of(r);
	char m[32], u[32], a[32], e[96], t[32];
	size_t i;

	if (!d->res.n) {
		printf("no object counted\n");
		return;
	}
	printf("%-8s %12s %8s %13s  %-30s %10s\n", "object", "made", "in use",
	       "advertised", "ended by", "time");
	for (i = 0; i < d->res.n; i++) {
		const struct test_item *c = &d->res.v[i];
		bool untracked = rval(c, IBTRACE_LIMIT_A_OBJECT) == IBTRACE_LIMIT_RPOST ||
				 rval(c, IBTRACE_LIMIT_A_OBJECT) == IBTRACE_LIMIT_SIZE_MR ||
				 rval(c, IBTRACE_LIMIT_A_OBJECT) == IBTRACE_LIMIT_AH;

		printf("%-8s %12s %8s %13s  %-30s %10s\n",
		       ibt_limit_object_str(rval(c, IBTRACE_LIMIT_A_OBJECT)),
		       count_str(c, IBTRACE_LIMIT_A_COUNT, m, sizeof(m)),
		       untracked ? "-" : count_str(c, IBTRACE_LIMIT_A_IN_USE, u, sizeof(u)),
		       count_str(c, IBTRACE_LIMIT_A_ADVERTISED, a, sizeof(a)),
		       end_str(c, e, sizeof(e)),
		       ibt_dur_str((int64_t)rval(c, IBTRACE_LIMIT_A_ELAPSED_NS), false,
				   t, sizeof(t)));
	}
}

static void limit_running_text(const struct result *r)
{
	printf("verdict: none yet (running, %zu kinds of object counted so far)\n",
	       limit_of(r)->res.n);
}

/* JSON */

static void limit_res_json(struct ibt *ctx, const struct test_item *c)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_LIMIT_A_COUNT,	"made" },
		{ IBTRACE_LIMIT_A_IN_USE,	"in_use" },
		{ IBTRACE_LIMIT_A_ADVERTISED,	"advertised" },
		{ IBTRACE_LIMIT_A_ERRNO,	"errno" },
		{ IBTRACE_LIMIT_A_ELAPSED_NS,	"elapsed_ns" },
		{ IBTRACE_LIMIT_A_ESTIMATE,	"estimate" },
	};

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "object",
		     json_object_new_string(ibt_limit_object_str(rval(c, IBTRACE_LIMIT_A_OBJECT))));
	if (c->have[IBTRACE_LIMIT_A_END])
		ibt_out_json(ctx, "end",
			     json_object_new_string(ibt_limit_end_str(rval(c, IBTRACE_LIMIT_A_END))));
	ibt_out_nums(ctx, nums, IBT_ARRAY_SIZE(nums), c->have, c->val);
	ibt_out_obj_end(ctx);
}

/* The limit test's keys of a result object. */
static void limit_json(struct ibt *ctx, const struct result *r)
{
	static const struct ibt_num_key nums[] = {
		{ IBTRACE_A_TEST_LIMIT_MAX,		"max" },
		{ IBTRACE_A_TEST_LIMIT_WIDTH,		"width" },
		{ IBTRACE_A_TEST_LIMIT_BUDGET_MB,	"budget_mb" },
	};
	const struct limit_data *d = limit_of(r);
	uint64_t mask = test_rval(r, IBTRACE_A_TEST_LIMIT_OBJECTS);
	size_t i;

	if (r->have[IBTRACE_A_TEST_LIMIT_OBJECTS]) {
		ibt_out_arr_begin(ctx, "objects");
		for (i = 0; i < __IBTRACE_LIMIT_MAX; i++)
			if (mask & (1u << i))
				ibt_out_json(ctx, NULL,
					     json_object_new_string(ibt_limit_object_str(i)));
		ibt_out_arr_end(ctx);
	}
	ibt_out_nums(ctx, nums, IBT_ARRAY_SIZE(nums), r->have, r->val);
	ibt_out_arr_begin(ctx, "limits");
	for (i = 0; i < d->res.n; i++)
		limit_res_json(ctx, &d->res.v[i]);
	ibt_out_arr_end(ctx);
}

const struct ibt_test_def test_limit = {
	.name		= "limit",
	.synopsis	=
"  test run limit [-m MAX] [-w WIDTH] [--budget MB] [OBJECT...] [-v] [--detach]\n",
	.usage		=
"       ibtracectl [-j] [--pretty] [-d DEV] [-p PORT] test run limit\n"
"                  [-m|--max MAX] [-w|--width WIDTH] [--budget MB]\n"
"                  [pd] [cq] [qp] [mr] [rpost] [size_mr] [ah] [srq]\n"
"                  [-v|--verbose] [--detach]\n",
	.help		=
"limit: how many objects of each kind the local device (-d, -p; without -d\n"
"the first Active port, InfiniBand or RoCE) makes before it refuses one,\n"
"against what it advertises, as dapltest -T L: pd cq qp mr rpost (receive\n"
"WRs on one QP) size_mr (the largest MR) ah srq, default all. -w: sets of\n"
"{PD, CQ, QP} made first, the objects spread over them, 1.." IBT_STR(IBTRACE_TEST_LIMIT_MAX_WIDTH) " (default 1);\n"
"-m: most objects of a kind (size_mr: pages), default until refused;\n"
"--budget: memory the objects of a kind may take by the module's\n"
"estimate, 1.." IBT_STR(IBTRACE_TEST_LIMIT_MAX_BUDGET_MB) " MiB (default " IBT_STR(IBTRACE_TEST_LIMIT_DEF_BUDGET_MB) "). A kind fails when the\n"
"device refuses one below what it advertises (less what it held before).\n",
	.any_link_layer	= true,
	.opts		= limit_opts,
	.args_size	= sizeof(struct limit_args),
	.opt		= limit_opt,
	.word		= limit_word,
	.request	= limit_request,
	.owns		= limit_owns,
	.data_size	= sizeof(struct limit_data),
	.attrs		= limit_attrs,
	.absorb		= limit_absorb,
	.take		= limit_take,
	.free_data	= limit_free,
	.progress_attr	= IBTRACE_A_TEST_LIMIT,
	.progress_text	= limit_progress_text,
	.head_text	= limit_head_text,
	.body_text	= limit_body_text,
	.running_text	= limit_running_text,
	.sends_mads	= false,
	.json		= limit_json,
};
