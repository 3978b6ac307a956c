// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the limit test (dapltest -T L): how many of each kind of
 * verbs object the local device really makes, against what its
 * attributes (ib_device_attr) advertise.
 *
 * First WIDTH sets of {PD, CQ, RC QP} are made (dapltest's -w); then, for
 * each kind asked for, objects of that kind are made one after the other,
 * spread over the sets, until the device refuses one, MAX were made
 * (dapltest's -m), the memory budget is spent or the host runs low on
 * memory; then all of them are freed, newest first. A device that refuses
 * one while what it holds (the objects made, plus those of the kind it
 * held before: the kernel's own users, the sets) is below what it
 * advertises fails the kind's assertion; any other end passes it and
 * says why it ended. rpost posts receive WRs to one QP made as deep as
 * the device allows; size_mr looks for the largest fast-registration
 * region by doubling, then bisecting its page count.
 *
 * The budget is charged before each object by an estimate of what one
 * takes (LIMIT_EST_*, the figures of a software device such as rxe: its
 * queues come from vmalloc) so that a device advertising a million PDs
 * cannot exhaust the host; the host's available memory is watched as
 * well. A cancel, the module's unload or the device's removal stops the
 * count at once; freeing what was made takes as long as it takes, about
 * the time making it took.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

#include "addr.h"
#include "netlink.h"
#include "test.h"

/* Depth of the sets' CQs and QPs, and of the CQs, QPs and SRQs counted. */
#define LIMIT_QUEUE_DEPTH	16
/* Bytes the budget is charged per object (a pointer to it included). */
#define LIMIT_EST_PD		512
#define LIMIT_EST_CQ		(8 * 1024)
#define LIMIT_EST_QP		(32 * 1024)
#define LIMIT_EST_MR		(2 * 1024)
#define LIMIT_EST_AH		512
#define LIMIT_EST_SRQ		(8 * 1024)
/* ... per receive WR of the rpost QP, per page of a size_mr region. */
#define LIMIT_EST_RWR		128
#define LIMIT_EST_MR_PAGE	32
/* The host is low on memory below 1/LIMIT_HOST_FLOOR of its RAM available. */
#define LIMIT_HOST_FLOOR	8
/* How often (objects) the host's memory is looked at, and progress told. */
#define LIMIT_HOST_EVERY	64
/* Halvings of the rpost QP's depth before the device is said to refuse. */
#define LIMIT_RPOST_TRIES	24

/* Not tracked (AHs): the kernel's own users may hold this many unseen. */
#define LIMIT_UNTRACKED_SLACK	16

/**
 * struct ibtrace_limit_res - what the count of one kind found
 * @object: &enum ibtrace_limit_object
 * @end: &enum ibtrace_limit_end
 * @err: the refusal's errno (positive), with the ends that have one
 * @estimate: bytes charged per object
 * @count: objects made (WRs posted; bytes of the largest MR for size_mr)
 * @in_use: objects of the kind the device held before
 * @advertised: what the device's attributes promise
 * @elapsed_ns: time to make and free them
 */
struct ibtrace_limit_res {
	u8 object;
	u8 end;
	u32 err;
	u32 estimate;
	u64 count;
	u64 in_use;
	u64 advertised;
	u64 elapsed_ns;
};

/**
 * struct ibtrace_limit_data - the job's figures (&ibtrace_test_job.data)
 * @n_done: kinds counted, in @res; under the job's lock
 * @res: their figures, in the order run
 */
struct ibtrace_limit_data {
	u32 n_done;
	struct ibtrace_limit_res res[__IBTRACE_LIMIT_MAX];
};

struct limit_ctx;

/**
 * struct limit_kind - one kind of object the test exhausts
 * @name: as on the command line ("pd")
 * @est: bytes charged to the budget per object
 * @res: its resource-tracking type, or -1 (not tracked)
 * @make: make the @i-th object; an ERR_PTR() when the device refuses
 * @drop: free one
 * @run: instead of @make/@drop: the whole count (rpost, size_mr)
 */
struct limit_kind {
	const char *name;
	u32 est;
	int res;
	void *(*make)(struct limit_ctx *c, u32 i);
	void (*drop)(void *obj);
	void (*run)(struct limit_ctx *c, struct ibtrace_limit_res *r);
};

/**
 * struct limit_set - one of the WIDTH sets the objects are spread over
 * @pd: its PD
 * @cq: its CQ
 * @qp: its RC QP (on @pd, @cq)
 */
struct limit_set {
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
};

/**
 * struct limit_ctx - a run of the limit test
 * @job: the job
 * @ibdev: its device
 * @port_num: its port
 * @width: sets made
 * @sets: the sets
 * @ah_attr: the port's own address (AHs), when @has_ah
 * @has_ah: the port has an address of its own
 * @budget: bytes the objects of one kind may take (estimated)
 * @max: most objects of a kind, 0: no bound
 */
struct limit_ctx {
	struct ibtrace_test_job *job;
	struct ib_device *ibdev;
	u32 port_num;
	u32 width;
	struct limit_set *sets;
	struct rdma_ah_attr ah_attr;
	bool has_ah;
	u64 budget;
	u32 max;
};

static const struct ibtrace_assert_def ibtrace_limit_asserts[] = {
	[IBTRACE_LIMIT_PD] = { "dapltest-L#pd",
		"PDs: the device makes max_pd (less those it holds) or more" },
	[IBTRACE_LIMIT_CQ] = { "dapltest-L#cq",
		"CQs: the device makes max_cq (less those it holds) or more" },
	[IBTRACE_LIMIT_QP] = { "dapltest-L#qp",
		"RC QPs: the device makes max_qp (less those it holds) or more" },
	[IBTRACE_LIMIT_MR] = { "dapltest-L#mr",
		"MRs: the device makes max_mr (less those it holds) or more" },
	[IBTRACE_LIMIT_RPOST] = { "dapltest-L#rpost",
		"receive WRs: a QP as deep as max_qp_wr takes that many" },
	[IBTRACE_LIMIT_SIZE_MR] = { "dapltest-L#size_mr",
		"an MR of max_fast_reg_page_list_len pages can be made" },
	[IBTRACE_LIMIT_AH] = { "dapltest-L#ah",
		"AHs: the device makes max_ah or more" },
	[IBTRACE_LIMIT_SRQ] = { "dapltest-L#srq",
		"SRQs: the device makes max_srq (less those it holds) or more" },
};

static_assert(ARRAY_SIZE(ibtrace_limit_asserts) == __IBTRACE_LIMIT_MAX);

/* Has the count to stop: cancel, unload, the device going away? */
static bool limit_stopped(struct limit_ctx *c)
{
	return ibtrace_test_cancelled(c->job) ||
	       ibtrace_dev_dead(c->job->base.port->dev);
}

static bool limit_host_low(void)
{
	return si_mem_available() < totalram_pages() / LIMIT_HOST_FLOOR;
}

static struct ib_cq *limit_cq(struct limit_ctx *c)
{
	return ib_alloc_cq(c->ibdev, NULL, LIMIT_QUEUE_DEPTH, 0,
			   IB_POLL_DIRECT);
}

static struct ib_qp *limit_qp(struct ib_pd *pd, struct ib_cq *cq,
			      u32 send_wr, u32 recv_wr)
{
	struct ib_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = send_wr,
			.max_recv_wr = recv_wr,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};

	return ib_create_qp(pd, &init);
}

/* The kinds: make and drop */

static void *limit_make_pd(struct limit_ctx *c, u32 i)
{
	return ib_alloc_pd(c->ibdev, 0);
}

static void limit_drop_pd(void *obj)
{
	ib_dealloc_pd(obj);
}

static void *limit_make_cq(struct limit_ctx *c, u32 i)
{
	return limit_cq(c);
}

static void limit_drop_cq(void *obj)
{
	ib_free_cq(obj);
}

static void *limit_make_qp(struct limit_ctx *c, u32 i)
{
	const struct limit_set *s = &c->sets[i % c->width];

	return limit_qp(s->pd, s->cq, LIMIT_QUEUE_DEPTH, LIMIT_QUEUE_DEPTH);
}

static void limit_drop_qp(void *obj)
{
	ib_destroy_qp(obj);
}

static void *limit_make_mr(struct limit_ctx *c, u32 i)
{
	return ib_alloc_mr(c->sets[i % c->width].pd, IB_MR_TYPE_MEM_REG, 1);
}

static void limit_drop_mr(void *obj)
{
	ib_dereg_mr(obj);
}

static void *limit_make_ah(struct limit_ctx *c, u32 i)
{
	return rdma_create_ah(c->sets[i % c->width].pd, &c->ah_attr,
			      RDMA_CREATE_AH_SLEEPABLE);
}

static void limit_drop_ah(void *obj)
{
	rdma_destroy_ah(obj, RDMA_DESTROY_AH_SLEEPABLE);
}

static void *limit_make_srq(struct limit_ctx *c, u32 i)
{
	struct ib_srq_init_attr init = {
		.attr = { .max_wr = LIMIT_QUEUE_DEPTH, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};

	return ib_create_srq(c->sets[i % c->width].pd, &init);
}

static void limit_drop_srq(void *obj)
{
	ib_destroy_srq(obj);
}

/* What the device's attributes promise of a kind. */
static u64 limit_advertised(unsigned int kind, const struct ib_device_attr *a)
{
	switch (kind) {
	case IBTRACE_LIMIT_PD:
		return a->max_pd;
	case IBTRACE_LIMIT_CQ:
		return a->max_cq;
	case IBTRACE_LIMIT_QP:
		return a->max_qp;
	case IBTRACE_LIMIT_MR:
		return a->max_mr;
	case IBTRACE_LIMIT_RPOST:
		return a->max_qp_wr;
	case IBTRACE_LIMIT_SIZE_MR:
		return (u64)a->max_fast_reg_page_list_len * PAGE_SIZE;
	case IBTRACE_LIMIT_AH:
		return a->max_ah;
	case IBTRACE_LIMIT_SRQ:
		return a->max_srq;
	}
	return 0;
}

/*
 * Objects of @k until one is refused or a bound is reached; then free
 * them. @r->count and @r->end say how it went.
 */
static void limit_count(struct limit_ctx *c, const struct limit_kind *k,
			struct ibtrace_limit_res *r)
{
	u64 cap = div_u64(c->budget, k->est);
	u8 cap_end = IBTRACE_LIMIT_END_BUDGET;
	void **objs;
	void *obj;
	u32 n;

	if (c->max && c->max <= cap) {
		cap = c->max;
		cap_end = IBTRACE_LIMIT_END_MAX;
	}
	objs = kvcalloc(cap, sizeof(*objs), GFP_KERNEL);
	if (!objs) {
		r->end = IBTRACE_LIMIT_END_HOST_MEMORY;
		return;
	}
	r->end = cap_end;
	for (n = 0; n < cap; n++) {
		if (limit_stopped(c)) {
			r->end = IBTRACE_LIMIT_END_STOPPED;
			break;
		}
		if (n % LIMIT_HOST_EVERY == 0 && limit_host_low()) {
			r->end = IBTRACE_LIMIT_END_HOST_MEMORY;
			break;
		}
		obj = k->make(c, n);
		if (IS_ERR_OR_NULL(obj)) {
			r->end = IBTRACE_LIMIT_END_DEVICE;
			r->err = obj ? -PTR_ERR(obj) : ENOMEM;
			break;
		}
		objs[n] = obj;
		cond_resched();
	}
	r->count = n;
	while (n--) {
		k->drop(objs[n]);
		cond_resched();
	}
	kvfree(objs);
}

/*
 * A QP of *@depth receive WRs in INIT (where receives may be posted), the
 * depth halved while the device refuses it; *@err: the last refusal.
 */
static struct ib_qp *limit_rpost_qp(struct limit_ctx *c, u32 *depth, int *err)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = c->port_num,
	};
	struct ib_qp *qp;
	int i;

	for (i = 0; i < LIMIT_RPOST_TRIES && *depth; i++, *depth /= 2) {
		if (limit_stopped(c))
			return ERR_PTR(-ECANCELED);
		qp = limit_qp(c->sets[0].pd, c->sets[0].cq, 1, *depth);
		if (IS_ERR(qp)) {
			*err = -PTR_ERR(qp);
			continue;
		}
		*err = -ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
				     IB_QP_PORT | IB_QP_ACCESS_FLAGS);
		if (!*err)
			return qp;
		ib_destroy_qp(qp);
		return ERR_PTR(-*err);
	}
	if (!*err)
		*err = EINVAL;	/* no depth to try */
	return ERR_PTR(-*err);
}

/*
 * rpost: receive WRs of one page each, all on one buffer, posted to one
 * QP as deep as the device (max_qp_wr), the budget and MAX allow, until
 * one is refused. A refusal before that depth is the device's; at or past
 * it, the end is the bound that set the depth. A device that takes more
 * than it was asked for is stopped at twice that (END_MAX). The QP is
 * destroyed with its WRs.
 */
static void limit_run_rpost(struct limit_ctx *c, struct ibtrace_limit_res *r)
{
	u64 cap = div_u64(c->budget, LIMIT_EST_RWR);
	u32 want = min_t(u64, r->advertised, U32_MAX), depth, n;
	u8 cap_end = IBTRACE_LIMIT_END_DEVICE;
	const struct ib_recv_wr *bad;
	struct ib_recv_wr wr = {};
	struct ib_sge sge;
	struct ib_qp *qp;
	u64 bound, dma;
	void *buf;
	int err = 0;

	if (want > cap) {
		want = cap;
		cap_end = IBTRACE_LIMIT_END_BUDGET;
	}
	if (c->max && want > c->max) {
		want = c->max;
		cap_end = IBTRACE_LIMIT_END_MAX;
	}
	bound = c->max ? want : 2ULL * want + LIMIT_HOST_EVERY;
	buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf) {
		r->end = IBTRACE_LIMIT_END_HOST_MEMORY;
		return;
	}
	dma = ib_dma_map_single(c->ibdev, buf, PAGE_SIZE, DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(c->ibdev, dma)) {
		r->end = IBTRACE_LIMIT_END_SETUP;
		r->err = ENOMEM;
		goto out_free;
	}
	depth = want;
	qp = limit_rpost_qp(c, &depth, &err);
	if (IS_ERR(qp)) {
		r->end = PTR_ERR(qp) == -ECANCELED ? IBTRACE_LIMIT_END_STOPPED :
						     IBTRACE_LIMIT_END_DEVICE;
		r->err = err;
		goto out_unmap;
	}
	sge.addr = dma;
	sge.length = PAGE_SIZE;
	sge.lkey = c->sets[0].pd->local_dma_lkey;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	r->end = IBTRACE_LIMIT_END_MAX;
	for (n = 0; n < bound; n++) {
		if (limit_stopped(c)) {
			r->end = IBTRACE_LIMIT_END_STOPPED;
			break;
		}
		wr.wr_id = n;
		err = ib_post_recv(qp, &wr, &bad);
		if (err) {
			r->err = -err;
			r->end = n < want ? IBTRACE_LIMIT_END_DEVICE : cap_end;
			break;
		}
		if (n % LIMIT_HOST_EVERY == 0)
			cond_resched();
	}
	r->count = n;
	ib_destroy_qp(qp);
out_unmap:
	ib_dma_unmap_single(c->ibdev, dma, PAGE_SIZE, DMA_FROM_DEVICE);
out_free:
	kfree(buf);
}

/* Is a fast-registration MR of @pages pages made? */
static int limit_mr_of(struct limit_ctx *c, u32 pages)
{
	struct ib_mr *mr;

	mr = ib_alloc_mr(c->sets[0].pd, IB_MR_TYPE_MEM_REG, pages);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	ib_dereg_mr(mr);
	return 0;
}

/*
 * size_mr: the largest fast-registration MR, in pages doubled from one
 * until the device refuses or a bound is reached, then bisected between
 * the last made and the first refused.
 */
static void limit_run_size_mr(struct limit_ctx *c, struct ibtrace_limit_res *r)
{
	u64 cap = div_u64(c->budget, LIMIT_EST_MR_PAGE);
	u32 good = 0, bad, pages = 1, mid;
	int err;

	cap = min_t(u64, cap, U32_MAX);
	r->end = IBTRACE_LIMIT_END_BUDGET;
	if (c->max && c->max <= cap) {
		cap = c->max;
		r->end = IBTRACE_LIMIT_END_MAX;
	}
	for (;;) {
		if (limit_stopped(c)) {
			r->end = IBTRACE_LIMIT_END_STOPPED;
			goto out;
		}
		err = limit_mr_of(c, pages);
		if (err)
			break;
		good = pages;
		if (pages == cap)
			goto out;
		pages = min_t(u64, (u64)pages * 2, cap);
	}
	r->end = IBTRACE_LIMIT_END_DEVICE;
	r->err = -err;
	/* good made, bad refused: bisect, about 32 steps at most. */
	bad = pages;
	while (bad - good > 1) {
		if (limit_stopped(c)) {
			r->end = IBTRACE_LIMIT_END_STOPPED;
			goto out;
		}
		mid = good + (bad - good) / 2;
		err = limit_mr_of(c, mid);
		if (err) {
			bad = mid;
			r->err = -err;
		} else {
			good = mid;
		}
	}
out:
	r->count = (u64)good * PAGE_SIZE;
}

static const struct limit_kind limit_kinds[] = {
	[IBTRACE_LIMIT_PD] = {
		.name = "pd", .est = LIMIT_EST_PD, .res = RDMA_RESTRACK_PD,
		.make = limit_make_pd, .drop = limit_drop_pd,
	},
	[IBTRACE_LIMIT_CQ] = {
		.name = "cq", .est = LIMIT_EST_CQ, .res = RDMA_RESTRACK_CQ,
		.make = limit_make_cq, .drop = limit_drop_cq,
	},
	[IBTRACE_LIMIT_QP] = {
		.name = "qp", .est = LIMIT_EST_QP, .res = RDMA_RESTRACK_QP,
		.make = limit_make_qp, .drop = limit_drop_qp,
	},
	[IBTRACE_LIMIT_MR] = {
		.name = "mr", .est = LIMIT_EST_MR, .res = RDMA_RESTRACK_MR,
		.make = limit_make_mr, .drop = limit_drop_mr,
	},
	[IBTRACE_LIMIT_RPOST] = {
		.name = "rpost", .est = LIMIT_EST_RWR, .res = -1,
		.run = limit_run_rpost,
	},
	[IBTRACE_LIMIT_SIZE_MR] = {
		.name = "size_mr", .est = LIMIT_EST_MR_PAGE, .res = -1,
		.run = limit_run_size_mr,
	},
	[IBTRACE_LIMIT_AH] = {
		.name = "ah", .est = LIMIT_EST_AH, .res = -1,
		.make = limit_make_ah, .drop = limit_drop_ah,
	},
	[IBTRACE_LIMIT_SRQ] = {
		.name = "srq", .est = LIMIT_EST_SRQ, .res = RDMA_RESTRACK_SRQ,
		.make = limit_make_srq, .drop = limit_drop_srq,
	},
};

static_assert(ARRAY_SIZE(limit_kinds) == __IBTRACE_LIMIT_MAX);

/*
 * The kind's assertion, from how its count ended: only a refusal by the
 * device below what it promises fails it. Kinds that are not tracked
 * (AHs) get LIMIT_UNTRACKED_SLACK for what others hold unseen; rpost and
 * size_mr hold nothing before.
 */
static void limit_judge(struct limit_ctx *c, unsigned int kind,
			const struct ibtrace_limit_res *r)
{
	char expected[IBTRACE_TEST_VAL_LEN], observed[IBTRACE_TEST_VAL_LEN];
	u64 held = r->count + r->in_use, want = r->advertised;
	bool ok;

	if (r->end == IBTRACE_LIMIT_END_STOPPED ||
	    r->end == IBTRACE_LIMIT_END_SETUP)
		return;
	if (!want && r->end == IBTRACE_LIMIT_END_DEVICE && !r->count)
		return;		/* none promised, none made: not applicable */
	if (kind == IBTRACE_LIMIT_AH) {
		want -= min_t(u64, want, LIMIT_UNTRACKED_SLACK);
		snprintf(expected, sizeof(expected), ">= %llu (max_ah - %u)",
			 want, LIMIT_UNTRACKED_SLACK);
	} else {
		snprintf(expected, sizeof(expected), ">= %llu", want);
	}
	ok = r->end != IBTRACE_LIMIT_END_DEVICE || held >= want;
	if (r->end == IBTRACE_LIMIT_END_DEVICE)
		snprintf(observed, sizeof(observed), "%llu (refused: %pe)",
			 held, ERR_PTR(-(long)r->err));
	else
		snprintf(observed, sizeof(observed), "%llu (not refused)",
			 held);
	ibtrace_test_check(c->job, kind, ok, expected, observed, "%s",
			   limit_kinds[kind].name);
}

static void limit_run_kind(struct limit_ctx *c, unsigned int kind,
			   const struct ib_device_attr *attr)
{
	const struct limit_kind *k = &limit_kinds[kind];
	struct ibtrace_limit_data *d = c->job->data;
	struct ibtrace_limit_res r = {
		.object = kind,
		.estimate = k->est,
		.advertised = limit_advertised(kind, attr),
	};
	u64 t0 = ktime_get_ns();

	if (k->res >= 0)
		r.in_use = rdma_restrack_count(c->ibdev, k->res, true);
	if (kind == IBTRACE_LIMIT_AH && !c->has_ah) {
		r.end = IBTRACE_LIMIT_END_SETUP;
		r.err = EADDRNOTAVAIL;
	} else if (k->run) {
		k->run(c, &r);
	} else {
		limit_count(c, k, &r);
	}
	r.elapsed_ns = ktime_get_ns() - t0;
	limit_judge(c, kind, &r);

	mutex_lock(&c->job->base.lock);
	d->res[d->n_done++] = r;
	mutex_unlock(&c->job->base.lock);
	ibtrace_test_progress(c->job);
}

static void limit_sets_free(struct limit_ctx *c)
{
	struct limit_set *s;
	u32 i;

	for (i = c->width; i--;) {
		s = &c->sets[i];
		if (!IS_ERR_OR_NULL(s->qp))
			ib_destroy_qp(s->qp);
		if (!IS_ERR_OR_NULL(s->cq))
			ib_free_cq(s->cq);
		if (!IS_ERR_OR_NULL(s->pd))
			ib_dealloc_pd(s->pd);
	}
	kfree(c->sets);
}

/* The WIDTH sets; 0, or the error of the first object refused. */
static int limit_sets_make(struct limit_ctx *c, const char **what)
{
	struct limit_set *s;
	u32 i;

	c->sets = kcalloc(c->width, sizeof(*c->sets), GFP_KERNEL);
	if (!c->sets) {
		*what = "memory";
		return -ENOMEM;
	}
	for (i = 0; i < c->width; i++) {
		s = &c->sets[i];
		*what = "PD";
		s->pd = ib_alloc_pd(c->ibdev, 0);
		if (IS_ERR(s->pd))
			return PTR_ERR(s->pd);
		*what = "CQ";
		s->cq = limit_cq(c);
		if (IS_ERR(s->cq))
			return PTR_ERR(s->cq);
		*what = "QP";
		s->qp = limit_qp(s->pd, s->cq, LIMIT_QUEUE_DEPTH,
				 LIMIT_QUEUE_DEPTH);
		if (IS_ERR(s->qp))
			return PTR_ERR(s->qp);
	}
	return 0;
}

static void ibtrace_limit_run(struct ibtrace_test_job *job)
{
	const struct ibtrace_test_args *a = &job->args;
	struct ib_port_attr pattr;
	struct limit_ctx c = {
		.job = job,
		.ibdev = job->base.port->dev->ibdev,
		.port_num = job->base.port_num,
		.width = a->limit_width,
		.budget = (u64)a->limit_budget_mb << 20,
		.max = a->limit_max,
	};
	const char *what = "";
	unsigned int kind;
	int err;

	if (!ib_query_port(c.ibdev, c.port_num, &pattr) &&
	    !ibtrace_loopback_ah_attr(c.ibdev, c.port_num, pattr.lid,
				      &c.ah_attr))
		c.has_ah = true;
	err = limit_sets_make(&c, &what);
	if (err) {
		ibtrace_test_abort(job, "cannot make the %u object sets: %s %pe",
				   c.width, what, ERR_PTR(err));
		goto out;
	}
	for (kind = 0; kind < __IBTRACE_LIMIT_MAX; kind++) {
		if (!(a->limit_objects & BIT(kind)))
			continue;
		if (limit_stopped(&c))
			break;
		limit_run_kind(&c, kind, &c.ibdev->attrs);
	}
	if (ibtrace_test_cancelled(job))
		ibtrace_test_abort(job, "%s", ibtrace_test_cancel_reason(job));
	else if (ibtrace_dev_dead(job->base.port->dev))
		ibtrace_test_abort(job, "the device went away");
out:
	limit_sets_free(&c);
}

static int limit_res_attrs(struct sk_buff *skb, const void *data)
{
	const struct ibtrace_limit_res *r = data;

	return nla_put_u8(skb, IBTRACE_LIMIT_A_OBJECT, r->object) ||
	       nla_put_u64_64bit(skb, IBTRACE_LIMIT_A_COUNT, r->count,
				 IBTRACE_LIMIT_A_PAD) ||
	       nla_put_u64_64bit(skb, IBTRACE_LIMIT_A_IN_USE, r->in_use,
				 IBTRACE_LIMIT_A_PAD) ||
	       nla_put_u64_64bit(skb, IBTRACE_LIMIT_A_ADVERTISED, r->advertised,
				 IBTRACE_LIMIT_A_PAD) ||
	       nla_put_u8(skb, IBTRACE_LIMIT_A_END, r->end) ||
	       nla_put_u64_64bit(skb, IBTRACE_LIMIT_A_ELAPSED_NS, r->elapsed_ns,
				 IBTRACE_LIMIT_A_PAD) ||
	       nla_put_u32(skb, IBTRACE_LIMIT_A_ESTIMATE, r->estimate) ||
	       (r->err && nla_put_u32(skb, IBTRACE_LIMIT_A_ERRNO, r->err));
}

static int limit_put_nth(struct sk_buff *skb,
			 const struct ibtrace_test_job *job, u32 i)
{
	const struct ibtrace_limit_data *d = job->data;

	return ibtrace_nl_put_nest(skb, IBTRACE_A_TEST_LIMIT, limit_res_attrs,
				   &d->res[i]);
}

/* The request's limit arguments and the figures; job->base.lock held. */
static int ibtrace_limit_fill(struct sk_buff *skb,
			      const struct ibtrace_test_job *job,
			      enum ibtrace_test_fill what)
{
	const struct ibtrace_test_args *a = &job->args;
	const struct ibtrace_limit_data *d = job->data;

	if (nla_put_u32(skb, IBTRACE_A_TEST_LIMIT_OBJECTS, a->limit_objects) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_LIMIT_WIDTH, a->limit_width) ||
	    nla_put_u32(skb, IBTRACE_A_TEST_LIMIT_BUDGET_MB,
			a->limit_budget_mb) ||
	    (a->limit_max &&
	     nla_put_u32(skb, IBTRACE_A_TEST_LIMIT_MAX, a->limit_max)))
		return -EMSGSIZE;
	return ibtrace_test_put_results(skb, job, what, d->n_done,
					limit_put_nth);
}

const struct ibtrace_test_def ibtrace_test_limit = {
	.name = "limit",
	.seed = "dapltest -T L",
	.desc = "verbs objects: how many the device makes, against what it advertises",
	.needs = "a local RDMA port (no peer, no fabric)",
	.smp = false,
	.asserts = ibtrace_limit_asserts,
	.n_asserts = __IBTRACE_LIMIT_MAX,
	.run = ibtrace_limit_run,
	.data_size = sizeof(struct ibtrace_limit_data),
	.fill = ibtrace_limit_fill,
};
