/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace_sim - what each file offers the others, grouped by the file
 * that defines it (as rxe_loc.h), with the small types its callers pass.
 * The topology parser's functions are in topo.h with its structures.
 */
#ifndef _IBTSIM_LOC_H
#define _IBTSIM_LOC_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <net/netlink.h>
#include <uapi/linux/ibtrace_sim.h>

struct genl_info;
struct ib_device;
struct ib_grh;
struct ib_mad;
struct ib_mad_hdr;
struct ib_smp;
struct ib_wc;
struct net;
struct sk_buff;
struct ibtsim_build;
struct ibtsim_fabric;
struct ibtsim_flow;
struct ibtsim_node;
struct ibtsim_pkt;
struct ibtsim_port;
struct ibtsim_qp;
struct ibtsim_switch;
struct ibtsim_topo;

/* main.c */
extern struct mutex ibtsim_fabrics_lock;
extern struct list_head ibtsim_fabrics;

/**
 * struct ibtsim_fabric_opts - how to build a fabric
 * @name: fabric name, or NULL for "simN"
 * @sm_lite: run the built-in subnet manager (SM-lite)
 * @guid_cap: GUID table entries of every HCA port and switch port 0
 * @seed: seed of the fabric's pseudo-random generator
 * @seed_set: @seed was given; else the fabric picks one
 * @time_scale: link-rate pacing, 0 for none
 */
struct ibtsim_fabric_opts {
	const char *name;
	bool sm_lite;
	u8 guid_cap;
	u32 seed;
	bool seed_set;
	u32 time_scale;
};

struct ibtsim_fabric *__ibtsim_fabric_find(const char *name);
int __ibtsim_fabric_reserve(const struct ibtsim_fabric_opts *opts,
			    struct ibtsim_topo *topo,
			    struct ibtsim_fabric **fabricp,
			    struct netlink_ext_ack *extack);
void __ibtsim_fabric_unreserve(struct ibtsim_fabric *fabric);
struct ibtsim_build *ibtsim_build_alloc(void);
void ibtsim_build_free(struct ibtsim_build *b);
void __ibtsim_fabric_build_start(struct ibtsim_fabric *fabric,
				 struct ibtsim_build *b, struct ibtsim_topo *topo,
				 struct net *net, u32 portid);
int __ibtsim_fabric_del(struct ibtsim_fabric *fabric);

/* capture.c */
void ibtsim_capture_sock_closed(struct net *net, u32 portid);
void ibtsim_capture_exit(void);
int ibtsim_capture_start(struct ibtsim_fabric *fabric,
			 struct ibtsim_node *node, int port, u32 count,
			 struct genl_info *info, u32 *id);
int ibtsim_capture_claim_start(struct ibtsim_fabric *fabric,
			       const struct ib_mad_hdr *hdr, u32 wait_ms,
			       struct genl_info *info, u32 *id);
bool __ibtsim_capture_claim(const struct ibtsim_port *port,
			    const struct ibtsim_pkt *pkt);
int ibtsim_capture_stop(u32 id, u8 why);
void ibtsim_capture_fabric_gone(struct ibtsim_fabric *fabric);
void __ibtsim_capture_link(const struct ibtsim_port *from,
			   const struct ibtsim_port *to,
			   const struct ibtsim_pkt *pkt);

/* capture_nl.c */
int ibtsim_nl_capture_start_doit(struct sk_buff *skb, struct genl_info *info);
int ibtsim_nl_capture_stop_doit(struct sk_buff *skb, struct genl_info *info);
int ibtsim_nl_id_reply(struct genl_info *info, u8 cmd, int attr, u32 id);
extern const struct nla_policy
	ibtsim_nl_capture_start_policy[IBTRACE_SIM_A_CAPTURE_COUNT + 1];
extern const struct nla_policy
	ibtsim_nl_capture_stop_policy[IBTRACE_SIM_A_CAPTURE_ID + 1];

/* inject_nl.c */
int ibtsim_nl_inject_doit(struct sk_buff *skb, struct genl_info *info);
extern const struct nla_policy
	ibtsim_nl_inject_policy[IBTRACE_SIM_A_INJECT_WAIT_MS + 1];

/* traffic.c */
void ibtsim_traffic_sock_closed(struct net *net, u32 portid);
void ibtsim_traffic_exit(void);
int ibtsim_traffic_start(struct ibtsim_port *port, u16 dlid, u8 sl, u32 size,
			 u32 pps, u32 count, struct genl_info *info, u32 *id);
int ibtsim_traffic_stop(u32 id, u8 why);
void ibtsim_traffic_fabric_gone(struct ibtsim_fabric *fabric);
void ibtsim_traffic_deliver(struct ibtsim_port *port, struct ibtsim_pkt *pkt);
void ibtsim_traffic_done(struct ibtsim_pkt *pkt);

/* traffic_nl.c */
int ibtsim_nl_traffic_start_doit(struct sk_buff *skb, struct genl_info *info);
int ibtsim_nl_traffic_stop_doit(struct sk_buff *skb, struct genl_info *info);
extern const struct nla_policy
	ibtsim_nl_traffic_start_policy[IBTRACE_SIM_A_TRAFFIC_COUNT + 1];
extern const struct nla_policy
	ibtsim_nl_traffic_stop_policy[IBTRACE_SIM_A_TRAFFIC_ID + 1];

/* nl.c */
extern struct genl_family ibtsim_nl_family;
int ibtsim_nl_init(void);
void ibtsim_nl_exit(void);
void ibtsim_nl_build_done(struct net *net, u32 portid,
			  struct ibtsim_fabric *fabric, const char *name,
			  const char *why);

/* dev.c */
int ibtsim_dev_create(struct ibtsim_node *node);
void ibtsim_dev_unregister(struct ibtsim_node *node);
void ibtsim_dev_free(struct ibtsim_node *node);
struct ibtsim_qp *ibtsim_qp_get(struct ibtsim_port *port, u32 qpn);
void ibtsim_qp_put(struct ibtsim_qp *qp);
void ibtsim_qp_send_done(struct ibtsim_qp *qp, struct ibtsim_pkt *pkt);
void ibtsim_qp_recv(struct ibtsim_qp *qp, const struct ibtsim_pkt *pkt,
		    const struct ib_wc *hdr);

/* sma.c */
void ibtsim_port_init_sma(struct ibtsim_port *port);
void ibtsim_link_retrain(struct ibtsim_port *port);
void ibtsim_sma_answer(struct ibtsim_node *node, u8 in_port,
		       struct ib_smp *smp);
int ibtsim_process_mad(struct ib_device *ibdev, int mad_flags, u32 port_num,
		       const struct ib_wc *in_wc, const struct ib_grh *in_grh,
		       const struct ib_mad *in, struct ib_mad *out,
		       size_t *out_mad_size, u16 *out_mad_pkey_index);

/* guid.c */
int ibtsim_guids_alloc(struct ibtsim_node *node);
void ibtsim_guids_free(struct ibtsim_node *node);
u16 ibtsim_guid_info(struct ibtsim_node *node, u8 in_port, struct ib_smp *smp,
		     bool set, bool *changed);
u64 ibtsim_port_guid_entry(struct ibtsim_port *port, unsigned int index);

/* pma.c */
atomic64_t *ibtsim_port_counter(struct ibtsim_port *port,
				enum ibtsim_pma_counter c);
void ibtsim_pma_answer(struct ibtsim_node *node, u8 in_port,
		       struct ib_mad *mad);

/* fabric.c */
int ibtsim_fabric_start(struct ibtsim_fabric *fabric);
void ibtsim_fabric_stop(struct ibtsim_fabric *fabric);
int ibtsim_fabric_xmit(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt);
int ibtsim_fabric_inject(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt);
void ibtsim_rnd_init(struct ibtsim_fabric *fabric, u32 seed);
bool ibtsim_chance(struct ibtsim_fabric *fabric, u32 ppm);
void ibtsim_drop(struct ibtsim_port *port, enum ibtsim_drop_reason why);
const char *ibtsim_drop_token(enum ibtsim_drop_reason why);
enum ibtsim_drop_reason ibtsim_pkt_vl(const struct ibtsim_port *port,
				      const u8 *table, struct ibtsim_pkt *pkt);
enum ibtsim_drop_reason ibtsim_qkey_viol(struct ibtsim_port *port);
void ibtsim_pkt_answered(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt);
void ibtsim_pkt_onward(struct ibtsim_fabric *fabric, struct ibtsim_port *port,
		       struct ibtsim_pkt *pkt);
void ibtsim_pkt_free(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt);
void ibtsim_fabric_fc_resync(struct ibtsim_port *port);
void ibtsim_fabric_sink_retime(struct ibtsim_port *port);
bool ibtsim_fabric_fc_watch(struct ibtsim_fabric *fabric);
void ibtsim_fabric_pace_arm(struct ibtsim_fabric *fabric, ktime_t when);

/* flowctl.c */
enum ibtsim_fc_verdict {
	IBTSIM_FC_CROSS,	/* not flow controlled: crosses the link now */
	IBTSIM_FC_QUEUED,	/* waits for credits; the fabric owns it */
	IBTSIM_FC_DROPPED,	/* the port's queue is full: dropped */
};

void ibtsim_fc_init(struct ibtsim_port *port);
u32 ibtsim_pkt_bytes(const struct ibtsim_pkt *pkt);
u16 ibtsim_fc_blocks(const struct ibtsim_pkt *pkt);
u64 ibtsim_port_xmit_wait_us(const struct ibtsim_port *port);
enum ibtsim_fc_verdict ibtsim_fc_queue(struct ibtsim_fabric *fabric,
				       struct ibtsim_port *port,
				       struct ibtsim_pkt *pkt);
bool ibtsim_fc_arrive(struct ibtsim_port *port, struct ibtsim_pkt *pkt);
void ibtsim_fc_release(struct ibtsim_fabric *fabric, struct ibtsim_pkt *pkt);
unsigned int ibtsim_fc_waiting(const struct ibtsim_port *port);
void ibtsim_fc_run(struct ibtsim_fabric *fabric);
void ibtsim_fc_resync(struct ibtsim_fabric *fabric, struct ibtsim_port *port);
bool ibtsim_fc_watch(struct ibtsim_fabric *fabric);
void ibtsim_fc_report(struct ibtsim_fabric *fabric, char *buf, size_t len);
void ibtsim_fc_flush(struct ibtsim_fabric *fabric,
		     enum ibtsim_drop_reason why);
void ibtsim_fc_pace_run(struct ibtsim_fabric *fabric);

/* firmware.c */
bool ibtsim_fw_answer(struct ibtsim_node *node, u8 in_port,
		      struct ibtsim_port *mgmt, struct ibtsim_pkt *pkt,
		      u16 slid, enum ibtsim_drop_reason *why);
struct ibtsim_port *ibtsim_ca_fw_rx(struct ibtsim_port *port,
				    struct ibtsim_pkt *pkt, u16 lid, u16 top,
				    bool dr);

/* switch.c */
int ibtsim_switch_create(struct ibtsim_node *node);
void ibtsim_switch_free(struct ibtsim_node *node);
u8 ibtsim_lft_get(const struct ibtsim_switch *sw, u32 lid);
int ibtsim_lft_reserve(struct ibtsim_node *node, u32 top);
void ibtsim_lft_set(struct ibtsim_switch *sw, u32 lid, u8 port);
u16 ibtsim_switch_sma(struct ibtsim_node *node, struct ib_smp *smp, bool set);
struct ibtsim_port *ibtsim_switch_rx(struct ibtsim_port *port,
				     struct ibtsim_pkt *pkt);

/* knobs.c */
/**
 * struct ibtsim_port_knobs - a change of a port's fault knobs
 * @set: which knobs change, bits of &enum ibtsim_knob
 * @drop_ppm: new drop probability, per million
 * @delay_us: new delay, microseconds
 * @link_down: take the link down (1) or bring it up (0)
 * @buf_blocks: new receive buffer per data VL, blocks of 64 bytes
 * @sink_pps: new data sink rate, packets per second (0: off)
 * @ignore_credits: send data packets whatever the credits (1) or not (0)
 * @link_width: LinkWidthActive of the link (both ends): 1 (1x) or 2 (4x)
 * @link_speed: LinkSpeedActive of the link (both ends): 1, 2 or 4 (SDR,
 *	DDR, QDR)
 * @guid_cap: new GUIDCap
 * @guid_quirks: new GUIDInfo quirks, &enum ibtrace_sim_guid_quirk
 *
 * ibtsim_port_knobs_read() fills every knob with the port's values.
 */
struct ibtsim_port_knobs {
	u32 set;
	u32 drop_ppm;
	u32 delay_us;
	u8 link_down;
	u32 buf_blocks;
	u32 sink_pps;
	u8 ignore_credits;
	u8 link_width;
	u8 link_speed;
	u8 guid_cap;
	u32 guid_quirks;
};

/**
 * enum ibtsim_knob - the port knobs, as bit numbers of ibtsim_port_knobs.set
 * @IBTSIM_KNOB_DROP: drop_ppm
 * @IBTSIM_KNOB_DELAY: delay_us
 * @IBTSIM_KNOB_LINK: link_down
 * @IBTSIM_KNOB_BUF: buf_blocks
 * @IBTSIM_KNOB_SINK: sink_pps
 * @IBTSIM_KNOB_CREDITS: ignore_credits
 * @IBTSIM_KNOB_WIDTH: link_width
 * @IBTSIM_KNOB_SPEED: link_speed
 * @IBTSIM_KNOB_GUID_CAP: guid_cap
 * @IBTSIM_KNOB_GUID_QUIRKS: guid_quirks
 * @IBTSIM_KNOB_COUNT: number of knobs
 */
enum ibtsim_knob {
	IBTSIM_KNOB_DROP,
	IBTSIM_KNOB_DELAY,
	IBTSIM_KNOB_LINK,
	IBTSIM_KNOB_BUF,
	IBTSIM_KNOB_SINK,
	IBTSIM_KNOB_CREDITS,
	IBTSIM_KNOB_WIDTH,
	IBTSIM_KNOB_SPEED,
	IBTSIM_KNOB_GUID_CAP,
	IBTSIM_KNOB_GUID_QUIRKS,
	IBTSIM_KNOB_COUNT,
};

/* The most files a port's debugfs directory has: its knobs, 3 counters, credits. */
#define IBTSIM_DEBUGFS_PORT_FILES	(IBTSIM_KNOB_COUNT + 4)

#define IBTSIM_DROP_PPM_MAX	1000000
#define IBTSIM_GUID_QUIRKS_ALL	(IBTRACE_SIM_GUID_QUIRK_ENTRY0_WRITABLE | \
				 IBTRACE_SIM_GUID_QUIRK_PAST_TABLE_STATUS | \
				 IBTRACE_SIM_GUID_QUIRK_ABOVE_CAP_NONZERO)

bool ibtsim_knob_on_port(const struct ibtsim_port *port, enum ibtsim_knob knob);
int ibtsim_port_knobs_check(const struct ibtsim_port *port,
			    const struct ibtsim_port_knobs *k,
			    enum ibtsim_knob *bad, const char **why);
void ibtsim_port_knobs_apply(struct ibtsim_port *port,
			     const struct ibtsim_port_knobs *k);
u32 ibtsim_knob_max(enum ibtsim_knob knob);
void ibtsim_port_knobs_put(struct ibtsim_port_knobs *k, enum ibtsim_knob knob,
			   u32 val);
u32 ibtsim_port_knobs_val(const struct ibtsim_port_knobs *k,
			  enum ibtsim_knob knob);
void ibtsim_port_knobs_read(struct ibtsim_port *port,
			    struct ibtsim_port_knobs *k);
int ibtsim_misroute_check(const struct ibtsim_node *node, u32 dlid, u32 port,
			  bool del, const char **why);
int ibtsim_misroute_set(struct ibtsim_node *node, u16 dlid, u8 port);
void ibtsim_misroute_del(struct ibtsim_node *node, u16 dlid);
bool ibtsim_misroute_lookup(struct ibtsim_node *node, u16 dlid, u8 *port);

/* nl.c */
struct ibtsim_fabric *__ibtsim_nl_fabric_named(const struct nlattr *attr,
					       struct netlink_ext_ack *extack,
					       bool built);

/* set_nl.c */
extern const struct nla_policy
	ibtsim_nl_set_policy[IBTRACE_SIM_A_MISROUTE + 1];
int ibtsim_nl_set_doit(struct sk_buff *skb, struct genl_info *info);
/* The policy of the attributes naming a fabric's node, in a request's. */
#define IBTSIM_NL_NODE_POLICY						\
	[IBTRACE_SIM_A_FABRIC_NAME] = { .type = NLA_NUL_STRING,		\
					.len = IBTRACE_SIM_NAME_MAX },	\
	[IBTRACE_SIM_A_NODE_INDEX] = { .type = NLA_U32 },		\
	[IBTRACE_SIM_A_NODE_NAME] = { .type = NLA_NUL_STRING,		\
				      .len = IBTRACE_SIM_NODE_NAME_MAX }
bool ibtsim_nl_has_node(struct genl_info *info);
u32 ibtsim_nl_u32_or(struct genl_info *info, int type, u32 def);
u8 ibtsim_nl_u8_or(struct genl_info *info, int type, u8 def);
struct ibtsim_node *__ibtsim_nl_node_named(struct genl_info *info);
struct ibtsim_node *ibtsim_nl_node(struct ibtsim_fabric *fabric,
				   struct genl_info *info);
int ibtsim_nl_fill_knobs(struct sk_buff *skb, struct ibtsim_port *port);
int ibtsim_nl_fill_misroutes(struct sk_buff *skb, struct ibtsim_node *node);

/* debugfs.c */
bool ibtsim_debugfs_ports_ok(u64 nports);
void ibtsim_debugfs_init(void);
void ibtsim_debugfs_exit(void);
void ibtsim_debugfs_fabric_add(struct ibtsim_fabric *fabric);
void ibtsim_debugfs_fabric_del(struct ibtsim_fabric *fabric);

/* sm.c */
int ibtsim_sm_sweep(struct ibtsim_fabric *fabric);
void ibtsim_sm_init(struct ibtsim_fabric *fabric);
void ibtsim_sm_resweep(struct ibtsim_fabric *fabric);
void ibtsim_sm_stop(struct ibtsim_fabric *fabric);

/* sa_server.c */
/**
 * enum ibtsim_sa_verdict - what SM-lite's SA did with a packet
 * @IBTSIM_SA_PASS: not for the SA; deliver it as usual
 * @IBTSIM_SA_ANSWER: rewritten into the SA's answer, to be sent on
 * @IBTSIM_SA_DROP: for the SA but nothing to answer; dropped and counted
 */
enum ibtsim_sa_verdict {
	IBTSIM_SA_PASS,
	IBTSIM_SA_ANSWER,
	IBTSIM_SA_DROP,
};

enum ibtsim_sa_verdict ibtsim_sa_server_rx(struct ibtsim_port *port,
					   struct ibtsim_pkt *pkt);

/* budget.c */
void ibtsim_budget_note_mad_qp(u32 recv_wr);
u64 ibtsim_node_cost(u8 type, u8 num_ports, u8 guid_cap, bool hostless);
u64 ibtsim_fabric_cost(u32 switches, u32 lids, u64 ports);
u64 ibtsim_budget(void);
u64 __ibtsim_budget_room(void);
bool __ibtsim_budget_take(u64 bytes);
void __ibtsim_budget_give(u64 bytes);
u64 __ibtsim_budget_used(void);
void ibtsim_budget_error(struct ibtsim_topo *topo);

#endif /* _IBTSIM_LOC_H */
