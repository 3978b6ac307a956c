#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): where the time of one ping
# probe goes, on two ibtrace_sim HCAs back to back, measured with the
# kernel's tracing: ib_mad's trace events (matched by TID) and kprobes on
# the ping loop's call. `ibtracectl ping --dlid 2 -c N -i 0` (N:
# IBTRACE_BENCH_COUNT, default 1000) is a flood, so its probes are
# chained: each request is posted by the answer to the one before, from
# ib_mad's receive handler, while the ping loop wakes up and reports. For
# every probe:
#   to agent   request posted -> the other HCA's ib_mad receives it
#   agent      -> ib_mad posts the agent's answer
#   back       -> our ib_mad receives the answer
#   next post  -> the next probe's request is posted (the chain)
#   probe      request posted -> the next one posted: the steady-state
#              cost of a probe, the sum of the four above
# and, off that path while the chain runs:
#   wake-up    answer received -> the ping loop's call for the probe
#              (ibtrace_mad_call_run()) returns
#   report     -> the loop's call for the next probe (the probe's
#              netlink message, the loop)
# median, mean, p90 and p99 over the probes, microseconds.
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
echo 4096 >"$T/saved_cmdlines_size"	# the task of each event, not <...>
# ibtrace_mad_call_run(), the ping loop's call (from ping.c, so not inlined).
echo 'p:ibt/call ibtrace_mad_call_run' >>"$T/kprobe_events" &&
	echo 'r:ibt/call_ret ibtrace_mad_call_run' >>"$T/kprobe_events" ||
	{ echo "cannot place kprobes on ibtrace_mad_call_run" >&2; exit 4; }
for e in ibt/call ibt/call_ret ib_mad/ib_mad_ib_send_mad ib_mad/ib_mad_recv_done_handler; do
	echo 1 >"$T/events/$e/enable"
done

# phases: the trace of one run into per-probe phases, then the table.
# A request is method 0x01, its answer 0x81 with the same TID (its low
# 28 bits tell a run's probes apart); the loop's calls end in the order
# of the probes.
phases()
{
	awk '
	function t(   i) {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/)
				return substr($i, 1, length($i) - 1) * 1e6
		return -1
	}
	function hex2num(h,   i, n) {
		n = 0; h = tolower(substr(h, 3))
		for (i = 1; i <= length(h); i++)
			n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return n
	}
	function add(k, v) { n[k]++; s[k] += v; all[k, n[k]] = v }
	/ call_ret: / { R[++nr] = t(); next }
	/ call: / { E[++ne] = t(); next }
	# MADs of other classes (ib_sa asks the SA for ClassPortInfo) are not ours
	!/ib_mad_(ib_send_mad|recv_done_handler):/ || !/ class 0x30 / { next }
	{
		if (!match($0, /method 0x[0-9a-f]+/)) next
		m = hex2num(substr($0, RSTART + 7, RLENGTH - 7))
		if (!match($0, / tid 0x[0-9a-f]+/)) next
		tid = hex2num("0x" substr($0, RSTART + RLENGTH - 7, 7))
		send = /ib_mad_ib_send_mad:/
		if (send && m == 1 && !(tid in S)) {
			S[tid] = t(); probe[++np] = tid
			# posted by the answer before it: in ib_mad'"'"'s completion work
			if (np > 1 && $1 ~ /^kworker\//) chained++
		}
		else if (!send && m == 1) A[tid] = t()
		else if (send && m == 129) Q[tid] = t()
		else if (!send && m == 129) B[tid] = t()
	}
	END {
		for (k = 1; k <= np; k++) {
			i = probe[k]; j = probe[k + 1]
			if ((i in A)) add("to agent", A[i] - S[i])
			if ((i in A) && (i in Q)) add("agent", Q[i] - A[i])
			if ((i in Q) && (i in B)) add("back", B[i] - Q[i])
			if ((i in B) && k < np) add("next post", S[j] - B[i])
			if (k < np) add("probe", S[j] - S[i])
			if ((i in B) && k <= nr) add("wake-up", R[k] - B[i])
			if (k <= nr && k < ne) add("report", E[k + 1] - R[k])
		}
		split("to agent,agent,back,next post,probe,wake-up,report", order, ",")
		for (i = 1; i <= 7; i++) {
			k = order[i]
			m = n[k]
			if (!m) { printf "%-9s %8s %8s %8s %8s %6s\n", k, "-", "-", "-", "-", 0; continue }
			for (a = 1; a <= m; a++) v[a] = all[k, a]
			# insertion sort is fine for a few thousand
			for (a = 2; a <= m; a++) { x = v[a]; b = a - 1
				while (b > 0 && v[b] > x) { v[b + 1] = v[b]; b-- }
				v[b + 1] = x }
			printf "%-9s %8.1f %8.1f %8.1f %8.1f %6d\n", k, v[int((m + 1) / 2)],
				s[k] / m, v[int(m * 9 / 10) + 1], v[int(m * 99 / 100) + 1], m
			if (k == "probe")
				printf "(requests posted by the answer before: %d of %d; off the chain, beside the next probe:)\n",
					chained, np - 1
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
	printf '%-9s %8s %8s %8s %8s %6s\n' phase median mean p90 p99 probes
	grep -v "^#" "$T/trace" | phases
}

"$IBTRACECTL" -d "$A" ping "${to[@]}" -c 10 -i 0 >/dev/null	# warm up
run "$A, ibtracectl -j (JSON read at once)" \
	sh -c '"$0" -j -d "$1" ping "$3" "$4" -c "$2" -i 0 >/dev/null' \
	"$IBTRACECTL" "$A" "$count" "${to[@]}"
run "$A, ibtracectl, a line per probe" \
	sh -c '"$0" -d "$1" ping "$3" "$4" -c "$2" -i 0 >/tmp/mad_path.out' \
	"$IBTRACECTL" "$A" "$count" "${to[@]}"
echo "(probe: a request posted to the next one posted, the steady-state cost of a"
echo " probe; wake-up and report: the ping loop, while the next probe flies)"

trace_off
if [ "$A" = rxe0 ]; then
	ibt_rxe_del rxe0
	rmmod ibtrace
else
	"$SIM_CTL" del b0 >/dev/null
	rmmod ibtrace ibtrace_sim
fi
