// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fabric model of fabric.h: nodes, ports, links and LFTs, the GUID
 * index (a hash table, so that the sweep and the loader find a node in
 * O(1)), the LID index (an array by LID, so that a route finds the owner of
 * its DLID in O(1)), and the model's file.
 *
 * The file (ibt_fabric_save(), ibt_fabric_load()) is one JSON object, one
 * node a line:
 *
 *   {"format":"ibtrace-fabric","version":1,
 *   "source":{"guid":"0x0002c90300000001","port":1},
 *   "nodes":[
 *   {"guid":"0x...","type":"switch","ports":36,"desc":"...","lft_top":3,
 *    "lft":"ff010203","port":[{"num":0,"state":4,"phys":5,"lid":3,"lmc":0},
 *    {"num":1,"state":4,"phys":5,"lid":0,"lmc":0,"peer":"0x...",
 *    "peer_port":1}, ...]},
 *   ...
 *   ]}
 *
 * - "source" is there when there are nodes: the source node's GUID and
 *   the source port.
 * - A node: "guid" (0x and up to 16 hex digits), "type" ("switch", "ca"
 *   or "router"), "ports" (NumPorts, 0..255), "desc" (at most 64 bytes);
 *   a switch has "lft_top" (0..0xbfff) and, when its table was read,
 *   "lft": two hex digits an entry, lft_top + 1 entries, "ff" routing
 *   nowhere (a JSON array of numbers would cost json-c some 50 bytes an
 *   entry, 35 MB a 700-switch fabric).
 * - "port" lists the ports known (their PortInfo read) or linked, by
 *   number: "num"; "state", "phys", "lid" and "lmc" for a known port (all
 *   four or none: their presence is what "known" means); "peer" (the other
 *   end's GUID) and "peer_port" for a linked port. A link is written at
 *   both of its ends and must be the same at both.
 *
 * The loader accepts nothing else: no unknown key, no value out of its
 * field's range, and it says in one sentence what is wrong and where.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fabric.h"
#include "ibtracectl.h"

/* The most nodes a model holds: the GUID index stays within 32 bits. */
#define IBT_FAB_NODES_MAX	(1U << 28)
/* The largest file ibt_fabric_load() reads. */
#define IBT_FAB_FILE_MAX	(1UL << 30)
#define IBT_FAB_FORMAT		"ibtrace-fabric"
#define IBT_FAB_VERSION		1

void ibt_fabric_init(struct ibt_fabric *f)
{
	memset(f, 0, sizeof(*f));
}

/* Frees what @f holds and leaves it empty, as ibt_fabric_init() does. */
void ibt_fabric_free(struct ibt_fabric *f)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++) {
		free(f->node[i].port);
		free(f->node[i].lft);
	}
	free(f->node);
	free(f->guid_idx);
	free(f->lid_idx);
	ibt_fabric_init(f);
}

/* GUID index */

/* Home slot of @guid in a table of @size slots, a power of two (Fibonacci hashing). */
static uint32_t guid_home(uint64_t guid, uint32_t size)
{
	uint64_t h = (guid ^ (guid >> 31)) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(h >> 32) & (size - 1);
}

/*
 * The slot holding @guid in @idx (@size slots, @node the nodes they index),
 * or else the empty slot where it would go; IBT_FAB_NONE if the table is
 * full, which the load factor (at most one half) rules out.
 */
static uint32_t guid_slot(const uint32_t *idx, uint32_t size,
			  const struct ibt_fab_node *node, uint64_t guid)
{
	uint32_t s = guid_home(guid, size);
	uint32_t i;

	for (i = 0; i < size; i++, s = (s + 1) & (size - 1)) {
		if (idx[s] == IBT_FAB_NONE || node[idx[s]].guid == guid)
			return s;
	}
	return IBT_FAB_NONE;
}

/* Room in the GUID index for one more node: 0, or -1 out of memory. */
static int guid_idx_reserve(struct ibt_fabric *f)
{
	uint32_t size = f->guid_idx_size ? f->guid_idx_size : 64;
	uint32_t *idx;
	uint32_t i;

	while (size <= 2 * (f->nnodes + 1))
		size *= 2;
	if (size == f->guid_idx_size)
		return 0;
	idx = malloc(sizeof(*idx) * size);
	if (!idx)
		return -1;
	for (i = 0; i < size; i++)
		idx[i] = IBT_FAB_NONE;
	for (i = 0; i < f->nnodes; i++)
		idx[guid_slot(idx, size, f->node, f->node[i].guid)] = i;
	free(f->guid_idx);
	f->guid_idx = idx;
	f->guid_idx_size = size;
	return 0;
}

/**
 * ibt_fabric_find() - a node by its GUID
 * @f: the model
 * @guid: NodeGUID
 *
 * Return: the node's index, or IBT_FAB_NONE. O(1) (the GUID index).
 */
uint32_t ibt_fabric_find(const struct ibt_fabric *f, uint64_t guid)
{
	uint32_t s;

	if (!f->guid_idx)
		return IBT_FAB_NONE;
	s = guid_slot(f->guid_idx, f->guid_idx_size, f->node, guid);
	return s == IBT_FAB_NONE ? IBT_FAB_NONE : f->guid_idx[s];
}

/**
 * ibt_fabric_add() - a new node, without links, LIDs or table
 * @f: the model
 * @guid: NodeGUID, not yet in @f
 * @type: IBT_FAB_CA, IBT_FAB_SWITCH or IBT_FAB_ROUTER
 * @nports: NumPorts; the node gets ports 0..@nports, not known, no link
 *
 * Drops the LID index (ibt_fabric_index_lids() builds it again).
 *
 * Return: the node (index @f->nnodes - 1; the pointer is good until the
 * next ibt_fabric_add()), or NULL when out of memory, @guid is already a
 * node's or @type is none of the three.
 */
struct ibt_fab_node *ibt_fabric_add(struct ibt_fabric *f, uint64_t guid,
				    uint8_t type, uint8_t nports)
{
	struct ibt_fab_port *port;
	struct ibt_fab_node *n;
	uint32_t p;

	if (type != IBT_FAB_CA && type != IBT_FAB_SWITCH && type != IBT_FAB_ROUTER)
		return NULL;
	if (f->nnodes >= IBT_FAB_NODES_MAX || ibt_fabric_find(f, guid) != IBT_FAB_NONE)
		return NULL;
	if (guid_idx_reserve(f))
		return NULL;
	if (f->nnodes == f->cap) {
		uint32_t cap = f->cap ? 2 * f->cap : 16;

		n = realloc(f->node, sizeof(*n) * cap);
		if (!n)
			return NULL;
		f->node = n;
		f->cap = cap;
	}
	port = calloc(nports + 1, sizeof(*port));
	if (!port)
		return NULL;
	for (p = 0; p <= nports; p++)
		port[p].peer = IBT_FAB_NONE;

	n = &f->node[f->nnodes];
	memset(n, 0, sizeof(*n));
	n->guid = guid;
	n->type = type;
	n->nports = nports;
	n->port = port;
	f->guid_idx[guid_slot(f->guid_idx, f->guid_idx_size, f->node, guid)] = f->nnodes;
	f->nnodes++;

	free(f->lid_idx);
	f->lid_idx = NULL;
	return n;
}

/* Port @p of node @n loses its link, and the other end too if it agrees. */
static void unlink_port(struct ibt_fabric *f, uint32_t n, uint8_t p)
{
	struct ibt_fab_port *x = &f->node[n].port[p];

	if (x->peer < f->nnodes && x->peer_port <= f->node[x->peer].nports) {
		struct ibt_fab_port *y = &f->node[x->peer].port[x->peer_port];

		if (y->peer == n && y->peer_port == p) {
			y->peer = IBT_FAB_NONE;
			y->peer_port = 0;
		}
	}
	x->peer = IBT_FAB_NONE;
	x->peer_port = 0;
}

/**
 * ibt_fabric_link() - a link between port @pa of node @a and port @pb of
 *	node @b, set at both ends
 * @f: the model
 * @a, @pa: one end (a port 1..NumPorts)
 * @b, @pb: the other end
 *
 * A link either end had before is undone (at its other end too).
 *
 * Return: 0, or -1 if a node or port does not exist, a port is 0 or both
 * ends are the same port.
 */
int ibt_fabric_link(struct ibt_fabric *f, uint32_t a, uint8_t pa,
		    uint32_t b, uint8_t pb)
{
	if (a >= f->nnodes || b >= f->nnodes)
		return -1;
	if (!pa || pa > f->node[a].nports || !pb || pb > f->node[b].nports)
		return -1;
	if (a == b && pa == pb)
		return -1;
	unlink_port(f, a, pa);
	unlink_port(f, b, pb);
	f->node[a].port[pa].peer = b;
	f->node[a].port[pa].peer_port = pb;
	f->node[b].port[pb].peer = a;
	f->node[b].port[pb].peer_port = pa;
	return 0;
}

/**
 * ibt_fabric_set_lft() - a switch's linear forwarding table
 * @n: the switch
 * @top: LinearFDBTop, at most IBT_FAB_LID_MAX
 * @ports: @top + 1 exit ports, by DLID (copied); NULL for a table of
 *	IBT_FAB_NO_PORT
 *
 * Return: 0, or -1 if @n is not a switch, @top is too high or out of memory
 * (the old table is then kept).
 */
int ibt_fabric_set_lft(struct ibt_fab_node *n, uint32_t top,
		       const uint8_t *ports)
{
	uint8_t *lft;

	if (n->type != IBT_FAB_SWITCH || top > IBT_FAB_LID_MAX)
		return -1;
	lft = malloc(top + 1);
	if (!lft)
		return -1;
	if (ports)
		memcpy(lft, ports, top + 1);
	else
		memset(lft, IBT_FAB_NO_PORT, top + 1);
	free(n->lft);
	n->lft = lft;
	n->lft_top = top;
	return 0;
}

/* LIDs */

/**
 * ibt_fabric_port_lids() - the LIDs a port answers to
 * @f: the model
 * @n, @p: the node and port: a CA's or router's port 1..NumPorts, or a
 *	switch's port 0
 * @first, @last: the range, when there is one
 *
 * A known port with a unicast base LID answers to its LMC's 2^LMC LIDs:
 * the base LID with its low LMC bits (the path bits) anything (the range
 * [lid, lid + 2^lmc) when the SM aligned the base LID, as it must), LID 0
 * and multicast LIDs left out.
 *
 * Return: true if the port has LIDs, false if not (another port of a
 * switch, port 0 of a CA, not known, no LID, an LMC above 7).
 */
bool ibt_fabric_port_lids(const struct ibt_fabric *f, uint32_t n, uint8_t p,
			  uint16_t *first, uint16_t *last)
{
	const struct ibt_fab_node *node;
	const struct ibt_fab_port *port;
	uint32_t mask, lo, hi;

	if (n >= f->nnodes || p > f->node[n].nports)
		return false;
	node = &f->node[n];
	if ((node->type == IBT_FAB_SWITCH) != (p == 0))
		return false;
	port = &node->port[p];
	if (!port->known || !port->lid || port->lid > IBT_FAB_LID_MAX || port->lmc > 7)
		return false;
	mask = (1U << port->lmc) - 1;
	lo = port->lid & ~mask;
	hi = lo + mask;
	if (!lo)
		lo = 1;
	if (hi > IBT_FAB_LID_MAX)
		hi = IBT_FAB_LID_MAX;
	*first = lo;
	*last = hi;
	return true;
}

/**
 * ibt_fabric_lid_table() - who owns each LID
 * @f: the model
 * @tab: IBT_FAB_LID_MAX + 1 entries to fill, by LID
 *
 * A LID two ports answer to goes to the first (lowest node index, then
 * port number). O(ports + LIDs).
 *
 * Return: how many times a port claimed a LID another port had claimed
 * (0 when the LIDs are unique).
 */
long ibt_fabric_lid_table(const struct ibt_fabric *f, struct ibt_fab_lid *tab)
{
	long dups = 0;
	uint32_t i, n;

	for (i = 0; i <= IBT_FAB_LID_MAX; i++) {
		tab[i].node = IBT_FAB_NONE;
		tab[i].port = 0;
	}
	for (n = 0; n < f->nnodes; n++) {
		uint32_t p;

		for (p = 0; p <= f->node[n].nports; p++) {
			uint16_t first, last;

			if (!ibt_fabric_port_lids(f, n, p, &first, &last))
				continue;
			for (i = first; i <= last; i++) {
				if (tab[i].node != IBT_FAB_NONE) {
					dups++;
					continue;
				}
				tab[i].node = n;
				tab[i].port = p;
			}
		}
	}
	return dups;
}

/**
 * ibt_fabric_index_lids() - build (again) the LID index @f->lid_idx
 * @f: the model, its ports' LIDs and LMCs set
 *
 * To call once the model is complete, and again after its LIDs changed:
 * ibt_fabric_add() drops the index, nothing else maintains it.
 *
 * Return: the number of duplicate claims, as ibt_fabric_lid_table()
 * counts them, or -1 when out of memory (the model then has no index).
 */
long ibt_fabric_index_lids(struct ibt_fabric *f)
{
	if (!f->lid_idx) {
		f->lid_idx = malloc(sizeof(*f->lid_idx) * (IBT_FAB_LID_MAX + 1));
		if (!f->lid_idx)
			return -1;
	}
	return ibt_fabric_lid_table(f, f->lid_idx);
}

/**
 * ibt_fabric_lid_owner() - the port that answers to a LID
 * @f: the model
 * @lid: a unicast LID
 * @port: set to the owning port (0 for a switch) when there is one; may be
 *	NULL
 *
 * A CA's or router's port, or a switch (by its port 0), as
 * ibt_fabric_port_lids() gives their LIDs; the first of several. O(1) with
 * the LID index, else a scan of the ports.
 *
 * Return: the owning node's index, or IBT_FAB_NONE.
 */
uint32_t ibt_fabric_lid_owner(const struct ibt_fabric *f, uint16_t lid,
			      uint8_t *port)
{
	uint32_t n;

	if (!lid || lid > IBT_FAB_LID_MAX)
		return IBT_FAB_NONE;
	if (f->lid_idx) {
		n = f->lid_idx[lid].node;
		if (n != IBT_FAB_NONE && port)
			*port = f->lid_idx[lid].port;
		return n;
	}
	for (n = 0; n < f->nnodes; n++) {
		uint32_t p;

		for (p = 0; p <= f->node[n].nports; p++) {
			uint16_t first, last;

			if (!ibt_fabric_port_lids(f, n, p, &first, &last) ||
			    lid < first || lid > last)
				continue;
			if (port)
				*port = p;
			return n;
		}
	}
	return IBT_FAB_NONE;
}

/* The file */

static const char *const type_names[] = {
	[IBT_FAB_CA] = "ca",
	[IBT_FAB_SWITCH] = "switch",
	[IBT_FAB_ROUTER] = "router",
};

/* Adds @val (consumed, even on failure) to object @o as @key: 0 or -1. */
static int put(json_object *o, const char *key, json_object *val)
{
	if (!val)
		return -1;
	if (json_object_object_add(o, key, val)) {
		json_object_put(val);
		return -1;
	}
	return 0;
}

static int put_guid(json_object *o, const char *key, uint64_t guid)
{
	char s[19];

	snprintf(s, sizeof(s), "0x%016" PRIx64, guid);
	return put(o, key, json_object_new_string(s));
}

/* Port @p of @n as a JSON object into array @arr: 0 or -1. */
static int put_port(const struct ibt_fabric *f, const struct ibt_fab_node *n,
		    uint32_t p, json_object *arr)
{
	const struct ibt_fab_port *port = &n->port[p];
	json_object *o = json_object_new_object();

	if (!o)
		return -1;
	if (json_object_array_add(arr, o)) {
		json_object_put(o);
		return -1;
	}
	if (put(o, "num", json_object_new_int(p)))
		return -1;
	if (port->known &&
	    (put(o, "state", json_object_new_int(port->state)) ||
	     put(o, "phys", json_object_new_int(port->phys_state)) ||
	     put(o, "lid", json_object_new_int(port->lid)) ||
	     put(o, "lmc", json_object_new_int(port->lmc))))
		return -1;
	if (port->peer == IBT_FAB_NONE)
		return 0;
	if (port->peer >= f->nnodes)
		return -1;
	if (put_guid(o, "peer", f->node[port->peer].guid) ||
	    put(o, "peer_port", json_object_new_int(port->peer_port)))
		return -1;
	return 0;
}

/* Node @n as one line of JSON (no newline) to @out: 0 or -1. */
static int put_node(const struct ibt_fabric *f, const struct ibt_fab_node *n,
		    FILE *out)
{
	static const char hex[] = "0123456789abcdef";
	json_object *o = json_object_new_object();
	json_object *ports;
	const char *s;
	int ret = -1;
	uint32_t p;
	int bad;

	if (!o)
		return -1;
	if (n->type >= sizeof(type_names) / sizeof(type_names[0]) || !type_names[n->type])
		goto out;
	if (put_guid(o, "guid", n->guid) ||
	    put(o, "type", json_object_new_string(type_names[n->type])) ||
	    put(o, "ports", json_object_new_int(n->nports)) ||
	    put(o, "desc", json_object_new_string_len(n->desc, strnlen(n->desc, 64))))
		goto out;
	if (n->type == IBT_FAB_SWITCH &&
	    put(o, "lft_top", json_object_new_int(n->lft_top)))
		goto out;
	if (n->type == IBT_FAB_SWITCH && n->lft) {
		char *buf;
		uint32_t i;

		if (n->lft_top > IBT_FAB_LID_MAX)
			goto out;
		buf = malloc(2 * (n->lft_top + 1));
		if (!buf)
			goto out;
		for (i = 0; i <= n->lft_top; i++) {
			buf[2 * i] = hex[n->lft[i] >> 4];
			buf[2 * i + 1] = hex[n->lft[i] & 0xf];
		}
		bad = put(o, "lft", json_object_new_string_len(buf, 2 * (n->lft_top + 1)));
		free(buf);
		if (bad)
			goto out;
	}
	ports = json_object_new_array();
	if (put(o, "port", ports))
		goto out;
	for (p = 0; p <= n->nports; p++) {
		if (!n->port[p].known && n->port[p].peer == IBT_FAB_NONE)
			continue;
		if (put_port(f, n, p, ports))
			goto out;
	}
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s && fputs(s, out) != EOF)
		ret = 0;
out:
	json_object_put(o);
	return ret;
}

/**
 * ibt_fabric_save() - write the model to a file (the format at the top of
 *	fabric.c)
 * @f: the model
 * @out: where to write; flushed, not closed
 *
 * One node at a time: the memory it takes is one node's JSON.
 *
 * Return: 0, or -1 on a write error, out of memory, or a model that cannot
 * be written (a source or a peer that is not a node, a bad type).
 */
int ibt_fabric_save(const struct ibt_fabric *f, FILE *out)
{
	uint32_t i;

	if (f->nnodes && (f->src >= f->nnodes || f->src_port > f->node[f->src].nports))
		return -1;
	fprintf(out, "{\"format\":\"%s\",\"version\":%d,\n", IBT_FAB_FORMAT, IBT_FAB_VERSION);
	if (f->nnodes)
		fprintf(out, "\"source\":{\"guid\":\"0x%016" PRIx64 "\",\"port\":%u},\n",
			f->node[f->src].guid, f->src_port);
	fputs("\"nodes\":[\n", out);
	for (i = 0; i < f->nnodes; i++) {
		if (i)
			fputs(",\n", out);
		if (put_node(f, &f->node[i], out))
			return -1;
	}
	fputs("\n]}\n", out);
	if (fflush(out) || ferror(out))
		return -1;
	return 0;
}

/* Loading: the model being built and where to say what is wrong. */
struct fab_loader {
	struct ibt_fabric *f;
	char *err;
	size_t errlen;
	long node;		/* the node being read, or -1 */
	bool has_guid;		/* its GUID is known */
	uint64_t guid;
};

/* One sentence in the loader's err, after "node N (0xGUID): ": -1. */
static int __attribute__((format(printf, 2, 3)))
fail(struct fab_loader *ld, const char *fmt, ...)
{
	size_t len = 0;
	va_list ap;
	int n = 0;

	if (!ld->err || !ld->errlen)
		return -1;
	if (ld->node >= 0 && ld->has_guid)
		n = snprintf(ld->err, ld->errlen, "node %ld (0x%016" PRIx64 "): ",
			     ld->node, ld->guid);
	else if (ld->node >= 0)
		n = snprintf(ld->err, ld->errlen, "node %ld: ", ld->node);
	if (n > 0)
		len = (size_t)n < ld->errlen ? (size_t)n : ld->errlen - 1;
	va_start(ap, fmt);
	vsnprintf(ld->err + len, ld->errlen - len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Out of memory, wherever: -1. */
static int no_mem(struct fab_loader *ld)
{
	ld->node = -1;
	return fail(ld, "out of memory");
}

static bool json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * The JSON value in @in, read by chunks (the text is never whole in
 * memory), nothing but blanks after it. NULL on failure, said in @ld.
 */
static json_object *read_json(struct fab_loader *ld, FILE *in)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *obj = NULL;
	size_t total = 0;
	char buf[65536];

	if (!tok) {
		fail(ld, "out of memory");
		return NULL;
	}
	/* trailing text is checked below, whatever the chunk it is in */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	/* each turn reads one more chunk, and the file is at most FILE_MAX */
	while (total <= IBT_FAB_FILE_MAX) {
		size_t n = fread(buf, 1, sizeof(buf), in);
		size_t i = 0;

		if (!n)
			break;
		total += n;
		if (!obj) {
			enum json_tokener_error jerr;

			obj = json_tokener_parse_ex(tok, buf, n);
			jerr = json_tokener_get_error(tok);
			if (!obj && jerr != json_tokener_continue) {
				fail(ld, "not valid JSON: %s at offset %zu",
				     json_tokener_error_desc(jerr),
				     total - n + json_tokener_get_parse_end(tok));
				goto out;
			}
			if (!obj)
				continue;
			i = json_tokener_get_parse_end(tok);
		}
		for (; i < n; i++) {
			if (!json_space(buf[i])) {
				fail(ld, "text after the JSON at offset %zu", total - n + i);
				goto err;
			}
		}
	}
	if (ferror(in)) {
		fail(ld, "the file cannot be read");
		goto err;
	}
	if (total > IBT_FAB_FILE_MAX) {
		fail(ld, "the file is larger than %lu bytes", IBT_FAB_FILE_MAX);
		goto err;
	}
	if (!obj)
		fail(ld, total ? "the file ends inside its JSON" : "the file is empty");
	goto out;
err:
	json_object_put(obj);
	obj = NULL;
out:
	json_tokener_free(tok);
	return obj;
}

/* Every key of object @o is one of @keys (NULL-ended): 0, or -1. */
static int check_keys(struct fab_loader *ld, json_object *o, const char *what,
		      const char *const *keys)
{
	json_object_object_foreach(o, key, val) {
		size_t i;

		(void)val;
		for (i = 0; keys[i]; i++) {
			if (!strcmp(key, keys[i]))
				break;
		}
		if (!keys[i])
			return fail(ld, "%sunknown key \"%s\"", what, key);
	}
	return 0;
}

/*
 * @o's @key (its name in a message after @what) as a whole number in
 * [0, @max]: 0, 1 if absent and not @required, -1 if bad.
 */
static int get_uint(struct fab_loader *ld, json_object *o, const char *what,
		    const char *key, uint64_t max, bool required, uint64_t *v)
{
	json_object *x;
	int64_t i;

	if (!json_object_object_get_ex(o, key, &x)) {
		if (required)
			return fail(ld, "%s%s is missing", what, key);
		return 1;
	}
	if (!json_object_is_type(x, json_type_int))
		return fail(ld, "%s%s is not a whole number", what, key);
	i = json_object_get_int64(x);
	if (i < 0 || (uint64_t)i > max)
		return fail(ld, "%s%s %" PRId64 " is out of range 0..%" PRIu64,
			    what, key, i, max);
	*v = i;
	return 0;
}

/* @o's @key as a string: 0, 1 if absent and not @required, -1 if bad. */
static int get_str(struct fab_loader *ld, json_object *o, const char *what,
		   const char *key, bool required, const char **s, size_t *len)
{
	json_object *x;

	if (!json_object_object_get_ex(o, key, &x)) {
		if (required)
			return fail(ld, "%s%s is missing", what, key);
		return 1;
	}
	if (!json_object_is_type(x, json_type_string))
		return fail(ld, "%s%s is not a string", what, key);
	*s = json_object_get_string(x);
	*len = json_object_get_string_len(x);
	return 0;
}

/* @o's @key as a GUID, "0x" and 1..16 hex digits: 0, or -1. */
static int get_guid(struct fab_loader *ld, json_object *o, const char *what,
		    const char *key, uint64_t *guid)
{
	const char *s;
	uint64_t g = 0;
	size_t len, i;

	if (get_str(ld, o, what, key, true, &s, &len))
		return -1;
	if (len < 3 || len > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		goto bad;
	for (i = 2; i < len; i++) {
		int d = ibt_hex_digit(s[i]);

		if (d < 0)
			goto bad;
		g = g << 4 | d;
	}
	*guid = g;
	return 0;
bad:
	return fail(ld, "%s%s \"%.24s\" is not a GUID (0x and 1 to 16 hex digits)",
		    what, key, s);
}

/* Pass 1 on node @i: its GUID, type and NumPorts, and the node added. */
static int load_node_id(struct fab_loader *ld, json_object *o)
{
	struct ibt_fabric *f = ld->f;
	uint64_t guid, nports;
	const char *type;
	size_t len;
	uint32_t t, dup;

	if (!json_object_is_type(o, json_type_object))
		return fail(ld, "not a JSON object");
	if (get_guid(ld, o, "", "guid", &guid))
		return -1;
	ld->guid = guid;
	ld->has_guid = true;
	if (get_str(ld, o, "", "type", true, &type, &len))
		return -1;
	for (t = 1; t < sizeof(type_names) / sizeof(type_names[0]); t++) {
		if (!strcmp(type, type_names[t]))
			break;
	}
	if (t == sizeof(type_names) / sizeof(type_names[0]))
		return fail(ld, "type \"%.16s\" is not switch, ca or router", type);
	if (get_uint(ld, o, "", "ports", 255, true, &nports))
		return -1;
	dup = ibt_fabric_find(f, guid);
	if (dup != IBT_FAB_NONE)
		return fail(ld, "its GUID is node %u's too", dup);
	if (!ibt_fabric_add(f, guid, t, nports))
		return no_mem(ld);
	return 0;
}

/* The node's "lft" string, lft_top + 1 entries of two hex digits. */
static int load_lft(struct fab_loader *ld, struct ibt_fab_node *n, json_object *o,
		    uint32_t top)
{
	const char *s;
	size_t len, i;
	int ret;

	ret = get_str(ld, o, "", "lft", false, &s, &len);
	if (ret)
		return ret < 0 ? -1 : 0;
	if (len % 2)
		return fail(ld, "lft has an odd number of hex digits (%zu)", len);
	if (len / 2 != (size_t)top + 1)
		return fail(ld, "lft has %zu entries, not lft_top + 1 = %u", len / 2, top + 1);
	if (ibt_fabric_set_lft(n, top, NULL))
		return no_mem(ld);
	for (i = 0; i <= top; i++) {
		int hi = ibt_hex_digit(s[2 * i]);
		int lo = ibt_hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return fail(ld, "lft entry %zu (DLID 0x%zx) is not two hex digits", i, i);
		n->lft[i] = hi << 4 | lo;
	}
	return 0;
}

/* One element of a node's "port" array; @seen, the port numbers so far. */
static int load_port(struct fab_loader *ld, uint32_t ni, json_object *o, uint8_t *seen)
{
	static const char *const keys[] = {
		"num", "state", "phys", "lid", "lmc", "peer", "peer_port", NULL
	};
	static const char *const known_keys[] = { "state", "phys", "lid", "lmc" };
	static const uint64_t known_max[] = { 15, 15, 0xffff, 7 };
	struct ibt_fabric *f = ld->f;
	struct ibt_fab_node *n = &f->node[ni];
	struct ibt_fab_port *port;
	uint64_t num, v[4], pp;
	unsigned int i, nknown = 0;
	json_object *x;
	char what[32];
	uint64_t guid;
	uint32_t peer;

	if (!json_object_is_type(o, json_type_object))
		return fail(ld, "a port is not a JSON object");
	if (get_uint(ld, o, "a port's ", "num", 255, true, &num))
		return -1;
	if (num > n->nports)
		return fail(ld, "port %" PRIu64 " is past its %u ports", num, n->nports);
	if (!num && n->type != IBT_FAB_SWITCH)
		return fail(ld, "a %s has no port 0", type_names[n->type]);
	if (seen[num / 8] & 1 << num % 8)
		return fail(ld, "port %" PRIu64 " is given twice", num);
	seen[num / 8] |= 1 << num % 8;
	snprintf(what, sizeof(what), "port %" PRIu64 "'s ", num);
	if (check_keys(ld, o, what, keys))
		return -1;
	port = &n->port[num];

	for (i = 0; i < 4; i++) {
		int ret = get_uint(ld, o, what, known_keys[i], known_max[i], false, &v[i]);

		if (ret < 0)
			return -1;
		nknown += !ret;
	}
	if (nknown && nknown < 4)
		return fail(ld, "port %" PRIu64 " has some of state, phys, lid and lmc "
			    "but not all four", num);
	if (nknown) {
		port->known = true;
		port->state = v[0];
		port->phys_state = v[1];
		port->lid = v[2];
		port->lmc = v[3];
	}

	if (!json_object_object_get_ex(o, "peer", &x)) {
		if (json_object_object_get_ex(o, "peer_port", &x))
			return fail(ld, "port %" PRIu64 " has a peer_port but no peer", num);
		return 0;
	}
	if (!num)
		return fail(ld, "port 0 cannot have a peer");
	if (get_guid(ld, o, what, "peer", &guid) ||
	    get_uint(ld, o, what, "peer_port", 255, true, &pp))
		return -1;
	peer = ibt_fabric_find(f, guid);
	if (peer == IBT_FAB_NONE)
		return fail(ld, "port %" PRIu64 "'s peer 0x%016" PRIx64
			    " is not a node of the file", num, guid);
	if (!pp || pp > f->node[peer].nports)
		return fail(ld, "port %" PRIu64 "'s peer_port %" PRIu64 " is not a port of 0x%016"
			    PRIx64 " (1..%u)", num, pp, guid, f->node[peer].nports);
	port->peer = peer;
	port->peer_port = pp;
	return 0;
}

/* Pass 2 on node @ni: the rest (desc, LFT, ports), peers resolved. */
static int load_node(struct fab_loader *ld, uint32_t ni, json_object *o)
{
	static const char *const keys[] = {
		"guid", "type", "ports", "desc", "lft_top", "lft", "port", NULL
	};
	struct ibt_fab_node *n = &ld->f->node[ni];
	uint8_t seen[256 / 8] = { 0 };
	json_object *ports;
	const char *desc;
	uint64_t top = 0;
	size_t len, i, cnt;
	int ret;

	if (check_keys(ld, o, "", keys))
		return -1;
	ret = get_str(ld, o, "", "desc", false, &desc, &len);
	if (ret < 0)
		return -1;
	if (!ret) {
		if (len >= sizeof(n->desc))
			return fail(ld, "desc is longer than %zu bytes", sizeof(n->desc) - 1);
		if (strlen(desc) != len)
			return fail(ld, "desc has a NUL character");
		memcpy(n->desc, desc, len + 1);
	}
	if (n->type != IBT_FAB_SWITCH) {
		if (json_object_object_get_ex(o, "lft_top", NULL) ||
		    json_object_object_get_ex(o, "lft", NULL))
			return fail(ld, "a %s has no lft", type_names[n->type]);
	} else {
		if (get_uint(ld, o, "", "lft_top", IBT_FAB_LID_MAX, false, &top) < 0)
			return -1;
		n->lft_top = top;
		if (load_lft(ld, n, o, top))
			return -1;
	}
	if (!json_object_object_get_ex(o, "port", &ports))
		return 0;
	if (!json_object_is_type(ports, json_type_array))
		return fail(ld, "port is not a JSON array");
	cnt = json_object_array_length(ports);
	for (i = 0; i < cnt; i++) {
		if (load_port(ld, ni, json_object_array_get_idx(ports, i), seen))
			return -1;
	}
	return 0;
}

/* Pass 3: every link is the same at both ends. */
static int check_links(struct fab_loader *ld)
{
	const struct ibt_fabric *f = ld->f;
	uint32_t i, p;

	for (i = 0; i < f->nnodes; i++) {
		const struct ibt_fab_node *n = &f->node[i];

		for (p = 1; p <= n->nports; p++) {
			const struct ibt_fab_port *x = &n->port[p];
			const struct ibt_fab_port *y;

			if (x->peer == IBT_FAB_NONE)
				continue;
			y = &f->node[x->peer].port[x->peer_port];
			if (y->peer == i && y->peer_port == p)
				continue;
			ld->node = i;
			ld->guid = n->guid;
			ld->has_guid = true;
			return fail(ld, "port %u links to 0x%016" PRIx64
				    " port %u, which does not link back",
				    p, f->node[x->peer].guid, x->peer_port);
		}
	}
	return 0;
}

static int load_source(struct fab_loader *ld, json_object *root)
{
	static const char *const keys[] = { "guid", "port", NULL };
	struct ibt_fabric *f = ld->f;
	json_object *src;
	uint64_t guid, port;
	uint32_t n;

	if (!json_object_object_get_ex(root, "source", &src)) {
		if (f->nnodes)
			return fail(ld, "the file has no source");
		return 0;
	}
	if (!json_object_is_type(src, json_type_object))
		return fail(ld, "source is not a JSON object");
	if (check_keys(ld, src, "source's ", keys) ||
	    get_guid(ld, src, "source's ", "guid", &guid) ||
	    get_uint(ld, src, "source's ", "port", 255, true, &port))
		return -1;
	n = ibt_fabric_find(f, guid);
	if (n == IBT_FAB_NONE)
		return fail(ld, "source 0x%016" PRIx64 " is not a node of the file", guid);
	if (port > f->node[n].nports || (!port && f->node[n].type != IBT_FAB_SWITCH))
		return fail(ld, "source port %" PRIu64 " is not a port of 0x%016" PRIx64,
			    port, guid);
	f->src = n;
	f->src_port = port;
	return 0;
}

static int load_root(struct fab_loader *ld, json_object *root)
{
	static const char *const keys[] = { "format", "version", "source", "nodes", NULL };
	json_object *x, *nodes;
	uint64_t version;
	size_t cnt, i;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "format", &x) ||
	    !json_object_is_type(x, json_type_string) ||
	    strcmp(json_object_get_string(x), IBT_FAB_FORMAT))
		return fail(ld, "not an ibtrace fabric file");
	if (!json_object_object_get_ex(root, "version", &x))
		return fail(ld, "the file has no version");
	if (!json_object_is_type(x, json_type_int) || json_object_get_int64(x) < 1)
		return fail(ld, "version is not a whole number from 1");
	version = json_object_get_int64(x);
	if (version != IBT_FAB_VERSION)
		return fail(ld, "version %" PRIu64 " is not known (this ibtracectl "
			    "reads version %d)", version, IBT_FAB_VERSION);
	if (check_keys(ld, root, "", keys))
		return -1;
	if (!json_object_object_get_ex(root, "nodes", &nodes) ||
	    !json_object_is_type(nodes, json_type_array))
		return fail(ld, "the file has no nodes array");
	cnt = json_object_array_length(nodes);
	if (cnt > IBT_FAB_NODES_MAX)
		return fail(ld, "the file has more than %u nodes", IBT_FAB_NODES_MAX);
	for (i = 0; i < cnt; i++) {
		ld->node = i;
		ld->has_guid = false;
		if (load_node_id(ld, json_object_array_get_idx(nodes, i)))
			return -1;
	}
	for (i = 0; i < cnt; i++) {
		ld->node = i;
		ld->guid = ld->f->node[i].guid;
		ld->has_guid = true;
		if (load_node(ld, i, json_object_array_get_idx(nodes, i)))
			return -1;
	}
	ld->node = -1;
	if (check_links(ld))
		return -1;
	ld->node = -1;
	return load_source(ld, root);
}

/**
 * ibt_fabric_load() - read a model ibt_fabric_save() wrote
 * @f: the model to fill; initialized here (whatever it held is not freed)
 * @in: the file, read to its end
 * @err: on failure, one sentence saying what is wrong and where
 *	("node 12 (0x...): port 40 is past its 36 ports"); may be NULL
 * @errlen: room in @err
 *
 * The file is checked whole: format and version, every key and value
 * (ranges, GUIDs, hex), unique GUIDs, peers that are nodes of the file and
 * links the same at both ends. The LID index is built.
 *
 * Return: 0, or -1 with @f empty (as ibt_fabric_init() leaves it) and
 * nothing left allocated.
 */
/**
 * ibt_json_read() - the JSON value of a file, as the model's is read
 * @in: the file
 * @err: why it could not be read, one sentence
 * @errlen: its size
 *
 * By chunks (the text is never whole in memory), strict, nothing but
 * blanks after the value, at most 1 GiB.
 *
 * Return: the value (json_object_put() it), or NULL, @err said.
 */
json_object *ibt_json_read(FILE *in, char *err, size_t errlen)
{
	struct fab_loader ld = { .err = err, .errlen = errlen, .node = -1 };

	if (err && errlen)
		err[0] = '\0';
	return read_json(&ld, in);
}

int ibt_fabric_load(struct ibt_fabric *f, FILE *in, char *err, size_t errlen)
{
	struct fab_loader ld = {
		.f = f, .err = err, .errlen = errlen, .node = -1,
	};
	json_object *root;
	int ret;

	ibt_fabric_init(f);
	if (err && errlen)
		err[0] = '\0';
	root = read_json(&ld, in);
	if (!root)
		return -1;
	ret = load_root(&ld, root);
	json_object_put(root);
	if (!ret && ibt_fabric_index_lids(f) < 0)
		ret = no_mem(&ld);
	if (ret)
		ibt_fabric_free(f);
	return ret;
}
