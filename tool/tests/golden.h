/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The golden test of the printing (tests/golden.c): each g_*.c includes
 * an object file's source, so that its static printers can be called,
 * builds kernel replies with libnl and runs them through golden_run(),
 * which prints what they print in text and in JSON mode. "make test"
 * compares the whole with tests/golden.txt.
 */
#ifndef GOLDEN_H
#define GOLDEN_H

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "../ibtracectl.h"

/* A printer under test: what it prints for @arg; returns an exit code. */
typedef int (*golden_fn)(struct ibt *ctx, void *arg);

/* "== @name text", its text, "== @name json", its JSON document. */
void golden_run(const char *name, golden_fn fn, void *arg);
/* The attributes of @msg in hex, 16 bytes a line. */
void golden_hex(struct nl_msg *msg);
/* "ibtrace", for requests built without a socket (ctx->fam) */
extern const struct ibt_family golden_family;
/*
 * A command of the words in ctx->argv: its parse, then the request it
 * would send in *@msg (NULL: none). Returns an exit code.
 */
typedef int (*golden_req_fn)(struct ibt *ctx, struct nl_msg **msg);
/*
 * "@prefix N" for each row N of @words (@n rows of @cols words, the
 * unused ones NULL), with -d @dev: what @fn says, then its request.
 */
void golden_words_run(const char *prefix, golden_req_fn fn, const char *dev,
		      const char *const *words, size_t cols, size_t n);

/* A new reply message of command @cmd, to fill with nla_put_*(). */
struct nl_msg *golden_msg(uint8_t cmd);

/*
 * An attribute to put: @size 1, 2, 4 or 8 bytes of number @v, or
 * GOLDEN_FLAG, GOLDEN_STR (@s), GOLDEN_BYTES (@v bytes of @s), or the
 * start (GOLDEN_NEST) or end (GOLDEN_END) of a nest.
 */
enum { GOLDEN_FLAG = 0, GOLDEN_STR = -1, GOLDEN_BYTES = -2, GOLDEN_NEST = -3,
       GOLDEN_END = -4 };
struct golden_attr {
	int attr;
	int size;
	uint64_t v;
	const char *s;
};
/* Put @n attributes @a (nests closed by their GOLDEN_END) into @msg. */
void golden_put(struct nl_msg *msg, const struct golden_attr *a, size_t n);

void golden_server(void);
void golden_test(void);
void golden_trace(void);
void golden_ping(void);
void golden_sim(void);
void golden_dev(void);
void golden_mad_decode(void);
void golden_mad(void);
void golden_capture(void);
void golden_inject(void);
void golden_traffic(void);
void golden_audit(void);
void golden_agent(void);
void golden_job(void);
void golden_audit_merge(void);

#endif /* GOLDEN_H */
