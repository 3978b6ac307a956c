// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of the fabric model (fabric.c) and of the routes and credit loops
 * computed from it (route.c), on fabrics built here: a line of two
 * switches, each table fault on it, a chain of switches, a 2-level fat
 * tree, a ring, the model's file (round trip and malformed files), and a
 * fat tree of some 10,000 CAs for the time and memory it takes; and the
 * data-path proof (proof.c): the destinations it probes, their batches
 * and vectors, and the words of its verdicts.
 *
 * Run by "make test"; "tests/route -q" leaves the large fat tree out (for
 * valgrind). Exit status 0 when every check passes.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "audit_prom.h"
#include "fabric.h"
#include "merge.h"
#include "proof.h"
#include "prom.h"
#include "route.h"

#define N_ELEM(a)	(sizeof(a) / sizeof((a)[0]))

static int failures, checks;

/*
 * Allocation failures: the test is linked with ld's --wrap for malloc,
 * calloc and realloc (json-c's own allocations are not wrapped), and
 * fail_at = k makes the k-th allocation from now fail (0 the next one).
 */
static long fail_at = -1;

void *__real_malloc(size_t size);
void *__real_calloc(size_t nmemb, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t nmemb, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

static bool alloc_fails(void)
{
	if (fail_at < 0)
		return false;
	return fail_at-- == 0;
}

void *__wrap_malloc(size_t size)
{
	return alloc_fails() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t nmemb, size_t size)
{
	return alloc_fails() ? NULL : __real_calloc(nmemb, size);
}

void *__wrap_realloc(void *ptr, size_t size)
{
	return alloc_fails() ? NULL : __real_realloc(ptr, size);
}

/* One check: @ok, else "FAIL: " and the printf-style message. */
static void __attribute__((format(printf, 2, 3)))
check(int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	if (ok)
		return;
	failures++;
	fprintf(stderr, "tests/route.c: FAIL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define CHECK(cond)	check(!!(cond), "%s (line %d)", #cond, __LINE__)

/* A test cannot go on (out of memory while building a fabric). */
static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "tests/route.c: cannot go on: %s\n", what);
	exit(2);
}

/* Building fabrics */

static uint32_t add(struct ibt_fabric *f, uint64_t guid, uint8_t type,
		    uint8_t nports, const char *desc)
{
	struct ibt_fab_node *n = ibt_fabric_add(f, guid, type, nports);

	if (!n)
		die("ibt_fabric_add");
	snprintf(n->desc, sizeof(n->desc), "%s", desc);
	return f->nnodes - 1;
}

/* Port @p of node @n known, Active, with LID @lid and LMC @lmc. */
static void port_set(struct ibt_fabric *f, uint32_t n, uint8_t p, uint16_t lid,
		     uint8_t lmc)
{
	struct ibt_fab_port *x = &f->node[n].port[p];

	x->known = true;
	x->state = IBT_FAB_PORT_ACTIVE;
	x->phys_state = IBT_FAB_PHYS_LINKUP;
	x->lid = lid;
	x->lmc = lmc;
}

/* An Active link: both ports known and Active. */
static void wire(struct ibt_fabric *f, uint32_t a, uint8_t pa, uint32_t b, uint8_t pb)
{
	if (ibt_fabric_link(f, a, pa, b, pb))
		die("ibt_fabric_link");
	port_set(f, a, pa, f->node[a].port[pa].lid, f->node[a].port[pa].lmc);
	port_set(f, b, pb, f->node[b].port[pb].lid, f->node[b].port[pb].lmc);
}

/* The LFT of switch @n: @top + 1 entries of @ports. */
static void lft(struct ibt_fabric *f, uint32_t n, uint32_t top, const uint8_t *ports)
{
	if (ibt_fabric_set_lft(&f->node[n], top, ports))
		die("ibt_fabric_set_lft");
}

static void index_lids(struct ibt_fabric *f)
{
	if (ibt_fabric_index_lids(f) < 0)
		die("ibt_fabric_index_lids");
}

/* "1,3,1": a route's incoming-port vector */
static const char *in_ports_str(const struct ibt_route *r, char *buf, size_t len)
{
	uint8_t ports[IBT_ROUTE_MAX_HOPS];
	size_t n = ibt_route_in_ports(r, ports), i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%u", i ? "," : "", ports[i]);
	return buf;
}

/* "0:0>1 1:1>2 ...": a route's hops, node:in>out */
static const char *hops_str(const struct ibt_route *r, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < r->nhops && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%u:%u>%u", i ? " " : "",
			       r->hop[i].node, r->hop[i].in_port, r->hop[i].out_port);
	return buf;
}

/*
 * The line: C0 (src) - S1 - S2 - C1, C2 on S2, and C1's second port on
 * S2 too.
 *
 *   C0.1 - 1.S1.2 - 3.S2.1 - 1.C1
 *                    S2.2 - 1.C2
 *                    S2.4 - 2.C1
 *
 * LIDs: C0 1, S1 2, S2 3, C1 port 1 4-5 (LMC 1), C2 6, C1 port 2 8.
 */
enum { C0, S1, S2, C1, C2 };

static void build_line(struct ibt_fabric *f)
{
	static const uint8_t lft1[] = { 0xff, 1, 0, 2, 2, 2, 2, 0xff, 2 };
	static const uint8_t lft2[] = { 0xff, 3, 3, 0, 1, 1, 2, 0xff, 4 };

	ibt_fabric_init(f);
	add(f, 0xc0, IBT_FAB_CA, 1, "C0 HCA-1");
	add(f, 0x51, IBT_FAB_SWITCH, 4, "S1");
	add(f, 0x52, IBT_FAB_SWITCH, 4, "S2");
	add(f, 0xc1, IBT_FAB_CA, 2, "C1 HCA-1");
	add(f, 0xc2, IBT_FAB_CA, 1, "C2 HCA-1");
	port_set(f, C0, 1, 1, 0);
	port_set(f, S1, 0, 2, 0);
	port_set(f, S2, 0, 3, 0);
	port_set(f, C1, 1, 4, 1);
	port_set(f, C2, 1, 6, 0);
	port_set(f, C1, 2, 8, 0);
	wire(f, C0, 1, S1, 1);
	wire(f, S1, 2, S2, 3);
	wire(f, S2, 1, C1, 1);
	wire(f, S2, 2, C2, 1);
	wire(f, S2, 4, C1, 2);
	lft(f, S1, 8, lft1);
	lft(f, S2, 8, lft2);
	f->src = C0;
	f->src_port = 1;
	index_lids(f);
}

static void test_model(void)
{
	struct ibt_fabric f;
	uint8_t port = 99;
	uint32_t i;

	build_line(&f);
	CHECK(f.nnodes == 5);
	CHECK(ibt_fabric_find(&f, 0x52) == S2);
	CHECK(ibt_fabric_find(&f, 0xc2) == C2);
	CHECK(ibt_fabric_find(&f, 0x99) == IBT_FAB_NONE);
	CHECK(!ibt_fabric_add(&f, 0x51, IBT_FAB_SWITCH, 8));
	CHECK(!ibt_fabric_add(&f, 0x77, 4, 8));
	CHECK(f.nnodes == 5);
	/* links: range and both ends */
	CHECK(ibt_fabric_link(&f, 9, 1, S1, 3) == -1);
	CHECK(ibt_fabric_link(&f, S1, 0, S2, 2) == -1);
	CHECK(ibt_fabric_link(&f, S1, 5, S2, 2) == -1);
	CHECK(ibt_fabric_link(&f, C0, 2, S1, 3) == -1);
	CHECK(ibt_fabric_link(&f, S1, 3, S1, 3) == -1);
	CHECK(f.node[S1].port[2].peer == S2 && f.node[S1].port[2].peer_port == 3);
	CHECK(f.node[S2].port[3].peer == S1 && f.node[S2].port[3].peer_port == 2);
	CHECK(f.node[S2].port[0].peer == IBT_FAB_NONE);
	/* moving a link undoes the old one at its other end */
	CHECK(ibt_fabric_link(&f, S1, 4, S2, 3) == 0);
	CHECK(f.node[S1].port[2].peer == IBT_FAB_NONE);
	CHECK(f.node[S2].port[3].peer == S1 && f.node[S2].port[3].peer_port == 4);
	/* tables */
	CHECK(ibt_fabric_set_lft(&f.node[S1], IBT_FAB_LID_MAX + 1, NULL) == -1);
	CHECK(ibt_fabric_set_lft(&f.node[C0], 3, NULL) == -1);
	CHECK(f.node[S1].lft_top == 8 && f.node[S1].lft[4] == 2);
	/* LIDs: the whole LMC range, switches by port 0 */
	CHECK(ibt_fabric_lid_owner(&f, 5, &port) == C1 && port == 1);
	CHECK(ibt_fabric_lid_owner(&f, 8, &port) == C1 && port == 2);
	CHECK(ibt_fabric_lid_owner(&f, 3, &port) == S2 && port == 0);
	CHECK(ibt_fabric_lid_owner(&f, 7, NULL) == IBT_FAB_NONE);
	CHECK(ibt_fabric_lid_owner(&f, 0, NULL) == IBT_FAB_NONE);
	CHECK(ibt_fabric_lid_owner(&f, 0xc000, NULL) == IBT_FAB_NONE);
	/* the same by scanning, once the index is dropped */
	add(&f, 0xc3, IBT_FAB_CA, 1, "C3");
	CHECK(!f.lid_idx);
	for (i = 0; i <= 9; i++) {
		uint32_t a = ibt_fabric_lid_owner(&f, i, &port);

		index_lids(&f);
		check(a == ibt_fabric_lid_owner(&f, i, NULL),
		      "LID %u: the scan and the index agree", i);
		free(f.lid_idx);
		f.lid_idx = NULL;
	}
	/* a duplicate LID: counted, the first port keeps it */
	port_set(&f, 5, 1, 6, 0);
	CHECK(ibt_fabric_index_lids(&f) == 1);
	CHECK(ibt_fabric_lid_owner(&f, 6, NULL) == C2);
	ibt_fabric_free(&f);
	CHECK(f.nnodes == 0 && !f.node && !f.guid_idx && !f.lid_idx);

	/* nothing */
	{
		struct ibt_cdg_stats st = { 1, 1, 1 };
		struct ibt_route r;
		uint16_t dlid;

		ibt_fabric_init(&f);
		CHECK(ibt_route_dests(&f, &dlid, 1) == 0);
		CHECK(ibt_route_compute(&f, 1, &r) == -1);
		CHECK(ibt_cdg_loops(&f, NULL, 0, &st) == 0 && !st.channels && !st.deps);
		CHECK(ibt_fabric_find(&f, 0) == IBT_FAB_NONE);
		CHECK(ibt_fabric_lid_owner(&f, 1, NULL) == IBT_FAB_NONE);
	}

	/* many nodes: the GUID index grows */
	ibt_fabric_init(&f);
	for (i = 0; i < 5000; i++)
		add(&f, 0x0002c90300000000ULL + i * 0x100, i % 3 + 1, 2, "");
	for (i = 0; i < 5000; i++) {
		if (ibt_fabric_find(&f, 0x0002c90300000000ULL + i * 0x100) != i)
			break;
	}
	check(i == 5000, "5000 nodes found by GUID (stopped at %u)", i);
	CHECK(ibt_fabric_find(&f, 0x0002c90300000001ULL) == IBT_FAB_NONE);
	ibt_fabric_free(&f);
}

/* Routes on the line, from C0 and from S1 */
struct route_case {
	uint32_t src;
	uint8_t src_port;
	uint16_t dlid;
	uint8_t verdict;
	uint32_t dest;
	uint8_t dest_port;
	const char *hops;
	const char *in_ports;
};

static const struct route_case line_routes[] = {
	{ C0, 1, 2, IBT_ROUTE_OK, S1, 0, "0:0>1 1:1>0", "1" },
	{ C0, 1, 3, IBT_ROUTE_OK, S2, 0, "0:0>1 1:1>2 2:3>0", "1,3" },
	{ C0, 1, 4, IBT_ROUTE_OK, C1, 1, "0:0>1 1:1>2 2:3>1 3:1>0", "1,3,1" },
	{ C0, 1, 5, IBT_ROUTE_OK, C1, 1, "0:0>1 1:1>2 2:3>1 3:1>0", "1,3,1" },
	{ C0, 1, 6, IBT_ROUTE_OK, C2, 1, "0:0>1 1:1>2 2:3>2 4:1>0", "1,3,1" },
	{ C0, 1, 8, IBT_ROUTE_OK, C1, 2, "0:0>1 1:1>2 2:3>4 3:2>0", "1,3,2" },
	{ C0, 1, 1, IBT_ROUTE_OK, C0, 1, "0:0>0", "" },
	/* nobody has LID 7: followed all the same, S1 has no entry */
	{ C0, 1, 7, IBT_ROUTE_HOLE, IBT_FAB_NONE, 0, "0:0>1 1:1>0", "1" },
	/* from a switch: the route starts at its LFT */
	{ S1, 0, 4, IBT_ROUTE_OK, C1, 1, "1:0>2 2:3>1 3:1>0", "3,1" },
	{ S1, 0, 2, IBT_ROUTE_OK, S1, 0, "1:0>0", "" },
	{ S1, 0, 1, IBT_ROUTE_OK, C0, 1, "1:0>1 0:1>0", "1" },
	/* from C1's second port: the packet leaves by port 2 */
	{ C1, 2, 4, IBT_ROUTE_OK, C1, 1, "3:0>2 2:4>1 3:1>0", "4,1" },
	{ C1, 2, 8, IBT_ROUTE_OK, C1, 2, "3:0>0", "" },
};

static void test_line_routes(void)
{
	struct ibt_fabric f;
	struct ibt_route r;
	uint16_t dlids[16];
	char buf[512];
	size_t i, n;

	build_line(&f);
	for (i = 0; i < N_ELEM(line_routes); i++) {
		const struct route_case *c = &line_routes[i];

		f.src = c->src;
		f.src_port = c->src_port;
		CHECK(ibt_route_compute(&f, c->dlid, &r) == 0);
		check(r.verdict == c->verdict, "route %zu (DLID %u): verdict %s, want %s", i,
		      c->dlid, ibt_route_verdict_str(r.verdict), ibt_route_verdict_str(c->verdict));
		check(r.dest == c->dest && r.dest_port == c->dest_port,
		      "route %zu: dest %u port %u, want %u port %u", i, r.dest, r.dest_port,
		      c->dest, c->dest_port);
		check(!strcmp(hops_str(&r, buf, sizeof(buf)), c->hops),
		      "route %zu: hops \"%s\", want \"%s\"", i, buf, c->hops);
		check(!strcmp(in_ports_str(&r, buf, sizeof(buf)), c->in_ports),
		      "route %zu: in ports \"%s\", want \"%s\"", i, buf, c->in_ports);
		if (c->verdict == IBT_ROUTE_OK)
			check(r.at_node == IBT_FAB_NONE, "route %zu: no fault", i);
	}

	/* destinations: every owned LID but the source port's, in order */
	f.src = C0;
	f.src_port = 1;
	n = ibt_route_dests(&f, dlids, N_ELEM(dlids));
	check(n == 6 && dlids[0] == 2 && dlids[1] == 3 && dlids[2] == 4 && dlids[3] == 5 &&
	      dlids[4] == 6 && dlids[5] == 8, "dests from C0: %zu", n);
	CHECK(ibt_route_dests(&f, dlids, 2) == 6 && dlids[1] == 3);
	f.src = S1;
	f.src_port = 0;
	n = ibt_route_dests(&f, dlids, N_ELEM(dlids));
	check(n == 6 && dlids[0] == 1 && dlids[1] == 3, "dests from S1: %zu", n);
	f.src = C1;
	f.src_port = 1;
	n = ibt_route_dests(&f, dlids, N_ELEM(dlids));
	check(n == 5 && dlids[2] == 3 && dlids[3] == 6 && dlids[4] == 8, "dests from C1: %zu", n);
	for (i = 0; i < n; i++) {
		CHECK(ibt_route_compute(&f, dlids[i], &r) == 0);
		check(r.verdict == IBT_ROUTE_OK, "C1 to %u: %s", dlids[i],
		      ibt_route_verdict_str(r.verdict));
	}
	f.src = 99;
	CHECK(ibt_route_compute(&f, 4, &r) == -1);
	r.nhops = 0;
	CHECK(ibt_route_in_ports(&r, (uint8_t *)buf) == 0);
	ibt_fabric_free(&f);
}

/* Faults on the line, each from C0 */
static void no_table(struct ibt_fabric *f)
{
	free(f->node[S2].lft);
	f->node[S2].lft = NULL;
}

static void short_table(struct ibt_fabric *f)
{
	static const uint8_t t[] = { 0xff, 3, 3, 0 };

	lft(f, S2, 3, t);
}

static void exit_down(struct ibt_fabric *f)
{
	f->node[S2].port[1].state = IBT_FAB_PORT_DOWN;
}

/* LID 7, which nobody has, routed as LID 4 (to C1's port 1) */
static void route_7_to_c1(struct ibt_fabric *f)
{
	f->node[S1].lft[7] = f->node[S1].lft[4];
	f->node[S2].lft[7] = f->node[S2].lft[4];
}

/* and the last link of that route down (the LID's port gone with it) */
static void route_7_down(struct ibt_fabric *f)
{
	route_7_to_c1(f);
	exit_down(f);
}

static void source_init(struct ibt_fabric *f)
{
	f->node[C0].port[1].state = IBT_FAB_PORT_INIT;
}

static void source_gone(struct ibt_fabric *f)
{
	f->src_port = 2;
}

struct fault_case {
	const char *what;
	void (*mutate)(struct ibt_fabric *f);	/* or an LFT entry: */
	uint32_t sw;
	uint8_t port;		/* lft[4] of @sw when @sw */
	uint16_t dlid;
	uint8_t verdict;
	uint32_t at_node;
	uint8_t at_port;
	uint8_t nhops;
};

static const struct fault_case faults[] = {
	{ "entry ff", NULL, S1, 0xff, 4, IBT_ROUTE_HOLE, S1, 0xff, 2 },
	{ "entry past NumPorts", NULL, S1, 9, 4, IBT_ROUTE_HOLE, S1, 9, 2 },
	{ "DLID past lft_top", short_table, 0, 0, 4, IBT_ROUTE_HOLE, S2, 0xff, 3 },
	{ "no table", no_table, 0, 0, 4, IBT_ROUTE_HOLE, S2, 0xff, 3 },
	{ "DLID 7 unset", NULL, 0, 0, 7, IBT_ROUTE_HOLE, S1, 0xff, 2 },
	{ "DLID 7 nobody has, routed to C1", route_7_to_c1, 0, 0, 7,
	  IBT_ROUTE_NO_OWNER, C1, 1, 4 },
	{ "DLID 7 routed into a port that is down", route_7_down, 0, 0, 7,
	  IBT_ROUTE_DEAD_END, S2, 1, 3 },
	{ "exit port Down", exit_down, 0, 0, 4, IBT_ROUTE_DEAD_END, S2, 1, 3 },
	{ "exit port without link", NULL, S1, 3, 4, IBT_ROUTE_DEAD_END, S1, 3, 2 },
	{ "source port Init", source_init, 0, 0, 4, IBT_ROUTE_DEAD_END, C0, 1, 1 },
	{ "source port missing", source_gone, 0, 0, 4, IBT_ROUTE_DEAD_END, C0, 2, 1 },
	{ "S2 back to S1", NULL, S2, 3, 4, IBT_ROUTE_LOOP, S1, 2, 4 },
	{ "to the wrong CA", NULL, S2, 2, 4, IBT_ROUTE_MISDELIVERED, C2, 1, 4 },
	{ "to the owner's other port", NULL, S2, 4, 4, IBT_ROUTE_MISDELIVERED, C1, 2, 4 },
	{ "to port 0 of a switch", NULL, S2, 0, 4, IBT_ROUTE_MISDELIVERED, S2, 0, 3 },
	{ "back to the source", NULL, S1, 1, 4, IBT_ROUTE_MISDELIVERED, C0, 1, 3 },
};

static void test_faults(void)
{
	struct ibt_route r;
	size_t i;

	for (i = 0; i < N_ELEM(faults); i++) {
		const struct fault_case *c = &faults[i];
		struct ibt_fabric f;

		build_line(&f);
		if (c->mutate)
			c->mutate(&f);
		else if (c->sw)
			f.node[c->sw].lft[4] = c->port;
		CHECK(ibt_route_compute(&f, c->dlid, &r) == 0);
		check(r.verdict == c->verdict && r.at_node == c->at_node &&
		      r.at_port == c->at_port && r.nhops == c->nhops,
		      "%s: %s at %u port %u, %u hops; want %s at %u port %u, %u hops", c->what,
		      ibt_route_verdict_str(r.verdict), r.at_node, r.at_port, r.nhops,
		      ibt_route_verdict_str(c->verdict), c->at_node, c->at_port, c->nhops);
		ibt_fabric_free(&f);
	}
	CHECK(!strcmp(ibt_route_verdict_str(IBT_ROUTE_NO_OWNER), "no_owner"));
	CHECK(!strcmp(ibt_route_verdict_str(99), "unknown"));
}

/*
 * A chain: CA "head" (node 0, LID 1) - @len switches (node i, LID 100 + i;
 * port 1 towards the head, 2 towards the tail) - CA "tail" (LID 2).
 */
static void build_chain(struct ibt_fabric *f, uint32_t len)
{
	static const uint8_t t[] = { 0xff, 1, 2 };
	uint32_t i, last;

	ibt_fabric_init(f);
	add(f, 1, IBT_FAB_CA, 1, "head");
	port_set(f, 0, 1, 1, 0);
	for (i = 1; i <= len; i++) {
		add(f, 0x100 + i, IBT_FAB_SWITCH, 2, "link");
		port_set(f, i, 0, 100 + i, 0);
		wire(f, i - 1, i == 1 ? 1 : 2, i, 1);
		lft(f, i, 2, t);
	}
	last = add(f, 2, IBT_FAB_CA, 1, "tail");
	port_set(f, last, 1, 2, 0);
	wire(f, last - 1, 2, last, 1);
	f->src_port = 1;
	index_lids(f);
}

/* A chain CA - @len switches - CA: more than 63 switches is too long. */
static void test_chain(void)
{
	static const struct {
		uint32_t len;
		uint8_t verdict;
		uint8_t nhops;
	} chains[] = {
		{ 62, IBT_ROUTE_OK, 64 },
		{ 63, IBT_ROUTE_OK, 65 },
		{ 64, IBT_ROUTE_TOO_LONG, 65 },
		{ 70, IBT_ROUTE_TOO_LONG, 65 },
	};
	uint8_t ports[IBT_ROUTE_MAX_HOPS];
	size_t c;

	for (c = 0; c < N_ELEM(chains); c++) {
		struct ibt_fabric f;
		struct ibt_route r;

		build_chain(&f, chains[c].len);
		CHECK(ibt_route_compute(&f, 2, &r) == 0);
		check(r.verdict == chains[c].verdict && r.nhops == chains[c].nhops,
		      "chain of %u switches: %s, %u hops", chains[c].len,
		      ibt_route_verdict_str(r.verdict), r.nhops);
		if (r.verdict == IBT_ROUTE_TOO_LONG)
			check(r.at_node == IBT_ROUTE_MAX_HOPS && r.at_port == 2,
			      "chain of %u: too long at %u port %u", chains[c].len,
			      r.at_node, r.at_port);
		else
			check(ibt_route_in_ports(&r, ports) == chains[c].len + 1u &&
			      ports[0] == 1 && ports[chains[c].len] == 1,
			      "chain of %u: in ports", chains[c].len);
		ibt_fabric_free(&f);
	}
}

/*
 * Fat trees: P pods of L leaves and M mids; H hosts on each leaf; U
 * spines in each of M groups, spine group j joining the mids j of the
 * pods (none when U is 0: a 2-level tree, one pod).
 *
 * Nodes, in this order: the hosts (p, l, h), the leaves (p, l), the mids
 * (p, j), the spines (j, k); node i has GUID 0x1000 + i and LID i + 1.
 * Ports: a host's 1 to leaf port h + 1; a leaf's 1..H to its hosts, H + 1
 * + j to mid j's port l + 1; a mid's L + 1 + k to spine (j, k)'s port
 * p + 1.
 */
struct ft {
	uint32_t P, L, H, M, U;
	uint32_t hosts, leaves, mids, spines;
};

enum { FT_HOST, FT_LEAF, FT_MID, FT_SPINE };

/* What node @n is, and its coordinates (a, b, c). */
static int ft_what(const struct ft *t, uint32_t n, uint32_t *a, uint32_t *b, uint32_t *c)
{
	if (n < t->leaves) {
		*a = n / (t->L * t->H);
		*b = n / t->H % t->L;
		*c = n % t->H;
		return FT_HOST;
	}
	if (n < t->mids) {
		n -= t->leaves;
		*a = n / t->L;
		*b = n % t->L;
		return FT_LEAF;
	}
	if (n < t->spines) {
		n -= t->mids;
		*a = n / t->M;
		*b = n % t->M;
		return FT_MID;
	}
	n -= t->spines;
	*a = n / t->U;
	*b = n % t->U;
	return FT_SPINE;
}

/* The exit port of switch @s towards node @dn: up, then down. */
static uint8_t ft_port(const struct ft *t, uint32_t s, uint32_t dn)
{
	uint32_t p, l, x, q, m, i, k;
	uint32_t d = dn + 1;
	int st = ft_what(t, s, &p, &l, &x);
	int dt = ft_what(t, dn, &q, &m, &i);

	if (s == dn)
		return 0;
	switch (st) {
	case FT_LEAF:
		if (dt == FT_HOST && q == p && m == l)
			return i + 1;
		if (dt == FT_HOST || dt == FT_LEAF)
			return t->H + 1 + d % t->M;
		/* a mid (q, m) or a spine (m, k): through our mid m */
		return t->H + 1 + (dt == FT_MID ? m : q);
	case FT_MID:
		/* (p, l) is the mid's pod and index */
		if ((dt == FT_HOST || dt == FT_LEAF) && q == p)
			return m + 1;
		if (dt == FT_HOST || dt == FT_LEAF)
			return t->L + 1 + d % t->U;
		if (dt == FT_MID && m == l)
			return t->L + 1 + d % t->U;
		if (dt == FT_SPINE && q == l)
			return t->L + 1 + m;
		/* another group: down to a leaf, up to the right mid */
		return 1 + d % t->L;
	default:
		/* spine (p, l): group p, index l */
		k = dt == FT_SPINE ? d % t->P : q;
		return k + 1;
	}
}

static void ft_build(struct ibt_fabric *f, struct ft *t, uint32_t P, uint32_t L,
		     uint32_t H, uint32_t M, uint32_t U)
{
	uint32_t n, total, a, b, c;
	uint8_t *buf;

	t->P = P;
	t->L = L;
	t->H = H;
	t->M = M;
	t->U = U;
	t->leaves = P * L * H;
	t->mids = t->leaves + P * L;
	t->spines = t->mids + P * M;
	total = t->spines + M * U;
	ibt_fabric_init(f);
	for (n = 0; n < total; n++) {
		int w = ft_what(t, n, &a, &b, &c);
		uint8_t nports = w == FT_HOST ? 1 : w == FT_LEAF ? H + M :
				 w == FT_MID ? L + U : P;

		add(f, 0x1000 + n, w == FT_HOST ? IBT_FAB_CA : IBT_FAB_SWITCH, nports, "ft");
		port_set(f, n, w == FT_HOST ? 1 : 0, n + 1, 0);
	}
	for (n = 0; n < total; n++) {
		int w = ft_what(t, n, &a, &b, &c);

		if (w == FT_HOST)
			wire(f, n, 1, t->leaves + a * L + b, c + 1);
		else if (w == FT_LEAF)
			for (c = 0; c < M; c++)
				wire(f, n, H + 1 + c, t->mids + a * M + c, b + 1);
		else if (w == FT_MID)
			for (c = 0; c < U; c++)
				wire(f, n, L + 1 + c, t->spines + b * U + c, a + 1);
	}
	buf = malloc(total + 1);
	if (!buf)
		die("malloc");
	buf[0] = IBT_FAB_NO_PORT;
	for (n = t->leaves; n < total; n++) {
		for (c = 0; c < total; c++)
			buf[c + 1] = ft_port(t, n, c);
		lft(f, n, total, buf);
	}
	free(buf);
	f->src = 0;
	f->src_port = 1;
	index_lids(f);
}

/* Routes from @src (port 1) to every destination: how many are OK. */
static size_t routes_ok(struct ibt_fabric *f, uint32_t src, size_t *total)
{
	static uint16_t dlids[IBT_FAB_LID_MAX + 1];
	struct ibt_route r;
	size_t n, i, ok = 0;

	f->src = src;
	f->src_port = 1;
	n = ibt_route_dests(f, dlids, N_ELEM(dlids));
	for (i = 0; i < n; i++)
		ok += !ibt_route_compute(f, dlids[i], &r) && r.verdict == IBT_ROUTE_OK;
	*total = n;
	return ok;
}

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Growing array of 64-bit keys */
struct keys {
	uint64_t *k;
	size_t n, cap;
};

static void key_add(struct keys *ks, uint64_t key)
{
	if (ks->n == ks->cap) {
		size_t cap = ks->cap ? 2 * ks->cap : 1024;
		uint64_t *k = realloc(ks->k, sizeof(*k) * cap);

		if (!k)
			die("realloc");
		ks->k = k;
		ks->cap = cap;
	}
	ks->k[ks->n++] = key;
}

/* The dependencies route @r makes: each channel into a switch, the next. */
static void route_deps(const struct ibt_fabric *f, const struct ibt_route *r,
		       struct keys *ks)
{
	size_t j;

	for (j = 1; j < r->nhops; j++) {
		const struct ibt_route_hop *a = &r->hop[j - 1], *b = &r->hop[j];
		const struct ibt_fab_port *o;

		if (!b->out_port || b->out_port > f->node[b->node].nports)
			continue;
		o = &f->node[b->node].port[b->out_port];
		if (o->peer == IBT_FAB_NONE || o->state != IBT_FAB_PORT_ACTIVE)
			continue;
		key_add(ks, (uint64_t)a->node << 40 | (uint64_t)a->out_port << 32 |
			    b->node << 8 | b->out_port);
	}
}

/*
 * The dependencies of the CDG counted the long way: every route from
 * every Active linked CA or router port to every LID its node does not
 * own, each pair of channels it holds in turn at a switch, deduplicated.
 * For models without forwarding loops (a route stops where it meets a
 * switch again, the CDG goes on).
 */
static size_t deps_brute(struct ibt_fabric *f)
{
	static uint16_t dlids[IBT_FAB_LID_MAX + 1];
	uint32_t src = f->src, n, p;
	uint8_t src_port = f->src_port;
	struct keys ks = { 0 };
	struct ibt_route r;
	size_t i, j, nd;

	for (n = 0; n < f->nnodes; n++) {
		for (p = 1; p <= f->node[n].nports; p++) {
			const struct ibt_fab_port *x = &f->node[n].port[p];

			if (f->node[n].type == IBT_FAB_SWITCH || x->peer == IBT_FAB_NONE ||
			    x->state != IBT_FAB_PORT_ACTIVE)
				continue;
			f->src = n;
			f->src_port = p;
			nd = ibt_route_dests(f, dlids, N_ELEM(dlids));
			for (i = 0; i < nd; i++) {
				if (ibt_fabric_lid_owner(f, dlids[i], NULL) != n &&
				    !ibt_route_compute(f, dlids[i], &r))
					route_deps(f, &r, &ks);
			}
		}
	}
	qsort(ks.k, ks.n, sizeof(*ks.k), key_cmp);
	for (i = 0, j = 0; i < ks.n; i++) {
		if (!i || ks.k[i] != ks.k[i - 1])
			j++;
	}
	free(ks.k);
	f->src = src;
	f->src_port = src_port;
	return j;
}

/* The CDG's dependencies are those of the routes, no more, no fewer. */
static void test_cdg_deps(void)
{
	struct ibt_cdg_stats st;
	struct ibt_fabric f;
	struct ft t;
	size_t want;

	build_line(&f);
	CHECK(ibt_cdg_loops(&f, NULL, 0, &st) == 0);
	want = deps_brute(&f);
	check(st.deps == want && want > 0, "line: %zu dependencies, routes %zu", st.deps, want);
	/* faults cut routes short: hole, dead end, misdelivery */
	f.node[S2].lft[4] = 0xff;
	f.node[S2].lft[6] = 4;
	f.node[S1].port[2].state = IBT_FAB_PORT_DOWN;
	f.node[S1].lft[3] = 1;
	CHECK(ibt_cdg_loops(&f, NULL, 0, &st) == 0);
	want = deps_brute(&f);
	check(st.deps == want, "line with faults: %zu dependencies, routes %zu", st.deps, want);
	ibt_fabric_free(&f);

	ft_build(&f, &t, 2, 4, 2, 2, 2);
	CHECK(ibt_cdg_loops(&f, NULL, 0, &st) == 0);
	want = deps_brute(&f);
	check(st.deps == want && st.loops == 0, "3-level fat tree: %zu dependencies, routes %zu",
	      st.deps, want);
	ibt_fabric_free(&f);
	ft_build(&f, &t, 3, 3, 3, 3, 2);
	CHECK(ibt_cdg_loops(&f, NULL, 0, &st) == 0);
	want = deps_brute(&f);
	check(st.deps == want && st.loops == 0, "3-level fat tree: %zu dependencies, routes %zu",
	      st.deps, want);
	ibt_fabric_free(&f);
}

static void test_fat_tree(void)
{
	struct ibt_cdg_cycle cy[4];
	struct ibt_cdg_stats st;
	struct ibt_fabric f;
	struct ft t;
	size_t ok, n;
	uint32_t h;

	/* 4 leaves x 2 spines, 2 hosts a leaf */
	ft_build(&f, &t, 1, 4, 2, 2, 0);
	CHECK(f.nnodes == 14);
	for (h = 0; h < t.leaves; h++) {
		ok = routes_ok(&f, h, &n);
		check(ok == 13 && n == 13, "fat tree: %zu of %zu routes from host %u OK", ok, n, h);
	}
	CHECK(ibt_cdg_loops(&f, cy, N_ELEM(cy), &st) == 0);
	check(st.loops == 0 && st.channels == 32 && st.deps > 0,
	      "fat tree: %zu loops, %zu channels, %zu deps", st.loops, st.channels, st.deps);
	ibt_fabric_free(&f);
}

/*
 * A ring of 4 switches S0..S3 (nodes 0..3), CA Ci (node 4 + i) on port 1
 * of Si, port 2 to the next switch clockwise (its port 3). @shortest:
 * shortest paths, ties clockwise; else as if the link S3 - S0 were not
 * there (up/down with S0 at one end).
 */
static void build_ring(struct ibt_fabric *f, bool shortest)
{
	uint8_t t[9];
	uint32_t i, k;

	ibt_fabric_init(f);
	for (i = 0; i < 4; i++) {
		add(f, 0x50 + i, IBT_FAB_SWITCH, 4, "ring switch");
		port_set(f, i, 0, 5 + i, 0);
	}
	for (i = 0; i < 4; i++) {
		add(f, 0xc0 + i, IBT_FAB_CA, 1, "ring CA");
		port_set(f, 4 + i, 1, 1 + i, 0);
		wire(f, i, 1, 4 + i, 1);
		wire(f, i, 2, (i + 1) % 4, 3);
	}
	for (i = 0; i < 4; i++) {
		t[0] = IBT_FAB_NO_PORT;
		for (k = 0; k < 4; k++) {
			uint32_t cw = (k + 4 - i) % 4;
			uint8_t p;

			if (k == i)
				p = 0;
			else if (shortest)
				p = cw <= 2 ? 2 : 3;
			else
				p = k > i ? 2 : 3;
			t[1 + k] = p ? p : 1;	/* CA k */
			t[5 + k] = p;		/* switch k */
		}
		lft(f, i, 8, t);
	}
	f->src = 4;
	f->src_port = 1;
	index_lids(f);
}

static void test_ring(void)
{
	struct ibt_cdg_cycle cy[4];
	struct ibt_cdg_stats st;
	struct ibt_fabric f;
	size_t ok, n;
	uint32_t i;
	int got;

	build_ring(&f, true);
	CHECK(ibt_cdg_loops(&f, NULL, 0, &st) == 0 && st.deps == deps_brute(&f));
	for (i = 4; i < 8; i++) {
		ok = routes_ok(&f, i, &n);
		check(ok == 7 && n == 7, "ring: %zu of %zu routes from C%u OK", ok, n, i - 4);
	}
	got = ibt_cdg_loops(&f, cy, N_ELEM(cy), &st);
	check(got == 1 && st.loops == 1 && st.channels == 16,
	      "ring: %d cycles, %zu loops, %zu channels", got, st.loops, st.channels);
	check(cy[0].len == 4 && cy[0].scc_size == 4, "ring: cycle of %u, component of %u",
	      cy[0].len, cy[0].scc_size);
	for (i = 0; i < 4 && i < cy[0].len; i++)
		check(cy[0].chan[i].node == i && cy[0].chan[i].port == 2,
		      "ring: channel %u is S%u port %u, want S%u port 2", i,
		      cy[0].chan[i].node, cy[0].chan[i].port, i);
	CHECK(ibt_cdg_loops(&f, cy, 0, &st) == 0 && st.loops == 1);
	/* without the LID index: the same */
	free(f.lid_idx);
	f.lid_idx = NULL;
	CHECK(ibt_cdg_loops(&f, cy, N_ELEM(cy), NULL) == 1 && cy[0].len == 4);
	ibt_fabric_free(&f);

	build_ring(&f, false);
	for (i = 4; i < 8; i++) {
		ok = routes_ok(&f, i, &n);
		check(ok == 7 && n == 7, "line ring: %zu of %zu routes from C%u OK", ok, n, i - 4);
	}
	got = ibt_cdg_loops(&f, cy, N_ELEM(cy), &st);
	check(got == 0 && st.loops == 0 && st.deps > 0, "line ring: %d cycles, %zu loops", got,
	      st.loops);

	/*
	 * S4 and S5 off S0's port 4, joined by two links, forward C0's LID
	 * round and round; S0 sends them nothing. No CA's traffic enters
	 * the circle: no credit loop, until C4 on S5 is Active.
	 */
	add(&f, 0x54, IBT_FAB_SWITCH, 3, "S4");
	add(&f, 0x55, IBT_FAB_SWITCH, 3, "S5");
	add(&f, 0xc4, IBT_FAB_CA, 1, "C4");
	wire(&f, 0, 4, 8, 3);
	wire(&f, 8, 1, 9, 1);
	wire(&f, 8, 2, 9, 2);
	wire(&f, 9, 3, 10, 1);
	f.node[10].port[1].state = IBT_FAB_PORT_DOWN;
	lft(&f, 8, 1, NULL);
	lft(&f, 9, 1, NULL);
	f.node[8].lft[1] = 1;
	f.node[9].lft[1] = 2;
	index_lids(&f);
	got = ibt_cdg_loops(&f, cy, N_ELEM(cy), &st);
	check(got == 0 && st.loops == 0 && st.channels == 16 + 7,
	      "circle without traffic: %d cycles, %zu channels", got, st.channels);
	f.node[10].port[1].state = IBT_FAB_PORT_ACTIVE;
	got = ibt_cdg_loops(&f, cy, N_ELEM(cy), &st);
	check(got == 1 && cy[0].len == 2 && cy[0].chan[0].node == 8 && cy[0].chan[0].port == 1 &&
	      cy[0].chan[1].node == 9 && cy[0].chan[1].port == 2,
	      "circle with C4's traffic: %d cycles, the first of %u", got, cy[0].len);
	ibt_fabric_free(&f);
}

/* Two models are the same, field by field; the first difference in @why. */
static bool fabric_same(const struct ibt_fabric *a, const struct ibt_fabric *b,
			char *why, size_t len)
{
	uint32_t i, p;

	if (a->nnodes != b->nnodes || a->src != b->src || a->src_port != b->src_port) {
		snprintf(why, len, "nnodes %u/%u, src %u/%u port %u/%u", a->nnodes, b->nnodes,
			 a->src, b->src, a->src_port, b->src_port);
		return false;
	}
	for (i = 0; i < a->nnodes; i++) {
		const struct ibt_fab_node *x = &a->node[i], *y = &b->node[i];

		if (x->guid != y->guid || x->type != y->type || x->nports != y->nports ||
		    strcmp(x->desc, y->desc) || x->lft_top != y->lft_top ||
		    !x->lft != !y->lft || (x->lft && memcmp(x->lft, y->lft, x->lft_top + 1))) {
			snprintf(why, len, "node %u", i);
			return false;
		}
		for (p = 0; p <= x->nports; p++) {
			const struct ibt_fab_port *u = &x->port[p], *v = &y->port[p];

			if (u->known != v->known || u->state != v->state ||
			    u->phys_state != v->phys_state || u->lmc != v->lmc ||
			    u->lid != v->lid || u->peer != v->peer ||
			    u->peer_port != v->peer_port) {
				snprintf(why, len, "node %u port %u", i, p);
				return false;
			}
		}
	}
	return true;
}

/* Save @f, load it back, compare; the file's size in *@size. */
static void round_trip(const struct ibt_fabric *f, const char *what, long *size)
{
	struct ibt_fabric g;
	char err[256], why[128];
	FILE *tmp = tmpfile();

	if (!tmp)
		die("tmpfile");
	check(ibt_fabric_save(f, tmp) == 0, "%s: saved", what);
	if (size)
		*size = ftell(tmp);
	rewind(tmp);
	check(ibt_fabric_load(&g, tmp, err, sizeof(err)) == 0, "%s: loaded (%s)", what, err);
	check(fabric_same(f, &g, why, sizeof(why)), "%s: the same after the round trip (%s)",
	      what, why);
	check(g.lid_idx != NULL, "%s: LID index built", what);
	ibt_fabric_free(&g);
	fclose(tmp);
}

/* The malformed files, written with ' for " */
struct bad_file {
	const char *text;
	const char *want;
};

#define NODE_SW	"{'guid':'0x10','type':'switch','ports':4,'lft_top':2,'lft':'ff0100'," \
		"'port':[{'num':0,'state':4,'phys':5,'lid':2,'lmc':0}," \
		"{'num':1,'state':4,'phys':5,'lid':0,'lmc':0,'peer':'0x20','peer_port':1}]}"
#define NODE_CA	"{'guid':'0x20','type':'ca','ports':1,'desc':'h1 mlx5_0'," \
		"'port':[{'num':1,'state':4,'phys':5,'lid':1,'lmc':0,'peer':'0x10','peer_port':1}]}"
#define HEAD	"{'format':'ibtrace-fabric','version':1,'source':{'guid':'0x20','port':1},"
#define GOOD	HEAD "'nodes':[" NODE_SW "," NODE_CA "]}"

static const struct bad_file bad_files[] = {
	{ "", "the file is empty" },
	{ "[]", "not an ibtrace fabric file" },
	{ "{'format':'ibdiag','version':1,'nodes':[]}", "not an ibtrace fabric file" },
	{ "{'format':'ibtrace-fabric','version':2,'nodes':[]}", "version 2 is not known" },
	{ "{'format':'ibtrace-fabric','nodes':[]}", "the file has no version" },
	{ "{'format':'ibtrace-fabric','version':1,'nodes':[", "the file ends inside its JSON" },
	{ "{'format':'ibtrace-fabric' 'version':1}", "not valid JSON" },
	{ "{'format':'ibtrace-fabric','version':1,'nodes':[]} x",
	  "text after the JSON at offset 51" },
	{ "{'format':'ibtrace-fabric','version':1}", "the file has no nodes array" },
	{ HEAD "'nodes':[" NODE_SW "," NODE_SW "]}",
	  "node 1 (0x0000000000000010): its GUID is node 0's too" },
	{ HEAD "'nodes':[{'guid':'0x10','type':'switch','ports':4,'port':[{'num':40}]}]}",
	  "node 0 (0x0000000000000010): port 40 is past its 4 ports" },
	{ HEAD "'nodes':[{'guid':'0x10','type':'switch','ports':4,'lft_top':2,'lft':'ff01zz'}]}",
	  "node 0 (0x0000000000000010): lft entry 2 (DLID 0x2) is not two hex digits" },
	{ HEAD "'nodes':[{'guid':'0x10','type':'switch','ports':4,'lft_top':1,'lft':'ff0100'}]}",
	  "node 0 (0x0000000000000010): lft has 3 entries, not lft_top + 1 = 2" },
	{ HEAD "'nodes':[{'guid':'0x10','type':'switch','ports':4,'lft_top':2,'lft':'ff010'}]}",
	  "lft has an odd number of hex digits" },
	{ HEAD "'nodes':[{'guid':'0x10','type':'switch','ports':4,'lft_top':49152}]}",
	  "node 0 (0x0000000000000010): lft_top 49152 is out of range 0..49151" },
	{ HEAD "'nodes':[" NODE_SW ",{'guid':'0x20','type':'ca','ports':1,'port':[{'num':1,"
	  "'peer':'0x30','peer_port':1}]}]}",
	  "node 1 (0x0000000000000020): port 1's peer 0x0000000000000030 is not a node of "
	  "the file" },
	{ HEAD "'nodes':[" NODE_SW ",{'guid':'0x20','type':'ca','ports':1,'port':[{'num':1,"
	  "'peer':'0x10','peer_port':2}]}]}",
	  "node 0 (0x0000000000000010): port 1 links to 0x0000000000000020 port 1, "
	  "which does not link back" },
	{ HEAD "'nodes':[" NODE_SW ",{'guid':'0x20','type':'ca','ports':1,'port':[{'num':1,"
	  "'peer':'0x10','peer_port':5}]}]}",
	  "port 1's peer_port 5 is not a port of 0x0000000000000010 (1..4)" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'hub','ports':1}]}",
	  "node 0 (0x0000000000000020): type \"hub\" is not switch, ca or router" },
	{ "{'format':'ibtrace-fabric','version':1,'source':{'guid':'0x99','port':1},"
	  "'nodes':[" NODE_SW "," NODE_CA "]}",
	  "source 0x0000000000000099 is not a node of the file" },
	{ "{'format':'ibtrace-fabric','version':1,'nodes':[" NODE_SW "," NODE_CA "]}",
	  "the file has no source" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'ca','ports':1,'desc':"
	  "'0123456789012345678901234567890123456789012345678901234567890123X'}]}",
	  "node 0 (0x0000000000000020): desc is longer than 64 bytes" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'ca','ports':1,'port':[{'num':1,'state':4,"
	  "'phys':5,'lid':1,'lmc':9}]}]}",
	  "node 0 (0x0000000000000020): port 1's lmc 9 is out of range 0..7" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'ca','ports':1,'port':[{'num':1,'state':4}]}]}",
	  "port 1 has some of state, phys, lid and lmc but not all four" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'ca','ports':1,'colour':'red'}]}",
	  "node 0 (0x0000000000000020): unknown key \"colour\"" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'ca','ports':1,'port':[{'num':0}]}]}",
	  "a ca has no port 0" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'ca','ports':1,'lft_top':3}]}",
	  "node 0 (0x0000000000000020): a ca has no lft" },
	{ HEAD "'nodes':[{'guid':'0xg','type':'ca','ports':1}]}",
	  "node 0: guid \"0xg\" is not a GUID" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'ca','ports':1.5}]}",
	  "node 0 (0x0000000000000020): ports is not a whole number" },
	{ HEAD "'nodes':[{'guid':'0x20','type':'ca','ports':1,'port':[{'num':1},{'num':1}]}]}",
	  "port 1 is given twice" },
	{ HEAD "'nodes':[" NODE_SW "," NODE_CA "],'extra':1}", "unknown key \"extra\"" },
	{ HEAD "'nodes':[7]}", "node 0: not a JSON object" },
};

/* @text with every ' made a ", in a FILE */
static FILE *text_file(const char *text, char *buf, size_t len)
{
	size_t i;

	for (i = 0; text[i] && i + 1 < len; i++)
		buf[i] = text[i] == '\'' ? '"' : text[i];
	buf[i] = '\0';
	return fmemopen(buf, i ? i : 1, "r");
}

static void test_file(void)
{
	struct ibt_fabric f, g;
	char buf[2048], err[256];
	FILE *in;
	size_t i;

	/* the line, with a router, an odd port, a switch without its table */
	build_line(&f);
	snprintf(f.node[C2].desc, sizeof(f.node[C2].desc), "%s",
		 "h2 \"quoted\" back\\slash/slash \xc3\xa9t\xc3\xa9");
	add(&f, 0xabcdef0123456789ULL, IBT_FAB_ROUTER, 2, "router");
	port_set(&f, 5, 1, 0x30, 2);
	f.node[5].port[2].known = true;
	f.node[5].port[2].state = IBT_FAB_PORT_DOWN;
	f.node[5].port[2].phys_state = 2;
	add(&f, 0x53, IBT_FAB_SWITCH, 36, "");
	f.node[6].lft_top = 7;
	CHECK(ibt_fabric_link(&f, 5, 1, 6, 36) == 0);	/* linked, not known */
	f.src = 3;
	f.src_port = 2;
	round_trip(&f, "line", NULL);
	ibt_fabric_free(&f);
	ibt_fabric_init(&f);
	round_trip(&f, "empty model", NULL);

	in = text_file(GOOD, buf, sizeof(buf));
	if (!in)
		die("fmemopen");
	check(ibt_fabric_load(&f, in, err, sizeof(err)) == 0, "good file: %s", err);
	fclose(in);
	CHECK(f.nnodes == 2 && f.src == 1 && f.src_port == 1);
	CHECK(!strcmp(f.node[1].desc, "h1 mlx5_0") && f.node[0].lft[1] == 1);
	CHECK(ibt_fabric_lid_owner(&f, 2, NULL) == 0);
	ibt_fabric_free(&f);

	for (i = 0; i < N_ELEM(bad_files); i++) {
		int ret;

		in = text_file(bad_files[i].text, buf, sizeof(buf));
		if (!in)
			die("fmemopen");
		if (!bad_files[i].text[0])
			fgetc(in);	/* an empty file: fmemopen wants a byte */
		strcpy(err, "(none)");
		memset(&g, 0x5a, sizeof(g));
		ret = ibt_fabric_load(&g, in, err, sizeof(err));
		fclose(in);
		check(ret == -1 && strstr(err, bad_files[i].want),
		      "bad file %zu: \"%s\", want \"%s\"", i, err, bad_files[i].want);
		check(!g.nnodes && !g.node && !g.guid_idx && !g.lid_idx,
		      "bad file %zu: the model is left empty", i);
	}
}

/*
 * Each allocation of the CDG, the loader and ibt_fabric_add() fails in
 * turn: -1 (NULL) and nothing leaked (valgrind says), the model intact.
 */
static void test_alloc_failures(void)
{
	struct ibt_cdg_cycle cy[2];
	struct ibt_cdg_stats st;
	struct ibt_fabric f, g;
	char err[256];
	FILE *tmp;
	long k, added;
	int ret;

	build_ring(&f, true);
	for (k = 0; k < 1000; k++) {
		fail_at = k;
		ret = ibt_cdg_loops(&f, cy, N_ELEM(cy), &st);
		if (fail_at >= 0)
			break;
		check(ret == -1, "CDG, allocation %ld fails: %d", k, ret);
	}
	fail_at = -1;
	check(k > 5 && ret == 1 && cy[0].len == 4, "CDG after %ld allocations: %d", k, ret);

	tmp = tmpfile();
	if (!tmp || ibt_fabric_save(&f, tmp))
		die("tmpfile");
	for (k = 0; k < 1000; k++) {
		rewind(tmp);
		fail_at = k;
		ret = ibt_fabric_load(&g, tmp, err, sizeof(err));
		if (fail_at >= 0)
			break;
		check(ret == -1 && !strcmp(err, "out of memory") && !g.nnodes && !g.node &&
		      !g.guid_idx && !g.lid_idx, "load, allocation %ld fails: %d, %s", k, ret, err);
	}
	fail_at = -1;
	check(k > 10 && ret == 0 && g.nnodes == 8, "load after %ld allocations: %d", k, ret);
	ibt_fabric_free(&g);
	fclose(tmp);
	ibt_fabric_free(&f);

	/* adding 100 nodes, one allocation in 7 failing */
	ibt_fabric_init(&f);
	for (k = 0, added = 0; k < 200 && added < 100; k++) {
		fail_at = k % 7 == 3 ? 0 : -1;
		if (ibt_fabric_add(&f, 0x100 + added, IBT_FAB_SWITCH, 4))
			added++;
	}
	fail_at = -1;
	for (k = 0; k < added; k++) {
		if (ibt_fabric_find(&f, 0x100 + k) != k || f.node[k].nports != 4 ||
		    f.node[k].port[4].peer != IBT_FAB_NONE)
			break;
	}
	check(added == 100 && k == added && f.nnodes == 100,
	      "adds with failures: %ld added, %ld found", added, k);
	ibt_fabric_free(&f);
}

/* The data-path proof */

/* "1,3,1": a probe's vector */
static const char *vector_str(const struct ibt_proof_probe *p, char *buf,
			      size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < p->hops && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%u", i ? "," : "", p->vector[i]);
	return buf;
}

/*
 * The destinations probed on the line: every route that is ok and crosses
 * a link, with its in ports, in batches of any size; from C0, then from
 * S1; the longest route a probe can take.
 */
static void test_proof_batch(void)
{
	/* LID 7: nobody has it, S1 has no entry for it: a hole */
	static const uint16_t dlids[] = { 2, 3, 4, 5, 6, 7, 8 };
	static const struct {
		uint32_t dest;
		uint16_t dlid;
		const char *vector;
	} want[] = {
		{ 0, 2, "1" }, { 1, 3, "1,3" }, { 2, 4, "1,3,1" }, { 3, 5, "1,3,1" },
		{ 4, 6, "1,3,1" }, { 6, 8, "1,3,2" },
	};
	struct ibt_proof_probe pr[8];
	size_t max, next, k, total, batches;
	struct ibt_fabric f;
	uint16_t tail = 2;
	char buf[300];
	bool same;
	long n;

	build_line(&f);
	for (max = 1; max <= N_ELEM(dlids); max++) {
		next = total = batches = 0;
		same = true;
		while ((n = ibt_proof_batch(&f, dlids, N_ELEM(dlids), &next, pr, max)) > 0) {
			batches++;
			same &= (size_t)n <= max;
			for (k = 0; k < (size_t)n; k++, total++)
				same &= total < N_ELEM(want) && pr[k].dest == want[total].dest &&
					pr[k].dlid == want[total].dlid &&
					!strcmp(vector_str(&pr[k], buf, sizeof(buf)),
						want[total].vector);
		}
		check(n == 0 && same && total == N_ELEM(want) && next == N_ELEM(dlids) &&
		      batches == (N_ELEM(want) + max - 1) / max,
		      "proof in batches of %zu: %ld, %zu probes in %zu batches, next %zu",
		      max, n, total, batches, next);
	}

	/* a route that fails is not probed */
	f.node[S1].lft[4] = 0xff;
	next = 0;
	n = ibt_proof_batch(&f, dlids, N_ELEM(dlids), &next, pr, N_ELEM(pr));
	check(n == 5 && pr[1].dlid == 3 && pr[2].dlid == 5 && pr[2].dest == 3,
	      "proof without LID 4's route: %ld probes", n);
	f.node[S1].lft[4] = 2;
	/* from a switch: its own LID crosses no link */
	f.src = S1;
	f.src_port = 0;
	next = 0;
	n = ibt_proof_batch(&f, dlids, N_ELEM(dlids), &next, pr, N_ELEM(pr));
	check(n == 5 && pr[0].dlid == 3 && pr[0].dest == 1 &&
	      !strcmp(vector_str(&pr[0], buf, sizeof(buf)), "3") &&
	      !strcmp(vector_str(&pr[4], buf, sizeof(buf)), "3,2"),
	      "proof from S1: %ld probes, the first to %u", n, pr[0].dlid);
	/* no source node; nothing to look at */
	f.src = 99;
	next = 0;
	CHECK(ibt_proof_batch(&f, dlids, N_ELEM(dlids), &next, pr, N_ELEM(pr)) == -1);
	f.src = C0;
	f.src_port = 1;
	next = 0;
	CHECK(ibt_proof_batch(&f, dlids, 0, &next, pr, N_ELEM(pr)) == 0 && next == 0);
	ibt_fabric_free(&f);

	/* the longest route: 63 switches, a vector of 64 ports */
	build_chain(&f, 63);
	next = 0;
	n = ibt_proof_batch(&f, &tail, 1, &next, pr, 1);
	check(n == 1 && pr[0].hops == IBT_ROUTE_MAX_HOPS && pr[0].vector[0] == 1 &&
	      pr[0].vector[IBT_ROUTE_MAX_HOPS - 1] == 1,
	      "proof along 63 switches: %ld probes, %u hops", n, pr[0].hops);
	ibt_fabric_free(&f);
	build_chain(&f, 64);
	next = 0;
	CHECK(ibt_proof_batch(&f, &tail, 1, &next, pr, 1) == 0 && next == 1);
	ibt_fabric_free(&f);
}

/*
 * More destinations than a proof takes: a 2-level fat tree of 1280 hosts,
 * from one, in batches of IBTRACE_PROVE_MAX_DESTS; every destination once,
 * in order, with the vector of its route.
 */
static void test_proof_batches(void)
{
	static struct ibt_proof_probe pr[IBTRACE_PROVE_MAX_DESTS];
	static uint16_t dlids[IBT_FAB_LID_MAX + 1];
	size_t n, next = 0, seen = 0, batches = 0, k;
	uint8_t ports[IBT_ROUTE_MAX_HOPS];
	struct ibt_fabric f;
	struct ibt_route r;
	bool same = true;
	struct ft t;
	long got;

	ft_build(&f, &t, 1, 32, 40, 4, 0);
	n = ibt_route_dests(&f, dlids, N_ELEM(dlids));
	while ((got = ibt_proof_batch(&f, dlids, n, &next, pr, N_ELEM(pr))) > 0) {
		batches++;
		for (k = 0; k < (size_t)got; k++, seen++)
			same &= pr[k].dest == seen && pr[k].dlid == dlids[seen] &&
				!ibt_route_compute(&f, pr[k].dlid, &r) &&
				ibt_route_in_ports(&r, ports) == pr[k].hops &&
				!memcmp(ports, pr[k].vector, pr[k].hops);
	}
	check(got == 0 && same && n == 1315 && seen == n && batches == 2,
	      "proof of %zu destinations: %zu probed in %zu batches", n, seen, batches);
	ibt_fabric_free(&f);
}

/* The words of a destination's verdict, and of a proof's count. */
static void test_proof_words(void)
{
	static const struct {
		struct ibt_proof p;
		const char *want;
	} cases[] = {
		{ { .sent = true, .verdict = IBTRACE_PROVE_VERIFIED, .expected_port = 1,
		    .actual_port = 1, .has_port = true, .has_status = true,
		    .attempts = 1, .rtt_ns = 41500, .has_rtt = true },
		  "verified: came in by port 1, 1 MAD, 0.042 ms" },
		{ { .sent = true, .verdict = IBTRACE_PROVE_MISMATCH, .expected_port = 1,
		    .actual_port = 2, .has_port = true, .status = 0x1c,
		    .has_status = true, .attempts = 1, .has_rtt = true },
		  "mismatch: came in by port 2, the tables say 1" },
		{ { .sent = true, .verdict = IBTRACE_PROVE_MISMATCH, .expected_port = 3,
		    .attempts = 1 },
		  "mismatch: came in by another port, the tables say 3" },
		{ { .sent = true, .verdict = IBTRACE_PROVE_NO_AGENT, .expected_port = 1,
		    .status = 0x000c, .has_status = true, .attempts = 2,
		    .rtt_ns = 1999999, .has_rtt = true },
		  "no agent: answered status 0x000c, 2 MADs, 2.000 ms" },
		{ { .sent = true, .verdict = IBTRACE_PROVE_UNREACHABLE, .attempts = 4 },
		  "unreachable: no answer after 4 MADs" },
		{ { .sent = true, .verdict = IBTRACE_PROVE_UNREACHABLE, .attempts = 1 },
		  "unreachable: no answer after 1 MAD" },
		{ { .sent = true, .verdict = IBTRACE_PROVE_SEND_ERROR },
		  "send error: the probe could not be sent" },
		{ { .sent = true, .verdict = IBTRACE_PROVE_UNTRIED },
		  "untried: the proof ended before it was sent" },
		{ { .sent = true, .verdict = 9, .attempts = 1 }, "unknown: verdict 9" },
	};
	struct ibt_proof recs[9] = { { 0 } };
	struct ibt_proof_tally t = { 0 };
	struct ibt_proof p = { 0 };
	char buf[160], want[160];
	size_t i;

	for (i = 0; i < N_ELEM(cases); i++)
		check(!strcmp(ibt_proof_why(&cases[i].p, buf, sizeof(buf)), cases[i].want),
		      "proof words %zu: \"%s\", want \"%s\"", i, buf, cases[i].want);
	p.sent = true;
	p.verdict = IBTRACE_PROVE_SEND_ERROR;
	p.err = 113;
	snprintf(want, sizeof(want), "send error: %s (errno 113)", strerror(113));
	check(!strcmp(ibt_proof_why(&p, buf, sizeof(buf)), want),
	      "proof words of errno 113: \"%s\"", buf);
	/* cut, not overrun */
	CHECK(!strcmp(ibt_proof_why(&cases[1].p, buf, 10), "mismatch:"));

	CHECK(!strcmp(ibt_proof_verdict_str(IBTRACE_PROVE_NO_AGENT), "no_agent"));
	CHECK(!strcmp(ibt_proof_verdict_str(IBTRACE_PROVE_SEND_ERROR), "send_error"));
	CHECK(!strcmp(ibt_proof_verdict_str(IBTRACE_PROVE_UNTRIED), "untried"));
	CHECK(!strcmp(ibt_proof_verdict_str(6), "unknown"));
	CHECK(!strcmp(ibt_proof_verdict_text(IBTRACE_PROVE_NO_AGENT), "no agent"));
	CHECK(!strcmp(ibt_proof_verdict_text(IBTRACE_PROVE_VERIFIED), "verified"));
	CHECK(ibt_proof_finding(IBTRACE_PROVE_MISMATCH) &&
	      ibt_proof_finding(IBTRACE_PROVE_UNREACHABLE) &&
	      ibt_proof_finding(IBTRACE_PROVE_SEND_ERROR));
	CHECK(!ibt_proof_finding(IBTRACE_PROVE_VERIFIED) &&
	      !ibt_proof_finding(IBTRACE_PROVE_NO_AGENT) &&
	      !ibt_proof_finding(IBTRACE_PROVE_UNTRIED) && !ibt_proof_finding(6));

	/* the count: nothing yet, then 3 verified, 2 no agent, 1 mismatch, 1
	 * unreachable and one not probed, then a send error and one untried */
	CHECK(!strcmp(ibt_proof_summary_str(&t, buf, sizeof(buf)),
		      "0 probes: 0 verified (0 MADs, 0.000 s)"));
	for (i = 0; i < 8; i++) {
		recs[i].sent = i != 5;
		recs[i].verdict = i < 3 ? IBTRACE_PROVE_VERIFIED :
				  i < 5 ? IBTRACE_PROVE_NO_AGENT :
				  i == 6 ? IBTRACE_PROVE_MISMATCH :
					   IBTRACE_PROVE_UNREACHABLE;
	}
	t.mads = 9;
	t.elapsed_ns = 123456789;
	ibt_proof_count(&t, recs, 8);
	check(t.dests == 7 && t.verdicts[IBTRACE_PROVE_VERIFIED] == 3 &&
	      t.verdicts[IBTRACE_PROVE_NO_AGENT] == 2 && ibt_proof_findings(&t) == 2,
	      "proof count: %zu probed, %zu findings", t.dests, ibt_proof_findings(&t));
	check(!strcmp(ibt_proof_summary_str(&t, buf, sizeof(buf)),
		      "7 probes: 3 verified, 2 no agent, 1 mismatch, 1 unreachable (9 MADs, 0.123 s)"),
	      "proof summary: \"%s\"", buf);
	memset(&t, 0, sizeof(t));
	recs[8].sent = true;
	recs[8].verdict = 9;	/* a newer kernel's: probed, not counted */
	recs[7].verdict = IBTRACE_PROVE_SEND_ERROR;
	recs[6].verdict = IBTRACE_PROVE_UNTRIED;
	t.mads = 1;
	t.elapsed_ns = 500000;
	ibt_proof_count(&t, &recs[6], 3);
	check(!strcmp(ibt_proof_summary_str(&t, buf, sizeof(buf)),
		      "3 probes: 0 verified, 1 send error, 1 untried (1 MAD, 0.001 s)") &&
	      ibt_proof_findings(&t) == 1, "proof summary: \"%s\"", buf);
	CHECK(!strcmp(ibt_proof_summary_str(&t, buf, 9), "3 probes"));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long peak_rss_mb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

/*
 * 17 pods of 24 leaves (24 hosts each) and 12 mids, 12 groups of 12
 * spines: 9,792 CAs and 756 switches of up to 36 ports, up/down tables.
 */
static void test_scale(void)
{
	struct ibt_cdg_cycle cy[4];
	struct ibt_cdg_stats st;
	double t0, t_build, t_routes, t_cdg, t_file;
	long rss_build, rss_routes, rss_cdg, size = 0;
	struct ibt_fabric f;
	struct ft t;
	size_t ok, n;
	int got;

	t0 = now();
	ft_build(&f, &t, 17, 24, 24, 12, 12);
	t_build = now() - t0;
	rss_build = peak_rss_mb();
	check(f.nnodes == 10548, "scale: %u nodes", f.nnodes);

	t0 = now();
	ok = routes_ok(&f, 0, &n);
	t_routes = now() - t0;
	rss_routes = peak_rss_mb();
	check(ok == n && n == f.nnodes - 1, "scale: %zu of %zu routes OK", ok, n);
	ok = routes_ok(&f, t.leaves - 1, &n);
	check(ok == n && n == f.nnodes - 1, "scale: %zu of %zu routes OK from the last host",
	      ok, n);

	t0 = now();
	got = ibt_cdg_loops(&f, cy, N_ELEM(cy), &st);
	t_cdg = now() - t0;
	rss_cdg = peak_rss_mb();
	check(got == 0 && st.loops == 0, "scale: %d cycles, %zu loops", got, st.loops);

	t0 = now();
	round_trip(&f, "scale", &size);
	t_file = now() - t0;

	printf("# scale: %u nodes (%u CAs, %u switches): build %.2f s (peak RSS %ld MB); "
	       "%zu routes from one CA %.3f s (%ld MB); CDG %zu channels, %zu dependencies, "
	       "%zu loops %.2f s (%ld MB); save + load %.1f MB %.2f s (%ld MB)\n",
	       f.nnodes, t.leaves, f.nnodes - t.leaves, t_build, rss_build, n, t_routes,
	       rss_routes, st.channels, st.deps, st.loops, t_cdg, rss_cdg,
	       size / 1048576.0, t_file, peak_rss_mb());
	ibt_fabric_free(&f);
}

/* Whether @text has the line @line, whole. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
		p++;
	}
	return false;
}

/*
 * Whether @text is well formed: every line a comment (# HELP, # TYPE) or
 * a sample "name{label="value",...} number"; each family's HELP, then its
 * TYPE, then its samples, and no family twice.
 */
static bool prom_well_formed(const char *text)
{
	char fam[64][64], cur[64] = "", name[64];
	const char *line = text, *nl;
	size_t nfam = 0, i;

	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			return false;
		if (!strncmp(line, "# HELP ", 7)) {
			if (sscanf(line + 7, "%63[a-z_]", cur) != 1 || nfam == 64)
				return false;
			for (i = 0; i < nfam; i++)
				if (!strcmp(fam[i], cur))
					return false;
			strcpy(fam[nfam++], cur);
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			if (strncmp(line + 7, cur, strlen(cur)) ||
			    (strcmp(nl - 5, "gauge\n") && strncmp(nl - 5, "gauge", 5)))
				return false;
			continue;
		}
		if (sscanf(line, "%63[a-z_]", name) != 1 || strcmp(name, cur))
			return false;
		line += strlen(name);
		if (*line == '{') {
			while (*line != '}') {
				const char *q = strchr(line, '"');

				if (!q || q[-1] != '=')
					return false;
				for (q++; *q != '"'; q++)
					if (*q == '\\')
						q++;
					else if (*q == '\n' || !*q)
						return false;
				line = q + 1;
				if (*line != ',' && *line != '}')
					return false;
			}
			line++;
		}
		if (*line != ' ' || !strchr("0123456789", line[1]))
			return false;
	}
	return nfam > 0;
}

/* The metrics of @a, as text (freed by the caller). */
static char *prom_text(const struct ibt_audit_figures *a, int *ret)
{
	static const struct ibt_prom_label common[] = {
		{ "device", "mlx5_0" }, { "port", "1" },
	};
	struct ibt_prom p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	ibt_prom_open_file(&p, f, common, N_ELEM(common));
	*ret = ibt_audit_prom(&p, a);
	ibt_prom_commit(&p);
	fclose(f);
	return buf;
}

/*
 * The audit's metrics (audit_prom.c, prom.c) on the line: escaping, every
 * family well formed, the counts by verdict, a failing destination per
 * failed route or probe with its labels; without the sweep's figures and
 * without the proof; the file replaced at once, and nothing left when it
 * cannot be written.
 */
static void test_prom(void)
{
	static const uint16_t dlids[] = { 2, 3, 4, 5, 6, 7, 8 };
	static const uint16_t ok_dlids[] = { 2, 3, 4, 5, 6, 8 };
	static const char *const want[] = {
		"ibtrace_audit_success{device=\"mlx5_0\",port=\"1\"} 0",
		"ibtrace_audit_sweep_smps{device=\"mlx5_0\",port=\"1\"} 52",
		"ibtrace_audit_destinations{device=\"mlx5_0\",port=\"1\"} 7",
		"ibtrace_audit_routes{device=\"mlx5_0\",port=\"1\",verdict=\"ok\"} 6",
		"ibtrace_audit_routes{device=\"mlx5_0\",port=\"1\",verdict=\"hole\"} 1",
		"ibtrace_audit_routes{device=\"mlx5_0\",port=\"1\",verdict=\"loop\"} 0",
		"ibtrace_audit_proved{device=\"mlx5_0\",port=\"1\"} 1",
		"ibtrace_audit_probes{device=\"mlx5_0\",port=\"1\",verdict=\"verified\"} 5",
		"ibtrace_audit_probes{device=\"mlx5_0\",port=\"1\",verdict=\"unreachable\"} 1",
		"ibtrace_audit_probe_mads{device=\"mlx5_0\",port=\"1\"} 9",
		"ibtrace_audit_credit_loops{device=\"mlx5_0\",port=\"1\"} 0",
		"ibtrace_audit_failing_destinations{device=\"mlx5_0\",port=\"1\"} 2",
		"ibtrace_audit_failing_destination{device=\"mlx5_0\",port=\"1\",dlid=\"0x0006\",check=\"probe\",verdict=\"unreachable\",node_guid=\"0x00000000000000c2\",node_desc=\"C2 \\\"HCA\\\\1\\\"\",dest_port=\"1\"} 1",
		"ibtrace_audit_failing_destination{device=\"mlx5_0\",port=\"1\",dlid=\"0x0007\",check=\"route\",verdict=\"hole\",node_guid=\"\",node_desc=\"\",dest_port=\"\"} 1",
	};
	uint64_t sweep[IBTRACE_SWEEP_STAT_A_MAX + 1] = { 0 };
	struct ibt_proof proof[N_ELEM(dlids)] = { 0 };
	struct ibt_proof_tally tally = { 0 };
	struct ibt_audit_figures a = { 0 };
	char dir[] = "/tmp/ibt-prom-XXXXXX", path[64], buf[64];
	struct ibt_prom p;
	struct ibt_fabric f;
	struct ibt_route r;
	struct dirent *de;
	int ret = -2, n;
	char *text;
	size_t i;
	DIR *d;
	FILE *in;

	check(ibt_prom_escape("a\"b\\c\nd", buf, sizeof(buf)) == 10 &&
	      !strcmp(buf, "a\\\"b\\\\c\\nd"), "escape: %s", buf);
	check(ibt_prom_escape("\"\"\"", buf, 4) == 6 && !strcmp(buf, "\\\""),
	      "escape, cut: %s", buf);

	build_line(&f);
	snprintf(f.node[C2].desc, sizeof(f.node[C2].desc), "C2 \"HCA\\1\"");
	for (i = 0; i < N_ELEM(dlids); i++) {
		CHECK(!ibt_route_compute(&f, dlids[i], &r));
		a.routes[r.verdict]++;
		if (r.verdict != IBT_ROUTE_OK || r.nhops < 2)
			continue;
		proof[i].sent = true;
		proof[i].attempts = 1;
		proof[i].verdict = IBTRACE_PROVE_VERIFIED;
	}
	proof[4].verdict = IBTRACE_PROVE_UNREACHABLE;	/* LID 6, C2 */
	proof[4].attempts = 4;
	ibt_proof_count(&tally, proof, N_ELEM(dlids));
	tally.mads = 9;
	sweep[IBTRACE_SWEEP_STAT_A_SMPS] = 52;
	a = (struct ibt_audit_figures) {
		.timestamp_s = 1.5e9, .duration_s = 0.25, .sweep = sweep,
		.fab = &f, .dlids = dlids, .ndests = N_ELEM(dlids),
		.proof = proof, .tally = &tally,
	};
	memcpy(a.routes, (size_t[IBT_ROUTE_NO_OWNER + 1]){ 6, 1 }, sizeof(a.routes));
	text = prom_text(&a, &ret);
	CHECK(text && ret == 0 && prom_well_formed(text));
	for (i = 0; text && i < N_ELEM(want); i++)
		check(has_line(text, want[i]), "prom: no line %s", want[i]);
	CHECK(text && has_line(text, "ibtrace_audit_duration_seconds{device=\"mlx5_0\",port=\"1\"} 0.25"));
	CHECK(text && has_line(text, "# TYPE ibtrace_audit_routes gauge"));
	free(text);

	/* a loaded model, not proved, nothing failing (LID 7 left out) */
	a.sweep = NULL;
	a.tally = NULL;
	a.success = true;
	a.dlids = ok_dlids;
	a.ndests = N_ELEM(ok_dlids);
	memset(proof, 0, sizeof(proof));
	memcpy(a.routes, (size_t[IBT_ROUTE_NO_OWNER + 1]){ 6 }, sizeof(a.routes));
	text = prom_text(&a, &ret);
	CHECK(text && ret == 0 && prom_well_formed(text));
	CHECK(text && !strstr(text, "sweep_") && !strstr(text, "audit_probes") &&
	      !strstr(text, "failing_destination{") &&
	      has_line(text, "ibtrace_audit_proved{device=\"mlx5_0\",port=\"1\"} 0") &&
	      has_line(text, "ibtrace_audit_failing_destinations{device=\"mlx5_0\",port=\"1\"} 0") &&
	      has_line(text, "ibtrace_audit_success{device=\"mlx5_0\",port=\"1\"} 1"));
	free(text);

	/* the file: replaced at once, the old one whole until then */
	if (!mkdtemp(dir)) {
		check(0, "mkdtemp: %s", strerror(errno));
		ibt_fabric_free(&f);
		return;
	}
	snprintf(path, sizeof(path), "%s/ibtrace.prom", dir);
	in = fopen(path, "w");
	CHECK(in && fputs("old\n", in) >= 0 && !fclose(in));
	CHECK(ibt_prom_open(&p, path, NULL, 0) == 0);
	ibt_prom_family(&p, "x_y", "gauge", "A test.");
	ibt_prom_u64(&p, "x_y", NULL, 0, 3);
	in = fopen(path, "r");
	CHECK(in && fgets(buf, sizeof(buf), in) && !strcmp(buf, "old\n"));
	if (in)
		fclose(in);
	CHECK(ibt_prom_commit(&p) == 0);
	in = fopen(path, "r");
	n = in ? (int)fread(buf, 1, sizeof(buf) - 1, in) : -1;
	if (in)
		fclose(in);
	buf[n > 0 ? n : 0] = '\0';
	check(!strcmp(buf, "# HELP x_y A test.\n# TYPE x_y gauge\nx_y 3\n"),
	      "prom file: %s", buf);
	/* given up: the old file stays, nothing else is left */
	CHECK(ibt_prom_open(&p, path, NULL, 0) == 0);
	ibt_prom_u64(&p, "x_y", NULL, 0, 4);
	ibt_prom_discard(&p);
	snprintf(path, sizeof(path), "%s/nodir/ibtrace.prom", dir);
	CHECK(ibt_prom_open(&p, path, NULL, 0) == ENOENT && !p.f && !p.tmp);
	d = opendir(dir);
	n = 0;
	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	CHECK(n == 1);
	snprintf(path, sizeof(path), "%s/ibtrace.prom", dir);
	unlink(path);
	rmdir(dir);
	ibt_fabric_free(&f);
}

/* Hops "G1/p1,G2/p2" as a path (GUID/port pairs), into @d as @key. */
static void merge_path_json(json_object *d, const char *key, char *hops)
{
	json_object *path = json_object_new_array(), *hop;
	char *save, *tok;

	for (tok = strtok_r(hops, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char guid[24], *slash = strchr(tok, '/');

		hop = json_object_new_object();
		*slash = '\0';
		snprintf(guid, sizeof(guid), "0x%s", tok);
		json_object_object_add(hop, "node_guid", json_object_new_string(guid));
		json_object_object_add(hop, "node_desc", json_object_new_string(tok));
		json_object_object_add(hop, "out_port",
				       json_object_new_int(atoi(slash + 1)));
		json_object_array_add(path, hop);
	}
	json_object_object_add(d, key, path);
}

/*
 * One audit's JSON for audit merge: @n destinations, each
 * "R:P:G1/p1,G2/p2[:G3/p3,...]" (R the route's verdict, P its proof's or
 * "-", then its path as GUID/port pairs, then its answer's way back).
 * NULL out of memory.
 */
static json_object *merge_audit(const char *const *dests, size_t n)
{
	json_object *a = json_object_new_object(), *arr = json_object_new_array();
	char buf[256], *save, *route, *proof, *hops, *back;
	size_t i;

	if (!a || !arr)
		return NULL;
	json_object_object_add(a, "destinations", arr);
	for (i = 0; i < n; i++) {
		json_object *d = json_object_new_object(), *pr;

		snprintf(buf, sizeof(buf), "%s", dests[i]);
		route = strtok_r(buf, ":", &save);
		proof = strtok_r(NULL, ":", &save);
		hops = strtok_r(NULL, ":", &save);
		back = strtok_r(NULL, ":", &save);
		json_object_object_add(d, "verdict", json_object_new_string(route));
		if (strcmp(proof, "-")) {
			pr = json_object_new_object();
			json_object_object_add(pr, "verdict", json_object_new_string(proof));
			json_object_object_add(d, "proof", pr);
		}
		if (hops)
			merge_path_json(d, "path", hops);
		if (back)
			merge_path_json(d, "return_path", back);
		json_object_array_add(arr, d);
	}
	return a;
}

/*
 * audit merge (merge.c): three sources on a line of switches a1 - a2 - a3
 * (hosts h1..h6), the link out of a2's port 3 dropping everything: it
 * comes first, crossed by every failing probe and by no verified one;
 * the channels only verified probes cross are no suspects; without the
 * fault, no suspect; a destination with a proof but no path, and what is
 * not an audit, are refused saying so.
 */
static void test_merge(void)
{
	static const char *const from1[] = {
		"ok:verified:b1/1,a1/2",		/* h1 -> h2 on a1 */
		"ok:unreachable:b1/1,a1/3,a2/3,a3/1",	/* h1 -> h5 via a2 port 3 */
		"ok:unreachable:b1/1,a1/3,a2/3,a3/2",
		"ok:no_agent:b1/1,a1/3",		/* a2's port 0: says nothing */
		"hole:-:b1/1",				/* a table fault: nothing */
	};
	static const char *const from3[] = {
		"ok:verified:b3/1,a2/1",		/* h3 -> h4 on a2 */
		"ok:unreachable:b3/1,a2/3,a3/1",
		"ok:verified:b3/1,a2/2,a1/1",		/* back toward a1 */
	};
	static const char *const from5[] = {
		"ok:verified:b5/1,a3/3,a2/2,a1/1",	/* the other way: fine */
		"ok:verified:b5/1,a3/2",
		"ok:mismatch:b5/1,a3/3,a2/3,a3/1",	/* odd, but crosses a2/3 */
	};
	static const char *const clean[] = {
		"ok:verified:b1/1,a1/3,a2/3,a3/1",
	};
	/*
	 * Both ways: h1 -> h5 goes a1/3 a2/3, its answer a3/1 a2/2 (the link
	 * out of a2's port 2 dropping everything); h5 -> h1 the other way
	 * round, verified, so the way there of h1's probe is not to blame.
	 * A mismatch (h6 -> h2, by a2/2 too) came back: its way back is not
	 * counted.
	 */
	static const char *const back1[] = {
		"ok:unreachable:b1/1,a1/3,a2/3,a3/1:b5/1,a3/3,a2/2,a1/1",
		"ok:verified:b1/1,a1/2:b2/1,a1/1",
	};
	static const char *const back5[] = {
		"ok:verified:b5/1,a3/3,a2/1,a1/1:b1/1,a1/3,a2/3,a3/1",
		"ok:mismatch:b6/1,a3/3,a2/2,a1/2:b2/1,a1/3,a2/3,a3/3",
	};
	static const char *const nopath[] = { "ok:verified" };
	struct ibt_merge m;
	json_object *a;
	char err[200];
	size_t n;

	ibt_merge_init(&m);
	a = merge_audit(from1, N_ELEM(from1));
	CHECK(a && !ibt_merge_add(&m, a, err, sizeof(err)));
	json_object_put(a);
	a = merge_audit(from3, N_ELEM(from3));
	CHECK(a && !ibt_merge_add(&m, a, err, sizeof(err)));
	json_object_put(a);
	a = merge_audit(from5, N_ELEM(from5));
	CHECK(a && !ibt_merge_add(&m, a, err, sizeof(err)));
	json_object_put(a);
	ibt_merge_rank(&m);
	n = ibt_merge_suspects(&m);
	check(m.audits == 3 && m.failing == 4 && m.verified == 5 && m.other == 2,
	      "merge: %zu audits, %zu failing, %zu verified, %zu other",
	      m.audits, m.failing, m.verified, m.other);
	check(n >= 1 && m.chan[0].guid == 0xa2 && m.chan[0].port == 3 &&
	      m.chan[0].fails == 4 && m.chan[0].passes == 0 &&
	      !strcmp(m.chan[0].desc, "a2"),
	      "merge: first suspect 0x%" PRIx64 " port %u (%u failing, %u verified)",
	      n ? m.chan[0].guid : 0, n ? m.chan[0].port : 0,
	      n ? m.chan[0].fails : 0, n ? m.chan[0].passes : 0);
	/* a3/1 is crossed by 3 failing probes, and never verified: second */
	check(n >= 2 && m.chan[1].guid == 0xa3 && m.chan[1].port == 1 &&
	      m.chan[1].fails == 3, "merge: second suspect 0x%" PRIx64 " port %u",
	      n >= 2 ? m.chan[1].guid : 0, n >= 2 ? m.chan[1].port : 0);
	/* b1/1 a1/3 a2/3 a3/1 a3/2 b3/1 b5/1 a3/3; a1/2, a2/1, ... are not */
	CHECK(n == 8 && m.nchan > n && m.chan[n].fails == 0);
	ibt_merge_free(&m);

	a = merge_audit(clean, N_ELEM(clean));
	CHECK(a && !ibt_merge_add(&m, a, err, sizeof(err)));
	json_object_put(a);
	ibt_merge_rank(&m);
	CHECK(m.failing == 0 && ibt_merge_suspects(&m) == 0 && m.nchan == 4);
	ibt_merge_free(&m);

	a = merge_audit(back1, N_ELEM(back1));
	CHECK(a && !ibt_merge_add(&m, a, err, sizeof(err)));
	json_object_put(a);
	a = merge_audit(back5, N_ELEM(back5));
	CHECK(a && !ibt_merge_add(&m, a, err, sizeof(err)));
	json_object_put(a);
	ibt_merge_rank(&m);
	n = ibt_merge_suspects(&m);
	/* a2/2: 2 failing, 0 verified; then a3/3: 2 failing, 1 verified */
	check(n >= 2 && m.chan[0].guid == 0xa2 && m.chan[0].port == 2 &&
	      m.chan[0].fails == 2 && m.chan[0].passes == 0 &&
	      m.chan[1].guid == 0xa3 && m.chan[1].port == 3 &&
	      m.chan[1].passes == 1,
	      "merge both ways: first suspect 0x%" PRIx64 " port %u (%u failing, %u verified)",
	      n ? m.chan[0].guid : 0, n ? m.chan[0].port : 0,
	      n ? m.chan[0].fails : 0, n ? m.chan[0].passes : 0);
	CHECK(m.failing == 2 && m.verified == 2);
	/* a1/3: h1's way there fails, h5's way back passes; not h6's way back */
	for (n = 0; n < m.nchan; n++)
		if (m.chan[n].guid == 0xa1 && m.chan[n].port == 3)
			break;
	CHECK(n < m.nchan && m.chan[n].fails == 1 && m.chan[n].passes == 1);
	ibt_merge_free(&m);
	a = merge_audit(nopath, N_ELEM(nopath));
	check(a && ibt_merge_add(&m, a, err, sizeof(err)) == -1 &&
	      strstr(err, "destination 0 has a proof but no path"), "merge no path: %s", err);
	json_object_put(a);
	a = json_object_new_array();
	check(ibt_merge_add(&m, a, err, sizeof(err)) == -1 &&
	      strstr(err, "not the JSON of an audit"), "merge not an audit: %s", err);
	json_object_put(a);
	ibt_merge_free(&m);
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "-q");

	test_model();
	test_line_routes();
	test_faults();
	test_chain();
	test_fat_tree();
	test_ring();
	test_cdg_deps();
	test_alloc_failures();
	test_file();
	test_proof_batch();
	test_proof_batches();
	test_proof_words();
	test_prom();
	test_merge();
	if (!quick)
		test_scale();
	printf("tests/route: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
