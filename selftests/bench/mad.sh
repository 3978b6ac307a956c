#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing) of the exerciser, run in
# the VM:   vm-run -- selftests/bench/mad.sh
#
# 1. One MAD's round trip, two ibtrace_sim HCAs back to back, the same
#    target (LID 2): `ibtracectl mad send --count N` of SubnGet(NodeInfo)
#    LID-routed, against `smpquery nodeinfo` run N times (its process
#    started each time, as users loop it), and `ibtracectl ping -c N`
#    (class 0x30, the same one-at-a-time loop in the kernel). Wall time
#    at two counts (IBTRACE_BENCH_COUNT, default 1000, and a fifth of it),
#    the median of IBTRACE_BENCH_REPS runs (default 3): per MAD and the
#    marginal cost of one more (the difference over the difference of the
#    counts); mad send's and ping's in-kernel median RTT.
# 2. What a capture costs: `opensm -o` sweeping the 504-HCA fat tree of
#    gen_fattree.sh, with and without `ibtracectl sim capture` writing
#    every packet of the SM's HCA to a pcap file, IBTRACE_BENCH_SWEEPS
#    sweeps each (default 2), alternated; fabric rebuilt for each.

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null
source "$(dirname "$0")/stats.sh"

count=${IBTRACE_BENCH_COUNT:-1000}
nreps=${IBTRACE_BENCH_REPS:-3}
sweeps=${IBTRACE_BENCH_SWEEPS:-2}
SIM_CTL=$IBT_ROOT/selftests/ibtrace_sim_ctl
GEN=$IBT_ROOT/selftests/gen_fattree.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; pkill -9 -x opensm 2>/dev/null' EXIT

ibt_insmod_sim_ibtrace || exit 1
ibt_sim_pair_up b0 || exit 1
A=ibtsim0

# us A B: A / B / 1000, one decimal
us() { awk -v a="${1:-0}" -v b="${2:-1}" 'BEGIN { printf "%.1f", (b > 0 ? a / b / 1000 : 0) }'; }
# ratio A B: A / B, two decimals, "-" without a positive B
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

# The three ways, N MADs each; the wall ns.
mad_send()
{
	local t0=$(ns)

	"$IBTRACECTL" -j -d "$A" mad send --class lid --dlid 2 --attr NodeInfo \
		-c "$1" >"$TMP/mad.json"
	echo $(($(ns) - t0))
}
smpquery_loop()
{
	local t0=$(ns) i

	for ((i = 0; i < $1; i++)); do
		smpquery -C "$A" -P 1 nodeinfo 2 >/dev/null 2>&1
	done
	echo $(($(ns) - t0))
}
ping_run()
{
	local t0=$(ns)

	"$IBTRACECTL" -j -d "$A" ping --dlid 2 -c "$1" -i 0 >"$TMP/ping.json"
	echo $(($(ns) - t0))
}

count_lo=$((count / 5))
((count_lo > 0)) || count_lo=1

mad_send 20 >/dev/null; smpquery_loop 5 >/dev/null; ping_run 20 >/dev/null
read -r m_lo m_hi < <(reps mad_send)
m_med=$(jq -r '.summary.rtt_median_ns' "$TMP/mad.json")
read -r s_lo s_hi < <(reps smpquery_loop)
read -r p_lo p_hi < <(reps ping_run)
p_med=$(jq -r '.summary.rtt_median_ns' "$TMP/ping.json")
m_marg=$(us $((m_hi - m_lo)) $((count - count_lo)))
s_marg=$(us $((s_hi - s_lo)) $((count - count_lo)))
p_marg=$(us $((p_hi - p_lo)) $((count - count_lo)))

echo
echo "1. one MAD to LID 2, two ibtrace_sim HCAs back to back, TCG VM"
echo "   (wall per MAD: the median of $nreps runs at $count_lo and at $count MADs)"
printf '%-46s %12s %12s %12s %10s\n' "" "us/MAD@$count_lo" "us/MAD@$count" \
	"marginal us" "RTT med us"
printf '%-46s %12s %12s %12s %10s\n' "ibtracectl mad send -c N (SubnGet NodeInfo)" \
	"$(us "$m_lo" "$count_lo")" "$(us "$m_hi" "$count")" "$m_marg" "$(us "$m_med" 1)"
printf '%-46s %12s %12s %12s %10s\n' "smpquery nodeinfo, N times" \
	"$(us "$s_lo" "$count_lo")" "$(us "$s_hi" "$count")" "$s_marg" -
printf '%-46s %12s %12s %12s %10s\n' "ibtracectl ping -c N (VendorGet, class 0x30)" \
	"$(us "$p_lo" "$count_lo")" "$(us "$p_hi" "$count")" "$p_marg" "$(us "$p_med" 1)"
# (smpquery's process start makes mad send hundreds of times faster: the
# inverse ratio, so that two decimals say something)
echo "ratio smpquery loop / mad send (marginal): $(ratio "$s_marg" "$m_marg")"
echo "ratio mad send / ping (marginal): $(ratio "$m_marg" "$p_marg")"
"$SIM_CTL" del b0 >/dev/null

# --- 2. a capture during an OpenSM sweep -------------------------------------------

"$GEN" > "$TMP/ft.topo"
# sweep CAPTURE: seconds of one `opensm -o` on a new fat tree, with a
# capture of the SM's HCA running if CAPTURE is 1; the packets written
sweep()
{
	local guid node t0 t1 cpid n=0

	"$IBTRACECTL" sim add "$TMP/ft.topo" --name ft --no-sm >/dev/null || return 1
	guid=$(ibt_sim_json ft | jq -r '[.nodes[] | select(.type == "ca")][0].ports[0].guid')
	node=$(ibt_sim_json ft | jq -r '[.nodes[] | select(.type == "ca")][0].name')
	if [ "$1" = 1 ]; then
		"$IBTRACECTL" sim capture ft "$node" 1 -w "$TMP/ft.pcap" \
			> "$TMP/cap.out" 2>&1 &
		cpid=$!
		sleep 1
	fi
	t0=$(ns)
	ibt_opensm_once "$TMP/osm" 600 "$guid" "$TMP/osm.log" >/dev/null 2>&1
	t1=$(ns)
	if [ -n "$cpid" ]; then
		kill -INT "$cpid"
		wait "$cpid"
		n=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$TMP/cap.out")
	fi
	grep -q 'SUBNET UP' "$TMP/osm.log" || n=failed
	"$IBTRACECTL" sim del ft >/dev/null
	echo "$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.1f", d / 1e9 }') $n"
}

plain=() capt=() pkts=
for ((i = 0; i < sweeps; i++)); do
	read -r s _ < <(sweep 0)
	plain+=("$s")
	read -r s pkts < <(sweep 1)
	capt+=("$s")
done
echo
echo "2. opensm -o on the 504-HCA fat tree, $sweeps sweeps each, alternated"
echo "   without a capture: ${plain[*]} s"
echo "   with a capture of the SM's HCA port (-w pcap): ${capt[*]} s ($pkts packets in the last)"
echo "   ratio with / without (medians): $(ratio "$(median "${capt[@]}")" "$(median "${plain[@]}")")"
rmmod ibtrace ibtrace_sim
