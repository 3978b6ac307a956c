#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtrace_sim SMA and PMA, on HCA A - switch S1 - switch S2 - HCA B (and
# HCA C on S1):
# - GUIDInfo (IBA 14.2.5.5, conformance test C14_024_05) on an HCA port
#   and on a switch's port 0: entry 0 is the PortGUID and read-only, a Set
#   answers with the resulting block, entries at or above GUIDCap read 0, a
#   block past the table gets status 0x001C; an HCA's GID table (sysfs,
#   ib_core's cache, reloaded on IB_EVENT_GID_CHANGE only) follows a Set;
#   fabrics of GUIDCap 1, 8, 32 and 255 have that many entries;
# - SLtoVLMappingTable, VLArbitrationTable, MulticastForwardingTable Set and
#   Get; unsupported attributes and bad modifiers are answered, not dropped;
# - directed routes of hop count 0 and of the maximum 63 hops;
# - OpenSM (if installed) sweeps without an error for an unanswered
#   attribute; SMInfo reaches its umad agent; perfquery reads counters that
#   rise with traffic, count drops and clear on reset, on HCAs and switches.

source "$(dirname "$0")/lib.sh"

TOPO=$IBT_TOPO/s1s2.topo
OSM_PID=
# osm_stop: end the OpenSM started in the background, if one runs
osm_stop()
{
	[ -n "$OSM_PID" ] || return 0
	kill "$OSM_PID" 2>/dev/null
	wait "$OSM_PID" 2>/dev/null
	OSM_PID=
}
ibt_tmpdir
ibt_at_exit osm_stop

ibt_require_root
ibt_require_file "$SIM_KO"
ibt_require_cmd smpquery perfquery ibportstate
ibt_require_file "$SIM_CTL" "$SIM_SMP"
ibt_require_modules ib_core ib_umad
ibt_sim_load

ibt_check "fabric sma (no SM): 2 switches, 3 HCAs" \
	"$SIM_CTL" add sma "$TOPO" no-sm
nodes=$("$SIM_CTL" nodes sma)
# Port GUID of port $2 of node $1, without 0x.
pguid()
{
	sed -n "s/.*name \"$1\".* port $2 guid 0x\([0-9a-f]*\).*/\1/p" <<< "$nodes"
}
A=$(ibt_simctl_dev A)
B=$(ibt_simctl_dev B)
AG=$(pguid A 1)
S1G=$(pguid S1 0)
S2G=$(pguid S2 0)

smpq()
{
	smpquery -C "$A" -P 1 -t 300 "$@"
}

smp()
{
	"$SIM_SMP" -C "$A" -P 1 -t 300 "$@"
}

gid()
{
	cat "/sys/class/infiniband/$1/ports/1/gids/$2"
}

# Wait (up to 3 s) for GID $2 of device $1 to read $3; print what it reads.
gid_wait()
{
	local i g

	for i in $(seq 30); do
		g=$(gid "$1" "$2")
		[ "$g" = "$3" ] && break
		sleep 0.1
	done
	echo "$g"
}

# The 16 hex digits of GUID entry $2 in the data of ibtrace_sim_smp's
# answer $1.
entry()
{
	sed -n 's/^data=//p' <<< "$1" | cut -c$(($2 * 16 + 1))-$(($2 * 16 + 16))
}

ZGID=0000:0000:0000:0000:0000:0000:0000:0000
Z16=0000000000000000

# GUIDInfo on an HCA port -------------------------------------------------------

out=$(smpq -D guidinfo 0 2>&1)
ibt_match "smpquery guidinfo (DR hop count 0): 8 GUIDs" \
	'^8 guids capacity' "$out"
ibt_expect "  entry 0 (its first GUID) is A's port GUID" "0x$AG" \
	"$(grep -oiE '0x[0-9a-f]{16}' <<< "$out" | head -1)"
ibt_match "PortInfo of A: GuidCap 8" 'GuidCap:\.+8$' \
	"$(smpq -D portinfo 0 2>&1)"
ibt_expect "sysfs: A has 8 GIDs" 8 \
	"$(ls "/sys/class/infiniband/$A/ports/1/gids" | wc -l)"
ibt_expect "  GID 0 is fe80::PortGUID" \
	"fe80:0000:0000:0000:${AG:0:4}:${AG:4:4}:${AG:8:4}:${AG:12:4}" \
	"$(gid "$A" 0)"
ibt_expect "  GID 1 is empty" "$ZGID" "$(gid "$A" 1)"

out=$(smp -D 0 set 0x14 0 0=de,ad,be,ef,00,00,00,01 \
	8=02,00,00,00,00,00,00,0a 56=02,00,00,00,00,00,00,0b)
ibt_match "GUIDInfo Set block 0 (entries 0, 1, 7): status 0" \
	'^status=0x0000' "$out"
ibt_expect "  the answer keeps entry 0 (read-only PortGUID)" "$AG" \
	"$(entry "$out" 0)"
ibt_expect "  the answer has entry 1 written" 020000000000000a \
	"$(entry "$out" 1)"
ibt_expect "  the answer has entry 7 written" 020000000000000b \
	"$(entry "$out" 7)"
out=$(smp -D 0 get 0x14 0)
ibt_expect "GUIDInfo Get block 0 reads the same back" \
	"$AG,020000000000000a,$Z16,020000000000000b" \
	"$(entry "$out" 0),$(entry "$out" 1),$(entry "$out" 2),$(entry "$out" 7)"
ibt_expect "sysfs GID 1 follows (IB_EVENT_GID_CHANGE reloaded the cache)" \
	fe80:0000:0000:0000:0200:0000:0000:000a \
	"$(gid_wait "$A" 1 fe80:0000:0000:0000:0200:0000:0000:000a)"
ibt_expect "  sysfs GID 7 too" fe80:0000:0000:0000:0200:0000:0000:000b \
	"$(gid "$A" 7)"
ibt_expect "  sysfs GID 0 unchanged" \
	"fe80:0000:0000:0000:${AG:0:4}:${AG:4:4}:${AG:8:4}:${AG:12:4}" \
	"$(gid "$A" 0)"
ibt_match "NodeInfo PortGUID unchanged" "PortGuid:\.+0x0*${AG#00}" \
	"$(smpq -D nodeinfo 0 2>&1)"
out=$(smp -D 0 set 0x14 0 8=00,00,00,00,00,00,00,00)
ibt_expect "GUIDInfo Set clears entry 1" "$Z16" "$(entry "$out" 1)"
ibt_expect "  sysfs GID 1 empty again" "$ZGID" "$(gid_wait "$A" 1 "$ZGID")"

ibt_match "GUIDInfo Get block 1 (past GUIDCap 8): status 0x001C" \
	'^status=0x001c' "$(smp -D 0 get 0x14 1)"
ibt_match "GUIDInfo Set block 1: status 0x001C" '^status=0x001c' \
	"$(smp -D 0 set 0x14 1 0=01)"
ibt_match "GUIDInfo Get block 31: status 0x001C" '^status=0x001c' \
	"$(smp -D 0 get 0x14 31)"
out=$(smp -D 0,1,2,2 get 0x14 0)
ibt_expect "GUIDInfo of B across two switches: entry 0 is B's port GUID" \
	"$(pguid B 1)" "$(entry "$out" 0)"

# GUIDInfo on a switch's port 0 ------------------------------------------------

out=$(smp -D 0,1 get 0x14 0)
ibt_expect "GUIDInfo of S1 (port 0): entry 0 is its port GUID" "$S1G" \
	"$(entry "$out" 0)"
ibt_match "PortInfo of S1 port 0: GuidCap 8" 'GuidCap:\.+8$' \
	"$(smpq -D portinfo 0,1 0 2>&1)"
out=$(smp -D 0,1 set 0x14 0 0=11,11,11,11,11,11,11,11 16=03,00,00,00,00,00,00,01)
ibt_expect "GUIDInfo Set on S1: entry 0 kept, entry 2 written" \
	"$S1G,0300000000000001" "$(entry "$out" 0),$(entry "$out" 2)"
out=$(smp -D 0,1,2 get 0x14 0)
ibt_expect "  S1's table only (S2 entry 2 still empty)" "$S2G,$Z16" \
	"$(entry "$out" 0),$(entry "$out" 2)"
ibt_match "GUIDInfo block 1 of S1: status 0x001C" '^status=0x001c' \
	"$(smp -D 0,1 get 0x14 1)"
ibt_match "NodeInfo of S1: PortGUID unchanged" "PortGuid:\.+0x0*${S1G#00}" \
	"$(smpq -D nodeinfo 0,1 2>&1)"

# SLtoVL, VLArbitration, MulticastForwardingTable ------------------------------

ibt_check "SL2VL Set on S1, input port 1 to output port 2" \
	smp -D 0,1 set 0x17 0x0102 0=01,23,45,67,01,23,45,67
out=$(smpq -D sl2vl 0,1 2 2>&1)
ibt_match "smpquery sl2vl 0,1 2: in 1 out 2 maps SL i to VL i%8" \
	'^ports: in  1, out  2: \| 0\| 1\| 2\| 3\| 4\| 5\| 6\| 7\| 0\| 1\|' "$out"
ibt_match "  in 3 out 2 untouched" \
	'^ports: in  3, out  2: \| 0\| 0\| 0\| 0\|' "$out"
ibt_match "SL2VL port out of range: status 0x001C" '^status=0x001c' \
	"$(smp -D 0,1 get 0x17 0x0109)"
ibt_check "SL2VL Set on A's port" smp -D 0 set 0x17 0 0=10,32
ibt_match "smpquery sl2vl 0 (HCA): SL 0..3 to VL 1 0 3 2" \
	'\| 1\| 0\| 3\| 2\| 0\|' "$(smpq -D sl2vl 0 2>&1)"

ibt_check "VLArb Set on S1 port 2, low priority block" \
	smp -D 0,1 set 0x18 0x10002 0=00,20,01,40
out=$(smpq -D vlarb 0,1 2 2>&1)
ibt_match "smpquery vlarb 0,1 2: low table VL 0 1 weights 0x20 0x40" \
	'VL +: \|0x0 +\|0x1 +\|.*WEIGHT: \|0x20 *\|0x40 *\|' \
	"$(sed -n '/Low/,/High/p' <<< "$out" | tr '\n' ' ')"
ibt_match "VLArb block 2 (LowCap 8 <= 32): status 0x001C" '^status=0x001c' \
	"$(smp -D 0,1 get 0x18 0x20002)"
ibt_match "VLArb of A (HCA), high priority block" '^status=0x0000' \
	"$(smp -D 0 get 0x18 0x30000)"

ibt_match "SwitchInfo: MulticastFDBCap 1024" 'McastFdbCap:\.+1024$' \
	"$(smpq -D switchinfo 0,1 2>&1)"
out=$(smp -D 0,1 set 0x1b 0 0=00,06 2=00,0a 62=00,01)
ibt_match "MFT Set block 0 (MLIDs 0xC000..): answered" \
	'^data=0006000a0000.{112}0001$' "$out"
ibt_match "MFT Get block 0 reads it back" '^data=0006000a0000.{112}0001$' \
	"$(smp -D 0,1 get 0x1b 0)"
ibt_match "MFT block 1 still empty" '^data=0{128}$' "$(smp -D 0,1 get 0x1b 1)"
ibt_match "MFT block 32 (past MulticastFDBCap): status 0x001C" \
	'^status=0x001c' "$(smp -D 0,1 get 0x1b 32)"
ibt_match "MFT port mask position 1 on a 4-port switch: 0x001C" \
	'^status=0x001c' "$(smp -D 0,1 get 0x1b 0x10000000)"
ibt_match "MFT on an HCA: status 0x000C" '^status=0x000c' \
	"$(smp -D 0 get 0x1b 0)"
ibt_match "LedInfo (not implemented): status 0x000C" '^status=0x000c' \
	"$(smp -D 0,1 get 0x31 0)"

# Directed-route edge cases -----------------------------------------------------

ibt_match "DR hop count 0 (local): nodedesc is A" 'Node Description:\.+A$' \
	"$(smpq -D nodedesc 0 2>&1)"
# 63 hops bouncing between S1 and S2: 0,1 then (2,1) x 31 ends at S1.
path=0,1$(printf ',2,1%.0s' $(seq 31))
out=$(smp -D "$path" get 0x11 0)
ibt_match "DR of the maximum 63 hops: NodeInfo answered by S1" \
	"^data=.{24}$S1G" "$out"

ibt_check "delete fabric sma" "$SIM_CTL" del sma

# GUIDCap sizes -----------------------------------------------------------------

printf 'Switch 2 "S"\n[1] "H"[1]\n\nHca 1 "H"\n[1] "S"[1]\n' > "$TMP/small"
if [ -x "$IBTRACECTL" ]; then
	for cap in 1 8 32 255; do
		"$IBTRACECTL" sim add "$TMP/small" --name "gc$cap" --no-sm \
			--guid-cap "$cap" >/dev/null 2>&1
		nodes=$("$SIM_CTL" nodes "gc$cap")
		H=$(ibt_simctl_dev H)
		if [ -z "$H" ]; then
			ibt_fail "sim add --guid-cap $cap" "$nodes"
			continue
		fi
		last=$(((cap - 1) / 8))
		sq="smpquery -C $H -P 1 -t 300"
		sm="$SIM_SMP -C $H -P 1 -t 300"
		ibt_match "--guid-cap $cap: HCA PortInfo GuidCap $cap" \
			"GuidCap:\.+$cap\$" "$($sq -D portinfo 0 2>&1)"
		ibt_match "  switch port 0 PortInfo GuidCap $cap" \
			"GuidCap:\.+$cap\$" "$($sq -D portinfo 0,1 0 2>&1)"
		ibt_expect "  sysfs: $cap GIDs" "$cap" \
			"$(ls "/sys/class/infiniband/$H/ports/1/gids" | wc -l)"
		ibt_match "  smpquery guidinfo: $cap GUIDs" \
			"^$cap guids capacity" "$($sq -D guidinfo 0 2>&1)"
		ibt_match "  last block $last answered (HCA)" '^status=0x0000' \
			"$($sm -D 0 get 0x14 $last)"
		ibt_match "  block $((last + 1)) past the table: 0x001C (HCA)" \
			'^status=0x001c' "$($sm -D 0 get 0x14 $((last + 1)))"
		ibt_match "  last block $last answered (switch)" \
			'^status=0x0000' "$($sm -D 0,1 get 0x14 $last)"
		ibt_match "  block $((last + 1)) past the table: 0x001C (switch)" \
			'^status=0x001c' "$($sm -D 0,1 get 0x14 $((last + 1)))"
		if [ $((cap % 8)) -ne 0 ]; then
			# Write every entry of the last block: those >= GUIDCap
			# must read back 0, those below it as written.
			out=$($sm -D 0 set 0x14 $last \
				0=05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05,05)
			e=$((cap % 8))
			ibt_expect "  entry $cap (>= GUIDCap) reads 0 after a Set" \
				"$Z16" "$(entry "$out" "$e")"
			[ "$e" -gt 1 ] && ibt_expect "  entry $((cap - 1)) written" \
				0505050505050505 "$(entry "$out" $((e - 1)))"
		fi
		ibt_check "  delete fabric gc$cap" "$SIM_CTL" del "gc$cap"
	done
else
	ibt_skip_one "GUIDCap sizes 1, 8, 32, 255" "no $IBTRACECTL"
fi

# OpenSM, SMInfo and the PMA ------------------------------------------------------

if ! command -v opensm >/dev/null 2>&1; then
	ibt_skip_one "OpenSM sweep, SMInfo, perfquery" "no opensm"
	ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
	ibt_done
fi

ibt_check "fabric osm, same topology, no SM" "$SIM_CTL" add osm "$TOPO" no-sm
nodes=$("$SIM_CTL" nodes osm)
A=$(ibt_simctl_dev A)
B=$(ibt_simctl_dev B)
# Private cache and dump directories (no state from other runs).
ibt_opensm_once "$TMP/osm" 300 "0x$(pguid A 1)" "$TMP/osm.log" >/dev/null 2>&1
ibt_match "opensm -o on A: SUBNET UP" 'SUBNET UP' \
	"$(cat "$TMP/osm.log" 2>/dev/null)"
ibt_expect "  no ERR in its log (no unanswered or refused attribute)" "" \
	"$(grep ' ERR ' "$TMP/osm.log" 2>/dev/null)"

# An SM that stays (no periodic sweeps), for SMInfo: A's process_mad must
# leave SMInfo to OpenSM's umad agent.
OSM_CACHE_DIR=$TMP/osm OSM_TMP_DIR=$TMP/osm \
	opensm -g "0x$(pguid A 1)" -s 0 -f "$TMP/osm2.log" >/dev/null 2>&1 &
OSM_PID=$!
for _ in $(seq 120); do
	out=$(sminfo -C "$B" -P 1 -t 300 2>&1)
	grep -q SMINFO_MASTER <<< "$out" && break
	sleep 1
done
ibt_match "SMInfo from B reaches OpenSM's agent on A (not A's SMA)" \
	"sm guid 0x0*${AG#00}.*SMINFO_MASTER" "$out"
osm_stop

alid=$(($(cat "/sys/class/infiniband/$A/ports/1/lid")))
blid=$(($(cat "/sys/class/infiniband/$B/ports/1/lid")))
s1lid=$(smpq -D portinfo 0,1 0 2>&1 | sed -n 's/^Lid:\.*//p')

pq()
{
	perfquery -C "$A" -P 1 -t 300 "$@" 2>&1
}

# Field $1 of perfquery output $2.
field()
{
	sed -n "s/^$1:\.*//p" <<< "$2"
}

# rose FIELD BEFORE N: "ok" if FIELD of $out is at least BEFORE + N, else
# "BEFORE -> FIELD"
rose()
{
	local now

	now=$(field "$1" "$out")
	[ "$now" -ge $(($2 + $3)) ] && echo ok || echo "$2 -> $now"
}

# smps_to_b N: N SMP Gets of B's NodeDescription (the answers dropped)
smps_to_b()
{
	for _ in $(seq "$1"); do
		smpq nodedesc "$blid" >/dev/null 2>&1
	done
}

out=$(pq)
ibt_match "perfquery (A's own port): PortCounters answered" \
	'^# Port counters: Lid [0-9]+ port 1' "$out"
ibt_match "  ClassPortInfo: AllPortSelect, extended width and PortXmitWait" \
	'CapMask: 0x(1|3|5|7|9|b|d|f)(3|7|b|f)[0-9a-f]{2}\)' "$out"
tx0=$(field PortXmitPkts "$out")
rx0=$(field PortRcvPkts "$out")
smps_to_b 20
out=$(pq "$alid" 1)
ibt_match "  after 20 SMPs to B: PortXmitPkts rose by >= 20" '^ok$' \
	"$(rose PortXmitPkts "$tx0" 20)"
ibt_match "  PortRcvPkts rose by >= 20" '^ok$' \
	"$(rose PortRcvPkts "$rx0" 20)"
out=$(pq -x "$alid" 1)
ibt_match "perfquery -x: extended PortXmitPkts >= the 32-bit one" '^ok$' \
	"$([ "$(field PortXmitPkts "$out")" -ge $((tx0 + 20)) ] && echo ok ||
	echo "$out")"
pq -R "$alid" 1 >/dev/null
out=$(pq "$alid" 1)
ibt_match "perfquery -R then again: counters cleared (only the query since)" \
	'^[0-9]$' "$(field PortXmitPkts "$out")"

out=$(pq "$s1lid" 1)
ibt_match "perfquery of S1 port 1 (switch, by LID): answered" \
	"^# Port counters: Lid $s1lid port 1" "$out"
tx0=$(field PortXmitPkts "$out")
smps_to_b 10
out=$(pq "$s1lid" 1)
ibt_match "  S1 port 1 PortXmitPkts rose by >= 10 (the answers to A)" '^ok$' \
	"$(rose PortXmitPkts "$tx0" 10)"
out=$(pq -a "$s1lid")
ibt_match "perfquery -a (PortSelect 255): the sum over S1's ports" \
	'^PortSelect:\.+255$' "$out"
err0=$(field PortRcvSwitchRelayErrors "$(pq "$s1lid" 1)")
smpq nodedesc 200 >/dev/null 2>&1
err1=$(field PortRcvSwitchRelayErrors "$(pq "$s1lid" 1)")
ibt_match "SMP to unrouted LID 200: S1 port 1 PortRcvSwitchRelayErrors rose" \
	'^ok$' "$([ "$err1" -gt "$err0" ] && echo ok || echo "$err0 -> $err1")"
out=$(pq -x "$s1lid" 2)
ibt_match "perfquery -x of S1 port 2: extended counters answered" \
	'^PortUnicastXmitPkts:\.+[1-9]' "$out"
pq -R "$s1lid" 1 >/dev/null
out=$(pq "$s1lid" 1)
ibt_match "perfquery -R on S1 port 1 clears it" '^[0-9]$' \
	"$(field PortRcvPkts "$out")"
ibt_expect "  and its PortRcvSwitchRelayErrors" 0 \
	"$(field PortRcvSwitchRelayErrors "$out")"

ibt_check "delete fabric osm" "$SIM_CTL" del osm
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
