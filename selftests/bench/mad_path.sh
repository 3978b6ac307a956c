#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): where the time of one ping
# probe goes, on two ibtrace_sim HCAs back to back, measured with the
# kernel's tracing: ib_mad's trace events and kprobes on our exchange.
# For every probe of `ibtracectl ping --dlid 2 -c N -i 0` (N:
# IBTRACE_BENCH_COUNT, default 1000), in order:
#   post      ibtrace_mad_exchange() entered -> ib_mad sends the request
#   to agent  -> the agent of the other HCA is handed the request
#   agent     -> ib_mad sends the agent's answer
#   back      -> our requester's agent is handed the answer
#   wake-up   -> ibtrace_mad_exchange() returns to the ping
#   report    -> the next probe's exchange is entered (the probe's
#             netlink message, the ping's loop)
# and the whole probe; median and mean over the probes, microseconds.
# The tool reads as the kernel sends: a second run prints the probes as
# text to a file, as a user at a terminal would. IBTRACE_BENCH_FABRIC=rxe
# pings rxe0's own GID instead (RoCE in loopback: no link, so rxe, ib_mad
# and ours alone; "to agent" and "back" are rxe's loopback and ib_mad's
# receive work). Run in the VM:
#   vm-run -- selftests/bench/mad_path.sh

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null

count=${IBTRACE_BENCH_COUNT:-1000}
SIM_CTL=$IBT_ROOT/selftests/ibtrace_sim_ctl
T=/sys/kernel/tracing

[ -d "$T/events" ] || mount -t tracefs nodev "$T" 2>/dev/null
[ -w "$T/kprobe_events" ] ||
	{ echo "no tracefs with kprobe events at $T: this kernel cannot say" >&2; exit 4; }
if [ "${IBTRACE_BENCH_FABRIC:-sim}" = rxe ]; then
	ibt_modprobe_ibtrace && ibt_rxe_add rxe0 || exit 1
	A=rxe0
	to=(--dgid "$(ibt_gid0 rxe0)")
else
	ibt_insmod_sim_ibtrace || exit 1
	ibt_sim_pair_up b0 || exit 1
	A=ibtsim0
	to=(--dlid 2)
fi
# (ib_core, loaded by now, brings them)
[ -d "$T/events/ib_mad" ] ||
	{ echo "no ib_mad trace events in this kernel" >&2; exit 4; }

trace_off()
{
	echo 0 >"$T/tracing_on"
	echo 0 >"$T/events/enable"
	echo >"$T/kprobe_events"
}
trap trace_off EXIT

trace_off
echo 8192 >"$T/buffer_size_kb"
# ibtrace_mad_exchange_on(), the ping's call (from ping.c, so not inlined).
echo 'p:ibt/xchg ibtrace_mad_exchange_on' >>"$T/kprobe_events" &&
	echo 'r:ibt/xchg_ret ibtrace_mad_exchange_on' >>"$T/kprobe_events" ||
	{ echo "cannot place kprobes on ibtrace_mad_exchange_on" >&2; exit 4; }
for e in ibt/xchg ibt/xchg_ret ib_mad/ib_mad_ib_send_mad ib_mad/ib_mad_recv_done_agent; do
	echo 1 >"$T/events/$e/enable"
done

# phases: the trace of one run into per-probe phases, then the table.
phases()
{
	awk '
	function t(   i) {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/)
				return substr($i, 1, length($i) - 1) * 1e6
		return -1
	}
	function add(k, v) { n[k]++; s[k] += v; all[k, n[k]] = v }
	/xchg_ret:/ { if (st == 4) { ret = t(); add("wake-up", ret - back); st = 5 }; next }
	/xchg:/ {
		now = t()
		if (st == 5) { add("report", now - ret); add("probe", now - start) }
		start = now; st = 1; next
	}
	# MADs of other classes (ib_sa asks the SA for ClassPortInfo) are not ours
	/ib_mad_(ib_send_mad|recv_done_agent):/ && !/class 0x30 / { next }
	/ib_mad_ib_send_mad:/ {
		if (st == 1) { add("post", t() - start); sent = t(); st = 2 }
		else if (st == 3) { add("agent", t() - agin); resp = t(); st = 3.5 }
		next
	}
	/ib_mad_recv_done_agent:/ {
		if (st == 2) { add("to agent", t() - sent); agin = t(); st = 3 }
		else if (st == 3.5) { add("back", t() - resp); back = t(); st = 4 }
		next
	}
	END {
		split("post,to agent,agent,back,wake-up,report,probe", order, ",")
		for (i = 1; i <= 7; i++) {
			k = order[i]
			m = n[k]
			if (!m) { printf "%-9s %8s %8s %6s\n", k, "-", "-", 0; continue }
			for (a = 1; a <= m; a++) v[a] = all[k, a]
			# insertion sort is fine for a few thousand
			for (a = 2; a <= m; a++) { x = v[a]; b = a - 1
				while (b > 0 && v[b] > x) { v[b + 1] = v[b]; b-- }
				v[b + 1] = x }
			printf "%-9s %8.1f %8.1f %6d\n", k, v[int((m + 1) / 2)], s[k] / m, m
		}
	}'
}

run()	# LABEL CMD...
{
	local label=$1 t0 t1

	shift
	echo >"$T/trace"
	echo 1 >"$T/tracing_on"
	t0=$(date +%s%N)
	"$@"
	t1=$(date +%s%N)
	echo 0 >"$T/tracing_on"
	echo
	echo "$label: $count probes, $(( (t1 - t0) / count / 1000 )) us of wall time each"
	printf '%-9s %8s %8s %6s\n' phase "median" "mean" probes
	grep -v "^#" "$T/trace" | phases
}

"$IBTRACECTL" -d "$A" ping "${to[@]}" -c 10 -i 0 >/dev/null	# warm up
run "$A, ibtracectl -j (JSON read at once)" \
	sh -c '"$0" -j -d "$1" ping "$3" "$4" -c "$2" -i 0 >/dev/null' \
	"$IBTRACECTL" "$A" "$count" "${to[@]}"
run "$A, ibtracectl, a line per probe" \
	sh -c '"$0" -d "$1" ping "$3" "$4" -c "$2" -i 0 >/tmp/mad_path.out' \
	"$IBTRACECTL" "$A" "$count" "${to[@]}"
echo "(report: the probe's netlink message and the ping's loop to the next post;"
echo " probe: one exchange's entry to the next's, the steady-state cost of a probe)"

trace_off
if [ "$A" = rxe0 ]; then
	ibt_rxe_del rxe0
	rmmod ibtrace
else
	"$SIM_CTL" del b0 >/dev/null
	rmmod ibtrace ibtrace_sim
fi
