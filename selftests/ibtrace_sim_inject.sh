#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The exerciser's "ibtracectl sim inject" on HCA A - switch S1 - switch S2
# - HCA B (and HCA C on S1), brought up by SM-lite:
# - posing as switch S2 (from S2's port 2, and from A's port with S2's
#   LID forged): B's class 0x30 agent and B's SMA answer the switch's LID,
#   and the answers come back to the injector, addressed to that source;
# - posing as a node that does not exist (a LID nobody has): the agent's
#   answer comes back all the same, addressed to that LID;
# - a directed-route SMP injected at A's port with its hop pointer past A
#   reaches S2 and its NodeInfo comes back; a raw payload is answered;
# - a capture at S1 sees the injected packet with its forged source;
# - VL checks: a GMP on VL 15, an SMP on a data VL and a GMP on a VL the
#   port does not run are dropped by the first port they reach, counted
#   in its drops, unanswered; the same packets on their right VL are
#   answered;
# - the fabric's books: every injected packet and every claimed answer
#   counted (debugfs stats), nothing in flight once quiet;
# - the text form: a line for the injection, one for the answer, its MAD;
# - an answer that ib_mad matches to a request of A's ibtrace by TID but
#   that does not answer it (source LID, attribute, method, OUI) is
#   dropped and counted (invalid_answer), the one that does is taken;
# - unprivileged users get exit 5; bad words exit 2; a port the node
#   lacks, the kernel's sentence.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL"
ibt_require_cmd jq setpriv timeout
ibt_require_modules ib_core ib_umad
ibt_require_debugfs

ibt_sim_load_ibtrace "load ibtrace"
ibt_check "fabric inj (SM-lite): 2 switches, 3 HCAs" \
	"$IBTRACECTL" sim add "$IBT_TOPO/s1s2.topo" --name inj
ibt_check "  every port Active" ibt_sim_wait_active inj
J=$(ibt_sim_json inj)
B_LID=$(ibt_sim_lid B)
S2_LID=$(ibt_sim_lid S2)
B_IDX=$(ibt_sim_node B .index)
S2_IDX=$(ibt_sim_node S2 .index)
B_GUID=$(ibt_sim_node B .guid)
S2_GUID=$(ibt_sim_node S2 .guid)
NOBODY=0x77

# run ARGS...: ibtracectl -j sim inject inj ARGS; $out its output, $err
# its errors, $rc its status
run()
{
	out=$("$IBTRACECTL" -j sim inject inj "$@" 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
}

# ans FILTER: jq's FILTER on the answer of $out
ans()
{
	jq -r ".answer | $1" <<< "$out" 2>/dev/null
}

# stat FIELD: a line of the fabric's debugfs stats
stat() { ibt_sim_stat inj "$1"; }

# drops NODE PORT: the drops counter of a port
drops()
{
	J=$(ibt_sim_json inj)
	ibt_sim_node "$1" ".ports[] | select(.port == $2) | .drops"
}

hexnum()
{
	printf '0x%x' "$1"
}

inj0=$(stat injected)
claimed0=$(stat claimed)

# --- posing as a switch ------------------------------------------------------------

run S2 2 --class ibtrace --attr ClassPortInfo --dlid "$B_LID"
ibt_expect "from S2's port 2, as S2: the agent's ClassPortInfo comes back (exit 0)" \
	0 "$rc"
ibt_expect "  sent by B, from its port 1" "$B_IDX 1" "$(ans '"\(.node) \(.port)"')"
ibt_expect "  addressed to S2's LID, QP 1, from B's LID, QP 1" \
	"$S2_LID 1 $B_LID 1" "$(ans '"\(.dlid) \(.dqp) \(.slid) \(.sqp)"')"
ibt_expect "  a GetResp of class 0x30, status 0, the TID sent" \
	"48 129 0 $(jq -r .sent.tid <<< "$out")" \
	"$(ans '"\(.mad.class) \(.mad.method) \(.mad.status) \(.mad.tid)"')"
ibt_match "  with its time in ns" '^[1-9][0-9]*$' "$(ans .rtt_ns)"

run A 1 --slid "$S2_LID" --class lid --attr NodeInfo --dlid "$B_LID"
ibt_expect "from A's port with S2's LID forged: B's SMA answers NodeInfo (exit 0)" \
	0 "$rc"
ibt_expect "  to S2's LID, QP 0, on VL 15" "$S2_LID 0 15" \
	"$(ans '"\(.dlid) \(.dqp) \(.vl)"')"
ibt_expect "  B's node GUID, decoded" "$B_GUID" "$(ans .attr.node_guid)"

run A 1 --slid "$S2_LID" --sqp 5 --class ibtrace --attr ClassPortInfo \
	--dlid "$B_LID"
ibt_expect "a forged source QP 5: the answer goes to QP 5" "0 5" \
	"$rc $(ans .dqp)"

# --- posing as nobody ----------------------------------------------------------------

run A 1 --slid "$NOBODY" --class ibtrace --attr ClassPortInfo --dlid "$B_LID"
ibt_expect "from LID $NOBODY, which no port has: answered all the same (exit 0)" \
	0 "$rc"
ibt_expect "  addressed to $NOBODY, from B" "$((NOBODY)) $B_LID" \
	"$(ans '"\(.dlid) \(.slid)"')"
# more_drops NODE PORT N: has the port dropped more than N packets?
more_drops()
{
	[ "$(drops "$1" "$2")" -gt "$3" ]
}

d0=$(drops S2 2)
run A 1 --slid "$NOBODY" --class ibtrace --attr ClassPortInfo \
	--dlid "$B_LID" --no-wait
ibt_expect "  without waiting: exit 0, no answer shown" "0 null" \
	"$rc $(jq -c .answer <<< "$out")"
ibt_wait_for 5 more_drops S2 2 "$d0"
ibt_expect "  then B's answer, unclaimed, dies at S2's port 2: no route to $NOBODY" \
	"$((d0 + 1))" "$(drops S2 2)"

# --- directed route, raw payload ----------------------------------------------------

run A 1 --class dr --attr NodeInfo --dr 1,2 --hop-ptr 1
ibt_expect "a DR SMP injected past A (hop pointer 1, route 1,2): S2 answers (exit 0)" \
	0 "$rc"
ibt_expect "  S2's NodeInfo: its GUID, a switch" "$S2_GUID 2" \
	"$(ans '"\(.attr.node_guid) \(.attr.node_type)"')"
ibt_expect "  sent by S2 (its port 0's answer leaves by port 1)" "$S2_IDX" \
	"$(ans .node)"

# A Get(ClassPortInfo) of class 0x30: header, RMPP header, OUI, zeros.
hdr="01 30 01 01 0000 0000 0000abcd 00000001 0001 0000 00000000"
pay="$hdr 000000000000000000000000 00 001405 $(printf '%0432d' 0)"
run A 1 --payload "$pay" --dlid "$B_LID"
ibt_expect "a raw payload (256 bytes): the agent answers (exit 0)" 0 "$rc"
ibt_expect "  its TID" 0x0000abcd00000001 "$(ans .mad.tid)"
ibt_expect "  the agent's ClassPortInfo: base and class version 1" "1 1" \
	"$(ans '"\(.attr.base_version) \(.attr.class_version)"')"

# --- a capture sees the forged source ------------------------------------------------

ibt_sim_capture "$TMP/cap.out" "$TMP/cap.err" -j sim capture inj S1 1 -c 1
cpid=$IBT_CAP_PID
run A 1 --slid "$NOBODY" --sl 3 --class ibtrace --attr ClassPortInfo \
	--dlid "$B_LID" --no-wait
timeout 10 tail --pid="$cpid" -f /dev/null
pkt=$(jq -c '.packets[0]' "$TMP/cap.out")
ibt_expect "a capture at S1/1 sees the injected packet: in, from $NOBODY, SL 3" \
	"in $((NOBODY)) $B_LID 3 0 Get" \
	"$(jq -r '"\(.dir) \(.slid) \(.dlid) \(.sl) \(.vl) \(.method_name)"' <<< "$pkt")"

# --- VLs ---------------------------------------------------------------------------

vl_dropped()
{
	local what=$1

	shift
	d0=$(drops S1 1)
	run A 1 -t 300 "$@"
	ibt_expect "$what: unanswered (exit 6)" 6 "$rc"
	ibt_expect "  dropped and counted at S1's port 1" "$((d0 + 1))" \
		"$(drops S1 1)"
}

vl_dropped "a GMP (class 0x30) on VL 15" --vl 15 --class ibtrace \
	--attr ClassPortInfo --dlid "$B_LID"
vl_dropped "an SMP on data VL 0" --vl 0 --class lid --attr NodeInfo \
	--dlid "$B_LID"
vl_dropped "a GMP on VL 7, which the port does not run" --vl 7 \
	--class ibtrace --attr ClassPortInfo --dlid "$B_LID"
run A 1 --vl 0 --class ibtrace --attr ClassPortInfo --dlid "$B_LID"
ibt_expect "the GMP on VL 0: answered" 0 "$rc"
run A 1 --vl 15 --class lid --attr NodeInfo --dlid "$B_LID"
ibt_expect "the SMP on VL 15: answered" 0 "$rc"

# --- the fabric's books --------------------------------------------------------------

quiet()
{
	[ "$(stat in_flight)" = 0 ]
}
ibt_wait_for 5 quiet
ibt_expect "debugfs stats: nothing in flight once quiet" 0 "$(stat in_flight)"
ibt_expect "  every injection counted (13)" 13 "$(($(stat injected) - inj0))"
ibt_expect "  every answer claimed counted (8)" 8 \
	"$(($(stat claimed) - claimed0))"

# --- a bound on what is in flight ------------------------------------------------
#
# A's link held back 10 s (the longest delay): a burst of injections from
# one socket fills the fabric's IBTRACE_SIM_INJECT_INFLIGHT_MAX (256) and
# one is refused, saying why (how many went first depends on how fast the
# burst runs against the 10 s: 256 at least, even on a debug kernel); once
# the held packets are done, injection works again.

burst0=$(stat injected)
ibt_check "hold A's link back 10 s" "$IBTRACECTL" sim set inj A port 1 delay 10000000
burst=$("$SIM_CTL" inject-burst inj A 1 "$B_LID" 1000 2>"$TMP/err")
held=$(stat injected_in_flight)
n=${burst#injected }
ibt_expect "a burst of 1000 injections: refused after 256 or more" 1 \
	"$(( n >= 256 && n < 1000 ))"
ibt_match "  busy, naming the bound" \
	'^Error: busy: IBTRACE_SIM_INJECT_INFLIGHT_MAX injected packets travel the fabric already: Device or resource busy' \
	"$(cat "$TMP/err")"
ibt_expect "  never more than 256 in flight (debugfs: $held after the burst)" 1 \
	"$(( held > 0 && held <= 256 ))"
ibt_check "release A's link" "$IBTRACECTL" sim set inj A port 1 delay 0
injected_done()
{
	[ "$(stat injected_in_flight)" = 0 ]
}
ibt_check "  the held packets are done: none in flight (debugfs)" \
	ibt_wait_for 20 injected_done
ibt_expect "  every injection of the burst counted" "$n" "$(($(stat injected) - burst0))"
run A 1 --class ibtrace --attr ClassPortInfo --dlid "$B_LID"
ibt_expect "  injecting again: answered" 0 "$rc"

# --- the text form ----------------------------------------------------------------

txt=$("$IBTRACECTL" sim inject inj A 1 --slid "$NOBODY" --class ibtrace \
	--attr ClassPortInfo --dlid "$B_LID" 2>&1)
ibt_match "text: a line for the injection" \
	"^Injected into inj node A port 1: dlid $(hexnum "$B_LID") len 256 Ibtrace Get ClassPortInfo tid 0x[0-9a-f]{16}$" \
	"$txt"
ibt_match "  a line for the answer, to $NOBODY, with its time" \
	"^Answer from node $B_IDX/1: lid $(hexnum "$B_LID") > $NOBODY sl 0 vl 0 qp 1 > 1 len [0-9]+ Ibtrace GetResp ClassPortInfo tid 0x[0-9a-f]{16} time [0-9.]+ ms$" \
	"$txt"
ibt_match "  then its MAD's header" '^ base_version 1 class 0x30 \(Ibtrace\)' "$txt"

# --- answers that do not answer their request -----------------------------------
#
# A's ibtrace asks $NOBODY for ClassPortInfo (mad send, class 0x30, one
# attempt of 20 s); switch S1 has no route to $NOBODY and drops it. The
# capture at S1's port 1 shows the request's TID, and an answer with that
# TID is injected at S1's port 1 toward A. ib_mad matches it to the request
# by TID and class only and ends the request's send with it; an answer that
# does not answer it (another source LID, attribute, method or OUI) is
# dropped by ibtrace and counted in A's invalid_answer, and the attempt ends
# unanswered at once (exit 6, long before its 20 s). The answer as it
# should be is taken (exit 0): the injection path works. No check depends
# on how fast the machine is: each waits for what it checks.

A_DEV=$(ibt_sim_dev A)
A_LID=$(ibt_sim_lid A)

# invalid: A's invalid_answer counter
invalid()
{
	"$IBTRACECTL" -j -d "$A_DEV" agent show | jq -r '.[0].invalid_answer'
}

# A's request to $NOBODY, seen at S1's port 1: its TID, 16 hex digits
req_tid()
{
	tid=$(sed -n "s/.* in  lid $(hexnum "$A_LID") > $NOBODY .* Ibtrace Get ClassPortInfo tid 0x\([0-9a-f]\{16\}\).*/\1/p" \
		"$TMP/fcap" | head -n 1)
	[ -n "$tid" ]
}

# answer SLID METHOD ATTR OUI: mad send from A to $NOBODY (one attempt of
# 20 s), answered by an injected MAD of that source LID, method, attribute
# and OUI (hex) and the request's TID. $msrc: mad send's exit, or
# "waiting" if it still waited 15 s after the injection (it is then
# stopped); $msout its output.
answer()
{
	local slid=$1 method=$2 attr=$3 oui=$4 cpid mpid

	ibt_sim_capture "$TMP/fcap" "$TMP/fcap" sim capture inj S1 1
	cpid=$IBT_CAP_PID
	"$IBTRACECTL" -j -d "$A_DEV" mad send --class ibtrace \
		--attr ClassPortInfo --dlid "$NOBODY" -t 20000 -r 0 \
		> "$TMP/fms" 2>&1 &
	mpid=$!
	tid=
	ibt_wait_for 15 req_tid || cat "$TMP/fcap" >&2
	run S1 1 --slid "$slid" --dlid "$A_LID" --no-wait --payload \
		"01 30 01 $method 0000 0000 ${tid:0:8} ${tid:8:8} $attr 0000 00000000 000000000000000000000000 00 $oui $(printf '%0432d' 0)"
	timeout 15 tail --pid="$mpid" -f /dev/null
	if kill -0 "$mpid" 2>/dev/null; then
		msrc=waiting
		kill "$mpid"
		wait "$mpid"
	else
		wait "$mpid"
		msrc=$?
	fi
	msout=$(cat "$TMP/fms")
	kill "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
}

inv0=$(invalid)
answer "$NOBODY" 81 0010 001405
ibt_expect "another attribute (SourceRoute): dropped, the attempt unanswered (exit 6)" \
	6 "$msrc"
ibt_expect "  counted in A's invalid_answer" "$((inv0 + 1))" "$(invalid)"
answer "$B_LID" 81 0001 001405
ibt_expect "from B's LID, not the request's DLID $NOBODY: dropped (exit 6)" \
	6 "$msrc"
ibt_expect "  counted" "$((inv0 + 2))" "$(invalid)"
answer "$NOBODY" 92 0001 001405
ibt_expect "a GetTableResp to a Get: dropped (exit 6)" 6 "$msrc"
ibt_expect "  counted" "$((inv0 + 3))" "$(invalid)"
answer "$NOBODY" 81 0001 001406
ibt_expect "another OUI (0x001406): dropped (exit 6)" 6 "$msrc"
ibt_expect "  counted" "$((inv0 + 4))" "$(invalid)"
answer "$NOBODY" 81 0001 001405
ibt_expect "the answer as it should be: taken (exit 0)" 0 "$msrc"
ibt_expect "  from $NOBODY, the TID sent" "$((NOBODY)) 0x$tid" \
	"$(jq -r '.answers[0] | "\(.slid) \(.tid)"' <<< "$msout" 2>/dev/null)"
ibt_expect "  not counted" "$((inv0 + 4))" "$(invalid)"

# --- who may, and bad words ----------------------------------------------------------

ibt_unpriv sim inject inj A 1 --class ibtrace --dlid "$B_LID" >/dev/null 2>&1
ibt_expect "unprivileged: exit 5" 5 "$?"
run A --class ibtrace --dlid "$B_LID"
ibt_expect "no PORT: exit 2" 2 "$rc"
ibt_match "  one sentence" '^Error: .*PORT' "$err"
run A 1 --class ibtrace --payload 01 --dlid "$B_LID"
ibt_expect "--class and --payload: exit 2" 2 "$rc"
run A 1 --class ibtrace --method set --attr ClassPortInfo --dlid "$B_LID"
ibt_expect "a Set without --allow-set: exit 2" 2 "$rc"
ibt_match "  naming --allow-set" '^Error: .*--allow-set' "$err"
run A 1 --class ibtrace --vl 16 --dlid "$B_LID"
ibt_expect "--vl 16: exit 2" 2 "$rc"
run A 1 --class lid --attr NodeInfo
ibt_expect "a LID-routed SMP without --dlid: exit 2" 2 "$rc"
run A 1 --payload 0102 --dlid "$B_LID"
ibt_expect "a 2-byte payload to wait for: exit 2 (--no-wait needed)" 2 "$rc"
run S1 9 --class ibtrace --dlid "$B_LID"
ibt_expect "port 9 of a 4-port switch: the kernel refuses it (exit 1)" 1 "$rc"
ibt_match "  saying so" '^Error: .*no port of that number' "$err"
run Z 1 --class ibtrace --dlid "$B_LID"
ibt_expect "a node that is not in the fabric: refused" 1 "$rc"
ibt_match "  saying so" '^Error: .*no node of that name' "$err"

run A 1 --class ibtrace --attr ClassPortInfo --dlid "$B_LID"
ibt_expect "after all that, the agent still answers" 0 "$rc"

"$IBTRACECTL" sim del inj >/dev/null 2>&1
ibt_done
