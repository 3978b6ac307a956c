#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (prints figures, asserts nothing): "ibtracectl audit" on the
# 504-HCA fat tree of gen_fattree.sh (550 nodes), routed by one OpenSM
# sweep, from its first HCA, against what an operator would run instead:
#   - infiniband-diags' ibnetdiscover (the topology by directed-route SMPs)
#     plus dump_lfts (every switch's LFT): the tables only;
#   - ibtracert to every destination, one after the other (timed over a
#     sample of $IBTRACE_BENCH_TRACERTS destinations and scaled to all).
# The audit (sweep, route checks and the data-path proof) at several
# windows (SMPs, then probes, out at once), without the proof, and as each
# node of a fleet runs it (--load of the saved sweep, -d: its own routes
# proved, nothing swept), each the median and the range of
# $IBTRACE_BENCH_RUNS runs; its SMPs and probes, and memory the sweep
# kept. Wall times include process start (TCG: tenths of a second). Run
# in the VM:
#   vm-run -- selftests/bench/audit.sh
#
# Then the 10,560-node fat tree (three levels, radix 48: 9,216 HCAs, 1,344
# switches), its HCAs hostless but the first 8 (sim add --devices 8),
# routed by SM-lite: the audit from the first HCA ($runs runs, median and
# range), the peak memory while it runs (the drop of MemAvailable from
# before the fabric, sampled every 0.2 s; the fabric's share) and the
# tool's maximum RSS, a fleet node's --load from the second HCA, and
# ibnetdiscover of the same fabric (discovery only: dump_lfts at this
# size, 1,344 processes, is left out unless IBTRACE_BENCH_SCALE_LFTS=1).
# IBTRACE_BENCH_SCALE_PODS (default 16; 0: skip) sizes the tree.

IBTRACE_ROOT=${IBTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$(dirname "$0")/../lib.sh" >/dev/null
source "$(dirname "$0")/stats.sh"

runs=${IBTRACE_BENCH_RUNS:-3}
ntr=${IBTRACE_BENCH_TRACERTS:-20}
windows=${IBTRACE_BENCH_WINDOWS:-1 4 16 64 256}
ibt_tmpdir

ibt_insmod_sim_ibtrace || exit 1
for c in opensm ibnetdiscover dump_lfts ibtracert jq; do
	command -v "$c" >/dev/null || { echo "$c is not installed" >&2; exit 4; }
done
"$IBT_ROOT/selftests/gen_fattree.sh" > "$TMP/fattree" || exit 1
"$IBTRACECTL" sim add "$TMP/fattree" --name bench --no-sm >/dev/null || exit 1
J=$(ibt_sim_json bench)
hca=$(jq -r '[.nodes[] | select(.type == "ca")][0] | .dev' <<< "$J")
guid=$(jq -r '[.nodes[] | select(.type == "ca")][0].ports[0].guid' <<< "$J")
ibt_opensm_once "$TMP/osm" 600 "$guid" "$TMP/osm.log" >/dev/null 2>&1
grep -q 'SUBNET UP' "$TMP/osm.log" || { echo "OpenSM did not bring the subnet up" >&2; exit 1; }

# ms CMD...: wall time of CMD in ms, "-" if it failed (exit 19 is a
# finding, not a failure)
ms()
{
	local t0 rc

	t0=$(ns)
	"$@" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 19 ] || { echo -; return; }
	echo $((($(ns) - t0) / 1000000))
}

# med CMD...: "MEDIAN MIN-MAX" of $runs runs of ms CMD
med()
{
	local v=() i

	for ((i = 0; i < runs; i++)); do
		v+=("$(ms "$@")")
	done
	echo "$(median "${v[@]}") $(range "${v[@]}")"
}

out=$("$IBTRACECTL" -j -d "$hca" audit)
dests=$(jq -r .summary.destinations <<< "$out")
echo "# fabric: $(jq -r .sweep.nodes <<< "$out") nodes ($(jq -r .sweep.switches <<< "$out") switches), $dests destinations, $(jq -r .summary.ok <<< "$out") ok; sweep kept $(jq -r .sweep.bytes <<< "$out") bytes"
echo "# proof: $(jq -r '.proof | "\(.destinations) probed: \(.verified) verified, \(.no_agent) no agent, \(.mismatch) mismatch, \(.unreachable) unreachable"' <<< "$out")"

read -r tables tables_range <<< "$(med sh -c "ibnetdiscover -C $hca -P 1 > $TMP/net && dump_lfts -C $hca -P 1 > $TMP/lfts")"
lids=$(jq -r '.destinations[].dlid' <<< "$out" | shuf -n "$ntr" --random-source=<(yes))
t0=$(ns)
for l in $lids; do
	ibtracert -C "$hca" -P 1 1 "$l" >/dev/null 2>&1
done
per=$((($(ns) - t0) / 1000000 / ntr))
tracerts=$((per * dests))

# row LABEL "MS RANGE" SMPS PROBES: one line, with the ratios of the
# medians
row()
{
	local t range

	read -r t range <<< "$2"
	printf '%-36s %8s %13s %8s %8s %10s %10s\n' "$1" "$t" "$range" "$3" "$4" \
		"$(awk -v a="$t" -v b="$tables" 'BEGIN { if (a + 0 && b + 0) printf "%.2f", a / b; else print "-" }')" \
		"$(awk -v a="$t" -v b="$tracerts" 'BEGIN { if (a + 0 && b + 0) printf "%.3f", a / b; else print "-" }')"
}

printf '%-36s %8s %13s %8s %8s %10s %10s\n' "" "wall ms" "range ($runs)" "SMPs" "probes" "vs tables" "vs tracert"
printf '%-36s %8s %13s %8s %8s\n' "ibnetdiscover + dump_lfts" "$tables" "$tables_range" "-" "-"
printf '%-36s %8s %13s %8s %8s %s\n' "ibtracert x $dests" "$tracerts" "-" "-" "-" "($per ms each, $ntr sampled)"
# The audit proves the data path too (one SourceRoute probe per sound
# route, the "probes" column, retries included); --no-prove is the tables
# alone, the like of ibnetdiscover + dump_lfts.
for w in $windows; do
	t=$(med "$IBTRACECTL" -d "$hca" audit --window "$w")
	j=$("$IBTRACECTL" -j -d "$hca" audit --window "$w")
	row "ibtracectl audit --window $w" "$t" "$(jq -r .sweep.smps <<< "$j")" \
		"$(jq -r '.proof.mads // "-"' <<< "$j")"
done
t=$(med "$IBTRACECTL" -d "$hca" audit --no-prove)
row "ibtracectl audit --no-prove" "$t" \
	"$("$IBTRACECTL" -j -d "$hca" audit --no-prove | jq -r .sweep.smps)" "-"
# A fleet's node: the sweep saved once, its own routes proved from it
"$IBTRACECTL" -d "$hca" audit --no-prove --save "$TMP/fabric.json" >/dev/null 2>&1
t=$(med "$IBTRACECTL" -d "$hca" audit --load "$TMP/fabric.json")
row "ibtracectl audit -d --load (fleet)" "$t" 0 \
	"$("$IBTRACECTL" -j -d "$hca" audit --load "$TMP/fabric.json" | jq -r '.proof.mads // "-"')"
"$IBTRACECTL" sim del bench

# The 10,560-node fabric --------------------------------------------------------

pods=${IBTRACE_BENCH_SCALE_PODS:-16}
[ "$pods" -gt 0 ] || exit 0
"$IBT_ROOT/selftests/gen_fattree.sh" shape=3 radix=48 leaves=24 hcas=24 \
	spines=24 tops=576 pods="$pods" > "$TMP/big" || exit 1
sync
echo 3 > /proc/sys/vm/drop_caches
avail0=$(ibt_avail_kb)
t0=$(ns)
"$IBTRACECTL" sim add "$TMP/big" --name big --devices 8 >/dev/null || exit 1
built=$((($(ns) - t0) / 1000000))
fabric_mb=$(((avail0 - $(ibt_avail_kb)) / 1024))
read -r hca hca2 _ <<< "$(ibt_sim_devs)"

# audit_peak: one audit from $hca, its peak memory into $TMP/peak (MiB
# over the boot's) and the tool's maximum RSS into $TMP/rss (KiB)
audit_peak()
{
	ibt_min_avail "$TMP/min" /usr/bin/time -f %M -o "$TMP/rss" \
		"$IBTRACECTL" -j -d "$hca" audit --save "$TMP/big.json" \
		> "$TMP/big.out" 2>/dev/null
	echo $(((avail0 - $(cat "$TMP/min")) / 1024)) > "$TMP/peak"
}
v=() peaks=() rss=()
for ((i = 0; i < runs; i++)); do
	t0=$(ns)
	audit_peak
	v+=($((($(ns) - t0) / 1000000)))
	peaks+=("$(cat "$TMP/peak")")
	rss+=($(($(cat "$TMP/rss") / 1024)))
done
j=$(jq -c 'del(.destinations)' "$TMP/big.out")
echo
echo "# $(jq -r .sweep.nodes <<< "$j") nodes ($(jq -r .sweep.switches <<< "$j") switches, $(jq -r .sweep.links <<< "$j") links), 8 HCAs RDMA devices, the rest hostless; built and routed by SM-lite in $built ms, $fabric_mb MiB"
echo "# audit: $(jq -r '.summary | "\(.destinations) destinations, \(.ok) ok"' <<< "$j"), $(jq -r '.proof | "\(.verified) verified, \(.no_agent) no agent, \(.unreachable) unreachable"' <<< "$j"), credit loops $(jq -r .credit_loops.loops <<< "$j")"
printf '%-36s %8s %13s %8s %8s %12s %10s\n' "" "wall ms" "range ($runs)" "SMPs" "probes" "peak MiB" "RSS MiB"
printf '%-36s %8s %13s %8s %8s %12s %10s\n' "ibtracectl audit (10,560 nodes)" \
	"$(median "${v[@]}")" "$(range "${v[@]}")" "$(jq -r .sweep.smps <<< "$j")" \
	"$(jq -r .proof.mads <<< "$j")" "$(median "${peaks[@]}") ($(range "${peaks[@]}"))" \
	"$(median "${rss[@]}")"
t=$(med "$IBTRACECTL" -d "$hca2" audit --load "$TMP/big.json")
printf '%-36s %8s %13s %8s %8s\n' "ibtracectl audit -d --load (fleet)" $t 0 \
	"$("$IBTRACECTL" -j -d "$hca2" audit --load "$TMP/big.json" | jq -r '.proof.mads // "-"')"
t=$(ms ibnetdiscover -C "$hca" -P 1)
printf '%-36s %8s %13s %8s %8s %s\n' "ibnetdiscover (discovery only)" "$t" "-" "-" "-" \
	"audit/ibnetdiscover $(awk -v a="$(median "${v[@]}")" -v b="$t" 'BEGIN { if (a + 0 && b + 0) printf "%.2f", a / b; else print "-" }')"
if [ "${IBTRACE_BENCH_SCALE_LFTS:-0}" = 1 ]; then
	t=$(ms sh -c "ibnetdiscover -C $hca -P 1 > $TMP/net && dump_lfts -C $hca -P 1 > $TMP/lfts")
	printf '%-36s %8s\n' "ibnetdiscover + dump_lfts" "$t"
fi
"$IBTRACECTL" sim del big
