/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the perf test's wire (dapltest -T P): the private data of the
 * client's connection request (perf.c sends it through peer.c,
 * perf_server.c reads it) and the server's hello, the first and only
 * message it sends, which opens its buffer to the client.
 */
#ifndef _IBTRACE_PERF_H
#define _IBTRACE_PERF_H

#include <linux/types.h>

/* "IBTP" */
#define PERF_REQ_MAGIC		0x49425450
#define PERF_VERSION		1

/**
 * struct perf_req - private data of the client's connection request
 * @magic: %PERF_REQ_MAGIC
 * @version: %PERF_VERSION
 * @op: &enum ibtrace_perf_op: what the server opens its buffer to
 * @resv: zero
 * @bytes: bytes of the server's buffer (the operation's size)
 * @hold_ms: how long the client may need the connection
 * @resv2: zero
 *
 * 20 bytes, as the RNR service's request.
 */
struct perf_req {
	__be32 magic;
	u8 version;
	u8 op;
	u8 resv[2];
	__be32 bytes;
	__be32 hold_ms;
	__be32 resv2;
} __packed;

/* "IBTH" */
#define PERF_HELLO_MAGIC	0x49425448

/**
 * struct perf_hello - the server's message once connected
 * @magic: %PERF_HELLO_MAGIC
 * @version: %PERF_VERSION of the server
 * @resv: zero
 * @rkey: the remote key of its buffer
 * @addr: the buffer's address for the client's RDMA operations
 * @bytes: the buffer's length
 */
struct perf_hello {
	__be32 magic;
	u8 version;
	u8 resv[3];
	__be32 rkey;
	__be64 addr;
	__be32 bytes;
} __packed;

#endif /* _IBTRACE_PERF_H */
