// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtracectl audit merge: which link explains the failing routes of many
 * audits?
 *
 *   ibtracectl [-j] audit merge [--top N] FILE...
 *
 * Each FILE is the JSON of "ibtracectl -j audit" run from one port (on
 * many hosts, by the cluster's launcher: Documentation/ibtracectl.rst,
 * "audit merge"); "-" is standard input. merge.c adds up, per channel
 * (a node's exit port), the failing probes (unreachable, mismatch) whose
 * route crosses it and the verified ones; the channels are ranked by
 * failing probes, then by the fewest verified ones.
 *
 * Text:
 *   merged 8 audits: 3 failing probes, 4000 verified, 12 channels suspect
 *     1. switch port 0x0014050000000101 "S1" port 3: 3 failing, 0 verified
 *     2. ...
 * or "no suspect: no probe failed". JSON: one object: audits, failing,
 * verified, other (destinations saying nothing of the data path),
 * suspects (every one: rank, node_guid, node_desc, port, failing,
 * verified).
 *
 * Exit: 0 no probe failed, IBT_EXIT_AUDIT (19) otherwise; 1 a file that
 * cannot be read or is not an audit (one sentence naming it).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "ibtracectl.h"
#include "fabric.h"
#include "merge.h"

/* Files one merge reads at most */
#define MERGE_MAX_FILES	65536
/* Suspects printed by default (text; JSON: all) */
#define MERGE_DEF_TOP	10

enum { OPT_TOP = IBT_OPT_DLID + 1 };

struct audit_merge {
	uint32_t top;
	bool has_top;
	const char **files;
	int nfiles;
};

static int merge_opt(int c, const char *arg, const struct ibt_args *a)
{
	struct audit_merge *am = a->priv;

	if (c != OPT_TOP)
		return -1;
	return ibt_opt_u32("--top", arg, 1, UINT32_MAX, &am->top, &am->has_top);
}

/* FILE ("-": standard input) into @m. Return: an exit code. */
static int merge_file(struct ibt_merge *m, const char *path)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char err[256];
	json_object *o;
	int ret;

	if (!in)
		return ibt_err(IBT_EXIT_ERR, "audit merge: cannot open %s: %s",
			       path, strerror(errno));
	o = ibt_json_read(in, err, sizeof(err));
	if (in != stdin)
		fclose(in);
	if (!o)
		return ibt_err(IBT_EXIT_ERR, "audit merge: %s: %s", path, err);
	ret = ibt_merge_add(m, o, err, sizeof(err));
	json_object_put(o);
	if (ret)
		return ibt_err(IBT_EXIT_ERR, "audit merge: %s: %s", path, err);
	return IBT_EXIT_OK;
}

static void merge_out(struct ibt *ctx, const struct ibt_merge *m, uint32_t top)
{
	size_t n = ibt_merge_suspects(m), i;
	char guid[24];

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_json(ctx, "audits", json_object_new_uint64(m->audits));
	ibt_out_json(ctx, "failing", json_object_new_uint64(m->failing));
	ibt_out_json(ctx, "verified", json_object_new_uint64(m->verified));
	ibt_out_json(ctx, "other", json_object_new_uint64(m->other));
	if (!m->failing)
		ibt_out_text(ctx, "merged %zu audits: %zu verified probes; no suspect: no probe failed\n",
			     m->audits, m->verified);
	else
		ibt_out_text(ctx, "merged %zu audits: %zu failing probes, %zu verified, %zu channels suspect\n",
			     m->audits, m->failing, m->verified, n);
	ibt_out_arr_begin(ctx, "suspects");
	for (i = 0; i < n; i++) {
		const struct ibt_merge_chan *c = &m->chan[i];

		snprintf(guid, sizeof(guid), "0x%016" PRIx64, c->guid);
		ibt_out_obj_begin(ctx, NULL);
		ibt_out_json(ctx, "rank", json_object_new_uint64(i + 1));
		ibt_out_json(ctx, "node_guid", json_object_new_string(guid));
		ibt_out_json(ctx, "node_desc", json_object_new_string(c->desc));
		ibt_out_json(ctx, "port", json_object_new_uint64(c->port));
		ibt_out_json(ctx, "failing", json_object_new_uint64(c->fails));
		ibt_out_json(ctx, "verified", json_object_new_uint64(c->passes));
		ibt_out_obj_end(ctx);
		if (i < top)
			ibt_out_text(ctx, "  %zu. %s \"%s\" port %u: %u failing, %u verified\n",
				     i + 1, guid, c->desc, c->port, c->fails,
				     c->passes);
	}
	ibt_out_arr_end(ctx);
	if (n > top)
		ibt_out_text(ctx, "  (%zu more: --top N, or -j)\n", n - top);
	ibt_out_obj_end(ctx);
}

static void merge_usage(FILE *f)
{
	fputs("Usage: ibtracectl [-j] audit merge [--top N] FILE...\n"
	      "Rank the links (a node's exit port) by how well they explain the\n"
	      "failing probes of many audits: FILE is the output of\n"
	      "\"ibtracectl -j audit\" on one port (-: standard input); a link\n"
	      "that failing probes cross and verified ones do not comes first.\n"
	      "  --top N   suspects printed, from 1 (default " IBT_STR(MERGE_DEF_TOP) "; -j: all)\n"
	      "Exit 19: some probe failed; 1: a file is not an audit.\n", f);
}

/**
 * ibt_audit_merge() - "audit merge": the words after "merge"
 * @ctx: the command line
 *
 * Return: an exit code.
 */
int ibt_audit_merge(struct ibt *ctx)
{
	static const struct option opts[] = {
		{ "top",	required_argument,	NULL, OPT_TOP },
		{ NULL,		0,			NULL, 0 },
	};
	struct audit_merge am = { .top = MERGE_DEF_TOP };
	struct ibt_merge m;
	int ret, i;

	if (ctx->argc && (!strcmp(ctx->argv[0], "help") ||
			  !strcmp(ctx->argv[0], "-h") ||
			  !strcmp(ctx->argv[0], "--help"))) {
		merge_usage(stdout);
		return IBT_EXIT_OK;
	}
	am.files = calloc(MERGE_MAX_FILES, sizeof(*am.files));
	if (!am.files)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	ret = ibt_words_parse(ctx, "audit", "merge", opts, merge_opt, &am,
			      am.files, 1, MERGE_MAX_FILES, "FILE (an audit's JSON)");
	if (ret) {
		free(am.files);
		return ret;
	}
	for (am.nfiles = 0; am.nfiles < MERGE_MAX_FILES && am.files[am.nfiles];)
		am.nfiles++;
	ibt_merge_init(&m);
	for (i = 0; i < am.nfiles && !ret; i++)
		ret = merge_file(&m, am.files[i]);
	if (!ret) {
		ibt_merge_rank(&m);
		merge_out(ctx, &m, am.top);
		ibt_out_finish(ctx);
		ret = m.failing ? IBT_EXIT_AUDIT : IBT_EXIT_OK;
	}
	ibt_merge_free(&m);
	free(am.files);
	return ret;
}
