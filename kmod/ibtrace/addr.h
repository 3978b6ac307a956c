/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - what addr.c offers beside the address handles declared in
 * ibtrace.h: a port's address as seen from itself (the RNR test's
 * loopback pair, the limit test's AHs).
 */
#ifndef _IBTRACE_ADDR_H
#define _IBTRACE_ADDR_H

#include <rdma/ib_verbs.h>

int ibtrace_loopback_ah_attr(struct ib_device *ibdev, u32 port_num, u32 lid,
			     struct rdma_ah_attr *ah);

#endif /* _IBTRACE_ADDR_H */
