// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim object: the fabrics of the ibtrace_sim software InfiniBand fabric
 * (generic netlink family "ibtrace_sim", uapi/linux/ibtrace_sim.h).
 *
 *   ibtracectl [-j] sim add TOPOLOGY_FILE [--name NAME] [--no-sm]
 *                               [--guid-cap N] [--seed N] [--devices N]
 *                               [--time-scale N]
 *   ibtracectl sim del NAME
 *   ibtracectl sim set FABRIC NODE [port N] [drop PERCENT] [delay USEC]
 *                  [link down|up] [buffer BLOCKS] [sink PPS]
 *                  [credits ignore|obey] [width 1x|4x] [speed sdr|ddr|qdr]
 *                  [guid-cap N] [guid-quirks QUIRKS] [misroute DLID PORT | misroute DLID none]
 *   ibtracectl [-j] sim show [NAME]
 *
 * add sends the file's text (FABRIC_ADD, in TOPOLOGY attributes of at most
 * 64 KiB each), then lists the new fabric's nodes (NODE_GET). Text:
 *   fabric sim0: HcaA ibtsim0, HcaB ibtsim1; sm lite lid 1
 * JSON: {"fabric": "sim0", "nodes": [{"index", "type", "name", "guid",
 * "dev"}, ...], "sm": "lite", "sm_lid": 1} ("dev" for HCAs only; "sm" and
 * "sm_lid" as in show; "hostless", text ", N hostless HCAs": the HCAs
 * sim add --devices left without a device). A topology the kernel rejects is
 * printed from its TOPO_ERROR message as "Error: line N: REASON" (exit 1);
 * one over ibtrace_sim's memory budget as "Error: the fabric needs N MiB
 * of memory, over ibtrace_sim's budget of M MiB (...)" (exit 1). Nothing
 * of it is left in the kernel.
 *
 * show lists every fabric (FABRIC_GET dump), or fabric NAME, each with its
 * nodes (NODE_GET). Text, one line per fabric, node and port:
 *   fabric t0 cas 2 switches 1 links 2 seed 1234 sm lite lid 3
 *     ca HcaA guid 0x0002c90300001000 dev ibtsim0
 *       port 1 lid 0x1 state ACTIVE peer S/1 rx 12 tx 12 drops 0
 *     switch S guid 0x0014050000000300
 *       port 0 lid 0x3 state ACTIVE rx 0 tx 0 drops 0
 * JSON: an array with one object per fabric:
 *   fabric    string   fabric name
 *   cas, switches, links   number
 *   devices   number   HCAs that are RDMA devices (sim add --devices); in
 *                      text only when fewer than cas: the others are
 *                      hostless, answered by their firmware in the fabric
 *   seed      number   seed of the fabric's pseudo-random generator (drop
 *                      knob losses); sim add --seed gives it
 *   time_scale number  link-rate pacing (sim add --time-scale): a link
 *                      passes data packets at its rate slowed this many
 *                      times; null when off (text: "time_scale N", only
 *                      when on)
 *   building  true     only while the fabric is being built (sim add of a
 *                      large fabric still running): then only "fabric"
 *                      and "building" (text "fabric NAME building")
 *   sm        string   "lite": the built-in subnet manager SM-lite runs
 *                      (sim add without --no-sm); "none": the subnet is
 *                      left to an external SM such as OpenSM
 *   sm_lid    number   LID of SM-lite and its SA (when "sm" is "lite" and
 *                      SM-lite found a port; text "lid N")
 *   deadlock  string   the credit loop of a deadlock of the fabric's flow
 *                      control, "S1/2 vl 7 -> S2/1 vl 7 -> S1/2 vl 7";
 *                      only when there is one (text: a line
 *                      "  deadlock: credit loop ..." after the fabric's)
 *   nodes     array    one object per node, in topology order:
 *     index   number   node index in the fabric
 *     type    string   "ca", "switch" or "unknown"
 *     name    string   node name (NodeDescription)
 *     guid    string   node GUID, "0x%016llx"
 *     dev     string   RDMA device name (HCAs only)
 *     ports   array    one object per port (a switch's port 0 included):
 *       port, guid ("0x%016llx"), lid, lmc, state (as in "dev show"),
 *       peer {"node": index, "name": name, "port": number} (connected
 *       ports only), rx, tx, drops (packet counters), and the fault
 *       knobs only when not at their power-on value: drop_ppm (number,
 *       parts per million), delay_us (number), link_down (true),
 *       buf_blocks (number, blocks of 64 bytes), sink_pps (number,
 *       packets per second), ignore_credits (true), link_width
 *       (string, "1x"), link_speed (string, "sdr" or "ddr"), guid_cap
 *       (number), guid_quirks (string, "entry0-writable,...")
 *     misroute array  a switch's misroute rules, {"dlid", "port"}
 *             (numbers); only on switches that have rules
 * Text: the knobs follow the counters (" drop 30% delay 20000us link down
 * buffer 66 sink 100 credits ignore width 1x speed sdr guid-cap 4
 * guid-quirks entry0-writable"), a rule is a line
 * "    misroute dlid 0x2 port 3" after the node's ports.
 *
 * set sends one SET request: NODE is an index if all digits, else a name;
 * port knobs go in one port nest (they need "port N"), a misroute rule in
 * a misroute nest (no port: remove). drop is a percentage with up to 4
 * decimals, sent in ppm. Prints nothing on success. Words the tool cannot
 * parse: exit 2; the kernel's refusal: "Error: <extack> (attribute X)",
 * exit 1 (5 without CAP_NET_ADMIN).
 *
 * Every command needs CAP_NET_ADMIN: show too, since NODE_GET shows the
 * fabric's GUIDs, LIDs and links. Without it: "Error: this needs
 * CAP_NET_ADMIN (run as root)", exit 5.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <sys/socket.h>

#include <linux/ibtrace_sim.h>

#include "ibtracectl.h"

/* Largest TOPOLOGY piece: its attribute, NUL included, fits 16 bits. */
#define SIM_TOPO_PIECE	(UINT16_MAX - NLA_HDRLEN - 1)
#define SIM_TOPO_MAX	(64u << 20)	/* refuse files beyond 64 MiB */

#define OPT_NAME	0x200
#define OPT_NO_SM	0x201
#define OPT_GUID_CAP	0x202
#define OPT_SEED	0x203
#define OPT_DEVICES	0x204
#define OPT_TIME_SCALE	0x205

static const char *const add_opt_names[] = {
	"--name", "--no-sm", "--guid-cap", "--seed", "--devices",
	"--time-scale",
};

/* Options of "sim add". */
struct add_opts {
	const char *name;
	bool no_sm;
	int guid_cap;		/* 0: the kernel's default */
	bool seed_set;
	uint32_t seed;		/* if seed_set, else the kernel picks one */
	bool devices_set;
	uint32_t devices;	/* if devices_set, else every HCA */
	uint32_t time_scale;	/* 0: no link-rate pacing */
};

/* A kernel message kept with its parsed top-level attributes. */
struct sim_msg {
	struct nlmsghdr *nlh;
	struct nlattr *tb[IBTRACE_SIM_A_MAX + 1];
};

struct sim_list {
	struct sim_msg *v;
	size_t n, cap;
};

static void sim_list_free(struct sim_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].nlh);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Callback keeping a copy of every reply in the sim_list @arg. */
static int keep_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct sim_list *l = arg;
	struct sim_msg *m;
	int ret;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct sim_msg *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return ibt_err(IBT_EXIT_ERR, "out of memory");
		l->v = v;
		l->cap = cap;
	}
	m = &l->v[l->n];
	m->nlh = malloc(nlh->nlmsg_len);
	if (!m->nlh)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	memcpy(m->nlh, nlh, nlh->nlmsg_len);
	ret = ibt_nl_parse(ctx, m->nlh, m->tb);
	if (ret) {
		free(m->nlh);
		return ret;
	}
	l->n++;
	return 0;
}

/* A request, with fabric @name unless NULL; NULL (printed) on failure. */
static struct nl_msg *sim_req(struct ibt *ctx, uint8_t cmd, bool dump,
			      const char *name)
{
	struct nl_msg *msg = ibt_nl_req(ctx, cmd, dump);

	if (msg && name &&
	    nla_put_string(msg, IBTRACE_SIM_A_FABRIC_NAME, name) < 0) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

/* The nodes of fabric @name, in @nodes. Returns an exit code. */
static int get_nodes(struct ibt *ctx, const char *name, struct sim_list *nodes)
{
	struct nl_msg *msg = sim_req(ctx, IBTRACE_SIM_CMD_NODE_GET, true, name);

	if (!msg)
		return IBT_EXIT_ERR;
	return ibt_nl_run(ctx, msg, keep_cb, nodes);
}

static const char *str_attr(struct nlattr **tb, int type, const char *dflt)
{
	return tb[type] ? nla_get_string(tb[type]) : dflt;
}

static void out_guid(struct ibt *ctx, const char *key, struct nlattr *nla)
{
	uint64_t guid;
	char s[24];

	if (!nla)
		return;
	guid = nla_get_u64(nla);
	snprintf(s, sizeof(s), "0x%016" PRIx64, guid);
	ibt_out_field(ctx, key, json_object_new_string(s), " %s %s", key, s);
}

/*
 * The subnet manager of a fabric, from its FABRIC_ADD/GET reply: text
 * "sm lite lid N" (SM-lite runs, its SA at LID N), "sm lite" (SM-lite
 * found no port to run on) or "sm none" (left to an external SM such as
 * OpenSM); JSON "sm" and "sm_lid". Nothing for a kernel that does not say.
 */
static void out_sm(struct ibt *ctx, const char *sep, struct nlattr *sm,
		   struct nlattr *sm_lid)
{
	const char *what;

	if (!sm)
		return;
	what = nla_get_u8(sm) ? "lite" : "none";
	ibt_out_field(ctx, "sm", json_object_new_string(what), "%ssm %s", sep,
		      what);
	if (nla_get_u8(sm) && sm_lid)
		ibt_out_field(ctx, "sm_lid",
			      json_object_new_uint64(nla_get_u32(sm_lid)),
			      " lid %u", nla_get_u32(sm_lid));
}

/* JSON members of a node that add and show share. */
static void node_json(struct ibt *ctx, struct nlattr **tb)
{
	if (tb[IBTRACE_SIM_A_NODE_INDEX])
		ibt_out_json(ctx, "index", json_object_new_uint64(
				nla_get_u32(tb[IBTRACE_SIM_A_NODE_INDEX])));
	if (tb[IBTRACE_SIM_A_NODE_TYPE])
		ibt_out_json(ctx, "type", json_object_new_string(
				ibt_sim_node_type_str(
					nla_get_u8(tb[IBTRACE_SIM_A_NODE_TYPE]))));
	ibt_out_json(ctx, "name", json_object_new_string(
			str_attr(tb, IBTRACE_SIM_A_NODE_NAME, "")));
}

/* sim add ----------------------------------------------------------------- */

struct add_reply {
	char fabric[IBTRACE_SIM_NAME_MAX + 1];
	struct sim_list reply;	/* the FABRIC_ADD message of the built fabric */
	const char *want;	/* the name asked for (--name), or NULL */
	bool building;		/* the reply said: built in the background */
	bool done;		/* the build's end was notified */
	bool topo_err;
	uint32_t err_line;
	char err_msg[IBT_ERRMSG_MAX];
};

static int add_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[IBTRACE_SIM_A_MAX + 1];
	struct add_reply *r = arg;
	struct genlmsghdr *gnlh;
	int ret;

	ret = ibt_nl_parse(ctx, nlh, tb);
	if (ret)
		return ret;
	gnlh = nlmsg_data(nlh);
	switch (gnlh->cmd) {
	case IBTRACE_SIM_CMD_TOPO_ERROR:
		r->topo_err = true;
		ibt_nla_keep(tb[IBTRACE_SIM_A_ERR_LINE], &r->err_line,
			     tb[IBTRACE_SIM_A_ERR_MSG], r->err_msg,
			     sizeof(r->err_msg));
		return 0;
	case IBTRACE_SIM_CMD_FABRIC_ADD:
		if (!tb[IBTRACE_SIM_A_FABRIC_NAME])
			return ibt_err(IBT_EXIT_ERR,
				       "malformed kernel reply: no fabric name");
		nla_strlcpy(r->fabric, tb[IBTRACE_SIM_A_FABRIC_NAME],
			    sizeof(r->fabric));
		if (tb[IBTRACE_SIM_A_BUILDING] &&
		    nla_get_u8(tb[IBTRACE_SIM_A_BUILDING])) {
			r->building = true;
			return 0;
		}
		r->done = true;
		return r->reply.n ? 0 : keep_cb(ctx, nlh, &r->reply);
	default:
		return 0;
	}
}

/*
 * The end of a build, notified to our socket (sequence number 0): the
 * built fabric (FABRIC_ADD) or why it failed (TOPO_ERROR), each naming
 * the fabric. It may come before the reply to the request.
 */
static int add_notify(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[IBTRACE_SIM_A_MAX + 1];
	struct add_reply *r = arg;
	char name[IBTRACE_SIM_NAME_MAX + 1];
	struct genlmsghdr *gnlh = nlmsg_data(nlh);
	int ret;

	if (gnlh->cmd != IBTRACE_SIM_CMD_FABRIC_ADD &&
	    gnlh->cmd != IBTRACE_SIM_CMD_TOPO_ERROR)
		return 0;
	ret = ibt_nl_parse(ctx, nlh, tb);
	if (ret)
		return ret;
	if (!tb[IBTRACE_SIM_A_FABRIC_NAME])
		return 0;
	nla_strlcpy(name, tb[IBTRACE_SIM_A_FABRIC_NAME], sizeof(name));
	/* our fabric: the one named in the request, or in its reply */
	if ((r->want && strcmp(name, r->want)) ||
	    (!r->want && r->fabric[0] && strcmp(name, r->fabric)))
		return 0;
	if (!r->want && !r->fabric[0])
		return 0;	/* unnamed: add_wait() asks once it has the name */
	ret = add_cb(ctx, nlh, r);
	if (gnlh->cmd == IBTRACE_SIM_CMD_TOPO_ERROR)
		r->done = true;
	return ret;
}

/*
 * Wait for the end of the build of r->fabric: its notification, or
 * FABRIC_GET, asked at once (a small fabric may be built already, its
 * notification come before we knew its name) and after each second
 * without a notification (one may be lost). Returns an exit code,
 * printed; 0 with the fabric in r->reply.
 */
static int add_wait(struct ibt *ctx, struct add_reply *r)
{
	bool first = true;

	while (!r->done) {
		struct sim_list l = { 0 };
		struct nl_msg *msg;
		int ret;

		if (!first) {
			ret = ibt_nl_wait_notify(ctx, 1000);
			if (ret)
				return ret;
			if (r->done)
				break;
		}
		first = false;
		msg = sim_req(ctx, IBTRACE_SIM_CMD_FABRIC_GET, false, r->fabric);
		if (!msg)
			return IBT_EXIT_ERR;
		ret = ibt_nl_exchange(ctx, msg, keep_cb, &l);
		if (!ret && l.n && !r->done &&
		    !(l.v[0].tb[IBTRACE_SIM_A_BUILDING] &&
		      nla_get_u8(l.v[0].tb[IBTRACE_SIM_A_BUILDING]))) {
			sim_list_free(&r->reply);
			r->reply = l;
			r->done = true;
			return 0;
		}
		sim_list_free(&l);
		if (r->done)
			break;
		if (ret)
			return ibt_nl_fail(ctx, ret, ret == -ENOENT,
					   "building fabric %s failed (the kernel's reason was lost)",
					   r->fabric);
	}
	if (r->topo_err)
		return ibt_err(IBT_EXIT_ERR, "building fabric %s failed: %s",
			       r->fabric, r->err_msg);
	return 0;
}

/* The whole of @path in a malloc()ed buffer. Returns an exit code. */
static int read_file(const char *path, char **textp, size_t *lenp)
{
	size_t len = 0, cap = 0;
	char *text = NULL;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return ibt_err(IBT_EXIT_ERR, "cannot open %s: %s", path,
			       strerror(errno));
	for (;;) {
		size_t n;

		if (len == cap) {
			char *t;

			if (cap >= SIM_TOPO_MAX) {
				fclose(f);
				free(text);
				return ibt_err(IBT_EXIT_ERR,
					       "%s: topology larger than %u MiB",
					       path, SIM_TOPO_MAX >> 20);
			}
			cap = cap ? 2 * cap : 65536;
			t = realloc(text, cap);
			if (!t) {
				fclose(f);
				free(text);
				return ibt_err(IBT_EXIT_ERR, "out of memory");
			}
			text = t;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		int err = errno;

		fclose(f);
		free(text);
		return ibt_err(IBT_EXIT_ERR, "cannot read %s: %s", path,
			       strerror(err));
	}
	fclose(f);
	if (memchr(text, '\0', len)) {
		free(text);
		return ibt_err(IBT_EXIT_ERR, "%s: a topology is text, not NUL bytes",
			       path);
	}
	*textp = text;
	*lenp = len;
	return IBT_EXIT_OK;
}

/* Append @text in TOPOLOGY attributes of at most SIM_TOPO_PIECE bytes. */
static int put_topology(struct nl_msg *msg, const char *text, size_t len)
{
	size_t off = 0;

	do {
		size_t n = ibt_chunk_len(len - off, SIM_TOPO_PIECE);
		struct nlattr *nla;

		nla = nla_reserve(msg, IBTRACE_SIM_A_TOPOLOGY, n + 1);
		if (!nla)
			return ibt_err(IBT_EXIT_ERR, "netlink request too large");
		memcpy(nla_data(nla), text + off, n);
		((char *)nla_data(nla))[n] = '\0';
		off += n;
	} while (off < len);
	return 0;
}

static void add_print(struct ibt *ctx, const char *fabric,
		      struct nlattr **ftb, struct sim_list *nodes)
{
	unsigned int cas = 0, hostless = 0;
	size_t i;

	ibt_out_obj_begin(ctx, NULL);
	ibt_out_field(ctx, "fabric", json_object_new_string(fabric),
		      "fabric %s:", fabric);
	ibt_out_arr_begin(ctx, "nodes");
	for (i = 0; i < nodes->n; i++) {
		struct nlattr **tb = nodes->v[i].tb;

		ibt_out_obj_begin(ctx, NULL);
		node_json(ctx, tb);
		if (ctx->json) {
			out_guid(ctx, "guid", tb[IBTRACE_SIM_A_NODE_GUID]);
		}
		if (tb[IBTRACE_SIM_A_DEV_NAME]) {
			const char *dev = nla_get_string(tb[IBTRACE_SIM_A_DEV_NAME]);

			ibt_out_field(ctx, "dev", json_object_new_string(dev),
				      "%s %s %s", cas ? "," : "",
				      str_attr(tb, IBTRACE_SIM_A_NODE_NAME, "?"),
				      dev);
			cas++;
		} else if (tb[IBTRACE_SIM_A_NODE_TYPE] &&
			   nla_get_u8(tb[IBTRACE_SIM_A_NODE_TYPE]) ==
			   IBTRACE_SIM_NODE_CA) {
			hostless++;
		}
		ibt_out_obj_end(ctx);
	}
	ibt_out_arr_end(ctx);
	if (hostless)
		ibt_out_field(ctx, "hostless", json_object_new_uint64(hostless),
			      "%s %u hostless HCA%s", cas ? "," : "", hostless,
			      hostless == 1 ? "" : "s");
	out_sm(ctx, "; ", ftb[IBTRACE_SIM_A_SM], ftb[IBTRACE_SIM_A_SM_LID]);
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
	ibt_out_finish(ctx);
}

/* An option of "sim add" into @add; 0 or an exit code. */
static int add_opt(struct add_opts *add, int c, const char *arg)
{
	unsigned long v;
	char *end;

	switch (c) {
	case OPT_NAME:
		if (ibt_sim_name_ok(arg))
			return ibt_err(IBT_EXIT_USAGE,
				       "bad fabric name \"%s\" for --name: 1..%d characters out of A-Z a-z 0-9 _ . -",
				       arg, IBTRACE_SIM_NAME_MAX);
		add->name = arg;
		return 0;
	case OPT_NO_SM:
		add->no_sm = true;
		return 0;
	case OPT_SEED:
	case OPT_DEVICES:
		errno = 0;
		v = strtoul(arg, &end, 0);
		if (errno || end == arg || *end || *arg == '-' || v > UINT32_MAX)
			return ibt_err(IBT_EXIT_USAGE,
				       "bad %s \"%s\": a number, 0..4294967295",
				       add_opt_names[c - OPT_NAME], arg);
		if (c == OPT_SEED) {
			add->seed = (uint32_t)v;
			add->seed_set = true;
		} else {
			add->devices = (uint32_t)v;
			add->devices_set = true;
		}
		return 0;
	case OPT_TIME_SCALE:
		errno = 0;
		v = strtoul(arg, &end, 0);
		if (errno || end == arg || *end || *arg == '-' || v < 1 ||
		    v > IBTRACE_SIM_TIME_SCALE_MAX)
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --time-scale \"%s\": a slowdown of the link rates, 1..%u",
				       arg, IBTRACE_SIM_TIME_SCALE_MAX);
		add->time_scale = (uint32_t)v;
		return 0;
	default: /* OPT_GUID_CAP */
		errno = 0;
		v = strtoul(arg, &end, 0);
		if (errno || end == arg || *end || *arg == '-' || v < 1 || v > 255)
			return ibt_err(IBT_EXIT_USAGE,
				       "bad --guid-cap \"%s\": a number of GUID table entries, 1..255",
				       arg);
		add->guid_cap = (int)v;
		return 0;
	}
}

/* An option of command @a->cmd; "sim add" options go to @a->priv. */
static int sim_opt(int c, const char *arg, const struct ibt_args *a)
{
	if (c < OPT_NAME || c > OPT_TIME_SCALE)
		return IBT_OPT_UNKNOWN;
	if (a->priv)
		return add_opt(a->priv, c, arg);
	return ibt_err(IBT_EXIT_USAGE,
		       "unknown sim %s option %s; see ibtracectl sim help",
		       a->cmd, add_opt_names[c - OPT_NAME]);
}

/*
 * The words after "add", "del" or "show": global options, the options of
 * "sim add" when @add is not NULL, and @min..@max positional words into
 * @pos.
 */
static int sim_args(struct ibt *ctx, const char *cmd, struct add_opts *add,
		    const char **pos, int min, int max, const char *what)
{
	static const struct option opts[] = {
		{ "name",	required_argument,	NULL, OPT_NAME },
		{ "no-sm",	no_argument,		NULL, OPT_NO_SM },
		{ "guid-cap",	required_argument,	NULL, OPT_GUID_CAP },
		{ "seed",	required_argument,	NULL, OPT_SEED },
		{ "devices",	required_argument,	NULL, OPT_DEVICES },
		{ "time-scale",	required_argument,	NULL, OPT_TIME_SCALE },
		{ NULL,		0,			NULL, 0 },
	};
	return ibt_words_parse(ctx, "sim", cmd, opts, sim_opt, add, pos, min, max,
			       what);
}

/* The attributes of the options given to "sim add". Returns an exit code. */
static int put_add_opts(struct nl_msg *msg, const struct add_opts *add)
{
	if ((add->name &&
	     nla_put_string(msg, IBTRACE_SIM_A_FABRIC_NAME, add->name) < 0) ||
	    (add->no_sm && nla_put_u8(msg, IBTRACE_SIM_A_SM, 0) < 0) ||
	    (add->guid_cap &&
	     nla_put_u8(msg, IBTRACE_SIM_A_GUID_CAP, add->guid_cap) < 0) ||
	    (add->seed_set &&
	     nla_put_u32(msg, IBTRACE_SIM_A_SEED, add->seed) < 0) ||
	    (add->devices_set &&
	     nla_put_u32(msg, IBTRACE_SIM_A_NUM_DEVICES, add->devices) < 0) ||
	    (add->time_scale &&
	     nla_put_u32(msg, IBTRACE_SIM_A_TIME_SCALE, add->time_scale) < 0))
		return ibt_err(IBT_EXIT_ERR, "netlink request too large");
	return 0;
}

static int sim_add(struct ibt *ctx)
{
	struct add_reply r = { 0 };
	struct sim_list nodes = { 0 };
	struct add_opts add = { 0 };
	const char *path = NULL;
	struct nl_msg *msg;
	char *text = NULL;
	size_t len = 0;
	int ret, one = 1;

	ret = sim_args(ctx, "add", &add, &path, 1, 1, "a TOPOLOGY_FILE");
	r.want = add.name;
	if (ret)
		return ret;
	ret = read_file(path, &text, &len);
	if (ret)
		return ret;
	ret = ibt_nl_open_family(ctx, &ibt_sim_family);
	if (ret) {
		free(text);
		return ret;
	}
	msg = ibt_nl_req(ctx, IBTRACE_SIM_CMD_FABRIC_ADD, false);
	if (!msg) {
		free(text);
		return IBT_EXIT_ERR;
	}
	/* room for the text, a header per piece and the rest */
	if (nlmsg_expand(msg, len + (len / SIM_TOPO_PIECE + 1) * 8 + 4096) < 0) {
		free(text);
		nlmsg_free(msg);
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	}
	ret = put_topology(msg, text, len);
	free(text);
	if (!ret)
		ret = put_add_opts(msg, &add);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}

	/*
	 * An error ACK echoes the request unless capped: a text of a few
	 * hundred KiB would not fit the receive buffer, and the answer be
	 * lost. The extended ACK still points into our copy.
	 */
	if (setsockopt(nl_socket_get_fd(ctx->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		       &one, sizeof(one)) < 0) {
		nlmsg_free(msg);
		return ibt_err(IBT_EXIT_ERR, "cannot set NETLINK_CAP_ACK: %s",
			       strerror(errno));
	}
	ctx->notify = add_notify;
	ctx->notify_arg = &r;
	ret = ibt_nl_exchange(ctx, msg, add_cb, &r);
	if (!ret && r.building)
		ret = add_wait(ctx, &r);
	ctx->notify = NULL;
	if (ret < 0 && r.topo_err && r.err_line)
		ret = ibt_err(IBT_EXIT_ERR, "line %u: %s", r.err_line,
			      r.err_msg[0] ? r.err_msg : strerror(-ret));
	else if (ret < 0 && r.topo_err && r.err_msg[0])
		/* the whole text: over the memory budget, with its figures */
		ret = ibt_err(IBT_EXIT_ERR, "%s", r.err_msg);
	else if (ret < 0)
		ret = ibt_nl_report(ctx, -ret);
	else if (!ret && (!r.fabric[0] || !r.reply.n))
		ret = ibt_err(IBT_EXIT_ERR, "malformed kernel reply: no fabric");
	if (!ret)
		ret = get_nodes(ctx, r.fabric, &nodes);
	if (!ret)
		add_print(ctx, r.fabric, r.reply.v[0].tb, &nodes);
	sim_list_free(&nodes);
	sim_list_free(&r.reply);
	return ret;
}

/* sim del ----------------------------------------------------------------- */

static int check_name(const char *name)
{
	if (ibt_sim_name_ok(name))
		return ibt_err(IBT_EXIT_USAGE,
			       "bad fabric name \"%s\": 1..%d characters out of A-Z a-z 0-9 _ . -",
			       name, IBTRACE_SIM_NAME_MAX);
	return 0;
}

static int sim_del(struct ibt *ctx)
{
	const char *name = NULL;
	struct nl_msg *msg;
	int ret;

	ret = sim_args(ctx, "del", NULL, &name, 1, 1, "a fabric NAME");
	if (!ret)
		ret = check_name(name);
	if (!ret)
		ret = ibt_nl_open_family(ctx, &ibt_sim_family);
	if (ret)
		return ret;
	msg = sim_req(ctx, IBTRACE_SIM_CMD_FABRIC_DEL, false, name);
	if (!msg)
		return IBT_EXIT_ERR;
	return ibt_nl_run(ctx, msg, NULL, NULL);
}

/* sim set ----------------------------------------------------------------- */

#define SET_WORDS_MAX	32

/* What "sim set" changes; a port knob is sent only if its bit is set. */
struct set_req {
	const char *fabric;
	const char *node;
	bool has_port;
	uint32_t port;
	uint32_t knobs;			/* bits: 1 << IBTRACE_SIM_PORT_A_* */
	uint32_t knob[IBTRACE_SIM_PORT_A_MAX + 1];	/* their values */
	bool has_misroute;
	uint32_t mr_dlid;
	bool mr_del;
	uint32_t mr_port;
};
_Static_assert(IBTRACE_SIM_PORT_A_MAX < 32, "struct set_req: knobs is 32 bits");

static int parse_delay(const char *s, uint32_t *v)
{
	return ibt_parse_u32(s, 0, IBTRACE_SIM_DELAY_US_MAX, v);
}

static int parse_link(const char *s, uint32_t *down)
{
	if (strcmp(s, "down") && strcmp(s, "up"))
		return -1;
	*down = !strcmp(s, "down");
	return 0;
}

static int parse_buffer(const char *s, uint32_t *v)
{
	return ibt_parse_u32(s, IBTRACE_SIM_BUF_BLOCKS_MIN,
			     IBTRACE_SIM_BUF_BLOCKS_MAX, v);
}

static int parse_sink(const char *s, uint32_t *v)
{
	return ibt_parse_u32(s, 0, IBTRACE_SIM_SINK_PPS_MAX, v);
}

static int parse_credits(const char *s, uint32_t *ignore)
{
	if (strcmp(s, "ignore") && strcmp(s, "obey"))
		return -1;
	*ignore = !strcmp(s, "ignore");
	return 0;
}

/* LinkWidthActive: 1 (1x) or 2 (4x). */
static int parse_width(const char *s, uint32_t *width)
{
	if (strcmp(s, "1x") && strcmp(s, "4x"))
		return -1;
	*width = !strcmp(s, "1x") ? 1 : 2;
	return 0;
}

/* LinkSpeedActive: 1 (SDR), 2 (DDR) or 4 (QDR). */
static const char *const speed_names[] = { "sdr", "ddr", "qdr" };

static int parse_speed(const char *s, uint32_t *speed)
{
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(speed_names); i++)
		if (!strcmp(s, speed_names[i])) {
			*speed = 1u << i;
			return 0;
		}
	return -1;
}

static int parse_guid_cap(const char *s, uint32_t *v)
{
	return ibt_parse_u32(s, 1, 255, v);
}

static const char *drop_text(uint32_t ppm, char *buf, size_t len)
{
	char pct[32];

	snprintf(buf, len, "%s%%", ibt_ppm_pct_str(ppm, pct, sizeof(pct)));
	return buf;
}

static const char *delay_text(uint32_t us, char *buf, size_t len)
{
	snprintf(buf, len, "%uus", us);
	return buf;
}

static const char *link_text(uint32_t down, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return down ? "down" : "up";
}

static const char *credits_text(uint32_t ignore, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return ignore ? "ignore" : "obey";
}

static const char *number_text(uint32_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%u", v);
	return buf;
}

/* A value this tool has no name for is shown as its number. */
static const char *width_text(uint32_t width, char *buf, size_t len)
{
	if (width == 1)
		return "1x";
	if (width == 2)
		return "4x";
	return number_text(width, buf, len);
}

static const char *speed_text(uint32_t speed, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(speed_names); i++)
		if (speed == 1u << i)
			return speed_names[i];
	return number_text(speed, buf, len);
}

/*
 * The port knobs, in the order they are sent and shown: keyword of sim
 * set (and of the text of show), attribute and its size (1: u8, 4: u32),
 * the parser of the value and what a bad one should have been; the JSON
 * key of show, its value as a number, 'b' boolean or 's' the text, and
 * the text of a value.
 */
static const struct port_knob {
	const char *word;
	int attr, size;
	int (*parse)(const char *s, uint32_t *v);
	const char *what;
	const char *key;
	char json;
	const char *(*text)(uint32_t v, char *buf, size_t len);
} port_knobs[] = {
	{ "drop", IBTRACE_SIM_PORT_A_DROP_PPM, 4, ibt_parse_pct_ppm,
	  "a percentage, 0..100 with up to 4 decimals",
	  "drop_ppm", 'u', drop_text },
	{ "delay", IBTRACE_SIM_PORT_A_DELAY_US, 4, parse_delay,
	  "microseconds, 0..10000000", "delay_us", 'u', delay_text },
	{ "link", IBTRACE_SIM_PORT_A_LINK_DOWN, 1, parse_link, "down or up",
	  "link_down", 'b', link_text },
	{ "buffer", IBTRACE_SIM_PORT_A_BUF_BLOCKS, 4, parse_buffer,
	  "blocks of 64 bytes, 66..8192", "buf_blocks", 'u', number_text },
	{ "sink", IBTRACE_SIM_PORT_A_SINK_PPS, 4, parse_sink,
	  "packets per second, 0..1000000 (0: off)", "sink_pps", 'u',
	  number_text },
	{ "credits", IBTRACE_SIM_PORT_A_IGNORE_CREDITS, 1, parse_credits,
	  "ignore or obey", "ignore_credits", 'b', credits_text },
	{ "width", IBTRACE_SIM_PORT_A_LINK_WIDTH, 1, parse_width,
	  "1x or 4x", "link_width", 's', width_text },
	{ "speed", IBTRACE_SIM_PORT_A_LINK_SPEED, 1, parse_speed,
	  "sdr, ddr or qdr", "link_speed", 's', speed_text },
	{ "guid-cap", IBTRACE_SIM_PORT_A_GUID_CAP, 1, parse_guid_cap,
	  "GUID table entries, 1..255", "guid_cap", 'u', number_text },
	{ "guid-quirks", IBTRACE_SIM_PORT_A_GUID_QUIRKS, 4, ibt_parse_guid_quirks,
	  "none, or a comma-separated list of entry0-writable, past-table-status, above-cap-nonzero",
	  "guid_quirks", 's', ibt_guid_quirks_str },
};

static int put_knob(struct nl_msg *msg, const struct port_knob *kn, uint32_t v)
{
	if (kn->size == 1)
		return nla_put_u8(msg, kn->attr, v);
	return nla_put_u32(msg, kn->attr, v);
}

/* One "KEYWORD VALUE..." of sim set at @w; words used, or -exit code. */
static int set_word(struct set_req *r, const char **w, int n)
{
	const char *k = w[0], *v = n > 1 ? w[1] : NULL;
	size_t i;

	if (!v)
		return -ibt_err(IBT_EXIT_USAGE, "sim set: \"%s\" needs a value", k);
	if (!strcmp(k, "port")) {
		if (ibt_parse_u32(v, 0, IBTRACE_SIM_PORTS_MAX, &r->port))
			return -ibt_err(IBT_EXIT_USAGE,
					"bad port \"%s\": a port number, 0..%d",
					v, IBTRACE_SIM_PORTS_MAX);
		r->has_port = true;
		return 2;
	}
	for (i = 0; i < IBT_ARRAY_SIZE(port_knobs); i++) {
		const struct port_knob *kn = &port_knobs[i];

		if (strcmp(k, kn->word))
			continue;
		if (kn->parse(v, &r->knob[kn->attr]))
			return -ibt_err(IBT_EXIT_USAGE, "bad %s \"%s\": %s", k, v,
					kn->what);
		r->knobs |= 1u << kn->attr;
		return 2;
	}
	if (!strcmp(k, "misroute")) {
		const char *p = n > 2 ? w[2] : NULL;

		if (ibt_parse_lid(v, &r->mr_dlid))
			return -ibt_err(IBT_EXIT_USAGE,
					"bad misroute DLID \"%s\": a unicast LID, 1.." IBT_STR(IBTRACE_MAX_UNICAST_LID), v);
		if (!p)
			return -ibt_err(IBT_EXIT_USAGE,
					"sim set: misroute needs DLID and PORT (or none)");
		r->mr_del = !strcmp(p, "none");
		if (!r->mr_del &&
		    ibt_parse_u32(p, 0, IBTRACE_SIM_PORTS_MAX, &r->mr_port))
			return -ibt_err(IBT_EXIT_USAGE,
					"bad misroute port \"%s\": an exit port, 0..%d, or none",
					p, IBTRACE_SIM_PORTS_MAX);
		r->has_misroute = true;
		return 3;
	}
	return -ibt_err(IBT_EXIT_USAGE,
			"unknown sim set keyword \"%s\"; see ibtracectl sim help", k);
}

static int set_parse(struct set_req *r, const char **w, int n)
{
	int i, used;

	if (check_name(w[0]))
		return IBT_EXIT_USAGE;
	r->fabric = w[0];
	r->node = w[1];
	if (!*r->node)
		return ibt_err(IBT_EXIT_USAGE, "sim set: empty NODE");
	for (i = 2; i < n; i += used) {
		used = set_word(r, w + i, n - i);
		if (used < 0)
			return -used;
	}
	if (r->knobs && !r->has_port)
		return ibt_err(IBT_EXIT_USAGE,
			       "sim set: port knobs need \"port N\"");
	if (!r->knobs && !r->has_misroute)
		return ibt_err(IBT_EXIT_USAGE,
			       "sim set: nothing to set; see ibtracectl sim help");
	return 0;
}

/* The SET request for @r; NULL (printed) on failure. */
static struct nl_msg *set_msg(struct ibt *ctx, const struct set_req *r)
{
	struct nl_msg *msg = ibt_sim_node_req(ctx, IBTRACE_SIM_CMD_SET,
					      r->fabric, r->node);
	struct nlattr *nest;
	int err = 0;
	size_t i;

	if (!msg)
		return NULL;
	if (r->has_port) {
		nest = nla_nest_start(msg, IBTRACE_SIM_A_PORT);
		err |= !nest;
		err |= nla_put_u32(msg, IBTRACE_SIM_PORT_A_NUM, r->port);
		for (i = 0; i < IBT_ARRAY_SIZE(port_knobs); i++)
			if (r->knobs & (1u << port_knobs[i].attr))
				err |= put_knob(msg, &port_knobs[i],
						r->knob[port_knobs[i].attr]);
		if (nest)
			nla_nest_end(msg, nest);
	}
	if (r->has_misroute) {
		nest = nla_nest_start(msg, IBTRACE_SIM_A_MISROUTE);
		err |= !nest;
		err |= nla_put_u32(msg, IBTRACE_SIM_MISROUTE_A_DLID, r->mr_dlid);
		if (!r->mr_del)
			err |= nla_put_u32(msg, IBTRACE_SIM_MISROUTE_A_PORT,
					   r->mr_port);
		if (nest)
			nla_nest_end(msg, nest);
	}
	if (err) {
		nlmsg_free(msg);
		ibt_err(IBT_EXIT_ERR, "netlink request too large");
		return NULL;
	}
	return msg;
}

static int sim_set(struct ibt *ctx)
{
	const char *words[SET_WORDS_MAX] = { NULL };
	struct set_req r = { 0 };
	struct nl_msg *msg;
	int n, ret;

	ret = sim_args(ctx, "set", NULL, words, 2, SET_WORDS_MAX,
		       "a fabric NAME and a NODE");
	if (ret)
		return ret;
	for (n = 0; n < SET_WORDS_MAX && words[n]; n++)
		;
	ret = set_parse(&r, words, n);
	if (!ret)
		ret = ibt_nl_open_family(ctx, &ibt_sim_family);
	if (ret)
		return ret;
	msg = set_msg(ctx, &r);
	if (!msg)
		return IBT_EXIT_ERR;
	return ibt_nl_run(ctx, msg, NULL, NULL);
}

/* sim show ---------------------------------------------------------------- */

static const char *node_name(struct sim_list *nodes, uint32_t index)
{
	size_t i;

	for (i = 0; i < nodes->n; i++) {
		struct nlattr **tb = nodes->v[i].tb;

		if (tb[IBTRACE_SIM_A_NODE_INDEX] &&
		    nla_get_u32(tb[IBTRACE_SIM_A_NODE_INDEX]) == index)
			return str_attr(tb, IBTRACE_SIM_A_NODE_NAME, "?");
	}
	return "?";
}

/* The knobs the kernel reports (those not at their power-on value). */
static void show_knobs(struct ibt *ctx, struct nlattr **pt)
{
	struct json_object *jv;
	const char *text;
	char b[96];
	uint32_t v;
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(port_knobs); i++) {
		const struct port_knob *kn = &port_knobs[i];

		if (!pt[kn->attr])
			continue;
		v = ibt_nla_uint(pt[kn->attr]);
		text = kn->text(v, b, sizeof(b));
		if (kn->json == 'b')
			jv = json_object_new_boolean(v);
		else if (kn->json == 's')
			jv = json_object_new_string(text);
		else
			jv = json_object_new_uint64(v);
		ibt_out_field(ctx, kn->key, jv, " %s %s", kn->word, text);
	}
}

/*
 * A port's fields: its number, (its GUID in JSON,) lid, lmc, (state,
 * peer,) packet counters.
 */
static const struct ibt_num_key port_keys[] = {
	{ IBTRACE_SIM_PORT_A_NUM,	"port" },
	{ IBTRACE_SIM_PORT_A_LID,	"lid" },
	{ IBTRACE_SIM_PORT_A_LMC,	"lmc" },
	{ IBTRACE_SIM_PORT_A_RX_PKTS,	"rx" },
	{ IBTRACE_SIM_PORT_A_TX_PKTS,	"tx" },
	{ IBTRACE_SIM_PORT_A_DROPS,	"drops" },
};

/* A port of a node (ibt_nl_each()'s callback; @arg: the fabric's nodes). */
static int show_port(struct ibt *ctx, void *arg, struct nlattr *nest)
{
	struct nlattr *pt[IBTRACE_SIM_PORT_A_MAX + 1];
	struct sim_list *nodes = arg;
	int ret;

	ret = ibt_nl_parse_nest(ctx, nest, pt);
	if (ret)
		return ret;
	ibt_out_obj_begin(ctx, NULL);
	ibt_out_text(ctx, "   ");
	ibt_out_nla_keys(ctx, port_keys, "u", pt);
	if (ctx->json)
		out_guid(ctx, "guid", pt[IBTRACE_SIM_PORT_A_GUID]);
	ibt_out_nla_keys(ctx, port_keys + 1, "xj", pt);
	if (pt[IBTRACE_SIM_PORT_A_STATE])
		ibt_out_str(ctx, "state", ibt_port_state_str(
				nla_get_u8(pt[IBTRACE_SIM_PORT_A_STATE])));
	if (pt[IBTRACE_SIM_PORT_A_PEER_NODE] && pt[IBTRACE_SIM_PORT_A_PEER_PORT]) {
		uint32_t pn = nla_get_u32(pt[IBTRACE_SIM_PORT_A_PEER_NODE]);
		uint32_t pp = nla_get_u32(pt[IBTRACE_SIM_PORT_A_PEER_PORT]);
		const char *pname = node_name(nodes, pn);
		struct json_object *jp = NULL;

		if (ctx->json) {
			jp = json_object_new_object();
			json_object_object_add(jp, "node", json_object_new_uint64(pn));
			json_object_object_add(jp, "name", json_object_new_string(pname));
			json_object_object_add(jp, "port", json_object_new_uint64(pp));
		}
		ibt_out_field(ctx, "peer", jp, " peer %s/%u", pname, pp);
	}
	ibt_out_nla_keys(ctx, port_keys + 3, "uuu", pt);
	show_knobs(ctx, pt);
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
	return 0;
}

/*
 * A misroute rule of a switch (ibt_nl_each()'s callback; @arg: whether
 * one was shown, and the "misroute" array opened).
 */
static int show_misroute(struct ibt *ctx, void *arg, struct nlattr *nest)
{
	struct nlattr *mt[IBTRACE_SIM_MISROUTE_A_MAX + 1];
	bool *any = arg;
	int ret;

	ret = ibt_nl_parse_nest(ctx, nest, mt);
	if (ret)
		return ret;
	if (!mt[IBTRACE_SIM_MISROUTE_A_DLID] ||
	    !mt[IBTRACE_SIM_MISROUTE_A_PORT])
		return ibt_err(IBT_EXIT_ERR,
			       "malformed kernel reply: incomplete misroute rule");
	if (!*any)
		ibt_out_arr_begin(ctx, "misroute");
	*any = true;
	ibt_out_obj_begin(ctx, NULL);
	ibt_out_text(ctx, "    misroute");
	ibt_out_hex(ctx, "dlid", nla_get_u32(mt[IBTRACE_SIM_MISROUTE_A_DLID]));
	ibt_out_u64(ctx, "port", nla_get_u32(mt[IBTRACE_SIM_MISROUTE_A_PORT]));
	ibt_out_obj_end(ctx);
	ibt_out_eol(ctx);
	return 0;
}

static int show_node(struct ibt *ctx, struct sim_list *nodes, struct sim_msg *m)
{
	struct nlattr **tb = m->tb;
	bool any = false;
	int ret;

	ibt_out_obj_begin(ctx, NULL);
	node_json(ctx, tb);
	ibt_out_text(ctx, "  %s %s",
		     ibt_sim_node_type_str(tb[IBTRACE_SIM_A_NODE_TYPE] ?
			nla_get_u8(tb[IBTRACE_SIM_A_NODE_TYPE]) : 0),
		     str_attr(tb, IBTRACE_SIM_A_NODE_NAME, "?"));
	out_guid(ctx, "guid", tb[IBTRACE_SIM_A_NODE_GUID]);
	if (tb[IBTRACE_SIM_A_DEV_NAME])
		ibt_out_str(ctx, "dev", nla_get_string(tb[IBTRACE_SIM_A_DEV_NAME]));
	ibt_out_eol(ctx);
	ibt_out_arr_begin(ctx, "ports");
	ret = ibt_nl_each(ctx, m->nlh, IBTRACE_SIM_A_PORT, show_port, nodes);
	if (ret)
		return ret;
	ibt_out_arr_end(ctx);
	/* a switch's misroute rules: "misroute" array, a text line each */
	ret = ibt_nl_each(ctx, m->nlh, IBTRACE_SIM_A_MISROUTE, show_misroute, &any);
	if (!ret && any)
		ibt_out_arr_end(ctx);
	ibt_out_obj_end(ctx);
	return ret;
}

/* The HCAs that are RDMA devices: in text only when some are hostless. */
static void show_devices(struct ibt *ctx, const struct nlattr *devs,
			 const struct nlattr *cas)
{
	uint32_t n;

	if (!devs)
		return;
	n = nla_get_u32(devs);
	if (cas && n >= nla_get_u32(cas))
		ibt_out_json(ctx, "devices", json_object_new_uint64(n));
	else
		ibt_out_u64(ctx, "devices", n);
}

/* Link-rate pacing: text only when on; JSON null when off. */
static void show_time_scale(struct ibt *ctx, const struct nlattr *ts)
{
	uint32_t n = ts ? nla_get_u32(ts) : 0;

	if (n)
		ibt_out_u64(ctx, "time_scale", n);
	else
		ibt_out_json(ctx, "time_scale", NULL);
}

/* The fields of a built fabric @name (@tb): its first line, its deadlock. */
static void show_summary(struct ibt *ctx, const char *name, struct nlattr **tb)
{
	static const struct { int attr; const char *key; } counts[] = {
		{ IBTRACE_SIM_A_NUM_CAS,	"cas" },
		{ IBTRACE_SIM_A_NUM_SWITCHES,	"switches" },
		{ IBTRACE_SIM_A_NUM_LINKS,	"links" },
	};
	size_t i;

	ibt_out_field(ctx, "fabric", json_object_new_string(name), "fabric %s",
		      name);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (tb[counts[i].attr])
			ibt_out_u64(ctx, counts[i].key,
				    nla_get_u32(tb[counts[i].attr]));
	show_devices(ctx, tb[IBTRACE_SIM_A_NUM_DEVICES],
		     tb[IBTRACE_SIM_A_NUM_CAS]);
	if (tb[IBTRACE_SIM_A_SEED])
		ibt_out_u64(ctx, "seed", nla_get_u32(tb[IBTRACE_SIM_A_SEED]));
	show_time_scale(ctx, tb[IBTRACE_SIM_A_TIME_SCALE]);
	out_sm(ctx, " ", tb[IBTRACE_SIM_A_SM], tb[IBTRACE_SIM_A_SM_LID]);
	ibt_out_eol(ctx);
	if (tb[IBTRACE_SIM_A_DEADLOCK]) {
		const char *loop = nla_get_string(tb[IBTRACE_SIM_A_DEADLOCK]);

		ibt_out_field(ctx, "deadlock", json_object_new_string(loop),
			      "  deadlock: credit loop %s", loop);
		ibt_out_eol(ctx);
	}
}

static int show_fabric(struct ibt *ctx, struct sim_msg *f)
{
	struct sim_list nodes = { 0 };
	const char *name;
	size_t i;
	int ret;

	if (!f->tb[IBTRACE_SIM_A_FABRIC_NAME])
		return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: no fabric name");
	name = nla_get_string(f->tb[IBTRACE_SIM_A_FABRIC_NAME]);
	if (f->tb[IBTRACE_SIM_A_BUILDING] &&
	    nla_get_u8(f->tb[IBTRACE_SIM_A_BUILDING])) {
		/* no nodes to show yet */
		ibt_out_obj_begin(ctx, NULL);
		ibt_out_field(ctx, "fabric", json_object_new_string(name),
			      "fabric %s", name);
		ibt_out_field(ctx, "building", json_object_new_boolean(1),
			      " building");
		ibt_out_eol(ctx);
		ibt_out_obj_end(ctx);
		return 0;
	}
	ret = get_nodes(ctx, name, &nodes);
	if (ret)
		goto out;

	ibt_out_obj_begin(ctx, NULL);
	show_summary(ctx, name, f->tb);
	ibt_out_arr_begin(ctx, "nodes");
	for (i = 0; i < nodes.n && !ret; i++)
		ret = show_node(ctx, &nodes, &nodes.v[i]);
	ibt_out_arr_end(ctx);
	ibt_out_obj_end(ctx);
out:
	sim_list_free(&nodes);
	return ret;
}

static int sim_show(struct ibt *ctx)
{
	struct sim_list fabrics = { 0 };
	const char *name = NULL;
	struct nl_msg *msg;
	size_t i;
	int ret;

	ret = sim_args(ctx, "show", NULL, &name, 0, 1, "");
	if (!ret && name)
		ret = check_name(name);
	if (!ret)
		ret = ibt_nl_open_family(ctx, &ibt_sim_family);
	if (ret)
		return ret;
	msg = sim_req(ctx, IBTRACE_SIM_CMD_FABRIC_GET, !name, name);
	if (!msg)
		return IBT_EXIT_ERR;
	ret = ibt_nl_run(ctx, msg, keep_cb, &fabrics);

	ibt_out_arr_begin(ctx, NULL);
	for (i = 0; i < fabrics.n && !ret; i++)
		ret = show_fabric(ctx, &fabrics.v[i]);
	ibt_out_arr_end(ctx);
	sim_list_free(&fabrics);
	if (!ret)
		ibt_out_finish(ctx);
	return ret;
}

const char ibt_sim_help[] =
	"Usage: ibtracectl [-j] [--pretty] sim add TOPOLOGY_FILE [--name NAME]\n"
	"                                 [--no-sm] [--guid-cap N] [--seed N]\n"
	"                                 [--devices N] [--time-scale N]\n"
	"       ibtracectl sim del NAME\n"
	"       ibtracectl sim set FABRIC NODE [port N] [drop PERCENT] [delay USEC]\n"
	"                      [link down|up] [buffer BLOCKS] [sink PPS]\n"
	"                      [credits ignore|obey] [width 1x|4x]\n"
	"                      [speed sdr|ddr|qdr] [guid-cap N]\n"
	"                      [guid-quirks QUIRKS]\n"
	"                      [misroute DLID PORT | misroute DLID none]\n"
	"       ibtracectl [-j] [--pretty] sim show [NAME]\n"
	"       ibtracectl [-j] sim capture FABRIC NODE [PORT] [-w FILE] [-c COUNT]\n"
	"                      [-B KIB]\n"
	"       ibtracectl [-j] sim inject FABRIC NODE PORT (--class CLASS ... |\n"
	"                      --payload HEX) [--slid LID] [--dlid LID] [...]\n"
	"       ibtracectl [-j] sim traffic FABRIC --from NODE [--port N] --to LID\n"
	"                      [--sl SL] [--size BYTES] [--rate PPS|max] [--count N]\n"
	"                      [--from NODE ...]... [--timeout SEC]\n"
	"add: create a fabric of the ibtrace_sim module from an ibnetdiscover /\n"
	"ibsim topology file; prints the fabric's name and the RDMA device of\n"
	"each HCA. A rejected topology prints \"Error: line N: REASON\", exit 1;\n"
	"one over the module's memory budget (mem_budget_mb) names both, exit 1.\n"
	"The built-in SM-lite assigns LIDs and routes and brings ports Active;\n"
	"--no-sm leaves that to an SM such as OpenSM. --guid-cap N (1..255,\n"
	"default 8) sizes every port's GUID table. --seed N (0..4294967295;\n"
	"default: random, shown by show) seeds the fabric's random losses.\n"
	"--devices N makes only the first N HCAs RDMA devices; the others are\n"
	"hostless (their firmware answers SMPs and the PMA; 0x000C for other\n"
	"classes) and cost little: fabrics of 10,000 nodes in a small VM.\n"
	"--time-scale N (1..1000000; default off) paces data packets at each\n"
	"link's rate (width x speed), slowed N times.\n"
	"del: destroy a fabric and its RDMA devices.\n"
	"set: fault knobs of node NODE (name, or index if all digits). Port\n"
	"knobs need \"port N\": drop (0..100 %, packets leaving the port),\n"
	"delay (0..10000000 us), link down|up (both ends), buffer (receive\n"
	"buffer per data VL, 66..8192 blocks of 64 bytes), sink (an HCA port\n"
	"takes at most PPS data packets a second; 0: off), credits ignore\n"
	"(data packets leave at once; the receiver discards what it has no\n"
	"room for) or obey, width 1x|4x and speed sdr|ddr|qdr (the rate the\n"
	"link trained at, both ends; 4x qdr at power-on), guid-cap (1..the\n"
	"fabric's --guid-cap), guid-quirks (none or entry0-writable,\n"
	"past-table-status,above-cap-nonzero). misroute DLID PORT makes a\n"
	"switch send LID-routed packets for DLID out of PORT whatever its LFT\n"
	"says; misroute DLID none removes the rule.\n"
	"show: every fabric (or NAME): its nodes (type, name, guid, dev) and per\n"
	"port: lid, state, peer NODE/PORT, rx, tx, drops packet counters,\n"
	"the knobs not at their power-on value, and misroute rules.\n"
	"capture: the packets crossing the links of node NODE (of its port PORT,\n"
	"or of every port), both ways: a line each, or a pcap file (-w) for\n"
	"Wireshark; -c COUNT packets, or until Ctrl-C; -B KIB receive buffer\n"
	"(packets that do not fit are lost, and counted).\n"
	"inject: a packet as if node NODE sent it out of its PORT, its source\n"
	"(SLID, SGID, QP), SL and VL forged at will, with a MAD composed as mad\n"
	"send's (or any --payload); the answer comes back to the injector and\n"
	"is shown (sim inject help).\n"
	"traffic: flows of data packets from HCA NODE to LID through the fabric's\n"
	"forwarding, VLs and flow control, several at once (each --from begins\n"
	"one); then what each sent, delivered and dropped, its rate and latency\n"
	"(sim traffic help). Exit 6: stopped at --timeout (default 60 s); 7:\n"
	"packets were dropped.\n"
	"capture, inject and traffic need CAP_NET_ADMIN.\n"
	"add, del, set and show need CAP_NET_ADMIN (else exit 5); exit 3:\n"
	"ibtrace_sim is not loaded.\n";

const struct ibt_cmd ibt_sim_cmds[] = {
	{ "add",	sim_add },
	{ "del",	sim_del },
	{ "set",	sim_set },
	{ "show",	sim_show },
	{ "capture",	ibt_sim_capture },	/* capture.c */
	{ "inject",	ibt_sim_inject },	/* inject.c */
	{ "traffic",	ibt_sim_traffic },	/* traffic.c */
	{ "help",	NULL },	/* ibt_sim_help */
	{ NULL,		NULL },
};
