// SPDX-License-Identifier: GPL-2.0-only
/*
 * The route audit's data-path proof (proof.h): the routes checked from
 * the tables are only what the tables say; a SourceRoute probe sent along
 * each one, LID-routed, tells whether the packets really go that way. The
 * kernel sends the probes (IBTRACE_CMD_PROVE, at most
 * IBTRACE_PROVE_MAX_DESTS a job); this file picks what goes in each job
 * and words what came back.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proof.h"

#define N_ELEM(a)	(sizeof(a) / sizeof((a)[0]))

/**
 * ibt_proof_wanted() - whether the route to a destination is probed
 * @r: the route, computed
 *
 * A route the tables get wrong has nothing to prove, and one that crosses
 * no link (the source's own node) proves nothing of the fabric.
 *
 * Return: true when @r is ok and crosses at least one link.
 */
bool ibt_proof_wanted(const struct ibt_route *r)
{
	return r->verdict == IBT_ROUTE_OK && r->nhops >= 2;
}

/**
 * ibt_proof_batch() - the next batch of destinations to probe
 * @f: the model
 * @dlids: the destinations, @n of them
 * @n: how many
 * @next: the first of @dlids not looked at yet (0 to start); moved past
 *	the last one looked at
 * @probes: room for @max: the batch, each with its route's incoming-port
 *	vector (ibt_route_in_ports())
 * @max: the batch's most destinations (IBTRACE_PROVE_MAX_DESTS)
 *
 * The routes are computed again rather than kept: a batch's vectors are
 * all that is held, whatever the number of destinations.
 *
 * Return: the destinations in the batch, 0 when none is left to probe,
 * -1 when a route cannot be computed (the model has no source node).
 */
long ibt_proof_batch(const struct ibt_fabric *f, const uint16_t *dlids,
		     size_t n, size_t *next, struct ibt_proof_probe *probes,
		     size_t max)
{
	struct ibt_route r;
	size_t k = 0;

	while (*next < n && k < max) {
		struct ibt_proof_probe *p = &probes[k];
		size_t i = (*next)++;

		if (ibt_route_compute(f, dlids[i], &r))
			return -1;
		if (!ibt_proof_wanted(&r))
			continue;
		p->dest = i;
		p->dlid = dlids[i];
		p->hops = ibt_route_in_ports(&r, p->vector);
		k++;
	}
	return k;
}

/* A verdict's JSON word and its text words. */
static const struct {
	const char *key;
	const char *text;
} verdict_names[] = {
	[IBTRACE_PROVE_UNTRIED]		= { "untried",		"untried" },
	[IBTRACE_PROVE_VERIFIED]	= { "verified",		"verified" },
	[IBTRACE_PROVE_MISMATCH]	= { "mismatch",		"mismatch" },
	[IBTRACE_PROVE_NO_AGENT]	= { "no_agent",		"no agent" },
	[IBTRACE_PROVE_UNREACHABLE]	= { "unreachable",	"unreachable" },
	[IBTRACE_PROVE_SEND_ERROR]	= { "send_error",	"send error" },
};

/**
 * ibt_proof_verdict_str() - the JSON name of a proof verdict
 * @v: enum ibtrace_prove_verdict
 *
 * Return: "untried", "verified", "mismatch", "no_agent", "unreachable",
 * "send_error", or "unknown".
 */
const char *ibt_proof_verdict_str(unsigned int v)
{
	return v < N_ELEM(verdict_names) ? verdict_names[v].key : "unknown";
}

/**
 * ibt_proof_verdict_text() - a proof verdict in words
 * @v: enum ibtrace_prove_verdict
 *
 * Return: as ibt_proof_verdict_str(), with a space for the underscore.
 */
const char *ibt_proof_verdict_text(unsigned int v)
{
	return v < N_ELEM(verdict_names) ? verdict_names[v].text : "unknown";
}

/**
 * ibt_proof_finding() - whether a verdict is a fault of the data path
 * @v: enum ibtrace_prove_verdict
 *
 * A port without a class 0x30 agent (a switch, a host without ibtrace)
 * answers all the same: that it got there is all it can say, and that is
 * no fault. A probe that came in by another port, got no answer, or could
 * not be sent is.
 *
 * Return: true for a mismatch, unreachable or send error.
 */
bool ibt_proof_finding(unsigned int v)
{
	return v == IBTRACE_PROVE_MISMATCH || v == IBTRACE_PROVE_UNREACHABLE ||
	       v == IBTRACE_PROVE_SEND_ERROR;
}

/**
 * ibt_proof_count() - add the verdicts of destinations to a tally
 * @t: the tally (@mads and @elapsed_ns are left as they are)
 * @p: the destinations' proofs, @n of them; those not probed do not count
 * @n: how many
 */
void ibt_proof_count(struct ibt_proof_tally *t, const struct ibt_proof *p,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!p[i].sent)
			continue;
		t->dests++;
		if (p[i].verdict <= IBT_PROOF_VERDICT_MAX)
			t->verdicts[p[i].verdict]++;
	}
}

/**
 * ibt_proof_findings() - the destinations whose proof is a finding
 * @t: the tally
 *
 * Return: how many got a verdict ibt_proof_finding() says is one.
 */
size_t ibt_proof_findings(const struct ibt_proof_tally *t)
{
	size_t v, n = 0;

	for (v = 0; v <= IBT_PROOF_VERDICT_MAX; v++)
		if (ibt_proof_finding(v))
			n += t->verdicts[v];
	return n;
}

/* Append to @buf (@len bytes) at *@off, as snprintf(); cut when full. */
static void __attribute__((format(printf, 4, 5)))
cat(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += (size_t)n < len - *off ? (size_t)n : len - *off - 1;
}

/* "1 MAD", "4 MADs" */
static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* @ns counted in @unit ns, three decimals, rounded: (41500, 1000000) "0.042" */
static const char *dec3_str(uint64_t ns, uint64_t unit, char *buf, size_t len)
{
	uint64_t q = unit / 1000, v = ns / q + (ns % q >= (q + 1) / 2);

	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
	return buf;
}

/**
 * ibt_proof_why() - what the probe of one destination proved, in words
 * @p: the destination's proof (sent)
 * @buf: where the text goes
 * @len: its size
 *
 * The verdict and why, e.g. "mismatch: came in by port 2, the tables
 * say 1", "unreachable: no answer after 4 MADs", "verified: came in by
 * port 1, 1 MAD, 0.042 ms".
 *
 * Return: @buf.
 */
const char *ibt_proof_why(const struct ibt_proof *p, char *buf, size_t len)
{
	size_t off = 0;
	char b[32];

	buf[0] = '\0';
	cat(buf, len, &off, "%s: ", ibt_proof_verdict_text(p->verdict));
	switch (p->verdict) {
	case IBTRACE_PROVE_UNTRIED:
		cat(buf, len, &off, "the proof ended before it was sent");
		return buf;
	case IBTRACE_PROVE_VERIFIED:
		cat(buf, len, &off, "came in by port %u", p->has_port ?
		    p->actual_port : p->expected_port);
		break;
	case IBTRACE_PROVE_MISMATCH:
		if (p->has_port)
			cat(buf, len, &off, "came in by port %u", p->actual_port);
		else
			cat(buf, len, &off, "came in by another port");
		cat(buf, len, &off, ", the tables say %u", p->expected_port);
		return buf;
	case IBTRACE_PROVE_NO_AGENT:
		if (p->has_status)
			cat(buf, len, &off, "answered status 0x%04x", p->status);
		else
			cat(buf, len, &off, "answered without an agent");
		break;
	case IBTRACE_PROVE_UNREACHABLE:
		cat(buf, len, &off, "no answer after %" PRIu32 " MAD%s",
		    p->attempts, plural(p->attempts));
		return buf;
	case IBTRACE_PROVE_SEND_ERROR:
		if (p->err)
			cat(buf, len, &off, "%s (errno %" PRIu32 ")",
			    strerror(p->err), p->err);
		else
			cat(buf, len, &off, "the probe could not be sent");
		return buf;
	default:
		cat(buf, len, &off, "verdict %u", p->verdict);
		return buf;
	}
	/* answered: how many MADs it took, and the round trip */
	cat(buf, len, &off, ", %" PRIu32 " MAD%s", p->attempts,
	    plural(p->attempts));
	if (p->has_rtt)
		cat(buf, len, &off, ", %s ms",
		    dec3_str(p->rtt_ns, 1000000, b, sizeof(b)));
	return buf;
}

/**
 * ibt_proof_summary_str() - the count of a proof's verdicts, in words
 * @t: the tally
 * @buf: where the text goes
 * @len: its size
 *
 * "4 probes: 2 verified, 2 no agent (4 MADs, 0.003 s)": the verified
 * always, the other verdicts when there are some (no agent, mismatch,
 * unreachable, send error, untried).
 *
 * Return: @buf.
 */
const char *ibt_proof_summary_str(const struct ibt_proof_tally *t, char *buf,
				  size_t len)
{
	static const uint8_t order[] = {
		IBTRACE_PROVE_NO_AGENT, IBTRACE_PROVE_MISMATCH,
		IBTRACE_PROVE_UNREACHABLE, IBTRACE_PROVE_SEND_ERROR,
		IBTRACE_PROVE_UNTRIED,
	};
	size_t off = 0, i;
	char b[32];

	buf[0] = '\0';
	cat(buf, len, &off, "%zu probe%s: %zu verified", t->dests,
	    plural(t->dests), t->verdicts[IBTRACE_PROVE_VERIFIED]);
	for (i = 0; i < N_ELEM(order); i++)
		if (t->verdicts[order[i]])
			cat(buf, len, &off, ", %zu %s", t->verdicts[order[i]],
			    ibt_proof_verdict_text(order[i]));
	cat(buf, len, &off, " (%" PRIu64 " MAD%s, %s s)", t->mads,
	    plural(t->mads), dec3_str(t->elapsed_ns, 1000000000, b, sizeof(b)));
	return buf;
}
