// SPDX-License-Identifier: GPL-2.0-only
/*
 * ibtrace_sim_smp - send one SMP Get or Set through /dev/infiniband/umadN
 * and print the answer, for the ibtrace_sim selftests: infiniband-diags
 * cannot write SwitchInfo or the LinearForwardingTable.
 *
 *   ibtrace_sim_smp [-C DEV] [-P PORT] [-t MS] [-d DRDLID] [-n N]
 *                   -D 0,P1,P2... | -L LID
 *                   get|set ATTR MOD [OFF=XX[,XX...]]...
 *
 * -d gives a directed-route SMP a LID-routed end part: past the directed
 * path, it is LID-routed to DRDLID (default: permissive, no such part).
 *
 * A Set is a read-modify-write: the attribute is read first, the bytes
 * given (at byte offset OFF of the 64-byte SMP data) replace the read
 * ones, and the result is written. Output: "status=0xNNNN" and
 * "data=<128 hex digits>" of the answer.
 *
 * -n N (get only): a burst, N Gets sent before the first answer is read;
 * output "answered=K of N", exit 0 only when every Get was answered.
 *
 * Build: gcc -Wall -Wextra -O2 ibtrace_sim_smp.c -libumad
 *
 * Exit: 0 answered (any MAD status), 1 no answer, 2 usage, 3 umad error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#define MAD_SIZE	256
#define DATA_OFF	64
#define DATA_LEN	64
#define MAX_HOPS	64

enum { EXIT_ANSWER, EXIT_NO_ANSWER, EXIT_USAGE, EXIT_ERROR };

static int fd, agent, timeout_ms = 500;
static int dr, hop_cnt, lid, dr_dlid = 0xffff;
static uint8_t path[MAX_HOPS];
static uint64_t tid;

static void usage(void)
{
	fprintf(stderr,
		"usage: ibtrace_sim_smp [-C DEV] [-P PORT] [-t MS] [-d DRDLID] [-n N]\n"
		"                       -D 0,P1,... | -L LID\n"
		"                       get|set ATTR MOD [OFF=XX[,XX...]]...\n");
	exit(EXIT_USAGE);
}

static void parse_path(const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n >= MAX_HOPS)
			usage();
		path[n++] = strtoul(tok, NULL, 0);
	}
	free(copy);
	if (n < 1 || path[0] != 0)
		usage();
	hop_cnt = n - 1;
	dr = 1;
}

/* Builds and sends one SMP with the next TID; 0 or the exit code. */
static int send_smp(void *umad, uint8_t method, uint16_t attr, uint32_t mod,
		    const uint8_t *mad)
{
	uint8_t *m = umad_get_mad(umad);
	uint32_t tmp32;
	uint16_t tmp16;
	int i;

	m[0] = 1;
	m[1] = dr ? 0x81 : 0x01;
	m[2] = 1;
	m[3] = method;
	if (dr) {
		m[7] = hop_cnt;
		m[32] = m[33] = 0xff;	/* DrSLID: permissive */
		m[34] = dr_dlid >> 8;
		m[35] = dr_dlid & 0xff;
		for (i = 1; i <= hop_cnt; i++)
			m[128 + i] = path[i];
	}
	tid++;
	tmp32 = htonl((uint32_t)tid);
	memcpy(m + 12, &tmp32, 4);
	tmp16 = htons(attr);
	memcpy(m + 16, &tmp16, 2);
	tmp32 = htonl(mod);
	memcpy(m + 20, &tmp32, 4);
	memcpy(m + DATA_OFF, mad + DATA_OFF, DATA_LEN);

	umad_set_addr(umad, dr ? 0xffff : lid, 0, 0, 0);
	if (umad_send(fd, agent, umad, MAD_SIZE, timeout_ms, 2) < 0) {
		perror("umad_send");
		return EXIT_ERROR;
	}
	return 0;
}

/* One request/answer; returns 0 and the answer in @mad, or the exit code. */
static int rpc(uint8_t method, uint16_t attr, uint32_t mod, uint8_t *mad)
{
	size_t sz = umad_size() + MAD_SIZE;
	void *umad = calloc(1, sz);
	uint8_t *m = umad_get_mad(umad);
	uint32_t tmp32;
	int len, ret;

	ret = send_smp(umad, method, attr, mod, mad);
	if (ret) {
		free(umad);
		return ret;
	}
	for (;;) {
		len = MAD_SIZE;
		if (umad_recv(fd, umad, &len, -1) < 0) {
			perror("umad_recv");
			free(umad);
			return EXIT_ERROR;
		}
		if (umad_status(umad)) {
			free(umad);
			return EXIT_NO_ANSWER;
		}
		memcpy(&tmp32, m + 12, 4);
		if (ntohl(tmp32) == (uint32_t)tid)
			break;
	}
	memcpy(mad, m, MAD_SIZE);
	free(umad);
	return 0;
}

/* -n: @n Gets in flight at once; 0 when all are answered. */
static int burst(int n, uint16_t attr, uint32_t mod)
{
	size_t sz = umad_size() + MAD_SIZE;
	void *umad = calloc(1, sz);
	uint8_t *m = umad_get_mad(umad);
	uint8_t mad[MAD_SIZE] = { 0 };
	int i, len, answered = 0, ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = send_smp(umad, 0x01, attr, mod, mad);
	for (i = 0; i < n && !ret; i++) {
		len = MAD_SIZE;
		if (umad_recv(fd, umad, &len, -1) < 0) {
			perror("umad_recv");
			ret = EXIT_ERROR;
		} else if (!umad_status(umad) && m[3] == 0x81) {
			answered++;
		}
	}
	free(umad);
	if (ret)
		return ret;
	printf("answered=%d of %d\n", answered, n);
	return answered == n ? EXIT_ANSWER : EXIT_NO_ANSWER;
}

int main(int argc, char **argv)
{
	char *dev = NULL;
	int port = 0, opt, i, ret;
	uint8_t mad[MAD_SIZE] = { 0 };
	uint16_t attr, status;
	uint32_t mod;
	int set, n = 0;

	while ((opt = getopt(argc, argv, "C:P:t:d:D:L:n:")) != -1) {
		switch (opt) {
		case 'C':
			dev = optarg;
			break;
		case 'P':
			port = atoi(optarg);
			break;
		case 't':
			timeout_ms = atoi(optarg);
			break;
		case 'd':
			dr_dlid = strtoul(optarg, NULL, 0);
			break;
		case 'D':
			parse_path(optarg);
			break;
		case 'L':
			lid = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			n = atoi(optarg);
			if (n < 1)
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind < 3 || (!dr && !lid))
		usage();
	set = !strcmp(argv[optind], "set");
	if (!set && strcmp(argv[optind], "get"))
		usage();
	attr = strtoul(argv[optind + 1], NULL, 0);
	mod = strtoul(argv[optind + 2], NULL, 0);

	if (umad_init() < 0) {
		fprintf(stderr, "umad_init failed\n");
		return EXIT_ERROR;
	}
	fd = umad_open_port(dev, port);
	if (fd < 0) {
		fprintf(stderr, "umad_open_port: %s\n", strerror(-fd));
		return EXIT_ERROR;
	}
	agent = umad_register(fd, dr ? 0x81 : 0x01, 1, 0, NULL);
	if (agent < 0) {
		fprintf(stderr, "umad_register: %s\n", strerror(-agent));
		return EXIT_ERROR;
	}
	srand(time(NULL) ^ getpid());
	tid = (uint64_t)rand() << 8;

	if (n) {
		if (set)
			usage();
		return burst(n, attr, mod);
	}
	ret = rpc(0x01, attr, mod, mad);
	if (!ret && set) {
		for (i = optind + 3; i < argc; i++) {
			char *p = argv[i], *end;
			unsigned long off = strtoul(p, &end, 0);

			if (*end != '=')
				usage();
			for (p = end + 1; *p; p = end) {
				if (off >= DATA_LEN)
					usage();
				mad[DATA_OFF + off++] = strtoul(p, &end, 16);
				if (*end == ',')
					end++;
				else if (*end)
					usage();
			}
		}
		ret = rpc(0x02, attr, mod, mad);
	}
	if (ret)
		return ret;
	memcpy(&status, mad + 4, 2);
	printf("status=0x%04x\ndata=", ntohs(status) & 0x7fff);
	for (i = 0; i < DATA_LEN; i++)
		printf("%02x", mad[DATA_OFF + i]);
	printf("\n");
	umad_unregister(fd, agent);
	umad_close_port(fd);
	return EXIT_ANSWER;
}
