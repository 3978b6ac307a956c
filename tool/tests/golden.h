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
/* A new reply message of command @cmd, to fill with nla_put_*(). */
struct nl_msg *golden_msg(uint8_t cmd);

void golden_server(void);
void golden_sim(void);
void golden_dev(void);

#endif /* GOLDEN_H */
