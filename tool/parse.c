// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pure parsing of command-line words: numbers, LIDs, GIDs, SourceRoute
 * port lists and "{ name, fn }" table look-ups. Nothing here prints or
 * touches the context, so tests/unit.c can check every function.
 *
 * Every parser returns 0 on success and -1 on a bad word, leaving the
 * output untouched on failure.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <linux/ibtrace_sim.h>

#include "ibtracectl.h"

/*
 * Unsigned 64-bit number, decimal or "0x" hexadecimal (never octal: "010"
 * is ten), without sign, blanks or trailing characters.
 */
int ibt_parse_u64(const char *s, uint64_t *out)
{
	unsigned int base = 10;
	uint64_t v = 0;

	if (!s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* As ibt_parse_u64(), within [min, max]. */
int ibt_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;

	if (ibt_parse_u64(s, &v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/*
 * Bytes written as hex digits, two a byte ("0011aabb"), optionally after
 * "0x" and with spaces or colons between bytes ("00:11 aa"); at most @max
 * of them into @buf, their number in *@n.
 */
int ibt_parse_hex(const char *s, uint8_t *buf, size_t max, size_t *n)
{
	size_t cnt = 0;

	if (!s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (*s) {
		int hi, lo;

		if (*s == ' ' || *s == ':') {
			s++;
			continue;
		}
		hi = ibt_hex_digit(s[0]);
		lo = hi < 0 ? -1 : ibt_hex_digit(s[1]);
		if (lo < 0 || cnt == max)
			return -1;
		buf[cnt++] = hi << 4 | lo;
		s += 2;
	}
	*n = cnt;
	return 0;
}

/* Unicast LID: 1..0xbfff (0 is reserved, 0xc000 and up are multicast). */
int ibt_parse_lid(const char *s, uint32_t *lid)
{
	return ibt_parse_u32(s, 1, IBTRACE_MAX_UNICAST_LID, lid);
}

/* GID in IPv6 text form ("fe80::5054:ff:fe1b:1"); no scope suffix. */
int ibt_parse_gid(const char *s, uint8_t gid[16])
{
	struct in6_addr a;

	if (!s || inet_pton(AF_INET6, s, &a) != 1)
		return -1;
	memcpy(gid, &a, sizeof(a));
	return 0;
}

/*
 * SourceRoute vector "P1,P2,...": 1..max port numbers 0..255, separated
 * by single commas, no empty element.
 */
int ibt_parse_sroute(const char *s, uint8_t *ports, size_t max, size_t *n)
{
	uint8_t tmp[256];
	size_t cnt = 0;

	if (!s || !*s || max > sizeof(tmp))
		return -1;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		char word[16];
		uint32_t v;

		if (len == 0 || len >= sizeof(word) || cnt == max)
			return -1;
		memcpy(word, s, len);
		word[len] = '\0';
		if (ibt_parse_u32(word, 0, 255, &v))
			return -1;
		tmp[cnt++] = v;
		if (!comma)
			break;
		s = comma + 1;
	}
	memcpy(ports, tmp, cnt);
	*n = cnt;
	return 0;
}

/*
 * Index of @word in @table: an exact name, or else a prefix of exactly
 * one name. IBT_LOOKUP_NONE if nothing matches (or @word is empty),
 * IBT_LOOKUP_AMBIGUOUS if it is a prefix of several names.
 */
int ibt_cmd_lookup(const struct ibt_cmd *table, const char *word)
{
	return ibt_name_lookup(table, sizeof(*table), word);
}

/*
 * The same in any table whose entries (@size bytes each) start with
 * their name, a NULL name ending the table.
 */
int ibt_name_lookup(const void *table, size_t size, const char *word)
{
	size_t len;
	int found = IBT_LOOKUP_NONE;
	int i;

	if (!word || !*word)
		return IBT_LOOKUP_NONE;
	len = strlen(word);
	for (i = 0; ; i++) {
		const char *name = *(const char *const *)((const char *)table + i * size);

		if (!name)
			break;
		if (!strcmp(name, word))
			return i;
		if (strncmp(name, word, len))
			continue;
		found = found == IBT_LOOKUP_NONE ? i : IBT_LOOKUP_AMBIGUOUS;
	}
	return found;
}

/*
 * A fabric name the ibtrace_sim module accepts: 1..IBTRACE_SIM_NAME_MAX
 * characters out of [A-Za-z0-9_.-]. 0 if so, -1 if not.
 */
int ibt_sim_name_ok(const char *name)
{
	size_t n;

	if (!name || !*name)
		return -1;
	for (n = 0; name[n]; n++) {
		char c = name[n];

		if (n >= IBTRACE_SIM_NAME_MAX)
			return -1;
		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != '-')
			return -1;
	}
	return 0;
}

/*
 * Length of the next piece of a text of which @left bytes remain, sent in
 * attributes of at most @max bytes (netlink attribute lengths are 16-bit).
 */
size_t ibt_chunk_len(size_t left, size_t max)
{
	return left < max ? left : max;
}

/*
 * A percentage "P", "P%" or "P.FFFF" (at most 4 decimals), 0..100, in
 * parts per million: "30" is 300000, "0.01" is 100.
 */
int ibt_parse_pct_ppm(const char *s, uint32_t *ppm)
{
	uint32_t v = 0, frac = 0;
	int digits = 0, fdigits = -1;

	if (!s)
		return -1;
	for (; *s && *s != '%'; s++) {
		if (*s == '.' && fdigits < 0 && digits) {
			fdigits = 0;
			continue;
		}
		if (*s < '0' || *s > '9')
			return -1;
		if (fdigits < 0) {
			if (++digits > 3)
				return -1;
			v = v * 10 + (*s - '0');
		} else {
			if (++fdigits > 4)
				return -1;
			frac = frac * 10 + (*s - '0');
		}
	}
	if (!digits || !fdigits || (*s == '%' && s[1]))
		return -1;
	for (; fdigits < 4; fdigits++)
		frac *= 10;
	if (v > 100 || (v == 100 && frac))
		return -1;
	*ppm = v * 10000 + frac;
	return 0;
}

/* GUIDInfo quirk flags (enum ibtrace_sim_guid_quirk) by name, in bit order. */
static const char *const guid_quirk_names[] = {
	"entry0-writable", "past-table-status", "above-cap-nonzero",
};

#define GUID_QUIRK_COUNT	(sizeof(guid_quirk_names) / sizeof(guid_quirk_names[0]))

/* "none" or a comma-separated list of quirk names, no empty element. */
int ibt_parse_guid_quirks(const char *s, uint32_t *quirks)
{
	uint32_t v = 0;

	if (!s || !*s)
		return -1;
	if (!strcmp(s, "none")) {
		*quirks = 0;
		return 0;
	}
	while (*s) {
		size_t len = strcspn(s, ","), i;

		for (i = 0; i < GUID_QUIRK_COUNT; i++)
			if (strlen(guid_quirk_names[i]) == len &&
			    !strncmp(guid_quirk_names[i], s, len))
				break;
		if (i == GUID_QUIRK_COUNT)
			return -1;
		v |= 1u << i;
		s += len;
		if (*s == ',' && !*++s)
			return -1;
	}
	*quirks = v;
	return 0;
}

/* Quirk flags as "name,name", "none" for 0; unknown bits as "0x..". */
const char *ibt_guid_quirks_str(uint32_t quirks, char *buf, size_t len)
{
	size_t i, n = 0;

	if (ibt_flags_str_done(quirks, "none", buf, len))
		return buf;
	for (i = 0; i < GUID_QUIRK_COUNT && n < len; i++)
		if (quirks & (1u << i))
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      guid_quirk_names[i]);
	quirks &= ~((1u << GUID_QUIRK_COUNT) - 1);
	if (quirks && n < len)
		snprintf(buf + n, len - n, "%s0x%x", n ? "," : "", quirks);
	return buf;
}

/* Parts per million as a percentage without trailing zeros: "30", "0.5". */
const char *ibt_ppm_pct_str(uint32_t ppm, char *buf, size_t len)
{
	uint32_t frac = ppm % 10000;
	int w = 4;

	if (!frac) {
		snprintf(buf, len, "%u", ppm / 10000);
		return buf;
	}
	while (!(frac % 10)) {
		frac /= 10;
		w--;
	}
	snprintf(buf, len, "%u.%0*u", ppm / 10000, w, frac);
	return buf;
}

/*
 * Directed route "P1,P2,...": the exit port of each node from the local
 * one outward, 1..IBTRACE_TRACE_MAX_HOPS ports of 1..255 (port 0 is no
 * exit), separated by single commas, no empty element.
 */
int ibt_parse_dr_path(const char *s, uint8_t *ports, size_t *n)
{
	uint8_t tmp[IBTRACE_TRACE_MAX_HOPS];
	size_t cnt, i;

	if (ibt_parse_sroute(s, tmp, sizeof(tmp), &cnt))
		return -1;
	for (i = 0; i < cnt; i++)
		if (!tmp[i])
			return -1;
	memcpy(ports, tmp, cnt);
	*n = cnt;
	return 0;
}

/* "1,3,2" for a directed route; "" when empty. Always NUL-terminated. */
const char *ibt_dr_path_str(const uint8_t *ports, size_t n, char *buf,
			    size_t len)
{
	size_t off = 0, i;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%u", i ? "," : "",
				 ports[i]);

		if (w < 0)
			break;
		off += w;
	}
	return buf;
}

/* --timer: an RNR NAK timer code 0..31, or "all" (*all set, *code kept). */
int ibt_parse_rnr_timer(const char *s, uint32_t *code, bool *all)
{
	if (s && !strcmp(s, "all")) {
		*all = true;
		return 0;
	}
	if (ibt_parse_u32(s, 0, IBTRACE_TEST_RNR_CODES - 1, code))
		return -1;
	*all = false;
	return 0;
}

/* --poll: "busy" or "event" (enum ibtrace_test_poll). */
int ibt_parse_test_poll(const char *s, uint32_t *poll)
{
	if (!s)
		return -1;
	if (!strcmp(s, "busy"))
		*poll = IBTRACE_TEST_POLL_BUSY;
	else if (!strcmp(s, "event"))
		*poll = IBTRACE_TEST_POLL_EVENT;
	else
		return -1;
	return 0;
}

/* @s in either case among the @n names of @names() into *@v; -1 if none. */
static int parse_name_ci(const char *s, const char *(*names)(unsigned int),
			 uint32_t n, uint32_t *v)
{
	uint32_t k;

	for (k = 0; s && k < n; k++)
		if (!strcasecmp(s, names(k))) {
			*v = k;
			return 0;
		}
	return -1;
}

/* The perf test's operation: RR or RW, in either case (enum ibtrace_perf_op). */
int ibt_parse_perf_op(const char *s, uint32_t *op)
{
	return parse_name_ci(s, ibt_perf_op_str, IBTRACE_PERF_OP_RDMA_WRITE + 1, op);
}

/* The side of a transaction test's operation: client or server, either case. */
int ibt_parse_txn_who(const char *s, uint32_t *who)
{
	return parse_name_ci(s, ibt_txn_who_str, IBTRACE_TXN_SERVER + 1, who);
}

/* A transaction test's operation type: SR, RR or RW, either case. */
int ibt_parse_txn_type(const char *s, uint32_t *type)
{
	return parse_name_ci(s, ibt_txn_type_str, IBTRACE_TXN_RW + 1, type);
}
