#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtracectl trace under faults, on ibsim's net.2sw2path4hca brought up by
# SM-lite (Hca1 - Switch1 = two links = Switch2 - Hca4): --dgid resolves
# through SM-lite's SA to the same path as --dlid; a 30% loss both ways
# on the inter-switch link of the path is absorbed by retries (same path,
# every packet lost costing a retry; the fabric's seed is printed and
# IBTRACE_SEED replays it); a misroute rule on Switch2 that sends
# Hca4's LID to Hca2 leaves the directed-route walk as it was, but the
# LID-routed agent probe now ends at Hca2, which drops it: the
# destination is reached with "no agent" instead of "verified", and
# verified again once the rule is gone; the link from Switch2 to Hca4
# taken down fails the trace at hop 2, naming Switch2 and its port
# (exit 9, JSON port_down with the partial path), and the trace succeeds
# again once the link is up and SM-lite has made it Active.

source "$(dirname "$0")/lib.sh"

EX=/usr/share/doc/ibsim-utils/net-examples
ibt_tmpdir
TMP_ERR=$TMP/err

ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" "$EX/net.2sw2path4hca"
ibt_require_cmd jq
ibt_require_modules ib_core

ibt_sim_load_ibtrace "load ibtrace"
ibt_seed
ibt_check "fabric f (net.2sw2path4hca) up under SM-lite, seed $IBT_SEED" \
	"$IBTRACECTL" sim add "$EX/net.2sw2path4hca" --name f --seed "$IBT_SEED"

J=$(ibt_sim_json f)
H1=$(ibt_sim_dev Hca1)
H2=$(ibt_sim_dev Hca2)
H4=$(ibt_sim_dev Hca4)
L4=$(ibt_sim_lid Hca4)

# hops as "node_guid in out lid agent" lines
path_of() { jq -r '.hops[] | "\(.node_guid) \(.in_port // "") \(.out_port // "") \(.lid) \(.agent)"'; }
# sim show -j: a port's counter: port_val NODE PORT KEY
port_val()
{
	"$IBTRACECTL" -j sim show f | jq -r --arg n "$1" --argjson p "$2" --arg k "$3" \
		'.[0].nodes[] | select(.name == $n) | .ports[] | select(.port == $p) | .[$k] // 0'
}
trace() { "$IBTRACECTL" -j -d "$H1" trace "$@"; }

js0=$(trace --dlid "$L4")
ibt_expect "clean trace Hca1 -> Hca4: ok, 4 hops, Hca4 verified" "ok 4 verified" \
	"$(jq -r '"\(.result) \(.hops | length) \(.hops[3].agent)"' <<< "$js0")"
p0=$(path_of <<< "$js0")
mads0=$(jq -r '.smps + .vendor_mads' <<< "$js0")
S1OUT=$(jq -r '.hops[1].out_port' <<< "$js0")
S2IN=$(jq -r '.hops[2].in_port' <<< "$js0")
S2OUT=$(jq -r '.hops[2].out_port' <<< "$js0")

# --dgid through SM-lite's SA ---------------------------------------------------

gid4=$(cat "/sys/class/infiniband/$H4/ports/1/gids/0")
js=$(trace --dgid "$gid4")
ibt_expect "--dgid (SM-lite's SA PathRecord): the DLID is Hca4's" "$L4" \
	"$(jq -r .dlid <<< "$js")"
ibt_expect "  the same hops as --dlid" "$p0" "$(path_of <<< "$js")"

# 30% loss on the inter-switch link of the path ---------------------------------

d1=$(port_val Switch1 "$S1OUT" drops)
d2=$(port_val Switch2 "$S2IN" drops)
ibt_check "drop 30% on Switch1 port $S1OUT and Switch2 port $S2IN (both ways)" \
	eval "\"$IBTRACECTL\" sim set f Switch1 port $S1OUT drop 30 &&
	      \"$IBTRACECTL\" sim set f Switch2 port $S2IN drop 30"
# A MAD exchange crossing the link fails an attempt with 1 - 0.7^2 = 0.51
# and all of its 31 attempts (-r 30) with 0.51^31 = 8.9e-10; the trace
# makes the clean trace's exchanges (mads0, printed: under 100), so the
# chance that the seed's draw fails it is under 100 * 8.9e-10 = 8.9e-8
# per run. How many packets are lost is the seed's draw (it may
# be none): what holds for every seed is that a loss costs a retry.
js=$(trace --dlid "$L4" -t 200 -r 30)
ibt_expect "  trace still ok, Hca4 verified (retries)" "ok verified" \
	"$(jq -r '"\(.result) \(.hops[-1].agent)"' <<< "$js")"
ibt_expect "  the same hops" "$p0" "$(path_of <<< "$js")"
lost=$(( $(port_val Switch1 "$S1OUT" drops) + $(port_val Switch2 "$S2IN" drops) - d1 - d2 ))
mads=$(jq -r '.smps + .vendor_mads' <<< "$js")
echo "# seed $IBT_SEED: $lost packets lost on the link, $mads MADs (clean trace: $mads0)"
ibt_expect "  packets lost on the link cost retries: more MADs than the clean trace" 1 \
	"$(( lost == 0 || mads > mads0 ))"
ibt_check "drop back to 0" \
	eval "\"$IBTRACECTL\" sim set f Switch1 port $S1OUT drop 0 &&
	      \"$IBTRACECTL\" sim set f Switch2 port $S2IN drop 0"

# A misroute: Switch2 sends Hca4's LID to Hca2 ---------------------------------

h2p=$(jq -r '.nodes[] | select(.name == "Switch2") | .ports[] |
	select(.peer.name == "Hca2") | .port' <<< "$J")
dh2=$(port_val Hca2 1 drops)
ibt_check "Switch2: misroute LID $L4 (Hca4) to port $h2p (Hca2)" \
	"$IBTRACECTL" sim set f Switch2 misroute "$L4" "$h2p"
js=$(trace --dlid "$L4" -t 200 -r 1)
ibt_expect "  trace ok: the directed-route walk follows the LFT as read" \
	"ok $(cut -d' ' -f1-4 <<< "$p0" | tr '\n' ' ')" \
	"$(jq -r .result <<< "$js") $(path_of <<< "$js" | cut -d' ' -f1-4 | tr '\n' ' ')"
ibt_expect "  but Hca4's agent is not reached: no_agent, not verified" no_agent \
	"$(jq -r '.hops[3].agent' <<< "$js")"
ibt_expect "  the probes went to Hca2, which dropped them" 1 \
	"$(( $(port_val Hca2 1 drops) > dh2 ))"
ibt_check "misroute rule removed" "$IBTRACECTL" sim set f Switch2 misroute "$L4" none
ibt_expect "  Hca4 verified again" verified \
	"$("$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" | jq -r '.hops[3].agent')"

# The link from Switch2 to Hca4 down ---------------------------------------------

S2G=$(jq -r '.nodes[] | select(.name == "Switch2") | .guid' <<< "$J")
ibt_check "Switch2 port $S2OUT (to Hca4) link down" \
	"$IBTRACECTL" sim set f Switch2 port "$S2OUT" link down
js=$("$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" -t 300 -r 1 2>"$TMP_ERR")
rc=$?
ibt_expect "  trace fails: exit 9 (port not Active)" 9 "$rc"
ibt_match "  one sentence naming port $S2OUT of Switch2 at hop 2" \
	"^Error: port $S2OUT is not Active at hop 2, switch \"Switch2\" \\($S2G\\), on the path to lid $L4\$" \
	"$(cat "$TMP_ERR")"
ibt_expect "  JSON: port_down at hop 2, port $S2OUT, partial path of 3 hops" \
	"port_down 2 $S2OUT 3" \
	"$(jq -r '"\(.result) \(.fail_hop) \(.fail_port) \(.hops | length)"' <<< "$js")"
ibt_check "Switch2 port $S2OUT link up (SM-lite sweeps it Active)" \
	"$IBTRACECTL" sim set f Switch2 port "$S2OUT" link up
ok=
for _ in $(seq 50); do
	js=$("$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" -t 300 -r 1 2>/dev/null) &&
		ok=$(jq -r .result <<< "$js") && [ "$ok" = ok ] && break
	sleep 0.2
done
ibt_expect "  the trace succeeds again, same hops" "ok $p0" "$ok $(path_of <<< "$js")"

ibt_check "sim del f" "$IBTRACECTL" sim del f
ibt_check "rmmod ibtrace" ibt_unload_ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
