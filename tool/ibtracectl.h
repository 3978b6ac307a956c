/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtracectl - command-line front end of the ibtrace kernel module.
 *
 * One context (struct ibt) is created in main() (ibtracectl.c: main, help
 * and the table of objects) and passed to every function. What every
 * object uses (the error line, option parsing, dispatch, signals) lives in
 * utils.c, transport in nl.c, presentation in out.c, pure parsing
 * and decoding in parse.c and fmt.c, and one file per object (dev.c,
 * agent.c, ping.c, trace.c, test.c, sim.c) ties them together; the hops
 * of a trace are decoded and printed by hop.c (for trace.c and
 * trace_monitor.c); the test object keeps the decoding of its results in
 * test_result.c, their printing in test_out.c and each conformance test
 * the tool knows in a file of its own (test_guidinfo.c, test_rnr.c; see
 * test.h).
 *
 * Exit codes (also listed by "ibtracectl --help"; part of the interface,
 * checked by the selftests):
 *
 *   0  success (ping: at least one probe answered with MAD status 0)
 *   1  any other error (netlink failure, malformed kernel reply,
 *      kernel error not listed below)
 *   2  usage error: unknown option, object or command, bad or missing
 *      argument; the message names the offending word
 *   3  the "ibtrace" generic netlink family does not exist, i.e. the
 *      ibtrace kernel module is not loaded
 *   4  no such device or port (the kernel answered ENODEV); sim traffic:
 *      the fabric was deleted while the flows ran
 *   5  permission denied (the kernel answered EPERM or EACCES)
 *   6  ping: no probe was answered (all timed out); sim inject: no
 *      answer in time; sim traffic: flows stopped at --timeout
 *   7  ping: every answer carried a non-zero MAD status; sim inject:
 *      so did the answer; sim traffic: packets were dropped
 *   8  trace: no route (LFT entry 255, DLID past LinearFDBTop, exit port
 *      0 or beyond the switch's ports, or a CA on the path without it)
 *   9  trace: a port on the path is not Active
 *  10  trace: the path loops, or has more than 63 hops
 *  11  trace: a hop did not answer after all retries (or answered an
 *      SMP with an error status)
 *  12  trace: the SA PathRecord lookup of the DGID failed
 *  13  trace: cancelled (SIGINT); test run, server quit: cancelled
 *      (SIGINT, SIGTERM); sim traffic: flows stopped by a signal
 *  14  busy: the kernel refused the request for now (EBUSY, e.g. too
 *      many traces, test jobs or sim traffic flows running)
 *  15  test, server quit: verdict fail (an assertion failed)
 *  16  test, server quit: verdict not applicable to the DUT
 *  17  test, server quit: verdict error (the test could not be completed)
 *  18  test: restore failed: the DUT may be left changed (overrides
 *      13, 15, 16 and 17)
 *
 * A trace whose device goes away mid-way exits with 4.
 *
 * The "sim" object talks to the "ibtrace_sim" family instead: 3 then means
 * that the ibtrace_sim module is not loaded. A topology text the kernel
 * rejects ("sim add") is an other error, 1, printed as
 * "Error: line N: <reason>".
 *
 * Every failure prints exactly one line on stderr, starting with
 * "Error: ". When the kernel attached an extended ACK message, that line
 * is "Error: <kernel message>".
 */
#ifndef IBTRACECTL_H
#define IBTRACECTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>

#include <linux/ibtrace.h>

struct nl_sock;
struct nl_msg;
struct nlmsghdr;
struct nlattr;
struct json_object;
struct option;
struct nla_policy;

enum ibt_exit {
	IBT_EXIT_OK		= 0,
	IBT_EXIT_ERR		= 1,
	IBT_EXIT_USAGE		= 2,
	IBT_EXIT_NOMOD		= 3,
	IBT_EXIT_NODEV		= 4,
	IBT_EXIT_PERM		= 5,
	IBT_EXIT_TIMEOUT	= 6,
	IBT_EXIT_REMOTE		= 7,
	IBT_EXIT_NOROUTE	= 8,
	IBT_EXIT_PORTDOWN	= 9,
	IBT_EXIT_LOOP		= 10,
	IBT_EXIT_UNRESP		= 11,
	IBT_EXIT_SAFAIL		= 12,
	IBT_EXIT_CANCEL		= 13,
	IBT_EXIT_BUSY		= 14,
	IBT_EXIT_FAIL		= 15,
	IBT_EXIT_NA		= 16,
	IBT_EXIT_TESTERR	= 17,
	IBT_EXIT_RESTORE	= 18,
	IBT_EXIT_AUDIT		= 19,
	/* internal only: the receive loop was interrupted by SIGINT */
	IBT_EXIT_INTR		= 130,
};

#define IBT_DEV_NAME_MAX	64	/* IB_DEVICE_NAME_MAX, with the NUL */
#define IBT_DESC_MAX		65	/* NodeDescription, with the NUL */
#define IBT_OPT_PRETTY		0x100	/* getopt value of --pretty */

/*
 * Long options allowed anywhere on the command line, also after an
 * object's own options: one entry list for every getopt table.
 */
#define IBT_GLOBAL_OPTS \
	{ "json",	no_argument,		NULL, 'j' }, \
	{ "pretty",	no_argument,		NULL, IBT_OPT_PRETTY }, \
	{ "dev",	required_argument,	NULL, 'd' }, \
	{ "port",	required_argument,	NULL, 'p' }
/*
 * A destination given as --dgid GID and/or --dlid LID (ping, trace):
 * their entries of a getopt table, and where ibt_opt_dest() puts them.
 */
#define IBT_OPT_DGID		0x200
#define IBT_OPT_DLID		0x201
#define IBT_DEST_OPTS \
	{ "dgid",	required_argument,	NULL, IBT_OPT_DGID }, \
	{ "dlid",	required_argument,	NULL, IBT_OPT_DLID }
struct ibt_dest {
	uint8_t dgid[16];
	uint32_t dlid;
	bool has_dgid, has_dlid;
};
/*
 * How long to wait for an answer, -t/--timeout MS and -r/--retries N
 * (ping, trace): their entries of a getopt table, and where
 * ibt_opt_wait() puts them.
 */
#define IBT_WAIT_OPTS \
	{ "timeout",	required_argument,	NULL, 't' }, \
	{ "retries",	required_argument,	NULL, 'r' }
struct ibt_wait {
	uint32_t timeout_ms, retries;
	bool has_timeout, has_retries;
};
/* What ping and trace aim at: a destination, and how long to wait. */
struct ibt_target {
	struct ibt_dest dest;
	struct ibt_wait wait;
};
#define IBT_OUT_DEPTH		8	/* JSON nesting the output supports */
#define IBT_ERRMSG_MAX		256
#define IBT_MCGRP_MAX		8	/* multicast groups of a family kept */
#define IBT_MCGRP_NAME_MAX	16	/* GENL_NAMSIZ */

/* What the kernel said in its last error (or warning) ACK. */
struct ibt_nlerr {
	int err;			/* positive errno, 0 if none */
	char msg[IBT_ERRMSG_MAX];	/* NLMSGERR_ATTR_MSG, "" if none */
	int bad_attr;			/* request attribute at NLMSGERR_ATTR_OFFS, -1 */
	int miss_type;			/* NLMSGERR_ATTR_MISS_TYPE, -1 */
};

struct ibt {
	/* global options */
	bool json;			/* -j */
	bool pretty;			/* --pretty, implies -j */
	const char *dev;		/* -d, NULL: every device */
	uint32_t port;			/* -p, 0: every port */

	/* object arguments: argv[0] is the object or command word */
	int argc;
	char **argv;

	/* netlink (nl.c), one socket per run */
	struct nl_sock *sk;
	const struct ibt_family *fam;	/* the family opened */
	uint16_t family;		/* its resolved id */
	uint32_t family_version;
	struct ibt_nlerr nlerr;
	unsigned int nl_lost;		/* receive buffer overruns seen */
	bool nl_overrun;		/* one was seen: replies may vanish */
	struct {			/* the family's multicast groups */
		char name[IBT_MCGRP_NAME_MAX];
		uint32_t id;
	} mcgrp[IBT_MCGRP_MAX];
	int nmcgrp;
	/* multicast notifications of joined groups (ibt_nl_join) */
	int (*notify)(struct ibt *ctx, struct nlmsghdr *nlh, void *arg);
	void *notify_arg;

	/* JSON document under construction (out.c) */
	struct json_object *jroot;
	struct json_object *jstack[IBT_OUT_DEPTH];
	int jdepth;
};

/*
 * A generic netlink family the tool talks to: its name (also the name of
 * the kernel module providing it), the version its requests carry, its
 * request attributes as named in error messages, and the policies of
 * what it sends (nl.c keeps them, from the uAPI headers).
 */
struct ibt_nest;
struct ibt_family {
	const char *name;
	uint8_t version;
	const char *const *attr_names;	/* [attr_max + 1], NULL: no name */
	int attr_max;
	/* what the kernel sends: top-level [attr_max + 1], and the nests */
	const struct nla_policy *policy;
	const struct ibt_nest *nests;
	size_t nnests;
};
/* A family: its name, version and uAPI (attribute names, policies). */
#define IBT_FAMILY(name, version, names, max, policy, nests) \
	{ name, version, names, max, policy, nests, IBT_ARRAY_SIZE(nests) }

#define IBT_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* a uAPI bound, a plain decimal literal, as text in a help string */
#define IBT_STR(x)		IBT_STR_(x)
#define IBT_STR_(x)		#x

/*
 * A number attribute and its JSON key: tables of them are printed by
 * ibt_out_nums() and ibt_out_nla_nums(); also any attribute and its
 * text label and JSON key, for ibt_out_nla_keys().
 */
struct ibt_num_key {
	int attr;
	const char *key;
};

/*
 * A "{ name, fn }" dispatch table entry; tables end with { NULL, NULL }.
 * In an object's table a NULL @fn prints the object's help text.
 */
struct ibt_cmd {
	const char *name;
	int (*fn)(struct ibt *ctx);
};
/* The table of an object whose one command is "show" (and "help"). */
#define IBT_SHOW_CMDS(show) \
	{ { "show", (show) }, { "help", NULL }, { NULL, NULL } }

/*
 * An object of the command line: @fn takes the words after its name, or
 * (@fn NULL) the next word names one of @cmds ("show" when there is none)
 * and @help is what its "help" prints, if that is not a function.
 */
struct ibt_object {
	const char *name;
	int (*fn)(struct ibt *ctx);
	const struct ibt_cmd *cmds;
	const char *help;
};

/*
 * An option that takes a number (for ibt_opt_nums()): its long name
 * (ibt_args_parse() adds it to getopt's table; NULL: the caller parses
 * it), its getopt value (a letter is also the short option; or the id a
 * test gives it), its name in errors, its range, what the number is and
 * its unit (errors say "bad OPT \"ARG\": expected WHAT MIN..MAXUNIT"),
 * and where it goes in the command's options: the offsets of the value
 * (a uint32_t) and of the bool set when it is given (IBT_NUM_NO_FLAG:
 * none).
 */
#define IBT_NUM_NO_FLAG		((size_t)-1)
struct ibt_num_opt {
	const char *name;
	int c;
	const char *opt;
	uint32_t min, max;
	const char *what, *unit;
	size_t val, has;
};

/*
 * An attribute of a request that an option gives (for ibt_nl_put_opts()):
 * the attribute, its type, and where the option is in the command's
 * options: the offset of the value (a uint32_t; none for a flag) and of
 * the bool set when it is given (a flag's own; IBT_NUM_NO_FLAG: always
 * put). A table of them, in the order the request carries them.
 */
enum ibt_req_type {
	IBT_REQ_U8,
	IBT_REQ_U16,
	IBT_REQ_U32,
	IBT_REQ_FLAG,
};
struct ibt_req_opt {
	int attr;
	enum ibt_req_type type;
	size_t val, has;
};

/*
 * The options and words of a command, for ibt_args_parse(): its own
 * options (getopt's long ones; a letter as value is also the short
 * option), the callback that takes them, and the positional words it
 * wants. getopt's tables add "help" (if @help) and IBT_GLOBAL_OPTS.
 */
#define IBT_OPT_UNKNOWN		(-1)	/* @opt: not an option of the command */
struct ibt_args;
/* IBT_EXIT_OK, a printed exit code or IBT_OPT_UNKNOWN; @a->priv is its */
typedef int (*ibt_opt_fn)(int c, const char *arg, const struct ibt_args *a);
#define IBT_OPTS_MAX		80	/* own options of a command, at most */
struct ibt_args {
	const char *obj;		/* "ping", "sim", in errors; NULL: none */
	const char *cmd;		/* "add", "monitor", or NULL */
	const struct option *opts;	/* ends with a NULL name; NULL: none */
	bool permute;			/* options may follow the words */
	ibt_opt_fn opt;
	const struct ibt_num_opt *nums;	/* taken before @opt: @nnums of them */
	size_t nnums;
	struct ibt_target *target;	/* and its options, if not NULL */
	void *priv;
	bool *help;			/* set by 'h' (-h, --help); NULL: none */
	bool help_word;			/* and by the word "help" first */
	struct ibt_words {		/* the positional words wanted */
		const char **pos;	/* [max]: they go here */
		int min, max;
		const char *what;	/* what @min words are, in errors */
	} words;
};

/* utils.c */
int ibt_err(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ibt_dispatch(struct ibt *ctx, const struct ibt_object *objects);
int ibt_global_opt(struct ibt *ctx, int c, const char *arg);
int ibt_bad_opt(int c, char **argv, const char *where);
int ibt_args_parse(struct ibt *ctx, const struct ibt_args *a);
int ibt_words_parse(struct ibt *ctx, const char *obj, const char *cmd,
		    const struct option *opts, ibt_opt_fn opt, void *priv,
		    const char **pos, int min, int max, const char *what);
int ibt_target_args(struct ibt *ctx, const char *obj,
		    const struct option *opts, ibt_opt_fn opt, void *priv,
		    bool *help, struct ibt_target *target);
int ibt_nums_args(struct ibt *ctx, const char *obj, const char *cmd,
		  const struct ibt_num_opt *nums, size_t n, void *priv,
		  bool *help, bool help_word);
int ibt_opt_u32(const char *opt, const char *arg, uint32_t min, uint32_t max,
		uint32_t *val, bool *has);
int ibt_opt_range(const char *opt, const char *arg, uint32_t min, uint32_t max,
		  const char *what, const char *unit, uint32_t *val, bool *has);
int ibt_opt_nums(const struct ibt_num_opt *opts, size_t n, int c,
		 const char *arg, void *priv);
int ibt_opt_dest(int c, const char *arg, struct ibt_dest *d);
int ibt_opt_wait(int c, const char *arg, struct ibt_wait *w);
int ibt_opt_poll(const char *arg, uint32_t *poll, bool *has);
int ibt_opt_target(int c, const char *arg, struct ibt_target *t);
int ibt_opt_ok(int bad, bool *has, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ibt_end_args(struct ibt *ctx);
bool ibt_usage_if(bool help, void (*usage)(FILE *f));
/*
 * Set by a caught signal (ibt_signals_hold()); a wait for the kernel
 * (ibt_nl_wait_notify()) then returns IBT_EXIT_INTR, and the tool cancels
 * its job.
 */
extern volatile sig_atomic_t ibt_interrupted;
/* the first SIGINT or SIGTERM caught, 0 if none */
extern volatile sig_atomic_t ibt_signal;
/*
 * SIGINT and SIGTERM from here on: blocked but while the tool waits for
 * the kernel, and caught (if @catch): the first sets ibt_interrupted; the
 * same signal again within a second is the same request (timeout(1)
 * signals the tool and its process group), a later one ends the tool.
 */
void ibt_signals_hold(bool catch);
/*
 * Deliver a SIGINT or SIGTERM held pending (blocked) now: ppoll() returns
 * ready descriptors without delivering it, so a socket that is never
 * quiet would keep it out for good.
 */
void ibt_signals_let_in(void);

/* The value of hex digit @c, or -1 (parse.c, fabric.c). */
static inline int ibt_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* parse.c - pure, unit-tested by tests/unit.c */
int ibt_parse_u64(const char *s, uint64_t *out);
int ibt_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
int ibt_parse_hex(const char *s, uint8_t *buf, size_t max, size_t *n);
int ibt_parse_lid(const char *s, uint32_t *lid);
int ibt_parse_gid(const char *s, uint8_t gid[16]);
int ibt_parse_sroute(const char *s, uint8_t *ports, size_t max, size_t *n);
int ibt_parse_dr_path(const char *s, uint8_t *ports, size_t *n);
const char *ibt_dr_path_str(const uint8_t *ports, size_t n, char *buf,
			    size_t len);
#define IBT_LOOKUP_NONE		(-1)
#define IBT_LOOKUP_AMBIGUOUS	(-2)
int ibt_cmd_lookup(const struct ibt_cmd *table, const char *word);
int ibt_name_lookup(const void *table, size_t size, const char *word);
int ibt_sim_name_ok(const char *name);
size_t ibt_chunk_len(size_t left, size_t max);
int ibt_parse_pct_ppm(const char *s, uint32_t *ppm);
int ibt_parse_guid_quirks(const char *s, uint32_t *quirks);
const char *ibt_guid_quirks_str(uint32_t quirks, char *buf, size_t len);
const char *ibt_ppm_pct_str(uint32_t ppm, char *buf, size_t len);
int ibt_parse_rnr_timer(const char *s, uint32_t *code, bool *all);
int ibt_parse_test_poll(const char *s, uint32_t *poll);
int ibt_parse_perf_op(const char *s, uint32_t *op);
int ibt_parse_txn_who(const char *s, uint32_t *who);
int ibt_parse_txn_type(const char *s, uint32_t *type);

/* fmt.c - pure, unit-tested by tests/unit.c */
bool ibt_flags_str_done(uint32_t v, const char *zero, char *buf, size_t len);
const char *ibt_mad_status_str(uint16_t status, char *buf, size_t len);
const char *ibt_link_layer_str(unsigned int ll);
const char *ibt_port_state_str(unsigned int state);
const char *ibt_probe_status_str(unsigned int status);
uint32_t ibt_pct_x100(uint32_t part, uint32_t whole);
const char *ibt_pct_str(uint32_t x100, char *buf, size_t len);
uint64_t ibt_percentile(const uint64_t *sorted, size_t n, unsigned int pct);
const char *ibt_ns_str(uint64_t ns, uint64_t unit, char *buf, size_t len);
const char *ibt_dur_str(int64_t ns, bool plus, char *buf, size_t len);
const char *ibt_dec1_str(uint64_t n, uint64_t div, char *buf, size_t len);
const char *ibt_num_str(const bool *have, const uint64_t *val, int a, char *buf,
			size_t len);
const char *ibt_sim_node_type_str(unsigned int type);
const char *ibt_node_type_str(unsigned int type);
const char *ibt_hop_agent_str(unsigned int agent);
const char *ibt_trace_status_str(unsigned int status);
const char *ibt_test_state_str(unsigned int state);
const char *ibt_test_verdict_str(unsigned int verdict);
const char *ibt_test_restore_str(unsigned int restore);
const char *ibt_assert_result_str(unsigned int result);
const char *ibt_xchg_outcome_str(unsigned int outcome);
const char *ibt_xchg_phase_str(unsigned int phase);
const char *ibt_mad_method_str(unsigned int method);
const char *ibt_smp_attr_str(unsigned int attr_id);
const char *ibt_test_poll_str(unsigned int poll);
const char *ibt_rnr_wire_str(unsigned int wire);
const char *ibt_limit_object_str(unsigned int object);
const char *ibt_limit_end_str(unsigned int end);
const char *ibt_perf_op_str(unsigned int op);
const char *ibt_txn_who_str(unsigned int who);
const char *ibt_txn_type_str(unsigned int type);

/*
 * mad_decode.c - MAD layouts the tool decodes: the header of a MAD, the
 * fields of the attributes it knows, the names of classes, methods and
 * attributes and their parsing. Pure but for its printing (through out.c,
 * JSON keys listed in mad_decode.c); unit-tested by tests/unit.c.
 */
#define IBT_MAD_SIZE		256

/**
 * ibt_mad_print_hdr() - print the common header of a MAD
 * @ctx: the output
 * @mad: the MAD, as on the wire
 * @len: its length in bytes (IBT_MAD_SIZE; what is missing is not printed)
 *
 * The common header, and the SMP's M_Key and directed-route fields (and
 * paths), the OUI of a vendor range 2 class (0x30..0x4f), the RMPP and SA
 * headers; in JSON, in an object "mad". Text lines end with a newline.
 */
void ibt_mad_print_hdr(struct ibt *ctx, const uint8_t *mad, size_t len);

/**
 * ibt_mad_print_brief() - a MAD in a few words, within a line
 * @ctx: the output
 * @mad: the MAD, as on the wire
 * @len: its length in bytes (nothing printed below the common header's)
 *
 * Text: " CLASS METHOD ATTR tid 0x..." (names, else numbers; a DR SMP's
 * " hop PTR/CNT"), no newline; JSON: class, method, attr_id, class_name,
 * method_name, attr_name (the names known), tid (a string), status, in
 * the object the caller has open.
 */
void ibt_mad_print_brief(struct ibt *ctx, const uint8_t *mad, size_t len);

/**
 * ibt_mad_print_attr() - print the fields of the attribute a MAD holds
 * @ctx: the output
 * @mad: the MAD, as on the wire
 * @len: its length in bytes (IBT_MAD_SIZE, more for a reassembled SA
 *	table response)
 *
 * The attribute's fields, in JSON in an object "attr", for the attributes
 * known, whatever the method (a known one) says of the data.
 *
 * Return: true when decoded; false, nothing printed, when the class,
 * attribute or method is not known or the MAD too short to hold it (the
 * caller then hex dumps it).
 */
bool ibt_mad_print_attr(struct ibt *ctx, const uint8_t *mad, size_t len);

/**
 * ibt_mad_print_hex() - print bytes as a hex dump
 * @ctx: the output
 * @key: JSON key of the dump (text: not printed)
 * @buf: the bytes
 * @len: how many
 *
 * Text: 16 bytes a line after their offset ("  0010  00 01 ..."); JSON:
 * one string of lowercase hex digits under @key.
 */
void ibt_mad_print_hex(struct ibt *ctx, const char *key, const uint8_t *buf,
		       size_t len);

/**
 * ibt_mad_attr_name() - name of an attribute of a class
 * @mgmt_class: the management class
 * @attr_id: the attribute ID
 *
 * Return: "NodeInfo", "PathRecord", ... or NULL when not known.
 */
const char *ibt_mad_attr_name(uint8_t mgmt_class, uint16_t attr_id);

/**
 * ibt_mad_class_name() - name of a management class
 * @mgmt_class: the class
 *
 * Return: "SubnDirectedRoute", "SubnLidRouted", "SubnAdm", "PerfMgt",
 * "Ibtrace" (0x30), "Vendor" (range 1), "VendorOUI" (range 2), ...
 * or NULL when not known.
 */
const char *ibt_mad_class_name(uint8_t mgmt_class);

/**
 * ibt_mad_method_name() - name of a method
 * @method: the method, its response bit included
 *
 * Return: "Get", "Set", "GetResp", "Trap", "Report", "GetTable",
 * "GetTableResp", "TrapRepress", "ReportResp", ... or NULL.
 */
const char *ibt_mad_method_name(uint8_t method);

/**
 * ibt_mad_parse_attr() - attribute ID from a name or a number
 * @mgmt_class: the class the attribute is of (SA PathRecord is 0x35 in
 *	class 0x03, PortCounters 0x12 in class 0x04)
 * @s: a name of ibt_mad_attr_name() ("NodeInfo"; case and underscores do
 *	not count) or a number 0..0xffff ("0x11", "17")
 * @attr_id: where the ID goes (left as it was on error)
 *
 * Return: 0, or -1 when @s is neither.
 */
int ibt_mad_parse_attr(uint8_t mgmt_class, const char *s, uint16_t *attr_id);

/**
 * ibt_mad_parse_class() - management class from a name or a number
 * @s: "smp-dr" or "dr", "smp-lid" or "lid", "sa", "pma" or "perf",
 *	"ibtrace" or "vendor" (0x30), "cm", a name of ibt_mad_class_name()
 *	that is not a vendor range's (case does not count), or a number
 *	0..0xff
 * @mgmt_class: where the class goes (left as it was on error)
 *
 * Return: 0, or -1 when @s is neither.
 */
int ibt_mad_parse_class(const char *s, uint8_t *mgmt_class);

/**
 * ibt_mad_parse_method() - method from a name or a number
 * @s: a name of ibt_mad_method_name() ("get", "gettable", "getresp"; case
 *	does not count) or a number 0..0xff
 * @method: where the method goes (left as it was on error)
 *
 * Return: 0, or -1 when @s is neither.
 */
int ibt_mad_parse_method(const char *s, uint8_t *method);

/**
 * struct ibt_mad_req - a MAD as the options of "mad send" and "sim inject"
 *	compose it (IBT_MAD_REQ_OPTS, ibt_mad_req_nums), each field with the
 *	flag of its option given
 * @mgmt_class: --class (with --dr and without it: 0x81)
 * @method: --method (default Get)
 * @attr_word: --attr as given, parsed into @attr_id once the class is known
 * @attr_id: the attribute ID
 * @attr_mod: --attr-mod
 * @class_version: --class-version (SA: 2, else 1)
 * @base_version: --base-version (1)
 * @status: --status
 * @tid: --tid, the TID's low 32 bits
 * @oui: --oui, of a vendor range 2 class (class 0x30: ibtrace's)
 * @dr_slid: --dr-slid (permissive)
 * @dr_dlid: --dr-dlid (permissive)
 * @hop_ptr: --hop-ptr (0)
 * @mkey: --mkey
 * @comp_mask: --comp-mask, of an SA MAD
 * @data: --data, the attribute's data, at the class's data offset
 * @data_len: its bytes
 * @dr: --dr, the exit ports of a directed route
 * @dr_len: its hops
 * @allow_set: --allow-set: a method that can change the fabric is allowed
 * @hex: --hex: an answer's data printed in hex, not decoded
 */
struct ibt_mad_req {
	uint8_t mgmt_class, method;
	bool has_class, has_method;
	const char *attr_word;
	uint16_t attr_id;
	uint32_t attr_mod, class_version, base_version, status, tid, oui;
	uint32_t dr_slid, dr_dlid, hop_ptr;
	bool has_attr_mod, has_class_version, has_base_version, has_status;
	bool has_tid, has_oui, has_dr_slid, has_dr_dlid, has_hop_ptr;
	uint64_t mkey, comp_mask;
	bool has_mkey, has_comp_mask;
	uint8_t data[IBTRACE_MAD_MAX_DATA];
	size_t data_len;
	uint8_t dr[IBTRACE_MAD_MAX_DR_HOPS];
	size_t dr_len;
	bool has_dr, allow_set, hex;
};

/**
 * ibt_mad_compose() - a MAD as on the wire, from its fields
 * @r: the fields, checked and completed by ibt_mad_req_check()
 * @tid: the whole TransactionID
 * @mad: IBT_MAD_SIZE bytes: the MAD
 *
 * As the kernel composes the MADs of "mad send" (mad_send.c): the common
 * header, an SMP's M_Key and directed route, an SA MAD's ComponentMask, a
 * vendor range 2 class's OUI, and the data at the class's data offset.
 */
void ibt_mad_compose(const struct ibt_mad_req *r, uint64_t tid, uint8_t *mad);

/*
 * mad.c - the options of a MAD's fields, which commands that compose a
 * MAD take (their struct ibt_mad_req at offset 0 of their options, for
 * ibt_mad_req_nums' offsets), with IBT_MAD_REQ_USAGE in their usage.
 */
#define IBT_OPT_MAD_CLASS		0x300
#define IBT_OPT_MAD_METHOD		0x301
#define IBT_OPT_MAD_ATTR		0x302
#define IBT_OPT_MAD_MKEY		0x303
#define IBT_OPT_MAD_COMP_MASK		0x304
#define IBT_OPT_MAD_DATA		0x305
#define IBT_OPT_MAD_DR			0x306
#define IBT_OPT_MAD_ALLOW_SET		0x307
#define IBT_OPT_MAD_HEX			0x308
#define IBT_OPT_MAD_ATTR_MOD		0x309
#define IBT_OPT_MAD_CLASS_VERSION	0x30a
#define IBT_OPT_MAD_BASE_VERSION	0x30b
#define IBT_OPT_MAD_STATUS		0x30c
#define IBT_OPT_MAD_TID			0x30d
#define IBT_OPT_MAD_OUI			0x30e
#define IBT_OPT_MAD_DR_SLID		0x30f
#define IBT_OPT_MAD_DR_DLID		0x310
#define IBT_OPT_MAD_HOP_PTR		0x311
#define IBT_MAD_REQ_OPTS \
	{ "class",	required_argument,	NULL, IBT_OPT_MAD_CLASS }, \
	{ "method",	required_argument,	NULL, IBT_OPT_MAD_METHOD }, \
	{ "attr",	required_argument,	NULL, IBT_OPT_MAD_ATTR }, \
	{ "mkey",	required_argument,	NULL, IBT_OPT_MAD_MKEY }, \
	{ "comp-mask",	required_argument,	NULL, IBT_OPT_MAD_COMP_MASK }, \
	{ "data",	required_argument,	NULL, IBT_OPT_MAD_DATA }, \
	{ "dr",		required_argument,	NULL, IBT_OPT_MAD_DR }, \
	{ "allow-set",	no_argument,		NULL, IBT_OPT_MAD_ALLOW_SET }, \
	{ "hex",	no_argument,		NULL, IBT_OPT_MAD_HEX }
#define IBT_MAD_REQ_NNUMS	9
extern const struct ibt_num_opt ibt_mad_req_nums[IBT_MAD_REQ_NNUMS];
#define IBT_MAD_REQ_USAGE \
	"  --data HEX           attribute data, hex bytes (spaces and colons allowed),\n" \
	"                       at the class's data offset; at most " IBT_STR(IBTRACE_MAD_MAX_DATA) " bytes\n" \
	"  --allow-set          allow a method that can change the fabric (Set, Trap,\n" \
	"                       Report, responses, ...)\n" \
	"  --hex                print the answer's data as hex, not decoded\n" \
	"Fields: --class-version N (sa: 2, else 1), --base-version N, --status N,\n" \
	"--tid N (low 32 bits), --mkey N, --oui N (ibtrace: 0x001405, else 0),\n" \
	"--comp-mask N, --dr-slid LID, --dr-dlid LID, --hop-ptr N.\n"
int ibt_mad_req_opt(int c, const char *arg, struct ibt_mad_req *r);
void ibt_mad_print_answer(struct ibt *ctx, const uint8_t *mad, size_t len,
			  bool hex);
int ibt_mad_req_check(struct ibt_mad_req *r, const char *what);

/* nl.c */
/* an unsigned attribute's value, whatever its (policy-checked) size */
uint64_t ibt_nla_uint(const struct nlattr *a);
void ibt_nla_keep(struct nlattr *num, uint32_t *n, struct nlattr *str,
		  char *buf, size_t len);
typedef int (*ibt_nl_cb)(struct ibt *ctx, struct nlmsghdr *nlh, void *arg);
int ibt_nl_open(struct ibt *ctx);
int ibt_nl_open_family(struct ibt *ctx, const struct ibt_family *fam);
void ibt_nl_close(struct ibt *ctx);
struct nl_msg *ibt_nl_req(struct ibt *ctx, uint8_t cmd, bool dump);
struct nl_msg *ibt_nl_req_size(struct ibt *ctx, uint8_t cmd, bool dump,
			       size_t size);
struct nl_msg *ibt_sim_node_req(struct ibt *ctx, uint8_t cmd,
				const char *fabric, const char *node);
struct nl_msg *ibt_nl_req_u32(struct ibt *ctx, uint8_t cmd, bool dump, int attr,
			      uint32_t val);
int ibt_nl_put_dev(struct ibt *ctx, struct nl_msg *msg, uint32_t port);
int ibt_nl_put_dest(struct nl_msg *msg, const struct ibt_dest *d, int dgid,
		    int dlid);
int ibt_nl_put_wait(struct nl_msg *msg, const struct ibt_wait *w, int timeout,
		    int retries);
int ibt_nl_put_opts(struct nl_msg *msg, const struct ibt_req_opt *attrs,
		    size_t n, const void *opts);
int ibt_nl_run(struct ibt *ctx, struct nl_msg *msg, ibt_nl_cb cb, void *arg);
/* a callback of ibt_nl_run_parsed(): @tb, the top level of @nlh */
typedef int (*ibt_nl_tb_cb)(struct ibt *ctx, struct nlmsghdr *nlh,
			    struct nlattr **tb, void *arg);
int ibt_nl_run_parsed(struct ibt *ctx, struct nl_msg *msg, ibt_nl_tb_cb cb,
		      void *arg);
/* what ibt_nl_u32_cb() reads: u32 attribute @attr into *@val */
struct ibt_reply_u32 {
	int attr;
	uint32_t *val;
};
int ibt_nl_u32_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg);
int ibt_nl_exchange(struct ibt *ctx, struct nl_msg *msg, ibt_nl_cb cb,
		    void *arg);
int ibt_nl_report(struct ibt *ctx, int err);
int ibt_nl_report_msg(struct ibt *ctx, int err, const char *msg);
int ibt_nl_fail(struct ibt *ctx, int ret, bool gone, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int ibt_nl_join(struct ibt *ctx, const char *name);
int ibt_nl_wait_notify(struct ibt *ctx, int timeout_ms);

/*
 * What a kind of job (ping, trace) does with the messages of a job
 * (ibt_job_run()): those of command @progress_cmd hand each attribute
 * @progress_attr they have (one or more, in order) to @progress; every
 * other one, its job number taken, goes to @msg, which sets the
 * follower's @ended (see ibt_job_ended()) on the job's end. Both get
 * ibt_job_run()'s @arg.
 */
struct ibt_job_kind {
	uint8_t progress_cmd;
	int progress_attr;
	int (*progress)(struct ibt *ctx, void *arg, struct nlattr *a);
	int (*msg)(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb,
		   void *arg);
};

/*
 * A kernel job being followed (job.c): @id from the reply that started
 * it; its messages (notifications, the request's and JOB_GET's replies)
 * bump @nevents and go to @kind, with @arg.
 */
struct ibt_job_follow {
	uint32_t id;
	bool ended;
	bool cancel_sent;
	bool interrupted;	/* a SIGINT/SIGTERM came */
	unsigned long nevents;
	const struct ibt_job_kind *kind;
	void *arg;
	uint32_t end_errno;	/* how the job ended early, 0 if not */
	char end_msg[256];	/* and the kernel's sentence, "" if none */
};

/*
 * The wait for a job's end (ibt_job_wait()), the same for every kind of
 * job: @ended and @nevents are kept by the handler of the job's messages
 * (ctx->notify); without a message of the job for @poll_ms, or when the
 * kernel dropped messages, @read reads the job in case its end was lost
 * (0 or a result as ibt_nl_exchange()'s; *finished when the read found
 * the job finished); the first SIGINT/SIGTERM calls @cancel (0 or an
 * exit code) and sets *@cancel_sent. A job gone before its end was seen
 * is exit code @gone_exit, "before its @gone_what was read".
 */
struct ibt_job_waiter {
	uint32_t id;
	const bool *ended;
	const unsigned long *nevents;
	bool *cancel_sent;
	unsigned int poll_ms;
	int (*cancel)(struct ibt *ctx, void *arg);
	int (*read)(struct ibt *ctx, void *arg, bool *finished);
	void *arg;
	int gone_exit;
	const char *gone_what;
};

/* job.c */
/* attempts at sending a cancel that a repeated signal interrupts */
#define IBT_CANCEL_TRIES	5
int ibt_job_wait(struct ibt *ctx, const struct ibt_job_waiter *w);
int ibt_job_cancel_send(struct ibt *ctx, uint8_t cmd, int attr, uint32_t id);
int ibt_job_cancel(struct ibt *ctx, uint32_t id);
int ibt_job_run(struct ibt *ctx, struct nl_msg *msg, struct ibt_job_follow *f,
		const struct ibt_job_kind *kind, void *arg);
bool ibt_job_ended(struct ibt_job_follow *f, struct nlattr **tb);
int ibt_job_result(struct ibt *ctx, const struct ibt_job_follow *f,
		   bool *interrupted);

int ibt_nl_parse(struct ibt *ctx, struct nlmsghdr *nlh, struct nlattr **tb);
int ibt_nl_parse_nest(struct ibt *ctx, struct nlattr *nest,
		      struct nlattr **tb);
typedef int (*ibt_nla_fn)(struct ibt *ctx, void *arg, struct nlattr *a);
int ibt_nl_each(struct ibt *ctx, struct nlmsghdr *nlh, int type, ibt_nla_fn fn,
		void *arg);
/* nl.c: the ibtrace_sim family (the ibtrace one is ibt_nl_open()'s) */
extern const struct ibt_family ibt_sim_family;

/* out.c */
void ibt_out_obj_begin(struct ibt *ctx, const char *key);
void ibt_out_obj_end(struct ibt *ctx);
void ibt_out_arr_begin(struct ibt *ctx, const char *key);
void ibt_out_arr_end(struct ibt *ctx);
void ibt_out_field(struct ibt *ctx, const char *key, struct json_object *jv,
		   const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void ibt_out_json(struct ibt *ctx, const char *key, struct json_object *jv);
void ibt_out_text(struct ibt *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ibt_out_str(struct ibt *ctx, const char *key, const char *val);
void ibt_out_u64(struct ibt *ctx, const char *key, uint64_t val);
void ibt_out_hex(struct ibt *ctx, const char *key, uint64_t val);
void ibt_out_bool(struct ibt *ctx, const char *key, bool val);
void ibt_out_gid(struct ibt *ctx, const char *key, const uint8_t gid[16]);
void ibt_out_nums(struct ibt *ctx, const struct ibt_num_key *keys, size_t n,
		  const bool *have, const uint64_t *val);
void ibt_out_num_text(const bool *have, const uint64_t *val, int a,
		      const char *label, const char *unit);
void ibt_out_nla_nums(struct ibt *ctx, const struct ibt_num_key *keys,
		      size_t n, struct nlattr **tb);
void ibt_out_nla_u64s(struct ibt *ctx, const struct ibt_num_key *keys,
		      size_t n, struct nlattr **tb);
void ibt_out_nla_keys(struct ibt *ctx, const struct ibt_num_key *keys,
		      const char *kinds, struct nlattr **tb);
void ibt_out_eol(struct ibt *ctx);
void ibt_out_finish(struct ibt *ctx);
void ibt_out_free(struct ibt *ctx);

/*
 * dev.c, also used by agent.c: query the ports -d/-p select; @arg is the
 * show function's. ibt_port_query_parsed() when the command took options
 * of its own (parsed already).
 */
typedef int (*ibt_port_show)(struct ibt *ctx, struct nlattr **tb, void *arg);
int ibt_port_query(struct ibt *ctx, uint8_t cmd, ibt_port_show show,
		   void *arg);
int ibt_port_query_parsed(struct ibt *ctx, uint8_t cmd, ibt_port_show show,
			  void *arg);
/* dev.c, for trace and test run without -d: the port to work from */
struct ibt_port_want {
	uint32_t port;		/* that port number only; 0: any */
	bool ib;		/* an InfiniBand port only */
	bool agent;		/* one whose class 0x30 agent is registered */
};
int ibt_port_pick(struct ibt *ctx, const struct ibt_port_want *want,
		  char *dev, size_t len, uint32_t *port);

/* ibt_port_lid(): what a port is, as the route audit needs it */
struct ibt_port_lid {
	bool ib;		/* its link layer is InfiniBand */
	uint8_t state;		/* enum ibtrace_port_state */
	uint16_t lid;		/* its base LID (0: none) */
};
int ibt_port_lid(struct ibt *ctx, const char *dev, uint32_t port,
		 struct ibt_port_lid *out);

/* objects: a function, or a table of commands and a help text */
extern const struct ibt_cmd ibt_dev_cmds[];
extern const char ibt_dev_help[];
extern const struct ibt_cmd ibt_agent_cmds[];
extern const char ibt_agent_help[];
extern const struct ibt_cmd ibt_job_cmds[];
extern const char ibt_job_help[];
int ibt_ping(struct ibt *ctx);
int ibt_audit(struct ibt *ctx);
int ibt_audit_merge(struct ibt *ctx);
void ibt_probe_fields(struct ibt *ctx, struct nlattr **tb);	/* ping.c */
int ibt_trace(struct ibt *ctx);
int ibt_trace_monitor(struct ibt *ctx);	/* trace_monitor.c */
extern const struct ibt_cmd ibt_test_cmds[];
void ibt_test_synopsis(FILE *f);	/* its lines of "ibtracectl --help" */
/* a command of another object that runs a test (server quit) */
int ibt_test_run_as(struct ibt *ctx, const char *obj, const char *cmd,
		    const char *fixed);
extern const struct ibt_cmd ibt_sim_cmds[];
extern const char ibt_sim_help[];
int ibt_sim_capture(struct ibt *ctx);		/* capture.c */
void ibt_wire_print(struct ibt *ctx, const uint8_t *p, size_t len);
size_t ibt_wire_payload(const uint8_t *p, size_t len, size_t *plen);
int ibt_capture_parse(struct ibt *ctx, struct nlmsghdr *nlh,
		      struct nlattr **tb, uint8_t *cmd);
int ibt_sim_inject(struct ibt *ctx);		/* inject.c */
int ibt_sim_traffic(struct ibt *ctx);		/* traffic.c */
extern const struct ibt_cmd ibt_server_cmds[];
extern const struct ibt_cmd ibt_mad_cmds[];		/* mad.c */

#endif /* IBTRACECTL_H */
