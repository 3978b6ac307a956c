// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_nlsweep - what a generic netlink family accepts, as the kernel
 * says it, for the attribute sweep of ibtrace_nl_policy.sh.
 *
 * ibtrace_nlsweep FAMILY
 *	Asks nlctrl for the family (CTRL_CMD_GETFAMILY: id, maxattr, every
 *	op with its flags, multicast groups) and for the request policy of
 *	every op (CTRL_CMD_GETPOLICY), then sends every op, as "do" and as
 *	"dump" where the op has them, once with each attribute type from 0
 *	to the uAPI header's highest attribute + 8: one attribute per
 *	request, with no payload. Prints, one per line:
 *	  family NAME id ID maxattr N hdr_maxattr N hdr_cmd_max N
 *	  group NAME id ID
 *	  op CMD flags 0xF do 0|1 dump 0|1 do_policy P dump_policy P
 *	  policy P types T,T,... (top-level types the policy dump lists)
 *	  r CMD do|dump TYPE ERRNO OFFSET MESSAGE
 *	  s CMD do|dump TYPE (not sent: as root, a type an admin command's
 *	    policy lists, which with some payload might act)
 *	ERRNO is positive (0: accepted), OFFSET the extended ACK's offending
 *	attribute offset from the start of the request (-1: none; the
 *	attribute is at 20), MESSAGE the extended ACK's text (may be empty).
 *	Policy -1: the op has no policy for that mode.
 *
 * ibtrace_nlsweep --join FAMILY GROUP
 *	Tries to join multicast group GROUP; prints errno=N (0: joined).
 *
 * FAMILY: ibtrace or ibtrace_sim (their uAPI headers give the sweep's
 * end). Exit: 0 done, 1 local failure, 2 usage, 3 no such family or
 * group.
 *
 * Build: gcc -Wall -Wextra -O2 -I../uapi ibtrace_nlsweep.c $(pkg-config
 *        --cflags --libs libnl-genl-3.0)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <linux/ibtrace.h>
#include <linux/ibtrace_sim.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

enum { EXIT_DONE, EXIT_LOCAL, EXIT_USAGE, EXIT_NO_FAMILY };

#define MAX_POLICIES	64
#define MAX_TYPES	1024
#define MAX_OPS		256
#define MAX_GROUPS	32
#define SWEEP_EXTRA	8

static const struct {
	const char *name;
	int maxattr, cmd_max;
} families[] = {
	{ IBTRACE_GENL_NAME, IBTRACE_A_MAX, IBTRACE_CMD_MAX },
	{ IBTRACE_SIM_GENL_NAME, IBTRACE_SIM_A_MAX, IBTRACE_SIM_CMD_MAX },
};

/* What nlctrl said about the family. */
static struct {
	int id, maxattr;
	int nops;
	struct { int cmd; uint32_t flags; } op[MAX_OPS];
	int do_policy[MAX_OPS + 1], dump_policy[MAX_OPS + 1];	/* by cmd */
	int ngroups;
	struct { char name[GENL_NAMSIZ]; uint32_t id; } group[MAX_GROUPS];
	unsigned char types[MAX_POLICIES][MAX_TYPES];		/* listed */
	unsigned char seen[MAX_POLICIES];
} fam;

/* The final answer to a request. */
struct answer {
	int err;		/* positive errno, 0 */
	long offs;		/* NLMSGERR_ATTR_OFFS, -1 */
	char msg[256];		/* NLMSGERR_ATTR_MSG */
};

typedef void (*reply_fn)(struct nlmsghdr *nlh);

static void __attribute__((noreturn, format(printf, 2, 3)))
fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ibtrace_nlsweep: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

/* The error, done or ACK message @nlh into @a. */
static void read_ack(struct nlmsghdr *nlh, struct answer *a)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	struct nlmsgerr *e = nlmsg_data(nlh);
	int err = 0, tlv_off = sizeof(err);

	if (nlh->nlmsg_type == NLMSG_ERROR) {
		if (nlmsg_datalen(nlh) < (int)sizeof(*e))
			fail(EXIT_LOCAL, "short NLMSG_ERROR");
		err = e->error;
		tlv_off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))	/* request echoed */
			tlv_off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	} else if (nlmsg_datalen(nlh) >= (int)sizeof(err)) {	/* DONE */
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
	}
	a->err = -err;
	a->offs = -1;
	a->msg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    nlmsg_parse(nlh, tlv_off, tb, NLMSGERR_ATTR_MAX, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(a->msg, sizeof(a->msg), "%.*s",
			 (int)strnlen(nla_data(tb[NLMSGERR_ATTR_MSG]),
				      nla_len(tb[NLMSGERR_ATTR_MSG])),
			 (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4)
		a->offs = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
}

/* Send @msg, hand each reply to @fn (may be NULL), fill @a from the end. */
static void transact(struct nl_sock *sk, struct nl_msg *msg, reply_fn fn,
		     struct answer *a)
{
	uint32_t seq;
	int n;

	n = nl_send_auto(sk, msg);
	if (n < 0)
		fail(EXIT_LOCAL, "sending: %s", nl_geterror(n));
	seq = nlmsg_hdr(msg)->nlmsg_seq;
	for (;;) {
		unsigned char *buf = NULL;
		struct sockaddr_nl from;
		struct nlmsghdr *nlh;

		n = nl_recv(sk, &from, &buf, NULL);
		if (n <= 0)
			fail(EXIT_LOCAL, "receiving: %s",
			     n ? nl_geterror(n) : "end of file");
		for (nlh = (void *)buf; nlmsg_ok(nlh, n);
		     nlh = nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE) {
				read_ack(nlh, a);
				free(buf);
				return;
			}
			if (fn)
				fn(nlh);
		}
		free(buf);
	}
}

static struct nl_msg *request(int family, int flags, uint8_t cmd, int version)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 flags | NLM_F_ACK, cmd, version))
		fail(EXIT_LOCAL, "out of memory");
	return msg;
}

static void family_reply(struct nlmsghdr *nlh)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1], *op, *grp;
	int rem;

	if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, NULL) < 0)
		fail(EXIT_LOCAL, "malformed CTRL_CMD_GETFAMILY reply");
	if (tb[CTRL_ATTR_FAMILY_ID])
		fam.id = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_MAXATTR])
		fam.maxattr = nla_get_u32(tb[CTRL_ATTR_MAXATTR]);
	if (tb[CTRL_ATTR_OPS]) {
		nla_for_each_nested(op, tb[CTRL_ATTR_OPS], rem) {
			struct nlattr *o[CTRL_ATTR_OP_MAX + 1];

			if (nla_parse_nested(o, CTRL_ATTR_OP_MAX, op, NULL) < 0 ||
			    !o[CTRL_ATTR_OP_ID] || fam.nops == MAX_OPS)
				fail(EXIT_LOCAL, "malformed op list");
			fam.op[fam.nops].cmd = nla_get_u32(o[CTRL_ATTR_OP_ID]);
			fam.op[fam.nops].flags = o[CTRL_ATTR_OP_FLAGS] ?
				nla_get_u32(o[CTRL_ATTR_OP_FLAGS]) : 0;
			if (fam.op[fam.nops].cmd > MAX_OPS)
				fail(EXIT_LOCAL, "op %d past %d",
				     fam.op[fam.nops].cmd, MAX_OPS);
			fam.nops++;
		}
	}
	if (tb[CTRL_ATTR_MCAST_GROUPS]) {
		nla_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS], rem) {
			struct nlattr *g[CTRL_ATTR_MCAST_GRP_MAX + 1];

			if (nla_parse_nested(g, CTRL_ATTR_MCAST_GRP_MAX, grp,
					     NULL) < 0 ||
			    !g[CTRL_ATTR_MCAST_GRP_NAME] ||
			    !g[CTRL_ATTR_MCAST_GRP_ID] ||
			    fam.ngroups == MAX_GROUPS)
				fail(EXIT_LOCAL, "malformed group list");
			snprintf(fam.group[fam.ngroups].name, GENL_NAMSIZ,
				 "%s", nla_get_string(g[CTRL_ATTR_MCAST_GRP_NAME]));
			fam.group[fam.ngroups].id =
				nla_get_u32(g[CTRL_ATTR_MCAST_GRP_ID]);
			fam.ngroups++;
		}
	}
}

static void policy_reply(struct nlmsghdr *nlh)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1], *pol, *t, *op;
	int rem, rem2;

	if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, NULL) < 0)
		fail(EXIT_LOCAL, "malformed CTRL_CMD_GETPOLICY reply");
	if (tb[CTRL_ATTR_POLICY]) {
		nla_for_each_nested(pol, tb[CTRL_ATTR_POLICY], rem) {
			int idx = nla_type(pol);

			if (idx >= MAX_POLICIES)
				fail(EXIT_LOCAL, "policy %d past %d", idx,
				     MAX_POLICIES);
			fam.seen[idx] = 1;
			nla_for_each_nested(t, pol, rem2)
				if (nla_type(t) < MAX_TYPES)
					fam.types[idx][nla_type(t)] = 1;
		}
	}
	if (tb[CTRL_ATTR_OP_POLICY]) {
		nla_for_each_nested(op, tb[CTRL_ATTR_OP_POLICY], rem) {
			struct nlattr *p[CTRL_ATTR_POLICY_DUMP_MAX + 1];
			int cmd = nla_type(op);

			if (cmd > MAX_OPS ||
			    nla_parse_nested(p, CTRL_ATTR_POLICY_DUMP_MAX, op,
					     NULL) < 0)
				fail(EXIT_LOCAL, "malformed op policy");
			if (p[CTRL_ATTR_POLICY_DO])
				fam.do_policy[cmd] =
					nla_get_u32(p[CTRL_ATTR_POLICY_DO]);
			if (p[CTRL_ATTR_POLICY_DUMP])
				fam.dump_policy[cmd] =
					nla_get_u32(p[CTRL_ATTR_POLICY_DUMP]);
		}
	}
}

static struct nl_sock *open_socket(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1, zero = 0, fd;

	if (!sk || genl_connect(sk) < 0)
		fail(EXIT_LOCAL, "cannot open a generic netlink socket");
	fd = nl_socket_get_fd(sk);
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &zero, sizeof(zero)))
		fail(EXIT_LOCAL, "enabling extended ACKs: %s", strerror(errno));
	nl_socket_set_buffer_size(sk, 1 << 20, 1 << 20);
	nl_socket_disable_auto_ack(sk);
	nl_socket_enable_msg_peek(sk);
	return sk;
}

/* Ask nlctrl about family @name; 0, or -1 when it does not exist. */
static int lookup(struct nl_sock *sk, const char *name)
{
	struct answer a;
	struct nl_msg *msg;
	int i;

	for (i = 0; i <= MAX_OPS; i++)
		fam.do_policy[i] = fam.dump_policy[i] = -1;
	msg = request(GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1);
	if (nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name) < 0)
		fail(EXIT_LOCAL, "out of memory");
	transact(sk, msg, family_reply, &a);
	nlmsg_free(msg);
	if (a.err)
		return -1;

	msg = request(GENL_ID_CTRL, NLM_F_DUMP, CTRL_CMD_GETPOLICY, 1);
	if (nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name) < 0)
		fail(EXIT_LOCAL, "out of memory");
	transact(sk, msg, policy_reply, &a);
	nlmsg_free(msg);
	if (a.err && a.err != ENODATA)	/* ENODATA: no op has a policy */
		fail(EXIT_LOCAL, "CTRL_CMD_GETPOLICY: %s", strerror(a.err));
	return 0;
}

static void print_family(const char *name, int hdr_max, int hdr_cmd_max)
{
	int i, t;

	printf("family %s id %d maxattr %d hdr_maxattr %d hdr_cmd_max %d\n",
	       name, fam.id, fam.maxattr, hdr_max, hdr_cmd_max);
	for (i = 0; i < fam.ngroups; i++)
		printf("group %s id %u\n", fam.group[i].name, fam.group[i].id);
	for (i = 0; i < fam.nops; i++) {
		int cmd = fam.op[i].cmd;
		uint32_t f = fam.op[i].flags;

		printf("op %d flags %#x do %d dump %d do_policy %d dump_policy %d\n",
		       cmd, f, !!(f & GENL_CMD_CAP_DO), !!(f & GENL_CMD_CAP_DUMP),
		       fam.do_policy[cmd], fam.dump_policy[cmd]);
	}
	for (i = 0; i < MAX_POLICIES; i++) {
		const char *sep = "";

		if (!fam.seen[i])
			continue;
		printf("policy %d types ", i);
		for (t = 0; t < MAX_TYPES; t++)
			if (fam.types[i][t]) {
				printf("%s%d", sep, t);
				sep = ",";
			}
		printf("%s\n", *sep ? "" : "-");
	}
}

/*
 * As root, a type the policy of an admin command (one that may change
 * state) lists is not sent: with the right payload it might act. Every
 * other request is refused before any handler runs.
 */
static int skip_in_policy(int i, int mode, int t)
{
	int cmd = fam.op[i].cmd;
	int p = mode ? fam.dump_policy[cmd] : fam.do_policy[cmd];

	return geteuid() == 0 && (fam.op[i].flags & GENL_ADMIN_PERM) &&
	       p >= 0 && p < MAX_POLICIES && t < MAX_TYPES && fam.types[p][t];
}

static void sweep(struct nl_sock *sk, int version, int max)
{
	int i, mode, t;

	for (i = 0; i < fam.nops; i++) {
		for (mode = 0; mode < 2; mode++) {
			uint32_t cap = mode ? GENL_CMD_CAP_DUMP : GENL_CMD_CAP_DO;

			if (!(fam.op[i].flags & cap))
				continue;
			for (t = 0; t <= max; t++) {
				struct nl_msg *msg;
				struct answer a;

				if (skip_in_policy(i, mode, t)) {
					printf("s %d %s %d\n", fam.op[i].cmd,
					       mode ? "dump" : "do", t);
					continue;
				}
				msg = request(fam.id, mode ? NLM_F_DUMP : 0,
					      fam.op[i].cmd, version);
				if (nla_put(msg, t, 0, NULL) < 0)
					fail(EXIT_LOCAL, "out of memory");
				transact(sk, msg, NULL, &a);
				nlmsg_free(msg);
				printf("r %d %s %d %d %ld %s\n", fam.op[i].cmd,
				       mode ? "dump" : "do", t, a.err, a.offs,
				       a.msg);
			}
		}
	}
}

/* Join group @name of the family; print errno=. */
static int join(struct nl_sock *sk, const char *name)
{
	int i, fd = nl_socket_get_fd(sk);

	for (i = 0; i < fam.ngroups; i++) {
		if (strcmp(fam.group[i].name, name))
			continue;
		if (setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			       &fam.group[i].id, sizeof(fam.group[i].id)))
			printf("errno=%d\n", errno);
		else
			printf("errno=0\n");
		return EXIT_DONE;
	}
	fail(EXIT_NO_FAMILY, "no multicast group \"%s\"", name);
}

int main(int argc, char **argv)
{
	const char *name, *group = NULL;
	struct nl_sock *sk;
	size_t f;

	if (argc == 4 && !strcmp(argv[1], "--join")) {
		name = argv[2];
		group = argv[3];
	} else if (argc == 2 && argv[1][0] != '-') {
		name = argv[1];
	} else {
		fprintf(stderr,
			"Usage: ibtrace_nlsweep FAMILY\n"
			"       ibtrace_nlsweep --join FAMILY GROUP\n");
		return EXIT_USAGE;
	}
	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		if (!strcmp(families[f].name, name))
			break;
	if (f == sizeof(families) / sizeof(families[0]))
		fail(EXIT_USAGE, "unknown family \"%s\"", name);

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	sk = open_socket();
	if (lookup(sk, name))
		fail(EXIT_NO_FAMILY, "no generic netlink family \"%s\"", name);
	if (group)
		return join(sk, group);
	print_family(name, families[f].maxattr, families[f].cmd_max);
	sweep(sk, f ? IBTRACE_SIM_GENL_VERSION : IBTRACE_GENL_VERSION,
	      (fam.maxattr > families[f].maxattr ?
	       fam.maxattr : families[f].maxattr) + SWEEP_EXTRA);
	return EXIT_DONE;
}
