#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The transaction test (after dapltest -T T) on rxe, as a user runs it with
# `ibtracectl test run txn --peer GID [--validate] OP...`: a sequence of
# SENDs, RDMA READs and WRITEs posted by either side, walked by this host
# (the client) and an ibtrace server over THREADS x ENDPOINTS connections.
# First against this host's own server (rxe loops back), then, with a peer
# VM (vm-run --vms 2 --peer-cmd selftests/peer.sh), against the peer's:
# every operation of every iteration completes on both sides, the figures
# add up (operations, the server's among them, bytes), validation finds
# every byte where it belongs, for every kind of operation, several
# segments, "reap" SENDs, and several threads and endpoints. The negative
# control (--corrupt) makes validation fail naming the byte the server
# flipped. Bad requests are refused by the tool or, naming the attribute,
# by the kernel; unprivileged users get EPERM; a cancel, a server that
# stops, the module's unload and the device's removal, on either side, end
# the job in mid-run and leave nothing behind.

source "$(dirname "$0")/lib.sh"

ibt_require_root
ibt_require_file "$IBTRACECTL" "$IBT_NLRAW"
ibt_require_cmd jq rdma setpriv ip python3
ibt_tmpdir

ibt_load_rxe0

# txn ARGS...: run the test to its end; $js the JSON, $rc the status.
txn() { js=$("$IBTRACECTL" -j -d rxe0 test run txn "$@" 2>"$TMP/err"); rc=$?; }

# passed WHAT EPS ITERS OPS SERVER_OPS BYTES: $js is a pass of EPS
# endpoints, each with ITERS iterations, OPS operations (SERVER_OPS the
# server's) moving BYTES, no error and no mismatch.
passed()
{
	local what=$1 eps=$2 iters=$3 ops=$4 sops=$5 bytes=$6

	ibt_expect "$what: exit 0, verdict pass" "0 pass" "$rc $(ibt_jr .verdict)"
	[ "$rc" = 0 ] || echo "# reason: $(ibt_jr .reason) $(head -c 300 "$TMP/err")"
	ibt_expect "  $eps endpoints reported" "$eps" "$(ibt_jr '.endpoint_results | length')"
	ibt_expect "  each: $iters iterations, $ops operations ($sops the server's), $bytes bytes, 0 errors, 0 mismatches" \
		"$eps" "$(ibt_jr "[.endpoint_results[] | select(.iterations == $iters and
			.ops == $ops and .server_ops == $sops and .bytes == $bytes and
			.errors == 0 and (.mismatches // 0) == 0)] | length")"
	ibt_expect "  each: the server answered, version 1" "$eps" \
		"$(ibt_jr '[.endpoint_results[] | select(.server_version == 1)] | length')"
	ibt_expect "  each: a time" "$eps" \
		"$(ibt_jr '[.endpoint_results[] | select(.elapsed_ns > 0)] | length')"
	echo "# $what: $(ibt_jr '.totals // .endpoint_results[0] | "\(.mb_per_s) MB/s"')"
}

js=$("$IBTRACECTL" -j test list)
ibt_expect "test list: txn, after dapltest -T T" "dapltest -T T" \
	"$(jq -r '.[] | select(.name == "txn") | .seed' <<< "$js")"

self_gid=$(ibt_self_gid)
base=$(ibt_res_counts)
echo "# rxe0 holds: $base"

# Against a server that is not started ------------------------------------

txn --peer "$self_gid" --iterations 10 client SR 64 server SR 64
ibt_expect "no server started: exit 17 (error)" 17 "$rc"
ibt_match "  the reason says the server is not started" \
	"no ibtrace server at .*connection refused \(is its server started" "$(ibt_jr .reason)"

# Against this host's own server ------------------------------------------

ibt_srv start
base_srv=$(ibt_res_counts)

txn --peer "$self_gid" --iterations 100 client SR 256 server SR 256
passed "client SR 256, server SR 256, 100 iterations" 1 100 200 100 51200
ibt_expect "  the arguments reported; completions by event, dapltest's default" \
	"1 1 100 false event" \
	"$(ibt_jr '"\(.threads) \(.endpoints) \(.iterations) \(.validate) \(.poll)"')"
ibt_expect "  ACK timeout by default 14 (67 ms, perftest's)" 14 "$(ibt_jr .ack_timeout)"
ibt_expect "  the operations reported" "client SR 256 1,server SR 256 1" \
	"$(ibt_jr '[.ops[] | "\(.who) \(.type) \(.seg_size) \(.segs)"] | join(",")')"
ibt_expect "  assertions: T#01 pass, T#02 not applicable (no validation)" \
	"pass not_applicable" "$(ibt_jr '[.assertions[] | .result] | join(" ")')"

txn --peer "$self_gid" client SR 64 server SR 64
ibt_expect "default iterations: 1000" "0 1000" "$rc $(ibt_jr '.endpoint_results[0].iterations')"

# Every kind of operation, each side, segments; validated.
seq=(client SR 1024 server RW 4096 2 client RR 512 server RR 333 client RW 777 3 server SR 100 4)
txn --peer "$self_gid" --iterations 50 --validate "${seq[@]}"
passed "validated: every kind, both sides, segments" 1 50 300 150 \
	$(( 50 * (1024 + 8192 + 512 + 333 + 2331 + 400) ))
ibt_expect "  validation's three SENDs appended: client, server, client" \
	"client server client" "$(ibt_jr '[.ops[] | select(.appended) | .who] | join(" ")')"
ibt_expect "  assertions: both pass" "pass pass" \
	"$(ibt_jr '[.assertions[] | .result] | join(" ")')"

txn --peer "$self_gid" --iterations 200 --validate client SR 256 reap server SR 4096 reap client RW 64
passed "validated, SENDs reaped with the next receive" 1 200 600 200 $(( 200 * (256 + 4096 + 64) ))
ibt_expect "  reap reported" "true true false" "$(ibt_jr '[.ops[0:3][] | .reap] | join(" ")')"

# (rxe registers at most 512 pages, 2 MiB, in one region)
txn --peer "$self_gid" --iterations 20 --validate client RW 1048576 server RR 524288
passed "validated, 1 MiB RDMA WRITE, 512 KiB READ" 1 20 40 20 $(( 20 * (1048576 + 524288) ))

txn --peer "$self_gid" --iterations 100 --poll busy --validate client SR 256 server RR 1024
passed "validated, busy polling (dapltest's -P)" 1 100 200 100 $(( 100 * (256 + 1024) ))
ibt_expect "  poll reported" busy "$(ibt_jr .poll)"

txn --peer "$self_gid" --iterations 100 --ack-timeout 19 --validate client SR 256 server RR 1024
passed "validated, ACK timeout 19 (2.1 s, the CM's own on RoCE)" 1 100 200 100 $(( 100 * (256 + 1024) ))
ibt_expect "  ACK timeout reported" 19 "$(ibt_jr .ack_timeout)"

txn --peer "$self_gid" --iterations 30 --threads 2 --endpoints 3 --validate \
	client SR 512 server RW 2048 server SR 128
passed "2 threads x 3 endpoints, validated" 6 30 90 60 $(( 30 * (512 + 2048 + 128) ))
ibt_expect "  every thread and endpoint once" "0:0 0:1 0:2 1:0 1:1 1:2" \
	"$(ibt_jr '[.endpoint_results[] | "\(.thread):\(.endpoint)"] | sort | join(" ")')"

out=$("$IBTRACECTL" -d rxe0 test run txn --peer "$self_gid" --iterations 10 --validate client SR 256 server RW 512 2)
ibt_expect "text: exit 0" 0 "$?"
ibt_match "  the arguments line" "1 thread x 1 endpoint, 10 iterations, validate" "$out"
ibt_match "  with the poll and the ACK timeout" "validate, event poll, ACK timeout 14, server version 1" "$out"
ibt_match "  an operation's line" "op 1 +server RW 512 B x 2 segments" "$out"
ibt_match "  the endpoint's line" "thread 0 endpoint 0: iterations 10 +operations 20 \(server 10\) +errors 0" "$out"

ibt_srv show
ibt_expect "server show: 14 txn connections accepted, none held now" "14 0" \
	"$(ibt_jr '"\(.stats.accepted) \(.conns)"')"
ibt_check "rdma resource: nothing of the runs left on either side" \
	ibt_wait_for 15 ibt_res_back_to "$base_srv"

# The negative control ------------------------------------------------------

txn --peer "$self_gid" --iterations 20 --validate --corrupt 17 client SR 256 server RW 4096
ibt_expect "--corrupt 17 (server RW): exit 15 (fail)" 15 "$rc"
ibt_expect "  T#01 passes, T#02 fails" "pass fail" \
	"$(ibt_jr '[.assertions[] | .result] | join(" ")')"
ibt_expect "  the first mismatch: iteration 0, op 1, offset 17, the byte flipped" \
	"0 1 17 true" "$(ibt_jr '.endpoint_results[0].mismatch |
		"\(.iteration) \(.op) \(.offset) \(((.expected | tonumber) + (.observed | tonumber)) == 255)"')"
ibt_expect "  exactly one byte differs (iteration 1 is clean again)" 1 \
	"$(ibt_jr '.endpoint_results[0].mismatches')"
ibt_match "  the reason names it" \
	"byte 17 of op 1 in iteration 0 was 0x[0-9a-f]{2}, expected 0x[0-9a-f]{2} \(1 byte differs\)" \
	"$(ibt_jr .reason)"

txn --peer "$self_gid" --iterations 5 --validate --corrupt 99 client SR 64 client RR 100 server SR 64
ibt_expect "--corrupt 99 (a client RR of the server's buffer): exit 15, op 1 offset 99" \
	"15 1 99" "$rc $(ibt_jr '.endpoint_results[0].mismatch | "\(.op) \(.offset)"')"

# Bad requests ----------------------------------------------------------------

out=$("$IBTRACECTL" -d rxe0 test run txn --peer "$self_gid" 2>&1)
ibt_expect "no operation: exit 2" 2 "$?"
out=$("$IBTRACECTL" -d rxe0 test run txn client SR 2>&1)
ibt_expect "no peer: exit 2" 2 "$?"
out=$("$IBTRACECTL" -d rxe0 test run txn --peer "$self_gid" client RW 64 reap 2>&1)
ibt_expect "reap after an RW: exit 2" 2 "$?"
out=$("$IBTRACECTL" -d rxe0 test run txn --peer "$self_gid" --corrupt 3 server SR 2>&1)
ibt_expect "--corrupt without --validate: exit 2" 2 "$?"
out=$("$IBTRACECTL" -d rxe0 test run txn --peer "$self_gid" --threads 17 client SR 2>&1)
ibt_expect "--threads 17: exit 2" 2 "$?"
out=$("$IBTRACECTL" -d rxe0 test run txn --peer "$self_gid" client SR 4194304 2 2>&1)
ibt_expect "8 MiB in one operation: exit 2" 2 "$?"
out=$("$IBTRACECTL" -d rxe0 test run txn --peer "$self_gid" --validate --corrupt 3 client SR 64 server RR 64 2>&1)
ibt_expect "--corrupt with no operation carrying the server's data: refused by the kernel, exit 1" 1 "$?"
ibt_match "  said" "no operation carries the server's data" "$out"

out=$("$IBTRACECTL" -d rxe0 test run txn --peer "$self_gid" client SR 64 client RW 64 2>&1)
ibt_expect "no SEND from the server, no validation: refused by the kernel, exit 1" 1 "$?"
ibt_match "  said" "without validation the sequence needs a SEND \(SR\) each way" "$out"

ibt_test_bad_attrs txn "IBTRACE_A_TEST_TXN_THREADS=u32:0" "IBTRACE_A_TEST_TXN_ENDPOINTS=u32:17" \
	"IBTRACE_A_TEST_TXN_CORRUPT=u32:4194304" "IBTRACE_A_TEST_ACK_TIMEOUT=u8:32"
# An operation's nest (NLA_F_NESTED set): WHO 7 (u8, padded); the
# results-only APPENDED flag.
op=$(( $(ibt_uapi IBTRACE_A_TEST_TXN_OP) | 0x8000 ))
out=$(ibt_test_run_raw txn "$op=hex:0500010007000000")
ibt_match "raw operation of side 7: refused, naming its WHO (1)" "^bad_attr_type=1\$" "$out"
out=$(ibt_test_run_raw txn "$op=hex:04000600")
ibt_match "raw operation carrying APPENDED (results only): refused, naming it (6)" \
	"^bad_attr_type=6\$" "$out"
out=$(ibt_test_run_raw txn)
ibt_match "raw txn without a peer: refused" "^msg=the transaction test needs the GID of a peer" "$out"

out=$(ibt_unpriv -d rxe0 test run txn --peer "$self_gid" client SR server SR 2>&1)
ibt_expect "unprivileged: exit 5" 5 "$?"

# A quit while a transaction runs: the run completes, then the server stops.
# The quit is sent once the server holds the run's connection (server show),
# so that it is one the quit must wait for. The quit waits for it within its
# hold, which the client asks from the sequence: 10 s, plus 1 ms per 10
# operations and per 1000 bytes. A few iterations of 1 MiB each get a hold
# (52 s) far longer than they take, also on a host loaded with more VMs
# (there 3000 small iterations outran their 15 s).

job=$("$IBTRACECTL" -j -d rxe0 test run txn --peer "$self_gid" --iterations 40 \
	--validate --detach client SR 64 server RW 1048576 | jq -r .job)
ibt_check "server quit while a transaction runs: the server holds its connection" \
	ibt_wait_for 20 ibt_srv_conns 1
qjs=$("$IBTRACECTL" -j -d rxe0 server quit --peer "$self_gid" 2>&1)
ibt_expect "  the quit passes" pass "$(jq -r .verdict <<< "$qjs")"
echo "# the quit: $(jq -r '.quit | "\(.running) running, stopped after \(.stopped_ns / 1000000) ms"' <<< "$qjs")"
ibt_check "  the transaction finishes" ibt_wait_for 120 ibt_test_finished
js=$("$IBTRACECTL" -j test show "$job")
ibt_expect "  it completed first: pass, 40 iterations" "finished pass 40" \
	"$(ibt_jr '"\(.state) \(.verdict) \(.endpoint_results[0].iterations)"')"
ibt_srv show
ibt_expect "  the server stopped" false "$(ibt_jr .running)"

# Ended in mid-run ------------------------------------------------------------

# start_long: a validated run of 1,000,000 iterations (minutes; it asks
# for the longest hold, which the server takes with --max-hold 600000).
ibt_srv stop
ibt_srv start --max-hold 600000
start_long()
{
	job=$("$IBTRACECTL" -j -d rxe0 test run txn --peer "$self_gid" \
		--iterations 1000000 --validate --detach client SR 64 server RW 256 | jq -r .job)
	ibt_wait_for 20 ibt_rc_qps_at_least 2
	sleep 1
}

start_long
ibt_expect "a long run is running" running "$(ibt_test_state .state)"
ibt_srv show
ibt_expect "  server show: the txn client, its endpoint, iterations asked and walked" \
	"txn 0 0 1000000 true" \
	"$(ibt_jr '.clients[0] | "\(.service) \(.txn_thread) \(.txn_endpoint) \(.txn_iterations) \(.txn_iteration > 0)"')"
ibt_test_cancel_served "$base_srv"

# gone DESCRIPTION COMMAND...: COMMAND takes the server away while the
# caller's run goes on: the run ends within 15 s although nothing it waits
# for can come (the walk stops 2 s after the server's disconnect, txn.c's
# TXN_GONE_GRACE_MS, not after 30 s without a completion, TXN_STALL_MS),
# T#01 fails saying the server went away, and nothing of it is left here.
gone()
{
	local desc=$1 t0 ms

	shift
	ibt_check "$desc in mid-run" "$@"
	t0=$(ibt_now_ms)
	ibt_check "  the run finishes" ibt_wait_for 120 ibt_test_finished
	ms=$(($(ibt_now_ms) - t0))
	echo "# the run ended $ms ms after its server went"
	ibt_check "  within 15 s, not after the 30 s stall" [ "$ms" -lt 15000 ]
	ibt_expect "  verdict fail: T#01" "fail fail" \
		"$(ibt_test_state '"\(.verdict) \(.assertions[0].result)"')"
	ibt_match "  the reason says the server went away" \
		"server at .* went away during the sequence|completed in error" "$(ibt_test_state .reason)"
	ibt_check "  rdma resource: nothing of the run left here" ibt_wait_for 10 ibt_rc_qps_none
}

start_long
gone "server stopped" "$IBTRACECTL" server stop
ibt_srv start --max-hold 600000

# The client's walk and this host's server kept completing each other's
# operations within every wait's slice, so the client saw the unload's
# cancel only when a slice passed without a completion: rmmod took from
# half a second to 730 s (the run's end). The walk looks at the cancel
# each iteration now.
start_long
t0=$(ibt_now_ms)
ibt_check "rmmod ibtrace in mid-run" rmmod ibtrace
ms=$(($(ibt_now_ms) - t0))
echo "# rmmod took $ms ms"
ibt_check "  within 15 s (the walk sees the unload's cancel)" [ "$ms" -lt 15000 ]
ibt_expect "  rdma resource: no QP of ours left" 0 "$(ibt_rc_qps)"
ibt_check "ibtrace loads again" ibt_modprobe_ibtrace
ibt_srv start --max-hold 600000

start_long
ibt_rxe_del_mid mid-run
ibt_srv stop
ibt_srv start

# Against the peer VM's server ------------------------------------------------

if ! ibt_peer_mode "the peer VM's ibtrace server"; then
	ibt_srv stop
	ibt_rxe_del rxe0
	ibt_done
fi

txn --peer "$peer" --iterations 100 client SR 256 server SR 256
passed "peer: client SR 256, server SR 256" 1 100 200 100 51200
txn --peer "$peer" --iterations 50 --validate "${seq[@]}"
passed "peer: validated, every kind, both sides, segments" 1 50 300 150 \
	$(( 50 * (1024 + 8192 + 512 + 333 + 2331 + 400) ))
txn --peer "$peer" --iterations 20 --threads 2 --endpoints 2 --validate client SR 4096 reap server RW 65536 client RR 8192
passed "peer: 2 threads x 2 endpoints, validated" 4 20 60 20 $(( 20 * (4096 + 65536 + 8192) ))
txn --peer "$peer" --iterations 10 --validate --corrupt 4095 server SR 4096 client SR 64
ibt_expect "peer: --corrupt 4095 of a server SR: exit 15, op 0 offset 4095" \
	"15 0 4095" "$rc $(ibt_jr '.endpoint_results[0].mismatch | "\(.op) \(.offset)"')"
ibt_expect "peer: no QP left here" 0 "$(ibt_rc_qps)"

# The peer's device, then its module, go away in mid-run: the run ends,
# T#01 fails saying so, and nothing of it is left here.
# peer_long: start_long against the peer's server.
peer_long()
{
	job=$("$IBTRACECTL" -j -d rxe0 test run txn --peer "$peer" \
		--iterations 1000000 --validate --detach client SR 64 server RW 256 | jq -r .job)
	ibt_wait_for 60 ibt_rc_qps_at_least 1
	sleep 2
}
# The peer runs its commands under bash -c: lib.sh learns the tree from
# IBTRACE_ROOT there, not from its caller's path.
peer_lib="IBTRACE_ROOT='$IBT_ROOT'; source '$IBT_ROOT/selftests/lib.sh' >/dev/null"
ibt_check "peer: its server takes long holds" \
	ibt_peer_run '"$IBTRACECTL" server stop; "$IBTRACECTL" server start --max-hold 600000'
peer_long
ibt_expect "peer: a long run is running" running "$(ibt_test_state .state)"
gone "peer: its rxe0 deleted" ibt_peer_run "$peer_lib; ibt_rxe_del rxe0"
ibt_check "peer: rxe0 and its server again" ibt_peer_run \
	"$peer_lib; ibt_rxe_add rxe0 && \"\$IBTRACECTL\" server stop; \"\$IBTRACECTL\" server start --max-hold 600000"
peer_long
gone "peer: rmmod ibtrace" ibt_peer_run "rmmod ibtrace"
ibt_check "peer: ibtrace and its server again" ibt_peer_run \
	"$peer_lib; ibt_modprobe_ibtrace && \"\$IBTRACECTL\" server start"

ibt_srv stop
ibt_rxe_del rxe0
ibt_done
