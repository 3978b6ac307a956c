/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - a test job's RDMA CM connection to the ibtrace server of a
 * peer host (peer.c): the RNR test's requester in peer mode, the perf
 * test's client. The server side is server.c and its services.
 */
#ifndef _IBTRACE_PEER_H
#define _IBTRACE_PEER_H

#include <linux/completion.h>
#include <linux/spinlock.h>
#include <rdma/rdma_cm.h>

#include "test.h"

/* What a test that talks to a peer's server needs (its def's .needs). */
#define IBTRACE_PEER_NEEDS \
	"an RC-capable port and a peer running the ibtrace server"

/*
 * Local ACK timeout of the server's QPs, and of the data tests' (perf,
 * txn: struct ibtrace_peer's @ack_timeout) unless the request gives one:
 * 4.096 us << 14 = 67 ms, perftest's default. The CM's own for RoCE is
 * 19 (2.1 s): one packet lost between two hosts stalled an RDMA test for
 * two seconds.
 */
#define IBTRACE_PEER_ACK_TIMEOUT	IBTRACE_TEST_DEF_ACK_TIMEOUT

/* Bytes of the server's acceptance (REP private data) kept. */
#define IBTRACE_PEER_REP_MAX	32

/**
 * struct ibtrace_peer - a test job's connection to a peer's server
 * @job: the job (set by the caller)
 * @qp_ready: optional (set by the caller): called once the QP exists and
 *	before the connection request leaves, e.g. to post a receive for
 *	the server's first message. Return: 0 or a negative errno.
 * @ack_timeout: optional (set by the caller): the QP's local ACK timeout
 *	(4.096 us << N), 0 for the CM's (from the path; 19 on RoCE)
 * @id: the RDMA CM ID while connected (or connecting)
 * @lock: protects @event, @ended_at, @status, @established, @remote_qpn,
 *	@rep and @rep_len (CM handler vs. job)
 * @done: completed by the CM handler at each event
 * @event: the newest CM event
 * @ended_at: when (jiffies) an event first ended the connection
 * @status: its status
 * @established: the connection was established (it may have ended since:
 *	@event is newer)
 * @remote_qpn: the server's QPN (from ESTABLISHED)
 * @ifindex: netdev the route went out of, 0 = unknown
 * @why: why the connection failed (verdict reason), when it did
 * @rej: the reason an ibtrace server gave for its rejection, or ""
 * @rep: the private data of the server's acceptance (zero padded)
 * @rep_len: its length as received (before truncation to @rep)
 */
struct ibtrace_peer {
	struct ibtrace_test_job *job;
	int (*qp_ready)(struct ibtrace_peer *p, struct ib_qp *qp);
	u8 ack_timeout;
	struct rdma_cm_id *id;
	spinlock_t lock;	/* protects event ... rep_len */
	struct completion done;
	enum rdma_cm_event_type event;
	unsigned long ended_at;
	int status;
	bool established;
	u32 remote_qpn;
	int ifindex;
	char why[IBTRACE_TEST_REASON_LEN];
	char rej[96];
	u8 rep[IBTRACE_PEER_REP_MAX];
	u8 rep_len;
};

int ibtrace_peer_connect(struct ibtrace_peer *p, struct ib_pd *pd,
			 struct ib_qp_init_attr *init,
			 struct rdma_conn_param *param,
			 struct ib_qp **qp);
void ibtrace_peer_disconnect(struct ibtrace_peer *p);
bool ibtrace_peer_lost(struct ibtrace_peer *p, const char *during);
bool ibtrace_peer_ended_for(struct ibtrace_peer *p, unsigned int ms);
int ibtrace_peer_wait_end(struct ibtrace_peer *p, unsigned int ms,
			  enum rdma_cm_event_type *event);

#endif /* _IBTRACE_PEER_H */
