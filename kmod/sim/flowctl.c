// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - link-level flow control: credits per data VL (IBA 7.9.4).
 *
 * A data packet that leaves a port (any VL but 15: SMPs are not flow
 * controlled) waits in the port's queue for its VL until the receiver at
 * the other end of the link has room for it. Per data VL, the sending
 * port counts FCTBS, the blocks of 64 bytes it sent since the link
 * trained, and keeps FCCL, the limit the receiver granted last; it may
 * send a packet of B blocks when (FCCL - (FCTBS + B)) mod 4096 <= 2048.
 * The receiving port counts ABR, the blocks it received and kept, and
 * holds each packet's blocks in its buffer until the packet leaves the
 * node (by a switch's exit port; delivered or dropped at an HCA). Each
 * time room is freed the receiver grants (a flow control packet) an FCCL
 * of ABR + 2048 when it has room for 2048 blocks or more, else ABR + its
 * room, modulo 4096: the arithmetic of the IBTrainer seed.
 *
 * A port may ignore the credits (the exerciser's mode, a knob): its data
 * packets leave at once, and a receiver without room for one discards it
 * and counts it (ExcessiveBufferOverrunErrors), not in ABR. The sender's
 * FCTBS then runs ahead of the receiver's ABR, until a flow control
 * packet from the sender carries its FCTBS and the receiver sets its ABR
 * from it (IBA 7.9.4.3, the seed). Such packets go with every grant (the
 * link's flow control packets go both ways) and every IBTSIM_FC_WATCH_MS
 * while packets wait: the spec's period, 65,536 symbol times, is scaled.
 * A packet lost on the link (the drop knob) is lost before it takes any
 * credit.
 *
 * A credit loop can deadlock: every buffer of a cycle full of packets that
 * wait for room in the next one. Every IBTSIM_FC_WATCH_MS while packets
 * wait, the watch finds the queues that can never move and reports the
 * loop they wait in (ibtsim_fc_report()).
 *
 * Of the VLs whose head packet has its credits, the port's VL
 * arbitration (IBA 7.6.9) picks the one that sends: by the high and low
 * priority VLArbitrationTable an SM wrote (entries of a VL and a weight
 * in blocks, taken in turn; high priority first, up to VLHighLimit while
 * low priority packets wait), else each VL in turn. It matters where the
 * transmitter is the bottleneck: with a time scale.
 *
 * With a time scale (link-rate pacing, set when the fabric is made), a
 * port's transmitter sends a data packet only when it is done with the one
 * before, which held it for the packet's bytes at the link's data rate
 * (LinkWidthActive x LinkSpeedActive), times the scale: links pass
 * packets at their rates relative to each other. A port whose packets wait
 * for its transmitter is on the fabric's pace list, kicked again by the
 * pace work when it is free; it is sending, not waiting for credits
 * (PortXmitWait does not count it). The pace work runs at most once a
 * jiffy: a busy transmitter may run up to IBTSIM_PACE_SLACK_NS behind,
 * and catch up with a burst, so that the rate holds over time; one
 * further behind was idle, and starts again from now.
 *
 * The fabric's ordered worker (fabric.c) runs all of this and owns the
 * state: no lock. The packets each port may send again are sent by
 * ibtsim_fc_run(), which the worker calls after each packet it carried,
 * so that a packet that arrives somewhere and waits again is a new step
 * of the same loop, not a deeper call.
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "sim.h"
#include "loc.h"

/* How far a paced transmitter may run behind (at least 2 jiffies). */
#define IBTSIM_PACE_SLACK_NS	(10 * NSEC_PER_MSEC)

/* LRH, BTH, DETH; the ICRC and VCRC. A GRH adds its 40 bytes. */
#define IBTSIM_FC_HDR_BYTES	(8 + 12 + 8)
#define IBTSIM_FC_CRC_BYTES	(4 + 2)

/**
 * ibtsim_pkt_bytes() - bytes of a packet on the wire
 * @pkt: the packet
 *
 * Return: its headers, payload and CRCs.
 */
u32 ibtsim_pkt_bytes(const struct ibtsim_pkt *pkt)
{
	u32 bytes = IBTSIM_FC_HDR_BYTES + IBTSIM_FC_CRC_BYTES + pkt->len;

	if (pkt->has_grh)
		bytes += sizeof(struct ib_grh);
	return bytes;
}

/**
 * ibtsim_fc_blocks() - flow control blocks of a packet
 * @pkt: the packet
 *
 * Return: its bytes on the wire in blocks of 64, rounded up.
 */
u16 ibtsim_fc_blocks(const struct ibtsim_pkt *pkt)
{
	return DIV_ROUND_UP(ibtsim_pkt_bytes(pkt), IBTSIM_FC_BLOCK);
}

/**
 * ibtsim_port_xmit_wait_us() - a port's PortXmitWait
 * @port: the port
 *
 * Any context: the waits that ended, and the one going on up to now.
 *
 * Return: microseconds.
 */
u64 ibtsim_port_xmit_wait_us(const struct ibtsim_port *port)
{
	ktime_t since = READ_ONCE(port->fc.wait_since);
	u64 us = atomic64_read(&port->xmit_wait_us);

	if (since)
		us += ktime_us_delta(ktime_get(), since);
	return us;
}

/* Is @pkt flow controlled? Data VLs only. */
static bool ibtsim_fc_applies(const struct ibtsim_pkt *pkt)
{
	return pkt->vl < IBTSIM_DATA_VLS;
}

/* May @vl send @blocks more (IBA 7.9.4.2)? */
static bool ibtsim_fc_may_send(const struct ibtsim_fc_vl *vl, u16 blocks)
{
	return ((vl->fccl - (vl->fctbs + blocks)) & IBTSIM_FC_MASK) <=
	       IBTSIM_FC_HALF;
}

/*
 * A flow control packet from @tx to its peer on VL @v carries @tx's FCTBS,
 * and the peer sets its ABR from it. The packets @tx sent before it that
 * a delay knob still holds arrive before it (a link keeps its order):
 * they are counted as they land.
 */
static void ibtsim_fc_update(const struct ibtsim_port *tx, u8 v)
{
	const struct ibtsim_fc_vl *vl = &tx->fc.vl[v];

	tx->peer->fc.vl[v].abr = (vl->fctbs - vl->flying_blocks) &
				 IBTSIM_FC_MASK;
}

/* The FCCL the receiver @rx grants on VL @v: ABR + min(room, 2048). */
static u16 ibtsim_fc_limit(const struct ibtsim_port *rx, u8 v)
{
	const struct ibtsim_fc_vl *vl = &rx->fc.vl[v];
	u16 cap = READ_ONCE(rx->fc.buf_blocks);
	u16 room = cap > vl->used ? cap - vl->used : 0;

	return (vl->abr + min_t(u16, room, IBTSIM_FC_HALF)) & IBTSIM_FC_MASK;
}

/*
 * @tx's flow control packet on VL @v (the peer's ABR from its FCTBS) and
 * the peer's grant back (@tx's FCCL).
 */
static void ibtsim_fc_exchange(struct ibtsim_port *tx, u8 v)
{
	ibtsim_fc_update(tx, v);
	tx->fc.vl[v].fccl = ibtsim_fc_limit(tx->peer, v);
}

static void ibtsim_fc_kick(struct ibtsim_fabric *fabric,
			   struct ibtsim_port *port)
{
	if (port->fc.kicked || list_empty(&port->fc.busy))
		return;
	port->fc.kicked = true;
	list_add_tail(&port->fc.kick, &fabric->fc_kick);
}

/*
 * The link of @port trained (again), as ibtsim_link_retrain() counts, or
 * its buffer changed size: both ends start counting from 0 and each
 * grants the other what its buffer has room for. Packets that hold room
 * in a buffer still do. From ibtsim_fc_resync(), which the worker runs
 * whenever a training count moved.
 */
static void ibtsim_fc_sync(struct ibtsim_port *port)
{
	struct ibtsim_port *ends[2] = { port, port->peer };
	unsigned long flags;
	bool same = true;
	u32 trained[2];
	unsigned int i;
	u8 v;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		if (!ends[i])
			continue;
		spin_lock_irqsave(&ends[i]->node->lock, flags);
		trained[i] = ends[i]->trained;
		spin_unlock_irqrestore(&ends[i]->node->lock, flags);
		same = same && trained[i] == ends[i]->fc.trained;
	}
	if (same)
		return;
	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		if (!ends[i])
			continue;
		ends[i]->fc.trained = trained[i];
		for (v = 0; v < IBTSIM_DATA_VLS; v++) {
			ends[i]->fc.vl[v].fctbs = 0;
			ends[i]->fc.vl[v].abr = 0;
		}
	}
	if (!port->peer)
		return;
	for (v = 0; v < IBTSIM_DATA_VLS; v++) {
		port->fc.vl[v].fccl = ibtsim_fc_limit(port->peer, v);
		port->peer->fc.vl[v].fccl = ibtsim_fc_limit(port, v);
	}
}

/**
 * ibtsim_fc_init() - flow control of a port at power-on
 * @port: the port, its peer pointer set
 *
 * Every data VL has the default buffer and nothing sent or received; the
 * first grants are made when delivery starts (ibtsim_fc_resync()).
 */
void ibtsim_fc_init(struct ibtsim_port *port)
{
	u8 v;

	for (v = 0; v < IBTSIM_DATA_VLS; v++)
		INIT_LIST_HEAD(&port->fc.vl[v].txq);
	INIT_LIST_HEAD(&port->fc.busy);
	INIT_LIST_HEAD(&port->fc.kick);
	INIT_LIST_HEAD(&port->fc.pace);
	INIT_LIST_HEAD(&port->fc.resync);
	port->fc.buf_blocks = IBTRACE_SIM_BUF_BLOCKS_DEFAULT;
	/* differs from any training count: granted at the first packet */
	port->fc.trained = U32_MAX;
}

/*
 * @port ignores the credits: @pkt leaves at once (counted in FCTBS) and
 * gives back the room it held where it came in.
 */
static void ibtsim_fc_ignore(struct ibtsim_fabric *fabric,
			     struct ibtsim_port *port, struct ibtsim_pkt *pkt)
{
	struct ibtsim_fc_vl *vl = &port->fc.vl[pkt->vl];

	pkt->blocks = ibtsim_fc_blocks(pkt);
	vl->fctbs = (vl->fctbs + pkt->blocks) & IBTSIM_FC_MASK;
	ibtsim_fc_release(fabric, pkt);
}

/**
 * ibtsim_fc_queue() - a packet is to leave by a port
 * @fabric: the fabric
 * @port: the port, its egress checks passed
 * @pkt: the packet, on its VL for the link
 *
 * A packet of a data VL waits in the port's queue for the VL: the fabric
 * owns it then, and ibtsim_fc_run() sends it.
 *
 * Return: %IBTSIM_FC_CROSS: not flow controlled (VL 15, or a VL above
 * the data VLs an injected packet may carry), or @port ignores the
 * credits: cross the link now;
 * %IBTSIM_FC_QUEUED; %IBTSIM_FC_DROPPED: the queue is full (counted as
 * a drop of @port), free it.
 */
enum ibtsim_fc_verdict ibtsim_fc_queue(struct ibtsim_fabric *fabric,
				       struct ibtsim_port *port,
				       struct ibtsim_pkt *pkt)
{
	struct ibtsim_fc_vl *vl;
	unsigned int queued = 0;
	u8 v;

	if (!ibtsim_fc_applies(pkt))
		return IBTSIM_FC_CROSS;
	if (READ_ONCE(port->ignore_credits)) {
		ibtsim_fc_ignore(fabric, port, pkt);
		return IBTSIM_FC_CROSS;
	}
	for (v = 0; v < IBTSIM_DATA_VLS; v++)
		queued += port->fc.vl[v].queued;
	if (queued >= IBTSIM_FC_TXQ_MAX) {
		ibtsim_drop(port, IBTSIM_DROP_TXQ_FULL);
		return IBTSIM_FC_DROPPED;
	}
	vl = &port->fc.vl[pkt->vl];
	pkt->blocks = ibtsim_fc_blocks(pkt);
	list_add_tail(&pkt->list, &vl->txq);
	vl->queued++;
	if (list_empty(&port->fc.busy))
		list_add_tail(&port->fc.busy, &fabric->fc_busy);
	ibtsim_fc_kick(fabric, port);
	if (!fabric->fc_watching)
		fabric->fc_watching = ibtsim_fabric_fc_watch(fabric);
	return IBTSIM_FC_QUEUED;
}

/**
 * ibtsim_fc_arrive() - a packet arrives at a port over its link
 * @port: the receiving port
 * @pkt: the packet
 *
 * A packet of a data VL takes room in the port's buffer for the VL until
 * ibtsim_fc_release(). When there is no room (its sender ignored the
 * credits) it is discarded, and not counted in ABR (the seed).
 *
 * Return: false when @pkt was discarded (counted; free it).
 */
bool ibtsim_fc_arrive(struct ibtsim_port *port, struct ibtsim_pkt *pkt)
{
	struct ibtsim_fc_vl *vl;

	if (!ibtsim_fc_applies(pkt))
		return true;
	vl = &port->fc.vl[pkt->vl];
	if (vl->used + pkt->blocks > READ_ONCE(port->fc.buf_blocks)) {
		atomic64_inc(&port->overruns);
		ibtsim_drop(port, IBTSIM_DROP_RX_OVERRUN);
		return false;
	}
	vl->used += pkt->blocks;
	vl->abr = (vl->abr + pkt->blocks) & IBTSIM_FC_MASK;
	pkt->held = port;
	pkt->held_vl = pkt->vl;
	pkt->held_blocks = pkt->blocks;
	return true;
}

/**
 * ibtsim_fc_release() - a packet gives back its room in a receive buffer
 * @fabric: the fabric
 * @pkt: the packet: it left the node, or is done with
 *
 * The receiver grants its sender the room (a flow control packet), which
 * may then send again.
 */
void ibtsim_fc_release(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt)
{
	struct ibtsim_port *rx = pkt->held, *tx;
	u8 v = pkt->held_vl;

	if (!rx)
		return;
	pkt->held = NULL;
	rx->fc.vl[v].used -= min(rx->fc.vl[v].used, pkt->held_blocks);
	tx = rx->peer;
	if (!tx)
		return;
	ibtsim_fc_exchange(tx, v);
	ibtsim_fc_kick(fabric, tx);
}

/* Has @port's queue for VL @v a packet, and the credits for it? */
static bool ibtsim_fc_ready(struct ibtsim_port *port, u8 v)
{
	struct ibtsim_fc_vl *vl = &port->fc.vl[v];
	struct ibtsim_pkt *pkt;

	pkt = list_first_entry_or_null(&vl->txq, struct ibtsim_pkt, list);
	return pkt && ibtsim_fc_may_send(vl, pkt->blocks);
}

/* The packet at the head of @port's queue for VL @v leaves it. */
static struct ibtsim_pkt *ibtsim_fc_take(struct ibtsim_port *port, u8 v)
{
	struct ibtsim_fc_vl *vl = &port->fc.vl[v];
	struct ibtsim_pkt *pkt;

	pkt = list_first_entry(&vl->txq, struct ibtsim_pkt, list);
	list_del(&pkt->list);
	vl->queued--;
	vl->fctbs = (vl->fctbs + pkt->blocks) & IBTSIM_FC_MASK;
	return pkt;
}

/*
 * The port's VLArbitrationTable and VLHighLimit, copied for its
 * transmitter when the SMA wrote them since the last copy.
 */
static void ibtsim_fc_arb_sync(struct ibtsim_port *port)
{
	struct ibtsim_fc_arb *arb = &port->fc.arb;
	unsigned long flags;
	unsigned int p, i;

	if (READ_ONCE(port->vlarb_gen) == arb->gen)
		return;
	arb->on = false;
	spin_lock_irqsave(&port->node->lock, flags);
	arb->gen = port->vlarb_gen;
	arb->high_limit = port->vl_high_limit;
	for (p = 0; p < ARRAY_SIZE(arb->prio); p++) {
		struct ibtsim_fc_arb_table *t = &arb->prio[p];

		for (i = 0; i < IBTSIM_VL_ARB_CAP; i++) {
			t->weight[i] = ibtsim_vlarb_get(port->vlarb[p], i,
							&t->vl[i]);
			arb->on |= t->weight[i] != 0;
		}
		t->idx = 0;
		t->left = 0;
	}
	spin_unlock_irqrestore(&port->node->lock, flags);
	arb->high_blocks = 0;
	arb->high_pkts = 0;
}

/*
 * The VL of table @t that sends next: the entry whose turn it is, if its
 * VL may send, else the next such entry, whose turn begins. Entries of
 * weight 0 and VLs the port does not run are passed over. -1 if none.
 */
static int ibtsim_fc_arb_pick(struct ibtsim_port *port,
			      struct ibtsim_fc_arb_table *t)
{
	unsigned int k, i;

	for (k = 0; k < IBTSIM_VL_ARB_CAP; k++) {
		i = (t->idx + k) % IBTSIM_VL_ARB_CAP;
		if (!t->weight[i] || t->vl[i] >= IBTSIM_DATA_VLS ||
		    !ibtsim_fc_ready(port, t->vl[i]))
			continue;
		if (k) {
			t->idx = i;
			t->left = 0;
		}
		if (!t->left)
			t->left = t->weight[i];
		return t->vl[i];
	}
	return -1;
}

/*
 * A packet of @blocks went by the entry whose turn it is: it is sent
 * whole, and the turn ends once the weight is used up.
 */
static void ibtsim_fc_arb_charge(struct ibtsim_fc_arb_table *t, u16 blocks)
{
	if (blocks < t->left) {
		t->left -= blocks;
		return;
	}
	t->idx = (t->idx + 1) % IBTSIM_VL_ARB_CAP;
	t->left = 0;
}

/*
 * The next packet by the port's arbitration tables: high priority first,
 * until VLHighLimit's 4096-byte blocks of them went (at least one
 * packet) while a low priority packet could go; then low priority (and
 * the count starts again). A VL in neither table never sends.
 */
static struct ibtsim_pkt *ibtsim_fc_arb_next(struct ibtsim_port *port)
{
	struct ibtsim_fc_arb *arb = &port->fc.arb;
	bool limited = arb->high_limit != 255 && arb->high_pkts &&
		       arb->high_blocks >= arb->high_limit * 64U;
	struct ibtsim_pkt *pkt;
	int v = -1, p = 1;

	if (!limited)
		v = ibtsim_fc_arb_pick(port, &arb->prio[1]);
	if (v < 0) {
		p = 0;
		v = ibtsim_fc_arb_pick(port, &arb->prio[0]);
	}
	if (v < 0 && limited) {
		p = 1;
		v = ibtsim_fc_arb_pick(port, &arb->prio[1]);
	}
	if (v < 0)
		return NULL;
	pkt = ibtsim_fc_take(port, v);
	ibtsim_fc_arb_charge(&arb->prio[p], pkt->blocks);
	if (p) {
		arb->high_blocks += pkt->blocks;
		arb->high_pkts++;
	} else {
		arb->high_blocks = 0;
		arb->high_pkts = 0;
	}
	return pkt;
}

/*
 * The next packet @port may send: by its VL arbitration tables once an
 * SM wrote them, else of the next VL, in turn, that has one and the
 * credits for it. NULL if none may leave.
 */
static struct ibtsim_pkt *ibtsim_fc_next(struct ibtsim_port *port)
{
	u8 i, v;

	ibtsim_fc_arb_sync(port);
	if (port->fc.arb.on)
		return ibtsim_fc_arb_next(port);
	for (i = 0; i < IBTSIM_DATA_VLS; i++) {
		v = (port->fc.next_vl + i) % IBTSIM_DATA_VLS;
		if (!ibtsim_fc_ready(port, v))
			continue;
		port->fc.next_vl = (v + 1) % IBTSIM_DATA_VLS;
		return ibtsim_fc_take(port, v);
	}
	return NULL;
}

/**
 * ibtsim_link_xmit_ns() - how long a link's transmitter takes for a packet
 * @port: the sending port
 * @pkt: the packet
 * @scale: the fabric's time scale
 *
 * Its bytes at the link's data rate: a lane passes 2, 4 or 8 Gb/s at SDR,
 * DDR or QDR (10 bits a byte on the wire), 4x four lanes; times @scale.
 *
 * Return: nanoseconds.
 */
static u64 ibtsim_link_xmit_ns(const struct ibtsim_port *port,
			       const struct ibtsim_pkt *pkt, u32 scale)
{
	u32 lanes = READ_ONCE(port->link_width) == IBTSIM_WIDTH_1X ? 1 : 4;
	u32 speed = READ_ONCE(port->link_speed) ?: IBTSIM_SPEED_QDR;

	/* bits / (lanes x 2 Gb/s x speed), in ns: bytes x 4 / (lanes x speed) */
	return div_u64((u64)ibtsim_pkt_bytes(pkt) * 4 * scale, lanes * speed);
}

/*
 * Is @port's transmitter busy at @now (link-rate pacing)? Then it goes on
 * the fabric's pace list, to be kicked when it is free.
 */
static bool ibtsim_fc_tx_busy(struct ibtsim_fabric *fabric,
			      struct ibtsim_port *port, ktime_t now)
{
	if (!fabric->time_scale || !ktime_after(port->fc.tx_free, now))
		return false;
	if (list_empty(&port->fc.pace)) {
		list_add_tail(&port->fc.pace, &fabric->fc_pace);
		ibtsim_fabric_pace_arm(fabric, port->fc.tx_free);
	}
	return true;
}

/*
 * @port's transmitter takes @pkt: after the packet before, if it is less
 * than IBTSIM_PACE_SLACK_NS behind (a late pace work: it catches up),
 * else from @now (it was idle: no burst).
 */
static void ibtsim_fc_tx_take(struct ibtsim_fabric *fabric,
			      struct ibtsim_port *port,
			      const struct ibtsim_pkt *pkt, ktime_t now)
{
	if (!fabric->time_scale)
		return;
	if (ktime_before(port->fc.tx_free,
			 ktime_sub_ns(now, IBTSIM_PACE_SLACK_NS)))
		port->fc.tx_free = now;
	port->fc.tx_free = ktime_add_ns(port->fc.tx_free,
					ibtsim_link_xmit_ns(port, pkt,
							    fabric->time_scale));
}

/* Send what @port may send. */
static void ibtsim_fc_send(struct ibtsim_fabric *fabric,
			   struct ibtsim_port *port)
{
	struct ibtsim_pkt *pkt;
	bool sent = false;
	ktime_t now = ktime_get();

	while (!ibtsim_fc_tx_busy(fabric, port, now) &&
	       (pkt = ibtsim_fc_next(port))) {
		sent = true;
		ibtsim_fc_tx_take(fabric, port, pkt, now);
		/* it leaves the node that held it: room for its sender */
		ibtsim_fc_release(fabric, pkt);
		ibtsim_pkt_onward(fabric, port, pkt);
		cond_resched();
		if (fabric->time_scale)
			now = ktime_get();
	}
	now = ktime_get();
	/* a transmitter busy with packets is sending, not waiting */
	if (!list_empty(&port->fc.pace))
		sent = true;
	if (sent && port->fc.wait_since) {
		atomic64_add(ktime_us_delta(now, port->fc.wait_since),
			     &port->xmit_wait_us);
		WRITE_ONCE(port->fc.wait_since, 0);
	}
	if (!ibtsim_fc_waiting(port)) {
		list_del_init(&port->fc.busy);
		WRITE_ONCE(port->fc.wait_since, 0);
	} else if (!port->fc.wait_since && list_empty(&port->fc.pace)) {
		WRITE_ONCE(port->fc.wait_since, now);
	}
}

/**
 * ibtsim_fc_pace_run() - paced ports whose transmitter is free send
 * @fabric: the fabric
 *
 * The fabric's pace work: the ports of the pace list whose transmitter is
 * free now are kicked and send; the work is armed again for the first
 * of the others.
 */
void ibtsim_fc_pace_run(struct ibtsim_fabric *fabric)
{
	struct ibtsim_port *port, *tmp;
	ktime_t now = ktime_get(), next = 0;

	fabric->pace_next = 0;
	list_for_each_entry_safe(port, tmp, &fabric->fc_pace, fc.pace) {
		if (ktime_after(port->fc.tx_free, now)) {
			if (!next || ktime_before(port->fc.tx_free, next))
				next = port->fc.tx_free;
			continue;
		}
		list_del_init(&port->fc.pace);
		ibtsim_fc_kick(fabric, port);
	}
	if (next)
		ibtsim_fabric_pace_arm(fabric, next);
	ibtsim_fc_run(fabric);
}

/**
 * ibtsim_fc_waiting() - packets wait at a port
 * @port: the port
 *
 * Return: how many.
 */
unsigned int ibtsim_fc_waiting(const struct ibtsim_port *port)
{
	unsigned int n = 0;
	u8 v;

	for (v = 0; v < IBTSIM_DATA_VLS; v++)
		n += READ_ONCE(port->fc.vl[v].queued);
	return n;
}

/**
 * ibtsim_fc_run() - send what the ports that got credits may send
 * @fabric: the fabric
 *
 * The fabric's worker, after each packet it carried. A packet sent
 * travels on until it waits again, arrives or is dropped; the room it
 * gives back may let other ports send: they are sent from here too.
 * Ends, since each turn sends a packet or takes a port off the list, and
 * the packets are finite.
 */
void ibtsim_fc_run(struct ibtsim_fabric *fabric)
{
	struct ibtsim_port *port;

	while ((port = list_first_entry_or_null(&fabric->fc_kick,
						struct ibtsim_port, fc.kick))) {
		list_del_init(&port->fc.kick);
		port->fc.kicked = false;
		ibtsim_fc_send(fabric, port);
	}
}

/**
 * ibtsim_fc_resync() - credits after a link trained or a buffer changed
 * @fabric: the fabric
 * @port: the port (either end of the link), or NULL for every link
 *
 * The fabric's worker (ibtsim_fabric_fc_resync()): the link starts again
 * if its training count moved, and every port with packets waiting tries
 * again. NULL: every link, once, for the first grants when delivery
 * starts; after that only the links that trained are visited (an SM
 * bringing up a fabric retrains every HCA's link: visiting every port each
 * time made it quadratic).
 */
void ibtsim_fc_resync(struct ibtsim_fabric *fabric, struct ibtsim_port *port)
{
	u32 i, n;

	if (port) {
		if (port->peer)
			ibtsim_fc_sync(port);
	} else {
		for (i = 0; i < fabric->num_nodes; i++) {
			for (n = 1; n <= fabric->nodes[i]->num_ports; n++) {
				if (fabric->nodes[i]->ports[n].peer)
					ibtsim_fc_sync(&fabric->nodes[i]->ports[n]);
			}
			cond_resched();
		}
	}
	list_for_each_entry(port, &fabric->fc_busy, fc.busy)
		ibtsim_fc_kick(fabric, port);
}

/* Is the queue of @port for VL @v waiting for credits? */
static bool ibtsim_fc_blocked(struct ibtsim_port *port, u8 v)
{
	struct ibtsim_fc_vl *vl = &port->fc.vl[v];
	struct ibtsim_pkt *head;

	head = list_first_entry_or_null(&vl->txq, struct ibtsim_pkt, list);
	return head && !ibtsim_fc_may_send(vl, head->blocks);
}

/* Blocks of @rx's buffer for VL @v that packets in the queue of @e for VL @ev hold. */
static u32 ibtsim_fc_held_by(struct ibtsim_port *e, u8 ev,
			     const struct ibtsim_port *rx, u8 v)
{
	struct ibtsim_pkt *pkt;
	u32 blocks = 0;

	list_for_each_entry(pkt, &e->fc.vl[ev].txq, list)
		if (pkt->held == rx && pkt->held_vl == v)
			blocks += pkt->held_blocks;
	return blocks;
}

/*
 * Will the blocked queue of @port for VL @v move? It waits for room in
 * its peer's buffer: yes if some of that room is held by a packet that
 * will leave, one not waiting in a queue (a data sink holds it, it is
 * about to be delivered) or in a queue that moves (&ibtsim_fc.moves).
 */
static bool ibtsim_fc_will_move(struct ibtsim_port *port, u8 v)
{
	struct ibtsim_port *rx = port->peer;
	struct ibtsim_node *node = rx->node;
	u32 queued = 0, held;
	unsigned int n;
	u8 ev;

	/* packets of its own still on the link: not decided yet */
	if (port->fc.vl[v].flying)
		return true;
	for (n = 0; n <= node->num_ports; n++) {
		struct ibtsim_port *e = &node->ports[n];

		for (ev = 0; ev < IBTSIM_DATA_VLS; ev++) {
			held = ibtsim_fc_held_by(e, ev, rx, v);
			if (held && (e->fc.moves & BIT(ev)))
				return true;
			queued += held;
		}
	}
	return rx->fc.vl[v].used > queued;
}

/*
 * The queues that cannot move, ever: a blocked queue moves if it will get
 * room (ibtsim_fc_will_move()), which depends on the queues holding that
 * room; from those that may send now, grow the set of queues that move
 * until it stops growing. Returns true when some queue is left out: a
 * deadlock.
 */
static bool ibtsim_fc_stuck(struct ibtsim_fabric *fabric)
{
	struct ibtsim_port *port;
	bool grew, stuck;
	u8 v;

	list_for_each_entry(port, &fabric->fc_busy, fc.busy) {
		port->fc.moves = 0;
		for (v = 0; v < IBTSIM_DATA_VLS; v++)
			if (!port->peer || !ibtsim_fc_blocked(port, v))
				port->fc.moves |= BIT(v);
	}
	do {
		grew = false;
		stuck = false;
		list_for_each_entry(port, &fabric->fc_busy, fc.busy) {
			for (v = 0; v < IBTSIM_DATA_VLS; v++) {
				if (port->fc.moves & BIT(v))
					continue;
				if (ibtsim_fc_will_move(port, v)) {
					port->fc.moves |= BIT(v);
					grew = true;
				} else {
					stuck = true;
				}
			}
		}
		cond_resched();
	} while (grew);
	return stuck;
}

/*
 * A queue that cannot move waits on another that cannot move: one that
 * holds room of its peer's buffer (every holder is stuck, or it would
 * move). Returns it, and its VL in *@ev.
 */
static struct ibtsim_port *ibtsim_fc_waits_on(struct ibtsim_port *port, u8 v,
					      u8 *ev)
{
	struct ibtsim_port *rx = port->peer;
	struct ibtsim_node *node = rx->node;
	unsigned int n;

	for (n = 0; n <= node->num_ports; n++) {
		struct ibtsim_port *e = &node->ports[n];

		for (*ev = 0; *ev < IBTSIM_DATA_VLS; (*ev)++)
			if (ibtsim_fc_held_by(e, *ev, rx, v))
				return e;
	}
	return NULL;
}

/*
 * Follow the waits from a stuck queue: among finitely many stuck queues,
 * each waiting on another, the walk comes back to one it passed. Writes
 * that loop into @buf as "NODE/PORT vl V -> ... -> NODE/PORT vl V".
 */
static void ibtsim_fc_loop_text(struct ibtsim_fabric *fabric, char *buf,
				size_t len)
{
	struct ibtsim_port *port = NULL, *p, *start;
	unsigned int steps = 0, limit = 0;
	u8 v = 0, pv, sv;
	size_t off = 0;

	list_for_each_entry(p, &fabric->fc_busy, fc.busy) {
		limit += IBTSIM_DATA_VLS;
		p->fc.seen = 0;
		if (!port && p->fc.moves != 0xff) {
			port = p;
			v = ffz(p->fc.moves);
		}
	}
	if (!port)
		return;
	/* walk until a queue comes back: it is on the loop */
	while (!(port->fc.seen & BIT(v)) && steps++ < limit) {
		port->fc.seen |= BIT(v);
		p = ibtsim_fc_waits_on(port, v, &pv);
		if (!p) {
			/* nothing holds the room it waits for: a lost grant */
			scnprintf(buf, len,
				  "%s/%u vl %u waits for room its peer has (credits lost)",
				  port->node->desc, port->num, v);
			return;
		}
		port = p;
		v = pv;
	}
	/* write the loop from there */
	start = port;
	sv = v;
	do {
		off += scnprintf(buf + off, len - off, "%s/%u vl %u -> ",
				 port->node->desc, port->num, v);
		p = ibtsim_fc_waits_on(port, v, &pv);
		if (!p)
			return;
		port = p;
		v = pv;
	} while ((port != start || v != sv) && off < len);
	scnprintf(buf + off, len - off, "%s/%u vl %u", start->node->desc,
		  start->num, sv);
}

/*
 * The periodic flow control packets of the links where packets wait:
 * each way, ABR set from FCTBS and the credits granted again. Then what
 * may leave now leaves.
 */
static void ibtsim_fc_periodic(struct ibtsim_fabric *fabric)
{
	struct ibtsim_port *port;
	u8 v;

	list_for_each_entry(port, &fabric->fc_busy, fc.busy) {
		if (!port->peer)
			continue;
		for (v = 0; v < IBTSIM_DATA_VLS; v++) {
			ibtsim_fc_exchange(port, v);
			ibtsim_fc_exchange(port->peer, v);
		}
		ibtsim_fc_kick(fabric, port);
		ibtsim_fc_kick(fabric, port->peer);
	}
	ibtsim_fc_run(fabric);
}

/**
 * ibtsim_fc_watch() - look into a stall of the fabric's flow control
 * @fabric: the fabric
 *
 * The fabric's worker, every %IBTSIM_FC_WATCH_MS while packets wait:
 * sends the links' periodic flow control packets, finds the queues that
 * can never move (ibtsim_fc_stuck()) and reports the credit loop they
 * wait in (ibtsim_fc_report()); the report goes once no queue is stuck.
 *
 * Return: true to look again later (packets still wait).
 */
bool ibtsim_fc_watch(struct ibtsim_fabric *fabric)
{
	char buf[IBTSIM_FC_REPORT_LEN] = "";
	unsigned long flags;

	ibtsim_fc_periodic(fabric);
	if (list_empty(&fabric->fc_busy))
		fabric->fc_watching = false;
	else if (ibtsim_fc_stuck(fabric))
		ibtsim_fc_loop_text(fabric, buf, sizeof(buf));
	if (buf[0])
		ibtsim_node_dbg(fabric->nodes[0], "deadlock: credit loop %s\n",
				buf);
	spin_lock_irqsave(&fabric->fc_report_lock, flags);
	strscpy(fabric->fc_report, buf, sizeof(fabric->fc_report));
	spin_unlock_irqrestore(&fabric->fc_report_lock, flags);
	return fabric->fc_watching;
}

/**
 * ibtsim_fc_report() - the credit loop of the fabric's deadlock, if any
 * @fabric: the fabric
 * @buf: where to write it
 * @len: its size
 *
 * Any context. "" when no loop was found at the last look.
 */
void ibtsim_fc_report(struct ibtsim_fabric *fabric, char *buf, size_t len)
{
	unsigned long flags;

	spin_lock_irqsave(&fabric->fc_report_lock, flags);
	strscpy(buf, fabric->fc_report, len);
	spin_unlock_irqrestore(&fabric->fc_report_lock, flags);
}

/**
 * ibtsim_fc_flush() - drop every packet waiting in the fabric
 * @fabric: the fabric, stopped: its worker is gone
 * @why: the reason, counted as a drop of each packet's port
 */
void ibtsim_fc_flush(struct ibtsim_fabric *fabric, enum ibtsim_drop_reason why)
{
	struct ibtsim_port *port, *tmp;
	struct ibtsim_pkt *pkt;
	u8 v;

	list_for_each_entry_safe(port, tmp, &fabric->fc_busy, fc.busy) {
		for (v = 0; v < IBTSIM_DATA_VLS; v++) {
			while ((pkt = list_first_entry_or_null(&port->fc.vl[v].txq,
							       struct ibtsim_pkt,
							       list))) {
				list_del(&pkt->list);
				port->fc.vl[v].queued--;
				ibtsim_drop(port, why);
				ibtsim_fc_release(fabric, pkt);
				ibtsim_pkt_free(fabric, pkt);
			}
		}
		list_del_init(&port->fc.busy);
	}
	while ((port = list_first_entry_or_null(&fabric->fc_pace,
						struct ibtsim_port, fc.pace)))
		list_del_init(&port->fc.pace);
	/* the room given back kicked ports that have nothing to send now */
	while ((port = list_first_entry_or_null(&fabric->fc_kick,
						struct ibtsim_port, fc.kick))) {
		list_del_init(&port->fc.kick);
		port->fc.kicked = false;
	}
}
