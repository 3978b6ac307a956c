// SPDX-License-Identifier: GPL-2.0-only
/*
 * rnr_user - the RNR NAK timer measured from user space with libibverbs,
 * the comparison for the kernel's RNR test in the benchmark.
 *
 * The same experiment as ibtrace's "rnr" test in loopback mode: per
 * iteration a fresh RC pair on one port, the responder with no receive
 * buffer and min_rnr_timer = CODE, the requester with rnr_retry = N sends
 * one SEND and busy-polls its CQ; post to completion is timed with
 * CLOCK_MONOTONIC. Prints one line per code:
 *   code=C iterations=K status=S median_ns=M p99_ns=P min_ns=m max_ns=x
 * and first, for rnr_retry 0 (answers at the first RNR NAK):
 *   calibration_ns=M
 *
 * Usage: rnr_user -d DEV [-p PORT] [-g GID_INDEX] [-r N] [-n K] CODE...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

#define MAX_ITER	1000
#define MSG_SIZE	1024

struct ctx {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char buf[MSG_SIZE];
	uint8_t port;
	int gid_index;
	union ibv_gid gid;
	uint16_t lid;
	int roce;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static struct ibv_qp *qp_new(struct ctx *c)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = c->cq,
		.recv_cq = c->cq,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = c->port,
		.qp_access_flags = 0,
	};
	struct ibv_qp *qp = ibv_create_qp(c->pd, &ia);

	if (!qp)
		return NULL;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) {
		ibv_destroy_qp(qp);
		return NULL;
	}
	return qp;
}

/* INIT -> RTR -> RTS towards @remote; @rnr_timer and @rnr_retry as given. */
static int qp_connect(struct ctx *c, struct ibv_qp *qp, uint32_t remote,
		      int rnr_timer, int rnr_retry)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = remote,
		.rq_psn = 0,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = rnr_timer,
		.ah_attr = {
			.dlid = c->lid,
			.port_num = c->port,
		},
	};

	if (c->roce) {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = c->gid;
		a.ah_attr.grh.sgid_index = c->gid_index;
		a.ah_attr.grh.hop_limit = 64;
	}
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 20;
	a.retry_cnt = 7;
	a.rnr_retry = rnr_retry;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* One iteration; returns post to completion in ns, or 0 on error. */
static uint64_t once(struct ctx *c, int code, int rnr_retry, int *status)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)c->buf,
		.length = MSG_SIZE,
		.lkey = c->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_qp *req = qp_new(c), *rsp = qp_new(c);
	uint64_t t0, t = 0, limit;
	struct ibv_wc wc;
	int n;

	if (!req || !rsp)
		goto out;
	if (qp_connect(c, req, rsp->qp_num, 0, rnr_retry) ||
	    qp_connect(c, rsp, req->qp_num, code, 0))
		goto out;
	t0 = now_ns();
	limit = t0 + 20ull * 1000000000ull;
	if (ibv_post_send(req, &wr, &bad))
		goto out;
	do {
		n = ibv_poll_cq(c->cq, 1, &wc);
		if (n > 0 && wc.qp_num == req->qp_num) {
			t = now_ns() - t0;
			*status = wc.status;
			break;
		}
	} while (n >= 0 && now_ns() < limit);
out:
	if (req)
		ibv_destroy_qp(req);
	if (rsp)
		ibv_destroy_qp(rsp);
	/* Flushed entries of destroyed QPs must not meet the next one. */
	while (ibv_poll_cq(c->cq, 1, &wc) > 0)
		;
	return t;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int measure(struct ctx *c, int code, int rnr_retry, int k,
		   uint64_t *v, int *status)
{
	int i;

	for (i = 0; i < k; i++) {
		v[i] = once(c, code, rnr_retry, status);
		if (!v[i])
			return -1;
	}
	qsort(v, k, sizeof(*v), cmp_u64);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: rnr_user -d DEV [-p PORT] [-g GID_INDEX] [-r N] [-n K] CODE...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static uint64_t v[MAX_ITER];
	struct ibv_device **list;
	struct ibv_port_attr pa;
	const char *dev = NULL;
	int i, opt, k = 5, retry = 1, status = -1;
	struct ctx c = { .port = 1 };

	while ((opt = getopt(argc, argv, "d:p:g:r:n:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'p': c.port = atoi(optarg); break;
		case 'g': c.gid_index = atoi(optarg); break;
		case 'r': retry = atoi(optarg); break;
		case 'n': k = atoi(optarg); break;
		default: usage();
		}
	}
	if (!dev || optind >= argc || k < 1 || k > MAX_ITER || retry < 1 ||
	    retry > 6)
		usage();
	list = ibv_get_device_list(NULL);
	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			c.ctx = ibv_open_device(list[i]);
	if (!c.ctx) {
		fprintf(stderr, "rnr_user: cannot open %s\n", dev);
		return 1;
	}
	if (ibv_query_port(c.ctx, c.port, &pa) ||
	    ibv_query_gid(c.ctx, c.port, c.gid_index, &c.gid)) {
		fprintf(stderr, "rnr_user: cannot query port %u\n", c.port);
		return 1;
	}
	c.lid = pa.lid;
	c.roce = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	c.pd = ibv_alloc_pd(c.ctx);
	c.cq = c.pd ? ibv_create_cq(c.ctx, 8, NULL, NULL, 0) : NULL;
	c.mr = c.cq ? ibv_reg_mr(c.pd, c.buf, MSG_SIZE,
				 IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!c.mr) {
		fprintf(stderr, "rnr_user: cannot set up verbs: %s\n",
			strerror(errno));
		return 1;
	}
	if (measure(&c, 1, 0, k, v, &status)) {
		fprintf(stderr, "rnr_user: calibration failed\n");
		return 1;
	}
	printf("calibration_ns=%" PRIu64 "\n", v[(k - 1) / 2]);
	for (i = optind; i < argc; i++) {
		int code = atoi(argv[i]);

		if (code < 0 || code > 31)
			usage();
		if (measure(&c, code, retry, k, v, &status)) {
			printf("code=%d error\n", code);
			continue;
		}
		printf("code=%d iterations=%d status=%d median_ns=%" PRIu64
		       " p99_ns=%" PRIu64 " min_ns=%" PRIu64 " max_ns=%" PRIu64
		       "\n", code, k, status, v[(k - 1) / 2],
		       v[(k * 99 + 99) / 100 - 1], v[0], v[k - 1]);
	}
	return 0;
}
