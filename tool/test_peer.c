// SPDX-License-Identifier: GPL-2.0-only
/*
 * The peer of the tests that a peer host's ibtrace server serves (the RNR
 * test's peer mode, the perf, quit and transaction tests): their options
 * --peer GID and --peer-port N, the request attributes of these, and how a result names
 * its peer in the header (" peer fe80::2 port 7471") and in JSON. The
 * framework decodes the peer's GID (struct result.peer_gid).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "test.h"

/* --peer-port (@port) or --peer: its argument @arg into @p. */
int test_peer_opt(struct test_peer_args *p, bool port, const char *arg)
{
	if (port)
		return ibt_opt_range("--peer-port", arg, 1, 65535, "an RDMA CM port ",
				     "", &p->port, &p->has_port);
	return ibt_opt_ok(ibt_parse_gid(arg, p->gid), &p->has_gid,
			  "bad --peer \"%s\": expected a GID such as fe80::1", arg);
}

/* The attributes of the options given; -1 when the message is full. */
int test_peer_request(struct nl_msg *msg, const struct test_peer_args *p)
{
	if ((p->has_gid &&
	     nla_put(msg, IBTRACE_A_TEST_PEER_GID, sizeof(p->gid), p->gid) < 0) ||
	    (p->has_port && nla_put_u16(msg, IBTRACE_A_TEST_PEER_PORT, p->port) < 0))
		return -1;
	return 0;
}

static const char *gid_str(const uint8_t gid[16], char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

/*
 * A struct ibt_test_def.dut_text: " peer fe80::5054:ff:fe1b:2 port 7471"
 * (the peer's RDMA CM port) after "DEV/PORT"; without a peer nothing,
 * and true: the framework adds the DUT's port.
 */
bool test_peer_dut_text(const struct result *r, char *buf, size_t len)
{
	char gid[INET6_ADDRSTRLEN];
	size_t off = strlen(buf);

	if (!r->have[IBTRACE_A_TEST_PEER_GID])
		return true;
	snprintf(buf + off, len - off, " peer %s",
		 gid_str(r->peer_gid, gid, sizeof(gid)));
	off = strlen(buf);
	if (r->have[IBTRACE_A_TEST_PEER_PORT] && off < len)
		snprintf(buf + off, len - off, " port %" PRIu64,
			 test_rval(r, IBTRACE_A_TEST_PEER_PORT));
	return false;
}

/* The peer's GID as @key and its port as "peer_port", those sent. */
void test_peer_json(struct ibt *ctx, const struct result *r, const char *key)
{
	char gid[INET6_ADDRSTRLEN];

	if (r->have[IBTRACE_A_TEST_PEER_GID])
		ibt_out_json(ctx, key, json_object_new_string(gid_str(r->peer_gid, gid,
								      sizeof(gid))));
	if (r->have[IBTRACE_A_TEST_PEER_PORT])
		ibt_out_json(ctx, "peer_port",
			     json_object_new_uint64(test_rval(r, IBTRACE_A_TEST_PEER_PORT)));
}
