/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ibtrace - the quit test's wire (dapltest -T Q): the private data of the
 * client's connection request (quit.c sends it through peer.c, the
 * server's "quit" service in server_quit.c reads it) and of the server's
 * acceptance (the REP), which says what the server waits for before it
 * stops. The end of that connection, by the server, says it stopped.
 */
#ifndef _IBTRACE_QUIT_H
#define _IBTRACE_QUIT_H

#include <linux/types.h>

/* "IBTQ" */
#define QUIT_REQ_MAGIC		0x49425451
/* "IBTA" */
#define QUIT_ACK_MAGIC		0x49425441
#define QUIT_VERSION		1

/**
 * struct quit_req - private data of the client's connection request
 * @magic: %QUIT_REQ_MAGIC
 * @version: %QUIT_VERSION
 * @resv: zero
 */
struct quit_req {
	__be32 magic;
	u8 version;
	u8 resv[3];
} __packed;

/**
 * struct quit_ack - private data of the server's acceptance
 * @magic: %QUIT_ACK_MAGIC
 * @version: %QUIT_VERSION of the server
 * @resv: zero
 * @running: connections the server held besides this one
 * @bound_ms: they end within this (their holds plus the server's slack);
 *	then the server stops and ends this connection
 */
struct quit_ack {
	__be32 magic;
	u8 version;
	u8 resv[3];
	__be32 running;
	__be32 bound_ms;
} __packed;

#endif /* _IBTRACE_QUIT_H */
