/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the RNR NAK timer test's peer mode: the private data of the
 * connection request (rnr.c sends it through peer.c, rnr_responder.c
 * reads it), the responder's hooks and the wire tap (rnr_wire.c).
 */
#ifndef _IBTRACE_RNR_H
#define _IBTRACE_RNR_H

#include <linux/completion.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <rdma/rdma_cm.h>

#include "peer.h"
#include "test.h"

/* "IBTR" */
#define RNR_PRIV_MAGIC		0x49425452
#define RNR_PRIV_VERSION	1
/* rnr_priv.flags: the responder posts one receive (negative control). */
#define RNR_PRIV_RECV_POSTED	0x01

/**
 * struct rnr_priv - private data of the requester's connection request
 * @magic: %RNR_PRIV_MAGIC
 * @version: %RNR_PRIV_VERSION
 * @code: RNR NAK timer code the responder QP must have (0..31)
 * @flags: %RNR_PRIV_RECV_POSTED
 * @rnr_retry: rnr_retry the responder gives the requester in its reply
 *	(the CM programs the requester's rnr_retry from the REP)
 * @hold_ms: how long the requester may need the connection; the responder
 *	keeps it at most this (capped) plus a slack
 *
 * At most 20 bytes fit a REQ of the TCP port space (56 minus the CMA
 * header).
 */
struct rnr_priv {
	__be32 magic;
	u8 version;
	u8 code;
	u8 flags;
	u8 rnr_retry;
	__be32 hold_ms;
} __packed;

/* Wire samples kept per timer code (iterations x rnr_retry at most 600). */
#define RNR_WIRE_MAX_SAMPLES	1024

/**
 * struct rnr_wire - the packet tap of a peer-mode job (rnr_wire.c)
 * @pt: the tap, on @ndev, every protocol
 * @ndev: the RoCE netdev (a reference is held), NULL when not tapping
 * @lock: protects the fields below; taken in the tap (softirq)
 * @req_qpn: requester QPN under test, 0 = none
 * @rsp_qpn: responder QPN under test
 * @nak_pending: an RNR NAK arrived, the retried request not yet left
 * @t_nak: ktime_get_ns() at that NAK
 * @naks: RNR NAKs seen since rnr_wire_take()
 * @n: samples in @samples
 * @samples: RNR NAK arrival to the next SEND's departure, ns
 */
struct rnr_wire {
	struct packet_type pt;
	struct net_device *ndev;
	spinlock_t lock;	/* protects the fields below */
	u32 req_qpn;
	u32 rsp_qpn;
	bool nak_pending;
	u64 t_nak;
	u32 naks;
	u32 n;
	u64 samples[RNR_WIRE_MAX_SAMPLES];
};

void rnr_wire_init(struct rnr_wire *w);
int rnr_wire_start(struct rnr_wire *w, struct net_device *ndev);
void rnr_wire_stop(struct rnr_wire *w);
void rnr_wire_arm(struct rnr_wire *w, u32 req_qpn, u32 rsp_qpn);
u32 rnr_wire_take(struct rnr_wire *w, u64 *samples, u32 max, u32 *naks);

#endif /* _IBTRACE_RNR_H */
