/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the transaction test's wire (dapltest -T T): the private data
 * of the client's connection request (txn.c sends it through peer.c, the
 * server's "txn" service, txn_server.c, reads it), the client's first SEND
 * (the operations, its buffer), the server's answer (its buffer), the
 * message of each validation SEND and the server's report at the end.
 *
 * Each side has one registered region (region.c) that holds the buffer of
 * every operation, at offsets both sides compute from the operation list
 * alone (txn_seq.c).
 */
#ifndef _IBTRACE_TXN_H
#define _IBTRACE_TXN_H

#include <linux/types.h>
#include <uapi/linux/ibtrace.h>

/* "IBTX" */
#define TXN_REQ_MAGIC		0x49425458
/* "IBTS" */
#define TXN_SETUP_MAGIC		0x49425453
/* "IBTK" */
#define TXN_ACK_MAGIC		0x4942544b
#define TXN_VERSION		1

/* txn_req.flags, txn_setup.flags */
#define TXN_F_VALIDATE		0x01

/**
 * struct txn_req - private data of the client's connection request
 * @magic: %TXN_REQ_MAGIC
 * @version: %TXN_VERSION
 * @flags: %TXN_F_VALIDATE
 * @n_ops: operations in the sequence (without the validation appends)
 * @resv: zero
 * @hold_ms: how long the client may need the connection
 * @bytes: bytes of the server's region (for its max-mem-kb)
 * @thread: the client's thread of this endpoint
 * @ep: the endpoint within that thread
 */
struct txn_req {
	__be32 magic;
	u8 version;
	u8 flags;
	u8 n_ops;
	u8 resv;
	__be32 hold_ms;
	__be32 bytes;
	__be16 thread;
	__be16 ep;
} __packed;

/**
 * struct txn_op_wire - one operation
 * @who_type: &enum ibtrace_txn_who << 4 | &enum ibtrace_txn_type
 * @flags: bit 0: reap the SEND with the next receive (-f)
 * @segs: segments
 * @resv: zero
 * @seg_size: bytes of a segment
 */
struct txn_op_wire {
	u8 who_type;
	u8 flags;
	u8 segs;
	u8 resv;
	__be32 seg_size;
} __packed;

/**
 * struct txn_buf - a side's region
 * @addr: its address for the other side's RDMA operations
 * @rkey: its remote key
 * @bytes: its length
 */
struct txn_buf {
	__be64 addr;
	__be32 rkey;
	__be32 bytes;
} __packed;

/**
 * struct txn_setup - the client's first SEND
 * @magic: %TXN_SETUP_MAGIC
 * @version: %TXN_VERSION
 * @n_ops: entries of @ops (as in the request; the validation appends are
 *	not sent: both sides add them)
 * @flags: %TXN_F_VALIDATE
 * @resv: zero
 * @iterations: times the sequence runs
 * @corrupt: negative control: 1 + the offset of the byte the server
 *	flips once in its first sent buffer; 0 = none
 * @buf: the client's region
 * @ops: the sequence
 */
struct txn_setup {
	__be32 magic;
	u8 version;
	u8 n_ops;
	u8 flags;
	u8 resv;
	__be32 iterations;
	__be32 corrupt;
	struct txn_buf buf;
	struct txn_op_wire ops[IBTRACE_TEST_TXN_MAX_OPS];
} __packed;

/**
 * struct txn_setup_ack - the server's answer to &struct txn_setup
 * @magic: %TXN_ACK_MAGIC
 * @version: %TXN_VERSION of the server
 * @resv: zero
 * @status: 0, or a negative errno (big endian) when the server cannot run
 *	the sequence (then it disconnects)
 * @buf: the server's region
 */
struct txn_setup_ack {
	__be32 magic;
	u8 version;
	u8 resv[3];
	__be32 status;
	struct txn_buf buf;
} __packed;

/**
 * struct txn_check_wire - what a side's checks of the data found
 * @mismatches: bytes that did not match
 * @iteration: the first one's iteration (with @mismatches)
 * @op: its operation
 * @offset: its offset in that operation's buffer
 * @expected: the byte expected
 * @observed: the byte found
 * @resv: zero
 */
struct txn_check_wire {
	__be64 mismatches;
	__be32 iteration;
	__be32 op;
	__be32 offset;
	u8 expected;
	u8 observed;
	u8 resv[2];
} __packed;

/* "IBTV" */
#define TXN_SYNC_MAGIC		0x49425456

/**
 * struct txn_sync - the message of a validation SEND (its buffer's content)
 * @magic: %TXN_SYNC_MAGIC
 * @iteration: the sender's iteration
 * @check: the sender's checks so far (the server's, in its SEND)
 */
struct txn_sync {
	__be32 magic;
	__be32 iteration;
	struct txn_check_wire check;
} __packed;

/* "IBTE" */
#define TXN_REPORT_MAGIC	0x49425445

/**
 * struct txn_report - the server's last SEND, after its last iteration
 * @magic: %TXN_REPORT_MAGIC
 * @iterations: iterations it completed
 * @ops: its operations completed successfully (those of the sequence)
 * @bytes: bytes they moved
 * @errors: its completions in error
 * @wc_status: the first one's &enum ib_wc_status
 * @check: its checks of the data
 */
struct txn_report {
	__be32 magic;
	__be32 iterations;
	__be64 ops;
	__be64 bytes;
	__be64 errors;
	__be32 wc_status;
	struct txn_check_wire check;
} __packed;

#endif /* _IBTRACE_TXN_H */
