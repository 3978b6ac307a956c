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
 *   ibtrace_sim_ctl fuzz-topo SEED ITERS FILE...
 *                                   the topology text fuzzer (below)
 *   ibtrace_sim_ctl inject-burst NAME NODE PORT DLID COUNT [agent]
 *                  [sl SL vl VL]    COUNT injections (a 256-byte payload,
 *                                   no wait) from node NODE (its name) of
 *                                   fabric NAME out of its port PORT to
 *                                   DLID, one request after the other on
 *                                   one socket, as fast as they go;
 *                                   "injected N" on stdout, and at the
 *                                   first refusal its error (exit 1);
 *                                   with "agent" each a ClassPortInfo
 *                                   Get of class 0x30 with ibtrace's
 *                                   OUI, which the agent answers; with
 *                                   sl and vl, the LRH's SL and the VL
 *                                   of the first link (else SL 0, VL 0)
 *
 * Errors: "Error: <extack>" (and "line N: <reason>" for topology errors)
 * on stderr, exit 1.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>

#include "../uapi/linux/ibtrace_sim.h"
#include "ibtrace_selftest.h"

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
 * How print_cb() prints an attribute of a port, a node or a fabric: its
 * type, kind of value and format (of an unsigned long long for K_U32 and
 * K_U64, of a string otherwise).
 */
enum fmt_set { F_PORT, F_NODE, F_FABRIC };
enum fmt_kind { K_STR, K_U32, K_U64, K_NODE_TYPE, K_STATE, K_PORTS };

static const struct attr_fmt {
	enum fmt_set set;
	unsigned short type;
	enum fmt_kind kind;
	const char *fmt;
} attr_fmts[] = {
	{ F_PORT, IBTRACE_SIM_PORT_A_NUM, K_U32, " %llu" },
	{ F_PORT, IBTRACE_SIM_PORT_A_GUID, K_U64, " guid 0x%016llx" },
	{ F_PORT, IBTRACE_SIM_PORT_A_LID, K_U32, " lid %llu" },
	{ F_PORT, IBTRACE_SIM_PORT_A_STATE, K_STATE, " state %s" },
	{ F_PORT, IBTRACE_SIM_PORT_A_PEER_NODE, K_U32, " peer %llu" },
	{ F_PORT, IBTRACE_SIM_PORT_A_PEER_PORT, K_U32, "/%llu" },
	{ F_PORT, IBTRACE_SIM_PORT_A_RX_PKTS, K_U64, " rx %llu" },
	{ F_PORT, IBTRACE_SIM_PORT_A_TX_PKTS, K_U64, " tx %llu" },
	{ F_PORT, IBTRACE_SIM_PORT_A_DROPS, K_U64, " drops %llu" },
	{ F_NODE, IBTRACE_SIM_A_FABRIC_NAME, K_STR, " fabric %s" },
	{ F_NODE, IBTRACE_SIM_A_NODE_INDEX, K_U32, " index %llu" },
	{ F_NODE, IBTRACE_SIM_A_NODE_TYPE, K_NODE_TYPE, " type %s" },
	{ F_NODE, IBTRACE_SIM_A_NODE_NAME, K_STR, " name \"%s\"" },
	{ F_NODE, IBTRACE_SIM_A_NODE_GUID, K_U64, " guid 0x%016llx" },
	{ F_NODE, IBTRACE_SIM_A_DEV_NAME, K_STR, " dev %s" },
	{ F_NODE, IBTRACE_SIM_A_PORT, K_PORTS, " port" },
	{ F_FABRIC, IBTRACE_SIM_A_FABRIC_NAME, K_STR, " %s" },
	{ F_FABRIC, IBTRACE_SIM_A_NUM_NODES, K_U32, " nodes %llu" },
	{ F_FABRIC, IBTRACE_SIM_A_NUM_CAS, K_U32, " cas %llu" },
	{ F_FABRIC, IBTRACE_SIM_A_NUM_SWITCHES, K_U32, " switches %llu" },
	{ F_FABRIC, IBTRACE_SIM_A_NUM_LINKS, K_U32, " links %llu" },
};

static void print_attrs(enum fmt_set set, void *start, size_t len);

/* Attribute @nla as @f says. */
static void print_attr(const struct attr_fmt *f, struct nlattr *nla)
{
	const char *s = ATTR_DATA(nla);

	if (f->kind == K_PORTS) {
		fputs(f->fmt, stdout);
		print_attrs(F_PORT, ATTR_DATA(nla), nla->nla_len - NLA_HDRLEN);
		return;
	}
	if (f->kind == K_U32 || f->kind == K_U64) {
		printf(f->fmt, f->kind == K_U32 ? ATTR_U32(nla) : ATTR_U64(nla));
		return;
	}
	if (f->kind == K_NODE_TYPE)
		s = ATTR_U8(nla) == 1 ? "ca" : "switch";
	else if (f->kind == K_STATE)
		s = ATTR_U8(nla) < 5 ? state_names[ATTR_U8(nla)] : "?";
	printf(f->fmt, s);
}

/* The attributes in @start..@len that @set has a format for, in order. */
static void print_attrs(enum fmt_set set, void *start, size_t len)
{
	const struct attr_fmt *f;
	struct nlattr *nla;

	for_each_attr(nla, start, len)
		for (f = attr_fmts; f < attr_fmts + sizeof(attr_fmts) / sizeof(*f); f++)
			if (f->set == set &&
			    f->type == (nla->nla_type & NLA_TYPE_MASK)) {
				print_attr(f, nla);
				break;
			}
}

/*
 * FABRIC_ADD answers at once (BUILDING) and notifies the end of the
 * build later: a FABRIC_ADD without BUILDING, or a TOPO_ERROR.
 */
static int building, build_done, build_failed;

static void print_cb(struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *g = NLMSG_DATA(nlh);
	size_t len = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	struct nlattr *nla;

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
		print_attrs(F_NODE, (char *)g + GENL_HDRLEN, len);
		printf("\n");
		return;
	}
	printf("fabric");
	print_attrs(F_FABRIC, (char *)g + GENL_HDRLEN, len);
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

/*
 * fuzz-topo SEED ITERS FILE...: the topology text fuzzer.
 *
 * Each iteration takes one of the valid topologies FILE..., applies one to
 * four mutations (byte flips, insertions and deletions, numbers replaced
 * by huge, negative or boundary values, ports 0/255/256, duplicate node
 * names, self-links, a link to a port already taken, NUL bytes, 1 MiB
 * lines, lines duplicated, swapped or cut), and sends it as FABRIC_ADD
 * (TOPOLOGY pieces of random size, NUL-terminated or not). Then:
 * - refused: an extack message, a TOPO_ERROR whose line lies within the
 *   text (0 only for whole-text reasons), the line the mutation predicts
 *   when it predicts one, and no fabric of that name afterwards;
 * - accepted: the build's end is notified, FABRIC_GET's node, HCA, switch
 *   and link counts are those of the text (parsed here), and after
 *   FABRIC_DEL neither the fabric nor an RDMA device of it remains.
 * One line per failure ("FAIL iter N: ..."), then a summary line:
 *   "iters N accepted A refused R failures F".
 * Exit 0 when no check failed. ITERS 0 runs the bases unchanged only.
 */

static uint64_t fz_state;

static unsigned long long fz_rand(void)
{
	return st_splitmix64(&fz_state);
}

static size_t fz_below(size_t n)
{
	return n ? fz_rand() % n : 0;
}

struct fz_text {
	char *p;
	size_t len, cap;
};

static void fz_reserve(struct fz_text *t, size_t more)
{
	if (t->len + more + 1 <= t->cap)
		return;
	t->cap = (t->len + more + 1) * 2;
	t->p = realloc(t->p, t->cap);
	if (!t->p) {
		perror("realloc");
		exit(1);
	}
}

/* Replace @n bytes at @at by @len bytes of @s. */
static void fz_splice(struct fz_text *t, size_t at, size_t n, const char *s,
		      size_t len)
{
	if (at > t->len)
		at = t->len;
	if (n > t->len - at)
		n = t->len - at;
	fz_reserve(t, len);
	memmove(t->p + at + len, t->p + at + n, t->len - at - n);
	if (len)
		memcpy(t->p + at, s, len);
	t->len = t->len - n + len;
	t->p[t->len] = '\0';
}

/* Line boundaries: start of line @i (0-based) and the number of lines. */
static size_t fz_lines(const struct fz_text *t, size_t *starts, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < t->len; i++)
		if (i == 0 || t->p[i - 1] == '\n') {
			if (n < max)
				starts[n] = i;
			n++;
		}
	return n;
}

static size_t fz_line_end(const struct fz_text *t, size_t at)
{
	while (at < t->len && t->p[at] != '\n')
		at++;
	return at;
}

/* 1-based line number of byte @at */
static unsigned int fz_line_of(const struct fz_text *t, size_t at)
{
	unsigned int line = 1;
	size_t i;

	for (i = 0; i < at && i < t->len; i++)
		line += t->p[i] == '\n';
	return line;
}

static unsigned int fz_count_lines(const struct fz_text *t)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < t->len; i++)
		n += t->p[i] == '\n';
	return n + (t->len && t->p[t->len - 1] != '\n');
}

/*
 * The parts of a topology text that FABRIC_GET reflects, parsed the way
 * ibtrace_sim does for a text it accepted. Returns -1 when the text does
 * not look valid.
 */
#define FZ_MAX_NODES	4096
struct fz_model {
	unsigned int nodes, cas, switches, links;
	char *name[FZ_MAX_NODES];
	unsigned int nports[FZ_MAX_NODES];
	unsigned int hdr_line[FZ_MAX_NODES];	/* 1-based */
	unsigned char *used[FZ_MAX_NODES];	/* ports linked (either side) */
	/* port lines: node, port, peer name, peer port, line */
	unsigned int npl;
	struct {
		unsigned int node, port, peer_port, line;
		char *peer;
	} pl[4 * FZ_MAX_NODES];
};

static void fz_model_free(struct fz_model *m)
{
	unsigned int i;

	for (i = 0; i < m->nodes; i++) {
		free(m->name[i]);
		free(m->used[i]);
	}
	for (i = 0; i < m->npl; i++)
		free(m->pl[i].peer);
	memset(m, 0, sizeof(*m));
}

/* A number as ibtrace_sim reads it: decimal, or hex after 0x. */
static unsigned long fz_num(const char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return strtoul(s + 2, NULL, 16);
	return strtoul(s, NULL, 10);
}

static char *fz_quoted(const char *s, const char **end)
{
	const char *a = strchr(s, '"'), *b;

	if (!a)
		return NULL;
	b = strchr(a + 1, '"');
	if (!b)
		return NULL;
	*end = b + 1;
	return strndup(a + 1, b - a - 1);
}

static int fz_model_parse(struct fz_model *m, const struct fz_text *t)
{
	char *copy = strndup(t->p, t->len), *line, *next;
	unsigned int ln = 0, i, j, cur = ~0U;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	if (!copy)
		return -1;
	for (line = copy; line && *line; line = next) {
		const char *end;
		bool q = false;
		char *p;

		ln++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (p = line; *p; p++) {
			if (*p == '"')
				q = !q;
			else if (*p == '#' && !q)
				break;
		}
		*p = '\0';
		while (p > line && isspace((unsigned char)p[-1]))
			*--p = '\0';
		p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			continue;
		if (*p == '[') {
			unsigned long port = fz_num(p + 1);
			char *peer = fz_quoted(p, &end);

			if (cur == ~0U || !peer || *end != '[' ||
			    m->npl == sizeof(m->pl) / sizeof(m->pl[0])) {
				free(peer);
				ret = -1;
				break;
			}
			m->pl[m->npl].node = cur;
			m->pl[m->npl].port = port;
			m->pl[m->npl].peer = peer;
			m->pl[m->npl].peer_port = fz_num(end + 1);
			m->pl[m->npl].line = ln;
			m->npl++;
			continue;
		}
		if (strchr(p, '=') && !strchr(p, '"'))
			continue;
		if (m->nodes == FZ_MAX_NODES) {
			ret = -1;
			break;
		}
		i = m->nodes;
		m->name[i] = fz_quoted(p, &end);
		if (!m->name[i]) {
			ret = -1;
			break;
		}
		if (!strncasecmp(p, "switch", 6))
			m->switches++;
		else
			m->cas++;
		while (isalpha((unsigned char)*p))
			p++;
		m->nports[i] = fz_num(p + 1 + strspn(p + 1, " \t"));
		if (m->nports[i] > 255)
			m->nports[i] = 255;
		m->used[i] = calloc(m->nports[i] + 1, 1);
		m->hdr_line[i] = ln;
		cur = i;
		m->nodes++;
	}
	free(copy);
	/* links: each linked (node, port) end once */
	for (i = 0; !ret && i < m->npl; i++) {
		unsigned int a = m->pl[i].node, b = ~0U;

		for (j = 0; j < m->nodes; j++)
			if (!strcmp(m->name[j], m->pl[i].peer))
				b = j;
		if (b == ~0U || m->pl[i].port > m->nports[a] ||
		    m->pl[i].peer_port > m->nports[b])
			return -1;
		m->used[a][m->pl[i].port] = 1;
		m->used[b][m->pl[i].peer_port] = 1;
	}
	for (i = 0; !ret && i < m->nodes; i++)
		for (j = 1; j <= m->nports[i]; j++)
			m->links += m->used[i][j];
	m->links /= 2;
	return ret;
}

/* What a mutation expects: a refusal at a line (0: any), its reason. */
struct fz_expect {
	bool refuse;
	unsigned int line;	/* 0: any line */
	unsigned int alt_line;	/* another acceptable line, or 0 */
	const char *why;	/* a substring of the reason, or NULL */
	const char *what;	/* the mutation, for the failure report */
};

static const char *const fz_numbers[] = {
	"0", "1", "254", "255", "256", "65535", "65536", "4294967295",
	"4294967296", "18446744073709551615", "18446744073709551616",
	"99999999999999999999999999", "-1", "-0", "+1", "0x", "0x0",
	"0xffffffffffffffff", "0x10000000000000000", "007", "1e3", "",
};

static const char fz_chars[] = "[]\"#=()x0123456789 \t\n\r-+aZ\\";

/* The byte range of line @i (0-based), its end excluding the '\n'. */
static bool fz_pick_line(struct fz_text *t, size_t *a, size_t *b,
			 unsigned int *line)
{
	static size_t starts[1 << 16];
	size_t n = fz_lines(t, starts, 1 << 16), i;

	if (!n)
		return false;
	if (n > 1 << 16)
		n = 1 << 16;
	i = fz_below(n);
	*a = starts[i];
	*b = fz_line_end(t, *a);
	*line = i + 1;
	return true;
}

/* Apply one mutation to @t; what it expects in @ex (if @single). */
static void fz_mutate(struct fz_text *t, struct fz_expect *ex, bool single)
{
	static struct fz_model m;
	size_t a, b, at;
	unsigned int line, kind = fz_below(16), i;
	char buf[512];

	ex->what = "?";
	switch (kind) {
	case 0:		/* bit flip */
		if (!t->len)
			break;
		at = fz_below(t->len);
		t->p[at] ^= 1 << fz_below(8);
		if (!t->p[at])
			t->p[at] = 1;
		ex->what = "bit flip";
		break;
	case 1:		/* a byte from the syntax */
		at = fz_below(t->len + 1);
		buf[0] = fz_chars[fz_below(sizeof(fz_chars) - 1)];
		fz_splice(t, at, fz_below(2), buf, 1);
		ex->what = "syntax byte";
		break;
	case 2:		/* delete bytes */
		at = fz_below(t->len + 1);
		fz_splice(t, at, 1 + fz_below(8), NULL, 0);
		ex->what = "deletion";
		break;
	case 3:		/* a number replaced */
		for (i = 0; i < 8; i++) {
			at = fz_below(t->len + 1);
			if (at < t->len && isdigit((unsigned char)t->p[at]))
				break;
		}
		if (i == 8)
			break;
		while (at && isxdigit((unsigned char)t->p[at - 1]))
			at--;
		for (b = at; b < t->len && isalnum((unsigned char)t->p[b]); b++)
			;
		i = fz_below(sizeof(fz_numbers) / sizeof(fz_numbers[0]));
		fz_splice(t, at, b - at, fz_numbers[i], strlen(fz_numbers[i]));
		ex->what = "number";
		break;
	case 4:		/* a port 0/255/256 */
	case 5:		/* duplicate name */
	case 6:		/* self-link */
	case 7:		/* link to a taken port */
		if (fz_model_parse(&m, t) || !m.npl || m.nodes < 2) {
			fz_model_free(&m);
			break;
		}
		i = fz_below(m.npl);
		{
			static size_t starts[1 << 16];
			size_t nl = fz_lines(t, starts, 1 << 16);
			unsigned int pln = m.pl[i].line, hln;
			unsigned int n0 = m.pl[i].node;

			if (pln > nl || pln > 1 << 16)
				goto model_done;
			a = starts[pln - 1];
			b = fz_line_end(t, a);
			if (kind == 4) {
				static const unsigned int v[] = { 0, 255, 256 };
				unsigned int pv = v[fz_below(3)];
				bool peer = fz_below(2);

				snprintf(buf, sizeof(buf), "[%u] \"%s\"[%u]",
					 peer ? m.pl[i].port : pv, m.pl[i].peer,
					 peer ? pv : m.pl[i].peer_port);
				fz_splice(t, a, b - a, buf, strlen(buf));
				ex->refuse = true;
				ex->line = pln;
				ex->why = NULL;	/* range or disagreement */
				/* the link's other side may be blamed */
				ex->alt_line = 0;
				for (unsigned int k = 0; k < m.npl; k++)
					if (k != i && m.pl[k].line != pln &&
					    !strcmp(m.pl[k].peer, m.name[n0]) &&
					    m.pl[k].peer_port == m.pl[i].port)
						ex->alt_line = m.pl[k].line;
				if (ex->alt_line && ex->alt_line < pln)
					ex->alt_line = pln;
				ex->what = peer ? "peer port 0/255/256" :
						  "local port 0/255/256";
			} else if (kind == 5) {
				unsigned int x = fz_below(m.nodes), y;

				y = (x + 1 + fz_below(m.nodes - 1)) % m.nodes;
				hln = m.hdr_line[y];
				a = starts[hln - 1];
				b = fz_line_end(t, a);
				{
					/* keep the type: a CA must not turn switch */
					const char *ty = t->p + a;

					while (*ty == ' ' || *ty == '\t')
						ty++;
					snprintf(buf, sizeof(buf), "%s %u \"%s\"",
						 strncasecmp(ty, "switch", 6) ?
						 "Hca" : "Switch",
						 m.nports[y], m.name[x]);
				}
				fz_splice(t, a, b - a, buf, strlen(buf));
				ex->refuse = true;
				ex->line = hln > m.hdr_line[x] ? hln :
					   m.hdr_line[x];
				ex->why = "duplicate node name";
				ex->what = "duplicate name";
			} else if (kind == 6) {
				snprintf(buf, sizeof(buf), "[%u] \"%s\"[%u]",
					 m.pl[i].port, m.name[n0],
					 m.pl[i].port);
				fz_splice(t, a, b - a, buf, strlen(buf));
				ex->refuse = true;
				ex->line = 0;	/* self, or the old peer's */
				ex->what = "self-link";
			} else {
				/* a free port of some node, linked to a taken one */
				unsigned int x, p, k;

				for (k = 0; k < 64; k++) {
					x = fz_below(m.nodes);
					for (p = 1; p <= m.nports[x]; p++)
						if (!m.used[x][p])
							break;
					if (p <= m.nports[x])
						break;
				}
				if (k == 64)
					goto model_done;
				hln = m.hdr_line[x];
				at = fz_line_end(t, starts[hln - 1]);
				snprintf(buf, sizeof(buf), "\n[%u] \"%s\"[%u]",
					 p, m.pl[i].peer, m.pl[i].peer_port);
				fz_splice(t, at, 0, buf, strlen(buf));
				ex->refuse = true;
				ex->line = 0;
				ex->what = "link to a taken port";
			}
		}
model_done:
		fz_model_free(&m);
		break;
	case 8:		/* NUL byte */
		at = fz_below(t->len + 1);
		fz_splice(t, at, 0, "", 1);
		ex->refuse = true;
		ex->line = fz_line_of(t, at);
		ex->why = "NUL";
		ex->what = "NUL byte";
		break;
	case 9: {	/* a 1 MiB line */
		static const char *const fill[] = { "#", " ", "x", "0", "\"" };
		size_t big = (1 << 20) + fz_below(64);
		unsigned int f = fz_below(5);
		char *s = malloc(big + 32);

		if (!s || !fz_pick_line(t, &a, &b, &line)) {
			free(s);
			break;
		}
		memset(s, fill[f][0], big);
		if (f == 3) {
			/* [000...01] "name"[1]: a long but valid port number? */
			s[0] = '[';
			s[big - 2] = '1';
			s[big - 1] = ']';
		}
		s[big] = '\n';
		fz_splice(t, a, 0, s, big + 1);
		free(s);
		if (f >= 2) {
			ex->refuse = true;
			ex->line = line;
		}
		ex->what = "1 MiB line";
		break;
	}
	case 10:	/* delete a line */
		if (fz_pick_line(t, &a, &b, &line))
			fz_splice(t, a, b - a + (b < t->len), NULL, 0);
		ex->what = "line deleted";
		break;
	case 11:	/* duplicate a line */
		if (fz_pick_line(t, &a, &b, &line) && b - a < sizeof(buf) - 1) {
			memcpy(buf, t->p + a, b - a);
			buf[b - a] = '\n';
			fz_splice(t, a, 0, buf, b - a + 1);
		}
		ex->what = "line duplicated";
		break;
	case 12:	/* truncate */
		t->len = fz_below(t->len + 1);
		t->p[t->len] = '\0';
		ex->what = "truncated";
		break;
	case 13:	/* CRLF, or a bare CR */
		for (i = 0; i < 4; i++) {
			at = fz_below(t->len + 1);
			fz_splice(t, at, 0, "\r", 1);
		}
		ex->what = "CR bytes";
		break;
	case 14: {	/* swap two lines */
		size_t a2, b2;
		unsigned int l2;
		char *x, *y;

		if (!fz_pick_line(t, &a, &b, &line) ||
		    !fz_pick_line(t, &a2, &b2, &l2) || line == l2)
			break;
		if (a2 < a) {
			size_t ta = a, tb = b;

			a = a2; b = b2; a2 = ta; b2 = tb;
		}
		x = strndup(t->p + a, b - a);
		y = strndup(t->p + a2, b2 - a2);
		fz_splice(t, a2, b2 - a2, x, strlen(x));
		fz_splice(t, a, b - a, y, strlen(y));
		free(x);
		free(y);
		ex->what = "lines swapped";
		break;
	}
	default:	/* a random byte */
		at = fz_below(t->len + 1);
		buf[0] = 1 + fz_below(255);
		fz_splice(t, at, fz_below(2), buf, 1);
		ex->what = "random byte";
		break;
	}
	if (!single) {
		ex->line = 0;
		ex->alt_line = 0;
		ex->why = NULL;
	}
}

/* One FABRIC_ADD and its answers. */
struct fz_result {
	int err;		/* the ACK's */
	bool extack;		/* the ACK carried a message */
	bool topo_err;		/* TOPO_ERROR with the request's seq */
	unsigned int line;
	char why[256];
	bool building, done, build_failed;
	unsigned int nodes, cas, switches, links;
};

/* FABRIC_GET's counts: their attribute, their place in struct fz_result */
static const struct {
	unsigned short type;
	size_t off;
} fz_counts[] = {
	{ IBTRACE_SIM_A_NUM_NODES, offsetof(struct fz_result, nodes) },
	{ IBTRACE_SIM_A_NUM_CAS, offsetof(struct fz_result, cas) },
	{ IBTRACE_SIM_A_NUM_SWITCHES, offsetof(struct fz_result, switches) },
	{ IBTRACE_SIM_A_NUM_LINKS, offsetof(struct fz_result, links) },
};

static void fz_parse_fabric(struct genlmsghdr *g, size_t len,
			    struct fz_result *r)
{
	struct nlattr *nla;
	size_t i;

	for_each_attr(nla, (char *)g + GENL_HDRLEN, len) {
		unsigned short type = nla->nla_type & NLA_TYPE_MASK;

		if (type == IBTRACE_SIM_A_BUILDING)
			r->building = ATTR_U8(nla);
		for (i = 0; i < sizeof(fz_counts) / sizeof(fz_counts[0]); i++)
			if (fz_counts[i].type == type)
				*(unsigned int *)((char *)r + fz_counts[i].off) =
					ATTR_U32(nla);
	}
}

/* Handle one message; returns 1 at the request's ACK. */
static int fz_msg(unsigned short fam, struct nlmsghdr *nlh, unsigned int rseq,
		  struct fz_result *r)
{
	struct genlmsghdr *g = NLMSG_DATA(nlh);
	size_t len;
	struct nlattr *nla;

	if (nlh->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = NLMSG_DATA(nlh);
		size_t off = sizeof(*e);

		if (nlh->nlmsg_seq != rseq)
			return 0;
		r->err = e->error;
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		for_each_attr(nla, (char *)e + off,
			      nlh->nlmsg_len - NLMSG_HDRLEN - off)
			if (nla->nla_type == NLMSGERR_ATTR_MSG)
				r->extack = true;
		return 1;
	}
	if (nlh->nlmsg_type != fam)
		return 0;
	len = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	if (g->cmd == IBTRACE_SIM_CMD_TOPO_ERROR) {
		unsigned int line = 0;

		for_each_attr(nla, (char *)g + GENL_HDRLEN, len) {
			if (nla->nla_type == IBTRACE_SIM_A_ERR_LINE)
				line = ATTR_U32(nla);
			else if (nla->nla_type == IBTRACE_SIM_A_ERR_MSG)
				snprintf(r->why, sizeof(r->why), "%s",
					 (char *)ATTR_DATA(nla));
		}
		if (nlh->nlmsg_seq) {
			r->topo_err = true;
			r->line = line;
		} else {
			r->done = true;
			r->build_failed = true;
		}
		return 0;
	}
	if (g->cmd == IBTRACE_SIM_CMD_FABRIC_GET)
		fz_parse_fabric(g, len, r);
	if (g->cmd == IBTRACE_SIM_CMD_FABRIC_ADD) {
		bool b;

		r->building = false;
		fz_parse_fabric(g, len, r);
		b = r->building;
		if (!nlh->nlmsg_seq && !b)
			r->done = true;
		if (nlh->nlmsg_seq && b)
			r->building = true;
	}
	return 0;
}

/* Read messages until @until (ACK, or the build's end) or 60 s. */
static int fz_recv(unsigned short fam, unsigned int rseq, struct fz_result *r,
		   bool wait_done)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int acked = 0;

	for (;;) {
		struct nlmsghdr *nlh;
		ssize_t n;

		if (!wait_done && acked)
			return 0;
		if (wait_done && r->done)
			return 0;
		if (poll(&pfd, 1, 60000) <= 0)
			return -1;
		n = recv(fd, rbuf, sizeof(rbuf), 0);
		if (n < 0)
			return -1;
		for (nlh = (struct nlmsghdr *)rbuf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n))
			acked |= fz_msg(fam, nlh, rseq, r);
	}
}

static int fz_simple(unsigned short fam, unsigned char cmd, const char *name,
		     struct fz_result *r)
{
	unsigned int rseq = seq;
	struct msg m;

	memset(r, 0, sizeof(*r));
	msg_init(&m, fam, cmd, 0);
	put_attr(&m, IBTRACE_SIM_A_FABRIC_NAME, name, strlen(name) + 1);
	msg_send(&m);
	if (fz_recv(fam, rseq, r, false))
		return -ETIMEDOUT;
	return r->err;
}

static int fz_count_ibdevs(void)
{
	DIR *d = opendir("/sys/class/infiniband");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static unsigned int fz_fail;

#define FZ_FAIL(it, fmt, ...) do {					\
	fz_fail++;							\
	printf("FAIL iter %u (%s): " fmt "\n", it, ex.what, ##__VA_ARGS__); \
} while (0)

/* Is this reason about the whole text (line 0 allowed)? */
static bool fz_whole_text(const char *why, int err)
{
	return err == -ENOSPC || strstr(why, "no node in the topology");
}

static int fuzz_topo(unsigned short fam, unsigned long long seed,
		     unsigned int iters, char **files, int nfiles)
{
	struct fz_text base[16];
	unsigned int it, accepted = 0, refused = 0, per_kind[3] = { 0 };
	int nb = nfiles < 16 ? nfiles : 16, i, ibdevs = fz_count_ibdevs();
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < nb; i++) {
		base[i].p = read_file(files[i], &base[i].len);
		base[i].cap = base[i].len;
		fz_reserve(&base[i], 1);
		base[i].p[base[i].len] = '\0';
	}
	fz_state = seed;
	/* iterations 0..nb-1: the bases themselves, which must build */
	for (it = 0; it < iters + nb; it++) {
		struct fz_text t = { 0 };
		struct fz_expect ex = { .what = "none" };
		struct fz_result r, g;
		static struct fz_model m;
		unsigned int rseq, nmut, k, nlines;
		bool nul_term = fz_below(2), has_nul;
		size_t chunk = fz_below(4) ? 1 + fz_below(40000) : 65000, off;
		struct msg msg;

		/* a fresh stream per iteration: any one can be replayed */
		fz_state = seed * 1000003ULL + it;
		fz_reserve(&t, base[it % nb].len);
		memcpy(t.p, base[it % nb].p, base[it % nb].len);
		t.len = base[it % nb].len;
		t.p[t.len] = '\0';
		nmut = it < (unsigned int)nb ? 0 : 1 + (fz_below(3) ? 0 : fz_below(4));
		for (k = 0; k < nmut; k++) {
			struct fz_expect e1 = { 0 };

			fz_mutate(&t, &e1, nmut == 1);
			if (k == 0 || nmut == 1)
				ex = e1;
		}
		if (nmut > 1) {
			ex.what = "several mutations";
			ex.refuse = false;
			ex.line = 0;
			ex.why = NULL;
		}
		has_nul = memchr(t.p, '\0', t.len) != NULL;
		/* a piece ending in NUL is terminated: say so explicitly */
		if (has_nul)
			nul_term = true;
		if (has_nul && nmut > 1) {
			ex.refuse = true;
			ex.line = fz_line_of(&t, (char *)memchr(t.p, '\0', t.len) - t.p);
			ex.why = "NUL";
		}
		nlines = fz_count_lines(&t);
		if (getenv("IBTRACE_FUZZ_PRINT")) {
			if (it != strtoul(getenv("IBTRACE_FUZZ_PRINT"), NULL, 0)) {
				free(t.p);
				continue;
			}
			fprintf(stderr, "# %s, expect %s line %u/%u %s\n", ex.what,
				ex.refuse ? "refusal" : "-", ex.line,
				ex.alt_line, ex.why ? ex.why : "");
			fwrite(t.p, 1, t.len, stdout);
			free(t.p);
			return 0;
		}

		rseq = seq;
		msg_init(&msg, fam, IBTRACE_SIM_CMD_FABRIC_ADD, 0);
		put_attr(&msg, IBTRACE_SIM_A_FABRIC_NAME, "fz", 3);
		for (off = 0; off < t.len || !off; off += chunk) {
			size_t n = t.len - off < chunk ? t.len - off : chunk;
			char *piece = malloc(n + 1);

			memcpy(piece, t.p + off, n);
			piece[n] = '\0';
			put_attr(&msg, IBTRACE_SIM_A_TOPOLOGY, piece,
				 n + nul_term);
			free(piece);
			if (!t.len)
				break;
		}
		if (fz_below(4)) {
			unsigned char zero = 0;

			put_attr(&msg, IBTRACE_SIM_A_SM, &zero, 1);
		}
		memset(&r, 0, sizeof(r));
		msg_send(&msg);
		if (fz_recv(fam, rseq, &r, false)) {
			FZ_FAIL(it, "no answer to FABRIC_ADD");
			free(t.p);
			break;
		}
		if (r.err) {
			refused++;
			if (!r.extack)
				FZ_FAIL(it, "refused (%d) without an extack message",
					r.err);
			if (r.err == -EINVAL || r.err == -ENOSPC) {
				if (!r.topo_err)
					FZ_FAIL(it, "refused (%d) without TOPO_ERROR",
						r.err);
				else if (r.line > nlines ||
					 (!r.line && !fz_whole_text(r.why, r.err)))
					FZ_FAIL(it, "error line %u of %u: %s",
						r.line, nlines, r.why);
				else if (ex.line && r.line != ex.line &&
					 r.line != ex.alt_line &&
					 !strstr(r.why, "disagrees"))
					FZ_FAIL(it, "error at line %u, expected %u: %s",
						r.line, ex.line, r.why);
				else if (ex.why && !strstr(r.why, ex.why))
					FZ_FAIL(it, "reason \"%s\", expected \"%s\"",
						r.why, ex.why);
			} else if (!(r.err == -ERANGE && !t.len && !nul_term)) {
				/*
				 * -ERANGE only for an empty text sent without
				 * its NUL: a TOPOLOGY attribute of length 0,
				 * which the NLA_STRING policy refuses
				 */
				FZ_FAIL(it, "refused with %d (%s)", r.err,
					r.why);
			}
			if (fz_simple(fam, IBTRACE_SIM_CMD_FABRIC_GET, "fz",
				      &g) != -ENOENT)
				FZ_FAIL(it, "a refused fabric is there");
			per_kind[0]++;
		} else {
			accepted++;
			if (ex.refuse)
				FZ_FAIL(it, "accepted, expected a refusal%s%s",
					ex.why ? ": " : "", ex.why ? ex.why : "");
			if (!r.done && fz_recv(fam, rseq, &r, true))
				FZ_FAIL(it, "the build's end was not notified");
			if (r.build_failed) {
				per_kind[1]++;
				printf("# iter %u: build failed: %s\n", it, r.why);
			} else if (fz_simple(fam, IBTRACE_SIM_CMD_FABRIC_GET,
					     "fz", &g)) {
				FZ_FAIL(it, "FABRIC_GET of the new fabric: %d",
					g.err);
			} else {
				if (g.building) {
					FZ_FAIL(it, "still building after its end");
				} else if (fz_model_parse(&m, &t)) {
					FZ_FAIL(it, "accepted, but not a valid text here");
				} else if (m.nodes != g.nodes || m.cas != g.cas ||
					   m.switches != g.switches ||
					   m.links != g.links) {
					FZ_FAIL(it, "built %u nodes %u cas %u switches %u links, the text has %u %u %u %u",
						g.nodes, g.cas, g.switches,
						g.links, m.nodes, m.cas,
						m.switches, m.links);
				}
				fz_model_free(&m);
				if (fz_simple(fam, IBTRACE_SIM_CMD_FABRIC_DEL,
					      "fz", &g))
					FZ_FAIL(it, "FABRIC_DEL: %d", g.err);
			}
			if (fz_simple(fam, IBTRACE_SIM_CMD_FABRIC_GET, "fz",
				      &g) != -ENOENT)
				FZ_FAIL(it, "the fabric is still there after its delete");
			if (fz_count_ibdevs() != ibdevs)
				FZ_FAIL(it, "%d RDMA devices, %d before",
					fz_count_ibdevs(), ibdevs);
			per_kind[2]++;
		}
		if (fz_fail && getenv("IBTRACE_FUZZ_DUMP") && fz_fail == 1) {
			FILE *f = fopen(getenv("IBTRACE_FUZZ_DUMP"), "w");

			if (f) {
				fwrite(t.p, 1, t.len, f);
				fclose(f);
			}
		}
		free(t.p);
		if (fz_fail >= 20)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("iters %u accepted %u refused %u build_failed %u failures %u ms %ld\n",
	       it, accepted, refused, per_kind[1], fz_fail,
	       (long)((t1.tv_sec - t0.tv_sec) * 1000 +
		      (t1.tv_nsec - t0.tv_nsec) / 1000000));
	for (i = 0; i < nb; i++)
		free(base[i].p);
	return fz_fail ? 1 : 0;
}

static int inject_burst(unsigned short fam, int argc, char **argv)
{
	unsigned int port = strtoul(argv[4], NULL, 0);
	unsigned int dlid = strtoul(argv[5], NULL, 0);
	unsigned long i, count = strtoul(argv[6], NULL, 0);
	unsigned char payload[256] = { 1, 0x30, 1, 1 };	/* a MAD header */
	unsigned char sl = 0, vl = 0;
	bool agent = false;
	struct msg m;
	int a, err = 0;

	for (a = 7; a < argc; a++) {
		if (!strcmp(argv[a], "agent")) {
			agent = true;
		} else if (!strcmp(argv[a], "sl") && a + 1 < argc) {
			sl = strtoul(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "vl") && a + 1 < argc) {
			vl = strtoul(argv[++a], NULL, 0);
		} else {
			fprintf(stderr, "inject-burst: bad word \"%s\"\n", argv[a]);
			return 2;
		}
	}
	if (agent) {
		/* what the class 0x30 agent answers: ClassPortInfo, its OUI */
		payload[17] = 0x01;
		payload[37] = 0x00;
		payload[38] = 0x14;
		payload[39] = 0x05;
	}

	for (i = 0; i < count && !err; i++) {
		msg_init(&m, fam, IBTRACE_SIM_CMD_INJECT, 0);
		put_attr(&m, IBTRACE_SIM_A_FABRIC_NAME, argv[2],
			 strlen(argv[2]) + 1);
		put_attr(&m, IBTRACE_SIM_A_NODE_NAME, argv[3],
			 strlen(argv[3]) + 1);
		put_attr(&m, IBTRACE_SIM_A_INJECT_PORT, &port, sizeof(port));
		put_attr(&m, IBTRACE_SIM_A_INJECT_DLID, &dlid, sizeof(dlid));
		put_attr(&m, IBTRACE_SIM_A_INJECT_SL, &sl, sizeof(sl));
		put_attr(&m, IBTRACE_SIM_A_INJECT_VL, &vl, sizeof(vl));
		put_attr(&m, IBTRACE_SIM_A_INJECT_PAYLOAD, payload,
			 sizeof(payload));
		msg_send(&m);
		err = recv_all(NULL, NULL);
	}
	printf("injected %lu\n", err ? i - 1 : i);
	return !!err;
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, bufsz = 8 << 20;
	unsigned short fam;
	struct msg m;

	if (argc < 2) {
		fprintf(stderr, "usage: %s add NAME FILE [no-sm] | del NAME | show [NAME] | nodes [NAME] |\n"
			"       fuzz-topo SEED ITERS FILE... | inject-burst NAME NODE PORT DLID COUNT [agent] [sl SL vl VL]\n",
			argv[0]);
		return 2;
	}

	if (!strcmp(argv[1], "fuzz-topo") && argc >= 5 &&
	    getenv("IBTRACE_FUZZ_PRINT"))
		return fuzz_topo(0, strtoull(argv[2], NULL, 0),
				 strtoul(argv[3], NULL, 0), argv + 4, argc - 4);
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("netlink");
		return 1;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bufsz, sizeof(bufsz));
	fam = resolve_family();
	if (!strcmp(argv[1], "fuzz-topo") && argc >= 5)
		return fuzz_topo(fam, strtoull(argv[2], NULL, 0),
				 strtoul(argv[3], NULL, 0), argv + 4, argc - 4);
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
	} else if (!strcmp(argv[1], "inject-burst") && argc >= 7) {
		return inject_burst(fam, argc, argv);
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
