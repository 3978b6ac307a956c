#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A routing deadlock, and routings that avoid it. Five switches in a ring,
# an HCA on each (topo/ring5.topo: R<i> port 1 to R<i+1> port 2, H<i> on
# port 3), brought up by OpenSM. Every HCA sends a burst to the HCA two
# switches on, clockwise: H<i> -> R<i> -> R<i+1> -> R<i+2> -> H<i+2>.
# The load: buffers of 66 blocks (13 MADs) where the ring's links come in
# (R<i> port 2), and each switch's link onward (R<i> port 1) holding its
# packets 10 s while the bursts go in; then every link lands what it
# held, each in a buffer whose packets wait for the next link.
# - min-hop (OpenSM's default) puts the five flows on SL 0, one VL: the
#   ring's clockwise links wait on each other, a credit loop (the route
#   audit reports it). Under the load the loop fills: delivery stops
#   (nothing more arrives), every buffer of the cycle is full, and sim
#   show names the cycle, the audit's loop; SMPs still cross.
# - DFSSSP and LASH (deadlock-free engines) give the flows SLs (their
#   PathRecords, saquery) that the SLtoVL tables they write send to VLs
#   breaking the cycle: the same load on those SLs is all delivered, and
#   no deadlock is named. LASH only with IBTRACE_SLOW=1 (a slow variant).

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" "$SIM_CTL"
ibt_require_cmd jq opensm smpquery saquery timeout
ibt_require_modules ib_core ib_umad
ibt_at_exit 'pkill -9 -x opensm 2>/dev/null'

N=30	# MADs per flow
DBG=/sys/kernel/debug/ibtrace_sim

ibt_sim_load_ibtrace "load ibtrace"

# ring_up NAME ENGINE OPENSM-ARGS...: fabric NAME, the ring, brought up by
# OpenSM with those arguments (routing engine ENGINE). Two sweeps: OpenSM's first writes the switches'
# SLtoVL tables masked by the OperationalVLs it held before setting them.
ring_up()
{
	local name=$1 engine=$2 guid sweep

	shift 2
	ibt_check "fabric $name: 5 switches in a ring, an HCA on each" \
		"$IBTRACECTL" sim add "$IBT_TOPO/ring5.topo" --name "$name" --no-sm
	J=$(ibt_sim_json "$name")
	guid=$(ibt_sim_node H1 '.ports[] | select(.port == 1) | .guid')
	for sweep in 1 2; do
		ibt_opensm_once "$TMP/osm-$name" 120 "$guid" \
			"$TMP/osm-$name$sweep.log" "$@" >"$TMP/osm.out" 2>&1
	done
	ibt_match "  opensm -o, routing engine $engine: SUBNET UP" 'SUBNET UP' \
		"$(cat "$TMP/osm-${name}2.log" 2>/dev/null)"
	J=$(ibt_sim_json "$name")
	ibt_expect "  every linked port Active" "" \
		"$(jq -r '.nodes[] | .name as $n | .ports[] |
			select(.peer != null and .state != "ACTIVE") | "\($n)/\(.port)"' <<< "$J")"
}

# dst I: the HCA two switches on from H<I>
dst() { echo $(( (($1 + 1) % 5) + 1 )); }

# node_dir FABRIC NAME: the node's debugfs directory
node_dir()
{
	echo "$DBG/$1/$(ibt_sim_node "$2" .index)-$2"
}

# used FABRIC NODE PORT VL: blocks of the port's buffer for VL in use
used()
{
	ibt_sim_credit "$(node_dir "$1" "$2")" "$3" "$4" used
}

# delivered: requests the five HCAs' agents received
delivered()
{
	local i n=0 rx

	for i in 1 2 3 4 5; do
		rx=$("$IBTRACECTL" -j -d "$(ibt_sim_dev "H$i")" agent show |
			jq -r '.[0].rx')
		n=$((n + rx))
	done
	echo "$n"
}

# deadlock FABRIC: the loop sim show names, "" if none
deadlock()
{
	"$IBTRACECTL" -j sim show "$1" | jq -r '.[0].deadlock // ""'
}

# channels LOOP: the channels of a loop "A vl V -> B vl V -> A vl V", sorted
channels()
{
	printf '%s\n' "${1// -> /$'\n'}" | sed '$d' | sort | paste -sd, -
}

# load FABRIC: N MADs a flow, flow I on SL SL[I] and, leaving H<I>, VL
# VL[I]; the ring's links held 10 s meanwhile
load()
{
	local i

	for i in 1 2 3 4 5; do
		"$IBTRACECTL" sim set "$1" "R$i" port 2 buffer 66 || return 1
		"$IBTRACECTL" sim set "$1" "R$i" port 1 delay 10000000 || return 1
	done
	for i in 1 2 3 4 5; do
		"$SIM_CTL" inject-burst "$1" "H$i" 1 "$(ibt_sim_lid "H$(dst "$i")")" \
			"$N" agent sl "${SL[i]}" vl "${VL[i]}" >/dev/null || return 1
	done
	for i in 1 2 3 4 5; do
		"$IBTRACECTL" sim set "$1" "R$i" port 1 delay 0 || return 1
	done
}

# --- min-hop: a credit loop deadlocks ------------------------------------------------

ring_up mh minhop
declare -a SL VL
for i in 1 2 3 4 5; do
	SL[i]=0 VL[i]=0
done
rx0=$(delivered)
ibt_check "load: $N MADs from each HCA to the one two switches on, SL 0" load mh
named()
{
	[ -n "$(deadlock mh)" ]
}
ibt_wait_for 30 named
loop=$(deadlock mh)
ibt_expect "sim show names the credit loop: the ring's five clockwise links, VL 0" \
	"R1/1 vl 0,R2/1 vl 0,R3/1 vl 0,R4/1 vl 0,R5/1 vl 0" "$(channels "$loop")"
ibt_expect "  every buffer of the cycle full (65 of 66 blocks)" \
	"65 65 65 65 65" \
	"$(for i in 1 2 3 4 5; do used mh "R$i" 2 0; done | paste -sd' ' -)"
d1=$(( $(delivered) - rx0 ))
sleep 2
d2=$(( $(delivered) - rx0 ))
ibt_expect "  delivery stopped: nothing more in 2 s, not all $((5 * N)) delivered" \
	"$d1 1" "$d2 $((d2 < 5 * N))"
out=$("$IBTRACECTL" -j -d "$(ibt_sim_dev H1)" audit --no-prove 2>/dev/null)
ibt_expect "  the route audit's credit loop is the same cycle" \
	"R1:1,R2:1,R3:1,R4:1,R5:1" \
	"$(jq -r '[.credit_loops.cycles[] | [.[] | "\(.node_desc):\(.port)"] | sort |
		join(",")] | map(select(test(":1,"))) | .[0] // ""' <<< "$out")"
ibt_check "  SMPs cross the deadlocked links: smpquery nodeinfo of H3 from H1" \
	smpquery -C "$(ibt_sim_dev H1)" -P 1 nodeinfo "$(ibt_sim_lid H3)"
ibt_check "sim del mh" "$IBTRACECTL" sim del mh

# --- deadlock-free engines: the same load, all delivered -------------------------

# sl_of FROM TO: the SL of the PathRecord from H<FROM> to H<TO>
sl_of()
{
	local sl

	sl=$(saquery -C "$(ibt_sim_dev "H$1")" -P 1 -t 1000 --src-to-dst \
		"$(ibt_sim_lid "H$1"):$(ibt_sim_lid "H$2")" 2>/dev/null |
		sed -n 's/^[[:space:]]*sl\.*\(0x[0-9a-f]*\|[0-9]*\)$/\1/p' | head -1)
	[ -n "$sl" ] && echo $((sl))
}

# vl_of I SL: the VL H<I>'s SLtoVL table sends SL to
vl_of()
{
	smpquery -C "$(ibt_sim_dev "H$1")" -P 1 sl2vl "$(ibt_sim_lid "H$1")" 2>/dev/null |
		awk -v sl="$2" '$1 == "ports:" { sub(/^[^|]*\|/, ""); gsub(/ /, "");
			split($0, v, "|"); print v[sl + 1]; exit }'
}

# LASH as well as DFSSSP is a slow variant (about a minute under TCG)
engines=dfsssp
ibt_slow && engines="dfsssp lash"
for engine in $engines; do
	# QoS on, with no policy file (the SLs are the engine's)
	cat > "$TMP/$engine.conf" <<CONF
routing_engine $engine
qos TRUE
qos_policy_file $TMP/no-policy
qos_max_vls 8
CONF
	ring_up "$engine" "$engine" -F "$TMP/$engine.conf"
	# PathRecords need a running SA: OpenSM again, sweeping, until asked
	OSM_CACHE_DIR=$TMP/osm-$engine OSM_TMP_DIR=$TMP/osm-$engine \
		opensm -d2 -g "$(ibt_sim_node H1 '.ports[] | select(.port == 1) | .guid')" \
		-F "$TMP/$engine.conf" -f "$TMP/osm-$engine-sa.log" >/dev/null 2>&1 &
	osm=$!
	sa_up()
	{
		grep -q 'SUBNET UP' "$TMP/osm-$engine-sa.log" 2>/dev/null
	}
	ibt_wait_for 120 sa_up
	for i in 1 2 3 4 5; do
		SL[i]=$(sl_of "$i" "$(dst "$i")")
		VL[i]=$(vl_of "$i" "${SL[i]}")
	done
	kill "$osm" 2>/dev/null
	wait "$osm" 2>/dev/null
	assign=$(for i in 1 2 3 4 5; do echo "${SL[i]}/${VL[i]}"; done | paste -sd' ' -)
	ibt_match "  $engine: each flow's SL (PathRecord) / VL (at its HCA): $assign" \
		'^([0-9]+/[0-9]+ ){4}[0-9]+/[0-9]+$' "$assign"
	rx0=$(delivered)
	ibt_check "  load on those SLs" load "$engine"
	all_in()
	{
		[ "$(( $(delivered) - rx0 ))" -ge $((5 * N)) ]
	}
	# (each look asks five agents: once a second)
	for _ in $(seq 40); do
		all_in && break
		sleep 1
	done
	ibt_expect "  all $((5 * N)) delivered" $((5 * N)) "$(( $(delivered) - rx0 ))"
	ibt_expect "  no deadlock named" "" "$(deadlock "$engine")"
	ibt_check "sim del $engine" "$IBTRACECTL" sim del "$engine"
done

ibt_done
