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
 * Captures are few (IBTRACE_SIM_CAPTURE_MAX); one list and one mutex hold
 * them all. The tap takes the mutex only while its fabric has a capture.
 */
#include <linux/kernel.h>
#include <linux/crc32.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
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
#define IBTSIM_VL15		15

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

/*
 * @pkt as on the wire into @buf, of ibtsim_capture_wire_len() bytes: VL 15
 * for SMPs, else VL 0 (the sim has one data VL).
 */
static void ibtsim_capture_encode(const struct ibtsim_pkt *pkt, u8 *buf,
				  u32 len, u8 pad)
{
	u8 vl = pkt->dqpn ? 0 : IBTSIM_VL15;
	u8 *p = buf;
	u32 icrc_at;

	/* LRH: VL, LVer 0; SL, LNH; DLID; PktLen (words to ICRC); SLID */
	p[0] = vl << 4;
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

/* Send @skb, built for @cap, to its socket. */
static int ibtsim_capture_unicast(struct ibtsim_capture *cap,
				  struct sk_buff *skb)
{
	return genlmsg_unicast(cap->net, skb, cap->portid);
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
	ibtsim_capture_unicast(cap, skb);
}

/* Unlist and free @cap. Capture lock held. */
static void ibtsim_capture_free(struct ibtsim_capture *cap)
{
	list_del(&cap->list);
	ibtsim_ncaptures--;
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
			      IBTRACE_SIM_A_PAD))
		goto free;
	data = nla_reserve(skb, IBTRACE_SIM_A_CAPTURE_DATA, len);
	if (!data)
		goto free;
	ibtsim_capture_encode(pkt, nla_data(data), len, pad);
	genlmsg_end(skb, hdr);
	if (ibtsim_capture_unicast(cap, skb))
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
	return cap->node == port->node &&
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

	cap = kzalloc(sizeof(*cap), GFP_KERNEL);
	if (!cap)
		return -ENOMEM;
	cap->fabric = fabric;
	cap->node = node;
	cap->port = port;
	cap->count = count;
	cap->portid = info->snd_portid;

	mutex_lock(&ibtsim_capture_lock);
	if (ibtsim_capture_closed) {
		mutex_unlock(&ibtsim_capture_lock);
		kfree(cap);
		NL_SET_ERR_MSG(info->extack, "ibtrace_sim is being unloaded");
		return -ESHUTDOWN;
	}
	if (ibtsim_ncaptures >= IBTRACE_SIM_CAPTURE_MAX) {
		mutex_unlock(&ibtsim_capture_lock);
		kfree(cap);
		NL_SET_ERR_MSG(info->extack,
			       "busy: IBTRACE_SIM_CAPTURE_MAX captures run already");
		return -EBUSY;
	}
	cap->net = get_net(genl_info_net(info));
	cap->id = ibtsim_capture_next_id++;
	if (!ibtsim_capture_next_id)
		ibtsim_capture_next_id = 1;
	list_add_tail(&cap->list, &ibtsim_captures);
	ibtsim_ncaptures++;
	WRITE_ONCE(fabric->ncaptures, fabric->ncaptures + 1);
	*id = cap->id;
	mutex_unlock(&ibtsim_capture_lock);
	return 0;
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

/* A netlink socket was closed: its captures end, silently. */
static int ibtsim_capture_release(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct netlink_notify *n = ptr;
	struct ibtsim_capture *cap, *tmp;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid)
		return NOTIFY_DONE;
	mutex_lock(&ibtsim_capture_lock);
	list_for_each_entry_safe(cap, tmp, &ibtsim_captures, list)
		if (cap->portid == n->portid && net_eq(cap->net, n->net))
			ibtsim_capture_free(cap);
	mutex_unlock(&ibtsim_capture_lock);
	return NOTIFY_DONE;
}

static struct notifier_block ibtsim_capture_nb = {
	.notifier_call = ibtsim_capture_release,
};

int ibtsim_capture_init(void)
{
	return netlink_register_notifier(&ibtsim_capture_nb);
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
	netlink_unregister_notifier(&ibtsim_capture_nb);
}
