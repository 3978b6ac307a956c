#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "ibtracectl sim capture" on HCA A - switch S1 - switch S2 - HCA B (and
# HCA C on S1), without SM-lite:
# - an OpenSM sweep captured at A's port 1 as a pcap file: Debian's tshark
#   reads it (ERF records of type InfiniBand) and dissects directed-route
#   SMPs of the attributes OpenSM asks for, their hop pointers and counts,
#   VL 15;
# - a ping and a trace captured at switch S2 (every port): the class 0x30
#   MADs with our OUI, from A's LID to B's, as many as the tools sent;
# - the text form: a line per packet, in and out, with its MAD;
# - -c COUNT ends the capture by itself; the fabric's deletion ends it;
#   SIGINT stops it with a summary;
# - a reader stopped during a burst: the packets the receive buffer
#   (-B 4 KiB) had no room for are counted, reported, and seen = written
#   + lost;
# - unprivileged users get exit 5, bad words exit 2.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
ibt_at_exit 'pkill -9 -x opensm 2>/dev/null'
ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL"
ibt_require_cmd opensm tshark jq setpriv timeout
ibt_require_modules ib_core ib_umad

ibt_sim_load_ibtrace "load ibtrace"
ibt_check "fabric cap (no SM): 2 switches, 3 HCAs" \
	"$IBTRACECTL" sim add "$IBT_TOPO/s1s2.topo" --name cap --no-sm
J=$(ibt_sim_json cap)
A=$(ibt_sim_dev A)
AG=$(ibt_sim_node A '.ports[0].guid')

# tsh FILE FIELD...: tshark's fields of FILE, one packet a line
tsh()
{
	local f=$1 a=() x

	shift
	for x in "$@"; do
		a+=(-e "$x")
	done
	tshark -r "$f" -T fields -E separator=' ' "${a[@]}" 2>/dev/null
}

# --- an OpenSM sweep, at A's port 1 ---------------------------------------------

ibt_sim_capture "$TMP/osm.out" "$TMP/osm.out" sim capture cap A 1 -w "$TMP/osm.pcap"
cpid=$IBT_CAP_PID
ibt_match "sim capture cap A 1 -w FILE: says on stderr it has started" \
	"^capturing at cap A port 1 to $TMP/osm.pcap\$" "$(cat "$TMP/osm.out")"
ibt_opensm_once "$TMP/osm" 120 "$AG" "$TMP/osm.log" >/dev/null 2>&1
ibt_check "OpenSM brought the subnet up" grep -q 'SUBNET UP' "$TMP/osm.log"
sleep 1
kill -INT "$cpid"
wait "$cpid"
ibt_expect "SIGINT ends the capture: exit 0" 0 "$?"
ibt_match "  with its summary" '^[0-9]+ packets captured, 0 lost \(stopped\)$' \
	"$(cat "$TMP/osm.out")"
n=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$TMP/osm.out")
ibt_expect "tshark reads every packet of the file" "$n" \
	"$(tshark -r "$TMP/osm.pcap" 2>/dev/null | wc -l)"
smps=$(tsh "$TMP/osm.pcap" infiniband.mad.mgmtclass infiniband.mad.attributeid \
	infiniband.smpdirected.hoppointer infiniband.smpdirected.hopcount \
	infiniband.lrh.vl)
ibt_match "  directed-route SMPs (class 0x81), VL 15" '^0x81 .* 0x0f$' "$smps"
for attr in 0x0011 0x0015 0x0012 0x0019; do
	ibt_match "  OpenSM's SubnGet/Set of attribute $attr among them" \
		"^0x81 $attr " "$smps"
done
ibt_match "  hop pointers and counts of routes beyond S1 (hop count 2)" \
	'^0x81 0x[0-9a-f]+ 0x0[0-2] 0x02 0x0f$' "$smps"
ibt_check "every port Active after the sweep" ibt_sim_active cap
J=$(ibt_sim_json cap)
A_LID=$(ibt_sim_lid A)
B_LID=$(ibt_sim_lid B)

# --- a ping and a trace, at S2 ---------------------------------------------------

ibt_sim_capture "$TMP/s2.out" "$TMP/s2.out" sim capture cap S2 -w "$TMP/s2.pcap"
cpid=$IBT_CAP_PID
ibt_match "sim capture cap S2 (every port): started" \
	"^capturing at cap S2 every port to $TMP/s2.pcap\$" "$(cat "$TMP/s2.out")"
ibt_check "ping A -> B, 3 probes" "$IBTRACECTL" -d "$A" ping --dlid "$B_LID" \
	-c 3 -i 0
ibt_check "trace A -> B" "$IBTRACECTL" -d "$A" trace --dlid "$B_LID"
sleep 1
kill -INT "$cpid"
wait "$cpid"
vend=$(tsh "$TMP/s2.pcap" infiniband.lrh.slid infiniband.lrh.dlid \
	infiniband.mad.mgmtclass infiniband.mad.method infiniband.mad.attributeid \
	infiniband.mad.data)
req=$(awk -v a="$A_LID" -v b="$B_LID" \
	'$1 == a && $2 == b && $3 == "0x30" && $4 == "0x01"' <<< "$vend")
ibt_expect "class 0x30 Gets A -> B at S2, each seen in and out: 3 ClassPortInfo (ping) + 1 (trace)" \
	8 "$(grep -c ' 0x0001 ' <<< "$req")"
ibt_match "  the trace's SourceRoute Get (0x0010) too" ' 0x0010 ' "$req"
ibt_match "  the OUI 00:14:05 after the RMPP header (MAD bytes 37-39)" \
	' 0{28}1405' "$(head -1 <<< "$req")"
ibt_match "  and their answers, B -> A, GetResp (0x81)" \
	"^$B_LID $A_LID 0x30 0x81 " "$vend"

# --- the text form, -c ----------------------------------------------------------

ibt_sim_capture "$TMP/txt.out" "$TMP/txt.out" sim capture cap A 1 -c 2
cpid=$IBT_CAP_PID
"$IBTRACECTL" -d "$A" ping --dlid "$B_LID" >/dev/null 2>&1
timeout 20 tail --pid="$cpid" -f /dev/null
wait "$cpid"
ibt_expect "-c 2: the capture ends by itself, exit 0" 0 "$?"
txt=$(cat "$TMP/txt.out")
ibt_match "  a line out of A/1: the Get, A's LID to B's, QP 1, our class" \
	"^[0-9:.]+ node [0-9]+/1 out lid $(printf '0x%x' "$A_LID") > $(printf '0x%x' "$B_LID") sl 0 vl 0 qp 1 > 1 len [0-9]+ Ibtrace Get ClassPortInfo tid 0x" \
	"$txt"
ibt_match "  a line into A/1: its GetResp" ' in  lid .* GetResp ClassPortInfo ' "$txt"
ibt_match "  then the summary" '^2 packets captured, 0 lost \(count reached\)$' "$txt"

ibt_sim_capture "$TMP/j.out" "$TMP/j.err" -j sim capture cap B 1 -c 2
cpid=$IBT_CAP_PID
"$IBTRACECTL" -d "$A" ping --dlid "$B_LID" >/dev/null 2>&1
timeout 20 tail --pid="$cpid" -f /dev/null
out=$(cat "$TMP/j.out")
ibt_expect "-j: two packets at B/1, in then out, class 0x30" "in 48 out 48" \
	"$(jq -r '[.packets[] | "\(.dir) \(.class)"] | join(" ")' <<< "$out")"
ibt_expect "  and the summary" "2 2 0 count" \
	"$(jq -r '.summary | "\(.seen) \(.written) \(.lost) \(.end)"' <<< "$out")"

# --- a slow reader loses packets, and says so -----------------------------------

ibt_sim_capture "$TMP/loss.out" "$TMP/loss.err" -j sim capture cap A 1 -B 4
cpid=$IBT_CAP_PID
kill -STOP "$cpid"
"$IBTRACECTL" -d "$A" mad send --class ibtrace --dlid "$B_LID" \
	--attr ClassPortInfo -c 200 >/dev/null 2>&1
kill -CONT "$cpid"
sleep 1
kill -INT "$cpid"
wait "$cpid"
out=$(cat "$TMP/loss.out")
lost=$(jq -r '.summary.lost' <<< "$out")
ibt_check "a reader stopped for 400 packets with a 4 KiB buffer lost some" \
	test "${lost:-0}" -gt 0
ibt_expect "  seen = written + lost" \
	"$(jq -r '.summary.seen' <<< "$out")" \
	"$(jq -r '.summary.written + .summary.lost' <<< "$out")"
ibt_match "  and says so on stderr" "^Warning: $lost packets lost" \
	"$(cat "$TMP/loss.err")"

# --- who may, bad words, the fabric's end ----------------------------------------

ibt_unpriv sim capture cap A -c 1 >/dev/null 2>&1
ibt_expect "unprivileged: exit 5" 5 "$?"
out=$("$IBTRACECTL" sim capture cap 2>&1)
ibt_expect "without a NODE: exit 2" 2 "$?"
ibt_match "  one sentence" '^Error: .*NODE' "$out"
out=$("$IBTRACECTL" sim capture cap A 0 2>&1)
ibt_expect "port 0: exit 2" 2 "$?"
out=$("$IBTRACECTL" sim capture cap nosuch 2>&1)
ibt_expect "a node that does not exist: exit 1" 1 "$?"
ibt_match "  the kernel says so" '^Error: .*node' "$out"

ibt_sim_capture "$TMP/gone.out" "$TMP/gone.out" sim capture cap S1
cpid=$IBT_CAP_PID
ibt_check "fabric cap deleted while captured" "$IBTRACECTL" sim del cap
timeout 20 tail --pid="$cpid" -f /dev/null
wait "$cpid"
ibt_expect "  the capture ends: exit 0" 0 "$?"
ibt_match "  saying why" 'packets captured, 0 lost \(the fabric was deleted\)$' \
	"$(cat "$TMP/gone.out")"

ibt_done
