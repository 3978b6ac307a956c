// SPDX-License-Identifier: GPL-2.0-only
/*
 * MAD decoding: the common header of a MAD (IBA 13.4.2) and what each
 * class adds to it (SMP 14.2.1, SA 15.2.1, RMPP 13.6.2, vendor range 2
 * 13.4.3), the fields of the attributes the tool knows, and the names of
 * classes, methods and attributes, both ways; and the other way, a MAD
 * composed from its fields (ibt_mad_compose(), for sim inject, which
 * hands the fabric a whole MAD). Every field is read at its
 * byte and bit offset, big-endian as on the wire, and printed once
 * through the out.c helpers: text " key value", the same key in JSON.
 * Unit-tested by tests/unit.c (which records what is printed), printed
 * whole by tests/golden.c.
 *
 * Text: the header is one line, then one for the SMP's M_Key and
 * directed-route fields, one for the DR paths, one for the SA and RMPP
 * headers; the attribute's fields follow on lines of their own, indented
 * by two spaces:
 *
 *    base_version 1 class 0x81 (SubnDirectedRoute) class_version 1
 *    method 0x81 (GetResp) status 0x0000 tid 0x0000000112345678
 *    attr 0x0011 (NodeInfo) attr_mod 0x00000000         (one line)
 *     hop_ptr 2 hop_cnt 2 dr_slid 0xffff dr_dlid 0xffff d 1 m_key 0x...
 *     initial_path 1,3 return_path 2,1
 *     base_version 1 class_version 1 node_type 2 (switch) num_ports 36
 *
 * JSON: the header in object "mad", the attribute in object "attr" of the
 * object the caller has open. Numbers are JSON numbers (text: hexadecimal
 * for LIDs, masks, codes, IDs); 64-bit identifiers (TID, keys, GUIDs,
 * GID prefix, ServiceID, ComponentMask) are "0x%016llx" strings; GIDs
 * are strings in IPv6 form. A value with a name also has "KEY_name"
 * (text "KEY N (name)").
 *
 *   mad: base_version, class, class_name, class_version, method,
 *     method_name, status (the 15 bits without D in a DR SMP),
 *     status_text, class_specific (not in SMPs), tid, attr, attr_name,
 *     attr_mod; short_len (number of bytes, when the MAD is shorter than
 *     its 24-byte header: nothing else then);
 *     SMPs: m_key; directed route: hop_ptr, hop_cnt, dr_slid, dr_dlid, d,
 *     and when hop_cnt is not 0, initial_path and return_path (arrays of
 *     the hop_cnt ports from index 1);
 *     vendor range 2 (0x30..0x4f): oui;
 *     SA and vendor range 2, when RMPPType is not 0: rmpp_version,
 *     rmpp_type, r_resp_time, rmpp_flags, rmpp_status, rmpp_data1,
 *     rmpp_data2; SA: sm_key, attr_offset, component_mask.
 *   attr: the attribute's fields, named after the IBA's in snake_case
 *     (see the tables below); in an SA GetTableResp, GetTraceTableResp or
 *     GetMultiResp, "records", an array of one object per whole record
 *     the MAD holds (text: a line "record N" before each).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ibtracectl.h"

/* Byte offsets in a MAD */
#define MAD_HDR_LEN		24	/* the common header */
#define MAD_STATUS		4
#define MAD_CLASS_SPECIFIC	6
#define MAD_TID			8
#define MAD_ATTR_ID		16
#define MAD_ATTR_MOD		20
#define SMP_HOP_PTR		6
#define SMP_HOP_CNT		7
#define SMP_M_KEY		24
#define SMP_DR_SLID		32
#define SMP_DR_DLID		34
#define SMP_INITIAL_PATH	128
#define SMP_RETURN_PATH		192
#define SMP_PATH_LEN		64
#define RMPP_VERSION		24	/* SA and vendor range 2 */
#define RMPP_TYPE		25
#define RMPP_FLAGS		26	/* RRespTime (7:3), RMPPFlags (2:0) */
#define RMPP_STATUS		27
#define RMPP_DATA1		28
#define RMPP_DATA2		32
#define RMPP_END		36
#define SA_SM_KEY		36
#define SA_ATTR_OFFSET		44
#define SA_COMP_MASK		48
#define SA_DATA			56
#define SA_HDR_LEN		(SA_DATA - RMPP_END)	/* in PayloadLength */
#define VENDOR_OUI		37
#define VENDOR_DATA		40

/* Management classes (IBA 13.4.4) */
#define CLASS_SMP_LID		0x01
#define CLASS_SA		0x03
#define CLASS_PERF		0x04
#define CLASS_BM		0x05
#define CLASS_DEV_MGT		0x06
#define CLASS_CM		0x07
#define CLASS_SNMP		0x08
#define CLASS_VENDOR1_FIRST	0x09
#define CLASS_VENDOR1_LAST	0x0f
#define CLASS_DEV_ADM		0x10
#define CLASS_BOOT_MGT		0x11
#define CLASS_BIS		0x12
#define CLASS_CONG_MGT		0x21
#define CLASS_VENDOR2_FIRST	0x30
#define CLASS_VENDOR2_LAST	0x4f
#define CLASS_SMP_DR		0x81

/* Methods (IBA 13.4.5, 15.2.2) */
#define METHOD_RESP		0x80
#define METHOD_GET_TABLE	0x12
#define METHOD_GET_TRACE_TABLE	0x13
#define METHOD_GET_MULTI	0x14

#define RMPP_TYPE_DATA		1
#define RMPP_FLAG_ACTIVE	0x1
#define RMPP_FLAG_FIRST		0x2

#define SMP_STATUS_D		0x8000	/* direction bit of a DR SMP */
#define MAD_TEXT_MAX		96	/* a status text, a hex number */

static uint16_t get16(const uint8_t *p, size_t off)
{
	return (uint16_t)(p[off] << 8 | p[off + 1]);
}

static uint32_t get32(const uint8_t *p, size_t off)
{
	return (uint32_t)get16(p, off) << 16 | get16(p, off + 2);
}

static uint64_t get64(const uint8_t *p, size_t off)
{
	return (uint64_t)get32(p, off) << 32 | get32(p, off + 4);
}

static uint32_t get24(const uint8_t *p, size_t off)
{
	return (uint32_t)p[off] << 16 | get16(p, off + 1);
}

/*
 * The @width bits (1..64) starting @bit bits into @p, bit 0 being the
 * most significant bit of byte 0, as the IBA's tables count them. A
 * field of more than 57 bits must start on a byte.
 */
static uint64_t get_bits(const uint8_t *p, unsigned int bit,
			 unsigned int width)
{
	unsigned int end = bit + width;
	uint64_t v = 0;
	unsigned int i;

	for (i = bit / 8; i < (end + 7) / 8; i++)
		v = v << 8 | p[i];
	v >>= (8 - end % 8) % 8;
	return width < 64 ? v & ((1ULL << width) - 1) : v;
}

static bool is_smp(uint8_t mgmt_class)
{
	return mgmt_class == CLASS_SMP_LID || mgmt_class == CLASS_SMP_DR;
}

static bool is_vendor2(uint8_t mgmt_class)
{
	return mgmt_class >= CLASS_VENDOR2_FIRST &&
	       mgmt_class <= CLASS_VENDOR2_LAST;
}

/* The classes whose MADs carry an RMPP header (SA, vendor range 2). */
static bool has_rmpp(uint8_t mgmt_class)
{
	return mgmt_class == CLASS_SA || is_vendor2(mgmt_class);
}

/* Composing */

static void set16(uint8_t *p, size_t off, uint16_t v)
{
	p[off] = v >> 8;
	p[off + 1] = v;
}

static void set32(uint8_t *p, size_t off, uint32_t v)
{
	set16(p, off, v >> 16);
	set16(p, off + 2, v);
}

static void set64(uint8_t *p, size_t off, uint64_t v)
{
	set32(p, off, v >> 32);
	set32(p, off + 4, v);
}

void ibt_mad_compose(const struct ibt_mad_req *r, uint64_t tid, uint8_t *mad)
{
	uint8_t c = r->mgmt_class;
	size_t off = ibtrace_mad_data_offset(c);

	memset(mad, 0, IBT_MAD_SIZE);
	mad[0] = r->has_base_version ? r->base_version : 1;
	mad[1] = c;
	mad[2] = r->has_class_version ? r->class_version : 1;
	mad[3] = r->method;
	set16(mad, MAD_STATUS, r->status);
	set64(mad, MAD_TID, tid);
	set16(mad, MAD_ATTR_ID, r->attr_id);
	set32(mad, MAD_ATTR_MOD, r->attr_mod);
	if (is_smp(c)) {
		set64(mad, SMP_M_KEY, r->mkey);
		if (c == CLASS_SMP_DR) {
			mad[SMP_HOP_PTR] = r->hop_ptr;
			mad[SMP_HOP_CNT] = r->dr_len;
			set16(mad, SMP_DR_SLID,
			      r->has_dr_slid ? r->dr_slid : 0xffff);
			set16(mad, SMP_DR_DLID,
			      r->has_dr_dlid ? r->dr_dlid : 0xffff);
			memcpy(mad + SMP_INITIAL_PATH + 1, r->dr, r->dr_len);
		}
	} else if (c == CLASS_SA) {
		set64(mad, SA_COMP_MASK, r->comp_mask);
	} else if (is_vendor2(c)) {
		mad[VENDOR_OUI] = r->oui >> 16;
		set16(mad, VENDOR_OUI + 1, r->oui);
	}
	memcpy(mad + off, r->data,
	       r->data_len < IBT_MAD_SIZE - off ? r->data_len : IBT_MAD_SIZE - off);
}

/* Printing */

void ibt_mad_print_brief(struct ibt *ctx, const uint8_t *m, size_t len)
{
	const char *cls, *meth, *attr;
	uint8_t mgmt_class, method;
	uint16_t attr_id;
	char tid[24];

	if (len < MAD_HDR_LEN)
		return;
	mgmt_class = m[1];
	method = m[3];
	attr_id = get16(m, MAD_ATTR_ID);
	cls = ibt_mad_class_name(mgmt_class);
	meth = ibt_mad_method_name(method);
	attr = ibt_mad_attr_name(mgmt_class, attr_id);
	snprintf(tid, sizeof(tid), "0x%016" PRIx64, get64(m, MAD_TID));

	if (ctx->json) {
		ibt_out_u64(ctx, "class", mgmt_class);
		ibt_out_u64(ctx, "method", method);
		ibt_out_u64(ctx, "attr_id", attr_id);
		if (cls)
			ibt_out_str(ctx, "class_name", cls);
		if (meth)
			ibt_out_str(ctx, "method_name", meth);
		if (attr)
			ibt_out_str(ctx, "attr_name", attr);
		ibt_out_str(ctx, "tid", tid);
		ibt_out_u64(ctx, "status", get16(m, MAD_STATUS));
		return;
	}
	if (cls)
		ibt_out_text(ctx, " %s", cls);
	else
		ibt_out_text(ctx, " class 0x%02x", mgmt_class);
	if (meth)
		ibt_out_text(ctx, " %s", meth);
	else
		ibt_out_text(ctx, " method 0x%02x", method);
	if (attr)
		ibt_out_text(ctx, " %s", attr);
	else
		ibt_out_text(ctx, " attr 0x%04x", attr_id);
	ibt_out_text(ctx, " tid %s", tid);
	if (mgmt_class == CLASS_SMP_DR)
		ibt_out_text(ctx, " hop %u/%u", m[SMP_HOP_PTR], m[SMP_HOP_CNT]);
}

/* A 64-bit identifier, "0x%016llx" in text and in JSON. */
static void out_id(struct ibt *ctx, const char *key, uint64_t v)
{
	char s[24];

	snprintf(s, sizeof(s), "0x%016" PRIx64, v);
	ibt_out_str(ctx, key, s);
}

/*
 * Number @v: in text " @key V" (@digits hexadecimal digits after "0x",
 * decimal if 0) and " (@name)" if @name; in JSON @key a number and
 * "@key_name" the name, if @name.
 */
static void out_named(struct ibt *ctx, const char *key, uint64_t v,
		      int digits, const char *name)
{
	char name_key[64];

	if (ctx->json) {
		ibt_out_u64(ctx, key, v);
		if (!name)
			return;
		snprintf(name_key, sizeof(name_key), "%s_name", key);
		ibt_out_str(ctx, name_key, name);
		return;
	}
	if (digits)
		ibt_out_text(ctx, " %s 0x%0*" PRIx64, key, digits, v);
	else
		ibt_out_text(ctx, " %s %" PRIu64, key, v);
	if (name)
		ibt_out_text(ctx, " (%s)", name);
}

/* Number @v, with @digits hexadecimal digits in text. */
static void out_xn(struct ibt *ctx, const char *key, uint64_t v, int digits)
{
	out_named(ctx, key, v, digits, NULL);
}

/* The start of an indented text line (the first field adds a space). */
static void out_line(struct ibt *ctx)
{
	ibt_out_text(ctx, " ");
}

enum list_fmt {
	LIST_U8,	/* bytes, decimal */
	LIST_X16,	/* 16-bit numbers, "0x%04x" in text */
	LIST_ID,	/* 64-bit identifiers, "0x%016llx" strings */
};

/*
 * @n values from @p: text " @key a,b,c" ("-" if none), JSON an array
 * @key of numbers or strings (LIST_ID).
 */
static void out_list(struct ibt *ctx, const char *key, const uint8_t *p,
		     size_t n, enum list_fmt fmt)
{
	char s[24];
	size_t i;

	ibt_out_arr_begin(ctx, key);
	ibt_out_text(ctx, " %s %s", key, n ? "" : "-");
	for (i = 0; i < n; i++) {
		uint64_t v;

		if (fmt == LIST_ID) {
			v = get64(p, 8 * i);
			snprintf(s, sizeof(s), "0x%016" PRIx64, v);
		} else if (fmt == LIST_X16) {
			v = get16(p, 2 * i);
			snprintf(s, sizeof(s), "0x%04" PRIx64, v);
		} else {
			v = p[i];
			snprintf(s, sizeof(s), "%" PRIu64, v);
		}
		if (!ctx->json)
			ibt_out_text(ctx, "%s%s", i ? "," : "", s);
		else if (fmt == LIST_ID)
			ibt_out_str(ctx, NULL, s);
		else
			ibt_out_u64(ctx, NULL, v);
	}
	ibt_out_arr_end(ctx);
}

/* Fields of an attribute, as tables */

enum fld_fmt {
	FMT_U,		/* decimal */
	FMT_X,		/* hexadecimal in text */
	FMT_ID,		/* 64 bits: "0x%016llx" in text and JSON */
	FMT_GID,	/* 128 bits: a GID */
	FMT_NAME,	/* decimal, and the value's name when it has one */
	FMT_LINE,	/* no field: the text line ends here */
};

/*
 * A field: @width bits from bit @bit of the attribute (bit 0: the most
 * significant one of byte 0), printed as @fmt under @key; FMT_NAME's
 * names come from @name (NULL: no name for that value).
 */
struct fld {
	const char *key;
	uint16_t bit;
	uint8_t width;
	uint8_t fmt;
	const char *(*name)(unsigned int v);
};

/* @width bits at bit @bit (0: most significant) of byte @byte */
#define FLD(key, byte, bit, width, fmt, fn) \
	{ key, (byte) * 8 + (bit), width, fmt, fn }
#define FU(key, byte, bit, width)	FLD(key, byte, bit, width, FMT_U, NULL)
#define FX(key, byte, bit, width)	FLD(key, byte, bit, width, FMT_X, NULL)
#define FN(key, byte, bit, width, fn)	FLD(key, byte, bit, width, FMT_NAME, fn)
#define FID(key, byte)			FLD(key, byte, 0, 64, FMT_ID, NULL)
#define FGID(key, byte)			FLD(key, byte, 0, 128, FMT_GID, NULL)
#define FLINE				FLD(NULL, 0, 0, 0, FMT_LINE, NULL)

static void print_fld(struct ibt *ctx, const uint8_t *d, const struct fld *f)
{
	uint64_t v;

	if (f->fmt == FMT_GID) {
		ibt_out_gid(ctx, f->key, d + f->bit / 8);
		return;
	}
	v = get_bits(d, f->bit, f->width);
	switch (f->fmt) {
	case FMT_X:
		ibt_out_hex(ctx, f->key, v);
		break;
	case FMT_ID:
		out_id(ctx, f->key, v);
		break;
	case FMT_NAME:
		out_named(ctx, f->key, v, 0, f->name(v));
		break;
	default:
		ibt_out_u64(ctx, f->key, v);
		break;
	}
}

/* The fields @f[@n] of the attribute @d (@len bytes), on text lines. */
static void print_flds(struct ibt *ctx, const uint8_t *d, size_t len,
		       const struct fld *f, size_t n)
{
	bool open = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (f[i].fmt == FMT_LINE) {
			if (open)
				ibt_out_eol(ctx);
			open = false;
			continue;
		}
		if (f[i].bit + f[i].width > len * 8)
			continue;
		if (!open)
			out_line(ctx);
		open = true;
		print_fld(ctx, d, &f[i]);
	}
	if (open)
		ibt_out_eol(ctx);
}

/* Names of values: NULL for a value without one */

static const char *node_type_name(unsigned int v)
{
	if (v < IBTRACE_NODE_CA || v > IBTRACE_NODE_ROUTER)
		return NULL;
	return ibt_node_type_str(v);
}

static const char *port_state_name(unsigned int v)
{
	if (v > IBTRACE_PORT_STATE_ACTIVE_DEFER)
		return NULL;
	return ibt_port_state_str(v);
}

/* PortInfo.PortPhysicalState (IBA 14.2.5.6) */
static const char *phys_state_name(unsigned int v)
{
	static const char *const names[] = {
		[1] = "sleep",
		[2] = "polling",
		[3] = "disabled",
		[4] = "port_configuration_training",
		[5] = "link_up",
		[6] = "link_error_recovery",
		[7] = "phy_test",
	};

	return v < IBT_ARRAY_SIZE(names) ? names[v] : NULL;
}

/* SMP attributes (IBA 14.2.5) */

/* NodeInfo (14.2.5.3) */
static const struct fld node_info[] = {
	FU("base_version", 0, 0, 8),
	FU("class_version", 1, 0, 8),
	FN("node_type", 2, 0, 8, node_type_name),
	FU("num_ports", 3, 0, 8),
	FLINE,
	FID("system_image_guid", 4),
	FID("node_guid", 12),
	FID("port_guid", 20),
	FLINE,
	FU("partition_cap", 28, 0, 16),
	FX("device_id", 30, 0, 16),
	FX("revision", 32, 0, 32),
	FU("local_port_num", 36, 0, 8),
	FX("vendor_id", 37, 0, 24),
};

/* SwitchInfo (14.2.5.4) */
static const struct fld switch_info[] = {
	FU("linear_fdb_cap", 0, 0, 16),
	FU("random_fdb_cap", 2, 0, 16),
	FU("multicast_fdb_cap", 4, 0, 16),
	FX("linear_fdb_top", 6, 0, 16),
	FU("default_port", 8, 0, 8),
	FU("default_mcast_primary_port", 9, 0, 8),
	FU("default_mcast_not_primary_port", 10, 0, 8),
	FLINE,
	FU("life_time_value", 11, 0, 5),
	FU("port_state_change", 11, 5, 1),
	FU("optimized_sl_to_vl_mapping_programming", 11, 6, 2),
	FU("lids_per_port", 12, 0, 16),
	FU("partition_enforcement_cap", 14, 0, 16),
	FLINE,
	FU("inbound_enforcement_cap", 16, 0, 1),
	FU("outbound_enforcement_cap", 16, 1, 1),
	FU("filter_raw_inbound_cap", 16, 2, 1),
	FU("filter_raw_outbound_cap", 16, 3, 1),
	FU("enhanced_port0", 16, 4, 1),
	FX("multicast_fdb_top", 18, 0, 16),
};

/* PortInfo (14.2.5.6) */
static const struct fld port_info[] = {
	FID("m_key", 0),
	FID("gid_prefix", 8),
	FX("lid", 16, 0, 16),
	FX("master_sm_lid", 18, 0, 16),
	FX("capability_mask", 20, 0, 32),
	FX("diag_code", 24, 0, 16),
	FU("m_key_lease_period", 26, 0, 16),
	FLINE,
	FU("local_port_num", 28, 0, 8),
	FX("link_width_enabled", 29, 0, 8),
	FX("link_width_supported", 30, 0, 8),
	FX("link_width_active", 31, 0, 8),
	FU("link_speed_supported", 32, 0, 4),
	FN("port_state", 32, 4, 4, port_state_name),
	FN("port_phys_state", 33, 0, 4, phys_state_name),
	FU("link_down_default_state", 33, 4, 4),
	FLINE,
	FU("m_key_protect_bits", 34, 0, 2),
	FU("lmc", 34, 5, 3),
	FU("link_speed_active", 35, 0, 4),
	FU("link_speed_enabled", 35, 4, 4),
	FU("neighbor_mtu", 36, 0, 4),
	FU("master_sm_sl", 36, 4, 4),
	FU("vl_cap", 37, 0, 4),
	FX("init_type", 37, 4, 4),
	FU("vl_high_limit", 38, 0, 8),
	FU("vl_arbitration_high_cap", 39, 0, 8),
	FU("vl_arbitration_low_cap", 40, 0, 8),
	FX("init_type_reply", 41, 0, 4),
	FU("mtu_cap", 41, 4, 4),
	FLINE,
	FU("vl_stall_count", 42, 0, 3),
	FU("hoq_life", 42, 3, 5),
	FU("operational_vls", 43, 0, 4),
	FU("partition_enforcement_inbound", 43, 4, 1),
	FU("partition_enforcement_outbound", 43, 5, 1),
	FU("filter_raw_inbound", 43, 6, 1),
	FU("filter_raw_outbound", 43, 7, 1),
	FU("m_key_violations", 44, 0, 16),
	FU("p_key_violations", 46, 0, 16),
	FU("q_key_violations", 48, 0, 16),
	FU("guid_cap", 50, 0, 8),
	FLINE,
	FU("client_reregister", 51, 0, 1),
	FU("multicast_pkey_trap_suppression_enabled", 51, 1, 2),
	FU("subnet_timeout", 51, 3, 5),
	FU("resp_time_value", 52, 3, 5),
	FU("local_phy_errors", 53, 0, 4),
	FU("overrun_errors", 53, 4, 4),
	FU("max_credit_hint", 54, 0, 16),
	FU("link_round_trip_latency", 57, 0, 24),
	FLINE,
	FX("capability_mask2", 60, 0, 16),
	FU("link_speed_ext_active", 62, 0, 4),
	FU("link_speed_ext_supported", 62, 4, 4),
	FU("link_speed_ext_enabled", 63, 3, 5),
};

/*
 * NodeDescription (14.2.5.2): the string, up to its NUL, '.' for a byte
 * that is not printable ASCII; quoted in text.
 */
static void dec_node_desc(struct ibt *ctx, const uint8_t *d, uint32_t attr_mod)
{
	char s[IBT_DESC_MAX];
	size_t i;

	(void)attr_mod;
	for (i = 0; i < sizeof(s) - 1 && d[i]; i++)
		s[i] = d[i] >= 0x20 && d[i] < 0x7f ? (char)d[i] : '.';
	s[i] = '\0';
	if (ctx->json)
		ibt_out_str(ctx, "node_desc", s);
	ibt_out_text(ctx, "  node_desc \"%s\"", s);
	ibt_out_eol(ctx);
}

/* GUIDInfo (14.2.5.5): block attr_mod, 8 GUIDs */
static void dec_guid_info(struct ibt *ctx, const uint8_t *d, uint32_t attr_mod)
{
	out_line(ctx);
	ibt_out_u64(ctx, "block", attr_mod);
	out_list(ctx, "guids", d, 8, LIST_ID);
	ibt_out_eol(ctx);
}

/* P_KeyTable (14.2.5.7): 32 P_Keys of block attr_mod 15:0 (port 31:16) */
static void dec_pkey_table(struct ibt *ctx, const uint8_t *d, uint32_t attr_mod)
{
	out_line(ctx);
	ibt_out_u64(ctx, "block", attr_mod & 0xffff);
	ibt_out_u64(ctx, "port", attr_mod >> 16);
	out_list(ctx, "pkeys", d, 32, LIST_X16);
	ibt_out_eol(ctx);
}

/*
 * SLtoVLMappingTable (14.2.5.8): 16 VLs, 4 bits each, SL 0 first; the
 * ports of a switch in attr_mod (input 15:8, output 7:0).
 */
static void dec_sl_to_vl(struct ibt *ctx, const uint8_t *d, uint32_t attr_mod)
{
	uint8_t vl[16];
	unsigned int i;

	for (i = 0; i < IBT_ARRAY_SIZE(vl); i++)
		vl[i] = get_bits(d, 4 * i, 4);
	out_line(ctx);
	ibt_out_u64(ctx, "in_port", (attr_mod >> 8) & 0xff);
	ibt_out_u64(ctx, "out_port", attr_mod & 0xff);
	out_list(ctx, "sl_to_vl", vl, IBT_ARRAY_SIZE(vl), LIST_U8);
	ibt_out_eol(ctx);
}

/*
 * VLArbitrationTable (14.2.5.9): 32 entries of VL (byte 0, 3:0) and
 * weight (byte 1); block attr_mod 31:16 (1, 2: low priority, 3, 4:
 * high), port 15:0. Text "entries VL:WEIGHT,...", JSON objects.
 */
static void dec_vl_arb(struct ibt *ctx, const uint8_t *d, uint32_t attr_mod)
{
	unsigned int i;

	out_line(ctx);
	ibt_out_u64(ctx, "block", attr_mod >> 16);
	ibt_out_u64(ctx, "port", attr_mod & 0xffff);
	ibt_out_text(ctx, " entries ");
	ibt_out_arr_begin(ctx, "entries");
	for (i = 0; i < 32; i++) {
		unsigned int vl = d[2 * i] & 0xf, weight = d[2 * i + 1];

		if (!ctx->json) {
			ibt_out_text(ctx, "%s%u:%u", i ? "," : "", vl, weight);
			continue;
		}
		ibt_out_obj_begin(ctx, NULL);
		ibt_out_u64(ctx, "vl", vl);
		ibt_out_u64(ctx, "weight", weight);
		ibt_out_obj_end(ctx);
	}
	ibt_out_arr_end(ctx);
	ibt_out_eol(ctx);
}

/* LinearForwardingTable (14.2.5.10): the ports of LIDs 64 * block + i */
static void dec_lft(struct ibt *ctx, const uint8_t *d, uint32_t attr_mod)
{
	out_line(ctx);
	ibt_out_u64(ctx, "block", attr_mod);
	ibt_out_hex(ctx, "first_lid", (uint64_t)attr_mod * 64);
	out_list(ctx, "ports", d, 64, LIST_U8);
	ibt_out_eol(ctx);
}

/*
 * MulticastForwardingTable (14.2.5.12): 32 port masks, of ports
 * 16 * position .. + 15 (attr_mod 31:28) and MLIDs 0xc000 + 32 * block
 * + i (block: attr_mod 8:0).
 */
static void dec_mft(struct ibt *ctx, const uint8_t *d, uint32_t attr_mod)
{
	uint32_t block = attr_mod & 0x1ff;

	out_line(ctx);
	ibt_out_u64(ctx, "block", block);
	ibt_out_u64(ctx, "position", attr_mod >> 28);
	ibt_out_hex(ctx, "first_mlid", IBTRACE_MIN_MULTICAST_LID + 32 * block);
	out_list(ctx, "port_masks", d, 32, LIST_X16);
	ibt_out_eol(ctx);
}

/* Attributes common to the GSI classes (IBA 13.4.8) */

/* ClassPortInfo (13.4.8.1) */
static const struct fld class_port_info[] = {
	FU("base_version", 0, 0, 8),
	FU("class_version", 1, 0, 8),
	FX("capability_mask", 2, 0, 16),
	FX("cap_mask2", 4, 0, 27),
	FU("resp_time_value", 7, 3, 5),
	FLINE,
	FGID("redirect_gid", 8),
	FU("redirect_tc", 24, 0, 8),
	FU("redirect_sl", 25, 0, 4),
	FX("redirect_fl", 25, 4, 20),
	FX("redirect_lid", 28, 0, 16),
	FX("redirect_p_key", 30, 0, 16),
	FX("redirect_qp", 33, 0, 24),
	FX("redirect_q_key", 36, 0, 32),
	FLINE,
	FGID("trap_gid", 40),
	FU("trap_tc", 56, 0, 8),
	FU("trap_sl", 57, 0, 4),
	FX("trap_fl", 57, 4, 20),
	FX("trap_lid", 60, 0, 16),
	FX("trap_p_key", 62, 0, 16),
	FU("trap_hop_limit", 64, 0, 8),
	FX("trap_qp", 65, 0, 24),
	FX("trap_q_key", 68, 0, 32),
};

/* SA attributes (IBA 15.2.5) */

/* PathRecord (15.2.5.16) */
static const struct fld path_record[] = {
	FID("service_id", 0),
	FGID("dgid", 8),
	FGID("sgid", 24),
	FLINE,
	FX("dlid", 40, 0, 16),
	FX("slid", 42, 0, 16),
	FU("raw_traffic", 44, 0, 1),
	FX("flow_label", 44, 4, 20),
	FU("hop_limit", 47, 0, 8),
	FU("tclass", 48, 0, 8),
	FU("reversible", 49, 0, 1),
	FU("numb_path", 49, 1, 7),
	FX("p_key", 50, 0, 16),
	FX("qos_class", 52, 0, 12),
	FU("sl", 53, 4, 4),
	FLINE,
	FU("mtu_selector", 54, 0, 2),
	FU("mtu", 54, 2, 6),
	FU("rate_selector", 55, 0, 2),
	FU("rate", 55, 2, 6),
	FU("packet_life_time_selector", 56, 0, 2),
	FU("packet_life_time", 56, 2, 6),
	FU("preference", 57, 0, 8),
};

/* PerfMgt attributes (IBA 16.1.3, 16.1.4) */

/* PortCounters (16.1.3.5) */
static const struct fld port_counters[] = {
	FU("port_select", 1, 0, 8),
	FX("counter_select", 2, 0, 16),
	FU("symbol_error_counter", 4, 0, 16),
	FU("link_error_recovery_counter", 6, 0, 8),
	FU("link_downed_counter", 7, 0, 8),
	FU("port_rcv_errors", 8, 0, 16),
	FLINE,
	FU("port_rcv_remote_physical_errors", 10, 0, 16),
	FU("port_rcv_switch_relay_errors", 12, 0, 16),
	FU("port_xmit_discards", 14, 0, 16),
	FU("port_xmit_constraint_errors", 16, 0, 8),
	FU("port_rcv_constraint_errors", 17, 0, 8),
	FLINE,
	FU("local_link_integrity_errors", 19, 0, 4),
	FU("excessive_buffer_overrun_errors", 19, 4, 4),
	FU("vl15_dropped", 22, 0, 16),
	FLINE,
	FU("port_xmit_data", 24, 0, 32),
	FU("port_rcv_data", 28, 0, 32),
	FU("port_xmit_pkts", 32, 0, 32),
	FU("port_rcv_pkts", 36, 0, 32),
	FU("port_xmit_wait", 40, 0, 32),
};

/* PortCountersExtended (16.1.4.11) */
static const struct fld port_counters_ext[] = {
	FU("port_select", 1, 0, 8),
	FX("counter_select", 2, 0, 16),
	FLINE,
	FU("port_xmit_data", 8, 0, 64),
	FU("port_rcv_data", 16, 0, 64),
	FU("port_xmit_pkts", 24, 0, 64),
	FU("port_rcv_pkts", 32, 0, 64),
	FLINE,
	FU("port_unicast_xmit_pkts", 40, 0, 64),
	FU("port_unicast_rcv_pkts", 48, 0, 64),
	FU("port_multicast_xmit_pkts", 56, 0, 64),
	FU("port_multicast_rcv_pkts", 64, 0, 64),
};

/* ibtrace's vendor class (uapi/linux/ibtrace.h) */

/* SourceRoute: the port it came in on, the hop count, the route taken */
static void dec_source_route(struct ibt *ctx, const uint8_t *d,
			     uint32_t attr_mod)
{
	size_t n = d[IBTRACE_SROUTE_HOP_COUNT];

	(void)attr_mod;
	if (n > IBTRACE_SROUTE_MAX_HOPS)
		n = IBTRACE_SROUTE_MAX_HOPS;
	out_line(ctx);
	ibt_out_u64(ctx, "actual_port", d[IBTRACE_SROUTE_ACTUAL_PORT]);
	ibt_out_u64(ctx, "hop_count", d[IBTRACE_SROUTE_HOP_COUNT]);
	out_list(ctx, "route", d + IBTRACE_SROUTE_VECTOR, n, LIST_U8);
	ibt_out_eol(ctx);
}

/* Attributes: names, and how to decode those the tool decodes */

/* Which classes an attribute ID belongs to */
enum attr_kind {
	K_COMMON,	/* every class but the SMPs' (13.4.8) */
	K_SMP,		/* 0x01, 0x81 */
	K_SA,
	K_PERF,
	K_CM,
	K_IBTRACE,	/* IBTRACE_MGMT_CLASS */
	K_OTHER,	/* another class: its common attributes only */
};

/*
 * An attribute ID of the classes of @kind: its @name and, when decoded
 * (@size bytes), its fields @flds or its decoder @fn.
 */
struct attr {
	uint8_t kind;
	uint16_t id;
	const char *name;
	uint16_t size;
	const struct fld *flds;
	size_t nflds;
	void (*fn)(struct ibt *ctx, const uint8_t *d, uint32_t attr_mod);
};

#define A(kind, id, name)	{ kind, id, name, 0, NULL, 0, NULL }
#define AF(kind, id, name, size, flds) \
	{ kind, id, name, size, flds, IBT_ARRAY_SIZE(flds), NULL }
#define AFN(kind, id, name, size, fn) \
	{ kind, id, name, size, NULL, 0, fn }

static const struct attr attrs[] = {
	AF(K_COMMON, 0x0001, "ClassPortInfo", 72, class_port_info),
	A(K_COMMON, 0x0002, "Notice"),
	A(K_COMMON, 0x0003, "InformInfo"),

	A(K_SMP, 0x0002, "Notice"),
	AFN(K_SMP, 0x0010, "NodeDescription", 64, dec_node_desc),
	AF(K_SMP, 0x0011, "NodeInfo", 40, node_info),
	AF(K_SMP, 0x0012, "SwitchInfo", 20, switch_info),
	AFN(K_SMP, 0x0014, "GUIDInfo", 64, dec_guid_info),
	AF(K_SMP, 0x0015, "PortInfo", 64, port_info),
	AFN(K_SMP, 0x0016, "P_KeyTable", 64, dec_pkey_table),
	AFN(K_SMP, 0x0017, "SLtoVLMappingTable", 8, dec_sl_to_vl),
	AFN(K_SMP, 0x0018, "VLArbitrationTable", 64, dec_vl_arb),
	AFN(K_SMP, 0x0019, "LinearForwardingTable", 64, dec_lft),
	A(K_SMP, 0x001a, "RandomForwardingTable"),
	AFN(K_SMP, 0x001b, "MulticastForwardingTable", 64, dec_mft),
	A(K_SMP, 0x0020, "SMInfo"),
	A(K_SMP, 0x0030, "VendorDiag"),
	A(K_SMP, 0x0031, "LedInfo"),

	A(K_SA, 0x0011, "NodeRecord"),
	A(K_SA, 0x0012, "PortInfoRecord"),
	A(K_SA, 0x0013, "SLtoVLMappingTableRecord"),
	A(K_SA, 0x0014, "SwitchInfoRecord"),
	A(K_SA, 0x0015, "LinearForwardingTableRecord"),
	A(K_SA, 0x0016, "RandomForwardingTableRecord"),
	A(K_SA, 0x0017, "MulticastForwardingTableRecord"),
	A(K_SA, 0x0018, "SMInfoRecord"),
	A(K_SA, 0x0020, "LinkRecord"),
	A(K_SA, 0x0030, "GuidInfoRecord"),
	A(K_SA, 0x0031, "ServiceRecord"),
	A(K_SA, 0x0033, "P_KeyTableRecord"),
	AF(K_SA, 0x0035, "PathRecord", 64, path_record),
	A(K_SA, 0x0036, "VLArbitrationTableRecord"),
	A(K_SA, 0x0038, "MCMemberRecord"),
	A(K_SA, 0x0039, "TraceRecord"),
	A(K_SA, 0x003a, "MultiPathRecord"),
	A(K_SA, 0x003b, "ServiceAssociationRecord"),
	A(K_SA, 0x00f3, "InformInfoRecord"),

	A(K_PERF, 0x0010, "PortSamplesControl"),
	A(K_PERF, 0x0011, "PortSamplesResult"),
	AF(K_PERF, 0x0012, "PortCounters", 44, port_counters),
	A(K_PERF, 0x0015, "PortRcvErrorDetails"),
	A(K_PERF, 0x0016, "PortXmitDiscardDetails"),
	A(K_PERF, 0x0017, "PortOpRcvCounters"),
	A(K_PERF, 0x0018, "PortFlowCtlCounters"),
	A(K_PERF, 0x0019, "PortVLOpPackets"),
	A(K_PERF, 0x001a, "PortVLOpData"),
	A(K_PERF, 0x001b, "PortVLXmitFlowCtlUpdateErrors"),
	A(K_PERF, 0x001c, "PortVLXmitWaitCounters"),
	AF(K_PERF, 0x001d, "PortCountersExtended", 72, port_counters_ext),
	A(K_PERF, 0x001e, "PortSamplesResultExtended"),
	A(K_PERF, 0x0030, "SwPortVLCongestion"),

	A(K_CM, 0x0010, "ConnectRequest"),
	A(K_CM, 0x0011, "MsgRcptAck"),
	A(K_CM, 0x0012, "ConnectReject"),
	A(K_CM, 0x0013, "ConnectReply"),
	A(K_CM, 0x0014, "ReadyToUse"),
	A(K_CM, 0x0015, "DisconnectRequest"),
	A(K_CM, 0x0016, "DisconnectReply"),
	A(K_CM, 0x0017, "ServiceIDResReq"),
	A(K_CM, 0x0018, "ServiceIDResReqResp"),
	A(K_CM, 0x0019, "LoadAlternatePath"),
	A(K_CM, 0x001a, "AlternatePathResponse"),

	AFN(K_IBTRACE, IBTRACE_ATTR_SOURCE_ROUTE, "SourceRoute",
	    IBTRACE_SROUTE_VECTOR + IBTRACE_SROUTE_MAX_HOPS,
	    dec_source_route),
};

static enum attr_kind class_kind(uint8_t mgmt_class)
{
	switch (mgmt_class) {
	case CLASS_SMP_LID:
	case CLASS_SMP_DR:
		return K_SMP;
	case CLASS_SA:
		return K_SA;
	case CLASS_PERF:
		return K_PERF;
	case CLASS_CM:
		return K_CM;
	case IBTRACE_MGMT_CLASS:
		return K_IBTRACE;
	}
	return K_OTHER;
}

/*
 * Whether the attribute @a is one of class @mgmt_class: one of its kind,
 * or a common one of a class that is not an SMP's.
 */
static bool attr_of(const struct attr *a, uint8_t mgmt_class)
{
	enum attr_kind kind = class_kind(mgmt_class);

	return a->kind == kind || (a->kind == K_COMMON && kind != K_SMP);
}

static const struct attr *find_attr(uint8_t mgmt_class, uint16_t attr_id)
{
	const struct attr *common = NULL;
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(attrs); i++) {
		const struct attr *a = &attrs[i];

		if (a->id != attr_id || !attr_of(a, mgmt_class))
			continue;
		if (a->kind != K_COMMON)
			return a;
		common = a;
	}
	return common;
}

/* Names */

const char *ibt_mad_attr_name(uint8_t mgmt_class, uint16_t attr_id)
{
	const struct attr *a = find_attr(mgmt_class, attr_id);

	return a ? a->name : NULL;
}

/* The classes with a name of their own (not a vendor range's). */
static const char *const class_names[] = {
	[CLASS_SMP_LID]		= "SubnLidRouted",
	[CLASS_SA]		= "SubnAdm",
	[CLASS_PERF]		= "PerfMgt",
	[CLASS_BM]		= "BM",
	[CLASS_DEV_MGT]		= "DevMgt",
	[CLASS_CM]		= "ComMgt",
	[CLASS_SNMP]		= "SNMP",
	[CLASS_DEV_ADM]		= "DevAdm",
	[CLASS_BOOT_MGT]	= "BootMgt",
	[CLASS_BIS]		= "BIS",
	[CLASS_CONG_MGT]	= "CongMgt",
	[CLASS_SMP_DR]		= "SubnDirectedRoute",
};

const char *ibt_mad_class_name(uint8_t mgmt_class)
{
	if (mgmt_class == IBTRACE_MGMT_CLASS)
		return "Ibtrace";
	if (mgmt_class >= CLASS_VENDOR1_FIRST &&
	    mgmt_class <= CLASS_VENDOR1_LAST)
		return "Vendor";
	if (is_vendor2(mgmt_class))
		return "VendorOUI";
	if (mgmt_class < IBT_ARRAY_SIZE(class_names))
		return class_names[mgmt_class];
	return NULL;
}

/* Methods (IBA 13.4.5; the table methods of the SA, 15.2.2) */
static const char *const method_names[] = {
	[0x01] = "Get",
	[0x02] = "Set",
	[0x03] = "Send",
	[0x05] = "Trap",
	[0x06] = "Report",
	[0x07] = "TrapRepress",
	[0x12] = "GetTable",
	[0x13] = "GetTraceTable",
	[0x14] = "GetMulti",
	[0x15] = "Delete",
	[0x81] = "GetResp",
	[0x86] = "ReportResp",
	[0x92] = "GetTableResp",
	[0x93] = "GetTraceTableResp",
	[0x94] = "GetMultiResp",
	[0x95] = "DeleteResp",
};

const char *ibt_mad_method_name(uint8_t method)
{
	return method < IBT_ARRAY_SIZE(method_names) ?
	       method_names[method] : NULL;
}

/* Parsing */

/* Names of attributes: case and underscores do not count ("pkeytable"). */
static bool attr_name_eq(const char *a, const char *b)
{
	for (;; a++, b++) {
		while (*a == '_')
			a++;
		while (*b == '_')
			b++;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		if (!*a)
			return true;
	}
}

int ibt_mad_parse_attr(uint8_t mgmt_class, const char *s, uint16_t *attr_id)
{
	uint32_t v;
	size_t i;

	if (!s || !*s)
		return -1;
	for (i = 0; i < IBT_ARRAY_SIZE(attrs); i++) {
		if (attr_of(&attrs[i], mgmt_class) &&
		    attr_name_eq(s, attrs[i].name)) {
			*attr_id = attrs[i].id;
			return 0;
		}
	}
	if (ibt_parse_u32(s, 0, 0xffff, &v))
		return -1;
	*attr_id = v;
	return 0;
}

int ibt_mad_parse_class(const char *s, uint8_t *mgmt_class)
{
	static const struct {
		const char *name;
		uint8_t mgmt_class;
	} aliases[] = {
		{ "smp-dr",	CLASS_SMP_DR },
		{ "dr",		CLASS_SMP_DR },
		{ "smp-lid",	CLASS_SMP_LID },
		{ "lid",	CLASS_SMP_LID },
		{ "sa",		CLASS_SA },
		{ "pma",	CLASS_PERF },
		{ "perf",	CLASS_PERF },
		{ "ibtrace",	IBTRACE_MGMT_CLASS },
		{ "vendor",	IBTRACE_MGMT_CLASS },
		{ "cm",		CLASS_CM },
	};
	uint32_t v;
	size_t i;

	if (!s || !*s)
		return -1;
	for (i = 0; i < IBT_ARRAY_SIZE(aliases); i++) {
		if (!strcasecmp(s, aliases[i].name)) {
			*mgmt_class = aliases[i].mgmt_class;
			return 0;
		}
	}
	for (i = 0; i < IBT_ARRAY_SIZE(class_names); i++) {
		if (class_names[i] && !strcasecmp(s, class_names[i])) {
			*mgmt_class = i;
			return 0;
		}
	}
	if (ibt_parse_u32(s, 0, 0xff, &v))
		return -1;
	*mgmt_class = v;
	return 0;
}

int ibt_mad_parse_method(const char *s, uint8_t *method)
{
	uint32_t v;
	size_t i;

	if (!s || !*s)
		return -1;
	for (i = 0; i < IBT_ARRAY_SIZE(method_names); i++) {
		if (method_names[i] && !strcasecmp(s, method_names[i])) {
			*method = i;
			return 0;
		}
	}
	if (ibt_parse_u32(s, 0, 0xff, &v))
		return -1;
	*method = v;
	return 0;
}

/* The header */

/* The common header's fields, on one text line. */
static void print_common(struct ibt *ctx, const uint8_t *mad, size_t len)
{
	uint8_t mgmt_class = mad[1], method = mad[3];
	uint16_t status = get16(mad, MAD_STATUS);
	uint16_t attr_id = get16(mad, MAD_ATTR_ID);
	char text[MAD_TEXT_MAX];

	if (mgmt_class == CLASS_SMP_DR)
		status &= ~SMP_STATUS_D;
	ibt_out_u64(ctx, "base_version", mad[0]);
	out_named(ctx, "class", mgmt_class, 2, ibt_mad_class_name(mgmt_class));
	ibt_out_u64(ctx, "class_version", mad[2]);
	out_named(ctx, "method", method, 2, ibt_mad_method_name(method));
	ibt_mad_status_str(status, text, sizeof(text));
	out_xn(ctx, "status", status, 4);
	if (ctx->json)
		ibt_out_str(ctx, "status_text", text);
	else if (status)
		ibt_out_text(ctx, " (%s)", text);
	if (!is_smp(mgmt_class))
		out_xn(ctx, "class_specific",
		       get16(mad, MAD_CLASS_SPECIFIC), 4);
	out_id(ctx, "tid", get64(mad, MAD_TID));
	out_named(ctx, "attr", attr_id, 4,
		  ibt_mad_attr_name(mgmt_class, attr_id));
	out_xn(ctx, "attr_mod", get32(mad, MAD_ATTR_MOD), 8);
	if (is_vendor2(mgmt_class) && len >= VENDOR_DATA)
		out_xn(ctx, "oui", get24(mad, VENDOR_OUI), 6);
	ibt_out_eol(ctx);
}

/* An SMP's M_Key and directed-route fields; the DR paths on a line. */
static void print_smp(struct ibt *ctx, const uint8_t *mad, size_t len)
{
	size_t i, n = mad[SMP_HOP_CNT];
	uint8_t path[SMP_PATH_LEN];

	if (len < SMP_M_KEY + 8)
		return;
	out_line(ctx);
	if (mad[1] == CLASS_SMP_DR && len >= SMP_DR_DLID + 2) {
		ibt_out_u64(ctx, "hop_ptr", mad[SMP_HOP_PTR]);
		ibt_out_u64(ctx, "hop_cnt", mad[SMP_HOP_CNT]);
		out_xn(ctx, "dr_slid", get16(mad, SMP_DR_SLID), 4);
		out_xn(ctx, "dr_dlid", get16(mad, SMP_DR_DLID), 4);
		ibt_out_u64(ctx, "d",
			    !!(get16(mad, MAD_STATUS) & SMP_STATUS_D));
	}
	out_id(ctx, "m_key", get64(mad, SMP_M_KEY));
	ibt_out_eol(ctx);
	if (mad[1] != CLASS_SMP_DR || !n ||
	    len < SMP_RETURN_PATH + SMP_PATH_LEN)
		return;
	/* entries 1..hop_cnt; a DR SMP has 63 hops at most */
	if (n > SMP_PATH_LEN - 1)
		n = SMP_PATH_LEN - 1;
	out_line(ctx);
	for (i = 0; i < n; i++)
		path[i] = mad[SMP_INITIAL_PATH + 1 + i];
	out_list(ctx, "initial_path", path, n, LIST_U8);
	for (i = 0; i < n; i++)
		path[i] = mad[SMP_RETURN_PATH + 1 + i];
	out_list(ctx, "return_path", path, n, LIST_U8);
	ibt_out_eol(ctx);
}

/* The RMPP header (when in use) and the SA's, on a line. */
static void print_rmpp_sa(struct ibt *ctx, const uint8_t *mad, size_t len)
{
	bool rmpp = len >= RMPP_END && mad[RMPP_TYPE];
	bool sa = mad[1] == CLASS_SA && len >= SA_DATA;

	if (!rmpp && !sa)
		return;
	out_line(ctx);
	if (rmpp) {
		ibt_out_u64(ctx, "rmpp_version", mad[RMPP_VERSION]);
		ibt_out_u64(ctx, "rmpp_type", mad[RMPP_TYPE]);
		ibt_out_u64(ctx, "r_resp_time", mad[RMPP_FLAGS] >> 3);
		ibt_out_hex(ctx, "rmpp_flags", mad[RMPP_FLAGS] & 0x7);
		ibt_out_u64(ctx, "rmpp_status", mad[RMPP_STATUS]);
		ibt_out_u64(ctx, "rmpp_data1", get32(mad, RMPP_DATA1));
		ibt_out_u64(ctx, "rmpp_data2", get32(mad, RMPP_DATA2));
	}
	if (sa) {
		out_id(ctx, "sm_key", get64(mad, SA_SM_KEY));
		ibt_out_u64(ctx, "attr_offset", get16(mad, SA_ATTR_OFFSET));
		out_id(ctx, "component_mask", get64(mad, SA_COMP_MASK));
	}
	ibt_out_eol(ctx);
}

void ibt_mad_print_hdr(struct ibt *ctx, const uint8_t *mad, size_t len)
{
	ibt_out_obj_begin(ctx, "mad");
	if (len < MAD_HDR_LEN) {
		ibt_out_u64(ctx, "short_len", len);
		ibt_out_eol(ctx);
		ibt_out_obj_end(ctx);
		return;
	}
	print_common(ctx, mad, len);
	if (is_smp(mad[1]))
		print_smp(ctx, mad, len);
	else if (has_rmpp(mad[1]))
		print_rmpp_sa(ctx, mad, len);
	ibt_out_obj_end(ctx);
}

/* The attribute */

static void print_one(struct ibt *ctx, const struct attr *a,
		      const uint8_t *d, uint32_t attr_mod)
{
	if (a->flds)
		print_flds(ctx, d, a->size, a->flds, a->nflds);
	else
		a->fn(ctx, d, attr_mod);
}

/*
 * Whether the data of an RMPP-capable class's MAD starts its attribute:
 * not in an RMPP ACK, STOP or ABORT, nor in a DATA segment past the first.
 */
static bool rmpp_data_start(const uint8_t *mad)
{
	uint8_t flags = mad[RMPP_FLAGS] & 0x7;

	if (!(flags & RMPP_FLAG_ACTIVE))
		return true;
	return mad[RMPP_TYPE] == RMPP_TYPE_DATA && (flags & RMPP_FLAG_FIRST);
}

static bool sa_table_resp(uint8_t method)
{
	return method == (METHOD_RESP | METHOD_GET_TABLE) ||
	       method == (METHOD_RESP | METHOD_GET_TRACE_TABLE) ||
	       method == (METHOD_RESP | METHOD_GET_MULTI);
}

/*
 * The records of an SA table response, AttributeOffset 8-byte words
 * apart, as many whole ones as the @len bytes hold (a reassembled RMPP
 * payload may hold more than one MAD's) and, in the first segment of an
 * RMPP transfer, its PayloadLength (the SA header's 20 bytes, then the
 * records) says there are.
 */
static bool print_records(struct ibt *ctx, const struct attr *a,
			  const uint8_t *mad, size_t len)
{
	size_t stride = (size_t)get16(mad, SA_ATTR_OFFSET) * 8;
	size_t paylen = get32(mad, RMPP_DATA2);
	size_t i, n = 0, data = len - SA_DATA;

	if (stride && stride < a->size)
		return false;
	if ((mad[RMPP_FLAGS] & RMPP_FLAG_ACTIVE) && paylen) {
		paylen = paylen > SA_HDR_LEN ? paylen - SA_HDR_LEN : 0;
		if (paylen < data)
			data = paylen;
	}
	if (stride && data >= a->size)
		n = (data - a->size) / stride + 1;
	ibt_out_obj_begin(ctx, "attr");
	ibt_out_arr_begin(ctx, "records");
	for (i = 0; i < n; i++) {
		ibt_out_obj_begin(ctx, NULL);
		ibt_out_text(ctx, "  record %zu", i);
		ibt_out_eol(ctx);
		print_one(ctx, a, mad + SA_DATA + i * stride,
			  get32(mad, MAD_ATTR_MOD));
		ibt_out_obj_end(ctx);
	}
	ibt_out_arr_end(ctx);
	ibt_out_obj_end(ctx);
	return true;
}

bool ibt_mad_print_attr(struct ibt *ctx, const uint8_t *mad, size_t len)
{
	const struct attr *a;
	uint8_t mgmt_class;
	size_t off;

	if (len < MAD_HDR_LEN)
		return false;
	mgmt_class = mad[1];
	off = ibtrace_mad_data_offset(mgmt_class);
	a = find_attr(mgmt_class, get16(mad, MAD_ATTR_ID));
	if (!a || !a->size || !ibt_mad_method_name(mad[3]))
		return false;
	if (len < off + a->size)
		return false;
	if (has_rmpp(mgmt_class) && !rmpp_data_start(mad))
		return false;
	if (a->kind == K_IBTRACE && get24(mad, VENDOR_OUI) != IBTRACE_OUI)
		return false;
	if (mgmt_class == CLASS_SA && sa_table_resp(mad[3]))
		return print_records(ctx, a, mad, len);
	ibt_out_obj_begin(ctx, "attr");
	print_one(ctx, a, mad + off, get32(mad, MAD_ATTR_MOD));
	ibt_out_obj_end(ctx);
	return true;
}

/* Raw bytes */

void ibt_mad_print_hex(struct ibt *ctx, const char *key, const uint8_t *buf,
		       size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *s;
	size_t i;

	if (!ctx->json) {
		for (i = 0; i < len; i++) {
			if (!(i % 16))
				ibt_out_text(ctx, "  %04zx ", i);
			ibt_out_text(ctx, " %02x", buf[i]);
			if (i % 16 == 15 || i == len - 1)
				ibt_out_eol(ctx);
		}
		return;
	}
	s = malloc(2 * len + 1);
	if (!s)
		return;
	for (i = 0; i < len; i++) {
		s[2 * i] = digits[buf[i] >> 4];
		s[2 * i + 1] = digits[buf[i] & 0xf];
	}
	s[2 * len] = '\0';
	ibt_out_str(ctx, key, s);
	free(s);
}
