// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim_smp - send one SMP Get or Set through /dev/infiniband/umadN
 * and print the answer, for the ibtrace_sim selftests: infiniband-diags
 * cannot write SwitchInfo or the LinearForwardingTable.
 *
 *   ibtrace_sim_smp [-C DEV] [-P PORT] [-t MS] [-d DRDLID] [-n N]
 *                   -D 0,P1,P2... | -L LID
 *                   get|set ATTR MOD [OFF=XX[,XX...]]...
 *
 * -d gives a directed-route SMP a LID-routed end part: past the directed
 * path, it is LID-routed to DRDLID (default: permissive, no such part).
 *
 * A Set is a read-modify-write: the attribute is read first, the bytes
 * given (at byte offset OFF of the 64-byte SMP data) replace the read
 * ones, and the result is written. Output: "status=0xNNNN" and
 * "data=<128 hex digits>" of the answer.
 *
 * -n N (get only): a burst, N Gets sent before the first answer is read;
 * output "answered=K of N", exit 0 only when every Get was answered.
 *
 * -R SEED [-N ITERS] [-w WINDOW]: the random mode, a seeded SMP/GMP
 * fuzzer (see fz_run() below; default 10000 MADs, 64 in flight).
 *
 * Build: gcc -Wall -Wextra -O2 ibtrace_sim_smp.c -libumad
 *
 * Exit: 0 answered (any MAD status), 1 no answer, 2 usage, 3 umad error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "ibtrace_selftest.h"

#define MAD_SIZE	256
#define DATA_OFF	64
#define DATA_LEN	64
#define MAX_HOPS	64

enum { EXIT_ANSWER, EXIT_NO_ANSWER, EXIT_USAGE, EXIT_ERROR };

static int fd, agent, timeout_ms = 500;
static int dr, hop_cnt, lid, dr_dlid = 0xffff;
static uint8_t path[MAX_HOPS];
static uint64_t tid;

static void usage(void)
{
	fprintf(stderr,
		"usage: ibtrace_sim_smp [-C DEV] [-P PORT] [-t MS] [-d DRDLID] [-n N]\n"
		"                       -D 0,P1,... | -L LID\n"
		"                       get|set ATTR MOD [OFF=XX[,XX...]]...\n"
		"       ibtrace_sim_smp [-C DEV] [-P PORT] [-t MS] -R SEED [-N ITERS] [-w WINDOW]\n");
	exit(EXIT_USAGE);
}

/* -n, -w: a count of at least 1, else usage(). */
static int parse_count(const char *s)
{
	int v = atoi(s);

	if (v < 1)
		usage();
	return v;
}

/* umad_init(), then the fd of umad_open_port(); exits 3 on failure. */
static int open_port(const char *dev, int port)
{
	int f;

	if (umad_init() < 0) {
		fprintf(stderr, "umad_init failed\n");
		exit(EXIT_ERROR);
	}
	f = umad_open_port(dev, port);
	if (f < 0) {
		fprintf(stderr, "umad_open_port: %s\n", strerror(-f));
		exit(EXIT_ERROR);
	}
	return f;
}

static void parse_path(const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n >= MAX_HOPS)
			usage();
		path[n++] = strtoul(tok, NULL, 0);
	}
	free(copy);
	if (n < 1 || path[0] != 0)
		usage();
	hop_cnt = n - 1;
	dr = 1;
}

/* Builds and sends one SMP with the next TID; 0 or the exit code. */
static int send_smp(void *umad, uint8_t method, uint16_t attr, uint32_t mod,
		    const uint8_t *mad)
{
	uint8_t *m = umad_get_mad(umad);
	uint32_t tmp32;
	uint16_t tmp16;
	int i;

	m[0] = 1;
	m[1] = dr ? 0x81 : 0x01;
	m[2] = 1;
	m[3] = method;
	if (dr) {
		m[7] = hop_cnt;
		m[32] = m[33] = 0xff;	/* DrSLID: permissive */
		m[34] = dr_dlid >> 8;
		m[35] = dr_dlid & 0xff;
		for (i = 1; i <= hop_cnt; i++)
			m[128 + i] = path[i];
	}
	tid++;
	tmp32 = htonl((uint32_t)tid);
	memcpy(m + 12, &tmp32, 4);
	tmp16 = htons(attr);
	memcpy(m + 16, &tmp16, 2);
	tmp32 = htonl(mod);
	memcpy(m + 20, &tmp32, 4);
	memcpy(m + DATA_OFF, mad + DATA_OFF, DATA_LEN);

	umad_set_addr(umad, dr ? 0xffff : lid, 0, 0, 0);
	if (umad_send(fd, agent, umad, MAD_SIZE, timeout_ms, 2) < 0) {
		perror("umad_send");
		return EXIT_ERROR;
	}
	return 0;
}

/* One request/answer; returns 0 and the answer in @mad, or the exit code. */
static int rpc(uint8_t method, uint16_t attr, uint32_t mod, uint8_t *mad)
{
	size_t sz = umad_size() + MAD_SIZE;
	void *umad = calloc(1, sz);
	uint8_t *m = umad_get_mad(umad);
	uint32_t tmp32;
	int len, ret;

	ret = send_smp(umad, method, attr, mod, mad);
	if (ret) {
		free(umad);
		return ret;
	}
	for (;;) {
		len = MAD_SIZE;
		if (umad_recv(fd, umad, &len, -1) < 0) {
			perror("umad_recv");
			free(umad);
			return EXIT_ERROR;
		}
		if (umad_status(umad)) {
			free(umad);
			return EXIT_NO_ANSWER;
		}
		memcpy(&tmp32, m + 12, 4);
		if (ntohl(tmp32) == (uint32_t)tid)
			break;
	}
	memcpy(mad, m, MAD_SIZE);
	free(umad);
	return 0;
}

/* -n: @n Gets in flight at once; 0 when all are answered. */
static int burst(int n, uint16_t attr, uint32_t mod)
{
	size_t sz = umad_size() + MAD_SIZE;
	void *umad = calloc(1, sz);
	uint8_t *m = umad_get_mad(umad);
	uint8_t mad[MAD_SIZE] = { 0 };
	int i, len, answered = 0, ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = send_smp(umad, 0x01, attr, mod, mad);
	for (i = 0; i < n && !ret; i++) {
		len = MAD_SIZE;
		if (umad_recv(fd, umad, &len, -1) < 0) {
			perror("umad_recv");
			ret = EXIT_ERROR;
		} else if (!umad_status(umad) && m[3] == 0x81) {
			answered++;
		}
	}
	free(umad);
	if (ret)
		return ret;
	printf("answered=%d of %d\n", answered, n);
	return answered == n ? EXIT_ANSWER : EXIT_NO_ANSWER;
}

/*
 * Random mode (-R SEED [-N ITERS] [-w WINDOW]): the SMP/GMP fuzzer.
 *
 * 1. Discovers the fabric by directed route from the port (NodeInfo and
 *    PortInfo of every node; the switch ports without a neighbor).
 * 2. LID-routed checks, each with the answer the spec wants: SMP Get
 *    NodeInfo to every LID; PMA ClassPortInfo, an unknown attribute
 *    (0x000C) and a bad class version (0x0004) to every LID; SA
 *    ClassPortInfo, Set (0x0008), an unknown attribute (0x000C), a bad
 *    class version (0x0004) and a PathRecord; a GMP of an unknown class
 *    (0x000C) to every LID; a response method to a switch (dropped); a
 *    LID no switch routes (dropped). All answered (or timed out) before
 *    the first random MAD.
 * 3. ITERS random MADs, WINDOW in flight: directed-route SMPs (random hop
 *    counts, hop pointers, paths, direction, DrSLID/DrDLID), LID-routed
 *    SMPs, SA, PMA and other classes (on QP0 and QP1, any method, random
 *    versions and contents). Every 8th is a directed-route check with a
 *    known answer: NodeInfo (status 0, the node's GUID), an unknown
 *    attribute (0x000C), Set of NodeInfo (0x000C), class version 2
 *    (0x0004), a path through a port that does not exist or has no
 *    neighbor (dropped), a hop pointer past the path or a hop count above
 *    63 (dropped). An answer must be a response of the request's class (a
 *    directed-route one with the direction bit). PortInfo Sets never
 *    disable a port (PortPhysicalState 0 or Polling): OpenSM must be able
 *    to bring the fabric up again afterwards. SLtoVL Sets map every SL to
 *    VL 0, and VLArbitration Sets keep VL 0 in the table they write: the
 *    fuzzer's own GMPs, and ibping after OpenSM, must still get through.
 * 4. NodeInfo of every node by directed route again: the SMAs still answer.
 *
 * Output: "FAIL ..." lines, then
 *   "mads N answered A unanswered U refused R local_unanswered L checks C
 *    failed F sim_drops_expected D ms T"
 * (refused: umad_send refused it, e.g. the local SMI dropped it;
 * local_unanswered: processed on the local port, unanswered, and so never
 * reported by ib_mad, see fz_send()). Exit 0 when no check failed.
 */
#define FZ_MAX_NODES	128
#define SA_DATA_OFF	56

static int window = 64;

struct fz_node {
	uint64_t guid;
	uint8_t type, nports;
	uint8_t path[MAX_HOPS];	/* path[1..hops] */
	int hops;
	uint16_t lid;
	uint8_t free_port;	/* a switch port without a neighbor, or 0 */
};

static struct fz_node fz_nodes[FZ_MAX_NODES];
static int fz_nnodes;
static uint16_t fz_my_lid, fz_sm_lid;
static uint64_t fz_state;

static uint64_t fz_rand(void)
{
	return st_splitmix64(&fz_state);
}

static unsigned int fz_below(unsigned int n)
{
	return n ? fz_rand() % n : 0;
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* A DR Get along @np's path (+ @extra port if non-zero); 0 or no answer. */
static int fz_dr_get(const struct fz_node *np, int extra, uint16_t attr,
		     uint32_t mod, uint8_t *mad)
{
	int i;

	dr = 1;
	hop_cnt = np ? np->hops : 0;
	for (i = 1; i <= hop_cnt; i++)
		path[i] = np->path[i];
	if (extra)
		path[++hop_cnt] = extra;
	memset(mad, 0, MAD_SIZE);
	if (rpc(0x01, attr, mod, mad))
		return -1;
	return (mad[4] << 8 | mad[5]) & 0x7fff;
}

static int fz_find(uint64_t guid)
{
	int i;

	for (i = 0; i < fz_nnodes; i++)
		if (fz_nodes[i].guid == guid)
			return i;
	return -1;
}

/* Breadth-first discovery by directed route from the local port. */
static int fz_discover(int port)
{
	uint8_t mad[MAD_SIZE];
	int i, p;

	dr_dlid = 0xffff;
	if (fz_dr_get(NULL, 0, 0x0015, 0, mad))
		return -1;
	fz_my_lid = mad[DATA_OFF + 16] << 8 | mad[DATA_OFF + 17];
	fz_sm_lid = mad[DATA_OFF + 18] << 8 | mad[DATA_OFF + 19];
	/* the local port's neighbor first, then what lies behind switches */
	{
		struct fz_node self = { .hops = 0 };

		if (fz_dr_get(&self, port, 0x0011, 0, mad))
			return -1;
		fz_nodes[0].guid = get_be64(mad + DATA_OFF + 12);
		fz_nodes[0].type = mad[DATA_OFF + 2];
		fz_nodes[0].nports = mad[DATA_OFF + 3];
		fz_nodes[0].hops = 1;
		fz_nodes[0].path[1] = port;
		fz_nnodes = 1;
	}
	for (i = 0; i < fz_nnodes; i++) {
		struct fz_node *np = &fz_nodes[i];

		if (!fz_dr_get(np, 0, 0x0015, 0, mad))
			np->lid = mad[DATA_OFF + 16] << 8 | mad[DATA_OFF + 17];
		if (np->type != 2 || np->hops >= MAX_HOPS - 2)
			continue;
		for (p = 1; p <= np->nports; p++) {
			struct fz_node *nn;
			uint64_t guid;

			if (fz_dr_get(np, p, 0x0011, 0, mad)) {
				if (!np->free_port)
					np->free_port = p;
				continue;
			}
			guid = get_be64(mad + DATA_OFF + 12);
			if (fz_find(guid) >= 0 || fz_nnodes == FZ_MAX_NODES)
				continue;
			nn = &fz_nodes[fz_nnodes++];
			*nn = *np;
			nn->free_port = 0;
			nn->guid = guid;
			nn->type = mad[DATA_OFF + 2];
			nn->nports = mad[DATA_OFF + 3];
			nn->path[++nn->hops] = p;
		}
	}
	return 0;
}

enum { X_ANY, X_STATUS, X_NONE };

struct fz_mad {
	uint8_t expect, cls, method, counted_drop, hop_ptr, hop_cnt, qpn;
	uint8_t agent, node;
	uint16_t dlid;
	uint16_t status, attr;
	uint64_t guid;		/* X_STATUS with a NodeInfo: its NodeGUID */
	const char *what;
	uint8_t done;
};

static struct fz_mad *fz_tab;
static unsigned int fz_ntab, fz_inflight;
static uint32_t fz_tid0;
static int fz_agents[8];	/* 0: DR, 1: LID SMP, 2: SA, 3: PMA, 4+: other */
static const uint8_t fz_other_cls[] = { 0x05, 0x06, 0x2f, 0x0a };
static unsigned long fz_answered, fz_unanswered, fz_refused, fz_checks,
	fz_failed, fz_drops_expected;

#define FZ_FAIL(fmt, ...) do {						\
	fz_failed++;							\
	if (fz_failed <= 30)						\
		printf("FAIL " fmt "\n", ##__VA_ARGS__);		\
} while (0)

struct fz_req {
	int agent;
	uint8_t m[MAD_SIZE];
	uint16_t dlid;
	uint32_t qpn;
	struct fz_mad x;
};

static void fz_req_init(struct fz_req *r, int agent, uint8_t cls,
			uint8_t cver, uint8_t method, uint16_t attr,
			uint32_t mod)
{
	memset(r, 0, sizeof(*r));
	r->agent = agent;
	r->m[0] = 1;
	r->m[1] = cls;
	r->m[2] = cver;
	r->m[3] = method;
	r->m[16] = attr >> 8;
	r->m[17] = attr;
	r->m[20] = mod >> 24;
	r->m[21] = mod >> 16;
	r->m[22] = mod >> 8;
	r->m[23] = mod;
	r->qpn = (cls == 0x01 || cls == 0x81) ? 0 : 1;
	r->x.cls = cls;
	r->x.method = method;
	r->x.attr = attr;
}

/* DR fields of @r: path of @np (+@extra), permissive ends. */
static void fz_req_dr(struct fz_req *r, const struct fz_node *np, int extra)
{
	int i, cnt = np->hops;

	for (i = 1; i <= cnt; i++)
		r->m[128 + i] = np->path[i];
	if (extra)
		r->m[128 + ++cnt] = extra;
	r->m[7] = cnt;
	r->m[32] = r->m[33] = r->m[34] = r->m[35] = 0xff;
	r->dlid = 0xffff;
}

static void fz_complete(const uint8_t *m, int st);

static void fz_recv_one(int wait_ms)
{
	static uint8_t buf[4096];
	void *umad = buf;
	int len = MAD_SIZE;

	if (umad_recv(fd, umad, &len, wait_ms) < 0) {
		unsigned int i;

		FZ_FAIL("no send completion nor answer for %u MADs within %d ms",
			fz_inflight, wait_ms);
		for (i = 0; i < fz_ntab; i++) {
			struct fz_mad *x = &fz_tab[i];

			if (x->done)
				continue;
			printf("# lost: %u %s agent %u class 0x%02x method 0x%02x attr 0x%04x dlid 0x%04x qpn %u hop %u/%u\n",
			       i, x->what, x->agent, x->cls, x->method,
			       x->attr, x->dlid, x->qpn, x->hop_ptr,
			       x->hop_cnt);
			x->done = 1;
		}
		fz_inflight = 0;	/* give up on them */
		return;
	}
	fz_complete(umad_get_mad(umad), umad_status(umad));
}

/*
 * Would ib_mad process this DR SMP on the local port (its SMI, IBA
 * 14.2.2.2, as an HCA's port @port)? Returns 1 local, 0 wire, -1 refused.
 */
static int fz_dr_local(const uint8_t *m, int port)
{
	int d = m[4] >> 7, hp = m[6], cnt = m[7];
	int perm = (d ? m[34] << 8 | m[35] : m[32] << 8 | m[33]) == 0xffff;

	if (perm) {
		if (cnt >= 64)
			return -1;
		if (!d) {
			if (cnt && !hp) {
				if (m[128 + 1] != port)
					return -1;
				hp = 1;
			} else if (hp && hp < cnt) {
				return -1;
			} else if (hp == cnt) {
				hp++;
				if ((m[34] << 8 | m[35]) != 0xffff)
					return -1;
			} else if (hp != cnt + 1) {
				return -1;
			}
		} else {
			if (cnt && hp == cnt + 1) {
				hp--;
				if (m[192 + hp] != port)
					return -1;
			} else if (hp >= 2 && hp <= cnt) {
				return -1;
			} else if (hp == 1) {
				hp = 0;
				if ((m[32] << 8 | m[33]) != 0xffff)
					return -1;
			} else if (hp) {
				return -1;
			}
		}
	}
	return (!d && hp == cnt + 1) || (d && !hp);
}

static unsigned long fz_eaten;
static int fz_port = 1;

/* Until every MAD in flight is answered or timed out. */
static void fz_drain(void)
{
	while (fz_inflight)
		fz_recv_one(4 * timeout_ms + 5000);
}

static void fz_send(struct fz_req *r)
{
	static uint8_t buf[4096];
	void *umad = buf;
	uint32_t tid = fz_tid0 + fz_ntab, t32 = htonl(tid);
	struct fz_mad *x = &fz_tab[fz_ntab++];
	int ret;

	while (fz_inflight >= (unsigned int)window)
		fz_recv_one(4 * timeout_ms + 5000);
	memset(buf, 0, umad_size() + MAD_SIZE);
	memcpy(umad_get_mad(umad), r->m, MAD_SIZE);
	memcpy((uint8_t *)umad_get_mad(umad) + 12, &t32, 4);
	*x = r->x;
	x->agent = r->agent;
	x->dlid = r->dlid;
	x->qpn = r->qpn;
	x->hop_ptr = r->m[6];
	x->hop_cnt = r->m[7];
	umad_set_addr(umad, r->dlid ? r->dlid : 0xffff, r->qpn, 0,
		      r->qpn ? 0x80010000 : 0);
	/* a check waits for its answer longer than a random MAD */
	ret = umad_send(fd, fz_agents[r->agent], umad, MAD_SIZE, timeout_ms,
			x->expect == X_STATUS ? 2 : 0);
	if (ret < 0) {
		fz_refused++;
		x->done = 1;
		if (x->expect == X_STATUS)
			FZ_FAIL("%s: the send was refused (%s)", x->what,
				strerror(-ret));
		else if (x->expect == X_NONE)
			fz_checks++;
		return;
	}
	/*
	 * ib_mad completes a locally processed SMP at once, and tells
	 * user space nothing when no answer came (only timeouts of sends
	 * that went out are reported): one the local SMA does not answer
	 * (a method other than Get/Set, SMInfo) is never heard of again.
	 */
	if (r->x.cls == 0x81 && fz_dr_local(r->m, fz_port) == 1 &&
	    ((r->m[3] != 0x01 && r->m[3] != 0x02) ||
	     (r->m[16] << 8 | r->m[17]) == 0x0020)) {
		fz_eaten++;
		x->done = 1;
		return;
	}
	fz_inflight++;
	fz_drops_expected += x->counted_drop;
}

static void fz_complete(const uint8_t *m, int st)
{
	uint32_t tid;
	struct fz_mad *x;
	uint16_t status;

	memcpy(&tid, m + 12, 4);
	tid = ntohl(tid) - fz_tid0;
	if (tid >= fz_ntab || fz_tab[tid].done)
		return;		/* not ours, or late */
	x = &fz_tab[tid];
	x->done = 1;
	fz_inflight--;
	if (st) {
		fz_unanswered++;
		if (x->expect == X_STATUS)
			FZ_FAIL("%s: no answer (status %d; MAD %u, node %u, dlid 0x%04x)",
				x->what, st, tid, x->node, x->dlid);
		else if (x->expect == X_NONE)
			fz_checks++;
		return;
	}
	fz_answered++;
	status = m[4] << 8 | m[5];
	if (!(m[3] & 0x80) || m[1] != x->cls ||
	    (x->cls == 0x81 && !(status & 0x8000))) {
		FZ_FAIL("%s: answer method 0x%02x class 0x%02x status 0x%04x to class 0x%02x method 0x%02x attr 0x%04x",
			x->what, m[3], m[1], status, x->cls, x->method,
			x->attr);
		return;
	}
	if (x->cls == 0x81)
		status &= 0x7fff;
	if (x->expect == X_NONE) {
		FZ_FAIL("%s: answered (status 0x%04x), should be dropped",
			x->what, status);
	} else if (x->expect == X_STATUS) {
		if (status != x->status)
			FZ_FAIL("%s: status 0x%04x, expected 0x%04x", x->what,
				status, x->status);
		else if (x->guid && get_be64(m + DATA_OFF + 12) != x->guid)
			FZ_FAIL("%s: NodeGUID %016llx, expected %016llx",
				x->what,
				(unsigned long long)get_be64(m + DATA_OFF + 12),
				(unsigned long long)x->guid);
		else
			fz_checks++;
	}
}

static void fz_expect(struct fz_req *r, int expect, uint16_t status,
		      const char *what)
{
	r->x.expect = expect;
	r->x.status = status;
	r->x.what = what;
}

/* A directed-route check with a known outcome. */
static void fz_dr_check(void)
{
	unsigned int ni = fz_below(fz_nnodes);
	const struct fz_node *np = &fz_nodes[ni];
	struct fz_req r;

	switch (fz_below(7)) {
	case 0:
		fz_req_init(&r, 0, 0x81, 1, 0x01, 0x0011, 0);
		fz_req_dr(&r, np, 0);
		fz_expect(&r, X_STATUS, 0, "DR Get NodeInfo");
		r.x.guid = np->guid;
		break;
	case 1:
		fz_req_init(&r, 0, 0x81, 1, 0x01, 0xff42, 0);
		fz_req_dr(&r, np, 0);
		fz_expect(&r, X_STATUS, 0x000c, "DR Get of an unknown attribute");
		break;
	case 2:
		fz_req_init(&r, 0, 0x81, 1, 0x02, 0x0011, 0);
		fz_req_dr(&r, np, 0);
		fz_expect(&r, X_STATUS, 0x000c, "DR Set NodeInfo");
		break;
	case 3:
		fz_req_init(&r, 0, 0x81, 2, 0x01, 0x0011, 0);
		fz_req_dr(&r, np, 0);
		fz_expect(&r, X_STATUS, 0x0004, "DR Get, class version 2");
		break;
	case 4: {
		/* through a port the switch lacks, or one without a neighbor */
		const struct fz_node *sw = NULL;
		int k;

		for (k = 0; k < 16 && !sw; k++) {
			np = &fz_nodes[fz_below(fz_nnodes)];
			if (np->type == 2)
				sw = np;
		}
		if (!sw)
			return;
		fz_req_init(&r, 0, 0x81, 1, 0x01, 0x0011, 0);
		if (sw->free_port && fz_below(2))
			fz_req_dr(&r, sw, sw->free_port);
		else
			fz_req_dr(&r, sw, sw->nports + 1 +
				  fz_below(255 - sw->nports));
		fz_expect(&r, X_NONE, 0, "DR path through a missing port");
		r.x.counted_drop = 1;
		break;
	}
	case 5:
	case 6:
		/*
		 * An SMP the local SMI does not check (the requester end of
		 * the path is LID-routed: DrSLID ours), with a hop pointer
		 * past the path or a hop count above 63: the first switch's
		 * SMI must drop it.
		 */
		if (!fz_my_lid || fz_nodes[0].type != 2 || !fz_nodes[0].lid)
			return;
		fz_req_init(&r, 0, 0x81, 1, 0x01, 0x0011, 0);
		fz_req_dr(&r, np, 0);
		r.m[32] = fz_my_lid >> 8;
		r.m[33] = fz_my_lid;
		r.dlid = fz_nodes[0].lid;
		if (fz_below(2)) {
			r.m[7] = 64 + fz_below(192);
			fz_expect(&r, X_NONE, 0, "DR hop count above 63");
		} else {
			r.m[6] = r.m[7] + 2 + fz_below(60);
			fz_expect(&r, X_NONE, 0, "DR hop pointer past the path");
		}
		r.x.counted_drop = 1;
		break;
	}
	r.x.node = ni;
	fz_send(&r);
}

static const uint16_t fz_smp_attrs[] = {
	0x0002, 0x0010, 0x0011, 0x0012, 0x0014, 0x0015, 0x0016, 0x0017,
	0x0018, 0x0019, 0x001a, 0x001b, 0x0020, 0x0030, 0x0031, 0xff00,
};

static uint32_t fz_mod(void)
{
	switch (fz_below(4)) {
	case 0:
	case 1:
		return 0;
	case 2:
		return fz_below(2) ? fz_below(64) : fz_below(64) << 16 | fz_below(64);
	default:
		return (uint32_t)fz_rand();
	}
}

static uint16_t fz_any_lid(void)
{
	switch (fz_below(8)) {
	case 0:
		return fz_rand();
	case 1:
		return fz_below(2) ? 0 : 0xffff;
	default:
		return fz_nodes[fz_below(fz_nnodes)].lid;
	}
}

static uint8_t fz_method(void)
{
	static const uint8_t m[] = { 0x01, 0x01, 0x01, 0x02, 0x02, 0x03, 0x05,
		0x06, 0x07, 0x12, 0x13, 0x14, 0x15, 0x81, 0x00, 0x7f };

	return fz_below(5) ? m[fz_below(sizeof(m))] : fz_rand();
}

/* One random MAD. */
static void fz_random_mad(void)
{
	struct fz_req r;
	unsigned int kind = fz_below(100), i;
	uint8_t method = fz_method();
	uint16_t attr = 0;

	if (kind < 40) {
		const struct fz_node *np = &fz_nodes[fz_below(fz_nnodes)];
		int cnt;

		attr = fz_below(4) ? fz_smp_attrs[fz_below(sizeof(fz_smp_attrs) / 2)] :
				     (uint16_t)fz_rand();
		fz_req_init(&r, 0, 0x81, fz_below(10) ? 1 : fz_rand(), method,
			    attr, fz_mod());
		fz_req_dr(&r, np, fz_below(8) ? 0 : fz_below(40));
		cnt = r.m[7];
		switch (fz_below(10)) {
		case 0:
			r.m[7] = fz_below(64);
			break;
		case 1:
			r.m[7] = 64 + fz_below(192);
			break;
		case 2:
			r.m[128 + 1 + fz_below(cnt + 1)] = fz_below(40);
			break;
		}
		if (!fz_below(5)) {
			static const int d[] = { 0, 1, 2, -1 };

			r.m[6] = fz_below(4) ? (uint8_t)(r.m[7] + d[fz_below(4)]) :
					       (uint8_t)fz_rand();
		}
		if (!fz_below(10))
			r.m[4] |= 0x80;		/* direction: returning */
		if (!fz_below(7)) {
			uint16_t l = fz_any_lid();

			r.m[32] = l >> 8;
			r.m[33] = l;
			r.dlid = fz_any_lid();
		}
		if (!fz_below(7)) {
			uint16_t l = fz_any_lid();

			r.m[34] = l >> 8;
			r.m[35] = l;
		}
		/* return path: mostly what a returning SMP would carry */
		for (i = 1; i <= 63 && i <= (unsigned int)cnt; i++)
			r.m[192 + i] = fz_below(4) ? 1 : fz_below(40);
	} else if (kind < 55) {
		attr = fz_below(4) ? fz_smp_attrs[fz_below(sizeof(fz_smp_attrs) / 2)] :
				     (uint16_t)fz_rand();
		fz_req_init(&r, 1, 0x01, fz_below(10) ? 1 : fz_rand(), method,
			    attr, fz_mod());
		r.dlid = fz_any_lid();
	} else if (kind < 70) {
		static const uint16_t a[] = { 0x0001, 0x0035, 0x0011, 0x0012,
					      0x0038, 0x0031 };

		attr = fz_below(5) ? a[fz_below(6)] : (uint16_t)fz_rand();
		fz_req_init(&r, 2, 0x03, fz_below(10) ? 2 : fz_rand(), method,
			    attr, fz_mod());
		r.dlid = fz_below(5) ? fz_sm_lid : fz_any_lid();
	} else if (kind < 85) {
		static const uint16_t a[] = { 0x0001, 0x0012, 0x001d, 0x0010,
					      0x0011 };

		attr = fz_below(5) ? a[fz_below(5)] : (uint16_t)fz_rand();
		fz_req_init(&r, 3, 0x04, fz_below(10) ? 1 : fz_rand(), method,
			    attr, fz_mod());
		r.dlid = fz_any_lid();
	} else {
		/* other classes, and classes on the wrong QP */
		unsigned int a = 4 + fz_below(sizeof(fz_other_cls));
		uint8_t cls = fz_below(3) ? fz_other_cls[a - 4] : fz_rand();

		fz_req_init(&r, fz_below(5) ? (int)a : (int)fz_below(4), cls,
			    fz_below(5) ? 1 : fz_rand(), method,
			    fz_rand(), fz_mod());
		r.qpn = fz_below(5) ? 1 : 0;
		if (r.agent <= 1)
			r.qpn = fz_below(5) ? 0 : 1;
		r.dlid = fz_any_lid();
		if (!fz_below(20))
			r.m[0] = fz_rand();	/* base version */
	}
	/* the payload: random for a Set, mostly zero for a Get */
	if (method == 0x02 || fz_below(4) == 0) {
		for (i = 24; i < MAD_SIZE; i++)
			if (!(r.x.cls == 0x81 && i >= 32 && i < 64) &&
			    !(r.x.cls == 0x81 && i >= 128))
				r.m[i] = fz_rand();
	}
	/* PortInfo Set: never disable a port (PortPhysicalState 0 or 2) */
	if ((r.x.cls == 0x81 || r.x.cls == 0x01) && r.x.attr == 0x0015)
		r.m[DATA_OFF + 33] = (r.m[DATA_OFF + 33] & 0x0f) |
				     (fz_below(2) ? 0x20 : 0);
	/*
	 * SLtoVL Set: every SL to VL 0. The fabric sends a data packet on the
	 * VL its SL maps to: a random table would drop the fuzzer's own GMPs
	 * (an SL to VL 15, or to a VL the port does not run).
	 */
	if ((r.x.cls == 0x81 || r.x.cls == 0x01) && r.x.attr == 0x0017)
		memset(r.m + DATA_OFF, 0, 8);
	/*
	 * VLArbitration Set: its first entry VL 0 of weight 1 or more. A VL
	 * in neither table never sends (IBA 7.6.9), and OpenSM without QoS
	 * writes no tables: a random block would starve VL 0, the fuzzer's
	 * own GMPs and the ibping after it.
	 */
	if ((r.x.cls == 0x81 || r.x.cls == 0x01) && r.x.attr == 0x0018) {
		r.m[DATA_OFF] &= 0xf0;
		r.m[DATA_OFF + 1] |= 1;
	}
	fz_expect(&r, X_ANY, 0, "random MAD");
	fz_send(&r);
}

/* A LID-routed check: the request, and what must come of it. */
struct fz_lid_check {
	uint8_t agent, cls, cver, method;
	uint16_t attr;
	uint8_t expect;
	uint16_t status;
	uint8_t flags;
	const char *what;
};

#define FZ_SWITCH_ONLY	0x01	/* sent to the switches only */
#define FZ_NODE_GUID	0x02	/* the answer carries the node's GUID */

/* to every LID */
static const struct fz_lid_check fz_node_checks[] = {
	{ 1, 0x01, 1, 0x01, 0x0011, X_STATUS, 0, FZ_NODE_GUID, "LID Get NodeInfo" },
	{ 3, 0x04, 1, 0x01, 0x0001, X_STATUS, 0, 0, "PMA Get ClassPortInfo" },
	{ 3, 0x04, 1, 0x01, 0x00fe, X_STATUS, 0x000c, 0,
	  "PMA Get of an unknown attribute" },
	{ 3, 0x04, 2, 0x01, 0x0001, X_STATUS, 0x0004, 0, "PMA Get, class version 2" },
	{ 4 + 2, 0x2f, 1, 0x01, 0x0010, X_STATUS, 0x000c, 0,
	  "Get of class 0x2F (no agent)" },
	{ 3, 0x04, 1, 0x81, 0x0001, X_NONE, 0, FZ_SWITCH_ONLY,
	  "PMA GetResp to a switch" },
};

/* to the SM's LID */
static const struct fz_lid_check fz_sa_checks[] = {
	{ 2, 0x03, 2, 0x01, 0x0001, X_STATUS, 0, 0, "SA Get ClassPortInfo" },
	{ 2, 0x03, 2, 0x02, 0x0001, X_STATUS, 0x0008, 0, "SA Set ClassPortInfo" },
	{ 2, 0x03, 2, 0x01, 0x00fe, X_STATUS, 0x000c, 0,
	  "SA Get of an unknown attribute" },
	{ 2, 0x03, 1, 0x01, 0x0001, X_STATUS, 0x0004, 0, "SA Get, class version 1" },
};

/* PathRecord, SLID and DLID given (mask bits 4, 5) */
static const struct fz_lid_check fz_path_check = {
	2, 0x03, 2, 0x01, 0x0035, X_STATUS, 0, 0, "SA Get PathRecord"
};

/* a LID above every switch's LinearFDBTop: no route */
static const struct fz_lid_check fz_unrouted_check = {
	1, 0x01, 1, 0x01, 0x0011, X_NONE, 0, 0, "LID Get to an unrouted LID"
};

/* @r: check @c to @dlid. */
static void fz_lid_req(struct fz_req *r, const struct fz_lid_check *c,
		       uint16_t dlid)
{
	fz_req_init(r, c->agent, c->cls, c->cver, c->method, c->attr, 0);
	r->dlid = dlid;
	fz_expect(r, c->expect, c->status, c->what);
}

/* LID-routed checks, while the SM's LIDs and routes are all there. */
static void fz_lid_checks(void)
{
	struct fz_req r;
	unsigned int k;
	int i;

	for (i = 0; i < fz_nnodes; i++) {
		const struct fz_node *np = &fz_nodes[i];

		if (!np->lid)
			continue;
		for (k = 0; k < sizeof(fz_node_checks) / sizeof(fz_node_checks[0]); k++) {
			const struct fz_lid_check *c = &fz_node_checks[k];

			if ((c->flags & FZ_SWITCH_ONLY) && np->type != 2)
				continue;
			fz_lid_req(&r, c, np->lid);
			if (c->flags & FZ_NODE_GUID)
				r.x.guid = np->guid;
			fz_send(&r);
		}
	}
	if (fz_sm_lid) {
		for (k = 0; k < sizeof(fz_sa_checks) / sizeof(fz_sa_checks[0]); k++) {
			fz_lid_req(&r, &fz_sa_checks[k], fz_sm_lid);
			fz_send(&r);
		}
		for (i = 0; i < fz_nnodes; i++) {
			if (fz_nodes[i].type != 1 || !fz_nodes[i].lid ||
			    !fz_my_lid || fz_nodes[i].lid == fz_my_lid)
				continue;
			fz_lid_req(&r, &fz_path_check, fz_sm_lid);
			r.m[55] = 0x30;
			r.m[SA_DATA_OFF + 40] = fz_nodes[i].lid >> 8;
			r.m[SA_DATA_OFF + 41] = fz_nodes[i].lid;
			r.m[SA_DATA_OFF + 42] = fz_my_lid >> 8;
			r.m[SA_DATA_OFF + 43] = fz_my_lid;
			fz_send(&r);
		}
	}
	fz_lid_req(&r, &fz_unrouted_check, 0xbfff);
	fz_send(&r);
}

static int fz_run(int port, unsigned long long seed, unsigned int iters)
{
	static const uint8_t cls[] = { 0x81, 0x01, 0x03, 0x04 };
	struct timespec t0, t1;
	unsigned int i, n = 0;
	uint8_t vers[] = { 1, 1, 2, 1 };

	/* the four above, then the other classes (version 1) */
	for (i = 0; i < 4 + sizeof(fz_other_cls); i++) {
		uint8_t c = i < 4 ? cls[i] : fz_other_cls[i - 4];

		fz_agents[i] = umad_register(fd, c, i < 4 ? vers[i] : 1, 0, NULL);
		if (fz_agents[i] < 0) {
			fprintf(stderr, "umad_register class 0x%02x: %s\n",
				c, strerror(-fz_agents[i]));
			return EXIT_ERROR;
		}
	}
	agent = fz_agents[0];
	fz_port = port ? port : 1;
	fz_state = seed;
	fz_tid0 = (uint32_t)fz_rand() & 0x7fffffff;
	if (fz_discover(port ? port : 1)) {
		printf("FAIL discovery: the port's neighbor does not answer\n");
		return 1;
	}
	printf("# discovered %d nodes; LID %u, SM LID %u\n", fz_nnodes,
	       fz_my_lid, fz_sm_lid);
	for (i = 0; i < (unsigned int)fz_nnodes; i++)
		printf("# node %d: guid %016llx type %u ports %u hops %d lid %u free port %u\n",
		       i, (unsigned long long)fz_nodes[i].guid,
		       fz_nodes[i].type, fz_nodes[i].nports, fz_nodes[i].hops,
		       fz_nodes[i].lid, fz_nodes[i].free_port);
	fz_tab = calloc(iters + 64 * FZ_MAX_NODES + 1024, sizeof(*fz_tab));
	if (!fz_tab)
		return EXIT_ERROR;
	fz_tid0 += 0x100000;	/* clear of rpc()'s */

	clock_gettime(CLOCK_MONOTONIC, &t0);
	fz_lid_checks();
	/*
	 * Their answers before the first random MAD: one (a P_KeyTable Set,
	 * say) could otherwise overtake them, and a GMP then meets a P_Key
	 * violation (seed 6).
	 */
	fz_drain();
	for (n = 0; n < iters; n++) {
		if (n % 8 == 7)
			fz_dr_check();
		else
			fz_random_mad();
	}
	fz_drain();
	/* the SMAs still answer */
	for (i = 0; i < (unsigned int)fz_nnodes; i++) {
		struct fz_req r;

		fz_req_init(&r, 0, 0x81, 1, 0x01, 0x0011, 0);
		fz_req_dr(&r, &fz_nodes[i], 0);
		fz_expect(&r, X_STATUS, 0, "DR Get NodeInfo after the fuzzing");
		r.x.guid = fz_nodes[i].guid;
		fz_send(&r);
	}
	fz_drain();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("mads %u answered %lu unanswered %lu refused %lu local_unanswered %lu checks %lu failed %lu sim_drops_expected %lu ms %ld\n",
	       fz_ntab, fz_answered, fz_unanswered, fz_refused, fz_eaten,
	       fz_checks,
	       fz_failed, fz_drops_expected,
	       (long)((t1.tv_sec - t0.tv_sec) * 1000 +
		      (t1.tv_nsec - t0.tv_nsec) / 1000000));
	return fz_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	char *dev = NULL;
	int port = 0, opt, i, ret;
	uint8_t mad[MAD_SIZE] = { 0 };
	uint16_t attr, status;
	uint32_t mod;
	int set, n = 0, fuzz = 0;
	unsigned long long seed = 0;
	unsigned int iters = 10000;

	while ((opt = getopt(argc, argv, "C:P:t:d:D:L:n:R:N:w:")) != -1) {
		switch (opt) {
		case 'C':
			dev = optarg;
			break;
		case 'P':
			port = atoi(optarg);
			break;
		case 't':
			timeout_ms = atoi(optarg);
			break;
		case 'd':
			dr_dlid = strtoul(optarg, NULL, 0);
			break;
		case 'D':
			parse_path(optarg);
			break;
		case 'L':
			lid = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			n = parse_count(optarg);
			break;
		case 'R':
			fuzz = 1;
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'N':
			iters = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			window = parse_count(optarg);
			break;
		default:
			usage();
		}
	}
	if (fuzz) {
		fd = open_port(dev, port);
		setvbuf(stdout, NULL, _IOLBF, 0);
		return fz_run(port, seed, iters);
	}
	if (argc - optind < 3 || (!dr && !lid))
		usage();
	set = !strcmp(argv[optind], "set");
	if (!set && strcmp(argv[optind], "get"))
		usage();
	attr = strtoul(argv[optind + 1], NULL, 0);
	mod = strtoul(argv[optind + 2], NULL, 0);

	fd = open_port(dev, port);
	agent = umad_register(fd, dr ? 0x81 : 0x01, 1, 0, NULL);
	if (agent < 0) {
		fprintf(stderr, "umad_register: %s\n", strerror(-agent));
		return EXIT_ERROR;
	}
	srand(time(NULL) ^ getpid());
	tid = (uint64_t)rand() << 8;

	if (n) {
		if (set)
			usage();
		return burst(n, attr, mod);
	}
	ret = rpc(0x01, attr, mod, mad);
	if (!ret && set) {
		for (i = optind + 3; i < argc; i++) {
			char *p = argv[i], *end;
			unsigned long off = strtoul(p, &end, 0);

			if (*end != '=')
				usage();
			for (p = end + 1; *p; p = end) {
				if (off >= DATA_LEN)
					usage();
				mad[DATA_OFF + off++] = strtoul(p, &end, 16);
				if (*end == ',')
					end++;
				else if (*end)
					usage();
			}
		}
		ret = rpc(0x02, attr, mod, mad);
	}
	if (ret)
		return ret;
	memcpy(&status, mad + 4, 2);
	printf("status=0x%04x\ndata=", ntohs(status) & 0x7fff);
	for (i = 0; i < DATA_LEN; i++)
		printf("%02x", mad[DATA_OFF + i]);
	printf("\n");
	umad_unregister(fd, agent);
	umad_close_port(fd);
	return EXIT_ANSWER;
}
