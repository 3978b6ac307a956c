/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtracectl - metrics in the Prometheus text exposition format, written
 * atomically for node_exporter's textfile collector (--prom FILE): the
 * file is written beside its final name and renamed over it once whole,
 * so that a scrape never reads half of it.
 *
 * A family (# HELP, # TYPE) is followed by its samples; every sample
 * carries the writer's common labels (device, port: the labels of
 * node_exporter's node_infiniband_* metrics, so that the two join) first.
 */
#ifndef IBT_PROM_H
#define IBT_PROM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/**
 * struct ibt_prom_label - one label of a sample
 * @name: its name ([a-zA-Z_][a-zA-Z0-9_]*)
 * @value: its value, any text (escaped when written)
 */
struct ibt_prom_label {
	const char *name;
	const char *value;
};

/* Labels a sample carries at most, the common ones included */
#define IBT_PROM_MAX_LABELS	12

/**
 * struct ibt_prom - a metrics file being written
 * @f: where the text goes
 * @path: its final name, NULL when @f is the caller's
 * @tmp: the name it is written under until ibt_prom_commit()
 * @common: labels every sample carries first
 * @ncommon: how many
 */
struct ibt_prom {
	FILE *f;
	char *path;
	char *tmp;
	const struct ibt_prom_label *common;
	size_t ncommon;
};

int ibt_prom_open(struct ibt_prom *p, const char *path,
		  const struct ibt_prom_label *common, size_t ncommon);
void ibt_prom_open_file(struct ibt_prom *p, FILE *f,
			const struct ibt_prom_label *common, size_t ncommon);
void ibt_prom_family(struct ibt_prom *p, const char *name, const char *type,
		     const char *help);
void ibt_prom_u64(struct ibt_prom *p, const char *name,
		  const struct ibt_prom_label *labels, size_t n, uint64_t v);
void ibt_prom_double(struct ibt_prom *p, const char *name,
		     const struct ibt_prom_label *labels, size_t n, double v);
int ibt_prom_commit(struct ibt_prom *p);
void ibt_prom_discard(struct ibt_prom *p);
size_t ibt_prom_escape(const char *in, char *out, size_t len);

#endif /* IBT_PROM_H */
