/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtracectl - a subnet as the route audit sees it: its nodes, their
 * ports and links, and the switches' linear forwarding tables.
 *
 * The model is filled from the kernel's sweep (directed-route SMPs from
 * one port: NodeInfo, NodeDescription, PortInfo, SwitchInfo and the LFT
 * blocks up to LinearFDBTop) or from a file written by an earlier audit
 * (ibt_fabric_save()/ibt_fabric_load()); route.c computes and checks the
 * routes the tables give from the source port.
 */
#ifndef IBT_FABRIC_H
#define IBT_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* No node (a port without a link, a LID nobody has). */
#define IBT_FAB_NONE		UINT32_MAX
/* An LFT entry that routes nowhere (IBA 14.2.5.10). */
#define IBT_FAB_NO_PORT		0xff
/* The highest unicast LID (IBA 4.1.3); an LFT has at most this + 1 entries. */
#define IBT_FAB_LID_MAX		0xbfff

/* NodeInfo's NodeType */
enum ibt_fab_type {
	IBT_FAB_CA = 1,
	IBT_FAB_SWITCH = 2,
	IBT_FAB_ROUTER = 3,
};

/* PortInfo's PortState, and PortPhysicalState's LinkUp */
enum {
	IBT_FAB_PORT_DOWN = 1,
	IBT_FAB_PORT_INIT = 2,
	IBT_FAB_PORT_ARMED = 3,
	IBT_FAB_PORT_ACTIVE = 4,
	IBT_FAB_PHYS_LINKUP = 5,
};

/**
 * struct ibt_fab_port - one port of a node
 * @known: its PortInfo was read (a CA's ports other than the one the sweep
 *	entered it by are not)
 * @state: PortState (IBT_FAB_PORT_*), 0 if not known
 * @phys_state: PortPhysicalState, 0 if not known
 * @lmc: LMC (CA and router ports, a switch's port 0)
 * @lid: base LID (CA and router ports, a switch's port 0), 0 if none
 * @peer: index of the node at the other end of the port's link, or
 *	IBT_FAB_NONE (no link, or port 0 of a switch)
 * @peer_port: the port of @peer the link ends on
 */
struct ibt_fab_port {
	bool known;
	uint8_t state;
	uint8_t phys_state;
	uint8_t lmc;
	uint16_t lid;
	uint32_t peer;
	uint8_t peer_port;
};

/**
 * struct ibt_fab_node - one node of the subnet
 * @guid: NodeGUID
 * @type: enum ibt_fab_type
 * @nports: NumPorts: @port has @nports + 1 entries, [0] a switch's
 *	management port (unused on a CA)
 * @desc: NodeDescription, NUL-terminated
 * @port: its ports, by number
 * @lft_top: LinearFDBTop (switches): @lft has @lft_top + 1 entries
 * @lft: the switch's LinearForwardingTable, exit port by DLID, or NULL
 *	(not a switch, or no table read)
 */
struct ibt_fab_node {
	uint64_t guid;
	uint8_t type;
	uint8_t nports;
	char desc[65];
	struct ibt_fab_port *port;
	uint32_t lft_top;
	uint8_t *lft;
};

/**
 * struct ibt_fab_lid - who owns a LID (an entry of the LID index)
 * @node: the owning node's index, or IBT_FAB_NONE
 * @port: the owning port (0 for a switch)
 */
struct ibt_fab_lid {
	uint32_t node;
	uint8_t port;
};

/**
 * struct ibt_fabric - a subnet seen from one port
 * @node: the nodes, by index (the sweep's order: the source first)
 * @nnodes: how many
 * @cap: room in @node
 * @src: index of the source node (the audit's own)
 * @src_port: the source port
 * @guid_idx: the GUID index: an open-addressing hash table (linear
 *	probing) of node indices, IBT_FAB_NONE in an empty slot, kept up to
 *	date by ibt_fabric_add(); NULL while the model has no node
 * @guid_idx_size: slots in @guid_idx, a power of two, more than twice
 *	@nnodes (0 while @guid_idx is NULL)
 * @lid_idx: the LID index, IBT_FAB_LID_MAX + 1 entries by LID, built by
 *	ibt_fabric_index_lids() once the ports' LIDs are set (ibt_fabric_load()
 *	builds it) and dropped by ibt_fabric_add(); NULL when not built, and
 *	ibt_fabric_lid_owner() then scans the ports
 */
struct ibt_fabric {
	struct ibt_fab_node *node;
	uint32_t nnodes;
	uint32_t cap;
	uint32_t src;
	uint8_t src_port;
	uint32_t *guid_idx;
	uint32_t guid_idx_size;
	struct ibt_fab_lid *lid_idx;
};

void ibt_fabric_init(struct ibt_fabric *f);
void ibt_fabric_free(struct ibt_fabric *f);
struct ibt_fab_node *ibt_fabric_add(struct ibt_fabric *f, uint64_t guid,
				    uint8_t type, uint8_t nports);
uint32_t ibt_fabric_find(const struct ibt_fabric *f, uint64_t guid);
int ibt_fabric_link(struct ibt_fabric *f, uint32_t a, uint8_t pa,
		    uint32_t b, uint8_t pb);
int ibt_fabric_set_lft(struct ibt_fab_node *n, uint32_t top,
		       const uint8_t *ports);
uint32_t ibt_fabric_lid_owner(const struct ibt_fabric *f, uint16_t lid,
			      uint8_t *port);
bool ibt_fabric_port_lids(const struct ibt_fabric *f, uint32_t n, uint8_t p,
			  uint16_t *first, uint16_t *last);
long ibt_fabric_lid_table(const struct ibt_fabric *f, struct ibt_fab_lid *tab);
long ibt_fabric_index_lids(struct ibt_fabric *f);
int ibt_fabric_save(const struct ibt_fabric *f, FILE *out);
struct json_object *ibt_json_read(FILE *in, char *err, size_t errlen);
int ibt_fabric_load(struct ibt_fabric *f, FILE *in, char *err,
		    size_t errlen);

#endif /* IBT_FABRIC_H */
