#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtrace_sim fault knobs, through "ibtracectl sim set" and debugfs, on
# HCA A - switch S1 - switch S2 - HCA B (and HCA C on S1), configured by
# SMPs without an SM, ibtrace.ko answering pings. The fabric's seed (sim
# add --seed, from IBTRACE_SEED or picked and printed) is shown by sim
# show. A 30% drop on the path is absorbed by retries and counted
# (debugfs and sim show agree); 100%
# makes the ping time out, and a traffic flow's packets lost there show
# in the fabric's debugfs stats as dropped_link_loss (drops by reason add
# up to dropped); a 20 ms delay shows in the RTT and goes away;
# a link taken down fails the ping with both ends Down/Polling (sim show,
# smpquery), and comes back Init/LinkUp; a misroute rule on S1 sends B's
# LID to C while ibroute still shows the LFT entry, and removing it
# restores the path; GUIDCap and GUIDInfo quirks are set and read back;
# bad values are refused (exit 2, or the kernel's message) without
# changing anything, an unprivileged user gets exit 5; a fabric deleted
# with delayed packets in flight, and the module removed right after,
# leave a clean kernel log. A fabric with more ports than
# debugfs_port_limit has no port directories in debugfs, and its knobs
# still work through netlink.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
TOPO=$IBT_TOPO/s1s2.topo
DBG=/sys/kernel/debug/ibtrace_sim

ibt_require_root
ibt_require_file "$SIM_KO" "$IBTRACECTL" "$IBT_KO"
ibt_require_cmd smpquery ibportstate ibroute jq setpriv
ibt_require_file "$SIM_SMP"
ibt_require_debugfs

ibt_require_modules ib_core ib_umad
ibt_sim_load
ibt_check "debugfs root $DBG" test -d "$DBG"
ibt_check "ibtrace loads" ibt_modprobe_ibtrace

ibt_seed
ibt_check "fabric k (no SM, --seed $IBT_SEED)" \
	"$IBTRACECTL" sim add "$TOPO" --name k --no-sm --seed "$IBT_SEED"
J=$(ibt_sim_json k)
ibt_expect "  sim show -j: the seed given" "$IBT_SEED" "$(jq -r .seed <<< "$J")"
ibt_match "  sim show: seed on the fabric line" \
	"^fabric k cas 3 switches 2 links 4 seed $IBT_SEED sm none\$" \
	"$("$IBTRACECTL" sim show k | head -1)"
A=$(ibt_sim_dev A)
B=$(ibt_sim_dev B)
C=$(ibt_sim_dev C)
ibt_check "debugfs: node dirs by index and name" \
	test -d "$DBG/k/0-S1/port0" -a -d "$DBG/k/1-S2/port2" -a -d "$DBG/k/2-A/port1"
ibt_check "debugfs: S1 has a misroute file, port 2 link knobs and counters" \
	test -f "$DBG/k/0-S1/misroute" -a -f "$DBG/k/0-S1/port2/drop_ppm" \
	-a -f "$DBG/k/0-S1/port2/drops"
ibt_check "debugfs: no GUID knobs on a switch's external port" \
	test ! -e "$DBG/k/0-S1/port2/guid_cap" -a -f "$DBG/k/0-S1/port0/guid_cap"

# Node directories are "index-name" with every character of the name but
# A-Z a-z 0-9 _ . - replaced: a Latin-1 letter too.
printf 'Hca 1 "A\xe9 x"\n[1] "B"[1]\nHca 1 "B"\n[1] "A\xe9 x"[1]\n' > "$TMP/latin1"
ibt_check "fabric kl with a node named A<0xe9> x" \
	"$IBTRACECTL" sim add "$TMP/latin1" --name kl --no-sm
ibt_expect "  debugfs: its directory is 0-A__x" "0-A__x 1-B" \
	"$(cd "$DBG/kl" && echo [0-9]*)"
ibt_check "  fabric kl deleted" "$IBTRACECTL" sim del kl

# A fabric with more ports than debugfs_port_limit (the same topology: 13
# ports, switch ports 0 included) gets node directories but no port
# directories; its knobs stay reachable through netlink.
LIMIT=/sys/module/ibtrace_sim/parameters/debugfs_port_limit
ibt_expect "debugfs_port_limit is 4096 by default" 4096 "$(cat "$LIMIT")"
echo 12 > "$LIMIT"
ibt_check "fabric kb past a port limit of 12" \
	"$IBTRACECTL" sim add "$TOPO" --name kb --no-sm
ibt_check "  debugfs: node dirs and misroute, no port dirs" \
	test -f "$DBG/kb/0-S1/misroute" -a ! -e "$DBG/kb/0-S1/port0" -a ! -e "$DBG/kb/2-A/port1"
ibt_match "  the kernel log says why" \
	'fabric kb: 13 ports, more than debugfs_port_limit 12: no port directories' \
	"$(dmesg | tail -n 20)"
"$IBTRACECTL" sim set kb S1 port 2 drop 30 >/dev/null 2>&1
ibt_expect "  sim set kb S1 port 2 drop 30 still works: drop_ppm 300000" 300000 \
	"$("$IBTRACECTL" -j sim show kb | jq -r '.[0].nodes[] | select(.name == "S1") | .ports[] | select(.port == 2) | .drop_ppm')"
ibt_check "  fabric kb deleted" "$IBTRACECTL" sim del kb
echo 13 > "$LIMIT"
ibt_check "at a limit of 13 the same fabric has its port dirs" \
	sh -c "'$IBTRACECTL' sim add '$TOPO' --name kb --no-sm && test -d '$DBG/kb/0-S1/port0' && '$IBTRACECTL' sim del kb"
echo 4096 > "$LIMIT"

# LIDs A 1, B 2, C 3, S1 10, S2 11; every linked port and port 0 Active;
# LFTs S1: 1->1 2->2 3->3 10->0 11->2, S2: 1->1 2->2 3->1 10->1 11->0.
smp()
{
	"$SIM_SMP" -C "$A" -P 1 -t 1000 "$@"
}
setlid()
{
	ibportstate -C "$A" -P 1 -t 1000 -D "$1" "$2" lid "$3" >/dev/null
}
portstates()
{
	local e

	for e in $1; do
		ibportstate -C "$A" -P 1 -t 1000 -D "${e%:*}" "${e#*:}" "$2" \
			>/dev/null || return 1
	done
}
ENDS="0:1 0,1:0 0,1:1 0,1:2 0,1:3 0,1,2:0 0,1,2:1 0,1,2:2 0,1,2,2:1 0,1,3:1"
ibt_check "subnet by SMPs: LIDs, ports Active, LFTs" sh -c "
	$(declare -f smp setlid portstates); A=$A; SIM_SMP=$SIM_SMP
	setlid 0 1 1 && setlid 0,1 0 10 && setlid 0,1,2 0 11 &&
	setlid 0,1,2,2 1 2 && setlid 0,1,3 1 3 &&
	portstates '$ENDS' arm && portstates '$ENDS' active &&
	smp -D 0,1 set 0x12 0 6=00,0b >/dev/null &&
	smp -D 0,1 set 0x19 0 0=ff,01,02,03,ff,ff,ff,ff,ff,ff,00,02 >/dev/null &&
	smp -D 0,1,2 set 0x12 0 6=00,0b >/dev/null &&
	smp -D 0,1,2 set 0x19 0 0=ff,01,02,01,ff,ff,ff,ff,ff,ff,01,00 >/dev/null"

# ping A -> B (LID 2): -j output in $js, exit status in $rc
ping_b()
{
	js=$("$IBTRACECTL" -j -d "$A" ping --dlid 2 "$@" 2>/dev/null)
	rc=$?
}
ping_b -c 3 -t 500
ibt_expect "ping A -> B (LID 2) across S1, S2: exit 0" 0 "$rc"
ibt_expect "  3 of 3 answered" 3 "$(jq -r .summary.received <<< "$js")"

set_k()
{
	out=$("$IBTRACECTL" sim set k "$@" 2>&1)
	rc=$?
}
# jq on "sim show -j k": the port object of node $1, port $2
port_js()
{
	"$IBTRACECTL" -j sim show k |
		jq -c ".[0].nodes[] | select(.name == \"$1\") | .ports[] | select(.port == $2)"
}

# Drop ---------------------------------------------------------------------------

d0=$(cat "$DBG/k/0-S1/port2/drops")
set_k S1 port 2 drop 30
ibt_expect "sim set k S1 port 2 drop 30: exit 0, silent" "0 " "$rc $out"
ibt_expect "  debugfs drop_ppm reads 300000" 300000 "$(cat "$DBG/k/0-S1/port2/drop_ppm")"
ibt_expect "  sim show -j: drop_ppm 300000" 300000 "$(port_js S1 2 | jq -r .drop_ppm)"
ibt_match "  sim show text: drop 30%" '^    port 2 .* drops [0-9]+ drop 30%$' \
	"$("$IBTRACECTL" sim show k)"
# Only the requests cross S1 port 2 (B answers by S2 port 1), each lost
# with p = 0.3 whatever came before; -r 15 gives a probe 16 attempts.
# Chance, per run, that a check below fails by the draw of the seed:
#   some probe unanswered (all 16 attempts lost): <= 50 * 0.3^16 = 2.2e-7
#   no packet lost at all (50 requests or more):  <= 0.7^50      = 1.8e-8
# together under 2.4e-7, below one in a million runs.
b0=$("$IBTRACECTL" -j -d "$B" agent show | jq -r '.[0].answered')
ping_b -c 50 -i 0 -t 200 -r 15
ibt_expect "30% loss S1 -> S2: ping still succeeds (retries)" 0 "$rc"
ibt_expect "  every probe answered" 50 "$(jq -r .summary.received <<< "$js")"
# A flood's probes are chained (each posted by the answer to the one
# before); a lost one is retried by its sender, whose answer goes on with
# the chain. Only requests are lost, so B answered each probe once.
ibt_expect "  reported once each, in order: seq 1 to 50" yes \
	"$(jq -r 'if [.probes[].seq] == [range(1; 51)] then "yes" else "no" end' <<< "$js")"
ibt_expect "  B's agent answered exactly 50 (one attempt of each probe)" 50 \
	"$(($("$IBTRACECTL" -j -d "$B" agent show | jq -r '.[0].answered') - b0))"
d1=$(cat "$DBG/k/0-S1/port2/drops")
ibt_match "  S1 port 2 counted the lost packets" '^[1-9]' "$((d1 - d0))"
ibt_expect "  debugfs and sim show agree on the drops" "$d1" \
	"$(port_js S1 2 | jq -r .drops)"
echo "# 30% drop, seed $IBT_SEED: $((d1 - d0)) packets lost on S1 port 2 for 50 probes"

set_k S1 port 2 drop 100
ping_b -c 1 -t 200 -r 1
ibt_expect "100% loss: ping times out (exit 6)" 6 "$rc"
# The fabric's debugfs stats count drops by reason: a flow's packets lost
# on S1 port 2 are "dropped_link_loss" (the fabric is otherwise quiet).
l0=$(ibt_sim_stat k dropped_link_loss)
t0=$(ibt_sim_stat k dropped)
out=$("$IBTRACECTL" sim traffic k --from A --to 2 --count 20 2>&1)
rc=$?
n=none
[[ $out =~ \ dropped\ ([0-9]+) ]] && n=${BASH_REMATCH[1]}
l1=$(ibt_sim_stat k dropped_link_loss)
t1=$(ibt_sim_stat k dropped)
ibt_expect "traffic A -> B, 20 packets across 100% loss: exit 7, 20 dropped" \
	"7 20" "$rc $n"
ibt_expect "  debugfs stats: dropped_link_loss grew by as many, dropped by >= as many" \
	"$n 1" "$((l1 - l0)) $((t1 - t0 >= ${n/none/0}))"
ibt_expect "  debugfs stats: no dropped_* line of 0, together they make dropped" \
	"0 0" "$(awk '$1 == "dropped" { t = $2 }
		$1 ~ /^dropped_/ { s += $2; if ($2 == 0) z++ }
		END { print t - s, z + 0 }' "$DBG/k/stats")"
set_k S1 port 2 drop 0
ibt_expect "drop 0: the knob is gone from sim show" null \
	"$(port_js S1 2 | jq -r .drop_ppm)"
ping_b -c 1 -t 500
ibt_expect "  ping works again" 0 "$rc"

# Delay --------------------------------------------------------------------------

set_k S1 port 2 delay 20000
ibt_expect "sim set k S1 port 2 delay 20000" 0 "$rc"
ibt_expect "  debugfs delay_us" 20000 "$(cat "$DBG/k/0-S1/port2/delay_us")"
ping_b -c 3 -i 0 -t 2000
ibt_expect "  ping answered" 3 "$(jq -r .summary.received <<< "$js")"
ibt_match "  RTT min >= 20 ms" '^(2[0-9]{7}|[3-9][0-9]{7}|[0-9]{9,})$' \
	"$(jq -r .summary.rtt_min_ns <<< "$js")"
echo "# delay 20000 us: rtt min/avg/max $(jq -r '.summary | "\(.rtt_min_ns)/\(.rtt_avg_ns)/\(.rtt_max_ns)"' <<< "$js") ns"
echo 0 > "$DBG/k/0-S1/port2/delay_us"
ibt_expect "delay 0 through debugfs: sim show has no delay" null \
	"$(port_js S1 2 | jq -r .delay_us)"
ping_b -c 5 -i 0 -t 2000
ibt_expect "  ping answered" 5 "$(jq -r .summary.received <<< "$js")"
ibt_match "  RTT min back under 20 ms" '^[0-9]{1,7}$|^1[0-9]{7}$' \
	"$(jq -r .summary.rtt_min_ns <<< "$js")"
echo "# delay 0: rtt min/avg/max $(jq -r '.summary | "\(.rtt_min_ns)/\(.rtt_avg_ns)/\(.rtt_max_ns)"' <<< "$js") ns"

# Misroute -----------------------------------------------------------------------

dc=$(port_js C 1 | jq -r .drops)
set_k S1 misroute 2 3
ibt_expect "sim set k S1 misroute 2 3" 0 "$rc"
ibt_match "  sim show: misroute line" '^    misroute dlid 0x2 port 3$' \
	"$("$IBTRACECTL" sim show k)"
ibt_expect "  sim show -j: misroute [{dlid 2, port 3}]" '[{"dlid":2,"port":3}]' \
	"$("$IBTRACECTL" -j sim show k | jq -c '.[0].nodes[0].misroute')"
ibt_expect "  debugfs misroute lists it" "2 3" "$(cat "$DBG/k/0-S1/misroute")"
ping_b -c 1 -t 1000 -r 1
ibt_expect "  ping to LID 2 no longer reaches B (exit 6)" 6 "$rc"
ibt_match "  the packets went to C, which dropped them" '^[1-9]' \
	"$(( $(port_js C 1 | jq -r .drops) - dc ))"
out=$(ibroute -C "$A" -P 1 -t 1000 10 2>&1)
ibt_match "  ibroute on S1 still shows the LFT entry 2 -> port 2" \
	'^0x0002 002 : ' "$out"
ibt_match "  but its LID-routed NodeInfo to LID 2 is lost" \
	'^0x0002 002 : \(unknown node and type\)' "$out"
ibt_match "  LFT block 0 as read by SMP unchanged" '^data=ff010203' \
	"$(smp -D 0,1 get 0x19 0)"
ibt_match "  directed-route SMPs are not misrouted (DR 0,1,2,2 is B)" \
	'Node Description:\.+B$' "$(smpquery -C "$A" -P 1 -t 1000 -D nodedesc 0,1,2,2 2>&1)"
set_k S1 misroute 2 none
ibt_expect "sim set k S1 misroute 2 none" 0 "$rc"
ibt_expect "  rule gone" "" "$(cat "$DBG/k/0-S1/misroute")"
ping_b -c 1 -t 500
ibt_expect "  ping reaches B again" 0 "$rc"
echo "2 3" > "$DBG/k/0-S1/misroute"
ibt_expect "debugfs: write \"2 3\" adds the rule (S1 only)" "null 2/3" \
	"$("$IBTRACECTL" -j sim show k | jq -r '"\(.[0].nodes[1].misroute) \(.[0].nodes[0].misroute[0] | "\(.dlid)/\(.port)")"')"
ping_b -c 1 -t 1000 -r 0
ibt_expect "  ping misrouted (exit 6)" 6 "$rc"
echo "2 -" > "$DBG/k/0-S1/misroute"
ibt_expect "debugfs: write \"2 -\" removes it" null \
	"$("$IBTRACECTL" -j sim show k | jq -r '.[0].nodes[0].misroute')"
ping_b -c 1 -t 500
ibt_expect "  ping reaches B" 0 "$rc"
ibt_check "debugfs: misroute DLID 0 refused" sh -c "! echo '0 1' > $DBG/k/0-S1/misroute"
ibt_check "debugfs: misroute port 5 of a 4-port switch refused" \
	sh -c "! echo '7 5' > $DBG/k/0-S1/misroute"

# Link down / up ------------------------------------------------------------------

portinfo()
{
	smpquery -C "$1" -P 1 -t 1000 -D portinfo "$2" "$3" 2>&1 | tr '\n' ' '
}
set_k S2 port 1 link down
ibt_expect "sim set k S2 port 1 link down" 0 "$rc"
ping_b -c 1 -t 1000 -r 1
ibt_expect "  ping fails (exit 6)" 6 "$rc"
ibt_expect "  sim show: S1/2 and S2/1 Down, both link_down" \
	"DOWN true DOWN true" \
	"$(port_js S1 2 | jq -r '"\(.state) \(.link_down)"') $(port_js S2 1 | jq -r '"\(.state) \(.link_down)"')"
ibt_match "  smpquery S1 port 2 (from A): Down, Polling" \
	'LinkState:\.+Down.*PhysLinkState:\.+Polling' "$(portinfo "$A" 0,1 2)"
ibt_match "  smpquery S2 port 1 (from B): Down, Polling" \
	'LinkState:\.+Down.*PhysLinkState:\.+Polling' "$(portinfo "$B" 0,1 1)"
ibt_expect "  debugfs link_down on both ends" "1 1" \
	"$(cat "$DBG/k/0-S1/port2/link_down") $(cat "$DBG/k/1-S2/port1/link_down")"
ibt_check "  ibportstate reset (disable, enable) does not bring it up" \
	ibportstate -C "$A" -P 1 -t 1000 -D 0,1 2 reset
ibt_match "  still Down" 'LinkState:\.+Down' "$(portinfo "$A" 0,1 2)"
set_k S1 port 2 link up
ibt_expect "sim set k S1 port 2 link up" 0 "$rc"
ibt_match "  S1 port 2: Init, LinkUp" \
	'LinkState:\.+Initialize.*PhysLinkState:\.+LinkUp' "$(portinfo "$A" 0,1 2)"
ibt_match "  S2 port 1: Init, LinkUp" \
	'LinkState:\.+Initialize.*PhysLinkState:\.+LinkUp' "$(portinfo "$B" 0,1 1)"
ibt_expect "  sim show: link_down gone" "null null" \
	"$(port_js S1 2 | jq -r .link_down) $(port_js S2 1 | jq -r .link_down)"
ibt_check "  re-activate the link by SMPs" portstates "0,1:2 0,1,2:1" arm
ibt_check "  (active)" portstates "0,1:2 0,1,2:1" active
ping_b -c 1 -t 500
ibt_expect "  ping works again" 0 "$rc"

# GUIDCap and quirks ---------------------------------------------------------------

set_k A port 1 guid-cap 4 guid-quirks entry0-writable,past-table-status
ibt_expect "sim set k A port 1 guid-cap 4 guid-quirks ..." 0 "$rc"
ibt_expect "  sim show -j" "4 entry0-writable,past-table-status" \
	"$(port_js A 1 | jq -r '"\(.guid_cap) \(.guid_quirks)"')"
ibt_expect "  debugfs" "4 0x3" \
	"$(cat "$DBG/k/2-A/port1/guid_cap") $(cat "$DBG/k/2-A/port1/guid_quirks")"
ibt_match "  PortInfo:GUIDCap 4" 'GuidCap:\.+4 ' "$(portinfo "$A" 0 1)"
echo 0x4 > "$DBG/k/4-C/port1/guid_quirks"
echo 2 > "$DBG/k/4-C/port1/guid_cap"
ibt_expect "debugfs writes on C: read back by netlink" "2 above-cap-nonzero" \
	"$(port_js C 1 | jq -r '"\(.guid_cap) \(.guid_quirks)"')"
set_k 0 port 0 guid-cap 3
ibt_expect "node by index (0 = S1): guid-cap of switch port 0" "0 3" \
	"$rc $(port_js S1 0 | jq -r .guid_cap)"
set_k A port 1 guid-quirks none guid-cap 8
ibt_expect "guid-quirks none, guid-cap 8: back to defaults" "null null" \
	"$(port_js A 1 | jq -r '"\(.guid_cap) \(.guid_quirks)"')"

# Refused requests ---------------------------------------------------------------

set_k A port 1 drop 10 guid-cap 9
ibt_expect "guid-cap 9 above the fabric's 8: exit 1" 1 "$rc"
ibt_match "  the kernel's message names GUIDCap and the attribute" \
	'^Error: GUIDCap must be .*\(attribute port\)$' "$out"
ibt_expect "  nothing changed (no drop knob on A)" null \
	"$(port_js A 1 | jq -r .drop_ppm)"
ibt_check "debugfs: guid_cap 9 refused" sh -c "! echo 9 > $DBG/k/2-A/port1/guid_cap"
ibt_check "debugfs: drop_ppm 1000001 refused" \
	sh -c "! echo 1000001 > $DBG/k/0-S1/port2/drop_ppm"
ibt_check "debugfs: guid_quirks 0x8 refused" \
	sh -c "! echo 8 > $DBG/k/2-A/port1/guid_quirks"
ibt_expect "  nothing changed" "8 0x0 0" \
	"$(cat "$DBG/k/2-A/port1/guid_cap") $(cat "$DBG/k/2-A/port1/guid_quirks") $(cat "$DBG/k/0-S1/port2/drop_ppm")"
set_k S1 port 2 guid-cap 4
ibt_expect "guid-cap on a switch's external port: exit 1" 1 "$rc"
ibt_match "  says why" 'GUID table' "$out"
set_k S1 misroute 2 9
ibt_expect "misroute out of port 9 of a 4-port switch: exit 1" 1 "$rc"
ibt_match "  says why" "^Error: misroute exit port" "$out"
set_k A misroute 2 1
ibt_expect "misroute on an HCA: refused" 1 "$rc"
set_k S1 port 2 drop 5 misroute 2 9
ibt_expect "drop 5 with a bad misroute: refused" 1 "$rc"
ibt_expect "  and the drop knob not set" null "$(port_js S1 2 | jq -r .drop_ppm)"
set_k S1 port 9 drop 5
ibt_expect "no port 9 on S1: exit 1" 1 "$rc"
set_k nosuch port 1 drop 5
ibt_match "unknown node: exit 1, says so" "^1 Error: no node of that name" "$rc $out"
set_k S1 port 2 drop 101
ibt_expect "drop 101: usage error (exit 2)" 2 "$rc"
ibt_match "  names the word" '"101"' "$out"
set_k S1 port 2 delay 10000001
ibt_expect "delay 10000001: exit 2" 2 "$rc"
set_k A port 1 guid-cap 0
ibt_expect "guid-cap 0: exit 2" 2 "$rc"
set_k A port 1 guid-quirks bogus
ibt_expect "unknown quirk: exit 2" 2 "$rc"
set_k S1 misroute 0xc000 1
ibt_expect "misroute multicast DLID: exit 2" 2 "$rc"
set_k S1 drop 5
ibt_expect "drop without port: exit 2" 2 "$rc"
set_k S1 port 2 link sideways
ibt_expect "link sideways: exit 2" 2 "$rc"
set_k S1
ibt_expect "nothing to set: exit 2" 2 "$rc"
out=$(ibt_unpriv sim set k S1 port 2 drop 50 2>&1)
ibt_expect "unprivileged sim set: exit 5" 5 "$?"
ibt_expect "  nothing changed" null "$(port_js S1 2 | jq -r .drop_ppm)"

# Teardown with delayed packets in flight ----------------------------------------

set_k S1 port 2 delay 1000000
set_k S2 port 1 delay 1000000
"$IBTRACECTL" -d "$A" ping --dlid 2 -c 20 -i 0 -t 10000 >/dev/null 2>&1 &
pid=$!
sleep 0.5
ibt_check "fabric deleted with 1 s delays and packets in flight" \
	"$IBTRACECTL" sim del k
wait "$pid"
ibt_check "  ibtrace unloads" ibt_unload_ibtrace
ibt_check "  rmmod ibtrace_sim right after" rmmod ibtrace_sim
ibt_check "  debugfs root gone" test ! -e "$DBG"
ibt_done
