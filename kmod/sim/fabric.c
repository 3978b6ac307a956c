// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - packet delivery across a fabric.
 *
 * post_send() (any context) turns a work request into a struct ibtsim_pkt
 * and queues it on the fabric; the fabric's ordered work item takes each
 * packet out of the sending port, over the link, into the receiving port,
 * applies what the receiving port's hardware checks (port state, DLID
 * against LID/LMC, P_Key, Q_Key), fills a receive buffer of the
 * destination QP and then completes the send.
 *
 * Directed-route SMPs need nothing from the fabric at an HCA: the
 * IBA 14.2.2 hop pointer and return path are updated by its SMI (ib_mad's
 * smi_handle_dr_smp_send/recv), as with hardware HCAs, and the LRH DLID of
 * a DR SMP is not looked at. Switches are where the fabric itself runs
 * 14.2.2 and LID routing: a packet arriving at a switch port goes to
 * ibtsim_switch_rx(), which names the port it leaves by (or consumes it).
 * A packet thus crosses link after link in one loop, bounded by
 * %IBTSIM_MAX_FWD_HOPS so that a forwarding loop programmed into the LFTs
 * drops the packet instead of spinning.
 *
 * A receiving port checks the packet's VL first: VL 15 is for SMPs, and
 * SMPs are for VL 15 (the VLs only matter for injected packets, which
 * choose theirs; the fabric's own are right).
 *
 * An answer an injector waits for (capture.c) is taken off where it is
 * first sent, before it crosses a link: it reaches the injector even
 * when its DLID leads nowhere.
 *
 * Fault knobs of the port a packet leaves by (knobs.c): drop_ppm loses it
 * with that probability (counted in the port's drops); delay_us holds it
 * back on @delayed, sorted by arrival time, until the delayed work item
 * carries it on from the other end of the link. A packet never arrives
 * before one that left the same port earlier. A delayed packet completes
 * its send when it leaves (as a UD send on real hardware does), so it
 * holds no QP; the ones still held when the fabric stops are freed there.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "sim.h"
#include "verbs.h"
#include "loc.h"

/* Index of @pkey in the port's table (membership rules), or -1. */
static int __ibtsim_pkey_find(struct ibtsim_port *port, u16 pkey)
{
	int i;

	if (!(pkey & 0x7fff))
		return -1;
	for (i = 0; i < IBTSIM_PKEY_TBL_LEN; i++) {
		u16 p = port->pkeys[i];

		if ((p & 0x7fff) == (pkey & 0x7fff) && ((p | pkey) & 0x8000))
			return i;
	}
	return -1;
}

static bool ibtsim_pkt_is_dr_smp(const struct ibtsim_pkt *pkt)
{
	return pkt->dqpn == 0 && pkt->len >= sizeof(struct ib_mad_hdr) &&
	       ((const struct ib_mad_hdr *)pkt->data)->mgmt_class ==
	       IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

/* Each drop reason's counter token (debugfs) and debug log text. */
static const struct {
	const char *token;
	const char *text;
} ibtsim_drop_info[IBTSIM_DROP_COUNT] = {
	[IBTSIM_DROP_NONE] = { "unknown", "unknown reason" },
#define IBTSIM_DROP_REASON(name, token, text) \
	[IBTSIM_DROP_##name] = { #token, text }
	IBTSIM_DROP_REASONS
#undef IBTSIM_DROP_REASON
};

/* @why, or %IBTSIM_DROP_NONE (the "unknown" entry) if out of range. */
static unsigned int ibtsim_drop_index(enum ibtsim_drop_reason why)
{
	return (unsigned int)why < IBTSIM_DROP_COUNT ? why : IBTSIM_DROP_NONE;
}

/**
 * ibtsim_drop_token - the token naming a drop reason's counter
 * @why: the reason
 *
 * Return: a lower-case word, "unknown" for %IBTSIM_DROP_NONE or a value
 * out of range.
 */
const char *ibtsim_drop_token(enum ibtsim_drop_reason why)
{
	return ibtsim_drop_info[ibtsim_drop_index(why)].token;
}

/**
 * ibtsim_drop - count a packet dropped at a port
 * @port: the port
 * @why: the reason, counted for the fabric and logged (dynamic debug)
 */
void ibtsim_drop(struct ibtsim_port *port, enum ibtsim_drop_reason why)
{
	struct ibtsim_fabric_stats *st = &port->node->fabric->stats;
	unsigned int r = ibtsim_drop_index(why);

	WARN_ON_ONCE(r == IBTSIM_DROP_NONE);
	atomic64_inc(&port->drops);
	atomic64_inc(&st->dropped);
	atomic64_inc(&st->drop_reason[r]);
	ibtsim_node_dbg(port->node, "port %u drops a packet: %s\n", port->num,
			ibtsim_drop_info[r].text);
}

/**
 * ibtsim_pkt_answered - a request was rewritten into its answer
 * @fabric: the fabric
 * @pkt: the packet, now the answer, addressed back to the requester
 *
 * Counts it and puts it on the VL of its destination QP (a data answer on
 * the VL of its SL where it leaves a port: ibtsim_pkt_vl()). The answer to an
 * injected request is a packet of the fabric like any other, one that its
 * injector may claim.
 */
void ibtsim_pkt_answered(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt)
{
	pkt->vl = pkt->dqpn ? 0 : IBTSIM_VL15;
	pkt->forged = false;
	atomic64_inc(&fabric->stats.answered);
}

/* Is @pkt an answer an injector waits for? Then it is taken off here. */
static bool ibtsim_pkt_claimed(struct ibtsim_fabric *fabric,
			       struct ibtsim_port *port, struct ibtsim_pkt *pkt)
{
	return unlikely(READ_ONCE(fabric->nclaims)) && !pkt->forged &&
	       !pkt->flow && __ibtsim_capture_claim(port, pkt);
}

/* Data VLs a port runs: PortInfo:OperationalVLs 1, 2, 3, 4, 5: 1..15. */
static u8 ibtsim_port_data_vls(const struct ibtsim_port *port)
{
	u8 op_vls = READ_ONCE(port->op_vls);

	if (!op_vls)
		return 1;
	return min_t(u8, 1U << (min_t(u8, op_vls, 5) - 1), IBTSIM_VL15);
}

/*
 * The VL checks of a receiving port: VL 15 carries SMPs (destination QP
 * 0) only (IBA 7.6.4), an SMP travels on VL 15 only (the SMI's checks,
 * IBA 14.2.2), and a data VL must be one the port runs. Returns why
 * @pkt fails them, or %IBTSIM_DROP_NONE.
 */
static enum ibtsim_drop_reason ibtsim_vl_check(const struct ibtsim_port *port,
					       const struct ibtsim_pkt *pkt)
{
	if (pkt->vl == IBTSIM_VL15)
		return pkt->dqpn ? IBTSIM_DROP_VL15_NOT_QP0 : IBTSIM_DROP_NONE;
	if (!pkt->dqpn)
		return IBTSIM_DROP_SMP_DATA_VL;
	if (pkt->vl >= ibtsim_port_data_vls(port))
		return IBTSIM_DROP_VL_NOT_OPERATIONAL;
	return IBTSIM_DROP_NONE;
}

/**
 * ibtsim_pkt_vl() - put a data packet on the VL its SL maps to
 * @port: the port @pkt leaves by
 * @table: the SLtoVLMappingTable that applies (the HCA port's, or the
 *	switch's for @pkt's input port and @port), read under @port's
 *	node lock
 * @pkt: a data packet (destination QP not 0)
 *
 * Sets @pkt->vl. A packet whose SL maps to VL 15 is dropped (IBA 7.6.6),
 * and one whose VL @port does not run cannot leave by it.
 *
 * Return: why @pkt may not leave, or %IBTSIM_DROP_NONE.
 */
enum ibtsim_drop_reason ibtsim_pkt_vl(const struct ibtsim_port *port,
				      const u8 *table, struct ibtsim_pkt *pkt)
{
	pkt->vl = ibtsim_sl2vl_get(table, pkt->sl);
	if (pkt->vl == IBTSIM_VL15)
		return IBTSIM_DROP_SL_TO_VL15;
	if (pkt->vl >= ibtsim_port_data_vls(port))
		return IBTSIM_DROP_SL_TO_VL_NOT_OPERATIONAL;
	return IBTSIM_DROP_NONE;
}

/**
 * ibtsim_qkey_viol() - a packet to the port had the wrong Q_Key
 * @port: the HCA port
 *
 * Counts it in the port's Q_KeyViolations (PortInfo).
 *
 * Return: the reason of the drop, %IBTSIM_DROP_QKEY_VIOLATION.
 */
enum ibtsim_drop_reason ibtsim_qkey_viol(struct ibtsim_port *port)
{
	unsigned long flags;

	spin_lock_irqsave(&port->node->lock, flags);
	port->qkey_viol++;
	spin_unlock_irqrestore(&port->node->lock, flags);
	return IBTSIM_DROP_QKEY_VIOLATION;
}

/*
 * A packet arrives at an HCA port, as its link layer and transport see it.
 * Returns the port an answer of SM-lite's SA, or of a hostless HCA's
 * firmware, leaves by, else NULL.
 */
static struct ibtsim_port *ibtsim_ca_rx(struct ibtsim_port *port,
					struct ibtsim_pkt *pkt)
{
	bool dr = ibtsim_pkt_is_dr_smp(pkt);
	struct ib_wc hdr = {};
	enum ibtsim_drop_reason why;
	struct ibtsim_qp *qp;
	unsigned long flags;
	u16 lid, top;
	u32 qkey;
	int pidx = 0;
	u8 state;

	spin_lock_irqsave(&port->node->lock, flags);
	state = port->state;
	lid = port->lid;
	top = lid + (1U << port->lmc) - 1;
	if (pkt->dqpn) {
		pidx = __ibtsim_pkey_find(port, pkt->pkey);
		if (pidx < 0)
			port->pkey_viol++;
	}
	spin_unlock_irqrestore(&port->node->lock, flags);

	if (state == IBTSIM_PORT_DOWN) {
		why = IBTSIM_DROP_PORT_DOWN;
		goto drop;
	}
	if (!dr) {
		if (pkt->dlid == be16_to_cpu(IB_LID_PERMISSIVE)) {
			if (pkt->dqpn) {
				why = IBTSIM_DROP_PERMISSIVE_DLID;
				goto drop;
			}
		} else if (!lid || pkt->dlid < lid || pkt->dlid > top) {
			why = IBTSIM_DROP_DLID_NOT_OURS;
			goto drop;
		} else {
			hdr.dlid_path_bits = pkt->dlid - lid;
		}
	}
	/* Only SMPs flow before Armed (IBA 7.2). */
	if (pkt->dqpn && state < IBTSIM_PORT_ARMED) {
		why = IBTSIM_DROP_DATA_BEFORE_ARMED;
		goto drop;
	}
	if (pidx < 0) {
		why = IBTSIM_DROP_PKEY_VIOLATION;
		goto drop;
	}
	/* A traffic flow's packet: the port's link layer took it. */
	if (pkt->flow) {
		ibtsim_traffic_deliver(port, pkt);
		return NULL;
	}
	switch (ibtsim_sa_server_rx(port, pkt)) {
	case IBTSIM_SA_ANSWER:
		return port;
	case IBTSIM_SA_DROP:
		return NULL;
	default:
		break;
	}
	if (port->node->hostless)
		return ibtsim_ca_fw_rx(port, pkt, lid, top, dr);
	qp = ibtsim_qp_get(port, pkt->dqpn);
	if (!qp) {
		why = IBTSIM_DROP_NO_QP;
		goto drop;
	}
	if (pkt->dqpn) {
		spin_lock_irqsave(&qp->lock, flags);
		qkey = qp->qkey;
		spin_unlock_irqrestore(&qp->lock, flags);
		if (qkey != pkt->qkey) {
			ibtsim_qp_put(qp);
			why = ibtsim_qkey_viol(port);
			goto drop;
		}
	}

	hdr.src_qp = pkt->sqpn;
	hdr.slid = pkt->slid;
	hdr.sl = pkt->sl;
	hdr.pkey_index = pidx;
	hdr.port_num = port->num;
	ibtsim_qp_recv(qp, pkt, &hdr);
	ibtsim_qp_put(qp);
	return NULL;
drop:
	ibtsim_drop(port, why);
	return NULL;
}

/* @pkt arrives at @port; returns the port it leaves by, or NULL. */
static struct ibtsim_port *ibtsim_port_rx(struct ibtsim_port *port,
					  struct ibtsim_pkt *pkt)
{
	enum ibtsim_drop_reason why = ibtsim_vl_check(port, pkt);

	if (unlikely(why != IBTSIM_DROP_NONE)) {
		ibtsim_drop(port, why);
		return NULL;
	}
	if (port->node->sw) {
		/* SM-lite's SA at a switch answers before it routes. */
		if (ibtsim_sa_server_rx(port, pkt) == IBTSIM_SA_DROP)
			return NULL;
		return ibtsim_switch_rx(port, pkt);
	}
	return ibtsim_ca_rx(port, pkt);
}

/* @port's PortState, read under its node's lock. */
static u8 ibtsim_port_state(struct ibtsim_port *port)
{
	unsigned long flags;
	u8 state;

	spin_lock_irqsave(&port->node->lock, flags);
	state = port->state;
	spin_unlock_irqrestore(&port->node->lock, flags);
	return state;
}

/* May @pkt leave by @port? Down: nothing leaves; below Active: SMPs only. */
static bool ibtsim_port_egress(struct ibtsim_port *port,
			       const struct ibtsim_pkt *pkt)
{
	u8 state = ibtsim_port_state(port);

	if (state == IBTSIM_PORT_DOWN) {
		ibtsim_drop(port, IBTSIM_DROP_PORT_DOWN);
		return false;
	}
	if (pkt->dqpn && state != IBTSIM_PORT_ACTIVE) {
		ibtsim_drop(port, IBTSIM_DROP_DATA_BEFORE_ACTIVE);
		return false;
	}
	atomic64_inc(&port->tx_pkts);
	return true;
}

/*
 * @pkt leaves by @port: the port at the other end of the link, or NULL. A
 * data packet leaving an HCA goes on the VL of its SL (a switch chose the
 * VL with the exit port), but an injected one as it was made.
 */
static struct ibtsim_port *ibtsim_port_xmit(struct ibtsim_port *port,
					    struct ibtsim_pkt *pkt)
{
	u32 ppm = READ_ONCE(port->drop_ppm);
	unsigned long flags;
	enum ibtsim_drop_reason why;

	if (!port->node->sw && pkt->dqpn && !pkt->forged) {
		spin_lock_irqsave(&port->node->lock, flags);
		why = ibtsim_pkt_vl(port, port->sl2vl, pkt);
		spin_unlock_irqrestore(&port->node->lock, flags);
		if (why != IBTSIM_DROP_NONE) {
			ibtsim_drop(port, why);
			return NULL;
		}
	}

	if (ppm && ibtsim_chance(port->node->fabric, ppm)) {
		ibtsim_drop(port, IBTSIM_DROP_LINK_LOSS);
		return NULL;
	}
	if (!ibtsim_port_egress(port, pkt))
		return NULL;
	if (!port->peer) {
		ibtsim_drop(port, IBTSIM_DROP_NO_LINK);
		return NULL;
	}
	return port->peer;
}

/* Arm the delayed work for the first packet of @fabric->delayed. */
static void __ibtsim_delay_arm(struct ibtsim_fabric *fabric)
{
	struct ibtsim_pkt *first;
	s64 ns;

	lockdep_assert_held(&fabric->tx_lock);
	first = list_first_entry_or_null(&fabric->delayed, struct ibtsim_pkt,
					 list);
	if (!first || fabric->no_delay)
		return;
	ns = ktime_to_ns(ktime_sub(first->due, ktime_get()));
	/* +1: a timer never fires early, nor should the packet arrive early */
	mod_delayed_work(fabric->wq, &fabric->delay_work,
			 ns > 0 ? nsecs_to_jiffies(ns) + 1 : 0);
}

/*
 * Hold @pkt back until @due, when it arrives at @at (fabric.c's delay
 * work). Returns false if the fabric no longer holds packets back (it is
 * stopping): go on now.
 */
static bool ibtsim_pkt_hold(struct ibtsim_fabric *fabric,
			    struct ibtsim_pkt *pkt, struct ibtsim_port *at,
			    ktime_t due)
{
	struct ibtsim_pkt *pos;
	unsigned long flags;

	spin_lock_irqsave(&fabric->tx_lock, flags);
	if (fabric->no_delay) {
		spin_unlock_irqrestore(&fabric->tx_lock, flags);
		return false;
	}
	pkt->due = due;
	pkt->at = at;
	/* Sorted by arrival, after those due at the same time: from the tail. */
	list_for_each_entry_reverse(pos, &fabric->delayed, list)
		if (!ktime_after(pos->due, due))
			break;
	list_add(&pkt->list, &pos->list);
	if (fabric->delayed.next == &pkt->list)
		__ibtsim_delay_arm(fabric);
	spin_unlock_irqrestore(&fabric->tx_lock, flags);
	return true;
}

/*
 * @pkt left @port (delay knob @delay_us, maybe 0) towards @peer: hold it
 * back if the knob says so or if an earlier packet of the link still is.
 * Returns true if it was held back (the fabric owns it then).
 */
static bool ibtsim_link_delay(struct ibtsim_fabric *fabric,
			      struct ibtsim_port *port, struct ibtsim_port *peer,
			      struct ibtsim_pkt *pkt, u32 delay_us)
{
	ktime_t now, due;

	if (!delay_us && !port->delay_last)
		return false;
	now = ktime_get();
	due = ktime_add_us(now, delay_us);
	if (ktime_before(due, port->delay_last))
		due = port->delay_last;
	if (!delay_us && !ktime_after(due, now)) {
		port->delay_last = 0;
		return false;
	}
	if (!ibtsim_pkt_hold(fabric, pkt, peer, due))
		return false;
	port->delay_last = due;
	return true;
}

/*
 * An HCA port that is a data sink (its sink knob) takes a data packet
 * only 1/sink_pps seconds after the one before: until then the packet
 * waits in its receive buffer, holding its room (flowctl.c). Returns true
 * if @pkt was held back (the fabric owns it).
 */
static bool ibtsim_sink_hold(struct ibtsim_fabric *fabric,
			     struct ibtsim_port *port, struct ibtsim_pkt *pkt)
{
	u32 pps = READ_ONCE(port->sink_pps);
	ktime_t now, due;

	if (!pps || port->node->sw || !pkt->dqpn)
		return false;
	now = ktime_get();
	due = ktime_after(port->sink_last, now) ? port->sink_last : now;
	due = ktime_add_ns(due, NSEC_PER_SEC / pps);
	pkt->sunk = true;
	if (!ibtsim_pkt_hold(fabric, pkt, port, due)) {
		pkt->sunk = false;
		return false;
	}
	port->sink_last = due;
	return true;
}

/*
 * @pkt crosses the link from @port: captures see it, and the delay knob
 * may hold it back. Returns true if it was held back (the fabric owns it).
 */
static bool ibtsim_pkt_cross(struct ibtsim_fabric *fabric,
			     struct ibtsim_port *port, struct ibtsim_pkt *pkt)
{
	atomic64_add(ibtsim_pkt_bytes(pkt) / 4, &port->xmit_words);
	if (unlikely(READ_ONCE(fabric->ncaptures)))
		__ibtsim_capture_link(port, port->peer, pkt);
	if (!ibtsim_link_delay(fabric, port, port->peer, pkt,
			       READ_ONCE(port->delay_us)))
		return false;
	if (pkt->vl < IBTSIM_DATA_VLS) {
		port->fc.vl[pkt->vl].flying++;
		port->fc.vl[pkt->vl].flying_blocks += pkt->blocks;
		pkt->flying = true;
	}
	return true;
}

/*
 * @pkt arrives at @port over its link: it takes room in the port's buffer
 * (flowctl.c), and the port receives it, unless the port is a data sink
 * that takes it later (then *@held, and the fabric owns it; it arrives
 * again when taken). Returns the port it leaves by, or NULL.
 */
static struct ibtsim_port *ibtsim_pkt_arrive(struct ibtsim_fabric *fabric,
					     struct ibtsim_port *port,
					     struct ibtsim_pkt *pkt, bool *held)
{
	*held = false;
	if (pkt->flying) {
		port->peer->fc.vl[pkt->vl].flying--;
		port->peer->fc.vl[pkt->vl].flying_blocks -= pkt->blocks;
		pkt->flying = false;
	}
	if (!pkt->sunk)
		atomic64_add(ibtsim_pkt_bytes(pkt) / 4, &port->rcv_words);
	if (pkt->sunk) {
		pkt->sunk = false;	/* the data sink takes it now */
	} else {
		if (!ibtsim_fc_arrive(port, pkt))
			return NULL;
		if (ibtsim_sink_hold(fabric, port, pkt)) {
			*held = true;
			return NULL;
		}
	}
	return ibtsim_port_rx(port, pkt);
}

/*
 * Carry @pkt across the fabric, @port being where it is now: the port it
 * leaves by (@rx false) or the one it arrives at (@rx true). Returns true
 * when the packet is done with (delivered, answered or dropped), false
 * when it waits for credits, or a delay knob or a data sink holds it back.
 */
static bool ibtsim_pkt_fly(struct ibtsim_fabric *fabric, struct ibtsim_port *port,
			   struct ibtsim_pkt *pkt, bool rx)
{
	struct ibtsim_port *peer;
	bool held;

	if (rx) {
		port = ibtsim_pkt_arrive(fabric, port, pkt, &held);
		if (held)
			return false;
	}
	while (port) {
		if (ibtsim_pkt_claimed(fabric, port, pkt))
			break;
		if (pkt->hops++ == IBTSIM_MAX_FWD_HOPS) {
			ibtsim_drop(port, IBTSIM_DROP_TOO_MANY_HOPS);
			break;
		}
		peer = ibtsim_port_xmit(port, pkt);
		if (!peer)
			break;
		switch (ibtsim_fc_queue(fabric, port, pkt)) {
		case IBTSIM_FC_QUEUED:
			return false;
		case IBTSIM_FC_DROPPED:
			return true;
		case IBTSIM_FC_CROSS:
			break;
		}
		if (ibtsim_pkt_cross(fabric, port, pkt))
			return false;
		port = ibtsim_pkt_arrive(fabric, peer, pkt, &held);
		if (held)
			return false;
	}
	return true;
}

/**
 * ibtsim_pkt_onward() - a packet that waited for credits leaves its port
 * @fabric: the fabric
 * @port: the port
 * @pkt: the packet, its credits taken (flowctl.c)
 *
 * The fabric's worker. It crosses the link and travels on until it is
 * done with (then freed), waits again, or a delay knob holds it back.
 */
void ibtsim_pkt_onward(struct ibtsim_fabric *fabric, struct ibtsim_port *port,
		       struct ibtsim_pkt *pkt)
{
	/* The link may have gone down while it waited. */
	if (ibtsim_port_state(port) == IBTSIM_PORT_DOWN) {
		ibtsim_drop(port, IBTSIM_DROP_PORT_DOWN);
		ibtsim_pkt_free(fabric, pkt);
		return;
	}
	if (ibtsim_pkt_cross(fabric, port, pkt))
		return;
	if (ibtsim_pkt_fly(fabric, port->peer, pkt, true))
		ibtsim_pkt_free(fabric, pkt);
}

/*
 * Take @pkt out of its HCA port: loopback to one of its LIDs, or the
 * fabric. An injected packet leaves its port (of an HCA or a switch) as it
 * is, onto the link. Returns false when a delay knob holds the packet back.
 */
static bool ibtsim_port_tx(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt)
{
	struct ibtsim_port *port = pkt->src_port;
	bool dr = ibtsim_pkt_is_dr_smp(pkt);
	unsigned long flags;
	u16 lid, top;

	if (pkt->forged)
		return ibtsim_pkt_fly(fabric, port, pkt, false);
	spin_lock_irqsave(&port->node->lock, flags);
	lid = port->lid;
	top = lid + (1U << port->lmc) - 1;
	pkt->slid = lid ? lid | (pkt->path_bits & ((1U << port->lmc) - 1)) :
			  be16_to_cpu(IB_LID_PERMISSIVE);
	pkt->pkey = pkt->sqpn ? port->pkeys[pkt->pkey_index] :
				IBTSIM_DEFAULT_PKEY;
	spin_unlock_irqrestore(&port->node->lock, flags);

	if (!pkt->sqpn && pkt->dqpn) {
		ibtsim_drop(port, IBTSIM_DROP_QP0_NOT_TO_QP0);
		return true;
	}
	if (!dr && lid && pkt->dlid >= lid && pkt->dlid <= top) {
		if (ibtsim_pkt_claimed(fabric, port, pkt))
			return true;
		/* An SA answer to our own LID loops back too. */
		if (ibtsim_port_egress(port, pkt) && ibtsim_ca_rx(port, pkt))
			ibtsim_ca_rx(port, pkt);
		return true;
	}
	return ibtsim_pkt_fly(fabric, port, pkt, false);
}

/**
 * ibtsim_pkt_free() - a packet is done with
 * @fabric: the fabric
 * @pkt: the packet
 *
 * Its room in a receive buffer goes back to its sender (flowctl.c), an
 * injected one leaves the fabric's bound, and a traffic flow's is counted
 * by its flow, delivered or dropped (traffic.c).
 */
void ibtsim_pkt_free(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt)
{
	ibtsim_fc_release(fabric, pkt);
	if (pkt->injected)
		atomic_dec(&fabric->ninjected);
	if (pkt->flow)
		ibtsim_traffic_done(pkt);
	kfree(pkt);
}

/* Complete the send of @pkt unless done already; free it if @done. */
static void ibtsim_pkt_sent(struct ibtsim_fabric *fabric,
			    struct ibtsim_pkt *pkt, bool done)
{
	if (pkt->src_qp) {
		ibtsim_qp_send_done(pkt->src_qp, pkt);
		pkt->src_qp = NULL;
	}
	if (done)
		ibtsim_pkt_free(fabric, pkt);
}

/*
 * The worker: the data sinks whose rate changed take the packets they
 * hold at the new rate, from now on (the first one interval from now, or
 * now without a rate), in the order they came; then new arrivals queue
 * behind them. Visits every port: this is rare (a knob).
 */
static void ibtsim_sink_retime(struct ibtsim_fabric *fabric)
{
	struct ibtsim_pkt *pkt, *tmp;
	struct ibtsim_port *port;
	unsigned long flags;
	ktime_t now = ktime_get();
	LIST_HEAD(batch);
	u32 i, n, pps;

	spin_lock_irqsave(&fabric->tx_lock, flags);
	list_for_each_entry_safe(pkt, tmp, &fabric->delayed, list)
		if (pkt->sunk && READ_ONCE(pkt->at->sink_retime))
			list_move_tail(&pkt->list, &batch);
	spin_unlock_irqrestore(&fabric->tx_lock, flags);

	for (i = 0; i < fabric->num_nodes; i++) {
		for (n = 0; n <= fabric->nodes[i]->num_ports; n++) {
			port = &fabric->nodes[i]->ports[n];
			if (READ_ONCE(port->sink_retime)) {
				WRITE_ONCE(port->sink_retime, false);
				port->sink_last = now;
			}
		}
		cond_resched();
	}
	list_for_each_entry_safe(pkt, tmp, &batch, list) {
		list_del(&pkt->list);
		port = pkt->at;
		pps = READ_ONCE(port->sink_pps);
		if (pps)
			port->sink_last = ktime_add_ns(port->sink_last,
						       NSEC_PER_SEC / pps);
		if (!ibtsim_pkt_hold(fabric, pkt, port, port->sink_last)) {
			/* the fabric stops: taken now */
			if (ibtsim_pkt_fly(fabric, port, pkt, true))
				ibtsim_pkt_free(fabric, pkt);
		}
	}
}

static void ibtsim_tx_work(struct work_struct *work)
{
	struct ibtsim_fabric *fabric = container_of(work, struct ibtsim_fabric,
						    tx_work);
	struct ibtsim_pkt *pkt, *tmp;
	struct ibtsim_port *port;
	unsigned long flags;
	LIST_HEAD(batch);
	bool retime;

	spin_lock_irqsave(&fabric->tx_lock, flags);
	list_splice_init(&fabric->tx_queue, &batch);
	retime = fabric->sink_retime;
	fabric->sink_retime = false;
	spin_unlock_irqrestore(&fabric->tx_lock, flags);

	if (retime)
		ibtsim_sink_retime(fabric);

	/* the links that trained, one at a time off the list */
	for (;;) {
		spin_lock_irqsave(&fabric->tx_lock, flags);
		port = list_first_entry_or_null(&fabric->fc_resync,
						struct ibtsim_port, fc.resync);
		if (port)
			list_del_init(&port->fc.resync);
		spin_unlock_irqrestore(&fabric->tx_lock, flags);
		if (!port)
			break;
		ibtsim_fc_resync(fabric, port);
		ibtsim_fc_run(fabric);
		cond_resched();
	}

	list_for_each_entry_safe(pkt, tmp, &batch, list) {
		list_del(&pkt->list);
		/*
		 * A packet held back, on @delayed or waiting for credits:
		 * only complete its send. Then send what may go now.
		 */
		ibtsim_pkt_sent(fabric, pkt, ibtsim_port_tx(fabric, pkt));
		ibtsim_fc_run(fabric);
		cond_resched();
	}
}

/* Carry on the delayed packets whose time has come. */
static void ibtsim_delay_work(struct work_struct *work)
{
	struct ibtsim_fabric *fabric = container_of(to_delayed_work(work),
						    struct ibtsim_fabric,
						    delay_work);
	struct ibtsim_pkt *pkt, *tmp;
	unsigned long flags;
	ktime_t now = ktime_get();
	LIST_HEAD(batch);

	spin_lock_irqsave(&fabric->tx_lock, flags);
	list_for_each_entry_safe(pkt, tmp, &fabric->delayed, list) {
		if (ktime_after(pkt->due, now))
			break;
		list_move_tail(&pkt->list, &batch);
	}
	__ibtsim_delay_arm(fabric);
	spin_unlock_irqrestore(&fabric->tx_lock, flags);

	list_for_each_entry_safe(pkt, tmp, &batch, list) {
		list_del(&pkt->list);
		if (ibtsim_pkt_fly(fabric, pkt->at, pkt, true))
			ibtsim_pkt_free(fabric, pkt);
		ibtsim_fc_run(fabric);
		cond_resched();
	}
}

/**
 * ibtsim_rnd_init - seed the fabric's pseudo-random generator
 * @fabric: the fabric
 * @seed: the seed
 */
void ibtsim_rnd_init(struct ibtsim_fabric *fabric, u32 seed)
{
	spin_lock_init(&fabric->rnd_lock);
	fabric->seed = seed;
	prandom_seed_state(&fabric->rnd, seed);
}

/**
 * ibtsim_chance - a random decision of the fabric
 * @fabric: the fabric, whose generator decides
 * @ppm: probability of true, in parts per million
 *
 * Any context. The draws follow one another in the fabric's generator, so
 * the decisions depend only on its seed and on the order in which they
 * are asked for (the packets of the fabric's ordered work items).
 *
 * Return: true with probability @ppm / 1000000.
 */
bool ibtsim_chance(struct ibtsim_fabric *fabric, u32 ppm)
{
	unsigned long flags;
	u32 r;

	spin_lock_irqsave(&fabric->rnd_lock, flags);
	r = prandom_u32_state(&fabric->rnd);
	spin_unlock_irqrestore(&fabric->rnd_lock, flags);
	/* r scaled to 0..999999 by a multiply, without modulo bias */
	return ((u64)r * IBTSIM_DROP_PPM_MAX >> 32) < ppm;
}

/**
 * ibtsim_fabric_xmit - queue a packet for delivery
 * @fabric: the fabric of the sending port
 * @pkt: the packet; owned by the fabric on success
 *
 * Any context.
 *
 * Return: 0, or -ENODEV when the fabric is being destroyed.
 */
int ibtsim_fabric_xmit(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&fabric->tx_lock, flags);
	if (fabric->dying) {
		err = -ENODEV;
	} else {
		list_add_tail(&pkt->list, &fabric->tx_queue);
		queue_work(fabric->wq, &fabric->tx_work);
		atomic64_inc(&fabric->stats.sent);
	}
	spin_unlock_irqrestore(&fabric->tx_lock, flags);
	return err;
}

/**
 * ibtsim_fabric_fc_resync() - credits changed outside the fabric's worker
 * @port: the port whose link trained or whose receive buffer changed size
 *
 * The worker starts the link's credits again and lets every port with
 * packets waiting try again (flowctl.c). Any context.
 */
void ibtsim_fabric_fc_resync(struct ibtsim_port *port)
{
	struct ibtsim_fabric *fabric = port->node->fabric;
	unsigned long flags;

	spin_lock_irqsave(&fabric->tx_lock, flags);
	if (!fabric->dying) {
		if (list_empty(&port->fc.resync))
			list_add_tail(&port->fc.resync, &fabric->fc_resync);
		queue_work(fabric->wq, &fabric->tx_work);
	}
	spin_unlock_irqrestore(&fabric->tx_lock, flags);
}

/**
 * ibtsim_fabric_sink_retime() - a data sink's rate changed
 * @port: the HCA port
 *
 * The worker retimes the packets it holds (ibtsim_sink_retime()). Any
 * context.
 */
void ibtsim_fabric_sink_retime(struct ibtsim_port *port)
{
	struct ibtsim_fabric *fabric = port->node->fabric;
	unsigned long flags;

	WRITE_ONCE(port->sink_retime, true);
	spin_lock_irqsave(&fabric->tx_lock, flags);
	if (!fabric->dying) {
		fabric->sink_retime = true;
		queue_work(fabric->wq, &fabric->tx_work);
	}
	spin_unlock_irqrestore(&fabric->tx_lock, flags);
}

/**
 * ibtsim_fabric_fc_watch() - arm the watch over flow control stalls
 * @fabric: the fabric
 *
 * The fabric's worker, when packets start to wait (flowctl.c).
 *
 * Return: true if armed; false when the fabric is stopping.
 */
bool ibtsim_fabric_fc_watch(struct ibtsim_fabric *fabric)
{
	unsigned long flags;
	bool armed = false;

	spin_lock_irqsave(&fabric->tx_lock, flags);
	if (!fabric->no_delay) {
		queue_delayed_work(fabric->wq, &fabric->fc_watch,
				   msecs_to_jiffies(IBTSIM_FC_WATCH_MS));
		armed = true;
	}
	spin_unlock_irqrestore(&fabric->tx_lock, flags);
	return armed;
}

static void ibtsim_fc_watch_work(struct work_struct *work)
{
	struct ibtsim_fabric *fabric = container_of(to_delayed_work(work),
						    struct ibtsim_fabric,
						    fc_watch);

	if (ibtsim_fc_watch(fabric))
		fabric->fc_watching = ibtsim_fabric_fc_watch(fabric);
}

/**
 * ibtsim_fabric_pace_arm() - kick paced ports again at a time
 * @fabric: the fabric
 * @when: when the first of their transmitters is free
 *
 * The fabric's worker (flowctl.c), when a port's packets wait for its
 * transmitter: its pace work runs then, or sooner if already armed for
 * sooner, unless the fabric is stopping.
 */
void ibtsim_fabric_pace_arm(struct ibtsim_fabric *fabric, ktime_t when)
{
	s64 ns = ktime_to_ns(ktime_sub(when, ktime_get()));
	unsigned long delay = ns > 0 ? nsecs_to_jiffies(ns) + 1 : 0;
	unsigned long flags;

	if (fabric->pace_next && !ktime_before(when, fabric->pace_next))
		return;
	spin_lock_irqsave(&fabric->tx_lock, flags);
	if (!fabric->no_delay) {
		mod_delayed_work(fabric->wq, &fabric->pace_work, delay);
		fabric->pace_next = when;
	}
	spin_unlock_irqrestore(&fabric->tx_lock, flags);
}

static void ibtsim_pace_work(struct work_struct *work)
{
	struct ibtsim_fabric *fabric = container_of(to_delayed_work(work),
						    struct ibtsim_fabric,
						    pace_work);

	ibtsim_fc_pace_run(fabric);
}

/**
 * ibtsim_fabric_inject - queue an injected packet for delivery
 * @fabric: the fabric
 * @pkt: the packet, sent from its @src_port; owned by the fabric on success
 *
 * Any context. Counts @pkt among the fabric's injected packets until it is
 * done with: its answer, if it gets one, is the same packet.
 *
 * Return: 0; -EBUSY when %IBTRACE_SIM_INJECT_INFLIGHT_MAX injected packets
 * travel the fabric already, or -ENODEV when it is being destroyed.
 */
int ibtsim_fabric_inject(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt)
{
	int err;

	if (atomic_inc_return(&fabric->ninjected) >
	    IBTRACE_SIM_INJECT_INFLIGHT_MAX) {
		atomic_dec(&fabric->ninjected);
		return -EBUSY;
	}
	pkt->injected = true;
	err = ibtsim_fabric_xmit(fabric, pkt);
	if (err) {
		pkt->injected = false;
		atomic_dec(&fabric->ninjected);
		return err;
	}
	atomic64_inc(&fabric->stats.injected);
	return 0;
}

int ibtsim_fabric_start(struct ibtsim_fabric *fabric)
{
	spin_lock_init(&fabric->tx_lock);
	INIT_LIST_HEAD(&fabric->tx_queue);
	INIT_WORK(&fabric->tx_work, ibtsim_tx_work);
	INIT_LIST_HEAD(&fabric->delayed);
	INIT_DELAYED_WORK(&fabric->delay_work, ibtsim_delay_work);
	INIT_LIST_HEAD(&fabric->fc_busy);
	INIT_LIST_HEAD(&fabric->fc_kick);
	INIT_DELAYED_WORK(&fabric->fc_watch, ibtsim_fc_watch_work);
	INIT_LIST_HEAD(&fabric->fc_pace);
	INIT_DELAYED_WORK(&fabric->pace_work, ibtsim_pace_work);
	INIT_LIST_HEAD(&fabric->fc_resync);
	spin_lock_init(&fabric->fc_report_lock);
	ibtsim_fc_resync(fabric, NULL);	/* every link's first grants */
	/*
	 * The worker stands in for the wire and the switches, which never
	 * wait for the host's scheduler: high priority, so that a packet is
	 * not held behind the processes it serves (on two CPUs, the
	 * requester's tool and job thread). It yields between packets.
	 */
	fabric->wq = alloc_ordered_workqueue("ibtsim_%s", WQ_HIGHPRI,
					     fabric->name);
	return fabric->wq ? 0 : -ENOMEM;
}

/*
 * Stop delivery. Called once every RDMA device of the fabric is
 * unregistered: their QPs are gone, so every packet was completed (QP
 * destruction waits for its packets), and nothing posts any more. Packets
 * still held back by a delay knob or waiting for credits hold no QP: they
 * are dropped here.
 */
void ibtsim_fabric_stop(struct ibtsim_fabric *fabric)
{
	struct ibtsim_pkt *pkt, *tmp;
	unsigned long flags;
	LIST_HEAD(batch);

	spin_lock_irqsave(&fabric->tx_lock, flags);
	fabric->dying = true;
	fabric->no_delay = true;	/* nothing is held back any more */
	spin_unlock_irqrestore(&fabric->tx_lock, flags);
	cancel_delayed_work_sync(&fabric->delay_work);
	/* no_delay: it re-arms no more */
	cancel_delayed_work_sync(&fabric->fc_watch);
	cancel_delayed_work_sync(&fabric->pace_work);
	destroy_workqueue(fabric->wq);
	WARN_ON(!list_empty(&fabric->tx_queue));

	list_splice_init(&fabric->delayed, &batch);
	list_for_each_entry_safe(pkt, tmp, &batch, list) {
		list_del(&pkt->list);
		ibtsim_drop(pkt->at, IBTSIM_DROP_FABRIC_DESTROYED);
		ibtsim_pkt_free(fabric, pkt);
	}
	ibtsim_fc_flush(fabric, IBTSIM_DROP_FABRIC_DESTROYED);
}
