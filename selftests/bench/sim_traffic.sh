#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): packets per second the
# sim's fabric forwards through a 3-link path, HCA A - switch S1 - switch
# S2 - HCA B (topo/s1s2.topo, SM-lite), with `ibtracectl sim traffic`
# (IBTRACE_BENCH_COUNT packets as fast as the flow's send queue empties,
# default 20000) at payloads of 64 and 1024 bytes:
#   - flow control on (the power-on state: every data packet waits for
#     its credits, each link's receive buffer counted per VL);
#   - flow control off: every port of the path ignores the credits (its
#     packets leave at once; the receive buffers, 8192 blocks here, never
#     overrun: a flow keeps at most 64 packets in the fabric).
# The fabric runs on one ordered work item (one CPU at a time). Each
# figure is the median of IBTRACE_BENCH_REPS runs (default 5), with their
# range; the ratio on/off is the cost of flow control. No peer: ibsim
# forwards management packets only, it has no data path to compare.
# Run in the VM:
#   vm-run -- selftests/bench/sim_traffic.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null
source "$(dirname "$0")/stats.sh"

count=${IBTRACE_BENCH_COUNT:-20000}
nreps=${IBTRACE_BENCH_REPS:-5}

rmmod ibtrace_sim 2>/dev/null
modprobe ib_core || exit 1
insmod "$SIM_KO" || exit 1
"$IBTRACECTL" sim add "$IBT_ROOT/selftests/topo/s1s2.topo" --name bt >/dev/null || exit 1
ibt_sim_wait_active bt || { echo "bench: the fabric did not come up" >&2; exit 1; }
# shellcheck disable=SC2034	# read by ibt_sim_lid
J=$(ibt_sim_json bt)
B_LID=$(ibt_sim_lid B)
# the largest buffers on the path: no overrun without flow control
for p in "S1 1" "S2 1" "B 1"; do
	# shellcheck disable=SC2086
	"$IBTRACECTL" sim set bt ${p% *} port ${p#* } buffer 8192 || exit 1
done

# credits MODE: every port of the path ignores (ignore) or obeys them
credits()
{
	"$IBTRACECTL" sim set bt A port 1 credits "$1" &&
	"$IBTRACECTL" sim set bt S1 port 2 credits "$1" &&
	"$IBTRACECTL" sim set bt S2 port 2 credits "$1"
}

# run SIZE: packets/s of one flow of $count packets of SIZE bytes, or "-"
run()
{
	"$IBTRACECTL" -j sim traffic bt --from A --to "$B_LID" --count "$count" \
		--size "$1" --timeout 300 2>/dev/null |
		jq -r '.flows[0] | if .delivered == .count then .pps | round else "-" end' ||
		echo -
}

echo "# sim traffic, A -> S1 -> S2 -> B, $count packets a run, median of $nreps (range)"
printf '%-8s %-26s %-26s %s\n' size "flow control on (pkt/s)" "off (pkt/s)" "on/off"
for size in 64 1024; do
	on=() off=()
	for _ in $(seq "$nreps"); do
		credits obey || exit 1
		on+=("$(run "$size")")
		credits ignore || exit 1
		off+=("$(run "$size")")
	done
	m_on=$(median "${on[@]}")
	m_off=$(median "${off[@]}")
	ratio=-
	[ "$m_on" != - ] && [ "$m_off" != - ] &&
		ratio=$(awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "%.2f", a / b }')
	printf '%-8s %-26s %-26s %s\n' "$size" "$m_on ($(range "${on[@]}"))" \
		"$m_off ($(range "${off[@]}"))" "$ratio"
done
credits obey
"$IBTRACECTL" sim del bt
rmmod ibtrace_sim
