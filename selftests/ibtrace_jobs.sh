#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The job model (Documentation/ibtrace.rst, "Jobs"): pings, traces and
# tests run as kernel jobs, never inside a generic netlink handler.
#
# On rxe0 (loopback): while a ping of 100,000 probes runs, "modprobe" and
# "rmmod" of another module with a generic netlink family (wireguard) and
# "ibtracectl dev" each finish within seconds (before jobs, modprobe sat in
# genl_register_family for over 600 s); "job show" lists the ping as a
# running ping job, and refuses an unprivileged user (exit 5); SIGINT ends
# the ping with its statistics (exit 0). With max_jobs_per_user at 1 a
# second ping is refused as busy (exit 14) naming the bound; closing the
# first ping's socket (kill -9) cancels its job ("the requester closed its
# socket"), after which a ping is admitted again.
#
# On an ibtrace_sim fabric (A - S1 - S2 - B, SM-lite): a GUIDInfo test of
# B with a 60 s timeout and 10 retries, once it has changed B's table, has
# B's link drop everything; "test cancel" then ends the job within a
# second (measured by the job's age, which includes the start of the
# "test cancel" process, so at most 2 s is asserted), and the
# result says that the restore was cut short, in one sentence; "rmmod
# ibtrace" in the same situation returns within 10 s.

source "$(dirname "$0")/lib.sh"

ibt_tmpdir
ibt_at_exit "kill \$(jobs -p) 2>/dev/null"
PARAMS=/sys/module/ibtrace/parameters

ibt_require_root
ibt_require_file "$IBTRACECTL" "$SIM_KO"
ibt_require_cmd rdma jq setpriv
modprobe rdma_rxe 2>/dev/null || ibt_skip_all "rdma_rxe not available"

# took_ms COMMAND...: run it, set $took to its wall time in ms, return its status
took_ms()
{
	local t0 rc

	t0=$(ibt_now_ms)
	"$@" > "$TMP/took.out" 2>&1
	rc=$?
	took=$(($(ibt_now_ms) - t0))
	return $rc
}

ibt_check "ibtrace loads" ibt_modprobe_ibtrace
ibt_check "rxe0 created" ibt_rxe_add rxe0
gid=$(ibt_gid0 rxe0)

# A long ping does not hold generic netlink -------------------------------------

"$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 100000 -i 1000 > "$TMP/long.out" 2>&1 &
pid=$!
ibt_check "a ping of 100000 probes is running (first probe answered)" \
	ibt_wait_for 20 grep -q 'seq=1 ' "$TMP/long.out"
js=$("$IBTRACECTL" -j job show)
ibt_expect "job show: one running ping job on rxe0" "ping running rxe0" \
	"$(jq -r '[.[] | select(.state == "running")] | .[0] | "\(.kind) \(.state) \(.dev)"' <<< "$js")"
out=$(ibt_unpriv job show 2>&1)
ibt_expect "job show as an unprivileged user: exit 5" 5 "$?"

if modinfo wireguard > /dev/null 2>&1 && ! lsmod | grep -q '^wireguard '; then
	took_ms timeout 120 modprobe wireguard
	rc=$?
	ibt_expect "modprobe wireguard (a genetlink family) during the ping: exit 0" 0 "$rc"
	ibt_check "  within 10 s (took $took ms)" test "$took" -lt 10000
	echo "# modprobe wireguard during a running ping: $took ms"
	took_ms timeout 120 rmmod wireguard
	ibt_expect "rmmod wireguard during the ping: exit 0" 0 "$?"
	ibt_check "  within 10 s (took $took ms)" test "$took" -lt 10000
	echo "# rmmod wireguard during a running ping: $took ms"
else
	ibt_skip_one "modprobe/rmmod of a genetlink family during a ping" \
		"no wireguard module (or it is in use)"
fi
took_ms timeout 120 "$IBTRACECTL" dev
ibt_expect "ibtracectl dev during the ping: exit 0" 0 "$?"
ibt_check "  within 10 s (took $took ms)" test "$took" -lt 10000
echo "# ibtracectl dev during a running ping: $took ms"

kill -INT "$pid"
took_ms wait "$pid"
rc=$?
ibt_expect "SIGINT: the ping ends, exit 0" 0 "$rc"
ibt_match "  with its statistics" "probes sent, [0-9]+ received" "$(cat "$TMP/long.out")"
echo "# SIGINT to the end of the ping: $took ms"

# Bounds, and a closed socket cancels its jobs ------------------------------------

echo 1 > "$PARAMS/max_jobs_per_user"
"$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 100000 -i 1000 > "$TMP/one.out" 2>&1 &
pid=$!
ibt_wait_for 20 grep -q 'seq=1 ' "$TMP/one.out"
id=$("$IBTRACECTL" -j job show | jq -r '[.[] | select(.state == "running")] | .[0].id')
out=$("$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 1 2>&1)
ibt_expect "max_jobs_per_user 1: a second ping is busy, exit 14" 14 "$?"
ibt_match "  the message names the bound" "^Error: busy: .*max_jobs_per_user" "$out"
kill -9 "$pid"
wait "$pid" 2>/dev/null
job_finished() { [ "$("$IBTRACECTL" -j job show "$id" | jq -r .state)" = finished ]; }
ibt_check "kill -9 of the ping: its job ends (socket closed)" \
	ibt_wait_for 5 job_finished
ibt_expect "  ended early: ECANCELED (125), the requester closed its socket" \
	"125 the requester closed its socket" \
	"$("$IBTRACECTL" -j job show "$id" | jq -r '"\(.errno) \(.message)"')"
"$IBTRACECTL" -d rxe0 ping --dgid "$gid" -c 1 > /dev/null 2>&1
ibt_expect "  a new ping is admitted again" 0 "$?"
echo 128 > "$PARAMS/max_jobs_per_user"
ibt_check "rxe0 deleted" ibt_rxe_del rxe0

# Cancel and unload with a silent DUT ----------------------------------------------

ibt_sim_load
ibt_check "fabric j (SM-lite)" "$IBTRACECTL" sim add "$IBT_TOPO/a_s1s2_b.topo" --name j \
	--guid-cap 32
ibt_sim_wait_active j
A=$("$IBTRACECTL" -j sim show j | jq -r '.[0].nodes[] | select(.name == "A") | .dev')

# start_slow_test: a GUIDInfo job of B that has begun changing B's table,
# on a slow link; $job is its ID
start_slow_test()
{
	"$IBTRACECTL" sim set j S1 port 2 delay 100000
	job=$("$IBTRACECTL" -j -d "$A" test run guidinfo --dr 1,2,2 -t 60000 -r 10 \
		--detach | jq -r .job)
	has_set() { "$IBTRACECTL" -j test show "$job" -v |
		jq -e '[.exchanges[]? | select(.phase == "test" and .method == 2)] | length > 0' \
		> /dev/null; }
	ibt_wait_for 60 has_set
}

start_slow_test
ibt_expect "a GUIDInfo job (-t 60000 -r 10) has changed B's table" 0 "$?"
"$IBTRACECTL" sim set j S2 port 2 drop 100
sleep 0.5
# The job's age (the kernel's clock) just before the cancel and at its
# end: the difference bounds cancel-to-end from above, the start of the
# "test cancel" process included. The kernel's share is the restore cut
# short 750 ms after the cancel. Two CI runs measured 1033 and 1058 ms;
# with a second VM and a build on the host it was 2319 ms. 4 s tells
# that from a cancel that waits for the job's -t 60000 -r 10 (minutes).
age() { "$IBTRACECTL" -j job show "$job" | jq -r .elapsed_ns; }

# cancel_silent WHILE: cancel $job while B is silent; it ends within 4 s
cancel_silent()
{
	local e0 took

	e0=$(age)
	ibt_check "test cancel while $1" "$IBTRACECTL" test cancel "$job"
	ibt_wait_for 30 ibt_test_finished
	took=$((($(age) - e0) / 1000000))
	ibt_check "  the job ends within a few seconds (took $took ms, the cancel's process start included)" \
		test "$took" -le 4000
	echo "# cancel to job end while $1, -t 60000 -r 10: $took ms (job age before the cancel to its end)"
}

cancel_silent "B drops everything"
js=$("$IBTRACECTL" -j test show "$job")
ibt_expect "  verdict error, restore failed" "error failed" \
	"$(jq -r '"\(.verdict) \(.restore)"' <<< "$js")"
ibt_match "  the reason says the restore was cut short" \
	"cancelled; DUT LEFT CHANGED: the restore was cut short after the cancel" \
	"$(jq -r .reason <<< "$js")"

# A cancel that comes while the restore itself waits on a silent DUT: the
# restore's exchange in flight is taken back and sent again with the short
# wait, so the job ends as soon (seen under load: a restore exchange begun
# before the cancel kept the unload waiting for its -t 60000 -r 10).
# B goes silent once the restore has begun: while its exchange is held
# back at S1/2, so that it is dropped at S2/2. Under load the restore can
# be over before that: then again, with S1/2 holding packets longer.
in_restore() { "$IBTRACECTL" -j test show "$job" -v |
	jq -e '[.exchanges[]? | select(.phase == "restore")] | length > 0' > /dev/null; }
began=0
for delay in 500000 1000000 2000000; do
	"$IBTRACECTL" sim set j S2 port 2 drop 0
	"$IBTRACECTL" sim set j S1 port 2 delay "$delay"
	job=$("$IBTRACECTL" -j -d "$A" test run guidinfo --dr 1,2,2 -t 60000 -r 10 \
		--detach | jq -r .job)
	ibt_wait_for 180 in_restore || break
	began=1
	"$IBTRACECTL" sim set j S2 port 2 drop 100
	sleep 0.5
	ibt_test_finished || break
	echo "# the restore was over before B went silent (S1/2 delay $delay us): again"
	began=0
done
ibt_expect "a GUIDInfo job (-t 60000 -r 10) has begun restoring B's table, B silent" \
	1 "$began"
cancel_silent "the restore waits on B, silent"
ibt_match "  the reason says the restore was cut short" \
	"DUT LEFT CHANGED: the restore was cut short after the cancel" \
	"$(ibt_test_state .reason)"

"$IBTRACECTL" sim set j S2 port 2 drop 0
start_slow_test
ibt_expect "a second such job has changed B's table" 0 "$?"
"$IBTRACECTL" sim set j S2 port 2 drop 100
sleep 0.5
took_ms timeout 60 rmmod ibtrace
ibt_expect "rmmod ibtrace while B drops everything: exit 0" 0 "$?"
ibt_check "  within 10 s (took $took ms)" test "$took" -lt 10000
echo "# rmmod ibtrace, a test job waiting on a silent DUT: $took ms"

"$IBTRACECTL" sim set j S2 port 2 drop 0
"$IBTRACECTL" sim set j S1 port 2 delay 0
ibt_check "sim del j" "$IBTRACECTL" sim del j
ibt_check "rmmod ibtrace_sim" rmmod ibtrace_sim
ibt_done
