#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The quit test (after dapltest -T Q) on rxe, as a user runs it with
# `ibtracectl server quit --peer GID`: the peer's ibtrace server refuses
# new connections from the quit on, waits for the connections it holds
# (the tests running) to end, stops listening, and ends the quit's
# connection last; the client reports when. First against this host's own
# server (rxe loops back): with nothing running, with a held connection
# and a perf test running (the test completes and passes, the server stops
# only after the held connection ended, a new test is refused naming the
# quit), with the quitting client cancelled (the server quits all the
# same), with an admin's stop, with the module unloaded; a quit request
# of another version is refused and a librdmacm client may quit the
# server too. Then, with a peer VM (vm-run --vms 2 --peer-cmd
# selftests/peer.sh), the peer's server: it stops, a perf test against it
# is then refused, and it serves again once started. Unprivileged users
# get EPERM; a quit without a peer is refused by the tool and the kernel.

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$IBTRACECTL" "$IBT_NLRAW" "$IBT_RNR_CM"
ibt_require_cmd jq rdma setpriv ip
ibt_tmpdir

ibt_load_rxe0

# quit ARGS...: `server quit` to its end; $js the JSON, $rc the status.
quit() { js=$("$IBTRACECTL" -j -d rxe0 server quit "$@" 2>"$TMP/err"); rc=$?; }
perf() { js=$("$IBTRACECTL" -j -d rxe0 test run perf "$@" 2>"$TMP/err"); rc=$?; }
srv_q() { "$IBTRACECTL" -j server show 2>/dev/null | jq -r "$1"; }
stopped() { [ "$(srv_q .running)" = false ]; }
quitting() { [ "$(srv_q .quitting)" = true ]; }
# hold: a librdmacm client holds a perf connection (up to 120 s) in the
# background ($held: its PID, output in $TMP/held) until release kills
# it; its connection ends with it.
hold() { "$IBT_RNR_CM" -k perf -H 120000 "$self" > "$TMP/held" 2>&1 & held=$!; IBT_BG_PIDS+=("$held"); }
release() { kill "$held" 2>/dev/null; wait "$held" 2>/dev/null; }
# quit_bg: `server quit` in the background, JSON in $TMP/quit, $qpid.
quit_bg() { "$IBTRACECTL" -j -d rxe0 server quit --peer "$self_gid" > "$TMP/quit" 2>&1 & qpid=$!; }
# wait_bg PID S: wait up to S seconds for PID to exit; its status.
wait_bg()
{
	ibt_wait_for "$2" bash -c "! kill -0 $1 2>/dev/null" || return 124
	wait "$1"
}

js=$("$IBTRACECTL" -j test list)
ibt_expect "test list: quit, after dapltest -T Q" "dapltest -T Q" \
	"$(jq -r '.[] | select(.name == "quit") | .seed' <<< "$js")"

self_gid=$(ibt_self_gid)
self="$self_gid%$IBT_NETDEV"
base=$(ibt_res_counts)

# Not started, then nothing running -------------------------------------------

quit --peer "$self_gid"
ibt_expect "no server started: exit 17 (error)" 17 "$rc"
ibt_match "  the reason says the server is not started" \
	"no ibtrace server at .*connection refused \(is its server started" "$(ibt_jr .reason)"

ibt_srv start
quit --peer "$self_gid"
ibt_expect "quit, nothing running: exit 0, verdict pass" "0 pass" "$rc $(ibt_jr .verdict)"
ibt_expect "  the server's answer: version 1, 0 connections running" "1 0" \
	"$(ibt_jr '"\(.quit.server_version) \(.quit.running)"')"
ibt_expect "  it stopped (a time is reported)" true "$(ibt_jr '.quit.stopped_ns > 0')"
echo "# quit with nothing running: stopped after $(ibt_jr '.quit.stopped_ns / 1000000') ms"
ibt_expect "  both assertions pass" "pass pass" \
	"$(ibt_jr '[.assertions[] | .result] | join(" ")')"
ibt_check "  server show: stopped" stopped
ibt_match "  the kernel log names who asked" "server quit \(port [0-9]+\), as $self_gid asked" \
	"$(dmesg | tail -n 20)"
perf --peer "$self_gid" --iterations 10 RW
ibt_expect "a perf test after the quit: exit 17 (error)" 17 "$rc"
ibt_match "  the reason: no server (connection refused)" \
	"no ibtrace server at .*connection refused" "$(ibt_jr .reason)"
ibt_check "rdma resource: nothing of ours left" ibt_wait_for 15 ibt_res_back_to "$base"

out=$("$IBTRACECTL" -d rxe0 server start 2>&1 && "$IBTRACECTL" -d rxe0 server quit --peer "$self_gid" 2>&1)
ibt_expect "text: exit 0" 0 "$?"
ibt_match "  the server's answer" "server version 1, 0 connections running at the quit" "$out"
ibt_match "  the stop" "stopped after [0-9.]+ ms" "$out"

# With connections running ------------------------------------------------------

# The perf test runs for seconds, and ends well within the 60 s the held
# connection asks: 100,000 operations on Debian's kernel, 5,000 on the debug
# kernel (about 1 ms an operation there: 100,000 outlasted the hold).
perf_iters=100000
ibt_debug_kernel && perf_iters=5000
ibt_srv start
hold
ibt_check "a librdmacm client holds a perf connection" ibt_wait_for 10 ibt_srv_conns 1
job=$("$IBTRACECTL" -j -d rxe0 test run perf --peer "$self_gid" \
	--iterations "$perf_iters" --pipeline 1 --detach RW 64 | jq -r .job)
ibt_wait_for 20 ibt_rc_qps_at_least 4
quit_bg
ibt_check "quit: the server quits" ibt_wait_for 20 quitting
ibt_expect "  server show: who asked" "$(ibt_gid_exploded "$self_gid")" \
	"$(ibt_gid_exploded "$(srv_q .quit_peer)")"
perf --peer "$self_gid" --iterations 10 RW
ibt_expect "  a new perf test: exit 17 (error)" 17 "$rc"
ibt_match "  the reason names the quit" \
	"refused: quitting, as $self_gid asked" "$(ibt_jr .reason)"
ibt_expect "  counted: 1 quit, 1 refusal while quitting" "1 1" \
	"$(srv_q '"\(.stats.quits) \(.stats.rej_quitting)"')"
ibt_check "  the perf test is let finish" ibt_wait_for 120 ibt_test_finished
sleep 1
ibt_check "  the quit still waits: the held connection runs" kill -0 "$qpid"
release
wait_bg "$qpid" 90
rc=$?
js=$(cat "$TMP/quit")
ibt_expect "the quit ends: exit 0, verdict pass" "0 pass" "$rc $(ibt_jr .verdict)"
ibt_expect "  at least the held connection was running" true "$(ibt_jr '.quit.running >= 1')"
ibt_expect "  the server's bound covers the perf hold (60 s asked)" true \
	"$(ibt_jr '.quit.bound_ms > 50000')"
echo "# quit with $(ibt_jr .quit.running) running: stopped after $(ibt_jr '.quit.stopped_ns / 1000000') ms, bound $(ibt_jr .quit.bound_ms) ms"
ibt_expect "  the running perf test completed: verdict pass" "finished pass" \
	"$(ibt_test_state '"\(.state) \(.verdict)"')"
ibt_check "  server show: stopped" stopped
ibt_check "  rdma resource: nothing of ours left" ibt_wait_for 15 ibt_res_back_to "$base"

# The quitting client cancelled: the server quits all the same.
ibt_srv start
hold
ibt_wait_for 10 ibt_srv_conns 1
job=$("$IBTRACECTL" -j -d rxe0 test run quit --peer "$self_gid" --detach | jq -r .job)
ibt_check "quit (detached) while a connection is held: the server quits" ibt_wait_for 20 quitting
ibt_check "  the quit cancelled" "$IBTRACECTL" test cancel "$job"
ibt_check "  it finishes" ibt_wait_for 15 ibt_test_finished
ibt_expect "  verdict error, reason cancelled" "error cancelled" \
	"$(ibt_test_state '"\(.verdict) \(.reason)"' | sed 's/ (.*//')"
ibt_check "  the server still quits" quitting
release
ibt_check "  and stops once the held connection ended" ibt_wait_for 30 stopped

# An admin's stop while quitting ends the quit: the server stopped.
ibt_srv start
hold
ibt_wait_for 10 ibt_srv_conns 1
quit_bg
ibt_wait_for 20 quitting
ibt_srv stop
ibt_expect "server stop while quitting: 2 connections closed" "0 2" "$rc $(ibt_jr .closed)"
wait_bg "$qpid" 30
rc=$?
js=$(cat "$TMP/quit")
ibt_expect "  the quit ends: exit 0, verdict pass" "0 pass" "$rc $(ibt_jr .verdict)"
release

# The module unloaded while it quits (this host is client and server).
ibt_srv start
hold
ibt_wait_for 10 ibt_srv_conns 1
quit_bg
ibt_wait_for 20 quitting
ibt_timed_check "rmmod ibtrace while quitting" rmmod rmmod ibtrace
wait_bg "$qpid" 30
ibt_check "  the quit's tool ends (not still waiting after 30 s)" test "$?" != 124
release
ibt_check "  rdma resource: nothing of ours left" ibt_wait_for 15 ibt_res_back_to "$base"
ibt_check "ibtrace loads again" ibt_modprobe_ibtrace

# Foreign clients -------------------------------------------------------------

ibt_srv start
out=$("$IBT_RNR_CM" -k quit-version "$self" 2>&1)
ibt_expect "a quit request of version 2 (librdmacm client): rejected" \
	"conn 1 rejected status 28" "$(head -n 1 <<< "$out")"
ibt_match "  the client can print why" \
	"reason: quit request version 2: this server speaks version 1" "$out"
ibt_expect "  the server still runs, not quitting" "true false" \
	"$(srv_q '"\(.running) \(.quitting // false)"')"
out=$("$IBT_RNR_CM" -k quit -W -H 20000 "$self" 2>&1)
ibt_expect "a valid quit from librdmacm: accepted, then ended by the stop" \
	"conn 1 established|disconnected 1" \
	"$(grep -E '^(conn 1|disconnected)' <<< "$out" | paste -sd'|')"
ibt_check "  server show: stopped" stopped

# Bad requests ----------------------------------------------------------------

out=$("$IBTRACECTL" -d rxe0 server quit 2>&1)
ibt_expect "server quit without --peer: exit 2" 2 "$?"
ibt_match "  named" "peer" "$out"
out=$("$IBTRACECTL" -d rxe0 test run quit --peer "$self_gid" RW 2>&1)
ibt_expect "test run quit with a word: exit 2" 2 "$?"
out=$(ibt_test_run_raw quit)
ibt_match "raw quit without a peer: refused" "^msg=the quit test needs the GID of a peer" "$out"
ibt_srv start
out=$(ibt_unpriv -d rxe0 server quit --peer "$self_gid" 2>&1)
ibt_expect "unprivileged server quit: exit 5" 5 "$?"
out=$(ibt_unpriv -d rxe0 test run quit --peer "$self_gid" 2>&1)
ibt_expect "unprivileged test run quit: exit 5" 5 "$?"
ibt_expect "  the server still runs" true "$(srv_q .running)"
ibt_srv stop

# The peer VM's server ----------------------------------------------------------

if ! ibt_peer_mode "the peer VM's ibtrace server"; then
	ibt_rxe_del rxe0
	ibt_done
fi

ibt_expect "the peer's server runs" true \
	"$(ibt_peer_run '"$IBTRACECTL" -j server show' | jq -r .running)"
quit --peer "$peer"
ibt_expect "peer: quit: exit 0, verdict pass" "0 pass" "$rc $(ibt_jr .verdict)"
echo "# peer: stopped after $(ibt_jr '.quit.stopped_ns / 1000000') ms"
ibt_expect "  the peer's server stopped" false \
	"$(ibt_peer_run '"$IBTRACECTL" -j server show' | jq -r .running)"
ibt_match "  the peer's log names who asked" "server quit \(port [0-9]+\), as .* asked" \
	"$(ibt_peer_run 'dmesg | tail -n 20')"
perf --peer "$peer" --iterations 10 RW
ibt_expect "peer: a perf test after the quit: exit 17 (error)" 17 "$rc"
ibt_match "  the reason: no server (connection refused)" \
	"no ibtrace server at .*connection refused" "$(ibt_jr .reason)"
ibt_check "peer: its server started again" ibt_peer_run '"$IBTRACECTL" server start'
perf --peer "$peer" --iterations 10 RW
ibt_expect "peer: a perf test then passes" "0 pass" "$rc $(ibt_jr .verdict)"

ibt_rxe_del rxe0
ibt_done
