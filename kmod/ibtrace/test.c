// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - conformance test jobs.
 *
 * A test job is a job of job.c: it runs one test against one DUT port in
 * a work item, so the request that starts it returns at once. Every MAD the
 * test sends goes through ibtrace_test_smp(), which records the exchange
 * (round trip included); every assertion is decided through
 * ibtrace_test_check(). When run() returns, assertions still undecided
 * become "not applicable" (never checked) or, on an aborted job, "not
 * run", and the verdict follows: error, not applicable, fail or pass.
 *
 * Jobs end on cancel (IBTRACE_CMD_TEST_CANCEL or _JOB_CANCEL, or the
 * requester's socket closing), on module unload (the unload path cancels
 * them and waits, so that each restores its DUT while the devices still
 * exist) and on device removal (their MADs fail; the restore is
 * impossible and the result says so). A cancelled job's MAD wait ends at
 * once, and its restore gets IBTRACE_TEST_CANCEL_RESTORE_MS. Finished
 * jobs are kept for IBTRACE_CMD_TEST_GET, the oldest dropped beyond
 * IBTRACE_JOB_MAX_KEPT.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/stringify.h>

#include "test.h"

const struct ibtrace_test_def *const ibtrace_tests[] = {
	&ibtrace_test_guidinfo,
	&ibtrace_test_rnr,
	&ibtrace_test_limit,
	&ibtrace_test_perf,
	&ibtrace_test_quit,
	&ibtrace_test_txn,
};

const unsigned int ibtrace_n_tests = ARRAY_SIZE(ibtrace_tests);

/* protects ibtrace_test_holders and job->dut_held */
static DEFINE_MUTEX(ibtrace_test_lock);
/* test jobs holding their DUT port */
static LIST_HEAD(ibtrace_test_holders);

/*
 * Jobs that change a DUT hold it (ibtrace_test_claim_dut()) from before
 * their first change until after their restore; another job for the same
 * DUT port waits. Each release bumps the generation and wakes the waiters.
 */
static DECLARE_WAIT_QUEUE_HEAD(ibtrace_test_dut_wq);
static atomic_t ibtrace_test_dut_gen = ATOMIC_INIT(0);

/**
 * ibtrace_test_find() - a test by name
 * @name: its name
 *
 * Return: the test or NULL.
 */
const struct ibtrace_test_def *ibtrace_test_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ibtrace_n_tests; i++)
		if (!strcmp(ibtrace_tests[i]->name, name))
			return ibtrace_tests[i];
	return NULL;
}

static void ibtrace_test_free(struct ibtrace_job *base)
{
	struct ibtrace_test_job *job = ibtrace_test_job(base);

	kvfree(job->xchg);
	kvfree(job->data);
	kfree(job->asserts);
	kfree(job);
}

/**
 * ibtrace_test_cancelled() - should the test stop now?
 * @job: the job
 *
 * Return: true once the job was cancelled (by request or unload).
 */
bool ibtrace_test_cancelled(struct ibtrace_test_job *job)
{
	return ibtrace_job_cancelled(&job->base);
}

/**
 * ibtrace_test_cancel_reason() - why a cancelled job was cancelled
 * @job: a job for which ibtrace_test_cancelled() returned true
 *
 * Return: "cancelled", "module unloading", ...
 */
const char *ibtrace_test_cancel_reason(struct ibtrace_test_job *job)
{
	return ibtrace_job_cancel_reason(&job->base);
}

/**
 * ibtrace_test_smp() - send one SMP to the DUT node, record the exchange
 * @job: the job
 * @phase: &enum ibtrace_xchg_phase
 * @method: %IB_MGMT_METHOD_GET or %IB_MGMT_METHOD_SET
 * @attr_id: attribute ID
 * @attr_mod: attribute modifier
 * @data: attribute data of a Set (%IB_SMP_DATA_SIZE bytes), or NULL
 * @req: scratch request; the answer is in @req->resp_smp on success
 *
 * Sleeps. A cancelled job sends nothing, except in the restore phase,
 * where each exchange then waits at most IBTRACE_TEST_CANCEL_RESTORE_MS,
 * once, and the first one unanswered ends the restore (the DUT is not
 * answering: the rest are not sent). A cancel takes back the exchange in
 * flight; a restore exchange it takes back is sent again at once, cut
 * short as above, so that a cancel (or the unload) that comes while the
 * restore waits on a silent DUT ends it as soon as one that comes before.
 *
 * Return: 0 when answered (whatever the MAD status), -ECANCELED, or the
 * errors of ibtrace_mad_exchange() (-ETIMEDOUT, -ENODEV, ...).
 */
int ibtrace_test_smp(struct ibtrace_test_job *job, u8 phase, u8 method,
		     __be16 attr_id, u32 attr_mod, const void *data,
		     struct ibtrace_mad_req *req)
{
	struct ibtrace_xchg_rec rec = {
		.method = method,
		.phase = phase,
		.attr_id = be16_to_cpu(attr_id),
		.attr_mod = attr_mod,
	};
	u32 n;
	int err;

	bool restore = phase == IBTRACE_XCHG_PHASE_RESTORE;
	bool cut;

	if (!restore && ibtrace_test_cancelled(job))
		return -ECANCELED;
again:
	req->ah = job->ah;
	req->timeout_ms = job->args.timeout_ms;
	req->retries = job->args.retries;
	req->stop = &job->base.cancel;
	cut = restore && ibtrace_test_cancelled(job);
	if (cut) {
		if (job->restore_cut)
			return -ETIMEDOUT;
		req->timeout_ms = min_t(u32, req->timeout_ms,
					IBTRACE_TEST_CANCEL_RESTORE_MS);
		req->retries = 0;
		req->stop = NULL;
	}
	err = ibtrace_smp_exchange(job->base.port, req, &job->args.route,
				   method, attr_id, attr_mod, data);
	if (err == -ECANCELED && restore && !cut)
		goto again;	/* taken back by a cancel: now cut short */
	if (err == -ECANCELED)
		return err;
	if (cut && err == -ETIMEDOUT)
		job->restore_cut = true;
	rec.attempts = req->attempts;
	if (!err) {
		rec.outcome = IBTRACE_XCHG_ANSWERED;
		rec.status = be16_to_cpu(req->resp_smp.status &
					 ~IB_SMP_DIRECTION);
		rec.rtt_ns = req->rtt_ns;
	} else if (err == -ETIMEDOUT) {
		rec.outcome = IBTRACE_XCHG_TIMEOUT;
	} else {
		rec.outcome = IBTRACE_XCHG_SEND_ERROR;
	}

	mutex_lock(&job->base.lock);
	n = job->n_xchg++;
	rec.seq = n + 1;
	if (n < IBTRACE_TEST_MAX_EXCHANGES)
		job->xchg[n] = rec;
	mutex_unlock(&job->base.lock);
	if (!(rec.seq % 16))
		ibtrace_nl_test_event(job, IBTRACE_TEST_EVENT_PROGRESS, -1);
	return err;
}

/**
 * ibtrace_test_set_dut() - publish what the test learned about the DUT
 * @job: the job
 * @dut: the DUT
 */
void ibtrace_test_set_dut(struct ibtrace_test_job *job,
			  const struct ibtrace_test_dut *dut)
{
	mutex_lock(&job->base.lock);
	job->dut = *dut;
	mutex_unlock(&job->base.lock);
	ibtrace_nl_test_event(job, IBTRACE_TEST_EVENT_PROGRESS, -1);
}

/* The running job holding the same DUT port as @job; ibtrace_test_lock held. */
static struct ibtrace_test_job *ibtrace_test_dut_holder(struct ibtrace_test_job *job)
{
	struct ibtrace_test_job *o;

	list_for_each_entry(o, &ibtrace_test_holders, dut_entry) {
		if (o != job &&
		    o->dut.node_guid == job->dut.node_guid &&
		    o->dut.port == job->dut.port)
			return o;
	}
	return NULL;
}

/**
 * ibtrace_test_claim_dut() - hold the DUT port before changing it
 * @job: the job; its DUT (ibtrace_test_set_dut()) names the port
 *
 * Two jobs changing the same port at once would each save what the other
 * wrote and restore the wrong table, so a job waits here, sleeping, while
 * another holds the port. The framework releases it when the job ends.
 *
 * Return: 0, -ECANCELED when the job was cancelled while waiting, or
 * -ENODEV when the local device went away meanwhile.
 */
int ibtrace_test_claim_dut(struct ibtrace_test_job *job)
{
	struct ibtrace_test_job *holder;
	bool said = false;
	int gen;

	for (;;) {
		gen = atomic_read(&ibtrace_test_dut_gen);
		mutex_lock(&ibtrace_test_lock);
		holder = ibtrace_test_dut_holder(job);
		if (!holder) {
			job->dut_held = true;
			list_add_tail(&job->dut_entry, &ibtrace_test_holders);
		} else if (!said) {
			pr_debug("job %u waits for job %u (same DUT port)\n",
				 job->base.id, holder->base.id);
		}
		mutex_unlock(&ibtrace_test_lock);
		if (!holder)
			return 0;
		said = true;
		/* a cancel or device removal is seen within HZ / 10 */
		wait_event_timeout(ibtrace_test_dut_wq,
				   ibtrace_test_cancelled(job) ||
				   ibtrace_dev_dead(job->base.port->dev) ||
				   atomic_read(&ibtrace_test_dut_gen) != gen,
				   HZ / 10);
		if (ibtrace_test_cancelled(job))
			return -ECANCELED;
		if (ibtrace_dev_dead(job->base.port->dev))
			return -ENODEV;
	}
}

static void ibtrace_test_release_dut(struct ibtrace_test_job *job)
{
	bool held;

	mutex_lock(&ibtrace_test_lock);
	held = job->dut_held;
	if (held)
		list_del(&job->dut_entry);
	job->dut_held = false;
	mutex_unlock(&ibtrace_test_lock);
	if (held) {
		atomic_inc(&ibtrace_test_dut_gen);
		wake_up_all(&ibtrace_test_dut_wq);
	}
}

/**
 * ibtrace_test_check() - one check of an assertion
 * @job: the job
 * @a: index of the assertion in the test's list
 * @ok: whether the check held
 * @expected: expected value, as text
 * @observed: observed value, as text
 * @where_fmt: where the check looked (printf format)
 *
 * The first failed check decides the assertion (fail) and stays the one
 * reported; until then the last check is reported.
 *
 * Return: @ok.
 */
bool ibtrace_test_check(struct ibtrace_test_job *job, unsigned int a, bool ok,
			const char *expected, const char *observed,
			const char *where_fmt, ...)
{
	struct ibtrace_assert_rec *r;
	va_list ap;

	if (WARN_ON_ONCE(a >= job->def->n_asserts))
		return ok;
	r = &job->asserts[a];
	mutex_lock(&job->base.lock);
	r->checks++;
	if (r->result != IBTRACE_ASSERT_FAIL) {
		r->result = ok ? IBTRACE_ASSERT_PASS : IBTRACE_ASSERT_FAIL;
		strscpy(r->expected, expected, sizeof(r->expected));
		strscpy(r->observed, observed, sizeof(r->observed));
		va_start(ap, where_fmt);
		vscnprintf(r->where, sizeof(r->where), where_fmt, ap);
		va_end(ap);
	}
	mutex_unlock(&job->base.lock);
	return ok;
}

static __printf(3, 0)
void ibtrace_test_set_verdict(struct ibtrace_test_job *job, u8 verdict,
			      const char *fmt, va_list ap)
{
	mutex_lock(&job->base.lock);
	if (job->verdict == IBTRACE_TEST_VERDICT_NONE) {
		job->verdict = verdict;
		vscnprintf(job->reason, sizeof(job->reason), fmt, ap);
	}
	mutex_unlock(&job->base.lock);
}

/**
 * ibtrace_test_abort() - the test cannot be completed
 * @job: the job
 * @fmt: why (printf format); the first reason given stays
 *
 * The verdict will be error. The test still restores the DUT.
 */
void ibtrace_test_abort(struct ibtrace_test_job *job, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ibtrace_test_set_verdict(job, IBTRACE_TEST_VERDICT_ERROR, fmt, ap);
	va_end(ap);
}

/**
 * ibtrace_test_zalloc() - a test's working memory, zeroed
 * @job: the job
 * @size: bytes
 *
 * Sleeps. Large sizes may come from vmalloc: not for DMA. Without memory
 * the test is aborted ("no memory").
 *
 * Return: the memory (kvfree() it), or NULL.
 */
void *ibtrace_test_zalloc(struct ibtrace_test_job *job, size_t size)
{
	void *p = kvzalloc(size, GFP_KERNEL);

	if (!p)
		ibtrace_test_abort(job, "no memory");
	return p;
}

/**
 * ibtrace_test_fail() - the DUT failed in a way no assertion covers alone
 * @job: the job
 * @fmt: why (printf format); the first reason given stays
 *
 * The verdict will be fail with this reason (the failed assertions stay
 * reported as they are).
 */
void ibtrace_test_fail(struct ibtrace_test_job *job, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ibtrace_test_set_verdict(job, IBTRACE_TEST_VERDICT_FAIL, fmt, ap);
	va_end(ap);
}

/**
 * ibtrace_test_progress() - tell the "test" group that the job moved on
 * @job: the job
 *
 * For tests whose progress is not counted in MAD exchanges. Sleeps.
 */
void ibtrace_test_progress(struct ibtrace_test_job *job)
{
	ibtrace_nl_test_event(job, IBTRACE_TEST_EVENT_PROGRESS, -1);
}

/**
 * ibtrace_test_not_applicable() - the test does not apply to the DUT
 * @job: the job
 * @fmt: why (printf format)
 */
void ibtrace_test_not_applicable(struct ibtrace_test_job *job,
				 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ibtrace_test_set_verdict(job, IBTRACE_TEST_VERDICT_NOT_APPLICABLE, fmt,
				 ap);
	va_end(ap);
}

/**
 * ibtrace_test_region_applicable() - whether the DUT registers a region
 *	(region.c) of @bytes in one MR; if not, the test does not apply and
 *	the verdict names the limit
 * @job: the job
 * @bytes: the region's size
 *
 * Return: true when it does.
 */
bool ibtrace_test_region_applicable(struct ibtrace_test_job *job, u32 bytes)
{
	u32 max = job->base.port->dev->ibdev->attrs.max_fast_reg_page_list_len;

	if (DIV_ROUND_UP(bytes, PAGE_SIZE) <= max)
		return true;
	ibtrace_test_not_applicable(job,
				    "%u bytes: %s registers at most %u pages in one region",
				    bytes, job->base.dev_name, max);
	return false;
}

/**
 * ibtrace_test_restored() - what became of the DUT state the test changed
 * @job: the job
 * @restore: &enum ibtrace_test_restore
 */
void ibtrace_test_restored(struct ibtrace_test_job *job, u8 restore)
{
	mutex_lock(&job->base.lock);
	job->restore = restore;
	mutex_unlock(&job->base.lock);
}

/* Undecided assertions and the verdict, once run() has returned. */
static void ibtrace_test_decide(struct ibtrace_test_job *job)
{
	bool failed = false, aborted;
	unsigned int i;
	int first_fail = -1;

	mutex_lock(&job->base.lock);
	aborted = job->verdict == IBTRACE_TEST_VERDICT_ERROR;
	for (i = 0; i < job->def->n_asserts; i++) {
		struct ibtrace_assert_rec *r = &job->asserts[i];

		if (r->result == IBTRACE_ASSERT_FAIL) {
			failed = true;
			if (first_fail < 0)
				first_fail = i;
		} else if (aborted) {
			r->result = IBTRACE_ASSERT_NOT_RUN;
		} else if (!r->checks) {
			r->result = IBTRACE_ASSERT_NOT_APPLICABLE;
		}
	}
	if (job->verdict == IBTRACE_TEST_VERDICT_NOT_APPLICABLE) {
		for (i = 0; i < job->def->n_asserts; i++)
			job->asserts[i].result = IBTRACE_ASSERT_NOT_APPLICABLE;
	} else if (job->verdict == IBTRACE_TEST_VERDICT_NONE) {
		if (failed) {
			job->verdict = IBTRACE_TEST_VERDICT_FAIL;
			scnprintf(job->reason, sizeof(job->reason),
				  "%s failed",
				  job->def->asserts[first_fail].id);
		} else {
			job->verdict = IBTRACE_TEST_VERDICT_PASS;
		}
	}
	if (job->restore == IBTRACE_TEST_RESTORE_FAILED ||
	    job->restore == IBTRACE_TEST_RESTORE_IMPOSSIBLE) {
		size_t len = strlen(job->reason);

		scnprintf(job->reason + len, sizeof(job->reason) - len,
			  "%sDUT LEFT CHANGED: %s", len ? "; " : "",
			  job->restore == IBTRACE_TEST_RESTORE_IMPOSSIBLE ?
			  "the local device went away before the restore" :
			  job->restore_cut ?
			  "the restore was cut short after the cancel (the DUT did not answer within "
			  __stringify(IBTRACE_TEST_CANCEL_RESTORE_MS) " ms)" :
			  "the restore failed");
	}
	mutex_unlock(&job->base.lock);
}

static void ibtrace_test_run(struct ibtrace_job *base)
{
	struct ibtrace_test_job *job = ibtrace_test_job(base);
	struct ibtrace_port *port = base->port;
	struct ib_ah *ah;

	ibtrace_nl_test_event(job, IBTRACE_TEST_EVENT_STARTED, -1);

	if (job->def->smp) {
		if (!port->smi_agent) {
			ibtrace_test_not_applicable(job,
						    "%s port %u has no SMI (QP0): SMPs cannot be sent from it (a RoCE port?)",
						    base->dev_name, base->port_num);
			goto decide;
		}
		if (job->args.route.lid)
			ah = ibtrace_smp_lid_ah_create(port,
						       job->args.route.lid);
		else
			ah = ibtrace_smp_ah_create(port);
		if (IS_ERR(ah)) {
			ibtrace_test_abort(job,
					   "cannot create an address handle: %pe",
					   ah);
			goto decide;
		}
		job->ah = ah;
	}
	job->def->run(job);
	if (job->ah) {
		ibtrace_ah_destroy(job->ah);
		job->ah = NULL;
	}

decide:
	ibtrace_test_release_dut(job);
	ibtrace_test_decide(job);
}

/* After the framework marked the job finished: its last events. */
static void ibtrace_test_end(struct ibtrace_job *base)
{
	struct ibtrace_test_job *job = ibtrace_test_job(base);
	unsigned int i;

	for (i = 0; i < job->def->n_asserts; i++)
		ibtrace_nl_test_event(job, IBTRACE_TEST_EVENT_ASSERTION, i);
	ibtrace_nl_test_event(job, IBTRACE_TEST_EVENT_FINISHED, -1);
}

static const struct ibtrace_job_ops ibtrace_test_ops = {
	.kind = IBTRACE_JOB_TEST,
	.name = "test",
	.max_running = IBTRACE_TEST_MAX_RUNNING,
	.cancel_at_unload = true,
	.check = ibtrace_nl_test_check,
	.reply = ibtrace_nl_test_reply,
	.run = ibtrace_test_run,
	.end = ibtrace_test_end,
	.fill = ibtrace_nl_test_fill,
	.size = ibtrace_nl_test_size,
	.free = ibtrace_test_free,
};

/**
 * ibtrace_test_new() - a new job of a test, not started
 * @def: the test
 *
 * The request's arguments come with the start (ibtrace_nl_job_start(),
 * &ibtrace_job_ops.check).
 *
 * Return: the job, for ibtrace_nl_job_start(), or NULL when out of
 * memory.
 */
struct ibtrace_test_job *ibtrace_test_new(const struct ibtrace_test_def *def)
{
	struct ibtrace_test_job *job;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return NULL;
	job->asserts = kcalloc(def->n_asserts, sizeof(*job->asserts),
			       GFP_KERNEL);
	job->xchg = kvcalloc(IBTRACE_TEST_MAX_EXCHANGES, sizeof(*job->xchg),
			     GFP_KERNEL);
	if (def->data_size)
		job->data = kvzalloc(def->data_size, GFP_KERNEL);
	if (!job->asserts || !job->xchg || (def->data_size && !job->data)) {
		ibtrace_test_free(&job->base);
		return NULL;
	}
	ibtrace_job_init(&job->base, &ibtrace_test_ops);
	job->def = def;
	return job;
}
