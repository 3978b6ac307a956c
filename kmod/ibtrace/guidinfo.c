// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace - the GUIDInfo conformance test (IBTA compliance test
 * C14_024_05).
 *
 * Against one DUT port (a CA or router port, or switch port 0):
 *
 *   1. NodeInfo (PortGUID, node type, the port the SMPs arrive on) and
 *      PortInfo (GUIDCap) of the DUT port; then wait while another job
 *      holds the same port;
 *   2. save: SubnGet(GUIDInfo) of every block within the table
 *      (GUIDCap entries, 8 per block);
 *   3. test: for every block up to the requested count, within the
 *      table SubnSet of the bitwise NOT of what was read, then SubnGet;
 *      past the table SubnGet and SubnSet, which must be refused;
 *   4. restore: SubnSet of every saved block, then SubnGet to verify.
 *
 * Step 4 runs whenever step 3 wrote anything: on pass, on fail, on
 * cancel and on module unload (the unload path waits for it). Nothing
 * here knows about ibtrace_sim: every check is a rule of the
 * specification, so the test runs against hardware as it is.
 *
 * How the compliance test's assertion IDs map to checks is our reading of
 * the specification's GUIDInfo rules; see Documentation/conformance.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "ibtrace_iba.h"
#include "test.h"

enum {
	GI_A_READ,		/* v1c14-024.1.1#05.01 */
	GI_A_WRITE,		/* v1c14-024.1.1#05.02 */
	GI_A_PAST,		/* v1c14-024.1.1#05.03 */
	GI_A_ENTRY0,		/* v1c14-027#01 */
	GI_A_READ_ONLY,		/* v1c14-030#01 */
	GI_A_RESP,		/* v1c13-024#01 */
	GI_A_SET_RESP,		/* v1c13-024#07 */
	GI_N_ASSERTS
};

static const struct ibtrace_assert_def ibtrace_guidinfo_asserts[] = {
	[GI_A_READ] = { "v1c14-024.1.1#05.01",
		"Get of each block within the table: status 0; entries >= GUIDCap read 0" },
	[GI_A_WRITE] = { "v1c14-024.1.1#05.02",
		"Set of the bitwise NOT: entries 1..GUIDCap-1 read back as written" },
	[GI_A_PAST] = { "v1c14-024.1.1#05.03",
		"Get and Set of a block past the table: status 0x001C" },
	[GI_A_ENTRY0] = { "v1c14-027#01",
		"GUIDInfo entry 0 is NodeInfo.PortGUID" },
	[GI_A_READ_ONLY] = { "v1c14-030#01",
		"GUIDInfo entry 0 is read-only: a SubnSet leaves it unchanged" },
	[GI_A_RESP] = { "v1c13-024#01",
		"every answer is a GetResp for the request's attribute and modifier" },
	[GI_A_SET_RESP] = { "v1c13-024#07",
		"the GetResp of a Set carries the table as it is after the Set" },
};

/**
 * struct ibtrace_guidinfo - the test's working state
 * @req: scratch MAD request
 * @saved: the table as found, block by block
 * @saved_ok: @saved[b] was read with status 0
 * @set_resp: data of the last SubnSet's answer
 * @cap: PortInfo.GUIDCap
 * @port: the DUT port number
 * @tblocks: blocks within the table
 * @changed: a SubnSet within the table was sent
 */
struct ibtrace_guidinfo {
	struct ibtrace_mad_req req;
	__be64 saved[IBTRACE_TEST_GUIDINFO_BLOCKS][IBTRACE_IBA_GUID_BLOCK];
	bool saved_ok[IBTRACE_TEST_GUIDINFO_BLOCKS];
	__be64 set_resp[IBTRACE_IBA_GUID_BLOCK];
	u8 cap;
	u8 port;
	u32 tblocks;
	bool changed;
};

static const char *gi_method_name(u8 method)
{
	return method == IB_MGMT_METHOD_SET ? "SubnSet" : "SubnGet";
}

static const char *gi_attr_name(__be16 attr_id)
{
	if (attr_id == IB_SMP_ATTR_NODE_INFO)
		return "NodeInfo";
	if (attr_id == IB_SMP_ATTR_PORT_INFO)
		return "PortInfo";
	return "GUIDInfo";
}

/*
 * One exchange; an answer is checked against v1c13-024#01. On no answer
 * the job is aborted with the reason. Returns 0 when answered.
 */
static int gi_smp(struct ibtrace_test_job *job, struct ibtrace_guidinfo *gi,
		  u8 phase, u8 method, __be16 attr_id, u32 attr_mod,
		  const void *data)
{
	const struct ib_smp *resp = &gi->req.resp_smp;
	char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];
	int err;

	err = ibtrace_test_smp(job, phase, method, attr_id, attr_mod, data,
			       &gi->req);
	if (!err) {
		bool ok = resp->method == IB_MGMT_METHOD_GET_RESP &&
			  resp->attr_id == attr_id &&
			  be32_to_cpu(resp->attr_mod) == attr_mod;

		scnprintf(exp, sizeof(exp), "0x%02x 0x%04x %u",
			  IB_MGMT_METHOD_GET_RESP, be16_to_cpu(attr_id),
			  attr_mod);
		scnprintf(obs, sizeof(obs), "0x%02x 0x%04x %u", resp->method,
			  be16_to_cpu(resp->attr_id),
			  be32_to_cpu(resp->attr_mod));
		ibtrace_test_check(job, GI_A_RESP, ok, exp, obs,
				   "%s(%s) %u", gi_method_name(method),
				   gi_attr_name(attr_id), attr_mod);
		return 0;
	}

	if (err == -ECANCELED)
		ibtrace_test_abort(job, "%s", ibtrace_test_cancel_reason(job));
	else if (err == -ETIMEDOUT)
		ibtrace_test_abort(job,
				   "the DUT did not answer %s(%s) %u after %u attempts",
				   gi_method_name(method),
				   gi_attr_name(attr_id), attr_mod,
				   gi->req.attempts);
	else if (err == -ENODEV)
		ibtrace_test_abort(job, "device %s went away", job->base.dev_name);
	else
		ibtrace_test_abort(job, "%s(%s) %u could not be sent: %pe",
				   gi_method_name(method),
				   gi_attr_name(attr_id), attr_mod,
				   ERR_PTR(err));
	return err;
}

static u16 gi_status(const struct ibtrace_guidinfo *gi)
{
	return be16_to_cpu(gi->req.resp_smp.status & ~IB_SMP_DIRECTION);
}

static bool gi_check_status(struct ibtrace_test_job *job,
			    struct ibtrace_guidinfo *gi, unsigned int a,
			    u16 want, u8 method, u32 block)
{
	char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];
	u16 got = gi_status(gi);

	scnprintf(exp, sizeof(exp), "0x%04x", want);
	scnprintf(obs, sizeof(obs), "0x%04x", got);
	return ibtrace_test_check(job, a, got == want, exp, obs,
				  "%s block %u", gi_method_name(method), block);
}

static void gi_check_guid(struct ibtrace_test_job *job, unsigned int a,
			  __be64 want, __be64 got, u32 index)
{
	char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];

	scnprintf(exp, sizeof(exp), "0x%016llx", be64_to_cpu(want));
	scnprintf(obs, sizeof(obs), "0x%016llx", be64_to_cpu(got));
	ibtrace_test_check(job, a, want == got, exp, obs,
			   "block %u entry %u",
			   index / IBTRACE_IBA_GUID_BLOCK, index);
}

/* Entries at or above GUIDCap of a block just read must be zero. */
static void gi_check_above_cap(struct ibtrace_test_job *job,
			       struct ibtrace_guidinfo *gi, u32 block,
			       const __be64 *guids)
{
	u32 j;

	for (j = 0; j < IBTRACE_IBA_GUID_BLOCK; j++) {
		u32 idx = block * IBTRACE_IBA_GUID_BLOCK + j;

		if (idx >= gi->cap)
			gi_check_guid(job, GI_A_READ, 0, guids[j], idx);
	}
}

/* Step 1: learn the DUT. Returns 0 when the test can go on. */
static int gi_probe(struct ibtrace_test_job *job, struct ibtrace_guidinfo *gi)
{
	const struct ib_node_info *ni;
	const struct ib_port_info *pi;
	struct ibtrace_test_dut dut = {};
	int err;

	err = gi_smp(job, gi, IBTRACE_XCHG_PHASE_PROBE, IB_MGMT_METHOD_GET,
		     IB_SMP_ATTR_NODE_INFO, 0, NULL);
	if (err)
		return err;
	if (gi_status(gi)) {
		ibtrace_test_abort(job, "NodeInfo was answered with status 0x%04x",
				   gi_status(gi));
		return -EIO;
	}
	ni = (const struct ib_node_info *)gi->req.resp_smp.data;
	dut.known = true;
	dut.node_type = ni->node_type;
	dut.node_guid = be64_to_cpu(ni->node_guid);
	dut.port_guid = be64_to_cpu(ni->port_guid);

	if (ni->node_type == RDMA_NODE_IB_SWITCH) {
		dut.port = job->args.dut_port < 0 ? 0 : job->args.dut_port;
		ibtrace_test_set_dut(job, &dut);
		if (dut.port > ni->num_ports) {
			ibtrace_test_abort(job, "the switch has no port %u (it has %u)",
					   dut.port, ni->num_ports);
			return -EINVAL;
		}
		if (dut.port) {
			ibtrace_test_not_applicable(job,
						    "port %u is a switch external port: GUIDInfo is defined for CA and router ports and switch port 0",
						    dut.port);
			return -EOPNOTSUPP;
		}
	} else {
		dut.port = ni->local_port_num;
		ibtrace_test_set_dut(job, &dut);
		if (job->args.dut_port >= 0 &&
		    job->args.dut_port != ni->local_port_num) {
			ibtrace_test_abort(job,
					   "the SMPs reach port %u of this node, not port %d: give the route to port %d",
					   ni->local_port_num,
					   job->args.dut_port,
					   job->args.dut_port);
			return -EINVAL;
		}
	}
	gi->port = dut.port;

	err = gi_smp(job, gi, IBTRACE_XCHG_PHASE_PROBE, IB_MGMT_METHOD_GET,
		     IB_SMP_ATTR_PORT_INFO, gi->port, NULL);
	if (err)
		return err;
	if (gi_status(gi)) {
		ibtrace_test_abort(job, "PortInfo %u was answered with status 0x%04x",
				   gi->port, gi_status(gi));
		return -EIO;
	}
	pi = (const struct ib_port_info *)gi->req.resp_smp.data;
	dut.has_port_info = true;
	dut.lid = be16_to_cpu(pi->lid);
	dut.guid_cap = pi->guid_cap;
	ibtrace_test_set_dut(job, &dut);
	if (!pi->guid_cap) {
		ibtrace_test_abort(job, "PortInfo.GUIDCap is 0: the port has no GUID table");
		return -EIO;
	}
	gi->cap = pi->guid_cap;
	gi->tblocks = DIV_ROUND_UP(gi->cap, IBTRACE_IBA_GUID_BLOCK);
	return 0;
}

/* Step 2: read and keep every block within the table. */
static int gi_save(struct ibtrace_test_job *job, struct ibtrace_guidinfo *gi)
{
	u32 b, n = min(gi->tblocks, job->args.blocks);
	int err;

	for (b = 0; b < n; b++) {
		err = gi_smp(job, gi, IBTRACE_XCHG_PHASE_SAVE,
			     IB_MGMT_METHOD_GET, IB_SMP_ATTR_GUID_INFO, b,
			     NULL);
		if (err)
			return err;
		if (!gi_check_status(job, gi, GI_A_READ, 0,
				     IB_MGMT_METHOD_GET, b))
			continue;	/* unreadable: left alone */
		memcpy(gi->saved[b], gi->req.resp_smp.data,
		       sizeof(gi->saved[b]));
		gi->saved_ok[b] = true;
		gi_check_above_cap(job, gi, b, gi->saved[b]);
	}
	if (gi->saved_ok[0]) {
		struct ibtrace_test_dut dut;

		mutex_lock(&job->base.lock);
		dut = job->dut;
		mutex_unlock(&job->base.lock);
		gi_check_guid(job, GI_A_ENTRY0, cpu_to_be64(dut.port_guid),
			      gi->saved[0][0], 0);
	}
	return 0;
}

/* Step 3 within the table: write the bitwise NOT, read it back. */
static int gi_test_block(struct ibtrace_test_job *job,
			 struct ibtrace_guidinfo *gi, u32 b)
{
	__be64 data[IBTRACE_IBA_GUID_BLOCK];
	const __be64 *got;
	u32 j;
	int err;

	if (!gi->saved_ok[b])
		return 0;
	for (j = 0; j < IBTRACE_IBA_GUID_BLOCK; j++)
		data[j] = ~gi->saved[b][j];
	gi->changed = true;
	err = gi_smp(job, gi, IBTRACE_XCHG_PHASE_TEST, IB_MGMT_METHOD_SET,
		     IB_SMP_ATTR_GUID_INFO, b, data);
	if (err)
		return err;
	gi_check_status(job, gi, GI_A_WRITE, 0, IB_MGMT_METHOD_SET, b);
	memcpy(gi->set_resp, gi->req.resp_smp.data, sizeof(gi->set_resp));

	err = gi_smp(job, gi, IBTRACE_XCHG_PHASE_TEST, IB_MGMT_METHOD_GET,
		     IB_SMP_ATTR_GUID_INFO, b, NULL);
	if (err)
		return err;
	if (!gi_check_status(job, gi, GI_A_READ, 0, IB_MGMT_METHOD_GET, b))
		return 0;
	got = (const __be64 *)gi->req.resp_smp.data;
	for (j = 0; j < IBTRACE_IBA_GUID_BLOCK; j++) {
		u32 idx = b * IBTRACE_IBA_GUID_BLOCK + j;

		if (!idx)
			gi_check_guid(job, GI_A_READ_ONLY, gi->saved[0][0],
				      got[0], 0);
		else if (idx < gi->cap)
			gi_check_guid(job, GI_A_WRITE, data[j], got[j], idx);
	}
	gi_check_above_cap(job, gi, b, got);
	for (j = 0; j < IBTRACE_IBA_GUID_BLOCK; j++)
		if (gi->set_resp[j] != got[j])
			break;
	if (j == IBTRACE_IBA_GUID_BLOCK) {
		ibtrace_test_check(job, GI_A_SET_RESP, true, "as read after",
				   "as read after", "SubnSet block %u", b);
	} else {
		char exp[IBTRACE_TEST_VAL_LEN], obs[IBTRACE_TEST_VAL_LEN];

		scnprintf(exp, sizeof(exp), "0x%016llx",
			  be64_to_cpu(got[j]));
		scnprintf(obs, sizeof(obs), "0x%016llx",
			  be64_to_cpu(gi->set_resp[j]));
		ibtrace_test_check(job, GI_A_SET_RESP, false, exp, obs,
				   "SubnSet block %u entry %u", b,
				   b * IBTRACE_IBA_GUID_BLOCK + j);
	}
	return 0;
}

/* Step 3 past the table: both methods must be refused. */
static int gi_test_past(struct ibtrace_test_job *job,
			struct ibtrace_guidinfo *gi, u32 b)
{
	static const u8 methods[] = { IB_MGMT_METHOD_GET, IB_MGMT_METHOD_SET };
	/* What the Set writes: harmless should a faulty DUT accept it. */
	static const __be64 zeros[IBTRACE_IBA_GUID_BLOCK];
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(methods); i++) {
		err = gi_smp(job, gi, IBTRACE_XCHG_PHASE_TEST, methods[i],
			     IB_SMP_ATTR_GUID_INFO, b,
			     methods[i] == IB_MGMT_METHOD_SET ? zeros : NULL);
		if (err)
			return err;
		gi_check_status(job, gi, GI_A_PAST,
				IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE,
				methods[i], b);
	}
	return 0;
}

/* Step 4: write back every saved block and read it again. */
static void gi_restore(struct ibtrace_test_job *job,
		       struct ibtrace_guidinfo *gi)
{
	u32 b, n = min(gi->tblocks, job->args.blocks);
	u8 restore = IBTRACE_TEST_RESTORE_VERIFIED;
	int err;

	for (b = 0; b < n; b++) {
		if (!gi->saved_ok[b])
			continue;
		err = ibtrace_test_smp(job, IBTRACE_XCHG_PHASE_RESTORE,
				       IB_MGMT_METHOD_SET,
				       IB_SMP_ATTR_GUID_INFO, b,
				       gi->saved[b], &gi->req);
		if (!err && !gi_status(gi))
			err = ibtrace_test_smp(job, IBTRACE_XCHG_PHASE_RESTORE,
					       IB_MGMT_METHOD_GET,
					       IB_SMP_ATTR_GUID_INFO, b, NULL,
					       &gi->req);
		if (err == -ENODEV) {
			restore = IBTRACE_TEST_RESTORE_IMPOSSIBLE;
			break;
		}
		if (err || gi_status(gi) ||
		    memcmp(gi->req.resp_smp.data, gi->saved[b],
			   sizeof(gi->saved[b]))) {
			restore = IBTRACE_TEST_RESTORE_FAILED;
			pr_warn("job %u: GUIDInfo block %u of %s port %u not restored (%d, status 0x%04x)\n",
				job->base.id, b, job->base.dev_name, job->base.port_num, err,
				err ? 0 : gi_status(gi));
		}
	}
	ibtrace_test_restored(job, restore);
}

static void ibtrace_guidinfo_run(struct ibtrace_test_job *job)
{
	struct ibtrace_guidinfo *gi;
	u32 b;
	int err;

	gi = kzalloc(sizeof(*gi), GFP_KERNEL);
	if (!gi) {
		ibtrace_test_abort(job, "out of memory");
		return;
	}
	if (gi_probe(job, gi))
		goto out;
	if (ibtrace_test_claim_dut(job)) {
		ibtrace_test_abort(job, "%s", ibtrace_test_cancel_reason(job));
		goto out;
	}
	if (gi_save(job, gi))
		goto out;

	for (b = 0; b < job->args.blocks; b++) {
		if (b < gi->tblocks)
			err = gi_test_block(job, gi, b);
		else
			err = gi_test_past(job, gi, b);
		if (err)
			break;
	}
	if (gi->changed)
		gi_restore(job, gi);
out:
	kfree(gi);
}

const struct ibtrace_test_def ibtrace_test_guidinfo = {
	.name = "guidinfo",
	.seed = "C14_024_05",
	.desc = "GUIDInfo table: size, entry 0, Set/Get of every block, past the end",
	.needs = "an IB CA or router port, or switch port 0, reachable by SMPs",
	.smp = true,
	.asserts = ibtrace_guidinfo_asserts,
	.n_asserts = GI_N_ASSERTS,
	.run = ibtrace_guidinfo_run,
};
