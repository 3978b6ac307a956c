// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - module entry, ib_client and the device list.
 *
 * Every RDMA device gets a &struct ibtrace_dev when ib_core adds it; every
 * port with GSI gets the class 0x30 agent, every port with an SMI the
 * tracer's send-only SMP agent. Requests (netlink) find devices
 * in the list and hold a reference while they use them. When a device goes
 * away, or the module unloads, the device is marked dead, waiting requests
 * are woken and end with an error, and removal waits for their references
 * before the agents are unregistered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "ibtrace.h"
#include "netlink.h"
#include "server.h"
#include "test.h"

static struct ib_client ibtrace_client;

/* protects ibtrace_devs */
static DEFINE_MUTEX(ibtrace_devs_lock);
static LIST_HEAD(ibtrace_devs);

static void ibtrace_dev_release(struct kref *ref)
{
	struct ibtrace_dev *dev = container_of(ref, struct ibtrace_dev, ref);

	complete(&dev->released);
}

/**
 * ibtrace_dev_put() - drop a reference taken by an ibtrace_dev_get_*()
 * @dev: the device
 */
void ibtrace_dev_put(struct ibtrace_dev *dev)
{
	kref_put(&dev->ref, ibtrace_dev_release);
}

/* The live device named @name, or with index @index when @name is NULL. */
static struct ibtrace_dev *ibtrace_dev_find(const char *name, u32 index)
{
	struct ibtrace_dev *dev, *found = NULL;

	mutex_lock(&ibtrace_devs_lock);
	list_for_each_entry(dev, &ibtrace_devs, list) {
		if (name ? !strcmp(dev_name(&dev->ibdev->dev), name) :
			   dev->ibdev->index == index) {
			kref_get(&dev->ref);
			found = dev;
			break;
		}
	}
	mutex_unlock(&ibtrace_devs_lock);
	return found;
}

/**
 * ibtrace_dev_get_by_name() - find a live device by name
 * @name: RDMA device name
 *
 * Return: the device with a reference held, or NULL.
 */
struct ibtrace_dev *ibtrace_dev_get_by_name(const char *name)
{
	return ibtrace_dev_find(name, 0);
}

/**
 * ibtrace_dev_get_by_index() - find a live device by ib_core index
 * @index: RDMA device index
 *
 * Return: the device with a reference held, or NULL.
 */
struct ibtrace_dev *ibtrace_dev_get_by_index(u32 index)
{
	return ibtrace_dev_find(NULL, index);
}

/**
 * ibtrace_dev_get_from() - iterate devices in ascending index order
 * @start: smallest device index wanted
 *
 * Iteration by index stays correct while devices come and go between
 * calls (dumps span several netlink messages).
 *
 * Return: the live device with the smallest index >= @start, with a
 * reference held, or NULL at the end.
 */
struct ibtrace_dev *ibtrace_dev_get_from(u32 start)
{
	struct ibtrace_dev *dev, *best = NULL;

	mutex_lock(&ibtrace_devs_lock);
	list_for_each_entry(dev, &ibtrace_devs, list) {
		u32 idx = dev->ibdev->index;

		if (idx >= start && (!best || idx < best->ibdev->index))
			best = dev;
	}
	if (best)
		kref_get(&best->ref);
	mutex_unlock(&ibtrace_devs_lock);
	return best;
}

/**
 * ibtrace_dev_port() - a device's port by number
 * @dev: the device
 * @port_num: 1-based port number
 *
 * Return: the port, or NULL if @dev has no such port.
 */
struct ibtrace_port *ibtrace_dev_port(struct ibtrace_dev *dev, u32 port_num)
{
	if (port_num < 1 || port_num > dev->nports)
		return NULL;
	return &dev->port[port_num - 1];
}

/*
 * A port's GID table, LID, state or SM changed: the agent's cached answer
 * handles may address the requester from an old source GID (RoCE) or
 * through an old SM's assignments, so none is reused. Called by ib_core
 * in process context, with the port's GID table locked for a GID change:
 * only a counter is touched here.
 */
static void ibtrace_dev_event(struct ib_event_handler *handler,
			      struct ib_event *event)
{
	struct ibtrace_dev *dev = container_of(handler, struct ibtrace_dev,
					       event_handler);
	struct ibtrace_port *port;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_GID_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
		port = ibtrace_dev_port(dev, event->element.port_num);
		if (port)
			ibtrace_agent_ahs_expire(port);
		break;
	default:
		break;
	}
}

static int ibtrace_add_one(struct ib_device *ibdev)
{
	u32 nports = rdma_end_port(ibdev);
	struct ibtrace_dev *dev;
	u32 p;

	/* Switches (port 0 only) are not served by this client. */
	if (rdma_start_port(ibdev) != 1)
		return -EOPNOTSUPP;

	dev = kzalloc(struct_size(dev, port, nports), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	dev->ibdev = ibdev;
	dev->nports = nports;
	kref_init(&dev->ref);
	init_completion(&dev->released);
	init_waitqueue_head(&dev->waitq);

	for (p = 1; p <= nports; p++) {
		struct ibtrace_port *port = &dev->port[p - 1];

		port->dev = dev;
		port->port_num = p;
		ibtrace_agent_ahs_init(port);
		/* Without SMPs a port can still be pinged; not fatal. */
		if (rdma_cap_ib_smi(ibdev, p) && ibtrace_smp_register(port))
			dev_warn(&ibdev->dev,
				 "port %u: SMI agent not registered\n", p);
		if (!rdma_cap_ib_mad(ibdev, p))
			continue;
		/* A port without the agent is still listed; it is not fatal. */
		if (ibtrace_agent_register(port))
			dev_warn(&ibdev->dev,
				 "port %u: class 0x30 agent not registered\n",
				 p);
	}

	INIT_IB_EVENT_HANDLER(&dev->event_handler, ibdev, ibtrace_dev_event);
	ib_register_event_handler(&dev->event_handler);
	ib_set_client_data(ibdev, &ibtrace_client, dev);

	mutex_lock(&ibtrace_devs_lock);
	list_add_tail(&dev->list, &ibtrace_devs);
	mutex_unlock(&ibtrace_devs_lock);
	return 0;
}

static void ibtrace_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct ibtrace_dev *dev = client_data;
	u32 p;

	mutex_lock(&ibtrace_devs_lock);
	list_del(&dev->list);
	mutex_unlock(&ibtrace_devs_lock);

	/* Wake every request still using the device; they end with -ENODEV. */
	WRITE_ONCE(dev->dead, true);
	wake_up_all(&dev->waitq);

	ibtrace_dev_put(dev);
	wait_for_completion(&dev->released);

	ib_unregister_event_handler(&dev->event_handler);
	for (p = 1; p <= dev->nports; p++) {
		ibtrace_agent_unregister(&dev->port[p - 1]);
		ibtrace_agent_ahs_flush(&dev->port[p - 1]);
		ibtrace_smp_unregister(&dev->port[p - 1]);
	}
	kfree(dev);
}

static struct ib_client ibtrace_client = {
	.name = "ibtrace",
	.add = ibtrace_add_one,
	.remove = ibtrace_remove_one,
};

static int __init ibtrace_init(void)
{
	int err;

	ibtrace_sa_init();
	err = ibtrace_job_init_all();
	if (err)
		goto err_sa_exit;
	err = ib_register_client(&ibtrace_client);
	if (err) {
		pr_err("cannot register ib_client: %d\n", err);
		goto err_test_exit;
	}

	err = ibtrace_nl_init();
	if (err) {
		pr_err("cannot register generic netlink family: %d\n", err);
		goto err_unregister_client;
	}
	err = ibtrace_server_init();
	if (err)
		goto err_nl_exit;
	return 0;

err_nl_exit:
	ibtrace_nl_exit();
err_unregister_client:
	ib_unregister_client(&ibtrace_client);
err_test_exit:
	ibtrace_job_stop();
	ibtrace_job_exit();
err_sa_exit:
	ibtrace_sa_exit();
	return err;
}

static void __exit ibtrace_exit(void)
{
	/*
	 * Test jobs first: each is cancelled and restores its DUT (within a
	 * bounded time) while the devices and the family still exist. Then
	 * the server's listener and connections, if an admin started it
	 * (peer hosts' jobs see a disconnect or a
	 * rejection). Then the devices: that ends the pings and traces
	 * still running (they see their device die, and their end message
	 * goes out before the device is released); then the family, and
	 * the jobs' workqueue.
	 */
	ibtrace_job_stop();
	ibtrace_server_exit();
	ib_unregister_client(&ibtrace_client);
	ibtrace_nl_exit();
	ibtrace_job_exit();
	ibtrace_sa_exit();
}

module_init(ibtrace_init);
module_exit(ibtrace_exit);

MODULE_AUTHOR("The ibtrace developers");
MODULE_DESCRIPTION("InfiniBand path tracing and conformance toolkit");
MODULE_LICENSE("GPL");
