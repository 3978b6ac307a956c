// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_nlraw - send one hand-built request to the generic netlink family
 * "ibtrace" and print the kernel's answer as key=value lines, so that shell
 * selftests can check that bad input is rejected with a clear message.
 * Attributes are sent as written, unchecked: unknown types, wrong lengths,
 * strings without NUL and out-of-range values are all allowed.
 *
 * Output: errno=N (0: success), errname=NAME (errors only), from the
 * extended ACK msg=TEXT, bad_attr_offset=N (from the start of the request),
 * bad_attr_type=T (the request's attribute at that offset), miss_attr_type=T,
 * and last messages=N (replies before the ACK/DONE, PING_PROBE included).
 * Exit: 0 the kernel answered (error or not), 1 local failure, 2 usage,
 * 3 no "ibtrace" family (module not loaded).
 *
 * Build: gcc -Wall -Wextra -O2 -I../uapi ibtrace_nlraw.c $(pkg-config
 *        --cflags --libs libnl-genl-3.0)
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <linux/ibtrace.h>

enum { EXIT_ANSWER, EXIT_LOCAL, EXIT_USAGE, EXIT_NO_FAMILY };

/* fail(): a line; a usage error points to --help */
#define ST_PROG		"ibtrace_nlraw"
#define ST_FAIL_USAGE	" (see --help)\n"
#define ST_FAIL_END	"\n"
#include "ibtrace_selftest.h"
#include "ibtrace_selftest_nl.h"

#define REQ_MAX		(128 * 1024)		/* request buffer */
#define VALUE_MAX	(0xffff - NLA_HDRLEN)	/* nla_len is a u16 */
#define N_ELEM(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const cmd_names[] = {
	[IBTRACE_CMD_UNSPEC] = "unspec", [IBTRACE_CMD_DEV_GET] = "dev_get",
	[IBTRACE_CMD_AGENT_GET] = "agent_get", [IBTRACE_CMD_PING] = "ping",
	[IBTRACE_CMD_PING_PROBE] = "ping_probe", [IBTRACE_CMD_TRACE] = "trace",
};

/* Request attributes; any other type can be given by number. */
static const char *const attr_names[] = {
	[IBTRACE_A_DEV_INDEX] = "dev_index", [IBTRACE_A_DEV_NAME] = "dev_name",
	[IBTRACE_A_PORT] = "port",
	[IBTRACE_A_PING_DGID] = "ping_dgid", [IBTRACE_A_PING_DLID] = "ping_dlid",
	[IBTRACE_A_PING_COUNT] = "ping_count",
	[IBTRACE_A_PING_INTERVAL_MS] = "ping_interval_ms",
	[IBTRACE_A_PING_TIMEOUT_MS] = "ping_timeout_ms",
	[IBTRACE_A_PING_RETRIES] = "ping_retries",
	[IBTRACE_A_PING_SROUTE] = "ping_sroute",
	[IBTRACE_A_TRACE_DLID] = "trace_dlid", [IBTRACE_A_TRACE_MLID] = "trace_mlid",
};

static void usage(void)
{
	printf(
"Usage: ibtrace_nlraw [--dump] [--no-ack] CMD [TYPE=KIND:VALUE...]\n"
"  CMD   number or dev_get agent_get ping ping_probe trace unspec\n"
"  TYPE  number or dev_index dev_name port ping_dgid ping_dlid\n"
"        ping_count ping_interval_ms ping_timeout_ms ping_retries ping_sroute\n"
"        trace_dlid trace_mlid\n"
"  KIND  u8:N u16:N u32:N u64:N (host order), str:TEXT (with NUL),\n"
"        strn:TEXT (no NUL), hex:0102ff, zero:N (N zero bytes), flag\n"
"Prints errno=, errname=, msg=, bad_attr_offset=, bad_attr_type=,\n"
"miss_attr_type=, messages=. Exit: 0 the kernel answered, 1 local\n"
"failure, 2 usage, 3 no ibtrace family.\n");
}

/* A number up to @max, or the index of @s in @names (may be NULL). */
static unsigned long long parse_num(const char *s, unsigned long long max,
				    const char *const *names, size_t n)
{
	unsigned long long v;
	char *end;
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || *s == '-' || errno || v > max)
		fail(EXIT_USAGE, "bad number or name '%s'", s);
	return v;
}

/* Append one TYPE=KIND:VALUE attribute to @msg (@arg is cut up). */
static void put_attr(struct nl_msg *msg, char *arg)
{
	static unsigned char buf[VALUE_MAX];
	char *kind = strchr(arg, '='), *val;
	const void *data = buf;
	unsigned long long v, type;
	size_t len = 0, i;

	if (!kind)
		fail(EXIT_USAGE, "bad attribute '%s' (want TYPE=KIND:VALUE)", arg);
	*kind++ = '\0';
	type = parse_num(arg, 0xffff, attr_names, N_ELEM(attr_names));
	val = strchr(kind, ':');
	if (val)
		*val++ = '\0';
	if (!strcmp(kind, "flag") && (!val || !*val)) {
		/* no payload */
	} else if (!val) {
		fail(EXIT_USAGE, "bad attribute %s=%s (want KIND:VALUE)", arg, kind);
	} else if (!strcmp(kind, "u8") || !strcmp(kind, "u16") ||
		   !strcmp(kind, "u32") || !strcmp(kind, "u64")) {
		uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;

		len = strtoul(kind + 1, NULL, 10) / 8;
		v = parse_num(val, len == 8 ? UINT64_MAX : (1ULL << 8 * len) - 1,
			      NULL, 0);
		u8 = v; u16 = v; u32 = v; u64 = v;
		memcpy(buf, len == 1 ? (void *)&u8 : len == 2 ? (void *)&u16 :
			    len == 4 ? (void *)&u32 : (void *)&u64, len);
	} else if (!strcmp(kind, "str") || !strcmp(kind, "strn")) {
		len = strlen(val) + (kind[3] ? 0 : 1);
		data = val;
	} else if (!strcmp(kind, "hex")) {
		len = strlen(val) / 2;
		if (strlen(val) % 2 || len > VALUE_MAX)
			fail(EXIT_USAGE, "bad hex value '%s'", val);
		for (i = 0; i < len; i++) {
			if (!isxdigit((unsigned char)val[2 * i]) ||
			    !isxdigit((unsigned char)val[2 * i + 1]))
				fail(EXIT_USAGE, "bad hex value '%s'", val);
			sscanf(val + 2 * i, "%2hhx", &buf[i]);
		}
	} else if (!strcmp(kind, "zero")) {
		len = parse_num(val, VALUE_MAX, NULL, 0);
		memset(buf, 0, len);
	} else {
		fail(EXIT_USAGE, "unknown kind '%s'", kind);
	}
	if (len > VALUE_MAX || nla_put(msg, type, len, data) < 0)
		fail(EXIT_USAGE, "request too big at attribute %s", arg);
}

static const char *errname(int err)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
	return strerrorname_np(err) ? strerrorname_np(err) : "UNKNOWN";
#else
#define E(x) { x, #x }
	static const struct { int err; const char *name; } tbl[] = {
		E(EINVAL), E(ENODEV), E(EPERM), E(EOPNOTSUPP), E(ENOENT),
		E(E2BIG), E(ERANGE), E(EMSGSIZE),
	};
	for (size_t i = 0; i < N_ELEM(tbl); i++)
		if (tbl[i].err == err)
			return tbl[i].name;
	return "UNKNOWN";
#endif
}

/* Print the last message @nlh (error, done or reply) answering @req. */
static void print_answer(struct nlmsghdr *nlh, const struct nlmsghdr *req,
			 int messages)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL }, *a;
	int err, bad_tlvs = st_nl_ack(nlh, tb, &err);

	printf("errno=%d\n", -err);
	if (err)
		printf("errname=%s\n", errname(-err));
	if (bad_tlvs < 0)
		fail(EXIT_LOCAL, "malformed extended ACK");
	a = tb[NLMSGERR_ATTR_MSG];
	if (a)
		printf("msg=%.*s\n", (int)strnlen(nla_data(a), nla_len(a)),
		       (const char *)nla_data(a));
	a = tb[NLMSGERR_ATTR_OFFS];
	if (a && nla_len(a) >= 4) {
		uint32_t off = nla_get_u32(a);

		printf("bad_attr_offset=%u\n", off);
		if (off >= NLMSG_HDRLEN && off + NLA_HDRLEN <= req->nlmsg_len)
			printf("bad_attr_type=%d\n",
			       nla_type((const void *)((const char *)req + off)));
	}
	a = tb[NLMSGERR_ATTR_MISS_TYPE];
	if (a && nla_len(a) >= 4)
		printf("miss_attr_type=%u\n", nla_get_u32(a));
	printf("messages=%d\n", messages);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dump", no_argument, NULL, 'd' }, { "help", no_argument, NULL, 'h' },
		{ "no-ack", no_argument, NULL, 'n' }, { NULL, 0, NULL, 0 },
	};
	int dump = 0, ack = 1, one = 1, zero = 0, messages = 0, family, fd, i;
	struct nlmsghdr *req;
	struct nl_sock *sk;
	struct nl_msg *msg;
	uint8_t cmd;

	while ((i = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (i) {
		case 'd': dump = 1; break;
		case 'n': ack = 0; break;
		case 'h': usage(); return EXIT_ANSWER;
		default: fail(EXIT_USAGE, "bad option");
		}
	}
	if (optind >= argc)
		fail(EXIT_USAGE, "missing CMD");
	cmd = parse_num(argv[optind], 0xff, cmd_names, N_ELEM(cmd_names));

	/* Build the request first: usage errors need no kernel module. */
	msg = nlmsg_alloc_size(REQ_MAX);
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, 0, 0,
				 (dump ? NLM_F_DUMP : 0) | (ack ? NLM_F_ACK : 0),
				 cmd, IBTRACE_GENL_VERSION))
		fail(EXIT_LOCAL, "out of memory");
	for (i = optind + 1; i < argc; i++)
		put_attr(msg, argv[i]);

	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk) < 0)
		fail(EXIT_LOCAL, "cannot open a generic netlink socket");
	family = genl_ctrl_resolve(sk, IBTRACE_GENL_NAME);
	if (family == -NLE_OBJ_NOTFOUND)
		fail(EXIT_NO_FAMILY, "ibtrace family not found");
	if (family < 0)
		fail(EXIT_LOCAL, "resolving the family: %s", nl_geterror(family));
	fd = nl_socket_get_fd(sk);
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &zero, sizeof(zero)))
		fail(EXIT_LOCAL, "enabling extended ACKs: %s", strerror(errno));
	nl_socket_set_buffer_size(sk, 1 << 20, 1 << 20);
	nl_socket_disable_auto_ack(sk);	/* NLM_F_ACK is ours to set */
	nl_socket_enable_msg_peek(sk);	/* an echoed request may be big */

	req = nlmsg_hdr(msg);
	req->nlmsg_type = family;
	i = nl_send_auto(sk, msg);
	if (i < 0)
		fail(EXIT_LOCAL, "sending the request: %s", nl_geterror(i));

	for (;;) {
		unsigned char *buf = NULL;
		struct sockaddr_nl from;
		struct nlmsghdr *nlh;
		int n = nl_recv(sk, &from, &buf, NULL);

		if (n <= 0)
			fail(EXIT_LOCAL, "receiving: %s",
			     n ? nl_geterror(n) : "end of file");
		for (nlh = (void *)buf; nlmsg_ok(nlh, n); nlh = nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_seq != req->nlmsg_seq)
				continue;
			if (nlh->nlmsg_type != NLMSG_ERROR &&
			    nlh->nlmsg_type != NLMSG_DONE) {
				messages++;
				/* Without an ACK a "do" ends with its reply. */
				if (dump || ack || nlh->nlmsg_flags & NLM_F_MULTI ||
				    genlmsg_hdr(nlh)->cmd == IBTRACE_CMD_PING_PROBE)
					continue;
			}
			print_answer(nlh, req, messages);
			return EXIT_ANSWER;
		}
		free(buf);
	}
}
