/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtracectl - fault localisation from many audits (audit merge): the
 * JSON audits of many source ports, each destination's route (and its
 * answer's way back) as the channels it crosses (node GUID, exit port)
 * and what its probe proved,
 * added up per channel: how many failing probes (unreachable, mismatch)
 * cross it, against how many verified ones. A channel every failing probe
 * crosses and no verified one does explains the failures best.
 *
 * Pure logic: no I/O; the audits are json-c objects.
 */
#ifndef IBT_MERGE_H
#define IBT_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/* Channels a route crosses at most (IBA: 64 hops, a path in an SMP) */
#define IBT_MERGE_PATH_MAX	64

/* Room for a NodeDescription (IBA: 64 bytes) and its NUL */
#define IBT_MERGE_DESC_MAX	65

/**
 * struct ibt_merge_chan - a channel: the link out of a node's port
 * @guid: the node's GUID
 * @port: the port
 * @desc: the node's description
 * @fails: failing probes (unreachable, mismatch) whose route crosses it
 * @passes: verified probes whose route crosses it
 */
struct ibt_merge_chan {
	uint64_t guid;
	uint8_t port;
	char desc[IBT_MERGE_DESC_MAX];
	uint32_t fails;
	uint32_t passes;
};

/**
 * struct ibt_merge - the audits added so far
 * @chan: the channels met (a hash table while adding; ranked, the first
 *	@nchan entries, once ibt_merge_rank() ran)
 * @cap: its slots (a power of two)
 * @nchan: channels met
 * @audits: audits added
 * @failing: failing probes met
 * @verified: verified probes met
 * @other: destinations that say nothing of the data path (no proof, no
 *	agent, a route the tables fail)
 */
struct ibt_merge {
	struct ibt_merge_chan *chan;
	size_t cap;
	size_t nchan;
	size_t audits;
	size_t failing;
	size_t verified;
	size_t other;
};

void ibt_merge_init(struct ibt_merge *m);
int ibt_merge_add(struct ibt_merge *m, struct json_object *audit, char *err,
		  size_t errlen);
void ibt_merge_rank(struct ibt_merge *m);
size_t ibt_merge_suspects(const struct ibt_merge *m);
void ibt_merge_free(struct ibt_merge *m);

#endif /* IBT_MERGE_H */
