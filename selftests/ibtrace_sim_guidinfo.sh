#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The GUIDInfo conformance test (IBTA C14_024_05) through "ibtracectl test",
# on an ibtrace_sim fabric brought up by SM-lite: HCA A - switch S1 -
# switch S2 - HCA B, HCA C on S1, GUID tables of 255 entries.
#
# "test list" names guidinfo and its seven assertions (also for an
# unprivileged user). Compliant ports pass (exit 0, every assertion listed,
# none failed or not run, the GUIDCap reported) with GUIDCap 1, 8, 32 and
# 255 (the sim's largest), addressed locally (-d A), by directed route
# through both switches (--dr 1,2,2), by LID (--lid), and at a switch's
# port 0 (--dr 1,2); a switch external port (--dut-port 2) is not
# applicable (exit 16) with a reason. Each GUIDInfo quirk of the sim fails
# the test (exit 15) at the assertion it breaks, with the value a user
# would see: entry0-writable v1c14-030#01 (entry 0 read back as the
# bitwise NOT of the PortGUID), past-table-status v1c14-024.1.1#05.03
# (status 0), above-cap-nonzero v1c14-024.1.1#05.01 (an entry above
# GUIDCap that was written earlier). The GUID table, read with raw SMPs
# (ibtrace_sim_smp) before and after, is identical after every run,
# including a job cancelled with "test cancel" (show: verdict error,
# reason cancelled, exit 17), one stopped by SIGINT
# (exit 13), and one whose module is removed mid-run (exit 17). A ninth
# concurrent job is refused as busy (exit 14). A RoCE port (rxe) is not
# applicable (exit 16). An unprivileged run exits 5; an unknown test, a
# --dr with port 0, --blocks 0 are usage errors (exit 2).

source "$(dirname "$0")/lib.sh"

ibt_tmpdir

IDS="v1c13-024#01 v1c13-024#07 v1c14-024.1.1#05.01 v1c14-024.1.1#05.02 v1c14-024.1.1#05.03 v1c14-027#01 v1c14-030#01"
SLOW_US=300000		# per packet S1 -> S2, to catch a job mid-run

ibt_require_root
ibt_require_file "$SIM_KO" "$IBT_KO" "$IBTRACECTL"
ibt_require_cmd jq setpriv python3
ibt_require_file "$SIM_SMP"
ibt_require_modules ib_core ib_umad

ibt_sim_load_ibtrace "load ibtrace"

# test list ------------------------------------------------------------------

js=$("$IBTRACECTL" -j test list)
ibt_expect "test list: guidinfo, seed C14_024_05" "C14_024_05" \
	"$(jq -r '.[] | select(.name == "guidinfo") | .seed' <<< "$js")"
ibt_expect "  its seven assertion ids" "$IDS" \
	"$(jq -r '.[] | select(.name == "guidinfo") | [.assertions[].id] | sort | join(" ")' <<< "$js")"
ibt_expect "  every assertion described" 0 \
	"$(jq '[.[] | select(.name == "guidinfo") | .assertions[] | select((.desc // "") == "")] | length' <<< "$js")"
out=$(ibt_unpriv test list 2>&1)
ibt_expect "test list as an unprivileged user: exit 0, lists guidinfo" "0 yes" \
	"$? $(grep -q '^guidinfo ' <<< "$out" && echo yes)"

# The fabric -----------------------------------------------------------------

ibt_check "fabric g (SM-lite, GUID tables of 255)" \
	"$IBTRACECTL" sim add "$IBT_TOPO/s1s2_a_first.topo" --name g --guid-cap 255
ibt_sim_wait_active g
J=$(ibt_sim_json g)
A=$(ibt_sim_dev A)
B=$(ibt_sim_dev B)
LB=$(ibt_sim_lid B 1)
GB=$(ibt_sim_node B '.ports[] | select(.port == 1) | .guid')
ibt_match "A, B are RDMA devices, B has a LID" '^ibtsim[0-9]+ ibtsim[0-9]+ [1-9][0-9]*$' \
	"$A $B $LB"

set_g()
{
	"$IBTRACECTL" sim set g "$@"
}
# num VALUE: VALUE (decimal or 0x hex) in decimal; notnum() its bitwise
# NOT in 64 bits
num()
{
	python3 -c 'import sys; print(int(sys.argv[1], 0))' "$1" 2>/dev/null ||
		echo "not a number: $1"
}
notnum()
{
	python3 -c 'import sys; print(~int(sys.argv[1], 0) & (2**64 - 1))' "$1"
}

# table PATH CAP: the DUT's GUID table as raw SMPs from A read it, blocks
# 0 .. the first past GUIDCap (at most 31): "block status data" lines.
table()
{
	local last=$((($2 + 7) / 8)) b

	[ "$last" -gt 31 ] && last=31
	for b in $(seq 0 "$last"); do
		echo "$b $("$SIM_SMP" -C "$A" -P 1 -t 1000 -D "$1" get 0x14 "$b" | tr '\n' ' ')"
	done
}

# run ARGS...: ibtracectl -j test run guidinfo ARGS; sets js, rc, err
run()
{
	js=$("$IBTRACECTL" -j test run guidinfo "$@" 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
}

# the result of assertion $1 and its observed value (of the last result)
assert_of() { ibt_jr ".assertions[] | select(.id == \"$1\") | .${2:-result}"; }

# pass NAME PATH CAP ARGS...: a compliant DUT passes, its table unchanged
pass()
{
	local name=$1 path=$2 cap=$3 before

	shift 3
	before=$(table "$path" "$cap")
	run "$@"
	ibt_expect "$name: verdict pass, exit 0" "pass 0" "$(ibt_jr .verdict) $rc"
	[ "$rc" = 0 ] || printf '# stderr: %s\n' "$err"
	ibt_expect "  every assertion listed" "$IDS" "$(ibt_jr '[.assertions[].id] | sort | join(" ")')"
	ibt_expect "  none failed or not run" "" \
		"$(ibt_jr '[.assertions[] | select(.result == "fail" or .result == "not_run") | .id] | join(" ")')"
	ibt_expect "  GUIDCap $cap reported, job finished" "$cap finished" \
		"$(ibt_jr '"\(.guid_cap) \(.state)"')"
	if [ "$cap" -gt 1 ]; then
		ibt_expect "  restore verified" verified "$(ibt_jr .restore)"
	else
		ibt_match "  restore verified (or nothing changed)" '^(verified|none)$' "$(ibt_jr .restore)"
	fi
	ibt_expect "  GUID table identical before and after (raw SMPs)" "$before" \
		"$(table "$path" "$cap")"
}

# Compliant ports ----------------------------------------------------------------

for cap in 1 8 32 255; do
	set_g A port 1 guid-cap "$cap"
	pass "local A/1, GUIDCap $cap" 0 "$cap" -d "$A" -p 1
	ibt_expect "  DUT addressed locally, a CA" "local ca $A 1" \
		"$(ibt_jr '"\(.addressing) \(.dut_node_type) \(.dev) \(.port)"')"
done
job_pass=$(ibt_jr .job)

set_g B port 1 guid-cap 8
pass "B by directed route A-S1-S2-B (--dr 1,2,2)" 0,1,2,2 8 -d "$A" --dr 1,2,2
ibt_expect "  addressed by DR 1,2,2; B's PortGUID and LID" "dr [1,2,2] $(num "$GB") $LB" \
	"$(ibt_jr '"\(.addressing) \(.dr_path | tojson)"') $(num "$(ibt_jr .dut_port_guid)") $(ibt_jr .dut_lid)"
pass "B by LID $LB (--lid)" 0,1,2,2 8 -d "$A" --lid "$LB"
ibt_expect "  addressed by LID" "lid $LB" "$(ibt_jr '"\(.addressing) \(.lid)"')"

set_g S2 port 0 guid-cap 8
pass "switch S2 port 0 (--dr 1,2)" 0,1,2 8 -d "$A" --dr 1,2
ibt_expect "  a switch, port 0" "switch 0" "$(ibt_jr '"\(.dut_node_type) \(.dut_port)"')"

before=$(table 0,1,2 8)
run -d "$A" --dr 1,2 --dut-port 2
ibt_expect "switch S2 external port 2: not applicable, exit 16" "not_applicable 16" \
	"$(ibt_jr .verdict) $rc"
ibt_match "  with a reason" '.' "$(ibt_jr '.reason // empty')"
ibt_expect "  S2's table untouched" "$before" "$(table 0,1,2 8)"

# Text output, and show of a kept job
out=$("$IBTRACECTL" -d "$A" test run guidinfo --dr 1,2,2)
rc=$?
ibt_expect "text run: exit 0" 0 "$rc"
ibt_match "  header: job, test, seed, DUT by DR, GUIDCap" \
	"^job [0-9]+ test guidinfo seed C14_024_05 dut $A/1 dr 1,2,2[ :].*guid_cap 8$" "$out"
ibt_match "  the assertion's line in the result" '^PASS +v1c14-027#01 ' "$out"
ibt_expect "  each assertion printed once" 1 "$(grep -c 'v1c14-027#01' <<< "$out")"
ibt_match "  PASS lines of the result" '^PASS +v1c14-030#01 ' "$out"
ibt_match "  exchange statistics" '^exchanges [1-9][0-9]* rtt min/avg/max [0-9.]+/[0-9.]+/[0-9.]+ us$' "$out"
ibt_match "  restore, verdict" '^restore: verified$' "$out"
ibt_match "  (verdict last)" '^verdict: pass$' "$(tail -n 1 <<< "$out")"
out=$("$IBTRACECTL" test show "$job_pass")
ibt_expect "test show JOB of a passed job: exit 0, verdict pass" "0 verdict: pass" \
	"$? $(tail -n 1 <<< "$out")"
out=$("$IBTRACECTL" -j test show -v "$job_pass")
ibt_match "  JSON with its exchanges" '^[1-9]' "$(jq '.exchanges | length' <<< "$out")"
ibt_match "test show: one line per kept job" \
	"^job $job_pass test guidinfo dut $A/1 local .*state finished verdict pass" \
	"$("$IBTRACECTL" test show)"

# Quirks: each fails the test at the assertion it breaks ----------------------------

# quirk NAME QUIRK ID: B (DR 1,2,2) with QUIRK fails ID; table unchanged
quirk()
{
	local before

	before=$(table 0,1,2,2 8)
	run -d "$A" --dr 1,2,2
	ibt_expect "$1: verdict fail, exit 15" "fail 15" "$(ibt_jr .verdict) $rc"
	ibt_expect "  $3 failed" fail "$(assert_of "$3")"
	ibt_match "  stderr says the DUT failed" '^Error: job [0-9]+: the DUT failed guidinfo' "$err"
	ibt_expect "  GUID table identical before and after" "$before" "$(table 0,1,2,2 8)"
}

set_g B port 1 guid-cap 8 guid-quirks entry0-writable
quirk "entry0-writable" entry0-writable "v1c14-030#01"
ibt_expect "  observed: entry 0 read back as NOT PortGUID" \
	"$(notnum "$GB")" "$(num "$(assert_of v1c14-030#01 observed)")"
ibt_expect "  expected: the PortGUID" "$(num "$GB")" "$(num "$(assert_of v1c14-030#01 expected)")"

set_g B port 1 guid-quirks past-table-status
quirk "past-table-status" past-table-status "v1c14-024.1.1#05.03"
ibt_expect "  observed status 0, expected 0x001C" "0 28" \
	"$(num "$(assert_of v1c14-024.1.1#05.03 observed)") $(num "$(assert_of v1c14-024.1.1#05.03 expected)")"

# Entries 4..7 of B written while GUIDCap is 4: they read back non-zero
set_g B port 1 guid-cap 4 guid-quirks above-cap-nonzero
seed=""
for e in 4 5 6 7; do
	seed="$seed${seed:+,}00,02,c9,ff,fe,00,00,$(printf '%02x' $((0x40 + e)))"
done
ibt_check "B: entries 4..7 written above GUIDCap 4 (quirk on)" \
	"$SIM_SMP" -C "$A" -P 1 -t 1000 -D 0,1,2,2 set 0x14 0 "32=$seed"
quirk "above-cap-nonzero" above-cap-nonzero "v1c14-024.1.1#05.01"
ibt_match "  observed: one of the entries written" \
	"^($(num 0x0002c9fffe000044)|$(num 0x0002c9fffe000045)|$(num 0x0002c9fffe000046)|$(num 0x0002c9fffe000047))$" \
	"$(num "$(assert_of v1c14-024.1.1#05.01 observed)")"
set_g B port 1 guid-cap 8 guid-quirks none

# Cancelled and interrupted jobs restore the DUT ----------------------------------

# wait_finished JOB: up to 120 s; then $js is the job's result
wait_finished()
{
	local _

	for _ in $(seq 600); do
		js=$("$IBTRACECTL" -j test show "$1" 2>/dev/null)
		rc=$?
		[ "$(ibt_jr .state)" = finished ] && return 0
		sleep 0.2
	done
	return 1
}

before=$(table 0,1,2,2 8)
set_g S1 port 2 delay "$SLOW_US"
job=$("$IBTRACECTL" -j -d "$A" test run guidinfo --dr 1,2,2 --detach | jq -r .job)
ibt_match "--detach: prints the job number at once" '^[1-9][0-9]*$' "$job"
sleep 2
js=$("$IBTRACECTL" -j test show "$job")
ibt_expect "  the job is still running (slow link)" running "$(ibt_jr .state)"
ibt_check "test cancel $job" "$IBTRACECTL" test cancel "$job"
wait_finished "$job"
ibt_expect "  the job finishes: verdict error, reason cancelled, restore verified; show exits 17" \
	"error cancelled verified 17" "$(ibt_jr '"\(.verdict) \(.reason) \(.restore)"') $rc"

"$IBTRACECTL" -j -d "$A" test run guidinfo --dr 1,2,2 > "$TMP/int.json" 2>"$TMP/int.err" &
pid=$!
# SIGINT once the job has saved the table (it has something to restore):
# its first exchange of the test phase, however slow the machine.
for _ in $(seq 300); do
	j=$("$IBTRACECTL" -j test show 2>/dev/null |
		jq -r '[.[] | select(.state == "running")][0].job // empty')
	[ -n "$j" ] && "$IBTRACECTL" -j test show "$j" 2>/dev/null |
		jq -e '[.exchanges[] | select(.phase == "test")] | length > 0' >/dev/null &&
		break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
ibt_expect "SIGINT mid-run: exit 13 once the kernel restored the DUT" 13 "$?"
js=$(cat "$TMP/int.json")
ibt_expect "  JSON: cancelled, verdict error (cancelled), restore verified" \
	"true error cancelled verified" \
	"$(ibt_jr '"\(.cancelled) \(.verdict) \(.reason) \(.restore)"')"
ibt_match "  one sentence on stderr" "^Error: job [0-9]+ cancelled; restore verified$" \
	"$(grep '^Error' "$TMP/int.err")"

# Nine jobs at once: the ninth is refused
jobs=
for _ in $(seq 8); do
	jobs="$jobs $("$IBTRACECTL" -j -d "$A" test run guidinfo --dr 1,2,2 --detach | jq -r .job)"
done
out=$("$IBTRACECTL" -d "$A" test run guidinfo --dr 1,2,2 --detach 2>&1)
ibt_expect "a ninth job while eight run: busy, exit 14" 14 "$?"
for j in $jobs; do
	"$IBTRACECTL" test cancel "$j" 2>/dev/null
done
# One job at a time holds a DUT port; the others wait for it, so each of
# the eight either restored what it changed or never changed anything (the
# table check below shows they did not undo each other's restore).
bad=0
verified=0
for j in $jobs; do
	if ! wait_finished "$j"; then
		bad=$((bad + 1))
		continue
	fi
	case $(ibt_jr .restore) in
	verified) verified=$((verified + 1)) ;;
	none) ;;
	*) bad=$((bad + 1)) ;;
	esac
done
ibt_expect "  the eight cancelled: each restored (verified) or untouched" 0 "$bad"
echo "# $verified of the eight held the port in turn and restored it"

"$IBTRACECTL" -j -d "$A" test run guidinfo --dr 1,2,2 > "$TMP/rm.json" 2>"$TMP/rm.err" &
pid=$!
sleep 2
ibt_check "rmmod ibtrace mid-run" rmmod ibtrace
wait "$pid"
rc=$?
ibt_expect "  the run ends: exit 17 (could not be completed)" 17 "$rc"
[ "$rc" = 17 ] || sed 's/^/# /' "$TMP/rm.err"
set_g S1 port 2 delay 0
ibt_expect "GUID table of B identical after cancel, SIGINT, busy and rmmod" \
	"$before" "$(table 0,1,2,2 8)"
ibt_check "reload ibtrace" ibt_modprobe_ibtrace

# RoCE: no SMPs -------------------------------------------------------------------

if modprobe rdma_rxe 2>/dev/null && ibt_rxe_add rxe0 >/dev/null 2>&1; then
	run -d rxe0
	ibt_expect "RoCE port rxe0: not applicable, exit 16" "not_applicable 16" \
		"$(ibt_jr .verdict) $rc"
	ibt_match "  with a reason" '.' "$(ibt_jr '.reason // empty')"
	ibt_rxe_del rxe0
else
	ibt_skip_one "RoCE port: not applicable" "no rdma_rxe"
fi

# Bad requests --------------------------------------------------------------------

out=$(ibt_unpriv -d "$A" test run guidinfo 2>&1)
ibt_expect "unprivileged run: exit 5" 5 "$?"
out=$("$IBTRACECTL" -d "$A" test run nosuch 2>&1)
ibt_expect "unknown test: exit 2" 2 "$?"
ibt_match "  names it" '^Error: unknown test "nosuch"' "$out"
out=$("$IBTRACECTL" -d "$A" test run guidinfo --dr 1,0,2 2>&1)
ibt_expect "--dr 1,0,2: exit 2" 2 "$?"
ibt_match "  names the list" '^Error: bad --dr "1,0,2"' "$out"
out=$("$IBTRACECTL" -d "$A" test run guidinfo --blocks 0 2>&1)
ibt_expect "--blocks 0: exit 2" 2 "$?"
ibt_match "  one sentence" '^Error: bad --blocks "0": expected 1\.\.32$' "$out"
out=$("$IBTRACECTL" -d "$A" test run guidinfo --dr 1,2 --lid "$LB" 2>&1)
ibt_expect "--dr with --lid: exit 2" 2 "$?"
out=$("$IBTRACECTL" test show 4000000000 2>&1)
ibt_match "show of a job that never was: an error, one line" '^[1-9][0-9]* Error: .+$' \
	"$? $out"

ibt_check "sim del g" "$IBTRACECTL" sim del g
ibt_check "rmmod ibtrace" rmmod ibtrace
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
