// SPDX-License-Identifier: GPL-2.0-only
/* The golden cases of audit_merge.c: the ranking printed, and none. */
#include "../audit_merge.c"
#include "golden.h"

#define HOP(g, d, p) "{\"node_guid\":\"" g "\",\"node_desc\":\"" d "\",\"out_port\":" #p "}"

static const char failing[] =
	"{\"destinations\":["
	"{\"verdict\":\"ok\",\"path\":[" HOP("0xb1", "h1", 1) "," HOP("0xa1", "S1", 3) "],"
	"\"proof\":{\"verdict\":\"unreachable\"}},"
	"{\"verdict\":\"ok\",\"path\":[" HOP("0xb1", "h1", 1) "," HOP("0xa1", "S1", 2) "],"
	"\"proof\":{\"verdict\":\"verified\"}},"
	"{\"verdict\":\"hole\"}]}";
static const char clean[] =
	"{\"destinations\":["
	"{\"verdict\":\"ok\",\"path\":[" HOP("0xb1", "h1", 1) "],"
	"\"proof\":{\"verdict\":\"verified\"}}]}";

struct merge_case {
	const char *json;
	uint32_t top;
};

static int run_merge(struct ibt *ctx, void *arg)
{
	const struct merge_case *c = arg;
	json_object *o = json_tokener_parse(c->json);
	struct ibt_merge m;
	char err[128];
	int ret;

	ibt_merge_init(&m);
	ret = ibt_merge_add(&m, o, err, sizeof(err));
	json_object_put(o);
	if (ret) {
		ret = ibt_err(IBT_EXIT_ERR, "%s", err);
	} else {
		ibt_merge_rank(&m);
		merge_out(ctx, &m, c->top);
		ret = m.failing ? IBT_EXIT_AUDIT : IBT_EXIT_OK;
	}
	ibt_merge_free(&m);
	return ret;
}

void golden_audit_merge(void)
{
	struct merge_case c1 = { failing, 1 }, c2 = { clean, 10 };

	golden_run("audit merge, one failing probe, --top 1", run_merge, &c1);
	golden_run("audit merge, nothing failing", run_merge, &c2);
}
