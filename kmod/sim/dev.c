// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - the ib_device of a simulated HCA: verbs.
 *
 * Why not rdmavt
 * --------------
 * rdmavt (drivers/infiniband/sw/rdmavt, under hfi1 and qib) implements the
 * verbs objects of software-driven IB HCAs. It was evaluated and is not
 * used, for these reasons (Linux 6.1):
 *
 *  - rvt_register_device() refuses to register unless the driver supplies
 *    driver_f.get_pci_dev() and port_groups (check_support(MISC)); its log
 *    macros and NUMA placement (dparms.node) go through that PCI device. A
 *    sim has none; faking one is worse than not needing it.
 *  - Its QP engine is a contract with a packet-building driver: before it
 *    registers, it wants qp_priv_alloc/free, notify_qp_reset,
 *    flush_qp_waiters, stop_send_queue, quiesce_qp, schedule_send, do_send,
 *    get_pmtu_from_attr, mtu_from_qp, mtu_to_path_mtu, notify_error_qp,
 *    check_ah... Implementing them means writing the send engine anyway,
 *    shaped by hfi1/qib's PIO/SDMA model instead of by the fabric.
 *  - Most of what it brings is RC/UC (rc.c, rnr timers, atomics, user
 *    mmap'd queues, SRQ, multicast, MR tables), none of which this slice
 *    needs: the sim serves kernel consumers on UD, QP0 and QP1 only, so the
 *    objects here are small (a PD is empty, an AH a copy of its attributes).
 *  - QP0/QP1 belong to ports of the fabric here, and received packets are
 *    delivered by the fabric's work item with wc fields computed from the
 *    fabric's LRH; rdmavt's qp tables and rvt_get_qp() assume a per-device
 *    QPN space filled by the driver's receive interrupt.
 *  - Another module dependency (rdmavt.ko), another stack of symbols that
 *    changes between kernels, for a build that must track Debian's kernel.
 *
 * Revisit if RC is ever simulated: then rdmavt's RC protocol engine may be
 * worth its callbacks.
 *
 * DMA: no DMA device (ib_uses_virt_dma()); sge.addr is a kernel virtual
 * address, as with rxe. Only kernel consumers: reg_user_mr is refused.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <rdma/ib_mad.h>

#include "sim.h"
#include "verbs.h"
#include "loc.h"

static uint ibtsim_cq_moderation_us;
module_param_named(cq_moderation_us, ibtsim_cq_moderation_us, uint, 0644);
MODULE_PARM_DESC(cq_moderation_us,
		 "Completion event moderation: a CQ's event comes this many microseconds after the completion that owes it and covers the completions in between (default 0: at once; at most 1000000)");

/* device */

static int ibtsim_query_device(struct ib_device *ibdev,
			       struct ib_device_attr *attr,
			       struct ib_udata *udata)
{
	struct ibtsim_dev *dev = to_ibtsim_dev(ibdev);

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 1;
	attr->sys_image_guid = cpu_to_be64(dev->node->sys_guid);
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = IBTSIM_VENDOR_ID;
	attr->vendor_part_id = IBTSIM_DEVICE_ID;
	attr->max_qp = IBTSIM_MAX_QP;
	attr->max_qp_wr = IBTSIM_MAX_WR;
	attr->max_send_sge = IBTSIM_MAX_SGE;
	attr->max_recv_sge = IBTSIM_MAX_SGE;
	attr->max_cq = IBTSIM_MAX_CQ;
	attr->max_cqe = IBTSIM_MAX_CQE;
	attr->max_mr = IBTSIM_MAX_PD;
	attr->max_pd = IBTSIM_MAX_PD;
	attr->max_ah = IBTSIM_MAX_AH;
	attr->max_pkeys = IBTSIM_PKEY_TBL_LEN;
	return 0;
}

static int ibtsim_query_port(struct ib_device *ibdev, u32 port_num,
			     struct ib_port_attr *attr)
{
	struct ibtsim_dev *dev = to_ibtsim_dev(ibdev);
	struct ibtsim_port *port = ibtsim_dev_port(dev, port_num);
	unsigned long flags;

	/* ib_query_port() zeroed @attr */
	spin_lock_irqsave(&dev->node->lock, flags);
	attr->state = port->state;
	attr->phys_state = port->phys_state;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_4096;
	attr->gid_tbl_len = dev->node->fabric->guid_cap;
	attr->subnet_prefix = port->gid_prefix;
	attr->port_cap_flags = port->cap_mask;
	attr->max_msg_sz = IBTSIM_MTU;
	attr->bad_pkey_cntr = port->pkey_viol;
	attr->qkey_viol_cntr = port->qkey_viol;
	attr->pkey_tbl_len = IBTSIM_PKEY_TBL_LEN;
	attr->lid = port->lid;
	attr->sm_lid = port->sm_lid;
	attr->lmc = port->lmc;
	attr->max_vl_num = 4;	/* VL0..VL7 */
	attr->sm_sl = port->sm_sl;
	attr->subnet_timeout = port->subnet_timeout;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_QDR;
	spin_unlock_irqrestore(&dev->node->lock, flags);
	return 0;
}

static int ibtsim_modify_port(struct ib_device *ibdev, u32 port_num, int mask,
			      struct ib_port_modify *props)
{
	struct ibtsim_dev *dev = to_ibtsim_dev(ibdev);
	struct ibtsim_port *port = ibtsim_dev_port(dev, port_num);
	unsigned long flags;

	spin_lock_irqsave(&dev->node->lock, flags);
	port->cap_mask |= props->set_port_cap_mask;
	port->cap_mask &= ~props->clr_port_cap_mask;
	if (mask & IB_PORT_RESET_QKEY_CNTR)
		port->qkey_viol = 0;
	spin_unlock_irqrestore(&dev->node->lock, flags);
	return 0;
}

static int ibtsim_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				     struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = IBTSIM_PKEY_TBL_LEN;
	immutable->gid_tbl_len = to_ibtsim_dev(ibdev)->node->fabric->guid_cap;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

/*
 * GID @index: GidPrefix and GUID entry @index (guid.c), a zero GID for an
 * empty entry or one at or above GUIDCap, so that ib_core's cache leaves
 * it out. The table has the fabric's guid_cap entries.
 */
static int ibtsim_query_gid(struct ib_device *ibdev, u32 port_num, int index,
			    union ib_gid *gid)
{
	struct ibtsim_dev *dev = to_ibtsim_dev(ibdev);
	struct ibtsim_port *port = ibtsim_dev_port(dev, port_num);
	unsigned long flags;
	u64 guid;

	if (index < 0 || index >= dev->node->fabric->guid_cap)
		return -EINVAL;
	spin_lock_irqsave(&dev->node->lock, flags);
	guid = ibtsim_port_guid_entry(port, index);
	gid->global.subnet_prefix = guid ? cpu_to_be64(port->gid_prefix) : 0;
	gid->global.interface_id = cpu_to_be64(guid);
	spin_unlock_irqrestore(&dev->node->lock, flags);
	return 0;
}

static int ibtsim_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
			     u16 *pkey)
{
	struct ibtsim_dev *dev = to_ibtsim_dev(ibdev);
	struct ibtsim_port *port = ibtsim_dev_port(dev, port_num);
	unsigned long flags;

	if (index >= IBTSIM_PKEY_TBL_LEN)
		return -EINVAL;
	spin_lock_irqsave(&dev->node->lock, flags);
	*pkey = port->pkeys[index];
	spin_unlock_irqrestore(&dev->node->lock, flags);
	return 0;
}

/* pd */

static int ibtsim_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return udata ? -EOPNOTSUPP : 0;
}

static int ibtsim_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

/* ah */

static int ibtsim_create_ah(struct ib_ah *ibah,
			    struct rdma_ah_init_attr *init_attr,
			    struct ib_udata *udata)
{
	struct ibtsim_ah *ah = to_ibtsim_ah(ibah);
	const struct rdma_ah_attr *attr = init_attr->ah_attr;

	if (udata)
		return -EOPNOTSUPP;
	if (attr->type != RDMA_AH_ATTR_TYPE_IB ||
	    !rdma_is_port_valid(ibah->device, rdma_ah_get_port_num(attr)))
		return -EINVAL;
	ah->attr = *attr;
	ah->attr.grh.sgid_attr = NULL;	/* not referenced by us */
	return 0;
}

/* ib_mad matches LID-routed responses to requests through the AH. */
static int ibtsim_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_ibtsim_ah(ibah)->attr;
	return 0;
}

static int ibtsim_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

/* mr */

static struct ib_mr *ibtsim_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct ibtsim_mr *mr;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	/* Virtual DMA, kernel consumers: keys are not checked. */
	mr->ibmr.lkey = 0;
	mr->ibmr.rkey = 0;
	return &mr->ibmr;
}

static struct ib_mr *ibtsim_reg_user_mr(struct ib_pd *ibpd, u64 start,
					u64 length, u64 virt, int access,
					struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int ibtsim_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	kfree(container_of(ibmr, struct ibtsim_mr, ibmr));
	return 0;
}

/* cq */

static void ibtsim_wc_to_cqe(const struct ib_wc *wc, struct ibtsim_cqe *e)
{
	*e = (struct ibtsim_cqe) {
		.wr_id = wc->wr_id,
		.qp = wc->qp,
		.byte_len = wc->byte_len,
		.src_qp = wc->src_qp,
		.imm_data = wc->ex.imm_data,
		.slid = wc->slid,
		.pkey_index = wc->pkey_index,
		.status = wc->status,
		.opcode = wc->opcode,
		.wc_flags = wc->wc_flags,
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};
}

static void ibtsim_cqe_to_wc(const struct ibtsim_cqe *e, struct ib_wc *wc)
{
	*wc = (struct ib_wc) {
		.wr_id = e->wr_id,
		.status = e->status,
		.opcode = e->opcode,
		.byte_len = e->byte_len,
		.qp = e->qp,
		.ex.imm_data = e->imm_data,
		.src_qp = e->src_qp,
		.slid = e->slid,
		.wc_flags = e->wc_flags,
		.pkey_index = e->pkey_index,
		.sl = e->sl,
		.dlid_path_bits = e->dlid_path_bits,
		.port_num = e->port_num,
	};
}

static void ibtsim_cq_work(struct work_struct *work);
static void ibtsim_cq_grow_work(struct work_struct *work);

static struct workqueue_struct *ibtsim_cq_wq(struct ibtsim_cq *cq)
{
	return to_ibtsim_dev(cq->ibcq.device)->node->fabric->wq;
}

static int ibtsim_create_cq(struct ib_cq *ibcq,
			    const struct ib_cq_init_attr *attr,
			    struct ib_udata *udata)
{
	struct ibtsim_cq *cq = to_ibtsim_cq(ibcq);

	if (udata)
		return -EOPNOTSUPP;
	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > IBTSIM_MAX_CQE)
		return -EINVAL;
	cq->cap = min_t(u32, attr->cqe, IBTSIM_CQ_FIRST);
	cq->ring = kcalloc(cq->cap, sizeof(*cq->ring), GFP_KERNEL);
	if (!cq->ring)
		return -ENOMEM;
	spin_lock_init(&cq->lock);
	INIT_DELAYED_WORK(&cq->notify_work, ibtsim_cq_work);
	INIT_WORK(&cq->grow_work, ibtsim_cq_grow_work);
	cq->size = attr->cqe;
	ibcq->cqe = attr->cqe;
	return 0;
}

static int ibtsim_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct ibtsim_cq *cq = to_ibtsim_cq(ibcq);

	/* No QP uses the CQ any more: nothing queues the works again. */
	cancel_delayed_work_sync(&cq->notify_work);
	cancel_work_sync(&cq->grow_work);
	kfree(cq->ring);
	return 0;
}

static int ibtsim_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct ibtsim_cq *cq = to_ibtsim_cq(ibcq);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num && cq->count; n++) {
		ibtsim_cqe_to_wc(&cq->ring[cq->head], &wc[n]);
		cq->head = (cq->head + 1) % cq->cap;
		cq->count--;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static int ibtsim_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags how)
{
	struct ibtsim_cq *cq = to_ibtsim_cq(ibcq);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, flags);
	if ((how & IB_CQ_SOLICITED_MASK) == IB_CQ_NEXT_COMP)
		cq->notify = IB_CQ_NEXT_COMP;
	else if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = IB_CQ_SOLICITED;
	if ((how & IB_CQ_REPORT_MISSED_EVENTS) && cq->count)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, flags);
	return ret;
}

/*
 * A completion event. The fabric's worker calls it itself, as a device's
 * interrupt handler does, with none of the sim's locks held; the
 * consumer's own calls (a flush in modify_qp) go through notify_work, so
 * that a handler is never called from inside the verb that caused it.
 * Bottom halves are off around the handler: one that schedules a softirq
 * (IB_POLL_SOFTIRQ's irq_poll, a NAPI poll) has it run at once on
 * local_bh_enable(), not at the next interrupt.
 */
static void ibtsim_cq_event(struct ibtsim_cq *cq)
{
	if (!cq->ibcq.comp_handler)
		return;
	local_bh_disable();
	cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	local_bh_enable();
}

static void ibtsim_cq_work(struct work_struct *work)
{
	ibtsim_cq_event(container_of(to_delayed_work(work), struct ibtsim_cq,
				     notify_work));
}

/*
 * The fabric's worker owes @cq an event and holds no lock: the event now,
 * or under moderation once the period has passed (an event already
 * pending covers this completion too, as a moderated interrupt does).
 */
static void ibtsim_cq_notify(struct ibtsim_cq *cq)
{
	u32 us = min_t(u32, READ_ONCE(ibtsim_cq_moderation_us),
		       IBTSIM_CQ_MODERATION_MAX_US);

	if (us)
		queue_delayed_work(ibtsim_cq_wq(cq), &cq->notify_work,
				   usecs_to_jiffies(us));
	else
		ibtsim_cq_event(cq);
}

/*
 * The ring starts at IBTSIM_CQ_FIRST entries and doubles, up to the size the
 * consumer asked for, as completions pile up: ib_mad asks every port for
 * hundreds and rarely holds more than a few. Caller holds cq->lock; the
 * entries move to the start of @ring.
 */
static void ibtsim_cq_move(struct ibtsim_cq *cq, struct ibtsim_cqe *ring, u32 cap)
{
	u32 i;

	for (i = 0; i < cq->count; i++)
		ring[i] = cq->ring[(cq->head + i) % cq->cap];
	swap(cq->ring, ring);
	kfree(ring);
	cq->cap = cap;
	cq->head = 0;
	ibdev_dbg(cq->ibcq.device, "CQ ring grown to %u of %u entries\n",
		  cap, cq->size);
}

static u32 ibtsim_cq_next_cap(const struct ibtsim_cq *cq)
{
	return min(cq->size, cq->cap * 2);
}

/* Grows the ring ahead of need, where allocating may sleep. */
static void ibtsim_cq_grow_work(struct work_struct *work)
{
	struct ibtsim_cq *cq = container_of(work, struct ibtsim_cq, grow_work);
	struct ibtsim_cqe *ring;
	unsigned long flags;
	u32 cap;

	spin_lock_irqsave(&cq->lock, flags);
	cap = ibtsim_cq_next_cap(cq);
	if (cap == cq->cap)
		cap = 0;	/* grown meanwhile */
	spin_unlock_irqrestore(&cq->lock, flags);
	if (!cap)
		return;
	ring = kcalloc(cap, sizeof(*ring), GFP_KERNEL | __GFP_NOWARN);
	if (!ring)
		return;	/* ibtsim_cq_push() tries again when full */
	spin_lock_irqsave(&cq->lock, flags);
	if (cap > cq->cap) {
		ibtsim_cq_move(cq, ring, cap);
		ring = NULL;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	kfree(ring);
}

/* Caller holds cq->lock; false: no room, the completion is lost. */
static bool ibtsim_cq_room(struct ibtsim_cq *cq)
{
	struct ibtsim_cqe *ring;
	u32 cap;

	if (cq->count < cq->cap)
		return true;
	if (cq->cap == cq->size) {
		if (!cq->overflow)
			ibdev_warn_ratelimited(cq->ibcq.device,
					       "CQ overflow, completion lost\n");
		cq->overflow = true;
		return false;
	}
	/* A burst outran the grow work: grow here, without sleeping. */
	cap = ibtsim_cq_next_cap(cq);
	ring = kcalloc(cap, sizeof(*ring), GFP_ATOMIC | __GFP_NOWARN);
	if (!ring) {
		ibdev_warn_ratelimited(cq->ibcq.device,
				       "no memory to grow the CQ to %u entries, completion lost\n",
				       cap);
		return false;
	}
	ibtsim_cq_move(cq, ring, cap);
	return true;
}

/*
 * Add a completion. Return: true when the consumer is owed a completion
 * event: the caller then calls ibtsim_cq_notify() once it holds no lock,
 * or queues notify_work.
 */
static bool __must_check ibtsim_cq_push(struct ibtsim_cq *cq,
					const struct ib_wc *wc, bool solicited)
{
	unsigned long flags;
	bool event = false;
	bool grow = false;

	spin_lock_irqsave(&cq->lock, flags);
	if (ibtsim_cq_room(cq)) {
		ibtsim_wc_to_cqe(wc, &cq->ring[(cq->head + cq->count) % cq->cap]);
		cq->count++;
		grow = cq->cap < cq->size && cq->count > cq->cap / 2;
	}
	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED &&
	     (solicited || wc->status != IB_WC_SUCCESS))) {
		cq->notify = 0;
		event = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (grow)
		queue_work(ibtsim_cq_wq(cq), &cq->grow_work);
	return event;
}

/* qp */

struct ibtsim_qp *ibtsim_qp_get(struct ibtsim_port *port, u32 qpn)
{
	struct ibtsim_node *node = port->node;
	struct ibtsim_qp *qp = NULL;
	unsigned long flags;

	if (!node->dev)
		return NULL;
	if (qpn <= 1) {
		spin_lock_irqsave(&node->lock, flags);
		qp = port->sqp[qpn];
		if (qp && !refcount_inc_not_zero(&qp->ref))
			qp = NULL;
		spin_unlock_irqrestore(&node->lock, flags);
		return qp;
	}
	xa_lock_irqsave(&node->dev->qps, flags);
	qp = xa_load(&node->dev->qps, qpn);
	if (qp && (READ_ONCE(qp->port) != port ||
		   !refcount_inc_not_zero(&qp->ref)))
		qp = NULL;
	xa_unlock_irqrestore(&node->dev->qps, flags);
	return qp;
}

void ibtsim_qp_put(struct ibtsim_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->released);
}

static int ibtsim_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			    struct ib_udata *udata)
{
	struct ibtsim_dev *dev = to_ibtsim_dev(ibqp->device);
	struct ibtsim_qp *qp = to_ibtsim_qp(ibqp);
	struct ib_qp_cap *cap = &init->cap;
	struct ibtsim_port *port;
	unsigned long flags;
	u32 qpn;
	int err;

	if (udata)
		return -EOPNOTSUPP;
	if (init->qp_type != IB_QPT_UD && init->qp_type != IB_QPT_SMI &&
	    init->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	if (init->srq || init->create_flags)
		return -EOPNOTSUPP;
	if (cap->max_send_wr > IBTSIM_MAX_WR || cap->max_recv_wr > IBTSIM_MAX_WR ||
	    cap->max_send_sge > IBTSIM_MAX_SGE ||
	    cap->max_recv_sge > IBTSIM_MAX_SGE ||
	    cap->max_inline_data > IBTSIM_MTU)
		return -EINVAL;

	refcount_set(&qp->ref, 1);
	init_completion(&qp->released);
	spin_lock_init(&qp->lock);
	atomic_set(&qp->sq_inflight, 0);
	qp->state = IB_QPS_RESET;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->rq_size = max(cap->max_recv_wr, 1U);
	qp->max_rsge = max(cap->max_recv_sge, 1U);
	qp->max_ssge = max(cap->max_send_sge, 1U);
	qp->sq_max = max(cap->max_send_wr, 1U);
	qp->rq_stride = struct_size((struct ibtsim_rwqe *)NULL, sge, qp->max_rsge);
	qp->rq = ibtsim_zalloc_array(qp->rq_size, qp->rq_stride);
	if (!qp->rq)
		return -ENOMEM;

	if (init->qp_type == IB_QPT_UD) {
		err = xa_alloc_irq(&dev->qps, &qpn, qp,
				   XA_LIMIT(2, IBTSIM_MAX_QPN), GFP_KERNEL);
		if (err)
			goto err_free_rq;
		ibqp->qp_num = qpn;
		return 0;
	}

	if (!rdma_is_port_valid(ibqp->device, init->port_num)) {
		err = -EINVAL;
		goto err_free_rq;
	}
	qpn = init->qp_type == IB_QPT_SMI ? 0 : 1;
	ibtsim_budget_note_mad_qp(qp->rq_size);
	port = ibtsim_dev_port(dev, init->port_num);
	ibqp->qp_num = qpn;
	qp->port = port;
	spin_lock_irqsave(&dev->node->lock, flags);
	if (port->sqp[qpn]) {
		spin_unlock_irqrestore(&dev->node->lock, flags);
		err = -EBUSY;
		goto err_free_rq;
	}
	port->sqp[qpn] = qp;
	spin_unlock_irqrestore(&dev->node->lock, flags);
	return 0;

err_free_rq:
	kvfree(qp->rq);
	return err;
}

/* Complete every posted receive with a flush error; caller holds qp->lock. */
static void __ibtsim_qp_flush_rq(struct ibtsim_qp *qp)
{
	struct ibtsim_cq *cq = to_ibtsim_cq(qp->ibqp.recv_cq);
	struct ib_wc wc = {
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
	};

	while (qp->rq_count) {
		wc.wr_id = ibtsim_rq_wqe(qp, qp->rq_head)->wr_id;
		qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
		qp->rq_count--;
		if (ibtsim_cq_push(cq, &wc, false))
			queue_delayed_work(ibtsim_cq_wq(cq), &cq->notify_work, 0);
	}
}

static int ibtsim_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			    int mask, struct ib_udata *udata)
{
	struct ibtsim_dev *dev = to_ibtsim_dev(ibqp->device);
	struct ibtsim_qp *qp = to_ibtsim_qp(ibqp);
	enum ib_qp_state cur, new;
	unsigned long flags;
	int err = 0;

	if (udata && (udata->inlen || udata->outlen))
		return -EOPNOTSUPP;

	spin_lock_irqsave(&qp->lock, flags);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	new = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, new, ibqp->qp_type, mask)) {
		err = -EINVAL;
		goto out;
	}
	if ((mask & IB_QP_PORT) && !rdma_is_port_valid(ibqp->device,
						       attr->port_num)) {
		err = -EINVAL;
		goto out;
	}
	if ((mask & IB_QP_PKEY_INDEX) &&
	    attr->pkey_index >= IBTSIM_PKEY_TBL_LEN) {
		err = -EINVAL;
		goto out;
	}
	if (ibqp->qp_type == IB_QPT_UD && new != IB_QPS_RESET &&
	    !(mask & IB_QP_PORT) && !qp->port) {
		err = -EINVAL;
		goto out;
	}

	if (mask & IB_QP_PORT)
		WRITE_ONCE(qp->port, ibtsim_dev_port(dev, attr->port_num));
	if (mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn;
	qp->state = new;
	if (new == IB_QPS_ERR && cur != IB_QPS_ERR)
		__ibtsim_qp_flush_rq(qp);
	if (new == IB_QPS_RESET) {
		qp->rq_head = 0;
		qp->rq_count = 0;
	}
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	return err;
}

static int ibtsim_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			   int mask, struct ib_qp_init_attr *init)
{
	struct ibtsim_qp *qp = to_ibtsim_qp(ibqp);
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	spin_lock_irqsave(&qp->lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->qkey = qp->qkey;
	attr->pkey_index = qp->pkey_index;
	attr->sq_psn = qp->sq_psn;
	attr->port_num = qp->port ? qp->port->num : 0;
	spin_unlock_irqrestore(&qp->lock, flags);
	attr->path_mtu = IB_MTU_4096;
	attr->cap.max_send_wr = qp->sq_max;
	attr->cap.max_recv_wr = qp->rq_size;
	attr->cap.max_send_sge = qp->max_ssge;
	attr->cap.max_recv_sge = qp->max_rsge;
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = attr->cap;
	init->port_num = attr->port_num;
	return 0;
}

static int ibtsim_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct ibtsim_dev *dev = to_ibtsim_dev(ibqp->device);
	struct ibtsim_qp *qp = to_ibtsim_qp(ibqp);
	unsigned long flags;

	if (ibqp->qp_type == IB_QPT_UD) {
		xa_erase_irq(&dev->qps, ibqp->qp_num);
	} else {
		spin_lock_irqsave(&dev->node->lock, flags);
		qp->port->sqp[ibqp->qp_num] = NULL;
		spin_unlock_irqrestore(&dev->node->lock, flags);
	}
	/* Wait for packets in flight from or to the QP. */
	ibtsim_qp_put(qp);
	wait_for_completion(&qp->released);
	kvfree(qp->rq);
	return 0;
}

/* Copy @len bytes into a receive WQE's scatter list at byte @off. */
static void ibtsim_scatter(const struct ibtsim_rwqe *wqe, u32 off,
			   const void *src, u32 len)
{
	u32 i, n;

	for (i = 0; i < wqe->num_sge && len; i++) {
		const struct ib_sge *sge = &wqe->sge[i];

		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		n = min(len, sge->length - off);
		memcpy((void *)(uintptr_t)(sge->addr + off), src, n);
		src += n;
		len -= n;
		off = 0;
	}
}

/**
 * ibtsim_qp_recv - a packet reaches a QP of the receiving port
 * @qp: the QP (referenced by the caller)
 * @pkt: the packet
 * @hdr: completion fields the fabric computed from the headers (src_qp,
 *	slid, sl, pkey_index, port_num, dlid_path_bits)
 *
 * As UD hardware does: the first 40 bytes of the buffer hold the GRH (only
 * written, and IB_WC_GRH set, when the packet had one), the payload
 * follows; byte_len counts both.
 */
void ibtsim_qp_recv(struct ibtsim_qp *qp, const struct ibtsim_pkt *pkt,
		    const struct ib_wc *hdr)
{
	struct ibtsim_cq *cq = to_ibtsim_cq(qp->ibqp.recv_cq);
	struct ibtsim_port *port = qp->port;
	struct ibtsim_rwqe *wqe;
	unsigned long flags;
	struct ib_wc wc;
	bool event;
	u64 room = 0;	/* four 32-bit lengths: no wrap in 64 bits */
	u32 i;

	spin_lock_irqsave(&qp->lock, flags);
	if ((qp->state != IB_QPS_RTR && qp->state != IB_QPS_RTS) ||
	    !qp->rq_count) {
		spin_unlock_irqrestore(&qp->lock, flags);
		ibtsim_drop(port, IBTSIM_DROP_QP_NOT_READY);
		return;
	}
	wqe = ibtsim_rq_wqe(qp, qp->rq_head);
	qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
	qp->rq_count--;

	wc = *hdr;
	wc.wr_id = wqe->wr_id;
	wc.qp = &qp->ibqp;
	wc.opcode = IB_WC_RECV;
	wc.byte_len = IBTSIM_GRH_LEN + pkt->len;
	for (i = 0; i < wqe->num_sge; i++)
		room += wqe->sge[i].length;
	if (room < wc.byte_len) {
		wc.status = IB_WC_LOC_LEN_ERR;
	} else {
		wc.status = IB_WC_SUCCESS;
		if (pkt->has_grh) {
			ibtsim_scatter(wqe, 0, &pkt->grh, IBTSIM_GRH_LEN);
			wc.wc_flags |= IB_WC_GRH;
		}
		ibtsim_scatter(wqe, IBTSIM_GRH_LEN, pkt->data, pkt->len);
		if (pkt->has_imm) {
			wc.wc_flags |= IB_WC_WITH_IMM;
			wc.ex.imm_data = pkt->imm;
		}
	}
	event = ibtsim_cq_push(cq, &wc, false);
	spin_unlock_irqrestore(&qp->lock, flags);
	if (event)
		ibtsim_cq_notify(cq);
	atomic64_inc(&port->rx_pkts);
	atomic64_inc(&port->node->fabric->stats.delivered);
}

/**
 * ibtsim_qp_send_done - the fabric transmitted a packet of @qp
 * @qp: sending QP; the packet's reference is dropped here
 * @pkt: the packet
 *
 * UD sends complete successfully once on the wire, delivered or not.
 */
void ibtsim_qp_send_done(struct ibtsim_qp *qp, struct ibtsim_pkt *pkt)
{
	struct ibtsim_cq *cq = to_ibtsim_cq(qp->ibqp.send_cq);
	struct ib_wc wc = {
		.wr_id = pkt->wr_id,
		.status = IB_WC_SUCCESS,
		.opcode = pkt->opcode,
		.qp = &qp->ibqp,
	};

	if (pkt->signaled && ibtsim_cq_push(cq, &wc, false))
		ibtsim_cq_notify(cq);
	atomic_dec(&qp->sq_inflight);
	ibtsim_qp_put(qp);
}

static void ibtsim_build_grh(struct ibtsim_qp *qp, const struct rdma_ah_attr *ah,
			     struct ibtsim_pkt *pkt)
{
	const struct ib_global_route *gr = rdma_ah_read_grh(ah);
	struct ibtsim_port *port = qp->port;
	unsigned long flags;
	u64 sguid = 0;

	spin_lock_irqsave(&port->node->lock, flags);
	sguid = ibtsim_port_guid_entry(port, gr->sgid_index);
	pkt->grh.sgid.global.subnet_prefix = cpu_to_be64(port->gid_prefix);
	spin_unlock_irqrestore(&port->node->lock, flags);

	pkt->has_grh = true;
	pkt->grh.version_tclass_flow =
		cpu_to_be32((6U << 28) | ((u32)gr->traffic_class << 20) |
			    (gr->flow_label & 0xfffff));
	pkt->grh.paylen = cpu_to_be16(pkt->len);
	pkt->grh.next_hdr = 0x1b;	/* IBA transport */
	pkt->grh.hop_limit = gr->hop_limit;
	pkt->grh.sgid.global.interface_id = cpu_to_be64(sguid);
	pkt->grh.dgid = gr->dgid;
}

static int ibtsim_post_one_send(struct ibtsim_qp *qp, const struct ib_send_wr *wr)
{
	const struct ib_ud_wr *ud = ud_wr(wr);
	const struct rdma_ah_attr *ah;
	struct ibtsim_pkt *pkt;
	u32 len = 0, off = 0, max_len, i;
	int err;

	if (wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM)
		return -EINVAL;
	if (wr->num_sge > qp->max_ssge || !ud->ah)
		return -EINVAL;
	if (qp->ibqp.qp_type == IB_QPT_GSI &&
	    ud->pkey_index >= IBTSIM_PKEY_TBL_LEN)
		return -EINVAL;
	max_len = qp->ibqp.qp_type == IB_QPT_UD ? IBTSIM_MTU : IB_MGMT_MAD_SIZE;
	/* Summed with a check: four lengths near 4 GiB would wrap to a few. */
	for (i = 0; i < wr->num_sge; i++)
		if (check_add_overflow(len, wr->sg_list[i].length, &len) ||
		    len > max_len)
			return -EMSGSIZE;

	pkt = kzalloc(struct_size(pkt, data, len), GFP_ATOMIC);
	if (!pkt)
		return -ENOMEM;
	for (i = 0; i < wr->num_sge; i++) {
		const struct ib_sge *sge = &wr->sg_list[i];

		memcpy(pkt->data + off, (void *)(uintptr_t)sge->addr,
		       sge->length);
		off += sge->length;
	}
	ah = &to_ibtsim_ah(ud->ah)->attr;
	pkt->len = len;
	pkt->src_port = qp->port;
	pkt->wr_id = wr->wr_id;
	pkt->signaled = qp->sig_all || (wr->send_flags & IB_SEND_SIGNALED);
	pkt->opcode = IB_WC_SEND;
	pkt->dlid = rdma_ah_get_dlid(ah);
	pkt->sl = rdma_ah_get_sl(ah);
	pkt->path_bits = rdma_ah_get_path_bits(ah);
	pkt->dqpn = ud->remote_qpn;
	pkt->vl = pkt->dqpn ? 0 : IBTSIM_VL15;
	pkt->sqpn = qp->ibqp.qp_num;
	pkt->qkey = ud->remote_qkey & 0x80000000 ? qp->qkey : ud->remote_qkey;
	if (wr->opcode == IB_WR_SEND_WITH_IMM) {
		pkt->has_imm = true;
		pkt->imm = wr->ex.imm_data;
	}
	if (rdma_ah_get_ah_flags(ah) & IB_AH_GRH)
		ibtsim_build_grh(qp, ah, pkt);
	/* P_Key: QP0 uses none; GSI takes the WR's index, UD the QP's. */
	pkt->pkey_index = qp->ibqp.qp_type == IB_QPT_GSI ? ud->pkey_index :
			  qp->pkey_index;

	if (atomic_inc_return(&qp->sq_inflight) > qp->sq_max) {
		err = -ENOMEM;
		goto err_dec;
	}
	refcount_inc(&qp->ref);
	pkt->src_qp = qp;
	err = ibtsim_fabric_xmit(qp->port->node->fabric, pkt);
	if (err)
		goto err_put;
	return 0;

err_put:
	ibtsim_qp_put(qp);
err_dec:
	atomic_dec(&qp->sq_inflight);
	kfree(pkt);
	return err;
}

static int ibtsim_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			    const struct ib_send_wr **bad_wr)
{
	struct ibtsim_qp *qp = to_ibtsim_qp(ibqp);
	enum ib_qp_state state;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&qp->lock, flags);
	state = qp->state;
	spin_unlock_irqrestore(&qp->lock, flags);

	for (; wr; wr = wr->next) {
		err = state == IB_QPS_RTS ? ibtsim_post_one_send(qp, wr) :
					    -EINVAL;
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	return err;
}

static int ibtsim_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			    const struct ib_recv_wr **bad_wr)
{
	struct ibtsim_qp *qp = to_ibtsim_qp(ibqp);
	struct ibtsim_rwqe *wqe;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		if (qp->state == IB_QPS_RESET || qp->state == IB_QPS_ERR ||
		    wr->num_sge > qp->max_rsge) {
			err = -EINVAL;
		} else if (qp->rq_count == qp->rq_size) {
			err = -ENOMEM;
		}
		if (err) {
			*bad_wr = wr;
			break;
		}
		wqe = ibtsim_rq_wqe(qp, (qp->rq_head + qp->rq_count) %
					qp->rq_size);
		wqe->wr_id = wr->wr_id;
		wqe->num_sge = wr->num_sge;
		memcpy(wqe->sge, wr->sg_list, wr->num_sge * sizeof(*wqe->sge));
		qp->rq_count++;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	return err;
}

static const struct ib_device_ops ibtsim_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.alloc_pd = ibtsim_alloc_pd,
	.create_ah = ibtsim_create_ah,
	.create_cq = ibtsim_create_cq,
	.create_qp = ibtsim_create_qp,
	.dealloc_pd = ibtsim_dealloc_pd,
	.dereg_mr = ibtsim_dereg_mr,
	.destroy_ah = ibtsim_destroy_ah,
	.destroy_cq = ibtsim_destroy_cq,
	.destroy_qp = ibtsim_destroy_qp,
	.get_dma_mr = ibtsim_get_dma_mr,
	.get_port_immutable = ibtsim_get_port_immutable,
	.modify_port = ibtsim_modify_port,
	.modify_qp = ibtsim_modify_qp,
	.poll_cq = ibtsim_poll_cq,
	.post_recv = ibtsim_post_recv,
	.post_send = ibtsim_post_send,
	.process_mad = ibtsim_process_mad,
	.query_device = ibtsim_query_device,
	.query_gid = ibtsim_query_gid,
	.query_pkey = ibtsim_query_pkey,
	.query_ah = ibtsim_query_ah,
	.query_port = ibtsim_query_port,
	.query_qp = ibtsim_query_qp,
	.reg_user_mr = ibtsim_reg_user_mr,
	.req_notify_cq = ibtsim_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, ibtsim_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, ibtsim_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, ibtsim_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, ibtsim_qp, ibqp),
};

/**
 * ibtsim_dev_create - create and register the RDMA device of an HCA node
 * @node: the HCA, fully built (ports, GUIDs, SMA state)
 *
 * Return: 0 or a negative errno; on error nothing is left allocated.
 */
int ibtsim_dev_create(struct ibtsim_node *node)
{
	struct ibtsim_dev *dev;
	int err;

	dev = ib_alloc_device(ibtsim_dev, ibdev);
	if (!dev)
		return -ENOMEM;
	dev->node = node;
	xa_init_flags(&dev->qps, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	dev->ibdev.node_type = RDMA_NODE_IB_CA;
	dev->ibdev.node_guid = cpu_to_be64(node->node_guid);
	dev->ibdev.phys_port_cnt = node->num_ports;
	dev->ibdev.num_comp_vectors = 1;
	strscpy(dev->ibdev.node_desc, node->desc, sizeof(dev->ibdev.node_desc));
	ib_set_device_ops(&dev->ibdev, &ibtsim_dev_ops);
	node->dev = dev;

	err = ib_register_device(&dev->ibdev, "ibtsim%d", NULL);
	if (err)
		goto err_dealloc;
	dev->registered = true;
	return 0;

err_dealloc:
	node->dev = NULL;
	xa_destroy(&dev->qps);
	ib_dealloc_device(&dev->ibdev);
	return err;
}

/* Unregister: clients (ib_mad, ib_umad...) destroy their objects here. */
void ibtsim_dev_unregister(struct ibtsim_node *node)
{
	struct ibtsim_dev *dev = node->dev;

	if (dev && dev->registered) {
		ib_unregister_device(&dev->ibdev);
		dev->registered = false;
	}
}

/* Free, once no packet can reach the device any more. */
void ibtsim_dev_free(struct ibtsim_node *node)
{
	struct ibtsim_dev *dev = node->dev;

	if (!dev)
		return;
	WARN_ON(!xa_empty(&dev->qps));
	xa_destroy(&dev->qps);
	node->dev = NULL;
	ib_dealloc_device(&dev->ibdev);
}
