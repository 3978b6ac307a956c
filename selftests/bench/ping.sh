#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): round trip of
# `ibtracectl ping` to the peer VM's in-kernel agent against
# ibv_ud_pingpong between the same two rxe ports - a raw UD round trip,
# the floor for any MAD exchange; then both again in loopback on one VM
# (rxe0 to its own GID), without the link between the VMs. Run by
# `make bench` as
#   vm-run --vms 2 --peer-cmd selftests/bench/ping-peer.sh -- selftests/bench/ping.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null

count=${IBTRACE_BENCH_COUNT:-500}

ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
ibt_wait_peer || { echo "the peer VM did not become ready" >&2; exit 1; }
peer=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")

# Warm up neighbour and AH paths.
"$IBTRACECTL" -d rxe0 ping --dgid "$peer" -c 5 -i 0 >/dev/null

# compare TITLE DGID UD_HOST: our ping to DGID against ibv_ud_pingpong's
# client to UD_HOST (whose server serves one run), both $count round trips.
compare()
{
	local js med p99 avg recv ud ud_us

	js=$("$IBTRACECTL" -j -d rxe0 ping --dgid "$2" -c "$count" -i 0 -t 2000)
	read -r med p99 avg recv < <(jq -r '.summary | "\(.rtt_median_ns) \(.rtt_p99_ns) \(.rtt_avg_ns) \(.received)"' <<< "$js")
	ud=$(timeout 300 ibv_ud_pingpong -d rxe0 -g 0 -n "$count" "$3" 2>&1)
	ud_us=$(sed -n 's/.* iters in .* seconds = \([0-9.]*\) usec\/iter/\1/p' <<< "$ud")

	echo
	echo "$1, $count round trips each"
	printf '%-40s %12s %12s %12s\n' "" "median us" "p99 us" "mean us"
	printf '%-40s %12.1f %12.1f %12.1f\n' "ibtracectl ping (kernel agent, MAD)" \
		"$(bc -l <<< "$med/1000")" "$(bc -l <<< "$p99/1000")" "$(bc -l <<< "$avg/1000")"
	printf '%-40s %12s %12s %12.1f\n' "ibv_ud_pingpong (raw UD, user space)" "-" "-" "${ud_us:-0}"
	if [ -n "$ud_us" ]; then
		printf 'ratio ibtrace/ud_pingpong (mean): %.2f\n' "$(bc -l <<< "$avg/1000/$ud_us")"
	else
		echo "ibv_ud_pingpong gave no figure:"; echo "$ud"
	fi
	echo "ibtracectl answered: $recv/$count"
}

# The peer serves one ibv_ud_pingpong run of $count iterations.
compare "RTT over rxe between two TCG VMs" "$peer" "${VMRUN_PEER_IP4:-198.18.0.2}"

# The same without the link between the VMs: rxe0 to its own GID, the
# pingpong's server here (what each side's software costs, the link's
# hundreds of microseconds taken out).
timeout 300 ibv_ud_pingpong -d rxe0 -g 0 -n "$count" >/dev/null 2>&1 &
sleep 1
compare "RTT over rxe in loopback (one VM, rxe0 to itself)" "$(ibt_gid0 rxe0)" 127.0.0.1
wait
