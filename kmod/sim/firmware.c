// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - the firmware of a node: MADs answered in the fabric.
 *
 * Two kinds of node answer their MADs without an RDMA device: a switch
 * (at its management port, port 0) and a hostless HCA, one that
 * FABRIC_ADD's device count left without an RDMA device, like the HCA of
 * a host whose RDMA stack is not loaded but whose firmware still runs.
 * Both answer as a host's ib_mad would with nobody registered beyond the
 * SMA and the PMA: SMPs by the SMA (sma.c), PerfMgt by the PMA (pma.c),
 * any other Get or Set with GetResp status 0x000C (unsupported method
 * and attribute, ib_mad's answer for a class no agent registered);
 * anything else (responses, traps, reports) is dropped.
 *
 * A hostless HCA is a fabric end port and runs the SMI of one (IBA
 * 14.2.2: C14-9 for outgoing, C14-13 for returning directed-route SMPs):
 * it answers a DR SMP whose directed part ends at it, or whose LID-routed
 * end part reaches it, and drops one that would need it to forward (it is
 * no switch) and any returning one (no SM runs on it). A hostless HCA
 * costs the fabric its node and ports only: no ib_core device, no ib_mad
 * receive rings, so that fabrics of ten thousand nodes fit a small VM.
 */
#include <linux/kernel.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

#include "sim.h"
#include "loc.h"

/**
 * ibtsim_fw_answer - rewrite a MAD for a node's firmware into its answer
 * @node: the node answering
 * @in_port: the port the MAD arrived by (the SMA's and PMA's port)
 * @mgmt: the port whose GID the answer comes from (a switch's port 0)
 * @pkt: the request; rewritten in place into the answer, addressed back
 * @slid: the answer's LRH SLID
 * @why: set to why, when there is nothing to answer
 *
 * A directed-route SMP's hop pointer and paths are the caller's (its
 * SMI's); its answer goes to the permissive LID when its directed part
 * ended here, else back to the request's SLID (the last switch of the
 * directed part, which turns it round).
 *
 * Return: true if @pkt is now the answer; false: drop it.
 */
bool ibtsim_fw_answer(struct ibtsim_node *node, u8 in_port,
		      struct ibtsim_port *mgmt, struct ibtsim_pkt *pkt,
		      u16 slid, enum ibtsim_drop_reason *why)
{
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)pkt->data;
	u32 dqpn = pkt->dqpn;
	bool smp;

	/* Nothing of the packet is read before its length is known. */
	if (pkt->len < sizeof(struct ib_mad)) {
		*why = IBTSIM_DROP_FW_SHORT_MAD;
		return false;
	}
	smp = hdr->mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	      hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	if (hdr->method != IB_MGMT_METHOD_GET &&
	    hdr->method != IB_MGMT_METHOD_SET) {
		*why = IBTSIM_DROP_FW_NO_AGENT;
		return false;
	}
	if (dqpn > 1) {
		*why = IBTSIM_DROP_FW_NO_QP;
		return false;
	}
	if (smp != !dqpn) {
		*why = dqpn ? IBTSIM_DROP_FW_SMP_ON_QP1 :
			      IBTSIM_DROP_FW_GMP_ON_QP0;
		return false;
	}

	if (smp) {
		ibtsim_sma_answer(node, in_port, (struct ib_smp *)hdr);
		pkt->qkey = 0;
		if (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE &&
		    ((struct ib_smp *)hdr)->dr_dlid == IB_LID_PERMISSIVE)
			pkt->slid = be16_to_cpu(IB_LID_PERMISSIVE);
	} else {
		if (hdr->mgmt_class == IB_MGMT_CLASS_PERF_MGMT) {
			ibtsim_pma_answer(node, in_port, (struct ib_mad *)hdr);
		} else {
			hdr->method = IB_MGMT_METHOD_GET_RESP;
			hdr->status = cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
		}
		pkt->qkey = IB_QP1_QKEY;
	}

	pkt->dqpn = pkt->sqpn;
	pkt->sqpn = dqpn;
	pkt->dlid = pkt->slid;
	pkt->slid = slid;
	pkt->has_imm = false;
	if (pkt->has_grh) {
		unsigned long flags;

		pkt->grh.dgid = pkt->grh.sgid;
		spin_lock_irqsave(&node->lock, flags);
		pkt->grh.sgid.global.subnet_prefix =
			cpu_to_be64(mgmt->gid_prefix);
		spin_unlock_irqrestore(&node->lock, flags);
		pkt->grh.sgid.global.interface_id = cpu_to_be64(mgmt->guid);
	}
	ibtsim_pkt_answered(node->fabric, pkt);
	return true;
}

/*
 * The SMI of a hostless HCA's port for a DR SMP (IBA 14.2.2.2, as an end
 * port runs it): true when the SMA is to answer it, and the hop pointer
 * and return path are as the answer leaves with them. @ours: the LRH DLID
 * is the port's or permissive.
 */
static bool ibtsim_ca_dr(u8 in_port, bool ours, struct ib_smp *smp,
			 enum ibtsim_drop_reason *why)
{
	u8 cnt = smp->hop_cnt;

	*why = IBTSIM_DROP_CA_DR_NOT_FORWARDED;
	if (cnt >= IB_SMP_MAX_PATH_HOPS) {
		*why = IBTSIM_DROP_DR_HOP_COUNT;
		return false;
	}
	if (ib_get_smp_direction(smp)) {
		/* C14-13: a returning SMP is for an SM; none runs here. */
		*why = IBTSIM_DROP_CA_DR_RETURNING;
		return false;
	}
	if (smp->hop_ptr == cnt) {
		/*
		 * C14-9:3, the end of the directed part: an end port answers
		 * when the SMP ends here (permissive DrDLID) and cannot route
		 * a LID-routed end part on. The answer leaves with the hop
		 * pointer it came with (C14-9:3 then C14-13:1 on sending).
		 */
		if (smp->dr_dlid != IB_LID_PERMISSIVE)
			return false;
		if (cnt)
			smp->return_path[cnt] = in_port;
		return true;
	}
	/* C14-9:4, the LID-routed end part reached us; C14-9:1, :2, :5 drop. */
	return smp->hop_ptr == cnt + 1 && ours;
}

/**
 * ibtsim_ca_fw_rx - a MAD for a hostless HCA: its firmware answers
 * @port: the port it arrived by, its link-layer and P_Key checks passed
 * @pkt: the packet; rewritten in place into the answer
 * @lid: the port's base LID (0: none yet)
 * @top: the port's highest LID (its LMC's)
 * @dr: @pkt is a directed-route SMP
 *
 * The answer comes from the LID the request was sent to, or from the
 * port's base LID when that was the permissive LID (or a directed route).
 *
 * Return: @port, the answer leaving by it, or NULL: dropped (counted).
 */
struct ibtsim_port *ibtsim_ca_fw_rx(struct ibtsim_port *port,
				    struct ibtsim_pkt *pkt, u16 lid, u16 top,
				    bool dr)
{
	u16 permissive = be16_to_cpu(IB_LID_PERMISSIVE);
	bool ours = lid && pkt->dlid >= lid && pkt->dlid <= top;
	u16 slid = ours ? pkt->dlid : lid ?: permissive;
	enum ibtsim_drop_reason why;

	if (dr) {
		ours = ours || pkt->dlid == permissive;

		if (pkt->len < sizeof(struct ib_smp)) {
			why = IBTSIM_DROP_FW_SHORT_MAD;
			goto drop;
		}
		if (!ibtsim_ca_dr(port->num, ours, (struct ib_smp *)pkt->data,
				  &why))
			goto drop;
	}
	if (pkt->dqpn == 1 && pkt->qkey != IB_QP1_QKEY) {
		why = ibtsim_qkey_viol(port);
		goto drop;
	}
	if (!ibtsim_fw_answer(port->node, port->num, port, pkt, slid, &why))
		goto drop;
	atomic64_inc(&port->rx_pkts);
	return port;
drop:
	ibtsim_drop(port, why);
	return NULL;
}
