/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the conformance test framework, shared by test.c (jobs,
 * assertions, exchanges, verdicts), the tests (guidinfo.c, ...) and
 * test_nl.c (the netlink messages).
 *
 * A test is a &struct ibtrace_test_def: a name, the IBTA compliance test
 * it follows, its assertions, and a run() that talks to the DUT only
 * through ibtrace_test_smp() (which records every exchange) and decides
 * assertions only through ibtrace_test_check(). The framework runs it as
 * a job on its own workqueue, announces it on the "test" multicast group,
 * decides the verdict when run() returns, and keeps the result for
 * IBTRACE_CMD_TEST_GET.
 */
#ifndef _IBTRACE_TEST_H
#define _IBTRACE_TEST_H

#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <net/netlink.h>

#include "ibtrace.h"
#include "job.h"

#define IBTRACE_TEST_VAL_LEN		40
#define IBTRACE_TEST_REASON_LEN		128

/**
 * struct ibtrace_assert_def - one assertion a test makes
 * @id: assertion ID of the compliance test ("v1c14-027#01")
 * @desc: what it asserts, one line
 */
struct ibtrace_assert_def {
	const char *id;
	const char *desc;
};

struct genl_info;
struct ibtrace_test_job;
struct ibtrace_test_args;

/**
 * enum ibtrace_test_fill - how much of its results a test puts in a message
 * @IBTRACE_TEST_FILL_ALL: everything (a GET do reply)
 * @IBTRACE_TEST_FILL_NEWEST: the arguments and the newest result (an
 *	event: it must fit a page)
 * @IBTRACE_TEST_FILL_SUMMARY: the arguments only (a dump, one message per
 *	job: any reader's buffer must hold it)
 */
enum ibtrace_test_fill {
	IBTRACE_TEST_FILL_ALL,
	IBTRACE_TEST_FILL_NEWEST,
	IBTRACE_TEST_FILL_SUMMARY,
};

/**
 * struct ibtrace_test_def - a conformance test
 * @name: name on the command line ("guidinfo")
 * @seed: the IBTA compliance test it follows ("C14_024_05")
 * @desc: one line
 * @needs: what the DUT must offer
 * @smp: the test talks to the DUT by SMPs: the framework refuses a port
 *	without an SMI (not applicable) and provides the address handle
 * @asserts: its assertions
 * @n_asserts: number of @asserts
 * @check: optional: the test's own checks of a request (@info: its
 *	attributes, parsed, and the message, for attributes that repeat) and
 *	defaults of its arguments, after the framework parsed @args; says
 *	what is wrong in @info->extack. Return: 0 or -EINVAL.
 * @run: the test; called once in the job's work item, may sleep. It ends
 *	the job early with ibtrace_test_abort(); it must leave the DUT as it
 *	found it. One that changes the DUT says what became of it with
 *	ibtrace_test_restored(); one that changes nothing leaves the job's
 *	restore at %IBTRACE_TEST_RESTORE_NONE, where it starts.
 * @data_size: bytes of test-owned results the framework allocates (zeroed)
 *	with the job as @job->data and frees with it; 0 = none
 * @fill: optional: put the test's own results (@job->data) into a
 *	message, as much as &enum ibtrace_test_fill says; called with
 *	@job->lock held, must not sleep. Return: 0 or -EMSGSIZE.
 * @fill_size: bytes @fill may put in a full reply at most, 0 = room for
 *	one nest per RNR timer code
 */
struct ibtrace_test_def {
	const char *name;
	const char *seed;
	const char *desc;
	const char *needs;
	bool smp;
	const struct ibtrace_assert_def *asserts;
	unsigned int n_asserts;
	int (*check)(struct ibtrace_test_args *args,
		     const struct genl_info *info);
	void (*run)(struct ibtrace_test_job *job);
	size_t data_size;
	int (*fill)(struct sk_buff *skb, const struct ibtrace_test_job *job,
		    enum ibtrace_test_fill what);
	size_t fill_size;
};

/**
 * struct ibtrace_test_txn_op - one operation of a transaction test request
 * @who: &enum ibtrace_txn_who
 * @type: &enum ibtrace_txn_type
 * @reap: SR: reaped with the sender's next receive
 * @seg_size: bytes of a segment
 * @segs: segments
 */
struct ibtrace_test_txn_op {
	u8 who;
	u8 type;
	bool reap;
	u32 seg_size;
	u32 segs;
};

/**
 * struct ibtrace_test_args - what to test and how, from the request
 * @route: how SMPs reach the DUT node (LID, or directed route; hop count
 *	0 is the local port itself)
 * @dut_port: port of the DUT node to test, -1 = the default
 * @blocks: GUIDInfo blocks to exercise
 * @timeout_ms: wait per MAD attempt
 * @retries: extra attempts after a timeout
 * @rnr_timer: RNR NAK timer code to test (0..31)
 * @rnr_all: test every timer code instead of @rnr_timer
 * @rnr_retry: rnr_retry of the requester (0..7; 7 only with @deadline_ms)
 * @size: bytes of a message, 0 = the path MTU
 * @iterations: runs per case (the RNR test), operations (the perf test);
 *	0 when the request has none: the test's check() sets its default
 * @poll: &enum ibtrace_test_poll
 * @peer: peer mode: @peer_gid is the responder's host
 * @peer_gid: GID of the peer (peer mode)
 * @peer_port: RDMA CM port of the peer's responder
 * @deadline_ms: longest wait for one completion, 0 = derived from the
 *	timer and rnr_retry
 * @rnr_recv_posted: negative control: the responder posts a receive
 *	buffer, so no RNR NAK happens
 * @limit_objects: the limit test's kinds, bits of &enum ibtrace_limit_object
 * @limit_max: most objects of a kind, 0 = no bound
 * @limit_width: object sets made first
 * @limit_budget_mb: memory the objects of one kind may take (estimated)
 * @perf_op: the perf test's &enum ibtrace_perf_op
 * @perf_seg_size: bytes of one of its segments
 * @perf_segs: segments of one of its operations
 * @perf_pipeline: its operations in flight
 * @txn_threads: the transaction test's threads
 * @txn_endpoints: its endpoints per thread
 * @txn_validate: it validates the data
 * @txn_n_ops: entries of @txn_ops
 * @txn_ops: its sequence (without validation's appends)
 * @txn_corrupt: its negative control: 1 + the offset of the byte the server
 *	flips, 0 = none
 * @ack_timeout: the perf and transaction tests: local ACK timeout of the
 *	client's QPs (4.096 us << N)
 */
struct ibtrace_test_args {
	struct ibtrace_smp_route route;
	int dut_port;
	u32 blocks;
	u32 timeout_ms;
	u32 retries;
	u8 rnr_timer;
	bool rnr_all;
	u8 rnr_retry;
	u32 size;
	u32 iterations;
	u8 poll;
	bool peer;
	union ib_gid peer_gid;
	u16 peer_port;
	u32 deadline_ms;
	bool rnr_recv_posted;
	u32 limit_objects;
	u32 limit_max;
	u32 limit_width;
	u32 limit_budget_mb;
	u8 perf_op;
	u32 perf_seg_size;
	u32 perf_segs;
	u32 perf_pipeline;
	u32 txn_threads;
	u32 txn_endpoints;
	bool txn_validate;
	u8 txn_n_ops;
	struct ibtrace_test_txn_op txn_ops[IBTRACE_TEST_TXN_MAX_OPS];
	u32 txn_corrupt;
	u8 ack_timeout;
};

/**
 * struct ibtrace_test_dut - what the test learned about the DUT
 * @known: NodeInfo was read
 * @node_type: &enum ibtrace_node_type
 * @port: the DUT port number
 * @node_guid: NodeInfo.NodeGUID
 * @port_guid: NodeInfo.PortGUID
 * @has_port_info: PortInfo was read (@lid, @guid_cap valid)
 * @lid: PortInfo.LID
 * @guid_cap: PortInfo.GUIDCap
 */
struct ibtrace_test_dut {
	bool known;
	u8 node_type;
	u8 port;
	u64 node_guid;
	u64 port_guid;
	bool has_port_info;
	u32 lid;
	u8 guid_cap;
};

/**
 * struct ibtrace_assert_rec - the state of one assertion in a job
 * @result: &enum ibtrace_assert_result (final once the job finished)
 * @checks: checks made
 * @expected: expected value of the first failed check, else of the last
 * @observed: observed value, same check
 * @where: where that check looked
 */
struct ibtrace_assert_rec {
	u8 result;
	u32 checks;
	char expected[IBTRACE_TEST_VAL_LEN];
	char observed[IBTRACE_TEST_VAL_LEN];
	char where[IBTRACE_TEST_VAL_LEN];
};

/**
 * struct ibtrace_xchg_rec - one MAD exchange of a job
 * @seq: number, from 1
 * @method: request method
 * @phase: &enum ibtrace_xchg_phase
 * @outcome: &enum ibtrace_xchg_outcome
 * @attr_id: attribute ID
 * @status: MAD status of the answer, direction bit cleared
 * @attr_mod: attribute modifier
 * @attempts: attempts sent
 * @rtt_ns: round trip of the answered attempt
 */
struct ibtrace_xchg_rec {
	u32 seq;
	u8 method;
	u8 phase;
	u8 outcome;
	u16 attr_id;
	u16 status;
	u32 attr_mod;
	u32 attempts;
	u64 rtt_ns;
};

/**
 * struct ibtrace_test_job - one run of a test
 * @base: the job (job.h): ID, port, cancel, state, times, lock
 * @def: the test
 * @args: the request's arguments
 * @ah: address handle of the SMPs, while running (tests with @def->smp)
 * @dut_held: the job holds its DUT port (ibtrace_test_claim_dut()); under
 *	test.c's lock, as @dut_entry
 * @dut_entry: entry in test.c's list of DUT holders
 * @restore_cut: after a cancel, a restore exchange went unanswered: the
 *	rest of the restore is not sent
 * @verdict: &enum ibtrace_test_verdict; set early only by
 *	ibtrace_test_abort() (ERROR) and ibtrace_test_not_applicable();
 *	this and everything below under @base.lock
 * @restore: &enum ibtrace_test_restore
 * @reason: why the verdict is not pass
 * @dut: the DUT
 * @asserts: one record per assertion of @def
 * @data: the test's own results (&ibtrace_test_def.data_size bytes), or
 *	NULL
 * @xchg: the first %IBTRACE_TEST_MAX_EXCHANGES exchanges
 * @n_xchg: exchanges made in all
 */
struct ibtrace_test_job {
	struct ibtrace_job base;
	const struct ibtrace_test_def *def;
	struct ibtrace_test_args args;
	struct ib_ah *ah;
	bool dut_held;
	struct list_head dut_entry;
	bool restore_cut;

	u8 verdict;
	u8 restore;
	char reason[IBTRACE_TEST_REASON_LEN];
	struct ibtrace_test_dut dut;
	struct ibtrace_assert_rec *asserts;
	void *data;
	struct ibtrace_xchg_rec *xchg;
	u32 n_xchg;
};

/*
 * Wait for each restore exchange of a cancelled test (one attempt), so
 * that a cancel ends a test within a second even when the DUT does not
 * answer any more, while a slow DUT is still restored.
 */
#define IBTRACE_TEST_CANCEL_RESTORE_MS	750

static inline struct ibtrace_test_job *
ibtrace_test_job(struct ibtrace_job *job)
{
	return container_of(job, struct ibtrace_test_job, base);
}

/* test.c: the framework */
extern const struct ibtrace_test_def *const ibtrace_tests[];
extern const unsigned int ibtrace_n_tests;

const struct ibtrace_test_def *ibtrace_test_find(const char *name);
struct ibtrace_test_job *ibtrace_test_new(const struct ibtrace_test_def *def);

/* test.c: for the tests */
bool ibtrace_test_cancelled(struct ibtrace_test_job *job);
const char *ibtrace_test_cancel_reason(struct ibtrace_test_job *job);
int ibtrace_test_smp(struct ibtrace_test_job *job, u8 phase, u8 method,
		     __be16 attr_id, u32 attr_mod, const void *data,
		     struct ibtrace_mad_req *req);
void ibtrace_test_set_dut(struct ibtrace_test_job *job,
			  const struct ibtrace_test_dut *dut);
int ibtrace_test_claim_dut(struct ibtrace_test_job *job);
__printf(6, 7)
bool ibtrace_test_check(struct ibtrace_test_job *job, unsigned int a, bool ok,
			const char *expected, const char *observed,
			const char *where_fmt, ...);
__printf(2, 3)
void ibtrace_test_abort(struct ibtrace_test_job *job, const char *fmt, ...);
void *ibtrace_test_zalloc(struct ibtrace_test_job *job, size_t size);
__printf(2, 3)
void ibtrace_test_fail(struct ibtrace_test_job *job, const char *fmt, ...);
void ibtrace_test_progress(struct ibtrace_test_job *job);
__printf(2, 3)
void ibtrace_test_not_applicable(struct ibtrace_test_job *job,
				 const char *fmt, ...);
bool ibtrace_test_region_applicable(struct ibtrace_test_job *job, u32 bytes);
void ibtrace_test_restored(struct ibtrace_test_job *job, u8 restore);

/**
 * ibtrace_test_stop_reason() - why a test job must stop now
 * @job: the job
 *
 * Return: "the local device went away", the job's cancel reason, or NULL.
 */
static inline const char *ibtrace_test_stop_reason(struct ibtrace_test_job *job)
{
	if (ibtrace_dev_dead(job->base.port->dev))
		return "the local device went away";
	if (ibtrace_test_cancelled(job))
		return ibtrace_test_cancel_reason(job);
	return NULL;
}

/* guidinfo.c */
extern const struct ibtrace_test_def ibtrace_test_guidinfo;

/* limit.c */
extern const struct ibtrace_test_def ibtrace_test_limit;

/* perf.c */
extern const struct ibtrace_test_def ibtrace_test_perf;

/* quit.c */
extern const struct ibtrace_test_def ibtrace_test_quit;

/* txn.c */
extern const struct ibtrace_test_def ibtrace_test_txn;

/* rnr.c */
extern const struct ibtrace_test_def ibtrace_test_rnr;
extern ushort ibtrace_rnr_responder_port;

/* test_nl.c */
typedef int (*ibtrace_test_put_t)(struct sk_buff *skb,
				  const struct ibtrace_test_job *job, u32 i);
int ibtrace_test_put_results(struct sk_buff *skb,
			     const struct ibtrace_test_job *job,
			     enum ibtrace_test_fill what, u32 n,
			     ibtrace_test_put_t put);
void ibtrace_nl_test_event(struct ibtrace_test_job *job, u8 event,
			   int assert_idx);
int ibtrace_nl_test_check(struct ibtrace_job *job, struct ibtrace_port *port,
			  struct genl_info *info);
int ibtrace_nl_test_reply(struct sk_buff *skb, struct ibtrace_job *job);
int ibtrace_nl_test_fill(struct sk_buff *skb, struct ibtrace_job *job,
			 bool full);
size_t ibtrace_nl_test_size(struct ibtrace_job *job);

#endif /* _IBTRACE_TEST_H */
