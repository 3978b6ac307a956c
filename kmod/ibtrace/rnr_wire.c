// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the RNR test's wire timing in peer mode on RoCE: a packet tap
 * on the port's netdev (every protocol, both directions) for the job's
 * life. It matches RoCE v2 (UDP port 4791, IPv4 or IPv6) of the QP pair
 * under test: an RNR NAK (ACKNOWLEDGE whose AETH syndrome is 001xxxxx)
 * arriving for the requester QP starts a sample, the next SEND leaving
 * for the responder QP ends it. The sample is the requester's wait on the
 * wire, without the completion path and the calibration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/ktime.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <asm/unaligned.h>
#include <net/ipv6.h>

#include "rnr.h"

#define RNR_ROCEV2_PORT		4791
#define RNR_BTH_LEN		12
#define RNR_OP_RC_SEND_FIRST	0x00
#define RNR_OP_RC_SEND_ONLY	0x04
#define RNR_OP_RC_ACK		0x11
/* AETH syndrome bits 7:5 of an RNR NAK. */
#define RNR_AETH_RNR_NAK	0x1

/* Offset of the UDP header of a RoCE v2 packet in @skb, or -1. */
static int rnr_wire_udp(const struct sk_buff *skb, int off)
{
	if (skb->protocol == htons(ETH_P_IP)) {
		struct iphdr _ip;
		const struct iphdr *ip;

		ip = skb_header_pointer(skb, off, sizeof(_ip), &_ip);
		if (!ip || ip->version != 4 || ip->protocol != IPPROTO_UDP ||
		    ip->ihl < 5)
			return -1;
		return off + ip->ihl * 4;
	}
	if (skb->protocol == htons(ETH_P_IPV6)) {
		struct ipv6hdr _ip6;
		const struct ipv6hdr *ip6;

		ip6 = skb_header_pointer(skb, off, sizeof(_ip6), &_ip6);
		if (!ip6 || ip6->version != 6 || ip6->nexthdr != IPPROTO_UDP)
			return -1;
		return off + sizeof(*ip6);
	}
	return -1;
}

/* Softirq (receive) or the transmit path: no sleeping, bounded work. */
static int rnr_wire_rcv(struct sk_buff *skb, struct net_device *dev,
			struct packet_type *pt, struct net_device *orig_dev)
{
	struct rnr_wire *w = container_of(pt, struct rnr_wire, pt);
	u64 now = ktime_get_ns();
	u8 _h[RNR_BTH_LEN + 4];
	struct udphdr _uh;
	const struct udphdr *uh;
	const u8 *h;
	unsigned long flags;
	bool out;
	u32 qpn;
	int off;

	off = rnr_wire_udp(skb, skb_network_offset(skb));
	if (off < 0)
		goto out;
	uh = skb_header_pointer(skb, off, sizeof(_uh), &_uh);
	if (!uh || uh->dest != htons(RNR_ROCEV2_PORT))
		goto out;
	h = skb_header_pointer(skb, off + sizeof(*uh), sizeof(_h), _h);
	if (!h)
		goto out;
	qpn = get_unaligned_be32(h + 4) & 0xffffff;
	out = skb->pkt_type == PACKET_OUTGOING;

	spin_lock_irqsave(&w->lock, flags);
	if (!w->req_qpn) {
		/* Not armed. */
	} else if (!out && qpn == w->req_qpn && h[0] == RNR_OP_RC_ACK &&
		   h[RNR_BTH_LEN] >> 5 == RNR_AETH_RNR_NAK) {
		w->naks++;
		w->t_nak = now;
		w->nak_pending = true;
	} else if (out && qpn == w->rsp_qpn && w->nak_pending &&
		   (h[0] == RNR_OP_RC_SEND_ONLY ||
		    h[0] == RNR_OP_RC_SEND_FIRST)) {
		w->nak_pending = false;
		if (w->n < RNR_WIRE_MAX_SAMPLES)
			w->samples[w->n++] = now - w->t_nak;
	}
	spin_unlock_irqrestore(&w->lock, flags);
out:
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

/**
 * rnr_wire_init - an idle tap
 * @w: the tap
 */
void rnr_wire_init(struct rnr_wire *w)
{
	spin_lock_init(&w->lock);
	w->ndev = NULL;
}

/**
 * rnr_wire_start - start tapping @ndev
 * @w: the tap, idle
 * @ndev: the RoCE netdev; the tap takes over the caller's reference
 *
 * Return: 0.
 */
int rnr_wire_start(struct rnr_wire *w, struct net_device *ndev)
{
	w->ndev = ndev;
	w->pt.type = htons(ETH_P_ALL);
	w->pt.dev = ndev;
	w->pt.func = rnr_wire_rcv;
	dev_add_pack(&w->pt);
	return 0;
}

/**
 * rnr_wire_stop - stop tapping; no tap handler runs after this
 * @w: the tap
 */
void rnr_wire_stop(struct rnr_wire *w)
{
	if (!w->ndev)
		return;
	dev_remove_pack(&w->pt);
	dev_put(w->ndev);
	w->ndev = NULL;
}

/**
 * rnr_wire_arm - the QP pair of the next iteration
 * @w: the tap
 * @req_qpn: requester QPN (local)
 * @rsp_qpn: responder QPN (the peer's); 0, 0 disarms
 */
void rnr_wire_arm(struct rnr_wire *w, u32 req_qpn, u32 rsp_qpn)
{
	spin_lock_bh(&w->lock);
	w->req_qpn = req_qpn;
	w->rsp_qpn = rsp_qpn;
	w->nak_pending = false;
	spin_unlock_bh(&w->lock);
}

/**
 * rnr_wire_take - the samples and NAK count since the last take
 * @w: the tap
 * @samples: where the samples go
 * @max: room in @samples
 * @naks: the RNR NAKs seen
 *
 * Return: the number of samples copied.
 */
u32 rnr_wire_take(struct rnr_wire *w, u64 *samples, u32 max, u32 *naks)
{
	u32 n;

	spin_lock_bh(&w->lock);
	n = min(w->n, max);
	memcpy(samples, w->samples, n * sizeof(*samples));
	*naks = w->naks;
	w->n = 0;
	w->naks = 0;
	w->nak_pending = false;
	spin_unlock_bh(&w->lock);
	return n;
}
