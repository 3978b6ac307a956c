// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_mad - send one raw vendor MAD of class 0x30 through
 * /dev/infiniband/umadN and print the answer as key=value lines, so that
 * shell selftests can check the in-kernel ibtrace agent (DESIGN §3).
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
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
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

#define MAD_SIZE	256
#define QP1_QKEY	0x80010000
/* Range-2 vendor MAD: MAD header (24), RMPP header (12), reserved, OUI */
#define OFF_STATUS	4
#define OFF_TID		8
#define OFF_ATTR	16
#define OFF_OUI		37
#define OFF_DATA	40
#define METHOD_RESP	0x80

struct opts {
	const char *dev;
	unsigned long port, dlid, method, attr, hops, class_version, oui;
	unsigned long timeout, retries, sgid_index;
	int has_dgid, has_hops, nroute;
	uint8_t dgid[16];
	uint8_t route[IBTRACE_SROUTE_MAX_HOPS];
};

static void __attribute__((noreturn, format(printf, 2, 3)))
fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ibtrace_mad: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (code == EXIT_USAGE)
		fputs("Try 'ibtrace_mad --help'.\n", stderr);
	exit(code);
}

static void usage(void)
{
	printf(
"Usage: ibtrace_mad -d DEV [-p PORT] (--dgid GID | --dlid LID) [--method M]\n"
"         [--attr A] [--hops N] [--route P1,P2,...] [--class-version V]\n"
"         [--oui X] [--timeout MS] [--retries N] [--sgid-index I]\n"
"Send one class 0x30 vendor MAD (default VendorGet(ClassPortInfo)) and print\n"
"the answer as key=value lines. Defaults: port 1, method 0x01, attr 0x0001,\n"
"class version 1, OUI 0x001405, timeout 1000 ms per attempt, 0 retries,\n"
"sgid index 0. --route fills the SourceRoute port vector; --hops (byte 1,\n"
"0..255) defaults to the number of --route entries. --dgid sends a GRH\n"
"(required on RoCE); on IB a remote --dgid also needs --dlid.\n"
"Exit: 0 answered (any status), 1 no answer, 2 usage, 3 device/umad error,\n"
"4 no /dev/infiniband or no such device (skip).\n");
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
		{ NULL, 0, NULL, 0 }
	};
	const struct { int c; unsigned long min, max, *val; } nums[] = {
		{ 'p', 1, 254, &o->port },	{ 'L', 1, 0xffff, &o->dlid },
		{ 'm', 0, 0xff, &o->method },	{ 'a', 0, 0xffff, &o->attr },
		{ 'H', 0, 0xff, &o->hops },	{ 'V', 0, 0xff, &o->class_version },
		{ 'o', 0, 0xffffff, &o->oui },	{ 't', 1, 3600000, &o->timeout },
		{ 'R', 0, 100, &o->retries },	{ 's', 0, 0xff, &o->sgid_index },
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
		mad[OFF_DATA + 1] = o->has_hops ? (int)o->hops : o->nroute;
		memcpy(mad + OFF_DATA + 2, o->route, o->nroute);
	}
}

static void set_address(void *umad, const struct opts *o, const umad_port_t *p)
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
		printf("actual_port=%u\nhops=%u\n", d[0], d[1]);
	else if (attr == IBTRACE_ATTR_CLASS_PORT_INFO)	/* CapMask2:27, RespTime:5 */
		printf("base_version=%u\nclass_version=%u\ncap_mask=0x%04x\nresp_time=%u\n",
		       d[0], d[1], get_be(d + 2, 2), get_be(d + 4, 4) & 0x1f);
	printf("rtt_us=%llu\n", (unsigned long long)rtt_us);
}

int main(int argc, char **argv)
{
	struct opts o = {
		.port = 1, .method = 0x01, .attr = IBTRACE_ATTR_CLASS_PORT_INFO,
		.class_version = IBTRACE_MGMT_CLASS_VERSION, .oui = IBTRACE_OUI,
		.timeout = 1000,
	};
	void *umad, *rbuf;
	int fd, agent, rc;
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
	set_address(umad, &o, &p);
	umad_release_port(&p);
	agent = umad_register(fd, 0, 0, 0, NULL);	/* send-only agent */
	if (agent < 0)
		fail(EXIT_ERROR, "cannot register a umad agent: %s\n", strerror(errno));
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
