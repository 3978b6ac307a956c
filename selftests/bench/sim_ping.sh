#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): on two ibtrace_sim HCAs
# back to back, `ibtracectl ping --dlid` (in-kernel requester and agent,
# class 0x30) against `ibping` (user space over ib_umad, class 0x32) to
# an `ibping -S` server on the same HCA pair. Both are timed by the wall
# clock, back to back, at two counts (IBTRACE_BENCH_COUNT, default 2000,
# and a fifth of it), each IBTRACE_BENCH_REPS times (default 5, the
# median kept): per probe at each, and the marginal cost of a probe
# (the difference of the two, with the process's start and end taken
# out), the figure to compare (ibping's own printout is in 10 us units
# and reads low). Run in the VM:
#   vm-run -- selftests/bench/sim_ping.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null
source "$(dirname "$0")/stats.sh"

count=${IBTRACE_BENCH_COUNT:-2000}
nreps=${IBTRACE_BENCH_REPS:-5}
SIM_CTL=$IBT_ROOT/selftests/ibtrace_sim_ctl

ibt_insmod_sim_ibtrace || exit 1
ibt_sim_pair_up b0 || exit 1
A=ibtsim0
B=ibtsim1


# Two counts: the wall time of each run includes the process's start and
# end, the difference between them only what each further probe costs.
count_lo=$((count / 5))
((count_lo > 0)) || count_lo=1

# (each run's output is kept in a file: the runs are timed in a subshell)
out_ours=$(mktemp) out_peer=$(mktemp)
trap 'rm -f "$out_ours" "$out_peer"' EXIT

# ours N: the wall ns of `ibtracectl ping -c N`; its JSON in $out_ours.
ours()
{
	local t0 t1

	t0=$(ns)
	"$IBTRACECTL" -j -d "$A" ping --dlid 2 -c "$1" -i 0 >"$out_ours"
	t1=$(ns)
	echo $((t1 - t0))
}

# peer N: the wall ns of `ibping -c N -f`; its output in $out_peer.
peer()
{
	local t0 t1

	t0=$(ns)
	ibping -C "$A" -P 1 -c "$1" -f 2 >"$out_peer" 2>&1
	t1=$(ns)
	echo $((t1 - t0))
}

"$IBTRACECTL" -d "$A" ping --dlid 2 -c 10 -i 0 >/dev/null	# warm up
read -r ours_lo ours_hi < <(reps ours)
read -r med avg p99 recv shown < <(jq -r '"\(.summary.rtt_median_ns) \(.summary.rtt_avg_ns) \(.summary.rtt_p99_ns) \(.summary.received) \(.probes | length)"' "$out_ours")

ibping -S -C "$B" -P 1 >/dev/null 2>&1 &
srv=$!
sleep 1
ibping -C "$A" -P 1 -c 10 -f 2 >/dev/null 2>&1	# warm up
read -r peer_lo peer_hi < <(reps peer)
kill "$srv" 2>/dev/null
peer_recv=$(sed -n 's/.* \([0-9]*\) packets received.*/\1/p;s/.*, \([0-9]*\) received.*/\1/p' "$out_peer" | head -1)

# us A B: A / B / 1000 (awk: an empty figure is 0).
us() { awk -v a="${1:-0}" -v b="${2:-1}" 'BEGIN { printf "%.1f", (b > 0 ? a / b / 1000 : 0) }'; }
ours_marg=$(us $((ours_hi - ours_lo)) $((count - count_lo)))
peer_marg=$(us $((peer_hi - peer_lo)) $((count - count_lo)))

echo
echo "ibtrace_sim, two HCAs back to back, $count_lo and $count round trips, TCG VM"
echo "(wall per probe: the median of $nreps runs at each count)"
fmt='%-44s %11s %11s %11s %9s %9s %9s\n'
# shellcheck disable=SC2059 # one format for the header and the rows
printf "$fmt" "" "us/probe@$count_lo" "us/probe@$count" \
	"marginal us" "median" "mean" "p99"
# shellcheck disable=SC2059
printf "$fmt" "ibtracectl ping --dlid (kernel, class 0x30)" \
	"$(us "$ours_lo" "$count_lo")" "$(us "$ours_hi" "$count")" "$ours_marg" \
	"$(us "$med" 1)" "$(us "$avg" 1)" "$(us "$p99" 1)"
# shellcheck disable=SC2059
printf "$fmt" "ibping -f (user space, class 0x32)" \
	"$(us "$peer_lo" "$count_lo")" "$(us "$peer_hi" "$count")" "$peer_marg" - - -
echo "(marginal: the cost of one more probe, the difference of the two runs' wall"
echo " times over the difference of their counts; median, mean and p99: ours"
echo " in-kernel RTT, from the run of $count)"
awk -v m="$ours_marg" -v med="$med" -v avg="$avg" 'BEGIN {
	if (med > 0 && avg > 0)
		printf "ours: marginal / median RTT %.2f, marginal / mean RTT %.2f\n",
			m * 1000 / med, m * 1000 / avg }'
awk -v a="$ours_marg" -v b="$peer_marg" 'BEGIN { printf "ratio ibtracectl/ibping (marginal cost per probe): %.2f\n", (b > 0 ? a / b : 0) }'
echo "answered (at $count): ibtracectl $recv/$count (its results printed: $shown), ibping ${peer_recv:-?}/$count"

"$SIM_CTL" del b0 >/dev/null
rmmod ibtrace ibtrace_sim
