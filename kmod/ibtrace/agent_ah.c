// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the address handles of the agent's answers, kept per port for
 * a short while and reused.
 *
 * An answer goes back to where its request came from: ib_mad's
 * ib_create_ah_from_wc() works that out from the request's completion
 * and GRH. On RoCE that means finding the source GID entry and the
 * neighbour's MAC: about 200 us of a 460-690 us loopback round trip on
 * rxe in a TCG VM (kprobes); on InfiniBand it is cheap. A requester that
 * pings or traces sends many requests from the same place, so the agent
 * keeps the last IBTRACE_AGENT_AHS handles of each port, each found again
 * by everything ib_create_ah_from_wc() reads from the completion (source
 * LID, SL, path bits, GRH flag, VLAN, network type, both GIDs, traffic
 * class and flow label) and reused for at most IBTRACE_AGENT_AH_TTL_MS.
 * The same inputs give the same handle unless the port changed (its GID
 * table, LID, state or SM: the device's events end every cached handle's
 * reuse at once, ibtrace_agent_ahs_expire()) or a neighbour's MAC did,
 * which raises no event: the lifetime bounds how long an answer can
 * follow an old one. A completion whose network type the device does not
 * say (RoCE without IB_WC_WITH_NETWORK_HDR_TYPE) gets a handle of its own.
 *
 * A handle is shared by the answers in flight: each holds a reference,
 * dropped when its send completes (ibtrace_agent_ah_put()); the cache
 * holds one while the entry is in it. The last reference destroys it.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "ibtrace.h"

/* An entry is reused for this long after it was made. */
#define IBTRACE_AGENT_AH_TTL_MS		1000

/**
 * struct ibtrace_agent_ah - one answer address handle
 * @key: what it was made from
 * @ah: the handle
 * @born: when it was made (jiffies)
 * @used: when it was last handed out (jiffies), for eviction
 * @epoch: the cache's epoch when it was made
 * @ref: the cache's, while in it, and one per answer in flight
 */
struct ibtrace_agent_ah {
	struct ibtrace_agent_ah_key key;
	struct ib_ah *ah;
	unsigned long born;
	unsigned long used;
	int epoch;
	refcount_t ref;
};

/* The key of a request's completion; false when it cannot have one. */
static bool ibtrace_agent_ah_key(const struct ibtrace_port *port,
				 const struct ib_wc *wc,
				 const struct ib_grh *grh,
				 struct ibtrace_agent_ah_key *k)
{
	enum rdma_network_type net = RDMA_NETWORK_IB;

	memset(k, 0, sizeof(*k));
	if (rdma_cap_eth_ah(port->dev->ibdev, port->port_num)) {
		if (!(wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE))
			return false;
		net = wc->network_hdr_type;
	}
	k->net = net;
	k->flags = wc->wc_flags & (IB_WC_GRH | IB_WC_WITH_VLAN);
	if (wc->wc_flags & IB_WC_WITH_VLAN)
		k->vlan = wc->vlan_id;
	k->slid = wc->slid;
	k->sl = wc->sl;
	k->path_bits = wc->dlid_path_bits;
	if (!(wc->wc_flags & IB_WC_GRH))
		return true;
	if (ib_get_gids_from_rdma_hdr((const union rdma_network_hdr *)grh,
				      net, &k->sgid, &k->dgid))
		return false;
	/* Traffic class and flow label; the version bits are not read. */
	k->tclass_flow = be32_to_cpu(grh->version_tclass_flow) & 0x0fffffff;
	return true;
}

static bool ibtrace_agent_ah_stale(const struct ibtrace_agent_ahs *c,
				   const struct ibtrace_agent_ah *e)
{
	return e->epoch != atomic_read(&c->epoch) ||
	       time_after(jiffies,
			  e->born + msecs_to_jiffies(IBTRACE_AGENT_AH_TTL_MS));
}

/**
 * ibtrace_agent_ah_put() - drop a reference to an answer's handle
 * @e: the entry; the last reference destroys its handle (may sleep)
 */
void ibtrace_agent_ah_put(struct ibtrace_agent_ah *e)
{
	if (!refcount_dec_and_test(&e->ref))
		return;
	rdma_destroy_ah(e->ah, RDMA_DESTROY_AH_SLEEPABLE);
	kfree(e);
}

/* A cached entry for @k that is not stale, with a reference, or NULL. */
static struct ibtrace_agent_ah *
ibtrace_agent_ah_find(const struct ibtrace_agent_ahs *c,
		      const struct ibtrace_agent_ah_key *k)
{
	unsigned int i;

	for (i = 0; i < IBTRACE_AGENT_AHS; i++) {
		struct ibtrace_agent_ah *e = c->slot[i];

		if (!e || ibtrace_agent_ah_stale(c, e) ||
		    memcmp(&e->key, k, sizeof(*k)))
			continue;
		e->used = jiffies;
		refcount_inc(&e->ref);
		return e;
	}
	return NULL;
}

/*
 * Put @e in the cache (it gains the cache's reference); returns the entry
 * it displaced, for the caller to put: an empty slot first, else a stale
 * entry, else the least recently used.
 */
static struct ibtrace_agent_ah *
ibtrace_agent_ah_insert(struct ibtrace_agent_ahs *c,
			struct ibtrace_agent_ah *e)
{
	struct ibtrace_agent_ah *old;
	unsigned int i, v = 0;

	for (i = 0; i < IBTRACE_AGENT_AHS; i++) {
		old = c->slot[i];
		if (!old || ibtrace_agent_ah_stale(c, old)) {
			v = i;
			break;
		}
		if (time_before(old->used, c->slot[v]->used))
			v = i;
	}
	old = c->slot[v];
	refcount_inc(&e->ref);
	c->slot[v] = e;
	return old;
}

/**
 * ibtrace_agent_ah_get() - the handle to answer a request with
 * @port: the port the request came in on (its agent is registered)
 * @wc: the request's completion
 * @grh: the request's GRH buffer
 *
 * Context: process (ib_mad's receive work); may sleep.
 * Return: an entry with a reference for the caller (its ->ah through
 * ibtrace_agent_ah_of()), or an ERR_PTR from ib_create_ah_from_wc() or
 * -ENOMEM.
 */
struct ibtrace_agent_ah *ibtrace_agent_ah_get(struct ibtrace_port *port,
					      const struct ib_wc *wc,
					      const struct ib_grh *grh)
{
	struct ibtrace_agent_ahs *c = &port->ahs;
	struct ibtrace_agent_ah *e, *old = NULL;
	struct ibtrace_agent_ah_key k;
	bool keyed;
	struct ib_ah *ah;
	int epoch;

	/* Read first: an event during the making ends the new entry too. */
	epoch = atomic_read(&c->epoch);
	keyed = ibtrace_agent_ah_key(port, wc, grh, &k);
	if (keyed) {
		mutex_lock(&c->lock);
		e = ibtrace_agent_ah_find(c, &k);
		mutex_unlock(&c->lock);
		if (e) {
			atomic64_inc(&port->stats.ah_reused);
			return e;
		}
	}

	ah = ib_create_ah_from_wc(port->agent->qp->pd, wc, grh, port->port_num);
	if (IS_ERR(ah))
		return ERR_CAST(ah);
	atomic64_inc(&port->stats.ah_made);
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return ERR_PTR(-ENOMEM);
	}
	memcpy(&e->key, &k, sizeof(k));
	e->ah = ah;
	e->born = jiffies;
	e->used = e->born;
	e->epoch = epoch;
	refcount_set(&e->ref, 1);
	if (keyed) {
		mutex_lock(&c->lock);
		old = ibtrace_agent_ah_insert(c, e);
		mutex_unlock(&c->lock);
		if (old)
			ibtrace_agent_ah_put(old);
	}
	return e;
}

/**
 * ibtrace_agent_ah_of() - the address handle of an entry
 * @e: the entry
 *
 * Return: the handle, valid while a reference to @e is held.
 */
struct ib_ah *ibtrace_agent_ah_of(const struct ibtrace_agent_ah *e)
{
	return e->ah;
}

/**
 * ibtrace_agent_ahs_init() - an empty cache for a port
 * @port: the port, before its agent is registered
 */
void ibtrace_agent_ahs_init(struct ibtrace_port *port)
{
	mutex_init(&port->ahs.lock);
	atomic_set(&port->ahs.epoch, 0);
}

/**
 * ibtrace_agent_ahs_expire() - reuse none of a port's cached handles
 * @port: the port, whose GID table, LID, state or SM changed
 *
 * The handles stay in their slots until replaced, or flushed with the
 * port; the answers in flight keep theirs.
 *
 * Context: any (the device's event handler); does not sleep.
 */
void ibtrace_agent_ahs_expire(struct ibtrace_port *port)
{
	atomic_inc(&port->ahs.epoch);
}

/**
 * ibtrace_agent_ahs_flush() - empty a port's cache for good
 * @port: the port, its agent unregistered: no handler runs and no answer
 *	is in flight, so nothing else uses the cache
 *
 * Every cached handle is destroyed.
 */
void ibtrace_agent_ahs_flush(struct ibtrace_port *port)
{
	struct ibtrace_agent_ahs *c = &port->ahs;
	unsigned int i;

	for (i = 0; i < IBTRACE_AGENT_AHS; i++) {
		if (c->slot[i])
			ibtrace_agent_ah_put(c->slot[i]);
		c->slot[i] = NULL;
	}
	mutex_destroy(&c->lock);
}
