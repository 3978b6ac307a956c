// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtracectl - the route audit's figures as Prometheus metrics
 * (audit_prom.h). Every family is a gauge: the figures of the last run,
 * which the next run's file replaces. Names follow Prometheus' rules
 * (ibtrace_audit_ prefix, base units: seconds); the writer's common labels
 * are node_exporter's device and port, so that a failing route joins the
 * node_infiniband_* counters of the port it was audited from.
 *
 *   ibtrace_audit_success{device,port}                   1: no finding
 *   ibtrace_audit_last_run_timestamp_seconds, ibtrace_audit_duration_seconds
 *   ibtrace_audit_sweep_{nodes,switches,links,smps,unanswered,not_kept}
 *                                                        (not for --load)
 *   ibtrace_audit_destinations, ibtrace_audit_routes{verdict}
 *   ibtrace_audit_proved, ibtrace_audit_probes{verdict},
 *   ibtrace_audit_probe_mads                             (when proved)
 *   ibtrace_audit_credit_loops
 *   ibtrace_audit_failing_destinations                   how many
 *   ibtrace_audit_failing_destination{dlid,check,verdict,node_guid,
 *                                     node_desc,dest_port} 1, at most
 *                                     IBT_AUDIT_PROM_MAX_FAILING of them
 */
#include <inttypes.h>
#include <stdio.h>

#include <linux/ibtrace.h>

#include "audit_prom.h"

#define AP	"ibtrace_audit_"
#define AP_STR(x)	AP_STR_(x)
#define AP_STR_(x)	#x

/* One family of one unlabelled sample. */
static void prom_one(struct ibt_prom *p, const char *name, const char *help,
		     uint64_t v)
{
	ibt_prom_family(p, name, "gauge", help);
	ibt_prom_u64(p, name, NULL, 0, v);
}

static void prom_sweep(struct ibt_prom *p, const uint64_t *st)
{
	static const struct {
		const char *name;
		int attr;
		const char *help;
	} keys[] = {
		{ AP "sweep_nodes", IBTRACE_SWEEP_STAT_A_NODES,
		  "Nodes the last sweep found." },
		{ AP "sweep_switches", IBTRACE_SWEEP_STAT_A_SWITCHES,
		  "Switches among them." },
		{ AP "sweep_links", IBTRACE_SWEEP_STAT_A_LINKS,
		  "Links the last sweep found." },
		{ AP "sweep_smps", IBTRACE_SWEEP_STAT_A_SMPS,
		  "SMPs the last sweep sent, retries included." },
		{ AP "sweep_unanswered", IBTRACE_SWEEP_STAT_A_UNANSWERED,
		  "Questions of the last sweep that got no usable answer." },
		{ AP "sweep_not_kept", IBTRACE_SWEEP_STAT_A_NOT_KEPT,
		  "Nodes found past the sweep's bounds, not swept." },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		prom_one(p, keys[i].name, keys[i].help, st[keys[i].attr]);
}

static void prom_routes(struct ibt_prom *p, const struct ibt_audit_figures *a)
{
	struct ibt_prom_label l = { "verdict", NULL };
	unsigned int v;

	prom_one(p, AP "destinations",
		 "Destinations the last audit checked (every LID of every CA port, every switch's LID, every LID a table routes).",
		 a->ndests);
	ibt_prom_family(p, AP "routes", "gauge",
			"Destinations of the last audit by the verdict on the route the tables give.");
	for (v = 0; v <= IBT_ROUTE_NO_OWNER; v++) {
		l.value = ibt_route_verdict_str(v);
		ibt_prom_u64(p, AP "routes", &l, 1, a->routes[v]);
	}
}

static void prom_probes(struct ibt_prom *p, const struct ibt_audit_figures *a)
{
	struct ibt_prom_label l = { "verdict", NULL };
	unsigned int v;

	prom_one(p, AP "proved",
		 "1: the last audit proved the data path (0: --no-prove or a loaded model).",
		 !!a->tally);
	if (!a->tally)
		return;
	ibt_prom_family(p, AP "probes", "gauge",
			"SourceRoute probes of the last audit by what they proved.");
	for (v = 0; v <= IBT_PROOF_VERDICT_MAX; v++) {
		l.value = ibt_proof_verdict_str(v);
		ibt_prom_u64(p, AP "probes", &l, 1, a->tally->verdicts[v]);
	}
	prom_one(p, AP "probe_mads",
		 "Vendor MADs the last proof sent, retries included.",
		 a->tally->mads);
}

/* Whether destination @i failed, and how: *@check and *@verdict. */
static bool prom_failed(const struct ibt_audit_figures *a, size_t i,
			const struct ibt_route *r, const char **check,
			const char **verdict)
{
	const struct ibt_proof *pr = &a->proof[i];

	if (r->verdict != IBT_ROUTE_OK) {
		*check = "route";
		*verdict = ibt_route_verdict_str(r->verdict);
		return true;
	}
	if (pr->sent && ibt_proof_finding(pr->verdict)) {
		*check = "probe";
		*verdict = ibt_proof_verdict_str(pr->verdict);
		return true;
	}
	return false;
}

/* The failing destinations: their count, then a sample each. -1: no source. */
static int prom_failing(struct ibt_prom *p, const struct ibt_audit_figures *a)
{
	struct ibt_prom_label l[6] = {
		{ "dlid", NULL }, { "check", NULL }, { "verdict", NULL },
		{ "node_guid", NULL }, { "node_desc", NULL },
		{ "dest_port", NULL },
	};
	char dlid[8], guid[24], port[4];
	const char *check, *verdict;
	size_t i, n = 0, put = 0;
	struct ibt_route r;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			prom_one(p, AP "failing_destinations",
				 "Destinations whose route or probe failed in the last audit.",
				 n);
			if (!n)
				return 0;
			ibt_prom_family(p, AP "failing_destination", "gauge",
					"1 for each destination whose route or probe failed in the last audit (at most " AP_STR(IBT_AUDIT_PROM_MAX_FAILING) ").");
		}
		for (i = 0; i < a->ndests; i++) {
			uint8_t dport = 0;
			uint32_t owner;

			if (ibt_route_compute(a->fab, a->dlids[i], &r))
				return -1;
			if (!prom_failed(a, i, &r, &check, &verdict))
				continue;
			if (!pass) {
				n++;
				continue;
			}
			if (put++ == IBT_AUDIT_PROM_MAX_FAILING)
				return 0;
			owner = ibt_fabric_lid_owner(a->fab, a->dlids[i], &dport);
			snprintf(dlid, sizeof(dlid), "0x%04x", a->dlids[i]);
			snprintf(guid, sizeof(guid), "0x%016" PRIx64,
				 owner == IBT_FAB_NONE ? 0 : a->fab->node[owner].guid);
			snprintf(port, sizeof(port), "%u", dport);
			l[0].value = dlid;
			l[1].value = check;
			l[2].value = verdict;
			l[3].value = owner == IBT_FAB_NONE ? "" : guid;
			l[4].value = owner == IBT_FAB_NONE ? "" :
				     a->fab->node[owner].desc;
			l[5].value = owner == IBT_FAB_NONE ? "" : port;
			ibt_prom_u64(p, AP "failing_destination", l, 6, 1);
		}
	}
	return 0;
}

/**
 * ibt_audit_prom() - an audit's metrics
 * @p: where they go (its common labels: device, port)
 * @a: what the audit found
 *
 * Return: 0, or -1 when the model has no source node.
 */
int ibt_audit_prom(struct ibt_prom *p, const struct ibt_audit_figures *a)
{
	prom_one(p, AP "success",
		 "1: the last audit found nothing (every route ok and proved, no credit loop, every SMP answered).",
		 a->success);
	ibt_prom_family(p, AP "last_run_timestamp_seconds", "gauge",
			"When the last audit ended, seconds since the epoch.");
	ibt_prom_double(p, AP "last_run_timestamp_seconds", NULL, 0,
			a->timestamp_s);
	ibt_prom_family(p, AP "duration_seconds", "gauge",
			"How long the last audit took, sweep and proof included.");
	ibt_prom_double(p, AP "duration_seconds", NULL, 0, a->duration_s);
	if (a->sweep)
		prom_sweep(p, a->sweep);
	prom_routes(p, a);
	prom_probes(p, a);
	prom_one(p, AP "credit_loops",
		 "Credit loops (cycles of the channel dependency graph) of the routes between all CA ports.",
		 a->loops);
	return prom_failing(p, a);
}
