// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - fault knobs, shared by netlink (set_nl.c) and debugfs.
 *
 * Port knobs: drop probability and delay of the packets leaving a port
 * (one direction of its link; fabric.c applies them), the link held down,
 * its receive buffer, credits ignored (flowctl.c), the width and speed
 * it trained at (sma.c reports them, flowctl.c paces by them), a data sink,
 * and on an HCA port or a switch's port 0 the GUIDCap and the GUIDInfo
 * quirks (sma.c reads them). Switch knob: misroute rules, DLID -> exit
 * port, which LID routing (switch.c) follows instead of the LFT; the LFT
 * as SMPs read it stays as programmed.
 *
 * A change is checked first (ibtsim_port_knobs_check(),
 * ibtsim_misroute_check()) and then applied, so that a request with one
 * bad value changes nothing. Changes are serialized by the fabric's
 * knob_lock; the values live under the node lock and the data path reads
 * them with READ_ONCE().
 */
#include <linux/kernel.h>
#include <linux/xarray.h>

#include "sim.h"
#include "loc.h"

/*
 * Largest GUIDCap of @port: the fabric's GUID table size (guid.c sizes
 * &ibtsim_port.gids by it).
 */
static u8 ibtsim_guid_cap_max(const struct ibtsim_port *port)
{
	return port->node->fabric->guid_cap;
}

/**
 * ibtsim_knob_on_port() - has this port this knob?
 * @port: the port
 * @knob: the knob
 *
 * The link knobs (drop, delay, link, buffer, credits, width, speed) are a
 * linked port's; the
 * data sink a linked HCA port's; GUIDCap and the quirks a port's with a
 * GUID table (an HCA port, a switch's port 0).
 *
 * Return: true if it has.
 */
bool ibtsim_knob_on_port(const struct ibtsim_port *port, enum ibtsim_knob knob)
{
	switch (knob) {
	case IBTSIM_KNOB_GUID_CAP:
	case IBTSIM_KNOB_GUID_QUIRKS:
		return !port->node->sw || !port->num;
	case IBTSIM_KNOB_SINK:
		return port->peer && !port->node->sw;
	default:
		return port->peer;
	}
}

/**
 * ibtsim_port_knobs_check - may these knobs be set on this port?
 * @port: the port
 * @k: the change
 * @bad: on error, the knob at fault
 * @why: on error, the reason (a static string)
 *
 * Each knob must be one the port has (ibtsim_knob_on_port()).
 * Values are checked against the ranges of the uAPI and GUIDCap against
 * the fabric's GUID table size.
 *
 * Return: 0 or -EINVAL.
 */
int ibtsim_port_knobs_check(const struct ibtsim_port *port,
			    const struct ibtsim_port_knobs *k,
			    enum ibtsim_knob *bad, const char **why)
{
	unsigned int i;

	for (i = 0; i < IBTSIM_KNOB_COUNT; i++) {
		if (!(k->set & BIT(i)))
			continue;
		*bad = i;
		if (!ibtsim_knob_on_port(port, i)) {
			if (i == IBTSIM_KNOB_SINK)
				*why = "only a linked HCA port is a data sink";
			else if (i >= IBTSIM_KNOB_GUID_CAP)
				*why = "only HCA ports and switch port 0 have a GUID table";
			else
				*why = "the port has no link";
			return -EINVAL;
		}
		switch (i) {
		case IBTSIM_KNOB_DROP:
		case IBTSIM_KNOB_DELAY:
		case IBTSIM_KNOB_LINK:
		case IBTSIM_KNOB_BUF:
		case IBTSIM_KNOB_SINK:
		case IBTSIM_KNOB_CREDITS:
			if (i == IBTSIM_KNOB_SINK &&
			    k->sink_pps > IBTRACE_SIM_SINK_PPS_MAX) {
				*why = "data sink above 1000000 packets per second";
				return -EINVAL;
			}
			if (i == IBTSIM_KNOB_DROP &&
			    k->drop_ppm > IBTSIM_DROP_PPM_MAX) {
				*why = "drop probability above 1000000 ppm";
				return -EINVAL;
			}
			if (i == IBTSIM_KNOB_DELAY &&
			    k->delay_us > IBTRACE_SIM_DELAY_US_MAX) {
				*why = "delay above 10000000 us (10 s)";
				return -EINVAL;
			}
			if (i == IBTSIM_KNOB_BUF &&
			    (k->buf_blocks < IBTRACE_SIM_BUF_BLOCKS_MIN ||
			     k->buf_blocks > IBTRACE_SIM_BUF_BLOCKS_MAX)) {
				*why = "receive buffer must be 66..8192 blocks";
				return -EINVAL;
			}
			break;
		case IBTSIM_KNOB_WIDTH:
			if (k->link_width != IBTSIM_WIDTH_1X &&
			    k->link_width != IBTSIM_WIDTH_4X) {
				*why = "link width must be 1 (1x) or 2 (4x)";
				return -EINVAL;
			}
			break;
		case IBTSIM_KNOB_SPEED:
			if (k->link_speed != IBTSIM_SPEED_SDR &&
			    k->link_speed != IBTSIM_SPEED_DDR &&
			    k->link_speed != IBTSIM_SPEED_QDR) {
				*why = "link speed must be 1 (SDR), 2 (DDR) or 4 (QDR)";
				return -EINVAL;
			}
			break;
		case IBTSIM_KNOB_GUID_CAP:
		case IBTSIM_KNOB_GUID_QUIRKS:
			if (i == IBTSIM_KNOB_GUID_CAP &&
			    (!k->guid_cap ||
			     k->guid_cap > ibtsim_guid_cap_max(port))) {
				*why = "GUIDCap must be 1..the fabric's GUID table size";
				return -EINVAL;
			}
			if (i == IBTSIM_KNOB_GUID_QUIRKS &&
			    (k->guid_quirks & ~IBTSIM_GUID_QUIRKS_ALL)) {
				*why = "unknown GUIDInfo quirk bits";
				return -EINVAL;
			}
			break;
		}
	}
	return 0;
}

/* Hold the link of @port down, or release it; both ends retrain. */
static void ibtsim_link_set_down(struct ibtsim_port *port, bool down)
{
	struct ibtsim_port *ends[2] = { port, port->peer };
	unsigned long flags;
	bool changed = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		struct ibtsim_port *p = ends[i];

		spin_lock_irqsave(&p->node->lock, flags);
		if (p->link_down != down)
			changed = true;
		WRITE_ONCE(p->link_down, down);
		spin_unlock_irqrestore(&p->node->lock, flags);
	}
	if (!changed)
		return;
	ibtsim_node_dbg(port->node, "port %u: link %s by the knob\n", port->num,
			down ? "down" : "up");
	/* Down: both ends Down/Polling. Up: both Init/LinkUp, as trained. */
	ibtsim_link_retrain(port);
	if (!down)
		ibtsim_sm_resweep(port->node->fabric);
}

/*
 * A new receive buffer size for @port: the link's flow control starts
 * again, as after a training (flowctl.c), each end granting what its
 * buffer has room for.
 */
static void ibtsim_buf_set(struct ibtsim_port *port, u32 blocks)
{
	struct ibtsim_port *ends[2] = { port, port->peer };
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		spin_lock_irqsave(&ends[i]->node->lock, flags);
		if (!i)
			WRITE_ONCE(port->fc.buf_blocks, blocks);
		ends[i]->trained++;
		spin_unlock_irqrestore(&ends[i]->node->lock, flags);
	}
	ibtsim_fabric_fc_resync(port);
}

/*
 * The width and speed @port's link trained at: both ends take them, as
 * PortInfo's LinkWidthActive and LinkSpeedActive show.
 */
static void ibtsim_link_rate_set(struct ibtsim_port *port,
				 const struct ibtsim_port_knobs *k)
{
	struct ibtsim_port *ends[2] = { port, port->peer };
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		spin_lock_irqsave(&ends[i]->node->lock, flags);
		if (k->set & BIT(IBTSIM_KNOB_WIDTH))
			WRITE_ONCE(ends[i]->link_width, k->link_width);
		if (k->set & BIT(IBTSIM_KNOB_SPEED))
			WRITE_ONCE(ends[i]->link_speed, k->link_speed);
		spin_unlock_irqrestore(&ends[i]->node->lock, flags);
	}
}

/*
 * Each knob's field in struct ibtsim_port_knobs and its largest value: a
 * u8 up to U8_MAX, else a u32.
 */
#define IBTSIM_KNOB_FIELD(f, m)	{ offsetof(struct ibtsim_port_knobs, f), m }

static const struct {
	u8 off;
	u32 max;
} ibtsim_knob_fields[IBTSIM_KNOB_COUNT] = {
	[IBTSIM_KNOB_DROP] = IBTSIM_KNOB_FIELD(drop_ppm, U32_MAX),
	[IBTSIM_KNOB_DELAY] = IBTSIM_KNOB_FIELD(delay_us, U32_MAX),
	[IBTSIM_KNOB_LINK] = IBTSIM_KNOB_FIELD(link_down, 1),
	[IBTSIM_KNOB_BUF] = IBTSIM_KNOB_FIELD(buf_blocks, U32_MAX),
	[IBTSIM_KNOB_SINK] = IBTSIM_KNOB_FIELD(sink_pps, U32_MAX),
	[IBTSIM_KNOB_CREDITS] = IBTSIM_KNOB_FIELD(ignore_credits, 1),
	[IBTSIM_KNOB_WIDTH] = IBTSIM_KNOB_FIELD(link_width, U8_MAX),
	[IBTSIM_KNOB_SPEED] = IBTSIM_KNOB_FIELD(link_speed, U8_MAX),
	[IBTSIM_KNOB_GUID_CAP] = IBTSIM_KNOB_FIELD(guid_cap, U8_MAX),
	[IBTSIM_KNOB_GUID_QUIRKS] = IBTSIM_KNOB_FIELD(guid_quirks, U32_MAX),
};

/**
 * ibtsim_knob_max - the largest value a knob's field holds
 * @knob: the knob
 *
 * Its range within that (ibtsim_port_knobs_check()) may be smaller.
 *
 * Return: 1, U8_MAX or U32_MAX.
 */
u32 ibtsim_knob_max(enum ibtsim_knob knob)
{
	return ibtsim_knob_fields[knob].max;
}

/**
 * ibtsim_port_knobs_put - one knob's value into a change
 * @k: the change; @knob is added to @k->set
 * @knob: the knob
 * @val: its new value, at most ibtsim_knob_max()
 */
void ibtsim_port_knobs_put(struct ibtsim_port_knobs *k, enum ibtsim_knob knob,
			   u32 val)
{
	void *f = (u8 *)k + ibtsim_knob_fields[knob].off;

	BUILD_BUG_ON(sizeof(k->link_down) != sizeof(u8) ||
		     sizeof(k->ignore_credits) != sizeof(u8) ||
		     sizeof(k->link_width) != sizeof(u8) ||
		     sizeof(k->link_speed) != sizeof(u8) ||
		     sizeof(k->guid_cap) != sizeof(u8));
	k->set |= BIT(knob);
	if (ibtsim_knob_fields[knob].max <= U8_MAX)
		*(u8 *)f = val;
	else
		*(u32 *)f = val;
}

/**
 * ibtsim_port_knobs_val - one knob's value in a change
 * @k: the change (or what ibtsim_port_knobs_read() read)
 * @knob: the knob
 *
 * Return: the value.
 */
u32 ibtsim_port_knobs_val(const struct ibtsim_port_knobs *k,
			  enum ibtsim_knob knob)
{
	const void *f = (const u8 *)k + ibtsim_knob_fields[knob].off;

	if (ibtsim_knob_fields[knob].max <= U8_MAX)
		return *(const u8 *)f;
	return *(const u32 *)f;
}

/**
 * ibtsim_port_knobs_read - a port's knobs as they are
 * @port: the port
 * @k: filled in, every knob in @k->set
 *
 * Any context.
 */
void ibtsim_port_knobs_read(struct ibtsim_port *port,
			    struct ibtsim_port_knobs *k)
{
	unsigned long flags;

	spin_lock_irqsave(&port->node->lock, flags);
	*k = (struct ibtsim_port_knobs) {
		.set = BIT(IBTSIM_KNOB_COUNT) - 1,
		.drop_ppm = port->drop_ppm,
		.delay_us = port->delay_us,
		.link_down = port->link_down,
		.buf_blocks = port->fc.buf_blocks,
		.sink_pps = port->sink_pps,
		.ignore_credits = port->ignore_credits,
		.link_width = port->link_width,
		.link_speed = port->link_speed,
		.guid_cap = port->guid_cap,
		.guid_quirks = port->guid_quirks,
	};
	spin_unlock_irqrestore(&port->node->lock, flags);
}

/**
 * ibtsim_port_knobs_apply - set a port's knobs
 * @port: the port
 * @k: the change, accepted by ibtsim_port_knobs_check()
 *
 * Caller holds the fabric's knob_lock. Process context.
 */
void ibtsim_port_knobs_apply(struct ibtsim_port *port,
			     const struct ibtsim_port_knobs *k)
{
	struct ibtsim_node *node = port->node;
	unsigned long flags;

	lockdep_assert_held(&node->fabric->knob_lock);
	spin_lock_irqsave(&node->lock, flags);
	if (k->set & BIT(IBTSIM_KNOB_DROP))
		WRITE_ONCE(port->drop_ppm, k->drop_ppm);
	if (k->set & BIT(IBTSIM_KNOB_DELAY))
		WRITE_ONCE(port->delay_us, k->delay_us);
	if (k->set & BIT(IBTSIM_KNOB_SINK))
		WRITE_ONCE(port->sink_pps, k->sink_pps);
	if (k->set & BIT(IBTSIM_KNOB_CREDITS))
		WRITE_ONCE(port->ignore_credits, k->ignore_credits);
	if (k->set & BIT(IBTSIM_KNOB_GUID_CAP))
		port->guid_cap = k->guid_cap;
	if (k->set & BIT(IBTSIM_KNOB_GUID_QUIRKS))
		port->guid_quirks = k->guid_quirks;
	spin_unlock_irqrestore(&node->lock, flags);
	if (k->set & (BIT(IBTSIM_KNOB_WIDTH) | BIT(IBTSIM_KNOB_SPEED)))
		ibtsim_link_rate_set(port, k);
	/* what the sink holds goes at the new rate, from now */
	if (k->set & BIT(IBTSIM_KNOB_SINK))
		ibtsim_fabric_sink_retime(port);
	if (k->set & BIT(IBTSIM_KNOB_BUF))
		ibtsim_buf_set(port, k->buf_blocks);
	if (k->set & BIT(IBTSIM_KNOB_LINK))
		ibtsim_link_set_down(port, k->link_down);
}

/**
 * ibtsim_misroute_check - may this misroute rule be set on this node?
 * @node: the node
 * @dlid: the rule's DLID
 * @port: the rule's exit port (ignored when @del)
 * @del: the rule is to be removed
 * @why: on error, the reason (a static string)
 *
 * Caller holds the fabric's knob_lock (for the rule count).
 *
 * Return: 0, -EOPNOTSUPP (not a switch), -ERANGE (DLID or port out of
 * range) or -ENOSPC (too many rules).
 */
int ibtsim_misroute_check(const struct ibtsim_node *node, u32 dlid, u32 port,
			  bool del, const char **why)
{
	if (!node->sw) {
		*why = "misroute rules are for switches";
		return -EOPNOTSUPP;
	}
	if (!dlid || dlid > IBTRACE_IBA_LID_UCAST_MAX) {
		*why = "misroute DLID must be a unicast LID, 1..0xbfff";
		return -ERANGE;
	}
	if (del)
		return 0;
	if (port > node->num_ports) {
		*why = "misroute exit port beyond the switch's ports";
		return -ERANGE;
	}
	if (node->sw->num_misroutes >= IBTSIM_MISROUTE_MAX &&
	    !xa_load(&node->sw->misroute, dlid)) {
		*why = "too many misroute rules on the switch (256)";
		return -ENOSPC;
	}
	return 0;
}

/**
 * ibtsim_misroute_set - add or change a misroute rule of a switch
 * @node: the switch, checked by ibtsim_misroute_check()
 * @dlid: DLID
 * @port: exit port for @dlid
 *
 * Caller holds the fabric's knob_lock. Process context.
 *
 * Return: 0 or -ENOMEM.
 */
int ibtsim_misroute_set(struct ibtsim_node *node, u16 dlid, u8 port)
{
	struct ibtsim_switch *sw = node->sw;
	void *old;

	lockdep_assert_held(&node->fabric->knob_lock);
	old = xa_store(&sw->misroute, dlid, xa_mk_value(port), GFP_KERNEL);
	if (xa_is_err(old))
		return xa_err(old);
	if (!old)
		WRITE_ONCE(sw->num_misroutes, sw->num_misroutes + 1);
	ibtsim_node_dbg(node, "misroute DLID %u out of port %u\n", dlid, port);
	return 0;
}

/**
 * ibtsim_misroute_del - remove a misroute rule of a switch, if it exists
 * @node: the switch
 * @dlid: DLID
 *
 * Caller holds the fabric's knob_lock.
 */
void ibtsim_misroute_del(struct ibtsim_node *node, u16 dlid)
{
	lockdep_assert_held(&node->fabric->knob_lock);
	if (xa_erase(&node->sw->misroute, dlid))
		WRITE_ONCE(node->sw->num_misroutes,
			   node->sw->num_misroutes - 1);
}

/**
 * ibtsim_misroute_lookup - the misroute rule of a switch for a DLID
 * @node: the switch
 * @dlid: LRH DLID of a LID-routed packet
 * @port: the rule's exit port, if there is one
 *
 * Any context.
 *
 * Return: true if a rule sends @dlid out of *@port.
 */
bool ibtsim_misroute_lookup(struct ibtsim_node *node, u16 dlid, u8 *port)
{
	void *entry;

	if (!READ_ONCE(node->sw->num_misroutes))
		return false;
	entry = xa_load(&node->sw->misroute, dlid);
	if (!entry)
		return false;
	*port = xa_to_value(entry);
	return true;
}
