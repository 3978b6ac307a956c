// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - the memory budget of the fabrics.
 *
 * A topology text of a few hundred KiB can ask for gigabytes (20,000
 * "Switch 254" lines: 12 GiB). What a fabric will cost is estimated from
 * the sizes of the structures it allocates, as the allocator rounds them,
 * before anything of it is allocated: the parser adds up each node header
 * of the text before it allocates the node, and once the nodes seen are
 * over budget it allocates nothing more and only adds up the rest, so
 * that the refusal names the whole cost. The fabrics alive or being built share
 * one budget, the module parameter mem_budget_mb (0: a quarter of RAM);
 * a fabric beyond it is refused with the cost and the budget.
 *
 * Not every byte is ours: an HCA is an RDMA device, and ib_core and its
 * clients allocate for it too, ib_mad the most: QP0 and QP1 of each port
 * keep ib_core's recv_queue_size receive buffers of 512 bytes (512 KiB
 * per port at the default of 512, 64 KiB at 64). The sim learns that
 * size from the QP0/QP1 ib_mad creates on its devices (512 until then).
 * Measured in a VM at the default: 60 HCAs estimated 41 MiB, took 35-37;
 * a fat tree of 504 HCAs and 46 switches estimated 351 MiB, took 320-328.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "sim.h"
#include "verbs.h"
#include "topo.h"
#include "loc.h"

static unsigned int ibtsim_mem_budget_mb;
module_param_named(mem_budget_mb, ibtsim_mem_budget_mb, uint, 0644);
MODULE_PARM_DESC(mem_budget_mb,
		 "memory all fabrics together may take, MiB (0: a quarter of RAM)");

/*
 * What ib_core and its clients take per HCA port besides ib_mad's receive
 * buffers (IBTSIM_MAD_RECV_BUF each): send buffers, sysfs, caches.
 */
#define IBTSIM_CORE_PORT_COST	(64 * 1024)
#define IBTSIM_MAD_RECV_BUF	512	/* kmalloc-512: ib_mad_private + MAD */
/* ... and per HCA: struct ib_device's sysfs, cdevs, ib_umad's files. */
#define IBTSIM_CORE_DEV_COST	(64 * 1024)
/* ib_core's default recv_queue_size */
#define IBTSIM_CORE_RECV_WR	512

/* debugfs: about 1 KiB per file of a port directory */
#define IBTSIM_DEBUGFS_PORT_COST	(IBTSIM_DEBUGFS_PORT_FILES * 1024)

#define IBTSIM_BUDGET_MSG \
	"the fabric needs more memory than ibtrace_sim's budget (module parameter mem_budget_mb)"

/* memory the fabrics took from the budget; protected by ibtsim_fabrics_lock */
static u64 ibtsim_mem_used;

/* receive WRs of the last QP0/QP1 ib_mad created on a sim device */
static u32 ibtsim_mad_recv_wr = IBTSIM_CORE_RECV_WR;

/**
 * ibtsim_budget_note_mad_qp - a QP0 or QP1 was created with @recv_wr receives
 * @recv_wr: its receive queue size: ib_core's recv_queue_size
 */
void ibtsim_budget_note_mad_qp(u32 recv_wr)
{
	WRITE_ONCE(ibtsim_mad_recv_wr, recv_wr);
}

/* Bytes a table of @bytes takes (ibtsim_zalloc_array()). */
static u64 ibtsim_table_cost(size_t bytes)
{
	return bytes > PAGE_SIZE ? PAGE_ALIGN(bytes) :
				   kmalloc_size_roundup(bytes);
}

/**
 * ibtsim_node_cost - memory a node of the fabric takes
 * @type: &enum ibtsim_node_type
 * @num_ports: its external ports
 * @guid_cap: the fabric's GUID table entries per port
 * @hostless: an HCA without an RDMA device: nothing of ib_core's
 *
 * Everything but the LinearForwardingTable of a switch, which depends on
 * the fabric's LIDs, and the debugfs files, which depend on its size
 * (ibtsim_fabric_cost()).
 *
 * Return: bytes.
 */
u64 ibtsim_node_cost(u8 type, u8 num_ports, u8 guid_cap, bool hostless)
{
	u32 recv_wr = READ_ONCE(ibtsim_mad_recv_wr);
	u32 ports = num_ports + 1;
	u64 guids = kmalloc_size_roundup(round_up(guid_cap, IBTRACE_IBA_GUID_BLOCK) *
					 sizeof(u64));
	u64 cost;

	cost = kmalloc_size_roundup(struct_size((struct ibtsim_node *)NULL,
						ports, ports));
	cost += sizeof(struct ibtsim_node *);		/* fabric->nodes */
	/* SM-lite's sweep: per port a LID, 3 flags, a use count; a queue */
	cost += ports * (sizeof(u16) + 3 * sizeof(bool) + sizeof(u32)) + 12;
	if (type == IBTSIM_NODE_SWITCH) {
		u32 masks = DIV_ROUND_UP(ports, IBTRACE_IBA_MFT_MASK_PORTS);

		cost += kmalloc_size_roundup(sizeof(struct ibtsim_switch));
		cost += ibtsim_table_cost(IBTSIM_MFT_CAP * masks * sizeof(u16));
		cost += ibtsim_table_cost(ports * ports * IBTSIM_SL2VL_LEN);
		return cost + guids;	/* port 0's GUID table */
	}
	cost += num_ports * guids;
	if (hostless)
		return cost;
	cost += IBTSIM_CORE_DEV_COST + num_ports * IBTSIM_CORE_PORT_COST;
	/* QP0 and QP1 of each port: ib_mad's buffers, our one-SGE rings */
	cost += num_ports * 2 *
		((u64)recv_wr * IBTSIM_MAD_RECV_BUF +
		 ibtsim_table_cost(recv_wr *
				   struct_size((struct ibtsim_rwqe *)NULL, sge, 1)));
	return cost;
}

/**
 * ibtsim_fabric_cost - memory of a fabric beyond its nodes
 * @switches: switches of the fabric
 * @lids: LIDs its ports will have (one per HCA port and per switch)
 * @ports: its ports, switch port 0 counted
 *
 * The fabric itself, the LinearForwardingTables (every switch routes
 * every LID, in chunks of %IBTSIM_LFT_CHUNK entries covering 1..@lids) and
 * the debugfs port directories, if the fabric gets them.
 *
 * Return: bytes.
 */
u64 ibtsim_fabric_cost(u32 switches, u32 lids, u64 ports)
{
	u64 cost = kmalloc_size_roundup(sizeof(struct ibtsim_fabric));

	lids = min_t(u32, lids, IBTSIM_LFT_CAP - 1);
	cost += (u64)switches * DIV_ROUND_UP(lids + 1, IBTSIM_LFT_CHUNK) *
		kmalloc_size_roundup(IBTSIM_LFT_CHUNK);
	if (ibtsim_debugfs_ports_ok(ports))
		cost += ports * IBTSIM_DEBUGFS_PORT_COST;
	return cost;
}

/**
 * ibtsim_budget - the memory budget of all fabrics together
 *
 * Return: bytes, the module parameter or a quarter of RAM.
 */
u64 ibtsim_budget(void)
{
	u32 mb = READ_ONCE(ibtsim_mem_budget_mb);

	if (mb)
		return (u64)mb << 20;
	return ((u64)totalram_pages() << PAGE_SHIFT) / 4;
}

/**
 * __ibtsim_budget_room - what is left of the budget
 *
 * Caller holds ibtsim_fabrics_lock.
 *
 * Return: bytes.
 */
u64 __ibtsim_budget_room(void)
{
	u64 budget = ibtsim_budget();

	lockdep_assert_held(&ibtsim_fabrics_lock);
	return budget > ibtsim_mem_used ? budget - ibtsim_mem_used : 0;
}

/**
 * __ibtsim_budget_take - reserve memory of the budget
 * @bytes: the estimate of a fabric
 *
 * Caller holds ibtsim_fabrics_lock.
 *
 * Return: true if @bytes fit the budget and were reserved.
 */
bool __ibtsim_budget_take(u64 bytes)
{
	lockdep_assert_held(&ibtsim_fabrics_lock);
	if (bytes > __ibtsim_budget_room())
		return false;
	ibtsim_mem_used += bytes;
	return true;
}

/**
 * __ibtsim_budget_give - return memory to the budget
 * @bytes: what __ibtsim_budget_take() took
 *
 * Caller holds ibtsim_fabrics_lock.
 */
void __ibtsim_budget_give(u64 bytes)
{
	lockdep_assert_held(&ibtsim_fabrics_lock);
	ibtsim_mem_used -= min(bytes, ibtsim_mem_used);
}

/**
 * __ibtsim_budget_used - the budget in use by the fabrics
 *
 * Caller holds ibtsim_fabrics_lock.
 *
 * Return: bytes.
 */
u64 __ibtsim_budget_used(void)
{
	lockdep_assert_held(&ibtsim_fabrics_lock);
	return ibtsim_mem_used;
}

/**
 * ibtsim_budget_error - say why a topology is refused: over the budget
 * @topo: the topology, its @mem_cost complete
 *
 * Caller holds ibtsim_fabrics_lock.
 */
void ibtsim_budget_error(struct ibtsim_topo *topo)
{
	u64 budget = ibtsim_budget();
	u64 used = __ibtsim_budget_used();

	topo->err_line = 0;
	topo->err_msg = IBTSIM_BUDGET_MSG;
	snprintf(topo->err_detail, sizeof(topo->err_detail),
		 "the fabric needs %llu MiB of memory, over ibtrace_sim's budget of %llu MiB (%llu MiB in use; module parameter mem_budget_mb)",
		 DIV_ROUND_UP_ULL(topo->mem_cost, SZ_1M), budget >> 20,
		 DIV_ROUND_UP_ULL(used, SZ_1M));
}
