// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output: every field is written once, through a helper that produces
 * either its text form (printed at once) or its JSON form (added to the
 * document under construction, printed by ibt_out_finish() at the end).
 *
 * Text fields print " <key> <value>", so the text label and the JSON key
 * are the same word. Objects and arrays only exist in JSON; in text mode
 * ibt_out_eol() ends the current line.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <json-c/json.h>
#include <netlink/attr.h>

#include "ibtracectl.h"

/*
 * The open container, or NULL when there is none or it could not be
 * created (out of memory, nesting too deep): its fields are then dropped.
 */
static struct json_object *cur(struct ibt *ctx)
{
	if (!ctx->jdepth || ctx->jdepth > IBT_OUT_DEPTH)
		return NULL;
	return ctx->jstack[ctx->jdepth - 1];
}

/* Attach @jv to the current container: appended to an array, else @key. */
static void attach(struct ibt *ctx, const char *key, struct json_object *jv)
{
	struct json_object *parent = cur(ctx);

	if (!parent) {
		/* a bare value has nowhere to go */
		json_object_put(jv);
		return;
	}
	if (json_object_is_type(parent, json_type_array))
		json_object_array_add(parent, jv);
	else if (key)
		json_object_object_add(parent, key, jv);
	else
		json_object_put(jv);
}

/*
 * Open container @jv (owned): it becomes the root, or joins the open
 * container. The stack holds its own reference, dropped by pop().
 */
static void push(struct ibt *ctx, const char *key, struct json_object *jv)
{
	if (ctx->jdepth >= IBT_OUT_DEPTH) {
		json_object_put(jv);
		ctx->jdepth++;
		return;
	}
	if (jv && !ctx->jroot)
		ctx->jroot = json_object_get(jv);
	else if (jv && cur(ctx))
		attach(ctx, key, json_object_get(jv));
	ctx->jstack[ctx->jdepth++] = jv;
}

static void pop(struct ibt *ctx)
{
	if (!ctx->jdepth)
		return;
	ctx->jdepth--;
	if (ctx->jdepth < IBT_OUT_DEPTH) {
		json_object_put(ctx->jstack[ctx->jdepth]);
		ctx->jstack[ctx->jdepth] = NULL;
	}
}

/* Open an object: the document root, an array element, or member @key. */
void ibt_out_obj_begin(struct ibt *ctx, const char *key)
{
	if (ctx->json)
		push(ctx, key, json_object_new_object());
}

void ibt_out_obj_end(struct ibt *ctx)
{
	if (ctx->json)
		pop(ctx);
}

void ibt_out_arr_begin(struct ibt *ctx, const char *key)
{
	if (ctx->json)
		push(ctx, key, json_object_new_array());
}

void ibt_out_arr_end(struct ibt *ctx)
{
	ibt_out_obj_end(ctx);
}

/*
 * The one field writer: @jv (owned) becomes member @key in JSON mode;
 * @fmt is printed in text mode.
 */
void ibt_out_field(struct ibt *ctx, const char *key, struct json_object *jv,
		   const char *fmt, ...)
{
	va_list ap;

	if (ctx->json) {
		attach(ctx, key, jv);
		return;
	}
	json_object_put(jv);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* JSON-only field (no text form). */
void ibt_out_json(struct ibt *ctx, const char *key, struct json_object *jv)
{
	if (ctx->json)
		attach(ctx, key, jv);
	else
		json_object_put(jv);
}

/*
 * JSON-only: the @n numbers @keys name, each one @have, from @val (both
 * indexed by attribute), in the order of @keys.
 */
void ibt_out_nums(struct ibt *ctx, const struct ibt_num_key *keys, size_t n,
		  const bool *have, const uint64_t *val)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (have[keys[i].attr])
			ibt_out_json(ctx, keys[i].key,
				     json_object_new_uint64(val[keys[i].attr]));
}

/*
 * Text-only: " @label N@unit" (" deadline 5000 ms") for number @a of a
 * table (@have, @val: by attribute), when it was sent.
 */
void ibt_out_num_text(const bool *have, const uint64_t *val, int a,
		      const char *label, const char *unit)
{
	if (have[a])
		printf(" %s %" PRIu64 "%s", label, val[a], unit);
}

/* The same for the attributes of a parsed message, those it has. */
void ibt_out_nla_nums(struct ibt *ctx, const struct ibt_num_key *keys,
		      size_t n, struct nlattr **tb)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tb[keys[i].attr])
			ibt_out_json(ctx, keys[i].key,
				     json_object_new_uint64(ibt_nla_uint(tb[keys[i].attr])));
}

/*
 * Text and JSON: the u64 attributes @keys name (@n of them), each one
 * @tb has, in the order of @keys.
 */
void ibt_out_nla_u64s(struct ibt *ctx, const struct ibt_num_key *keys,
		      size_t n, struct nlattr **tb)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tb[keys[i].attr])
			ibt_out_u64(ctx, keys[i].key, nla_get_u64(tb[keys[i].attr]));
}

/*
 * Text and JSON: the attributes @keys name, each one @tb has, in the
 * order of @keys; @kinds has a letter for each key (its length is their
 * number): 'u' a number, 'x' a number, in hexadecimal in text, 'j' a
 * number in JSON only, 'b' a flag or number as yes/no (true/false),
 * 's' a string, 'g' a GID. Numbers are read whatever their size (the
 * policies check it).
 */
void ibt_out_nla_keys(struct ibt *ctx, const struct ibt_num_key *keys,
		      const char *kinds, struct nlattr **tb)
{
	size_t i;

	for (i = 0; kinds[i]; i++) {
		struct nlattr *a = tb[keys[i].attr];
		const char *key = keys[i].key;
		uint64_t v;

		if (!a)
			continue;
		if (kinds[i] == 's' || kinds[i] == 'g') {
			if (kinds[i] == 's')
				ibt_out_str(ctx, key, nla_get_string(a));
			else
				ibt_out_gid(ctx, key, nla_data(a));
			continue;
		}
		v = ibt_nla_uint(a);
		if (kinds[i] == 'b')
			ibt_out_bool(ctx, key, v);
		else if (kinds[i] == 'j')
			ibt_out_json(ctx, key, json_object_new_uint64(v));
		else
			ibt_out_field(ctx, key, json_object_new_uint64(v),
				      kinds[i] == 'x' ? " %s 0x%" PRIx64 : " %s %" PRIu64,
				      key, v);
	}
}

/* Text-only words (separators, units, the statistics header). */
void ibt_out_text(struct ibt *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void ibt_out_str(struct ibt *ctx, const char *key, const char *val)
{
	ibt_out_field(ctx, key, json_object_new_string(val), " %s %s", key, val);
}

void ibt_out_u64(struct ibt *ctx, const char *key, uint64_t val)
{
	ibt_out_field(ctx, key, json_object_new_uint64(val),
		      " %s %" PRIu64, key, val);
}

/* Hexadecimal in text, a plain number in JSON. */
void ibt_out_hex(struct ibt *ctx, const char *key, uint64_t val)
{
	ibt_out_field(ctx, key, json_object_new_uint64(val),
		      " %s 0x%" PRIx64, key, val);
}

void ibt_out_bool(struct ibt *ctx, const char *key, bool val)
{
	ibt_out_field(ctx, key, json_object_new_boolean(val),
		      " %s %s", key, val ? "yes" : "no");
}

/* A GID in IPv6 text form, in both outputs. */
void ibt_out_gid(struct ibt *ctx, const char *key, const uint8_t gid[16])
{
	char s[INET6_ADDRSTRLEN];

	if (!inet_ntop(AF_INET6, gid, s, sizeof(s)))
		s[0] = '\0';
	ibt_out_str(ctx, key, s);
}

/* End of a text line; flushed so that ping lines show as they come. */
void ibt_out_eol(struct ibt *ctx)
{
	if (ctx->json)
		return;
	putchar('\n');
	fflush(stdout);
}

/* Print the JSON document ("[]" for an empty listing), once. */
void ibt_out_finish(struct ibt *ctx)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;

	if (!ctx->json)
		return;
	flags |= ctx->pretty ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN;
	if (ctx->jroot)
		printf("%s\n", json_object_to_json_string_ext(ctx->jroot, flags));
	else
		printf("[]\n");
	fflush(stdout);
	ibt_out_free(ctx);
}

void ibt_out_free(struct ibt *ctx)
{
	while (ctx->jdepth)
		pop(ctx);
	json_object_put(ctx->jroot);
	ctx->jroot = NULL;
}
