/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test object's shared parts: a test or a job as the kernel described
 * it (struct result), decoded from its messages by test_result.c and
 * printed by test_out.c; test.c holds the commands and the run loop.
 */
#ifndef IBTRACECTL_TEST_H
#define IBTRACECTL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibtracectl.h"

#define TEST_NAME_MAX	32
#define TEST_STR_MAX	256

struct assertion {
	char id[64];
	char desc[TEST_STR_MAX];
	bool have_result, have_checks;
	unsigned int result;
	uint32_t checks;
	char expected[TEST_STR_MAX];
	char observed[TEST_STR_MAX];
	char where[TEST_STR_MAX];
};

struct xchg {
	bool have[IBTRACE_XCHG_A_MAX + 1];
	uint64_t val[IBTRACE_XCHG_A_MAX + 1];
};

/* The RNR test's figures of one timer code (IBTRACE_A_TEST_RNR_CODE). */
struct rnr_code {
	bool have[IBTRACE_RNR_A_MAX + 1];
	uint64_t val[IBTRACE_RNR_A_MAX + 1];	/* OVERSHOOT_NS: an s64 */
};

/* A test (TEST_LIST) or a job (TEST_GET, TEST_EVENT), as the kernel said. */
struct result {
	bool have[IBTRACE_A_MAX + 1];
	uint64_t val[IBTRACE_A_MAX + 1];
	char name[TEST_NAME_MAX];
	char seed[TEST_NAME_MAX];
	char dev[IBT_DEV_NAME_MAX];
	char reason[TEST_STR_MAX];
	char desc[TEST_STR_MAX];
	char needs[TEST_STR_MAX];
	uint8_t dr[IBTRACE_TRACE_MAX_HOPS];
	size_t ndr;
	struct assertion *asserts;
	size_t nasserts;
	struct xchg *xchgs;
	size_t nxchgs;
	/* the RNR test */
	uint8_t peer_gid[16];		/* have[IBTRACE_A_TEST_PEER_GID] */
	char wire_why[TEST_STR_MAX];
	struct rnr_code *codes;		/* in the order measured */
	size_t ncodes;
};

struct list {
	struct result *v;
	size_t n;
};

static inline uint64_t test_rval(const struct result *r, int a)
{
	return r->val[a];
}

/* test_result.c: decoding */
void test_result_free(struct result *r);
void test_list_free(struct list *l);
int test_result_absorb(struct ibt *ctx, struct result *r, struct nlmsghdr *nlh);
int test_keep_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg);
void test_result_take(struct result *r, struct result *k);
bool test_is_rnr(const struct result *r);

/* test_out.c: presentation */
int test_result_report(struct ibt *ctx, const struct result *r, bool verbose,
		       bool cancelled);
void test_list_print(struct ibt *ctx, const struct result *r);
int test_show_line(struct ibt *ctx, const struct result *r);
void test_detach_print(struct ibt *ctx, uint32_t job);
void test_rnr_code_text(uint64_t job, const struct rnr_code *c);

#endif /* IBTRACECTL_TEST_H */
