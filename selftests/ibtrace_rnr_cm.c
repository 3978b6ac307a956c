// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_rnr_cm - a requester of the RNR responder's protocol, from user
 * space (librdmacm), for the responder's own tests: it opens N RC
 * connections to the responder with private data of a chosen kind (the
 * requester's, or one of the malformed ones a foreign client may send),
 * prints how each ended, keeps the established ones for a while and then
 * disconnects them.
 *
 *   ibtrace_rnr_cm [-p PORT] [-n N] [-H MS] [-W] [-k KIND] ADDRESS
 *
 * KIND: ok (code 12, default), none (no private data), short (the first
 * 8 bytes: the CM pads them with zeros), magic, version, code (32), flags
 * (an unknown flag), retry (rnr_retry 8); and of the perf test's service:
 * perf (an RDMA WRITE buffer of 4096 bytes), perf-version (version 2 of
 * its request), perf-op (an unknown operation); and of the quit service:
 * quit (ask the server to quit: with -W, it ends the connection when it
 * stops), quit-version (version 2 of its request).
 * Output: one line per connection, "conn I established" or "conn I
 * rejected status S" (S: the CM's reject reason) and, when an ibtrace
 * server said why, "reason: TEXT"; then "established E rejected R". With -W, the established connections are not closed by us:
 * it waits up to MS (-H) for the server to close them and prints
 * "disconnected D" (the server's stop). Exit 0 when every connection ended
 * one of those ways, 1 on any other error, 2 on usage errors.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#define MAX_CONNS	64
#define EVENT_MS	5000

/* The responder's request (Documentation/conformance.rst), big-endian. */
struct priv {
	uint32_t magic;
	uint8_t version;
	uint8_t code;
	uint8_t flags;
	uint8_t rnr_retry;
	uint32_t hold_ms;
} __attribute__((packed));

/* The perf service's request, the same size. */
struct perf_priv {
	uint32_t magic;
	uint8_t version;
	uint8_t op;
	uint8_t resv[2];
	uint32_t bytes;
	uint32_t hold_ms;
	uint32_t resv2;
} __attribute__((packed));

/* The quit service's request. */
struct quit_priv {
	uint32_t magic;
	uint8_t version;
	uint8_t resv[3];
} __attribute__((packed));

/* An ibtrace server's rejection (its private data). */
struct srv_rej {
	uint32_t magic;
	uint8_t version;
	uint8_t reason;
	uint8_t resv[2];
	char text[96];
} __attribute__((packed));

static struct rdma_event_channel *ch;
/* Private data of the newest event (at most 255 bytes). */
static uint8_t ev_priv[256];

/* The next CM event of @id, which must be @want; else a message. */
static int next_event(struct rdma_cm_id *id, enum rdma_cm_event_type want,
		      struct rdma_cm_event *copy)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	if (poll(&pfd, 1, EVENT_MS) != 1) {
		fprintf(stderr, "no CM event within %d ms (waiting for %s)\n",
			EVENT_MS, rdma_event_str(want));
		return -1;
	}
	if (rdma_get_cm_event(ch, &ev)) {
		perror("rdma_get_cm_event");
		return -1;
	}
	*copy = *ev;
	/* The event's private data goes with the ack: keep a copy. */
	if (ev->param.conn.private_data && ev->param.conn.private_data_len) {
		memcpy(ev_priv, ev->param.conn.private_data,
		       ev->param.conn.private_data_len);
		copy->param.conn.private_data = ev_priv;
	}
	rdma_ack_cm_event(ev);
	if (copy->id != id) {
		fprintf(stderr, "a CM event (%s) of another connection\n",
			rdma_event_str(copy->event));
		return -1;
	}
	if (want != RDMA_CM_EVENT_ESTABLISHED && copy->event != want) {
		fprintf(stderr, "CM event %s (status %d), not %s\n",
			rdma_event_str(copy->event), copy->status,
			rdma_event_str(want));
		return -1;
	}
	return 0;
}

/* Any request this client sends. */
union req {
	struct priv rnr;
	struct perf_priv perf;
	struct quit_priv quit;
};

static int make_perf_priv(const char *kind, struct perf_priv *p)
{
	struct perf_priv q = {
		.magic = htonl(0x49425450),
		.version = 1,
		.op = 1,
		.bytes = htonl(4096),
		.hold_ms = htonl(60000),
	};

	if (!strcmp(kind, "perf-version"))
		q.version = 2;
	else if (!strcmp(kind, "perf-op"))
		q.op = 2;
	else if (strcmp(kind, "perf"))
		return -1;
	*p = q;
	return 0;
}

static int make_priv(const char *kind, union req *r, uint8_t *len)
{
	struct priv *p = &r->rnr;

	if (!strncmp(kind, "perf", 4)) {
		*len = sizeof(r->perf);
		return make_perf_priv(kind, &r->perf);
	}
	if (!strncmp(kind, "quit", 4)) {
		r->quit = (struct quit_priv) {
			.magic = htonl(0x49425451),
			.version = strcmp(kind, "quit") ? 2 : 1,
		};
		*len = sizeof(r->quit);
		return strcmp(kind, "quit") && strcmp(kind, "quit-version") ? -1 : 0;
	}
	*p = (struct priv) {
		.magic = htonl(0x49425452),
		.version = 1,
		.code = 12,
		.rnr_retry = 1,
		.hold_ms = htonl(60000),
	};
	*len = sizeof(*p);
	if (!strcmp(kind, "ok"))
		return 0;
	if (!strcmp(kind, "none"))
		*len = 0;
	else if (!strcmp(kind, "short"))
		*len = 8;
	else if (!strcmp(kind, "magic"))
		p->magic = htonl(0x49425453);
	else if (!strcmp(kind, "version"))
		p->version = 2;
	else if (!strcmp(kind, "code"))
		p->code = 32;
	else if (!strcmp(kind, "flags"))
		p->flags = 0x80;
	else if (!strcmp(kind, "retry"))
		p->rnr_retry = 8;
	else
		return -1;
	return 0;
}

/* One connection; 1 established (kept in *out), 0 rejected, -1 error. */
static int connect_one(struct addrinfo *ai, const union req *p,
		       uint8_t len, struct rdma_cm_id **out)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct rdma_conn_param param = {
		.private_data = len ? p : NULL,
		.private_data_len = len,
		.retry_count = 7,
		.rnr_retry_count = 1,
	};
	const struct srv_rej *rej;
	struct rdma_cm_event ev;
	struct rdma_cm_id *id;

	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		perror("rdma_create_id");
		return -1;
	}
	if (rdma_resolve_addr(id, NULL, ai->ai_addr, 2000) ||
	    next_event(id, RDMA_CM_EVENT_ADDR_RESOLVED, &ev) ||
	    rdma_resolve_route(id, 2000) ||
	    next_event(id, RDMA_CM_EVENT_ROUTE_RESOLVED, &ev))
		goto err;
	if (rdma_create_qp(id, NULL, &qa)) {
		perror("rdma_create_qp");
		goto err;
	}
	if (rdma_connect(id, &param)) {
		perror("rdma_connect");
		goto err_qp;
	}
	if (next_event(id, RDMA_CM_EVENT_ESTABLISHED, &ev))
		goto err_qp;
	if (ev.event == RDMA_CM_EVENT_ESTABLISHED) {
		*out = id;
		return 1;
	}
	if (ev.event != RDMA_CM_EVENT_REJECTED) {
		fprintf(stderr, "CM event %s (status %d) after connecting\n",
			rdma_event_str(ev.event), ev.status);
		goto err_qp;
	}
	printf("rejected status %d\n", ev.status);
	rej = ev.param.conn.private_data;
	if (rej && ev.param.conn.private_data_len >= sizeof(*rej) &&
	    ntohl(rej->magic) == 0x49425452)
		printf("reason: %.*s\n", (int)sizeof(rej->text), rej->text);
	rdma_destroy_qp(id);
	rdma_destroy_id(id);
	return 0;

err_qp:
	rdma_destroy_qp(id);
err:
	rdma_destroy_id(id);
	return -1;
}

/* -W: count the DISCONNECTED events of @ids within @ms. */
static int wait_disconnects(struct rdma_cm_id **ids, int n, int ms)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int i, d = 0, est = 0;

	for (i = 0; i < n; i++)
		est += !!ids[i];
	while (d < est && poll(&pfd, 1, ms) == 1) {
		if (rdma_get_cm_event(ch, &ev)) {
			perror("rdma_get_cm_event");
			break;
		}
		for (i = 0; i < n; i++)
			if (ev->id == ids[i] &&
			    ev->event == RDMA_CM_EVENT_DISCONNECTED)
				d++;
		rdma_ack_cm_event(ev);
	}
	return d;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ibtrace_rnr_cm [-p PORT] [-n N] [-H MS] [-W] [-k ok|none|short|magic|version|code|flags|retry|perf|perf-version|perf-op|quit|quit-version] ADDRESS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM };
	struct rdma_cm_id *ids[MAX_CONNS] = { NULL };
	const char *port = "7471", *kind = "ok";
	int n = 1, hold_ms = 0, est = 0, rej = 0, rc = 0, opt, i, r;
	int wait_disc = 0;
	struct addrinfo *ai;
	struct rdma_cm_event ev;
	union req p;
	uint8_t len;

	while ((opt = getopt(argc, argv, "p:n:H:Wk:")) != -1) {
		switch (opt) {
		case 'p':
			port = optarg;
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 'H':
			hold_ms = atoi(optarg);
			break;
		case 'k':
			kind = optarg;
			break;
		case 'W':
			wait_disc = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || n < 1 || n > MAX_CONNS || hold_ms < 0 ||
	    make_priv(kind, &p, &len))
		usage();
	r = getaddrinfo(argv[optind], port, &hints, &ai);
	if (r) {
		fprintf(stderr, "%s: %s\n", argv[optind], gai_strerror(r));
		return 2;
	}
	ch = rdma_create_event_channel();
	if (!ch) {
		perror("rdma_create_event_channel");
		return 1;
	}
	for (i = 0; i < n; i++) {
		printf("conn %d ", i + 1);
		fflush(stdout);
		r = connect_one(ai, &p, len, &ids[i]);
		if (r < 0) {
			printf("error\n");
			rc = 1;
			break;
		}
		if (r)
			printf("established\n");
		est += r == 1;
		rej += r == 0;
	}
	printf("established %d rejected %d\n", est, rej);
	fflush(stdout);
	if (wait_disc) {
		printf("disconnected %d\n", wait_disconnects(ids, n, hold_ms));
		fflush(stdout);
	} else if (hold_ms) {
		usleep(hold_ms * 1000);
	}
	for (i = 0; i < n; i++) {
		if (!ids[i])
			continue;
		if (!wait_disc && !rdma_disconnect(ids[i]))
			next_event(ids[i], RDMA_CM_EVENT_DISCONNECTED, &ev);
		rdma_destroy_qp(ids[i]);
		rdma_destroy_id(ids[i]);
	}
	rdma_destroy_event_channel(ch);
	freeaddrinfo(ai);
	return rc;
}
