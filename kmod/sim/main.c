// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim - a software InfiniBand fabric: module and fabric registry.
 *
 * A fabric is built from parsed topology text in one straight ladder
 * (nodes, links, SMA state, delivery, one RDMA device per HCA) and torn
 * down in reverse; a failure anywhere undoes everything before it, so a
 * rejected fabric leaves nothing behind.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <net/genetlink.h>

#include "sim.h"

/* protects ibsim_fabrics and each fabric's lifetime and name */
DEFINE_MUTEX(ibsim_fabrics_lock);
LIST_HEAD(ibsim_fabrics);
static DEFINE_IDA(ibsim_fabric_ida);

struct ibsim_fabric *__ibsim_fabric_find(const char *name)
{
	struct ibsim_fabric *fabric;

	lockdep_assert_held(&ibsim_fabrics_lock);
	list_for_each_entry(fabric, &ibsim_fabrics, list)
		if (!strcmp(fabric->name, name))
			return fabric;
	return NULL;
}

/*
 * Default GUIDs: OpenIB OUI, fabric id, node index, port number, so that
 * nodes of different fabrics never share one.
 */
static u64 ibsim_default_guid(const struct ibsim_fabric *fabric, u32 index)
{
	return (u64)IBSIM_VENDOR_ID << 40 | (u64)fabric->id << 32 |
	       (u64)index << 8;
}

static void ibsim_nodes_free(struct ibsim_fabric *fabric)
{
	u32 i;

	for (i = 0; i < fabric->num_nodes; i++) {
		ibsim_guids_free(fabric->nodes[i]);
		ibsim_switch_free(fabric->nodes[i]);
		kfree(fabric->nodes[i]);
	}
	kvfree(fabric->nodes);
}

static int ibsim_nodes_create(struct ibsim_fabric *fabric,
			      const struct ibsim_topo *topo)
{
	u32 i, n;
	int err;

	fabric->nodes = kvcalloc(topo->num_nodes, sizeof(*fabric->nodes),
				 GFP_KERNEL);
	if (!fabric->nodes)
		return -ENOMEM;

	for (i = 0; i < topo->num_nodes; i++) {
		const struct ibsim_topo_node *tn = &topo->nodes[i];
		struct ibsim_node *node;

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
		node->node_guid = tn->node_guid ?: ibsim_default_guid(fabric, i);
		node->sys_guid = tn->sys_guid ?: node->node_guid;
		if (tn->type == IBSIM_NODE_CA) {
			fabric->num_cas++;
		} else {
			fabric->num_switches++;
			err = ibsim_switch_create(node);
			if (err)
				return err;	/* caller frees the nodes made */
		}
		for (n = 0; n <= tn->num_ports; n++) {
			node->ports[n].node = node;
			node->ports[n].num = n;
			node->ports[n].guid = tn->ports[n].guid ?:
					      node->node_guid + n;
		}
		err = ibsim_guids_alloc(node);
		if (err)
			return err;	/* caller frees the nodes made */
	}

	/* Links, now that every node exists; the parser checked them. */
	for (i = 0; i < topo->num_nodes; i++) {
		const struct ibsim_topo_node *tn = &topo->nodes[i];

		for (n = 1; n <= tn->num_ports; n++) {
			const struct ibsim_topo_port *tp = &tn->ports[n];

			if (!tp->peer_name)
				continue;
			fabric->nodes[i]->ports[n].peer =
				&fabric->nodes[tp->peer]->ports[tp->peer_port];
			if (tp->peer > i || (tp->peer == i && tp->peer_port > n))
				fabric->num_links++;
		}
	}
	for (i = 0; i < fabric->num_nodes; i++)
		for (n = 0; n <= fabric->nodes[i]->num_ports; n++)
			ibsim_port_init_sma(&fabric->nodes[i]->ports[n]);
	return 0;
}

static void ibsim_devs_unregister(struct ibsim_fabric *fabric)
{
	u32 i;

	for (i = fabric->num_nodes; i--; )
		ibsim_dev_unregister(fabric->nodes[i]);
}

static void ibsim_devs_free(struct ibsim_fabric *fabric)
{
	u32 i;

	for (i = fabric->num_nodes; i--; )
		ibsim_dev_free(fabric->nodes[i]);
}

static int ibsim_devs_create(struct ibsim_fabric *fabric)
{
	u32 i;
	int err;

	for (i = 0; i < fabric->num_nodes; i++) {
		if (fabric->nodes[i]->type != IBSIM_NODE_CA)
			continue;
		err = ibsim_dev_create(fabric->nodes[i]);
		if (err)
			return err;	/* caller unregisters and frees */
	}
	return 0;
}

/**
 * __ibsim_fabric_add - build a fabric and register its HCAs
 * @opts: name and options of the fabric
 * @topo: parsed topology; its err_line/err_msg are set when a node of it
 *	cannot be built
 * @fabricp: the new fabric, on success
 * @extack: for errors not tied to a line of the topology
 *
 * Caller holds ibsim_fabrics_lock.
 *
 * Return: 0 or a negative errno; on error nothing of the fabric remains.
 */
int __ibsim_fabric_add(const struct ibsim_fabric_opts *opts,
		       struct ibsim_topo *topo,
		       struct ibsim_fabric **fabricp,
		       struct netlink_ext_ack *extack)
{
	struct ibsim_fabric *fabric;
	int err, id;

	lockdep_assert_held(&ibsim_fabrics_lock);
	id = ida_alloc_max(&ibsim_fabric_ida, IBSIM_MAX_FABRICS - 1,
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
	ibsim_sm_init(fabric);
	fabric->sm_lite = opts->sm_lite;
	fabric->guid_cap = opts->guid_cap;
	ibsim_rnd_init(fabric, opts->seed_set ? opts->seed : get_random_u32());
	if (opts->name)
		strscpy(fabric->name, opts->name, sizeof(fabric->name));
	else
		snprintf(fabric->name, sizeof(fabric->name), "sim%d", id);
	if (__ibsim_fabric_find(fabric->name)) {
		NL_SET_ERR_MSG(extack, "a fabric of that name exists");
		err = -EEXIST;
		goto err_free;
	}

	err = ibsim_nodes_create(fabric, topo);
	if (err)
		goto err_nodes;
	err = ibsim_fabric_start(fabric);
	if (err)
		goto err_nodes;
	err = ibsim_devs_create(fabric);
	if (err) {
		NL_SET_ERR_MSG(extack, "registering an RDMA device failed");
		goto err_devs;
	}
	if (fabric->sm_lite) {
		err = ibsim_sm_sweep(fabric);
		if (err) {
			NL_SET_ERR_MSG(extack, "SM-lite sweep failed");
			goto err_devs;
		}
	}

	ibsim_debugfs_fabric_add(fabric);	/* best effort */
	list_add_tail(&fabric->list, &ibsim_fabrics);
	*fabricp = fabric;
	return 0;

err_devs:
	ibsim_devs_unregister(fabric);
	ibsim_fabric_stop(fabric);
	ibsim_devs_free(fabric);
err_nodes:
	ibsim_nodes_free(fabric);
err_free:
	mutex_destroy(&fabric->knob_lock);
	kfree(fabric);
err_ida:
	ida_free(&ibsim_fabric_ida, id);
	return err;
}

/**
 * __ibsim_fabric_del - unregister a fabric's HCAs and free it
 * @fabric: the fabric
 *
 * Unregistering makes ib_core's clients (ib_mad, ib_umad, ...) destroy
 * their QPs, which waits for their packets in flight; then delivery stops
 * and the memory goes. Caller holds ibsim_fabrics_lock.
 *
 * Return: 0.
 */
int __ibsim_fabric_del(struct ibsim_fabric *fabric)
{
	lockdep_assert_held(&ibsim_fabrics_lock);
	list_del(&fabric->list);
	/* Waits for debugfs readers and writers, which take no global lock. */
	ibsim_debugfs_fabric_del(fabric);
	/* After the last knob writer: nothing queues a re-sweep any more. */
	ibsim_sm_stop(fabric);
	ibsim_devs_unregister(fabric);
	ibsim_fabric_stop(fabric);
	ibsim_devs_free(fabric);
	ibsim_nodes_free(fabric);
	ida_free(&ibsim_fabric_ida, fabric->id);
	mutex_destroy(&fabric->knob_lock);
	kfree(fabric);
	return 0;
}

static int __init ibsim_init(void)
{
	int err;

	ibsim_debugfs_init();	/* best effort */
	err = ibsim_nl_init();
	if (err)
		ibsim_debugfs_exit();
	return err;
}

static void __exit ibsim_exit(void)
{
	struct ibsim_fabric *fabric, *tmp;

	ibsim_nl_exit();
	mutex_lock(&ibsim_fabrics_lock);
	list_for_each_entry_safe(fabric, tmp, &ibsim_fabrics, list)
		__ibsim_fabric_del(fabric);
	mutex_unlock(&ibsim_fabrics_lock);
	ida_destroy(&ibsim_fabric_ida);
	ibsim_debugfs_exit();
}

module_init(ibsim_init);
module_exit(ibsim_exit);

MODULE_DESCRIPTION("ibtrace_sim: a software InfiniBand fabric");
MODULE_LICENSE("GPL");
MODULE_ALIAS_GENL_FAMILY(IBTRACE_SIM_GENL_NAME);
