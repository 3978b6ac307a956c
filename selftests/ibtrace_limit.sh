#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The limit test (after dapltest -T L) on rxe, as a user runs it with
# `ibtracectl test run limit`: per kind of verbs object, how many the
# device makes against what it advertises (the advertised values must be
# those ibv_devinfo reads through uverbs), ended by -m, by the memory
# budget or by the device itself (rxe's 32767 address handles); the
# objects the device held before counted (the kernel's own PD and QP1,
# the -w sets); rxe accepts a fast-registration MR larger than it
# advertises; receive WRs fill a QP as deep as the budget allows. Bad
# words and options are refused by the tool, bad attributes by the
# kernel naming them; unprivileged users get EPERM. rxe's PDs stop at its
# MR count, half of what it advertises: the test says so. A cancel, rxe's
# removal and the module's unload in mid-count end the job at once and
# leave nothing behind (`rdma resource` back to its counts before).

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$IBTRACECTL" "$IBT_NLRAW"
ibt_require_cmd jq rdma setpriv ibv_devinfo
ibt_tmpdir

ibt_load_rxe0

# limit ARGS...: run the test to its end; $js the JSON, $rc the status.
limit() { js=$("$IBTRACECTL" -j -d rxe0 test run limit "$@" 2>"$TMP/err"); rc=$?; }
# kind NAME FIELD: FIELD of the figures of kind NAME in $js.
kind() { ibt_jr ".limits[] | select(.object == \"$1\") | .$2"; }
# devinfo NAME: the device attribute NAME as ibv_devinfo -v prints it.
devinfo() { ibv_devinfo -v -d rxe0 | awk -v n="$1:" '$1 == n { print $2; exit }'; }

base=$(ibt_res_counts)
echo "# rxe0 holds: $base"

js=$("$IBTRACECTL" -j test list)
ibt_expect "test list: limit, after dapltest -T L" "dapltest -T L" \
	"$(jq -r '.[] | select(.name == "limit") | .seed' <<< "$js")"
ibt_expect "  one assertion per kind of object (8)" 8 \
	"$(jq '[.[] | select(.name == "limit") | .assertions[]] | length' <<< "$js")"

# Bounded by -m -----------------------------------------------------------

limit -m 300 pd cq qp mr ah srq
ibt_expect "-m 300 pd cq qp mr ah srq: exit 0 (pass)" 0 "$rc"
ibt_expect "  six kinds counted, in the order asked" "pd cq qp mr ah srq" \
	"$(ibt_jr '[.limits[].object] | join(" ")')"
for k in pd cq qp mr ah srq; do
	ibt_expect "  $k: 300 made, ended by max" "300 max" \
		"$(kind "$k" made) $(kind "$k" end)"
done
for k in pd cq qp mr ah srq; do
	ibt_expect "  $k: advertised as ibv_devinfo reads it (max_$k)" \
		"$(devinfo "max_$k")" "$(kind "$k" advertised)"
done
ibt_match "  pd: the PDs the device held before are counted (ib_mad's, the set's)" \
	'^[1-9]' "$(kind pd in_use)"
ibt_match "  qp: QP1 and the set's QP held before" '^([2-9]|[1-9][0-9]+)$' \
	"$(kind qp in_use)"
pd_in_use=$(kind pd in_use)
ibt_expect "  6 assertions pass (the kinds counted), 2 not applicable" "6 2" \
	"$(ibt_jr '"\([.assertions[] | select(.result == "pass")] | length) \([.assertions[] | select(.result == "not_applicable")] | length)"')"
ibt_expect "  width 1, budget 64 MiB reported" "1 64 300" \
	"$(ibt_jr '"\(.width) \(.budget_mb) \(.max)"')"
ibt_expect "rdma resource: nothing of the test left" "$base" "$(ibt_res_counts)"

out=$("$IBTRACECTL" -d rxe0 test run limit -m 20 pd 2>&1)
ibt_match "text: the header names the kinds, width, budget and max" \
	'^job [0-9]+ test limit seed dapltest -T L dut rxe0/1 local: objects pd width 1 budget 64 MiB max 20$' \
	"$(grep '^job [0-9]* test' <<< "$out")"
ibt_match "  a line as the kind is counted" \
	'^job [0-9]+: pd: 20 made \(ended by max\), advertised [0-9]+, [0-9]+ in use before' "$out"
ibt_match "  a table row: made, in use, advertised, ended by" \
	'^pd +20 +[0-9]+ +[0-9]+ +max ' "$out"

# -w: the sets are made first, and count as held
limit -w 4 -m 10 pd
ibt_expect "-w 4: three PDs more held before than with -w 1" $((pd_in_use + 3)) \
	"$(kind pd in_use)"

# Ended by the device, the budget ----------------------------------------

limit ah
ibt_expect "ah to its end: exit 0 (pass)" 0 "$rc"
ibt_expect "  ended by the device" device "$(kind ah end)"
echo "# rxe refused AH $(($(kind ah made) + 1)) with errno $(kind ah errno)"
ibt_expect "  rxe made every AH it advertises (max_ah)" "$(devinfo max_ah)" \
	"$(kind ah made)"

limit qp --budget 1
ibt_expect "qp --budget 1: 32 QPs of 32 KiB (the estimate), ended by the budget" \
	"32 budget 32768" "$(kind qp made) $(kind qp end) $(kind qp estimate)"
ibt_expect "  pass: the budget, not the device, ended it" pass \
	"$(ibt_jr '.assertions[] | select(.id == "dapltest-L#qp") | .result')"

limit size_mr -m 4096
ibt_expect "size_mr -m 4096 (pages): 16 MiB made, ended by max" "16777216 max" \
	"$(kind size_mr made) $(kind size_mr end)"
ibt_expect "  rxe advertises 512 pages (2 MiB) and makes more: a pass" \
	"2097152 pass" \
	"$(kind size_mr advertised) $(ibt_jr '.assertions[] | select(.id == "dapltest-L#size_mr") | .result')"

limit rpost --budget 1
ibt_expect "rpost --budget 1: 8192 receive WRs wanted (128 B each), ended by the budget" \
	"budget pass" "$(kind rpost end) $(ibt_jr '.assertions[] | select(.id == "dapltest-L#rpost") | .result')"
ibt_match "  at least 8192 posted (rxe rounds its queue up)" '^(819[2-9]|8[2-9][0-9][0-9]|9[0-9]{3}|[1-9][0-9]{4,})$' \
	"$(kind rpost made)"
ibt_expect "rdma resource: nothing of the test left" "$base" "$(ibt_res_counts)"

# Refused -------------------------------------------------------------------

out=$("$IBTRACECTL" -d rxe0 test run limit pd foo 2>&1)
ibt_expect "an unknown object: exit 2" 2 "$?"
ibt_match "  named in one sentence" '^Error: unknown object "foo" for test limit' "$out"
out=$("$IBTRACECTL" -d rxe0 test run limit -w 65 2>&1)
ibt_expect "-w 65: exit 2" 2 "$?"
ibt_match "  the range said" 'bad -w "65": expected 1\.\.64' "$out"
out=$("$IBTRACECTL" -d rxe0 test run limit --budget 4097 2>&1)
ibt_expect "--budget 4097: exit 2" 2 "$?"
out=$("$IBTRACECTL" -d rxe0 test run rnr pd 2>&1)
ibt_expect "a word after another test: exit 2" 2 "$?"
ibt_match "  named" 'unexpected argument "pd" after test rnr' "$out"
out=$("$IBTRACECTL" -d rxe0 test run limit -m 5 --timer 3 2>&1)
ibt_expect "an option of another test: exit 2" 2 "$?"

ibt_test_bad_attrs limit "IBTRACE_A_TEST_LIMIT_OBJECTS=u32:256" "IBTRACE_A_TEST_LIMIT_WIDTH=u32:65" \
	"IBTRACE_A_TEST_LIMIT_BUDGET_MB=u32:0" "IBTRACE_A_TEST_LIMIT_MAX=u32:0"

out=$(ibt_unpriv -d rxe0 test run limit -m 5 pd 2>&1)
ibt_expect "unprivileged: exit 5" 5 "$?"
ibt_match "  permission denied" '[Pp]ermission|CAP_NET_ADMIN' "$out"

# Ended in mid-count --------------------------------------------------------

# rxe advertises 1048576 PDs, but each PD the kernel makes (ib_alloc_pd)
# takes one of its 524287 MRs too (a DMA MR: rxe has no local DMA lkey):
# the count stops there, below max_pd, a finding (about 9 s under TCG).
limit pd --budget 4096
ibt_expect "pd to a 4 GiB budget: exit 15 (fail)" 15 "$rc"
ibt_expect "  rxe refused PD 524288 (what it held included): its MRs, not max_pd" \
	"device 524287 $(devinfo max_mr)" \
	"$(kind pd end) $(($(kind pd made) + $(kind pd in_use))) $(devinfo max_mr)"
ibt_expect "  the reason names the kind" "dapltest-L#pd failed" "$(ibt_jr .reason)"
ibt_expect "rdma resource: nothing of the test left" "$base" "$(ibt_res_counts)"

# The same count, caught once it has made 2000 PDs (seconds before its
# end under TCG).
pds() { rdma resource show rxe0 2>/dev/null | sed -n 's/.* pd \([0-9]*\) .*/\1/p'; }
start_long()
{
	local i

	job=$("$IBTRACECTL" -j -d rxe0 test run limit --budget 4096 pd --detach | jq -r .job)
	for ((i = 0; i < 200; i++)); do
		(($(pds) + 0 > 2000)) && break
		sleep 0.05
	done
}

start_long
ibt_expect "a long count is running" running "$(ibt_test_state .state)"
t0=$(ibt_now_ms)
ibt_check "  cancelled" "$IBTRACECTL" test cancel "$job"
ibt_check "  it finishes" ibt_wait_for 60 ibt_test_finished
echo "# cancel to finished (objects freed included): $(($(ibt_now_ms) - t0)) ms"
ibt_expect "  verdict error, reason cancelled, pd ended stopped" "error cancelled stopped" \
	"$(ibt_test_state '"\(.verdict) \(.reason) \(.limits[0].end)"')"
ibt_expect "  rdma resource: nothing left" "$base" "$(ibt_res_counts)"

start_long
ibt_rxe_del_mid mid-count 'device went away'
base=$(ibt_res_counts)

start_long
ibt_timed_check "rmmod ibtrace in mid-count" rmmod rmmod ibtrace
ibt_expect "  rdma resource: nothing of ours left" "$base" "$(ibt_res_counts)"
ibt_check "ibtrace loads again" ibt_modprobe_ibtrace
limit -m 5 pd
ibt_expect "  and a limit test passes" 0 "$rc"

ibt_check "rxe0 deleted (the tests after this one start without it)" \
	ibt_rxe_del rxe0
ibt_done
