// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - traffic flows: an HCA port sends UD-shaped data packets
 * to a LID, paced or as fast as they leave, and their fate is counted.
 *
 * A flow is started by a TRAFFIC_START request (traffic_nl.c) and belongs
 * to the requesting socket. Its generator (a work item of the system
 * workqueue) makes packets and hands them to the fabric as a QP's post
 * does (ibtsim_fabric_xmit()), so that they take the fabric's real path:
 * the source port's SLtoVL table, the switches' forwarding, each link's
 * VLs, flow control, fault knobs and captures. The HCA port whose LIDs
 * hold the DLID takes a flow's packet after its link layer's checks
 * (fabric.c: ibtsim_traffic_deliver()), as a receive queue would, and
 * notes its latency; wherever a packet ends, delivered or dropped, its
 * end comes back to the flow (ibtsim_pkt_free(): ibtsim_traffic_done()).
 *
 * A flow keeps at most IBTRACE_SIM_TRAFFIC_WINDOW packets in the fabric
 * (its send queue), so that a paced flow falls behind its rate when the
 * fabric cannot carry it, and a flow "as fast as it can" sends as fast as
 * its packets leave; both hold bounded memory. A paced flow sends the
 * packets due by now each time its generator runs (at most once a
 * jiffy): the rate holds over time, not packet by packet.
 *
 * A flow ends once all its packets are done with (DONE), on TRAFFIC_STOP,
 * when its fabric is deleted, or when its socket is closed (silently);
 * each but the last sends a TRAFFIC_END message with its counts and the
 * latency percentiles of a log-linear histogram. Its memory lives on
 * while packets of it are in the fabric (a reference each).
 *
 * Flows are few (IBTRACE_SIM_TRAFFIC_MAX); one list and one mutex hold
 * them all. Whoever takes a flow off the list ends it.
 */
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/math64.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "sim.h"
#include "loc.h"

/* Latency histogram: 16 linear buckets per power of two (within 1/16). */
#define IBTSIM_LAT_SUB_BITS	4
#define IBTSIM_LAT_SUB		BIT(IBTSIM_LAT_SUB_BITS)
#define IBTSIM_LAT_BUCKETS	((64 - IBTSIM_LAT_SUB_BITS + 1) * IBTSIM_LAT_SUB)
/* Default payload and count of a flow. */
#define IBTSIM_TRAFFIC_SIZE_DEFAULT	256
#define IBTSIM_TRAFFIC_COUNT_DEFAULT	1000

/**
 * struct ibtsim_flow - one traffic flow
 * @list: entry in ibtsim_flows while it runs
 * @ref: the list's reference, and one per packet in the fabric
 * @id: its ID, from 1
 * @fabric: the fabric of its port
 * @port: the HCA port it sends by
 * @node_index: that port's node's index, for the END message (as
 *	@port_num and @vl: the END message reads nothing of the fabric,
 *	which may be going)
 * @port_num: the port's number
 * @vl: the VL the port's SLtoVL table mapped @sl to at the start
 * @dlid: LRH DLID of its packets
 * @sl: their SL
 * @size: their payload, bytes
 * @pps: packets per second, 0: as fast as they leave
 * @count: packets to send
 * @net: network namespace of the socket, referenced
 * @portid: netlink port of the socket
 * @gen: the generator
 * @done_work: ends the flow when its last packet is done with
 * @lock: protects the fields below
 * @ended: taken off the list: sends no more, ends no more
 * @waiting: the generator waits for its send queue to half empty
 * @sent: packets handed to the fabric
 * @delivered: packets the destination port took
 * @dropped: packets that ended otherwise
 * @start: when the first packet was sent
 * @last: when the last one was done with
 * @lat_n: latencies noted (packets delivered, but maybe not yet counted)
 * @lat_min: shortest latency of a delivered packet, ns
 * @lat_max: longest, ns
 * @hist: latencies of delivered packets, log-linear buckets
 */
struct ibtsim_flow {
	struct list_head list;
	struct kref ref;
	u32 id;
	struct ibtsim_fabric *fabric;
	struct ibtsim_port *port;
	u32 node_index;
	u32 port_num;
	u8 vl;
	u16 dlid;
	u8 sl;
	u32 size;
	u32 pps;
	u32 count;
	struct net *net;
	u32 portid;
	struct delayed_work gen;
	struct work_struct done_work;
	spinlock_t lock;	/* protects what follows */
	bool ended;
	bool waiting;
	u32 sent;
	u32 delivered;
	u32 dropped;
	ktime_t start;
	ktime_t last;
	u32 lat_n;
	u64 lat_min;
	u64 lat_max;
	u32 hist[IBTSIM_LAT_BUCKETS];
};

static LIST_HEAD(ibtsim_flows);
static DEFINE_MUTEX(ibtsim_traffic_lock);	/* protects the list, the IDs */
static unsigned int ibtsim_nflows;
static u32 ibtsim_flow_next_id = 1;
static bool ibtsim_traffic_closed;

static void ibtsim_flow_release(struct kref *ref)
{
	struct ibtsim_flow *flow = container_of(ref, struct ibtsim_flow, ref);

	put_net(flow->net);
	kfree(flow);
}

static void ibtsim_flow_put(struct ibtsim_flow *flow)
{
	kref_put(&flow->ref, ibtsim_flow_release);
}

/* The bucket of a latency of @ns: exact below 16, then 1/16 wide. */
static unsigned int ibtsim_lat_bucket(u64 ns)
{
	unsigned int shift;

	if (ns < IBTSIM_LAT_SUB)
		return ns;
	shift = fls64(ns) - 1 - IBTSIM_LAT_SUB_BITS;
	return (shift + 1) * IBTSIM_LAT_SUB +
	       (unsigned int)(ns >> shift) - IBTSIM_LAT_SUB;
}

/* The largest latency bucket @b holds, ns. */
static u64 ibtsim_lat_top(unsigned int b)
{
	unsigned int shift;

	if (b < IBTSIM_LAT_SUB)
		return b;
	shift = b / IBTSIM_LAT_SUB - 1;
	return ((u64)(b % IBTSIM_LAT_SUB + IBTSIM_LAT_SUB + 1) << shift) - 1;
}

/*
 * The @pct percentile of @flow's latencies: the top of the bucket where
 * the count reaches @pct of those noted, no more than the longest.
 * Caller holds its lock; at least one was noted.
 */
static u64 ibtsim_lat_pct(const struct ibtsim_flow *flow, unsigned int pct)
{
	u64 want = DIV_ROUND_UP((u64)flow->lat_n * pct, 100), seen = 0;
	unsigned int b;

	for (b = 0; b < IBTSIM_LAT_BUCKETS; b++) {
		seen += flow->hist[b];
		if (seen >= want)
			return min(ibtsim_lat_top(b), flow->lat_max);
	}
	return flow->lat_max;
}

/* A new packet of @flow, or NULL. */
static struct ibtsim_pkt *ibtsim_flow_pkt(struct ibtsim_flow *flow)
{
	struct ibtsim_pkt *pkt;

	pkt = kzalloc(struct_size(pkt, data, flow->size), GFP_KERNEL);
	if (!pkt)
		return NULL;
	pkt->src_port = flow->port;
	pkt->dlid = flow->dlid;
	pkt->sl = flow->sl;
	pkt->dqpn = IBTRACE_SIM_TRAFFIC_QPN;
	pkt->sqpn = IBTRACE_SIM_TRAFFIC_QPN;
	pkt->len = flow->size;
	pkt->flow = flow;
	pkt->born = ktime_get();
	return pkt;
}

/* @flow's packets in the fabric. Caller holds its lock. */
static u32 ibtsim_flow_inflight(const struct ibtsim_flow *flow)
{
	return flow->sent - flow->delivered - flow->dropped;
}

/*
 * How many packets @flow may send now: those its rate made due by @now
 * (the first at once), its count and its send queue allow. Caller holds
 * its lock.
 */
static u32 ibtsim_flow_due(const struct ibtsim_flow *flow, ktime_t now)
{
	u32 inflight = ibtsim_flow_inflight(flow);
	u32 n = flow->count - flow->sent;
	u64 due;

	if (inflight >= IBTRACE_SIM_TRAFFIC_WINDOW)
		return 0;
	n = min(n, IBTRACE_SIM_TRAFFIC_WINDOW - inflight);
	if (flow->pps) {
		/* no overflow, however long the flow waited */
		due = mul_u64_u64_div_u64(ktime_to_ns(ktime_sub(now, flow->start)),
					  flow->pps, NSEC_PER_SEC) + 1;
		n = min_t(u64, n, due > flow->sent ? due - flow->sent : 0);
	}
	return n;
}

/* When @flow's next packet is due (a paced flow's), in jiffies from now. */
static unsigned long ibtsim_flow_next(const struct ibtsim_flow *flow,
				      ktime_t now)
{
	ktime_t next = ktime_add_ns(flow->start,
				    div_u64((u64)flow->sent * NSEC_PER_SEC,
					    flow->pps));
	s64 ns = ktime_to_ns(ktime_sub(next, now));

	return ns > 0 ? nsecs_to_jiffies(ns) + 1 : 0;
}

/*
 * When @flow's generator runs again (caller holds its lock): after its
 * next packet's time; at once while it may send; when its send queue has
 * half emptied (ibtsim_traffic_done() kicks it); soon when memory or the
 * fabric failed it.
 */
static void ibtsim_flow_rearm(struct ibtsim_flow *flow, bool failed)
{
	if (flow->ended || flow->sent == flow->count)
		return;
	if (failed)
		queue_delayed_work(system_wq, &flow->gen, 1);
	else if (ibtsim_flow_inflight(flow) >= IBTRACE_SIM_TRAFFIC_WINDOW)
		flow->waiting = true;
	else
		queue_delayed_work(system_wq, &flow->gen,
				   flow->pps ? ibtsim_flow_next(flow, ktime_get()) : 0);
}

/*
 * @flow's generator: makes the packets due, then hands them to the fabric
 * under the flow's lock, so that none goes once the flow has ended (the
 * fabric may be going then).
 */
static void ibtsim_flow_gen(struct work_struct *work)
{
	struct ibtsim_flow *flow = container_of(to_delayed_work(work),
						struct ibtsim_flow, gen);
	struct ibtsim_pkt *pkt, *tmp;
	ktime_t now = ktime_get();
	bool failed = false;
	unsigned long flags;
	LIST_HEAD(batch);
	u32 n, i;

	spin_lock_irqsave(&flow->lock, flags);
	if (!flow->sent)
		flow->start = now;
	n = flow->ended ? 0 : ibtsim_flow_due(flow, now);
	spin_unlock_irqrestore(&flow->lock, flags);

	for (i = 0; i < n; i++) {
		pkt = ibtsim_flow_pkt(flow);
		if (!pkt) {
			failed = true;
			break;
		}
		list_add_tail(&pkt->list, &batch);
	}

	spin_lock_irqsave(&flow->lock, flags);
	list_for_each_entry_safe(pkt, tmp, &batch, list) {
		list_del(&pkt->list);
		if (flow->ended || failed) {
			kfree(pkt);
			continue;
		}
		kref_get(&flow->ref);
		flow->sent++;
		if (ibtsim_fabric_xmit(flow->fabric, pkt)) {
			/* the fabric stops: the packet never was */
			flow->sent--;
			kref_put(&flow->ref, ibtsim_flow_release);
			kfree(pkt);
			failed = true;
		}
	}
	ibtsim_flow_rearm(flow, failed);
	spin_unlock_irqrestore(&flow->lock, flags);
}

/**
 * ibtsim_traffic_deliver() - the destination port takes a flow's packet
 * @port: the HCA port, whose link layer accepted it
 * @pkt: the packet (its flow set)
 *
 * Counts it in the port's packets received and the fabric's delivered,
 * and its latency in the flow; the packet is freed by the caller.
 */
void ibtsim_traffic_deliver(struct ibtsim_port *port, struct ibtsim_pkt *pkt)
{
	struct ibtsim_flow *flow = pkt->flow;
	u64 ns = ktime_to_ns(ktime_sub(ktime_get(), pkt->born));
	unsigned long flags;

	atomic64_inc(&port->rx_pkts);
	atomic64_inc(&port->node->fabric->stats.delivered);
	pkt->delivered = true;
	spin_lock_irqsave(&flow->lock, flags);
	if (!flow->lat_n++ || ns < flow->lat_min)
		flow->lat_min = ns;
	flow->lat_max = max(flow->lat_max, ns);
	flow->hist[ibtsim_lat_bucket(ns)]++;
	spin_unlock_irqrestore(&flow->lock, flags);
}

/**
 * ibtsim_traffic_done() - a flow's packet is done with
 * @pkt: the packet, delivered or not, about to be freed
 *
 * Any context but under the fabric's tx_lock (the generator hands packets
 * to the fabric under the flow's lock). The flow may send again when its
 * send queue has half emptied; it ends when its last packet is done with.
 */
void ibtsim_traffic_done(struct ibtsim_pkt *pkt)
{
	struct ibtsim_flow *flow = pkt->flow;
	unsigned long flags;
	u32 inflight;

	spin_lock_irqsave(&flow->lock, flags);
	if (pkt->delivered)
		flow->delivered++;
	else
		flow->dropped++;
	flow->last = ktime_get();
	inflight = ibtsim_flow_inflight(flow);
	if (!flow->ended && flow->waiting &&
	    inflight <= IBTRACE_SIM_TRAFFIC_WINDOW / 2) {
		flow->waiting = false;
		queue_delayed_work(system_wq, &flow->gen, 0);
	}
	if (!flow->ended && !inflight && flow->sent == flow->count) {
		kref_get(&flow->ref);	/* the work's */
		if (!queue_work(system_wq, &flow->done_work))
			kref_put(&flow->ref, ibtsim_flow_release);
	}
	spin_unlock_irqrestore(&flow->lock, flags);
	pkt->flow = NULL;
	ibtsim_flow_put(flow);
}

/*
 * Take @flow off the list (caller holds the traffic lock): from now on it
 * sends nothing and nothing else ends it. Returns false if someone did.
 */
static bool __ibtsim_flow_unlink(struct ibtsim_flow *flow)
{
	unsigned long flags;

	lockdep_assert_held(&ibtsim_traffic_lock);
	if (list_empty(&flow->list))
		return false;
	list_del_init(&flow->list);
	ibtsim_nflows--;
	spin_lock_irqsave(&flow->lock, flags);
	flow->ended = true;
	spin_unlock_irqrestore(&flow->lock, flags);
	return true;
}

/* Fill the TRAFFIC_END message of @flow. */
static int ibtsim_flow_fill_end(struct sk_buff *skb, struct ibtsim_flow *flow,
				u8 why)
{
	u64 sent, delivered, dropped, time_ns, min = 0, p50 = 0, p90 = 0;
	u64 p99 = 0, max = 0;
	unsigned long flags;
	ktime_t end;
	bool lat;

	spin_lock_irqsave(&flow->lock, flags);
	sent = flow->sent;
	delivered = flow->delivered;
	dropped = flow->dropped;
	end = why == IBTRACE_SIM_TRAFFIC_END_DONE ? flow->last : ktime_get();
	time_ns = sent ? ktime_to_ns(ktime_sub(end, flow->start)) : 0;
	lat = flow->lat_n;
	if (lat) {
		min = flow->lat_min;
		p50 = ibtsim_lat_pct(flow, 50);
		p90 = ibtsim_lat_pct(flow, 90);
		p99 = ibtsim_lat_pct(flow, 99);
		max = flow->lat_max;
	}
	spin_unlock_irqrestore(&flow->lock, flags);

	if (nla_put_u32(skb, IBTRACE_SIM_A_TRAFFIC_ID, flow->id) ||
	    nla_put_u8(skb, IBTRACE_SIM_A_TRAFFIC_END, why) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_NODE_INDEX, flow->node_index) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_TRAFFIC_PORT, flow->port_num) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_TRAFFIC_DLID, flow->dlid) ||
	    nla_put_u8(skb, IBTRACE_SIM_A_TRAFFIC_SL, flow->sl) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_TRAFFIC_SIZE, flow->size) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_TRAFFIC_RATE, flow->pps) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_TRAFFIC_COUNT, flow->count) ||
	    (flow->vl != IBTSIM_VL15 &&
	     nla_put_u8(skb, IBTRACE_SIM_A_TRAFFIC_VL, flow->vl)) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_SENT, sent,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_DELIVERED, delivered,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_DROPPED, dropped,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_TIME_NS, time_ns,
			      IBTRACE_SIM_A_PAD))
		return -EMSGSIZE;
	if (!lat)
		return 0;
	if (nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_LAT_MIN_NS, min,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_LAT_P50_NS, p50,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_LAT_P90_NS, p90,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_LAT_P99_NS, p99,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_TRAFFIC_LAT_MAX_NS, max,
			      IBTRACE_SIM_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/*
 * End @flow, taken off the list: its generator stops, its END message
 * goes to its socket (unless @why is negative: the socket is gone), and
 * the list's reference goes. Not under the traffic lock (@done_work takes
 * it), and not from @done_work unless @in_done.
 */
static void ibtsim_flow_end(struct ibtsim_flow *flow, int why, bool in_done)
{
	struct sk_buff *skb;
	void *hdr;

	cancel_delayed_work_sync(&flow->gen);
	if (!in_done && cancel_work_sync(&flow->done_work))
		ibtsim_flow_put(flow);
	if (why >= 0) {
		skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
		if (!skb)
			goto out;
		hdr = genlmsg_put(skb, 0, 0, &ibtsim_nl_family, 0,
				  IBTRACE_SIM_CMD_TRAFFIC_END);
		if (!hdr || ibtsim_flow_fill_end(skb, flow, why)) {
			nlmsg_free(skb);
			goto out;
		}
		genlmsg_end(skb, hdr);
		genlmsg_unicast(flow->net, skb, flow->portid);
	}
out:
	ibtsim_flow_put(flow);
}

/* The last packet of a flow was done with: it ends, DONE. */
static void ibtsim_flow_done_work(struct work_struct *work)
{
	struct ibtsim_flow *flow = container_of(work, struct ibtsim_flow,
						done_work);
	bool mine;

	mutex_lock(&ibtsim_traffic_lock);
	mine = __ibtsim_flow_unlink(flow);
	mutex_unlock(&ibtsim_traffic_lock);
	if (mine)
		ibtsim_flow_end(flow, IBTRACE_SIM_TRAFFIC_END_DONE, true);
	ibtsim_flow_put(flow);	/* the work's */
}

/**
 * ibtsim_traffic_start() - start a traffic flow
 * @port: the HCA port it sends by, of a built fabric
 * @dlid: LRH DLID of its packets
 * @sl: their SL
 * @size: their payload, bytes (1..%IBTRACE_SIM_TRAFFIC_SIZE_MAX; 0:
 *	the default)
 * @pps: packets per second, 0: as fast as they leave
 * @count: packets to send (0: the default)
 * @info: the request: the flow belongs to its socket
 * @id: set to the flow's ID
 *
 * Caller holds ibtsim_fabrics_lock (the fabric cannot go meanwhile). The
 * flow starts sending at once.
 *
 * Return: 0, -EBUSY (%IBTRACE_SIM_TRAFFIC_MAX flows run), -ENOMEM or
 * -ENODEV (unloading).
 */
int ibtsim_traffic_start(struct ibtsim_port *port, u16 dlid, u8 sl, u32 size,
			 u32 pps, u32 count, struct genl_info *info, u32 *id)
{
	struct ibtsim_flow *flow;
	unsigned long flags;
	int err = 0;

	flow = kzalloc(sizeof(*flow), GFP_KERNEL);
	if (!flow)
		return -ENOMEM;
	INIT_LIST_HEAD(&flow->list);
	kref_init(&flow->ref);
	flow->fabric = port->node->fabric;
	flow->port = port;
	flow->node_index = port->node->index;
	flow->port_num = port->num;
	spin_lock_irqsave(&port->node->lock, flags);
	flow->vl = ibtsim_sl2vl_get(port->sl2vl, sl);
	spin_unlock_irqrestore(&port->node->lock, flags);
	flow->dlid = dlid;
	flow->sl = sl;
	flow->size = size ?: IBTSIM_TRAFFIC_SIZE_DEFAULT;
	flow->pps = pps;
	flow->count = count ?: IBTSIM_TRAFFIC_COUNT_DEFAULT;
	flow->net = get_net(genl_info_net(info));
	flow->portid = info->snd_portid;
	INIT_DELAYED_WORK(&flow->gen, ibtsim_flow_gen);
	INIT_WORK(&flow->done_work, ibtsim_flow_done_work);
	spin_lock_init(&flow->lock);

	mutex_lock(&ibtsim_traffic_lock);
	if (ibtsim_traffic_closed) {
		err = -ENODEV;
	} else if (ibtsim_nflows >= IBTRACE_SIM_TRAFFIC_MAX) {
		NL_SET_ERR_MSG(info->extack,
			       "busy: IBTRACE_SIM_TRAFFIC_MAX traffic flows run already");
		err = -EBUSY;
	} else {
		flow->id = ibtsim_flow_next_id++;
		if (!ibtsim_flow_next_id)
			ibtsim_flow_next_id = 1;
		list_add_tail(&flow->list, &ibtsim_flows);
		ibtsim_nflows++;
		*id = flow->id;
		queue_delayed_work(system_wq, &flow->gen, 0);
	}
	mutex_unlock(&ibtsim_traffic_lock);
	if (err)
		ibtsim_flow_put(flow);
	return err;
}

/**
 * ibtsim_traffic_stop() - end a flow by its ID
 * @id: the ID
 * @why: &enum ibtrace_sim_traffic_end, for its END message
 *
 * Return: 0, or -ENOENT if no flow has that ID.
 */
int ibtsim_traffic_stop(u32 id, u8 why)
{
	struct ibtsim_flow *flow, *found = NULL;

	mutex_lock(&ibtsim_traffic_lock);
	list_for_each_entry(flow, &ibtsim_flows, list) {
		if (flow->id == id) {
			found = flow;
			__ibtsim_flow_unlink(flow);
			break;
		}
	}
	mutex_unlock(&ibtsim_traffic_lock);
	if (!found)
		return -ENOENT;
	ibtsim_flow_end(found, why, false);
	return 0;
}

/*
 * End every flow that @match picks (all if NULL), with an END message
 * @why (none if negative).
 */
static void ibtsim_traffic_end_some(bool (*match)(struct ibtsim_flow *,
						  const void *),
				    const void *arg, int why)
{
	struct ibtsim_flow *flow, *tmp;
	LIST_HEAD(ending);

	mutex_lock(&ibtsim_traffic_lock);
	list_for_each_entry_safe(flow, tmp, &ibtsim_flows, list) {
		if (match && !match(flow, arg))
			continue;
		__ibtsim_flow_unlink(flow);
		list_add_tail(&flow->list, &ending);
	}
	mutex_unlock(&ibtsim_traffic_lock);
	list_for_each_entry_safe(flow, tmp, &ending, list) {
		list_del_init(&flow->list);
		ibtsim_flow_end(flow, why, false);
	}
}

static bool ibtsim_flow_of_fabric(struct ibtsim_flow *flow, const void *arg)
{
	return flow->fabric == arg;
}

/**
 * ibtsim_traffic_fabric_gone() - end the flows of a fabric being deleted
 * @fabric: the fabric, stopped: its packets are freed
 */
void ibtsim_traffic_fabric_gone(struct ibtsim_fabric *fabric)
{
	ibtsim_traffic_end_some(ibtsim_flow_of_fabric, fabric,
				IBTRACE_SIM_TRAFFIC_END_FABRIC_GONE);
}

struct ibtsim_flow_sock {
	struct net *net;
	u32 portid;
};

static bool ibtsim_flow_of_sock(struct ibtsim_flow *flow, const void *arg)
{
	const struct ibtsim_flow_sock *sock = arg;

	return flow->portid == sock->portid && net_eq(flow->net, sock->net);
}

/**
 * ibtsim_traffic_sock_closed() - a netlink socket was closed
 * @net: its namespace
 * @portid: its port ID
 *
 * Its flows end, silently (nl.c's release notifier).
 */
void ibtsim_traffic_sock_closed(struct net *net, u32 portid)
{
	struct ibtsim_flow_sock sock = { .net = net, .portid = portid };

	ibtsim_traffic_end_some(ibtsim_flow_of_sock, &sock, -1);
}

/*
 * Unload: every flow ends, silently; none may start any more. Their
 * packets still in fabrics free them when the fabrics go.
 */
void ibtsim_traffic_exit(void)
{
	mutex_lock(&ibtsim_traffic_lock);
	ibtsim_traffic_closed = true;
	mutex_unlock(&ibtsim_traffic_lock);
	ibtsim_traffic_end_some(NULL, NULL, -1);
}
