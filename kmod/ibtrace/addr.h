/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - what addr.c offers beside the address handles declared in
 * ibtrace.h: the choice of a port's source GID, which the RNR test's
 * loopback (rnr.c) makes too.
 */
#ifndef _IBTRACE_ADDR_H
#define _IBTRACE_ADDR_H

#include <rdma/ib_cache.h>

const struct ib_gid_attr *
ibtrace_best_gid(struct ib_device *ibdev, u32 port_num,
		 bool (*match)(const struct ib_gid_attr *attr, const void *arg),
		 const void *arg);

#endif /* _IBTRACE_ADDR_H */
