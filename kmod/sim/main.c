// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - a software InfiniBand fabric: module and fabric registry.
 *
 * A fabric is built from parsed topology text in one straight ladder
 * (nodes, links, SMA state, delivery, one RDMA device per HCA) and torn
 * down in reverse; a failure anywhere undoes everything before it, so a
 * rejected fabric leaves nothing behind.
 *
 * Building a large fabric takes seconds (an RDMA device per HCA), more
 * than a generic netlink request may hold genl_mutex and cb_lock, which
 * every family's requests and genl_register_family() wait for. So
 * FABRIC_ADD only parses, estimates and lists the fabric as being built;
 * a work item builds it and tells the requester when it is done.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "sim.h"
#include "topo.h"
#include "loc.h"

/* protects ibtsim_fabrics and each fabric's lifetime and name */
DEFINE_MUTEX(ibtsim_fabrics_lock);
LIST_HEAD(ibtsim_fabrics);
static DEFINE_IDA(ibtsim_fabric_ida);
/* creation number of the last fabric; protected by ibtsim_fabrics_lock */
static u64 ibtsim_fabric_seq;

struct ibtsim_fabric *__ibtsim_fabric_find(const char *name)
{
	struct ibtsim_fabric *fabric;

	lockdep_assert_held(&ibtsim_fabrics_lock);
	list_for_each_entry(fabric, &ibtsim_fabrics, list)
		if (!strcmp(fabric->name, name))
			return fabric;
	return NULL;
}

/*
 * Default GUIDs: OpenIB OUI, fabric id, node index, port number, so that
 * nodes of different fabrics never share one.
 */
static u64 ibtsim_default_guid(const struct ibtsim_fabric *fabric, u32 index)
{
	return (u64)IBTSIM_VENDOR_ID << 40 | (u64)fabric->id << 32 |
	       (u64)index << 8;
}

static void ibtsim_nodes_free(struct ibtsim_fabric *fabric)
{
	u32 i;

	for (i = 0; i < fabric->num_nodes; i++) {
		ibtsim_guids_free(fabric->nodes[i]);
		ibtsim_switch_free(fabric->nodes[i]);
		kfree(fabric->nodes[i]);
	}
	kvfree(fabric->nodes);
}

static int ibtsim_nodes_create(struct ibtsim_fabric *fabric,
			       const struct ibtsim_topo *topo)
{
	u32 i, n;
	int err;

	fabric->nodes = kvcalloc(topo->num_nodes, sizeof(*fabric->nodes),
				 GFP_KERNEL);
	if (!fabric->nodes)
		return -ENOMEM;

	for (i = 0; i < topo->num_nodes; i++) {
		const struct ibtsim_topo_node *tn = &topo->nodes[i];
		struct ibtsim_node *node;

		node = kzalloc(struct_size(node, ports, tn->num_ports + 1),
			       GFP_KERNEL);
		if (!node)
			return -ENOMEM;	/* caller frees the nodes made */
		fabric->nodes[i] = node;
		fabric->num_nodes = i + 1;
		node->fabric = fabric;
		node->index = i;
		node->type = tn->type;
		node->num_ports = tn->num_ports;
		spin_lock_init(&node->lock);
		strscpy(node->desc, tn->name, sizeof(node->desc));
		node->node_guid = tn->node_guid ?: ibtsim_default_guid(fabric, i);
		node->sys_guid = tn->sys_guid ?: node->node_guid;
		if (tn->type == IBTSIM_NODE_CA) {
			fabric->num_cas++;
			node->hostless = tn->hostless;
			fabric->num_devs += !tn->hostless;
		} else {
			fabric->num_switches++;
			err = ibtsim_switch_create(node);
			if (err)
				return err;	/* caller frees the nodes made */
		}
		for (n = 0; n <= tn->num_ports; n++) {
			node->ports[n].node = node;
			node->ports[n].num = n;
			node->ports[n].guid = tn->ports[n].guid ?:
					      node->node_guid + n;
		}
		err = ibtsim_guids_alloc(node);
		if (err)
			return err;	/* caller frees the nodes made */
	}

	/* Links, now that every node exists; the parser checked them. */
	for (i = 0; i < topo->num_nodes; i++) {
		const struct ibtsim_topo_node *tn = &topo->nodes[i];

		for (n = 1; n <= tn->num_ports; n++) {
			const struct ibtsim_topo_port *tp = &tn->ports[n];

			if (!tp->peer_name)
				continue;
			fabric->nodes[i]->ports[n].peer =
				&fabric->nodes[tp->peer]->ports[tp->peer_port];
			if (tp->peer > i || (tp->peer == i && tp->peer_port > n))
				fabric->num_links++;
		}
	}
	for (i = 0; i < fabric->num_nodes; i++) {
		for (n = 0; n <= fabric->nodes[i]->num_ports; n++) {
			ibtsim_port_init_sma(&fabric->nodes[i]->ports[n]);
			ibtsim_fc_init(&fabric->nodes[i]->ports[n]);
		}
	}
	return 0;
}

static void ibtsim_devs_unregister(struct ibtsim_fabric *fabric)
{
	u32 i;

	for (i = fabric->num_nodes; i--; )
		ibtsim_dev_unregister(fabric->nodes[i]);
}

static void ibtsim_devs_free(struct ibtsim_fabric *fabric)
{
	u32 i;

	for (i = fabric->num_nodes; i--; )
		ibtsim_dev_free(fabric->nodes[i]);
}

static int ibtsim_devs_create(struct ibtsim_fabric *fabric)
{
	u32 i;
	int err;

	for (i = 0; i < fabric->num_nodes; i++) {
		if (fabric->nodes[i]->type != IBTSIM_NODE_CA ||
		    fabric->nodes[i]->hostless)
			continue;
		if (READ_ONCE(fabric->cancel))
			return -EINTR;	/* caller unregisters and frees */
		err = ibtsim_dev_create(fabric->nodes[i]);
		if (err)
			return err;	/* caller unregisters and frees */
	}
	return 0;
}

/**
 * __ibtsim_fabric_reserve - list a new fabric, to be built
 * @opts: name and options of the fabric
 * @topo: parsed topology, its cost added up; its err_line/err_msg are set
 *	when it cannot be built (the memory budget)
 * @fabricp: the new fabric, on success
 * @extack: for errors not tied to a line of the topology
 *
 * Takes the fabric's name, ID and memory from the budget, and lists it as
 * being built: only its name can be seen, nothing can change or delete
 * it until ibtsim_fabric_build_start() has built it. Caller holds
 * ibtsim_fabrics_lock.
 *
 * Return: 0 or a negative errno; on error nothing of the fabric remains.
 */
int __ibtsim_fabric_reserve(const struct ibtsim_fabric_opts *opts,
			    struct ibtsim_topo *topo,
			    struct ibtsim_fabric **fabricp,
			    struct netlink_ext_ack *extack)
{
	struct ibtsim_fabric *fabric;
	int err, id;

	lockdep_assert_held(&ibtsim_fabrics_lock);
	id = ida_alloc_max(&ibtsim_fabric_ida, IBTSIM_MAX_FABRICS - 1,
			   GFP_KERNEL);
	if (id < 0) {
		NL_SET_ERR_MSG(extack, "too many fabrics");
		return id;
	}
	fabric = kzalloc(sizeof(*fabric), GFP_KERNEL);
	if (!fabric) {
		err = -ENOMEM;
		goto err_ida;
	}
	fabric->id = id;
	mutex_init(&fabric->knob_lock);
	ibtsim_sm_init(fabric);
	fabric->sm_lite = opts->sm_lite;
	fabric->guid_cap = opts->guid_cap;
	fabric->time_scale = opts->time_scale;
	ibtsim_rnd_init(fabric, opts->seed_set ? opts->seed : get_random_u32());
	if (opts->name)
		strscpy(fabric->name, opts->name, sizeof(fabric->name));
	else
		snprintf(fabric->name, sizeof(fabric->name), "sim%d", id);
	if (__ibtsim_fabric_find(fabric->name)) {
		NL_SET_ERR_MSG(extack, "a fabric of that name exists");
		err = -EEXIST;
		goto err_free;
	}
	if (!__ibtsim_budget_take(topo->mem_cost)) {
		ibtsim_budget_error(topo);
		err = -ENOSPC;
		goto err_free;
	}
	fabric->mem_cost = topo->mem_cost;
	fabric->building = true;
	fabric->seq = ++ibtsim_fabric_seq;
	list_add_tail(&fabric->list, &ibtsim_fabrics);
	*fabricp = fabric;
	return 0;

err_free:
	mutex_destroy(&fabric->knob_lock);
	kfree(fabric);
err_ida:
	ida_free(&ibtsim_fabric_ida, id);
	return err;
}

/*
 * Unlist @fabric, its nodes freed, and give back what
 * __ibtsim_fabric_reserve() took. Caller holds ibtsim_fabrics_lock.
 */
static void __ibtsim_fabric_release(struct ibtsim_fabric *fabric)
{
	lockdep_assert_held(&ibtsim_fabrics_lock);
	list_del(&fabric->list);
	__ibtsim_budget_give(fabric->mem_cost);
	ida_free(&ibtsim_fabric_ida, fabric->id);
	mutex_destroy(&fabric->knob_lock);
	kfree(fabric);
}

/**
 * __ibtsim_fabric_unreserve - drop a fabric listed but never built
 * @fabric: the fabric, from __ibtsim_fabric_reserve()
 *
 * Caller holds ibtsim_fabrics_lock.
 */
void __ibtsim_fabric_unreserve(struct ibtsim_fabric *fabric)
{
	__ibtsim_fabric_release(fabric);
}

/*
 * Build a listed fabric: nodes, links, delivery, an RDMA device per HCA,
 * SM-lite's sweep. Runs without ibtsim_fabrics_lock, which only the sweep
 * takes (briefly): nothing else touches a fabric being built. Sets *@why
 * on error, when nothing of the build remains.
 */
static int ibtsim_fabric_build(struct ibtsim_fabric *fabric,
			       const struct ibtsim_topo *topo, const char **why)
{
	int err;

	err = ibtsim_nodes_create(fabric, topo);
	if (err) {
		*why = "out of memory for the nodes";
		goto err_nodes;
	}
	err = ibtsim_fabric_start(fabric);
	if (err) {
		*why = "out of memory for the fabric's workqueue";
		goto err_nodes;
	}
	err = ibtsim_devs_create(fabric);
	if (err) {
		*why = err == -EINTR ? "cancelled: ibtrace_sim is being unloaded" :
				       "registering an RDMA device failed";
		goto err_devs;
	}
	if (fabric->sm_lite) {
		mutex_lock(&ibtsim_fabrics_lock);
		err = ibtsim_sm_sweep(fabric);
		mutex_unlock(&ibtsim_fabrics_lock);
		if (err) {
			*why = "SM-lite sweep failed";
			goto err_devs;
		}
	}
	return 0;

err_devs:
	ibtsim_sm_stop(fabric);
	ibtsim_devs_unregister(fabric);
	ibtsim_fabric_stop(fabric);
	ibtsim_devs_free(fabric);
err_nodes:
	ibtsim_nodes_free(fabric);
	return err;
}

/**
 * struct ibtsim_build - a fabric being built in the background
 * @work: runs ibtsim_build_work() on ibtsim_build_wq
 * @fabric: the fabric, listed as being built
 * @topo: its parsed topology, owned
 * @net: network namespace of the requester, referenced
 * @portid: netlink port of the requester, told when the build ends
 */
struct ibtsim_build {
	struct work_struct work;
	struct ibtsim_fabric *fabric;
	struct ibtsim_topo topo;
	struct net *net;
	u32 portid;
};

/* Runs the builds: unbound, as many at once as the budget lets in. */
static struct workqueue_struct *ibtsim_build_wq;

static void ibtsim_build_work(struct work_struct *work)
{
	struct ibtsim_build *b = container_of(work, struct ibtsim_build, work);
	struct ibtsim_fabric *fabric = b->fabric;
	char name[IBTRACE_SIM_NAME_MAX + 1];
	const char *why = NULL;
	int err;

	err = ibtsim_fabric_build(fabric, &b->topo, &why);

	mutex_lock(&ibtsim_fabrics_lock);
	if (err) {
		strscpy(name, fabric->name, sizeof(name));
		__ibtsim_fabric_release(fabric);
		ibtsim_nl_build_done(b->net, b->portid, NULL, name, why);
	} else {
		ibtsim_debugfs_fabric_add(fabric);	/* best effort */
		fabric->building = false;
		ibtsim_nl_build_done(b->net, b->portid, fabric, fabric->name,
				     NULL);
	}
	mutex_unlock(&ibtsim_fabrics_lock);

	put_net(b->net);
	ibtsim_topo_free(&b->topo);
	kfree(b);
}

/**
 * ibtsim_build_alloc - what a background build needs, before it starts
 *
 * Return: an unused build, free with ibtsim_build_free(), or NULL.
 */
struct ibtsim_build *ibtsim_build_alloc(void)
{
	return kzalloc(sizeof(struct ibtsim_build), GFP_KERNEL);
}

/**
 * ibtsim_build_free - free a build that was not started
 * @b: the build, or NULL
 */
void ibtsim_build_free(struct ibtsim_build *b)
{
	kfree(b);
}

/**
 * __ibtsim_fabric_build_start - build a listed fabric in the background
 * @fabric: the fabric, from __ibtsim_fabric_reserve()
 * @b: from ibtsim_build_alloc(); owned by the build from now on
 * @topo: its topology, moved into the build (left empty)
 * @net: network namespace of the requester
 * @portid: netlink port of the requester
 *
 * When the build ends, the requester is told (ibtsim_nl_build_done()) and
 * the fabric is either in use or gone. Caller holds ibtsim_fabrics_lock.
 */
void __ibtsim_fabric_build_start(struct ibtsim_fabric *fabric,
				 struct ibtsim_build *b, struct ibtsim_topo *topo,
				 struct net *net, u32 portid)
{
	lockdep_assert_held(&ibtsim_fabrics_lock);
	INIT_WORK(&b->work, ibtsim_build_work);
	b->fabric = fabric;
	b->topo = *topo;
	memset(topo, 0, sizeof(*topo));
	b->net = get_net(net);
	b->portid = portid;
	queue_work(ibtsim_build_wq, &b->work);
}

/**
 * __ibtsim_fabric_del - unregister a fabric's HCAs and free it
 * @fabric: the fabric
 *
 * Unregistering makes ib_core's clients (ib_mad, ib_umad, ...) destroy
 * their QPs, which waits for their packets in flight; then delivery stops
 * and the memory goes. Caller holds ibtsim_fabrics_lock.
 *
 * Return: 0.
 */
int __ibtsim_fabric_del(struct ibtsim_fabric *fabric)
{
	lockdep_assert_held(&ibtsim_fabrics_lock);
	/* Waits for debugfs readers and writers, which take no global lock. */
	ibtsim_debugfs_fabric_del(fabric);
	/* After the last knob writer: nothing queues a re-sweep any more. */
	ibtsim_sm_stop(fabric);
	ibtsim_devs_unregister(fabric);
	ibtsim_fabric_stop(fabric);
	/* The worker has stopped: no packet reaches a capture any more. */
	ibtsim_capture_fabric_gone(fabric);
	/* Their packets were freed: the flows' counts are final. */
	ibtsim_traffic_fabric_gone(fabric);
	ibtsim_devs_free(fabric);
	ibtsim_nodes_free(fabric);
	__ibtsim_fabric_release(fabric);
	return 0;
}

static int __init ibtsim_init(void)
{
	int err;

	ibtsim_build_wq = alloc_workqueue("ibtsim_build", WQ_UNBOUND, 0);
	if (!ibtsim_build_wq)
		return -ENOMEM;
	ibtsim_debugfs_init();	/* best effort */
	err = ibtsim_nl_init();
	if (err) {
		ibtsim_debugfs_exit();
		destroy_workqueue(ibtsim_build_wq);
	}
	return err;
}

static void __exit ibtsim_exit(void)
{
	struct ibtsim_fabric *fabric, *tmp;

	ibtsim_nl_exit();
	/* Builds stop at their next HCA, undo what they built, and end. */
	mutex_lock(&ibtsim_fabrics_lock);
	list_for_each_entry(fabric, &ibtsim_fabrics, list)
		WRITE_ONCE(fabric->cancel, true);
	mutex_unlock(&ibtsim_fabrics_lock);
	destroy_workqueue(ibtsim_build_wq);

	mutex_lock(&ibtsim_fabrics_lock);
	list_for_each_entry_safe(fabric, tmp, &ibtsim_fabrics, list)
		__ibtsim_fabric_del(fabric);
	mutex_unlock(&ibtsim_fabrics_lock);
	ida_destroy(&ibtsim_fabric_ida);
	ibtsim_debugfs_exit();
}

module_init(ibtsim_init);
module_exit(ibtsim_exit);

MODULE_DESCRIPTION("ibtrace_sim: a software InfiniBand fabric");
MODULE_LICENSE("GPL");
MODULE_ALIAS_GENL_FAMILY(IBTRACE_SIM_GENL_NAME);
