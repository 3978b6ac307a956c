// SPDX-License-Identifier: GPL-2.0-only
/*
 * test object: a test (TEST_LIST) or a job (TEST_GET, TEST_EVENT) decoded
 * from the kernel's messages into a struct result. Numbers and strings
 * replace what the result had, assertions are merged by id, exchanges
 * appended.
 */
#include <stdlib.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ibtracectl.h"
#include "test.h"

/* The lists of @r (assertions, exchanges), emptied. */
static void free_lists(struct result *r)
{
	free(r->asserts);
	free(r->xchgs);
	r->asserts = NULL;
	r->xchgs = NULL;
	r->nasserts = r->nxchgs = 0;
}

/* What only its test decodes, freed. */
static void free_data(struct result *r)
{
	if (r->data && r->data_def->free_data)
		r->data_def->free_data(r->data);
	free(r->data);
	r->data = NULL;
	r->data_def = NULL;
}

void test_result_free(struct result *r)
{
	free_lists(r);
	free_data(r);
}

void test_list_free(struct list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		test_result_free(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/*
 * A new element, zeroed, at the end of array *@v (*@n elements of @size
 * bytes); NULL (printed) when out of memory.
 */
static void *append(void **v, size_t *n, size_t size)
{
	char *nv = realloc(*v, (*n + 1) * size);

	if (!nv) {
		ibt_err(IBT_EXIT_ERR, "out of memory");
		return NULL;
	}
	*v = nv;
	memset(nv + *n * size, 0, size);
	return nv + (*n)++ * size;
}

/* Add or update (same id) assertion @a of @r. */
static int assert_put(struct result *r, const struct assertion *a)
{
	struct assertion *v;
	size_t i;

	for (i = 0; i < r->nasserts; i++) {
		if (strcmp(r->asserts[i].id, a->id))
			continue;
		v = &r->asserts[i];
		if (a->desc[0])
			memcpy(v->desc, a->desc, sizeof(v->desc));
		if (a->have_result) {
			v->have_result = true;
			v->result = a->result;
		}
		if (a->have_checks) {
			v->have_checks = true;
			v->checks = a->checks;
		}
		if (a->expected[0] || a->observed[0] || a->where[0]) {
			memcpy(v->expected, a->expected, sizeof(v->expected));
			memcpy(v->observed, a->observed, sizeof(v->observed));
			memcpy(v->where, a->where, sizeof(v->where));
		}
		return 0;
	}
	v = append((void **)&r->asserts, &r->nasserts, sizeof(*v));
	if (!v)
		return IBT_EXIT_ERR;
	*v = *a;
	return 0;
}

static int absorb_assert(struct ibt *ctx, struct result *r, struct nlattr *nest)
{
	struct nlattr *tb[IBTRACE_ASSERT_A_MAX + 1];
	struct assertion a = { 0 };
	int ret;

	ret = ibt_nl_parse_nest(ctx, nest, tb);
	if (ret)
		return ret;
	if (!tb[IBTRACE_ASSERT_A_ID])
		return ibt_err(IBT_EXIT_ERR, "malformed kernel reply: assertion without an id");
	nla_strlcpy(a.id, tb[IBTRACE_ASSERT_A_ID], sizeof(a.id));
	if (tb[IBTRACE_ASSERT_A_DESC])
		nla_strlcpy(a.desc, tb[IBTRACE_ASSERT_A_DESC], sizeof(a.desc));
	if (tb[IBTRACE_ASSERT_A_RESULT]) {
		a.have_result = true;
		a.result = nla_get_u8(tb[IBTRACE_ASSERT_A_RESULT]);
	}
	if (tb[IBTRACE_ASSERT_A_CHECKS]) {
		a.have_checks = true;
		a.checks = nla_get_u32(tb[IBTRACE_ASSERT_A_CHECKS]);
	}
	if (tb[IBTRACE_ASSERT_A_EXPECTED])
		nla_strlcpy(a.expected, tb[IBTRACE_ASSERT_A_EXPECTED], sizeof(a.expected));
	if (tb[IBTRACE_ASSERT_A_OBSERVED])
		nla_strlcpy(a.observed, tb[IBTRACE_ASSERT_A_OBSERVED], sizeof(a.observed));
	if (tb[IBTRACE_ASSERT_A_WHERE])
		nla_strlcpy(a.where, tb[IBTRACE_ASSERT_A_WHERE], sizeof(a.where));
	return assert_put(r, &a);
}

static int absorb_xchg(struct ibt *ctx, struct result *r, struct nlattr *nest)
{
	struct nlattr *tb[IBTRACE_XCHG_A_MAX + 1];
	struct xchg *v;
	int i, ret;

	ret = ibt_nl_parse_nest(ctx, nest, tb);
	if (ret)
		return ret;
	v = append((void **)&r->xchgs, &r->nxchgs, sizeof(*v));
	if (!v)
		return IBT_EXIT_ERR;
	for (i = IBTRACE_XCHG_A_SEQ; i <= IBTRACE_XCHG_A_MAX; i++) {
		if (!tb[i])
			continue;
		v->have[i] = true;
		v->val[i] = ibt_nla_uint(tb[i]);
	}
	return 0;
}

/*
 * The part of @r that only test @def decodes, allocated on first use;
 * NULL (printed) when out of memory or another test's attributes came
 * first.
 */
static void *test_data(struct result *r, const struct ibt_test_def *def)
{
	if (r->data && r->data_def != def) {
		ibt_err(IBT_EXIT_ERR, "malformed kernel reply: attributes of tests %s and %s",
			r->data_def->name, def->name);
		return NULL;
	}
	if (!r->data) {
		r->data = calloc(1, def->data_size);
		if (!r->data) {
			ibt_err(IBT_EXIT_ERR, "out of memory");
			return NULL;
		}
		r->data_def = def;
	}
	return r->data;
}

/* The test that decodes attribute @type itself, NULL if none. */
static const struct ibt_test_def *attr_test(int type)
{
	const int *t;
	size_t k;

	for (k = 0; ibt_tests[k]; k++)
		for (t = ibt_tests[k]->attrs; t && *t; t++)
			if (*t == type)
				return ibt_tests[k];
	return NULL;
}

/* The string attributes of a result, and where each goes. */
#define STR_FIELD(type, f) \
	{ type, offsetof(struct result, f), sizeof(((struct result *)0)->f) }
static const struct {
	int type;
	size_t off, size;
} result_strs[] = {
	STR_FIELD(IBTRACE_A_DEV_NAME, dev),
	STR_FIELD(IBTRACE_A_TEST_NAME, name),
	STR_FIELD(IBTRACE_A_TEST_SEED, seed),
	STR_FIELD(IBTRACE_A_TEST_DESC, desc),
	STR_FIELD(IBTRACE_A_TEST_NEEDS, needs),
	STR_FIELD(IBTRACE_A_TEST_REASON, reason),
};
#undef STR_FIELD

/* Where string attribute @type goes in @r (its *@size), NULL if none. */
static char *str_field(struct result *r, int type, size_t *size)
{
	size_t i;

	for (i = 0; i < IBT_ARRAY_SIZE(result_strs); i++)
		if (result_strs[i].type == type) {
			*size = result_strs[i].size;
			return (char *)r + result_strs[i].off;
		}
	return NULL;
}

/*
 * Merge the test attributes of message @nlh into @r: numbers and strings
 * replace what @r had, assertions are added or updated (by id),
 * exchanges appended; the attributes a test decodes itself (the RNR
 * test's timer codes) go to it.
 */
int test_result_absorb(struct ibt *ctx, struct result *r, struct nlmsghdr *nlh)
{
	struct nlattr *tb[IBTRACE_A_MAX + 1];
	const struct ibt_test_def *def;
	struct nlattr *a;
	size_t size;
	void *data;
	char *str;
	int rem, type, ret;

	ret = ibt_nl_parse(ctx, nlh, tb);	/* validates every attribute */
	if (ret)
		return ret;
	r->nmsgs++;
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		type = nla_type(a);
		ret = 0;
		str = str_field(r, type, &size);
		if (str) {
			nla_strlcpy(str, a, size);
			continue;
		}
		switch (type) {
		case IBTRACE_A_PORT:
			r->have[type] = true;
			r->val[type] = nla_get_u32(a);
			break;
		case IBTRACE_A_TEST_DR_PATH:
			r->ndr = nla_len(a);
			memcpy(r->dr, nla_data(a), r->ndr);
			break;
		case IBTRACE_A_TEST_PEER_GID:
			r->have[type] = true;
			memcpy(r->peer_gid, nla_data(a), sizeof(r->peer_gid));
			break;
		case IBTRACE_A_TEST_ASSERTION:
			ret = absorb_assert(ctx, r, a);
			break;
		case IBTRACE_A_TEST_EXCHANGE:
			ret = absorb_xchg(ctx, r, a);
			break;
		default:
			def = attr_test(type);
			if (def) {
				data = test_data(r, def);
				ret = data ? def->absorb(ctx, r, data, a) : IBT_EXIT_ERR;
				break;
			}
			if (type < IBTRACE_A_TEST_JOB || type > IBTRACE_A_MAX)
				break;
			r->have[type] = true;
			r->val[type] = ibt_nla_uint(a);
			break;
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* Keep every message of a dump as a struct result. */
int test_keep_cb(struct ibt *ctx, struct nlmsghdr *nlh, void *arg)
{
	struct list *l = arg;
	struct result *v;

	v = append((void **)&l->v, &l->n, sizeof(*v));
	return v ? test_result_absorb(ctx, v, nlh) : IBT_EXIT_ERR;
}

/*
 * A job as TEST_GET gave it (@k) over what @r held: the values @k has
 * replace those of @r, the others stay (the request's, the events');
 * @k's lists (assertions, exchanges) replace @r's and are moved, not
 * copied; the test's own part merges as the test says (its take()).
 */
void test_result_take(struct result *r, struct result *k)
{
	int i;

	for (i = 0; i <= IBTRACE_A_MAX; i++)
		if (k->have[i]) {
			r->have[i] = true;
			r->val[i] = k->val[i];
		}
#define TAKE(f) do { if (k->f[0]) memcpy(r->f, k->f, sizeof(r->f)); } while (0)
	TAKE(dev);
	TAKE(name);
	TAKE(seed);
	TAKE(reason);
#undef TAKE
	if (k->ndr) {
		r->ndr = k->ndr;
		memcpy(r->dr, k->dr, k->ndr);
	}
	if (k->have[IBTRACE_A_TEST_PEER_GID])
		memcpy(r->peer_gid, k->peer_gid, sizeof(r->peer_gid));
	free_lists(r);
	r->asserts = k->asserts;
	r->nasserts = k->nasserts;
	r->xchgs = k->xchgs;
	r->nxchgs = k->nxchgs;
	k->asserts = NULL;
	k->xchgs = NULL;
	k->nasserts = k->nxchgs = 0;
	if (!r->data) {
		r->data = k->data;
		r->data_def = k->data_def;
		k->data = NULL;
		k->data_def = NULL;
	} else if (!k->data || k->data_def == r->data_def) {
		if (r->data_def->take)
			r->data_def->take(r->data, k->data);
		free_data(k);
	}
}
