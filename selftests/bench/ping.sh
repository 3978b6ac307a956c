#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): round trip of
# `ibtracectl ping` to the peer VM's in-kernel agent against
# ibv_ud_pingpong between the same two rxe ports - a raw UD round trip,
# the floor for any MAD exchange; then both again in loopback on one VM
# (rxe0 to its own GID), without the link between the VMs. Last, where
# the two-VM round trip goes: ib_mad's trace events on both VMs during a
# flood of $count probes, matched by TID, intervals taken within each VM
# (their clocks differ).
#
# ibv_ud_pingpong runs twice each time: polling its CQ (its default: it
# never sleeps, so it pays no wake-up) and with -e, sleeping on CQ events
# as our agent and ib_mad do. Only its mean is printed by it; ours is
# given as median, p99 and mean, and the ratios are of means. Each
# comparison is repeated IBTRACE_BENCH_REPS times (default 3) and every
# repetition is printed: these figures depend on the machine's load.
# The VMs' vCPUs matter more than anything we do: on a host of two cores,
# two VMs of two vCPUs each (vm-run's default) are four vCPUs taking
# turns at two cores, and every wake-up in a guest may wait for one (our
# round trip has more of them than ibv_ud_pingpong's: ib_mad's completion
# work on both sides); with --cpus 1 each VM has a core, as each of two
# hosts would. Run by `make bench` both ways:
#   vm-run --cpus 1 --vms 2 --peer-cmd selftests/bench/ping-peer.sh -- selftests/bench/ping.sh
#   vm-run --vms 2 --peer-cmd selftests/bench/ping-peer.sh -- selftests/bench/ping.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null

count=${IBTRACE_BENCH_COUNT:-500}
reps=${IBTRACE_BENCH_REPS:-3}

ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
ibt_wait_peer || { echo "the peer VM did not become ready" >&2; exit 1; }
peer=$(ibt_ll_gid_of_mac "$VMRUN_PEER_MAC")

# Warm up neighbour and AH paths.
"$IBTRACECTL" -d rxe0 ping --dgid "$peer" -c 5 -i 0 >/dev/null

# ud_us HOST [-e]: mean microseconds per round trip of an ibv_ud_pingpong
# client to HOST's server (started for each run; the client retries while
# it is not listening yet), or nothing.
ud_us()
{
	local out

	for _ in $(seq 50); do
		out=$(timeout 300 ibv_ud_pingpong -d rxe0 -g 0 -n "$count" "$@" 2>&1)
		grep -q "usec/iter" <<< "$out" && break
		sleep 0.2
	done
	sed -n 's/.* iters in .* seconds = \([0-9.]*\) usec\/iter/\1/p' <<< "$out"
}

# compare TITLE DGID UD_HOST: our ping to DGID against ibv_ud_pingpong's
# client to UD_HOST (whose server serves two runs per repetition: polling,
# then -e), $count round trips each, $reps times.
compare()
{
	local js med p99 avg recv poll ev r

	echo
	echo "$1, $count round trips each, $reps repetitions"
	printf '%3s | %10s %10s %10s %8s | %13s %13s | %7s %7s\n' rep \
		"median us" "p99 us" "mean us" answered "ud poll us" "ud -e us" \
		"/poll" "/-e"
	for r in $(seq "$reps"); do
		js=$("$IBTRACECTL" -j -d rxe0 ping --dgid "$2" -c "$count" -i 0 -t 2000)
		read -r med p99 avg recv < <(jq -r '.summary |
			"\(.rtt_median_ns) \(.rtt_p99_ns) \(.rtt_avg_ns) \(.received)"' <<< "$js")
		poll=
		((skip_poll)) || poll=$(ud_us "$3")
		ev=$(ud_us "$3" -e)
		awk -v r="$r" -v med="$med" -v p99="$p99" -v avg="$avg" \
			-v recv="$recv/$count" -v poll="$poll" -v ev="$ev" 'BEGIN {
			printf "%3d | %10.1f %10.1f %10.1f %8s | %13s %13s | %7s %7s\n",
				r, med / 1000, p99 / 1000, avg / 1000, recv,
				poll == "" ? "-" : poll, ev == "" ? "-" : ev,
				poll == "" ? "-" : sprintf("%.2f", avg / 1000 / poll),
				ev == "" ? "-" : sprintf("%.2f", avg / 1000 / ev) }'
	done
	echo "ratios: our mean over ibv_ud_pingpong's, polling and with -e ('-': it gave no figure)"
}

# ud_server N: serve N repetitions of a polling run and a -e run.
ud_server()
{
	for _ in $(seq "$1"); do
		((skip_poll)) ||
			timeout 300 ibv_ud_pingpong -d rxe0 -g 0 -n "$count" >/dev/null 2>&1
		timeout 300 ibv_ud_pingpong -d rxe0 -g 0 -n "$count" -e >/dev/null 2>&1
	done
}

# hex2num and the stages of each probe from two traces: lines "A" or "B"
# (which VM) then the trace; prints "STAGE MICROSECONDS" per probe.
# shellcheck disable=SC2016 # the awk program's own $ fields
stage_awk='
function hex2num(h,   i, n) {
	n = 0; h = tolower(substr(h, 3))
	for (i = 1; i <= length(h); i++)
		n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return n
}
/^=== / { vm = $2; next }
match($0, / [0-9]+\.[0-9]+: ib_mad_[a-z_]+:/) {
	split(substr($0, RSTART + 1, RLENGTH - 2), f, ": ")
	if (!match($0, /method 0x[0-9a-f]+/)) next
	m = hex2num(substr($0, RSTART + 7, RLENGTH - 7))
	if (!match($0, /(wr)?tid 0x[0-9a-f]+/)) next
	# the low 28 bits of the TID: enough to tell the probes of a run
	# apart, and a number every awk keeps exact as an array subscript
	tid = hex2num("0x" substr($0, RSTART + RLENGTH - 7, 7))
	t[vm, f[2], m, tid] = f[1]
	if (vm == "A" && f[2] == "ib_mad_ib_send_mad" && m == 1)
		tids[tid] = 1
}
function d(a, b) { return (a == "" || b == "") ? "" : (b - a) * 1e6 }
function out(stage, v) { if (v != "") print stage, v }
END {
	for (i in tids) {
		post = t["A", "ib_mad_ib_send_mad", 1, i]
		ans = t["A", "ib_mad_recv_done_handler", 129, i]
		rtt = d(post, ans)
		turn = d(t["B", "ib_mad_recv_done_handler", 1, i], t["B", "ib_mad_ib_send_mad", 129, i])
		out("rtt", rtt)
		out("a_wc", d(post, t["A", "ib_mad_send_done_handler", 1, i]))
		out("b_turn", turn)
		out("b_wc", d(t["B", "ib_mad_ib_send_mad", 129, i], t["B", "ib_mad_send_done_handler", 129, i]))
		if (rtt != "" && turn != "")
			out("below", rtt - turn)
		out("a_next", d(ans, t["A", "ib_mad_ib_send_mad", 1, i + 1]))
	}
}'

# stages: the table of where a two-VM probe's time goes.
stages()
{
	local st name

	touch "$VMRUN_SHARED/stages-start"
	if ! ibt_wait_shared stages-ready 60 || ! ibt_mad_events 1; then
		echo "no ib_mad trace events on one of the VMs: no stages"
		touch "$VMRUN_SHARED/stages-done"
		return
	fi
	"$IBTRACECTL" -d rxe0 ping --dgid "$peer" -c "$count" -i 0 -t 2000 >/dev/null
	ibt_mad_events 0
	touch "$VMRUN_SHARED/stages-done"
	ibt_wait_shared stages-dumped 60 || { echo "the peer's trace did not come: no stages"; return; }
	st=$({ echo "=== A"; cat /sys/kernel/tracing/trace
	       echo "=== B"; cat "$VMRUN_SHARED/peer.trace"; } | awk "$stage_awk")
	echo
	echo "Where the two-VM round trip goes: ib_mad's trace events on both VMs, $count probes (A: ours, B: the peer's agent)"
	printf '%-58s %6s %9s %9s %9s\n' stage probes "median us" "p10 us" "p90 us"
	while read -r name title; do
		awk -v s="$name" '$1 == s { print $2 }' <<< "$st" | sort -n |
		awk -v t="$title" '{ v[NR] = $1 } END {
			if (NR) printf "%-58s %6d %9.0f %9.0f %9.0f\n", t, NR,
				v[int((NR + 1) / 2)], v[int(NR / 10) + 1], v[int(NR * 9 / 10) + 1] }'
	done <<'EOF_STAGES'
rtt A: request posted -> answer at ib_mad (the RTT, traced)
b_turn B: request at ib_mad -> answer posted (agent, dispatch)
a_next A: answer at ib_mad -> next request posted
below RTT minus B's turnaround (wire, rxe, softirqs)
a_wc A: request posted -> its send completion
b_wc B: answer posted -> its send completion
EOF_STAGES
}

ncpu=$(nproc)
skip_poll=0
compare "RTT over rxe between two TCG VMs ($ncpu vCPU each)" "$peer" "${VMRUN_PEER_IP4:-198.18.0.2}"

# The same without the link between the VMs: rxe0 to its own GID, the
# pingpong's server here (what each side's software costs, the link's
# hundreds of microseconds taken out). On one vCPU a polling client and
# its polling server take turns at the CPU, a scheduler tick each (about
# 9 ms a round trip was measured): no figure of anything, so not run.
((ncpu > 1)) || skip_poll=1
ud_server "$reps" &
compare "RTT over rxe in loopback (one VM of $ncpu vCPU, rxe0 to itself)" "$(ibt_gid0 rxe0)" 127.0.0.1
wait
((skip_poll)) && echo "(one vCPU: ibv_ud_pingpong polling against itself not run, see the script)"
stages
