#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The destination's SourceRoute sent ahead (Documentation/ibtrace.rst,
# "Tracing a path"): once the destination's agent has answered
# ClassPortInfo, each new hop is sent, with its first SMPs, the
# SourceRoute it would get as the destination; when the hop is the
# destination (a CA) that request is the proof, and no second SourceRoute
# is sent.
#
# On a chain Hca1 - S1 - S2 - S3 - Hca2 (SM-lite) with every link delayed
# by d = DELAY_US each way, the walk reaches hop k after about k(k-1)
# delays while ClassPortInfo to Hca2 takes 8. A real HCA's agent answers
# later than its SMA; here S3 sends LID-routed packets to Hca1 (the
# agents' answers, not the directed-route SMPs) by a detour, S3 - S4 -
# S2, that adds 2d: ClassPortInfo is answered after 10 delays, before the
# walk starts Hca2 (12) and after it started S3 (6), so only Hca2 is sent
# the early SourceRoute, and its answer comes 2d after Hca2's NodeInfo.
# Hca2's agent then receives exactly two requests of the trace:
# ClassPortInfo and that one SourceRoute (the old code took the early one
# back when Hca2's NodeInfo came in and sent a second one: three, and one
# round trip more). The trace verifies Hca2.

source "$(dirname "$0")/lib.sh"

DELAY_US=${IBTRACE_AHEAD_DELAY_US:-200000}
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$IBTRACECTL"
ibt_require_cmd jq
ibt_require_modules ib_core ib_umad

ibt_sim_load_ibtrace "load ibtrace"

cat > "$TMP/topo" <<'TOPO'
Hca 1 "Hca1"
[1] "S1"[1]

Switch 2 "S1"
[1] "Hca1"[1]
[2] "S2"[1]

Switch 3 "S2"
[1] "S1"[2]
[2] "S3"[1]
[3] "S4"[2]

Switch 3 "S3"
[1] "S2"[2]
[2] "Hca2"[1]
[3] "S4"[1]

Switch 2 "S4"
[1] "S3"[3]
[2] "S2"[3]

Hca 1 "Hca2"
[1] "S3"[2]
TOPO
ibt_check "chain of three switches (SM-lite)" "$IBTRACECTL" sim add "$TMP/topo" --name ahead
ibt_sim_wait_active ahead
J=$(ibt_sim_json ahead)
H1=$(ibt_sim_dev Hca1)
H2=$(ibt_sim_dev Hca2)
L1=$(ibt_sim_lid Hca1 1)
L2=$(ibt_sim_lid Hca2 1)
ibt_match "Hca1, Hca2 are RDMA devices, Hca2 has a LID" '^ibtsim[0-9]+ ibtsim[0-9]+ [1-9][0-9]*$' \
	"$H1 $H2 $L2"

jq -r '.nodes[] | .name as $n | .ports[] | select(.peer != null) | "\($n) \(.port)"' <<< "$J" |
while read -r n p; do
	"$IBTRACECTL" sim set ahead "$n" port "$p" delay "$DELAY_US" || exit 1
done
ibt_expect "every linked port delayed by $DELAY_US us" 0 "$?"
ibt_check "S3 sends LID-routed packets to Hca1 by S4 (a detour of 2 delays)" \
	"$IBTRACECTL" sim set ahead S3 misroute "$L1" 3

rx() { "$IBTRACECTL" -j -d "$H2" agent show | jq -r '.[0].rx'; }
rx0=$(rx)
js=$("$IBTRACECTL" -j -d "$H1" trace --dlid "$L2" -t 10000 -r 0)
ibt_expect "trace to Hca2: exit 0" 0 "$?"
rx1=$(rx)
ibt_expect "  4 hops, Hca2 verified by its agent" "4 verified" \
	"$(jq -r '"\(.hops | length - 1) \(.hops[-1].agent)"' <<< "$js")"
ibt_expect "  Hca2's agent got ClassPortInfo and one SourceRoute: 2 requests" 2 \
	"$((rx1 - rx0))"
echo "# trace over 4 links delayed $DELAY_US us each way: $(jq -r '.elapsed_ns / 1000000 | floor' <<< "$js") ms in the kernel, $(jq -r .vendor_mads <<< "$js") vendor MADs sent"

ibt_check "sim del ahead" "$IBTRACECTL" sim del ahead
ibt_check "rmmod ibtrace" rmmod ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
