/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace_sim - the verbs objects of a simulated HCA.
 *
 * The ib_device of an HCA node and the PDs, MRs, AHs, CQs and QPs it owns
 * through ib_core, each embedding its ib_core object (dev.c). Outside
 * dev.c only the fabric delivers to QPs (fabric.c), the SMA raises the
 * device's events (sma.c), netlink names the device (nl.c) and the budget
 * counts a receive entry (budget.c).
 */
#ifndef _IBTSIM_VERBS_H
#define _IBTSIM_VERBS_H

#include <linux/types.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "sim.h"

#define IBTSIM_MAX_QP		4096
#define IBTSIM_MAX_QPN		0xffffff
#define IBTSIM_MAX_WR		4096
#define IBTSIM_MAX_SGE		4
#define IBTSIM_MAX_CQE		65535
#define IBTSIM_CQ_FIRST		16	/* CQ ring entries at creation */
#define IBTSIM_CQ_MODERATION_MAX_US	1000000	/* cq_moderation_us's bound */
#define IBTSIM_MAX_CQ		4096
#define IBTSIM_MAX_PD		4096
#define IBTSIM_MAX_AH		65536
#define IBTSIM_MTU		4096
#define IBTSIM_GRH_LEN		40	/* sizeof(struct ib_grh) */

/**
 * struct ibtsim_dev - the RDMA device of a simulated HCA
 * @ibdev: the ib_core device
 * @node: the HCA node
 * @qps: UD QPs by QP number (QP0/QP1 live in the ports); its xa_lock
 *	protects it
 * @registered: ib_register_device() succeeded
 */
struct ibtsim_dev {
	struct ib_device ibdev;
	struct ibtsim_node *node;
	struct xarray qps;
	bool registered;
};

struct ibtsim_pd {
	struct ib_pd ibpd;
};

struct ibtsim_mr {
	struct ib_mr ibmr;
};

struct ibtsim_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

/**
 * struct ibtsim_cq - completion queue
 * @ibcq: the ib_core CQ
 * @lock: protects @ring, @cap, @head, @count, @notify, @overflow
 * @ring: completions, @cap entries
 * @size: entries the consumer asked for: the most @ring may grow to
 * @cap: entries in @ring (%IBTSIM_CQ_FIRST at creation, doubled as needed)
 * @head: oldest completion
 * @count: completions in the ring
 * @notify: armed: 0, IB_CQ_SOLICITED or IB_CQ_NEXT_COMP
 * @overflow: a completion was lost because the ring was full
 * @notify_work: calls the completion handler for completions the
 *	consumer's own verbs caused (flushes) and, under event moderation
 *	(cq_moderation_us), for the fabric's; otherwise the fabric's worker
 *	calls it directly
 * @grow_work: doubles @ring, where allocating may sleep, once it is more
 *	than half full
 */
struct ibtsim_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* protects the ring, its indexes, notify */
	struct ibtsim_cqe *ring;
	u32 size;
	u32 cap;
	u32 head;
	u32 count;
	u8 notify;
	bool overflow;
	struct delayed_work notify_work;
	struct work_struct grow_work;
};

/**
 * struct ibtsim_cqe - a completion as the CQ ring keeps it
 * @wr_id: &ib_wc.wr_id (or wr_cqe)
 * @qp: &ib_wc.qp
 * @byte_len: &ib_wc.byte_len
 * @src_qp: &ib_wc.src_qp
 * @imm_data: &ib_wc.ex.imm_data
 * @slid: &ib_wc.slid
 * @pkey_index: &ib_wc.pkey_index
 * @status: &ib_wc.status
 * @opcode: &ib_wc.opcode
 * @wc_flags: &ib_wc.wc_flags (the sim sets IB_WC_GRH and IB_WC_WITH_IMM)
 * @sl: &ib_wc.sl
 * @dlid_path_bits: &ib_wc.dlid_path_bits
 * @port_num: &ib_wc.port_num
 *
 * The fields a UD, SMI or GSI completion of the sim can carry: 40 bytes
 * where &struct ib_wc takes 72; ib_mad's CQ of every HCA asks for 384.
 */
struct ibtsim_cqe {
	u64 wr_id;
	struct ib_qp *qp;
	u32 byte_len;
	u32 src_qp;
	__be32 imm_data;
	u16 slid;
	u16 pkey_index;
	u8 status;
	u8 opcode;
	u8 wc_flags;
	u8 sl;
	u8 dlid_path_bits;
	u8 port_num;
};

/**
 * struct ibtsim_rwqe - a posted receive work request
 * @wr_id: its wr_id (or wr_cqe)
 * @num_sge: entries in @sge
 * @sge: scatter list (kernel virtual addresses: virtual DMA), room for the
 *	QP's max_recv_sge entries (ib_mad's QPs: one)
 */
struct ibtsim_rwqe {
	u64 wr_id;
	u32 num_sge;
	struct ib_sge sge[];
};

/**
 * struct ibtsim_qp - UD, SMI (QP0) or GSI (QP1) queue pair
 * @ibqp: the ib_core QP
 * @ref: references: one from creation, one per packet in flight sent by or
 *	being delivered to the QP
 * @released: completed when @ref drops to zero
 * @port: port the QP is bound to (QP0/QP1 from creation, UD from INIT)
 * @lock: protects @state, @qkey, @pkey_index, @sq_psn and the receive ring
 * @state: QP state
 * @qkey: Q_Key
 * @pkey_index: P_Key index
 * @sq_psn: send PSN (kept for query)
 * @rq: receive ring, @rq_size entries of @rq_stride bytes
 * @rq_size: entries in @rq
 * @rq_stride: bytes per entry of @rq (a &struct ibtsim_rwqe with @max_rsge
 *	scatter entries)
 * @rq_head: oldest posted receive
 * @rq_count: posted receives
 * @max_rsge: scatter entries per receive
 * @max_ssge: gather entries per send
 * @sq_max: sends that may be in flight
 * @sq_inflight: sends posted and not completed
 * @sig_all: every send is signaled (IB_SIGNAL_ALL_WR)
 */
struct ibtsim_qp {
	struct ib_qp ibqp;
	refcount_t ref;
	struct completion released;
	struct ibtsim_port *port;
	spinlock_t lock;	/* protects state, keys, psn, rq ring */
	enum ib_qp_state state;
	u32 qkey;
	u16 pkey_index;
	u32 sq_psn;
	void *rq;
	u32 rq_size;
	u32 rq_stride;
	u32 rq_head;
	u32 rq_count;
	u32 max_rsge;
	u32 max_ssge;
	u32 sq_max;
	atomic_t sq_inflight;
	bool sig_all;
};

/* Entry @i of @qp's receive ring. */
static inline struct ibtsim_rwqe *ibtsim_rq_wqe(const struct ibtsim_qp *qp, u32 i)
{
	return qp->rq + (size_t)i * qp->rq_stride;
}

static inline struct ibtsim_dev *to_ibtsim_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct ibtsim_dev, ibdev);
}

static inline struct ibtsim_cq *to_ibtsim_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct ibtsim_cq, ibcq);
}

static inline struct ibtsim_qp *to_ibtsim_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct ibtsim_qp, ibqp);
}

static inline struct ibtsim_ah *to_ibtsim_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct ibtsim_ah, ibah);
}

static inline struct ibtsim_port *ibtsim_dev_port(struct ibtsim_dev *dev,
						  u32 port_num)
{
	return &dev->node->ports[port_num];
}

#endif /* _IBTSIM_VERBS_H */
