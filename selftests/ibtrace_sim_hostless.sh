#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Hostless HCAs (ibtracectl sim add --devices N): HCAs past the first N
# of the text are no RDMA devices; their firmware answers in the fabric,
# as a host whose RDMA stack is not loaded would. What users would see:
# - sim add says how many are hostless, sim show has no dev for them and
#   the fabric's "devices"; only N RDMA devices appear;
# - the memory budget counts them at their cost: the 504-HCA fat tree,
#   refused within 64 MiB with every HCA a device, fits with one;
# - unmodified OpenSM brings a fabric with a hostless HCA to SUBNET UP,
#   ibnetdiscover, smpquery (LID-routed and directed route), perfquery and
#   ibtracert treat it as any HCA;
# - as an end port of a directed route it answers where the directed part
#   ends (C14-9:3) or its LID-routed end part arrives (C14-9:4), and drops
#   an SMP it would have to forward (counted at its port);
# - ibtracectl ping gets status 0x000C from it (no agent), trace and
#   audit say "no agent";
# - IBTRACE_FUZZ_ITER/5 random SMPs and GMPs (ibtrace_sim_smp -R, seeded)
#   into topo/fz.topo with H3 and H4 hostless pass the checks the fuzzer
#   makes with every HCA a device, and the fabric accounts for every
#   packet.

source "$(dirname "$0")/lib.sh"

BUDGET=/sys/module/ibtrace_sim/parameters/mem_budget_mb
ITER=$(( ${IBTRACE_FUZZ_ITER:-10000} / 5 ))
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" "$SIM_SMP"
ibt_require_cmd jq opensm ibnetdiscover smpquery perfquery ibtracert timeout
ibt_require_modules ib_core ib_umad
ibt_require_debugfs
ibt_seed
ibt_sim_load
ibt_check "load ibtrace" ibt_modprobe_ibtrace

# What "$@" prints, in $out, and its exit status, in $rc.
run()
{
	out=$("$@" 2>&1)
	rc=$?
}

# The memory budget counts a hostless HCA at its cost -----------------------

"$IBT_DIR/gen_fattree.sh" > "$TMP/fattree"
budget0=$(cat "$BUDGET")
echo 64 > "$BUDGET"
run "$IBTRACECTL" sim add "$TMP/fattree" --name ft
ibt_expect "504-HCA fat tree, every HCA a device: over a budget of 64 MiB (exit 1)" \
	1 "$rc"
ibt_match "  ... the refusal names the cost and the budget" \
	"needs [0-9]+ MiB of memory, over ibtrace_sim's budget of 64 MiB" "$out"
run "$IBTRACECTL" sim add "$TMP/fattree" --name ft --devices 1 --no-sm
ibt_expect "the same fabric with one device fits (exit 0)" 0 "$rc"
ibt_match "  ... sim add says 503 hostless HCAs" \
	"^fabric ft: H1-1 ibtsim[0-9]+, 503 hostless HCAs; sm none$" "$out"
ibt_check "fat tree ft deleted" "$IBTRACECTL" sim del ft
echo "$budget0" > "$BUDGET"

# A hostless HCA as OpenSM and infiniband-diags see it ------------------------

devs0=$(ibt_sim_devs)
run "$IBTRACECTL" sim add "$IBT_TOPO/a_s1s2_b.topo" --name h --no-sm --devices 1
ibt_expect "sim add --devices 1 of A - S1 - S2 - B (exit 0)" 0 "$rc"
ibt_match "  ... A is a device, B hostless" \
	"^fabric h: A ibtsim[0-9]+, 1 hostless HCA; sm none$" "$out"
ibt_expect "  ... one RDMA device more" 1 \
	"$(( $(wc -w <<< "$(ibt_sim_devs)") - $(wc -w <<< "$devs0") ))"
J=$(ibt_sim_json h)
A=$(ibt_sim_dev A)
ibt_expect "sim show -j: cas 2, devices 1, B without dev" "2 1 null" \
	"$(jq -r '"\(.cas) \(.devices) \(.nodes[] | select(.name == "B") | .dev)"' <<< "$J")"
ibt_match "sim show: 'devices 1' in the fabric's line" \
	"^fabric h cas 2 switches 2 links 3 devices 1 " \
	"$("$IBTRACECTL" sim show h | head -1)"
bguid=$(ibt_sim_node B .guid)

pguid=$(ibt_sim_node A '.ports[0].guid')
ibt_opensm_once "$TMP/osm" 120 "$pguid" "$TMP/osm.log" > "$TMP/osm.out" 2>&1
ibt_match "opensm -o on $A: SUBNET UP" 'SUBNET UP' \
	"$(cat "$TMP/osm.log" 2>/dev/null) $(tail -3 "$TMP/osm.out")"
ibt_check "every linked port Active, B's too" ibt_sim_active h
J=$(ibt_sim_json h)
B=$(ibt_sim_lid B)
bport0=$(ibt_sim_node B '.ports[0].guid')

run ibnetdiscover -C "$A"
ibt_match "ibnetdiscover lists B as an HCA with its LID" \
	"Ca[[:space:]]+1 \"H-${bguid#0x}\"[[:space:]]+# \"B\"" "$out"
ibt_match "  ... and B's port GUID and LID $B" \
	"\\($(printf %x "$bport0")\\).*# lid $B lmc 0" "$out"
ibt_expect "smpquery nodeinfo $B (LID-routed): B's node GUID" "$bguid" \
	"$(smpquery -C "$A" nodeinfo "$B" | sed -n 's/^Guid:\.*//p')"
ibt_expect "smpquery -D nodeinfo 0,1,2,2 (directed route): B's node GUID" \
	"$bguid" "$(smpquery -C "$A" -D nodeinfo 0,1,2,2 | sed -n 's/^Guid:\.*//p')"
ibt_match "smpquery nodedesc $B: B" 'Node Description:\.*B$' \
	"$(smpquery -C "$A" nodedesc "$B")"
run ibtracert -C "$A" 1 "$B"
ibt_match "ibtracert 1 -> $B ends at B" "To ca \\{$bguid\\} portnum 1 lid $B-$B \"B\"" "$out"

# The end port's SMI: answers at the end of the path, never forwards.
ibt_expect "DR SMP ending at B (C14-9:3): B's NodeGUID" \
	"$bguid" "$("$SIM_SMP" -C "$A" -D 0,1,2,2 get 0x11 0 |
		sed -n 's/^data=.\{24\}\(.\{16\}\).*/0x\1/p')"
ibt_expect "DR to S2, then LID-routed to B (C14-9:4): answered by B" \
	"$bguid" "$("$SIM_SMP" -C "$A" -D 0,1,2 -d "$B" get 0x11 0 |
		sed -n 's/^data=.\{24\}\(.\{16\}\).*/0x\1/p')"
drops0=$(ibt_sim_node B '.ports[0].drops')
run "$SIM_SMP" -C "$A" -t 300 -D 0,1,2,2,1 get 0x11 0
ibt_expect "DR SMP through B (B would have to forward it): no answer (exit 1)" \
	1 "$rc"
J=$(ibt_sim_json h)
ibt_expect "  ... dropped at B's port, each of its 3 tries (umad retries 2)" 3 \
	"$(( $(ibt_sim_node B '.ports[0].drops') - drops0 ))"

pkts=$(perfquery -C "$A" "$B" | sed -n 's/^PortRcvPkts:\.*//p')
ibt_expect "perfquery $B: B's PMA answers, PortRcvPkts counted" 1 \
	"$(( ${pkts:-0} > 0 ))"

# ibtrace's own view: no agent on a hostless HCA ------------------------------

run "$IBTRACECTL" -d "$A" ping --dlid "$B" -c 2 -t 500
ibt_match "ping --dlid $B: answered with status 0x000c" \
	'Pong from lid 0x'"$(printf %x "$B")"'.*status 0x000c' "$out"
ibt_expect "  ... exit status: every answer carried a status" 1 \
	"$(( rc != 0 && rc != 4 ))"
run "$IBTRACECTL" -d "$A" trace --dlid "$B"
ibt_match "trace --dlid $B: reached B, no agent there (exit 0)" \
	"0 .*reached ca \"B\" \\($bguid\\), no agent there" "$rc $out"
run "$IBTRACECTL" -j -d "$A" audit
ibt_expect "audit: 3 routes ok; B proved 'no agent' (exit 0)" "0 3 no_agent" \
	"$rc $(jq -r '"\(.summary.ok) \(.destinations[] | select(.dlid == '"$B"') | .proof.verdict)"' <<< "$out" 2>/dev/null)"
ibt_check "fabric h deleted" "$IBTRACECTL" sim del h
ibt_expect "no RDMA device of the fabric left" "$devs0" "$(ibt_sim_devs)"

# Fuzzed: the hostless firmware against the fuzzer's checks -------------------

run "$IBTRACECTL" sim add "$IBT_TOPO/fz.topo" --name fzh --devices 2
ibt_match "fabric fzh of topo/fz.topo, H3 and H4 hostless (SM-lite)" \
	"^fabric fzh: H1 ibtsim[0-9]+, H2 ibtsim[0-9]+, 2 hostless HCAs; sm lite lid 1$" "$out"
J=$(ibt_sim_json fzh)
H2=$(ibt_sim_dev H2)
ibt_check "every linked port Active" ibt_sim_wait_active fzh
"$SIM_SMP" -C "$H2" -P 1 -t 200 -w 64 -R "$IBT_SEED" -N "$ITER" > "$TMP/fz" 2>&1
rc=$?
grep -v '^# node' "$TMP/fz" | sed 's/^/# /' | head -20
read -r _ mads _ ans _ _ _ _ _ _ _ checks _ failed _ <<< "$(grep '^mads ' "$TMP/fz")"
ibt_expect "ibtrace_sim_smp -R: discovered the 7 nodes" 1 \
	"$(grep -c '^# discovered 7 nodes' "$TMP/fz")"
ibt_expect "$ITER random MADs, none of the fuzzer's checks failed" \
	"0 0" "$rc ${failed:-?}"
ibt_expect "MADs sent >= $ITER, answered > 0, checks passed > 20" "1 1 1" \
	"$(( ${mads:-0} >= ITER )) $(( ${ans:-0} > 0 )) $(( ${checks:-0} > 20 ))"
quiet()
{
	[ "$(ibt_sim_stat fzh in_flight)" = 0 ]
}
ibt_check "the fabric accounts for every packet (nothing left in flight)" \
	ibt_wait_for 10 quiet
ibt_check "every linked port still Active" ibt_sim_active fzh
ibt_check "fabric fzh deleted" "$IBTRACECTL" sim del fzh
ibt_check "rmmod ibtrace" ibt_unload_ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
