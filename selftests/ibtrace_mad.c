// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_mad - send one raw vendor MAD of class 0x30 through
 * /dev/infiniband/umadN and print the answer as key=value lines, so that
 * shell selftests can check the in-kernel ibtrace agent
 * (Documentation/ibtrace.rst, "The class 0x30 agent").
 *
 * Build: gcc -Wall -Wextra -O2 -I../uapi ibtrace_mad.c -libumad
 *
 * umad side: one send-only agent (umad_register with mgmt_class 0). ib_umad
 * stamps the high 32 bits of the request's TID with the agent's hi_tid and
 * ib_mad routes the response back to that agent by TID. The kernel runs the
 * timeout and the retries and reports a lost request as status ETIMEDOUT.
 *
 * Exit: 0 an answer arrived (any MAD status), 1 no answer, 2 usage error,
 * 3 device/port/umad error, 4 no /dev/infiniband or no such device (skip).
 *
 * --fuzz N: send N seeded random MADs of class 0x30 instead (a window of
 * them in flight), each with a random method, attribute, modifier, class
 * and base version, status, OUI, RMPP header, TID, SourceRoute hop count
 * and vector, payload and length (short, truncated, full, oversized).
 * From each request it derives what must happen - refused by ib_umad,
 * dropped or answered 0x000C by ib_mad, or answered by the agent with the
 * status Documentation/ibtrace.rst gives - and checks every answer and
 * every silence against that. It prints the counts as key=value lines,
 * among them what the agent's counters must have grown by (exp_rx,
 * exp_success, ...). Exit 0 when every outcome was as expected, 1
 * otherwise.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>
#include <linux/ibtrace.h>

enum { EXIT_ANSWER, EXIT_NO_ANSWER, EXIT_USAGE, EXIT_ERROR, EXIT_SKIP };

/* fail(): a usage error points to --help */
#define ST_PROG		"ibtrace_mad"
#define ST_FAIL_USAGE	"Try 'ibtrace_mad --help'.\n"
#define ST_FAIL_END	""
#include "ibtrace_selftest.h"

#define MAD_SIZE	256
#define QP1_QKEY	0x80010000
/* Range-2 vendor MAD: MAD header (24), RMPP header (12), reserved, OUI */
#define OFF_STATUS	4
#define OFF_TID		8
#define OFF_ATTR	16
#define OFF_OUI		37
#define OFF_DATA	ibtrace_mad_data_offset(IBTRACE_MGMT_CLASS)
#define METHOD_GET	0x01
#define METHOD_RESP	0x80

struct opts {
	const char *dev;
	unsigned long port, dlid, method, attr, hops, class_version, oui;
	unsigned long timeout, retries, sgid_index;
	unsigned long fuzz, seed, target_port, window, resp_hi;
	int has_resp_hi;
	int has_dgid, has_hops, nroute;
	uint8_t dgid[16];
	uint8_t route[IBTRACE_SROUTE_MAX_HOPS];
};

static void usage(void)
{
	printf(
"Usage: ibtrace_mad -d DEV [-p PORT] (--dgid GID | --dlid LID) [--method M]\n"
"         [--attr A] [--hops N] [--route P1,P2,...] [--class-version V]\n"
"         [--oui X] [--timeout MS] [--retries N] [--sgid-index I]\n"
"       ibtrace_mad -d DEV [-p PORT] (--dgid GID | --dlid LID) --fuzz N\n"
"         [--seed S] [--target-port P] [--window W] [--resp-tid-hi H]\n"
"Send one class 0x30 vendor MAD (default VendorGet(ClassPortInfo)) and print\n"
"the answer as key=value lines. Defaults: port 1, method 0x01, attr 0x0001,\n"
"class version 1, OUI 0x001405, timeout 1000 ms per attempt, 0 retries,\n"
"sgid index 0. --route fills the SourceRoute port vector; --hops (byte 1,\n"
"0..255) defaults to the number of --route entries. --dgid sends a GRH\n"
"(required on RoCE); on IB a remote --dgid also needs --dlid.\n"
"Exit: 0 answered (any status), 1 no answer, 2 usage, 3 device/umad error,\n"
"4 no /dev/infiniband or no such device (skip).\n"
"--fuzz N sends N seeded random MADs (--window W in flight, default 32) to\n"
"the agent of port P (--target-port, default 1) of the destination, checks\n"
"each outcome and prints the counts; exit 0 if all were as expected. On\n"
"InfiniBand with --dgid, half of them (at random) carry a GRH.\n"
"--resp-tid-hi H: most responses carry TID high half H (the hi_tid of the\n"
"agent's ib_mad agent): those with RMPP Active reach it as strays.\n");
	exit(EXIT_ANSWER);
}

static unsigned int get_be(const uint8_t *p, int n)
{
	unsigned int v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

static void put_be(uint8_t *p, unsigned int v, int n)
{
	while (n--) {
		p[n] = v;
		v >>= 8;
	}
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int parse_num(const char *s, unsigned long min, unsigned long max,
		     unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_route(const char *arg, struct opts *o)
{
	char buf[1024], *tok, *save = NULL;
	unsigned long v;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	o->nroute = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nroute == IBTRACE_SROUTE_MAX_HOPS || parse_num(tok, 0, 255, &v))
			return -1;
		o->route[o->nroute++] = v;
	}
	return o->nroute ? 0 : -1;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "device", 1, NULL, 'd' },	{ "port", 1, NULL, 'p' },
		{ "dgid", 1, NULL, 'G' },	{ "dlid", 1, NULL, 'L' },
		{ "method", 1, NULL, 'm' },	{ "attr", 1, NULL, 'a' },
		{ "hops", 1, NULL, 'H' },	{ "route", 1, NULL, 'r' },
		{ "class-version", 1, NULL, 'V' }, { "oui", 1, NULL, 'o' },
		{ "timeout", 1, NULL, 't' },	{ "retries", 1, NULL, 'R' },
		{ "sgid-index", 1, NULL, 's' },	{ "help", 0, NULL, 'h' },
		{ "fuzz", 1, NULL, 'F' },	{ "seed", 1, NULL, 'S' },
		{ "target-port", 1, NULL, 'T' }, { "window", 1, NULL, 'W' },
		{ "resp-tid-hi", 1, NULL, 'X' },
		{ NULL, 0, NULL, 0 }
	};
	const struct { int c; unsigned long min, max, *val; } nums[] = {
		{ 'p', 1, 254, &o->port },	{ 'L', 1, 0xffff, &o->dlid },
		{ 'm', 0, 0xff, &o->method },	{ 'a', 0, 0xffff, &o->attr },
		{ 'H', 0, 0xff, &o->hops },	{ 'V', 0, 0xff, &o->class_version },
		{ 'o', 0, 0xffffff, &o->oui },	{ 't', 1, 3600000, &o->timeout },
		{ 'R', 0, 100, &o->retries },	{ 's', 0, 0xff, &o->sgid_index },
		{ 'F', 1, 100000000, &o->fuzz }, { 'S', 0, 0xffffffff, &o->seed },
		{ 'T', 1, 254, &o->target_port }, { 'W', 1, 256, &o->window },
		{ 'X', 0, 0xffffffff, &o->resp_hi },
	};
	int c, i, n = sizeof(nums) / sizeof(nums[0]), bad;

	while ((c = getopt_long(argc, argv, "d:p:h", lopts, NULL)) != -1) {
		if (c == 'h')
			usage();
		if (c == 'd') {
			o->dev = optarg;
			continue;
		}
		if (c == 'G') {
			bad = inet_pton(AF_INET6, optarg, o->dgid) != 1;
			o->has_dgid = 1;
		} else if (c == 'r') {
			bad = parse_route(optarg, o);
		} else {
			for (i = 0; i < n && nums[i].c != c; i++)
				;
			if (i == n)	/* getopt printed why */
				fail(EXIT_USAGE, "bad command line\n");
			bad = parse_num(optarg, nums[i].min, nums[i].max, nums[i].val);
			o->has_hops |= c == 'H';
			o->has_resp_hi |= c == 'X';
		}
		for (i = 0; bad && lopts[i].val != c; i++)
			;
		if (bad)
			fail(EXIT_USAGE, "invalid value '%s' for --%s\n", optarg, lopts[i].name);
	}
	if (optind < argc)
		fail(EXIT_USAGE, "unexpected argument '%s'\n", argv[optind]);
	if (!o->dev || (!o->has_dgid && !o->dlid))
		fail(EXIT_USAGE, "-d DEV and --dgid or --dlid are required\n");
}

static void build_mad(uint8_t *mad, const struct opts *o, uint32_t tid_lo)
{
	memset(mad, 0, MAD_SIZE);
	mad[0] = 1;			/* BaseVersion */
	mad[1] = IBTRACE_MGMT_CLASS;
	mad[2] = o->class_version;
	mad[3] = o->method;
	put_be(mad + OFF_TID + 4, tid_lo, 4);	/* ib_umad fills the high half */
	put_be(mad + OFF_ATTR, o->attr, 2);
	/* RMPP header stays zero: RMPPFlags.Active clear, a single MAD */
	put_be(mad + OFF_OUI, o->oui, 3);
	if (o->attr == IBTRACE_ATTR_SOURCE_ROUTE || o->nroute || o->has_hops) {
		mad[OFF_DATA + IBTRACE_SROUTE_HOP_COUNT] =
			o->has_hops ? (int)o->hops : o->nroute;
		memcpy(mad + OFF_DATA + IBTRACE_SROUTE_VECTOR, o->route, o->nroute);
	}
}

/* Returns 1 on RoCE (a GRH on every MAD), 0 on InfiniBand. */
static int set_address(void *umad, const struct opts *o, const umad_port_t *p)
{
	int roce = !strcmp(p->link_layer, "Ethernet");
	unsigned long dlid = o->dlid;
	uint8_t own[16];
	ib_mad_addr_t *a;

	if (roce && !o->has_dgid)
		fail(EXIT_USAGE, "%s port %lu is RoCE: give --dgid, not --dlid\n",
		     o->dev, o->port);
	memcpy(own, &p->gid_prefix, 8);
	memcpy(own + 8, &p->port_guid, 8);
	if (roce)
		dlid = 0;		/* no LIDs on Ethernet: ignored */
	else if (!dlid && !memcmp(own, o->dgid, 16))
		dlid = p->base_lid;	/* our own GID: loop back to our LID */
	else if (!dlid)
		fail(EXIT_USAGE, "on IB a remote --dgid also needs --dlid\n");
	umad_set_addr(umad, dlid, 1, 0, QP1_QKEY);
	umad_set_pkey(umad, 0);
	if (o->has_dgid) {
		a = umad_get_mad_addr(umad);
		a->grh_present = 1;
		memcpy(a->gid, o->dgid, 16);
		a->gid_index = o->sgid_index;
		a->hop_limit = 255;	/* RoCE: the kernel takes it from the route */
	}
	return roce;
}

/* Waits until the answer to tid_lo is in rbuf; exits on timeout or error. */
static void wait_answer(int fd, void *rbuf, uint32_t tid_lo, uint64_t deadline)
{
	uint8_t *mad = umad_get_mad(rbuf);
	uint64_t t;
	int len, rc;

	while ((t = now_us()) < deadline) {
		len = MAD_SIZE;
		rc = umad_recv(fd, rbuf, &len, (deadline - t + 999) / 1000);
		if (rc == -ETIMEDOUT)
			break;
		if (rc < 0)
			fail(EXIT_ERROR, "umad receive failed: %s\n", strerror(-rc));
		if (get_be(mad + OFF_TID + 4, 4) != tid_lo)
			continue;		/* not ours */
		if (umad_status(rbuf) == ETIMEDOUT)
			break;			/* the kernel gave up after the retries */
		if (umad_status(rbuf))
			fail(EXIT_ERROR, "send failed: %s\n", strerror(umad_status(rbuf)));
		if (mad[3] & METHOD_RESP)
			return;
	}
	fprintf(stderr, "no answer\n");
	exit(EXIT_NO_ANSWER);
}

static void print_answer(const uint8_t *mad, uint64_t rtt_us)
{
	const uint8_t *d = mad + OFF_DATA;
	unsigned int attr = get_be(mad + OFF_ATTR, 2);

	printf("status=0x%04x\nmethod=0x%02x\nattr=0x%04x\n",
	       get_be(mad + OFF_STATUS, 2), mad[3], attr);
	printf("tid=0x%08x%08x\ntid_match=1\n",
	       get_be(mad + OFF_TID, 4), get_be(mad + OFF_TID + 4, 4));
	if (attr == IBTRACE_ATTR_SOURCE_ROUTE)
		printf("actual_port=%u\nhops=%u\n", d[IBTRACE_SROUTE_ACTUAL_PORT],
		       d[IBTRACE_SROUTE_HOP_COUNT]);
	else if (attr == IBTRACE_ATTR_CLASS_PORT_INFO)	/* CapMask2:27, RespTime:5 */
		printf("base_version=%u\nclass_version=%u\ncap_mask=0x%04x\nresp_time=%u\n",
		       d[0], d[1], get_be(d + 2, 2), get_be(d + 4, 4) & 0x1f);
	printf("rtt_us=%llu\n", (unsigned long long)rtt_us);
}

/* --fuzz ------------------------------------------------------------------ */

#define FZ_MAX_LEN	2048	/* longest write tried (oversized sends) */
#define FZ_T_ANSWER	3000	/* ms: a request that must be answered */
#define FZ_T_SILENCE	400	/* ms: a request that must not be */
#define FZ_STALL_US	20000000ULL
#define FZ_MAX_REPORTS	10
#define OFF_RMPP	24
#define OFF_RESV	36

/* What must become of a MAD, derived from its bytes alone. */
enum fz_fate {
	FZ_EINVAL,	/* ib_umad refuses the write: too short or too long */
	FZ_RESPONSE,	/* a response method: sent, nobody answers it */
	FZ_DROP,	/* ib_mad drops it before any agent, unanswered */
	FZ_CORE,	/* not the agent's: ib_mad answers Get/Set 0x000C */
	FZ_AGENT,	/* reaches the agent, which answers */
	FZ_NFATES
};

/* The agent's reason for its status: the counter it must bump. */
enum fz_verdict {
	FZ_SUCCESS, FZ_MISMATCH, FZ_MALFORMED, FZ_BAD_METHOD, FZ_BAD_ATTR,
	FZ_NVERDICTS
};

struct fz_expect {
	enum fz_fate fate;
	int stray;	/* a response the agent must count as a stray */
	enum fz_verdict verdict;
	uint16_t status;
	uint8_t method;
};

struct fz_pend {
	int used;
	unsigned long seq;
	uint32_t tid_lo;
	struct fz_expect e;
	uint8_t req[MAD_SIZE];
};

struct fz_stats {
	unsigned long fate[FZ_NFATES], verdict[FZ_NVERDICTS];
	unsigned long answers, silences, lost, unexpected, bad, reports;
	unsigned long stray;
};

static uint64_t fz_state;

/* splitmix64: one 64-bit seed gives the whole campaign. */
static uint64_t fz_rnd(void)
{
	return st_splitmix64(&fz_state);
}

static unsigned int fz_below(unsigned int n)
{
	return fz_rnd() % n;
}

/* true once in @n */
static int fz_one_in(unsigned int n)
{
	return fz_below(n) == 0;
}

/*
 * Fill the MAD (and the bytes past it, for oversized writes) and return
 * the length to write. Each field is right most of the time, so that most
 * MADs get deep into the agent, and anything once in a while.
 */
static int fz_build(uint8_t *m, uint32_t tid_lo, unsigned int tport,
		    const struct opts *o)
{
	static const uint8_t methods[] = {
		0x02, 0x03, 0x04, 0x05, 0x06, 0x12, 0x13, 0x14, 0x15, 0x7f,
	};
	unsigned int r, i, hops, len;

	for (i = 0; i < FZ_MAX_LEN; i++)
		m[i] = fz_rnd();
	m[0] = fz_one_in(32) ? m[0] : 1;
	m[1] = IBTRACE_MGMT_CLASS;
	m[2] = fz_one_in(16) ? m[2] : IBTRACE_MGMT_CLASS_VERSION;
	r = fz_below(10);
	if (r < 5)
		m[3] = METHOD_GET;
	else if (r < 8)
		m[3] = methods[fz_below(sizeof(methods))];
	/* else: the random byte, responses and method 0 included */
	if (fz_one_in(2))
		put_be(m + OFF_STATUS, 0, 4);	/* status, class specific */
	put_be(m + OFF_TID + 4, tid_lo, 4);
	if (o->has_resp_hi && !fz_one_in(4))	/* kept for responses only */
		put_be(m + OFF_TID, o->resp_hi, 4);
	r = fz_below(20);
	if (r < 7)
		put_be(m + OFF_ATTR, IBTRACE_ATTR_CLASS_PORT_INFO, 2);
	else if (r < 15)
		put_be(m + OFF_ATTR, IBTRACE_ATTR_SOURCE_ROUTE, 2);
	if (!fz_one_in(4))
		put_be(m + OFF_ATTR + 2, 0, 2);	/* reserved */
	if (fz_one_in(2))
		put_be(m + OFF_ATTR + 4, 0, 4);	/* attribute modifier */
	if (fz_one_in(2))
		memset(m + OFF_RMPP, 0, OFF_RESV - OFF_RMPP);
	if (!fz_one_in(4))
		m[OFF_RESV] = 0;
	if (!fz_one_in(16))
		put_be(m + OFF_OUI, IBTRACE_OUI, 3);
	if (get_be(m + OFF_ATTR, 2) == IBTRACE_ATTR_SOURCE_ROUTE) {
		r = fz_below(10);
		hops = r < 7 ? 1 + fz_below(IBTRACE_SROUTE_MAX_HOPS) :
		       r < 8 ? 0 : m[OFF_DATA + IBTRACE_SROUTE_HOP_COUNT];
		m[OFF_DATA + IBTRACE_SROUTE_HOP_COUNT] = hops;
		if (hops >= 1 && hops <= IBTRACE_SROUTE_MAX_HOPS && fz_one_in(2))
			m[OFF_DATA + IBTRACE_SROUTE_VECTOR + hops - 1] = tport;
	}
	r = fz_below(100);
	if (r < 84)
		len = MAD_SIZE;
	else if (r < 92)
		len = OFF_DATA + fz_below(MAD_SIZE - OFF_DATA);	/* truncated */
	else if (r < 96)
		len = fz_below(OFF_DATA);			/* too short */
	else
		len = MAD_SIZE + 1 + fz_below(FZ_MAX_LEN - MAD_SIZE);
	if (len < MAD_SIZE)	/* what ib_umad sends: zeros past the write */
		memset(m + len, 0, MAD_SIZE - len);
	return len;
}

static uint8_t fz_response_method(uint8_t method)
{
	if (method == 0x01 || method == 0x02)
		return 0x81;		/* Get, Set: GetResp */
	if (method == 0x05)
		return 0x07;		/* Trap: TrapRepress */
	return method | METHOD_RESP;
}

static struct fz_expect fz_predict(const uint8_t *m, unsigned int len,
				   unsigned int tport, const struct opts *o)
{
	struct fz_expect e = { .fate = FZ_AGENT };
	unsigned int hops;

	/* ib_umad: the whole vendor header (40 bytes), at most one MAD */
	if (len < OFF_DATA || len > MAD_SIZE) {
		e.fate = FZ_EINVAL;
		return e;
	}
	if ((m[3] & METHOD_RESP) || m[3] == 0x07) {
		/*
		 * Routed by the TID's high half (whatever the class version
		 * and OUI) to the ib_mad agent that has it; it matches no
		 * request there, and ib_mad drops it unless RMPP's Active
		 * flag is set: then the agent gets it, as a stray.
		 */
		e.fate = FZ_RESPONSE;
		e.stray = o->has_resp_hi && m[0] == 1 &&
			  get_be(m + OFF_TID, 4) == o->resp_hi &&
			  (m[OFF_RMPP + 2] & 0x01);
		return e;
	}
	if (m[0] != 1) {
		e.fate = FZ_DROP;	/* ib_mad: unsupported base version */
		return e;
	}
	e.method = fz_response_method(m[3]);
	/* ib_mad routes by class version, OUI and method (mask 1..0x7f) */
	if (m[2] != IBTRACE_MGMT_CLASS_VERSION ||
	    get_be(m + OFF_OUI, 3) != IBTRACE_OUI || !m[3]) {
		e.fate = m[3] == 0x01 || m[3] == 0x02 ? FZ_CORE : FZ_DROP;
		e.status = 0x000c;
		return e;
	}
	if (m[3] != METHOD_GET) {
		e.verdict = FZ_BAD_METHOD;
		e.status = 0x0008;
		return e;
	}
	switch (get_be(m + OFF_ATTR, 2)) {
	case IBTRACE_ATTR_CLASS_PORT_INFO:
		e.verdict = FZ_SUCCESS;
		break;
	case IBTRACE_ATTR_SOURCE_ROUTE:
		hops = m[OFF_DATA + IBTRACE_SROUTE_HOP_COUNT];
		if (hops == 0 || hops > IBTRACE_SROUTE_MAX_HOPS) {
			e.verdict = FZ_MALFORMED;
			e.status = 0x001c;
		} else if (m[OFF_DATA + IBTRACE_SROUTE_VECTOR + hops - 1] != tport) {
			e.verdict = FZ_MISMATCH;
			e.status = 0x001c;
		} else {
			e.verdict = FZ_SUCCESS;
		}
		break;
	default:
		e.verdict = FZ_BAD_ATTR;
		e.status = 0x000c;
	}
	return e;
}

/* First differing byte of a and b in [from, to), or -1. */
static int fz_diff(const uint8_t *a, const uint8_t *b, int from, int to)
{
	for (; from < to; from++)
		if (a[from] != b[from])
			return from;
	return -1;
}

/* Check an answer against its request; NULL if right, else why not. */
static const char *fz_check(const struct fz_pend *p, const uint8_t *a,
			    unsigned int tport, int *at)
{
	const uint8_t *q = p->req, *d = a + OFF_DATA;
	uint16_t attr = get_be(q + OFF_ATTR, 2);
	static const uint8_t zero[MAD_SIZE];

	*at = -1;
	if (p->e.fate != FZ_CORE && p->e.fate != FZ_AGENT)
		return "answered, but it must not have been";
	if (get_be(a + OFF_STATUS, 2) != p->e.status)
		return "wrong status";
	if (a[3] != p->e.method)
		return "wrong response method";
	/* BaseVersion..ClassVersion, class specific, TID low half, attribute */
	if ((*at = fz_diff(a, q, 0, 3)) >= 0 || (*at = fz_diff(a, q, 6, 8)) >= 0 ||
	    (*at = fz_diff(a, q, OFF_TID + 4, OFF_RMPP)) >= 0)
		return "header not copied back";
	if (p->e.fate == FZ_CORE) {
		if ((*at = fz_diff(a, q, OFF_RMPP, MAD_SIZE)) >= 0)
			return "ib_mad's answer is not a copy of the request";
		return NULL;
	}
	if ((*at = fz_diff(a, zero, OFF_RMPP, OFF_RESV)) >= 0)
		return "RMPP header of the agent's answer not zero";
	if ((*at = fz_diff(a, q, OFF_RESV, OFF_DATA)) >= 0)
		return "reserved byte or OUI not copied back";
	if (p->e.verdict == FZ_BAD_METHOD || p->e.verdict == FZ_BAD_ATTR) {
		if ((*at = fz_diff(a, q, OFF_DATA, MAD_SIZE)) >= 0)
			return "data of an unsupported request changed";
	} else if (attr == IBTRACE_ATTR_CLASS_PORT_INFO) {
		/* BaseVersion 1, ClassVersion 1, CapMask 0, RespTimeValue 16 */
		if (d[0] != 1 || d[1] != IBTRACE_MGMT_CLASS_VERSION ||
		    get_be(d + 2, 2) || get_be(d + 4, 4) != 16 ||
		    (*at = fz_diff(a, zero, OFF_DATA + 8, MAD_SIZE)) >= 0)
			return "ClassPortInfo not as documented";
	} else {
		if (d[IBTRACE_SROUTE_ACTUAL_PORT] != tport)
			return "SourceRoute: wrong actual port";
		if ((*at = fz_diff(a, q, OFF_DATA + IBTRACE_SROUTE_HOP_COUNT,
				   MAD_SIZE)) >= 0)
			return "SourceRoute: data past byte 0 changed";
	}
	return NULL;
}

static void fz_report(struct fz_stats *st, const struct fz_pend *p,
		      const char *why, int at, const uint8_t *a)
{
	unsigned int i;

	st->bad++;
	if (st->reports++ >= FZ_MAX_REPORTS)
		return;
	fprintf(stderr, "ibtrace_mad: MAD #%lu (fate %d verdict %d, expected status 0x%04x method 0x%02x): %s",
		p->seq, p->e.fate, p->e.verdict, p->e.status, p->e.method, why);
	if (at >= 0)
		fprintf(stderr, " (byte %d)", at);
	fputs("\n  request:", stderr);
	for (i = 0; i < OFF_DATA + 8; i++)
		fprintf(stderr, " %02x", p->req[i]);
	if (a) {
		fputs("\n  answer: ", stderr);
		for (i = 0; i < OFF_DATA + 8; i++)
			fprintf(stderr, " %02x", a[i]);
	}
	fputc('\n', stderr);
}

/* An answer or a timeout report arrived: settle its request. */
static void fz_settle(struct fz_stats *st, struct fz_pend *pend, int npend,
		      void *rbuf, unsigned int tport, unsigned int *inflight)
{
	const uint8_t *a = umad_get_mad(rbuf);
	uint32_t tid_lo = get_be(a + OFF_TID + 4, 4);
	const char *why;
	struct fz_pend *p;
	int i, at;

	for (i = 0; i < npend && !(pend[i].used && pend[i].tid_lo == tid_lo); i++)
		;
	if (i == npend) {
		st->unexpected++;
		fprintf(stderr, "ibtrace_mad: a MAD for no request of ours (TID low 0x%08x, status %d)\n",
			tid_lo, umad_status(rbuf));
		return;
	}
	p = &pend[i];
	if (umad_status(rbuf) == ETIMEDOUT) {
		if (p->e.fate == FZ_CORE || p->e.fate == FZ_AGENT) {
			st->lost++;
			fz_report(st, p, "no answer", -1, NULL);
		} else {
			st->silences++;
		}
	} else if (umad_status(rbuf)) {
		fz_report(st, p, strerror(umad_status(rbuf)), -1, NULL);
	} else if (!(a[3] & METHOD_RESP) && a[3] != 0x07) {
		return;		/* not an answer: keep waiting */
	} else {
		st->answers++;
		why = fz_check(p, a, tport, &at);
		if (why) {
			if (p->e.fate != FZ_CORE && p->e.fate != FZ_AGENT)
				st->unexpected++;
			fz_report(st, p, why, at, a);
		}
	}
	p->used = 0;
	(*inflight)--;
}

/*
 * @grh_opt: InfiniBand with --dgid: every other MAD, at random, goes with
 * a GRH, so that the agent answers both ways.
 */
static int run_fuzz(int fd, int agent, void *tmpl, const struct opts *o,
		    int grh_opt)
{
	static const char *const fates[FZ_NFATES] = {
		"einval", "response", "dropped", "core", "agent",
	};
	static const char *const verdicts[FZ_NVERDICTS] = {
		"success", "mismatch", "malformed", "unsupported_method",
		"unsupported_attr",
	};
	unsigned int tport = o->target_port, npend = o->window, inflight = 0;
	size_t hsz = umad_size();
	struct fz_stats st = { 0 };
	uint64_t t0, last, el;
	struct fz_pend *pend;
	unsigned long seq = 0;
	void *sbuf, *rbuf;
	uint8_t *m;
	int i, len, rc, rlen, timeout;

	pend = calloc(npend, sizeof(*pend));
	sbuf = calloc(1, hsz + FZ_MAX_LEN);
	rbuf = calloc(1, hsz + MAD_SIZE);
	if (!pend || !sbuf || !rbuf)
		fail(EXIT_ERROR, "out of memory\n");
	fz_state = o->seed;
	m = umad_get_mad(sbuf);
	t0 = last = now_us();
	while (seq < o->fuzz || inflight) {
		while (seq < o->fuzz && inflight < npend) {
			uint32_t tid_lo = (fz_rnd() & 0xffff0000) | (seq & 0xffff);
			struct fz_expect e;

			memcpy(sbuf, tmpl, hsz);
			if (grh_opt)
				umad_get_mad_addr(sbuf)->grh_present = fz_one_in(2);
			len = fz_build(m, tid_lo, tport, o);
			e = fz_predict(m, len, tport, o);
			st.fate[e.fate]++;
			seq++;
			timeout = e.fate == FZ_RESPONSE ? 0 :
				  e.fate >= FZ_CORE ? FZ_T_ANSWER : FZ_T_SILENCE;
			rc = umad_send(fd, agent, sbuf, len, timeout, 0);
			if (e.fate == FZ_EINVAL || rc < 0) {
				if (e.fate != FZ_EINVAL || errno != EINVAL) {
					struct fz_pend tmp = { .seq = seq, .e = e };

					memcpy(tmp.req, m, MAD_SIZE);
					fz_report(&st, &tmp, rc < 0 ? strerror(errno) :
						  "a write of a bad length was taken", -1, NULL);
				}
				continue;
			}
			if (e.fate == FZ_AGENT)
				st.verdict[e.verdict]++;
			if (e.fate == FZ_RESPONSE) {
				st.stray += e.stray;
				continue;
			}
			for (i = 0; pend[i].used; i++)
				;
			pend[i].used = 1;
			pend[i].seq = seq;
			pend[i].tid_lo = tid_lo;
			pend[i].e = e;
			memcpy(pend[i].req, m, MAD_SIZE);
			inflight++;
		}
		if (!inflight)
			continue;
		rlen = MAD_SIZE;
		rc = umad_recv(fd, rbuf, &rlen, 1000);
		if (rc == -ETIMEDOUT || rc == -EAGAIN) {
			if (now_us() - last > FZ_STALL_US) {
				fprintf(stderr, "ibtrace_mad: %u requests neither answered nor timed out in %llu s\n",
					inflight, FZ_STALL_US / 1000000);
				st.lost += inflight;
				break;
			}
			continue;
		}
		if (rc < 0)
			fail(EXIT_ERROR, "umad receive failed: %s\n", strerror(-rc));
		last = now_us();
		fz_settle(&st, pend, npend, rbuf, tport, &inflight);
	}
	el = now_us() - t0;
	printf("seed=%lu\ntried=%lu\n", o->seed, seq);
	for (i = 0; i < FZ_NFATES; i++)
		printf("%s=%lu\n", fates[i], st.fate[i]);
	printf("exp_rx=%lu\nexp_stray=%lu\n", st.fate[FZ_AGENT], st.stray);
	for (i = 0; i < FZ_NVERDICTS; i++)
		printf("exp_%s=%lu\n", verdicts[i], st.verdict[i]);
	printf("answers=%lu\nsilences=%lu\nlost=%lu\nunexpected=%lu\nbad=%lu\n",
	       st.answers, st.silences, st.lost, st.unexpected, st.bad);
	printf("elapsed_ms=%llu\nmads_per_s=%llu\n", (unsigned long long)el / 1000,
	       (unsigned long long)(seq * 1000000ULL / (el ? el : 1)));
	free(pend);
	free(sbuf);
	free(rbuf);
	return st.bad || st.lost || st.unexpected;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.port = 1, .method = 0x01, .attr = IBTRACE_ATTR_CLASS_PORT_INFO,
		.class_version = IBTRACE_MGMT_CLASS_VERSION, .oui = IBTRACE_OUI,
		.timeout = 1000, .target_port = 1, .window = 32,
	};
	void *umad, *rbuf;
	int fd, agent, rc, roce;
	char path[256];
	uint32_t tid_lo;
	umad_port_t p;
	uint64_t t0;

	parse_args(argc, argv, &o);
	if (access("/dev/infiniband", F_OK))
		fail(EXIT_SKIP, "no /dev/infiniband: no RDMA device here\n");
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s", o.dev);
	if (access(path, F_OK))
		fail(EXIT_SKIP, "RDMA device %s does not exist\n", o.dev);
	if (umad_init() < 0)
		fail(EXIT_ERROR, "the umad interface is missing: is ib_umad loaded?\n");
	rc = umad_get_port(o.dev, o.port, &p);
	if (rc < 0)
		fail(EXIT_ERROR, "cannot read port %lu of %s: %s\n",
		     o.port, o.dev, strerror(-rc));
	fd = umad_open_port(o.dev, o.port);
	if (fd < 0)
		fail(EXIT_ERROR, "cannot open the umad device of %s port %lu (is ib_umad loaded?): %s\n",
		     o.dev, o.port, strerror(-fd));
	/* umad_size() is only final once the port is open (P_Key index ABI) */
	umad = calloc(1, umad_size() + MAD_SIZE);
	rbuf = calloc(1, umad_size() + MAD_SIZE);
	if (!umad || !rbuf)
		fail(EXIT_ERROR, "out of memory\n");
	roce = set_address(umad, &o, &p);
	umad_release_port(&p);
	agent = umad_register(fd, 0, 0, 0, NULL);	/* send-only agent */
	if (agent < 0)
		fail(EXIT_ERROR, "cannot register a umad agent: %s\n", strerror(errno));
	if (o.fuzz) {
		rc = run_fuzz(fd, agent, umad, &o, o.has_dgid && !roce);
		umad_close_port(fd);
		free(umad);
		free(rbuf);
		return rc ? EXIT_NO_ANSWER : EXIT_ANSWER;
	}
	if (getrandom(&tid_lo, sizeof(tid_lo), 0) != sizeof(tid_lo))
		tid_lo = getpid() ^ (uint32_t)now_us();
	build_mad(umad_get_mad(umad), &o, tid_lo);

	t0 = now_us();
	if (umad_send(fd, agent, umad, MAD_SIZE, o.timeout, o.retries) < 0)
		fail(EXIT_ERROR, "cannot send the MAD: %s\n", strerror(errno));
	/* The kernel retries; allow every attempt plus one second of slack. */
	wait_answer(fd, rbuf, tid_lo, t0 + (uint64_t)(o.retries + 1) * o.timeout * 1000 + 1000000);
	print_answer(umad_get_mad(rbuf), now_us() - t0);
	umad_close_port(fd);
	free(umad);
	free(rbuf);
	return EXIT_ANSWER;
}
