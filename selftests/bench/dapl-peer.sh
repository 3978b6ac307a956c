#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Peer side of bench/dapl.sh: rxe0 with the ibtrace server started (its
# perf and txn services), and dapltest's server (-T S) on the same port
# until bench/dapl.sh asks it to quit (-T Q).

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null
source "$(dirname "$0")/dapl-runs.sh"

ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
"$IBTRACECTL" server start --max-mem-kb 65536 --max-hold 600000 || exit 1
dapl_conf /tmp
dapltest -T S -D "$DAPL_IA" > "$VMRUN_SHARED/dapltest-server.log" 2>&1 &
sleep 2
touch "$VMRUN_SHARED/peer-ready"
wait
exec sleep infinity
