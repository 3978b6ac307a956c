#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The exerciser's "ibtracectl mad send" on HCA A - switch S1 - switch S2 -
# HCA B (and HCA C on S1), brought up by SM-lite:
# - NodeInfo, PortInfo, SwitchInfo, GUIDInfo, P_KeyTable and an LFT block
#   by directed route and by LID, against switches and HCAs: the decoded
#   fields equal what infiniband-diags' smpquery reads;
# - the class 0x30 agent: ClassPortInfo, and SourceRoute's actual port
#   equal to "ping --source-route"; a raw payload comes back in the
#   agent's answer; PerfMgt PortCounters equal perfquery's;
# - a Set is refused without --allow-set (the tool, exit 2, and the
#   kernel, EPERM naming the attribute), a Set with it reaches the agent;
# - counts, no-wait, timeouts, a bad hop pointer, job show; unprivileged
#   users get exit 5; bad arguments one sentence and exit 2.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" "$IBT_NLRAW"
ibt_require_cmd smpquery perfquery jq setpriv
ibt_require_modules ib_core ib_umad

ibt_sim_load_ibtrace "load ibtrace"
ibt_check "fabric mad (SM-lite): 2 switches, 3 HCAs" \
	"$IBTRACECTL" sim add "$IBT_TOPO/s1s2.topo" --name mad
ibt_check "  every port Active" ibt_sim_wait_active mad
J=$(ibt_sim_json mad)
A=$(ibt_sim_dev A)
B_LID=$(ibt_sim_lid B)
S2_LID=$(ibt_sim_lid S2)

# run ARGS...: ibtracectl -j -d A ARGS; $out its output, $err its
# errors, $rc its status
run()
{
	out=$("$IBTRACECTL" -j -d "$A" "$@" 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
}

# ans FILTER: jq's FILTER on the first answer of $out
ans()
{
	jq -r ".answers[0] | $1" <<< "$out" 2>/dev/null
}

# smpq ARGS...: smpquery from A; smpf FIELD: FIELD's value in $sq
smpq()
{
	sq=$(smpquery -C "$A" -P 1 -t 300 "$@" 2>&1)
}
smpf()
{
	sed -n "s/^$1:\.*\(.*\)$/\1/p" <<< "$sq"
}

# hexnum N: N (decimal, or 0x hex) as 0x hex, for comparisons
hexnum()
{
	printf '0x%x' "$1"
}

# --- SMPs, decoded, against smpquery ---------------------------------------

run mad send --dr 1 --attr NodeInfo
ibt_expect "NodeInfo of S1 by DR 1: exit 0" 0 "$rc"
smpq -D nodeinfo 0,1
ibt_expect "  node_guid equals smpquery's NodeGuid" "$(smpf Guid)" \
	"$(ans .attr.node_guid)"
ibt_expect "  node_type: switch" "2 switch" \
	"$(ans .attr.node_type) $(ans .attr.node_type_name)"
ibt_expect "  num_ports equals smpquery's NumPorts" "$(smpf NumPorts)" \
	"$(ans .attr.num_ports)"
ibt_expect "  the answer is a GetResp of class 0x81 with the D bit" \
	"129 129 1" "$(ans '"\(.mad.class) \(.mad.method) \(.mad.d)"')"

run mad send --class dr --attr NodeInfo
ibt_expect "NodeInfo by DR hop count 0 (the local port): exit 0" 0 "$rc"
smpq -D nodeinfo 0
ibt_expect "  A's own node_guid" "$(smpf Guid)" "$(ans .attr.node_guid)"
ibt_expect "  node_type: ca" "1 ca" \
	"$(ans .attr.node_type) $(ans .attr.node_type_name)"

run mad send --class lid --dlid "$B_LID" --attr PortInfo --attr-mod 1
ibt_expect "PortInfo of B by LID: exit 0" 0 "$rc"
smpq portinfo "$B_LID" 1
ibt_expect "  lid equals smpquery's Lid" "$(hexnum "$(smpf Lid)")" \
	"$(hexnum "$(ans .attr.lid)")"
ibt_expect "  port_state 4 (Active), as smpquery's LinkState" \
	"4 Active" "$(ans .attr.port_state) $(smpf LinkState)"
ibt_expect "  master_sm_lid equals smpquery's SMLid" \
	"$(hexnum "$(smpf SMLid)")" "$(hexnum "$(ans .attr.master_sm_lid)")"
ibt_expect "  answered from B's LID" "$B_LID" "$(ans .slid)"

run mad send --dr 1,2 --attr SwitchInfo
smpq -D switchinfo 0,1,2
ibt_expect "SwitchInfo of S2 by DR 1,2: linear_fdb_top equals smpquery's" \
	"$(hexnum "$(smpf LinearFdbTop)")" \
	"$(hexnum "$(ans .attr.linear_fdb_top)")"

run mad send --class lid --dlid "$S2_LID" --attr GUIDInfo
smpq -D nodeinfo 0,1,2
ibt_expect "GUIDInfo of S2 by LID: entry 0 is its port GUID" \
	"$(smpf PortGuid)" "$(ans '.attr.guids[0]')"

run mad send --dr 1,2,2 --attr PKeyTable
ibt_expect "P_KeyTable of B by DR 1,2,2: entry 0 is the default P_Key" \
	0xffff "$(hexnum "$(ans '.attr.pkeys[0]')")"

run mad send --class lid --dlid "$S2_LID" --attr LinearForwardingTable
ibt_expect "LFT block 0 of S2: B's LID leaves by port 2" 2 \
	"$(ans ".attr.ports[$B_LID]")"

out=$("$IBTRACECTL" -d "$A" mad send --dr 1 --attr NodeInfo 2>&1)
ibt_match "text: a line saying who answered, and how fast" \
	"^Answer from the directed route \\($A/1\\): seq=1 time [0-9.]+ ms$" \
	"$(head -1 <<< "$out")"
ibt_match "  the header: a GetResp of SubnDirectedRoute, NodeInfo" \
	'method 0x81 \(GetResp\).*attr 0x0011 \(NodeInfo\)' "$out"
ibt_match "  then the fields: node_type" 'node_type 2 \(switch\)' "$out"
smpq -D nodeinfo 0,1
ibt_match "  and S1's node_guid" "node_guid $(smpf Guid)" "$out"

# --- the class 0x30 agent ----------------------------------------------------

run mad send --class ibtrace --dlid "$B_LID" --attr ClassPortInfo
ibt_expect "ClassPortInfo of B's agent (our OUI by default): exit 0, status ok" "0 ok" \
	"$rc $(ans .status)"
ibt_expect "  base and class version 1, our OUI" "1 1 0x1405" \
	"$(ans .attr.base_version) $(ans .attr.class_version) $(hexnum "$(ans .mad.oui)")"

run mad send --class ibtrace --dlid "$B_LID" --attr SourceRoute \
	--data "00 01 01"
ping=$("$IBTRACECTL" -j -d "$A" ping --dlid "$B_LID" --source-route 1 |
	jq -r '.probes[0].actual_port')
ibt_expect "SourceRoute: actual_port equals ping --source-route's" \
	"$ping" "$(ans .attr.actual_port)"

pattern=$(for i in $(seq 100 149); do printf '%02x' "$i"; done)
run mad send --class ibtrace --dlid "$B_LID" --attr SourceRoute --hex --data "000101$(printf '%0126d' 0)$pattern"
ibt_expect "raw payload: the agent's answer carries it back" "$pattern" \
	"$(ans .data | cut -c $((2 * (40 + 66) + 1))-$((2 * (40 + 116))))"

run mad send --class pma --dlid "$B_LID" --attr PortCounters --data "00 01"
pq=$(perfquery -C "$A" -P 1 "$B_LID" 1 2>&1)
ibt_expect "PortCounters of B: port_select 1, link_downed_counter as perfquery's" \
	"1 $(sed -n 's/^LinkDownedCounter:\.*//p' <<< "$pq")" \
	"$(ans .attr.port_select) $(ans .attr.link_downed_counter)"

# A DevMgt MAD's data begins after 40 class-specific bytes (byte 64), as a
# PerfMgt MAD's. Nobody serves class 0x06 on B: ib_mad answers with the
# request's bytes and an unsupported status, so the data is seen where the
# kernel wrote it.
run mad send --class 0x06 --dlid "$B_LID" --attr 0x10 --data "de ad be ef"
ibt_expect "DevMgt: answered, status 0x000c (method/attribute not supported)" \
	"remote_error 12" "$(ans '"\(.status) \(.mad.status)"')"
ibt_expect "  its data at byte 64, where the class's data begins" deadbeef \
	"$(ans .data | cut -c $((2 * 64 + 1))-$((2 * 68)))"

# --- Sets ---------------------------------------------------------------------

run mad send --class ibtrace --dlid "$B_LID" --method set --attr ClassPortInfo
ibt_expect "a Set without --allow-set: exit 2" 2 "$rc"
ibt_match "  one sentence naming --allow-set" '^Error: .*--allow-set' "$err"
out=$("$IBT_NLRAW" "$(ibt_uapi IBTRACE_CMD_MAD_SEND)" \
	"$(ibt_uapi IBTRACE_A_DEV_NAME)=str:$A" \
	"$(ibt_uapi IBTRACE_A_MAD_CLASS)=u8:0x30" \
	"$(ibt_uapi IBTRACE_A_MAD_METHOD)=u8:2" \
	"$(ibt_uapi IBTRACE_A_MAD_DLID)=u32:$B_LID" 2>&1)
ibt_match "  the kernel refuses it too: EPERM" '^errname=EPERM' "$out"
ibt_match "  with a message naming ALLOW_SET" '^msg=.*ALLOW_SET' "$out"
ibt_expect "  pointing at the method attribute" \
	"bad_attr_type=$(ibt_uapi IBTRACE_A_MAD_METHOD)" \
	"$(grep '^bad_attr_type=' <<< "$out")"
run mad send --class ibtrace --dlid "$B_LID" --attr ClassPortInfo --oui 0
ibt_expect "another OUI: the agent answers unsupported (exit 7, status 0x000c)" \
	"7 12" "$rc $(ans .mad_status)"
run mad send --class ibtrace --dlid "$B_LID" --method set \
	--attr ClassPortInfo --allow-set
ibt_expect "a Set with --allow-set reaches the agent: answered, status not 0 (exit 7)" \
	7 "$rc"

# --- counts, no-wait, timeouts ---------------------------------------------------

run mad send --class ibtrace --dlid "$B_LID" --attr ClassPortInfo -c 20
ibt_expect "-c 20: 20 sent, 20 received" "20 20" \
	"$(jq -r '"\(.summary.sent) \(.summary.received)"' <<< "$out")"
ibt_expect "  20 answers, seq 1..20" "$(seq -s ' ' 20)" \
	"$(jq -r '[.answers[].seq] | join(" ")' <<< "$out")"

run mad send --class ibtrace --dlid "$B_LID" --attr ClassPortInfo -c 3 \
	--no-wait
ibt_expect "--no-wait: exit 0, three MADs sent, none awaited" "0 sent sent sent" \
	"$rc $(jq -r '[.answers[].status] | join(" ")' <<< "$out")"

run mad send --class lid --dlid 0x99 --attr NodeInfo -t 100 -r 1
ibt_expect "a LID nobody has: exit 6 after 2 attempts" "6 2" \
	"$rc $(ans .attempts)"

run mad send --dr 1 --hop-ptr 5 --attr NodeInfo
ibt_expect "a bad hop pointer: ib_mad does not send it (send error, exit 1)" \
	"1 send_error" "$rc $(ans .status)"

out=$("$IBTRACECTL" -j job show 2>&1)
ibt_expect "job show lists the sends as kind mad" ok \
	"$(jq -r '[.[] | select(.kind == "mad")] | if length >= 8 then "ok" else length end' <<< "$out")"

# --- who may, and bad arguments --------------------------------------------------

ibt_unpriv -d "$A" mad send --dr 1 --attr NodeInfo >/dev/null 2>&1
ibt_expect "unprivileged: exit 5" 5 "$?"
run mad send --class bogus --dr 1
ibt_expect "--class bogus: exit 2" 2 "$rc"
ibt_match "  names it" '^Error: bad --class "bogus"' "$err"
run mad send --class sa --attr NodeInfoX --dlid 1
ibt_expect "an unknown attribute name: exit 2" 2 "$rc"
run mad send --class ibtrace --attr ClassPortInfo
ibt_expect "no destination: exit 2" 2 "$rc"
run mad send --dr 1 --data zz
ibt_expect "--data zz: exit 2" 2 "$rc"
run mad send --dr 1 --attr NodeInfo --qp 5
ibt_expect "an SMP to another QP than 0: the kernel says so (exit 1)" 1 "$rc"
ibt_match "  naming QP 0" '^Error: .*QP 0' "$err"

run mad send --dr 1 --attr NodeInfo
ibt_expect "after all that, NodeInfo of S1 still answers" 0 "$rc"

"$IBTRACECTL" sim del mad >/dev/null 2>&1
ibt_done
