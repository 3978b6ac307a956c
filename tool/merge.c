// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtracectl - fault localisation from many audits (merge.h).
 *
 * Each audit's destinations (its JSON "destinations": a route that is ok
 * has "path", the channels it crosses, and, when proved, "proof" and
 * "return_path", the channels its answer came back by) add to the
 * channels they cross: a failing probe one fail (unreachable: on both
 * ways; mismatch: on the way there, its answer came back), a verified
 * one a pass on both. Ranked by fails (most first), then passes
 * (fewest first): with one link that drops what crosses it, every failing
 * probe crosses it and no verified one can, so it comes first. A channel
 * no failing probe crosses is no suspect.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "merge.h"

#define MERGE_FIRST_CAP	256

/**
 * ibt_merge_init() - an empty merge
 * @m: the merge
 */
void ibt_merge_init(struct ibt_merge *m)
{
	memset(m, 0, sizeof(*m));
}

static size_t merge_hash(uint64_t guid, uint8_t port, size_t cap)
{
	uint64_t h = (guid ^ ((uint64_t)port << 56)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (cap - 1);
}

/* The slot of (@guid, @port): its own, or the empty one it would take. */
static struct ibt_merge_chan *merge_slot(struct ibt_merge_chan *tab, size_t cap,
					 uint64_t guid, uint8_t port)
{
	size_t i = merge_hash(guid, port, cap);

	/* at most half full: an empty slot is always met */
	while (tab[i].guid && (tab[i].guid != guid || tab[i].port != port))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Twice the slots (or the first ones). 0, or -1 out of memory. */
static int merge_grow(struct ibt_merge *m)
{
	size_t cap = m->cap ? 2 * m->cap : MERGE_FIRST_CAP, i;
	struct ibt_merge_chan *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return -1;
	for (i = 0; i < m->cap; i++)
		if (m->chan[i].guid)
			*merge_slot(tab, cap, m->chan[i].guid,
				    m->chan[i].port) = m->chan[i];
	free(m->chan);
	m->chan = tab;
	m->cap = cap;
	return 0;
}

/* The channel (@guid, @port), added if new; NULL out of memory. */
static struct ibt_merge_chan *merge_chan(struct ibt_merge *m, uint64_t guid,
					 uint8_t port, const char *desc)
{
	struct ibt_merge_chan *c;

	if ((m->nchan + 1) * 2 > m->cap && merge_grow(m))
		return NULL;
	c = merge_slot(m->chan, m->cap, guid, port);
	if (!c->guid) {
		c->guid = guid;
		c->port = port;
		snprintf(c->desc, sizeof(c->desc), "%s", desc ? desc : "");
		m->nchan++;
	}
	return c;
}

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A "0x..." GUID, not 0. */
static bool guid_of(json_object *o, uint64_t *guid)
{
	const char *s = str_of(o, "node_guid");
	char *end;

	if (!s || strncmp(s, "0x", 2))
		return false;
	errno = 0;
	*guid = strtoull(s + 2, &end, 16);
	return !errno && !*end && end != s + 2 && *guid;
}

/* What a destination says of the data path */
enum dest_says {
	SAYS_NOTHING,		/* no proof, no agent, a route the tables fail */
	SAYS_VERIFIED,		/* both ways work */
	SAYS_UNREACHABLE,	/* one of the two ways loses what crosses it */
	SAYS_MISMATCH,		/* it came in elsewhere: the way there is wrong */
};

static enum dest_says dest_says(json_object *d)
{
	const char *v = str_of(d, "verdict");
	json_object *proof;

	if (!v || strcmp(v, "ok") || !json_object_object_get_ex(d, "proof", &proof))
		return SAYS_NOTHING;
	v = str_of(proof, "verdict");
	if (!v)
		return SAYS_NOTHING;
	if (!strcmp(v, "verified"))
		return SAYS_VERIFIED;
	if (!strcmp(v, "unreachable"))
		return SAYS_UNREACHABLE;
	if (!strcmp(v, "mismatch"))
		return SAYS_MISMATCH;
	return SAYS_NOTHING;
}

/* A probe's channels, each once: the way there and the way back. */
struct probe_chans {
	size_t n;
	struct {
		uint64_t guid;
		uint8_t port;
	} c[2 * (IBT_MERGE_PATH_MAX + 1)];
};

/*
 * Path @key of destination @i (@d) into @m, each channel not yet in @seen
 * once, as a fail or a pass. @need: the path must be there. 0, or -1 with
 * @err said.
 */
static int merge_path(struct ibt_merge *m, json_object *d, const char *key,
		      bool need, bool fail, struct probe_chans *seen, size_t i,
		      char *err, size_t errlen)
{
	json_object *path, *hop, *port;
	size_t k, j, n;
	uint64_t guid;

	if (!json_object_object_get_ex(d, key, &path)) {
		if (!need)
			return 0;
		snprintf(err, errlen,
			 "destination %zu has a proof but no %s (an audit of ibtracectl before 0.2?)",
			 i, key);
		return -1;
	}
	if (!json_object_is_type(path, json_type_array) ||
	    !(n = json_object_array_length(path)) || n > IBT_MERGE_PATH_MAX) {
		snprintf(err, errlen, "destination %zu: its %s is not a route",
			 i, key);
		return -1;
	}
	for (k = 0; k < n; k++) {
		struct ibt_merge_chan *c;
		int64_t p;

		hop = json_object_array_get_idx(path, k);
		if (!json_object_is_type(hop, json_type_object) ||
		    !guid_of(hop, &guid) ||
		    !json_object_object_get_ex(hop, "out_port", &port) ||
		    !json_object_is_type(port, json_type_int) ||
		    (p = json_object_get_int64(port)) < 0 || p > 255) {
			snprintf(err, errlen,
				 "destination %zu: hop %zu of its %s is not {node_guid, out_port}",
				 i, k, key);
			return -1;
		}
		for (j = 0; j < seen->n; j++)
			if (seen->c[j].guid == guid && seen->c[j].port == p)
				break;
		if (j < seen->n)
			continue;
		seen->c[seen->n].guid = guid;
		seen->c[seen->n++].port = (uint8_t)p;
		c = merge_chan(m, guid, (uint8_t)p, str_of(hop, "node_desc"));
		if (!c) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (fail)
			c->fails++;
		else
			c->passes++;
	}
	return 0;
}

/*
 * Destination @i of an audit (@d) into @m: a verified probe passes the
 * channels of both ways, an unreachable one fails both (either may have
 * lost it), a mismatch only the way there (its answer came back). 0, or
 * -1 with @err said.
 */
static int merge_dest(struct ibt_merge *m, json_object *d, size_t i,
		      char *err, size_t errlen)
{
	enum dest_says says = dest_says(d);
	struct probe_chans seen = { 0 };
	bool fail = says != SAYS_VERIFIED;

	if (says == SAYS_NOTHING) {
		m->other++;
		return 0;
	}
	if (merge_path(m, d, "path", true, fail, &seen, i, err, errlen) ||
	    (says != SAYS_MISMATCH &&
	     merge_path(m, d, "return_path", false, fail, &seen, i, err,
			errlen)))
		return -1;
	if (fail)
		m->failing++;
	else
		m->verified++;
	return 0;
}

/**
 * ibt_merge_add() - add one audit (the JSON of "ibtracectl -j audit")
 * @m: the merge
 * @audit: the audit
 * @err: why it could not be added, one sentence
 * @errlen: its size
 *
 * Return: 0, or -1 (@err said; what the audit added until then stays).
 */
int ibt_merge_add(struct ibt_merge *m, json_object *audit, char *err,
		  size_t errlen)
{
	json_object *dests;
	size_t i, n;

	if (!json_object_is_type(audit, json_type_object) ||
	    !json_object_object_get_ex(audit, "destinations", &dests) ||
	    !json_object_is_type(dests, json_type_array)) {
		snprintf(err, errlen,
			 "not the JSON of an audit (ibtracectl -j audit): no destinations");
		return -1;
	}
	n = json_object_array_length(dests);
	for (i = 0; i < n; i++)
		if (merge_dest(m, json_object_array_get_idx(dests, i), i, err,
			       errlen))
			return -1;
	m->audits++;
	return 0;
}

static int chan_cmp(const void *a, const void *b)
{
	const struct ibt_merge_chan *x = a, *y = b;

	if (x->fails != y->fails)
		return x->fails > y->fails ? -1 : 1;
	if (x->passes != y->passes)
		return x->passes < y->passes ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (int)x->port - (int)y->port;
}

/**
 * ibt_merge_rank() - rank the channels: the most failing probes first,
 *	then the fewest verified ones; the table is a list after this (no
 *	more ibt_merge_add())
 * @m: the merge
 */
void ibt_merge_rank(struct ibt_merge *m)
{
	size_t i, k = 0;

	for (i = 0; i < m->cap; i++)
		if (m->chan[i].guid)
			m->chan[k++] = m->chan[i];
	if (k)
		qsort(m->chan, k, sizeof(*m->chan), chan_cmp);
	m->cap = k;
}

/**
 * ibt_merge_suspects() - channels some failing probe crosses (ranked
 *	first after ibt_merge_rank())
 * @m: the merge, ranked
 *
 * Return: how many.
 */
size_t ibt_merge_suspects(const struct ibt_merge *m)
{
	size_t n = 0;

	while (n < m->nchan && m->chan[n].fails)
		n++;
	return n;
}

/**
 * ibt_merge_free() - free a merge
 * @m: the merge; empty again
 */
void ibt_merge_free(struct ibt_merge *m)
{
	free(m->chan);
	ibt_merge_init(m);
}
