/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MADs for the tests of mad_decode.c (tests/unit.c checks fields of what
 * it prints, tests/g_mad_decode.c prints it whole): each sample is built
 * byte by byte as on the wire, with a value of its own in every field of
 * its header and attribute, so that a field read at the wrong offset or
 * with the wrong bits shows. The values are those the checks of unit.c
 * expect.
 */
#ifndef MAD_SAMPLES_H
#define MAD_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../ibtracectl.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put24(uint8_t *p, uint32_t v)
{
	p[0] = v >> 16;
	put16(p + 1, v);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

/* fe80::2:c903:0:N */
static void put_gid(uint8_t *p, uint16_t n)
{
	put64(p, 0xfe80000000000000ull);
	put64(p + 8, 0x0002c90300000000ull | n);
}

/* A zeroed MAD with its common header; TID 0x0000000112345600 + class */
static void mad_hdr(uint8_t *m, uint8_t mgmt_class, uint8_t method,
		    uint16_t attr_id, uint32_t attr_mod)
{
	memset(m, 0, IBT_MAD_SIZE);
	m[0] = 1;
	m[1] = mgmt_class;
	m[2] = mgmt_class == 0x03 ? 2 : 1;
	m[3] = method;
	put64(m + 8, 0x0000000112345600ull | mgmt_class);
	put16(m + 16, attr_id);
	put32(m + 20, attr_mod);
}

/*
 * A directed-route SMP: D @d, hop pointer 2 of 2 hops, permissive DR
 * LIDs, M_Key 0x1122334455667788, initial path 1,3, return path 2,1.
 */
static void mad_dr(uint8_t *m, uint16_t attr_id, uint8_t method, bool d)
{
	mad_hdr(m, 0x81, method, attr_id, 0);
	put16(m + 4, d ? 0x8000 : 0);
	m[6] = 2;
	m[7] = 2;
	put64(m + 24, 0x1122334455667788ull);
	put16(m + 32, 0xffff);
	put16(m + 34, 0xffff);
	m[129] = 1;
	m[130] = 3;
	m[193] = 2;
	m[194] = 1;
}

static void ms_dr_node_info(uint8_t *m)
{
	uint8_t *d = m + 64;

	mad_dr(m, 0x0011, 0x81, true);
	d[0] = 1;
	d[1] = 1;
	d[2] = 2;				/* switch */
	d[3] = 36;
	put64(d + 4, 0x0002c90300005678ull);
	put64(d + 12, 0x0002c90300001234ull);
	put64(d + 20, 0x0002c90300001235ull);
	put16(d + 28, 8);
	put16(d + 30, 0xcb20);
	put32(d + 32, 0x000000a1);
	d[36] = 7;
	put24(d + 37, 0x0002c9);
}

static void ms_lid_port_info(uint8_t *m)
{
	uint8_t *d = m + 64;

	mad_hdr(m, 0x01, 0x81, 0x0015, 3);
	put64(m + 24, 0x0102030405060708ull);
	put64(d, 0x0102030405060708ull);	/* M_Key */
	put64(d + 8, 0xfe80000000000001ull);
	put16(d + 16, 0x0012);			/* LID */
	put16(d + 18, 0x0001);
	put32(d + 20, 0x0251084a);
	put16(d + 24, 0x0003);
	put16(d + 26, 15);
	d[28] = 3;
	d[29] = 0x03;
	d[30] = 0x17;
	d[31] = 0x02;
	d[32] = 0x74;		/* speed supported 7, state 4 */
	d[33] = 0x52;		/* phys state 5, down default 2 */
	d[34] = 0x42;		/* protect bits 1, LMC 2 */
	d[35] = 0x17;		/* speed active 1, enabled 7 */
	d[36] = 0x53;		/* neighbor MTU 5, SM SL 3 */
	d[37] = 0x41;		/* VLCap 4, InitType 1 */
	d[38] = 8;
	d[39] = 9;
	d[40] = 10;
	d[41] = 0x24;		/* InitTypeReply 2, MTUCap 4 */
	d[42] = 0xd3;		/* VLStallCount 6, HOQLife 19 */
	d[43] = 0x4a;		/* OperationalVLs 4, flags 1,0,1,0 */
	put16(d + 44, 0x0101);
	put16(d + 46, 0x0203);
	put16(d + 48, 0x0304);
	d[50] = 32;
	d[51] = 0xd2;		/* reregister 1, trap suppr. 2, timeout 18 */
	d[52] = 0xf1;		/* reserved bits set, RespTimeValue 17 */
	d[53] = 0xbd;		/* LocalPhyErrors 11, OverrunErrors 13 */
	put16(d + 54, 0x0506);
	put32(d + 56, 0xff070809);	/* reserved byte set, latency */
	put16(d + 60, 0x0a0b);
	d[62] = 0x13;		/* ext active 1, ext supported 3 */
	d[63] = 0xfe;		/* reserved bits set, ext enabled 30 */
}

static void ms_dr_node_desc(uint8_t *m)
{
	static const char desc[] = "switch \"S1\"\x01\xc3\xa9 end";

	mad_dr(m, 0x0010, 0x01, false);
	memcpy(m + 64, desc, sizeof(desc));
	memset(m + 64 + sizeof(desc), 'x', 8);	/* after the NUL */
}

static void ms_switch_info(uint8_t *m)
{
	uint8_t *d = m + 64;

	mad_hdr(m, 0x01, 0x81, 0x0012, 0);
	put16(m + 4, 0x001c);			/* invalid value */
	put16(d, 49152);
	put16(d + 2, 16);
	put16(d + 4, 1024);
	put16(d + 6, 0x0123);
	d[8] = 4;
	d[9] = 5;
	d[10] = 6;
	d[11] = 0x8e;		/* LifeTimeValue 17, change 1, optimized 2 */
	put16(d + 12, 0x0203);
	put16(d + 14, 32);
	d[16] = 0xa8;		/* 1, 0, 1, 0, EnhancedPort0 1 */
	put16(d + 18, 0xc0ff);
}

static void ms_guid_info(uint8_t *m)
{
	int i;

	mad_hdr(m, 0x01, 0x81, 0x0014, 1);
	for (i = 0; i < 8; i++)
		put64(m + 64 + 8 * i, 0x0002c9030000a000ull + i);
}

static void ms_pkey_table(uint8_t *m)
{
	int i;

	mad_hdr(m, 0x01, 0x81, 0x0016, 0x00050002);
	for (i = 0; i < 32; i++)
		put16(m + 64 + 2 * i, 0x7000 + i);
	put16(m + 64, 0xffff);
	put16(m + 66, 0x8001);
}

static void ms_sl_to_vl(uint8_t *m)
{
	int i;

	mad_hdr(m, 0x01, 0x81, 0x0017, 0x0102);
	for (i = 0; i < 8; i++)
		m[64 + i] = 0x10 * (2 * i) + 2 * i + 1;
}

static void ms_vl_arb(uint8_t *m)
{
	int i;

	mad_hdr(m, 0x01, 0x81, 0x0018, 0x00030004);
	for (i = 0; i < 32; i++) {
		m[64 + 2 * i] = 0xf0 | (i % 8);	/* reserved bits set */
		m[65 + 2 * i] = 2 * i + 1;
	}
}

static void ms_lft(uint8_t *m)
{
	int i;

	mad_hdr(m, 0x01, 0x81, 0x0019, 2);
	for (i = 0; i < 64; i++)
		m[64 + i] = i % 5 == 4 ? 255 : i % 37;
}

static void ms_mft(uint8_t *m)
{
	int i;

	mad_hdr(m, 0x01, 0x81, 0x001b, 0x10000003);
	for (i = 0; i < 32; i++)
		put16(m + 64 + 2 * i, (0x8000 >> (i % 16)) | i);
}

/* A PathRecord @n (0, 1) of an SA MAD's data @d */
static void put_path(uint8_t *d, int n)
{
	put64(d, 0x1000000000000001ull + n);
	put_gid(d + 8, 0x1235 + n);
	put_gid(d + 24, 0x1234);
	put16(d + 40, 0x0012 + n);
	put16(d + 42, 0x0034);
	put32(d + 44, 0x81234540);	/* raw 1, flow label 0x12345, HL 64 */
	d[48] = 40;
	d[49] = 0x85;		/* reversible 1, NumbPath 5 */
	put16(d + 50, 0xffff);
	put16(d + 52, 0xabc5);	/* QoSClass 0xabc, SL 5 */
	d[54] = 0x84;		/* MTU selector 2, MTU 4 */
	d[55] = 0x46;		/* rate selector 1, rate 6 */
	d[56] = 0xd2;		/* life time selector 3, life time 18 */
	d[57] = 7;
}

static void ms_sa_path(uint8_t *m)
{
	mad_hdr(m, 0x03, 0x81, 0x0035, 0);
	put64(m + 36, 0x00000000abcdef01ull);
	put16(m + 44, 8);
	put64(m + 48, 0x0000000000003030ull);
	put_path(m + 56, 0);
}

/*
 * A GetTableResp of 2 PathRecords in one RMPP segment: room for 3, but
 * the PayloadLength says 2 (20 bytes of SA header, 2 * 64).
 */
static void ms_sa_path_table(uint8_t *m)
{
	mad_hdr(m, 0x03, 0x92, 0x0035, 0);
	m[24] = 1;
	m[25] = 1;		/* DATA */
	m[26] = 0x97;		/* RRespTime 18, active, first, last */
	put32(m + 28, 1);
	put32(m + 32, 20 + 2 * 64);
	put16(m + 44, 8);
	put_path(m + 56, 0);
	put_path(m + 56 + 64, 1);
	put_path(m + 56 + 128, 1);	/* past the payload */
}

/* A ClassPortInfo at @d */
static void put_cpi(uint8_t *d)
{
	d[0] = 1;
	d[1] = 1;
	put16(d + 2, 0x1600);
	put32(d + 4, 0x123 << 5 | 18);	/* CapMask2 0x123, RespTime 18 */
	put_gid(d + 8, 0x0042);
	put32(d + 24, 0x40354321);	/* TC 0x40, SL 3, FL 0x54321 */
	put16(d + 28, 0x0042);
	put16(d + 30, 0xffff);
	put32(d + 32, 0xff000123);	/* reserved byte set, QP 0x123 */
	put32(d + 36, 0x80010000);
	put_gid(d + 40, 0x0007);
	put32(d + 56, 0x20512345);	/* TC 0x20, SL 5, FL 0x12345 */
	put16(d + 60, 0x0007);
	put16(d + 62, 0x7fff);
	put32(d + 64, 0x40000001);	/* HopLimit 64, QP 1 */
	put32(d + 68, 0x00000011);
}

static void ms_pma_cpi(uint8_t *m)
{
	mad_hdr(m, 0x04, 0x81, 0x0001, 0);
	put_cpi(m + 64);
}

static void ms_pma_counters(uint8_t *m)
{
	uint8_t *d = m + 64;

	mad_hdr(m, 0x04, 0x81, 0x0012, 0);
	d[1] = 3;
	put16(d + 2, 0x1234);
	put16(d + 4, 0x0102);
	d[6] = 3;
	d[7] = 4;
	put16(d + 8, 0x0105);
	put16(d + 10, 0x0106);
	put16(d + 12, 0x0107);
	put16(d + 14, 0x0108);
	d[16] = 9;
	d[17] = 10;
	d[18] = 0xff;		/* reserved */
	d[19] = 0xbc;		/* LocalLinkIntegrity 11, BufferOverrun 12 */
	put16(d + 22, 0x010d);
	put32(d + 24, 0x10000001);
	put32(d + 28, 0x10000002);
	put32(d + 32, 0x10000003);
	put32(d + 36, 0x10000004);
	put32(d + 40, 0x10000005);
}

static void ms_pma_counters_ext(uint8_t *m)
{
	uint8_t *d = m + 64;
	int i;

	mad_hdr(m, 0x04, 0x81, 0x001d, 0);
	d[1] = 1;
	put16(d + 2, 0x00ff);
	for (i = 0; i < 8; i++)
		put64(d + 8 + 8 * i, (i + 1) * 0x0101010101010101ull);
}

/* A MAD of ibtrace's class 0x30, vendor OUI @oui */
static void mad_ibtrace(uint8_t *m, uint8_t method, uint16_t attr_id,
			uint32_t oui)
{
	mad_hdr(m, IBTRACE_MGMT_CLASS, method, attr_id, 0);
	put24(m + 37, oui);
}

static void ms_ibt_cpi(uint8_t *m)
{
	mad_ibtrace(m, 0x81, IBTRACE_ATTR_CLASS_PORT_INFO, IBTRACE_OUI);
	put_cpi(m + 40);
}

static void ms_ibt_sroute(uint8_t *m)
{
	uint8_t *d = m + 40;

	mad_ibtrace(m, 0x81, IBTRACE_ATTR_SOURCE_ROUTE, IBTRACE_OUI);
	memset(d, 9, 2 + IBTRACE_SROUTE_MAX_HOPS);
	d[IBTRACE_SROUTE_ACTUAL_PORT] = 2;
	d[IBTRACE_SROUTE_HOP_COUNT] = 3;
	d[IBTRACE_SROUTE_VECTOR] = 1;
	d[IBTRACE_SROUTE_VECTOR + 1] = 4;
	d[IBTRACE_SROUTE_VECTOR + 2] = 2;
}

/* Not decoded: a known SMP attribute without a decoder */
static void ms_sm_info(uint8_t *m)
{
	mad_dr(m, 0x0020, 0x81, true);
}

/* ... SourceRoute in class 0x30 of another vendor */
static void ms_other_oui(uint8_t *m)
{
	mad_ibtrace(m, 0x81, IBTRACE_ATTR_SOURCE_ROUTE, 0x0002c9);
}

/* ... the second RMPP segment of a table */
static void ms_sa_segment2(uint8_t *m)
{
	ms_sa_path_table(m);
	m[26] = 0x01;		/* active only */
	put32(m + 28, 2);
}

/* ... a method without a name */
static void ms_bad_method(uint8_t *m)
{
	ms_dr_node_info(m);
	m[3] = 0x7f;
}

/* ... a CM attribute */
static void ms_cm_req(uint8_t *m)
{
	mad_hdr(m, 0x07, 0x03, 0x0010, 0);
}

struct mad_sample {
	const char *name;
	void (*build)(uint8_t *m);
	size_t len;		/* what the decoder is given */
	bool decoded;		/* ibt_mad_print_attr() decodes it */
};

enum {
	MS_DR_NODE_INFO,
	MS_LID_PORT_INFO,
	MS_DR_NODE_DESC,
	MS_SWITCH_INFO,
	MS_GUID_INFO,
	MS_PKEY_TABLE,
	MS_SL_TO_VL,
	MS_VL_ARB,
	MS_LFT,
	MS_MFT,
	MS_SA_PATH,
	MS_SA_PATH_TABLE,
	MS_PMA_CPI,
	MS_PMA_COUNTERS,
	MS_PMA_COUNTERS_EXT,
	MS_IBT_CPI,
	MS_IBT_SROUTE,
	MS_SM_INFO,
	MS_OTHER_OUI,
	MS_SA_SEGMENT2,
	MS_BAD_METHOD,
	MS_CM_REQ,
	MS_SHORT_PORT_INFO,
	MS_TINY,
	MS_COUNT
};

static const struct mad_sample mad_samples[MS_COUNT] = {
	[MS_DR_NODE_INFO] = { "dr NodeInfo", ms_dr_node_info, 256, true },
	[MS_LID_PORT_INFO] = { "lid PortInfo", ms_lid_port_info, 256, true },
	[MS_DR_NODE_DESC] = { "dr NodeDescription", ms_dr_node_desc, 256,
			      true },
	[MS_SWITCH_INFO] = { "lid SwitchInfo", ms_switch_info, 256, true },
	[MS_GUID_INFO] = { "lid GUIDInfo", ms_guid_info, 256, true },
	[MS_PKEY_TABLE] = { "lid P_KeyTable", ms_pkey_table, 256, true },
	[MS_SL_TO_VL] = { "lid SLtoVLMappingTable", ms_sl_to_vl, 256, true },
	[MS_VL_ARB] = { "lid VLArbitrationTable", ms_vl_arb, 256, true },
	[MS_LFT] = { "lid LinearForwardingTable", ms_lft, 256, true },
	[MS_MFT] = { "lid MulticastForwardingTable", ms_mft, 256, true },
	[MS_SA_PATH] = { "sa PathRecord", ms_sa_path, 256, true },
	[MS_SA_PATH_TABLE] = { "sa PathRecord table", ms_sa_path_table, 256,
			       true },
	[MS_PMA_CPI] = { "pma ClassPortInfo", ms_pma_cpi, 256, true },
	[MS_PMA_COUNTERS] = { "pma PortCounters", ms_pma_counters, 256,
			      true },
	[MS_PMA_COUNTERS_EXT] = { "pma PortCountersExtended",
				  ms_pma_counters_ext, 256, true },
	[MS_IBT_CPI] = { "ibtrace ClassPortInfo", ms_ibt_cpi, 256, true },
	[MS_IBT_SROUTE] = { "ibtrace SourceRoute", ms_ibt_sroute, 256, true },
	[MS_SM_INFO] = { "dr SMInfo", ms_sm_info, 256, false },
	[MS_OTHER_OUI] = { "vendor 0x30 other OUI", ms_other_oui, 256,
			   false },
	[MS_SA_SEGMENT2] = { "sa segment 2", ms_sa_segment2, 256, false },
	[MS_BAD_METHOD] = { "method 0x7f", ms_bad_method, 256, false },
	[MS_CM_REQ] = { "cm ConnectRequest", ms_cm_req, 256, false },
	[MS_SHORT_PORT_INFO] = { "lid PortInfo short", ms_lid_port_info, 100,
				 false },
	[MS_TINY] = { "tiny", ms_dr_node_info, 10, false },
};

#endif /* MAD_SAMPLES_H */
