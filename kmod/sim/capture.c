// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - packet capture: every packet crossing the links of a
 * node's port, both ways, handed to a netlink socket as it crosses.
 *
 * A capture is started by a CAPTURE_START request (capture_nl.c) and
 * belongs to the requesting socket: the packets go to it, unicast and
 * without blocking, so that its receive buffer is the capture's bounded
 * buffer, and a packet that does not fit is lost and counted. The fabric's
 * worker taps each packet where it leaves a port onto a link
 * (ibtsim_capture_link(), from fabric.c), and the capture writes it as on
 * the wire: LRH, GRH, BTH, DETH, payload, ICRC and VCRC, the form the
 * InfiniBand records of capture files hold. A capture ends after its count,
 * on CAPTURE_STOP or when its fabric is deleted (each with a CAPTURE_END
 * message), or when its socket is closed.
 *
 * An injected MAD's wait for its answer (IBTRACE_SIM_CMD_INJECT,
 * inject_nl.c) is a capture too, of one packet: not of a port, but of the
 * first packet of the fabric that answers the MAD (a response method, or
 * TrapRepress to a Trap, of its class and TID). The fabric offers each
 * packet to it where the packet is sent (__ibtsim_capture_claim()), and the
 * answer is taken off the fabric there: it reaches the injector wherever
 * its DLID leads, to a node that does not exist too. The wait ends with
 * the answer, or unanswered at its deadline, found past when a packet is
 * next offered or a wait next starts.
 *
 * Captures are few (IBTRACE_SIM_CAPTURE_MAX, waits included); one list
 * and one mutex hold them all. The taps take the mutex only while their
 * fabric has a capture of their kind.
 */
#include <linux/kernel.h>
#include <linux/crc32.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <rdma/ib_mad.h>
#include <asm/unaligned.h>

#include "sim.h"
#include "loc.h"

/* Header bytes on the wire (IBA 7.7, 9.2, 9.3.3). */
#define IBTSIM_LRH_LEN		8
#define IBTSIM_GRH_LEN		40
#define IBTSIM_BTH_LEN		12
#define IBTSIM_DETH_LEN		8
#define IBTSIM_IMM_LEN		4
#define IBTSIM_ICRC_LEN		4
#define IBTSIM_VCRC_LEN		2
/* LRH Link Next Header: BTH follows (IBA local), or a GRH (IBA global). */
#define IBTSIM_LNH_LOCAL	0x2
#define IBTSIM_LNH_GLOBAL	0x3
/* BTH OpCode: UD SEND only, and with immediate (IBA 9.2.1). */
#define IBTSIM_OP_UD_SEND	0x64
#define IBTSIM_OP_UD_SEND_IMM	0x65

/**
 * struct ibtsim_capture - one running capture
 * @list: entry in ibtsim_captures
 * @id: its ID, from 1
 * @fabric: the fabric its node belongs to
 * @node: the node captured
 * @port: its port captured, or -1 for every port
 * @count: packets to capture, 0 for no bound
 * @seen: packets seen so far, the lost ones included
 * @lost: packets the socket had no room for
 * @net: network namespace of the socket, referenced
 * @portid: netlink port of the socket
 * @claim: the wait of an injected MAD for its answer (@node NULL, @port
 *	-1, @count 1), described by the fields below
 * @tid: the MAD's TransactionID, as on the wire
 * @mgmt_class: its MgmtClass
 * @method: its Method
 * @sent: when it was injected
 * @deadline: when the wait ends unanswered
 */
struct ibtsim_capture {
	struct list_head list;
	u32 id;
	struct ibtsim_fabric *fabric;
	struct ibtsim_node *node;
	int port;
	u32 count;
	u64 seen;
	u64 lost;
	struct net *net;
	u32 portid;
	bool claim;
	__be64 tid;
	u8 mgmt_class;
	u8 method;
	ktime_t sent;
	ktime_t deadline;
};

static DEFINE_MUTEX(ibtsim_capture_lock);	/* protects the list, IDs */
static LIST_HEAD(ibtsim_captures);
static unsigned int ibtsim_ncaptures;
static u32 ibtsim_capture_next_id = 1;
static bool ibtsim_capture_closed;	/* the module is unloading */

/* Bytes @pkt takes on the wire, and its payload's pad to 4 bytes. */
static u32 ibtsim_capture_wire_len(const struct ibtsim_pkt *pkt, u8 *pad)
{
	*pad = -pkt->len & 3;
	return IBTSIM_LRH_LEN + (pkt->has_grh ? IBTSIM_GRH_LEN : 0) +
	       IBTSIM_BTH_LEN + IBTSIM_DETH_LEN +
	       (pkt->has_imm ? IBTSIM_IMM_LEN : 0) + pkt->len + *pad +
	       IBTSIM_ICRC_LEN + IBTSIM_VCRC_LEN;
}

/* VCRC: CRC-16 of polynomial 0x100B, bit-reflected, over the packet. */
static u16 ibtsim_vcrc(const u8 *p, u32 len)
{
	u16 crc = 0xffff;
	int bit;

	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = crc & 1 ? (crc >> 1) ^ 0xd008 : crc >> 1;
	}
	return ~crc;
}

/*
 * ICRC (IBA 7.8.1): the Ethernet CRC-32 over the packet from LRH to the
 * payload's pad, its variant fields (LRH VL, GRH TClass, FlowLabel and
 * HopLmt, BTH's reserved byte) taken as ones.
 */
static u32 ibtsim_icrc(const u8 *p, u32 len, bool grh)
{
	u8 hdr[IBTSIM_LRH_LEN + IBTSIM_GRH_LEN + IBTSIM_BTH_LEN];
	u32 hlen = IBTSIM_LRH_LEN + (grh ? IBTSIM_GRH_LEN : 0) + IBTSIM_BTH_LEN;
	u8 *bth = hdr + hlen - IBTSIM_BTH_LEN;
	u32 crc;

	memcpy(hdr, p, hlen);
	hdr[0] |= 0xf0;				/* VL */
	if (grh) {
		u8 *g = hdr + IBTSIM_LRH_LEN;

		g[0] |= 0x0f;			/* TClass, FlowLabel */
		g[1] = 0xff;
		g[2] = 0xff;
		g[3] = 0xff;
		g[7] = 0xff;			/* HopLmt */
	}
	bth[4] = 0xff;				/* reserved */
	crc = crc32_le(~0U, hdr, hlen);
	crc = crc32_le(crc, p + hlen, len - hlen);
	return ~crc;
}

/* @pkt as on the wire into @buf, of ibtsim_capture_wire_len() bytes. */
static void ibtsim_capture_encode(const struct ibtsim_pkt *pkt, u8 *buf,
				  u32 len, u8 pad)
{
	u8 *p = buf;
	u32 icrc_at;

	/* LRH: VL, LVer 0; SL, LNH; DLID; PktLen (words to ICRC); SLID */
	p[0] = pkt->vl << 4;
	p[1] = pkt->sl << 4 |
	       (pkt->has_grh ? IBTSIM_LNH_GLOBAL : IBTSIM_LNH_LOCAL);
	put_unaligned_be16(pkt->dlid, p + 2);
	put_unaligned_be16(((len - IBTSIM_VCRC_LEN) / 4) & 0x7ff, p + 4);
	put_unaligned_be16(pkt->slid, p + 6);
	p += IBTSIM_LRH_LEN;
	if (pkt->has_grh) {
		memcpy(p, &pkt->grh, IBTSIM_GRH_LEN);
		p += IBTSIM_GRH_LEN;
	}
	/* BTH: OpCode; SE 0, M 0, PadCnt, TVer 0; P_Key; DestQP; PSN 0 */
	memset(p, 0, IBTSIM_BTH_LEN);
	p[0] = pkt->has_imm ? IBTSIM_OP_UD_SEND_IMM : IBTSIM_OP_UD_SEND;
	p[1] = pad << 4;
	put_unaligned_be16(pkt->pkey, p + 2);
	put_unaligned_be32(pkt->dqpn & 0xffffff, p + 4);
	p += IBTSIM_BTH_LEN;
	/* DETH: Q_Key; SrcQP */
	put_unaligned_be32(pkt->qkey, p);
	put_unaligned_be32(pkt->sqpn & 0xffffff, p + 4);
	p += IBTSIM_DETH_LEN;
	if (pkt->has_imm) {
		memcpy(p, &pkt->imm, IBTSIM_IMM_LEN);
		p += IBTSIM_IMM_LEN;
	}
	memcpy(p, pkt->data, pkt->len);
	p += pkt->len;
	memset(p, 0, pad);
	p += pad;
	icrc_at = p - buf;
	put_unaligned_le32(ibtsim_icrc(buf, icrc_at, pkt->has_grh), p);
	p += IBTSIM_ICRC_LEN;
	put_unaligned_le16(ibtsim_vcrc(buf, icrc_at + IBTSIM_ICRC_LEN), p);
}

/* Tell @cap's socket that it ended, and why. Capture lock held. */
static void ibtsim_capture_end_msg(struct ibtsim_capture *cap, u8 why)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &ibtsim_nl_family, 0,
			  IBTRACE_SIM_CMD_CAPTURE_END);
	if (!hdr ||
	    nla_put_u32(skb, IBTRACE_SIM_A_CAPTURE_ID, cap->id) ||
	    nla_put_u8(skb, IBTRACE_SIM_A_CAPTURE_END, why) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_CAPTURE_SEEN, cap->seen,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_CAPTURE_LOST, cap->lost,
			      IBTRACE_SIM_A_PAD)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_unicast(cap->net, skb, cap->portid);
}

/* Unlist and free @cap. Capture lock held. */
static void ibtsim_capture_free(struct ibtsim_capture *cap)
{
	list_del(&cap->list);
	ibtsim_ncaptures--;
	if (cap->claim)
		WRITE_ONCE(cap->fabric->nclaims, cap->fabric->nclaims - 1);
	else
		WRITE_ONCE(cap->fabric->ncaptures, cap->fabric->ncaptures - 1);
	put_net(cap->net);
	kfree(cap);
}

/* One packet for @cap, crossing its @port in direction @dir. */
static void ibtsim_capture_one(struct ibtsim_capture *cap,
			       const struct ibtsim_port *port, u8 dir,
			       const struct ibtsim_pkt *pkt)
{
	struct sk_buff *skb;
	struct nlattr *data;
	u32 len;
	void *hdr;
	u8 pad;

	cap->seen++;
	len = ibtsim_capture_wire_len(pkt, &pad);
	skb = genlmsg_new(nla_total_size(len) + 128, GFP_KERNEL);
	if (!skb)
		goto lost;
	hdr = genlmsg_put(skb, 0, 0, &ibtsim_nl_family, 0,
			  IBTRACE_SIM_CMD_CAPTURE_PKT);
	if (!hdr ||
	    nla_put_u32(skb, IBTRACE_SIM_A_CAPTURE_ID, cap->id) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_NODE_INDEX, port->node->index) ||
	    nla_put_u32(skb, IBTRACE_SIM_A_CAPTURE_PORT, port->num) ||
	    nla_put_u8(skb, IBTRACE_SIM_A_CAPTURE_DIR, dir) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_CAPTURE_TIME_NS,
			      ktime_get_real_ns(), IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_CAPTURE_SEEN, cap->seen,
			      IBTRACE_SIM_A_PAD) ||
	    nla_put_u64_64bit(skb, IBTRACE_SIM_A_CAPTURE_LOST, cap->lost,
			      IBTRACE_SIM_A_PAD) ||
	    (cap->claim &&
	     nla_put_u64_64bit(skb, IBTRACE_SIM_A_INJECT_RTT_NS,
			       ktime_to_ns(ktime_sub(ktime_get(), cap->sent)),
			       IBTRACE_SIM_A_PAD)))
		goto free;
	data = nla_reserve(skb, IBTRACE_SIM_A_CAPTURE_DATA, len);
	if (!data)
		goto free;
	ibtsim_capture_encode(pkt, nla_data(data), len, pad);
	genlmsg_end(skb, hdr);
	if (genlmsg_unicast(cap->net, skb, cap->portid))
		cap->lost++;
	goto counted;
free:
	nlmsg_free(skb);
lost:
	cap->lost++;
counted:
	if (cap->count && cap->seen == cap->count) {
		ibtsim_capture_end_msg(cap, IBTRACE_SIM_CAPTURE_END_COUNT);
		ibtsim_capture_free(cap);
	}
}

static bool ibtsim_capture_wants(const struct ibtsim_capture *cap,
				 const struct ibtsim_port *port)
{
	return !cap->claim && cap->node == port->node &&
	       (cap->port < 0 || cap->port == port->num);
}

/**
 * __ibtsim_capture_link - a packet crosses the link from @from to @to
 * @from: the port it leaves by
 * @to: the port at the other end, which it arrives at
 * @pkt: the packet
 *
 * Called by the fabric's worker (process context) when the fabric has a
 * capture (ibtsim_capture_link()). Sleeps.
 */
void __ibtsim_capture_link(const struct ibtsim_port *from,
			   const struct ibtsim_port *to,
			   const struct ibtsim_pkt *pkt)
{
	struct ibtsim_fabric *fabric = from->node->fabric;
	struct ibtsim_capture *cap, *tmp;

	mutex_lock(&ibtsim_capture_lock);
	list_for_each_entry_safe(cap, tmp, &ibtsim_captures, list) {
		if (cap->fabric != fabric)
			continue;
		if (ibtsim_capture_wants(cap, from)) {
			ibtsim_capture_one(cap, from, IBTRACE_SIM_CAPTURE_OUT,
					   pkt);
			/* the count may have ended it */
			continue;
		}
		if (ibtsim_capture_wants(cap, to))
			ibtsim_capture_one(cap, to, IBTRACE_SIM_CAPTURE_IN, pkt);
	}
	mutex_unlock(&ibtsim_capture_lock);
}

/* Does @pkt answer the MAD of wait @cap? */
static bool ibtsim_claim_wants(const struct ibtsim_capture *cap,
			       const struct ibtsim_pkt *pkt)
{
	const struct ib_mad_hdr *hdr = (const struct ib_mad_hdr *)pkt->data;

	if (pkt->len < sizeof(*hdr) || hdr->tid != cap->tid ||
	    hdr->mgmt_class != cap->mgmt_class)
		return false;
	return (hdr->method & IB_MGMT_METHOD_RESP) ||
	       (cap->method == IB_MGMT_METHOD_TRAP &&
		hdr->method == IB_MGMT_METHOD_TRAP_REPRESS);
}

/**
 * __ibtsim_capture_claim - offer a packet to the waits of injected MADs
 * @port: the port the packet is sent from
 * @pkt: the packet, not an injected one
 *
 * Called by the fabric's worker (process context) when the fabric has a
 * wait (ibtsim_pkt_claimed(), fabric.c). Waits past their deadline end
 * here. Sleeps.
 *
 * Return: true when @pkt answers a wait: it went to the injector and is
 * done with (counted delivered), false when it travels on.
 */
bool __ibtsim_capture_claim(const struct ibtsim_port *port,
			    const struct ibtsim_pkt *pkt)
{
	struct ibtsim_fabric *fabric = port->node->fabric;
	struct ibtsim_capture *cap, *tmp;
	ktime_t now = ktime_get();
	bool claimed = false;

	mutex_lock(&ibtsim_capture_lock);
	list_for_each_entry_safe(cap, tmp, &ibtsim_captures, list) {
		if (!cap->claim || cap->fabric != fabric)
			continue;
		if (ktime_after(now, cap->deadline)) {
			ibtsim_capture_end_msg(cap, IBTRACE_SIM_CAPTURE_END_TIMEOUT);
			ibtsim_capture_free(cap);
			continue;
		}
		if (claimed || !ibtsim_claim_wants(cap, pkt))
			continue;
		/* its count of 1 ends it */
		ibtsim_capture_one(cap, port, IBTRACE_SIM_CAPTURE_OUT, pkt);
		claimed = true;
	}
	mutex_unlock(&ibtsim_capture_lock);
	if (claimed) {
		atomic64_inc(&fabric->stats.claimed);
		atomic64_inc(&fabric->stats.delivered);
	}
	return claimed;
}

/*
 * List @cap, made for the request @info (its socket gets the packets),
 * and give it an ID. Capture lock held. Returns 0, -ESHUTDOWN (unload)
 * or -EBUSY; frees @cap if not 0.
 */
static int __ibtsim_capture_add(struct ibtsim_capture *cap,
				struct genl_info *info, u32 *id)
{
	if (ibtsim_capture_closed) {
		kfree(cap);
		NL_SET_ERR_MSG(info->extack, "ibtrace_sim is being unloaded");
		return -ESHUTDOWN;
	}
	if (ibtsim_ncaptures >= IBTRACE_SIM_CAPTURE_MAX) {
		kfree(cap);
		NL_SET_ERR_MSG(info->extack,
			       "busy: IBTRACE_SIM_CAPTURE_MAX captures and waits run already");
		return -EBUSY;
	}
	cap->portid = info->snd_portid;
	cap->net = get_net(genl_info_net(info));
	cap->id = ibtsim_capture_next_id++;
	if (!ibtsim_capture_next_id)
		ibtsim_capture_next_id = 1;
	list_add_tail(&cap->list, &ibtsim_captures);
	ibtsim_ncaptures++;
	if (cap->claim)
		WRITE_ONCE(cap->fabric->nclaims, cap->fabric->nclaims + 1);
	else
		WRITE_ONCE(cap->fabric->ncaptures, cap->fabric->ncaptures + 1);
	*id = cap->id;
	return 0;
}

/**
 * ibtsim_capture_claim_start - wait for the answer to a MAD to be injected
 * @fabric: the fabric (built), ibtsim_fabrics_lock held
 * @hdr: the MAD's header
 * @wait_ms: how long to wait, ms
 * @info: the request: the answer goes to its socket
 * @id: the wait's ID
 *
 * Call before the MAD is injected. Ends the waits past their deadline
 * (of every fabric) first.
 *
 * Return: 0, -EEXIST (a wait for the same class and TID runs on the
 * fabric), -ESHUTDOWN, -EBUSY or -ENOMEM.
 */
int ibtsim_capture_claim_start(struct ibtsim_fabric *fabric,
			       const struct ib_mad_hdr *hdr, u32 wait_ms,
			       struct genl_info *info, u32 *id)
{
	struct ibtsim_capture *cap, *pos, *tmp;
	ktime_t now = ktime_get();
	int err;

	cap = kzalloc(sizeof(*cap), GFP_KERNEL);
	if (!cap)
		return -ENOMEM;
	cap->claim = true;
	cap->fabric = fabric;
	cap->port = -1;
	cap->count = 1;
	cap->tid = hdr->tid;
	cap->mgmt_class = hdr->mgmt_class;
	cap->method = hdr->method;
	cap->sent = now;
	cap->deadline = ktime_add_ms(now, wait_ms);

	mutex_lock(&ibtsim_capture_lock);
	list_for_each_entry_safe(pos, tmp, &ibtsim_captures, list) {
		if (!pos->claim)
			continue;
		if (ktime_after(now, pos->deadline)) {
			ibtsim_capture_end_msg(pos, IBTRACE_SIM_CAPTURE_END_TIMEOUT);
			ibtsim_capture_free(pos);
		} else if (pos->fabric == fabric && pos->tid == cap->tid &&
			   pos->mgmt_class == cap->mgmt_class) {
			mutex_unlock(&ibtsim_capture_lock);
			kfree(cap);
			NL_SET_ERR_MSG(info->extack,
				       "a MAD of that class and TID already waits for its answer on the fabric");
			return -EEXIST;
		}
	}
	err = __ibtsim_capture_add(cap, info, id);
	mutex_unlock(&ibtsim_capture_lock);
	return err;
}

/**
 * ibtsim_capture_start - start capturing at a node's port
 * @fabric: the fabric (built), ibtsim_fabrics_lock held
 * @node: the node
 * @port: its port, or -1 for every port
 * @count: packets to capture, 0 for no bound
 * @info: the request: the packets go to its socket
 * @id: the capture's ID
 *
 * Return: 0, -EBUSY (IBTRACE_SIM_CAPTURE_MAX captures run) or -ENOMEM.
 */
int ibtsim_capture_start(struct ibtsim_fabric *fabric,
			 struct ibtsim_node *node, int port, u32 count,
			 struct genl_info *info, u32 *id)
{
	struct ibtsim_capture *cap;
	int err;

	cap = kzalloc(sizeof(*cap), GFP_KERNEL);
	if (!cap)
		return -ENOMEM;
	cap->fabric = fabric;
	cap->node = node;
	cap->port = port;
	cap->count = count;

	mutex_lock(&ibtsim_capture_lock);
	err = __ibtsim_capture_add(cap, info, id);
	mutex_unlock(&ibtsim_capture_lock);
	return err;
}

/**
 * ibtsim_capture_stop - end a capture, telling its socket
 * @id: the capture's ID
 * @why: &enum ibtrace_sim_capture_end, for its socket
 *
 * Return: 0, or -ENOENT when no capture has that ID.
 */
int ibtsim_capture_stop(u32 id, u8 why)
{
	struct ibtsim_capture *cap;
	int err = -ENOENT;

	mutex_lock(&ibtsim_capture_lock);
	list_for_each_entry(cap, &ibtsim_captures, list) {
		if (cap->id != id)
			continue;
		ibtsim_capture_end_msg(cap, why);
		ibtsim_capture_free(cap);
		err = 0;
		break;
	}
	mutex_unlock(&ibtsim_capture_lock);
	return err;
}

/**
 * ibtsim_capture_fabric_gone - end the captures of a fabric being deleted
 * @fabric: the fabric; its worker has stopped
 */
void ibtsim_capture_fabric_gone(struct ibtsim_fabric *fabric)
{
	struct ibtsim_capture *cap, *tmp;

	mutex_lock(&ibtsim_capture_lock);
	list_for_each_entry_safe(cap, tmp, &ibtsim_captures, list) {
		if (cap->fabric != fabric)
			continue;
		ibtsim_capture_end_msg(cap, IBTRACE_SIM_CAPTURE_END_FABRIC_GONE);
		ibtsim_capture_free(cap);
	}
	mutex_unlock(&ibtsim_capture_lock);
}

/**
 * ibtsim_capture_sock_closed() - a netlink socket was closed
 * @net: its namespace
 * @portid: its port ID
 *
 * Its captures end, silently (nl.c's release notifier).
 */
void ibtsim_capture_sock_closed(struct net *net, u32 portid)
{
	struct ibtsim_capture *cap, *tmp;

	mutex_lock(&ibtsim_capture_lock);
	list_for_each_entry_safe(cap, tmp, &ibtsim_captures, list)
		if (cap->portid == portid && net_eq(cap->net, net))
			ibtsim_capture_free(cap);
	mutex_unlock(&ibtsim_capture_lock);
}

/* Unload: every capture ends, silently; none may start any more. */
void ibtsim_capture_exit(void)
{
	struct ibtsim_capture *cap, *tmp;

	mutex_lock(&ibtsim_capture_lock);
	ibtsim_capture_closed = true;
	list_for_each_entry_safe(cap, tmp, &ibtsim_captures, list)
		ibtsim_capture_free(cap);
	mutex_unlock(&ibtsim_capture_lock);
}
