#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): on two ibtrace_sim HCAs
# back to back, `ibtracectl ping --dlid` (in-kernel requester and agent,
# class 0x30) against `ibping` (user space over ib_umad, class 0x32) to
# an `ibping -S` server on the same HCA pair. Both are timed by the wall
# clock per round trip, back to back (ibping's own printout is in 10 us
# units and reads low). Run in the VM:
#   vm-run -- selftests/bench/sim_ping.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null

count=${IBTRACE_BENCH_COUNT:-1000}
SIM_CTL=$IBT_ROOT/selftests/ibtrace_sim_ctl

ibt_insmod_sim_ibtrace || exit 1
"$SIM_CTL" add b0 "$IBT_TOPO/two_hcas.topo" no-sm >/dev/null || exit 1
A=ibtsim0
B=ibtsim1
for args in "-D 0 1 lid 1" "-D 0,1 1 lid 2" "-D 0 1 arm" "-D 0,1 1 arm" \
	    "1 1 active" "2 1 active"; do
	# shellcheck disable=SC2086
	ibportstate -C "$A" -P 1 -t 500 $args >/dev/null || exit 1
done

ns()
{
	date +%s%N
}

"$IBTRACECTL" -d "$A" ping --dlid 2 -c 10 -i 0 >/dev/null	# warm up
t0=$(ns)
js=$("$IBTRACECTL" -j -d "$A" ping --dlid 2 -c "$count" -i 0)
t1=$(ns)
ours_wall=$(( (t1 - t0) / count ))
read -r med p99 recv < <(jq -r '.summary | "\(.rtt_median_ns) \(.rtt_p99_ns) \(.received)"' <<< "$js")

ibping -S -C "$B" -P 1 >/dev/null 2>&1 &
srv=$!
sleep 1
ibping -C "$A" -P 1 -c 10 -f 2 >/dev/null 2>&1	# warm up
t0=$(ns)
out=$(ibping -C "$A" -P 1 -c "$count" -f 2 2>&1)
t1=$(ns)
kill "$srv" 2>/dev/null
peer_wall=$(( (t1 - t0) / count ))
peer_recv=$(sed -n 's/.* \([0-9]*\) packets received.*/\1/p;s/.*, \([0-9]*\) received.*/\1/p' <<< "$out" | head -1)

echo
echo "ibtrace_sim, two HCAs back to back, $count round trips each, TCG VM"
printf '%-46s %14s %10s %10s\n' "" "wall us/probe" "median us" "p99 us"
printf '%-46s %14.1f %10.1f %10.1f\n' "ibtracectl ping --dlid (kernel, class 0x30)" \
	"$(bc -l <<< "$ours_wall/1000")" "$(bc -l <<< "$med/1000")" "$(bc -l <<< "$p99/1000")"
printf '%-46s %14.1f %10s %10s\n' "ibping -f (user space, class 0x32)" \
	"$(bc -l <<< "$peer_wall/1000")" "-" "-"
printf 'ratio ibtracectl/ibping (wall per probe): %.2f\n' "$(bc -l <<< "$ours_wall/$peer_wall")"
echo "answered: ibtracectl $recv/$count, ibping ${peer_recv:-?}/$count"

"$SIM_CTL" del b0 >/dev/null
rmmod ibtrace ibtrace_sim
