#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The route audit of a 10,560-node fabric within a 2 GiB VM: a three-level
# fat tree of radix 48 (16 pods of 24 leaves x 24 HCAs and 24 middle
# switches, 576 top switches: 9,216 HCAs, 1,344 switches), its first 8
# HCAs RDMA devices running the agent, the others hostless (sim add
# --devices 8), routed by SM-lite, audited from the first HCA:
# - every node swept, no SMP unanswered; 10,559 destinations, every route
#   ok by the tables, no credit loop;
# - every destination proved: the 7 other agents verified, the switches
#   and hostless HCAs "no agent", nothing unreachable;
# - the saved sweep audited from the second HCA's port (--load, the fleet
#   recipe): the same verdicts from there;
# - the memory: the fabric within ibtrace_sim's default budget (a quarter
#   of RAM), and the kernel's and the tool's peak while auditing (the
#   drop of MemAvailable from before the fabric, sampled every 0.2 s)
#   under 1 GiB, half of a 2 GiB VM. The figures are printed.
#
# IBTRACE_SCALE_PODS (default 16) shrinks the tree for a quick run. On the
# debug kernel (make check-debug) the default is 2 pods (1,824 nodes, all
# 576 top switches kept): the same code paths under KASAN, lockdep and
# kmemleak, within its test timeout (the whole tree took well over the
# 1,800 s of a kselftest there). The scale itself is this test's job on
# Debian's kernel.

source "$(dirname "$0")/lib.sh"

PODS=${IBTRACE_SCALE_PODS:-16}
if [ -z "${IBTRACE_SCALE_PODS:-}" ] && ibt_debug_kernel; then
	PODS=2
	echo "# the debug kernel: a tree of $PODS pods (IBTRACE_SCALE_PODS sets it)"
fi
DEVS=8
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" /usr/bin/time
ibt_require_cmd jq
ibt_require_modules ib_core ib_umad
ibt_sim_load
ibt_check "load ibtrace" ibt_modprobe_ibtrace

hcas=$((PODS * 24 * 24))
switches=$((PODS * 48 + 576))
nodes=$((hcas + switches))
"$IBT_DIR/gen_fattree.sh" shape=3 radix=48 leaves=24 hcas=24 spines=24 \
	tops=576 pods="$PODS" > "$TMP/fattree" || ibt_skip_all "gen_fattree.sh failed"


mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
echo "# VM: $mem_mb MiB of RAM; ibtrace_sim's budget $(( mem_mb / 4 )) MiB (a quarter)"
sync
echo 3 > /proc/sys/vm/drop_caches
avail0=$(ibt_avail_kb)

t0=$(ibt_now_ms)
out=$("$IBTRACECTL" sim add "$TMP/fattree" --name big --devices "$DEVS" 2>&1)
rc=$?
t1=$(ibt_now_ms)
ibt_expect "sim add of $nodes nodes ($hcas HCAs, $switches switches), $DEVS devices, within the default budget" \
	0 "$rc"
ibt_match "  ... $((hcas - DEVS)) hostless HCAs, SM-lite" \
	", $((hcas - DEVS)) hostless HCAs; sm lite lid 1$" "$out"
[ "$rc" = 0 ] || ibt_skip_all "no fabric: $out"
fabric_mb=$(( (avail0 - $(ibt_avail_kb)) / 1024 ))
echo "# fabric built and routed by SM-lite in $((t1 - t0)) ms; it took $fabric_mb MiB"

devs=$(ibt_sim_devs)
read -r A C _ <<< "$devs"
ibt_expect "ibtsim0's port Active" "4: ACTIVE" \
	"$(cat "/sys/class/infiniband/$A/ports/1/state")"

t0=$(ibt_now_ms)
ibt_min_avail "$TMP/min" /usr/bin/time -f '%M' -o "$TMP/rss" "$IBTRACECTL" -j -d "$A" audit \
	--save "$TMP/saved.json" > "$TMP/audit.json" 2> "$TMP/audit.err"
rc=$?
t1=$(ibt_now_ms)
peak_mb=$(( (avail0 - $(cat "$TMP/min")) / 1024 ))
rss_mb=$(( $(cat "$TMP/rss") / 1024 ))
ibt_expect "audit -d $A: exit 0" 0 "$rc"
head -3 "$TMP/audit.err" | sed 's/^/# /'
J=$(jq -c 'del(.destinations)' "$TMP/audit.json")
echo "# audit: $((t1 - t0)) ms, $(jq -r '.sweep.smps' <<< "$J") SMPs (sweep $(jq -r '.sweep.elapsed_ns / 1000000 | floor' <<< "$J") ms), $(jq -r '.proof.mads' <<< "$J") probes (proof $(jq -r '.proof.elapsed_ns / 1000000 | floor' <<< "$J") ms)"
echo "# memory: peak $peak_mb MiB in use over the boot's (the fabric's $fabric_mb included), ibtracectl's maximum RSS $rss_mb MiB"
ibt_expect "swept: $nodes nodes, $switches switches, no SMP unanswered" \
	"$nodes $switches 0" \
	"$(jq -r '"\(.sweep.nodes) \(.sweep.switches) \(.sweep.unanswered)"' <<< "$J")"
ibt_expect "$((nodes - 1)) destinations, every route ok, no credit loop" \
	"$((nodes - 1)) $((nodes - 1)) 0" \
	"$(jq -r '"\(.summary.destinations) \(.summary.ok) \(.credit_loops.loops)"' <<< "$J")"
ibt_expect "proved: $((DEVS - 1)) verified, $((nodes - DEVS)) no agent, 0 unreachable, 0 mismatch" \
	"$((DEVS - 1)) $((nodes - DEVS)) 0 0" \
	"$(jq -r '.proof | "\(.verified) \(.no_agent) \(.unreachable) \(.mismatch)"' <<< "$J")"
ibt_expect "peak memory of the fabric and the audit under 1024 MiB (half a 2 GiB VM)" \
	1 "$(( peak_mb < 1024 ))"

run_load()
{
	"$IBTRACECTL" -j -d "$C" audit --load "$TMP/saved.json" > "$TMP/load.json"
}
t0=$(ibt_now_ms)
ibt_check "audit -d $C --load the saved sweep (exit 0)" run_load
t1=$(ibt_now_ms)
echo "# audit --load from $C: $((t1 - t0)) ms"
ibt_expect "  ... from $C: $((nodes - 1)) ok, $((DEVS - 1)) verified, 0 unreachable" \
	"$((nodes - 1)) $((DEVS - 1)) 0" \
	"$(jq -r '"\(.summary.ok) \(.proof.verified) \(.proof.unreachable)"' "$TMP/load.json")"

t0=$(ibt_now_ms)
ibt_check "fabric deleted" "$IBTRACECTL" sim del big
echo "# sim del: $(( $(ibt_now_ms) - t0 )) ms"
ibt_expect "no RDMA device of the fabric left" "" "$(ibt_sim_devs)"
ibt_check "rmmod ibtrace" ibt_unload_ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
