/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - generic netlink core.
 *
 * Contract for a message file (dev_nl.c, agent_nl.c, ping_nl.c, ...): it
 * defines its request policy and its doit/dumpit handlers and declares
 * them here; netlink.c puts them in the family's op table. Requests that
 * name a port share ibtrace_nl_get_port(); per-port replies start with
 * ibtrace_nl_put_port_id(); "every port" dumps go through
 * ibtrace_nl_dump_ports() with a fill callback.
 */
#ifndef _IBTRACE_NETLINK_H
#define _IBTRACE_NETLINK_H

#include <net/genetlink.h>

#include "ibtrace.h"

extern struct genl_family ibtrace_genl_family;

/* Multicast groups, by their index in the family's table. */
enum ibtrace_nl_mcgrp {
	IBTRACE_NL_MCGRP_TEST,
	IBTRACE_NL_MCGRP_TRACE,
	IBTRACE_NL_MCGRP_PING,
	IBTRACE_NL_MCGRP_MAD,
	IBTRACE_NL_MCGRP_AUDIT,
};

/*
 * MAD timing of ping, trace and the conformance tests, per attempt: 1..
 * IBTRACE_MAX_TIMEOUT_MS, default IBTRACE_DEF_TIMEOUT_MS; 0..
 * IBTRACE_MAX_RETRIES retries, default IBTRACE_DEF_RETRIES (the uAPI).
 */
extern struct netlink_range_validation ibtrace_nl_timeout_range;
/* a unicast LID, 1..IBTRACE_MAX_UNICAST_LID */
extern struct netlink_range_validation ibtrace_nl_lid_range;
/* a multicast LID, IBTRACE_MIN_MULTICAST_LID..IBTRACE_MAX_MULTICAST_LID */
extern struct netlink_range_validation ibtrace_nl_mlid_range;
/* a job ID, 1..U32_MAX */
extern struct netlink_range_validation ibtrace_nl_job_id_range;

int ibtrace_nl_init(void);
void ibtrace_nl_exit(void);

/**
 * IBTRACE_NL_POLICY() - an op's request policy and the maxattr it implies
 * @p: the policy array (an array: a pointer does not build)
 *
 * Every op of the family gets its policy through this macro, so its
 * maxattr is the array's last index and nothing else. Genetlink takes a
 * maxattr of 0 for "the family's", IBTRACE_A_MAX, and would validate (and
 * dump, for CTRL_CMD_GETPOLICY) a shorter array past its end: an array of
 * fewer than two entries does not build. A request that takes no
 * attribute uses ibtrace_nl_no_attr_policy.
 */
#define IBTRACE_NL_POLICY(p)						\
	.policy = (p),							\
	.maxattr = sizeof(p) / sizeof((p)[0]) - 1 + __must_be_array(p) +	\
		   BUILD_BUG_ON_ZERO(sizeof(p) < 2 * sizeof((p)[0]))

/*
 * The policy of the attributes that name a local device, and a port on it
 * (ibtrace_nl_get_dev(), ibtrace_nl_get_port()), in a request's policy.
 */
#define IBTRACE_NL_DEV_POLICY						\
	[IBTRACE_A_DEV_INDEX] = { .type = NLA_U32 },			\
	[IBTRACE_A_DEV_NAME] = { .type = NLA_NUL_STRING,		\
				 .len = IB_DEVICE_NAME_MAX - 1 }
#define IBTRACE_NL_PORT_POLICY						\
	[IBTRACE_A_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),		\
	IBTRACE_NL_DEV_POLICY

/**
 * typedef ibtrace_nl_fill_t - write one port's message body
 * @skb: message being built (header already put)
 * @port: the port
 *
 * Return: 0 or -EMSGSIZE.
 */
typedef int (*ibtrace_nl_fill_t)(struct sk_buff *skb,
				 struct ibtrace_port *port);

int ibtrace_nl_get_dev(struct nlattr **attrs, struct netlink_ext_ack *extack,
		       struct ibtrace_dev **devp);
int ibtrace_nl_get_port(struct nlattr **attrs, struct netlink_ext_ack *extack,
			u32 default_port, struct ibtrace_port **portp);
int ibtrace_nl_get_dest(struct nlattr **attrs, struct netlink_ext_ack *extack,
			int dgid_type, int dlid_type, union ib_gid *dgid,
			bool *has_dgid, u32 *dlid);
void ibtrace_nl_get_timing(struct nlattr **attrs, int timeout_type,
			   int retries_type, u32 *timeout_ms, u32 *retries);
int ibtrace_nl_put_port_id(struct sk_buff *skb, struct ibtrace_port *port);

/**
 * typedef ibtrace_nl_reply_fill_t - build the reply to a "do" request
 * @skb: the reply, empty
 * @info: the request
 * @arg: what the caller of ibtrace_nl_reply() passed
 *
 * Return: 0, or a negative errno: the reply is then not sent.
 */
typedef int (*ibtrace_nl_reply_fill_t)(struct sk_buff *skb,
				       struct genl_info *info, void *arg);

int ibtrace_nl_reply(struct genl_info *info, size_t size,
		     ibtrace_nl_reply_fill_t fill, void *arg);
int ibtrace_nl_reply_port(struct genl_info *info, u8 cmd,
			  ibtrace_nl_fill_t fill);
int ibtrace_nl_dump_ports(struct sk_buff *skb, struct netlink_callback *cb,
			  u8 cmd, ibtrace_nl_fill_t fill);

/**
 * ibtrace_nl_get_u32() - a u32 attribute of a request, or its default
 * @attrs: parsed request
 * @type: the attribute
 * @def: the value when the request does not give it
 *
 * Return: the value.
 */
static inline u32 ibtrace_nl_get_u32(struct nlattr **attrs, int type, u32 def)
{
	return attrs[type] ? nla_get_u32(attrs[type]) : def;
}

/**
 * ibtrace_nl_get_u8() - a u8 attribute of a request, or its default
 * @attrs: parsed request
 * @type: the attribute
 * @def: the value when the request does not give it
 *
 * Return: the value.
 */
static inline u8 ibtrace_nl_get_u8(struct nlattr **attrs, int type, u8 def)
{
	return attrs[type] ? nla_get_u8(attrs[type]) : def;
}

/**
 * ibtrace_nl_get_u16() - a u16 attribute of a request, or its default
 * @attrs: parsed request
 * @type: the attribute
 * @def: the value when the request does not give it
 *
 * Return: the value.
 */
static inline u16 ibtrace_nl_get_u16(struct nlattr **attrs, int type, u16 def)
{
	return attrs[type] ? nla_get_u16(attrs[type]) : def;
}

/**
 * ibtrace_nl_get_u64() - a u64 attribute of a request, or its default
 * @attrs: parsed request
 * @type: the attribute
 * @def: the value when the request does not give it
 *
 * Return: the value.
 */
static inline u64 ibtrace_nl_get_u64(struct nlattr **attrs, int type, u64 def)
{
	return attrs[type] ? nla_get_u64(attrs[type]) : def;
}

/**
 * typedef ibtrace_nl_nest_fill_t - write a nested attribute's attributes
 * @skb: message being built (nest started)
 * @data: what ibtrace_nl_put_nest() was given
 *
 * Return: 0, or non-zero when a put failed.
 */
typedef int (*ibtrace_nl_nest_fill_t)(struct sk_buff *skb, const void *data);

int ibtrace_nl_put_nest(struct sk_buff *skb, int type,
			ibtrace_nl_nest_fill_t fill, const void *data);

/**
 * ibtrace_nl_put_u8_nz() - a u8 attribute, unless its value is 0
 * @skb: message being built
 * @type: the attribute
 * @value: its value
 *
 * Return: 0 or -EMSGSIZE.
 */
static inline int ibtrace_nl_put_u8_nz(struct sk_buff *skb, int type,
				       u8 value)
{
	return value ? nla_put_u8(skb, type, value) : 0;
}

/**
 * ibtrace_nl_put_u32_nz() - a u32 attribute, unless its value is 0
 * @skb: message being built
 * @type: the attribute
 * @value: its value
 *
 * Return: 0 or -EMSGSIZE.
 */
static inline int ibtrace_nl_put_u32_nz(struct sk_buff *skb, int type,
					u32 value)
{
	return value ? nla_put_u32(skb, type, value) : 0;
}

/* dev_nl.c */
extern const struct nla_policy ibtrace_dev_get_policy[IBTRACE_A_PORT + 1];
int ibtrace_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_dev_get_dumpit(struct sk_buff *skb,
			      struct netlink_callback *cb);

/* agent_nl.c */
int ibtrace_nl_agent_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_agent_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);

/* ping_nl.c */
extern const struct nla_policy ibtrace_ping_policy[IBTRACE_A_JOB_DETACH + 1];
int ibtrace_nl_ping_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_put_summary(struct sk_buff *skb, int type,
			   const struct ibtrace_ping_summary *s);

/* mad_send_nl.c */
extern const struct nla_policy
	ibtrace_mad_send_policy[IBTRACE_A_MAD_ALLOW_SET + 1];
int ibtrace_nl_mad_send_doit(struct sk_buff *skb, struct genl_info *info);

/* sweep_nl.c */
extern const struct nla_policy
	ibtrace_sweep_policy[IBTRACE_A_SWEEP_MAX_NODES + 1];
extern const struct nla_policy ibtrace_sweep_node_policy[IBTRACE_A_JOB + 1];
int ibtrace_nl_sweep_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_sweep_node_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);

/* prove_nl.c */
extern const struct nla_policy ibtrace_prove_policy[IBTRACE_A_PROVE_DEST + 1];
int ibtrace_nl_prove_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_prove_dest_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);

/* trace_nl.c */
extern const struct nla_policy
	ibtrace_trace_policy[IBTRACE_A_JOB_DETACH + 1];
int ibtrace_nl_trace_doit(struct sk_buff *skb, struct genl_info *info);

/* test_nl.c */
extern const struct nla_policy
	ibtrace_test_run_policy[IBTRACE_A_TEST_ACK_TIMEOUT + 1];
extern const struct nla_policy ibtrace_test_job_policy[IBTRACE_A_TEST_JOB + 1];
int ibtrace_nl_test_run_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_test_cancel_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_test_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_test_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int ibtrace_nl_test_list_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);

/* job_nl.c */
extern const struct nla_policy ibtrace_job_policy[IBTRACE_A_JOB + 1];
int ibtrace_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_job_get_dumpit(struct sk_buff *skb,
			      struct netlink_callback *cb);
int ibtrace_nl_job_cancel_doit(struct sk_buff *skb, struct genl_info *info);

/* server_nl.c */
extern const struct nla_policy
	ibtrace_server_start_policy[IBTRACE_A_SERVER_MAX_MEM_KB + 1];
int ibtrace_nl_server_start_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_server_stop_doit(struct sk_buff *skb, struct genl_info *info);
int ibtrace_nl_server_get_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _IBTRACE_NETLINK_H */
