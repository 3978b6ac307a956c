#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): `ibtracectl test run perf`
# (dapltest -T P in the kernel) against perftest's ib_write_lat/_bw and
# ib_read_lat/_bw between the same two rxe ports, same sizes and
# iterations: latency with one operation in flight (ours: median from post
# to completion; perftest: t_typical, its median) and bandwidth with 16 in
# flight (perftest -t 16; MiB/s both). The two latencies are not the
# same measure for RW: ib_write_lat's is half the round trip of a
# ping-pong (one WRITE each way, no ACK awaited), ours a WRITE's post to
# its completion (the WRITE and its ACK), so the same work gives ours
# about twice perftest's; ib_read_lat's, like ours, is one READ's post
# to completion. IBTRACE_BENCH_ACK_TIMEOUT sets both tools' local ACK
# timeout (default 14, perftest's: rxe 6.1 resends about once per
# timeout on a busy QP, counted in completer_retry_err). Then the
# latencies again in loopback (rxe0 to itself), without the link between
# the VMs, which is most of every figure above. Run by
# `make bench` as
#   vm-run --vms 2 --peer-cmd selftests/bench/perf-peer.sh -- selftests/bench/perf.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null
source "$(dirname "$0")/perf-runs.sh"

ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
ibt_wait_peer || { echo "the peer VM did not become ready" >&2; exit 1; }
peer=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")
peer4=${VMRUN_PEER_IP4:-198.18.0.2}

# perftest TOOL SIZE ITERS [DEPTH]: the client, retried until the server
# of that run at $peer4 listens; prints its result line.
perftest()
{
	local tool=$1 size=$2 iters=$3 depth=$4 i out

	for ((i = 0; i < 60; i++)); do
		out=$(timeout 300 "$tool" -d rxe0 -x 0 -F -u "$PERF_ACK" -s "$size" -n "$iters" \
			${depth:+-t "$depth"} "$peer4" 2>&1) && break
		[ $? = 124 ] && { echo "# $tool -s $size: no result in 300 s" >&2; break; }
		sleep 0.5
	done
	awk -v s="$size" '$1 == s { print; exit }' <<< "$out"
}

# ours OP SIZE ITERS PIPELINE: "median_ns MiB/s" of our perf test against
# the server at $peer.
ours()
{
	"$IBTRACECTL" -j -d rxe0 test run perf --peer "$peer" --iterations "$3" \
		--pipeline "$4" --ack-timeout "$PERF_ACK" "$1" "$2" |
		jq -r '.perf | "\(.lat_median_ns // 0) \(if .elapsed_ns > 0 then .bytes * 1000000000 / .elapsed_ns / 1048576 else 0 end)"'
}

# div A B: A / B, or 0 when B is not positive or either is missing (awk:
# jq may print 1.5e-05, which bc cannot read).
div() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { print (b + 0 > 0 ? a / b : 0) }'; }
# fig VALUE: VALUE to one decimal, "-" unless a positive finite number
# (perftest prints "inf" when its clock saw no time pass); ratio A B:
# A/B to two decimals, "-" unless both are such numbers.
fig() { awk -v v="$1" 'BEGIN { if (v ~ /^[0-9]+(\.[0-9]*)?$/ && v + 0 > 0) printf "%.1f", v; else printf "-" }'; }
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { n = "^[0-9]+(\\.[0-9]*)?$"
		if (a ~ n && b ~ n && a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b
		else printf "-" }'
}

# Warm up the connection set-up paths.
ours RW 64 10 1 >/dev/null

printf '\n%s\n' "RDMA over rxe between two TCG VMs (iterations: $PERF_ITERS, 1 MiB: $(perf_iters 1048576); ACK timeout $PERF_ACK, both tools)"
# Where an operation becomes several packets (between two VMs a WRITE of
# more than one MTU has been seen waiting for a retransmission: rdma
# statistic's completer_retry_err, printed at the end).
echo "rxe0 active MTU: $(ibv_devinfo -d rxe0 | awk '/active_mtu/ { print $2; exit }')"
# table: the comparison's rows for the runs of perf_runs on stdin, against
# the servers at $peer (ours) and $peer4 (perftest's); with $here, each
# perftest run's server is started here first.
table()
{
	local tool size iters depth op line med pt bw bw_pt lat_ours lat_pt

	printf '%-4s %8s | %12s %12s %6s | %10s %10s %6s\n' op size "ours lat us" "perftest us" ratio \
		"ours MiB/s" "pt MiB/s" ratio
	while read -r tool size iters depth; do
		case $tool in
		ib_write_*) op=RW ;;
		*) op=RR ;;
		esac
		[ -n "$here" ] && timeout 300 "$tool" -d rxe0 -x 0 -F -u "$PERF_ACK" -s "$size" \
			-n "$iters" ${depth:+-t "$depth"} >/dev/null 2>&1 &
		line=$(perftest "$tool" "$size" "$iters" "$depth")
		wait
		case $tool in
		*_lat)
			read -r med _ < <(ours "$op" "$size" "$iters" 1)
			# #bytes #iterations t_min t_max t_typical ...
			pt=$(awk '{ print $5 }' <<< "$line")
			lat_ours=$(div "$med" 1000)
			lat_pt=${pt:-0}
			;;
		*_bw)
			read -r _ bw < <(ours "$op" "$size" "$iters" "$PERF_DEPTH")
			# #bytes #iterations BW_peak BW_average MsgRate
			bw_pt=$(awk '{ print $4 }' <<< "$line")
			printf '%-4s %8s | %12s %12s %6s | %10s %10s %6s\n' "$op" "$size" \
				"$(fig "$lat_ours")" "$(fig "$lat_pt")" "$(ratio "$lat_ours" "$lat_pt")" \
				"$(fig "$bw")" "$(fig "$bw_pt")" "$(ratio "$bw" "$bw_pt")"
			;;
		esac
	done
}

here=
perf_runs | table
echo "(ratio: ours / perftest; latency lower is better, bandwidth higher)"
echo "rxe0 retransmissions and sequence errors of the whole run (rdma statistic):"
rdma statistic show link rxe0/1 | tr ' ' '\n' | paste - - |
	grep -E 'retry|seq|duplicate' | sed 's/^/  /'

# The same again without the link between the VMs: rxe0 to its own GID
# (our server and perftest's here), what each side's software costs; the
# small sizes only.
echo
echo "RDMA over rxe in loopback (one VM, rxe0 to itself; iterations: $PERF_ITERS)"
"$IBTRACECTL" server start >/dev/null 2>&1
peer=$(ibt_gid0 rxe0)
peer4=127.0.0.1
here=1
PERF_SIZES="64 4096" perf_runs | table
echo "(ratio: ours / perftest)"
"$IBTRACECTL" server stop >/dev/null 2>&1
