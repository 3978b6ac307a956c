// SPDX-License-Identifier: GPL-2.0-only
/*
 * The conformance tests the tool knows, as ibtrace_tests[] in the
 * kernel's test.c lists the module's: adding a test is a file of its own
 * (test_NAME.c, its struct ibt_test_def) and its line here.
 */
#include <string.h>

#include "ibtracectl.h"
#include "test.h"

const struct ibt_test_def *const ibt_tests[] = {
	&test_guidinfo,
	&test_rnr,
	&test_limit,
	&test_perf,
	&test_quit,
	&test_txn,
	NULL,
};

/* The test named @name, NULL if the tool does not know it. */
const struct ibt_test_def *test_def_find(const char *name)
{
	size_t k;

	for (k = 0; ibt_tests[k]; k++)
		if (!strcmp(ibt_tests[k]->name, name))
			return ibt_tests[k];
	return NULL;
}

/*
 * The test a result is of: the one whose own attributes it has, else the
 * one its name names; NULL for a test the tool does not know (printed
 * as the framework prints an SMP test).
 */
const struct ibt_test_def *test_def_of(const struct result *r)
{
	size_t k;

	for (k = 0; ibt_tests[k]; k++)
		if (ibt_tests[k]->owns && ibt_tests[k]->owns(r))
			return ibt_tests[k];
	return test_def_find(r->name);
}
