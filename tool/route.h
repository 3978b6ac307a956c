/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtracectl - the routes a fabric model's tables give (fabric.h), checked,
 * and the credit loops they make.
 *
 * ibt_route_compute() follows the LFTs from the model's source port to one
 * DLID, hop by hop, as the switches would forward a packet, and says how
 * it ends (enum ibt_route_verdict); ibt_route_dests() lists the DLIDs to
 * check. ibt_cdg_loops() builds the channel dependency graph of the routes
 * from every CA and router port to every LID and finds its cycles, each a
 * possible credit loop (a deadlock when the VLs do not break it).
 *
 * Pure logic: no I/O, no global state; the model is only read.
 */
#ifndef IBT_ROUTE_H
#define IBT_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include <linux/ibtrace.h>

#include "fabric.h"

/* The most links a route may cross: a SourceRoute probe's vector. */
#define IBT_ROUTE_MAX_HOPS	IBTRACE_SROUTE_MAX_HOPS

/**
 * enum ibt_route_verdict - how a route ends
 * @IBT_ROUTE_OK: it reached the port that owns the DLID
 * @IBT_ROUTE_HOLE: a switch has no exit port for the DLID: no table, the
 *	DLID past LinearFDBTop, entry IBT_FAB_NO_PORT or a port past NumPorts
 * @IBT_ROUTE_DEAD_END: the exit port (or the source port) is not Active or
 *	has no link
 * @IBT_ROUTE_LOOP: a switch is met twice
 * @IBT_ROUTE_TOO_LONG: it would cross more than IBT_ROUTE_MAX_HOPS links
 * @IBT_ROUTE_MISDELIVERED: it reached a CA or router that does not own the
 *	DLID, or the owner by another port than the owning one, or exit port
 *	0 of a switch that does not own it
 * @IBT_ROUTE_NO_OWNER: no port has the DLID, and the tables deliver it
 *	to a CA, a router or a switch's port 0 all the same (where they do
 *	not, the route's failure is said instead: a LID routed into a port
 *	that is down is a DEAD_END)
 */
enum ibt_route_verdict {
	IBT_ROUTE_OK,
	IBT_ROUTE_HOLE,
	IBT_ROUTE_DEAD_END,
	IBT_ROUTE_LOOP,
	IBT_ROUTE_TOO_LONG,
	IBT_ROUTE_MISDELIVERED,
	IBT_ROUTE_NO_OWNER,
};

/**
 * struct ibt_route_hop - one node of a route
 * @node: its index in the model
 * @in_port: the port the packet enters by (0 at the source)
 * @out_port: the port it leaves by (0 where it ends: delivered to that
 *	port, or stopped, see struct ibt_route)
 */
struct ibt_route_hop {
	uint32_t node;
	uint8_t in_port;
	uint8_t out_port;
};

/**
 * struct ibt_route - the route from the model's source port to a DLID
 * @dlid: the DLID
 * @dest: the node that owns @dlid, or IBT_FAB_NONE
 * @dest_port: its port that owns it (0 for a switch)
 * @verdict: enum ibt_route_verdict
 * @at_node: where the route failed (the node of the last hop), or
 *	IBT_FAB_NONE when it is OK
 * @at_port: the port at fault there: HOLE, the LFT entry (IBT_FAB_NO_PORT
 *	when none or past the top); DEAD_END, TOO_LONG, the exit port; LOOP,
 *	MISDELIVERED at a CA, the port it entered by; MISDELIVERED at a
 *	switch, 0
 * @nhops: entries in @hop, 1..IBT_ROUTE_MAX_HOPS + 1
 * @hop: the nodes met, in order. hop[0] is the source node, in_port 0,
 *	out_port the source port (a switch source: the LFT's exit port). An
 *	OK route ends with the owner, out_port 0. A failed one ends with
 *	@at_node: its out_port the exit port it would take (HOLE: 0,
 *	DEAD_END, TOO_LONG: the exit port), 0 elsewhere; a LOOP's last hop
 *	is the switch met again.
 */
struct ibt_route {
	uint16_t dlid;
	uint32_t dest;
	uint8_t dest_port;
	uint8_t verdict;
	uint32_t at_node;
	uint8_t at_port;
	uint8_t nhops;
	struct ibt_route_hop hop[IBT_ROUTE_MAX_HOPS + 1];
};

const char *ibt_route_verdict_str(unsigned int v);
int ibt_route_compute(const struct ibt_fabric *f, uint16_t dlid,
		      struct ibt_route *r);
int ibt_route_back(const struct ibt_fabric *f, const struct ibt_route *r,
		   struct ibt_route *back);
size_t ibt_route_in_ports(const struct ibt_route *r, uint8_t *ports);
size_t ibt_route_dests(const struct ibt_fabric *f, uint16_t *dlids,
		       size_t max);

/* The channels of a reported cycle kept in struct ibt_cdg_cycle */
#define IBT_CDG_CYCLE_MAX	64

/**
 * struct ibt_cdg_chan - a channel: the link out of a node's port
 * @node: the node's index
 * @port: the port the link leaves by
 */
struct ibt_cdg_chan {
	uint32_t node;
	uint8_t port;
};

/**
 * struct ibt_cdg_cycle - a cycle of the channel dependency graph
 * @len: channels in the cycle (it may be more than IBT_CDG_CYCLE_MAX)
 * @scc_size: channels in its strongly connected component
 * @chan: the first min(@len, IBT_CDG_CYCLE_MAX) channels: each waits for
 *	credits on the next, the last on the first. @chan[0] is the
 *	component's lowest channel (node index, then port) and the cycle is
 *	a shortest one through it.
 */
struct ibt_cdg_cycle {
	uint32_t len;
	uint32_t scc_size;
	struct ibt_cdg_chan chan[IBT_CDG_CYCLE_MAX];
};

/**
 * struct ibt_cdg_stats - the size of the graph and its loops
 * @channels: channels (links out of an Active port)
 * @deps: dependencies (edges), each counted once
 * @loops: strongly connected components with a cycle (one cycle is
 *	reported for each, up to the caller's max)
 */
struct ibt_cdg_stats {
	size_t channels;
	size_t deps;
	size_t loops;
};

int ibt_cdg_loops(const struct ibt_fabric *f, struct ibt_cdg_cycle *cycles,
		  size_t max, struct ibt_cdg_stats *st);

#endif /* IBT_ROUTE_H */
