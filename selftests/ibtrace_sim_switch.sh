#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtrace_sim switches: HCA A - switch S1 - switch S2 - HCA B, and HCA C
# on S1. Switches answer DR SMPs (NodeInfo, NodeDescription, PortInfo,
# SwitchInfo, LinearForwardingTable) and forward them by IBA 14.2.2; a
# path through a missing or unconnected port is dropped and counted;
# ibnetdiscover sees the topology; with LIDs, port states and LFTs set by
# SMPs, LID-routed SMPs cross both switches, ibroute dumps the LFT,
# ibtracert finds A -> S1 -> S2 -> B; an LFT entry 0xFF makes a LID
# unreachable and counts the drop; a GMP to a switch LID is answered with
# status 0x000C as by a Linux host without an agent for the class.
# OpenSM (if installed) brings the same topology to SUBNET UP.

source "$(dirname "$0")/lib.sh"

TOPO=$IBT_TOPO/s1s2.topo
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO"
ibt_require_cmd smpquery ibportstate ibnetdiscover ibroute ibtracert
ibt_require_file "$SIM_CTL" "$SIM_SMP"
ibt_require_modules ib_core ib_umad
ibt_sim_load

out=$("$SIM_CTL" add sw "$TOPO" no-sm 2>&1)
ibt_expect "fabric of 2 switches and 3 HCAs" \
	"fabric sw nodes 5 cas 3 switches 2 links 4" "$out"
nodes=$("$SIM_CTL" nodes sw)
A=$(ibt_simctl_dev A)
guid()
{
	sed -n "s/.*name \"$1\" guid \(0x[0-9a-f]*\).*/\1/p" <<< "$nodes"
}
S1G=$(guid S1)
S2G=$(guid S2)
BG=$(guid B)
ibt_match "node dump: S1 has port 0 and its links" \
	'name "S1".* port 0 .* port 1 .*peer 2/1.* port 2 .*peer 1/1' "$nodes"

smpq()
{
	smpquery -C "$A" -P 1 -t 300 "$@"
}

smp()
{
	"$SIM_SMP" -C "$A" -P 1 -t 300 "$@"
}

# S1's drop counter of port $2 (node name $1).
drops()
{
	"$SIM_CTL" nodes sw | tr ' ' '\n' | awk -v n="\"$1\"" -v p="$2" '
		$0 == "name" { getline; node = $0 }
		$0 == "port" { getline; port = $0 }
		$0 == "drops" { getline; if (node == n && port == p) print }'
}

# Directed routes --------------------------------------------------------------

out=$(smpq -D nodeinfo 0,1 2>&1)
ibt_match "smpquery -D nodeinfo 0,1: S1 is a switch" 'NodeType:\.+Switch' "$out"
ibt_match "  NodeGuid S1, 4 ports, arrived by port 1" \
	"NumPorts:\.+4 .*[^m]Guid:\.+$S1G.*LocalPort:\.+1" "$(tr '\n' ' ' <<< "$out")"
ibt_match "smpquery -D nodedesc 0,1" 'Node Description:\.+S1' \
	"$(smpq -D nodedesc 0,1 2>&1)"
out=$(smpq -D nodeinfo 0,1,2 2>&1)
ibt_match "nodeinfo 0,1,2 reaches S2, arriving by its port 1" \
	"Guid:\.+$S2G.*LocalPort:\.+1" "$(tr '\n' ' ' <<< "$out")"
out=$(smpq -D nodeinfo 0,1,2,2 2>&1)
ibt_match "nodeinfo 0,1,2,2 reaches B (a CA)" \
	"NodeType:\.+Channel Adapter.*Guid:\.+$BG" "$(tr '\n' ' ' <<< "$out")"
ibt_match "nodedesc 0,1,2,2 is B" 'Node Description:\.+B$' \
	"$(smpq -D nodedesc 0,1,2,2 2>&1)"
ibt_match "nodedesc 0,1,3 is C" 'Node Description:\.+C$' \
	"$(smpq -D nodedesc 0,1,3 2>&1)"

d0=$(drops S1 4)
smpq -D nodeinfo 0,1,4 >/dev/null 2>&1
ibt_expect "DR through S1's unconnected port 4: no answer" 1 $(( $? != 0 ))
# At least one: smpquery may send the request again when the loaded VM
# makes its 300 ms timeout expire before the first copy was dropped.
ibt_check "  counted as a drop on S1 port 4" test "$(drops S1 4)" -gt "$d0"
d0=$(drops S1 1)
smpq -D nodeinfo 0,1,9 >/dev/null 2>&1
ibt_expect "DR through S1's non-existent port 9: no answer" 1 $(( $? != 0 ))
ibt_check "  counted as a drop on S1 port 1" test "$(drops S1 1)" -gt "$d0"

out=$(smpq -D portinfo 0,1 2>&1 | tr '\n' ' ')
ibt_match "PortInfo of S1 port 0: LID 0, Init, LinkUp" \
	'Lid:\.+0 .*LinkState:\.+Initialize.*PhysLinkState:\.+LinkUp' "$out"
out=$(smpq -D portinfo 0,1 3 2>&1 | tr '\n' ' ')
ibt_match "PortInfo of S1 port 3 (linked to C): Init, 4X QDR" \
	'LinkWidthActive:\.+4X.*LinkState:\.+Initialize.*LinkSpeedActive:\.+10\.0 Gbps' \
	"$out"
out=$(smpq -D switchinfo 0,1 2>&1 | tr '\n' ' ')
ibt_match "SwitchInfo: LinearFDBCap 49152, LinearFDBTop 0" \
	'LinearFdbCap:\.+49152 .*LinearFdbTop:\.+0 ' "$out"
ibt_match "unsupported attribute on a switch (RandomFT) -> 0x000C" \
	'^status=0x000c' "$(smp -D 0,1 get 0x1a 0)"
ibt_match "LFT block 0 of S1 starts empty (0xff)" \
	'^data=ffffffffffffffff' "$(smp -D 0,1 get 0x19 0)"
ibt_match "LFT block past LinearFDBCap -> 0x001C" '^status=0x001c' \
	"$(smp -D 0,1 get 0x19 768)"

out=$(ibnetdiscover -C "$A" -P 1 -t 300 2>&1)
ibt_expect "ibnetdiscover: 2 switches" 2 "$(grep -c '^Switch' <<< "$out")"
ibt_expect "ibnetdiscover: 3 CAs" 3 "$(grep -c '^Ca' <<< "$out")"
ibt_expect "ibnetdiscover: 8 link ends" 8 "$(grep -c '^\[' <<< "$out")"
ibt_match "ibnetdiscover: S1 port 2 to S2 port 1" \
	"^\[2\][[:space:]]+\"S-${S2G#0x}\"\[1\]" "$out"
ibt_match "ibnetdiscover: S2 port 2 to B" \
	"^\[2\][[:space:]]+\"H-${BG#0x}\"\[1\].*# \"B\"" "$out"

# LIDs, states and LFTs by SMP -------------------------------------------------

# node DR path, port: A=1 B=2 C=3 S1=10 S2=11
setlid()
{
	ibportstate -C "$A" -P 1 -t 300 -D "$1" "$2" lid "$3" >/dev/null
}
ibt_check "LIDs by DR: A 1, S1 10, S2 11, B 2, C 3" sh -c "
	$(declare -f setlid); A=$A
	setlid 0 1 1 && setlid 0,1 0 10 && setlid 0,1,2 0 11 &&
	setlid 0,1,2,2 1 2 && setlid 0,1,3 1 3"

# Every port end of a link, and each switch's port 0: arm, then activate.
ENDS="0:1 0,1:0 0,1:1 0,1:2 0,1:3 0,1,2:0 0,1,2:1 0,1,2:2 0,1,2,2:1 0,1,3:1"
portstates()
{
	local e

	for e in $ENDS; do
		ibportstate -C "$A" -P 1 -t 300 -D "${e%:*}" "${e#*:}" "$1" \
			>/dev/null || return 1
	done
}
ibt_check "every linked port and port 0 Armed (by DR)" portstates arm
ibt_check "every linked port and port 0 Active (by DR)" portstates active
ibt_match "node dump: S2's ports Active" \
	'name "S2".* port 0 .*lid 11 state Active.* port 1 .*state Active.* port 2 .*state Active' \
	"$("$SIM_CTL" nodes sw)"

ibt_check "S1: LinearFDBTop 11" smp -D 0,1 set 0x12 0 6=00,0b
ibt_check "S1: LFT block 0 (1->1 2->2 3->3 10->0 11->2)" \
	smp -D 0,1 set 0x19 0 0=ff,01,02,03,ff,ff,ff,ff,ff,ff,00,02
ibt_check "S2: LinearFDBTop 11" smp -D 0,1,2 set 0x12 0 6=00,0b
ibt_check "S2: LFT block 0 (1->1 2->2 3->1 10->1 11->0)" \
	smp -D 0,1,2 set 0x19 0 0=ff,01,02,01,ff,ff,ff,ff,ff,ff,01,00
ibt_match "SwitchInfo of S2 by LID: LinearFDBTop 11" 'LinearFdbTop:\.+11$' \
	"$(smpq switchinfo 11 2>&1)"

ibt_match "smpquery nodedesc 2 (LID-routed through S1, S2) is B" \
	'Node Description:\.+B$' "$(smpq nodedesc 2 2>&1)"
ibt_match "smpquery nodedesc 3 is C" 'Node Description:\.+C$' \
	"$(smpq nodedesc 3 2>&1)"
ibt_match "smpquery nodedesc 11 (a switch LID) is S2" \
	'Node Description:\.+S2$' "$(smpq nodedesc 11 2>&1)"
ibt_match "smpquery nodedesc 1 from B comes back to A" \
	'Node Description:\.+A$' \
	"$(smpquery -C "$(ibt_simctl_dev B)" -P 1 -t 300 nodedesc 1 2>&1)"

out=$(ibroute -C "$A" -P 1 -t 300 10 2>&1)
ibt_match "ibroute 10: LID 2 out of port 2 to B" \
	"^0x0002 002 : \(Channel Adapter portguid .*'B'\)" "$out"
ibt_match "ibroute 10: LID 10 is S1 itself (port 0)" \
	"^0x000a 000 : \(Switch portguid .*'S1'\)" "$out"
ibt_match "ibroute 10: 5 valid LIDs" '^5 (valid )?lids dumped' "$out"

out=$(ibtracert -C "$A" -P 1 -t 300 1 2 2>&1)
ibt_match "ibtracert 1 2: A -> S1 -> S2 -> B" \
	"From ca .*lid 1-1 \"A\" \[1\] -> switch port \{$S1G\}\[1\] lid 10-10 \"S1\" \[2\] -> switch port \{$S2G\}\[1\] lid 11-11 \"S2\" \[2\] -> ca port \{.*\}\[1\] lid 2-2 \"B\" To ca" \
	"$(tr '\n' ' ' <<< "$out" | tr -s ' ')"

# NodeInfo data bytes 12..19 hold the NodeGUID.
ibt_match "DR 0,1 then LID-routed to DrDLID 11: answered by S2" \
	"^data=.{24}${S2G#0x}" "$(smp -D 0,1 -d 11 get 0x11 0)"
ibt_match "DR 0,1,2 then LID-routed to DrDLID 10 (back): S1" \
	"^data=.{24}${S1G#0x}" "$(smp -D 0,1,2 -d 10 get 0x11 0)"

if [ -x "$IBT_MAD" ]; then
	out=$("$IBT_MAD" -d "$A" --dlid 10 --attr 0x0001 --timeout 300 2>&1)
	ibt_expect "GMP (class 0x30) to switch LID 10: status 0x000c" 0x000c \
		"$(sed -n 's/^status=//p' <<< "$out")"
	# B's ib_mad answers (0x000C without ibtrace.ko, 0 with it).
	out=$("$IBT_MAD" -d "$A" --dlid 2 --attr 0x0001 --timeout 300 2>&1)
	ibt_match "GMP on QP1 to B's LID 2 through S1, S2: answered" \
		'^status=0x000[0c]$' "$out"
else
	ibt_skip_one "GMP to a switch LID" "no $IBT_MAD"
	ibt_skip_one "GMP through two switches" "no $IBT_MAD"
fi

# Sum of every port's drop counter of the fabric.
all_drops()
{
	"$SIM_CTL" nodes sw | grep -o 'drops [0-9]*' | awk '{ n += $2 } END { print n }'
}
d0=$(all_drops)
ibt_check "LFTs loop LID 5 between S1 and S2" sh -c "
	'$SIM_SMP' -C $A -P 1 -t 300 -D 0,1 set 0x19 0 5=02 >/dev/null &&
	'$SIM_SMP' -C $A -P 1 -t 300 -D 0,1,2 set 0x19 0 5=01 >/dev/null"
smpq nodedesc 5 >/dev/null 2>&1
ibt_expect "LID 5 in a forwarding loop: no answer" 1 $(( $? != 0 ))
ibt_match "  the looping packets were dropped and counted" "^[1-9]" \
	"$(( $(all_drops) - d0 ))"

d0=$(drops S2 1)
ibt_check "S2: LFT entry for LID 2 set to 0xff" smp -D 0,1,2 set 0x19 0 2=ff
smpq nodedesc 2 >/dev/null 2>&1
ibt_expect "LID 2 unreachable through S2: no answer" 1 $(( $? != 0 ))
ibt_match "  S2 counted the drops on port 1" "^[1-9]" \
	"$(( $(drops S2 1) - d0 ))"
d0=$(drops S1 1)
smpq nodedesc 40 >/dev/null 2>&1
ibt_expect "LID 40 above LinearFDBTop: no answer" 1 $(( $? != 0 ))
ibt_match "  S1 counted the drops on port 1" "^[1-9]" \
	"$(( $(drops S1 1) - d0 ))"

ibt_check "delete the fabric" "$SIM_CTL" del sw

# OpenSM on the same topology ---------------------------------------------------

if command -v opensm >/dev/null 2>&1; then
	ibt_check "fabric osm, same topology" "$SIM_CTL" add osm "$TOPO" no-sm
	nodes=$("$SIM_CTL" nodes osm)
	A=$(ibt_simctl_dev A)
	B=$(ibt_simctl_dev B)
	pguid=$(sed -n 's/.*name "A".* port 1 guid \(0x[0-9a-f]*\).*/\1/p' <<< "$nodes")
	ibt_opensm_once "$TMP/osm" 120 "$pguid" "$TMP/osm.log" >/dev/null 2>&1
	ibt_match "opensm -o on A: SUBNET UP" 'SUBNET UP' \
		"$(cat "$TMP/osm.log" 2>/dev/null)"
	ibt_expect "  no ERR in its log" "" \
		"$(grep ' ERR ' "$TMP/osm.log" 2>/dev/null)"
	nodes=$("$SIM_CTL" nodes osm)
	ibt_expect "  every linked port Active" 8 \
		"$(grep -o 'state Active peer' <<< "$nodes" | wc -l)"
	blid=$(($(cat /sys/class/infiniband/"$B"/ports/1/lid)))
	alid=$(($(cat /sys/class/infiniband/"$A"/ports/1/lid)))
	ibt_match "  nodedesc of B's LID $blid from A" 'Node Description:\.+B$' \
		"$(smpq nodedesc "$blid" 2>&1)"
	ibt_match "  ibtracert $alid $blid: A -> S1 -> S2 -> B" \
		'"A" \[1\] -> switch port .*"S1" \[2\] -> switch port .*"S2" \[2\] -> ca port .*"B" To ca' \
		"$(ibtracert -C "$A" -P 1 -t 300 "$alid" "$blid" 2>&1 | tr '\n' ' ' | tr -s ' ')"
	ibt_check "delete fabric osm" "$SIM_CTL" del osm
else
	ibt_skip_one "OpenSM brings the subnet up" "no opensm"
fi

ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
