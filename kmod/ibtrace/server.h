/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the module's RDMA CM service (server.c): off until an admin
 * starts it (IBTRACE_CMD_SERVER_START, or the module parameter "server"),
 * bounded in connections and hold time. A connection request names its
 * service by the first four bytes of its private data and the version of
 * its request by the fifth: the RNR test's responder (rnr_responder.c),
 * the perf test's buffer (perf_server.c) and a client's request that
 * the server quit (server_quit.c). A new kind of test adds a
 * struct ibtrace_srv_service, not a second listener.
 */
#ifndef _IBTRACE_SERVER_H
#define _IBTRACE_SERVER_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>

/* Private data of a REQ in the TCP port space: 56 bytes, the rest CMA's. */
#define IBTRACE_SRV_REQ_MAX	56
/* A connection is closed at most its hold plus this. */
#define IBTRACE_SRV_SLACK_MS	10000
/* Room for the reason of a rejection (REJ private data: 148 bytes). */
#define IBTRACE_SRV_REJ_TEXT	96
/* "IBTR": the rejection's magic, that of the RNR service's request too. */
#define IBTRACE_SRV_REJ_MAGIC	0x49425452
#define IBTRACE_SRV_REJ_VERSION	1

/**
 * struct ibtrace_srv_rej - private data of a rejection by the server
 * @magic: %IBTRACE_SRV_REJ_MAGIC
 * @version: %IBTRACE_SRV_REJ_VERSION
 * @reason: &enum ibtrace_server_stat_attr of the counter it went to
 * @resv: zero
 * @text: why, a NUL-terminated sentence naming the bound refused
 */
struct ibtrace_srv_rej {
	__be32 magic;
	u8 version;
	u8 reason;
	u8 resv[2];
	char text[IBTRACE_SRV_REJ_TEXT];
} __packed;

struct ibtrace_srv_conn;

/**
 * struct ibtrace_srv_service - what a kind of connection does
 * @name: shown by SERVER_GET ("rnr")
 * @magic: first four bytes (big endian) of its requests' private data
 * @version: the request's version this server speaks (the fifth byte of
 *	its private data); another version is rejected, both named
 * @check: whether @conn->req is a valid request; sets @conn->hold_ms, the
 *	time the client may need the connection, and @conn->mem, the bytes
 *	of buffers it asks for. Return: 0 or -EINVAL.
 * @setup: build the connection's verbs objects in @conn->priv (GFP_KERNEL,
 *	may sleep) and fill in @param for the accept. Return: 0 or a
 *	negative errno, with nothing left to release.
 * @established: optional: the connection is up (CM handler context, may
 *	sleep): e.g. send the client its first message. Return: 0, or a
 *	negative errno to close the connection.
 * @release: free what @setup built (before the CM ID goes)
 * @fill: optional: the service's attributes of a connection (in an
 *	%IBTRACE_A_SERVER_CONN nest), under the server's spinlock
 * @priv_size: bytes of a connection's state (@conn->priv): the server
 *	allocates it zeroed before @setup and frees it after @release or a
 *	failed @setup
 */
struct ibtrace_srv_service {
	const char *name;
	u32 magic;
	u8 version;
	int (*check)(struct ibtrace_srv_conn *conn);
	int (*setup)(struct ibtrace_srv_conn *conn,
		     struct rdma_conn_param *param);
	int (*established)(struct ibtrace_srv_conn *conn);
	void (*release)(struct ibtrace_srv_conn *conn);
	int (*fill)(struct sk_buff *skb, const struct ibtrace_srv_conn *conn);
	size_t priv_size;
};

/**
 * struct ibtrace_srv_conn - one connection the server holds
 * @list: entry in the server's list
 * @id: its RDMA CM ID
 * @svc: its service
 * @req: the private data of its request (zero padded)
 * @peer: the client's address as a GID
 * @t_start: ktime_get_ns() at the accept
 * @hold_ms: the hold the client asked for
 * @mem: bytes of buffers the client asked for
 * @priv: the service's state (&ibtrace_srv_service.priv_size bytes)
 * @reap: destroys the connection (disconnect, expiry, device removal)
 * @reaping: being destroyed; under the server's lock
 * @svc_lock: serialises the service's @established with its @release
 * @released: the service's objects are gone; under @svc_lock
 */
struct ibtrace_srv_conn {
	struct list_head list;
	struct rdma_cm_id *id;
	const struct ibtrace_srv_service *svc;
	u8 req[IBTRACE_SRV_REQ_MAX];
	union ib_gid peer;
	u64 t_start;
	u32 hold_ms;
	u64 mem;
	void *priv;
	struct delayed_work reap;
	bool reaping;
	struct mutex svc_lock;	/* established vs. release */
	bool released;
};

/**
 * struct ibtrace_srv_cfg - what SERVER_START asks for
 * @port: RDMA CM port
 * @max_conns: connections at once
 * @max_hold_ms: longest hold a client may ask for
 * @max_mem_kb: most buffer memory a connection may ask for, KiB
 * @dev_index: the only device served, when @dev_only
 * @dev_only: serve one device only
 * @dev_name: its name
 */
struct ibtrace_srv_cfg {
	u16 port;
	u32 max_conns;
	u32 max_hold_ms;
	u32 max_mem_kb;
	u32 dev_index;
	bool dev_only;
	char dev_name[IB_DEVICE_NAME_MAX];
};

/* rnr_responder.c */
extern const struct ibtrace_srv_service ibtrace_srv_rnr;

/* perf_server.c */
extern const struct ibtrace_srv_service ibtrace_srv_perf;

/* server_quit.c */
extern const struct ibtrace_srv_service ibtrace_srv_quit;

/* txn_server.c */
extern const struct ibtrace_srv_service ibtrace_srv_txn;

/* server.c */
extern bool ibtrace_server_param;
int ibtrace_server_start(const struct ibtrace_srv_cfg *cfg,
			 struct netlink_ext_ack *extack);
int ibtrace_server_stop(u32 *closed);
int ibtrace_server_fill(struct sk_buff *skb);
size_t ibtrace_server_msg_size(void);
void ibtrace_server_quit_state(u32 *running, u32 *bound_ms);
void ibtrace_server_quit_up(const struct ibtrace_srv_conn *conn);
int ibtrace_server_init(void);
void ibtrace_server_exit(void);

#endif /* _IBTRACE_SERVER_H */
