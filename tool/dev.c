// SPDX-License-Identifier: GPL-2.0-only
/*
 * dev object: the RDMA ports ibtrace sees (IBTRACE_CMD_DEV_GET).
 *
 *   ibtracectl [-j] [-d DEV [-p PORT]] dev [show]
 *
 * Without -d every port of every device is dumped (-p alone keeps port
 * PORT of each device); -d dumps that device's ports only; -d and -p ask
 * for that one port (a "do" request).
 *
 * Text, one line per port:
 *   rxe0/1 index 3 link_layer ethernet state ACTIVE gid fe80::5054:ff:fe1b:1 port_guid 0x5054fffe1b0001 agent yes
 *   mlx5_0/1 index 0 link_layer infiniband state ACTIVE lid 0x12 lmc 0 sm_lid 0x1 gid ... port_guid ... agent no
 *
 * JSON: an array with one object per port. Keys (each one only if the
 * kernel sent the attribute):
 *   dev         string   device name
 *   index       number   device index
 *   port        number   port number
 *   link_layer  string   "infiniband", "ethernet" or "unknown"
 *   state       string   "NOP", "DOWN", "INIT", "ARMED", "ACTIVE",
 *                        "ACTIVE_DEFER" or "UNKNOWN"
 *   lid         number   base LID      (not for ethernet)
 *   lmc         number   LMC           (not for ethernet)
 *   sm_lid      number   master SM LID (not for ethernet)
 *   gid         string   GID index 0, IPv6 text form
 *   port_guid   string   "0x%016llx"
 *   agent       bool     class 0x30 agent registered
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ibtracectl.h"

struct port_query {
	ibt_port_show show;
	void *arg;
	unsigned int shown;
};

/* "rxe0/1": the dev and port fields every per-port line starts with. */
static void port_name(struct ibt *ctx, struct nlattr **tb)
{
	if (tb[IBTRACE_A_DEV_NAME]) {
		const char *name = nla_get_string(tb[IBTRACE_A_DEV_NAME]);

		ibt_out_field(ctx, "dev", json_object_new_string(name), "%s", name);
	} else {
		ibt_out_text(ctx, "?");
	}
	if (tb[IBTRACE_A_PORT]) {
		uint32_t port = nla_get_u32(tb[IBTRACE_A_PORT]);

		ibt_out_field(ctx, "port", json_object_new_uint64(port), "/%u", port);
	}
}

static int port_cb(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		   void *arg)
{
	struct port_query *q = arg;
	int ret;

	(void)nlh;
	/* -p without -d: the dump has every port, keep the one asked for */
	if (ctx->port && tb[IBTRACE_A_PORT] &&
	    nla_get_u32(tb[IBTRACE_A_PORT]) != ctx->port)
		return 0;

	ibt_out_obj_begin(ctx, NULL);
	port_name(ctx, tb);
	ret = q->show(ctx, tb, q->arg);
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
	q->shown++;
	return ret;
}

/*
 * The end of a show command (only global options may follow): send @cmd
 * for the ports -d/-p select and print each reply: its name, then @show
 * (given @arg). Returns an exit code.
 */
int ibt_port_query(struct ibt *ctx, uint8_t cmd, ibt_port_show show,
		   void *arg)
{
	return ibt_end_args(ctx) ?: ibt_port_query_parsed(ctx, cmd, show, arg);
}

/* ibt_port_query() of a command whose own options were parsed already. */
int ibt_port_query_parsed(struct ibt *ctx, uint8_t cmd, ibt_port_show show,
			  void *arg)
{
	struct port_query q = { .show = show, .arg = arg };
	struct nl_msg *msg;
	int ret;

	ret = ibt_nl_open(ctx);
	if (ret)
		return ret;
	/* the kernel's do needs a port; its dump takes a device (and port) */
	msg = ibt_nl_req(ctx, cmd, !(ctx->dev && ctx->port));
	if (!msg)
		return IBT_EXIT_ERR;
	if (ctx->dev) {
		ret = ibt_nl_put_dev(ctx, msg, ctx->port);
		if (ret) {
			nlmsg_free(msg);
			return ret;
		}
	}

	ibt_out_arr_begin(ctx, NULL);
	ret = ibt_nl_run_parsed(ctx, msg, port_cb, &q);
	if (ret)
		return ret;
	ibt_out_arr_end(ctx);
	/* the kernel should have said ENODEV; don't succeed with nothing */
	if (ctx->dev && !q.shown)
		return ibt_err(IBT_EXIT_NODEV, "no port %s%s%.0u", ctx->dev,
			       ctx->port ? "/" : "", ctx->port);
	if (ctx->port && !q.shown)
		return ibt_err(IBT_EXIT_NODEV, "no RDMA device has a port %u",
			       ctx->port);
	ibt_out_finish(ctx);
	return IBT_EXIT_OK;
}

/*
 * A port's fields: (index, link layer, state,) those of InfiniBand only
 * (not on an Ethernet port), its GID (then its GUID and agent).
 */
static const struct ibt_num_key port_keys[] = {
	{ IBTRACE_A_LID,	"lid" },
	{ IBTRACE_A_LMC,	"lmc" },
	{ IBTRACE_A_SM_LID,	"sm_lid" },
	{ IBTRACE_A_GID,	"gid" },
};

static int dev_show_port(struct ibt *ctx, struct nlattr **tb, void *arg)
{
	unsigned int ll = IBTRACE_LINK_LAYER_UNSPEC;

	(void)arg;
	if (tb[IBTRACE_A_DEV_INDEX])
		ibt_out_u64(ctx, "index", nla_get_u32(tb[IBTRACE_A_DEV_INDEX]));
	if (tb[IBTRACE_A_LINK_LAYER]) {
		ll = nla_get_u8(tb[IBTRACE_A_LINK_LAYER]);
		ibt_out_str(ctx, "link_layer", ibt_link_layer_str(ll));
	}
	if (tb[IBTRACE_A_PORT_STATE])
		ibt_out_str(ctx, "state",
			    ibt_port_state_str(nla_get_u8(tb[IBTRACE_A_PORT_STATE])));
	if (ll != IBTRACE_LINK_LAYER_ETH)
		ibt_out_nla_keys(ctx, port_keys, "xux", tb);
	ibt_out_nla_keys(ctx, port_keys + 3, "g", tb);
	if (tb[IBTRACE_A_PORT_GUID]) {
		uint64_t guid = nla_get_u64(tb[IBTRACE_A_PORT_GUID]);
		char s[24];

		snprintf(s, sizeof(s), "0x%016" PRIx64, guid);
		ibt_out_field(ctx, "port_guid", json_object_new_string(s),
			      " port_guid 0x%" PRIx64, guid);
	}
	if (tb[IBTRACE_A_AGENT])
		ibt_out_bool(ctx, "agent", nla_get_u8(tb[IBTRACE_A_AGENT]));
	return 0;
}

static int dev_show(struct ibt *ctx)
{
	return ibt_port_query(ctx, IBTRACE_CMD_DEV_GET, dev_show_port, NULL);
}

/* ibt_port_pick(): what it looks for, and where the port found goes. */
struct port_pick {
	const struct ibt_port_want *want;
	char *dev;
	size_t len;
	uint32_t *port;
};

static int pick_cb(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		   void *arg)
{
	struct port_pick *p = arg;
	const struct ibt_port_want *w = p->want;

	(void)ctx;
	(void)nlh;
	if (p->dev[0] || !tb[IBTRACE_A_DEV_NAME] || !tb[IBTRACE_A_PORT] ||
	    !tb[IBTRACE_A_PORT_STATE] ||
	    nla_get_u8(tb[IBTRACE_A_PORT_STATE]) != IBTRACE_PORT_STATE_ACTIVE)
		return 0;
	if (w->port && nla_get_u32(tb[IBTRACE_A_PORT]) != w->port)
		return 0;
	if (w->agent && (!tb[IBTRACE_A_AGENT] || !nla_get_u8(tb[IBTRACE_A_AGENT])))
		return 0;
	if (w->ib && (!tb[IBTRACE_A_LINK_LAYER] ||
		      nla_get_u8(tb[IBTRACE_A_LINK_LAYER]) != IBTRACE_LINK_LAYER_IB))
		return 0;
	snprintf(p->dev, p->len, "%s", nla_get_string(tb[IBTRACE_A_DEV_NAME]));
	*p->port = nla_get_u32(tb[IBTRACE_A_PORT]);
	return 0;
}

/*
 * The first Active port (in the kernel's order) that @want allows, into
 * @dev (size @len) and @port; @dev is "" if there is none. 0 or a printed
 * exit code.
 */
int ibt_port_pick(struct ibt *ctx, const struct ibt_port_want *want,
		  char *dev, size_t len, uint32_t *port)
{
	struct port_pick p = { .want = want, .dev = dev, .len = len, .port = port };
	struct nl_msg *msg;

	dev[0] = '\0';
	msg = ibt_nl_req(ctx, IBTRACE_CMD_DEV_GET, true);
	if (!msg)
		return IBT_EXIT_ERR;
	return ibt_nl_run_parsed(ctx, msg, pick_cb, &p);
}

/* ibt_port_lid(): the port asked for, and what was found of it. */
struct port_lid {
	uint32_t port;
	struct ibt_port_lid *out;
	bool found;
};

static int lid_cb(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		  void *arg)
{
	struct port_lid *q = arg;

	(void)ctx;
	(void)nlh;
	if (!tb[IBTRACE_A_PORT] || nla_get_u32(tb[IBTRACE_A_PORT]) != q->port)
		return 0;
	q->found = true;
	if (tb[IBTRACE_A_LINK_LAYER])
		q->out->ib = nla_get_u8(tb[IBTRACE_A_LINK_LAYER]) ==
			     IBTRACE_LINK_LAYER_IB;
	if (tb[IBTRACE_A_PORT_STATE])
		q->out->state = nla_get_u8(tb[IBTRACE_A_PORT_STATE]);
	if (tb[IBTRACE_A_LID])
		q->out->lid = nla_get_u32(tb[IBTRACE_A_LID]);
	return 0;
}

/*
 * What the kernel says of port @port of @dev: its link layer, state and
 * LID, into @out. 0, or a printed exit code (IBT_EXIT_NODEV: no such
 * port).
 */
int ibt_port_lid(struct ibt *ctx, const char *dev, uint32_t port,
		 struct ibt_port_lid *out)
{
	struct port_lid q = { .port = port, .out = out };
	struct nl_msg *msg;
	int ret;

	memset(out, 0, sizeof(*out));
	msg = ibt_nl_req(ctx, IBTRACE_CMD_DEV_GET, false);
	if (!msg)
		return IBT_EXIT_ERR;
	if (nla_put_string(msg, IBTRACE_A_DEV_NAME, dev) < 0 ||
	    nla_put_u32(msg, IBTRACE_A_PORT, port) < 0) {
		nlmsg_free(msg);
		return ibt_err(IBT_EXIT_ERR, "netlink request too large");
	}
	ret = ibt_nl_run_parsed(ctx, msg, lid_cb, &q);
	if (ret)
		return ret;
	if (!q.found)
		return ibt_err(IBT_EXIT_NODEV, "no port %s/%u", dev, port);
	return 0;
}

const char ibt_dev_help[] =
	"Usage: ibtracectl [-j] [--pretty] [-d DEV [-p PORT]] dev [show]\n"
	"       ibtracectl [-j] [--pretty] -p PORT dev [show]\n"
	"One line (JSON: one object) per port: dev, index, port, link_layer,\n"
	"state, lid, lmc, sm_lid (InfiniBand only), gid, port_guid, agent.\n";

const struct ibt_cmd ibt_dev_cmds[] = IBT_SHOW_CMDS(dev_show);
