// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_nlsweep - what a generic netlink family accepts, as the kernel
 * says it, for the attribute sweep of ibtrace_nl_policy.sh and the
 * fuzzing of ibtrace_fuzz_nl.sh.
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
 * ibtrace_nlsweep --lengths FAMILY
 *	The sweep again, each type with each payload length of lengths[]
 *	(zero bytes), every request sent (as root too) and its answer
 *	checked (see enum cls and try()). Prints, for the commands that are
 *	not GENL_ADMIN_PERM (to compare two users' runs):
 *	  n CMD do|dump TYPE LENGTH CLASS ERRNO MESSAGE
 *
 * ibtrace_nlsweep --fuzz FAMILY [WORD...]
 *	IBTRACE_FUZZ_ITER (default 10000) random requests, from the seed
 *	IBTRACE_SEED (default 1): the same seed, family, user and kernel
 *	state give the same requests. Strings are drawn from the WORDs
 *	(device, fabric, node and test names). IBTRACE_FUZZ_VERBOSE=1 also
 *	prints every answer ("a I CLASS CMD ..."), =2 and the bytes of each
 *	accepted request ("h ..."). To bisect a seed's run,
 *	IBTRACE_FUZZ_ONLY=LETTERS sends only the requests of commands 0=a,
 *	1=b, ... of the same stream. IBTRACE_FUZZ_NO_ATTR=T[,T...] (at most
 *	MAX_NO_ATTR types): a request carrying a top-level attribute of one
 *	of these types is drawn again before it is sent (a flag that lets a
 *	request change the fabric under the campaign, say).
 *
 *	Both print what broke an expectation, the first MAX_SHOWN of them:
 *	  v lengths|random I: WHAT (I: the request's number)
 *	and the tallies:
 *	  stat FAMILY lengths|random sent N answered N accepted N ...
 *	    violations N secs S per_sec R well_formed N of_them_accepted N
 *	  class CLASS N with_msg N errnos ERRNO:COUNT...
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
#include <sys/time.h>
#include <time.h>
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

/* fail(): a line */
#define ST_PROG		"ibtrace_nlsweep"
#define ST_FAIL_USAGE	"\n"
#define ST_FAIL_END	"\n"
#include "ibtrace_selftest.h"
#include "ibtrace_selftest_nl.h"

#define MAX_POLICIES	64
#define MAX_TYPES	1024
#define MAX_OPS		256
#define MAX_GROUPS	32
#define SWEEP_EXTRA	8
#define MAX_KINDS	256

/* resv_start_op: the first command genl_header_check() applies to */
static const struct {
	const char *name;
	int maxattr, cmd_max, resv_start_op;
} families[] = {
	{ IBTRACE_GENL_NAME, IBTRACE_A_MAX, IBTRACE_CMD_MAX, 0 },
	{ IBTRACE_SIM_GENL_NAME, IBTRACE_SIM_A_MAX, IBTRACE_SIM_CMD_MAX,
	  IBTRACE_SIM_CMD_FABRIC_ADD },
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
	/* what the policy dump says of a listed type below MAX_KINDS */
	struct pattr {
		unsigned char kind;		/* NL_ATTR_TYPE_*, 0: unknown */
		int nested;			/* policy of a nest, -1 */
		uint64_t min, max;		/* value range, when max > 0 */
		uint32_t minlen, maxlen;	/* length bounds, 0: none */
	} pa[MAX_POLICIES][MAX_KINDS];
} fam;

/* The final answer to a request. */
struct answer {
	int err;		/* positive errno, 0 */
	long offs;		/* NLMSGERR_ATTR_OFFS, -1 */
	long miss;		/* NLMSGERR_ATTR_MISS_TYPE, -1 */
	char msg[256];		/* NLMSGERR_ATTR_MSG */
};

typedef void (*reply_fn)(struct nlmsghdr *nlh);

/* The error, done or ACK message @nlh into @a. */
static void read_ack(struct nlmsghdr *nlh, struct answer *a)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	int err, bad_tlvs = st_nl_ack(nlh, tb, &err);

	a->err = -err;
	a->offs = -1;
	a->miss = -1;
	a->msg[0] = '\0';
	if (bad_tlvs < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(a->msg, sizeof(a->msg), "%.*s",
			 (int)strnlen(nla_data(tb[NLMSGERR_ATTR_MSG]),
				      nla_len(tb[NLMSGERR_ATTR_MSG])),
			 (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4)
		a->offs = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4)
		a->miss = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
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

static uint64_t nla_get_any(const struct nlattr *a)
{
	uint64_t v = 0;

	memcpy(&v, nla_data(a), nla_len(a) < 8 ? nla_len(a) : 8);
	return v;
}

/* One type's entry of a policy dump (NL_POLICY_TYPE_ATTR_*) into @pa. */
static void read_pattr(struct pattr *pa, struct nlattr *t)
{
	struct nlattr *a[NL_POLICY_TYPE_ATTR_MAX + 1];

	pa->nested = -1;
	if (nla_parse_nested(a, NL_POLICY_TYPE_ATTR_MAX, t, NULL) < 0)
		return;
	if (a[NL_POLICY_TYPE_ATTR_TYPE])
		pa->kind = nla_get_u32(a[NL_POLICY_TYPE_ATTR_TYPE]);
	if (a[NL_POLICY_TYPE_ATTR_POLICY_IDX])
		pa->nested = nla_get_u32(a[NL_POLICY_TYPE_ATTR_POLICY_IDX]);
	if (a[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] &&
	    a[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]) {
		pa->min = nla_get_any(a[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]);
		pa->max = nla_get_any(a[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]);
	}
	if (a[NL_POLICY_TYPE_ATTR_MIN_LENGTH])
		pa->minlen = nla_get_u32(a[NL_POLICY_TYPE_ATTR_MIN_LENGTH]);
	if (a[NL_POLICY_TYPE_ATTR_MAX_LENGTH])
		pa->maxlen = nla_get_u32(a[NL_POLICY_TYPE_ATTR_MAX_LENGTH]);
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
			nla_for_each_nested(t, pol, rem2) {
				if (nla_type(t) < MAX_TYPES)
					fam.types[idx][nla_type(t)] = 1;
				if (nla_type(t) < MAX_KINDS)
					read_pattr(&fam.pa[idx][nla_type(t)], t);
			}
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

/* Fuzzing ------------------------------------------------------------------ */

/*
 * Requests are built by hand into a buffer and sent as one datagram each,
 * so that they can be wrong in every way: truncated headers, a short
 * genlmsghdr, nlmsg_len shorter or longer than the datagram, reserved
 * bits, any flags, nests of any depth. Each is followed by a fence (a
 * message without NLM_F_REQUEST but with NLM_F_ACK: netlink_rcv_skb()
 * acknowledges it at once, without calling genetlink), so that a request
 * that gets no answer (dropped, or accepted without NLM_F_ACK) is known
 * to have had none once the fence's ACK is read; a dump is read to its
 * end (NLMSG_DONE or an error) too.
 */

#define REQ_BUF		(64 * 1024)
#define RECV_BUF	(256 * 1024)
#define MAX_WORDS	64
#define MAX_SHOWN	40		/* violations printed in full */
#define REOPEN_EVERY	256		/* requests per socket */

static const int lengths[] = { 0, 1, 2, 3, 4, 7, 8, 16, 255, 4096 };

/*
 * What the kernel does with a request, known from its bytes before it is
 * sent. Only C_FAMILY reaches our families' code or policy; the others
 * are decided by af_netlink or the genetlink core of 6.1, which set no
 * extended ACK message for C_SHORT, C_CMD, C_PERM and C_MODE
 * (genl_family_rcv_msg(), genl_family_rcv_msg_{doit,dumpit}()).
 */
enum cls {
	C_DROP,		/* < 16 bytes, or nlmsg_len < 16 or past the datagram:
			 * netlink_rcv_skb() drops it, no answer */
	C_NOREQ,	/* no NLM_F_REQUEST: only an ACK (0), if NLM_F_ACK */
	C_SHORT,	/* nlmsg_len < 20, no whole genlmsghdr: EINVAL */
	C_HDR,		/* genlmsghdr.reserved or nlmsg_flags bits other than
			 * REQUEST, ACK, ECHO, DUMP: EINVAL with a message */
	C_CMD,		/* a command the family does not have: EOPNOTSUPP */
	C_PERM,		/* a GENL_ADMIN_PERM command, unprivileged: EPERM */
	C_MODE,		/* do/dump the command does not have: EOPNOTSUPP */
	C_FAMILY,	/* reaches the policy and the handlers */
	NCLS
};

static const char *const cls_name[NCLS] = {
	"dropped", "not_request", "short_genlhdr", "genlhdr_check",
	"unknown_cmd", "admin_eperm", "no_such_mode", "family",
};

static const int cls_errno[NCLS] = {
	[C_SHORT] = EINVAL, [C_HDR] = EINVAL, [C_CMD] = EOPNOTSUPP,
	[C_PERM] = EPERM, [C_MODE] = EOPNOTSUPP,
};

/* The outcome of one request. */
struct outcome {
	int answered;		/* an NLMSG_ERROR or NLMSG_DONE came */
	int replies;		/* other messages with its sequence number */
	struct answer a;
};

#define MAX_NO_ATTR	8	/* top-level types a campaign may leave out */

static struct {
	int fd;
	uint32_t portid, seq;
	int root, version, hdr_max, resv_start_op;
	unsigned char *rbuf;
	int nwords;
	const char *word[MAX_WORDS];
	uint64_t rng;
	/* tallies */
	long sent, answered, accepted, with_msg, replies, lost, overruns;
	long by_cls[NCLS], cls_msg[NCLS];
	long errnos[NCLS][256];
	long violations;
	const char *what;	/* "lengths" or "random" */
	int valid;		/* this request is meant to pass the policy */
	int verbose;		/* IBTRACE_FUZZ_VERBOSE: every answer */
	long valid_sent, valid_accepted;
	long acc_cmd[256];	/* accepted, by command */
	int no_attr[MAX_NO_ATTR];	/* IBTRACE_FUZZ_NO_ATTR */
	int nno_attr;
} fz;

static uint64_t rnd64(void)
{
	return st_splitmix64(&fz.rng);
}

static uint32_t rnd(uint32_t n)
{
	return n ? rnd64() % n : 0;
}

static void fz_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	struct timeval tv = { .tv_sec = 5 };
	int one = 1, zero = 0, size = 1 << 20;

	if (fz.fd > 0)
		close(fz.fd);	/* cancels the jobs it started (not detached) */
	fz.fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fz.fd < 0 || bind(fz.fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fz.fd, (struct sockaddr *)&sa, &salen))
		fail(EXIT_LOCAL, "netlink socket: %s", strerror(errno));
	fz.portid = sa.nl_pid;
	if (setsockopt(fz.fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fz.fd, SOL_NETLINK, NETLINK_CAP_ACK, &zero, sizeof(zero)) ||
	    setsockopt(fz.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		fail(EXIT_LOCAL, "socket options: %s", strerror(errno));
	setsockopt(fz.fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	setsockopt(fz.fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
}

static int op_index(int cmd)
{
	int i;

	for (i = 0; i < fam.nops; i++)
		if (fam.op[i].cmd == cmd)
			return i;
	return -1;
}

static int is_dump(uint16_t flags)
{
	return (flags & NLM_F_DUMP) == NLM_F_DUMP;
}

static enum cls classify(const unsigned char *buf, size_t len)
{
	const struct nlmsghdr *nlh = (const void *)buf;
	const struct genlmsghdr *g = (const void *)(buf + NLMSG_HDRLEN);
	uint16_t f;
	int i;

	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
	    nlh->nlmsg_len > len)
		return C_DROP;
	if (!(nlh->nlmsg_flags & NLM_F_REQUEST))
		return C_NOREQ;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return C_SHORT;
	f = nlh->nlmsg_flags;
	if (is_dump(f))
		f &= ~NLM_F_DUMP;
	if (g->cmd >= fz.resv_start_op &&
	    (g->reserved || (f & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO))))
		return C_HDR;
	i = op_index(g->cmd);
	if (i < 0)
		return C_CMD;
	if ((fam.op[i].flags & GENL_ADMIN_PERM) && !fz.root)
		return C_PERM;
	if (!(fam.op[i].flags & (is_dump(nlh->nlmsg_flags) ?
				 GENL_CMD_CAP_DUMP : GENL_CMD_CAP_DO)))
		return C_MODE;
	return C_FAMILY;
}

static void fz_send(const void *buf, size_t len)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	if (sendto(fz.fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		fail(EXIT_LOCAL, "sendto: %s", strerror(errno));
}

/*
 * Send the @len bytes of @buf (sequence number @seq), then the fence, and
 * read until the fence's ACK, and the end of the dump when @dump.
 */
static void exchange(const unsigned char *buf, size_t len, uint32_t seq,
		     int dump, struct outcome *o)
{
	struct {
		struct nlmsghdr n;
	} fence = { { .nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = fam.id,
		      .nlmsg_flags = NLM_F_ACK, .nlmsg_seq = seq + 1 } };
	int fenced = 0;

	memset(o, 0, sizeof(*o));
	fz_send(buf, len);
	fz_send(&fence, sizeof(fence));
	while (!fenced || (dump && !o->answered)) {
		struct nlmsghdr *nlh;
		int n = recv(fz.fd, fz.rbuf, RECV_BUF, 0);

		if (n < 0 && errno == ENOBUFS) {
			fz.overruns++;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			fz.lost++;
			return;
		}
		if (n < 0)
			fail(EXIT_LOCAL, "recv: %s", strerror(errno));
		for (nlh = (void *)fz.rbuf; nlmsg_ok(nlh, n);
		     nlh = nlmsg_next(nlh, &n)) {
			int end = nlh->nlmsg_type == NLMSG_ERROR ||
				  nlh->nlmsg_type == NLMSG_DONE;

			if (nlh->nlmsg_seq == seq + 1 && end &&
			    nlh->nlmsg_pid == fz.portid) {
				fenced = 1;
			} else if (nlh->nlmsg_seq != seq) {
				continue;	/* a job's message, an old one */
			} else if (end && !o->answered) {
				o->answered = 1;
				read_ack(nlh, &o->a);
			} else if (!end) {
				o->replies++;
			}
		}
	}
}

static void __attribute__((format(printf, 2, 3)))
violation(long i, const char *fmt, ...)
{
	va_list ap;

	if (fz.violations++ >= MAX_SHOWN)
		return;
	printf("v %s %ld: ", fz.what, i);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Policy of the op of @cmd for the mode of @flags, or -1. */
static int op_policy(int cmd, uint16_t flags)
{
	int p = is_dump(flags) ? fam.dump_policy[cmd] : fam.do_policy[cmd];

	return p >= 0 && p < MAX_POLICIES ? p : -1;
}

static int fixed_len(int kind)
{
	switch (kind) {
	case NL_ATTR_TYPE_FLAG:
		return 0;
	case NL_ATTR_TYPE_U8: case NL_ATTR_TYPE_S8:
		return 1;
	case NL_ATTR_TYPE_U16: case NL_ATTR_TYPE_S16:
		return 2;
	case NL_ATTR_TYPE_U32: case NL_ATTR_TYPE_S32:
		return 4;
	case NL_ATTR_TYPE_U64: case NL_ATTR_TYPE_S64:
	case NL_ATTR_TYPE_BITFIELD32:
		return 8;
	}
	return -1;
}

/*
 * An accepted request holds only what its policy lets through: every
 * top-level type listed, a fixed-size type of its size, a length bound
 * kept. Returns a description of the first breach, or NULL.
 */
static const char *accepted_garbage(const unsigned char *buf, int p,
				    char *why, size_t size)
{
	const struct nlmsghdr *nlh = (const void *)buf;
	struct nlattr *a;
	int rem;

	if (p < 0)
		return NULL;
	a = (struct nlattr *)(buf + NLMSG_HDRLEN + GENL_HDRLEN);
	rem = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	for (; nla_ok(a, rem); a = nla_next(a, &rem)) {
		int t = nla_type(a), fl;
		const struct pattr *pa;

		if (t >= MAX_TYPES || !fam.types[p][t]) {
			snprintf(why, size, "type %d is not in policy %d", t, p);
			return why;
		}
		if (t >= MAX_KINDS)
			continue;
		pa = &fam.pa[p][t];
		fl = fixed_len(pa->kind);
		if (fl >= 0 && nla_len(a) != fl) {
			snprintf(why, size, "type %d (kind %d) of length %d",
				 t, pa->kind, nla_len(a));
			return why;
		}
		if (pa->maxlen && (pa->kind == NL_ATTR_TYPE_BINARY ||
				   pa->kind == NL_ATTR_TYPE_NUL_STRING) &&
		    (uint32_t)nla_len(a) > pa->maxlen + 1) {
			snprintf(why, size, "type %d of length %d, max %u", t,
				 nla_len(a), pa->maxlen);
			return why;
		}
	}
	return NULL;
}

/*
 * An errno no request should get from our families: one internal to the
 * kernel (ENOTSUPP 524, ERESTARTSYS...: above the uAPI's), a reply that
 * did not fit (EMSGSIZE), a copy that faulted (EFAULT), a socket buffer
 * (ENOBUFS).
 */
static int wrong_errno(int err)
{
	return err < 0 || err > EHWPOISON || err == EMSGSIZE ||
	       err == EFAULT || err == ENOBUFS;
}

/* Send request @i (@len bytes in @buf) and check the kernel's answer. */
static enum cls try(long i, unsigned char *buf, size_t len, struct outcome *op)
{
	struct nlmsghdr *nlh = (void *)buf;
	const struct genlmsghdr *g = (const void *)(buf + NLMSG_HDRLEN);
	enum cls c = classify(buf, len);
	int dump = c == C_FAMILY && is_dump(nlh->nlmsg_flags);
	uint16_t flags = len >= NLMSG_HDRLEN ? nlh->nlmsg_flags : 0;
	int cmd = len >= NLMSG_HDRLEN + GENL_HDRLEN ? g->cmd : -1;
	struct outcome o;
	char why[128];

	if (!op)
		op = &o;
	fz.seq += 2;
	if (len >= NLMSG_HDRLEN)
		nlh->nlmsg_seq = fz.seq;
	exchange(buf, len, fz.seq, dump, op);
	fz.sent++;
	fz.by_cls[c]++;
	fz.replies += op->replies;
	if (!op->answered) {
		if (c == C_DROP || (c == C_NOREQ && !(flags & NLM_F_ACK)) ||
		    (c == C_FAMILY && !(flags & NLM_F_ACK) && !dump)) {
			if (c == C_FAMILY) {
				fz.accepted++;
				fz.acc_cmd[cmd & 0xff]++;
			}
			return c;
		}
		violation(i, "%s cmd %d flags %#x len %zu: no answer",
			  cls_name[c], cmd, flags, len);
		return c;
	}
	fz.answered++;
	fz.errnos[c][op->a.err < 0 || op->a.err > 255 ? 255 : op->a.err]++;
	if (fz.verbose)
		printf("a %ld %s%s cmd %d flags %#x len %zu errno %d offs %ld %s\n",
		       i, cls_name[c], fz.valid ? "/wf" : "", cmd, flags, len,
		       op->a.err, op->a.offs, op->a.msg);
	if (fz.verbose > 1 && !op->a.err) {	/* =2: and what was accepted */
		size_t k;

		printf("h");
		for (k = 0; k < len; k++)
			printf("%s%02x", k % 4 ? "" : " ", buf[k]);
		putchar('\n');
	}
	if (op->a.msg[0]) {
		fz.with_msg++;
		fz.cls_msg[c]++;
	}
	switch (c) {
	case C_DROP:
		violation(i, "len %zu nlmsg_len %u: answered (errno %d)", len,
			  len >= 4 ? nlh->nlmsg_len : 0, op->a.err);
		break;
	case C_NOREQ:
		if (op->a.err || !(flags & NLM_F_ACK))
			violation(i, "flags %#x without NLM_F_REQUEST: errno %d",
				  flags, op->a.err);
		break;
	case C_FAMILY:
		if (op->a.err && !op->a.msg[0])
			violation(i, "cmd %d %s flags %#x len %zu: errno %d "
				  "without an extended ACK message (missing "
				  "type %ld)", cmd,
				  is_dump(flags) ? "dump" : "do", flags, len,
				  op->a.err, op->a.miss);
		if (wrong_errno(op->a.err))
			violation(i, "cmd %d %s flags %#x len %zu: errno %d (%s)",
				  cmd, is_dump(flags) ? "dump" : "do", flags,
				  len, op->a.err, op->a.msg);
		if (!op->a.err) {
			fz.accepted++;
			fz.acc_cmd[cmd & 0xff]++;
			if (accepted_garbage(buf, op_policy(cmd, flags), why,
					     sizeof(why)))
				violation(i, "cmd %d %s accepted: %s", cmd,
					  is_dump(flags) ? "dump" : "do", why);
		}
		break;
	default:
		if (op->a.err != cls_errno[c])
			violation(i, "%s cmd %d flags %#x: errno %d (%s), want %d",
				  cls_name[c], cmd, flags, op->a.err, op->a.msg,
				  cls_errno[c]);
		if (c == C_HDR && !op->a.msg[0])
			violation(i, "%s cmd %d: no message", cls_name[c], cmd);
		break;
	}
	return c;
}

/* Request building ---------------------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t len, size;
};

static void *put(struct buf *b, size_t n)
{
	void *p;

	if (b->len + n > b->size)
		return NULL;
	p = b->p + b->len;
	b->len += n;
	return p;
}

static void put_header(struct buf *b, int cmd, uint16_t flags, int version)
{
	struct nlmsghdr *nlh = put(b, NLMSG_HDRLEN);
	struct genlmsghdr *g = put(b, GENL_HDRLEN);

	memset(nlh, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_type = fam.id;
	nlh->nlmsg_flags = flags;
	g->cmd = cmd;
	g->version = version;
}

static void finish(struct buf *b)
{
	((struct nlmsghdr *)b->p)->nlmsg_len = b->len;
}

/* An attribute of @type with @len bytes of @data (NULL: zeros); 0 or -1. */
static int put_attr(struct buf *b, int type, const void *data, size_t len)
{
	size_t pad = NLA_ALIGN(NLA_HDRLEN + len) - NLA_HDRLEN - len;
	struct nlattr *a;

	if (NLA_HDRLEN + len > 0xffff || b->len + NLA_HDRLEN + len + pad >
	    b->size)
		return -1;
	a = put(b, NLA_HDRLEN);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (data)
		memcpy(put(b, len), data, len);
	else
		memset(put(b, len), 0, len);
	memset(put(b, pad), 0, pad);
	return 0;
}

/* The length sweep: every command x mode x type x length, zero payload. */
static void sweep_lengths(int max)
{
	static unsigned char space[REQ_BUF];
	long i = 0;
	int k, mode, t;
	size_t l;

	fz.what = "lengths";
	for (k = 0; k < fam.nops; k++) {
		int cmd = fam.op[k].cmd;
		int admin = !!(fam.op[k].flags & GENL_ADMIN_PERM);

		for (mode = 0; mode < 2; mode++) {
			uint32_t cap = mode ? GENL_CMD_CAP_DUMP : GENL_CMD_CAP_DO;

			if (!(fam.op[k].flags & cap))
				continue;
			for (t = 0; t <= max; t++) {
				for (l = 0; l < sizeof(lengths) /
					       sizeof(lengths[0]); l++) {
					struct buf b = { space, 0, sizeof(space) };
					struct outcome o;
					enum cls c;

					put_header(&b, cmd, NLM_F_REQUEST |
						   NLM_F_ACK |
						   (mode ? NLM_F_DUMP : 0),
						   fz.version);
					put_attr(&b, t, NULL, lengths[l]);
					finish(&b);
					c = try(i++, space, b.len, &o);
					if (admin)
						continue;
					/* compared with the other user's */
					printf("n %d %s %d %d %s %d %s\n", cmd,
					       mode ? "dump" : "do", t,
					       lengths[l], cls_name[c],
					       o.answered ? o.a.err : -1,
					       o.a.msg);
				}
			}
			if (fz.root && (i & 1023) == 0)
				fz_open();
		}
	}
}

/* Random requests ----------------------------------------------------------- */

static void fill_random(void *p, size_t n)
{
	unsigned char *c = p;
	size_t k;

	switch (rnd(4)) {
	case 0:
		memset(p, 0, n);
		return;
	case 1:
		memset(p, rnd(2) ? 0xff : rnd(256), n);
		return;
	}
	for (k = 0; k < n; k++)
		c[k] = rnd64();
}

static int random_type(int p)
{
	int t, n = 0, k;

	switch (fz.valid ? 0 : rnd(10)) {
	case 0: case 1: case 2: case 3: case 4: case 5:
		if (p < 0)
			break;
		for (t = 0; t < MAX_KINDS; t++)
			n += fam.types[p][t];
		if (!n)
			break;
		k = rnd(n);
		for (t = 0; t < MAX_KINDS; t++)
			if (fam.types[p][t] && !k--)
				return t;
		break;
	case 9:
		return rnd(0x10000);	/* NLA_F_NESTED, NLA_F_NET_BYTEORDER */
	}
	return rnd(fz.hdr_max + SWEEP_EXTRA + 1);
}

static int put_random_attr(struct buf *b, int p, int depth);

/* A nest of @type holding 1-4 attributes of policy @p (-1: any types). */
static int put_random_nest(struct buf *b, int type, int p, int depth)
{
	size_t start = b->len;
	int n = 1 + rnd(4), k;
	struct nlattr *a;

	if (!put(b, NLA_HDRLEN))
		return -1;
	for (k = 0; k < n; k++)
		if (put_random_attr(b, p, depth + 1))
			break;
	a = (struct nlattr *)(b->p + start);
	a->nla_type = type | (fz.valid || rnd(8) ? NLA_F_NESTED : 0);
	a->nla_len = b->len - start;
	if (b->len - start > 0xffff) {
		b->len = start;
		return -1;
	}
	return 0;
}

/* A value for a fixed-size @pa: in its range, small, or anything. */
static void random_value(const struct pattr *pa, void *v, int len)
{
	uint64_t x, span;

	switch (fz.valid ? rnd(2) : rnd(3)) {
	case 0:
		/* a u64's whole range has no span that fits in 64 bits */
		span = pa->max - pa->min + 1;
		x = pa->max <= pa->min ? rnd(4) :
		    span ? pa->min + rnd64() % span : rnd64();
		break;
	case 1:
		x = rnd(4);
		break;
	default:
		x = rnd64();
	}
	memcpy(v, &x, len);	/* little-endian host: the low bytes */
}

static int put_random_attr(struct buf *b, int p, int depth)
{
	unsigned char v[4096];
	const struct pattr *pa = NULL;
	int t = random_type(p), fl, kind = 0;
	size_t len;

	if (p >= 0 && t < MAX_KINDS && fam.types[p][t]) {
		pa = &fam.pa[p][t];
		kind = pa->kind;
	}
	if (depth < 3 && ((kind == NL_ATTR_TYPE_NESTED && (fz.valid || rnd(4))) ||
			  (kind == NL_ATTR_TYPE_NESTED_ARRAY &&
			   (fz.valid || rnd(4))) ||
			  (!fz.valid && !rnd(10)))) {
		int inner = pa && pa->nested >= 0 && pa->nested < MAX_POLICIES ?
			    pa->nested : -1;

		if (kind == NL_ATTR_TYPE_NESTED_ARRAY) {
			size_t start = b->len;
			struct nlattr *a = put(b, NLA_HDRLEN);
			int n = 1 + rnd(3), k;

			if (!a)
				return -1;
			for (k = 0; k < n; k++)
				if (put_random_nest(b, k + rnd(2), inner,
						    depth + 1))
					break;
			a = (struct nlattr *)(b->p + start);
			a->nla_type = t | NLA_F_NESTED;
			a->nla_len = b->len - start;
			return 0;
		}
		return put_random_nest(b, t, inner, depth);
	}
	fl = fixed_len(kind);
	if (pa && fl >= 0 && (fz.valid || rnd(4))) {
		random_value(pa, v, fl);
		return put_attr(b, t, v, fl);
	}
	if ((kind == NL_ATTR_TYPE_NUL_STRING || kind == NL_ATTR_TYPE_STRING ||
	     !rnd(8)) && fz.nwords && (fz.valid || rnd(2))) {
		const char *w = fz.word[rnd(fz.nwords)];

		len = strlen(w) + (fz.valid || rnd(4) ? 1 : 0); /* NUL or not */
		return put_attr(b, t, w, len);
	}
	if (fz.valid && pa && (pa->minlen || pa->maxlen)) {
		uint32_t hi = pa->maxlen ? pa->maxlen : pa->minlen + 64;

		len = pa->minlen + rnd(hi - pa->minlen + 1);
		fill_random(v, len > sizeof(v) ? sizeof(v) : len);
		return put_attr(b, t, v, len > sizeof(v) ? sizeof(v) : len);
	}
	len = rnd(3) ? (size_t)lengths[rnd(sizeof(lengths) / sizeof(lengths[0]))] :
	      rnd(300);
	if (depth && len > 255)
		len = rnd(256);
	fill_random(v, len);
	return put_attr(b, t, v, len);
}

/* One random request into @b. */
static void random_request(struct buf *b)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	int cmd, version = fz.version, n, k, p;
	size_t full;

	fz.valid = rnd(3) == 0;
	if (fz.valid) {
		/* meant to pass the policy: the handlers' turn */
		k = rnd(fam.nops);
		cmd = fam.op[k].cmd;
		if (!(fam.op[k].flags & GENL_CMD_CAP_DO) ||
		    ((fam.op[k].flags & GENL_CMD_CAP_DUMP) && rnd(2)))
			flags |= NLM_F_DUMP;
		put_header(b, cmd, flags, version);
		p = op_policy(cmd, flags);
		for (k = n = 0; p >= 0 && k < MAX_KINDS; k++)
			n += fam.types[p][k];
		n = n ? 1 + rnd(8) : 0;	/* none if it takes none */
		for (k = 0; k < n; k++)
			if (put_random_attr(b, p, 0))
				break;
		finish(b);
		fz.valid_sent++;
		return;
	}
	if (rnd(10) < 8)
		cmd = fam.op[rnd(fam.nops)].cmd;
	else
		cmd = rnd(2) ? (int)rnd(MAX_OPS) : (int)rnd(256);
	if (rnd(3) == 0)
		flags |= NLM_F_DUMP;
	else if (rnd(16) == 0)
		flags |= rnd(2) ? NLM_F_ROOT : NLM_F_MATCH;
	if (rnd(16) == 0)
		flags |= NLM_F_ECHO;
	if (rnd(24) == 0)
		flags ^= 1 << rnd(16);		/* any bit, REQUEST or ACK too */
	if (rnd(32) == 0)
		flags = rnd(0x10000);
	if (rnd(8) == 0)
		version = rnd(256);
	put_header(b, cmd, flags, version);
	g = (struct genlmsghdr *)(b->p + NLMSG_HDRLEN);
	if (rnd(32) == 0)
		g->reserved = 1 + rnd(0xffff);
	p = cmd <= MAX_OPS ? op_policy(cmd, flags) : -1;
	n = 1 + rnd(8);
	for (k = 0; k < n; k++)
		if (put_random_attr(b, p, 0))
			break;
	finish(b);
	nlh = (struct nlmsghdr *)b->p;
	full = b->len;

	/* Truncations: never leave 16 bytes after the message (a second). */
	switch (rnd(24)) {
	case 0:		/* a truncated nlmsghdr (sendto() refuses 0 bytes) */
		b->len = 1 + rnd(NLMSG_HDRLEN - 1);
		break;
	case 1:		/* nlmsg_len below a header */
		nlh->nlmsg_len = rnd(NLMSG_HDRLEN);
		break;
	case 2:		/* a short genlmsghdr */
		nlh->nlmsg_len = NLMSG_HDRLEN + rnd(GENL_HDRLEN);
		b->len = nlh->nlmsg_len;
		break;
	case 3:		/* nlmsg_len past the datagram */
		nlh->nlmsg_len = full + 1 + rnd(4096);
		break;
	case 4:		/* cut inside the attributes */
		nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN +
				 rnd(full - NLMSG_HDRLEN - GENL_HDRLEN + 1);
		b->len = NLMSG_ALIGN(nlh->nlmsg_len) + rnd(NLMSG_HDRLEN);
		if (b->len > full)
			b->len = full;
		break;
	case 5:		/* the datagram cut, nlmsg_len unchanged */
		b->len = 1 + rnd(full);
		break;
	}
}

/* Does the request carry a top-level attribute of IBTRACE_FUZZ_NO_ATTR? */
static int has_no_attr(const unsigned char *req, size_t len)
{
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
	int k;

	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const void *)(req + off);

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len - off)
			break;
		for (k = 0; k < fz.nno_attr; k++)
			if ((a->nla_type & NLA_TYPE_MASK) == fz.no_attr[k])
				return 1;
		off += NLA_ALIGN(a->nla_len);
	}
	return 0;
}

static void fuzz_random(long iters)
{
	static unsigned char space[REQ_BUF];
	long i;

	/* IBTRACE_FUZZ_ONLY=LETTERS: send only commands 0=a, 1=b, ... */
	const char *only = getenv("IBTRACE_FUZZ_ONLY");

	fz.what = "random";
	for (i = 0; i < iters; i++) {
		struct buf b = { space, 0, sizeof(space) };
		struct outcome o;
		int tries;

		random_request(&b);
		/* a request with a type left out is drawn again (bounded) */
		for (tries = 0; tries < 64 && has_no_attr(space, b.len); tries++) {
			b.len = 0;
			random_request(&b);
		}
		if (only && (b.len < NLMSG_HDRLEN + GENL_HDRLEN ||
			     !strchr(only, 'a' + space[NLMSG_HDRLEN] % 26)))
			continue;	/* bisecting a seed's run */
		if (try(i, space, b.len, &o) == C_FAMILY && fz.valid &&
		    o.answered && !o.a.err)
			fz.valid_accepted++;
		if (i % REOPEN_EVERY == REOPEN_EVERY - 1)
			fz_open();
	}
}

static void print_tallies(const char *name, double secs)
{
	int c, e;

	printf("stat %s %s sent %ld answered %ld accepted %ld with_msg %ld "
	       "replies %ld lost %ld overruns %ld violations %ld secs %.1f "
	       "per_sec %.0f well_formed %ld of_them_accepted %ld\n", name, fz.what, fz.sent, fz.answered,
	       fz.accepted, fz.with_msg, fz.replies, fz.lost, fz.overruns,
	       fz.violations, secs, secs > 0 ? fz.sent / secs : 0,
	       fz.valid_sent, fz.valid_accepted);
	for (c = 0; c < NCLS; c++) {
		printf("class %s %ld with_msg %ld errnos", cls_name[c],
		       fz.by_cls[c], fz.cls_msg[c]);
		for (e = 0; e < 256; e++)
			if (fz.errnos[c][e])
				printf(" %d:%ld", e, fz.errnos[c][e]);
		putchar('\n');
	}
	printf("accepted_by_cmd");
	for (c = 0; c < 256; c++)
		if (fz.acc_cmd[c])
			printf(" %d:%ld", c, fz.acc_cmd[c]);
	putchar('\n');
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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* IBTRACE_FUZZ_NO_ATTR=T[,T...]: the types into fz.no_attr. */
static void no_attr_parse(const char *v)
{
	char *end;
	long t;

	while (v && *v) {
		errno = 0;
		t = strtol(v, &end, 10);
		if (errno || end == v || t <= 0 || t > 0x3fff ||
		    fz.nno_attr == MAX_NO_ATTR || (*end && *end != ','))
			fail(EXIT_USAGE, "IBTRACE_FUZZ_NO_ATTR: bad list at \"%s\"", v);
		fz.no_attr[fz.nno_attr++] = t;
		v = *end ? end + 1 : end;
	}
}

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return def;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || n < 0)
		fail(EXIT_USAGE, "%s=\"%s\" is not a number", name, v);
	return n;
}

int main(int argc, char **argv)
{
	const char *name, *group = NULL, *mode = NULL;
	struct nl_sock *sk;
	int max, version;
	double t0;
	size_t f;

	if (argc == 4 && !strcmp(argv[1], "--join")) {
		name = argv[2];
		group = argv[3];
	} else if (argc >= 3 && (!strcmp(argv[1], "--lengths") ||
				 !strcmp(argv[1], "--fuzz"))) {
		mode = argv[1];
		name = argv[2];
		for (argc -= 3, argv += 3; argc > 0 && fz.nwords < MAX_WORDS;
		     argc--, argv++)
			fz.word[fz.nwords++] = *argv;
	} else if (argc == 2 && argv[1][0] != '-') {
		name = argv[1];
	} else {
		fprintf(stderr,
			"Usage: ibtrace_nlsweep FAMILY\n"
			"       ibtrace_nlsweep --join FAMILY GROUP\n"
			"       ibtrace_nlsweep --lengths FAMILY\n"
			"       ibtrace_nlsweep --fuzz FAMILY [WORD...]\n");
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
	version = f ? IBTRACE_SIM_GENL_VERSION : IBTRACE_GENL_VERSION;
	max = (fam.maxattr > families[f].maxattr ?
	       fam.maxattr : families[f].maxattr) + SWEEP_EXTRA;
	if (!mode) {
		print_family(name, families[f].maxattr, families[f].cmd_max);
		sweep(sk, version, max);
		return EXIT_DONE;
	}

	fz.root = geteuid() == 0;
	fz.verbose = env_long("IBTRACE_FUZZ_VERBOSE", 0);
	no_attr_parse(getenv("IBTRACE_FUZZ_NO_ATTR"));
	fz.version = version;
	fz.resv_start_op = families[f].resv_start_op;
	fz.hdr_max = max - SWEEP_EXTRA;
	fz.rbuf = malloc(RECV_BUF);
	if (!fz.rbuf)
		fail(EXIT_LOCAL, "out of memory");
	fz_open();
	t0 = now();
	if (!strcmp(mode, "--lengths")) {
		sweep_lengths(max);
	} else {
		uint64_t seed = env_long("IBTRACE_SEED", 1);

		fz.rng = seed;
		printf("seed %llu\n", (unsigned long long)seed);
		fuzz_random(env_long("IBTRACE_FUZZ_ITER", 10000));
	}
	print_tallies(name, now() - t0);
	return EXIT_DONE;
}
