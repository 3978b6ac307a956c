// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim_ctl - minimal raw generic netlink client of the ibtrace_sim
 * family, for the selftests (the user tool is ibtracectl).
 *
 *   ibtrace_sim_ctl add NAME FILE [no-sm]
 *                                   create fabric NAME from topology FILE
 *                                   (no-sm: without SM-lite)
 *   ibtrace_sim_ctl del NAME        destroy it
 *   ibtrace_sim_ctl show [NAME]     fabric summaries
 *   ibtrace_sim_ctl nodes [NAME]    one line per node
 *   ibtrace_sim_ctl nodes-del NAME  the node dump of every fabric, with
 *                                   fabric NAME deleted (from another
 *                                   socket) after the dump's first part:
 *                                   a deterministic change in mid-dump
 *
 * Errors: "Error: <extack>" (and "line N: <reason>" for topology errors)
 * on stderr, exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>

#include "../uapi/linux/ibtrace_sim.h"

#define CHUNK	32768

static int fd;
static unsigned int seq = 1;
static char rbuf[1 << 17];

struct msg {
	struct nlmsghdr *nlh;
	size_t cap;
};

static void put_attr(struct msg *m, unsigned short type, const void *data,
		     size_t len)
{
	size_t need = NLMSG_ALIGN(m->nlh->nlmsg_len) + NLA_HDRLEN + NLA_ALIGN(len);
	struct nlattr *nla;

	if (need > m->cap) {
		m->cap = need * 2;
		m->nlh = realloc(m->nlh, m->cap);
		if (!m->nlh) {
			perror("realloc");
			exit(1);
		}
	}
	nla = (struct nlattr *)((char *)m->nlh + NLMSG_ALIGN(m->nlh->nlmsg_len));
	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	memcpy((char *)nla + NLA_HDRLEN, data, len);
	memset((char *)nla + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	m->nlh->nlmsg_len = need;
}

static void msg_init(struct msg *m, unsigned short family, unsigned char cmd,
		     unsigned short flags)
{
	struct genlmsghdr *g;

	m->cap = 4096;
	m->nlh = calloc(1, m->cap);
	if (!m->nlh) {
		perror("calloc");
		exit(1);
	}
	m->nlh->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->nlh->nlmsg_type = family;
	m->nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->nlh->nlmsg_seq = seq++;
	g = NLMSG_DATA(m->nlh);
	g->cmd = cmd;
	g->version = 1;
}

static void msg_send(struct msg *m)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(fd, m->nlh, m->nlh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		perror("sendto");
		exit(1);
	}
	free(m->nlh);
}

#define for_each_attr(nla, start, len)					\
	for (nla = (struct nlattr *)(start);				\
	     (char *)nla + NLA_HDRLEN <= (char *)(start) + (len) &&	\
	     nla->nla_len >= NLA_HDRLEN;				\
	     nla = (struct nlattr *)((char *)nla + NLA_ALIGN(nla->nla_len)))

#define ATTR_DATA(nla)	((void *)((char *)(nla) + NLA_HDRLEN))
#define ATTR_U32(nla)	(*(unsigned int *)ATTR_DATA(nla))
#define ATTR_U8(nla)	(*(unsigned char *)ATTR_DATA(nla))
#define ATTR_U64(nla)	(*(unsigned long long *)ATTR_DATA(nla))

typedef void (*msg_cb)(struct nlmsghdr *nlh, void *arg);

/* Read until the ACK (or DONE); returns 0 or -errno after printing it. */
static int recv_all(msg_cb cb, void *arg)
{
	for (;;) {
		ssize_t n = recv(fd, rbuf, sizeof(rbuf), 0);
		struct nlmsghdr *nlh;

		if (n < 0) {
			perror("recv");
			exit(1);
		}
		for (nlh = (struct nlmsghdr *)rbuf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_type == NLMSG_DONE)
				return 0;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nlh);
				struct nlattr *nla;
				size_t off;

				if (!e->error)
					return 0;
				off = sizeof(*e);
				if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
					off += e->msg.nlmsg_len - NLMSG_HDRLEN;
				fprintf(stderr, "Error: ");
				for_each_attr(nla, (char *)e + off,
					      nlh->nlmsg_len - NLMSG_HDRLEN - off)
					if (nla->nla_type == NLMSGERR_ATTR_MSG)
						fprintf(stderr, "%s: ",
							(char *)ATTR_DATA(nla));
				fprintf(stderr, "%s\n", strerror(-e->error));
				return e->error;
			}
			if (cb)
				cb(nlh, arg);
		}
	}
}

static void family_cb(struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *g = NLMSG_DATA(nlh);
	struct nlattr *nla;

	for_each_attr(nla, (char *)g + GENL_HDRLEN,
		      nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN))
		if (nla->nla_type == CTRL_ATTR_FAMILY_ID)
			*(unsigned short *)arg = *(unsigned short *)ATTR_DATA(nla);
}

static unsigned short resolve_family(void)
{
	unsigned short id = 0;
	struct msg m;

	msg_init(&m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	put_attr(&m, CTRL_ATTR_FAMILY_NAME, IBTRACE_SIM_GENL_NAME,
		 sizeof(IBTRACE_SIM_GENL_NAME));
	msg_send(&m);
	if (recv_all(family_cb, &id) || !id) {
		fprintf(stderr, "family %s not found (module not loaded?)\n",
			IBTRACE_SIM_GENL_NAME);
		exit(3);
	}
	return id;
}

static const char *const state_names[] = {
	"NOP", "Down", "Init", "Armed", "Active",
};

/*
 * FABRIC_ADD answers at once (BUILDING) and notifies the end of the
 * build later: a FABRIC_ADD without BUILDING, or a TOPO_ERROR.
 */
static int building, build_done, build_failed;

static void print_cb(struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *g = NLMSG_DATA(nlh);
	size_t len = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	struct nlattr *nla, *p;

	(void)arg;
	if (g->cmd == IBTRACE_SIM_CMD_FABRIC_ADD) {
		for_each_attr(nla, (char *)g + GENL_HDRLEN, len)
			if (nla->nla_type == IBTRACE_SIM_A_BUILDING &&
			    ATTR_U8(nla)) {
				building = 1;
				return;
			}
		build_done = 1;
	}
	if (g->cmd == IBTRACE_SIM_CMD_TOPO_ERROR && !nlh->nlmsg_seq) {
		build_done = 1;
		build_failed = 1;
	}
	if (g->cmd == IBTRACE_SIM_CMD_TOPO_ERROR) {
		unsigned int line = 0;
		const char *why = "?";

		for_each_attr(nla, (char *)g + GENL_HDRLEN, len) {
			if (nla->nla_type == IBTRACE_SIM_A_ERR_LINE)
				line = ATTR_U32(nla);
			else if (nla->nla_type == IBTRACE_SIM_A_ERR_MSG)
				why = ATTR_DATA(nla);
		}
		fprintf(stderr, "line %u: %s\n", line, why);
		return;
	}
	if (g->cmd == IBTRACE_SIM_CMD_NODE_GET) {
		printf("node");
		for_each_attr(nla, (char *)g + GENL_HDRLEN, len) {
			switch (nla->nla_type & NLA_TYPE_MASK) {
			case IBTRACE_SIM_A_FABRIC_NAME:
				printf(" fabric %s", (char *)ATTR_DATA(nla));
				break;
			case IBTRACE_SIM_A_NODE_INDEX:
				printf(" index %u", ATTR_U32(nla));
				break;
			case IBTRACE_SIM_A_NODE_TYPE:
				printf(" type %s", ATTR_U8(nla) == 1 ? "ca" : "switch");
				break;
			case IBTRACE_SIM_A_NODE_NAME:
				printf(" name \"%s\"", (char *)ATTR_DATA(nla));
				break;
			case IBTRACE_SIM_A_NODE_GUID:
				printf(" guid 0x%016llx", ATTR_U64(nla));
				break;
			case IBTRACE_SIM_A_DEV_NAME:
				printf(" dev %s", (char *)ATTR_DATA(nla));
				break;
			case IBTRACE_SIM_A_PORT:
				printf(" port");
				for_each_attr(p, ATTR_DATA(nla),
					      nla->nla_len - NLA_HDRLEN) {
					switch (p->nla_type & NLA_TYPE_MASK) {
					case IBTRACE_SIM_PORT_A_NUM:
						printf(" %u", ATTR_U32(p));
						break;
					case IBTRACE_SIM_PORT_A_GUID:
						printf(" guid 0x%016llx", ATTR_U64(p));
						break;
					case IBTRACE_SIM_PORT_A_LID:
						printf(" lid %u", ATTR_U32(p));
						break;
					case IBTRACE_SIM_PORT_A_STATE:
						printf(" state %s", ATTR_U8(p) < 5 ?
						       state_names[ATTR_U8(p)] : "?");
						break;
					case IBTRACE_SIM_PORT_A_PEER_NODE:
						printf(" peer %u", ATTR_U32(p));
						break;
					case IBTRACE_SIM_PORT_A_PEER_PORT:
						printf("/%u", ATTR_U32(p));
						break;
					case IBTRACE_SIM_PORT_A_RX_PKTS:
						printf(" rx %llu", ATTR_U64(p));
						break;
					case IBTRACE_SIM_PORT_A_TX_PKTS:
						printf(" tx %llu", ATTR_U64(p));
						break;
					case IBTRACE_SIM_PORT_A_DROPS:
						printf(" drops %llu", ATTR_U64(p));
						break;
					}
				}
				break;
			}
		}
		printf("\n");
		return;
	}
	printf("fabric");
	for_each_attr(nla, (char *)g + GENL_HDRLEN, len) {
		switch (nla->nla_type & NLA_TYPE_MASK) {
		case IBTRACE_SIM_A_FABRIC_NAME:
			printf(" %s", (char *)ATTR_DATA(nla));
			break;
		case IBTRACE_SIM_A_NUM_NODES:
			printf(" nodes %u", ATTR_U32(nla));
			break;
		case IBTRACE_SIM_A_NUM_CAS:
			printf(" cas %u", ATTR_U32(nla));
			break;
		case IBTRACE_SIM_A_NUM_SWITCHES:
			printf(" switches %u", ATTR_U32(nla));
			break;
		case IBTRACE_SIM_A_NUM_LINKS:
			printf(" links %u", ATTR_U32(nla));
			break;
		}
	}
	printf("\n");
}

/*
 * Dump every node; after the first part of the dump, delete fabric
 * @victim from a second socket; then read the rest. Exit 2 if the dump
 * had only one part (nothing tested).
 */
static int nodes_del(unsigned short fam, const char *victim)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, dump_fd = fd, ret;
	struct nlmsghdr *nlh;
	struct msg m;
	ssize_t n;

	msg_init(&m, fam, IBTRACE_SIM_CMD_NODE_GET, NLM_F_DUMP);
	msg_send(&m);
	n = recv(fd, rbuf, sizeof(rbuf), 0);
	if (n < 0) {
		perror("recv");
		return 1;
	}
	for (nlh = (struct nlmsghdr *)rbuf; NLMSG_OK(nlh, n);
	     nlh = NLMSG_NEXT(nlh, n)) {
		if (nlh->nlmsg_type == NLMSG_DONE ||
		    nlh->nlmsg_type == NLMSG_ERROR) {
			fprintf(stderr, "nodes-del: the dump had one part\n");
			return 2;
		}
		print_cb(nlh, NULL);
	}

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("netlink");
		return 1;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	msg_init(&m, fam, IBTRACE_SIM_CMD_FABRIC_DEL, 0);
	put_attr(&m, IBTRACE_SIM_A_FABRIC_NAME, victim, strlen(victim) + 1);
	msg_send(&m);
	ret = recv_all(NULL, NULL);
	close(fd);
	fd = dump_fd;
	if (ret)
		return 1;
	fprintf(stderr, "nodes-del: %s deleted after the dump's first part\n",
		victim);
	return recv_all(print_cb, NULL) ? 1 : 0;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 65536;
	char *buf;

	if (!f) {
		perror(path);
		exit(1);
	}
	buf = malloc(cap);
	*len = 0;
	while (buf) {
		size_t n = fread(buf + *len, 1, cap - *len, f);

		*len += n;
		if (*len < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
	}
	if (!buf) {
		perror("malloc");
		exit(1);
	}
	return buf;
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, bufsz = 8 << 20;
	unsigned short fam;
	struct msg m;

	if (argc < 2) {
		fprintf(stderr, "usage: %s add NAME FILE [no-sm] | del NAME | show [NAME] | nodes [NAME]\n",
			argv[0]);
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("netlink");
		return 1;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bufsz, sizeof(bufsz));
	fam = resolve_family();

	if (!strcmp(argv[1], "add") &&
	    (argc == 4 || (argc == 5 && !strcmp(argv[4], "no-sm")))) {
		size_t len, off;
		char *text = read_file(argv[3], &len);

		msg_init(&m, fam, IBTRACE_SIM_CMD_FABRIC_ADD, 0);
		put_attr(&m, IBTRACE_SIM_A_FABRIC_NAME, argv[2],
			 strlen(argv[2]) + 1);
		for (off = 0; off < len; off += CHUNK)
			put_attr(&m, IBTRACE_SIM_A_TOPOLOGY, text + off,
				 len - off < CHUNK ? len - off : CHUNK);
		free(text);
		if (argc == 5) {
			unsigned char zero = 0;

			put_attr(&m, IBTRACE_SIM_A_SM, &zero, 1);
		}
	} else if (!strcmp(argv[1], "nodes-del") && argc == 3) {
		return nodes_del(fam, argv[2]);
	} else if (!strcmp(argv[1], "del") && argc == 3) {
		msg_init(&m, fam, IBTRACE_SIM_CMD_FABRIC_DEL, 0);
		put_attr(&m, IBTRACE_SIM_A_FABRIC_NAME, argv[2],
			 strlen(argv[2]) + 1);
	} else if ((!strcmp(argv[1], "show") || !strcmp(argv[1], "nodes")) &&
		   argc <= 3) {
		int nodes = !strcmp(argv[1], "nodes");

		msg_init(&m, fam, nodes ? IBTRACE_SIM_CMD_NODE_GET :
			 IBTRACE_SIM_CMD_FABRIC_GET,
			 nodes || argc == 2 ? NLM_F_DUMP : 0);
		if (argc == 3)
			put_attr(&m, IBTRACE_SIM_A_FABRIC_NAME, argv[2],
				 strlen(argv[2]) + 1);
	} else {
		fprintf(stderr, "bad command\n");
		return 2;
	}
	msg_send(&m);
	if (recv_all(print_cb, NULL))
		return 1;
	/* the end of a build, if it did not come before the ACK */
	while (building && !build_done) {
		ssize_t n = recv(fd, rbuf, sizeof(rbuf), 0);
		struct nlmsghdr *nlh;

		if (n < 0) {
			perror("recv");
			return 1;
		}
		for (nlh = (struct nlmsghdr *)rbuf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n))
			if (nlh->nlmsg_type == fam && !nlh->nlmsg_seq)
				print_cb(nlh, NULL);
	}
	return build_failed;
}
