#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ibtracectl trace on ibtrace_sim fabrics brought up by OpenSM: for every
# pair of HCA ports of ibsim's example fabrics, and for sampled pairs of a
# two-level and a three-level fat tree, the hops of
# "ibtracectl -j trace --dlid" (node GUIDs, in/out ports, LIDs) equal what
# ibtracert prints; the destination HCA is verified by its agent, the
# switches have none; with a duplicate LID and a misroute the
# destination's agent reports a mismatch (exit 7); a LID
# past LinearFDBTop and an LFT entry 255 are "no route" naming the switch
# (exit 8); --dgid through OpenSM's SA (OpenSM running in the
# background) gives the --dlid path; without an SM the DGID lookup fails
# (exit 12); an unprivileged
# user gets EPERM (exit 5); SIGINT (also twice, as timeout(1) sends it),
# rmmod ibtrace and device removal mid-trace end it cleanly (exit 13, 4,
# 4); of 72 overlapping traces at
# least 64 are right, the others "busy" (exit 14); on RoCE (rxe) a
# --dgid trace is one hop, stated as such. "trace monitor" in other
# processes (text and JSON) shows the hops of a trace as the trace itself
# reports them, its ID and its end, also the end of a trace cancelled by
# SIGINT; unprivileged, it is refused (exit 5). Prints the wall time of one
# trace against ibtracert and the SMPs each used.

source "$(dirname "$0")/lib.sh"

EX=/usr/share/doc/ibsim-utils/net-examples
ibt_tmpdir

ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" "$EX/net.2sw2path4hca"
ibt_require_cmd opensm ibtracert ibportstate jq setpriv
ibt_require_file "$SIM_SMP"
ibt_require_modules ib_core ib_umad

ibt_sim_load_ibtrace "load ibtrace"

# fabric_up NAME FILE: add the fabric, run OpenSM once on its first HCA
fabric_up()
{
	local pguid

	"$IBTRACECTL" sim add "$2" --name "$1" --no-sm >/dev/null || return 1
	pguid=$(ibt_sim_json "$1" |
		jq -r '[.nodes[] | select(.type == "ca")][0].ports[0].guid')
	ibt_opensm_once "$TMP/osm-$1" 120 "$pguid" "$TMP/osm-$1.log" >/dev/null 2>&1
	grep -q 'SUBNET UP' "$TMP/osm-$1.log"
}

# HCA ports of a fabric: "dev port lid" lines
hca_ports()
{
	ibt_sim_json "$1" | jq -r '.nodes[] | select(.type == "ca") | .dev as $d |
		.ports[] | select(.lid != null and .lid > 0) |
		"\($d) \(.port) \(.lid)"'
}

# Every HCA port pair of fabric $1 --------------------------------------------

# check_pairs FABRIC [EVERY]: every HCA port pair, or every EVERY-th one
check_pairs()
{
	local f=$1 every=${2:-1} sd sp slid dd dp dlid want got js out bad=0 badag=0
	local n=0 k=0 agents agents_ok='^ca:local,(switch:no_agent,)+ca:verified$'

	hca_ports "$f" > "$TMP/ports-$f"
	while read -r sd sp slid; do
		while read -r dd dp dlid; do
			[ "$dlid" = "$slid" ] && continue
			k=$((k + 1))
			[ $((k % every)) -eq 0 ] || continue
			n=$((n + 1))
			want=$(ibt_rert_path "$sd" "$sp" "$slid" "$dlid")
			js=$("$IBTRACECTL" -j -d "$sd" -p "$sp" trace --dlid "$dlid" \
				-t 500 2>/dev/null)
			# ibt_trace_path's lines, then the hops' agents: one jq
			# (0.5 s in the VM) for both
			out=$(jq -r "($IBT_TRACE_PATH_JQ), "'"agents " + ([.hops[] | "\(.node_type):\(.agent)"] | join(","))' <<< "$js")
			got=${out%$'\n'agents *}
			agents=${out##*agents }
			if [ -z "$want" ] || [ "$want" != "$got" ]; then
				bad=$((bad + 1))
				printf '# %s/%s -> lid %s\n# ibtracert:\n%s\n# ibtracectl:\n%s\n' \
					"$sd" "$sp" "$dlid" "$(sed 's/^/#   /' <<< "$want")" \
					"$(sed 's/^/#   /' <<< "$got")"
			fi
			if ! [[ $agents =~ $agents_ok ]]; then
				badag=$((badag + 1))
				echo "# $sd/$sp -> lid $dlid agents: $agents"
			fi
		done < "$TMP/ports-$f"
	done < "$TMP/ports-$f"
	if [ "$n" -eq 0 ]; then
		ibt_fail "$f: HCA port pairs to trace" "none found"
		return
	fi
	ibt_expect "$f: $n pairs, ibtracectl's hops = ibtracert's" "0 of $n differ" \
		"$bad of $n differ"
	ibt_expect "$f: HCAs verified by the agent, switches no agent" \
		"0 of $n wrong" "$badag of $n wrong"
}

# mismatch_check FABRIC (net.2sw2path4hca2port): a duplicate LID and a
# misroute. Hca2's port 2 is given port 1's LID (ibportstate, as a stray
# SubnSet would) and Switch2 forwards that LID out of its port to Hca2's
# port 2. The directed-route walk follows Switch2's LFT to port 1, but the
# agent probes arrive on port 2: the destination's verdict is a mismatch,
# expected port 1, actual port 2, and the trace exits 7.
mismatch_check()
{
	local f=$1 js h1 h2 x y swp out rc

	js=$(ibt_sim_json "$f")
	h1=$(jq -r '.nodes[] | select(.name == "Hca1") | .dev' <<< "$js")
	h2=$(jq -r '.nodes[] | select(.name == "Hca2") | .dev' <<< "$js")
	x=$(jq -r '.nodes[] | select(.name == "Hca2") | .ports[0].lid' <<< "$js")
	y=$(jq -r '.nodes[] | select(.name == "Hca2") | .ports[1].lid' <<< "$js")
	swp=$(jq -r '.nodes[] | select(.name == "Switch2") | .ports[] |
		select(.peer.name == "Hca2" and .peer.port == 2) | .port' <<< "$js")
	ibt_check "$f: Hca2 port 2 given port 1's LID $x (was $y)" \
		ibportstate -C "$h2" -P 2 -D 0 2 lid "$x"
	ibt_check "$f: Switch2 misroutes LID $x to port $swp (Hca2 port 2)" \
		"$IBTRACECTL" sim set "$f" Switch2 misroute "$x" "$swp"
	out=$("$IBTRACECTL" -j -d "$h1" trace --dlid "$x")
	rc=$?
	ibt_expect "$f: mismatch at the destination (hop 3), expected 1 actual 2, exit 7" \
		"ok 3 Hca2 mismatch 1 2 7" \
		"$(jq -r '"\(.result) \(.hops[-1] | "\(.hop) \(.node_desc) \(.agent) \(.expected_port) \(.actual_port)")"' <<< "$out") $rc"
	ibt_expect "$f: the walk itself follows the LFT (in port 1 at Hca2)" \
		"1" "$(jq -r '.hops[-1].in_port' <<< "$out")"
	out=$("$IBTRACECTL" -d "$h1" trace --dlid "$x" 2>&1)
	ibt_match "$f: text: reached, but the agent saw the probe on another port" \
		'reached ca "Hca2" .*, but its agent saw the probe arrive on another port$' \
		"$out"
	"$IBTRACECTL" sim set "$f" Switch2 misroute "$x" none
	ibportstate -C "$h2" -P 2 -D 0 2 lid "$y" >/dev/null 2>&1
	out=$("$IBTRACECTL" -j -d "$h1" trace --dlid "$x")
	rc=$?
	ibt_expect "$f: rule removed, LID $y back: verified again, exit 0" \
		"verified 0" "$(jq -r '.hops[-1].agent' <<< "$out") $rc"
}

ibt_check "fabric a (net.2sw2path4hca) up, OpenSM SUBNET UP" \
	fabric_up a "$EX/net.2sw2path4hca"
check_pairs a
if [ -e "$EX/net.2sw2path4hca2port" ]; then
	ibt_check "fabric b (net.2sw2path4hca2port) up, OpenSM SUBNET UP" \
		fabric_up b "$EX/net.2sw2path4hca2port"
	check_pairs b
	mismatch_check b
	"$IBTRACECTL" sim del b
fi

# The other example fabrics, every pair; generated fat trees (two and three
# levels), sampled pairs. Each is deleted again: fabric a stays for the
# rest of the test.
for ex in net net.1 net.2sw2path; do
	[ -e "$EX/$ex" ] || continue
	ibt_check "fabric $ex up, OpenSM SUBNET UP" fabric_up "x$ex" "$EX/$ex"
	check_pairs "x$ex"
	"$IBTRACECTL" sim del "x$ex"
done
bash "$IBT_DIR/gen_fattree.sh" shape=2 leaves=4 hcas=4 spines=2 radix=8 \
	> "$TMP/ft2"
bash "$IBT_DIR/gen_fattree.sh" shape=3 pods=2 leaves=2 spines=2 tops=2 \
	hcas=2 radix=8 > "$TMP/ft3"
# 16 HCAs (240 pairs) and 8 HCAs (56 pairs): 12 and 11 pairs
for ft in "ft2 20" "ft3 5"; do
	read -r ft every <<< "$ft"
	ibt_check "fat tree $ft up, OpenSM SUBNET UP" fabric_up "$ft" "$TMP/$ft"
	check_pairs "$ft" "$every"
	"$IBTRACECTL" sim del "$ft"
done

# Fabric a: Hca1 -> Hca4 crosses both switches ---------------------------------

J=$(ibt_sim_json a)
H1=$(ibt_sim_dev Hca1)
H4=$(ibt_sim_dev Hca4)
L1=$(ibt_sim_lid Hca1)
L4=$(ibt_sim_lid Hca4)
S1L=$(ibt_sim_lid Switch1)
S2L=$(ibt_sim_lid Switch2)
S1G=$(jq -r '.nodes[] | select(.name == "Switch1") | .guid' <<< "$J")

js=$("$IBTRACECTL" -j -d "$H1" trace --dlid "$L4")
ibt_expect "Hca1 -> Hca4: 4 hops, result ok" "4 ok" \
	"$(jq -r '"\(.hops | length) \(.result)"' <<< "$js")"
out=$("$IBTRACECTL" -d "$H1" trace --dlid "$L4")
ibt_match "text: one line, reached Hca4, verified" \
	'^Trace from .* to lid [0-9]+: 3 hops, reached ca "Hca4" .*verified by its agent$' "$out"
out=$("$IBTRACECTL" -d "$H1" trace --dlid "$L4" -v)
ibt_match "-v: one line per hop, then the result" \
	'^hop 0 ca "Hca1".*agent local.*hop 1 in 1 switch "Switch1".*agent no_agent.*hop 3 in 1 ca "Hca4".*agent verified.*vendor_rtt [0-9.]+ us Trace from' \
	"$(tr '\n' ' ' <<< "$out")"

# trace monitor: two monitors (JSON and text) in other processes see the
# trace's hops and its end. They must have joined the group before the
# trace starts; "-c 1" ends each after one trace.
mon_start()	# FILE [ARGS...]: a monitor in the background, PID in MON_PID
{
	local f=$1

	shift
	timeout 60 "$IBTRACECTL" "$@" trace monitor -c 1 > "$f" 2>&1 &
	MON_PID=$!
}
mon_start "$TMP/mon.json" -j
mpj=$MON_PID
mon_start "$TMP/mon.txt" -d "$H1"
mpt=$MON_PID
sleep 2
js=$("$IBTRACECTL" -j -d "$H1" trace --dlid "$L4")
wait "$mpj"
ibt_expect "trace monitor -j -c 1: exit 0 once the trace ended" 0 "$?"
wait "$mpt"
ibt_expect "trace monitor -d DEV -c 1 (text): exit 0 too" 0 "$?"
hops_of() { jq -c "[$1 | [.hop, .node_guid, .in_port, .out_port, .lid, .agent]]"; }
ibt_expect "  JSON monitor: the trace's hops (GUIDs, ports, LIDs, verdicts)" \
	"$(hops_of '.hops[]' <<< "$js")" \
	"$(jq -s '.' "$TMP/mon.json" | hops_of '.[] | select(.event == "hop")')"
ibt_expect "  JSON monitor: its end has the trace's ID, result, DLID, hops" \
	"$(jq -r '"\(.id) \(.result) \(.dlid) \(.hops | length)"' <<< "$js")" \
	"$(jq -r 'select(.event == "end") | "\(.id) \(.result) \(.dlid) \(.hops)"' \
		"$TMP/mon.json")"
id=$(jq -r .id <<< "$js")
ibt_match "  text monitor: one line per hop, then the end" \
	"^trace $id $H1/1 hop 0 ca \"Hca1\".*trace $id $H1/1 hop 3 in 1 ca \"Hca4\".*agent verified.*trace $id $H1/1 end lid $L4: ok, 3 hops, [0-9]+ smps, [0-9]+ vendor mads, [0-9.]+ ms \$" \
	"$(tr '\n' ' ' < "$TMP/mon.txt")"
out=$(ibt_unpriv trace monitor -c 1 2>&1)
rc=$?
ibt_expect "trace monitor, unprivileged: exit 5" 5 "$rc"
ibt_match "  one sentence naming CAP_NET_ADMIN" \
	'^Error: joining the "trace" multicast group needs CAP_NET_ADMIN$' "$out"

# --dgid: the SA PathRecord comes from OpenSM's SA. OpenSM runs in the
# background on Hca1 (it finds the subnet as the first run left it) for
# this check only, and is stopped before the next.
gid=$(cat "/sys/class/infiniband/$H4/ports/1/gids/0")
osm_up()
{
	local i

	OSM_CACHE_DIR=$TMP/osm-a OSM_TMP_DIR=$TMP/osm-a \
		opensm -d2 -g "$(jq -r '.nodes[] | select(.name == "Hca1") |
			.ports[0].guid' <<< "$J")" -f "$TMP/osm-a-bg.log" \
		>/dev/null 2>&1 &
	OSM_PID=$!
	for i in $(seq 120); do
		grep -q 'SUBNET UP' "$TMP/osm-a-bg.log" 2>/dev/null && return 0
		sleep 0.5
	done
	return 1
}
osm_down()
{
	[ -n "$OSM_PID" ] || return 0
	kill "$OSM_PID" 2>/dev/null
	wait "$OSM_PID" 2>/dev/null
	OSM_PID=
}
ibt_at_exit osm_down
# not under ibt_check: OSM_PID must be set in this shell
if osm_up; then
	ibt_ok "OpenSM running in the background on Hca1: SUBNET UP"
	want=$("$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" | ibt_trace_path)
	js=$(timeout 60 "$IBTRACECTL" -j -d "$H1" trace --dgid "$gid")
	ibt_expect "--dgid (PathRecord from OpenSM's SA) gives the --dlid path" \
		"$want" "$(ibt_trace_path <<< "$js")"
	ibt_expect "--dgid: result ok, the DLID the SA gave is Hca4's" \
		"ok $L4" "$(jq -r '"\(.result) \(.dlid)"' <<< "$js")"
else
	ibt_fail "OpenSM running in the background on Hca1: SUBNET UP" \
		"$(tail -5 "$TMP/osm-a-bg.log" 2>/dev/null)"
fi
osm_down
ibt_expect "no OpenSM left running" "" "$(pgrep -x opensm)"

# Quick figures: wall time and SMPs per hop, ibtracectl vs ibtracert
tx_h1() { ibt_sim_json a | jq -r '.nodes[] | select(.name == "Hca1") | .ports[0].tx'; }
t0=$(date +%s%N); tx0=$(tx_h1)
"$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" > "$TMP/fig.json"
t1=$(date +%s%N); tx1=$(tx_h1)
ibtracert -C "$H1" -P 1 -t 300 "$L1" "$L4" >/dev/null 2>&1
t2=$(date +%s%N); tx2=$(tx_h1)
vend=$(jq -r .vendor_mads "$TMP/fig.json")
echo "# Hca1 -> Hca4 (3 hops): ibtracectl trace $(((t1 - t0) / 1000000)) ms," \
	"$((tx1 - tx0 - vend)) SMPs on the wire + $vend vendor MADs" \
	"($(jq -r .smps "$TMP/fig.json") SMPs counted, local ones included);" \
	"ibtracert $(((t2 - t1) / 1000000)) ms, $((tx2 - tx1)) SMPs on the wire"

# Failures ------------------------------------------------------------------

out=$(ibt_unpriv -d "$H1" trace --dlid "$L4" 2>&1)
ibt_expect "unprivileged user: exit 5 (EPERM)" "5" "$?"

out=$("$IBTRACECTL" -j -d "$H1" trace --dlid 200 2>"$TMP/err")
rc=$?
ibt_expect "LID no one has (past LinearFDBTop): exit 8" "8" "$rc"
ibt_match "  the sentence names Switch1 at hop 1" \
	"^Error: no route to lid 200 at hop 1, switch \"Switch1\" \\($S1G\\): the DLID is past its LinearFDBTop" \
	"$(cat "$TMP/err")"
ibt_expect "  JSON: no_route/past_fdb_top at hop 1, partial path of 2 hops" \
	"no_route past_fdb_top 1 2" \
	"$(jq -r '"\(.result) \(.reason) \(.fail_hop) \(.hops | length)"' <<< "$out")"

smp() { "$SIM_SMP" -C "$H1" -P 1 -t 300 "$@"; }
# byte offset of LID $1 in its LFT block, and the block
lft_set() { smp -D 0,1 set 0x19 $(($1 / 64)) "$(($1 % 64))=$2" >/dev/null; }
old=$(smp -D 0,1 get 0x19 $((L4 / 64)) | sed -n 's/^data=//p' |
	cut -c $((2 * (L4 % 64) + 1))-$((2 * (L4 % 64) + 2)))
ibt_check "Switch1: LFT entry for Hca4's LID set to 0xff" lft_set "$L4" ff
out=$("$IBTRACECTL" -d "$H1" trace --dlid "$L4" 2>"$TMP/err")
rc=$?
ibt_expect "LFT entry 255: exit 8" "8" "$rc"
ibt_match "  one sentence naming Switch1, after the partial path" \
	"^Error: no route to lid $L4 at hop 1, switch \"Switch1\" .*LFT entry for the DLID is 255$" \
	"$(cat "$TMP/err")"
ibt_match "  the partial path is printed" '^hop 0 ca "Hca1".*hop 1 in 1 switch "Switch1"' \
	"$(tr '\n' ' ' <<< "$out")"
ibt_check "Switch1: LFT entry restored" lft_set "$L4" "$old"

# A slow trace: Switch1 drops LID-routed packets to Switch2, so the vendor
# probe to Switch2 (hop 2) waits for its timeout; the path stays the same.
oldsw=$(smp -D 0,1 get 0x19 $((S2L / 64)) | sed -n 's/^data=//p' |
	cut -c $((2 * (S2L % 64) + 1))-$((2 * (S2L % 64) + 2)))
ibt_check "Switch1: LFT entry for Switch2's LID set to 0xff" lft_set "$S2L" ff

# 72 slow traces started together (each waits 8 s at hop 2): at most 64
# run at once, the others are refused as busy (14).
pids=
for i in $(seq 72); do
	"$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" -t 8000 -r 0 \
		> "$TMP/c$i.json" 2>"$TMP/c$i.err" &
	pids="$pids $!"
done
wait $pids
ok=0 busy=0 other=0
# each file's path on one line, by one jq (72 would take half a minute)
want=$(ibt_trace_path <<< "$js" | paste -sd '|')
jq -r '"\(input_filename) " + (['"$IBT_TRACE_PATH_JQ"'] | join("|"))' \
	"$TMP"/c*.json > "$TMP/paths" 2>/dev/null
for i in $(seq 72); do
	if grep -qxF "$TMP/c$i.json $want" "$TMP/paths"; then
		ok=$((ok + 1))
	elif grep -q '^Error: busy' "$TMP/c$i.err"; then
		busy=$((busy + 1))
	else
		other=$((other + 1))
	fi
done
# How many overlap depends on how fast the VM starts processes: each
# trace is right or refused as busy, and at least 64 are right.
ibt_expect "72 overlapping traces: each right or busy (exit 14), >= 64 right" \
	"ok 1 other 0" "ok $((ok >= 64)) other $other"
echo "# overlapping traces: $ok right, $busy busy"

mon_start "$TMP/mon-int.json" -j
mpj=$MON_PID
sleep 2
"$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" -t 20000 -r 0 > "$TMP/int.json" \
	2>"$TMP/int.err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
ibt_expect "SIGINT mid-trace: exit 13 (cancelled)" 13 "$?"
wait "$mpj"
ibt_expect "  a monitor saw 2 hops and the end: cancelled, errno ECANCELED" \
	"2 cancelled 125" \
	"$(jq -sr '"\(map(select(.event == "hop")) | length) \(.[-1].result) \(.[-1].errno)"' \
		"$TMP/mon-int.json")"
ibt_expect "  JSON: cancelled, the 2 hops seen before" "cancelled 2" \
	"$(jq -r '"\(.result) \(.hops | length)"' "$TMP/int.json")"
ibt_match "  one sentence" '^Error: trace to lid [0-9]+ cancelled after 2 hops$' \
	"$(cat "$TMP/int.err")"
ibt_expect "  no trace left running in the kernel (agent still answers)" "0" \
	"$("$IBTRACECTL" -d "$H1" ping --dlid "$L4" >/dev/null 2>&1; echo $?)"

# timeout(1) signals the tool and then its process group: SIGINT twice
timeout --preserve-status -s INT 2 "$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" \
	-t 20000 -r 0 > "$TMP/int2.json" 2>/dev/null
ibt_expect "timeout -s INT mid-trace (SIGINT twice): exit 13, as for one" 13 "$?"
ibt_expect "  JSON: cancelled, the 2 hops seen before" "cancelled 2" \
	"$(jq -r '"\(.result) \(.hops | length)"' "$TMP/int2.json")"

"$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" -t 20000 -r 0 > "$TMP/rm.json" \
	2>"$TMP/rm.err" &
pid=$!
sleep 2
ibt_check "rmmod ibtrace mid-trace" rmmod ibtrace
wait "$pid"
ibt_expect "  the trace ends: exit 4 (device gone)" 4 "$?"
ibt_expect "  JSON: dev_gone, partial path" "dev_gone 3" \
	"$(jq -r '"\(.result) \(.hops | length)"' "$TMP/rm.json")"

# No SM answers once OpenSM is gone: the SA lookup fails
ibt_check "reload ibtrace" ibt_modprobe_ibtrace
out=$("$IBTRACECTL" -d "$H1" trace --dgid "$gid" -t 300 -r 1 2>&1)
ibt_expect "--dgid without a running SM: exit 12 (SA lookup failed)" 12 "$?"
ibt_match "  one sentence" '^Error: SA PathRecord lookup of .* failed' "$out"

"$IBTRACECTL" -j -d "$H1" trace --dlid "$L4" -t 20000 -r 0 > "$TMP/del.json" \
	2>"$TMP/del.err" &
pid=$!
sleep 2
ibt_check "sim del (device removal) mid-trace" "$IBTRACECTL" sim del a
wait "$pid"
ibt_expect "  the trace ends: exit 4 (device gone)" 4 "$?"
ibt_expect "  JSON: dev_gone, partial path" "dev_gone 3" \
	"$(jq -r '"\(.result) \(.hops | length)"' "$TMP/del.json")"

# RoCE: no SMPs, a one-hop trace (rxe in loopback: the port's own GID)
if modprobe rdma_rxe 2>/dev/null && ibt_rxe_add rxe0 >/dev/null 2>&1; then
	g=$(ibt_gid0 rxe0)
	js=$("$IBTRACECTL" -j -d rxe0 trace --dgid "$g")
	ibt_expect "RoCE: one-hop trace, the destination verified by its agent" \
		"true 2 verified" \
		"$(jq -r '"\(.one_hop) \(.hops | length) \(.hops[1].agent)"' <<< "$js")"
	ibt_match "  the text line says so" \
		'RoCE: one hop, agent proof of the destination only\): reached, verified' \
		"$("$IBTRACECTL" -d rxe0 trace --dgid "$g")"
	out=$("$IBTRACECTL" -d rxe0 trace --dlid 1 2>&1)
	ibt_match "  --dlid on RoCE: refused" '^Error: a RoCE port has no LIDs' "$out"
	ibt_rxe_del rxe0
else
	ibt_skip_one "RoCE one-hop trace" "no rdma_rxe"
fi

ibt_check "rmmod ibtrace" rmmod ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
