#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtrace_sim first slice: two HCAs linked back to back. Topology errors
# carry a line number and leave nothing behind; the HCAs are InfiniBand
# CAs; directed-route SMPs are answered locally and across the link; LIDs
# and port states set by SMP make LID-routed SMPs work; unsupported
# attributes get status 0x000C; a node dump resumes where it was when a
# fabric is deleted in mid-dump; the fabric goes away and the module
# unloads cleanly.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO"
ibt_require_cmd smpquery ibportstate ibstat
ibt_require_file "$SIM_CTL"

ibt_require_modules ib_core ib_umad
ibt_sim_load
# CQ rings start small and grow; dynamic debug logs each growth.
DYNDBG=/sys/kernel/debug/dynamic_debug/control
[ -w "$DYNDBG" ] && echo 'module ibtrace_sim format "CQ ring grown" +p' > "$DYNDBG"

# Rejected topologies ---------------------------------------------------------

printf 'Hca 1 "A"\n[1] "B"[1]\n\nHca 1 B\n' > "$TMP/bad1"
out=$("$SIM_CTL" add bad "$TMP/bad1" 2>&1)
ibt_expect "malformed header rejected" 1 "$?"
ibt_match "error names line 4 and the reason" '^line 4: bad node name' "$out"
ibt_match "extack carries the reason" 'Error: bad node name.*Invalid argument' "$out"

printf '# two CAs\nHca 1 "A"\n[1] "B"[1]\nHca 1 "B"\n[1] "C"[1]\n' > "$TMP/bad2"
out=$("$SIM_CTL" add bad "$TMP/bad2" 2>&1)
ibt_match "link disagreement / unknown peer rejected at line 5" '^line 5: ' "$out"

printf 'Hca 1 "A"\n[2] "B"[1]\nHca 1 "B"\n' > "$TMP/bad3"
out=$("$SIM_CTL" add bad "$TMP/bad3" 2>&1)
ibt_match "port above the port count rejected at line 2" \
	'^line 2: port number above' "$out"

printf 'Switch 8 "S"\n[9] "A"[1]\nHca 1 "A"\n[1] "S"[9]\n' > "$TMP/bad4"
out=$("$SIM_CTL" add bad "$TMP/bad4" 2>&1)
ibt_match "switch port above its port count rejected at line 2" \
	'^line 2: port number above' "$out"

ibt_expect "nothing left by rejected fabrics" "" "$("$SIM_CTL" show)"
ibt_expect "no RDMA device left by rejected fabrics" "" "$(ibt_sim_devs)"

# Fabric names are A-Z a-z 0-9 _ . - (they name debugfs directories): a
# space, and a Latin-1 letter that the kernel's isalnum() takes for a
# letter, are refused before the (valid) topology is read.
printf 'Hca 1 "A"\n[1] "B"[1]\nHca 1 "B"\n[1] "A"[1]\n' > "$TMP/good"
for name in 'bad name' $'caf\xe9'; do
	out=$("$SIM_CTL" add "$name" "$TMP/good" 2>&1)
	ibt_expect "fabric name ${name@Q} rejected" 1 "$?"
	ibt_match "  extack: fabric name: use A-Z a-z 0-9 _ . -" \
		'Error: fabric name: use A-Z a-z 0-9 _ \. -' "$out"
done

# Two HCAs back to back -------------------------------------------------------

cat > "$TMP/two" <<'TOPO'
# two HCAs, ibnetdiscover style, one with given GUIDs
sysimgguid=0x0002c90300001000
caguid=0x0002c90300001000
Ca	1 "HcaA"		# "HcaA" comment with # and "quotes"
[1](0002c90300001001) 	"HcaB"[1]		# lid 1 lmc 0

Hca	1 "HcaB"
[1]	"HcaA"[1]
TOPO
out=$("$SIM_CTL" add t0 "$TMP/two" no-sm)
ibt_expect "fabric t0 created" "fabric t0 nodes 2 cas 2 switches 0 links 1" "$out"
nodes=$("$SIM_CTL" nodes t0)
A=$(ibt_simctl_dev HcaA)
B=$(ibt_simctl_dev HcaB)
ibt_match "two RDMA devices listed" '^ibtsim[0-9]+ ibtsim[0-9]+ $' "$(ibt_sim_devs)"
ibt_match "node dump: HcaA's GUIDs and link" \
	'index 0 type ca name "HcaA" guid 0x0002c90300001000 dev ibtsim[0-9]+ port 1 guid 0x0002c90300001001 lid 0 state Init peer 1/1' \
	"$nodes"

st=$(ibstat "$A" 2>&1)
ibt_match "ibstat: $A is an InfiniBand CA" 'Link layer: InfiniBand' "$st"
ibt_match "ibstat: CA type and node GUID" 'Node GUID: 0x0002c90300001000' "$st"
ibt_match "ibstat: port Initializing, LinkUp" \
	'State: Initializing.*Physical state: LinkUp' "$(tr '\n' ' ' <<< "$st")"
ibt_check "ib_umad made a umad device for $A" \
	grep -qx "$A" /sys/class/infiniband_mad/umad*/ibdev

# SMPs and PortInfo Sets from $A's port 1.
smpq()
{
	smpquery -C "$A" -P 1 -t 500 "$@"
}

portstate()
{
	ibportstate -C "$A" -P 1 -t 500 "$@"
}

out=$(smpq -D nodeinfo 0 2>&1)
ibt_match "smpquery -D nodeinfo 0: answered locally" \
	'Guid:\.+0x0002c90300001000' "$out"
ibt_match "  port GUID and local port of the arrival port" \
	'PortGuid:\.+0x0002c90300001001.*LocalPort:\.+1' "$(tr '\n' ' ' <<< "$out")"
ibt_match "  node type Channel Adapter" 'NodeType:\.+Channel Adapter' "$out"
ibt_match "smpquery -D nodedesc 0" 'Node Description:\.+HcaA' \
	"$(smpq -D nodedesc 0 2>&1)"

out=$(smpq -D nodeinfo 0,1 2>&1)
ibt_match "smpquery -D nodeinfo 0,1: answered by the peer" \
	'Guid:\.+0x0014050000000100' "$out"
ibt_match "  peer's NodeDescription over DR" 'Node Description:\.+HcaB' \
	"$(smpq -D nodedesc 0,1 2>&1)"
ibt_match "  peer's PortInfo over DR (Init, LinkUp)" \
	'LinkState:\.+Initialize.*PhysLinkState:\.+LinkUp' \
	"$(smpq -D portinfo 0,1 2>&1 | tr '\n' ' ')"

smpq -D nodeinfo 0,1,1 >/dev/null 2>&1
ibt_expect "DR past a CA (0,1,1) is not answered" 1 $(( $? != 0 ))

out=$(smpq -e -D switchinfo 0 2>&1)
ibt_match "unsupported attribute (SwitchInfo on a CA) -> status 0x000C" \
	'error status 0xc;' "$out"
out=$(smpq -e -D switchinfo 0,1 2>&1)
ibt_match "  the same from the peer, across the link" 'error status 0xc;' "$out"

# A burst: ib_mad's CQ on $A asked for hundreds of entries, has 16, and
# must grow while completions pile up. ib_mad polls as soon as an event
# comes; with event moderation (cq_moderation_us, 20 ms, as a NIC's
# interrupt coalescing) they pile up whatever the machine's speed.
MODER=/sys/module/ibtrace_sim/parameters/cq_moderation_us
ibt_expect "cq_moderation_us is 0 by default (events at once)" 0 "$(cat "$MODER")"
ibt_at_exit "echo 0 > $MODER 2>/dev/null"
echo 20000 > "$MODER"
ibt_expect "a burst of 1000 NodeInfo Gets across the link: every one answered" \
	"answered=1000 of 1000" \
	"$("$SIM_SMP" -C "$A" -P 1 -t 5000 -n 1000 -D 0,1 get 0x11 0 2>&1)"
echo 0 > "$MODER"
if [ -w "$DYNDBG" ]; then
	grown=$(ibt_kmsg_since | sed -n "s/.* $A: CQ ring grown to \([0-9]*\) of.*/\1/p" |
		sort -n | tail -1)
	ibt_expect "  $A's CQ ring grew past its first 16 entries (dynamic debug)" \
		1 $(( ${grown:-0} > 16 ))
	echo "# $A's CQ ring: ${grown:-16} entries after the burst"
else
	ibt_skip_one "  $A's CQ ring grew" "no dynamic debug control"
fi

# LIDs and port states by SMP Set PortInfo ------------------------------------

ibt_check "set LID 1 on $A port 1 (DR 0)" portstate -D 0 1 lid 1
ibt_check "set LID 2 on $B port 1 (DR 0,1)" portstate -D 0,1 1 lid 2
ibt_expect "sysfs LID of $A" 0x1 "$(cat /sys/class/infiniband/"$A"/ports/1/lid)"
ibt_expect "sysfs LID of $B" 0x2 "$(cat /sys/class/infiniband/"$B"/ports/1/lid)"

out=$(smpq nodedesc 2 2>&1)
ibt_match "LID-routed SMP from $A to LID 2 answered by HcaB" \
	'Node Description:\.+HcaB' "$out"
out=$(smpquery -C "$B" -P 1 -t 500 nodedesc 1 2>&1)
ibt_match "LID-routed SMP from $B to LID 1 answered by HcaA" \
	'Node Description:\.+HcaA' "$out"
ibt_match "LID-routed SMP to own LID (loopback)" 'Node Description:\.+HcaA' \
	"$(smpq nodedesc 1 2>&1)"
ibt_match "PortInfo by LID shows LID 2" 'Lid:\.+2$' \
	"$(smpq portinfo 2 2>&1 | grep '^Lid:')"
smpq nodedesc 3 >/dev/null 2>&1
ibt_expect "no node at LID 3: no answer" 1 $(( $? != 0 ))

portstate -D 0,1 1 active >/dev/null 2>&1
ibt_match "Init -> Active refused (Armed first): state unchanged" \
	'LinkState:\.+Initialize' "$(smpq -D portinfo 0,1 2>&1)"
ibt_check "arm $A (DR 0)" portstate -D 0 1 arm
ibt_check "arm $B (DR 0,1)" portstate -D 0,1 1 arm
ibt_check "activate $A (LID 1)" portstate 1 1 active
ibt_check "activate $B (LID 2)" portstate 2 1 active
ibt_expect "$A port ACTIVE in sysfs" "4: ACTIVE" \
	"$(cat /sys/class/infiniband/"$A"/ports/1/state)"
ibt_expect "$B port ACTIVE in sysfs" "4: ACTIVE" \
	"$(cat /sys/class/infiniband/"$B"/ports/1/state)"
ibt_match "node dump shows LIDs and Active" \
	'name "HcaB".*lid 2 state Active peer 0/1' "$("$SIM_CTL" nodes t0)"

# The GetResp cannot come back over the link the Set takes down.
portstate 2 1 disable >/dev/null 2>&1
ibt_match "disable $B's port by LID: its PortInfo says Disabled" \
	'PhysLinkState:\.+Disabled' \
	"$(smpquery -C "$B" -P 1 -t 500 -D portinfo 0 2>&1)"
ibt_expect "$A port DOWN after the peer disabled the link" "1: DOWN" \
	"$(cat /sys/class/infiniband/"$A"/ports/1/state)"
ibt_check "re-enable it from $B (DR 0)" \
	ibportstate -C "$B" -P 1 -t 500 -D 0 1 enable
ibt_expect "$A port back in Init" "2: INIT" \
	"$(cat /sys/class/infiniband/"$A"/ports/1/state)"

# Teardown -------------------------------------------------------------------

"$SIM_CTL" del nope >/dev/null 2>&1
ibt_expect "deleting an unknown fabric fails" 1 "$?"
ibt_check "delete fabric t0" "$SIM_CTL" del t0
ibt_expect "RDMA devices gone" "" "$(ibt_sim_devs)"
ibt_check "add and delete again" sh -c \
	"'$SIM_CTL' add t1 '$TMP/two' >/dev/null && '$SIM_CTL' del t1"

# A dump resumes where it was, whatever changed in between: fabric d1 is
# deleted after the first part of a node dump of d1 and d2 (30 switches
# of 36 ports each: several parts of about 5 KiB per node); d2's nodes
# come each once, none skipped or repeated.
awk 'BEGIN { for (i = 0; i < 30; i++) printf "Switch 36 \"W%d\"\n", i }' \
	> "$TMP/switches"
ibt_check "fabrics d1, d2 of 30 switches each" sh -c \
	"'$SIM_CTL' add d1 '$TMP/switches' no-sm >/dev/null &&
	 '$SIM_CTL' add d2 '$TMP/switches' no-sm >/dev/null"
out=$("$SIM_CTL" nodes-del d1 2>"$TMP/nodes-del.err")
ibt_expect "node dump with d1 deleted after its first part: exit 0" \
	"0 nodes-del: d1 deleted after the dump's first part" \
	"$? $(cat "$TMP/nodes-del.err")"
ibt_expect "  d2's nodes 0..29, each once" "$(seq 0 29 | tr '\n' ' ')" \
	"$(sed -n 's/^node fabric d2 index \([0-9]*\) .*/\1/p' <<< "$out" | tr '\n' ' ')"
ibt_check "delete fabric d2" "$SIM_CTL" del d2
ibt_check "fabric left for rmmod" "$SIM_CTL" add t2 "$TMP/two" no-sm
ibt_check "rmmod ibtrace_sim with a fabric" rmmod ibtrace_sim
ibt_expect "no RDMA device after rmmod" "" "$(ibt_sim_devs)"
ibt_done
