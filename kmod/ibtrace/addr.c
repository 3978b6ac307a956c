// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - address handles for the destinations of our requests.
 *
 * InfiniBand: a DLID (given, or from an SA PathRecord, see sa.c), plus a
 * GRH when a DGID is given too. RoCE: a GRH
 * from a source GID of the same family as the destination, and the
 * destination MAC - taken from an EUI-64 link-local GID directly, else
 * resolved through the neighbour tables with rdma_resolve_ip(). IPv4-mapped
 * destinations are refused (see ibtrace_ah_create()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "addr.h"
#include "ibtrace.h"

/* Neighbour resolution bound; the waiter sleeps at most this long. */
#define IBTRACE_RESOLVE_TIMEOUT_MS	2000

struct ibtrace_resolve {
	struct completion done;
	int status;
};

static void ibtrace_resolve_done(int status, struct sockaddr *src_addr,
				 struct rdma_dev_addr *addr, void *context)
{
	struct ibtrace_resolve *res = context;

	res->status = status;
	complete(&res->done);
}

/**
 * ibtrace_best_gid() - a port's best GID of those @match accepts
 * @ibdev: the device
 * @port_num: its port
 * @match: whether a GID will do
 * @arg: passed to @match
 *
 * The first GID accepted, unless a later one is RoCE v2 and it is not.
 *
 * Return: the GID's attributes with a reference held, or NULL.
 */
static const struct ib_gid_attr *
ibtrace_best_gid(struct ib_device *ibdev, u32 port_num,
		 bool (*match)(const struct ib_gid_attr *attr, const void *arg),
		 const void *arg)
{
	const struct ib_gid_attr *attr, *best = NULL;
	int i, len = ibdev->port_data[port_num].immutable.gid_tbl_len;

	for (i = 0; i < len; i++) {
		attr = rdma_get_gid_attr(ibdev, port_num, i);
		if (IS_ERR(attr))
			continue;
		if (match(attr, arg) &&
		    (!best || (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
			       best->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP))) {
			if (best)
				rdma_put_gid_attr(best);
			best = attr;
			continue;
		}
		rdma_put_gid_attr(attr);
	}
	return best;
}

static bool ibtrace_gid_link_local(const struct ib_gid_attr *attr,
				   const void *arg)
{
	return rdma_link_local_addr((struct in6_addr *)attr->gid.raw);
}

/**
 * ibtrace_loopback_ah_attr() - the address of a port as seen from itself
 * @ibdev: the device
 * @port_num: the port
 * @lid: its LID (ib_query_port()), for InfiniBand
 * @ah: filled in: on InfiniBand @lid; on RoCE a GRH to the port's RoCE v2
 *	(else any) IPv6 link-local GID, and its own MAC as the DMAC (kernel
 *	users give the DMAC resolved)
 *
 * For loopback RC pairs (the RNR test) and address handles to the port
 * itself (the limit test).
 *
 * Return: 0, -EADDRNOTAVAIL (no LID, no link-local GID) or the error of
 * the GID's netdev.
 */
int ibtrace_loopback_ah_attr(struct ib_device *ibdev, u32 port_num, u32 lid,
			     struct rdma_ah_attr *ah)
{
	const struct ib_gid_attr *best;
	struct net_device *ndev;
	union ib_gid gid;
	int err = 0;

	memset(ah, 0, sizeof(*ah));
	ah->type = rdma_ah_find_type(ibdev, port_num);
	rdma_ah_set_port_num(ah, port_num);
	if (ah->type != RDMA_AH_ATTR_TYPE_ROCE) {
		if (!lid)
			return -EADDRNOTAVAIL;
		rdma_ah_set_dlid(ah, lid);
		return 0;
	}

	best = ibtrace_best_gid(ibdev, port_num, ibtrace_gid_link_local, NULL);
	if (!best)
		return -EADDRNOTAVAIL;
	gid = best->gid;
	rdma_ah_set_grh(ah, &gid, 0, best->index, IBTRACE_GRH_HOP_LIMIT, 0);
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(best);
	if (IS_ERR(ndev))
		err = PTR_ERR(ndev);
	else
		memcpy(ah->roce.dmac, ndev->dev_addr, ETH_ALEN);
	rcu_read_unlock();
	rdma_put_gid_attr(best);
	return err;
}

/* Whether @attr is of the family (IPv4-mapped or not) of the GID @arg. */
static bool ibtrace_gid_same_family(const struct ib_gid_attr *attr,
				    const void *arg)
{
	const union ib_gid *dgid = arg;

	return ipv6_addr_v4mapped((const struct in6_addr *)attr->gid.raw) ==
	       ipv6_addr_v4mapped((const struct in6_addr *)dgid->raw);
}

/* Best source GID on @port for reaching @dgid, with a reference held. */
static const struct ib_gid_attr *
ibtrace_pick_sgid(struct ibtrace_port *port, const union ib_gid *dgid)
{
	return ibtrace_best_gid(port->dev->ibdev, port->port_num,
				ibtrace_gid_same_family, dgid);
}

static int ibtrace_resolve_dmac(const struct ib_gid_attr *sgid_attr,
				const union ib_gid *dgid, u8 *dmac)
{
	union {
		struct sockaddr sa;
		struct sockaddr_in sin;
		struct sockaddr_in6 sin6;
	} src, dst;
	struct rdma_dev_addr dev_addr = {};
	struct ibtrace_resolve res;
	int err;

	if (rdma_link_local_addr((struct in6_addr *)dgid->raw)) {
		rdma_get_ll_mac((struct in6_addr *)dgid->raw, dmac);
		return 0;
	}

	rdma_gid2ip(&src.sa, &sgid_attr->gid);
	rdma_gid2ip(&dst.sa, dgid);
	dev_addr.net = &init_net;
	dev_addr.sgid_attr = sgid_attr;
	init_completion(&res.done);

	err = rdma_resolve_ip(&src.sa, &dst.sa, &dev_addr,
			      IBTRACE_RESOLVE_TIMEOUT_MS, ibtrace_resolve_done,
			      true, &res);
	if (err)
		return err;
	/* Bounded by the resolution timeout. */
	wait_for_completion(&res.done);
	if (res.status)
		return res.status;
	memcpy(dmac, dev_addr.dst_dev_addr, ETH_ALEN);
	return 0;
}

/**
 * ibtrace_ah_create() - address handle for a destination
 * @port: local port (with an agent)
 * @dgid: destination GID, or NULL
 * @path: destination LID (0 if unknown) and SL, InfiniBand only
 * @extack: where to say what is wrong
 *
 * Sleeps (neighbour resolution on RoCE).
 *
 * Return: the AH or an ERR_PTR().
 */
struct ib_ah *ibtrace_ah_create(struct ibtrace_port *port,
				const union ib_gid *dgid,
				const struct ibtrace_path *path,
				struct netlink_ext_ack *extack)
{
	struct ib_device *ibdev = port->dev->ibdev;
	const struct ib_gid_attr *sgid_attr;
	struct rdma_ah_attr ah_attr = {};
	union ib_gid gid;
	struct ib_ah *ah;
	int err;

	ah_attr.type = rdma_ah_find_type(ibdev, port->port_num);
	rdma_ah_set_port_num(&ah_attr, port->port_num);

	if (ah_attr.type != RDMA_AH_ATTR_TYPE_ROCE) {
		if (!path->dlid) {
			NL_SET_ERR_MSG(extack,
				       "an InfiniBand destination needs a DLID");
			return ERR_PTR(-EINVAL);
		}
		rdma_ah_set_dlid(&ah_attr, path->dlid);
		rdma_ah_set_sl(&ah_attr, path->sl);
		if (dgid) {
			gid = *dgid;
			rdma_ah_set_grh(&ah_attr, &gid, 0, 0,
					IBTRACE_GRH_HOP_LIMIT, 0);
		}
		ah = rdma_create_ah(port->agent->qp->pd, &ah_attr,
				    RDMA_CREATE_AH_SLEEPABLE);
		if (IS_ERR(ah))
			NL_SET_ERR_MSG(extack, "cannot create an address handle");
		return ah;
	}

	if (!dgid) {
		NL_SET_ERR_MSG(extack, "a RoCE destination needs a DGID");
		return ERR_PTR(-EINVAL);
	}
	/*
	 * ib_mad matches an answer to its request by the GID bytes of the
	 * received GRH, which for IPv4 RoCEv2 packets hold an IPv4 header:
	 * answers from IPv4-mapped GIDs are dropped unmatched.
	 */
	if (ipv6_addr_v4mapped((const struct in6_addr *)dgid->raw)) {
		NL_SET_ERR_MSG(extack,
			       "IPv4-mapped DGIDs are not supported (ib_mad cannot match answers in IPv4 RoCEv2 packets); use an IPv6 GID of the destination");
		return ERR_PTR(-EOPNOTSUPP);
	}
	sgid_attr = ibtrace_pick_sgid(port, dgid);
	if (!sgid_attr) {
		NL_SET_ERR_MSG(extack,
			       "no source GID of the destination's family on this port");
		return ERR_PTR(-EADDRNOTAVAIL);
	}

	err = ibtrace_resolve_dmac(sgid_attr, dgid, ah_attr.roce.dmac);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot resolve the destination's MAC");
		rdma_put_gid_attr(sgid_attr);
		return ERR_PTR(err);
	}
	gid = *dgid;
	rdma_ah_set_grh(&ah_attr, &gid, 0, sgid_attr->index,
			IBTRACE_GRH_HOP_LIMIT, 0);
	ah_attr.grh.sgid_attr = sgid_attr;
	ah = rdma_create_ah(port->agent->qp->pd, &ah_attr,
			    RDMA_CREATE_AH_SLEEPABLE);
	rdma_put_gid_attr(sgid_attr);
	if (IS_ERR(ah))
		NL_SET_ERR_MSG(extack, "cannot create an address handle");
	return ah;
}

/**
 * ibtrace_addr_check() - can @port address this destination at all?
 * @port: the local port
 * @dgid: destination GID, or NULL
 * @dlid: destination LID, or 0
 * @extack: where to say why not
 *
 * The checks of ibtrace_ah_create() that need no fabric, so that a
 * request is refused at once rather than by the job it starts. On
 * InfiniBand a DGID without a DLID is resolved through the SA later.
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int ibtrace_addr_check(struct ibtrace_port *port, const union ib_gid *dgid,
		       u32 dlid, struct netlink_ext_ack *extack)
{
	if (rdma_ah_find_type(port->dev->ibdev, port->port_num) !=
	    RDMA_AH_ATTR_TYPE_ROCE)
		return 0;
	if (!dgid) {
		NL_SET_ERR_MSG(extack, "a RoCE destination needs a DGID");
		return -EINVAL;
	}
	if (ipv6_addr_v4mapped((const struct in6_addr *)dgid->raw)) {
		NL_SET_ERR_MSG(extack,
			       "IPv4-mapped DGIDs are not supported (ib_mad cannot match answers in IPv4 RoCEv2 packets); use an IPv6 GID of the destination");
		return -EOPNOTSUPP;
	}
	return 0;
}

/**
 * ibtrace_ah_destroy() - release an AH from ibtrace_ah_create()
 * @ah: the AH
 */
void ibtrace_ah_destroy(struct ib_ah *ah)
{
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
}
