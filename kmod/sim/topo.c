// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - topology text parser.
 *
 * The subset of the ibnetdiscover / ibsim format understood so far:
 *
 *	# comment (anywhere outside quotes, to the end of the line)
 *	vendid=0x2c9             \
 *	devid=0x5a44              | optional, before a node header; the
 *	sysimgguid=0x8f10400411f5a| GUIDs apply to the next node
 *	caguid=0x8f10400411f5a   / (switchguid= too, "(portguid)" ignored)
 *	Hca 2 "name"             node header: Hca, Ca or Switch, ports, name
 *	[1](portguid) "peer"[1](peerportguid)   a link; both GUIDs optional
 *
 * A link may be written on one side or on both; written twice it must
 * agree. Errors carry the 1-based line number and a static reason.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/sort.h>
#include <linux/bsearch.h>
#include <linux/mm.h>

#include "sim.h"
#include "topo.h"
#include "loc.h"

#define IBTSIM_TOPO_UNRESOLVED	U32_MAX

struct ibtsim_topo_ctx {
	struct ibtsim_topo *topo;
	struct ibtsim_topo_node *cur;
	u64 pending_node_guid;
	u64 pending_sys_guid;
	u32 line;
};

static int ibtsim_topo_err(struct ibtsim_topo *topo, u32 line, const char *msg)
{
	topo->err_line = line;
	topo->err_msg = msg;
	return -EINVAL;
}

/*
 * The text is ASCII: the kernel's isspace() and isalpha() also take
 * Latin-1's bytes (0xa0, a no-break space, is a space to them), which
 * no user-space reader of the format does in the C locale.
 */
static bool ibtsim_topo_space(char c)
{
	return isascii(c) && isspace(c);
}

static char *ibtsim_skip_ws(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Cut the line at a '#' that is not inside a quoted name. */
static void ibtsim_strip_comment(char *p)
{
	bool quoted = false;

	for (; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '#' && !quoted)
			break;
	}
	*p = '\0';
}

static void ibtsim_rstrip(char *s)
{
	size_t n = strlen(s);

	while (n && ibtsim_topo_space(s[n - 1]))
		s[--n] = '\0';
}

/* Parse an unsigned number (decimal, or hex with 0x) ending at a non-digit. */
static int ibtsim_parse_u64(char **pp, u64 *val, bool hex_default)
{
	char *p = *pp, *start, save;
	int base = hex_default ? 16 : 10;
	int err;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		base = 16;
	}
	start = p;
	while (base == 16 ? isxdigit(*p) : isdigit(*p))
		p++;
	if (p == start)
		return -EINVAL;
	save = *p;
	*p = '\0';
	err = kstrtou64(start, base, val);
	*p = save;
	if (err)
		return err;
	*pp = p;
	return 0;
}

/* "[N]" */
static int ibtsim_parse_port_num(char **pp, u32 *port)
{
	char *p = *pp;
	u64 v;

	if (*p != '[')
		return -EINVAL;
	p++;
	if (ibtsim_parse_u64(&p, &v, false) || *p != ']')
		return -EINVAL;
	if (v < 1 || v > IBTRACE_SIM_PORTS_MAX)
		return -ERANGE;
	*port = v;
	*pp = p + 1;
	return 0;
}

/* Optional "(hexguid)"; *guid is left alone when absent. */
static int ibtsim_parse_opt_guid(char **pp, u64 *guid)
{
	char *p = *pp;

	if (*p != '(')
		return 0;
	p++;
	if (ibtsim_parse_u64(&p, guid, true) || *p != ')')
		return -EINVAL;
	*pp = p + 1;
	return 0;
}

/* "name": returns a pointer into the (terminated) text. */
static int ibtsim_parse_name(char **pp, char **name)
{
	char *p = *pp, *end;

	if (*p != '"')
		return -EINVAL;
	end = strchr(p + 1, '"');
	if (!end)
		return -EINVAL;
	*end = '\0';
	*name = p + 1;
	*pp = end + 1;
	return 0;
}

/*
 * A port number "[N]" at *@pp, as ibtsim_parse_port_num() reads it; on
 * error the line's error is @range (out of range) or @bad.
 */
static int ibtsim_topo_port_num(struct ibtsim_topo_ctx *ctx, char **pp,
				u32 *num, const char *range, const char *bad)
{
	int err = ibtsim_parse_port_num(pp, num);

	if (err)
		return ibtsim_topo_err(ctx->topo, ctx->line,
				       err == -ERANGE ? range : bad);
	return 0;
}

static int ibtsim_topo_port_line(struct ibtsim_topo_ctx *ctx, char *p)
{
	struct ibtsim_topo *topo = ctx->topo;
	struct ibtsim_topo_node *node = ctx->cur;
	struct ibtsim_topo_port *port;
	u64 guid = 0, peer_guid = 0;
	u32 num, peer_num;
	char *name;
	int err;

	if (!node)
		return ibtsim_topo_err(topo, ctx->line,
				       "port line before any node header");
	err = ibtsim_topo_port_num(ctx, &p, &num, "port number out of range",
				   "bad local port, expected [N]");
	if (err)
		return err;
	if (num > node->num_ports)
		return ibtsim_topo_err(topo, ctx->line,
				       "port number above the node's port count");
	if (ibtsim_parse_opt_guid(&p, &guid))
		return ibtsim_topo_err(topo, ctx->line, "bad port GUID");
	p = ibtsim_skip_ws(p);
	if (ibtsim_parse_name(&p, &name))
		return ibtsim_topo_err(topo, ctx->line,
				       "bad peer name, expected \"name\"");
	err = ibtsim_topo_port_num(ctx, &p, &peer_num,
				   "peer port number out of range",
				   "bad peer port, expected [N]");
	if (err)
		return err;
	if (ibtsim_parse_opt_guid(&p, &peer_guid))
		return ibtsim_topo_err(topo, ctx->line, "bad peer port GUID");
	p = ibtsim_skip_ws(p);
	if (*p)
		return ibtsim_topo_err(topo, ctx->line,
				       "unexpected text after the link");

	port = &node->ports[num];
	if (port->peer_name)
		return ibtsim_topo_err(topo, ctx->line, "port listed twice");
	port->guid = guid;
	port->peer_name = name;
	port->peer = IBTSIM_TOPO_UNRESOLVED;
	port->peer_port = peer_num;
	port->line = ctx->line;
	return 0;
}

static int ibtsim_topo_keyword(struct ibtsim_topo_ctx *ctx, char *p, char *eq)
{
	struct ibtsim_topo *topo = ctx->topo;
	char *val = eq + 1;
	u64 v;

	*eq = '\0';
	ibtsim_rstrip(p);
	val = ibtsim_skip_ws(val);
	if (ibtsim_parse_u64(&val, &v, false))
		return ibtsim_topo_err(topo, ctx->line, "bad number after '='");
	if (*val == '(') {
		u64 ignored;

		if (ibtsim_parse_opt_guid(&val, &ignored))
			return ibtsim_topo_err(topo, ctx->line, "bad GUID");
	}
	if (*ibtsim_skip_ws(val))
		return ibtsim_topo_err(topo, ctx->line,
				       "unexpected text after the value");

	if (!strcmp(p, "sysimgguid"))
		ctx->pending_sys_guid = v;
	else if (!strcmp(p, "caguid") || !strcmp(p, "switchguid"))
		ctx->pending_node_guid = v;
	else if (strcmp(p, "vendid") && strcmp(p, "devid"))
		return ibtsim_topo_err(topo, ctx->line, "unknown keyword");
	return 0;
}

static int ibtsim_topo_node_line(struct ibtsim_topo_ctx *ctx, char *p)
{
	struct ibtsim_topo *topo = ctx->topo;
	struct ibtsim_topo_node *node;
	u64 nports, guid = 0;
	char *word = p, *name;
	bool hostless;
	u8 type;

	while (isascii(*p) && isalpha(*p))
		p++;
	if (!ibtsim_topo_space(*p))
		return ibtsim_topo_err(topo, ctx->line, "unknown line");
	*p++ = '\0';
	if (!strcasecmp(word, "Hca") || !strcasecmp(word, "Ca"))
		type = IBTSIM_NODE_CA;
	else if (!strcasecmp(word, "Switch"))
		type = IBTSIM_NODE_SWITCH;
	else
		return ibtsim_topo_err(topo, ctx->line,
				       "unknown node type (Hca, Ca or Switch)");

	p = ibtsim_skip_ws(p);
	if (ibtsim_parse_u64(&p, &nports, false))
		return ibtsim_topo_err(topo, ctx->line, "bad port count");
	if (nports < 1 || nports > IBTRACE_SIM_PORTS_MAX)
		return ibtsim_topo_err(topo, ctx->line, "port count out of range");
	p = ibtsim_skip_ws(p);
	if (ibtsim_parse_name(&p, &name))
		return ibtsim_topo_err(topo, ctx->line,
				       "bad node name, expected \"name\"");
	if (!*name)
		return ibtsim_topo_err(topo, ctx->line, "empty node name");
	if (strlen(name) > IBTRACE_SIM_NODE_NAME_MAX)
		return ibtsim_topo_err(topo, ctx->line, "node name too long");
	p = ibtsim_skip_ws(p);
	if (ibtsim_parse_opt_guid(&p, &guid))
		return ibtsim_topo_err(topo, ctx->line, "bad node GUID");
	if (*ibtsim_skip_ws(p))
		return ibtsim_topo_err(topo, ctx->line,
				       "unexpected text after the node name");

	/* Its cost before its memory: over budget, the rest is only counted. */
	hostless = type == IBTSIM_NODE_CA && topo->cas >= topo->max_devs;
	topo->mem_cost += ibtsim_node_cost(type, nports, topo->guid_cap,
					   hostless);
	topo->ports += nports + (type == IBTSIM_NODE_SWITCH);
	if (type == IBTSIM_NODE_SWITCH) {
		topo->switches++;
		topo->lids++;
	} else {
		topo->cas++;
		topo->lids += nports;
	}
	if (topo->mem_cost > topo->mem_room)
		topo->over_budget = true;
	if (topo->over_budget) {
		ctx->cur = NULL;
		return 0;
	}

	if (topo->num_nodes == topo->alloc_nodes) {
		u32 n = topo->alloc_nodes ? 2 * topo->alloc_nodes : 16;
		struct ibtsim_topo_node *nodes;

		if (topo->num_nodes >= IBTSIM_MAX_NODES)
			return ibtsim_topo_err(topo, ctx->line, "too many nodes");
		nodes = kvrealloc(topo->nodes,
				  topo->alloc_nodes * sizeof(*nodes),
				  n * sizeof(*nodes), GFP_KERNEL);
		if (!nodes)
			return -ENOMEM;
		topo->nodes = nodes;
		topo->alloc_nodes = n;
	}
	node = &topo->nodes[topo->num_nodes];
	memset(node, 0, sizeof(*node));
	node->ports = kcalloc(nports + 1, sizeof(*node->ports), GFP_KERNEL);
	if (!node->ports)
		return -ENOMEM;
	topo->num_nodes++;
	node->type = type;
	node->num_ports = nports;
	strscpy(node->name, name, sizeof(node->name));
	node->node_guid = guid ? guid : ctx->pending_node_guid;
	node->sys_guid = ctx->pending_sys_guid;
	node->line = ctx->line;
	node->hostless = hostless;
	ctx->pending_node_guid = 0;
	ctx->pending_sys_guid = 0;
	ctx->cur = node;
	return 0;
}

static int ibtsim_topo_line(struct ibtsim_topo_ctx *ctx, char *p)
{
	char *eq;

	ibtsim_strip_comment(p);
	ibtsim_rstrip(p);
	p = ibtsim_skip_ws(p);
	if (!*p)
		return 0;
	if (*p == '[')
		return ctx->topo->over_budget ? 0 :
		       ibtsim_topo_port_line(ctx, p);
	eq = strchr(p, '=');
	if (eq && !strchr(p, '"'))
		return ctx->topo->over_budget ? 0 :
		       ibtsim_topo_keyword(ctx, p, eq);
	return ibtsim_topo_node_line(ctx, p);
}

/* Sorting and searching node indices by name. */
static const struct ibtsim_topo *ibtsim_sort_topo;

static int ibtsim_topo_cmp_idx(const void *a, const void *b)
{
	const struct ibtsim_topo_node *nodes = ibtsim_sort_topo->nodes;

	return strcmp(nodes[*(const u32 *)a].name, nodes[*(const u32 *)b].name);
}

struct ibtsim_topo_key {
	const struct ibtsim_topo *topo;
	const char *name;
};

static int ibtsim_topo_cmp_key(const void *key, const void *elt)
{
	const struct ibtsim_topo_key *k = key;

	return strcmp(k->name, k->topo->nodes[*(const u32 *)elt].name);
}

static int ibtsim_topo_resolve_port(struct ibtsim_topo *topo, const u32 *order,
				    u32 idx, u32 num)
{
	struct ibtsim_topo_node *node = &topo->nodes[idx], *peer;
	struct ibtsim_topo_port *port = &node->ports[num], *back;
	struct ibtsim_topo_key key = { .topo = topo, .name = port->peer_name };
	const u32 *found;

	if (!port->peer_name || port->peer != IBTSIM_TOPO_UNRESOLVED)
		return 0;
	found = bsearch(&key, order, topo->num_nodes, sizeof(*order),
			ibtsim_topo_cmp_key);
	if (!found)
		return ibtsim_topo_err(topo, port->line, "unknown peer node");
	peer = &topo->nodes[*found];
	if (port->peer_port > peer->num_ports)
		return ibtsim_topo_err(topo, port->line,
				       "peer port above the peer's port count");
	if (*found == idx && port->peer_port == num)
		return ibtsim_topo_err(topo, port->line,
				       "port linked to itself");
	back = &peer->ports[port->peer_port];
	if (back->peer_name &&
	    (back->peer_port != num ||
	     (back->peer == IBTSIM_TOPO_UNRESOLVED ?
	      strcmp(back->peer_name, node->name) : back->peer != idx)))
		return ibtsim_topo_err(topo, max(port->line, back->line),
				       "link disagrees with the peer's port line");
	port->peer = *found;
	if (!back->peer_name)
		back->line = port->line;
	back->peer_name = node->name;
	back->peer = idx;
	back->peer_port = num;
	return 0;
}

static int ibtsim_topo_resolve(struct ibtsim_topo *topo)
{
	u32 *order, i, num;
	int err = 0;

	if (!topo->num_nodes)
		return ibtsim_topo_err(topo, 0, "no node in the topology");
	order = kvmalloc_array(topo->num_nodes, sizeof(*order), GFP_KERNEL);
	if (!order)
		return -ENOMEM;
	for (i = 0; i < topo->num_nodes; i++)
		order[i] = i;
	/* sort() has no context argument; callers hold ibtsim_fabrics_lock. */
	ibtsim_sort_topo = topo;
	sort(order, topo->num_nodes, sizeof(*order), ibtsim_topo_cmp_idx, NULL);
	ibtsim_sort_topo = NULL;

	for (i = 1; i < topo->num_nodes; i++) {
		const struct ibtsim_topo_node *a = &topo->nodes[order[i - 1]];
		const struct ibtsim_topo_node *b = &topo->nodes[order[i]];

		if (!strcmp(a->name, b->name)) {
			err = ibtsim_topo_err(topo, max(a->line, b->line),
					      "duplicate node name");
			goto out;
		}
	}
	for (i = 0; i < topo->num_nodes; i++) {
		for (num = 1; num <= topo->nodes[i].num_ports; num++) {
			err = ibtsim_topo_resolve_port(topo, order, i, num);
			if (err)
				goto out;
		}
	}
out:
	kvfree(order);
	return err;
}

/**
 * ibtsim_topo_parse - parse topology text
 * @topo: zeroed result; free with ibtsim_topo_free() whatever the outcome
 * @text: the text, need not be NUL-terminated
 * @len: its length
 *
 * The cost of the fabric is added up in @topo->mem_cost before its nodes
 * are allocated; a text whose cost goes over @topo->mem_room is refused
 * (-ENOSPC) without allocating more than the nodes that fitted, and with
 * the whole cost in @topo->err_detail.
 *
 * Return: 0, -ENOMEM, -ENOSPC, or -EINVAL with @topo->err_line and
 * @topo->err_msg telling where and why. Caller holds ibtsim_fabrics_lock.
 */
int ibtsim_topo_parse(struct ibtsim_topo *topo, const char *text, size_t len)
{
	struct ibtsim_topo_ctx ctx = { .topo = topo };
	char *p, *nl;
	int err;

	lockdep_assert_held(&ibtsim_fabrics_lock);
	topo->text = kvmalloc(len + 1, GFP_KERNEL);
	if (!topo->text)
		return -ENOMEM;
	memcpy(topo->text, text, len);
	topo->text[len] = '\0';
	nl = memchr(topo->text, '\0', len);
	if (nl) {
		for (p = topo->text; p < nl; p++)
			ctx.line += *p == '\n';
		return ibtsim_topo_err(topo, ctx.line + 1,
				       "NUL byte inside the text");
	}

	for (p = topo->text; *p; p = nl) {
		ctx.line++;
		nl = strchrnul(p, '\n');
		if (*nl)
			*nl++ = '\0';
		err = ibtsim_topo_line(&ctx, p);
		if (err)
			return err;
	}
	topo->mem_cost += ibtsim_fabric_cost(topo->switches, topo->lids,
					     topo->ports);
	if (topo->mem_cost > topo->mem_room) {
		ibtsim_budget_error(topo);
		return -ENOSPC;
	}
	return ibtsim_topo_resolve(topo);
}

void ibtsim_topo_free(struct ibtsim_topo *topo)
{
	u32 i;

	for (i = 0; i < topo->num_nodes; i++)
		kfree(topo->nodes[i].ports);
	kvfree(topo->nodes);
	kvfree(topo->text);
	topo->nodes = NULL;
	topo->text = NULL;
	topo->num_nodes = 0;
	topo->alloc_nodes = 0;
}
