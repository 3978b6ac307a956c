#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Peer side of bench/perf.sh: rxe0 with the ibtrace server started (the
# perf test's RDMA READs and WRITEs go to a buffer it opens), then one
# perftest server per run of bench/perf.sh, in the same order.

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null
source "$(dirname "$0")/perf-runs.sh"

ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
# A 64 KiB or 1 MiB run asks a hold past the default max-hold-ms (60 s).
"$IBTRACECTL" server start --max-hold 600000 || exit 1
touch "$VMRUN_SHARED/peer-ready"
perf_runs | while read -r tool size iters depth; do
	# One client each; a client that never comes is given up on.
	timeout 600 "$tool" -d rxe0 -x 0 -F -u "$PERF_ACK" -s "$size" -n "$iters" \
		${depth:+-t "$depth"} >/dev/null 2>&1
done
exec sleep infinity
