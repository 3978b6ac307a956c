// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden cases of mad_decode.c: each MAD of tests/mad_samples.h, its
 * header and attribute (or, when not decoded, its data in hex), and the
 * hex dump of a few bytes.
 */
#include "../mad_decode.c"
#include "golden.h"
#include "mad_samples.h"

/* What a tracer prints of a MAD: its header, then its attribute or hex. */
static int run_sample(struct ibt *ctx, void *arg)
{
	const struct mad_sample *s = arg;
	uint8_t m[IBT_MAD_SIZE];

	s->build(m);
	ibt_out_obj_begin(ctx, NULL);
	ibt_mad_print_hdr(ctx, m, s->len);
	if (!ibt_mad_print_attr(ctx, m, s->len) && s->len > MAD_HDR_LEN)
		ibt_mad_print_hex(ctx, "data", m + MAD_HDR_LEN,
				  s->len - MAD_HDR_LEN);
	ibt_out_obj_end(ctx);
	return 0;
}

static int run_hex(struct ibt *ctx, void *arg)
{
	static const uint8_t b[20] = {
		0x01, 0x81, 0x01, 0x81, 0x00, 0x00, 0xab, 0xcd, 0xef, 0x10,
		0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xfe, 0xff,
	};
	size_t len = *(const size_t *)arg;

	ibt_out_obj_begin(ctx, NULL);
	ibt_mad_print_hex(ctx, "bytes", b, len);
	ibt_out_obj_end(ctx);
	return 0;
}

void golden_mad_decode(void)
{
	static const size_t lens[] = { 0, 1, 16, 20 };
	char name[64];
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(mad_samples); i++) {
		snprintf(name, sizeof(name), "mad %s", mad_samples[i].name);
		golden_run(name, run_sample, (void *)&mad_samples[i]);
	}
	for (i = 0; i < IBT_ARRAY_SIZE(lens); i++) {
		snprintf(name, sizeof(name), "mad hex %zu", lens[i]);
		golden_run(name, run_hex, (void *)&lens[i]);
	}
}
