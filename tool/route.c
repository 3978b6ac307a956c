// SPDX-License-Identifier: GPL-2.0-only
/*
 * Routes and credit loops from a fabric model's tables (route.h).
 *
 * A route is followed as the switches forward a packet: from the source
 * port, each switch's LFT entry for the DLID gives the exit port, the link
 * gives the next node, until an end node, a switch's port 0, or a fault.
 *
 * The channel dependency graph has a vertex for each channel (the link out
 * of a port, one direction) and an edge from channel A to channel B when a
 * packet can hold a buffer of A while it waits for credits on B: A enters a
 * switch s, B leaves it, and some DLID d whose traffic A carries is routed
 * by s to B. A cycle in the graph is a credit loop.
 */
#include <stdlib.h>
#include <string.h>

#include "route.h"

#define N_ELEM(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const verdict_names[] = {
	[IBT_ROUTE_OK] = "ok",
	[IBT_ROUTE_HOLE] = "hole",
	[IBT_ROUTE_DEAD_END] = "dead_end",
	[IBT_ROUTE_LOOP] = "loop",
	[IBT_ROUTE_TOO_LONG] = "too_long",
	[IBT_ROUTE_MISDELIVERED] = "misdelivered",
	[IBT_ROUTE_NO_OWNER] = "no_owner",
};

/**
 * ibt_route_verdict_str() - the name of a verdict
 * @v: enum ibt_route_verdict
 *
 * Return: "ok", "hole", "dead_end", "loop", "too_long", "misdelivered",
 * "no_owner", or "unknown".
 */
const char *ibt_route_verdict_str(unsigned int v)
{
	return v < N_ELEM(verdict_names) ? verdict_names[v] : "unknown";
}

/* Port @p of @n exists, is Active and has a link: a packet can leave by it. */
static bool port_up(const struct ibt_fab_node *n, uint32_t p)
{
	return p <= n->nports && n->port[p].peer != IBT_FAB_NONE &&
	       n->port[p].state == IBT_FAB_PORT_ACTIVE;
}

static bool is_switch(const struct ibt_fab_node *n)
{
	return n->type == IBT_FAB_SWITCH;
}

/* The route ends at its last hop with @verdict, at (@node, @port): 0. */
static int route_end(struct ibt_route *r, unsigned int verdict, uint32_t node,
		     uint8_t port)
{
	r->verdict = verdict;
	if (verdict != IBT_ROUTE_OK) {
		r->at_node = node;
		r->at_port = port;
	}
	return 0;
}

/* Switch @node is among the route's first @n hops. */
static bool route_has(const struct ibt_route *r, unsigned int n, uint32_t node)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (r->hop[i].node == node)
			return true;
	}
	return false;
}

/**
 * ibt_route_back() - the route an answer takes back to the source port
 * @f: the model
 * @r: a route from the model's source port (ibt_route_compute()) whose
 *	destination is known
 * @back: the route the tables give from @r's destination port to the
 *	source port's base LID (the SLID of what the source sends)
 *
 * A probe proves both: its answer comes back LID-routed by the tables
 * too, along a route that need not be @r's reversed.
 *
 * Return: 0 (the outcome is @back->verdict), or -1 if @r has no
 * destination or the source port no LID.
 */
int ibt_route_back(const struct ibt_fabric *f, const struct ibt_route *r,
		   struct ibt_route *back)
{
	struct ibt_fabric from = *f;
	uint16_t lid;

	if (f->src >= f->nnodes || r->dest >= f->nnodes)
		return -1;
	lid = f->node[f->src].port[f->src_port].lid;
	if (!lid)
		return -1;
	from.src = r->dest;
	from.src_port = r->dest_port;
	return ibt_route_compute(&from, lid, back);
}

/**
 * ibt_route_compute() - the route the tables give from the model's source
 *	port (@f->src, @f->src_port) to a DLID, and its verdict
 * @f: the model (its LID index makes the owner look-up O(1))
 * @dlid: the destination LID
 * @r: the route (see struct ibt_route)
 *
 * From a CA or router, the packet leaves by the source port; from a switch,
 * the route starts at the switch itself (in_port 0) and its LFT. It is
 * followed at most IBT_ROUTE_MAX_HOPS links: O(IBT_ROUTE_MAX_HOPS^2) with
 * the loop check.
 *
 * Return: 0 (the outcome is @r->verdict), or -1 if @f->src is not a node.
 */
int ibt_route_compute(const struct ibt_fabric *f, uint16_t dlid,
		      struct ibt_route *r)
{
	uint32_t cur = f->src;
	uint8_t in = 0, dport = 0, end;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->dlid = dlid;
	r->at_node = IBT_FAB_NONE;
	if (f->src >= f->nnodes)
		return -1;
	/* a LID nobody has is followed too: where do the tables send it? */
	r->dest = ibt_fabric_lid_owner(f, dlid, &dport);
	r->dest_port = dport;
	end = r->dest == IBT_FAB_NONE ? IBT_ROUTE_NO_OWNER :
					IBT_ROUTE_MISDELIVERED;

	/* hop i has crossed i links */
	for (i = 0; i <= IBT_ROUTE_MAX_HOPS; i++) {
		const struct ibt_fab_node *n = &f->node[cur];
		struct ibt_route_hop *h = &r->hop[i];
		uint8_t out;

		h->node = cur;
		h->in_port = in;
		r->nhops = i + 1;
		if (!is_switch(n)) {
			if (i == 0 && cur == r->dest && f->src_port == r->dest_port)
				return route_end(r, IBT_ROUTE_OK, cur, 0);
			if (i > 0 && cur == r->dest && in == r->dest_port)
				return route_end(r, IBT_ROUTE_OK, cur, 0);
			if (i > 0)
				return route_end(r, end, cur, in);
			out = f->src_port;
		} else {
			if (route_has(r, i, cur))
				return route_end(r, IBT_ROUTE_LOOP, cur, in);
			if (!n->lft || dlid > n->lft_top)
				return route_end(r, IBT_ROUTE_HOLE, cur, IBT_FAB_NO_PORT);
			out = n->lft[dlid];
			if (out == IBT_FAB_NO_PORT || out > n->nports)
				return route_end(r, IBT_ROUTE_HOLE, cur, out);
			if (!out && cur == r->dest)
				return route_end(r, IBT_ROUTE_OK, cur, 0);
			if (!out)
				return route_end(r, end, cur, 0);
		}
		h->out_port = out;
		if (!port_up(n, out))
			return route_end(r, IBT_ROUTE_DEAD_END, cur, out);
		if (i == IBT_ROUTE_MAX_HOPS)
			return route_end(r, IBT_ROUTE_TOO_LONG, cur, out);
		in = n->port[out].peer_port;
		cur = n->port[out].peer;
	}
	return 0;
}

/**
 * ibt_route_in_ports() - the incoming-port vector of a route, what a
 *	SourceRoute probe along it carries
 * @r: the route
 * @ports: room for IBT_ROUTE_MAX_HOPS entries; entry i is the port the
 *	packet enters hop i + 1 by
 *
 * Return: the number of entries, @r->nhops - 1 (0 for an empty route).
 */
size_t ibt_route_in_ports(const struct ibt_route *r, uint8_t *ports)
{
	size_t i, n = r->nhops ? r->nhops - 1 : 0;

	if (n > IBT_ROUTE_MAX_HOPS)
		n = IBT_ROUTE_MAX_HOPS;
	for (i = 0; i < n; i++)
		ports[i] = r->hop[i + 1].in_port;
	return n;
}

/**
 * ibt_route_dests() - the DLIDs whose routes the audit checks
 * @f: the model
 * @dlids: where to put them, in increasing order
 * @max: room in @dlids
 *
 * Every LID of every CA and router port and of every switch (port 0), as
 * ibt_fabric_port_lids() gives them (the whole LMC range), each once,
 * leaving out the source port's own. O(ports + LIDs).
 *
 * Return: how many there are, which may be more than @max (only @max are
 * written then).
 */
size_t ibt_route_dests(const struct ibt_fabric *f, uint16_t *dlids, size_t max)
{
	uint8_t map[(IBT_FAB_LID_MAX + 1 + 7) / 8] = { 0 };
	uint16_t first, last;
	uint32_t n, p, lid;
	size_t cnt = 0;

	for (n = 0; n < f->nnodes; n++) {
		for (p = 0; p <= f->node[n].nports; p++) {
			if (!ibt_fabric_port_lids(f, n, p, &first, &last))
				continue;
			for (lid = first; lid <= last; lid++)
				map[lid / 8] |= 1 << lid % 8;
		}
	}
	if (f->src < f->nnodes) {
		p = is_switch(&f->node[f->src]) ? 0 : f->src_port;
		if (ibt_fabric_port_lids(f, f->src, p, &first, &last)) {
			for (lid = first; lid <= last; lid++)
				map[lid / 8] &= ~(1 << lid % 8);
		}
	}
	for (lid = 1; lid <= IBT_FAB_LID_MAX; lid++) {
		if (!(map[lid / 8] & 1 << lid % 8))
			continue;
		if (cnt < max)
			dlids[cnt] = lid;
		cnt++;
	}
	return cnt;
}

/* Credit loops */

/*
 * The graph being built. Channel (n, p) is vertex base[n] + p (port 0's
 * ids unused), edges in CSR form: the successors of v are
 * adj[off[v] .. off[v + 1]).
 */
struct cdg {
	const struct ibt_fabric *f;
	const struct ibt_fab_lid *owner;	/* by LID */
	struct ibt_fab_lid *owner_buf;		/* owner, when the model has no index */
	uint32_t *base;				/* by node, nnodes + 1 */
	uint32_t nv;				/* vertex ids */
	uint32_t *nend;				/* by node: links in from CA/routers */
	uint32_t *seed;				/* the switches with nend > 0 */
	uint32_t nseeds;
	size_t *reach_off;			/* by node: its bitmap in reach */
	uint64_t *reach;			/* switch s gets traffic for d */
	uint32_t (*edge)[2];			/* (from, to), before CSR */
	size_t nedges;
	size_t edge_cap;
	uint32_t *off;
	uint32_t *adj;
};

static void cdg_free(struct cdg *g)
{
	free(g->owner_buf);
	free(g->base);
	free(g->nend);
	free(g->seed);
	free(g->reach_off);
	free(g->reach);
	free(g->edge);
	free(g->off);
	free(g->adj);
}

static bool reach_test_set(struct cdg *g, uint32_t s, uint32_t d)
{
	uint64_t *w = &g->reach[g->reach_off[s] + d / 64];
	uint64_t bit = 1ULL << d % 64;
	bool was = *w & bit;

	*w |= bit;
	return was;
}

static bool reach_test(const struct cdg *g, uint32_t s, uint32_t d)
{
	return g->reach[g->reach_off[s] + d / 64] & 1ULL << d % 64;
}

/*
 * Channel ids, the owners of the LIDs, and for each switch the number of
 * its ports an Active CA or router port links to: 0 or -1.
 */
static int cdg_setup(struct cdg *g)
{
	const struct ibt_fabric *f = g->f;
	uint64_t total = 0;
	size_t words = 0;
	uint32_t n, p;

	g->base = malloc(sizeof(*g->base) * (f->nnodes + 1));
	g->nend = calloc(f->nnodes + 1, sizeof(*g->nend));
	g->reach_off = calloc(f->nnodes + 1, sizeof(*g->reach_off));
	g->seed = malloc(sizeof(*g->seed) * (f->nnodes + 1));
	if (!g->base || !g->nend || !g->reach_off || !g->seed)
		return -1;
	for (n = 0; n < f->nnodes; n++) {
		const struct ibt_fab_node *s = &f->node[n];

		g->base[n] = total;
		total += s->nports + 1;
		if (total >= UINT32_MAX)
			return -1;
		if (!is_switch(s))
			continue;
		if (s->lft) {
			g->reach_off[n] = words;
			words += (s->lft_top + 1 + 63) / 64;
		}
		for (p = 1; p <= s->nports; p++) {
			const struct ibt_fab_port *x = &s->port[p];

			if (x->peer != IBT_FAB_NONE && !is_switch(&f->node[x->peer]) &&
			    port_up(&f->node[x->peer], x->peer_port))
				g->nend[n]++;
		}
		if (g->nend[n])
			g->seed[g->nseeds++] = n;
	}
	g->base[f->nnodes] = total;
	g->nv = total;
	g->reach = calloc(words ? words : 1, sizeof(*g->reach));
	if (!g->reach)
		return -1;

	if (f->lid_idx) {
		g->owner = f->lid_idx;
		return 0;
	}
	g->owner_buf = malloc(sizeof(*g->owner_buf) * (IBT_FAB_LID_MAX + 1));
	if (!g->owner_buf)
		return -1;
	ibt_fabric_lid_table(f, g->owner_buf);
	g->owner = g->owner_buf;
	return 0;
}

/* Links from end node @o (Active at @o) into switch @s. */
static uint32_t links_from(const struct ibt_fabric *f, uint32_t o, uint32_t s)
{
	const struct ibt_fab_node *n = &f->node[o];
	uint32_t p, cnt = 0;

	if (is_switch(n))
		return 0;
	for (p = 1; p <= n->nports; p++) {
		if (n->port[p].peer == s && port_up(n, p))
			cnt++;
	}
	return cnt;
}

/*
 * Which switches get traffic for DLID @d from a CA or router (not @d's
 * owner): from each switch such a node links to, the LFTs are followed
 * until a switch already marked. Each switch is marked at most once, so
 * this is O(nodes) for one DLID.
 */
static void cdg_reach(struct cdg *g, uint32_t d)
{
	const struct ibt_fabric *f = g->f;
	uint32_t o = g->owner[d].node;
	uint32_t i;

	for (i = 0; i < g->nseeds; i++) {
		uint32_t s = g->seed[i];
		uint32_t t = s, k;

		if (g->nend[s] <= links_from(f, o, s))
			continue;
		/* at most one step for each node */
		for (k = 0; k < f->nnodes && t < f->nnodes; k++) {
			const struct ibt_fab_node *n = &f->node[t];
			uint8_t out;

			if (!is_switch(n) || !n->lft || d > n->lft_top)
				break;
			if (reach_test_set(g, t, d))
				break;
			out = n->lft[d];
			if (!out || !port_up(n, out))
				break;
			t = n->port[out].peer;
		}
	}
}

static int cdg_add_edge(struct cdg *g, uint32_t from, uint32_t to)
{
	if (g->nedges == g->edge_cap) {
		size_t cap = g->edge_cap ? 2 * g->edge_cap : 1024;
		uint32_t (*e)[2];

		if (cap > UINT32_MAX)
			return -1;
		e = realloc(g->edge, sizeof(*e) * cap);
		if (!e)
			return -1;
		g->edge = e;
		g->edge_cap = cap;
	}
	g->edge[g->nedges][0] = from;
	g->edge[g->nedges][1] = to;
	g->nedges++;
	return 0;
}

/*
 * The dependencies through switch @si: an (in port, out port) bitmap
 * @dep, (nports + 1)^2 bits, marks the pairs some DLID uses, then each pair
 * becomes one edge. O(ports x LFT size).
 */
static int cdg_switch(struct cdg *g, uint32_t si, uint8_t *dep)
{
	const struct ibt_fabric *f = g->f;
	const struct ibt_fab_node *s = &f->node[si];
	uint32_t w = s->nports + 1;
	uint32_t i, o, d;
	bool up[256];

	if (!s->lft)
		return 0;
	memset(dep, 0, (w * w + 7) / 8);
	for (o = 0; o <= s->nports; o++)
		up[o] = o && port_up(s, o);
	for (i = 1; i <= s->nports; i++) {
		uint32_t ni = s->port[i].peer;
		uint8_t np = s->port[i].peer_port;
		const struct ibt_fab_node *n;

		if (ni == IBT_FAB_NONE)
			continue;
		n = &f->node[ni];
		if (!port_up(n, np))
			continue;
		if (!is_switch(n)) {
			for (d = 1; d <= s->lft_top; d++) {
				uint32_t own = g->owner[d].node;

				o = s->lft[d];
				if (o > s->nports || !up[o] || own == IBT_FAB_NONE || own == ni)
					continue;
				dep[(i * w + o) / 8] |= 1 << (i * w + o) % 8;
			}
			continue;
		}
		if (!n->lft)
			continue;
		for (d = 1; d <= s->lft_top && d <= n->lft_top; d++) {
			o = s->lft[d];
			if (n->lft[d] != np || o > s->nports || !up[o] || !reach_test(g, ni, d))
				continue;
			dep[(i * w + o) / 8] |= 1 << (i * w + o) % 8;
		}
	}
	for (i = 1; i <= s->nports; i++) {
		for (o = 1; o <= s->nports; o++) {
			const struct ibt_fab_port *x = &s->port[i];

			if (!(dep[(i * w + o) / 8] & 1 << (i * w + o) % 8))
				continue;
			if (cdg_add_edge(g, g->base[x->peer] + x->peer_port, g->base[si] + o))
				return -1;
		}
	}
	return 0;
}

/* The graph: reach, then the dependencies switch by switch, then CSR. */
static int cdg_build(struct cdg *g)
{
	const struct ibt_fabric *f = g->f;
	uint8_t dep[(256 * 256 + 7) / 8];
	uint32_t d, n;
	size_t e;

	if (cdg_setup(g))
		return -1;
	for (d = 1; d <= IBT_FAB_LID_MAX; d++) {
		if (g->owner[d].node != IBT_FAB_NONE)
			cdg_reach(g, d);
	}
	for (n = 0; n < f->nnodes; n++) {
		if (is_switch(&f->node[n]) && cdg_switch(g, n, dep))
			return -1;
	}
	g->off = calloc((size_t)g->nv + 1, sizeof(*g->off));
	g->adj = malloc(sizeof(*g->adj) * (g->nedges ? g->nedges : 1));
	if (!g->off || !g->adj)
		return -1;
	for (e = 0; e < g->nedges; e++)
		g->off[g->edge[e][0] + 1]++;
	for (n = 0; n < g->nv; n++)
		g->off[n + 1] += g->off[n];
	/* off[v] is where v's next successor goes, then v + 1's start */
	for (e = 0; e < g->nedges; e++)
		g->adj[g->off[g->edge[e][0]]++] = g->edge[e][1];
	for (n = g->nv; n > 0; n--)
		g->off[n] = g->off[n - 1];
	g->off[0] = 0;
	free(g->edge);
	g->edge = NULL;
	return 0;
}

/*
 * Tarjan's strongly connected components, iteratively: @comp gets each
 * vertex's component, numbered from 0; returns how many. @idx, @low,
 * @stk, @fv and @fe are work arrays of nv entries. O(V + E).
 */
static uint32_t cdg_scc(const struct cdg *g, uint32_t *comp, uint32_t *idx,
			uint32_t *low, uint32_t *stk, uint32_t *fv, uint32_t *fe)
{
	uint32_t counter = 0, ncomp = 0, sp = 0, r;

	for (r = 0; r < g->nv; r++) {
		idx[r] = IBT_FAB_NONE;
		comp[r] = IBT_FAB_NONE;
	}
	for (r = 0; r < g->nv; r++) {
		uint32_t fp = 0;

		if (idx[r] != IBT_FAB_NONE || g->off[r] == g->off[r + 1])
			continue;
		idx[r] = low[r] = counter++;
		stk[sp++] = r;
		fv[fp] = r;
		fe[fp++] = g->off[r];
		/* each turn follows one edge or ends one vertex: O(V + E) turns */
		while (fp) {
			uint32_t v = fv[fp - 1];
			uint32_t w;

			if (fe[fp - 1] < g->off[v + 1]) {
				w = g->adj[fe[fp - 1]++];
				if (idx[w] == IBT_FAB_NONE) {
					idx[w] = low[w] = counter++;
					stk[sp++] = w;
					fv[fp] = w;
					fe[fp++] = g->off[w];
				} else if (comp[w] == IBT_FAB_NONE && idx[w] < low[v]) {
					/* w is on the stack */
					low[v] = idx[w];
				}
				continue;
			}
			fp--;
			if (low[v] == idx[v]) {
				do {
					w = stk[--sp];
					comp[w] = ncomp;
				} while (w != v);
				ncomp++;
			}
			if (fp && low[v] < low[fv[fp - 1]])
				low[fv[fp - 1]] = low[v];
		}
	}
	/* vertices without edges: a component each */
	for (r = 0; r < g->nv; r++) {
		if (comp[r] == IBT_FAB_NONE)
			comp[r] = ncomp++;
	}
	return ncomp;
}

/* The channel of vertex @v: its node by binary search in base. */
static struct ibt_cdg_chan cdg_chan(const struct cdg *g, uint32_t v)
{
	uint32_t lo = 0, hi = g->f->nnodes;
	struct ibt_cdg_chan c;

	/* base[lo] <= v < base[hi] */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->base[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	c.node = lo;
	c.port = v - g->base[lo];
	return c;
}

/*
 * A shortest cycle through vertex @v0 of component @c, by breadth-first
 * search within @c, into @cy. @mark (stamped with @stamp), @parent and
 * @q are work arrays of nv entries.
 */
static void cdg_cycle(const struct cdg *g, uint32_t v0, uint32_t c, const uint32_t *comp,
		      uint32_t *mark, uint32_t stamp, uint32_t *parent, uint32_t *q,
		      struct ibt_cdg_cycle *cy)
{
	uint32_t head = 0, tail = 0, last = IBT_FAB_NONE;
	uint32_t len, v, j;

	q[tail++] = v0;
	mark[v0] = stamp;
	parent[v0] = IBT_FAB_NONE;
	/* each vertex is queued once */
	while (head < tail && last == IBT_FAB_NONE) {
		uint32_t u = q[head++];
		uint32_t e;

		for (e = g->off[u]; e < g->off[u + 1]; e++) {
			uint32_t w = g->adj[e];

			if (w == v0) {
				last = u;
				break;
			}
			if (comp[w] != c || mark[w] == stamp)
				continue;
			mark[w] = stamp;
			parent[w] = u;
			q[tail++] = w;
		}
	}
	/* the path v0 .. last, backwards into q (no longer needed) */
	len = 0;
	for (v = last; v != IBT_FAB_NONE && len < g->nv; v = parent[v])
		q[len++] = v;
	cy->len = len;
	for (j = 0; j < len && j < IBT_CDG_CYCLE_MAX; j++)
		cy->chan[j] = cdg_chan(g, q[len - 1 - j]);
}

/* The components with a cycle, one cycle for each, up to @max: count or -1. */
static long cdg_find(const struct cdg *g, struct ibt_cdg_cycle *cycles, size_t max,
		     size_t *loops)
{
	uint32_t *work = malloc(sizeof(*work) * 6 * ((size_t)g->nv + 1));
	uint32_t *comp, *idx, *low, *stk, *fv, *fe, *csize;
	uint32_t ncomp, v, e;
	uint8_t *cyclic;
	size_t written = 0;

	if (!work)
		return -1;
	comp = work;
	idx = comp + g->nv + 1;
	low = idx + g->nv + 1;
	stk = low + g->nv + 1;
	fv = stk + g->nv + 1;
	fe = fv + g->nv + 1;
	ncomp = cdg_scc(g, comp, idx, low, stk, fv, fe);

	/* the work arrays again: csize (in idx), mark (low), parent (stk), q (fv) */
	csize = idx;
	cyclic = calloc(ncomp + 1, 1);
	if (!cyclic) {
		free(work);
		return -1;
	}
	memset(csize, 0, sizeof(*csize) * ncomp);
	for (v = 0; v < g->nv; v++) {
		csize[comp[v]]++;
		for (e = g->off[v]; e < g->off[v + 1]; e++) {
			if (g->adj[e] == v)
				cyclic[comp[v]] = 1;
		}
	}
	*loops = 0;
	for (v = 0; v < ncomp; v++) {
		if (csize[v] > 1)
			cyclic[v] = 1;
		*loops += cyclic[v];
	}
	for (v = 0; v < g->nv; v++)
		low[v] = 0;
	/* in vertex order, so that each cycle starts at its component's lowest */
	for (v = 0; v < g->nv && written < max; v++) {
		uint32_t c = comp[v];

		if (cyclic[c] != 1)
			continue;
		cyclic[c] = 2;
		cdg_cycle(g, v, c, comp, low, written + 1, stk, fv, &cycles[written]);
		cycles[written].scc_size = csize[c];
		written++;
	}
	free(cyclic);
	free(work);
	return written;
}

/**
 * ibt_cdg_loops() - the credit loops of the routes the tables give
 * @f: the model
 * @cycles: where to put up to @max cycles, one for each strongly
 *	connected component with a cycle, in the order of their lowest
 *	channel
 * @max: room in @cycles
 * @st: the graph's size and its number of such components; may be NULL
 *
 * The graph is that of the routes from every CA and router port (Active,
 * linked) to every LID a port owns, as the LFTs give them: a channel A
 * into switch s depends on channel B out of s when, for some DLID d, s
 * routes d to B and A carries d, that is A leaves a CA or router that does
 * not own d, or A leaves a switch that gets traffic for d from such a node
 * (following the LFTs) and routes d to A. Traffic a switch sends on its
 * own (from port 0) is not counted. Exit ports must be Active with a link.
 *
 * Time O(L x S + sum over switches of ports x (LinearFDBTop + 1) + V + E),
 * L the LIDs owned, S the nodes, V the channels, E the dependencies
 * (at most sum of ports^2); memory O(V + E + sum of LinearFDBTop / 8) and
 * the LID table (IBT_FAB_LID_MAX + 1 entries) when the model has no LID
 * index.
 *
 * Return: the number of cycles written (at most @max), or -1 when out of
 * memory.
 */
int ibt_cdg_loops(const struct ibt_fabric *f, struct ibt_cdg_cycle *cycles,
		  size_t max, struct ibt_cdg_stats *st)
{
	struct cdg g = { .f = f };
	size_t loops = 0, chans = 0;
	uint32_t n, p;
	long ret = -1;

	if (cdg_build(&g))
		goto out;
	ret = cdg_find(&g, cycles, max, &loops);
	if (ret < 0 || !st)
		goto out;
	for (n = 0; n < f->nnodes; n++) {
		for (p = 1; p <= f->node[n].nports; p++)
			chans += port_up(&f->node[n], p);
	}
	st->channels = chans;
	st->deps = g.nedges;
	st->loops = loops;
out:
	cdg_free(&g);
	return ret;
}
