#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make demo`, VM 1: what ibtrace does so far, on two hosts joined by
# RoCE (rxe). The peer VM runs selftests/peer.sh (rxe0 + ibtrace).

source "$(dirname "$0")/lib.sh" >/dev/null

say()
{
	printf '\n\033[1m== %s\033[0m\n' "$*"
}

run()
{
	printf '$ %s\n' "$*"
	"$@"
}

say "Loading ibtrace and creating rxe0 on $IBT_NETDEV"
ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
ibt_wait_peer || { echo "the peer VM did not become ready" >&2; exit 1; }
peer=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")

say "The RDMA ports ibtrace sees, and their class 0x30 agents"
run "$IBTRACECTL" dev show

say "Ping the peer's in-kernel agent: VendorGet(ClassPortInfo)"
run "$IBTRACECTL" -d rxe0 ping --dgid "$peer" -c 5 -i 200

say "SourceRoute probe, expecting port 1 (right)"
run "$IBTRACECTL" -d rxe0 ping --dgid "$peer" --source-route 1

say "SourceRoute probe, expecting port 2 (wrong): the agent reports where it really arrived"
run "$IBTRACECTL" -d rxe0 ping --dgid "$peer" --source-route 2

say "The same as JSON"
run "$IBTRACECTL" -j --pretty -d rxe0 ping --dgid "$peer" -c 2 -i 100

say "Local agent counters"
run "$IBTRACECTL" agent show
exit 0
