// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden test of the printing: every case of the g_*.c files, text
 * and JSON, on stdout (stderr joins it, so error lines show in order).
 * Run by "make test", which compares it with tests/golden.txt; after a
 * deliberate change of the output, regenerate that file with
 * "tests/golden > tests/golden.txt" and review the diff.
 */
#include <stdio.h>
#include <unistd.h>

#include "golden.h"

void golden_run(const char *name, golden_fn fn, void *arg)
{
	struct ibt ctx = { 0 };
	int ret;

	printf("== %s text\n", name);
	fflush(stdout);
	ret = fn(&ctx, arg);
	fflush(stdout);
	printf("-- exit %d\n", ret);
	ibt_out_free(&ctx);

	printf("== %s json\n", name);
	ctx.json = true;
	ret = fn(&ctx, arg);
	fflush(stdout);
	ibt_out_finish(&ctx);
	printf("-- exit %d\n", ret);
	ibt_out_free(&ctx);
}

const struct ibt_family golden_family = {
	.name = IBTRACE_GENL_NAME, .version = IBTRACE_GENL_VERSION,
};

void golden_hex(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	unsigned char *p = (unsigned char *)genlmsg_attrdata(nlmsg_data(nlh), 0);
	int i, len = genlmsg_attrlen(nlmsg_data(nlh), 0);

	for (i = 0; i < len; i++)
		printf("%02x%s", p[i], i % 16 == 15 || i == len - 1 ? "\n" : " ");
}

struct words_case {
	golden_req_fn fn;
	const char *dev;
	const char *const *words;
};

static int run_words(struct ibt *ctx, void *arg)
{
	const struct words_case *c = arg;
	static char *argv[64];
	struct nl_msg *msg = NULL;
	int n, ret;

	/* argv[-1] is the object's name, as getopt's program name */
	argv[0] = "object";
	for (n = 0; c->words[n] && n < 62; n++)
		argv[n + 1] = (char *)c->words[n];
	argv[n + 1] = NULL;
	ctx->argc = n;
	ctx->argv = argv + 1;
	ctx->dev = c->dev;
	ctx->fam = &golden_family;
	ret = c->fn(ctx, &msg);
	if (msg) {
		golden_hex(msg);
		nlmsg_free(msg);
	}
	return ret;
}

void golden_words_run(const char *prefix, golden_req_fn fn, const char *dev,
		      const char *const *words, size_t cols, size_t n)
{
	struct words_case c = { fn, dev, NULL };
	char name[64];
	size_t i;

	for (i = 0; i < n; i++) {
		c.words = words + i * cols;
		snprintf(name, sizeof(name), "%s %zu", prefix, i);
		golden_run(name, run_words, &c);
	}
}

struct nl_msg *golden_msg(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, 0x20, 0, 0,
				 cmd, 1)) {
		fprintf(stderr, "golden: out of memory\n");
		_exit(1);
	}
	return msg;
}

static void put_num(struct nl_msg *msg, const struct golden_attr *a)
{
	uint8_t u8 = a->v;
	uint16_t u16 = a->v;
	uint32_t u32 = a->v;
	const void *p = a->size == 1 ? (const void *)&u8 :
			a->size == 2 ? (const void *)&u16 :
			a->size == 4 ? (const void *)&u32 : (const void *)&a->v;

	nla_put(msg, a->attr, a->size, p);
}

void golden_put(struct nl_msg *msg, const struct golden_attr *a, size_t n)
{
	struct nlattr *nest[4];
	int depth = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		switch (a[i].size) {
		case GOLDEN_NEST:
			nest[depth++] = nla_nest_start(msg, a[i].attr);
			break;
		case GOLDEN_END:
			nla_nest_end(msg, nest[--depth]);
			break;
		case GOLDEN_STR:
			nla_put_string(msg, a[i].attr, a[i].s);
			break;
		case GOLDEN_BYTES:
			nla_put(msg, a[i].attr, a[i].v, a[i].s);
			break;
		default:	/* GOLDEN_FLAG and numbers */
			put_num(msg, &a[i]);
			break;
		}
	}
}

int main(void)
{
	dup2(STDOUT_FILENO, STDERR_FILENO);
	golden_server();
	golden_sim();
	golden_dev();
	golden_test();
	golden_trace();
	golden_ping();
	golden_mad_decode();
	golden_mad();
	golden_capture();
	golden_inject();
	golden_traffic();
	golden_audit();
	golden_agent();
	golden_audit_merge();
	golden_job();
	return 0;
}
