#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "ibtracectl audit" on switch S1 (HCAs A, C) - switch S2 (HCA B), brought
# up by SM-lite, audited from A:
# - the sweep finds every node and link (as "sim show" has them), and
#   every destination (B, C, S1, S2) is ok; the route to B is the one
#   "ibtracectl trace" walks (its in ports); no credit loop;
# - the text form: the sweep's line, the count per verdict;
# - the data path proved: B and C (their ibtrace agents answer) verified,
#   S1 and S2 (switches) no agent, nothing else; the text's "data path:"
#   line; --no-prove and --load leave it out, and say why;
# - --save then --load: the same verdicts from the file, without a sweep;
#   -d C --load: C's routes from the model saved at A, as a sweep from C
#   finds them, and proved; a model without C's LID refused;
# - faults written into the tables by SubnSet(LinearForwardingTable):
#   S1's entry for B 255 is a hole at S1; S2's entry for B back to S1 a
#   loop; B's link down a dead end at S2's port 2 (B's LID, known to the
#   tables only); each exit 19, the other destinations still ok and
#   proved, B not probed;
# - a fault the tables do not show: a misroute rule on S1 sends B's
#   packets to C; every route is ok by the tables, but B's probe is
#   unreachable (exit 19); SIGINT mid-proof exits 13 (the job cancelled);
#   the rule removed, B is verified again;
# - audit merge of A's and C's audits under the misroute: the channels
#   toward B first;
# - --prom FILE: the metrics file (success, routes and probes by verdict,
#   the failing destinations with their labels), written whole, and an
#   error naming the file when it cannot be;
# - unprivileged users get exit 5; bad words exit 2; a RoCE port (rxe)
#   is refused with the kernel's sentence;
# - a ring of 5 switches: its min-hop routes have two credit loops (one
#   each way round), reported with their channels; its proof (a link
#   dropping all) ended by rmmod ibtrace and by the fabric's deletion
#   (exit 4 each);
# - a slow sweep (the S1-S2 link held back) ended in mid-sweep by SIGINT
#   (exit 13, the job cancelled), rmmod ibtrace and the fabric's deletion
#   (exit 4 each), nothing of it left running.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL" "$SIM_SMP"
ibt_require_cmd jq setpriv
ibt_require_modules ib_core ib_umad

ibt_sim_load_ibtrace "load ibtrace"
ibt_check "fabric aud (SM-lite): 2 switches, 3 HCAs" \
	"$IBTRACECTL" sim add "$IBT_TOPO/s1s2.topo" --name aud
ibt_check "  every port Active" ibt_sim_wait_active aud
J=$(ibt_sim_json aud)
A=$(ibt_sim_dev A)
B_LID=$(ibt_sim_lid B)
C_LID=$(ibt_sim_lid C)
S1_LID=$(ibt_sim_lid S1)
S2_LID=$(ibt_sim_lid S2)

# audit ARGS...: ibtracectl -j audit ARGS; $out, $rc, $err
audit()
{
	out=$("$IBTRACECTL" -j -d "$A" audit "$@" 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
}

# dest LID FILTER: jq's FILTER on $out's destination LID
dest()
{
	jq -r --argjson l "$1" ".destinations[] | select(.dlid == \$l) | $2" <<< "$out"
}

# verdicts: "LID:verdict" of every destination of $out, in order
verdicts()
{
	jq -r '[.destinations[] | "\(.dlid):\(.verdict)"] | join(" ")' <<< "$out"
}

# proved: the proof verdicts of B, C, S1 and S2 in $out ("null": not probed)
proved()
{
	local l

	for l in "$B_LID" "$C_LID" "$S1_LID" "$S2_LID"; do
		dest "$l" .proof.verdict
	done | paste -sd ' '
}

# --- A clean fabric ----------------------------------------------------------

audit
ibt_expect "clean fabric: exit 0" 0 "$rc"
ibt_expect "  the sweep: 5 nodes, 2 switches, 4 links, nothing unanswered" \
	"5 2 4 0 0" \
	"$(jq -r '.sweep | "\(.nodes) \(.switches) \(.links) \(.unanswered) \(.not_kept)"' <<< "$out")"
ibt_expect "  4 destinations (B, C, S1, S2), every one ok" "4 4" \
	"$(jq -r '.summary | "\(.destinations) \(.ok)"' <<< "$out")"
ibt_expect "  B by its LID, GUID and port" \
	"ok $(ibt_sim_node B .guid) 1" \
	"$(dest "$B_LID" '"\(.verdict) \(.node_guid) \(.port)"')"
trace_in=$("$IBTRACECTL" -j -d "$A" trace --dlid "$B_LID" |
	jq -c '[.hops[1:][] | .in_port]')
ibt_expect "  B's route: the in ports trace walks" "$trace_in" \
	"$(dest "$B_LID" '.in_ports | tostring')"
ibt_expect "  C one hop past S1, S1 and S2 by their port 0" "2 1 2" \
	"$(dest "$C_LID" .hops) $(dest "$S1_LID" .hops) $(dest "$S2_LID" .hops)"
ibt_expect "  no credit loop" "0 0" \
	"$(jq -r '.credit_loops | "\(.loops) \(.cycles | length)"' <<< "$out")"
clean=$(verdicts)

txt=$("$IBTRACECTL" -d "$A" audit)
ibt_match "text: the sweep's line" \
	"^audit from $A/1: 5 nodes \\(2 switches\\), 4 links, [0-9]+ SMPs" "$txt"
ibt_match "  the verdicts' line" "^4 destinations: 4 ok$" "$txt"
ibt_match "  no credit loop" "^credit loops: none" "$txt"
ibt_expect "  no line per destination without -v" 0 \
	"$(grep -c '^  lid' <<< "$txt")"
ibt_expect "  -v: one line per destination" 4 \
	"$("$IBTRACECTL" -d "$A" audit -v | grep -c '^  lid 0x[0-9a-f]*.*: ok, ')"

# --- The data path, proved ------------------------------------------------------

audit
ibt_expect "the proof ran: 4 destinations probed, exit 0" "true 4 0" \
	"$(jq -r '.proof | "\(.proved) \(.destinations)"' <<< "$out") $rc"
ibt_expect "  B and C verified (their agents answer), S1 and S2 no agent" \
	"verified verified no_agent no_agent" "$(proved)"
ibt_expect "  in all: 2 verified, 2 no agent, 0 mismatch, unreachable, send error" \
	"2 2 0 0 0" \
	"$(jq -r '.proof | "\(.verified) \(.no_agent) \(.mismatch) \(.unreachable) \(.send_error)"' <<< "$out")"
ibt_expect "  B's answer: came in by port 1, status 0" "1 0" \
	"$(dest "$B_LID" '.proof | "\(.actual_port) \(.status)"')"
ibt_match "  MADs counted, the time taken" '^[1-9][0-9]* [1-9][0-9]*$' \
	"$(jq -r '.proof | "\(.mads) \(.elapsed_ns)"' <<< "$out")"
txt=$("$IBTRACECTL" -d "$A" audit)
ibt_match "  text: the data path line" \
	'^data path: 4 probes: 2 verified, 2 no agent \([0-9]+ MADs, [0-9]+\.[0-9]{3} s\)$' "$txt"
ibt_expect "  -v: one line per probe" 4 \
	"$("$IBTRACECTL" -d "$A" audit -v | grep -c '^  lid 0x[0-9a-f]*.*: \(verified\|no agent\): ')"
audit --no-prove
ibt_expect "--no-prove: exit 0, not proved, and why" "0 false --no-prove" \
	"$rc $(jq -r '.proof | "\(.proved) \(.why_not)"' <<< "$out")"
ibt_expect "  no destination has a proof" 0 \
	"$(jq '[.destinations[] | select(.proof)] | length' <<< "$out")"
ibt_match "  text: data path not proved" '^data path: not proved \(--no-prove\)$' \
	"$("$IBTRACECTL" -d "$A" audit --no-prove)"

# --- Prometheus metrics (--prom) ----------------------------------------------

# prom_has LINE: the metrics file has LINE, whole
prom_has()
{
	grep -qxF "$1" "$TMP/audit.prom"
}
audit --prom "$TMP/audit.prom"
ibt_expect "--prom: exit 0, the file written, no temporary file left" "0 1 0" \
	"$rc $(ls "$TMP" | grep -c '^audit\.prom$') $(ls "$TMP" | grep -c 'audit\.prom\.tmp')"
ibt_check "  success 1, labelled with node_exporter's device and port" \
	prom_has "ibtrace_audit_success{device=\"$A\",port=\"1\"} 1"
ibt_check "  4 routes ok, 2 probes verified, 2 no agent" eval \
	"prom_has 'ibtrace_audit_routes{device=\"$A\",port=\"1\",verdict=\"ok\"} 4' &&
	 prom_has 'ibtrace_audit_probes{device=\"$A\",port=\"1\",verdict=\"verified\"} 2' &&
	 prom_has 'ibtrace_audit_probes{device=\"$A\",port=\"1\",verdict=\"no_agent\"} 2'"
ibt_check "  the sweep's 5 nodes, no failing destination" eval \
	"prom_has 'ibtrace_audit_sweep_nodes{device=\"$A\",port=\"1\"} 5' &&
	 prom_has 'ibtrace_audit_failing_destinations{device=\"$A\",port=\"1\"} 0'"
ibt_expect "  every family a gauge with its help" \
	"$(grep -c '^# HELP ' "$TMP/audit.prom")" "$(grep -c '^# TYPE [a-z_]* gauge$' "$TMP/audit.prom")"
if command -v promtool >/dev/null; then
	ibt_check "  promtool check metrics accepts it" \
		sh -c "promtool check metrics < '$TMP/audit.prom'"
fi
audit --prom /nonexistent/audit.prom
ibt_expect "--prom into a directory that does not exist: exit 1, one sentence" \
	"1 Error: cannot write /nonexistent/audit.prom: No such file or directory" "$rc $err"

# --- Saved and loaded ----------------------------------------------------------

audit --save "$TMP/fab.json"
ibt_expect "--save: exit 0, the file written" "0 true" \
	"$rc $([ -s "$TMP/fab.json" ] && echo true)"
out=$("$IBTRACECTL" -j audit --load "$TMP/fab.json" 2>&1)
ibt_expect "--load: the same verdicts, no sweep" "$clean null" \
	"$(verdicts) $(jq -r .sweep <<< "$out")"
ibt_expect "  the data path not proved: a loaded model" "false loaded model 0" \
	"$(jq -r '.proof | "\(.proved) \(.why_not)"' <<< "$out") $(jq '[.destinations[] | select(.proof)] | length' <<< "$out")"
ibt_match "  text: data path not proved" '^data path: not proved \(loaded model\)$' \
	"$("$IBTRACECTL" audit --load "$TMP/fab.json")"
ibt_expect "--load - as an unprivileged user (no netlink): exit 0" 0 \
	"$(ibt_unpriv audit --load - < "$TMP/fab.json" >/dev/null 2>&1; echo $?)"
# -d C with the model saved at A: C's own routes, and their proof
C=$(ibt_sim_dev C)
from_c=$("$IBTRACECTL" -j -d "$C" audit)
out=$("$IBTRACECTL" -j -d "$C" audit --load "$TMP/fab.json" 2>&1)
ibt_expect "-d C --load (saved at A): exit 0, the source C's port 1, the file" \
	"0 $C 1 $(ibt_sim_node C .guid) $TMP/fab.json" \
	"$? $(jq -r '.source | "\(.dev) \(.port) \(.node_guid) \(.file)"' <<< "$out")"
ibt_expect "  the verdicts and hops of a sweep from C" \
	"$(jq -c '[.destinations[] | [.dlid, .verdict, .hops]]' <<< "$from_c")" \
	"$(jq -c '[.destinations[] | [.dlid, .verdict, .hops]]' <<< "$out")"
ibt_expect "  proved from C: A and B verified, S1 and S2 no agent" \
	"true verified verified no_agent no_agent" \
	"$(jq -r '.proof.proved' <<< "$out") $(for n in A B S1 S2; do dest "$(ibt_sim_lid $n)" .proof.verdict; done | paste -sd ' ')"
ibt_match "  text: the file and the port" \
	"^audit of $TMP/fab.json from $C/1 \\(0x[0-9a-f]* port 1\\): 5 nodes$" \
	"$("$IBTRACECTL" -d "$C" audit --load "$TMP/fab.json")"
# the same model, C's LID renumbered: the port is not in it
jq --argjson l "$C_LID" '(.nodes[].port[] | select(.lid == $l) | .lid) |= 99' \
	"$TMP/fab.json" > "$TMP/fab-other.json"
out=$("$IBTRACECTL" -d "$C" audit --load "$TMP/fab-other.json" 2>&1)
ibt_expect "  a model without C's LID: exit 1" 1 "$?"
ibt_match "  one sentence naming the file and the LID" \
	"^Error: $TMP/fab-other.json: no port has LID $(printf '0x%04x' "$C_LID"), the LID of $C/1 " "$out"
ibt_unpriv -d "$C" audit --load - < "$TMP/fab.json" >/dev/null 2>&1
ibt_expect "  unprivileged with -d: exit 5 (the proof is the kernel's)" 5 "$?"
ibt_expect "  unprivileged with -d --no-prove: exit 0" 0 \
	"$(ibt_unpriv -d "$C" audit --load - --no-prove < "$TMP/fab.json" >/dev/null 2>&1; echo $?)"
printf '{"format":"ibtrace-fabric","version":9,"nodes":[]}\n' > "$TMP/bad.json"
out=$("$IBTRACECTL" audit --load "$TMP/bad.json" 2>&1)
ibt_expect "--load of another version: exit 1" 1 "$?"
ibt_match "  one sentence saying why" "^Error: .*bad.json: version 9 is not known" "$out"

# --- Faults in the tables --------------------------------------------------------

smp() { "$SIM_SMP" -C "$A" -P 1 -t 300 "$@"; }
# lft_set DR LID PORT: the LFT entry of LID at the switch of route DR
lft_set() { smp -D "$1" set 0x19 $(($2 / 64)) "$(($2 % 64))=$3" >/dev/null; }
lft_get()
{
	smp -D "$1" get 0x19 $(($2 / 64)) | sed -n 's/^data=//p' |
		cut -c $((2 * ($2 % 64) + 1))-$((2 * ($2 % 64) + 2))
}

old=$(lft_get 0,1 "$B_LID")
ibt_check "S1's entry for B set to 255" lft_set 0,1 "$B_LID" ff
audit
ibt_expect "hole: exit 19" 19 "$rc"
ibt_expect "  B: hole at S1, entry 255" "hole S1 255" \
	"$(dest "$B_LID" '"\(.verdict) \(.at.node_desc) \(.at.port)"')"
ibt_expect "  the others ok" 3 "$(jq -r .summary.ok <<< "$out")"
ibt_expect "  proof: B not probed, C verified, S1 and S2 no agent" \
	"null verified no_agent no_agent 3" "$(proved) $(jq -r .proof.destinations <<< "$out")"
txt=$("$IBTRACECTL" -d "$A" audit)
ibt_match "  text: a line naming B's LID and S1" \
	"^  lid $(printf '0x%04x' "$B_LID") \\(port 1 of ca \"B\" \\(0x[0-9a-f]*\\)\\): hole at switch \"S1\" \\(0x[0-9a-f]*\\): no LFT entry$" \
	"$txt"
ibt_check "S1's entry restored" lft_set 0,1 "$B_LID" "$old"

old=$(lft_get 0,1,2 "$B_LID")
ibt_check "S2's entry for B set back to S1 (port 1)" lft_set 0,1,2 "$B_LID" 01
audit
ibt_expect "loop: exit 19, B's route loops at S1" "19 loop S1" \
	"$rc $(dest "$B_LID" '"\(.verdict) \(.at.node_desc)"')"
ibt_expect "  proof: B not probed, C verified, S1 and S2 no agent" \
	"null verified no_agent no_agent" "$(proved)"
ibt_check "S2's entry restored" lft_set 0,1,2 "$B_LID" "$old"
audit
ibt_expect "restored: exit 0, the clean verdicts" "0 $clean" "$rc $(verdicts)"
ibt_expect "  and the clean proof" "verified verified no_agent no_agent" "$(proved)"

ibt_check "B's link down" "$IBTRACECTL" sim set aud S2 port 2 link down
audit
ibt_expect "dead end: exit 19, 4 nodes found" "19 4" \
	"$rc $(jq -r .sweep.nodes <<< "$out")"
ibt_expect "  B's LID (the tables still route it): dead end at S2's port 2" \
	"dead_end S2 2" "$(dest "$B_LID" '"\(.verdict) \(.at.node_desc) \(.at.port)"')"
ibt_expect "  proof: B not probed, C verified, S1 and S2 no agent" \
	"null verified no_agent no_agent" "$(proved)"
ibt_check "B's link up" "$IBTRACECTL" sim set aud S2 port 2 link up
ibt_check "  every port Active again" ibt_sim_wait_active aud

# --- A fault the tables do not show ------------------------------------------------

# S1 sends LID-routed packets for B out of port 3, to C (which drops them),
# whatever its LFT says; the sweep's directed-route SMPs are not misrouted,
# so the tables still route B right. Only the proof sees it.
ibt_check "S1 misroutes B's LID to C (port 3)" \
	"$IBTRACECTL" sim set aud S1 misroute "$B_LID" 3
audit -t 300 -r 1
ibt_expect "misroute: exit 19, every route ok by the tables" "19 4" \
	"$rc $(jq -r .summary.ok <<< "$out")"
ibt_expect "  B unreachable, after 2 MADs (-r 1)" "unreachable 2" \
	"$(dest "$B_LID" '.proof | "\(.verdict) \(.attempts)"')"
ibt_expect "  the others: C verified, S1 and S2 no agent; 1 unreachable, no mismatch" \
	"unreachable verified no_agent no_agent 1 0" \
	"$(proved) $(jq -r '.proof | "\(.unreachable) \(.mismatch)"' <<< "$out")"
txt=$("$IBTRACECTL" -d "$A" audit -t 300 -r 1)
ibt_expect "  text: exit 19" 19 "$?"
ibt_match "  text: the data path line counts it" \
	'^data path: 4 probes: 1 verified, 2 no agent, 1 unreachable \(' "$txt"
ibt_match "  text: a line naming B's LID" \
	"^  lid $(printf '0x%04x' "$B_LID") \\(port 1 of ca \"B\" \\(0x[0-9a-f]*\\)\\): unreachable: no answer after 2 MADs$" \
	"$txt"
# B's probe waits 5 s an attempt: 2 s in, the sweep is long done
"$IBTRACECTL" -j -d "$A" audit -t 5000 -r 3 > "$TMP/prove.json" 2>"$TMP/prove.err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
ibt_expect "SIGINT mid-proof: exit 13" 13 "$?"
ibt_match "  one sentence" "^Error: audit from $A/1 cancelled during the proof" \
	"$(cat "$TMP/prove.err")"
ibt_expect "  the kernel's job: a proof, cancelled (ECANCELED)" "prove 125" \
	"$("$IBTRACECTL" -j job show | jq -r '[.[] | select(.kind == "prove")][-1] | "\(.kind) \(.errno)"')"
audit -t 300 -r 1 --prom "$TMP/audit.prom"
ibt_check "  --prom: success 0, B's probe a failing destination" eval \
	"prom_has 'ibtrace_audit_success{device=\"$A\",port=\"1\"} 0' &&
	 prom_has 'ibtrace_audit_failing_destinations{device=\"$A\",port=\"1\"} 1' &&
	 grep -qx 'ibtrace_audit_failing_destination{device=\"$A\",port=\"1\",dlid=\"$(printf '0x%04x' "$B_LID")\",check=\"probe\",verdict=\"unreachable\",node_guid=\"0x[0-9a-f]*\",node_desc=\"B\",dest_port=\"1\"} 1' '$TMP/audit.prom'"
# audit merge: the audits from A and from C; both lose B, each verifies
# the other, so the channels toward B (S1 port 2, S2 port 2) and back from
# it (B's port 1, S2 port 1: the answer may be what is lost) lead, with
# both failing probes and no verified one, and A's and C's own links
# (S1 ports 1 and 3 back to them), verified too, come after.
"$IBTRACECTL" -j -d "$A" audit -t 300 -r 1 > "$TMP/from-a.json"
"$IBTRACECTL" -j -d "$(ibt_sim_dev C)" audit -t 300 -r 1 > "$TMP/from-c.json"
mjs=$("$IBTRACECTL" -j audit merge "$TMP/from-a.json" "$TMP/from-c.json")
ibt_expect "audit merge of A's and C's audits: exit 19, 2 audits, 2 failing probes" \
	"19 2 2" "$? $(jq -r '"\(.audits) \(.failing)"' <<< "$mjs")"
ibt_expect "  first four suspects: to B (S1, S2 port 2) and back (B port 1, S2 port 1), 2 failing, 0 verified each" \
	"B:1:2:0 S1:2:2:0 S2:1:2:0 S2:2:2:0" \
	"$(jq -r '[.suspects[0:4][] | "\(.node_desc):\(.port):\(.failing):\(.verified)"] | sort | join(" ")' <<< "$mjs")"
ibt_expect "  then A's and C's links both ways: 1 failing, 2 verified each" "1:2 1:2 1:2 1:2" \
	"$(jq -r '[.suspects[4:][] | "\(.failing):\(.verified)"] | join(" ")' <<< "$mjs")"
ibt_check "S1's misroute rule removed" \
	"$IBTRACECTL" sim set aud S1 misroute "$B_LID" none
audit
ibt_expect "rule removed: exit 0, B verified again" "0 verified" \
	"$rc $(dest "$B_LID" .proof.verdict)"

# --- Refusals --------------------------------------------------------------------

ibt_unpriv -d "$A" audit >/dev/null 2>&1
ibt_expect "unprivileged: exit 5" 5 "$?"
max_window=$(awk '$2 == "IBTRACE_SWEEP_MAX_WINDOW" { print $3 }' "$IBT_ROOT/uapi/linux/ibtrace.h")
for bad in "--window 0" "--window $((max_window + 1))" \
	   "--max-nodes 0" "--load $TMP/fab.json --save $TMP/x.json" "bogus"; do
	# shellcheck disable=SC2086	# the words
	"$IBTRACECTL" -d "$A" audit $bad >/dev/null 2>"$TMP/err"
	ibt_expect "audit $bad: exit 2" 2 "$?"
done
ibt_match "  one sentence" "^Error: " "$(cat "$TMP/err")"
if modprobe rdma_rxe 2>/dev/null && ibt_rxe_add rxe0; then
	"$IBTRACECTL" -d rxe0 audit >/dev/null 2>"$TMP/err"
	ibt_expect "a RoCE port: refused, exit 1" 1 "$?"
	ibt_match "  the kernel's sentence" "^Error: a RoCE port has no subnet to sweep" \
		"$(cat "$TMP/err")"
	"$IBTRACECTL" -d rxe0 audit --load "$TMP/fab.json" >/dev/null 2>"$TMP/err"
	ibt_expect "  --load from a RoCE port: exit 4" 4 "$?"
	ibt_match "  no route starts there" "^Error: rxe0/1 is not an Active InfiniBand port with a LID" \
		"$(cat "$TMP/err")"
	ibt_rxe_del rxe0
fi

# --- A credit loop on a ring, and a proof ended early ------------------------------

# Five switches in a ring (R<i> port 1 to R<i+1> port 2), an HCA on each
# (topo/ring5.topo, sim_ring.sh's): SM-lite's min-hop routes go two
# switch hops each way round, so the channels of the ring wait on each
# other all the way round.
ibt_check "fabric ring (SM-lite): 5 switches in a ring, an HCA on each" \
	"$IBTRACECTL" sim add "$IBT_TOPO/ring5.topo" --name ring
ibt_check "  every port Active" ibt_sim_wait_active ring
RJ=$(ibt_sim_json ring)
H1=$(jq -r '.nodes[] | select(.name == "H1") | .dev' <<< "$RJ")
out=$("$IBTRACECTL" -j -d "$H1" audit --save "$TMP/ring.json")
ibt_expect "ring: exit 19, the 9 other nodes' routes ok, every probe answered" \
	"19 9 9 4 5 0" \
	"$? $(jq -r '"\(.summary.destinations) \(.summary.ok) \(.proof.verified) \(.proof.no_agent) \(.proof.unreachable)"' <<< "$out")"
ibt_expect "  credit loops: a cycle each way round the ring, of its 5 switch links" \
	"2 5:R1:1,R2:1,R3:1,R4:1,R5:1 5:R1:2,R2:2,R3:2,R4:2,R5:2" \
	"$(jq -r '.credit_loops | "\(.loops) " + ([.cycles[] | "\(length):" +
		([.[] | "\(.node_desc):\(.port)"] | sort | join(","))] | sort | join(" "))' <<< "$out")"
txt=$("$IBTRACECTL" -d "$H1" audit --load "$TMP/ring.json")
ibt_match "  text: the loops counted, each cycle's channels listed" \
	"^credit loops: 2 \\([0-9]+ channels, [0-9]+ dependencies\\)" "$txt"
ibt_expect "  text: a line per channel" 10 \
	"$(grep -cE '^    switch "R[1-5]" \(0x[0-9a-f]{16}\) port [12]$' <<< "$txt")"

# H1's probes to H2 leave by R1 port 1: held back 5 s an attempt, that
# link dropping all; 2 s in, the proof (of the saved ring: no sweep) runs
prove_held()
{
	"$IBTRACECTL" -j -d "$H1" audit --load "$TMP/ring.json" -t 5000 -r 3 \
		> /dev/null 2>"$TMP/held.err" &
	pid=$!
	sleep 2
}
ibt_check "ring: R1 port 1 drops everything" \
	"$IBTRACECTL" sim set ring R1 port 1 drop 100
prove_held
ibt_check "rmmod ibtrace mid-proof" rmmod ibtrace
wait "$pid"
ibt_expect "  the audit ends: exit 4 (device gone)" 4 "$?"
ibt_match "  one sentence" "^Error: the device went away during the proof$" \
	"$(cat "$TMP/held.err")"
ibt_check "ibtrace loads again" ibt_modprobe_ibtrace
prove_held
ibt_check "sim del ring (device removal) mid-proof" "$IBTRACECTL" sim del ring
wait "$pid"
ibt_expect "  the audit ends: exit 4 (device gone), one sentence" \
	"4 Error: the device went away during the proof" "$? $(cat "$TMP/held.err")"
ibt_expect "  nothing of the ring left" "" \
	"$(ibt_sim_devs | tr ' ' '\n' | grep -Fxf <(jq -r '.nodes[].dev // empty' <<< "$RJ"))"

# --- Ended in mid-sweep ------------------------------------------------------------

# slow: an audit by one SMP at a time through the S1-S2 link, held back
# 400 ms each way: the sweep takes seconds; 2 s into it, $pid is its tool.
slow()
{
	"$IBTRACECTL" -j -d "$A" audit --window 1 > "$TMP/slow.json" 2>"$TMP/slow.err" &
	pid=$!
	sleep 2
}
ibt_check "the S1-S2 link held back 400 ms" "$IBTRACECTL" sim set aud S1 port 2 delay 400000
slow
kill -INT "$pid"
wait "$pid"
ibt_expect "SIGINT mid-sweep: exit 13" 13 "$?"
ibt_match "  one sentence" "^Error: audit from $A/1 cancelled during the sweep" \
	"$(cat "$TMP/slow.err")"
ibt_expect "  the kernel's job: a sweep, cancelled (ECANCELED)" "sweep 125" \
	"$("$IBTRACECTL" -j job show | jq -r '[.[] | select(.kind == "sweep")][-1] | "\(.kind) \(.errno)"')"
slow
ibt_check "rmmod ibtrace mid-sweep" rmmod ibtrace
wait "$pid"
ibt_expect "  the audit ends: exit 4 (device gone)" 4 "$?"
ibt_check "ibtrace loads again" ibt_modprobe_ibtrace
slow
ibt_check "sim del (device removal) mid-sweep" "$IBTRACECTL" sim del aud
wait "$pid"
ibt_expect "  the audit ends: exit 4 (device gone)" 4 "$?"
ibt_done
