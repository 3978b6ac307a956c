/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What several selftest programs share, header only (kselftest's lib.mk
 * builds each program from its one .c file):
 *
 * - fail(CODE, FMT, ...): "PROG: " and the message on stderr, then
 *   ST_FAIL_USAGE (CODE is EXIT_USAGE) or ST_FAIL_END (any other CODE),
 *   and exit(CODE). A program that uses it defines these three strings
 *   and its EXIT_USAGE before it includes this file.
 * - st_splitmix64(&STATE): the next number of the splitmix64 sequence of
 *   STATE (every seed, 0 too, gives a full-period stream): the programs'
 *   seeded fuzzers.
 */
#ifndef IBTRACE_SELFTEST_H
#define IBTRACE_SELFTEST_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef ST_PROG
static inline void __attribute__((noreturn, format(printf, 2, 3)))
fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(ST_PROG ": ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(code == EXIT_USAGE ? ST_FAIL_USAGE : ST_FAIL_END, stderr);
	exit(code);
}
#endif

static inline uint64_t st_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif /* IBTRACE_SELFTEST_H */
