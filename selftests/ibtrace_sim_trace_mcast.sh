#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtracectl trace --mlid on ibtrace_sim's net.2sw2path4hca (SM-lite gives
# the LIDs; the multicast forwarding tables are written by hand with
# SubnSet(MulticastForwardingTable), as an SM would for a group):
# - a tree reaching every HCA: for every HCA pair the hops (node GUIDs,
#   in/out ports, LIDs) equal what "ibtracert -m" prints; the agents are
#   not asked (hop 0 "local", the others "unasked", no vendor MAD);
# - a tree that leaves an HCA out: the HCAs in it are reached as
#   ibtracert says; the one left out is "not in the tree" (exit 8, one
#   sentence, JSON no_route/not_in_tree), where ibtracert fails too;
# - tables that loop (both switch-to-switch links in both directions):
#   the search ends, with ibtracert's path;
# - a link of the tree down: the other marked link is taken; up again, the
#   first one;
# - a node that does not answer ends the search there (exit 11, the path
#   to it reported); SIGINT cancels it (exit 13);
# - an MLID past the switches' MulticastFDBCap: not in the tree;
# - --dgid (SM-lite's SA) with --mlid gives the --dlid path;
# - --mlid outside 0xc000..0xfffe is refused by the tool (exit 2);
# - "trace monitor" shows the MLID of a multicast trace's end;
# - a 70-port switch (more ports than the search asks about at once):
#   = ibtracert -m; a 16-port switch: its port 16 (the second port-mask
#   position) is followed.
# Prints the SMPs of one trace against ibtracert's (sim counters).

source "$(dirname "$0")/lib.sh"

EX=/usr/share/doc/ibsim-utils/net-examples
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" "$EX/net.2sw2path4hca"
ibt_require_cmd ibtracert jq
ibt_require_file "$SIM_SMP"
ibt_require_modules ib_core ib_umad

ibt_sim_load_ibtrace "load ibtrace"
ibt_check "fabric f: net.2sw2path4hca, SM-lite" \
	"$IBTRACECTL" sim add "$EX/net.2sw2path4hca" --name f

J=$(ibt_sim_json f)
HCAS="Hca1 Hca2 Hca3 Hca4"
H1=$(ibt_sim_dev Hca1)
L1=$(ibt_sim_lid Hca1)
L3=$(ibt_sim_lid Hca3)
L4=$(ibt_sim_lid Hca4)
# Switch1 is behind Hca1's port 1; Switch2 behind Switch1's port 3 (and 5)
S1=0,1
S2=0,1,3

smp()
{
	"$SIM_SMP" -C "$H1" -P 1 -t 300 "$@"
}

# mft SWITCH_PATH MLID MASK: one MFT entry, ports 0..15 (SubnSet)
mft()
{
	local e=$(($2 - 0xc000)) out

	out=$(smp -D "$1" set 0x1b $((e / 32)) \
		"$((e % 32 * 2))=$(printf '%02x,%02x' $(($3 >> 8)) $(($3 & 0xff)))")
	grep -q '^status=0x0000' <<< "$out"
}

# mask PORT...: the MFT port mask of these ports
mask()
{
	local m=0 p

	for p in "$@"; do
		m=$((m | 1 << p))
	done
	echo "$m"
}

# Trees ---------------------------------------------------------------------------

# 0xc000: every HCA (Switch1: Hca1, Hca3, Switch2 by port 3; Switch2: Hca2,
# Hca4, Switch1 by port 3)
ibt_check "MLID 0xc000 on Switch1: ports 1 2 3" mft $S1 0xc000 "$(mask 1 2 3)"
ibt_check "MLID 0xc000 on Switch2: ports 1 2 3" mft $S2 0xc000 "$(mask 1 2 3)"
# 0xc001: Hca1 and Hca4 only
ibt_check "MLID 0xc001 on Switch1: ports 1 3" mft $S1 0xc001 "$(mask 1 3)"
ibt_check "MLID 0xc001 on Switch2: ports 2 3" mft $S2 0xc001 "$(mask 2 3)"
# 0xc002: both links between the switches, both ways: a loop
ibt_check "MLID 0xc002 on Switch1: ports 1 2 3 5" mft $S1 0xc002 "$(mask 1 2 3 5)"
ibt_check "MLID 0xc002 on Switch2: ports 1 2 3 5" mft $S2 0xc002 "$(mask 1 2 3 5)"
# 0xc003: Hca1 to Hca4 over both links between the switches
ibt_check "MLID 0xc003 on Switch1: ports 1 3 5" mft $S1 0xc003 "$(mask 1 3 5)"
ibt_check "MLID 0xc003 on Switch2: ports 2 3 5" mft $S2 0xc003 "$(mask 2 3 5)"

# agree MLID SRC DST: ibtracectl's hops = ibtracert -m's; prints what
# differs
agree()
{
	local want got

	want=$(ibt_rert_mc_path "$(ibt_sim_dev "$2")" "$1" "$(ibt_sim_lid "$2")" "$(ibt_sim_lid "$3")")
	got=$("$IBTRACECTL" -j -d "$(ibt_sim_dev "$2")" -p 1 trace --mlid "$1" \
		--dlid "$(ibt_sim_lid "$3")" -t 300 2>/dev/null | ibt_trace_mc_path)
	[ -n "$want" ] && [ "$want" = "$got" ] && return 0
	printf '# %s %s -> %s\n# ibtracert -m:\n%s\n# ibtracectl:\n%s\n' "$1" "$2" \
		"$3" "$(sed 's/^/#   /' <<< "$want")" "$(sed 's/^/#   /' <<< "$got")"
	return 1
}

n=0
bad=0
for s in $HCAS; do
	for d in $HCAS; do
		[ "$s" = "$d" ] && continue
		n=$((n + 1))
		agree 0xc000 "$s" "$d" || bad=$((bad + 1))
	done
done
ibt_expect "0xc000 (every HCA): $n HCA pairs, hops = ibtracert -m's" \
	"0 of 12 differ" "$bad of $n differ"

js=$("$IBTRACECTL" -j -d "$H1" trace --mlid 0xc000 --dlid "$L4")
ibt_expect "  Hca1 -> Hca4: ok, through both switches, port 3 between" \
	"ok ca:0/1 switch:1/3 switch:3/2 ca:1/0" \
	"$(jq -r '"\(.result) " + ([.hops[] | "\(.node_type):\(.in_port // 0)/\(.out_port // 0)"] | join(" "))' <<< "$js")"
ibt_expect "  agents not asked: local, then unasked; no vendor MAD" \
	"local unasked unasked unasked 0 49152" \
	"$(jq -r '([.hops[].agent] | join(" ")) + " \(.vendor_mads) \(.mlid)"' <<< "$js")"
out=$("$IBTRACECTL" -d "$H1" trace --mlid 0xc000 --dlid "$L4")
ibt_match "  one line: multicast trace, 3 hops, reached Hca4" \
	"^Multicast trace of mlid 0xc000 from $H1/1 to lid $L4: 3 hops, reached ca \"Hca4\" \\(0x[0-9a-f]{16}\\)\$" \
	"$out"

ibt_check "0xc001 (Hca1, Hca4): Hca1 -> Hca4 = ibtracert -m" agree 0xc001 Hca1 Hca4
ibt_check "  Hca4 -> Hca1 = ibtracert -m" agree 0xc001 Hca4 Hca1
js=$("$IBTRACECTL" -j -d "$H1" trace --mlid 0xc001 --dlid "$L3" 2>"$TMP/err")
rc=$?
ibt_expect "  Hca1 -> Hca3 (left out): exit 8" 8 "$rc"
ibt_expect "  one sentence" \
	"Error: lid $L3 is not in the tree of mlid 0xc001 from $H1/1: its forwarding tables do not reach it" \
	"$(cat "$TMP/err")"
ibt_expect "  JSON: no_route not_in_tree, fail_hop 0, the source reported" \
	"no_route not_in_tree 0 1" \
	"$(jq -r '"\(.result) \(.reason) \(.fail_hop) \(.hops | length)"' <<< "$js")"
ibt_expect "  ibtracert -m finds no path either" "" \
	"$(ibt_rert_mc_path "$H1" 0xc001 "$L1" "$L3")"

ibt_check "0xc002 (tables loop): Hca1 -> Hca4 ends (60 s bound)" \
	timeout 60 "$IBTRACECTL" -d "$H1" trace --mlid 0xc002 --dlid "$L4"
ibt_check "  and = ibtracert -m" agree 0xc002 Hca1 Hca4
ibt_check "  Hca2 -> Hca3 = ibtracert -m" agree 0xc002 Hca2 Hca3

# A link of the tree down: the other one is taken -------------------------------

path_ports()
{
	jq -r '[.hops[] | "\(.in_port // 0)/\(.out_port // 0)"] | join(" ")'
}
js=$("$IBTRACECTL" -j -d "$H1" trace --mlid 0xc003 --dlid "$L4")
ibt_expect "0xc003: Hca1 -> Hca4 over port 3 (the first marked)" \
	"0/1 1/3 3/2 1/0" "$(path_ports <<< "$js")"
ibt_check "Switch1 port 3 link down" "$IBTRACECTL" sim set f Switch1 port 3 link down
js=$("$IBTRACECTL" -j -d "$H1" trace --mlid 0xc003 --dlid "$L4" -t 300)
ibt_expect "  the tree goes over port 5: Switch1 out 5, Switch2 in 5" \
	"0/1 1/5 5/2 1/0" "$(path_ports <<< "$js")"
ibt_check "Switch1 port 3 link up" "$IBTRACECTL" sim set f Switch1 port 3 link up
p=
for _ in $(seq 50); do
	p=$("$IBTRACECTL" -j -d "$H1" trace --mlid 0xc003 --dlid "$L4" -t 300 |
		path_ports)
	[ "$p" = "0/1 1/3 3/2 1/0" ] && break
	sleep 0.2
done
ibt_expect "  port 3 again once Active" "0/1 1/3 3/2 1/0" "$p"

# A node that does not answer; SIGINT -----------------------------------------------

ibt_check "Switch2 port 2 (to Hca4) drops everything" \
	"$IBTRACECTL" sim set f Switch2 port 2 drop 100
js=$("$IBTRACECTL" -j -d "$H1" trace --mlid 0xc000 --dlid "$L4" -t 200 -r 1 \
	2>"$TMP/err")
ibt_expect "  0xc000 to Hca4: exit 11, unresponsive at hop 3, the 4 hops so far" \
	"11 unresponsive 3 4" \
	"$? $(jq -r '"\(.result) \(.fail_hop) \(.hops | length)"' <<< "$js")"
ibt_match "  one sentence naming hop 3" \
	"^Error: hop 3 on the path to lid $L4 did not answer after all retries\$" \
	"$(cat "$TMP/err")"
"$IBTRACECTL" -j -d "$H1" trace --mlid 0xc000 --dlid "$L4" -t 20000 -r 0 \
	> "$TMP/int.json" 2>/dev/null &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
ibt_expect "  SIGINT while hop 3 is asked (20 s timeout): exit 13, cancelled" \
	"13 cancelled" "$? $(jq -r .result "$TMP/int.json")"
ibt_check "  the kernel's search ended: another trace runs at once" \
	timeout 10 "$IBTRACECTL" -d "$H1" trace --mlid 0xc000 --dlid "$L3"
ibt_check "Switch2 port 2 drops nothing" \
	"$IBTRACECTL" sim set f Switch2 port 2 drop 0

# Past MulticastFDBCap, --dgid, bad MLIDs, monitor --------------------------------

cap=$(smp -D $S1 get 0x12 0 | sed -n 's/^data=.\{8\}\(.\{4\}\).*/\1/p')
past=$(printf '0x%04x' $((0xc000 + 16#$cap)))
"$IBTRACECTL" -d "$H1" trace --mlid "$past" --dlid "$L4" >/dev/null 2>&1
ibt_expect "MLID $past (MulticastFDBCap $((16#$cap)) entries): not in the tree, exit 8" \
	8 "$?"

g4=$(jq -r '.nodes[] | select(.name == "Hca4") | .ports[0].guid' <<< "$J")
g4=${g4#0x}
g4=fe80::${g4:0:4}:${g4:4:4}:${g4:8:4}:${g4:12:4}
a=$("$IBTRACECTL" -j -d "$H1" trace --mlid 0xc000 --dgid "$g4" | ibt_trace_mc_path)
b=$("$IBTRACECTL" -j -d "$H1" trace --mlid 0xc000 --dlid "$L4" | ibt_trace_mc_path)
ibt_expect "--dgid $g4 (SM-lite's SA) --mlid 0xc000: the --dlid path" "$b" "$a"

for m in 0xbfff 0xffff 49151; do
	"$IBTRACECTL" -d "$H1" trace --mlid "$m" --dlid "$L4" 2>"$TMP/err"
	ibt_expect "--mlid $m: exit 2 and the range named" \
		"2 Error: bad --mlid \"$m\": expected a multicast LID 0xc000..0xfffe" \
		"$? $(cat "$TMP/err")"
done

# The monitor joins its group some time after it starts (long on a loaded
# machine): trace until it has seen an end, at most 20 times, 1 s apart
timeout 60 "$IBTRACECTL" trace monitor -c 1 > "$TMP/mon" 2>&1 &
mon=$!
for ((i = 0; i < 20; i++)); do
	sleep 1
	"$IBTRACECTL" -d "$H1" trace --mlid 0xc000 --dlid "$L4" >/dev/null
	kill -0 "$mon" 2>/dev/null || break
done
wait "$mon"
ibt_match "trace monitor: the end shows lid and mlid" \
	"end lid $L4 mlid 0xc000: ok, 3 hops" "$(cat "$TMP/mon")"

# Wide switches: 70 ports (more than one batch of 64), 16 ports --------------------

# star NAME PORTS: one switch, an HCA on each port
star()
{
	local p

	echo "Switch $2 \"S\""
	for ((p = 1; p <= $2; p++)); do
		echo "[$p] \"H$p\"[1]"
	done
	for ((p = 1; p <= $2; p++)); do
		printf '\nHca 1 "H%d"\n[1] "S"[%d]\n' "$p" "$p"
	done
}

# flood FABRIC PORTS: MLID 0xc000 out of every port of switch S (DR 0,1
# from H1)
flood()
{
	local dev pos m p

	dev=$("$IBTRACECTL" -j sim show "$1" |
		jq -r '.[0].nodes[] | select(.name == "H1") | .dev')
	for ((pos = 0; pos <= $2 / 16; pos++)); do
		m=0
		for ((p = pos * 16; p < pos * 16 + 16 && p <= $2; p++)); do
			[ "$p" -gt 0 ] && m=$((m | 1 << (p % 16)))
		done
		"$SIM_SMP" -C "$dev" -P 1 -t 300 -D 0,1 set 0x1b $((pos << 28)) \
			"0=$(printf '%02x,%02x' $((m >> 8)) $((m & 0xff)))" |
			grep -q '^status=0x0000' || return 1
	done
}

star w 70 > "$TMP/w"
ibt_check "fabric w: a 70-port switch, 70 HCAs (SM-lite)" \
	"$IBTRACECTL" sim add "$TMP/w" --name w
ibt_check "  MLID 0xc000 out of all 70 ports (5 port-mask positions)" flood w 70
J=$(ibt_sim_json w)
ibt_check "  H1 -> H70 (out of port 70, past the first 64) = ibtracert -m" \
	agree 0xc000 H1 H70
# (ibtracert cannot start from H70: libibumad opens no umad port past
# the 64th device)
ibt_expect "  H70 -> H1: S entered by 70, left by 1" "0/1 70/1 1/0" \
	"$("$IBTRACECTL" -j -d "$(ibt_sim_dev H70)" trace --mlid 0xc000 \
		--dlid "$(ibt_sim_lid H1)" | path_ports)"
ibt_expect "  H1 -> H70: S entered by 1, left by 70" "0/1 1/70 1/0" \
	"$("$IBTRACECTL" -j -d "$(ibt_sim_dev H1)" trace --mlid 0xc000 \
		--dlid "$(ibt_sim_lid H70)" | path_ports)"
ibt_check "sim del w" "$IBTRACECTL" sim del w

star s16 16 > "$TMP/s16"
ibt_check "fabric s16: a 16-port switch, 16 HCAs (SM-lite)" \
	"$IBTRACECTL" sim add "$TMP/s16" --name s16
ibt_check "  MLID 0xc000 out of all 16 ports (2 port-mask positions)" \
	flood s16 16
J=$(ibt_sim_json s16)
ibt_expect "  H1 -> H16: found, S left by port 16 (position 1's bit 0)" \
	"0/1 1/16 1/0" \
	"$("$IBTRACECTL" -j -d "$(ibt_sim_dev H1)" trace --mlid 0xc000 \
		--dlid "$(ibt_sim_lid H16)" | path_ports)"
n=$(ibt_rert_mc_path "$(ibt_sim_dev H1)" 0xc000 "$(ibt_sim_lid H1)" "$(ibt_sim_lid H16)" | wc -l)
echo "# ibtracert -m H1 -> H16 on the 16-port switch: $n hops found (it reads ports 0..15 only)"
ibt_check "sim del s16" "$IBTRACECTL" sim del s16
J=$(ibt_sim_json f)

# SMPs against ibtracert -m (sim counters) -----------------------------------------

tx_of()
{
	"$IBTRACECTL" -j sim show f |
		jq -r --arg d "$H1" '.[0].nodes[] | select(.dev == $d) | .ports[0].tx'
}
a=$(tx_of)
"$IBTRACECTL" -d "$H1" trace --mlid 0xc000 --dlid "$L4" >/dev/null
b=$(tx_of)
ibtracert -C "$H1" -P 1 -m 0xc000 "$L1" "$L4" >/dev/null 2>&1
c=$(tx_of)
echo "# Hca1 -> Hca4 (3 hops), mlid 0xc000: SMPs sent by Hca1's port: ibtracectl $((b - a)), ibtracert -m $((c - b))"

ibt_check "sim del f" "$IBTRACECTL" sim del f
ibt_check "rmmod ibtrace" ibt_unload_ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
