// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the module's RDMA CM service, for peer hosts' tests.
 *
 * Nothing listens until an admin starts the server (SERVER_START, or the
 * module parameter "server" at load). Then one RDMA CM ID listens on the
 * chosen port of every address of init_net (TCP port space); a request
 * on a device the server does not serve, with private data of no known
 * service or of a version of its request the server does not speak,
 * asking for a hold over max-hold-ms or buffers over max-mem-kb, or beyond
 * max-conns connections is rejected, with the bound it hit named in the rejection's
 * private data (struct ibtrace_srv_rej), in the log and in a counter.
 *
 * A connection lives until the client disconnects, or its hold plus
 * %IBTRACE_SRV_SLACK_MS.
 *
 * A client may ask the server to quit (the "quit" service, dapltest -T
 * Q): from its acceptance on, the server refuses new connections, waits
 * for the ones it holds to end (each within its hold), then stops as
 * SERVER_STOP would and ends the quit's connection last, which tells the
 * client it happened. Connections are destroyed by a work item (never
 * in the CM handler, which must not destroy its own ID), at stop, at
 * module unload and at the CM's device removal event.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <asm/unaligned.h>
#include <rdma/ib.h>

#include "ibtrace.h"
#include "peer.h"
#include "server.h"
#include "test.h"

#define SRV_BACKLOG		16
/* Bytes of a SERVER_GET reply per connection, at most. */
#define SRV_CONN_MSG_SIZE	192

bool ibtrace_server_param;
module_param_named(server, ibtrace_server_param, bool, 0444);
MODULE_PARM_DESC(server,
		 "Start the RDMA CM server at load, on port rnr_responder_port of every device, default bounds (default: off)");

static const struct ibtrace_srv_service *const srv_services[] = {
	&ibtrace_srv_rnr,
	&ibtrace_srv_perf,
	&ibtrace_srv_quit,
	&ibtrace_srv_txn,
};

/* Serialises start, stop, show and unload. */
static DEFINE_MUTEX(srv_mutex);

/**
 * struct ibtrace_srv - the server
 * @listen: the listening ID, NULL when stopped; under srv_mutex
 * @wq: runs the reaps while started
 * @cfg: what it was started with; constant while @listen is set
 * @closed: the module is going; no start any more
 * @lock: protects @conns, @n, @stats and each connection's ->reaping
 * @conns: the connections held
 * @n: connections counted against max-conns (held or being set up)
 * @stats: counters since the start, by &enum ibtrace_server_stat_attr
 * @quitting: a client asked the server to quit; under @lock
 * @quit_peer: that client's address; under @lock
 * @quit_conn: its connection while held; under @lock
 * @quit_up: that connection is established; under @lock
 * @quit_work: stops the server once only @quit_conn is left (not on @wq,
 *	which the stop destroys)
 */
struct ibtrace_srv {
	struct rdma_cm_id *listen;
	struct workqueue_struct *wq;
	struct ibtrace_srv_cfg cfg;
	bool closed;
	spinlock_t lock;	/* protects conns, n, stats, ->reaping */
	struct list_head conns;
	u32 n;
	u64 stats[IBTRACE_SERVER_STAT_MAX + 1];
	bool quitting;
	union ib_gid quit_peer;
	struct ibtrace_srv_conn *quit_conn;
	bool quit_up;
	struct work_struct quit_work;
};

static void srv_quit_work(struct work_struct *work);

static struct ibtrace_srv srv = {
	.lock = __SPIN_LOCK_UNLOCKED(srv.lock),
	.conns = LIST_HEAD_INIT(srv.conns),
	.quit_work = __WORK_INITIALIZER(srv.quit_work, srv_quit_work),
};

static void srv_count(unsigned int stat)
{
	spin_lock(&srv.lock);
	srv.stats[stat]++;
	spin_unlock(&srv.lock);
}

/*
 * Everything of an accepted @conn. Its service's objects go first (they
 * need the CM ID), while a handler may still run: @svc_lock keeps the
 * service's established() off them; rdma_destroy_id() then waits for the
 * handler.
 */
static void srv_teardown(struct ibtrace_srv_conn *conn)
{
	mutex_lock(&conn->svc_lock);
	conn->svc->release(conn);
	kfree(conn->priv);
	conn->priv = NULL;
	conn->released = true;
	mutex_unlock(&conn->svc_lock);
	rdma_destroy_id(conn->id);
	mutex_destroy(&conn->svc_lock);
	kfree(conn);
}

/* @conn no longer counts (it is going, or was never accepted). */
static void srv_uncount(struct ibtrace_srv_conn *conn)
{
	lockdep_assert_held(&srv.lock);
	srv.n--;
	if (conn == srv.quit_conn)
		srv.quit_conn = NULL;
	if (srv.quitting)
		queue_work(system_unbound_wq, &srv.quit_work);
}

static void srv_reap(struct work_struct *work)
{
	struct ibtrace_srv_conn *conn =
		container_of(to_delayed_work(work), struct ibtrace_srv_conn,
			     reap);

	spin_lock(&srv.lock);
	if (conn->reaping) {
		/* The stop took it. */
		spin_unlock(&srv.lock);
		return;
	}
	conn->reaping = true;
	list_del(&conn->list);
	srv_uncount(conn);
	spin_unlock(&srv.lock);
	srv_teardown(conn);
}

/* Reap @conn now (disconnect, device removal); CM handler context. */
static void srv_reap_now(struct ibtrace_srv_conn *conn)
{
	spin_lock(&srv.lock);
	if (!conn->reaping)
		mod_delayed_work(srv.wq, &conn->reap, 0);
	spin_unlock(&srv.lock);
}

/* The connection is up: the service's first step, unless it is going. */
static void srv_established(struct ibtrace_srv_conn *conn)
{
	int err = 0;

	if (!conn->svc->established)
		return;
	mutex_lock(&conn->svc_lock);
	if (!conn->released)
		err = conn->svc->established(conn);
	mutex_unlock(&conn->svc_lock);
	if (err) {
		pr_info_ratelimited("server: %s connection from %pI6c: cannot start: %pe\n",
				    conn->svc->name, conn->peer.raw,
				    ERR_PTR(err));
		srv_reap_now(conn);
	}
}

/* The client's address as a GID (IPv4 mapped). */
static void srv_peer_gid(struct rdma_cm_id *id, union ib_gid *gid)
{
	const struct sockaddr *sa = (const void *)&id->route.addr.dst_addr;

	memset(gid, 0, sizeof(*gid));
	switch (sa->sa_family) {
	case AF_INET6:
		memcpy(gid->raw, &((const struct sockaddr_in6 *)sa)->sin6_addr,
		       sizeof(gid->raw));
		break;
	case AF_INET:
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)sa)->sin_addr.s_addr,
				       (struct in6_addr *)gid->raw);
		break;
	case AF_IB:
		memcpy(gid->raw, &((const struct sockaddr_ib *)sa)->sib_addr,
		       sizeof(gid->raw));
		break;
	}
}

/*
 * Reject @id, counting it under @stat, with @text (named bound) in the
 * private data and the log. Return: 1 (the CM destroys @id).
 */
static int srv_reject(struct rdma_cm_id *id, unsigned int stat,
		      const char *text)
{
	struct ibtrace_srv_rej rej = {
		.magic = cpu_to_be32(IBTRACE_SRV_REJ_MAGIC),
		.version = IBTRACE_SRV_REJ_VERSION,
		.reason = stat,
	};
	union ib_gid peer;

	srv_peer_gid(id, &peer);
	strscpy(rej.text, text, sizeof(rej.text));
	srv_count(stat);
	pr_info_ratelimited("server: request from %pI6c rejected: %s\n",
			    peer.raw, text);
	rdma_reject(id, &rej, sizeof(rej), IB_CM_REJ_CONSUMER_DEFINED);
	return 1;
}

/* The service whose magic starts @req, or NULL. */
static const struct ibtrace_srv_service *srv_service(const u8 *req)
{
	u32 magic = get_unaligned_be32(req);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(srv_services); i++)
		if (srv_services[i]->magic == magic)
			return srv_services[i];
	return NULL;
}

/*
 * Whether @conn's request (service found or not) is one the server
 * takes. Return: 0, or the counter of the refusal with its reason in
 * @text.
 */
static unsigned int srv_check(struct ibtrace_srv_conn *conn, char *text,
			      size_t len)
{
	const struct ibtrace_srv_cfg *cfg = &srv.cfg;
	const struct ibtrace_srv_service *svc = conn->svc;
	u8 version = conn->req[4];

	if (!svc) {
		strscpy(text, "not an ibtrace request (private data)", len);
		return IBTRACE_SERVER_STAT_REJ_FOREIGN;
	}
	if (version != svc->version) {
		snprintf(text, len,
			 "%s request version %u: this server speaks version %u",
			 svc->name, version, svc->version);
		return IBTRACE_SERVER_STAT_REJ_VERSION;
	}
	if (svc->check(conn)) {
		snprintf(text, len, "not a valid %s request (private data)",
			 svc->name);
		return IBTRACE_SERVER_STAT_REJ_FOREIGN;
	}
	if (conn->hold_ms > cfg->max_hold_ms) {
		snprintf(text, len, "hold %u ms over the server's max-hold-ms %u",
			 conn->hold_ms, cfg->max_hold_ms);
		return IBTRACE_SERVER_STAT_REJ_HOLD;
	}
	if (conn->mem > (u64)cfg->max_mem_kb * 1024) {
		snprintf(text, len,
			 "%llu KiB of buffers over the server's max-mem-kb %u",
			 DIV_ROUND_UP_ULL(conn->mem, 1024), cfg->max_mem_kb);
		return IBTRACE_SERVER_STAT_REJ_MEM;
	}
	return 0;
}

/*
 * Whether the server takes @conn now (checked): not while it quits, and
 * within max-conns, except the quit itself (one at most). If so, @conn
 * counts. srv.lock held. Return: 0, or the counter of the refusal with
 * its reason in @text.
 */
static unsigned int srv_admit(struct ibtrace_srv_conn *conn, char *text,
			      size_t len)
{
	const struct ibtrace_srv_cfg *cfg = &srv.cfg;

	lockdep_assert_held(&srv.lock);
	if (srv.quitting) {
		/* Short: the client's reason names the server before it. */
		snprintf(text, len, "quitting, as %pI6c asked",
			 srv.quit_peer.raw);
		return IBTRACE_SERVER_STAT_REJ_QUITTING;
	}
	if (conn->svc == &ibtrace_srv_quit) {
		srv.quitting = true;
		srv.quit_peer = conn->peer;
		srv.quit_conn = conn;
		srv.quit_up = false;
		/* Reaped only after every other hold (plus slack) ran out. */
		conn->hold_ms = cfg->max_hold_ms + IBTRACE_SRV_SLACK_MS;
	} else if (srv.n >= cfg->max_conns) {
		snprintf(text, len,
			 "the server holds max-conns %u connections already",
			 cfg->max_conns);
		return IBTRACE_SERVER_STAT_REJ_CONNS;
	}
	srv.n++;
	return 0;
}

/* Undo srv_admit() for a @conn that was not accepted: a quit never was. */
static void srv_unadmit(struct ibtrace_srv_conn *conn)
{
	lockdep_assert_held(&srv.lock);
	if (conn == srv.quit_conn)
		srv.quitting = false;
	srv_uncount(conn);
}

/* A new connection request on @id (a new ID). Non-zero: destroy @id. */
static int srv_request(struct rdma_cm_id *id, const struct rdma_cm_event *ev)
{
	const struct ibtrace_srv_cfg *cfg = &srv.cfg;
	struct rdma_conn_param param = {};
	struct ibtrace_srv_conn *conn;
	char text[IBTRACE_SRV_REJ_TEXT];
	unsigned int stat;
	int err;

	if (cfg->dev_only && id->device->index != cfg->dev_index) {
		snprintf(text, sizeof(text),
			 "device %s is not served (the server serves %s only)",
			 dev_name(&id->device->dev), cfg->dev_name);
		return srv_reject(id, IBTRACE_SERVER_STAT_REJ_DEV, text);
	}
	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		return srv_reject(id, IBTRACE_SERVER_STAT_REJ_ERROR,
				  "out of memory");
	if (ev->param.conn.private_data)
		memcpy(conn->req, ev->param.conn.private_data,
		       min_t(u8, ev->param.conn.private_data_len,
			     sizeof(conn->req)));
	conn->svc = srv_service(conn->req);
	srv_peer_gid(id, &conn->peer);
	stat = srv_check(conn, text, sizeof(text));
	if (stat) {
		kfree(conn);
		return srv_reject(id, stat, text);
	}
	conn->id = id;
	INIT_LIST_HEAD(&conn->list);
	INIT_DELAYED_WORK(&conn->reap, srv_reap);
	mutex_init(&conn->svc_lock);

	spin_lock(&srv.lock);
	stat = srv_admit(conn, text, sizeof(text));
	spin_unlock(&srv.lock);
	if (stat) {
		kfree(conn);
		return srv_reject(id, stat, text);
	}

	err = rdma_set_ack_timeout(id, IBTRACE_PEER_ACK_TIMEOUT);
	if (err) {
		snprintf(text, sizeof(text), "cannot set the ACK timeout: %pe",
			 ERR_PTR(err));
		goto err_uncount;
	}
	conn->priv = kzalloc(conn->svc->priv_size, GFP_KERNEL);
	err = conn->priv ? conn->svc->setup(conn, &param) : -ENOMEM;
	if (err) {
		snprintf(text, sizeof(text), "%s: cannot set up: %pe",
			 conn->svc->name, ERR_PTR(err));
		goto err_uncount;
	}
	id->context = conn;
	err = rdma_accept(id, &param);
	if (err) {
		/* rdma_accept() rejects itself when it fails. */
		id->context = NULL;
		conn->svc->release(conn);
		kfree(conn->priv);
		pr_info_ratelimited("server: cannot accept a %s request: %pe\n",
				    conn->svc->name, ERR_PTR(err));
		spin_lock(&srv.lock);
		srv_unadmit(conn);
		srv.stats[IBTRACE_SERVER_STAT_REJ_ERROR]++;
		spin_unlock(&srv.lock);
		kfree(conn);
		return 1;
	}

	conn->t_start = ktime_get_ns();
	spin_lock(&srv.lock);
	srv.stats[conn == srv.quit_conn ? IBTRACE_SERVER_STAT_QUITS :
		  IBTRACE_SERVER_STAT_ACCEPTED]++;
	list_add_tail(&conn->list, &srv.conns);
	queue_delayed_work(srv.wq, &conn->reap,
			   msecs_to_jiffies(conn->hold_ms + IBTRACE_SRV_SLACK_MS));
	spin_unlock(&srv.lock);
	return 0;

err_uncount:
	kfree(conn->priv);
	spin_lock(&srv.lock);
	srv_unadmit(conn);
	spin_unlock(&srv.lock);
	kfree(conn);
	return srv_reject(id, IBTRACE_SERVER_STAT_REJ_ERROR, text);
}

static int srv_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct ibtrace_srv_conn *conn = id->context;

	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return srv_request(id, ev);
	case RDMA_CM_EVENT_ESTABLISHED:
		if (conn)
			srv_established(conn);
		return 0;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/* The listener's context is NULL: nothing to do there. */
		if (conn)
			srv_reap_now(conn);
		return 0;
	default:
		return 0;
	}
}

/*
 * Stop listening, close every connection; @quit: as a client asked (else
 * an admin or the unload). srv_mutex held, started.
 */
static u32 __srv_stop(bool quit)
{
	struct ibtrace_srv_conn *conn;
	union ib_gid quit_peer;
	u32 closed = 0;

	/* No new connection after this; its handlers have returned. */
	rdma_destroy_id(srv.listen);
	srv.listen = NULL;
	for (;;) {
		spin_lock(&srv.lock);
		conn = list_first_entry_or_null(&srv.conns,
						struct ibtrace_srv_conn, list);
		if (conn) {
			conn->reaping = true;
			list_del(&conn->list);
			srv_uncount(conn);
		}
		spin_unlock(&srv.lock);
		if (!conn)
			break;
		cancel_delayed_work_sync(&conn->reap);
		/* The client hears of it (a DREQ), its QP goes to error. */
		rdma_disconnect(conn->id);
		srv_teardown(conn);
		closed++;
	}
	/* Reaps that were running finish here. */
	destroy_workqueue(srv.wq);
	srv.wq = NULL;
	spin_lock(&srv.lock);
	quit_peer = srv.quit_peer;
	srv.quitting = false;
	spin_unlock(&srv.lock);
	if (quit)
		pr_info("server quit (port %u), as %pI6c asked, %u connections closed\n",
			srv.cfg.port, quit_peer.raw, closed);
	else
		pr_info("server stopped (port %u), %u connections closed\n",
			srv.cfg.port, closed);
	return closed;
}

/* Only the quit's connection is left (or none); srv.lock held. */
static bool srv_quit_due(void)
{
	lockdep_assert_held(&srv.lock);
	if (!srv.quitting)
		return false;
	if (!srv.quit_conn)
		return srv.n == 0;
	return srv.n == 1 && srv.quit_up;
}

/* The stop a quit asked for, once its time has come. */
static void srv_quit_work(struct work_struct *work)
{
	bool due;

	mutex_lock(&srv_mutex);
	if (srv.listen) {
		spin_lock(&srv.lock);
		due = srv_quit_due();
		spin_unlock(&srv.lock);
		if (due)
			__srv_stop(true);
	}
	mutex_unlock(&srv_mutex);
}

/**
 * ibtrace_server_quit_state() - what a quit's acceptance tells its client
 * @running: the other connections the server holds or sets up
 * @bound_ms: they end within this, at the latest
 */
void ibtrace_server_quit_state(u32 *running, u32 *bound_ms)
{
	const struct ibtrace_srv_conn *c;
	u64 now = ktime_get_ns(), left, bound = 0;
	u32 listed = 0;

	spin_lock(&srv.lock);
	*running = srv.n - 1;
	list_for_each_entry(c, &srv.conns, list) {
		left = (u64)(c->hold_ms + IBTRACE_SRV_SLACK_MS) * NSEC_PER_MSEC;
		if (now - c->t_start < left)
			bound = max(bound, left - (now - c->t_start));
		listed++;
	}
	/* Those still being set up may hold the longest hold allowed. */
	if (*running > listed)
		bound = (u64)(srv.cfg.max_hold_ms + IBTRACE_SRV_SLACK_MS) *
			NSEC_PER_MSEC;
	spin_unlock(&srv.lock);
	*bound_ms = div_u64(bound + NSEC_PER_MSEC - 1, NSEC_PER_MSEC);
}

/**
 * ibtrace_server_quit_up() - the quit's connection is established
 * @conn: it
 *
 * The server stops now if nothing else runs, else once the rest ended.
 */
void ibtrace_server_quit_up(const struct ibtrace_srv_conn *conn)
{
	spin_lock(&srv.lock);
	if (conn == srv.quit_conn) {
		srv.quit_up = true;
		queue_work(system_unbound_wq, &srv.quit_work);
	}
	spin_unlock(&srv.lock);
}

/**
 * ibtrace_server_start() - start listening
 * @cfg: port, bounds, device
 * @extack: where to say why not
 *
 * Return: 0, -EBUSY (started already), -ENODEV (module going), or the
 * RDMA CM's error (-EADDRINUSE: the port is taken).
 */
int ibtrace_server_start(const struct ibtrace_srv_cfg *cfg,
			 struct netlink_ext_ack *extack)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
		.sin6_port = htons(cfg->port),
	};
	struct rdma_cm_id *id;
	int err;

	mutex_lock(&srv_mutex);
	if (srv.closed) {
		NL_SET_ERR_MSG(extack, "the ibtrace module is being unloaded");
		err = -ENODEV;
		goto out_unlock;
	}
	if (srv.listen) {
		NL_SET_ERR_MSG(extack,
			       "the server runs already (ibtracectl server show); stop it first");
		err = -EBUSY;
		goto out_unlock;
	}
	srv.wq = alloc_workqueue("ibtrace_server", WQ_UNBOUND, 0);
	if (!srv.wq) {
		err = -ENOMEM;
		goto out_unlock;
	}
	srv.cfg = *cfg;
	spin_lock(&srv.lock);
	memset(srv.stats, 0, sizeof(srv.stats));
	spin_unlock(&srv.lock);
	id = rdma_create_id(&init_net, srv_handler, NULL, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		err = PTR_ERR(id);
		goto err_wq;
	}
	err = rdma_bind_addr(id, (struct sockaddr *)&sin6);
	if (!err)
		err = rdma_listen(id, SRV_BACKLOG);
	if (err) {
		if (err == -EADDRINUSE)
			NL_SET_ERR_MSG(extack,
				       "the RDMA CM port is in use (another listener)");
		else
			NL_SET_ERR_MSG(extack, "cannot listen on the RDMA CM port");
		goto err_id;
	}
	srv.listen = id;
	pr_info("server listening on RDMA CM port %u (%s%s), max-conns %u, max-hold-ms %u, max-mem-kb %u\n",
		cfg->port, cfg->dev_only ? "device " : "every device",
		cfg->dev_only ? cfg->dev_name : "", cfg->max_conns,
		cfg->max_hold_ms, cfg->max_mem_kb);
	mutex_unlock(&srv_mutex);
	return 0;

err_id:
	rdma_destroy_id(id);
err_wq:
	destroy_workqueue(srv.wq);
	srv.wq = NULL;
	pr_info("server: cannot listen on RDMA CM port %u: %pe\n", cfg->port,
		ERR_PTR(err));
out_unlock:
	mutex_unlock(&srv_mutex);
	return err;
}

/**
 * ibtrace_server_stop() - stop listening and close every connection
 * @closed: the connections closed
 *
 * Return: 0, or -ENOENT when the server does not run.
 */
int ibtrace_server_stop(u32 *closed)
{
	int err = 0;

	mutex_lock(&srv_mutex);
	if (srv.listen)
		*closed = __srv_stop(false);
	else
		err = -ENOENT;
	mutex_unlock(&srv_mutex);
	return err;
}

/**
 * ibtrace_server_msg_size() - room for a SERVER_GET reply
 *
 * Return: bytes, for the connections that may be held.
 */
size_t ibtrace_server_msg_size(void)
{
	u32 max;

	mutex_lock(&srv_mutex);
	max = srv.listen ? srv.cfg.max_conns : 0;
	mutex_unlock(&srv_mutex);
	return NLMSG_GOODSIZE + (size_t)max * SRV_CONN_MSG_SIZE;
}

static int srv_fill_conn(struct sk_buff *skb,
			 const struct ibtrace_srv_conn *conn, u64 now)
{
	struct ib_device *ibdev = conn->id->device;
	struct nlattr *nest;

	nest = nla_nest_start(skb, IBTRACE_A_SERVER_CONN);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, IBTRACE_SERVER_CONN_A_SERVICE,
			   conn->svc->name) ||
	    nla_put(skb, IBTRACE_SERVER_CONN_A_PEER_GID, sizeof(conn->peer.raw),
		    conn->peer.raw) ||
	    nla_put_string(skb, IBTRACE_SERVER_CONN_A_DEV_NAME,
			   dev_name(&ibdev->dev)) ||
	    nla_put_u32(skb, IBTRACE_SERVER_CONN_A_PORT, conn->id->port_num) ||
	    nla_put_u32(skb, IBTRACE_SERVER_CONN_A_AGE_MS,
			(u32)min_t(u64, div_u64(now - conn->t_start,
						NSEC_PER_MSEC), U32_MAX)) ||
	    nla_put_u32(skb, IBTRACE_SERVER_CONN_A_HOLD_MS, conn->hold_ms) ||
	    (conn->svc->fill && conn->svc->fill(skb, conn))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int srv_fill_stats(struct sk_buff *skb)
{
	struct nlattr *nest;
	unsigned int i;

	nest = nla_nest_start(skb, IBTRACE_A_SERVER_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = IBTRACE_SERVER_STAT_ACCEPTED; i <= IBTRACE_SERVER_STAT_MAX;
	     i++)
		if (nla_put_u64_64bit(skb, i, srv.stats[i],
				      IBTRACE_SERVER_STAT_PAD)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * ibtrace_server_fill() - the server's state into a message
 * @skb: the message (header put)
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibtrace_server_fill(struct sk_buff *skb)
{
	const struct ibtrace_srv_cfg *cfg = &srv.cfg;
	struct ibtrace_srv_conn *conn;
	struct in6_addr any = IN6ADDR_ANY_INIT;
	u64 now = ktime_get_ns();
	int err = 0;

	mutex_lock(&srv_mutex);
	if (nla_put_u8(skb, IBTRACE_A_SERVER_RUNNING, !!srv.listen)) {
		err = -EMSGSIZE;
		goto out_unlock;
	}
	if (!srv.listen)
		goto out_unlock;
	if (nla_put(skb, IBTRACE_A_SERVER_ADDR, sizeof(any), &any) ||
	    nla_put_u16(skb, IBTRACE_A_SERVER_PORT, cfg->port) ||
	    nla_put_u32(skb, IBTRACE_A_SERVER_MAX_CONNS, cfg->max_conns) ||
	    nla_put_u32(skb, IBTRACE_A_SERVER_MAX_HOLD_MS, cfg->max_hold_ms) ||
	    nla_put_u32(skb, IBTRACE_A_SERVER_MAX_MEM_KB, cfg->max_mem_kb) ||
	    (cfg->dev_only &&
	     (nla_put_u32(skb, IBTRACE_A_DEV_INDEX, cfg->dev_index) ||
	      nla_put_string(skb, IBTRACE_A_DEV_NAME, cfg->dev_name)))) {
		err = -EMSGSIZE;
		goto out_unlock;
	}
	spin_lock(&srv.lock);
	if (nla_put_u32(skb, IBTRACE_A_SERVER_CONNS, srv.n) ||
	    srv_fill_stats(skb) ||
	    (srv.quitting &&
	     (nla_put_u8(skb, IBTRACE_A_SERVER_QUITTING, 1) ||
	      nla_put(skb, IBTRACE_A_SERVER_QUIT_PEER,
		      sizeof(srv.quit_peer.raw), srv.quit_peer.raw))))
		err = -EMSGSIZE;
	list_for_each_entry(conn, &srv.conns, list) {
		if (err)
			break;
		err = srv_fill_conn(skb, conn, now);
	}
	spin_unlock(&srv.lock);
out_unlock:
	mutex_unlock(&srv_mutex);
	return err;
}

/**
 * ibtrace_server_init() - start the server at load if "server" is set
 *
 * Return: 0 or a negative errno.
 */
int ibtrace_server_init(void)
{
	struct ibtrace_srv_cfg cfg = {
		.port = ibtrace_rnr_responder_port,
		.max_conns = IBTRACE_SERVER_DEF_CONNS,
		.max_hold_ms = IBTRACE_SERVER_DEF_HOLD_MS,
		.max_mem_kb = IBTRACE_SERVER_DEF_MEM_KB,
	};

	if (!ibtrace_server_param)
		return 0;
	if (!cfg.port) {
		pr_err("server=1 needs a port: rnr_responder_port is 0\n");
		return -EINVAL;
	}
	return ibtrace_server_start(&cfg, NULL);
}

/**
 * ibtrace_server_exit() - stop the server for good (module unload)
 */
void ibtrace_server_exit(void)
{
	mutex_lock(&srv_mutex);
	srv.closed = true;
	if (srv.listen)
		__srv_stop(false);
	mutex_unlock(&srv_mutex);
	/* Queued by a reap before the stop: it finds nothing to do. */
	cancel_work_sync(&srv.quit_work);
}
