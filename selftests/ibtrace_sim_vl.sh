#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The sim's link layer: virtual lanes chosen by SL through the SLtoVL
# tables an SM writes. HCA A - switch S1 - switch S2 - HCA B (and C on
# S1), brought up by OpenSM with QoS on and two tables that differ: one
# for HCAs (qos_ca_sl2vl) and one for switches' external ports
# (qos_swe_sl2vl), each mapping some SLs to VL 15.
# - OpenSM makes every linked port run 8 data VLs (the sim's VLCap) and
#   writes the tables: smpquery sl2vl reads back A's table and S1's for
#   input port 1 to output port 2;
# - a MAD sent by A with SL s crosses A's link on VL ca[s] (a capture at
#   S1's port 1) and S1's link to S2 on VL swe[s] (a capture at S2's port
#   1), and is answered;
# - a MAD whose SL A's table maps to VL 15 does not leave A (IBA 7.6.6:
#   such packets are dropped; counted in A's port drops), nor does one
#   whose SL S1's table maps to VL 15 leave S1 (counted at S1's port 1):
#   both unanswered;
# - SMPs stay on VL 15 whatever the tables say: smpquery still reads B;
# - link-level flow control, the IBTrainer seed's arithmetic: FCTBS,
#   ABR and FCCL per port and VL (debugfs credits) after a buffer change
#   (the link starts again: the 2048 cap, the receiver's room) and after
#   10 and 910 MADs each way (wrap at 4096), against values worked out
#   by hand; VLs no packet took untouched;
# - backpressure: a slow data sink at B with small buffers on the path
#   fills B's, S2's and S1's buffers, packets wait at A; PortXmitWait
#   rises on the upstream ports of the path and nowhere else; SMPs still
#   cross; everything is delivered once drained, every buffer empty;
# - overrun: A ignores the credits into S1's small buffer while the path
#   is held: S1 discards exactly the packets it has no room for and counts
#   them (debugfs overruns, perfquery ExcessiveBufferOverrunErrors and
#   PortRcvErrors); its ABR does not count them, until a flow control
#   packet carries A's FCTBS; then A obeys again and its MADs go through;
# - deadlock: a forwarding loop between S1 and S2 is a credit loop; a
#   burst fills it, sim show names the loop, its VL delivers nothing
#   more, another VL and SMPs still get through; sim del ends it.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" "$SIM_CTL"
ibt_require_cmd jq opensm smpquery perfquery timeout
ibt_require_modules ib_core ib_umad
ibt_at_exit 'pkill -9 -x opensm 2>/dev/null'

# SL -> VL. The two tables differ on every SL; each sends 3 SLs to VL 15.
CA_SL2VL=(0 1 2 3 4 5 6 7 1 2 3 15 15 15 5 6)
SWE_SL2VL=(7 6 5 4 3 2 1 0 15 15 15 1 2 3 4 15)

ibt_sim_load_ibtrace "load ibtrace"
ibt_check "fabric vl without SM-lite: 2 switches, 3 HCAs" \
	"$IBTRACECTL" sim add "$IBT_TOPO/s1s2.topo" --name vl --no-sm
J=$(ibt_sim_json vl)
A=$(ibt_sim_dev A)
A_GUID=$(ibt_sim_node A '.ports[] | select(.port == 1) | .guid')

join() { local IFS=,; echo "$*"; }
ibt_osm_qos_conf "$TMP/osm.conf" "$(join "${CA_SL2VL[@]}")" "$(join "${SWE_SL2VL[@]}")"
# Two sweeps: OpenSM's first programs the switches' tables while it still
# holds their ports' OperationalVLs from before it set them (VL 0 only:
# it masks each VL with them, so every data SL goes to VL 0); the next
# sweep, as a running OpenSM would make, writes them as configured.
for sweep in 1 2; do
	ibt_opensm_once "$TMP/osm" 120 "$A_GUID" "$TMP/osm$sweep.log" \
		-F "$TMP/osm.conf" >"$TMP/osm.out" 2>&1
	ibt_match "opensm -o with QoS (two SLtoVL tables), sweep $sweep: SUBNET UP" \
		'SUBNET UP' "$(cat "$TMP/osm$sweep.log" 2>/dev/null)"
done
J=$(ibt_sim_json vl)
ibt_expect "every linked port Active" "" \
	"$(jq -r '.nodes[] | .name as $n | .ports[] |
		select(.peer != null and .state != "ACTIVE") | "\($n)/\(.port)"' <<< "$J")"
A_LID=$(ibt_sim_lid A)
B_LID=$(ibt_sim_lid B)
S1_LID=$(ibt_sim_lid S1)

# The tables OpenSM wrote, as smpquery reads them: lines
# "ports: in  1, out  2: | 7| 6|...|15|", one per input port of a switch.
# sl2vl_of IN SMPQUERY-OUTPUT: the 16 VLs of input port IN, space separated
sl2vl_of()
{
	awk -v in_port="$1" '$1 == "ports:" && $3 + 0 == in_port {
		sub(/^[^|]*\|/, ""); gsub(/ /, ""); gsub(/\|/, " ")
		sub(/ $/, ""); print; exit }' <<< "$2"
}
tbl=$(sl2vl_of 0 "$(smpquery -C "$A" -P 1 sl2vl "$A_LID" 2>&1)")
ibt_expect "smpquery sl2vl of A: the HCA table" "${CA_SL2VL[*]}" "$tbl"
tbl=$(sl2vl_of 1 "$(smpquery -C "$A" -P 1 sl2vl "$S1_LID" 2 2>&1)")
ibt_expect "smpquery sl2vl of S1, input port 1 to output port 2: the switch table" \
	"${SWE_SL2VL[*]}" "$tbl"

# drops NODE PORT: the drops counter of a port
drops()
{
	J=$(ibt_sim_json vl)
	ibt_sim_node "$1" ".ports[] | select(.port == $2) | .drops"
}

# send SL: a class 0x30 ClassPortInfo Get from A to B with SL, one attempt
# of 500 ms; its exit status
send()
{
	"$IBTRACECTL" -d "$A" -p 1 mad send --class ibtrace --attr ClassPortInfo \
		--dlid "$B_LID" --sl "$1" -t 500 -r 0 >/dev/null 2>&1
}

# vl_seen NODE PORT SL: the VL of A's request to B with SL as a capture at
# NODE's PORT sees it coming in; "none" if it did not. Other packets cross
# the port too (for a few seconds after OpenSM, B's ib_sa asks the SM for
# ClassPortInfo every 300 ms, with SL 0): the capture takes what comes
# until the request was answered, then stops.
vl_seen()
{
	local cpid

	ibt_sim_capture "$TMP/cap" "$TMP/cap.err" -j sim capture vl "$1" "$2" -c 64
	cpid=$IBT_CAP_PID
	send "$3"
	kill "$cpid" 2>/dev/null
	timeout 5 tail --pid="$cpid" -f /dev/null
	wait "$cpid" 2>/dev/null
	jq -r --argjson sl "$3" --argjson dlid "$((B_LID))" \
		'[.packets[]? | select(.dir == "in" and .sl == $sl and .dlid == $dlid)][0].vl // "none"' \
		"$TMP/cap" 2>/dev/null || echo none
}

for sl in 0 1 6 14; do
	ca=${CA_SL2VL[sl]} swe=${SWE_SL2VL[sl]}
	((ca == 15 || swe == 15)) && continue
	ibt_expect "SL $sl: A's link on VL $ca (capture at S1/1)" "$ca" \
		"$(vl_seen S1 1 "$sl")"
	ibt_expect "SL $sl: S1's link to S2 on VL $swe (capture at S2/1)" "$swe" \
		"$(vl_seen S2 1 "$sl")"
	send "$sl"
	ibt_expect "SL $sl: answered" 0 "$?"
done

# An SL A's table maps to VL 15, then one only S1's table does.
d0=$(drops A 1)
send 11
ibt_expect "SL 11 (A: VL 15): unanswered" 1 "$(( $? != 0 ))"
ibt_expect "  dropped at A, counted in A's port 1 drops" "$((d0 + 1))" \
	"$(drops A 1)"
d0=$(drops S1 1)
send 8
ibt_expect "SL 8 (S1 to S2: VL 15): unanswered" 1 "$(( $? != 0 ))"
ibt_expect "  dropped at S1, counted in S1's port 1 drops" "$((d0 + 1))" \
	"$(drops S1 1)"

ibt_check "SMPs stay on VL 15: smpquery nodeinfo of B" \
	smpquery -C "$A" -P 1 nodeinfo "$B_LID"

# --- link-level flow control: the seed's arithmetic ------------------------------
#
# A's requests (SL 0) cross A -> S1 on VL 0 (A's table); B's answers
# (SL 0) cross S1 -> A on VL 7 (S1's table). Each ClassPortInfo MAD is
# 290 bytes on the wire (LRH 8, BTH 12, DETH 8, MAD 256, ICRC 4, VCRC 2):
# 5 blocks of 64. Setting S1's port 1 buffer to 3000 blocks starts the
# link's flow control again: FCTBS and ABR 0 at both ends, and each end
# grants the other ABR + min(room, 2048): A gets 0 + 2048 (S1 has room
# for 3000: the 2048 cap), S1 gets 0 + 512 (A's buffer, 512 blocks).
# After N MADs and their answers, quiet (every buffer empty again):
#   A/1 VL 0: FCTBS = 5N mod 4096, FCCL = (5N + 2048) mod 4096
#   S1/1 VL 0: ABR = 5N mod 4096
#   S1/1 VL 7: FCTBS = 5N mod 4096, FCCL = (5N + 512) mod 4096
#   A/1 VL 7: ABR = 5N mod 4096
# worked out for N = 10 (50 blocks) and then 900 more (4550 blocks, past
# 4096 once: 454).

A_IDX=$(ibt_sim_node A .index)
S1_IDX=$(ibt_sim_node S1 .index)
DBG=/sys/kernel/debug/ibtrace_sim/vl

# credits NODE-INDEX-NAME PORT VL: "fctbs N fccl N abr N used N buf N
# queued N" of the port's VL
credits()
{
	awk -v vl="$3" '$1 == "vl" && $2 == vl { sub(/^vl [0-9]+ /, ""); print }' \
		"$DBG/$1/port$2/credits" 2>/dev/null
}

# fval NODE-DIR PORT VL NAME: field NAME of the port's credits for VL
fval()
{
	ibt_sim_credit "$DBG/$1" "$2" "$3" "$4"
}

ibt_check "sim set vl S1 port 1 buffer 3000" \
	"$IBTRACECTL" sim set vl S1 port 1 buffer 3000
J=$(ibt_sim_json vl)
ibt_expect "  sim show: S1's port 1 buf_blocks 3000" 3000 \
	"$(ibt_sim_node S1 '.ports[] | select(.port == 1) | .buf_blocks')"
# The fabric's worker starts the link again just after the request.
restarted()
{
	[ "$(credits "$A_IDX-A" 1 0 | awk '{ print $2 }')" = 0 ]
}
ibt_wait_for 5 restarted
a0=$(credits "$A_IDX-A" 1 0)
s7=$(credits "$S1_IDX-S1" 1 7)
ibt_expect "  A/1 VL 0 starts again: FCTBS 0, granted 2048 (the cap), buf 512" \
	"fctbs 0 fccl 2048 abr 0 used 0 buf 512 queued 0" "$a0"
ibt_expect "  S1/1 VL 7 starts again: FCTBS 0, granted 512 (A's room)" \
	"fctbs 0 fccl 512 abr 0 used 0 buf 3000 queued 0" "$s7"

# mads N: N ClassPortInfo Gets from A to B, each answered in turn
mads()
{
	"$IBTRACECTL" -d "$A" -p 1 mad send --class ibtrace --attr ClassPortInfo \
		--dlid "$B_LID" -c "$1" -t 1000 -r 2 >/dev/null 2>&1
}

# expect_credits LABEL BLOCKS: the four lines after BLOCKS blocks each way
expect_credits()
{
	local b=$(($2 % 4096))

	ibt_expect "$1: A/1 VL 0 FCTBS $b, FCCL $(((b + 2048) % 4096))" \
		"fctbs $b fccl $(((b + 2048) % 4096)) used 0 queued 0" \
		"$(credits "$A_IDX-A" 1 0 | awk '{ print $1, $2, $3, $4, $7, $8, $11, $12 }')"
	ibt_expect "$1: S1/1 VL 0 ABR $b, its buffer empty" "abr $b used 0" \
		"$(credits "$S1_IDX-S1" 1 0 | awk '{ print $5, $6, $7, $8 }')"
	ibt_expect "$1: S1/1 VL 7 FCTBS $b, FCCL $(((b + 512) % 4096))" \
		"fctbs $b fccl $(((b + 512) % 4096))" \
		"$(credits "$S1_IDX-S1" 1 7 | awk '{ print $1, $2, $3, $4 }')"
	ibt_expect "$1: A/1 VL 7 ABR $b" "abr $b used 0" \
		"$(credits "$A_IDX-A" 1 7 | awk '{ print $5, $6, $7, $8 }')"
}

ibt_check "10 MADs A -> B, answered" mads 10
expect_credits "after 10 MADs (50 blocks)" 50
ibt_check "900 more MADs, answered" mads 900
expect_credits "after 910 MADs (4550 blocks: ABR and FCTBS wrap at 4096)" 4550
ibt_expect "  by hand: 4550 mod 4096 = 454, FCCL 454 + 2048 = 2502" \
	"fctbs 454 fccl 2502" \
	"$(credits "$A_IDX-A" 1 0 | awk '{ print $1, $2, $3, $4 }')"
ibt_expect "  the VLs no packet took are untouched (A/1 VL 3)" \
	"fctbs 0 fccl 2048 abr 0 used 0 buf 512 queued 0" "$(credits "$A_IDX-A" 1 3)"
# --- backpressure: a slow data sink --------------------------------------------------
#
# Buffers of 66 blocks (13 MADs) at S1/1, S2/1 and B/1, and B a data sink
# of 1 packet a second. A burst of 100 requests injected at A's port:
# B's buffer fills, then S2's, then S1's, and the rest wait at A (the
# sink is so slow that this holds however fast the burst goes). The
# ports that must wait for credits are those upstream on the path (A/1,
# S1/2, S2/2): their PortXmitWait (debugfs xmit_wait_us, and perfquery)
# rises, no other port's does (the answers flow back freely). SMPs (VL 15)
# still cross. Then B drains at 1000 a second: every request reaches B's
# agent, and every buffer is empty again.

B=$(ibt_sim_dev B)
B_IDX=$(ibt_sim_node B .index)
S2_IDX=$(ibt_sim_node S2 .index)
C_IDX=$(ibt_sim_node C .index)

# wait_us NODE-DIR PORT: the port's xmit_wait_us
wait_us()
{
	awk '$1 == "xmit_wait_us" { print $2 }' "$DBG/$1/port$2/credits" 2>/dev/null
}
# rx_at_b: requests B's agent received (and answered)
rx_at_b()
{
	"$IBTRACECTL" -j -d "$B" agent show | jq -r '.[0].rx'
}

declare -A w0
ports_on_path=("$A_IDX-A 1" "$S1_IDX-S1 2" "$S2_IDX-S2 2")
ports_off_path=("$S1_IDX-S1 1" "$S1_IDX-S1 3" "$S2_IDX-S2 1" "$B_IDX-B 1" "$C_IDX-C 1")
for p in "${ports_on_path[@]}" "${ports_off_path[@]}"; do
	# shellcheck disable=SC2086
	w0[$p]=$(wait_us $p)
done
ibt_check "buffers of 66 blocks at S1/1, S2/1, B/1; B a data sink of 1/s" \
	bash -c "'$IBTRACECTL' sim set vl S1 port 1 buffer 66 &&
		 '$IBTRACECTL' sim set vl S2 port 1 buffer 66 &&
		 '$IBTRACECTL' sim set vl B port 1 buffer 66 sink 1"
J=$(ibt_sim_json vl)
ibt_expect "  sim show: B's port 1 buf_blocks 66, sink_pps 1" "66 1" \
	"$(ibt_sim_node B '.ports[] | select(.port == 1) | "\(.buf_blocks) \(.sink_pps)"')"
rx0=$(rx_at_b)
ibt_expect "a burst of 100 class 0x30 requests injected at A's port" \
	"injected 100" "$("$SIM_CTL" inject-burst vl A 1 "$B_LID" 100 agent 2>&1)"
# used NODE-DIR PORT VL: blocks of the port's buffer for the VL in use
used()
{
	fval "$1" "$2" "$3" used
}
path_full()
{
	[ "$(used "$B_IDX-B" 1 7) $(used "$S2_IDX-S2" 1 7) $(used "$S1_IDX-S1" 1 0)" = "65 65 65" ]
}
ibt_wait_for 10 path_full
ibt_expect "  B/1 VL 7, S2/1 VL 7, S1/1 VL 0: each buffer full (13 MADs, 65 of 66 blocks)" \
	"65 65 65" \
	"$(used "$B_IDX-B" 1 7) $(used "$S2_IDX-S2" 1 7) $(used "$S1_IDX-S1" 1 0)"
ibt_expect "  packets wait at S2/2, S1/2 and A/1; B's agent has not had them all" \
	"1 1 1 1" \
	"$(( $(fval "$S2_IDX-S2" 2 7 queued) > 0 )) $(( $(fval "$S1_IDX-S1" 2 7 queued) > 0 )) $(( $(fval "$A_IDX-A" 1 0 queued) > 0 )) $(( $(rx_at_b) - rx0 < 100 ))"
ibt_check "  SMPs cross the congested links: smpquery nodeinfo of B" \
	smpquery -C "$A" -P 1 nodeinfo "$B_LID"
ibt_check "B drains at 1000 a second" "$IBTRACECTL" sim set vl B port 1 sink 1000
all_received()
{
	[ "$(( $(rx_at_b) - rx0 ))" -ge 100 ]
}
ibt_wait_for 30 all_received
ibt_expect "B's data sink took all 100 requests, its agent received them" 100 \
	"$(( $(rx_at_b) - rx0 ))"
for p in "${ports_on_path[@]}"; do
	# shellcheck disable=SC2086
	ibt_expect "PortXmitWait rose at ${p/ //}, upstream on the path" 1 \
		"$(( $(wait_us $p) > ${w0[$p]} ))"
done
for p in "${ports_off_path[@]}"; do
	# shellcheck disable=SC2086
	ibt_expect "PortXmitWait did not rise at ${p/ //}" "${w0[$p]}" "$(wait_us $p)"
done
# perfquery reads the same PMA counters (PortCounters of S1's port 2)
pq=$(perfquery -C "$A" -P 1 "$S1_LID" 2 2>&1)
ibt_expect "perfquery S1 port 2: PortXmitWait as debugfs, PortXmitData > 0" \
	"$(wait_us "$S1_IDX-S1" 2) 1" \
	"$(sed -n 's/^PortXmitWait:\.*\([0-9]*\)$/\1/p' <<< "$pq") $(( $(sed -n 's/^PortXmitData:\.*\([0-9]*\)$/\1/p' <<< "$pq") > 0 ))"
ibt_check "perfquery -R (reset) of S1 port 2" \
	perfquery -C "$A" -P 1 -R "$S1_LID" 2
pq=$(perfquery -C "$A" -P 1 "$S1_LID" 2 2>&1)
ibt_expect "  PortXmitWait and PortXmitData read 0 after the reset" "0 0" \
	"$(sed -n 's/^PortXmitWait:\.*\([0-9]*\)$/\1/p' <<< "$pq") $(sed -n 's/^PortXmitData:\.*\([0-9]*\)$/\1/p' <<< "$pq")"
quiet()
{
	! grep -q "used [1-9]\|queued [1-9]" "$DBG"/*/port*/credits
}
ibt_wait_for 5 quiet
ibt_expect "once drained, every buffer empty and nothing waiting" "" \
	"$(grep -l "used [1-9]\|queued [1-9]" "$DBG"/*/port*/credits)"
ibt_check "B no longer a data sink" "$IBTRACECTL" sim set vl B port 1 sink 0

# --- overrun: a port that ignores the credits ------------------------------------------
#
# A ignores the credits (the exerciser's mode), and S2's link to B holds
# packets 10 s (delay), so that for that long the path keeps what it has:
# 13 MADs on S2's link to B (S2's credits for B's 66 blocks), 13 waiting
# at S2/2 in S2/1's buffer, 13 waiting at S1/2 in S1/1's buffer. Of a
# burst of 49 from A, those 39 are kept and S1/1 discards the other 10
# (IBA 7.9.4: a packet the receiver has no room for). By hand, from A's
# FCTBS F before the burst (equal to S1/1's ABR, the link quiet):
#   A/1 VL 0 FCTBS = F + 49 x 5 = F + 245: it counts what it sent;
#   S1/1 VL 0 ABR  = F + 39 x 5 = F + 195: not the discarded (the seed);
# S1/1's overruns, ExcessiveBufferOverrunErrors and PortRcvErrors all 10.
# When S1/1 frees room, the flow control packet from A carries its FCTBS:
# S1/1's ABR becomes F + 245, and A is granted F + 245 + 66. B's agent
# gets exactly the 39 kept. perfquery asks S1 from C: a request from A
# on VL 0 would be discarded too.

C=$(ibt_sim_dev C)
# overruns NODE-DIR PORT: the port's overruns
overruns()
{
	awk '$1 == "overruns" { print $2 }' "$DBG/$1/port$2/credits" 2>/dev/null
}
# pq_field OUTPUT NAME: a counter of perfquery's output
pq_field()
{
	sed -n "s/^$2:\.*\([0-9]*\)$/\1/p" <<< "$1"
}
out=$("$IBTRACECTL" sim set vl A port 1 credits maybe 2>&1)
ibt_expect "sim set ... credits maybe: refused, exit 2" \
	"2 Error: bad credits \"maybe\": ignore or obey" "$? $out"
ibt_check "perfquery -R (reset) of S1 port 1, from C" \
	perfquery -C "$C" -P 1 -R "$S1_LID" 1
F=$(fval "$A_IDX-A" 1 0 fctbs)
ibt_expect "  quiet: A/1 VL 0 FCTBS is S1/1 VL 0 ABR" "$F" \
	"$(fval "$S1_IDX-S1" 1 0 abr)"
o0=$(overruns "$S1_IDX-S1" 1)
ibt_check "A ignores the credits; S2/2 delays 10 s" \
	bash -c "'$IBTRACECTL' sim set vl A port 1 credits ignore &&
		 '$IBTRACECTL' sim set vl S2 port 2 delay 10000000"
J=$(ibt_sim_json vl)
ibt_expect "  sim show -j: A's port 1 ignore_credits true" true \
	"$(ibt_sim_node A '.ports[] | select(.port == 1) | .ignore_credits')"
ibt_match "  sim show: \"credits ignore\" after a port's counters" \
	'^    port 1 .* drops [0-9]+ credits ignore$' "$("$IBTRACECTL" sim show vl)"
rx0=$(rx_at_b)
ibt_expect "a burst of 49 class 0x30 requests injected at A's port" \
	"injected 49" "$("$SIM_CTL" inject-burst vl A 1 "$B_LID" 49 agent 2>&1)"
overran()
{
	[ "$(( $(overruns "$S1_IDX-S1" 1) - o0 ))" -ge 10 ] &&
		[ "$(fval "$S1_IDX-S1" 1 0 used)" = 65 ]
}
ibt_wait_for 5 overran
ibt_expect "  S1/1 discarded 10 (overruns), its VL 0 buffer full (65 of 66 blocks)" \
	"10 65" "$(( $(overruns "$S1_IDX-S1" 1) - o0 )) $(fval "$S1_IDX-S1" 1 0 used)"
ibt_expect "  A/1 VL 0: FCTBS F + 245 = $(((F + 245) % 4096)), nothing waits at A" \
	"$(((F + 245) % 4096)) 0" \
	"$(fval "$A_IDX-A" 1 0 fctbs) $(fval "$A_IDX-A" 1 0 queued)"
ibt_expect "  S1/1 VL 0: ABR F + 195 = $(((F + 195) % 4096)) (not the discarded)" \
	"$(((F + 195) % 4096))" "$(fval "$S1_IDX-S1" 1 0 abr)"
pq=$(perfquery -C "$C" -P 1 "$S1_LID" 1 2>&1)
ibt_expect "  perfquery S1 port 1: ExcessiveBufferOverrunErrors 10, PortRcvErrors 10" \
	"10 10" \
	"$(pq_field "$pq" ExcessiveBufferOverrunErrors) $(pq_field "$pq" PortRcvErrors)"
ibt_check "A obeys the credits again; S2/2's delay back to 0" \
	bash -c "'$IBTRACECTL' sim set vl A port 1 credits obey &&
		 '$IBTRACECTL' sim set vl S2 port 2 delay 0"
got39()
{
	[ "$(( $(rx_at_b) - rx0 ))" -ge 39 ] &&
		! grep -q "used [1-9]\|queued [1-9]" "$DBG"/*/port*/credits
}
ibt_wait_for 30 got39
ibt_expect "  once the held packets land: B's agent got the 39 kept" 39 \
	"$(( $(rx_at_b) - rx0 ))"
ibt_expect "  a flow control packet carried A's FCTBS: S1/1 ABR F + 245, A granted F + 311" \
	"$(((F + 245) % 4096)) $(((F + 311) % 4096))" \
	"$(fval "$S1_IDX-S1" 1 0 abr) $(fval "$A_IDX-A" 1 0 fccl)"
ibt_check "  5 MADs A -> B, answered (the credits agree again)" mads 5
J=$(ibt_sim_json vl)
ibt_expect "  sim show -j: no ignore_credits on A's port 1" null \
	"$(ibt_sim_node A '.ports[] | select(.port == 1) | .ignore_credits')"

# --- deadlock: a credit loop ----------------------------------------------------------
#
# Misroute rules send LID 0x77 (nobody's) from S1 to S2 and from S2 back
# to S1: a forwarding loop, and so a credit loop on VL 7 (SL 0 through
# S1's and S2's tables). Buffers of 66 blocks at both ends of the S1-S2
# link. A burst of 100 packets to 0x77 fills both buffers with packets
# that each wait for room the other side's hold: a deadlock. The watch
# (a look every second once packets wait) finds the loop and sim show
# names it; both buffers stay full and nothing moves. On VL 7 nothing
# else gets through either (A's requests to B wait behind the loop at
# S1/2), but a request on SL 1 (VL 6 on that link) does, and SMPs (VL 15)
# do. sim del ends it, dropping every waiting packet.

# The loop is held while the burst fills it: S2's way back to S1 delays
# packets 10 s, so S2/1 spends its credits for S1/2's buffer on packets in
# flight, S2/1's buffer fills, then S1/2 blocks; when the held packets
# land they fill S1/2's buffer, and each side waits for the other. (An
# open loop would not fill: each packet dies at the hop limit before the
# next is injected.)
ibt_check "misroute LID 0x77: S1 to port 2, S2 back to port 1; S1/2 buffer 66; S2/1 delay 10 s" \
	bash -c "'$IBTRACECTL' sim set vl S1 misroute 0x77 2 &&
		 '$IBTRACECTL' sim set vl S2 misroute 0x77 1 &&
		 '$IBTRACECTL' sim set vl S1 port 2 buffer 66 &&
		 '$IBTRACECTL' sim set vl S2 port 1 delay 10000000"
ibt_expect "a burst of 100 packets to 0x77 injected at A's port" \
	"injected 100" "$("$SIM_CTL" inject-burst vl A 1 0x77 100 agent 2>&1)"
ibt_check "  S2/1's delay back to 0 (the held packets keep theirs)" \
	"$IBTRACECTL" sim set vl S2 port 1 delay 0
# deadlock: the loop sim show names, "" if none
deadlock()
{
	"$IBTRACECTL" -j sim show vl | jq -r '.[0].deadlock // ""'
}
named()
{
	[ -n "$(deadlock)" ]
}
ibt_wait_for 30 named
ibt_match "sim show names the credit loop: S1/2 vl 7 and S2/1 vl 7, each waiting for the other" \
	'^(S1/2 vl 7 -> S2/1 vl 7 -> S1/2 vl 7|S2/1 vl 7 -> S1/2 vl 7 -> S2/1 vl 7)$' "$(deadlock)"
ibt_match "  in text: a line after the fabric's" \
	'^  deadlock: credit loop S[12]/[12] vl 7 -> ' "$("$IBTRACECTL" sim show vl)"
ibt_expect "  both buffers of the loop full (65 of 66 blocks)" "65 65" \
	"$(used "$S1_IDX-S1" 2 7) $(used "$S2_IDX-S2" 1 7)"
rx0=$(rx_at_b)
send 0
ibt_expect "  a request to B on SL 0 (VL 7 past S1) waits behind the loop: unanswered" \
	1 "$(( $? != 0 ))"
send 1
ibt_expect "  a request to B on SL 1 (VL 6 past S1) gets through: answered" 0 "$?"
ibt_check "  SMPs cross: smpquery nodeinfo of B" \
	smpquery -C "$A" -P 1 nodeinfo "$B_LID"
ibt_expect "  still there a second later, still full" "1 65 65" \
	"$(sleep 1; [ -n "$(deadlock)" ] && echo 1) $(used "$S1_IDX-S1" 2 7) $(used "$S2_IDX-S2" 1 7)"
out=$("$IBTRACECTL" sim set vl S1 port 1 sink 10 2>&1)
ibt_expect "a switch port is no data sink: refused, exit 1" \
	"1 Error: only a linked HCA port is a data sink (attribute port)" "$? $out"

out=$("$IBTRACECTL" sim set vl S1 port 1 buffer 10 2>&1)
ibt_expect "sim set ... buffer 10: refused, exit 2 (below a 4096-byte packet)" \
	"2 Error: bad buffer \"10\": blocks of 64 bytes, 66..8192" "$? $out"

ibt_check "sim del vl" "$IBTRACECTL" sim del vl
ibt_done
