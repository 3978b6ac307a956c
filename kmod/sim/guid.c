// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - GUID tables and the GUIDInfo attribute (IBA 14.2.5.5).
 *
 * Every HCA port and every switch's port 0 has a GUID table of the
 * fabric's guid_cap entries (FABRIC_ADD; rounded up here to whole blocks
 * of %IBTRACE_IBA_GUID_BLOCK so that a block is always addressable); external
 * switch ports have none. PortInfo:GUIDCap (port->guid_cap) says how many
 * entries are in use; it may be lowered at run time, so it is read under
 * the node lock on every access.
 *
 * GUIDInfo, AttributeModifier = block number, 8 GUIDs per block:
 * - entry 0 is the PortGUID and is read-only: a Set leaves it;
 * - entries at or above GUIDCap read back 0, and a Set to them is ignored;
 * - a block entirely past GUIDCap is answered with status 0x001C, for a
 *   Get and a Set alike;
 * - a Set is answered with the resulting block.
 * port->guid_quirks turns each rule off, for the negative cases of the
 * conformance test (&enum ibtrace_sim_guid_quirk).
 *
 * On an HCA the table is also ib_core's GID table: GID i is the port's
 * GidPrefix and entry i (dev.c); a Set that changes an entry makes the
 * caller raise IB_EVENT_GID_CHANGE.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <rdma/ib_smi.h>

#include "sim.h"
#include "loc.h"

/* Does @port have a GUID table? HCA ports 1..N and a switch's port 0. */
static bool ibtsim_port_has_guids(const struct ibtsim_port *port)
{
	if (port->node->type == IBTSIM_NODE_SWITCH)
		return !port->num;
	return port->num;
}

/* Entries allocated per table: guid_cap rounded up to whole blocks. */
static unsigned int ibtsim_guid_alloc_len(const struct ibtsim_fabric *fabric)
{
	return round_up(fabric->guid_cap, IBTRACE_IBA_GUID_BLOCK);
}

/**
 * ibtsim_guids_alloc - allocate the GUID tables of a node's ports
 * @node: the node, its ports numbered
 *
 * Return: 0 or -ENOMEM; on error the caller frees what was allocated with
 * ibtsim_guids_free().
 */
int ibtsim_guids_alloc(struct ibtsim_node *node)
{
	unsigned int len = ibtsim_guid_alloc_len(node->fabric);
	unsigned int n;

	for (n = 0; n <= node->num_ports; n++) {
		struct ibtsim_port *port = &node->ports[n];

		if (!ibtsim_port_has_guids(port))
			continue;
		port->gids = kcalloc(len, sizeof(*port->gids), GFP_KERNEL);
		if (!port->gids)
			return -ENOMEM;
	}
	return 0;
}

/**
 * ibtsim_guids_free - free the GUID tables of a node's ports
 * @node: the node
 */
void ibtsim_guids_free(struct ibtsim_node *node)
{
	unsigned int n;

	for (n = 0; n <= node->num_ports; n++) {
		kfree(node->ports[n].gids);
		node->ports[n].gids = NULL;
	}
}

/* GUIDCap in force; caller holds the node lock. */
static unsigned int __ibtsim_guid_cap(const struct ibtsim_port *port)
{
	if (!port->gids)
		return 0;
	return min_t(unsigned int, port->guid_cap, port->node->fabric->guid_cap);
}

/**
 * ibtsim_port_guid_entry - GUID entry @index as the port reports it
 * @port: an HCA port or a switch's port 0
 * @index: entry number
 *
 * Caller holds the node lock.
 *
 * Return: the entry, or 0 for an entry at or above GUIDCap (unless the
 * port's quirks keep those) or past the table.
 */
u64 ibtsim_port_guid_entry(struct ibtsim_port *port, unsigned int index)
{
	if (!port->gids || index >= ibtsim_guid_alloc_len(port->node->fabric))
		return 0;
	if (index >= __ibtsim_guid_cap(port) &&
	    !(port->guid_quirks & IBTRACE_SIM_GUID_QUIRK_ABOVE_CAP_NONZERO))
		return 0;
	return port->gids[index];
}

/**
 * ibtsim_guid_info - GUIDInfo Get or Set
 * @node: the node answering
 * @in_port: arrival port (the port answered for on an HCA)
 * @smp: the request, answered in place
 * @set: SubnSet (else SubnGet)
 * @changed: set to whether an entry of the table changed
 *
 * A switch answers for its port 0, whatever port the SMP came by.
 *
 * Return: the MAD status.
 */
u16 ibtsim_guid_info(struct ibtsim_node *node, u8 in_port, struct ib_smp *smp,
		     bool set, bool *changed)
{
	struct ibtsim_port *port = &node->ports[node->sw ? 0 : in_port];
	__be64 *wire = (__be64 *)smp->data;
	u32 block = be32_to_cpu(smp->attr_mod);
	unsigned int i, cap, first;
	unsigned long flags;
	u16 status = 0;
	u32 quirks;

	BUILD_BUG_ON(IBTRACE_IBA_GUID_BLOCK * sizeof(*wire) != IB_SMP_DATA_SIZE);
	*changed = false;
	if (!port->gids)
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;

	spin_lock_irqsave(&node->lock, flags);
	cap = __ibtsim_guid_cap(port);
	quirks = port->guid_quirks;
	if (block >= DIV_ROUND_UP(cap, IBTRACE_IBA_GUID_BLOCK)) {
		memset(wire, 0, IB_SMP_DATA_SIZE);
		if (!(quirks & IBTRACE_SIM_GUID_QUIRK_PAST_TABLE_STATUS))
			status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		goto out;
	}
	first = block * IBTRACE_IBA_GUID_BLOCK;
	for (i = 0; i < IBTRACE_IBA_GUID_BLOCK; i++) {
		unsigned int e = first + i;
		u64 v = be64_to_cpu(wire[i]);

		if (!set)
			continue;
		if (!e && !(quirks & IBTRACE_SIM_GUID_QUIRK_ENTRY0_WRITABLE))
			continue;
		if (e >= cap &&
		    !(quirks & IBTRACE_SIM_GUID_QUIRK_ABOVE_CAP_NONZERO))
			continue;
		if (port->gids[e] != v) {
			port->gids[e] = v;
			*changed = true;
		}
	}
	for (i = 0; i < IBTRACE_IBA_GUID_BLOCK; i++)
		wire[i] = cpu_to_be64(ibtsim_port_guid_entry(port, first + i));
out:
	spin_unlock_irqrestore(&node->lock, flags);
	return status;
}
