// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - fault knobs and counters in debugfs, netdevsim style.
 *
 *   /sys/kernel/debug/ibtrace_sim/FABRIC/NODE/portN/
 *	drop_ppm	rw  loss probability of packets leaving the port, ppm
 *	delay_us	rw  microseconds added to packets leaving the port
 *	link_down	rw  1: the link is held down (both ends), 0: up
 *	buf_blocks	rw  receive buffer per data VL, blocks of 64 bytes
 *	sink_pps	rw  an HCA port's data sink, packets/s (0: off)
 *	ignore_credits	rw  1: data packets leave at once, whatever the
 *			    credits (the receiver may overrun), 0: they wait
 *	link_width	rw  LinkWidthActive of the link: 1 (1x), 2 (4x)
 *	link_speed	rw  LinkSpeedActive of the link: 1 (SDR), 2 (DDR),
 *			    4 (QDR)
 *	guid_cap	rw  GUIDCap (HCA ports and switch port 0 only)
 *	guid_quirks	rw  GUIDInfo quirk bits (same ports as guid_cap)
 *	rx_pkts, tx_pkts, drops   ro  packet counters
 *	credits		ro  link-level flow control (flowctl.c), a line per
 *			    data VL: "vl V fctbs N fccl N abr N used N buf N
 *			    queued N" (blocks of 64 bytes; queued: packets
 *			    waiting), then the port's "xmit_wait_us N" (up
 *			    to now, if packets wait), "xmit_words N",
 *			    "rcv_words N" (4-byte words, all VLs),
 *			    "overruns N"; a snapshot of what the fabric's
 *			    worker changes as it goes; last the VL
 *			    arbitration an SM wrote: "vlarb high V:W,...
 *			    low V:W,... limit N" (the entries of weight W
 *			    > 0, "-" if none; limit: VLHighLimit)
 *   /sys/kernel/debug/ibtrace_sim/FABRIC/NODE/misroute   (switches only)
 *   /sys/kernel/debug/ibtrace_sim/FABRIC/stats   ro  the fabric's packets:
 *	"sent N", "delivered N", "dropped N", "answered N", "in_flight N"
 *	(sent - delivered - dropped: 0 when the fabric is quiet), "injected N",
 *	"claimed N" and "injected_in_flight N" (injected packets not yet done
 *	with, at most IBTRACE_SIM_INJECT_INFLIGHT_MAX), a line each; then
 *	"dropped_TOKEN N" for each drop reason that counted any, in the order
 *	of &enum ibtsim_drop_reason (TOKEN: ibtsim_drop_token(); the drops
 *	by reason add up to "dropped")
 *
 * NODE is "INDEX-NAME": the node index in the fabric and its name with
 * every character but A-Z a-z 0-9 _ . - replaced by '_'. The link knobs
 * exist on connected ports only; a switch's port 0 has guid_cap,
 * guid_quirks and the counters.
 *
 * misroute: reading lists the rules, one "DLID PORT" line each, by DLID;
 * writing "DLID PORT" adds or changes the rule for DLID, "DLID -" removes
 * it (numbers in decimal or 0x hex). Values out of range are refused with
 * -EINVAL; netlink (ibtracectl sim set) says why.
 *
 * Every file costs an inode and a dentry (about 1 KiB) that stay for the
 * fabric's life: a radix-48 switch has 49 port directories of up to
 * nine files. A fabric with more ports than debugfs_port_limit (module
 * parameter) therefore gets the node directories and misroute files but
 * no port directories; its knobs and counters stay reachable through
 * netlink (ibtracectl sim set / sim show).
 *
 * Files are created when a fabric is built and removed before it is torn
 * down (removal waits for readers and writers, which therefore take no
 * global lock, only the fabric's knob_lock); a debugfs failure never fails
 * the fabric.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "sim.h"
#include "loc.h"

static struct dentry *ibtsim_debugfs_root;

static uint ibtsim_debugfs_port_limit = 4096;
module_param_named(debugfs_port_limit, ibtsim_debugfs_port_limit, uint, 0644);
MODULE_PARM_DESC(debugfs_port_limit,
		 "Fabrics with more ports get no per-port debugfs directories (default 4096)");

/**
 * ibtsim_debugfs_ports_ok - will a fabric of @nports ports get port directories
 * @nports: its ports, switch port 0 counted
 *
 * Return: true if @nports is within debugfs_port_limit.
 */
bool ibtsim_debugfs_ports_ok(u64 nports)
{
	return nports <= READ_ONCE(ibtsim_debugfs_port_limit);
}

static u64 ibtsim_dbg_knob_get(struct ibtsim_port *port, enum ibtsim_knob knob)
{
	struct ibtsim_port_knobs k;

	ibtsim_port_knobs_read(port, &k);
	return ibtsim_port_knobs_val(&k, knob);
}

static int ibtsim_dbg_knob_set(struct ibtsim_port *port, enum ibtsim_knob knob,
			       u64 val)
{
	struct ibtsim_fabric *fabric = port->node->fabric;
	struct ibtsim_port_knobs k = {};
	enum ibtsim_knob bad;
	const char *why;
	int err;

	if (knob >= IBTSIM_KNOB_COUNT || val > ibtsim_knob_max(knob))
		return -EINVAL;
	ibtsim_port_knobs_put(&k, knob, val);
	err = ibtsim_port_knobs_check(port, &k, &bad, &why);
	if (err)
		return err;
	mutex_lock(&fabric->knob_lock);
	ibtsim_port_knobs_apply(port, &k);
	mutex_unlock(&fabric->knob_lock);
	return 0;
}

#define IBTSIM_DBG_KNOB(name, knob, fmt)				\
static const enum ibtsim_knob ibtsim_dbg_##name##_knob = knob;		\
static int ibtsim_dbg_##name##_get(void *data, u64 *val)	\
{									\
	*val = ibtsim_dbg_knob_get(data, ibtsim_dbg_##name##_knob);	\
	return 0;							\
}									\
static int ibtsim_dbg_##name##_set(void *data, u64 val)			\
{									\
	return ibtsim_dbg_knob_set(data, ibtsim_dbg_##name##_knob, val); \
}									\
DEFINE_DEBUGFS_ATTRIBUTE(ibtsim_dbg_##name##_fops, ibtsim_dbg_##name##_get, \
			 ibtsim_dbg_##name##_set, fmt)

IBTSIM_DBG_KNOB(drop_ppm, IBTSIM_KNOB_DROP, "%llu\n");
IBTSIM_DBG_KNOB(delay_us, IBTSIM_KNOB_DELAY, "%llu\n");
IBTSIM_DBG_KNOB(link_down, IBTSIM_KNOB_LINK, "%llu\n");
IBTSIM_DBG_KNOB(buf_blocks, IBTSIM_KNOB_BUF, "%llu\n");
IBTSIM_DBG_KNOB(sink_pps, IBTSIM_KNOB_SINK, "%llu\n");
IBTSIM_DBG_KNOB(ignore_credits, IBTSIM_KNOB_CREDITS, "%llu\n");
IBTSIM_DBG_KNOB(link_width, IBTSIM_KNOB_WIDTH, "%llu\n");
IBTSIM_DBG_KNOB(link_speed, IBTSIM_KNOB_SPEED, "%llu\n");
IBTSIM_DBG_KNOB(guid_cap, IBTSIM_KNOB_GUID_CAP, "%llu\n");
IBTSIM_DBG_KNOB(guid_quirks, IBTSIM_KNOB_GUID_QUIRKS, "0x%llx\n");

/* A read-only file of the port's packet counter @c. */
#define IBTSIM_DBG_COUNTER(name, c)					\
static int ibtsim_dbg_##name##_get(void *data, u64 *val)		\
{									\
	*val = atomic64_read(ibtsim_port_counter(data, c));		\
	return 0;							\
}									\
DEFINE_DEBUGFS_ATTRIBUTE(ibtsim_dbg_##name##_fops, ibtsim_dbg_##name##_get, \
			 NULL, "%llu\n")

IBTSIM_DBG_COUNTER(rx_pkts, IBTSIM_PMA_RX_PKTS);
IBTSIM_DBG_COUNTER(tx_pkts, IBTSIM_PMA_TX_PKTS);
IBTSIM_DBG_COUNTER(drops, IBTSIM_PMA_DROPS);

/* A port file and its operations, those of IBTSIM_DBG_KNOB/COUNTER(@n). */
struct ibtsim_dbg_file {
	const char *name;
	const struct file_operations *fops;
};

#define IBTSIM_DBG_FILE(n)	{ #n, &ibtsim_dbg_##n##_fops }

static const struct ibtsim_dbg_file ibtsim_dbg_knob_files[IBTSIM_KNOB_COUNT] = {
	[IBTSIM_KNOB_DROP] = IBTSIM_DBG_FILE(drop_ppm),
	[IBTSIM_KNOB_DELAY] = IBTSIM_DBG_FILE(delay_us),
	[IBTSIM_KNOB_LINK] = IBTSIM_DBG_FILE(link_down),
	[IBTSIM_KNOB_BUF] = IBTSIM_DBG_FILE(buf_blocks),
	[IBTSIM_KNOB_SINK] = IBTSIM_DBG_FILE(sink_pps),
	[IBTSIM_KNOB_CREDITS] = IBTSIM_DBG_FILE(ignore_credits),
	[IBTSIM_KNOB_WIDTH] = IBTSIM_DBG_FILE(link_width),
	[IBTSIM_KNOB_SPEED] = IBTSIM_DBG_FILE(link_speed),
	[IBTSIM_KNOB_GUID_CAP] = IBTSIM_DBG_FILE(guid_cap),
	[IBTSIM_KNOB_GUID_QUIRKS] = IBTSIM_DBG_FILE(guid_quirks),
};

static const struct ibtsim_dbg_file ibtsim_dbg_counter_files[] = {
	IBTSIM_DBG_FILE(rx_pkts), IBTSIM_DBG_FILE(tx_pkts), IBTSIM_DBG_FILE(drops),
};

/* what the budget counts (budget.c): the knobs, these, credits */
static_assert(IBTSIM_KNOB_COUNT + ARRAY_SIZE(ibtsim_dbg_counter_files) + 1 ==
	      IBTSIM_DEBUGFS_PORT_FILES);

/* credits */

/* One priority of the port's VLArbitrationTable: "V:W,..." or "-". */
static void ibtsim_dbg_vlarb(struct seq_file *m, const u8 *table)
{
	const char *sep = "";
	unsigned int i;
	u8 vl, weight;

	for (i = 0; i < IBTSIM_VL_ARB_CAP; i++) {
		weight = ibtsim_vlarb_get(table, i, &vl);
		if (!weight)
			continue;
		seq_printf(m, "%s%u:%u", sep, vl, weight);
		sep = ",";
	}
	if (!*sep)
		seq_puts(m, "-");
}

static int ibtsim_dbg_credits_show(struct seq_file *m, void *v)
{
	const struct ibtsim_port *port = m->private;
	const struct ibtsim_fc *fc = &port->fc;
	u8 vlarb[2][IBTSIM_VLARB_BLOCK], limit;
	const struct ibtsim_fc_vl *vl;
	unsigned long flags;
	u8 i;

	for (i = 0; i < IBTSIM_DATA_VLS; i++) {
		vl = &fc->vl[i];
		seq_printf(m, "vl %u fctbs %u fccl %u abr %u used %u buf %u queued %u\n",
			   i, READ_ONCE(vl->fctbs), READ_ONCE(vl->fccl),
			   READ_ONCE(vl->abr), READ_ONCE(vl->used),
			   READ_ONCE(fc->buf_blocks), READ_ONCE(vl->queued));
	}
	seq_printf(m, "xmit_wait_us %llu\nxmit_words %lld\nrcv_words %lld\noverruns %lld\n",
		   ibtsim_port_xmit_wait_us(port),
		   atomic64_read(&port->xmit_words),
		   atomic64_read(&port->rcv_words),
		   atomic64_read(&port->overruns));
	spin_lock_irqsave(&port->node->lock, flags);
	memcpy(vlarb, port->vlarb, sizeof(vlarb));
	limit = port->vl_high_limit;
	spin_unlock_irqrestore(&port->node->lock, flags);
	seq_puts(m, "vlarb high ");
	ibtsim_dbg_vlarb(m, vlarb[1]);
	seq_puts(m, " low ");
	ibtsim_dbg_vlarb(m, vlarb[0]);
	seq_printf(m, " limit %u\n", limit);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ibtsim_dbg_credits);

/* misroute */

static int ibtsim_dbg_misroute_show(struct seq_file *m, void *v)
{
	struct ibtsim_node *node = m->private;
	unsigned long dlid;
	void *entry;

	xa_for_each(&node->sw->misroute, dlid, entry)
		seq_printf(m, "%lu %lu\n", dlid, xa_to_value(entry));
	return 0;
}

static int ibtsim_dbg_misroute_open(struct inode *inode, struct file *file)
{
	return single_open(file, ibtsim_dbg_misroute_show, inode->i_private);
}

/* "DLID PORT" or "DLID -" into *@dlid, *@port, *@del. */
static int ibtsim_dbg_misroute_parse(char *buf, u32 *dlid, u32 *port,
				     bool *del)
{
	char *s = strim(buf), *word;

	word = strsep(&s, " \t");
	if (!word || !s || kstrtou32(word, 0, dlid))
		return -EINVAL;
	s = skip_spaces(s);
	*del = !strcmp(s, "-");
	if (*del)
		return 0;
	return kstrtou32(s, 0, port);
}

static ssize_t ibtsim_dbg_misroute_write(struct file *file,
					 const char __user *ubuf, size_t len,
					 loff_t *ppos)
{
	struct ibtsim_node *node = file_inode(file)->i_private;
	struct ibtsim_fabric *fabric = node->fabric;
	const char *why;
	char buf[32];
	u32 dlid, port = 0;
	bool del;
	int err;

	if (*ppos || !len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	err = ibtsim_dbg_misroute_parse(buf, &dlid, &port, &del);
	if (err)
		return -EINVAL;

	mutex_lock(&fabric->knob_lock);
	err = ibtsim_misroute_check(node, dlid, port, del, &why);
	if (!err) {
		if (del)
			ibtsim_misroute_del(node, dlid);
		else
			err = ibtsim_misroute_set(node, dlid, port);
	}
	mutex_unlock(&fabric->knob_lock);
	if (err == -ERANGE || err == -EOPNOTSUPP)
		err = -EINVAL;
	return err ?: len;
}

static const struct file_operations ibtsim_dbg_misroute_fops = {
	.owner = THIS_MODULE,
	.open = ibtsim_dbg_misroute_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = ibtsim_dbg_misroute_write,
};

static int ibtsim_dbg_stats_show(struct seq_file *m, void *v)
{
	struct ibtsim_fabric_stats *st = m->private;
	struct ibtsim_fabric *fabric = container_of(st, struct ibtsim_fabric,
						    stats);
	s64 sent = atomic64_read(&st->sent);
	s64 delivered = atomic64_read(&st->delivered);
	s64 dropped = atomic64_read(&st->dropped);
	unsigned int i;
	s64 n;

	seq_printf(m, "sent %lld\ndelivered %lld\ndropped %lld\nanswered %lld\nin_flight %lld\ninjected %lld\nclaimed %lld\ninjected_in_flight %d\n",
		   sent, delivered, dropped, atomic64_read(&st->answered),
		   sent - delivered - dropped, atomic64_read(&st->injected),
		   atomic64_read(&st->claimed),
		   atomic_read(&fabric->ninjected));
	for (i = 0; i < IBTSIM_DROP_COUNT; i++) {
		n = atomic64_read(&st->drop_reason[i]);
		if (n)
			seq_printf(m, "dropped_%s %lld\n",
				   ibtsim_drop_token(i), n);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ibtsim_dbg_stats);

/* tree */

static void ibtsim_debugfs_port(struct dentry *ndir, struct ibtsim_port *port)
{
	struct dentry *dir;
	unsigned int i;
	char name[16];

	snprintf(name, sizeof(name), "port%u", port->num);
	dir = debugfs_create_dir(name, ndir);
	/* The knobs the port has: a link's, a data sink's, a GUID table's. */
	for (i = 0; i < IBTSIM_KNOB_COUNT; i++)
		if (ibtsim_knob_on_port(port, i))
			debugfs_create_file_unsafe(ibtsim_dbg_knob_files[i].name,
						   0600, dir, port,
						   ibtsim_dbg_knob_files[i].fops);
	for (i = 0; i < ARRAY_SIZE(ibtsim_dbg_counter_files); i++)
		debugfs_create_file_unsafe(ibtsim_dbg_counter_files[i].name,
					   0400, dir, port,
					   ibtsim_dbg_counter_files[i].fops);
	if (port->peer)
		debugfs_create_file("credits", 0400, dir, port,
				    &ibtsim_dbg_credits_fops);
}

static void ibtsim_debugfs_node(struct dentry *fdir, struct ibtsim_node *node,
				bool ports)
{
	char name[IB_DEVICE_NODE_DESC_MAX + 16];
	struct dentry *dir;
	char *p;
	u32 n;

	snprintf(name, sizeof(name), "%u-%s", node->index, node->desc);
	for (p = strchr(name, '-') + 1; *p; p++)
		if (!ibtsim_name_char(*p))
			*p = '_';
	dir = debugfs_create_dir(name, fdir);
	if (node->sw)
		debugfs_create_file("misroute", 0600, dir, node,
				    &ibtsim_dbg_misroute_fops);
	if (!ports)
		return;
	for (n = node->sw ? 0 : 1; n <= node->num_ports; n++)
		ibtsim_debugfs_port(dir, &node->ports[n]);
}

/**
 * ibtsim_debugfs_fabric_add - the debugfs tree of a new fabric
 * @fabric: the fabric, fully built
 *
 * Failures are ignored: the fabric works without its debugfs files.
 */
void ibtsim_debugfs_fabric_add(struct ibtsim_fabric *fabric)
{
	struct dentry *dir;
	u64 nports = 0;
	bool ports;
	u32 i;

	if (IS_ERR_OR_NULL(ibtsim_debugfs_root))
		return;
	dir = debugfs_create_dir(fabric->name, ibtsim_debugfs_root);
	if (IS_ERR(dir))
		return;
	fabric->debugfs = dir;
	debugfs_create_file("stats", 0400, dir, &fabric->stats,
			    &ibtsim_dbg_stats_fops);
	for (i = 0; i < fabric->num_nodes; i++)
		nports += fabric->nodes[i]->num_ports + !!fabric->nodes[i]->sw;
	ports = ibtsim_debugfs_ports_ok(nports);
	if (!ports)
		pr_info("fabric %s: %llu ports, more than debugfs_port_limit %u: no port directories in debugfs\n",
			fabric->name, nports, READ_ONCE(ibtsim_debugfs_port_limit));
	for (i = 0; i < fabric->num_nodes; i++)
		ibtsim_debugfs_node(dir, fabric->nodes[i], ports);
}

/**
 * ibtsim_debugfs_fabric_del - remove a fabric's debugfs tree
 * @fabric: the fabric
 *
 * Returns once no reader or writer of its files runs any more.
 */
void ibtsim_debugfs_fabric_del(struct ibtsim_fabric *fabric)
{
	debugfs_remove_recursive(fabric->debugfs);
	fabric->debugfs = NULL;
}

/**
 * ibtsim_debugfs_init - create the ibtrace_sim debugfs directory
 */
void ibtsim_debugfs_init(void)
{
	ibtsim_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
}

/**
 * ibtsim_debugfs_exit - remove the ibtrace_sim debugfs directory
 */
void ibtsim_debugfs_exit(void)
{
	debugfs_remove_recursive(ibtsim_debugfs_root);
	ibtsim_debugfs_root = NULL;
}
