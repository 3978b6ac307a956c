/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test object's shared parts: a test or a job as the kernel described
 * it (struct result), decoded from its messages by test_result.c and
 * printed by test_out.c; test.c holds the commands and the run loop.
 *
 * Each conformance test is a struct ibt_test_def in a file of its own
 * (test_guidinfo.c, test_rnr.c, test_limit.c, test_perf.c, test_quit.c,
 * test_txn.c),
 * the tool's side of the kernel's struct ibtrace_test_def
 * (kmod/ibtrace/test.h): its options of "test run", its request
 * attributes, its help, and how its results decode and print where they
 * differ from the framework's. ibt_tests[] (test_defs.c)
 * lists them, as ibtrace_tests[] in the kernel's test.c.
 */
#ifndef IBTRACECTL_TEST_H
#define IBTRACECTL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/*
 * One nest of a test's own list of figures (the RNR test's timer codes,
 * the limit test's kinds of object, the transaction test's endpoints):
 * its numbers by attribute, and its one string if it has one (a
 * completion's status).
 */
#define TEST_ITEM_ATTRS	32
struct test_item {
	bool have[TEST_ITEM_ATTRS];
	uint64_t val[TEST_ITEM_ATTRS];
	char text[TEST_STR_MAX];
};

/* Such nests, in the order the kernel first sent each. */
struct test_items {
	struct test_item *v;
	size_t n;
};

/*
 * What a list's nests hold: the attribute that names an item and a second
 * one if it takes two (-1: none), the highest attribute, the one that is
 * a string (-1: none), and the error when a name is missing ("RNR
 * figures without a timer code").
 */
struct test_items_nest {
	int key, key2;
	int max;
	int text;
	const char *nokey;
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
	uint8_t peer_gid[16];		/* with have[IBTRACE_A_TEST_PEER_GID] */
	struct assertion *asserts;
	size_t nasserts;
	struct xchg *xchgs;
	size_t nxchgs;
	/*
	 * messages absorbed: a test's list that each message carries whole
	 * (the transaction test's operations) starts anew with a new one
	 */
	unsigned long nmsgs;
	/* what only test @data_def decodes (its absorb()), NULL if none */
	const struct ibt_test_def *data_def;
	void *data;
};

struct list {
	struct result *v;
	size_t n;
};

static inline uint64_t test_rval(const struct result *r, int a)
{
	return r->val[a];
}

struct nl_msg;

/*
 * An option of "test run" that a test takes: its long name, its letter
 * (0: none; not j, d, p or v, which are taken), whether it takes an
 * argument, and the number the test's opt() gets for it.
 */
struct ibt_test_opt {
	const char *name;
	char letter;
	bool arg;
	int id;
};

/**
 * struct ibt_test_def - a conformance test, as the tool knows it
 * @name: as the kernel's &struct ibtrace_test_def.name ("rnr")
 * @synopsis: its lines in "ibtracectl --help"
 * @usage: its lines of the synopsis of "ibtracectl test help"
 * @help: its paragraph of "ibtracectl test help"
 * @any_link_layer: without -d, it runs from the first Active port of any
 *	link layer (else from the first Active InfiniBand one)
 * @opts: its own options of "test run" (-v and --detach are everyone's),
 *	ending with { NULL }; the same name in two tests is one option
 * @args_size: bytes of its parsed options, allocated zeroed for a run
 * @opt: option @id's argument @arg into @args; 0 or a printed usage error
 * @word: optional: a word after the test's name (limit: an object); 0 or
 *	a printed usage error; without it the test takes no such words
 * @check: optional: the options agree with each other; 0 or a printed
 *	usage error
 * @local_port: optional: the local port its options name (0: none), the
 *	default of -p; @local_port_opt names that option in errors
 * @request: its attributes of TEST_RUN, for the options given; -1 when
 *	the message is full
 * @prefill: optional: what the options say about the DUT, into the
 *	result (where the kernel's messages may not repeat it)
 * @owns: optional: a result is the test's by its attributes, whatever
 *	its name says (the test's own attributes were sent)
 * @data_size: bytes of test-owned results (struct result.data)
 * @attrs: optional: the top-level attributes only it decodes, ending
 *	with 0
 * @absorb: attribute @a (one of @attrs) of a message into @r and @data,
 *	its part of @r (allocated zeroed on first use); 0 or a printed
 *	exit code
 * @take: optional: @k's data over @r's data (@k's may be NULL), as
 *	test_result_take() does for the framework's parts; @k's is freed
 *	by the caller
 * @free_data: optional: free what @data points to (not @data)
 * @progress_attr: the attribute of its progress events that
 *	@progress_text prints
 * @progress_text: optional: print what @ev says that has not been
 *	printed yet (@shown: its own record), as the job runs
 * @dut_text: optional: how the DUT is addressed, after "DEV/PORT" (the
 *	framework's: "dr 1,2", "lid N", "local"); true: the framework adds
 *	the DUT's port ("port N") after it
 * @head_text: optional: more of the header line of a result
 * @body_text: optional: lines between the header and the assertions
 * @running_text: optional: the verdict line of a running job
 * @sends_mads: its results have an exchange line even with no exchange
 * @json: optional: its keys of a result object
 */
struct ibt_test_def {
	const char *name;
	const char *synopsis;
	const char *usage;
	const char *help;
	bool any_link_layer;

	const struct ibt_test_opt *opts;
	size_t args_size;
	int (*opt)(void *args, int id, const char *arg);
	int (*word)(void *args, const char *word);
	int (*check)(const void *args);
	uint32_t (*local_port)(const void *args);
	const char *local_port_opt;
	int (*request)(struct nl_msg *msg, const void *args);
	void (*prefill)(const void *args, struct result *r);

	bool (*owns)(const struct result *r);
	size_t data_size;
	const int *attrs;
	int (*absorb)(struct ibt *ctx, struct result *r, void *data,
		      struct nlattr *a);
	void (*take)(void *data, void *k);
	void (*free_data)(void *data);

	int progress_attr;
	void (*progress_text)(uint64_t job, const struct result *ev,
			      uint32_t *shown);
	bool (*dut_text)(const struct result *r, char *buf, size_t len);
	void (*head_text)(const struct result *r);
	void (*body_text)(const struct result *r);
	void (*running_text)(const struct result *r);
	bool sends_mads;
	void (*json)(struct ibt *ctx, const struct result *r);
};

/* test_defs.c: the tests the tool knows */
extern const struct ibt_test_def *const ibt_tests[];
const struct ibt_test_def *test_def_find(const char *name);
const struct ibt_test_def *test_def_of(const struct result *r);

/* the tests, one file each */
extern const struct ibt_test_def test_guidinfo;
extern const struct ibt_test_def test_rnr;
extern const struct ibt_test_def test_limit;
extern const struct ibt_test_def test_perf;
extern const struct ibt_test_def test_quit;
extern const struct ibt_test_def test_txn;

/* test_result.c: decoding */
void test_result_free(struct result *r);
void test_list_free(struct list *l);
int test_result_absorb(struct ibt *ctx, struct result *r, struct nlmsghdr *nlh);
int test_keep_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg);
void test_result_take(struct result *r, struct result *k);

/*
 * test_items.c: a test's own list of figures, the numbers of a nest, and
 * how one figure prints ("-" when the kernel did not send it)
 */
int test_item_absorb(struct ibt *ctx, struct test_item *it, struct nlattr *nest,
		     int first, int max, int text);
int test_items_absorb(struct ibt *ctx, struct test_items *l, struct nlattr *nest,
		      const struct test_items_nest *how);
void test_items_take(struct test_items *l, struct test_items *k);
void test_items_free(struct test_items *l);
const char *test_item_str(const struct test_item *f, int a, char *buf, size_t len);
const char *test_item_plural(const struct test_item *f, int a, const char *suffix);
const char *test_item_mb_str(const struct test_item *f, int a, char *buf, size_t len);
const char *test_item_dur_str(const struct test_item *f, int a, char *buf, size_t len);
bool test_item_mb_per_s(const struct test_item *f, int bytes, int ns, char *buf,
			size_t len);

/*
 * test_peer.c: the options of the tests served by a peer host's ibtrace
 * server (rnr --peer, perf, quit, txn): --peer GID, --peer-port N, and how
 * results name that peer
 */
struct test_peer_args {
	uint8_t gid[16];
	uint32_t port;
	bool has_gid, has_port;
};
int test_peer_opt(struct test_peer_args *p, bool port, const char *arg);
int test_peer_request(struct nl_msg *msg, const struct test_peer_args *p);
bool test_peer_dut_text(const struct result *r, char *buf, size_t len);
void test_peer_json(struct ibt *ctx, const struct result *r, const char *key);

/* test_out.c: presentation */
int test_result_report(struct ibt *ctx, const struct result *r, bool verbose,
		       bool cancelled);
void test_list_print(struct ibt *ctx, const struct result *r);
void test_show_line(struct ibt *ctx, const struct result *r);
void test_detach_print(struct ibt *ctx, uint32_t job);

#endif /* IBTRACECTL_TEST_H */
