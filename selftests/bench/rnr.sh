#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): the RNR NAK timer of rxe for
# all 32 codes, loopback on one port. ibtrace's kernel test (`ibtracectl
# test run rnr --timer all`, busy polling and completion events) beside
# the same experiment from user space with libibverbs (bench/rnr_user: a
# fresh RC pair per iteration, busy ibv_poll_cq, CLOCK_MONOTONIC).
# Per code: the table value, the median and p99 wait per retry measured
# by each, and the ratios measured/table and kernel/user-space; with a
# peer VM also peer mode, post to completion beside the wire wait. Run in
# the VM:
#   vm-run --vms 2 --peer-cmd selftests/peer.sh -- selftests/bench/rnr.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null

iters=${IBTRACE_BENCH_RNR_ITERATIONS:-10}
USER_BIN=$(dirname "$0")/rnr_user

ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1

kern() {
	"$IBTRACECTL" -j -d rxe0 test run rnr --timer all --iterations "$iters" \
		--poll "$1"
}
# Exit 15 is a verdict (rxe may retry up to a tick early), not a failed run.
busy=$(kern busy)
[ -n "$busy" ] || { echo "ibtracectl test run rnr (busy) failed" >&2; exit 1; }
event=$(kern event)
[ -n "$event" ] || { echo "ibtracectl test run rnr (event) failed" >&2; exit 1; }
user=$("$USER_BIN" -d rxe0 -n "$iters" $(seq 0 31)) ||
	{ echo "rnr_user failed" >&2; exit 1; }

ucal=$(sed -n 's/^calibration_ns=//p' <<< "$user")
kfig() { jq -r --argjson c "$2" ".codes[] | select(.code == \$c) | .$3" <<< "$1"; }
ufig() { sed -n "s/^code=$1 .* $2=\([0-9]*\).*/\1/p" <<< "$user"; }
ms() { bc -l <<< "scale=3; $1 / 1000000"; }

echo
echo "RNR NAK timer on rxe (loopback, rnr_retry 1, $iters iterations per code;" \
	"verdict busy $(jq -r .verdict <<< "$busy"), events $(jq -r .verdict <<< "$event"))"
echo "wait per retry = post to completion - calibration (zero-wait post to completion)"
printf 'calibration: kernel busy %s us, kernel events %s us, user space busy %s us\n' \
	"$(bc -l <<< "scale=1; $(jq -r '.codes[0].calibration_ns' <<< "$busy") / 1000")" \
	"$(bc -l <<< "scale=1; $(jq -r '.codes[0].calibration_ns' <<< "$event") / 1000")" \
	"$(bc -l <<< "scale=1; $ucal / 1000")"
printf '%4s %10s | %10s %10s %7s | %10s %10s | %10s %10s %7s\n' \
	code "table ms" "kern med" "kern p99" "k/table" "event med" "event p99" \
	"user med" "user p99" "k/user"
for c in $(seq 0 31); do
	table=$(kfig "$busy" "$c" table_ns)
	kmed=$(kfig "$busy" "$c" wait_median_ns)
	kp99=$(kfig "$busy" "$c" wait_p99_ns)
	emed=$(kfig "$event" "$c" wait_median_ns)
	ep99=$(kfig "$event" "$c" wait_p99_ns)
	umed=$(( $(ufig "$c" median_ns) - ucal ))
	up99=$(( $(ufig "$c" p99_ns) - ucal ))
	printf '%4d %10.3f | %10.3f %10.3f %7.2f | %10.3f %10.3f | %10.3f %10.3f %7.2f\n' \
		"$c" "$(ms "$table")" "$(ms "$kmed")" "$(ms "$kp99")" \
		"$(bc -l <<< "$kmed / $table")" "$(ms "$emed")" "$(ms "$ep99")" \
		"$(ms "$umed")" "$(ms "$up99")" \
		"$(bc -l <<< "if ($umed > 0) $kmed / $umed else 0")"
done
gran=$(jq -r '[.codes[].granularity_ns] | max' <<< "$busy")
echo "timer granularity the kernel test reports: $(ms "$gran") ms"
short() {	# JSON LABEL: the codes with a wait per retry under the table value
	jq -r --arg l "$2" '[.codes[] | select(.wait_min_ns < .table_ns) |
		"\(.code) (min \(.wait_min_ns / 1e6) ms, table \(.table_ns / 1e6) ms)"] |
		"\($l): waits per retry (post to completion minus calibration) under the table value: " +
		(if length == 0 then "none" else join(", ") end)' <<< "$1"
}
short "$busy" "kernel busy"
short "$event" "kernel events"

# Peer mode (vm-run --vms 2 --peer-cmd selftests/peer.sh): the peer VM's
# ibtrace is the responder (peer.sh starts its server: "server start"); the packet tap on rxe0's netdev times each
# RNR NAK's arrival to the retried SEND's departure, beside post to
# completion.
if [ -z "$VMRUN_PEER_MAC" ] || ! ibt_wait_peer >/dev/null 2>&1; then
	echo "peer mode: no peer VM (run under vm-run --vms 2 --peer-cmd selftests/peer.sh)"
	exit 0
fi
peer=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")
pj=$("$IBTRACECTL" -j -d rxe0 test run rnr --timer all --iterations "$iters" \
	--peer "$peer")
# Exit 15 is a verdict (a wire wait a tick short), not a failed run.
[ -n "$pj" ] || { echo "ibtracectl test run rnr --peer failed" >&2; exit 1; }
echo
echo "RNR NAK timer on rxe, peer mode (rnr_retry 1, $iters iterations per code; verdict $(jq -r .verdict <<< "$pj"))"
printf '%4s %10s | %10s %10s %7s | %10s %10s %10s %7s\n' \
	code "table ms" "post med" "post p99" "p/table" "wire min" "wire med" \
	"wire max" "w/table"
for c in $(seq 0 31); do
	table=$(kfig "$pj" "$c" table_ns)
	pmed=$(kfig "$pj" "$c" wait_median_ns)
	wmed=$(kfig "$pj" "$c" wire_median_ns)
	printf '%4d %10.3f | %10.3f %10.3f %7.2f | %10.3f %10.3f %10.3f %7.2f\n' \
		"$c" "$(ms "$table")" "$(ms "$pmed")" \
		"$(ms "$(kfig "$pj" "$c" wait_p99_ns)")" \
		"$(bc -l <<< "$pmed / $table")" \
		"$(ms "$(kfig "$pj" "$c" wire_min_ns)")" "$(ms "$wmed")" \
		"$(ms "$(kfig "$pj" "$c" wire_max_ns)")" \
		"$(bc -l <<< "$wmed / $table")"
done
short "$pj" "peer"
echo "(the verdict compares post to completion itself with the table value;" \
	"across hosts the calibration's round trip varies by milliseconds, so" \
	"the wire wait is the figure to read)"
