// SPDX-License-Identifier: GPL-2.0-only
/*
 * A test's own list of figures (struct test_items): the nests of numbers
 * the RNR test (a timer code each) and the limit test (a kind of object
 * each) send, decoded once for both; and the numbers of one such nest
 * (test_item_put(): also the perf, quit and transaction tests' figures). Apart from test_result.c, which the
 * tests' files must not use (test_result.c reaches them through
 * ibt_tests[]).
 */
#include <stdlib.h>

#include <netlink/attr.h>

#include "ibtracectl.h"
#include "test.h"

/*
 * The numbers of a parsed nest @tb, attributes @first..@max but @skip
 * (one that is not a number; -1: none), into @it: each one @tb has
 * replaces @it's.
 */
void test_item_put(struct test_item *it, struct nlattr **tb, int first, int max,
		   int skip)
{
	int i;

	for (i = first; i <= max; i++) {
		if (!tb[i] || i == skip)
			continue;
		it->have[i] = true;
		it->val[i] = ibt_nla_uint(tb[i]);
	}
}

/*
 * A nest of numbers @nest (attributes @key..@max) into @l: it replaces the
 * item with the same @key value, else it is added. @nokey: the error when
 * @key is missing ("RNR figures without a timer code"). 0 or a printed
 * exit code.
 */
int test_items_absorb(struct ibt *ctx, struct test_items *l, struct nlattr *nest,
		      int key, int max, const char *nokey)
{
	struct nlattr *tb[TEST_ITEM_ATTRS];
	struct test_item c = { 0 }, *v;
	size_t k;
	int ret;

	if (max >= TEST_ITEM_ATTRS)
		return ibt_err(IBT_EXIT_ERR, "internal error: a nest of %d attributes", max);
	ret = ibt_nl_parse_nest(ctx, nest, tb);
	if (ret)
		return ret;
	if (!tb[key])
		return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: %s", nokey);
	test_item_put(&c, tb, key, max, -1);
	for (k = 0; k < l->n; k++)
		if (l->v[k].val[key] == c.val[key]) {
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
