// SPDX-License-Identifier: GPL-2.0-only
/*
 * A test's own list of figures (struct test_items): the nests the RNR
 * test (a timer code each), the limit test (a kind of object each) and
 * the transaction test (an endpoint each) send, decoded once for all; the
 * figures of one such nest (test_item_absorb(): also the perf and quit
 * tests' figures, the transaction test's operations); and how one figure
 * prints: a number, MB, a duration, MB/s, "-" when the kernel did not
 * send it. Apart from test_result.c, which the tests' files must not use
 * (test_result.c reaches them through ibt_tests[]).
 */
#include <stdint.h>
#include <stdlib.h>

#include <netlink/attr.h>

#include "ibtracectl.h"
#include "test.h"

/*
 * The figures of nest @nest, attributes @first..@max, into @it: each one
 * the nest has replaces @it's; @text (-1: none) is the one that is a
 * string, the others numbers. 0 or a printed exit code (@it unchanged).
 */
int test_item_absorb(struct ibt *ctx, struct test_item *it, struct nlattr *nest,
		     int first, int max, int text)
{
	struct nlattr *tb[TEST_ITEM_ATTRS];
	int i, ret;

	if (max >= TEST_ITEM_ATTRS)
		return ibt_err(IBT_EXIT_ERR, "internal error: a nest of %d attributes", max);
	ret = ibt_nl_parse_nest(ctx, nest, tb);
	if (ret)
		return ret;
	for (i = first; i <= max; i++) {
		if (!tb[i])
			continue;
		if (i == text) {
			nla_strlcpy(it->text, tb[i], sizeof(it->text));
			continue;
		}
		it->have[i] = true;
		it->val[i] = ibt_nla_uint(tb[i]);
	}
	return 0;
}

/* Whether @a and @b are the same item of a list (@how's keys). */
static bool same_item(const struct test_item *a, const struct test_item *b,
		      const struct test_items_nest *how)
{
	return a->val[how->key] == b->val[how->key] &&
	       (how->key2 < 0 || a->val[how->key2] == b->val[how->key2]);
}

/*
 * A nest @nest (attributes @how->key..@how->max) into @l: it replaces the
 * item with the same keys, else it is added. 0 or a printed exit code.
 */
int test_items_absorb(struct ibt *ctx, struct test_items *l, struct nlattr *nest,
		      const struct test_items_nest *how)
{
	struct test_item c = { 0 }, *v;
	size_t k;
	int ret;

	ret = test_item_absorb(ctx, &c, nest, how->key, how->max, how->text);
	if (ret)
		return ret;
	if (!c.have[how->key] || (how->key2 >= 0 && !c.have[how->key2]))
		return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: %s", how->nokey);
	for (k = 0; k < l->n; k++)
		if (same_item(&l->v[k], &c, how)) {
			l->v[k] = c;
			return 0;
		}
	v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v)
		return ibt_err(IBT_EXIT_ERR, "out of memory");
	l->v = v;
	l->v[l->n++] = c;
	return 0;
}

/* @k's items (moved; @k may be NULL: none) replace @l's. */
void test_items_take(struct test_items *l, struct test_items *k)
{
	test_items_free(l);
	if (!k)
		return;
	*l = *k;
	k->v = NULL;
	k->n = 0;
}

void test_items_free(struct test_items *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Figure @a of @f in decimal, "-" when the kernel did not send it. */
const char *test_item_str(const struct test_item *f, int a, char *buf, size_t len)
{
	return ibt_num_str(f->have, f->val, a, buf, len);
}

/* @suffix unless figure @a of @f is 1 ("1 error", "- errors"). */
const char *test_item_plural(const struct test_item *f, int a, const char *suffix)
{
	return f->have[a] && f->val[a] == 1 ? "" : suffix;
}

/* Figure @a of @f, bytes, in MB (10^6 bytes) with one decimal, or "-". */
const char *test_item_mb_str(const struct test_item *f, int a, char *buf, size_t len)
{
	return f->have[a] ? ibt_dec1_str(f->val[a], 1000000, buf, len) : "-";
}

/* Figure @a of @f, nanoseconds, as a duration (ibt_dur_str()), or "-". */
const char *test_item_dur_str(const struct test_item *f, int a, char *buf, size_t len)
{
	if (!f->have[a])
		return "-";
	return ibt_dur_str(f->val[a] > INT64_MAX ? INT64_MAX : (int64_t)f->val[a], false,
			   buf, len);
}

/*
 * MB/s (10^6 bytes) of figures @bytes over @ns of @f into @buf, with one
 * decimal; false without both or with a time of 0.
 */
bool test_item_mb_per_s(const struct test_item *f, int bytes, int ns, char *buf,
			size_t len)
{
	if (!f->have[bytes] || !f->have[ns] || !f->val[ns])
		return false;
	/* bytes * 1000 / ns MB/s, in tenths; bytes fit 64 bits times 10^4 */
	ibt_dec1_str(f->val[bytes] * 1000, f->val[ns], buf, len);
	return true;
}
