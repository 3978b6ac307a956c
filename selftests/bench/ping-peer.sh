#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Peer side of bench/ping.sh: rxe0 with the ibtrace agent, and an
# ibv_ud_pingpong server for each of the client's runs: per repetition
# one polling its CQ, then one with -e. Then, if the client asks for the
# stages (it touches stages-start), ib_mad's trace events here during its
# stage run, dumped to peer.trace in the shared directory.

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null

count=${IBTRACE_BENCH_COUNT:-500}
reps=${IBTRACE_BENCH_REPS:-3}
ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
touch "$VMRUN_SHARED/peer-ready"
for _ in $(seq "$reps"); do
	timeout 300 ibv_ud_pingpong -d rxe0 -g 0 -n "$count" >/dev/null
	timeout 300 ibv_ud_pingpong -d rxe0 -g 0 -n "$count" -e >/dev/null
done
if ibt_wait_shared stages-start 600; then
	ibt_mad_events 1 && touch "$VMRUN_SHARED/stages-ready"
	ibt_wait_shared stages-done 600
	ibt_mad_events 0
	cat /sys/kernel/tracing/trace > "$VMRUN_SHARED/peer.trace"
	touch "$VMRUN_SHARED/stages-dumped"
fi
exec sleep infinity
